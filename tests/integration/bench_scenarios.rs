//! The benchmark's scenarios (`bench/scenarios/`): the fixed benchmark scenario and one variant
//! per mechanism, read by the native benches and the wasm benchmark alike. Each variant must be
//! the benchmark scenario with only its mechanism changed, so the per-mechanism figures compare
//! with the benchmark's; this checks the committed files against those edits.

use gpucost::model::scenario::{Arrivals, Duration, Overflow, Scenario};
use std::path::Path;

/// A file of `bench/scenarios/` as text.
fn text(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("bench/scenarios")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn read(file: &str) -> Scenario {
    let text = text(file);
    let scenario = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    scenario
        .validate()
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    scenario
}

/// Every overhead off: Poisson arrivals, exponential run times, no failures, checkpoints,
/// image pulls, provisioning or interruptions, nodes kept an hour (the M/M/c core).
fn mmc_core(mut s: Scenario) -> Scenario {
    for c in &mut s.job_classes {
        c.arrivals = Arrivals::Poisson {
            per_day: c.arrivals.jobs_per_day(),
        };
        c.duration = Duration::Exponential {
            mean_hours: c.duration.mean_hours(),
        };
        c.failures.probability = 0.0;
        c.checkpoint_interval_min = 0.0;
        c.image_gb = 0.0;
    }
    for p in &mut s.platforms {
        p.provisioning_median_s = 0.0;
        p.provisioning_p90_s = 0.0;
        p.first_pool_mut().spot_interruptions_per_node_hour = 0.0;
        p.first_pool_mut().warm_pool_window_s = 3600.0;
    }
    s
}

/// Every platform overflows to spot, every spot node interrupted at 0.05 per node-hour.
fn spot_everywhere(mut s: Scenario) -> Scenario {
    for p in &mut s.platforms {
        p.first_pool_mut().purchase.overflow = Overflow::Spot;
        p.first_pool_mut().spot_interruptions_per_node_hour = 0.05;
    }
    s
}

/// No warm pool and no image cache: every job waits for a new node and pulls its image.
fn cold_nodes(mut s: Scenario) -> Scenario {
    for p in &mut s.platforms {
        p.first_pool_mut().warm_pool_window_s = 0.0;
        p.first_pool_mut().image_cache = false;
    }
    s
}

#[test]
fn each_variant_is_the_benchmark_scenario_with_its_mechanism_changed() {
    let base = read("mixed-fleet.json");
    type Edit = fn(Scenario) -> Scenario;
    let variants: [(&str, Edit); 3] = [
        ("mmc-core.json", mmc_core),
        ("spot-everywhere.json", spot_everywhere),
        ("cold-nodes.json", cold_nodes),
    ];
    for (file, edit) in variants {
        let expected = edit(base.clone());
        assert!(expected != base, "{file}: the edit changes nothing");
        assert!(
            read(file) == expected,
            "{file} is not mixed-fleet.json with its edits"
        );
    }
}

#[test]
fn the_list_names_each_scenario_file() {
    let list: serde_json::Value = serde_json::from_str(&text("engine.json")).unwrap();
    let listed: Vec<(&str, &str)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["file"].as_str().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("mixed-fleet (all mechanisms)", "mixed-fleet.json"),
            ("M/M/c core (no overheads)", "mmc-core.json"),
            (
                "spot on every platform, 0.05 interruptions per node-hour",
                "spot-everywhere.json"
            ),
            (
                "cold nodes (no warm pool, no image cache)",
                "cold-nodes.json"
            ),
        ]
    );
}
