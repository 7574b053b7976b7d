//! The Leptos user interface: the only module with signals, effects and web-sys.
//!
//! One source of truth per input (a signal); every number on screen is a memo over a pure
//! function from `model` or `charts`.

mod bar_chart;

pub use bar_chart::BarChart;

use crate::charts::format;
use crate::model::always_on::{
    monthly_costs_by_purchase_option, parse_nodes, NODES_MAX, NODES_MIN, P4D_24XLARGE_US_EAST_1,
};
use crate::model::ENGINE_VERSION;
use leptos::prelude::*;

/// Node count the page opens with.
const DEFAULT_NODES: u32 = 4;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let instance = P4D_24XLARGE_US_EAST_1;
    let (nodes, set_nodes) = signal(DEFAULT_NODES);
    // What the user last typed into the number field, and why it was refused, if it was.
    let (nodes_error, set_nodes_error) = signal(None::<String>);
    let bars = Memo::new(move |_| {
        monthly_costs_by_purchase_option(nodes.get(), &P4D_24XLARGE_US_EAST_1)
            .iter()
            .map(|(label, usd)| (label.to_string(), *usd))
            .collect::<Vec<_>>()
    });

    let on_text = move |text: String| match parse_nodes(&text) {
        Ok(n) => {
            set_nodes_error.set(None);
            set_nodes.set(n);
        }
        Err(err) => set_nodes_error.set(Some(err.to_string())),
    };

    view! {
        <main class="page">
            <header>
                <h1>"GPU training cost calculator"</h1>
                <p class="lede">
                    "What a month of always-on GPU nodes costs. The scheduling simulation "
                    "(idle time, provisioning, spot interruptions, people) is being built on "
                    "top of this page."
                </p>
            </header>
            <section class="controls" aria-label="Scenario">
                <div class="control">
                    <label for="nodes">
                        "Nodes (" {instance.name} ", " {instance.gpus_per_node} " × "
                        {instance.gpu_model} ")"
                    </label>
                    <div class="control-inputs">
                        <input
                            id="nodes"
                            type="range"
                            min=NODES_MIN
                            max=NODES_MAX
                            step="1"
                            prop:value=move || nodes.get().to_string()
                            on:input=move |ev| on_text(event_target_value(&ev))
                        />
                        <input
                            id="nodes-number"
                            type="number"
                            aria-label="Nodes (number)"
                            min=NODES_MIN
                            max=NODES_MAX
                            step="1"
                            prop:value=move || nodes.get().to_string()
                            on:change=move |ev| on_text(event_target_value(&ev))
                        />
                        <span class="unit">"nodes"</span>
                    </div>
                    <p class="input-error" role="alert" data-testid="nodes-error">
                        {move || nodes_error.get()}
                    </p>
                </div>
            </section>
            <section class="results" aria-label="Results">
                <h2>"Monthly cost, 730 hours"</h2>
                <BarChart
                    title="Monthly cost by purchase option"
                    bars=bars
                    value_label=format::usd
                    axis_label=format::usd_compact
                />
                <p class="source">
                    "Prices: " {instance.name} " " {instance.region} ", on-demand "
                    {format!("${:.4}", instance.on_demand_usd_per_hour)} " and spot "
                    {format!("${:.4}", instance.spot_usd_per_hour)} " per node-hour. Source: "
                    {instance.source} ". Spot shown without interruptions."
                </p>
            </section>
            <footer>"Engine " {ENGINE_VERSION}</footer>
        </main>
    }
}
