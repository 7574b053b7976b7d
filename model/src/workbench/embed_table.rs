//! The compact results table: per platform the monthly TCO's median with its 5th–95th
//! percentile range and the cost of the work as the verdict ranks it (per useful
//! reference-GPU-hour, per million requests or per completed pipeline run). The embed view
//! draws it (`src/ui/embed_view.rs`), and the loading shell shows it before the page has loaded
//! (`src/first_number.rs`): one set of columns and cell texts for both.

use crate::format::{usd, usd_cents};
use crate::model::monte_carlo::{PlatformResult, Results};
use crate::workbench::verdict::VerdictMetric;
use crate::workbench::verdict_basis::VerdictBasis;
use serde::Serialize;

/// The table: its column titles and a row per platform.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbedTable {
    /// The column titles ("$/useful A100-h" for the third where the verdict ranks jobs).
    pub columns: [String; 3],
    /// The report key of the third column's output (`usd_per_useful_gpu_hour`), its
    /// `data-metric` hook with `.p50`.
    pub per_work_key: &'static str,
    /// A row per platform, in the scenario's order.
    pub rows: Vec<EmbedRow>,
}

/// One platform's row: each figure's number and its text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbedRow {
    /// The platform.
    pub name: String,
    /// The monthly TCO's median, USD.
    pub monthly_tco_p50: f64,
    /// It as a cell shows it ("$33,939").
    pub monthly_tco: String,
    /// Its 5th–95th percentile range ("$30,734 – $36,509").
    pub monthly_tco_range: String,
    /// The median cost of the work (the third column's), USD; `None` where there was none.
    pub per_work_p50: Option<f64>,
    /// It as a cell shows it ("$1.99", or "n/a").
    pub per_work: String,
}

impl EmbedTable {
    /// The table of `results`, its third column the cost the verdict of `basis` ranks the work
    /// by (per useful reference-GPU-hour where it ranks by the monthly TCO, which has its own).
    pub fn of(results: &Results, basis: &VerdictBasis) -> EmbedTable {
        let per_work = basis.per_work(results);
        let output = per_work.output();
        let title = basis.per_work_title(per_work);
        EmbedTable {
            columns: [
                "Platform".to_string(),
                "Monthly TCO (p5–p95)".to_string(),
                title,
            ],
            per_work_key: output.key(),
            rows: results
                .platforms
                .iter()
                .map(|p| EmbedRow::of(p, per_work))
                .collect(),
        }
    }
}

impl EmbedRow {
    /// The row of `platform`, its cost of the work on `per_work`.
    pub fn of(platform: &PlatformResult, per_work: VerdictMetric) -> EmbedRow {
        let tco = platform.monthly_tco_usd();
        let value = per_work.value(platform);
        EmbedRow {
            name: platform.name.clone(),
            monthly_tco_p50: tco.p50,
            monthly_tco: usd(tco.p50),
            monthly_tco_range: format!("{} – {}", usd(tco.p5), usd(tco.p95)),
            per_work_p50: value,
            per_work: value.map_or_else(|| "n/a".to_string(), usd_cents),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::monte_carlo::MonteCarlo;
    use crate::workbench::presets::preset;

    fn table_of(name: &str) -> EmbedTable {
        let mut scenario = preset(name).unwrap().scenario();
        scenario.replications = 2;
        scenario.horizon_days = 2.0;
        let mut run = MonteCarlo::new(scenario.clone()).unwrap();
        run.run_batch(2);
        EmbedTable::of(&run.results(), &VerdictBasis::of(&scenario))
    }

    #[test]
    fn the_third_column_is_the_cost_of_the_work_the_verdict_ranks() {
        let jobs = table_of("batch-vs-eks-spot");
        assert_eq!(jobs.columns[2], "$/useful A100-h");
        assert_eq!(jobs.per_work_key, "usd_per_useful_gpu_hour");
        let services = table_of("agent-traffic-spike");
        assert_eq!(services.columns[2], "$/M requests");
        assert_eq!(services.per_work_key, "usd_per_million_requests");
        assert!(services.rows.iter().all(|r| r.per_work_p50.is_some()));
    }
}
