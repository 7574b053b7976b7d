// Loads the simulation worker (src/worker.rs): wasm-bindgen's no-modules glue, then its wasm.
// Paths are relative to this file, so the page works from any sub-path.
importScripts("./gpucost-worker.js");
wasm_bindgen({ module_or_path: "./gpucost-worker_bg.wasm" });
