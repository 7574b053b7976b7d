//! What one platform's replication measured.
//!
//! Each cost category is measured where it happens (a GPU-second spent pulling an image is
//! charged to pulls when the pull happens); none is computed as a remainder. The tests check
//! that the GPU categories add up to the paid GPU time.

use serde::{Deserialize, Serialize};

/// How a paid GPU-second was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuUse {
    /// Compute that produced kept progress.
    Useful,
    /// Paid and ready but running nothing: warm windows, half-empty nodes, unused reservations.
    Idle,
    /// Node provisioning and image pulls.
    ProvisioningAndPulls,
    /// Held by a job waiting for the rest of its allocation (capacity wait while billed).
    CapacityWait,
    /// Compute lost to spot interruptions (since the last checkpoint).
    InterruptionRework,
    /// Compute of attempts that failed, and of jobs given up.
    FailedAttempts,
    /// Checkpoint writes and restart overhead.
    CheckpointsAndRestarts,
    /// Extra compute from slow storage reads.
    StorageReadSlowdown,
    /// Extra compute from imperfect multi-node scaling.
    MultiNodeScalingLoss,
    /// Billed node time beyond the time used (granularity and minimum).
    BillingRounding,
}

impl GpuUse {
    /// Every GPU use, in breakdown order.
    pub const ALL: [GpuUse; 10] = [
        GpuUse::Useful,
        GpuUse::Idle,
        GpuUse::ProvisioningAndPulls,
        GpuUse::CapacityWait,
        GpuUse::InterruptionRework,
        GpuUse::FailedAttempts,
        GpuUse::CheckpointsAndRestarts,
        GpuUse::StorageReadSlowdown,
        GpuUse::MultiNodeScalingLoss,
        GpuUse::BillingRounding,
    ];
}

/// Monthly cost by category, USD (MODEL.md's categories). The first ten are GPU time, the rest
/// are other costs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Breakdown {
    /// Compute that produced kept progress.
    pub useful_compute: f64,
    /// Idle paid GPUs.
    pub idle: f64,
    /// Provisioning and image pulls.
    pub provisioning_and_pulls: f64,
    /// Capacity wait while billed.
    pub capacity_wait: f64,
    /// Rework lost to interruptions.
    pub interruption_rework: f64,
    /// Failed attempts.
    pub failed_attempts: f64,
    /// Checkpoint writes and restarts.
    pub checkpoints_and_restarts: f64,
    /// Storage-read slowdown.
    pub storage_read_slowdown: f64,
    /// Multi-node scaling loss.
    pub multi_node_scaling_loss: f64,
    /// Billing rounding.
    pub billing_rounding: f64,
    /// Control-plane and management fees.
    pub fees: f64,
    /// Egress.
    pub egress: f64,
    /// Storage.
    pub storage: f64,
    /// Ops people.
    pub ops_people: f64,
    /// Tools and add-ons.
    pub tools: f64,
}

impl Breakdown {
    /// Category names (as in the CLI JSON) with their values, in display order.
    pub fn entries(&self) -> [(&'static str, f64); 15] {
        [
            ("useful_compute", self.useful_compute),
            ("idle", self.idle),
            ("provisioning_and_pulls", self.provisioning_and_pulls),
            ("capacity_wait", self.capacity_wait),
            ("interruption_rework", self.interruption_rework),
            ("failed_attempts", self.failed_attempts),
            ("checkpoints_and_restarts", self.checkpoints_and_restarts),
            ("storage_read_slowdown", self.storage_read_slowdown),
            ("multi_node_scaling_loss", self.multi_node_scaling_loss),
            ("billing_rounding", self.billing_rounding),
            ("fees", self.fees),
            ("egress", self.egress),
            ("storage", self.storage),
            ("ops_people", self.ops_people),
            ("tools", self.tools),
        ]
    }

    /// Sum of all categories.
    pub fn total(&self) -> f64 {
        self.entries().iter().map(|(_, v)| v).sum()
    }

    /// The field for a GPU use.
    pub fn gpu_mut(&mut self, used: GpuUse) -> &mut f64 {
        match used {
            GpuUse::Useful => &mut self.useful_compute,
            GpuUse::Idle => &mut self.idle,
            GpuUse::ProvisioningAndPulls => &mut self.provisioning_and_pulls,
            GpuUse::CapacityWait => &mut self.capacity_wait,
            GpuUse::InterruptionRework => &mut self.interruption_rework,
            GpuUse::FailedAttempts => &mut self.failed_attempts,
            GpuUse::CheckpointsAndRestarts => &mut self.checkpoints_and_restarts,
            GpuUse::StorageReadSlowdown => &mut self.storage_read_slowdown,
            GpuUse::MultiNodeScalingLoss => &mut self.multi_node_scaling_loss,
            GpuUse::BillingRounding => &mut self.billing_rounding,
        }
    }

    /// Every category multiplied by `factor`.
    pub fn scaled(&self, factor: f64) -> Breakdown {
        let mut out = *self;
        out.map_in_place(|v| v * factor);
        out
    }

    /// Adds `other` category by category.
    pub fn add(&mut self, other: &Breakdown) {
        let values = other.entries();
        let mut i = 0;
        self.map_in_place(|v| {
            let sum = v + values[i].1;
            i += 1;
            sum
        });
    }

    fn map_in_place(&mut self, mut f: impl FnMut(f64) -> f64) {
        for field in [
            &mut self.useful_compute,
            &mut self.idle,
            &mut self.provisioning_and_pulls,
            &mut self.capacity_wait,
            &mut self.interruption_rework,
            &mut self.failed_attempts,
            &mut self.checkpoints_and_restarts,
            &mut self.storage_read_slowdown,
            &mut self.multi_node_scaling_loss,
            &mut self.billing_rounding,
            &mut self.fees,
            &mut self.egress,
            &mut self.storage,
            &mut self.ops_people,
            &mut self.tools,
        ] {
            *field = f(*field);
        }
    }
}

/// One platform in one replication. Money is per 730-hour month; time in seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformOutcome {
    /// Cost by category, USD per month.
    pub breakdown_usd: Breakdown,
    /// Total cost, USD per month (the sum of the breakdown).
    pub monthly_tco_usd: f64,
    /// Paid GPU-seconds over the horizon, by GPU use (same order as [`GpuUse::ALL`]).
    pub gpu_seconds: [f64; 10],
    /// Billed GPU-seconds over the horizon, measured from node billing; the GPU categories
    /// add up to it.
    pub paid_gpu_seconds: f64,
    /// Useful reference-GPU-hours over the horizon.
    pub useful_reference_gpu_hours: f64,
    /// Cost per useful reference-GPU-hour, USD; `None` when nothing useful ran.
    pub usd_per_useful_gpu_hour: Option<f64>,
    /// Cost per successful job, USD; `None` when no job finished.
    pub usd_per_successful_job: Option<f64>,
    /// GPU utilization (output): useful GPU-time ÷ paid GPU-time.
    pub utilization: f64,
    /// Jobs submitted in the horizon.
    pub jobs_submitted: u64,
    /// Jobs finished.
    pub jobs_completed: u64,
    /// Jobs given up after failing.
    pub jobs_failed: u64,
    /// Jobs running at the horizon.
    pub jobs_running: u64,
    /// Jobs waiting, or waiting for nodes, at the horizon.
    pub jobs_waiting: u64,
    /// Spot interruptions that hit a node.
    pub interruptions: u64,
    /// Most nodes up or being provisioned at once.
    pub peak_nodes: u64,
    /// Queue wait (submission to the start of useful compute), mean over the jobs submitted,
    /// s; a job that has not started computing by the horizon counts its wait up to it.
    pub queue_wait_mean_s: f64,
    /// Median queue wait, s.
    pub queue_wait_p50_s: f64,
    /// 95th percentile queue wait, s.
    pub queue_wait_p95_s: f64,
    /// The part of the mean queue wait spent waiting for a slot or for nodes to be
    /// provisioned, s.
    pub queue_wait_for_nodes_mean_s: f64,
    /// The part of the mean queue wait spent pulling the image, s.
    pub queue_wait_image_pull_mean_s: f64,
    /// Of the part waiting for nodes: waiting for capacity on the node the job waited for
    /// (requested, GPUs not yet available, not billed), s.
    pub queue_wait_capacity_mean_s: f64,
    /// Of the part waiting for nodes: that node's provisioning, s (the rest of the part is
    /// waiting for a free slot on the nodes there were).
    pub queue_wait_provisioning_mean_s: f64,
    /// Mean of wall time ÷ nominal run time over finished jobs (1 = no overhead); `None` when
    /// no job finished.
    pub turnaround_inflation: Option<f64>,
    /// Simulation events handled (job arrivals, node and attempt events), for benchmarks.
    #[serde(default)]
    pub events: u64,
    /// The replication reached its event budget
    /// ([`crate::model::scenario::limits::EVENTS_PER_REPLICATION_MAX`]) before the horizon and
    /// was stopped there: its figures cover less than the horizon and must not be summarised.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut_off: bool,
}
