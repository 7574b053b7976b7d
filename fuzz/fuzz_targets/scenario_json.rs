//! Any text as a scenario document: parsing and validation never panic, and a scenario that
//! parses writes back to JSON that parses to the same scenario and validates the same way.
#![no_main]

use gpucost::model::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(scenario) = Scenario::from_json(text) else {
        return;
    };
    let verdict = scenario.validate().map_err(|e| e.to_string());
    let written = serde_json::to_string(&scenario).expect("a scenario serializes");
    let back = Scenario::from_json(&written).expect("what we write, we read");
    assert!(
        back == scenario || written.contains("NaN"),
        "round trip changed the scenario"
    );
    assert_eq!(back.validate().map_err(|e| e.to_string()), verdict);
});
