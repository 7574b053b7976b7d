//! The simulation Web Worker's entry point (see `gpucost::worker`). Trunk builds it with
//! `data-type="worker"`; the page spawns it through its loader shim.

#[cfg(all(target_arch = "wasm32", feature = "app"))]
fn main() {
    console_error_panic_hook::set_once();
    gpucost::worker::start();
}

/// The worker only runs in the browser.
#[cfg(not(all(target_arch = "wasm32", feature = "app")))]
fn main() {
    eprintln!("gpucost-worker is the page's Web Worker: build it with `make build`.");
    std::process::exit(2);
}
