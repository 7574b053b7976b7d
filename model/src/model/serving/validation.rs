//! The bucket model against the request-level oracle on a small service: 5 requests a
//! second on average for a day, a third of that in the morning and three times as much
//! from noon (a step), so the autoscaler scales up after noon with a five-minute start-up.

use super::pool::{p95_ms_of, run_pool, PoolSpec};
use super::request_level::run_requests;
use super::traffic::Traffic;
use crate::model::rng::{Purpose, Stream};
use crate::model::scenario::{DAY_S, HOUR_S};

fn spec() -> PoolSpec {
    PoolSpec {
        capacity_rps: 2.0,
        concurrency: 4,
        latency_slo_ms: 8_000.0,
        min_replicas: 1,
        max_replicas: 20,
        target_utilization: 0.7,
        startup_s: 300.0,
        scale_down_cooldown_s: 600.0,
        metric_period_s: 60.0,
        queue_limit: 2_000.0,
        initial_replicas: 2,
        llm: None,
    }
}

fn traffic() -> Traffic {
    let mut profile = vec![1.0; 12];
    profile.extend([3.0; 12]);
    Traffic {
        mean_rps: 5.0,
        hourly_profile: profile,
        weekend_factor: 1.0,
        spikes: None,
        replay: None,
    }
}

struct Means {
    replica_hours: f64,
    /// SLO-violation minutes in the 20 minutes from the step (noon).
    slo_minutes_at_step: f64,
    /// SLO-violation minutes elsewhere.
    slo_minutes_elsewhere: f64,
    dropped: f64,
    p95_by_hour: Vec<f64>,
    p95_of_day: f64,
}

/// The minutes of the step: from noon for 20 minutes.
const STEP: std::ops::Range<usize> = 720..740;

/// (violations in the step's minutes, elsewhere), of one run's per-minute p95s.
fn violations(p95_by_minute: impl Iterator<Item = f64>) -> (f64, f64) {
    let mut at = (0.0, 0.0);
    for (m, p) in p95_by_minute.enumerate() {
        if p > spec().latency_slo_ms {
            if STEP.contains(&m) {
                at.0 += 1.0;
            } else {
                at.1 += 1.0;
            }
        }
    }
    at
}

fn mean_of(runs: &[Vec<f64>]) -> Vec<f64> {
    let n = runs.len() as f64;
    (0..runs[0].len())
        .map(|i| runs.iter().map(|r| r[i]).sum::<f64>() / n)
        .collect()
}

/// One run's figures: replica-hours, its per-minute p95s (ms), dropped, per-hour p95s.
struct Run {
    replica_hours: f64,
    p95_by_minute: Vec<f64>,
    dropped: f64,
    p95_by_hour: Vec<f64>,
    p95_of_day: f64,
}

/// The means over `runs` runs of `one` (given the replication and its stream).
fn means(runs: u64, seed: u64, one: impl Fn(&mut Stream) -> Run) -> Means {
    let (mut hours, mut slo, mut dropped, mut p95) = (0.0, (0.0, 0.0), 0.0, Vec::new());
    let mut p95_of_day = 0.0;
    for r in 0..runs {
        let run = one(&mut Stream::new(seed, r, Purpose::Jobs, 0));
        hours += run.replica_hours;
        let v = violations(run.p95_by_minute.into_iter());
        slo = (slo.0 + v.0, slo.1 + v.1);
        dropped += run.dropped;
        p95.push(run.p95_by_hour);
        p95_of_day += run.p95_of_day;
    }
    let n = runs as f64;
    Means {
        replica_hours: hours / n,
        slo_minutes_at_step: slo.0 / n,
        slo_minutes_elsewhere: slo.1 / n,
        dropped: dropped / n,
        p95_by_hour: mean_of(&p95),
        p95_of_day: p95_of_day / n,
    }
}

fn buckets(runs: u64) -> Means {
    means(runs, 11, |s| {
        let plan = traffic().plan(DAY_S, s);
        let o = run_pool(&spec(), &plan, DAY_S, 60.0, s, 0..usize::MAX, None);
        let p95_by_minute: Vec<f64> = o.buckets.iter().map(|b| b.p95_ms).collect();
        let v = violations(p95_by_minute.iter().copied());
        assert_eq!(v.0 + v.1, o.slo_violation_minutes);
        Run {
            replica_hours: o.replica_hours,
            p95_by_minute,
            dropped: o.dropped,
            // An hour's p95: that of its minutes' requests together.
            p95_by_hour: o.buckets.chunks(60).map(p95_ms_of).collect(),
            p95_of_day: o.latency_p95_ms,
        }
    })
}

fn requests(runs: u64) -> Means {
    means(runs, 12, |s| {
        let plan = traffic().plan(DAY_S, s);
        let o = run_requests(&spec(), &plan, DAY_S, s);
        Run {
            replica_hours: o.replica_hours,
            p95_by_minute: o.p95_ms_by_window(DAY_S, 60.0),
            dropped: o.dropped as f64,
            p95_by_hour: o.p95_ms_by_window(DAY_S, HOUR_S),
            p95_of_day: o.p95_ms_by_window(DAY_S, DAY_S)[0],
        }
    })
}

/// Tolerances, and why:
/// - replica-hours within 2 %: both run the same autoscaler on the same load; what differs
///   is when within a minute it sees the requests (measured 0.6 %);
/// - each steady hour's p95 within 3 %: the bucket's M/M/c takes the minute's Poisson
///   count as its rate, slightly above the true p95 on average (measured ≤ 1 %);
/// - the step's hour within 15 %: the backlog is a fluid that grows linearly within a
///   minute, and the wait and the service are added as distributions of their own (measured
///   7 %);
/// - the SLO-violation minutes of the step within 1 minute a day on means (measured equal);
/// - the day's p95, of all its requests, within 3 %.
///
/// What the bucket model does not count: a minute's measured p95 scatters around its
/// expected value (here ±15 % for ~150 requests a minute), so when the steady p95 (6 s) is
/// within a third of the objective (8 s) some minutes measure above it; the request-level
/// run counts about 9 such minutes a day here, the bucket model none. The test bounds that
/// gap, and the method panel states it.
#[test]
fn the_bucket_model_follows_the_request_level_simulation() {
    let b = buckets(20);
    let r = requests(20);
    eprintln!(
        "replica-hours {:.2} vs {:.2}; SLO minutes at the step {:.2} vs {:.2}, elsewhere {:.2} vs {:.2}; dropped {:.1} vs {:.1}",
        b.replica_hours,
        r.replica_hours,
        b.slo_minutes_at_step,
        r.slo_minutes_at_step,
        b.slo_minutes_elsewhere,
        r.slo_minutes_elsewhere,
        b.dropped,
        r.dropped
    );
    assert!((b.replica_hours - r.replica_hours).abs() < 0.02 * r.replica_hours);
    for (h, (x, y)) in b.p95_by_hour.iter().zip(&r.p95_by_hour).enumerate() {
        let tolerance = if h == 12 { 0.15 } else { 0.03 };
        assert!(
            (x - y).abs() < tolerance * y,
            "hour {h}: p95 {x:.0} ms (buckets) vs {y:.0} ms (requests)"
        );
    }
    assert!(
        (b.slo_minutes_at_step - r.slo_minutes_at_step).abs() <= 1.0,
        "{} vs {}",
        b.slo_minutes_at_step,
        r.slo_minutes_at_step
    );
    assert_eq!(b.slo_minutes_elsewhere, 0.0);
    assert!(
        r.slo_minutes_elsewhere < 15.0,
        "{}",
        r.slo_minutes_elsewhere
    );
    assert_eq!((b.dropped, r.dropped), (0.0, 0.0));
    assert!(
        (b.p95_of_day - r.p95_of_day).abs() < 0.03 * r.p95_of_day,
        "the day's p95: {:.0} ms (buckets) vs {:.0} ms (requests)",
        b.p95_of_day,
        r.p95_of_day
    );
}

/// From zero replicas at 100 requests a second, the autoscaler's first decision asks for
/// ⌈100 ÷ (0.5 × 10)⌉ = 20 replicas and more for the queue: the first minutes' requests
/// wait for those, not for one replica. The bucket model's p95 of the first 10 minutes and
/// of the first minute within 15 % of the request-level run's (means over 10 runs; a minute
/// of waiting for a start-up is a fluid's wait, uniform across the minute).
#[test]
fn a_cold_start_waits_for_the_replicas_the_first_decision_asks_for() {
    let spec = PoolSpec {
        capacity_rps: 10.0,
        concurrency: 2,
        latency_slo_ms: 1_000.0,
        min_replicas: 0,
        max_replicas: 100,
        target_utilization: 0.5,
        startup_s: 60.0,
        scale_down_cooldown_s: 300.0,
        metric_period_s: 60.0,
        queue_limit: 1e9,
        initial_replicas: 0,
        llm: None,
    };
    let horizon = 600.0;
    let (mut buckets, mut requests) = ((0.0, 0.0), (0.0, 0.0));
    for r in 0..10 {
        let mut s = Stream::new(5, r, Purpose::Jobs, 0);
        let plan = Traffic::flat(100.0).plan(horizon, &mut s);
        let o = run_pool(&spec, &plan, horizon, 60.0, &mut s, 0..10, None);
        buckets.0 += o.latency_p95_ms / 10.0;
        buckets.1 += o.buckets[0].p95_ms / 10.0;
        let mut s = Stream::new(6, r, Purpose::Jobs, 0);
        let plan = Traffic::flat(100.0).plan(horizon, &mut s);
        let q = run_requests(&spec, &plan, horizon, &mut s);
        requests.0 += q.p95_ms_by_window(horizon, horizon)[0] / 10.0;
        requests.1 += q.p95_ms_by_window(horizon, 60.0)[0] / 10.0;
    }
    eprintln!("cold start p95: 10 minutes {buckets:?} vs {requests:?} (buckets vs requests, ms)");
    assert!(
        (buckets.0 - requests.0).abs() < 0.15 * requests.0,
        "{buckets:?} vs {requests:?}"
    );
    assert!(
        (buckets.1 - requests.1).abs() < 0.15 * requests.1,
        "{buckets:?} vs {requests:?}"
    );
}

/// A replica joining mid-minute with no queue (queue limit 0): the requests before it are
/// dropped, as the request-level run drops them (within 20 % on means over 40 runs).
#[test]
fn requests_before_the_first_replica_joins_are_dropped_when_nothing_may_wait() {
    let spec = PoolSpec {
        capacity_rps: 10.0,
        concurrency: 2,
        latency_slo_ms: 1_000.0,
        min_replicas: 0,
        max_replicas: 10,
        target_utilization: 0.5,
        startup_s: 30.0,
        scale_down_cooldown_s: 300.0,
        metric_period_s: 60.0,
        queue_limit: 0.0,
        initial_replicas: 0,
        llm: None,
    };
    let horizon = 600.0;
    let (mut buckets, mut requests) = (0.0, 0.0);
    for r in 0..40 {
        let mut s = Stream::new(7, r, Purpose::Jobs, 0);
        let plan = Traffic::flat(1.0).plan(horizon, &mut s);
        buckets += run_pool(&spec, &plan, horizon, 60.0, &mut s, 0..0, None).dropped / 40.0;
        let mut s = Stream::new(8, r, Purpose::Jobs, 0);
        let plan = Traffic::flat(1.0).plan(horizon, &mut s);
        requests += run_requests(&spec, &plan, horizon, &mut s).dropped as f64 / 40.0;
    }
    eprintln!("dropped before the first replica: {buckets:.1} vs {requests:.1}");
    assert!(
        (buckets - requests).abs() < 0.2 * requests,
        "{buckets} vs {requests}"
    );
}
