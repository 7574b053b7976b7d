//! The `one-cluster-for-both` preset: Two reserved p4d for fine-tuning and a 4-GPU model API: one
//! EKS cluster for both, the replicas first and preempting at three nodes, vs a node group for
//! serving (seed 001).

use super::shared::office_hours;
use crate::model::platforms::Profile;
use crate::model::scenario::{
    Arrivals, Duration, JobClass, Overflow, Scenario, Service, ServiceTraffic, Serving,
};

/// Seed 001: "for inference serving and multi-team clusters, K8s beats AWS hands down". A
/// team reserves two p4d.24xlarge (16 A100s, the profile's commitment discount) and may add
/// one on demand (three nodes a group: p4d capacity is scarce), for 4-GPU fine-tunes that
/// leave them half idle, and serves a 70B-class model on 4-GPU replicas (tensor parallel)
/// with office-hours traffic. On one EKS cluster the replicas take the reserved nodes' idle
/// GPUs first and, with the cluster at its three nodes, preempt fine-tunes (a checkpoint
/// every 30 minutes bounds the rework; the fine-tunes wait longer); on a node group of their
/// own they pay on-demand p4d nodes, two replicas a node. The same instance type for both: a
/// smaller one for serving needs node pools.
pub(super) fn scenario() -> Scenario {
    let platform = |name: &str, together: bool| {
        let mut p = Profile::Eks.platform(name, "p4d.24xlarge", "us-east-1");
        p.first_pool_mut().purchase.reserved_share = 1.0;
        p.first_pool_mut().purchase.overflow = Overflow::OnDemand;
        p.first_pool_mut().max_nodes = 3;
        p.serving = Some(Serving {
            shares_nodes_with_training: together,
            ..Serving::of_profile(Some(Profile::Eks))
        });
        p
    };
    Scenario {
        reference_gpus: 16,
        job_classes: vec![JobClass {
            name: "Fine-tune".into(),
            arrivals: Arrivals::Poisson { per_day: 8.0 },
            duration: Duration::LogNormal {
                median_hours: 2.0,
                p90_hours: 6.0,
            },
            gpus_per_job: 4.0,
            gpu_memory_gb: 40.0,
            checkpoint_interval_min: 30.0,
            ..JobClass::default()
        }],
        platforms: vec![
            platform("EKS, a node group for serving", false),
            platform("EKS, one cluster for both", true),
        ],
        services: vec![Service {
            name: "Model API".into(),
            traffic: ServiceTraffic {
                mean_rps: 4.0,
                hourly_profile: Some(office_hours()),
                weekend_factor: 0.3,
                spikes: None,
                replay: None,
            },
            // Four A100s serve about 10 requests a second of a 70B-class model, 16 at once.
            capacity_rps: 10.0,
            concurrency: 16,
            gpus_per_replica: 4.0,
            gpu_memory_gb: 35.0,
            latency_slo_ms: 8_000.0,
            min_replicas: 1,
            max_replicas: 6,
            target_utilization: 0.6,
            model_load_s: 180.0,
            image_gb: 15.0,
            queue_per_replica: 200,
            llm: None,
        }],
        ..Scenario::default()
    }
}
