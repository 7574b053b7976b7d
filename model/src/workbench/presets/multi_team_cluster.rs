//! The `multi-team-cluster` preset: Three teams on one EKS cluster with Kueue quotas, borrowing and
//! preemption, vs SageMaker with an instance type per team, vs a reserved Slurm cluster with QOS
//! limits and priorities (seed 001).

use super::shared::pool;
use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Preemption, Scenario, TeamPolicy};

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
pub(super) fn scenario() -> Scenario {
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
