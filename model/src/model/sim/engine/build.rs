//! Setting up one platform's replication: the simulation's state ([`Sim`]) and what is worked
//! out once per run (prices, per-class plans, each job's compute on this platform).

use super::super::event_queue::EventQueue;
use super::super::job_queue::JobQueue;
use super::super::jobs::Job;
use super::super::ledger::Ledger;
use super::super::node_index::NodeIndex;
use super::super::shared_gpus::{capacity_of, SharedGpu, PARTS};
use super::super::state::{ClassPlan, JobState, Node};
use super::super::timeline::{JobRecord, Timeline};
use super::COMPACT_MIN;
use crate::model::pricing::GpuSecondPrices;
use crate::model::rng::lognormal_sigma;
use crate::model::rounding;
use crate::model::scenario::{limits, NodePool, Platform, Scenario, DAY_S};
use crate::model::serving::platform::{
    serve_on_training_nodes, shares_training_nodes, Served, ServiceDemand,
};

/// Shortcuts of the event loop that the tests turn off or move, to check that they change
/// nothing simulated; release builds have no such field and always take them.
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub(super) struct TestSwitches {
    /// Smallest queue that is ever compacted ([`COMPACT_MIN`]).
    pub(super) compact_min: usize,
    /// An arriving job is offered capacity at once when no job waits, instead of through a
    /// placement pass (the same placement).
    pub(super) offer_on_arrival: bool,
}

/// One platform's replication under way: the clock, the event queue, every node and job,
/// and what has been measured so far.
pub(super) struct Sim<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) platform: &'a Platform,
    /// The pool whose nodes the current pass simulates ([`Sim::enter_pool`]): pools share no
    /// node, so a platform's replication runs its pools one after another, each pass
    /// submitting the jobs of the classes mapped to its pool.
    pub(super) pool: &'a NodePool,
    pub(super) pool_index: usize,
    /// Per job class, the pool it runs on.
    pub(super) class_pool: Vec<usize>,
    /// The first node of the current pass (earlier passes' nodes are past their horizon).
    pub(super) pass_first_node: usize,
    /// The peaks of the passes before the current one, summed.
    pub(super) earlier_peaks: u32,
    /// The pool the services share training's nodes on, and their state while another pool's
    /// pass runs.
    pub(super) colocated_pool: usize,
    pub(super) parked_colocated: Option<Colocated>,
    /// Quotas, priorities and preemption of the platform's teams; `None` where it sets none
    /// (first come first served).
    pub(super) teams: Option<super::teams::Teams>,
    pub(super) jobs: &'a [Job],
    pub(super) horizon_s: i64,
    pub(super) now: i64,
    pub(super) queue: EventQueue,
    /// Queue length at which stale events are dropped next (see [`Sim::compact_queue`]).
    pub(super) compact_at: usize,
    /// Shortcuts the tests turn off to check that they change nothing simulated.
    #[cfg(test)]
    pub(super) switches: TestSwitches,
    pub(super) nodes: Vec<Node>,
    /// The nodes not yet released by state and free GPUs: placement looks nodes up here
    /// instead of scanning every live node, so an event costs about the same on a
    /// 10,000-node cluster as on a small one.
    pub(super) index: NodeIndex,
    /// Free GPU slots over the nodes not yet released.
    pub(super) free_slots: u64,
    pub(super) alive_nodes: u32,
    pub(super) peak_nodes: u32,
    pub(super) states: Vec<JobState>,
    /// Per job class ([`ClassPlan`]).
    pub(super) plans: Vec<ClassPlan>,
    /// Per job class: the GPU time its jobs spent (GPU-seconds, USD), every category charged
    /// to a job (each team's own use; what nodes spend without a job is shared).
    pub(super) class_spend: Vec<(f64, f64)>,
    /// Per job class: its jobs evicted for another team's quota or a higher priority.
    pub(super) class_preempted: Vec<u64>,
    pub(super) waiting: JobQueue,
    /// Jobs in `waiting` per job class (lets placement stop once no waiting class can fit).
    pub(super) waiting_per_class: Vec<u32>,
    pub(super) replication: u64,
    /// Kept only when a timeline is asked for.
    pub(super) timeline: Option<Timeline>,
    /// Where every paid GPU-second went.
    pub(super) ledger: Ledger,
    pub(super) egress_gb: f64,
    /// Data read where the platform and the data have regions (priced as transfer), GB.
    pub(super) data_read_gb: f64,
    /// Whether data reads pay transfer between regions ([`Platform::data_read_usd_per_gb`])
    /// rather than a billed share as egress.
    pub(super) reads_pay_transfer: bool,
    pub(super) interruptions: u64,
    /// Nodes whose hardware failed.
    pub(super) node_failures: u64,
    /// Jobs evicted by node consolidation.
    pub(super) consolidation_evictions: u64,
    /// The current pool's spot reclaim waves, where it has them.
    pub(super) reclaims: Option<super::reclaims::ReclaimWaves>,
    /// The data reads under way on the current pool, where the platform stages data.
    pub(super) reads: Option<super::super::reads::SharedReads>,
    /// Data staged (read before computing), GB.
    pub(super) staged_gb: f64,
    /// Events handled (arrivals and queued events), for the benchmarks.
    pub(super) events: u64,
    /// Reused buffer of node ids (no allocation per placement attempt).
    pub(super) scratch_nodes: Vec<usize>,
    /// Most events this replication may handle ([`limits::EVENTS_PER_REPLICATION_MAX`]).
    pub(super) event_budget: u64,
    /// The event budget ran out before the horizon.
    pub(super) cut_off: bool,
    pub(super) completed: u64,
    pub(super) gave_up: u64,
    pub(super) inflation_sum: f64,
    /// Of the queue waits of the jobs started so far: time spent waiting for capacity and
    /// provisioning on the node each waited for ([`Sim::node_wait_parts`]), s.
    pub(super) wait_capacity_s: i64,
    pub(super) wait_provisioning_s: i64,
    // Per-platform constants.
    pub(super) prices: GpuSecondPrices,
    /// How long an idle node is kept before it is released (the warm pool), s.
    pub(super) warm_pool_window_s: i64,
    /// σ of the provisioning time's log-normal ([`lognormal_sigma`]).
    pub(super) provisioning_sigma: f64,
    /// Services whose replicas share the training nodes ([`Colocated`]); `None` elsewhere.
    pub(super) colocated: Option<Colocated>,
    /// When the services' demand changes next, s (`i64::MAX`: never; kept here so that the
    /// event loop of a platform without them pays one comparison).
    pub(super) next_service_change_s: i64,
    /// Some of the services' units wait for a GPU.
    pub(super) units_unplaced: bool,
    /// The parts of one whole GPU, shared.
    pub(super) share_capacity: [u32; PARTS],
    /// Shared GPUs, live ones and ones back in their node (`jobs` 0, listed in `free_shared`).
    pub(super) shared_gpus: Vec<SharedGpu>,
    pub(super) free_shared: Vec<u32>,
    /// Shared GPUs live now.
    pub(super) shared_live: u32,
    /// Per job, the shared GPU it holds a part of (only where some class is fractional).
    pub(super) job_gpu: Vec<u32>,
    /// The pipelines' stages and runs; `None` without pipelines.
    pub(super) pipelines: Option<super::pipelines::PipelineRuns>,
    /// The pools in the order their passes run ([`super::pipelines::pass_order`]).
    pub(super) pass_order: Vec<usize>,
}

/// The services' replicas on the training nodes: what they ask for over time (worked out
/// before the run, from the services' own simulation) and where the run placed them.
pub(super) struct Colocated {
    /// The services' outcomes, their GPU time as their own simulation counted it.
    pub(super) served: Served,
    /// The units of GPUs they hold over time.
    pub(super) demand: ServiceDemand,
    /// The next change of `demand` to apply.
    pub(super) next_change: usize,
    /// Per size class, the nodes its placed units are on (the last placed is removed first).
    pub(super) units: Vec<Vec<u32>>,
    /// Per size class, units asked for that found no GPU yet.
    pub(super) unplaced: Vec<u32>,
    /// Unplaced GPUs now, and since when, s.
    pub(super) unplaced_gpus: u64,
    pub(super) unplaced_since_s: i64,
    /// GPU-seconds asked for that found no GPU.
    pub(super) unplaced_gpu_s: f64,
    /// The nodes replicas may use (reserved and on-demand, not released), by id.
    pub(super) steady_nodes: Vec<usize>,
    /// GPU-seconds the replicas held on ready nodes, and their price, USD.
    pub(super) held_gpu_s: f64,
    pub(super) held_usd: f64,
    /// Training jobs stopped to make room for a replica.
    pub(super) preemptions: u64,
}

/// A platform's replication at time 0: nothing requested, every job yet to arrive.
pub(super) fn new_sim<'a>(
    scenario: &'a Scenario,
    platform_index: usize,
    replication: u64,
    jobs: &'a [Job],
) -> Sim<'a> {
    // Arrivals are taken in order, and the outcome counts the submitted jobs by bisection.
    debug_assert!(jobs.is_sorted_by_key(|j| j.arrival_s));
    let platform = &scenario.platforms[platform_index];
    let pool = platform.first_pool();
    let slowdown = platform.storage_read_slowdown_pct / 100.0;
    let horizon_s = rounding::round(scenario.horizon_days * DAY_S) as i64;
    let class_pool: Vec<usize> = (0..scenario.job_classes.len())
        .map(|class| platform.pool_of_class(scenario, class))
        .collect();
    let mut sim = Sim {
        scenario,
        platform,
        pool,
        pool_index: 0,
        class_pool,
        pass_first_node: 0,
        earlier_peaks: 0,
        colocated_pool: 0,
        parked_colocated: None,
        teams: super::teams::Teams::of(scenario, platform, jobs.len()),
        jobs,
        horizon_s,
        now: 0,
        queue: EventQueue::new(horizon_s),
        compact_at: COMPACT_MIN,
        #[cfg(test)]
        switches: TestSwitches {
            compact_min: COMPACT_MIN,
            offer_on_arrival: true,
        },
        nodes: Vec::new(),
        index: NodeIndex::new(pool.gpus_per_node),
        free_slots: 0,
        alive_nodes: 0,
        peak_nodes: 0,
        states: Vec::with_capacity(jobs.len()),
        plans: Vec::new(),
        class_spend: vec![(0.0, 0.0); scenario.job_classes.len()],
        class_preempted: vec![0; scenario.job_classes.len()],
        waiting: JobQueue::new(0),
        waiting_per_class: vec![0; scenario.job_classes.len()],
        replication,
        timeline: None,
        ledger: Ledger::new(
            jobs.len(),
            scenario
                .job_classes
                .iter()
                .any(|class| class.failures.probability > 0.0),
            pool.relative_throughput,
            slowdown,
        ),
        egress_gb: 0.0,
        data_read_gb: 0.0,
        reads_pay_transfer: platform.data_read_usd_per_gb(scenario).is_some(),
        interruptions: 0,
        node_failures: 0,
        reclaims: None,
        reads: None,
        staged_gb: 0.0,
        consolidation_evictions: 0,
        events: 0,
        scratch_nodes: Vec::new(),
        event_budget: limits::EVENTS_PER_REPLICATION_MAX,
        cut_off: false,
        completed: 0,
        gave_up: 0,
        inflation_sum: 0.0,
        wait_capacity_s: 0,
        wait_provisioning_s: 0,
        prices: GpuSecondPrices::of(scenario, platform, pool),
        warm_pool_window_s: rounding::round(pool.warm_pool_window_s) as i64,
        provisioning_sigma: lognormal_sigma(
            platform.provisioning_median_s,
            platform.provisioning_p90_s,
        ),
        colocated: None,
        next_service_change_s: i64::MAX,
        units_unplaced: false,
        share_capacity: capacity_of(pool),
        shared_gpus: Vec::new(),
        free_shared: Vec::new(),
        shared_live: 0,
        job_gpu: Vec::new(),
        pipelines: super::pipelines::PipelineRuns::of(scenario, jobs),
        pass_order: super::pipelines::pass_order(scenario, platform),
    };
    if !scenario.services.is_empty() && shares_training_nodes(platform) {
        // Every service on the one pool (validation refuses services of several pools on
        // training's nodes).
        let at = platform.services_pool(scenario);
        let view = platform.pool_view(at);
        let prices = GpuSecondPrices::of(scenario, platform, &platform.node_pools[at]);
        let (served, demand) =
            serve_on_training_nodes(scenario, &view, replication, prices.on_demand);
        let classes = demand.sizes.len();
        sim.colocated_pool = at;
        sim.parked_colocated = Some(Colocated {
            served,
            demand,
            next_change: 0,
            units: vec![Vec::new(); classes],
            unplaced: vec![0; classes],
            unplaced_gpus: 0,
            unplaced_since_s: 0,
            unplaced_gpu_s: 0.0,
            steady_nodes: Vec::new(),
            held_gpu_s: 0.0,
            held_usd: 0.0,
            preemptions: 0,
        });
    }
    // Each class's plan on its own pool (the passes make each pool's plans again).
    let own_plans: Vec<ClassPlan> = scenario
        .job_classes
        .iter()
        .zip(&sim.class_pool)
        .map(|(class, &at)| ClassPlan::new(class, platform, &platform.node_pools[at]))
        .collect();
    if own_plans.iter().any(|plan| plan.fractional()) {
        sim.job_gpu = vec![u32::MAX; jobs.len()];
    }
    // Per class, not per job: the curve takes two powers a call.
    let efficiency: Vec<f64> = own_plans
        .iter()
        .map(|plan| platform.scaling_efficiency(plan.nodes_needed))
        .collect();
    for job in jobs {
        let on = &platform.node_pools[sim.class_pool[job.class]];
        let efficiency = efficiency[job.class];
        let wall = job.work_ref_s / on.relative_throughput * (1.0 + slowdown) / efficiency;
        let submitted = match &sim.pipelines {
            Some(runs) if !runs.submits_on_arrival(job.class) => None,
            _ => Some(job.arrival_s),
        };
        sim.states.push(JobState::new(
            (rounding::round(wall) as i64).max(1),
            submitted,
        ));
    }
    sim.plans = own_plans;
    sim.waiting = JobQueue::new(sim.queue_capacity());
    let first = sim.pass_order.first().copied().unwrap_or(0);
    sim.enter_pool(first, true);
    sim
}

impl Sim<'_> {
    /// Starts the pass of pool `index`: its nodes from none, its prices, its window, its
    /// classes' plans, the services where they share its nodes, the clock at 0. The job
    /// states, the ledger and the counts carry on from the passes before.
    /// (`first`: the first pass, whose plans and state `new_sim` made.)
    pub(super) fn enter_pool(&mut self, index: usize, first: bool) {
        let platform = self.platform;
        let pool = &platform.node_pools[index];
        if first {
            // The first pass may be another pool than pool 0 (pipelines order the passes):
            // its nodes are indexed by its own GPUs per node.
            self.index = NodeIndex::new(pool.gpus_per_node);
        } else {
            self.plans = self
                .scenario
                .job_classes
                .iter()
                .map(|class| ClassPlan::new(class, platform, pool))
                .collect();
            self.earlier_peaks += self.peak_nodes;
            self.peak_nodes = 0;
            self.alive_nodes = 0;
            self.free_slots = 0;
            self.now = 0;
            self.queue = EventQueue::new(self.horizon_s);
            self.compact_at = COMPACT_MIN;
            self.index = NodeIndex::new(pool.gpus_per_node);
            self.waiting = JobQueue::new(self.queue_capacity());
            if let Some(teams) = self.teams.as_mut() {
                teams.clear();
            }
            self.waiting_per_class.iter_mut().for_each(|n| *n = 0);
            self.shared_gpus.clear();
            self.free_shared.clear();
            self.shared_live = 0;
            self.units_unplaced = false;
            self.pass_first_node = self.nodes.len();
            // The services' state stays with their pool's pass.
            if self.colocated.is_some() {
                self.parked_colocated = self.colocated.take();
            }
        }
        self.pool = pool;
        self.pool_index = index;
        self.reclaims = None;
        // A pool's nodes read only with each other: passes run one after another.
        self.reads = self.new_reads();
        self.prices = GpuSecondPrices::of(self.scenario, platform, pool);
        self.warm_pool_window_s = rounding::round(pool.warm_pool_window_s) as i64;
        self.share_capacity = capacity_of(pool);
        self.ledger
            .set_relative_throughput(pool.relative_throughput);
        self.next_service_change_s = i64::MAX;
        if index == self.colocated_pool && self.parked_colocated.is_some() {
            self.colocated = self.parked_colocated.take();
            if let Some(c) = &self.colocated {
                self.next_service_change_s = c.demand.changes.first().map_or(i64::MAX, |c| c.0);
            }
        }
        self.defer_stages_of_this_pass();
    }

    /// Keys the waiting queue holds: a block of every job's per priority level.
    fn queue_capacity(&self) -> usize {
        let levels = self.teams.as_ref().map_or(1, |t| t.levels as usize);
        self.jobs.len() * levels
    }

    /// Whether `job` runs on the pool of the current pass.
    #[inline]
    pub(super) fn in_this_pool(&self, job: usize) -> bool {
        self.class_pool[self.jobs[job].class] == self.pool_index
    }

    /// One record per job: arrival, first compute, completion.
    pub(super) fn job_records(&self) -> Vec<JobRecord> {
        self.jobs
            .iter()
            .zip(&self.states)
            .map(|(job, state)| JobRecord {
                arrival_s: job.arrival_s,
                first_compute_s: state.first_compute_s,
                finished_s: state.finished_s,
                submitted_s: (state.submitted_s != i64::MAX).then_some(state.submitted_s),
            })
            .collect()
    }
}
