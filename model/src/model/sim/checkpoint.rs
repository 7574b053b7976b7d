//! The checkpoint arithmetic of an attempt, in whole seconds: a checkpoint of δ seconds is
//! written after every τ seconds of compute, including the last (the final save), and a
//! failure at exactly k·τ comes before the k-th write. Pure functions of (τ, δ, compute).

use crate::model::rounding::{self, ceil_div};

/// The class's checkpoint interval τ and write time δ in whole seconds; δ is 0 when the
/// class does not checkpoint (τ = 0).
pub(super) fn checkpoint_cycle(class: &crate::model::scenario::JobClass) -> (i64, i64) {
    let tau = rounding::round(class.checkpoint_interval_min * 60.0) as i64;
    let delta = if tau > 0 {
        rounding::round(class.checkpoint_write_s) as i64
    } else {
        0
    };
    (tau, delta)
}

/// Compute done after `phase` seconds of a compute phase with checkpoints every `tau` seconds
/// of compute taking `delta` each, capped at `remaining`.
pub(super) fn compute_done(phase: i64, tau: i64, delta: i64, remaining: i64) -> i64 {
    if tau <= 0 {
        return phase.min(remaining);
    }
    let cycle = tau + delta;
    let full = phase / cycle;
    let partial = phase % cycle;
    (full * tau + partial.min(tau)).min(remaining)
}

/// Checkpoints written while computing `c` seconds (one after every full τ, and a final save).
pub(super) fn checkpoints_in(c: i64, tau: i64) -> i64 {
    if tau <= 0 {
        0
    } else {
        ceil_div(c, tau)
    }
}

/// Checkpoints completed before compute reaches `c` (a crash at exactly k·τ precedes the k-th
/// write).
pub(super) fn writes_before(c: i64, tau: i64) -> i64 {
    if tau <= 0 || c <= 0 {
        0
    } else {
        (c - 1) / tau
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compute_done_follows_the_checkpoint_cycle() {
        // τ = 10, δ = 2, 25 s of compute to do: 10 [2] 10 [2] 5 [2] = 31 s.
        assert_eq!(compute_done(0, 10, 2, 25), 0);
        assert_eq!(compute_done(10, 10, 2, 25), 10);
        assert_eq!(compute_done(11, 10, 2, 25), 10);
        assert_eq!(compute_done(13, 10, 2, 25), 11);
        assert_eq!(compute_done(29, 10, 2, 25), 25);
        assert_eq!(compute_done(31, 10, 2, 25), 25);
        assert_eq!(checkpoints_in(25, 10), 3);
        assert_eq!(writes_before(10, 10), 0);
        assert_eq!(writes_before(11, 10), 1);
    }
}
