//! GPU sharing for services (MIG slices, time-slicing): hand-worked cases a wrong model
//! fails, and the refusals that name what does not fit.

use crate::support::{bare_class, bare_platform, scenario, with_pool};
use gpucost::model::cost_category::Category;
use gpucost::model::monte_carlo::run_replication;
use gpucost::model::scenario::gpu_sharing::standard_layout;
use gpucost::model::scenario::{
    Arrivals, Duration, GpuSharing, Platform, Scenario, Service, ServiceTraffic,
};

/// One 1-GPU A100 (40 GB) node type at $10 an hour on EKS, no fees or people, sharing as
/// `sharing`, and `services`, for `days` days with no training.
fn shared(sharing: GpuSharing, services: Vec<Service>, days: f64) -> Scenario {
    let class = bare_class(
        Arrivals::Poisson { per_day: 0.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let platform = Platform {
        profile: "eks".to_string().into(),
        ..bare_platform("eks")
    };
    let platform = with_pool(platform, |pool| {
        pool.gpu_memory_gb = 40.0;
        pool.gpu_sharing = sharing;
    });
    let mut s = scenario(days, 2, vec![class], vec![platform]);
    s.services = services;
    s
}

/// A small model with a fixed number of replicas and `rps` of traffic.
fn small(name: &str, gpus: f64, replicas: u32, rps: f64) -> Service {
    Service {
        name: name.into(),
        traffic: ServiceTraffic {
            mean_rps: rps,
            ..Default::default()
        },
        gpus_per_replica: gpus,
        gpu_memory_gb: 4.0,
        capacity_rps: 20.0,
        concurrency: 1,
        min_replicas: replicas,
        max_replicas: replicas,
        image_gb: 0.0,
        model_load_s: 0.0,
        ..Service::default()
    }
}

fn seven_small_slices() -> GpuSharing {
    GpuSharing::Mig {
        layout: standard_layout("A100", "7x1g").unwrap(),
    }
}

/// Paid GPU-hours of the horizon of the platform's one outcome.
fn paid_gpu_hours(s: &Scenario) -> f64 {
    s.validate().expect("valid");
    run_replication(s, 0)[0].paid_gpu_seconds / 3_600.0
}

#[test]
fn seven_one_g_slices_fit_one_a100_and_an_eighth_needs_a_second() {
    let hours = 24.0;
    let seven = shared(seven_small_slices(), vec![small("m", 0.1, 7, 0.0)], 1.0);
    assert!((paid_gpu_hours(&seven) - hours).abs() < 1e-9);
    let eight = shared(seven_small_slices(), vec![small("m", 0.1, 8, 0.0)], 1.0);
    assert!((paid_gpu_hours(&eight) - 2.0 * hours).abs() < 1e-9);
    // The second GPU's six empty slices are the platform's GPU-sharing loss; the service
    // pays for its eight slices.
    let o = &run_replication(&eight, 0)[0];
    let loss = o.gpu_seconds[Category::GpuSharingLoss] / 3_600.0;
    assert!((loss - 6.0 / 7.0 * hours).abs() < 1e-9, "{loss}");
    let own: f64 = o.services[0].gpu_seconds.values().sum::<f64>() / 3_600.0;
    assert!((own - 8.0 / 7.0 * hours).abs() < 1e-9, "{own}");
    // Two services on the same 1g profile share the GPUs' slices: 4 + 4 is 8 slices.
    let two = shared(
        seven_small_slices(),
        vec![small("a", 0.1, 4, 0.0), small("b", 0.1, 4, 0.0)],
        1.0,
    );
    assert!((paid_gpu_hours(&two) - 2.0 * hours).abs() < 1e-9);
}

#[test]
fn a_mig_slice_serves_at_its_share_of_the_gpu() {
    // 1 req/s on a 1g slice of a 20 req/s GPU: 20 ÷ 7 req/s, busy 7 ÷ 20 of the time.
    let s = shared(seven_small_slices(), vec![small("m", 0.1, 1, 1.0)], 1.0);
    s.validate().unwrap();
    let o = &run_replication(&s, 0)[0];
    let svc = &o.services[0];
    let useful = svc.gpu_seconds[Category::UsefulCompute];
    let served = svc.requests - svc.requests_dropped - svc.requests_queued_at_horizon;
    assert!(
        (useful - served * 7.0 / 20.0 / 7.0).abs() < 1e-6,
        "{useful}"
    );
}

#[test]
fn twenty_time_sliced_models_pack_one_gpu() {
    // 2 GB each: twenty of them fill the A100's 40 GB.
    let model = |i: usize| Service {
        gpu_memory_gb: 2.0,
        ..small(&format!("m{i}"), 0.05, 1, 0.2)
    };
    let services: Vec<Service> = (0..20).map(model).collect();
    let sharing = GpuSharing::TimeSlicing {
        context_switch_loss: 0.05,
    };
    let s = shared(sharing.clone(), services.clone(), 2.0);
    assert!((paid_gpu_hours(&s) - 48.0).abs() < 1e-9);
    // A 21st needs a second GPU, nineteen twentieths of it held by no replica.
    let mut more = services;
    more.push(model(20));
    let s = shared(sharing, more, 2.0);
    let o = &run_replication(&s, 0)[0];
    assert!((o.paid_gpu_seconds / 3_600.0 - 96.0).abs() < 1e-9);
    let unheld = 0.95 * 48.0;
    let switching: f64 = o
        .services
        .iter()
        .map(|v| v.gpu_seconds[Category::GpuSharingLoss])
        .sum::<f64>()
        / 3_600.0;
    let loss = o.gpu_seconds[Category::GpuSharingLoss] / 3_600.0;
    assert!((loss - unheld - switching).abs() < 1e-9, "{loss}");
    assert!(switching > 0.0);
}

#[test]
fn a_fraction_holds_a_whole_gpu_where_gpus_are_not_shared() {
    let s = shared(GpuSharing::None, vec![small("m", 0.25, 3, 0.0)], 1.0);
    assert!((paid_gpu_hours(&s) - 3.0 * 24.0).abs() < 1e-9);
    let notices = gpucost::model::serving::notices::serving_notices(&s);
    assert!(
        notices
            .iter()
            .any(|n| n.contains("m holds a whole GPU per replica on eks: the platform does not share GPUs (gpu_sharing none), so 0.25 GPU rounds up")),
        "{notices:?}"
    );
}

#[test]
fn time_slicing_refuses_memory_overcommit_naming_both_numbers() {
    let mut big = small("big", 0.05, 1, 0.0);
    big.gpu_memory_gb = 4.0;
    let s = shared(
        GpuSharing::TimeSlicing {
            context_switch_loss: 0.05,
        },
        vec![big],
        1.0,
    );
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("services.0.gpu_memory_gb")
            && err.contains("20 × 4 GB = 80 GB")
            && err.contains("the GPU's 40 GB"),
        "{err}"
    );
}

#[test]
fn mig_is_refused_on_gpus_without_it_naming_the_gpu() {
    for gpu in ["L4", "A10G", "T4", "L40S"] {
        let mut s = shared(seven_small_slices(), vec![small("m", 0.1, 1, 0.0)], 1.0);
        s.platforms[0].first_pool_mut().gpu_model = gpu.into();
        s.platforms[0].first_pool_mut().gpu_memory_gb = 24.0;
        let err = s.validate().unwrap_err().to_string();
        assert!(
            err.contains("platforms.0.node_pools.0.gpu_sharing.layout")
                && err.contains(&format!("{gpu} GPUs have no MIG")),
            "{err}"
        );
    }
}

#[test]
fn a_replica_no_slice_fits_is_refused_naming_the_layout() {
    let mut s = shared(seven_small_slices(), vec![small("m", 0.1, 1, 0.0)], 1.0);
    s.services[0].gpu_memory_gb = 8.0;
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("fits no slice") && err.contains("7 × 1g.5gb") && err.contains("8 GB"),
        "{err}"
    );
}

#[test]
fn sharing_is_refused_off_kubernetes() {
    let mut s = shared(seven_small_slices(), vec![small("m", 0.1, 1, 0.0)], 1.0);
    s.platforms[0].profile = "sagemaker".to_string().into();
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("cannot share GPUs by MIG") && err.contains("sagemaker"),
        "{err}"
    );
    s.platforms[0].profile = "aws_batch".to_string().into();
    s.platforms[0].first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
        context_switch_loss: 0.05,
    };
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("cannot share GPUs by time-slicing"), "{err}");
}

/// A SageMaker multi-model endpoint time-slices its GPUs: its models pack one GPU, and the
/// endpoint pays for it whole, though SageMaker endpoints otherwise hold an instance each.
#[test]
fn a_sagemaker_multi_model_endpoint_packs_its_models_on_one_gpu() {
    let model = |i: usize| Service {
        gpu_memory_gb: 2.0,
        ..small(&format!("m{i}"), 0.1, 1, 0.5)
    };
    let mut s = shared(
        GpuSharing::TimeSlicing {
            context_switch_loss: 0.05,
        },
        (0..10).map(model).collect(),
        1.0,
    );
    s.platforms[0].profile = "sagemaker".to_string().into();
    assert!((paid_gpu_hours(&s) - 24.0).abs() < 1e-9);
    s.platforms[0].first_pool_mut().gpu_sharing = GpuSharing::None;
    assert!((paid_gpu_hours(&s) - 10.0 * 24.0).abs() < 1e-9);
}

#[test]
fn fractions_are_whole_above_one_and_milli_gpus_below() {
    let mut s = shared(GpuSharing::None, vec![small("m", 1.5, 1, 0.0)], 1.0);
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("above one GPU, a replica holds whole GPUs"),
        "{err}"
    );
    s.services[0].gpus_per_replica = 0.0005;
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("services.0.gpus_per_replica"), "{err}");
    s.services[0].gpus_per_replica = 0.1234;
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("steps of 0.001"), "{err}");
}

#[test]
fn a_scenario_written_before_sharing_reads_as_whole_gpus() {
    let s = shared(GpuSharing::None, vec![small("m", 1.0, 2, 0.0)], 1.0);
    let text = serde_json::to_string(&s).unwrap();
    assert!(!text.contains("gpu_sharing"), "whole GPUs are not written");
    assert!(text.contains("\"gpus_per_replica\":1.0"));
    let old = text.replace("\"gpus_per_replica\":1.0", "\"gpus_per_replica\":1");
    let read: Scenario = serde_json::from_str(&old).unwrap();
    assert_eq!(read, s);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn arb_sharing() -> impl Strategy<Value = GpuSharing> {
        prop_oneof![
            Just(GpuSharing::None),
            prop::sample::select(vec!["7x1g", "3x2g_1x1g", "3g_2g_1g_1g", "2x3g"]).prop_map(
                |key| GpuSharing::Mig {
                    layout: standard_layout("A100", key).unwrap(),
                }
            ),
            (0.0f64..0.3).prop_map(|loss| GpuSharing::TimeSlicing {
                context_switch_loss: loss,
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Shared or not, the platform pays for whole GPUs: its paid GPU time is the
        /// services' own (their slots') plus the slots no replica held, the breakdown adds up
        /// to the TCO, and every request is served, queued at the horizon or dropped.
        #[test]
        fn shared_gpus_are_paid_whole_and_the_costs_add_up(
            sharing in arb_sharing(),
            services in prop::collection::vec(
                (prop::sample::select(vec![0.05, 0.1, 0.125, 0.25, 1.0]), 0u32..4, 0.0f64..30.0),
                1..6,
            ),
        ) {
            let services: Vec<Service> = services
                .into_iter()
                .enumerate()
                .map(|(i, (gpus, floor, rps))| Service {
                    gpu_memory_gb: 1.0,
                    max_replicas: 6,
                    ..small(&format!("s{i}"), gpus, floor, rps)
                })
                .map(|s| Service { min_replicas: s.min_replicas.min(s.max_replicas), ..s })
                .collect();
            let s = shared(sharing.clone(), services, 0.5);
            prop_assume!(s.validate().is_ok());
            let o = &run_replication(&s, 0)[0];
            let own: f64 = o.services.iter().map(|v| v.gpu_seconds.values().sum::<f64>()).sum();
            // Beyond the services' own: the platform's empty shares and node GPUs (sharing
            // loss, idle) and the busy time borrowed from empty shares (useful), none negative.
            let beyond = |c: Category| {
                o.gpu_seconds[c] - o.services.iter().map(|v| v.gpu_seconds[c]).sum::<f64>()
            };
            let parts = [Category::GpuSharingLoss, Category::Idle, Category::UsefulCompute].map(beyond);
            prop_assert!(parts.iter().all(|&x| x >= -1e-6), "{parts:?}");
            let sum: f64 = parts.iter().sum();
            prop_assert!((o.paid_gpu_seconds - own - sum).abs() <= 1e-6 * o.paid_gpu_seconds.max(1.0));
            // Whole GPUs each minute: the paid GPU-seconds are a whole number of GPU-minutes.
            let gpu_minutes = o.paid_gpu_seconds / 60.0;
            if !matches!(sharing, GpuSharing::None) {
                prop_assert!((gpu_minutes - gpu_minutes.round()).abs() < 1e-6, "{gpu_minutes}");
            }
            let total: f64 = o.breakdown_usd.values().sum();
            prop_assert!((total - o.monthly_tco_usd).abs() <= 1e-9 * total.max(1.0));
            for v in &o.services {
                let sum = v.requests - v.requests_dropped - v.requests_queued_at_horizon;
                prop_assert!(sum >= -1e-9 && sum <= v.requests + 1e-9);
            }
        }
    }
}

/// Replicas on 8-GPU nodes: packed together where they share nodes (a node paid whole, the
/// GPUs no replica holds idle), an instance each where they do not.
#[test]
fn replicas_pack_shared_nodes_and_hold_their_own_instances_elsewhere() {
    let hours = 24.0;
    let on_nodes = |replicas: u32, shares: bool| {
        let mut s = shared(GpuSharing::None, vec![small("m", 1.0, replicas, 0.0)], 1.0);
        s.platforms[0].first_pool_mut().gpus_per_node = 8;
        s.platforms[0].serving = Some(gpucost::model::scenario::Serving {
            shares_nodes: Some(shares),
            ..Default::default()
        });
        s.validate().expect("valid");
        run_replication(&s, 0)[0].clone()
    };
    // Shared: 3 replicas fill 3 GPUs of one node; the other 5 are the platform's idle time.
    let o = on_nodes(3, true);
    assert!((o.paid_gpu_seconds / 3_600.0 - 8.0 * hours).abs() < 1e-9);
    let own: f64 = o.services[0].gpu_seconds.values().sum::<f64>() / 3_600.0;
    assert!((own - 3.0 * hours).abs() < 1e-9, "{own}");
    // Nine need a second node.
    let o = on_nodes(9, true);
    assert!((o.paid_gpu_seconds / 3_600.0 - 16.0 * hours).abs() < 1e-9);
    // An instance each (a single-model endpoint): 2 replicas pay 2 × 8 GPUs, their own.
    let o = on_nodes(2, false);
    assert!((o.paid_gpu_seconds / 3_600.0 - 16.0 * hours).abs() < 1e-9);
    let own: f64 = o.services[0].gpu_seconds.values().sum::<f64>() / 3_600.0;
    assert!((own - 16.0 * hours).abs() < 1e-9, "{own}");
    // With no fees or people, the TCO is those nodes at $10 a node-hour for 730 hours.
    assert!(
        (o.monthly_tco_usd - 2.0 * 10.0 * 730.0).abs() < 1e-6,
        "{}",
        o.monthly_tco_usd
    );
    // Three 3-GPU replicas on 4-GPU nodes take one node each: four of them four nodes, not
    // the ⌈12 ÷ 4⌉ = 3 a pool of GPUs would give.
    let on_4 = |replicas: u32| {
        let mut s = shared(GpuSharing::None, vec![small("m", 3.0, replicas, 0.0)], 1.0);
        s.platforms[0].first_pool_mut().gpus_per_node = 4;
        s.validate().expect("valid");
        run_replication(&s, 0)[0].paid_gpu_seconds / 3_600.0
    };
    assert!((on_4(4) - 16.0 * hours).abs() < 1e-9, "{}", on_4(4));
    assert!((on_4(3) - 12.0 * hours).abs() < 1e-9, "{}", on_4(3));
}

#[test]
fn time_slicing_takes_shares_that_divide_a_gpu_on_nvidia_gpus_sharing_nodes() {
    let sliced = GpuSharing::TimeSlicing {
        context_switch_loss: 0.05,
    };
    // 0.4 of a GPU: two fit, with a fifth of the GPU no share can use.
    let s = shared(sliced.clone(), vec![small("m", 0.4, 1, 0.0)], 1.0);
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("must divide a GPU evenly"), "{err}");
    // An Inferentia2 chip is not an NVIDIA GPU.
    let mut s = shared(sliced.clone(), vec![small("m", 0.5, 1, 0.0)], 1.0);
    s.platforms[0].first_pool_mut().gpu_model = "Inferentia2".into();
    s.platforms[0].first_pool_mut().gpu_memory_gb = 32.0;
    let err = s.validate().unwrap_err().to_string();
    assert!(
        err.contains("runs on Inferentia2, not an NVIDIA GPU"),
        "{err}"
    );
    // Replicas sharing a GPU share its node.
    let mut s = shared(sliced, vec![small("m", 0.5, 1, 0.0)], 1.0);
    s.platforms[0].serving = Some(gpucost::model::scenario::Serving {
        shares_nodes: Some(false),
        ..Default::default()
    });
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("serving.shares_nodes"), "{err}");
}

/// A time-sliced replica alone on its GPU has the whole of it: busy beyond its own share, in
/// the shares no one holds, its work is useful compute, not sharing loss.
#[test]
fn a_lone_time_sliced_replica_busy_beyond_its_share_is_useful_compute() {
    let s = shared(
        GpuSharing::TimeSlicing {
            context_switch_loss: 0.0,
        },
        vec![small("m", 0.1, 1, 15.0)],
        1.0,
    );
    s.validate().unwrap();
    let o = &run_replication(&s, 0)[0];
    let svc = &o.services[0];
    let served = svc.requests - svc.requests_dropped - svc.requests_queued_at_horizon;
    // 15 of a GPU's 20 req/s: three quarters of the day's GPU-hours.
    let work_h = served / 20.0 / 3_600.0;
    assert!((work_h - 18.0).abs() < 0.2, "{work_h}");
    let useful_h = o.gpu_seconds[Category::UsefulCompute] / 3_600.0;
    assert!((useful_h - work_h).abs() < 1e-6, "{useful_h} vs {work_h}");
    let loss_h = o.gpu_seconds[Category::GpuSharingLoss] / 3_600.0;
    assert!((loss_h - (24.0 - work_h)).abs() < 1e-6, "{loss_h}");
}
