//! The compact results table: per platform the monthly TCO's median with its 5th–95th
//! percentile range and the cost per useful GPU-hour. The embed view draws it
//! (`src/ui/embed_view.rs`), and the loading shell shows it before the page has loaded
//! (`src/first_number.rs`): one set of columns and cell texts for both.

use crate::format::{usd, usd_cents};
use crate::model::monte_carlo::PlatformResult;
use serde::Serialize;

/// The column titles.
pub const COLUMNS: [&str; 3] = ["Platform", "Monthly TCO (p5–p95)", "$/useful GPU-h"];

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
    /// The median cost per useful GPU-hour, USD; `None` where nothing useful ran.
    pub usd_per_useful_gpu_hour_p50: Option<f64>,
    /// It as a cell shows it ("$1.99", or "n/a").
    pub usd_per_useful_gpu_hour: String,
}

impl EmbedRow {
    /// The row of `platform`.
    pub fn of(platform: &PlatformResult) -> EmbedRow {
        let tco = platform.monthly_tco_usd();
        let per_hour = platform.usd_per_useful_gpu_hour().map(|s| s.p50);
        EmbedRow {
            name: platform.name.clone(),
            monthly_tco_p50: tco.p50,
            monthly_tco: usd(tco.p50),
            monthly_tco_range: format!("{} – {}", usd(tco.p5), usd(tco.p95)),
            usd_per_useful_gpu_hour_p50: per_hour,
            usd_per_useful_gpu_hour: per_hour.map_or_else(|| "n/a".to_string(), usd_cents),
        }
    }
}
