//! Lambda 1-Click Clusters: 16 to 2,000 H100 or B200 GPUs on InfiniBand, reserved for 2 weeks
//! to a year, with Slurm managed by Lambda.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// A 1-Click Cluster's defaults.
pub const LAMBDA_1CC: ProfileFacts = ProfileFacts {
    new_platform_instance: Some(("1cc_h100_sxm5_16gpu", "us-midwest-1")),
    own_instances: Some("1cc_"),
    scheduler: Scheduler::Slurm,
    places_nodes_together: Fact {
        value: true,
        source: "a 1-Click Cluster's nodes share a non-blocking, rail-optimized Quantum-2 \
                 InfiniBand fabric (docs.lambda.ai, 1-Click Clusters, read 2026-12-07)",
    },
    serving: None,
    defaults: &[
        set("purchase.reserved_share", Num(1.0), "a 1-Click Cluster is reserved whole for its term (2 weeks to a year), billed weekly"),
        set("purchase.reserved_discount_pct", Num(0.0), "the catalog row is the cluster's published price per node-hour (lambda.ai/pricing as quoted 2026-09-19)"),
        set("purchase.overflow", Choice("none"), "a 1-Click Cluster is its reserved nodes, no more"),
        set("provisioning_median_s", Num(0.0), "reserved: the nodes are up before any job arrives"),
        set("provisioning_p90_s", Num(0.0), "reserved: the nodes are up before any job arrives"),
        set("warm_pool_window_s", Num(0.0), "reserved: no node is ever released"),
        set("storage_read_slowdown_pct", Num(1.0), "seed 002: a shared file system +1 % (the cluster's /data, as FSx for Lustre)"),
        set("storage_usd_per_gb_month", Num(0.2 / 1.073_741_824), "Lambda filesystem, $0.20 per GiB-month (docs.lambda.ai, billing, read 2026-12-07), here per GB"),
        set("ops_fte", Num(0.25), "assumption: ¼ FTE: Lambda runs the Managed Slurm controller (docs.lambda.ai, managed Slurm), half of a self-run Slurm cluster's ½"),
    ],
};
