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

use super::build::Colocated;
use super::Sim;
use crate::model::sim::state::{Close, NodeKind};

impl Sim<'_> {
    /// Applies every change of the services' demand due by now: those that shrink first,
    /// so that units leaving make room for units arriving at the same time.
    pub(super) fn apply_service_changes(&mut self) {
        let Some(c) = self.colocated.as_mut() else {
            return;
        };
        let from = c.next_change;
        while c
            .demand
            .changes
            .get(c.next_change)
            .is_some_and(|change| change.0 <= self.now)
        {
            c.next_change += 1;
        }
        let to = c.next_change;
        self.next_service_change_s = c.demand.changes.get(to).map_or(i64::MAX, |change| change.0);
        for growing in [false, true] {
            for i in from..to {
                let Some(c) = self.colocated.as_ref() else {
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
        let Some(c) = self.colocated.as_mut() else {
            return;
        };
        let gpus = c.demand.sizes[class];
        let mut now = c.units[class].len() as u32 + c.unplaced[class];
        while now > target {
            now -= 1;
            let c = self.colocated.as_mut().expect("colocated");
            if c.unplaced[class] > 0 {
                settle_unplaced(c, self.now);
                c.unplaced[class] -= 1;
                c.unplaced_gpus -= u64::from(gpus);
            } else if let Some(node) = c.units[class].pop() {
                self.take_unit_off(node as usize, gpus);
            }
        }
        while now < target {
            now += 1;
            if !self.place_unit(class) {
                let c = self.colocated.as_mut().expect("colocated");
                settle_unplaced(c, self.now);
                c.unplaced[class] += 1;
                c.unplaced_gpus += u64::from(gpus);
            }
        }
        self.units_unplaced = self.colocated.as_ref().is_some_and(|c| c.unplaced_gpus > 0);
    }

    /// Places the units that found no GPU yet, first in line before waiting jobs.
    pub(super) fn place_unplaced_units(&mut self) {
        let Some(c) = self.colocated.as_ref() else {
            return;
        };
        if c.unplaced_gpus == 0 {
            return;
        }
        for class in 0..c.unplaced.len() {
            while self
                .colocated
                .as_ref()
                .is_some_and(|c| c.unplaced[class] > 0)
            {
                if !self.place_unit(class) {
                    break;
                }
                let c = self.colocated.as_mut().expect("colocated");
                settle_unplaced(c, self.now);
                c.unplaced[class] -= 1;
                c.unplaced_gpus -= u64::from(c.demand.sizes[class]);
            }
        }
        self.units_unplaced = self.colocated.as_ref().is_some_and(|c| c.unplaced_gpus > 0);
    }

    /// Places one unit of size class `class`; false when no GPU can be found or freed.
    fn place_unit(&mut self, class: usize) -> bool {
        let Some(c) = self.colocated.as_ref() else {
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
        let n = &mut self.nodes[node];
        n.service_gpus += gpus;
        n.idle_generation += 1; // cancels a pending release
        if let Some(c) = self.colocated.as_mut() {
            c.units[class].push(node as u32);
        }
        true
    }

    /// `node` is lost (its hardware failed): the services' time on it is counted up to now,
    /// and its units wait for GPUs elsewhere, first in line (placed again at the next
    /// placement pass, on a replacement node, a new on-demand node or by preemption).
    pub(super) fn lose_units_on(&mut self, node: usize) {
        if self.nodes[node].service_gpus == 0 {
            return;
        }
        self.settle_service_time(node);
        let Some(c) = self.colocated.as_mut() else {
            return;
        };
        settle_unplaced(c, self.now);
        for class in 0..c.units.len() {
            let gpus = c.demand.sizes[class];
            let before = c.units[class].len();
            c.units[class].retain(|&n| n as usize != node);
            let lost = (before - c.units[class].len()) as u32;
            c.unplaced[class] += lost;
            c.unplaced_gpus += u64::from(lost * gpus);
        }
        self.nodes[node].service_gpus = 0;
        self.units_unplaced = c.unplaced_gpus > 0;
    }

    /// Takes a unit of `gpus` off `node`.
    fn take_unit_off(&mut self, node: usize, gpus: u32) {
        self.settle_service_time(node);
        self.nodes[node].service_gpus -= gpus;
        let free = self.nodes[node].free + gpus;
        self.set_free(node, free);
        self.maybe_schedule_release(node);
    }

    /// The fullest reserved or on-demand node with `gpus` free: ready ones first, then those
    /// being provisioned; ties to the lowest id.
    fn node_with_room(&self, gpus: u32) -> Option<usize> {
        let c = self.colocated.as_ref()?;
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
        let gpn = self.pool.gpus_per_node;
        let c = self.colocated.as_ref()?;
        let node = [true, false].into_iter().find_map(|ready| {
            c.steady_nodes
                .iter()
                .copied()
                .filter(|&i| {
                    let n = &self.nodes[i];
                    n.ready == ready && gpn - n.service_gpus >= gpus
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
                if let Some(c) = self.colocated.as_mut() {
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
        let n = &mut self.nodes[node];
        let since = std::mem::replace(&mut n.service_since_s, self.now);
        if !n.ready || n.released || n.service_gpus == 0 {
            return;
        }
        let gpu_s = f64::from(n.service_gpus) * (self.now - since) as f64;
        let price = n.usd_per_gpu_s;
        if let Some(c) = self.colocated.as_mut() {
            c.held_gpu_s += gpu_s;
            c.held_usd += gpu_s * price;
        }
    }

    /// At the horizon: the services' time on every node and the GPUs that found none.
    pub(super) fn settle_services_at_horizon(&mut self) {
        let Some(c) = self.colocated.as_mut() else {
            return;
        };
        settle_unplaced(c, self.now);
        let nodes = c.steady_nodes.clone();
        for node in nodes {
            self.settle_service_time(node);
        }
    }
}

/// Counts the GPU-seconds asked for that found no GPU, up to `now`.
fn settle_unplaced(c: &mut Colocated, now: i64) {
    let since = std::mem::replace(&mut c.unplaced_since_s, now);
    c.unplaced_gpu_s += c.unplaced_gpus as f64 * (now - since) as f64;
}
