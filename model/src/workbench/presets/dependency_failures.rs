//! The `dependency-failures` preset: Experiments where 40 % of jobs hit a deterministic dependency
//! failure (seed 000).

use super::shared::training_class;
use crate::model::platforms::Profile;
use crate::model::scenario::{FailureKind, Failures, Scenario};

pub(super) fn scenario() -> Scenario {
    let batch = Profile::AwsBatch.platform("AWS Batch", "p4d.24xlarge", "us-east-1");
    let gke = Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-8g", "us-central1");
    let mut class = training_class();
    class.name = "Experiment".into();
    class.failures = Failures {
        probability: 0.4,
        kind: FailureKind::Deterministic,
        max_retries: 2,
        ..Failures::default()
    };
    Scenario {
        reference_gpus: 32,
        job_classes: vec![class],
        platforms: vec![batch, gke],
        ..Scenario::default()
    }
}
