//! AWS Batch on EC2.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// AWS Batch's defaults.
pub const AWS_BATCH: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::JobQueue,
    places_nodes_together: Fact {
        value: false,
        source: "assumption: a compute environment launches instances where capacity is; a placement group is a setting left off",
    },
    serving: None,
    defaults: &[
        set(
            "fee_usd_per_cluster_hour",
            Num(0.0),
            "AWS Batch itself is free; you pay for EC2",
        ),
        set(
            "warm_pool_window_s",
            Num(600.0),
            "seed 004: a warm scale-down window; 10 min assumed",
        ),
        set(
            "ops_fte",
            Num(0.25),
            "assumption: ¼ FTE for a managed batch service",
        ),
    ],
};
