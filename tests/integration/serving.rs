//! Services in a scenario: hand-worked cases a wrong model fails. The bucket model itself is
//! validated against a request-level simulation in `model/src/model/serving/validation.rs`.

use crate::support::{bare_class, bare_platform, scenario, with_pool};
use gpucost::model::monte_carlo::{run_replication, MonteCarlo};
use gpucost::model::scenario::{
    Arrivals, Duration, Platform, Scenario, Service, ServiceTraffic, Serving,
};

/// No training (a class that never submits), one bare platform of 2-GPU nodes at $10 a
/// node-hour with no fees or people, and `service`.
fn serving_only(service: Service, serving: Serving) -> Scenario {
    let class = bare_class(
        Arrivals::Poisson { per_day: 0.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let platform = Platform {
        serving: Some(serving),
        ..bare_platform("endpoint")
    };
    let platform = with_pool(platform, |pool| pool.gpus_per_node = 2);
    let mut s = scenario(30.0, 4, vec![class], vec![platform]);
    s.services.push(service);
    s
}

fn quiet(min_replicas: u32) -> Service {
    Service {
        traffic: ServiceTraffic {
            mean_rps: 0.0,
            ..Default::default()
        },
        min_replicas,
        image_gb: 0.0,
        model_load_s: 0.0,
        ..Service::default()
    }
}

#[test]
fn a_floor_of_two_replicas_costs_two_replicas_for_the_horizon() {
    // 2 replicas × 1 GPU × $5 a GPU-hour (a 2-GPU node at $10) for a 730-hour month.
    let s = serving_only(quiet(2), Serving::default());
    s.validate().expect("valid");
    for r in 0..2 {
        let o = &run_replication(&s, r)[0];
        assert!(
            (o.monthly_tco_usd - 2.0 * 5.0 * 730.0).abs() < 1e-6,
            "{}",
            o.monthly_tco_usd
        );
        assert!((o.services[0].replica_hours - 2.0 * 30.0 * 24.0).abs() < 1e-6);
        // No request: all of it idle.
        let idle = o.breakdown_usd[gpucost::model::cost_category::Category::Idle];
        assert!((idle - o.monthly_tco_usd).abs() < 1e-6);
    }
}

#[test]
fn no_traffic_scaled_to_zero_costs_no_gpu_time() {
    let zero = Serving {
        scale_to_zero: true,
        ..Serving::default()
    };
    let o = &run_replication(&serving_only(quiet(0), zero), 0)[0];
    assert_eq!(o.paid_gpu_seconds, 0.0);
    assert_eq!(o.monthly_tco_usd, 0.0);
    assert_eq!(o.services[0].usd_per_million_requests, None);
    // Where the platform cannot scale to zero, one replica stays.
    let o = &run_replication(&serving_only(quiet(0), Serving::default()), 0)[0];
    assert!((o.services[0].replica_hours - 30.0 * 24.0).abs() < 1e-6);
}

#[test]
fn a_million_requests_cost_the_replicas_they_kept_busy_plus_the_idle_ones() {
    // 20 req/s steady on replicas of 20 req/s at 70 % target: ⌈20 ÷ 14⌉ = 2 replicas once
    // scaled (they start at the floor of 1 and scale within the first minutes), so about
    // 2 × 720 replica-hours at $5, for 20 × 2,592,000 requests.
    let service = Service {
        traffic: ServiceTraffic {
            mean_rps: 20.0,
            ..Default::default()
        },
        min_replicas: 1,
        max_replicas: 8,
        image_gb: 0.0,
        model_load_s: 0.0,
        ..Service::default()
    };
    let s = serving_only(service, Serving::default());
    let mut run = MonteCarlo::new(s).expect("valid");
    run.run_to_end();
    let results = run.results();
    let p = &results.platforms[0];
    let svc = &p.services[0];
    let hours = svc.replica_hours.mean;
    assert!((hours - 2.0 * 720.0).abs() < 0.02 * 1440.0, "{hours}");
    let requests = svc.requests.mean;
    assert!(
        (requests / (20.0 * 2_592_000.0) - 1.0).abs() < 0.01,
        "{requests}"
    );
    let per_million = svc.usd_per_million_requests.expect("requests").mean;
    let want = hours * 5.0 / requests * 1e6;
    assert!(
        (per_million - want).abs() < 0.01 * want,
        "{per_million} vs {want}"
    );
    // The breakdown adds up, with the service in it.
    let sum: f64 = p.breakdown_usd.values().sum();
    assert!((sum - p.monthly_tco_usd().mean).abs() < 1e-6 * sum);
    // Busy serving is useful compute: 20 req/s of 20 req/s replicas is one replica's time.
    let useful = p.breakdown_usd[gpucost::model::cost_category::Category::UsefulCompute];
    assert!(
        (useful - 5.0 * 730.0).abs() < 0.02 * 5.0 * 730.0,
        "{useful}"
    );
    assert!(
        svc.slo_violation_minutes.mean < 5.0,
        "{:?}",
        svc.slo_violation_minutes
    );
}

#[test]
fn a_service_that_does_not_fit_a_platform_is_refused_naming_both() {
    let too_big = Service {
        gpus_per_replica: 4.0,
        ..quiet(1)
    };
    let err = serving_only(too_big, Serving::default())
        .validate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("services.0.gpus_per_replica")
            && err.contains("4 GPUs per replica")
            && err.contains("2 GPUs per node"),
        "{err}"
    );
    let upside_down = Service {
        min_replicas: 5,
        max_replicas: 2,
        ..quiet(1)
    };
    let err = serving_only(upside_down, Serving::default())
        .validate()
        .unwrap_err()
        .to_string();
    assert!(err.contains("services.0.min_replicas"), "{err}");
}

#[test]
fn a_scenario_with_services_goes_through_a_link_unchanged() {
    let s = serving_only(quiet(2), Serving::default());
    let link = gpucost::workbench::link::encode_link(&s, "batch-vs-eks-spot");
    let read = gpucost::workbench::link::decode_link(&link);
    assert_eq!(read.scenario, s, "{:?}", read.notices);
}

/// The mean SLO-violation minutes of the preset's service on each platform, over `reps`.
fn slo_minutes(s: &Scenario, reps: u64) -> Vec<f64> {
    let mut total = vec![0.0; s.platforms.len()];
    for r in 0..reps {
        for (t, o) in total.iter_mut().zip(run_replication(s, r)) {
            *t += o.services[0].slo_violation_minutes;
        }
    }
    total.iter().map(|t| t / reps as f64).collect()
}

#[test]
fn in_the_agent_spike_the_longer_start_up_misses_the_objective_longer() {
    let mut s = gpucost::workbench::presets::preset("agent-traffic-spike")
        .unwrap()
        .scenario();
    s.horizon_days = 10.0;
    let minutes = slo_minutes(&s, 8);
    // SageMaker: 180 s for the alarm + 360 s for a node, against EKS's 30 s + 240 s (the
    // same image and model load): more minutes above the objective.
    assert!(minutes[0] > minutes[1], "{minutes:?}");
    // The same start-up on both (the same g5 nodes): the same minutes, run for run (the
    // traffic is drawn per service, the same on every platform).
    s.platforms[0].serving = Some(gpucost::model::scenario::Serving {
        scale_up_delay_s: 30.0,
        ..gpucost::model::scenario::Serving::default()
    });
    s.platforms[0].provisioning_median_s = s.platforms[1].provisioning_median_s;
    let same = slo_minutes(&s, 8);
    assert_eq!(same[0], same[1], "{same:?}");
    // A longer scale-up delay never misses the objective for fewer minutes.
    let mut slower = s.clone();
    slower.platforms[1].serving = Some(gpucost::model::scenario::Serving {
        scale_up_delay_s: 600.0,
        ..gpucost::model::scenario::Serving::default()
    });
    let slow = slo_minutes(&slower, 8);
    assert!(slow[1] > same[1], "{slow:?} vs {same:?}");
}

mod properties {
    use gpucost::model::rng::{Purpose, Stream};
    use gpucost::model::serving::pool::{run_pool, PoolSpec};
    use gpucost::model::serving::traffic::{Spikes, Traffic};
    use proptest::prelude::*;

    proptest! {
        /// Every request that arrives is served, still queued at the horizon, or dropped.
        #[test]
        fn served_queued_and_dropped_make_the_arrivals(
            rps in 0.0f64..300.0,
            startup_s in 0.0f64..1_800.0,
            queue in 0u32..5_000,
            min in 0u32..3,
            factor in 1.0f64..20.0,
            seed in 0u64..1_000,
        ) {
            let spec = PoolSpec {
                capacity_rps: 7.0,
                concurrency: 4,
                latency_slo_ms: 2_000.0,
                min_replicas: min,
                max_replicas: 30,
                target_utilization: 0.7,
                startup_s,
                scale_down_cooldown_s: 300.0,
                metric_period_s: 60.0,
                queue_limit: f64::from(queue),
                initial_replicas: min,
                llm: None,
            };
            let traffic = Traffic {
                spikes: Some(Spikes { per_month: 30.0, factor, duration_min: 30.0 }),
                ..Traffic::flat(rps)
            };
            let mut s = Stream::new(seed, 0, Purpose::Traffic, 0);
            let horizon = 2.0 * 86_400.0;
            let plan = traffic.plan(horizon, &mut s);
            let o = run_pool(&spec, &plan, horizon, 60.0, &mut s, 0..0, None);
            let sum = o.served + o.queued_at_horizon + o.dropped;
            prop_assert!((sum - o.arrived).abs() <= 1e-6 * o.arrived.max(1.0), "{} vs {}", sum, o.arrived);
            prop_assert!(o.queued_at_horizon <= spec.queue_limit);
            prop_assert!(o.ready_replica_hours <= o.replica_hours + 1e-9);
        }
    }
}

#[test]
fn more_traffic_never_costs_less_on_means() {
    let tco = |rps: f64| {
        let service = Service {
            traffic: ServiceTraffic {
                mean_rps: rps,
                ..Default::default()
            },
            max_replicas: 64,
            ..quiet(1)
        };
        let mut s = serving_only(service, Serving::default());
        s.horizon_days = 3.0;
        (0..6)
            .map(|r| run_replication(&s, r)[0].monthly_tco_usd)
            .sum::<f64>()
            / 6.0
    };
    let mut last = 0.0;
    for rps in [0.0, 5.0, 20.0, 60.0, 200.0, 600.0] {
        let now = tco(rps);
        // (Equal up to rounding where one replica serves both.)
        assert!(now >= last * (1.0 - 1e-12), "{rps} req/s: {now} < {last}");
        last = now;
    }
}

#[test]
fn an_autoscaler_period_between_minutes_is_refused_naming_it() {
    let odd = Serving {
        metric_period_s: 90.0,
        ..Serving::default()
    };
    let err = serving_only(quiet(1), odd)
        .validate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("platforms.0.serving.metric_period_s") && err.contains("90 s"),
        "{err}"
    );
}

#[test]
fn the_day_shown_is_the_runs_own_minutes() {
    // The day chart simulates replication 0 only up to the end of the day it shows: its
    // minutes are the run's own (recording a window changes nothing), so the minutes it
    // marks over the objective are among the run's, and on the spike's day most of them.
    use gpucost::model::serving::platform::service_day;
    let s = gpucost::workbench::presets::preset("agent-traffic-spike")
        .unwrap()
        .scenario();
    let run = run_replication(&s, 0);
    for (p, o) in run.iter().enumerate() {
        let day = service_day(&s, p, 0, 0);
        assert_eq!(day.minutes.len(), 1_440);
        let spike = day.spike_minute.expect("the preset's traffic spikes");
        let missed = day
            .minutes
            .iter()
            .filter(|m| m.p95_ms > day.latency_slo_ms)
            .count() as f64;
        let total = o.services[0].slo_violation_minutes;
        assert!(missed > 0.0 && missed <= total, "{p}: {missed} of {total}");
        // The misses are at the spike: its minute is one of them (nothing ready for it).
        assert!(day.minutes[spike + 1].p95_ms > day.latency_slo_ms);
        let arrived: f64 = day.minutes.iter().map(|m| m.arrived).sum();
        assert!(arrived > 0.0 && arrived < o.services[0].requests);
    }
}

#[test]
fn an_overwhelmed_service_has_no_p95_and_every_number_it_sends_is_finite() {
    // One replica at most for 20 times its capacity: most requests are dropped, so there is
    // no finite p95. The page's workers send outcomes as JSON, where an infinity would be a
    // null that does not read back: the p95 is absent instead, and all else is finite.
    let mut s = gpucost::workbench::presets::preset("agent-traffic-spike")
        .unwrap()
        .scenario();
    s.horizon_days = 2.0;
    s.services[0].max_replicas = 1;
    s.services[0].traffic.mean_rps = 20.0 * s.services[0].capacity_rps;
    for (p, o) in run_replication(&s, 0).iter().enumerate() {
        assert_eq!(o.services[0].latency_p95_ms, None, "{p}");
        assert!(o.services[0].requests_dropped > 0.5 * o.services[0].requests);
        let json = serde_json::to_value(o).unwrap();
        crate::invariants::assert_finite(&json, &format!("outcome[{p}]")).unwrap();
        let back: gpucost::model::sim::PlatformOutcome = serde_json::from_value(json).unwrap();
        assert_eq!(&back, o);
    }
}

/// A scenario with one Cloud Run platform (its profile's defaults) and `service`.
fn on_cloud_run(service: Service) -> Scenario {
    use gpucost::model::platforms::Profile;
    let mut s = serving_only(service, Serving::default());
    s.platforms.clear();
    assert!(gpucost::workbench::edit::add_platform(
        &mut s,
        Profile::CloudRun
    ));
    s.platforms[0].ops_fte = 0.0;
    s.platforms[0].storage_gb = 0.0;
    s
}

#[test]
fn cloud_run_bills_each_instance_its_gpu_cpu_and_memory_for_its_whole_life() {
    // Cloud Run's instance: one L4 with 4 vCPU and 16 GiB, $0.0001867 + 4 × $0.000018 +
    // 16 × $0.000002 a second = $1.0465 an hour. Two instances kept for 30 days, no fee:
    // 2 × 720 h × $1.0465 = $1,506.96 of GPU time over the horizon, $1,527.89 a month.
    let s = on_cloud_run(quiet(2));
    s.validate().expect("valid");
    let p = &s.platforms[0];
    assert_eq!(
        (
            p.first_pool().instance_type.as_str(),
            p.first_pool().gpus_per_node
        ),
        ("cloud-run-l4", 1)
    );
    assert!((p.first_pool().on_demand_usd_per_node_hour - 1.0465).abs() < 1e-12);
    let o = &run_replication(&s, 0)[0];
    assert!((o.services[0].replica_hours - 1_440.0).abs() < 1e-9);
    assert!(
        (o.monthly_tco_usd - 2.0 * 730.0 * 1.0465).abs() < 1e-6,
        "{}",
        o.monthly_tco_usd
    );
    // Scale to zero is Cloud Run's own: with no floor and no traffic, nothing is billed.
    let idle = on_cloud_run(quiet(0));
    let o = &run_replication(&idle, 0)[0];
    assert_eq!((o.services[0].replica_hours, o.monthly_tco_usd), (0.0, 0.0));
}

#[test]
fn cloud_run_refuses_a_job_on_more_than_one_gpu_naming_both() {
    let mut s = on_cloud_run(quiet(0));
    s.job_classes[0].gpus_per_job = 2.0;
    s.job_classes[0].name = "two-gpu fine-tune".into();
    let message = s.validate().unwrap_err().to_string();
    assert!(
        message.contains("two-gpu fine-tune") && message.contains("Cloud Run"),
        "{message}"
    );
}

#[test]
fn a_service_that_may_scale_to_zero_is_told_where_it_keeps_a_replica() {
    // spiky-low-traffic: fewest replicas 0; Cloud Run scales to zero, GKE and SageMaker
    // keep one (and bill it all month: 720 replica-hours at least).
    use gpucost::model::serving::notices::serving_notices;
    let s = gpucost::workbench::presets::preset("spiky-low-traffic")
        .unwrap()
        .scenario();
    let notices = serving_notices(&s);
    assert_eq!(
        notices,
        ["Document assistant keeps 1 replica on GKE Standard node pool, SageMaker endpoint (always on): the platform cannot scale to zero (its serving.scale_to_zero is off)"]
    );
    let mut quick = s.clone();
    quick.horizon_days = 3.0;
    let o = run_replication(&quick, 0);
    assert!(o[1].services[0].replica_hours >= 72.0 - 1e-9);
    assert!(o[0].services[0].replica_hours < 72.0);
    let mut floor = s;
    floor.services[0].min_replicas = 1;
    assert!(serving_notices(&floor).is_empty());
}

mod delay_properties {
    use super::*;
    use gpucost::model::scenario::ServiceSpikes;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]
        /// Spikes with no scale-down inside them (a cooldown longer than a spike): a longer
        /// scale-up delay never misses the objective for fewer minutes (on means over
        /// replications), and the same delay on two platforms of the same shape gives the
        /// same minutes.
        #[test]
        fn a_longer_scale_up_delay_never_misses_fewer_minutes(
            rps in 5.0f64..80.0,
            factor in 2.0f64..12.0,
            duration_min in 20.0f64..90.0,
            delay in 0.0f64..600.0,
            longer in 30.0f64..900.0,
        ) {
            let service = Service {
                traffic: ServiceTraffic {
                    mean_rps: rps,
                    spikes: Some(ServiceSpikes { per_month: 60.0, factor, duration_min }),
                    ..Default::default()
                },
                capacity_rps: 20.0,
                concurrency: 4,
                latency_slo_ms: 1_000.0,
                min_replicas: 1,
                max_replicas: 200,
                image_gb: 0.0,
                model_load_s: 60.0,
                ..Service::default()
            };
            let serving = |d: f64| Serving {
                scale_up_delay_s: d,
                scale_down_cooldown_s: duration_min * 60.0 + 600.0,
                ..Serving::default()
            };
            let mut s = serving_only(service, serving(delay));
            s.horizon_days = 3.0;
            let mut twin = s.platforms[0].clone();
            twin.name = "twin".into();
            s.platforms.push(twin);
            let same = slo_minutes(&s, 4);
            prop_assert_eq!(same[0], same[1]);
            s.platforms[1].serving = Some(serving(delay + longer));
            let slower = slo_minutes(&s, 4);
            prop_assert!(slower[1] >= slower[0], "{:?}", slower);
        }
    }
}
