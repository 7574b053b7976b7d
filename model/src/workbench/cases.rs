//! The seed articles' case studies, checked: each story's claim beside what the model gives
//! for the same quantity on a preset built from the inputs the article states.
//!
//! A case lives in `data/cases/<story>.json`, beside the presets and never inside a scenario,
//! so claims enter no link, report or golden fingerprint. It names its preset, quotes the
//! article (naming the seed file), lists the inputs the article states and those assumed
//! where it is silent, and gives the claim, the model's figure with the [`Metric`] that
//! reads it from the preset's `gpucost eval` report, and why the two differ. The model's
//! figure is stored so that the page and `gpucost cases` show it without a run; a test
//! recomputes it from the preset (`tests/integration/cases.rs`), so it cannot go stale.

use crate::model::cost_category::Category;
use crate::model::output::Output;
use crate::model::scenario::JobClass;
use crate::model::HOURS_PER_MONTH;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One story of the seeds, checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Its key (the file's name without `.json`).
    pub story: String,
    /// A short title.
    pub title: String,
    /// The seed article's file name in `../shared/seeds/`.
    pub seed: String,
    /// The preset that reproduces it (opening the case loads it).
    pub preset: String,
    /// The article's words, briefly.
    pub quote: String,
    /// The preset's inputs as the article states them.
    pub inputs: Vec<String>,
    /// What the preset assumes where the article is silent.
    pub assumed: Vec<String>,
    /// The article's figure.
    pub claim: Claim,
    /// The model's figure for the same quantity.
    pub model: ModelFigure,
    /// The model's figure for the same quantity on the other scope, where the article's scope
    /// leaves something out that can change the answer (a cloud bill's people, say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beside: Option<ModelFigure>,
    /// How the two figures stand: agreeing, the figure an echo of an input, or who is more
    /// likely right where they disagree.
    pub reading: Reading,
    /// Why they differ, where they do (an input the article leaves out, a number that does
    /// not reconcile, a mechanism the model lacks), and who is more likely right, with the
    /// public facts that say so.
    pub difference: String,
}

/// How the article's figure and the model's stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// The model gives the article's figure, near enough (within a tenth, or the claim's
    /// direction where it gives no figure).
    Agrees,
    /// The model's figure only echoes an input the article gave it (a wait given as the wait,
    /// a curve fitted to the figure): it checks the fit, not the claim.
    EchoesInputs,
    /// They disagree, and the article is more likely right: the model lacks what decides it.
    ArticleLikelier,
    /// They disagree, and the model is more likely right: published prices or the article's
    /// own numbers say so.
    ModelLikelier,
    /// The article leaves out what decides it (the workload's size, the jobs' lengths):
    /// neither can be shown right, whether or not the figures meet.
    Undecided,
}

impl Reading {
    /// Its key in `gpucost cases --format json`.
    pub fn key(self) -> &'static str {
        match self {
            Reading::Agrees => "agrees",
            Reading::EchoesInputs => "echoes_inputs",
            Reading::ArticleLikelier => "article_likelier",
            Reading::ModelLikelier => "model_likelier",
            Reading::Undecided => "undecided",
        }
    }

    /// How it reads on the page.
    pub fn text(self) -> &'static str {
        match self {
            Reading::Agrees => "They agree",
            Reading::EchoesInputs => {
                "An echo: the model's figure repeats an input the article gave it"
            }
            Reading::ArticleLikelier => "They disagree; the article is more likely right",
            Reading::ModelLikelier => "They disagree; the model is more likely right",
            Reading::Undecided => {
                "Neither can be shown right: the article leaves out what decides it"
            }
        }
    }
}

/// A figure the article gives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// What it measures, e.g. "effective spot discount".
    pub what: String,
    /// Its value; absent where the article gives only a direction ("the cost per job
    /// dropped").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The top of the range where the article gives one ("10–15 minutes": `value` 10,
    /// `up_to` 15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub up_to: Option<f64>,
    /// The article's words where it gives no figure ("lower").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<String>,
    /// Its unit: "%", "$/GPU-hour", "$/month", "h".
    pub unit: String,
    /// What the figure counts in the article's own words (the model's figure is read on the
    /// same scope): `not_a_cost` for a wait, a share or a ratio.
    pub scope: Scope,
}

/// What a cost figure counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Counts the ops people (the whole monthly cost, or the people's own).
    WithPeople,
    /// The cloud bill alone: ops people left out.
    CloudBill,
    /// The GPU time alone: no fees, people, storage or egress.
    GpuTime,
    /// Not a cost (a wait, a share, a ratio).
    NotACost,
}

impl Scope {
    /// Its key in `gpucost cases --format json`.
    pub fn key(self) -> &'static str {
        match self {
            Scope::WithPeople => "with_people",
            Scope::CloudBill => "cloud_bill",
            Scope::GpuTime => "gpu_time",
            Scope::NotACost => "not_a_cost",
        }
    }

    /// What it counts, in words.
    pub fn text(self) -> &'static str {
        match self {
            Scope::WithPeople => "counts ops people",
            Scope::CloudBill => "the cloud bill alone, ops people left out",
            Scope::GpuTime => "GPU time alone, no fees, people, storage or egress",
            Scope::NotACost => "not a cost",
        }
    }
}

/// The model's figure: how it is read from the preset's report, and its value there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFigure {
    /// How the figure is read from the report.
    pub metric: Metric,
    /// Its value on the preset (recomputed by a test).
    pub value: f64,
    /// Its unit.
    pub unit: String,
    /// Decimals shown.
    pub decimals: u32,
}

/// How a case's figure is read from a `gpucost eval` report. `field` is a dotted path in a
/// platform's entry (`usd_per_useful_gpu_hour`, `breakdown_usd.egress`); a summary gives its
/// mean.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Metric {
    /// The field's value on one platform, times `scale` (e.g. 1/60 for minutes in hours).
    Value {
        platform: String,
        field: String,
        #[serde(default = "one")]
        scale: f64,
    },
    /// How much less `platform` pays than `against` on the field, % (1 − a ÷ b).
    Saving {
        platform: String,
        against: String,
        field: String,
    },
    /// How much less `platform` pays than `against` for the GPU time of a finished job, %:
    /// 1 − a ÷ b of the GPU-time categories' dollars per job completed (the compute bill,
    /// without fees, people, storage or egress).
    GpuTimeSaving { platform: String, against: String },
    /// What a platform's GPU time costs per useful GPU-hour, USD: the GPU-time categories'
    /// dollars over the useful reference-GPU-hours (the "effective GPU-hour" of the articles,
    /// without fees, people, storage or egress).
    GpuTimePerUsefulHour { platform: String },
    /// The share of a platform's kept compute that is not scaling loss, % (its multi-node
    /// scaling efficiency as the run measured it).
    ScalingEfficiency { platform: String },
    /// The field on `platform` over the field on `against` (a ÷ b): with
    /// `turnaround_inflation`, how many times as long a result takes there.
    Ratio {
        platform: String,
        against: String,
        field: String,
    },
    /// Weeks until `platform`'s cumulative cash in the payback view falls to the current
    /// platform's: its break-even month × the weeks in a month (730 h ÷ 168 h).
    PaybackWeeks { platform: String },
    /// The GPU time a given-up job burned, in multiples of the GPU time one job of `class`
    /// takes to finish: the failed attempts' dollars per job given up, over the class's
    /// nominal reference-GPU-hours (its GPUs × its mean duration) at the platform's price of
    /// a useful reference-GPU-hour of compute (`useful_compute` ÷ `useful_gpu_hours`). Read
    /// where only that class fails for good (its failures deterministic).
    FailureBurn { platform: String, class: String },
    /// How much a category adds to the rest of a platform's cost, %: the category's dollars
    /// over the field's less the category's ("egress added 23 % to the training cost").
    Added {
        platform: String,
        category: String,
        field: String,
    },
    /// A platform's GPU-time dollars a month beyond its useful compute: the overhead of
    /// provisioning, pulls, idle nodes, staging, rework and billing rounding.
    GpuTimeOverhead { platform: String },
    /// A GPU-time category's share of a platform's GPU-time dollars, % (the idle share of the
    /// GPU time paid).
    GpuTimeShare { platform: String, category: String },
    /// How much more communication overhead `platform`'s multi-node jobs carry than
    /// `against`'s, %: the overhead of a scaling efficiency e is (1 − e) ÷ e (the law's
    /// α·(n − 1)^β), and this is 100 × (its ratio − 1).
    OverheadOver { platform: String, against: String },
    /// The GPUs a platform pays for on average: its GPU-time dollars a month over the
    /// on-demand price of a GPU-hour on its first pool and the month's 730 hours (read where
    /// it buys on demand alone).
    GpusPaid { platform: String },
    /// Minutes from a scaling decision's trigger to a new replica of `service` serving on
    /// `platform`: the model's start-up of a replica (the autoscaler's delay, the node's
    /// provisioning, the image pull and the model load), from the scenario the report ran.
    ReplicaStartup { platform: String, service: String },
    /// A setting of the platform in the scenario the report ran, times `scale`: a dotted path
    /// in its entry, array positions as numbers (`node_pools.0.on_demand_usd_per_node_hour`).
    /// The figure is an input (a list price, a delay): the case checks the reference data.
    Setting {
        platform: String,
        path: String,
        #[serde(default = "one")]
        scale: f64,
    },
}

fn one() -> f64 {
    1.0
}

/// Hours in a week.
const WEEK_H: f64 = 168.0;

impl Metric {
    /// What the figure counts.
    pub fn scope(&self) -> Scope {
        let of_field = |field: &str| {
            if field.starts_with("cloud_bill_") {
                Scope::CloudBill
            } else if let Some(key) = field.strip_prefix("breakdown_usd.") {
                match Category::ALL.into_iter().find(|c| c.key() == key) {
                    Some(Category::OpsPeople) => Scope::WithPeople,
                    Some(c) if c.is_gpu_time() => Scope::GpuTime,
                    _ => Scope::CloudBill,
                }
            } else if field.starts_with("usd_per_") || field == "monthly_tco_usd" {
                Scope::WithPeople
            } else {
                Scope::NotACost
            }
        };
        match self {
            Metric::Value { field, .. }
            | Metric::Saving { field, .. }
            | Metric::Ratio { field, .. } => of_field(field),
            Metric::GpuTimeSaving { .. }
            | Metric::GpuTimePerUsefulHour { .. }
            | Metric::GpuTimeOverhead { .. }
            | Metric::FailureBurn { .. } => Scope::GpuTime,
            Metric::ScalingEfficiency { .. }
            | Metric::GpuTimeShare { .. }
            | Metric::OverheadOver { .. }
            | Metric::GpusPaid { .. }
            | Metric::ReplicaStartup { .. } => Scope::NotACost,
            Metric::Added { field, .. } => of_field(field),
            Metric::Setting { path, .. } => {
                if path.contains("usd") {
                    Scope::GpuTime
                } else {
                    Scope::NotACost
                }
            }
            // The payback view's cumulative cash is the monthly TCO's.
            Metric::PaybackWeeks { .. } => Scope::WithPeople,
        }
    }

    /// The figure in `report` (a `gpucost eval` report as JSON), or why it cannot be read.
    pub fn of(&self, report: &Value) -> Result<f64, String> {
        match self {
            Metric::Value {
                platform,
                field,
                scale,
            } => Ok(field_of(report, platform, field)? * scale),
            Metric::Saving {
                platform,
                against,
                field,
            } => {
                let a = field_of(report, platform, field)?;
                let b = field_of(report, against, field)?;
                Ok(100.0 * (1.0 - a / b))
            }
            Metric::GpuTimeSaving { platform, against } => {
                let per_job = |name: &str| -> Result<f64, String> {
                    Ok(gpu_time_usd(report, name)?
                        / field_of(report, name, Output::JobsCompleted.key())?)
                };
                Ok(100.0 * (1.0 - per_job(platform)? / per_job(against)?))
            }
            Metric::GpuTimePerUsefulHour { platform } => Ok(gpu_time_usd(report, platform)?
                / field_of(report, platform, Output::UsefulGpuHours.key())?),
            Metric::OverheadOver { platform, against } => {
                let overhead = |name: &str| -> Result<f64, String> {
                    let e = Metric::ScalingEfficiency {
                        platform: name.to_string(),
                    }
                    .of(report)?
                        / 100.0;
                    Ok((1.0 - e) / e)
                };
                Ok(100.0 * (overhead(platform)? / overhead(against)? - 1.0))
            }
            Metric::ScalingEfficiency { platform } => {
                let useful = field_of(report, platform, "breakdown_usd.useful_compute")?;
                let slowdown = field_of(report, platform, "breakdown_usd.storage_read_slowdown")?;
                let loss = field_of(report, platform, "breakdown_usd.multi_node_scaling_loss")?;
                Ok(100.0 * (useful + slowdown) / (useful + slowdown + loss))
            }
            Metric::Ratio {
                platform,
                against,
                field,
            } => Ok(field_of(report, platform, field)? / field_of(report, against, field)?),
            Metric::PaybackWeeks { platform } => {
                let month = named(&report["payback"]["platforms"], platform)
                    .ok_or_else(|| format!("no payback line for \"{platform}\" in the report"))?
                    ["breakeven_month"]
                    .as_f64()
                    .ok_or_else(|| format!("\"{platform}\" does not pay back within 36 months"))?;
                Ok(month * HOURS_PER_MONTH / WEEK_H)
            }
            Metric::FailureBurn { platform, class } => {
                let nominal_gpu_hours = report["scenario"]["job_classes"]
                    .as_array()
                    .and_then(|cs| cs.iter().find(|c| c["name"] == class.as_str()))
                    .and_then(|c| serde_json::from_value::<JobClass>(c.clone()).ok())
                    .map(|c| c.gpus_per_job * c.duration.mean_hours())
                    .ok_or_else(|| format!("no job class \"{class}\" in the report"))?;
                let usd_per_gpu_hour = field_of(report, platform, "breakdown_usd.useful_compute")?
                    / field_of(report, platform, Output::UsefulGpuHours.key())?;
                let burned_per_job = field_of(report, platform, "breakdown_usd.failed_attempts")?
                    / field_of(report, platform, Output::JobsFailed.key())?;
                Ok(burned_per_job / (nominal_gpu_hours * usd_per_gpu_hour))
            }
            Metric::Added {
                platform,
                category,
                field,
            } => {
                let part = field_of(report, platform, &format!("breakdown_usd.{category}"))?;
                let whole = field_of(report, platform, field)?;
                Ok(100.0 * part / (whole - part))
            }
            Metric::GpuTimeOverhead { platform } => Ok(gpu_time_usd(report, platform)?
                - field_of(report, platform, "breakdown_usd.useful_compute")?),
            Metric::GpuTimeShare { platform, category } => {
                let part = field_of(report, platform, &format!("breakdown_usd.{category}"))?;
                Ok(100.0 * part / gpu_time_usd(report, platform)?)
            }
            Metric::GpusPaid { platform } => {
                let pool = &scenario_platform(report, platform)?["node_pools"][0];
                let per_gpu_hour = pool["on_demand_usd_per_node_hour"]
                    .as_f64()
                    .zip(pool["gpus_per_node"].as_f64())
                    .map(|(usd, gpus)| usd / gpus)
                    .ok_or_else(|| format!("no price for \"{platform}\" in the scenario"))?;
                Ok(gpu_time_usd(report, platform)? / per_gpu_hour / HOURS_PER_MONTH)
            }
            Metric::ReplicaStartup { platform, service } => {
                let scenario: crate::model::scenario::Scenario =
                    serde_json::from_value(report["scenario"].clone())
                        .map_err(|e| format!("the report's scenario: {e}"))?;
                let p = scenario
                    .platforms
                    .iter()
                    .find(|p| p.name == *platform)
                    .ok_or_else(|| format!("no platform \"{platform}\" in the scenario"))?;
                let s = scenario
                    .services
                    .iter()
                    .find(|s| s.name == *service)
                    .ok_or_else(|| format!("no service \"{service}\" in the scenario"))?;
                Ok(crate::model::serving::platform::pool_spec(s, p, 1.0).startup_s / 60.0)
            }
            Metric::Setting {
                platform,
                path,
                scale,
            } => {
                let value = at_path(scenario_platform(report, platform)?, path);
                Ok(value
                    .as_f64()
                    .ok_or_else(|| format!("no number at {path} of \"{platform}\""))?
                    * scale)
            }
        }
    }
}

/// The entry of the platform named `platform` in the scenario `report` ran.
fn scenario_platform<'a>(report: &'a Value, platform: &str) -> Result<&'a Value, String> {
    named(&report["scenario"]["platforms"], platform)
        .ok_or_else(|| format!("no platform \"{platform}\" in the scenario"))
}

/// The entry named `name` in the array `list` (platforms, payback lines).
fn named<'a>(list: &'a Value, name: &str) -> Option<&'a Value> {
    list.as_array()?.iter().find(|e| e["name"] == name)
}

/// The value at `path` (dotted; array positions as numbers) in `entry`.
fn at_path<'a>(entry: &'a Value, path: &str) -> &'a Value {
    path.split('.')
        .fold(entry, |v, key| match key.parse::<usize>() {
            Ok(i) => &v[i],
            Err(_) => &v[key],
        })
}

/// The GPU-time categories' dollars a month of the platform named `platform` in `report`.
fn gpu_time_usd(report: &Value, platform: &str) -> Result<f64, String> {
    let mut usd = 0.0;
    for c in Category::ALL.into_iter().filter(|c| c.is_gpu_time()) {
        usd += field_of(report, platform, &format!("breakdown_usd.{}", c.key()))?;
    }
    Ok(usd)
}

/// `field` (dotted) of the platform named `platform` in `report`: a number, or a summary's
/// mean.
fn field_of(report: &Value, platform: &str, field: &str) -> Result<f64, String> {
    let entry = named(&report["platforms"], platform)
        .ok_or_else(|| format!("no platform \"{platform}\" in the report"))?;
    let value = at_path(entry, field);
    value
        .as_f64()
        .or_else(|| value["mean"].as_f64())
        .ok_or_else(|| format!("no number at {field} of \"{platform}\""))
}

impl Case {
    /// The claim as the page shows it: money with cents ("$3.80"), a share or a count with
    /// as many decimals as the article gives, or the article's words where it gives no figure.
    pub fn claim_text(&self) -> String {
        let unit = &self.claim.unit;
        match (self.claim.value, self.claim.up_to) {
            (Some(low), Some(high)) => {
                // "10–15 min": the unit once, after the range.
                let high = figure_text(high, unit, decimals_of(high, unit));
                let low = figure_text(low, "", decimals_of(low, unit));
                format!("{}–{high}", low.trim_end())
            }
            (Some(value), None) => figure_text(value, unit, decimals_of(value, unit)),
            (None, _) => self.claim.words.clone().unwrap_or_default(),
        }
    }

    /// Why the figures differ, as the page shows it: `{model}` and `{beside}` in the entry's
    /// text read as the figures, so the text cannot fall out of step with them.
    pub fn why_text(&self) -> String {
        self.difference
            .replace("{model}", &self.model_text())
            .replace("{beside}", &self.beside_text().unwrap_or_default())
    }

    /// The figure beside, on the other scope, as the page shows it.
    pub fn beside_text(&self) -> Option<String> {
        self.beside
            .as_ref()
            .map(|b| figure_text(b.value, &b.unit, b.decimals))
    }

    /// The model's figure as the page shows it.
    pub fn model_text(&self) -> String {
        figure_text(self.model.value, &self.model.unit, self.model.decimals)
    }
}

/// Decimals a claim is shown with: as many as it has, up to 2, and money with cents unless it
/// is whole dollars ("$3.80", "$47,000").
fn decimals_of(value: f64, unit: &str) -> u32 {
    let given = (0..=2)
        .find(|&d| {
            let scaled = value * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-9
        })
        .unwrap_or(2);
    if is_money(unit) && given == 1 {
        2
    } else {
        given
    }
}

/// Whether `unit` is money ("$/GPU-hour", "$/month", "€").
pub fn is_money(unit: &str) -> bool {
    unit.starts_with('$') || unit.starts_with('€')
}

/// `value` with `decimals` decimals and thousands separated, in `unit`: "$3.80/GPU-hour",
/// "31 %", "4.0 h", "$9,500/month".
pub fn figure_text(value: f64, unit: &str, decimals: u32) -> String {
    let number = grouped(value, decimals);
    match unit {
        "%" => format!("{number} %"),
        u if u.starts_with('$') => format!("${number}{}", &u[1..]),
        u if u.starts_with('€') => format!("€{number}{}", &u['€'.len_utf8()..]),
        u => format!("{number} {u}"),
    }
}

fn grouped(value: f64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals);
    let units = (value.abs() * scale as f64).round() as u64;
    let sign = if value < 0.0 && units > 0 { "−" } else { "" };
    let whole = crate::format::group_thousands(units / scale);
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        let width = decimals as usize;
        format!("{sign}{whole}.{:0width$}", units % scale)
    }
}

/// The case files, in the page's order.
const FILES: &[&str] = &[
    include_str!("../../../data/cases/autopilot-a100.json"),
    include_str!("../../../data/cases/autopilot-a100-month.json"),
    include_str!("../../../data/cases/autopilot-fee-14k.json"),
    include_str!("../../../data/cases/a100-range-low.json"),
    include_str!("../../../data/cases/a100-range-high.json"),
    include_str!("../../../data/cases/snap-p4d-spot.json"),
    include_str!("../../../data/cases/robinhood-ri-spot.json"),
    include_str!("../../../data/cases/batch-g5-vs-gke.json"),
    include_str!("../../../data/cases/batch-g5-egress-23.json"),
    include_str!("../../../data/cases/sequoia-av-burn.json"),
    include_str!("../../../data/cases/sequoia-av-utilisation.json"),
    include_str!("../../../data/cases/uber-55-vs-85.json"),
    include_str!("../../../data/cases/fintech-payback.json"),
    include_str!("../../../data/cases/bnp-six-jobs.json"),
    include_str!("../../../data/cases/fsdp-92-vs-78.json"),
    include_str!("../../../data/cases/sagemaker-vs-eks-tco.json"),
    include_str!("../../../data/cases/ibm-40-overspend.json"),
    include_str!("../../../data/cases/sagemaker-spot-10-20.json"),
    include_str!("../../../data/cases/datastax-inference.json"),
    include_str!("../../../data/cases/endpoint-scale-up-minutes.json"),
    include_str!("../../../data/cases/twenty-models-one-gpu.json"),
    include_str!("../../../data/cases/egress-10-tb.json"),
    include_str!("../../../data/cases/s3-direct-vs-fsx.json"),
    include_str!("../../../data/cases/h100-four-hour-wait.json"),
    include_str!("../../../data/cases/a3-commitment.json"),
    include_str!("../../../data/cases/p5-on-demand-43.json"),
    include_str!("../../../data/cases/p5-spot-13.json"),
    include_str!("../../../data/cases/a3-mega-40.json"),
    include_str!("../../../data/cases/p5-128-node-scaling.json"),
    include_str!("../../../data/cases/tcpx-15-overhead.json"),
    include_str!("../../../data/cases/bursty-g5-1-cold.json"),
    include_str!("../../../data/cases/bursty-g5-2-image-cache.json"),
    include_str!("../../../data/cases/bursty-g5-3-warm-window.json"),
    include_str!("../../../data/cases/bursty-g5-4-four-gpu.json"),
    include_str!("../../../data/cases/bursty-g5-cost-per-job.json"),
];

/// Every case. The files are part of the build; a test reads each.
pub fn cases() -> Vec<Case> {
    FILES
        .iter()
        .filter_map(|text| serde_json::from_str(text).ok())
        .collect()
}

/// The case of `story`.
pub fn case(story: &str) -> Option<Case> {
    cases().into_iter().find(|c| c.story == story)
}

/// The model's figures for `case`, recomputed: its preset run to the end, the metrics read
/// from the report (the figure, and the one beside it where there is one).
pub fn recompute(case: &Case) -> Result<(f64, Option<f64>), String> {
    figures_of(case, &preset_report(case)?)
}

/// The model's figures for every case in `cases`, in order, each preset run once however many
/// cases read it.
pub fn recompute_all(cases: &[Case]) -> Vec<Result<(f64, Option<f64>), String>> {
    let mut reports: Vec<(&str, Result<Value, String>)> = Vec::new();
    cases
        .iter()
        .map(|case| {
            let at = match reports.iter().position(|(p, _)| *p == case.preset) {
                Some(at) => at,
                None => {
                    reports.push((&case.preset, preset_report(case)));
                    reports.len() - 1
                }
            };
            figures_of(case, reports[at].1.as_ref().map_err(Clone::clone)?)
        })
        .collect()
}

/// The `gpucost eval` report of `case`'s preset, run to the end, as JSON.
fn preset_report(case: &Case) -> Result<Value, String> {
    let preset = super::presets::preset(&case.preset)
        .ok_or_else(|| format!("{}: no preset \"{}\"", case.story, case.preset))?;
    let scenario = preset.scenario();
    let mut run = crate::model::monte_carlo::MonteCarlo::new(scenario.clone())
        .map_err(|e| format!("{}: {e}", case.story))?;
    run.run_to_end();
    serde_json::to_value(super::report::report(&scenario, &run.results()))
        .map_err(|e| e.to_string())
}

/// `case`'s figure and the one beside it, read from `report`.
fn figures_of(case: &Case, report: &Value) -> Result<(f64, Option<f64>), String> {
    let model = case.model.metric.of(report)?;
    let beside = match &case.beside {
        Some(b) => Some(b.metric.of(report)?),
        None => None,
    };
    Ok((model, beside))
}

/// Whether `recomputed` shows as `figure` (the same text).
pub fn shows_as_stored(figure: &ModelFigure, recomputed: f64) -> bool {
    figure_text(recomputed, &figure.unit, figure.decimals)
        == figure_text(figure.value, &figure.unit, figure.decimals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_is_read_on_the_scope_of_the_articles_claim() {
        for case in cases() {
            assert_eq!(
                case.model.metric.scope(),
                case.claim.scope,
                "{}",
                case.story
            );
            if let Some(beside) = &case.beside {
                assert_ne!(beside.metric.scope(), case.claim.scope, "{}", case.story);
            }
        }
    }

    #[test]
    fn every_reading_fits_its_figures() {
        for case in cases() {
            let Some(claim) = case.claim.value else {
                assert!(case.claim.words.is_some(), "{}", case.story);
                continue;
            };
            let high = case.claim.up_to.unwrap_or(claim);
            // How far the model's figure falls outside the claim (its range), as a share of it.
            let outside = (claim - case.model.value)
                .max(case.model.value - high)
                .max(0.0);
            let apart = outside / claim.abs().max(1e-9);
            match case.reading {
                Reading::Agrees => assert!(apart <= 0.1, "{}: {apart}", case.story),
                // Who is right is said only where they disagree.
                Reading::ModelLikelier | Reading::ArticleLikelier => {
                    assert!(apart > 0.05, "{}: {apart}", case.story)
                }
                // An echo, or figures that may meet on inputs nobody can check.
                Reading::EchoesInputs | Reading::Undecided => {}
            }
        }
    }

    #[test]
    fn money_shows_with_cents_or_in_whole_dollars() {
        for case in cases() {
            for figure in std::iter::once(&case.model).chain(&case.beside) {
                if is_money(&figure.unit) {
                    assert!(matches!(figure.decimals, 0 | 2), "{}", case.story);
                }
            }
        }
        assert_eq!(decimals_of(3.8, "$/GPU-hour"), 2);
        assert_eq!(decimals_of(47_000.0, "$/month"), 0);
        assert_eq!(decimals_of(3.8, "×"), 1);
        let mut ranged = cases()[0].clone();
        ranged.claim.value = Some(10.0);
        ranged.claim.up_to = Some(15.0);
        ranged.claim.unit = "min".into();
        assert_eq!(ranged.claim_text(), "10–15 min");
        ranged.claim.unit = "%".into();
        assert_eq!(ranged.claim_text(), "10–15 %");
    }

    #[test]
    fn every_why_names_its_figures_through_placeholders_only() {
        for case in cases() {
            let why = case.why_text();
            assert!(
                !why.contains("{model}") && !why.contains("{beside}"),
                "{}",
                case.story
            );
            assert!(
                case.beside.is_some() || !case.difference.contains("{beside}"),
                "{}",
                case.story
            );
        }
    }

    #[test]
    fn every_case_file_reads() {
        for text in FILES {
            let case: Result<Case, _> = serde_json::from_str(text);
            assert!(case.is_ok(), "{:?}", case.err());
        }
        assert_eq!(cases().len(), FILES.len());
    }

    #[test]
    fn figures_read_as_the_page_shows_them() {
        assert_eq!(figure_text(3.8, "$/GPU-hour", 2), "$3.80/GPU-hour");
        assert_eq!(figure_text(31.0, "%", 0), "31 %");
        assert_eq!(figure_text(9_500.0, "$/month", 0), "$9,500/month");
        assert_eq!(figure_text(1_234_567.891, "h", 1), "1,234,567.9 h");
        assert_eq!(figure_text(-12.3, "%", 1), "−12.3 %");
        assert_eq!(decimals_of(3.8, "%"), 1);
        assert_eq!(decimals_of(31.0, "%"), 0);
    }

    /// A report with two platforms, a payback view and one job class, numbers chosen to be
    /// worked by hand.
    fn hand_report() -> Value {
        let mut a = serde_json::json!({
            "name": "A",
            "turnaround_inflation": { "mean": 4.5 },
            "useful_gpu_hours": { "mean": 100.0 },
            "jobs_failed": { "mean": 10.0 },
            "breakdown_usd": {},
        });
        for c in Category::ALL {
            a["breakdown_usd"][c.key()] = 0.0.into();
        }
        a["breakdown_usd"]["useful_compute"] = 300.0.into();
        a["breakdown_usd"]["failed_attempts"] = 90.0.into();
        let mut b = a.clone();
        b["name"] = "B".into();
        b["turnaround_inflation"]["mean"] = 1.5.into();
        serde_json::json!({
            "platforms": [a, b],
            "payback": { "platforms": [
                { "name": "A", "breakeven_month": null },
                { "name": "B", "breakeven_month": 2.0 },
            ] },
            "scenario": { "job_classes": [{
                "name": "Experiment",
                "gpus_per_job": 2,
                "duration": { "kind": "fixed", "hours": 0.5 },
            }] },
        })
    }

    #[test]
    fn a_ratio_divides_one_platforms_field_by_the_others() {
        let m = Metric::Ratio {
            platform: "A".into(),
            against: "B".into(),
            field: "turnaround_inflation".into(),
        };
        // 4.5 ÷ 1.5.
        assert!((m.of(&hand_report()).unwrap() - 3.0).abs() < 1e-12);
    }

    #[test]
    fn payback_weeks_are_the_breakeven_month_in_weeks() {
        let m = Metric::PaybackWeeks {
            platform: "B".into(),
        };
        // 2 months of 730 hours are 1,460 hours, 8.690476 weeks of 168.
        let weeks = m.of(&hand_report()).unwrap();
        assert!((weeks - 1_460.0 / 168.0).abs() < 1e-12, "{weeks}");
        assert!((weeks - 8.690_476).abs() < 1e-6);
        let never = Metric::PaybackWeeks {
            platform: "A".into(),
        };
        assert!(never.of(&hand_report()).is_err());
    }

    #[test]
    fn failure_burn_is_a_failed_jobs_dollars_over_a_nominal_runs() {
        let m = Metric::FailureBurn {
            platform: "A".into(),
            class: "Experiment".into(),
        };
        // $300 for 100 useful GPU-hours: $3 a GPU-hour. A job: 2 GPUs × 0.5 h = 1 GPU-hour,
        // $3. Failed: $90 over 10 jobs, $9 each: 3 times a successful run.
        assert!((m.of(&hand_report()).unwrap() - 3.0).abs() < 1e-12);
        let missing = Metric::FailureBurn {
            platform: "A".into(),
            class: "Retrain".into(),
        };
        assert!(missing.of(&hand_report()).is_err());
    }
}
