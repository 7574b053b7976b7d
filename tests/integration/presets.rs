//! Presets never change under the same version: every published version is kept as JSON in
//! `data/presets/`, and this build must reproduce each of them exactly.

use gpucost::model::scenario::Scenario;
use gpucost::workbench::link::decode_link;
use gpucost::workbench::presets::{preset_scenario_at, presets};
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

/// A hand-written link that names a preset but no version opens the newest, with no notice
/// (a version it names but this build lacks still gets one, above).
#[test]
fn a_link_without_a_preset_version_opens_the_newest_without_a_notice() {
    for p in presets() {
        for link in [format!("v=1&p={}", p.name), format!("v=1&p={}@", p.name)] {
            let decoded = decode_link(&link);
            assert_eq!(decoded.preset, p.name, "{link}");
            assert!(decoded.notices.is_empty(), "{link}: {:?}", decoded.notices);
            assert_eq!(decoded.scenario, p.scenario(), "{link}");
        }
    }
}

#[test]
fn every_current_preset_on_aws_is_priced_from_the_post_cut_catalog() {
    use gpucost::model::catalog::catalog;
    use gpucost::model::scenario::Cloud;
    for p in presets() {
        for platform in p
            .scenario()
            .platforms
            .iter()
            .filter(|x| x.cloud == Cloud::Aws)
        {
            // Each pool's list prices are a catalog row of the 2026-H2 snapshot (a preset may
            // add a service premium, not change the list price).
            for pool in platform.pools() {
                let rows: Vec<_> = catalog()
                    .iter()
                    .filter(|r| r.name == pool.instance_type)
                    .filter(|r| {
                        r.on_demand_usd_per_node_hour == Some(pool.on_demand_usd_per_node_hour)
                    })
                    .collect();
                assert!(
                    !rows.is_empty() && rows.iter().all(|r| r.as_of == "2026-H2"),
                    "{}@{} / {} / {}: {} at ${} is not a 2026-H2 catalog price",
                    p.name,
                    p.version,
                    platform.name,
                    pool.name,
                    pool.instance_type,
                    pool.on_demand_usd_per_node_hour
                );
            }
        }
    }
    // The seed 001 case: six-small-jobs's p5.48xlarge at the post-cut $55.04 an hour.
    let six = gpucost::workbench::presets::preset("six-small-jobs")
        .unwrap()
        .scenario();
    let p5 = six
        .platforms
        .iter()
        .find(|x| x.first_pool().instance_type == "p5.48xlarge")
        .unwrap();
    assert_eq!(p5.first_pool().on_demand_usd_per_node_hour, 55.04);
}

#[test]
fn an_old_link_to_version_1_still_gives_its_own_prices_and_numbers() {
    let old = decode_link("v=1&p=batch-vs-eks-spot@1");
    assert!(old.notices.is_empty(), "{:?}", old.notices);
    assert_eq!(
        old.scenario.platforms[0]
            .first_pool()
            .on_demand_usd_per_node_hour,
        32.7726
    );
    let frozen = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/presets/batch-vs-eks-spot@1.json"),
    )
    .unwrap();
    let frozen = Scenario::from_json(&frozen).unwrap();
    assert!(old.scenario == frozen);
    // The same numbers as before the catalog moved: the golden report is computed on it.
    let bits = |s: &Scenario| {
        gpucost::model::monte_carlo::run_replication(s, 0)
            .iter()
            .map(|o| o.monthly_tco_usd.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&old.scenario), bits(&frozen));
}
