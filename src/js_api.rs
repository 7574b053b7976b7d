//! The model exported to JavaScript for the `pkg/` package (feature `js-api`, no Leptos).
//!
//! Built by `make pkg` with wasm-bindgen `--target web`. Scenarios and reports cross the
//! boundary as plain JS objects (serde-wasm-bindgen, JSON-compatible: maps become objects)
//! in the shapes of `gpucost scenario` and `gpucost eval`; `pkg/types.d.ts`, generated from
//! the same types' JSON schema, describes them for TypeScript.

use crate::history::fit_into;
use crate::model::monte_carlo::MonteCarlo;
use crate::model::scenario::Scenario;
use crate::model::ENGINE_VERSION;
use crate::workbench::presets::presets as all_presets;
use crate::workbench::report::report_with;
use crate::workbench::verdict_basis::VerdictBasis;
use crate::workbench::verdict_flips::verdict_flips;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
import type { Scenario, EvalReport } from "./types";
export type { Scenario, EvalReport };
/** A named starting scenario. */
export interface Preset { name: string; version: number; description: string; scenario: Scenario; }
/** A link read back; `notices` says, in plain text, whatever could not be read. */
export interface DecodedLink { scenario: Scenario; preset: string; embed: boolean; notices: string[]; }
/** Job classes fitted to a job history, in `scenario`, with the fit summary. */
export interface HistoryImport {
  scenario: Scenario;
  summary: string[];
  bad_rows: { line: number; reason: string }[];
}
"#;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// A scenario from a JS object, with the field path in the error, validated. It goes through
/// a JSON value so the scenario's (large) path-tracking deserializer is the one links use.
fn scenario_from_js(value: JsValue) -> Result<Scenario, JsError> {
    let json: serde_json::Value = serde_wasm_bindgen::from_value(value)
        .map_err(|e| JsError::new(&format!("scenario: {e}")))?;
    let scenario = Scenario::from_json_value(json).map_err(|e| JsError::new(&e.to_string()))?;
    scenario
        .validate()
        .map_err(|e| JsError::new(&e.to_string()))?;
    Ok(scenario)
}

/// The engine version every result carries.
#[wasm_bindgen(js_name = engineVersion)]
pub fn engine_version() -> String {
    ENGINE_VERSION.to_string()
}

/// Every preset: name, version, description and scenario, in display order.
#[wasm_bindgen(unchecked_return_type = "Preset[]")]
pub fn presets() -> Result<JsValue, JsError> {
    let list: Vec<serde_json::Value> = all_presets()
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.name,
                "version": p.version,
                "description": p.description,
                "scenario": p.scenario(),
            })
        })
        .collect();
    to_js(&list)
}

/// Runs every replication of `scenario`, then what would flip its verdict, and returns the
/// report `gpucost eval` prints. Throws
/// with the field's path when the scenario is not valid, and with the reason when an event
/// budget stopped the run before any replication could be summarised (a run stopped later
/// says why in the report's `cut_off`).
#[wasm_bindgen(unchecked_return_type = "EvalReport")]
pub fn evaluate(
    #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
) -> Result<JsValue, JsError> {
    let scenario = scenario_from_js(scenario)?;
    let mut run = MonteCarlo::new(scenario.clone()).map_err(|e| JsError::new(&e.to_string()))?;
    run.run_to_end();
    let results = run.results();
    if let (Some(cut), 0) = (&results.cut_off, results.replications) {
        return Err(JsError::new(&cut.to_string()));
    }
    // What would flip the verdict, as `gpucost eval` computes it after the run.
    let flips = verdict_flips(&scenario, &VerdictBasis::of(&scenario), &results);
    to_js(&report_with(&scenario, &results, flips.as_ref()))
}

/// The link fragment (`v=1&p=…&d=…`) of `scenario`, relative to preset `preset_name`.
#[wasm_bindgen(js_name = encodeLink)]
pub fn encode_link(
    #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
    preset_name: &str,
) -> Result<String, JsError> {
    let scenario = scenario_from_js(scenario)?;
    Ok(crate::workbench::link::encode_link(&scenario, preset_name))
}

/// Reads a link (whole URL or fragment). Never throws for a bad link: what could not be read
/// is listed in `notices`.
#[wasm_bindgen(js_name = decodeLink, unchecked_return_type = "DecodedLink")]
pub fn decode_link(link: &str) -> Result<JsValue, JsError> {
    let d = crate::workbench::link::decode_link(link);
    to_js(&serde_json::json!({
        "scenario": d.scenario,
        "preset": d.preset,
        "embed": d.embed,
        "notices": d.notices,
    }))
}

/// Fits job classes to a job-history CSV and returns `scenario` with them as its workload,
/// the fit summary and the skipped rows by line. Throws when nothing can be fitted or the
/// result is not a valid scenario.
#[wasm_bindgen(js_name = fitHistory, unchecked_return_type = "HistoryImport")]
pub fn fit_history_js(
    csv: &str,
    #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
) -> Result<JsValue, JsError> {
    let base = scenario_from_js(scenario)?;
    let (scenario, fit) =
        fit_into(&base, csv, &Default::default()).map_err(|e| JsError::new(&e.to_string()))?;
    let bad_rows: Vec<serde_json::Value> = fit
        .bad_rows
        .iter()
        .map(|b| serde_json::json!({ "line": b.line, "reason": b.reason }))
        .collect();
    to_js(&serde_json::json!({
        "scenario": scenario,
        "summary": fit.summary(),
        "bad_rows": bad_rows,
    }))
}

/// Runs every replication of `scenario` and returns what was simulated — `{ job_runs, events,
/// replications }` — for the benchmarks, which time the call.
#[wasm_bindgen(
    unchecked_return_type = "{ job_runs: number; events: number; replications: number }"
)]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "Scenario")] scenario: JsValue,
) -> Result<JsValue, JsError> {
    let scenario = scenario_from_js(scenario)?;
    let mut run = MonteCarlo::new(scenario).map_err(|e| JsError::new(&e.to_string()))?;
    run.run_to_end();
    to_js(&serde_json::json!({
        "job_runs": run.job_runs(),
        "events": run.events(),
        "replications": run.done(),
    }))
}
