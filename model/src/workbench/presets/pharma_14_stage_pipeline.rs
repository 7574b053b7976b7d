//! The `pharma-14-stage-pipeline` preset: A drug-discovery pipeline of 14 stages on T4, V100 and
//! A100 pools, ten runs a day: AWS Batch with Step Functions vs GKE with Argo (seed 000).

use super::shared::{gke_three_pools, pool};
use crate::model::platforms::Profile;
use crate::model::scenario::{
    Arrivals, Duration, FailureKind, Failures, JobClass, Orchestration, Pipeline, Scenario,
};

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
pub(super) fn scenario() -> Scenario {
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
