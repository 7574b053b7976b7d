//! Platform profiles: each orchestrator as a set of overridable defaults.
//!
//! Every default names its source: the project's reference data (`platform_facts` figures, with
//! the date and origin given in README.md "Price data"), a seed article, or "assumption" where
//! no public figure was found. The UI shows each default with its source and lets the user
//! override it.

use super::catalog::{self, InstanceType};
use super::egress::EgressTiers;
use super::scaling::Interconnect;
use super::scenario::fields::{NODE_POOL_FIELDS, PLATFORM_FIELDS};
use super::scenario::node_pool::DEFAULT_POOL_NAME;
pub use super::scenario::Profile;
use super::scenario::{
    Billing, Cloud, GpuSharing, NodePool, Overflow, Placement, Platform, ProfileName, Purchase,
};
use serde::Serialize;

/// A platform on its own: AWS Batch on p4d.24xlarge in us-east-1 (the profiles give every
/// default; this is the one a partial scenario document starts from).
/// SageMaker's premium on an instance, %: the ml.* price over the EC2 price of the same
/// instance where the reference data has both (us-west-2 SageMaker training prices from the
/// AWS Price List API, as embedded in a public script, against the EC2 catalog): +40 % on the
/// smallest g5 and g6, +25 % on the mid-sized, +15 % on a p4d; +15 % (the p4d's, the
/// smallest premium seen) where it has none.
pub fn sagemaker_premium_pct(instance_type: &str) -> f64 {
    match instance_type {
        "g5.xlarge" | "g6.xlarge" => 40.0,
        "g5.2xlarge" | "g5.4xlarge" | "g5.12xlarge" | "g6.12xlarge" | "p3.2xlarge" => 25.0,
        _ => 15.0,
    }
}

/// Hardware failures per GPU-hour derived from Meta's fleet: the Llama 3 405B pre-training
/// run had 419 unexpected interruptions in a 54-day snapshot on 16,384 H100 GPUs (2,048
/// eight-GPU hosts), about 78 % of them attributed to confirmed or suspected hardware issues
/// (Dubey et al., "The Llama 3 Herd of Models", arXiv:2407.21783, July 2024, §3.3.4 and
/// Table 5; read 2026-12-04): 419 × 0.78 ÷ (16,384 × 54 × 24) ≈ 1.5 × 10⁻⁵, about 1.2 × 10⁻⁴
/// per 8-GPU node-hour. One fleet's figure, on H100s in Meta's data centres: a cloud's nodes
/// may fail more or less often.
pub const META_FLEET_NODE_FAILURES_PER_GPU_HOUR: f64 = 419.0 * 0.78 / (16_384.0 * 54.0 * 24.0);

/// [`META_FLEET_NODE_FAILURES_PER_GPU_HOUR`] for a node of `gpus_per_node` GPUs, per node-hour.
pub fn meta_fleet_node_failures_per_node_hour(gpus_per_node: u32) -> f64 {
    META_FLEET_NODE_FAILURES_PER_GPU_HOUR * f64::from(gpus_per_node.max(1))
}

/// `platform` with every pool's nodes failing at the rate derived from Meta's fleet, as the
/// page's new platforms and the new presets have them.
pub fn failing_as_meta_fleet(mut platform: Platform) -> Platform {
    for pool in &mut platform.node_pools {
        pool.node_failures_per_node_hour =
            meta_fleet_node_failures_per_node_hour(pool.gpus_per_node);
    }
    platform
}

impl Default for Platform {
    fn default() -> Self {
        Profile::AwsBatch.platform("AWS Batch", "p4d.24xlarge", "us-east-1")
    }
}

/// A default value and where it comes from, for the method panel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sourced {
    /// Field path inside a platform.
    pub field: &'static str,
    /// Where the default comes from.
    pub source: &'static str,
}

impl Profile {
    /// Whether the profile runs on `instance`: its cloud's Compute Engine or EC2 types, and
    /// Cloud Run only on its own instances (`cloud-run-…`), which nothing else runs on.
    pub fn offers(self, instance: &InstanceType) -> bool {
        instance.cloud == self.cloud()
            && (self == Profile::CloudRun) == instance.name.starts_with("cloud-run-")
    }

    /// A platform named `name` with this profile's defaults on `instance_type` in `region`.
    ///
    /// # Panics
    /// Only if the compiled-in catalog lacks the instance type; callers pass catalog names
    /// (the presets are tested), and user input goes through [`Profile::platform_on`].
    pub fn platform(self, name: &str, instance_type: &str, region: &str) -> Platform {
        let instance = catalog::find(instance_type, region)
            .unwrap_or_else(|| panic!("{instance_type} in {region} is not in the catalog"));
        self.platform_on(name, instance, "A100")
    }

    /// A platform named `name` with this profile's defaults on `instance`, with durations
    /// measured on `reference_gpu`.
    ///
    /// Each default below carries its source in a comment: `[ref]` the project's reference
    /// data (platform facts and prices, dated in README.md "Price data"), `[seed NNN]` a seed
    /// article, `[assumption]` where no public figure exists. [`Profile::sources`] gives the
    /// same sources as data, which the page's method panel shows.
    pub fn platform_on(self, name: &str, instance: &InstanceType, reference_gpu: &str) -> Platform {
        let on_demand = instance.on_demand_usd_per_node_hour.unwrap_or(0.0);
        let cloud = self.cloud();
        let aws = cloud == Cloud::Aws;
        let mut pool = NodePool {
            name: DEFAULT_POOL_NAME.to_string(),
            instance_type: instance.name.clone(),
            gpus_per_node: instance.gpus_per_node,
            gpu_model: instance.gpu_model.clone(),
            gpu_memory_gb: instance.gpu_memory_gb,
            // [assumption] rough training-throughput ratios, see catalog::relative_throughput_vs_a100
            relative_throughput: catalog::relative_throughput(&instance.gpu_model, reference_gpu),
            on_demand_usd_per_node_hour: on_demand,
            // No spot quote: spot priced as on-demand, so choosing spot never looks free.
            spot_usd_per_node_hour: instance.spot_usd_per_node_hour.unwrap_or(on_demand),
            service_premium_pct: 0.0,
            purchase: Purchase::default(),
            // [assumption] MTBI 200 h: GPU pools sit in the Spot Advisor's ">20 %" band
            spot_interruptions_per_node_hour: 0.005,
            // Each spot node on its own clock unless a scenario sets reclaim waves (older
            // scenarios keep their numbers).
            spot_reclaims: Default::default(),
            // Nodes never fail unless a scenario says so (old scenarios keep their numbers);
            // the page's new platforms and new presets use META_FLEET_NODE_FAILURES_PER_GPU_HOUR.
            node_failures_per_node_hour: 0.0,
            // [seed 004] keep images on the node (disable image cleanup)
            image_cache: true,
            // [seed 004] a warm scale-down window; 10 min [assumption]
            warm_pool_window_s: 600.0,
            // [assumption] an account quota of 64 nodes
            max_nodes: 64,
            // Whole GPUs only unless a scenario shares them.
            gpu_sharing: GpuSharing::None,
        };
        let mut p = Platform {
            name: name.to_string(),
            profile: ProfileName::Known(self),
            cloud,
            node_pools: Vec::new(),
            class_pools: Default::default(),
            fee_usd_per_cluster_hour: 0.0,
            tooling_usd_per_month: 0.0,
            // [ref] AWS 2-minute notice; Compute Engine 30 s from soft to hard off
            spot_notice_s: if aws { 120.0 } else { 30.0 },
            // [assumption] GPU boot and driver init; [ref] "5–15 min to a running batch job"
            provisioning_median_s: 300.0,
            provisioning_p90_s: 600.0,
            // [assumption] capacity assumed available; raise it for scarce GPUs
            capacity_wait_mean_s: 0.0,
            // [ref] AWS ML blog: 15–20 GB images pull in 4–6 min ≈ 0.06 GB/s
            image_pull_gb_per_s: 0.06,
            // [ref] EC2 and Compute Engine: per second, 60 s minimum
            billing: Billing {
                granularity_s: 1,
                minimum_s: 60,
            },
            // [ref] Karpenter, Slurm and Batch pack nodes; [seed 001] gang scheduling (Volcano)
            placement: Placement::BinPack,
            gang_scheduling: true,
            // [seed 002] direct object-store reads +12 %
            storage_read_slowdown_pct: 12.0,
            // [assumption] 90 %; [seed 001] reports 78–92 % at 64 GPUs
            multi_node_efficiency: 0.9,
            // [ref] AWS $0.09/GB after 100 GB/month free; GCP Premium tier $0.12/GiB (0–1 TiB)
            egress_usd_per_gb: if aws { 0.09 } else { 0.12 },
            egress_free_gb_per_month: if aws { 100.0 } else { 0.0 },
            // No region unless a scenario sets one (older scenarios keep their numbers); the
            // page's new platforms take their instance's.
            region: String::new(),
            data_path: Default::default(),
            staging: Default::default(),
            // One price per GB unless a scenario asks for the published tiers (older
            // scenarios keep their numbers); the page's new platforms use the tiers.
            egress_tiers: EgressTiers::Flat,
            // The fixed efficiency above unless a scenario sets an interconnect (older
            // scenarios keep their numbers); the page's new platforms use their instance's.
            interconnect: Interconnect::Fixed,
            compact_placement: false,
            // [assumption] 2 TB of datasets and checkpoints
            storage_gb: 2_000.0,
            // [ref] S3 Standard $0.023; GCS Standard us-central1 $0.020 per GB-month
            storage_usd_per_gb_month: if aws { 0.023 } else { 0.020 },
            // [assumption] ¼ FTE
            ops_fte: 0.25,
            // Serving: the defaults of `Serving` unless a scenario sets them.
            serving: None,
            // One team, first come first served, unless a scenario sets them.
            teams: Vec::new(),
            preemption: Default::default(),
            // Nothing paid once unless a scenario says so.
            one_off: Default::default(),
            orchestration: Default::default(),
        };
        match self {
            Profile::AwsBatch => {}
            Profile::Sagemaker => {
                // [ref] the ml.* price over the EC2 price of the same instance
                pool.service_premium_pct = sagemaker_premium_pct(&instance.name);
                // [ref] SageMaker gives each training job whole instances of its own
                p.placement = Placement::Exclusive;
                p.provisioning_median_s = 360.0;
                p.provisioning_p90_s = 720.0;
                pool.image_cache = false;
                pool.warm_pool_window_s = 0.0;
                p.billing.minimum_s = 0;
                p.ops_fte = 0.1;
            }
            Profile::Eks => {
                // [ref] EKS standard support $0.10/cluster-hour; [seed 001] ½ FTE
                p.fee_usd_per_cluster_hour = 0.10;
                p.provisioning_median_s = 240.0;
                p.provisioning_p90_s = 480.0;
                pool.warm_pool_window_s = 300.0;
                p.ops_fte = 0.5;
            }
            Profile::GkeAutopilot => {
                // [ref] GKE management fee $0.10/cluster-hour; GPU pods on node price plus a
                // small premium (10 % [assumption]); spread and 0.1 FTE [assumption]
                p.fee_usd_per_cluster_hour = 0.10;
                pool.service_premium_pct = 10.0;
                p.placement = Placement::Spread;
                p.gang_scheduling = false;
                pool.warm_pool_window_s = 300.0;
                p.ops_fte = 0.1;
            }
            Profile::GkeStandard => {
                // [ref] GKE management fee $0.10/cluster-hour; ½ FTE like EKS [seed 001]
                p.fee_usd_per_cluster_hour = 0.10;
                p.provisioning_median_s = 240.0;
                p.provisioning_p90_s = 480.0;
                p.gang_scheduling = false;
                p.ops_fte = 0.5;
            }
            Profile::ParallelCluster => {
                // [assumption] an always-on head node ≈ $124/month; [ref] FSx for Lustre
                // ≈ $0.145/GB-month; [seed 002] parallel file system +1 %
                p.tooling_usd_per_month = 124.0;
                p.storage_read_slowdown_pct = 1.0;
                p.storage_usd_per_gb_month = 0.145;
                p.ops_fte = 0.5;
            }
            Profile::ReservedCluster => {
                // [ref] GCP 1-year resource CUD for A2/G2: 37 % off
                pool.purchase = Purchase {
                    reserved_share: 1.0,
                    reserved_discount_pct: 37.0,
                    overflow: Overflow::None,
                    ..Purchase::default()
                };
                p.provisioning_median_s = 0.0;
                p.provisioning_p90_s = 0.0;
                pool.warm_pool_window_s = 0.0;
                p.ops_fte = 0.5;
            }
            Profile::CloudRun => {
                // [ref] Cloud Run GPU docs: an instance with an L4 starts in about 5 s, one
                // GPU per instance, billed for the instance's whole life (per 100 ms);
                // [assumption] an idle instance lingers about 15 min before it is removed,
                // a quota of 10 GPU instances, image streaming at 0.2 GB/s, 0.05 FTE
                p.provisioning_median_s = 5.0;
                p.provisioning_p90_s = 10.0;
                p.image_pull_gb_per_s = 0.2;
                pool.image_cache = false;
                pool.warm_pool_window_s = 900.0;
                p.billing.minimum_s = 0;
                p.placement = Placement::Exclusive;
                p.gang_scheduling = false;
                pool.max_nodes = 10;
                p.ops_fte = 0.05;
            }
        }
        p.node_pools.push(pool);
        p
    }

    /// A pool of this profile's defaults on `instance`, named `name` (what adding a pool to
    /// a platform of this profile gives).
    pub fn pool_on(self, name: &str, instance: &InstanceType, reference_gpu: &str) -> NodePool {
        let mut pool = self
            .platform_on("", instance, reference_gpu)
            .node_pools
            .swap_remove(0);
        pool.name = name.to_string();
        pool
    }

    /// Where each default of this profile comes from: the field table's source of each
    /// platform field ([`PLATFORM_FIELDS`]) and node pool field ([`NODE_POOL_FIELDS`]: its
    /// path in a pool, which is also its path on a platform of one pool), where this profile
    /// sets it otherwise its own, in the tables' order.
    pub fn sources(self) -> Vec<Sourced> {
        let specific = self.own_sources();
        let rows = |path: &'static str, source: &super::scenario::fields::Source| {
            let source = specific
                .iter()
                .find(|s| s.field == path)
                .map(|s| s.source)
                .or_else(|| source.on(self.cloud()))?;
            Some(Sourced {
                field: path,
                source,
            })
        };
        let platform = PLATFORM_FIELDS.iter().map(|f| (f.path, f.source));
        let pool = NODE_POOL_FIELDS.iter().map(|f| (f.path, f.source));
        platform
            .chain(pool)
            .filter_map(|(path, source)| rows(path, &source))
            .collect()
    }

    /// The sources of the defaults this profile sets itself.
    fn own_sources(self) -> &'static [Sourced] {
        match self {
            Profile::AwsBatch => &[
                Sourced {
                    field: "fee_usd_per_cluster_hour",
                    source: "AWS Batch itself is free; you pay for EC2",
                },
                Sourced {
                    field: "warm_pool_window_s",
                    source: "seed 004: a warm scale-down window; 10 min assumed",
                },
                Sourced {
                    field: "ops_fte",
                    source: "assumption: ¼ FTE for a managed batch service",
                },
            ],
            Profile::Sagemaker => &[
                Sourced {
                    field: "service_premium_pct",
                    source: "ml.* over EC2 prices (AWS Price List API figures in a public script, us-west-2): ml.g5.xlarge and ml.g6.xlarge +40 %, ml.g5.2xlarge, 4xlarge, 12xlarge, ml.g6.12xlarge and ml.p3.2xlarge +25 %, ml.p4d.24xlarge +15 %; others assumed +15 %",
                },
                Sourced {
                    field: "placement",
                    source: "SageMaker gives each training job whole instances of its own",
                },
                Sourced {
                    field: "billing.minimum_s",
                    source: "SageMaker bills instance time per second (BillableTimeInSeconds)",
                },
                Sourced {
                    field: "image_cache",
                    source: "assumption: fresh instances per job, no warm pool",
                },
                Sourced {
                    field: "ops_fte",
                    source: "assumption: 0.1 FTE for a fully managed service",
                },
            ],
            Profile::Eks => &[
                Sourced {
                    field: "fee_usd_per_cluster_hour",
                    source: "EKS standard support: $0.10 per cluster-hour",
                },
                Sourced {
                    field: "ops_fte",
                    source: "seed 001: ½ FTE to run EKS",
                },
                Sourced {
                    field: "warm_pool_window_s",
                    source: "assumption: Karpenter consolidation after 5 min",
                },
            ],
            Profile::GkeAutopilot => &[
                Sourced {
                    field: "fee_usd_per_cluster_hour",
                    source: "GKE management fee: $0.10 per cluster-hour",
                },
                Sourced {
                    field: "service_premium_pct",
                    source: "GPU pods: node price plus a small Autopilot premium; 10 % assumed",
                },
                Sourced {
                    field: "placement",
                    source: "assumption: Autopilot provisions nodes per workload (spread)",
                },
                Sourced {
                    field: "ops_fte",
                    source: "assumption: 0.1 FTE",
                },
            ],
            Profile::GkeStandard => &[
                Sourced {
                    field: "fee_usd_per_cluster_hour",
                    source: "GKE management fee: $0.10 per cluster-hour",
                },
                Sourced {
                    field: "ops_fte",
                    source: "assumption: ½ FTE, like EKS (seed 001)",
                },
            ],
            Profile::ParallelCluster => &[
                Sourced {
                    field: "tooling_usd_per_month",
                    source: "assumption: an always-on head node, about $124/month",
                },
                Sourced {
                    field: "storage_usd_per_gb_month",
                    source: "FSx for Lustre persistent SSD ≈ $0.145/GB-month",
                },
                Sourced {
                    field: "storage_read_slowdown_pct",
                    source: "seed 002: parallel file system +1 %",
                },
                Sourced {
                    field: "ops_fte",
                    source: "assumption: ½ FTE for a self-run Slurm cluster",
                },
            ],
            Profile::ReservedCluster => &[
                Sourced {
                    field: "purchase.reserved_share",
                    source: "the whole reference cluster reserved, no overflow",
                },
                Sourced {
                    field: "ops_fte",
                    source: "assumption: ½ FTE",
                },
            ],
            Profile::CloudRun => &[
                Sourced {
                    field: "on_demand_usd_per_node_hour",
                    source: "an instance of 1 L4 + the required 4 vCPU and 16 GiB, instance-based billing, Tier 1: GPU $0.0001867/s (third-party summaries, 2025-06 and 2026-04: about $0.67/h; the official table not read: assumption) + vCPU $0.000018/s + memory $0.000002/GiB-s (cloud.google.com/run/pricing) = $1.0465/h",
                },
                Sourced {
                    field: "provisioning_median_s",
                    source: "Cloud Run GPU docs: an instance with an L4 and its drivers starts in about 5 s",
                },
                Sourced {
                    field: "warm_pool_window_s",
                    source: "assumption: an idle instance is kept about 15 min before it is removed (third-party reports)",
                },
                Sourced {
                    field: "max_nodes",
                    source: "assumption: a GPU quota of 10 instances (it is granted per project and region)",
                },
                Sourced {
                    field: "placement",
                    source: "Cloud Run GPU docs: one GPU per instance; a job gets an instance of its own",
                },
                Sourced {
                    field: "ops_fte",
                    source: "assumption: 0.05 FTE for a managed service",
                },
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cloud_run_runs_on_its_own_instances_and_nothing_else_does() {
        let run = catalog::find("cloud-run-l4", "us-central1").unwrap();
        let g2 = catalog::find("g2-standard-8", "us-central1").unwrap();
        let p4d = catalog::find("p4d.24xlarge", "us-east-1").unwrap();
        assert!(Profile::CloudRun.offers(run));
        assert!(!Profile::CloudRun.offers(g2) && !Profile::CloudRun.offers(p4d));
        assert!(!Profile::GkeStandard.offers(run) && Profile::GkeStandard.offers(g2));
        assert!(!Profile::GkeAutopilot.offers(p4d) && Profile::Eks.offers(p4d));
        // Every profile offers at least one priced instance.
        for p in Profile::ALL {
            assert!(catalog::catalog().iter().any(|r| p.offers(r)), "{p:?}");
        }
    }

    #[test]
    fn every_own_source_names_a_platform_field() {
        for profile in Profile::ALL {
            for s in profile.own_sources() {
                assert!(
                    PLATFORM_FIELDS.iter().any(|f| f.path == s.field)
                        || NODE_POOL_FIELDS.iter().any(|f| f.path == s.field),
                    "{profile:?}: {} is no platform or pool field",
                    s.field
                );
            }
            assert!(profile.sources().iter().any(|s| s.field == "spot_notice_s"));
        }
    }

    #[test]
    fn every_profile_builds_a_valid_platform() {
        for profile in Profile::ALL {
            let instance = if profile.cloud() == Cloud::Aws {
                ("p4d.24xlarge", "us-east-1")
            } else {
                ("a2-highgpu-8g", "us-central1")
            };
            let platform = profile.platform(profile.label(), instance.0, instance.1);
            let scenario = crate::model::scenario::Scenario {
                platforms: vec![platform],
                ..Default::default()
            };
            scenario
                .validate()
                .unwrap_or_else(|e| panic!("{profile:?}: {e}"));
            assert_eq!(Profile::from_id(profile.id()), Some(profile));
        }
    }
}
