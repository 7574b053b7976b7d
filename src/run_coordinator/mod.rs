//! The page's run logic as a state machine with no web crate: it takes events (the scenario
//! changed, a worker answered, crashed or failed to start, a timer fired, a frame is due, the
//! main thread has a turn) and returns commands (send to a worker, restart one, drop them all,
//! publish the view, set a performance mark or a timer, ask for a frame or a main-thread turn).
//! `crate::ui::runner` carries the commands out with the worker pool, timers and signals.
//!
//! It owns:
//! - the run number, one per input;
//! - the collector ([`ReplicationCollector`]): the workers' out-of-order replications put back
//!   in replication order under the event budget;
//! - the coarse pass and the flush policy: the first [`coarse_replications`] (32, fewer for a
//!   month of serving) go on screen at once, later answers at most once a frame;
//! - the stall and restart policy: a worker stuck in an older run's replication is replaced,
//!   a crashed one restarted and asked again ([`RESTARTS_PER_RUN`] times per run), one that
//!   fails to start, or stays silent for [`WORKER_WATCHDOG_MS`], means the main thread runs;
//! - the size policy ([`tuning::main_thread_fits`], [`tuning::sensitivity_fits`]);
//! - the scheduling of the tornado and the break-evens once a run's inputs settle.
//!
//! A newer input replaces the older run: each run carries its number and answers for older
//! runs are dropped.

pub mod tuning;

#[cfg(test)]
mod tests;

use crate::model::budget::EventBudget;
use crate::model::collector::ReplicationCollector;
use crate::model::monte_carlo::{MonteCarlo, Results};
use crate::model::outcome_cache::OutcomeCache;
use crate::model::scenario::{Scenario, ValidScenario};
use crate::model::sensitivity::{BreakEvenSet, FoundBreakEven, TornadoBar, TornadoRun};
use crate::model::step::{run_slice, Step, Stepped};
use crate::workbench::verdict::verdict;
use crate::workbench::verdict_basis::VerdictBasis;
use crate::workbench::verdict_flips::{FlipRun, VerdictFlips};
use crate::worker_protocol::{ScenarioText, WorkerInput, WorkerOutput};
use tuning::*;

/// What happened.
#[derive(Debug, Clone)]
pub enum Event {
    /// The scenario changed: a new run.
    ScenarioChanged(Box<Scenario>),
    /// Worker `worker` answered.
    WorkerAnswered {
        /// The worker's index.
        worker: usize,
        /// Its answer.
        output: WorkerOutput,
    },
    /// Worker `worker` failed: it crashed, or (before it said it was ready) could not start.
    WorkerFailed {
        /// The worker's index.
        worker: usize,
        /// What went wrong.
        message: String,
    },
    /// A [`Command::Restart`] could not start a new worker.
    RestartFailed {
        /// The worker's index.
        worker: usize,
    },
    /// A timer set by [`Command::SetTimer`] fired.
    TimerFired(Timer),
    /// The frame asked for by [`Command::RequestFrame`] is due.
    Frame,
}

/// A timer the coordinator sets, and what it is for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Timer {
    /// The workers of `run` should have loaded by now.
    Watchdog {
        /// The run it was set for.
        run: u64,
    },
    /// Every worker should have read `run`'s start by `due_ms` (checked again, at most
    /// [`LATE_CHECKS_MAX`] times, when the timer itself ran late).
    UnstartedCheck {
        /// The run it was set for.
        run: u64,
        /// When it was due, ms.
        due_ms: f64,
        /// Times it was put off.
        late_checks: u32,
    },
    /// `run`'s inputs have stayed unchanged long enough for its sensitivity pass.
    SensitivitySettle {
        /// The run it was set for.
        run: u64,
    },
    /// `run`'s answers held back by [`INTERIM_MS`] are due on screen.
    Interim {
        /// The run it was set for.
        run: u64,
    },
}

/// What the page must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Post `input` to worker `worker`.
    Send {
        /// The worker's index.
        worker: usize,
        /// The message.
        input: WorkerInput,
    },
    /// Terminate worker `worker` and start a new one in its place (the coordinator asks it
    /// again what it must do, once it is ready).
    Restart {
        /// The worker's index.
        worker: usize,
    },
    /// There is no worker after all: drop the pool.
    DropWorkers,
    /// The view changed: show [`RunCoordinator::view`].
    Publish,
    /// Set the performance mark `gpucost:<what>:<run>` (the benchmarks and tests read them).
    Mark {
        /// `sent`, `answer`, `coarse`, `full`, `terminated` or `restarted`.
        what: &'static str,
        /// The run.
        run: u64,
    },
    /// Fire `timer` in `after_ms`.
    SetTimer {
        /// Which timer.
        timer: Timer,
        /// Delay, ms.
        after_ms: f64,
    },
    /// Send [`Event::Frame`] at the next animation frame.
    RequestFrame,
    /// Call [`RunCoordinator::main_thread_turn`] in a task of its own, as soon as the page's
    /// thread is free.
    MainThreadTurn,
}

/// The tornado as the page shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TornadoView {
    /// Share (0–1) of the pass done.
    pub progress: f64,
    /// The bars, once the pass for the current inputs is complete.
    pub bars: Vec<TornadoBar>,
}

/// Everything the page shows of the current run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunView {
    /// The run number: counts inputs; tests wait for it to change after an input.
    pub run: u64,
    /// Results of the replications done so far (`None` before the first answer).
    pub results: Option<Results>,
    /// Replications done.
    pub done: u32,
    /// Replications in the run.
    pub total: u32,
    /// A run for the current inputs is in flight.
    pub running: bool,
    /// Why the scenario could not run, if it could not.
    pub error: Option<String>,
    /// The run goes in the Web Workers (false: main-thread slices).
    pub in_worker: bool,
    /// Workers sharing each run.
    pub workers: u32,
    /// Set when a worker crashed during the current run and was restarted: what happened.
    pub restarted: Option<String>,
    /// The tornado of the current inputs.
    pub tornado: TornadoView,
    /// The break-evens of the current inputs.
    pub break_evens: Vec<FoundBreakEven>,
    /// What would flip the verdict of the current inputs, once its pass is in (`None` also
    /// where the verdict names no winner, or the pass could not run).
    pub flips: Option<VerdictFlips>,
    /// The pass for `flips` is done, or there is none to do.
    pub flips_done: bool,
    /// The verdict is final: the run is done and so is every pass that follows it by itself
    /// and adds to the verdict (the tornado and what would flip it, where the scenario gets
    /// them). The page shows it
    /// as `data-verdict-state="final"`.
    pub verdict_final: bool,
}

/// One worker as the coordinator knows it.
#[derive(Debug, Clone)]
struct WorkerSlot {
    /// It has said it is ready.
    ready: bool,
    /// It has work it has not finished.
    busy: bool,
    /// When it last answered (or was given work while idle), ms.
    last_heard_ms: f64,
    /// The latest run whose start it has read.
    started_run: u64,
    /// What it was asked since its last `Start` (asked again of a restarted worker).
    asked: Vec<WorkerInput>,
    /// Messages held until it is ready.
    pending: Vec<WorkerInput>,
}

impl WorkerSlot {
    fn new(now_ms: f64) -> Self {
        WorkerSlot {
            ready: false,
            busy: false,
            last_heard_ms: now_ms,
            started_run: 0,
            asked: Vec::new(),
            pending: Vec::new(),
        }
    }
}

/// The current run.
#[derive(Debug)]
struct Run {
    number: u64,
    scenario: ValidScenario,
    text: ScenarioText,
    collector: ReplicationCollector,
    /// Replications of its coarse pass ([`coarse_replications`]).
    coarse: u32,
    /// The coarse pass is on screen.
    coarse_shown: bool,
    /// A frame is asked for, to show what came in since the last one.
    frame_requested: bool,
    /// When the last interim redraw was asked for (or the coarse pass shown), ms.
    last_interim_ms: f64,
    /// A [`Timer::Interim`] is set for answers held back.
    interim_timer: bool,
    /// The run stopped (it could not recover from a crash): later answers are dropped.
    over: bool,
    /// Its sensitivity pass is scheduled.
    sensitivity_scheduled: bool,
}

/// Work on the page's main thread, in the order it is done.
enum MainTask {
    Run(Box<MonteCarlo>),
    Tornado(Box<TornadoRun>),
    BreakEvens(BreakEvenSet),
    Flips(Box<FlipRun>),
}

/// A main-thread run stepped with the page's outcome cache.
struct CachedRun<'a> {
    run: &'a mut MonteCarlo,
    cache: &'a mut OutcomeCache,
}

impl Step for CachedRun<'_> {
    fn step(&mut self) -> Stepped {
        self.run.run_batch_with(1, self.cache);
        if self.run.is_done() {
            Stepped::Complete
        } else {
            Stepped::More
        }
    }
}

/// The page's run logic (see the module's documentation).
pub struct RunCoordinator {
    workers: Vec<WorkerSlot>,
    current: Option<Run>,
    /// Crashed workers restarted during the current run.
    restarts: u32,
    /// Main-thread work of the current run (no worker).
    main_tasks: Vec<MainTask>,
    /// A [`Command::MainThreadTurn`] is outstanding.
    main_turn_due: bool,
    /// The main thread's outcomes by platform, so an edit to one platform simulates only it
    /// there too, as in the workers.
    cache: OutcomeCache,
    view: RunView,
    /// The view changed since the last [`Command::Publish`].
    dirty: bool,
    out: Vec<Command>,
    /// The runs' event budgets (the default but in tests).
    budget: EventBudget,
}

impl RunCoordinator {
    /// A coordinator for `workers` simulation workers, all starting at `now_ms` (0: there is
    /// no worker here, runs go on the main thread).
    pub fn new(workers: usize, now_ms: f64) -> Self {
        Self::within(workers, now_ms, EventBudget::default())
    }

    /// [`RunCoordinator::new`], with runs within other event budgets.
    pub fn within(workers: usize, now_ms: f64, budget: EventBudget) -> Self {
        RunCoordinator {
            workers: vec![WorkerSlot::new(now_ms); workers],
            current: None,
            restarts: 0,
            main_tasks: Vec::new(),
            main_turn_due: false,
            cache: OutcomeCache::new(),
            view: RunView {
                in_worker: workers > 0,
                workers: workers as u32,
                ..RunView::default()
            },
            dirty: false,
            out: Vec::new(),
            budget,
        }
    }

    /// What the page shows.
    pub fn view(&self) -> &RunView {
        &self.view
    }

    /// Handles `event`, which happened at `now_ms`; returns what the page must do, in order.
    pub fn handle(&mut self, event: Event, now_ms: f64) -> Vec<Command> {
        match event {
            Event::ScenarioChanged(scenario) => self.start_run(*scenario, now_ms),
            Event::WorkerAnswered { worker, output } => self.answered(worker, output, now_ms),
            Event::WorkerFailed { worker, message } => self.failed(worker, &message, now_ms),
            Event::RestartFailed { .. } => self.give_up("a new worker could not be started"),
            Event::TimerFired(timer) => self.timer(timer, now_ms),
            Event::Frame => self.flush(),
        }
        self.commands()
    }

    /// One slice of main-thread work, timed by `now_ms`.
    pub fn main_thread_turn(&mut self, now_ms: &dyn Fn() -> f64) -> Vec<Command> {
        self.main_turn_due = false;
        let complete = match self.main_tasks.first_mut() {
            None => return self.commands(),
            Some(MainTask::Run(run)) => {
                let mut task = CachedRun {
                    run: run.as_mut(),
                    cache: &mut self.cache,
                };
                let complete = run_slice(&mut task, PAGE_SLICE_MS, now_ms);
                self.show_main_thread_run(complete);
                complete
            }
            Some(MainTask::Tornado(run)) => {
                let complete = run_slice(run.as_mut(), PAGE_SLICE_MS, now_ms);
                self.view.tornado.progress =
                    run.done_steps() as f64 / run.total_steps().max(1) as f64;
                if complete {
                    self.view.tornado.bars = run.bars();
                }
                self.dirty = true;
                complete
            }
            Some(MainTask::BreakEvens(set)) => {
                let complete = run_slice(set, PAGE_SLICE_MS, now_ms);
                if complete {
                    self.view.break_evens = set.found();
                    self.dirty = true;
                }
                complete
            }
            Some(MainTask::Flips(run)) => {
                let complete = run_slice(run.as_mut(), PAGE_SLICE_MS, now_ms);
                if complete {
                    self.view.flips = run.result();
                    self.view.flips_done = true;
                    self.dirty = true;
                }
                complete
            }
        };
        if complete && !self.main_tasks.is_empty() {
            self.main_tasks.remove(0);
        }
        self.main_turn();
        self.commands()
    }

    fn commands(&mut self) -> Vec<Command> {
        let verdict_final = self.verdict_is_final();
        if verdict_final != self.view.verdict_final {
            self.view.verdict_final = verdict_final;
            self.dirty = true;
        }
        if std::mem::take(&mut self.dirty) {
            self.out.push(Command::Publish);
        }
        std::mem::take(&mut self.out)
    }

    /// Whether the current run is done and nothing that follows it by itself will add to its
    /// verdict: it could not run, it stopped, its scenario gets no sensitivity pass, or its
    /// tornado is complete.
    fn verdict_is_final(&self) -> bool {
        let Some(run) = self.current.as_ref() else {
            return self.view.error.is_some();
        };
        !self.view.running
            && (self.view.error.is_some()
                || run.over
                || !sensitivity_fits(&run.scenario)
                || (self.view.tornado.progress >= 1.0 && self.view.flips_done))
    }

    fn mark(&mut self, what: &'static str, run: u64) {
        self.out.push(Command::Mark { what, run });
    }

    /// Asks for a main-thread turn if there is work and none is outstanding.
    fn main_turn(&mut self) {
        if !self.main_tasks.is_empty() && !self.main_turn_due {
            self.main_turn_due = true;
            self.out.push(Command::MainThreadTurn);
        }
    }

    // --- runs ----------------------------------------------------------------------------

    fn start_run(&mut self, scenario: Scenario, now_ms: f64) {
        let number = self.view.run + 1;
        self.view.run = number;
        self.dirty = true;
        self.restarts = 0;
        self.main_tasks.clear();
        // Results of other platforms would sit under the wrong names: drop them. Results of
        // the same platforms stay on screen until the new run's first answer (no flicker).
        let same_platforms = self.view.results.as_ref().is_some_and(|r| {
            r.platforms.len() == scenario.platforms.len()
                && r.platforms
                    .iter()
                    .zip(&scenario.platforms)
                    .all(|(a, b)| a.name == b.name)
        });
        if !same_platforms {
            self.view.results = None;
        }
        self.view.restarted = None;
        self.view.tornado = TornadoView::default();
        self.view.break_evens = Vec::new();
        self.view.flips = None;
        self.view.flips_done = false;
        let scenario = match ValidScenario::new(scenario) {
            Ok(scenario) => scenario,
            Err(e) => {
                self.current = None;
                self.stop_with(e.to_string());
                return;
            }
        };
        self.view.error = None;
        self.view.total = scenario.replications;
        self.view.done = 0;
        self.view.running = true;
        let text = ScenarioText::of(&scenario);
        self.current = Some(Run {
            number,
            collector: ReplicationCollector::new(self.budget, scenario.replications),
            coarse: coarse_replications(&scenario),
            scenario: scenario.clone(),
            text: text.clone(),
            coarse_shown: false,
            frame_requested: false,
            last_interim_ms: f64::NEG_INFINITY,
            interim_timer: false,
            over: false,
            sensitivity_scheduled: false,
        });
        if self.view.in_worker {
            let shards = self.workers.len() as u32;
            for i in 0..self.workers.len() {
                if self.stalled(i, now_ms) {
                    self.restart(i, false, now_ms);
                    self.mark("terminated", number);
                }
                let start = WorkerInput::Start {
                    run_id: number,
                    scenario: text.clone(),
                    shard: i as u32,
                    shards,
                };
                self.send(i, start, now_ms);
            }
            self.mark("sent", number);
            // A worker that had answered just before this input may be a moment into another
            // long replication of an older run: one that has not read this run's start within
            // STALLED_MS is replaced too, and the run asked again.
            self.out.push(Command::SetTimer {
                timer: Timer::UnstartedCheck {
                    run: number,
                    due_ms: now_ms + STALLED_MS,
                    late_checks: 0,
                },
                after_ms: STALLED_MS,
            });
            // A worker blocked after construction (e.g. by a policy of the embedding page)
            // never loads: then the main thread runs instead, and the page says so.
            self.out.push(Command::SetTimer {
                timer: Timer::Watchdog { run: number },
                after_ms: WORKER_WATCHDOG_MS,
            });
        } else {
            self.mark("sent", number);
            self.start_on_main_thread(MonteCarlo::of(scenario, self.budget));
        }
    }

    /// The run cannot go on: says why, with no results.
    fn stop_with(&mut self, message: String) {
        self.view.error = Some(message);
        self.view.results = None;
        self.view.running = false;
        self.dirty = true;
    }

    fn start_on_main_thread(&mut self, run: MonteCarlo) {
        if !main_thread_fits(run.scenario()) {
            let refusal = main_thread_refusal(run.scenario());
            self.stop_with(refusal);
            return;
        }
        self.cache.switch_to(run.scenario());
        self.main_tasks.retain(|t| !matches!(t, MainTask::Run(_)));
        self.main_tasks.insert(0, MainTask::Run(Box::new(run)));
        self.main_turn();
    }

    /// After a main-thread slice of the run: its results so far.
    fn show_main_thread_run(&mut self, complete: bool) {
        let Some(MainTask::Run(run)) = self.main_tasks.first() else {
            return;
        };
        self.dirty = true;
        // Stopped before any replication could be summarised: the reason, not zeros.
        if let (0, Some(cut)) = (run.done(), run.cut_off()) {
            let message = cut.to_string();
            self.stop_with(message);
            return;
        }
        let (results, done, reps) = (run.results(), run.done(), run.scenario().replications);
        self.view.results = Some(results);
        self.view.done = done;
        let Some(current) = self.current.as_mut() else {
            return;
        };
        let number = current.number;
        if !current.coarse_shown && done >= current.coarse.min(reps) {
            current.coarse_shown = true;
            self.mark("coarse", number);
        }
        if complete {
            self.view.running = false;
            self.mark("full", number);
            self.schedule_sensitivity();
        }
    }

    /// Shows what the workers answered for the current run so far.
    fn flush(&mut self) {
        let Some(run) = self.current.as_mut() else {
            return;
        };
        run.frame_requested = false;
        if run.over {
            return;
        }
        let (n, reps) = (run.collector.received(), run.collector.expected());
        let cut = run.collector.cut_off().cloned();
        if n < run.coarse.min(reps) && cut.is_none() {
            return;
        }
        let first_coarse = !run.coarse_shown;
        run.coarse_shown = true;
        let number = run.number;
        let results = run.collector.results(&run.scenario);
        // Stopped before any replication could be summarised: the reason, not zeros.
        if let (0, Some(cut)) = (n, cut) {
            self.stop_with(cut.to_string());
            return;
        }
        self.view.results = Some(results);
        self.view.done = n;
        self.view.running = n < reps;
        self.dirty = true;
        if first_coarse {
            self.mark("coarse", number);
        }
        if n >= reps {
            self.mark("full", number);
            self.schedule_sensitivity();
        }
    }

    // --- workers ---------------------------------------------------------------------------

    /// Whether worker `i` has had unfinished work and no answer for [`STALLED_MS`] (it is
    /// inside one long replication, or hung).
    fn stalled(&self, i: usize, now_ms: f64) -> bool {
        let w = &self.workers[i];
        w.ready && w.busy && now_ms - w.last_heard_ms > STALLED_MS
    }

    /// Sends `input` to worker `i` (modulo the worker count), or holds it until it is ready.
    fn send(&mut self, i: usize, input: WorkerInput, now_ms: f64) {
        let n = self.workers.len();
        if n == 0 {
            return;
        }
        let i = i % n;
        let w = &mut self.workers[i];
        if matches!(input, WorkerInput::Start { .. }) {
            w.asked.clear();
        }
        w.asked.push(input.clone());
        if !w.busy {
            w.last_heard_ms = now_ms;
        }
        w.busy = true;
        if w.ready {
            self.out.push(Command::Send { worker: i, input });
        } else {
            w.pending.push(input);
        }
    }

    /// Replaces worker `i` with a new one; with `replay`, asks it again what the old one was
    /// asked since its last run started.
    fn restart(&mut self, i: usize, replay: bool, now_ms: f64) {
        let asked = std::mem::take(&mut self.workers[i].asked);
        self.workers[i] = WorkerSlot::new(now_ms);
        self.out.push(Command::Restart { worker: i });
        if replay {
            for input in asked {
                self.send(i, input, now_ms);
            }
        }
    }

    fn answered(&mut self, worker: usize, output: WorkerOutput, now_ms: f64) {
        let Some(w) = self.workers.get_mut(worker) else {
            return;
        };
        w.last_heard_ms = now_ms;
        match output {
            WorkerOutput::Ready => {
                w.ready = true;
                let pending = std::mem::take(&mut w.pending);
                self.out.extend(
                    pending
                        .into_iter()
                        .map(|input| Command::Send { worker, input }),
                );
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
        let Some(run) = self.current.as_mut() else {
            return;
        };
        let number = run.number;
        match output {
            WorkerOutput::Progress {
                run_id, outcomes, ..
            } if run_id == number && !run.over => self.progress(outcomes, now_ms),
            WorkerOutput::Invalid { run_id, message } if run_id == number => {
                self.view.error = Some(message);
                self.view.running = false;
                self.dirty = true;
            }
            WorkerOutput::Tornado {
                run_id,
                done,
                total,
                bars,
            } if run_id == number => {
                self.view.tornado.progress = f64::from(done) / f64::from(total.max(1));
                // The bars come once the pass is complete (none where the scenario has no
                // tornado).
                if let Some(bars) = bars {
                    self.view.tornado.bars = bars;
                    self.view.tornado.progress = 1.0;
                }
                self.dirty = true;
            }
            WorkerOutput::BreakEvens { run_id, found } if run_id == number => {
                self.view.break_evens = found;
                self.dirty = true;
            }
            WorkerOutput::Flips { run_id, flips } if run_id == number => {
                self.view.flips = flips;
                self.view.flips_done = true;
                self.dirty = true;
            }
            _ => {}
        }
    }

    /// A worker's outcomes for the current run: collected; shown at once for the coarse pass
    /// and a cut-off, otherwise at the next frame.
    fn progress(
        &mut self,
        outcomes: Vec<(u32, Vec<crate::model::sim::PlatformOutcome>)>,
        now_ms: f64,
    ) {
        let Some(run) = self.current.as_mut() else {
            return;
        };
        let number = run.number;
        let first = run.collector.received() == 0;
        let mut stopped = false;
        for (r, o) in outcomes {
            stopped |= run.collector.add(&run.scenario, r, o);
        }
        let (n, reps) = (run.collector.received(), run.collector.expected());
        let coarse_now = !run.coarse_shown && n >= run.coarse.min(reps);
        // After the coarse pass, what comes in is redrawn at most every INTERIM_MS (a long
        // run's redraws at the frame rate took the core its worker needed); the last answer
        // at once.
        let due = n >= reps || now_ms - run.last_interim_ms >= INTERIM_MS;
        let frame = !stopped && !coarse_now && !run.frame_requested && due;
        if frame || coarse_now {
            run.last_interim_ms = now_ms;
        }
        if frame {
            run.frame_requested = true;
        }
        // Held back: shown when the interval is over, whether or not more answers come.
        let held = !stopped && !coarse_now && !due && !run.frame_requested && !run.interim_timer;
        if held {
            run.interim_timer = true;
            let after_ms = (run.last_interim_ms + INTERIM_MS - now_ms).max(0.0);
            self.out.push(Command::SetTimer {
                timer: Timer::Interim { run: number },
                after_ms,
            });
        }
        if first {
            self.mark("answer", number);
        }
        if stopped {
            // An event budget stopped the run: the workers' remaining work is moot.
            for i in 0..self.workers.len() {
                self.restart(i, false, now_ms);
            }
        }
        if stopped || coarse_now {
            self.flush();
        } else if frame {
            self.out.push(Command::RequestFrame);
        }
    }

    /// A worker that fails before it loaded means no worker here; one that crashes later is
    /// restarted and asked again, a few times per run, then the run stops with the reason.
    fn failed(&mut self, worker: usize, message: &str, now_ms: f64) {
        let Some(w) = self.workers.get(worker) else {
            return;
        };
        if !w.ready {
            self.fall_back();
            return;
        }
        self.restarts += 1;
        let number = self.view.run;
        if self.restarts <= RESTARTS_PER_RUN {
            self.restart(worker, true, now_ms);
            self.mark("restarted", number);
            self.view.restarted = Some(format!(
                "A simulation worker stopped ({message}) and was restarted; its share of this \
                 run was simulated again."
            ));
            self.dirty = true;
        } else {
            self.give_up(message);
        }
    }

    /// The run is over after a crash it did not recover from: later answers are dropped.
    fn give_up(&mut self, message: &str) {
        if let Some(run) = self.current.as_mut() {
            run.over = true;
        }
        self.view.error = Some(format!(
            "the simulation stopped with an internal error ({message}) and did not recover \
             after {RESTARTS_PER_RUN} restarts. Please report it with this page's link."
        ));
        self.view.running = false;
        self.dirty = true;
    }

    /// No worker after all: the current run goes on the main thread, and the page says so.
    fn fall_back(&mut self) {
        if !self.view.in_worker {
            return;
        }
        self.view.in_worker = false;
        self.workers.clear();
        self.dirty = true;
        self.out.push(Command::DropWorkers);
        if let Some(run) = self.current.as_ref().filter(|_| self.view.running) {
            let main = MonteCarlo::of(run.scenario.clone(), self.budget);
            self.start_on_main_thread(main);
        }
    }

    // --- timers ----------------------------------------------------------------------------

    fn timer(&mut self, timer: Timer, now_ms: f64) {
        let current = self.current.as_ref().map(|r| r.number);
        match timer {
            Timer::Watchdog { run } => {
                let loaded = self.workers.iter().all(|w| w.ready);
                if Some(run) == current && !loaded && self.view.done == 0 {
                    self.fall_back();
                }
            }
            Timer::UnstartedCheck {
                run,
                due_ms,
                late_checks,
            } if Some(run) == current => {
                // The page's own thread was busy past the due time: a worker's `Started` may
                // still be waiting behind this timer, so look again shortly instead of
                // replacing a healthy worker.
                if now_ms - due_ms > LATE_MS && late_checks < LATE_CHECKS_MAX {
                    self.out.push(Command::SetTimer {
                        timer: Timer::UnstartedCheck {
                            run,
                            due_ms: now_ms + LATE_MS,
                            late_checks: late_checks + 1,
                        },
                        after_ms: LATE_MS,
                    });
                    return;
                }
                for i in 0..self.workers.len() {
                    let w = &self.workers[i];
                    if w.ready && w.started_run < run {
                        self.restart(i, true, now_ms);
                        self.mark("terminated", run);
                    }
                }
            }
            Timer::SensitivitySettle { run } if Some(run) == current => {
                self.start_sensitivity(now_ms)
            }
            Timer::Interim { run } if Some(run) == current => {
                if let Some(r) = self.current.as_mut() {
                    r.interim_timer = false;
                    if !r.frame_requested && !r.over {
                        r.frame_requested = true;
                        r.last_interim_ms = now_ms;
                        self.out.push(Command::RequestFrame);
                    }
                }
            }
            _ => {}
        }
    }

    // --- sensitivity -------------------------------------------------------------------------

    /// Once the current run is complete: its sensitivity pass, when the inputs have settled
    /// and the scenario is small enough.
    fn schedule_sensitivity(&mut self) {
        let Some(run) = self.current.as_mut() else {
            return;
        };
        if run.sensitivity_scheduled
            || self.view.error.is_some()
            || !sensitivity_fits(&run.scenario)
        {
            return;
        }
        run.sensitivity_scheduled = true;
        self.out.push(Command::SetTimer {
            timer: Timer::SensitivitySettle { run: run.number },
            after_ms: SENSITIVITY_SETTLE_MS,
        });
    }

    /// The tornado (first worker) and the break-evens (second worker, when there are two), or
    /// both in main-thread slices, the tornado first.
    fn start_sensitivity(&mut self, now_ms: f64) {
        let Some(run) = self.current.as_ref() else {
            return;
        };
        let (number, text) = (run.number, run.text.clone());
        // What would flip the verdict: only where it names a winner.
        let flips = self.view.results.as_ref().and_then(|results| {
            let v = verdict(results, &VerdictBasis::of(&run.scenario));
            Some((v.winner?, v.rival?, v.metric))
        });
        if flips.is_none() {
            self.view.flips_done = true;
            self.dirty = true;
        }
        if self.view.in_worker && !self.workers.is_empty() {
            let tornado = WorkerInput::Tornado {
                run_id: number,
                scenario: text.clone(),
            };
            self.send(0, tornado, now_ms);
            let break_evens = WorkerInput::BreakEvens {
                run_id: number,
                scenario: text.clone(),
            };
            self.send(1, break_evens, now_ms);
            if let Some((winner, rival, metric)) = flips {
                // After the break-evens where there are two workers, else after the tornado.
                let last = self.workers.len() - 1;
                let input = WorkerInput::Flips {
                    run_id: number,
                    scenario: text,
                    winner,
                    rival,
                    metric: metric.key().to_string(),
                };
                self.send(last, input, now_ms);
            }
            return;
        }
        match TornadoRun::new(&run.scenario, TORNADO_PCT, TORNADO_REPS) {
            Ok(tornado) => self.main_tasks.push(MainTask::Tornado(Box::new(tornado))),
            // No tornado for this scenario: complete, with no bars.
            Err(_) => {
                self.view.tornado.progress = 1.0;
                self.dirty = true;
            }
        }
        let set = BreakEvenSet::new(&run.scenario, BREAK_EVEN_REPS);
        if !set.is_empty() {
            self.main_tasks.push(MainTask::BreakEvens(set));
        }
        match flips.and_then(|(w, r, m)| FlipRun::new(&run.scenario, &w, &r, m)) {
            Some(flips) => self.main_tasks.push(MainTask::Flips(Box::new(flips))),
            None => {
                self.view.flips_done = true;
                self.dirty = true;
            }
        }
        self.main_turn();
    }
}
