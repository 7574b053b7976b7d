//! Amazon Web Services (reference data: ../shared/reference/platform_facts.md, dated per
//! figure below).

use super::{
    CloudFacts, Commitments, DataPrice, DataUnit, DiscountField, EgressTable, Fact, Transfer,
};
use crate::model::egress::EgressTiers;
use crate::model::scenario::commitment::{Commitment, Payment};
use crate::model::storage::StorageProduct;

/// AWS.
pub const AWS: CloudFacts = CloudFacts {
    id: "aws",
    discount: DiscountField {
        path: "discounts.aws_pct",
        label: "Negotiated discount, AWS",
        doc: "% off AWS list prices (enterprise agreements).",
        help: "Enterprise discount on every AWS list price (compute), on top of spot and reserved pricing.",
        knob: "discount_aws",
        slider: "discount-aws",
    },
    short: "AWS",
    name: "AWS",
    billing: Fact {
        value: (1, 60),
        source: "EC2 and Compute Engine: per second with a 60 s minimum (provider docs)",
    },
    spot_notice_s: Fact {
        value: 120.0,
        source: "AWS EC2 docs: 2-minute interruption notice",
    },
    egress_usd_per_gb: Fact {
        value: 0.09,
        source: "AWS internet egress us-east-1: $0.09/GB after 100 GB/month free (2026)",
    },
    egress_free_gb_per_month: Fact {
        value: 100.0,
        source: "AWS internet egress us-east-1: $0.09/GB after 100 GB/month free (2026)",
    },
    // Aggregated across services: first 100 GB a month free, then $0.09/GB up to 10 TB,
    // $0.085 the next 40 TB, $0.07 the next 100 TB, $0.05 over 150 TB. The bounds are in the
    // Price List's GB: 10 TB = 10,240 GB.
    egress_tiers: EgressTable {
        tiers: EgressTiers::AwsInternet,
        key: "aws_internet",
        label: "AWS tiers, per GB",
        bands: &[
            (10_240.0, 0.09),
            (51_200.0, 0.085),
            (153_600.0, 0.07),
            (f64::INFINITY, 0.05),
        ],
        unit: DataUnit::Gb,
        source: "AWS internet egress, us-east-1, aggregated across services: 100 GB a month free, \
                 then $0.09/GB to 10 TB, $0.085 the next 40 TB, $0.07 the next 100 TB, $0.05 \
                 over 150 TB (platform_facts.md, 2026-06)",
    },
    transfer: Transfer {
        internet: Fact {
            value: DataPrice { usd: 0.09, per: DataUnit::Gb },
            source: "AWS internet egress, first tier, $0.09/GB (platform_facts.md, 2026-06)",
        },
        inter_region: Fact {
            value: DataPrice { usd: 0.02, per: DataUnit::Gb },
            source: "AWS inter-region transfer between US regions, $0.02/GB (third-party pages \
                     cited in platform_facts.md, \"Network transfer\", 2026-06)",
        },
        nat: Fact {
            value: DataPrice { usd: 0.045, per: DataUnit::Gb },
            source: "AWS NAT gateway data processing, $0.045/GB (aws.amazon.com/vpc/pricing, \
                     as captured 2026-09-20; platform_facts.md)",
        },
    },
    storage_usd_per_gb_month: Fact {
        value: 0.023,
        source: "S3 Standard us-east-1 $0.023/GB-month",
    },
    storage_products: &[
        StorageProduct::FsxLustreScratch2,
        StorageProduct::FsxLustrePersistent125,
        StorageProduct::FsxLustrePersistent250,
        StorageProduct::FsxLustrePersistent500,
        StorageProduct::FsxLustrePersistent1000,
        StorageProduct::FsxLustreHdd12,
        StorageProduct::FsxLustreHdd40,
        StorageProduct::EfsElastic,
    ],
    // Reserved Instances and Savings Plans (EC2 Instance, Compute, SageMaker): 1 or 3 years,
    // all, partial or no upfront (platform_facts.md, "Commitments", 2026).
    commitments: Commitments {
        kinds: &[Commitment::Resource, Commitment::SavingsPlan],
        refused: &[(
            Commitment::SpendBased,
            "spend-based committed-use discounts are GCP's; on AWS choose a Reserved Instance \
             or a Savings Plan",
        )],
        payments: &[Payment::NoUpfront, Payment::PartialUpfront, Payment::AllUpfront],
        payment_refused: "",
        reserved_cluster_discount_pct: Fact {
            value: 37.0,
            source: "assumption: GCP's 1-year resource CUD for A2/G2 (37 % off); AWS 1-year \
                     Reserved Instance and Savings Plan discounts on GPU instances vary by \
                     instance and payment (up to about 72 % over 3 years, platform_facts.md)",
        },
        rates: &[],
    },
    new_platform_instance: ("p4d.24xlarge", "us-east-1"),
    no_spot: None,
};
