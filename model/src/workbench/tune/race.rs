//! A race among candidate values of one setting: successive halving on common random numbers.
//!
//! Every candidate runs the same replications (the same jobs, node draws and traffic: common
//! random numbers), so the differences between them are the setting's effect, not noise
//! between runs. The race starts every candidate on [`FIRST_REPS`] replications, keeps the
//! better half, doubles the replications of those still in it, and so on until one is left or
//! the replications reach the race's most. Races run replications of their own, numbered from
//! the scenario's last on, so the confirmation over the scenario's replications is run on
//! draws no race has seen. "Better" is feasible first (the constraints hold
//! on the replications run so far, paired with the as-typed platform on the same ones), then
//! the lower mean of the objective; among infeasible candidates, the smaller violation.

use super::constraints::{Limits, Sample};
use crate::model::monte_carlo::run_replication;
use crate::model::scenario::Scenario;
use crate::model::sim::PlatformOutcome;

/// Replications every candidate runs in a race's first round.
pub const FIRST_REPS: u32 = 4;

/// One candidate of a race: a one-platform scenario and its samples so far, replication by
/// replication from 0.
#[derive(Debug, Clone)]
pub(super) struct Entrant<V> {
    /// The value raced (the setting's).
    pub value: V,
    /// The one-platform scenario with the value set.
    pub scenario: Scenario,
    /// Its samples, replication 0 first.
    pub samples: Vec<Sample>,
}

/// A race in progress.
#[derive(Debug, Clone)]
pub(super) struct Race<V> {
    entrants: Vec<Entrant<V>>,
    /// Indices of the entrants still in the race.
    alive: Vec<usize>,
    /// Replications each entrant still in the race runs this round.
    reps: u32,
    /// The most replications of the race.
    reps_max: u32,
    /// The replication an entrant's first sample is of.
    first_rep: u32,
    /// A round has left one entrant (or none).
    over: bool,
}

/// What a one-platform scenario's replication gives a race: its platform's outcome.
pub(super) fn outcome_of(scenario: &Scenario, replication: u32) -> PlatformOutcome {
    let mut outcomes = run_replication(scenario, u64::from(replication));
    // A one-platform scenario has one outcome.
    outcomes.swap_remove(0)
}

impl<V: Clone> Race<V> {
    /// A race among `entrants` (at least one) of at most `reps_max` replications each, on
    /// replications `first_rep`, `first_rep + 1`, ….
    pub fn new(entrants: Vec<Entrant<V>>, reps_max: u32, first_rep: u32) -> Race<V> {
        let reps_max = reps_max.max(1);
        Race {
            alive: (0..entrants.len()).collect(),
            reps: FIRST_REPS.min(reps_max),
            reps_max,
            first_rep,
            over: entrants.len() <= 1,
            entrants,
        }
    }

    /// Runs one replication of one entrant, or ends a round; returns whether the race is over.
    pub fn step(&mut self, limits: &Limits) -> bool {
        if self.is_over() {
            return true;
        }
        let reps = self.reps as usize;
        if let Some(&i) = self
            .alive
            .iter()
            .find(|&&i| self.entrants[i].samples.len() < reps)
        {
            let e = &mut self.entrants[i];
            let r = self.first_rep + e.samples.len() as u32;
            let outcome = outcome_of(&e.scenario, r);
            e.samples.push(limits.sample(&outcome));
            return false;
        }
        // The round is complete: the better half goes on, with twice the replications.
        self.alive.sort_by(|&a, &b| {
            let (a, b) = (&self.entrants[a].samples, &self.entrants[b].samples);
            limits.score(a).cmp(&limits.score(b))
        });
        if self.reps >= self.reps_max {
            self.alive.truncate(1);
        } else {
            self.alive.truncate(self.alive.len().div_ceil(2));
            self.reps = (self.reps * 2).min(self.reps_max);
        }
        self.over = self.alive.len() <= 1;
        self.over
    }

    /// Whether a round has left one entrant.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The winner, once the race is over.
    pub fn winner(&self) -> Option<&Entrant<V>> {
        self.is_over()
            .then(|| self.alive.first().map(|&i| &self.entrants[i]))
            .flatten()
    }

    /// Every entrant, with the samples it ran.
    pub fn entrants(&self) -> &[Entrant<V>] {
        &self.entrants
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::output::Output;
    use crate::model::scenario::Scenario;
    use crate::workbench::tune::constraints::Limits;

    /// The race keeps the cheaper of two entrants that differ only in price.
    #[test]
    fn the_cheaper_entrant_wins() {
        let mut s = Scenario::default();
        s.platforms.truncate(1);
        s.horizon_days = 3.0;
        s.warmup_days = 0.0;
        let mut dearer = s.clone();
        dearer.platforms[0].node_pools[0].on_demand_usd_per_node_hour *= 2.0;
        let limits = Limits::unconstrained(Output::MonthlyTcoUsd);
        let entrants = vec![
            Entrant {
                value: "twice the price",
                scenario: dearer,
                samples: vec![],
            },
            Entrant {
                value: "as typed",
                scenario: s,
                samples: vec![],
            },
        ];
        let mut race = Race::new(entrants, 8, 100);
        let mut steps = 0;
        while !race.step(&limits) {
            steps += 1;
        }
        assert_eq!(race.winner().unwrap().value, "as typed");
        // 4 replications each (of the race's own, from 100 on); the round's end leaves one.
        assert_eq!(steps, 4 + 4);
        assert_eq!(race.entrants()[1].samples.len(), 4);
    }
}
