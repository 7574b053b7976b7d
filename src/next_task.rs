//! Yielding to the browser's event loop between slices of work, on the page's main thread and
//! in the simulation workers alike.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Runs `task` in a task of its own as soon as the thread is free: a message through a new
/// `MessageChannel`. A zero-delay timer set from a timer callback is held back at least 4 ms
/// once such timers nest more than five deep (HTML's timer rules, in workers too), which a
/// run of many slices reaches; messages already waiting (input on the page, a newer run's
/// `Start` in a worker) still come before it. Falls back to a zero-delay timer where no channel
/// can be made.
pub fn next_task(task: impl FnOnce() + 'static) {
    let handler: js_sys::Function = Closure::once_into_js(task).unchecked_into();
    let sent = web_sys::MessageChannel::new().is_ok_and(|channel| {
        channel.port1().set_onmessage(Some(&handler));
        channel.port2().post_message(&JsValue::UNDEFINED).is_ok()
    });
    if !sent {
        gloo_timers::callback::Timeout::new(0, move || {
            let _ = handler.call0(&JsValue::NULL);
        })
        .forget();
    }
}
