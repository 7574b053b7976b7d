//! The verdict: one or two plain sentences that say which platform costs least, by how much,
//! and how often, e.g. "EKS spot costs least per useful GPU-hour: $1.53, 71 % less than AWS
//! Batch on-demand ($5.27); lower in 100 % of 200 runs."
//!
//! The metric the platforms are ranked by (the cards' median) and the paired share the sentence
//! quotes are the same metric. A platform is named the winner only when it is lower than every
//! other platform in at least [`DECISIVE_SHARE`] of the replications (common random numbers make
//! the comparison paired); the share quoted is the one against its strongest rival, the platform
//! it beats least often.

use crate::format::{lower_first, percent, possessive, trim_number, usd};
use crate::model::monte_carlo::{PairedComparison, PlatformResult, Results};
use crate::model::output::{Output, Ranking, Unit};
use crate::model::sensitivity::TornadoBar;
use crate::workbench::verdict_basis::{OverAllowance, VerdictBasis};

/// The share of paired replications a platform must be lower in to be named the winner.
pub const DECISIVE_SHARE: f64 = 0.9;

/// What the verdict ranks the platforms by: an output of the table that has a
/// [`Ranking`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerdictMetric(Output);

impl Default for VerdictMetric {
    /// USD per useful reference-GPU-hour (median over replications).
    fn default() -> Self {
        VerdictMetric::USD_PER_USEFUL_GPU_HOUR
    }
}

impl VerdictMetric {
    /// USD per useful reference-GPU-hour (median over replications): the default.
    pub const USD_PER_USEFUL_GPU_HOUR: VerdictMetric = VerdictMetric(Output::UsdPerUsefulGpuHour);
    /// Monthly total cost of ownership (median over replications).
    pub const MONTHLY_TCO: VerdictMetric = VerdictMetric(Output::MonthlyTcoUsd);
    /// USD per million requests answered (median over replications): a services' scenario's.
    pub const USD_PER_MILLION_REQUESTS: VerdictMetric =
        VerdictMetric(Output::UsdPerMillionRequests);
    /// USD per million output tokens (median over replications): where every service is an
    /// LLM.
    pub const USD_PER_MILLION_OUTPUT_TOKENS: VerdictMetric =
        VerdictMetric(Output::UsdPerMillionOutputTokens);
    /// USD per completed pipeline run (median over replications): a pipelines' scenario's.
    pub const USD_PER_COMPLETED_RUN: VerdictMetric = VerdictMetric(Output::UsdPerCompletedRun);

    /// The metric that ranks by `output`, if a verdict can.
    pub fn of(output: Output) -> Option<VerdictMetric> {
        output.row().ranking.map(|_| VerdictMetric(output))
    }

    /// Every metric a verdict can rank by, the default first, then in the table's order.
    pub fn all() -> impl Iterator<Item = VerdictMetric> {
        std::iter::once(VerdictMetric::default()).chain(
            Output::ALL
                .into_iter()
                .filter_map(VerdictMetric::of)
                .filter(|m| *m != VerdictMetric::default()),
        )
    }

    /// The output it ranks by.
    pub fn output(self) -> Output {
        self.0
    }

    /// How it ranks (its row's [`Ranking`]).
    pub fn ranking(self) -> Ranking {
        // Made only from outputs with a ranking (`of` and the constants; a test checks
        // those).
        self.0.row().ranking.unwrap_or(Ranking {
            key: "",
            phrase: "",
            paired_key: "",
            paired_doc: "",
            csv_key: "",
            missing: "",
            lower_what: "",
            on_cloud_bill: None,
        })
    }

    /// Its key in a link and in the page's choice.
    pub fn key(self) -> &'static str {
        self.ranking().key
    }

    /// Its label in the page's choice.
    pub fn label(self) -> &'static str {
        self.0.row().label
    }

    /// The report's metric it is (the CSV column of a leader's value: `leader_<report key>`).
    pub fn report_key(self) -> &'static str {
        self.0.key()
    }

    /// The metric with this key.
    pub fn from_key(key: &str) -> Option<VerdictMetric> {
        VerdictMetric::all().find(|m| m.key() == key)
    }

    /// The platform's median of this metric; `None` when no replication measured it.
    pub fn value(self, platform: &PlatformResult) -> Option<f64> {
        platform.get(self.0).map(|s| s.p50)
    }

    /// The share of replications in which `pair.a` is lower than `pair.b` on this metric.
    pub fn lower_share(self, pair: &PairedComparison) -> f64 {
        pair.lower_share(self.0).unwrap_or(0.0)
    }

    /// "per useful GPU-hour", as the sentence says it after "costs least".
    pub fn phrase(self) -> &'static str {
        self.ranking().phrase
    }

    fn money(self, value: f64) -> String {
        self.0.row().unit.text(value)
    }
}

/// The verdict on a run's results.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// What it ranks by.
    pub metric: VerdictMetric,
    /// The platform named the winner: the lowest median, lower than every other platform in at
    /// least [`DECISIVE_SHARE`] of the replications. `None` when no platform is that clearly
    /// lowest (or there is nothing to compare).
    pub winner: Option<String>,
    /// The platform with the lowest median, winner or not.
    pub leader: Option<String>,
    /// The leader's strongest rival: the platform it is lower than least often.
    pub rival: Option<String>,
    /// The share of replications in which the leader is lower than the rival.
    pub share: Option<f64>,
    /// The leader and its rival tie: neither is lower than the other in [`DECISIVE_SHARE`]
    /// of the replications, and both are lower than every other platform in at least that
    /// share.
    pub tie: bool,
    /// The sentence.
    pub sentence: String,
}

impl Verdict {
    /// A verdict that names no platform, ranking by `metric`.
    fn undecided(metric: VerdictMetric, sentence: String) -> Verdict {
        Verdict {
            metric,
            winner: None,
            leader: None,
            rival: None,
            share: None,
            tie: false,
            sentence,
        }
    }
}

/// The verdict on `results`, judged by `basis` (its metric, the reference GPU its unit names,
/// the services' SLO-violation allowance and the people assumption).
pub fn verdict(results: &Results, basis: &VerdictBasis) -> Verdict {
    let metric = basis.metric(results);
    let phrase = basis.name_gpu(metric.output(), metric.phrase());
    let none = |sentence: String| Verdict::undecided(metric, sentence);
    if results.replications == 0 {
        return none("No replication finished, so there is no verdict yet.".to_string());
    }
    // Platforms over the SLO-violation allowance cannot be crowned: ranked without them.
    let all: Vec<&PlatformResult> = results.platforms.iter().collect();
    let over = basis.over_allowance(&all);
    let within: Vec<&PlatformResult> = all
        .iter()
        .copied()
        .filter(|p| !over.iter().any(|o| o.platform.name == p.name))
        .collect();
    if within.is_empty() && !over.is_empty() {
        // No platform can be crowned: say so, name the closest, then rank on cost alone.
        let closest = over
            .iter()
            .min_by(|a, b| a.minutes.total_cmp(&b.minutes))
            .expect("a platform over the allowance");
        let on_cost = rank(results, basis, metric, &all, &phrase, false);
        let allowance = allowance_text(basis);
        let (worst, allowed) = minutes_pair(closest.minutes, basis);
        let who = if all.len() == 1 {
            format!(
                "{} misses a service's p95 latency objective for longer than {allowance}: \
                 {worst} of {} over it, against {allowed}.",
                closest.platform.name, closest.service
            )
        } else {
            format!(
                "each platform misses a service's p95 latency objective for longer than \
                 {allowance}; {} comes closest, with {worst} of {} over it, against {allowed}.",
                closest.platform.name, closest.service
            )
        };
        return Verdict {
            winner: None,
            tie: false,
            sentence: format!(
                "No platform meets the SLO: {who} On cost alone: {}",
                on_cost.sentence
            ),
            ..on_cost
        };
    }
    let mut ranked = rank(results, basis, metric, &within, &phrase, !over.is_empty());
    ranked.sentence += &left_out_text(basis, &over);
    ranked
}

/// The verdict among `platforms` (those that may be crowned) on `metric`: the leader, its
/// rival, a tie or no clear winner.
fn rank(
    results: &Results,
    basis: &VerdictBasis,
    metric: VerdictMetric,
    platforms: &[&PlatformResult],
    phrase: &str,
    some_left_out: bool,
) -> Verdict {
    let none = |sentence: String| Verdict::undecided(metric, sentence);
    let only_one_within = platforms.len() == 1 && platforms.len() < results.platforms.len();
    // Ranked by the median, scenario order on ties; platforms with no value come last.
    let mut ranked: Vec<(&PlatformResult, Option<f64>)> =
        platforms.iter().map(|&p| (p, metric.value(p))).collect();
    ranked.sort_by(|(_, a), (_, b)| match (a, b) {
        (Some(a), Some(b)) => a.total_cmp(b),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let missing = metric.ranking().missing;
    let Some(&(leader, Some(leader_value))) = ranked.first() else {
        return none(format!(
            "No platform{} has a cost {phrase}: each {missing} within the horizon.",
            if some_left_out {
                " within the SLO allowance"
            } else {
                ""
            }
        ));
    };
    let lower_share = |a: &PlatformResult, b: &PlatformResult| {
        results
            .paired
            .iter()
            .find(|pair| pair.a == a.name && pair.b == b.name)
            .map_or(0.0, |pair| metric.lower_share(pair))
    };
    let share_against = |other: &PlatformResult| lower_share(leader, other);
    // The rival: beaten least often; the better-ranked one on ties.
    let rival = ranked[1..]
        .iter()
        .map(|&(p, value)| (p, value, share_against(p)))
        .min_by(|a, b| a.2.total_cmp(&b.2));
    let Some((rival, rival_value, share)) = rival else {
        let alone = if only_one_within {
            ", the only platform within the SLO allowance."
        } else {
            "; add a platform to compare it with."
        };
        return Verdict {
            leader: Some(leader.name.clone()),
            winner: only_one_within.then(|| leader.name.clone()),
            ..none(format!(
                "{} costs {} {phrase}{alone}",
                leader.name,
                metric.money(leader_value)
            ))
        };
    };
    let runs = results.replications;
    // A tie: the rival is not decisively lower than the leader either, both have a value, and
    // there are other platforms both are decisively lower than (the least of those shares is
    // quoted). Between two platforms alone, a share under 90 % stays "no clear winner".
    let rest: Vec<&PlatformResult> = ranked[1..]
        .iter()
        .map(|&(p, _)| p)
        .filter(|p| p.name != rival.name)
        .collect();
    let rival_share = lower_share(rival, leader);
    let tie_against_rest = (share < DECISIVE_SHARE
        && rival_share < DECISIVE_SHARE
        && rival_value.is_some()
        && !rest.is_empty())
    .then(|| {
        rest.iter()
            .flat_map(|c| [lower_share(leader, c), lower_share(rival, c)])
            .fold(1.0_f64, f64::min)
    })
    .filter(|least| *least >= DECISIVE_SHARE);
    let sentence = if let (Some(least), Some(v)) = (tie_against_rest, rival_value) {
        let values = if metric.money(v) == metric.money(leader_value) {
            format!(" at {}", metric.money(v))
        } else {
            format!(" ({} and {})", metric.money(leader_value), metric.money(v))
        };
        let names: Vec<&str> = rest.iter().map(|p| p.name.as_str()).collect();
        format!(
            "{} and {} tie {phrase}{values}: each is lower than the other in under {} of the \
             {runs} runs ({} in {}, {} in {}); both cost less than {} in {} of {runs} runs.",
            leader.name,
            rival.name,
            percent(DECISIVE_SHARE),
            leader.name,
            share_text(share),
            rival.name,
            share_text(rival_share),
            join_and(&names),
            share_text(least)
        )
    } else if share >= DECISIVE_SHARE {
        let against = match rival_value {
            Some(v) if v > 0.0 => format!(
                ", {} less than {} ({})",
                margin(1.0 - leader_value / v),
                rival.name,
                metric.money(v)
            ),
            Some(v) => format!(", against {} on {}", metric.money(v), rival.name),
            None => format!("; {} {missing}", rival.name),
        };
        format!(
            "{} costs least {phrase}: {}{against}; lower in {} of {runs} runs.{}",
            leader.name,
            metric.money(leader_value),
            share_text(share),
            people_decide(basis, metric, leader, platforms).unwrap_or_default()
        )
    } else {
        let rival_text = rival_value.map_or(format!("which {missing}"), |v| metric.money(v));
        format!(
            "No clear winner {phrase}: {} ({}) is lower than {} ({rival_text}) in only {} of \
             {runs} runs, under the {} it takes to call it.",
            leader.name,
            metric.money(leader_value),
            rival.name,
            share_text(share),
            percent(DECISIVE_SHARE)
        )
    };
    Verdict {
        metric,
        winner: (share >= DECISIVE_SHARE).then(|| leader.name.clone()),
        leader: Some(leader.name.clone()),
        rival: Some(rival.name.clone()),
        share: Some(share),
        tie: tie_against_rest.is_some(),
        sentence,
    }
}

/// "the 0.5 % of minutes allowed": the allowance in words.
fn allowance_text(basis: &VerdictBasis) -> String {
    basis.slo.as_ref().map_or(String::new(), |slo| {
        format!("the {} % of minutes allowed", trim_number(slo.pct))
    })
}

/// `minutes` over the objective and the allowance's minutes in words, with a decimal where
/// whole minutes would read the same ("43.4 minutes" against "43.2 minutes").
fn minutes_pair(minutes: f64, basis: &VerdictBasis) -> (String, String) {
    let allowed = basis.slo.as_ref().map_or(0.0, |s| s.minutes);
    let (a, b) = (minutes_text(minutes), minutes_text(allowed));
    if a != b {
        return (a, b);
    }
    let precise = |m: f64| {
        if m >= 120.0 {
            format!("{} hours", trim_number((m / 60.0 * 100.0).round() / 100.0))
        } else {
            format!("{} minutes", trim_number((m * 10.0).round() / 10.0))
        }
    };
    (precise(minutes), precise(allowed))
}

/// " Left out for missing the SLO: SageMaker endpoint, with 63 minutes of Chat over its p95
/// objective (medians), above the allowance of 0.1 % of minutes (43 minutes)." for the
/// platforms over the allowance; "" when none is.
fn left_out_text(basis: &VerdictBasis, over: &[OverAllowance]) -> String {
    if over.is_empty() {
        return String::new();
    }
    let each: Vec<String> = over
        .iter()
        .map(|o| {
            format!(
                "{}, with {} of {} over its p95 objective",
                o.platform.name,
                minutes_pair(o.minutes, basis).0,
                o.service
            )
        })
        .collect();
    // The allowance with as many decimals as the closest platform's minutes need.
    let closest = over.iter().map(|o| o.minutes).fold(f64::INFINITY, f64::min);
    let slo = basis.slo.as_ref();
    format!(
        " Left out for missing the SLO: {} (medians), above the allowance of {} % of minutes \
         ({}).",
        each.join("; "),
        slo.map_or(String::new(), |s| trim_number(s.pct)),
        minutes_pair(closest, basis).1
    )
}

/// "63 minutes", "1 minute", "3.6 hours", "2 hours".
fn minutes_text(minutes: f64) -> String {
    if minutes >= 120.0 {
        format!(
            "{} hours",
            trim_number((minutes / 60.0 * 10.0).round() / 10.0)
        )
    } else if (minutes.round() - 1.0).abs() < f64::EPSILON {
        "1 minute".to_string()
    } else {
        format!("{:.0} minutes", minutes.round())
    }
}

/// " On the cloud bill alone, EKS has the lower median ($3.10 against $4.20 per useful
/// A100-hour): ops people decide it, SageMaker's 0.1 FTE against EKS's 0.5 FTE at $200,000 a
/// year ($1,667 against $8,333 a month)." where the platform with the lowest median of `metric`
/// on the cloud bill alone (ops people left out), among `within`, is not `winner`, and
/// `winner`'s ops people cost less a month than that platform's; `None` otherwise, or where the
/// metric has no such counterpart. Medians only: the bill metrics have no paired share, so the
/// clause ranks, it does not crown.
fn people_decide(
    basis: &VerdictBasis,
    metric: VerdictMetric,
    winner: &PlatformResult,
    within: &[&PlatformResult],
) -> Option<String> {
    let on_bill = metric.ranking().on_cloud_bill?;
    let value = |p: &PlatformResult| p.get(on_bill).map(|s| s.p50);
    let winner_bill = value(winner)?;
    let (cheapest, cheapest_bill) = within
        .iter()
        .filter_map(|&p| value(p).map(|v| (p, v)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let people = |p: &PlatformResult| p.people_usd().p50;
    if cheapest.name == winner.name
        || cheapest_bill >= winner_bill
        || people(winner) >= people(cheapest)
    {
        return None;
    }
    let row = on_bill.row();
    let unit = match row.unit {
        Unit::UsdPerMonth => "a month".to_string(),
        _ => basis.name_gpu(metric.output(), metric.phrase()),
    };
    let (paid, by) = (usd(people(winner)), usd(people(cheapest)));
    let decide = match (basis.ops_fte(&winner.name), basis.ops_fte(&cheapest.name)) {
        (Some(_), Some(_)) => format!(
            "{} {} against {} {} at {} a year ({paid} against {by} a month)",
            possessive(&winner.name),
            basis.fte_text(&winner.name),
            possessive(&cheapest.name),
            basis.fte_text(&cheapest.name),
            usd(basis.fte_cost_usd_per_year)
        ),
        _ => format!(
            "{paid} a month on {} against {by} on {}",
            winner.name, cheapest.name
        ),
    };
    Some(format!(
        " On the cloud bill alone, {} has the {} median ({} against {} {unit}): ops people \
         decide it, {decide}.",
        cheapest.name,
        if within.len() > 2 { "lowest" } else { "lower" },
        row.unit.text(cheapest_bill),
        row.unit.text(winner_bill),
    ))
}

/// "A", "A and B", "A, B and C".
fn join_and(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A share of runs as a whole percentage, rounded down: 199 of 200 runs is "99 %", never
/// "100 %", and 89.5 % stays under the 90 % it takes to name a winner.
fn share_text(share: f64) -> String {
    format!("{:.0} %", (share * 100.0 + 1e-9).floor())
}

/// A margin as a percentage, with a decimal under 10 % so that a small one does not read "0 %".
fn margin(share: f64) -> String {
    if share < 0.1 {
        format!("{:.1} %", share * 100.0)
    } else {
        percent(share)
    }
}

/// "EKS spot's monthly TCO moves most with the spot interruption rate: $41,200 to $44,900 for
/// ±20 %."
/// for `platform`'s widest tornado bar; `None` before the tornado is in or when no input moves
/// it.
pub fn moved_most_by(bars: &[TornadoBar], platform: &str, pct: f64) -> Option<String> {
    let swing = |b: &TornadoBar| (b.high_usd - b.low_usd).abs();
    let widest = bars
        .iter()
        .filter(|b| b.platform == platform)
        .max_by(|a, b| swing(a).total_cmp(&swing(b)))?;
    if swing(widest) <= 0.0 {
        return None;
    }
    let (low, high) = if widest.low_usd <= widest.high_usd {
        (widest.low_usd, widest.high_usd)
    } else {
        (widest.high_usd, widest.low_usd)
    };
    Some(format!(
        "{platform}'s monthly TCO moves most with {}: {} to {} for ±{} %.",
        lower_first(&widest.label),
        usd(low),
        usd(high),
        crate::format::trim_number(pct)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::three_platforms;
    use crate::model::monte_carlo::run_replication;
    use crate::model::sim::outcome::PlatformOutcome;

    /// Results of `three_platforms` built from made-up outcomes: in replication `r`, platform
    /// `p` costs `per_hour[r][p]` per useful GPU-hour (`None`: no useful work) and
    /// `tco[r][p]` a month.
    fn results_of(per_hour: &[[Option<f64>; 3]], tco: &[[f64; 3]]) -> Results {
        let scenario = three_platforms();
        // No people: the made-up costs are all cloud bill.
        let mut template = run_replication(&scenario, 0)[0].clone();
        template.breakdown_usd[crate::model::cost_category::Category::OpsPeople] = 0.0;
        let outcomes: Vec<Vec<PlatformOutcome>> = per_hour
            .iter()
            .zip(tco)
            .map(|(hours, tcos)| {
                (0..3)
                    .map(|p| PlatformOutcome {
                        usd_per_useful_gpu_hour: hours[p],
                        monthly_tco_usd: tcos[p],
                        ..template.clone()
                    })
                    .collect()
            })
            .collect();
        Results::from_outcomes(&scenario, &outcomes)
    }

    /// The basis of a verdict on `three_platforms`, ranking by `metric`.
    fn by(metric: VerdictMetric) -> VerdictBasis {
        VerdictBasis::of(&three_platforms()).ranking_by(metric)
    }

    const BATCH: &str = "AWS Batch on-demand";
    const EKS: &str = "EKS spot";
    const SAGEMAKER: &str = "SageMaker";

    #[test]
    fn the_platform_lower_in_every_run_is_named_with_its_margin_over_the_closest_rival() {
        // EKS is lowest in all 10 runs; SageMaker is closer to it than Batch.
        let per_hour = [[Some(5.0), Some(1.5), Some(2.0)]; 10];
        let results = results_of(&per_hour, &[[1.0, 2.0, 3.0]; 10]);
        let v = verdict(&results, &by(VerdictMetric::USD_PER_USEFUL_GPU_HOUR));
        assert_eq!(v.winner.as_deref(), Some(EKS));
        assert_eq!(v.rival.as_deref(), Some(SAGEMAKER));
        assert_eq!(v.share, Some(1.0));
        // 1 − 1.5 ÷ 2.0 = 25 %.
        assert_eq!(
            v.sentence,
            "EKS spot costs least per useful A100-hour: $1.50, 25 % less than SageMaker ($2.00); \
             lower in 100 % of 10 runs."
        );
    }

    #[test]
    fn ranking_and_share_use_the_same_metric_not_the_tco() {
        // Batch has the lowest TCO in every run but the highest cost per useful GPU-hour.
        let per_hour = [[Some(9.0), Some(1.0), Some(2.0)]; 4];
        let results = results_of(&per_hour, &[[1.0, 5.0, 6.0]; 4]);
        let by_hour = verdict(&results, &by(VerdictMetric::USD_PER_USEFUL_GPU_HOUR));
        assert_eq!(by_hour.winner.as_deref(), Some(EKS));
        let by_tco = verdict(&results, &by(VerdictMetric::MONTHLY_TCO));
        assert_eq!(by_tco.winner.as_deref(), Some(BATCH));
        assert!(by_tco
            .sentence
            .starts_with("AWS Batch on-demand costs least in monthly TCO"));
    }

    #[test]
    fn a_share_under_ninety_percent_crowns_no_one() {
        // EKS has the lower median (1.0 against 1.2) but is lower than SageMaker in only 8
        // of 10 runs (in 2 SageMaker is 0.9 against EKS's 1.0).
        // SageMaker is not decisively lower than Batch either (Batch is 1.1 in two runs), so
        // this is no tie.
        let mut per_hour = [[Some(5.0), Some(1.0), Some(1.2)]; 10];
        per_hour[3][2] = Some(0.9);
        per_hour[7][2] = Some(0.9);
        per_hour[1][0] = Some(1.1);
        per_hour[5][0] = Some(1.1);
        let results = results_of(&per_hour, &[[1.0, 2.0, 3.0]; 10]);
        let v = verdict(&results, &by(VerdictMetric::USD_PER_USEFUL_GPU_HOUR));
        assert_eq!(v.winner, None);
        assert_eq!(v.leader.as_deref(), Some(EKS));
        assert_eq!(v.share, Some(0.8));
        assert_eq!(
            v.sentence,
            "No clear winner per useful A100-hour: EKS spot ($1.00) is lower than SageMaker \
             ($1.20) in only 80 % of 10 runs, under the 90 % it takes to call it."
        );
        // Nine runs in ten is enough.
        per_hour[7][2] = Some(1.2);
        let v = verdict(
            &results_of(&per_hour, &[[1.0, 2.0, 3.0]; 10]),
            &by(VerdictMetric::default()),
        );
        assert_eq!(v.winner.as_deref(), Some(EKS));
        assert_eq!(v.share, Some(0.9));
    }

    #[test]
    fn where_people_decide_the_winner_the_verdict_says_what_the_cloud_bill_alone_says() {
        use crate::model::cost_category::Category;
        // Per useful GPU-hour with people: Batch 5.0, EKS 2.0, SageMaker 1.5 (the winner). An
        // FTE at $1,440 a year: people are $30 a month on Batch (¼ FTE), $60 on EKS (½) and $12
        // on SageMaker (0.1). On the cloud bill alone EKS is 2.0 × (100 − 60) ÷ 100 = 0.80 and
        // SageMaker 1.5 × (100 − 12) ÷ 100 = 1.32.
        let mut scenario = three_platforms();
        scenario.people.fte_cost_usd_per_year = 1_440.0;
        let by = |metric| VerdictBasis::of(&scenario).ranking_by(metric);
        let template = run_replication(&scenario, 0)[0].clone();
        let outcome = |per_hour: f64, people: f64| {
            let mut o = PlatformOutcome {
                usd_per_useful_gpu_hour: Some(per_hour),
                monthly_tco_usd: 100.0,
                breakdown_usd: Default::default(),
                ..template.clone()
            };
            o.breakdown_usd[Category::UsefulCompute] = 100.0 - people;
            o.breakdown_usd[Category::OpsPeople] = people;
            o
        };
        let outcomes = vec![vec![outcome(5.0, 30.0), outcome(2.0, 60.0), outcome(1.5, 12.0)]; 4];
        let results = Results::from_outcomes(&scenario, &outcomes);
        let v = verdict(&results, &by(VerdictMetric::USD_PER_USEFUL_GPU_HOUR));
        assert_eq!(v.winner.as_deref(), Some(SAGEMAKER));
        assert_eq!(
            v.sentence,
            "SageMaker costs least per useful A100-hour: $1.50, 25 % less than EKS spot ($2.00); \
             lower in 100 % of 4 runs. On the cloud bill alone, EKS spot has the lowest median \
             ($0.80 against $1.32 per useful A100-hour): ops people decide it, SageMaker's 0.1 \
             FTE against EKS spot's 0.5 FTE at $1,440 a year ($12 against $60 a month)."
        );
        // People not counted: the same results ranked on the cloud bill alone crown EKS.
        let mut without_people = scenario.clone();
        without_people.verdict.count_people = false;
        let v = verdict(&results, &VerdictBasis::of(&without_people));
        assert_eq!(v.winner.as_deref(), Some(EKS));
        assert_eq!(
            v.sentence,
            "EKS spot costs least per useful A100-hour on the cloud bill alone, ops people left \
             out: $0.80, 39 % less than SageMaker ($1.32); lower in 100 % of 4 runs."
        );
        // Without EKS's people, it wins outright and nothing more is said.
        let outcomes = vec![vec![outcome(5.0, 10.0), outcome(1.2, 0.0), outcome(1.5, 0.0)]; 4];
        let v = verdict(
            &Results::from_outcomes(&scenario, &outcomes),
            &by(VerdictMetric::default()),
        );
        assert_eq!(v.winner.as_deref(), Some(EKS));
        assert!(!v.sentence.contains("cloud bill"), "{}", v.sentence);
        // The cloud bill and people sum to the TCO.
        let p = &results.platforms[1];
        assert_eq!(
            p.cloud_bill_usd().p50 + p.people_usd().p50,
            p.monthly_tco_usd().p50
        );
    }

    #[test]
    fn two_platforms_alone_never_tie_and_a_platform_with_no_value_ties_with_none() {
        // Batch and EKS only (SageMaker did no useful work: it loses every pair, so it is
        // "the rest", but the rival must have a value): EKS lower in 7 runs of 10.
        let mut per_hour = [[Some(1.5), Some(1.4), None]; 10];
        for run in per_hour.iter_mut().take(3) {
            run[1] = Some(1.6);
        }
        let v = verdict(
            &results_of(&per_hour, &[[1.0, 2.0, 3.0]; 10]),
            &by(VerdictMetric::default()),
        );
        assert!(v.tie, "{}", v.sentence);
        // Without a third platform to beat, the same split is no tie.
        let scenario = three_platforms();
        let template = run_replication(&scenario, 0)[0].clone();
        let mut two = scenario.clone();
        two.platforms.truncate(2);
        let outcomes: Vec<Vec<PlatformOutcome>> = per_hour
            .iter()
            .map(|run| {
                (0..2)
                    .map(|p| PlatformOutcome {
                        usd_per_useful_gpu_hour: run[p],
                        ..template.clone()
                    })
                    .collect()
            })
            .collect();
        let v = verdict(
            &Results::from_outcomes(&two, &outcomes),
            &by(VerdictMetric::default()),
        );
        assert!(!v.tie);
        assert!(v.sentence.starts_with("No clear winner"), "{}", v.sentence);
        // A platform with no value in any run loses every pair: a winner, not a tie.
        let none = [[Some(5.0), Some(1.5), None]; 10];
        let v = verdict(
            &results_of(&none, &[[1.0, 2.0, 3.0]; 10]),
            &by(VerdictMetric::default()),
        );
        assert!(!v.tie);
        assert_eq!(v.winner.as_deref(), Some(EKS));
    }

    #[test]
    fn two_platforms_that_beat_the_rest_but_not_each_other_tie() {
        // EKS and SageMaker are the same in every run, and both below Batch.
        let per_hour = [[Some(5.0), Some(1.5), Some(1.5)]; 10];
        let results = results_of(&per_hour, &[[1.0, 2.0, 3.0]; 10]);
        let v = verdict(&results, &by(VerdictMetric::USD_PER_USEFUL_GPU_HOUR));
        assert!(v.tie);
        assert_eq!(v.winner, None);
        assert_eq!(v.leader.as_deref(), Some(EKS));
        assert_eq!(v.rival.as_deref(), Some(SAGEMAKER));
        assert_eq!(
            v.sentence,
            "EKS spot and SageMaker tie per useful A100-hour at $1.50: each is lower than the \
             other in under 90 % of the 10 runs (EKS spot in 0 %, SageMaker in 0 %); both cost \
             less than AWS Batch on-demand in 100 % of 10 runs."
        );
        // Close but not equal, EKS lower in 7 runs of 10: still a tie, with both values.
        let mut close = [[Some(5.0), Some(1.4), Some(1.5)]; 10];
        for run in close.iter_mut().take(3) {
            run[1] = Some(1.6);
        }
        let v = verdict(
            &results_of(&close, &[[1.0, 2.0, 3.0]; 10]),
            &by(VerdictMetric::default()),
        );
        assert!(v.tie);
        assert!(
            v.sentence
                .starts_with("EKS spot and SageMaker tie per useful A100-hour ($1.40 and $1.50):"),
            "{}",
            v.sentence
        );
        // Batch close to SageMaker in 2 runs of 10: no longer both decisive against it.
        close[0][0] = Some(1.45);
        close[4][0] = Some(1.45);
        let v = verdict(
            &results_of(&close, &[[1.0, 2.0, 3.0]; 10]),
            &by(VerdictMetric::default()),
        );
        assert!(!v.tie);
        assert!(v.sentence.starts_with("No clear winner"), "{}", v.sentence);
    }

    #[test]
    fn every_metric_ranks_by_an_output_with_a_ranking_and_reads_back_from_its_key() {
        let all: Vec<VerdictMetric> = VerdictMetric::all().collect();
        assert_eq!(all[0], VerdictMetric::default());
        assert!(all.contains(&VerdictMetric::MONTHLY_TCO));
        for m in all {
            assert!(m.output().row().ranking.is_some(), "{m:?}");
            assert!(!m.key().is_empty() && !m.phrase().is_empty(), "{m:?}");
            assert_eq!(VerdictMetric::from_key(m.key()), Some(m));
            assert_eq!(VerdictMetric::of(m.output()), Some(m));
        }
        assert_eq!(VerdictMetric::of(Output::PeakNodes), None);
    }

    #[test]
    fn a_platform_with_no_useful_work_loses_every_pair_and_ranks_last() {
        let per_hour = [[None, Some(3.0), Some(2.0)]; 5];
        let results = results_of(&per_hour, &[[1.0, 2.0, 3.0]; 5]);
        let pair = |a: &str, b: &str| {
            results
                .paired
                .iter()
                .find(|p| p.a == a && p.b == b)
                .unwrap()
                .lower_share(Output::UsdPerUsefulGpuHour)
                .unwrap()
        };
        assert_eq!(pair(EKS, BATCH), 1.0);
        assert_eq!(pair(BATCH, EKS), 0.0);
        assert_eq!(pair(SAGEMAKER, EKS), 1.0);
        let v = verdict(&results, &by(VerdictMetric::USD_PER_USEFUL_GPU_HOUR));
        assert_eq!(v.winner.as_deref(), Some(SAGEMAKER));
        assert_eq!(v.rival.as_deref(), Some(EKS));
        let nothing = results_of(&[[None, None, None]; 5], &[[1.0, 2.0, 3.0]; 5]);
        let v = verdict(&nothing, &by(VerdictMetric::USD_PER_USEFUL_GPU_HOUR));
        assert_eq!(v.winner, None);
        assert_eq!(
            v.sentence,
            "No platform has a cost per useful A100-hour: each did no useful work within the \
             horizon."
        );
    }

    #[test]
    fn the_widest_tornado_bar_of_the_platform_is_the_input_that_moves_it_most() {
        let bar = |label: &str, platform: &str, low: f64, high: f64| TornadoBar {
            knob: label.to_string(),
            label: label.to_string(),
            platform: platform.to_string(),
            low_usd: low,
            base_usd: (low + high) / 2.0,
            high_usd: high,
        };
        let bars = [
            bar("Spot interruption rate", EKS, 900.0, 1_100.0),
            bar("GPU price", EKS, 800.0, 1_300.0),
            bar("Utilization", EKS, 1_150.0, 850.0),
            bar("GPU price", BATCH, 1.0, 99_000.0),
        ];
        assert_eq!(
            moved_most_by(&bars, EKS, 20.0).as_deref(),
            Some("EKS spot's monthly TCO moves most with GPU price: $800 to $1,300 for ±20 %.")
        );
        assert_eq!(moved_most_by(&bars, SAGEMAKER, 20.0), None);
        assert_eq!(
            lower_first("Spot interruption rate"),
            "spot interruption rate"
        );
        assert_eq!(lower_first("FTE cost"), "FTE cost");
    }

    #[test]
    fn a_share_of_runs_is_rounded_down() {
        assert_eq!(share_text(0.995), "99 %");
        assert_eq!(share_text(0.9), "90 %");
        assert_eq!(share_text(1.0), "100 %");
        assert_eq!(share_text(0.58), "58 %");
    }

    #[test]
    fn a_small_margin_is_given_with_a_decimal() {
        assert_eq!(margin(0.004), "0.4 %");
        assert_eq!(margin(0.0951), "9.5 %");
        assert_eq!(margin(0.71), "71 %");
    }
}

#[cfg(test)]
mod serving_tests {
    use super::*;
    use crate::model::monte_carlo::run_replication;
    use crate::model::scenario::Scenario;
    use crate::model::sim::outcome::PlatformOutcome;
    use crate::workbench::presets::preset;

    /// `agent-traffic-spike` (three platforms, one service) over one day: 0.5 % of its 1,440
    /// minutes is an allowance of 7.2 minutes.
    fn one_day() -> Scenario {
        let mut scenario = preset("agent-traffic-spike").unwrap().scenario();
        scenario.horizon_days = 1.0;
        scenario
    }

    /// Results of `scenario` from made-up outcomes, each platform's the same in every one of
    /// 10 runs: `per_hour` per useful GPU-hour, `per_million` per million requests and
    /// `slo_minutes` of its service over the objective.
    fn results_of(
        scenario: &Scenario,
        per_hour: [f64; 3],
        per_million: [f64; 3],
        slo_minutes: [f64; 3],
    ) -> Results {
        let template = run_replication(scenario, 0);
        let outcomes: Vec<Vec<PlatformOutcome>> = (0..10)
            .map(|_| {
                (0..3)
                    .map(|p| {
                        let mut o = template[p].clone();
                        o.usd_per_useful_gpu_hour = Some(per_hour[p]);
                        o.usd_per_million_requests = Some(per_million[p]);
                        o.breakdown_usd = Default::default();
                        o.services[0].slo_violation_minutes = slo_minutes[p];
                        o
                    })
                    .collect()
            })
            .collect();
        Results::from_outcomes(scenario, &outcomes)
    }

    /// The verdict on `one_day`'s made-up results (per useful GPU-hour $2, $3 and $4), with
    /// its platforms' names and its service's.
    fn judged(per_million: [f64; 3], slo_minutes: [f64; 3]) -> (Verdict, Vec<String>, String) {
        let scenario = one_day();
        let results = results_of(&scenario, [2.0, 3.0, 4.0], per_million, slo_minutes);
        let names = results.platforms.iter().map(|p| p.name.clone()).collect();
        let v = verdict(&results, &VerdictBasis::of(&scenario));
        (v, names, scenario.services[0].name.clone())
    }

    #[test]
    fn services_are_ranked_per_million_requests_not_per_gpu_hour() {
        // SageMaker is cheapest per useful GPU-hour ($2 against $3 and $4) but dearest per
        // million requests ($500 against $300 and $400): its replicas serve fewer requests.
        let (v, names, _) = judged([500.0, 300.0, 400.0], [0.0; 3]);
        assert_eq!(v.metric, VerdictMetric::USD_PER_MILLION_REQUESTS);
        assert_eq!(v.winner.as_ref(), Some(&names[1]));
        assert_eq!(
            v.sentence,
            format!(
                "{} costs least per million requests: $300.00, 25 % less than {} ($400.00); \
                 lower in 100 % of 10 runs.",
                names[1], names[2]
            )
        );
    }

    #[test]
    fn a_platform_over_the_slo_allowance_is_not_crowned() {
        // The cheapest per million requests misses its objective for 30 minutes of the day,
        // over the 7.2 allowed: the next cheapest is crowned, and the verdict says why.
        let (v, names, service) = judged([200.0, 300.0, 400.0], [30.0, 7.0, 0.0]);
        assert_eq!(v.winner.as_ref(), Some(&names[1]));
        assert_eq!(
            v.sentence,
            format!(
                "{} costs least per million requests: $300.00, 25 % less than {} ($400.00); \
                 lower in 100 % of 10 runs. Left out for missing the SLO: {}, with 30 minutes \
                 of {} over its p95 objective (medians), above the allowance of 0.5 % of \
                 minutes (7 minutes).",
                names[1], names[2], names[0], service
            )
        );
        // With a 3 % allowance (43.2 minutes), it is crowned.
        let mut lenient = one_day();
        lenient.verdict.slo_allowance_pct = 3.0;
        let results = results_of(
            &lenient,
            [2.0, 3.0, 4.0],
            [200.0, 300.0, 400.0],
            [30.0, 7.0, 0.0],
        );
        let v = verdict(&results, &VerdictBasis::of(&lenient));
        assert_eq!(v.winner.as_ref(), Some(&names[0]));
    }

    #[test]
    fn a_lone_platform_over_the_allowance_is_named_in_one_plain_sentence() {
        let mut scenario = one_day();
        scenario.platforms.truncate(1);
        let mut outcome = run_replication(&scenario, 0).remove(0);
        outcome.services[0].slo_violation_minutes = 30.0;
        let results = Results::from_outcomes(&scenario, &vec![vec![outcome]; 4]);
        let v = verdict(&results, &VerdictBasis::of(&scenario));
        assert_eq!(v.winner, None);
        let expected = format!(
            "No platform meets the SLO: {} misses a service's p95 latency objective for longer \
             than the 0.5 % of minutes allowed: 30 minutes of {} over it, against 7 minutes. On \
             cost alone: ",
            scenario.platforms[0].name, scenario.services[0].name
        );
        assert!(v.sentence.starts_with(&expected), "{}", v.sentence);
    }

    #[test]
    fn when_no_platform_meets_the_slo_the_closest_is_named_and_none_crowned() {
        let (v, names, service) = judged([200.0, 300.0, 400.0], [30.0, 9.0, 20.0]);
        assert_eq!(v.winner, None);
        assert!(
            v.sentence.starts_with(&format!(
                "No platform meets the SLO: each platform misses a service's p95 latency \
                 objective for longer than the 0.5 % of minutes allowed; {} comes closest, \
                 with 9 minutes of {} over it, against 7 minutes. On cost alone: {} costs \
                 least per million requests: $200.00",
                names[1], service, names[0]
            )),
            "{}",
            v.sentence
        );
    }
}
