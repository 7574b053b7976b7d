//! What a tuned platform must keep: the same work, and waits, SLO minutes and pipeline times
//! no worse than allowed. Each candidate is judged against the as-typed platform on the same
//! replications (common random numbers), so "the same work" is paired, not a noisy average.

use crate::model::output::Output;
use crate::model::sim::PlatformOutcome;
use crate::model::stats::{mean, standard_error};
use serde::{Deserialize, Serialize};

/// How much less work a tuned platform may do than as typed: 1 % of the jobs finished and
/// of the useful GPU-hours (paired means). Lowering `max_nodes` or a reservation could
/// otherwise buy cost by leaving work unfinished at the horizon.
pub const WORK_TOLERANCE: f64 = 0.01;

/// The least slack a limit "no worse than as typed" allows: 0.1 minutes of queue wait p95
/// and 0.01 hours of pipeline time, where the as-typed runs' `se` is smaller (a wait of 0 in
/// every replication has an `se` of 0).
const WAIT_SLACK_MIN: f64 = 0.1;
const END_TO_END_SLACK_H: f64 = 0.01;

/// What one replication of one platform gives the tuner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// The objective; `f64::INFINITY` where the platform has none (no useful work).
    pub objective: f64,
    /// Jobs finished.
    pub jobs: f64,
    /// Useful reference-GPU-hours.
    pub useful: f64,
    /// Queue wait p95, minutes.
    pub wait_p95_min: f64,
    /// SLO-violation minutes of its worst service.
    pub slo_min: f64,
    /// End-to-end p95 of its slowest pipeline, hours (0 without pipelines).
    pub end_to_end_p95_h: f64,
    /// Most nodes up at once.
    pub peak_nodes: f64,
}

impl Sample {
    /// What a tuner needs of one replication's outcome, `objective` its objective.
    pub fn of(objective: Output, o: &PlatformOutcome) -> Sample {
        Sample {
            objective: (objective.row().measure)(o)
                .filter(|v| v.is_finite())
                .unwrap_or(f64::INFINITY),
            jobs: o.jobs_completed as f64,
            useful: o.useful_reference_gpu_hours,
            wait_p95_min: o.queue_wait_p95_s / 60.0,
            slo_min: o
                .services
                .iter()
                .map(|s| s.slo_violation_minutes)
                .fold(0.0, f64::max),
            end_to_end_p95_h: o
                .pipelines
                .iter()
                .filter_map(|p| p.end_to_end_p95_hours)
                .fold(0.0, f64::max),
            peak_nodes: o.peak_nodes as f64,
        }
    }
}

/// One limit a tuned platform must keep.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum Limit {
    /// At most this value.
    AtMost(f64),
    /// At most the as-typed platform's value on the same replications, plus this slack
    /// (one `se` of the as-typed mean, over the scenario's replications).
    AsTyped(f64),
}

/// A constraint checked on a tuned platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ConstraintCheck {
    /// What is limited: `jobs_completed`, `useful_gpu_hours`, `queue_wait_p95_min`,
    /// `slo_violation_minutes`, `pipeline_end_to_end_p95_hours`.
    pub key: String,
    /// It in words.
    pub label: String,
    /// The bound it must keep (a floor for the work, a ceiling for the others).
    pub bound: f64,
    /// Whether the bound is a floor (the work) rather than a ceiling.
    pub floor: bool,
    /// Its mean as typed, over the scenario's replications.
    pub as_typed: f64,
    /// Its mean tuned, over the same replications.
    pub tuned: f64,
    /// Whether the tuned platform keeps it.
    pub met: bool,
}

/// The limits one platform is tuned within, and its objective.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// The output minimised.
    pub objective: Output,
    /// The as-typed platform's samples over the scenario's replications (the pairs the work
    /// and the "as typed" limits are judged against).
    pub as_typed: Vec<Sample>,
    /// Queue wait p95, minutes.
    pub wait: Option<Limit>,
    /// SLO-violation minutes of the worst service.
    pub slo: Option<Limit>,
    /// Pipeline end-to-end p95, hours.
    pub end_to_end: Option<Limit>,
}

/// What a candidate's samples score: feasible ones before infeasible, then the lower
/// objective (or the smaller violation). Ordered: lower is better.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    /// The constraints' total relative violation (0: feasible).
    pub violation: f64,
    /// The objective's mean.
    pub objective: f64,
}

impl Eq for Score {}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self.violation > 0.0, other.violation > 0.0) {
            (false, false) => self.objective.total_cmp(&other.objective),
            (true, true) => self
                .violation
                .total_cmp(&other.violation)
                .then(self.objective.total_cmp(&other.objective)),
            (a, b) => a.cmp(&b),
        }
    }
}

fn means(samples: &[Sample], f: impl Fn(&Sample) -> f64) -> f64 {
    mean(&samples.iter().map(f).collect::<Vec<_>>())
}

impl Limits {
    /// No limit but the work (the race's own tests).
    pub fn unconstrained(objective: Output) -> Limits {
        Limits {
            objective,
            as_typed: Vec::new(),
            wait: None,
            slo: None,
            end_to_end: None,
        }
    }

    /// The limits a race judges by, before its as-typed samples are in: an "as typed" limit
    /// with half its slack, since a race decides on a few replications and the confirmation
    /// over the scenario's own holds the whole slack (a candidate at the edge in a race would
    /// fail it about half the time).
    pub fn for_races(&self) -> Limits {
        let half = |l: Option<Limit>| {
            l.map(|l| match l {
                Limit::AsTyped(slack) => Limit::AsTyped(slack / 2.0),
                at_most => at_most,
            })
        };
        Limits {
            as_typed: Vec::new(),
            wait: half(self.wait),
            end_to_end: half(self.end_to_end),
            ..self.clone()
        }
    }

    /// What a tuner needs of one replication's outcome.
    pub fn sample(&self, o: &PlatformOutcome) -> Sample {
        Sample::of(self.objective, o)
    }

    /// The limits of a platform whose as-typed samples over the scenario's replications are
    /// `as_typed`: the work always; a queue wait p95 of at most `max_wait_min` (absent: as
    /// typed, within one `se`); SLO minutes of at most `max_slo_min` where it has services;
    /// a pipeline end-to-end p95 of at most `max_end_to_end_h` (absent: as typed, within one
    /// `se`) where it has pipelines.
    pub fn new(
        objective: Output,
        as_typed: Vec<Sample>,
        max_wait_min: Option<f64>,
        max_slo_min: Option<f64>,
        max_end_to_end_h: Option<f64>,
        has_jobs: bool,
        has_pipelines: bool,
    ) -> Limits {
        let se =
            |f: fn(&Sample) -> f64| standard_error(&as_typed.iter().map(f).collect::<Vec<_>>());
        let wait = has_jobs.then(|| match max_wait_min {
            Some(x) => Limit::AtMost(x),
            None => Limit::AsTyped(se(|s| s.wait_p95_min).max(WAIT_SLACK_MIN)),
        });
        let end_to_end = has_pipelines.then(|| match max_end_to_end_h {
            Some(z) => Limit::AtMost(z),
            None => Limit::AsTyped(se(|s| s.end_to_end_p95_h).max(END_TO_END_SLACK_H)),
        });
        Limits {
            objective,
            wait,
            slo: max_slo_min.map(Limit::AtMost),
            end_to_end,
            as_typed,
        }
    }

    /// The score of `samples` (replications 0, 1, … of a candidate).
    pub fn score(&self, samples: &[Sample]) -> Score {
        Score {
            violation: self.checks(samples).iter().map(|c| c.violation).sum(),
            objective: means(samples, |s| s.objective),
        }
    }

    /// Each constraint on `samples`, against the as-typed samples of the same replications.
    fn checks(&self, samples: &[Sample]) -> Vec<Check> {
        let n = samples.len().min(self.as_typed.len());
        let typed = &self.as_typed[..n];
        let ours = if self.as_typed.is_empty() {
            samples
        } else {
            &samples[..n]
        };
        let mut out = Vec::new();
        if n > 0 {
            for (key, f) in [
                (
                    "jobs_completed",
                    (|s: &Sample| s.jobs) as fn(&Sample) -> f64,
                ),
                ("useful_gpu_hours", |s: &Sample| s.useful),
            ] {
                // No jobs (services alone): nothing to finish.
                if means(&self.as_typed, f) <= 0.0 {
                    continue;
                }
                let floor = means(typed, f) * (1.0 - WORK_TOLERANCE);
                out.push(Check::floor(key, floor, means(ours, f)));
            }
        }
        let limited = [
            (
                "queue_wait_p95_min",
                self.wait,
                (|s: &Sample| s.wait_p95_min) as fn(&Sample) -> f64,
            ),
            ("slo_violation_minutes", self.slo, |s: &Sample| s.slo_min),
            (
                "pipeline_end_to_end_p95_hours",
                self.end_to_end,
                |s: &Sample| s.end_to_end_p95_h,
            ),
        ];
        for (key, limit, f) in limited {
            let bound = match limit {
                None => continue,
                Some(Limit::AtMost(x)) => x,
                Some(Limit::AsTyped(_)) if n == 0 => continue,
                Some(Limit::AsTyped(slack)) => means(typed, f) + slack,
            };
            out.push(Check::ceiling(key, bound, means(ours, f)));
        }
        out
    }

    /// Each constraint on a tuned platform's `tuned` samples, with the as-typed means, over
    /// the scenario's replications.
    pub fn report(&self, tuned: &[Sample]) -> Vec<ConstraintCheck> {
        let typed_mean = |key: &str| {
            let f: fn(&Sample) -> f64 = match key {
                "jobs_completed" => |s| s.jobs,
                "useful_gpu_hours" => |s| s.useful,
                "queue_wait_p95_min" => |s| s.wait_p95_min,
                "slo_violation_minutes" => |s| s.slo_min,
                _ => |s| s.end_to_end_p95_h,
            };
            means(&self.as_typed, f)
        };
        self.checks(tuned)
            .into_iter()
            .map(|c| ConstraintCheck {
                key: c.key.to_string(),
                label: label(c.key).to_string(),
                bound: c.bound,
                floor: c.floor,
                as_typed: typed_mean(c.key),
                tuned: c.value,
                met: c.violation == 0.0,
            })
            .collect()
    }
}

/// A constraint's words.
pub fn label(key: &str) -> &'static str {
    match key {
        "jobs_completed" => "jobs finished",
        "useful_gpu_hours" => "useful GPU-hours",
        "queue_wait_p95_min" => "queue wait p95",
        "slo_violation_minutes" => "SLO-violation minutes",
        _ => "pipeline end-to-end p95",
    }
}

/// A constraint's value with its unit: "10.1 min".
pub fn value_with_unit(key: &str, value: f64) -> String {
    let v = crate::format::trim_number((value * 100.0).round() / 100.0);
    match key {
        "queue_wait_p95_min" => format!("{v} min"),
        "pipeline_end_to_end_p95_hours" => format!("{v} h"),
        _ => v,
    }
}

/// A relative breach: 0 within the bound; a value that is not a number counts as a whole
/// breach (never as kept).
fn breach(x: f64) -> f64 {
    if x.is_nan() {
        1.0
    } else {
        x.max(0.0)
    }
}

/// One constraint on one candidate.
struct Check {
    key: &'static str,
    bound: f64,
    floor: bool,
    value: f64,
    /// How far past the bound, relative to it (0 within it).
    violation: f64,
}

impl Check {
    fn floor(key: &'static str, bound: f64, value: f64) -> Check {
        Check {
            key,
            bound,
            floor: true,
            value,
            violation: breach((bound - value) / bound.abs().max(1.0)),
        }
    }

    fn ceiling(key: &'static str, bound: f64, value: f64) -> Check {
        Check {
            key,
            bound,
            floor: false,
            value,
            violation: breach((value - bound) / bound.abs().max(1.0)),
        }
    }
}
