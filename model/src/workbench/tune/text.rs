//! A tune's report as text: each platform's changes and metric, then the two verdicts (the
//! CLI's table; the page shows the same sentences).

use super::constraints::value_with_unit;
use super::{TuneReport, TunedPlatform};
use crate::format::percent;
use crate::model::output::Output;
use crate::model::scenario::fields::{platform_row, PlatformRow, Value as FieldValue};
use crate::model::scenario::Scenario;
use serde_json::Value;

/// A setting's value as a person reads it: a number to at most four significant figures
/// (a price of 21.957642 reads 21.96), a string bare.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "(absent)".to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), short_number),
        other => other.to_string(),
    }
}

/// `x` to at most four significant figures, whole numbers as they are.
fn short_number(x: f64) -> String {
    if x.fract() == 0.0 || !x.is_finite() {
        return crate::format::trim_number(x);
    }
    let digits = (3 - x.abs().log10().floor() as i32).clamp(0, 6);
    let scale = 10f64.powi(digits);
    crate::format::trim_number((x * scale).round() / scale)
}

/// A changed setting's value as the page's control names it: a choice by its label
/// ("Spot"), anything else as [`value_text`].
pub fn change_value(path: &str, v: &Value) -> String {
    let mut parts = path.splitn(3, '.');
    let row = match (parts.next(), parts.next(), parts.next()) {
        (Some("platforms"), Some(_), Some(rest)) => platform_row(rest),
        _ => None,
    };
    let choices = match row {
        Some(PlatformRow::Platform(f)) => match f.value {
            FieldValue::Choice { choices, .. } => Some(choices),
            _ => None,
        },
        Some(PlatformRow::Pool { row, .. }) => match row.value {
            FieldValue::Choice { choices, .. } => Some(choices),
            _ => None,
        },
        None => None,
    };
    match (choices, v) {
        (Some(choices), Value::String(key)) => choices
            .iter()
            .find(|(k, _)| k == key)
            .map_or_else(|| key.clone(), |(_, label)| (*label).to_string()),
        _ => value_text(v),
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

/// A changed setting's name as the page's rows give it, with its unit: "Warm-pool window (s)",
/// "p5.48xlarge pool: Instance type" on a platform of several pools, "Checkpoint interval of
/// Training (min)".
pub fn change_label(scenario: &Scenario, path: &str) -> String {
    let mut parts = path.splitn(3, '.');
    let (Some("platforms"), Some(i), Some(rest)) = (parts.next(), parts.next(), parts.next())
    else {
        return path.to_string();
    };
    let Some(platform) = i
        .parse::<usize>()
        .ok()
        .and_then(|i| scenario.platforms.get(i))
    else {
        return path.to_string();
    };
    if let Some(class) = rest.strip_prefix("checkpoint_interval_min.") {
        return format!("Checkpoint interval of {class} (min)");
    }
    if let Some((service, field)) = rest
        .strip_prefix("service_settings.")
        .and_then(|r| r.rsplit_once('.'))
    {
        return match field {
            "min_replicas" => format!("Fewest replicas of {service}"),
            "target_utilization" => format!("Autoscaling target of {service}"),
            "tensor_parallel" => format!("GPUs per replica of {service} (tensor parallel)"),
            _ => format!("{field} of {service}"),
        };
    }
    let with_unit = |label: &str, unit: &str| {
        if unit.is_empty() || unit == "×" {
            label.to_string()
        } else {
            format!("{label} ({unit})")
        }
    };
    match platform_row(rest) {
        Some(PlatformRow::Platform(f)) => with_unit(f.label, f.unit),
        Some(PlatformRow::Pool { pool, row }) if platform.node_pools.len() > 1 => format!(
            "{} pool: {}",
            platform
                .node_pools
                .get(pool)
                .map_or("A", |p| p.name.as_str()),
            with_unit(row.label, row.unit)
        ),
        Some(PlatformRow::Pool { row, .. }) => with_unit(row.label, row.unit),
        None => rest.to_string(),
    }
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
        let pct = (p.tuned.mean / p.as_typed.mean - 1.0) * 100.0;
        let size = if pct.abs() < 1.0 {
            format!("{:.1}", pct.abs())
        } else {
            format!("{:.0}", pct.abs())
        };
        format!(" ({size} % {})", if pct > 0.0 { "more" } else { "less" })
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
                    change_value(path, from),
                    change_value(path, to)
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
