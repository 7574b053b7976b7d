//! Internet egress priced as each cloud bills it: by volume tier within a month, AWS per GB
//! and Google Cloud per GiB. A platform's `egress_usd_per_gb` is the first tier's price
//! (per GiB on Google Cloud's tiers); later tiers keep their published ratio to it, so the
//! egress-price slider still moves every tier and the defaults give the published prices.
//!
//! Each cloud's tiers and their sources are its [`EgressTable`](super::cloud::EgressTable)
//! (`model/src/model/cloud/`).
//!
//! The free allowance is the month's first gigabytes, at no charge, inside the first tier.
//!
//! A cloud that charges no egress (CoreWeave, Lambda, Nebius) has one band at $0: its
//! platforms pay nothing unless a price is typed, which then applies per GB.

use super::cloud::Cloud;
use serde::{Deserialize, Serialize};

/// How a platform's internet egress is priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EgressTiers {
    /// One price per GB beyond the free allowance (the default: scenarios written before
    /// tiers keep their numbers).
    #[default]
    Flat,
    /// AWS internet egress tiers, per GB.
    AwsInternet,
    /// Google Cloud Premium-tier internet egress tiers, per GiB.
    GcpPremium,
    /// Azure internet egress tiers (Microsoft's premium global network), per GB.
    AzureInternet,
    /// CoreWeave: no egress charge.
    CoreweaveFree,
    /// Lambda: no egress charge.
    LambdaFree,
    /// Nebius: no egress charge for VMs.
    NebiusFree,
}

/// Bytes in the model's GB.
const GB: f64 = 1e9;

impl EgressTiers {
    /// The published tiers of `cloud`'s internet egress (what the page's new platforms and
    /// the new presets use).
    pub fn of_cloud(cloud: Cloud) -> EgressTiers {
        cloud.facts().egress_tiers.tiers
    }

    /// Whether this is flat pricing (not written in a scenario document).
    pub fn is_flat(&self) -> bool {
        *self == EgressTiers::Flat
    }

    /// Whether these are a cloud's one free band (CoreWeave, Lambda, Nebius): no egress
    /// charge unless a price is typed.
    pub fn is_free_band(self) -> bool {
        self.tiers()
            .0
            .first()
            .is_some_and(|&(_, price)| price == 0.0)
    }

    /// The published tiers in the cloud's unit and that unit in bytes (none for flat).
    fn tiers(self) -> (&'static [(f64, f64)], f64) {
        match Cloud::of_egress_tiers(self) {
            None => (&[], GB),
            Some(cloud) => {
                let table = &cloud.facts().egress_tiers;
                (table.bands, table.unit.bytes())
            }
        }
    }

    /// USD for `gb` GB of egress in one month, the first `free_gb` free, the first tier at
    /// `first_tier_usd` per unit (per GB when flat).
    pub fn monthly_usd(self, gb: f64, first_tier_usd: f64, free_gb: f64) -> f64 {
        let (tiers, unit) = self.tiers();
        if tiers.is_empty() {
            return (gb - free_gb).max(0.0) * first_tier_usd;
        }
        let volume = gb.max(0.0) * GB / unit;
        let free = free_gb.max(0.0) * GB / unit;
        let first = tiers[0].1;
        if self.is_free_band() {
            // A cloud that charges no egress: its one band is free, and a price typed for it
            // (the egress slider) applies flat beyond the free allowance.
            return (gb - free_gb).max(0.0) * first_tier_usd;
        }
        let mut usd = 0.0;
        let mut low = 0.0;
        for &(high, price) in tiers {
            let billed = volume.min(high) - free.max(low).min(high);
            if billed > 0.0 {
                usd += billed * first_tier_usd * (price / first);
            }
            low = high;
        }
        usd
    }
}

#[cfg(test)]
mod tests {
    use super::EgressTiers;

    #[test]
    fn sixty_terabytes_in_a_month_tier_by_tier() {
        // AWS: 60,000 GB, the first 100 free: 10,140 GB × $0.09 + 40,960 × $0.085 + 8,800 ×
        // $0.07 = $912.60 + $3,481.60 + $616.00 = $5,010.20.
        let aws = EgressTiers::AwsInternet.monthly_usd(60_000.0, 0.09, 100.0);
        assert!((aws - 5_010.20).abs() < 1e-6, "{aws}");
        // Google Cloud: 60,000 GB = 55,879.354 GiB: 1,024 × $0.12 + 9,216 × $0.11 +
        // 45,639.354 × $0.08 = $122.88 + $1,013.76 + $3,651.148 = $4,787.79.
        let gib = 60_000.0 * 1e9 / 1_073_741_824.0;
        let expected = 1_024.0 * 0.12 + 9_216.0 * 0.11 + (gib - 10_240.0) * 0.08;
        let gcp = EgressTiers::GcpPremium.monthly_usd(60_000.0, 0.12, 0.0);
        assert!(
            (gcp - expected).abs() < 1e-9 && (gcp - 4_787.79).abs() < 0.01,
            "{gcp}"
        );
        // Flat: one price beyond the free allowance.
        assert_eq!(EgressTiers::Flat.monthly_usd(1_100.0, 0.09, 100.0), 90.0);
        // A cloud with no egress charge: nothing at its price, a typed price per GB.
        for free in [
            EgressTiers::CoreweaveFree,
            EgressTiers::LambdaFree,
            EgressTiers::NebiusFree,
        ] {
            assert_eq!(free.monthly_usd(60_000.0, 0.0, 0.0), 0.0);
            assert!((free.monthly_usd(1_000.0, 0.05, 0.0) - 50.0).abs() < 1e-9);
        }
    }

    #[test]
    fn the_first_tier_price_scales_every_tier_and_free_volume_is_never_billed() {
        // Twice the first tier's price doubles the bill.
        let once = EgressTiers::AwsInternet.monthly_usd(200_000.0, 0.09, 100.0);
        let twice = EgressTiers::AwsInternet.monthly_usd(200_000.0, 0.18, 100.0);
        assert!((twice - 2.0 * once).abs() < 1e-6);
        // Within the free allowance nothing is billed; past it, the first tier's price.
        assert_eq!(EgressTiers::AwsInternet.monthly_usd(80.0, 0.09, 100.0), 0.0);
        let small = EgressTiers::AwsInternet.monthly_usd(1_100.0, 0.09, 100.0);
        assert!((small - 90.0).abs() < 1e-9);
        // Over 150 TB the last tier: 1 GB more costs $0.05.
        let more = EgressTiers::AwsInternet.monthly_usd(200_001.0, 0.09, 100.0) - once;
        assert!((more - 0.05).abs() < 1e-6, "{more}");
    }
}
