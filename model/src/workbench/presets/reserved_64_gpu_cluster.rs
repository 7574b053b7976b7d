//! The `reserved-64-gpu-cluster` preset: a reserved 64-GPU H100 cluster on a GPU cloud
//! against on-demand H100 nodes on AWS.

use super::h100_three_clouds::h100_training;
use super::shared::added;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, Scenario};

/// A team's H100 work, about a third of 64 GPUs on average with bursts above it: a Lambda
/// 1-Click Cluster of 64 GPUs (8 nodes at its published $5.85 an H100-hour, reserved whole),
/// a reserved cluster of 8 CoreWeave HGX H100 nodes (its 1-year contract price not published:
/// the assumed 30 % off list), and EKS on p5 on demand, scaling to the work. Jobs wait on the
/// reserved clusters when all 64 GPUs are busy; EKS grows to its node limit.
pub(super) fn scenario() -> Scenario {
    let on = |profile, name: &str, instance, region| added(profile, name, instance, region, "H100");
    let mut coreweave = on(
        Profile::ReservedCluster,
        "CoreWeave, reserved 64 GPUs",
        "gd-8xh100ib-i128",
        "US-EAST-04",
    );
    coreweave.first_pool_mut().max_nodes = 8;
    let mut lambda = on(
        Profile::Lambda1cc,
        "Lambda 1-Click Cluster, 64 GPUs",
        "1cc_h100_sxm5_64gpu",
        "us-midwest-1",
    );
    lambda.first_pool_mut().max_nodes = 8;
    // `h100-three-clouds`' classes, fewer and shorter 8-GPU jobs, fewer 32-GPU runs.
    let mut job_classes = h100_training();
    job_classes[0].name = "8-GPU experiment".into();
    job_classes[0].arrivals = Arrivals::Poisson { per_day: 4.0 };
    job_classes[0].duration = Duration::LogNormal {
        median_hours: 4.0,
        p90_hours: 10.0,
    };
    job_classes[1].arrivals = Arrivals::Poisson { per_day: 0.35 };
    Scenario {
        reference_gpu: "H100".into(),
        reference_gpus: 64,
        job_classes,
        platforms: vec![
            lambda,
            coreweave,
            on(
                Profile::Eks,
                "EKS, p5 on demand",
                "p5.48xlarge",
                "us-east-1",
            ),
        ],
        ..Scenario::default()
    }
}
