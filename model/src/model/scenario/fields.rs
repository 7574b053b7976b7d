//! The field table: one row for every value a user can set in a scenario, with its dotted
//! path, label, unit, range, doc and the source of its default, and how to read and write it.
//!
//! Validation ([`Scenario::validate`]), the page's settings rows, the method panel's sources
//! and the schema's words all follow these rows, so a new field is one row here (plus what the
//! model does with it). Paths are relative to the item that holds them: [`SCENARIO_FIELDS`]
//! to the scenario, [`JOB_CLASS_FIELDS`] to `job_classes.<i>`, [`PLATFORM_FIELDS`] to
//! `platforms.<i>`. The rows are in validation order: the first field out of range is the one
//! reported. A test checks that every leaf of a scenario document has exactly one row.
//!
//! [`Scenario::validate`]: super::Scenario::validate

use super::commitment::{Commitment, Payment};
use super::{
    gpu_sharing, Arrivals, Cloud, Duration, FailureKind, GpuSharing, JobClass, NodePool, Overflow,
    Pipeline, Placement, Platform, Scenario, Service, ServiceSpikes, Serving, SharedCosts,
    TeamPolicy,
};
use crate::model::cloud::CloudFacts;
use crate::model::egress::EgressTiers;
use crate::model::scaling::Interconnect;
use crate::model::scenario::limits;
use crate::model::storage::StorageProduct;
use crate::model::transfer::DataPath;

/// How a field's value is read and written.
pub enum Value<T: 'static> {
    /// A number (a count is a whole number). `get` gives `None` where the item holds no such
    /// value (another variant of a tagged union, an optional field left out).
    Number {
        /// The value, if the item has it.
        get: fn(&T) -> Option<f64>,
        /// Sets it (the page's edit: it may keep a paired field consistent).
        set: fn(&mut T, f64),
    },
    /// A switch.
    Flag {
        /// Whether it is on.
        get: fn(&T) -> bool,
        /// Turns it on or off.
        set: fn(&mut T, bool),
    },
    /// One of a few choices, each (JSON value, label).
    Choice {
        /// The choices.
        choices: &'static [(&'static str, &'static str)],
        /// The JSON value of the current choice.
        get: fn(&T) -> &'static str,
        /// Picks the choice with this JSON value (others are ignored).
        set: fn(&mut T, &str),
    },
    /// A name shown in the page (1 to 64 characters).
    Name {
        /// The name.
        get: fn(&T) -> &str,
    },
    /// An identifier chosen from a list elsewhere (an instance type, a GPU model), not edited
    /// as a value.
    Id {
        /// The identifier.
        get: fn(&T) -> &str,
    },
    /// A list of numbers, each in the field's range (an hour-of-day profile, a quantile
    /// table).
    Numbers {
        /// The list, if the item has one.
        get: fn(&T) -> Option<&[f64]>,
        /// What the list is, and so how long it is and how it is ordered.
        series: Series,
    },
}

/// What a list of numbers is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Series {
    /// 24 weights, one per hour of the day, at least one above 0.
    HourOfDay,
    /// 7 weights, one per day of the week from Monday, at least one above 0.
    DayOfWeek,
    /// 2 to 257 points of a quantile function, ascending.
    Quantiles,
    /// The probabilities of a quantile function's points: ascending from 0 to 1.
    Probabilities,
}

impl<T> Clone for Value<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Value<T> {}

/// Where a field's default comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    /// The user's own value (a name, a workload size).
    None,
    /// The same source on every cloud.
    Same(&'static str),
    /// A source per cloud (prices and notices differ): the cloud's own, from its facts.
    OfCloud(fn(&'static CloudFacts) -> &'static str),
}

impl Source {
    /// The source that applies on `cloud`, if any.
    pub fn on(self, cloud: Cloud) -> Option<&'static str> {
        match self {
            Source::None => None,
            Source::Same(s) => Some(s),
            Source::OfCloud(of) => Some(of(cloud.facts())),
        }
    }
}

/// How the page shows a field.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Control {
    /// A number field in the item's "All settings" (the scenario's: "Simulation settings").
    Setting,
    /// A control of its own in the item's editor (a choice, a switch, a name).
    Own,
    /// Edited through another control (a tagged union's variant fields, through the derived
    /// job-class controls), or not on the page.
    Elsewhere,
}

/// One editable field of a `T` (the scenario, a job class, a platform).
pub struct Field<T: 'static> {
    /// Dotted path inside `T`, as in the JSON document and `--set`.
    pub path: &'static str,
    /// Label in the page (the accessible name of its control).
    pub label: &'static str,
    /// Unit shown after the value ("" for a count).
    pub unit: &'static str,
    /// Smallest valid value.
    pub min: f64,
    /// Largest valid value.
    pub max: f64,
    /// A smallest value set by another field of the item (a 90th percentile is at least its
    /// median), used by validation in place of `min`.
    pub min_from: Option<fn(&T) -> f64>,
    /// A number above 0 but below this is refused, with this as the smallest (a checkpoint
    /// interval: 0 turns checkpoints off, else at least a second).
    pub off_or_at_least: Option<f64>,
    /// What it means.
    pub doc: &'static str,
    /// Where its default comes from, and its date; none where it is the user's own (a name,
    /// a workload size).
    pub source: Source,
    /// How to read and write it.
    pub value: Value<T>,
    /// How the page shows it.
    pub control: Control,
    /// The range of its slider, where the page has one (a knob names the row): what a user
    /// explores, narrower than the range of valid values (`min` to `max`).
    pub slider: Option<SliderRange>,
}

/// The range of a slider, in its row's unit.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SliderRange {
    /// Its smallest value.
    pub min: f64,
    /// Its largest value.
    pub max: f64,
    /// Its step.
    pub step: f64,
}

impl<T> Clone for Field<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Field<T> {}

impl<T> Field<T> {
    const fn number(
        path: &'static str,
        label: &'static str,
        unit: &'static str,
        (min, max): (f64, f64),
        get: fn(&T) -> Option<f64>,
        set: fn(&mut T, f64),
    ) -> Field<T> {
        Field {
            path,
            label,
            unit,
            min,
            max,
            min_from: None,
            off_or_at_least: None,
            doc: "",
            source: Source::None,
            value: Value::Number { get, set },
            control: Control::Setting,
            slider: None,
        }
    }

    const fn other(path: &'static str, label: &'static str, value: Value<T>) -> Field<T> {
        Field {
            path,
            label,
            unit: "",
            min: 0.0,
            max: 0.0,
            min_from: None,
            off_or_at_least: None,
            doc: "",
            source: Source::None,
            value,
            control: Control::Own,
            slider: None,
        }
    }

    const fn doc(mut self, doc: &'static str) -> Field<T> {
        self.doc = doc;
        self
    }

    const fn source(mut self, source: &'static str) -> Field<T> {
        self.source = Source::Same(source);
        self
    }

    const fn source_of_cloud(mut self, of: fn(&'static CloudFacts) -> &'static str) -> Field<T> {
        self.source = Source::OfCloud(of);
        self
    }

    const fn slider(mut self, min: f64, max: f64, step: f64) -> Field<T> {
        self.slider = Some(SliderRange { min, max, step });
        self
    }

    const fn control(mut self, control: Control) -> Field<T> {
        self.control = control;
        self
    }

    /// The number this field holds in `item`, if it holds one.
    pub fn number_in(&self, item: &T) -> Option<f64> {
        match self.value {
            Value::Number { get, .. } => get(item),
            _ => None,
        }
    }
}

/// The row of `path` in `table`.
pub fn field<T>(table: &'static [Field<T>], path: &str) -> Option<&'static Field<T>> {
    table.iter().find(|f| f.path == path)
}

/// A row of a path inside a platform (as `--set` and links write it after `platforms.<i>.`).
#[derive(Clone, Copy)]
pub enum PlatformRow {
    /// A field of the platform itself.
    Platform(&'static Field<Platform>),
    /// A field of one of its pools.
    Pool {
        /// The pool's index.
        pool: usize,
        /// The row.
        row: &'static Field<NodePool>,
    },
}

/// The row `path` (relative to a platform) names: a platform field, or a pool field at
/// `node_pools.<j>.<field>`, or at `<field>`, the path of a platform of the old single-pool
/// shape, an alias for pool 0's.
pub fn platform_row(path: &str) -> Option<PlatformRow> {
    if let Some(row) = field(PLATFORM_FIELDS, path) {
        return Some(PlatformRow::Platform(row));
    }
    let (pool, rest) = match path.strip_prefix("node_pools.") {
        Some(tail) => {
            let (index, rest) = tail.split_once('.')?;
            (index.parse().ok()?, rest)
        }
        None => (0, path),
    };
    field(NODE_POOL_FIELDS, rest).map(|row| PlatformRow::Pool { pool, row })
}

/// Shorthand for a number field with a plain getter.
macro_rules! num {
    ($t:ty; $path:literal, $label:literal, $unit:literal, $range:expr, |$x:ident| $get:expr, |$y:ident, $v:ident| $set:expr) => {
        Field::<$t>::number(
            $path,
            $label,
            $unit,
            $range,
            |$x| Some(f64::from($get)),
            |$y, $v| $set,
        )
    };
}

/// The negotiated discount of the `C`-th cloud of [`Cloud::ALL`]: its path, label and doc
/// from its facts.
const fn discount_row<const C: usize>() -> Field<Scenario> {
    let facts = Cloud::ALL[C].facts();
    Field::<Scenario>::number(
        facts.discount.path,
        facts.discount.label,
        "%",
        (0.0, 90.0),
        |s| Some(s.discounts.pct(Cloud::ALL[C])),
        |s, v| s.discounts.set_pct(Cloud::ALL[C], v),
    )
    .slider(0.0, 90.0, 1.0)
    .doc(facts.discount.doc)
    .control(Control::Elsewhere)
}

/// The clouds as a choice: (id, short label), in [`Cloud::ALL`]'s order.
const CLOUD_CHOICES: &[(&str, &str)] = &{
    let mut out = [("", ""); Cloud::ALL.len()];
    let mut i = 0;
    while i < Cloud::ALL.len() {
        let facts = Cloud::ALL[i].facts();
        out[i] = (facts.id, facts.short);
        i += 1;
    }
    out
};

/// A week of a leap year, in hours: the longest job duration (its median or mean).
const DURATION_MAX_H: f64 = 24.0 * 366.0;

/// Fields of the scenario itself.
pub static SCENARIO_FIELDS: &[Field<Scenario>] = &[
    num!(Scenario; "horizon_days", "Horizon", "days", (1.0 / 24.0, limits::HORIZON_DAYS_MAX),
        |s| s.horizon_days, |s, v| s.horizon_days = v)
    .doc("Simulated time.")
    .control(Control::Setting),
    num!(Scenario; "replications", "Replications", "", (1.0, limits::REPLICATIONS_MAX as f64),
        |s| s.replications, |s, v| s.replications = v as u32)
    .doc("Monte Carlo replications.")
    .control(Control::Setting),
    // Any u64: the check never refuses one (the number shown is rounded past 2^53).
    Field::<Scenario>::number(
        "seed",
        "Seed",
        "",
        (0.0, u64::MAX as f64),
        |s| Some(s.seed as f64),
        |s, v| s.seed = v as u64,
    )
    .doc("Seed of every random stream.")
    .control(Control::Setting),
    num!(Scenario; "reference_gpus", "Reference GPUs", "", (1.0, 1e6),
        |s| s.reference_gpus, |s, v| s.reference_gpus = v as u32)
    .doc("Size of the cluster the team would otherwise reserve, in reference GPUs.")
    .control(Control::Setting),
    Field::<Scenario>::other(
        "reference_gpu",
        "Reference GPU",
        Value::Name {
            get: |s| &s.reference_gpu,
        },
    )
    .doc("GPU model that job durations are measured on.")
    .control(Control::Own),
    // One negotiated discount per cloud, in the order of Cloud::ALL (a test checks).
    discount_row::<0>(),
    discount_row::<1>(),
    num!(Scenario; "people.fte_cost_usd_per_year", "FTE cost", "$/year", (0.0, 5e6),
        |s| s.people.fte_cost_usd_per_year, |s, v| s.people.fte_cost_usd_per_year = v)
    .slider(0.0, 600_000.0, 5_000.0)
    .doc("Loaded annual cost of one full-time engineer.")
    .source("assumption: $200,000, salary plus overhead for a US platform engineer")
    .control(Control::Elsewhere),
    num!(Scenario; "people.waiting_usd_per_hour", "Cost of a person waiting", "$/h", (0.0, 10_000.0),
        |s| s.people.waiting_usd_per_hour, |s, v| s.people.waiting_usd_per_hour = v)
    .doc("What an hour of a person waiting for a job's result costs: an estimate of opportunity cost, reported beside the TCO and never in it; 0 = off.")
    .source("assumption: the user's own (e.g. the FTE cost per working hour, $200,000 / 1,800 h ≈ $111)")
    .control(Control::Elsewhere),
    Field::<Scenario>::other("payback.current", "Compare payback with", Value::Id { get: |s| &s.payback.current })
    .doc("The platform the payback view compares the others with (what runs today); empty: the first.")
    .control(Control::Elsewhere),
    Field::<Scenario>::other("showback.shared_costs", "Shared costs in each team's bill", Value::Choice {
        choices: &[
            ("separate", "Kept apart, as a line of their own"),
            ("by_cost", "Shared pro rata to each team's cost"),
            ("by_gpu_hours", "Shared pro rata to each team's GPU-hours"),
        ],
        get: |s| match s.showback.shared_costs {
            SharedCosts::Separate => "separate",
            SharedCosts::ByCost => "by_cost",
            SharedCosts::ByGpuHours => "by_gpu_hours",
        },
        set: |s, v| match v {
            "separate" => s.showback.shared_costs = SharedCosts::Separate,
            "by_cost" => s.showback.shared_costs = SharedCosts::ByCost,
            "by_gpu_hours" => s.showback.shared_costs = SharedCosts::ByGpuHours,
            _ => {}
        },
    })
    .doc("How idle capacity, node overheads, fees, people, tools, storage and egress enter each team's bill.")
    .source("OpenCost: idle costs kept apart by default, or shared by each tenant's cost (opencost.io docs, Idle costs)")
    .control(Control::Elsewhere),
    Field::<Scenario>::other("data_region", "Where the training data is kept", Value::Choice {
        choices: REGION_CHOICES,
        get: |s| region_choice(&s.data_region),
        set: |s, v| s.data_region = v.to_string(),
    })
    .doc("The region of the bucket the jobs read. Set with a platform's region, its data reads pay the transfer between them (inter-region, or the data cloud's internet egress across clouds, plus a NAT gateway's charge where it reads through one) in place of each class's billed share.")
    .source("AWS inter-region $0.02/GB between US regions, NAT gateway $0.045/GB (2026); Google Cloud inter-region $0.02/GiB within North America (assumption: third-party guides give $0.01–0.02), Cloud NAT $0.045/GiB (2026-10-16); across clouds the first tier of the data cloud's internet egress")
    .control(Control::Elsewhere),
];

/// The storage products jobs may stage data from, (key, label) in the page's order: a test
/// keeps them in step with [`StorageProduct::ALL`].
pub const STORAGE_CHOICES: &[(&str, &str)] = &[
    ("none", "None: reads take no time"),
    ("object_store", "S3 / Cloud Storage read directly"),
    (
        "fsx_lustre_scratch_2",
        "FSx for Lustre Scratch 2, 200 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_125",
        "FSx for Lustre Persistent 2, 125 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_250",
        "FSx for Lustre Persistent 2, 250 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_500",
        "FSx for Lustre Persistent 2, 500 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_1000",
        "FSx for Lustre Persistent 2, 1,000 MB/s per TiB",
    ),
    (
        "fsx_lustre_hdd_12",
        "FSx for Lustre Persistent 1 HDD, 12 MB/s per TiB",
    ),
    (
        "fsx_lustre_hdd_40",
        "FSx for Lustre Persistent 1 HDD, 40 MB/s per TiB",
    ),
    ("efs_elastic", "EFS Standard, Elastic throughput"),
    ("filestore_basic_hdd", "Filestore Basic HDD"),
    ("filestore_basic_ssd", "Filestore Basic SSD"),
    ("filestore_zonal", "Filestore Zonal, 260 MiB/s per TiB"),
];

/// The catalog's regions, and none, as choices ([`crate::model::transfer::regions`] gives
/// the same, tested).
pub const REGION_CHOICES: &[(&str, &str)] = &[
    ("", "Not set"),
    ("us-east-1", "AWS us-east-1 (N. Virginia)"),
    ("us-west-2", "AWS us-west-2 (Oregon)"),
    ("us-central1", "Google Cloud us-central1 (Iowa)"),
    ("us-east4", "Google Cloud us-east4 (N. Virginia)"),
];

/// `region` as one of [`REGION_CHOICES`] ("" for one the catalog lacks, which validation
/// refuses).
fn region_choice(region: &str) -> &'static str {
    REGION_CHOICES
        .iter()
        .find(|(key, _)| *key == region)
        .map_or("", |(key, _)| key)
}

/// An item whose jobs arrive by [`Arrivals`]: a job class, or a pipeline (its runs).
pub trait Arrives {
    /// How its jobs arrive.
    fn arrivals(&self) -> &Arrivals;
    /// How its jobs arrive, to edit.
    fn arrivals_mut(&mut self) -> &mut Arrivals;
}

impl Arrives for JobClass {
    fn arrivals(&self) -> &Arrivals {
        &self.arrivals
    }
    fn arrivals_mut(&mut self) -> &mut Arrivals {
        &mut self.arrivals
    }
}

impl Arrives for Pipeline {
    fn arrivals(&self) -> &Arrivals {
        &self.arrivals
    }
    fn arrivals_mut(&mut self) -> &mut Arrivals {
        &mut self.arrivals
    }
}

fn per_day<T: Arrives>(c: &T) -> Option<f64> {
    match *c.arrivals() {
        Arrivals::Steady { per_day }
        | Arrivals::Poisson { per_day }
        | Arrivals::HourOfDay { per_day, .. } => Some(per_day),
        Arrivals::Bursts { .. } => None,
    }
}

fn set_per_day<T: Arrives>(c: &mut T, v: f64) {
    match c.arrivals_mut() {
        Arrivals::Steady { per_day }
        | Arrivals::Poisson { per_day }
        | Arrivals::HourOfDay { per_day, .. } => *per_day = v,
        Arrivals::Bursts { .. } => {}
    }
}

/// The rows of how an item's jobs arrive (a job class's, a pipeline's runs), in validation
/// order: `arrivals.kind`, `.per_day`, `.bursts_per_day`, `.jobs_per_burst`,
/// `.hourly_weights`, `.weekday_weights`. `what` names what arrives ("Jobs", "Runs").
const fn arrival_rows<T: Arrives>(what: ArrivalWords) -> [Field<T>; 6] {
    [
        Field::<T>::other("arrivals.kind", "Arrivals", Value::Choice {
            choices: &[
                ("poisson", "Poisson (random)"),
                ("steady", "Steady (evenly spaced)"),
                ("bursts", "Bursts of 12"),
                ("hour_of_day", "Poisson by hour of day (from a job history)"),
            ],
            get: |c| match c.arrivals() {
                Arrivals::Steady { .. } => "steady",
                Arrivals::Poisson { .. } => "poisson",
                Arrivals::Bursts { .. } => "bursts",
                Arrivals::HourOfDay { .. } => "hour_of_day",
            },
            set: |c, kind| {
                let next = crate::workbench::edit::arrivals_of_kind(c.arrivals(), kind);
                *c.arrivals_mut() = next;
            },
        })
        .doc(what.kind_doc),
        Field::<T>::number("arrivals.per_day", what.per_day_label, "/day", (0.0, 1e6), per_day, set_per_day)
            .doc(what.per_day_doc).control(Control::Elsewhere),
        Field::<T>::number("arrivals.bursts_per_day", "Bursts per day", "/day", (0.0, 1e5),
            |c| match c.arrivals() { Arrivals::Bursts { bursts_per_day, .. } => Some(*bursts_per_day), _ => None },
            |c, v| if let Arrivals::Bursts { bursts_per_day, .. } = c.arrivals_mut() { *bursts_per_day = v })
            .doc("Mean bursts a day.").control(Control::Elsewhere),
        Field::<T>::number("arrivals.jobs_per_burst", what.per_burst_label, "", (1.0, 1e4),
            |c| match c.arrivals() { Arrivals::Bursts { jobs_per_burst, .. } => Some(f64::from(*jobs_per_burst)), _ => None },
            |c, v| if let Arrivals::Bursts { jobs_per_burst, .. } = c.arrivals_mut() { *jobs_per_burst = v as u32 })
            .doc(what.per_burst_doc).control(Control::Elsewhere),
        Field {
            min: 0.0,
            max: 1e6,
            ..Field::<T>::other("arrivals.hourly_weights", "Hour-of-day weights", Value::Numbers {
                get: |c| match c.arrivals() { Arrivals::HourOfDay { hourly_weights, .. } => Some(hourly_weights.as_slice()), _ => None },
                series: Series::HourOfDay,
            })
        }
        .doc("24 non-negative weights, one per hour of the day; only their ratios matter.")
        .source("fitted from a job history")
        .control(Control::Elsewhere),
        Field {
            min: 0.0,
            max: 1e6,
            ..Field::<T>::other("arrivals.weekday_weights", "Day-of-week weights", Value::Numbers {
                get: |c| match c.arrivals() { Arrivals::HourOfDay { weekday_weights, .. } => weekday_weights.as_deref(), _ => None },
                series: Series::DayOfWeek,
            })
        }
        .doc("7 non-negative weights, Monday first (the horizon starts on a Monday); only their ratios matter. Absent: every day alike.")
        .source("fitted from a job history")
        .control(Control::Elsewhere),
    ]
}

/// The words of [`arrival_rows`] for what arrives.
#[derive(Clone, Copy)]
struct ArrivalWords {
    kind_doc: &'static str,
    per_day_label: &'static str,
    per_day_doc: &'static str,
    per_burst_label: &'static str,
    per_burst_doc: &'static str,
}

/// A job class's arrival rows.
const CLASS_ARRIVALS: [Field<JobClass>; 6] = arrival_rows(ArrivalWords {
    kind_doc: "How jobs of the class arrive.",
    per_day_label: "Jobs per day",
    per_day_doc: "Jobs a day (mean, for random arrivals).",
    per_burst_label: "Jobs per burst",
    per_burst_doc: "Jobs each burst submits at once.",
});

/// A pipeline's arrival rows (its runs).
const PIPELINE_ARRIVALS: [Field<Pipeline>; 6] = arrival_rows(ArrivalWords {
    kind_doc: "How runs of the pipeline arrive (each run submits its first stages).",
    per_day_label: "Runs a day",
    per_day_doc: "Runs a day (mean, for random arrivals).",
    per_burst_label: "Runs per burst",
    per_burst_doc: "Runs each burst starts at once.",
});

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

/// Fields of a pipeline (relative to `pipelines.<i>`); its stages are job classes
/// ([`JOB_CLASS_FIELDS`] at `pipelines.<i>.stages.<j>`) without arrivals of their own.
pub static PIPELINE_FIELDS: &[Field<Pipeline>] = &[
    Field::<Pipeline>::other("name", "Name", Value::Name { get: |p| &p.name }).doc("Name shown in the page."),
    PIPELINE_ARRIVALS[0],
    PIPELINE_ARRIVALS[1],
    PIPELINE_ARRIVALS[2],
    PIPELINE_ARRIVALS[3],
    PIPELINE_ARRIVALS[4],
    PIPELINE_ARRIVALS[5],
    num!(Pipeline; "people_blocked_per_job", "People waiting per run", "", (0.0, 1_000.0),
        |p| p.people_blocked_per_job, |p, v| p.people_blocked_per_job = v)
        .doc("How many people wait for a run's result: the time a run loses to its stages' queue waits costs each of them the cost of a person waiting (when that is on).")
        .control(Control::Elsewhere),
];

/// Fields of a platform.
pub static PLATFORM_FIELDS: &[Field<Platform>] = &[
    Field::<Platform>::other("name", "Name", Value::Name { get: |p| &p.name })
        .doc("Unique name, shown in the page and used as the key in the CLI output."),
    Field::<Platform>::other("profile", "Profile", Value::Id { get: |p| p.profile.as_str() })
        .doc("The profile its defaults came from.").control(Control::Elsewhere),
    Field::<Platform>::other("cloud", "Cloud", Value::Choice {
        choices: CLOUD_CHOICES,
        get: |p| p.cloud.id(),
        set: |p, v| {
            if let Some(cloud) = Cloud::from_id(v) {
                p.cloud = cloud;
            }
        },
    })
    .doc("Cloud (selects the negotiated discount).").control(Control::Elsewhere),
    num!(Platform; "fee_usd_per_cluster_hour", "Control-plane fee", "$/cluster-h", (0.0, 1_000.0),
        |p| p.fee_usd_per_cluster_hour, |p, v| p.fee_usd_per_cluster_hour = v)
        .doc("Control-plane or management fee."),
    num!(Platform; "tooling_usd_per_month", "Tooling and add-ons", "$/month", (0.0, 1e7),
        |p| p.tooling_usd_per_month, |p, v| p.tooling_usd_per_month = v)
        .doc("Tooling and add-ons."),
    num!(Platform; "spot_notice_s", "Spot notice", "s", (0.0, 3_600.0),
        |p| p.spot_notice_s, |p, v| p.spot_notice_s = v)
        .doc("Spot interruption notice (AWS 120 s, GCP 30 s).")
        .source_of_cloud(|c| c.spot_notice_s.source),
    num!(Platform; "provisioning_median_s", "Provisioning, median", "s", (0.0, 86_400.0),
        |p| p.provisioning_median_s,
        |p, v| {
            p.provisioning_median_s = v;
            p.provisioning_p90_s = p.provisioning_p90_s.max(v);
        })
        .doc("Median node provisioning time (request to ready).")
        .source("assumption: GPU node boot plus driver init; EC2 rule of thumb 5–15 min to a \
                 running batch job (Vantage handbook)"),
    Field {
        min_from: Some(|p: &Platform| p.provisioning_median_s),
        ..num!(Platform; "provisioning_p90_s", "Provisioning, 90th percentile", "s", (0.0, 7.0 * 86_400.0),
            |p| p.provisioning_p90_s,
            |p, v| {
                p.provisioning_p90_s = v;
                p.provisioning_median_s = p.provisioning_median_s.min(v);
            })
    }
    .doc("90th percentile of node provisioning time (at least the median)."),
    num!(Platform; "capacity_wait_mean_s", "Capacity wait, mean", "s", (0.0, 7.0 * 86_400.0),
        |p| p.capacity_wait_mean_s, |p, v| p.capacity_wait_mean_s = v)
        .doc("Mean wait for capacity before provisioning starts (GPUs scarce); not billed.")
        .source("assumption: capacity available; raise it for scarce GPUs"),
    num!(Platform; "image_pull_gb_per_s", "Image pull throughput", "GB/s", (0.001, 100.0),
        |p| p.image_pull_gb_per_s, |p, v| p.image_pull_gb_per_s = v)
        .doc("Image pull throughput.")
        .source("AWS ML blog (2026): 15–20 GB images take 4–6 min to pull ≈ 0.06 GB/s"),
    num!(Platform; "billing.granularity_s", "Billing granularity", "s", (1.0, 86_400.0),
        |p| p.billing.granularity_s, |p, v| p.billing.granularity_s = v as u32)
        .doc("Node time is rounded up to a multiple of this.")
        .source("EC2 and Compute Engine: per second with a 60 s minimum (provider docs)"),
    num!(Platform; "billing.minimum_s", "Billing minimum", "s", (0.0, 86_400.0),
        |p| p.billing.minimum_s, |p, v| p.billing.minimum_s = v as u32)
        .doc("Shortest billed node time.")
        .source("EC2 and Compute Engine: per second with a 60 s minimum (provider docs)"),
    Field::<Platform>::other("placement", "Placement", Value::Choice {
        choices: &[
            ("bin_pack", "Bin-pack"),
            ("spread", "Spread (one job per node while nodes can be added)"),
            ("exclusive", "Exclusive (whole instances per job)"),
        ],
        get: |p| match p.placement {
            Placement::BinPack => "bin_pack",
            Placement::Spread => "spread",
            Placement::Exclusive => "exclusive",
        },
        set: |p, v| match v {
            "bin_pack" => p.placement = Placement::BinPack,
            "spread" => p.placement = Placement::Spread,
            "exclusive" => p.placement = Placement::Exclusive,
            _ => {}
        },
    })
    .doc("How jobs are placed on nodes.")
    .source("Karpenter, Slurm and Batch pack nodes"),
    Field::<Platform>::other("gang_scheduling", "Gang scheduling of multi-node jobs", Value::Flag {
        get: |p| p.gang_scheduling,
        set: |p, on| p.gang_scheduling = on,
    })
    .doc("Multi-node jobs start only when all their nodes are ready.")
    .source("seed 001: gang scheduling (Volcano)"),
    num!(Platform; "storage_read_slowdown_pct", "Storage-read slowdown", "%", (0.0, 500.0),
        |p| p.storage_read_slowdown_pct, |p, v| p.storage_read_slowdown_pct = v)
        .doc("Slowdown of compute from reading training data from storage.")
        .source("seed 002: direct object-store reads +12 %, parallel file system +1 %"),
    num!(Platform; "multi_node_efficiency", "Multi-node scaling efficiency", "0–1", (0.05, 1.0),
        |p| p.multi_node_efficiency, |p, v| p.multi_node_efficiency = v)
        .doc("Efficiency of multi-node jobs where the interconnect is fixed: 0.9 means 10 % of their GPU time is scaling loss. An interconnect's curve replaces it.")
        .source("assumption: 90 % (seed 001 reports 78–92 % at 64 GPUs)"),
    Field::<Platform>::other("interconnect", "Interconnect (scaling efficiency)", Value::Choice {
        choices: &[
            ("fixed", "Fixed: the multi-node efficiency above"),
            ("efa", "EFA"),
            ("gpudirect_tcpxo", "GPUDirect-TCPXO"),
            ("gpudirect_tcpx", "GPUDirect-TCPX"),
            ("tcp", "Plain TCP (NVLink within a node only)"),
        ],
        get: |p| match p.interconnect {
            Interconnect::Fixed => "fixed",
            Interconnect::Efa => "efa",
            Interconnect::GpudirectTcpxo => "gpudirect_tcpxo",
            Interconnect::GpudirectTcpx => "gpudirect_tcpx",
            Interconnect::Tcp => "tcp",
        },
        set: |p, v| match v {
            "fixed" => p.interconnect = Interconnect::Fixed,
            "efa" => p.interconnect = Interconnect::Efa,
            "gpudirect_tcpxo" => p.interconnect = Interconnect::GpudirectTcpxo,
            "gpudirect_tcpx" => p.interconnect = Interconnect::GpudirectTcpx,
            "tcp" => p.interconnect = Interconnect::Tcp,
            _ => {}
        },
    })
    .doc("The network between nodes. Other than fixed, a job on n nodes runs at 1 ÷ (1 + α·(n − 1)^0.2) of its single-node speed, α by the interconnect and placement, in place of the fixed efficiency.")
    .source("α of EFA fitted to seed 001's 92 % on eight p5 nodes placed together; TCPX 1.15 × EFA (seed 002: 15 % all-reduce overhead); TCPXO as EFA, plain TCP 4 × EFA and the exponent 0.2 are assumptions; new platforms use their instance's interconnect"),
    Field::<Platform>::other("compact_placement", "Nodes placed together", Value::Flag {
        get: |p| p.compact_placement,
        set: |p, on| p.compact_placement = on,
    })
    .doc("A multi-node job's nodes are placed close together (EC2 cluster placement group, GKE compact placement); without it the curve's overhead is 3.24 times as large. Only the interconnect curve uses it.")
    .source("seed 001: the same 64-GPU job on eight EFA nodes, 92 % placed together (SageMaker) against 78 % scattered (EKS); new SageMaker and ParallelCluster platforms place nodes together"),
    num!(Platform; "egress_usd_per_gb", "Egress price", "$/GB", (0.0, 10.0),
        |p| p.egress_usd_per_gb, |p, v| p.egress_usd_per_gb = v)
        .slider(0.0, 0.25, 0.005)
        .doc("Egress price.")
        .source_of_cloud(|c| c.egress_usd_per_gb.source),
    Field::<Platform>::other("egress_tiers", "Egress pricing", Value::Choice {
        choices: &[
            ("flat", "One price per GB"),
            ("aws_internet", "AWS tiers, per GB"),
            ("gcp_premium", "Google Cloud tiers, per GiB"),
        ],
        get: |p| match p.egress_tiers {
            EgressTiers::Flat => "flat",
            EgressTiers::AwsInternet => "aws_internet",
            EgressTiers::GcpPremium => "gcp_premium",
        },
        set: |p, v| match v {
            "flat" => p.egress_tiers = EgressTiers::Flat,
            "aws_internet" => p.egress_tiers = EgressTiers::AwsInternet,
            "gcp_premium" => p.egress_tiers = EgressTiers::GcpPremium,
            _ => {}
        },
    })
    .doc("How a month's egress is priced: one price per GB, or the cloud's volume tiers with the egress price as the first tier's (per GiB on Google Cloud) and later tiers at their published ratio to it.")
    .source("AWS us-east-1: $0.09/GB to 10 TB, $0.085 next 40 TB, $0.07 next 100 TB, $0.05 beyond (2026-06); Google Cloud Premium from us-central1: $0.12/GiB to 1 TiB, $0.11 to 10 TiB, $0.08 beyond (billing catalog 2026-07-30); new platforms use their cloud's tiers"),
    Field::<Platform>::other("region", "Region", Value::Choice {
        choices: REGION_CHOICES,
        get: |p| region_choice(&p.region),
        set: |p, v| p.region = v.to_string(),
    })
    .doc("The region its nodes run in. With the scenario's data region, its jobs' data reads pay the transfer between the two (in place of each class's billed share of reads).")
    .source("the catalog's regions; new platforms take their instance's"),
    Field::<Platform>::other("data_path", "How nodes reach the data", Value::Choice {
        choices: &[
            ("private_endpoint", "Gateway endpoint / Private Google Access (no charge)"),
            ("nat_gateway", "NAT gateway (charged per GB processed)"),
        ],
        get: |p| match p.data_path {
            DataPath::PrivateEndpoint => "private_endpoint",
            DataPath::NatGateway => "nat_gateway",
        },
        set: |p, v| match v {
            "private_endpoint" => p.data_path = DataPath::PrivateEndpoint,
            "nat_gateway" => p.data_path = DataPath::NatGateway,
            _ => {}
        },
    })
    .doc("Where regions are set: through an S3 gateway endpoint or Private Google Access reads pay no processing; through a NAT gateway every GB read pays its charge.")
    .source("AWS NAT gateway $0.045/GB processed (aws.amazon.com/vpc/pricing, 2026-09-20); Cloud NAT $0.045/GiB (cloud.google.com/nat/pricing, 2026-10-16); gateway endpoints and Private Google Access: no charge"),
    Field::<Platform>::other("staging.storage", "Data staged from", Value::Choice {
        choices: STORAGE_CHOICES,
        get: |p| p.staging.storage.key(),
        set: |p, v| {
            if let Some(product) = StorageProduct::ALL.into_iter().find(|s| s.key() == v) {
                p.staging.storage = product;
            }
        },
    })
    .doc("Where jobs read their data before computing. None: reads take no time. Otherwise each attempt's data is read by its nodes in parallel after the image pull, each node at most its limit and all nodes reading at once sharing the storage's throughput; the GPU time held meanwhile is data staging. A file system is billed on its capacity, its throughput following that capacity.")
    .source("each product's price, throughput and sizes with its source and date in the method panel; prices not read from a price page are labelled assumption there"),
    num!(Platform; "staging.capacity_gib", "File system capacity", "GiB", (0.0, 1e7),
        |p| p.staging.capacity_gib, |p, v| p.staging.capacity_gib = v)
        .doc("The file system's provisioned capacity, rounded up to the product's minimum and steps as it bills them; its throughput follows it. Unused for object storage.")
        .source("assumption: sized by the user to hold the datasets"),
    num!(Platform; "staging.throughput_gb_per_s", "Storage read throughput", "GB/s", (0.0, 10_000.0),
        |p| p.staging.throughput_gb_per_s, |p, v| p.staging.throughput_gb_per_s = v)
        .doc("The storage's read throughput shared by every node reading. 0 takes what the product's capacity buys (no limit for object storage)."),
    num!(Platform; "staging.node_read_gb_per_s", "Read throughput per node", "GB/s", (0.01, 1_000.0),
        |p| p.staging.node_read_gb_per_s, |p, v| p.staging.node_read_gb_per_s = v)
        .doc("What one node reads at most when staging data.")
        .source("assumption: 1.25 GB/s (10 Gbit/s): a data loader on one network interface; g5.xlarge has 10 Gbit/s burst, 2.5 baseline (EC2 User Guide, 2023); EFS allows 1,500 MiB/s per client"),
    num!(Platform; "egress_free_gb_per_month", "Free egress", "GB/month", (0.0, 1e9),
        |p| p.egress_free_gb_per_month, |p, v| p.egress_free_gb_per_month = v)
        .doc("Free egress a month."),
    num!(Platform; "storage_gb", "Storage", "GB", (0.0, 1e9),
        |p| p.storage_gb, |p, v| p.storage_gb = v)
        .doc("Dataset and checkpoint storage.")
        .source("assumption: 2 TB of datasets and checkpoints"),
    num!(Platform; "storage_usd_per_gb_month", "Storage price", "$/GB-month", (0.0, 10.0),
        |p| p.storage_usd_per_gb_month, |p, v| p.storage_usd_per_gb_month = v)
        .doc("Storage price.")
        .source_of_cloud(|c| c.storage_usd_per_gb_month.source),
    Field {
        control: Control::Own,
        ..num!(Platform; "ops_fte", "Ops FTE share", "", (0.0, 100.0),
            |p| p.ops_fte, |p, v| p.ops_fte = v)
    }
    .doc("Share of one full-time engineer that runs this platform."),
    num!(Platform; "one_off.engineer_months", "One-off engineering", "engineer-months", (0.0, 10_000.0),
        |p| p.one_off.engineer_months, |p, v| p.one_off.engineer_months = v)
        .doc("Engineering to build or migrate to this platform, paid once at month 0 of the payback view (each month at a twelfth of the FTE cost); never in the monthly TCO."),
    num!(Platform; "one_off.usd", "Other one-off costs", "$", (0.0, 1e10),
        |p| p.one_off.usd, |p, v| p.one_off.usd = v)
        .doc("Tooling, migration services and data transfer paid once, at month 0 of the payback view; never in the monthly TCO."),
    num!(Platform; "orchestration.usd_per_1000_transitions", "Workflow charge", "$ per 1,000 transitions", (0.0, 100.0),
        |p| p.orchestration.usd_per_1000_transitions, |p, v| p.orchestration.usd_per_1000_transitions = v)
        .doc("What the workflow engine that runs pipelines charges per 1,000 state transitions: one per stage attempt, retries included. In the fees. 0 for Argo Workflows on the cluster.")
        .source("AWS Step Functions standard workflows: $0.025 per 1,000 state transitions in US East, retries charged (aws.amazon.com/step-functions/pricing, read 2026-12-04)"),
    num!(Platform; "orchestration.free_transitions_per_month", "Free transitions", "per month", (0.0, 1e9),
        |p| p.orchestration.free_transitions_per_month, |p, v| p.orchestration.free_transitions_per_month = v)
        .doc("State transitions the workflow engine does not charge each month.")
        .source("AWS Step Functions free tier: 4,000 state transitions a month, not expiring (aws.amazon.com/step-functions/pricing, read 2026-12-04)"),
    Field::<Platform>::other("preemption.reclaim_quota", "Teams reclaim their quota by preemption", Value::Flag {
        get: |p| p.preemption.reclaim_quota,
        set: |p, on| p.preemption.reclaim_quota = on,
    })
    .doc("A team within its nominal quota evicts jobs of teams borrowing beyond theirs (Kueue reclaimWithinCohort).")
    .source("Kueue, Preemption (kueue.sigs.k8s.io/docs/concepts/preemption)"),
    Field::<Platform>::other("preemption.lower_priority", "Higher priorities preempt lower ones", Value::Flag {
        get: |p| p.preemption.lower_priority,
        set: |p, on| p.preemption.lower_priority = on,
    })
    .doc("A waiting job evicts jobs of lower priority when that frees enough GPUs (Kueue withinClusterQueue LowerPriority; Slurm preemption by QOS with requeue).")
    .source("Kueue, Preemption; Slurm, Preemption (slurm.schedmd.com/preempt.html): PreemptMode=REQUEUE"),
    num!(Platform; "preemption.grace_period_s", "Preemption grace period", "s", (0.0, 86_400.0),
        |p| p.preemption.grace_period_s, |p, v| p.preemption.grace_period_s = v)
    .doc("Seconds an evicted job has before it stops: a checkpoint written within them keeps its work.")
    .source("Kubernetes: terminationGracePeriodSeconds, 30 s by default; Slurm: GraceTime, 0 by default")
    .control(Control::Own),
    num!(Platform; "preemption.consolidation_evictions_per_node_hour", "Evictions by node consolidation", "per node-h", (0.0, 1.0),
        |p| p.preemption.consolidation_evictions_per_node_hour, |p, v| p.preemption.consolidation_evictions_per_node_hour = v)
    .doc("Kubernetes only (EKS, GKE): running jobs evicted when Karpenter consolidates or the cluster autoscaler scales down a node, per node-hour of nodes beyond the reservation; the node goes, its jobs queue again with the preemption grace period to checkpoint, their lost compute is preemption rework. 0: jobs marked karpenter.sh/do-not-disrupt (or safe-to-evict: \"false\"), as a tuned cluster runs.")
    .source("seed 002: \"two weeks tuning the cluster autoscaler to not kill our training pods during a resize\"; no public rate: 0 unless a scenario sets it"),
    num!(Platform; "serving.scale_up_delay_s", "Serving scale-up delay", "s", (0.0, 86_400.0),
        |p| serving(p).scale_up_delay_s, |p, v| serving_mut(p).scale_up_delay_s = v)
    .slider(0.0, 1_800.0, 5.0)
    .doc("From the autoscaler's decision to a new replica serving, beyond the node's provisioning, the image pull and the model load.")
    .source("SageMaker: assumption, 180 s (three one-minute CloudWatch datapoints); others: assumption, 30 s for a pod to be scheduled and pass its readiness check")
    .control(Control::Setting),
    num!(Platform; "serving.scale_down_cooldown_s", "Serving scale-down cooldown", "s", (0.0, 86_400.0),
        |p| serving(p).scale_down_cooldown_s, |p, v| serving_mut(p).scale_down_cooldown_s = v)
    .doc("How long a lower replica count must be recommended before replicas are removed.")
    .source("SageMaker endpoint variants' default scale-in cooldown, 300 s (AWS CDK InvocationsScalingProps); the Kubernetes HPA's default scale-down stabilisation window, 300 s")
    .control(Control::Setting),
    num!(Platform; "serving.metric_period_s", "Autoscaler period", "s", (60.0, 3_600.0),
        |p| serving(p).metric_period_s, |p, v| serving_mut(p).metric_period_s = v)
    .doc("Seconds between the autoscaler's decisions (at least the one-minute traffic bucket).")
    .source("assumption: 60 s")
    .control(Control::Setting),
    Field::<Platform>::other("serving.scale_to_zero", "Services may scale to zero", Value::Flag {
        get: |p| serving(p).scale_to_zero,
        set: |p, on| serving_mut(p).scale_to_zero = on,
    })
    .doc("Whether a service with no minimum replica may run none; elsewhere it keeps one.")
    .control(Control::Own),
    Field::<Platform>::other("serving.shares_nodes", "Replicas share nodes", Value::Flag {
        get: crate::model::serving::platform::shares_nodes,
        set: |p, on| serving_mut(p).shares_nodes = Some(on),
    })
    .doc("On: replicas of all services pack the platform's nodes together, and a node is paid whole (Kubernetes, SageMaker inference components). Off: each replica holds instances of its own (a SageMaker single-model endpoint, Cloud Run).")
    .source("SageMaker single-model endpoints and Cloud Run: an instance per replica; Kubernetes schedules pods onto shared nodes")
    .control(Control::Own),
    Field::<Platform>::other("serving.shares_nodes_with_training", "Replicas share nodes with training jobs", Value::Flag {
        get: |p| serving(p).shares_nodes_with_training,
        set: |p, on| serving_mut(p).shares_nodes_with_training = on,
    })
    .doc("On: replicas take GPUs on the nodes training jobs run on, in the same simulation (one Kubernetes cluster for both); they come first, as a higher priority class, and a replica that finds no free GPU preempts training jobs. Replicas avoid spot nodes. Off: services run on nodes of their own.")
    .source("Kubernetes pod priority and preemption (kubernetes.io, Pod Priority and Preemption); keeping inference off spot nodes is common practice (assumption)")
    .control(Control::Own),
];

/// Fields of a node pool (paths relative to `platforms.<i>.node_pools.<j>`). A platform of
/// the old, single-pool shape carried them itself: those paths are aliases for pool 0's
/// ([`super::node_pool::canonical_path`]).
pub static NODE_POOL_FIELDS: &[Field<NodePool>] = &[
    Field::<NodePool>::other("name", "Pool name", Value::Name { get: |p| &p.name })
        .doc("Name, unique on its platform: what the platform's class_pools maps a job class or service to."),
    Field::<NodePool>::other("instance_type", "Instance type", Value::Id { get: |p| &p.instance_type })
        .doc("Instance type, from the catalog."),
    Field::<NodePool>::other("gpu_model", "GPU model", Value::Id { get: |p| &p.gpu_model })
        .doc("GPU model of the instance type.").control(Control::Elsewhere),
    num!(NodePool; "gpus_per_node", "GPUs per node", "", (1.0, 64.0),
        |p| p.gpus_per_node, |p, v| p.gpus_per_node = v as u32)
        .doc("GPUs per node."),
    num!(NodePool; "gpu_memory_gb", "GPU memory", "GB", (1.0, 1024.0),
        |p| p.gpu_memory_gb, |p, v| p.gpu_memory_gb = v)
        .doc("GPU memory per GPU."),
    num!(NodePool; "relative_throughput", "Relative throughput (reference GPU = 1)", "×", (0.01, 100.0),
        |p| p.relative_throughput, |p, v| p.relative_throughput = v)
        .doc("Throughput of one GPU relative to the reference GPU.")
        .source("assumption: public training benchmarks, rough ratios"),
    num!(NodePool; "on_demand_usd_per_node_hour", "On-demand price", "$/node-h", (0.0, 10_000.0),
        |p| p.on_demand_usd_per_node_hour, |p, v| p.on_demand_usd_per_node_hour = v)
        .doc("On-demand list price.").source("price catalog (see catalog as-of date)"),
    num!(NodePool; "spot_usd_per_node_hour", "Spot price", "$/node-h", (0.0, 10_000.0),
        |p| p.spot_usd_per_node_hour, |p, v| p.spot_usd_per_node_hour = v)
        .doc("Spot price.").source("price catalog; AWS: median across availability zones"),
    num!(NodePool; "service_premium_pct", "Service premium", "%", (0.0, 500.0),
        |p| p.service_premium_pct, |p, v| p.service_premium_pct = v)
        .doc("Managed-service premium on compute (SageMaker ml.* instances)."),
    num!(NodePool; "purchase.reserved_share", "Reserved share of reference GPUs", "×", (0.0, 10.0),
        |p| p.purchase.reserved_share, |p, v| p.purchase.reserved_share = v)
        .slider(0.0, 1.0, 0.01)
        .doc("Reserved GPUs ÷ reference GPUs, rounded up to whole nodes; billed for the whole horizon."),
    num!(NodePool; "purchase.reserved_discount_pct", "Reserved discount", "%", (0.0, 95.0),
        |p| p.purchase.reserved_discount_pct, |p, v| p.purchase.reserved_discount_pct = v)
        .doc("% off on-demand for reserved capacity over its commitment term: the term's whole cost, upfront included, against on-demand.")
        .source("GCP resource CUDs (Cloud Billing Catalog 2026-07-30): A100 37 % for 1 year, 65 % for 3; L4 37 and 55 %; H100 30.6 and 56.1 %. AWS GPU Reserved Instance and Savings Plan rates: not published per GPU, assumption"),
    Field::<NodePool>::other("purchase.overflow", "Capacity beyond reserved", Value::Choice {
        choices: &[("on_demand", "On-demand"), ("spot", "Spot"), ("none", "None (static cluster)")],
        get: |p| match p.purchase.overflow {
            Overflow::OnDemand => "on_demand",
            Overflow::Spot => "spot",
            Overflow::None => "none",
        },
        set: |p, v| match v {
            "on_demand" => p.purchase.overflow = Overflow::OnDemand,
            "spot" => p.purchase.overflow = Overflow::Spot,
            "none" => p.purchase.overflow = Overflow::None,
            _ => {}
        },
    })
    .doc("What runs beyond the reserved base."),
    num!(NodePool; "purchase.term_years", "Commitment term", "years", (1.0, 3.0),
        |p| p.purchase.term_years, |p, v| p.purchase.term_years = v.round() as u32)
        .doc("The reservation's commitment term: 1 or 3 years. A term ending inside the payback view's 36 months is renewed on the same terms.")
        .source("AWS Reserved Instances and Savings Plans, GCP committed-use discounts: 1 or 3 years"),
    Field::<NodePool>::other("purchase.payment", "Commitment payment", Value::Choice {
        choices: &[
            ("no_upfront", "Monthly, no upfront"),
            ("partial_upfront", "Partial upfront (half at the start)"),
            ("all_upfront", "All upfront"),
        ],
        get: |p| match p.purchase.payment {
            Payment::NoUpfront => "no_upfront",
            Payment::PartialUpfront => "partial_upfront",
            Payment::AllUpfront => "all_upfront",
        },
        set: |p, v| match v {
            "no_upfront" => p.purchase.payment = Payment::NoUpfront,
            "partial_upfront" => p.purchase.payment = Payment::PartialUpfront,
            "all_upfront" => p.purchase.payment = Payment::AllUpfront,
            _ => {}
        },
    })
    .doc("How the commitment is paid. The monthly TCO amortises an upfront over the term; the payback view follows the cash. GCP commitments are billed monthly only.")
    .source("AWS: all, partial or no upfront; GCP CUDs: monthly (the partial split of one half is an assumption)"),
    Field::<NodePool>::other("purchase.commitment", "Commitment kind", Value::Choice {
        choices: &[
            ("resource", "Reserved Instance / resource-based CUD"),
            ("savings_plan", "Savings Plan (AWS)"),
            ("spend_based", "Spend-based CUD (GCP; does not cover GPUs)"),
        ],
        get: |p| match p.purchase.commitment {
            Commitment::Resource => "resource",
            Commitment::SavingsPlan => "savings_plan",
            Commitment::SpendBased => "spend_based",
        },
        set: |p, v| match v {
            "resource" => p.purchase.commitment = Commitment::Resource,
            "savings_plan" => p.purchase.commitment = Commitment::SavingsPlan,
            "spend_based" => p.purchase.commitment = Commitment::SpendBased,
            _ => {}
        },
    })
    .doc("What the reservation is bought as. GPU commitments on GCP are resource-based; spend-based CUDs do not cover GPUs.")
    .source("reference data: platform_facts.md, commitments (AWS Savings Plans FAQ; GCP reservations with commitments)"),
    num!(NodePool; "spot_interruptions_per_node_hour", "Spot interruptions", "per node-h", (0.0, 10.0),
        |p| p.spot_interruptions_per_node_hour, |p, v| p.spot_interruptions_per_node_hour = v)
        .slider(0.0, 0.2, 0.001)
        .doc("Spot interruptions per spot node-hour (λ).")
        .source("assumption: 0.005/node-hour (MTBI 200 h, >20 %/month: GPU pools sit in the \
                 Spot Advisor's highest band)"),
    num!(NodePool; "spot_reclaims.share_of_rate", "Share of interruptions in reclaim waves", "0–1", (0.0, 1.0),
        |p| p.spot_reclaims.share_of_rate, |p, v| p.spot_reclaims.share_of_rate = v)
        .doc("Share of the spot interruption rate that comes as pool-wide reclaim waves (each taking many nodes at once) rather than node by node; a spot node is still interrupted at the rate above on average. 0: every node on its own clock.")
        .source("assumption: no public figure (seed 002: \"a bidder at the same pool got an interrupt\"); 0 unless a scenario sets it"),
    num!(NodePool; "spot_reclaims.fraction_of_nodes", "Share of the pool a wave takes", "0–1", (0.01, 1.0),
        |p| p.spot_reclaims.fraction_of_nodes, |p, v| p.spot_reclaims.fraction_of_nodes = v)
        .doc("Chance a reclaim wave takes a given running spot node of the pool: waves come share × rate ÷ this per hour.")
        .source("assumption: half the pool"),
    num!(NodePool; "spot_reclaims.capacity_drought_min", "Spot capacity drought after a wave", "min", (0.0, 1_440.0),
        |p| p.spot_reclaims.capacity_drought_min, |p, v| p.spot_reclaims.capacity_drought_min = v)
        .doc("After a reclaim wave, no spot node is to be had for this long: replacements wait for its end (capacity wait), or are bought on demand where the pool falls back.")
        .source("assumption: 0 unless a scenario sets it"),
    Field::<NodePool>::other("spot_reclaims.fall_back_to_on_demand", "In a spot drought, buy on demand", Value::Flag {
        get: |p| p.spot_reclaims.fall_back_to_on_demand,
        set: |p, on| p.spot_reclaims.fall_back_to_on_demand = on,
    })
    .doc("Spot nodes asked for during a drought after a reclaim wave are bought on demand instead of waiting.")
    .source("Karpenter: a NodePool allowing spot and on-demand capacity falls back to on demand when spot is short"),
    num!(NodePool; "node_failures_per_node_hour", "Node hardware failures", "per node-h", (0.0, 1.0),
        |p| p.node_failures_per_node_hour, |p, v| p.node_failures_per_node_hour = v)
        .doc("Hardware failures per node-hour on every purchase type: a failure stops the node's jobs with no notice (each loses its compute since its last checkpoint) and the node is replaced through provisioning. 0: nodes never fail.")
        .source("derived from Meta's fleet: 419 unexpected interruptions in 54 days on 16,384 H100s, 78 % hardware (Llama 3 paper, arXiv:2407.21783, 2024): about 1.5e-5 per GPU-hour, 1.2e-4 per 8-GPU node-hour; new platforms and new presets use it, older scenarios 0"),
    Field::<NodePool>::other("image_cache", "Nodes cache pulled images", Value::Flag {
        get: |p| p.image_cache,
        set: |p, on| p.image_cache = on,
    })
    .doc("Nodes keep pulled images, so the next job of the class on that node pulls nothing.")
    .source("seed 004: keep images on the node (disable image cleanup)"),
    num!(NodePool; "warm_pool_window_s", "Warm-pool window", "s", (0.0, 7.0 * 86_400.0),
        |p| p.warm_pool_window_s, |p, v| p.warm_pool_window_s = v)
        .slider(0.0, 14_400.0, 60.0)
        .doc("How long an empty node stays up waiting for work before it is released."),
    num!(NodePool; "max_nodes", "Max nodes", "", (1.0, limits::MAX_NODES as f64),
        |p| p.max_nodes, |p, v| p.max_nodes = v as u32)
        .doc("Most nodes at once (reserved included).")
        .source("assumption: account quota of 64 nodes"),
    Field::<NodePool>::other("gpu_sharing.mode", "GPU sharing", Value::Choice {
        choices: &[
            ("none", "None (a fraction holds a whole GPU)"),
            ("mig", "MIG slices"),
            ("time_slicing", "Time-slicing"),
        ],
        get: |p| p.gpu_sharing.mode(),
        set: set_sharing_mode,
    })
    .doc("How replicas and jobs asking for a fraction of a GPU share one, on Kubernetes: MIG gives each an isolated slice of a static layout; time-slicing gives each turns on the whole GPU, with no memory isolation (jobs pack a GPU by their shares and their memory). On SageMaker, time-slicing is a multi-model endpoint (its models resident together; loading them on demand is not modelled). Sharing GPUs packs replicas onto shared nodes.")
    .source("NVIDIA GPU operator (MIG manager, device-plugin time-slicing); GKE sets both per node pool"),
    Field::<NodePool>::other("gpu_sharing.layout", "MIG layout (every GPU)", Value::Choice {
        choices: gpu_sharing::LAYOUT_CHOICES,
        get: |p| match &p.gpu_sharing {
            GpuSharing::Mig { layout } => {
                gpu_sharing::standard_layout_key(&p.gpu_model, layout).unwrap_or("custom")
            }
            _ => "7x1g",
        },
        set: |p, key| {
            if let Some(layout) = gpu_sharing::standard_layout(&p.gpu_model, key) {
                p.gpu_sharing = GpuSharing::Mig { layout };
            }
        },
    })
    .doc("The MIG slices of each GPU, by the GPU's published profiles; a replica takes the smallest slice that fits its memory and its share of the compute.")
    .source(gpu_sharing::MIG_SOURCE),
    Field {
        control: Control::Own,
        ..Field::<NodePool>::number("gpu_sharing.context_switch_loss", "Time-slicing context-switch loss", "0–1", (0.0, 0.5),
            |p| match p.gpu_sharing {
                GpuSharing::TimeSlicing { context_switch_loss } => Some(context_switch_loss),
                _ => None,
            },
            |p, v| {
                if let GpuSharing::TimeSlicing { context_switch_loss } = &mut p.gpu_sharing {
                    *context_switch_loss = v;
                }
            })
    }
    .doc("Share of a time-sliced GPU's time lost to switching between replicas.")
    .source("assumption: 5 % (NVIDIA documents no figure)"),
];

/// Sets a pool's GPU sharing to `mode`: MIG with 7 small slices of its GPU (none on a GPU
/// without MIG: validation then names the GPU), time-slicing with the assumed context-switch
/// loss.
fn set_sharing_mode(p: &mut NodePool, mode: &str) {
    if mode == p.gpu_sharing.mode() {
        return;
    }
    p.gpu_sharing = match mode {
        "mig" => GpuSharing::Mig {
            layout: gpu_sharing::standard_layout(&p.gpu_model, "7x1g").unwrap_or_default(),
        },
        "time_slicing" => GpuSharing::TimeSlicing {
            context_switch_loss: gpu_sharing::CONTEXT_SWITCH_LOSS,
        },
        _ => GpuSharing::None,
    };
}

/// A platform's serving settings: its own, or its profile's.
fn serving(p: &Platform) -> Serving {
    crate::model::serving::platform::serving_of(p)
}

/// A platform's serving settings to edit (its profile's made its own first).
fn serving_mut(p: &mut Platform) -> &mut Serving {
    crate::model::serving::platform::serving_mut(p)
}

fn spikes_mut(s: &mut Service) -> &mut ServiceSpikes {
    s.traffic.spikes.get_or_insert(ServiceSpikes {
        per_month: 0.0,
        factor: 1.0,
        duration_min: 60.0,
    })
}

/// Fields of a team's policy on a platform (paths relative to `platforms.<i>.teams.<k>`).
pub static TEAM_POLICY_FIELDS: &[Field<TeamPolicy>] = &[
    Field::<TeamPolicy>::other("team", "Team", Value::Id { get: |t| &t.team })
        .doc("The team, as its job classes name it (empty: the default team)."),
    Field::<TeamPolicy>::number("nominal_gpus", "Nominal quota", "GPUs", (0.0, 1e6),
        |t| t.nominal_gpus, |t, v| t.nominal_gpus = Some(v))
        .doc("GPUs its jobs may hold at once without borrowing (Kueue nominal quota; Slurm QOS GPU limit).")
        .source("Kueue, Cluster Queue: nominalQuota; Slurm, QOS: GrpTRES=gres/gpu"),
    Field::<TeamPolicy>::number("borrowing_limit_gpus", "Borrowing limit", "GPUs", (0.0, 1e6),
        |t| t.borrowing_limit_gpus, |t, v| t.borrowing_limit_gpus = Some(v))
        .doc("Most GPUs beyond its quota it may borrow from what the cohort leaves unused (Kubernetes only; a Slurm QOS limit is hard).")
        .source("Kueue, Cluster Queue: borrowingLimit"),
    Field::<TeamPolicy>::number("priority", "Priority", "", (-1_000.0, 1_000.0),
        |t| Some(f64::from(t.priority)), |t, v| t.priority = v as i32)
        .doc("A higher number is scheduled first and may preempt a lower one.")
        .source("Kueue WorkloadPriorityClass; Slurm QOS priority; AWS Batch job queue priority"),
];

/// Fields of a service.
pub static SERVICE_FIELDS: &[Field<Service>] = &[
    Field::<Service>::other("name", "Name", Value::Name { get: |s| &s.name }).doc("Name shown in the page."),
    num!(Service; "traffic.mean_rps", "Mean traffic", "req/s", (0.0, 1e6),
        |s| s.traffic.mean_rps, |s, v| s.traffic.mean_rps = v)
    .slider(0.0, 5_000.0, 0.1)
    .doc("Mean requests per second over a week, spikes aside."),
    Field {
        min: 0.0,
        max: 1e6,
        ..Field::<Service>::other("traffic.hourly_profile", "Traffic by hour of day", Value::Numbers {
            get: |s| s.traffic.hourly_profile.as_deref(),
            series: Series::HourOfDay,
        })
    }
    .doc("24 non-negative weights, one per hour of the day; only their ratios matter. Absent: flat.")
    .control(Control::Elsewhere),
    num!(Service; "traffic.weekend_factor", "Weekend traffic", "× weekday", (0.0, 100.0),
        |s| s.traffic.weekend_factor, |s, v| s.traffic.weekend_factor = v)
    .doc("Traffic on Saturday and Sunday relative to a weekday; the weekly mean stays the mean traffic."),
    Field::<Service>::number("traffic.spikes.per_month", "Spikes a month", "/month", (0.0, 1_000.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.per_month), |s, v| spikes_mut(s).per_month = v)
    .doc("Mean spikes per 730-hour month, placed at random."),
    Field::<Service>::number("traffic.spikes.factor", "Spike factor", "×", (1.0, 1_000.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.factor), |s, v| spikes_mut(s).factor = v)
    .slider(1.0, 50.0, 0.5)
    .doc("Traffic during a spike, as a multiple of the usual."),
    Field::<Service>::number("traffic.spikes.duration_min", "Spike length", "min", (1.0, 10_080.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.duration_min), |s, v| spikes_mut(s).duration_min = v)
    .doc("How long a spike lasts."),
    num!(Service; "capacity_rps", "Capacity per replica", "req/s", (1e-3, 1e6),
        |s| s.capacity_rps, |s, v| s.capacity_rps = v)
    .doc("Requests per second one replica sustains on the reference GPU at its batch setting, as measured."),
    num!(Service; "concurrency", "Concurrency", "requests", (1.0, 4_096.0),
        |s| s.concurrency, |s, v| s.concurrency = v as u32)
    .doc("Requests a replica holds at once; one request alone takes concurrency ÷ capacity seconds."),
    num!(Service; "gpus_per_replica", "GPUs per replica", "", (0.001, 64.0),
        |s| s.gpus_per_replica, |s, v| s.gpus_per_replica = v)
    .doc("GPUs one replica holds: whole, or a fraction (to 0.001) that a platform sharing its GPUs (MIG or time-slicing) packs; elsewhere a fraction holds a whole GPU. The capacity is measured with its whole GPU to itself."),
    num!(Service; "gpu_memory_gb", "GPU memory per replica", "GB", (0.0, 1_000.0),
        |s| s.gpu_memory_gb, |s, v| s.gpu_memory_gb = v)
    .doc("GPU memory one replica needs on each of its GPUs."),
    num!(Service; "latency_slo_ms", "Latency objective (p95)", "ms", (1.0, 3.6e6),
        |s| s.latency_slo_ms, |s, v| s.latency_slo_ms = v)
    .doc("A minute whose p95 latency is above it counts as an SLO-violation minute."),
    num!(Service; "min_replicas", "Fewest replicas", "", (0.0, limits::MAX_NODES as f64),
        |s| s.min_replicas, |s, v| s.min_replicas = v as u32)
    .doc("0 scales to zero on a platform that can (elsewhere one replica stays)."),
    num!(Service; "max_replicas", "Most replicas", "", (1.0, limits::MAX_NODES as f64),
        |s| s.max_replicas, |s, v| s.max_replicas = v as u32)
    .doc("The autoscaler adds no replica beyond it; requests then queue, and past the queue are dropped."),
    num!(Service; "target_utilization", "Autoscaling target", "", (0.05, 1.0),
        |s| s.target_utilization, |s, v| s.target_utilization = v)
    .doc("Share of a replica's capacity the autoscaler aims to use."),
    num!(Service; "model_load_s", "Model load", "s", (0.0, 86_400.0),
        |s| s.model_load_s, |s, v| s.model_load_s = v)
    .doc("A new replica's model load once its GPU is there."),
    num!(Service; "image_gb", "Image size", "GB", (0.0, 1_000.0),
        |s| s.image_gb, |s, v| s.image_gb = v)
    .doc("Container image pulled by a new replica's node."),
    num!(Service; "queue_per_replica", "Queue per replica", "requests", (0.0, 1e6),
        |s| s.queue_per_replica, |s, v| s.queue_per_replica = v as u32)
    .doc("Requests that may wait, per replica at the most replicas; more are dropped."),
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;

    /// Scenarios whose documents hold every leaf there is: each arrival kind, each duration
    /// distribution, a failure point.
    fn samples() -> Vec<Scenario> {
        let arrivals = [
            Arrivals::Steady { per_day: 3.0 },
            Arrivals::Poisson { per_day: 4.0 },
            Arrivals::Bursts {
                bursts_per_day: 2.0,
                jobs_per_burst: 5,
            },
            Arrivals::HourOfDay {
                per_day: 6.0,
                hourly_weights: vec![1.0; 24],
                weekday_weights: Some(vec![1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5]),
            },
        ];
        let durations = [
            Duration::Fixed { hours: 2.0 },
            Duration::LogNormal {
                median_hours: 3.0,
                p90_hours: 9.0,
            },
            Duration::Exponential { mean_hours: 4.0 },
            Duration::Empirical {
                quantile_hours: vec![0.1, 0.5, 2.0, 30.0],
                probabilities: vec![0.0, 0.5, 0.9, 1.0],
            },
        ];
        let mut out = Vec::new();
        for (i, arrivals) in arrivals.into_iter().enumerate() {
            let mut s = Scenario::default();
            let class = &mut s.job_classes[0];
            class.arrivals = arrivals;
            class.duration = durations[i % durations.len()].clone();
            class.failures.at_share = Some(0.5);
            out.push(s);
        }
        // A service with every optional part, on a platform with serving settings.
        out[0].services.push(Service {
            traffic: super::super::ServiceTraffic {
                hourly_profile: Some(vec![1.0; 24]),
                spikes: Some(ServiceSpikes {
                    per_month: 2.0,
                    factor: 10.0,
                    duration_min: 60.0,
                }),
                ..Default::default()
            },
            ..Service::default()
        });
        out[0].platforms[0].serving = Some(Serving {
            shares_nodes: Some(true),
            shares_nodes_with_training: true,
            ..Serving::default()
        });
        // Teams: a class's team, a policy with every part, preemption with a grace period.
        out[3].job_classes[0].team = "research".into();
        out[3].platforms[0].teams = vec![super::super::TeamPolicy {
            team: "research".into(),
            nominal_gpus: Some(16.0),
            borrowing_limit_gpus: Some(8.0),
            priority: 5,
        }];
        out[3].showback.shared_costs = SharedCosts::ByCost;
        out[3].platforms[0].preemption = super::super::Preemption {
            reclaim_quota: true,
            lower_priority: true,
            grace_period_s: 30.0,
            ..Default::default()
        };
        // Retries with backoff, a commitment with its terms, one-off costs, the price of
        // waiting and the payback's current platform.
        let failures = &mut out[2].job_classes[0].failures;
        failures.backoff_s = 60.0;
        failures.backoff_multiplier = 3.0;
        failures.backoff_max_s = 900.0;
        out[2].job_classes[0].people_blocked_per_job = 3.0;
        out[2].people.waiting_usd_per_hour = 100.0;
        let purchase = &mut out[2].platforms[0].first_pool_mut().purchase;
        purchase.term_years = 3;
        purchase.payment = super::super::commitment::Payment::AllUpfront;
        purchase.commitment = super::super::commitment::Commitment::SavingsPlan;
        out[2].platforms[0].one_off = super::super::OneOff {
            engineer_months: 6.0,
            usd: 10_000.0,
        };
        out[2].payback.current = out[2].platforms[0].name.clone();
        // Egress by the cloud's tiers.
        out[2].platforms[0].egress_tiers = EgressTiers::AwsInternet;
        out[2].platforms[0].interconnect = Interconnect::Efa;
        out[2].platforms[0].region = "us-east-1".into();
        out[2].platforms[0].data_path = DataPath::NatGateway;
        out[2].platforms[0].staging = crate::model::storage::DataStaging {
            storage: StorageProduct::FsxLustrePersistent250,
            capacity_gib: 4_800.0,
            ..Default::default()
        };
        out[2].data_region = "us-west-2".into();
        out[2].platforms[0].first_pool_mut().spot_reclaims =
            super::super::node_pool::SpotReclaims {
                share_of_rate: 0.5,
                fraction_of_nodes: 0.3,
                capacity_drought_min: 30.0,
                fall_back_to_on_demand: true,
            };
        out[2].platforms[0].compact_placement = true;
        out[2].platforms[0].orchestration = super::super::Orchestration {
            usd_per_1000_transitions: 0.025,
            free_transitions_per_month: 4_000.0,
        };
        // A pipeline of two stages, its runs in bursts, with people waiting on each run.
        let stage = |name: &str, after: &[&str]| JobClass {
            name: name.into(),
            after: after.iter().map(|a| a.to_string()).collect(),
            ..JobClass::default()
        };
        out[1].pipelines.push(Pipeline {
            name: "Nightly".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 1.0,
                jobs_per_burst: 3,
            },
            stages: vec![stage("prepare", &[]), stage("train", &["prepare"])],
            people_blocked_per_job: 2.0,
        });
        out[3].pipelines.push(Pipeline {
            stages: vec![stage("only", &[])],
            ..Pipeline::default()
        });
        // Each way of sharing GPUs.
        let gpu = out[1].platforms[0].first_pool().gpu_model.clone();
        out[1].platforms[0].first_pool_mut().gpu_sharing = GpuSharing::Mig {
            layout: gpu_sharing::standard_layout(&gpu, "7x1g").expect("a GPU with MIG"),
        };
        out[2].platforms[0].first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
            context_switch_loss: 0.05,
        };
        out
    }

    /// Every leaf of `doc` below `at`, with its value: numbers, switches and strings, and a
    /// list of numbers as one leaf.
    fn leaves(doc: &Json, at: &str, out: &mut Vec<(String, Json)>) {
        let join = |k: &str| {
            if at.is_empty() {
                k.to_string()
            } else {
                format!("{at}.{k}")
            }
        };
        match doc {
            // A MIG layout (profile → count) is one choice.
            Json::Object(_) if at == "gpu_sharing.layout" => {
                out.push((at.to_string(), doc.clone()))
            }
            Json::Object(map) => map.iter().for_each(|(k, v)| leaves(v, &join(k), out)),
            _ => out.push((at.to_string(), doc.clone())),
        }
    }

    fn check_table<T>(table: &[Field<T>], item: &T, doc: &Json, seen: &mut Vec<&'static str>) {
        let mut found = Vec::new();
        leaves(doc, "", &mut found);
        for (path, value) in found {
            let rows: Vec<_> = table.iter().filter(|f| f.path == path).collect();
            assert_eq!(rows.len(), 1, "{path}: {} rows", rows.len());
            let row = rows[0];
            seen.push(row.path);
            match (row.value, &value) {
                (Value::Number { get, .. }, Json::Number(n)) => {
                    assert_eq!(get(item), n.as_f64(), "{path} reads another value");
                }
                (Value::Flag { get, .. }, Json::Bool(b)) => assert_eq!(get(item), *b, "{path}"),
                (Value::Choice { get, choices, .. }, Json::String(s)) => {
                    assert_eq!(get(item), s, "{path}");
                    assert!(choices.iter().any(|c| c.0 == s), "{path}: {s} is no choice");
                }
                (Value::Choice { get, choices, .. }, Json::Object(_)) => {
                    assert!(choices.iter().any(|c| c.0 == get(item)), "{path}");
                }
                (Value::Name { get } | Value::Id { get }, Json::String(s)) => {
                    assert_eq!(get(item), s, "{path}")
                }
                (Value::Numbers { get, .. }, Json::Array(list)) => {
                    let want: Vec<f64> = list.iter().filter_map(Json::as_f64).collect();
                    assert_eq!(get(item), Some(want.as_slice()), "{path}");
                }
                (_, v) => panic!("{path}: the row's kind does not hold {v}"),
            }
        }
    }

    #[test]
    fn every_leaf_a_user_can_edit_has_exactly_one_row() {
        let mut seen = Vec::new();
        for s in samples() {
            let doc = serde_json::to_value(&s).unwrap();
            let mut top = doc.clone();
            let map = top.as_object_mut().unwrap();
            let classes = map.remove("job_classes").unwrap();
            let platforms = map.remove("platforms").unwrap();
            if let Some(services) = map.remove("services") {
                for (service, doc) in s.services.iter().zip(services.as_array().unwrap()) {
                    check_table(SERVICE_FIELDS, service, doc, &mut seen);
                }
            }
            if let Some(pipelines) = map.remove("pipelines") {
                for (pipeline, doc) in s.pipelines.iter().zip(pipelines.as_array().unwrap()) {
                    let mut doc = doc.clone();
                    let stages = doc.as_object_mut().unwrap().remove("stages").unwrap();
                    check_table(PIPELINE_FIELDS, pipeline, &doc, &mut seen);
                    for (stage, doc) in pipeline.stages.iter().zip(stages.as_array().unwrap()) {
                        // Its `after` is the pipeline's graph, edited and checked as one
                        // (`Pipeline::check_graph`), not a field.
                        let mut doc = doc.clone();
                        doc.as_object_mut().unwrap().remove("after");
                        check_table(JOB_CLASS_FIELDS, stage, &doc, &mut seen);
                    }
                }
            }
            check_table(SCENARIO_FIELDS, &s, &top, &mut seen);
            for (class, doc) in s.job_classes.iter().zip(classes.as_array().unwrap()) {
                check_table(JOB_CLASS_FIELDS, class, doc, &mut seen);
            }
            for (platform, doc) in s.platforms.iter().zip(platforms.as_array().unwrap()) {
                let mut doc = doc.clone();
                let map = doc.as_object_mut().unwrap();
                let pools = map.remove("node_pools").unwrap();
                for (pool, doc) in platform.node_pools.iter().zip(pools.as_array().unwrap()) {
                    check_table(NODE_POOL_FIELDS, pool, doc, &mut seen);
                }
                if let Some(teams) = map.remove("teams") {
                    for (team, doc) in platform.teams.iter().zip(teams.as_array().unwrap()) {
                        check_table(TEAM_POLICY_FIELDS, team, doc, &mut seen);
                    }
                }
                check_table(PLATFORM_FIELDS, platform, &doc, &mut seen);
            }
        }
        // And no row names a field the documents do not have.
        let paths = SCENARIO_FIELDS.iter().map(|f| f.path);
        let paths = paths.chain(JOB_CLASS_FIELDS.iter().map(|f| f.path));
        let paths = paths.chain(SERVICE_FIELDS.iter().map(|f| f.path));
        let paths = paths.chain(NODE_POOL_FIELDS.iter().map(|f| f.path));
        let paths = paths.chain(TEAM_POLICY_FIELDS.iter().map(|f| f.path));
        let paths = paths.chain(PIPELINE_FIELDS.iter().map(|f| f.path));
        for path in paths.chain(PLATFORM_FIELDS.iter().map(|f| f.path)) {
            assert!(seen.contains(&path), "{path} is in no scenario document");
        }
    }

    #[test]
    fn the_region_choices_are_the_catalogs_regions() {
        let listed: Vec<&str> = REGION_CHOICES[1..].iter().map(|(key, _)| *key).collect();
        let catalog: Vec<&str> = crate::model::transfer::regions()
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        assert_eq!(listed, catalog);
    }

    #[test]
    fn each_setter_writes_the_field_its_row_names() {
        for s in samples() {
            for row in JOB_CLASS_FIELDS {
                let mut class = s.job_classes[0].clone();
                if let Value::Number { get, set } = row.value {
                    let Some(_) = get(&class) else { continue };
                    let v = (row.min + row.max / 3.0).round().max(row.min).min(row.max);
                    set(&mut class, v);
                    assert_eq!(get(&class), Some(v), "{}", row.path);
                    let doc = serde_json::to_value(&class).unwrap();
                    let at = row.path.split('.').fold(&doc, |d, k| &d[k]);
                    assert_eq!(at.as_f64(), Some(v), "{} writes elsewhere", row.path);
                }
            }
            for row in PLATFORM_FIELDS {
                let mut p = s.platforms[0].clone();
                if let Value::Number { get, set } = row.value {
                    let Some(_) = get(&p) else { continue };
                    let v = (row.min + row.max / 3.0).round().max(row.min).min(row.max);
                    set(&mut p, v);
                    let doc = serde_json::to_value(&p).unwrap();
                    let at = row.path.split('.').fold(&doc, |d, k| &d[k]);
                    // An optional object left at its defaults is not written.
                    let omitted = at.is_null() && get(&Platform::default()) == Some(v);
                    assert!(
                        omitted || at.as_f64() == Some(v),
                        "{} writes elsewhere",
                        row.path
                    );
                }
            }
            for row in NODE_POOL_FIELDS {
                let mut p = s.platforms[0].first_pool().clone();
                if let Value::Number { get, set } = row.value {
                    let Some(_) = get(&p) else { continue };
                    let v = (row.min + row.max / 3.0).round().max(row.min).min(row.max);
                    set(&mut p, v);
                    let doc = serde_json::to_value(&p).unwrap();
                    let at = row.path.split('.').fold(&doc, |d, k| &d[k]);
                    // An optional object left at its defaults is not written.
                    let omitted = at.is_null() && get(&NodePool::default()) == Some(v);
                    assert!(
                        omitted || at.as_f64() == Some(v),
                        "{} writes elsewhere",
                        row.path
                    );
                }
            }
        }
    }
}
