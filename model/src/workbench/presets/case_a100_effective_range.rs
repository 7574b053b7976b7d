//! The `case-a100-effective-range` preset: Case study (seed 000): the same A100 retrains on p4d
//! with AWS Batch at the two ends of an effective-cost range: spot with few interruptions beside
//! the data, and on demand reading it from another region through a NAT gateway.

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Overflow, Scenario};

/// Seed 000's Snap review: "Our A100 effective cost ranges from $1.84 to $3.90 depending on
/// Spot stability, job duration, and data locality." The same 8-GPU retrains on p4d.24xlarge
/// with AWS Batch at the range's two ends: spot in us-east-1 with interruptions in the Spot
/// Advisor's lowest band (under 5 % of nodes in a month) beside the data; and on demand in
/// us-west-2 reading the data in us-east-1 through a NAT gateway. Assumed where it is silent:
/// 8-GPU retrains of 2 hours median (6 at the 90th percentile), twelve a day, each attempt
/// reading 150 GB (an ImageNet), checkpointed every 30 minutes; the catalog's 2026 prices.
pub(super) fn scenario() -> Scenario {
    use crate::model::transfer::DataPath;
    let mut stable = Profile::AwsBatch.platform(
        "Batch spot, stable, beside its data",
        "p4d.24xlarge",
        "us-east-1",
    );
    stable.region = "us-east-1".into();
    let pool = stable.first_pool_mut();
    pool.purchase.overflow = Overflow::Spot;
    // Under 5 % of nodes interrupted in a 730-hour month.
    pool.spot_interruptions_per_node_hour = -(0.95_f64.ln()) / 730.0;
    let mut far = Profile::AwsBatch.platform(
        "Batch on demand, data in another region",
        "p4d.24xlarge",
        "us-west-2",
    );
    far.region = "us-west-2".into();
    far.data_path = DataPath::NatGateway;
    Scenario {
        reference_gpus: 32,
        data_region: "us-east-1".into(),
        job_classes: vec![JobClass {
            name: "8-GPU retrain".into(),
            arrivals: Arrivals::Poisson { per_day: 12.0 },
            duration: Duration::LogNormal {
                median_hours: 2.0,
                p90_hours: 6.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 40.0,
            data_read_gb_per_attempt: 150.0,
            checkpoint_interval_min: 30.0,
            ..JobClass::default()
        }],
        platforms: vec![stable, far],
        ..Scenario::default()
    }
}
