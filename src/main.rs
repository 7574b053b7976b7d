//! The web app's entry point: installs the panic hook and mounts the Leptos app; and, in the
//! same wasm module, the simulation worker's entry point. Nothing else.

/// wasm-bindgen runs `main` wherever the module is instantiated: on the page, and in each
/// simulation worker (which has no window, and is started by [`start_simulation_worker`]).
#[cfg(all(target_arch = "wasm32", feature = "app"))]
fn main() {
    console_error_panic_hook::set_once();
    if web_sys::window().is_none() {
        return;
    }
    // index.html's loading shell gives way to the app, which draws the same masthead.
    if let Some(shell) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading-shell"))
    {
        shell.remove();
    }
    leptos::mount::mount_to_body(gpucost::ui::App);
}

/// The simulation worker's entry point (see `gpucost::worker`), called by its loader
/// (src/worker-loader.js) once the worker has instantiated the page's module.
#[cfg(all(target_arch = "wasm32", feature = "app"))]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = startSimulationWorker)]
pub fn start_simulation_worker() {
    gpucost::worker::start();
}

/// The job-history import worker's entry point (see `gpucost::history_worker`), called by
/// the same loader when the page starts it for an import.
#[cfg(all(target_arch = "wasm32", feature = "app"))]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = startHistoryWorker)]
pub fn start_history_worker() {
    gpucost::history_worker::start();
}

/// The app only runs in the browser; a native build of this binary says so instead of failing.
#[cfg(not(all(target_arch = "wasm32", feature = "app")))]
fn main() {
    eprintln!(
        "gpucost-app is the web page: build it with `make build` or run it with `make serve`."
    );
    std::process::exit(2);
}
