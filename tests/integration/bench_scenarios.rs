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

/// Node pools, teams and preemption: the 1-GPU classes in team "product", the multi-node
/// ones in team "research"; EKS gains a pool of 1-GPU L40S nodes (g6e.xlarge, bought like its
/// first pool), where the 1-GPU classes go as the cheapest that fits, and Kueue quotas
/// (research 48 GPUs, product 16, borrowing unlimited), product's priority above research's,
/// quota reclaim and priority preemption with a 120 s grace period; AWS Batch orders its
/// queue by the same priorities.
fn pools_and_teams(mut s: Scenario) -> Scenario {
    use gpucost::model::platforms::Profile;
    use gpucost::model::scenario::{Preemption, TeamPolicy};
    for c in &mut s.job_classes {
        c.team = if c.gpus_per_job <= 1.0 {
            "product"
        } else {
            "research"
        }
        .into();
    }
    let policy = |team: &str, nominal: Option<f64>, priority: i32| TeamPolicy {
        team: team.into(),
        nominal_gpus: nominal,
        borrowing_limit_gpus: None,
        priority,
    };
    let batch = &mut s.platforms[0];
    batch.teams = vec![policy("product", None, 10), policy("research", None, 0)];
    let eks = &mut s.platforms[1];
    let row = gpucost::model::catalog::find("g6e.xlarge", "us-east-1").unwrap();
    let mut l40s = Profile::Eks.pool_on("l40s", row, "A100");
    l40s.purchase = eks.first_pool().purchase.clone();
    l40s.spot_interruptions_per_node_hour = eks.first_pool().spot_interruptions_per_node_hour;
    eks.node_pools.push(l40s);
    eks.teams = vec![
        policy("product", Some(16.0), 10),
        policy("research", Some(48.0), 0),
    ];
    eks.preemption = Preemption {
        reclaim_quota: true,
        lower_priority: true,
        grace_period_s: 120.0,
        ..Default::default()
    };
    s
}

/// Failures and data movement: every pool's nodes fail at the rate derived from Meta's
/// fleet; EKS's spot reclaims half its rate in waves taking half its nodes, with a 30-minute
/// drought, and consolidates nodes at 0.002 per node-hour (120 s grace); every platform has
/// the EFA scaling curve (SageMaker's nodes placed together), AWS's egress tiers, and runs in
/// us-east-1 reading data kept in us-west-2, EKS through a NAT gateway.
fn failures_and_data(mut s: Scenario) -> Scenario {
    use gpucost::model::egress::EgressTiers;
    use gpucost::model::platforms::{failing_as_meta_fleet, Profile};
    use gpucost::model::scaling::Interconnect;
    use gpucost::model::scenario::node_pool::SpotReclaims;
    use gpucost::model::storage::{DataStaging, StorageProduct};
    use gpucost::model::transfer::DataPath;
    s.data_region = "us-west-2".into();
    s.platforms = s.platforms.into_iter().map(failing_as_meta_fleet).collect();
    for p in &mut s.platforms {
        p.interconnect = Interconnect::Efa;
        p.compact_placement = p.profile.profile() == Some(Profile::Sagemaker);
        p.egress_tiers = EgressTiers::AwsInternet;
        p.region = "us-east-1".into();
    }
    let eks = &mut s.platforms[1];
    eks.first_pool_mut().spot_reclaims = SpotReclaims {
        share_of_rate: 0.5,
        fraction_of_nodes: 0.5,
        capacity_drought_min: 30.0,
        fall_back_to_on_demand: false,
    };
    eks.preemption.consolidation_evictions_per_node_hour = 0.002;
    eks.preemption.grace_period_s = 120.0;
    eks.data_path = DataPath::NatGateway;
    // Data staging: Batch straight from S3, EKS from a small FSx for Lustre its reads share,
    // SageMaker from one sized for its throughput.
    let staging = |storage, capacity_gib| DataStaging {
        storage,
        capacity_gib,
        ..DataStaging::default()
    };
    s.platforms[0].staging = staging(StorageProduct::ObjectStore, 0.0);
    s.platforms[1].staging = staging(StorageProduct::FsxLustrePersistent125, 2_400.0);
    s.platforms[2].staging = staging(StorageProduct::FsxLustrePersistent250, 12_000.0);
    s
}

#[test]
fn each_variant_is_the_benchmark_scenario_with_its_mechanism_changed() {
    let base = read("mixed-fleet.json");
    type Edit = fn(Scenario) -> Scenario;
    let variants: [(&str, Edit); 5] = [
        ("mmc-core.json", mmc_core),
        ("spot-everywhere.json", spot_everywhere),
        ("cold-nodes.json", cold_nodes),
        ("pools-and-teams.json", pools_and_teams),
        ("failures-and-data.json", failures_and_data),
    ];
    if std::env::var_os("GPUCOST_WRITE_BENCH_SCENARIOS").is_some() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/scenarios/failures-and-data.json");
        let text = serde_json::to_string_pretty(&failures_and_data(base.clone())).unwrap() + "\n";
        std::fs::write(path, text).unwrap();
    }
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
            (
                "node pools, teams with quotas, priorities and preemption",
                "pools-and-teams.json"
            ),
            (
                "failures and data movement: node failures, reclaim waves, consolidation, scaling curve, regions, data staging",
                "failures-and-data.json"
            ),
        ]
    );
}
