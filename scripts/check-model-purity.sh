#!/usr/bin/env bash
# The model, its scenarios and the pure chart geometry (the gpucost-model package, model/), and
# the job-history import (gpucost-history, history/) must
# compile without any web crate (see README.md, "Architecture"). Fails naming the file and line
# that imports or depends on one.
set -euo pipefail
cd "$(dirname "$0")/.."
pure=(model/src model/Cargo.toml history/src history/Cargo.toml)
if hits=$(grep -rnE '\b(leptos|web_sys|web-sys|js_sys|js-sys|wasm_bindgen|wasm-bindgen|gloo[a-z_-]*)\b' "${pure[@]}"); then
  echo "Web crates referenced in the pure model (keep them in src/ui, src/worker.rs or src/js_api.rs):"
  echo "$hits"
  exit 1
fi
echo "model purity: ${pure[*]} reference no web crate"
