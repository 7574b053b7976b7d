//! The job stream of one replication: arrivals and per-job random draws, generated once and
//! fed to every platform, so differences between platforms are the platforms', not noise.

use crate::model::rng::{lognormal_sigma, Purpose, Stream};
use crate::model::scenario::{
    empirical_quantile, Arrivals, Duration, FailureKind, JobClass, Replay, Scenario, DAY_S, HOUR_S,
};

/// One submitted job.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Submission time, seconds from the start of the horizon.
    pub arrival_s: i64,
    /// Index of its job class.
    pub class: usize,
    /// Run time on one reference GPU per GPU of the job, with perfect scaling, seconds.
    pub work_ref_s: f64,
    /// Deterministic failures: the job is broken and every attempt fails at `fail_point`.
    pub broken: bool,
    /// Where a broken job fails, as a share (0–1) of its compute.
    pub fail_point: f64,
    /// Seed of this job's attempt draws (transient failures), the same on every platform.
    pub attempt_seed: u64,
}

/// All jobs submitted within the warm-up and the horizon in replication `replication`, in
/// submission order (ties by class, then by draw order).
pub fn generate_jobs(scenario: &Scenario, replication: u64) -> Vec<Job> {
    let horizon_s = scenario.simulated_days() * DAY_S;
    // An hour-of-day profile's hour 0 (a Monday) is the measured window's opening.
    let origin_s = scenario.warmup_days * DAY_S;
    if let Some(replay) = &scenario.replay {
        return replay_jobs(scenario, replay, replication, horizon_s);
    }
    // A pipeline's stages are classes of their own from `stage_classes_from` on.
    let scenario = scenario.simulated();
    let own_classes = scenario
        .stage_classes_from
        .unwrap_or(scenario.job_classes.len());
    let mut jobs = Vec::new();
    for (class_index, class) in scenario.job_classes[..own_classes].iter().enumerate() {
        // One stream per class: editing one class never changes another's jobs.
        let mut rng = Stream::new(
            scenario.seed,
            replication,
            Purpose::Jobs,
            class_index as u64,
        );
        let arrivals = arrival_times(&class.arrivals, horizon_s, origin_s, &mut rng);
        let mut draw = JobDraw::new(class, class_index);
        for t in arrivals {
            jobs.push(draw.job(t, &mut rng));
        }
    }
    // Pipelines: one stream for each pipeline's runs and one per stage for its jobs' draws
    // (a stream per class, as above); a run's stages are pushed together, in stage order.
    if let Some(graph) = scenario.pipeline_graph() {
        for (p, pipeline) in scenario.pipelines.iter().enumerate() {
            let (first, count) = graph.pipelines[p];
            let mut runs = Stream::new(
                scenario.seed,
                replication,
                Purpose::Jobs,
                PIPELINE_STREAMS + p as u64,
            );
            let arrivals = arrival_times(&pipeline.arrivals, horizon_s, origin_s, &mut runs);
            let mut stages: Vec<(JobDraw, Stream)> = (first..first + count)
                .map(|c| {
                    let rng = Stream::new(scenario.seed, replication, Purpose::Jobs, c as u64);
                    (JobDraw::new(&scenario.job_classes[c], c), rng)
                })
                .collect();
            for t in arrivals {
                for (draw, rng) in &mut stages {
                    jobs.push(draw.job(t, rng));
                }
            }
        }
    }
    // Stable sort: equal times keep class order, then draw order (so a pipeline run's
    // stages stay together, in stage order).
    jobs.sort_by_key(|j| j.arrival_s);
    jobs
}

/// Stream index of pipeline 0's runs (pipeline `p` draws from this + `p`), far above any
/// class's.
const PIPELINE_STREAMS: u64 = 1 << 32;

/// Submission times within the horizon, s, of an arrival pattern (an hour-of-day profile's
/// hour 0 at `origin_s`).
fn arrival_times(arrivals: &Arrivals, horizon_s: f64, origin_s: f64, rng: &mut Stream) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    match arrivals {
        Arrivals::Steady { per_day } => {
            if *per_day > 0.0 {
                let gap = DAY_S / per_day;
                let mut t = 0.0;
                while t < horizon_s {
                    out.push(t);
                    t += gap;
                }
            }
        }
        Arrivals::Poisson { per_day } => {
            if *per_day > 0.0 {
                let mean_gap = DAY_S / per_day;
                let mut t = rng.exponential(mean_gap);
                while t < horizon_s {
                    out.push(t);
                    t += rng.exponential(mean_gap);
                }
            }
        }
        Arrivals::Bursts {
            bursts_per_day,
            jobs_per_burst,
        } => {
            if *bursts_per_day > 0.0 {
                let mean_gap = DAY_S / bursts_per_day;
                let mut t = rng.exponential(mean_gap);
                while t < horizon_s {
                    out.extend(std::iter::repeat_n(t, *jobs_per_burst as usize));
                    t += rng.exponential(mean_gap);
                }
            }
        }
        Arrivals::HourOfDay {
            per_day,
            hourly_weights,
            weekday_weights,
        } => hour_of_day_arrivals(
            *per_day,
            hourly_weights,
            weekday_weights.as_deref(),
            (origin_s, horizon_s),
            rng,
            &mut out,
        ),
    }
    out
}

/// A class's per-job draws: its run time, whether it is broken and where, its attempts' seed.
struct JobDraw<'a> {
    class: &'a JobClass,
    index: usize,
    /// σ once per class, not per job (the same draws).
    duration_sigma: f64,
}

impl<'a> JobDraw<'a> {
    fn new(class: &'a JobClass, index: usize) -> Self {
        let duration_sigma = match &class.duration {
            Duration::LogNormal {
                median_hours,
                p90_hours,
            } => lognormal_sigma(*median_hours, *p90_hours),
            _ => 0.0,
        };
        JobDraw {
            class,
            index,
            duration_sigma,
        }
    }

    /// The job submitted at `t`, its draws from `rng`.
    fn job(&mut self, t: f64, rng: &mut Stream) -> Job {
        let class = self.class;
        let work_ref_s = match &class.duration {
            Duration::Fixed { hours } => hours * HOUR_S,
            Duration::LogNormal { median_hours, .. } => {
                rng.lognormal(*median_hours, self.duration_sigma) * HOUR_S
            }
            Duration::Exponential { mean_hours } => rng.exponential(*mean_hours) * HOUR_S,
            Duration::Empirical {
                quantile_hours,
                probabilities,
            } => empirical_quantile(quantile_hours, probabilities, rng.uniform()) * HOUR_S,
        };
        let broken = class.failures.kind == FailureKind::Deterministic
            && rng.bernoulli(class.failures.probability);
        let fail_point = rng.uniform();
        let attempt_seed = rng.next_u64();
        Job {
            // Arrival times are never negative, so truncation is the floor (without a call
            // to the C library's `floor` natively).
            arrival_s: t as i64,
            class: self.index,
            work_ref_s,
            broken,
            fail_point,
            attempt_seed,
        }
    }
}

/// A Poisson process with a piecewise-constant rate (hour `h` of each day gets the share
/// `hourly[h] / Σ hourly` of `per_day`, times `weekly[d mod 7] / mean(weekly)` on day `d` when
/// there is a weekly profile), sampled exactly by time change: each unit-rate exponential gap
/// is spent across the hours at their rates. The profile's hour 0 is at `origin_s` (the
/// hours before it, of a warm-up, are the profile's last).
fn hour_of_day_arrivals(
    per_day: f64,
    hourly: &[f64],
    weekly: Option<&[f64]>,
    (origin_s, horizon_s): (f64, f64),
    rng: &mut Stream,
    arrivals: &mut Vec<f64>,
) {
    let total: f64 = hourly.iter().sum();
    if per_day <= 0.0 || total <= 0.0 || hourly.is_empty() {
        return;
    }
    let day_factors: Vec<f64> = match weekly {
        Some(w) if !w.is_empty() && w.iter().sum::<f64>() > 0.0 => {
            let mean = w.iter().sum::<f64>() / w.len() as f64;
            w.iter().map(|x| x / mean).collect()
        }
        _ => vec![1.0],
    };
    // Jobs per second in each hour of the week (of the day, without a weekly profile).
    let rates: Vec<f64> = day_factors
        .iter()
        .flat_map(|d| hourly.iter().map(move |w| per_day * d * w / total / HOUR_S))
        .collect();
    let mut t = 0.0;
    let mut left = rng.exponential(1.0);
    while t < horizon_s {
        let hour = ((t - origin_s) / HOUR_S).floor();
        let rate = rates[(hour as i64).rem_euclid(rates.len() as i64) as usize];
        let hour_end = origin_s + (hour + 1.0) * HOUR_S;
        if rate > 0.0 && left <= rate * (hour_end - t) {
            t += left / rate;
            if t < horizon_s {
                arrivals.push(t);
            }
            left = rng.exponential(1.0);
        } else {
            left -= rate * (hour_end - t);
            t = hour_end;
        }
    }
}

/// The recorded jobs that arrive within the horizon, as they were: a failed one breaks at the
/// end of its recorded run. Only their attempt seeds depend on the replication.
fn replay_jobs(scenario: &Scenario, replay: &Replay, replication: u64, horizon_s: f64) -> Vec<Job> {
    let mut rng = Stream::new(scenario.seed, replication, Purpose::Jobs, u64::MAX);
    let mut jobs: Vec<Job> = replay
        .jobs
        .iter()
        .filter(|j| (j.arrival_s as f64) < horizon_s)
        .map(|j| Job {
            arrival_s: j.arrival_s,
            class: j.class as usize,
            work_ref_s: j.run_s,
            broken: j.failed,
            fail_point: 1.0,
            attempt_seed: rng.next_u64(),
        })
        .collect();
    jobs.sort_by_key(|j| j.arrival_s);
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario_with(arrivals: Arrivals, days: f64) -> Scenario {
        Scenario {
            horizon_days: days,
            job_classes: vec![JobClass {
                arrivals,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn steady_arrivals_are_evenly_spaced_from_zero() {
        let jobs = generate_jobs(&scenario_with(Arrivals::Steady { per_day: 4.0 }, 2.0), 0);
        let times: Vec<i64> = jobs.iter().map(|j| j.arrival_s).collect();
        assert_eq!(
            times,
            vec![0, 21_600, 43_200, 64_800, 86_400, 108_000, 129_600, 151_200]
        );
    }

    #[test]
    fn bursts_submit_their_jobs_together() {
        let jobs = generate_jobs(
            &scenario_with(
                Arrivals::Bursts {
                    bursts_per_day: 3.0,
                    jobs_per_burst: 12,
                },
                10.0,
            ),
            0,
        );
        assert_eq!(jobs.len() % 12, 0);
        for chunk in jobs.chunks(12) {
            assert!(chunk.iter().all(|j| j.arrival_s == chunk[0].arrival_s));
        }
    }

    #[test]
    fn hour_of_day_arrivals_follow_the_weights() {
        // 240 a day, all of them in hours 9 and 10, twice as many in 10: over 50 days that is
        // 4,000 expected in hour 9 (sd 63) and 8,000 in hour 10 (sd 89), none elsewhere.
        let mut weights = vec![0.0; 24];
        weights[9] = 1.0;
        weights[10] = 2.0;
        let jobs = generate_jobs(
            &scenario_with(
                Arrivals::HourOfDay {
                    per_day: 240.0,
                    hourly_weights: weights,
                    weekday_weights: None,
                },
                50.0,
            ),
            1,
        );
        let mut per_hour = [0usize; 24];
        for j in &jobs {
            per_hour[(j.arrival_s as usize / 3600) % 24] += 1;
        }
        assert!((per_hour[9] as f64 - 4_000.0).abs() < 300.0, "{per_hour:?}");
        assert!(
            (per_hour[10] as f64 - 8_000.0).abs() < 400.0,
            "{per_hour:?}"
        );
        assert_eq!(jobs.len(), per_hour[9] + per_hour[10]);
    }

    #[test]
    fn weekday_weights_scale_each_day_and_keep_the_weekly_mean() {
        // 100 a day on average, flat over the hours; Monday twice an average weekday, Sunday
        // none, the rest 1 (weights summing to 7, mean 1). Over 70 days (10 weeks): Mondays
        // expect 10 × 100 × 2 = 2,000 (sd 45), each of Tuesday–Saturday 1,000 (sd 32),
        // Sunday 0, and the total 7,000 = 100 × 70 (sd 84).
        let jobs = generate_jobs(
            &scenario_with(
                Arrivals::HourOfDay {
                    per_day: 100.0,
                    hourly_weights: vec![1.0; 24],
                    weekday_weights: Some(vec![2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]),
                },
                70.0,
            ),
            2,
        );
        let mut per_weekday = [0usize; 7];
        for j in &jobs {
            per_weekday[(j.arrival_s as usize / 86_400) % 7] += 1;
        }
        assert!(
            (per_weekday[0] as f64 - 2_000.0).abs() < 180.0,
            "{per_weekday:?}"
        );
        for d in 1..6 {
            assert!(
                (per_weekday[d] as f64 - 1_000.0).abs() < 130.0,
                "{per_weekday:?}"
            );
        }
        assert_eq!(per_weekday[6], 0, "{per_weekday:?}");
        assert!(
            (jobs.len() as f64 - 7_000.0).abs() < 340.0,
            "{}",
            jobs.len()
        );
    }

    #[test]
    fn poisson_count_is_close_to_rate_times_horizon() {
        // 100 per day for 100 days: mean 10,000, sd 100.
        let jobs = generate_jobs(
            &scenario_with(Arrivals::Poisson { per_day: 100.0 }, 100.0),
            3,
        );
        assert!(
            (jobs.len() as f64 - 10_000.0).abs() < 400.0,
            "{}",
            jobs.len()
        );
    }
}
