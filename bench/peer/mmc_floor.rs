//! The practical floor: the peer's workload (bench/peer/mmc.json: Poisson arrivals, c GPUs, a
//! fixed image pull, then exponential compute) as the smallest event loop one would write by
//! hand: a binary heap of the times GPUs come free, a FIFO of waiting submissions, and the
//! model's own xoshiro streams and samplers. No platforms, prices, billing or breakdown: what
//! is left is the cost of the queueing itself, which `benches/floor.rs` sets our engine
//! against on the same workload.

use gpucost::model::rng::{Purpose, Stream};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// What one replication measured.
pub struct FloorRun {
    /// Jobs submitted.
    pub jobs: u64,
    /// Mean queue wait (submission to the start of compute, or to the horizon), s.
    pub mean_wait_s: f64,
}

/// One replication of M/M/`c` with a pull of `pull_s` before compute, over `horizon_s`.
pub fn replication(
    seed: u64,
    rep: u64,
    c: usize,
    per_day: f64,
    mean_h: f64,
    pull_s: f64,
    horizon_s: f64,
) -> FloorRun {
    let mut arrivals = Stream::new(seed, rep, Purpose::Jobs, 0);
    let mut compute = Stream::new(seed, rep, Purpose::Attempts, 0);
    // Times at which a busy GPU comes free (f64 bits order like the non-negative times).
    let mut busy: BinaryHeap<Reverse<u64>> = BinaryHeap::with_capacity(c);
    let mut queue: VecDeque<f64> = VecDeque::new();
    let (mut jobs, mut wait_sum) = (0u64, 0.0);
    let mut start = |now: f64, submitted: f64, busy: &mut BinaryHeap<Reverse<u64>>| {
        let computing = now + pull_s;
        wait_sum += computing.min(horizon_s) - submitted;
        let done = computing + compute.exponential(mean_h * 3_600.0);
        busy.push(Reverse(done.to_bits()));
    };
    let mut next_arrival = arrivals.exponential(86_400.0 / per_day);
    loop {
        let next_free = busy
            .peek()
            .map_or(f64::INFINITY, |Reverse(t)| f64::from_bits(*t));
        if next_arrival < next_free && next_arrival < horizon_s {
            jobs += 1;
            if busy.len() < c {
                start(next_arrival, next_arrival, &mut busy);
            } else {
                queue.push_back(next_arrival);
            }
            next_arrival += arrivals.exponential(86_400.0 / per_day);
        } else if next_free < horizon_s {
            busy.pop();
            if let Some(submitted) = queue.pop_front() {
                start(next_free, submitted, &mut busy);
            }
        } else {
            break;
        }
    }
    // Still queued at the horizon: the wait so far.
    wait_sum += queue.iter().map(|s| horizon_s - s).sum::<f64>();
    FloorRun {
        jobs,
        mean_wait_s: if jobs > 0 {
            wait_sum / jobs as f64
        } else {
            0.0
        },
    }
}
