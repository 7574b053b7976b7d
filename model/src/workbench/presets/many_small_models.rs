//! The `many-small-models` preset: Twenty small models with little traffic: SageMaker endpoints vs
//! inference components vs Kubernetes sharing a GPU by time-slicing or MIG (seed 001).

use super::shared::office_hours;
use crate::model::platforms::Profile;
use crate::model::scenario::{gpu_sharing, GpuSharing, Scenario, Service, ServiceTraffic, Serving};

/// Seed 001: "pack 20 small models onto one A100" with MIG or time-slicing on Kubernetes,
/// against SageMaker. Four busy models and sixteen quiet ones, in office hours; each asks
/// for a twentieth of a GPU and 1.5 GB. SageMaker gives each model whole GPUs: a
/// single-model endpoint an ml.g5.xlarge of its own (+40 %), inference components a GPU of
/// an ml.g5.12xlarge (+25 %), packed four to an instance, scaling to zero when a model is
/// idle. EKS time-slices one L40S (g6e.xlarge: AWS rents no single A100), or cuts A100s
/// into seven 1g slices, which on AWS means a p4d of eight A100s paid whole (colocation
/// with other work on the node is not modelled).
pub(super) fn scenario() -> Scenario {
    let endpoints = Profile::Sagemaker.platform(
        "SageMaker endpoints (one per model)",
        "g5.xlarge",
        "us-east-1",
    );
    let mut components =
        Profile::Sagemaker.platform("SageMaker inference components", "g5.12xlarge", "us-east-1");
    components.serving = Some(Serving {
        scale_to_zero: true,
        shares_nodes: Some(true),
        ..Serving::of_profile(Some(Profile::Sagemaker))
    });
    let mut time_sliced =
        Profile::Eks.platform("EKS, time-slicing on one L40S", "g6e.xlarge", "us-east-1");
    time_sliced.first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
        context_switch_loss: gpu_sharing::CONTEXT_SWITCH_LOSS,
    };
    let mut mig = Profile::Eks.platform(
        "EKS, MIG 7 × 1g on a p4d (8 A100s)",
        "p4d.24xlarge",
        "us-east-1",
    );
    mig.first_pool_mut().gpu_sharing = GpuSharing::Mig {
        layout: gpu_sharing::standard_layout("A100", "7x1g").expect("A100 has MIG"),
    };
    let hours = office_hours();
    let model = |i: usize| Service {
        name: format!("model-{:02}", i + 1),
        traffic: ServiceTraffic {
            mean_rps: if i < 4 { 1.0 } else { 0.05 },
            hourly_profile: Some(hours.clone()),
            weekend_factor: 0.3,
            spikes: None,
            replay: None,
        },
        // A small model: 40 req/s on a whole A100 at 2 requests at once (50 ms each alone).
        capacity_rps: 40.0,
        concurrency: 2,
        gpus_per_replica: 0.05,
        gpu_memory_gb: 1.5,
        latency_slo_ms: 500.0,
        min_replicas: 0,
        max_replicas: 3,
        target_utilization: 0.6,
        model_load_s: 20.0,
        image_gb: 4.0,
        queue_per_replica: 100,
        llm: None,
    };
    Scenario {
        horizon_days: 7.0,
        replications: 20,
        reference_gpus: 1,
        job_classes: Vec::new(),
        platforms: vec![endpoints, components, time_sliced, mig],
        services: (0..20).map(model).collect(),
        ..Scenario::default()
    }
}
