//! Limits that bound the work of one run and the size of what a user brings (documented in
//! the method panel and the README): a scenario, a link, a job history.

/// Longest horizon, days.
pub const HORIZON_DAYS_MAX: f64 = 366.0;
/// Longest warm-up before the measured window, days.
pub const WARMUP_DAYS_MAX: f64 = 90.0;
/// The default warm-up's bounds, days ([`super::Scenario::default_warmup_days`]): at least a
/// day, and at most two weeks (a run of a 30-day window costs at most about half again as
/// much; a workload of longer runs may set more).
pub const WARMUP_DEFAULT_DAYS_MIN: f64 = 1.0;
/// See [`WARMUP_DEFAULT_DAYS_MIN`].
pub const WARMUP_DEFAULT_DAYS_MAX: f64 = 14.0;
/// Most Monte Carlo replications.
pub const REPLICATIONS_MAX: u32 = 10_000;
/// Most job classes.
pub const JOB_CLASSES_MAX: usize = 16;
/// Most services.
pub const SERVICES_MAX: usize = 32;
/// Fewest and most platforms compared side by side.
pub const PLATFORMS_MIN: usize = 1;
/// See [`PLATFORMS_MIN`].
pub const PLATFORMS_MAX: usize = 6;
/// Most expected jobs per replication (sum over classes).
pub const JOBS_PER_REPLICATION_MAX: f64 = 2_000_000.0;
/// Most nodes one platform may run at once.
pub const MAX_NODES: u32 = 10_000;
/// Most GPUs per job.
pub const GPUS_PER_JOB_MAX: u32 = 4_096;
/// Most points in an empirical duration's quantile table (256 steps of probability).
pub const QUANTILE_POINTS_MAX: usize = 257;
/// Most jobs (allocations) a job history may hold; a longer one is refused.
pub const HISTORY_JOBS_MAX: usize = 1_000_000;
/// Most minutes a replayed request trace holds: a day (its minutes go into a link). A longer
/// trace is fitted instead.
pub const REPLAY_MINUTES_MAX: usize = 1_440;
/// Most requests a request trace may hold; a longer one is refused.
pub const TRACE_REQUESTS_MAX: usize = 20_000_000;
/// Largest job history the page reads, bytes (the command line has no byte limit, only
/// the job limit).
pub const HISTORY_BYTES_MAX_PAGE: usize = 256 * 1024 * 1024;
/// Most simulation events (job arrivals, node and attempt events) one platform may handle
/// in one replication; a replication that needs more is stopped and reported, never
/// summarised. The largest valid workload (2 million jobs) needs about 4.5 million without
/// failures or interruptions; the rest is headroom for retries and restarts. Reaching it
/// takes seconds to minutes (a 10,000-node spot cluster at 10 interruptions per node-hour,
/// the worst case: about 70 s natively).
pub const EVENTS_PER_REPLICATION_MAX: u64 = 30_000_000;
/// Most simulation events in one run, over all replications and platforms: a run that
/// reaches it stops after the replication that did, and says how many it summarises
/// (about five minutes of simulation in a browser).
pub const EVENTS_PER_RUN_MAX: u64 = 2_000_000_000;
