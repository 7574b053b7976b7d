//! What one platform's replication measured.
//!
//! Each cost category is measured where it happens (a GPU-second spent pulling an image is
//! charged to pulls when the pull happens); none is computed as a remainder. The tests check
//! that the GPU categories add up to the paid GPU time.

use crate::model::cost_category::{Breakdown, PerCategory};
use crate::model::serving::platform::ServiceOutcome;
use serde::{Deserialize, Serialize};

/// One platform in one replication. Money is per 730-hour month; time in seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformOutcome {
    /// Cost by category, USD per month.
    pub breakdown_usd: Breakdown,
    /// Total cost, USD per month (the sum of the breakdown).
    pub monthly_tco_usd: f64,
    /// Paid GPU-seconds over the horizon, by GPU-time category (the other categories are 0).
    pub gpu_seconds: PerCategory<f64>,
    /// Billed GPU-seconds over the horizon, measured from node billing; the GPU categories
    /// add up to it.
    pub paid_gpu_seconds: f64,
    /// Useful reference-GPU-hours over the horizon.
    pub useful_reference_gpu_hours: f64,
    /// Cost per useful reference-GPU-hour, USD; `None` when nothing useful ran.
    pub usd_per_useful_gpu_hour: Option<f64>,
    /// Cost per successful job, USD; `None` when no job finished.
    pub usd_per_successful_job: Option<f64>,
    /// Cost per million requests answered (arrived, neither dropped nor still queued at the
    /// horizon) over the scenario's services, USD: the total cost over the horizon ÷ those
    /// requests × 10⁶; `None` without services or when none was answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_million_requests: Option<f64>,
    /// Cost per million output tokens served where every service is an LLM, USD: the total
    /// cost over the horizon ÷ their output tokens × 10⁶; `None` otherwise or when none was
    /// served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_million_output_tokens: Option<f64>,
    /// Cost per pipeline run completed, USD: the total cost over the horizon ÷ the runs of
    /// every pipeline that completed; `None` without pipelines or when none completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_completed_run: Option<f64>,
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
    /// Nodes whose hardware failed (any purchase type).
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub node_failures: u64,
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
    /// The part of the mean queue wait spent reading data before the first compute (data
    /// staging), s.
    #[serde(default)]
    pub queue_wait_staging_mean_s: f64,
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
    /// The scenario's services on this platform, in its order (their GPU time and cost are
    /// in the figures above too).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceOutcome>,
    /// The services' GPU time in the monthly TCO, USD per month: their replicas' and the
    /// shared GPUs and nodes they left empty (0 without services).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub serving_gpu_usd_per_month: f64,
    /// Training jobs evicted: for a replica (where replicas share training's nodes), or for
    /// another team's quota or a higher priority.
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub preemptions: u64,
    /// GPU-hours the services asked for on training's nodes and found no GPU for (their own
    /// simulation counts those replicas as serving).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub service_gpu_hours_without_node: f64,
    /// Each team's bill, adding up to the monthly TCO (empty where no job class names a team
    /// and no platform sets a team policy).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<TeamOutcome>,
    /// The price of waiting, USD per month: every submitted job's queue wait (as
    /// `queue_wait_mean_s` counts it) × the people waiting for it × `people.waiting_usd_per_hour`.
    /// An estimate of opportunity cost, never in the TCO; 0 where it is off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub waiting_cost_usd: f64,
    /// Each pipeline's runs, in the scenario's order (empty without pipelines).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pipelines: Vec<PipelineOutcome>,
    /// Orchestration charges (state transitions), USD per month, in the fees.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub orchestration_usd: f64,
}

/// One pipeline's runs on one platform in one replication.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct PipelineOutcome {
    /// Runs that arrived within the horizon.
    pub runs_submitted: u64,
    /// Runs whose every stage finished.
    pub runs_completed: u64,
    /// Runs with a stage that gave up (the stages after it never run).
    pub runs_failed: u64,
    /// Median and 95th percentile of the completed runs' end-to-end time (arrival to the
    /// last stage's end), hours; `None` when no run completed.
    pub end_to_end_p50_hours: Option<f64>,
    pub end_to_end_p95_hours: Option<f64>,
    /// The GPU time its stages spent (every category charged to a job: compute, pulls,
    /// checkpoints, failed attempts, held while waiting), USD per month.
    pub stage_usd: f64,
    /// USD per completed run: its stages' GPU time over the horizon and the workflow
    /// engine's charge for their transitions (without its free tier), over the runs
    /// completed; `None` when none completed. The cluster's idle time and the fixed costs
    /// are not shared out to it.
    pub usd_per_run: Option<f64>,
    /// Stage attempts: the state transitions an orchestrator that charges per transition
    /// counts (one per stage entered, retries included).
    pub transitions: u64,
    /// Hours its runs lost to their stages' queue waits: each run's time so far less its
    /// longest chain of the stages' own time, summed over runs.
    pub delay_hours: f64,
}

/// One team's bill on one platform in one replication.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamOutcome {
    /// The team (`default` for classes that name none; `shared` for the costs no team's jobs
    /// spent where they are kept apart; `services` for the services' GPU time).
    pub team: String,
    /// Its cost, USD per month: its jobs' GPU time, plus its part of the shared costs.
    pub monthly_usd: f64,
    /// GPU-hours its jobs held over the horizon (every category charged to them).
    pub gpu_hours: f64,
    /// 95th percentile of its jobs' queue waits, s.
    pub queue_wait_p95_s: f64,
    /// Its jobs evicted for another team's quota or a higher priority.
    pub preemptions: u64,
    /// Its jobs submitted in the horizon, and of them: finished, given up, running and
    /// waiting at the horizon (they add up to the submitted).
    #[serde(default)]
    pub jobs: TeamJobs,
}

/// A team's jobs at the horizon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TeamJobs {
    /// Submitted in the horizon.
    pub submitted: u64,
    /// Finished.
    pub completed: u64,
    /// Given up after failing.
    pub failed: u64,
    /// Running at the horizon.
    pub running: u64,
    /// Waiting, or waiting for nodes, at the horizon.
    pub waiting: u64,
}

impl PlatformOutcome {
    /// Prices the work the services and pipelines delivered
    /// ([`PlatformOutcome::usd_per_million_requests`],
    /// [`PlatformOutcome::usd_per_completed_run`]) from the monthly TCO over a horizon of
    /// `months`.
    pub fn price_the_work(&mut self, months: f64) {
        let total = self.monthly_tco_usd * months;
        let answered: f64 = self
            .services
            .iter()
            .map(|s| s.requests - s.requests_dropped - s.requests_queued_at_horizon)
            .sum();
        self.usd_per_million_requests = (answered > 0.0).then(|| total / answered * 1e6);
        let tokens: Option<f64> = self
            .services
            .iter()
            .map(|s| s.llm.as_ref().map(|l| l.output_tokens))
            .sum();
        self.usd_per_million_output_tokens = tokens
            .filter(|&t| t > 0.0 && !self.services.is_empty())
            .map(|t| total / t * 1e6);
        let runs: u64 = self.pipelines.iter().map(|p| p.runs_completed).sum();
        self.usd_per_completed_run = (runs > 0).then(|| total / runs as f64);
    }
}

impl TeamOutcome {
    /// An entry of cost only (the shared costs, the services).
    pub fn cost_only(team: &str, monthly_usd: f64) -> TeamOutcome {
        TeamOutcome {
            team: team.to_string(),
            monthly_usd,
            gpu_hours: 0.0,
            queue_wait_p95_s: 0.0,
            preemptions: 0,
            jobs: TeamJobs::default(),
        }
    }
}

/// Whether a count is 0.
fn is_zero_count(n: &u64) -> bool {
    *n == 0
}

/// Whether `x` is 0 (a field written only when it holds something).
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}
