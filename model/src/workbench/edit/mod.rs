//! Edits by dotted path into the scenario JSON: `seed=7`, `platforms.0.ops_fte=0.5`,
//! `job_classes.0.arrivals={"kind":"poisson","per_day":20}`.
//!
//! A value is read as JSON when it parses as JSON, otherwise as a string. The path must exist
//! in the document or be a row of the field table (a typo is an error naming it, never a
//! silently ignored edit), and the edited document must still be a valid scenario.
//!
//! The domain edits the page makes are here too, natively tested: a job class's rate,
//! duration and arrival kind ([`class`]), and platforms and job classes added, re-instanced,
//! reset or removed ([`lists`]).

use crate::model::error::ScenarioError;
use crate::model::scenario::node_pool::canonical_path;
use crate::model::scenario::Scenario;
use serde_json::Value;

mod by_row;
pub mod class;
pub mod lists;
pub mod pipelines;
pub mod teams;

pub use class::*;
pub use lists::*;
pub use teams::*;

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

/// Says what was wrong with the edit, naming it (a front end adds how it was given, e.g. the
/// CLI's `--set`).
impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::Syntax { edit } => {
                write!(
                    f,
                    "{edit}: expected path=value, e.g. platforms.0.ops_fte=0.5"
                )
            }
            EditError::NoSuchField { path, valid_prefix } => {
                if valid_prefix.is_empty() {
                    write!(f, "{path}: no such field in the scenario")
                } else {
                    write!(f, "{path}: no such field under {valid_prefix}")
                }
            }
            EditError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl EditError {
    /// Whether the edit itself was refused (its form or its path), as opposed to the scenario
    /// it made.
    pub fn is_about_the_edit(&self) -> bool {
        !matches!(self, EditError::Invalid(_))
    }
}

impl std::error::Error for EditError {}

/// Applies `path=value` edits in order and returns the validated scenario.
///
/// # Examples
///
/// ```
/// use gpucost_model::model::scenario::Scenario;
/// use gpucost_model::workbench::edit::apply_edits;
///
/// let edited = apply_edits(
///     &Scenario::default(),
///     &["platforms.0.ops_fte=0.5".to_string(), "seed=7".to_string()],
/// )
/// .unwrap();
/// assert_eq!((edited.platforms[0].ops_fte, edited.seed), (0.5, 7));
///
/// let typo = apply_edits(&Scenario::default(), &["platforms.0.op_fte=1".to_string()]);
/// assert_eq!(
///     typo.unwrap_err().to_string(),
///     "platforms.0.op_fte: no such field under platforms.0"
/// );
/// ```
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
        // A path of the old, single-pool shape names pool 0's field.
        let path = &*canonical_path(path);
        match field_mut(&mut doc, path) {
            Ok(slot) => *slot = value,
            Err(missing) => {
                // A field a document leaves out: added where its object is, else set through
                // the field table's row (whose object follows a default until edited).
                if add_optional_field(&mut doc, path, value.clone()).is_none()
                    && add_map_entry(&mut doc, path, value.clone()).is_none()
                {
                    by_row::set_by_row(&mut doc, path, &value).ok_or(missing)??;
                }
            }
        }
    }
    let edited = Scenario::from_json_value(doc).map_err(EditError::Invalid)?;
    edited.validate().map_err(EditError::Invalid)?;
    Ok(edited)
}

/// Fields a scenario document leaves out when they hold their default (`None`): an edit may
/// add them where the object that holds them is.
const OPTIONAL_FIELDS: &[&str] = &[
    "at_share",
    "weekday_weights",
    "gpu_sharing",
    "serving",
    "shares_nodes",
    "shares_nodes_with_training",
    "backoff_s",
    "backoff_multiplier",
    "backoff_max_s",
    "term_years",
    "payment",
    "commitment",
    "people_blocked_per_job",
    "waiting_usd_per_hour",
    "engineer_months",
    "usd",
    "current",
    "usd_per_1000_transitions",
    "free_transitions_per_month",
    "after",
    "egress_tiers",
    "interconnect",
    "compact_placement",
    "region",
    "data_path",
    "data_region",
    "reclaim_quota",
    "lower_priority",
    "grace_period_s",
    "consolidation_evictions_per_node_hour",
    "storage",
    "capacity_gib",
    "throughput_gb_per_s",
    "node_read_gb_per_s",
];

/// Objects a scenario document leaves out when every field in them holds its default: an
/// edit of one of their fields adds them where their parent is.
const OPTIONAL_OBJECTS: &[&str] = &[
    "one_off",
    "payback",
    "verdict",
    "orchestration",
    "spot_reclaims",
    "preemption",
    "staging",
];

/// A platform's maps keyed by a job class's or a service's name, which a document leaves out
/// while empty; `service_settings` holds an object per service.
const PLATFORM_MAPS: &[&str] = &["class_pools", "checkpoint_interval_min", "service_settings"];

/// Adds an entry to one of a platform's [`PLATFORM_MAPS`] (`platforms.<i>.<map>.<name>`, or
/// `platforms.<i>.service_settings.<service>.<field>`), adding the map (and the service's
/// object) first where the document leaves it out; `None` for any other path. The scenario's
/// reader and validation then check the name and the field.
fn add_map_entry(doc: &mut Value, path: &str, value: Value) -> Option<()> {
    fn object(v: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }
    let parts: Vec<&str> = path.splitn(4, '.').collect();
    let ["platforms", i, map, key] = parts.as_slice() else {
        return None;
    };
    if !PLATFORM_MAPS.contains(map) || key.is_empty() {
        return None;
    }
    let Value::Object(platform) = field_mut(doc, &format!("platforms.{i}")).ok()? else {
        return None;
    };
    let entries = object(
        platform
            .entry(map.to_string())
            .or_insert_with(|| Value::Object(Default::default())),
    )?;
    match (*map, key.rsplit_once('.')) {
        ("service_settings", Some((service, field))) => {
            object(
                entries
                    .entry(service.to_string())
                    .or_insert_with(|| Value::Object(Default::default())),
            )?
            .insert(field.to_string(), value);
        }
        _ => {
            entries.insert(key.to_string(), value);
        }
    }
    Some(())
}

/// Adds `path`'s last part to the object its prefix names when it is one of the
/// [`OPTIONAL_FIELDS`] (the scenario reader then checks it belongs there), adding that object
/// first where it is one of the [`OPTIONAL_OBJECTS`]; `None` otherwise.
fn add_optional_field(doc: &mut Value, path: &str, value: Value) -> Option<()> {
    let (prefix, last) = path.rsplit_once('.').unwrap_or(("", path));
    if !OPTIONAL_FIELDS.contains(&last) {
        return None;
    }
    // A field of the scenario itself.
    if prefix.is_empty() {
        let Value::Object(map) = doc else {
            return None;
        };
        map.insert(last.to_string(), value);
        return Some(());
    }
    if field_mut(doc, prefix).is_err() {
        let (parent, object) = prefix.rsplit_once('.').unwrap_or(("", prefix));
        if !OPTIONAL_OBJECTS.contains(&object) {
            return None;
        }
        let parent = if parent.is_empty() {
            Some(&mut *doc)
        } else {
            field_mut(doc, parent).ok()
        };
        let Some(Value::Object(map)) = parent else {
            return None;
        };
        map.insert(object.to_string(), Value::Object(Default::default()));
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
            "platforms.0.op_fte: no such field under platforms.0"
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
        // A platform's checkpoint interval for a class: the map is added; a class it does not
        // have is named.
        let edited = apply_edits(
            &s,
            &["platforms.0.checkpoint_interval_min.Training=45".into()],
        )
        .unwrap();
        assert_eq!(
            edited.platforms[0].checkpoint_interval_min["Training"],
            45.0
        );
        let err =
            apply_edits(&s, &["platforms.0.checkpoint_interval_min.Nope=45".into()]).unwrap_err();
        assert!(
            err.to_string()
                .contains("no job class or pipeline stage is named \"Nope\""),
            "{err}"
        );
        // A service's autoscaling on one platform.
        let mut served = s.clone();
        served.services.push(crate::model::scenario::Service {
            name: "api".into(),
            ..Default::default()
        });
        let edited = apply_edits(
            &served,
            &["platforms.0.service_settings.api.target_utilization=0.8".into()],
        )
        .unwrap();
        assert_eq!(
            edited.platforms[0].service_settings["api"].target_utilization,
            Some(0.8)
        );
        let err = apply_edits(
            &served,
            &["platforms.0.service_settings.web.min_replicas=2".into()],
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("no service is named \"web\""),
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
}
