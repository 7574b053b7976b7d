//! Kubernetes node consolidation (Karpenter consolidation, cluster-autoscaler scale-down):
//! a platform's `preemption.consolidation_evictions_per_node_hour` takes nodes bought beyond
//! the reservation away, evicting their jobs with the preemption grace period to checkpoint
//! in (their lost compute is preemption rework); they queue again and the node is released.
//!
//! Each such node's clock is an Exp(1) draw from a stream of its own
//! ([`Purpose::Consolidation`], keyed by the node's id), drawn only where consolidation
//! evicts anything.

use super::super::outcome::PlatformOutcome;
use super::super::state::{Close, NodeKind};
use super::super::timeline::NodeLoss;
use super::build::Sim;
use super::mechanism::{Clock, Counts, Mechanism, NewNode, NodeDraws, Registered, Setup};
use crate::model::rng::Purpose;

/// The consolidation clocks of a platform that consolidates nodes, and its evictions.
#[derive(Clone)]
pub(super) struct Consolidation {
    /// Nodes consolidated away per node-hour.
    rate_per_node_hour: f64,
    /// Per node: its clock's Exp(1) draw (none on reserved nodes, never consolidated).
    draws: NodeDraws,
    /// Jobs evicted by consolidation.
    evictions: u64,
}

impl Mechanism for Consolidation {
    /// On where the platform consolidates nodes (EKS and GKE, when set).
    fn of(setup: &Setup) -> Option<Consolidation> {
        let preemption = &setup.platform.preemption;
        preemption.consolidates().then(|| Consolidation {
            rate_per_node_hour: preemption.consolidation_evictions_per_node_hour,
            draws: NodeDraws::new(Purpose::Consolidation),
            evictions: 0,
        })
    }

    fn node_added(&mut self, node: NewNode) {
        self.draws.draw(node, node.kind != NodeKind::Reserved);
    }

    fn node_ready(&mut self, node: usize, kind: NodeKind, _now: i64) -> Option<Clock> {
        (kind != NodeKind::Reserved).then(|| Clock {
            draw: self.draws.of(node),
            rate: self.rate_per_node_hour,
            event: Self::event(node),
        })
    }

    fn handle(sim: &mut Sim<'_>, node: usize) {
        sim.consolidate(node);
    }

    /// Its node was released (a released node never comes back).
    fn is_stale(sim: &Sim<'_>, node: usize) -> bool {
        sim.nodes[node].released
    }

    fn report(&self, outcome: &mut PlatformOutcome) {
        outcome.preemptions += self.evictions;
    }

    fn counts(&self) -> Counts {
        [self.evictions as f64, 0.0, 0.0, 0.0]
    }

    fn forget(&mut self, before: &Counts) {
        self.evictions = self.evictions.saturating_sub(before[0] as u64);
    }
}

impl Sim<'_> {
    /// Kubernetes consolidates `node` away: its jobs are evicted with the grace period to
    /// checkpoint in and queue again, the services' replicas on it move elsewhere, and the
    /// node is released.
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
        for &job in &evicted {
            self.tally.class_preempted[self.jobs[job].class] += 1;
        }
        if let Some(c) = self.mech.consolidation.as_mut() {
            c.evictions += evicted.len() as u64;
        }
        self.lose_units_on(node);
        self.release_node(node);
    }
}
