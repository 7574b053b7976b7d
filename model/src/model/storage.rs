//! Where a platform's jobs read their data from before they compute (data staging), what
//! throughput that storage gives, and what it costs as the product bills it.
//!
//! Off by default: a platform without `staging` reads its data in no time, as before. With a
//! storage product, each attempt's `data_read_gb_per_attempt` is read by the job's nodes in
//! parallel (each node its share) after its image pull, at min(the node's limit, the
//! storage's throughput ÷ the nodes reading at that moment), recomputed as reads come and go
//! ([`crate::model::sim`]'s shared reads). The GPU time held while reading is its own cost
//! category, data staging.
//!
//! A file system is billed on its provisioned capacity, rounded up to the product's steps,
//! and its throughput follows that capacity (FSx for Lustre per TiB at the tier chosen,
//! Filestore by capacity band); EFS bills storage and each GB read. Object storage read
//! directly bills nothing here (the bucket is the platform's `storage_gb`) and its aggregate
//! throughput has no limit but the nodes'. Prices are list prices in us-east-1 and
//! us-central1; each product's row cites its page and date ([`StorageProduct::terms`]).

use super::scenario::Cloud;
use serde::{Deserialize, Serialize};

/// GB in a GiB.
const GB_PER_GIB: f64 = 1.073_741_824;
/// GB/s in a MiB/s.
const GB_PER_S_PER_MIB_PER_S: f64 = 1_048_576.0 / 1e9;

/// The storage jobs stage their data from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StorageProduct {
    /// No staging: reads take no time (the default, as before staging was modelled).
    #[default]
    None,
    /// S3 or Cloud Storage read directly: no aggregate limit, nodes at their own.
    ObjectStore,
    /// FSx for Lustre Scratch 2 (SSD, 200 MB/s per TiB).
    #[serde(rename = "fsx_lustre_scratch_2")]
    FsxLustreScratch2,
    /// FSx for Lustre Persistent 2 SSD at 125 MB/s per TiB.
    #[serde(rename = "fsx_lustre_persistent_125")]
    FsxLustrePersistent125,
    /// FSx for Lustre Persistent 2 SSD at 250 MB/s per TiB.
    #[serde(rename = "fsx_lustre_persistent_250")]
    FsxLustrePersistent250,
    /// FSx for Lustre Persistent 2 SSD at 500 MB/s per TiB.
    #[serde(rename = "fsx_lustre_persistent_500")]
    FsxLustrePersistent500,
    /// FSx for Lustre Persistent 2 SSD at 1,000 MB/s per TiB.
    #[serde(rename = "fsx_lustre_persistent_1000")]
    FsxLustrePersistent1000,
    /// FSx for Lustre Persistent 1 HDD at 12 MB/s per TiB.
    #[serde(rename = "fsx_lustre_hdd_12")]
    FsxLustreHdd12,
    /// FSx for Lustre Persistent 1 HDD at 40 MB/s per TiB.
    #[serde(rename = "fsx_lustre_hdd_40")]
    FsxLustreHdd40,
    /// Amazon EFS, Standard storage with Elastic throughput (each GB read billed).
    EfsElastic,
    /// Filestore Basic HDD.
    FilestoreBasicHdd,
    /// Filestore Basic SSD.
    FilestoreBasicSsd,
    /// Filestore Zonal.
    FilestoreZonal,
    /// Azure Managed Lustre, Durable Premium at 40 MB/s per TiB.
    #[serde(rename = "amlfs_premium_40")]
    AmlfsPremium40,
    /// Azure Managed Lustre, Durable Premium at 125 MB/s per TiB.
    #[serde(rename = "amlfs_premium_125")]
    AmlfsPremium125,
    /// Azure Managed Lustre, Durable Premium at 250 MB/s per TiB.
    #[serde(rename = "amlfs_premium_250")]
    AmlfsPremium250,
    /// Azure Managed Lustre, Durable Premium at 500 MB/s per TiB.
    #[serde(rename = "amlfs_premium_500")]
    AmlfsPremium500,
    /// Azure Files Premium (SSD, provisioned).
    AzureFilesPremium,
    /// CoreWeave Distributed File Storage.
    CoreweaveDfs,
    /// Lambda's persistent filesystem.
    LambdaFilesystem,
    /// Nebius Shared Filesystem.
    NebiusSharedFs,
}

/// How a product bills and what throughput its capacity buys. Capacities are in GiB, as
/// the products are sized (FSx for Lustre's "1.2 TiB" is 1,200 GiB).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProductTerms {
    /// Its key in a scenario document and its name in the page.
    pub key: &'static str,
    pub name: &'static str,
    /// Smallest capacity, GiB.
    pub minimum_gib: f64,
    /// Capacities above the minimum are multiples of this, GiB (0: any): FSx for Lustre SSD
    /// is 1.2 TiB, 2.4 TiB, then steps of 2.4 TiB.
    pub step_gib: f64,
    /// Capacity price, USD per GiB-month.
    pub usd_per_gib_month: f64,
    /// Each GB read, USD (EFS Elastic throughput).
    pub usd_per_gb_read: f64,
    /// Read throughput per 1,000 GiB of capacity, GB/s (FSx for Lustre's "per TiB", as AWS
    /// counts its sizes), or per 1,024 GiB where `per_tib_is_1024` (Filestore).
    pub gb_per_s_per_tib: f64,
    pub per_tib_is_1024: bool,
    /// Read throughput whatever the capacity, GB/s (infinite: no limit), where
    /// `gb_per_s_per_tib` is 0.
    pub flat_gb_per_s: f64,
    /// Where its figures come from, with dates; "assumption" where no price page was read.
    pub source: &'static str,
}

impl StorageProduct {
    /// Every product, in the page's order.
    pub const ALL: [StorageProduct; 21] = [
        StorageProduct::None,
        StorageProduct::ObjectStore,
        StorageProduct::FsxLustreScratch2,
        StorageProduct::FsxLustrePersistent125,
        StorageProduct::FsxLustrePersistent250,
        StorageProduct::FsxLustrePersistent500,
        StorageProduct::FsxLustrePersistent1000,
        StorageProduct::FsxLustreHdd12,
        StorageProduct::FsxLustreHdd40,
        StorageProduct::EfsElastic,
        StorageProduct::FilestoreBasicHdd,
        StorageProduct::FilestoreBasicSsd,
        StorageProduct::FilestoreZonal,
        StorageProduct::AmlfsPremium40,
        StorageProduct::AmlfsPremium125,
        StorageProduct::AmlfsPremium250,
        StorageProduct::AmlfsPremium500,
        StorageProduct::AzureFilesPremium,
        StorageProduct::CoreweaveDfs,
        StorageProduct::LambdaFilesystem,
        StorageProduct::NebiusSharedFs,
    ];

    /// How it bills and what it gives.
    pub fn terms(self) -> ProductTerms {
        use StorageProduct as P;
        let base = ProductTerms {
            key: "",
            name: "",
            minimum_gib: 0.0,
            step_gib: 0.0,
            usd_per_gib_month: 0.0,
            usd_per_gb_read: 0.0,
            gb_per_s_per_tib: 0.0,
            per_tib_is_1024: false,
            flat_gb_per_s: f64::INFINITY,
            source: "",
        };
        let fsx =
            |key, name, usd: f64, mb_per_tib: f64, min: f64, step: f64, source| ProductTerms {
                key,
                name,
                minimum_gib: min,
                step_gib: step,
                usd_per_gib_month: usd,
                gb_per_s_per_tib: mb_per_tib / 1_000.0,
                flat_gb_per_s: 0.0,
                source,
                ..base
            };
        // Azure Managed Lustre: billed per GiB of capacity in `step_tib` steps, which is also
        // its smallest size; throughput per TiB of 1,024 GiB.
        let amlfs = |key, name, usd: f64, mb_per_tib: f64, step_tib: f64, source| ProductTerms {
            key,
            name,
            minimum_gib: step_tib * 1_024.0,
            step_gib: step_tib * 1_024.0,
            usd_per_gib_month: usd,
            gb_per_s_per_tib: mb_per_tib / 1_000.0,
            per_tib_is_1024: true,
            flat_gb_per_s: 0.0,
            source,
            ..base
        };
        match self {
            P::None => ProductTerms {
                key: "none",
                name: "None: reads take no time",
                ..base
            },
            P::ObjectStore => ProductTerms {
                key: "object_store",
                name: "S3 / Cloud Storage / Blob read directly",
                source: "S3: at least 5,500 GETs per second per prefix and no limit on prefixes, up to 100 Gb/s to one instance (Amazon S3 Developer Guide, optimizing performance, 2021); Cloud Storage buckets autoscale reads (cloud.google.com/storage/docs/request-rate, 2026): no aggregate limit here, the bucket priced as the platform's storage",
                ..base
            },
            P::FsxLustreScratch2 => fsx("fsx_lustre_scratch_2", "FSx for Lustre Scratch 2, 200 MB/s per TiB", 0.140, 200.0, 1_200.0, 2_400.0,
                "$0.140/GB-month us-east-1 (learning-aws.readthedocs.io pricing notes; reference/platform_facts.md, 2026); throughput and sizes: AWS FSx for Lustre User Guide (2022-10-04)"),
            P::FsxLustrePersistent125 => fsx("fsx_lustre_persistent_125", "FSx for Lustre Persistent 2, 125 MB/s per TiB", 0.145, 125.0, 1_200.0, 2_400.0,
                "$0.145/GB-month us-east-1 (c3x.dev FSx for Lustre resource page; reference/platform_facts.md, 2026); throughput and sizes: AWS FSx for Lustre User Guide (2022-10-04)"),
            P::FsxLustrePersistent250 => fsx("fsx_lustre_persistent_250", "FSx for Lustre Persistent 2, 250 MB/s per TiB", 0.215, 250.0, 1_200.0, 2_400.0,
                "derived: Tokyo's hourly price for 1.2 TiB ($0.46/h, DevelopersIO 2022-09-03) × us-east-1 ÷ Tokyo of the 125 tier ($0.145 ÷ $0.189): an estimate, the us-east-1 price page was not read; throughput: AWS FSx for Lustre User Guide (2022-10-04)"),
            P::FsxLustrePersistent500 => fsx("fsx_lustre_persistent_500", "FSx for Lustre Persistent 2, 500 MB/s per TiB", 0.359, 500.0, 1_200.0, 2_400.0,
                "derived: Tokyo's hourly price for 1.2 TiB ($0.77/h, DevelopersIO 2022-09-03) × us-east-1 ÷ Tokyo of the 125 tier ($0.145 ÷ $0.189): an estimate, the us-east-1 price page was not read; throughput: AWS FSx for Lustre User Guide (2022-10-04)"),
            P::FsxLustrePersistent1000 => fsx("fsx_lustre_persistent_1000", "FSx for Lustre Persistent 2, 1,000 MB/s per TiB", 0.650, 1_000.0, 1_200.0, 2_400.0,
                "derived: Tokyo's hourly price for 1.2 TiB ($1.39/h, DevelopersIO 2022-09-03) × us-east-1 ÷ Tokyo of the 125 tier ($0.145 ÷ $0.189): an estimate, the us-east-1 price page was not read; throughput: AWS FSx for Lustre User Guide (2022-10-04)"),
            P::FsxLustreHdd12 => fsx("fsx_lustre_hdd_12", "FSx for Lustre Persistent 1 HDD, 12 MB/s per TiB", 0.025, 12.0, 6_000.0, 6_000.0,
                "price: assumption ($0.025/GB-month, no price page read); throughput and 6 TiB steps: AWS FSx for Lustre User Guide (2022-10-04)"),
            P::FsxLustreHdd40 => fsx("fsx_lustre_hdd_40", "FSx for Lustre Persistent 1 HDD, 40 MB/s per TiB", 0.083, 40.0, 1_800.0, 1_800.0,
                "price: assumption ($0.083/GB-month, no price page read); throughput and 1.8 TiB steps: AWS FSx for Lustre User Guide (2022-10-04)"),
            P::EfsElastic => ProductTerms {
                key: "efs_elastic",
                name: "EFS Standard, Elastic throughput",
                usd_per_gib_month: 0.30,
                usd_per_gb_read: 0.03,
                flat_gb_per_s: 20.0 * GB_PER_GIB,
                source: "$0.30/GB-month Standard us-east-1 (aws.amazon.com/efs/pricing, 2026); Elastic reads $0.03/GB (factualminds EFS pricing guide, 2026-06-13); 20 GiB/s of reads per file system, the low end of 20–60 GiB/s by region, and 1,500 MiB/s per client (EFS User Guide, performance, 2026)",
                ..base
            },
            P::FilestoreBasicHdd => ProductTerms {
                key: "filestore_basic_hdd",
                name: "Filestore Basic HDD",
                minimum_gib: 1_024.0,
                usd_per_gib_month: 0.20,
                flat_gb_per_s: 100.0 * GB_PER_S_PER_MIB_PER_S,
                source: "$0.000274/GiB-hour ≈ $0.20/GiB-month (cloud.google.com/filestore/pricing, its worked example, us-west1, 2026); 100 MiB/s of reads from 1 to 10 TiB, 180 MiB/s beyond (a Filestore tiers guide, 2026: not Google's page); 1 TiB minimum",
                ..base
            },
            P::FilestoreBasicSsd => ProductTerms {
                key: "filestore_basic_ssd",
                name: "Filestore Basic SSD",
                minimum_gib: 2_560.0,
                usd_per_gib_month: 0.30,
                flat_gb_per_s: 1_200.0 * GB_PER_S_PER_MIB_PER_S,
                source: "price: assumption ($0.30/GiB-month, no price page read); 1,200 MiB/s of reads (a Filestore tiers guide, 2026: not Google's page); 2.5 TiB minimum",
                ..base
            },
            P::FilestoreZonal => ProductTerms {
                key: "filestore_zonal",
                name: "Filestore Zonal, 260 MiB/s per TiB",
                minimum_gib: 1_024.0,
                step_gib: 256.0,
                usd_per_gib_month: 0.35,
                gb_per_s_per_tib: 260.0 * GB_PER_S_PER_MIB_PER_S,
                per_tib_is_1024: true,
                flat_gb_per_s: 0.0,
                source: "price: assumption ($0.35/GiB-month, no price page read); 260 MiB/s of reads per TiB, 1 TiB minimum in 256 GiB steps to 9.75 TiB (docs.cloud.google.com/filestore/docs/service-tiers-zonal, 2026)",
                ..base
            },
            // Azure Managed Lustre sizes in TiB of 1,024 GiB, and its throughput per TiB.
            P::AmlfsPremium40 => amlfs("amlfs_premium_40", "Azure Managed Lustre Premium, 40 MB/s per TiB", 0.1, 40.0, 48.0, "price: assumption ($0.10 a GiB-month, about $102 a TiB-month: no Azure Managed Lustre price page or Retail Prices API reading could be read; set near FSx for Lustre's persistent SSD tiers); 40 MB/s per TiB, 48 TiB minimum and steps (Microsoft Learn, \"Create an Azure Managed Lustre file system by using Azure Resource Manager templates\", 2024-08-16, read 2026-12-07)"),
            P::AmlfsPremium125 => amlfs("amlfs_premium_125", "Azure Managed Lustre Premium, 125 MB/s per TiB", 0.2, 125.0, 16.0, "price: assumption ($0.20 a GiB-month, about $205 a TiB-month: no Azure Managed Lustre price page or Retail Prices API reading could be read; set near FSx for Lustre's persistent SSD tiers); 125 MB/s per TiB, 16 TiB minimum and steps (Microsoft Learn, \"Create an Azure Managed Lustre file system by using Azure Resource Manager templates\", 2024-08-16, read 2026-12-07)"),
            P::AmlfsPremium250 => amlfs("amlfs_premium_250", "Azure Managed Lustre Premium, 250 MB/s per TiB", 0.3, 250.0, 8.0, "price: assumption ($0.30 a GiB-month, about $307 a TiB-month: no Azure Managed Lustre price page or Retail Prices API reading could be read; set near FSx for Lustre's persistent SSD tiers); 250 MB/s per TiB, 8 TiB minimum and steps (Microsoft Learn, \"Create an Azure Managed Lustre file system by using Azure Resource Manager templates\", 2024-08-16, read 2026-12-07)"),
            P::AmlfsPremium500 => amlfs("amlfs_premium_500", "Azure Managed Lustre Premium, 500 MB/s per TiB", 0.45, 500.0, 4.0, "price: assumption ($0.45 a GiB-month, about $461 a TiB-month: no Azure Managed Lustre price page or Retail Prices API reading could be read; set near FSx for Lustre's persistent SSD tiers); 500 MB/s per TiB, 4 TiB minimum and steps (Microsoft Learn, \"Create an Azure Managed Lustre file system by using Azure Resource Manager templates\", 2024-08-16, read 2026-12-07)"),
            P::AzureFilesPremium => ProductTerms {
                key: "azure_files_premium",
                name: "Azure Files Premium (SSD)",
                minimum_gib: 100.0,
                usd_per_gib_month: 0.16,
                gb_per_s_per_tib: 61.44 * GB_PER_S_PER_MIB_PER_S,
                per_tib_is_1024: true,
                flat_gb_per_s: 0.0,
                source: "assumption: provisioned v1 at $0.16/GiB-month in East US, and reads (egress) of 0.06 MiB/s per provisioned GiB, 61.44 MiB/s per TiB (its base not counted), both from memory: no Azure Files price page was read; provisioned v1 sets throughput by capacity (learn.microsoft.com/azure/storage/files/understanding-billing, read 2026-12-07); 100 GiB minimum",
                ..base
            },
            P::CoreweaveDfs => ProductTerms {
                key: "coreweave_dfs",
                name: "CoreWeave Distributed File Storage",
                usd_per_gib_month: 0.07,
                source: "$0.07 a GB-month, its GB 2^30 bytes, on the capacity used (CoreWeave Storage Pricing docs and pricing page, 2026-10-10 copy); \"one GiB/s per GPU can be sustained when scaling up to hundreds of NVIDIA GPUs\" (CoreWeave's storage benchmark post, about 2025): no aggregate limit here, each node at its own read limit",
                ..base
            },
            P::LambdaFilesystem => ProductTerms {
                key: "lambda_filesystem",
                name: "Lambda persistent filesystem",
                usd_per_gib_month: 0.20,
                source: "$0.20 per GiB-month of used capacity, billed hourly, no minimum (docs.lambda.ai, billing, read 2026-12-07); throughput: not published, so no aggregate limit here, each node at its own read limit (an assumption: Lambda's docs advise copying hot data to local NVMe)",
                ..base
            },
            P::NebiusSharedFs => ProductTerms {
                key: "nebius_shared_fs",
                name: "Nebius Shared Filesystem, up to 100 GB/s",
                usd_per_gib_month: 0.08,
                flat_gb_per_s: 100.0,
                source: "$0.08 per GiB-month (nebius.com/prices as transcribed 2026-10-07 in api-evangelist/nebius at 37bdedf); \"up to 100 GBps … aggregated reads\" (Nebius's product page, a marketing figure: taken as the file system's limit whatever its size; no per-TiB figure was found)",
                ..base
            },
        }
    }

    /// Its JSON key.
    pub fn key(self) -> &'static str {
        self.terms().key
    }

    /// The cloud that sells it (`None`: every cloud's, object storage or no staging).
    pub fn cloud(self) -> Option<Cloud> {
        Cloud::selling(self)
    }
}

/// Where a platform's jobs stage their data from (absent: nowhere, reads take no time).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DataStaging {
    /// The storage product read from.
    pub storage: StorageProduct,
    /// Provisioned capacity of a file system, GiB (rounded up to the product's minimum and
    /// steps, as it bills); unused for object storage.
    pub capacity_gib: f64,
    /// The storage's read throughput, GB/s; 0: what the product's capacity buys.
    pub throughput_gb_per_s: f64,
    /// What one node reads at most, GB/s.
    pub node_read_gb_per_s: f64,
}

/// What one node reads at most unless set, GB/s: 10 Gbit/s, an assumption (a data loader
/// on one ENA/gVNIC interface; GPU instances' networks reach 100–3,200 Gbit/s, little of
/// which a reader of many small files uses).
pub const NODE_READ_GB_PER_S: f64 = 1.25;

impl Default for DataStaging {
    fn default() -> Self {
        DataStaging {
            storage: StorageProduct::None,
            capacity_gib: 0.0,
            throughput_gb_per_s: 0.0,
            node_read_gb_per_s: NODE_READ_GB_PER_S,
        }
    }
}

impl DataStaging {
    /// Whether this is the default (not written in a scenario document).
    pub fn is_default(&self) -> bool {
        *self == DataStaging::default()
    }

    /// Whether jobs stage their data (reads take time).
    pub fn stages(&self) -> bool {
        self.storage != StorageProduct::None
    }

    /// The capacity billed, GiB: the capacity asked for rounded up to the product's minimum
    /// and steps (nothing for object storage or no staging).
    pub fn billed_gib(&self) -> f64 {
        let t = self.storage.terms();
        if matches!(
            self.storage,
            StorageProduct::None | StorageProduct::ObjectStore
        ) {
            return 0.0;
        }
        if self.capacity_gib <= t.minimum_gib {
            return t.minimum_gib;
        }
        if t.step_gib <= 0.0 {
            return self.capacity_gib;
        }
        (self.capacity_gib / t.step_gib - 1e-9).ceil() * t.step_gib
    }

    /// The storage's read throughput, GB/s (infinite: no limit but the nodes').
    pub fn throughput_gb_per_s(&self) -> f64 {
        if self.throughput_gb_per_s > 0.0 {
            return self.throughput_gb_per_s;
        }
        let t = self.storage.terms();
        if t.gb_per_s_per_tib > 0.0 {
            let tib = if t.per_tib_is_1024 { 1_024.0 } else { 1_000.0 };
            t.gb_per_s_per_tib * self.billed_gib() / tib
        } else if self.storage == StorageProduct::FilestoreBasicHdd
            && self.billed_gib() >= 10.0 * 1_024.0
        {
            180.0 * GB_PER_S_PER_MIB_PER_S
        } else {
            t.flat_gb_per_s
        }
    }

    /// What the storage costs a month, USD, when jobs read `read_gb_per_month` from it.
    pub fn monthly_usd(&self, read_gb_per_month: f64) -> f64 {
        let t = self.storage.terms();
        self.billed_gib() * t.usd_per_gib_month + read_gb_per_month * t.usd_per_gb_read
    }
}

/// The staging model, for the method panel.
pub fn describe() -> &'static str {
    "Data staging (a platform's \"Data staged from\", off unless set): after its image pull, an \
     attempt's nodes read its class's data, each node an equal share, at min(the node's read \
     limit, the storage's throughput ÷ the nodes reading at that moment); the share is worked \
     out again whenever a read starts or ends (processor sharing, as a file system serves its \
     clients together), so 20 jobs reading 1 TB at once from 10 GB/s at 1 GB/s a node each \
     take 2,000 s. The GPU time held while reading is data staging; the job computes when its \
     read ends. Jobs sharing a node count as readers each. A platform's node pools are \
     simulated one after another, so only a pool's own nodes share the storage. The instant \
     estimate takes a read's time alone ÷ (1 − the storage's load). A file system is billed \
     on its capacity, rounded up to the product's minimum and steps, and its throughput \
     follows that capacity; EFS also bills each GB read. The storage-read slowdown still \
     applies to compute on top."
}

/// One line per storage product: its price, throughput, sizes and their sources.
pub fn product_lines() -> Vec<String> {
    StorageProduct::ALL[1..]
        .iter()
        .map(|product| {
            let t = product.terms();
            let cloud = product
                .cloud()
                .map_or(String::new(), |c| format!(" ({})", c.name()));
            format!("{}{}: {}.", t.name, cloud, t.source)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fsx_capacity_rounds_up_to_its_steps_and_buys_its_tier() {
        // 10,000 GiB of Persistent 2 at 250 MB/s per TiB: the next size of 1.2, 2.4, 4.8, …
        // TiB is 12,000 GiB, billed at $0.215, and 12 × 250 MB/s = 3 GB/s; 1,000 GiB is the
        // 1.2 TiB minimum, 2,000 GiB the 2.4 TiB size.
        let mut s = DataStaging {
            storage: StorageProduct::FsxLustrePersistent250,
            capacity_gib: 10_000.0,
            ..DataStaging::default()
        };
        assert_eq!(s.billed_gib(), 12_000.0);
        assert!((s.throughput_gb_per_s() - 3.0).abs() < 1e-12);
        assert!((s.monthly_usd(0.0) - 12_000.0 * 0.215).abs() < 1e-9);
        s.capacity_gib = 1_000.0;
        assert_eq!(s.billed_gib(), 1_200.0);
        s.capacity_gib = 2_000.0;
        assert_eq!(s.billed_gib(), 2_400.0);
        s.capacity_gib = 2_400.0;
        assert_eq!(s.billed_gib(), 2_400.0);
    }

    #[test]
    fn filestore_zonal_throughput_follows_capacity_and_efs_bills_reads() {
        // 2,000 GiB zonal: 1,024 + 4 × 256 = 2,048 GiB = 2 TiB, 520 MiB/s = 0.545 GB/s.
        let z = DataStaging {
            storage: StorageProduct::FilestoreZonal,
            capacity_gib: 2_000.0,
            ..DataStaging::default()
        };
        assert_eq!(z.billed_gib(), 2_048.0);
        assert!((z.throughput_gb_per_s() - 520.0 * 1_048_576.0 / 1e9).abs() < 1e-12);
        // EFS: 500 GiB stored and 10 TB read a month: $150 + $300.
        let e = DataStaging {
            storage: StorageProduct::EfsElastic,
            capacity_gib: 500.0,
            ..DataStaging::default()
        };
        assert!((e.monthly_usd(10_000.0) - 450.0).abs() < 1e-9);
        // An override replaces what the capacity buys; object storage bills nothing here.
        let o = DataStaging {
            storage: StorageProduct::ObjectStore,
            capacity_gib: 5_000.0,
            throughput_gb_per_s: 10.0,
            ..DataStaging::default()
        };
        assert_eq!(
            (o.billed_gib(), o.throughput_gb_per_s(), o.monthly_usd(1e6)),
            (0.0, 10.0, 0.0)
        );
    }

    #[test]
    fn the_page_choices_and_the_document_keys_are_the_products() {
        let choices = crate::model::scenario::fields::STORAGE_CHOICES;
        assert_eq!(choices.len(), StorageProduct::ALL.len());
        for (product, (key, label)) in StorageProduct::ALL.iter().zip(choices) {
            assert_eq!(product.key(), *key);
            assert_eq!(product.terms().name, *label);
            let json = serde_json::to_value(product).expect("a key");
            assert_eq!(json, serde_json::Value::String(key.to_string()));
        }
    }
}
