//! Splitting the workload between two platforms: training on one and serving on the other
//! (seed 001: "train on SageMaker, serve on EKS"). Unless a platform runs its replicas on
//! its training nodes (such a platform is one cluster for both, and takes no part in a
//! split), services and training never share nodes, so a platform's training and its
//! serving cost add up apart, and a split's monthly cost is exact in the model's terms:
//!
//! A's total − A's serving GPU time + B's serving GPU time + B's fixed costs
//!
//! — A's training with all of A's costs beyond GPU time (fees, people, tools, storage,
//! egress), and B's serving with B's fees, people, tools and storage on top: a second system
//! to run costs its people and fees again. Summarised over replications, paired (the same
//! replication on both).

use super::cost_category::Category;
use super::sim::outcome::PlatformOutcome;
use super::stats::Summary;
use crate::model::scenario::Scenario;
use crate::model::serving::platform::shares_training_nodes;
use serde::{Deserialize, Serialize};

/// Training on one platform and serving on another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct SplitWorkload {
    /// The platform the job classes run on.
    pub trains_on: String,
    /// The platform the services run on.
    pub serves_on: String,
    /// Monthly cost of the two together, USD (A's training and costs beyond GPU time, B's
    /// serving GPU time and its fees, people, tools and storage).
    pub monthly_tco_usd: Summary,
}

/// A platform's costs that do not scale with its work, USD a month: fees, people, tools and
/// storage.
fn fixed_usd(o: &PlatformOutcome) -> f64 {
    [
        Category::Fees,
        Category::OpsPeople,
        Category::Tools,
        Category::Storage,
    ]
    .into_iter()
    .map(|c| o.breakdown_usd[c])
    .sum()
}

/// The monthly cost of training on `a` and serving on `b`, in one replication.
pub fn split_usd(a: &PlatformOutcome, b: &PlatformOutcome) -> f64 {
    a.monthly_tco_usd - a.serving_gpu_usd_per_month + b.serving_gpu_usd_per_month + fixed_usd(b)
}

/// Every ordered pair of platforms (`outcomes[r][p]`) whose replicas do not share their
/// training nodes, when the scenario has job classes and services; none otherwise.
pub fn split_workloads<R: AsRef<[PlatformOutcome]>>(
    scenario: &Scenario,
    outcomes: &[R],
) -> Vec<SplitWorkload> {
    if scenario.job_classes.is_empty() || scenario.services.is_empty() || outcomes.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (a, pa) in scenario.platforms.iter().enumerate() {
        for (b, pb) in scenario.platforms.iter().enumerate() {
            if a == b || shares_training_nodes(pa) || shares_training_nodes(pb) {
                continue;
            }
            let usd: Vec<f64> = outcomes
                .iter()
                .map(|rep| split_usd(&rep.as_ref()[a], &rep.as_ref()[b]))
                .collect();
            if let Some(monthly_tco_usd) = Summary::of(&usd) {
                out.push(SplitWorkload {
                    trains_on: pa.name.clone(),
                    serves_on: pb.name.clone(),
                    monthly_tco_usd,
                });
            }
        }
    }
    out
}
