//! Deterministic cases computed by hand.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::monte_carlo::run_replication;
use gpucost::model::platforms::Profile;
use gpucost::model::scenario::{Arrivals, Duration, Placement};
use gpucost::model::sim::{Category, PlatformOutcome};

/// Monthly factor for a horizon of `days`: a 730-hour month over the horizon's hours.
fn per_month(days: f64) -> f64 {
    730.0 / (days * 24.0)
}

fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() < 1e-6 * want.abs().max(1.0),
        "got {got}, want {want}"
    );
}

fn gpu_s(o: &PlatformOutcome, category: Category) -> f64 {
    o.gpu_seconds[category]
}

#[test]
fn hourly_billing_rounds_a_half_hour_job_up_to_an_hour() {
    // One 30-minute job on a $10/h node billed by the hour: $5 useful + $5 rounding.
    let mut platform = bare_platform("hourly");
    platform.billing.granularity_s = 3_600;
    let class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 0.5 },
    );
    let s = scenario(1.0, 1, vec![class], vec![platform]);
    let o = &run_replication(&s, 0)[0];
    close(
        o.breakdown_usd[Category::UsefulCompute],
        5.0 * per_month(1.0),
    );
    close(
        o.breakdown_usd[Category::BillingRounding],
        5.0 * per_month(1.0),
    );
    close(o.monthly_tco_usd, 10.0 * per_month(1.0));
    close(o.paid_gpu_seconds, 3_600.0);
}

#[test]
fn per_second_billing_charges_the_60_second_minimum() {
    // A 10-second job with a 60 s minimum: 50 s of rounding.
    let mut platform = bare_platform("per-second");
    platform.billing.minimum_s = 60;
    let class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed {
            hours: 10.0 / 3600.0,
        },
    );
    let s = scenario(1.0, 1, vec![class], vec![platform]);
    let o = &run_replication(&s, 0)[0];
    close(gpu_s(o, Category::UsefulCompute), 10.0);
    close(gpu_s(o, Category::BillingRounding), 50.0);
}

#[test]
fn reserved_nodes_are_billed_for_the_whole_horizon() {
    // Two p4d.24xlarge reserved at 37 % off, no jobs: 2 × 21.957642 × 0.63 × 730 h a month
    // (the catalog's 2026-H2 on-demand price).
    let mut platform = Profile::ReservedCluster.platform("static", "p4d.24xlarge", "us-east-1");
    platform.ops_fte = 0.0;
    platform.storage_gb = 0.0;
    let class = bare_class(
        Arrivals::Poisson { per_day: 0.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let mut s = scenario(30.0, 1, vec![class], vec![platform]);
    s.reference_gpus = 16;
    let o = &run_replication(&s, 0)[0];
    close(o.breakdown_usd[Category::Idle], 20_196.639_111_6);
    close(o.monthly_tco_usd, 20_196.639_111_6);
    assert_eq!(o.peak_nodes, 2);
}

#[test]
fn cluster_fees_are_charged_per_hour() {
    // EKS: $0.10 per cluster-hour × 730 h = $73 a month.
    let mut platform = bare_platform("eks");
    platform.fee_usd_per_cluster_hour = 0.10;
    let class = bare_class(
        Arrivals::Poisson { per_day: 0.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let s = scenario(10.0, 1, vec![class], vec![platform]);
    let o = &run_replication(&s, 0)[0];
    close(o.breakdown_usd[Category::Fees], 73.0);
    close(o.monthly_tco_usd, 73.0);
}

#[test]
fn egress_bills_beyond_the_free_tier() {
    // Seed 002: 10 TB at $0.09/GB is $900 before the free tier; with 100 GB free, $891.
    let mut platform = bare_platform("aws");
    platform.egress_usd_per_gb = 0.09;
    platform.egress_free_gb_per_month = 100.0;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 1.0 },
    );
    class.egress_gb_per_job = 1_000.0;
    // Exactly one 730-hour month; 10 jobs in the first 10 days.
    let horizon_days = 730.0 / 24.0;
    class.arrivals = Arrivals::Steady {
        per_day: 10.0 / horizon_days,
    };
    let s = scenario(horizon_days, 1, vec![class], vec![platform]);
    let o = &run_replication(&s, 0)[0];
    assert_eq!(o.jobs_completed, 10);
    close(o.breakdown_usd[Category::Egress], 891.0);
}

#[test]
fn a_second_job_on_a_warm_cached_node_pulls_nothing() {
    // 6 GB at 1 GB/s = 6 s pull. Two 1-hour jobs 12 h apart on one warm node: one pull.
    let mut platform = bare_platform("warm");
    platform.first_pool_mut().warm_pool_window_s = 86_400.0;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 2.0 },
        Duration::Fixed { hours: 1.0 },
    );
    class.image_gb = 6.0;
    let s = scenario(1.0, 1, vec![class.clone()], vec![platform.clone()]);
    let o = &run_replication(&s, 0)[0];
    assert_eq!(o.peak_nodes, 1);
    close(gpu_s(o, Category::ProvisioningAndPulls), 6.0);
    // Queue wait parts: the first job pulls 6 s, the second nothing: means 3 s and 0 s.
    close(o.queue_wait_image_pull_mean_s, 3.0);
    close(o.queue_wait_for_nodes_mean_s, 0.0);
    // Without the cache both jobs pull; with a zero warm window each gets a new node.
    platform.first_pool_mut().image_cache = false;
    let s = scenario(1.0, 1, vec![class.clone()], vec![platform.clone()]);
    close(
        gpu_s(&run_replication(&s, 0)[0], Category::ProvisioningAndPulls),
        12.0,
    );
    platform.first_pool_mut().image_cache = true;
    platform.first_pool_mut().warm_pool_window_s = 0.0;
    let s = scenario(1.0, 1, vec![class], vec![platform]);
    close(
        gpu_s(&run_replication(&s, 0)[0], Category::ProvisioningAndPulls),
        12.0,
    );
}

#[test]
fn queue_wait_splits_into_waiting_for_nodes_and_pulling() {
    // Provisioning fixed at 120 s (median = p90), a 6 s pull, a warm node for the second job:
    // waits 126 s and 0 s, of which nodes 60 s and pulls 3 s on average.
    let mut platform = bare_platform("warm");
    platform.first_pool_mut().warm_pool_window_s = 86_400.0;
    platform.provisioning_median_s = 120.0;
    platform.provisioning_p90_s = 120.0;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 2.0 },
        Duration::Fixed { hours: 1.0 },
    );
    class.image_gb = 6.0;
    let s = scenario(1.0, 1, vec![class], vec![platform]);
    let o = &run_replication(&s, 0)[0];
    close(o.queue_wait_mean_s, 63.0);
    close(o.queue_wait_for_nodes_mean_s, 60.0);
    close(o.queue_wait_image_pull_mean_s, 3.0);
    // Provisioning is billed: 120 GPU-seconds, plus the 6 s pull.
    close(gpu_s(o, Category::ProvisioningAndPulls), 126.0);
}

/// Seed 001: six 1-GPU jobs submitted together on 8-GPU nodes.
fn six_one_gpu_jobs(placement: Placement) -> PlatformOutcome {
    let mut platform = bare_platform("k8s");
    platform.first_pool_mut().gpus_per_node = 8;
    platform.placement = placement;
    // Six classes of one steady job a day: all six arrive at time 0.
    let class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 2.0 },
    );
    let s = scenario(1.0, 1, vec![class; 6], vec![platform]);
    run_replication(&s, 0).remove(0)
}

#[test]
fn spread_puts_six_one_gpu_jobs_on_six_nodes_and_bin_pack_on_one() {
    let spread = six_one_gpu_jobs(Placement::Spread);
    let packed = six_one_gpu_jobs(Placement::BinPack);
    assert_eq!(spread.peak_nodes, 6);
    assert_eq!(packed.peak_nodes, 1);
    // Spread: 6 nodes × 8 GPUs × 2 h = 96 GPU-hours paid, 12 useful: 84 idle.
    close(gpu_s(&spread, Category::Idle), 84.0 * 3_600.0);
    // Bin-pack: 1 node × 8 GPUs × 2 h = 16 paid, 12 useful: 4 idle.
    close(gpu_s(&packed, Category::Idle), 4.0 * 3_600.0);
}

#[test]
fn sagemaker_never_packs_two_jobs_on_one_instance() {
    let exclusive = six_one_gpu_jobs(Placement::Exclusive);
    assert_eq!(exclusive.peak_nodes, 6);
    assert_eq!(exclusive.jobs_completed, 6);
}

#[test]
fn the_timeline_records_every_node_and_attempt_without_changing_results() {
    use gpucost::model::sim::{
        generate_jobs, simulate_platform, simulate_platform_timeline, AttemptEnd,
    };
    let mut platform = bare_platform("k8s");
    platform.first_pool_mut().gpus_per_node = 8;
    let class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 2.0 },
    );
    let s = scenario(1.0, 1, vec![class; 6], vec![platform]);
    let jobs = generate_jobs(&s, 0);
    let (plain, _) = simulate_platform(&s, 0, 0, &jobs, false);
    let (recorded, timeline) = simulate_platform_timeline(&s, 0, 0, &jobs);
    assert_eq!(plain, recorded);
    assert_eq!(timeline.nodes.len(), 1);
    assert_eq!(timeline.nodes[0].ready_s, Some(0));
    assert_eq!(timeline.attempts.len(), 6);
    for a in &timeline.attempts {
        assert_eq!(a.nodes, vec![(0, 1)]);
        assert_eq!(
            (a.start_s, a.end_s, a.ended),
            (0, 7_200, AttemptEnd::Finished)
        );
    }
}

#[test]
fn jobs_still_queued_at_the_horizon_count_their_wait_up_to_it() {
    // One 1-GPU node (max 1), four 100-hour jobs a day (one every 6 h), a one-day horizon:
    // the first starts at once, the other three are still queued at 24 h, having waited
    // 18, 12 and 6 h. Waits 0, 360, 720, 1080 min: mean 540; the 95th percentile between
    // the two largest, 720 + 0.85 × 360 = 1026. No job finished: no turnaround inflation.
    let mut platform = bare_platform("one node");
    platform.first_pool_mut().max_nodes = 1;
    let class = bare_class(
        Arrivals::Steady { per_day: 4.0 },
        Duration::Fixed { hours: 100.0 },
    );
    let s = scenario(1.0, 1, vec![class], vec![platform]);
    let o = &run_replication(&s, 0)[0];
    assert_eq!(
        (o.jobs_running, o.jobs_waiting, o.jobs_completed),
        (1, 3, 0)
    );
    close(o.queue_wait_mean_s, 540.0 * 60.0);
    close(o.queue_wait_p50_s, 540.0 * 60.0);
    close(o.queue_wait_p95_s, 1026.0 * 60.0);
    close(o.queue_wait_image_pull_mean_s, 0.0);
    assert_eq!(o.turnaround_inflation, None);
}

#[test]
fn queue_wait_parts_split_provisioning_capacity_and_the_wait_for_a_slot() {
    // Two 1-hour jobs (of two classes, so two images) submitted at 0 to a platform of at most
    // one 1-GPU node, provisioned in exactly 300 s, with a 60 s image pull. The first waits
    // 300 s of provisioning and its pull: 360 s. The second waits for the first to finish
    // (3,960 s) on the same node, then pulls its image: 4,020 s. Means: wait 2,190 s =
    // 1,980 for a slot + 150 provisioning + 0 capacity + 60 pulling.
    let mut platform = bare_platform("one node");
    platform.first_pool_mut().max_nodes = 1;
    platform.provisioning_median_s = 300.0;
    platform.provisioning_p90_s = 300.0;
    platform.first_pool_mut().warm_pool_window_s = 600.0;
    let class = || {
        let mut c = bare_class(
            Arrivals::Steady { per_day: 1.0 },
            Duration::Fixed { hours: 1.0 },
        );
        c.image_gb = 60.0;
        c
    };
    let s = scenario(1.0, 1, vec![class(), class()], vec![platform]);
    let o = &run_replication(&s, 0)[0];
    assert_eq!(o.jobs_completed, 2);
    close(o.queue_wait_mean_s, 2_190.0);
    close(o.queue_wait_image_pull_mean_s, 60.0);
    close(o.queue_wait_provisioning_mean_s, 150.0);
    close(o.queue_wait_capacity_mean_s, 0.0);
    close(o.queue_wait_for_nodes_mean_s, 2_130.0);
}

#[test]
fn the_capacity_wait_of_a_new_node_is_part_of_the_queue_wait() {
    // One job at 0 on a fresh on-demand node that waits for capacity (exponential, mean
    // 10 min) before its 300 s of provisioning: the job's wait splits into the node's capacity
    // wait, as the node timeline records it, and the 300 s.
    let mut platform = bare_platform("scarce");
    platform.capacity_wait_mean_s = 600.0;
    platform.provisioning_median_s = 300.0;
    platform.provisioning_p90_s = 300.0;
    let class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let s = scenario(1.0, 1, vec![class], vec![platform]);
    let jobs = gpucost::model::sim::generate_jobs(&s, 0);
    let (o, timeline) = gpucost::model::sim::simulate_platform_timeline(&s, 0, 0, &jobs);
    let node = &timeline.nodes[0];
    let capacity = (node.billing_start_s - node.requested_s) as f64;
    assert!(capacity > 0.0);
    close(o.queue_wait_capacity_mean_s, capacity);
    close(o.queue_wait_provisioning_mean_s, 300.0);
    close(o.queue_wait_mean_s, capacity + 300.0);
}

#[test]
fn a_set_failure_point_burns_that_share_of_each_attempt() {
    // One 1-hour job that fails every attempt (2 retries, so 3 attempts), no checkpoints, on a
    // ready 1-GPU node: failing at 25 % of its run burns 900 s an attempt, deterministic or
    // transient (the transient share is of the work left, all of it without checkpoints).
    use gpucost::model::scenario::FailureKind;
    for kind in [FailureKind::Deterministic, FailureKind::Transient] {
        let mut class = bare_class(
            Arrivals::Steady { per_day: 1.0 },
            Duration::Fixed { hours: 1.0 },
        );
        class.failures.probability = 1.0;
        class.failures.kind = kind;
        class.failures.max_retries = 2;
        class.failures.at_share = Some(0.25);
        let s = scenario(1.0, 1, vec![class], vec![bare_platform("one")]);
        let o = &run_replication(&s, 0)[0];
        assert_eq!((o.jobs_failed, o.jobs_completed), (1, 0), "{kind:?}");
        close(gpu_s(o, Category::FailedAttempts), 3.0 * 900.0);
        close(gpu_s(o, Category::UsefulCompute), 0.0);
    }
}

#[test]
fn a_job_still_waiting_for_its_node_at_the_horizon_counts_that_provisioning() {
    // Jobs at 0 and 12 h on fresh 1-GPU nodes provisioned in exactly 300 s (no warm pool),
    // the horizon 100 s after the second: the first waits its 300 s of provisioning; the
    // second is still provisioning at the horizon, its 100 s so far. Means: wait 200 s, all of
    // it provisioning.
    let mut platform = bare_platform("fresh nodes");
    platform.provisioning_median_s = 300.0;
    platform.provisioning_p90_s = 300.0;
    let class = bare_class(
        Arrivals::Steady { per_day: 2.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let s = scenario(
        (43_200.0 + 100.0) / 86_400.0,
        1,
        vec![class],
        vec![platform],
    );
    let o = &run_replication(&s, 0)[0];
    assert_eq!((o.jobs_completed, o.jobs_waiting), (1, 1));
    close(o.queue_wait_mean_s, 200.0);
    close(o.queue_wait_provisioning_mean_s, 200.0);
    close(o.queue_wait_capacity_mean_s, 0.0);
    close(o.queue_wait_for_nodes_mean_s, 200.0);
}

#[test]
fn a_failure_at_a_checkpoint_comes_before_it_even_when_writes_take_no_time() {
    // A broken 1-hour job (no retry) that fails at the very end of its run, with a checkpoint
    // every 30 min written in no time: the failure at 60 min comes before the final save, so
    // the checkpoint at 30 min is all it kept, and it gives up (it does not finish).
    use gpucost::model::scenario::FailureKind;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 1.0 },
    );
    class.failures.probability = 1.0;
    class.failures.kind = FailureKind::Deterministic;
    class.failures.max_retries = 0;
    class.failures.at_share = Some(1.0);
    class.checkpoint_interval_min = 30.0;
    class.checkpoint_write_s = 0.0;
    let s = scenario(1.0, 1, vec![class], vec![bare_platform("one")]);
    let o = &run_replication(&s, 0)[0];
    assert_eq!((o.jobs_failed, o.jobs_completed), (1, 0));
    // Giving up moves what the checkpoint kept to failed attempts too: the whole hour.
    close(gpu_s(o, Category::FailedAttempts), 3_600.0);
    close(gpu_s(o, Category::UsefulCompute), 0.0);
}
