//! The page's side of a job-history import: a worker of its own per import (started from the
//! simulation workers' loader as its `history` entry), fed the file's text once it is ready,
//! its progress and answer passed on; where no worker can start, or it fails, the import runs
//! in place instead, so the answer always comes.

use super::runner::WORKER_LOADER;
use super::sim_worker::{boot_message_for, workers_possible};
use crate::history_job::{run, HistoryAnswer, HistoryJob};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Event, MessageEvent, Worker, WorkerOptions, WorkerType};

/// A running worker and its listeners, dropped (and the worker ended) when the answer comes.
struct Running {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// Imports `text` with `job`, calling `on_answer` with each progress report and then the fit
/// or the refusal.
pub fn import(text: String, job: HistoryJob, on_answer: Rc<dyn Fn(HistoryAnswer)>) {
    let unstarted = if workers_possible() {
        in_worker(text, job, on_answer.clone())
    } else {
        Err(Box::new((text, job)))
    };
    if let Err(unstarted) = unstarted {
        let (text, job) = *unstarted;
        on_answer(run(&job, &text, &mut |_| {}));
    }
}

/// Starts the worker; the text and job back when it could not start at all (so that a large
/// file is never copied just in case).
fn in_worker(
    text: String,
    job: HistoryJob,
    on_answer: Rc<dyn Fn(HistoryAnswer)>,
) -> Result<(), Box<(String, HistoryJob)>> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let Ok(worker) = Worker::new_with_options(WORKER_LOADER, &options) else {
        return Err(Box::new((text, job)));
    };
    let booted = boot_message_for(Some("history")).is_some_and(|b| worker.post_message(&b).is_ok());
    if !booted {
        worker.terminate();
        return Err(Box::new((text, job)));
    }
    let slot: Rc<RefCell<Option<Running>>> = Rc::new(RefCell::new(None));
    // The text and job, until the worker is ready for them (and, after a failure, for the
    // import in place).
    let pending = Rc::new(RefCell::new(Some((text, job))));
    let on_message = {
        let (slot, pending, on_answer, worker) = (
            slot.clone(),
            pending.clone(),
            on_answer.clone(),
            worker.clone(),
        );
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(message) = event.data().as_string() else {
                return;
            };
            if message == "ready" {
                if let Some((text, job)) = pending.borrow().as_ref() {
                    let job = serde_json::to_string(job).unwrap_or_default();
                    let data = js_sys::Object::new();
                    let _ = js_sys::Reflect::set(&data, &"text".into(), &text.as_str().into());
                    let _ = js_sys::Reflect::set(&data, &"job".into(), &job.into());
                    let _ = worker.post_message(&data);
                }
                return;
            }
            let Ok(answer) = serde_json::from_str::<HistoryAnswer>(&message) else {
                return;
            };
            let done = !matches!(answer, HistoryAnswer::Progress(_));
            on_answer(answer);
            if done {
                pending.borrow_mut().take();
                // Ends the worker and frees these listeners (after this call returns).
                let finished = slot.borrow_mut().take();
                wasm_bindgen_futures::spawn_local(async move { drop(finished) });
            }
        })
    };
    let on_error = {
        let (slot, pending, on_answer) = (slot.clone(), pending.clone(), on_answer.clone());
        Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            event.prevent_default();
            // The worker could not start or crashed: the import runs here instead.
            if let Some((text, job)) = pending.borrow_mut().take() {
                on_answer(run(&job, &text, &mut |_| {}));
            }
            let finished = slot.borrow_mut().take();
            wasm_bindgen_futures::spawn_local(async move { drop(finished) });
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
    *slot.borrow_mut() = Some(Running {
        worker,
        _on_message: on_message,
        _on_error: on_error,
    });
    Ok(())
}
