//! A tune's report as text: each platform's changes and metric, then the two verdicts (the
//! CLI's table; the page shows the same sentences).

use super::constraints::value_with_unit;
use super::{TuneReport, TunedPlatform};
use crate::format::percent;
use crate::model::output::Output;
use serde_json::Value;

/// A setting's value as a person reads it: a number trimmed, a string bare.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "(absent)".to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n
            .as_f64()
            .map_or_else(|| n.to_string(), crate::format::trim_number),
        other => other.to_string(),
    }
}

/// A standard error to two significant figures, in the metric's unit where that is money
/// ("± $0.0021").
fn se_text(report: &TuneReport, se: f64) -> String {
    if se.is_nan() || se <= 0.0 {
        return metric_text(report, 0.0);
    }
    let digits = (1 - se.log10().floor() as i32).max(0) as usize;
    let money = Output::from_key(&report.objective).is_some_and(|o| {
        matches!(
            o.row().unit,
            crate::model::output::Unit::UsdPer(_) | crate::model::output::Unit::UsdPerMonth
        )
    });
    format!("{}{:.digits$}", if money { "$" } else { "" }, se)
}

/// The metric's value in its unit.
fn metric_text(report: &TuneReport, v: f64) -> String {
    Output::from_key(&report.objective)
        .map_or_else(|| crate::format::trim_number(v), |o| o.row().unit.text(v))
}

/// One sentence on a platform's result: "$4.10 ± 0.01 tuned against $5.27 ± 0.01 as typed
/// (−22 %), lower in 100 % of 200 runs."
pub fn platform_sentence(report: &TuneReport, p: &TunedPlatform) -> String {
    if p.changes.is_empty() {
        return format!(
            "Its settings as typed are the best found: {} ± {}.",
            metric_text(report, p.as_typed.mean),
            se_text(report, p.as_typed.se)
        );
    }
    let change = if p.as_typed.mean.abs() > 0.0 {
        format!(
            " ({:+.0} %)",
            (p.tuned.mean / p.as_typed.mean - 1.0) * 100.0
        )
    } else {
        String::new()
    };
    format!(
        "{} ± {} tuned against {} ± {} as typed{change}, lower in {} of {} runs.",
        metric_text(report, p.tuned.mean),
        se_text(report, p.tuned.se),
        metric_text(report, p.as_typed.mean),
        se_text(report, p.as_typed.se),
        percent(p.tuned_beats_as_typed_share),
        report.replications
    )
}

/// The report as the CLI's table.
pub fn report_table(report: &TuneReport) -> String {
    let mut out = format!(
        "Each platform at its best: {} (mean over {} replications), the same work, within the \
         constraints.\n",
        report.objective_label, report.replications
    );
    for p in &report.platforms {
        out.push_str(&format!(
            "\n{}\n  {}\n",
            p.name,
            platform_sentence(report, p)
        ));
        if !p.changes.is_empty() {
            let width = p.changes.keys().map(|k| k.len()).max().unwrap_or(0);
            for (path, to) in &p.changes {
                let from = p.changed_from.get(path).unwrap_or(&Value::Null);
                out.push_str(&format!(
                    "    {path:<width$}  {} → {}\n",
                    value_text(from),
                    value_text(to)
                ));
            }
        }
        let met = if p.constraints_met {
            "all met"
        } else {
            "NOT all met"
        };
        let checks: Vec<String> = p
            .constraints
            .iter()
            .map(|c| {
                format!(
                    "{} {} {} {}",
                    c.label,
                    value_with_unit(&c.key, c.tuned),
                    if c.floor { "≥" } else { "≤" },
                    value_with_unit(&c.key, c.bound)
                )
            })
            .collect();
        out.push_str(&format!("  Constraints {met}: {}.\n", checks.join("; ")));
        for note in &p.notes {
            out.push_str(&format!("  Note: {note}\n"));
        }
        out.push_str(&format!(
            "  Searched {} setting{} in {} replications.\n",
            p.searched.len(),
            if p.searched.len() == 1 { "" } else { "s" },
            p.evaluations
        ));
    }
    out.push_str(&format!(
        "\nAs typed: {}\nEach platform at its best: {}",
        report.verdict_as_typed, report.fair_verdict
    ));
    out
}
