//! The model exported to JavaScript for the `pkg/` package (feature `js-api`, no Leptos).
//!
//! Built by `make pkg` with wasm-bindgen `--target web`.

use crate::model::{always_on, ENGINE_VERSION};
use wasm_bindgen::prelude::*;

/// The engine version every result carries.
#[wasm_bindgen(js_name = engineVersion)]
pub fn engine_version() -> String {
    ENGINE_VERSION.to_string()
}

/// Monthly cost in USD of `nodes` always-on nodes at `usd_per_node_hour` (730-hour month).
#[wasm_bindgen(js_name = alwaysOnMonthlyCostUsd)]
pub fn always_on_monthly_cost_usd(nodes: u32, usd_per_node_hour: f64) -> f64 {
    always_on::monthly_cost_usd(nodes, usd_per_node_hour)
}
