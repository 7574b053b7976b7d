//! The `case-egress-10-tb` preset: Case study (seed 002): a 10 TB training run's data sent out to
//! the internet, from AWS and from Google Cloud.

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Seed 002's egress example: a 10 TB training run's data sent out to the internet once a
/// month, from AWS and from Google Cloud, each priced by its published tiers (the article
/// prices the 10 TB flat: $0.09 and $0.12 per GB). One job a month, on one node of each
/// cloud's default platform; its compute is beside the point.
pub(super) fn scenario() -> Scenario {
    use crate::model::egress::EgressTiers;
    let tiered = |mut p: crate::model::scenario::Platform| {
        p.egress_tiers = EgressTiers::of_cloud(p.cloud);
        p
    };
    Scenario {
        reference_gpus: 8,
        horizon_days: 730.0 / 24.0,
        replications: 20,
        job_classes: vec![JobClass {
            name: "10 TB training run".into(),
            arrivals: Arrivals::Steady {
                per_day: 24.0 / 730.0,
            },
            duration: Duration::Fixed { hours: 6.0 },
            gpus_per_job: 8.0,
            gpu_memory_gb: 40.0,
            egress_gb_per_job: 10_000.0,
            data_read_gb_per_attempt: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![
            tiered(Profile::AwsBatch.platform("AWS Batch", "p4d.24xlarge", "us-east-1")),
            tiered(Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-8g", "us-central1")),
        ],
        ..Scenario::default()
    }
}
