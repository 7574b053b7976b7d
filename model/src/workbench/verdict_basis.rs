//! What a verdict judges by, read from the scenario: the metric that fits its kind of work,
//! the reference GPU its unit names, the services' SLO-violation allowance and the people
//! assumption a verdict names when people decide it.
//!
//! The metric per kind of work:
//! - jobs only: $ per useful reference-GPU-hour, the unit naming the GPU ("per useful
//!   A100-hour");
//! - services only: $ per million requests answered, over the scenario's services;
//! - pipelines only: $ per completed pipeline run;
//! - mixed: monthly TCO where every platform delivers the same work (the medians of useful
//!   reference-GPU-hours within [`SAME_WORK`] of the most), else $ per useful
//!   reference-GPU-hour, which counts the services' and the pipelines' GPU time with the jobs'.
//!
//! Wherever the scenario has services, a platform whose median SLO-violation minutes exceed the
//! allowance for any of them cannot be named the winner.

use crate::format::trim_number;
use crate::model::monte_carlo::{PlatformResult, Results};
use crate::model::output::Output;
use crate::model::scenario::Scenario;
use crate::workbench::verdict::VerdictMetric;

/// How far apart the platforms' work may be, as a share of the most, for a mixed scenario to
/// be ranked by monthly TCO.
pub const SAME_WORK: f64 = 0.01;

/// The kind of work a scenario has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Job classes (or a replayed history) alone.
    Jobs,
    /// Services alone.
    Services,
    /// Pipelines alone.
    Pipelines,
    /// More than one of those.
    Mixed,
}

impl Work {
    /// The work `scenario` has (jobs where it has nothing else).
    pub fn of(scenario: &Scenario) -> Work {
        let jobs = !scenario.job_classes.is_empty() || scenario.replay.is_some();
        let services = !scenario.services.is_empty();
        let pipelines = !scenario.pipelines.is_empty();
        match (jobs, services, pipelines) {
            (false, true, false) => Work::Services,
            (false, false, true) => Work::Pipelines,
            (true, false, false) | (false, false, false) => Work::Jobs,
            _ => Work::Mixed,
        }
    }
}

/// The SLO-violation allowance over the horizon.
#[derive(Debug, Clone, PartialEq)]
pub struct SloAllowance {
    /// Share of the horizon's minutes, %.
    pub pct: f64,
    /// Minutes over the horizon.
    pub minutes: f64,
}

/// A platform over the allowance: its service with the most SLO-violation minutes (median).
#[derive(Debug, Clone, PartialEq)]
pub struct OverAllowance<'a> {
    /// The platform.
    pub platform: &'a PlatformResult,
    /// Its service with the most violation minutes.
    pub service: String,
    /// Those minutes, median over replications.
    pub minutes: f64,
}

/// What a verdict judges by.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictBasis {
    /// The metric chosen (the decision map's), or `None`: the one for the work.
    chosen: Option<VerdictMetric>,
    /// The scenario's kind of work.
    pub work: Work,
    /// Whether every service is an LLM (its services' work is then counted in tokens).
    pub llms_only: bool,
    /// The reference GPU, named in the unit of a metric per reference-GPU-hour.
    pub gpu: String,
    /// The services' allowance, where the scenario has services.
    pub slo: Option<SloAllowance>,
    /// The loaded cost of an FTE, USD a year.
    pub fte_cost_usd_per_year: f64,
    /// Each platform's ops FTE share, by name.
    pub ops_fte: Vec<(String, f64)>,
    /// Whether ops people count: off, the metric is its cloud bill twin.
    pub count_people: bool,
}

impl VerdictBasis {
    /// The basis of a verdict on `scenario`'s results.
    pub fn of(scenario: &Scenario) -> VerdictBasis {
        VerdictBasis {
            chosen: None,
            work: Work::of(scenario),
            llms_only: crate::model::output::serves_llms_only(scenario),
            gpu: scenario.reference_gpu.trim().to_string(),
            slo: (!scenario.services.is_empty()).then(|| SloAllowance {
                pct: scenario.verdict.slo_allowance_pct,
                minutes: scenario
                    .verdict
                    .slo_allowance_minutes(scenario.horizon_days),
            }),
            fte_cost_usd_per_year: scenario.people.fte_cost_usd_per_year,
            ops_fte: scenario
                .platforms
                .iter()
                .map(|p| (p.name.clone(), p.ops_fte))
                .collect(),
            count_people: scenario.verdict.count_people,
        }
    }

    /// The same basis, ranking by `metric` whatever the work.
    pub fn ranking_by(mut self, metric: VerdictMetric) -> VerdictBasis {
        self.chosen = Some(metric);
        self
    }

    /// The metric it ranks `results` by: the one chosen, else the one for the work (for a
    /// mixed scenario, monthly TCO only where every platform's median useful
    /// reference-GPU-hours are within [`SAME_WORK`] of the most); on the cloud bill alone
    /// where people do not count.
    pub fn metric(&self, results: &Results) -> VerdictMetric {
        let metric = self.chosen.unwrap_or_else(|| self.for_the_work(results));
        if self.count_people {
            return metric;
        }
        metric
            .ranking()
            .on_cloud_bill
            .and_then(VerdictMetric::of)
            .unwrap_or(metric)
    }

    /// The cost of the work a table shows beside the monthly TCO: the metric for the work, with
    /// people counted (the table has the TCO and the cloud bill as columns of their own), per
    /// useful reference-GPU-hour where that metric is the monthly TCO.
    pub fn per_work(&self, results: &Results) -> VerdictMetric {
        match self.chosen.unwrap_or_else(|| self.for_the_work(results)) {
            VerdictMetric::MONTHLY_TCO => VerdictMetric::USD_PER_USEFUL_GPU_HOUR,
            metric => metric,
        }
    }

    /// A table's short column title for `per_work` ([`VerdictBasis::per_work`]):
    /// "$/useful A100-h", "$/M requests", "$/pipeline run".
    pub fn per_work_title(&self, per_work: VerdictMetric) -> String {
        match per_work.output() {
            Output::UsdPerMillionRequests => "$/M requests".to_string(),
            Output::UsdPerMillionOutputTokens => "$/M output tokens".to_string(),
            Output::UsdPerCompletedRun => "$/pipeline run".to_string(),
            output => self.name_gpu(output, "$/useful GPU-h"),
        }
    }

    /// The metric for the scenario's work.
    fn for_the_work(&self, results: &Results) -> VerdictMetric {
        match self.work {
            Work::Jobs => VerdictMetric::USD_PER_USEFUL_GPU_HOUR,
            Work::Services if self.llms_only => VerdictMetric::USD_PER_MILLION_OUTPUT_TOKENS,
            Work::Services => VerdictMetric::USD_PER_MILLION_REQUESTS,
            Work::Pipelines => VerdictMetric::USD_PER_COMPLETED_RUN,
            Work::Mixed if same_work(results) => VerdictMetric::MONTHLY_TCO,
            Work::Mixed => VerdictMetric::USD_PER_USEFUL_GPU_HOUR,
        }
    }

    /// `text` with "GPU-hour" naming the reference GPU ("per useful A100-hour") where `output`
    /// counts reference-GPU-hours.
    pub fn name_gpu(&self, output: Output, text: &str) -> String {
        name_gpu(output, &self.gpu, text)
    }

    /// `platform`'s ops FTE share, as the scenario gives it.
    pub fn ops_fte(&self, platform: &str) -> Option<f64> {
        self.ops_fte
            .iter()
            .find(|(name, _)| name == platform)
            .map(|(_, fte)| *fte)
    }

    /// Each of `platforms` over the SLO-violation allowance, with its worst service; empty
    /// without services.
    pub fn over_allowance<'a>(&self, platforms: &[&'a PlatformResult]) -> Vec<OverAllowance<'a>> {
        let Some(slo) = &self.slo else {
            return Vec::new();
        };
        platforms
            .iter()
            .filter_map(|&platform| {
                let worst = platform.services.iter().max_by(|a, b| {
                    a.slo_violation_minutes
                        .p50
                        .total_cmp(&b.slo_violation_minutes.p50)
                })?;
                (worst.slo_violation_minutes.p50 > slo.minutes).then(|| OverAllowance {
                    platform,
                    service: worst.name.clone(),
                    minutes: worst.slo_violation_minutes.p50,
                })
            })
            .collect()
    }

    /// "0.5 FTE" for a platform's ops share; "" when unknown.
    pub fn fte_text(&self, platform: &str) -> String {
        self.ops_fte(platform)
            .map(|fte| format!("{} FTE", trim_number(fte)))
            .unwrap_or_default()
    }
}

/// Every platform's median useful reference-GPU-hours within [`SAME_WORK`] of the most.
fn same_work(results: &Results) -> bool {
    let hours: Vec<f64> = results
        .platforms
        .iter()
        .map(|p| p.useful_gpu_hours().p50)
        .collect();
    let most = hours.iter().copied().fold(0.0_f64, f64::max);
    !hours.is_empty() && most > 0.0 && hours.iter().all(|h| *h >= most * (1.0 - SAME_WORK))
}

/// `text` with "GPU-hour" (and "GPU-h") naming `gpu` where `output` counts reference-GPU-hours;
/// as it is for other outputs or without a GPU name.
pub fn name_gpu(output: Output, gpu: &str, text: &str) -> String {
    let per_reference_gpu = matches!(
        output,
        Output::UsdPerUsefulGpuHour | Output::CloudBillUsdPerUsefulGpuHour | Output::UsefulGpuHours
    );
    let gpu = gpu.trim();
    if !per_reference_gpu || gpu.is_empty() {
        return text.to_string();
    }
    text.replace("GPU-h", &format!("{gpu}-h"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbench::presets::preset;

    #[test]
    fn each_kind_of_work_has_its_metric() {
        let kind = |name: &str| Work::of(&preset(name).unwrap().scenario());
        assert_eq!(kind("batch-vs-eks-spot"), Work::Jobs);
        assert_eq!(kind("agent-traffic-spike"), Work::Services);
        let jobs = preset("batch-vs-eks-spot").unwrap().scenario();
        let mut pipelines = jobs.clone();
        pipelines.pipelines = preset("pharma-14-stage-pipeline")
            .map(|p| p.scenario().pipelines)
            .unwrap_or_default();
        if !pipelines.pipelines.is_empty() {
            pipelines.job_classes.clear();
            assert_eq!(Work::of(&pipelines), Work::Pipelines);
        }
        let mut mixed = jobs.clone();
        mixed.services = preset("agent-traffic-spike").unwrap().scenario().services;
        assert_eq!(Work::of(&mixed), Work::Mixed);
    }

    #[test]
    fn a_mix_is_ranked_by_the_tco_only_where_the_platforms_do_the_same_work() {
        use crate::model::fixtures::three_platforms;
        use crate::model::monte_carlo::run_replication;
        // Jobs and a service: a mix. Made-up outcomes with each platform's useful
        // reference-GPU-hours: within 1 % of the most (990 and 995 of 1,000), the same work, so
        // the monthly TCO; one at 980, 2 % under, so per useful GPU-hour.
        let mut scenario = three_platforms();
        scenario.services = preset("agent-traffic-spike").unwrap().scenario().services;
        let basis = VerdictBasis::of(&scenario);
        assert_eq!(basis.work, Work::Mixed);
        let template = run_replication(&three_platforms(), 0);
        let results = |hours: [f64; 3]| {
            let outcomes: Vec<Vec<_>> = (0..4)
                .map(|_| {
                    (0..3)
                        .map(|p| {
                            let mut o = template[p].clone();
                            o.useful_reference_gpu_hours = hours[p];
                            o
                        })
                        .collect()
                })
                .collect();
            Results::from_outcomes(&scenario, &outcomes)
        };
        let same = results([1_000.0, 990.0, 995.0]);
        assert_eq!(basis.metric(&same), VerdictMetric::MONTHLY_TCO);
        let different = results([1_000.0, 980.0, 995.0]);
        assert_eq!(
            basis.metric(&different),
            VerdictMetric::USD_PER_USEFUL_GPU_HOUR
        );
        // People not counted: the cloud bill's twin of each.
        let mut without_people = scenario.clone();
        without_people.verdict.count_people = false;
        let basis = VerdictBasis::of(&without_people);
        assert_eq!(basis.metric(&same).output(), Output::CloudBillUsd);
        assert_eq!(
            basis.metric(&different).output(),
            Output::CloudBillUsdPerUsefulGpuHour
        );
    }

    #[test]
    fn the_gpu_is_named_only_in_a_unit_of_reference_gpu_hours() {
        assert_eq!(
            name_gpu(Output::UsdPerUsefulGpuHour, "A100", "per useful GPU-hour"),
            "per useful A100-hour"
        );
        assert_eq!(
            name_gpu(Output::UsdPerUsefulGpuHour, "H100", "$/useful GPU-h"),
            "$/useful H100-h"
        );
        assert_eq!(
            name_gpu(
                Output::ServiceGpuHoursWithoutNode,
                "A100",
                "Replica GPU-hours"
            ),
            "Replica GPU-hours"
        );
        assert_eq!(
            name_gpu(Output::UsdPerUsefulGpuHour, " ", "per useful GPU-hour"),
            "per useful GPU-hour"
        );
    }

    #[test]
    fn the_allowance_is_a_share_of_the_horizons_minutes() {
        let mut scenario = preset("agent-traffic-spike").unwrap().scenario();
        scenario.horizon_days = 30.0;
        scenario.verdict.slo_allowance_pct = 0.1;
        let slo = VerdictBasis::of(&scenario).slo.unwrap();
        // 0.1 % of 30 × 1,440 minutes.
        assert!((slo.minutes - 43.2).abs() < 1e-9, "{}", slo.minutes);
        scenario.services.clear();
        assert_eq!(VerdictBasis::of(&scenario).slo, None);
    }
}
