//! The simulation worker's glue: reads the page's messages, posts the answers, and schedules
//! the slices of [`SimulationWorker`] (`crate::simulation_worker`, where what it does is
//! written and tested) between which it yields to its event loop (`crate::next_task`), so a
//! `Start` for newer inputs is read within one slice.
//!
//! Messages are JSON text ([`crate::worker_protocol`]); the worker says
//! [`WorkerOutput::Ready`] once it listens, and the page holds its messages until then.

use crate::next_task::{next_task, now_ms};
use crate::simulation_worker::SimulationWorker;
use crate::worker_protocol::{decode, encode, WorkerInput, WorkerOutput};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    static WORKER: RefCell<SimulationWorker> = RefCell::new(SimulationWorker::default());
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts an answer to the page.
fn respond(output: WorkerOutput) {
    let text = encode(&output).expect("worker answers are plain data");
    scope()
        .post_message(&JsValue::from_str(&text))
        .expect("the page listens to its worker");
}

/// Runs a slice of run `run_id` after the worker's event loop has read its messages.
fn schedule(run_id: u64) {
    next_task(move || {
        let more = WORKER.with(|w| w.borrow_mut().slice(run_id, &now_ms, &mut respond));
        if more {
            schedule(run_id);
        }
    });
}

/// The worker's entry point: listens to the page and says it is ready.
pub fn start() {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        // Only this crate's page talks to the worker; anything else is ignored.
        let Some(text) = event.data().as_string() else {
            return;
        };
        if let Ok(input) = decode::<WorkerInput>(&text) {
            if let Some(run_id) = WORKER.with(|w| w.borrow_mut().received(input, &mut respond)) {
                schedule(run_id);
            }
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    respond(WorkerOutput::Ready);
}
