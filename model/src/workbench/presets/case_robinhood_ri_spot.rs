//! The `case-robinhood-ri-spot` preset: Case study (seed 000): g5.48xlarge on AWS Batch with a
//! 1-year reserved base and spot overflow, accepting idle reserved nodes, vs a comparable GKE L4
//! cluster on a committed-use discount.

use crate::model::catalog;
use crate::model::platforms::Profile;
use crate::model::scenario::{Duration, JobClass, Overflow, Scenario};

/// Seed 000's Robinhood story as the article states it: AWS Batch on g5.48xlarge (8 A10G)
/// with 1-year convertible reserved instances for the base load and spot for the overflow,
/// accepting idle reserved capacity; a comparable GKE workload on a committed-use discount.
/// Assumed where it is silent: the reservation's discount is the reference data's 1-year
/// figure (37 %; no AWS convertible rate for g5 was found); half the reference cluster
/// reserved; 8-GPU jobs of 4 hours median (10 at the 90th percentile) for 70 % of 64 A10Gs;
/// GKE on g2-standard-96 (8 L4), half reserved the same way, on demand beyond.
pub(super) fn scenario() -> Scenario {
    let reserve_half = |mut p: crate::model::scenario::Platform, overflow: Overflow| {
        let pool = p.first_pool_mut();
        pool.purchase.reserved_share = 0.5;
        pool.purchase.term_years = 1;
        pool.purchase.overflow = overflow;
        p
    };
    let batch = reserve_half(
        Profile::AwsBatch.platform_on(
            "Batch, reserved base + spot",
            catalog::find("g5.48xlarge", "us-east-1").expect("g5.48xlarge"),
            "A10G",
        ),
        Overflow::Spot,
    );
    let gke = reserve_half(
        Profile::GkeStandard.platform_on(
            "GKE, committed base + on demand",
            catalog::find("g2-standard-96", "us-central1").expect("g2-standard-96"),
            "A10G",
        ),
        Overflow::OnDemand,
    );
    let scenario = Scenario {
        reference_gpus: 64,
        reference_gpu: "A10G".into(),
        job_classes: vec![JobClass {
            name: "Crypto-model training".into(),
            duration: Duration::LogNormal {
                median_hours: 4.0,
                p90_hours: 10.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 20.0,
            ..JobClass::default()
        }],
        platforms: vec![batch, gke],
        ..Scenario::default()
    };
    scenario
        .with_offered_utilization(0.7)
        .expect("a workload to scale")
}
