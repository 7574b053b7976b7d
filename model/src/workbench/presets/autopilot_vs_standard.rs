//! The `autopilot-vs-standard` preset: Short L4 experiments: GKE Autopilot vs GKE Standard.

use super::shared::on;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Short experiments on L4s, their durations measured on an L4 (the reference GPU). Version 1
/// measured the nodes against an A100, so each experiment ran 3.3 times as long as stated.
pub(super) fn scenario() -> Scenario {
    let autopilot = on(
        Profile::GkeAutopilot,
        "GKE Autopilot",
        "g2-standard-8",
        "us-central1",
        "L4",
    );
    let standard = on(
        Profile::GkeStandard,
        "GKE Standard",
        "g2-standard-48",
        "us-central1",
        "L4",
    );
    Scenario {
        reference_gpus: 8,
        reference_gpu: "L4".into(),
        job_classes: vec![JobClass {
            name: "Short experiment".into(),
            arrivals: Arrivals::Poisson { per_day: 120.0 },
            duration: Duration::LogNormal {
                median_hours: 0.25,
                p90_hours: 1.0,
            },
            gpus_per_job: 1.0,
            gpu_memory_gb: 16.0,
            image_gb: 8.0,
            checkpoint_interval_min: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![autopilot, standard],
        ..Scenario::default()
    }
}
