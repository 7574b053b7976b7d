//! Lambda (lambda.ai; each figure below with its source and the date it was read). It lists
//! the same price for an instance type in every region, sells no spot, and charges nothing
//! for data in or out.

use super::{
    CloudFacts, Commitments, DataPrice, DataUnit, DiscountField, EgressTable, Fact, Transfer,
};
use crate::model::egress::EgressTiers;
use crate::model::scenario::commitment::{Commitment, Payment};
use crate::model::storage::StorageProduct;

/// What Lambda says of data transfer.
const FREE_TRANSFER: &str = "Lambda: \"no egress fees\" on its pricing page (as transcribed \
     2026-09-20 in api-evangelist/lambda-labs at 1929382) and no charge for ingress or egress \
     of filesystems (docs.lambda.ai, billing, read 2026-12-07); SkyPilot prices Lambda's egress \
     at 0 (sky/clouds/lambda_cloud.py)";

/// Lambda.
pub const LAMBDA: CloudFacts = CloudFacts {
    id: "lambda",
    discount: DiscountField {
        path: "discounts.lambda_pct",
        label: "Negotiated discount, Lambda",
        doc: "% off Lambda list prices (a contract).",
        help: "Contract discount on every Lambda list price (compute).",
        knob: "discount_lambda",
        slider: "discount-lambda",
    },
    short: "Lambda",
    name: "Lambda",
    billing: Fact {
        value: (60, 60),
        source: "Lambda on-demand instances: \"bills in one-minute increments\" (docs.lambda.ai, \
                 billing, read 2026-12-07), \"with no minimum\" (Lambda's docs of 2024-10-18, \
                 cbrownstein-lambda/lambda-docs-mkdocs at 40f76be): a minute's the least billed; \
                 1-Click Clusters bill by the week (their rows' prices are per node-hour)",
    },
    spot_notice_s: Fact {
        value: 0.0,
        source: "Lambda sells no spot or preemptible instances (SkyPilot: \"Spot instances are \
                 not supported in Lambda\", sky/clouds/lambda_cloud.py; no spot price in its \
                 catalog)",
    },
    egress_usd_per_gb: Fact {
        value: 0.0,
        source: FREE_TRANSFER,
    },
    egress_free_gb_per_month: Fact {
        value: 0.0,
        source: "no allowance needed: Lambda charges no egress",
    },
    egress_tiers: EgressTable {
        tiers: EgressTiers::LambdaFree,
        key: "lambda_free",
        label: "Lambda: no egress charge",
        bands: &[(f64::INFINITY, 0.0)],
        unit: DataUnit::Gb,
        source: FREE_TRANSFER,
    },
    transfer: Transfer {
        internet: Fact {
            value: DataPrice {
                usd: 0.0,
                per: DataUnit::Gb,
            },
            source: FREE_TRANSFER,
        },
        inter_region: Fact {
            value: DataPrice {
                usd: 0.0,
                per: DataUnit::Gb,
            },
            source: "assumption: free, as all of Lambda's data transfer (its filesystems are \
                     region-locked: data moves between regions over the internet, uncharged)",
        },
        nat: Fact {
            value: DataPrice {
                usd: 0.0,
                per: DataUnit::Gb,
            },
            source: "Lambda's instances have public addresses: no NAT gateway is sold or charged",
        },
    },
    storage_usd_per_gb_month: Fact {
        value: 0.2 / 1.073_741_824,
        source: "Lambda has no object storage: its persistent filesystem, $0.20 per GiB-month of \
                 used capacity billed hourly (docs.lambda.ai, billing, read 2026-12-07; confirmed \
                 by a third-party read of 2026-09-27), here per GB",
    },
    storage_products: &[StorageProduct::LambdaFilesystem],
    commitments: Commitments {
        kinds: &[Commitment::Resource],
        refused: &[
            (
                Commitment::SavingsPlan,
                "Lambda sells reserved capacity (1-Click Clusters, Private Cloud), not a \
                 Savings Plan",
            ),
            (
                Commitment::SpendBased,
                "spend-based committed-use discounts are GCP's; Lambda sells reserved capacity",
            ),
        ],
        payments: &[Payment::NoUpfront, Payment::AllUpfront],
        payment_refused: "Lambda invoices reservations on approval or monthly ({} is AWS's)",
        reserved_cluster_discount_pct: Fact {
            value: 0.0,
            source: "Lambda's published reserved prices are its 1-Click Clusters' (2 weeks to a \
                     year: $6.16, $5.85 and $5.54 an H100-hour at 16, 64 and 256 GPUs, above \
                     on demand's $3.99; lambda.ai/pricing as quoted 2026-09-19), rows of the \
                     catalog; a reservation of an on-demand row gets no published discount \
                     (1 year and more: price on quote)",
        },
        rates: &[],
    },
    new_platform_instance: ("gpu_8x_h100_sxm5", "us-midwest-1"),
    no_spot: Some(
        "Lambda sells no spot or preemptible instances (SkyPilot's Lambda support refuses spot; \
         no spot price in its catalog): choose on demand, or a 1-Click Cluster's reserved nodes",
    ),
};
