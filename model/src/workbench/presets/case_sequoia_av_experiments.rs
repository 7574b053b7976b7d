//! The `case-sequoia-av-experiments` preset: Case study (seed 000): an AV startup's daily 6-hour
//! retrain and the 12 experiments of 18 minutes that come with it, each on a CUDA image of its own,
//! 40 % failing on dependency conflicts, on GKE A100 nodes.

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, FailureKind, Failures, JobClass, Scenario};

/// Seed 000's AV startup as the article states it: a 6-hour daily training window (one
/// production retrain a day) and 12 experiments for every retrain, each of 18 minutes on
/// average and on a CUDA version of its own (no image is reused: the pool keeps no cache),
/// 40 % of them failing on dependency conflicts (a broken job fails every attempt). Assumed
/// where it is silent: GKE Standard on a2-highgpu-8g nodes bought as jobs need them, 8 GPUs
/// per job, the experiments' durations exponential, a failure anywhere in the run (the
/// same point on every attempt) and the model's default of two retries.
pub(super) fn scenario() -> Scenario {
    let mut gke = Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-8g", "us-central1");
    gke.first_pool_mut().image_cache = false;
    Scenario {
        reference_gpus: 16,
        job_classes: vec![
            JobClass {
                name: "Production retrain".into(),
                arrivals: Arrivals::Steady { per_day: 1.0 },
                duration: Duration::Fixed { hours: 6.0 },
                gpus_per_job: 8.0,
                gpu_memory_gb: 40.0,
                ..JobClass::default()
            },
            JobClass {
                name: "Experiment".into(),
                arrivals: Arrivals::Poisson { per_day: 12.0 },
                duration: Duration::Exponential { mean_hours: 0.3 },
                gpus_per_job: 8.0,
                gpu_memory_gb: 40.0,
                failures: Failures {
                    probability: 0.4,
                    kind: FailureKind::Deterministic,
                    ..Failures::default()
                },
                checkpoint_interval_min: 0.0,
                ..JobClass::default()
            },
        ],
        platforms: vec![gke],
        ..Scenario::default()
    }
}
