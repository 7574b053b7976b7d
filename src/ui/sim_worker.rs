//! The simulation workers as the page sees them: started from the worker's loader, posted
//! JSON text, and terminated and started again when the run coordinator says so. What to send
//! and when (holding messages until a worker is ready, replaying a restarted one's work) is the
//! coordinator's (`crate::run_coordinator`); this is only the transport.
//!
//! A worker runs the page's own wasm module, in an instance of its own: the loader
//! (src/worker-loader.js, a module worker) is sent the URL of the app's wasm-bindgen glue and
//! the compiled `WebAssembly.Module` in its first message, so it downloads and compiles no
//! wasm, and Trunk's hashed file names need not be known to it.

use crate::worker_protocol::{decode, WorkerOutput};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

#[wasm_bindgen]
extern "C" {
    /// The URL of the app's wasm-bindgen glue (this expression is evaluated inside it).
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static GLUE_URL: String;
}

/// The first message to a new worker: where the glue is, and the compiled module.
fn boot_message() -> Option<JsValue> {
    boot_message_for(None)
}

/// The first message to a new worker started as `entry` (`Some("history")` for the
/// job-history import; a simulation worker otherwise).
pub fn boot_message_for(entry: Option<&str>) -> Option<JsValue> {
    let message = js_sys::Object::new();
    let glue = GLUE_URL.with(String::clone);
    js_sys::Reflect::set(&message, &"glue".into(), &glue.into()).ok()?;
    js_sys::Reflect::set(&message, &"module".into(), &wasm_bindgen::module()).ok()?;
    if let Some(entry) = entry {
        js_sys::Reflect::set(&message, &"entry".into(), &entry.into()).ok()?;
    }
    Some(message.into())
}

/// Whether this context can start a worker from the page's own scripts (a `Worker`
/// constructor, and an origin that is not opaque as in a sandboxed frame).
pub fn workers_possible() -> bool {
    let global = js_sys::global();
    js_sys::Reflect::has(&global, &"Worker".into()).unwrap_or(false)
        && web_sys::window().is_some_and(|w| w.origin() != "null")
}

/// Called with the worker's index and its answer, or what went wrong when it failed (crashed,
/// or could not start: its script refused, its module unreadable).
pub type OnEvent = Rc<dyn Fn(usize, Result<WorkerOutput, String>)>;

/// One worker and its listeners.
struct SimWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl Drop for SimWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.set_onmessageerror(None);
        self.worker.terminate();
    }
}

/// The page's simulation workers.
#[derive(Clone)]
pub struct WorkerPool {
    inner: Rc<Pool>,
}

struct Pool {
    loader: String,
    workers: RefCell<Vec<Option<SimWorker>>>,
    on_event: OnEvent,
}

/// What a failed worker's error event says: a script error's message, or (a plain `Event`,
/// e.g. a worker script that could not be loaded) that the worker stopped.
fn failure(event: &Event) -> String {
    event
        .dyn_ref::<ErrorEvent>()
        .map(ErrorEvent::message)
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "the worker stopped".to_string())
}

impl WorkerPool {
    /// Starts `count` workers from the loader script at `loader`; `None` where this context
    /// cannot run one (no `Worker`, an opaque origin, or the constructor refused).
    pub fn start(loader: &str, count: usize, on_event: OnEvent) -> Option<WorkerPool> {
        // A sandboxed frame without same-origin access has an opaque origin ("null"): its
        // workers could not load the page's own scripts.
        if !workers_possible() {
            return None;
        }
        let pool = WorkerPool {
            inner: Rc::new(Pool {
                loader: loader.to_string(),
                workers: RefCell::new(Vec::new()),
                on_event,
            }),
        };
        for index in 0..count.max(1) {
            let worker = pool.spawn(index)?;
            pool.inner.workers.borrow_mut().push(Some(worker));
        }
        Some(pool)
    }

    /// Workers in the pool (at least one).
    pub fn count(&self) -> usize {
        self.inner.workers.borrow().len()
    }

    fn spawn(&self, index: usize) -> Option<SimWorker> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(&self.inner.loader, &options).ok()?;
        // Read before the worker's own messages: it starts the app's module in the worker.
        if worker.post_message(&boot_message()?).is_err() {
            worker.terminate();
            return None;
        }
        let pool: Weak<Pool> = Rc::downgrade(&self.inner);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(pool) = pool.upgrade() else { return };
            let Some(output) = event
                .data()
                .as_string()
                .and_then(|text| decode::<WorkerOutput>(&text).ok())
            else {
                return;
            };
            (pool.on_event)(index, Ok(output));
        });
        let pool: Weak<Pool> = Rc::downgrade(&self.inner);
        // `error`: the worker's script threw or could not load; `messageerror`: it could not
        // read a message (the module, where this context cannot share one). Either way it does
        // no work: the coordinator falls back or restarts it.
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            event.prevent_default();
            if let Some(pool) = pool.upgrade() {
                (pool.on_event)(index, Err(failure(&event)));
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
        Some(SimWorker {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Posts `message` to worker `index`; false when it has no worker.
    pub fn post(&self, index: usize, message: &JsValue) -> bool {
        self.inner
            .workers
            .borrow()
            .get(index)
            .and_then(Option::as_ref)
            .is_some_and(|w| w.worker.post_message(message).is_ok())
    }

    /// Terminates worker `index` and starts a new one in its place; false when no new worker
    /// could be started.
    pub fn restart(&self, index: usize) -> bool {
        let old = self
            .inner
            .workers
            .borrow_mut()
            .get_mut(index)
            .and_then(Option::take);
        drop(old);
        let Some(fresh) = self.spawn(index) else {
            return false;
        };
        if let Some(slot) = self.inner.workers.borrow_mut().get_mut(index) {
            *slot = Some(fresh);
        }
        true
    }
}
