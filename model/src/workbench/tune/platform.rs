//! One platform tuned: coordinate search over its settings ([`super::levers`]), a race per
//! grid ([`super::race`]), then a confirmation run at the scenario's replications.
//!
//! The races run replications of their own (numbered after the scenario's), the as-typed
//! platform first, so their constraints are judged paired on them and the confirmation is on
//! draws no race has seen. Each setting in turn is raced over its values with the others held
//! at their best so far;
//! a numeric setting is raced again on a finer grid around each winner until the grid is as
//! fine as the setting needs (a whole node, 5 % of an interval). A winner replaces the setting
//! only where it beats it beyond noise on the replications both ran (its mean paired difference
//! below −2 standard errors, or fewer constraints broken): a change must earn its place. After a pass over every
//! setting that changed something, one more pass follows (a setting's best can move once
//! another has). Then the tuned platform runs the scenario's replications, paired with the
//! as-typed ones; where it is not better on them (or breaks a constraint the as-typed platform
//! keeps), the as-typed settings stand.

use super::constraints::{Limits, Sample, Score};
use super::levers::{finer, grid, levers, Choice, Load, Scale, Setting, Values};
use super::race::{outcome_of, Entrant, Race};
use crate::model::scenario::Scenario;
use crate::model::sim::PlatformOutcome;

/// Passes over the settings at most.
const PASSES_MAX: u32 = 2;
/// Confirmation runs at most: the best settings, then (where they are not better than as
/// typed over the scenario's replications) the best before their last change, and so on.
const CONFIRMATIONS_MAX: u32 = 5;

/// Where the search of one platform is.
#[derive(Debug, Clone)]
enum Phase {
    /// Running the as-typed platform over the races' own replications (the pairs the races'
    /// constraints are judged against).
    RaceBaseline,
    /// Racing setting `lever` of the current pass.
    Search {
        lever: usize,
        race: Box<Race<Choice>>,
        /// The numeric range raced, for the finer grid after it.
        scale: Option<Scale>,
    },
    /// Running the tuned platform over the scenario's replications.
    Confirm,
    /// Running the cheapest candidate that broke a constraint over them (the price of the
    /// constraints).
    Unconstrained(Box<Scenario>),
    /// Done.
    Done,
}

/// One platform's search.
#[derive(Debug, Clone)]
pub struct PlatformTune {
    /// The as-typed platform alone.
    typed: Scenario,
    /// The best settings so far.
    best: Scenario,
    /// The settings each race that changed something left, oldest first (the last is `best`).
    accepted: Vec<Scenario>,
    /// Confirmation runs started.
    confirmations: u32,
    /// The limits over the scenario's replications (the confirmation's).
    limits: Limits,
    /// The same limits over the races' replications, once their as-typed samples are in.
    race_limits: Limits,
    reps: u32,
    reps_max: u32,
    levers: Vec<(Setting, Values)>,
    /// The pins, and the platform's place, for the settings of each pass.
    pins: Vec<String>,
    platform: usize,
    /// The as-typed platform's GPUs up at its peak (mean over replications).
    peak_gpus: f64,
    pass: u32,
    changed_this_pass: bool,
    phase: Phase,
    /// The tuned platform's outcomes, replication by replication.
    confirmed: Vec<PlatformOutcome>,
    /// The cheapest candidate that did the work but broke another constraint, and its score.
    cheapest_breaking: Option<(Scenario, Score)>,
    /// It, once chosen for its confirmation, and its outcomes over the scenario's
    /// replications.
    unconstrained_scenario: Option<Scenario>,
    unconstrained: Vec<PlatformOutcome>,
    /// The as-typed platform's outcomes over the scenario's replications.
    typed_outcomes: Vec<PlatformOutcome>,
    /// Replications simulated.
    evaluations: u64,
    /// Of them, in the races.
    searched: u64,
    /// Replications the races may spend before the search confirms what it has.
    budget: u64,
    /// The race stopped at the budget.
    budget_spent: bool,
}

/// What a finished search gives.
#[derive(Debug, Clone)]
pub struct Tuned {
    /// The platform, tuned (the as-typed one where nothing better was found).
    pub scenario: Scenario,
    /// Its outcomes over the scenario's replications.
    pub outcomes: Vec<PlatformOutcome>,
    /// The cheapest candidate that broke a constraint other than the work, with its outcomes,
    /// where it cost less than the tuned platform.
    pub unconstrained: Option<(Scenario, Vec<PlatformOutcome>)>,
    /// Replications simulated in the search and the confirmation.
    pub evaluations: u64,
    /// Whether the search stopped at its budget.
    pub budget_spent: bool,
}

impl PlatformTune {
    /// The search of `typed` (a one-platform scenario) within `limits`, whose as-typed samples
    /// are over its replications; each race of at most `reps_max` replications, the whole
    /// search within `budget` replications.
    pub fn new(
        typed: Scenario,
        typed_outcomes: Vec<PlatformOutcome>,
        limits: Limits,
        reps_max: u32,
        budget: u64,
        pins: &[String],
        platform: usize,
    ) -> PlatformTune {
        // (None on a hosted API.)
        let gpus = f64::from(
            typed.platforms[0]
                .pools()
                .first()
                .map_or(1, |p| p.gpus_per_node.max(1)),
        );
        let peak_gpus = gpus * limits.as_typed.iter().map(|s| s.peak_nodes).sum::<f64>()
            / limits.as_typed.len().max(1) as f64;
        let reps = typed.replications.max(1);
        let mut tune = PlatformTune {
            best: typed.clone(),
            accepted: Vec::new(),
            confirmations: 0,
            race_limits: limits.for_races(),
            limits,
            reps,
            reps_max: reps_max.clamp(1, reps),
            levers: Vec::new(),
            pins: pins.to_vec(),
            platform,
            peak_gpus,
            pass: 0,
            changed_this_pass: false,
            phase: Phase::RaceBaseline,
            confirmed: Vec::new(),
            cheapest_breaking: None,
            unconstrained_scenario: None,
            unconstrained: Vec::new(),
            typed_outcomes,
            evaluations: 0,
            searched: 0,
            budget,
            budget_spent: false,
            typed,
        };
        tune.levers = tune.levers_of_pass();
        if tune.levers.is_empty() {
            // Nothing to search: the as-typed platform stands as run.
            tune.confirmed = tune.typed_outcomes.clone();
            tune.phase = Phase::Done;
        }
        tune
    }

    /// The settings of a pass, from the best so far (a new instance type changes the nodes
    /// a reservation counts, a move to spot the classes that can lose work), without the
    /// pinned ones.
    fn levers_of_pass(&self) -> Vec<(Setting, Values)> {
        let load = Load {
            peak_nodes: self.peak_gpus
                / f64::from(
                    self.best.platforms[0]
                        .pools()
                        .first()
                        .map_or(1, |p| p.gpus_per_node.max(1)),
                ),
        };
        let names: Vec<String> = self
            .best
            .simulated()
            .job_classes
            .iter()
            .map(|c| c.name.clone())
            .collect();
        levers(&self.best, load)
            .into_iter()
            .filter(|(setting, _)| {
                !self
                    .pins
                    .iter()
                    .any(|p| setting.pinned_by(p, self.platform, &names))
            })
            .collect()
    }

    /// The replication the races start at: the first after the scenario's.
    fn first_race_rep(&self) -> u32 {
        self.reps
    }

    /// The settings searched (after the pins).
    pub fn settings(&self) -> impl Iterator<Item = &Setting> {
        self.levers.iter().map(|(s, _)| s)
    }

    /// Its limits (the as-typed samples among them).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The replications its search may spend.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Whether the search is complete.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// Replications simulated so far.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// Races setting `lever` (or the next one that has values to race), or confirms after the
    /// last.
    fn start_lever(&mut self, mut lever: usize) {
        loop {
            if lever >= self.levers.len() {
                self.pass += 1;
                if self.changed_this_pass && self.pass < PASSES_MAX {
                    self.changed_this_pass = false;
                    self.levers = self.levers_of_pass();
                    lever = 0;
                    continue;
                }
                self.start_confirmation();
                return;
            }
            let (setting, values) = &self.levers[lever];
            let current = setting.current(&self.best);
            let (choices, scale) = match values {
                Values::Choices(c) => (c.clone(), None),
                Values::Range(scale) => {
                    let Choice::Number(now) = current else {
                        lever += 1;
                        continue;
                    };
                    (
                        grid(*scale, now).into_iter().map(Choice::Number).collect(),
                        Some(*scale),
                    )
                }
            };
            if let Some(race) = self.race_of(setting.clone(), &choices, current) {
                self.phase = Phase::Search {
                    lever,
                    race: Box::new(race),
                    scale,
                };
                return;
            }
            lever += 1;
        }
    }

    /// A race of `setting` over `choices`, `current` (the best so far) among them; `None`
    /// where fewer than two make a valid scenario.
    fn race_of(
        &self,
        setting: Setting,
        choices: &[Choice],
        current: Choice,
    ) -> Option<Race<Choice>> {
        let mut entrants = vec![Entrant {
            value: current,
            scenario: self.best.clone(),
            samples: Vec::new(),
        }];
        for &choice in choices {
            if choice == current {
                continue;
            }
            if let Some(scenario) = setting.apply(&self.best, choice) {
                entrants.push(Entrant {
                    value: choice,
                    scenario,
                    samples: Vec::new(),
                });
            }
        }
        (entrants.len() > 1).then(|| Race::new(entrants, self.reps_max, self.first_race_rep()))
    }

    /// Runs one replication of the search; returns whether it is complete.
    pub fn step(&mut self) -> bool {
        if self.searched >= self.budget && matches!(self.phase, Phase::Search { .. }) {
            self.budget_spent = true;
            self.start_confirmation();
        }
        match &mut self.phase {
            Phase::RaceBaseline => {
                if self.race_limits.as_typed.len() < self.reps_max as usize {
                    let r = self.first_race_rep() + self.race_limits.as_typed.len() as u32;
                    let outcome = outcome_of(&self.typed, r);
                    let sample = self.race_limits.sample(&outcome);
                    self.race_limits.as_typed.push(sample);
                    self.evaluations += 1;
                    self.searched += 1;
                } else {
                    self.start_lever(0);
                }
            }
            Phase::Search { race, .. } => {
                let before: usize = race.entrants().iter().map(|e| e.samples.len()).sum();
                let over = race.step(&self.race_limits);
                let after: usize = race.entrants().iter().map(|e| e.samples.len()).sum();
                self.evaluations += (after - before) as u64;
                self.searched += (after - before) as u64;
                if over {
                    self.race_over();
                }
            }
            Phase::Confirm => {
                if self.confirmed.len() < self.reps as usize {
                    let r = self.confirmed.len() as u32;
                    self.confirmed.push(outcome_of(&self.best, r));
                    self.evaluations += 1;
                } else {
                    self.confirmation_done();
                }
            }
            Phase::Unconstrained(scenario) => {
                if self.unconstrained.len() < self.reps as usize {
                    let r = self.unconstrained.len() as u32;
                    let outcome = outcome_of(scenario, r);
                    self.unconstrained.push(outcome);
                    self.evaluations += 1;
                } else if let Phase::Unconstrained(scenario) =
                    std::mem::replace(&mut self.phase, Phase::Done)
                {
                    self.unconstrained_scenario = Some(*scenario);
                }
            }
            Phase::Done => {}
        }
        self.is_done()
    }

    /// The search is over: the best settings run the scenario's replications, unless they
    /// are the as-typed ones, whose outcomes are in.
    fn start_confirmation(&mut self) {
        if self.best == self.typed {
            self.confirmed = self.typed_outcomes.clone();
            self.confirmation_done();
        } else {
            self.confirmed.clear();
            self.phase = Phase::Confirm;
        }
    }

    /// A race is over: its winner becomes the best, and the setting is raced on a finer grid
    /// or the next setting starts.
    fn race_over(&mut self) {
        let Phase::Search { lever, race, scale } =
            std::mem::replace(&mut self.phase, Phase::Confirm)
        else {
            return;
        };
        self.note_breaking(race.entrants());
        let Some(winner) = race.winner() else {
            self.start_lever(lever + 1);
            return;
        };
        let (setting, _) = &self.levers[lever];
        let current = setting.current(&self.best);
        // A winner no clearer than noise leaves the setting as it is (and is not refined):
        // a change must earn its place.
        let incumbent = race.entrants().iter().find(|e| e.value == current);
        if winner.value != current
            && incumbent
                .is_some_and(|i| !clearly_better(&self.race_limits, &winner.samples, &i.samples))
        {
            self.start_lever(lever + 1);
            return;
        }
        if winner.value != current {
            self.best = winner.scenario.clone();
            // A return to settings tried before replaces them where they were.
            self.accepted.retain(|s| *s != winner.scenario);
            self.accepted.push(self.best.clone());
            self.changed_this_pass = true;
        }
        if let (Some(scale), Choice::Number(best)) = (scale, winner.value) {
            let won: Vec<f64> = race
                .entrants()
                .iter()
                .filter_map(|e| match e.value {
                    Choice::Number(v) => Some(v),
                    _ => None,
                })
                .collect();
            let next: Vec<Choice> = finer(scale, &won, best)
                .into_iter()
                .map(Choice::Number)
                .collect();
            if let Some(race) = self.race_of(setting.clone(), &next, winner.value) {
                self.phase = Phase::Search {
                    lever,
                    race: Box::new(race),
                    scale: Some(scale),
                };
                return;
            }
        }
        self.start_lever(lever + 1);
    }

    /// Keeps the cheapest entrant that did the work but broke another constraint.
    fn note_breaking(&mut self, entrants: &[Entrant<Choice>]) {
        for e in entrants.iter().filter(|e| e.samples.len() >= 2) {
            let score = self.race_limits.score(&e.samples);
            let work_only = Limits {
                wait: None,
                slo: None,
                end_to_end: None,
                ..self.race_limits.clone()
            };
            if score.violation > 0.0
                && work_only.score(&e.samples).violation == 0.0
                && self
                    .cheapest_breaking
                    .as_ref()
                    .is_none_or(|(_, s)| score.objective < s.objective)
            {
                self.cheapest_breaking = Some((e.scenario.clone(), score));
            }
        }
    }

    /// The tuned platform has run the scenario's replications: it stands only where it is
    /// better than as typed on them (a lower mean objective without a larger violation, or a
    /// smaller violation), else the as-typed settings stand.
    fn confirmation_done(&mut self) {
        self.confirmations += 1;
        let tuned: Vec<Sample> = self
            .confirmed
            .iter()
            .map(|o| self.limits.sample(o))
            .collect();
        let t = self.limits.score(&tuned);
        let a = self.limits.score(&self.limits.as_typed);
        let better =
            t.violation < a.violation || (t.violation <= a.violation && t.objective < a.objective);
        if !better && self.best != self.typed {
            // The settings before the last change, where there are any left to try.
            self.accepted.pop();
            self.accepted.retain(|s| *s != self.typed);
            match self.accepted.last() {
                Some(earlier) if self.confirmations < CONFIRMATIONS_MAX => {
                    self.best = earlier.clone();
                    self.confirmed.clear();
                    self.phase = Phase::Confirm;
                    return;
                }
                _ => {
                    self.best = self.typed.clone();
                    self.confirmed = self.typed_outcomes.clone();
                }
            }
        }
        let t = if better { t } else { a };
        self.phase = match self.cheapest_breaking.take() {
            Some((scenario, s)) if s.objective < t.objective => {
                Phase::Unconstrained(Box::new(scenario))
            }
            _ => Phase::Done,
        };
    }

    /// The result, once the search is complete.
    pub fn result(&self) -> Option<Tuned> {
        if !self.is_done() {
            return None;
        }
        let unconstrained = match (&self.unconstrained_scenario, self.unconstrained.is_empty()) {
            (Some(s), false) => Some((s.clone(), self.unconstrained.clone())),
            _ => None,
        };
        Some(Tuned {
            scenario: self.best.clone(),
            outcomes: self.confirmed.clone(),
            unconstrained,
            evaluations: self.evaluations,
            budget_spent: self.budget_spent,
        })
    }
}

/// Whether `challenger` beats `incumbent` beyond noise on the replications both ran: it
/// keeps the constraints the incumbent breaks, or both keep them and its objective is lower
/// by more than twice the paired differences' standard error. (Where the objective is not a
/// number in some replication, the race's ranking stands.)
fn clearly_better(limits: &Limits, challenger: &[Sample], incumbent: &[Sample]) -> bool {
    let n = challenger.len().min(incumbent.len());
    let (c, i) = (
        limits.score(&challenger[..n]),
        limits.score(&incumbent[..n]),
    );
    if c.violation != i.violation {
        return c.violation < i.violation;
    }
    let diffs: Vec<f64> = challenger[..n]
        .iter()
        .zip(&incumbent[..n])
        .map(|(a, b)| a.objective - b.objective)
        .collect();
    if diffs.iter().any(|d| !d.is_finite()) {
        return true;
    }
    let mean = crate::model::stats::mean(&diffs);
    mean < -2.0 * crate::model::stats::standard_error(&diffs)
}
