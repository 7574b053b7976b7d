//! The cost formulas the simulation and the instant estimate share: what a GPU-second costs
//! on each kind of node, and the monthly costs that do not depend on GPU time (fees, tools,
//! people, storage and egress).
//!
//! Prices go through [`Scenario::list_price_factor`] (the cloud's negotiated discount, then
//! the platform's service premium); reserved capacity is on-demand less the reserved discount.

use super::cost_category::{Breakdown, Category};
use super::scenario::{NodePool, Platform, Scenario, HOUR_S};
use super::HOURS_PER_MONTH;

/// What one GPU-second costs on each kind of node of a platform, USD.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuSecondPrices {
    /// On an on-demand node.
    pub on_demand: f64,
    /// On a spot node.
    pub spot: f64,
    /// On a reserved node (billed whether used or not).
    pub reserved: f64,
}

impl GpuSecondPrices {
    /// The prices of `pool` of `platform` in `scenario`.
    pub fn of(scenario: &Scenario, platform: &Platform, pool: &NodePool) -> GpuSecondPrices {
        let list_factor = scenario.list_price_factor(platform, pool);
        let gpn = f64::from(pool.gpus_per_node.max(1));
        let per_gpu_s = |usd_per_node_hour: f64| usd_per_node_hour * list_factor / HOUR_S / gpn;
        let on_demand = per_gpu_s(pool.on_demand_usd_per_node_hour);
        GpuSecondPrices {
            on_demand,
            spot: per_gpu_s(pool.spot_usd_per_node_hour),
            reserved: on_demand * (1.0 - pool.purchase.reserved_discount_pct / 100.0),
        }
    }
}

/// What a platform's jobs moved over a span: GB sent out (and data reads billed as egress),
/// and GB of data read where reads are priced as transfer between regions.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Transferred {
    /// Egress, GB.
    pub egress_gb: f64,
    /// Data read priced as transfer ([`Platform::data_read_usd_per_gb`]), GB.
    pub data_read_gb: f64,
    /// Data staged from the platform's storage (EFS bills each GB read), GB.
    pub staged_gb: f64,
}

/// The monthly costs of `platform` beyond GPU time, in their categories (the GPU-time ones
/// are 0): the control-plane fee for every hour, tools, its share of an engineer, storage,
/// the egress `moved` sent over `months` beyond the free allowance, and its data reads'
/// transfer, per month.
pub fn other_monthly_costs(
    scenario: &Scenario,
    platform: &Platform,
    moved: Transferred,
    months: f64,
) -> Breakdown {
    let p = platform;
    let egress_gb = moved.egress_gb;
    let mut out = Breakdown::default();
    out[Category::Fees] = p.fee_usd_per_cluster_hour * HOURS_PER_MONTH;
    out[Category::Tools] = p.tooling_usd_per_month;
    out[Category::OpsPeople] = p.ops_fte * scenario.people.fte_cost_usd_per_year / 12.0;
    out[Category::Storage] =
        p.storage_gb * p.storage_usd_per_gb_month + p.staging.monthly_usd(moved.staged_gb / months);
    out[Category::Egress] = if p.egress_tiers.is_flat() {
        let billable_egress = (egress_gb - p.egress_free_gb_per_month * months).max(0.0);
        billable_egress * p.egress_usd_per_gb * (1.0 / months)
    } else {
        // Tiers are monthly: the horizon's egress as an average month's.
        p.egress_tiers.monthly_usd(
            egress_gb / months,
            p.egress_usd_per_gb,
            p.egress_free_gb_per_month,
        )
    };
    if let Some(usd_per_gb) = p.data_read_usd_per_gb(scenario) {
        out[Category::DataTransfer] = moved.data_read_gb / months * usd_per_gb;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_and_monthly_costs_by_hand() {
        let mut s = Scenario::default();
        s.discounts.set_pct(crate::model::cloud::Cloud::Aws, 10.0);
        s.people.fte_cost_usd_per_year = 120_000.0;
        let pool = s.platforms[0].first_pool_mut();
        pool.gpus_per_node = 8;
        pool.on_demand_usd_per_node_hour = 36.0;
        pool.spot_usd_per_node_hour = 7.2;
        pool.service_premium_pct = 25.0;
        pool.purchase.reserved_discount_pct = 40.0;
        let p = &mut s.platforms[0];
        p.fee_usd_per_cluster_hour = 0.1;
        p.tooling_usd_per_month = 50.0;
        p.ops_fte = 0.5;
        p.storage_gb = 1_000.0;
        p.storage_usd_per_gb_month = 0.02;
        p.egress_free_gb_per_month = 100.0;
        p.egress_usd_per_gb = 0.09;
        let p = s.platforms[0].clone();
        // $36/node-h × 0.9 × 1.25 = $40.5/node-h = $5.0625/GPU-h.
        let prices = GpuSecondPrices::of(&s, &p, p.first_pool());
        assert!((prices.on_demand * 3600.0 - 5.0625).abs() < 1e-12);
        assert!((prices.spot * 3600.0 - 1.0125).abs() < 1e-12);
        assert!((prices.reserved * 3600.0 - 3.0375).abs() < 1e-12);
        // 1,300 GB over two months, 200 GB free: 1,100 GB × $0.09 ÷ 2 = $49.50 a month.
        let moved = Transferred {
            egress_gb: 1_300.0,
            data_read_gb: 0.0,
            staged_gb: 0.0,
        };
        let other = other_monthly_costs(&s, &p, moved, 2.0);
        assert!((other[Category::Fees] - 73.0).abs() < 1e-12);
        assert_eq!(other[Category::Tools], 50.0);
        assert_eq!(other[Category::OpsPeople], 5_000.0);
        assert_eq!(other[Category::Storage], 20.0);
        assert!((other[Category::Egress] - 49.5).abs() < 1e-12);
        assert_eq!(other.gpu_time_total(), 0.0);
    }
}
