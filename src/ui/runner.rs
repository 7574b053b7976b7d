//! The Leptos adapter of the run coordinator (`crate::run_coordinator`, where the run logic is
//! written and tested): the scenario signal goes in as events, and the coordinator's commands
//! come out to the simulation workers ([`WorkerPool`]), the timers, the animation frames, the
//! main thread's slices, the performance marks and the one signal of run state the page reads.
//! No effect here writes a signal: the coordinator's `Publish` does.

use super::sim_worker::WorkerPool;
use crate::model::monte_carlo::{MonteCarlo, Results};
use crate::model::scenario::Scenario;
use crate::model::sensitivity::FoundBreakEven;
use crate::model::step::{run_slice, Step};
use crate::next_task::{next_task, now_ms};
use crate::run_coordinator::tuning::PAGE_SLICE_MS;
use crate::run_coordinator::{Command, Event, RunCoordinator, RunView, TornadoView};
use crate::workbench::verdict_flips::VerdictFlips;
use crate::worker_protocol::encode;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// The worker's loader (src/worker-loader.js), next to the page.
pub const WORKER_LOADER: &str = "./worker-loader.js";

/// What the page reads of the runs: one signal of run state, and memos of its parts.
#[derive(Clone, Copy)]
pub struct UseMonteCarloReturn {
    /// Results of the replications done so far (`None` before the first answer).
    pub results: Memo<Option<Results>>,
    /// Replications done.
    pub done: Memo<u32>,
    /// Replications in the run.
    pub total: Memo<u32>,
    /// A run for the current inputs is in flight.
    pub running: Memo<bool>,
    /// Why the scenario could not run, if it could not.
    pub error: Memo<Option<String>>,
    /// The run number (the page's `data-run`); tests wait for it to change after an input.
    pub run: Memo<u64>,
    /// The run goes in the Web Workers (false: main-thread slices).
    pub in_worker: Memo<bool>,
    /// Workers sharing each run.
    pub workers: Memo<u32>,
    /// Set when a worker crashed during the current run and was restarted: what happened.
    pub restarted: Memo<Option<String>>,
    /// The tornado of the current inputs.
    pub tornado: Memo<TornadoView>,
    /// The break-evens of the current inputs.
    pub break_evens: Memo<Vec<FoundBreakEven>>,
    /// What would flip the verdict, once its pass is in.
    pub flips: Memo<Option<VerdictFlips>>,
    /// The verdict is final: the run and the passes that add to its verdict are done.
    pub verdict_final: Memo<bool>,
}

/// The coordinator, the workers it speaks to, and the signal it publishes to.
struct Driver {
    coordinator: RefCell<RunCoordinator>,
    pool: RefCell<Option<WorkerPool>>,
    state: RwSignal<RunView>,
}

type Shared = StoredValue<Rc<Driver>, LocalStorage>;

/// Hands `event` to the coordinator and carries out its commands.
fn dispatch(driver: Shared, event: Event) {
    let commands = driver.with_value(|d| d.coordinator.borrow_mut().handle(event, now_ms()));
    carry_out(driver, commands);
}

fn carry_out(driver: Shared, commands: Vec<Command>) {
    for command in commands {
        match command {
            Command::Send { worker, input } => {
                if let Ok(text) = encode(&input) {
                    let message = JsValue::from_str(&text);
                    driver
                        .with_value(|d| d.pool.borrow().as_ref().map(|p| p.post(worker, &message)));
                }
            }
            Command::Restart { worker } => {
                let pool = driver.with_value(|d| d.pool.borrow().clone());
                if !pool.is_some_and(|p| p.restart(worker)) {
                    dispatch(driver, Event::RestartFailed { worker });
                }
            }
            // After this turn: the pool's own callback may be running.
            Command::DropWorkers => set_timeout(
                move || _ = driver.with_value(|d| d.pool.borrow_mut().take()),
                Duration::ZERO,
            ),
            Command::Publish => driver.with_value(|d| {
                d.state.set(d.coordinator.borrow().view().clone());
            }),
            Command::Mark { what, run } => mark(what, run),
            Command::SetTimer { timer, after_ms } => set_timeout(
                move || dispatch(driver, Event::TimerFired(timer)),
                Duration::from_millis(after_ms.max(0.0) as u64),
            ),
            Command::RequestFrame => {
                request_animation_frame(move || dispatch(driver, Event::Frame))
            }
            Command::MainThreadTurn => next_task(move || {
                let commands =
                    driver.with_value(|d| d.coordinator.borrow_mut().main_thread_turn(&now_ms));
                carry_out(driver, commands);
            }),
        }
    }
}

/// How many workers to start: one per core but the one the page itself needs for input and
/// drawing (`navigator.hardwareConcurrency` − 1, from 1 to 8), or `?workers=N` in the page's
/// query (1–16; the benchmarks compare 1 with 2). Measured on 2 cores (bench/RESULTS.md): a
/// second worker shortens the full run but, competing with the page for the cores, delays
/// the coarse pass past its 50 ms budget.
fn worker_count() -> u32 {
    let window = window();
    let asked = window
        .location()
        .search()
        .ok()
        .and_then(|q| {
            q.trim_start_matches('?')
                .split('&')
                .find_map(|kv| kv.strip_prefix("workers=").map(str::to_string))
        })
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=16).contains(n));
    asked.unwrap_or_else(|| {
        (window.navigator().hardware_concurrency() as u32)
            .saturating_sub(1)
            .clamp(1, 8)
    })
}

/// A performance mark (`gpucost:<what>:<run>`) for the benchmarks' latency measurements and
/// the tests: `sent`, `answer`, `coarse`, `full`; `terminated` (a worker stuck in an older
/// run's replication was replaced for this run) and `restarted` (a crashed worker was); the
/// decision map's `map-sent`, `map-coarse`, `map-full`, `map-stop` and `map-answer`, by map.
pub(super) fn mark(what: &str, run: u64) {
    if let Some(p) = window().performance() {
        let _ = p.mark(&format!("gpucost:{what}:{run}"));
    }
}

/// Starts a run whenever `scenario` changes (but for its verdict's settings alone): in the
/// simulation workers, or in main-thread slices where none can start; then its sensitivity
/// pass.
pub fn use_monte_carlo(scenario: Signal<Scenario>) -> UseMonteCarloReturn {
    let state = RwSignal::new(RunView::default());
    let driver: Shared = StoredValue::new_local(Rc::new(Driver {
        coordinator: RefCell::new(RunCoordinator::new(0, now_ms())),
        pool: RefCell::new(None),
        state,
    }));
    let pool = WorkerPool::start(
        WORKER_LOADER,
        worker_count() as usize,
        Rc::new(move |worker, answer| {
            let event = match answer {
                Ok(output) => Event::WorkerAnswered { worker, output },
                Err(message) => Event::WorkerFailed { worker, message },
            };
            dispatch(driver, event);
        }),
    );
    driver.with_value(|d| {
        let workers = pool.as_ref().map_or(0, WorkerPool::count);
        *d.coordinator.borrow_mut() = RunCoordinator::new(workers, now_ms());
        *d.pool.borrow_mut() = pool;
    });
    // Runs inside the input's own task, as soon as the scenario changes and before any view
    // updates for it: the workers start on the run first (an `Effect` would queue behind the
    // render effects subscribed before it, about 5-25 ms of page updates on each input).
    // The verdict's settings (the SLO allowance) judge the results without changing them: an
    // edit of those alone starts no run (the verdict line re-judges what is there).
    let last = StoredValue::new_local(None::<Scenario>);
    ImmediateEffect::new_scoped(move || {
        let scenario = scenario.get();
        let judged_alike = last.with_value(|last| {
            last.as_ref().is_some_and(|last: &Scenario| {
                *last != scenario && last.verdict != scenario.verdict && {
                    let mut same = scenario.clone();
                    same.verdict = last.verdict.clone();
                    same == *last
                }
            })
        });
        last.set_value(Some(scenario.clone()));
        if !judged_alike {
            dispatch(driver, Event::ScenarioChanged(Box::new(scenario)))
        }
    });
    UseMonteCarloReturn {
        results: part(state, |s| s.results.clone()),
        done: part(state, |s| s.done),
        total: part(state, |s| s.total),
        running: part(state, |s| s.running),
        error: part(state, |s| s.error.clone()),
        run: part(state, |s| s.run),
        in_worker: part(state, |s| s.in_worker),
        workers: part(state, |s| s.workers),
        restarted: part(state, |s| s.restarted.clone()),
        tornado: part(state, |s| s.tornado.clone()),
        break_evens: part(state, |s| s.break_evens.clone()),
        flips: part(state, |s| s.flips.clone()),
        verdict_final: part(state, |s| s.verdict_final),
    }
}

/// Called after each slice with the task and whether it is complete.
type Publish<T> = Rc<dyn Fn(&T, bool)>;

/// One part of the run state, as a memo: its readers update only when that part changes.
fn part<T: PartialEq + Send + Sync + 'static>(
    state: RwSignal<RunView>,
    read: fn(&RunView) -> T,
) -> Memo<T> {
    Memo::new(move |_| state.with(read))
}

/// Runs `task` in main-thread slices while `busy` is false, calling `publish` after each slice
/// (with whether it is complete); stops when `current` says a newer request replaced it (the
/// comparison view, which runs beside the coordinator's runs and waits for them).
pub fn run_on_main_thread<T: Step + 'static>(
    task: T,
    current: impl Fn() -> bool + 'static,
    busy: Signal<bool>,
    publish: impl Fn(&T, bool) + 'static,
) {
    fn again<T: Step + 'static>(
        task: T,
        current: Rc<dyn Fn() -> bool>,
        busy: Signal<bool>,
        publish: Publish<T>,
    ) {
        let waiting = busy.get_untracked();
        let slice = move || {
            let mut task = task;
            if !current() {
                return;
            }
            if !busy.get_untracked() {
                let complete = run_slice(&mut task, PAGE_SLICE_MS, &now_ms);
                publish(&task, complete);
                if complete {
                    return;
                }
            }
            again(task, current, busy, publish);
        };
        if waiting {
            set_timeout(slice, Duration::from_millis(50));
        } else {
            next_task(slice);
        }
    }
    again(task, Rc::new(current), busy, Rc::new(publish));
}

/// Each scenario's run in main-thread slices (see [`run_on_main_thread`]), publishing the
/// results so far (`None` for a run not started) after each slice.
pub fn run_side_by_side(
    runs: Vec<MonteCarlo>,
    current: impl Fn() -> bool + 'static,
    busy: Signal<bool>,
    publish: impl Fn(Vec<Option<Results>>, bool) + 'static,
) {
    run_on_main_thread(runs, current, busy, move |runs, complete| {
        let results = runs
            .iter()
            .map(|run| (run.done() > 0).then(|| run.results()))
            .collect();
        publish(results, complete);
    });
}
