//! Node hardware failures: each node of a pool that fails (`node_failures_per_node_hour`)
//! has a failure clock from when it is ready; when it runs out, the node's jobs stop with no
//! notice (each losing its compute since its last checkpoint, as hardware-failure rework)
//! and the node is released. A reserved node is replaced at once through provisioning (the
//! reservation holds the capacity); other nodes are replaced as the queue asks for them.
//!
//! The n-th node's clock is an Exp(1) draw from a stream of its own ([`Purpose::NodeFailures`],
//! keyed by the node's id), so it fails after the same draw on every platform, and where
//! nodes never fail nothing is drawn.

use super::super::outcome::PlatformOutcome;
use super::super::state::{Close, NodeKind};
use super::super::timeline::NodeLoss;
use super::build::Sim;
use super::mechanism::{
    Clock, Counts, Mechanism, NewNode, NodeDraws, PoolStart, Registered, Setup,
};
use crate::model::rng::Purpose;

/// The failure clocks of a platform whose nodes fail, and the failures counted.
#[derive(Clone)]
pub(super) struct NodeFailures {
    /// The current pool's rate, per node-hour (0: its nodes never fail).
    rate_per_node_hour: f64,
    /// Per node: its clock's Exp(1) draw, where its pool's nodes fail.
    draws: NodeDraws,
    /// Nodes whose hardware failed.
    failures: u64,
}

impl Mechanism for NodeFailures {
    /// On where some pool's nodes fail.
    fn of(setup: &Setup) -> Option<NodeFailures> {
        let pools = &setup.platform.node_pools;
        pools
            .iter()
            .any(|pool| pool.node_failures_per_node_hour > 0.0)
            .then(|| NodeFailures {
                rate_per_node_hour: 0.0,
                draws: NodeDraws::new(Purpose::NodeFailures),
                failures: 0,
            })
    }

    fn enter_pool(&mut self, pool: &PoolStart) {
        self.rate_per_node_hour = pool.pool.node_failures_per_node_hour;
    }

    fn node_added(&mut self, node: NewNode) {
        self.draws.draw(node, self.rate_per_node_hour > 0.0);
    }

    fn node_ready(&mut self, node: usize, _kind: NodeKind, _now: i64) -> Option<Clock> {
        Some(Clock {
            draw: self.draws.of(node),
            rate: self.rate_per_node_hour,
            event: Self::event(node),
        })
    }

    fn handle(sim: &mut Sim<'_>, node: usize) {
        sim.fail_node(node);
    }

    /// Its node was released (a released node never comes back).
    fn is_stale(sim: &Sim<'_>, node: usize) -> bool {
        sim.nodes[node].released
    }

    fn report(&self, outcome: &mut PlatformOutcome) {
        outcome.node_failures = self.failures;
    }

    fn counts(&self) -> Counts {
        [self.failures as f64, 0.0, 0.0, 0.0]
    }

    fn forget(&mut self, before: &Counts) {
        self.failures = self.failures.saturating_sub(before[0] as u64);
    }
}

impl Sim<'_> {
    /// `node`'s hardware fails: its jobs stop with no notice and queue again, the services'
    /// replicas on it move elsewhere, and it is released (a reserved node replaced).
    fn fail_node(&mut self, node: usize) {
        if self.nodes[node].released {
            return;
        }
        if let Some(f) = self.mech.failures.as_mut() {
            f.failures += 1;
        }
        let _ = self.stop_every_job_on(node, NodeLoss::HardwareFailure, |_, _| Close::NodeFailed);
        self.lose_units_on(node);
        let kind = self.nodes[node].kind;
        self.release_node(node);
        if kind == NodeKind::Reserved {
            self.add_node(NodeKind::Reserved, false);
        }
    }
}
