//! Fields of a team's policy on a platform (paths relative to `platforms.<i>.teams.<k>`).

use super::*;

/// Fields of a team's policy on a platform (paths relative to `platforms.<i>.teams.<k>`).
pub static TEAM_POLICY_FIELDS: &[Field<TeamPolicy>] = &[
    Field::<TeamPolicy>::other("team", "Team", Value::Id { get: |t| &t.team })
        .doc("The team, as its job classes name it (empty: the default team)."),
    Field::<TeamPolicy>::number("nominal_gpus", "Nominal quota", "GPUs", (0.0, 1e6),
        |t| t.nominal_gpus, |t, v| t.nominal_gpus = Some(v))
        .doc("GPUs its jobs may hold at once without borrowing (Kueue nominal quota; Slurm QOS GPU limit).")
        .source("Kueue, Cluster Queue: nominalQuota; Slurm, QOS: GrpTRES=gres/gpu"),
    Field::<TeamPolicy>::number("borrowing_limit_gpus", "Borrowing limit", "GPUs", (0.0, 1e6),
        |t| t.borrowing_limit_gpus, |t, v| t.borrowing_limit_gpus = Some(v))
        .doc("Most GPUs beyond its quota it may borrow from what the cohort leaves unused (Kubernetes only; a Slurm QOS limit is hard).")
        .source("Kueue, Cluster Queue: borrowingLimit"),
    Field::<TeamPolicy>::number("priority", "Priority", "", (-1_000.0, 1_000.0),
        |t| Some(f64::from(t.priority)), |t, v| t.priority = v as i32)
        .doc("A higher number is scheduled first and may preempt a lower one.")
        .source("Kueue WorkloadPriorityClass; Slurm QOS priority; AWS Batch job queue priority"),
];
