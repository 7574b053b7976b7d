//! The `commit-1y-vs-3y` preset: A100s on demand, on a 1-year or on a 3-year committed-use
//! discount, at 60 % utilisation (seeds 000, 002).

use crate::model::platforms::Profile;
use crate::model::scenario::{JobClass, Overflow, Scenario};

/// Seed 002's "GCP commitments (1-year or 3-year for 50–70% discount)" against seed 000's
/// "Show me what breaks at 40 %": a GKE Standard cluster of 8-GPU A100 nodes whose whole
/// reference size is committed for one year (37 % off) or three (65 % off), the GPU CUD
/// levels of the reference data, billed monthly with no upfront, overflow on demand; and all
/// on demand. The workload offers 60 % of the reference GPUs (move the utilisation slider to
/// 40 % or 85 % to see what breaks).
pub(super) fn scenario() -> Scenario {
    let on_demand = Profile::GkeStandard.platform("On demand", "a2-highgpu-8g", "us-central1");
    let committed = |name: &str, years: u32, discount: f64| {
        let mut p = Profile::GkeStandard.platform(name, "a2-highgpu-8g", "us-central1");
        let purchase = &mut p.first_pool_mut().purchase;
        purchase.reserved_share = 1.0;
        purchase.reserved_discount_pct = discount;
        purchase.term_years = years;
        purchase.overflow = Overflow::OnDemand;
        p
    };
    let class = JobClass {
        name: "Training".into(),
        ..JobClass::default()
    };
    let mut scenario = Scenario {
        reference_gpus: 32,
        job_classes: vec![class],
        platforms: vec![
            on_demand,
            committed("1-year CUD", 1, 37.0),
            committed("3-year CUD", 3, 65.0),
        ],
        ..Scenario::default()
    };
    scenario = scenario
        .with_offered_utilization(0.6)
        .expect("a workload to scale");
    scenario
}
