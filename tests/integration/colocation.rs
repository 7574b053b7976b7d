//! Services whose replicas share the training nodes (`serving.shares_nodes_with_training`):
//! hand-worked cases a wrong model fails. Replicas fill GPUs training leaves idle, come
//! first (preempting training), and stay off spot nodes.

use crate::support::{adds_up, bare_class, bare_platform, scenario, with_pool};
use gpucost::model::cost_category::Category;
use gpucost::model::monte_carlo::run_replication;
use gpucost::model::scenario::{
    Arrivals, Duration, GpuSharing, Overflow, Platform, Purchase, Scenario, Service,
    ServiceTraffic, Serving,
};
use gpucost::model::serving::platform::serve_on_training_nodes;
use gpucost::model::sim::outcome::PlatformOutcome;

const HOUR: f64 = 3_600.0;

/// An EKS platform of 8-GPU nodes at $80 an hour on demand ($48 reserved, 40 % off), with
/// `reserved` of them reserved and overflow `overflow`, replicas on the training nodes when
/// `colocate`.
fn cluster(reserved: u32, overflow: Overflow, colocate: bool) -> Platform {
    let platform = Platform {
        profile: "eks".to_string().into(),
        serving: Some(Serving {
            shares_nodes_with_training: colocate,
            ..Serving::default()
        }),
        ..bare_platform("eks")
    };
    with_pool(platform, |pool| {
        pool.gpus_per_node = 8;
        pool.on_demand_usd_per_node_hour = 80.0;
        pool.spot_usd_per_node_hour = 24.0;
        pool.purchase = Purchase {
            reserved_share: f64::from(reserved),
            reserved_discount_pct: 40.0,
            overflow,
            ..Purchase::default()
        };
    })
}

/// A service of `replicas` fixed replicas of one GPU and no traffic.
fn fixed(replicas: u32) -> Service {
    Service {
        name: "model".into(),
        traffic: ServiceTraffic {
            mean_rps: 0.0,
            ..Default::default()
        },
        gpus_per_replica: 1.0,
        min_replicas: replicas,
        max_replicas: replicas,
        image_gb: 0.0,
        model_load_s: 0.0,
        ..Service::default()
    }
}

/// `days` days on `platform` (8 reference GPUs, so a reserved share of 1 is one node), with
/// `services` and no training job unless `class` says otherwise.
fn on(platform: Platform, services: Vec<Service>, days: f64) -> Scenario {
    let idle = bare_class(
        Arrivals::Poisson { per_day: 0.0 },
        Duration::Fixed { hours: 1.0 },
    );
    let mut s = scenario(days, 2, vec![idle], vec![platform]);
    s.reference_gpus = 8;
    s.services = services;
    s
}

fn run(s: &Scenario) -> PlatformOutcome {
    s.validate().expect("valid");
    run_replication(s, 0)[0].clone()
}

#[test]
fn replicas_on_a_reserved_nodes_idle_gpus_add_no_gpu_cost() {
    let days = 1.0;
    let hours = 24.0;
    let alone = run(&on(cluster(1, Overflow::None, true), vec![], days));
    let together = run(&on(cluster(1, Overflow::None, true), vec![fixed(2)], days));
    let apart = run(&on(
        cluster(1, Overflow::OnDemand, false),
        vec![fixed(2)],
        days,
    ));
    adds_up(&together);
    adds_up(&apart);
    // The reserved node is paid the whole day whatever runs on it: 8 GPUs × 24 h.
    assert!((alone.paid_gpu_seconds / HOUR - 8.0 * hours).abs() < 1e-9);
    assert!((together.paid_gpu_seconds / HOUR - 8.0 * hours).abs() < 1e-9);
    assert!((together.monthly_tco_usd - alone.monthly_tco_usd).abs() < 1e-6);
    // The replicas hold 2 of its GPUs at the reserved price ($6 a GPU-hour): 2 × 24 × 6.
    let service = &together.services[0];
    assert!(
        (service.gpu_usd - 2.0 * hours * 6.0).abs() < 1e-6,
        "{}",
        service.gpu_usd
    );
    assert!((service.replica_hours - 2.0 * hours).abs() < 1e-9);
    // The node's idle GPUs are 6, not 8 (the replicas, with no traffic, are idle in the
    // service's own account).
    let own_idle = service.gpu_seconds[Category::Idle] / HOUR;
    assert!((own_idle - 2.0 * hours).abs() < 1e-6, "{own_idle}");
    let idle = together.gpu_seconds[Category::Idle] / HOUR - own_idle;
    assert!((idle - 6.0 * hours).abs() < 1e-6, "{idle}");
    // On nodes of their own, the two replicas take an 8-GPU node at $80 an hour on top.
    let extra = (apart.paid_gpu_seconds - alone.paid_gpu_seconds) / HOUR;
    assert!((extra - 8.0 * hours).abs() < 1e-6, "{extra}");
    assert_eq!(together.preemptions, 0);
}

#[test]
fn a_replica_preempts_a_training_job_that_loses_its_compute_since_its_start() {
    // One reserved 8-GPU node; an 8-GPU job from the horizon's start, 40 hours, no
    // checkpoints, over one day. The service scales to zero, and its traffic comes only in hour 10: its
    // first replica takes a GPU from the job, which loses everything it computed (8 GPUs ×
    // the time of the preemption) and waits for the node to be whole again.
    let mut platform = cluster(1, Overflow::None, true);
    platform.serving.as_mut().unwrap().scale_to_zero = true;
    let mut job = bare_class(
        Arrivals::Steady { per_day: 0.5 },
        Duration::Fixed { hours: 40.0 },
    );
    job.gpus_per_job = 8.0;
    let mut hours = vec![0.0; 24];
    hours[10] = 1.0;
    let service = Service {
        traffic: ServiceTraffic {
            mean_rps: 0.2,
            hourly_profile: Some(hours),
            ..Default::default()
        },
        min_replicas: 0,
        max_replicas: 1,
        ..fixed(0)
    };
    let mut s = scenario(1.0, 2, vec![job], vec![platform]);
    s.reference_gpus = 8;
    s.services = vec![service];
    let o = run(&s);
    adds_up(&o);
    assert_eq!(o.preemptions, 1);
    let (_, demand) = serve_on_training_nodes(&s, &s.platforms[0], 0, 80.0 / 8.0 / HOUR);
    let first = demand
        .changes
        .iter()
        .find(|c| c.2 > 0)
        .expect("a replica in hour 10")
        .0 as f64;
    assert!((10.0 * HOUR..11.0 * HOUR).contains(&first), "{first}");
    let rework = o.gpu_seconds[Category::InterruptionRework];
    assert!(
        (rework - 8.0 * first).abs() < 1e-6,
        "{rework} vs {}",
        8.0 * first
    );
    // The replica leaves when the demand is 0 again; the job starts over then and computes
    // to the day's end: 8 × (24 h − that time). While the replica held its GPU, the other 7
    // were idle, and it paid $6 an hour (reserved).
    let leave = demand
        .changes
        .iter()
        .find(|c| c.2 == 0 && c.0 as f64 > first)
        .expect("the replica leaves")
        .0 as f64;
    let service = &o.services[0];
    let training =
        o.gpu_seconds[Category::UsefulCompute] - service.gpu_seconds[Category::UsefulCompute];
    assert!(
        (training - 8.0 * (24.0 * HOUR - leave)).abs() < 1e-6,
        "{training}"
    );
    let idle = o.gpu_seconds[Category::Idle] - service.gpu_seconds[Category::Idle];
    assert!((idle - 7.0 * (leave - first)).abs() < 1e-6, "{idle}");
    let usd = 6.0 * (leave - first) / HOUR;
    assert!((service.gpu_usd - usd).abs() < 1e-6, "{}", service.gpu_usd);
    // Without the service, it runs undisturbed.
    s.services.clear();
    let undisturbed = run(&s);
    assert_eq!(undisturbed.preemptions, 0);
    assert_eq!(undisturbed.gpu_seconds[Category::InterruptionRework], 0.0);
}

#[test]
fn replicas_stay_off_spot_nodes() {
    // An all-spot cluster, interrupted often: the replica gets an on-demand node of its own
    // ($10 a GPU-hour), and no interruption ever reaches it.
    let mut platform = cluster(0, Overflow::Spot, true);
    platform.first_pool_mut().spot_interruptions_per_node_hour = 2.0;
    let mut s = on(platform, vec![fixed(1)], 1.0);
    s.job_classes[0].arrivals = Arrivals::Poisson { per_day: 48.0 };
    let o = run(&s);
    adds_up(&o);
    let service = &o.services[0];
    assert!(
        (service.gpu_usd - 24.0 * 10.0).abs() < 1e-6,
        "{}",
        service.gpu_usd
    );
    assert!((service.replica_hours - 24.0).abs() < 1e-9);
}

#[test]
fn replicas_fill_the_gaps_training_leaves_and_the_costs_add_up() {
    // On-demand nodes that come and go with the jobs, a warm window, and two services that
    // follow their traffic: the books balance in every replication.
    let mut platform = cluster(0, Overflow::OnDemand, true);
    platform.first_pool_mut().warm_pool_window_s = 600.0;
    platform.provisioning_median_s = 90.0;
    platform.provisioning_p90_s = 180.0;
    platform.billing.granularity_s = 60;
    let mut busy = fixed(1);
    busy.traffic.mean_rps = 30.0;
    busy.capacity_rps = 10.0;
    busy.max_replicas = 12;
    busy.min_replicas = 1;
    let mut two = fixed(2);
    two.name = "two-gpu".into();
    two.gpus_per_replica = 2.0;
    let mut s = on(platform, vec![busy, two], 3.0);
    s.job_classes[0].arrivals = Arrivals::Poisson { per_day: 30.0 };
    s.job_classes[0].gpus_per_job = 3.0;
    s.validate().expect("valid");
    for r in 0..4 {
        let o = &run_replication(&s, r)[0];
        adds_up(o);
        assert_eq!(o.service_gpu_hours_without_node, 0.0);
    }
    // Time-sliced halves of a GPU: the shared GPUs they take are placed like replicas.
    s.platforms[0].first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
        context_switch_loss: 0.05,
    };
    s.services[0].gpus_per_replica = 0.5;
    s.services[0].gpu_memory_gb = 10.0;
    s.validate().expect("valid");
    for r in 0..4 {
        let o = &run_replication(&s, r)[0];
        adds_up(o);
        assert!(o.gpu_seconds[Category::GpuSharingLoss] > 0.0);
    }
}

#[test]
fn sharing_training_nodes_is_refused_where_replicas_cannot() {
    let mut sagemaker = cluster(0, Overflow::OnDemand, true);
    sagemaker.profile = "sagemaker".to_string().into();
    let err = on(sagemaker, vec![fixed(1)], 1.0)
        .validate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("SageMaker training jobs and endpoints never share instances"),
        "{err}"
    );
    let mut apart = cluster(0, Overflow::OnDemand, true);
    apart.serving.as_mut().unwrap().shares_nodes = Some(false);
    let err = on(apart, vec![fixed(1)], 1.0)
        .validate()
        .unwrap_err()
        .to_string();
    assert!(err.contains("serving.shares_nodes_with_training"), "{err}");
}

#[test]
fn replicas_that_find_no_gpu_are_counted_and_cost_nothing() {
    // One reserved 8-GPU node and no node to add: 16 one-GPU replicas find 8 GPUs. The
    // node costs what it costs alone ($6 × 8 × 24 = $1,152 for the day); the 8 placed hold
    // it all day; the 8 others' 192 GPU-hours are counted as found no node, and paid by no
    // one.
    let mut platform = cluster(1, Overflow::None, true);
    platform.first_pool_mut().max_nodes = 2;
    let alone = run(&on(platform.clone(), vec![], 1.0));
    let mut busy = fixed(16);
    busy.traffic.mean_rps = 100.0;
    let o = run(&on(platform, vec![busy], 1.0));
    adds_up(&o);
    assert!((o.monthly_tco_usd - alone.monthly_tco_usd).abs() < 1e-6);
    assert!((o.paid_gpu_seconds / HOUR - 192.0).abs() < 1e-9);
    assert!(
        (o.services[0].gpu_usd - 1_152.0).abs() < 1e-6,
        "{}",
        o.services[0].gpu_usd
    );
    assert!((o.service_gpu_hours_without_node - 192.0).abs() < 1e-9);
    assert!(o.utilization <= 1.0, "{}", o.utilization);
}

#[test]
fn a_replica_whose_node_is_still_being_provisioned_is_paid_from_when_it_is_ready() {
    // No reserved node; a new one takes exactly 3 hours. The replica is asked for at the
    // start (its own simulation has it serving from then, 95 % busy): the node is billed the
    // whole day (8 × 24 GPU-hours), its first 3 hours as provisioning (24 GPU-hours), and the
    // replica's GPU from then: 21 GPU-hours at $10, $210.
    let mut platform = cluster(0, Overflow::OnDemand, true);
    platform.provisioning_median_s = 3.0 * HOUR;
    platform.provisioning_p90_s = 3.0 * HOUR;
    let mut busy = fixed(1);
    busy.traffic.mean_rps = 19.0;
    busy.capacity_rps = 20.0;
    let o = run(&on(platform, vec![busy], 1.0));
    adds_up(&o);
    assert!((o.paid_gpu_seconds / HOUR - 192.0).abs() < 1e-9);
    let own: f64 = o.services[0].gpu_seconds.values().sum::<f64>() / HOUR;
    assert!((own - 21.0).abs() < 1e-9, "{own}");
    assert!(
        (o.services[0].gpu_usd - 210.0).abs() < 1e-6,
        "{}",
        o.services[0].gpu_usd
    );
    let provisioning = o.gpu_seconds[Category::ProvisioningAndPulls] / HOUR
        - o.services[0].gpu_seconds[Category::ProvisioningAndPulls] / HOUR;
    assert!((provisioning - 24.0).abs() < 1e-9, "{provisioning}");
}
