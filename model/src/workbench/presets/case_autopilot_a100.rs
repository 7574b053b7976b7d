//! The `case-autopilot-a100` preset: Case study (seed 000): A100 training runs on GKE Autopilot
//! at list prices, billed per second, with 30–45 s provisioning and throttled dataset pulls, vs
//! GKE Standard, the work sized from the article's $47,000 month of overhead.

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Seed 000's Autopilot story as the article states it: A100 training runs on GKE Autopilot
/// with 30–45 s node provisioning and dataset pulls from Cloud Storage throttled, $47,000 in a
/// month; GKE Standard with custom node pools beside it. Priced as Google bills it: the
/// a2-highgpu-1g list price of the catalog (2026-07-30), Autopilot's node-based premium (the
/// profile's), and per-second billing with no minimum on Autopilot (Google's GKE pricing page:
/// "charged in 1 second increments, there is no minimum charge"), not the article's 30-minute
/// increments. Assumed where it is silent: 1-GPU runs of 20 minutes median (an hour at the
/// 90th percentile), each reading 150 GB (an ImageNet) at 0.25 GB/s a node on Autopilot and
/// 1.25 on Standard; 845 runs a day, the work ($47,000 ÷ $3.80 = 12,368 useful A100-hours a
/// month, 406.6 a day, at a mean run of 0.481 h) the article's two figures imply.
pub(super) fn scenario() -> Scenario {
    use crate::model::storage::{DataStaging, StorageProduct};
    let reading_at = |mut p: crate::model::scenario::Platform, node_read: f64| {
        p.staging = DataStaging {
            storage: StorageProduct::ObjectStore,
            node_read_gb_per_s: node_read,
            ..DataStaging::default()
        };
        p
    };
    let mut autopilot = reading_at(
        Profile::GkeAutopilot.platform("GKE Autopilot", "a2-highgpu-1g", "us-central1"),
        0.25,
    );
    autopilot.billing.granularity_s = 1;
    autopilot.billing.minimum_s = 60;
    autopilot.provisioning_median_s = 37.5;
    autopilot.provisioning_p90_s = 45.0;
    let standard = reading_at(
        Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-1g", "us-central1"),
        1.25,
    );
    Scenario {
        reference_gpus: 40,
        job_classes: vec![JobClass {
            name: "Vision training run".into(),
            arrivals: Arrivals::Poisson { per_day: 1_889.0 },
            duration: Duration::LogNormal {
                median_hours: 1.0 / 3.0,
                p90_hours: 1.0,
            },
            gpus_per_job: 1.0,
            gpu_memory_gb: 40.0,
            data_read_gb_per_attempt: 150.0,
            egress_gb_per_job: 0.0,
            checkpoint_interval_min: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![autopilot, standard],
        ..Scenario::default()
    }
}
