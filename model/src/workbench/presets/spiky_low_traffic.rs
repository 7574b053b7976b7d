//! The `spiky-low-traffic` preset: A little-used assistant with bursts: Cloud Run scaling to zero
//! vs a GKE node pool vs an always-on SageMaker endpoint (seed 002).

use super::shared::office_hours;
use crate::model::platforms::Profile;
use crate::model::scenario::{Scenario, Service, ServiceSpikes, ServiceTraffic};

/// Seed 002: "GPU scale-to-zero on Cloud Run for variable traffic". A document assistant
/// used in office hours (nothing at night, a third at weekends) with a few bursts a month:
/// Cloud Run scales to zero, a GKE Standard node pool and a SageMaker endpoint keep one
/// replica. The SageMaker endpoint's ml.g5.xlarge carries the reference data's +40 % over
/// g5.xlarge (ml.g5.xlarge $1.41 vs $1.006 an hour).
pub(super) fn scenario() -> Scenario {
    let cloud_run = Profile::CloudRun.platform("Cloud Run", "cloud-run-l4", "us-central1");
    let gke =
        Profile::GkeStandard.platform("GKE Standard node pool", "g2-standard-8", "us-central1");
    let sagemaker =
        Profile::Sagemaker.platform("SageMaker endpoint (always on)", "g5.xlarge", "us-east-1");
    let hours = office_hours();
    Scenario {
        replications: 100,
        reference_gpus: 1,
        job_classes: Vec::new(),
        platforms: vec![cloud_run, gke, sagemaker],
        services: vec![Service {
            name: "Document assistant".into(),
            traffic: ServiceTraffic {
                mean_rps: 0.05,
                hourly_profile: Some(hours),
                weekend_factor: 0.3,
                spikes: Some(ServiceSpikes {
                    per_month: 6.0,
                    factor: 8.0,
                    duration_min: 30.0,
                }),
                replay: None,
            },
            // Measured on an A100: about 0.6 req/s on an L4, 0.7 on an A10G.
            capacity_rps: 2.0,
            concurrency: 2,
            gpus_per_replica: 1.0,
            gpu_memory_gb: 16.0,
            latency_slo_ms: 30_000.0,
            min_replicas: 0,
            max_replicas: 5,
            target_utilization: 0.6,
            model_load_s: 60.0,
            image_gb: 8.0,
            queue_per_replica: 50,
            llm: None,
        }],
        ..Scenario::default()
    }
}
