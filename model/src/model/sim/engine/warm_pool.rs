//! The warm pool: a node nothing uses is kept for the pool's warm window before it is
//! released, so that a job arriving meanwhile finds it ready (reserved nodes stay for the
//! horizon). Anything that takes the node cancels its pending release (a new idle
//! generation).

use super::super::event_queue::Event;
use super::super::state::NodeKind;
use super::build::Sim;
use super::mechanism::{Mechanism, PoolStart, Setup};
use crate::model::rounding;

/// The current pool's warm window.
#[derive(Clone)]
pub(super) struct WarmPool {
    /// How long an idle node is kept before it is released, s.
    window_s: i64,
}

impl Mechanism for WarmPool {
    /// Every platform has one (a window of 0 releases an idle node at once).
    fn of(_setup: &Setup) -> Option<WarmPool> {
        Some(WarmPool { window_s: 0 })
    }

    fn enter_pool(&mut self, pool: &PoolStart) {
        self.window_s = rounding::round(pool.pool.warm_pool_window_s) as i64;
    }
}

impl Sim<'_> {
    /// Schedules `node`'s release at the end of the warm window, where it is ready, not
    /// reserved, and nothing holds any of it (a job or a service's replica).
    pub(super) fn maybe_schedule_release(&mut self, node: usize) {
        let services = self.service_gpus_on(node);
        let n = &mut self.nodes[node];
        if n.kind == NodeKind::Reserved
            || n.released
            || !n.ready
            || !n.holders.is_empty()
            || services > 0
        {
            return;
        }
        n.idle_generation += 1;
        let generation = n.idle_generation;
        let window_s = self.mech.warm_pool.as_ref().map_or(0, |w| w.window_s);
        let at = self.now + window_s;
        self.push(at, Event::IdleTimeout { node, generation });
    }

    /// `node`'s warm window ran out with nothing taking it: it is released.
    pub(super) fn idle_timeout(&mut self, node: usize) {
        if self.nodes[node].holders.is_empty() && self.service_gpus_on(node) == 0 {
            self.release_node(node);
        }
    }
}
