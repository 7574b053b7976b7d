//! The simulation workers as the page sees them: started from the worker's loader, spoken to
//! with `postMessage` (messages wait until the worker says it is ready), restarted when one
//! crashes, and terminated when a newer input finds one stuck in a long replication (which a
//! message cannot interrupt).
//!
//! A worker runs the page's own wasm module, in an instance of its own: the loader
//! (src/worker-loader.js, a module worker) is sent the URL of the app's wasm-bindgen glue and
//! the compiled `WebAssembly.Module` in its first message, so it downloads and compiles no
//! wasm, and Trunk's hashed file names need not be known to it.
//!
//! Each worker remembers what it was asked since its last run started, so a restarted worker
//! picks the same work up again: its replications depend only on the scenario, seed and index,
//! so the numbers it answers are the ones the crashed worker would have.

use crate::worker::{decode, encode, WorkerInput, WorkerOutput};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

#[wasm_bindgen]
extern "C" {
    /// The URL of the app's wasm-bindgen glue (this expression is evaluated inside it).
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static GLUE_URL: String;
}

/// The first message to a new worker: where the glue is, and the compiled module.
fn boot_message() -> Option<JsValue> {
    let message = js_sys::Object::new();
    let glue = GLUE_URL.with(String::clone);
    js_sys::Reflect::set(&message, &"glue".into(), &glue.into()).ok()?;
    js_sys::Reflect::set(&message, &"module".into(), &wasm_bindgen::module()).ok()?;
    Some(message.into())
}

/// Called with the worker's index and its answer.
pub type OnOutput = Rc<dyn Fn(usize, WorkerOutput)>;
/// Called with the worker's index, what went wrong, and whether the worker had loaded (false:
/// it never started, e.g. its script was refused) when a worker failed.
pub type OnCrash = Rc<dyn Fn(usize, String, bool)>;

/// One worker and what the page knows of it.
struct SimWorker {
    worker: Worker,
    ready: bool,
    /// Messages held until the worker is ready.
    pending: Vec<JsValue>,
    /// What it was asked since its last `Start` (replayed into a restarted worker).
    asked: Vec<WorkerInput>,
    /// It has work it has not finished.
    busy: bool,
    /// When it last answered (or was given work while idle), ms since the epoch.
    last_heard_ms: f64,
    /// The latest run whose `Start` it has read ([`WorkerOutput::Started`]).
    started_run: u64,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Drop for SimWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
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
    on_output: OnOutput,
    on_crash: OnCrash,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

impl WorkerPool {
    /// Starts `count` workers from the loader script at `loader`; `None` where this context
    /// cannot run one (no `Worker`, an opaque origin, or the constructor refused).
    pub fn start(
        loader: &str,
        count: usize,
        on_output: OnOutput,
        on_crash: OnCrash,
    ) -> Option<WorkerPool> {
        let global = js_sys::global();
        if !js_sys::Reflect::has(&global, &"Worker".into()).unwrap_or(false) {
            return None;
        }
        // A sandboxed frame without same-origin access has an opaque origin ("null"): its
        // workers could not load the page's own scripts.
        if web_sys::window().is_none_or(|w| w.origin() == "null") {
            return None;
        }
        let pool = WorkerPool {
            inner: Rc::new(Pool {
                loader: loader.to_string(),
                workers: RefCell::new(Vec::new()),
                on_output,
                on_crash,
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

    /// Whether every worker has said it is ready.
    pub fn all_ready(&self) -> bool {
        self.inner
            .workers
            .borrow()
            .iter()
            .all(|w| w.as_ref().is_some_and(|w| w.ready))
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
            let Ok(output) = decode::<WorkerOutput>(event.data()) else {
                return;
            };
            {
                let mut workers = pool.workers.borrow_mut();
                let Some(Some(w)) = workers.get_mut(index) else {
                    return;
                };
                w.last_heard_ms = now_ms();
                match output {
                    WorkerOutput::Ready => {
                        w.ready = true;
                        for message in w.pending.drain(..) {
                            let _ = w.worker.post_message(&message);
                        }
                        return;
                    }
                    WorkerOutput::Started { run_id } => {
                        w.started_run = w.started_run.max(run_id);
                        return;
                    }
                    _ => {}
                }
                if output.ends_work() {
                    w.busy = false;
                }
            }
            (pool.on_output)(index, output);
        });
        let pool: Weak<Pool> = Rc::downgrade(&self.inner);
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            if let Some(pool) = pool.upgrade() {
                let loaded = pool
                    .workers
                    .borrow()
                    .get(index)
                    .and_then(Option::as_ref)
                    .is_some_and(|w| w.ready);
                let message = event.message();
                (pool.on_crash)(
                    index,
                    if message.is_empty() {
                        "the worker stopped".to_string()
                    } else {
                        message
                    },
                    loaded,
                );
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Some(SimWorker {
            worker,
            ready: false,
            pending: Vec::new(),
            asked: Vec::new(),
            busy: false,
            last_heard_ms: now_ms(),
            started_run: 0,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends `input` to worker `index` (modulo the pool's size); false when it has no worker.
    pub fn send(&self, index: usize, input: WorkerInput) -> bool {
        let mut workers = self.inner.workers.borrow_mut();
        let n = workers.len();
        let Some(Some(w)) = (n > 0).then(|| workers.get_mut(index % n)).flatten() else {
            return false;
        };
        let Ok(message) = encode(&input) else {
            return false;
        };
        if matches!(input, WorkerInput::Start { .. }) {
            w.asked.clear();
        }
        w.asked.push(input);
        if !w.busy {
            w.last_heard_ms = now_ms();
        }
        w.busy = true;
        if w.ready {
            w.worker.post_message(&message).is_ok()
        } else {
            w.pending.push(message);
            true
        }
    }

    /// Whether worker `index` has had unfinished work and no answer for `ms` milliseconds
    /// (it is inside one long replication, or hung).
    pub fn stalled(&self, index: usize, ms: f64) -> bool {
        self.inner
            .workers
            .borrow()
            .get(index)
            .and_then(Option::as_ref)
            .is_some_and(|w| w.ready && w.busy && now_ms() - w.last_heard_ms > ms)
    }

    /// Whether worker `index`, loaded, has not yet read the `Start` of run `run_id` (it is
    /// inside a replication of an older run, or hung).
    pub fn not_started(&self, index: usize, run_id: u64) -> bool {
        self.inner
            .workers
            .borrow()
            .get(index)
            .and_then(Option::as_ref)
            .is_some_and(|w| w.ready && w.started_run < run_id)
    }

    /// Terminates worker `index` and starts a new one in its place; with `replay`, the new
    /// one is asked again what the old one was asked since its last run started. False when
    /// no new worker could be started.
    pub fn restart(&self, index: usize, replay: bool) -> bool {
        let old = self
            .inner
            .workers
            .borrow_mut()
            .get_mut(index)
            .and_then(Option::take);
        let asked = old.map(|w| w.asked.clone()).unwrap_or_default();
        let Some(fresh) = self.spawn(index) else {
            return false;
        };
        if let Some(slot) = self.inner.workers.borrow_mut().get_mut(index) {
            *slot = Some(fresh);
        }
        if replay {
            for input in asked {
                self.send(index, input);
            }
        }
        true
    }
}
