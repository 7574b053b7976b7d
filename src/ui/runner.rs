//! Runs the Monte Carlo for the current scenario in short slices on the main thread, publishing
//! partial results after each slice, so the page never freezes and the first (coarse) numbers
//! appear within one slice. A newer scenario cancels the older run: each run carries a
//! generation number and a slice of an outdated generation does nothing.

use crate::model::monte_carlo::{MonteCarlo, Results};
use crate::model::scenario::Scenario;
use leptos::prelude::*;
use std::time::Duration;

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
        match MonteCarlo::new(s) {
            Ok(run) => {
                set_error.set(None);
                set_total.set(run.scenario().replications);
                set_done.set(0);
                set_running.set(true);
                schedule_slice(run, this_run, setters);
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
    }
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

fn schedule_slice(mut run: MonteCarlo, this_run: u64, set: Setters) {
    set_timeout(
        move || {
            if set.generation.get_value() != this_run {
                return; // a newer input replaced this run
            }
            let start = now_ms();
            loop {
                run.run_batch(1);
                if run.is_done() || now_ms() - start > SLICE_BUDGET_MS {
                    break;
                }
            }
            set.results.set(Some(run.results()));
            set.done.set(run.done());
            if run.is_done() {
                set.running.set(false);
            } else {
                schedule_slice(run, this_run, set);
            }
        },
        Duration::ZERO,
    );
}

/// Replications per tornado variant: coarse, so the tornado follows the inputs quickly.
const TORNADO_REPS: u32 = 12;
/// Each input is moved by ± this many percent.
pub const TORNADO_PCT: f64 = 20.0;

/// What the page reads of the sensitivity run.
#[derive(Clone, Copy)]
pub struct TornadoState {
    /// The bars, once the run for the current inputs is complete.
    pub bars: ReadSignal<Vec<crate::model::sensitivity::TornadoBar>>,
    /// Share (0–1) of the run done.
    pub progress: ReadSignal<f64>,
}

/// Recomputes the tornado whenever `scenario` changes, in slices that yield to the main
/// Monte Carlo run (`busy`) so the headline numbers come first.
pub fn use_tornado(scenario: Signal<Scenario>, busy: ReadSignal<bool>) -> TornadoState {
    use crate::model::sensitivity::TornadoRun;
    let (bars, set_bars) = signal(Vec::new());
    let (progress, set_progress) = signal(0.0);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let s = scenario.get();
        let this_run = generation.get_value() + 1;
        generation.set_value(this_run);
        set_bars.set(Vec::new());
        set_progress.set(0.0);
        if let Ok(run) = TornadoRun::new(&s, TORNADO_PCT, TORNADO_REPS) {
            step_tornado(run, this_run, generation, busy, set_bars, set_progress);
        }
    });
    TornadoState { bars, progress }
}

fn step_tornado(
    mut run: crate::model::sensitivity::TornadoRun,
    this_run: u64,
    generation: StoredValue<u64>,
    busy: ReadSignal<bool>,
    set_bars: WriteSignal<Vec<crate::model::sensitivity::TornadoBar>>,
    set_progress: WriteSignal<f64>,
) {
    let waiting = busy.get_untracked();
    set_timeout(
        move || {
            if generation.get_value() != this_run {
                return;
            }
            if !busy.get_untracked() {
                let start = now_ms();
                while !run.step() && now_ms() - start < SLICE_BUDGET_MS {}
                set_progress.set(run.done_steps() as f64 / run.total_steps().max(1) as f64);
                if run.is_done() {
                    set_bars.set(run.bars());
                    return;
                }
            }
            step_tornado(run, this_run, generation, busy, set_bars, set_progress);
        },
        Duration::from_millis(if waiting { 50 } else { 0 }),
    );
}
