//! CoreWeave Kubernetes Service (CKS).

use super::setting::{set, Val::*, RESERVATION_AT_CLOUD_DISCOUNT};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// CKS's defaults.
pub const COREWEAVE_CKS: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Kubernetes,
    places_nodes_together: Fact {
        value: true,
        source: "CoreWeave's HGX nodes share one non-blocking, rail-optimized InfiniBand fat tree \
                 (docs.coreweave.com, HPC interconnect, read 2026-12-07): no node of a job is \
                 farther than another",
    },
    serving: None,
    defaults: &[
        RESERVATION_AT_CLOUD_DISCOUNT,
        set("fee_usd_per_cluster_hour", Num(0.0), "CoreWeave pricing page: \"CoreWeave Kubernetes Service Control Plane … Free\" (as transcribed 2026-09-20 in api-evangelist/coreweave at 27bcc25)"),
        set("provisioning_median_s", Num(600.0), "assumption: a node pool grows by bare-metal nodes, which boot and pass health checks more slowly than a VM: twice a VM's 5 minutes"),
        set("provisioning_p90_s", Num(1_200.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(600.0), "assumption: a node pool's autoscaler keeps an idle node 10 minutes, as Kubernetes' cluster autoscaler does by default"),
        set("ops_fte", Num(0.5), "assumption: ½ FTE to run a Kubernetes cluster with a batch scheduler, as seed 001's EKS (the control plane is CoreWeave's)"),
    ],
};
