//! Azure Batch.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// Azure Batch's defaults.
pub const AZURE_BATCH: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::JobQueue,
    places_nodes_together: Fact {
        value: true,
        source: "Azure Batch: a pool with inter-node communication enabled places its nodes \
                 together (required for multi-instance MPI tasks)",
    },
    serving: None,
    defaults: &[
        set("fee_usd_per_cluster_hour", Num(0.0), "Azure Batch: no charge of its own; the VMs, storage and network it uses are billed (Microsoft Cloud Adoption Framework AI guidance, read 2026-12-07)"),
        set("provisioning_median_s", Num(780.0), "assumption: a pool's autoscale formula is evaluated every 15 minutes by default, so a job waits on average 7.5 min for the next evaluation, then a node starts (as a batch service's: median 300 s, p90 600 s): about 780 s at the median and 1,300 s at p90"),
        set("provisioning_p90_s", Num(1_300.0), "assumption: a pool's autoscale formula is evaluated every 15 minutes by default, so a job waits on average 7.5 min for the next evaluation, then a node starts (as a batch service's: median 300 s, p90 600 s): about 780 s at the median and 1,300 s at p90"),
        set("warm_pool_window_s", Num(900.0), "assumption: an idle node is removed at the next autoscale evaluation, every 15 minutes by default"),
        set("ops_fte", Num(0.25), "assumption: ¼ FTE for a managed batch service, as AWS Batch"),
    ],
};
