//! The warm-up before the measured window (`warmup_days`): steady state against closed
//! forms, and the window as the difference of two plain runs.

use crate::support::{adds_up, bare_class, bare_platform, mmc_scenario, scenario};
use gpucost::model::analytic::erlang_c_mean_wait;
use gpucost::model::cost_category::Category;
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::scenario::{Arrivals, Duration, Scenario};
use gpucost::model::sim::outcome::PlatformOutcome;
use gpucost::model::sim::{generate_jobs, simulate_platform};
use gpucost::workbench::presets::{preset, presets};

/// Ample capacity: Poisson arrivals of fixed 72-hour 8-GPU jobs on 8-GPU nodes that are
/// there at once. In steady state λ × 72 h jobs run at any time, so a 30-day window does
/// λ × 30 d × 72 h × 8 useful GPU-hours. Started empty, the first 72 hours ramp up and lose
/// λ × 8 × 72²/2 GPU-hours: 72 h / (2 × 30 d) = 5 % of the load.
#[test]
fn a_warmed_window_does_the_offered_load_and_a_cold_one_misses_the_ramp() {
    let per_day = 2.0;
    let mut platform = bare_platform("ample");
    platform.first_pool_mut().gpus_per_node = 8;
    let mut class = bare_class(
        Arrivals::Poisson { per_day },
        Duration::Fixed { hours: 72.0 },
    );
    class.gpus_per_job = 8.0;
    let mut s = scenario(30.0, 2_000, vec![class], vec![platform]);
    s.reference_gpus = 48;
    let offered = per_day * 30.0 * 72.0 * 8.0;
    let useful = |warmup_days: f64| {
        let mut s = s.clone();
        s.warmup_days = warmup_days;
        let mut run = MonteCarlo::new(s).unwrap();
        run.run_batch(2_000);
        run.results().platforms[0].useful_gpu_hours()
    };
    let warm = useful(3.0);
    println!(
        "warm: {:.1} ± {:.1} GPU-h against {offered}",
        warm.mean, warm.se
    );
    assert!((warm.mean - offered).abs() <= 3.0 * warm.se, "{warm:?}");
    assert!((warm.mean - offered).abs() <= 0.01 * offered, "{warm:?}");
    let cold = useful(0.0);
    let ramp = per_day * 8.0 * 72.0 * 72.0 / 2.0 / 24.0;
    println!(
        "cold: {:.1} ± {:.1} GPU-h against {}",
        cold.mean,
        cold.se,
        offered - ramp
    );
    assert!(
        (cold.mean - (offered - ramp)).abs() <= 3.0 * cold.se,
        "{cold:?}"
    );
    assert!(
        offered - cold.mean > 10.0 * cold.se,
        "the ramp shows: {cold:?}"
    );
}

/// A static cluster of 3 nodes of 4 GPUs, Poisson arrivals of 1-GPU jobs with exponential
/// 1-hour durations at ρ 0.9: the mean queue wait the report gives (its 30-day window's jobs,
/// after a 3-day warm-up) against Erlang C, within 3 standard errors at 400 replications.
/// (Each replication's mean is a ratio, waits over jobs: over a window of a few days it reads
/// low, as a busy stretch has both more jobs and longer waits.)
#[test]
fn the_reported_queue_wait_after_a_warm_up_matches_erlang_c_at_load_0_9() {
    let (servers, load) = (12u32, 0.9);
    let per_day = load * f64::from(servers) * 24.0;
    let mut s = mmc_scenario(3, 4, load, 30.0, 400);
    s.warmup_days = 3.0;
    let mut run = MonteCarlo::new(s).unwrap();
    run.run_batch(400);
    let wait = run.results().platforms[0].queue_wait_mean_min();
    let expected = erlang_c_mean_wait(servers, per_day / 24.0, 1.0) * 60.0;
    println!(
        "Erlang C c=12 ρ=0.9: {:.3} ± {:.3} min against {expected:.3} min",
        wait.mean, wait.se
    );
    assert!((wait.mean - expected).abs() <= 3.0 * wait.se, "{wait:?}");
}

/// `s`'s outcome of replication `r` on its first platform.
fn outcome(s: &Scenario, r: u64) -> PlatformOutcome {
    let jobs = generate_jobs(s, r);
    simulate_platform(s, 0, r, &jobs, false).0
}

/// The warm-up copy changes nothing the replication does: a run of W + H days is a run of
/// W days and the window of H days after a W-day warm-up, sum by sum (GPU time by category,
/// paid GPU time, useful work, jobs finished and failed, spot interruptions, node failures),
/// on spot clusters with failures, checkpoints, retries and teams. (One pool each: a
/// platform of several pools runs them in passes, and the n-th node of a replication draws
/// its provisioning by its number, so a shorter first pass shifts the next pass's draws.) (Steady arrivals: a
/// Poisson class draws its arrivals over the whole run before its jobs, so its first W days
/// differ between runs of different lengths.)
#[test]
fn a_long_run_is_its_warm_up_and_its_window() {
    for name in [
        "batch-vs-eks-spot",
        "spot-reclaim-waves",
        "multi-team-cluster",
    ] {
        let p = preset(name).unwrap();
        let mut s = p.scenario();
        s.warmup_days = 0.0;
        for class in &mut s.job_classes {
            class.arrivals = Arrivals::Steady {
                per_day: class.arrivals.jobs_per_day(),
            };
        }
        let (w, h) = (2.0, 6.0);
        for r in 0..3 {
            let mut whole = s.clone();
            whole.horizon_days = w + h;
            let mut before = s.clone();
            before.horizon_days = w;
            let mut window = s.clone();
            window.warmup_days = w;
            window.horizon_days = h;
            let (a, b, c) = (outcome(&whole, r), outcome(&before, r), outcome(&window, r));
            adds_up(&c);
            let close = |x: f64, y: f64, what: &str| {
                assert!(
                    (x - y).abs() <= 1e-6 * x.abs().max(1.0),
                    "{name} r{r} {what}: {x} vs {y}"
                );
            };
            for cat in Category::ALL.into_iter().filter(|c| c.is_gpu_time()) {
                close(
                    a.gpu_seconds[cat],
                    b.gpu_seconds[cat] + c.gpu_seconds[cat],
                    cat.key(),
                );
            }
            close(
                a.paid_gpu_seconds,
                b.paid_gpu_seconds + c.paid_gpu_seconds,
                "paid",
            );
            close(
                a.useful_reference_gpu_hours,
                b.useful_reference_gpu_hours + c.useful_reference_gpu_hours,
                "useful",
            );
            assert_eq!(a.jobs_completed, b.jobs_completed + c.jobs_completed);
            assert_eq!(a.jobs_failed, b.jobs_failed + c.jobs_failed);
            assert_eq!(a.interruptions, b.interruptions + c.interruptions);
            assert_eq!(a.node_failures, b.node_failures + c.node_failures);
            // What is not windowed is the whole run's: the state at the horizon, the events.
            assert_eq!(
                (a.jobs_running, a.jobs_waiting, a.events),
                (c.jobs_running, c.jobs_waiting, c.events)
            );
        }
    }
}

/// Every preset with a warm-up: its GPU time adds up to what it paid, no category is
/// negative, and its money adds up to its TCO.
#[test]
fn every_preset_adds_up_with_a_warm_up() {
    for p in presets() {
        let mut s = p.scenario();
        s.horizon_days = s.horizon_days.min(4.0);
        s.warmup_days = 2.0;
        for platform in 0..s.platforms.len() {
            let jobs = generate_jobs(&s, 0);
            let (o, _) = simulate_platform(&s, platform, 0, &jobs, false);
            adds_up(&o);
        }
    }
}

/// The default warm-up, by hand: three times the longest 90th-percentile run time on the
/// slowest pool, rounded up to whole hours, within a day and two weeks.
#[test]
fn the_default_warm_up_is_three_longest_runs_within_a_day_and_two_weeks() {
    let with = |duration: Duration, throughput: f64| {
        let mut platform = bare_platform("p");
        platform.first_pool_mut().relative_throughput = throughput;
        let class = bare_class(Arrivals::Poisson { per_day: 1.0 }, duration);
        scenario(30.0, 1, vec![class], vec![platform]).default_warmup_days()
    };
    // 72-hour jobs: 216 hours, 9 days.
    assert_eq!(with(Duration::Fixed { hours: 72.0 }, 1.0), 9.0);
    // A p90 of 10 hours at half the reference GPU's speed: 60 hours.
    let lognormal = Duration::LogNormal {
        median_hours: 4.0,
        p90_hours: 10.0,
    };
    assert!((with(lognormal, 0.5) - 60.0 / 24.0).abs() < 1e-9);
    // Exponential, mean 3 h: p90 = 3 ln 10 = 6.9 h; ×3 = 20.7 h, under a day: a day.
    assert_eq!(with(Duration::Exponential { mean_hours: 3.0 }, 1.0), 1.0);
    // Exponential, mean 5 h: 3 × 11.51 = 34.5 h, rounded up to 35 hours.
    assert!((with(Duration::Exponential { mean_hours: 5.0 }, 1.0) - 35.0 / 24.0).abs() < 1e-9);
    // 200-hour jobs: 25 days, held to 14.
    assert_eq!(with(Duration::Fixed { hours: 200.0 }, 1.0), 14.0);
    // Services alone, and a replay: none.
    let services = preset("agent-traffic-spike").unwrap().scenario();
    assert_eq!(services.default_warmup_days(), 0.0);
    let mut replay = scenario(
        30.0,
        1,
        vec![bare_class(
            Arrivals::Poisson { per_day: 1.0 },
            Duration::Fixed { hours: 72.0 },
        )],
        vec![bare_platform("p")],
    );
    replay.replay = Some(gpucost::model::scenario::Replay::default());
    assert_eq!(replay.default_warmup_days(), 0.0);
}
