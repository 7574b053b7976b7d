//! The edits the page makes to a scenario's lists: platforms added with a unique name on
//! their cloud's default instance, moved to another instance or reset to their profile's
//! defaults, and platforms and job classes added or removed within the limits. Each returns
//! whether it changed the scenario; none leaves it invalid where it was valid.

use crate::model::catalog::{self, InstanceType};
use crate::model::egress::EgressTiers;
use crate::model::platforms::{
    failing_as_meta_fleet, meta_fleet_node_failures_per_node_hour, Profile,
};
use crate::model::scaling::Interconnect;
use crate::model::scenario::node_pool::MAX_NODE_POOLS;
use crate::model::scenario::{limits, JobClass, Platform, Scenario};

/// The instance a new platform of `profile` starts on: its own where it has one (Cloud Run's
/// one-L4 instance), else its cloud's ([`CloudFacts::new_platform_instance`]: p4d.24xlarge in
/// us-east-1 on AWS, a2-highgpu-8g in us-central1 on GCP, both 8 × A100).
///
/// [`CloudFacts::new_platform_instance`]: crate::model::cloud::CloudFacts::new_platform_instance
pub fn default_instance(profile: Profile) -> Option<&'static InstanceType> {
    let (instance, region) = profile.new_platform_instance();
    catalog::find(instance, region)
}

/// Whether the GPU table has the scenario's reference GPU: the edits that give a platform or
/// a pool its profile's defaults need it for the relative throughput, and refuse (as
/// validation does, by name) rather than store none.
fn knows_reference_gpu(scenario: &Scenario) -> bool {
    crate::model::gpus::find(&scenario.reference_gpu).is_some()
}

/// `label`, or `label 2`, `label 3`, … : the first no platform of `scenario` is named.
pub fn unique_platform_name(scenario: &Scenario, label: &str) -> String {
    let taken = |name: &str| scenario.platforms.iter().any(|p| p.name == name);
    if !taken(label) {
        return label.to_string();
    }
    (2..)
        .map(|n| format!("{label} {n}"))
        .find(|name| !taken(name))
        .unwrap_or_default()
}

/// Adds a platform of `profile`, named after it, on its cloud's default instance (in that
/// instance's region); nothing when the scenario has the most platforms. Its nodes fail at
/// the rate derived from Meta's fleet ([`meta_fleet_node_failures_per_node_hour`]), as a
/// new pool's do, its egress is priced by its cloud's published tiers, and its scaling
/// follows its instance's interconnect: a scenario written before these keeps nodes that
/// never fail, flat egress and the fixed efficiency; a platform added now is realistic.
pub fn add_platform(scenario: &mut Scenario, profile: Profile) -> bool {
    if !knows_reference_gpu(scenario) {
        return false;
    }
    if scenario.platforms.len() >= limits::PLATFORMS_MAX {
        return false;
    }
    let Some(instance) = default_instance(profile) else {
        return false;
    };
    let name = unique_platform_name(scenario, profile.label());
    let platform = new_platform(profile, &name, instance, &scenario.reference_gpu);
    scenario.platforms.push(platform);
    true
}

/// The model a hosted API added to `scenario` is priced for: its first LLM service's, else
/// Llama 3.1 70B.
pub fn hosted_model(scenario: &Scenario) -> String {
    scenario
        .services
        .iter()
        .find_map(|s| s.llm.as_ref().map(|l| l.model.clone()))
        .unwrap_or_else(|| "llama-3.1-70b".to_string())
}

/// The providers that price [`hosted_model`] of `scenario`, in the price list's order.
pub fn hosted_providers(scenario: &Scenario) -> Vec<&'static str> {
    let model = hosted_model(scenario);
    let mut out: Vec<&'static str> = Vec::new();
    for offer in crate::model::hosted_api::prices::token_offers() {
        if offer.model == model && !out.contains(&offer.provider.as_str()) {
            out.push(offer.provider.as_str());
        }
    }
    out
}

/// Adds a hosted API of `provider` priced for [`hosted_model`], named after the provider,
/// billed per token at its list prices; nothing when the scenario has the most platforms or
/// the provider has no price for the model.
pub fn add_hosted_platform(scenario: &mut Scenario, provider: &str) -> bool {
    if scenario.platforms.len() >= limits::PLATFORMS_MAX {
        return false;
    }
    let label = crate::model::platforms::hosted_api::provider_label(provider);
    let name = unique_platform_name(scenario, label);
    let Some(platform) = Profile::hosted_platform(&name, provider, &hosted_model(scenario)) else {
        return false;
    };
    scenario.platforms.push(platform);
    true
}

/// A platform of `profile` named `name` on `instance`, as the page adds one (and the newer
/// presets build theirs): its profile's defaults, nodes failing as Meta's fleet did, its
/// cloud's egress tiers, its instance's interconnect and region, and its nodes placed together
/// where its profile places them.
pub fn new_platform(
    profile: Profile,
    name: &str,
    instance: &InstanceType,
    reference_gpu: &str,
) -> Platform {
    let mut platform = failing_as_meta_fleet(profile.platform_on(name, instance, reference_gpu));
    platform.egress_tiers = EgressTiers::of_cloud(platform.cloud);
    platform.interconnect = Interconnect::of_instance(&instance.name);
    platform.compact_placement = places_nodes_together(profile);
    platform.region = instance.region.clone();
    platform
}

/// Moves platform `index` onto catalog row `row`: its profile's defaults, its first pool on
/// that instance ([`set_pool_instance`]); keeping its name, its other pools and where its
/// classes run.
pub fn set_instance(scenario: &mut Scenario, index: usize, row: usize) -> bool {
    if !knows_reference_gpu(scenario) {
        return false;
    }
    let (Some(old), Some(instance)) = (scenario.platforms.get(index), catalog::catalog().get(row))
    else {
        return false;
    };
    let Some(profile) = old.profile.profile().filter(|p| p.offers(instance)) else {
        return false;
    };
    // A platform's pools share its cloud: one of several pools moves only within it.
    let moves_cloud = instance.cloud != old.cloud;
    if moves_cloud && old.node_pools.len() > 1 {
        return false;
    }
    let mut fresh = profile.platform_on(&old.name, instance, &scenario.reference_gpu);
    fresh.node_pools = old.node_pools.clone();
    fresh.class_pools = old.class_pools.clone();
    fresh.checkpoint_interval_min = old.checkpoint_interval_min.clone();
    fresh.service_settings = old.service_settings.clone();
    // How egress is priced and whether nodes are placed together are the platform's
    // choices, not the instance's; the interconnect follows the instance (below).
    fresh.egress_tiers = old.egress_tiers;
    fresh.interconnect = old.interconnect;
    fresh.compact_placement = old.compact_placement;
    fresh.region = old.region.clone();
    fresh.data_path = old.data_path;
    fresh.staging = old.staging.clone();
    if moves_cloud {
        // On another cloud (a reserved cluster's): its published tiers, its region where
        // the platform named one, and no storage the new cloud does not sell.
        if !old.egress_tiers.is_flat() {
            fresh.egress_tiers = EgressTiers::of_cloud(fresh.cloud);
        }
        if !old.region.is_empty() {
            fresh.region = instance.region.clone();
        }
        if fresh
            .staging
            .storage
            .cloud()
            .is_some_and(|c| c != fresh.cloud)
        {
            fresh.staging = Default::default();
        }
    }
    scenario.platforms[index] = fresh;
    set_pool_instance(scenario, index, 0, row)
}

/// Moves pool `pool` of platform `index` onto catalog row `row`: its profile's defaults for
/// that instance, keeping the pool's name, what it buys beyond the reservation, its
/// reserved share, and its node failure rate per GPU.
pub fn set_pool_instance(scenario: &mut Scenario, index: usize, pool: usize, row: usize) -> bool {
    if !knows_reference_gpu(scenario) {
        return false;
    }
    let (Some(platform), Some(instance)) =
        (scenario.platforms.get(index), catalog::catalog().get(row))
    else {
        return false;
    };
    let Some(old) = platform.node_pools.get(pool) else {
        return false;
    };
    let Some(profile) = pool_profile(platform, instance) else {
        return false;
    };
    let mut fresh = profile.pool_on(&old.name, instance, &scenario.reference_gpu);
    fresh.purchase.overflow = old.purchase.overflow;
    fresh.purchase.reserved_share = old.purchase.reserved_share;
    // Node failures keep their rate per GPU: a node of more GPUs fails more often.
    fresh.node_failures_per_node_hour = old.node_failures_per_node_hour
        / f64::from(old.gpus_per_node.max(1))
        * f64::from(fresh.gpus_per_node.max(1));
    let platform = &mut scenario.platforms[index];
    platform.node_pools[pool] = fresh;
    // The platform's interconnect is its first pool's instance's, where it uses the curve.
    if pool == 0 && !platform.interconnect.is_fixed() {
        platform.interconnect = Interconnect::of_instance(&instance.name);
    }
    // Its region too, where it has one: the nodes run where the instance is priced.
    if pool == 0 && !platform.region.is_empty() {
        platform.region = instance.region.clone();
    }
    true
}

/// The profile of `platform` where it offers `instance` on the platform's cloud (a platform's
/// pools share its cloud; moving its first pool's instance elsewhere is [`set_instance`]).
fn pool_profile(platform: &Platform, instance: &InstanceType) -> Option<Profile> {
    platform
        .profile
        .profile()
        .filter(|p| p.offers(instance) && instance.cloud == platform.cloud)
}

/// Whether new platforms of `profile` place a multi-node job's nodes together: its file says,
/// with why (SageMaker does, seed 001; ParallelCluster's configuration names a placement
/// group, seed 002); elsewhere it is a setting left off by default.
fn places_nodes_together(profile: Profile) -> bool {
    profile.facts().places_nodes_together.value
}

/// Adds a pool on catalog row `row` to platform `index`, with its profile's defaults and a
/// name of its own (its instance type's); false at [`MAX_NODE_POOLS`] pools or for an
/// instance its profile does not offer.
pub fn add_pool(scenario: &mut Scenario, index: usize, row: usize) -> bool {
    if !knows_reference_gpu(scenario) {
        return false;
    }
    let (Some(platform), Some(instance)) =
        (scenario.platforms.get(index), catalog::catalog().get(row))
    else {
        return false;
    };
    if platform.node_pools.len() >= MAX_NODE_POOLS {
        return false;
    }
    let Some(profile) = pool_profile(platform, instance) else {
        return false;
    };
    let mut name = instance.name.clone();
    let mut n = 2;
    while platform.pool_named(&name).is_some() {
        name = format!("{} {n}", instance.name);
        n += 1;
    }
    let mut pool = profile.pool_on(&name, instance, &scenario.reference_gpu);
    pool.node_failures_per_node_hour = meta_fleet_node_failures_per_node_hour(pool.gpus_per_node);
    scenario.platforms[index].node_pools.push(pool);
    true
}

/// Removes pool `pool` of platform `index`, keeping at least one; the classes mapped to it
/// go back to the cheapest pool that fits.
pub fn remove_pool(scenario: &mut Scenario, index: usize, pool: usize) -> bool {
    let Some(platform) = scenario.platforms.get_mut(index) else {
        return false;
    };
    if platform.node_pools.len() < 2 || pool >= platform.node_pools.len() {
        return false;
    }
    let name = platform.node_pools.remove(pool).name;
    platform.class_pools.retain(|_, p| *p != name);
    true
}

/// Runs job class or service `name` on pool `pool` of platform `index` (`None`: on the
/// cheapest pool that fits).
pub fn set_class_pool(
    scenario: &mut Scenario,
    index: usize,
    name: &str,
    pool: Option<usize>,
) -> bool {
    let Some(platform) = scenario.platforms.get_mut(index) else {
        return false;
    };
    match pool.and_then(|p| platform.node_pools.get(p)) {
        Some(p) => {
            let pool_name = p.name.clone();
            platform.class_pools.insert(name.to_string(), pool_name);
        }
        None if pool.is_none() => {
            platform.class_pools.remove(name);
        }
        None => return false,
    }
    true
}

/// The catalog row pool 0 of platform `index` holds ([`exact_pool_instance_row`]).
pub fn exact_instance_row(scenario: &Scenario, index: usize) -> Option<usize> {
    exact_pool_instance_row(scenario, index, 0)
}

/// The catalog row pool `pool` of platform `index` holds: its instance type at its
/// on-demand price (the same type is listed in several regions at other prices); `None` when
/// no row has both, e.g. after the price was edited.
pub fn exact_pool_instance_row(scenario: &Scenario, index: usize, pool: usize) -> Option<usize> {
    let p = scenario.platforms.get(index)?.node_pools.get(pool)?;
    catalog::catalog().iter().position(|r| {
        r.name == p.instance_type
            && r.on_demand_usd_per_node_hour == Some(p.on_demand_usd_per_node_hour)
    })
}

/// The catalog row pool `pool` of platform `index` was built from:
/// [`exact_pool_instance_row`], else the first row of its instance type.
pub fn pool_instance_row(scenario: &Scenario, index: usize, pool: usize) -> Option<usize> {
    let p = scenario.platforms.get(index)?.node_pools.get(pool)?;
    exact_pool_instance_row(scenario, index, pool).or_else(|| {
        catalog::catalog()
            .iter()
            .position(|r| r.name == p.instance_type)
    })
}

/// The catalog row platform `index`'s first pool was built from ([`pool_instance_row`]).
pub fn instance_row(scenario: &Scenario, index: usize) -> Option<usize> {
    pool_instance_row(scenario, index, 0)
}

/// Resets platform `index` to its profile's defaults on its instance type, keeping its name.
pub fn reset_platform(scenario: &mut Scenario, index: usize) -> bool {
    if !knows_reference_gpu(scenario) {
        return false;
    }
    let Some(old) = scenario.platforms.get(index) else {
        return false;
    };
    if let Some(api) = &old.hosted_api {
        // The provider's list prices and the stated defaults again, its name kept.
        let model = hosted_model(scenario);
        let Some(fresh) = Profile::hosted_platform(&old.name, &api.provider, &model) else {
            return false;
        };
        scenario.platforms[index] = fresh;
        return true;
    }
    let (Some(profile), Some(row)) = (old.profile.profile(), instance_row(scenario, index)) else {
        return false;
    };
    // Each pool back to its profile's defaults on its instance type, names kept.
    let rows: Vec<Option<usize>> = (0..old.node_pools.len())
        .map(|pool| pool_instance_row(scenario, index, pool))
        .collect();
    let names: Vec<String> = old.node_pools.iter().map(|p| p.name.clone()).collect();
    let class_pools = old.class_pools.clone();
    let instance = &catalog::catalog()[row];
    let mut fresh = profile.platform_on(&old.name, instance, &scenario.reference_gpu);
    fresh.node_pools.clear();
    for (name, at) in names.iter().zip(rows) {
        let instance = &catalog::catalog()[at.unwrap_or(row)];
        fresh
            .node_pools
            .push(profile.pool_on(name, instance, &scenario.reference_gpu));
    }
    fresh.class_pools = class_pools;
    fresh.checkpoint_interval_min = old.checkpoint_interval_min.clone();
    fresh.service_settings = old.service_settings.clone();
    scenario.platforms[index] = fresh;
    true
}

/// Removes platform `index`, keeping at least one.
pub fn remove_platform(scenario: &mut Scenario, index: usize) -> bool {
    if scenario.platforms.len() <= limits::PLATFORMS_MIN || index >= scenario.platforms.len() {
        return false;
    }
    scenario.platforms.remove(index);
    true
}

/// Adds a job class with the defaults, named `Job class N`, up to the limit (none beside a
/// hosted API, which runs no jobs).
pub fn add_job_class(scenario: &mut Scenario) -> bool {
    // A hosted API runs no jobs (validation says so by name).
    if scenario.job_classes.len() >= limits::JOB_CLASSES_MAX
        || scenario.platforms.iter().any(|p| !p.runs_nodes())
    {
        return false;
    }
    let n = scenario.job_classes.len() + 1;
    scenario.job_classes.push(JobClass {
        name: format!("Job class {n}"),
        ..JobClass::default()
    });
    true
}

/// Removes job class `index`, keeping at least one.
pub fn remove_job_class(scenario: &mut Scenario, index: usize) -> bool {
    if scenario.job_classes.len() <= 1 || index >= scenario.job_classes.len() {
        return false;
    }
    let name = scenario.job_classes.remove(index).name;
    for platform in &mut scenario.platforms {
        platform.checkpoint_interval_min.remove(&name);
    }
    true
}

/// Adds a service (the defaults, named by its place) up to the limit.
pub fn add_service(scenario: &mut Scenario) -> bool {
    if scenario.services.len() >= limits::SERVICES_MAX {
        return false;
    }
    let n = scenario.services.len() + 1;
    // Beside a hosted API, an LLM of the model it is priced for (it serves nothing else).
    let llm = scenario
        .platforms
        .iter()
        .any(|p| !p.runs_nodes())
        .then(|| scenario.services.iter().find_map(|s| s.llm.clone()))
        .flatten();
    scenario.services.push(crate::model::scenario::Service {
        name: format!("Service {n}"),
        llm,
        ..Default::default()
    });
    true
}

/// Removes service `index` (a scenario may have none).
pub fn remove_service(scenario: &mut Scenario, index: usize) -> bool {
    if index >= scenario.services.len() {
        return false;
    }
    let name = scenario.services.remove(index).name;
    for platform in &mut scenario.platforms {
        platform.service_settings.remove(&name);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::Cloud;

    #[test]
    fn an_unknown_reference_gpu_is_refused_not_stored_as_no_throughput() {
        let mut s = Scenario {
            reference_gpu: "B300".into(),
            ..Scenario::default()
        };
        let before = s.clone();
        assert!(!add_platform(&mut s, Profile::Eks));
        assert!(!add_pool(&mut s, 0, 0));
        assert!(!set_instance(&mut s, 0, 0));
        assert!(!reset_platform(&mut s, 0));
        assert_eq!(s, before);
    }

    #[test]
    fn a_reserved_cluster_moves_to_the_cloud_of_the_instance_picked() {
        let row = |name: &str, region: &str| {
            catalog::catalog()
                .iter()
                .position(|r| r.name == name && r.region == region)
                .unwrap()
        };
        let mut s = Scenario::default();
        assert!(add_platform(&mut s, Profile::ReservedCluster));
        let i = s.platforms.len() - 1;
        assert_eq!(s.platforms[i].cloud, Cloud::Aws);
        assert!(set_instance(&mut s, i, row("a2-highgpu-8g", "us-central1")));
        let p = &s.platforms[i];
        assert_eq!((p.cloud, p.spot_notice_s), (Cloud::Gcp, 30.0));
        assert_eq!(p.region, "us-central1");
        assert_eq!(p.egress_tiers, EgressTiers::GcpPremium);
        assert!(s.validate().is_ok());
        // Its pools share its cloud: an AWS pool is refused, and with two pools the first
        // moves only within the cloud.
        assert!(!add_pool(&mut s, i, row("p4d.24xlarge", "us-east-1")));
        assert!(add_pool(&mut s, i, row("g2-standard-4", "us-central1")));
        assert!(!set_instance(&mut s, i, row("p4d.24xlarge", "us-east-1")));
        assert!(set_instance(
            &mut s,
            i,
            row("a2-ultragpu-8g", "us-central1")
        ));
        assert!(s.validate().is_ok());
    }

    #[test]
    fn added_platforms_get_unique_names_on_their_clouds_default_instance_up_to_the_limit() {
        let mut s = Scenario::default();
        assert!(add_platform(&mut s, Profile::Eks));
        assert!(add_platform(&mut s, Profile::Eks));
        assert!(add_platform(&mut s, Profile::GkeAutopilot));
        let names: Vec<_> = s.platforms.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "AWS Batch",
                "EKS (Karpenter + Volcano)",
                "EKS (Karpenter + Volcano) 2",
                "GKE Autopilot"
            ]
        );
        assert_eq!(s.platforms[3].first_pool().instance_type, "a2-highgpu-8g");
        assert_eq!(s.platforms[3].cloud, Cloud::Gcp);
        assert!(s.validate().is_ok());
        for _ in s.platforms.len()..crate::model::scenario::limits::PLATFORMS_MAX {
            assert!(add_platform(&mut s, Profile::Aks));
        }
        assert!(s.validate().is_ok());
        assert!(!add_platform(&mut s, Profile::Eks), "six at most");
        assert!(remove_platform(&mut s, 1));
        assert_eq!(
            unique_platform_name(&s, "EKS (Karpenter + Volcano)"),
            "EKS (Karpenter + Volcano)"
        );
    }

    #[test]
    fn an_instance_change_keeps_name_and_purchase_and_a_reset_restores_the_profile() {
        let mut s = Scenario::default();
        s.platforms[0].first_pool_mut().purchase.reserved_share = 0.5;
        s.platforms[0].ops_fte = 3.0;
        let g5 = catalog::catalog()
            .iter()
            .position(|r| r.name == "g5.xlarge" && r.region == "us-east-1")
            .unwrap();
        assert!(set_instance(&mut s, 0, g5));
        let p = &s.platforms[0];
        assert_eq!(
            (p.name.as_str(), p.first_pool().instance_type.as_str()),
            ("AWS Batch", "g5.xlarge")
        );
        assert_eq!(
            (
                p.first_pool().purchase.reserved_share,
                p.first_pool().gpus_per_node,
                p.ops_fte
            ),
            (0.5, 1, 0.25)
        );
        assert_eq!(instance_row(&s, 0), Some(g5));
        assert_eq!(exact_instance_row(&s, 0), Some(g5));
        s.platforms[0].first_pool_mut().on_demand_usd_per_node_hour += 1.0;
        assert_eq!(
            (exact_instance_row(&s, 0), instance_row(&s, 0)),
            (None, Some(g5))
        );
        s.platforms[0].spot_notice_s = 1.0;
        assert!(reset_platform(&mut s, 0));
        assert_eq!(s.platforms[0].spot_notice_s, 120.0);
        assert_eq!(s.platforms[0].first_pool().purchase.reserved_share, 0.0);
        assert!(!set_instance(&mut s, 5, g5) && !reset_platform(&mut s, 5));
    }

    #[test]
    fn job_classes_stay_between_one_and_the_limit() {
        let mut s = Scenario::default();
        assert!(!remove_job_class(&mut s, 0), "one at least");
        for _ in 1..limits::JOB_CLASSES_MAX {
            assert!(add_job_class(&mut s));
        }
        assert_eq!(s.job_classes[1].name, "Job class 2");
        assert!(!add_job_class(&mut s));
        assert!(remove_job_class(&mut s, 0));
        assert_eq!(s.job_classes.len(), limits::JOB_CLASSES_MAX - 1);
    }
}
