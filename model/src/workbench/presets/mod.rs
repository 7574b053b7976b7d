//! Named, versioned presets. A preset's contents never change under the same version: a link
//! names the preset and its version, so old links keep reproducing their scenario.
//!
//! Each preset is a situation from a seed article (see the design's seeds); the seeds' numbers
//! are anecdotes used as a starting point, not measured truth.
//!
//! One preset per file, each with its builder `scenario()`, registered in [`presets`] with
//! its name, version and description; pieces several presets share are in `shared`. Earlier
//! versions are frozen as JSON ([`preset_scenario_at`]).

mod agent_traffic_spike;
mod autopilot_vs_standard;
mod azure_ml_endpoints_vs_kubernetes;
mod batch_vs_eks_spot;
mod bursty_g5_warm_pool;
mod case_a100_effective_range;
mod case_a3_commitment;
mod case_autopilot_a100;
mod case_batch_g5_vs_gke;
mod case_bursty_g5_steps;
mod case_datastax_inference;
mod case_egress_10_tb;
mod case_fintech_autopilot_payback;
mod case_h100_at_scale;
mod case_robinhood_ri_spot;
mod case_sagemaker_vs_eks_spot;
mod case_sequoia_av_experiments;
mod case_snap_p4d_spot;
mod case_uber_55_vs_85;
mod code_assistant_api_vs_self_host;
mod commit_1y_vs_3y;
mod data_gravity_egress;
mod dependency_failures;
mod eks_vs_sagemaker_tco;
mod fsdp_64_gpu_scaling;
mod fsx_vs_s3_direct;
mod h100_capacity_wait;
mod h100_six_clouds;
mod h100_three_clouds;
mod karpenter_vs_autopilot_payback;
mod llm_70b_api_vs_self_host;
mod llm_70b_chat;
mod many_small_models;
mod mixed_gpu_pipeline_pools;
mod multi_team_cluster;
mod one_cluster_for_both;
mod pharma_14_stage_pipeline;
mod reserved_64_gpu_cluster;
mod reserved_base_spot_overflow;
mod s3_data_on_gpu_clouds;
mod shared;
mod six_small_jobs;
mod spiky_low_traffic;
mod spot_p4d_retrains;
mod spot_reclaim_waves;
mod train_sagemaker_serve_eks;

use crate::model::scenario::Scenario;

/// A named starting scenario.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Identifier used by `--preset` and in links.
    pub name: &'static str,
    /// Version of this preset's contents.
    pub version: u32,
    /// One line for `gpucost presets` and the preset picker.
    pub description: &'static str,
    build: fn() -> Scenario,
}

impl Preset {
    /// The preset's scenario, with the warm-up the rule gives it
    /// ([`Scenario::default_warmup_days`]).
    pub fn scenario(&self) -> Scenario {
        let mut scenario = (self.build)();
        scenario.warmup_days = scenario.default_warmup_days();
        scenario
    }
}

/// The preset the page opens with.
pub const DEFAULT: &str = "batch-vs-eks-spot";

/// Every preset, in display order (the default first).
pub fn presets() -> &'static [Preset] {
    &[
        Preset {
            name: "batch-vs-eks-spot",
            version: 3,
            description: "8-GPU training jobs: AWS Batch on-demand vs EKS on spot vs SageMaker",
            build: batch_vs_eks_spot::scenario,
        },
        Preset {
            name: "bursty-g5-warm-pool",
            version: 3,
            description: "Bursty 1-GPU g5 jobs on AWS Batch: cold nodes vs a warm pool with an image cache (seed 004)",
            build: bursty_g5_warm_pool::scenario,
        },
        Preset {
            name: "spot-p4d-retrains",
            version: 3,
            description: "Nightly p4d retrains of 12 experiments on spot with 45-minute restarts (seed 000)",
            build: spot_p4d_retrains::scenario,
        },
        Preset {
            name: "six-small-jobs",
            version: 4,
            description: "1-GPU fine-tunes: EKS spreading them over 8-GPU H100 nodes vs EKS with a 1-GPU L40S pool beside its H100s vs SageMaker on a 1-GPU L40S (seed 001)",
            build: six_small_jobs::scenario,
        },
        Preset {
            name: "eks-vs-sagemaker-tco",
            version: 4,
            description: "Seed 001's TCO table: 100 GPU-hours of training a day, SageMaker with its tools vs EKS with ½ FTE of ops, add-ons and the same storage",
            build: eks_vs_sagemaker_tco::scenario,
        },
        Preset {
            name: "autopilot-vs-standard",
            version: 3,
            description: "Short L4 experiments: GKE Autopilot vs GKE Standard",
            build: autopilot_vs_standard::scenario,
        },
        Preset {
            name: "dependency-failures",
            version: 3,
            description: "Experiments where 40 % of jobs hit a deterministic dependency failure (seed 000)",
            build: dependency_failures::scenario,
        },
        Preset {
            name: "reserved-base-spot-overflow",
            version: 3,
            description: "Reserved base + spot overflow vs all spot vs all on-demand, p4d (seed 000)",
            build: reserved_base_spot_overflow::scenario,
        },
        Preset {
            name: "agent-traffic-spike",
            version: 2,
            description: "An agent API hit by ×10 traffic for an hour: SageMaker endpoint vs EKS vs GKE (seed 001)",
            build: agent_traffic_spike::scenario,
        },
        Preset {
            name: "spiky-low-traffic",
            version: 1,
            description: "A little-used assistant with bursts: Cloud Run scaling to zero vs a GKE node pool vs an always-on SageMaker endpoint (seed 002)",
            build: spiky_low_traffic::scenario,
        },
        Preset {
            name: "many-small-models",
            version: 1,
            description: "Twenty small models with little traffic: SageMaker endpoints vs inference components vs Kubernetes sharing a GPU by time-slicing or MIG (seed 001)",
            build: many_small_models::scenario,
        },
        Preset {
            name: "one-cluster-for-both",
            version: 2,
            description: "Two reserved p4d for fine-tuning and a 4-GPU model API: one EKS cluster for both, the replicas first and preempting at three nodes, vs a node group for serving (seed 001)",
            build: one_cluster_for_both::scenario,
        },
        Preset {
            name: "multi-team-cluster",
            version: 2,
            description: "Three teams on one EKS cluster with Kueue quotas, borrowing and preemption, vs SageMaker with an instance type per team, vs a reserved Slurm cluster with QOS limits and priorities (seed 001)",
            build: multi_team_cluster::scenario,
        },
        Preset {
            name: "mixed-gpu-pipeline-pools",
            version: 2,
            description: "A drug-discovery pipeline's stages on T4, V100 and A100 node pools of one GKE cluster, vs the cheapest pool per stage, vs A100s only (seed 000)",
            build: mixed_gpu_pipeline_pools::scenario,
        },
        Preset {
            name: "train-sagemaker-serve-eks",
            version: 3,
            description: "Fine-tuning jobs and the API that serves the model: all on SageMaker, all on EKS (node groups of their own, or one cluster for both), or trained on SageMaker and served on EKS (seed 001)",
            build: train_sagemaker_serve_eks::scenario,
        },
        Preset {
            name: "pharma-14-stage-pipeline",
            version: 2,
            description: "A drug-discovery pipeline of 14 stages on T4, V100 and A100 pools, ten runs a day: AWS Batch with Step Functions vs GKE with Argo (seed 000)",
            build: pharma_14_stage_pipeline::scenario,
        },
        Preset {
            name: "karpenter-vs-autopilot-payback",
            version: 3,
            description: "Six engineer-months to build spot handling on EKS with Karpenter, or GKE Autopilot: which pays back over 36 months (seed 000)",
            build: karpenter_vs_autopilot_payback::scenario,
        },
        Preset {
            name: "commit-1y-vs-3y",
            version: 2,
            description: "A100s on demand, on a 1-year or on a 3-year committed-use discount, at 60 % utilisation (seeds 000, 002)",
            build: commit_1y_vs_3y::scenario,
        },
        Preset {
            name: "h100-capacity-wait",
            version: 2,
            description: "8-GPU H100 training on GKE spot after a 4-hour wait for capacity, GKE on demand, and EKS spot; nodes fail as Meta's fleet did (seed 002)",
            build: h100_capacity_wait::scenario,
        },
        Preset {
            name: "fsdp-64-gpu-scaling",
            version: 2,
            description: "64-GPU FSDP training on eight p5 nodes over EFA: SageMaker places them together, EKS scatters them, EKS with a placement group (seed 001's 92 % vs 78 %)",
            build: fsdp_64_gpu_scaling::scenario,
        },
        Preset {
            name: "spot-reclaim-waves",
            version: 2,
            description: "4-node gang jobs on EKS spot p4d: interruptions node by node, the same rate in reclaim waves with a capacity drought, and waves with a fall-back to on demand (seed 002)",
            build: spot_reclaim_waves::scenario,
        },
        Preset {
            name: "data-gravity-egress",
            version: 3,
            description: "4-GPU G5 spot jobs reading 150 GB each from one S3 bucket in us-east-1: Batch beside it, Batch in us-west-2 through a NAT gateway, and GKE in us-central1 (seed 000's 23 % S3 egress premium)",
            build: data_gravity_egress::scenario,
        },
        Preset {
            name: "fsx-vs-s3-direct",
            version: 3,
            description: "128-GPU training on 16 p4d nodes (seed 002's 16-node run), each attempt staging 2 TB: straight from S3 (compute 12 % slower), from FSx for Lustre at 250 MB/s per TiB sized for its throughput (1 % slower), and from 2.4 TiB at 125 MB/s per TiB, too small for it (seeds 002 and 000)",
            build: fsx_vs_s3_direct::scenario,
        },
        Preset {
            name: "h100-three-clouds",
            version: 1,
            description: "8×H100 training: AWS p5, Azure ND H100 v5 and Google A3, each on its managed service and on its Kubernetes (six platforms)",
            build: h100_three_clouds::scenario,
        },
        Preset {
            name: "llm-70b-chat",
            version: 1,
            description: "A 70B chat model for 200 req/s at peak: EKS on H100 vs a SageMaker endpoint, in $ per million tokens, TTFT and TPOT",
            build: llm_70b_chat::scenario,
        },
        Preset {
            name: "llm-70b-api-vs-self-host",
            version: 1,
            description: "The 70B chat model self-hosted (EKS on H100, a SageMaker endpoint) or bought as an API (Bedrock per token, Azure AI Foundry provisioned throughput): $ per million output tokens, TTFT and TPOT p95, SLO minutes",
            build: llm_70b_api_vs_self_host::scenario,
        },
        Preset {
            name: "code-assistant-api-vs-self-host",
            version: 1,
            description: "A bursty code assistant fitted from a real request trace (Azure's, 2023): a 70B on EKS (H100 or L40S) vs Bedrock at its default quota vs DeepInfra, in $ per million output tokens",
            build: code_assistant_api_vs_self_host::scenario,
        },
        Preset {
            name: "h100-six-clouds",
            version: 1,
            description: "8×H100 training on AWS p5, Azure ND H100 v5, Google A3, CoreWeave, Lambda and Nebius, each on its Kubernetes (Lambda's on-demand instances: it sells Kubernetes only with its reserved clusters)",
            build: h100_six_clouds::scenario,
        },
        Preset {
            name: "s3-data-on-gpu-clouds",
            version: 1,
            description: "Egress-heavy 8×H100 training whose data stays in S3: EKS beside the bucket vs CoreWeave, Lambda and Nebius, which charge no egress but read 2 TB an attempt that AWS bills as internet egress",
            build: s3_data_on_gpu_clouds::scenario,
        },
        Preset {
            name: "reserved-64-gpu-cluster",
            version: 1,
            description: "A reserved 64-GPU H100 cluster on a GPU cloud (a Lambda 1-Click Cluster, a CoreWeave reservation) vs EKS on p5 on demand",
            build: reserved_64_gpu_cluster::scenario,
        },
        Preset {
            name: "azure-ml-endpoints-vs-kubernetes",
            version: 1,
            description: "A model API on one A100 80GB per replica: an Azure ML managed online endpoint vs AKS vs EKS",
            build: azure_ml_endpoints_vs_kubernetes::scenario,
        },
        Preset {
            name: "case-snap-p4d-spot",
            version: 2,
            description: "Case study (seed 000): Snap's 6-hour p4d retrains on Batch, on demand vs spot at 62 % off, 12 % of nodes interrupted in a month, 45-minute restarts",
            build: case_snap_p4d_spot::scenario,
        },
        Preset {
            name: "case-egress-10-tb",
            version: 2,
            description: "Case study (seed 002): a 10 TB training run's data sent out to the internet, from AWS and from Google Cloud",
            build: case_egress_10_tb::scenario,
        },
        Preset {
            name: "case-autopilot-a100",
            version: 3,
            description: "Case study (seed 000): A100 training runs on GKE Autopilot at list prices, billed per second, with 30–45 s provisioning and throttled dataset pulls, vs GKE Standard, sized from the article's $47,000 month",
            build: case_autopilot_a100::scenario,
        },
        Preset {
            name: "case-a3-commitment",
            version: 3,
            description: "Case study (seed 002): a 50-node A3 H100 cluster on GKE, on demand vs a 1-year committed-use discount, with work for 80 % of it",
            build: case_a3_commitment::scenario,
        },
        Preset {
            name: "case-robinhood-ri-spot",
            version: 3,
            description: "Case study (seed 000): g5.48xlarge on AWS Batch with a 1-year convertible reserved base idle 15 % of the time and spot overflow, vs a comparable GKE L4 cluster on a committed-use discount",
            build: case_robinhood_ri_spot::scenario,
        },
        Preset {
            name: "case-sequoia-av-experiments",
            version: 2,
            description: "Case study (seed 000): an AV startup's daily 6-hour retrain and the 12 experiments of 18 minutes that come with it, each on a CUDA image of its own, 40 % failing on dependency conflicts, on GKE A100 nodes",
            build: case_sequoia_av_experiments::scenario,
        },
        Preset {
            name: "case-uber-55-vs-85",
            version: 3,
            description: "Case study (seed 000): the same experiments on a static cluster they keep 55 % busy and on one they keep 85 % busy, no other overhead, with the price of waiting at $100 an hour",
            build: case_uber_55_vs_85::scenario,
        },
        Preset {
            name: "case-fintech-autopilot-payback",
            version: 3,
            description: "Case study (seed 000): a fraud-detection fintech's six engineer-months on EKS with Karpenter and two platform engineers, recovered by moving to GKE Autopilot: the weeks its monthly saving takes to repay them",
            build: case_fintech_autopilot_payback::scenario,
        },
        Preset {
            name: "case-datastax-inference",
            version: 1,
            description: "Case study (seed 001): an inference API under 15 ms moved from a SageMaker endpoint to EKS, with the agent traffic spike (×10 for an hour, four times a month)",
            build: case_datastax_inference::scenario,
        },
        Preset {
            name: "case-bursty-g5-steps",
            version: 2,
            description: "Case study (seed 004): bursty 1-GPU g5 jobs on AWS Batch, one fix at a time: cold nodes, then the image cache, then a warm window, then 4-GPU nodes",
            build: case_bursty_g5_steps::scenario,
        },
        Preset {
            name: "case-batch-g5-vs-gke",
            version: 1,
            description: "Case study (seed 000): 4-GPU G5 spot jobs on AWS Batch reading S3 beside the bucket or from another region through NAT, vs GKE on L4 spot beside its own copy of the data",
            build: case_batch_g5_vs_gke::scenario,
        },
        Preset {
            name: "case-h100-at-scale",
            version: 1,
            description: "Case study (seed 002): a 128-node H100 run each week on P5 over EFA (ParallelCluster), on A3 High over TCPX and on A3 Mega over TCPXO, at list prices",
            build: case_h100_at_scale::scenario,
        },
        Preset {
            name: "case-a100-effective-range",
            version: 1,
            description: "Case study (seed 000): the same 8-GPU A100 retrains on p4d with AWS Batch at an effective-cost range's two ends: stable spot beside the data, and on demand reading it from another region through NAT",
            build: case_a100_effective_range::scenario,
        },
        Preset {
            name: "case-sagemaker-vs-eks-spot",
            version: 1,
            description: "Case study (seed 001): the same 8-GPU A100 training on spot with SageMaker's managed spot training and with EKS, both recovering from 30-minute checkpoints",
            build: case_sagemaker_vs_eks_spot::scenario,
        },
    ]
}

/// The preset named `name`.
pub fn preset(name: &str) -> Option<&'static Preset> {
    presets().iter().find(|p| p.name == name)
}

/// Earlier versions of presets, frozen as the scenario JSON they had: (name, version, JSON).
/// Every published version is also in `data/presets/<name>@<version>.json`, and a test holds
/// the current versions to those files: when a preset's contents change (its own edits, or a
/// platform default or catalog price it is built from), that test fails until the version
/// goes up and the old JSON is added here, so links naming the old version keep opening the
/// same scenario. Version 2 of every preset on AWS prices is version 1 on the 2026-H2 catalog
/// (the P4/P5 on-demand prices after the mid-2025 price cut); version 1 keeps the ~2025-H1
/// prices.
const FROZEN: &[(&str, u32, &str)] = &[
    (
        "agent-traffic-spike",
        1,
        include_str!("../../../../data/presets/agent-traffic-spike@1.json"),
    ),
    (
        "batch-vs-eks-spot",
        1,
        include_str!("../../../../data/presets/batch-vs-eks-spot@1.json"),
    ),
    (
        "bursty-g5-warm-pool",
        1,
        include_str!("../../../../data/presets/bursty-g5-warm-pool@1.json"),
    ),
    (
        "autopilot-vs-standard",
        1,
        include_str!("../../../../data/presets/autopilot-vs-standard@1.json"),
    ),
    (
        "data-gravity-egress",
        1,
        include_str!("../../../../data/presets/data-gravity-egress@1.json"),
    ),
    (
        "karpenter-vs-autopilot-payback",
        1,
        include_str!("../../../../data/presets/karpenter-vs-autopilot-payback@1.json"),
    ),
    (
        "dependency-failures",
        1,
        include_str!("../../../../data/presets/dependency-failures@1.json"),
    ),
    (
        "eks-vs-sagemaker-tco",
        1,
        include_str!("../../../../data/presets/eks-vs-sagemaker-tco@1.json"),
    ),
    (
        "eks-vs-sagemaker-tco",
        2,
        include_str!("../../../../data/presets/eks-vs-sagemaker-tco@2.json"),
    ),
    (
        "reserved-base-spot-overflow",
        1,
        include_str!("../../../../data/presets/reserved-base-spot-overflow@1.json"),
    ),
    (
        "six-small-jobs",
        1,
        include_str!("../../../../data/presets/six-small-jobs@1.json"),
    ),
    (
        "six-small-jobs",
        2,
        include_str!("../../../../data/presets/six-small-jobs@2.json"),
    ),
    (
        "spot-p4d-retrains",
        1,
        include_str!("../../../../data/presets/spot-p4d-retrains@1.json"),
    ),
    (
        "train-sagemaker-serve-eks",
        1,
        include_str!("../../../../data/presets/train-sagemaker-serve-eks@1.json"),
    ),
    (
        "batch-vs-eks-spot",
        2,
        include_str!("../../../../data/presets/batch-vs-eks-spot@2.json"),
    ),
    (
        "bursty-g5-warm-pool",
        2,
        include_str!("../../../../data/presets/bursty-g5-warm-pool@2.json"),
    ),
    (
        "spot-p4d-retrains",
        2,
        include_str!("../../../../data/presets/spot-p4d-retrains@2.json"),
    ),
    (
        "six-small-jobs",
        3,
        include_str!("../../../../data/presets/six-small-jobs@3.json"),
    ),
    (
        "eks-vs-sagemaker-tco",
        3,
        include_str!("../../../../data/presets/eks-vs-sagemaker-tco@3.json"),
    ),
    (
        "autopilot-vs-standard",
        2,
        include_str!("../../../../data/presets/autopilot-vs-standard@2.json"),
    ),
    (
        "dependency-failures",
        2,
        include_str!("../../../../data/presets/dependency-failures@2.json"),
    ),
    (
        "reserved-base-spot-overflow",
        2,
        include_str!("../../../../data/presets/reserved-base-spot-overflow@2.json"),
    ),
    (
        "one-cluster-for-both",
        1,
        include_str!("../../../../data/presets/one-cluster-for-both@1.json"),
    ),
    (
        "multi-team-cluster",
        1,
        include_str!("../../../../data/presets/multi-team-cluster@1.json"),
    ),
    (
        "mixed-gpu-pipeline-pools",
        1,
        include_str!("../../../../data/presets/mixed-gpu-pipeline-pools@1.json"),
    ),
    (
        "train-sagemaker-serve-eks",
        2,
        include_str!("../../../../data/presets/train-sagemaker-serve-eks@2.json"),
    ),
    (
        "pharma-14-stage-pipeline",
        1,
        include_str!("../../../../data/presets/pharma-14-stage-pipeline@1.json"),
    ),
    (
        "karpenter-vs-autopilot-payback",
        2,
        include_str!("../../../../data/presets/karpenter-vs-autopilot-payback@2.json"),
    ),
    (
        "commit-1y-vs-3y",
        1,
        include_str!("../../../../data/presets/commit-1y-vs-3y@1.json"),
    ),
    (
        "h100-capacity-wait",
        1,
        include_str!("../../../../data/presets/h100-capacity-wait@1.json"),
    ),
    (
        "fsdp-64-gpu-scaling",
        1,
        include_str!("../../../../data/presets/fsdp-64-gpu-scaling@1.json"),
    ),
    (
        "spot-reclaim-waves",
        1,
        include_str!("../../../../data/presets/spot-reclaim-waves@1.json"),
    ),
    (
        "data-gravity-egress",
        2,
        include_str!("../../../../data/presets/data-gravity-egress@2.json"),
    ),
    (
        "fsx-vs-s3-direct",
        1,
        include_str!("../../../../data/presets/fsx-vs-s3-direct@1.json"),
    ),
    (
        "fsx-vs-s3-direct",
        2,
        include_str!("../../../../data/presets/fsx-vs-s3-direct@2.json"),
    ),
    (
        "case-snap-p4d-spot",
        1,
        include_str!("../../../../data/presets/case-snap-p4d-spot@1.json"),
    ),
    (
        "case-egress-10-tb",
        1,
        include_str!("../../../../data/presets/case-egress-10-tb@1.json"),
    ),
    (
        "case-autopilot-a100",
        1,
        include_str!("../../../../data/presets/case-autopilot-a100@1.json"),
    ),
    (
        "case-autopilot-a100",
        2,
        include_str!("../../../../data/presets/case-autopilot-a100@2.json"),
    ),
    (
        "case-a3-commitment",
        1,
        include_str!("../../../../data/presets/case-a3-commitment@1.json"),
    ),
    (
        "case-a3-commitment",
        2,
        include_str!("../../../../data/presets/case-a3-commitment@2.json"),
    ),
    (
        "case-robinhood-ri-spot",
        1,
        include_str!("../../../../data/presets/case-robinhood-ri-spot@1.json"),
    ),
    (
        "case-robinhood-ri-spot",
        2,
        include_str!("../../../../data/presets/case-robinhood-ri-spot@2.json"),
    ),
    (
        "case-sequoia-av-experiments",
        1,
        include_str!("../../../../data/presets/case-sequoia-av-experiments@1.json"),
    ),
    (
        "case-uber-55-vs-85",
        1,
        include_str!("../../../../data/presets/case-uber-55-vs-85@1.json"),
    ),
    (
        "case-uber-55-vs-85",
        2,
        include_str!("../../../../data/presets/case-uber-55-vs-85@2.json"),
    ),
    (
        "case-fintech-autopilot-payback",
        1,
        include_str!("../../../../data/presets/case-fintech-autopilot-payback@1.json"),
    ),
    (
        "case-fintech-autopilot-payback",
        2,
        include_str!("../../../../data/presets/case-fintech-autopilot-payback@2.json"),
    ),
    (
        "case-bursty-g5-steps",
        1,
        include_str!("../../../../data/presets/case-bursty-g5-steps@1.json"),
    ),
];

/// The scenario of version `version` of preset `name`: the current one or a frozen earlier
/// one; `None` when this build does not have that version.
pub fn preset_scenario_at(name: &str, version: u32) -> Option<Scenario> {
    let current = preset(name)?;
    if current.version == version {
        return Some(current.scenario());
    }
    FROZEN
        .iter()
        .find(|(n, v, _)| *n == name && *v == version)
        .and_then(|(_, _, json)| Scenario::from_json(json).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::Overflow;

    #[test]
    fn every_pool_is_measured_against_the_scenarios_reference_gpu() {
        // Durations are run times on the reference GPU: a pool's relative throughput must be
        // its GPU's against that one, or the jobs run longer or shorter than stated.
        for p in presets() {
            let s = p.scenario();
            for platform in &s.platforms {
                for pool in &platform.node_pools {
                    let expected =
                        crate::model::gpus::relative_throughput(&pool.gpu_model, &s.reference_gpu)
                            .unwrap();
                    assert!(
                        (pool.relative_throughput - expected).abs() < 1e-12,
                        "{}: {} pool {} at {} against {}, expected {expected}",
                        p.name,
                        platform.name,
                        pool.name,
                        pool.relative_throughput,
                        s.reference_gpu
                    );
                }
            }
        }
    }

    #[test]
    fn every_preset_is_valid_and_uniquely_named() {
        let all = presets();
        for (i, p) in all.iter().enumerate() {
            p.scenario()
                .validate()
                .unwrap_or_else(|e| panic!("preset {}: {e}", p.name));
            assert!(all[..i].iter().all(|q| q.name != p.name));
        }
        assert_eq!(all[0].name, DEFAULT);
    }

    #[test]
    fn default_preset_compares_spot_and_on_demand() {
        let s = preset(DEFAULT).unwrap().scenario();
        let kinds: Vec<Overflow> = s
            .platforms
            .iter()
            .map(|p| p.first_pool().purchase.overflow)
            .collect();
        assert!(kinds.contains(&Overflow::Spot) && kinds.contains(&Overflow::OnDemand));
    }
}
