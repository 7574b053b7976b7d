//! What would flip the verdict: the inputs that move the paired difference between the winner
//! and its closest rival most, and for each the value at which the winner changes.
//!
//! - **Which inputs.** Each scenario-wide knob of the tornado (the offered load, the FTE
//!   cost, …) and, for the winner and the rival each, the knobs of a platform or its node
//!   pools (its spot interruption rate, its prices, …) and its ops FTE share. Each is scaled
//!   by (1 ± [`FLIP_SWING_PCT`] %); the swing is how far the median paired difference moves
//!   between the two, and the [`FLIP_INPUTS`] widest are searched.
//! - **The flip value.** From the input's value toward the end of its range where the
//!   winner's lead shrinks (its valid range within ÷10 to ×10, widened to the page's slider
//!   range), the end is evaluated first; where the lead holds there, no value in the range
//!   flips it. Else [`FLIP_BISECTIONS`] bisections find where the median paired difference
//!   crosses zero: where the rival becomes the cheaper in most runs. (The verdict stops calling
//!   a winner earlier, once it is lower in under 90 % of the runs; "it holds" is about the
//!   median, as the verdict's ranking is.)
//!
//! Every evaluation runs the same replications of the winner and the rival alone (common
//! random numbers), so a difference is the input's effect, not noise between runs.

use crate::format::{lower_first, possessive, trim_number};
use crate::model::knobs::{Knob, Table, KNOBS};
use crate::model::monte_carlo::{run_replication, Results};
use crate::model::scenario::Scenario;
use crate::model::sim::PlatformOutcome;
use crate::model::stats::quantile_sorted;
use crate::model::step::{more_unless, Step, Stepped};
use crate::workbench::verdict::{verdict, VerdictMetric};
use crate::workbench::verdict_basis::VerdictBasis;
use serde::{Deserialize, Serialize};

/// How far each input is scaled, ±%, to rank the inputs.
pub const FLIP_SWING_PCT: f64 = 20.0;
/// How many of the inputs that move the difference most are searched.
pub const FLIP_INPUTS: usize = 2;
/// Bisections per search: the flip value is within 2⁻⁸ of the searched range.
pub const FLIP_BISECTIONS: u32 = 8;
/// Most replications per evaluation (fewer where the scenario has fewer).
pub const FLIP_REPS_MAX: u32 = 8;
/// The ops FTE share's searched range: 0 to 2 FTE, or to 10 times the share where that is more.
fn ops_fte_range(current: f64) -> (f64, f64) {
    (0.0, (10.0 * current).max(2.0))
}

/// What a replication in which one platform has no value counts as: far beyond any cost, yet
/// finite, so that a median over such replications stays a number.
const NO_VALUE: f64 = 1e300;

/// One input searched, and where it flips the winner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct VerdictFlip {
    /// The input: a tornado knob's id (`spot_interruption_rate`) or `ops_fte`.
    pub input: String,
    /// The platform whose input it is; absent for one every platform shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// It in words ("EKS spot's spot interruption rate").
    pub label: String,
    /// Its unit ("per node-hour").
    pub unit: String,
    /// Its value in the scenario.
    pub current: f64,
    /// The value at which the winner changes (the median paired difference crosses zero);
    /// `null` where no value up to `searched_to` does.
    pub flip: Option<f64>,
    /// The end of the range searched, toward which the winner's lead shrinks.
    pub searched_to: f64,
}

/// What would flip the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct VerdictFlips {
    /// The platform the verdict names.
    pub winner: String,
    /// Its closest rival.
    pub rival: String,
    /// The report key of the metric compared (`usd_per_useful_gpu_hour`).
    pub metric: String,
    /// Replications per evaluation.
    pub replications: u32,
    /// The inputs that move the difference most, widest swing first.
    pub flips: Vec<VerdictFlip>,
    /// The sentence: "It holds unless EKS spot's spot interruption rate passes 0.031 per
    /// node-hour or …".
    pub sentence: String,
}

/// Which input a candidate varies.
#[derive(Debug, Clone, Copy)]
enum Lever {
    /// A knob every platform (or job class, or service) shares, on all of them.
    Shared(&'static Knob),
    /// A knob of a platform or its pools, on platform `0` or `1` (the winner or the rival).
    Own(&'static Knob, usize),
    /// The ops FTE share of platform `0` or `1`.
    OpsFte(usize),
}

/// A candidate input of the two-platform scenario (the winner first, then the rival).
#[derive(Debug, Clone)]
struct Candidate {
    lever: Lever,
    current: f64,
    /// Valid values searched, in the input's unit.
    range: (f64, f64),
}

impl Candidate {
    /// `pair` with the input at `value`.
    fn at(&self, pair: &Scenario, value: f64) -> Scenario {
        let factor = value / self.current;
        let mut s = pair.clone();
        match self.lever {
            Lever::Shared(knob) => {
                if let Some(scale) = knob.scale {
                    scale(&mut s, factor);
                }
            }
            Lever::Own(knob, i) => {
                let mut scaled = pair.clone();
                if let Some(scale) = knob.scale {
                    scale(&mut scaled, factor);
                }
                s.platforms[i] = scaled.platforms[i].clone();
            }
            Lever::OpsFte(i) => s.platforms[i].ops_fte = value,
        }
        s
    }

    fn flip(&self, pair: &Scenario, value: Option<f64>, searched_to: f64) -> VerdictFlip {
        let platform = match self.lever {
            Lever::Shared(_) => None,
            Lever::Own(_, i) | Lever::OpsFte(i) => Some(pair.platforms[i].name.clone()),
        };
        let (input, what, unit) = match self.lever {
            Lever::Shared(k) | Lever::Own(k, _) => (k.id, lower_first(k.label), k.unit),
            Lever::OpsFte(_) => ("ops_fte", "ops FTE share".to_string(), "FTE"),
        };
        VerdictFlip {
            input: input.to_string(),
            label: match &platform {
                Some(name) => format!("{} {what}", possessive(name)),
                None => format!("the {what}"),
            },
            platform,
            unit: unit.to_string(),
            current: self.current,
            flip: value,
            searched_to,
        }
    }
}

/// The candidates of `pair` (the winner and the rival alone).
fn candidates(pair: &Scenario) -> Vec<Candidate> {
    let mut out = Vec::new();
    for knob in KNOBS.iter().filter(|k| k.scale.is_some() && (k.when)(pair)) {
        let own = matches!(
            knob.row.map(|r| r.table),
            Some(Table::Platform | Table::NodePool)
        );
        let levers: Vec<Lever> = if own {
            (0..2).map(|i| Lever::Own(knob, i)).collect()
        } else {
            vec![Lever::Shared(knob)]
        };
        for lever in levers {
            let current = match lever {
                Lever::Own(k, i) => {
                    // The knob's value on this platform alone.
                    let mut one = pair.clone();
                    one.platforms = vec![pair.platforms[i].clone()];
                    (k.get)(&one)
                }
                // The offered load unrounded (its slider shows it rounded).
                _ if knob.id == "utilization" => pair.offered_utilization() * 100.0,
                _ => (knob.get)(pair),
            };
            if let Some(range) = knob_range(knob, current) {
                out.push(Candidate {
                    lever,
                    current,
                    range,
                });
            }
        }
    }
    for i in 0..2 {
        let current = pair.platforms[i].ops_fte;
        if current > 0.0 {
            out.push(Candidate {
                lever: Lever::OpsFte(i),
                current,
                range: ops_fte_range(current),
            });
        }
    }
    out
}

/// The range searched for `knob` at `current`: its valid values within ÷10 to ×10 of
/// `current`, widened to its slider's range where it has one; `None` where it is 0 (scaling
/// cannot move it).
fn knob_range(knob: &Knob, current: f64) -> Option<(f64, f64)> {
    if !(current > 0.0 && current.is_finite()) {
        return None;
    }
    let slider = knob.slider().map(|s| (s.min, s.max));
    let valid = knob
        .row
        .and_then(|row| {
            row.ranges()
                .map(|(valid, _)| (valid.0 * row.scale, valid.1 * row.scale))
        })
        .or(slider)?;
    let (lo, hi) = (valid.0.max(current / 10.0), valid.1.min(current * 10.0));
    Some(match slider {
        Some((min, max)) => (lo.min(min), hi.max(max)),
        None => (lo, hi),
    })
}

/// The rival's `metric` less the winner's in one replication's `outcomes` (the winner first):
/// positive while the winner stays lower. A platform without a value (no useful work) loses.
fn difference_of(metric: VerdictMetric, outcomes: &[PlatformOutcome]) -> f64 {
    let measure = metric.output().row().measure;
    match (measure(&outcomes[0]), measure(&outcomes[1])) {
        (Some(w), Some(v)) => v - w,
        (Some(_), None) => NO_VALUE,
        (None, Some(_)) => -NO_VALUE,
        (None, None) => 0.0,
    }
}

/// Where a search of one input stands.
#[derive(Debug, Clone)]
struct Search {
    /// The candidate searched.
    candidate: usize,
    /// The end of its range toward which the lead shrinks.
    to: f64,
    /// The bracket once the end flips it: a value that holds, one that flips; `None` while
    /// the end is being evaluated.
    bracket: Option<(f64, f64)>,
    /// Bisections left.
    left: u32,
}

/// What the pass is evaluating next.
#[derive(Debug, Clone)]
enum Phase {
    /// Ranking the candidates: candidate `next` at −20 % (its low difference not yet known)
    /// or at +20 %.
    Rank { next: usize, low: Option<f64> },
    /// Searching the widest inputs, one after another.
    Search(Search),
    /// Complete.
    Done,
}

/// What would flip the verdict as a resumable computation, one replication of one point per
/// [`FlipRun::step`], so the page can run it in a worker after the main run (as the tornado)
/// and the CLI to the end: the same numbers either way.
#[derive(Debug, Clone)]
pub struct FlipRun {
    pair: Scenario,
    metric: VerdictMetric,
    reps: u32,
    candidates: Vec<Candidate>,
    /// Each ranked candidate's differences at −20 % and +20 %.
    ranked: Vec<(usize, f64, f64)>,
    /// The widest, searched in turn, and where the search is.
    searched: Vec<(usize, bool)>,
    phase: Phase,
    /// The point being evaluated and its replications' differences so far.
    point: Option<(Scenario, Vec<f64>)>,
    flips: Vec<VerdictFlip>,
}

impl FlipRun {
    /// The pass for the verdict `basis` gives on `results` of `scenario`: `None` where it
    /// names no winner.
    pub fn for_verdict(
        scenario: &Scenario,
        basis: &VerdictBasis,
        results: &Results,
    ) -> Option<FlipRun> {
        let v = verdict(results, basis);
        FlipRun::new(scenario, &v.winner?, &v.rival?, v.metric)
    }

    /// The pass for `winner` against `rival` on `metric`; `None` where either is not a
    /// platform of `scenario`.
    pub fn new(
        scenario: &Scenario,
        winner: &str,
        rival: &str,
        metric: VerdictMetric,
    ) -> Option<FlipRun> {
        let find = |name: &str| scenario.platforms.iter().find(|p| p.name == name).cloned();
        let mut pair = scenario.clone();
        pair.platforms = vec![find(winner)?, find(rival)?];
        let candidates = candidates(&pair);
        Some(FlipRun {
            reps: scenario.replications.clamp(1, FLIP_REPS_MAX),
            metric,
            candidates,
            ranked: Vec::new(),
            searched: Vec::new(),
            phase: Phase::Rank { next: 0, low: None },
            point: None,
            flips: Vec::new(),
            pair,
        })
    }

    /// Whether the pass is complete.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// The answer, once complete.
    pub fn result(&self) -> Option<VerdictFlips> {
        if !self.is_done() {
            return None;
        }
        let winner = self.pair.platforms[0].name.clone();
        Some(VerdictFlips {
            sentence: sentence(&winner, &self.flips),
            rival: self.pair.platforms[1].name.clone(),
            winner,
            metric: self.metric.report_key().to_string(),
            replications: self.reps,
            flips: self.flips.clone(),
        })
    }

    /// The value of the input the next point sets, and its candidate.
    fn next_point(&self) -> Option<(usize, f64)> {
        let spread = FLIP_SWING_PCT / 100.0;
        match &self.phase {
            Phase::Rank { next, low } => {
                let c = &self.candidates[*next];
                let f = if low.is_none() {
                    1.0 - spread
                } else {
                    1.0 + spread
                };
                Some((*next, c.current * f))
            }
            Phase::Search(search) => Some((
                search.candidate,
                match search.bracket {
                    None => search.to,
                    Some((holds, flips)) => (holds + flips) / 2.0,
                },
            )),
            Phase::Done => None,
        }
    }

    /// Runs one replication of the current point; returns whether the pass is complete.
    pub fn step(&mut self) -> bool {
        if let Phase::Rank { next, .. } = self.phase {
            if next >= self.candidates.len() {
                self.start_searches();
            }
        }
        let Some((candidate, value)) = self.next_point() else {
            return true;
        };
        let (scenario, mut diffs) = self
            .point
            .take()
            .unwrap_or_else(|| (self.candidates[candidate].at(&self.pair, value), Vec::new()));
        let r = diffs.len() as u64;
        diffs.push(difference_of(self.metric, &run_replication(&scenario, r)));
        if diffs.len() < self.reps as usize {
            self.point = Some((scenario, diffs));
            return false;
        }
        diffs.sort_by(f64::total_cmp);
        self.answered(value, quantile_sorted(&diffs, 0.5));
        self.is_done()
    }

    /// The median difference `d` at `value` of the current point is in: the pass moves on.
    fn answered(&mut self, value: f64, d: f64) {
        match &mut self.phase {
            Phase::Rank { next, low } => match low.take() {
                None => *low = Some(d),
                Some(l) => {
                    if (d - l).abs() > 0.0 && (d - l).is_finite() {
                        self.ranked.push((*next, l, d));
                    }
                    *next += 1;
                }
            },
            Phase::Search(search) => {
                let c = &self.candidates[search.candidate];
                match search.bracket {
                    None if d > 0.0 => {
                        self.flips.push(c.flip(&self.pair, None, search.to));
                        self.next_search();
                    }
                    None => search.bracket = Some((c.current, search.to)),
                    Some((holds, flips)) => {
                        search.bracket = Some(if d > 0.0 {
                            (value, flips)
                        } else {
                            (holds, value)
                        });
                        search.left -= 1;
                        if search.left == 0 {
                            let (holds, flips) = search.bracket.unwrap_or((holds, flips));
                            self.flips.push(c.flip(
                                &self.pair,
                                Some((holds + flips) / 2.0),
                                search.to,
                            ));
                            self.next_search();
                        }
                    }
                }
            }
            Phase::Done => {}
        }
    }

    /// The ranking is complete: the widest inputs are searched in turn.
    fn start_searches(&mut self) {
        let mut ranked = std::mem::take(&mut self.ranked);
        ranked.sort_by(|a, b| (b.2 - b.1).abs().total_cmp(&(a.2 - a.1).abs()));
        // Each searched toward the end where the lead shrinks (rising where +20 % shrinks it).
        // An input already at the end of its range on that side has nothing to search.
        let candidates = &self.candidates;
        self.searched = ranked
            .into_iter()
            .map(|(c, low, high)| (c, high < low))
            .filter(|&(c, rising)| {
                let (current, (min, max)) = (candidates[c].current, candidates[c].range);
                if rising {
                    max > current
                } else {
                    min < current
                }
            })
            .take(FLIP_INPUTS)
            .collect();
        // Popped from the end: the widest first.
        self.searched.reverse();
        self.next_search();
    }

    /// The next search, or done.
    fn next_search(&mut self) {
        self.phase = match self.searched.pop() {
            Some((candidate, rising)) => {
                let c = &self.candidates[candidate];
                Phase::Search(Search {
                    candidate,
                    to: if rising { c.range.1 } else { c.range.0 },
                    bracket: None,
                    left: FLIP_BISECTIONS,
                })
            }
            None => Phase::Done,
        };
    }

    /// Runs it to the end.
    pub fn run_to_end(mut self) -> VerdictFlips {
        while !self.step() {}
        self.result().expect("complete")
    }
}

impl Step for FlipRun {
    fn step(&mut self) -> Stepped {
        more_unless(FlipRun::step(self))
    }
}

/// What would flip the verdict `basis` gives on `results` of `scenario` (the pass run to its
/// end): `None` where it names no winner.
pub fn verdict_flips(
    scenario: &Scenario,
    basis: &VerdictBasis,
    results: &Results,
) -> Option<VerdictFlips> {
    FlipRun::for_verdict(scenario, basis, results).map(FlipRun::run_to_end)
}

/// Where one input flips the verdict `basis` gives on `results`: `input` (a knob's id or
/// `ops_fte`) of `platform` (the winner's or the rival's; `None` for a shared knob), searched
/// toward the upper end of its range where `rising`. `None` where there is no winner or no
/// such input.
pub fn flip_of(
    scenario: &Scenario,
    basis: &VerdictBasis,
    results: &Results,
    input: &str,
    platform: Option<&str>,
    rising: bool,
) -> Option<VerdictFlip> {
    let mut run = FlipRun::for_verdict(scenario, basis, results)?;
    let winner = run.pair.platforms[0].name.clone();
    let rival = run.pair.platforms[1].name.clone();
    let at = match platform {
        None => None,
        Some(name) if name == winner => Some(0),
        Some(name) if name == rival => Some(1),
        Some(_) => return None,
    };
    let candidate = run.candidates.iter().position(|c| match c.lever {
        Lever::Shared(k) => k.id == input && at.is_none(),
        Lever::Own(k, i) => k.id == input && at == Some(i),
        Lever::OpsFte(i) => input == "ops_fte" && at == Some(i),
    })?;
    // Straight to its search.
    run.searched = vec![(candidate, rising)];
    run.next_search();
    run.run_to_end().flips.pop()
}

/// "It holds unless EKS spot's spot interruption rate passes 0.031 per node-hour or AWS Batch's
/// ops FTE share falls under 0.12 FTE." Inputs no value of which in their range flips it are
/// named after: "…; the FTE cost does not flip it up to 600,000 $/year."
fn sentence(winner: &str, flips: &[VerdictFlip]) -> String {
    let crossing = |f: &VerdictFlip, value: f64| {
        let way = if f.searched_to > f.current {
            "passes"
        } else {
            "falls under"
        };
        format!("{} {way} {}", f.label, with_unit(value, &f.unit))
    };
    let found: Vec<String> = flips
        .iter()
        .filter_map(|f| f.flip.map(|v| crossing(f, v)))
        .collect();
    let held: Vec<String> = flips
        .iter()
        .filter(|f| f.flip.is_none())
        .map(|f| {
            let way = if f.searched_to > f.current {
                "up to"
            } else {
                "down to"
            };
            format!(
                "{} does not flip it {way} {}",
                f.label,
                with_unit(f.searched_to, &f.unit)
            )
        })
        .collect();
    match (found.is_empty(), held.is_empty()) {
        (true, true) => format!("No input moves {winner}'s lead."),
        (false, true) => format!("It holds unless {}.", found.join(" or ")),
        (true, false) => format!("It holds: {}.", held.join("; ")),
        (false, false) => format!(
            "It holds unless {}; {}.",
            found.join(" or "),
            held.join("; ")
        ),
    }
}

/// A value with its unit: "$11.40/node-h", "$15,700/year", "40 %", "0.0312 per node-hour".
fn with_unit(value: f64, unit: &str) -> String {
    match unit.strip_prefix('$') {
        Some(per) => format!("${}{per}", value_text(value)),
        None if unit.is_empty() => value_text(value),
        None => format!("{} {unit}", value_text(value)),
    }
}

/// Three significant figures: 0.0312, 1.25, 212, 41,200.
fn value_text(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return trim_number(value);
    }
    let digits = 2 - value.abs().log10().floor() as i32;
    let rounded = if digits > 0 {
        let f = 10f64.powi(digits);
        (value * f).round() / f
    } else {
        let f = 10f64.powi(-digits);
        (value / f).round() * f
    };
    if rounded.abs() >= 1_000.0 {
        crate::format::group_thousands(rounded.round() as u64)
    } else {
        trim_number(rounded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_to_three_significant_figures() {
        assert_eq!(value_text(0.031_234), "0.0312");
        assert_eq!(value_text(1.254), "1.25");
        assert_eq!(value_text(212.4), "212");
        assert_eq!(value_text(41_234.0), "41,200");
    }

    #[test]
    fn the_sentence_names_each_flip_and_each_input_that_holds() {
        let flip =
            |label: &str, current: f64, flip: Option<f64>, to: f64, unit: &str| VerdictFlip {
                input: String::new(),
                platform: None,
                label: label.to_string(),
                unit: unit.to_string(),
                current,
                flip,
                searched_to: to,
            };
        let rate = flip(
            "EKS spot's spot interruption rate",
            0.01,
            Some(0.0312),
            2.0,
            "per node-hour",
        );
        let fte = flip("AWS Batch's ops FTE share", 0.25, Some(0.12), 0.0, "FTE");
        assert_eq!(
            sentence("EKS spot", &[rate.clone(), fte]),
            "It holds unless EKS spot's spot interruption rate passes 0.0312 per node-hour or AWS \
             Batch's ops FTE share falls under 0.12 FTE."
        );
        let held = flip("the FTE cost", 200_000.0, None, 600_000.0, "$/year");
        assert_eq!(
            sentence("EKS spot", &[rate, held]),
            "It holds unless EKS spot's spot interruption rate passes 0.0312 per node-hour; the \
             FTE cost does not flip it up to $600,000/year."
        );
    }
}
