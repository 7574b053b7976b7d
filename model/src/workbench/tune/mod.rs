//! Each platform at its best: a tuner that searches every platform's own settings, for the
//! same work, before the platforms are compared.
//!
//! - **What it searches** ([`levers`]): per node pool, on demand or spot beyond the
//!   reservation, the instance type, the reserved base, the node limit and the warm-pool
//!   window; per job class that can lose work on the platform, its checkpoint interval there
//!   (`Platform::checkpoint_interval_min`); per service, its fewest replicas and the
//!   autoscaler's target there (`Platform::service_settings`). Settings the user pins stay as
//!   they are.
//! - **What it minimises**: the verdict's metric (or the objective asked for), the mean over
//!   replications, within constraints ([`constraints`]): the same work (jobs finished and
//!   useful GPU-hours at least 99 % of as typed, paired), a queue wait p95 no worse than as
//!   typed (within one `se`) or at most a stated limit, SLO-violation minutes within the
//!   scenario's allowance, and a pipeline end-to-end p95 no worse than as typed.
//! - **How** ([`platform`], [`race`]): cyclic coordinate search, each setting raced over a
//!   grid of its values by successive halving on common random numbers (every candidate runs
//!   the same replications, numbered after the scenario's own), a numeric setting raced again
//!   on finer grids around its winner. Successive halving: Karnin, Koren and Somekh, "Almost
//!   optimal exploration in multi-armed bandits", ICML 2013; common random numbers make the
//!   candidates' differences paired, the variance reduction Kim and Nelson's fully sequential
//!   selection builds on ("A fully sequential procedure for indifference-zone selection in
//!   simulation", ACM TOMACS 11(3), 2001), though elimination here is by the mean's rank, with
//!   no indifference-zone guarantee: the confirmation is the guard. It is chosen over a
//!   model-based search because the settings are few and mostly discrete (nodes, instance
//!   types, on demand or spot), and each evaluation is cheap next to a person's patience: a
//!   race spends replications only on candidates still in it.
//! - **Confirmation**: the tuned platform runs the scenario's own replications (which no race
//!   ran), paired with the as-typed ones; it stands only where it is better on them: a lower
//!   mean without a larger breach of the constraints, or a smaller breach. So a tuned metric
//!   is never worse than as typed, except where the as-typed platform breaks a constraint and
//!   the tuned one breaks it less: then the report prices meeting it.
//!
//! A platform is tuned alone: its simulation does not depend on the others' (each draws from
//! streams keyed by the job, the node and the service, not by the platform's place), so its
//! outcomes alone are the ones it has in the whole scenario.

pub mod constraints;
pub mod levers;
pub mod platform;
pub mod race;
mod text;

pub use text::{change_label, change_value, platform_sentence, report_table, value_text};

use crate::format::trim_number;
use crate::model::monte_carlo::{run_replication, Results};
use crate::model::scenario::node_pool::canonical_path;
use crate::model::scenario::{Overflow, Scenario};
use crate::model::sim::PlatformOutcome;
use crate::model::stats::Summary;
use crate::workbench::compare::leaf_differences;
use crate::workbench::edit::field_mut;
use crate::workbench::verdict::{verdict, VerdictMetric};
use crate::workbench::verdict_basis::VerdictBasis;
use constraints::{ConstraintCheck, Limits, Sample};
use platform::{PlatformTune, Tuned};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The most replications a race runs (fewer where the scenario has fewer).
pub const RACE_REPS_MAX: u32 = 32;
/// The most replications one platform's search spends before it confirms what it has.
pub const BUDGET_PER_PLATFORM: u64 = 6_000;
/// The objectives a tune may be asked to minimise instead of the verdict's metric.
pub const OBJECTIVES: [&str; 4] = [
    "monthly_tco_usd",
    "usd_per_useful_gpu_hour",
    "usd_per_million_requests",
    "usd_per_completed_run",
];

/// What a tune is asked.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneOptions {
    /// What is minimised (absent: the verdict's metric).
    pub objective: Option<VerdictMetric>,
    /// Queue wait p95 at most this, minutes (absent: as typed, within one `se`).
    pub max_wait_p95_min: Option<f64>,
    /// SLO-violation minutes of the worst service at most this (absent: the scenario's
    /// allowance).
    pub max_slo_minutes: Option<f64>,
    /// Pipeline end-to-end p95 at most this, hours (absent: as typed, within one `se`).
    pub max_end_to_end_p95_h: Option<f64>,
    /// Settings that stay as they are, by dotted path.
    pub pins: Vec<String>,
    /// The most replications a race runs.
    pub race_reps_max: u32,
    /// The most replications one platform's search spends.
    pub budget_per_platform: u64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            objective: None,
            max_wait_p95_min: None,
            max_slo_minutes: None,
            max_end_to_end_p95_h: None,
            pins: Vec::new(),
            race_reps_max: RACE_REPS_MAX,
            budget_per_platform: BUDGET_PER_PLATFORM,
        }
    }
}

/// The objective with report key `key` (one of [`OBJECTIVES`]).
pub fn objective_of(key: &str) -> Result<VerdictMetric, String> {
    VerdictMetric::all()
        .find(|m| m.report_key() == key && OBJECTIVES.contains(&key))
        .ok_or_else(|| {
            format!(
                "objective \"{}\": expected one of {}",
                crate::workbench::shorten(60, key),
                OBJECTIVES.join(", ")
            )
        })
}

/// The price of the constraints: the cheapest settings found that do the work but break
/// another constraint, confirmed over the scenario's replications.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Unconstrained {
    /// Their settings, as a diff against the scenario.
    pub changes: BTreeMap<String, Value>,
    /// The metric with them.
    pub metric: Summary,
    /// The constraints they break.
    pub breaks: Vec<String>,
}

/// One platform, tuned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TunedPlatform {
    /// The platform.
    pub name: String,
    /// The settings it changed, by dotted path (as `--set` takes them), with their tuned
    /// values; empty where the as-typed settings stand.
    pub changes: BTreeMap<String, Value>,
    /// The as-typed value of each changed setting (`null` where the scenario leaves it out).
    pub changed_from: BTreeMap<String, Value>,
    /// The metric as typed, over the scenario's replications.
    pub as_typed: Summary,
    /// The metric tuned, over the same replications.
    pub tuned: Summary,
    /// The share of those replications in which tuned is lower than as typed (paired).
    pub tuned_beats_as_typed_share: f64,
    /// Whether every constraint holds tuned.
    pub constraints_met: bool,
    /// Each constraint, as typed and tuned.
    pub constraints: Vec<ConstraintCheck>,
    /// The settings searched, by dotted path.
    pub searched: Vec<String>,
    /// Replications simulated for it (search and confirmation).
    pub evaluations: u64,
    /// What a reader should know: a commitment's assumption, a constraint no setting met, a
    /// search stopped at its budget.
    pub notes: Vec<String>,
    /// The cheapest settings found that break a constraint other than the work, where they
    /// cost less: the price of keeping it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unconstrained: Option<Unconstrained>,
}

/// A tune's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TuneReport {
    /// The metric minimised (its report key).
    pub objective: String,
    /// It in words.
    pub objective_label: String,
    /// Replications each platform's result is confirmed over (the scenario's).
    pub replications: u32,
    /// Each platform, in the scenario's order.
    pub platforms: Vec<TunedPlatform>,
    /// The verdict as typed.
    pub verdict_as_typed: String,
    /// The verdict among the tuned platforms.
    pub fair_verdict: String,
    /// The whole tuned scenario.
    pub scenario: Scenario,
}

/// Why a tune could not start.
#[derive(Debug, Clone, PartialEq)]
pub enum TuneError {
    /// The scenario is invalid.
    Invalid(String),
    /// A pinned path names no field.
    NoSuchPin(String),
}

impl std::fmt::Display for TuneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneError::Invalid(e) => write!(f, "{e}"),
            TuneError::NoSuchPin(p) => write!(
                f,
                "--pin {}: no such field in the scenario",
                crate::workbench::shorten(120, p)
            ),
        }
    }
}

impl std::error::Error for TuneError {}

/// Where a tune is.
#[derive(Debug, Clone)]
enum Phase {
    /// The as-typed scenario's replications, all platforms.
    AsTyped(Vec<Vec<PlatformOutcome>>),
    /// Each platform's search, in turn.
    Search {
        typed: Vec<Vec<PlatformOutcome>>,
        tunes: Vec<PlatformTune>,
        metric: VerdictMetric,
    },
    Done(Box<TuneReport>),
}

/// A tune as a resumable computation, one replication per [`TuneRun::step`], so the page can
/// run it in a worker and the CLI to the end (or a platform per core): the same numbers.
#[derive(Debug, Clone)]
pub struct TuneRun {
    scenario: Scenario,
    options: TuneOptions,
    phase: Phase,
}

impl TuneRun {
    /// A tune of `scenario`: refused where the scenario is invalid or a pin names no field.
    pub fn new(scenario: &Scenario, options: TuneOptions) -> Result<TuneRun, TuneError> {
        scenario
            .validate()
            .map_err(|e| TuneError::Invalid(e.to_string()))?;
        if let Some(objective) = options.objective {
            let measured = scenario
                .platforms
                .iter()
                .any(|p| objective.output().applies(scenario, p));
            let needs = match objective.report_key() {
                "usd_per_million_requests" => !scenario.services.is_empty(),
                "usd_per_completed_run" => !scenario.pipelines.is_empty(),
                _ => true,
            };
            if !measured || !needs {
                return Err(TuneError::Invalid(format!(
                    "--objective {}: this scenario has no {} to measure it by",
                    objective.report_key(),
                    if objective.report_key() == "usd_per_completed_run" {
                        "pipeline"
                    } else {
                        "service"
                    }
                )));
            }
        }
        let mut options = options;
        for pin in &mut options.pins {
            *pin = canonical_path(pin.trim()).into_owned();
            if !pin_exists(scenario, pin) {
                return Err(TuneError::NoSuchPin(pin.clone()));
            }
        }
        Ok(TuneRun {
            scenario: scenario.clone(),
            options,
            phase: Phase::AsTyped(Vec::new()),
        })
    }

    /// Whether it is complete.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done(_))
    }

    /// The report, once complete.
    pub fn report(&self) -> Option<&TuneReport> {
        match &self.phase {
            Phase::Done(r) => Some(r),
            _ => None,
        }
    }

    /// How far it is: (platforms finished, platforms, replications simulated). The as-typed
    /// run counts as no platform finished.
    pub fn progress(&self) -> (usize, usize, u64) {
        let n = self.scenario.platforms.len();
        match &self.phase {
            Phase::AsTyped(done) => (0, n, (done.len() * n) as u64),
            Phase::Search { tunes, typed, .. } => (
                tunes.iter().filter(|t| t.is_done()).count(),
                n,
                (typed.len() * n) as u64 + tunes.iter().map(PlatformTune::evaluations).sum::<u64>(),
            ),
            Phase::Done(r) => (n, n, r.platforms.iter().map(|p| p.evaluations).sum()),
        }
    }

    /// The platform being tuned, if one is.
    pub fn tuning(&self) -> Option<&str> {
        match &self.phase {
            Phase::Search { tunes, .. } => tunes
                .iter()
                .position(|t| !t.is_done())
                .map(|i| self.scenario.platforms[i].name.as_str()),
            _ => None,
        }
    }

    /// Runs one replication; returns whether the tune is complete.
    pub fn step(&mut self) -> bool {
        match &mut self.phase {
            Phase::AsTyped(done) => {
                if done.len() < self.scenario.replications.max(1) as usize {
                    let r = done.len() as u64;
                    done.push(run_replication(&self.scenario, r));
                } else {
                    let typed = std::mem::take(done);
                    self.start_search(typed);
                }
            }
            Phase::Search { tunes, .. } => match tunes.iter_mut().find(|t| !t.is_done()) {
                Some(t) => {
                    t.step();
                }
                None => self.finish(),
            },
            Phase::Done(_) => {}
        }
        self.is_done()
    }

    /// Runs it to the end on `threads` threads: the as-typed replications, then a platform
    /// per thread. The same numbers as [`TuneRun::step`] to the end.
    pub fn run_to_end_on(mut self, threads: usize) -> TuneReport {
        if threads > 1 {
            if let Phase::AsTyped(done) = &mut self.phase {
                let reps = self.scenario.replications.max(1) as usize;
                let start = done.len();
                let next = std::sync::atomic::AtomicUsize::new(start);
                let scenario = &self.scenario;
                let mut got: Vec<(usize, Vec<PlatformOutcome>)> = std::thread::scope(|scope| {
                    let handles: Vec<_> = (0..threads)
                        .map(|_| {
                            scope.spawn(|| {
                                let mut mine = Vec::new();
                                loop {
                                    let r = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                    if r >= reps {
                                        break mine;
                                    }
                                    mine.push((r, run_replication(scenario, r as u64)));
                                }
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .flat_map(|h| h.join().unwrap_or_default())
                        .collect()
                });
                got.sort_by_key(|(r, _)| *r);
                done.extend(got.into_iter().map(|(_, o)| o));
            }
            while matches!(self.phase, Phase::AsTyped(_)) {
                self.step();
            }
            if let Phase::Search { tunes, .. } = &mut self.phase {
                let next = std::sync::atomic::AtomicUsize::new(0);
                let slots: Vec<std::sync::Mutex<&mut PlatformTune>> =
                    tunes.iter_mut().map(std::sync::Mutex::new).collect();
                std::thread::scope(|scope| {
                    for _ in 0..threads {
                        scope.spawn(|| loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(slot) = slots.get(i) else { break };
                            let mut tune = slot.lock().unwrap_or_else(|e| e.into_inner());
                            while !tune.step() {}
                        });
                    }
                });
            }
        }
        while !self.step() {}
        match self.phase {
            Phase::Done(r) => *r,
            _ => unreachable!("a tune steps until it is done"),
        }
    }

    /// The as-typed run is in: the metric is the verdict's on it, and each platform's search
    /// starts.
    fn start_search(&mut self, typed: Vec<Vec<PlatformOutcome>>) {
        let s = &self.scenario;
        let results = Results::from_outcomes(s, &typed);
        let basis = VerdictBasis::of(s);
        let metric = match self.options.objective {
            Some(m) => m,
            None => basis.metric(&results),
        };
        let slo = self.options.max_slo_minutes.or_else(|| {
            (!s.services.is_empty()).then(|| s.verdict.slo_allowance_minutes(s.horizon_days))
        });
        let has_jobs = !s.job_classes.is_empty() || !s.pipelines.is_empty() || s.replay.is_some();
        let tunes = (0..s.platforms.len())
            .map(|p| {
                let solo = solo(s, p);
                let outcomes: Vec<PlatformOutcome> =
                    typed.iter().map(|rep| rep[p].clone()).collect();
                let samples: Vec<Sample> = outcomes
                    .iter()
                    .map(|o| Sample::of(metric.output(), o))
                    .collect();
                let limits = Limits::new(
                    metric.output(),
                    samples,
                    self.options.max_wait_p95_min,
                    slo,
                    self.options.max_end_to_end_p95_h,
                    has_jobs,
                    !s.pipelines.is_empty(),
                );
                PlatformTune::new(
                    solo,
                    outcomes,
                    limits,
                    self.options.race_reps_max,
                    self.options.budget_per_platform,
                    &self.options.pins,
                    p,
                )
            })
            .collect();
        self.phase = Phase::Search {
            typed,
            tunes,
            metric,
        };
    }

    /// Every platform is tuned: the report.
    fn finish(&mut self) {
        let Phase::Search {
            typed,
            tunes,
            metric,
        } = std::mem::replace(&mut self.phase, Phase::AsTyped(Vec::new()))
        else {
            return;
        };
        let s = &self.scenario;
        let tuned: Vec<Tuned> = tunes.iter().filter_map(PlatformTune::result).collect();
        let mut scenario = s.clone();
        for (p, t) in tuned.iter().enumerate() {
            scenario.platforms[p] = t.scenario.platforms[0].clone();
        }
        let reps = typed.len();
        let tuned_outcomes: Vec<Vec<PlatformOutcome>> = (0..reps)
            .map(|r| tuned.iter().map(|t| t.outcomes[r].clone()).collect())
            .collect();
        let basis = VerdictBasis::of(s).ranking_by(metric);
        let typed_results = Results::from_outcomes(s, &typed);
        let tuned_results = Results::from_outcomes(&scenario, &tuned_outcomes);
        // Both verdicts on the same metric (the one minimised, where it was asked for).
        let verdict_as_typed = verdict(&typed_results, &basis).sentence;
        let fair_verdict = verdict(&tuned_results, &basis).sentence;
        let platforms = tuned
            .iter()
            .zip(&tunes)
            .enumerate()
            .map(|(p, (t, tune))| {
                let typed_col: Vec<&PlatformOutcome> = typed.iter().map(|rep| &rep[p]).collect();
                platform_report(s, p, t, tune, &typed_col, metric)
            })
            .collect();
        self.phase = Phase::Done(Box::new(TuneReport {
            objective: metric.report_key().to_string(),
            objective_label: metric.label().to_string(),
            replications: reps as u32,
            platforms,
            verdict_as_typed,
            fair_verdict,
            scenario,
        }));
    }
}

/// One replication a step (the page's workers run it in slices).
impl crate::model::step::Step for TuneRun {
    fn step(&mut self) -> crate::model::step::Stepped {
        crate::model::step::more_unless(TuneRun::step(self))
    }
}

/// Platform `p` of `s` alone.
fn solo(s: &Scenario, p: usize) -> Scenario {
    let mut out = s.clone();
    out.platforms = vec![s.platforms[p].clone()];
    out.payback.current.clear();
    out
}

/// Whether `pin` (canonical) names a field of `scenario`: one its document has, or one the
/// tuner could set (a checkpoint interval of a platform, a commitment term left at its
/// default).
fn pin_exists(scenario: &Scenario, pin: &str) -> bool {
    let Ok(mut doc) = serde_json::to_value(scenario) else {
        return false;
    };
    if field_mut(&mut doc, pin).is_ok() {
        return true;
    }
    let parts: Vec<&str> = pin.split('.').collect();
    let platform_ok = |i: &str| {
        i.parse::<usize>()
            .is_ok_and(|i| i < scenario.platforms.len())
    };
    let pool_ok = |i: &str, j: &str| {
        i.parse::<usize>()
            .ok()
            .and_then(|i| scenario.platforms.get(i))
            .is_some_and(|p| j.parse::<usize>().is_ok_and(|j| j < p.node_pools.len()))
    };
    match parts.as_slice() {
        ["platforms", i, "checkpoint_interval_min"] => platform_ok(i),
        ["platforms", i, "checkpoint_interval_min", class] => {
            platform_ok(i)
                && scenario
                    .simulated()
                    .job_classes
                    .iter()
                    .any(|c| c.name == *class)
        }
        ["platforms", i, "node_pools", j, "purchase", "term_years"] => pool_ok(i, j),
        ["platforms", i, "service_settings"] => platform_ok(i),
        ["platforms", i, "service_settings", service] => {
            platform_ok(i) && scenario.services.iter().any(|s| s.name == *service)
        }
        ["platforms", i, "service_settings", service, "min_replicas" | "target_utilization" | "tensor_parallel"] => {
            platform_ok(i) && scenario.services.iter().any(|s| s.name == *service)
        }
        _ => false,
    }
}

/// The leaves of platform `p` that differ between `typed` and `tuned` (a one-platform
/// scenario), by dotted path, with their tuned and as-typed values: an object added whole is
/// given leaf by leaf.
type Diff = (BTreeMap<String, Value>, BTreeMap<String, Value>);

fn diff_between(typed: &Scenario, tuned: &Scenario, p: usize) -> Diff {
    let (Ok(a), Ok(b)) = (
        serde_json::to_value(&typed.platforms[p]),
        serde_json::to_value(&tuned.platforms[0]),
    ) else {
        return Default::default();
    };
    let (mut to, mut from) = (BTreeMap::new(), BTreeMap::new());
    for (path, old, new) in leaf_differences(&a, &b) {
        let path = format!("platforms.{p}.{path}");
        let mut leaves = BTreeMap::new();
        flatten(&path, new, &mut leaves);
        for leaf in leaves.keys() {
            let was = leaf
                .strip_prefix(&path)
                .map(|rest| rest.trim_start_matches('.'))
                .filter(|rest| !rest.is_empty())
                .map_or(old.clone(), |rest| {
                    rest.split('.')
                        .try_fold(&old, |v, k| v.get(k))
                        .cloned()
                        .unwrap_or(Value::Null)
                });
            from.insert(leaf.clone(), was);
        }
        to.extend(leaves);
    }
    (to, from)
}

fn flatten(path: &str, value: Value, out: &mut BTreeMap<String, Value>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                flatten(&format!("{path}.{k}"), v, out);
            }
        }
        v => {
            out.insert(path.to_string(), v);
        }
    }
}

/// One platform's part of the report.
fn platform_report(
    s: &Scenario,
    p: usize,
    t: &Tuned,
    tune: &PlatformTune,
    typed: &[&PlatformOutcome],
    metric: VerdictMetric,
) -> TunedPlatform {
    let measure = metric.output().row().measure;
    let values = |outcomes: &mut dyn Iterator<Item = &PlatformOutcome>| -> Vec<f64> {
        outcomes.map(|o| measure(o).unwrap_or(f64::NAN)).collect()
    };
    let typed_v = values(&mut typed.iter().copied());
    let tuned_v = values(&mut t.outcomes.iter());
    let summary = |v: &[f64]| {
        let finite: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
        Summary::of(&finite).unwrap_or(Summary::ZERO)
    };
    let beats = typed_v.iter().zip(&tuned_v).filter(|(a, b)| b < a).count() as f64
        / typed_v.len().max(1) as f64;
    let limits = tune.limits();
    let tuned_samples: Vec<Sample> = t.outcomes.iter().map(|o| limits.sample(o)).collect();
    let constraints = limits.report(&tuned_samples);
    let constraints_met = constraints.iter().all(|c| c.met);
    let (changes, changed_from) = diff_between(s, &t.scenario, p);
    let names: Vec<String> = s
        .simulated()
        .job_classes
        .iter()
        .map(|c| c.name.clone())
        .collect();
    let searched = tune.settings().map(|x| x.path(p, &names)).collect();
    let mut notes = Vec::new();
    let platform = &t.scenario.platforms[0];
    for (j, pool) in platform.node_pools.iter().enumerate() {
        let reserved = pool.reserved_nodes(s.reference_gpus);
        let path = format!("platforms.{p}.node_pools.{j}.purchase.reserved_share");
        let term = format!("platforms.{p}.node_pools.{j}.purchase.term_years");
        if reserved > 0 && (changes.contains_key(&path) || changes.contains_key(&term)) {
            notes.push(format!(
                "{} reserved node{} of {}: a {}-year commitment at {} % off, which assumes the \
                 simulated load lasts the whole term.",
                reserved,
                if reserved == 1 { "" } else { "s" },
                pool.instance_type,
                pool.purchase.term_years,
                trim_number(pool.purchase.reserved_discount_pct),
            ));
        }
        if pool.purchase.overflow == Overflow::Spot
            && changes.contains_key(&format!("platforms.{p}.node_pools.{j}.purchase.overflow"))
        {
            notes.push(format!(
                "Spot on {} assumes the pool's {} interruptions per node-hour; spot capacity and \
                 its interruptions vary by instance type, region and hour.",
                pool.instance_type,
                trim_number(pool.spot_interruptions_per_node_hour)
            ));
        }
    }
    for c in constraints.iter().filter(|c| !c.met) {
        notes.push(format!(
            "No setting searched meets the {} limit of {}: the best found gives {}.",
            c.label,
            constraints::value_with_unit(&c.key, c.bound),
            constraints::value_with_unit(&c.key, c.tuned)
        ));
    }
    if t.budget_spent {
        notes.push(format!(
            "The search stopped at its budget of {} replications; a longer one may find more.",
            tune.budget()
        ));
    }
    let unconstrained = t.unconstrained.as_ref().and_then(|(u, outcomes)| {
        let v = values(&mut outcomes.iter());
        let m = summary(&v);
        let samples: Vec<Sample> = outcomes.iter().map(|o| limits.sample(o)).collect();
        let breaks: Vec<String> = limits
            .report(&samples)
            .into_iter()
            .filter(|c| !c.met)
            .map(|c| c.label)
            .collect();
        // Only a candidate that does the work prices a constraint on waiting or serving.
        let does_the_work = limits.report(&samples).iter().all(|c| c.met || !c.floor);
        (m.mean < summary(&tuned_v).mean && !breaks.is_empty() && does_the_work).then(|| {
            Unconstrained {
                changes: diff_between(s, u, p).0,
                metric: m,
                breaks,
            }
        })
    });
    if let Some(u) = &unconstrained {
        let unit = metric.output().row().unit;
        let phrase = crate::workbench::verdict_basis::name_gpu(
            metric.output(),
            &s.reference_gpu,
            metric.phrase(),
        );
        notes.push(format!(
            "Meeting the {} limit costs {} {phrase}: the cheapest settings found that break it \
             give {}.",
            u.breaks.join(" and "),
            unit.text(summary(&tuned_v).mean - u.metric.mean),
            unit.text(u.metric.mean)
        ));
    }
    TunedPlatform {
        name: s.platforms[p].name.clone(),
        as_typed: summary(&typed_v),
        tuned: summary(&tuned_v),
        tuned_beats_as_typed_share: beats,
        constraints_met,
        constraints,
        searched,
        evaluations: t.evaluations,
        notes,
        unconstrained,
        changes,
        changed_from,
    }
}
