//! The `fsdp-64-gpu-scaling` preset: 64-GPU FSDP training on eight p5 nodes over EFA: SageMaker
//! places them together, EKS scatters them, EKS with a placement group (seed 001's 92 % vs 78 %).

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Seed 001's scaling test: a 64-GPU FSDP job on eight p5.48xlarge nodes reached 92 %
/// scaling efficiency on SageMaker and 78 % on EKS, "primarily because the K8s scheduler
/// scattered pods across nodes". The same workload (a 64-GPU run every other day, median
/// 24 h on the reference A100, checkpointed hourly) on SageMaker with its nodes placed
/// together, on EKS scattered, and on EKS with a cluster placement group: all on demand over
/// EFA, with the scaling-efficiency curve, nodes failing as Meta's fleet did, and AWS's
/// egress tiers, as the page's new platforms have them.
pub(super) fn scenario() -> Scenario {
    use crate::model::egress::EgressTiers;
    use crate::model::platforms::failing_as_meta_fleet;
    use crate::model::scaling::Interconnect;
    let on_p5 = |profile: Profile, name: &str, placed: bool| {
        let mut p = failing_as_meta_fleet(profile.platform(name, "p5.48xlarge", "us-east-1"));
        p.interconnect = Interconnect::Efa;
        p.compact_placement = placed;
        p.egress_tiers = EgressTiers::AwsInternet;
        p
    };
    Scenario {
        reference_gpus: 64,
        job_classes: vec![JobClass {
            name: "64-GPU FSDP training".into(),
            arrivals: Arrivals::Poisson { per_day: 0.5 },
            duration: Duration::LogNormal {
                median_hours: 24.0,
                p90_hours: 48.0,
            },
            gpus_per_job: 64.0,
            gpu_memory_gb: 80.0,
            image_gb: 15.0,
            checkpoint_interval_min: 60.0,
            checkpoint_write_s: 300.0,
            restart_overhead_s: 900.0,
            ..JobClass::default()
        }],
        platforms: vec![
            on_p5(Profile::Sagemaker, "SageMaker, nodes placed together", true),
            on_p5(Profile::Eks, "EKS, pods scattered", false),
            on_p5(Profile::Eks, "EKS, placement group", true),
        ],
        ..Scenario::default()
    }
}
