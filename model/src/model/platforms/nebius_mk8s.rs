//! Nebius Managed Service for Kubernetes.

use super::setting::{set, Val::*, RESERVATION_AT_CLOUD_DISCOUNT};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// Nebius Managed Kubernetes's defaults.
pub const NEBIUS_MK8S: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Kubernetes,
    places_nodes_together: Fact {
        value: true,
        source: "a node group's 8-GPU VMs join one GPU cluster on one InfiniBand fabric \
                 (Nebius GPU cluster docs and its Terraform solutions, read 2026-12-07)",
    },
    serving: None,
    defaults: &[
        RESERVATION_AT_CLOUD_DISCOUNT,
        set("fee_usd_per_cluster_hour", Num(0.0), "Nebius: the Managed Kubernetes control plane is free, nodes at compute prices (nebius.com/prices as transcribed 2026-10-07 in api-evangelist/nebius at 37bdedf)"),
        set("provisioning_median_s", Num(300.0), "assumption: the cluster autoscaler adds a VM to the node group, as on the hyperscalers"),
        set("provisioning_p90_s", Num(600.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(600.0), "assumption: Kubernetes' cluster autoscaler keeps an idle node 10 minutes by default"),
        set("ops_fte", Num(0.5), "assumption: ½ FTE to run a Kubernetes cluster with a batch scheduler, as seed 001's EKS"),
    ],
};
