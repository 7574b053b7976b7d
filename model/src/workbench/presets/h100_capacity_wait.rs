//! The `h100-capacity-wait` preset: 8-GPU H100 training on GKE spot after a 4-hour wait for
//! capacity, GKE on demand, and EKS spot; nodes fail as Meta's fleet did (seed 002).

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Overflow, Scenario};

/// Seed 002: "GCP limits preemptible GPU allocations. In us-central1, we once waited 4 hours
/// for 8 H100s to become available. AWS spot usually provisions faster, but you pay for the
/// risk." Single-node 8-GPU H100 training jobs, checkpointed hourly, on GKE Standard spot
/// (a3-highgpu-8g, us-central1) where each node request waits 4 hours on average for
/// capacity (the seed's one wait taken as the mean: an assumption), on the same nodes on
/// demand with no wait, and on EKS spot p5.48xlarge (us-east-1) with no wait. Every node,
/// spot or not, fails at the rate derived from Meta's fleet (about 1.2 × 10⁻⁴ per 8-GPU
/// node-hour). The price of waiting is on at $100 an hour (the default FTE cost over 2,000
/// hours, an assumption) for the one person waiting for each job, beside the TCO.
pub(super) fn scenario() -> Scenario {
    use crate::model::platforms::failing_as_meta_fleet as failing;
    use crate::model::scenario::People;
    let mut gke_spot = failing(Profile::GkeStandard.platform(
        "GKE Standard, spot (4 h capacity wait)",
        "a3-highgpu-8g",
        "us-central1",
    ));
    gke_spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    gke_spot.capacity_wait_mean_s = 4.0 * 3_600.0;
    let gke_on_demand = failing(Profile::GkeStandard.platform(
        "GKE Standard, on demand",
        "a3-highgpu-8g",
        "us-central1",
    ));
    let mut eks_spot = failing(Profile::Eks.platform("EKS, spot p5", "p5.48xlarge", "us-east-1"));
    eks_spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    Scenario {
        reference_gpus: 16,
        job_classes: vec![JobClass {
            name: "8-GPU H100 training".into(),
            arrivals: Arrivals::Poisson { per_day: 2.0 },
            duration: Duration::LogNormal {
                median_hours: 6.0,
                p90_hours: 12.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 80.0,
            image_gb: 12.0,
            checkpoint_interval_min: 60.0,
            checkpoint_write_s: 300.0,
            restart_overhead_s: 900.0,
            ..JobClass::default()
        }],
        platforms: vec![gke_spot, gke_on_demand, eks_spot],
        people: People {
            waiting_usd_per_hour: 100.0,
            ..People::default()
        },
        ..Scenario::default()
    }
}
