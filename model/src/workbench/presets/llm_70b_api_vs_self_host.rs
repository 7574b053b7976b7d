//! The `llm-70b-api-vs-self-host` preset: the 70B chat model of `llm-70b-chat` self-hosted on
//! EKS H100 nodes and a SageMaker endpoint, against the hosted APIs that sell it: Amazon
//! Bedrock per token, and Azure AI Foundry's provisioned throughput on a one-year term.

use super::llm_70b_chat;
use crate::model::hosted_api::ProvisionedTerm;
use crate::model::platforms::Profile;
use crate::model::scenario::{ApiBilling, Scenario};

/// `llm-70b-chat` (200 requests a second at the peak hour, prompts of about 1,000 tokens and
/// answers of about 250, objectives of 2 s to the first token and 50 ms a token) with two
/// hosted platforms beside its two of nodes:
/// - Bedrock's Llama 3.1 70B at $0.72 per million tokens either way. Its default quota (400
///   requests and 300,000 tokens a minute) would refuse most of the peak's 12,000 requests a
///   minute, so the account is assumed to have asked for more: 15,000 requests and 30 million
///   tokens a minute (a quota increase is the user's to request; AWS grants them case by case).
/// - Azure AI Foundry's Llama 3.3 70B on provisioned throughput, 4,200 PTUs on a one-year
///   term: the peak minute's tokens (about 12,000 requests of 1,444 input and 345 output
///   tokens on average, output counted four times) over 8,450 input tokens a minute each,
///   rounded up to the step of 100.
pub(super) fn scenario() -> Scenario {
    let mut s = llm_70b_chat::scenario();
    let mut bedrock = Profile::hosted_platform("Bedrock, per token", "bedrock", "llama-3.1-70b")
        .expect("Bedrock prices Llama 3.1 70B");
    if let Some(api) = bedrock.hosted_api.as_mut() {
        api.requests_per_minute = 15_000.0;
        api.tokens_per_minute = 30_000_000.0;
    }
    let mut azure = Profile::hosted_platform(
        "Azure AI Foundry, 1-year PTUs",
        "azure_foundry",
        "llama-3.1-70b",
    )
    .expect("Azure AI Foundry prices Llama 3.3 70B");
    if let Some(api) = azure.hosted_api.as_mut() {
        api.billing = ApiBilling::Provisioned;
        api.tpot_p95_ms = crate::model::scenario::hosted_api::PROVISIONED_TPOT_P95_MS;
        if let Some(p) = api.provisioned.as_mut() {
            p.units = 4_200;
            p.term = ProvisionedTerm::OneYear;
        }
    }
    s.platforms.push(bedrock);
    s.platforms.push(azure);
    s
}
