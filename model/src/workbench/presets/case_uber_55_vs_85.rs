//! The `case-uber-55-vs-85` preset: Case study (seed 000): the same experiments on a static cluster
//! they keep 55 % busy and on one they keep 85 % busy, with the price of waiting at $100 an hour.

use crate::model::platforms::Profile;
use crate::model::scenario::{JobClass, Scenario};

/// Seed 000's Uber comparison as the article states it: clusters at 55 % and at 85 % raw
/// utilisation, compared on how fast experiments come back. Assumed where it is silent: two
/// static clusters of p4d.24xlarge (reserved, no autoscaling), 17 nodes and 11, the same
/// experiments on both (the default 8-GPU class: 4 hours median, 12 at the 90th percentile,
/// Poisson arrivals) at 55 % of the larger one, which is 85 % of the smaller (74.8 of 136
/// GPUs, of 88); a person waiting for each result at $100 an hour (the default FTE cost over
/// 2,000 hours). No overhead the article does not name: the GPUs read their data at full
/// speed and the experiments write no checkpoints, so a cluster "85 % busy" is 85 % occupied
/// (version 2 inherited a 12 % storage slowdown and 30-minute checkpoints, which made it 95 %).
pub(super) fn scenario() -> Scenario {
    use crate::model::scenario::People;
    let cluster = |name: &str, nodes: u32| {
        let mut p = Profile::ReservedCluster.platform(name, "p4d.24xlarge", "us-east-1");
        p.first_pool_mut().purchase.reserved_share = f64::from(nodes) / 17.0;
        p.storage_read_slowdown_pct = 0.0;
        p
    };
    let scenario = Scenario {
        reference_gpus: 136,
        job_classes: vec![JobClass {
            name: "Experiment".into(),
            checkpoint_interval_min: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![
            cluster("55 % busy, 17 nodes", 17),
            cluster("85 % busy, 11 nodes", 11),
        ],
        people: People {
            waiting_usd_per_hour: 100.0,
            ..People::default()
        },
        ..Scenario::default()
    };
    scenario
        .with_offered_utilization(0.55)
        .expect("a workload to scale")
}
