//! AWS ParallelCluster (Slurm).

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// ParallelCluster's defaults.
pub const PARALLEL_CLUSTER: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::Slurm,
    places_nodes_together: Fact {
        value: true,
        source: "seed 002: ParallelCluster's configuration names a placement group",
    },
    serving: None,
    defaults: &[
        set(
            "tooling_usd_per_month",
            Num(124.0),
            "assumption: an always-on head node, about $124/month",
        ),
        set(
            "storage_read_slowdown_pct",
            Num(1.0),
            "seed 002: parallel file system +1 %",
        ),
        set(
            "storage_usd_per_gb_month",
            Num(0.145),
            "FSx for Lustre persistent SSD ≈ $0.145/GB-month",
        ),
        set(
            "ops_fte",
            Num(0.5),
            "assumption: ½ FTE for a self-run Slurm cluster",
        ),
    ],
};
