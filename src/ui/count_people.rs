//! "Count ops people in the verdict": a switch (on by default) that ranks the platforms on the
//! cloud bill alone when off. Ops FTE shares are assumptions that often decide a verdict; the
//! switch shows the verdict without them, on the same results (no new run), and goes in the
//! link.

use crate::model::scenario::fields::{field, SCENARIO_FIELDS};
use crate::model::scenario::Scenario;
use leptos::prelude::*;

/// The switch.
#[component]
pub fn CountPeople(scenario: RwSignal<Scenario>) -> impl IntoView {
    let row = field(SCENARIO_FIELDS, "verdict.count_people").expect("a scenario field");
    view! {
        <div class="field checkbox count-people" title=row.doc>
            <input
                type="checkbox"
                id="count-people"
                prop:checked=move || scenario.with(|s| s.verdict.count_people)
                on:change=move |ev| {
                    let checked = event_target_checked(&ev);
                    scenario.update(|s| s.verdict.count_people = checked);
                }
            />
            <label for="count-people">{row.label}</label>
        </div>
    }
}
