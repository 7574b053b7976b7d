//! Small scenarios the model's unit tests start from, built field by field here rather than
//! taken from the presets: a preset may be re-tuned to its story, a test's fixture must not
//! move under it.

use super::platforms::Profile;
use super::scenario::{Arrivals, Duration, FailureKind, Failures, JobClass, Overflow, Scenario};

/// AWS Batch on demand, EKS on spot and SageMaker, each on p4d.24xlarge in us-east-1, for a
/// 32-GPU reference cluster running the default class of 8-GPU training jobs (Poisson, 12 a
/// day, log-normal 4 h median, 12 h 90th percentile, checkpoints every 30 min).
pub fn three_platforms() -> Scenario {
    let batch = Profile::AwsBatch.platform("AWS Batch on-demand", "p4d.24xlarge", "us-east-1");
    let mut eks = Profile::Eks.platform("EKS spot", "p4d.24xlarge", "us-east-1");
    eks.first_pool_mut().purchase.overflow = Overflow::Spot;
    let sagemaker = Profile::Sagemaker.platform("SageMaker", "p4d.24xlarge", "us-east-1");
    Scenario {
        reference_gpus: 32,
        job_classes: vec![JobClass::default()],
        platforms: vec![batch, eks, sagemaker],
        ..Scenario::default()
    }
}

/// Nightly retrains on spot: bursts of 12 jobs a day (log-normal 6 h median, 10 h 90th
/// percentile), checkpoints of 300 s every 60 min and 45-minute restarts, on AWS Batch spot
/// and on demand (p4d.24xlarge) and GKE Standard spot (a2-highgpu-8g), spot at 0.02
/// interruptions per node-hour, for 96 reference GPUs.
pub fn nightly_spot_retrains() -> Scenario {
    let mut spot = Profile::AwsBatch.platform("Batch spot", "p4d.24xlarge", "us-east-1");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    spot.first_pool_mut().spot_interruptions_per_node_hour = 0.02;
    let on_demand = Profile::AwsBatch.platform("Batch on-demand", "p4d.24xlarge", "us-east-1");
    let mut gke =
        Profile::GkeStandard.platform("GKE Standard spot", "a2-highgpu-8g", "us-central1");
    gke.first_pool_mut().purchase.overflow = Overflow::Spot;
    gke.first_pool_mut().spot_interruptions_per_node_hour = 0.02;
    Scenario {
        reference_gpus: 96,
        job_classes: vec![JobClass {
            name: "Nightly retrain".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 1.0,
                jobs_per_burst: 12,
            },
            duration: Duration::LogNormal {
                median_hours: 6.0,
                p90_hours: 10.0,
            },
            restart_overhead_s: 2_700.0,
            checkpoint_interval_min: 60.0,
            checkpoint_write_s: 300.0,
            ..JobClass::default()
        }],
        platforms: vec![spot, on_demand, gke],
        ..Scenario::default()
    }
}

/// The default class with 40 % of its jobs broken (deterministic failures, two retries), on
/// AWS Batch (p4d.24xlarge) and GKE Standard (a2-highgpu-8g), for 32 reference GPUs.
pub fn broken_dependencies() -> Scenario {
    let batch = Profile::AwsBatch.platform("AWS Batch", "p4d.24xlarge", "us-east-1");
    let gke = Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-8g", "us-central1");
    let class = JobClass {
        name: "Experiment".into(),
        failures: Failures {
            probability: 0.4,
            kind: FailureKind::Deterministic,
            max_retries: 2,
            ..Failures::default()
        },
        ..JobClass::default()
    };
    Scenario {
        reference_gpus: 32,
        job_classes: vec![class],
        platforms: vec![batch, gke],
        ..Scenario::default()
    }
}

/// Three AWS Batch platforms on p4d.24xlarge for 32 reference GPUs and the default class: half
/// the reference reserved with spot beyond it, all spot, and all on demand.
pub fn reserved_base_and_spot() -> Scenario {
    let mut mixed = Profile::AwsBatch.platform("Reserved base + spot", "p4d.24xlarge", "us-east-1");
    mixed.first_pool_mut().purchase.reserved_share = 0.5;
    mixed.first_pool_mut().purchase.overflow = Overflow::Spot;
    let mut spot = Profile::AwsBatch.platform("All spot", "p4d.24xlarge", "us-east-1");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    let on_demand = Profile::AwsBatch.platform("All on-demand", "p4d.24xlarge", "us-east-1");
    Scenario {
        reference_gpus: 32,
        job_classes: vec![JobClass::default()],
        platforms: vec![mixed, spot, on_demand],
        ..Scenario::default()
    }
}
