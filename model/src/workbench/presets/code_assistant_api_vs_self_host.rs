//! The `code-assistant-api-vs-self-host` preset: a code assistant's traffic fitted from a real
//! request trace, a 70B model self-hosted on EKS against two hosted APIs.

use super::llm_70b_chat;
use super::shared::added;
use crate::model::platforms::Profile;
use crate::model::scenario::{Scenario, ServiceTraffic, Tokens};

/// The traffic and token counts `gpucost traffic` fits from the Azure LLM inference trace of
/// a code assistant (`azure_llm_inference_code_2023.csv`, Patel et al., "Splitwise", ISCA
/// 2024; 8,819 requests over 57.3 minutes): 2.5667 requests a second over the trace's span,
/// prompts of 1,469 tokens at the median (p90 5,187.6: whole files as context), answers of 13
/// (p90 55: completions, not chat). The trace is bursty (its busiest minute runs at 10.5 a
/// second, four times its mean); fitted, its requests arrive at the mean rate (Poisson). To
/// play its minutes as recorded, import the trace onto this preset's service with replay on
/// (`gpucost traffic <trace> --preset code-assistant-api-vs-self-host --service "code
/// assistant" --replay`, or the page's import).
///
/// Llama 3.1 70B in FP8 on four GPUs a replica, one replica at least, for a day: EKS on a
/// p5.48xlarge (two replicas a node) and on a g6e.12xlarge (four L40S, one replica a node)
/// against Amazon Bedrock per token at its default quota for the model (400 requests and
/// 300,000 tokens a minute: about 124 of these long-prompt requests a minute, under the
/// trace's 154) and DeepInfra per token (no published limit).
pub(super) fn scenario() -> Scenario {
    let mut s = llm_70b_chat::scenario();
    let on = |instance: &str, name: &str| {
        let mut p = added(Profile::Eks, name, instance, "us-east-1", "H100");
        p.node_pools[0].max_nodes = 8;
        p
    };
    s.platforms = vec![
        on("p5.48xlarge", "EKS, p5 (H100)"),
        on("g6e.12xlarge", "EKS, g6e (L40S)"),
        Profile::hosted_platform("Bedrock, default quota", "bedrock", "llama-3.1-70b")
            .expect("Bedrock prices Llama 3.1 70B"),
        Profile::hosted_platform("DeepInfra", "deepinfra", "llama-3.1-70b")
            .expect("DeepInfra prices Llama 3.1 70B"),
    ];
    s.horizon_days = 1.0;
    s.replications = 50;
    let service = &mut s.services[0];
    service.name = "code assistant".into();
    service.traffic = ServiceTraffic {
        mean_rps: 2.5667,
        hourly_profile: None,
        weekend_factor: 1.0,
        spikes: None,
        replay: None,
    };
    service.min_replicas = 1;
    service.max_replicas = 16;
    let llm = service
        .llm
        .as_mut()
        .expect("the chat preset's service is an LLM");
    llm.input_tokens = Tokens {
        median: 1_469.0,
        p90: 5_187.6,
    };
    llm.output_tokens = Tokens {
        median: 13.0,
        p90: 55.0,
    };
    s
}
