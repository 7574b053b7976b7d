//! The workload editor: one fieldset per job class (its legend the class's name), every field
//! of the class editable, and classes added or removed (1 to 16).

use super::controls::{choice_field, numeric_fields, table_settings, ItemAt, NumericSetting};
use crate::format::trim_number;
use crate::model::scenario::fields::{field, JOB_CLASS_FIELDS};
use crate::model::scenario::{JobClass, Scenario};
use crate::workbench::edit;
use leptos::prelude::*;

/// The class's "All settings": its rate and duration, whatever their kind (the domain
/// edits of `workbench::edit`, labelled as the table's fields), then the table's settings.
fn settings() -> Vec<NumericSetting<JobClass>> {
    let row = |path| field(JOB_CLASS_FIELDS, path).expect("a job-class field");
    let mut out = vec![
        NumericSetting::via(
            row("arrivals.per_day"),
            edit::jobs_per_day,
            edit::set_jobs_per_day,
        ),
        NumericSetting::via(
            row("duration.median_hours"),
            edit::duration_median,
            edit::set_duration_median,
        ),
        NumericSetting::via(
            row("duration.p90_hours"),
            edit::duration_p90,
            edit::set_duration_p90,
        ),
    ];
    out.extend(table_settings(JOB_CLASS_FIELDS));
    out
}

/// One job class.
#[component]
pub fn JobClassFieldset(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let name = move || {
        scenario.with(|s| {
            s.job_classes
                .get(index)
                .map(|c| c.name.clone())
                .unwrap_or_default()
        })
    };
    let update = move |f: Box<dyn FnOnce(&mut JobClass)>| {
        scenario.update(|s| {
            if let Some(c) = s.job_classes.get_mut(index) {
                f(c);
            }
        })
    };
    let at = ItemAt::job_class(index);
    let row = |path| field(JOB_CLASS_FIELDS, path).expect("a job-class field");
    let id = |what: &str| format!("class-{index}-{what}");
    // "anywhere", or the share of the run at which attempts fail ("0", "0.5", "1", …).
    let failure_point = move || {
        scenario.with(
            |s| match s.job_classes.get(index).and_then(|c| c.failures.at_share) {
                Some(share) => share.to_string(),
                None => "anywhere".to_string(),
            },
        )
    };
    // A share set in a scenario document that none of the options names gets one of its own.
    let other_failure_point = move || {
        scenario.with(
            |s| match s.job_classes.get(index).and_then(|c| c.failures.at_share) {
                Some(share) if ![0.0, 0.5, 1.0].contains(&share) => Some(view! {
                    <option value=share.to_string()>
                        {format!("After {} % of the run", trim_number(share * 100.0))}
                    </option>
                }),
                _ => None,
            },
        )
    };
    let fields = numeric_fields(
        scenario,
        index,
        "class",
        settings(),
        |s, i| s.job_classes.get(i),
        |s, i| s.job_classes.get_mut(i),
    );
    view! {
        <fieldset class="job-class">
            <legend>{name}</legend>
            {choice_field(scenario, id("arrivals"), row("arrivals.kind"), at)}
            {choice_field(scenario, id("failure-kind"), row("failures.kind"), at)}
            <div class="field">
                <label for=format!("class-{index}-failure-point")>{row("failures.at_share").label}</label>
                <select
                    id=format!("class-{index}-failure-point")
                    prop:value=failure_point
                    on:change=move |ev| {
                        let at_share = event_target_value(&ev).parse::<f64>().ok();
                        update(Box::new(move |c| c.failures.at_share = at_share))
                    }
                >
                    <option value="anywhere">"Anywhere (random)"</option>
                    <option value="0">"At the start (a bad dependency or setting)"</option>
                    <option value="0.5">"Half-way"</option>
                    <option value="1">"At the end"</option>
                    {other_failure_point}
                </select>
            </div>
            // What the model changes of the class (a fraction of a GPU where GPUs are not
            // shared).
            {super::controls::notices(
                scenario,
                move |s| crate::model::scenario::class_notices::class_notices(s, index),
            )}
            <details class="all-settings">
                <summary>"All settings"</summary>
                <super::team_policies::ClassTeam scenario=scenario index=index />
                {fields}
            </details>
            <div class="buttons">
                <button
                    type="button"
                    disabled=move || scenario.with(|s| s.job_classes.len() <= 1)
                    on:click=move |_| scenario.update(|s| {
                        edit::remove_job_class(s, index);
                    })
                >
                    "Remove job class"
                </button>
            </div>
        </fieldset>
    }
}

/// Adds a job class (a copy of the defaults) up to the limit.
#[component]
pub fn AddJobClass(scenario: RwSignal<Scenario>) -> impl IntoView {
    let full = move || {
        scenario.with(|s| s.job_classes.len() >= crate::model::scenario::limits::JOB_CLASSES_MAX)
    };
    // A hosted API runs no training jobs: none is added beside one (the button says why).
    let hosted = move || scenario.with(|s| s.platforms.iter().any(|p| !p.runs_nodes()));
    view! {
        <button
            type="button"
            disabled=move || full() || hosted()
            title=move || hosted().then_some("A hosted LLM API runs no training jobs: remove it to add a job class")
            on:click=move |_| scenario.update(|s| {
                edit::add_job_class(s);
            })
        >
            "Add job class"
        </button>
    }
}
