//! The outcome's job figures, from one pass over the jobs' states at the horizon (they no
//! longer fit in a core's cache on long runs): the queue waits with their image-pull part,
//! and how many jobs are still running or waiting.

use super::jobs::Job;
use super::state::{JobState, Phase};

/// Queue waits and job counts of one platform's replication at the horizon.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct JobSummary {
    /// Mean queue wait over the jobs submitted, s.
    pub mean_s: f64,
    /// Median queue wait, s.
    pub p50_s: f64,
    /// 95th percentile queue wait, s.
    pub p95_s: f64,
    /// The image-pull part of the mean queue wait, s.
    pub pull_mean_s: f64,
    /// The data-staging part of the mean queue wait, s.
    pub stage_mean_s: f64,
    /// Jobs the means are over (at least 1, so a mean of nothing is 0).
    pub counted: f64,
    /// Jobs running at the horizon.
    pub running: u64,
    /// Jobs waiting, or waiting for nodes, at the horizon.
    pub waiting: u64,
}

impl JobSummary {
    /// The summary of `jobs` (in arrival order) with their `states` at `horizon`, s, of the
    /// window that opens at `from` (the jobs running or waiting at the horizon: all of them).
    ///
    /// Queue waits of every job submitted in the window, whole seconds: to the start of its
    /// first compute, or to the horizon for a job that has not started computing by then
    /// (still queued, provisioning or pulling: its wait so far, a lower bound; leaving those
    /// jobs out made an overloaded platform's waits look short, or zero when none started).
    /// The pulls are summed in job order from −0.0, as `Iterator::sum` does.
    pub fn of(jobs: &[Job], states: &[JobState], from: i64, horizon: i64) -> JobSummary {
        let mut waits: Vec<i64> = Vec::with_capacity(states.len());
        let mut pull_total = -0.0;
        let mut stage_total = 0i64;
        let (mut running, mut waiting) = (0u64, 0u64);
        for (j, s) in jobs.iter().zip(states) {
            // (Jobs come in arrival order; a pipeline's stage is submitted at its
            // predecessors' end, or never.)
            if j.arrival_s >= horizon {
                break;
            }
            if s.submitted_s >= horizon {
                continue;
            }
            match s.phase {
                Phase::Running => running += 1,
                Phase::Waiting | Phase::Holding | Phase::BackingOff => waiting += 1,
                Phase::Done | Phase::GaveUp | Phase::Unsubmitted => {}
            }
            if s.submitted_s < from {
                continue;
            }
            waits.push(wait_s(s, horizon));
            match s.first_compute_s {
                Some(c) if c <= horizon => {
                    pull_total += s.first_pull_s as f64;
                    stage_total += s.first_stage_s;
                }
                Some(_) => {
                    // Pulling its image (or restarting) at the horizon: of its attempt's
                    // pull, the part before the horizon.
                    let pulled = (horizon - s.attempt_start_s).clamp(0, s.pull_s);
                    pull_total += (s.first_pull_s - s.pull_s + pulled) as f64;
                    stage_total += s.first_stage_s;
                }
                None if s.phase == Phase::Running => {
                    // Pulling its image or reading its data at the horizon, on the way to its
                    // first compute: its parts up to the horizon (the horizon's close counted
                    // the read so far in `first_stage_s`).
                    let pulled = (horizon - s.attempt_start_s).clamp(0, s.pull_s);
                    pull_total += (s.first_pull_s - s.pull_s + pulled) as f64;
                    stage_total += s.first_stage_s;
                }
                None => {}
            }
        }
        let counted = waits.len().max(1) as f64;
        // Waits are whole seconds and their total stays far below 2^53, so the integer sum is
        // the sum of the waits as floats in any order (every partial sum exact); the
        // percentiles come by selection among the integers.
        let (mean_s, p50_s, p95_s) = if waits.is_empty() {
            (0.0, 0.0, 0.0)
        } else {
            let mean = waits.iter().sum::<i64>() as f64 / waits.len() as f64;
            let (p50, p95) = crate::model::stats::whole_quantiles_unsorted(&mut waits, 0.5, 0.95);
            (mean, p50, p95)
        };
        JobSummary {
            mean_s,
            p50_s,
            p95_s,
            pull_mean_s: pull_total / counted,
            stage_mean_s: stage_total as f64 / counted,
            counted,
            running,
            waiting,
        }
    }
}

/// A submitted job's queue wait at `horizon`, whole seconds: to the start of its first
/// compute, or to the horizon where that has not started by then.
pub(super) fn wait_s(state: &JobState, horizon: i64) -> i64 {
    match state.first_compute_s {
        Some(c) if c <= horizon => c - state.submitted_s,
        _ => horizon - state.submitted_s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(arrival_s: i64) -> Job {
        Job {
            arrival_s,
            class: 0,
            work_ref_s: 10.0,
            broken: false,
            fail_point: 0.0,
            attempt_seed: 0,
        }
    }

    /// Three jobs by hand at a horizon of 100 s: one computed from 30 s after 10 s of pulls,
    /// one still pulling at the horizon (20 s of its 40-s pull done), one never started; a
    /// fourth arrives after the horizon and counts nowhere.
    #[test]
    fn waits_run_to_the_horizon_for_jobs_not_computing_yet() {
        let jobs = [job(0), job(50), job(60), job(120)];
        let mut states: Vec<JobState> = jobs
            .iter()
            .map(|j| JobState::new(10, Some(j.arrival_s)))
            .collect();
        states[0].first_compute_s = Some(30);
        states[0].first_pull_s = 10;
        states[0].phase = Phase::Done;
        states[1].first_compute_s = Some(130);
        states[1].attempt_start_s = 80;
        states[1].pull_s = 40;
        states[1].first_pull_s = 40;
        states[1].phase = Phase::Running;
        let w = JobSummary::of(&jobs, &states, 0, 100);
        // Waits 30, 50 and 40 s; pulls 10 + 20.
        assert_eq!(w.mean_s, 40.0);
        assert_eq!((w.p50_s, w.counted), (40.0, 3.0));
        assert_eq!(w.pull_mean_s, 10.0);
        assert_eq!((w.running, w.waiting), (1, 1));
    }
}
