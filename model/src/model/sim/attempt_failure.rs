//! Job failures: whether an attempt fails, and after how much of its compute.
//!
//! A transient failure strikes each attempt with the class's probability, at a uniform point
//! of the compute it has left (or the class's fixed share of it); a deterministic one (a
//! broken job) fails every attempt at the same point of the job's whole compute. The draws
//! come from the job's own stream, keyed by the attempt, so they are the same on every
//! platform; a job that cannot fail draws nothing.

use super::jobs::Job;
use super::state::JobState;
use crate::model::rng::{Purpose, Stream};
use crate::model::scenario::{FailureKind, Failures};

/// The compute after which the attempt `state` has just started fails, s; `None` if it does
/// not fail. `state.attempts` counts this attempt.
pub(super) fn fail_after_c(failures: &Failures, job: &Job, state: &JobState) -> Option<i64> {
    let remaining = state.total_c - state.committed_c;
    let may_fail = match failures.kind {
        FailureKind::Transient => failures.probability > 0.0,
        FailureKind::Deterministic => job.broken,
    };
    let mut rng = may_fail.then(|| {
        Stream::new(
            job.attempt_seed,
            u64::from(state.attempts),
            Purpose::Attempts,
            0,
        )
    });
    let fails = match (failures.kind, rng.as_mut()) {
        (FailureKind::Transient, Some(rng)) => rng.bernoulli(failures.probability),
        (FailureKind::Deterministic, _) => job.broken,
        _ => false,
    };
    let (true, Some(rng)) = (fails, rng.as_mut()) else {
        return None;
    };
    let at = match failures.kind {
        FailureKind::Transient => {
            let share = failures.at_share.unwrap_or_else(|| rng.uniform());
            (share * remaining as f64).ceil() as i64
        }
        FailureKind::Deterministic => {
            let share = failures.at_share.unwrap_or(job.fail_point);
            (share * state.total_c as f64).ceil() as i64 - state.committed_c
        }
    };
    // A job with compute left (one with none has finished): `max` only keeps a broken
    // invariant from panicking.
    debug_assert!(remaining >= 1);
    Some(at.clamp(1, remaining.max(1)))
}
