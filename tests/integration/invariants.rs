//! Properties over random valid scenarios: costs finite and ≥ 0, useful ≤ paid, the measured
//! GPU categories add up to the measured paid GPU time, the breakdown adds up to the total.

use gpucost::model::monte_carlo::run_replication;
use gpucost::model::platforms::Profile;
use gpucost::model::scenario::{
    Arrivals, Duration, FailureKind, Failures, JobClass, Overflow, Placement, Scenario,
};
use proptest::prelude::*;

fn arb_class() -> impl Strategy<Value = JobClass> {
    (
        prop_oneof![
            (0.0f64..40.0).prop_map(|per_day| Arrivals::Poisson { per_day }),
            (0.5f64..20.0).prop_map(|per_day| Arrivals::Steady { per_day }),
            (0.2f64..4.0, 1u32..12).prop_map(|(b, j)| Arrivals::Bursts {
                bursts_per_day: b,
                jobs_per_burst: j
            }),
            (0.0f64..40.0, prop::collection::vec(0.0f64..5.0, 24))
                .prop_filter("some hour above 0", |(_, w)| w.iter().sum::<f64>() > 0.0)
                .prop_map(|(per_day, hourly_weights)| Arrivals::HourOfDay {
                    per_day,
                    hourly_weights
                }),
        ],
        prop_oneof![
            (0.01f64..10.0).prop_map(|hours| Duration::Fixed { hours }),
            (0.05f64..4.0, 1.0f64..4.0).prop_map(|(m, k)| Duration::LogNormal {
                median_hours: m,
                p90_hours: m * k
            }),
        ],
        prop::sample::select(vec![1u32, 2, 4, 8, 16]),
        (0.0f64..0.5, any::<bool>(), 0u32..3),
        (0.0f64..30.0, 0.0f64..120.0, 0.0f64..600.0, 0.0f64..300.0),
    )
        .prop_map(
            |(
                arrivals,
                duration,
                gpus,
                (p, deterministic, retries),
                (image, ckpt, write, restart),
            )| {
                JobClass {
                    arrivals,
                    duration,
                    gpus_per_job: gpus,
                    gpu_memory_gb: 10.0,
                    failures: Failures {
                        probability: p,
                        kind: if deterministic {
                            FailureKind::Deterministic
                        } else {
                            FailureKind::Transient
                        },
                        max_retries: retries,
                    },
                    image_gb: image,
                    checkpoint_interval_min: ckpt,
                    checkpoint_write_s: write,
                    restart_overhead_s: restart,
                    egress_gb_per_job: 3.0,
                    data_read_billed_share: 0.1,
                    ..JobClass::default()
                }
            },
        )
}

fn arb_scenario() -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec(arb_class(), 1..3),
        prop::collection::vec(
            (
                prop::sample::select(Profile::ALL.to_vec()),
                prop::sample::select(vec![Overflow::OnDemand, Overflow::Spot]),
                0.0f64..1.0,
                prop::sample::select(vec![
                    Placement::BinPack,
                    Placement::Spread,
                    Placement::Exclusive,
                ]),
                any::<bool>(),
                0.0f64..0.3,
                (1u32..3_600, 0u32..3_600, 0.0f64..3_600.0),
            ),
            1..4,
        ),
        0.5f64..4.0,
        any::<u64>(),
    )
        .prop_map(|(classes, platforms, days, seed)| {
            let platforms = platforms
                .into_iter()
                .enumerate()
                .map(
                    |(
                        i,
                        (profile, overflow, reserved, placement, gang, rate, (gran, min, warm)),
                    )| {
                        let (instance, region) =
                            if profile.cloud() == gpucost::model::scenario::Cloud::Aws {
                                ("p4d.24xlarge", "us-east-1")
                            } else {
                                ("a2-highgpu-8g", "us-central1")
                            };
                        let mut p = profile.platform(&format!("platform {i}"), instance, region);
                        if p.purchase.overflow != Overflow::None {
                            p.purchase.overflow = overflow;
                            p.purchase.reserved_share = reserved;
                        }
                        p.placement = placement;
                        p.gang_scheduling = gang;
                        p.spot_interruptions_per_node_hour = rate;
                        p.billing.granularity_s = gran;
                        p.billing.minimum_s = min;
                        p.warm_pool_window_s = warm;
                        p.max_nodes = 16;
                        p
                    },
                )
                .collect();
            Scenario {
                horizon_days: days,
                replications: 1,
                seed,
                reference_gpus: 16,
                job_classes: classes,
                platforms,
                ..Scenario::default()
            }
        })
}

proptest! {

    #[test]
    fn costs_are_finite_non_negative_and_add_up(s in arb_scenario()) {
        prop_assume!(s.validate().is_ok());
        for o in run_replication(&s, 0) {
            let total = o.breakdown_usd.total();
            for (name, v) in o.breakdown_usd.entries() {
                prop_assert!(v.is_finite() && v >= -1e-6, "{name} = {v}");
            }
            prop_assert!((total - o.monthly_tco_usd).abs() <= 1e-9 * total.max(1.0));
            let categories: f64 = o.gpu_seconds.iter().sum();
            prop_assert!(
                (categories - o.paid_gpu_seconds).abs() <= 1e-6 * o.paid_gpu_seconds.max(1.0),
                "GPU categories {categories} vs paid {}: {:?}", o.paid_gpu_seconds, o.gpu_seconds
            );
            prop_assert!(o.gpu_seconds[0] <= o.paid_gpu_seconds + 1e-6);
            prop_assert!((0.0..=1.0 + 1e-9).contains(&o.utilization));
            prop_assert!(o.jobs_completed + o.jobs_failed + o.jobs_running + o.jobs_waiting
                == o.jobs_submitted);
        }
    }
}
