//! Pieces several presets are built from.

use crate::model::catalog;
use crate::model::platforms::Profile;
use crate::model::scenario::{JobClass, NodePool, Platform};

pub(super) fn training_class() -> JobClass {
    JobClass::default()
}

/// A platform of `profile`'s defaults named `name` on catalog row `instance` in `region`,
/// its GPUs measured against `reference_gpu` (the scenario's).
pub(super) fn on(
    profile: Profile,
    name: &str,
    instance: &str,
    region: &str,
    reference_gpu: &str,
) -> Platform {
    profile.platform_on(name, row(instance, region), reference_gpu)
}

/// Catalog row `instance` in `region` (a preset names only rows the catalog has: the presets
/// are tested).
fn row(instance: &str, region: &str) -> &'static catalog::InstanceType {
    catalog::find(instance, region)
        .unwrap_or_else(|| panic!("{instance} in {region} is not in the catalog"))
}

/// A platform as the page adds one ([`new_platform`](crate::workbench::edit::new_platform):
/// its cloud's egress tiers, its instance's interconnect and region, nodes failing as Meta's
/// fleet did) of `profile` named `name` on catalog row `instance` in `region`.
pub(super) fn added(
    profile: Profile,
    name: &str,
    instance: &str,
    region: &str,
    reference_gpu: &str,
) -> Platform {
    crate::workbench::edit::new_platform(profile, name, row(instance, region), reference_gpu)
}

/// A pool of `profile`'s defaults named `name` on catalog row `instance` in `region`.
pub(super) fn pool(profile: Profile, name: &str, instance: &str, region: &str) -> NodePool {
    profile.pool_on(name, row(instance, region), "A100")
}

/// A GKE Standard cluster in us-central1 with pools of 8-GPU A100 nodes ("a100", the
/// first), 1-GPU V100 nodes ("v100") and 1-GPU T4 nodes ("t4").
pub(super) fn gke_three_pools(name: &str) -> crate::model::scenario::Platform {
    let mut p = Profile::GkeStandard.platform(name, "a2-highgpu-8g", "us-central1");
    p.first_pool_mut().name = "a100".into();
    p.node_pools.push(pool(
        Profile::GkeStandard,
        "v100",
        "n1-standard-8+1xV100",
        "us-central1",
    ));
    p.node_pools.push(pool(
        Profile::GkeStandard,
        "t4",
        "n1-standard-8+1xT4",
        "us-central1",
    ));
    p
}

/// Office hours, 8:00 to 19:00, busiest late morning and mid-afternoon: weights of the
/// 24 hours.
pub(super) fn office_hours() -> Vec<f64> {
    let mut hours = vec![0.0; 24];
    for (h, w) in [
        (8, 0.5),
        (9, 1.0),
        (10, 1.5),
        (11, 1.5),
        (12, 0.8),
        (13, 1.0),
        (14, 1.5),
        (15, 1.5),
        (16, 1.0),
        (17, 0.6),
        (18, 0.3),
    ] {
        hours[h] = w;
    }
    hours
}
