//! EKS with Karpenter and Volcano.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// EKS's defaults.
pub const EKS: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Kubernetes,
    places_nodes_together: Fact {
        value: false,
        source: "seed 001: the EKS scheduler scattered a 64-GPU job's pods (78 % against SageMaker's 92 %)",
    },
    serving: None,
    defaults: &[
        set("fee_usd_per_cluster_hour", Num(0.10), "EKS standard support: $0.10 per cluster-hour"),
        set("provisioning_median_s", Num(240.0), "assumption: Karpenter launches a node for pending pods directly, a minute sooner than a batch service's compute environment"),
        set("provisioning_p90_s", Num(480.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(300.0), "assumption: Karpenter consolidation after 5 min"),
        set("ops_fte", Num(0.5), "seed 001: ½ FTE to run EKS"),
    ],
};
