#!/usr/bin/env bash
# Builds the loading shell's first-number module (src/first_number.rs, feature `first-number`:
# the model without Leptos) into a build folder (dist/ after `trunk build --release`), as
# first-number-<hash>.js and first-number-<hash>_bg.wasm; scripts/externalize-start-script.mjs
# then has the start-up script run it in a worker (src/first-number-worker.js) before it loads
# the page's own module. The release profile: the model at opt-level 3 as in the page's module,
# the rest for size.
# Run it after `trunk build --release` and before scripts/externalize-start-script.mjs, which
# names the module's files in the start-up script.
set -euo pipefail
dist=$(realpath "${1:-dist}")
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
out=$target/first-number
wasm_opt=${WASM_OPT:-$(command -v wasm-opt || echo node_modules/.bin/wasm-opt)}
cargo rustc --lib --release --locked --target wasm32-unknown-unknown --no-default-features \
  --features first-number --crate-type cdylib --quiet
rm -rf "$out" && mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name first-number \
  "$target/wasm32-unknown-unknown/release/gpucost.wasm"
"$wasm_opt" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals "$out/first-number_bg.wasm" -o "$out/first-number_bg.wasm"
# Content-hashed names, as Trunk names the page's files, so a static host may cache them.
hash=$(cat "$out/first-number.js" "$out/first-number_bg.wasm" | sha256sum | cut -c1-16)
# (Not first-number-worker.js, which Trunk copies.)
rm -f "$dist"/first-number-????????????????.js "$dist"/first-number-????????????????_bg.wasm
cp "$out/first-number_bg.wasm" "$dist/first-number-${hash}_bg.wasm"
# The glue's default wasm URL is never used (the worker passes the hashed one), but keep it right.
sed "s/first-number_bg\.wasm/first-number-${hash}_bg.wasm/g" "$out/first-number.js" \
  > "$dist/first-number-${hash}.js"
echo "first-number module: first-number-${hash}.js, $(gzip -9 -c "$dist/first-number-${hash}_bg.wasm" | wc -c) bytes of wasm gzip"
