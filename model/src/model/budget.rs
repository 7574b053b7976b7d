//! Bounded work: every run finishes, or stops within a fixed budget of simulation events and
//! says so. Validation bounds what a scenario may ask for (jobs, nodes, replications, horizon:
//! [`crate::model::scenario::limits`]); the event budgets bound what those asks can cost, which
//! validation alone cannot (a job on spot nodes may be interrupted and restarted many times).
//!
//! Two budgets: one platform in one replication may handle at most
//! [`limits::EVENTS_PER_REPLICATION_MAX`] events (the engine stops it there and marks the
//! outcome `cut_off`), and a run at most [`limits::EVENTS_PER_RUN_MAX`] over its replications.
//! Either way the run keeps a prefix of its replications, in replication order, so where it
//! stops does not depend on how the replications were spread over workers.

use super::scenario::{limits, Scenario};
use super::sim::PlatformOutcome;
use crate::format::group_thousands as grouped;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The event budgets of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventBudget {
    /// Most events one platform may handle in one replication.
    pub per_replication: u64,
    /// Most events in the whole run.
    pub per_run: u64,
}

impl Default for EventBudget {
    fn default() -> Self {
        EventBudget {
            per_replication: limits::EVENTS_PER_REPLICATION_MAX,
            per_run: limits::EVENTS_PER_RUN_MAX,
        }
    }
}

/// Why a run stopped before its last replication. The results then summarise the
/// `summarised` replications before the stop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum CutOff {
    /// The run's events reached the per-run budget.
    RunBudget {
        /// Replications summarised.
        summarised: u32,
        /// Replications the scenario asked for.
        asked: u32,
        /// Events handled by the summarised replications.
        events: u64,
        /// The per-run budget.
        budget: u64,
    },
    /// One replication needed more events than the per-replication budget on one platform;
    /// it and every later replication are left out.
    ReplicationBudget {
        /// The replication stopped (0-based).
        replication: u32,
        /// The platform that ran out.
        platform: String,
        /// The per-replication budget.
        budget: u64,
        /// Replications summarised (those before it).
        summarised: u32,
        /// Replications the scenario asked for.
        asked: u32,
    },
}

impl CutOff {
    /// Replications the results summarise.
    pub fn summarised(&self) -> u32 {
        match self {
            CutOff::RunBudget { summarised, .. } | CutOff::ReplicationBudget { summarised, .. } => {
                *summarised
            }
        }
    }
}

impl fmt::Display for CutOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CutOff::RunBudget {
                summarised,
                asked,
                budget,
                ..
            } => write!(
                f,
                "Stopped after {summarised} of {asked} replications: the run reached its budget \
                 of {} simulated events. The results summarise those {summarised} replications; \
                 ask for fewer replications, fewer jobs or a shorter horizon to run them all.",
                grouped(*budget)
            ),
            CutOff::ReplicationBudget {
                replication,
                platform,
                budget,
                summarised,
                asked,
            } => {
                write!(
                    f,
                    "Replication {} on “{platform}” needed more than {} simulated events (the \
                     limit for one replication) and was stopped; ",
                    replication + 1,
                    grouped(*budget)
                )?;
                if *summarised == 0 {
                    write!(f, "no replication could be summarised. ")?;
                } else {
                    write!(
                        f,
                        "the results summarise the {summarised} of {asked} replications before \
                         it. "
                    )?;
                }
                write!(
                    f,
                    "Shorten the horizon, or lower the job rate or the spot interruption rate."
                )
            }
        }
    }
}

/// Counts a run's events in replication order and says where the run must stop.
#[derive(Debug, Clone)]
pub struct BudgetMeter {
    budget: EventBudget,
    asked: u32,
    next: u32,
    events: u64,
}

impl BudgetMeter {
    /// A meter for a run of `asked` replications.
    pub fn new(budget: EventBudget, asked: u32) -> Self {
        BudgetMeter {
            budget,
            asked,
            next: 0,
            events: 0,
        }
    }

    /// The replication the meter expects next.
    pub fn next(&self) -> u32 {
        self.next
    }

    /// Adds the outcomes of replication [`Self::next`]; returns why the run stops here, if it
    /// must (then keep the first [`CutOff::summarised`] replications).
    pub fn add(&mut self, scenario: &Scenario, outcomes: &[PlatformOutcome]) -> Option<CutOff> {
        let replication = self.next;
        self.next += 1;
        if let Some(p) = outcomes.iter().position(|o| o.cut_off) {
            return Some(CutOff::ReplicationBudget {
                replication,
                platform: scenario
                    .platforms
                    .get(p)
                    .map_or_else(String::new, |p| p.name.clone()),
                budget: self.budget.per_replication,
                summarised: replication,
                asked: self.asked,
            });
        }
        self.events = self
            .events
            .saturating_add(outcomes.iter().map(|o| o.events).sum());
        (self.events >= self.budget.per_run && self.next < self.asked).then_some(
            CutOff::RunBudget {
                summarised: self.next,
                asked: self.asked,
                events: self.events,
                budget: self.budget.per_run,
            },
        )
    }
}
