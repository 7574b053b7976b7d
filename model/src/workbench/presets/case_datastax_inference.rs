//! The `case-datastax-inference` preset: Case study (seed 001): an inference API under 15 ms moved
//! from a SageMaker endpoint to EKS, with the agent traffic spike (×10 for an hour, four times a
//! month).

use crate::model::scenario::Scenario;

/// Seed 001's DataStax move as the article states it: an inference stack served from a
/// SageMaker endpoint moved to EKS, with latency kept under 15 ms and autoscaling of its own
/// (Prometheus metrics, a pod ready 30 s after the decision); the agent traffic spike of the
/// same article (traffic ×10 for an hour, four times a month). Assumed where it is silent:
/// one model at 100 requests a second on average, 1,000 a second on an A100 (350 on a g5's
/// A10G) one at a time, on 1-GPU g5.xlarge nodes (ml.g5.xlarge at the reference data's +40 %
/// on SageMaker), 2 to 40 replicas at 70 % target utilisation, each profile's ops share
/// (SageMaker 0.1 FTE, EKS ½).
pub(super) fn scenario() -> Scenario {
    // The agent spike's scenario without GKE, its service made the article's: faster, smaller.
    let mut s = super::agent_traffic_spike::scenario();
    s.platforms.truncate(2);
    let api = &mut s.services[0];
    api.name = "Inference API".into();
    api.traffic.mean_rps = 100.0;
    api.capacity_rps = 1_000.0;
    api.concurrency = 1;
    api.gpu_memory_gb = 8.0;
    api.latency_slo_ms = 15.0;
    api.model_load_s = 30.0;
    api.image_gb = 8.0;
    s
}
