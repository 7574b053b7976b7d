//! The `azure-ml-endpoints-vs-kubernetes` preset: a model API on Azure ML managed online
//! endpoints vs AKS vs EKS.

use super::shared::added;
use crate::model::platforms::Profile;
use crate::model::scenario::{Scenario, Service, ServiceTraffic};

/// A model API with office-hours traffic, served from one A100 80GB per replica: on an Azure
/// Machine Learning managed online endpoint (instances of its own per replica, scaled by
/// Azure Monitor rules) and on AKS, both on Standard_NC24ads_A100_v4, and on EKS on a
/// p4de.24xlarge's A100 80GBs, replicas packed eight to a node. No training.
pub(super) fn scenario() -> Scenario {
    let on = |profile, name: &str, instance, region| added(profile, name, instance, region, "A100");
    Scenario {
        replications: 100,
        reference_gpus: 8,
        job_classes: Vec::new(),
        platforms: vec![
            on(
                Profile::AzureMl,
                "Azure ML online endpoint",
                "Standard_NC24ads_A100_v4",
                "eastus",
            ),
            on(Profile::Aks, "AKS", "Standard_NC24ads_A100_v4", "eastus"),
            on(Profile::Eks, "EKS", "p4de.24xlarge", "us-east-1"),
        ],
        services: vec![Service {
            name: "Model API".into(),
            traffic: ServiceTraffic {
                mean_rps: 6.0,
                hourly_profile: Some(super::shared::office_hours()),
                weekend_factor: 0.3,
                spikes: None,
                replay: None,
            },
            // Measured on an A100 (the reference GPU).
            capacity_rps: 4.0,
            concurrency: 4,
            gpus_per_replica: 1.0,
            gpu_memory_gb: 60.0,
            latency_slo_ms: 6_000.0,
            min_replicas: 2,
            max_replicas: 24,
            target_utilization: 0.5,
            model_load_s: 120.0,
            image_gb: 15.0,
            queue_per_replica: 32,
            llm: None,
        }],
        ..Scenario::default()
    }
}
