//! Setting up one platform's replication: the simulation's state ([`Sim`]), its core parts
//! (the pool pass, the node counts, the tally) and what is worked out once per run (prices,
//! per-class plans, each job's compute on this platform).

use super::super::event_queue::EventQueue;
use super::super::job_queue::JobQueue;
use super::super::jobs::Job;
use super::super::ledger::Ledger;
use super::super::node_index::NodeIndex;
use super::super::state::{ClassPlan, JobState, Node};
use super::super::timeline::{JobRecord, Timeline};
use super::mechanism::{Agenda, Mechanisms, PoolStart, Setup};
use super::placement::Waiting;
use super::window::Window;
use super::COMPACT_MIN;
use crate::model::pricing::GpuSecondPrices;
use crate::model::rng::lognormal_sigma;
use crate::model::rounding;
use crate::model::scenario::{NodePool, Platform, Scenario, DAY_S};

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
/// what has been measured so far, and the mechanisms.
#[derive(Clone)]
pub(super) struct Sim<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) platform: &'a Platform,
    pub(super) jobs: &'a [Job],
    pub(super) replication: u64,
    pub(super) now: i64,
    /// The end of the measured window, s from the start of the warm-up.
    pub(super) horizon_s: i64,
    /// The measured window's opening, and what the warm-up before it accrued.
    pub(super) window: Window,
    /// The future events and the event budget.
    pub(super) agenda: Agenda,
    /// The pool whose nodes the current pass simulates, and its constants.
    pub(super) pass: Pass<'a>,
    pub(super) nodes: Vec<Node>,
    /// The nodes not yet released, indexed for placement and counted.
    pub(super) capacity: Capacity,
    pub(super) states: Vec<JobState>,
    /// Per job class ([`ClassPlan`]), on the current pass's pool.
    pub(super) plans: Vec<ClassPlan>,
    pub(super) waiting: Waiting,
    /// Where every paid GPU-second went.
    pub(super) ledger: Ledger,
    /// The counts the outcome reads.
    pub(super) tally: Tally,
    /// Kept only when a timeline is asked for.
    pub(super) timeline: Option<Timeline>,
    /// The mechanisms, each with its own state ([`super::mechanism`]).
    pub(super) mech: Mechanisms,
    /// Shortcuts the tests turn off to check that they change nothing simulated.
    #[cfg(test)]
    pub(super) switches: TestSwitches,
}

/// The pass of one node pool. Pools share no node, so a platform's replication runs its
/// pools one after another, each pass submitting the jobs of the classes mapped to its pool
/// ([`Sim::enter_pool`]).
#[derive(Clone)]
pub(super) struct Pass<'a> {
    pub(super) pool: &'a NodePool,
    /// The pool's index on its platform.
    pub(super) index: usize,
    /// The pools in the order their passes run ([`super::pipelines::pass_order`]).
    pub(super) order: Vec<usize>,
    /// Per job class, the pool it runs on.
    pub(super) class_pool: Vec<usize>,
    /// The first node of the current pass (earlier passes' nodes are past their horizon).
    pub(super) first_node: usize,
    /// The pool's prices per GPU-second.
    pub(super) prices: GpuSecondPrices,
    /// σ of the provisioning time's log-normal ([`lognormal_sigma`]; the platform's).
    pub(super) provisioning_sigma: f64,
}

/// The nodes not yet released: placement looks nodes up in the index instead of scanning
/// every live node, so an event costs about the same on a 10,000-node cluster as on a small
/// one.
#[derive(Clone)]
pub(super) struct Capacity {
    pub(super) index: NodeIndex,
    /// Free GPU slots over the nodes not yet released.
    pub(super) free_slots: u64,
    pub(super) alive: u32,
    /// The most nodes alive at once in this pass, and the peaks of the passes before it,
    /// summed.
    pub(super) peak: u32,
    pub(super) earlier_peaks: u32,
    /// Reused buffer of node ids (no allocation per placement attempt).
    pub(super) scratch: Vec<usize>,
}

/// What the replication counts as it goes, for the outcome.
#[derive(Default, Clone)]
pub(super) struct Tally {
    pub(super) completed: u64,
    pub(super) gave_up: u64,
    /// Of the completed jobs: wall time from submission ÷ nominal time, summed.
    pub(super) inflation_sum: f64,
    /// Spot interruptions (node by node and in reclaim waves).
    pub(super) interruptions: u64,
    pub(super) egress_gb: f64,
    /// Data read where the platform and the data have regions (priced as transfer), GB.
    pub(super) data_read_gb: f64,
    /// Whether data reads pay transfer between regions ([`Platform::data_read_usd_per_gb`])
    /// rather than a billed share as egress.
    pub(super) reads_pay_transfer: bool,
    /// Of the queue waits of the jobs started so far: time spent waiting for capacity and
    /// provisioning on the node each waited for ([`Sim::count_first_wait_parts`]), s.
    pub(super) wait_capacity_s: i64,
    pub(super) wait_provisioning_s: i64,
    /// Per job class: the GPU time its jobs spent (GPU-seconds, USD), every category charged
    /// to a job (each team's own use; what nodes spend without a job is shared).
    pub(super) class_spend: Vec<(f64, f64)>,
    /// Per job class: its jobs evicted for another team's quota, a higher priority or node
    /// consolidation.
    pub(super) class_preempted: Vec<u64>,
}

/// A platform's replication at time 0: nothing requested, every job yet to arrive, the first
/// pool's pass entered.
pub(super) fn new_sim<'a>(
    scenario: &'a Scenario,
    platform_index: usize,
    replication: u64,
    jobs: &'a [Job],
) -> Sim<'a> {
    // Arrivals are taken in order, and the outcome counts the submitted jobs by bisection.
    debug_assert!(jobs.is_sorted_by_key(|j| j.arrival_s));
    let platform = &scenario.platforms[platform_index];
    let slowdown = platform.storage_read_slowdown_pct / 100.0;
    let from_s = scenario.warmup_s();
    let horizon_s = from_s + rounding::round(scenario.horizon_days * DAY_S) as i64;
    let classes = scenario.job_classes.len();
    let class_pool: Vec<usize> = (0..classes)
        .map(|class| platform.pool_of_class(scenario, class))
        .collect();
    // Each class's plan on its own pool.
    let own_plans: Vec<ClassPlan> = scenario
        .job_classes
        .iter()
        .zip(&class_pool)
        .map(|(class, &at)| ClassPlan::new(class, platform, &platform.node_pools[at]))
        .collect();
    let mech = Mechanisms::of(&Setup {
        scenario,
        platform,
        jobs,
        replication,
        own_plans: &own_plans,
    });
    // Per class, not per job: the curve takes two powers a call.
    let efficiency: Vec<f64> = own_plans
        .iter()
        .map(|plan| platform.scaling_efficiency(plan.nodes_needed))
        .collect();
    let states = jobs
        .iter()
        .map(|job| {
            let on = &platform.node_pools[class_pool[job.class]];
            let efficiency = efficiency[job.class];
            let wall = job.work_ref_s / on.relative_throughput * (1.0 + slowdown) / efficiency;
            let submitted = match &mech.pipelines {
                Some(runs) if !runs.submits_on_arrival(job.class) => None,
                _ => Some(job.arrival_s),
            };
            JobState::new((rounding::round(wall) as i64).max(1), submitted)
        })
        .collect();
    let order = super::pipelines::pass_order(scenario, platform);
    let first = order.first().copied().unwrap_or(0);
    // The first pool's pass starts from what every pass starts from (`enter_pool`).
    let start = PoolState::of(scenario, platform, first);
    let waiting_keys = waiting_keys(jobs.len(), &mech);
    let mut sim = Sim {
        scenario,
        platform,
        jobs,
        replication,
        now: 0,
        horizon_s,
        window: Window::new(from_s),
        agenda: Agenda::new(horizon_s, COMPACT_MIN),
        pass: Pass {
            pool: start.pool,
            index: first,
            order,
            class_pool,
            first_node: 0,
            prices: start.prices,
            provisioning_sigma: lognormal_sigma(
                platform.provisioning_median_s,
                platform.provisioning_p90_s,
            ),
        },
        nodes: Vec::new(),
        capacity: Capacity {
            index: start.nodes,
            free_slots: 0,
            alive: 0,
            peak: 0,
            earlier_peaks: 0,
            scratch: Vec::new(),
        },
        states,
        plans: start.plans,
        waiting: Waiting {
            queue: JobQueue::new(waiting_keys),
            per_class: vec![0; classes],
        },
        ledger: Ledger::new(
            jobs.len(),
            scenario
                .job_classes
                .iter()
                .any(|class| class.failures.probability > 0.0),
            start.pool.relative_throughput,
            slowdown,
        ),
        tally: Tally {
            reads_pay_transfer: platform.data_read_usd_per_gb(scenario).is_some(),
            class_spend: vec![(0.0, 0.0); classes],
            class_preempted: vec![0; classes],
            ..Tally::default()
        },
        timeline: None,
        mech,
        #[cfg(test)]
        switches: TestSwitches {
            compact_min: COMPACT_MIN,
            offer_on_arrival: true,
        },
    };
    sim.begin_pass();
    sim
}

/// What a pass of one pool starts from: the pool, its prices, an empty index of its nodes
/// and every class's plan on it. Made once per pass, the first as every later one.
struct PoolState<'a> {
    pool: &'a NodePool,
    prices: GpuSecondPrices,
    nodes: NodeIndex,
    plans: Vec<ClassPlan>,
}

impl<'a> PoolState<'a> {
    fn of(scenario: &'a Scenario, platform: &'a Platform, index: usize) -> PoolState<'a> {
        let pool = &platform.node_pools[index];
        PoolState {
            pool,
            prices: GpuSecondPrices::of(scenario, platform, pool),
            // Indexed by this pool's GPUs per node.
            nodes: NodeIndex::new(pool.gpus_per_node),
            plans: scenario
                .job_classes
                .iter()
                .map(|class| ClassPlan::new(class, platform, pool))
                .collect(),
        }
    }
}

/// Keys the waiting queue holds: a block of every job's per priority level.
fn waiting_keys(jobs: usize, mech: &Mechanisms) -> usize {
    let levels = mech.teams.as_ref().map_or(1, |t| t.levels);
    jobs * levels as usize
}

impl Sim<'_> {
    /// Starts the pass of pool `index` after another pool's: its nodes from none, its
    /// prices, its classes' plans, the clock at 0 ([`Sim::begin_pass`]). The job states, the
    /// ledger and the tally carry on from the passes before.
    pub(super) fn enter_pool(&mut self, index: usize) {
        let start = PoolState::of(self.scenario, self.platform, index);
        let capacity = &mut self.capacity;
        capacity.earlier_peaks += capacity.peak;
        capacity.peak = 0;
        capacity.alive = 0;
        capacity.free_slots = 0;
        capacity.index = start.nodes;
        self.now = 0;
        self.agenda.queue = EventQueue::new(self.horizon_s);
        self.agenda.compact_at = COMPACT_MIN;
        self.waiting.queue = JobQueue::new(waiting_keys(self.jobs.len(), &self.mech));
        self.waiting.per_class.iter_mut().for_each(|n| *n = 0);
        self.pass.first_node = self.nodes.len();
        self.pass.pool = start.pool;
        self.pass.index = index;
        self.pass.prices = start.prices;
        self.plans = start.plans;
        self.ledger
            .set_relative_throughput(start.pool.relative_throughput);
        self.begin_pass();
    }

    /// The current pool's pass begins: the mechanisms' state of the pool.
    fn begin_pass(&mut self) {
        self.mech.enter_pool(&PoolStart {
            pool: self.pass.pool,
            index: self.pass.index,
            jobs: self.jobs,
            states: &self.states,
            class_pool: &self.pass.class_pool,
        });
    }

    /// Whether `job` runs on the pool of the current pass.
    #[inline]
    pub(super) fn in_this_pool(&self, job: usize) -> bool {
        self.pass.class_pool[self.jobs[job].class] == self.pass.index
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
