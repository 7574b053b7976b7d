//! An edit by dotted path made through the field table's row for that path, on the typed
//! scenario: it reaches the fields a document leaves out because their object is absent (a
//! platform's serving settings follow its profile until one is edited, which the row's
//! setter makes the platform's own), as the page's settings do.

use super::EditError;
use crate::model::error::ScenarioError;
use crate::model::scenario::fields::{
    field, Field, Input, Value as Row, HOSTED_API_FIELDS, JOB_CLASS_FIELDS, NODE_POOL_FIELDS,
    PIPELINE_FIELDS, PLATFORM_FIELDS, SCENARIO_FIELDS, SERVICE_FIELDS, TEAM_POLICY_FIELDS,
};
use crate::model::scenario::Scenario;
use serde_json::Value;

/// Sets `path` to `value` through its row where the table has one: `None` where it has
/// none, else whether the value was of the row's kind.
pub(super) fn set_by_row(
    doc: &mut Value,
    path: &str,
    value: &Value,
) -> Option<Result<(), EditError>> {
    let mut scenario = match Scenario::from_json_value(doc.clone()) {
        Ok(s) => s,
        // An earlier edit made the document unreadable: that is what to report.
        Err(e) => return Some(Err(EditError::Invalid(e))),
    };
    let parts: Vec<&str> = path.split('.').collect();
    let index = |i: &str| i.parse::<usize>().ok();
    let set = match parts.as_slice() {
        ["job_classes", i, rest @ ..] => {
            let item = scenario.job_classes.get_mut(index(i)?)?;
            row_set(JOB_CLASS_FIELDS, item, &rest.join("."), value)
        }
        ["pipelines", i, "stages", j, rest @ ..] => {
            let pipeline = scenario.pipelines.get_mut(index(i)?)?;
            let item = pipeline.stages.get_mut(index(j)?)?;
            row_set(JOB_CLASS_FIELDS, item, &rest.join("."), value)
        }
        ["pipelines", i, rest @ ..] => {
            let item = scenario.pipelines.get_mut(index(i)?)?;
            row_set(PIPELINE_FIELDS, item, &rest.join("."), value)
        }
        ["services", i, rest @ ..] => {
            let item = scenario.services.get_mut(index(i)?)?;
            row_set(SERVICE_FIELDS, item, &rest.join("."), value)
        }
        ["platforms", i, "node_pools", j, rest @ ..] => {
            let platform = scenario.platforms.get_mut(index(i)?)?;
            let item = platform.node_pools.get_mut(index(j)?)?;
            row_set(NODE_POOL_FIELDS, item, &rest.join("."), value)
        }
        ["platforms", i, "teams", j, rest @ ..] => {
            let platform = scenario.platforms.get_mut(index(i)?)?;
            let item = platform.teams.get_mut(index(j)?)?;
            row_set(TEAM_POLICY_FIELDS, item, &rest.join("."), value)
        }
        ["platforms", i, rest @ ..] if rest.first() == Some(&"hosted_api") => {
            let item = scenario.platforms.get_mut(index(i)?)?;
            row_set(HOSTED_API_FIELDS, item, &rest.join("."), value)
        }
        ["platforms", i, rest @ ..] => {
            let item = scenario.platforms.get_mut(index(i)?)?;
            row_set(PLATFORM_FIELDS, item, &rest.join("."), value)
        }
        _ => row_set(SCENARIO_FIELDS, &mut scenario, path, value),
    }?;
    if let Err(expects) = set {
        let reason = if expects.starts_with("has no value") {
            expects
        } else {
            format!("expects {expects}, not {value}")
        };
        return Some(Err(EditError::Invalid(ScenarioError::Invalid {
            field: path.to_string(),
            reason,
        })));
    }
    match serde_json::to_value(&scenario) {
        Ok(edited) => *doc = edited,
        Err(e) => {
            return Some(Err(EditError::Invalid(ScenarioError::Parse {
                message: e.to_string(),
            })))
        }
    }
    Some(Ok(()))
}

/// Why an edit through a row of another variant is refused.
const OTHER_KIND: &str = "has no value here: the field belongs to another kind of arrivals, \
                          duration or GPU sharing; choose that kind first";

/// Sets `value` on `item` through the row of `rows` at `path`: `None` where there is no such
/// row or it is not set by value (a name, a list), else what the row expects where the value
/// is of another kind.
fn row_set<T>(
    rows: &'static [Field<T>],
    item: &mut T,
    path: &str,
    value: &Value,
) -> Option<Result<(), String>> {
    let row = field(rows, path)?;
    let input = match value {
        Value::Number(n) => Input::Number(n.as_f64()?),
        Value::Bool(on) => Input::Flag(*on),
        Value::String(s) => Input::Choice(s),
        _ => Input::Other,
    };
    if let Err(expects) = row.set_input(item, input)? {
        return Some(Err(expects));
    }
    let reads_back = match (row.value, input) {
        (Row::Number { get, .. }, _) => get(item).is_some(),
        (Row::Choice { get, .. }, Input::Choice(c)) => get(item) == c,
        _ => true,
    };
    // A row of one variant (a log-normal's median, a burst's size, time-slicing's loss) on an
    // item of another: its setter leaves it without the value, which is said, never ignored.
    Some(if reads_back {
        Ok(())
    } else {
        Err(OTHER_KIND.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::super::{apply_edits, EditError};
    use super::*;
    use crate::workbench::presets::presets;

    /// `path=value` for each settable row of `rows` on `item` at `prefix`: its value where the
    /// item has one (setting it again must succeed), else its smallest.
    fn edits<T>(rows: &[Field<T>], item: &T, prefix: &str) -> Vec<(String, bool)> {
        rows.iter()
            .filter_map(|f| {
                // A whole number as a user types it (a count is read as an integer).
                let number = |v: f64| {
                    if v.fract() == 0.0 && v.abs() < 1e15 {
                        serde_json::json!(v as i64)
                    } else {
                        serde_json::json!(v)
                    }
                };
                let (value, has) = match f.value {
                    Row::Number { get, .. } => match get(item) {
                        Some(v) => (number(v), true),
                        None => (number(f.min.max(f.off_or_at_least.unwrap_or(0.0))), false),
                    },
                    Row::Flag { get, .. } => (Value::Bool(get(item)), true),
                    Row::Choice { get, .. } => (Value::String(get(item).into()), true),
                    _ => return None,
                };
                Some((format!("{prefix}{}={value}", f.path), has))
            })
            .collect()
    }

    /// The edits of every settable row of `s`'s first job class, service and team and of
    /// every platform and its first pool.
    fn all_edits(s: &Scenario) -> Vec<(String, bool)> {
        let mut all = edits(SCENARIO_FIELDS, s, "");
        if let Some(c) = s.job_classes.first() {
            all.extend(edits(JOB_CLASS_FIELDS, c, "job_classes.0."));
        }
        if let Some(v) = s.services.first() {
            all.extend(edits(SERVICE_FIELDS, v, "services.0."));
        }
        if let Some(p) = s.pipelines.first() {
            all.extend(edits(PIPELINE_FIELDS, p, "pipelines.0."));
            // A stage's arrivals are its pipeline's, not its own.
            let stage = edits(JOB_CLASS_FIELDS, &p.stages[0], "pipelines.0.stages.0.");
            all.extend(stage.into_iter().filter(|(e, _)| !e.contains(".arrivals.")));
        }
        for (i, p) in s.platforms.iter().enumerate() {
            all.extend(edits(PLATFORM_FIELDS, p, &format!("platforms.{i}.")));
            all.extend(edits(HOSTED_API_FIELDS, p, &format!("platforms.{i}.")));
            if let Some(pool) = p.node_pools.first() {
                all.extend(edits(
                    NODE_POOL_FIELDS,
                    pool,
                    &format!("platforms.{i}.node_pools.0."),
                ));
            }
            if let Some(t) = p.teams.first() {
                all.extend(edits(
                    TEAM_POLICY_FIELDS,
                    t,
                    &format!("platforms.{i}.teams.0."),
                ));
            }
        }
        all
    }

    #[test]
    fn every_row_s_path_is_reached_on_every_preset() {
        for preset in presets() {
            let s = preset.scenario();
            for (edit, has) in all_edits(&s) {
                match apply_edits(&s, std::slice::from_ref(&edit)) {
                    Ok(edited) => {
                        // The row reads back the value set.
                        if has {
                            assert!(
                                all_edits(&edited).iter().any(|(e, _)| *e == edit),
                                "{}: {edit} does not read back",
                                preset.name
                            );
                        }
                    }
                    Err(e @ (EditError::NoSuchField { .. } | EditError::Syntax { .. })) => {
                        panic!("{}: {edit}: {e}", preset.name)
                    }
                    // Refused by validation, naming the field: the path was reached (a
                    // choice of a variant a platform cannot have, a value of another kind
                    // of item). A number the item has, set again, is never refused.
                    Err(e @ EditError::Invalid(_)) => {
                        let number = edit
                            .split('=')
                            .nth(1)
                            .is_some_and(|v| v.parse::<f64>().is_ok());
                        assert!(!(has && number), "{}: {edit}: {e}", preset.name);
                    }
                }
            }
        }
    }

    #[test]
    fn a_serving_setting_a_document_leaves_out_is_set_through_its_row() {
        let s = crate::workbench::presets::preset("agent-traffic-spike")
            .unwrap()
            .scenario();
        assert!(s.platforms[0].serving.is_none());
        let edit = "platforms.0.serving.scale_up_delay_s=900".to_string();
        let edited = apply_edits(&s, std::slice::from_ref(&edit)).unwrap();
        let serving = edited.platforms[0].serving.as_ref().unwrap();
        assert_eq!(serving.scale_up_delay_s, 900.0);
        // A row of another variant is refused, not ignored: a class of Poisson arrivals has
        // no burst size, and the edit says so.
        let poisson = Scenario::default();
        assert!(matches!(
            poisson.job_classes[0].arrivals,
            crate::model::scenario::Arrivals::Poisson { .. }
        ));
        let err = apply_edits(
            &poisson,
            &["job_classes.0.arrivals.jobs_per_burst=5".into()],
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "job_classes.0.arrivals.jobs_per_burst: has no value here: the field belongs to \
             another kind of arrivals, duration or GPU sharing; choose that kind first"
        );
        // A value of the wrong kind is named with what the row expects.
        let err = apply_edits(&s, &["platforms.0.serving.scale_up_delay_s=soon".into()]);
        assert_eq!(
            err.unwrap_err().to_string(),
            "platforms.0.serving.scale_up_delay_s: expects a number, not \"soon\""
        );
    }
}
