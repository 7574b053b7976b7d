//! GKE Standard.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// GKE Standard's defaults.
pub const GKE_STANDARD: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Kubernetes,
    places_nodes_together: Fact {
        value: false,
        source: "assumption: a node pool without a compact placement policy unless one is set",
    },
    serving: None,
    defaults: &[
        set("fee_usd_per_cluster_hour", Num(0.10), "GKE management fee: $0.10 per cluster-hour"),
        set("provisioning_median_s", Num(240.0), "assumption: the cluster autoscaler launches a node for pending pods directly, like Karpenter"),
        set("provisioning_p90_s", Num(480.0), "assumption: twice the median, as for the other profiles"),
        set("gang_scheduling", Flag(false), "assumption: no gang scheduler installed (Volcano or Kueue are added by hand)"),
        set("ops_fte", Num(0.5), "assumption: ½ FTE, like EKS (seed 001)"),
    ],
};
