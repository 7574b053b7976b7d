//! The edits the page makes to a scenario's lists: platforms added with a unique name on
//! their cloud's default instance, moved to another instance or reset to their profile's
//! defaults, and platforms and job classes added or removed within the limits. Each returns
//! whether it changed the scenario; none leaves it invalid where it was valid.

use crate::model::catalog::{self, InstanceType};
use crate::model::platforms::Profile;
use crate::model::scenario::{limits, Cloud, JobClass, Scenario};

/// The instance a new platform of `profile` starts on: p4d.24xlarge in us-east-1 on AWS,
/// a2-highgpu-8g in us-central1 on GCP (both 8 × A100); Cloud Run's one-L4 instance.
pub fn default_instance(profile: Profile) -> Option<&'static InstanceType> {
    match (profile, profile.cloud()) {
        (Profile::CloudRun, _) => catalog::find("cloud-run-l4", "us-central1"),
        (_, Cloud::Aws) => catalog::find("p4d.24xlarge", "us-east-1"),
        (_, Cloud::Gcp) => catalog::find("a2-highgpu-8g", "us-central1"),
    }
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

/// Adds a platform of `profile`, named after it, on its cloud's default instance; nothing
/// when the scenario has the most platforms.
pub fn add_platform(scenario: &mut Scenario, profile: Profile) -> bool {
    if scenario.platforms.len() >= limits::PLATFORMS_MAX {
        return false;
    }
    let Some(instance) = default_instance(profile) else {
        return false;
    };
    let name = unique_platform_name(scenario, profile.label());
    let platform = profile.platform_on(&name, instance, &scenario.reference_gpu);
    scenario.platforms.push(platform);
    true
}

/// Moves platform `index` onto catalog row `row`: its profile's defaults for that instance,
/// keeping its name, what it buys beyond the reservation, and its reserved share.
pub fn set_instance(scenario: &mut Scenario, index: usize, row: usize) -> bool {
    let (Some(old), Some(instance)) = (scenario.platforms.get(index), catalog::catalog().get(row))
    else {
        return false;
    };
    let Some(profile) = old.profile.profile().filter(|p| p.offers(instance)) else {
        return false;
    };
    let mut fresh = profile.platform_on(&old.name, instance, &scenario.reference_gpu);
    fresh.purchase.overflow = old.purchase.overflow;
    fresh.purchase.reserved_share = old.purchase.reserved_share;
    scenario.platforms[index] = fresh;
    true
}

/// The catalog row platform `index` holds: its instance type at its on-demand price (the
/// same type is listed in several regions at other prices); `None` when no row has both,
/// e.g. after the price was edited.
pub fn exact_instance_row(scenario: &Scenario, index: usize) -> Option<usize> {
    let p = scenario.platforms.get(index)?;
    catalog::catalog().iter().position(|r| {
        r.name == p.instance_type
            && r.on_demand_usd_per_node_hour == Some(p.on_demand_usd_per_node_hour)
    })
}

/// The catalog row platform `index` was built from: [`exact_instance_row`], else the first
/// row of its instance type.
pub fn instance_row(scenario: &Scenario, index: usize) -> Option<usize> {
    let p = scenario.platforms.get(index)?;
    exact_instance_row(scenario, index).or_else(|| {
        catalog::catalog()
            .iter()
            .position(|r| r.name == p.instance_type)
    })
}

/// Resets platform `index` to its profile's defaults on its instance type, keeping its name.
pub fn reset_platform(scenario: &mut Scenario, index: usize) -> bool {
    let Some(old) = scenario.platforms.get(index) else {
        return false;
    };
    let (Some(profile), Some(row)) = (old.profile.profile(), instance_row(scenario, index)) else {
        return false;
    };
    let instance = &catalog::catalog()[row];
    scenario.platforms[index] = profile.platform_on(&old.name, instance, &scenario.reference_gpu);
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

/// Adds a job class with the defaults, named `Job class N`, up to the limit.
pub fn add_job_class(scenario: &mut Scenario) -> bool {
    if scenario.job_classes.len() >= limits::JOB_CLASSES_MAX {
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
    scenario.job_classes.remove(index);
    true
}

/// Adds a service (the defaults, named by its place) up to the limit.
pub fn add_service(scenario: &mut Scenario) -> bool {
    if scenario.services.len() >= limits::SERVICES_MAX {
        return false;
    }
    let n = scenario.services.len() + 1;
    scenario.services.push(crate::model::scenario::Service {
        name: format!("Service {n}"),
        ..Default::default()
    });
    true
}

/// Removes service `index` (a scenario may have none).
pub fn remove_service(scenario: &mut Scenario, index: usize) -> bool {
    if index >= scenario.services.len() {
        return false;
    }
    scenario.services.remove(index);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(s.platforms[3].instance_type, "a2-highgpu-8g");
        assert_eq!(s.platforms[3].cloud, Cloud::Gcp);
        assert!(s.validate().is_ok());
        assert!(!add_platform(&mut s, Profile::Eks), "four at most");
        assert!(remove_platform(&mut s, 1));
        assert_eq!(
            unique_platform_name(&s, "EKS (Karpenter + Volcano)"),
            "EKS (Karpenter + Volcano)"
        );
    }

    #[test]
    fn an_instance_change_keeps_name_and_purchase_and_a_reset_restores_the_profile() {
        let mut s = Scenario::default();
        s.platforms[0].purchase.reserved_share = 0.5;
        s.platforms[0].ops_fte = 3.0;
        let g5 = catalog::catalog()
            .iter()
            .position(|r| r.name == "g5.xlarge" && r.region == "us-east-1")
            .unwrap();
        assert!(set_instance(&mut s, 0, g5));
        let p = &s.platforms[0];
        assert_eq!(
            (p.name.as_str(), p.instance_type.as_str()),
            ("AWS Batch", "g5.xlarge")
        );
        assert_eq!(
            (p.purchase.reserved_share, p.gpus_per_node, p.ops_fte),
            (0.5, 1, 0.25)
        );
        assert_eq!(instance_row(&s, 0), Some(g5));
        assert_eq!(exact_instance_row(&s, 0), Some(g5));
        s.platforms[0].on_demand_usd_per_node_hour += 1.0;
        assert_eq!(
            (exact_instance_row(&s, 0), instance_row(&s, 0)),
            (None, Some(g5))
        );
        s.platforms[0].spot_notice_s = 1.0;
        assert!(reset_platform(&mut s, 0));
        assert_eq!(s.platforms[0].spot_notice_s, 120.0);
        assert_eq!(s.platforms[0].purchase.reserved_share, 0.0);
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
