//! A hosted LLM API as a platform: no nodes to provision, no ops people, a bill per token or
//! for provisioned throughput (the settings are in
//! [`crate::model::scenario::hosted_api`]; what it does is in [`crate::model::hosted_api`]).

use super::ProfileFacts;
use crate::model::cloud::{Cloud, Fact};
use crate::model::scenario::Profile;
use crate::model::scenario::{HostedApi, Platform, ProfileName, Scheduler};

/// The hosted API's facts: no nodes, so none of a node profile's defaults.
pub const HOSTED_API: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::HostedApi,
    places_nodes_together: Fact {
        value: false,
        source: "a hosted API runs no nodes of the user's",
    },
    serving: None,
    defaults: &[],
};

/// The cloud whose negotiated discount applies to `provider`'s bill: Bedrock's is AWS's,
/// Azure AI Foundry's Azure's, Vertex AI's Google Cloud's; none for the others (Together,
/// Fireworks, DeepInfra bill on their own).
pub fn provider_cloud(provider: &str) -> Option<Cloud> {
    match provider {
        "bedrock" => Some(Cloud::Aws),
        "azure_foundry" => Some(Cloud::Azure),
        "vertex" => Some(Cloud::Gcp),
        _ => None,
    }
}

/// What `platform`'s hosted-API bill is multiplied by: 1 less the negotiated discount of its
/// provider's cloud, where that cloud is the platform's; 1 otherwise.
pub fn discount_factor(scenario: &crate::model::scenario::Scenario, platform: &Platform) -> f64 {
    let provider = platform
        .hosted_api
        .as_ref()
        .map_or("", |a| a.provider.as_str());
    match provider_cloud(provider) {
        Some(cloud) if cloud == platform.cloud => 1.0 - scenario.discounts.pct(cloud) / 100.0,
        _ => 1.0,
    }
}

/// A provider's label.
pub fn provider_label(provider: &str) -> &str {
    match provider {
        "bedrock" => "Amazon Bedrock",
        "azure_foundry" => "Azure AI Foundry",
        "vertex" => "Vertex AI",
        "together" => "Together AI",
        "fireworks" => "Fireworks AI",
        "deepinfra" => "DeepInfra",
        other => other,
    }
}

impl Profile {
    /// A hosted-API platform named `name`: `provider`'s offer of `model` from the price
    /// lists, billed per token, with no nodes, no ops people, no storage and no fees (an LLM
    /// gateway or observability tool is the user's to add as tooling); `None` where the
    /// provider has no price for the model.
    pub fn hosted_platform(name: &str, provider: &str, model: &str) -> Option<Platform> {
        let api = HostedApi::offered(provider, model)?;
        Some(Platform {
            name: name.to_string(),
            profile: ProfileName::Known(Profile::HostedApi),
            // The cloud whose discount applies; for a provider of none, unused (and AWS).
            cloud: provider_cloud(provider).unwrap_or(Cloud::Aws),
            node_pools: Vec::new(),
            fee_usd_per_cluster_hour: 0.0,
            tooling_usd_per_month: 0.0,
            storage_gb: 0.0,
            ops_fte: 0.0,
            egress_usd_per_gb: 0.0,
            egress_free_gb_per_month: 0.0,
            capacity_wait_mean_s: 0.0,
            hosted_api: Some(api),
            ..Platform::default()
        })
    }
}
