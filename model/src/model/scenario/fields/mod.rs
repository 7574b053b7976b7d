//! The field table: one row for every value a user can set in a scenario, with its dotted
//! path, label, unit, range (and, where the page has a slider, the slider's), doc and the
//! source of its default, and how to read and write it.
//!
//! Validation ([`Scenario::validate`]), the page's settings rows, the method panel's sources,
//! the knobs, `--set` and the schema's words all follow these rows, so a new field is one row
//! (plus what the model does with it). A file per item holds its rows, with paths relative to
//! the item: [`SCENARIO_FIELDS`] to the scenario, [`JOB_CLASS_FIELDS`] to `job_classes.<i>`
//! (and a pipeline's `stages.<j>`), [`PIPELINE_FIELDS`] to `pipelines.<i>`,
//! [`PLATFORM_FIELDS`] to `platforms.<i>`, [`NODE_POOL_FIELDS`] to its `node_pools.<j>`,
//! [`TEAM_POLICY_FIELDS`] to its `teams.<k>`, [`SERVICE_FIELDS`] to `services.<i>`. The rows
//! are in validation order: the first field out of range is the one reported. A test checks
//! that every leaf of a scenario document has exactly one row.
//!
//! [`Scenario::validate`]: super::Scenario::validate

use super::commitment::{Commitment, Payment};
use super::{
    gpu_sharing, Arrivals, Cloud, Duration, FailureKind, GpuSharing, JobClass, Llm, NodePool,
    Overflow, Pipeline, Placement, Platform, Scenario, Service, ServiceSpikes, Serving,
    SharedCosts, TeamPolicy,
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
    /// Requests in each minute of a recorded trace: 1 to [`super::limits::REPLAY_MINUTES_MAX`]
    /// whole numbers, at least one above 0.
    Minutes,
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

/// A value to set through a row's setter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input<'a> {
    /// A number.
    Number(f64),
    /// A switch.
    Flag(bool),
    /// A choice, by its JSON value.
    Choice(&'a str),
    /// A value of no kind a row is set by (a list, an object).
    Other,
}

impl<T> Field<T> {
    /// Sets `input` on `item` through this row's setter: `Err` with what the row expects where
    /// `input` is of another kind or not one of its choices; `None` for a row that is not set
    /// by value (a name, an id, a list).
    pub fn set_input(&self, item: &mut T, input: Input) -> Option<Result<(), String>> {
        Some(match (self.value, input) {
            (Value::Number { set, .. }, Input::Number(v)) => {
                set(item, v);
                Ok(())
            }
            (Value::Number { .. }, _) => Err("a number".to_string()),
            (Value::Flag { set, .. }, Input::Flag(on)) => {
                set(item, on);
                Ok(())
            }
            (Value::Flag { .. }, _) => Err("true or false".to_string()),
            (Value::Choice { set, choices, .. }, Input::Choice(c))
                if choices.iter().any(|(v, _)| *v == c) =>
            {
                set(item, c);
                Ok(())
            }
            (Value::Choice { choices, .. }, _) => Err(format!(
                "one of {}",
                choices
                    .iter()
                    .map(|(c, _)| format!("\"{c}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            (Value::Name { .. } | Value::Id { .. } | Value::Numbers { .. }, _) => return None,
        })
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
    if let Some(row) = field(PLATFORM_FIELDS, path).or_else(|| field(HOSTED_API_FIELDS, path)) {
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

mod arrivals;
mod hosted_api;
mod job_class;
mod node_pool;
mod pipeline;
mod platform;
mod scenario;
mod service;
mod team;
#[cfg(test)]
mod tests;

pub use arrivals::Arrives;
use arrivals::{CLASS_ARRIVALS, PIPELINE_ARRIVALS};
pub use hosted_api::{BILLING_CHOICES, HOSTED_API_FIELDS, TERM_CHOICES};
pub use job_class::JOB_CLASS_FIELDS;
pub use node_pool::NODE_POOL_FIELDS;
pub use pipeline::PIPELINE_FIELDS;
use platform::region_choice;
pub use platform::{PLATFORM_FIELDS, REGION_CHOICES, STORAGE_CHOICES};
pub use scenario::SCENARIO_FIELDS;
pub use service::{LLM_MODEL_CHOICES, SERVICE_FIELDS};
pub use team::TEAM_POLICY_FIELDS;
