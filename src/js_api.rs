//! The model exported to JavaScript for the `pkg/` package (feature `js-api`, no Leptos).
//!
//! Built by `make pkg` with wasm-bindgen `--target web`. Scenarios and results cross the
//! boundary as JSON text in the same shape as `gpucost scenario` and `gpucost eval`.

use crate::model::monte_carlo::MonteCarlo;
use crate::model::scenario::Scenario;
use crate::model::ENGINE_VERSION;
use crate::scenario::presets::{preset, presets};
use wasm_bindgen::prelude::*;

/// The engine version every result carries.
#[wasm_bindgen(js_name = engineVersion)]
pub fn engine_version() -> String {
    ENGINE_VERSION.to_string()
}

/// Preset names, in display order.
#[wasm_bindgen(js_name = presetNames)]
pub fn preset_names() -> Vec<String> {
    presets().iter().map(|p| p.name.to_string()).collect()
}

/// The scenario JSON of preset `name`.
#[wasm_bindgen(js_name = presetScenario)]
pub fn preset_scenario(name: &str) -> Result<String, JsError> {
    let p = preset(name).ok_or_else(|| JsError::new(&format!("no such preset: {name}")))?;
    serde_json::to_string(&p.scenario()).map_err(|e| JsError::new(&e.to_string()))
}

/// Runs every replication of the scenario (JSON text) and returns the results as JSON text:
/// `engine_version`, `replications`, `platforms`, `paired`.
#[wasm_bindgen]
pub fn evaluate(scenario_json: &str) -> Result<String, JsError> {
    let scenario = Scenario::from_json(scenario_json).map_err(|e| JsError::new(&e.to_string()))?;
    let mut run = MonteCarlo::new(scenario).map_err(|e| JsError::new(&e.to_string()))?;
    while !run.is_done() {
        run.run_batch(16);
    }
    serde_json::to_string(&run.results()).map_err(|e| JsError::new(&e.to_string()))
}

/// The link fragment (`v=1&p=…&d=…`) of a scenario (JSON text), relative to preset
/// `preset_name`.
#[wasm_bindgen(js_name = encodeLink)]
pub fn encode_link(scenario_json: &str, preset_name: &str) -> Result<String, JsError> {
    let scenario = Scenario::from_json(scenario_json).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(crate::scenario::link::encode_link(&scenario, preset_name))
}

/// Reads a link (whole URL or fragment); returns JSON text
/// `{"scenario": …, "preset": …, "embed": bool, "notices": [..]}`. Never throws for a bad link:
/// what could not be read is listed in `notices`.
#[wasm_bindgen(js_name = decodeLink)]
pub fn decode_link(link: &str) -> String {
    let d = crate::scenario::link::decode_link(link);
    serde_json::json!({
        "scenario": d.scenario,
        "preset": d.preset,
        "embed": d.embed,
        "notices": d.notices,
    })
    .to_string()
}
