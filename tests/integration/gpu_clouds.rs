//! The GPU clouds' hand cases: no egress charged on their platforms, 10 TB a month read from
//! S3 by a GPU cloud billed by AWS, a 1-Click Cluster's month of reserved nodes, spot refused
//! where Lambda sells none; each new profile's defaults; and the six-cloud preset ranks all
//! six with a verdict.

use crate::support::{bare_class, scenario};
use gpucost::model::catalog;
use gpucost::model::cloud::Cloud;
use gpucost::model::cost_category::Category;
use gpucost::model::egress::EgressTiers;
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::platforms::Profile;
use gpucost::model::pricing::{other_monthly_costs, Transferred};
use gpucost::model::scaling::Interconnect;
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Scenario};
use gpucost::model::transfer::{read_usd_per_gb, DataPath};
use gpucost::workbench::edit::new_platform;

/// Each GPU cloud, its profiles and the region of its new platforms.
const GPU_CLOUDS: [(Cloud, [Profile; 2], &str); 3] = [
    (
        Cloud::Coreweave,
        [Profile::CoreweaveCks, Profile::CoreweaveSunk],
        "US-EAST-04",
    ),
    (
        Cloud::Lambda,
        [Profile::LambdaOnDemand, Profile::Lambda1cc],
        "us-midwest-1",
    ),
    (
        Cloud::Nebius,
        [Profile::NebiusMk8s, Profile::NebiusSoperator],
        "eu-north1",
    ),
];

/// A platform of `profile` as the page adds it, on its new-platform instance.
fn added(profile: Profile) -> gpucost::model::scenario::Platform {
    let (instance, region) = profile.new_platform_instance();
    let row = catalog::find(instance, region).expect("a catalog row");
    new_platform(profile, profile.label(), row, "H100")
}

#[test]
fn ten_terabytes_read_from_s3_by_a_gpu_cloud_are_billed_by_aws_and_its_own_egress_is_free() {
    for (cloud, profiles, region) in GPU_CLOUDS {
        for profile in profiles {
            let mut s = Scenario {
                data_region: "us-east-1".into(),
                platforms: vec![added(profile)],
                ..Scenario::default()
            };
            s.platforms[0].region = region.into();
            s.validate().unwrap_or_else(|e| panic!("{profile:?}: {e}"));
            let p = &s.platforms[0];
            assert_eq!((p.cloud, p.egress_usd_per_gb), (cloud, 0.0), "{profile:?}");
            assert_eq!(p.egress_tiers, EgressTiers::of_cloud(cloud));
            // A month of 10 TB (10,000 GB) read from S3 and 10 TB sent out: AWS bills the
            // reads as internet egress, 10,000 × $0.09 = $900; the GPU cloud bills nothing
            // for the 10 TB it sends.
            let moved = Transferred {
                egress_gb: 10_000.0,
                data_read_gb: 10_000.0,
                staged_gb: 0.0,
            };
            let costs = other_monthly_costs(&s, p, moved, 1.0);
            assert!(
                (costs[Category::DataTransfer] - 900.0).abs() < 1e-9,
                "{profile:?}: {}",
                costs[Category::DataTransfer]
            );
            assert_eq!(costs[Category::Egress], 0.0, "{profile:?}");
        }
    }
    // The other way: AWS reading CoreWeave's or Lambda's storage pays nothing; a Nebius
    // Standard bucket bills its downloads, $0.015/GiB: 10,000 GB ÷ 1.073741824 × $0.015 =
    // $139.70.
    let from = |region| read_usd_per_gb(Cloud::Aws, "us-east-1", region, DataPath::PrivateEndpoint);
    assert_eq!(from("US-EAST-04"), Some(0.0));
    assert_eq!(from("us-midwest-1"), Some(0.0));
    let nebius = from("eu-north1").unwrap() * 10_000.0;
    assert!((nebius - 139.698_386).abs() < 1e-5, "{nebius}");
}

#[test]
fn a_one_click_cluster_bills_its_reserved_nodes_every_hour_of_its_term() {
    // A 16-GPU 1-Click Cluster: two 8×H100 nodes at $6.16 a GPU-hour, reserved whole. With
    // no work at all, a month (730 h) is 2 × 8 × $6.16 × 730 h = $71,948.80 of idle
    // reservation (its managed Slurm's people and storage set to 0 here).
    let mut platform = added(Profile::Lambda1cc);
    assert_eq!(platform.first_pool().on_demand_usd_per_node_hour, 49.28);
    assert_eq!(platform.first_pool().purchase.overflow, Overflow::None);
    assert_eq!(platform.interconnect, Interconnect::InfiniBand);
    platform.ops_fte = 0.0;
    platform.storage_gb = 0.0;
    let class = bare_class(
        Arrivals::Poisson { per_day: 0.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let mut s = scenario(30.0, 2, vec![class], vec![platform]);
    s.reference_gpus = 16;
    s.validate().unwrap();
    let mut mc = MonteCarlo::new(s).unwrap();
    mc.run_to_end();
    let tco = mc.results().platforms[0].monthly_tco_usd().mean;
    let month: f64 = 2.0 * 8.0 * 6.16 * 24.0 * 365.0 / 12.0;
    assert!((month - 71_948.80).abs() < 1e-6);
    assert!((tco - month).abs() < 1e-6 * month, "{tco} vs {month}");
}

#[test]
fn spot_is_refused_where_lambda_sells_none_and_tried_elsewhere() {
    let mut lambda = added(Profile::LambdaOnDemand);
    lambda.first_pool_mut().purchase.overflow = Overflow::Spot;
    let s = Scenario {
        platforms: vec![lambda],
        ..Scenario::default()
    };
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.starts_with("platforms.0.node_pools.0.purchase.overflow: platform \"Lambda on-demand instances\" cannot run on spot: Lambda sells no spot"),
        "{err}"
    );
    // CoreWeave and Nebius sell spot, priced from their rows (60 % and 52 % off an H100).
    for profile in [Profile::CoreweaveCks, Profile::NebiusMk8s] {
        let mut p = added(profile);
        p.first_pool_mut().purchase.overflow = Overflow::Spot;
        let pool = p.first_pool();
        let off = 1.0 - pool.spot_usd_per_node_hour / pool.on_demand_usd_per_node_hour;
        assert!(off > 0.5 && off < 0.61, "{profile:?}: {off}");
        let s = Scenario {
            platforms: vec![p],
            ..Scenario::default()
        };
        s.validate().unwrap_or_else(|e| panic!("{profile:?}: {e}"));
    }
}

#[test]
fn each_new_profile_has_its_cloud_scheduler_and_sourced_defaults() {
    use gpucost::model::scenario::Scheduler;
    let expect = [
        (Profile::CoreweaveCks, Scheduler::Kubernetes, 0.0, 0.5),
        (Profile::CoreweaveSunk, Scheduler::Slurm, 2_452.8, 0.5),
        (Profile::LambdaOnDemand, Scheduler::ManagedJobs, 0.0, 0.25),
        (Profile::Lambda1cc, Scheduler::Slurm, 0.0, 0.25),
        (Profile::NebiusMk8s, Scheduler::Kubernetes, 0.0, 0.5),
        (Profile::NebiusSoperator, Scheduler::Slurm, 1_189.8, 0.25),
    ];
    // Soperator's service nodes by hand: 6 nodes × $0.1984 × 730 h + 2,816 GiB × $0.071 +
    // 1,024 GiB × $0.118.
    let soperator: f64 = 6.0 * 0.1984 * 730.0 + 2_816.0 * 0.071 + 1_024.0 * 0.118;
    assert!((soperator - 1_189.8).abs() < 0.05, "{soperator}");
    for (profile, scheduler, tooling, fte) in expect {
        let p = added(profile);
        assert_eq!(profile.facts().scheduler, scheduler, "{profile:?}");
        assert_eq!(
            (
                p.fee_usd_per_cluster_hour,
                p.tooling_usd_per_month,
                p.ops_fte
            ),
            (0.0, tooling, fte),
            "{profile:?}"
        );
        // Every default it sets names its source.
        for setting in profile.facts().defaults {
            assert!(
                !setting.source.on(p.cloud).unwrap_or("").is_empty(),
                "{profile:?}"
            );
        }
        // InfiniBand where the cloud documents it; Lambda's on-demand VMs on plain TCP.
        let ib = profile != Profile::LambdaOnDemand;
        assert_eq!(
            p.interconnect == Interconnect::InfiniBand,
            ib,
            "{profile:?}"
        );
    }
}

#[test]
fn the_six_cloud_preset_ranks_all_six_with_a_verdict() {
    let s = gpucost::workbench::presets::preset("h100-six-clouds")
        .unwrap()
        .scenario();
    let mut clouds: Vec<Cloud> = s.platforms.iter().map(|p| p.cloud).collect();
    clouds.sort();
    assert_eq!(clouds, Cloud::ALL.to_vec());
    // The CLI's report: six platforms, and a verdict naming the one with the lowest mean
    // cost per useful H100-hour.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpucost"))
        .args([
            "eval",
            "--preset",
            "h100-six-clouds",
            "--no-flips",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let platforms = report["platforms"].as_array().unwrap();
    assert_eq!(platforms.len(), 6);
    let cheapest = platforms
        .iter()
        .min_by(|a, b| {
            let m = |p: &serde_json::Value| p["usd_per_useful_gpu_hour"]["mean"].as_f64().unwrap();
            m(a).total_cmp(&m(b))
        })
        .unwrap()["name"]
        .as_str()
        .unwrap();
    let verdict = report["verdict"].as_str().unwrap();
    assert!(
        verdict.starts_with(&format!("{cheapest} costs least per useful H100-hour")),
        "{verdict}"
    );
}
