//! The `bursty-g5-warm-pool` preset: Bursty 1-GPU g5 jobs on AWS Batch: cold nodes vs a warm pool
//! with an image cache (seed 004).

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

pub(super) fn scenario() -> Scenario {
    let mut cold = Profile::AwsBatch.platform("Batch, cold nodes", "g5.xlarge", "us-east-1");
    cold.first_pool_mut().warm_pool_window_s = 0.0;
    cold.first_pool_mut().image_cache = false;
    let mut warm = Profile::AwsBatch.platform(
        "Batch, warm pool + cache on 4-GPU nodes",
        "g5.12xlarge",
        "us-east-1",
    );
    warm.first_pool_mut().warm_pool_window_s = 1_800.0;
    warm.first_pool_mut().image_cache = true;
    Scenario {
        reference_gpus: 4,
        job_classes: vec![JobClass {
            name: "Inference batch".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 6.0,
                jobs_per_burst: 12,
            },
            duration: Duration::LogNormal {
                median_hours: 0.1,
                p90_hours: 0.3,
            },
            gpus_per_job: 1.0,
            gpu_memory_gb: 16.0,
            image_gb: 15.0,
            data_read_gb_per_attempt: 5.0,
            egress_gb_per_job: 0.5,
            checkpoint_interval_min: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![cold, warm],
        ..Scenario::default()
    }
}
