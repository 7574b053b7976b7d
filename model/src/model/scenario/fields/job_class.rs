//! Fields of a job class (paths relative to `job_classes.<i>`, and to a pipeline's `stages.<j>`).

use super::*;

/// A week of a leap year, in hours: the longest job duration (its median or mean).
const DURATION_MAX_H: f64 = 24.0 * 366.0;

fn median_hours(c: &JobClass) -> Option<f64> {
    match c.duration {
        Duration::LogNormal { median_hours, .. } => Some(median_hours),
        _ => None,
    }
}

/// Fields of a job class.
pub static JOB_CLASS_FIELDS: &[Field<JobClass>] = &[
    Field::<JobClass>::other("name", "Name", Value::Name { get: |c| &c.name }).doc("Name shown in the page."),
    Field::<JobClass>::other("team", "Team", Value::Id { get: |c| &c.team })
        .doc("The team its jobs belong to (empty: the default team), for quotas, priorities and each team's bill."),
    CLASS_ARRIVALS[0],
    CLASS_ARRIVALS[1],
    CLASS_ARRIVALS[2],
    CLASS_ARRIVALS[3],
    CLASS_ARRIVALS[4],
    CLASS_ARRIVALS[5],
    Field::<JobClass>::other("duration.kind", "Duration distribution", Value::Choice {
        choices: &[
            ("fixed", "Fixed"),
            ("log_normal", "Log-normal"),
            ("exponential", "Exponential"),
            ("empirical", "Empirical (quantiles from a job history)"),
        ],
        get: |c| match c.duration {
            Duration::Fixed { .. } => "fixed",
            Duration::LogNormal { .. } => "log_normal",
            Duration::Exponential { .. } => "exponential",
            Duration::Empirical { .. } => "empirical",
        },
        set: |_, _| {},
    })
    .doc("Run time on the reference GPU, with perfect scaling and no slowdown.")
    .control(Control::Elsewhere),
    Field::<JobClass>::number("duration.hours", "Duration", "h", (1.0 / 3600.0, DURATION_MAX_H),
        |c| match c.duration { Duration::Fixed { hours } => Some(hours), _ => None },
        |c, v| if let Duration::Fixed { hours } = &mut c.duration { *hours = v })
        .doc("Every job's run time on the reference GPU.").control(Control::Elsewhere),
    Field::<JobClass>::number("duration.median_hours", "Duration, median (on the reference GPU)", "h",
        (1.0 / 3600.0, DURATION_MAX_H), median_hours,
        |c, v| if let Duration::LogNormal { median_hours, .. } = &mut c.duration { *median_hours = v })
        .doc("Median run time on the reference GPU.").control(Control::Elsewhere),
    Field {
        min_from: Some(|c: &JobClass| median_hours(c).unwrap_or(0.0)),
        ..Field::<JobClass>::number("duration.p90_hours", "Duration, 90th percentile", "h",
            (1.0 / 3600.0, 10.0 * DURATION_MAX_H),
            |c| match c.duration { Duration::LogNormal { p90_hours, .. } => Some(p90_hours), _ => None },
            |c, v| if let Duration::LogNormal { p90_hours, .. } = &mut c.duration { *p90_hours = v })
    }
    .doc("90th percentile of the run time on the reference GPU (at least the median).")
    .control(Control::Elsewhere),
    Field::<JobClass>::number("duration.mean_hours", "Duration, mean", "h", (1.0 / 3600.0, DURATION_MAX_H),
        |c| match c.duration { Duration::Exponential { mean_hours } => Some(mean_hours), _ => None },
        |c, v| if let Duration::Exponential { mean_hours } = &mut c.duration { *mean_hours = v })
        .doc("Mean run time on the reference GPU (exponential, the M/M/c textbook case).")
        .control(Control::Elsewhere),
    Field {
        min: 1.0 / 3600.0,
        max: 10.0 * DURATION_MAX_H,
        ..Field::<JobClass>::other("duration.quantile_hours", "Duration quantiles", Value::Numbers {
            get: |c| match &c.duration { Duration::Empirical { quantile_hours, .. } => Some(quantile_hours.as_slice()), _ => None },
            series: Series::Quantiles,
        })
    }
    .doc("The run time's quantile function on the reference GPU: 2 to 257 ascending points, linear between them, at the probabilities below (equal steps from 0 to 1 when there are none).")
    .source("fitted from a job history")
    .control(Control::Elsewhere),
    Field {
        min: 0.0,
        max: 1.0,
        ..Field::<JobClass>::other("duration.probabilities", "Duration quantiles' probabilities", Value::Numbers {
            get: |c| match &c.duration { Duration::Empirical { probabilities, .. } if !probabilities.is_empty() => Some(probabilities.as_slice()), _ => None },
            series: Series::Probabilities,
        })
    }
    .doc("The probability of each quantile point: as many as points, ascending from 0 to 1.")
    .source("fitted from a job history")
    .control(Control::Elsewhere),
    num!(JobClass; "gpus_per_job", "GPUs per job", "", (0.001, limits::GPUS_PER_JOB_MAX as f64),
        |c| c.gpus_per_job, |c, v| c.gpus_per_job = v)
        .doc("GPUs per job: part of a node, a whole node or several whole nodes; below one, a fraction of a GPU (in steps of 0.001), shared with other jobs where the platform shares GPUs (MIG, time-slicing) and a whole GPU elsewhere."),
    num!(JobClass; "gpu_memory_gb", "GPU memory per GPU", "GB", (0.0, 1_024.0),
        |c| c.gpu_memory_gb, |c, v| c.gpu_memory_gb = v)
        .doc("GPU memory the job needs on each GPU."),
    num!(JobClass; "failures.probability", "Failure probability", "0–1", (0.0, 1.0),
        |c| c.failures.probability, |c, v| c.failures.probability = v)
        .doc("Transient: probability that an attempt fails. Deterministic: probability that a job is broken."),
    Field::<JobClass>::other("failures.kind", "Failure kind", Value::Choice {
        choices: &[
            ("transient", "Transient (a retry may succeed)"),
            ("deterministic", "Deterministic (every retry fails)"),
        ],
        get: |c| match c.failures.kind {
            FailureKind::Transient => "transient",
            FailureKind::Deterministic => "deterministic",
        },
        set: |c, v| match v {
            "transient" => c.failures.kind = FailureKind::Transient,
            "deterministic" => c.failures.kind = FailureKind::Deterministic,
            _ => {}
        },
    })
    .doc("Whether a failed attempt can succeed when retried.")
    .source("seed 000: dependency conflicts fail every retry"),
    num!(JobClass; "failures.max_retries", "Retries", "", (0.0, 100.0),
        |c| c.failures.max_retries, |c, v| c.failures.max_retries = v.round() as u32)
        .doc("Retries after the first attempt before the job is given up."),
    Field {
        control: Control::Own,
        ..Field::<JobClass>::number("failures.at_share", "Where in the run it fails", "0–1", (0.0, 1.0),
            |c| c.failures.at_share, |c, v| c.failures.at_share = Some(v))
    }
    .doc("Where in its run a failing attempt fails, as a share of its compute; left out: anywhere."),
    num!(JobClass; "failures.backoff_s", "Retry backoff", "s", (0.0, 86_400.0),
        |c| c.failures.backoff_s, |c, v| c.failures.backoff_s = v)
        .doc("Delay before the first retry, counted from the failure; 0 = queued again at once. Queueing after the delay counts as queue wait."),
    num!(JobClass; "failures.backoff_multiplier", "Backoff multiplier", "×", (1.0, 10.0),
        |c| c.failures.backoff_multiplier, |c, v| c.failures.backoff_multiplier = v)
        .doc("Each retry waits this many times longer than the one before.")
        .source("Step Functions BackoffRate and the Kubernetes Job controller: 2"),
    num!(JobClass; "failures.backoff_max_s", "Longest backoff", "s", (0.0, 7.0 * 86_400.0),
        |c| c.failures.backoff_max_s, |c, v| c.failures.backoff_max_s = v)
    .doc("The longest delay before a retry; a longer one, the first included, waits this long.")
    .source("Kubernetes Job controller: back-off capped at six minutes (kubernetes.io, Jobs, 2026)"),
    num!(JobClass; "data_read_gb_per_attempt", "Data read per attempt", "GB", (0.0, 1e7),
        |c| c.data_read_gb_per_attempt, |c, v| c.data_read_gb_per_attempt = v)
        .doc("Training data read by each attempt."),
    num!(JobClass; "data_read_billed_share", "Share of data read that is billed", "0–1", (0.0, 1.0),
        |c| c.data_read_billed_share, |c, v| c.data_read_billed_share = v)
        .doc("Share of the data read that crosses a billed boundary.")
        .source("assumption: 0, same-region object-store reads are free"),
    num!(JobClass; "egress_gb_per_job", "Egress per finished job", "GB", (0.0, 1e7),
        |c| c.egress_gb_per_job, |c, v| c.egress_gb_per_job = v)
        .slider(0.0, 2_000.0, 1.0)
        .doc("Data each finished job sends out of the cloud (results, exports)."),
    num!(JobClass; "image_gb", "Container image", "GB", (0.0, 1_000.0),
        |c| c.image_gb, |c, v| c.image_gb = v)
        .slider(0.0, 60.0, 0.5)
        .doc("Container image size."),
    Field {
        off_or_at_least: Some(1.0 / 60.0),
        ..num!(JobClass; "checkpoint_interval_min", "Checkpoint interval", "min", (0.0, 1e5),
            |c| c.checkpoint_interval_min, |c, v| c.checkpoint_interval_min = v)
    }
    .slider(0.0, 240.0, 1.0)
    .doc("Compute time between checkpoints; 0 = no checkpoints."),
    num!(JobClass; "checkpoint_write_s", "Checkpoint write time", "s", (0.0, 86_400.0),
        |c| c.checkpoint_write_s, |c, v| c.checkpoint_write_s = v)
        .doc("Time to write one checkpoint."),
    num!(JobClass; "restart_overhead_s", "Restart overhead", "s", (0.0, 86_400.0),
        |c| c.restart_overhead_s, |c, v| c.restart_overhead_s = v)
        .doc("The job's own restart time after an interruption or failure.")
        .source("seed 000 quotes 45 minutes"),
    num!(JobClass; "people_blocked_per_job", "People waiting per job", "", (0.0, 10_000.0),
        |c| c.people_blocked_per_job, |c, v| c.people_blocked_per_job = v)
        .doc("How many people wait for a job's result: its queue wait costs each of them the cost of a person waiting (when that is on)."),
];
