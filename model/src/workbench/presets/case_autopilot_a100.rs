//! The `case-autopilot-a100` preset: Case study (seed 000): A100 training runs at the $2.10 an hour
//! a PM modelled, on GKE Autopilot with 30-minute billing increments, 30–45 s provisioning and
//! throttled dataset pulls, vs GKE Standard.

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Seed 000's Autopilot story as the article states it: A100s at the $2.10 an hour the PM
/// modelled, GKE Autopilot with 30–45 s node provisioning and 30-minute minimum billing
/// increments, and dataset pulls from Cloud Storage throttled; GKE Standard with custom node
/// pools beside it. Assumed where it is silent: 1-GPU runs (a2-highgpu-1g) of 20 minutes
/// median (90th percentile an hour), 240 a day, each reading 150 GB (an ImageNet) at
/// 0.25 GB/s a node on Autopilot and 1.25 on Standard; the $2.10 as the price paid on both,
/// Autopilot's premium in it.
pub(super) fn scenario() -> Scenario {
    use crate::model::storage::{DataStaging, StorageProduct};
    let at_modelled_price = |mut p: crate::model::scenario::Platform, node_read: f64| {
        for pool in &mut p.node_pools {
            pool.on_demand_usd_per_node_hour = 2.10;
            pool.service_premium_pct = 0.0;
        }
        p.staging = DataStaging {
            storage: StorageProduct::ObjectStore,
            node_read_gb_per_s: node_read,
            ..DataStaging::default()
        };
        p
    };
    let mut autopilot = at_modelled_price(
        Profile::GkeAutopilot.platform("GKE Autopilot", "a2-highgpu-1g", "us-central1"),
        0.25,
    );
    autopilot.billing.granularity_s = 1_800;
    autopilot.billing.minimum_s = 1_800;
    autopilot.provisioning_median_s = 37.5;
    autopilot.provisioning_p90_s = 45.0;
    let standard = at_modelled_price(
        Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-1g", "us-central1"),
        1.25,
    );
    Scenario {
        reference_gpus: 16,
        job_classes: vec![JobClass {
            name: "Vision training run".into(),
            arrivals: Arrivals::Poisson { per_day: 240.0 },
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
