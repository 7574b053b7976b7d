//! Platform profiles: each orchestrator as a set of overridable defaults.
//!
//! The defaults every profile shares are set in [`Profile::platform_on`]: those that differ
//! by cloud come from the cloud's facts ([`crate::model::cloud`]), each with its source. Each
//! profile's own defaults are a list in a file of its own, each value next to its source
//! (the project's reference data, with the date and origin given in README.md "Price data";
//! a seed article; or "assumption" where no public figure was found), and are set through
//! the field table's rows. The UI shows each default with its source and lets the user
//! override it.

mod aks;
mod aws_batch;
mod azure_batch;
mod azure_ml;
mod cloud_run;
mod coreweave_cks;
mod coreweave_sunk;
mod cyclecloud_slurm;
mod eks;
mod gke_autopilot;
mod gke_standard;
pub mod hosted_api;
mod lambda_1cc;
mod lambda_on_demand;
mod nebius_mk8s;
mod nebius_soperator;
mod parallel_cluster;
mod reserved_cluster;
mod sagemaker;
mod setting;

use super::catalog::{self, InstanceType};
use super::cloud::Cloud;
use super::cloud::Fact;
use super::egress::EgressTiers;
use super::gpus;
use super::scaling::Interconnect;
use super::scenario::fields::{HOSTED_API_FIELDS, NODE_POOL_FIELDS, PLATFORM_FIELDS};
use super::scenario::node_pool::DEFAULT_POOL_NAME;
pub use super::scenario::Profile;
use super::scenario::{
    Billing, GpuSharing, NodePool, Placement, Platform, ProfileName, Purchase, Scheduler, Serving,
};
pub use sagemaker::sagemaker_premium_pct;
use serde::Serialize;
pub use setting::{Setting, Val};

/// What a profile is beyond the common defaults: one file per profile holds it.
#[derive(Debug, Clone)]
pub struct ProfileFacts {
    /// The instance and region a new platform starts on, where not its cloud's
    /// ([`CloudFacts::new_platform_instance`](super::cloud::CloudFacts::new_platform_instance)).
    pub new_platform_instance: Option<(&'static str, &'static str)>,
    /// The prefix of the instance types only this profile runs on (Cloud Run's).
    pub own_instances: Option<&'static str>,
    /// How it schedules work: what it can be asked for, and how its endpoints serve.
    pub scheduler: Scheduler,
    /// Whether its new platforms place a multi-node job's nodes together (one placement
    /// group or scale set), and why.
    pub places_nodes_together: Fact<bool>,
    /// How its endpoints scale, where not as Kubernetes does ([`Serving::KUBERNETES`]).
    pub serving: Option<Serving>,
    /// Its own defaults, each with its source, set in this order over the common ones.
    pub defaults: &'static [Setting],
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

/// A platform on its own: AWS Batch on p4d.24xlarge in us-east-1 (the profiles give every
/// default; this is the one a partial scenario document starts from).
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
    /// What it is beyond the common defaults.
    pub const fn facts(self) -> &'static ProfileFacts {
        match self {
            Profile::AwsBatch => &aws_batch::AWS_BATCH,
            Profile::Sagemaker => &sagemaker::SAGEMAKER,
            Profile::Eks => &eks::EKS,
            Profile::GkeAutopilot => &gke_autopilot::GKE_AUTOPILOT,
            Profile::GkeStandard => &gke_standard::GKE_STANDARD,
            Profile::ParallelCluster => &parallel_cluster::PARALLEL_CLUSTER,
            Profile::ReservedCluster => &reserved_cluster::RESERVED_CLUSTER,
            Profile::CloudRun => &cloud_run::CLOUD_RUN,
            Profile::Aks => &aks::AKS,
            Profile::AzureMl => &azure_ml::AZURE_ML,
            Profile::AzureBatch => &azure_batch::AZURE_BATCH,
            Profile::CycleCloudSlurm => &cyclecloud_slurm::CYCLECLOUD_SLURM,
            Profile::CoreweaveCks => &coreweave_cks::COREWEAVE_CKS,
            Profile::CoreweaveSunk => &coreweave_sunk::COREWEAVE_SUNK,
            Profile::LambdaOnDemand => &lambda_on_demand::LAMBDA_ON_DEMAND,
            Profile::Lambda1cc => &lambda_1cc::LAMBDA_1CC,
            Profile::NebiusMk8s => &nebius_mk8s::NEBIUS_MK8S,
            Profile::NebiusSoperator => &nebius_soperator::NEBIUS_SOPERATOR,
            Profile::HostedApi => &hosted_api::HOSTED_API,
        }
    }

    /// Whether the profile runs on `instance`: its cloud's instance types (any cloud's for a
    /// profile of none), and a profile with instances of its own (Cloud Run's `cloud-run-…`)
    /// only on those, which nothing else runs on.
    pub fn offers(self, instance: &InstanceType) -> bool {
        if self.is_hosted_api() {
            return false;
        }
        let owns = |p: Profile| {
            p.facts()
                .own_instances
                .is_some_and(|prefix| instance.name.starts_with(prefix))
        };
        let owned = Profile::ALL.into_iter().any(owns);
        self.cloud().is_none_or(|c| c == instance.cloud)
            && if owned {
                owns(self)
            } else {
                self.facts().own_instances.is_none()
            }
    }

    /// The instance and region a new platform of this profile starts on: its own, else its
    /// cloud's.
    pub fn new_platform_instance(self) -> (&'static str, &'static str) {
        match (self.facts().new_platform_instance, self.cloud()) {
            (Some(own), _) => own,
            (None, Some(cloud)) => cloud.facts().new_platform_instance,
            // A profile of no cloud names its instance (a test checks).
            (None, None) => Cloud::ALL[0].facts().new_platform_instance,
        }
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
    /// measured on `reference_gpu`: the common defaults below (each with its source in a
    /// comment, `[ref]` the project's reference data, `[seed NNN]` a seed article,
    /// `[assumption]` where no public figure exists; the field table's rows give the same
    /// sources as data), then the profile's own ([`ProfileFacts::defaults`]). Its cloud is
    /// the profile's, or the instance's for a profile of any cloud.
    pub fn platform_on(self, name: &str, instance: &InstanceType, reference_gpu: &str) -> Platform {
        let on_demand = instance.on_demand_usd_per_node_hour.unwrap_or(0.0);
        let cloud = self.cloud().unwrap_or(instance.cloud);
        let facts = cloud.facts();
        let mut pool = NodePool {
            name: DEFAULT_POOL_NAME.to_string(),
            instance_type: instance.name.clone(),
            gpus_per_node: instance.gpus_per_node,
            gpu_model: instance.gpu_model.clone(),
            gpu_memory_gb: instance.gpu_memory_gb,
            // [assumption] rough training-throughput ratios, the GPU table's (gpus.rs). A GPU
            // the table lacks gives none (NaN), which validation refuses by name: never an
            // A100's in silence (the page's edits refuse an unknown reference GPU first:
            // `workbench::edit::lists`).
            relative_throughput: gpus::relative_throughput(&instance.gpu_model, reference_gpu)
                .unwrap_or(f64::NAN),
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
        let (granularity_s, minimum_s) = facts.billing.value;
        let mut p = Platform {
            name: name.to_string(),
            profile: ProfileName::Known(self),
            cloud,
            node_pools: Vec::new(),
            class_pools: Default::default(),
            checkpoint_interval_min: Default::default(),
            service_settings: Default::default(),
            fee_usd_per_cluster_hour: 0.0,
            tooling_usd_per_month: 0.0,
            // [ref] the cloud's spot notice
            spot_notice_s: facts.spot_notice_s.value,
            // [assumption] GPU boot and driver init; [ref] "5–15 min to a running batch job"
            provisioning_median_s: 300.0,
            provisioning_p90_s: 600.0,
            // [assumption] capacity assumed available; raise it for scarce GPUs
            capacity_wait_mean_s: 0.0,
            // [ref] AWS ML blog: 15–20 GB images pull in 4–6 min ≈ 0.06 GB/s
            image_pull_gb_per_s: 0.06,
            // [ref] the cloud's billing: per second, 60 s minimum on EC2 and Compute Engine
            billing: Billing {
                granularity_s,
                minimum_s,
            },
            // [ref] Karpenter, Slurm and Batch pack nodes; [seed 001] gang scheduling (Volcano)
            placement: Placement::BinPack,
            gang_scheduling: true,
            // [seed 002] direct object-store reads +12 %
            storage_read_slowdown_pct: 12.0,
            // [assumption] 90 %; [seed 001] reports 78–92 % at 64 GPUs
            multi_node_efficiency: 0.9,
            // [ref] the cloud's first internet egress tier and free allowance
            egress_usd_per_gb: facts.egress_usd_per_gb.value,
            egress_free_gb_per_month: facts.egress_free_gb_per_month.value,
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
            // [ref] the cloud's object storage
            storage_usd_per_gb_month: facts.storage_usd_per_gb_month.value,
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
            hosted_api: None,
        };
        for setting in self.facts().defaults {
            let applied = setting.apply(&mut p, &mut pool, instance, facts);
            debug_assert!(applied, "{self:?}: {} is no field to set", setting.field);
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

    /// Where each default of this profile on `cloud` comes from: the field table's source of
    /// each platform field ([`PLATFORM_FIELDS`]) and node pool field ([`NODE_POOL_FIELDS`]:
    /// its path in a pool, which is also its path on a platform of one pool), where this
    /// profile sets it otherwise its own, in the tables' order.
    pub fn sources(self, cloud: Cloud) -> Vec<Sourced> {
        let own = self.facts().defaults;
        let rows = |path: &'static str, source: &super::scenario::fields::Source| {
            let source = own
                .iter()
                .find(|s| s.field == path)
                .map_or(*source, |s| s.source)
                .on(cloud)?;
            Some(Sourced {
                field: path,
                source,
            })
        };
        if self.is_hosted_api() {
            // Its prices, quota and stated latency; it has no nodes.
            return HOSTED_API_FIELDS
                .iter()
                .filter_map(|f| rows(f.path, &f.source))
                .collect();
        }
        let platform = PLATFORM_FIELDS.iter().map(|f| (f.path, f.source));
        let pool = NODE_POOL_FIELDS.iter().map(|f| (f.path, f.source));
        platform
            .chain(pool)
            .filter_map(|(path, source)| rows(path, &source))
            .collect()
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
    fn every_own_default_sets_a_field_of_its_kind() {
        for profile in Profile::ALL {
            // On each cloud it runs on, with that cloud's new-platform instance.
            let clouds = profile.cloud().map_or(Cloud::ALL.to_vec(), |c| vec![c]);
            for cloud in clouds {
                let (name, region) = cloud.facts().new_platform_instance;
                let instance = catalog::find(name, region).unwrap();
                for s in profile.facts().defaults {
                    let mut p = Platform::default();
                    let mut pool = p.node_pools[0].clone();
                    assert!(
                        s.apply(&mut p, &mut pool, instance, cloud.facts()),
                        "{profile:?} on {cloud:?}: {} is no platform or pool field of its kind",
                        s.field
                    );
                }
            }
            for cloud in Cloud::ALL {
                assert!(profile
                    .sources(cloud)
                    .iter()
                    .any(|s| s.field == "spot_notice_s"));
            }
        }
    }

    #[test]
    fn a_reserved_cluster_runs_on_any_cloud_and_takes_its_instance_s() {
        let g2 = catalog::find("a2-highgpu-8g", "us-central1").unwrap();
        let p4d = catalog::find("p4d.24xlarge", "us-east-1").unwrap();
        assert!(Profile::ReservedCluster.offers(g2) && Profile::ReservedCluster.offers(p4d));
        let on_gcp = Profile::ReservedCluster.platform_on("r", g2, "A100");
        assert_eq!(on_gcp.cloud, Cloud::Gcp);
        assert_eq!(on_gcp.spot_notice_s, 30.0);
        // Its reserved discount and its source are its cloud's.
        let discount = Cloud::Gcp.facts().commitments.reserved_cluster_discount_pct;
        assert_eq!(
            on_gcp.first_pool().purchase.reserved_discount_pct,
            discount.value
        );
        let sources = Profile::ReservedCluster.sources(Cloud::Gcp);
        let row = sources
            .iter()
            .find(|s| s.field == "purchase.reserved_discount_pct");
        assert_eq!(row.map(|s| s.source), Some(discount.source));
        assert_eq!(
            Profile::ReservedCluster.platform_on("r", p4d, "A100").cloud,
            Cloud::Aws
        );
    }

    #[test]
    fn every_profile_builds_a_valid_platform() {
        for profile in Profile::ALL {
            // The cloud's 8-GPU instance (Cloud Run's rules on a bigger node too).
            let instance = profile
                .cloud()
                .map_or(profile.new_platform_instance(), |c| {
                    c.facts().new_platform_instance
                });
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
