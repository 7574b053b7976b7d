//! Spot reclaims in waves: the mean rate per spot node-hour stays the slider's, the spread of
//! a month's interruptions grows as a compound Poisson process's does, a gang job's hazard
//! falls to what the waves that hit it give (Daly's wall time at that hazard), a drought
//! after each wave adds its length to every stop (Daly's model with an unexposed wait), and
//! with waves off nothing moves.

use crate::support::{
    bare_class, bare_platform, gang_jobs, job_walls, scenario, with_pool, WallFrom,
};
use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::scenario::node_pool::SpotReclaims;
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Platform, Scenario};
use gpucost::model::sim::{generate_jobs, simulate_platform, PlatformOutcome};
use gpucost::model::stats::{mean, standard_error};

/// A spot pool interrupted at `rate` per node-hour, with `reclaims`.
fn spot_platform(rate: f64, reclaims: SpotReclaims) -> Platform {
    with_pool(bare_platform("spot"), |pool| {
        pool.purchase.overflow = Overflow::Spot;
        pool.spot_interruptions_per_node_hour = rate;
        pool.spot_reclaims = reclaims;
    })
}

fn waves(share: f64, fraction: f64, drought_min: f64) -> SpotReclaims {
    SpotReclaims {
        share_of_rate: share,
        fraction_of_nodes: fraction,
        capacity_drought_min: drought_min,
        fall_back_to_on_demand: false,
    }
}

/// Twenty 1-GPU spot nodes kept busy for 20 days by jobs that never finish (the pool's node
/// limit is 20 and more jobs wait), interrupted at 0.01 per node-hour.
fn busy_pool(reclaims: SpotReclaims, replications: u32) -> Scenario {
    let mut platform = spot_platform(0.01, reclaims);
    platform.first_pool_mut().max_nodes = 20;
    let class = bare_class(
        Arrivals::Steady { per_day: 480.0 },
        Duration::Fixed { hours: 10_000.0 },
    );
    scenario(20.0, replications, vec![class], vec![platform])
}

/// Per replication: (interruptions, spot node-hours).
fn interruptions_and_exposure(s: &Scenario) -> Vec<(f64, f64)> {
    (0..u64::from(s.replications))
        .map(|r| {
            let jobs = generate_jobs(s, r);
            let (o, _) = simulate_platform(s, 0, r, &jobs, false);
            // 1-GPU nodes billed by the second from ready: paid GPU-seconds are node-seconds.
            (o.interruptions as f64, o.paid_gpu_seconds / 3_600.0)
        })
        .collect()
}

#[test]
fn a_spot_node_is_interrupted_at_the_sliders_rate_with_waves_or_without() {
    for reclaims in [
        SpotReclaims::default(),
        waves(0.5, 0.5, 0.0),
        waves(1.0, 0.25, 0.0),
    ] {
        let runs = interruptions_and_exposure(&busy_pool(reclaims.clone(), 40));
        let rates: Vec<f64> = runs.iter().map(|(n, h)| n / h).collect();
        let (m, se) = (mean(&rates), standard_error(&rates));
        println!(
            "share {}, fraction {}: {m:.5} per node-hour (se {se:.5})",
            reclaims.share_of_rate, reclaims.fraction_of_nodes
        );
        assert!((m - 0.01).abs() < 3.0 * se, "{m} vs 0.01 (se {se})");
    }
}

#[test]
fn waves_spread_a_months_interruptions_as_a_compound_poisson_process() {
    // N nodes, rate λ, waves of chance f: the count over t hours has variance
    // λ·t·N·((1 − f) + N·f) (waves at λ/f, each taking Binomial(N, f) nodes), against λ·t·N
    // node by node: 10.5 times as much for N = 20, f = 0.5.
    let ratio = |reclaims| {
        let counts: Vec<f64> = interruptions_and_exposure(&busy_pool(reclaims, 200))
            .iter()
            .map(|(n, _)| *n)
            .collect();
        let m = mean(&counts);
        let var = counts.iter().map(|c| (c - m) * (c - m)).sum::<f64>() / (counts.len() - 1) as f64;
        var / m
    };
    let alone = ratio(SpotReclaims::default());
    let in_waves = ratio(waves(1.0, 0.5, 0.0));
    println!("variance ÷ mean: node by node {alone:.2}, in waves {in_waves:.2} (10.5 expected)");
    assert!((0.75..1.3).contains(&alone), "{alone}");
    assert!((7.0..14.5).contains(&in_waves), "{in_waves}");
}

#[test]
fn a_gang_job_is_stopped_only_by_the_waves_that_hit_it() {
    // All of λ in waves taking each node with chance 0.5: waves come 2λ per hour and hit a
    // 4-node job with chance 1 − 0.5⁴, so it stops 1.875λ per hour, not 4λ. With λ chosen
    // for a 20 h mean time between stops, Daly's wall time at M = 20 h.
    let lambda = 1.0 / (20.0 * 1.875);
    let s = gang_jobs(spot_platform(lambda, waves(1.0, 0.5, 0.0)));
    let hazard = s.platforms[0].first_pool().job_stops_per_hour(4.0);
    assert!((hazard - 1.0 / 20.0).abs() < 1e-12, "{hazard}");
    let (simulated, se, _) = job_walls(&s, WallFrom::FirstCompute);
    let expected = daly_wall_time_s(36_000.0, 3_600.0, 300.0, 600.0, 20.0 * 3_600.0);
    // Node by node at the same λ the job would stop every 1 ÷ (4λ) = 9.4 h.
    let alone = daly_wall_time_s(36_000.0, 3_600.0, 300.0, 600.0, 3_600.0 / (4.0 * lambda));
    println!("gang job in waves: {simulated:.0} s (se {se:.0}), Daly {expected:.0} s; node by node {alone:.0} s");
    assert!(
        (simulated - expected).abs() < 3.0 * se,
        "{simulated} vs {expected}"
    );
    assert!(alone - expected > 10.0 * se);
}

#[test]
fn the_drought_after_a_wave_adds_its_length_to_every_stop() {
    // Every wave takes every node (f = 1) at λ = 1/20 per hour, and no spot node is to be had
    // for 45 min after it. Each stop is followed by the 45 min wait (no node to lose in it)
    // and then the restart (on nodes, exposed): Daly's expectation with the wait D added per
    // stop, (M + D)·e^(R/M)·(e^((τ+δ)/M) − 1)·Ts/τ, that is Daly's times (M + D) ÷ M.
    let s = gang_jobs(spot_platform(1.0 / 20.0, waves(1.0, 1.0, 45.0)));
    let (simulated, se, _) = job_walls(&s, WallFrom::FirstCompute);
    let m = 20.0 * 3_600.0;
    let expected = daly_wall_time_s(36_000.0, 3_600.0, 300.0, 600.0, m) * (m + 2_700.0) / m;
    let no_drought = daly_wall_time_s(36_000.0, 3_600.0, 300.0, 600.0, m);
    println!("drought: {simulated:.0} s (se {se:.0}), expected {expected:.0} s; without {no_drought:.0} s");
    assert!(
        (simulated - expected).abs() < 3.0 * se,
        "{simulated} vs {expected}"
    );
    assert!(expected - no_drought > 5.0 * se);
}

#[test]
fn falling_back_to_on_demand_in_a_drought_skips_the_wait_at_the_on_demand_price() {
    let mut reclaims = waves(1.0, 1.0, 45.0);
    let waiting = gang_jobs(spot_platform(1.0 / 20.0, reclaims.clone()));
    reclaims.fall_back_to_on_demand = true;
    let falling_back = gang_jobs(spot_platform(1.0 / 20.0, reclaims));
    let (wait_wall, wait_se, wait_outcomes) = job_walls(&waiting, WallFrom::FirstCompute);
    let (back_wall, back_se, back_outcomes) = job_walls(&falling_back, WallFrom::FirstCompute);
    println!("waiting {wait_wall:.0} s, falling back {back_wall:.0} s");
    assert!(wait_wall - back_wall > 3.0 * (wait_se + back_se));
    // $3 a spot node-hour, $10 on demand, nothing else: cost per paid GPU-hour rises with
    // the on-demand nodes bought in droughts.
    let price = |o: &Vec<PlatformOutcome>| {
        let usd: f64 = o.iter().map(|o| o.breakdown_usd.total()).sum();
        let hours: f64 = o.iter().map(|o| o.paid_gpu_seconds / 3_600.0).sum();
        usd / hours
    };
    let (spot_only, mixed) = (price(&wait_outcomes), price(&back_outcomes));
    println!("$ per paid GPU-hour: waiting {spot_only:.4}, falling back {mixed:.4}");
    assert!(mixed > spot_only * 1.05, "{mixed} vs {spot_only}");
}

#[test]
fn a_jobs_hazard_from_waves_is_worked_by_hand() {
    // λ = 0.01, share 0.5, fraction 0.25, 4 nodes: own clocks 0.005 × 4 = 0.02; waves at
    // 0.5 × 0.01 ÷ 0.25 = 0.02 per hour hitting with chance 1 − 0.75⁴ = 0.68359375:
    // 0.013671875; with failures at 0.001 per node-hour, 0.004 more: 0.037671875.
    let mut p = spot_platform(0.01, waves(0.5, 0.25, 0.0));
    p.first_pool_mut().node_failures_per_node_hour = 0.001;
    let got = p.first_pool().job_stops_per_hour(4.0);
    assert!((got - 0.037_671_875).abs() < 1e-15, "{got}");
    // On demand only failures stop it.
    p.first_pool_mut().purchase.overflow = Overflow::OnDemand;
    assert!((p.first_pool().job_stops_per_hour(4.0) - 0.004).abs() < 1e-15);
}

#[test]
fn reclaim_settings_without_waves_change_no_bit() {
    let base = gpucost::workbench::presets::preset("batch-vs-eks-spot")
        .unwrap()
        .scenario();
    let mut set = base.clone();
    for p in &mut set.platforms {
        for pool in &mut p.node_pools {
            pool.spot_reclaims = SpotReclaims {
                share_of_rate: 0.0,
                fraction_of_nodes: 0.9,
                capacity_drought_min: 120.0,
                fall_back_to_on_demand: true,
            };
        }
    }
    let tco = |s: Scenario| {
        let mut run = MonteCarlo::new(s).unwrap();
        run.run_to_end();
        run.results()
            .platforms
            .iter()
            .map(|p| p.monthly_tco_usd().mean.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(tco(base), tco(set));
}
