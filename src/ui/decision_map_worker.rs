//! The decision map's own worker (a simulation worker started from the same loader, asked
//! only for maps), so the map never delays the main run's workers. It is started when the
//! first map is asked for; requests wait until it says it is ready, and a newer request or a
//! stop replaces the older one there. Where no worker can start, or it fails, the map runs in
//! main-thread slices instead, so an answer always comes.

use super::runner::{mark, run_on_main_thread, WORKER_LOADER};
use super::sim_worker::WorkerPool;
use crate::model::scenario::Scenario;
use crate::run_coordinator::tuning::WORKER_WATCHDOG_MS;
use crate::workbench::decision_map::{DecisionMapRun, MapSettings};
use crate::worker_protocol::{encode, MapProgress, ScenarioText, WorkerInput, WorkerOutput};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::JsValue;

/// A request, kept for a worker not yet ready and for the main thread after a failure.
struct Request {
    map_id: u64,
    scenario: Scenario,
    settings: MapSettings,
}

struct Inner {
    pool: RefCell<Option<WorkerPool>>,
    ready: Cell<bool>,
    /// No worker can run here, or it failed: maps run on the main thread.
    on_page: Cell<bool>,
    latest: RefCell<Option<Request>>,
    busy: Signal<bool>,
    on_answer: Rc<dyn Fn(MapProgress)>,
}

/// The page's decision-map computer.
#[derive(Clone)]
pub struct MapWorker(Rc<Inner>);

impl MapWorker {
    /// A computer answering through `on_answer`; `busy` holds main-thread slices back while
    /// the main run is in flight.
    pub fn new(busy: Signal<bool>, on_answer: Rc<dyn Fn(MapProgress)>) -> MapWorker {
        MapWorker(Rc::new(Inner {
            pool: RefCell::new(None),
            ready: Cell::new(false),
            on_page: Cell::new(false),
            latest: RefCell::new(None),
            busy,
            on_answer,
        }))
    }

    /// Computes the map of `scenario` with `settings`, replacing any older map.
    pub fn request(&self, map_id: u64, scenario: Scenario, settings: MapSettings) {
        *self.0.latest.borrow_mut() = Some(Request {
            map_id,
            scenario,
            settings,
        });
        if !self.0.on_page.get() && self.0.pool.borrow().is_none() {
            self.start();
        }
        if self.0.on_page.get() {
            run_here(&self.0);
        } else if self.0.ready.get() {
            post_latest(&self.0);
        }
    }

    /// Drops the map in progress (its inputs changed).
    pub fn stop(&self) {
        self.0.latest.borrow_mut().take();
        if self.0.ready.get() {
            post(&self.0, &WorkerInput::Stop);
        }
    }

    fn start(&self) {
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
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
        // reported) is given up, as the main run's are: the map runs here.
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
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

fn post(inner: &Inner, input: &WorkerInput) {
    if let (Ok(text), Some(pool)) = (encode(input), inner.pool.borrow().as_ref()) {
        pool.post(0, &JsValue::from_str(&text));
    }
}

fn post_latest(inner: &Inner) {
    let input = inner
        .latest
        .borrow()
        .as_ref()
        .map(|r| WorkerInput::DecisionMap {
            map_id: r.map_id,
            scenario: ScenarioText::of(&r.scenario),
            settings: r
                .settings
                .link_part()
                .trim_start_matches("map=")
                .to_string(),
        });
    if let Some(input) = input {
        post(inner, &input);
    }
}

/// What the worker said.
fn heard(inner: &Rc<Inner>, answer: Result<WorkerOutput, String>) {
    match answer {
        Ok(WorkerOutput::Ready) => {
            inner.ready.set(true);
            post_latest(inner);
        }
        Ok(WorkerOutput::DecisionMap(progress)) => {
            // Every answer the worker gives, before the page keeps only the current map's:
            // the tests count an older map's answers after a stop.
            mark("map-answer", progress.map_id);
            if progress.finished() {
                // Nothing to redo should the worker fail later.
                let mut latest = inner.latest.borrow_mut();
                if latest.as_ref().is_some_and(|r| r.map_id == progress.map_id) {
                    *latest = None;
                }
            }
            (inner.on_answer)(progress)
        }
        Ok(_) => {}
        Err(_) if inner.on_page.get() => {} // a later error of a worker already given up
        Err(_) => give_up_worker(inner),
    }
}

/// The worker could not start, crashed or stayed silent: maps run here from now on.
fn give_up_worker(inner: &Rc<Inner>) {
    inner.on_page.set(true);
    inner.ready.set(false);
    let pool = inner.pool.borrow_mut().take();
    set_timeout(move || drop(pool), std::time::Duration::ZERO);
    run_here(inner);
}

/// Runs the latest request in main-thread slices.
fn run_here(inner: &Rc<Inner>) {
    let Some((map_id, map)) = inner.latest.borrow().as_ref().map(|r| {
        (
            r.map_id,
            DecisionMapRun::new(&r.scenario, r.settings.clone()),
        )
    }) else {
        return;
    };
    let map = match map {
        Ok(map) => map,
        Err(error) => {
            (inner.on_answer)(MapProgress {
                map_id,
                error: Some(error),
                ..MapProgress::default()
            });
            return;
        }
    };
    let weak = Rc::downgrade(inner);
    let current = {
        let weak = weak.clone();
        move || {
            weak.upgrade().is_some_and(|i| {
                i.latest
                    .borrow()
                    .as_ref()
                    .is_some_and(|r| r.map_id == map_id)
            })
        }
    };
    run_on_main_thread(map, current, inner.busy, move |map, _| {
        if let Some(inner) = weak.upgrade() {
            let (done, total) = map.progress();
            (inner.on_answer)(MapProgress {
                map_id,
                cells: map.cells().to_vec(),
                done,
                total,
                error: None,
            });
        }
    });
}
