//! Google Cloud (reference data: ../shared/reference/platform_facts.md, dated per figure
//! below). Google Cloud bills data per GiB.

use super::{
    CloudFacts, Commitments, DataPrice, DataUnit, DiscountField, EgressTable, Fact, Transfer,
};
use crate::model::egress::EgressTiers;
use crate::model::scenario::commitment::{Commitment, Payment};
use crate::model::storage::StorageProduct;

/// Google Cloud.
pub const GCP: CloudFacts = CloudFacts {
    id: "gcp",
    discount: DiscountField {
        path: "discounts.gcp_pct",
        label: "Negotiated discount, GCP",
        doc: "% off GCP list prices (enterprise agreements).",
        help: "Enterprise discount on every GCP list price (compute), on top of spot and committed-use pricing.",
        knob: "discount_gcp",
        slider: "discount-gcp",
    },
    short: "GCP",
    name: "Google Cloud",
    billing: Fact {
        value: (1, 60),
        source: "EC2 and Compute Engine: per second with a 60 s minimum (provider docs)",
    },
    spot_notice_s: Fact {
        value: 30.0,
        source: "Compute Engine docs: 30 s from soft to hard off for Spot VMs",
    },
    // The first tier's price per GiB, applied per GB by a flat-priced platform.
    egress_usd_per_gb: Fact {
        value: 0.12,
        source: "GCP Premium tier egress 0–1 TiB: $0.12/GiB (billing catalog 2026-07-30)",
    },
    egress_free_gb_per_month: Fact {
        value: 0.0,
        source: "GCP Premium tier egress: no free allowance (billing catalog 2026-07-30)",
    },
    // Premium tier from us-central1 (worldwide but China and Australia).
    egress_tiers: EgressTable {
        tiers: EgressTiers::GcpPremium,
        key: "gcp_premium",
        label: "Google Cloud tiers, per GiB",
        bands: &[(1_024.0, 0.12), (10_240.0, 0.11), (f64::INFINITY, 0.08)],
        unit: DataUnit::Gib,
        source: "Google Cloud internet egress, Premium tier, from us-central1 (worldwide but \
                 China and Australia): $0.12/GiB for 0–1 TiB, $0.11 for 1–10 TiB, $0.08 above \
                 10 TiB (billing catalog, 2026-07-30)",
    },
    transfer: Transfer {
        internet: Fact {
            value: DataPrice { usd: 0.12, per: DataUnit::Gib },
            source: "Google Cloud Premium internet egress, first tier, $0.12/GiB (billing \
                     catalog, 2026-07-30)",
        },
        inter_region: Fact {
            value: DataPrice { usd: 0.02, per: DataUnit::Gib },
            source: "assumption: $0.02/GiB within North America, the top of the $0.01–0.02 \
                     same-continent range third-party guides give (brainagents.ai \"GCP network \
                     egress and cross-region costs\", 2026; cloudwebschool.com gives $0.01–0.08 \
                     by pair); Google's own page was not read",
        },
        nat: Fact {
            value: DataPrice { usd: 0.045, per: DataUnit::Gib },
            source: "Cloud NAT data processing, $0.045/GiB (cloud.google.com/nat/pricing, as \
                     read 2026-10-16 in a third-party capture)",
        },
    },
    storage_usd_per_gb_month: Fact {
        value: 0.020,
        source: "GCS Standard us-central1 $0.020/GB-month (billing catalog 2026-07-30)",
    },
    storage_products: &[
        StorageProduct::FilestoreBasicHdd,
        StorageProduct::FilestoreBasicSsd,
        StorageProduct::FilestoreZonal,
    ],
    // Committed-use discounts: 1 or 3 years, billed monthly with no upfront. GPU commitments
    // are resource-based (and need attached reservations to hold capacity); spend-based
    // (flexible) CUDs do not cover GPUs (platform_facts.md, "Commitments", 2026).
    commitments: Commitments {
        kinds: &[Commitment::Resource],
        refused: &[
            (
                Commitment::SpendBased,
                "GCP spend-based committed-use discounts do not cover GPUs: GPU commitments \
                 are resource-based",
            ),
            (
                Commitment::SavingsPlan,
                "Savings Plans are AWS's; GCP GPU commitments are resource-based committed-use \
                 discounts",
            ),
        ],
        payments: &[Payment::NoUpfront],
        payment_refused: "GCP committed-use discounts are billed monthly, with no upfront \
                          payment ({} is AWS's)",
        reserved_cluster_discount_pct: Fact {
            value: 37.0,
            source: "GCP 1-year resource CUD for A2/G2: 37 % off",
        },
        rates: &[],
    },
    new_platform_instance: ("a2-highgpu-8g", "us-central1"),
    no_spot: None,
};
