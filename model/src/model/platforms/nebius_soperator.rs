//! Slurm on Nebius: Managed Soperator (Slurm on Kubernetes).

use super::setting::{set, Val::*, RESERVATION_AT_CLOUD_DISCOUNT};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// Managed Soperator's defaults.
pub const NEBIUS_SOPERATOR: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Slurm,
    places_nodes_together: Fact {
        value: true,
        source: "Soperator's workers are 8-GPU VMs of one GPU cluster on one InfiniBand fabric \
                 (Nebius's Soperator solution, read 2026-12-07)",
    },
    serving: None,
    defaults: &[
        RESERVATION_AT_CLOUD_DISCOUNT,
        set("tooling_usd_per_month", Num(1_189.8), "Managed Soperator is free but needs its service nodes: 2 controllers, 1 accounting and 3 system nodes of 8 vCPU and 32 GiB each, with 2,816 GiB of network SSD and 1,024 GiB of IO M3 (docs.nebius.com, Managed Soperator service nodes, read 2026-12-07): 6 × $0.1984 an hour × 730 h = $869.0 of CPU and 2,816 × $0.071 + 1,024 × $0.118 = $320.8 of disks a month at the prices before 2026-10-01 (assumption: October's CPU prices, some 30 % higher, not counted)"),
        set("provisioning_median_s", Num(300.0), "assumption: a worker VM starts and joins the cluster, as a batch service's node"),
        set("provisioning_p90_s", Num(600.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(600.0), "assumption: an idle worker is released after 10 minutes"),
        set("storage_read_slowdown_pct", Num(1.0), "seed 002: a shared file system +1 % (Nebius Shared Filesystem, as FSx for Lustre)"),
        set("storage_usd_per_gb_month", Num(0.08 / 1.073_741_824), "Nebius Shared Filesystem, $0.08 per GiB-month (nebius.com/prices, 2026-10-07 copy), here per GB"),
        set("ops_fte", Num(0.25), "assumption: ¼ FTE: Nebius runs Managed Soperator's controllers, half of a self-run Slurm cluster's ½"),
    ],
};
