//! The `batch-vs-eks-spot` preset: 8-GPU training jobs: AWS Batch on-demand vs EKS on spot vs
//! SageMaker.

use super::shared::training_class;
use crate::model::platforms::Profile;
use crate::model::scenario::{Overflow, Scenario};

pub(super) fn scenario() -> Scenario {
    let batch = Profile::AwsBatch.platform("AWS Batch on-demand", "p4d.24xlarge", "us-east-1");
    let mut eks = Profile::Eks.platform("EKS spot", "p4d.24xlarge", "us-east-1");
    eks.first_pool_mut().purchase.overflow = Overflow::Spot;
    let sagemaker = Profile::Sagemaker.platform("SageMaker", "p4d.24xlarge", "us-east-1");
    Scenario {
        reference_gpus: 32,
        job_classes: vec![training_class()],
        platforms: vec![batch, eks, sagemaker],
        ..Scenario::default()
    }
}
