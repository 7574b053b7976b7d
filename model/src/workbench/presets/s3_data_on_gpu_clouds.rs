//! The `s3-data-on-gpu-clouds` preset: egress-heavy H100 training whose data stays in S3,
//! trained beside it on AWS or on a GPU cloud that charges no egress.

use super::shared::added;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Eight-GPU H100 training, two jobs a day, each attempt reading 2 TB from one S3 bucket in
/// us-east-1 and sending 200 GB of results out: EKS beside the bucket (an S3 gateway
/// endpoint: no transfer), and CoreWeave, Lambda and Nebius, which charge nothing for their
/// own egress but read the data from S3, which AWS bills as internet egress ($0.09/GB at its
/// first tier, some 120 TB a month). On demand, as the page adds platforms.
pub(super) fn scenario() -> Scenario {
    let on = |profile, name: &str, instance, region: &str| {
        let mut p = added(profile, name, instance, region, "H100");
        p.region = region.into();
        p
    };
    Scenario {
        reference_gpu: "H100".into(),
        reference_gpus: 32,
        data_region: "us-east-1".into(),
        job_classes: vec![JobClass {
            name: "8-GPU training on S3 data".into(),
            arrivals: Arrivals::Poisson { per_day: 2.0 },
            duration: Duration::LogNormal {
                median_hours: 8.0,
                p90_hours: 16.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 80.0,
            image_gb: 15.0,
            data_read_gb_per_attempt: 2_000.0,
            egress_gb_per_job: 200.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            restart_overhead_s: 600.0,
            ..JobClass::default()
        }],
        platforms: vec![
            on(
                Profile::Eks,
                "EKS beside the bucket",
                "p5.48xlarge",
                "us-east-1",
            ),
            on(
                Profile::CoreweaveCks,
                "CoreWeave CKS, reading S3",
                "gd-8xh100ib-i128",
                "US-EAST-04",
            ),
            on(
                Profile::LambdaOnDemand,
                "Lambda on demand, reading S3",
                "gpu_8x_h100_sxm5",
                "us-midwest-1",
            ),
            on(
                Profile::NebiusMk8s,
                "Nebius Kubernetes, reading S3",
                "gpu-h100-sxm_8gpu-128vcpu-1600gb",
                "eu-north1",
            ),
        ],
        ..Scenario::default()
    }
}
