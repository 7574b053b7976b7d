//! Scaling efficiency as a curve in the node count: a multi-node job's wall time and its
//! scaling loss against the law worked by hand from the cited figures, the instant estimate
//! against the same factor, the fixed efficiency as the neutral default, and the interconnect
//! of platforms added in the page.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::analytic::estimate_platform;
use gpucost::model::catalog;
use gpucost::model::cost_category::Category;
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::platforms::Profile;
use gpucost::model::scaling::Interconnect;
use gpucost::model::scenario::{Arrivals, Duration, Scenario};
use gpucost::model::sim::{generate_jobs, simulate_platform};
use gpucost::workbench::edit;

/// Efficiency of a 4-node job over EFA with its nodes scattered, by hand: seed 001's 92 %
/// (placed) and 78 % (scattered) on eight nodes and β = 0.2 give
/// α = (1/0.92 − 1) ÷ 7^0.2 = 0.0589227, the scattered factor (1/0.78 − 1) ÷ (1/0.92 − 1)
/// = 3.2435897, so 1 ÷ (1 + 0.0589227 × 3.2435897 × 3^0.2) = 0.8076987.
const EFA_SCATTERED_4_NODES: f64 = 0.807_698_7;

/// One 4-GPU job a day (four 1-GPU nodes) of 10 h on the reference GPU, on `interconnect`.
fn four_node_jobs(interconnect: Interconnect, placed: bool) -> Scenario {
    let mut platform = bare_platform("p");
    platform.interconnect = interconnect;
    platform.compact_placement = placed;
    platform.multi_node_efficiency = 0.5;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 10.0 },
    );
    class.gpus_per_job = 4.0;
    scenario(5.0, 1, vec![class], vec![platform])
}

#[test]
fn a_four_node_job_runs_as_long_as_the_law_says() {
    let s = four_node_jobs(Interconnect::Efa, false);
    let jobs = generate_jobs(&s, 0);
    let (outcome, records) = simulate_platform(&s, 0, 0, &jobs, true);
    let records = records.unwrap();
    assert!(records.len() >= 4);
    let expected_s = 36_000.0 / EFA_SCATTERED_4_NODES;
    for j in records.iter().filter(|j| j.finished_s.is_some()) {
        let wall = (j.finished_s.unwrap() - j.first_compute_s.unwrap()) as f64;
        println!("wall {wall} s, by hand {expected_s:.1} s");
        assert!((wall - expected_s).abs() <= 1.0, "{wall} vs {expected_s}");
    }
    // A finished job's scaling loss is its four GPUs' wall time less its useful compute.
    let finished = records.iter().filter(|j| j.finished_s.is_some()).count() as f64;
    let loss = outcome.gpu_seconds[Category::MultiNodeScalingLoss];
    let running = records.len() as f64 - finished;
    assert!(running <= 1.0);
    let per_job = 4.0 * expected_s * (1.0 - EFA_SCATTERED_4_NODES);
    assert!(
        loss >= finished * per_job - 8.0 && loss <= (finished + running) * per_job + 8.0,
        "{loss} vs {per_job} per job"
    );
}

#[test]
fn placing_nodes_together_and_faster_networks_shorten_the_job() {
    let wall = |ic, placed| {
        let s = four_node_jobs(ic, placed);
        let jobs = generate_jobs(&s, 0);
        let (_, records) = simulate_platform(&s, 0, 0, &jobs, true);
        let j = records.unwrap()[0].clone();
        (j.finished_s.unwrap() - j.first_compute_s.unwrap()) as f64
    };
    // By hand, 1 ÷ (1 + α × k × 3^0.2) with α = 0.0589227 and 3^0.2 = 1.2457309: placed
    // EFA (k = 1) 0.9316176, placed TCPX (k = 1.15) 0.9221587, scattered plain TCP
    // (k = 4 × 3.2435897) 0.5122055.
    for (ic, placed, e) in [
        (Interconnect::Efa, true, 0.931_617_6),
        (Interconnect::GpudirectTcpx, true, 0.922_158_7),
        (Interconnect::Tcp, false, 0.512_205_5),
    ] {
        let w = wall(ic, placed);
        assert!(
            (w - 36_000.0 / e).abs() <= 2.0,
            "{ic:?}: {w} vs {}",
            36_000.0 / e
        );
    }
    // The fixed efficiency is the override: 0.5 here.
    assert!((wall(Interconnect::Fixed, true) - 72_000.0).abs() <= 1.0);
}

#[test]
fn the_instant_estimate_scales_compute_by_the_same_factor() {
    let curve = estimate_platform(&four_node_jobs(Interconnect::Efa, false), 0);
    let mut whole = four_node_jobs(Interconnect::Fixed, false);
    whole.platforms[0].multi_node_efficiency = 1.0;
    let whole = estimate_platform(&whole, 0);
    let ratio = curve.compute_usd / whole.compute_usd;
    assert!(
        (ratio - 1.0 / EFA_SCATTERED_4_NODES).abs() < 1e-4,
        "{ratio} vs {}",
        1.0 / EFA_SCATTERED_4_NODES
    );
}

#[test]
fn a_document_that_names_the_fixed_efficiency_reads_as_one_that_omits_it() {
    let s = four_node_jobs(Interconnect::Fixed, false);
    let json = serde_json::to_string(&s).unwrap();
    assert!(!json.contains("interconnect") && !json.contains("compact_placement"));
    let named = json.replacen(
        "\"multi_node_efficiency\"",
        "\"interconnect\": \"fixed\", \"compact_placement\": false, \"multi_node_efficiency\"",
        1,
    );
    let read = Scenario::from_json(&named).expect("reads");
    assert_eq!(read, s);
    let tco = |s: Scenario| {
        let mut run = MonteCarlo::new(s).unwrap();
        run.run_to_end();
        run.results().platforms[0].monthly_tco_usd().mean.to_bits()
    };
    assert_eq!(tco(s), tco(read));
}

#[test]
fn added_platforms_use_their_instances_interconnect() {
    let mut s = Scenario::default();
    s.platforms.clear();
    assert!(edit::add_platform(&mut s, Profile::Sagemaker));
    assert!(edit::add_platform(&mut s, Profile::Eks));
    assert!(edit::add_platform(&mut s, Profile::GkeStandard));
    for p in &s.platforms {
        let instance = &p.node_pools[0].instance_type;
        assert_eq!(
            p.interconnect,
            Interconnect::of_instance(instance),
            "{}",
            p.name
        );
        assert!(!p.interconnect.is_fixed(), "{}", p.name);
    }
    assert!(s.platforms[0].compact_placement);
    assert!(!s.platforms[1].compact_placement);
    // Moving the EKS platform to a p5 keeps its egress tiers and placement, and its
    // interconnect follows the instance.
    let p5 = catalog::catalog()
        .iter()
        .position(|r| r.name == "p5.48xlarge")
        .unwrap();
    let tiers = s.platforms[1].egress_tiers;
    assert!(!tiers.is_flat());
    assert!(edit::set_instance(&mut s, 1, p5));
    assert_eq!(s.platforms[1].egress_tiers, tiers);
    assert_eq!(s.platforms[1].interconnect, Interconnect::Efa);
    assert!(!s.platforms[1].compact_placement);
}
