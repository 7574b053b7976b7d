//! A reserved, static cluster: always on, no autoscaling, on any cloud (its cloud is its
//! instance's: the user picks it).

use super::setting::{set, Val::*, RESERVATION_AT_CLOUD_DISCOUNT};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;

/// A reserved cluster's defaults.
pub const RESERVED_CLUSTER: ProfileFacts = ProfileFacts {
    // A new one starts where a new AWS platform does; another instance moves it, and its
    // cloud, elsewhere.
    new_platform_instance: Some(("p4d.24xlarge", "us-east-1")),
    own_instances: None,
    scheduler: Scheduler::Slurm,
    places_nodes_together: Fact {
        value: false,
        source: "assumption: a static cluster's nodes as bought, placed together only if the scenario says so",
    },
    serving: None,
    defaults: &[
        set(
            "purchase.reserved_share",
            Num(1.0),
            "the whole reference cluster reserved, no overflow",
        ),
        RESERVATION_AT_CLOUD_DISCOUNT,
        set(
            "purchase.overflow",
            Choice("none"),
            "the whole reference cluster reserved, no overflow",
        ),
        set(
            "provisioning_median_s",
            Num(0.0),
            "always on: the nodes are up before any job arrives",
        ),
        set(
            "provisioning_p90_s",
            Num(0.0),
            "always on: the nodes are up before any job arrives",
        ),
        set(
            "warm_pool_window_s",
            Num(0.0),
            "always on: no node is ever released",
        ),
        set("ops_fte", Num(0.5), "assumption: ½ FTE"),
    ],
};
