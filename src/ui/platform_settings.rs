//! Every setting of one platform, each a number field (or a choice), so every default is
//! visible and can be overridden (rows, labels and ranges from the field table); "Reset to defaults" in the fieldset restores the profile's.

use super::controls::{choice_field, flag_field, numeric_fields, table_settings, ItemAt};
use crate::model::scenario::fields::{field, PLATFORM_FIELDS};
use crate::model::scenario::Scenario;
use leptos::prelude::*;

/// The "All settings" section of platform `index`.
#[component]
pub fn PlatformSettings(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let fields = numeric_fields(
        scenario,
        index,
        "platform",
        table_settings(PLATFORM_FIELDS),
        |s, i| s.platforms.get(i),
        |s, i| s.platforms.get_mut(i),
    );
    let at = ItemAt::platform(index);
    let row = |path| field(PLATFORM_FIELDS, path).expect("a platform field");
    let id = |what: &str| format!("platform-{index}-{what}");
    view! {
        <details class="all-settings">
            <summary>"All settings"</summary>
            {choice_field(scenario, id("placement"), row("placement"), at)}
            {flag_field(scenario, id("gang"), row("gang_scheduling"), at)}
            {flag_field(scenario, id("cache"), row("image_cache"), at)}
            {fields}
        </details>
    }
}
