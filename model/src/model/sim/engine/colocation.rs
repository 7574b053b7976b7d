//! Services' replicas on the training nodes (`serving.shares_nodes_with_training`).
//!
//! The services run first in their own simulation (their traffic, autoscaler and latency),
//! which gives the GPUs their replicas hold, minute by minute ([`Colocated::demand`]). The
//! training simulation then places those GPUs on its nodes as units (a replica's GPUs, or a
//! shared GPU's slices or shares), as Kubernetes would schedule pods of a higher priority
//! class:
//! - on a reserved or on-demand node, never on spot (inference kept off spot capacity);
//! - the fullest ready node with room, else one being provisioned, else a new on-demand node
//!   within the platform's node limit;
//! - else by preemption: on the node that needs the fewest GPUs freed, the training jobs
//!   that came last are stopped (as an interruption with no notice: their compute since the
//!   last checkpoint is rework) and queue again;
//! - a unit that still finds no GPU waits for one, first in line; the services' own
//!   simulation does not see that wait, and the GPU-hours are reported.
//!
//! When the services ask for fewer units, the last placed go first, and an emptied node
//! enters its warm window as after a job. A unit's GPUs are the services' while its node is
//! ready; while it is provisioned, the node's provisioning is charged as for any node.

use super::super::outcome::PlatformOutcome;
use super::build::Sim;
use super::mechanism::{Clock, Counts, Mechanism, NewNode, PoolStart, Setup};
use crate::model::pricing::GpuSecondPrices;
use crate::model::scenario::HOUR_S;
use crate::model::serving::platform::{
    serve_on_training_nodes, shares_training_nodes, Served, ServiceDemand,
};
use crate::model::sim::state::{Close, NodeKind};

/// The services' replicas on the training nodes: what they ask for over time (worked out
/// before the run, from the services' own simulation) and where the run placed them. Its
/// pool's pass places them; other pools' passes leave it as it is (`active` false).
#[derive(Clone)]
pub(super) struct Colocation {
    /// The pool the services share training's nodes on.
    pub(super) pool: usize,
    /// Whether the current pass is that pool's.
    active: bool,
    /// The services' outcomes, their GPU time as their own simulation counted it.
    pub(super) served: Served,
    /// The units of GPUs they hold over time.
    demand: ServiceDemand,
    /// The next change of `demand` to apply, and when it is due, s (`i64::MAX`: never, or
    /// not this pass: the event loop of a pass without them pays one comparison).
    next_change: usize,
    next_change_s: i64,
    /// Per size class, the nodes its placed units are on (the last placed is removed first).
    units: Vec<Vec<u32>>,
    /// Per size class, units asked for that found no GPU yet.
    unplaced: Vec<u32>,
    /// Unplaced GPUs now, and since when, s.
    unplaced_gpus: u64,
    unplaced_since_s: i64,
    /// GPU-seconds asked for that found no GPU.
    unplaced_gpu_s: f64,
    /// The nodes replicas may use (reserved and on-demand, not released), by id.
    steady_nodes: Vec<usize>,
    /// Per node (by id): GPU slots the replicas hold there, and since when that is
    /// unchanged (while ready), s.
    on_node: Vec<(u32, i64)>,
    /// GPU-seconds the replicas held on ready nodes, and their price, USD.
    pub(super) held_gpu_s: f64,
    pub(super) held_usd: f64,
    /// Training jobs stopped to make room for a replica.
    preemptions: u64,
}

impl Mechanism for Colocation {
    /// On where the scenario has services and the platform runs them on training's nodes:
    /// the services' own simulation runs here, once per replication.
    fn of(setup: &Setup) -> Option<Colocation> {
        let (scenario, platform) = (setup.scenario, setup.platform);
        if scenario.services.is_empty() || !shares_training_nodes(platform) {
            return None;
        }
        // Every service on the one pool (validation refuses services of several pools on
        // training's nodes).
        let at = platform.services_pool(scenario);
        let view = platform.pool_view(at);
        let prices = GpuSecondPrices::of(scenario, platform, &platform.node_pools[at]);
        let (served, mut demand) =
            serve_on_training_nodes(scenario, &view, setup.replication, prices.on_demand);
        // Their simulation covers the measured window: through a warm-up the replicas hold
        // their first count, and follow their demand from the window's opening.
        let from_s = scenario.warmup_s();
        for change in demand.changes.iter_mut().filter(|c| c.0 > 0) {
            change.0 += from_s;
        }
        let classes = demand.sizes.len();
        Some(Colocation {
            pool: at,
            active: false,
            served,
            demand,
            next_change: 0,
            next_change_s: i64::MAX,
            units: vec![Vec::new(); classes],
            unplaced: vec![0; classes],
            unplaced_gpus: 0,
            unplaced_since_s: 0,
            unplaced_gpu_s: 0.0,
            steady_nodes: Vec::new(),
            on_node: Vec::new(),
            held_gpu_s: 0.0,
            held_usd: 0.0,
            preemptions: 0,
        })
    }

    fn enter_pool(&mut self, pool: &PoolStart) {
        self.active = pool.index == self.pool;
        self.next_change_s = if self.active {
            self.demand
                .changes
                .get(self.next_change)
                .map_or(i64::MAX, |c| c.0)
        } else {
            i64::MAX
        };
    }

    fn node_added(&mut self, node: NewNode) {
        // Nodes come in id order, each once: a node's entry is at its id.
        debug_assert_eq!(self.on_node.len(), node.id);
        self.on_node.push((0, 0));
        if self.active && node.kind != NodeKind::Spot {
            self.steady_nodes.push(node.id);
        }
    }

    /// The replicas' time on the node counts from now (its provisioning is the node's).
    fn node_ready(&mut self, node: usize, _kind: NodeKind, now: i64) -> Option<Clock> {
        if let Some(slot) = self.on_node.get_mut(node) {
            slot.1 = now;
        }
        None
    }

    fn node_released(&mut self, node: usize) {
        if self.active {
            self.steady_nodes.retain(|&n| n != node);
        }
    }

    fn report(&self, outcome: &mut PlatformOutcome) {
        outcome.preemptions += self.preemptions;
        outcome.service_gpu_hours_without_node = self.unplaced_gpu_s / HOUR_S;
    }

    fn counts(&self) -> Counts {
        [
            self.preemptions as f64,
            self.unplaced_gpu_s,
            self.held_gpu_s,
            self.held_usd,
        ]
    }

    fn forget(&mut self, before: &Counts) {
        self.preemptions = self.preemptions.saturating_sub(before[0] as u64);
        self.unplaced_gpu_s -= before[1];
        self.held_gpu_s -= before[2];
        self.held_usd -= before[3];
    }
}

impl Colocation {
    /// Whether some units wait for a GPU (placed first at the next placement pass).
    #[inline]
    pub(super) fn units_unplaced(&self) -> bool {
        self.active && self.unplaced_gpus > 0
    }

    /// Counts the GPU-seconds asked for that found no GPU, up to `now`.
    fn settle_unplaced(&mut self, now: i64) {
        let since = std::mem::replace(&mut self.unplaced_since_s, now);
        self.unplaced_gpu_s += self.unplaced_gpus as f64 * (now - since) as f64;
    }
}

impl Sim<'_> {
    /// The services' state where the current pass is their pool's.
    #[inline]
    fn colocation(&mut self) -> Option<&mut Colocation> {
        self.mech.colocation.as_mut().filter(|c| c.active)
    }

    /// When the services' demand changes next, s (`i64::MAX`: never in this pass).
    #[inline]
    pub(super) fn next_service_change_s(&self) -> i64 {
        self.mech
            .colocation
            .as_ref()
            .map_or(i64::MAX, |c| c.next_change_s)
    }

    /// GPU slots the services' replicas hold on `node`.
    #[inline]
    pub(super) fn service_gpus_on(&self, node: usize) -> u32 {
        self.mech
            .colocation
            .as_ref()
            .and_then(|c| c.on_node.get(node))
            .map_or(0, |slot| slot.0)
    }

    /// Whether some of the services' units wait for a GPU.
    #[inline]
    pub(super) fn units_unplaced(&self) -> bool {
        self.mech
            .colocation
            .as_ref()
            .is_some_and(|c| c.units_unplaced())
    }

    /// Applies every change of the services' demand due by now: those that shrink first,
    /// so that units leaving make room for units arriving at the same time.
    pub(super) fn apply_service_changes(&mut self) {
        let now = self.now;
        let Some(c) = self.colocation() else {
            return;
        };
        let from = c.next_change;
        while c
            .demand
            .changes
            .get(c.next_change)
            .is_some_and(|change| change.0 <= now)
        {
            c.next_change += 1;
        }
        let to = c.next_change;
        c.next_change_s = c.demand.changes.get(to).map_or(i64::MAX, |change| change.0);
        for growing in [false, true] {
            for i in from..to {
                let Some(c) = self.colocation() else {
                    return;
                };
                let (_, class, units) = c.demand.changes[i];
                let class = usize::from(class);
                let now = c.units[class].len() as u32 + c.unplaced[class];
                if (units > now) == growing {
                    self.set_service_units(class, units);
                }
            }
        }
    }

    /// Makes the services hold `target` units of size class `class`.
    fn set_service_units(&mut self, class: usize, target: u32) {
        let now_s = self.now;
        let Some(c) = self.colocation() else {
            return;
        };
        let gpus = c.demand.sizes[class];
        let mut now = c.units[class].len() as u32 + c.unplaced[class];
        while now > target {
            now -= 1;
            let c = self.colocation().expect("colocated");
            if c.unplaced[class] > 0 {
                c.settle_unplaced(now_s);
                c.unplaced[class] -= 1;
                c.unplaced_gpus -= u64::from(gpus);
            } else if let Some(node) = c.units[class].pop() {
                self.take_unit_off(node as usize, gpus);
            }
        }
        while now < target {
            now += 1;
            if !self.place_unit(class) {
                let c = self.colocation().expect("colocated");
                c.settle_unplaced(now_s);
                c.unplaced[class] += 1;
                c.unplaced_gpus += u64::from(gpus);
            }
        }
    }

    /// Places the units that found no GPU yet, first in line before waiting jobs.
    pub(super) fn place_unplaced_units(&mut self) {
        let now = self.now;
        let Some(c) = self.colocation() else {
            return;
        };
        if c.unplaced_gpus == 0 {
            return;
        }
        for class in 0..c.unplaced.len() {
            while self.colocation().is_some_and(|c| c.unplaced[class] > 0) {
                if !self.place_unit(class) {
                    break;
                }
                let c = self.colocation().expect("colocated");
                c.settle_unplaced(now);
                c.unplaced[class] -= 1;
                c.unplaced_gpus -= u64::from(c.demand.sizes[class]);
            }
        }
    }

    /// Places one unit of size class `class`; false when no GPU can be found or freed.
    fn place_unit(&mut self, class: usize) -> bool {
        let Some(c) = self.colocation() else {
            return false;
        };
        let gpus = c.demand.sizes[class];
        let node = match self.node_with_room(gpus) {
            Some(node) => node,
            None if self.can_add_node() => self.add_node(NodeKind::OnDemand, false),
            None => match self.preempt_for(gpus) {
                Some(node) => node,
                None => return false,
            },
        };
        self.settle_service_time(node);
        let free = self.nodes[node].free - gpus;
        self.set_free(node, free);
        // Cancels a pending release.
        self.nodes[node].idle_generation += 1;
        if let Some(c) = self.colocation() {
            c.on_node[node].0 += gpus;
            c.units[class].push(node as u32);
        }
        true
    }

    /// `node` is lost (its hardware failed, or it was consolidated): the services' time on
    /// it is counted up to now, and its units wait for GPUs elsewhere, first in line (placed
    /// again at the next placement pass, on a replacement node, a new on-demand node or by
    /// preemption).
    pub(super) fn lose_units_on(&mut self, node: usize) {
        if self.service_gpus_on(node) == 0 {
            return;
        }
        self.settle_service_time(node);
        let now = self.now;
        let Some(c) = self.colocation() else {
            return;
        };
        c.settle_unplaced(now);
        for class in 0..c.units.len() {
            let gpus = c.demand.sizes[class];
            let before = c.units[class].len();
            c.units[class].retain(|&n| n as usize != node);
            let lost = (before - c.units[class].len()) as u32;
            c.unplaced[class] += lost;
            c.unplaced_gpus += u64::from(lost * gpus);
        }
        c.on_node[node].0 = 0;
    }

    /// Takes a unit of `gpus` off `node`.
    fn take_unit_off(&mut self, node: usize, gpus: u32) {
        self.settle_service_time(node);
        if let Some(c) = self.colocation() {
            c.on_node[node].0 -= gpus;
        }
        let free = self.nodes[node].free + gpus;
        self.set_free(node, free);
        self.maybe_schedule_release(node);
    }

    /// The fullest reserved or on-demand node with `gpus` free: ready ones first, then those
    /// being provisioned; ties to the lowest id.
    fn node_with_room(&self, gpus: u32) -> Option<usize> {
        let c = self.mech.colocation.as_ref().filter(|c| c.active)?;
        [true, false].into_iter().find_map(|ready| {
            c.steady_nodes
                .iter()
                .copied()
                .filter(|&i| self.nodes[i].ready == ready && self.nodes[i].free >= gpus)
                .min_by_key(|&i| (self.nodes[i].free, i))
        })
    }

    /// Frees `gpus` on a reserved or on-demand node by stopping training jobs, those that
    /// took the node last first: on the node (ready ones first) that needs the fewest stopped,
    /// then the one with the most free already. The node, or `None` when no node could hold
    /// the unit even without its jobs.
    fn preempt_for(&mut self, gpus: u32) -> Option<usize> {
        let gpn = self.pass.pool.gpus_per_node;
        let c = self.mech.colocation.as_ref().filter(|c| c.active)?;
        let node = [true, false].into_iter().find_map(|ready| {
            c.steady_nodes
                .iter()
                .copied()
                .filter(|&i| {
                    let n = &self.nodes[i];
                    n.ready == ready && gpn - c.on_node[i].0 >= gpus
                })
                .min_by_key(|&i| {
                    (
                        self.evictions_for(i, gpus),
                        std::cmp::Reverse(self.nodes[i].free),
                        i,
                    )
                })
        })?;
        while self.nodes[node].free < gpus {
            let Some(&job) = self.nodes[node].holders.last() else {
                break;
            };
            if self.stop_job(job as usize, Close::Interrupted { on_notice: false }) {
                if let Some(c) = self.colocation() {
                    c.preemptions += 1;
                }
            }
        }
        (self.nodes[node].free >= gpus).then_some(node)
    }

    /// How many of `node`'s jobs, the last first, must stop to free `gpus` (a job sharing a
    /// GPU frees a whole one only with its neighbours: counted as freeing none).
    fn evictions_for(&self, node: usize, gpus: u32) -> usize {
        let n = &self.nodes[node];
        let mut free = n.free;
        let mut stopped = 0;
        for &job in n.holders.iter().rev() {
            if free >= gpus {
                break;
            }
            free += self.plan(job as usize).slots_held;
            stopped += 1;
        }
        if free >= gpus {
            stopped
        } else {
            n.holders.len() + 1
        }
    }

    /// Counts the GPU time the services held on `node` up to now (only while it is ready:
    /// its provisioning is the node's).
    pub(super) fn settle_service_time(&mut self, node: usize) {
        let now = self.now;
        let n = &self.nodes[node];
        let (ready, released, price) = (n.ready, n.released, n.usd_per_gpu_s);
        let Some(c) = self.mech.colocation.as_mut() else {
            return;
        };
        let Some(slot) = c.on_node.get_mut(node) else {
            return;
        };
        let since = std::mem::replace(&mut slot.1, now);
        if !ready || released || slot.0 == 0 {
            return;
        }
        let gpu_s = f64::from(slot.0) * (now - since) as f64;
        if c.active {
            c.held_gpu_s += gpu_s;
            c.held_usd += gpu_s * price;
        }
    }

    /// At the horizon: the services' time on every node and the GPUs that found none.
    pub(super) fn settle_services_at_horizon(&mut self) {
        let now = self.now;
        let Some(c) = self.colocation() else {
            return;
        };
        c.settle_unplaced(now);
        let nodes = c.steady_nodes.clone();
        for node in nodes {
            self.settle_service_time(node);
        }
    }
}
