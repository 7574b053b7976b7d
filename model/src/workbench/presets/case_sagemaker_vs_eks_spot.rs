//! The `case-sagemaker-vs-eks-spot` preset: Case study (seed 001): the same A100 training on
//! spot with SageMaker's managed spot training and with EKS.

use crate::model::platforms::Profile;
use crate::model::scenario::{Duration, JobClass, Overflow, Scenario};

/// Seed 001: "Spot is cheaper per hour, but SageMaker's automatic preemption recovery means
/// you waste less time from interruptions. Our total cost analysis shows SageMaker is often
/// 10-20% cheaper when you account for wasted compute." The same 8-GPU training on
/// p4d.24xlarge spot in us-east-1, with SageMaker (its +15 % instance premium, instances of
/// its own per job) and with EKS. Assumed where it is silent: both recover the same way, from
/// a checkpoint written every 30 minutes (the model has no recovery of SageMaker's own); the
/// default training class (4 hours median, 12 at the 90th percentile) at 60 % of 64 A100s;
/// each profile's spot interruption rate, people and fees.
pub(super) fn scenario() -> Scenario {
    let spot = |profile: Profile, name: &str| {
        let mut p = profile.platform(name, "p4d.24xlarge", "us-east-1");
        p.first_pool_mut().purchase.overflow = Overflow::Spot;
        p
    };
    let scenario = Scenario {
        reference_gpus: 64,
        job_classes: vec![JobClass {
            name: "8-GPU training".into(),
            duration: Duration::LogNormal {
                median_hours: 4.0,
                p90_hours: 12.0,
            },
            ..JobClass::default()
        }],
        platforms: vec![
            spot(Profile::Sagemaker, "SageMaker managed spot"),
            spot(Profile::Eks, "EKS spot"),
        ],
        ..Scenario::default()
    };
    scenario
        .with_offered_utilization(0.6)
        .expect("a workload to scale")
}
