//! Cloud Run with a GPU: one L4 per instance, billed for the instance's whole life, scaling
//! to zero.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::catalog::InstanceType;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;
use crate::model::scenario::Serving;

/// Cloud Run's defaults.
pub const CLOUD_RUN: ProfileFacts = ProfileFacts {
    new_platform_instance: Some(("cloud-run-l4", "us-central1")),
    own_instances: Some("cloud-run-"),
    scheduler: Scheduler::Serverless,
    places_nodes_together: Fact {
        value: false,
        source: "Cloud Run GPU docs: one GPU per instance; a job gets an instance of its own",
    },
    serving: Some(Serving {
        // [ref] Cloud Run scales instances on requests and to zero; [assumption] a decision
        // within 10 s, and an idle instance kept 15 min (third-party reports).
        scale_up_delay_s: 10.0,
        scale_down_cooldown_s: 900.0,
        metric_period_s: 60.0,
        scale_to_zero: true,
        shares_nodes: None,
        shares_nodes_with_training: false,
    }),
    defaults: &[
        set("on_demand_usd_per_node_hour", OfInstance(|i: &InstanceType| i.on_demand_usd_per_node_hour.unwrap_or(0.0)),
            "an instance of 1 L4 + the required 4 vCPU and 16 GiB, instance-based billing, Tier 1: GPU $0.0001867/s (third-party summaries, 2025-06 and 2026-04: about $0.67/h; the official table not read: assumption) + vCPU $0.000018/s + memory $0.000002/GiB-s (cloud.google.com/run/pricing) = $1.0465/h"),
        set("provisioning_median_s", Num(5.0), "Cloud Run GPU docs: an instance with an L4 and its drivers starts in about 5 s"),
        set("provisioning_p90_s", Num(10.0), "assumption: twice the median, as for the other profiles"),
        set("image_pull_gb_per_s", Num(0.2), "assumption: image streaming at 0.2 GB/s"),
        set("image_cache", Flag(false), "assumption: each new instance streams its image afresh"),
        set("warm_pool_window_s", Num(900.0), "assumption: an idle instance is kept about 15 min before it is removed (third-party reports)"),
        set("billing.minimum_s", Num(0.0), "Cloud Run GPU docs: billed for the instance's whole life, per 100 ms, no minimum"),
        set("placement", Choice("exclusive"), "Cloud Run GPU docs: one GPU per instance; a job gets an instance of its own"),
        set("gang_scheduling", Flag(false), "Cloud Run GPU docs: one GPU per instance; a job gets an instance of its own"),
        set("max_nodes", Num(10.0), "assumption: a GPU quota of 10 instances (it is granted per project and region)"),
        set("ops_fte", Num(0.05), "assumption: 0.05 FTE for a managed service"),
    ],
};
