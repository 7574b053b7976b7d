//! Spot reclaims in waves ([`crate::model::scenario::node_pool::SpotReclaims`]): pool-wide
//! events that take each running spot node with a given chance, then leave the pool's spot
//! capacity short for a while.
//!
//! A wave's time comes from the pool's own stream (the same on every platform, in every
//! pass); which nodes it takes from a stream of its own per wave, one draw per running spot
//! node in the order the nodes were added, so the waves' times never depend on how many
//! nodes there were.

use super::build::Sim;
use super::mechanism::{Clock, Mechanism, PoolStart, Registered, Setup};
use crate::model::rng::{Purpose, Stream};
use crate::model::rounding;
use crate::model::scenario::Overflow;
use crate::model::sim::state::NodeKind;

/// The reclaim-wave clock of the current pool's pass and the drought it left.
#[derive(Clone)]
pub(super) struct ReclaimWaves {
    /// The current pool's waves per hour (0: none in this pass).
    rate_per_hour: f64,
    /// How long a wave leaves spot capacity short, s.
    drought_s: i64,
    /// The share of running spot nodes a wave takes.
    fraction_of_nodes: f64,
    /// Whether a spot node asked for in a drought is bought on demand instead of waiting.
    fall_back_to_on_demand: bool,
    /// The current pool's index (keys its streams).
    pool: usize,
    /// The waves' times, Exp(1) draws in order; `None` where this pass has no waves.
    clock: Option<Stream>,
    /// Until when no spot capacity is to be had, s (0: no drought yet).
    drought_until_s: i64,
    /// The scenario's seed and the replication, for the streams.
    seed: u64,
    replication: u64,
}

impl Mechanism for ReclaimWaves {
    /// On where some pool has reclaim waves.
    fn of(setup: &Setup) -> Option<ReclaimWaves> {
        let pools = &setup.platform.node_pools;
        pools
            .iter()
            .any(|pool| pool.reclaim_waves_per_hour() > 0.0)
            .then_some(ReclaimWaves {
                rate_per_hour: 0.0,
                drought_s: 0,
                fraction_of_nodes: 0.0,
                fall_back_to_on_demand: false,
                pool: 0,
                clock: None,
                drought_until_s: 0,
                seed: setup.scenario.seed,
                replication: setup.replication,
            })
    }

    /// Waves only where the pool buys spot beyond its reservation.
    fn enter_pool(&mut self, pool: &PoolStart) {
        let p = pool.pool;
        let buys_spot = p.purchase.overflow == Overflow::Spot;
        self.rate_per_hour = if buys_spot {
            p.reclaim_waves_per_hour()
        } else {
            0.0
        };
        self.drought_s = rounding::round(p.spot_reclaims.capacity_drought_min * 60.0) as i64;
        self.fraction_of_nodes = p.spot_reclaims.fraction_of_nodes;
        self.fall_back_to_on_demand = p.spot_reclaims.fall_back_to_on_demand;
        self.pool = pool.index;
        self.clock = None;
        self.drought_until_s = 0;
    }

    /// The first wave's clock starts.
    fn pass_started(&mut self) -> Option<Clock> {
        if self.rate_per_hour <= 0.0 {
            return None;
        }
        let mut clock = Stream::new(
            self.seed,
            self.replication,
            Purpose::ReclaimWaves,
            self.pool as u64,
        );
        let draw = clock.exponential(1.0);
        self.clock = Some(clock);
        Some(Clock {
            draw,
            rate: self.rate_per_hour,
            event: Self::event(0),
        })
    }

    /// In a drought, a spot node is bought on demand where the pool falls back, else it
    /// waits for the drought's end.
    fn node_capacity(&self, kind: NodeKind, now: i64, earliest: i64) -> (NodeKind, i64) {
        // (A drought is only ever set by a wave of this pass: `enter_pool` clears it.)
        if kind == NodeKind::Spot && self.drought_until_s > now {
            if self.fall_back_to_on_demand {
                (NodeKind::OnDemand, earliest)
            } else {
                (kind, earliest.max(self.drought_until_s))
            }
        } else {
            (kind, earliest)
        }
    }

    fn handle(sim: &mut Sim<'_>, wave: usize) {
        sim.reclaim_wave(wave);
    }
}

impl Sim<'_> {
    /// Wave `wave` comes: the next is scheduled, the drought starts (before any node is
    /// asked for again), and each running spot node of the pool is interrupted with the
    /// wave's chance, as a spot interruption with its notice.
    fn reclaim_wave(&mut self, wave: usize) {
        let now = self.now;
        let Some(r) = self.mech.reclaims.as_mut() else {
            return;
        };
        let Some(clock) = r.clock.as_mut() else {
            return;
        };
        let draw = clock.exponential(1.0);
        r.drought_until_s = r.drought_until_s.max(now + r.drought_s);
        let (rate, fraction) = (r.rate_per_hour, r.fraction_of_nodes);
        let mut pick = Stream::new(
            r.seed,
            r.replication,
            Purpose::ReclaimedNodes,
            (r.pool as u64) << 32 | wave as u64,
        );
        self.schedule_on_clock(draw, rate, ReclaimWaves::event(wave + 1));
        // Chosen first, then interrupted: a node added while the wave's jobs queue again is
        // not the wave's.
        let taken: Vec<usize> = (self.pass.first_node..self.nodes.len())
            .filter(|&node| {
                let n = &self.nodes[node];
                n.kind == NodeKind::Spot && n.ready && !n.released && pick.uniform() < fraction
            })
            .collect();
        for node in taken {
            self.interrupt(node);
        }
    }
}
