//! The price of waiting: a switch that prices the time people wait for their jobs' results
//! (off by default), and what a person's hour costs when it is on. An estimate of
//! opportunity cost, shown beside each platform's TCO and never in it.

use super::controls::{NumberField, NumericSetting};
use crate::model::scenario::fields::{field, SCENARIO_FIELDS};
use crate::model::scenario::Scenario;
use leptos::prelude::*;

/// Working hours in a year the switch divides the FTE cost by for a person's hour.
const WORKING_HOURS_PER_YEAR: f64 = 1_800.0;

/// The switch, and the rate when it is on.
#[component]
pub fn WaitingCost(scenario: RwSignal<Scenario>) -> impl IntoView {
    let on = move || scenario.with(|s| s.people.waiting_usd_per_hour > 0.0);
    let row = field(SCENARIO_FIELDS, "people.waiting_usd_per_hour").expect("a scenario field");
    let rate = NumericSetting::of(row).expect("a number field");
    let value = Signal::derive(move || scenario.with(|s| s.people.waiting_usd_per_hour));
    let on_change =
        Callback::new(move |v: f64| scenario.update(|s| s.people.waiting_usd_per_hour = v));
    view! {
        <div class="waiting-cost">
            <div class="field checkbox">
                <input
                    type="checkbox"
                    id="waiting-cost"
                    prop:checked=on
                    on:change=move |ev| {
                        let checked = event_target_checked(&ev);
                        scenario.update(|s| {
                            s.people.waiting_usd_per_hour = if checked {
                                // A person's hour at the FTE cost, as a starting point.
                                (s.people.fte_cost_usd_per_year / WORKING_HOURS_PER_YEAR).round().max(1.0)
                            } else {
                                0.0
                            };
                        })
                    }
                />
                <label for="waiting-cost">"Price the time people wait for results"</label>
            </div>
            <Show when=on>
                <NumberField
                    id="waiting-usd-per-hour".to_string()
                    label=rate.label
                    unit=rate.unit
                    min=rate.min
                    max=rate.max
                    value=value
                    on_change=on_change
                />
                <p class="chart-note">
                    "An estimate of opportunity cost, not a bill: each job's queue wait × the people waiting for it (a job class's \"People waiting per job\") × this rate. The cards show it beside the TCO, never in it."
                </p>
            </Show>
        </div>
    }
}
