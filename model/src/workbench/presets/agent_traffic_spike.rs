//! The `agent-traffic-spike` preset: An agent API hit by ×10 traffic for an hour: SageMaker
//! endpoint vs EKS vs GKE (seed 001).

use crate::model::platforms::Profile;
use crate::model::scenario::{Scenario, Service, ServiceSpikes, ServiceTraffic};

/// Seed 001's agent system "slashdotted": one service whose traffic jumps tenfold for an
/// hour about once a week, on a SageMaker endpoint (new instances wait for a CloudWatch alarm
/// and a node), on EKS with Karpenter and on GKE Standard, each on one-GPU nodes. No
/// training. The seed's "10–15 minutes" against "30 s" is an anecdote; here a new replica
/// waits for the platform's scale-up delay, a node, the image and the model.
pub(super) fn scenario() -> Scenario {
    let sagemaker = Profile::Sagemaker.platform("SageMaker endpoint", "g5.xlarge", "us-east-1");
    let eks = Profile::Eks.platform("EKS + Karpenter", "g5.xlarge", "us-east-1");
    let gke = Profile::GkeStandard.platform("GKE Standard", "g2-standard-8", "us-central1");
    Scenario {
        replications: 100,
        reference_gpus: 8,
        job_classes: Vec::new(),
        platforms: vec![sagemaker, eks, gke],
        services: vec![Service {
            name: "Agent API".into(),
            traffic: ServiceTraffic {
                mean_rps: 10.0,
                hourly_profile: None,
                weekend_factor: 1.0,
                spikes: Some(ServiceSpikes {
                    per_month: 4.0,
                    factor: 10.0,
                    duration_min: 60.0,
                }),
                replay: None,
            },
            // Measured on an A100 (the reference GPU): about 4 req/s on a g5's A10G.
            capacity_rps: 12.0,
            concurrency: 4,
            gpus_per_replica: 1.0,
            gpu_memory_gb: 20.0,
            latency_slo_ms: 5_000.0,
            min_replicas: 2,
            max_replicas: 40,
            target_utilization: 0.7,
            model_load_s: 90.0,
            image_gb: 12.0,
            queue_per_replica: 50,
            llm: None,
        }],
        ..Scenario::default()
    }
}
