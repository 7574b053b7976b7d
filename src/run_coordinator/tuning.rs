//! The page's run policy in numbers: how large the coarse pass is, how long a slice runs, when
//! a worker counts as stalled, how often a crashed one is restarted, and which scenarios the
//! main thread may simulate. One place, read by the coordinator, the worker and the views.

use crate::model::scenario::Scenario;

/// Replications of the coarse first pass (over all workers): a worker answers as soon as its
/// share of them is done, so a first picture is on screen quickly.
pub const COARSE_REPLICATIONS: u32 = 32;

/// Fewest replications of a coarse pass made smaller for services ([`coarse_replications`]).
pub const COARSE_REPLICATIONS_MIN: u32 = 8;

/// Traffic buckets (one minute of one service on one platform) a coarse pass simulates at
/// most, over all its replications: about 0.1 s of work natively (about 60 ns a bucket,
/// bench/RESULTS.md), so the first picture of a month of serving comes as soon as a training
/// scenario's.
pub const COARSE_BUCKETS: f64 = 1.5e6;

/// Job-runs (one job on one platform) a coarse pass simulates at most, over all its
/// replications: about 60 ms of work in the page's worker (about 2 M job-runs/s,
/// bench/RESULTS.md). The presets of about 1,000 job-runs a replication keep 32; a
/// 14-stage pipeline ten times a day for a month on two platforms (8,400) takes 14.
pub const COARSE_JOB_RUNS: f64 = 120_000.0;

/// The coarse pass of `scenario`: [`COARSE_REPLICATIONS`], or fewer (at least
/// [`COARSE_REPLICATIONS_MIN`]) where its services' minutes or its jobs would make it slow;
/// never more than the run's replications.
pub fn coarse_replications(scenario: &Scenario) -> u32 {
    let platforms = scenario.platforms.len() as f64;
    let buckets = (scenario.horizon_days * 1_440.0).ceil().max(1.0)
        * scenario.services.len() as f64
        * platforms;
    let job_runs = scenario.simulated().expected_jobs() * platforms;
    let fit = [(buckets, COARSE_BUCKETS), (job_runs, COARSE_JOB_RUNS)]
        .into_iter()
        .filter(|(work, _)| *work > 0.0)
        .map(|(work, most)| (most / work).floor())
        .fold(f64::from(COARSE_REPLICATIONS), f64::min);
    let coarse = fit.clamp(
        f64::from(COARSE_REPLICATIONS_MIN),
        f64::from(COARSE_REPLICATIONS),
    ) as u32;
    coarse.min(scenario.replications.max(1))
}

/// Shortest time between two redraws of a run's interim results after its coarse pass, ms:
/// a long run redrawn at the frame rate kept the page's core busy beside the worker's (the
/// last answer is drawn at once).
pub const INTERIM_MS: f64 = 250.0;

/// Replications per tornado variant: coarse, so the tornado follows the inputs quickly.
pub const TORNADO_REPS: u32 = 12;
/// Each tornado input is moved by ± this many percent.
pub const TORNADO_PCT: f64 = 20.0;
/// Replications per option per point of a break-even search.
pub const BREAK_EVEN_REPS: u32 = 6;

/// Longest a slice on the page's main thread runs before yielding, milliseconds. The three
/// slice budgets differ for a reason each: the page's must leave most of a 16.7 ms frame to
/// input and drawing; a worker draws nothing, so its slices fill a frame and answer at the
/// frame rate ([`WORKER_SLICE_MS`]); a worker's sensitivity slices are short so that a newer
/// input's run, which replaces them, starts within a few milliseconds
/// ([`SENSITIVITY_SLICE_MS`]).
pub const PAGE_SLICE_MS: f64 = 12.0;
/// Longest a worker's slice of a run runs before it answers and yields, milliseconds.
pub const WORKER_SLICE_MS: f64 = 16.0;
/// Longest a worker's slice of a sensitivity pass runs, milliseconds.
pub const SENSITIVITY_SLICE_MS: f64 = 4.0;
/// A slice of the decision map, in its own worker: long enough that its answers (every cell so
/// far) come some 25 times a second, not hundreds; short enough that newer inputs stop it at
/// once.
pub const MAP_SLICE_MS: f64 = 40.0;

/// Milliseconds to wait for the workers to load before running on the main thread (a worker
/// that stays silent; one that fails to start falls back at once).
pub const WORKER_WATCHDOG_MS: f64 = 8_000.0;

/// A worker with unfinished work of an older run that has not answered for this long when a
/// newer input arrives, or has not read the newer run's start this long after it was sent, is
/// inside one long replication: it is terminated and replaced, since a message would only be
/// read after that replication. Healthy workers answer every slice (16 ms). (The second check
/// is put off while the page's own thread is busy: [`LATE_MS`].)
pub const STALLED_MS: f64 = 300.0;

/// How late a timer may run before the page counts its own thread as having been busy.
pub const LATE_MS: f64 = 50.0;

/// Times the check for a worker that has not read a run's start is put off because its timer
/// ran late (a busy page, or a hidden tab's throttled timers) before it is made anyway.
pub const LATE_CHECKS_MAX: u32 = 10;

/// Restarts of crashed workers allowed per run before the page gives up on it and says so.
pub const RESTARTS_PER_RUN: u32 = 2;

/// How long the inputs must stay unchanged after a run before its sensitivity pass starts:
/// while a slider is dragged each run is replaced before this, so the sensitivity pass never
/// competes with the headline runs for the cores.
pub const SENSITIVITY_SETTLE_MS: f64 = 250.0;

/// Most expected jobs per replication, summed over platforms, that the page simulates on its
/// main thread (no worker): each slice runs at least one whole replication, so a larger one
/// would freeze the page for a second or more.
pub const MAIN_THREAD_MAX_JOB_RUNS: f64 = 200_000.0;

/// Largest expected jobs per replication, summed over platforms, for which the page runs the
/// tornado and the break-evens: each of their steps is one whole replication on the main
/// thread, which must stay short.
pub const SENSITIVITY_MAX_JOB_RUNS: f64 = 60_000.0;

fn job_runs(s: &Scenario) -> f64 {
    s.expected_jobs() * s.platforms.len() as f64
}

/// Whether one replication of `s` is short enough for the main thread.
pub fn main_thread_fits(s: &Scenario) -> bool {
    job_runs(s) <= MAIN_THREAD_MAX_JOB_RUNS
}

/// Why `s` is not simulated on the main thread.
pub fn main_thread_refusal(s: &Scenario) -> String {
    format!(
        "about {} simulated jobs per replication (jobs × platforms) is more than the page's main \
         thread can simulate without freezing it ({}), and there is no background worker here. \
         Open the calculator directly (not in a sandboxed frame or from a single file) or use \
         the command-line tool.",
        crate::format::group_thousands(job_runs(s) as u64),
        crate::format::group_thousands(MAIN_THREAD_MAX_JOB_RUNS as u64)
    )
}

/// Whether the sensitivity pass fits the main thread for this scenario.
pub fn sensitivity_fits(s: &Scenario) -> bool {
    job_runs(s) <= SENSITIVITY_MAX_JOB_RUNS
}
