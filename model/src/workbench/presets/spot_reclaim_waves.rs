//! The `spot-reclaim-waves` preset: 4-node gang jobs on EKS spot p4d: interruptions node by node,
//! the same rate in reclaim waves with a capacity drought, and waves with a fall-back to on demand
//! (seed 002).

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Overflow, Scenario};

/// Seed 002's "a bidder at the same pool got an interrupt": spot capacity is reclaimed in
/// waves. Three EKS platforms on spot p4d.24xlarge, identical but for how interruptions come:
/// node by node at the default 0.005 per node-hour; the same mean rate with 80 % of it in
/// reclaim waves that each take half the pool and leave no spot capacity for 30 minutes
/// (assumptions: no public figure); and those waves with Karpenter's fall-back to on-demand
/// capacity. 32-GPU (4-node) gang jobs, checkpointed every 30 minutes in 5-minute writes (longer
/// than the notice); nodes fail as Meta's
/// fleet did, EFA between nodes, AWS's egress tiers, as the page's new platforms have them.
pub(super) fn scenario() -> Scenario {
    use crate::model::egress::EgressTiers;
    use crate::model::platforms::failing_as_meta_fleet;
    use crate::model::scaling::Interconnect;
    use crate::model::scenario::node_pool::SpotReclaims;
    let eks_spot = |name: &str, reclaims: SpotReclaims| {
        let mut p = failing_as_meta_fleet(Profile::Eks.platform(name, "p4d.24xlarge", "us-east-1"));
        for pool in &mut p.node_pools {
            pool.purchase.overflow = Overflow::Spot;
            pool.spot_reclaims = reclaims.clone();
        }
        p.interconnect = Interconnect::Efa;
        p.egress_tiers = EgressTiers::AwsInternet;
        p
    };
    let waves = SpotReclaims {
        share_of_rate: 0.8,
        fraction_of_nodes: 0.5,
        capacity_drought_min: 30.0,
        fall_back_to_on_demand: false,
    };
    let falling_back = SpotReclaims {
        fall_back_to_on_demand: true,
        ..waves.clone()
    };
    Scenario {
        reference_gpus: 64,
        job_classes: vec![JobClass {
            name: "32-GPU gang training".into(),
            arrivals: Arrivals::Poisson { per_day: 3.0 },
            duration: Duration::LogNormal {
                median_hours: 8.0,
                p90_hours: 16.0,
            },
            gpus_per_job: 32.0,
            gpu_memory_gb: 40.0,
            image_gb: 15.0,
            checkpoint_interval_min: 30.0,
            // Longer than the 2-minute notice: an interrupted job loses its work since the
            // last checkpoint.
            checkpoint_write_s: 300.0,
            restart_overhead_s: 600.0,
            ..JobClass::default()
        }],
        platforms: vec![
            eks_spot("EKS spot, node by node", SpotReclaims::default()),
            eks_spot("EKS spot, reclaim waves", waves),
            eks_spot("EKS spot, waves, on-demand fall-back", falling_back),
        ],
        ..Scenario::default()
    }
}
