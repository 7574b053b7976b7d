//! The state the event loop keeps of each node and each job of one platform's replication,
//! and what it works out once per job class. Plain data: the handlers in [`super::engine`]
//! change it; nothing here reads the scenario while the simulation runs.

use super::checkpoint::checkpoint_cycle;
use crate::model::cost_category::Category;
use crate::model::rounding;
use crate::model::scenario::{JobClass, NodePool, Placement, Platform};
use smallvec::SmallVec;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NodeKind {
    Reserved,
    OnDemand,
    Spot,
}

#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) kind: NodeKind,
    pub(super) usd_per_gpu_s: f64,
    pub(super) billing_start_s: i64,
    pub(super) ready: bool,
    /// When it became ready, s (meaningful once `ready`).
    pub(super) ready_at_s: i64,
    pub(super) released: bool,
    /// GPU slots held by no job.
    pub(super) free: u32,
    /// Since when `free` has been unchanged (idle accounting, while ready).
    pub(super) free_since_s: i64,
    /// Jobs holding slots on this node (ids as 32 bits, like the event queue's: a replication
    /// handles far fewer than 2^32 jobs).
    pub(super) holders: SmallVec<[u32; 8]>,
    /// Job classes whose image this node has cached (bit per class).
    pub(super) images: u64,
    pub(super) idle_generation: u32,
    /// Spot interruption clock: an Exp(1) draw, scaled by 1/λ when the node becomes ready (0
    /// and unused on nodes that are never interrupted).
    pub(super) interruption_draw: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Waiting,
    /// Holds nodes; starts when it holds all it needs and they are ready.
    Holding,
    Running,
    /// Failed, and waiting out its retry backoff before it queues again (holds nothing).
    BackingOff,
    /// A pipeline's stage whose predecessors have not all finished: not submitted (and
    /// never, where one of them gave up or the horizon came first).
    Unsubmitted,
    Done,
    GaveUp,
}

/// Where a job's attempt is with reading its data (data staging, [`super::reads`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Staging {
    /// Read (or nothing to read): the read took this long, s.
    Staged(i64),
    /// Pulling its image: the read starts when the pull ends.
    AfterPull,
    /// Reading, since the pull ended.
    Reading,
}

/// A node a job holds.
#[derive(Debug, Clone, Copy)]
pub(super) struct Hold {
    /// Node id (ids stay far below 2^32: a node costs at least one event, and a replication
    /// handles at most [`limits::EVENTS_PER_REPLICATION_MAX`]).
    pub(super) node: u32,
    /// GPU slots the job uses on it (the rest of a held whole node is idle).
    pub(super) used: u32,
    /// Since when it is held (capacity wait counts from the later of this and the node's
    /// ready time), s.
    pub(super) since_s: i64,
}

impl Hold {
    pub(super) fn node(&self) -> usize {
        self.node as usize
    }
}

#[derive(Debug, Clone)]
pub(super) struct JobState {
    pub(super) phase: Phase,
    /// Compute needed on this platform, s (per GPU).
    pub(super) total_c: i64,
    /// Compute kept by checkpoints, s.
    pub(super) committed_c: i64,
    pub(super) attempts: u32,
    /// Attempts that failed (interrupted ones are not failures: only these count against the
    /// class's retry limit).
    pub(super) failed_attempts: u32,
    pub(super) generation: u32,
    /// The nodes it holds, in the order it took them.
    pub(super) holds: SmallVec<[Hold; 2]>,
    /// Current attempt.
    pub(super) attempt_start_s: i64,
    pub(super) pull_s: i64,
    pub(super) restart_s: i64,
    /// Its data read, between the pull and the restart.
    pub(super) staging: Staging,
    /// Compute the attempt runs before failing, s; `None` if it does not fail.
    pub(super) fail_after_c: Option<i64>,
    /// Start of its first compute, s: planned when the attempt that reaches it starts (an
    /// attempt stopped before its compute began takes its plan back on interruption).
    pub(super) first_compute_s: Option<i64>,
    /// Image pulls before its first compute, s (a part of the queue wait): the one of the
    /// attempt that computes first, and what attempts stopped before computing had pulled.
    pub(super) first_pull_s: i64,
    /// Data staged before its first compute, s (a part of the queue wait): the reads of the
    /// attempts on its way there, whole or up to where they were stopped.
    pub(super) first_stage_s: i64,
    pub(super) finished_s: Option<i64>,
    /// When it was submitted, s: its arrival, or for a pipeline's stage when its last
    /// predecessor finished; `i64::MAX` while it is not submitted.
    pub(super) submitted_s: i64,
}

/// What the event loop needs of a job class on this platform, worked out once per run
/// (the per-event path then does no division, rounding or lookup through the scenario).
#[derive(Debug, Clone, Copy)]
pub(super) struct ClassPlan {
    /// GPUs per job.
    pub(super) gpus: u32,
    /// Nodes a job needs.
    pub(super) nodes_needed: u32,
    /// Jobs hold whole nodes: multi-node jobs, and every job on exclusive platforms; other
    /// jobs hold their GPUs on one shared node.
    pub(super) whole_nodes: bool,
    /// GPU slots a job holds on each of its nodes.
    pub(super) slots_held: u32,
    /// Checkpoint interval τ and write time δ, s (`checkpoint::checkpoint_cycle`).
    pub(super) tau: i64,
    pub(super) delta: i64,
    /// Image pull on a node without the image, s.
    pub(super) pull_s: i64,
    /// Restart overhead of a resumed attempt, s.
    pub(super) restart_s: i64,
    /// GB an attempt reads before computing, shared by its nodes (0: none, or the platform
    /// stages nothing).
    pub(super) read_gb: f64,
    /// A job asks for a fraction of one GPU (`share`): it uses that much of what it holds
    /// (a share of a shared GPU, else a whole GPU whose rest is idle).
    pub(super) partial: bool,
    /// The fraction of a GPU it asks for (1 for jobs of whole GPUs).
    pub(super) share: f64,
    /// What a job takes of a shared GPU, when it holds a share of one (`fractional`).
    pub(super) need: Option<super::shared_gpus::ShareNeed>,
}

/// Why an attempt is closed (the engine's `close_attempt`), and so where its unkept compute goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Close {
    /// It ran to the end of the job's compute.
    Finished,
    /// It failed: compute since the last checkpoint is a failed attempt.
    Failed,
    /// A spot interruption stopped it: compute since the last checkpoint is rework, unless
    /// the notice was long enough to write one (`on_notice`).
    Interrupted { on_notice: bool },
    /// It was evicted for another team's quota or a higher priority: compute since the last
    /// checkpoint is preemption rework, unless the grace period was long enough to write one
    /// (`on_notice`).
    Preempted { on_notice: bool },
    /// A node it ran on failed: compute since the last checkpoint is hardware-failure
    /// rework (a failure gives no notice).
    NodeFailed,
    /// It is still running at the horizon: all its compute so far counts.
    Horizon,
}

impl Close {
    /// The category of the compute the attempt loses; `None` when it keeps all.
    pub(super) fn lost_as(self) -> Option<Category> {
        match self {
            Close::Failed => Some(Category::FailedAttempts),
            Close::Interrupted { .. } => Some(Category::InterruptionRework),
            Close::Preempted { .. } => Some(Category::PreemptionRework),
            Close::NodeFailed => Some(Category::HardwareFailureRework),
            Close::Finished | Close::Horizon => None,
        }
    }

    /// Whether a checkpoint was written in the notice or grace period before it stopped.
    pub(super) fn on_notice(self) -> bool {
        matches!(
            self,
            Close::Interrupted { on_notice: true } | Close::Preempted { on_notice: true }
        )
    }
}

impl ClassPlan {
    /// The plan of `class` on `pool` of `platform`.
    pub(super) fn new(class: &JobClass, platform: &Platform, pool: &NodePool) -> ClassPlan {
        let gpus = class.whole_gpus();
        let nodes_needed = gpus.div_ceil(pool.gpus_per_node);
        let whole_nodes = holds_whole_nodes(nodes_needed, platform.placement);
        let (tau, delta) = checkpoint_cycle(class);
        // Where jobs never share nodes (exclusive), a fraction holds its node like any job.
        let share = if whole_nodes {
            None
        } else {
            super::shared_gpus::ShareNeed::of(class, platform, pool)
        };
        ClassPlan {
            gpus,
            nodes_needed,
            whole_nodes,
            slots_held: if whole_nodes {
                pool.gpus_per_node
            } else if share.is_some() {
                0
            } else {
                gpus
            },
            tau,
            delta,
            pull_s: rounding::round(class.image_gb / platform.image_pull_gb_per_s) as i64,
            restart_s: rounding::round(class.restart_overhead_s) as i64,
            read_gb: if platform.staging.stages() {
                class.data_read_gb_per_attempt
            } else {
                0.0
            },
            partial: class.is_fractional(),
            share: match share {
                Some(need) => need.share,
                None if class.is_fractional() => f64::from(class.gpu_milli().max(1)) / 1_000.0,
                None => 1.0,
            },
            need: share,
        }
    }

    /// Whether a job holds a share of a GPU shared with other jobs ([`super::shared_gpus`]),
    /// not GPU slots of its own.
    #[inline]
    pub(super) fn fractional(&self) -> bool {
        self.need.is_some()
    }

    /// GPUs a job is charged for on each node it holds while it waits or runs: its share, or
    /// the slots it holds.
    #[inline]
    pub(super) fn held_gpus(&self) -> f64 {
        if self.fractional() {
            self.share
        } else {
            f64::from(self.slots_held)
        }
    }
}

/// Whether a job needing `nodes_needed` nodes holds them whole under `placement`: a
/// multi-node job does, and every job where jobs never share instances (exclusive); other
/// jobs hold their GPUs on one shared node. The instant estimate prices held GPUs the same way.
pub fn holds_whole_nodes(nodes_needed: u32, placement: Placement) -> bool {
    nodes_needed > 1 || placement == Placement::Exclusive
}

impl JobState {
    /// A job that has not started, needing `total_c` seconds of compute on this platform,
    /// submitted at `submitted_s` (`None`: a stage that waits for its predecessors).
    pub(super) fn new(total_c: i64, submitted_s: Option<i64>) -> JobState {
        JobState {
            phase: if submitted_s.is_some() {
                Phase::Waiting
            } else {
                Phase::Unsubmitted
            },
            submitted_s: submitted_s.unwrap_or(i64::MAX),
            total_c,
            committed_c: 0,
            attempts: 0,
            failed_attempts: 0,
            generation: 0,
            holds: SmallVec::new(),
            attempt_start_s: 0,
            pull_s: 0,
            restart_s: 0,
            staging: Staging::Staged(0),
            fail_after_c: None,
            first_compute_s: None,
            first_pull_s: 0,
            first_stage_s: 0,
            finished_s: None,
        }
    }

    /// The current attempt's staging as of `now`, s: its read's length once read, the read so
    /// far while reading (what a stopped read counts), none while the image is still pulling.
    pub(super) fn stage_s(&self, now: i64) -> i64 {
        match self.staging {
            Staging::Staged(s) => s,
            Staging::AfterPull => 0,
            Staging::Reading => (now - self.attempt_start_s - self.pull_s).max(0),
        }
    }
}
