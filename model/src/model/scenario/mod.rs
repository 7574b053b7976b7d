//! The scenario: everything the simulation reads, in the units of the design's MODEL.md.
//!
//! A scenario is plain data (serde), validated by [`Scenario::validate`] before any run; every
//! field has a default so a partial JSON document is a valid starting point. Prices are copied
//! into each platform, so a saved scenario keeps its numbers when the catalog is re-dated.

pub mod class_notices;
pub mod commitment;
mod discounts;
pub mod fields;
mod profile;
mod replay;
mod validate;

pub use crate::model::cloud::Cloud;
pub use discounts::Discounts;
pub use profile::{Profile, ProfileName, Scheduler};
pub use validate::ValidScenario;

use super::error::ScenarioError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Seconds per hour.
pub const HOUR_S: f64 = 3600.0;
/// Seconds per day.
pub const DAY_S: f64 = 86_400.0;

pub mod gpu_sharing;
pub mod hosted_api;
mod hosted_api_checks;
pub mod limits;
pub mod node_pool;
pub mod pipeline;
mod service;
pub mod teams;
mod verdict_settings;
pub use gpu_sharing::GpuSharing;
pub use hosted_api::{ApiBilling, HostedApi, Provisioned};
pub use node_pool::{NodePool, PoolNeed};
pub use pipeline::{Pipeline, PipelineGraph};
pub use service::{Llm, Service, ServiceSpikes, ServiceTraffic, Serving, Tokens, TrafficReplay};
pub use teams::{Preemption, SharedCosts, Showback, TeamPolicy};
pub use verdict_settings::{VerdictSettings, SLO_ALLOWANCE_PCT_DEFAULT};

/// The whole input of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// The measured window, days (default 30): every cost, count and wait is of this window.
    pub horizon_days: f64,
    /// Simulated time before the measured window, days (absent: 0, none): the cluster fills
    /// with the work under way in any month but the first, and nothing of this time is
    /// measured.
    #[serde(skip_serializing_if = "is_zero")]
    pub warmup_days: f64,
    /// Monte Carlo replications (default 200).
    pub replications: u32,
    /// Seed of every random stream.
    pub seed: u64,
    /// Size of the cluster the team would otherwise reserve, in reference GPUs. Utilization (the
    /// input) and reserved share are relative to it.
    pub reference_gpus: u32,
    /// GPU model that job durations are measured on (relative throughput 1.0).
    pub reference_gpu: String,
    /// The workload.
    pub job_classes: Vec<JobClass>,
    /// The platforms compared, 1 to 6, with unique names.
    pub platforms: Vec<Platform>,
    /// Negotiated discounts on list prices, per cloud.
    pub discounts: Discounts,
    /// Loaded cost of the people who run the platforms.
    pub people: People,
    /// Recorded jobs to replay instead of the classes' random arrivals and durations (from a
    /// job history: `gpucost history --replay`); absent in every preset and link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replay>,
    /// Inference services, beside the job classes (absent: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<Service>,
    /// How each team's bill shares the platform's common costs (absent: kept apart).
    #[serde(skip_serializing_if = "Showback::is_default")]
    pub showback: Showback,
    /// Which platform the payback view compares the others with (absent: the first).
    #[serde(skip_serializing_if = "is_default")]
    pub payback: PaybackSettings,
    /// Pipelines: DAGs of stages, each run submitting a stage when the stages it comes after
    /// have finished (absent: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pipelines: Vec<Pipeline>,
    /// The catalog region the job classes' data is kept in (absent: none; each class's
    /// `data_read_billed_share` says what its reads pay). With it and a platform's `region`,
    /// reads pay the transfer between them ([`crate::model::transfer`]) instead.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub data_region: String,
    /// How the verdict judges the platforms beyond cost: the services' SLO-violation
    /// allowance (absent: the default).
    #[serde(skip_serializing_if = "is_default")]
    pub verdict: VerdictSettings,
    /// Where the pipelines' stages begin among `job_classes` in the scenario the simulation
    /// runs ([`Scenario::simulated`]); `None` in every scenario a user writes.
    #[serde(skip)]
    pub stage_classes_from: Option<usize>,
}

/// Jobs as a history recorded them, replayed on every platform: each arrives when it did
/// (shifted so the first is at 0), runs its recorded time on the reference GPU with its
/// class's GPUs, and ends as it did. Only what a platform adds varies between replications.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Replay {
    /// The jobs, in arrival order.
    pub jobs: Vec<ReplayJob>,
    /// The jobs' content key ([`Replay::key_of`]): the page keeps them in the browser under
    /// it, and a link names it. Empty when not computed.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
}

/// One recorded job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReplayJob {
    /// Arrival, seconds from the start of the horizon.
    pub arrival_s: i64,
    /// Index of its job class (which gives its GPUs and everything a history does not record).
    pub class: u32,
    /// Recorded run time on the reference GPU, seconds.
    pub run_s: f64,
    /// It failed in the history: its run ends in a failure, with no retry (the history's
    /// own retries are jobs of their own).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            horizon_days: 30.0,
            warmup_days: 0.0,
            replications: 200,
            seed: 1,
            reference_gpus: 16,
            reference_gpu: "A100".to_string(),
            job_classes: vec![JobClass::default()],
            platforms: vec![Platform::default()],
            discounts: Discounts::default(),
            people: People::default(),
            replay: None,
            services: Vec::new(),
            showback: Showback::default(),
            payback: PaybackSettings::default(),
            pipelines: Vec::new(),
            data_region: String::new(),
            verdict: VerdictSettings::default(),
            stage_classes_from: None,
        }
    }
}

/// People cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct People {
    /// Loaded annual cost of one full-time engineer, USD per year.
    /// Default $200,000: assumption (salary plus overhead for a US platform engineer).
    pub fte_cost_usd_per_year: f64,
    /// What an hour of a person waiting for a job's result costs, USD (0: the price of
    /// waiting is off). An estimate of opportunity cost, reported beside the TCO and never
    /// in it.
    #[serde(skip_serializing_if = "is_zero")]
    pub waiting_usd_per_hour: f64,
}

impl Default for People {
    fn default() -> Self {
        People {
            fte_cost_usd_per_year: 200_000.0,
            waiting_usd_per_hour: 0.0,
        }
    }
}

/// How jobs of a class arrive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Arrivals {
    /// Evenly spaced, `per_day` a day (e.g. nightly retrains), the first at time 0.
    Steady {
        /// Jobs per day.
        per_day: f64,
    },
    /// A Poisson process with `per_day` jobs a day on average.
    Poisson {
        /// Mean jobs per day.
        per_day: f64,
    },
    /// Bursts arriving as a Poisson process; each burst submits `jobs_per_burst` jobs at once.
    Bursts {
        /// Mean bursts per day.
        bursts_per_day: f64,
        /// Jobs in each burst.
        jobs_per_burst: u32,
    },
    /// A Poisson process whose rate follows the hour of day and, optionally, the day of the
    /// week (as fitted from a job history): `per_day` jobs a day on average over a week, hour
    /// `h` (0–23, from the start of the horizon) getting the share
    /// `hourly_weights[h] / Σ hourly_weights` of a day's jobs, and day `d` of the horizon
    /// `weekday_weights[d mod 7] / mean(weekday_weights)` times the average day's. The horizon
    /// starts on a Monday at 00:00 of the history's clock.
    HourOfDay {
        /// Mean jobs per day (over a week).
        per_day: f64,
        /// 24 non-negative weights, one per hour of the day; only their ratios matter.
        hourly_weights: Vec<f64>,
        /// 7 non-negative weights, Monday first; only their ratios matter. Absent: every day
        /// of the week alike.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weekday_weights: Option<Vec<f64>>,
    },
}

impl Arrivals {
    /// Mean jobs per day.
    pub fn jobs_per_day(&self) -> f64 {
        match self {
            Arrivals::Steady { per_day }
            | Arrivals::Poisson { per_day }
            | Arrivals::HourOfDay { per_day, .. } => *per_day,
            Arrivals::Bursts {
                bursts_per_day,
                jobs_per_burst,
            } => bursts_per_day * f64::from(*jobs_per_burst),
        }
    }

    /// The same pattern with its rate multiplied by `factor`.
    pub fn scaled(&self, factor: f64) -> Arrivals {
        match self {
            Arrivals::Steady { per_day } => Arrivals::Steady {
                per_day: per_day * factor,
            },
            Arrivals::Poisson { per_day } => Arrivals::Poisson {
                per_day: per_day * factor,
            },
            Arrivals::Bursts {
                bursts_per_day,
                jobs_per_burst,
            } => Arrivals::Bursts {
                bursts_per_day: bursts_per_day * factor,
                jobs_per_burst: *jobs_per_burst,
            },
            Arrivals::HourOfDay {
                per_day,
                hourly_weights,
                weekday_weights,
            } => Arrivals::HourOfDay {
                per_day: per_day * factor,
                hourly_weights: hourly_weights.clone(),
                weekday_weights: weekday_weights.clone(),
            },
        }
    }
}

/// Run time of a job on the reference GPU, with perfect scaling and no slowdown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Duration {
    /// Always the same, hours.
    Fixed {
        /// Hours.
        hours: f64,
    },
    /// Log-normal given by its median and 90th percentile, hours.
    LogNormal {
        /// Median, hours.
        median_hours: f64,
        /// 90th percentile, hours (≥ median).
        p90_hours: f64,
    },
    /// Exponential with this mean, hours (the M/M/c textbook case).
    Exponential {
        /// Mean, hours.
        mean_hours: f64,
    },
    /// An empirical distribution (from a job history): its quantile function through these
    /// points, linear between them, hours; at the probabilities given, or at equal steps
    /// (0, 1/n, …, 1) when none are.
    Empirical {
        /// n + 1 durations in ascending order, hours.
        quantile_hours: Vec<f64>,
        /// The probability of each point, ascending from 0 to 1; empty for equal steps.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        probabilities: Vec<f64>,
    },
}

impl Duration {
    /// Mean duration, hours.
    pub fn mean_hours(&self) -> f64 {
        match self {
            Duration::Fixed { hours } => *hours,
            Duration::LogNormal {
                median_hours,
                p90_hours,
            } => super::rng::lognormal_mean(*median_hours, *p90_hours),
            Duration::Exponential { mean_hours } => *mean_hours,
            Duration::Empirical {
                quantile_hours,
                probabilities,
            } => empirical_mean(quantile_hours, probabilities),
        }
    }

    /// The duration at probability `p` (0–1), hours: exact for each distribution.
    pub fn quantile_hours(&self, p: f64) -> f64 {
        let p = p.clamp(0.0, 1.0);
        match self {
            Duration::Fixed { hours } => *hours,
            Duration::LogNormal {
                median_hours,
                p90_hours,
            } => {
                let sigma = super::rng::lognormal_sigma(*median_hours, *p90_hours);
                median_hours * libm::exp(sigma * super::stats::normal_quantile(p))
            }
            Duration::Exponential { mean_hours } => -mean_hours * libm::log(1.0 - p),
            Duration::Empirical {
                quantile_hours,
                probabilities,
            } => empirical_quantile(quantile_hours, probabilities, p),
        }
    }
}

/// The mean of a piecewise-linear quantile function through `points` at `probabilities`
/// (equal steps when empty): each step's midpoint, weighted by its probability.
pub fn empirical_mean(points: &[f64], probabilities: &[f64]) -> f64 {
    if points.len() < 2 {
        return points.first().copied().unwrap_or(0.0);
    }
    if probabilities.len() != points.len() {
        let steps = (points.len() - 1) as f64;
        return points.windows(2).map(|w| (w[0] + w[1]) / 2.0).sum::<f64>() / steps;
    }
    points
        .windows(2)
        .zip(probabilities.windows(2))
        .map(|(x, p)| (x[0] + x[1]) / 2.0 * (p[1] - p[0]))
        .sum()
}

/// The piecewise-linear quantile function through `points` at `probabilities` (equal steps
/// when empty), at probability `p` in [0, 1]: the inverse CDF the simulation samples.
pub fn empirical_quantile(points: &[f64], probabilities: &[f64], p: f64) -> f64 {
    match points {
        [] => 0.0,
        [only] => *only,
        _ if probabilities.len() == points.len() => {
            // The step holding p: the last point at or below it (p = 1 is the last point).
            let k = probabilities
                .partition_point(|&q| q <= p)
                .clamp(1, points.len() - 1)
                - 1;
            let width = probabilities[k + 1] - probabilities[k];
            let frac = if width > 0.0 {
                ((p - probabilities[k]) / width).clamp(0.0, 1.0)
            } else {
                1.0
            };
            points[k] + frac * (points[k + 1] - points[k])
        }
        _ => {
            let steps = points.len() - 1;
            let x = p * steps as f64;
            // p < 1 gives a step below `steps`; p = 1 is the last point.
            let k = (x as usize).min(steps - 1);
            let frac = x - k as f64;
            points[k] + frac * (points[k + 1] - points[k])
        }
    }
}

/// Whether a failed attempt can succeed when retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// Each attempt fails independently with the class's probability (node faults, OOM spikes).
    Transient,
    /// A failing job fails every attempt at the same point (seed 000's dependency conflicts).
    Deterministic,
}

/// Job failures of a class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Failures {
    /// Transient: probability that an attempt fails. Deterministic: probability that a job is
    /// broken (then every attempt fails).
    pub probability: f64,
    /// Transient or deterministic.
    pub kind: FailureKind,
    /// Retries after the first attempt before the job is given up.
    pub max_retries: u32,
    /// Where in its run a failing attempt fails: after this share (0–1) of the job's compute
    /// (0 at the start, as a bad dependency or setting does; 1 at the very end; a transient
    /// failure takes it of the work left when the attempt starts). Left out: anywhere,
    /// uniformly (a transient failure at a fresh point each attempt, a broken job at a point
    /// of its own, the same on every attempt).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_share: Option<f64>,
    /// Delay before the first retry, s, counted from the failure (0: a failed attempt is
    /// queued again at once). Each later retry waits `backoff_multiplier` times longer, up to
    /// `backoff_max_s`; queueing after the delay counts as queue wait.
    #[serde(skip_serializing_if = "is_zero")]
    pub backoff_s: f64,
    /// What each retry's delay is multiplied by for the next (default 2, as Step Functions'
    /// `BackoffRate` and the Kubernetes Job controller).
    #[serde(skip_serializing_if = "is_default_backoff_multiplier")]
    pub backoff_multiplier: f64,
    /// Longest delay before a retry, s (default 360: the Kubernetes Job controller's cap of
    /// six minutes).
    #[serde(skip_serializing_if = "is_default_backoff_max")]
    pub backoff_max_s: f64,
}

/// Default of [`Failures::backoff_multiplier`].
pub const BACKOFF_MULTIPLIER_DEFAULT: f64 = 2.0;
/// Default of [`Failures::backoff_max_s`].
pub const BACKOFF_MAX_S_DEFAULT: f64 = 360.0;

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

fn is_default_backoff_multiplier(x: &f64) -> bool {
    *x == BACKOFF_MULTIPLIER_DEFAULT
}

fn is_default_backoff_max(x: &f64) -> bool {
    *x == BACKOFF_MAX_S_DEFAULT
}

impl Default for Failures {
    fn default() -> Self {
        Failures {
            probability: 0.0,
            kind: FailureKind::Transient,
            max_retries: 2,
            at_share: None,
            backoff_s: 0.0,
            backoff_multiplier: BACKOFF_MULTIPLIER_DEFAULT,
            backoff_max_s: BACKOFF_MAX_S_DEFAULT,
        }
    }
}

impl Failures {
    /// The delay before the retry that follows the `failed`-th failed attempt (1 for the
    /// first), s: `backoff_s × backoff_multiplier^(failed − 1)`, at most `backoff_max_s`.
    pub fn backoff_after(&self, failed: u32) -> f64 {
        if self.backoff_s <= 0.0 {
            return 0.0;
        }
        let steps = failed.saturating_sub(1).min(1_000) as i32;
        (self.backoff_s * libm::pow(self.backoff_multiplier, f64::from(steps)))
            .min(self.backoff_max_s.max(0.0))
    }
}

/// A class of jobs with the same shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct JobClass {
    /// Name shown in the UI.
    pub name: String,
    /// Arrival pattern.
    pub arrivals: Arrivals,
    /// Run time on the reference GPU.
    pub duration: Duration,
    /// GPUs per job: part of a node, a whole node or several whole nodes; or a fraction of
    /// one GPU below one (held as whole milli-GPUs), shared with other jobs where the
    /// platform shares GPUs (MIG, time-slicing), else holding a whole GPU. Written as an
    /// integer when whole.
    #[serde(serialize_with = "whole_or_fraction")]
    pub gpus_per_job: f64,
    /// GPU memory needed per GPU, GB.
    pub gpu_memory_gb: f64,
    /// Failures.
    pub failures: Failures,
    /// Data read per attempt, GB.
    pub data_read_gb_per_attempt: f64,
    /// Share (0–1) of the data read that crosses a billed boundary (default 0: same-region
    /// object-store reads are free).
    pub data_read_billed_share: f64,
    /// Data each finished job sends out of the cloud (results, exports), GB.
    pub egress_gb_per_job: f64,
    /// Container image size, GB.
    pub image_gb: f64,
    /// Compute time between checkpoints, minutes; 0 = no checkpoints (an interrupted attempt
    /// restarts from the beginning).
    pub checkpoint_interval_min: f64,
    /// Time to write one checkpoint, seconds.
    pub checkpoint_write_s: f64,
    /// The job's own restart time after an interruption or failure (reload checkpoint,
    /// re-initialise), seconds. Seed 000 quotes 45 minutes.
    pub restart_overhead_s: f64,
    /// The team its jobs belong to ("": the default team), for quotas, priorities and each
    /// team's bill.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub team: String,
    /// How many people wait for a job's result (default 1): its queue wait costs each of
    /// them `people.waiting_usd_per_hour`.
    #[serde(skip_serializing_if = "is_one")]
    pub people_blocked_per_job: f64,
    /// In a pipeline's stage: the stages it comes after (by name); empty in a job class.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
}

fn is_one(x: &f64) -> bool {
    *x == 1.0
}

/// `x` as an integer when it is one (a count of GPUs), else as it is.
fn whole_or_fraction<S: serde::Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if x.fract() == 0.0 && *x >= 0.0 && *x <= u32::MAX as f64 {
        serializer.serialize_u32(*x as u32)
    } else {
        serializer.serialize_f64(*x)
    }
}

impl Default for JobClass {
    fn default() -> Self {
        JobClass {
            name: "Training".to_string(),
            arrivals: Arrivals::Poisson { per_day: 12.0 },
            duration: Duration::LogNormal {
                median_hours: 4.0,
                p90_hours: 12.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 30.0,
            failures: Failures::default(),
            data_read_gb_per_attempt: 200.0,
            data_read_billed_share: 0.0,
            egress_gb_per_job: 5.0,
            image_gb: 15.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            restart_overhead_s: 300.0,
            team: String::new(),
            people_blocked_per_job: 1.0,
            after: Vec::new(),
        }
    }
}

impl JobClass {
    /// Offered load of this class in reference-GPU-hours per day.
    pub fn reference_gpu_hours_per_day(&self) -> f64 {
        self.arrivals.jobs_per_day() * self.duration.mean_hours() * self.gpus_per_job
    }

    /// GPUs a job asks for, in milli-GPUs.
    pub fn gpu_milli(&self) -> u32 {
        gpu_sharing::milli_gpus(self.gpus_per_job)
    }

    /// Whether a job stopped with `notice_s` seconds' warning (a spot notice, a grace period)
    /// writes a checkpoint in them and so keeps its work.
    pub fn checkpoints_within(&self, notice_s: f64) -> bool {
        self.checkpoint_interval_min > 0.0 && notice_s >= self.checkpoint_write_s
    }

    /// Whether a job asks for a fraction of one GPU.
    pub fn is_fractional(&self) -> bool {
        self.gpu_milli() < gpu_sharing::MILLI
    }

    /// GPUs a job holds on a node of `pool` of `platform` it shares with other jobs: its
    /// GPUs; a fraction holds its share where the pool shares GPUs, else a whole GPU.
    pub fn gpus_held_on(&self, platform: &Platform, pool: &NodePool) -> f64 {
        if !self.is_fractional() {
            self.gpus_per_job
        } else if !platform.jobs_share_gpus_on(pool) {
            1.0
        } else {
            f64::from(self.gpu_milli().max(1)) / f64::from(gpu_sharing::MILLI)
        }
    }

    /// Whole GPUs a job holds where it does not share them: its GPUs, or one for a fraction.
    pub fn whole_gpus(&self) -> u32 {
        gpu_sharing::whole_gpus(self.gpus_per_job)
    }
}

/// How jobs are placed on nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Fill the fullest node that fits first (Karpenter, Slurm, AWS Batch).
    BinPack,
    /// One job per node while nodes can be added (seed 001: six 1-GPU jobs on six 8-GPU
    /// nodes); packs only when the node limit is reached.
    Spread,
    /// Every job gets whole nodes of its own, never shared (SageMaker training jobs).
    Exclusive,
}

/// What capacity beyond the reserved base is bought as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Overflow {
    /// On-demand nodes.
    OnDemand,
    /// Spot nodes (interrupted at the platform's rate).
    Spot,
    /// No overflow: only the reserved nodes exist (a static cluster).
    None,
}

/// Purchase mix of a platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Purchase {
    /// Reserved GPUs ÷ `reference_gpus` (0–1), rounded up to whole nodes; reserved nodes are
    /// billed for the whole horizon.
    pub reserved_share: f64,
    /// % off on-demand for reserved capacity (1-year commitment). Default 37 %: GCP 1-year
    /// resource CUD for A2/G2 (reference data, Cloud Billing Catalog 2026-07-30); AWS Savings
    /// Plans quote "up to 66–72 %" without GPU-specific rates.
    pub reserved_discount_pct: f64,
    /// What runs beyond the reserved base.
    pub overflow: Overflow,
    /// The reservation's commitment term, years: 1 or 3 (default 1). A term that ends inside
    /// the payback view's 36 months is renewed on the same terms.
    #[serde(skip_serializing_if = "is_one_year")]
    pub term_years: u32,
    /// How the commitment is paid (default: monthly, no upfront). The monthly TCO is the same
    /// either way (the upfront amortised over the term); the payback view follows the cash.
    #[serde(skip_serializing_if = "is_default")]
    pub payment: commitment::Payment,
    /// What the reservation is bought as (default: a resource commitment, an AWS Reserved
    /// Instance or a GCP resource-based CUD).
    #[serde(skip_serializing_if = "is_default")]
    pub commitment: commitment::Commitment,
}

fn is_one_year(years: &u32) -> bool {
    *years == 1
}

fn is_default<T: Default + PartialEq>(x: &T) -> bool {
    *x == T::default()
}

impl Default for Purchase {
    fn default() -> Self {
        Purchase {
            reserved_share: 0.0,
            reserved_discount_pct: 37.0,
            overflow: Overflow::OnDemand,
            term_years: 1,
            payment: commitment::Payment::NoUpfront,
            commitment: commitment::Commitment::Resource,
        }
    }
}

/// Billing rounding of node time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Billing {
    /// Node time is rounded up to a multiple of this, seconds (EC2 and Compute Engine: 1).
    pub granularity_s: u32,
    /// Shortest billed node time, seconds (EC2 and Compute Engine: 60).
    pub minimum_s: u32,
}

impl Default for Billing {
    fn default() -> Self {
        Billing {
            granularity_s: 1,
            minimum_s: 60,
        }
    }
}

/// One option compared: an orchestrator profile on one or more node pools, every field
/// overridable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Platform {
    /// Unique name, shown in the UI and used as the key in the CLI output.
    pub name: String,
    /// The profile its defaults came from (see `platforms`), e.g. `eks`.
    pub profile: ProfileName,
    /// Cloud (selects the negotiated discount).
    pub cloud: Cloud,
    /// Its node pools, 1 to 4, with unique names: instance type, prices, purchase mix and
    /// node limit of each ([`NodePool`]).
    pub node_pools: Vec<NodePool>,
    /// Job class or service name → the name of the pool it runs on. A class not listed runs
    /// on the cheapest pool that fits it ([`Platform::cheapest_pool`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub class_pools: BTreeMap<String, String>,
    /// Job class name (a pipeline stage's `pipeline/stage`) → its checkpoint interval on this
    /// platform, minutes; a class not listed checkpoints at its own `checkpoint_interval_min`.
    /// Interruptions differ by platform, so the best interval does too (the tuner sets it).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub checkpoint_interval_min: BTreeMap<String, f64>,
    /// Service name → how this platform's autoscaler runs it, where it differs from the
    /// service's own settings (the tuner sets them: the best target differs by platform, as
    /// scale-up delays and prices do).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub service_settings: BTreeMap<String, ServiceSettings>,
    /// Control-plane or management fee, USD per cluster-hour.
    pub fee_usd_per_cluster_hour: f64,
    /// Tooling and add-ons, USD per month.
    pub tooling_usd_per_month: f64,
    /// Spot interruption notice, seconds (AWS 120, GCP 30).
    pub spot_notice_s: f64,
    /// Median node provisioning time (request to ready), seconds.
    pub provisioning_median_s: f64,
    /// 90th percentile of node provisioning time, seconds.
    pub provisioning_p90_s: f64,
    /// Mean wait for capacity before provisioning starts (GPUs scarce), seconds; not billed.
    pub capacity_wait_mean_s: f64,
    /// Image pull throughput, GB per second.
    pub image_pull_gb_per_s: f64,
    /// Billing rounding.
    pub billing: Billing,
    /// Job placement.
    pub placement: Placement,
    /// Multi-node jobs start only when all their nodes are ready.
    pub gang_scheduling: bool,
    /// Slowdown of compute from reading training data from storage, % (seed 002: direct
    /// object-store reads +12 %, a parallel file system +1 %).
    pub storage_read_slowdown_pct: f64,
    /// Efficiency of multi-node jobs (0–1): 0.9 means 10 % of their GPU time is scaling loss.
    /// With an [`Interconnect`](crate::model::scaling::Interconnect) other than `fixed`, the
    /// curve in the node count replaces it.
    pub multi_node_efficiency: f64,
    /// The network between nodes, for the scaling-efficiency curve: `fixed` (absent) keeps
    /// `multi_node_efficiency` for every multi-node job.
    #[serde(skip_serializing_if = "crate::model::scaling::Interconnect::is_fixed")]
    pub interconnect: crate::model::scaling::Interconnect,
    /// A multi-node job's nodes are placed together (an EC2 cluster placement group, GKE
    /// compact placement, SageMaker's own); only the curve uses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub compact_placement: bool,
    /// Egress price, USD per GB (with published tiers, the first tier's price, per GiB on
    /// Google Cloud's).
    pub egress_usd_per_gb: f64,
    /// How egress is priced: flat (absent), or by the cloud's published volume tiers.
    #[serde(skip_serializing_if = "crate::model::egress::EgressTiers::is_flat")]
    pub egress_tiers: crate::model::egress::EgressTiers,
    /// Free egress, GB per month.
    pub egress_free_gb_per_month: f64,
    /// The catalog region its nodes run in (absent: none). With the scenario's
    /// `data_region`, its data reads pay the transfer between them.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub region: String,
    /// How its nodes reach the data: a private endpoint (absent) or a NAT gateway.
    #[serde(skip_serializing_if = "crate::model::transfer::DataPath::is_default")]
    pub data_path: crate::model::transfer::DataPath,
    /// Where its jobs stage their data from before computing (absent: nowhere, reads take
    /// no time), and the file system that costs.
    #[serde(skip_serializing_if = "crate::model::storage::DataStaging::is_default")]
    pub staging: crate::model::storage::DataStaging,
    /// Dataset and checkpoint storage, GB.
    pub storage_gb: f64,
    /// Storage price, USD per GB-month.
    pub storage_usd_per_gb_month: f64,
    /// Share of one full-time engineer that runs this platform.
    pub ops_fte: f64,
    /// How the platform serves services (absent: the defaults of [`Serving`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serving: Option<Serving>,
    /// Each team's quota, borrowing limit and priority here ([`TeamPolicy`]); a team not
    /// listed has no quota and priority 0.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<TeamPolicy>,
    /// When a waiting job may evict running ones (absent: never).
    #[serde(skip_serializing_if = "Preemption::is_default")]
    pub preemption: Preemption,
    /// What moving to this platform costs once (absent: nothing), paid at month 0 of the
    /// payback view and never in the monthly TCO.
    #[serde(skip_serializing_if = "is_default")]
    pub one_off: OneOff,
    /// What the workflow engine that runs pipelines charges (absent: nothing, as Argo
    /// Workflows on the cluster, whose people are the platform's ops).
    #[serde(skip_serializing_if = "is_default")]
    pub orchestration: Orchestration,
    /// A hosted LLM API in place of nodes (profile `hosted_api`, with no node pools): its
    /// prices, rate limit and stated latency (absent: a platform of nodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosted_api: Option<HostedApi>,
}

/// A service's autoscaling on one platform, where it differs from the service's own.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ServiceSettings {
    /// Fewest replicas (absent: the service's `min_replicas`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_replicas: Option<u32>,
    /// The autoscaler's target utilisation (absent: the service's `target_utilization`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_utilization: Option<f64>,
    /// An LLM's GPUs per replica here (absent: the service's `llm.tensor_parallel`): the best
    /// split of a model differs with the platform's GPU and price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensor_parallel: Option<u32>,
}

/// A workflow engine's charge per state transition (AWS Step Functions standard workflows:
/// one per state entered, retries included).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Orchestration {
    /// USD per 1,000 state transitions.
    pub usd_per_1000_transitions: f64,
    /// State transitions free each month.
    pub free_transitions_per_month: f64,
}

impl Orchestration {
    /// Its charge, USD per month, for `transitions_per_month`.
    pub fn usd_per_month(&self, transitions_per_month: f64) -> f64 {
        (transitions_per_month - self.free_transitions_per_month).max(0.0)
            * self.usd_per_1000_transitions
            / 1000.0
    }
}

/// One-off costs of a platform: the engineering to build or migrate to it, and everything
/// else paid once (tooling, migration services, data transfer).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct OneOff {
    /// Engineer-months of work, each at a month of the FTE cost.
    pub engineer_months: f64,
    /// Everything else paid once, USD.
    pub usd: f64,
}

impl OneOff {
    /// What it costs with engineers at `fte_cost_usd_per_year`, USD.
    pub fn usd_with(&self, fte_cost_usd_per_year: f64) -> f64 {
        self.engineer_months * fte_cost_usd_per_year / 12.0 + self.usd
    }
}

/// How the payback view compares the platforms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct PaybackSettings {
    /// The platform the others are compared with, by name (what runs today); empty: the
    /// first.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub current: String,
}

impl Scenario {
    /// What `pool` of `platform` pays for a list price: its cloud's negotiated discount, then
    /// the pool's service premium (the simulation and the instant estimate price the same way).
    pub fn list_price_factor(&self, platform: &Platform, pool: &NodePool) -> f64 {
        let discount = self.discounts.pct(platform.cloud);
        (1.0 - discount / 100.0) * (1.0 + pool.service_premium_pct / 100.0)
    }

    /// The teams of the job classes, in the order classes first name them (the default team
    /// as ""); empty when no class names one and no platform sets a team policy, so that a
    /// scenario without teams reports none.
    pub fn team_names(&self) -> Vec<&str> {
        let any = self.job_classes.iter().any(|c| !c.team.is_empty())
            || self.platforms.iter().any(|p| !p.teams.is_empty());
        let mut out: Vec<&str> = Vec::new();
        if any {
            for c in &self.job_classes {
                if !out.contains(&c.team.as_str()) {
                    out.push(&c.team);
                }
            }
        }
        out
    }

    /// Offered load as a share of `reference_gpus` (MODEL.md: utilization, the input).
    pub fn offered_utilization(&self) -> f64 {
        // A scenario the simulation runs has its pipelines' stages among its classes already.
        let own = self.stage_classes_from.unwrap_or(self.job_classes.len());
        let per_day: f64 = self.job_classes[..own]
            .iter()
            .map(JobClass::reference_gpu_hours_per_day)
            .sum::<f64>()
            + self
                .pipelines
                .iter()
                .map(|p| {
                    p.arrivals.jobs_per_day()
                        * p.stages
                            .iter()
                            .map(|s| s.duration.mean_hours() * s.gpus_per_job)
                            .sum::<f64>()
                })
                .sum::<f64>();
        per_day / 24.0 / f64::from(self.reference_gpus.max(1))
    }

    /// The same scenario with every class's arrival rate scaled to reach `target` utilization.
    /// Returns `None` when the workload is empty (nothing to scale).
    pub fn with_offered_utilization(&self, target: f64) -> Option<Scenario> {
        let now = self.offered_utilization();
        if now <= 0.0 {
            return None;
        }
        let mut out = self.clone();
        for class in &mut out.job_classes {
            class.arrivals = class.arrivals.scaled(target / now);
        }
        for pipeline in &mut out.pipelines {
            pipeline.arrivals = pipeline.arrivals.scaled(target / now);
        }
        Some(out)
    }

    /// Expected jobs per replication, all classes.
    pub fn expected_jobs(&self) -> f64 {
        if let Some(replay) = &self.replay {
            return replay.jobs.len() as f64;
        }
        self.job_classes
            .iter()
            .map(|c| c.arrivals.jobs_per_day())
            .sum::<f64>()
            * self.simulated_days()
    }

    /// Days simulated: the warm-up, then the measured window.
    pub fn simulated_days(&self) -> f64 {
        self.warmup_days + self.horizon_days
    }

    /// When the measured window opens, whole seconds from the start of the warm-up (as the
    /// simulation keeps time).
    pub fn warmup_s(&self) -> i64 {
        crate::model::rounding::round(self.warmup_days * DAY_S) as i64
    }

    /// The warm-up a new scenario gets (presets, the page's new scenarios, fitted job
    /// histories), days: three times the longest run a job can be expected to have under way
    /// (the largest 90th-percentile run time of a class on the slowest pool it runs on among
    /// the platforms; for a pipeline, its longest chain of stages so), at least
    /// [`limits::WARMUP_DEFAULT_DAYS_MIN`] (a queue at high load takes about a day to fill) and
    /// at most [`limits::WARMUP_DEFAULT_DAYS_MAX`], rounded up to whole hours. 0 for a replay
    /// (the history's own start) and where nothing but services runs (their own simulation
    /// settles within minutes).
    pub fn default_warmup_days(&self) -> f64 {
        if self.replay.is_some() || (self.job_classes.is_empty() && self.pipelines.is_empty()) {
            return 0.0;
        }
        let s = self.simulated();
        // A class's p90 run time, hours, on the slowest pool it runs on.
        let run_h = |class: usize| -> f64 {
            let p90 = s.job_classes[class].duration.quantile_hours(0.9);
            let slowest = s
                .platforms
                .iter()
                .filter_map(|p| p.node_pools.get(p.pool_of_class(&s, class)))
                .map(|pool| pool.relative_throughput)
                .filter(|r| *r > 0.0)
                .fold(f64::INFINITY, f64::min);
            p90 / if slowest.is_finite() { slowest } else { 1.0 }
        };
        let own = s.stage_classes_from.unwrap_or(s.job_classes.len());
        let longest_class = (0..own).map(run_h).fold(0.0, f64::max);
        // A pipeline's run: its longest chain of stages, one after another.
        let longest_run = s.pipeline_graph().map_or(0.0, |graph| {
            graph
                .pipelines
                .iter()
                .map(|&(first, count)| {
                    let links = &graph.stages[first - graph.first_stage_class..][..count];
                    let edges: Vec<(usize, usize)> = links
                        .iter()
                        .enumerate()
                        .flat_map(|(i, l)| l.after.iter().map(move |&a| (a, i)))
                        .collect();
                    let mut done = vec![0.0f64; count];
                    for i in crate::model::topological::topological_order(count, &edges) {
                        let before = links[i].after.iter().map(|&a| done[a]).fold(0.0, f64::max);
                        done[i] = before + run_h(first + i);
                    }
                    done.into_iter().fold(0.0, f64::max)
                })
                .fold(0.0, f64::max)
        });
        let hours = 3.0 * longest_class.max(longest_run);
        let days = (hours.ceil() / 24.0).clamp(
            limits::WARMUP_DEFAULT_DAYS_MIN,
            limits::WARMUP_DEFAULT_DAYS_MAX,
        );
        if days.is_finite() {
            days
        } else {
            limits::WARMUP_DEFAULT_DAYS_MIN
        }
    }

    /// Reads a scenario from JSON text; a wrong type or unknown field is reported with the path
    /// of the field (e.g. `platforms[0].ops_fte`). Does not validate ranges.
    /// A document of the old, single-pool shape reads into one pool per platform
    /// ([`node_pool::read_single_pool_fields`]).
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ScenarioError::Parse {
                message: e.to_string(),
            })?;
        Scenario::from_json_value(value)
    }

    /// Reads a scenario from a JSON value, like [`Scenario::from_json`].
    pub fn from_json_value(mut value: serde_json::Value) -> Result<Scenario, ScenarioError> {
        let moved = node_pool::read_single_pool_fields(&mut value);
        serde_path_to_error::deserialize(value).map_err(|e| ScenarioError::Parse {
            message: node_pool::as_written(path_message(&e), &moved),
        })
    }
}

impl Platform {
    /// Whether jobs asking for a fraction of a GPU share GPUs on `pool`: where its GPUs are
    /// shared (MIG or time-slicing) on Kubernetes (a SageMaker multi-model endpoint
    /// time-slices its models, but SageMaker training jobs never share a GPU) and jobs share
    /// nodes.
    pub fn jobs_share_gpus_on(&self, pool: &NodePool) -> bool {
        !pool.gpu_sharing.is_none()
            && self.runs_kubernetes()
            && self.placement != Placement::Exclusive
    }

    /// Whether it is a Kubernetes platform (EKS, GKE Standard or Autopilot, AKS; a profile
    /// this build does not know counts as one): Kueue's cohorts, GPU sharing, node
    /// consolidation.
    pub fn runs_kubernetes(&self) -> bool {
        self.profile
            .profile()
            .is_none_or(|p| p.facts().scheduler == Scheduler::Kubernetes)
    }

    /// USD per GB its jobs' data reads pay in transfer, where it and the scenario have
    /// regions ([`crate::model::transfer::read_usd_per_gb`]); `None` otherwise, and then each
    /// class's `data_read_billed_share` of its reads counts as egress.
    pub fn data_read_usd_per_gb(&self, scenario: &Scenario) -> Option<f64> {
        if self.region.is_empty() || scenario.data_region.is_empty() {
            return None;
        }
        crate::model::transfer::read_usd_per_gb(
            self.cloud,
            &self.region,
            &scenario.data_region,
            self.data_path,
        )
    }

    /// Scaling efficiency of a job on `nodes` nodes here: 1 on one node, else the fixed
    /// `multi_node_efficiency` or the interconnect's curve ([`crate::model::scaling`]).
    pub fn scaling_efficiency(&self, nodes: u32) -> f64 {
        self.interconnect
            .efficiency(nodes, self.compact_placement, self.multi_node_efficiency)
    }
}

fn path_message<E: std::fmt::Display>(e: &serde_path_to_error::Error<E>) -> String {
    let path = e.path().to_string();
    if path == "." {
        e.inner().to_string()
    } else {
        format!("{path}: {}", e.inner())
    }
}
