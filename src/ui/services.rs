//! The services editor, beside the job classes: one fieldset per service (its legend the
//! service's name) with its traffic, capacity, objective and replicas in view and the rest
//! folded into "All settings"; services added or removed (0 to 32).

use super::controls::{choice_field, numeric_fields, ItemAt, NumericSetting};
use crate::model::scenario::fields::{Control, SERVICE_FIELDS};
use crate::model::scenario::{limits, Scenario, Service};
use crate::workbench::edit;
use leptos::prelude::*;

/// The fields a service of measured capacity shows outside "All settings".
const IN_VIEW: [&str; 5] = [
    "traffic.mean_rps",
    "capacity_rps",
    "latency_slo_ms",
    "min_replicas",
    "max_replicas",
];

/// The fields an LLM service shows outside "All settings".
const IN_VIEW_LLM: [&str; 6] = [
    "traffic.mean_rps",
    "llm.tensor_parallel",
    "llm.ttft_p95_ms",
    "llm.tpot_p95_ms",
    "min_replicas",
    "max_replicas",
];

/// The fields an LLM's model replaces (not read for an LLM).
const MEASURED_ONLY: [&str; 5] = [
    "capacity_rps",
    "concurrency",
    "gpus_per_replica",
    "gpu_memory_gb",
    "latency_slo_ms",
];

/// What a service is, as its editor shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A service of measured capacity.
    Measured,
    /// An LLM of the table.
    Llm,
    /// An LLM of a custom shape.
    Custom,
}

fn kind_of(service: Option<&Service>) -> Kind {
    match service.and_then(|s| s.llm.as_ref()) {
        None => Kind::Measured,
        Some(l) if l.model == "custom" => Kind::Custom,
        Some(_) => Kind::Llm,
    }
}

/// Whether a field shows for a service of `kind`.
fn shows(path: &str, kind: Kind) -> bool {
    match kind {
        Kind::Measured => !path.starts_with("llm."),
        Kind::Llm => !MEASURED_ONLY.contains(&path) && !path.starts_with("llm.custom."),
        Kind::Custom => !MEASURED_ONLY.contains(&path),
    }
}

/// The service's number fields, in the table's order: those in view, or the others.
fn settings(in_view: bool, kind: Kind) -> Vec<NumericSetting<Service>> {
    let view: &[&str] = if kind == Kind::Measured {
        &IN_VIEW
    } else {
        &IN_VIEW_LLM
    };
    SERVICE_FIELDS
        .iter()
        .filter(|f| f.control == Control::Setting && view.contains(&f.path) == in_view)
        .filter(|f| shows(f.path, kind))
        .filter_map(NumericSetting::of)
        .collect()
}

/// The field of the table at `path` (a choice the editor shows).
fn field(path: &str) -> Option<&'static crate::model::scenario::fields::Field<Service>> {
    SERVICE_FIELDS.iter().find(|f| f.path == path)
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
    let kind = Memo::new(move |_| scenario.with(|s| kind_of(s.services.get(index))));
    let at = ItemAt {
        index,
        get: item,
        get_mut: item_mut,
    };
    let model = field("llm.model")
        .map(|f| choice_field(scenario, format!("service-{index}-llm-model"), f, at));
    // Rebuilt only when the service changes kind, so an input keeps its focus as it is edited.
    let prefix = move |k: Kind, part: &'static str| match k {
        Kind::Measured => part,
        _ if part == "service" => "service-llm",
        _ => "service-llm-more",
    };
    let main = move || {
        let k = kind.get();
        let precision = (k != Kind::Measured)
            .then(|| field("llm.precision"))
            .flatten()
            .map(|f| choice_field(scenario, format!("service-{index}-llm-precision"), f, at));
        view! {
            {precision}
            {numeric_fields(scenario, index, prefix(k, "service"), settings(true, k), item, item_mut)}
        }
    };
    let more = move || {
        let k = kind.get();
        numeric_fields(
            scenario,
            index,
            prefix(k, "service-more"),
            settings(false, k),
            item,
            item_mut,
        )
    };
    view! {
        <fieldset class="service">
            <legend>{name}</legend>
            {model}
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
