//! Runs the Monte Carlo for the current scenario off the main thread in the simulation Web
//! Workers (`crate::worker`, through [`WorkerPool`]), which answer with partial results after
//! each slice. Where a worker cannot be created (no Worker in this context, or it fails to
//! start) the run goes in short slices on the main thread instead, and the page says so. Either
//! way a newer scenario cancels the older run: each run carries a number and answers for older
//! runs are dropped; a worker stuck in one long replication of an older run is terminated and
//! replaced. A worker that crashes is restarted and asked again; the page says so.

use super::sim_worker::WorkerPool;
use crate::model::budget::{BudgetMeter, CutOff, EventBudget};
use crate::model::monte_carlo::{MonteCarlo, Results};
use crate::model::outcome_cache::OutcomeCache;
use crate::model::scenario::Scenario;
use crate::model::sensitivity::{BreakEvenSet, FoundBreakEven, TornadoBar, TornadoRun};
use crate::model::sim::PlatformOutcome;
use crate::worker::{
    WorkerInput, WorkerOutput, BREAK_EVEN_REPS, COARSE_REPLICATIONS, TORNADO_PCT, TORNADO_REPS,
};
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::time::Duration;

/// The worker's loader (src/worker-loader.js), next to the page.
const WORKER_LOADER: &str = "./worker-loader.js";

/// Seconds to wait for the workers to load before running on the main thread.
const WORKER_WATCHDOG_S: u64 = 8;

/// A worker with unfinished work of an older run that has not answered for this long when a
/// newer input arrives, or has not read the newer run's start this long after it was sent, is
/// inside one long replication: it is terminated and replaced, since a message would only be
/// read after that replication. Healthy workers answer every slice (16 ms). (The second check
/// is put off while the page's own thread is busy: see [`replace_unstarted_workers`].)
const STALLED_MS: f64 = 300.0;

/// How late a timer may run before the page counts its own thread as having been busy.
const LATE_MS: f64 = 50.0;

/// Times the check for a worker that has not read a run's start is put off because its timer
/// ran late (a busy page, or a hidden tab's throttled timers) before it is made anyway.
const LATE_CHECKS_MAX: u32 = 10;

/// Restarts of crashed workers allowed per run before the page gives up on it and says so.
const RESTARTS_PER_RUN: u32 = 2;

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
    /// The run goes in the Web Workers (false: main-thread slices).
    pub in_worker: ReadSignal<bool>,
    /// Workers sharing each run.
    pub workers: ReadSignal<u32>,
    /// The workers' sensitivity answers.
    pub answers: SensitivityAnswers,
    /// Set when a worker crashed during the current run and was restarted: what happened.
    pub restarted: ReadSignal<Option<String>>,
    pool: StoredValue<Option<WorkerPool>, LocalStorage>,
}

/// The latest sensitivity answers from the workers, with the run they belong to.
#[derive(Clone, Copy)]
pub struct SensitivityAnswers {
    /// (run, steps done, steps, bars when complete).
    pub tornado: ReadSignal<Option<TornadoAnswer>>,
    /// (run, break-evens found).
    pub break_evens: ReadSignal<Option<(u64, Vec<FoundBreakEven>)>>,
}

/// A tornado answer: (run, steps done, steps, bars when complete).
pub type TornadoAnswer = (u64, u32, u32, Option<Vec<TornadoBar>>);

impl MonteCarloRun {
    /// Sends `input` to worker `index` (modulo the worker count); false when there is none.
    fn send_to(&self, index: usize, input: WorkerInput) -> bool {
        self.pool
            .with_value(|pool| pool.as_ref().is_some_and(|pool| pool.send(index, input)))
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
/// run's replication was replaced for this run) and `restarted` (a crashed worker was).
fn mark(what: &str, run: u64) {
    if let Some(p) = window().performance() {
        let _ = p.mark(&format!("gpucost:{what}:{run}"));
    }
}

/// When the summary of received outcomes is redrawn.
enum Flush {
    /// Now (the coarse pass just completed).
    Now,
    /// At the next animation frame.
    NextFrame,
    /// A redraw is already due.
    Pending,
}

/// The outcomes received for the current run, by replication, and that run's scenario.
struct Collected {
    run_id: u64,
    scenario: Option<Scenario>,
    outcomes: BTreeMap<u32, Vec<PlatformOutcome>>,
    coarse_marked: bool,
    /// A redraw is due at the next animation frame.
    flush_scheduled: bool,
    /// Counts events in replication order, as a single run would.
    meter: BudgetMeter,
    /// Where an event budget stopped the run, if it did.
    cut_off: Option<CutOff>,
    /// Crashed workers restarted during this run.
    restarts: u32,
}

impl Collected {
    fn new(run_id: u64, scenario: Option<Scenario>) -> Self {
        let reps = scenario.as_ref().map_or(0, |s| s.replications);
        Collected {
            run_id,
            scenario,
            outcomes: BTreeMap::new(),
            coarse_marked: false,
            flush_scheduled: false,
            meter: BudgetMeter::new(EventBudget::default(), reps),
            cut_off: None,
            restarts: 0,
        }
    }

    /// Replications the run will summarise: those asked for, or fewer after a cut-off.
    fn expected(&self) -> u32 {
        match &self.cut_off {
            Some(cut) => cut.summarised(),
            None => self.scenario.as_ref().map_or(0, |s| s.replications),
        }
    }

    /// Adds a worker's outcomes and applies the event budgets in replication order; returns
    /// whether this made the run stop (the workers then have nothing left to do).
    fn add(&mut self, outcomes: Vec<(u32, Vec<PlatformOutcome>)>) -> bool {
        if self.cut_off.is_some() {
            return false;
        }
        self.outcomes.extend(outcomes);
        let Some(scenario) = self.scenario.as_ref() else {
            return false;
        };
        while let Some(rep) = self.outcomes.get(&self.meter.next()) {
            if let Some(cut) = self.meter.add(scenario, rep) {
                let keep = cut.summarised();
                self.outcomes.retain(|r, _| *r < keep);
                self.cut_off = Some(cut);
                return true;
            }
        }
        false
    }
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
    let (tornado, set_tornado) = signal(None::<TornadoAnswer>);
    let (break_evens, set_break_evens) = signal(None::<(u64, Vec<FoundBreakEven>)>);
    let (restarted, set_restarted) = signal(None::<String>);
    let collected = StoredValue::new_local(Collected::new(0, None));
    let pool = StoredValue::new_local(None::<WorkerPool>);
    // The main-thread runs' outcomes (no worker), so an edit to one platform simulates only it
    // there too, as in the workers.
    let main_thread_cache = StoredValue::new_local(OutcomeCache::new());
    // Answers from every worker: outcomes by replication. The summary is recomputed from all
    // received so far, in replication order (so the final one is that of a single run), at
    // most once per animation frame, and not before the coarse pass is complete: the page
    // redraws a few times per run instead of once per answer.
    let flush = move || {
        let summary = collected.try_update_value(|c| {
            c.flush_scheduled = false;
            let scenario = c.scenario.as_ref()?;
            let reps = c.expected();
            let n = c.outcomes.len() as u32;
            if n < COARSE_REPLICATIONS.min(reps) && c.cut_off.is_none() {
                return None;
            }
            let ordered: Vec<Vec<PlatformOutcome>> = c.outcomes.values().cloned().collect();
            let first_coarse = !c.coarse_marked;
            c.coarse_marked = true;
            let mut results = Results::from_outcomes(scenario, &ordered);
            results.cut_off = c.cut_off.clone();
            Some((c.run_id, results, n, reps, first_coarse))
        });
        if let Some(Some((run_id, r, n, reps, first_coarse))) = summary {
            if run_id != generation.get_value() {
                return;
            }
            // Stopped before any replication could be summarised: the reason, not zeros.
            if let (0, Some(cut)) = (n, &r.cut_off) {
                set_error.set(Some(cut.to_string()));
                set_results.set(None);
                set_running.set(false);
                return;
            }
            set_results.set(Some(r));
            set_done.set(n);
            set_running.set(n < reps);
            if first_coarse {
                mark("coarse", run_id);
            }
            if n >= reps {
                mark("full", run_id);
            }
        }
    };
    let on_output = move |_worker: usize, out: WorkerOutput| match out {
        WorkerOutput::Progress {
            run_id, outcomes, ..
        } if run_id == generation.get_value() => {
            let schedule = collected.try_update_value(|c| {
                if c.run_id != run_id {
                    return Flush::Pending;
                }
                if c.outcomes.is_empty() {
                    mark("answer", run_id);
                }
                if c.add(outcomes) {
                    // An event budget stopped the run: the workers' remaining work is moot.
                    pool.with_value(|pool| {
                        if let Some(pool) = pool {
                            for i in 0..pool.count() {
                                pool.restart(i, false);
                            }
                        }
                    });
                    return Flush::Now;
                }
                let n = c.outcomes.len() as u32;
                let reps = c.expected();
                // The coarse pass goes on screen at once; later answers wait for a frame.
                if !c.coarse_marked && n >= COARSE_REPLICATIONS.min(reps) {
                    return Flush::Now;
                }
                if c.flush_scheduled {
                    return Flush::Pending;
                }
                c.flush_scheduled = true;
                Flush::NextFrame
            });
            match schedule {
                Some(Flush::Now) => flush(),
                Some(Flush::NextFrame) => request_animation_frame(flush),
                _ => {}
            }
        }
        WorkerOutput::Invalid { run_id, message } if run_id == generation.get_value() => {
            set_error.set(Some(message));
            set_running.set(false);
        }
        WorkerOutput::Tornado {
            run_id,
            done,
            total,
            bars,
        } if run_id == generation.get_value() => set_tornado.set(Some((run_id, done, total, bars))),
        WorkerOutput::BreakEvens { run_id, found } if run_id == generation.get_value() => {
            set_break_evens.set(Some((run_id, found)))
        }
        _ => {}
    };
    let setters = Setters {
        results: set_results,
        done: set_done,
        running: set_running,
        error: set_error,
        generation,
        cache: main_thread_cache,
    };
    let (in_worker, set_in_worker) = signal(false);
    // No worker after all (it never loaded): the current run goes on the main thread, and the
    // page says so. The pool is dropped after this turn (its own callback may be running).
    let fall_back = move || {
        if !in_worker.get_untracked() {
            return;
        }
        set_in_worker.set(false);
        set_timeout(move || pool.set_value(None), Duration::ZERO);
        let (id, s) = collected.with_value(|c| (c.run_id, c.scenario.clone()));
        if id == generation.get_value() && running.get_untracked() {
            if let Some(Ok(run)) = s.map(MonteCarlo::new) {
                schedule_slice(run, id, setters);
            }
        }
    };
    // A worker that fails before it loaded means no worker here; one that crashes later is
    // restarted and asked again, a few times per run, then the run stops with the reason.
    let on_crash = move |index: usize, message: String, loaded: bool| {
        if !loaded {
            fall_back();
            return;
        }
        let run_id = generation.get_value();
        let again = collected
            .try_update_value(|c| {
                c.restarts += 1;
                c.restarts <= RESTARTS_PER_RUN
            })
            .unwrap_or(false);
        let restarted = again
            && pool.with_value(|pool| pool.as_ref().is_some_and(|pool| pool.restart(index, true)));
        if restarted {
            mark("restarted", run_id);
            set_restarted.set(Some(format!(
                "A simulation worker stopped ({message}) and was restarted; its share of this \
                 run was simulated again."
            )));
        } else if run_id == generation.get_value() {
            // The run is over: later answers of other workers are dropped.
            collected.update_value(|c| c.scenario = None);
            set_error.set(Some(format!(
                "the simulation stopped with an internal error ({message}) and did not recover \
                 after {RESTARTS_PER_RUN} restarts. Please report it with this page's link."
            )));
            set_running.set(false);
        }
    };
    let started = WorkerPool::start(
        WORKER_LOADER,
        worker_count() as usize,
        std::rc::Rc::new(on_output),
        std::rc::Rc::new(on_crash),
    );
    set_in_worker.set(started.is_some());
    let (workers, _) = signal(started.as_ref().map_or(0, |p| p.count() as u32));
    pool.set_value(started);
    // Runs inside the input's own task, as soon as the scenario changes and before any view
    // updates for it: the workers start on the run first (an `Effect` would queue behind the
    // render effects subscribed before it, about 5-25 ms of page updates on each input).
    ImmediateEffect::new_scoped(move || {
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
        set_restarted.set(None);
        match MonteCarlo::new(s) {
            Ok(run) => {
                set_error.set(None);
                set_total.set(run.scenario().replications);
                set_done.set(0);
                set_running.set(true);
                collected.set_value(Collected::new(this_run, Some(run.scenario().clone())));
                let shards = workers.get_untracked();
                let sent = in_worker.get_untracked()
                    && pool.with_value(|pool| {
                        let Some(pool) = pool else { return false };
                        for i in 0..pool.count() {
                            if pool.stalled(i, STALLED_MS) {
                                pool.restart(i, false);
                                mark("terminated", this_run);
                            }
                            pool.send(
                                i,
                                WorkerInput::Start {
                                    run_id: this_run,
                                    scenario: run.scenario().clone(),
                                    shard: i as u32,
                                    shards,
                                },
                            );
                        }
                        true
                    });
                mark("sent", this_run);
                if !sent {
                    schedule_slice(run, this_run, setters);
                } else {
                    // A worker that had answered just before this input may be a moment into
                    // another long replication of an older run: one that has not read this
                    // run's start within STALLED_MS is replaced too, and the run asked again.
                    replace_unstarted_workers(pool, generation, this_run, STALLED_MS, 0);
                    // Watchdog: a worker blocked after construction (e.g. by a policy of the
                    // embedding page) never loads; then run here instead, and say so.
                    set_timeout(
                        move || {
                            let loaded = pool.with_value(|pool| {
                                pool.as_ref().is_some_and(WorkerPool::all_ready)
                            });
                            if generation.get_value() == this_run
                                && !loaded
                                && done.get_untracked() == 0
                            {
                                fall_back();
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
        workers,
        answers: SensitivityAnswers {
            tornado,
            break_evens,
        },
        restarted,
        pool,
    }
}

/// In `after_ms`, replaces each loaded worker that has not yet read the start of run
/// `this_run` (it is inside a replication of an older run) and asks the new one again. If
/// the page's own thread was busy past that moment, a worker's `Started` may still be waiting
/// behind this timer, so the check is made again shortly instead of replacing a healthy one
/// (at most [`LATE_CHECKS_MAX`] times).
fn replace_unstarted_workers(
    pool: StoredValue<Option<WorkerPool>, LocalStorage>,
    generation: StoredValue<u64>,
    this_run: u64,
    after_ms: f64,
    late_checks: u32,
) {
    let due = now_ms() + after_ms;
    set_timeout(
        move || {
            if generation.get_value() != this_run {
                return;
            }
            if now_ms() - due > LATE_MS && late_checks < LATE_CHECKS_MAX {
                replace_unstarted_workers(pool, generation, this_run, LATE_MS, late_checks + 1);
                return;
            }
            pool.with_value(|pool| {
                let Some(pool) = pool else { return };
                for i in 0..pool.count() {
                    if pool.not_started(i, this_run) {
                        pool.restart(i, true);
                        mark("terminated", this_run);
                    }
                }
            });
        },
        Duration::from_millis(after_ms as u64),
    );
}

#[derive(Clone, Copy)]
struct Setters {
    results: WriteSignal<Option<Results>>,
    done: WriteSignal<u32>,
    running: WriteSignal<bool>,
    error: WriteSignal<Option<String>>,
    generation: StoredValue<u64>,
    cache: StoredValue<OutcomeCache, LocalStorage>,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Most expected jobs per replication, summed over platforms, that the page simulates on its
/// main thread (no worker): each slice runs at least one whole replication, so a larger one
/// would freeze the page for a second or more.
pub const MAIN_THREAD_MAX_JOB_RUNS: f64 = 200_000.0;

/// Whether one replication of `s` is short enough for the main thread.
pub fn main_thread_fits(s: &Scenario) -> bool {
    s.expected_jobs() * s.platforms.len() as f64 <= MAIN_THREAD_MAX_JOB_RUNS
}

/// Why `s` is not simulated on the main thread.
pub fn main_thread_refusal(s: &Scenario) -> String {
    format!(
        "about {} simulated jobs per replication (jobs × platforms) is more than the page's main \
         thread can simulate without freezing it ({}), and there is no background worker here. \
         Open the calculator directly (not in a sandboxed frame or from a single file) or use \
         the command-line tool.",
        crate::format::group_thousands((s.expected_jobs() * s.platforms.len() as f64) as u64),
        crate::format::group_thousands(MAIN_THREAD_MAX_JOB_RUNS as u64)
    )
}

/// Runs the Monte Carlo in main-thread slices (no worker), publishing after each slice.
fn schedule_slice(run: MonteCarlo, this_run: u64, set: Setters) {
    if !main_thread_fits(run.scenario()) {
        set.error.set(Some(main_thread_refusal(run.scenario())));
        set.results.set(None);
        set.running.set(false);
        return;
    }
    set.cache
        .update_value(|cache| cache.switch_to(run.scenario()));
    let coarse_marked = std::cell::Cell::new(false);
    let publish = move |task: &MainThreadRun, complete: bool| {
        let run = &task.run;
        // Stopped before any replication could be summarised: the reason, not zeros.
        if let (0, Some(cut)) = (run.done(), run.cut_off()) {
            set.error.set(Some(cut.to_string()));
            set.results.set(None);
            set.running.set(false);
            return;
        }
        set.results.set(Some(run.results()));
        set.done.set(run.done());
        if !coarse_marked.get()
            && run.done() >= COARSE_REPLICATIONS.min(run.scenario().replications)
        {
            coarse_marked.set(true);
            mark("coarse", this_run);
        }
        if complete {
            set.running.set(false);
            mark("full", this_run);
        }
    };
    let never_busy = Signal::derive(|| false);
    let task = MainThreadRun {
        run,
        cache: set.cache,
    };
    run_sliced(
        task,
        this_run,
        set.generation,
        never_busy,
        std::rc::Rc::new(publish),
    );
}

/// A run on the main thread, simulating only the platforms its outcome cache does not know
/// (switched to the run's scenario first; [`OutcomeCache`]).
struct MainThreadRun {
    run: MonteCarlo,
    cache: StoredValue<OutcomeCache, LocalStorage>,
}

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

impl Sliced for MainThreadRun {
    fn step(&mut self) -> bool {
        self.cache
            .update_value(|cache| _ = self.run.run_batch_with(1, cache));
        self.run.is_done()
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

impl Sliced for BreakEvenSet {
    fn step(&mut self) -> bool {
        BreakEvenSet::step(self)
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
    let slice = move || {
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
    };
    if waiting {
        set_timeout(slice, Duration::from_millis(50));
    } else {
        crate::next_task::next_task(slice);
    }
}

/// What the page reads of the sensitivity run.
#[derive(Clone, Copy)]
pub struct TornadoState {
    /// The bars, once the run for the current inputs is complete.
    pub bars: ReadSignal<Vec<TornadoBar>>,
    /// Share (0–1) of the run done.
    pub progress: ReadSignal<f64>,
}

/// Runs `start` once per Monte Carlo run, when that run's replications are complete and the
/// scenario is small enough for the sensitivity pass; `clear` whenever a new run starts.
fn after_each_run(
    scenario: Signal<Scenario>,
    run: MonteCarloRun,
    clear: impl Fn() + 'static,
    start: impl Fn(u64, Scenario, bool) + Clone + 'static,
) {
    let started_for = StoredValue::new(0u64);
    let cleared_for = StoredValue::new(0u64);
    Effect::new(move |_| {
        let id = run.run_id.get();
        let running = run.running.get();
        let failed = run.error.with(Option::is_some);
        if cleared_for.get_value() != id {
            cleared_for.set_value(id);
            clear();
        }
        if running || failed || started_for.get_value() == id {
            return;
        }
        let s = scenario.get_untracked();
        if !sensitivity_fits(&s) {
            return;
        }
        started_for.set_value(id);
        // Once the inputs settle: while a slider is dragged each run is replaced before this
        // fires, so the sensitivity pass never competes with the headline runs for the cores.
        let start = start.clone();
        set_timeout(
            move || {
                if run.run_id.get_untracked() == id {
                    start(id, s, run.in_worker.get_untracked());
                }
            },
            SENSITIVITY_SETTLE,
        );
    });
}

/// How long the inputs must stay unchanged after a run before its sensitivity pass starts.
const SENSITIVITY_SETTLE: Duration = Duration::from_millis(250);

/// The tornado of the current inputs: computed in a worker after the run's replications (on
/// the main thread in slices where there is no worker).
pub fn use_tornado(scenario: Signal<Scenario>, run: MonteCarloRun) -> TornadoState {
    let (bars, set_bars) = signal(Vec::new());
    let (progress, set_progress) = signal(0.0);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        if let Some((id, done, total, answer)) = run.answers.tornado.get() {
            if id == run.run_id.get_untracked() {
                set_progress.set(f64::from(done) / f64::from(total.max(1)));
                if let Some(b) = answer {
                    set_bars.set(b);
                }
            }
        }
    });
    after_each_run(
        scenario,
        run,
        move || {
            generation.set_value(generation.get_value() + 1);
            set_bars.set(Vec::new());
            set_progress.set(0.0);
        },
        move |id, s, in_worker| {
            if in_worker
                && run.send_to(
                    0,
                    WorkerInput::Tornado {
                        run_id: id,
                        scenario: s.clone(),
                    },
                )
            {
                return;
            }
            if let Ok(task) = TornadoRun::new(&s, TORNADO_PCT, TORNADO_REPS) {
                let publish = move |task: &TornadoRun, complete: bool| {
                    set_progress.set(task.done_steps() as f64 / task.total_steps().max(1) as f64);
                    if complete {
                        set_bars.set(task.bars());
                    }
                };
                let never_busy = Signal::derive(|| false);
                run_sliced(
                    task,
                    generation.get_value(),
                    generation,
                    never_busy,
                    std::rc::Rc::new(publish),
                );
            }
        },
    );
    TornadoState { bars, progress }
}

/// The break-evens of the current inputs: where spot stops paying for the first spot platform,
/// and where reserving beats on-demand for the first on-demand platform; computed in a worker
/// (the second, when there are two) after the run's replications, or on the main thread after
/// the tornado (`busy` while it runs) where there is no worker.
pub fn use_break_evens(
    scenario: Signal<Scenario>,
    run: MonteCarloRun,
    busy: Signal<bool>,
) -> ReadSignal<Vec<FoundBreakEven>> {
    let (found, set_found) = signal(Vec::new());
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        if let Some((id, answer)) = run.answers.break_evens.get() {
            if id == run.run_id.get_untracked() {
                set_found.set(answer);
            }
        }
    });
    after_each_run(
        scenario,
        run,
        move || {
            generation.set_value(generation.get_value() + 1);
            set_found.set(Vec::new());
        },
        move |id, s, in_worker| {
            if in_worker
                && run.send_to(
                    1,
                    WorkerInput::BreakEvens {
                        run_id: id,
                        scenario: s.clone(),
                    },
                )
            {
                return;
            }
            let set = BreakEvenSet::new(&s, BREAK_EVEN_REPS);
            if set.is_empty() {
                return;
            }
            let publish = move |set: &BreakEvenSet, complete: bool| {
                if complete {
                    set_found.set(set.found());
                }
            };
            run_sliced(
                set,
                generation.get_value(),
                generation,
                busy,
                std::rc::Rc::new(publish),
            );
        },
    );
    found
}
