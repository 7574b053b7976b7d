//! Yielding to the browser's event loop between slices of work, on the page's main thread and
//! in the simulation workers alike.

use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageChannel, MessagePort};

thread_local! {
    /// Tasks waiting for their message, first in first out.
    static TASKS: RefCell<VecDeque<Box<dyn FnOnce()>>> = RefCell::new(VecDeque::new());
    /// The sending end of this thread's one channel (`None` where none can be made); each
    /// message on it runs the next waiting task. One channel for the thread's life: a port
    /// with a listener stays alive while entangled, so a channel per task would pile up.
    static PORT: Option<MessagePort> = open_channel();
}

fn open_channel() -> Option<MessagePort> {
    let channel = MessageChannel::new().ok()?;
    let run_next = Closure::<dyn FnMut()>::new(|| {
        let task = TASKS.with(|tasks| tasks.borrow_mut().pop_front());
        if let Some(task) = task {
            task();
        }
    });
    channel
        .port1()
        .set_onmessage(Some(run_next.as_ref().unchecked_ref()));
    // Called for every message for as long as the thread runs.
    run_next.forget();
    Some(channel.port2())
}

/// Runs `task` in a task of its own as soon as the thread is free: a message on the thread's
/// `MessageChannel`. A zero-delay timer set from a timer callback is held back at least 4 ms
/// once such timers nest more than five deep (HTML's timer rules, in workers too), which a
/// run of many slices reaches; messages already waiting (input on the page, a newer run's
/// `Start` in a worker) still come before it. Falls back to a zero-delay timer where no channel
/// can be made.
pub fn next_task(task: impl FnOnce() + 'static) {
    // The message is only ever read in a later task, so the task can be queued after it.
    let posted = PORT.with(|port| {
        port.as_ref()
            .is_some_and(|port| port.post_message(&JsValue::UNDEFINED).is_ok())
    });
    if posted {
        TASKS.with(|tasks| tasks.borrow_mut().push_back(Box::new(task)));
    } else {
        gloo_timers::callback::Timeout::new(0, task).forget();
    }
}

/// Milliseconds since the epoch: the one clock of the page's and the workers' slices and of
/// the run coordinator's events.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}
