//! The `h100-six-clouds` preset: 8×H100 training on AWS p5, Azure ND H100 v5, Google A3,
//! CoreWeave, Lambda and Nebius (six platforms).

use super::h100_three_clouds::h100_training;
use super::shared::added;
use crate::model::platforms::Profile;
use crate::model::scenario::Scenario;

/// The `h100-three-clouds` work on each cloud's 8-GPU H100 nodes, on demand, as the page adds
/// platforms (nodes failing as Meta's fleet did, each cloud's egress, each instance's
/// interconnect), each on the cloud's Kubernetes where it sells one on demand:
/// - EKS on p5.48xlarge (EFA), AKS on ND96isr H100 v5 and CKS on CoreWeave's HGX H100
///   (InfiniBand), GKE Standard on a3-highgpu-8g (GPUDirect-TCPX), Nebius Managed
///   Kubernetes on its 8-GPU H100 VMs (InfiniBand, eu-north1: the catalog's Nebius H100s);
/// - Lambda's on-demand 8×H100 instances, launched per job: it sells Kubernetes only with
///   its reserved 1-Click Clusters, and its on-demand instances have no InfiniBand (plain
///   TCP for the 32-GPU run).
pub(super) fn scenario() -> Scenario {
    let on = |profile, name: &str, instance, region| added(profile, name, instance, region, "H100");
    Scenario {
        reference_gpu: "H100".into(),
        reference_gpus: 32,
        job_classes: h100_training(),
        platforms: vec![
            on(Profile::Eks, "EKS, p5", "p5.48xlarge", "us-east-1"),
            on(
                Profile::Aks,
                "AKS, ND H100 v5",
                "Standard_ND96isr_H100_v5",
                "eastus",
            ),
            on(
                Profile::GkeStandard,
                "GKE Standard, A3",
                "a3-highgpu-8g",
                "us-central1",
            ),
            on(
                Profile::CoreweaveCks,
                "CoreWeave CKS, HGX H100",
                "gd-8xh100ib-i128",
                "US-EAST-04",
            ),
            on(
                Profile::LambdaOnDemand,
                "Lambda, 8×H100 on demand",
                "gpu_8x_h100_sxm5",
                "us-midwest-1",
            ),
            on(
                Profile::NebiusMk8s,
                "Nebius Kubernetes, 8×H100",
                "gpu-h100-sxm_8gpu-128vcpu-1600gb",
                "eu-north1",
            ),
        ],
        ..Scenario::default()
    }
}
