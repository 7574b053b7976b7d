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
mod consolidation;
mod fractional;
mod mechanism;
mod node_failures;
mod outcome;
mod pipelines;
mod placement;
mod reclaims;
mod records;
mod showback;
mod staging;
mod teams;
mod waits;
mod warm_pool;
mod window;

pub use pipelines::{pass_order, pool_edges};

use super::attempt_failure::fail_after_c;
use super::checkpoint::{checkpoints_in, compute_done, writes_before};
use super::event_queue::{Event, EventQueue};
use super::jobs::Job;
use super::outcome::PlatformOutcome;
use super::state::{Close, Node, NodeKind, Phase, Staging};
use super::timeline::{JobRecord, NodeLoss, Timeline};
use crate::model::cost_category::Category;
use crate::model::hosted_api;
use crate::model::rng::{Purpose, Stream};
use crate::model::rounding::{self, ceil_div};
use crate::model::scenario::{Overflow, Scenario, HOUR_S};
use build::{new_sim, Sim};
use mechanism::NewNode;
use smallvec::SmallVec;

/// What the event loop does once a step has run.
enum Step {
    /// A placement pass.
    Dispatch,
    /// The next step, with no placement pass.
    Next,
    /// The pass is over: the horizon, or the event budget spent.
    Stop,
}

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
    if scenario.platforms[platform_index].hosted_api.is_some() {
        let outcome = hosted_api::serve::simulate(scenario, platform_index, replication);
        return (outcome, keep_records.then(Vec::new));
    }
    let scenario = &*scenario.simulated_on(platform_index);
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
    if scenario.platforms[platform_index].hosted_api.is_some() {
        // A month of minutes: no events to budget.
        return hosted_api::serve::simulate(scenario, platform_index, replication);
    }
    let scenario = &*scenario.simulated_on(platform_index);
    let mut sim = new_sim(scenario, platform_index, replication, jobs);
    sim.agenda.budget = event_budget;
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
    if scenario.platforms[platform_index].hosted_api.is_some() {
        // No nodes to draw.
        let outcome = hosted_api::serve::simulate(scenario, platform_index, replication);
        return (outcome, Timeline::default());
    }
    let scenario = &*scenario.simulated_on(platform_index);
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
        self.agenda.queue.push(at_s, event);
        if self.agenda.queue.len() >= self.agenda.compact_at {
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
            let spend = &mut self.tally.class_spend[self.jobs[job].class];
            spend.0 += gpu_seconds;
            spend.1 += gpu_seconds * self.nodes[node].usd_per_gpu_s;
        }
    }

    // ----- nodes -----

    fn add_node(&mut self, kind: NodeKind, ready_now: bool) -> usize {
        // Where capacity is short (a drought after a reclaim wave), a node may be bought as
        // another kind, or come no earlier than the mechanisms say.
        let (kind, capacity_from) = self.mech.node_capacity(kind, self.now);
        let id = self.nodes.len();
        let price = match kind {
            NodeKind::Reserved => self.pass.prices.reserved,
            NodeKind::OnDemand => self.pass.prices.on_demand,
            NodeKind::Spot => self.pass.prices.spot,
        };
        let (p, pool) = (self.platform, self.pass.pool);
        // The n-th node of every platform draws from the same stream, in a fixed order
        // (capacity wait, provisioning, then the interruption clock where it can be
        // interrupted): common random numbers across platforms, independent of event order.
        // The mechanisms draw from streams of their own.
        let mut rng = Stream::new(
            self.scenario.seed,
            self.replication,
            Purpose::Nodes,
            id as u64,
        );
        let capacity_wait = rng.exponential(p.capacity_wait_mean_s);
        let provisioning = rng.lognormal(p.provisioning_median_s, self.pass.provisioning_sigma);
        // The stream's last draw, so skipping it where no interruption can come changes no
        // other draw (and saves a logarithm per node).
        let interruptible = kind == NodeKind::Spot && pool.spot_interruptions_per_node_hour > 0.0;
        let interruption_draw = if interruptible {
            rng.exponential(1.0)
        } else {
            0.0
        };
        self.mech.node_added(NewNode {
            id,
            kind,
            seed: self.scenario.seed,
            replication: self.replication,
        });
        // A reservation holds its capacity: a reserved node (the replacement of a failed one)
        // waits for none.
        let billing_start = if ready_now || kind == NodeKind::Reserved {
            self.now
        } else {
            (self.now + rounding::round(capacity_wait) as i64).max(capacity_from)
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
        });
        let capacity = &mut self.capacity;
        capacity.index.insert(false, pool.gpus_per_node, id);
        capacity.free_slots += u64::from(pool.gpus_per_node);
        capacity.alive += 1;
        capacity.peak = capacity.peak.max(capacity.alive);
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
        match self.pass.pool.purchase.overflow {
            Overflow::OnDemand => Some(NodeKind::OnDemand),
            Overflow::Spot => Some(NodeKind::Spot),
            Overflow::None => None,
        }
    }

    /// Whether no job could be placed: no free GPU slot, no shared GPU with parts of it
    /// free, and no node to add.
    #[inline]
    fn is_full(&self) -> bool {
        self.capacity.free_slots == 0
            && self.mech.shared_gpus.as_ref().is_none_or(|s| s.live() == 0)
            && !self.can_add_node()
    }

    fn can_add_node(&self) -> bool {
        self.overflow_kind().is_some() && self.capacity.alive < self.pass.pool.max_nodes
    }

    fn set_free(&mut self, node: usize, free: u32) {
        let n = &self.nodes[node];
        if n.ready && !n.released {
            let idle = f64::from(n.free) * (self.now - n.free_since_s) as f64;
            self.charge(node, Category::Idle, idle);
        }
        let n = &mut self.nodes[node];
        if !n.released {
            let capacity = &mut self.capacity;
            capacity.free_slots = capacity.free_slots + u64::from(free) - u64::from(n.free);
            capacity.index.update(n.ready, n.free, free, node);
        }
        n.free = free;
        n.free_since_s = self.now;
    }

    fn node_ready(&mut self, node: usize) {
        let gpn = f64::from(self.pass.pool.gpus_per_node);
        let provisioning = (self.now - self.nodes[node].billing_start_s) as f64 * gpn;
        self.charge(node, Category::ProvisioningAndPulls, provisioning);
        let n = &mut self.nodes[node];
        if !n.ready && !n.released {
            self.capacity.index.remove(false, n.free, node);
            self.capacity.index.insert(true, n.free, node);
        }
        n.ready = true;
        n.ready_at_s = self.now;
        n.free_since_s = self.now;
        if let Some(span) = self.timeline.as_mut().and_then(|t| t.nodes.get_mut(node)) {
            span.ready_s = Some(self.now);
        }
        // Its clocks start now: a spot node's interruption, then the mechanisms' (hardware
        // failure, consolidation).
        let kind = self.nodes[node].kind;
        if kind == NodeKind::Spot {
            let draw = self.nodes[node].interruption_draw;
            let rate = self.pass.pool.own_spot_interruptions_per_node_hour();
            self.schedule_on_clock(draw, rate, Event::Interrupt(node));
        }
        self.mechanisms_node_ready(node, kind);
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

    fn release_node(&mut self, node: usize) {
        let free = self.nodes[node].free;
        self.set_free(node, free);
        let n = &self.nodes[node];
        let used = (self.now - n.billing_start_s).max(0);
        let b = &self.platform.billing;
        let granularity = i64::from(b.granularity_s.max(1));
        let billed = (ceil_div(used, granularity) * granularity).max(i64::from(b.minimum_s));
        let gpn = f64::from(self.pass.pool.gpus_per_node);
        self.charge(
            node,
            Category::BillingRounding,
            (billed - used) as f64 * gpn,
        );
        self.ledger.paid_gpu_s += billed as f64 * gpn;
        self.capacity.free_slots -= u64::from(self.nodes[node].free);
        let n = &self.nodes[node];
        self.capacity.index.remove(n.ready, n.free, node);
        self.nodes[node].released = true;
        let now = self.now;
        if let Some(span) = self.timeline.as_mut().and_then(|t| t.nodes.get_mut(node)) {
            span.end_s = now;
        }
        self.capacity.alive -= 1;
        self.mech.node_released(node);
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
        if self.pass.pool.image_cache {
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
        st.fail_after_c = fail_after_c(&class.failures, &self.jobs[job], st);
        let generation = st.generation;
        // The attempt reads its data once, however many nodes share the work: priced as
        // transfer between the platform's region and the data's where both are set, else
        // its billed share as egress.
        if self.tally.reads_pay_transfer {
            self.tally.data_read_gb += class.data_read_gb_per_attempt;
        } else {
            self.tally.egress_gb += class.data_read_gb_per_attempt * class.data_read_billed_share;
        }
        self.mech.attempt_started(&self.jobs[job], &plan);
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
        self.tally.gave_up += 1;
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
        self.tally.completed += 1;
        let class = &self.scenario.job_classes[self.jobs[job].class];
        self.tally.egress_gb += class.egress_gb_per_job;
        let nominal = self.jobs[job].work_ref_s.max(1.0);
        let wall = (self.now - self.states[job].submitted_s) as f64;
        self.tally.inflation_sum += wall / nominal;
        self.unhold_all(job);
        if self.mech.pipelines.is_some() {
            self.release_successors(job);
        }
    }

    fn interrupt(&mut self, node: usize) {
        if self.nodes[node].released {
            return;
        }
        self.tally.interruptions += 1;
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
        for pass in 0..self.pass.order.len() {
            if pass > 0 {
                self.enter_pool(self.pass.order[pass]);
            }
            self.window_pass_started();
            self.run_pool();
        }
        self.forget_warmup();
    }

    /// The current pool's pass: its reserved nodes, the arrivals of its classes, every
    /// event, to the horizon.
    fn run_pool(&mut self) {
        let reserved = self.pass.pool.reserved_nodes(self.scenario.reference_gpus);
        for _ in 0..reserved {
            self.add_node(NodeKind::Reserved, true);
        }
        // The pool's own clocks (reclaim waves) start once its reserved nodes are there.
        self.mechanisms_pass_started();
        let mut next_job = 0;
        loop {
            let next_event = self.agenda.queue.peek_time();
            let next_plain = self.jobs.get(next_job).map(|j| j.arrival_s);
            // Stages whose predecessors finished in an earlier pass come in order with the
            // arrivals (after those of the same second).
            let next_deferred = self
                .mech
                .pipelines
                .as_ref()
                .and_then(|p| p.next_deferred_s());
            let deferred_first = next_deferred.is_some_and(|d| next_plain.is_none_or(|a| d < a));
            let next_arrival = if deferred_first {
                next_deferred
            } else {
                next_plain
            };
            // The services' demand changes after the internal events of a time and before
            // its arrivals.
            let at = self.next_service_change_s();
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
            let step = if let Some(at) = service_change {
                if at >= self.horizon_s || !self.begin_event(at) {
                    break;
                }
                self.apply_service_changes();
                Step::Dispatch
            } else if take_event {
                let Some((t, event)) = self.agenda.queue.pop() else {
                    break;
                };
                if t >= self.horizon_s || !self.begin_event(t) {
                    break;
                }
                self.handle(event);
                Step::Dispatch
            } else if deferred_first {
                self.submit_deferred()
            } else {
                let more = next_event.is_some() || next_deferred.is_some();
                self.arrive(&mut next_job, more)
            };
            match step {
                Step::Dispatch => self.dispatch(),
                Step::Next => {}
                Step::Stop => break,
            }
        }
        if self.window_opens_by(self.horizon_s) {
            self.open_window();
        }
        self.now = self.horizon_s;
        self.finish_horizon();
    }

    /// The arrival of job `next_job`, which moves on: submitted and offered capacity where
    /// it runs on this pass's pool and is submitted when it arrives, passed over otherwise
    /// (its pool's pass submits it; a stage after others, their end). At or past the
    /// horizon, every job left is passed over, and the pass ends unless `more` is to come.
    #[inline]
    fn arrive(&mut self, next_job: &mut usize, more: bool) -> Step {
        let t = self.jobs[*next_job].arrival_s;
        if t >= self.horizon_s {
            if !more {
                return Step::Stop;
            }
            *next_job = self.jobs.len();
            return Step::Next;
        }
        let job = *next_job;
        if !self.in_this_pool(job)
            || self
                .mech
                .pipelines
                .as_ref()
                .is_some_and(|p| !p.submits_on_arrival(self.jobs[job].class))
        {
            *next_job += 1;
            return Step::Next;
        }
        if !self.begin_event(t) {
            return Step::Stop;
        }
        *next_job += 1;
        if self.mech.pipelines.is_some() {
            self.submit(job);
        }
        if self.offers_on_arrival() && self.mech.teams.is_none() && self.waiting.queue.is_empty() {
            // A placement pass would offer capacity to this job alone: offer it here (the
            // same test and placement the pass makes) and skip the pass.
            if self.is_full() || !self.try_place(job) {
                self.enqueue(job);
            }
            return Step::Next;
        }
        self.enqueue(job);
        Step::Dispatch
    }

    /// Moves the clock to `t` to handle one more event (a queued one or an arrival); false,
    /// with `cut_off` set, when the replication's event budget is spent.
    fn begin_event(&mut self, t: i64) -> bool {
        if self.agenda.handled >= self.agenda.budget {
            self.agenda.cut_off = true;
            return false;
        }
        if self.window_opens_by(t) {
            self.open_window();
        }
        self.now = t;
        self.agenda.handled += 1;
        true
    }

    /// Whether handling `event` could no longer do anything, whenever it comes: its node was
    /// released, or its job or idle window moved on (generations only grow).
    #[inline]
    fn is_stale(&self, event: &Event) -> bool {
        match *event {
            Event::NodeReady(node) | Event::Interrupt(node) => self.nodes[node].released,
            Event::Mechanism { mechanism, id } => mechanism::event_is_stale(self, mechanism, id),
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
        let mut queue = std::mem::replace(&mut self.agenda.queue, EventQueue::new(0));
        queue.retain(|event| !self.is_stale(event));
        self.agenda.queue = queue;
        self.agenda.compact_at = (2 * self.agenda.queue.len()).max(self.compact_min());
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
            Event::Mechanism { mechanism, id } => mechanism::handle_event(self, mechanism, id),
            Event::IdleTimeout { node, .. } => self.idle_timeout(node),
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
        let gpn = f64::from(self.pass.pool.gpus_per_node);
        for node in self.pass.first_node..self.nodes.len() {
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
