//! Every setting of one platform, each a number field (or a choice), so every default is
//! visible and can be overridden (rows, labels and ranges from the field table); "Reset to
//! defaults" in the fieldset restores the profile's. The platform's own rows come first, then
//! each node pool's.

use super::controls::{
    choice_field, flag_field, item_numeric_fields, numeric_fields, table_settings, ItemAt,
    NumericSetting,
};
use crate::model::scenario::fields::{field, Control, NODE_POOL_FIELDS, PLATFORM_FIELDS};
use crate::model::scenario::{NodePool, Platform, Scenario};
use leptos::prelude::*;

/// The platform table's numeric settings: the serving ones, or all the others.
fn settings(serving: bool) -> Vec<NumericSetting<Platform>> {
    PLATFORM_FIELDS
        .iter()
        .filter(|f| f.control == Control::Setting && f.path.starts_with("serving.") == serving)
        .filter_map(NumericSetting::of)
        .collect()
}

/// How pool `pool` of platform `index` shares its GPUs (its `gpu_sharing.mode`).
fn sharing(scenario: RwSignal<Scenario>, index: usize, pool: usize) -> &'static str {
    scenario.with(|s| {
        s.platforms
            .get(index)
            .and_then(|p| p.node_pools.get(pool))
            .map_or("none", |p| p.gpu_sharing.mode())
    })
}

/// Whether pool `pool` of platform `index` reserves any capacity.
fn reserves(scenario: RwSignal<Scenario>, index: usize, pool: usize) -> bool {
    scenario.with(|s| {
        s.platforms
            .get(index)
            .and_then(|p| p.node_pools.get(pool))
            .is_some_and(|p| p.purchase.reserved_share > 0.0)
    })
}

/// The "All settings" section of platform `index`.
#[component]
pub fn PlatformSettings(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    // Number fields of platform `index`, their ids prefixed `prefix`.
    let numbers = move |prefix: &'static str, serving: bool| {
        numeric_fields(
            scenario,
            index,
            prefix,
            settings(serving),
            |s, i| s.platforms.get(i),
            |s, i| s.platforms.get_mut(i),
        )
    };
    // The serving rows (at the table's end) show only when the scenario has services.
    let fields = numbers("platform", false);
    let has_services = move || scenario.with(|s| !s.services.is_empty());
    // Sharing the training nodes means something only with training jobs too.
    let has_jobs = move || scenario.with(|s| !s.job_classes.is_empty());
    let at = ItemAt::platform(index);
    let row = |path| field(PLATFORM_FIELDS, path).expect("a platform field");
    let id = move |what: &str| format!("platform-{index}-{what}");
    let pools = Memo::new(move |_| {
        scenario.with(|s| s.platforms.get(index).map_or(0, |p| p.node_pools.len()))
    });
    view! {
        <details class="all-settings">
            <summary>"All settings"</summary>
            {choice_field(scenario, id("placement"), row("placement"), at)}
            {flag_field(scenario, id("gang"), row("gang_scheduling"), at)}
            {choice_field(scenario, id("egress-tiers"), row("egress_tiers"), at)}
            {choice_field(scenario, id("interconnect"), row("interconnect"), at)}
            {flag_field(scenario, id("compact-placement"), row("compact_placement"), at)}
            {choice_field(scenario, id("region"), row("region"), at)}
            {choice_field(scenario, id("data-path"), row("data_path"), at)}
            {choice_field(scenario, id("staging-storage"), row("staging.storage"), at)}
            {fields}
            {move || {
                (0..pools.get())
                    .map(|pool| view! { <PoolSettings scenario=scenario index=index pool=pool /> })
                    .collect_view()
            }}
            <Show when=has_services>
                <h4>"Serving"</h4>
                {flag_field(scenario, id("scale-to-zero"), row("serving.scale_to_zero"), at)}
                {flag_field(scenario, id("shares-nodes"), row("serving.shares_nodes"), at)}
                <Show when=has_jobs>
                    {flag_field(scenario, id("shares-training-nodes"), row("serving.shares_nodes_with_training"), at)}
                </Show>
                {numbers("platform-serving", true)}
            </Show>
        </details>
    }
}

/// The settings of pool `pool` of platform `index`: its numbers, its image cache, and how it
/// shares GPUs where something asks for a fraction of one. Pool 0's controls keep the ids a
/// platform of one instance type had (`platform-0-cache`, `platform-0-gpu-sharing`, …);
/// another pool's are `platform-{index}-pool-{pool}-…`.
#[component]
fn PoolSettings(scenario: RwSignal<Scenario>, index: usize, pool: usize) -> impl IntoView {
    let at = ItemAt::<NodePool>::pool(index, pool);
    let row = |path| field(NODE_POOL_FIELDS, path).expect("a pool field");
    let id = move |what: &str| {
        if pool == 0 {
            format!("platform-{index}-{what}")
        } else {
            format!("platform-{index}-pool-{pool}-{what}")
        }
    };
    let heading = move || {
        scenario.with(|s| {
            s.platforms
                .get(index)
                .and_then(|p| p.node_pools.get(pool))
                .map(|p| format!("Node pool \"{}\": {}", p.name, p.instance_type))
                .unwrap_or_default()
        })
    };
    // GPU sharing shows with services (their replicas may ask for fractions) or with a job
    // class asking for a fraction of a GPU.
    let shares_fractions = move || {
        scenario.with(|s| !s.services.is_empty() || s.job_classes.iter().any(|c| c.is_fractional()))
    };
    let numbers = item_numeric_fields(
        scenario,
        at,
        format!("platform-{index}-pool-{pool}"),
        table_settings(NODE_POOL_FIELDS),
    );
    view! {
        <h4>{heading}</h4>
        {(pool > 0).then(|| choice_field(scenario, id("purchase"), row("purchase.overflow"), at))}
        {flag_field(scenario, id("cache"), row("image_cache"), at)}
        {numbers}
        {flag_field(scenario, id("reclaim-fallback"), row("spot_reclaims.fall_back_to_on_demand"), at)}
        // How the reservation is committed: only where the pool reserves something.
        <Show when=move || reserves(scenario, index, pool)>
            {choice_field(scenario, id("payment"), row("purchase.payment"), at)}
            {choice_field(scenario, id("commitment"), row("purchase.commitment"), at)}
        </Show>
        <Show when=shares_fractions>
            {choice_field(scenario, id("gpu-sharing"), row("gpu_sharing.mode"), at)}
            <Show when=move || sharing(scenario, index, pool) == "mig">
                {choice_field(scenario, id("mig-layout"), row("gpu_sharing.layout"), at)}
            </Show>
            <Show when=move || sharing(scenario, index, pool) == "time_slicing">
                {item_numeric_fields(
                    scenario,
                    at,
                    id("sharing"),
                    NumericSetting::of(row("gpu_sharing.context_switch_loss"))
                        .into_iter()
                        .collect(),
                )}
            </Show>
        </Show>
    }
}
