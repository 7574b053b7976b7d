//! The `h100-three-clouds` preset: 8×H100 training on AWS p5, Azure ND H100 v5 and Google
//! A3, each on its managed service and on its Kubernetes (six platforms).

use super::shared::added;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// The same H100 training on the three clouds' 8-GPU H100 nodes, each cloud on its managed
/// training service and on its Kubernetes, on demand, as the page adds platforms (nodes
/// failing as Meta's fleet did, each cloud's egress tiers, each instance's interconnect):
/// - AWS p5.48xlarge on SageMaker and on EKS (EFA);
/// - Azure ND96isr H100 v5 on Azure Machine Learning and on AKS (InfiniBand);
/// - Google a3-highgpu-8g on GKE Standard and on GKE Autopilot (GPUDirect-TCPX).
///
/// Durations are H100 hours. Eight-GPU fine-tunes most days, and a 32-GPU run every other
/// day, checkpointed hourly. No spot: the catalog has no spot quote for ND H100 v5.
pub(super) fn scenario() -> Scenario {
    let on = |profile, name: &str, instance, region| added(profile, name, instance, region, "H100");
    Scenario {
        reference_gpu: "H100".into(),
        reference_gpus: 32,
        job_classes: h100_training(),
        platforms: vec![
            on(
                Profile::Sagemaker,
                "SageMaker, p5",
                "p5.48xlarge",
                "us-east-1",
            ),
            on(Profile::Eks, "EKS, p5", "p5.48xlarge", "us-east-1"),
            on(
                Profile::AzureMl,
                "Azure ML, ND H100 v5",
                "Standard_ND96isr_H100_v5",
                "eastus",
            ),
            on(
                Profile::Aks,
                "AKS, ND H100 v5",
                "Standard_ND96isr_H100_v5",
                "eastus",
            ),
            on(
                Profile::GkeStandard,
                "GKE Standard, A3",
                "a3-highgpu-8g",
                "us-central1",
            ),
            on(
                Profile::GkeAutopilot,
                "GKE Autopilot, A3",
                "a3-highgpu-8g",
                "us-central1",
            ),
        ],
        ..Scenario::default()
    }
}

/// Eight-GPU fine-tunes most days, and a 32-GPU run every other day, checkpointed hourly, in
/// H100 hours (this preset's and `h100-six-clouds`').
pub(super) fn h100_training() -> Vec<JobClass> {
    vec![
        JobClass {
            name: "8-GPU fine-tune".into(),
            arrivals: Arrivals::Poisson { per_day: 4.0 },
            duration: Duration::LogNormal {
                median_hours: 6.0,
                p90_hours: 16.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 80.0,
            image_gb: 15.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            restart_overhead_s: 600.0,
            ..JobClass::default()
        },
        JobClass {
            name: "32-GPU training run".into(),
            arrivals: Arrivals::Poisson { per_day: 0.5 },
            duration: Duration::LogNormal {
                median_hours: 24.0,
                p90_hours: 48.0,
            },
            gpus_per_job: 32.0,
            gpu_memory_gb: 80.0,
            image_gb: 15.0,
            checkpoint_interval_min: 60.0,
            checkpoint_write_s: 300.0,
            restart_overhead_s: 900.0,
            ..JobClass::default()
        },
    ]
}
