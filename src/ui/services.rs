//! The services editor, beside the job classes: one fieldset per service (its legend the
//! service's name) with its traffic, capacity, objective and replicas in view and the rest
//! folded into "All settings"; services added or removed (0 to 32).

use super::controls::{numeric_fields, NumericSetting};
use crate::model::scenario::fields::{Control, SERVICE_FIELDS};
use crate::model::scenario::{limits, Scenario, Service};
use crate::workbench::edit;
use leptos::prelude::*;

/// The fields a service shows outside "All settings".
const IN_VIEW: [&str; 5] = [
    "traffic.mean_rps",
    "capacity_rps",
    "latency_slo_ms",
    "min_replicas",
    "max_replicas",
];

/// The service's number fields, in the table's order: those in view, or the others.
fn settings(in_view: bool) -> Vec<NumericSetting<Service>> {
    SERVICE_FIELDS
        .iter()
        .filter(|f| f.control == Control::Setting && IN_VIEW.contains(&f.path) == in_view)
        .filter_map(NumericSetting::of)
        .collect()
}

fn item(s: &Scenario, i: usize) -> Option<&Service> {
    s.services.get(i)
}

fn item_mut(s: &mut Scenario, i: usize) -> Option<&mut Service> {
    s.services.get_mut(i)
}

/// One service.
#[component]
pub fn ServiceFieldset(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let name = move || {
        scenario.with(|s| {
            s.services
                .get(index)
                .map(|c| c.name.clone())
                .unwrap_or_default()
        })
    };
    let main = numeric_fields(scenario, index, "service", settings(true), item, item_mut);
    let more = numeric_fields(
        scenario,
        index,
        "service-more",
        settings(false),
        item,
        item_mut,
    );
    view! {
        <fieldset class="service">
            <legend>{name}</legend>
            {main}
            // What the model changes of this service (fewest replicas 0 where a platform
            // cannot scale to zero, a fraction of a GPU where GPUs are not shared, a node
            // limit).
            {super::controls::notices(
                scenario,
                move |s| crate::model::serving::notices::service_notices(s, index),
            )}
            <details class="all-settings">
                <summary>"All settings"</summary>
                {more}
            </details>
            <div class="buttons">
                <button
                    type="button"
                    on:click=move |_| scenario.update(|s| {
                        edit::remove_service(s, index);
                    })
                >
                    "Remove service"
                </button>
            </div>
        </fieldset>
    }
}

/// Adds a service (the defaults) up to the limit.
#[component]
pub fn AddService(scenario: RwSignal<Scenario>) -> impl IntoView {
    let full = move || scenario.with(|s| s.services.len() >= limits::SERVICES_MAX);
    view! {
        <button
            type="button"
            disabled=full
            on:click=move |_| scenario.update(|s| {
                edit::add_service(s);
            })
        >
            "Add service"
        </button>
    }
}
