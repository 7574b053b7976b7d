//! Spot reclaims in waves ([`crate::model::scenario::node_pool::SpotReclaims`]): pool-wide
//! events that take each running spot node with a given chance, then leave the pool's spot
//! capacity short for a while.
//!
//! A wave's time comes from the pool's own stream (the same on every platform, in every
//! pass); which nodes it takes from a stream of its own per wave, one draw per running spot
//! node in the order the nodes were added, so the waves' times never depend on how many
//! nodes there were.

use super::{Event, Sim};
use crate::model::rng::{Purpose, Stream};
use crate::model::rounding;
use crate::model::sim::state::NodeKind;

/// The reclaim-wave clock of the current pool's pass and the drought it left.
pub(crate) struct ReclaimWaves {
    /// The waves' times, Exp(1) draws in order.
    clock: Stream,
    /// Until when no spot capacity is to be had, seconds (0: no drought yet).
    drought_until_s: i64,
}

impl Sim<'_> {
    /// Starts the current pool's reclaim waves, where it buys spot and has them.
    pub(super) fn start_reclaim_waves(&mut self) {
        let rate = self.pool.reclaim_waves_per_hour();
        if rate <= 0.0 || self.overflow_kind() != Some(NodeKind::Spot) {
            return;
        }
        let mut clock = Stream::new(
            self.scenario.seed,
            self.replication,
            Purpose::ReclaimWaves,
            self.pool_index as u64,
        );
        let draw = clock.exponential(1.0);
        self.reclaims = Some(ReclaimWaves {
            clock,
            drought_until_s: 0,
        });
        self.schedule_on_clock(draw, rate, Event::SpotReclaim(0));
    }

    /// Wave `wave` comes: the next is scheduled, the drought starts (before any node is
    /// asked for again), and each running spot node of the pool is interrupted with the
    /// wave's chance, as a spot interruption with its notice.
    pub(super) fn reclaim_wave(&mut self, wave: usize) {
        let rate = self.pool.reclaim_waves_per_hour();
        let drought_s = rounding::round(self.pool.spot_reclaims.capacity_drought_min * 60.0) as i64;
        let Some(reclaims) = self.reclaims.as_mut() else {
            return;
        };
        let draw = reclaims.clock.exponential(1.0);
        reclaims.drought_until_s = reclaims.drought_until_s.max(self.now + drought_s);
        self.schedule_on_clock(draw, rate, Event::SpotReclaim(wave + 1));
        let mut pick = Stream::new(
            self.scenario.seed,
            self.replication,
            Purpose::ReclaimedNodes,
            (self.pool_index as u64) << 32 | wave as u64,
        );
        let fraction = self.pool.spot_reclaims.fraction_of_nodes;
        // Chosen first, then interrupted: a node added while the wave's jobs queue again is
        // not the wave's.
        let taken: Vec<usize> = (self.pass_first_node..self.nodes.len())
            .filter(|&node| {
                let n = &self.nodes[node];
                n.kind == NodeKind::Spot && n.ready && !n.released && pick.uniform() < fraction
            })
            .collect();
        for node in taken {
            self.interrupt(node);
        }
    }

    /// The kind a node asked for as `kind` is bought as now, and the earliest its capacity
    /// comes: in a drought, a spot node is bought on demand where the pool falls back, else
    /// it waits for the drought's end.
    pub(super) fn spot_capacity(&self, kind: NodeKind) -> (NodeKind, i64) {
        match &self.reclaims {
            Some(r) if kind == NodeKind::Spot && r.drought_until_s > self.now => {
                if self.pool.spot_reclaims.fall_back_to_on_demand {
                    (NodeKind::OnDemand, 0)
                } else {
                    (kind, r.drought_until_s)
                }
            }
            _ => (kind, 0),
        }
    }
}
