//! Slurm on CoreWeave: SUNK (Slurm on Kubernetes, on CKS).

use super::setting::{set, Val::*, RESERVATION_AT_CLOUD_DISCOUNT};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// SUNK's defaults.
pub const COREWEAVE_SUNK: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Slurm,
    places_nodes_together: Fact {
        value: true,
        source: "CoreWeave's HGX nodes share one non-blocking, rail-optimized InfiniBand fat tree \
                 (docs.coreweave.com, HPC interconnect, read 2026-12-07); SUNK schedules on \
                 those nodes",
    },
    serving: None,
    defaults: &[
        RESERVATION_AT_CLOUD_DISCOUNT,
        set("tooling_usd_per_month", Num(2_452.8), "SUNK is free, \"Excludes CPU Resource Usage required to operate SUNK\" (CoreWeave pricing page, 2026-09-20 copy): assumption one CPU node for its controller and login pods, cd-gp-i96-icelake at $3.36 an hour (pricing page, 2026-10-10 copy), 730 hours"),
        set("provisioning_median_s", Num(600.0), "assumption: Slurm's nodes come from a CKS node pool of bare-metal nodes, as CKS's"),
        set("provisioning_p90_s", Num(1_200.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(600.0), "assumption: an idle node is released after 10 minutes, as Slurm's power saving is commonly set"),
        set("storage_read_slowdown_pct", Num(1.0), "seed 002: a parallel file system +1 % (CoreWeave Distributed File Storage, as FSx for Lustre)"),
        set("storage_usd_per_gb_month", Num(0.07 / 1.073_741_824), "CoreWeave Distributed File Storage, $0.07 a GB-month, its GB 2^30 bytes (Storage Pricing docs, 2026-10-10 copy), here per 10^9 bytes"),
        set("ops_fte", Num(0.5), "assumption: ½ FTE for a Slurm cluster, as ParallelCluster (SUNK's operator is CoreWeave's; its partitions and users are the team's)"),
    ],
};
