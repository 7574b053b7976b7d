//! Retries with backoff: a failed attempt waits out a delay that grows by a multiplier up to
//! a cap before it queues again; worked by hand.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::scenario::{Arrivals, Duration, FailureKind, Scenario};
use gpucost::model::sim::{generate_jobs, simulate_platform_timeline};

/// One 1-hour job on free capacity (1-GPU nodes ready at once, no image, no restart time)
/// that fails every attempt after 25 % of its compute (900 s), with two retries.
fn failing_job(backoff_s: f64, multiplier: f64, max_s: f64) -> Scenario {
    let mut class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 1.0 },
    );
    class.failures.probability = 1.0;
    class.failures.kind = FailureKind::Deterministic;
    class.failures.max_retries = 2;
    class.failures.at_share = Some(0.25);
    class.failures.backoff_s = backoff_s;
    class.failures.backoff_multiplier = multiplier;
    class.failures.backoff_max_s = max_s;
    scenario(1.0, 1, vec![class], vec![bare_platform("one")])
}

/// When each attempt of the one job starts, s.
fn attempt_starts(s: &Scenario) -> Vec<i64> {
    s.validate().unwrap();
    let jobs = generate_jobs(s, 0);
    let (outcome, timeline) = simulate_platform_timeline(s, 0, 0, &jobs);
    assert_eq!((outcome.jobs_failed, outcome.jobs_completed), (1, 0));
    let mut starts: Vec<i64> = timeline.attempts.iter().map(|a| a.start_s).collect();
    starts.sort_unstable();
    starts
}

#[test]
fn each_retry_waits_its_backoff_from_the_failure() {
    // Attempts fail 900 s after they start. Backoff 60 s, × 2: the second attempt starts 60 s
    // after the first failure (900 + 60), the third 120 s after the second (960 + 900 + 120).
    assert_eq!(
        attempt_starts(&failing_job(60.0, 2.0, 3_600.0)),
        [0, 960, 1_980]
    );
    // Capped at 90 s: the third starts 90 s after the second failure (1,860 + 90).
    assert_eq!(
        attempt_starts(&failing_job(60.0, 2.0, 90.0)),
        [0, 960, 1_950]
    );
    // No backoff: each retry starts at its failure, as before backoff existed.
    assert_eq!(
        attempt_starts(&failing_job(0.0, 2.0, 360.0)),
        [0, 900, 1_800]
    );
}

#[test]
fn a_backoff_delay_is_not_a_queue_wait() {
    // The job starts at once: its queue wait (to its first compute) is 0 whatever the
    // retries wait.
    let s = failing_job(600.0, 2.0, 3_600.0);
    let o = &gpucost::model::monte_carlo::run_replication(&s, 0)[0];
    assert_eq!(o.queue_wait_mean_s, 0.0);
    assert_eq!(o.jobs_failed, 1);
}

#[test]
fn a_negative_backoff_is_refused_naming_the_field() {
    for (set, path) in [
        ((-1.0, 2.0, 360.0), "failures.backoff_s"),
        ((60.0, 0.5, 360.0), "failures.backoff_multiplier"),
        ((60.0, 2.0, -5.0), "failures.backoff_max_s"),
    ] {
        let s = failing_job(set.0, set.1, set.2);
        let message = s.validate().unwrap_err().to_string();
        assert!(message.contains(path), "{message}");
    }
}

#[test]
fn an_old_document_reads_no_backoff() {
    // A class written before backoff existed: no field, no delay; and the fields at their
    // defaults are not written back.
    let s = Scenario::from_json(
        r#"{"job_classes":[{"name":"a","failures":{"probability":0.5,"max_retries":3}}]}"#,
    )
    .unwrap();
    let f = &s.job_classes[0].failures;
    assert_eq!(f.backoff_s, 0.0);
    assert_eq!(f.backoff_after(1), 0.0);
    let text = serde_json::to_string(&s).unwrap();
    assert!(!text.contains("backoff"), "{text}");
}
