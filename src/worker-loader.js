// Loads a simulation worker (src/worker.rs) into the page's own wasm module, in an instance of
// its own. Started as a module worker by the page (src/ui/sim_worker.rs), whose first message
// holds the URL of the app's wasm-bindgen glue and the compiled WebAssembly.Module: nothing is
// downloaded or compiled again, and Trunk's hashed file names need not be known here.
addEventListener('message', async ({ data }) => {
  try {
    const app = await import(data.glue);
    await app.default({ module_or_path: data.module });
    // A simulation worker unless the page asks for another (the job-history import).
    (data.entry === 'history' ? app.startHistoryWorker : app.startSimulationWorker)();
  } catch (e) {
    // Thrown from a task of its own, so the page's `error` handler hears of it (a rejected
    // promise would not reach it) and runs the simulation on the main thread instead.
    setTimeout(() => { throw e; });
  }
}, { once: true });
