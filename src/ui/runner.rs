//! Runs the Monte Carlo for the current scenario off the main thread in the simulation Web
//! Worker (`crate::worker`), which answers with partial results after each slice. Where a
//! worker cannot be created (no Worker in this context, or it fails to start) the run goes in
//! short slices on the main thread instead, and the page says so. Either way a newer scenario
//! cancels the older run: each run carries a number and answers for older runs are dropped.

use crate::model::monte_carlo::{MonteCarlo, Results};
use crate::model::scenario::{Overflow, Scenario};
use crate::model::sensitivity::{
    BreakEven, BreakEvenKind, BreakEvenSearch, TornadoBar, TornadoRun,
};
use crate::worker::{JsValueCodec, SimulationWorker, WorkerInput, WorkerOutput};
use gloo_worker::{Spawnable, WorkerBridge};
use leptos::prelude::*;
use std::time::Duration;

/// The worker's loader (src/worker-loader.js), next to the page.
const WORKER_LOADER: &str = "./worker-loader.js";

/// Seconds to wait for the worker's first answer before running on the main thread.
const WORKER_WATCHDOG_S: u64 = 8;

/// Longest a slice may run before yielding to the browser, milliseconds.
const SLICE_BUDGET_MS: f64 = 12.0;

/// What the page reads of a run.
#[derive(Clone, Copy)]
pub struct MonteCarloRun {
    /// Results of the replications done so far (`None` before the first slice).
    pub results: ReadSignal<Option<Results>>,
    /// Replications done.
    pub done: ReadSignal<u32>,
    /// Replications in the run.
    pub total: ReadSignal<u32>,
    /// A run for the current inputs is in flight.
    pub running: ReadSignal<bool>,
    /// Why the scenario could not run, if it could not.
    pub error: ReadSignal<Option<String>>,
    /// Counts runs started; tests wait for it to change after an input.
    pub run_id: ReadSignal<u64>,
    /// The run goes in the Web Worker (false: main-thread slices).
    pub in_worker: ReadSignal<bool>,
}

/// Starts a run whenever `scenario` changes.
pub fn use_monte_carlo(scenario: Signal<Scenario>) -> MonteCarloRun {
    let (results, set_results) = signal(None::<Results>);
    let (done, set_done) = signal(0u32);
    let (total, set_total) = signal(0u32);
    let (running, set_running) = signal(false);
    let (error, set_error) = signal(None::<String>);
    let (run_id, set_run_id) = signal(0u64);
    let generation = StoredValue::new(0u64);
    let bridge = spawn_worker(move |out| match out {
        WorkerOutput::Progress {
            run_id,
            done,
            total,
            results,
        } if run_id == generation.get_value() => {
            set_results.set(Some(results));
            set_done.set(done);
            set_total.set(total);
            set_running.set(done < total);
        }
        WorkerOutput::Invalid { run_id, message } if run_id == generation.get_value() => {
            set_error.set(Some(message));
            set_running.set(false);
        }
        _ => {}
    });
    let (in_worker, set_in_worker) = signal(bridge.is_some());
    let bridge = StoredValue::new_local(bridge);
    let setters = Setters {
        results: set_results,
        done: set_done,
        running: set_running,
        generation,
    };
    Effect::new(move |_| {
        let s = scenario.get();
        let this_run = generation.get_value() + 1;
        generation.set_value(this_run);
        set_run_id.set(this_run);
        // Results of other platforms would sit under the wrong names: drop them. Results of
        // the same platforms stay on screen until the new run's first answer (no flicker).
        let same_platforms = results.with_untracked(|r| {
            r.as_ref().is_some_and(|r| {
                r.platforms.len() == s.platforms.len()
                    && r.platforms
                        .iter()
                        .zip(&s.platforms)
                        .all(|(a, b)| a.name == b.name)
            })
        });
        if !same_platforms {
            set_results.set(None);
        }
        match MonteCarlo::new(s) {
            Ok(run) => {
                set_error.set(None);
                set_total.set(run.scenario().replications);
                set_done.set(0);
                set_running.set(true);
                let sent = bridge.with_value(|b| {
                    b.as_ref().map(|b| {
                        b.send(WorkerInput::Start {
                            run_id: this_run,
                            scenario: run.scenario().clone(),
                        })
                    })
                });
                if sent.is_none() || !in_worker.get_untracked() {
                    schedule_slice(run, this_run, setters);
                } else {
                    // Watchdog: a worker blocked after construction (e.g. by a policy of the
                    // embedding page) never answers; then run here instead, and say so.
                    set_timeout(
                        move || {
                            if generation.get_value() == this_run
                                && done.get_untracked() == 0
                                && running.get_untracked()
                            {
                                set_in_worker.set(false);
                                schedule_slice(run, this_run, setters);
                            }
                        },
                        Duration::from_secs(WORKER_WATCHDOG_S),
                    );
                }
            }
            Err(e) => {
                set_error.set(Some(e.to_string()));
                set_results.set(None);
                set_running.set(false);
            }
        }
    });
    MonteCarloRun {
        results,
        done,
        total,
        running,
        error,
        run_id,
        in_worker,
    }
}

/// Starts the simulation worker, or `None` where this context cannot run one.
fn spawn_worker(
    on_output: impl Fn(WorkerOutput) + 'static,
) -> Option<WorkerBridge<SimulationWorker>> {
    let global = js_sys::global();
    let has_worker = js_sys::Reflect::has(&global, &"Worker".into()).unwrap_or(false);
    if !has_worker {
        return None;
    }
    // A sandboxed frame without same-origin access has an opaque origin ("null"), where
    // constructing a worker from the page's own URL throws; gloo-worker would abort on that.
    let opaque = web_sys::window()
        .map(|w| w.origin() == "null")
        .unwrap_or(true);
    if opaque {
        return None;
    }
    Some(
        SimulationWorker::spawner()
            .encoding::<JsValueCodec>()
            .callback(on_output)
            .with_loader(true)
            .as_module(false)
            .spawn(WORKER_LOADER),
    )
}

#[derive(Clone, Copy)]
struct Setters {
    results: WriteSignal<Option<Results>>,
    done: WriteSignal<u32>,
    running: WriteSignal<bool>,
    generation: StoredValue<u64>,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Runs the Monte Carlo in main-thread slices (no worker), publishing after each slice.
fn schedule_slice(run: MonteCarlo, this_run: u64, set: Setters) {
    let publish = move |run: &MonteCarlo, complete: bool| {
        set.results.set(Some(run.results()));
        set.done.set(run.done());
        if complete {
            set.running.set(false);
        }
    };
    let never_busy = Signal::derive(|| false);
    run_sliced(
        run,
        this_run,
        set.generation,
        never_busy,
        std::rc::Rc::new(publish),
    );
}

/// Replications per tornado variant: coarse, so the tornado follows the inputs quickly.
const TORNADO_REPS: u32 = 12;
/// Each input is moved by ± this many percent.
pub const TORNADO_PCT: f64 = 20.0;
/// Replications per option per point of a break-even search.
const BREAK_EVEN_REPS: u32 = 6;

/// Largest expected jobs per replication, summed over platforms, for which the page runs the
/// tornado and the break-evens: each of their steps is one whole replication on the main
/// thread, which must stay short.
pub const SENSITIVITY_MAX_JOB_RUNS: f64 = 60_000.0;

/// Whether the sensitivity pass fits the main thread for this scenario.
pub fn sensitivity_fits(s: &Scenario) -> bool {
    s.expected_jobs() * s.platforms.len() as f64 <= SENSITIVITY_MAX_JOB_RUNS
}

/// A computation the page runs in slices after the headline run: one small step at a time.
trait Sliced: 'static {
    /// Does one step; returns whether the computation is complete.
    fn step(&mut self) -> bool;
}

impl Sliced for MonteCarlo {
    fn step(&mut self) -> bool {
        self.run_batch(1);
        self.is_done()
    }
}

/// Several scenarios' runs, one after another (the comparison view).
impl Sliced for Vec<MonteCarlo> {
    fn step(&mut self) -> bool {
        match self.iter_mut().find(|run| !run.is_done()) {
            Some(run) => {
                run.run_batch(1);
                self.iter().all(MonteCarlo::is_done)
            }
            None => true,
        }
    }
}

/// Runs each scenario's Monte Carlo in main-thread slices while `busy` is false, calling
/// `publish` with the results so far (`None` for a run not started) after each slice; a newer
/// `this_run` in `generation` stops it.
pub fn run_side_by_side(
    runs: Vec<MonteCarlo>,
    this_run: u64,
    generation: StoredValue<u64>,
    busy: Signal<bool>,
    publish: impl Fn(Vec<Option<Results>>, bool) + 'static,
) {
    let publish = move |runs: &Vec<MonteCarlo>, complete: bool| {
        let results = runs
            .iter()
            .map(|run| (run.done() > 0).then(|| run.results()))
            .collect();
        publish(results, complete);
    };
    run_sliced(runs, this_run, generation, busy, std::rc::Rc::new(publish));
}

impl Sliced for TornadoRun {
    fn step(&mut self) -> bool {
        TornadoRun::step(self)
    }
}

impl Sliced for Vec<BreakEvenSearch> {
    fn step(&mut self) -> bool {
        match self.iter_mut().find(|s| s.result().is_none()) {
            Some(search) => {
                search.step();
                self.iter().all(|s| s.result().is_some())
            }
            None => true,
        }
    }
}

/// Called after each slice with the task and whether it is complete.
type Publish<T> = std::rc::Rc<dyn Fn(&T, bool)>;

/// Runs `task` in slices while `busy` is false, calling `publish` after each slice (with
/// whether it is complete); stops when a newer run number replaces `this_run`.
fn run_sliced<T: Sliced>(
    mut task: T,
    this_run: u64,
    generation: StoredValue<u64>,
    busy: Signal<bool>,
    publish: Publish<T>,
) {
    let waiting = busy.get_untracked();
    set_timeout(
        move || {
            if generation.get_value() != this_run {
                return;
            }
            if !busy.get_untracked() {
                let start = now_ms();
                let mut complete = task.step();
                while !complete && now_ms() - start < SLICE_BUDGET_MS {
                    complete = task.step();
                }
                publish(&task, complete);
                if complete {
                    return;
                }
            }
            run_sliced(task, this_run, generation, busy, publish);
        },
        Duration::from_millis(if waiting { 50 } else { 0 }),
    );
}

/// What the page reads of the sensitivity run.
#[derive(Clone, Copy)]
pub struct TornadoState {
    /// The bars, once the run for the current inputs is complete.
    pub bars: ReadSignal<Vec<TornadoBar>>,
    /// Share (0–1) of the run done.
    pub progress: ReadSignal<f64>,
}

/// Recomputes the tornado whenever `scenario` changes, in slices that wait for the headline
/// run (`busy`) so its numbers come first.
pub fn use_tornado(scenario: Signal<Scenario>, busy: Signal<bool>) -> TornadoState {
    let (bars, set_bars) = signal(Vec::new());
    let (progress, set_progress) = signal(0.0);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let s = scenario.get();
        let this_run = generation.get_value() + 1;
        generation.set_value(this_run);
        set_bars.set(Vec::new());
        set_progress.set(0.0);
        if !sensitivity_fits(&s) {
            return;
        }
        if let Ok(run) = TornadoRun::new(&s, TORNADO_PCT, TORNADO_REPS) {
            let publish = move |run: &TornadoRun, complete: bool| {
                set_progress.set(run.done_steps() as f64 / run.total_steps().max(1) as f64);
                if complete {
                    set_bars.set(run.bars());
                }
            };
            run_sliced(run, this_run, generation, busy, std::rc::Rc::new(publish));
        }
    });
    TornadoState { bars, progress }
}

/// A break-even found for one platform.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundBreakEven {
    /// Platform name.
    pub platform: String,
    /// Which break-even.
    pub kind: BreakEvenKind,
    /// The answer.
    pub result: BreakEven,
}

/// Searches the break-evens after the tornado: where spot stops paying for the first spot
/// platform, and where reserving beats on-demand for the first on-demand platform.
pub fn use_break_evens(
    scenario: Signal<Scenario>,
    busy: Signal<bool>,
) -> ReadSignal<Vec<FoundBreakEven>> {
    let (found, set_found) = signal(Vec::new());
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let s = scenario.get();
        let this_run = generation.get_value() + 1;
        generation.set_value(this_run);
        set_found.set(Vec::new());
        if !sensitivity_fits(&s) {
            return;
        }
        let mut searches = Vec::new();
        let mut names = Vec::new();
        let first = |overflow: Overflow| {
            s.platforms
                .iter()
                .position(|p| p.purchase.overflow == overflow)
        };
        for (kind, index) in [
            (BreakEvenKind::SpotRate, first(Overflow::Spot)),
            (
                BreakEvenKind::ReservedUtilization,
                first(Overflow::OnDemand),
            ),
        ] {
            if let Some(i) = index {
                if let Ok(search) = BreakEvenSearch::new(&s, i, kind, BREAK_EVEN_REPS) {
                    searches.push(search);
                    names.push((s.platforms[i].name.clone(), kind));
                }
            }
        }
        if searches.is_empty() {
            return;
        }
        let publish = move |searches: &Vec<BreakEvenSearch>, complete: bool| {
            if complete {
                set_found.set(
                    searches
                        .iter()
                        .zip(&names)
                        .filter_map(|(search, (platform, kind))| {
                            search.result().map(|r| FoundBreakEven {
                                platform: platform.clone(),
                                kind: *kind,
                                result: r.clone(),
                            })
                        })
                        .collect(),
                );
            }
        };
        run_sliced(
            searches,
            this_run,
            generation,
            busy,
            std::rc::Rc::new(publish),
        );
    });
    found
}
