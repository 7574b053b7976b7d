//! AKS (Azure Kubernetes Service) with Kueue.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// AKS's defaults.
pub const AKS: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Kubernetes,
    places_nodes_together: Fact {
        value: false,
        source: "assumption: a node pool is one scale set, but the scheduler spreads a job's \
                 pods unless Kueue's topology-aware scheduling is set up, as on EKS (seed 001)",
    },
    serving: None,
    defaults: &[
        set("fee_usd_per_cluster_hour", Num(0.10), "AKS Standard tier: $0.10 per cluster-hour, with the uptime SLA production clusters take (a third-party summary of the AKS price page, read 2026-12-07; the tiers: azure-aks-docs free-standard-pricing-tiers.md, 2026-07-06). The Free tier costs $0 with no SLA, recommended under 10 nodes: set the fee to 0 for it; Premium adds long-term support"),
        set("provisioning_median_s", Num(300.0), "assumption: the cluster autoscaler grows the node pool's scale set, then the GPU driver starts, as a batch service's node"),
        set("provisioning_p90_s", Num(600.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(600.0), "AKS cluster autoscaler profile: scale-down-unneeded-time 10 minutes by default"),
        set("ops_fte", Num(0.5), "assumption: ½ FTE to run a Kubernetes cluster with Kueue, as seed 001's EKS"),
    ],
};
