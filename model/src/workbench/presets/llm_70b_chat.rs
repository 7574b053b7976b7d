//! The `llm-70b-chat` preset: a 70B chat model for 200 requests a second at peak, on EKS
//! with H100 nodes vs a SageMaker endpoint (LLM serving in tokens).

use super::shared::added;
use crate::model::platforms::Profile;
use crate::model::scenario::{Llm, Scenario, Service, ServiceTraffic, Tokens};
use crate::model::serving::llm::roofline::Precision;

/// A chat assistant on Llama 3.1 70B in FP8, each replica sharded across four H100s of a
/// p5.48xlarge, its traffic peaking at 200 requests a second in the working day and falling
/// to a fifth of that at night. Prompts of about 1,000 tokens (p90 3,000: chat history and
/// retrieved context), answers of about 250 (p90 700); objectives of 2 s to the first token
/// and 50 ms a token at the p95. Two weeks, no spikes: the hours' profile repeats every day.
///
/// On EKS two replicas share a node; a SageMaker single-model endpoint gives each replica an
/// instance of its own, so its other four GPUs sit idle (inference components would pack
/// them: set the endpoint's replicas to share nodes).
pub(super) fn scenario() -> Scenario {
    let on = |profile, name: &str| {
        let mut p = added(profile, name, "p5.48xlarge", "us-east-1", "H100");
        p.node_pools[0].max_nodes = 40;
        p
    };
    // Weights of the day's hours (UTC): a working day's peak of 1.0, a night's 0.2; their
    // mean is 0.65, so 200 req/s at the peak is 130 over the day.
    let hours = vec![
        0.3, 0.2, 0.2, 0.2, 0.25, 0.35, 0.5, 0.7, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.95, 0.9,
        0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3,
    ];
    Scenario {
        reference_gpu: "H100".into(),
        reference_gpus: 8,
        replications: 50,
        horizon_days: 14.0,
        job_classes: Vec::new(),
        platforms: vec![
            on(Profile::Eks, "EKS, p5"),
            on(Profile::Sagemaker, "SageMaker endpoint, p5"),
        ],
        services: vec![Service {
            name: "70B chat".into(),
            traffic: ServiceTraffic {
                // 200 req/s at the peak hour.
                mean_rps: 130.0,
                hourly_profile: Some(hours),
                weekend_factor: 1.0,
                spikes: None,
                replay: None,
            },
            min_replicas: 2,
            max_replicas: 80,
            target_utilization: 0.7,
            model_load_s: 300.0,
            image_gb: 20.0,
            queue_per_replica: 256,
            llm: Some(Llm {
                model: "llama-3.1-70b".into(),
                custom: None,
                precision: Precision::Fp8,
                tensor_parallel: 4,
                input_tokens: Tokens {
                    median: 1_000.0,
                    p90: 3_000.0,
                },
                output_tokens: Tokens {
                    median: 250.0,
                    p90: 700.0,
                },
                ttft_p95_ms: 2_000.0,
                tpot_p95_ms: 50.0,
            }),
            ..Service::default()
        }],
        ..Scenario::default()
    }
}
