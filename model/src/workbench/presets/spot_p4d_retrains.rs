//! The `spot-p4d-retrains` preset: Nightly p4d retrains of 12 experiments on spot with 45-minute
//! restarts (seed 000).

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Overflow, Scenario};

pub(super) fn scenario() -> Scenario {
    let mut spot = Profile::AwsBatch.platform("Batch spot", "p4d.24xlarge", "us-east-1");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    spot.first_pool_mut().spot_interruptions_per_node_hour = 0.02;
    let on_demand = Profile::AwsBatch.platform("Batch on-demand", "p4d.24xlarge", "us-east-1");
    let mut gke =
        Profile::GkeStandard.platform("GKE Standard spot", "a2-highgpu-8g", "us-central1");
    gke.first_pool_mut().purchase.overflow = Overflow::Spot;
    gke.first_pool_mut().spot_interruptions_per_node_hour = 0.02;
    Scenario {
        reference_gpus: 96,
        job_classes: vec![JobClass {
            name: "Nightly retrain".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 1.0,
                jobs_per_burst: 12,
            },
            duration: Duration::LogNormal {
                median_hours: 6.0,
                p90_hours: 10.0,
            },
            restart_overhead_s: 2_700.0,
            checkpoint_interval_min: 60.0,
            checkpoint_write_s: 300.0,
            ..JobClass::default()
        }],
        platforms: vec![spot, on_demand, gke],
        ..Scenario::default()
    }
}
