//! The `case-snap-p4d-spot` preset: Case study (seed 000): Snap's 6-hour p4d retrains on Batch, on
//! demand vs spot at 62 % off, 12 % of nodes interrupted in a month, 45-minute restarts.

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Overflow, Scenario};

/// Seed 000's Snap story as the article states it: 6-hour retrains on one p4d.24xlarge in
/// us-west-2 on AWS Batch, on demand against spot at the article's 62 % off, with 12 % of
/// spot nodes interrupted in a month (λ = −ln(1 − 0.12) ÷ 730 per node-hour, the monthly
/// share the Spot Advisor's bands mean) and 45 minutes of checkpoint-restart overhead each
/// time. Assumed where it is silent: one retrain a day, a checkpoint every 30 minutes taking
/// a minute, a fixed 6-hour run.
pub(super) fn scenario() -> Scenario {
    let batch = |name: &str, overflow: Overflow| {
        let mut p = Profile::AwsBatch.platform(name, "p4d.24xlarge", "us-west-2");
        let pool = p.first_pool_mut();
        pool.purchase.overflow = overflow;
        pool.spot_usd_per_node_hour = pool.on_demand_usd_per_node_hour * (1.0 - 0.62);
        pool.spot_interruptions_per_node_hour = -libm::log(1.0 - 0.12) / 730.0;
        p
    };
    Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "Video-ranking retrain".into(),
            arrivals: Arrivals::Steady { per_day: 1.0 },
            duration: Duration::Fixed { hours: 6.0 },
            gpus_per_job: 8.0,
            gpu_memory_gb: 40.0,
            restart_overhead_s: 2_700.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            ..JobClass::default()
        }],
        platforms: vec![
            batch("Batch on demand", Overflow::OnDemand),
            batch("Batch spot", Overflow::Spot),
        ],
        ..Scenario::default()
    }
}
