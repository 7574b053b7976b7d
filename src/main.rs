//! The web app's entry point: installs the panic hook and mounts the Leptos app. Nothing else.

#[cfg(all(target_arch = "wasm32", feature = "app"))]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(gpucost::ui::App);
}

/// The app only runs in the browser; a native build of this binary says so instead of failing.
#[cfg(not(all(target_arch = "wasm32", feature = "app")))]
fn main() {
    eprintln!(
        "gpucost-app is the web page: build it with `make build` or run it with `make serve`."
    );
    std::process::exit(2);
}
