//! Results as documents: the JSON report `gpucost eval` prints and the page downloads (the
//! same bytes for the same scenario and seed), and the same numbers as CSV, one row per
//! platform and metric, for spreadsheets.

use crate::model::budget::CutOff;
use crate::model::monte_carlo::{PairedComparison, PlatformResult, Results};
use crate::model::output::{Output, Unit};
use crate::model::payback::{self, Payback};
use crate::model::scenario::Scenario;
use crate::model::split::SplitWorkload;
use crate::model::stats::Summary;
use crate::workbench::verdict::verdict;
use crate::workbench::verdict_basis::VerdictBasis;
use crate::workbench::verdict_flips::VerdictFlips;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The evaluation report: what `gpucost eval` prints, the page downloads and `pkg`'s
/// `evaluate` returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct EvalReport {
    /// Engine version that computed the results.
    pub engine_version: String,
    /// Every ordered pair of platforms: how often A is cheaper than B.
    pub paired: Vec<PairedComparison>,
    /// Per platform, in scenario order.
    pub platforms: Vec<PlatformResult>,
    /// Replications summarised.
    pub replications: u32,
    /// Training on one platform and serving on another, every ordered pair (only when the
    /// scenario has job classes and services).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<SplitWorkload>,
    /// Which platform costs least per useful GPU-hour, by how much and how often, in a
    /// sentence (the page's verdict without its note on the tornado).
    pub verdict: String,
    /// What would flip the verdict: the inputs that move the winner's lead over its closest
    /// rival most, each with the value at which the winner changes (`gpucost eval` computes
    /// them after the run; absent without a winner, or where not computed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict_flips: Option<VerdictFlips>,
    /// Why the run stopped before the replications the scenario asks for (an event budget),
    /// if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_off: Option<CutOff>,
    /// Each platform's cumulative cash over 36 months against the current platform's, with
    /// one-off costs and commitments as they are paid (only where the scenario has one-off
    /// costs, an upfront commitment or names its current platform).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payback: Option<Payback>,
    /// The scenario simulated.
    pub scenario: Scenario,
}

/// The report of `results` for `scenario`, with what would flip its verdict where computed.
pub fn report_with(
    scenario: &Scenario,
    results: &Results,
    flips: Option<&VerdictFlips>,
) -> EvalReport {
    EvalReport {
        verdict_flips: flips.cloned(),
        ..report(scenario, results)
    }
}

/// The report of `results` for `scenario` (without what would flip its verdict).
pub fn report(scenario: &Scenario, results: &Results) -> EvalReport {
    EvalReport {
        engine_version: results.engine_version.clone(),
        paired: results.paired.clone(),
        platforms: results.platforms.clone(),
        replications: results.replications,
        split: results.split.clone(),
        verdict: verdict(results, &VerdictBasis::of(scenario)).sentence,
        verdict_flips: None,
        cut_off: results.cut_off.clone(),
        payback: payback::wanted(scenario).then(|| payback_of(scenario, results)),
        scenario: scenario.clone(),
    }
}

/// The payback view of `results`: each platform's mean monthly TCO over 36 months.
pub fn payback_of(scenario: &Scenario, results: &Results) -> Payback {
    let tco: Vec<f64> = results
        .platforms
        .iter()
        .map(|p| p.monthly_tco_usd().mean)
        .collect();
    payback::payback(scenario, &tco)
}

/// [`report_with`] pretty-printed, as `gpucost eval` prints it.
pub fn report_json_text(
    scenario: &Scenario,
    results: &Results,
    flips: Option<&VerdictFlips>,
) -> String {
    serde_json::to_string_pretty(&report_with(scenario, results, flips)).unwrap_or_default()
}

/// The CSV header.
pub const CSV_HEADER: &str = "platform,metric,unit,mean,p5,p50,p95,se,replications,engine_version";

/// The results of `scenario` as CSV: for each platform, one row per output it has (its unit in
/// words, naming the reference GPU where it counts reference-GPU-hours; mean, p5, p50, p95, se; in
/// the table of outputs' order, [`crate::model::output`]), each pipeline's
/// `pipelines.<name>.<metric>`, one per cost category (`breakdown_usd.<category>`, mean monthly
/// USD) and one per paired comparison and output a verdict ranks by (`cheaper_than.<other
/// platform>` on TCO, `lower_usd_per_useful_gpu_hour_than.<other platform>`: shares of
/// replications); an output no replication could measure has empty cells.
pub fn report_csv(scenario: &Scenario, results: &Results) -> String {
    let basis = VerdictBasis::of(scenario);
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    let tail = format!(
        "{},{}",
        results.replications,
        csv_cell(&results.engine_version)
    );
    for p in &results.platforms {
        let name = csv_cell(&p.name);
        let row = |out: &mut String, metric: &str, unit: &str, summary: Option<&Summary>| {
            let cells = summary.map_or(",,,,".to_string(), |s| {
                format!("{},{},{},{},{}", s.mean, s.p5, s.p50, s.p95, s.se)
            });
            let _ = writeln!(out, "{name},{metric},{},{cells},{tail}", csv_cell(unit));
        };
        // The outputs the JSON carries (one measured nowhere has empty cells).
        for output in Output::ALL.into_iter().filter(|&o| p.reports(o)) {
            let unit = basis.name_gpu(output, &output.row().unit.name());
            row(&mut out, output.key(), &unit, p.get(output).as_ref());
        }
        for q in &p.pipelines {
            for (metric, unit, summary) in [
                (
                    "end_to_end_hours.p50",
                    "hours",
                    q.end_to_end_hours.p50.as_ref(),
                ),
                (
                    "end_to_end_hours.p95",
                    "hours",
                    q.end_to_end_hours.p95.as_ref(),
                ),
                (
                    "usd_per_pipeline_run",
                    "USD per completed run",
                    q.usd_per_pipeline_run.as_ref(),
                ),
                ("runs_completed", "count", Some(&q.runs_completed)),
                ("runs_failed", "count", Some(&q.runs_failed)),
            ] {
                row(
                    &mut out,
                    &csv_cell(&format!("pipelines.{}.{metric}", q.name)),
                    unit,
                    summary,
                );
            }
        }
        let month = Unit::UsdPerMonth.name();
        for (category, usd) in p.breakdown_usd.iter() {
            let category = category.key();
            let _ = writeln!(
                out,
                "{name},breakdown_usd.{category},{month},{usd},,,,,{tail}"
            );
        }
        let share_unit = Unit::Share.name();
        for pair in results.paired.iter().filter(|c| c.a == p.name) {
            for output in Output::ALL {
                if let (Some(ranking), Some(share)) =
                    (output.row().ranking, pair.lower_share(output))
                {
                    let _ = writeln!(
                        out,
                        "{name},{},{share_unit},{share},,,,,{tail}",
                        csv_cell(&format!("{}.{}", ranking.csv_key, pair.b)),
                    );
                }
            }
        }
    }
    out
}

/// A CSV cell: quoted when it holds a comma, quote or line break (RFC 4180), and prefixed with
/// an apostrophe when it starts like a spreadsheet formula.
pub(crate) fn csv_cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::csv_cell;

    #[test]
    fn cells_are_quoted_and_defused() {
        assert_eq!(csv_cell("EKS, spot"), "\"EKS, spot\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell("=cmd()"), "'=cmd()");
        assert_eq!(csv_cell("AWS Batch"), "AWS Batch");
    }
}
