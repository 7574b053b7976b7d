//! The event handlers driven by hand, and shortcuts checked to change nothing simulated.

use super::super::checkpoint::checkpoint_cycle;
use super::super::timeline::AttemptEnd;
use super::*;
use crate::model::scenario::{FailureKind, Placement, DAY_S};

/// A job that gives up keeps none of its compute as useful (nor as storage slowdown or
/// scaling loss): what its checkpoints kept moves to failed attempts. With every job
/// broken, one attempt each and no interruption, those buckets hold exactly the compute of
/// the attempts still running at the horizon, worked out here from the timeline.
#[test]
fn given_up_jobs_keep_no_useful_compute() {
    let mut s = crate::model::fixtures::three_platforms();
    s.horizon_days = 3.3;
    for p in &mut s.platforms {
        p.first_pool_mut().spot_interruptions_per_node_hour = 0.0;
    }
    for class in &mut s.job_classes {
        class.failures.kind = FailureKind::Deterministic;
        class.failures.probability = 1.0;
        class.failures.max_retries = 0;
        class.checkpoint_interval_min = 10.0;
        class.checkpoint_write_s = 20.0;
    }
    let jobs = super::super::generate_jobs(&s, 0);
    for p in 0..s.platforms.len() {
        let (o, timeline) = simulate_platform_timeline(&s, p, 0, &jobs);
        assert!(
            o.jobs_failed > 0 && o.jobs_completed == 0,
            "platform {p}: {} failed, {} completed",
            o.jobs_failed,
            o.jobs_completed
        );
        let running_at_horizon: f64 = timeline
            .attempts
            .iter()
            .filter(|a| a.ended == AttemptEnd::Horizon)
            .map(|a| {
                let (tau, delta) = checkpoint_cycle(&s.job_classes[a.class]);
                let done = compute_done(a.end_s - a.compute_start_s, tau, delta, i64::MAX);
                let gpus: u32 = a.nodes.iter().map(|&(_, used)| used).sum();
                done as f64 * f64::from(gpus)
            })
            .sum();
        // Some jobs are mid-attempt at this horizon, so both terms are exercised.
        assert!(running_at_horizon > 0.0, "platform {p}");
        let kept: f64 = [
            Category::UsefulCompute,
            Category::StorageReadSlowdown,
            Category::MultiNodeScalingLoss,
        ]
        .iter()
        .map(|&c| o.gpu_seconds[c])
        .sum();
        assert!(
            (kept - running_at_horizon).abs() <= 1e-9 * running_at_horizon.max(1.0),
            "platform {p}: {kept} vs {running_at_horizon}"
        );
    }
}

/// One platform on spot nodes (none reserved) and one class of 8-GPU, one-node jobs of a
/// fixed hour, every draw-dependent delay off; `jobs` built by hand for the tests that
/// drive the event handlers themselves.
fn one_spot_platform(tau_min: f64, failures: crate::model::scenario::Failures) -> Scenario {
    let mut s = crate::model::fixtures::three_platforms();
    s.platforms.truncate(2);
    s.platforms.remove(0);
    let p = &mut s.platforms[0];
    assert_eq!(p.first_pool().purchase.overflow, Overflow::Spot);
    p.first_pool_mut().purchase.reserved_share = 0.0;
    p.first_pool_mut().spot_interruptions_per_node_hour = 1.0;
    p.provisioning_median_s = 0.0;
    p.provisioning_p90_s = 0.0;
    p.capacity_wait_mean_s = 0.0;
    p.first_pool_mut().relative_throughput = 1.0;
    p.storage_read_slowdown_pct = 0.0;
    let class = &mut s.job_classes[0];
    class.duration = crate::model::scenario::Duration::Fixed { hours: 1.0 };
    class.checkpoint_interval_min = tau_min;
    class.checkpoint_write_s = 60.0;
    class.failures = failures;
    s
}

fn hand_job(broken: bool) -> Job {
    Job {
        arrival_s: 0,
        class: 0,
        work_ref_s: 3600.0,
        broken,
        fail_point: 0.5,
        attempt_seed: 1,
    }
}

/// A spot node whose interruption comes in the very second a job's attempt ends: the
/// attempt ends first (the job is done, all its compute useful, none of it rework), and
/// the job is not queued again with nothing left to run (which, in a class that can fail,
/// drew a failure point in an empty range and panicked). With checkpoints (30 min, the
/// last one written as the attempt ends) and without (everything would be lost).
#[test]
fn an_interruption_in_the_second_an_attempt_ends_lets_it_end() {
    for (tau_min, writes) in [(30.0, 2), (0.0, 0)] {
        let s = one_spot_platform(tau_min, Default::default());
        let jobs = [hand_job(false)];
        let mut sim = new_sim(&s, 0, 0, &jobs);
        let node = sim.add_node(NodeKind::Spot, true);
        assert!(sim.try_place(0));
        // 1 h of compute, and a 60 s write after each 30 min of it.
        let end = sim.attempt_end_s(0);
        let pull = sim.states[0].pull_s;
        assert_eq!(end, pull + 3600 + writes * 60, "τ = {tau_min} min");
        sim.now = end;
        sim.interrupt(node);
        assert_eq!(sim.states[0].phase, Phase::Done, "τ = {tau_min} min");
        assert_eq!((sim.tally.completed, sim.waiting.queue.len()), (1, 0));
        let gpus = 8.0;
        assert_eq!(sim.ledger.gpu_s[Category::UsefulCompute], 3600.0 * gpus);
        assert_eq!(sim.ledger.gpu_s[Category::InterruptionRework], 0.0);
        assert_eq!(sim.tally.interruptions, 1);
    }
}

/// The retry limit counts failed attempts only: a broken job (it fails half-way, every
/// time) with one retry fails twice before it gives up, however many of its attempts
/// spot interruptions stopped in between.
#[test]
fn interruptions_do_not_use_up_the_retry_limit() {
    let failures = crate::model::scenario::Failures {
        probability: 1.0,
        kind: FailureKind::Deterministic,
        max_retries: 1,
        at_share: None,
        ..Default::default()
    };
    let s = one_spot_platform(0.0, failures);
    let jobs = [hand_job(true)];
    let mut sim = new_sim(&s, 0, 0, &jobs);
    // First attempt: interrupted before it fails.
    let a = sim.add_node(NodeKind::Spot, true);
    assert!(sim.try_place(0));
    sim.now = 600;
    sim.interrupt(a);
    assert_eq!(sim.states[0].phase, Phase::Waiting);
    // Second attempt: fails half-way (no checkpoints, so at 1800 s of compute).
    sim.add_node(NodeKind::Spot, true);
    assert!(sim.try_place(0));
    assert_eq!(sim.states[0].fail_after_c, Some(1800));
    sim.now = sim.attempt_end_s(0);
    sim.attempt_end(0);
    assert_eq!(
        (sim.states[0].phase, sim.tally.gave_up),
        (Phase::Waiting, 0)
    );
    // Third attempt: the second failure, past the one retry.
    assert!(sim.try_place(0));
    sim.now = sim.attempt_end_s(0);
    sim.attempt_end(0);
    assert_eq!((sim.states[0].phase, sim.tally.gave_up), (Phase::GaveUp, 1));
    assert_eq!(sim.states[0].attempts, 3);
}

/// A job whose first attempt a spot interruption stops while it pulls its image has not
/// started computing: its queue wait runs on to the compute of the attempt that gets
/// there, and the pulls before it are a part of the wait. One job, submitted at 0, a
/// 600 s pull (600 GB at 1 GB/s, no image cache), 120 s to restart: on a node at 0 and
/// stopped at 200 s (200 s pulled); on another node from 1,000 s, it pulls 600 s and
/// restarts 120 s, so it computes from 1,720 s: a wait of 1,720 s, 800 s of it pulls.
/// With the horizon at 1,300 s, while the second pull is under way: a wait of 1,300 s,
/// 200 + 300 s of it pulls.
#[test]
fn an_interruption_before_the_first_compute_lets_the_queue_wait_run_on() {
    let mut s = one_spot_platform(0.0, Default::default());
    s.platforms[0].image_pull_gb_per_s = 1.0;
    s.platforms[0].first_pool_mut().image_cache = false;
    s.job_classes[0].image_gb = 600.0;
    s.job_classes[0].restart_overhead_s = 120.0;
    let jobs = [hand_job(false)];
    for (horizon_s, wait, pulls) in [(86_400, 1_720.0, 800.0), (1_300, 1_300.0, 500.0)] {
        s.horizon_days = f64::from(horizon_s) / DAY_S;
        let mut sim = new_sim(&s, 0, 0, &jobs);
        assert_eq!(sim.horizon_s, i64::from(horizon_s));
        let a = sim.add_node(NodeKind::Spot, true);
        assert!(sim.try_place(0));
        assert_eq!(sim.states[0].first_compute_s, Some(600));
        sim.now = 200;
        sim.interrupt(a);
        assert_eq!(sim.states[0].first_compute_s, None);
        sim.now = 1_000;
        sim.add_node(NodeKind::Spot, true);
        assert!(sim.try_place(0));
        assert_eq!(sim.states[0].first_compute_s, Some(1_720));
        let o = sim.outcome();
        assert_eq!(o.queue_wait_mean_s, wait, "horizon {horizon_s} s");
        assert_eq!(
            o.queue_wait_image_pull_mean_s, pulls,
            "horizon {horizon_s} s"
        );
        assert_eq!(o.queue_wait_for_nodes_mean_s, wait - pulls);
    }
}

/// A multi-node job reads its data once per attempt, not once per node: 100 GB billed,
/// for one 16-GPU job on two 8-GPU nodes in a one-day horizon, is 100 GB of egress.
#[test]
fn a_multi_node_job_reads_its_data_once_per_attempt() {
    let mut s = one_spot_platform(30.0, Default::default());
    s.platforms[0]
        .first_pool_mut()
        .spot_interruptions_per_node_hour = 0.0;
    s.platforms[0].egress_free_gb_per_month = 0.0;
    s.horizon_days = 1.0;
    let class = &mut s.job_classes[0];
    class.gpus_per_job = 16.0;
    class.data_read_gb_per_attempt = 100.0;
    class.data_read_billed_share = 1.0;
    class.egress_gb_per_job = 0.0;
    let jobs = [hand_job(false)];
    let (o, _) = simulate_platform(&s, 0, 0, &jobs, false);
    assert_eq!(o.jobs_completed, 1);
    let months = 24.0 / crate::model::HOURS_PER_MONTH;
    let expected = 100.0 * s.platforms[0].egress_usd_per_gb / months;
    assert!(
        (o.breakdown_usd[Category::Egress] - expected).abs() <= 1e-9 * expected,
        "{} vs {expected}",
        o.breakdown_usd[Category::Egress]
    );
}

/// Dropping stale events changes nothing simulated: a spot-heavy scenario run with the
/// queue compacted as often as possible and never gives the same outcome but the count
/// of events handled.
#[test]
fn compacting_the_queue_changes_nothing_simulated() {
    let mut s = crate::model::fixtures::three_platforms();
    s.horizon_days = 4.0;
    for p in &mut s.platforms {
        p.first_pool_mut().spot_interruptions_per_node_hour = 0.5;
    }
    for class in &mut s.job_classes {
        class.failures.probability = 0.2;
    }
    let jobs = super::super::generate_jobs(&s, 3);
    let mut dropped = 0;
    for p in 0..s.platforms.len() {
        let run = |compact_min: usize| {
            let mut sim = new_sim(&s, p, 3, &jobs);
            sim.switches.compact_min = compact_min;
            sim.agenda.compact_at = compact_min;
            sim.run();
            let mut o = sim.outcome();
            let events = std::mem::take(&mut o.events);
            (o, events)
        };
        let (never, all_events) = run(usize::MAX);
        let (often, fewer_events) = run(16);
        assert_eq!(never, often, "platform {p}");
        assert!(fewer_events <= all_events, "{fewer_events} <= {all_events}");
        dropped += all_events - fewer_events;
    }
    // The spot platform's interrupted attempts left end events behind, and they went.
    assert!(dropped > 0);
}

/// Offering an arriving job capacity at once (when none waits) places it as the placement
/// pass would: every preset, and each with its platforms spreading jobs, with gang
/// scheduling off (multi-node jobs then hold nodes one at a time) and with few nodes (jobs
/// arrive to a full cluster), interruptions and failures up so that jobs come back to the
/// queue.
#[test]
fn offering_capacity_on_arrival_changes_nothing_simulated() {
    let mut offered = 0;
    for preset in crate::workbench::presets::presets() {
        for variant in 0..4 {
            let mut s = preset.scenario();
            s.horizon_days = s.horizon_days.min(5.0);
            for p in s.platforms.iter_mut().filter(|p| p.runs_nodes()) {
                p.first_pool_mut().spot_interruptions_per_node_hour = 0.3;
                match variant {
                    1 if p.placement == Placement::BinPack => p.placement = Placement::Spread,
                    2 => p.gang_scheduling = false,
                    3 => p.first_pool_mut().max_nodes = p.first_pool().max_nodes.min(3),
                    _ => {}
                }
            }
            for class in &mut s.job_classes {
                class.failures.probability = class.failures.probability.max(0.1);
            }
            // As the simulation runs it: a pipeline's stages among the classes.
            let s = s.simulated().into_owned();
            let jobs = super::super::generate_jobs(&s, 1);
            // (A hosted API has no nodes to offer.)
            for p in (0..s.platforms.len()).filter(|&p| s.platforms[p].runs_nodes()) {
                let run = |offer: bool| {
                    let mut sim = new_sim(&s, p, 1, &jobs);
                    sim.switches.offer_on_arrival = offer;
                    sim.run();
                    sim.outcome()
                };
                let (pass, at_once) = (run(false), run(true));
                assert_eq!(
                    pass, at_once,
                    "{} variant {variant} platform {p}",
                    preset.name
                );
                offered += pass.jobs_submitted;
            }
        }
    }
    assert!(offered > 1_000);
}
