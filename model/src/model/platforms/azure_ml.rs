//! Azure Machine Learning: command jobs on compute clusters, and managed online endpoints
//! for serving.

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::cloud::Fact;
use crate::model::scenario::{Scheduler, Serving};

/// Azure Machine Learning's defaults.
pub const AZURE_ML: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::ManagedJobs,
    places_nodes_together: Fact {
        value: true,
        source: "a compute cluster is one scale set: its InfiniBand VMs are connected to one another (azure-compute-docs ndh100v5-series, 2024-08-01: \"automatically configured between VMs occupying the same virtual machine scale set\")",
    },
    serving: Some(Serving {
        // Managed online endpoints scale their instances by Azure Monitor autoscale rules
        // (assumption: a scale-out rule's 5-minute window and a 5-minute cooldown, the values
        // of Microsoft's examples; Microsoft's cost page: "Managed online endpoint uses VMs for
        // the deployments", azure-ai-docs concept-plan-manage-cost.md, 2024-03-26); at least
        // one instance (assumption: no scale to zero).
        scale_up_delay_s: 300.0,
        scale_down_cooldown_s: 300.0,
        metric_period_s: 60.0,
        scale_to_zero: false,
        shares_nodes: None,
        shares_nodes_with_training: false,
    }),
    defaults: &[
        set("service_premium_pct", Num(0.0), "Azure Machine Learning adds no charge to its compute: its cost page lists only the VMs and the resources around them, \"Each VM is billed per hour that it runs\" (azure-ai-docs concept-plan-manage-cost.md, 2024-03-26, read 2026-12-07); its load balancer, about $0.33 a day per 50 nodes, is not counted"),
        set("placement", Choice("exclusive"), "Azure Machine Learning runs one job on a compute cluster's node at a time"),
        set("provisioning_median_s", Num(360.0), "assumption: a compute cluster allocates nodes from zero for a job, a minute slower than a batch service's node, as SageMaker's"),
        set("provisioning_p90_s", Num(720.0), "assumption: twice the median, as for the other profiles"),
        set("warm_pool_window_s", Num(120.0), "Azure ML compute clusters: idle_time_before_scale_down 120 s by default, min_instances 0 (Azure ML CLI v2 compute YAML reference, read 2026-12-07)"),
        set("ops_fte", Num(0.1), "assumption: 0.1 FTE for a fully managed service"),
    ],
};
