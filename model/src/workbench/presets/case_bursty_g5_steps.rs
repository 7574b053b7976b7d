//! The `case-bursty-g5-steps` preset: Case study (seed 004): bursty 1-GPU g5 jobs on AWS Batch, one
//! fix at a time: cold nodes, then the image cache, then a warm window, then 4-GPU nodes.

use super::shared::on;
use crate::model::platforms::Profile;
use crate::model::scenario::Scenario;

/// Seed 004's bursty GPU jobs on AWS Batch, one fix at a time, each platform adding one to
/// the one before: 1, cold nodes (every job pulls the image, nodes leave when idle); 2, the
/// image cache kept (`ECS_IMAGE_CLEANUP_ENABLED=false`) but nodes still leaving at once;
/// 3, a warm window that keeps idle nodes; 4, 4-GPU g5.12xlarge nodes in place of 1-GPU
/// g5.xlarge. Assumed where it is silent (the article gives no numbers): the workload of
/// `bursty-g5-warm-pool` (6 bursts a day of 12 one-GPU jobs of 6 minutes median, a 15 GB
/// image), a 30-minute warm window, Batch's defaults otherwise.
pub(super) fn scenario() -> Scenario {
    let step = |name: &str, instance: &str, cache: bool, window_s: f64| {
        let mut p = on(Profile::AwsBatch, name, instance, "us-east-1", "A100");
        p.first_pool_mut().image_cache = cache;
        p.first_pool_mut().warm_pool_window_s = window_s;
        p
    };
    let mut s = super::bursty_g5_warm_pool::scenario();
    s.reference_gpus = 12;
    s.platforms = vec![
        step("1 cold", "g5.xlarge", false, 0.0),
        step("2 + image cache", "g5.xlarge", true, 0.0),
        step("3 + warm window", "g5.xlarge", true, 1_800.0),
        step("4 + 4-GPU nodes", "g5.12xlarge", true, 1_800.0),
    ];
    s
}
