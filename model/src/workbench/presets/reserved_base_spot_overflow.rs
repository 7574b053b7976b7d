//! The `reserved-base-spot-overflow` preset: Reserved base + spot overflow vs all spot vs all on-
//! demand, p4d (seed 000).

use super::shared::training_class;
use crate::model::platforms::Profile;
use crate::model::scenario::{Overflow, Scenario};

pub(super) fn scenario() -> Scenario {
    let mut mixed = Profile::AwsBatch.platform("Reserved base + spot", "p4d.24xlarge", "us-east-1");
    mixed.first_pool_mut().purchase.reserved_share = 0.5;
    mixed.first_pool_mut().purchase.overflow = Overflow::Spot;
    let mut spot = Profile::AwsBatch.platform("All spot", "p4d.24xlarge", "us-east-1");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    let on_demand = Profile::AwsBatch.platform("All on-demand", "p4d.24xlarge", "us-east-1");
    Scenario {
        reference_gpus: 32,
        job_classes: vec![training_class()],
        platforms: vec![mixed, spot, on_demand],
        ..Scenario::default()
    }
}
