//! CoreWeave (each figure below with its source and the date it was read). Its list prices
//! are per instance-hour for whole 8-GPU nodes; it charges nothing for egress or for moving
//! data between its regions.

use super::{
    CloudFacts, Commitments, DataPrice, DataUnit, DiscountField, EgressTable, Fact, Transfer,
};
use crate::model::egress::EgressTiers;
use crate::model::scenario::commitment::{Commitment, Payment};
use crate::model::storage::StorageProduct;

/// What CoreWeave's pricing page says of data transfer.
const FREE_TRANSFER: &str = "CoreWeave pricing page: \"Egress and IOPS: Free\" (as transcribed \
     2026-09-20 in api-evangelist/coreweave at 27bcc25, and in daily copies of the page to \
     2026-10-10 in PrashantSedhain/coreweave-pricing-tracker at b936d50); \"Free data transfer: \
     move data between Regions without incurring additional costs\" (docs.coreweave.com, \
     regions, read 2026-12-07). AI Object Storage bills no egress either (Storage Pricing docs, \
     after 2025-10-31)";

/// CoreWeave.
pub const COREWEAVE: CloudFacts = CloudFacts {
    id: "coreweave",
    discount: DiscountField {
        path: "discounts.coreweave_pct",
        label: "Negotiated discount, CoreWeave",
        doc: "% off CoreWeave list prices (a contract).",
        help: "Contract discount on every CoreWeave list price (compute), on top of Spot and reservation pricing.",
        knob: "discount_coreweave",
        slider: "discount-coreweave",
    },
    short: "CoreWeave",
    name: "CoreWeave",
    billing: Fact {
        value: (60, 0),
        source: "per minute with no minimum: CoreWeave's billing docs (\"priced by the hour, billed \
                 by the minute … no minimum resource charge\", the legacy CoreWeave Cloud pages, \
                 coreweave/kubernetes-cloud at 5632d49, 2022-06-22); no current CKS statement \
                 was found, so the last documented rule is assumed",
    },
    spot_notice_s: Fact {
        value: 420.0,
        source: "CoreWeave Spot node pools (docs.coreweave.com, capacity plans, read 2026-12-07): a \
                 \"seven-minute window (maximum)\" before preemption, through the node label \
                 qos.coreweave.cloud/pending-preemption; taken at its maximum here",
    },
    egress_usd_per_gb: Fact {
        value: 0.0,
        source: FREE_TRANSFER,
    },
    egress_free_gb_per_month: Fact {
        value: 0.0,
        source: "no allowance needed: CoreWeave charges no egress",
    },
    egress_tiers: EgressTable {
        tiers: EgressTiers::CoreweaveFree,
        key: "coreweave_free",
        label: "CoreWeave: no egress charge",
        bands: &[(f64::INFINITY, 0.0)],
        unit: DataUnit::Gb,
        source: FREE_TRANSFER,
    },
    transfer: Transfer {
        internet: Fact {
            value: DataPrice { usd: 0.0, per: DataUnit::Gb },
            source: FREE_TRANSFER,
        },
        inter_region: Fact {
            value: DataPrice { usd: 0.0, per: DataUnit::Gb },
            source: FREE_TRANSFER,
        },
        nat: Fact {
            value: DataPrice { usd: 0.0, per: DataUnit::Gb },
            source: "no NAT gateway charge is listed on CoreWeave's pricing page (2026-10-10 copy): \
                     public IPs are $4 a month each, not counted",
        },
    },
    storage_usd_per_gb_month: Fact {
        value: 0.06 / 1.073_741_824,
        source: "CoreWeave AI Object Storage, Hot tier (objects read within 7 days): $0.06 a \
                 GB-month, its GB being 2^30 bytes (Storage Pricing docs and the pricing page, \
                 usage-based tiers since 2025-10-31; 2026-10-10 copy), here per 10^9 bytes",
    },
    storage_products: &[StorageProduct::CoreweaveDfs],
    commitments: Commitments {
        kinds: &[Commitment::Resource],
        refused: &[
            (
                Commitment::SavingsPlan,
                "CoreWeave sells reserved capacity by contract, not a Savings Plan",
            ),
            (
                Commitment::SpendBased,
                "spend-based committed-use discounts are GCP's; on CoreWeave a reservation is \
                 capacity by contract",
            ),
        ],
        payments: &[Payment::NoUpfront, Payment::AllUpfront],
        payment_refused: "CoreWeave's contract terms are not published: choose monthly or upfront \
                          ({} is AWS's)",
        reserved_cluster_discount_pct: Fact {
            value: 30.0,
            source: "assumption: 30 % off on demand for a 1-year reservation; CoreWeave publishes \
                     only \"up to 60% discounts over our On-Demand prices for committed usage\" \
                     (pricing page, 2026-09-20 copy) and sets terms by contract",
        },
        rates: &[],
    },
    new_platform_instance: ("gd-8xh100ib-i128", "US-EAST-04"),
    no_spot: None,
};
