//! The `mixed-gpu-pipeline-pools` preset: A drug-discovery pipeline's stages on T4, V100 and A100
//! node pools of one GKE cluster, vs the cheapest pool per stage, vs A100s only (seed 000).

use super::shared::gke_three_pools;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// Seed 000's drug-discovery pipeline, whose stages ask for V100s, A100s and T4s "within a
/// single experimental run", as three job classes on one GKE Standard cluster: pools of
/// 1-GPU T4 and V100 nodes and 8-GPU A100 nodes, each stage on the GPU it asks for; the same
/// cluster with each stage on the cheapest pool that fits it; and A100s only. The stages'
/// sizes and rates are assumptions (the seed gives none); their durations are on an A100,
/// so a stage runs 1 ÷ 0.45 times longer on a V100 and 1 ÷ 0.12 on a T4 (the catalog's rough
/// training ratios: override a pool's relative throughput for inference-like stages).
pub(super) fn scenario() -> Scenario {
    let mut as_asked = gke_three_pools("GKE, T4/V100/A100 pools as the stages ask");
    for (stage, at) in [
        ("Docking", "v100"),
        ("Affinity training", "a100"),
        ("Screening", "t4"),
    ] {
        as_asked.class_pools.insert(stage.into(), at.into());
    }
    let cheapest = gke_three_pools("GKE, the cheapest pool per stage");
    let a100 = Profile::GkeStandard.platform("GKE, A100s only", "a2-highgpu-8g", "us-central1");
    let stage =
        |name: &str, per_day: f64, median: f64, p90: f64, gpus: f64, memory: f64| JobClass {
            name: name.into(),
            arrivals: Arrivals::Poisson { per_day },
            duration: Duration::LogNormal {
                median_hours: median,
                p90_hours: p90,
            },
            gpus_per_job: gpus,
            gpu_memory_gb: memory,
            data_read_gb_per_attempt: 20.0,
            egress_gb_per_job: 1.0,
            image_gb: 8.0,
            ..JobClass::default()
        };
    Scenario {
        reference_gpus: 16,
        job_classes: vec![
            stage("Docking", 24.0, 0.5, 1.5, 1.0, 12.0),
            stage("Affinity training", 2.0, 4.0, 10.0, 8.0, 35.0),
            stage("Screening", 48.0, 0.1, 0.3, 1.0, 10.0),
        ],
        platforms: vec![as_asked, cheapest, a100],
        ..Scenario::default()
    }
}
