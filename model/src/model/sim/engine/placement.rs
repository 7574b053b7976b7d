//! Placement: waiting jobs offered free capacity in the queue's order, nodes held, added
//! and picked by the platform's placement, and a job started once it holds all its nodes
//! and they are ready.
//!
//! Within one placement pass capacity only shrinks, so a refused job size stands for every
//! larger one (see [`Sim::dispatch`]); the waiting queue is walked with a cursor, so a long
//! queue costs nothing while the cluster is full.

use super::super::job_queue::JobQueue;
use super::super::state::{ClassPlan, Hold, NodeKind, Phase};
use super::build::Sim;
use crate::model::cost_category::Category;
use crate::model::scenario::Placement;

/// The waiting jobs in the queue's order, and how many of each class wait (placement stops
/// once no waiting class can fit).
#[derive(Clone)]
pub(super) struct Waiting {
    pub(super) queue: JobQueue,
    pub(super) per_class: Vec<u32>,
}

impl Sim<'_> {
    /// Offers free capacity to waiting jobs in submission order. Walks the queue with a
    /// cursor (placing a job removes it) and stops as soon as no slot is free and no node can
    /// be added, so a long queue costs nothing while the cluster is full.
    ///
    /// Within one pass capacity only shrinks (jobs take slots, nodes are only added while the
    /// node limit allows, and a refusal means it does not), so once a job of some size is
    /// refused, every later job at least as large is refused too and is skipped without a
    /// search: the same placements, without rescanning the nodes for each of them.
    pub(super) fn dispatch(&mut self) {
        // Replicas that found no GPU come first (where they share the training nodes).
        if self.units_unplaced() {
            self.place_unplaced_units();
        }
        if self.waiting.queue.is_empty() {
            return;
        }
        let mut cursor = 0;
        // Smallest shared-node job (GPUs) and smallest gang of whole nodes refused so far,
        // and the classes of fractions refused (no shared GPU had room, nor a slot a new one).
        let mut refused_gpus = u32::MAX;
        let mut refused_nodes = usize::MAX;
        let mut refused_shares = 0u32;
        while let Some(key) = self.waiting.queue.first_from(cursor) {
            cursor = key + 1;
            let job = self.job_of_key(key);
            if let Some(teams) = &self.mech.teams {
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
    pub(super) fn all_waiting_refused(
        &self,
        refused_gpus: u32,
        refused_nodes: usize,
        refused_shares: u32,
    ) -> bool {
        self.waiting
            .per_class
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

    pub(super) fn enqueue(&mut self, job: usize) {
        if self.waiting.queue.insert(self.queue_key(job)) {
            self.waiting.per_class[self.jobs[job].class] += 1;
        }
    }

    pub(super) fn dequeue(&mut self, job: usize) {
        // An arriving job offered capacity at once was never queued (nothing waited then).
        if !self.waiting.queue.is_empty() && self.waiting.queue.remove(self.queue_key(job)) {
            self.waiting.per_class[self.jobs[job].class] -= 1;
        }
    }

    /// Places `job` where its team's quota admits it ([`Sim::place`]), and counts it against
    /// the quota; returns whether it left the queue.
    pub(super) fn try_place(&mut self, job: usize) -> bool {
        let class = self.jobs[job].class;
        if self.mech.teams.as_ref().is_some_and(|t| !t.admits(class)) {
            return false;
        }
        let placed = self.place(job);
        if placed {
            let now = self.now;
            if let Some(teams) = self.mech.teams.as_mut() {
                teams.admit(job, class, now);
            }
        }
        placed
    }

    /// Places `job` (or the part of a gang it can hold); returns whether it left the queue.
    pub(super) fn place(&mut self, job: usize) -> bool {
        let plan = self.plan(job);
        let gpus = plan.gpus;
        let gpn = self.pass.pool.gpus_per_node;
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
        let mut empty = std::mem::take(&mut self.capacity.scratch);
        self.empty_nodes(&mut empty);
        let addable = if self.overflow_kind().is_some() {
            (self.pass.pool.max_nodes - self.capacity.alive) as usize
        } else {
            0
        };
        let gang = self.platform.gang_scheduling || needed == 1;
        if gang && empty.len() + addable < missing {
            self.capacity.scratch = empty;
            return false;
        }
        let mut taken = 0;
        for &node in empty.iter().take(missing) {
            self.hold(job, node, gpn);
            taken += 1;
        }
        self.capacity.scratch = empty;
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
    pub(super) fn pick_shared_node(&mut self, gpus: u32, placement: Placement) -> Option<usize> {
        let index = &self.capacity.index;
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
    pub(super) fn empty_nodes(&self, out: &mut Vec<usize>) {
        out.clear();
        out.extend(self.capacity.index.empty(true));
        out.extend(self.capacity.index.empty(false));
    }

    pub(super) fn hold(&mut self, job: usize, node: usize, slots: u32) {
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

    pub(super) fn unhold_all(&mut self, job: usize) {
        let class = self.jobs[job].class;
        if let Some(teams) = self.mech.teams.as_mut() {
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
    pub(super) fn plan(&self, job: usize) -> ClassPlan {
        self.plans[self.jobs[job].class]
    }

    /// Starts the job if it holds all its nodes and they are all ready; charges the time its
    /// ready nodes were held waiting as capacity wait (`held_earlier`: some of its nodes may
    /// have been held before now; when all were taken just now the wait is nothing).
    pub(super) fn start_if_ready(&mut self, job: usize, held_earlier: bool) {
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

    pub(super) fn charge_capacity_wait(&mut self, job: usize) {
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
}
