//! The outputs of MODEL.md, as one table: each platform-level metric's key, label, unit, doc,
//! when it applies, how one replication measures it, how a card shows it and whether a verdict
//! can rank by it.
//!
//! The table drives the report's JSON and CSV and its schema
//! ([`crate::model::platform_result::PlatformResult`]), the cards' `data-metric` hooks, labels
//! and help, the verdict and the decision map ([`crate::workbench::verdict::VerdictMetric`]),
//! and the paired comparisons. The declaration order is the order of the JSON report, the CSV
//! and the cards. A new metric is one row in `outputs!` below plus how it is measured (a figure of
//! [`PlatformOutcome`]).
//!
//! The breakdown (see [`crate::model::cost_category`]) and the services', teams' and
//! pipelines' figures have tables of their own.

use crate::format::{percent, trim_number, usd, usd_cents, wait};
use crate::model::cost_category::Category;
use crate::model::monte_carlo::PlatformResult;
use crate::model::scenario::{Platform, Scenario};
use crate::model::serving::platform::shares_training_nodes;
use crate::model::sim::PlatformOutcome;
use crate::model::stats::Summary;
use std::ops::{Index, IndexMut};

/// What an output counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// USD per 730-hour month.
    UsdPerMonth,
    /// USD per unit of work ("useful GPU-hour", "successful job"), shown to the cent.
    UsdPer(&'static str),
    /// A share, 0–1, shown as a percentage.
    Share,
    /// Minutes, shown in the unit that reads best.
    Minutes,
    /// Reference-GPU-hours.
    GpuHours,
    /// A count per replication (its mean may be fractional).
    Count,
    /// A ratio (1 = none).
    Ratio,
}

impl Unit {
    /// `value` as a card shows it.
    pub fn text(self, value: f64) -> String {
        match self {
            Unit::UsdPerMonth => usd(value),
            Unit::UsdPer(_) => usd_cents(value),
            Unit::Share => percent(value),
            Unit::Minutes => wait(value),
            Unit::Ratio => format!("×{value:.2}"),
            // A mean count to one decimal; a rare one (a few hundredths a month) as such
            // rather than rounded to 0.
            Unit::GpuHours | Unit::Count if value > 0.0 && value < 0.1 => format!("{value:.2}"),
            Unit::GpuHours | Unit::Count => trim_number((value * 10.0).round() / 10.0),
        }
    }

    /// Its name in words, as the CSV's `unit` column gives it ("USD per month", "USD per
    /// useful GPU-hour"); the reference GPU is named by the caller, who knows it.
    pub fn name(self) -> String {
        match self {
            Unit::UsdPerMonth => "USD per month".into(),
            Unit::UsdPer(what) => format!("USD per {what}"),
            Unit::Share => "share (0-1)".into(),
            Unit::Minutes => "minutes".into(),
            Unit::GpuHours => "GPU-hours".into(),
            Unit::Count => "count".into(),
            Unit::Ratio => "ratio".into(),
        }
    }
}

/// Where a platform's result has an output.
#[derive(Debug, Clone, Copy)]
pub enum Presence {
    /// On every platform (zeros when no replication finished).
    Always,
    /// Where at least one replication measured it (written as `null` where none did: nothing
    /// useful ran, no job finished).
    WhereMeasured,
    /// Only where the scenario and the platform can produce it (left out of the report
    /// elsewhere).
    Where(fn(&Scenario, &Platform) -> bool),
    /// Only where the scenario and the platform can produce it and at least one replication
    /// measured it (left out of the report elsewhere: a platform that answered no request).
    MeasuredWhere(fn(&Scenario, &Platform) -> bool),
}

/// The statistic a card shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stat {
    /// The mean over replications.
    Mean,
    /// The median over replications.
    P50,
}

impl Stat {
    /// Its key in a card's `data-metric` (`<output>.<stat>`).
    pub fn key(self) -> &'static str {
        match self {
            Stat::Mean => "mean",
            Stat::P50 => "p50",
        }
    }

    /// Its value in `summary`.
    pub fn of(self, summary: &Summary) -> f64 {
        match self {
            Stat::Mean => summary.mean,
            Stat::P50 => summary.p50,
        }
    }
}

/// Where on a platform's card an output shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// The headline numbers.
    Headline,
    /// The second row, beyond the headline numbers.
    Details,
}

/// How a platform's card shows an output.
#[derive(Debug, Clone, Copy)]
pub struct Card {
    /// Where.
    pub section: Section,
    /// Which statistic.
    pub stat: Stat,
    /// Its label there.
    pub label: &'static str,
    /// Its tooltip: what it counts.
    pub help: &'static str,
    /// A figure about jobs, left off a scenario that only serves.
    pub jobs_only: bool,
}

/// How a verdict ranks the platforms by an output, and the paired comparison of it.
#[derive(Debug, Clone, Copy)]
pub struct Ranking {
    /// Its key in a link (`map=…,<key>`) and in the page's choice.
    pub key: &'static str,
    /// "per useful GPU-hour", as the verdict says it after "costs least".
    pub phrase: &'static str,
    /// The paired comparison's share in the report (`a_cheaper_share`).
    pub paired_key: &'static str,
    /// What that share is (the report's schema).
    pub paired_doc: &'static str,
    /// The CSV's metric of that share, before the other platform's name (`cheaper_than`).
    pub csv_key: &'static str,
    /// What a platform without a value did, as the verdict says it ("did no useful work").
    pub missing: &'static str,
    /// What the paired comparisons on the page say A has the lower of ("monthly TCO").
    pub lower_what: &'static str,
    /// The same metric on the cloud bill alone (ops people left out), which the verdict
    /// compares to say when people decide the winner.
    pub on_cloud_bill: Option<Output>,
}

/// An output's row in the table.
#[derive(Debug)]
pub struct OutputRow {
    /// Its key in the JSON report, the CSV and the cards' `data-metric`.
    pub key: &'static str,
    /// What it is (the report's schema): its doc lines.
    doc: &'static [&'static str],
    /// Its name in a choice (the verdict's).
    pub label: &'static str,
    /// What it counts in.
    pub unit: Unit,
    /// Where a platform's result has it.
    pub presence: Presence,
    /// Its value in one replication; `None` where that replication cannot have one.
    pub measure: fn(&PlatformOutcome) -> Option<f64>,
    /// How a platform's card shows it, if it does.
    pub card: Option<Card>,
    /// How a verdict ranks by it, if one can.
    pub ranking: Option<Ranking>,
}

/// Whether every service of `scenario` is an LLM (and it has one).
pub fn serves_llms_only(scenario: &Scenario) -> bool {
    !scenario.services.is_empty() && scenario.services.iter().all(|s| s.llm.is_some())
}

/// The cloud bill's part of `per_unit`, a cost of the whole TCO per unit of work: the TCO's
/// share that is not ops people (exact where there are none).
fn cloud_bill_share(o: &PlatformOutcome, per_unit: Option<f64>) -> Option<f64> {
    let people = o.breakdown_usd[Category::OpsPeople];
    per_unit.map(|per_unit| {
        if o.monthly_tco_usd > 0.0 {
            per_unit * (1.0 - people / o.monthly_tco_usd)
        } else {
            0.0
        }
    })
}

/// The table: an enum variant and accessor per row, the doc comment its description.
macro_rules! outputs {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident => $key:ident: $presence:ident $(($condition:expr))? {
            $($field:ident: $value:expr),* $(,)?
        }
    )*) => {
        /// A platform-level output (one row of the table).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Output {
            $($(#[doc = $doc])* $variant,)*
        }

        /// Number of outputs.
        pub const OUTPUT_COUNT: usize = [$(stringify!($variant)),*].len();

        static ROWS: [OutputRow; OUTPUT_COUNT] = [$(
            OutputRow {
                key: stringify!($key),
                doc: &[$($doc),*],
                presence: outputs!(@presence $presence $(($condition))?),
                $($field: $value,)*
            },
        )*];

        impl Output {
            /// Every output, in the report's order.
            pub const ALL: [Output; OUTPUT_COUNT] = [$(Output::$variant),*];
        }

        /// Each output by name (the table's accessors).
        impl PlatformResult {
            $(outputs!(@accessor $presence, $key, $variant, $($doc)*);)*
        }
    };
    (@presence Always) => { Presence::Always };
    (@presence WhereMeasured) => { Presence::WhereMeasured };
    (@presence Where($condition:expr)) => { Presence::Where($condition) };
    (@presence MeasuredWhere($condition:expr)) => { Presence::MeasuredWhere($condition) };
    (@accessor Always, $key:ident, $variant:ident, $($doc:literal)*) => {
        $(#[doc = $doc])*
        pub fn $key(&self) -> Summary {
            self.get(Output::$variant).unwrap_or(Summary::ZERO)
        }
    };
    (@accessor $presence:ident, $key:ident, $variant:ident, $($doc:literal)*) => {
        $(#[doc = $doc])*
        pub fn $key(&self) -> Option<Summary> {
            self.get(Output::$variant)
        }
    };
}

outputs! {
    /// Monthly total cost of ownership, USD.
    MonthlyTcoUsd => monthly_tco_usd: Always {
        label: "Monthly TCO",
        unit: Unit::UsdPerMonth,
        measure: |o| Some(o.monthly_tco_usd),
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::P50,
            label: "Monthly TCO (median)",
            help: "Total cost of ownership per 730-hour month: compute, fees, egress, storage, people and tools; median over replications with the 5th–95th percentile range.",
            jobs_only: false,
        }),
        ranking: Some(Ranking {
            key: "tco",
            phrase: "in monthly TCO",
            paired_key: "a_cheaper_share",
            paired_doc: "Share (0–1) of replications in which A's monthly TCO is below B's.",
            csv_key: "cheaper_than",
            missing: "had no cost",
            lower_what: "monthly TCO",
            on_cloud_bill: Some(Output::CloudBillUsd),
        }),
    }
    /// The cloud bill, USD per month: every cost category but ops people (compute, fees,
    /// egress, storage, tools and add-on licences). Per replication, it and `people_usd` sum to
    /// the monthly TCO.
    CloudBillUsd => cloud_bill_usd: Always {
        label: "Cloud bill",
        unit: Unit::UsdPerMonth,
        measure: |o| {
            Some(
                o.breakdown_usd
                    .iter()
                    .filter(|(category, _)| *category != Category::OpsPeople)
                    .map(|(_, usd)| usd)
                    .sum(),
            )
        },
        card: Some(Card {
            section: Section::Details,
            stat: Stat::P50,
            label: "Cloud bill",
            help: "Everything but ops people, per 730-hour month: compute, fees, egress, storage, tools and licences; median over replications.",
            jobs_only: false,
        }),
        ranking: Some(Ranking {
            key: "bill",
            phrase: "in monthly cloud bill, ops people left out",
            paired_key: "a_lower_cloud_bill_usd_share",
            paired_doc: "Share (0–1) of replications in which A's cloud bill (ops people left out) is below B's.",
            csv_key: "lower_cloud_bill_usd_than",
            missing: "had no cost",
            lower_what: "cloud bill",
            on_cloud_bill: None,
        }),
    }
    /// Ops people, USD per month: each platform's ops FTE share at the scenario's FTE cost.
    PeopleUsd => people_usd: Always {
        label: "Ops people",
        unit: Unit::UsdPerMonth,
        measure: |o| Some(o.breakdown_usd[Category::OpsPeople]),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::P50,
            label: "Ops people",
            help: "The platform's ops FTE share × the FTE cost, per month: in the TCO, not in the cloud bill; median over replications.",
            jobs_only: false,
        }),
        ranking: None,
    }
    /// USD per useful reference-GPU-hour; `None` when no replication did useful work.
    UsdPerUsefulGpuHour => usd_per_useful_gpu_hour: WhereMeasured {
        label: "$ per useful GPU-hour",
        unit: Unit::UsdPer("useful GPU-hour"),
        measure: |o| o.usd_per_useful_gpu_hour,
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::P50,
            label: "$ per useful GPU-hour",
            help: "Total cost ÷ useful reference-GPU-hours (work kept, measured on the reference GPU); n/a when nothing useful ran.",
            jobs_only: false,
        }),
        ranking: Some(Ranking {
            key: "useful",
            phrase: "per useful GPU-hour",
            paired_key: "a_lower_usd_per_useful_gpu_hour_share",
            paired_doc: "Share (0–1) of replications in which A's USD per useful GPU-hour is below B's. A\nplatform that did no useful work in a replication has no such cost there and loses to\none that did (it is lower than neither when neither did).",
            csv_key: "lower_usd_per_useful_gpu_hour_than",
            missing: "did no useful work",
            lower_what: "cost per useful GPU-hour",
            on_cloud_bill: Some(Output::CloudBillUsdPerUsefulGpuHour),
        }),
    }
    /// The cloud bill alone per useful reference-GPU-hour, USD (ops people left out); `None`
    /// when no replication did useful work.
    CloudBillUsdPerUsefulGpuHour => cloud_bill_usd_per_useful_gpu_hour: WhereMeasured {
        label: "Cloud bill per useful GPU-hour",
        unit: Unit::UsdPer("useful GPU-hour"),
        measure: |o| cloud_bill_share(o, o.usd_per_useful_gpu_hour),
        card: None,
        ranking: Some(Ranking {
            key: "useful-bill",
            phrase: "per useful GPU-hour on the cloud bill alone, ops people left out",
            paired_key: "a_lower_cloud_bill_usd_per_useful_gpu_hour_share",
            paired_doc: "Share (0–1) of replications in which A's cloud bill per useful GPU-hour (ops people left\nout) is below B's; one that did no useful work loses to one that did.",
            csv_key: "lower_cloud_bill_usd_per_useful_gpu_hour_than",
            missing: "did no useful work",
            lower_what: "cloud bill per useful GPU-hour",
            on_cloud_bill: None,
        }),
    }
    /// USD per successful job; `None` when no job finished.
    UsdPerSuccessfulJob => usd_per_successful_job: WhereMeasured {
        label: "$ per successful job",
        unit: Unit::UsdPer("successful job"),
        measure: |o| o.usd_per_successful_job,
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::P50,
            label: "$ per successful job",
            help: "Total cost ÷ jobs finished in the horizon.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// USD per million requests answered over the scenario's services: the total cost ÷ the
    /// requests neither dropped nor still queued at the horizon × 10⁶; only where the
    /// scenario has services and a replication answered a request.
    UsdPerMillionRequests => usd_per_million_requests: MeasuredWhere(|scenario, _| !scenario.services.is_empty()) {
        label: "$ per million requests",
        unit: Unit::UsdPer("million requests"),
        measure: |o| o.usd_per_million_requests,
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::P50,
            label: "$ per million requests",
            help: "Total cost ÷ requests answered (neither dropped nor still queued at the end), per million, over every service; n/a when none was answered.",
            jobs_only: false,
        }),
        ranking: Some(Ranking {
            key: "requests",
            phrase: "per million requests",
            paired_key: "a_lower_usd_per_million_requests_share",
            paired_doc: "Share (0–1) of replications in which A's USD per million requests answered is below\nB's (only where the scenario has services). A platform that answered no request in a\nreplication has no such cost there and loses to one that did.",
            csv_key: "lower_usd_per_million_requests_than",
            missing: "answered no request",
            lower_what: "cost per million requests",
            on_cloud_bill: Some(Output::CloudBillUsdPerMillionRequests),
        }),
    }
    /// USD per million output tokens served where every service is an LLM: the total cost ÷
    /// the output tokens of the requests answered × 10⁶.
    UsdPerMillionOutputTokens => usd_per_million_output_tokens: MeasuredWhere(|scenario, _| serves_llms_only(scenario)) {
        label: "$ per million output tokens",
        unit: Unit::UsdPer("million output tokens"),
        measure: |o| o.usd_per_million_output_tokens,
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::P50,
            label: "$ per million output tokens",
            help: "Total cost ÷ output tokens of the requests answered, per million, where every service is an LLM; n/a when none was answered.",
            jobs_only: false,
        }),
        ranking: Some(Ranking {
            key: "tokens",
            phrase: "per million output tokens",
            paired_key: "a_lower_usd_per_million_output_tokens_share",
            paired_doc: "Share (0–1) of replications in which A's USD per million output tokens is below B's\n(only where every service is an LLM). A platform that answered no request in a\nreplication has no such cost there and loses to one that did.",
            csv_key: "lower_usd_per_million_output_tokens_than",
            missing: "answered no request",
            lower_what: "cost per million output tokens",
            on_cloud_bill: Some(Output::CloudBillUsdPerMillionOutputTokens),
        }),
    }
    /// The cloud bill alone per million output tokens, USD (ops people left out); only where
    /// `usd_per_million_output_tokens` is.
    CloudBillUsdPerMillionOutputTokens => cloud_bill_usd_per_million_output_tokens: MeasuredWhere(|scenario, _| serves_llms_only(scenario)) {
        label: "Cloud bill per million output tokens",
        unit: Unit::UsdPer("million output tokens"),
        measure: |o| cloud_bill_share(o, o.usd_per_million_output_tokens),
        card: None,
        ranking: Some(Ranking {
            key: "tokens-bill",
            phrase: "per million output tokens on the cloud bill alone, ops people left out",
            paired_key: "a_lower_cloud_bill_usd_per_million_output_tokens_share",
            paired_doc: "Share (0–1) of replications in which A's cloud bill per million output tokens (ops\npeople left out) is below B's (only where every service is an LLM).",
            csv_key: "lower_cloud_bill_usd_per_million_output_tokens_than",
            missing: "answered no request",
            lower_what: "cloud bill per million output tokens",
            on_cloud_bill: None,
        }),
    }
    /// The cloud bill alone per million requests answered, USD (ops people left out); only
    /// where `usd_per_million_requests` is.
    CloudBillUsdPerMillionRequests => cloud_bill_usd_per_million_requests: MeasuredWhere(|scenario, _| !scenario.services.is_empty()) {
        label: "Cloud bill per million requests",
        unit: Unit::UsdPer("million requests"),
        measure: |o| cloud_bill_share(o, o.usd_per_million_requests),
        card: None,
        ranking: Some(Ranking {
            key: "requests-bill",
            phrase: "per million requests on the cloud bill alone, ops people left out",
            paired_key: "a_lower_cloud_bill_usd_per_million_requests_share",
            paired_doc: "Share (0–1) of replications in which A's cloud bill per million requests answered (ops\npeople left out) is below B's (only where the scenario has services).",
            csv_key: "lower_cloud_bill_usd_per_million_requests_than",
            missing: "answered no request",
            lower_what: "cloud bill per million requests",
            on_cloud_bill: None,
        }),
    }
    /// USD per completed pipeline run: the total cost ÷ the runs of every pipeline that
    /// completed; only where the scenario has pipelines and a replication completed a run.
    UsdPerCompletedRun => usd_per_completed_run: MeasuredWhere(|scenario, _| !scenario.pipelines.is_empty()) {
        label: "$ per completed pipeline run",
        unit: Unit::UsdPer("completed pipeline run"),
        measure: |o| o.usd_per_completed_run,
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::P50,
            label: "$ per completed run",
            help: "Total cost ÷ pipeline runs completed in the horizon, over every pipeline; n/a when none completed.",
            jobs_only: false,
        }),
        ranking: Some(Ranking {
            key: "runs",
            phrase: "per completed pipeline run",
            paired_key: "a_lower_usd_per_completed_run_share",
            paired_doc: "Share (0–1) of replications in which A's USD per completed pipeline run is below B's\n(only where the scenario has pipelines). A platform that completed no run in a\nreplication has no such cost there and loses to one that did.",
            csv_key: "lower_usd_per_completed_run_than",
            missing: "completed no pipeline run",
            lower_what: "cost per completed pipeline run",
            on_cloud_bill: Some(Output::CloudBillUsdPerCompletedRun),
        }),
    }
    /// The cloud bill alone per completed pipeline run, USD (ops people left out); only where
    /// `usd_per_completed_run` is.
    CloudBillUsdPerCompletedRun => cloud_bill_usd_per_completed_run: MeasuredWhere(|scenario, _| !scenario.pipelines.is_empty()) {
        label: "Cloud bill per completed pipeline run",
        unit: Unit::UsdPer("completed pipeline run"),
        measure: |o| cloud_bill_share(o, o.usd_per_completed_run),
        card: None,
        ranking: Some(Ranking {
            key: "runs-bill",
            phrase: "per completed pipeline run on the cloud bill alone, ops people left out",
            paired_key: "a_lower_cloud_bill_usd_per_completed_run_share",
            paired_doc: "Share (0–1) of replications in which A's cloud bill per completed pipeline run (ops\npeople left out) is below B's (only where the scenario has pipelines).",
            csv_key: "lower_cloud_bill_usd_per_completed_run_than",
            missing: "completed no pipeline run",
            lower_what: "cloud bill per completed pipeline run",
            on_cloud_bill: None,
        }),
    }
    /// GPU utilization (useful ÷ paid GPU-time).
    Utilization => utilization: Where(|_, platform| platform.runs_nodes()) {
        label: "GPU utilization",
        unit: Unit::Share,
        measure: |o| Some(o.utilization),
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::Mean,
            label: "GPU utilization",
            help: "Useful GPU-time ÷ paid GPU-time (the output; not the offered-load slider).",
            jobs_only: false,
        }),
        ranking: None,
    }
    /// Useful work done within the horizon, reference-GPU-hours per replication (compute
    /// that counted: not redone after an interruption, not spent on a failed attempt).
    UsefulGpuHours => useful_gpu_hours: Always {
        label: "Useful GPU-hours",
        unit: Unit::GpuHours,
        measure: |o| Some(o.useful_reference_gpu_hours),
        card: None,
        ranking: None,
    }
    /// Per-replication median queue wait, minutes.
    QueueWaitP50Min => queue_wait_p50_min: Always {
        label: "Queue wait p50",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_p50_s / 60.0),
        card: None,
        ranking: None,
    }
    /// Per-replication 95th-percentile queue wait, minutes.
    QueueWaitP95Min => queue_wait_p95_min: Always {
        label: "Queue wait p95",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_p95_s / 60.0),
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::Mean,
            label: "Queue wait p95",
            help: "From submission to the start of useful compute, including capacity wait, provisioning and image pull; 95th percentile per replication, averaged. Jobs still queued at the end of the horizon count their wait up to it.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// Mean queue wait per replication, minutes. Every submitted job counts; one that has not
    /// started computing by the horizon counts its wait up to it (a lower bound).
    QueueWaitMeanMin => queue_wait_mean_min: Always {
        label: "Queue wait, mean",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_mean_s / 60.0),
        card: None,
        ranking: None,
    }
    /// Part of the mean queue wait spent waiting for a slot or for nodes, minutes.
    QueueWaitForNodesMin => queue_wait_for_nodes_min: Always {
        label: "Waiting for nodes",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_for_nodes_mean_s / 60.0),
        card: None,
        ranking: None,
    }
    /// Part of the mean queue wait spent pulling images, minutes.
    QueueWaitImagePullMin => queue_wait_image_pull_min: Always {
        label: "Pulling images",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_image_pull_mean_s / 60.0),
        card: None,
        ranking: None,
    }
    /// Part of the mean queue wait spent reading data before the first compute, minutes
    /// (only where the platform stages data).
    QueueWaitStagingMin => queue_wait_staging_min: Where(|_, platform| platform.staging.stages()) {
        label: "Staging data",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_staging_mean_s / 60.0),
        card: None,
        ranking: None,
    }
    /// Of the part waiting for nodes: waiting for capacity (nodes requested, GPUs not yet
    /// available), minutes.
    QueueWaitCapacityMin => queue_wait_capacity_min: Always {
        label: "Waiting for capacity",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_capacity_mean_s / 60.0),
        card: None,
        ranking: None,
    }
    /// Of the part waiting for nodes: node provisioning, minutes.
    QueueWaitProvisioningMin => queue_wait_provisioning_min: Always {
        label: "Provisioning",
        unit: Unit::Minutes,
        measure: |o| Some(o.queue_wait_provisioning_mean_s / 60.0),
        card: None,
        ranking: None,
    }
    /// Jobs finished per replication.
    JobsCompleted => jobs_completed: Always {
        label: "Jobs finished",
        unit: Unit::Count,
        measure: |o| Some(o.jobs_completed as f64),
        card: None,
        ranking: None,
    }
    /// Jobs given up per replication.
    JobsFailed => jobs_failed: Always {
        label: "Failed jobs",
        unit: Unit::Count,
        measure: |o| Some(o.jobs_failed as f64),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Failed jobs",
            help: "Jobs given up after their last retry over the horizon; mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// Jobs still queued (or waiting for nodes) at the horizon, per replication.
    JobsWaiting => jobs_waiting: Always {
        label: "Waiting at the end",
        unit: Unit::Count,
        measure: |o| Some(o.jobs_waiting as f64),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Waiting at the end",
            help: "Jobs still queued or waiting for nodes when the horizon ends (a backlog); mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// Spot interruptions per replication.
    Interruptions => interruptions: Always {
        label: "Spot interruptions",
        unit: Unit::Count,
        measure: |o| Some(o.interruptions as f64),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Spot interruptions",
            help: "Spot interruptions that hit a node over the horizon; mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// Peak nodes per replication.
    PeakNodes => peak_nodes: Always {
        label: "Peak nodes",
        unit: Unit::Count,
        measure: |o| Some(o.peak_nodes as f64),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Peak nodes",
            help: "Most nodes up or being provisioned at once (the training simulation's: services' replicas count only where they share the training nodes); mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// Turnaround inflation (wall time ÷ nominal run time), per replication mean over its
    /// finished jobs; `None` when no job finished.
    TurnaroundInflation => turnaround_inflation: WhereMeasured {
        label: "Turnaround inflation",
        unit: Unit::Ratio,
        measure: |o| o.turnaround_inflation,
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Turnaround inflation",
            help: "Wall time from first start to finish ÷ the job's nominal run time (restarts, lost work, checkpoints), over the finished jobs; mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// Training jobs evicted, per replication: for a replica where replicas share training's
    /// nodes, or for another team's quota or a higher priority (only where either can
    /// happen).
    Preemptions => preemptions: Where(|scenario, platform| {
        colocated(scenario, platform)
            || !platform.preemption.is_off()
            || platform.preemption.consolidates()
    }) {
        label: "Jobs preempted",
        unit: Unit::Count,
        measure: |o| Some(o.preemptions as f64),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Jobs preempted",
            help: "Training jobs evicted: to make room for a service's replica where replicas share the training nodes (its compute since the last checkpoint is interruption rework), or for another team's quota or a higher priority (preemption rework); mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// Nodes whose hardware failed, per replication (only where a pool's nodes can fail).
    NodeFailures => node_failures: Where(|_, platform| {
        platform.node_pools.iter().any(|p| p.node_failures_per_node_hour > 0.0)
    }) {
        label: "Node failures",
        unit: Unit::Count,
        measure: |o| Some(o.node_failures as f64),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Node failures",
            help: "Nodes whose hardware failed over the horizon (any purchase type): their jobs lost their compute since the last checkpoint (hardware-failure rework) and the nodes were replaced through provisioning; mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// GPU-hours the services asked for on training's nodes and found no GPU for, per
    /// replication (only where replicas share training's nodes).
    ServiceGpuHoursWithoutNode => service_gpu_hours_without_node: Where(colocated) {
        label: "Replica GPU-hours with no node",
        unit: Unit::GpuHours,
        measure: |o| Some(o.service_gpu_hours_without_node),
        card: Some(Card {
            section: Section::Details,
            stat: Stat::Mean,
            label: "Replica GPU-hours with no node",
            help: "GPU-hours the services' replicas asked for on the training nodes and found no GPU for, even by preempting training (the node limit, or every node full of replicas); the services' latency does not show this wait. Mean over replications.",
            jobs_only: true,
        }),
        ranking: None,
    }
    /// The price of waiting, USD per month (`PlatformOutcome::waiting_cost_usd`), beside the
    /// TCO and never in it; only where `people.waiting_usd_per_hour` is set.
    WaitingCostUsd => waiting_cost_usd: Where(|scenario, _| scenario.people.waiting_usd_per_hour > 0.0) {
        label: "Price of waiting",
        unit: Unit::UsdPerMonth,
        measure: |o| Some(o.waiting_cost_usd),
        card: Some(Card {
            section: Section::Headline,
            stat: Stat::Mean,
            label: "Price of waiting (estimate)",
            help: "An estimate of opportunity cost, not in the TCO: each job's queue wait × the people waiting for it × the cost of a person's hour, per month (mean over replications).",
            jobs_only: false,
        }),
        ranking: None,
    }
    /// Requests a hosted API's rate limit refused (HTTP 429, each retry counted), per
    /// replication (only on a hosted API).
    RequestsRefused => requests_refused: Where(|_, platform| platform.hosted_api.is_some()) {
        label: "Requests refused (429)",
        unit: Unit::Count,
        measure: |o| Some(o.services.iter().map(|s| s.requests_refused).sum()),
        // (Each service's card shows its own.)
        card: None,
        ranking: None,
    }
}

/// Where the scenario's services run replicas on this platform's training nodes.
fn colocated(scenario: &Scenario, platform: &Platform) -> bool {
    !scenario.services.is_empty() && shares_training_nodes(platform)
}

impl Output {
    /// Position in [`Output::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Its row.
    pub fn row(self) -> &'static OutputRow {
        &ROWS[self.index()]
    }

    /// Key in the JSON report, the CSV and the cards' `data-metric`.
    pub fn key(self) -> &'static str {
        self.row().key
    }

    /// Its `data-metric` hook on the page for `stat`: `<key>.<stat>`.
    pub fn hook(self, stat: Stat) -> String {
        format!("{}.{}", self.key(), stat.key())
    }

    /// What it is, as the report's schema says (its doc lines joined).
    pub fn doc(self) -> String {
        let lines: Vec<&str> = self.row().doc.iter().map(|line| line.trim()).collect();
        lines.join("\n")
    }

    /// The output with this key.
    pub fn from_key(key: &str) -> Option<Output> {
        Output::ALL.into_iter().find(|o| o.key() == key)
    }

    /// Whether `platform` of `scenario` has it (those [`Presence::WhereMeasured`] may still
    /// have no value).
    pub fn applies(self, scenario: &Scenario, platform: &Platform) -> bool {
        match self.row().presence {
            Presence::Always | Presence::WhereMeasured => true,
            Presence::Where(condition) | Presence::MeasuredWhere(condition) => {
                condition(scenario, platform)
            }
        }
    }

    /// Its summary over replications' outcomes (`outcomes` of one platform, in replication
    /// order): `None` where the platform cannot have it, or (for an output measured where it
    /// can be) where no replication measured it; zeros for the others when there is no
    /// replication.
    pub fn summarise<'a>(
        self,
        scenario: &Scenario,
        platform: &Platform,
        outcomes: impl Iterator<Item = &'a PlatformOutcome>,
    ) -> Option<Summary> {
        if !self.applies(scenario, platform) {
            return None;
        }
        let measure = self.row().measure;
        let values: Vec<f64> = outcomes.filter_map(measure).collect();
        match self.row().presence {
            Presence::WhereMeasured | Presence::MeasuredWhere(_) => Summary::of(&values),
            Presence::Always | Presence::Where(_) => {
                Some(Summary::of(&values).unwrap_or(Summary::ZERO))
            }
        }
    }

    /// Whether A's value is lower than B's in one replication: a platform with no value (no
    /// useful work, say) loses to one that has one, and is lower than neither when neither
    /// has.
    pub fn lower(self, a: &PlatformOutcome, b: &PlatformOutcome) -> bool {
        let measure = self.row().measure;
        match (measure(a), measure(b)) {
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }
}

/// One `T` per [`Output`], indexed by it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerOutput<T>([T; OUTPUT_COUNT]);

/// Each output's default (written out: arrays derive `Default` only up to 32 items).
impl<T: Default> Default for PerOutput<T> {
    fn default() -> Self {
        PerOutput::from_fn(|_| T::default())
    }
}

impl<T> PerOutput<T> {
    /// A value per output from `f`.
    pub fn from_fn(mut f: impl FnMut(Output) -> T) -> PerOutput<T> {
        PerOutput(std::array::from_fn(|i| f(Output::ALL[i])))
    }

    /// Each output with its value, in the table's order.
    pub fn iter(&self) -> impl Iterator<Item = (Output, &T)> + '_ {
        Output::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> Index<Output> for PerOutput<T> {
    type Output = T;
    fn index(&self, output: Output) -> &T {
        &self.0[output.index()]
    }
}

impl<T> IndexMut<Output> for PerOutput<T> {
    fn index_mut(&mut self, output: Output) -> &mut T {
        &mut self.0[output.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_each_output_once_in_declaration_order() {
        for (i, o) in Output::ALL.iter().enumerate() {
            assert_eq!(o.index(), i, "{o:?}");
            assert_eq!(Output::from_key(o.key()), Some(*o));
            assert!(!o.doc().is_empty() && !o.row().label.is_empty(), "{o:?}");
        }
        let rankings: Vec<&str> = Output::ALL
            .iter()
            .filter_map(|o| o.row().ranking.map(|r| r.key))
            .collect();
        let mut unique = rankings.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(rankings.len(), unique.len(), "{rankings:?}");
    }

    /// An output every platform has, or that applies only somewhere, has a value in every
    /// replication (its summary is over all of them); only those measured where they can be
    /// may have none.
    #[test]
    fn only_outputs_measured_where_they_can_be_may_lack_a_value() {
        let scenario = crate::model::fixtures::three_platforms();
        let outcomes = crate::model::monte_carlo::run_replication(&scenario, 0);
        let mut nothing_ran = outcomes[0].clone();
        nothing_ran.usd_per_useful_gpu_hour = None;
        nothing_ran.usd_per_successful_job = None;
        nothing_ran.turnaround_inflation = None;
        for o in outcomes.iter().chain([&nothing_ran]) {
            for output in Output::ALL {
                let row = output.row();
                match row.presence {
                    Presence::WhereMeasured | Presence::MeasuredWhere(_) => {}
                    Presence::Always | Presence::Where(_) => {
                        assert!((row.measure)(o).is_some(), "{output:?}")
                    }
                }
            }
        }
    }

    #[test]
    fn a_count_reads_to_one_decimal_and_a_rare_one_to_two() {
        assert_eq!(Unit::Count.text(3.04), "3");
        assert_eq!(Unit::Count.text(2.46), "2.5");
        assert_eq!(Unit::Count.text(0.04), "0.04");
        assert_eq!(Unit::Count.text(0.0), "0");
        assert_eq!(Unit::Ratio.text(1.234), "×1.23");
    }
}
