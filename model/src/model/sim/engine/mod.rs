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
//! A job attempt: [image pull][data staging][restart overhead][compute τ, write δ]… with a
//! checkpoint written
//! after every τ of compute, including the last (the final save). An interruption loses the
//! compute since the last checkpoint, unless the notice is long enough to write one (checkpoint
//! on notice). A failing attempt loses its compute since the last checkpoint; a job that gives
//! up turns all its kept compute into failed-attempt cost.

mod build;
mod colocation;
mod fractional;
mod outcome;
mod pipelines;

pub use pipelines::{pass_order, pool_edges};
mod reclaims;
mod records;
mod showback;
mod staging;
mod teams;
mod waits;

use super::checkpoint::{checkpoints_in, compute_done, writes_before};
use super::event_queue::{Event, EventQueue};
use super::jobs::Job;
use super::outcome::PlatformOutcome;
use super::state::{ClassPlan, Close, Hold, Node, NodeKind, Phase, Staging};
use super::timeline::{JobRecord, NodeLoss, Timeline};
use crate::model::cost_category::Category;
use crate::model::rng::{Purpose, Stream};
use crate::model::rounding::{self, ceil_div};
use crate::model::scenario::{FailureKind, Overflow, Placement, Scenario, HOUR_S};
use build::{new_sim, Sim};
use smallvec::SmallVec;

/// Queue length below which stale events are never dropped (small runs never compact).
const COMPACT_MIN: usize = 4096;

/// Simulates `platform` (index `platform_index` in the scenario) against `jobs` in replication
/// `replication`. Returns the outcome and, if `keep_records`, one record per job.
pub fn simulate_platform(
    scenario: &Scenario,
    platform_index: usize,
    replication: u64,
    jobs: &[Job],
    keep_records: bool,
) -> (PlatformOutcome, Option<Vec<JobRecord>>) {
    let scenario = &*scenario.simulated();
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
    let scenario = &*scenario.simulated();
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
    let scenario = &*scenario.simulated();
    let mut sim = new_sim(scenario, platform_index, replication, jobs);
    sim.timeline = Some(Timeline {
        gpus_per_node: scenario.platforms[platform_index]
            .first_pool()
            .gpus_per_node,
        horizon_s: sim.horizon_s,
        ..Timeline::default()
    });
    sim.run();
    let timeline = sim.timeline.take().unwrap_or_default();
    (sim.outcome(), timeline)
}

impl Sim<'_> {
    /// Whether an arriving job is offered capacity at once when no job waits (always, but in
    /// the test that checks it changes nothing).
    #[inline]
    fn offers_on_arrival(&self) -> bool {
        #[cfg(test)]
        return self.switches.offer_on_arrival;
        #[cfg(not(test))]
        true
    }

    /// Smallest queue that is ever compacted.
    #[inline]
    fn compact_min(&self) -> usize {
        #[cfg(test)]
        return self.switches.compact_min;
        #[cfg(not(test))]
        COMPACT_MIN
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

    /// Charges `gpu_seconds` on `node` to `category`, spent by `job`: its class's (and so its
    /// team's) own GPU time.
    fn charge_job(&mut self, job: usize, node: usize, category: Category, gpu_seconds: f64) {
        self.charge(node, category, gpu_seconds);
        self.count_class_spend(job, node, gpu_seconds);
    }

    /// Adds `gpu_seconds` on `node` to the GPU time `job`'s class spent.
    fn count_class_spend(&mut self, job: usize, node: usize, gpu_seconds: f64) {
        if gpu_seconds > 0.0 {
            let spend = &mut self.class_spend[self.jobs[job].class];
            spend.0 += gpu_seconds;
            spend.1 += gpu_seconds * self.nodes[node].usd_per_gpu_s;
        }
    }

    // ----- nodes -----

    fn add_node(&mut self, kind: NodeKind, ready_now: bool) -> usize {
        // In a drought after a reclaim wave, spot capacity is short: a spot node is bought
        // on demand where the pool falls back, else it waits for the drought's end.
        let (kind, drought_end) = self.spot_capacity(kind);
        let id = self.nodes.len();
        let price = match kind {
            NodeKind::Reserved => self.prices.reserved,
            NodeKind::OnDemand => self.prices.on_demand,
            NodeKind::Spot => self.prices.spot,
        };
        let (p, pool) = (self.platform, self.pool);
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
        let interruptible = kind == NodeKind::Spot && pool.spot_interruptions_per_node_hour > 0.0;
        let interruption_draw = if interruptible {
            rng.exponential(1.0)
        } else {
            0.0
        };
        // From a stream of its own (not after the interruption clock, which only spot nodes
        // draw): the n-th node fails after the same draw on every platform, and where nodes
        // never fail nothing is drawn.
        let failure_draw = if pool.node_failures_per_node_hour > 0.0 {
            Stream::new(
                self.scenario.seed,
                self.replication,
                Purpose::NodeFailures,
                id as u64,
            )
            .exponential(1.0)
        } else {
            0.0
        };
        // Kubernetes consolidates nodes bought beyond the reservation: a stream of its own,
        // drawn only where it evicts anything.
        let consolidation_draw =
            if kind != NodeKind::Reserved && self.platform.preemption.consolidates() {
                Stream::new(
                    self.scenario.seed,
                    self.replication,
                    Purpose::Consolidation,
                    id as u64,
                )
                .exponential(1.0)
            } else {
                0.0
            };
        // A reservation holds its capacity: a reserved node (the replacement of a failed one)
        // waits for none.
        let billing_start = if ready_now || kind == NodeKind::Reserved {
            self.now
        } else {
            (self.now + rounding::round(capacity_wait) as i64).max(drought_end)
        };
        self.nodes.push(Node {
            kind,
            usd_per_gpu_s: price,
            billing_start_s: billing_start,
            ready: false,
            ready_at_s: 0,
            released: false,
            free: pool.gpus_per_node,
            free_since_s: self.now,
            holders: SmallVec::new(),
            images: 0,
            idle_generation: 0,
            interruption_draw,
            failure_draw,
            consolidation_draw,
            service_gpus: 0,
            service_since_s: self.now,
        });
        if kind != NodeKind::Spot {
            if let Some(c) = self.colocated.as_mut() {
                c.steady_nodes.push(id);
            }
        }
        self.index.insert(false, pool.gpus_per_node, id);
        self.free_slots += u64::from(pool.gpus_per_node);
        self.alive_nodes += 1;
        self.peak_nodes = self.peak_nodes.max(self.alive_nodes);
        if self.timeline.is_some() {
            self.record_node(kind, billing_start);
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
        match self.pool.purchase.overflow {
            Overflow::OnDemand => Some(NodeKind::OnDemand),
            Overflow::Spot => Some(NodeKind::Spot),
            Overflow::None => None,
        }
    }

    /// Whether no job could be placed: no free GPU slot, no shared GPU with parts of it
    /// free, and no node to add.
    #[inline]
    fn is_full(&self) -> bool {
        self.free_slots == 0 && self.shared_live == 0 && !self.can_add_node()
    }

    fn can_add_node(&self) -> bool {
        self.overflow_kind().is_some() && self.alive_nodes < self.pool.max_nodes
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
        let gpn = f64::from(self.pool.gpus_per_node);
        let provisioning = (self.now - self.nodes[node].billing_start_s) as f64 * gpn;
        self.charge(node, Category::ProvisioningAndPulls, provisioning);
        let n = &mut self.nodes[node];
        if !n.ready && !n.released {
            self.index.remove(false, n.free, node);
            self.index.insert(true, n.free, node);
        }
        n.ready = true;
        n.ready_at_s = self.now;
        // The services' units here count from now (its provisioning is the node's).
        n.service_since_s = self.now;
        if let Some(span) = self.timeline.as_mut().and_then(|t| t.nodes.get_mut(node)) {
            span.ready_s = Some(self.now);
        }
        let n = &mut self.nodes[node];
        n.free_since_s = self.now;
        // Its clocks start now: a spot node's interruption, and any node's hardware failure.
        if n.kind == NodeKind::Spot {
            let draw = self.nodes[node].interruption_draw;
            let rate = self.pool.own_spot_interruptions_per_node_hour();
            self.schedule_on_clock(draw, rate, Event::Interrupt(node));
        }
        let draw = self.nodes[node].failure_draw;
        let rate = self.pool.node_failures_per_node_hour;
        self.schedule_on_clock(draw, rate, Event::NodeFailure(node));
        if self.nodes[node].kind != NodeKind::Reserved {
            let draw = self.nodes[node].consolidation_draw;
            let rate = self
                .platform
                .preemption
                .consolidation_evictions_per_node_hour;
            self.schedule_on_clock(draw, rate, Event::Consolidate(node));
        }
        // By index: a job starting here does not change this node's holders.
        for i in 0..self.nodes[node].holders.len() {
            let job = self.nodes[node].holders[i] as usize;
            self.start_if_ready(job, true);
        }
        self.maybe_schedule_release(node);
    }

    /// Schedules `event` an exponential time from now: `draw` (an Exp(1) draw) hours ÷ `rate`
    /// per hour, to the second; nothing where the rate is 0 or the time is past the horizon.
    fn schedule_on_clock(&mut self, draw: f64, rate: f64, event: Event) {
        if rate <= 0.0 {
            return;
        }
        let after = draw * HOUR_S / rate;
        let at = self
            .now
            .saturating_add(rounding::round(after.min(1e15)) as i64);
        if at < self.horizon_s {
            self.push(at, event);
        }
    }

    fn maybe_schedule_release(&mut self, node: usize) {
        let n = &mut self.nodes[node];
        if n.kind == NodeKind::Reserved
            || n.released
            || !n.ready
            || !n.holders.is_empty()
            || n.service_gpus > 0
        {
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
        let gpn = f64::from(self.pool.gpus_per_node);
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
        if let Some(c) = self.colocated.as_mut() {
            c.steady_nodes.retain(|&n| n != node);
        }
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
        // Replicas that found no GPU come first (where they share the training nodes).
        if self.units_unplaced {
            self.place_unplaced_units();
        }
        if self.waiting.is_empty() {
            return;
        }
        let mut cursor = 0;
        // Smallest shared-node job (GPUs) and smallest gang of whole nodes refused so far,
        // and the classes of fractions refused (no shared GPU had room, nor a slot a new one).
        let mut refused_gpus = u32::MAX;
        let mut refused_nodes = usize::MAX;
        let mut refused_shares = 0u32;
        while let Some(key) = self.waiting.first_from(cursor) {
            cursor = key + 1;
            let job = self.job_of_key(key);
            if let Some(teams) = &self.teams {
                // Quotas refuse jobs of one team and not another's: no job stands for
                // others, so each is offered capacity; a full cluster stops the pass unless
                // the job may evict someone.
                let level = teams.class_level[self.jobs[job].class];
                let may_preempt = teams.preempts() && teams.may_preempt_at(level);
                if self.is_full() && !may_preempt {
                    break;
                }
                if !self.try_place(job) && may_preempt {
                    self.evict_for(job);
                }
                continue;
            }
            if self.is_full() {
                break;
            }
            let plan = self.plan(job);
            if plan.fractional() {
                // (No bit past 32 classes: such a class is never skipped.)
                let class_bit = 1u32.checked_shl(self.jobs[job].class as u32).unwrap_or(0);
                if refused_shares & class_bit == 0 && !self.try_place(job) {
                    refused_shares |= class_bit;
                    if self.all_waiting_refused(refused_gpus, refused_nodes, refused_shares) {
                        break;
                    }
                }
                continue;
            }
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
                if self.all_waiting_refused(refused_gpus, refused_nodes, refused_shares) {
                    break;
                }
            }
        }
    }

    /// Whether every waiting job's class is one the pass already refused: shared-node jobs of
    /// at least `refused_gpus` GPUs, gangs of at least `refused_nodes` whole nodes, fractions
    /// of the classes in `refused_shares` (a bit per class). (Jobs of a non-gang multi-node
    /// class may hold part of their nodes, so they are never skipped.)
    fn all_waiting_refused(
        &self,
        refused_gpus: u32,
        refused_nodes: usize,
        refused_shares: u32,
    ) -> bool {
        self.waiting_per_class
            .iter()
            .zip(&self.plans)
            .enumerate()
            .all(|(class, (&n, plan))| {
                let gpus = plan.gpus;
                let needed = plan.nodes_needed as usize;
                let shared = !plan.whole_nodes;
                if plan.fractional() {
                    let bit = 1u32.checked_shl(class as u32).unwrap_or(0);
                    return n == 0 || refused_shares & bit != 0;
                }
                n == 0
                    || (shared && gpus >= refused_gpus)
                    || (!shared
                        && (self.platform.gang_scheduling || needed == 1)
                        && needed >= refused_nodes)
            })
    }

    fn enqueue(&mut self, job: usize) {
        if self.waiting.insert(self.queue_key(job)) {
            self.waiting_per_class[self.jobs[job].class] += 1;
        }
    }

    fn dequeue(&mut self, job: usize) {
        // An arriving job offered capacity at once was never queued (nothing waited then).
        if !self.waiting.is_empty() && self.waiting.remove(self.queue_key(job)) {
            self.waiting_per_class[self.jobs[job].class] -= 1;
        }
    }

    /// Places `job` where its team's quota admits it ([`Sim::place`]), and counts it against
    /// the quota; returns whether it left the queue.
    fn try_place(&mut self, job: usize) -> bool {
        let class = self.jobs[job].class;
        if self.teams.as_ref().is_some_and(|t| !t.admits(class)) {
            return false;
        }
        let placed = self.place(job);
        if placed {
            let now = self.now;
            if let Some(teams) = self.teams.as_mut() {
                teams.admit(job, class, now);
            }
        }
        placed
    }

    /// Places `job` (or the part of a gang it can hold); returns whether it left the queue.
    fn place(&mut self, job: usize) -> bool {
        let plan = self.plan(job);
        let gpus = plan.gpus;
        let gpn = self.pool.gpus_per_node;
        if plan.fractional() {
            return self.try_place_share(job);
        }
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
            (self.pool.max_nodes - self.alive_nodes) as usize
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
        let class = self.jobs[job].class;
        if let Some(teams) = self.teams.as_mut() {
            teams.release(job, class);
        }
        let plan = self.plan(job);
        if plan.fractional() {
            self.release_share(job);
        }
        let slots = plan.slots_held;
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

    fn charge_capacity_wait(&mut self, job: usize) {
        let slots = self.plan(job).held_gpus();
        for i in 0..self.states[job].holds.len() {
            let hold = self.states[job].holds[i];
            let (node, since) = (hold.node(), hold.since_s);
            // Held time counts only while the node is ready (provisioning is charged per node).
            if !self.nodes[node].ready {
                continue;
            }
            let ready_since = since.max(self.nodes[node].ready_at_s);
            let wait = (self.now - ready_since).max(0) as f64 * slots;
            self.charge_job(job, node, Category::CapacityWait, wait);
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
        if self.pool.image_cache {
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
        // Where the platform stages data, the read follows the pull and its length is known
        // only when it ends ([`Sim::begin_read`]): so is the attempt's first compute.
        let reads = plan.read_gb > 0.0;
        st.staging = match (reads, pull_s > 0) {
            (false, _) => Staging::Staged(0),
            (true, true) => Staging::AfterPull,
            (true, false) => Staging::Reading,
        };
        let compute_start = self.now + pull_s + restart_s;
        if st.first_compute_s.is_none() {
            if !reads {
                st.first_compute_s = Some(compute_start);
            }
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
        // The attempt reads its data once, however many nodes share the work: priced as
        // transfer between the platform's region and the data's where both are set, else
        // its billed share as egress.
        if self.reads_pay_transfer {
            self.data_read_gb += class.data_read_gb_per_attempt;
        } else {
            self.egress_gb += class.data_read_gb_per_attempt * class.data_read_billed_share;
        }
        self.staged_gb += plan.read_gb;
        match self.states[job].staging {
            Staging::Staged(_) => {
                let end = self.attempt_end_s(job);
                self.push(end, Event::AttemptEnd { job, generation });
            }
            // The end of the pull, where the read begins.
            Staging::AfterPull => {
                self.push(self.now + pull_s, Event::AttemptEnd { job, generation })
            }
            Staging::Reading => self.begin_read(job),
        }
    }

    /// When the running attempt of `job` ends, finished or failed, s: its pull, data read
    /// and restart, then its compute up to the end or the failure with the checkpoints
    /// written on the way (`i64::MAX` while its read's end is not known).
    fn attempt_end_s(&self, job: usize) -> i64 {
        let st = &self.states[job];
        let Staging::Staged(stage_s) = st.staging else {
            return i64::MAX;
        };
        let plan = self.plan(job);
        let (tau, delta) = (plan.tau, plan.delta);
        let remaining = st.total_c - st.committed_c;
        let compute_wall = match st.fail_after_c {
            Some(f) => f + writes_before(f, tau) * delta,
            None => remaining + checkpoints_in(remaining, tau) * delta,
        };
        st.attempt_start_s + st.pull_s + stage_s + st.restart_s + compute_wall
    }

    /// Charges the attempt's time up to now, ended by `end`: pulls, restarts, checkpoint
    /// writes and idle held GPUs to their categories, the compute it keeps (all of it when it
    /// finished or runs at the horizon, else up to its last checkpoint) through the ledger,
    /// and the rest to where `end` loses it. The kept compute is committed to the job.
    fn close_attempt(&mut self, job: usize, end: Close) {
        if self.timeline.is_some() {
            self.record_attempt(job, end);
        }
        if self.states[job].staging == Staging::Reading {
            self.stop_read(job);
        }
        let finished = end == Close::Finished;
        let lost_as = end.lost_as();
        let on_notice = end.on_notice();
        let st = &self.states[job];
        let elapsed = self.now - st.attempt_start_s;
        let pull = elapsed.min(st.pull_s);
        // A read under way was stopped above: its read so far is its staging. An attempt
        // closed while pulling its image has read nothing.
        let stage_s = st.stage_s(self.now);
        let stage = (elapsed - st.pull_s).clamp(0, stage_s);
        let before_restart = st.pull_s + stage_s;
        let restart = (elapsed - before_restart).clamp(0, st.restart_s);
        let compute_phase = (elapsed - before_restart - st.restart_s).max(0);
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
        let efficiency = self.platform.scaling_efficiency(held_nodes as u32);
        let lost = finished_done - kept;
        let held = plan.held_gpus();
        // By index: charging never changes the job's nodes.
        for i in 0..held_nodes {
            let hold = self.states[job].holds[i];
            let node = hold.node();
            let used_here = if plan.partial {
                plan.share
            } else {
                f64::from(hold.used)
            };
            self.charge_job(
                job,
                node,
                Category::ProvisioningAndPulls,
                pull as f64 * used_here,
            );
            self.charge_job(job, node, Category::DataStaging, stage as f64 * used_here);
            self.charge_job(
                job,
                node,
                Category::CheckpointsAndRestarts,
                (restart + writes) as f64 * used_here,
            );
            // Held but unused GPUs of whole nodes are idle for the whole attempt.
            self.charge_job(
                job,
                node,
                Category::Idle,
                elapsed as f64 * (held - used_here),
            );
            if let Some(bucket) = lost_as {
                self.charge_job(job, node, bucket, lost as f64 * used_here);
            }
            let kept_gpu_s = if lost_as.is_some() {
                kept
            } else {
                finished_done
            } as f64
                * used_here;
            let price = self.nodes[node].usd_per_gpu_s;
            self.ledger.charge_kept(job, kept_gpu_s, price, efficiency);
            self.count_class_spend(job, node, kept_gpu_s);
        }
        let kept_total = if lost_as.is_some() {
            kept
        } else {
            finished_done
        };
        let st = &mut self.states[job];
        st.committed_c += kept_total.min(remaining);
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
                let failed = self.states[job].failed_attempts;
                if failed > class.failures.max_retries {
                    self.give_up(job);
                } else {
                    let backoff = rounding::round(class.failures.backoff_after(failed)) as i64;
                    if backoff > 0 {
                        // An end event of a new generation says when the delay is over (an
                        // attempt ended by `stop_job` may leave its own end event due now).
                        let st = &mut self.states[job];
                        st.phase = Phase::BackingOff;
                        st.generation += 1;
                        let generation = st.generation;
                        let at = self.now.saturating_add(backoff);
                        self.push(at, Event::AttemptEnd { job, generation });
                    } else {
                        self.states[job].phase = Phase::Waiting;
                        self.enqueue(job);
                    }
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
        let wall = (self.now - self.states[job].submitted_s) as f64;
        self.inflation_sum += wall / nominal;
        self.unhold_all(job);
        if self.pipelines.is_some() {
            self.release_successors(job);
        }
    }

    fn interrupt(&mut self, node: usize) {
        if self.nodes[node].released {
            return;
        }
        self.interruptions += 1;
        let notice = self.platform.spot_notice_s;
        let _ = self.stop_every_job_on(node, NodeLoss::SpotInterruption, |sim, job| {
            let class = &sim.scenario.job_classes[sim.jobs[job].class];
            Close::Interrupted {
                on_notice: class.checkpoints_within(notice),
            }
        });
        self.release_node(node);
    }

    /// `node` is lost (interrupted, failed or consolidated; the timeline marks it): every
    /// job on it stops as `close` says for that job, and queues again. Returns the jobs
    /// stopped (not one whose attempt ended this very second: it ended first).
    fn stop_every_job_on(
        &mut self,
        node: usize,
        lost_to: NodeLoss,
        close: impl Fn(&Self, usize) -> Close,
    ) -> Vec<usize> {
        let mut stopped = Vec::new();
        if let Some(span) = self.timeline.as_mut().and_then(|t| t.nodes.get_mut(node)) {
            span.lost_to = Some(lost_to);
        }
        for job in self.nodes[node]
            .holders
            .clone()
            .into_iter()
            .map(|j| j as usize)
        {
            let how = close(self, job);
            if self.stop_job(job, how) {
                stopped.push(job);
            }
        }
        stopped
    }

    /// `node`'s hardware fails: its jobs stop with no notice (each queues again, losing its
    /// compute since its last checkpoint), and it is released. A reserved node is replaced
    /// at once through provisioning (the reservation holds the capacity); other nodes are
    /// replaced as the queue asks for them.
    fn fail_node(&mut self, node: usize) {
        if self.nodes[node].released {
            return;
        }
        self.node_failures += 1;
        let _ = self.stop_every_job_on(node, NodeLoss::HardwareFailure, |_, _| Close::NodeFailed);
        // Services' replicas on it (where they share the training nodes) move elsewhere.
        self.lose_units_on(node);
        let kind = self.nodes[node].kind;
        self.release_node(node);
        if kind == NodeKind::Reserved {
            self.add_node(NodeKind::Reserved, false);
        }
    }

    /// Kubernetes consolidates `node` away (Karpenter consolidation, cluster-autoscaler
    /// scale-down): its jobs are evicted with the preemption grace period to checkpoint in
    /// (their lost compute is preemption rework) and queue again, and the node is released.
    fn consolidate(&mut self, node: usize) {
        if self.nodes[node].released {
            return;
        }
        let grace = self.platform.preemption.grace_period_s;
        let evicted = self.stop_every_job_on(node, NodeLoss::Consolidation, |sim, job| {
            let class = &sim.scenario.job_classes[sim.jobs[job].class];
            Close::Preempted {
                on_notice: class.checkpoints_within(grace),
            }
        });
        for job in evicted {
            self.consolidation_evictions += 1;
            self.class_preempted[self.jobs[job].class] += 1;
        }
        self.lose_units_on(node);
        self.release_node(node);
    }

    /// Stops `job` wherever it is (running or holding nodes) and queues it again: its
    /// running attempt closes as `close` says (interrupted or preempted, with a checkpoint
    /// written in the notice or not). An attempt ending this very second ends first (then
    /// false: nothing stopped).
    fn stop_job(&mut self, job: usize, close: Close) -> bool {
        match self.states[job].phase {
            Phase::Running => {
                if self.attempt_end_s(job) <= self.now {
                    self.attempt_end(job);
                    return false;
                }
                let reading = !matches!(self.states[job].staging, Staging::Staged(_));
                self.close_attempt(job, close);
                let st = &mut self.states[job];
                st.generation += 1;
                if reading && st.first_compute_s.is_none() {
                    // Stopped before its read ended, on its way to its first compute: what
                    // it pulled so far stays a part of its queue wait.
                    let pulled = (self.now - st.attempt_start_s).clamp(0, st.pull_s);
                    st.first_pull_s -= st.pull_s - pulled;
                } else if st.first_compute_s.is_some_and(|c| c > self.now) {
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
        true
    }

    // ----- loop -----

    /// Runs the replication: pool by pool (one pass where the platform has one pool), each
    /// to the horizon.
    fn run(&mut self) {
        for pass in 0..self.pass_order.len() {
            if pass > 0 {
                self.enter_pool(self.pass_order[pass], false);
            }
            self.run_pool();
        }
        // The outcome reads the services' state wherever their pass left it.
        if self.colocated.is_none() {
            self.colocated = self.parked_colocated.take();
        }
    }

    /// The current pool's pass: its reserved nodes, the arrivals of its classes, every
    /// event, to the horizon.
    fn run_pool(&mut self) {
        let reserved = self.pool.reserved_nodes(self.scenario.reference_gpus);
        for _ in 0..reserved {
            self.add_node(NodeKind::Reserved, true);
        }
        self.start_reclaim_waves();
        let mut next_job = 0;
        loop {
            let next_event = self.queue.peek_time();
            let next_plain = self.jobs.get(next_job).map(|j| j.arrival_s);
            // Stages whose predecessors finished in an earlier pass come in order with the
            // arrivals (after those of the same second).
            let next_deferred = self.pipelines.as_ref().and_then(|p| p.next_deferred_s());
            let deferred_first = next_deferred.is_some_and(|d| next_plain.is_none_or(|a| d < a));
            let next_arrival = if deferred_first {
                next_deferred
            } else {
                next_plain
            };
            // The services' demand changes after the internal events of a time and before
            // its arrivals.
            let at = self.next_service_change_s;
            let service_change = (at != i64::MAX
                && next_event.is_none_or(|e| at < e)
                && next_arrival.is_none_or(|a| at <= a))
            .then_some(at);
            let take_event = match (next_event, next_arrival) {
                (None, None) if service_change.is_none() => break,
                (Some(e), Some(a)) => e <= a,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if let Some(at) = service_change {
                if at >= self.horizon_s || !self.begin_event(at) {
                    break;
                }
                self.apply_service_changes();
            } else if take_event {
                let Some((t, event)) = self.queue.pop() else {
                    break;
                };
                if t >= self.horizon_s || !self.begin_event(t) {
                    break;
                }
                self.handle(event);
            } else if deferred_first {
                let runs = self.pipelines.as_mut().expect("a deferred stage");
                let Some((t, job)) = runs.take_deferred() else {
                    break;
                };
                if t >= self.horizon_s {
                    runs.drop_deferred();
                    continue;
                }
                if !self.begin_event(t) {
                    break;
                }
                self.submit(job);
                self.enqueue(job);
            } else {
                let t = self.jobs[next_job].arrival_s;
                if t >= self.horizon_s {
                    if next_event.is_none() && next_deferred.is_none() {
                        break;
                    }
                    next_job = self.jobs.len();
                    continue;
                }
                if !self.in_this_pool(next_job)
                    || self
                        .pipelines
                        .as_ref()
                        .is_some_and(|p| !p.submits_on_arrival(self.jobs[next_job].class))
                {
                    // Another pool's job: its pool's pass submits it; a stage after others:
                    // their end submits it.
                    next_job += 1;
                    continue;
                }
                if !self.begin_event(t) {
                    break;
                }
                let job = next_job;
                next_job += 1;
                if self.pipelines.is_some() {
                    self.submit(job);
                }
                if self.offers_on_arrival() && self.teams.is_none() && self.waiting.is_empty() {
                    // A placement pass would offer capacity to this job alone: offer it here
                    // (the same test and placement the pass makes) and skip the pass.
                    if self.is_full() || !self.try_place(job) {
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
    #[inline]
    fn is_stale(&self, event: &Event) -> bool {
        match *event {
            Event::NodeReady(node)
            | Event::Interrupt(node)
            | Event::NodeFailure(node)
            | Event::Consolidate(node) => self.nodes[node].released,
            Event::SpotReclaim(_) => false,
            Event::ReadsEnd(n) => self
                .reads
                .as_ref()
                .is_none_or(|r| r.generation as usize != n),
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
        self.compact_at = (2 * self.queue.len()).max(self.compact_min());
    }

    /// Handles one event popped from the queue; a stale one ([`Sim::is_stale`]) does
    /// nothing.
    fn handle(&mut self, event: Event) {
        if self.is_stale(&event) {
            return;
        }
        match event {
            Event::NodeReady(node) => self.node_ready(node),
            Event::AttemptEnd { job, .. } => match self.states[job].phase {
                // The pull is over: the data read begins.
                Phase::Running if self.states[job].staging == Staging::AfterPull => {
                    self.begin_read(job)
                }
                Phase::Running => self.attempt_end(job),
                Phase::BackingOff => {
                    // The retry's backoff is over: it queues again.
                    self.states[job].phase = Phase::Waiting;
                    self.enqueue(job);
                }
                _ => {}
            },
            Event::Interrupt(node) => self.interrupt(node),
            Event::NodeFailure(node) => self.fail_node(node),
            Event::SpotReclaim(wave) => self.reclaim_wave(wave),
            Event::Consolidate(node) => self.consolidate(node),
            Event::ReadsEnd(_) => self.reads_end(),
            Event::IdleTimeout { node, .. } => {
                if self.nodes[node].holders.is_empty() && self.nodes[node].service_gpus == 0 {
                    self.release_node(node);
                }
            }
        }
    }

    /// Charges what is under way at the horizon: running compute counts as useful, held time
    /// as capacity wait, idle slots as idle, nodes still provisioning as provisioning.
    fn finish_horizon(&mut self) {
        for job in 0..self.states.len() {
            if !self.in_this_pool(job) {
                continue;
            }
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
        self.settle_services_at_horizon();
        self.settle_shared_gpus_at_horizon();
        let gpn = f64::from(self.pool.gpus_per_node);
        for node in self.pass_first_node..self.nodes.len() {
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
}

#[cfg(test)]
mod tests;
