//! The simulation against closed forms, within 3 standard errors of the run's own estimate.

use crate::support::{bare_class, bare_platform, mmc_scenario, scenario};
use gpucost::model::analytic::{daly_wall_time_s, erlang_c_mean_wait};
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Placement};
use gpucost::model::sim::{generate_jobs, simulate_platform};
use gpucost::model::stats::{mean, standard_error};

/// A static cluster of `servers` single-GPU slots, Poisson arrivals, exponential durations
/// with a 1-hour mean, no overheads: mean queue wait (after a warm-up) against Erlang C.
fn check_erlang_c(servers: u32, load: f64) {
    let warmup_s = 5 * 86_400;
    let per_day = load * f64::from(servers) * 24.0;
    let s = mmc_scenario(servers, 1, load, 120.0, 12);
    let per_replication: Vec<f64> = (0..u64::from(s.replications))
        .map(|r| {
            let jobs = generate_jobs(&s, r);
            let (_, records) = simulate_platform(&s, 0, r, &jobs, true);
            let waits: Vec<f64> = records
                .unwrap()
                .iter()
                .filter(|j| j.arrival_s >= warmup_s)
                .filter_map(|j| j.first_compute_s.map(|c| (c - j.arrival_s) as f64 / 3600.0))
                .collect();
            mean(&waits)
        })
        .collect();
    let simulated = mean(&per_replication);
    let se = standard_error(&per_replication);
    let expected = erlang_c_mean_wait(servers, per_day / 24.0, 1.0);
    println!(
        "Erlang C c={servers} load={load}: simulated {simulated:.4} h, closed form {expected:.4} h, \
         standard error {se:.4} h"
    );
    assert!(
        (simulated - expected).abs() <= 3.0 * se,
        "c={servers} load={load}: simulated {simulated} h vs Erlang C {expected} h (se {se})"
    );
}

#[test]
fn queue_wait_matches_erlang_c_single_server_half_load() {
    check_erlang_c(1, 0.5);
}

#[test]
fn queue_wait_matches_erlang_c_four_servers_load_0_8() {
    check_erlang_c(4, 0.8);
}

#[test]
fn queue_wait_matches_erlang_c_eight_servers_load_0_9() {
    check_erlang_c(8, 0.9);
}

/// One checkpointed job at a time per spot node, interruptions at rate 1/M, no notice, instant
/// replacement: mean wall time against Daly (2006).
fn check_daly(solve_h: f64, interval_min: f64, write_s: f64, restart_s: f64, mtbi_h: f64) {
    let mut platform = bare_platform("spot");
    platform.first_pool_mut().purchase.overflow = Overflow::Spot;
    platform.first_pool_mut().spot_interruptions_per_node_hour = 1.0 / mtbi_h;
    platform.spot_notice_s = 0.0;
    platform.placement = Placement::Exclusive;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 6.0 },
        Duration::Fixed { hours: solve_h },
    );
    class.checkpoint_interval_min = interval_min;
    class.checkpoint_write_s = write_s;
    class.restart_overhead_s = restart_s;
    let horizon_days = 200.0;
    let s = scenario(horizon_days, 4, vec![class], vec![platform]);
    // Count jobs submitted early enough that none is cut off by the horizon.
    let last_arrival = ((horizon_days - 40.0) * 86_400.0) as i64;
    let mut walls = Vec::new();
    for r in 0..u64::from(s.replications) {
        let jobs = generate_jobs(&s, r);
        let (_, records) = simulate_platform(&s, 0, r, &jobs, true);
        for j in records
            .unwrap()
            .iter()
            .filter(|j| j.arrival_s <= last_arrival)
        {
            let finished = j.finished_s.expect("job finished within the horizon");
            walls.push((finished - j.arrival_s) as f64);
        }
    }
    let simulated = mean(&walls);
    let se = standard_error(&walls);
    let expected = daly_wall_time_s(
        solve_h * 3600.0,
        interval_min * 60.0,
        write_s,
        restart_s,
        mtbi_h * 3600.0,
    );
    println!(
        "Daly Ts={solve_h} h τ={interval_min} min M={mtbi_h} h: simulated {:.1} s, closed form \
         {expected:.1} s, standard error {se:.1} s ({} jobs)",
        simulated,
        walls.len()
    );
    assert!(
        (simulated - expected).abs() <= 3.0 * se,
        "simulated {simulated} s vs Daly {expected} s (se {se})"
    );
}

#[test]
fn wall_time_matches_daly_hourly_checkpoints_mtbi_10h() {
    check_daly(8.0, 60.0, 300.0, 600.0, 10.0);
}

#[test]
fn wall_time_matches_daly_half_hour_checkpoints_mtbi_5h() {
    check_daly(6.0, 30.0, 120.0, 300.0, 5.0);
}

#[test]
fn wall_time_matches_daly_two_hour_checkpoints_mtbi_20h() {
    check_daly(12.0, 120.0, 600.0, 1_200.0, 20.0);
}
