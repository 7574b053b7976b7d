//! Teams sharing a platform: each job class belongs to a team (`JobClass::team`), and a
//! platform may give each team a quota of GPUs, a borrowing limit within the cohort of its
//! teams, and a priority; with preemption on, a waiting job may evict running jobs to get its
//! quota back or ahead of lower priorities.
//!
//! What each profile offers, as the scheduler it models:
//! - Kubernetes (EKS, GKE): Kueue ClusterQueues in one cohort: a nominal quota per team, a
//!   borrowing limit, priority classes, and preemption to reclaim quota within the cohort
//!   (`reclaimWithinCohort`) or for a higher priority (`withinClusterQueue: LowerPriority`)
//!   (kueue.sigs.k8s.io, "Cluster Queue" and "Preemption").
//! - Slurm (ParallelCluster, a reserved cluster): QOS GPU limits (`GrpTRES=gres/gpu=N`, a hard
//!   limit: no borrowing), QOS priority, and preemption with requeue (`PreemptType=
//!   preempt/qos`, `PreemptMode=REQUEUE`) (slurm.schedmd.com, "Preemption").
//! - AWS Batch: job-queue priority only (a compute environment serves its higher-priority
//!   queue first) (docs.aws.amazon.com, "Job queues").
//! - SageMaker: none (each training job gets instances of its own).
//!
//! Fair-share scheduling from decayed usage (Slurm's multifactor priority, AWS Batch
//! fair-share policies) is not modelled. As Kueue sets a quota per resource flavor, a team's
//! quota holds in each node pool its classes run on.

use serde::{Deserialize, Serialize};

/// A team's place in one platform's scheduler.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct TeamPolicy {
    /// The team (as job classes name it; "" is the default team of classes that name none).
    pub team: String,
    /// GPUs its jobs may hold at once without borrowing (Kueue's nominal quota; Slurm's QOS
    /// GPU limit). Absent: no quota (its jobs are admitted as capacity allows, and it lends
    /// nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nominal_gpus: Option<f64>,
    /// Most GPUs it may hold beyond its nominal quota, borrowed from what the other teams'
    /// quotas leave unused (Kueue's borrowing limit). Absent: as many as are unused; 0: none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub borrowing_limit_gpus: Option<f64>,
    /// Priority: a higher number is scheduled first, and may preempt a lower one.
    pub priority: i32,
}

/// When a waiting job may evict running ones (default: never).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Preemption {
    /// A team within its nominal quota takes GPUs back from teams borrowing beyond theirs
    /// (Kueue `reclaimWithinCohort: Any`).
    pub reclaim_quota: bool,
    /// A job evicts jobs of lower priority when that frees enough GPUs for it (Kueue
    /// `withinClusterQueue: LowerPriority`; Slurm preemption by QOS with requeue).
    pub lower_priority: bool,
    /// Seconds an evicted job has before it is stopped: a checkpoint written within them
    /// keeps its work (as within a spot notice).
    pub grace_period_s: f64,
    /// Kubernetes only: running jobs evicted by node consolidation (Karpenter) or
    /// scale-down (cluster autoscaler), per node-hour of a node bought beyond the
    /// reservation; the node is removed and its jobs queue again. 0 (absent): jobs are marked
    /// `karpenter.sh/do-not-disrupt` or `safe-to-evict: "false"`, as a tuned cluster runs.
    pub consolidation_evictions_per_node_hour: f64,
}

impl Preemption {
    /// Whether it is the default (never), so a document leaves it out.
    pub fn is_default(&self) -> bool {
        *self == Preemption::default()
    }

    /// Whether no job is ever evicted for another job (quotas or priorities).
    pub fn is_off(&self) -> bool {
        !self.reclaim_quota && !self.lower_priority
    }

    /// Whether node consolidation evicts running jobs.
    pub fn consolidates(&self) -> bool {
        self.consolidation_evictions_per_node_hour > 0.0
    }
}

/// The name a team is shown by: its own, or `default` for classes that name none.
pub fn team_label(team: &str) -> &str {
    if team.is_empty() {
        "default"
    } else {
        team
    }
}

/// How a platform's costs beyond its teams' own GPU time (idle capacity, provisioning and
/// billing rounding on nodes, fees, people, tools, storage and egress) enter each team's
/// bill. OpenCost's default keeps idle costs apart and can share them out by each tenant's
/// cost (opencost.io docs, "Idle costs" / "Sharing idle").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SharedCosts {
    /// A line of their own: a team named `shared` (OpenCost's default).
    #[default]
    Separate,
    /// Shared out pro rata to each team's cost of use (OpenCost's idle sharing; with pools of
    /// different prices this differs from GPU-hours).
    ByCost,
    /// Shared out pro rata to each team's GPU-hours.
    ByGpuHours,
}

/// Each team's bill (showback).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Showback {
    /// How the shared costs enter the teams' bills.
    pub shared_costs: SharedCosts,
}

impl Showback {
    /// Whether it is the default, so a document leaves it out.
    pub fn is_default(&self) -> bool {
        *self == Showback::default()
    }
}
