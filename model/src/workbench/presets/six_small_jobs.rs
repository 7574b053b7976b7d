//! The `six-small-jobs` preset: 1-GPU fine-tunes: EKS spreading them over 8-GPU H100 nodes vs EKS
//! with a 1-GPU L40S pool beside its H100s vs SageMaker on a 1-GPU L40S (seed 001).

use super::shared::pool;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Placement, Scenario};

/// Seed 001's BNP Paribas case: six 1-GPU fine-tunes at a time, each needing 30 GB. Spread
/// over 8-GPU H100 nodes (what the seed describes: six jobs on six nodes), on an EKS cluster
/// with a pool of 1-GPU L40S nodes (g6e.xlarge, 44.7 GB) beside its H100s, where the jobs go
/// as the cheapest pool that fits, and on SageMaker on the 1-GPU instance a user would pick
/// for 30 GB (an A10G's 22 GB is too small). Version 2 gave SageMaker whole p5 instances.
pub(super) fn scenario() -> Scenario {
    let mut spread = Profile::Eks.platform("EKS, spread", "p5.48xlarge", "us-east-1");
    spread.placement = Placement::Spread;
    let mut pools = Profile::Eks.platform("EKS, H100 + L40S pools", "p5.48xlarge", "us-east-1");
    pools.first_pool_mut().name = "h100".into();
    pools
        .node_pools
        .push(pool(Profile::Eks, "l40s", "g6e.xlarge", "us-east-1"));
    let sagemaker = Profile::Sagemaker.platform("SageMaker", "g6e.xlarge", "us-east-1");
    Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "1-GPU fine-tune".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 4.0,
                jobs_per_burst: 6,
            },
            duration: Duration::LogNormal {
                median_hours: 3.0,
                p90_hours: 6.0,
            },
            gpus_per_job: 1.0,
            ..JobClass::default()
        }],
        platforms: vec![spread, pools, sagemaker],
        ..Scenario::default()
    }
}
