//! The clouds: one file each with everything the model knows of that cloud (how it bills,
//! its spot notice, internet egress and its tiers, inter-region and NAT prices, object
//! storage, the storage products it sells, the commitments it sells, the instance a new
//! platform starts on), each figure with its source and date. Its instance prices are rows of
//! `data/catalog.csv`, keyed by [`CloudFacts::id`].
//!
//! A new cloud is a line in the `clouds!` list below (its variant and its facts) and a file
//! beside these; README.md "Adding a cloud" lists the rest.

mod aws;
mod azure;
mod coreweave;
mod gcp;
mod lambda;
mod nebius;

use super::egress::EgressTiers;
use super::scenario::commitment::{Commitment, Payment};
use super::storage::StorageProduct;
use serde::{Deserialize, Serialize};

/// The clouds, each once: its variant (with its doc) and its facts. This is the only list: the
/// enum, [`Cloud::ALL`] and [`Cloud::facts`] are made from it, so a new cloud is one line here
/// and its file.
macro_rules! clouds {
    ($($(#[doc = $doc:literal])* $variant:ident => $facts:path,)*) => {
        /// Which cloud a platform runs on (selects the negotiated discount).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
        #[serde(rename_all = "snake_case")]
        pub enum Cloud {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Cloud {
            /// Every cloud, in the order the page and the documents list them.
            pub const ALL: [Cloud; [$(Cloud::$variant),*].len()] = [$(Cloud::$variant),*];

            /// What the model knows of it.
            pub const fn facts(self) -> &'static CloudFacts {
                match self {
                    $(Cloud::$variant => &$facts,)*
                }
            }
        }
    };
}

clouds! {
    /// Amazon Web Services.
    Aws => aws::AWS,
    /// Google Cloud.
    Gcp => gcp::GCP,
    /// Microsoft Azure.
    Azure => azure::AZURE,
    /// CoreWeave.
    Coreweave => coreweave::COREWEAVE,
    /// Lambda.
    Lambda => lambda::LAMBDA,
    /// Nebius AI Cloud.
    Nebius => nebius::NEBIUS,
}

/// A figure and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fact<T> {
    /// The figure.
    pub value: T,
    /// Its source and date, or "assumption: …".
    pub source: &'static str,
}

/// A price per unit of data, as the cloud bills it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DataPrice {
    /// USD per unit.
    pub usd: f64,
    /// The unit billed.
    pub per: DataUnit,
}

/// A unit of data a cloud bills by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataUnit {
    /// 10⁹ bytes (AWS, Azure).
    Gb,
    /// 2³⁰ bytes (Google Cloud).
    Gib,
}

/// GB in a GiB.
const GB_PER_GIB: f64 = 1_073_741_824.0 / 1e9;

impl DataUnit {
    /// Bytes in one unit.
    pub fn bytes(self) -> f64 {
        match self {
            DataUnit::Gb => 1e9,
            DataUnit::Gib => 1_073_741_824.0,
        }
    }
}

impl DataPrice {
    /// USD per GB of the model (10⁹ bytes).
    pub fn usd_per_gb(self) -> f64 {
        match self.per {
            DataUnit::Gb => self.usd,
            DataUnit::Gib => self.usd / GB_PER_GIB,
        }
    }
}

/// What reading data across regions and clouds costs on a cloud.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transfer {
    /// Internet egress at its first tier, what data leaving this cloud for another pays.
    pub internet: Fact<DataPrice>,
    /// Transfer between two of its regions.
    pub inter_region: Fact<DataPrice>,
    /// A NAT gateway's data processing, on every unit read through it.
    pub nat: Fact<DataPrice>,
}

/// The published internet egress tiers of a cloud.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EgressTable {
    /// How a scenario names these tiers.
    pub tiers: EgressTiers,
    /// Their JSON value (the serde name of `tiers`: a test checks).
    pub key: &'static str,
    /// Their label in the page's choice.
    pub label: &'static str,
    /// (upper bound of the tier in `unit`, price per unit), in order.
    pub bands: &'static [(f64, f64)],
    /// The unit of the bounds and prices.
    pub unit: DataUnit,
    /// Where they come from.
    pub source: &'static str,
}

/// The commitments a cloud sells for GPU capacity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Commitments {
    /// The kinds sold for GPUs.
    pub kinds: &'static [Commitment],
    /// Why each kind it does not sell for GPUs is refused.
    pub refused: &'static [(Commitment, &'static str)],
    /// How they can be paid.
    pub payments: &'static [Payment],
    /// Why another payment is refused (`{}` is the payment's name).
    pub payment_refused: &'static str,
    /// The discount a new reserved cluster's 1-year commitment gets, %.
    pub reserved_cluster_discount_pct: Fact<f64>,
    /// The term prices it publishes for GPU instances, where they could be read.
    pub rates: &'static [CommitmentRate],
}

/// A published price for committing to one node of an instance type for a term.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommitmentRate {
    /// The instance type and region (a catalog row).
    pub instance: (&'static str, &'static str),
    /// The kind of commitment.
    pub kind: Commitment,
    /// The term, years.
    pub term_years: u32,
    /// What the whole term costs for one node, USD (paid upfront or spread over its months
    /// at the same total).
    pub term_usd: f64,
    /// Where it comes from, and when it was read.
    pub source: &'static str,
}

impl CommitmentRate {
    /// The discount off the catalog's on-demand price it amounts to, %: 1 − the term price ÷
    /// (the hourly on-demand price × the term's hours, 8,760 a year). None where the catalog
    /// has no on-demand price for its instance.
    pub fn discount_pct(&self) -> Option<f64> {
        let (name, region) = self.instance;
        let hourly = super::catalog::find(name, region)?.on_demand_usd_per_node_hour?;
        let hours = 8_760.0 * f64::from(self.term_years);
        Some(100.0 * (1.0 - self.term_usd / (hourly * hours)))
    }
}

impl Commitments {
    /// The published rate for `kind` over `term_years` on `instance` in `region`, if any.
    pub fn rate(
        &self,
        instance: &str,
        region: &str,
        kind: Commitment,
        term_years: u32,
    ) -> Option<&'static CommitmentRate> {
        self.rates.iter().find(|r| {
            r.instance == (instance, region) && r.kind == kind && r.term_years == term_years
        })
    }
}

/// How a cloud's negotiated discount appears in the field table and on the page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiscountField {
    /// Its path in a scenario: `discounts.<id>_pct`.
    pub path: &'static str,
    /// Its label.
    pub label: &'static str,
    /// What it means.
    pub doc: &'static str,
    /// The help of its slider.
    pub help: &'static str,
    /// Its knob's id (the tornado's `knob`): `discount_<id>`.
    pub knob: &'static str,
    /// The element id of its slider: `discount-<id>`.
    pub slider: &'static str,
}

/// Everything the model knows of one cloud.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CloudFacts {
    /// How scenarios, links and `data/catalog.csv` name it.
    pub id: &'static str,
    /// Its negotiated discount's field: path `discounts.<id>_pct`, label, doc, and the help
    /// of its slider.
    pub discount: DiscountField,
    /// Its short label (the page's cloud choice, its discount's label).
    pub short: &'static str,
    /// Its name in sentences.
    pub name: &'static str,
    /// Node time billing: rounded up to (granularity, minimum), seconds.
    pub billing: Fact<(u32, u32)>,
    /// Warning before a spot node is taken back, seconds.
    pub spot_notice_s: Fact<f64>,
    /// Internet egress a new platform pays per GB, beyond the free allowance.
    pub egress_usd_per_gb: Fact<f64>,
    /// Internet egress free each month, GB.
    pub egress_free_gb_per_month: Fact<f64>,
    /// Its published internet egress tiers.
    pub egress_tiers: EgressTable,
    /// Reading data across regions and clouds.
    pub transfer: Transfer,
    /// Object storage, USD per GB-month.
    pub storage_usd_per_gb_month: Fact<f64>,
    /// The file systems it sells that jobs can stage data from.
    pub storage_products: &'static [StorageProduct],
    /// The commitments it sells.
    pub commitments: Commitments,
    /// The instance and region a new platform starts on (the catalog's row).
    pub new_platform_instance: (&'static str, &'static str),
    /// Why a pool cannot buy spot here, where the cloud sells none (`None`: it does).
    pub no_spot: Option<&'static str>,
}

impl Cloud {
    /// How scenarios and the catalog name it.
    pub fn id(self) -> &'static str {
        self.facts().id
    }

    /// The cloud named `id`.
    pub fn from_id(id: &str) -> Option<Cloud> {
        Cloud::ALL.into_iter().find(|c| c.id() == id)
    }

    /// Its name in sentences.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// The key of its negotiated discount under `discounts`: `<id>_pct`.
    pub fn discount_key(self) -> &'static str {
        let path = self.facts().discount.path;
        path.strip_prefix("discounts.").unwrap_or(path)
    }

    /// The cloud whose published egress tiers these are.
    pub fn of_egress_tiers(tiers: EgressTiers) -> Option<Cloud> {
        Cloud::ALL
            .into_iter()
            .find(|c| c.facts().egress_tiers.tiers == tiers)
    }

    /// The cloud that sells storage `product`, if one does (object storage and none are
    /// every cloud's).
    pub fn selling(product: StorageProduct) -> Option<Cloud> {
        Cloud::ALL
            .into_iter()
            .find(|c| c.facts().storage_products.contains(&product))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_read_back() {
        for cloud in Cloud::ALL {
            assert_eq!(Cloud::from_id(cloud.id()), Some(cloud));
            assert_eq!(
                cloud.facts().discount.path,
                format!("discounts.{}_pct", cloud.id())
            );
            assert_eq!(cloud.discount_key(), format!("{}_pct", cloud.id()));
            assert_eq!(
                cloud.facts().discount.knob,
                format!("discount_{}", cloud.id())
            );
            assert_eq!(
                cloud.facts().discount.slider,
                format!("discount-{}", cloud.id())
            );
            // The variant's index is its place in ALL (the discounts are kept in that order).
            assert_eq!(Cloud::ALL[cloud as usize], cloud);
            // The id is the document's value.
            assert_eq!(
                serde_json::to_value(cloud).unwrap(),
                serde_json::Value::from(cloud.id())
            );
        }
    }

    #[test]
    fn each_cloud_prices_its_new_platform_and_owns_its_tiers_and_products() {
        for cloud in Cloud::ALL {
            let f = cloud.facts();
            let (instance, region) = f.new_platform_instance;
            let row = crate::model::catalog::find(instance, region)
                .unwrap_or_else(|| panic!("{instance} in {region} is not in the catalog"));
            assert_eq!(row.cloud, cloud);
            assert!(row.on_demand_usd_per_node_hour.is_some());
            assert_eq!(Cloud::of_egress_tiers(f.egress_tiers.tiers), Some(cloud));
            assert_eq!(
                serde_json::to_value(f.egress_tiers.tiers).unwrap(),
                serde_json::Value::from(f.egress_tiers.key)
            );
            for product in f.storage_products {
                assert_eq!(Cloud::selling(*product), Some(cloud), "{product:?}");
            }
            // The first egress band's price is the new platform's egress price.
            assert_eq!(f.egress_tiers.bands[0].1, f.egress_usd_per_gb.value);
            assert!(!f.commitments.kinds.is_empty() && !f.commitments.payments.is_empty());
            // Every published rate is for a priced row of this cloud, a kind and term it
            // sells, and a discount between 0 and the 72 % Azure and AWS cap theirs at.
            for rate in f.commitments.rates {
                let row = crate::model::catalog::find(rate.instance.0, rate.instance.1);
                assert_eq!(row.map(|r| r.cloud), Some(cloud), "{rate:?}");
                assert!(f.commitments.kinds.contains(&rate.kind), "{rate:?}");
                let terms = crate::model::scenario::commitment::TERMS_YEARS;
                assert!(terms.contains(&rate.term_years), "{rate:?}");
                let pct = rate.discount_pct().unwrap();
                assert!(pct > 0.0 && pct <= 72.0, "{rate:?}: {pct}");
            }
        }
    }

    #[test]
    fn every_cloud_has_its_discount_row_and_knob() {
        use crate::model::scenario::fields::{field, Value, SCENARIO_FIELDS};
        for cloud in Cloud::ALL {
            let d = cloud.facts().discount;
            let row = field(SCENARIO_FIELDS, d.path);
            let Some(Value::Number { get, set }) = row.map(|f| f.value) else {
                panic!("{cloud:?}: no row {}", d.path);
            };
            let mut s = crate::model::scenario::Scenario::default();
            set(&mut s, 12.0);
            assert_eq!((get(&s), s.discounts.pct(cloud)), (Some(12.0), 12.0));
            let knob = crate::model::knobs::KNOBS.iter().find(|k| k.id == d.knob);
            let knob = knob.unwrap_or_else(|| panic!("{cloud:?}: no knob {}", d.knob));
            (knob.set)(&mut s, 3.0);
            assert_eq!(s.discounts.pct(cloud), 3.0);
        }
    }

    #[test]
    fn a_gib_price_is_its_gb_price_times_the_bytes() {
        // $0.12 per GiB is $0.12 per 1.073741824 GB: $0.111758… per GB.
        let p = DataPrice {
            usd: 0.12,
            per: DataUnit::Gib,
        };
        assert!((p.usd_per_gb() - 0.12 / 1.073_741_824).abs() < 1e-15);
        assert_eq!(DataUnit::Gib.bytes() / DataUnit::Gb.bytes(), 1.073_741_824);
    }
}
