//! Node pools: a platform of several instance types. Old links and scenario files (of one
//! instance type per platform) open with the numbers they gave; old dotted paths are pool
//! 0's; each pool bills its own nodes; a class not mapped runs on the cheapest pool that fits.

use crate::support::{adds_up, bare_class, bare_platform, bare_pool, scenario};
use gpucost::model::analytic::estimate_platform;
use gpucost::model::catalog;
use gpucost::model::monte_carlo::{run_replication, MonteCarlo};
use gpucost::model::platforms::Profile;
use gpucost::model::pricing::GpuSecondPrices;
use gpucost::model::scenario::fields::{platform_row, PlatformRow};
use gpucost::model::scenario::{Arrivals, Duration, JobClass, Overflow, PoolNeed, Scenario};
use gpucost::workbench::edit::{add_pool, apply_edits, set_class_pool};
use gpucost::workbench::link::decode_link;
use gpucost::workbench::report::report_json_text;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/before-node-pools");

/// A report's text without what names the scenario's shape or the engine: every number.
/// The cost categories added since (preemption rework, hardware-failure rework, data transfer,
/// data staging) must be zero
/// wherever they are, and are left out.
fn numbers_of(report: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(report).unwrap();
    let map = v.as_object_mut().unwrap();
    map.remove("scenario");
    map.remove("engine_version");
    without_zero_categories_added_since(&mut v);
    // The summaries added since that split the TCO (cloud bill, ops people, the bill per useful
    // GPU-hour) are drawn from the numbers compared here, and left out too.
    if let Some(platforms) = v["platforms"].as_array_mut() {
        for p in platforms {
            let p = p.as_object_mut().unwrap();
            for key in [
                "cloud_bill_usd",
                "people_usd",
                "cloud_bill_usd_per_useful_gpu_hour",
            ] {
                p.remove(key);
            }
        }
    }
    // The shares on the cloud bill alone each paired comparison gained since, and each share's
    // interval, are drawn from the numbers compared here too.
    if let Some(paired) = v["paired"].as_array_mut() {
        for pair in paired {
            let pair = pair.as_object_mut().unwrap();
            pair.remove("a_lower_cloud_bill_usd_share");
            pair.remove("a_lower_cloud_bill_usd_per_useful_gpu_hour_share");
            pair.retain(|key, _| !key.ends_with("_wilson95"));
        }
    }
    // The verdict names the reference GPU in its unit since: a word, not a number.
    if let Some(verdict) = v["verdict"].as_str() {
        v["verdict"] = verdict.replace("A100-hour", "GPU-hour").into();
    }
    v.to_string()
}

fn without_zero_categories_added_since(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            // The summaries' standard errors, added since, are left out too.
            map.remove("se");
            for key in [
                "preemption_rework",
                "hardware_failure_rework",
                "data_transfer",
                "data_staging",
                "api_usage",
            ] {
                if let Some(x) = map.remove(key) {
                    let zero = |x: &serde_json::Value| x.as_f64() == Some(0.0);
                    let all_zero = zero(&x) || x.as_object().is_some_and(|m| m.values().all(zero));
                    assert!(all_zero, "{key} {x} where the scenario has none");
                }
            }
            map.values_mut()
                .for_each(without_zero_categories_added_since);
        }
        serde_json::Value::Array(items) => items
            .iter_mut()
            .for_each(without_zero_categories_added_since),
        _ => {}
    }
}

fn report_of(s: &Scenario) -> String {
    let mut run = MonteCarlo::new(s.clone()).unwrap();
    run.run_to_end();
    report_json_text(s, &run.results(), None)
}

/// A link and a scenario file written before node pools (by `gpucost link` and `gpucost
/// scenario` of that version, edited on pool fields by their old paths), with the `gpucost
/// eval` reports that version gave for them: the same numbers, byte for byte.
#[test]
fn old_links_and_scenario_files_open_with_the_numbers_they_gave() {
    let link = std::fs::read_to_string(format!("{DATA}/link.txt")).unwrap();
    let read = decode_link(link.trim());
    assert!(read.notices.is_empty(), "{:?}", read.notices);
    let s = read.scenario;
    assert_eq!(s.platforms[1].node_pools.len(), 1);
    assert_eq!(s.platforms[1].first_pool().spot_usd_per_node_hour, 9.5);
    assert_eq!(s.platforms[0].first_pool().max_nodes, 12);
    assert_eq!(s.platforms[0].provisioning_median_s, 200.0);
    let old = std::fs::read_to_string(format!("{DATA}/link-report.json")).unwrap();
    assert_eq!(numbers_of(&report_of(&s)), numbers_of(&old));

    let file = std::fs::read_to_string(format!("{DATA}/scenario.json")).unwrap();
    let s = Scenario::from_json(&file).unwrap();
    s.validate().unwrap();
    assert_eq!(
        s.platforms[1].first_pool().purchase.overflow,
        Overflow::Spot
    );
    let old = std::fs::read_to_string(format!("{DATA}/scenario-report.json")).unwrap();
    assert_eq!(numbers_of(&report_of(&s)), numbers_of(&old));
}

/// `platforms.1.spot_usd_per_node_hour` and `platforms.0.purchase.overflow` edit pool 0,
/// in `--set` as in the field table; the canonical paths name the same fields.
#[test]
fn old_single_pool_paths_are_pool_zeros() {
    let base = gpucost::workbench::presets::preset("batch-vs-eks-spot")
        .unwrap()
        .scenario();
    let old = apply_edits(
        &base,
        &[
            "platforms.1.spot_usd_per_node_hour=7.25".into(),
            "platforms.0.purchase.overflow=spot".into(),
        ],
    )
    .unwrap();
    let new = apply_edits(
        &base,
        &[
            "platforms.1.node_pools.0.spot_usd_per_node_hour=7.25".into(),
            "platforms.0.node_pools.0.purchase.overflow=spot".into(),
        ],
    )
    .unwrap();
    assert_eq!(old, new);
    assert_eq!(old.platforms[1].first_pool().spot_usd_per_node_hour, 7.25);
    // The field table: the old path is pool 0's row; a pool's own path names its pool.
    let Some(PlatformRow::Pool { pool: 0, row }) = platform_row("spot_usd_per_node_hour") else {
        panic!("the old path names no pool row");
    };
    assert_eq!(row.label, "Spot price");
    assert!(matches!(
        platform_row("node_pools.2.max_nodes"),
        Some(PlatformRow::Pool { pool: 2, .. })
    ));
    assert!(matches!(
        platform_row("ops_fte"),
        Some(PlatformRow::Platform(_))
    ));
    // A typo is still named.
    let err = apply_edits(&base, &["platforms.0.spot_usd_per_nod_hour=1".into()]).unwrap_err();
    assert!(err.to_string().contains("spot_usd_per_nod_hour"), "{err}");
}

/// The hand case: on an EKS platform with a p5.48xlarge pool and a g6e.xlarge pool,
/// a 1-GPU job of 20 GB costs $55.04 ÷ (1 × 2.0) = $27.52 per useful A100-hour on a p5 node
/// of its own and $1.861 ÷ 0.75 = $2.48 on a g6e: it goes to the g6e pool. A job of 60 GB
/// per GPU fits only the p5's 80 GB GPUs.
#[test]
fn the_cheapest_pool_that_fits_takes_a_one_gpu_20_gb_job_to_the_one_gpu_pool() {
    let mut s = Scenario {
        platforms: vec![Profile::Eks.platform("EKS", "p5.48xlarge", "us-east-1")],
        ..Scenario::default()
    };
    let g6e = catalog::catalog()
        .iter()
        .position(|r| r.name == "g6e.xlarge" && r.region == "us-east-1")
        .unwrap();
    assert!(add_pool(&mut s, 0, g6e));
    let p = &s.platforms[0];
    assert_eq!(p.node_pools[1].name, "g6e.xlarge");
    let one_gpu = PoolNeed {
        gpus: 1.0,
        gpu_memory_gb: 20.0,
        precision: None,
    };
    let usd = |pool: usize| p.usd_per_useful_reference_gpu_hour(&s, &p.node_pools[pool], one_gpu);
    assert!((usd(0) - 55.04 / 2.0).abs() < 1e-9, "{}", usd(0));
    assert!((usd(1) - 1.861 / 0.75).abs() < 1e-9, "{}", usd(1));
    assert_eq!(p.cheapest_pool(&s, one_gpu), Some(1));
    let big = PoolNeed {
        gpus: 1.0,
        gpu_memory_gb: 60.0,
        precision: None,
    };
    assert_eq!(p.cheapest_pool(&s, big), Some(0));
    // Mapped by name, a class goes where it is told.
    s.job_classes[0].gpus_per_job = 1.0;
    s.job_classes[0].gpu_memory_gb = 20.0;
    assert_eq!(s.platforms[0].pool_of_class(&s, 0), 1);
    let name = s.job_classes[0].name.clone();
    assert!(set_class_pool(&mut s, 0, &name, Some(0)));
    assert_eq!(s.platforms[0].pool_of_class(&s, 0), 0);
    s.validate().unwrap();
}

/// Two pools on one bare platform, everything deterministic: pool "a" of 1-GPU nodes at
/// $10 an hour, pool "b" of 8-GPU nodes at $64. Four 2-hour 1-GPU jobs a day cost $10 a
/// useful GPU-hour on "a" and $64 on a "b" node of their own: they go to "a". Two 3-hour
/// 8-GPU jobs a day cost $10 on eight "a" nodes and $8 on one "b" node: they go to "b".
/// Nodes come at once and leave when empty, so over 30 days the platform pays
/// 120 × 2 h × $10 + 60 × 3 h × $64 = $2,400 + $11,520 = $13,920, a 730-hour month
/// $13,920 × 730 / 720 = $14,113.33, in the simulation and in the instant estimate. Both on
/// "a" would be $16,800 over the horizon.
#[test]
fn each_pool_bills_its_own_nodes_by_hand() {
    let small = JobClass {
        name: "small".into(),
        gpu_memory_gb: 20.0,
        ..bare_class(
            Arrivals::Steady { per_day: 4.0 },
            Duration::Fixed { hours: 2.0 },
        )
    };
    let big = JobClass {
        name: "big".into(),
        gpus_per_job: 8.0,
        gpu_memory_gb: 20.0,
        ..bare_class(
            Arrivals::Steady { per_day: 2.0 },
            Duration::Fixed { hours: 3.0 },
        )
    };
    let mut platform = bare_platform("two pools");
    platform.node_pools = vec![bare_pool("a"), {
        let mut b = bare_pool("b");
        b.gpus_per_node = 8;
        b.on_demand_usd_per_node_hour = 64.0;
        b
    }];
    let s = scenario(30.0, 1, vec![small, big], vec![platform]);
    s.validate().unwrap();
    assert_eq!(s.platforms[0].pool_of_class(&s, 0), 0);
    assert_eq!(s.platforms[0].pool_of_class(&s, 1), 1);
    let want = 13_920.0 * 730.0 / 720.0;
    let o = &run_replication(&s, 0)[0];
    adds_up(o);
    assert!(
        (o.monthly_tco_usd - want).abs() < 1e-6,
        "{}",
        o.monthly_tco_usd
    );
    assert_eq!(o.jobs_completed, 180);
    // Each pool's peak, added: one "a" node and one "b" node.
    assert_eq!(o.peak_nodes, 2);
    let e = estimate_platform(&s, 0);
    assert!(
        (e.monthly_tco_usd - want).abs() < 1e-6,
        "{}",
        e.monthly_tco_usd
    );
    // Mapped to "a" by name, the 8-GPU jobs take eight $10 nodes.
    let mut on_a = s.clone();
    on_a.platforms[0]
        .class_pools
        .insert("big".into(), "a".into());
    let o = &run_replication(&on_a, 0)[0];
    adds_up(o);
    assert!((o.monthly_tco_usd - 16_800.0 * 730.0 / 720.0).abs() < 1e-6);
}

/// SageMaker's premium differs by instance: +40 % on ml.g5.xlarge, +15 % on ml.p4d (the
/// reference data's ml.* prices over EC2's), each pool priced with its own.
#[test]
fn sagemaker_prices_each_pool_with_its_own_premium() {
    let mut s = Scenario {
        platforms: vec![Profile::Sagemaker.platform("SageMaker", "p4d.24xlarge", "us-east-1")],
        ..Scenario::default()
    };
    let g5 = catalog::catalog()
        .iter()
        .position(|r| r.name == "g5.xlarge" && r.region == "us-east-1")
        .unwrap();
    assert!(add_pool(&mut s, 0, g5));
    let p = &s.platforms[0];
    assert_eq!(p.node_pools[0].service_premium_pct, 15.0);
    assert_eq!(p.node_pools[1].service_premium_pct, 40.0);
    let g5_usd_per_gpu_h = GpuSecondPrices::of(&s, p, &p.node_pools[1]).on_demand * 3_600.0;
    assert!(
        (g5_usd_per_gpu_h - 1.006 * 1.4).abs() < 1e-9,
        "{g5_usd_per_gpu_h}"
    );
    let p4d = &p.node_pools[0];
    let p4d_usd_per_gpu_h = GpuSecondPrices::of(&s, p, p4d).on_demand * 3_600.0;
    let want = p4d.on_demand_usd_per_node_hour * 1.15 / 8.0;
    assert!((p4d_usd_per_gpu_h - want).abs() < 1e-9);
}

/// What `class_pools` names must exist, and a class that fits no pool is named with them.
#[test]
fn pool_mappings_and_fits_are_checked_by_name() {
    let mut platform = bare_platform("P");
    platform.node_pools = vec![bare_pool("a"), bare_pool("b")];
    let class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let mut s = scenario(1.0, 1, vec![class], vec![platform]);
    s.validate().unwrap();
    s.platforms[0].class_pools.insert("jobs".into(), "c".into());
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("platforms.0.class_pools.jobs") && err.contains("no pool named \"c\""),
        "{err}"
    );
    s.platforms[0].class_pools.clear();
    s.platforms[0]
        .class_pools
        .insert("training".into(), "a".into());
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("no job class or service is named \"training\""),
        "{err}"
    );
    s.platforms[0].class_pools.clear();
    s.job_classes[0].gpu_memory_gb = 100.0;
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("fits no pool of platform \"P\"") && err.contains("\"b\" 1 × 80 GB"),
        "{err}"
    );
    s.job_classes[0].gpu_memory_gb = 10.0;
    s.platforms[0].node_pools[1].name = "a".into();
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("platforms.0.node_pools.1.name"), "{err}");
    s.platforms[0].node_pools.clear();
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("platforms.0.node_pools"), "{err}");
}

/// `six-small-jobs` version 3 gives the seed's 1-GPU, 30 GB fine-tunes what a user would:
/// SageMaker a 1-GPU L40S (44.7 GB; an A10G's 22 GB is too small), and EKS an L40S pool
/// beside its H100s, where they run as the cheapest pool that fits. Version 2, which gave
/// SageMaker whole p5 instances, still opens.
#[test]
fn six_small_jobs_version_3_runs_the_jobs_on_right_sized_instances() {
    let s = gpucost::workbench::presets::preset("six-small-jobs")
        .unwrap()
        .scenario();
    let class = &s.job_classes[0];
    assert_eq!((class.gpus_per_job, class.gpu_memory_gb), (1.0, 30.0));
    let sagemaker = s.platforms.iter().find(|p| p.name == "SageMaker").unwrap();
    assert_eq!(sagemaker.first_pool().instance_type, "g6e.xlarge");
    assert!(sagemaker.first_pool().gpu_memory_gb >= 30.0);
    let pools = &s.platforms[1];
    assert_eq!(
        pools.node_pools[pools.pool_of_class(&s, 0)].instance_type,
        "g6e.xlarge"
    );
    let v2 = gpucost::workbench::presets::preset_scenario_at("six-small-jobs", 2).unwrap();
    assert_eq!(v2.platforms[2].first_pool().instance_type, "p5.48xlarge");
}
