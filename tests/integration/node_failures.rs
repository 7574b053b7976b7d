//! Hardware failures of nodes on every purchase type: against Daly's wall time for a gang
//! job (M = 1 ÷ (failures per node-hour × nodes)), the failure count against its Poisson
//! mean, what a failure costs and where, and the neutral default.

use crate::support::{bare_class, bare_platform, job_walls, scenario, WallFrom};
use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::cost_category::Category;
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Platform, Scenario};
use gpucost::model::stats::mean;

/// `nodes`-node gang jobs (1-GPU nodes), checkpointed, on a platform whose nodes fail at
/// 1 ÷ (`mtbf_h` × `nodes`) per node-hour, with no replacement provisioning or pull.
fn gang_scenario(
    platform: Platform,
    nodes: u32,
    solve_h: f64,
    interval_min: f64,
    write_s: f64,
    restart_s: f64,
    mtbf_h: f64,
) -> Scenario {
    let mut platform = platform;
    platform.first_pool_mut().node_failures_per_node_hour = 1.0 / (mtbf_h * f64::from(nodes));
    let mut class = bare_class(
        Arrivals::Steady { per_day: 6.0 },
        Duration::Fixed { hours: solve_h },
    );
    class.gpus_per_job = f64::from(nodes);
    class.checkpoint_interval_min = interval_min;
    class.checkpoint_write_s = write_s;
    class.restart_overhead_s = restart_s;
    scenario(200.0, 4, vec![class], vec![platform])
}

fn check_daly(platform: Platform, nodes: u32, solve_h: f64, interval_min: f64, mtbf_h: f64) {
    let (write_s, restart_s) = (300.0, 600.0);
    let s = gang_scenario(
        platform,
        nodes,
        solve_h,
        interval_min,
        write_s,
        restart_s,
        mtbf_h,
    );
    let (simulated, se, outcomes) = job_walls(&s, WallFrom::Arrival);
    let expected = daly_wall_time_s(
        solve_h * 3600.0,
        interval_min * 60.0,
        write_s,
        restart_s,
        mtbf_h * 3600.0,
    );
    println!(
        "Daly, node failures: {nodes} nodes, Ts={solve_h} h, τ={interval_min} min, M={mtbf_h} h: \
         simulated {simulated:.1} s, closed form {expected:.1} s, standard error {se:.1} s"
    );
    assert!(
        (simulated - expected).abs() <= 3.0 * se,
        "simulated {simulated} s vs Daly {expected} s (se {se})"
    );
    // The lost compute is hardware-failure rework, and nothing is spot interruption rework.
    for o in &outcomes {
        assert!(o.node_failures > 0);
        assert_eq!(o.interruptions, 0);
        assert!(o.gpu_seconds[Category::HardwareFailureRework] > 0.0);
        assert_eq!(o.gpu_seconds[Category::InterruptionRework], 0.0);
    }
}

#[test]
fn a_gang_job_on_failing_on_demand_nodes_takes_dalys_wall_time() {
    // Four nodes, each failing every 40 h on average: the job fails every 10 h.
    check_daly(bare_platform("on demand"), 4, 8.0, 60.0, 10.0);
}

#[test]
fn a_gang_job_on_failing_reserved_nodes_takes_dalys_wall_time_and_the_failures_are_poisson() {
    // 24 reserved nodes (no other capacity), four to a job (at most three jobs at once),
    // each failing every 4 × 10 h: a failed node is replaced at once (no provisioning here),
    // so 24 nodes are always up and a replication sees Poisson(24 × 4,800 h ÷ 40 h) =
    // Poisson(2,880) failures.
    let mut platform = bare_platform("reserved");
    let pool = platform.first_pool_mut();
    pool.purchase.reserved_share = 1.0;
    pool.purchase.overflow = Overflow::None;
    let nodes = 4;
    let mtbf_h = 10.0;
    let mut s = gang_scenario(platform, nodes, 8.0, 60.0, 300.0, 600.0, mtbf_h);
    s.reference_gpus = 24;
    let (simulated, se, outcomes) = job_walls(&s, WallFrom::Arrival);
    let expected = daly_wall_time_s(8.0 * 3600.0, 60.0 * 60.0, 300.0, 600.0, mtbf_h * 3600.0);
    println!(
        "Daly, reserved: simulated {simulated:.1} s, closed form {expected:.1} s, se {se:.1} s"
    );
    assert!(
        (simulated - expected).abs() <= 3.0 * se,
        "{simulated} vs {expected} (se {se})"
    );
    let counts: Vec<f64> = outcomes.iter().map(|o| o.node_failures as f64).collect();
    let poisson_mean = 24.0 * 200.0 * 24.0 / (mtbf_h * f64::from(nodes));
    // Four replications: their mean's standard error is √(2,880 ÷ 4) ≈ 26.8.
    let tolerance = 3.0 * (poisson_mean / counts.len() as f64).sqrt();
    println!("failures per replication {counts:?}, Poisson mean {poisson_mean}");
    assert!((mean(&counts) - poisson_mean).abs() <= tolerance);
    for o in &outcomes {
        assert_eq!(
            o.peak_nodes, 24,
            "a failed reserved node is replaced, never added to"
        );
    }
}

#[test]
fn nodes_that_never_fail_give_the_same_bits_as_before_the_field_existed() {
    // The preset's own platforms have no failure rate: setting 0 explicitly, or leaving the
    // field out of the document, changes nothing.
    let s = gpucost::workbench::presets::preset("batch-vs-eks-spot")
        .unwrap()
        .scenario();
    let mut doc = serde_json::to_value(&s).unwrap();
    for p in doc["platforms"].as_array_mut().unwrap() {
        for pool in p["node_pools"].as_array_mut().unwrap() {
            assert_eq!(pool["node_failures_per_node_hour"], 0.0);
            pool.as_object_mut()
                .unwrap()
                .remove("node_failures_per_node_hour");
        }
    }
    let omitted = Scenario::from_json_value(doc).unwrap();
    assert_eq!(omitted, s);
}

#[test]
fn failures_cost_rework_and_replacement_provisioning() {
    // One platform with failures and one without, the same jobs: the failing one pays
    // hardware-failure rework, and its total moves by at least that.
    let mut failing = gpucost::model::platforms::Profile::AwsBatch.platform(
        "failing",
        "p4d.24xlarge",
        "us-east-1",
    );
    failing.first_pool_mut().node_failures_per_node_hour = 0.01;
    let mut steady = failing.clone();
    steady.name = "steady".into();
    steady.first_pool_mut().node_failures_per_node_hour = 0.0;
    let mut s = gpucost::workbench::presets::preset("batch-vs-eks-spot")
        .unwrap()
        .scenario();
    s.platforms = vec![failing, steady];
    s.replications = 8;
    let mut run = MonteCarlo::new(s).unwrap();
    run.run_to_end();
    let results = run.results();
    let [f, st] = &results.platforms[..] else {
        panic!("two platforms")
    };
    let rework = |p: &gpucost::model::monte_carlo::PlatformResult| {
        p.breakdown_usd[Category::HardwareFailureRework]
    };
    assert!(rework(f) > 0.0, "failing nodes cost rework");
    assert_eq!(rework(st), 0.0);
    assert!(f.monthly_tco_usd().p50 > st.monthly_tco_usd().p50);
}

#[test]
fn a_platform_added_in_the_page_fails_like_metas_fleet_per_gpu_whatever_its_instance() {
    use gpucost::model::catalog::catalog;
    use gpucost::model::egress::EgressTiers;
    use gpucost::model::platforms::{Profile, META_FLEET_NODE_FAILURES_PER_GPU_HOUR};
    use gpucost::workbench::edit::{add_platform, set_pool_instance};
    // 419 × 0.78 ÷ (16,384 × 54 × 24) per GPU-hour.
    let per_gpu = 419.0 * 0.78 / (16_384.0 * 54.0 * 24.0);
    assert!((META_FLEET_NODE_FAILURES_PER_GPU_HOUR - per_gpu).abs() < 1e-18);
    let mut s = Scenario::default();
    assert!(add_platform(&mut s, Profile::Eks));
    let added = s.platforms.len() - 1;
    let pool = s.platforms[added].first_pool();
    let gpus = f64::from(pool.gpus_per_node);
    assert!((pool.node_failures_per_node_hour - per_gpu * gpus).abs() < 1e-15);
    assert_eq!(s.platforms[added].egress_tiers, EgressTiers::AwsInternet);
    // Moved onto a 1-GPU instance, it keeps the rate per GPU.
    let row = catalog()
        .iter()
        .position(|r| r.name == "g5.xlarge" && r.region == "us-east-1")
        .expect("g5.xlarge in us-east-1");
    assert!(set_pool_instance(&mut s, added, 0, row));
    let pool = s.platforms[added].first_pool();
    assert_eq!(pool.gpus_per_node, 1);
    assert!((pool.node_failures_per_node_hour - per_gpu).abs() < 1e-15);
    // A GKE platform prices egress by Google Cloud's tiers.
    assert!(add_platform(&mut s, Profile::GkeStandard));
    assert_eq!(
        s.platforms.last().unwrap().egress_tiers,
        EgressTiers::GcpPremium
    );
}

#[test]
fn replicas_on_a_failed_training_node_move_and_the_gpu_time_still_adds_up() {
    use gpucost::model::monte_carlo::run_replication;
    // one-cluster-for-both: services' replicas share the training nodes. With nodes failing
    // every 50 node-hours, failures hit nodes holding replicas: their time up to the failure
    // is the services', they are placed again, and every paid GPU-second is in a category.
    let mut s = gpucost::workbench::presets::preset("one-cluster-for-both")
        .unwrap()
        .scenario();
    for p in &mut s.platforms {
        for pool in &mut p.node_pools {
            pool.node_failures_per_node_hour = 0.02;
        }
    }
    let mut failures = 0;
    for r in 0..3 {
        for o in run_replication(&s, r) {
            crate::support::adds_up(&o);
            failures += o.node_failures;
        }
    }
    assert!(failures > 0);
}
