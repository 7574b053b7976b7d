//! The `eks-vs-sagemaker-tco` preset: Seed 001's TCO table: 100 GPU-hours of training a day,
//! SageMaker with its tools vs EKS with ½ FTE of ops, add-ons and the same storage.

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Seed 001's TCO table as the article states it: 100 GPU-hours of training a day; storage
/// and networking $1,200 a month on both; ops ½ FTE on EKS at $3,500 a month (an FTE at
/// $84,000 a year) and none on SageMaker; tools and add-ons $500 on SageMaker and $1,200 on
/// EKS. Assumed where it is silent: A100s (p4d.24xlarge, us-east-1), as 8-GPU jobs of 2.5
/// hours, five a day; the storage as S3 at $0.023/GB. Version 2 ran 32-GPU jobs of 12 hours
/// twice a day, twenty times the table's compute, and so showed EKS cheaper.
pub(super) fn scenario() -> Scenario {
    let with = |mut p: crate::model::scenario::Platform, ops_fte: f64, tools: f64| {
        p.ops_fte = ops_fte;
        p.tooling_usd_per_month = tools;
        p.storage_gb = 1_200.0 / 0.023;
        p.storage_usd_per_gb_month = 0.023;
        p
    };
    let eks = with(
        Profile::Eks.platform("EKS", "p4d.24xlarge", "us-east-1"),
        0.5,
        1_200.0,
    );
    let sagemaker = with(
        Profile::Sagemaker.platform("SageMaker", "p4d.24xlarge", "us-east-1"),
        0.0,
        500.0,
    );
    let mut s = Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "Training".into(),
            arrivals: Arrivals::Poisson { per_day: 5.0 },
            duration: Duration::Fixed { hours: 2.5 },
            gpus_per_job: 8.0,
            gpu_memory_gb: 40.0,
            egress_gb_per_job: 0.0,
            data_read_gb_per_attempt: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![eks, sagemaker],
        ..Scenario::default()
    };
    s.people.fte_cost_usd_per_year = 84_000.0;
    s
}
