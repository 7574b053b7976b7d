//! A long pass's own worker (a simulation worker started from the same loader, asked only for
//! that pass: the decision map, the tuner), so the pass never delays the main run's workers.
//! It is started when the first pass is asked for; requests wait until it says it is ready,
//! and a newer request or a stop replaces the older one there. Where no worker can start, or
//! it fails, the pass runs in main-thread slices instead, so an answer always comes.

use super::runner::{mark, run_on_main_thread, WORKER_LOADER};
use super::sim_worker::WorkerPool;
use crate::model::step::Step;
use crate::run_coordinator::tuning::WORKER_WATCHDOG_MS;
use crate::worker_protocol::{encode, WorkerInput, WorkerOutput};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::JsValue;

/// A request for a long pass, kept for a worker not yet ready and for the main thread after
/// a failure.
pub trait Pass: 'static {
    /// What the page hears of it.
    type Progress: 'static;
    /// The computation, where it runs on the page.
    type Run: Step + 'static;
    /// What its answers are marked as, for the tests (`map-answer`).
    const MARK: &'static str;
    /// Its id.
    fn id(&self) -> u64;
    /// The message that asks a worker for it.
    fn input(&self) -> WorkerInput;
    /// Its progress in a worker's answer, if the answer is one.
    fn progress_in(answer: WorkerOutput) -> Option<Self::Progress>;
    /// The id of the request a progress answers.
    fn answers(progress: &Self::Progress) -> u64;
    /// Whether a progress is the last (complete, or refused).
    fn finished(progress: &Self::Progress) -> bool;
    /// The computation, or the refusal to publish.
    fn start(&self) -> Result<Self::Run, Self::Progress>;
    /// The progress of the computation run on the page.
    fn progress_of(id: u64, run: &Self::Run) -> Self::Progress;
}

struct Inner<P: Pass> {
    pool: RefCell<Option<WorkerPool>>,
    ready: Cell<bool>,
    /// No worker can run here, or it failed: passes run on the main thread.
    on_page: Cell<bool>,
    latest: RefCell<Option<P>>,
    busy: Signal<bool>,
    on_answer: Rc<dyn Fn(P::Progress)>,
}

/// The page's computer of one kind of long pass.
pub struct PassWorker<P: Pass>(Rc<Inner<P>>);

impl<P: Pass> Clone for PassWorker<P> {
    fn clone(&self) -> Self {
        PassWorker(self.0.clone())
    }
}

impl<P: Pass> PassWorker<P> {
    /// A computer answering through `on_answer`; `busy` holds main-thread slices back while
    /// the main run is in flight.
    pub fn new(busy: Signal<bool>, on_answer: Rc<dyn Fn(P::Progress)>) -> PassWorker<P> {
        PassWorker(Rc::new(Inner {
            pool: RefCell::new(None),
            ready: Cell::new(false),
            on_page: Cell::new(false),
            latest: RefCell::new(None),
            busy,
            on_answer,
        }))
    }

    /// Computes `request`, replacing any older one.
    pub fn request(&self, request: P) {
        *self.0.latest.borrow_mut() = Some(request);
        if !self.0.on_page.get() && self.0.pool.borrow().is_none() {
            self.start();
        }
        if self.0.on_page.get() {
            run_here(&self.0);
        } else if self.0.ready.get() {
            post_latest(&self.0);
        }
    }

    /// Drops the pass in progress (its inputs changed, or it was stopped).
    pub fn stop(&self) {
        self.0.latest.borrow_mut().take();
        if self.0.ready.get() {
            post(&self.0, &WorkerInput::Stop);
        }
    }

    fn start(&self) {
        let weak: Weak<Inner<P>> = Rc::downgrade(&self.0);
        let pool = WorkerPool::start(
            WORKER_LOADER,
            1,
            Rc::new(move |_, answer| {
                if let Some(inner) = weak.upgrade() {
                    heard(&inner, answer);
                }
            }),
        );
        match pool {
            Some(pool) => *self.0.pool.borrow_mut() = Some(pool),
            None => self.0.on_page.set(true),
        }
        // A worker that never says it is ready (its module refused where no error is
        // reported) is given up, as the main run's are: the pass runs here.
        let weak: Weak<Inner<P>> = Rc::downgrade(&self.0);
        set_timeout(
            move || {
                if let Some(inner) = weak.upgrade() {
                    if !inner.ready.get() && !inner.on_page.get() {
                        give_up_worker(&inner);
                    }
                }
            },
            std::time::Duration::from_millis(WORKER_WATCHDOG_MS as u64),
        );
    }
}

fn post<P: Pass>(inner: &Inner<P>, input: &WorkerInput) {
    if let (Ok(text), Some(pool)) = (encode(input), inner.pool.borrow().as_ref()) {
        pool.post(0, &JsValue::from_str(&text));
    }
}

fn post_latest<P: Pass>(inner: &Inner<P>) {
    let input = inner.latest.borrow().as_ref().map(P::input);
    if let Some(input) = input {
        post(inner, &input);
    }
}

/// What the worker said.
fn heard<P: Pass>(inner: &Rc<Inner<P>>, answer: Result<WorkerOutput, String>) {
    match answer {
        Ok(WorkerOutput::Ready) => {
            inner.ready.set(true);
            post_latest(inner);
        }
        Ok(output) => {
            let Some(progress) = P::progress_in(output) else {
                return;
            };
            // Every answer the worker gives, before the page keeps only the current pass's:
            // the tests count an older pass's answers after a stop.
            let id = P::answers(&progress);
            mark(P::MARK, id);
            if P::finished(&progress) {
                // Nothing to redo should the worker fail later.
                let mut latest = inner.latest.borrow_mut();
                if latest.as_ref().is_some_and(|r| r.id() == id) {
                    *latest = None;
                }
            }
            (inner.on_answer)(progress)
        }
        Err(_) if inner.on_page.get() => {} // a later error of a worker already given up
        Err(_) => give_up_worker(inner),
    }
}

/// The worker could not start, crashed or stayed silent: passes run here from now on.
fn give_up_worker<P: Pass>(inner: &Rc<Inner<P>>) {
    inner.on_page.set(true);
    inner.ready.set(false);
    let pool = inner.pool.borrow_mut().take();
    set_timeout(move || drop(pool), std::time::Duration::ZERO);
    run_here(inner);
}

/// Runs the latest request in main-thread slices.
fn run_here<P: Pass>(inner: &Rc<Inner<P>>) {
    let Some((id, run)) = inner.latest.borrow().as_ref().map(|r| (r.id(), r.start())) else {
        return;
    };
    let run = match run {
        Ok(run) => run,
        Err(refused) => {
            (inner.on_answer)(refused);
            return;
        }
    };
    let weak = Rc::downgrade(inner);
    let current = {
        let weak = weak.clone();
        move || {
            weak.upgrade()
                .is_some_and(|i| i.latest.borrow().as_ref().is_some_and(|r| r.id() == id))
        }
    };
    run_on_main_thread(run, current, inner.busy, move |run, _| {
        if let Some(inner) = weak.upgrade() {
            (inner.on_answer)(P::progress_of(id, run))
        }
    });
}
