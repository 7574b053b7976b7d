//! Nebius AI Cloud (each figure below with its source and the date it was read). Its GPU
//! list prices rose twice in 2026; the catalog's rows are those announced for 2026-10-01.

use super::{
    CloudFacts, Commitments, DataPrice, DataUnit, DiscountField, EgressTable, Fact, Transfer,
};
use crate::model::egress::EgressTiers;
use crate::model::scenario::commitment::{Commitment, Payment};
use crate::model::storage::StorageProduct;

/// What Nebius's price page says of network traffic.
const FREE_NETWORK: &str = "Nebius price page: \"Networking: Egress/Ingress traffic — Free\", \
     public IP addresses free (nebius.com/prices as transcribed 2026-10-07 in \
     api-evangelist/nebius at 37bdedf; thundercompute.com on cloud GPU egress, 2026-06-01)";

/// Nebius AI Cloud.
pub const NEBIUS: CloudFacts = CloudFacts {
    id: "nebius",
    discount: DiscountField {
        path: "discounts.nebius_pct",
        label: "Negotiated discount, Nebius",
        doc: "% off Nebius list prices (a contract).",
        help: "Contract discount on every Nebius list price (compute), on top of preemptible and commitment pricing.",
        knob: "discount_nebius",
        slider: "discount-nebius",
    },
    short: "Nebius",
    name: "Nebius",
    billing: Fact {
        value: (1, 0),
        source: "Nebius bills VM time per second, priced per hour (\"30 minutes → half the hourly \
                 price\"; docs.nebius.com, pricing, read 2026-12-07); no minimum per VM found",
    },
    spot_notice_s: Fact {
        value: 60.0,
        source: "Nebius preemptible VMs (docs.nebius.com, compute, preemptible VMs, read \
                 2026-12-07): SIGTERM 60 s before the VM is stopped, when regular VMs need the \
                 capacity; its disks are kept",
    },
    egress_usd_per_gb: Fact {
        value: 0.0,
        source: FREE_NETWORK,
    },
    egress_free_gb_per_month: Fact {
        value: 0.0,
        source: "no allowance needed: Nebius charges no VM egress",
    },
    egress_tiers: EgressTable {
        tiers: EgressTiers::NebiusFree,
        key: "nebius_free",
        label: "Nebius: no egress charge",
        bands: &[(f64::INFINITY, 0.0)],
        unit: DataUnit::Gb,
        source: FREE_NETWORK,
    },
    transfer: Transfer {
        internet: Fact {
            value: DataPrice { usd: 0.015, per: DataUnit::Gib },
            source: "Nebius Object Storage, Standard class: downloads $0.015/GiB (nebius.com/prices \
                     as transcribed 2026-10-07 in api-evangelist/nebius at 37bdedf); the \
                     Enhanced Throughput class bills none (docs.nebius.com, storage classes)",
        },
        inter_region: Fact {
            value: DataPrice { usd: 0.015, per: DataUnit::Gib },
            source: "assumption: a read of another region's Standard bucket pays its download \
                     price, $0.015/GiB, as a read from outside Nebius does",
        },
        nat: Fact {
            value: DataPrice { usd: 0.0, per: DataUnit::Gb },
            source: FREE_NETWORK,
        },
    },
    storage_usd_per_gb_month: Fact {
        value: 0.0147 / 1.073_741_824,
        source: "Nebius Object Storage, Standard class: $0.0147 per GiB-month (docs.nebius.com, \
                 object storage pricing, read 2026-12-07), here per GB",
    },
    storage_products: &[StorageProduct::NebiusSharedFs],
    commitments: Commitments {
        kinds: &[Commitment::Resource],
        refused: &[
            (
                Commitment::SavingsPlan,
                "Nebius sells commitments to resources (GPUs, a quantity, a duration), not a \
                 Savings Plan",
            ),
            (
                Commitment::SpendBased,
                "spend-based committed-use discounts are GCP's; Nebius commits to resources",
            ),
        ],
        payments: &[Payment::NoUpfront, Payment::AllUpfront],
        payment_refused: "Nebius commitments are generally prepaid ({} is AWS's)",
        reserved_cluster_discount_pct: Fact {
            value: 30.0,
            source: "assumption: 30 % off on demand for a 1-year commitment: Nebius advertises \
                     \"commitment discounts (up to 35% less)\" (nebius.com/prices, 2026-10-07 \
                     copy) and arranges them through sales, for company accounts, generally \
                     prepaid (docs.nebius.com, committed usage); an older page's H100 at $2.00 \
                     against $2.95 (32 % off) agrees",
        },
        rates: &[],
    },
    new_platform_instance: ("gpu-h100-sxm_8gpu-128vcpu-1600gb", "eu-north1"),
    no_spot: None,
};
