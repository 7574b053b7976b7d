//! The event loop of one platform in one replication.
//!
//! Invariants:
//! - Time is integer seconds. Events at equal times pop in insertion order (a sequence number
//!   breaks ties); internal events at a time run before arrivals at that time.
//! - Nothing iterates a hash map: nodes and jobs are vectors, the queue is ordered by job index
//!   (submission order).
//! - Every paid GPU-second is charged to exactly one [`Category`] where it is spent, through
//!   the cost ledger: node-level for provisioning, idle slots and billing rounding; job-level
//!   for pulls, restarts, compute, checkpoint writes and held-while-waiting time.
//!
//! A node: requested → capacity wait (not billed) → provisioning (billed) → ready, with GPU
//! slots that jobs hold → empty → released after the warm-pool window (reserved nodes stay for
//! the horizon). Spot nodes draw an exponential interruption time when they become ready.
//!
//! A job attempt: [image pull][restart overhead][compute τ, write δ]… with a checkpoint written
//! after every τ of compute, including the last (the final save). An interruption loses the
//! compute since the last checkpoint, unless the notice is long enough to write one (checkpoint
//! on notice). A failing attempt loses its compute since the last checkpoint; a job that gives
//! up turns all its kept compute into failed-attempt cost.

use super::checkpoint::{checkpoint_cycle, checkpoints_in, compute_done, writes_before};
use super::event_queue::{Event, EventQueue};
use super::job_queue::JobQueue;
use super::jobs::Job;
use super::ledger::Ledger;
use super::node_index::NodeIndex;
use super::outcome::PlatformOutcome;
use super::timeline::{AttemptEnd, AttemptSpan, JobRecord, NodeSpan, Timeline};
use crate::model::cost_category::Category;
use crate::model::rng::{lognormal_sigma, Purpose, Stream};
use crate::model::rounding::{self, ceil_div};
use crate::model::scenario::{
    limits, FailureKind, Overflow, Placement, Platform, Scenario, DAY_S, HOUR_S,
};
use crate::model::HOURS_PER_MONTH;
use smallvec::SmallVec;

/// Queue length below which stale events are never dropped (small runs never compact).
const COMPACT_MIN: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NodeKind {
    Reserved,
    OnDemand,
    Spot,
}

#[derive(Debug, Clone)]
struct Node {
    kind: NodeKind,
    usd_per_gpu_s: f64,
    billing_start_s: i64,
    ready: bool,
    /// When it became ready, s (meaningful once `ready`).
    ready_at_s: i64,
    released: bool,
    /// GPU slots held by no job.
    free: u32,
    /// Since when `free` has been unchanged (idle accounting, while ready).
    free_since_s: i64,
    /// Jobs holding slots on this node (ids as 32 bits, like the event queue's: a replication
    /// handles far fewer than 2^32 jobs).
    holders: SmallVec<[u32; 8]>,
    /// Job classes whose image this node has cached (bit per class).
    images: u64,
    idle_generation: u32,
    /// Spot interruption clock: an Exp(1) draw, scaled by 1/λ when the node becomes ready (0
    /// and unused on nodes that are never interrupted).
    interruption_draw: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Waiting,
    /// Holds nodes; starts when it holds all it needs and they are ready.
    Holding,
    Running,
    Done,
    GaveUp,
}

/// Why an attempt is closed ([`Sim::close_attempt`]), and so where its unkept compute goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Close {
    /// It ran to the end of the job's compute.
    Finished,
    /// It failed: compute since the last checkpoint is a failed attempt.
    Failed,
    /// A spot interruption stopped it: compute since the last checkpoint is rework, unless
    /// the notice was long enough to write one (`on_notice`).
    Interrupted { on_notice: bool },
    /// It is still running at the horizon: all its compute so far counts.
    Horizon,
}

impl Close {
    /// The category of the compute the attempt loses; `None` when it keeps all.
    fn lost_as(self) -> Option<Category> {
        match self {
            Close::Failed => Some(Category::FailedAttempts),
            Close::Interrupted { .. } => Some(Category::InterruptionRework),
            Close::Finished | Close::Horizon => None,
        }
    }
}

/// A node a job holds.
#[derive(Debug, Clone, Copy)]
struct Hold {
    /// Node id (ids stay far below 2^32: a node costs at least one event, and a replication
    /// handles at most [`limits::EVENTS_PER_REPLICATION_MAX`]).
    node: u32,
    /// GPU slots the job uses on it (the rest of a held whole node is idle).
    used: u32,
    /// Since when it is held (capacity wait counts from the later of this and the node's
    /// ready time), s.
    since_s: i64,
}

impl Hold {
    fn node(&self) -> usize {
        self.node as usize
    }
}

#[derive(Debug, Clone)]
struct JobState {
    phase: Phase,
    /// Compute needed on this platform, s (per GPU).
    total_c: i64,
    /// Compute kept by checkpoints, s.
    committed_c: i64,
    attempts: u32,
    /// Attempts that failed (interrupted ones are not failures: only these count against the
    /// class's retry limit).
    failed_attempts: u32,
    generation: u32,
    /// The nodes it holds, in the order it took them.
    holds: SmallVec<[Hold; 2]>,
    /// Current attempt.
    attempt_start_s: i64,
    pull_s: i64,
    restart_s: i64,
    /// Compute the attempt runs before failing, s; `None` if it does not fail.
    fail_after_c: Option<i64>,
    /// Start of its first compute, s: planned when the attempt that reaches it starts (an
    /// attempt stopped before its compute began takes its plan back, [`Sim::interrupt`]).
    first_compute_s: Option<i64>,
    /// Image pulls before its first compute, s (a part of the queue wait): the one of the
    /// attempt that computes first, and what attempts stopped before computing had pulled.
    first_pull_s: i64,
    finished_s: Option<i64>,
}

/// What the event loop needs of a job class on this platform, worked out once per run
/// (the per-event path then does no division, rounding or lookup through the scenario).
#[derive(Debug, Clone, Copy)]
struct ClassPlan {
    /// GPUs per job.
    gpus: u32,
    /// Nodes a job needs.
    nodes_needed: u32,
    /// Jobs hold whole nodes: multi-node jobs, and every job on exclusive platforms; other
    /// jobs hold their GPUs on one shared node.
    whole_nodes: bool,
    /// GPU slots a job holds on each of its nodes.
    slots_held: u32,
    /// Checkpoint interval τ and write time δ, s ([`checkpoint_cycle`]).
    tau: i64,
    delta: i64,
    /// Image pull on a node without the image, s.
    pull_s: i64,
    /// Restart overhead of a resumed attempt, s.
    restart_s: i64,
}

struct Sim<'a> {
    scenario: &'a Scenario,
    platform: &'a Platform,
    jobs: &'a [Job],
    horizon_s: i64,
    now: i64,
    queue: EventQueue,
    /// Queue length at which stale events are dropped next (see [`Sim::compact_queue`]).
    compact_at: usize,
    /// Smallest queue that is ever compacted ([`COMPACT_MIN`]; tests change it).
    compact_min: usize,
    /// An arriving job is offered capacity at once when no job waits, instead of through a
    /// placement pass (the same placement; tests turn it off to check that).
    offer_on_arrival: bool,
    nodes: Vec<Node>,
    /// The nodes not yet released by state and free GPUs: placement looks nodes up here
    /// instead of scanning every live node, so an event costs about the same on a
    /// 10,000-node cluster as on a small one.
    index: NodeIndex,
    /// Free GPU slots over the nodes not yet released.
    free_slots: u64,
    alive_nodes: u32,
    peak_nodes: u32,
    states: Vec<JobState>,
    /// Per job class ([`ClassPlan`]).
    plans: Vec<ClassPlan>,
    waiting: JobQueue,
    /// Jobs in `waiting` per job class (lets placement stop once no waiting class can fit).
    waiting_per_class: Vec<u32>,
    replication: u64,
    /// Kept only when a timeline is asked for.
    timeline: Option<Timeline>,
    /// Where every paid GPU-second went.
    ledger: Ledger,
    egress_gb: f64,
    interruptions: u64,
    /// Events handled (arrivals and queued events), for the benchmarks.
    events: u64,
    /// Reused buffer of node ids (no allocation per placement attempt).
    scratch_nodes: Vec<usize>,
    /// Most events this replication may handle ([`limits::EVENTS_PER_REPLICATION_MAX`]).
    event_budget: u64,
    /// The event budget ran out before the horizon.
    cut_off: bool,
    completed: u64,
    gave_up: u64,
    inflation_sum: f64,
    /// Of the queue waits of the jobs started so far: time spent waiting for capacity and
    /// provisioning on the node each waited for ([`Sim::node_wait_parts`]), s.
    wait_capacity_s: i64,
    wait_provisioning_s: i64,
    // Per-platform constants.
    price_on_demand: f64,
    price_spot: f64,
    price_reserved: f64,
    /// How long an idle node is kept before it is released (the warm pool), s.
    warm_pool_window_s: i64,
    /// σ of the provisioning time's log-normal ([`lognormal_sigma`]).
    provisioning_sigma: f64,
}

/// Simulates `platform` (index `platform_index` in the scenario) against `jobs` in replication
/// `replication`. Returns the outcome and, if `keep_records`, one record per job.
pub fn simulate_platform(
    scenario: &Scenario,
    platform_index: usize,
    replication: u64,
    jobs: &[Job],
    keep_records: bool,
) -> (PlatformOutcome, Option<Vec<JobRecord>>) {
    let mut sim = new_sim(scenario, platform_index, replication, jobs);
    sim.run();
    let records = keep_records.then(|| sim.job_records());
    (sim.outcome(), records)
}

/// Like [`simulate_platform`] (no records), stopping after `event_budget` events: the
/// outcome says `cut_off` when the budget ran out before the horizon.
pub fn simulate_platform_within(
    scenario: &Scenario,
    platform_index: usize,
    replication: u64,
    jobs: &[Job],
    event_budget: u64,
) -> PlatformOutcome {
    let mut sim = new_sim(scenario, platform_index, replication, jobs);
    sim.event_budget = event_budget;
    sim.run();
    sim.outcome()
}

/// Like [`simulate_platform`], keeping the timeline of every node and attempt (for the node
/// timeline chart: one replication, one platform).
pub fn simulate_platform_timeline(
    scenario: &Scenario,
    platform_index: usize,
    replication: u64,
    jobs: &[Job],
) -> (PlatformOutcome, Timeline) {
    let mut sim = new_sim(scenario, platform_index, replication, jobs);
    sim.timeline = Some(Timeline {
        gpus_per_node: scenario.platforms[platform_index].gpus_per_node,
        horizon_s: sim.horizon_s,
        ..Timeline::default()
    });
    sim.run();
    let timeline = sim.timeline.take().unwrap_or_default();
    (sim.outcome(), timeline)
}

fn new_sim<'a>(
    scenario: &'a Scenario,
    platform_index: usize,
    replication: u64,
    jobs: &'a [Job],
) -> Sim<'a> {
    // Arrivals are taken in order, and the outcome counts the submitted jobs by bisection.
    debug_assert!(jobs.is_sorted_by_key(|j| j.arrival_s));
    let platform = &scenario.platforms[platform_index];
    let list_factor = scenario.list_price_factor(platform);
    let gpn = f64::from(platform.gpus_per_node);
    let per_gpu_s = |usd_per_node_hour: f64| usd_per_node_hour * list_factor / HOUR_S / gpn;
    let slowdown = platform.storage_read_slowdown_pct / 100.0;
    let horizon_s = rounding::round(scenario.horizon_days * DAY_S) as i64;
    let mut sim = Sim {
        scenario,
        platform,
        jobs,
        horizon_s,
        now: 0,
        queue: EventQueue::new(horizon_s),
        compact_at: COMPACT_MIN,
        compact_min: COMPACT_MIN,
        offer_on_arrival: true,
        nodes: Vec::new(),
        index: NodeIndex::new(platform.gpus_per_node),
        free_slots: 0,
        alive_nodes: 0,
        peak_nodes: 0,
        states: Vec::with_capacity(jobs.len()),
        plans: Vec::new(),
        waiting: JobQueue::new(jobs.len()),
        waiting_per_class: vec![0; scenario.job_classes.len()],
        replication,
        timeline: None,
        ledger: Ledger::new(
            jobs.len(),
            scenario
                .job_classes
                .iter()
                .any(|class| class.failures.probability > 0.0),
            platform.relative_throughput,
            slowdown,
        ),
        egress_gb: 0.0,
        interruptions: 0,
        events: 0,
        scratch_nodes: Vec::new(),
        event_budget: limits::EVENTS_PER_REPLICATION_MAX,
        cut_off: false,
        completed: 0,
        gave_up: 0,
        inflation_sum: 0.0,
        wait_capacity_s: 0,
        wait_provisioning_s: 0,
        price_on_demand: per_gpu_s(platform.on_demand_usd_per_node_hour),
        price_spot: per_gpu_s(platform.spot_usd_per_node_hour),
        price_reserved: per_gpu_s(platform.on_demand_usd_per_node_hour)
            * (1.0 - platform.purchase.reserved_discount_pct / 100.0),
        warm_pool_window_s: rounding::round(platform.warm_pool_window_s) as i64,
        provisioning_sigma: lognormal_sigma(
            platform.provisioning_median_s,
            platform.provisioning_p90_s,
        ),
    };
    sim.plans = scenario
        .job_classes
        .iter()
        .map(|class| {
            let gpus = class.gpus_per_job;
            let nodes_needed = sim.nodes_needed(gpus);
            let whole_nodes = nodes_needed > 1 || platform.placement == Placement::Exclusive;
            let (tau, delta) = checkpoint_cycle(class);
            ClassPlan {
                gpus,
                nodes_needed,
                whole_nodes,
                slots_held: if whole_nodes {
                    platform.gpus_per_node
                } else {
                    gpus
                },
                tau,
                delta,
                pull_s: rounding::round(class.image_gb / platform.image_pull_gb_per_s) as i64,
                restart_s: rounding::round(class.restart_overhead_s) as i64,
            }
        })
        .collect();
    for job in jobs {
        let efficiency = if sim.plans[job.class].nodes_needed > 1 {
            platform.multi_node_efficiency
        } else {
            1.0
        };
        let wall = job.work_ref_s / platform.relative_throughput * (1.0 + slowdown) / efficiency;
        sim.states.push(JobState {
            phase: Phase::Waiting,
            total_c: (rounding::round(wall) as i64).max(1),
            committed_c: 0,
            attempts: 0,
            failed_attempts: 0,
            generation: 0,
            holds: SmallVec::new(),
            attempt_start_s: 0,
            pull_s: 0,
            restart_s: 0,
            fail_after_c: None,
            first_compute_s: None,
            first_pull_s: 0,
            finished_s: None,
        });
    }
    sim
}

impl Sim<'_> {
    fn job_records(&self) -> Vec<JobRecord> {
        self.jobs
            .iter()
            .zip(&self.states)
            .map(|(job, state)| JobRecord {
                arrival_s: job.arrival_s,
                first_compute_s: state.first_compute_s,
                finished_s: state.finished_s,
            })
            .collect()
    }

    fn nodes_needed(&self, gpus: u32) -> u32 {
        gpus.div_ceil(self.platform.gpus_per_node)
    }

    fn push(&mut self, at_s: i64, event: Event) {
        self.queue.push(at_s, event);
        if self.queue.len() >= self.compact_at {
            self.compact_queue();
        }
    }

    /// Charges `gpu_seconds` on `node` to `category`.
    fn charge(&mut self, node: usize, category: Category, gpu_seconds: f64) {
        self.ledger
            .charge(category, gpu_seconds, self.nodes[node].usd_per_gpu_s);
    }

    // ----- nodes -----

    fn add_node(&mut self, kind: NodeKind, ready_now: bool) -> usize {
        let id = self.nodes.len();
        let price = match kind {
            NodeKind::Reserved => self.price_reserved,
            NodeKind::OnDemand => self.price_on_demand,
            NodeKind::Spot => self.price_spot,
        };
        let p = self.platform;
        // The n-th node of every platform draws from the same stream, in a fixed order
        // (capacity wait, provisioning, then the interruption clock where it can be
        // interrupted): common random numbers across platforms, independent of event order.
        let mut rng = Stream::new(
            self.scenario.seed,
            self.replication,
            Purpose::Nodes,
            id as u64,
        );
        let capacity_wait = rng.exponential(p.capacity_wait_mean_s);
        let provisioning = rng.lognormal(p.provisioning_median_s, self.provisioning_sigma);
        // The stream's last draw, so skipping it where no interruption can come changes no
        // other draw (and saves a logarithm per node).
        let interruptible = kind == NodeKind::Spot && p.spot_interruptions_per_node_hour > 0.0;
        let interruption_draw = if interruptible {
            rng.exponential(1.0)
        } else {
            0.0
        };
        let billing_start = if ready_now {
            self.now
        } else {
            self.now + rounding::round(capacity_wait) as i64
        };
        self.nodes.push(Node {
            kind,
            usd_per_gpu_s: price,
            billing_start_s: billing_start,
            ready: false,
            ready_at_s: 0,
            released: false,
            free: p.gpus_per_node,
            free_since_s: self.now,
            holders: SmallVec::new(),
            images: 0,
            idle_generation: 0,
            interruption_draw,
        });
        self.index.insert(false, p.gpus_per_node, id);
        self.free_slots += u64::from(p.gpus_per_node);
        self.alive_nodes += 1;
        self.peak_nodes = self.peak_nodes.max(self.alive_nodes);
        if let Some(t) = self.timeline.as_mut() {
            t.nodes.push(NodeSpan {
                kind: match kind {
                    NodeKind::Reserved => "reserved",
                    NodeKind::OnDemand => "on_demand",
                    NodeKind::Spot => "spot",
                },
                requested_s: self.now,
                billing_start_s: billing_start,
                ready_s: None,
                end_s: self.horizon_s,
                interrupted: false,
            });
        }
        if ready_now {
            self.node_ready(id);
        } else {
            let ready_at = billing_start + rounding::round(provisioning) as i64;
            self.push(ready_at, Event::NodeReady(id));
        }
        id
    }

    fn overflow_kind(&self) -> Option<NodeKind> {
        match self.platform.purchase.overflow {
            Overflow::OnDemand => Some(NodeKind::OnDemand),
            Overflow::Spot => Some(NodeKind::Spot),
            Overflow::None => None,
        }
    }

    fn can_add_node(&self) -> bool {
        self.overflow_kind().is_some() && self.alive_nodes < self.platform.max_nodes
    }

    fn set_free(&mut self, node: usize, free: u32) {
        let n = &self.nodes[node];
        if n.ready && !n.released {
            let idle = f64::from(n.free) * (self.now - n.free_since_s) as f64;
            self.charge(node, Category::Idle, idle);
        }
        let n = &mut self.nodes[node];
        if !n.released {
            self.free_slots = self.free_slots + u64::from(free) - u64::from(n.free);
            self.index.update(n.ready, n.free, free, node);
        }
        n.free = free;
        n.free_since_s = self.now;
    }

    fn node_ready(&mut self, node: usize) {
        let gpn = f64::from(self.platform.gpus_per_node);
        let provisioning = (self.now - self.nodes[node].billing_start_s) as f64 * gpn;
        self.charge(node, Category::ProvisioningAndPulls, provisioning);
        let n = &mut self.nodes[node];
        if !n.ready && !n.released {
            self.index.remove(false, n.free, node);
            self.index.insert(true, n.free, node);
        }
        n.ready = true;
        n.ready_at_s = self.now;
        if let Some(span) = self.timeline.as_mut().and_then(|t| t.nodes.get_mut(node)) {
            span.ready_s = Some(self.now);
        }
        let n = &mut self.nodes[node];
        n.free_since_s = self.now;
        if n.kind == NodeKind::Spot {
            let rate = self.platform.spot_interruptions_per_node_hour;
            if rate > 0.0 {
                let after = self.nodes[node].interruption_draw * HOUR_S / rate;
                let at = self
                    .now
                    .saturating_add(rounding::round(after.min(1e15)) as i64);
                if at < self.horizon_s {
                    self.push(at, Event::Interrupt(node));
                }
            }
        }
        // By index: a job starting here does not change this node's holders.
        for i in 0..self.nodes[node].holders.len() {
            let job = self.nodes[node].holders[i] as usize;
            self.start_if_ready(job, true);
        }
        self.maybe_schedule_release(node);
    }

    fn maybe_schedule_release(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        if n.kind == NodeKind::Reserved || n.released || !n.ready || !n.holders.is_empty() {
            return;
        }
        n.idle_generation += 1;
        let generation = n.idle_generation;
        let at = self.now + self.warm_pool_window_s;
        self.push(at, Event::IdleTimeout { node, generation });
    }

    fn release_node(&mut self, node: usize) {
        let free = self.nodes[node].free;
        self.set_free(node, free);
        let n = &self.nodes[node];
        let used = (self.now - n.billing_start_s).max(0);
        let b = &self.platform.billing;
        let granularity = i64::from(b.granularity_s.max(1));
        let billed = (ceil_div(used, granularity) * granularity).max(i64::from(b.minimum_s));
        let gpn = f64::from(self.platform.gpus_per_node);
        self.charge(
            node,
            Category::BillingRounding,
            (billed - used) as f64 * gpn,
        );
        self.ledger.paid_gpu_s += billed as f64 * gpn;
        self.free_slots -= u64::from(self.nodes[node].free);
        let n = &self.nodes[node];
        self.index.remove(n.ready, n.free, node);
        self.nodes[node].released = true;
        let now = self.now;
        if let Some(span) = self.timeline.as_mut().and_then(|t| t.nodes.get_mut(node)) {
            span.end_s = now;
        }
        self.alive_nodes -= 1;
    }

    // ----- placement -----

    /// Offers free capacity to waiting jobs in submission order. Walks the queue with a
    /// cursor (placing a job removes it) and stops as soon as no slot is free and no node can
    /// be added, so a long queue costs nothing while the cluster is full.
    ///
    /// Within one pass capacity only shrinks (jobs take slots, nodes are only added while the
    /// node limit allows, and a refusal means it does not), so once a job of some size is
    /// refused, every later job at least as large is refused too and is skipped without a
    /// search: the same placements, without rescanning the nodes for each of them.
    fn dispatch(&mut self) {
        if self.waiting.is_empty() {
            return;
        }
        let mut cursor = 0;
        // Smallest shared-node job (GPUs) and smallest gang of whole nodes refused so far.
        let mut refused_gpus = u32::MAX;
        let mut refused_nodes = usize::MAX;
        while let Some(job) = self.waiting.first_from(cursor) {
            cursor = job + 1;
            if self.free_slots == 0 && !self.can_add_node() {
                break;
            }
            let plan = self.plan(job);
            let gpus = plan.gpus;
            let shared = !plan.whole_nodes;
            let missing = plan.nodes_needed as usize - self.states[job].holds.len();
            let gang = self.platform.gang_scheduling || missing == 1;
            if (shared && gpus >= refused_gpus) || (!shared && gang && missing >= refused_nodes) {
                continue;
            }
            if !self.try_place(job) {
                if shared {
                    refused_gpus = refused_gpus.min(gpus);
                } else if gang {
                    refused_nodes = refused_nodes.min(missing);
                }
                // Every job still waiting would be skipped: stop (a long queue of jobs that
                // cannot fit must not cost a walk per event).
                if self.all_waiting_refused(refused_gpus, refused_nodes) {
                    break;
                }
            }
        }
    }

    /// Whether every waiting job's class is one the pass already refused: shared-node jobs of
    /// at least `refused_gpus` GPUs, gangs of at least `refused_nodes` whole nodes. (Jobs of a
    /// non-gang multi-node class may hold part of their nodes, so they are never skipped.)
    fn all_waiting_refused(&self, refused_gpus: u32, refused_nodes: usize) -> bool {
        self.waiting_per_class
            .iter()
            .zip(&self.plans)
            .all(|(&n, plan)| {
                let gpus = plan.gpus;
                let needed = plan.nodes_needed as usize;
                let shared = !plan.whole_nodes;
                n == 0
                    || (shared && gpus >= refused_gpus)
                    || (!shared
                        && (self.platform.gang_scheduling || needed == 1)
                        && needed >= refused_nodes)
            })
    }

    fn enqueue(&mut self, job: usize) {
        if self.waiting.insert(job) {
            self.waiting_per_class[self.jobs[job].class] += 1;
        }
    }

    fn dequeue(&mut self, job: usize) {
        // An arriving job offered capacity at once was never queued (nothing waited then).
        if !self.waiting.is_empty() && self.waiting.remove(job) {
            self.waiting_per_class[self.jobs[job].class] -= 1;
        }
    }

    /// Places `job` (or the part of a gang it can hold); returns whether it left the queue.
    fn try_place(&mut self, job: usize) -> bool {
        let plan = self.plan(job);
        let gpus = plan.gpus;
        let gpn = self.platform.gpus_per_node;
        if !plan.whole_nodes {
            if let Some(node) = self.pick_shared_node(gpus, self.platform.placement) {
                self.hold(job, node, gpus);
                self.dequeue(job);
                // Its one node is held from now: no capacity wait to charge.
                self.start_if_ready(job, false);
                return true;
            }
            return false;
        }
        // Whole nodes: multi-node jobs, and every job on exclusive platforms.
        let needed = plan.nodes_needed as usize;
        let held_before = self.states[job].holds.len();
        let missing = needed - held_before;
        let mut empty = std::mem::take(&mut self.scratch_nodes);
        self.empty_nodes(&mut empty);
        let addable = if self.overflow_kind().is_some() {
            (self.platform.max_nodes - self.alive_nodes) as usize
        } else {
            0
        };
        let gang = self.platform.gang_scheduling || needed == 1;
        if gang && empty.len() + addable < missing {
            self.scratch_nodes = empty;
            return false;
        }
        let mut taken = 0;
        for &node in empty.iter().take(missing) {
            self.hold(job, node, gpn);
            taken += 1;
        }
        self.scratch_nodes = empty;
        while taken < missing && self.can_add_node() {
            let kind = self.overflow_kind().unwrap_or(NodeKind::OnDemand);
            let node = self.add_node(kind, false);
            self.hold(job, node, gpn);
            taken += 1;
        }
        if self.states[job].holds.len() == needed {
            self.dequeue(job);
            // Spread the job's GPUs over its nodes; the rest of each node is held but idle.
            let mut left = gpus;
            for hold in self.states[job].holds.iter_mut() {
                hold.used = left.min(gpn);
                left -= hold.used;
            }
            // Capacity wait accrues only on nodes held before now.
            self.start_if_ready(job, held_before > 0);
            return true;
        }
        false
    }

    /// Ready nodes first, then nodes being provisioned; among them by placement: the fullest
    /// node the job fits on (bin-pack), or an empty node, else the emptiest (spread); ties go
    /// to the lowest id.
    fn pick_shared_node(&mut self, gpus: u32, placement: Placement) -> Option<usize> {
        let index = &self.index;
        match placement {
            Placement::Spread => {
                if let Some(i) = index
                    .empty(true)
                    .next()
                    .or_else(|| index.empty(false).next())
                {
                    return Some(i);
                }
                if self.can_add_node() {
                    let kind = self.overflow_kind().unwrap_or(NodeKind::OnDemand);
                    return Some(self.add_node(kind, false));
                }
                index
                    .emptiest(true, gpus)
                    .or_else(|| index.emptiest(false, gpus))
            }
            _ => {
                let fit = index
                    .fullest_fit(true, gpus)
                    .or_else(|| index.fullest_fit(false, gpus));
                if fit.is_some() {
                    return fit;
                }
                if self.can_add_node() {
                    let kind = self.overflow_kind().unwrap_or(NodeKind::OnDemand);
                    return Some(self.add_node(kind, false));
                }
                None
            }
        }
    }

    /// The empty nodes into `out` (cleared first): ready ones, then those being provisioned,
    /// each in id order.
    fn empty_nodes(&self, out: &mut Vec<usize>) {
        out.clear();
        out.extend(self.index.empty(true));
        out.extend(self.index.empty(false));
    }

    fn hold(&mut self, job: usize, node: usize, slots: u32) {
        let free = self.nodes[node].free - slots;
        self.set_free(node, free);
        let n = &mut self.nodes[node];
        debug_assert!(job <= u32::MAX as usize);
        n.holders.push(job as u32);
        n.idle_generation += 1; // cancels a pending release
        let st = &mut self.states[job];
        st.phase = Phase::Holding;
        st.holds.push(Hold {
            node: node as u32,
            used: slots,
            since_s: self.now,
        });
    }

    fn unhold_all(&mut self, job: usize) {
        let slots = self.plan(job).slots_held;
        // By index: releasing a node's slots never changes the job's own node list.
        for i in 0..self.states[job].holds.len() {
            let node = self.states[job].holds[i].node();
            if self.nodes[node].released {
                continue;
            }
            let free = self.nodes[node].free + slots;
            self.set_free(node, free);
            // A job holds a node once; the other holders keep their order. (Not `remove`: its
            // shift is a `memory.copy` in wasm32, which V8 calls out for, even for no bytes.)
            self.nodes[node].holders.retain(|j| *j as usize != job);
            self.maybe_schedule_release(node);
        }
        self.states[job].holds.clear();
    }

    /// The job's class plan on this platform.
    fn plan(&self, job: usize) -> ClassPlan {
        self.plans[self.jobs[job].class]
    }

    /// Starts the job if it holds all its nodes and they are all ready; charges the time its
    /// ready nodes were held waiting as capacity wait (`held_earlier`: some of its nodes may
    /// have been held before now; when all were taken just now the wait is nothing).
    fn start_if_ready(&mut self, job: usize, held_earlier: bool) {
        let st = &self.states[job];
        if st.phase != Phase::Holding {
            return;
        }
        let needed = self.plan(job).nodes_needed as usize;
        if st.holds.len() < needed || st.holds.iter().any(|h| !self.nodes[h.node()].ready) {
            return;
        }
        // Before the capacity-wait charge moves the holds' start to now. Nodes all ready and
        // all taken just now leave no part to count ([`Sim::node_wait_parts`] reads 0).
        if held_earlier {
            self.count_first_wait_parts(job);
            self.charge_capacity_wait(job);
        }
        self.start_attempt(job);
    }

    /// Adds the parts of a job's queue wait up to now ([`Sim::node_wait_parts`]) to the
    /// replication's, while its first compute has not started: when an attempt starts, or at
    /// the horizon for a job still holding nodes then. A job whose attempt a spot
    /// interruption stopped before its compute began counts the nodes it waits for next too.
    fn count_first_wait_parts(&mut self, job: usize) {
        if self.states[job].first_compute_s.is_some() {
            return;
        }
        let (capacity, provisioning) = self.node_wait_parts(job, self.now);
        self.wait_capacity_s += capacity;
        self.wait_provisioning_s += provisioning;
    }

    /// The parts of a job's queue wait spent on the node it waited for longest (the one of
    /// its holds ready last, or not ready by `end`), counted from when it took that node:
    /// waiting for capacity (requested, not yet provisioning) and provisioning, s.
    fn node_wait_parts(&self, job: usize, end: i64) -> (i64, i64) {
        let mut parts = (0, 0);
        let mut last_ready = i64::MIN;
        for hold in &self.states[job].holds {
            let n = &self.nodes[hold.node()];
            let ready = if n.ready { n.ready_at_s.min(end) } else { end };
            if ready > last_ready {
                last_ready = ready;
                let from = hold.since_s;
                let capacity = (n.billing_start_s.min(ready) - from).max(0);
                let provisioning = (ready - from.max(n.billing_start_s)).max(0);
                parts = (capacity, provisioning);
            }
        }
        parts
    }

    fn charge_capacity_wait(&mut self, job: usize) {
        let slots = self.plan(job).slots_held;
        for i in 0..self.states[job].holds.len() {
            let hold = self.states[job].holds[i];
            let (node, since) = (hold.node(), hold.since_s);
            // Held time counts only while the node is ready (provisioning is charged per node).
            if !self.nodes[node].ready {
                continue;
            }
            let ready_since = since.max(self.nodes[node].ready_at_s);
            let wait = (self.now - ready_since).max(0) as f64 * f64::from(slots);
            self.charge(node, Category::CapacityWait, wait);
        }
        for hold in self.states[job].holds.iter_mut() {
            hold.since_s = self.now;
        }
    }

    // ----- attempts -----

    fn start_attempt(&mut self, job: usize) {
        let class = &self.scenario.job_classes[self.jobs[job].class];
        let plan = self.plan(job);
        let class_bit = 1u64 << (self.jobs[job].class % 64);
        let needs_pull = self.states[job]
            .holds
            .iter()
            .any(|h| self.nodes[h.node()].images & class_bit == 0);
        let pull_s = if needs_pull { plan.pull_s } else { 0 };
        if self.platform.image_cache {
            for hold in &self.states[job].holds {
                self.nodes[hold.node()].images |= class_bit;
            }
        }
        let st = &mut self.states[job];
        st.attempts += 1;
        st.generation += 1;
        let restart_s = if st.attempts > 1 || st.committed_c > 0 {
            plan.restart_s
        } else {
            0
        };
        st.phase = Phase::Running;
        st.attempt_start_s = self.now;
        st.pull_s = pull_s;
        st.restart_s = restart_s;
        let compute_start = self.now + pull_s + restart_s;
        if st.first_compute_s.is_none() {
            st.first_compute_s = Some(compute_start);
            st.first_pull_s += pull_s;
        }
        let remaining = st.total_c - st.committed_c;
        // Failure draw for this attempt, from the job's own stream (same on every platform;
        // a class that never fails needs no stream).
        let job_info = &self.jobs[job];
        let may_fail = match class.failures.kind {
            FailureKind::Transient => class.failures.probability > 0.0,
            FailureKind::Deterministic => job_info.broken,
        };
        let mut rng = may_fail.then(|| {
            Stream::new(
                job_info.attempt_seed,
                u64::from(st.attempts),
                Purpose::Attempts,
                0,
            )
        });
        let fails = match (class.failures.kind, rng.as_mut()) {
            (FailureKind::Transient, Some(rng)) => rng.bernoulli(class.failures.probability),
            (FailureKind::Deterministic, _) => job_info.broken,
            _ => false,
        };
        let fail_after = if let (true, Some(rng)) = (fails, rng.as_mut()) {
            let at = match class.failures.kind {
                FailureKind::Transient => {
                    let share = class.failures.at_share.unwrap_or_else(|| rng.uniform());
                    (share * remaining as f64).ceil() as i64
                }
                FailureKind::Deterministic => {
                    let share = class.failures.at_share.unwrap_or(job_info.fail_point);
                    (share * st.total_c as f64).ceil() as i64 - st.committed_c
                }
            };
            // A job with compute left (one with none has finished): `max` only keeps a broken
            // invariant from panicking.
            debug_assert!(remaining >= 1);
            Some(at.clamp(1, remaining.max(1)))
        } else {
            None
        };
        st.fail_after_c = fail_after;
        let generation = st.generation;
        // The attempt reads its data once, however many nodes share the work.
        self.egress_gb += class.data_read_gb_per_attempt * class.data_read_billed_share;
        let end = self.attempt_end_s(job);
        self.push(end, Event::AttemptEnd { job, generation });
    }

    /// When the running attempt of `job` ends, finished or failed, s: its pull and restart,
    /// then its compute up to the end or the failure with the checkpoints written on the way.
    fn attempt_end_s(&self, job: usize) -> i64 {
        let st = &self.states[job];
        let plan = self.plan(job);
        let (tau, delta) = (plan.tau, plan.delta);
        let remaining = st.total_c - st.committed_c;
        let compute_wall = match st.fail_after_c {
            Some(f) => f + writes_before(f, tau) * delta,
            None => remaining + checkpoints_in(remaining, tau) * delta,
        };
        st.attempt_start_s + st.pull_s + st.restart_s + compute_wall
    }

    /// Charges the attempt's time up to now, ended by `end`: pulls, restarts, checkpoint
    /// writes and idle held GPUs to their categories, the compute it keeps (all of it when it
    /// finished or runs at the horizon, else up to its last checkpoint) through the ledger,
    /// and the rest to where `end` loses it. The kept compute is committed to the job.
    fn close_attempt(&mut self, job: usize, end: Close) {
        if self.timeline.is_some() {
            self.record_attempt(job, end);
        }
        let finished = end == Close::Finished;
        let lost_as = end.lost_as();
        let on_notice = end == Close::Interrupted { on_notice: true };
        let st = &self.states[job];
        let elapsed = self.now - st.attempt_start_s;
        let pull = elapsed.min(st.pull_s);
        let restart = (elapsed - st.pull_s).clamp(0, st.restart_s);
        let compute_phase = (elapsed - st.pull_s - st.restart_s).max(0);
        let remaining = st.total_c - st.committed_c;
        let plan = self.plan(job);
        let (tau, delta) = (plan.tau, plan.delta);
        let (done, kept) = if finished {
            (
                remaining.min(compute_done(compute_phase, tau, delta, remaining)),
                remaining,
            )
        } else if on_notice && tau > 0 {
            let saved = compute_done((compute_phase - delta).max(0), tau, delta, remaining);
            (saved, saved)
        } else {
            let done = compute_done(compute_phase, tau, delta, remaining);
            let kept = if tau > 0 {
                let mut cycles = compute_phase / (tau + delta);
                if end == Close::Failed {
                    // A failure at a checkpoint's point comes before that checkpoint is
                    // written, as the attempt's end was worked out ([`writes_before`]); the
                    // count of cycles says otherwise only when writes take no time.
                    cycles = cycles.min(writes_before(done, tau));
                }
                (cycles * tau).min(remaining)
            } else {
                0
            };
            (done, kept.min(done))
        };
        let finished_done = if finished { remaining } else { done };
        let writes = compute_phase - finished_done;
        let held_nodes = st.holds.len();
        let efficiency = if held_nodes > 1 {
            self.platform.multi_node_efficiency
        } else {
            1.0
        };
        let lost = finished_done - kept;
        let held = f64::from(plan.slots_held);
        // By index: charging never changes the job's nodes.
        for i in 0..held_nodes {
            let hold = self.states[job].holds[i];
            let node = hold.node();
            let used_here = f64::from(hold.used);
            self.charge(
                node,
                Category::ProvisioningAndPulls,
                pull as f64 * used_here,
            );
            self.charge(
                node,
                Category::CheckpointsAndRestarts,
                (restart + writes) as f64 * used_here,
            );
            // Held but unused GPUs of whole nodes are idle for the whole attempt.
            self.charge(node, Category::Idle, elapsed as f64 * (held - used_here));
            if let Some(bucket) = lost_as {
                self.charge(node, bucket, lost as f64 * used_here);
            }
            let kept_gpu_s = if lost_as.is_some() {
                kept
            } else {
                finished_done
            } as f64
                * used_here;
            let price = self.nodes[node].usd_per_gpu_s;
            self.ledger.charge_kept(job, kept_gpu_s, price, efficiency);
        }
        let kept_total = if lost_as.is_some() {
            kept
        } else {
            finished_done
        };
        let st = &mut self.states[job];
        st.committed_c += kept_total.min(remaining);
    }

    fn record_attempt(&mut self, job: usize, end: Close) {
        let st = &self.states[job];
        let span = AttemptSpan {
            job,
            class: self.jobs[job].class,
            nodes: st.holds.iter().map(|h| (h.node(), h.used)).collect(),
            start_s: st.attempt_start_s,
            compute_start_s: (st.attempt_start_s + st.pull_s + st.restart_s).min(self.now),
            end_s: self.now,
            ended: match end {
                Close::Finished => AttemptEnd::Finished,
                Close::Interrupted { .. } => AttemptEnd::Interrupted,
                Close::Failed => AttemptEnd::Failed,
                Close::Horizon => AttemptEnd::Horizon,
            },
        };
        if let Some(t) = self.timeline.as_mut() {
            t.attempts.push(span);
        }
    }

    fn give_up(&mut self, job: usize) {
        self.states[job].phase = Phase::GaveUp;
        self.ledger.give_up(job);
        self.gave_up += 1;
    }

    fn attempt_end(&mut self, job: usize) {
        match self.states[job].fail_after_c {
            None => {
                self.close_attempt(job, Close::Finished);
                self.finish(job);
            }
            Some(_) => {
                self.close_attempt(job, Close::Failed);
                let st = &mut self.states[job];
                st.failed_attempts += 1;
                // A failure comes before the checkpoint at its point: some compute is left.
                debug_assert!(st.committed_c < st.total_c);
                self.unhold_all(job);
                let class = &self.scenario.job_classes[self.jobs[job].class];
                if self.states[job].failed_attempts > class.failures.max_retries {
                    self.give_up(job);
                } else {
                    self.states[job].phase = Phase::Waiting;
                    self.enqueue(job);
                }
            }
        }
    }

    /// The job has kept all its compute: it is done and leaves its nodes.
    fn finish(&mut self, job: usize) {
        let st = &mut self.states[job];
        st.phase = Phase::Done;
        st.finished_s = Some(self.now);
        self.completed += 1;
        let class = &self.scenario.job_classes[self.jobs[job].class];
        self.egress_gb += class.egress_gb_per_job;
        let nominal = self.jobs[job].work_ref_s.max(1.0);
        let wall = (self.now - self.jobs[job].arrival_s) as f64;
        self.inflation_sum += wall / nominal;
        self.unhold_all(job);
    }

    fn interrupt(&mut self, node: usize) {
        if self.nodes[node].released {
            return;
        }
        self.interruptions += 1;
        if let Some(span) = self.timeline.as_mut().and_then(|t| t.nodes.get_mut(node)) {
            span.interrupted = true;
        }
        let notice_ok = |sim: &Self, job: usize| {
            let class = &sim.scenario.job_classes[sim.jobs[job].class];
            class.checkpoint_interval_min > 0.0
                && sim.platform.spot_notice_s >= class.checkpoint_write_s
        };
        for job in self.nodes[node]
            .holders
            .clone()
            .into_iter()
            .map(|j| j as usize)
        {
            match self.states[job].phase {
                Phase::Running => {
                    if self.attempt_end_s(job) <= self.now {
                        // The attempt ends this very second: it ends (finished or failed)
                        // before its node goes.
                        self.attempt_end(job);
                        continue;
                    }
                    let on_notice = notice_ok(self, job);
                    self.close_attempt(job, Close::Interrupted { on_notice });
                    let st = &mut self.states[job];
                    st.generation += 1;
                    if st.first_compute_s.is_some_and(|c| c > self.now) {
                        // Stopped while pulling its image (or restarting) on its way to its
                        // first compute: that compute has not started, so its queue wait goes
                        // on; what it pulled so far stays a part of it.
                        let pulled = (self.now - st.attempt_start_s).clamp(0, st.pull_s);
                        st.first_compute_s = None;
                        st.first_pull_s -= st.pull_s - pulled;
                    }
                }
                Phase::Holding => self.charge_capacity_wait(job),
                _ => {}
            }
            self.unhold_all(job);
            self.states[job].phase = Phase::Waiting;
            self.enqueue(job);
        }
        self.release_node(node);
    }

    // ----- loop -----

    fn run(&mut self) {
        let reserved = self.platform.reserved_nodes(self.scenario.reference_gpus);
        for _ in 0..reserved {
            self.add_node(NodeKind::Reserved, true);
        }
        let mut next_job = 0;
        loop {
            let next_event = self.queue.peek_time();
            let next_arrival = self.jobs.get(next_job).map(|j| j.arrival_s);
            let take_event = match (next_event, next_arrival) {
                (None, None) => break,
                (Some(e), Some(a)) => e <= a,
                (Some(_), None) => true,
                (None, Some(_)) => false,
            };
            if take_event {
                let Some((t, event)) = self.queue.pop() else {
                    break;
                };
                if t >= self.horizon_s || !self.begin_event(t) {
                    break;
                }
                self.handle(event);
            } else {
                let t = self.jobs[next_job].arrival_s;
                if t >= self.horizon_s {
                    if next_event.is_none() {
                        break;
                    }
                    next_job = self.jobs.len();
                    continue;
                }
                if !self.begin_event(t) {
                    break;
                }
                let job = next_job;
                next_job += 1;
                if self.offer_on_arrival && self.waiting.is_empty() {
                    // A placement pass would offer capacity to this job alone: offer it here
                    // (the same test and placement the pass makes) and skip the pass.
                    let full = self.free_slots == 0 && !self.can_add_node();
                    if full || !self.try_place(job) {
                        self.enqueue(job);
                    }
                    continue;
                }
                self.enqueue(job);
            }
            self.dispatch();
        }
        self.now = self.horizon_s;
        self.finish_horizon();
    }

    /// Moves the clock to `t` to handle one more event (a queued one or an arrival); false,
    /// with `cut_off` set, when the replication's event budget is spent.
    fn begin_event(&mut self, t: i64) -> bool {
        if self.events >= self.event_budget {
            self.cut_off = true;
            return false;
        }
        self.now = t;
        self.events += 1;
        true
    }

    /// Whether handling `event` could no longer do anything, whenever it comes: its node was
    /// released, or its job or idle window moved on (generations only grow).
    fn is_stale(&self, event: &Event) -> bool {
        match *event {
            Event::NodeReady(node) | Event::Interrupt(node) => self.nodes[node].released,
            Event::AttemptEnd { job, generation } => {
                Event::generation_stored(self.states[job].generation) != generation
            }
            Event::IdleTimeout { node, generation } => {
                self.nodes[node].released
                    || Event::generation_stored(self.nodes[node].idle_generation) != generation
            }
        }
    }

    /// Drops stale events from the queue. An interrupted or failed attempt leaves its end
    /// event behind, due hours later; on a large spot cluster these pile up by the million
    /// and every pop pays for them. Dropping them changes nothing simulated: the rest keep
    /// their (time, sequence) order, and a stale event's turn only ever ran a placement pass
    /// over an unchanged state. Done when the queue has doubled since the last time (and holds
    /// at least [`COMPACT_MIN`]), so it costs O(1) per event.
    fn compact_queue(&mut self) {
        // Taken out (with its sequence counter) while `is_stale` reads the rest of the state.
        let mut queue = std::mem::replace(&mut self.queue, EventQueue::new(0));
        queue.retain(|event| !self.is_stale(event));
        self.queue = queue;
        self.compact_at = (2 * self.queue.len()).max(self.compact_min);
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::NodeReady(node) => {
                if !self.nodes[node].released {
                    self.node_ready(node);
                }
            }
            Event::AttemptEnd { job, generation } => {
                if Event::generation_stored(self.states[job].generation) == generation
                    && self.states[job].phase == Phase::Running
                {
                    self.attempt_end(job);
                }
            }
            Event::Interrupt(node) => self.interrupt(node),
            Event::IdleTimeout { node, generation } => {
                let n = &self.nodes[node];
                if !n.released
                    && Event::generation_stored(n.idle_generation) == generation
                    && n.holders.is_empty()
                {
                    self.release_node(node);
                }
            }
        }
    }

    /// Charges what is under way at the horizon: running compute counts as useful, held time
    /// as capacity wait, idle slots as idle, nodes still provisioning as provisioning.
    fn finish_horizon(&mut self) {
        for job in 0..self.states.len() {
            match self.states[job].phase {
                Phase::Running => self.close_attempt(job, Close::Horizon),
                Phase::Holding => {
                    // Its queue wait counts up to the horizon, and so do its parts: measured
                    // before the charge below moves its holds' start to now.
                    self.count_first_wait_parts(job);
                    self.charge_capacity_wait(job)
                }
                _ => {}
            }
        }
        let gpn = f64::from(self.platform.gpus_per_node);
        for node in 0..self.nodes.len() {
            if self.nodes[node].released {
                continue;
            }
            let billed = (self.now - self.nodes[node].billing_start_s).max(0) as f64 * gpn;
            self.ledger.paid_gpu_s += billed;
            if self.nodes[node].ready {
                let free = self.nodes[node].free;
                self.set_free(node, free);
            } else {
                let start = self.nodes[node].billing_start_s;
                let provisioning = (self.now - start).max(0) as f64 * gpn;
                self.charge(node, Category::ProvisioningAndPulls, provisioning);
            }
        }
    }

    fn outcome(&self) -> PlatformOutcome {
        let p = self.platform;
        let hours = self.horizon_s as f64 / HOUR_S;
        let months = hours / HOURS_PER_MONTH;
        let per_month = 1.0 / months;
        let mut breakdown = self.ledger.usd.scaled(per_month);
        breakdown[Category::Fees] = p.fee_usd_per_cluster_hour * HOURS_PER_MONTH;
        breakdown[Category::Tools] = p.tooling_usd_per_month;
        breakdown[Category::OpsPeople] =
            p.ops_fte * self.scenario.people.fte_cost_usd_per_year / 12.0;
        breakdown[Category::Storage] = p.storage_gb * p.storage_usd_per_gb_month;
        let billable_egress = (self.egress_gb - p.egress_free_gb_per_month * months).max(0.0);
        breakdown[Category::Egress] = billable_egress * p.egress_usd_per_gb * per_month;
        let monthly = breakdown.total();
        let paid = self.ledger.paid_gpu_s;
        let useful_gpu_s = self.ledger.gpu_s[Category::UsefulCompute];
        let useful_ref_hours = self.ledger.useful_ref_gpu_s / HOUR_S;
        // One pass over the jobs' states (they no longer fit in a core's cache on long runs).
        // Queue waits of every job submitted, whole seconds: to the start of its first
        // compute, or to the horizon for a job that has not started computing by then (still
        // queued, provisioning or pulling: its wait so far, a lower bound; leaving those jobs
        // out made an overloaded platform's waits look short, or zero when none started).
        // The pulls are summed in job order from −0.0, as `Iterator::sum` does.
        let horizon = self.horizon_s;
        let mut waits: Vec<i64> = Vec::with_capacity(self.states.len());
        let mut pull_total = -0.0;
        let (mut running, mut waiting) = (0u64, 0u64);
        for (j, s) in self.jobs.iter().zip(&self.states) {
            if j.arrival_s >= horizon {
                break;
            }
            match s.first_compute_s {
                Some(c) if c <= horizon => {
                    waits.push(c - j.arrival_s);
                    pull_total += s.first_pull_s as f64;
                }
                Some(_) => {
                    // Pulling its image (or restarting) at the horizon: of its attempt's
                    // pull, the part before the horizon.
                    waits.push(horizon - j.arrival_s);
                    let pulled = (horizon - s.attempt_start_s).clamp(0, s.pull_s);
                    pull_total += (s.first_pull_s - s.pull_s + pulled) as f64;
                }
                None => waits.push(horizon - j.arrival_s),
            }
            match s.phase {
                Phase::Running => running += 1,
                Phase::Waiting | Phase::Holding => waiting += 1,
                Phase::Done | Phase::GaveUp => {}
            }
        }
        let counted = waits.len().max(1) as f64;
        let pull_mean = pull_total / counted;
        // Waits are whole seconds and their total stays far below 2^53, so the integer sum is
        // the sum of the waits as floats in any order (every partial sum exact); the
        // percentiles come by selection among the integers.
        let (mean, p50, p95) = if waits.is_empty() {
            (0.0, 0.0, 0.0)
        } else {
            let mean = waits.iter().sum::<i64>() as f64 / waits.len() as f64;
            let (p50, p95) = crate::model::stats::whole_quantiles_unsorted(&mut waits, 0.5, 0.95);
            (mean, p50, p95)
        };
        let total_horizon = monthly * months;
        // Jobs come in arrival order.
        let submitted = self.jobs.partition_point(|j| j.arrival_s < self.horizon_s) as u64;
        PlatformOutcome {
            breakdown_usd: breakdown,
            monthly_tco_usd: monthly,
            gpu_seconds: self.ledger.gpu_s,
            paid_gpu_seconds: paid,
            useful_reference_gpu_hours: useful_ref_hours,
            usd_per_useful_gpu_hour: (useful_ref_hours > 0.0)
                .then(|| total_horizon / useful_ref_hours),
            usd_per_successful_job: (self.completed > 0)
                .then(|| total_horizon / self.completed as f64),
            utilization: if paid > 0.0 { useful_gpu_s / paid } else { 0.0 },
            jobs_submitted: submitted,
            jobs_completed: self.completed,
            jobs_failed: self.gave_up,
            jobs_running: running,
            jobs_waiting: waiting,
            interruptions: self.interruptions,
            peak_nodes: u64::from(self.peak_nodes),
            queue_wait_mean_s: mean,
            queue_wait_p50_s: p50,
            queue_wait_p95_s: p95,
            queue_wait_for_nodes_mean_s: mean - pull_mean,
            queue_wait_image_pull_mean_s: pull_mean,
            queue_wait_capacity_mean_s: self.wait_capacity_s as f64 / counted,
            queue_wait_provisioning_mean_s: self.wait_provisioning_s as f64 / counted,
            turnaround_inflation: (self.completed > 0)
                .then(|| self.inflation_sum / self.completed as f64),
            events: self.events,
            cut_off: self.cut_off,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job that gives up keeps none of its compute as useful (nor as storage slowdown or
    /// scaling loss): what its checkpoints kept moves to failed attempts. With every job
    /// broken, one attempt each and no interruption, those buckets hold exactly the compute of
    /// the attempts still running at the horizon, worked out here from the timeline.
    #[test]
    fn given_up_jobs_keep_no_useful_compute() {
        let mut s = crate::scenario::presets::preset("batch-vs-eks-spot")
            .unwrap()
            .scenario();
        s.horizon_days = 3.3;
        for p in &mut s.platforms {
            p.spot_interruptions_per_node_hour = 0.0;
        }
        for class in &mut s.job_classes {
            class.failures.kind = FailureKind::Deterministic;
            class.failures.probability = 1.0;
            class.failures.max_retries = 0;
            class.checkpoint_interval_min = 10.0;
            class.checkpoint_write_s = 20.0;
        }
        let jobs = super::super::generate_jobs(&s, 0);
        for p in 0..s.platforms.len() {
            let (o, timeline) = simulate_platform_timeline(&s, p, 0, &jobs);
            assert!(
                o.jobs_failed > 0 && o.jobs_completed == 0,
                "platform {p}: {} failed, {} completed",
                o.jobs_failed,
                o.jobs_completed
            );
            let running_at_horizon: f64 = timeline
                .attempts
                .iter()
                .filter(|a| a.ended == AttemptEnd::Horizon)
                .map(|a| {
                    let (tau, delta) = checkpoint_cycle(&s.job_classes[a.class]);
                    let done = compute_done(a.end_s - a.compute_start_s, tau, delta, i64::MAX);
                    let gpus: u32 = a.nodes.iter().map(|&(_, used)| used).sum();
                    done as f64 * f64::from(gpus)
                })
                .sum();
            // Some jobs are mid-attempt at this horizon, so both terms are exercised.
            assert!(running_at_horizon > 0.0, "platform {p}");
            let kept: f64 = [
                Category::UsefulCompute,
                Category::StorageReadSlowdown,
                Category::MultiNodeScalingLoss,
            ]
            .iter()
            .map(|&c| o.gpu_seconds[c])
            .sum();
            assert!(
                (kept - running_at_horizon).abs() <= 1e-9 * running_at_horizon.max(1.0),
                "platform {p}: {kept} vs {running_at_horizon}"
            );
        }
    }

    /// One platform on spot nodes (none reserved) and one class of 8-GPU, one-node jobs of a
    /// fixed hour, every draw-dependent delay off; `jobs` built by hand for the tests that
    /// drive the event handlers themselves.
    fn one_spot_platform(tau_min: f64, failures: crate::model::scenario::Failures) -> Scenario {
        let mut s = crate::scenario::presets::preset("batch-vs-eks-spot")
            .unwrap()
            .scenario();
        s.platforms.truncate(2);
        s.platforms.remove(0);
        let p = &mut s.platforms[0];
        assert_eq!(p.purchase.overflow, Overflow::Spot);
        p.purchase.reserved_share = 0.0;
        p.spot_interruptions_per_node_hour = 1.0;
        p.provisioning_median_s = 0.0;
        p.provisioning_p90_s = 0.0;
        p.capacity_wait_mean_s = 0.0;
        p.relative_throughput = 1.0;
        p.storage_read_slowdown_pct = 0.0;
        let class = &mut s.job_classes[0];
        class.duration = crate::model::scenario::Duration::Fixed { hours: 1.0 };
        class.checkpoint_interval_min = tau_min;
        class.checkpoint_write_s = 60.0;
        class.failures = failures;
        s
    }

    fn hand_job(broken: bool) -> Job {
        Job {
            arrival_s: 0,
            class: 0,
            work_ref_s: 3600.0,
            broken,
            fail_point: 0.5,
            attempt_seed: 1,
        }
    }

    /// A spot node whose interruption comes in the very second a job's attempt ends: the
    /// attempt ends first (the job is done, all its compute useful, none of it rework), and
    /// the job is not queued again with nothing left to run (which, in a class that can fail,
    /// drew a failure point in an empty range and panicked). With checkpoints (30 min, the
    /// last one written as the attempt ends) and without (everything would be lost).
    #[test]
    fn an_interruption_in_the_second_an_attempt_ends_lets_it_end() {
        for (tau_min, writes) in [(30.0, 2), (0.0, 0)] {
            let s = one_spot_platform(tau_min, Default::default());
            let jobs = [hand_job(false)];
            let mut sim = new_sim(&s, 0, 0, &jobs);
            let node = sim.add_node(NodeKind::Spot, true);
            assert!(sim.try_place(0));
            // 1 h of compute, and a 60 s write after each 30 min of it.
            let end = sim.attempt_end_s(0);
            let pull = sim.states[0].pull_s;
            assert_eq!(end, pull + 3600 + writes * 60, "τ = {tau_min} min");
            sim.now = end;
            sim.interrupt(node);
            assert_eq!(sim.states[0].phase, Phase::Done, "τ = {tau_min} min");
            assert_eq!((sim.completed, sim.waiting.len()), (1, 0));
            let gpus = 8.0;
            assert_eq!(sim.ledger.gpu_s[Category::UsefulCompute], 3600.0 * gpus);
            assert_eq!(sim.ledger.gpu_s[Category::InterruptionRework], 0.0);
            assert_eq!(sim.interruptions, 1);
        }
    }

    /// The retry limit counts failed attempts only: a broken job (it fails half-way, every
    /// time) with one retry fails twice before it gives up, however many of its attempts
    /// spot interruptions stopped in between.
    #[test]
    fn interruptions_do_not_use_up_the_retry_limit() {
        let failures = crate::model::scenario::Failures {
            probability: 1.0,
            kind: FailureKind::Deterministic,
            max_retries: 1,
            at_share: None,
        };
        let s = one_spot_platform(0.0, failures);
        let jobs = [hand_job(true)];
        let mut sim = new_sim(&s, 0, 0, &jobs);
        // First attempt: interrupted before it fails.
        let a = sim.add_node(NodeKind::Spot, true);
        assert!(sim.try_place(0));
        sim.now = 600;
        sim.interrupt(a);
        assert_eq!(sim.states[0].phase, Phase::Waiting);
        // Second attempt: fails half-way (no checkpoints, so at 1800 s of compute).
        sim.add_node(NodeKind::Spot, true);
        assert!(sim.try_place(0));
        assert_eq!(sim.states[0].fail_after_c, Some(1800));
        sim.now = sim.attempt_end_s(0);
        sim.attempt_end(0);
        assert_eq!((sim.states[0].phase, sim.gave_up), (Phase::Waiting, 0));
        // Third attempt: the second failure, past the one retry.
        assert!(sim.try_place(0));
        sim.now = sim.attempt_end_s(0);
        sim.attempt_end(0);
        assert_eq!((sim.states[0].phase, sim.gave_up), (Phase::GaveUp, 1));
        assert_eq!(sim.states[0].attempts, 3);
    }

    /// A job whose first attempt a spot interruption stops while it pulls its image has not
    /// started computing: its queue wait runs on to the compute of the attempt that gets
    /// there, and the pulls before it are a part of the wait. One job, submitted at 0, a
    /// 600 s pull (600 GB at 1 GB/s, no image cache), 120 s to restart: on a node at 0 and
    /// stopped at 200 s (200 s pulled); on another node from 1,000 s, it pulls 600 s and
    /// restarts 120 s, so it computes from 1,720 s: a wait of 1,720 s, 800 s of it pulls.
    /// With the horizon at 1,300 s, while the second pull is under way: a wait of 1,300 s,
    /// 200 + 300 s of it pulls.
    #[test]
    fn an_interruption_before_the_first_compute_lets_the_queue_wait_run_on() {
        let mut s = one_spot_platform(0.0, Default::default());
        s.platforms[0].image_pull_gb_per_s = 1.0;
        s.platforms[0].image_cache = false;
        s.job_classes[0].image_gb = 600.0;
        s.job_classes[0].restart_overhead_s = 120.0;
        let jobs = [hand_job(false)];
        for (horizon_s, wait, pulls) in [(86_400, 1_720.0, 800.0), (1_300, 1_300.0, 500.0)] {
            s.horizon_days = f64::from(horizon_s) / DAY_S;
            let mut sim = new_sim(&s, 0, 0, &jobs);
            assert_eq!(sim.horizon_s, i64::from(horizon_s));
            let a = sim.add_node(NodeKind::Spot, true);
            assert!(sim.try_place(0));
            assert_eq!(sim.states[0].first_compute_s, Some(600));
            sim.now = 200;
            sim.interrupt(a);
            assert_eq!(sim.states[0].first_compute_s, None);
            sim.now = 1_000;
            sim.add_node(NodeKind::Spot, true);
            assert!(sim.try_place(0));
            assert_eq!(sim.states[0].first_compute_s, Some(1_720));
            let o = sim.outcome();
            assert_eq!(o.queue_wait_mean_s, wait, "horizon {horizon_s} s");
            assert_eq!(
                o.queue_wait_image_pull_mean_s, pulls,
                "horizon {horizon_s} s"
            );
            assert_eq!(o.queue_wait_for_nodes_mean_s, wait - pulls);
        }
    }

    /// A multi-node job reads its data once per attempt, not once per node: 100 GB billed,
    /// for one 16-GPU job on two 8-GPU nodes in a one-day horizon, is 100 GB of egress.
    #[test]
    fn a_multi_node_job_reads_its_data_once_per_attempt() {
        let mut s = one_spot_platform(30.0, Default::default());
        s.platforms[0].spot_interruptions_per_node_hour = 0.0;
        s.platforms[0].egress_free_gb_per_month = 0.0;
        s.horizon_days = 1.0;
        let class = &mut s.job_classes[0];
        class.gpus_per_job = 16;
        class.data_read_gb_per_attempt = 100.0;
        class.data_read_billed_share = 1.0;
        class.egress_gb_per_job = 0.0;
        let jobs = [hand_job(false)];
        let (o, _) = simulate_platform(&s, 0, 0, &jobs, false);
        assert_eq!(o.jobs_completed, 1);
        let months = 24.0 / crate::model::HOURS_PER_MONTH;
        let expected = 100.0 * s.platforms[0].egress_usd_per_gb / months;
        assert!(
            (o.breakdown_usd[Category::Egress] - expected).abs() <= 1e-9 * expected,
            "{} vs {expected}",
            o.breakdown_usd[Category::Egress]
        );
    }

    /// Dropping stale events changes nothing simulated: a spot-heavy scenario run with the
    /// queue compacted as often as possible and never gives the same outcome but the count
    /// of events handled.
    #[test]
    fn compacting_the_queue_changes_nothing_simulated() {
        let mut s = crate::scenario::presets::preset("batch-vs-eks-spot")
            .unwrap()
            .scenario();
        s.horizon_days = 4.0;
        for p in &mut s.platforms {
            p.spot_interruptions_per_node_hour = 0.5;
        }
        for class in &mut s.job_classes {
            class.failures.probability = 0.2;
        }
        let jobs = super::super::generate_jobs(&s, 3);
        let mut dropped = 0;
        for p in 0..s.platforms.len() {
            let run = |compact_min: usize| {
                let mut sim = new_sim(&s, p, 3, &jobs);
                sim.compact_min = compact_min;
                sim.compact_at = compact_min;
                sim.run();
                let mut o = sim.outcome();
                let events = std::mem::take(&mut o.events);
                (o, events)
            };
            let (never, all_events) = run(usize::MAX);
            let (often, fewer_events) = run(16);
            assert_eq!(never, often, "platform {p}");
            assert!(fewer_events <= all_events, "{fewer_events} <= {all_events}");
            dropped += all_events - fewer_events;
        }
        // The spot platform's interrupted attempts left end events behind, and they went.
        assert!(dropped > 0);
    }

    /// Offering an arriving job capacity at once (when none waits) places it as the placement
    /// pass would: every preset, and each with its platforms spreading jobs, with gang
    /// scheduling off (multi-node jobs then hold nodes one at a time) and with few nodes (jobs
    /// arrive to a full cluster), interruptions and failures up so that jobs come back to the
    /// queue.
    #[test]
    fn offering_capacity_on_arrival_changes_nothing_simulated() {
        let mut offered = 0;
        for preset in crate::scenario::presets::presets() {
            for variant in 0..4 {
                let mut s = preset.scenario();
                s.horizon_days = s.horizon_days.min(5.0);
                for p in &mut s.platforms {
                    p.spot_interruptions_per_node_hour = 0.3;
                    match variant {
                        1 if p.placement == Placement::BinPack => p.placement = Placement::Spread,
                        2 => p.gang_scheduling = false,
                        3 => p.max_nodes = p.max_nodes.min(3),
                        _ => {}
                    }
                }
                for class in &mut s.job_classes {
                    class.failures.probability = class.failures.probability.max(0.1);
                }
                let jobs = super::super::generate_jobs(&s, 1);
                for p in 0..s.platforms.len() {
                    let run = |offer: bool| {
                        let mut sim = new_sim(&s, p, 1, &jobs);
                        sim.offer_on_arrival = offer;
                        sim.run();
                        sim.outcome()
                    };
                    let (pass, at_once) = (run(false), run(true));
                    assert_eq!(
                        pass, at_once,
                        "{} variant {variant} platform {p}",
                        preset.name
                    );
                    offered += pass.jobs_submitted;
                }
            }
        }
        assert!(offered > 1_000);
    }
}
