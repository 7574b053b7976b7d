//! The `case-h100-at-scale` preset: Case study (seed 002): 128-node H100 training on P5 over EFA
//! with ParallelCluster, on A3 High over GPUDirect-TCPX and on A3 Mega over TCPXO, at the
//! catalog's list prices.

use super::shared::on;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Scenario};

/// Seed 002's H100 clusters as the article states them: "a 128-node P5 cluster for a
/// client's GPT-scale model" over EFA with ParallelCluster and Slurm, A3 High over
/// GPUDirect-TCPX and A3 Mega; p5.48xlarge "about $43 per hour in US East", A3 Mega "around
/// $40", p5 spot "$13/hour". Priced from the catalog (AWS 2026-H2, Google 2026-07-30). Assumed
/// where it is silent: one 1,024-GPU run a week (128 nodes), 24 hours median on the reference
/// H100 (48 at the 90th percentile), checkpointed hourly, every cluster's nodes placed
/// together, on demand.
pub(super) fn scenario() -> Scenario {
    use crate::model::scaling::Interconnect;
    let cluster =
        |profile: Profile, name: &str, instance: &str, region: &str, interconnect: Interconnect| {
            let mut p = on(profile, name, instance, region, "H100");
            p.interconnect = interconnect;
            p.compact_placement = true;
            p.first_pool_mut().max_nodes = 128;
            p
        };
    // The FSDP runs' checkpoints and image (hourly, 300 s writes, 900 s restarts, 15 GB), at
    // 128 nodes and once a week.
    let mut class = super::fsdp_64_gpu_scaling::scenario().job_classes.remove(0);
    class.name = "1,024-GPU pretraining".into();
    class.arrivals = Arrivals::Poisson { per_day: 1.0 / 7.0 };
    class.gpus_per_job = 1_024.0;
    Scenario {
        reference_gpus: 1_024,
        reference_gpu: "H100".into(),
        job_classes: vec![class],
        platforms: vec![
            cluster(
                Profile::ParallelCluster,
                "ParallelCluster, P5 over EFA",
                "p5.48xlarge",
                "us-east-1",
                Interconnect::Efa,
            ),
            cluster(
                Profile::GkeStandard,
                "GKE, A3 High over TCPX",
                "a3-highgpu-8g",
                "us-central1",
                Interconnect::GpudirectTcpx,
            ),
            cluster(
                Profile::GkeStandard,
                "GKE, A3 Mega over TCPXO",
                "a3-megagpu-8g",
                "us-east4",
                Interconnect::GpudirectTcpxo,
            ),
        ],
        ..Scenario::default()
    }
}
