//! What happened on one platform in one replication, kept only when asked for: per-job
//! records (the queueing tests) and every node's and attempt's span (the node timeline
//! chart). Plain data: the engine fills it, nothing in the simulation reads it back.

/// Per-job timeline, kept when asked for (the node timeline and the queueing tests).
#[derive(Debug, Clone, PartialEq)]
pub struct JobRecord {
    /// Submission time, s.
    pub arrival_s: i64,
    /// Start of the first attempt's useful compute, s, if it started.
    pub first_compute_s: Option<i64>,
    /// Completion time, s, if it finished.
    pub finished_s: Option<i64>,
    /// When it was submitted, s: its arrival, or a pipeline's stage's when its last
    /// predecessor finished; `None` for a stage never submitted.
    pub submitted_s: Option<i64>,
}

/// How an attempt ended, for the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptEnd {
    /// The job finished.
    Finished,
    /// A spot interruption stopped it.
    Interrupted,
    /// The attempt failed.
    Failed,
    /// It was evicted for another team's quota or a higher priority.
    Preempted,
    /// Still running at the horizon.
    Horizon,
}

/// One node's life, for the timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NodeSpan {
    /// `reserved`, `on_demand` or `spot`.
    pub kind: &'static str,
    /// When it was requested, s.
    pub requested_s: i64,
    /// When billing (provisioning) started, s.
    pub billing_start_s: i64,
    /// When it became ready, s, if it did.
    pub ready_s: Option<i64>,
    /// When it was released (or the horizon), s.
    pub end_s: i64,
    /// What took it away, if it did not end with its work (released, or the horizon).
    pub lost_to: Option<NodeLoss>,
    /// Its platform's node pool (an index).
    pub pool: usize,
    /// Its GPUs.
    pub gpus: u32,
}

/// One attempt of a job on its nodes, for the timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AttemptSpan {
    /// Job index (submission order).
    pub job: usize,
    /// Job class index.
    pub class: usize,
    /// Nodes it ran on, with the GPUs it used on each.
    pub nodes: Vec<(usize, u32)>,
    /// Start (image pull begins), s.
    pub start_s: i64,
    /// Start of compute (after pull and restart), s.
    pub compute_start_s: i64,
    /// End, s.
    pub end_s: i64,
    /// How it ended.
    pub ended: AttemptEnd,
}

/// What happened on one platform in one replication: every node and every attempt.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Timeline {
    /// GPUs per node of the platform's first pool (each node's own are in its span).
    pub gpus_per_node: u32,
    /// Horizon, s.
    pub horizon_s: i64,
    /// Nodes in request order.
    pub nodes: Vec<NodeSpan>,
    /// Attempts in the order they ended.
    pub attempts: Vec<AttemptSpan>,
}

/// What took a node away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeLoss {
    /// A spot interruption (on its own clock or in a reclaim wave).
    SpotInterruption,
    /// Its hardware failed.
    HardwareFailure,
    /// Kubernetes consolidated it away.
    Consolidation,
}

impl NodeLoss {
    /// As the timeline's tooltip says it.
    pub fn label(self) -> &'static str {
        match self {
            NodeLoss::SpotInterruption => "spot interruption",
            NodeLoss::HardwareFailure => "hardware failure",
            NodeLoss::Consolidation => "consolidated away (jobs evicted)",
        }
    }
}
