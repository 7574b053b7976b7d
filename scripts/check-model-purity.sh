#!/usr/bin/env bash
# The model and the pure chart geometry must compile without any web crate (see
# README.md, "Architecture"). Fails naming the file and line that imports one.
set -euo pipefail
cd "$(dirname "$0")/.."
pure_dirs=(src/model src/charts)
[[ -d src/scenario ]] && pure_dirs+=(src/scenario)
if hits=$(grep -rnE '\b(leptos|web_sys|js_sys|wasm_bindgen|gloo[a-z_]*)\b' "${pure_dirs[@]}"); then
  echo "Web crates referenced in the pure model (keep them in src/ui or src/js_api):"
  echo "$hits"
  exit 1
fi
echo "model purity: ${pure_dirs[*]} reference no web crate"
