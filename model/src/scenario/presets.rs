//! Named, versioned presets. A preset's contents never change under the same version: a link
//! names the preset and its version, so old links keep reproducing their scenario.
//!
//! Each preset is a situation from a seed article (see the design's seeds); the seeds' numbers
//! are anecdotes used as a starting point, not measured truth.

use crate::model::catalog;
use crate::model::platforms::Profile;
use crate::model::scenario::{
    gpu_sharing, Arrivals, Duration, FailureKind, Failures, GpuSharing, JobClass, NodePool, OneOff,
    Orchestration, Overflow, PaybackSettings, Pipeline, Placement, Platform, Preemption, Scenario,
    Service, ServiceSpikes, ServiceTraffic, Serving, TeamPolicy,
};

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
    /// The preset's scenario.
    pub fn scenario(&self) -> Scenario {
        (self.build)()
    }
}

/// The preset the page opens with.
pub const DEFAULT: &str = "batch-vs-eks-spot";

/// Every preset, in display order (the default first).
pub fn presets() -> &'static [Preset] {
    &[
        Preset {
            name: "batch-vs-eks-spot",
            version: 2,
            description: "8-GPU training jobs: AWS Batch on-demand vs EKS on spot vs SageMaker",
            build: batch_vs_eks_spot,
        },
        Preset {
            name: "bursty-g5-warm-pool",
            version: 2,
            description: "Bursty 1-GPU g5 jobs on AWS Batch: cold nodes vs a warm pool with an image cache (seed 004)",
            build: bursty_g5_warm_pool,
        },
        Preset {
            name: "spot-p4d-retrains",
            version: 2,
            description: "Nightly p4d retrains of 12 experiments on spot with 45-minute restarts (seed 000)",
            build: spot_p4d_retrains,
        },
        Preset {
            name: "six-small-jobs",
            version: 3,
            description: "1-GPU fine-tunes: EKS spreading them over 8-GPU H100 nodes vs EKS with a 1-GPU L40S pool beside its H100s vs SageMaker on a 1-GPU L40S (seed 001)",
            build: six_small_jobs,
        },
        Preset {
            name: "eks-vs-sagemaker-tco",
            version: 3,
            description: "Seed 001's TCO table: 100 GPU-hours of training a day, SageMaker with its tools vs EKS with ½ FTE of ops, add-ons and the same storage",
            build: eks_vs_sagemaker_tco,
        },
        Preset {
            name: "autopilot-vs-standard",
            version: 2,
            description: "Short L4 experiments: GKE Autopilot vs GKE Standard",
            build: autopilot_vs_standard,
        },
        Preset {
            name: "dependency-failures",
            version: 2,
            description: "Experiments where 40 % of jobs hit a deterministic dependency failure (seed 000)",
            build: dependency_failures,
        },
        Preset {
            name: "reserved-base-spot-overflow",
            version: 2,
            description: "Reserved base + spot overflow vs all spot vs all on-demand, p4d (seed 000)",
            build: reserved_base_spot_overflow,
        },
        Preset {
            name: "agent-traffic-spike",
            version: 2,
            description: "An agent API hit by ×10 traffic for an hour: SageMaker endpoint vs EKS vs GKE (seed 001)",
            build: agent_traffic_spike,
        },
        Preset {
            name: "spiky-low-traffic",
            version: 1,
            description: "A little-used assistant with bursts: Cloud Run scaling to zero vs a GKE node pool vs an always-on SageMaker endpoint (seed 002)",
            build: spiky_low_traffic,
        },
        Preset {
            name: "many-small-models",
            version: 1,
            description: "Twenty small models with little traffic: SageMaker endpoints vs inference components vs Kubernetes sharing a GPU by time-slicing or MIG (seed 001)",
            build: many_small_models,
        },
        Preset {
            name: "one-cluster-for-both",
            version: 1,
            description: "Two reserved p4d for fine-tuning and a 4-GPU model API: one EKS cluster for both, the replicas first and preempting at three nodes, vs a node group for serving (seed 001)",
            build: one_cluster_for_both,
        },
        Preset {
            name: "multi-team-cluster",
            version: 1,
            description: "Three teams on one EKS cluster with Kueue quotas, borrowing and preemption, vs SageMaker with an instance type per team, vs a reserved Slurm cluster with QOS limits and priorities (seed 001)",
            build: multi_team_cluster,
        },
        Preset {
            name: "mixed-gpu-pipeline-pools",
            version: 1,
            description: "A drug-discovery pipeline's stages on T4, V100 and A100 node pools of one GKE cluster, vs the cheapest pool per stage, vs A100s only (seed 000)",
            build: mixed_gpu_pipeline_pools,
        },
        Preset {
            name: "train-sagemaker-serve-eks",
            version: 2,
            description: "Fine-tuning jobs and the API that serves the model: all on SageMaker, all on EKS (node groups of their own, or one cluster for both), or trained on SageMaker and served on EKS (seed 001)",
            build: train_sagemaker_serve_eks,
        },
        Preset {
            name: "pharma-14-stage-pipeline",
            version: 1,
            description: "A drug-discovery pipeline of 14 stages on T4, V100 and A100 pools, ten runs a day: AWS Batch with Step Functions vs GKE with Argo (seed 000)",
            build: pharma_14_stage_pipeline,
        },
        Preset {
            name: "karpenter-vs-autopilot-payback",
            version: 2,
            description: "Six engineer-months to build spot handling on EKS with Karpenter, or GKE Autopilot: which pays back over 36 months (seed 000)",
            build: karpenter_vs_autopilot_payback,
        },
        Preset {
            name: "commit-1y-vs-3y",
            version: 1,
            description: "A100s on demand, on a 1-year or on a 3-year committed-use discount, at 60 % utilisation (seeds 000, 002)",
            build: commit_1y_vs_3y,
        },
        Preset {
            name: "h100-capacity-wait",
            version: 1,
            description: "8-GPU H100 training on GKE spot after a 4-hour wait for capacity, GKE on demand, and EKS spot; nodes fail as Meta's fleet did (seed 002)",
            build: h100_capacity_wait,
        },
        Preset {
            name: "fsdp-64-gpu-scaling",
            version: 1,
            description: "64-GPU FSDP training on eight p5 nodes over EFA: SageMaker places them together, EKS scatters them, EKS with a placement group (seed 001's 92 % vs 78 %)",
            build: fsdp_64_gpu_scaling,
        },
        Preset {
            name: "spot-reclaim-waves",
            version: 1,
            description: "4-node gang jobs on EKS spot p4d: interruptions node by node, the same rate in reclaim waves with a capacity drought, and waves with a fall-back to on demand (seed 002)",
            build: spot_reclaim_waves,
        },
        Preset {
            name: "data-gravity-egress",
            version: 2,
            description: "4-GPU G5 spot jobs reading 150 GB each from one S3 bucket in us-east-1: Batch beside it, Batch in us-west-2 through a NAT gateway, and GKE in us-central1 (seed 000's 23 % S3 egress premium)",
            build: data_gravity_egress,
        },
        Preset {
            name: "fsx-vs-s3-direct",
            version: 1,
            description: "16-GPU training on two p4d nodes, each attempt staging 2 TB: straight from S3 (compute 12 % slower), from FSx for Lustre at 250 MB/s per TiB sized for its throughput (1 % slower), and from 2.4 TiB at 125 MB/s per TiB, too small for it (seeds 002 and 000)",
            build: fsx_vs_s3_direct,
        },
        Preset {
            name: "case-snap-p4d-spot",
            version: 1,
            description: "Case study (seed 000): Snap's 6-hour p4d retrains on Batch, on demand vs spot at 62 % off, 12 % of nodes interrupted in a month, 45-minute restarts",
            build: case_snap_p4d_spot,
        },
        Preset {
            name: "case-egress-10-tb",
            version: 1,
            description: "Case study (seed 002): a 10 TB training run's data sent out to the internet, from AWS and from Google Cloud",
            build: case_egress_10_tb,
        },
        Preset {
            name: "case-autopilot-a100",
            version: 1,
            description: "Case study (seed 000): A100 training runs at the $2.10 an hour a PM modelled, on GKE Autopilot with 30-minute billing increments, 30–45 s provisioning and throttled dataset pulls, vs GKE Standard",
            build: case_autopilot_a100,
        },
        Preset {
            name: "case-a3-commitment",
            version: 1,
            description: "Case study (seed 002): a 50-node A3 H100 cluster on GKE, on demand vs a 1-year committed-use discount, with work for 80 % of it",
            build: case_a3_commitment,
        },
        Preset {
            name: "case-robinhood-ri-spot",
            version: 1,
            description: "Case study (seed 000): g5.48xlarge on AWS Batch with a 1-year reserved base and spot overflow, accepting idle reserved nodes, vs a comparable GKE L4 cluster on a committed-use discount",
            build: case_robinhood_ri_spot,
        },
        Preset {
            name: "case-sequoia-av-experiments",
            version: 1,
            description: "Case study (seed 000): an AV startup's daily 6-hour retrain and the 12 experiments of 18 minutes that come with it, each on a CUDA image of its own, 40 % failing on dependency conflicts, on GKE A100 nodes",
            build: case_sequoia_av_experiments,
        },
        Preset {
            name: "case-uber-55-vs-85",
            version: 1,
            description: "Case study (seed 000): the same experiments on a static cluster they keep 55 % busy and on one they keep 85 % busy, with the price of waiting at $100 an hour",
            build: case_uber_55_vs_85,
        },
        Preset {
            name: "case-fintech-autopilot-payback",
            version: 1,
            description: "Case study (seed 000): a fraud-detection fintech's six engineer-months on EKS with Karpenter, recovered by moving to GKE Autopilot: the weeks its monthly saving takes to repay them",
            build: case_fintech_autopilot_payback,
        },
        Preset {
            name: "case-datastax-inference",
            version: 1,
            description: "Case study (seed 001): an inference API under 15 ms moved from a SageMaker endpoint to EKS, with the agent traffic spike (×10 for an hour, four times a month)",
            build: case_datastax_inference,
        },
        Preset {
            name: "case-bursty-g5-steps",
            version: 1,
            description: "Case study (seed 004): bursty 1-GPU g5 jobs on AWS Batch, one fix at a time: cold nodes, then the image cache, then a warm window, then 4-GPU nodes",
            build: case_bursty_g5_steps,
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
        include_str!("../../../data/presets/agent-traffic-spike@1.json"),
    ),
    (
        "batch-vs-eks-spot",
        1,
        include_str!("../../../data/presets/batch-vs-eks-spot@1.json"),
    ),
    (
        "bursty-g5-warm-pool",
        1,
        include_str!("../../../data/presets/bursty-g5-warm-pool@1.json"),
    ),
    (
        "autopilot-vs-standard",
        1,
        include_str!("../../../data/presets/autopilot-vs-standard@1.json"),
    ),
    (
        "data-gravity-egress",
        1,
        include_str!("../../../data/presets/data-gravity-egress@1.json"),
    ),
    (
        "karpenter-vs-autopilot-payback",
        1,
        include_str!("../../../data/presets/karpenter-vs-autopilot-payback@1.json"),
    ),
    (
        "dependency-failures",
        1,
        include_str!("../../../data/presets/dependency-failures@1.json"),
    ),
    (
        "eks-vs-sagemaker-tco",
        1,
        include_str!("../../../data/presets/eks-vs-sagemaker-tco@1.json"),
    ),
    (
        "eks-vs-sagemaker-tco",
        2,
        include_str!("../../../data/presets/eks-vs-sagemaker-tco@2.json"),
    ),
    (
        "reserved-base-spot-overflow",
        1,
        include_str!("../../../data/presets/reserved-base-spot-overflow@1.json"),
    ),
    (
        "six-small-jobs",
        1,
        include_str!("../../../data/presets/six-small-jobs@1.json"),
    ),
    (
        "six-small-jobs",
        2,
        include_str!("../../../data/presets/six-small-jobs@2.json"),
    ),
    (
        "spot-p4d-retrains",
        1,
        include_str!("../../../data/presets/spot-p4d-retrains@1.json"),
    ),
    (
        "train-sagemaker-serve-eks",
        1,
        include_str!("../../../data/presets/train-sagemaker-serve-eks@1.json"),
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

fn training_class() -> JobClass {
    JobClass::default()
}

fn batch_vs_eks_spot() -> Scenario {
    let batch = Profile::AwsBatch.platform("AWS Batch on-demand", "p4d.24xlarge", "us-east-1");
    let mut eks = Profile::Eks.platform("EKS spot", "p4d.24xlarge", "us-east-1");
    eks.first_pool_mut().purchase.overflow = Overflow::Spot;
    let sagemaker = Profile::Sagemaker.platform("SageMaker", "p4d.24xlarge", "us-east-1");
    Scenario {
        reference_gpus: 32,
        job_classes: vec![training_class()],
        platforms: vec![batch, eks, sagemaker],
        ..Scenario::default()
    }
}

fn bursty_g5_warm_pool() -> Scenario {
    let mut cold = Profile::AwsBatch.platform("Batch, cold nodes", "g5.xlarge", "us-east-1");
    cold.first_pool_mut().warm_pool_window_s = 0.0;
    cold.first_pool_mut().image_cache = false;
    let mut warm = Profile::AwsBatch.platform(
        "Batch, warm pool + cache on 4-GPU nodes",
        "g5.12xlarge",
        "us-east-1",
    );
    warm.first_pool_mut().warm_pool_window_s = 1_800.0;
    warm.first_pool_mut().image_cache = true;
    Scenario {
        reference_gpus: 4,
        job_classes: vec![JobClass {
            name: "Inference batch".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 6.0,
                jobs_per_burst: 12,
            },
            duration: Duration::LogNormal {
                median_hours: 0.1,
                p90_hours: 0.3,
            },
            gpus_per_job: 1.0,
            gpu_memory_gb: 16.0,
            image_gb: 15.0,
            data_read_gb_per_attempt: 5.0,
            egress_gb_per_job: 0.5,
            checkpoint_interval_min: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![cold, warm],
        ..Scenario::default()
    }
}

fn spot_p4d_retrains() -> Scenario {
    let mut spot = Profile::AwsBatch.platform("Batch spot", "p4d.24xlarge", "us-east-1");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    spot.first_pool_mut().spot_interruptions_per_node_hour = 0.02;
    let on_demand = Profile::AwsBatch.platform("Batch on-demand", "p4d.24xlarge", "us-east-1");
    let mut gke =
        Profile::GkeStandard.platform("GKE Standard spot", "a2-highgpu-8g", "us-central1");
    gke.first_pool_mut().purchase.overflow = Overflow::Spot;
    gke.first_pool_mut().spot_interruptions_per_node_hour = 0.02;
    Scenario {
        reference_gpus: 96,
        job_classes: vec![JobClass {
            name: "Nightly retrain".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 1.0,
                jobs_per_burst: 12,
            },
            duration: Duration::LogNormal {
                median_hours: 6.0,
                p90_hours: 10.0,
            },
            restart_overhead_s: 2_700.0,
            checkpoint_interval_min: 60.0,
            checkpoint_write_s: 300.0,
            ..JobClass::default()
        }],
        platforms: vec![spot, on_demand, gke],
        ..Scenario::default()
    }
}

/// A platform of `profile`'s defaults named `name` on catalog row `instance` in `region`,
/// its GPUs measured against `reference_gpu` (the scenario's).
fn on(profile: Profile, name: &str, instance: &str, region: &str, reference_gpu: &str) -> Platform {
    let row = catalog::find(instance, region)
        .unwrap_or_else(|| panic!("{instance} in {region} is not in the catalog"));
    profile.platform_on(name, row, reference_gpu)
}

/// A pool of `profile`'s defaults named `name` on catalog row `instance` in `region`.
fn pool(profile: Profile, name: &str, instance: &str, region: &str) -> NodePool {
    let row = catalog::find(instance, region)
        .unwrap_or_else(|| panic!("{instance} in {region} is not in the catalog"));
    profile.pool_on(name, row, "A100")
}

/// Seed 001's BNP Paribas case: six 1-GPU fine-tunes at a time, each needing 30 GB. Spread
/// over 8-GPU H100 nodes (what the seed describes: six jobs on six nodes), on an EKS cluster
/// with a pool of 1-GPU L40S nodes (g6e.xlarge, 44.7 GB) beside its H100s, where the jobs go
/// as the cheapest pool that fits, and on SageMaker on the 1-GPU instance a user would pick
/// for 30 GB (an A10G's 22 GB is too small). Version 2 gave SageMaker whole p5 instances.
fn six_small_jobs() -> Scenario {
    let mut spread = Profile::Eks.platform("EKS, spread", "p5.48xlarge", "us-east-1");
    spread.placement = Placement::Spread;
    let mut pools = Profile::Eks.platform("EKS, H100 + L40S pools", "p5.48xlarge", "us-east-1");
    pools.first_pool_mut().name = "h100".into();
    pools
        .node_pools
        .push(pool(Profile::Eks, "l40s", "g6e.xlarge", "us-east-1"));
    let sagemaker = Profile::Sagemaker.platform("SageMaker", "g6e.xlarge", "us-east-1");
    Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "1-GPU fine-tune".into(),
            arrivals: Arrivals::Bursts {
                bursts_per_day: 4.0,
                jobs_per_burst: 6,
            },
            duration: Duration::LogNormal {
                median_hours: 3.0,
                p90_hours: 6.0,
            },
            gpus_per_job: 1.0,
            ..JobClass::default()
        }],
        platforms: vec![spread, pools, sagemaker],
        ..Scenario::default()
    }
}

/// Seed 001: "K8s with namespace quotas and Volcano. You can enforce GPU limits per team and
/// share unused capacity. SageMaker doesn't support this natively." Three teams: research's
/// 8-GPU training runs (lowest priority, checkpointed every 30 minutes), product's bursts of
/// 1-GPU fine-tunes (highest) and evaluation's 4-GPU runs. One EKS cluster of p4d nodes where
/// each team has a Kueue quota (research 16 GPUs, product and evaluation 8), borrows what
/// the others leave idle, and takes it back by preemption (a 120 s grace period, enough to
/// write a checkpoint); SageMaker, each team on the instance type that fits its jobs (no
/// queue to share, so no quota); and a reserved Slurm cluster of four p4d nodes with QOS GPU
/// limits (research 24, the others 8), priorities and preemption with requeue (no grace
/// time, Slurm's default). The workload's sizes are assumptions (the seed gives none).
fn multi_team_cluster() -> Scenario {
    let policy = |team: &str, nominal: f64, priority: i32| TeamPolicy {
        team: team.into(),
        nominal_gpus: Some(nominal),
        borrowing_limit_gpus: None,
        priority,
    };
    let mut eks = Profile::Eks.platform("EKS with Kueue", "p4d.24xlarge", "us-east-1");
    eks.teams = vec![
        policy("research", 16.0, 0),
        policy("product", 8.0, 100),
        policy("evaluation", 8.0, 50),
    ];
    eks.preemption = Preemption {
        reclaim_quota: true,
        lower_priority: true,
        grace_period_s: 120.0,
        ..Default::default()
    };
    let mut sagemaker = Profile::Sagemaker.platform(
        "SageMaker, an instance type per team",
        "p4d.24xlarge",
        "us-east-1",
    );
    sagemaker.first_pool_mut().name = "p4d".into();
    sagemaker
        .node_pools
        .push(pool(Profile::Sagemaker, "g6e", "g6e.xlarge", "us-east-1"));
    sagemaker.node_pools.push(pool(
        Profile::Sagemaker,
        "g5-12x",
        "g5.12xlarge",
        "us-east-1",
    ));
    for (class, at) in [
        ("Research training", "p4d"),
        ("Product fine-tune", "g6e"),
        ("Evaluation", "g5-12x"),
    ] {
        sagemaker.class_pools.insert(class.into(), at.into());
    }
    let mut slurm =
        Profile::ReservedCluster.platform("Reserved Slurm cluster", "p4d.24xlarge", "us-east-1");
    slurm.teams = vec![
        TeamPolicy {
            borrowing_limit_gpus: Some(0.0),
            ..policy("research", 24.0, 0)
        },
        TeamPolicy {
            borrowing_limit_gpus: Some(0.0),
            ..policy("product", 8.0, 100)
        },
        TeamPolicy {
            borrowing_limit_gpus: Some(0.0),
            ..policy("evaluation", 8.0, 50)
        },
    ];
    slurm.preemption = Preemption {
        reclaim_quota: false,
        lower_priority: true,
        grace_period_s: 0.0,
        ..Default::default()
    };
    let class = |name: &str,
                 team: &str,
                 arrivals: Arrivals,
                 median: f64,
                 p90: f64,
                 gpus: f64,
                 memory: f64| JobClass {
        name: name.into(),
        team: team.into(),
        arrivals,
        duration: Duration::LogNormal {
            median_hours: median,
            p90_hours: p90,
        },
        gpus_per_job: gpus,
        gpu_memory_gb: memory,
        ..JobClass::default()
    };
    Scenario {
        reference_gpus: 32,
        job_classes: vec![
            class(
                "Research training",
                "research",
                Arrivals::Poisson { per_day: 3.0 },
                6.0,
                18.0,
                8.0,
                35.0,
            ),
            class(
                "Product fine-tune",
                "product",
                Arrivals::Bursts {
                    bursts_per_day: 3.0,
                    jobs_per_burst: 8,
                },
                1.0,
                3.0,
                1.0,
                30.0,
            ),
            class(
                "Evaluation",
                "evaluation",
                Arrivals::Poisson { per_day: 12.0 },
                1.5,
                3.0,
                4.0,
                20.0,
            ),
        ],
        platforms: vec![eks, sagemaker, slurm],
        ..Scenario::default()
    }
}

/// A GKE Standard cluster in us-central1 with pools of 8-GPU A100 nodes ("a100", the
/// first), 1-GPU V100 nodes ("v100") and 1-GPU T4 nodes ("t4").
fn gke_three_pools(name: &str) -> crate::model::scenario::Platform {
    let mut p = Profile::GkeStandard.platform(name, "a2-highgpu-8g", "us-central1");
    p.first_pool_mut().name = "a100".into();
    p.node_pools.push(pool(
        Profile::GkeStandard,
        "v100",
        "n1-standard-8+1xV100",
        "us-central1",
    ));
    p.node_pools.push(pool(
        Profile::GkeStandard,
        "t4",
        "n1-standard-8+1xT4",
        "us-central1",
    ));
    p
}

/// Seed 000's drug-discovery pipeline, whose stages ask for V100s, A100s and T4s "within a
/// single experimental run", as three job classes on one GKE Standard cluster: pools of
/// 1-GPU T4 and V100 nodes and 8-GPU A100 nodes, each stage on the GPU it asks for; the same
/// cluster with each stage on the cheapest pool that fits it; and A100s only. The stages'
/// sizes and rates are assumptions (the seed gives none); their durations are on an A100,
/// so a stage runs 1 ÷ 0.45 times longer on a V100 and 1 ÷ 0.12 on a T4 (the catalog's rough
/// training ratios: override a pool's relative throughput for inference-like stages).
fn mixed_gpu_pipeline_pools() -> Scenario {
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

/// Seed 001's TCO table as the article states it: 100 GPU-hours of training a day; storage
/// and networking $1,200 a month on both; ops ½ FTE on EKS at $3,500 a month (an FTE at
/// $84,000 a year) and none on SageMaker; tools and add-ons $500 on SageMaker and $1,200 on
/// EKS. Assumed where it is silent: A100s (p4d.24xlarge, us-east-1), as 8-GPU jobs of 2.5
/// hours, five a day; the storage as S3 at $0.023/GB. Version 2 ran 32-GPU jobs of 12 hours
/// twice a day, twenty times the table's compute, and so showed EKS cheaper.
fn eks_vs_sagemaker_tco() -> Scenario {
    let with = |mut p: crate::model::scenario::Platform, ops_fte: f64, tools: f64| {
        p.ops_fte = ops_fte;
        p.tooling_usd_per_month = tools;
        p.storage_gb = 1_200.0 / 0.023;
        p.storage_usd_per_gb_month = 0.023;
        p
    };
    let eks = with(
        Profile::Eks.platform("EKS", "p4d.24xlarge", "us-east-1"),
        0.5,
        1_200.0,
    );
    let sagemaker = with(
        Profile::Sagemaker.platform("SageMaker", "p4d.24xlarge", "us-east-1"),
        0.0,
        500.0,
    );
    let mut s = Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "Training".into(),
            arrivals: Arrivals::Poisson { per_day: 5.0 },
            duration: Duration::Fixed { hours: 2.5 },
            gpus_per_job: 8.0,
            gpu_memory_gb: 40.0,
            egress_gb_per_job: 0.0,
            data_read_gb_per_attempt: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![eks, sagemaker],
        ..Scenario::default()
    };
    s.people.fte_cost_usd_per_year = 84_000.0;
    s
}

/// Short experiments on L4s, their durations measured on an L4 (the reference GPU). Version 1
/// measured the nodes against an A100, so each experiment ran 3.3 times as long as stated.
fn autopilot_vs_standard() -> Scenario {
    let autopilot = on(
        Profile::GkeAutopilot,
        "GKE Autopilot",
        "g2-standard-8",
        "us-central1",
        "L4",
    );
    let standard = on(
        Profile::GkeStandard,
        "GKE Standard",
        "g2-standard-48",
        "us-central1",
        "L4",
    );
    Scenario {
        reference_gpus: 8,
        reference_gpu: "L4".into(),
        job_classes: vec![JobClass {
            name: "Short experiment".into(),
            arrivals: Arrivals::Poisson { per_day: 120.0 },
            duration: Duration::LogNormal {
                median_hours: 0.25,
                p90_hours: 1.0,
            },
            gpus_per_job: 1.0,
            gpu_memory_gb: 16.0,
            image_gb: 8.0,
            checkpoint_interval_min: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![autopilot, standard],
        ..Scenario::default()
    }
}

fn dependency_failures() -> Scenario {
    let batch = Profile::AwsBatch.platform("AWS Batch", "p4d.24xlarge", "us-east-1");
    let gke = Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-8g", "us-central1");
    let mut class = training_class();
    class.name = "Experiment".into();
    class.failures = Failures {
        probability: 0.4,
        kind: FailureKind::Deterministic,
        max_retries: 2,
        ..Failures::default()
    };
    Scenario {
        reference_gpus: 32,
        job_classes: vec![class],
        platforms: vec![batch, gke],
        ..Scenario::default()
    }
}

fn reserved_base_spot_overflow() -> Scenario {
    let mut mixed = Profile::AwsBatch.platform("Reserved base + spot", "p4d.24xlarge", "us-east-1");
    mixed.first_pool_mut().purchase.reserved_share = 0.5;
    mixed.first_pool_mut().purchase.overflow = Overflow::Spot;
    let mut spot = Profile::AwsBatch.platform("All spot", "p4d.24xlarge", "us-east-1");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    let on_demand = Profile::AwsBatch.platform("All on-demand", "p4d.24xlarge", "us-east-1");
    Scenario {
        reference_gpus: 32,
        job_classes: vec![training_class()],
        platforms: vec![mixed, spot, on_demand],
        ..Scenario::default()
    }
}

/// Seed 001's agent system "slashdotted": one service whose traffic jumps tenfold for an
/// hour about once a week, on a SageMaker endpoint (new instances wait for a CloudWatch alarm
/// and a node), on EKS with Karpenter and on GKE Standard, each on one-GPU nodes. No
/// training. The seed's "10–15 minutes" against "30 s" is an anecdote; here a new replica
/// waits for the platform's scale-up delay, a node, the image and the model.
fn agent_traffic_spike() -> Scenario {
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
        }],
        ..Scenario::default()
    }
}

/// Seed 002: "GPU scale-to-zero on Cloud Run for variable traffic". A document assistant
/// used in office hours (nothing at night, a third at weekends) with a few bursts a month:
/// Cloud Run scales to zero, a GKE Standard node pool and a SageMaker endpoint keep one
/// replica. The SageMaker endpoint's ml.g5.xlarge carries the reference data's +40 % over
/// g5.xlarge (ml.g5.xlarge $1.41 vs $1.006 an hour).
fn spiky_low_traffic() -> Scenario {
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
        }],
        ..Scenario::default()
    }
}

/// Office hours, 8:00 to 19:00, busiest late morning and mid-afternoon: weights of the
/// 24 hours.
fn office_hours() -> Vec<f64> {
    let mut hours = vec![0.0; 24];
    for (h, w) in [
        (8, 0.5),
        (9, 1.0),
        (10, 1.5),
        (11, 1.5),
        (12, 0.8),
        (13, 1.0),
        (14, 1.5),
        (15, 1.5),
        (16, 1.0),
        (17, 0.6),
        (18, 0.3),
    ] {
        hours[h] = w;
    }
    hours
}

/// Seed 001: "pack 20 small models onto one A100" with MIG or time-slicing on Kubernetes,
/// against SageMaker. Four busy models and sixteen quiet ones, in office hours; each asks
/// for a twentieth of a GPU and 1.5 GB. SageMaker gives each model whole GPUs: a
/// single-model endpoint an ml.g5.xlarge of its own (+40 %), inference components a GPU of
/// an ml.g5.12xlarge (+25 %), packed four to an instance, scaling to zero when a model is
/// idle. EKS time-slices one L40S (g6e.xlarge: AWS rents no single A100), or cuts A100s
/// into seven 1g slices, which on AWS means a p4d of eight A100s paid whole (colocation
/// with other work on the node is not modelled).
fn many_small_models() -> Scenario {
    let endpoints = Profile::Sagemaker.platform(
        "SageMaker endpoints (one per model)",
        "g5.xlarge",
        "us-east-1",
    );
    let mut components =
        Profile::Sagemaker.platform("SageMaker inference components", "g5.12xlarge", "us-east-1");
    components.serving = Some(Serving {
        scale_to_zero: true,
        shares_nodes: Some(true),
        ..Serving::of_profile(Some(Profile::Sagemaker))
    });
    let mut time_sliced =
        Profile::Eks.platform("EKS, time-slicing on one L40S", "g6e.xlarge", "us-east-1");
    time_sliced.first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
        context_switch_loss: gpu_sharing::CONTEXT_SWITCH_LOSS,
    };
    let mut mig = Profile::Eks.platform(
        "EKS, MIG 7 × 1g on a p4d (8 A100s)",
        "p4d.24xlarge",
        "us-east-1",
    );
    mig.first_pool_mut().gpu_sharing = GpuSharing::Mig {
        layout: gpu_sharing::standard_layout("A100", "7x1g").expect("A100 has MIG"),
    };
    let hours = office_hours();
    let model = |i: usize| Service {
        name: format!("model-{:02}", i + 1),
        traffic: ServiceTraffic {
            mean_rps: if i < 4 { 1.0 } else { 0.05 },
            hourly_profile: Some(hours.clone()),
            weekend_factor: 0.3,
            spikes: None,
        },
        // A small model: 40 req/s on a whole A100 at 2 requests at once (50 ms each alone).
        capacity_rps: 40.0,
        concurrency: 2,
        gpus_per_replica: 0.05,
        gpu_memory_gb: 1.5,
        latency_slo_ms: 500.0,
        min_replicas: 0,
        max_replicas: 3,
        target_utilization: 0.6,
        model_load_s: 20.0,
        image_gb: 4.0,
        queue_per_replica: 100,
    };
    Scenario {
        horizon_days: 7.0,
        replications: 20,
        reference_gpus: 1,
        job_classes: Vec::new(),
        platforms: vec![endpoints, components, time_sliced, mig],
        services: (0..20).map(model).collect(),
        ..Scenario::default()
    }
}

/// Seed 001: "train on SageMaker, serve on EKS". Fine-tuning runs of four GPUs and the
/// assistant API that serves the model on four-GPU replicas, both on g5.12xlarge (4 × A10G):
/// SageMaker (training jobs, and an ml.g5.12xlarge endpoint instance per replica, +25 %)
/// against EKS with Karpenter; the report's `split` prices the hybrid, training on one and
/// serving on the other, both platforms' fees and people paid. Version 2 adds EKS as one
/// cluster for both: the replicas on the fine-tunes' nodes, first in line (version 1 had the
/// other three platforms, with the same numbers).
fn train_sagemaker_serve_eks() -> Scenario {
    let sagemaker = Profile::Sagemaker.platform("SageMaker", "g5.12xlarge", "us-east-1");
    let eks = Profile::Eks.platform("EKS + Karpenter", "g5.12xlarge", "us-east-1");
    let mut one_cluster =
        Profile::Eks.platform("EKS, one cluster for both", "g5.12xlarge", "us-east-1");
    one_cluster.serving = Some(Serving {
        shares_nodes_with_training: true,
        ..Serving::of_profile(Some(Profile::Eks))
    });
    Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "Fine-tune".into(),
            arrivals: Arrivals::Poisson { per_day: 2.0 },
            duration: Duration::LogNormal {
                median_hours: 2.0,
                p90_hours: 5.0,
            },
            gpus_per_job: 4.0,
            gpu_memory_gb: 20.0,
            ..JobClass::default()
        }],
        platforms: vec![sagemaker, eks, one_cluster],
        services: vec![Service {
            name: "Assistant API".into(),
            traffic: ServiceTraffic {
                mean_rps: 6.0,
                hourly_profile: Some(office_hours()),
                weekend_factor: 0.3,
                spikes: None,
            },
            // Four A100s serve 30 req/s at 16 at once; four A10Gs about a third of it.
            capacity_rps: 30.0,
            concurrency: 16,
            gpus_per_replica: 4.0,
            gpu_memory_gb: 20.0,
            latency_slo_ms: 5_000.0,
            min_replicas: 1,
            max_replicas: 12,
            target_utilization: 0.6,
            model_load_s: 120.0,
            image_gb: 12.0,
            queue_per_replica: 100,
        }],
        ..Scenario::default()
    }
}

/// Seed 001: "for inference serving and multi-team clusters, K8s beats AWS hands down". A
/// team reserves two p4d.24xlarge (16 A100s, the profile's commitment discount) and may add
/// one on demand (three nodes a group: p4d capacity is scarce), for 4-GPU fine-tunes that
/// leave them half idle, and serves a 70B-class model on 4-GPU replicas (tensor parallel)
/// with office-hours traffic. On one EKS cluster the replicas take the reserved nodes' idle
/// GPUs first and, with the cluster at its three nodes, preempt fine-tunes (a checkpoint
/// every 30 minutes bounds the rework; the fine-tunes wait longer); on a node group of their
/// own they pay on-demand p4d nodes, two replicas a node. The same instance type for both: a
/// smaller one for serving needs node pools.
fn one_cluster_for_both() -> Scenario {
    let platform = |name: &str, together: bool| {
        let mut p = Profile::Eks.platform(name, "p4d.24xlarge", "us-east-1");
        p.first_pool_mut().purchase.reserved_share = 1.0;
        p.first_pool_mut().purchase.overflow = Overflow::OnDemand;
        p.first_pool_mut().max_nodes = 3;
        p.serving = Some(Serving {
            shares_nodes_with_training: together,
            ..Serving::of_profile(Some(Profile::Eks))
        });
        p
    };
    Scenario {
        reference_gpus: 16,
        job_classes: vec![JobClass {
            name: "Fine-tune".into(),
            arrivals: Arrivals::Poisson { per_day: 8.0 },
            duration: Duration::LogNormal {
                median_hours: 2.0,
                p90_hours: 6.0,
            },
            gpus_per_job: 4.0,
            gpu_memory_gb: 40.0,
            checkpoint_interval_min: 30.0,
            ..JobClass::default()
        }],
        platforms: vec![
            platform("EKS, a node group for serving", false),
            platform("EKS, one cluster for both", true),
        ],
        services: vec![Service {
            name: "Model API".into(),
            traffic: ServiceTraffic {
                mean_rps: 4.0,
                hourly_profile: Some(office_hours()),
                weekend_factor: 0.3,
                spikes: None,
            },
            // Four A100s serve about 10 requests a second of a 70B-class model, 16 at once.
            capacity_rps: 10.0,
            concurrency: 16,
            gpus_per_replica: 4.0,
            gpu_memory_gb: 35.0,
            latency_slo_ms: 8_000.0,
            min_replicas: 1,
            max_replicas: 6,
            target_utilization: 0.6,
            model_load_s: 180.0,
            image_gb: 15.0,
            queue_per_replica: 200,
        }],
        ..Scenario::default()
    }
}

/// Seed 000's drug-discovery pipeline: "14 distinct containerized stages from molecular
/// docking simulation through to affinity prediction, with GPU requirements varying from V100
/// to A100 to T4 within a single experimental run", ten runs a day. Preparation on T4s,
/// docking in four shards and rescoring on V100s, refinement, affinity and ranking on A100s
/// (the stages move T4 → V100 → A100, as the model asks of a pipeline on several pools). The
/// stages, their sizes and durations are assumptions (the seed names none but the first and
/// last); durations are on an A100, so a stage runs 1 ÷ 0.45 as long on a V100 and 1 ÷ 0.12 on
/// a T4. Each stage retries a transient failure (5 %) twice with a 60-s backoff doubling
/// (Step Functions' Retry, Argo's retryStrategy). AWS Batch pays Step Functions per state
/// transition; Argo Workflows on GKE charges nothing beyond the cluster's people.
fn pharma_14_stage_pipeline() -> Scenario {
    /// (name, pool, GPUs, median and p90 hours on an A100, after)
    type StagePlan<'a> = (&'a str, &'a str, f64, f64, f64, Vec<&'a str>);
    let aws_pools = |name: &str| {
        let mut p = Profile::AwsBatch.platform(name, "p4d.24xlarge", "us-east-1");
        p.first_pool_mut().name = "a100".into();
        p.node_pools
            .push(pool(Profile::AwsBatch, "v100", "p3.2xlarge", "us-east-1"));
        p.node_pools
            .push(pool(Profile::AwsBatch, "t4", "g4dn.xlarge", "us-east-1"));
        p
    };
    let mut batch = aws_pools("AWS Batch + Step Functions");
    // [ref] $0.025 per 1,000 state transitions, 4,000 free a month (aws.amazon.com/step-functions/pricing, read 2026-12-04)
    batch.orchestration = Orchestration {
        usd_per_1000_transitions: 0.025,
        free_transitions_per_month: 4_000.0,
    };
    let mut gke = gke_three_pools("GKE Standard + Argo");
    let shards = [
        "dock-shard-1",
        "dock-shard-2",
        "dock-shard-3",
        "dock-shard-4",
    ];
    let plan: Vec<StagePlan> = vec![
        ("library-ingest", "t4", 1.0, 0.05, 0.1, vec![]),
        ("ligand-prep", "t4", 1.0, 0.05, 0.1, vec!["library-ingest"]),
        ("protein-prep", "t4", 1.0, 0.04, 0.08, vec![]),
        (
            "pocket-detection",
            "t4",
            1.0,
            0.03,
            0.06,
            vec!["protein-prep"],
        ),
        (
            shards[0],
            "v100",
            1.0,
            0.2,
            0.4,
            vec!["ligand-prep", "pocket-detection"],
        ),
        (
            shards[1],
            "v100",
            1.0,
            0.2,
            0.4,
            vec!["ligand-prep", "pocket-detection"],
        ),
        (
            shards[2],
            "v100",
            1.0,
            0.2,
            0.4,
            vec!["ligand-prep", "pocket-detection"],
        ),
        (
            shards[3],
            "v100",
            1.0,
            0.2,
            0.4,
            vec!["ligand-prep", "pocket-detection"],
        ),
        ("pose-rescoring", "v100", 1.0, 0.15, 0.3, shards.to_vec()),
        (
            "md-refinement",
            "a100",
            4.0,
            0.5,
            1.0,
            vec!["pose-rescoring"],
        ),
        (
            "affinity-fine-tune",
            "a100",
            8.0,
            1.0,
            2.5,
            vec!["md-refinement"],
        ),
        (
            "affinity-prediction",
            "a100",
            1.0,
            0.2,
            0.4,
            vec!["affinity-fine-tune"],
        ),
        (
            "admet-prediction",
            "a100",
            1.0,
            0.1,
            0.2,
            vec!["pose-rescoring"],
        ),
        (
            "rank-and-report",
            "a100",
            1.0,
            0.05,
            0.1,
            vec!["affinity-prediction", "admet-prediction"],
        ),
    ];
    let mut stages = Vec::new();
    for (name, at, gpus, median, p90, after) in plan {
        for platform in [&mut batch, &mut gke] {
            platform
                .class_pools
                .insert(format!("drug-discovery/{name}"), at.into());
        }
        stages.push(JobClass {
            name: name.into(),
            duration: Duration::LogNormal {
                median_hours: median,
                p90_hours: p90,
            },
            gpus_per_job: gpus,
            gpu_memory_gb: if at == "a100" { 30.0 } else { 12.0 },
            failures: Failures {
                probability: 0.05,
                kind: FailureKind::Transient,
                max_retries: 2,
                backoff_s: 60.0,
                ..Failures::default()
            },
            data_read_gb_per_attempt: 20.0,
            egress_gb_per_job: 0.5,
            image_gb: 8.0,
            checkpoint_interval_min: if gpus >= 4.0 { 30.0 } else { 0.0 },
            after: after.into_iter().map(String::from).collect(),
            ..JobClass::default()
        });
    }
    Scenario {
        reference_gpus: 16,
        job_classes: Vec::new(),
        platforms: vec![batch, gke],
        pipelines: vec![Pipeline {
            name: "drug-discovery".into(),
            arrivals: Arrivals::Poisson { per_day: 10.0 },
            stages,
            people_blocked_per_job: 1.0,
        }],
        ..Scenario::default()
    }
}

/// Seed 000's fintech "spent six engineer-months trying to replicate Batch's Spot instance
/// handling with custom Karpenter configurations on EKS, then migrated to GKE Autopilot and
/// recovered the engineering cost in 11 weeks". Fraud-model training jobs on 1-GPU L4 nodes
/// on spot, on EKS with Karpenter (six engineer-months to build, at the FTE cost) or on GKE
/// Autopilot (half an engineer-month to move, an assumption), over 36 months with EKS as
/// what runs today. The workload is an assumption; the seed gives none.
/// (Version 1 measured the L4 nodes against an A100 while the scenario's durations are an
/// L4's.)
fn karpenter_vs_autopilot_payback() -> Scenario {
    let mut eks = on(
        Profile::Eks,
        "EKS + Karpenter, spot",
        "g6.xlarge",
        "us-east-1",
        "L4",
    );
    eks.first_pool_mut().purchase.overflow = Overflow::Spot;
    eks.one_off = OneOff {
        engineer_months: 6.0,
        usd: 0.0,
    };
    let mut autopilot = on(
        Profile::GkeAutopilot,
        "GKE Autopilot, spot",
        "g2-standard-8",
        "us-central1",
        "L4",
    );
    autopilot.first_pool_mut().purchase.overflow = Overflow::Spot;
    autopilot.one_off = OneOff {
        engineer_months: 0.5,
        usd: 0.0,
    };
    Scenario {
        reference_gpus: 16,
        reference_gpu: "L4".into(),
        job_classes: vec![JobClass {
            name: "Fraud-model training".into(),
            arrivals: Arrivals::Poisson { per_day: 60.0 },
            duration: Duration::LogNormal {
                median_hours: 1.0,
                p90_hours: 3.0,
            },
            gpus_per_job: 1.0,
            gpu_memory_gb: 16.0,
            image_gb: 6.0,
            checkpoint_interval_min: 15.0,
            ..JobClass::default()
        }],
        platforms: vec![eks, autopilot],
        payback: PaybackSettings {
            current: "EKS + Karpenter, spot".into(),
        },
        ..Scenario::default()
    }
}

/// Seed 002's "GCP commitments (1-year or 3-year for 50–70% discount)" against seed 000's
/// "Show me what breaks at 40 %": a GKE Standard cluster of 8-GPU A100 nodes whose whole
/// reference size is committed for one year (37 % off) or three (65 % off), the GPU CUD
/// levels of the reference data, billed monthly with no upfront, overflow on demand; and all
/// on demand. The workload offers 60 % of the reference GPUs (move the utilisation slider to
/// 40 % or 85 % to see what breaks).
fn commit_1y_vs_3y() -> Scenario {
    let on_demand = Profile::GkeStandard.platform("On demand", "a2-highgpu-8g", "us-central1");
    let committed = |name: &str, years: u32, discount: f64| {
        let mut p = Profile::GkeStandard.platform(name, "a2-highgpu-8g", "us-central1");
        let purchase = &mut p.first_pool_mut().purchase;
        purchase.reserved_share = 1.0;
        purchase.reserved_discount_pct = discount;
        purchase.term_years = years;
        purchase.overflow = Overflow::OnDemand;
        p
    };
    let class = JobClass {
        name: "Training".into(),
        ..JobClass::default()
    };
    let mut scenario = Scenario {
        reference_gpus: 32,
        job_classes: vec![class],
        platforms: vec![
            on_demand,
            committed("1-year CUD", 1, 37.0),
            committed("3-year CUD", 3, 65.0),
        ],
        ..Scenario::default()
    };
    scenario = scenario
        .with_offered_utilization(0.6)
        .expect("a workload to scale");
    scenario
}

/// Seed 002: "GCP limits preemptible GPU allocations. In us-central1, we once waited 4 hours
/// for 8 H100s to become available. AWS spot usually provisions faster, but you pay for the
/// risk." Single-node 8-GPU H100 training jobs, checkpointed hourly, on GKE Standard spot
/// (a3-highgpu-8g, us-central1) where each node request waits 4 hours on average for
/// capacity (the seed's one wait taken as the mean: an assumption), on the same nodes on
/// demand with no wait, and on EKS spot p5.48xlarge (us-east-1) with no wait. Every node,
/// spot or not, fails at the rate derived from Meta's fleet (about 1.2 × 10⁻⁴ per 8-GPU
/// node-hour). The price of waiting is on at $100 an hour (the default FTE cost over 2,000
/// hours, an assumption) for the one person waiting for each job, beside the TCO.
fn h100_capacity_wait() -> Scenario {
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

/// Seed 001's scaling test: a 64-GPU FSDP job on eight p5.48xlarge nodes reached 92 %
/// scaling efficiency on SageMaker and 78 % on EKS, "primarily because the K8s scheduler
/// scattered pods across nodes". The same workload (a 64-GPU run every other day, median
/// 24 h on the reference A100, checkpointed hourly) on SageMaker with its nodes placed
/// together, on EKS scattered, and on EKS with a cluster placement group: all on demand over
/// EFA, with the scaling-efficiency curve, nodes failing as Meta's fleet did, and AWS's
/// egress tiers, as the page's new platforms have them.
fn fsdp_64_gpu_scaling() -> Scenario {
    use crate::model::egress::EgressTiers;
    use crate::model::platforms::failing_as_meta_fleet;
    use crate::model::scaling::Interconnect;
    let on_p5 = |profile: Profile, name: &str, placed: bool| {
        let mut p = failing_as_meta_fleet(profile.platform(name, "p5.48xlarge", "us-east-1"));
        p.interconnect = Interconnect::Efa;
        p.compact_placement = placed;
        p.egress_tiers = EgressTiers::AwsInternet;
        p
    };
    Scenario {
        reference_gpus: 64,
        job_classes: vec![JobClass {
            name: "64-GPU FSDP training".into(),
            arrivals: Arrivals::Poisson { per_day: 0.5 },
            duration: Duration::LogNormal {
                median_hours: 24.0,
                p90_hours: 48.0,
            },
            gpus_per_job: 64.0,
            gpu_memory_gb: 80.0,
            image_gb: 15.0,
            checkpoint_interval_min: 60.0,
            checkpoint_write_s: 300.0,
            restart_overhead_s: 900.0,
            ..JobClass::default()
        }],
        platforms: vec![
            on_p5(Profile::Sagemaker, "SageMaker, nodes placed together", true),
            on_p5(Profile::Eks, "EKS, pods scattered", false),
            on_p5(Profile::Eks, "EKS, placement group", true),
        ],
        ..Scenario::default()
    }
}

/// Seed 002's "a bidder at the same pool got an interrupt": spot capacity is reclaimed in
/// waves. Three EKS platforms on spot p4d.24xlarge, identical but for how interruptions come:
/// node by node at the default 0.005 per node-hour; the same mean rate with 80 % of it in
/// reclaim waves that each take half the pool and leave no spot capacity for 30 minutes
/// (assumptions: no public figure); and those waves with Karpenter's fall-back to on-demand
/// capacity. 32-GPU (4-node) gang jobs, checkpointed every 30 minutes in 5-minute writes (longer
/// than the notice); nodes fail as Meta's
/// fleet did, EFA between nodes, AWS's egress tiers, as the page's new platforms have them.
fn spot_reclaim_waves() -> Scenario {
    use crate::model::egress::EgressTiers;
    use crate::model::platforms::failing_as_meta_fleet;
    use crate::model::scaling::Interconnect;
    use crate::model::scenario::node_pool::SpotReclaims;
    let eks_spot = |name: &str, reclaims: SpotReclaims| {
        let mut p = failing_as_meta_fleet(Profile::Eks.platform(name, "p4d.24xlarge", "us-east-1"));
        for pool in &mut p.node_pools {
            pool.purchase.overflow = Overflow::Spot;
            pool.spot_reclaims = reclaims.clone();
        }
        p.interconnect = Interconnect::Efa;
        p.egress_tiers = EgressTiers::AwsInternet;
        p
    };
    let waves = SpotReclaims {
        share_of_rate: 0.8,
        fraction_of_nodes: 0.5,
        capacity_drought_min: 30.0,
        fall_back_to_on_demand: false,
    };
    let falling_back = SpotReclaims {
        fall_back_to_on_demand: true,
        ..waves.clone()
    };
    Scenario {
        reference_gpus: 64,
        job_classes: vec![JobClass {
            name: "32-GPU gang training".into(),
            arrivals: Arrivals::Poisson { per_day: 3.0 },
            duration: Duration::LogNormal {
                median_hours: 8.0,
                p90_hours: 16.0,
            },
            gpus_per_job: 32.0,
            gpu_memory_gb: 40.0,
            image_gb: 15.0,
            checkpoint_interval_min: 30.0,
            // Longer than the 2-minute notice: an interrupted job loses its work since the
            // last checkpoint.
            checkpoint_write_s: 300.0,
            restart_overhead_s: 600.0,
            ..JobClass::default()
        }],
        platforms: vec![
            eks_spot("EKS spot, node by node", SpotReclaims::default()),
            eks_spot("EKS spot, reclaim waves", waves),
            eks_spot("EKS spot, waves, on-demand fall-back", falling_back),
        ],
        ..Scenario::default()
    }
}

/// Seed 000: "Batch jobs pulling from S3 incurred egress costs that added 23 % to total
/// training cost, versus GKE's near-zero egress to Cloud Storage when co-located". The data
/// is one S3 bucket in us-east-1 and each 4-GPU job (g5.12xlarge, or GKE's g2-standard-48)
/// reads 150 GB of it per attempt: AWS Batch in the bucket's region through an S3 gateway
/// endpoint (no transfer), AWS Batch in us-west-2 through a NAT gateway (inter-region
/// $0.02/GB plus $0.045/GB processed), and GKE Standard in us-central1, for which the reads
/// leave AWS as internet egress ($0.09/GB). Spot everywhere, nodes fail as Meta's fleet did,
/// egress of results priced by the clouds' tiers, as the page's new platforms have them.
fn data_gravity_egress() -> Scenario {
    use crate::model::egress::EgressTiers;
    use crate::model::platforms::failing_as_meta_fleet;
    use crate::model::transfer::DataPath;
    // Durations are an A10G's (the reference GPU; version 1 measured the nodes against an
    // A100, so its jobs ran 2.9 times as long as stated).
    let spot = |profile: Profile, name: &str, instance: &str, region: &str, path: DataPath| {
        let mut p = failing_as_meta_fleet(on(profile, name, instance, region, "A10G"));
        for pool in &mut p.node_pools {
            pool.purchase.overflow = Overflow::Spot;
        }
        p.region = region.into();
        p.data_path = path;
        p.egress_tiers = EgressTiers::of_cloud(p.cloud);
        p
    };
    Scenario {
        reference_gpus: 32,
        reference_gpu: "A10G".into(),
        data_region: "us-east-1".into(),
        job_classes: vec![JobClass {
            name: "4-GPU vision training".into(),
            arrivals: Arrivals::Poisson { per_day: 12.0 },
            duration: Duration::LogNormal {
                median_hours: 3.0,
                p90_hours: 6.0,
            },
            gpus_per_job: 4.0,
            gpu_memory_gb: 20.0,
            image_gb: 10.0,
            data_read_gb_per_attempt: 150.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            restart_overhead_s: 300.0,
            ..JobClass::default()
        }],
        platforms: vec![
            spot(
                Profile::AwsBatch,
                "Batch beside the bucket (us-east-1)",
                "g5.12xlarge",
                "us-east-1",
                DataPath::PrivateEndpoint,
            ),
            spot(
                Profile::AwsBatch,
                "Batch in us-west-2 through NAT",
                "g5.12xlarge",
                "us-west-2",
                DataPath::NatGateway,
            ),
            spot(
                Profile::GkeStandard,
                "GKE in us-central1",
                "g2-standard-48",
                "us-central1",
                DataPath::PrivateEndpoint,
            ),
        ],
        ..Scenario::default()
    }
}

/// The same 16-GPU training on EKS on demand, its data staged from S3 directly or from FSx
/// for Lustre: seed 002's +12 % compute reading S3 directly against +1 % on FSx, and the
/// storage's throughput as seed 000's throttled dataset pulls (a file system sized for its
/// capacity, not its throughput).
fn fsx_vs_s3_direct() -> Scenario {
    use crate::model::egress::EgressTiers;
    use crate::model::platforms::failing_as_meta_fleet;
    use crate::model::scaling::Interconnect;
    use crate::model::storage::{DataStaging, StorageProduct};
    let eks = |name: &str, storage: StorageProduct, capacity_gib: f64, slowdown_pct: f64| {
        let mut p = failing_as_meta_fleet(Profile::Eks.platform(name, "p4d.24xlarge", "us-east-1"));
        p.interconnect = Interconnect::Efa;
        p.compact_placement = true;
        p.egress_tiers = EgressTiers::AwsInternet;
        p.region = "us-east-1".into();
        p.storage_read_slowdown_pct = slowdown_pct;
        // The datasets and checkpoints stay in S3 (an FSx file system links to the bucket).
        p.storage_gb = 20_000.0;
        p.staging = DataStaging {
            storage,
            capacity_gib,
            ..DataStaging::default()
        };
        p
    };
    Scenario {
        reference_gpus: 64,
        reference_gpu: "A100".into(),
        data_region: "us-east-1".into(),
        job_classes: vec![JobClass {
            name: "16-GPU training".into(),
            arrivals: Arrivals::Poisson { per_day: 4.0 },
            duration: Duration::LogNormal {
                median_hours: 6.0,
                p90_hours: 12.0,
            },
            gpus_per_job: 16.0,
            gpu_memory_gb: 40.0,
            image_gb: 15.0,
            data_read_gb_per_attempt: 2_000.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            restart_overhead_s: 300.0,
            ..JobClass::default()
        }],
        platforms: vec![
            eks("EKS, S3 direct", StorageProduct::ObjectStore, 0.0, 12.0),
            eks(
                "EKS, FSx 24 TiB at 250",
                StorageProduct::FsxLustrePersistent250,
                24_000.0,
                1.0,
            ),
            eks(
                "EKS, FSx 2.4 TiB at 125",
                StorageProduct::FsxLustrePersistent125,
                2_400.0,
                1.0,
            ),
        ],
        ..Scenario::default()
    }
}

/// Seed 000's Snap story as the article states it: 6-hour retrains on one p4d.24xlarge in
/// us-west-2 on AWS Batch, on demand against spot at the article's 62 % off, with 12 % of
/// spot nodes interrupted in a month (λ = −ln(1 − 0.12) ÷ 730 per node-hour, the monthly
/// share the Spot Advisor's bands mean) and 45 minutes of checkpoint-restart overhead each
/// time. Assumed where it is silent: one retrain a day, a checkpoint every 30 minutes taking
/// a minute, a fixed 6-hour run.
fn case_snap_p4d_spot() -> Scenario {
    let batch = |name: &str, overflow: Overflow| {
        let mut p = Profile::AwsBatch.platform(name, "p4d.24xlarge", "us-west-2");
        let pool = p.first_pool_mut();
        pool.purchase.overflow = overflow;
        pool.spot_usd_per_node_hour = pool.on_demand_usd_per_node_hour * (1.0 - 0.62);
        pool.spot_interruptions_per_node_hour = -libm::log(1.0 - 0.12) / 730.0;
        p
    };
    Scenario {
        reference_gpus: 8,
        job_classes: vec![JobClass {
            name: "Video-ranking retrain".into(),
            arrivals: Arrivals::Steady { per_day: 1.0 },
            duration: Duration::Fixed { hours: 6.0 },
            gpus_per_job: 8.0,
            gpu_memory_gb: 40.0,
            restart_overhead_s: 2_700.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            ..JobClass::default()
        }],
        platforms: vec![
            batch("Batch on demand", Overflow::OnDemand),
            batch("Batch spot", Overflow::Spot),
        ],
        ..Scenario::default()
    }
}

/// Seed 002's egress example: a 10 TB training run's data sent out to the internet once a
/// month, from AWS and from Google Cloud, each priced by its published tiers (the article
/// prices the 10 TB flat: $0.09 and $0.12 per GB). One job a month, on one node of each
/// cloud's default platform; its compute is beside the point.
fn case_egress_10_tb() -> Scenario {
    use crate::model::egress::EgressTiers;
    let tiered = |mut p: crate::model::scenario::Platform| {
        p.egress_tiers = EgressTiers::of_cloud(p.cloud);
        p
    };
    Scenario {
        reference_gpus: 8,
        horizon_days: 730.0 / 24.0,
        replications: 20,
        job_classes: vec![JobClass {
            name: "10 TB training run".into(),
            arrivals: Arrivals::Steady {
                per_day: 24.0 / 730.0,
            },
            duration: Duration::Fixed { hours: 6.0 },
            gpus_per_job: 8.0,
            gpu_memory_gb: 40.0,
            egress_gb_per_job: 10_000.0,
            data_read_gb_per_attempt: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![
            tiered(Profile::AwsBatch.platform("AWS Batch", "p4d.24xlarge", "us-east-1")),
            tiered(Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-8g", "us-central1")),
        ],
        ..Scenario::default()
    }
}

/// Seed 000's Autopilot story as the article states it: A100s at the $2.10 an hour the PM
/// modelled, GKE Autopilot with 30–45 s node provisioning and 30-minute minimum billing
/// increments, and dataset pulls from Cloud Storage throttled; GKE Standard with custom node
/// pools beside it. Assumed where it is silent: 1-GPU runs (a2-highgpu-1g) of 20 minutes
/// median (90th percentile an hour), 240 a day, each reading 150 GB (an ImageNet) at
/// 0.25 GB/s a node on Autopilot and 1.25 on Standard; the $2.10 as the price paid on both,
/// Autopilot's premium in it.
fn case_autopilot_a100() -> Scenario {
    use crate::model::storage::{DataStaging, StorageProduct};
    let at_modelled_price = |mut p: crate::model::scenario::Platform, node_read: f64| {
        for pool in &mut p.node_pools {
            pool.on_demand_usd_per_node_hour = 2.10;
            pool.service_premium_pct = 0.0;
        }
        p.staging = DataStaging {
            storage: StorageProduct::ObjectStore,
            node_read_gb_per_s: node_read,
            ..DataStaging::default()
        };
        p
    };
    let mut autopilot = at_modelled_price(
        Profile::GkeAutopilot.platform("GKE Autopilot", "a2-highgpu-1g", "us-central1"),
        0.25,
    );
    autopilot.billing.granularity_s = 1_800;
    autopilot.billing.minimum_s = 1_800;
    autopilot.provisioning_median_s = 37.5;
    autopilot.provisioning_p90_s = 45.0;
    let standard = at_modelled_price(
        Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-1g", "us-central1"),
        1.25,
    );
    Scenario {
        reference_gpus: 16,
        job_classes: vec![JobClass {
            name: "Vision training run".into(),
            arrivals: Arrivals::Poisson { per_day: 240.0 },
            duration: Duration::LogNormal {
                median_hours: 1.0 / 3.0,
                p90_hours: 1.0,
            },
            gpus_per_job: 1.0,
            gpu_memory_gb: 40.0,
            data_read_gb_per_attempt: 150.0,
            egress_gb_per_job: 0.0,
            checkpoint_interval_min: 0.0,
            ..JobClass::default()
        }],
        platforms: vec![autopilot, standard],
        ..Scenario::default()
    }
}

/// Seed 002's commitment as the article states it: a 50-node A3 cluster (a3-highgpu-8g, 8
/// H100s) on GKE with a 1-year commitment. Assumed where it is silent: the discount is the
/// 1-year resource CUD of the reference data (37 %, published for A2/G2; none found for A3),
/// work for 80 % of the nodes in 8-GPU jobs of 12 hours median (36 at the 90th percentile),
/// and on-demand nodes bought as jobs need them up to 50.
fn case_a3_commitment() -> Scenario {
    let a3 = catalog::find("a3-highgpu-8g", "us-central1").expect("A3 in the catalog");
    let gke = |name: &str, reserved: bool| {
        // Against the H100 as the reference GPU: the load is in H100-hours.
        let mut p = Profile::GkeStandard.platform_on(name, a3, "H100");
        let pool = p.first_pool_mut();
        pool.max_nodes = 50;
        if reserved {
            pool.purchase.reserved_share = 1.0;
            pool.purchase.term_years = 1;
        }
        p
    };
    let scenario = Scenario {
        reference_gpus: 400,
        reference_gpu: "H100".into(),
        job_classes: vec![JobClass {
            name: "8-GPU H100 training".into(),
            duration: Duration::LogNormal {
                median_hours: 12.0,
                p90_hours: 36.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 80.0,
            ..JobClass::default()
        }],
        platforms: vec![gke("GKE on demand", false), gke("GKE, 1-year CUD", true)],
        ..Scenario::default()
    };
    scenario
        .with_offered_utilization(0.8)
        .expect("a workload to scale")
}

/// Seed 000's Robinhood story as the article states it: AWS Batch on g5.48xlarge (8 A10G)
/// with 1-year convertible reserved instances for the base load and spot for the overflow,
/// accepting idle reserved capacity; a comparable GKE workload on a committed-use discount.
/// Assumed where it is silent: the reservation's discount is the reference data's 1-year
/// figure (37 %; no AWS convertible rate for g5 was found); half the reference cluster
/// reserved; 8-GPU jobs of 4 hours median (10 at the 90th percentile) for 70 % of 64 A10Gs;
/// GKE on g2-standard-96 (8 L4), half reserved the same way, on demand beyond.
fn case_robinhood_ri_spot() -> Scenario {
    let reserve_half = |mut p: crate::model::scenario::Platform, overflow: Overflow| {
        let pool = p.first_pool_mut();
        pool.purchase.reserved_share = 0.5;
        pool.purchase.term_years = 1;
        pool.purchase.overflow = overflow;
        p
    };
    let batch = reserve_half(
        Profile::AwsBatch.platform_on(
            "Batch, reserved base + spot",
            catalog::find("g5.48xlarge", "us-east-1").expect("g5.48xlarge"),
            "A10G",
        ),
        Overflow::Spot,
    );
    let gke = reserve_half(
        Profile::GkeStandard.platform_on(
            "GKE, committed base + on demand",
            catalog::find("g2-standard-96", "us-central1").expect("g2-standard-96"),
            "A10G",
        ),
        Overflow::OnDemand,
    );
    let scenario = Scenario {
        reference_gpus: 64,
        reference_gpu: "A10G".into(),
        job_classes: vec![JobClass {
            name: "Crypto-model training".into(),
            duration: Duration::LogNormal {
                median_hours: 4.0,
                p90_hours: 10.0,
            },
            gpus_per_job: 8.0,
            gpu_memory_gb: 20.0,
            ..JobClass::default()
        }],
        platforms: vec![batch, gke],
        ..Scenario::default()
    };
    scenario
        .with_offered_utilization(0.7)
        .expect("a workload to scale")
}

/// Seed 000's AV startup as the article states it: a 6-hour daily training window (one
/// production retrain a day) and 12 experiments for every retrain, each of 18 minutes on
/// average and on a CUDA version of its own (no image is reused: the pool keeps no cache),
/// 40 % of them failing on dependency conflicts (a broken job fails every attempt). Assumed
/// where it is silent: GKE Standard on a2-highgpu-8g nodes bought as jobs need them, 8 GPUs
/// per job, the experiments' durations exponential, a failure anywhere in the run (the
/// same point on every attempt) and the model's default of two retries.
fn case_sequoia_av_experiments() -> Scenario {
    let mut gke = Profile::GkeStandard.platform("GKE Standard", "a2-highgpu-8g", "us-central1");
    gke.first_pool_mut().image_cache = false;
    Scenario {
        reference_gpus: 16,
        job_classes: vec![
            JobClass {
                name: "Production retrain".into(),
                arrivals: Arrivals::Steady { per_day: 1.0 },
                duration: Duration::Fixed { hours: 6.0 },
                gpus_per_job: 8.0,
                gpu_memory_gb: 40.0,
                ..JobClass::default()
            },
            JobClass {
                name: "Experiment".into(),
                arrivals: Arrivals::Poisson { per_day: 12.0 },
                duration: Duration::Exponential { mean_hours: 0.3 },
                gpus_per_job: 8.0,
                gpu_memory_gb: 40.0,
                failures: Failures {
                    probability: 0.4,
                    kind: FailureKind::Deterministic,
                    ..Failures::default()
                },
                checkpoint_interval_min: 0.0,
                ..JobClass::default()
            },
        ],
        platforms: vec![gke],
        ..Scenario::default()
    }
}

/// Seed 000's Uber comparison as the article states it: clusters at 55 % and at 85 % raw
/// utilisation, compared on how fast experiments come back. Assumed where it is silent: two
/// static clusters of p4d.24xlarge (reserved, no autoscaling), 17 nodes and 11, the same
/// experiments on both (the default 8-GPU class: 4 hours median, 12 at the 90th percentile,
/// Poisson arrivals) at 55 % of the larger one, which is 85 % of the smaller (74.8 of 136
/// GPUs, of 88); a person waiting for each result at $100 an hour (the default FTE cost over
/// 2,000 hours).
fn case_uber_55_vs_85() -> Scenario {
    use crate::model::scenario::People;
    let cluster = |name: &str, nodes: u32| {
        let mut p = Profile::ReservedCluster.platform(name, "p4d.24xlarge", "us-east-1");
        p.first_pool_mut().purchase.reserved_share = f64::from(nodes) / 17.0;
        p
    };
    let scenario = Scenario {
        reference_gpus: 136,
        job_classes: vec![JobClass {
            name: "Experiment".into(),
            ..JobClass::default()
        }],
        platforms: vec![
            cluster("55 % busy, 17 nodes", 17),
            cluster("85 % busy, 11 nodes", 11),
        ],
        people: People {
            waiting_usd_per_hour: 100.0,
            ..People::default()
        },
        ..Scenario::default()
    };
    scenario
        .with_offered_utilization(0.55)
        .expect("a workload to scale")
}

/// Seed 000's fintech as the article states it: six engineer-months spent on spot handling
/// with Karpenter on EKS, then a move to GKE Autopilot that "recovered the engineering cost
/// in 11 weeks". The payback view compares Autopilot with EKS (what ran), Autopilot carrying
/// the six engineer-months as the cost its monthly saving must repay, so its break-even
/// month is the time that takes. Assumed where it is silent: the workload of
/// `karpenter-vs-autopilot-payback` (60 one-GPU L4 trainings a day, 1 hour median, on spot),
/// each profile's ops share (EKS ½ FTE, Autopilot 0.1), the move itself free.
fn case_fintech_autopilot_payback() -> Scenario {
    let mut s = karpenter_vs_autopilot_payback();
    s.platforms[0].one_off = OneOff::default();
    s.platforms[1].one_off = OneOff {
        engineer_months: 6.0,
        usd: 0.0,
    };
    s
}

/// Seed 001's DataStax move as the article states it: an inference stack served from a
/// SageMaker endpoint moved to EKS, with latency kept under 15 ms and autoscaling of its own
/// (Prometheus metrics, a pod ready 30 s after the decision); the agent traffic spike of the
/// same article (traffic ×10 for an hour, four times a month). Assumed where it is silent:
/// one model at 100 requests a second on average, 1,000 a second on an A100 (350 on a g5's
/// A10G) one at a time, on 1-GPU g5.xlarge nodes (ml.g5.xlarge at the reference data's +40 %
/// on SageMaker), 2 to 40 replicas at 70 % target utilisation, each profile's ops share
/// (SageMaker 0.1 FTE, EKS ½).
fn case_datastax_inference() -> Scenario {
    // The agent spike's scenario without GKE, its service made the article's: faster, smaller.
    let mut s = agent_traffic_spike();
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

/// Seed 004's bursty GPU jobs on AWS Batch, one fix at a time, each platform adding one to
/// the one before: 1, cold nodes (every job pulls the image, nodes leave when idle); 2, the
/// image cache kept (`ECS_IMAGE_CLEANUP_ENABLED=false`) but nodes still leaving at once;
/// 3, a warm window that keeps idle nodes; 4, 4-GPU g5.12xlarge nodes in place of 1-GPU
/// g5.xlarge. Assumed where it is silent (the article gives no numbers): the workload of
/// `bursty-g5-warm-pool` (6 bursts a day of 12 one-GPU jobs of 6 minutes median, a 15 GB
/// image), a 30-minute warm window, Batch's defaults otherwise.
fn case_bursty_g5_steps() -> Scenario {
    let step = |name: &str, instance: &str, cache: bool, window_s: f64| {
        let mut p = on(Profile::AwsBatch, name, instance, "us-east-1", "A100");
        p.first_pool_mut().image_cache = cache;
        p.first_pool_mut().warm_pool_window_s = window_s;
        p
    };
    let mut s = bursty_g5_warm_pool();
    s.reference_gpus = 12;
    s.platforms = vec![
        step("1 cold", "g5.xlarge", false, 0.0),
        step("2 + image cache", "g5.xlarge", true, 0.0),
        step("3 + warm window", "g5.xlarge", true, 1_800.0),
        step("4 + 4-GPU nodes", "g5.12xlarge", true, 1_800.0),
    ];
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_is_measured_against_the_scenarios_reference_gpu() {
        // Durations are run times on the reference GPU: a pool's relative throughput must be
        // its GPU's against that one, or the jobs run longer or shorter than stated.
        for p in presets() {
            let s = p.scenario();
            for platform in &s.platforms {
                for pool in &platform.node_pools {
                    let expected = catalog::relative_throughput(&pool.gpu_model, &s.reference_gpu);
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
