//! The mechanisms of the engine, each a part with its own state, and the hooks through which
//! the core tells them what happened.
//!
//! The core ([`super::Sim`]) keeps the clock, the event queue, the nodes, the jobs and the
//! ledger, and runs the event handlers as one state machine. A mechanism (data staging, node
//! failures, reclaim waves, consolidation, teams, pipelines, services on the training nodes,
//! the warm pool, shared GPUs) is a struct in a file of its own whose fields are private; it
//! implements [`Mechanism`], is built by [`Mechanism::of`] (`None`: the mechanism is off, and
//! the core pays one branch at each hook) and is registered in [`Mechanisms`] below. The
//! core calls every registered mechanism at each lifecycle hook, in the order registered
//! (so events scheduled by two mechanisms at one second keep one order). What a mechanism
//! does beyond the hooks (an event of its own, a say in placement) is an `impl Sim` block
//! in its file.
//!
//! Invariants: a hook draws only from streams of its own (keyed by the node or the pool,
//! never by the order of events), so adding a mechanism changes no other draw; a mechanism
//! that is off schedules nothing.

use super::super::event_queue::{Event, EventQueue};
use super::super::jobs::Job;
use super::super::outcome::PlatformOutcome;
use super::super::state::{ClassPlan, JobState, NodeKind};
use super::build::Sim;
use crate::model::rng::{Purpose, Stream};
use crate::model::scenario::{limits, NodePool, Platform, Scenario};

/// What a mechanism is built from, once per platform and replication.
pub(super) struct Setup<'s, 'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) platform: &'a Platform,
    pub(super) jobs: &'a [Job],
    pub(super) replication: u64,
    /// Each job class's plan on the pool it runs on.
    pub(super) own_plans: &'s [ClassPlan],
}

/// A pool's pass beginning: the pool, and the jobs as the passes before left them.
pub(super) struct PoolStart<'s, 'a> {
    pub(super) pool: &'a NodePool,
    /// The pool's index on its platform.
    pub(super) index: usize,
    pub(super) jobs: &'a [Job],
    pub(super) states: &'s [JobState],
    /// Per job class, the pool it runs on.
    pub(super) class_pool: &'s [usize],
}

/// A node just asked for: its id (the n-th node of the replication, on every platform) and
/// how it is bought.
#[derive(Debug, Clone, Copy)]
pub(super) struct NewNode {
    pub(super) id: usize,
    pub(super) kind: NodeKind,
    /// The scenario's seed and the replication: a mechanism's draws for this node come from
    /// a stream of its own keyed by them and the id.
    pub(super) seed: u64,
    pub(super) replication: u64,
}

/// One Exp(1) draw per node, from a stream of a mechanism's own keyed by the node's id:
/// the n-th node of every platform draws the same, whatever the order of events.
#[derive(Clone)]
pub(super) struct NodeDraws {
    purpose: Purpose,
    /// By node id; 0 where nothing was drawn.
    draws: Vec<f64>,
}

impl NodeDraws {
    pub(super) fn new(purpose: Purpose) -> NodeDraws {
        NodeDraws {
            purpose,
            draws: Vec::new(),
        }
    }

    /// Draws for `node` where `wanted` (nothing is drawn otherwise).
    pub(super) fn draw(&mut self, node: NewNode, wanted: bool) {
        let draw = if wanted {
            Stream::new(node.seed, node.replication, self.purpose, node.id as u64).exponential(1.0)
        } else {
            0.0
        };
        // Nodes come in id order, each once: a node's draw is at its id.
        debug_assert_eq!(self.draws.len(), node.id);
        self.draws.push(draw);
    }

    /// `node`'s draw.
    pub(super) fn of(&self, node: usize) -> f64 {
        self.draws[node]
    }
}

/// The future events, and how many of them a replication may handle.
#[derive(Clone)]
pub(super) struct Agenda {
    pub(super) queue: EventQueue,
    /// Queue length at which stale events are dropped next ([`super::Sim::compact_queue`]).
    pub(super) compact_at: usize,
    /// Events handled (arrivals and queued events), for the benchmarks.
    pub(super) handled: u64,
    /// Most events this replication may handle ([`limits::EVENTS_PER_REPLICATION_MAX`]).
    pub(super) budget: u64,
    /// The event budget ran out before the horizon.
    pub(super) cut_off: bool,
}

impl Agenda {
    /// An empty agenda up to `horizon_s`, dropping stale events from `compact_at` queued on.
    pub(super) fn new(horizon_s: i64, compact_at: usize) -> Agenda {
        Agenda {
            queue: EventQueue::new(horizon_s),
            compact_at,
            handled: 0,
            budget: limits::EVENTS_PER_REPLICATION_MAX,
            cut_off: false,
        }
    }
}

/// A clock a hook starts: `event` due an exponential time from now, `draw` (an Exp(1) draw)
/// hours ÷ `rate` per hour. The core schedules it as the hook returns
/// ([`Sim::schedule_on_clock`]), so clocks keep the order of the hooks that start them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clock {
    pub(super) draw: f64,
    pub(super) rate: f64,
    pub(super) event: Event,
}

/// A part of the engine with its own state, told of the core's lifecycle through these
/// hooks (each does nothing unless the mechanism says otherwise).
pub(super) trait Mechanism: Sized {
    /// The mechanism for this platform and replication; `None` where it is off.
    fn of(setup: &Setup) -> Option<Self>;

    /// A pool's pass begins, before any of its nodes is asked for.
    fn enter_pool(&mut self, _pool: &PoolStart) {}

    /// The pass's reserved nodes are there and its jobs about to arrive: clocks of the pool
    /// as a whole start now (time 0).
    fn pass_started(&mut self) -> Option<Clock> {
        None
    }

    /// What a node asked for now as `kind` is bought as, and the earliest its capacity
    /// comes (s; `earliest` as the mechanisms before this one left it): a mechanism that
    /// makes capacity short says so here.
    fn node_capacity(&self, kind: NodeKind, _now: i64, earliest: i64) -> (NodeKind, i64) {
        (kind, earliest)
    }

    /// A node is asked for.
    fn node_added(&mut self, _node: NewNode) {}

    /// A node became ready at `now`: a clock of the mechanism's may start.
    fn node_ready(&mut self, _node: usize, _kind: NodeKind, _now: i64) -> Option<Clock> {
        None
    }

    /// A node is released (its warm window ran out, or it was lost).
    fn node_released(&mut self, _node: usize) {}

    /// An attempt of `job` starts now, planned as `plan`.
    fn attempt_started(&mut self, _job: &Job, _plan: &ClassPlan) {}

    /// Handles an event the mechanism scheduled ([`Registered::event`]) when it comes; `id`
    /// as it was scheduled.
    fn handle(_sim: &mut Sim<'_>, _id: usize) {}

    /// Whether such an event could no longer do anything, whenever it comes (it is then
    /// dropped unhandled, and may be dropped before its time: [`Sim::compact_queue`]).
    fn is_stale(_sim: &Sim<'_>, _id: usize) -> bool {
        false
    }

    /// Adds what the mechanism counted to the platform's outcome, once the run is over.
    fn report(&self, _outcome: &mut PlatformOutcome) {}

    /// What it has counted so far of what it reports (and the outcome reads), in an order
    /// of its own: the warm-up takes the part counted before the measured window off
    /// ([`super::window`]). Nothing by default.
    fn counts(&self) -> Counts {
        Counts::default()
    }

    /// Takes `before` (in the order of [`Mechanism::counts`]) off its counts.
    fn forget(&mut self, _before: &Counts) {}
}

/// A mechanism's counts ([`Mechanism::counts`]): whole counts too, as they are exact.
pub(super) type Counts = [f64; 4];

/// A mechanism's place in the registry ([`Mechanisms`]), through which its events come back
/// to it.
pub(super) trait Registered {
    /// Its place in the registry.
    const INDEX: u8;

    /// The mechanism's event for `id` (what it means by the id is its own).
    fn event(id: usize) -> Event {
        Event::Mechanism {
            mechanism: Self::INDEX,
            id,
        }
    }
}

/// Declares [`Mechanisms`]: one field per registered mechanism (`None` where it is off), and
/// each hook called on every one of them, in the order listed.
macro_rules! mechanisms {
    ($($(#[$doc:meta])* $field:ident: $ty:ty,)*) => {
        /// The registered mechanisms, in order.
        #[allow(non_camel_case_types)]
        #[repr(u8)]
        enum Which {
            $($field,)*
        }

        $(impl Registered for $ty {
            const INDEX: u8 = Which::$field as u8;
        })*

        /// Every mechanism of one platform's replication.
        #[derive(Clone)]
        pub(super) struct Mechanisms {
            $($(#[$doc])* pub(super) $field: Option<$ty>,)*
        }

        impl Mechanisms {
            pub(super) fn of(setup: &Setup) -> Mechanisms {
                Mechanisms { $($field: <$ty as Mechanism>::of(setup),)* }
            }

            pub(super) fn enter_pool(&mut self, pool: &PoolStart) {
                $(if let Some(m) = self.$field.as_mut() { m.enter_pool(pool); })*
            }

            #[inline]
            pub(super) fn node_capacity(&self, kind: NodeKind, now: i64) -> (NodeKind, i64) {
                let got = (kind, 0);
                $(let got = match self.$field.as_ref() {
                    Some(m) => m.node_capacity(got.0, now, got.1),
                    None => got,
                };)*
                got
            }

            #[inline]
            pub(super) fn node_added(&mut self, node: NewNode) {
                $(if let Some(m) = self.$field.as_mut() { m.node_added(node); })*
            }

            #[inline]
            pub(super) fn node_released(&mut self, node: usize) {
                $(if let Some(m) = self.$field.as_mut() { m.node_released(node); })*
            }

            #[inline]
            pub(super) fn attempt_started(&mut self, job: &Job, plan: &ClassPlan) {
                $(if let Some(m) = self.$field.as_mut() { m.attempt_started(job, plan); })*
            }

            pub(super) fn report(&self, outcome: &mut PlatformOutcome) {
                $(if let Some(m) = self.$field.as_ref() { m.report(outcome); })*
            }

            /// Every mechanism's counts, in the registry's order (none where it is off).
            pub(super) fn counts(&self) -> Vec<Counts> {
                vec![$(self.$field.as_ref().map_or(Counts::default(), |m| m.counts()),)*]
            }

            /// Takes `before` (as [`Mechanisms::counts`] gives them) off every mechanism's
            /// counts.
            pub(super) fn forget(&mut self, before: &[Counts]) {
                $(if let (Some(m), Some(b)) =
                    (self.$field.as_mut(), before.get(Which::$field as usize))
                {
                    m.forget(b);
                })*
            }
        }

        impl Sim<'_> {
            /// The pass's reserved nodes are there: each mechanism's clock of the pool as a
            /// whole starts, scheduled in turn.
            pub(super) fn mechanisms_pass_started(&mut self) {
                $(let clock = self.mech.$field.as_mut().and_then(|m| m.pass_started());
                if let Some(c) = clock {
                    self.schedule_on_clock(c.draw, c.rate, c.event);
                })*
            }

            /// `node` became ready now: each mechanism's clock of it starts, scheduled in
            /// turn.
            #[inline]
            pub(super) fn mechanisms_node_ready(&mut self, node: usize, kind: NodeKind) {
                let now = self.now;
                $(let clock = self.mech.$field.as_mut().and_then(|m| m.node_ready(node, kind, now));
                if let Some(c) = clock {
                    self.schedule_on_clock(c.draw, c.rate, c.event);
                })*
            }
        }

        /// Hands event `id` of the mechanism at `mechanism` in the registry to it.
        pub(super) fn handle_event(sim: &mut Sim<'_>, mechanism: u8, id: usize) {
            $(if mechanism == Which::$field as u8 {
                return <$ty as Mechanism>::handle(sim, id);
            })*
        }

        /// Whether event `id` of the mechanism at `mechanism` could no longer do anything.
        pub(super) fn event_is_stale(sim: &Sim<'_>, mechanism: u8, id: usize) -> bool {
            $(if mechanism == Which::$field as u8 {
                return <$ty as Mechanism>::is_stale(sim, id);
            })*
            true
        }
    };
}

mechanisms! {
    /// The warm pool: how long an idle node is kept.
    warm_pool: super::warm_pool::WarmPool,
    /// Data staging: reads from the platform's storage before computing.
    staging: super::staging::DataStaging,
    /// Node hardware failures.
    failures: super::node_failures::NodeFailures,
    /// Kubernetes node consolidation.
    consolidation: super::consolidation::Consolidation,
    /// Spot reclaims in waves, and the droughts after them.
    reclaims: super::reclaims::ReclaimWaves,
    /// Teams: quotas, priorities and preemption.
    teams: super::teams::Teams,
    /// Pipelines: stages submitted when their predecessors finish.
    pipelines: super::pipelines::PipelineRuns,
    /// Services' replicas on the training nodes.
    colocation: super::colocation::Colocation,
    /// GPUs shared by jobs asking for a fraction of one.
    shared_gpus: super::fractional::SharedGpus,
}
