//! Edits by dotted path into the scenario JSON: `seed=7`, `platforms.0.ops_fte=0.5`,
//! `job_classes.0.arrivals={"kind":"poisson","per_day":20}`.
//!
//! A value is read as JSON when it parses as JSON, otherwise as a string. The path must exist
//! (a typo is an error naming it, never a silently ignored edit), and the edited document must
//! still be a valid scenario.
//!
//! Also the domain edits the page makes on a job class: its arrival rate and duration set
//! whatever the kind of its arrivals or distribution, and a switch of its arrival kind.

use crate::model::error::ScenarioError;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};
use serde_json::Value;

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum EditError {
    /// Not of the form `path=value`.
    Syntax {
        /// The edit as given.
        edit: String,
    },
    /// The path names no field.
    NoSuchField {
        /// The path as given.
        path: String,
        /// The longest prefix that exists.
        valid_prefix: String,
    },
    /// The edited scenario is invalid.
    Invalid(ScenarioError),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::Syntax { edit } => {
                write!(
                    f,
                    "--set {edit}: expected path=value, e.g. platforms.0.ops_fte=0.5"
                )
            }
            EditError::NoSuchField { path, valid_prefix } => {
                if valid_prefix.is_empty() {
                    write!(f, "--set {path}: no such field in the scenario")
                } else {
                    write!(f, "--set {path}: no such field under {valid_prefix}")
                }
            }
            EditError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EditError {}

/// Applies `path=value` edits in order and returns the validated scenario.
pub fn apply_edits(scenario: &Scenario, edits: &[String]) -> Result<Scenario, EditError> {
    let mut doc = serde_json::to_value(scenario).map_err(|e| {
        EditError::Invalid(ScenarioError::Parse {
            message: e.to_string(),
        })
    })?;
    for edit in edits {
        let (path, raw) = edit
            .split_once('=')
            .ok_or_else(|| EditError::Syntax { edit: edit.clone() })?;
        let path = path.trim();
        if path.is_empty() {
            return Err(EditError::Syntax { edit: edit.clone() });
        }
        let value =
            serde_json::from_str::<Value>(raw).unwrap_or_else(|_| Value::String(raw.into()));
        match field_mut(&mut doc, path) {
            Ok(slot) => *slot = value,
            Err(missing) => add_optional_field(&mut doc, path, value).ok_or(missing)?,
        }
    }
    let edited = Scenario::from_json_value(doc).map_err(EditError::Invalid)?;
    edited.validate().map_err(EditError::Invalid)?;
    Ok(edited)
}

/// Fields a scenario document leaves out when they hold their default (`None`): an edit may
/// add them where the object that holds them is.
const OPTIONAL_FIELDS: &[&str] = &["at_share"];

/// Adds `path`'s last part to the object its prefix names when it is one of the
/// [`OPTIONAL_FIELDS`] (the scenario reader then checks it belongs there); `None` otherwise.
fn add_optional_field(doc: &mut Value, path: &str, value: Value) -> Option<()> {
    let (prefix, last) = path.rsplit_once('.')?;
    if !OPTIONAL_FIELDS.contains(&last) {
        return None;
    }
    let Value::Object(map) = field_mut(doc, prefix).ok()? else {
        return None;
    };
    map.insert(last.to_string(), value);
    Some(())
}

pub(crate) fn field_mut<'a>(doc: &'a mut Value, path: &str) -> Result<&'a mut Value, EditError> {
    let mut here = doc;
    let mut walked: Vec<&str> = Vec::new();
    for part in path.split('.') {
        let next = match here {
            Value::Object(map) => map.get_mut(part),
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
            _ => None,
        };
        match next {
            Some(v) => here = v,
            None => {
                return Err(EditError::NoSuchField {
                    path: path.to_string(),
                    valid_prefix: walked.join("."),
                })
            }
        }
        walked.push(part);
    }
    Ok(here)
}

/// Mean jobs per day of `class`, whatever its arrival kind.
pub fn jobs_per_day(class: &JobClass) -> Option<f64> {
    Some(class.arrivals.jobs_per_day())
}

/// Sets `class`'s mean jobs per day, keeping its arrival kind: bursts keep their size and
/// change how often they come; other kinds scale (an hour-of-day profile keeps its shape).
pub fn set_jobs_per_day(class: &mut JobClass, v: f64) {
    let now = class.arrivals.jobs_per_day();
    class.arrivals = match &class.arrivals {
        Arrivals::Bursts { jobs_per_burst, .. } => Arrivals::Bursts {
            bursts_per_day: v / f64::from(*jobs_per_burst),
            jobs_per_burst: *jobs_per_burst,
        },
        other if now > 0.0 => other.scaled(v / now),
        Arrivals::Steady { .. } => Arrivals::Steady { per_day: v },
        _ => Arrivals::Poisson { per_day: v },
    };
}

/// Switches `class`'s arrivals to the kind with this JSON name (`poisson`, `steady`,
/// `bursts`, `hour_of_day`) at the same mean rate; bursts come 12 at a time, a new hour-of-day
/// profile is flat, and an existing one is kept. An unknown name means Poisson.
pub fn set_arrivals_kind(class: &mut JobClass, kind: &str) {
    let per_day = class.arrivals.jobs_per_day();
    class.arrivals = match kind {
        "steady" => Arrivals::Steady { per_day },
        "bursts" => Arrivals::Bursts {
            bursts_per_day: per_day / 12.0,
            jobs_per_burst: 12,
        },
        "hour_of_day" => match &class.arrivals {
            keep @ Arrivals::HourOfDay { .. } => keep.clone(),
            _ => Arrivals::HourOfDay {
                per_day,
                hourly_weights: vec![1.0; 24],
            },
        },
        _ => Arrivals::Poisson { per_day },
    };
}

/// The median duration of `class` in hours (a fixed duration's hours, an exponential's
/// mean: what the page's median field shows for them).
pub fn duration_median(class: &JobClass) -> Option<f64> {
    Some(match class.duration {
        Duration::Fixed { hours } => hours,
        Duration::LogNormal { median_hours, .. } => median_hours,
        Duration::Exponential { mean_hours } => mean_hours,
    })
}

/// Sets the median field: a fixed or exponential duration takes it as its hours or mean; a
/// log-normal's 90th percentile rises to it if it was lower.
pub fn set_duration_median(class: &mut JobClass, v: f64) {
    class.duration = match class.duration {
        Duration::Fixed { .. } => Duration::Fixed { hours: v },
        Duration::LogNormal { p90_hours, .. } => Duration::LogNormal {
            median_hours: v,
            p90_hours: p90_hours.max(v),
        },
        Duration::Exponential { .. } => Duration::Exponential { mean_hours: v },
    }
}

/// The 90th percentile of `class`'s duration in hours (exact for each distribution).
pub fn duration_p90(class: &JobClass) -> Option<f64> {
    Some(match class.duration {
        Duration::LogNormal { p90_hours, .. } => p90_hours,
        Duration::Fixed { hours } => hours,
        Duration::Exponential { mean_hours } => mean_hours * std::f64::consts::LN_10,
    })
}

/// Sets the 90th percentile: the duration becomes log-normal through the current median
/// (lowered to `v` if it was above).
pub fn set_duration_p90(class: &mut JobClass, v: f64) {
    let median = match class.duration {
        Duration::Fixed { hours } => hours,
        Duration::LogNormal { median_hours, .. } => median_hours,
        Duration::Exponential { mean_hours } => mean_hours * std::f64::consts::LN_2,
    };
    class.duration = Duration::LogNormal {
        median_hours: median.min(v),
        p90_hours: v,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_numbers_strings_and_objects_by_path() {
        let s = Scenario::default();
        let edited = apply_edits(
            &s,
            &[
                "seed=7".into(),
                "platforms.0.ops_fte=0.5".into(),
                "platforms.0.name=Batch".into(),
                r#"job_classes.0.arrivals={"kind":"steady","per_day":3}"#.into(),
            ],
        )
        .unwrap();
        assert_eq!(edited.seed, 7);
        assert_eq!(edited.platforms[0].ops_fte, 0.5);
        assert_eq!(edited.platforms[0].name, "Batch");
        assert_eq!(edited.job_classes[0].arrivals.jobs_per_day(), 3.0);
    }

    #[test]
    fn unknown_paths_and_bad_values_are_named() {
        let s = Scenario::default();
        let err = apply_edits(&s, &["platforms.0.op_fte=1".into()]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--set platforms.0.op_fte=1: no such field under platforms.0".replace("=1", "")
        );
        let err = apply_edits(&s, &["platforms.0.ops_fte=-1".into()]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("platforms.0.ops_fte must be from 0 to 100"),
            "{err}"
        );
        // A field left out at its default can be set; where it does not belong it is named.
        let edited = apply_edits(&s, &["job_classes.0.failures.at_share=0.1".into()]).unwrap();
        assert_eq!(edited.job_classes[0].failures.at_share, Some(0.1));
        let err = apply_edits(&s, &["platforms.0.at_share=0.1".into()]).unwrap_err();
        assert!(
            err.to_string().contains("unknown field `at_share`"),
            "{err}"
        );
        let err = apply_edits(&s, &["seed".into()]).unwrap_err();
        assert!(matches!(err, EditError::Syntax { .. }));
        let err = apply_edits(&s, &["replications=many".into()]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "scenario JSON: replications: invalid type: string \"many\", expected u32"
        );
    }

    #[test]
    fn a_class_keeps_its_arrival_kind_when_its_rate_is_set() {
        let mut c = JobClass::default();
        set_arrivals_kind(&mut c, "bursts");
        assert_eq!(
            c.arrivals,
            Arrivals::Bursts {
                bursts_per_day: 1.0,
                jobs_per_burst: 12
            }
        );
        set_jobs_per_day(&mut c, 36.0);
        assert_eq!(
            c.arrivals,
            Arrivals::Bursts {
                bursts_per_day: 3.0,
                jobs_per_burst: 12
            }
        );
        set_arrivals_kind(&mut c, "hour_of_day");
        set_jobs_per_day(&mut c, 72.0);
        assert_eq!(jobs_per_day(&c), Some(72.0));
        assert!(
            matches!(&c.arrivals, Arrivals::HourOfDay { hourly_weights, .. } if hourly_weights == &vec![1.0; 24])
        );
    }

    #[test]
    fn a_p90_below_the_median_lowers_the_median() {
        let mut c = JobClass {
            duration: Duration::Exponential { mean_hours: 2.0 },
            ..JobClass::default()
        };
        // An exponential's median is mean × ln 2 and its 90th percentile mean × ln 10.
        assert!((duration_p90(&c).unwrap() - 2.0 * std::f64::consts::LN_10).abs() < 1e-12);
        set_duration_p90(&mut c, 1.0);
        assert_eq!(
            c.duration,
            Duration::LogNormal {
                median_hours: 1.0,
                p90_hours: 1.0
            }
        );
        set_duration_median(&mut c, 3.0);
        assert_eq!(
            c.duration,
            Duration::LogNormal {
                median_hours: 3.0,
                p90_hours: 3.0
            }
        );
    }
}
