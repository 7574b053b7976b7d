//! Lambda's on-demand instances, each job on instances launched for it (as SkyPilot or dstack
//! launch them: Lambda itself has no job queue for them).

use super::setting::{set, Val::*, RESERVATION_AT_CLOUD_DISCOUNT};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// Lambda on-demand's defaults.
pub const LAMBDA_ON_DEMAND: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::ManagedJobs,
    places_nodes_together: Fact {
        value: false,
        source: "Lambda's on-demand instances are VMs with no InfiniBand documented (docs.lambda.ai, \
                 on-demand, read 2026-12-07): a multi-node job's instances talk over ordinary IP \
                 networking, placed wherever they start",
    },
    serving: None,
    defaults: &[
        RESERVATION_AT_CLOUD_DISCOUNT,
        set("placement", Choice("exclusive"), "each job launches whole instances of its own"),
        set("provisioning_median_s", Num(300.0), "assumption: an instance launches and passes Lambda's health checks, when a region has capacity (capacity is not guaranteed: see the capacity wait)"),
        set("provisioning_p90_s", Num(600.0), "assumption: twice the median, as for the other profiles"),
        set("image_cache", Flag(false), "assumption: fresh instances per job"),
        set("warm_pool_window_s", Num(0.0), "assumption: a job's instances are terminated when it ends (billing runs until an instance is terminated: docs.lambda.ai, billing)"),
        set("ops_fte", Num(0.25), "assumption: ¼ FTE for scripts or SkyPilot around bare instances"),
    ],
};
