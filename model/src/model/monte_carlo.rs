//! Monte Carlo over replications, as a resumable object: the UI (or a worker) calls
//! [`MonteCarlo::run_batch`] with as many replications as fit in its time slice.
//!
//! Replication `i` depends only on (scenario, seed, i), so replications can be computed in any
//! order or batch size; results are combined in replication order and are identical either way.

use super::budget::{CutOff, EventBudget};
use super::collector::ReplicationCollector;
use super::error::ScenarioError;
use super::outcome_cache::OutcomeCache;
use super::output::PerOutput;
pub use super::paired::PairedComparison;
pub use super::platform_result::PlatformResult;
use super::scenario::{limits, Scenario, ValidScenario};
use super::serving::platform::{LlmOutcome, ServiceOutcome};
use super::sim::outcome::{PipelineOutcome, TeamOutcome};
use super::sim::{generate_jobs, simulate_platform_within, Breakdown, PlatformOutcome};
use super::stats::{Histogram, Summary};
use super::ENGINE_VERSION;
use serde::{Deserialize, Serialize};

/// Every platform's outcome in replication `replication`, all against the same job stream.
/// A platform that needs more than [`limits::EVENTS_PER_REPLICATION_MAX`] events is stopped
/// there, its outcome marked `cut_off`.
pub fn run_replication(scenario: &Scenario, replication: u64) -> Vec<PlatformOutcome> {
    run_replication_within(scenario, replication, limits::EVENTS_PER_REPLICATION_MAX)
}

/// [`run_replication`] with another per-replication event budget.
pub fn run_replication_within(
    scenario: &Scenario,
    replication: u64,
    event_budget: u64,
) -> Vec<PlatformOutcome> {
    let jobs = generate_jobs(scenario, replication);
    (0..scenario.platforms.len())
        .map(|p| simulate_platform_within(scenario, p, replication, &jobs, event_budget))
        .collect()
}

/// A run in progress: a synchronous, resumable object, so the caller decides how to slice
/// the work (the page's workers run a few replications at a time, the CLI all at once).
///
/// # Examples
///
/// ```
/// use gpucost_model::model::monte_carlo::MonteCarlo;
/// use gpucost_model::model::scenario::Scenario;
///
/// let mut scenario = Scenario::default();
/// scenario.horizon_days = 2.0;
/// let mut run = MonteCarlo::new(scenario).unwrap();
/// assert_eq!(run.run_batch(3), 3);
/// let results = run.results();
/// assert_eq!(results.replications, 3);
/// let tco = results.platforms[0].monthly_tco_usd();
/// assert!(tco.p5 <= tco.p50 && tco.p50 <= tco.p95);
///
/// // The same seed gives the same numbers, however the run is sliced.
/// let mut again = MonteCarlo::new(run.scenario().clone()).unwrap();
/// again.run_batch(1);
/// again.run_batch(2);
/// assert_eq!(again.results(), results);
/// ```
#[derive(Debug, Clone)]
pub struct MonteCarlo {
    scenario: ValidScenario,
    /// The outcomes, by replication, and where the event budget stopped the run.
    collector: ReplicationCollector,
    budget: EventBudget,
}

impl MonteCarlo {
    /// Validates the scenario and prepares a run within the default event budgets.
    pub fn new(scenario: Scenario) -> Result<Self, ScenarioError> {
        Self::within(scenario, EventBudget::default())
    }

    /// Like [`MonteCarlo::new`], with other event budgets.
    pub fn within(scenario: Scenario, budget: EventBudget) -> Result<Self, ScenarioError> {
        Ok(Self::of(ValidScenario::new(scenario)?, budget))
    }

    /// A run of a scenario validated already, within `budget`.
    pub fn of(scenario: ValidScenario, budget: EventBudget) -> Self {
        MonteCarlo {
            collector: ReplicationCollector::new(budget, scenario.replications),
            scenario,
            budget,
        }
    }

    /// Runs up to `n` more replications, or until an event budget stops the run; returns how
    /// many are done in all.
    pub fn run_batch(&mut self, n: u32) -> u32 {
        self.run_batch_by(n, |scenario, r, per_replication| {
            run_replication_within(scenario, u64::from(r), per_replication)
        })
    }

    /// [`MonteCarlo::run_batch`], reusing the platforms `cache` knows (it must have been
    /// switched to this run's scenario: [`MonteCarlo::scenario`]); the same outcomes. The
    /// cache holds outcomes within the default per-replication event budget, so a run with
    /// another one simulates every platform.
    pub fn run_batch_with(&mut self, n: u32, cache: &mut OutcomeCache) -> u32 {
        self.run_batch_by(n, |scenario, r, per_replication| {
            if per_replication == limits::EVENTS_PER_REPLICATION_MAX {
                cache.replication(scenario, r)
            } else {
                run_replication_within(scenario, u64::from(r), per_replication)
            }
        })
    }

    fn run_batch_by(
        &mut self,
        n: u32,
        mut replication: impl FnMut(&Scenario, u32, u64) -> Vec<PlatformOutcome>,
    ) -> u32 {
        let total = self.scenario.replications;
        let start = self.done();
        let end = start.saturating_add(n).min(total);
        for r in start..end {
            if self.cut_off().is_some() {
                break;
            }
            let outcomes = replication(&self.scenario, r, self.budget.per_replication);
            self.collector.add(&self.scenario, r, outcomes);
        }
        self.done()
    }

    /// [`MonteCarlo::run_to_end`] on `threads` threads (native builds: the CLI). Each thread
    /// takes the next replication not yet taken; outcomes are added in replication order, so
    /// the results, and where an event budget stops the run, are exactly those of one thread.
    /// Once a budget stops the run no replication is started; those under way are dropped.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run_to_end_on(&mut self, threads: usize) {
        use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
        if threads <= 1 || self.is_done() {
            self.run_to_end();
            return;
        }
        let total = self.scenario.replications;
        let next = AtomicU32::new(self.done());
        let stop = AtomicBool::new(false);
        let scenario = self.scenario.clone();
        let per_replication = self.budget.per_replication;
        std::thread::scope(|scope| {
            let (sender, answers) = std::sync::mpsc::channel();
            for _ in 0..threads {
                let sender = sender.clone();
                let (next, stop, scenario) = (&next, &stop, &scenario);
                scope.spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let r = next.fetch_add(1, Ordering::Relaxed);
                        if r >= total {
                            break;
                        }
                        let outcomes =
                            run_replication_within(scenario, u64::from(r), per_replication);
                        if sender.send((r, outcomes)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            // Answers arrive in any order; the collector meters them in replication order.
            for (r, outcomes) in answers {
                if self.collector.add(&self.scenario, r, outcomes) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
    }

    /// Why the run stopped before its last replication, if it did.
    pub fn cut_off(&self) -> Option<&CutOff> {
        self.collector.cut_off()
    }

    /// Runs every replication left.
    pub fn run_to_end(&mut self) {
        self.run_batch(self.scenario.replications);
    }

    /// Runs replications one at a time, at least one, until all are done or `keep_going`
    /// (asked after each) says stop — a time slice in the UI or the worker. Returns how many
    /// are done in all.
    pub fn run_while(&mut self, mut keep_going: impl FnMut() -> bool) -> u32 {
        loop {
            self.run_batch(1);
            if self.is_done() || !keep_going() {
                return self.done();
            }
        }
    }

    /// Replications done.
    pub fn done(&self) -> u32 {
        self.collector.received()
    }

    /// All replications done, or the run stopped by an event budget.
    pub fn is_done(&self) -> bool {
        self.done() >= self.scenario.replications || self.cut_off().is_some()
    }

    /// Jobs simulated so far, counted once per platform (a job that every one of three
    /// platforms runs counts three times): the work measure of the benchmarks.
    pub fn job_runs(&self) -> u64 {
        self.collector
            .outcomes()
            .flatten()
            .map(|o| o.jobs_submitted)
            .sum()
    }

    /// Simulation events handled so far, over all platforms.
    pub fn events(&self) -> u64 {
        self.collector.outcomes().flatten().map(|o| o.events).sum()
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Summary of the replications done so far (and why the run stopped early, if it did).
    pub fn results(&self) -> Results {
        self.collector.results(&self.scenario)
    }
}

/// One share of a run's replications — those whose index is `index` modulo `count` — for
/// spreading a run over several workers. Each replication depends only on (scenario, seed,
/// index), so the outcomes of all shards, put back in replication order, summarise to exactly
/// the results of one [`MonteCarlo`].
#[derive(Debug, Clone)]
pub struct Shard {
    scenario: ValidScenario,
    next: u32,
    count: u32,
}

impl Shard {
    /// Validates the scenario and prepares shard `index` of `count`.
    pub fn new(scenario: Scenario, index: u32, count: u32) -> Result<Self, ScenarioError> {
        Ok(Shard {
            scenario: ValidScenario::new(scenario)?,
            next: index,
            count: count.max(1),
        })
    }

    /// Runs this shard's next replication; `None` when it has none left.
    pub fn step(&mut self) -> Option<(u32, Vec<PlatformOutcome>)> {
        let r = self.take_next()?;
        Some((r, run_replication(&self.scenario, u64::from(r))))
    }

    /// [`Shard::step`], reusing the platforms `cache` knows (it must have been switched to
    /// this shard's scenario: [`Shard::scenario`]); the same outcomes.
    pub fn step_with(&mut self, cache: &mut OutcomeCache) -> Option<(u32, Vec<PlatformOutcome>)> {
        let r = self.take_next()?;
        Some((r, cache.replication(&self.scenario, r)))
    }

    fn take_next(&mut self) -> Option<u32> {
        if self.next >= self.scenario.replications {
            return None;
        }
        let r = self.next;
        self.next = self.next.saturating_add(self.count);
        Some(r)
    }

    /// The scenario this shard runs.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Whether every replication of this shard is done.
    pub fn is_done(&self) -> bool {
        self.next >= self.scenario.replications
    }
}

/// One pipeline on one platform over all replications.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct PipelineResult {
    /// The pipeline's name.
    pub name: String,
    /// End-to-end time of its completed runs (arrival to the last stage's end), hours: each
    /// replication's median and 95th percentile, summarised over the replications in which
    /// a run completed.
    pub end_to_end_hours: EndToEnd,
    /// USD per completed run: its stages' GPU time and the workflow engine's charge for
    /// their transitions, over the runs completed (the cluster's idle time and fixed costs
    /// are not shared out); over the replications in which a run completed.
    pub usd_per_pipeline_run: Option<Summary>,
    /// Runs that arrived, completed, and failed (a stage gave up), per replication.
    pub runs_submitted: Summary,
    pub runs_completed: Summary,
    pub runs_failed: Summary,
    /// The workflow engine's state transitions (stage attempts), per replication.
    pub transitions: Summary,
}

/// A pipeline's end-to-end hours: each replication's median and 95th percentile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct EndToEnd {
    /// Over replications, of each one's median.
    pub p50: Option<Summary>,
    /// Over replications, of each one's 95th percentile.
    pub p95: Option<Summary>,
}

/// One team's bill on one platform over all replications (showback).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TeamResult {
    /// The team (`default` for classes that name none; `shared` for the costs no team's jobs
    /// spent where they are kept apart; `services` for the services' GPU time).
    pub team: String,
    /// Its cost, USD per month: its jobs' GPU time plus its part of the shared costs; the
    /// teams' means add up to the platform's mean monthly TCO.
    pub monthly_usd: Summary,
    /// GPU-hours its jobs held, per replication.
    pub gpu_hours: Summary,
    /// 95th percentile of its jobs' queue waits, minutes, per replication.
    pub queue_wait_p95_min: Summary,
    /// Its jobs evicted for another team's quota or a higher priority, per replication.
    pub preemptions: Summary,
}

/// One service on one platform over all replications.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ServiceResult {
    /// The service's name.
    pub name: String,
    /// Requests per replication.
    pub requests: Summary,
    /// USD per million requests: its own GPU time and its share of the costs beyond GPU
    /// time, pro rata to GPU-hours; `None` when no replication had requests.
    pub usd_per_million_requests: Option<Summary>,
    /// Minutes whose p95 latency exceeded the objective, per replication.
    pub slo_violation_minutes: Summary,
    /// p95 latency of all the horizon's requests together, ms: the 95th percentile of every
    /// minute's latency distribution mixed in proportion to its requests (not a mean or a
    /// percentile of the minutes' own p95s), a dropped request counting as never served; over
    /// the replications in which it is finite (`None` when in none: 5 % of the requests or
    /// more found no replica).
    pub latency_p95_ms: Option<Summary>,
    /// Requests dropped (queue full), per replication.
    pub requests_dropped: Summary,
    /// Replica-hours billed, per replication.
    pub replica_hours: Summary,
    /// An LLM service's tokens and latencies (absent for other services).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmServiceResult>,
    /// On a hosted API: requests its rate limit refused (HTTP 429, each retry counted), per
    /// replication (absent on nodes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_refused: Option<Summary>,
}

/// An LLM service on one platform over all replications.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct LlmServiceResult {
    /// Output tokens served per second, per replication.
    pub output_tokens_per_s: Summary,
    /// Time to first token at the p95 over the requests, ms, per replication (`None` when a
    /// replication left 5 % or more unserved).
    pub ttft_p95_ms: Option<Summary>,
    /// Time per output token at the p95 over the requests served, ms, per replication.
    pub tpot_p95_ms: Option<Summary>,
    /// Minutes whose TTFT p95 exceeded its objective, per replication.
    pub ttft_slo_violation_minutes: Summary,
    /// Minutes whose TPOT exceeded its objective, per replication.
    pub tpot_slo_violation_minutes: Summary,
    /// USD per million output tokens, per replication.
    pub usd_per_million_output_tokens: Option<Summary>,
    /// USD per million tokens, input and output together, per replication.
    pub usd_per_million_tokens_blended: Option<Summary>,
    /// GPUs a replica holds.
    pub gpus_per_replica: f64,
    /// Ready replicas on average over the horizon, per replication.
    pub replicas: Summary,
}

/// The summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Results {
    /// Engine version that computed it.
    pub engine_version: String,
    /// Replications summarised.
    pub replications: u32,
    /// Per platform, in scenario order.
    pub platforms: Vec<PlatformResult>,
    /// Every ordered pair of platforms.
    pub paired: Vec<PairedComparison>,
    /// Training on one platform and serving on another, every ordered pair (only when the
    /// scenario has job classes and services).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<crate::model::split::SplitWorkload>,
    /// Why the run stopped before the replications asked for (an event budget), if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_off: Option<CutOff>,
}

impl Results {
    /// Summarises per-replication outcomes (`outcomes[r][p]`, in replication order).
    pub fn from_outcomes<R: AsRef<[PlatformOutcome]>>(
        scenario: &Scenario,
        outcomes: &[R],
    ) -> Results {
        let n = outcomes.len();
        let platforms = scenario
            .platforms
            .iter()
            .enumerate()
            .map(|(p, platform)| {
                let col = |f: &dyn Fn(&PlatformOutcome) -> f64| -> Vec<f64> {
                    outcomes.iter().map(|rep| f(&rep.as_ref()[p])).collect()
                };
                let opt_col = |f: &dyn Fn(&PlatformOutcome) -> Option<f64>| -> Vec<f64> {
                    outcomes
                        .iter()
                        .filter_map(|rep| f(&rep.as_ref()[p]))
                        .collect()
                };
                let summary = |v: Vec<f64>| Summary::of(&v).unwrap_or(Summary::ZERO);
                let mut breakdown = Breakdown::default();
                for rep in outcomes {
                    breakdown.add(&rep.as_ref()[p].breakdown_usd);
                }
                let breakdown = if n > 0 {
                    breakdown.scaled(1.0 / n as f64)
                } else {
                    breakdown
                };
                let per_hour = opt_col(&|o| o.usd_per_useful_gpu_hour);
                let outputs = PerOutput::from_fn(|output| {
                    output.summarise(
                        scenario,
                        platform,
                        outcomes.iter().map(|rep| &rep.as_ref()[p]),
                    )
                });
                PlatformResult {
                    name: platform.name.clone(),
                    outputs,
                    breakdown_usd: breakdown,
                    usd_per_useful_gpu_hour_histogram: Histogram::of(&per_hour, 20),
                    services: scenario
                        .services
                        .iter()
                        .enumerate()
                        .map(|(j, service)| {
                            let of = |f: &dyn Fn(&ServiceOutcome) -> f64| -> Vec<f64> {
                                col(&|o| o.services.get(j).map_or(0.0, f))
                            };
                            let finite = |f: &dyn Fn(&ServiceOutcome) -> Option<f64>| {
                                Summary::of(&opt_col(&|o| {
                                    o.services.get(j).and_then(f).filter(|x| x.is_finite())
                                }))
                            };
                            ServiceResult {
                                name: service.name.clone(),
                                requests: summary(of(&|s| s.requests)),
                                usd_per_million_requests: finite(&|s| s.usd_per_million_requests),
                                slo_violation_minutes: summary(of(&|s| s.slo_violation_minutes)),
                                // Only when every replication has one: a replication
                                // that dropped 5 % or more has no p95, and leaving it out
                                // would show the others' as the service's.
                                latency_p95_ms: {
                                    let p95: Option<Vec<f64>> = outcomes
                                        .iter()
                                        .map(|rep| {
                                            rep.as_ref()[p]
                                                .services
                                                .get(j)
                                                .and_then(|s| s.latency_p95_ms)
                                        })
                                        .collect();
                                    p95.and_then(|v| Summary::of(&v))
                                },
                                requests_dropped: summary(of(&|s| s.requests_dropped)),
                                replica_hours: summary(of(&|s| s.replica_hours)),
                                requests_refused: platform
                                    .hosted_api
                                    .is_some()
                                    .then(|| summary(of(&|s| s.requests_refused))),
                                llm: service.llm.as_ref().map(|_| {
                                    let llm = |f: &dyn Fn(&LlmOutcome) -> f64| {
                                        summary(of(&|s| s.llm.as_ref().map_or(0.0, f)))
                                    };
                                    // Only when every replication has one (as the latency).
                                    let every = |f: &dyn Fn(&LlmOutcome) -> Option<f64>| {
                                        let v: Option<Vec<f64>> = outcomes
                                            .iter()
                                            .map(|rep| {
                                                rep.as_ref()[p]
                                                    .services
                                                    .get(j)
                                                    .and_then(|s| s.llm.as_ref())
                                                    .and_then(f)
                                            })
                                            .collect();
                                        v.and_then(|v| Summary::of(&v))
                                    };
                                    LlmServiceResult {
                                        output_tokens_per_s: llm(&|l| l.output_tokens_per_s),
                                        ttft_p95_ms: every(&|l| l.ttft_p95_ms),
                                        tpot_p95_ms: every(&|l| l.tpot_p95_ms),
                                        ttft_slo_violation_minutes: llm(&|l| {
                                            l.ttft_slo_violation_minutes
                                        }),
                                        tpot_slo_violation_minutes: llm(&|l| {
                                            l.tpot_slo_violation_minutes
                                        }),
                                        usd_per_million_output_tokens: finite(&|s| {
                                            s.llm.and_then(|l| l.usd_per_million_output_tokens)
                                        }),
                                        usd_per_million_tokens_blended: finite(&|s| {
                                            s.llm.and_then(|l| l.usd_per_million_tokens_blended)
                                        }),
                                        gpus_per_replica: if platform.runs_nodes() {
                                            service.on(platform).replica_gpus()
                                        } else {
                                            0.0
                                        },
                                        replicas: llm(&|l| l.replicas),
                                    }
                                }),
                            }
                        })
                        .collect(),
                    teams: {
                        // By name, in the order they first appear (the shared entry may be
                        // in some replications only); a replication without one counts 0.
                        let mut names: Vec<&str> = Vec::new();
                        for rep in outcomes {
                            for t in &rep.as_ref()[p].teams {
                                if !names.contains(&t.team.as_str()) {
                                    names.push(&t.team);
                                }
                            }
                        }
                        names
                            .into_iter()
                            .map(|name| {
                                let of = |f: &dyn Fn(&TeamOutcome) -> f64| {
                                    summary(col(&|o| {
                                        o.teams.iter().find(|t| t.team == name).map_or(0.0, f)
                                    }))
                                };
                                TeamResult {
                                    team: name.to_string(),
                                    monthly_usd: of(&|t| t.monthly_usd),
                                    gpu_hours: of(&|t| t.gpu_hours),
                                    queue_wait_p95_min: of(&|t| t.queue_wait_p95_s / 60.0),
                                    preemptions: of(&|t| t.preemptions as f64),
                                }
                            })
                            .collect()
                    },
                    pipelines: scenario
                        .pipelines
                        .iter()
                        .enumerate()
                        .map(|(k, pipeline)| {
                            let of = |f: &dyn Fn(&PipelineOutcome) -> f64| {
                                summary(col(&|o| o.pipelines.get(k).map_or(0.0, f)))
                            };
                            let some = |f: &dyn Fn(&PipelineOutcome) -> Option<f64>| {
                                Summary::of(&opt_col(&|o| o.pipelines.get(k).and_then(f)))
                            };
                            PipelineResult {
                                name: pipeline.name.clone(),
                                end_to_end_hours: EndToEnd {
                                    p50: some(&|r| r.end_to_end_p50_hours),
                                    p95: some(&|r| r.end_to_end_p95_hours),
                                },
                                usd_per_pipeline_run: some(&|r| r.usd_per_run),
                                runs_submitted: of(&|r| r.runs_submitted as f64),
                                runs_completed: of(&|r| r.runs_completed as f64),
                                runs_failed: of(&|r| r.runs_failed as f64),
                                transitions: of(&|r| r.transitions as f64),
                            }
                        })
                        .collect(),
                }
            })
            .collect();
        let mut paired = Vec::new();
        for (a, pa) in scenario.platforms.iter().enumerate() {
            for (b, pb) in scenario.platforms.iter().enumerate() {
                if a == b {
                    continue;
                }
                paired.push(PairedComparison::of(
                    &pa.name,
                    &pb.name,
                    outcomes
                        .iter()
                        .map(|rep| (&rep.as_ref()[a], &rep.as_ref()[b])),
                ));
            }
        }
        Results {
            engine_version: ENGINE_VERSION.to_string(),
            replications: n as u32,
            platforms,
            paired,
            split: crate::model::split::split_workloads(scenario, outcomes),
            cut_off: None,
        }
    }
}
