//! Slurm on Azure: Azure CycleCloud Workspace for Slurm.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// CycleCloud Workspace for Slurm's defaults.
pub const CYCLECLOUD_SLURM: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Slurm,
    places_nodes_together: Fact {
        value: true,
        source: "CycleCloud places an HPC partition's nodes in one scale set on one InfiniBand \
                 fabric",
    },
    serving: None,
    defaults: &[
        set("tooling_usd_per_month", Num(251.0), "CycleCloud Workspace for Slurm is free (Microsoft Learn quickstart, 2025-07-01); its CycleCloud and scheduler VMs run always: assumption two Standard_D4as_v5 at about $0.172 an hour each, $251 a month (the default sizes were not read)"),
        set("provisioning_median_s", Num(420.0), "assumption: Slurm resumes a powered-down node: the VM starts and joins the cluster, a couple of minutes more than a batch service's node"),
        set("provisioning_p90_s", Num(840.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(600.0), "assumption: Slurm powers a node down after 10 idle minutes (CycleCloud's autoscale idle time was not read)"),
        set("storage_read_slowdown_pct", Num(1.0), "seed 002: parallel file system +1 % (Azure Managed Lustre, as FSx for Lustre)"),
        set("storage_usd_per_gb_month", Num(0.20), "assumption: Azure Managed Lustre at 125 MB/s per TiB, about $0.20 a GB-month (no price page read; storage.rs), as FSx for Lustre for ParallelCluster"),
        set("ops_fte", Num(0.5), "assumption: ½ FTE for a self-run Slurm cluster, as ParallelCluster"),
    ],
};
