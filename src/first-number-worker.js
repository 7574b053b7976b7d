// The loading shell's worker: runs the first-number module (src/first_number.rs) on the link's
// fragment, off the page's main thread so that the shell keeps painting. Its first message
// holds the module's hashed glue and wasm URLs (the start-up script knows them:
// scripts/externalize-start-script.mjs) and the fragment. It says 'loaded' once the module is
// instantiated, then answers with the module's JSON text.
addEventListener('message', async ({ data }) => {
  try {
    const module = await import(data.glue);
    await module.default({ module_or_path: data.wasm });
    postMessage('loaded');
    postMessage(module.firstNumber(data.fragment));
  } catch (e) {
    postMessage(JSON.stringify({ ok: false, reason: String(e) }));
  }
}, { once: true });
