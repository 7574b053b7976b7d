//! Presets never change under the same version: every published version is kept as JSON in
//! `data/presets/`, and this build must reproduce each of them exactly.

use gpucost::model::scenario::Scenario;
use gpucost::scenario::link::decode_link;
use gpucost::scenario::presets::{preset_scenario_at, presets};
use std::path::Path;

fn published() -> Vec<(String, u32, Scenario)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/presets");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("data/presets") {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let (name, version) = stem.split_once('@').expect("<name>@<version>.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let scenario = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{stem}: {e}"));
        out.push((name.to_string(), version.parse().unwrap(), scenario));
    }
    out
}

#[test]
fn every_published_preset_version_opens_unchanged() {
    let files = published();
    for (name, version, scenario) in &files {
        let built = preset_scenario_at(name, *version)
            .unwrap_or_else(|| panic!("{name}@{version} is published but not in this build"));
        assert!(
            &built == scenario,
            "{name}@{version} changed: raise the preset's version and freeze the old JSON \
             (see presets.rs)"
        );
        // A link naming that version opens exactly it, with no notice.
        let decoded = decode_link(&format!("v=1&p={name}@{version}"));
        assert_eq!(decoded.notices, Vec::<String>::new());
        assert!(&decoded.scenario == scenario);
    }
    // Every current version is published.
    for p in presets() {
        assert!(
            files.iter().any(|(n, v, _)| n == p.name && *v == p.version),
            "data/presets/{}@{}.json is missing (gpucost scenario --preset {0} > …)",
            p.name,
            p.version
        );
    }
}

#[test]
fn a_version_this_build_lacks_opens_the_current_one_with_a_notice() {
    let decoded = decode_link("v=1&p=six-small-jobs@7");
    assert_eq!(decoded.preset, "six-small-jobs");
    assert_eq!(decoded.notices.len(), 1);
    assert!(
        decoded.notices[0].contains("version \"7\" of preset six-small-jobs"),
        "{:?}",
        decoded.notices
    );
}
