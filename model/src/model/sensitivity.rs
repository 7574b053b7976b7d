//! Which input moves the cost most (a tornado of ±X % on each key input), and break-evens:
//! the spot interruption rate above which spot stops paying, and the utilization above which
//! reserved capacity beats on-demand.
//!
//! Every variant runs the same replications with the same seed (common random numbers), so a
//! bar's length is the input's effect, not noise between runs.

use super::error::ScenarioError;
use super::knobs::{Knob, KNOBS};
use super::monte_carlo::run_replication;
use super::scenario::{Overflow, Scenario, ValidScenario};
use serde::{Deserialize, Serialize};

/// The inputs the tornado varies, each scaled by (1 ± X %): the scenario-wide knobs that
/// have a scale ([`KNOBS`]), in their order.
pub fn knobs() -> impl Iterator<Item = &'static Knob> {
    KNOBS.iter().filter(|k| k.scale.is_some())
}

/// One bar of the tornado: a knob's low and high variant for one platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TornadoBar {
    /// Knob identifier.
    pub knob: String,
    /// Knob label.
    pub label: String,
    /// Platform name.
    pub platform: String,
    /// Mean monthly TCO with the input at (1 − X %), USD.
    pub low_usd: f64,
    /// Mean monthly TCO of the scenario as given, USD.
    pub base_usd: f64,
    /// Mean monthly TCO with the input at (1 + X %), USD.
    pub high_usd: f64,
}

/// Mean monthly TCO per platform over the first `reps` replications.
pub fn mean_tco(scenario: &Scenario, reps: u32) -> Vec<f64> {
    let mut sums = vec![0.0; scenario.platforms.len()];
    for r in 0..reps.max(1) {
        for (sum, o) in sums.iter_mut().zip(run_replication(scenario, u64::from(r))) {
            *sum += o.monthly_tco_usd;
        }
    }
    sums.iter().map(|s| s / f64::from(reps.max(1))).collect()
}

/// The tornado as a resumable computation, one replication of one variant per [`step`], so
/// the UI can run it in slices. Variant 0 is the scenario as given; then each knob low and
/// high. Knobs whose variant is not a valid scenario (e.g. a share pushed above its range) are
/// left out.
///
/// [`step`]: TornadoRun::step
#[derive(Debug, Clone)]
pub struct TornadoRun {
    reps: u32,
    /// (knob index, scenario) for the base (knob `usize::MAX`) and each low/high variant.
    variants: Vec<(usize, ValidScenario)>,
    /// Sum of monthly TCO per variant and platform.
    sums: Vec<Vec<f64>>,
    next: usize,
}

impl TornadoRun {
    /// Prepares the tornado of `scenario` at ±`pct` % with `reps` replications per variant.
    pub fn new(scenario: &Scenario, pct: f64, reps: u32) -> Result<TornadoRun, ScenarioError> {
        let mut variants = vec![(usize::MAX, ValidScenario::new(scenario.clone())?)];
        for (k, knob) in KNOBS.iter().enumerate() {
            let Some(scale) = knob.scale else { continue };
            if !(knob.when)(scenario) {
                continue;
            }
            let make = |factor: f64| {
                let mut s = scenario.clone();
                scale(&mut s, factor);
                ValidScenario::new(s).ok()
            };
            if let (Some(low), Some(high)) = (make(1.0 - pct / 100.0), make(1.0 + pct / 100.0)) {
                variants.push((k, low));
                variants.push((k, high));
            }
        }
        let platforms = scenario.platforms.len();
        Ok(TornadoRun {
            reps: reps.max(1),
            sums: vec![vec![0.0; platforms]; variants.len()],
            variants,
            next: 0,
        })
    }

    /// Steps to do in all.
    pub fn total_steps(&self) -> usize {
        self.variants.len() * self.reps as usize
    }

    /// Steps done.
    pub fn done_steps(&self) -> usize {
        self.next
    }

    /// All steps done.
    pub fn is_done(&self) -> bool {
        self.next >= self.total_steps()
    }

    /// Runs one replication of one variant; returns whether the tornado is complete.
    pub fn step(&mut self) -> bool {
        if self.is_done() {
            return true;
        }
        let variant = self.next / self.reps as usize;
        let rep = (self.next % self.reps as usize) as u64;
        for (sum, o) in self.sums[variant]
            .iter_mut()
            .zip(run_replication(&self.variants[variant].1, rep))
        {
            *sum += o.monthly_tco_usd;
        }
        self.next += 1;
        self.is_done()
    }

    /// The bars, once complete (empty before).
    pub fn bars(&self) -> Vec<TornadoBar> {
        if !self.is_done() {
            return Vec::new();
        }
        let reps = f64::from(self.reps);
        let base = &self.variants[0].1;
        let mut bars = Vec::new();
        for pair in (1..self.variants.len()).step_by(2) {
            let knob = &KNOBS[self.variants[pair].0];
            for (i, p) in base.platforms.iter().enumerate() {
                bars.push(TornadoBar {
                    knob: knob.id.to_string(),
                    label: knob.chart_label.to_string(),
                    platform: p.name.clone(),
                    low_usd: self.sums[pair][i] / reps,
                    base_usd: self.sums[0][i] / reps,
                    high_usd: self.sums[pair + 1][i] / reps,
                });
            }
        }
        bars
    }
}

/// The tornado: every knob at (1 ± `pct` %), `reps` replications each (see [`TornadoRun`]).
pub fn tornado(scenario: &Scenario, pct: f64, reps: u32) -> Result<Vec<TornadoBar>, ScenarioError> {
    let mut run = TornadoRun::new(scenario, pct, reps)?;
    while !run.step() {}
    Ok(run.bars())
}

/// A break-even found for one platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FoundBreakEven {
    /// Platform name.
    pub platform: String,
    /// Which break-even.
    pub kind: BreakEvenKind,
    /// The answer.
    pub result: BreakEven,
}

/// The page's break-evens as one resumable computation: where spot stops paying for the first
/// spot platform, and where reserving beats on-demand for the first on-demand platform, each
/// searched in turn, one replication per [`step`](BreakEvenSet::step).
#[derive(Debug, Clone)]
pub struct BreakEvenSet {
    searches: Vec<(String, BreakEvenSearch)>,
}

impl BreakEvenSet {
    /// The searches that apply to `scenario` (none when no platform has spot or on-demand
    /// overflow), `reps` replications per point.
    pub fn new(scenario: &Scenario, reps: u32) -> BreakEvenSet {
        let first = |overflow: Overflow| {
            scenario.platforms.iter().position(|p| {
                p.pools()
                    .iter()
                    .any(|pool| pool.purchase.overflow == overflow)
            })
        };
        let searches = [
            (BreakEvenKind::SpotRate, first(Overflow::Spot)),
            (
                BreakEvenKind::ReservedUtilization,
                first(Overflow::OnDemand),
            ),
        ]
        .into_iter()
        .filter_map(|(kind, index)| {
            let i = index?;
            let search = BreakEvenSearch::new(scenario, i, kind, reps).ok()?;
            Some((scenario.platforms[i].name.clone(), search))
        })
        .collect();
        BreakEvenSet { searches }
    }

    /// Whether there is nothing to search.
    pub fn is_empty(&self) -> bool {
        self.searches.is_empty()
    }

    /// One replication of the first unfinished search; returns whether all are done.
    pub fn step(&mut self) -> bool {
        if let Some((_, search)) = self.searches.iter_mut().find(|(_, s)| s.result().is_none()) {
            search.step();
        }
        self.searches.iter().all(|(_, s)| s.result().is_some())
    }

    /// The break-evens found so far.
    pub fn found(&self) -> Vec<FoundBreakEven> {
        self.searches
            .iter()
            .filter_map(|(platform, search)| {
                search.result().map(|r| FoundBreakEven {
                    platform: platform.clone(),
                    kind: search.kind,
                    result: r.clone(),
                })
            })
            .collect()
    }
}

/// Where two options cost the same, found by bisection over a searched range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakEven {
    /// The break-even value, if the costs cross inside the searched range.
    pub value: Option<f64>,
    /// Lower end of the searched range.
    pub searched_min: f64,
    /// Upper end of the searched range.
    pub searched_max: f64,
    /// Which option wins below the break-even, or across the whole range when there is none.
    pub below: String,
    /// Which option wins above the break-even.
    pub above: String,
}

/// Which break-even a [`BreakEvenSearch`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BreakEvenKind {
    /// Spot interruption rate where spot stops paying (per node-hour), 10⁻⁴ to 2.
    SpotRate,
    /// Offered utilization where reserving the reference cluster beats on-demand, 2 % to 150 %.
    ReservedUtilization,
}

impl BreakEvenKind {
    /// The range searched: 10⁻⁴ to 2 interruptions per node-hour (a mean of 30 minutes between
    /// interruptions; beyond that the simulation's work grows without bound), or 2 % to 150 %
    /// utilization.
    pub fn searched_range(self) -> (f64, f64) {
        match self {
            BreakEvenKind::SpotRate => (1e-4, 2.0),
            BreakEvenKind::ReservedUtilization => (0.02, 1.5),
        }
    }
}

/// A break-even search as a resumable computation (one replication per [`step`]), so the UI
/// can run it in slices: evaluate both ends, then bisect. Each point compares option A with
/// option B over the same replications (common random numbers).
///
/// [`step`]: BreakEvenSearch::step
#[derive(Debug, Clone)]
pub struct BreakEvenSearch {
    kind: BreakEvenKind,
    base: Scenario,
    reps: u32,
    /// Bracket and the sign of the gap at its low end.
    lo: f64,
    hi: f64,
    sign_lo: Option<f64>,
    /// Points evaluated so far, and how many bisections remain.
    evaluated: u32,
    bisections_left: u32,
    /// The point being evaluated: x, its two scenarios, the sums and the next replication.
    x: f64,
    pair: (Scenario, Scenario),
    sums: (f64, f64),
    rep: u32,
    result: Option<BreakEven>,
}

const BISECTIONS: u32 = 12;

impl BreakEvenSearch {
    /// Prepares the search for platform `index` of `scenario`.
    pub fn new(
        scenario: &Scenario,
        index: usize,
        kind: BreakEvenKind,
        reps: u32,
    ) -> Result<BreakEvenSearch, ScenarioError> {
        scenario.validate()?;
        let mut base = scenario.clone();
        base.platforms = vec![scenario.platforms[index].clone()];
        let (lo, hi) = kind.searched_range();
        let pair = Self::pair(kind, &base, lo);
        Ok(BreakEvenSearch {
            kind,
            base,
            reps: reps.max(1),
            lo,
            hi,
            sign_lo: None,
            evaluated: 0,
            bisections_left: BISECTIONS,
            x: lo,
            pair,
            sums: (0.0, 0.0),
            rep: 0,
            result: None,
        })
    }

    /// Options A and B at `x`; the gap is cost(A) − cost(B).
    fn pair(kind: BreakEvenKind, base: &Scenario, x: f64) -> (Scenario, Scenario) {
        match kind {
            BreakEvenKind::SpotRate => {
                let mut spot = base.clone();
                for pool in &mut spot.platforms[0].node_pools {
                    pool.purchase.overflow = Overflow::Spot;
                    pool.spot_interruptions_per_node_hour = x;
                }
                let mut on_demand = base.clone();
                for pool in &mut on_demand.platforms[0].node_pools {
                    pool.purchase.overflow = Overflow::OnDemand;
                }
                (spot, on_demand)
            }
            BreakEvenKind::ReservedUtilization => {
                let mut at = base
                    .with_offered_utilization(x)
                    .unwrap_or_else(|| base.clone());
                for pool in &mut at.platforms[0].node_pools {
                    pool.purchase.overflow = Overflow::OnDemand;
                    pool.purchase.reserved_share = 0.0;
                }
                let mut reserved = at.clone();
                for pool in &mut reserved.platforms[0].node_pools {
                    pool.purchase.reserved_share = 1.0;
                }
                (reserved, at)
            }
        }
    }

    fn names(&self) -> (&'static str, &'static str) {
        match self.kind {
            BreakEvenKind::SpotRate => ("spot", "on-demand"),
            BreakEvenKind::ReservedUtilization => ("reserved", "on-demand"),
        }
    }

    fn next_x(&self) -> f64 {
        match self.kind {
            BreakEvenKind::SpotRate => libm::sqrt(self.lo * self.hi),
            BreakEvenKind::ReservedUtilization => (self.lo + self.hi) / 2.0,
        }
    }

    /// The answer, once the search is complete.
    pub fn result(&self) -> Option<&BreakEven> {
        self.result.as_ref()
    }

    /// Share (0–1) of the work done (an upper bound on the steps: both ends plus bisections).
    pub fn progress(&self) -> f64 {
        if self.result.is_some() {
            return 1.0;
        }
        let points = f64::from(2 + BISECTIONS);
        (f64::from(self.evaluated) + f64::from(self.rep) / f64::from(2 * self.reps)) / points
    }

    /// Runs one replication of one option at the current point; returns whether the search is
    /// complete.
    pub fn step(&mut self) -> bool {
        if self.result.is_some() {
            return true;
        }
        let r = u64::from(self.rep % self.reps);
        if self.rep < self.reps {
            self.sums.0 += run_replication(&self.pair.0, r)[0].monthly_tco_usd;
        } else {
            self.sums.1 += run_replication(&self.pair.1, r)[0].monthly_tco_usd;
        }
        self.rep += 1;
        if self.rep < 2 * self.reps {
            return false;
        }
        let gap = (self.sums.0 - self.sums.1) / f64::from(self.reps);
        self.evaluated += 1;
        let (a, b) = self.names();
        match self.evaluated {
            1 => {
                self.sign_lo = Some(gap.signum());
                self.x = self.hi;
            }
            2 => {
                let sign_lo = self.sign_lo.unwrap_or(1.0);
                if gap.signum() == sign_lo {
                    let winner = if sign_lo < 0.0 { a } else { b };
                    self.result = Some(BreakEven {
                        value: None,
                        searched_min: self.lo,
                        searched_max: self.hi,
                        below: winner.to_string(),
                        above: winner.to_string(),
                    });
                    return true;
                }
                self.x = self.next_x();
            }
            _ => {
                if gap.signum() == self.sign_lo.unwrap_or(1.0) {
                    self.lo = self.x;
                } else {
                    self.hi = self.x;
                }
                self.bisections_left -= 1;
                if self.bisections_left == 0 {
                    let (searched_min, searched_max) = self.kind.searched_range();
                    let a_wins_low = self.sign_lo.unwrap_or(1.0) < 0.0;
                    self.result = Some(BreakEven {
                        value: Some(self.next_x()),
                        searched_min,
                        searched_max,
                        below: if a_wins_low { a } else { b }.to_string(),
                        above: if a_wins_low { b } else { a }.to_string(),
                    });
                    return true;
                }
                self.x = self.next_x();
            }
        }
        self.pair = Self::pair(self.kind, &self.base, self.x);
        self.sums = (0.0, 0.0);
        self.rep = 0;
        false
    }
}

/// The spot interruption rate (per node-hour) above which platform `index` on spot costs more
/// than the same platform on on-demand, searched over 10⁻⁴ to 2 per node-hour (a mean of 30
/// minutes between interruptions; beyond that the simulation's work grows without bound).
pub fn spot_break_even_rate(
    scenario: &Scenario,
    index: usize,
    reps: u32,
) -> Result<BreakEven, ScenarioError> {
    run_search(BreakEvenSearch::new(
        scenario,
        index,
        BreakEvenKind::SpotRate,
        reps,
    )?)
}

/// The offered utilization above which reserving the whole reference cluster (on-demand
/// overflow) costs less than on-demand only, for platform `index`, searched over 2 % to 150 %.
pub fn reserved_break_even_utilization(
    scenario: &Scenario,
    index: usize,
    reps: u32,
) -> Result<BreakEven, ScenarioError> {
    run_search(BreakEvenSearch::new(
        scenario,
        index,
        BreakEvenKind::ReservedUtilization,
        reps,
    )?)
}

fn run_search(mut search: BreakEvenSearch) -> Result<BreakEven, ScenarioError> {
    while !search.step() {}
    Ok(search.result().cloned().unwrap_or(BreakEven {
        value: None,
        searched_min: 0.0,
        searched_max: 0.0,
        below: String::new(),
        above: String::new(),
    }))
}
