//! Replications back in order: outcomes arrive in any order (from several workers, or several
//! threads of the CLI) and are counted against the run's event budget in replication order, as
//! a single run would count them, so where a budget stops the run does not depend on how the
//! replications were spread.

use super::budget::{BudgetMeter, CutOff, EventBudget};
use super::monte_carlo::Results;
use super::scenario::Scenario;
use super::sim::PlatformOutcome;
use std::collections::BTreeMap;

/// The outcomes received for one run, by replication, and where its event budget stopped it.
#[derive(Debug, Clone)]
pub struct ReplicationCollector {
    received: BTreeMap<u32, Vec<PlatformOutcome>>,
    meter: BudgetMeter,
    cut_off: Option<CutOff>,
    asked: u32,
}

impl ReplicationCollector {
    /// A collector for a run of `asked` replications within `budget`.
    pub fn new(budget: EventBudget, asked: u32) -> Self {
        ReplicationCollector {
            received: BTreeMap::new(),
            meter: BudgetMeter::new(budget, asked),
            cut_off: None,
            asked,
        }
    }

    /// Adds replication `r`'s outcomes, then meters every replication now in order behind the
    /// ones metered before. Returns whether this made the run stop: the replications from the
    /// cut on are dropped (received now or later), and nothing more is taken.
    pub fn add(&mut self, scenario: &Scenario, r: u32, outcomes: Vec<PlatformOutcome>) -> bool {
        if self.cut_off.is_some() || r >= self.asked {
            return false;
        }
        self.received.insert(r, outcomes);
        while let Some(rep) = self.received.get(&self.meter.next()) {
            if let Some(cut) = self.meter.add(scenario, rep) {
                let keep = cut.summarised();
                self.received.retain(|r, _| *r < keep);
                self.cut_off = Some(cut);
                return true;
            }
        }
        false
    }

    /// Replications received and kept (not necessarily a prefix while the run is going).
    pub fn received(&self) -> u32 {
        self.received.len() as u32
    }

    /// Replications the results will summarise: those asked for, or fewer after a cut-off.
    pub fn expected(&self) -> u32 {
        self.cut_off.as_ref().map_or(self.asked, CutOff::summarised)
    }

    /// Every replication the results will summarise has been received.
    pub fn is_complete(&self) -> bool {
        self.received() >= self.expected()
    }

    /// Why an event budget stopped the run, if one did.
    pub fn cut_off(&self) -> Option<&CutOff> {
        self.cut_off.as_ref()
    }

    /// The outcomes kept, in replication order.
    pub fn outcomes(&self) -> impl Iterator<Item = &Vec<PlatformOutcome>> {
        self.received.values()
    }

    /// The summary of the replications received so far, with the cut-off if there was one.
    pub fn results(&self, scenario: &Scenario) -> Results {
        let ordered: Vec<&Vec<PlatformOutcome>> = self.outcomes().collect();
        let mut results = Results::from_outcomes(scenario, &ordered);
        results.cut_off = self.cut_off.clone();
        results
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures;
    use crate::model::monte_carlo::{run_replication, MonteCarlo};

    fn outcomes(s: &Scenario, r: u32) -> Vec<PlatformOutcome> {
        run_replication(s, u64::from(r))
    }

    fn scenario(replications: u32) -> Scenario {
        Scenario {
            replications,
            ..fixtures::three_platforms()
        }
    }

    #[test]
    fn replications_added_backwards_summarise_as_one_run_in_order() {
        let s = scenario(6);
        let mut c = ReplicationCollector::new(EventBudget::default(), 6);
        for r in (0..6).rev() {
            assert!(!c.add(&s, r, outcomes(&s, r)));
        }
        assert!(c.is_complete());
        let mut single = MonteCarlo::new(s.clone()).unwrap();
        single.run_to_end();
        assert_eq!(c.results(&s), single.results());
    }

    #[test]
    fn the_run_budget_cuts_at_the_same_replication_whatever_the_arrival_order() {
        let s = scenario(8);
        // A run budget one event above the first three replications: the fourth crosses it.
        let events: Vec<u64> = (0..8)
            .map(|r| outcomes(&s, r).iter().map(|o| o.events).sum())
            .collect();
        let budget = EventBudget {
            per_run: events[..3].iter().sum::<u64>() + 1,
            ..EventBudget::default()
        };
        let mut c = ReplicationCollector::new(budget, 8);
        // 7, 5 and 3 first: nothing is metered until 0 arrives.
        for r in [7, 5, 3] {
            assert!(!c.add(&s, r, outcomes(&s, r)));
        }
        assert!(!c.add(&s, 0, outcomes(&s, 0)));
        assert!(!c.add(&s, 1, outcomes(&s, 1)));
        // 2 makes 0..=3 contiguous: the fourth (3) crosses the budget.
        assert!(c.add(&s, 2, outcomes(&s, 2)));
        assert_eq!(c.expected(), 4);
        assert_eq!(c.received(), 4, "5 and 7 are dropped");
        assert!(
            !c.add(&s, 4, outcomes(&s, 4)),
            "nothing is taken after the cut"
        );
        assert_eq!(c.received(), 4);
        let mut single = MonteCarlo::within(s.clone(), budget).unwrap();
        single.run_to_end();
        assert_eq!(single.done(), 4);
        assert_eq!(c.results(&s), single.results());
    }
}
