//! GKE Autopilot (GPU pods billed on the node's Compute Engine price plus a premium).

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// GKE Autopilot's defaults.
pub const GKE_AUTOPILOT: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Kubernetes,
    places_nodes_together: Fact {
        value: false,
        source: "assumption: Autopilot provisions nodes per workload, with no compact placement unless asked",
    },
    serving: None,
    defaults: &[
        set("fee_usd_per_cluster_hour", Num(0.10), "GKE management fee: $0.10 per cluster-hour"),
        set("service_premium_pct", Num(10.0), "GPU pods: node price plus a small Autopilot premium; 10 % assumed"),
        set("placement", Choice("spread"), "assumption: Autopilot provisions nodes per workload (spread)"),
        set("gang_scheduling", Flag(false), "assumption: no gang scheduler (Autopilot runs no Volcano or Kueue unless one is added)"),
        set("warm_pool_window_s", Num(300.0), "assumption: an empty node is removed after about 5 min"),
        set("ops_fte", Num(0.1), "assumption: 0.1 FTE"),
    ],
};
