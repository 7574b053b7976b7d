//! A hosted-API platform's controls: its provider and model, how it is bought, and every
//! price, quota and stated latency it holds (rows from the field table), in place of a
//! platform's instance, capacity and node pools.

use super::controls::{choice_field, item_numeric_fields, ItemAt, NumericSetting};
use crate::model::platforms::hosted_api::provider_label;
use crate::model::scenario::fields::{field, Control, HOSTED_API_FIELDS, PLATFORM_FIELDS};
use crate::model::scenario::{Platform, Scenario};
use crate::workbench::edit;
use leptos::prelude::*;

/// The rows platform `p` holds a number for: a provider without provisioned throughput or
/// a cache price shows none of theirs.
fn settings_of(p: &Platform) -> Vec<NumericSetting<Platform>> {
    HOSTED_API_FIELDS
        .iter()
        .filter(|f| f.control == Control::Setting && f.number_in(p).is_some())
        .chain(field(PLATFORM_FIELDS, "tooling_usd_per_month"))
        .filter_map(NumericSetting::of)
        .collect()
}

/// Platform `index`, a hosted API, in a fieldset whose legend is its name.
#[component]
pub fn HostedApiFieldset(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let platform = move || scenario.with(|s| s.platforms.get(index).cloned());
    let name = move || platform().map(|p| p.name).unwrap_or_default();
    let about = move || {
        scenario.with(|s| {
            s.platforms
                .get(index)
                .and_then(|p| p.hosted_api.as_ref())
                .map(|api| {
                    format!(
                        "Hosted LLM API: {}, {} (prices as of {}); no nodes and no ops people. \
                         Its latency is the stated one, an assumption unless measured.",
                        provider_label(&api.provider),
                        edit::hosted_model(s),
                        api.prices_as_of
                    )
                })
                .unwrap_or_default()
        })
    };
    let at = ItemAt::platform(index);
    let id = move |what: &str| format!("platform-{index}-{what}");
    let row = |path| field(HOSTED_API_FIELDS, path).expect("a hosted API field");
    let provisioned = move || {
        scenario.with(|s| {
            s.platforms
                .get(index)
                .and_then(|p| p.hosted_api.as_ref())
                .is_some_and(|a| a.provisioned.is_some())
        })
    };
    // Its rows, once: which it holds changes only with its provider (a platform anew).
    let settings = scenario.with_untracked(|s| s.platforms.get(index).map(settings_of));
    let fields = item_numeric_fields(
        scenario,
        at,
        format!("platform-{index}"),
        settings.unwrap_or_default(),
    );
    view! {
        <fieldset class="platform hosted-api">
            <legend>{name}</legend>
            <p class="profile">{about}</p>
            {choice_field(scenario, id("billing"), row("hosted_api.billing"), at)}
            <Show when=provisioned>
                {choice_field(scenario, id("term"), row("hosted_api.provisioned.term"), at)}
            </Show>
            <details class="all-settings">
                <summary>"Prices, quota and latency"</summary>
                {fields}
            </details>
            <super::scenario_editor::PlatformButtons scenario=scenario index=index />
        </fieldset>
    }
}
