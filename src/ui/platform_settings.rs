//! Every setting of one platform, each a number field (or a choice), so every default is
//! visible and can be overridden; "Reset to defaults" in the fieldset restores the profile's.

use super::controls::{numeric_fields, NumericSetting};
use crate::model::scenario::{Placement, Platform, Scenario};
use leptos::prelude::*;

const SETTINGS: &[NumericSetting<Platform>] = &[
    (
        "GPUs per node",
        "",
        1.0,
        64.0,
        |p| f64::from(p.gpus_per_node),
        |p, v| p.gpus_per_node = v as u32,
    ),
    (
        "GPU memory",
        "GB",
        1.0,
        1024.0,
        |p| p.gpu_memory_gb,
        |p, v| p.gpu_memory_gb = v,
    ),
    (
        "Relative throughput (reference GPU = 1)",
        "×",
        0.01,
        100.0,
        |p| p.relative_throughput,
        |p, v| p.relative_throughput = v,
    ),
    (
        "On-demand price",
        "$/node-h",
        0.0,
        10_000.0,
        |p| p.on_demand_usd_per_node_hour,
        |p, v| p.on_demand_usd_per_node_hour = v,
    ),
    (
        "Spot price",
        "$/node-h",
        0.0,
        10_000.0,
        |p| p.spot_usd_per_node_hour,
        |p, v| p.spot_usd_per_node_hour = v,
    ),
    (
        "Service premium",
        "%",
        0.0,
        500.0,
        |p| p.service_premium_pct,
        |p, v| p.service_premium_pct = v,
    ),
    (
        "Control-plane fee",
        "$/cluster-h",
        0.0,
        1_000.0,
        |p| p.fee_usd_per_cluster_hour,
        |p, v| p.fee_usd_per_cluster_hour = v,
    ),
    (
        "Tooling and add-ons",
        "$/month",
        0.0,
        1e7,
        |p| p.tooling_usd_per_month,
        |p, v| p.tooling_usd_per_month = v,
    ),
    (
        "Reserved share of reference GPUs",
        "×",
        0.0,
        10.0,
        |p| p.purchase.reserved_share,
        |p, v| p.purchase.reserved_share = v,
    ),
    (
        "Reserved discount",
        "%",
        0.0,
        95.0,
        |p| p.purchase.reserved_discount_pct,
        |p, v| p.purchase.reserved_discount_pct = v,
    ),
    (
        "Spot interruptions",
        "per node-h",
        0.0,
        10.0,
        |p| p.spot_interruptions_per_node_hour,
        |p, v| p.spot_interruptions_per_node_hour = v,
    ),
    (
        "Spot notice",
        "s",
        0.0,
        3_600.0,
        |p| p.spot_notice_s,
        |p, v| p.spot_notice_s = v,
    ),
    (
        "Provisioning, median",
        "s",
        0.0,
        86_400.0,
        |p| p.provisioning_median_s,
        |p, v| {
            p.provisioning_median_s = v;
            p.provisioning_p90_s = p.provisioning_p90_s.max(v);
        },
    ),
    (
        "Provisioning, 90th percentile",
        "s",
        0.0,
        604_800.0,
        |p| p.provisioning_p90_s,
        |p, v| {
            p.provisioning_p90_s = v;
            p.provisioning_median_s = p.provisioning_median_s.min(v);
        },
    ),
    (
        "Capacity wait, mean",
        "s",
        0.0,
        604_800.0,
        |p| p.capacity_wait_mean_s,
        |p, v| p.capacity_wait_mean_s = v,
    ),
    (
        "Image pull throughput",
        "GB/s",
        0.001,
        100.0,
        |p| p.image_pull_gb_per_s,
        |p, v| p.image_pull_gb_per_s = v,
    ),
    (
        "Warm-pool window",
        "s",
        0.0,
        604_800.0,
        |p| p.warm_pool_window_s,
        |p, v| p.warm_pool_window_s = v,
    ),
    (
        "Billing granularity",
        "s",
        1.0,
        86_400.0,
        |p| f64::from(p.billing.granularity_s),
        |p, v| p.billing.granularity_s = v as u32,
    ),
    (
        "Billing minimum",
        "s",
        0.0,
        86_400.0,
        |p| f64::from(p.billing.minimum_s),
        |p, v| p.billing.minimum_s = v as u32,
    ),
    (
        "Max nodes",
        "",
        1.0,
        10_000.0,
        |p| f64::from(p.max_nodes),
        |p, v| p.max_nodes = v as u32,
    ),
    (
        "Storage-read slowdown",
        "%",
        0.0,
        500.0,
        |p| p.storage_read_slowdown_pct,
        |p, v| p.storage_read_slowdown_pct = v,
    ),
    (
        "Multi-node scaling efficiency",
        "0–1",
        0.05,
        1.0,
        |p| p.multi_node_efficiency,
        |p, v| p.multi_node_efficiency = v,
    ),
    (
        "Egress price",
        "$/GB",
        0.0,
        10.0,
        |p| p.egress_usd_per_gb,
        |p, v| p.egress_usd_per_gb = v,
    ),
    (
        "Free egress",
        "GB/month",
        0.0,
        1e9,
        |p| p.egress_free_gb_per_month,
        |p, v| p.egress_free_gb_per_month = v,
    ),
    (
        "Storage",
        "GB",
        0.0,
        1e9,
        |p| p.storage_gb,
        |p, v| p.storage_gb = v,
    ),
    (
        "Storage price",
        "$/GB-month",
        0.0,
        10.0,
        |p| p.storage_usd_per_gb_month,
        |p, v| p.storage_usd_per_gb_month = v,
    ),
];

/// The "All settings" section of platform `index`.
#[component]
pub fn PlatformSettings(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let fields = numeric_fields(
        scenario,
        index,
        "platform",
        SETTINGS,
        |s, i| s.platforms.get(i),
        |s, i| s.platforms.get_mut(i),
    );
    let placement = move || {
        scenario.with(|s| match s.platforms.get(index).map(|p| p.placement) {
            Some(Placement::Spread) => "spread",
            Some(Placement::Exclusive) => "exclusive",
            _ => "bin_pack",
        })
    };
    let set_flag = move |f: fn(&mut Platform, bool), on: bool| {
        scenario.update(|s| {
            if let Some(p) = s.platforms.get_mut(index) {
                f(p, on);
            }
        })
    };
    view! {
        <details class="all-settings">
            <summary>"All settings"</summary>
            <div class="field">
                <label for=format!("platform-{index}-placement")>"Placement"</label>
                <select
                    id=format!("platform-{index}-placement")
                    prop:value=placement
                    on:change=move |ev| {
                        let placement = match event_target_value(&ev).as_str() {
                            "spread" => Placement::Spread,
                            "exclusive" => Placement::Exclusive,
                            _ => Placement::BinPack,
                        };
                        scenario.update(|s| {
                            if let Some(p) = s.platforms.get_mut(index) {
                                p.placement = placement;
                            }
                        })
                    }
                >
                    <option value="bin_pack">"Bin-pack"</option>
                    <option value="spread">"Spread (one job per node while nodes can be added)"</option>
                    <option value="exclusive">"Exclusive (whole instances per job)"</option>
                </select>
            </div>
            <div class="field checkbox">
                <input
                    type="checkbox"
                    id=format!("platform-{index}-gang")
                    prop:checked=move || scenario.with(|s| s.platforms.get(index).is_some_and(|p| p.gang_scheduling))
                    on:change=move |ev| set_flag(|p, on| p.gang_scheduling = on, event_target_checked(&ev))
                />
                <label for=format!("platform-{index}-gang")>"Gang scheduling of multi-node jobs"</label>
            </div>
            <div class="field checkbox">
                <input
                    type="checkbox"
                    id=format!("platform-{index}-cache")
                    prop:checked=move || scenario.with(|s| s.platforms.get(index).is_some_and(|p| p.image_cache))
                    on:change=move |ev| set_flag(|p, on| p.image_cache = on, event_target_checked(&ev))
                />
                <label for=format!("platform-{index}-cache")>"Nodes cache pulled images"</label>
            </div>
            {fields}
        </details>
    }
}
