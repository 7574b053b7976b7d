//! Job classes asking for a fraction of a GPU: on a platform that shares GPUs they pack its
//! GPUs (time-slicing by milli-GPUs and memory, MIG by slices), elsewhere each holds a whole
//! GPU. Hand-worked cases a wrong model fails.

use crate::support::{adds_up, bare_class, bare_platform, scenario, with_pool};
use gpucost::model::cost_category::Category;
use gpucost::model::monte_carlo::run_replication;
use gpucost::model::scenario::gpu_sharing::standard_layout;
use gpucost::model::scenario::{Arrivals, Duration, GpuSharing, Platform, Scenario};
use gpucost::model::sim::outcome::PlatformOutcome;

const HOUR: f64 = 3_600.0;

/// One-GPU A100 (40 GB) nodes at $10 an hour on EKS, sharing as `sharing`; a job of `gpus`
/// (10 GB) every `every_s` seconds, each running `run_s`, for a day.
fn jobs_on(sharing: GpuSharing, gpus: f64, every_s: f64, run_s: f64) -> Scenario {
    let mut class = bare_class(
        Arrivals::Steady {
            per_day: 86_400.0 / every_s,
        },
        Duration::Fixed {
            hours: run_s / HOUR,
        },
    );
    class.gpus_per_job = gpus;
    class.gpu_memory_gb = 4.0;
    let platform = Platform {
        profile: "eks".to_string().into(),
        ..bare_platform("eks")
    };
    let platform = with_pool(platform, |pool| {
        pool.gpu_memory_gb = 40.0;
        pool.gpu_sharing = sharing;
    });
    scenario(1.0, 1, vec![class], vec![platform])
}

fn run(s: &Scenario) -> PlatformOutcome {
    s.validate().expect("valid");
    run_replication(s, 0)[0].clone()
}

fn hours(o: &PlatformOutcome, c: Category) -> f64 {
    o.gpu_seconds[c] / HOUR
}

fn time_slicing() -> GpuSharing {
    GpuSharing::TimeSlicing {
        context_switch_loss: 0.05,
    }
}

#[test]
fn two_half_gpu_jobs_share_one_time_sliced_gpu() {
    // A half-GPU job every 30 minutes for an hour: two run at once after the first half
    // hour, filling one GPU. Paid: one GPU all day, 24 GPU-hours. Useful: half a GPU for
    // every job's time in the day, 0.5 × (47 × 1 h + the last one's 0.5 h) = 23.75. The
    // first half hour's empty half is GPU-sharing loss: 0.25.
    let o = run(&jobs_on(time_slicing(), 0.5, 1_800.0, 3_600.0));
    adds_up(&o);
    assert!(
        (o.paid_gpu_seconds / HOUR - 24.0).abs() < 1e-9,
        "{}",
        o.paid_gpu_seconds / HOUR
    );
    assert!((hours(&o, Category::UsefulCompute) - 23.75).abs() < 1e-9);
    assert!((hours(&o, Category::GpuSharingLoss) - 0.25).abs() < 1e-9);
    assert_eq!(hours(&o, Category::Idle), 0.0);
    assert_eq!(o.peak_nodes, 1);
    // Where GPUs are not shared, each holds a whole GPU: two nodes at a time, 47.5 paid
    // GPU-hours, the same useful work and the other halves idle.
    let whole = run(&jobs_on(GpuSharing::None, 0.5, 1_800.0, 3_600.0));
    adds_up(&whole);
    assert!((whole.paid_gpu_seconds / HOUR - 47.5).abs() < 1e-9);
    assert!((hours(&whole, Category::UsefulCompute) - 23.75).abs() < 1e-9);
    assert!((hours(&whole, Category::Idle) - 23.75).abs() < 1e-9);
    assert_eq!(whole.peak_nodes, 2);
}

#[test]
fn seven_tenth_gpu_jobs_fit_the_seven_slices_of_one_a100_and_an_eighth_needs_another() {
    let mig = || GpuSharing::Mig {
        layout: standard_layout("A100", "7x1g").unwrap(),
    };
    // A 0.1-GPU job every 450 s, each 3,150 s: seven at once at most, one 1g slice each.
    // One GPU all day: 24 GPU-hours paid. Useful: 0.1 × the jobs' time in the day:
    // 186 whole runs of 3,150 s and the last six's 2,700 + 2,250 + … + 450 s, 595,350 s.
    // The rest of the GPU (empty slices, and each slice's 1/7 beyond 0.1) is sharing loss.
    let seven = run(&jobs_on(mig(), 0.1, 450.0, 3_150.0));
    adds_up(&seven);
    assert!((seven.paid_gpu_seconds / HOUR - 24.0).abs() < 1e-9);
    let useful = 0.1 * 595_350.0 / HOUR;
    assert!((hours(&seven, Category::UsefulCompute) - useful).abs() < 1e-9);
    assert!((hours(&seven, Category::GpuSharingLoss) - (24.0 - useful)).abs() < 1e-9);
    // Each 3,600 s, eight at once: from 3,150 s on, the eighth holds a second GPU (the
    // first is refilled as its jobs end, being the fuller), one node after another in turn
    // to the day's end: 24 + (86,400 − 3,150) ÷ 3,600 = 47.125 GPU-hours.
    let eight = run(&jobs_on(mig(), 0.1, 450.0, 3_600.0));
    adds_up(&eight);
    assert!(
        (eight.paid_gpu_seconds / HOUR - 47.125).abs() < 1e-9,
        "{}",
        eight.paid_gpu_seconds / HOUR
    );
}

#[test]
fn time_slicing_packs_by_memory_too() {
    // Quarter-GPU jobs of 15 GB: four fit a GPU's share, but only two its 40 GB. Two at a
    // time all day on one GPU (a job every 30 minutes for an hour) pays 24 GPU-hours; three
    // at a time (every 20 minutes) needs a second GPU.
    let mut two = jobs_on(time_slicing(), 0.25, 1_800.0, 3_600.0);
    two.job_classes[0].gpu_memory_gb = 15.0;
    let o = run(&two);
    adds_up(&o);
    assert_eq!(o.peak_nodes, 1);
    let mut three = jobs_on(time_slicing(), 0.25, 1_200.0, 3_600.0);
    three.job_classes[0].gpu_memory_gb = 15.0;
    let o = run(&three);
    adds_up(&o);
    assert_eq!(o.peak_nodes, 2);
    // With 10 GB each, three fit one GPU.
    three.job_classes[0].gpu_memory_gb = 10.0;
    assert_eq!(run(&three).peak_nodes, 1);
}

#[test]
fn a_fraction_is_refused_where_it_is_not_a_step_of_a_milli_gpu_or_fits_no_slice() {
    let s = jobs_on(time_slicing(), 1.5, 1_800.0, 3_600.0);
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("above one GPU, a job holds whole GPUs"),
        "{err}"
    );
    let s = jobs_on(time_slicing(), 0.0005, 1_800.0, 3_600.0);
    assert!(s.validate().is_err());
    let s = jobs_on(time_slicing(), 0.0015, 1_800.0, 3_600.0);
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("in steps of 0.001"), "{err}");
    let mut s = jobs_on(
        GpuSharing::Mig {
            layout: standard_layout("A100", "7x1g").unwrap(),
        },
        0.1,
        1_800.0,
        3_600.0,
    );
    s.job_classes[0].gpu_memory_gb = 8.0;
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("fits no slice"), "{err}");
    assert!(
        err.contains("7 × 1g.5gb") || err.contains("1g.5gb"),
        "{err}"
    );
}

#[test]
fn a_scenario_written_with_whole_gpus_reads_and_writes_them_whole() {
    let s = jobs_on(GpuSharing::None, 4.0, 1_800.0, 3_600.0);
    let text = serde_json::to_string(&s).unwrap();
    assert!(text.contains("\"gpus_per_job\":4,"), "{text}");
    let back = Scenario::from_json(&text).unwrap();
    assert_eq!(back.job_classes[0].gpus_per_job, 4.0);
    let half = jobs_on(GpuSharing::None, 0.5, 1_800.0, 3_600.0);
    assert!(serde_json::to_string(&half)
        .unwrap()
        .contains("\"gpus_per_job\":0.5,"));
}

#[test]
fn a_job_is_never_charged_more_than_its_slice() {
    // 0.143 of a GPU rounds above a 1g slice's 1/7 (0.142857…): seven such jobs fill the
    // seven slices, and are charged 1/7 each, so the GPU's time is never exceeded.
    let mig = GpuSharing::Mig {
        layout: standard_layout("A100", "7x1g").unwrap(),
    };
    let o = run(&jobs_on(mig, 0.143, 450.0, 3_150.0));
    adds_up(&o);
    assert!((o.paid_gpu_seconds / HOUR - 24.0).abs() < 1e-9);
    let useful = 595_350.0 / 7.0 / HOUR;
    assert!((hours(&o, Category::UsefulCompute) - useful).abs() < 1e-9);
}

#[test]
fn a_smaller_fraction_is_placed_while_a_larger_one_waits() {
    // One 1-GPU node, time-sliced, no more. A 0.6-GPU job runs all day from the start; a
    // second, at 12:00, cannot fit and waits. A 0.3-GPU job arrives at 0:00 and at 16:00,
    // each running an hour: the second fits beside the first (0.9), although a larger job
    // waits before it. Useful: 0.6 × 24 + 0.3 × 1 + 0.3 × 1 = 15 GPU-hours.
    let mut s = jobs_on(time_slicing(), 0.6, 43_200.0, 86_400.0);
    s.platforms[0].first_pool_mut().max_nodes = 1;
    let mut small = s.job_classes[0].clone();
    small.name = "small".into();
    small.gpus_per_job = 0.3;
    small.arrivals = Arrivals::Steady { per_day: 1.5 };
    small.duration = Duration::Fixed { hours: 1.0 };
    s.job_classes.push(small);
    let o = run(&s);
    adds_up(&o);
    assert!(
        (hours(&o, Category::UsefulCompute) - 15.0).abs() < 1e-9,
        "{}",
        hours(&o, Category::UsefulCompute)
    );
    assert!((o.paid_gpu_seconds / HOUR - 24.0).abs() < 1e-9);
}

#[test]
fn whole_and_fractional_jobs_share_interrupted_spot_nodes_and_the_books_balance() {
    // 8-GPU spot nodes interrupted often, a warm window and provisioning: 2-GPU jobs and
    // quarter-GPU jobs together, time-sliced; every replication's categories add up.
    let mut s = jobs_on(time_slicing(), 0.25, 900.0, 5_400.0);
    let p = &mut s.platforms[0];
    p.first_pool_mut().gpus_per_node = 8;
    p.first_pool_mut().purchase.overflow = gpucost::model::scenario::Overflow::Spot;
    p.first_pool_mut().spot_interruptions_per_node_hour = 0.5;
    p.first_pool_mut().warm_pool_window_s = 600.0;
    p.provisioning_median_s = 120.0;
    p.provisioning_p90_s = 300.0;
    s.job_classes[0].arrivals = Arrivals::Poisson { per_day: 96.0 };
    s.job_classes[0].checkpoint_interval_min = 20.0;
    s.job_classes[0].checkpoint_write_s = 30.0;
    let mut whole = s.job_classes[0].clone();
    whole.name = "whole".into();
    whole.gpus_per_job = 2.0;
    whole.arrivals = Arrivals::Poisson { per_day: 24.0 };
    s.job_classes.push(whole);
    s.horizon_days = 3.0;
    s.validate().expect("valid");
    for r in 0..6 {
        let o = &run_replication(&s, r)[0];
        adds_up(o);
        assert!(o.interruptions > 0);
        assert!(o.gpu_seconds[Category::GpuSharingLoss] > 0.0);
    }
}
