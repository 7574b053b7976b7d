//! Microsoft Azure (each figure below with its source and the date it was read). Azure bills
//! data per GB.

use super::{
    CloudFacts, CommitmentRate, Commitments, DataPrice, DataUnit, DiscountField, EgressTable, Fact,
    Transfer,
};
use crate::model::egress::EgressTiers;
use crate::model::scenario::commitment::{Commitment, Payment};
use crate::model::storage::StorageProduct;

/// Microsoft Azure.
pub const AZURE: CloudFacts = CloudFacts {
    id: "azure",
    discount: DiscountField {
        path: "discounts.azure_pct",
        label: "Negotiated discount, Azure",
        doc: "% off Azure list prices (enterprise agreements, MACC).",
        help: "Enterprise discount on every Azure list price (compute), on top of Spot and reservation pricing.",
        knob: "discount_azure",
        slider: "discount-azure",
    },
    short: "Azure",
    name: "Azure",
    billing: Fact {
        value: (1, 60),
        source: "per second with a 60 s minimum: third-party FinOps guides (hub.pointfive.co, read \
                 2026-12-07); Microsoft's own pricing FAQ was not read, an older one billed whole \
                 minutes, and a 2025-04-21 Microsoft Q&A answer by a community member reports a \
                 300 s minimum from 2025-06-01 that no Microsoft page confirmed: set \
                 billing.minimum_s to 300 to see it",
    },
    spot_notice_s: Fact {
        value: 30.0,
        source: "Azure Spot VMs docs (azure-compute-docs spot-vms.md, 2024-08-05, read 2026-12-07): \
                 \"evict Azure Spot Virtual Machines with 30-seconds notice\" through the \
                 Scheduled Events Preempt event, best effort; evicted when Azure needs the \
                 capacity or the price passes the max price set (-1: capacity only)",
    },
    egress_usd_per_gb: Fact {
        value: 0.087,
        source: "Azure internet egress from North America over Microsoft's network: $0.087/GB after \
                 100 GB a month free (Azure Retail Prices API, eastus, as captured 2026-07-21 in \
                 jcvib/tco-calculator at f43c7a9; Microsoft Tech Community, 2025-09-05)",
    },
    egress_free_gb_per_month: Fact {
        value: 100.0,
        source: "Azure internet egress: the first 100 GB a month free (Azure Retail Prices API, \
                 eastus, as captured 2026-07-21)",
    },
    egress_tiers: EgressTable {
        tiers: EgressTiers::AzureInternet,
        key: "azure_internet",
        label: "Azure tiers, per GB",
        bands: &[
            (10_340.0, 0.087),
            (51_300.0, 0.083),
            (153_700.0, 0.07),
            (f64::INFINITY, 0.05),
        ],
        unit: DataUnit::Gb,
        source: "Azure internet egress from North America, Microsoft premium global network routing: \
                 100 GB a month free, then $0.087/GB for the next 10 TB, $0.083 the next 40 TB, \
                 $0.07 the next 100 TB, $0.05 beyond (the page says \"contact us\" over 500 TB) \
                 (Azure Retail Prices API, eastus, as captured 2026-07-21 in \
                 jcvib/tco-calculator at f43c7a9). A TB of the tiers is 1,024 GB; whether a \
                 billed GB is 10^9 or 2^30 bytes is not stated: 10^9 here (assumption)",
    },
    transfer: Transfer {
        internet: Fact {
            value: DataPrice { usd: 0.087, per: DataUnit::Gb },
            source: "Azure internet egress from North America over Microsoft's network: $0.087/GB after \
                 100 GB a month free (Azure Retail Prices API, eastus, as captured 2026-07-21 in \
                 jcvib/tco-calculator at f43c7a9; Microsoft Tech Community, 2025-09-05)",
        },
        inter_region: Fact {
            value: DataPrice { usd: 0.02, per: DataUnit::Gb },
            source: "assumption: $0.02/GB between two North American regions, from third-party guides \
                 (lucidity.cloud, read 2026-12-07) and the first Zone 1 transfer meter of the \
                 same 2026-07-21 price capture; Microsoft's bandwidth page was not read",
        },
        nat: Fact {
            value: DataPrice { usd: 0.045, per: DataUnit::Gb },
            source: "Azure NAT Gateway data processing, $0.045/GB (CU Boulder Research Computing's Azure \
                 cost notes, ResearchComputing/Documentation, read 2026-12-07: a secondary \
                 source; the gateway's $0.045/h is not counted)",
        },
    },
    storage_usd_per_gb_month: Fact {
        value: 0.0184,
        source: "assumption: Blob Storage hot tier, LRS, East US, first 50 TB, $0.0184/GB-month \
                 (a third-party calculator quoting Microsoft's rates of 2023-Q3, read \
                 2026-12-07; no Microsoft price page read)",
    },
    storage_products: &[
        StorageProduct::AmlfsPremium40,
        StorageProduct::AmlfsPremium125,
        StorageProduct::AmlfsPremium250,
        StorageProduct::AmlfsPremium500,
        StorageProduct::AzureFilesPremium,
    ],
    commitments: Commitments {
        kinds: &[Commitment::Resource, Commitment::SavingsPlan],
        refused: &[(
            Commitment::SpendBased,
            "spend-based committed-use discounts are GCP's; on Azure choose a reservation or a \
             savings plan for compute",
        )],
        payments: &[Payment::NoUpfront, Payment::AllUpfront],
        payment_refused: "Azure reservations and savings plans are paid all upfront or monthly \
                          ({} is AWS's)",
        reserved_cluster_discount_pct: Fact {
            value: 36.0,
            source: "Azure Retail Prices API, 1-year reservation of Standard_ND96isr_H100_v5 in eastus: \
                 $551,221 for the term against $98.32 an hour on demand, 36.0 % off (read \
                 2026-09-27 in a public term-price catalog); the same 36 % for ND96amsr_A100_v4",
        },
        // Reservations only: no savings-plan price for these sizes could be read (Azure's
        // savings plan for compute is "up to 65 %" off, less than its reservations' "up to
        // 72 %"; azure-docs savings-plan-compute-overview.md, 2024-02-14).
        rates: &[
            rate(("Standard_ND96isr_H100_v5", "eastus"), 1, 551_221.0),
            rate(("Standard_ND96isr_H100_v5", "eastus"), 3, 1_134_310.0),
            rate(("Standard_ND96isr_H200_v5", "eastus2"), 1, 407_526.0),
            rate(("Standard_ND96isr_H200_v5", "eastus2"), 3, 1_109_592.0),
        ],
    },
    new_platform_instance: ("Standard_ND96isr_H100_v5", "eastus"),
    no_spot: None,
};

/// A reservation's price for the whole term, per VM, as the Azure Retail Prices API gives it
/// (`type` Reservation, `reservationTerm` 1 Year or 3 Years, `unitPrice` the term's total).
const fn rate(
    instance: (&'static str, &'static str),
    term_years: u32,
    term_usd: f64,
) -> CommitmentRate {
    CommitmentRate {
        instance,
        kind: Commitment::Resource,
        term_years,
        term_usd,
        source: "Azure Retail Prices API reservation prices (the term's total per VM), read \
                 2026-09-27 in a public term-price catalog; paid upfront or monthly at the same \
                 total (azure-docs save-compute-costs-reservations.md)",
    }
}
