//! Money over time: each platform's cumulative cash month by month over 36 months, with its
//! one-off costs at month 0 and its commitments as they are paid, and the month where each
//! platform's line crosses the current platform's (it pays back).
//!
//! What is assumed, and stated under the page's chart:
//! - Every month costs the platform's mean monthly TCO from the simulation: months beyond the
//!   simulated horizon repeat it.
//! - A reserved pool's commitment costs `C` a month in that TCO (its reserved nodes at the
//!   reserved price, [`commitment_of`]). Paid upfront, a share `u` of the whole term's cost
//!   (`u × C × 12 × term_years`) is paid at the start of the term, and the rest monthly: the
//!   monthly cash is the TCO less `u × C`. A term that ends inside the 36 months is renewed on
//!   the same terms, its upfront paid as the new term starts.
//! - Within a month cash is paid evenly, so a line is straight between month ends and a
//!   crossing is found by interpolation; a renewal's upfront counts in the month it starts.

use super::pricing::GpuSecondPrices;
use super::scenario::{NodePool, Platform, Scenario, HOUR_S};
use super::HOURS_PER_MONTH;
use serde::{Deserialize, Serialize};

/// Months the payback view covers.
pub const MONTHS: usize = 36;

/// A pool's reservation as a commitment: what it costs a month in the TCO, for how long,
/// and how much of each term is paid at its start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommitmentCash {
    /// What the reserved nodes cost a month (the TCO's share: upfront amortised), USD.
    pub monthly_usd: f64,
    /// The term, months.
    pub term_months: u32,
    /// Share of a term's cost paid at its start (0, ½ or 1).
    pub upfront_share: f64,
}

impl CommitmentCash {
    /// What is paid at the start of each term, USD.
    pub fn upfront_usd(&self) -> f64 {
        self.upfront_share * self.monthly_usd * f64::from(self.term_months)
    }

    /// Whether a term starts at month `m` (0 and every multiple of the term).
    fn term_starts_at(&self, m: usize) -> bool {
        m.is_multiple_of(self.term_months.max(1) as usize)
    }

    /// What the term running in month `m + 1` still asks to be paid monthly after month `m`
    /// (a term ending exactly at `m` is over: its renewal starts in the next month), USD.
    fn owed_after(&self, m: usize) -> f64 {
        let term = self.term_months.max(1) as usize;
        let done_in_term = if m > 0 && m.is_multiple_of(term) {
            term
        } else {
            m % term
        };
        (1.0 - self.upfront_share) * self.monthly_usd * (term - done_in_term) as f64
    }
}

/// The commitment of `pool` of `platform`, if it reserves nodes.
pub fn commitment_of(
    scenario: &Scenario,
    platform: &Platform,
    pool: &NodePool,
) -> Option<CommitmentCash> {
    let nodes = pool.reserved_nodes(scenario.reference_gpus);
    if nodes == 0 {
        return None;
    }
    let per_gpu_s = GpuSecondPrices::of(scenario, platform, pool).reserved;
    let per_node_month = per_gpu_s * f64::from(pool.gpus_per_node) * HOUR_S * HOURS_PER_MONTH;
    Some(CommitmentCash {
        monthly_usd: f64::from(nodes) * per_node_month,
        term_months: 12 * pool.purchase.term_years.max(1),
        upfront_share: pool.purchase.payment.upfront_share(),
    })
}

/// One platform's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct PlatformPayback {
    /// The platform.
    pub name: String,
    /// Paid once at month 0: engineer-months at the FTE cost plus other one-off costs, USD.
    pub one_off_usd: f64,
    /// The steady monthly TCO every month repeats (the simulation's mean), USD.
    pub monthly_tco_usd: f64,
    /// Paid upfront for its commitments at month 0, USD (renewals pay it again).
    pub upfront_usd: f64,
    /// Cash paid by the end of each month 0 to 36 (month 0: the one-off costs and the first
    /// upfront payments), USD.
    pub cumulative_usd: Vec<f64>,
    /// What its commitments still ask to be paid monthly after each month 0 to 36, on the
    /// terms then running, USD.
    pub owed_usd: Vec<f64>,
    /// The month (interpolated) from which its cumulative cash is at or below the current
    /// platform's: 0 when it is from the start; none when it never is within 36 months, and
    /// for the current platform itself.
    pub breakeven_month: Option<f64>,
    /// The month (interpolated) after its break-even at which its cumulative cash rises
    /// above the current platform's again, if it does within 36 months.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overtaken_month: Option<f64>,
    /// The current platform's cumulative cash at month 36 less this one's: what choosing
    /// this platform saves over the 36 months (negative: what it costs more), USD.
    pub saving_at_36_months_usd: f64,
}

/// The payback view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Payback {
    /// The platform the others are compared with.
    pub current: String,
    /// The months of every line: 0 to 36.
    pub months: Vec<u32>,
    /// Per platform, in scenario order.
    pub platforms: Vec<PlatformPayback>,
}

/// Whether the scenario asks for a payback view: a platform with one-off costs or an upfront
/// commitment, or a current platform named.
pub fn wanted(scenario: &Scenario) -> bool {
    !scenario.payback.current.is_empty()
        || scenario.platforms.iter().any(|p| {
            p.one_off.engineer_months > 0.0
                || p.one_off.usd > 0.0
                || p.node_pools.iter().any(|pool| {
                    pool.purchase.payment.upfront_share() > 0.0
                        && pool.reserved_nodes(scenario.reference_gpus) > 0
                })
        })
}

/// The index of the current platform: the one `payback.current` names, else the first.
pub fn current_index(scenario: &Scenario) -> usize {
    let name = &scenario.payback.current;
    scenario
        .platforms
        .iter()
        .position(|p| &p.name == name)
        .unwrap_or(0)
}

/// The payback view of `scenario` with each platform's mean monthly TCO (`monthly_tco_usd`,
/// in scenario order).
pub fn payback(scenario: &Scenario, monthly_tco_usd: &[f64]) -> Payback {
    let mut platforms: Vec<PlatformPayback> = scenario
        .platforms
        .iter()
        .zip(monthly_tco_usd)
        .map(|(platform, &tco)| line_of(scenario, platform, tco))
        .collect();
    let current = current_index(scenario);
    if let Some(base) = platforms.get(current).map(|p| p.cumulative_usd.clone()) {
        for (i, p) in platforms.iter_mut().enumerate() {
            if i == current {
                continue;
            }
            p.breakeven_month = breakeven(&p.cumulative_usd, &base);
            p.overtaken_month = p
                .breakeven_month
                .and_then(|from| overtaken(&p.cumulative_usd, &base, from));
            p.saving_at_36_months_usd = base[MONTHS] - p.cumulative_usd[MONTHS];
        }
    }
    Payback {
        current: scenario
            .platforms
            .get(current)
            .map(|p| p.name.clone())
            .unwrap_or_default(),
        months: (0..=MONTHS as u32).collect(),
        platforms,
    }
}

/// One platform's cumulative cash and what its commitments still ask.
fn line_of(scenario: &Scenario, platform: &Platform, tco: f64) -> PlatformPayback {
    let one_off = platform
        .one_off
        .usd_with(scenario.people.fte_cost_usd_per_year);
    let commitments: Vec<CommitmentCash> = platform
        .node_pools
        .iter()
        .filter_map(|pool| commitment_of(scenario, platform, pool))
        .collect();
    // The monthly cash: the TCO less the part of it the upfront payments cover.
    let amortised: f64 = commitments
        .iter()
        .map(|c| c.upfront_share * c.monthly_usd)
        .sum();
    let monthly_cash = tco - amortised;
    let upfront_at = |m: usize| -> f64 {
        commitments
            .iter()
            .filter(|c| c.term_starts_at(m))
            .map(CommitmentCash::upfront_usd)
            // (+ 0.0: an empty sum is −0.0, which the report would print as such.)
            .sum::<f64>()
            + 0.0
    };
    let mut cumulative = Vec::with_capacity(MONTHS + 1);
    let mut total = one_off + upfront_at(0);
    cumulative.push(total);
    for m in 1..=MONTHS {
        // Month m runs from m − 1 to m: a term starting at m − 1 (after 0) pays its upfront.
        if m > 1 {
            total += upfront_at(m - 1);
        }
        total += monthly_cash;
        cumulative.push(total);
    }
    let owed = (0..=MONTHS)
        .map(|m| commitments.iter().map(|c| c.owed_after(m)).sum::<f64>() + 0.0)
        .collect();
    PlatformPayback {
        name: platform.name.clone(),
        one_off_usd: one_off,
        monthly_tco_usd: tco,
        upfront_usd: upfront_at(0),
        cumulative_usd: cumulative,
        owed_usd: owed,
        breakeven_month: None,
        overtaken_month: None,
        saving_at_36_months_usd: 0.0,
    }
}

/// The first month (interpolated) after month `from` at which `line` rises above `base`.
pub fn overtaken(line: &[f64], base: &[f64], from: f64) -> Option<f64> {
    let gap = |m: usize| line[m] - base[m];
    let start = from.ceil().max(1.0) as usize;
    (start..line.len().min(base.len())).find_map(|m| {
        let (before, now) = (gap(m - 1), gap(m));
        (before <= 0.0 && now > 0.0).then(|| (m - 1) as f64 + before / (before - now))
    })
}

/// The first month (interpolated) at which `line` is at or below `base`: 0 if it is from the
/// start, none if never within the months given.
pub fn breakeven(line: &[f64], base: &[f64]) -> Option<f64> {
    let gap = |m: usize| line[m] - base[m];
    if gap(0) <= 0.0 {
        return Some(0.0);
    }
    (1..line.len().min(base.len())).find_map(|m| {
        let (before, now) = (gap(m - 1), gap(m));
        (now <= 0.0).then(|| (m - 1) as f64 + before / (before - now))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_saving_pays_back_in_one_off_over_saving_months() {
        // One-off $30,000, then $12,000 a month against the current $20,000: 30,000 / 8,000.
        let base: Vec<f64> = (0..=MONTHS).map(|m| 20_000.0 * m as f64).collect();
        let line: Vec<f64> = (0..=MONTHS)
            .map(|m| 30_000.0 + 12_000.0 * m as f64)
            .collect();
        let month = breakeven(&line, &base).unwrap();
        assert!((month - 3.75).abs() < 1e-12, "{month}");
        // Cheaper from the start, and never.
        assert_eq!(breakeven(&base, &line), Some(0.0));
        let never: Vec<f64> = (0..=MONTHS).map(|m| 1.0 + 20_000.0 * m as f64).collect();
        assert_eq!(breakeven(&never, &base), None);
        // Cheaper at first, dearer from month 5: $10,000 less to start, $2,000 a month more.
        let dearer: Vec<f64> = (0..=MONTHS)
            .map(|m| -10_000.0 + 22_000.0 * m as f64)
            .collect();
        assert_eq!(breakeven(&dearer, &base), Some(0.0));
        let month = overtaken(&dearer, &base, 0.0).unwrap();
        assert!((month - 5.0).abs() < 1e-12, "{month}");
        assert_eq!(overtaken(&line, &base, 3.75), None);
    }

    #[test]
    fn a_term_owes_its_monthly_part_until_it_ends() {
        let c = CommitmentCash {
            monthly_usd: 1_000.0,
            term_months: 12,
            upfront_share: 0.5,
        };
        assert_eq!(c.upfront_usd(), 6_000.0);
        assert_eq!(c.owed_after(0), 6_000.0);
        assert_eq!(c.owed_after(5), 3_500.0);
        assert_eq!(c.owed_after(12), 0.0);
        assert_eq!(c.owed_after(13), 5_500.0);
        assert!(c.term_starts_at(0) && c.term_starts_at(24) && !c.term_starts_at(6));
    }
}
