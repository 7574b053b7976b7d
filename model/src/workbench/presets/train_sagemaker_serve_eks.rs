//! The `train-sagemaker-serve-eks` preset: Fine-tuning jobs and the API that serves the model: all
//! on SageMaker, all on EKS (node groups of their own, or one cluster for both), or trained on
//! SageMaker and served on EKS (seed 001).

use super::shared::office_hours;
use crate::model::platforms::Profile;
use crate::model::scenario::{
    Arrivals, Duration, JobClass, Scenario, Service, ServiceTraffic, Serving,
};

/// Seed 001: "train on SageMaker, serve on EKS". Fine-tuning runs of four GPUs and the
/// assistant API that serves the model on four-GPU replicas, both on g5.12xlarge (4 × A10G):
/// SageMaker (training jobs, and an ml.g5.12xlarge endpoint instance per replica, +25 %)
/// against EKS with Karpenter; the report's `split` prices the hybrid, training on one and
/// serving on the other, both platforms' fees and people paid. Version 2 adds EKS as one
/// cluster for both: the replicas on the fine-tunes' nodes, first in line (version 1 had the
/// other three platforms, with the same numbers).
pub(super) fn scenario() -> Scenario {
    let sagemaker = Profile::Sagemaker.platform("SageMaker", "g5.12xlarge", "us-east-1");
    let eks = Profile::Eks.platform("EKS + Karpenter", "g5.12xlarge", "us-east-1");
    let mut one_cluster =
        Profile::Eks.platform("EKS, one cluster for both", "g5.12xlarge", "us-east-1");
    one_cluster.serving = Some(Serving {
        shares_nodes_with_training: true,
        ..Serving::of_profile(Some(Profile::Eks))
    });
    Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "Fine-tune".into(),
            arrivals: Arrivals::Poisson { per_day: 2.0 },
            duration: Duration::LogNormal {
                median_hours: 2.0,
                p90_hours: 5.0,
            },
            gpus_per_job: 4.0,
            gpu_memory_gb: 20.0,
            ..JobClass::default()
        }],
        platforms: vec![sagemaker, eks, one_cluster],
        services: vec![Service {
            name: "Assistant API".into(),
            traffic: ServiceTraffic {
                mean_rps: 6.0,
                hourly_profile: Some(office_hours()),
                weekend_factor: 0.3,
                spikes: None,
                replay: None,
            },
            // Four A100s serve 30 req/s at 16 at once; four A10Gs about a third of it.
            capacity_rps: 30.0,
            concurrency: 16,
            gpus_per_replica: 4.0,
            gpu_memory_gb: 20.0,
            latency_slo_ms: 5_000.0,
            min_replicas: 1,
            max_replicas: 12,
            target_utilization: 0.6,
            model_load_s: 120.0,
            image_gb: 12.0,
            queue_per_replica: 100,
            llm: None,
        }],
        ..Scenario::default()
    }
}
