//! "Simulation settings": the scenario's own fields of the field table (horizon, reference
//! GPUs, replications, seed; the verdict's SLO allowance where there are services) and the
//! reference GPU model, which otherwise only a file or a link
//! could set. Ranges and labels are the table's; a value the scenario's validation would refuse
//! is refused here with validation's own message, and the scenario keeps its last valid value.

use super::controls::{choice_field, ItemAt, NumberField};
use crate::model::gpus::GPUS;
use crate::model::scenario::fields::{field, Control, Value, SCENARIO_FIELDS};
use crate::model::scenario::Scenario;
use leptos::prelude::*;

/// The folded "Simulation settings" group.
#[component]
pub fn SimulationSettings(scenario: RwSignal<Scenario>) -> impl IntoView {
    let numbers = SCENARIO_FIELDS
        .iter()
        .filter(|f| f.control == Control::Setting)
        .filter_map(|f| match f.value {
            Value::Number { get, set } => Some((f, get, set)),
            _ => None,
        })
        .map(|(f, get, set)| {
            let value = Signal::derive(move || scenario.with(|s| get(s).unwrap_or(0.0)));
            let check = Callback::new(move |v: f64| {
                refusal(&scenario.get_untracked(), v, get, set, f.label)
            });
            let shown = move || {
                // The SLO allowance only where there are services for it to judge.
                f.path != "verdict.slo_allowance_pct" || scenario.with(|s| !s.services.is_empty())
            };
            view! {
                <Show when=shown>
                    <NumberField
                        id=format!("simulation-{}", f.path.replace('.', "-"))
                        label=f.label
                        unit=f.unit
                        min=f.min
                        max=f.max
                        value=value
                        on_change=Callback::new(move |v: f64| scenario.update(|s| set(s, v)))
                        check=check
                    />
                </Show>
            }
        })
        .collect_view();
    let gpu = field(SCENARIO_FIELDS, "reference_gpu").expect("the reference GPU field");
    // A memo: the options are drawn again only when the reference GPU changes, not on every
    // input elsewhere in the scenario.
    let current = Memo::new(move |_| scenario.with(|s| s.reference_gpu.clone()));
    // A name the table lacks (from a file) stays shown as it is, with its validation message.
    let choices = move || {
        let now = current.get();
        let mut list: Vec<String> = GPUS.iter().map(|g| g.model.to_string()).collect();
        if !list.contains(&now) {
            list.push(now);
        }
        list
    };
    view! {
        <details class="simulation-settings">
            <summary>"Simulation settings"</summary>
            {numbers}
            {choice_field(
                scenario,
                "simulation-data-region".to_string(),
                field(SCENARIO_FIELDS, "data_region").expect("the data region field"),
                ItemAt::scenario(),
            )}
            <div class="field">
                <label for="simulation-reference-gpu">{gpu.label}</label>
                <select
                    id="simulation-reference-gpu"
                    title=gpu.doc
                    prop:value=move || current.get()
                    on:change=move |ev| {
                        let model = event_target_value(&ev);
                        scenario.update(|s| s.reference_gpu = model);
                    }
                >
                    {move || {
                        choices()
                            .into_iter()
                            .map(|m| view! { <option value=m.clone()>{m.clone()}</option> })
                            .collect_view()
                    }}
                </select>
            </div>
        </details>
    }
}

/// Why `v` cannot be set with `set` in `scenario`: it would not be held as given (a count
/// that is not a whole number), or it would make a valid scenario invalid (validation's
/// message). `None` when it can.
fn refusal(
    scenario: &Scenario,
    v: f64,
    get: fn(&Scenario) -> Option<f64>,
    set: fn(&mut Scenario, f64),
    label: &str,
) -> Option<String> {
    let mut next = scenario.clone();
    set(&mut next, v);
    if get(&next) != Some(v) {
        return Some(format!(
            "{label} must be a whole number; \"{v}\" was not applied."
        ));
    }
    if scenario.validate().is_ok() {
        if let Err(e) = next.validate() {
            return Some(format!("{e}; \"{v}\" was not applied."));
        }
    }
    None
}
