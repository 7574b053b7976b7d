//! Job-history import: a hand-made file whose fit is worked out by hand, and a round trip
//! (jobs generated from known classes, written as a history, fitted back).

use gpucost::history::{fit_history, DurationFit, HistoryError, ImportOptions};
use gpucost::model::rng::lognormal_mean;
use gpucost::model::scenario::{Arrivals, Duration, JobClass, Scenario};
use gpucost::model::sim::generate_jobs;

const HAND: &str = include_str!("../data/job-history-hand.csv");

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn hand_made_history_fits_as_worked_out() {
    let log_normal = ImportOptions {
        durations: DurationFit::LogNormal,
        ..Default::default()
    };
    let fit = fit_history(HAND, &JobClass::default(), "A100", &log_normal).expect("fits");
    // Lines 5 (duration "oops"), 9 (three fields) and 11 (0 GPUs) are skipped, by line.
    let lines: Vec<u64> = fit.bad_rows.iter().map(|b| b.line).collect();
    assert_eq!(lines, vec![5, 9, 11], "{:?}", fit.bad_rows);
    assert!(fit.bad_rows[0].reason.contains("oops"));
    assert_eq!((fit.rows, fit.used), (10, 7));
    // First submission 03-01 09:00, last 03-05 08:00: 95 h between 7 jobs, widened by 7/6.
    assert!(close(fit.window_days, 95.0 * 7.0 / 6.0 / 24.0, 1e-12));
    assert_eq!(fit.classes.len(), 2);

    // 8-GPU jobs: 1 h, 2 h on an H100 (= 4 A100-hours), 1.5 h, 3 h → sorted [1, 1.5, 3, 4]:
    // median 2.25, p90 3 + 0.7 × 1 = 3.7 (type-7 quantiles); 1 failed of 4 with an outcome.
    let eight = &fit.classes[0];
    assert_eq!(
        (eight.gpus_per_job, eight.name.as_str()),
        (8.0, "8-GPU jobs")
    );
    assert_eq!(
        eight.duration,
        Duration::LogNormal {
            median_hours: 2.25,
            p90_hours: 3.7
        }
    );
    assert_eq!(eight.failures.probability, 0.25);
    // 4 jobs in 4.6181 days = 0.86617/day, to four digits.
    let Arrivals::HourOfDay {
        per_day,
        hourly_weights,
        ..
    } = &eight.arrivals
    else {
        panic!("hour-of-day arrivals expected: {:?}", eight.arrivals);
    };
    assert_eq!(*per_day, 0.8662);
    // Submissions at hours 9, 10, 9, 9, 9, 9, 8: 5/7, 1/7, 1/7 of 24.
    let mut expected = vec![0.0; 24];
    expected[8] = 3.429;
    expected[9] = 17.143;
    expected[10] = 3.429;
    assert_eq!(hourly_weights, &expected);

    // 1-GPU jobs: 0.5 h, 1 h (cancelled), 0.75 h (MI300X: not in the catalog, taken as is):
    // median 0.75, p90 0.75 + 0.8 × 0.25 = 0.95; no failure among the 2 finished.
    let one = &fit.classes[1];
    assert_eq!(one.gpus_per_job, 1.0);
    assert_eq!(
        one.duration,
        Duration::LogNormal {
            median_hours: 0.75,
            p90_hours: 0.95
        }
    );
    assert_eq!(one.failures.probability, 0.0);
    assert_eq!(fit.fits[1].with_outcome, 2);
    assert!(fit.notes.iter().any(|n| n.contains("MI300X")));
    assert!(fit.notes.iter().any(|n| n.contains("rough below a week")));

    // The fitted classes make a valid scenario.
    let scenario = Scenario {
        job_classes: fit.classes.clone(),
        ..Default::default()
    };
    scenario.validate().expect("valid");
}

#[test]
fn unusable_files_say_what_is_missing() {
    let none = ImportOptions::default();
    let err = fit_history("when,how_long\n1,2\n", &JobClass::default(), "A100", &none).unwrap_err();
    assert!(
        matches!(
            err,
            HistoryError::MissingColumn {
                what: "submit (or start) time",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("submit_time"));
    let err = fit_history(
        "submit_time,duration_h,gpus\n2024-01-01 00:00,1,1\nbad,1,1\n",
        &JobClass::default(),
        "A100",
        &none,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "1 usable job(s); at least 2 that ran are needed to fit arrivals (1 skipped; line 3: \
         submit time \"bad\" is not a date-time or seconds)"
    );
    assert_eq!(
        fit_history("", &JobClass::default(), "A100", &none).unwrap_err(),
        HistoryError::Empty
    );
}

/// 60 days of 8-GPU jobs from a known class, written as a history with Slurm-style Elapsed
/// durations and fitted back: the rate, the duration quantiles and the hour-of-day profile
/// come back within sampling error.
#[test]
fn generated_history_fits_back_to_its_class() {
    let mut weights = vec![0.0; 24];
    for (hour, w) in weights.iter_mut().enumerate().take(18).skip(8) {
        *w = if hour < 12 { 2.0 } else { 1.0 };
    }
    let class = JobClass {
        arrivals: Arrivals::HourOfDay {
            per_day: 40.0,
            hourly_weights: weights,
            weekday_weights: None,
        },
        duration: Duration::LogNormal {
            median_hours: 3.0,
            p90_hours: 9.0,
        },
        ..Default::default()
    };
    let scenario = Scenario {
        horizon_days: 60.0,
        job_classes: vec![class],
        ..Default::default()
    };
    let jobs = generate_jobs(&scenario, 0);
    let mut csv = String::from("submitted_at,elapsed,gpus\n");
    for job in &jobs {
        let s = job.arrival_s + 1_700_006_400; // 2023-11-15 00:00:00 UTC, a midnight
        let d = job.work_ref_s.round() as i64;
        csv += &format!(
            "{s},{}-{:02}:{:02}:{:02},8\n",
            d / 86_400,
            d % 86_400 / 3600,
            d % 3600 / 60,
            d % 60
        );
    }
    let log_normal = ImportOptions {
        durations: DurationFit::LogNormal,
        ..Default::default()
    };
    let fit = fit_history(&csv, &JobClass::default(), "A100", &log_normal).expect("fits");
    assert!(fit.bad_rows.is_empty());
    assert_eq!(fit.classes.len(), 1);
    let f = &fit.fits[0];
    // 2,400 expected jobs: the rate is within 3 sd (√2400/60 ≈ 0.82/day) of 40.
    assert!(close(f.per_day, 40.0, 2.5), "rate {}", f.per_day);
    // Quantiles of 2,400 log-normal draws: within ~5 % of 3 h and 9 h.
    assert!(
        close(f.observed_hours.p50, 3.0, 0.15),
        "median {}",
        f.observed_hours.p50
    );
    assert!(
        close(f.observed_hours.p90, 9.0, 0.6),
        "p90 {}",
        f.observed_hours.p90
    );
    assert!(close(f.simulated_hours.mean, lognormal_mean(3.0, 9.0), 0.4));
    assert!(f.ks_distance < 0.05, "KS {}", f.ks_distance);
    // Hours 8–11 get 2/14 of the jobs each, 12–17 1/14, the rest none.
    for (hour, share) in fit.hourly_share.iter().enumerate() {
        let expected = match hour {
            8..=11 => 2.0 / 14.0,
            12..=17 => 1.0 / 14.0,
            _ => 0.0,
        };
        assert!(close(*share, expected, 0.025), "hour {hour}: {share}");
    }
}

/// Four weeks from Monday 2026-01-05: 12 jobs on each weekday (every 2 h from 00:00), 3 on
/// Saturdays and Sundays (00:00, 08:00, 16:00). 264 jobs, enough for a class profile of its
/// own.
fn weekly_history() -> String {
    let mut csv = String::from("submit_time,duration_s,gpus\n");
    for day in 0..28u32 {
        let weekend = day % 7 >= 5;
        let hours: Vec<u32> = if weekend {
            vec![0, 8, 16]
        } else {
            (0..12).map(|k| 2 * k).collect()
        };
        for h in hours {
            // 2026-01-05 is day 0; January has 31 days.
            let (month, date) = if 5 + day <= 31 {
                (1, 5 + day)
            } else {
                (2, 5 + day - 31)
            };
            csv.push_str(&format!("2026-{month:02}-{date:02}T{h:02}:00:00,3600,1\n"));
        }
    }
    csv
}

#[test]
fn weekday_profile_counts_each_day_over_the_days_the_window_covers() {
    let fit = fit_history(
        &weekly_history(),
        &JobClass::default(),
        "A100",
        &ImportOptions::default(),
    )
    .expect("fits");
    assert_eq!(fit.used, 264);
    // First arrival Monday day 0 00:00, last Sunday day 27 16:00: 664 h, widened by 264/263
    // for the arrival rate.
    let window_h = 664.0 * 264.0 / 263.0;
    assert!(close(fit.window_days, window_h / 24.0, 1e-9));
    // The history's span runs to the last job's end, 17:00 on day 27: 665 h.
    assert!(close(fit.span_days, 665.0 / 24.0, 1e-12));
    // Mondays to Saturdays are covered 4 whole days each; Sundays 3 days and the span's last
    // 665 − 648 hours.
    let sundays = 3.0 + (665.0 - 648.0) / 24.0;
    let rates = [12.0, 12.0, 12.0, 12.0, 12.0, 3.0, 12.0 / sundays];
    let mean = rates.iter().sum::<f64>() / 7.0;
    let want: Vec<f64> = rates
        .iter()
        .map(|r| (r / mean * 1000.0_f64).round() / 1000.0)
        .collect();
    assert_eq!(fit.weekday_weights, want);
    let Arrivals::HourOfDay {
        weekday_weights, ..
    } = &fit.classes[0].arrivals
    else {
        panic!("{:?}", fit.classes[0].arrivals);
    };
    assert!(fit.fits[0].own_profile);
    assert_eq!(weekday_weights.as_deref(), Some(want.as_slice()));
    // Saturdays a quarter of a weekday, by construction.
    assert!(close(want[5] / want[0], 0.25, 2e-3), "{want:?}");

    // Under two weeks there is no weekly profile, and the fit says so.
    let short: String = weekly_history()
        .lines()
        .take(1 + 5 * 12 + 6)
        .collect::<Vec<_>>()
        .join("\n");
    let fit = fit_history(
        &short,
        &JobClass::default(),
        "A100",
        &ImportOptions::default(),
    )
    .expect("fits");
    assert!(fit.weekday_weights.is_empty());
    assert!(
        fit.notes
            .iter()
            .any(|n| n.contains("day-of-week profile needs")),
        "{:?}",
        fit.notes
    );
    assert!(matches!(
        &fit.classes[0].arrivals,
        Arrivals::HourOfDay {
            weekday_weights: None,
            ..
        }
    ));
}

/// Without a GPU count column, the message says how to name one; a public trace's
/// `gpu_request` is one, and its `creation_time`, `scheduled_time` and `deletion_time` are the
/// submit, start and end.
#[test]
fn a_missing_gpu_column_names_the_flag_and_public_trace_columns_are_known() {
    let none = ImportOptions::default();
    let err = fit_history(
        "submit_time,duration_h\n2024-01-01 00:00,1\n2024-01-01 01:00,2\n",
        &JobClass::default(),
        "A100",
        &none,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("--column gpus=<its header>"),
        "{err}"
    );
    let fit = fit_history(
        "creation_time,scheduled_time,deletion_time,gpu_request\n\
         2024-01-01 00:00,2024-01-01 00:10,2024-01-01 02:10,2\n\
         2024-01-01 03:00,2024-01-01 03:00,2024-01-01 04:00,2\n\
         2024-01-02 03:00,2024-01-02 03:30,2024-01-02 04:30,2\n",
        &JobClass::default(),
        "A100",
        &none,
    )
    .unwrap();
    assert_eq!(fit.used, 3);
    assert_eq!(fit.classes.len(), 1);
    assert_eq!(fit.classes[0].gpus_per_job, 2.0);
    // The queue wait from creation to scheduling: 10, 0 and 30 minutes.
    let wait = fit.observed_queue_wait.unwrap();
    assert!((wait.mean_min - 40.0 / 3.0).abs() < 1e-9, "{wait:?}");
}

/// Jobs that started and have no end (empty, or `NaN` as pandas writes it) were still running
/// when the history was taken: they count up to its last time with their run so far, and a
/// note says how many and their GPU-hours. Worked by hand: the last time is 10:00 (the fourth
/// job's end); the second job ran 01:00–10:00 on 4 GPUs (36 GPU-h), the third 03:00–10:00 on
/// 2 (14 GPU-h).
#[test]
fn jobs_still_running_at_the_end_count_up_to_the_last_time() {
    let csv = "submit_time,start_time,end_time,gpus\n\
               2026-03-02 00:00,2026-03-02 00:00,2026-03-02 02:00,1\n\
               2026-03-02 01:00,2026-03-02 01:00,,4\n\
               2026-03-02 03:00,2026-03-02 03:00,NaN,2\n\
               2026-03-02 04:00,2026-03-02 04:00,2026-03-02 10:00,1\n";
    let fit =
        fit_history(csv, &JobClass::default(), "A100", &ImportOptions::default()).expect("fits");
    assert_eq!(fit.used, 4, "{:?}", fit.bad_rows);
    assert!(fit.bad_rows.is_empty(), "{:?}", fit.bad_rows);
    assert!(
        fit.notes
            .iter()
            .any(|n| n.starts_with("2 job(s) started and have no end")
                && n.contains("(50.0 GPU-hours)")),
        "{:?}",
        fit.notes
    );
    // The span runs to that last time: 10 hours.
    assert!(close(fit.span_days, 10.0 / 24.0, 1e-12));
    let censored: usize = fit.fits.iter().map(|f| f.censored).sum();
    assert_eq!(censored, 2);
    // A state that says the job ended, with no end time, is a bad row.
    let ended = "submit_time,start_time,end_time,gpus,state\n\
                 2026-03-02 00:00,2026-03-02 00:00,2026-03-02 02:00,1,COMPLETED\n\
                 2026-03-02 01:00,2026-03-02 01:00,,4,COMPLETED\n\
                 2026-03-02 04:00,2026-03-02 04:00,2026-03-02 10:00,1,COMPLETED\n";
    let fit = fit_history(
        ended,
        &JobClass::default(),
        "A100",
        &ImportOptions::default(),
    )
    .expect("fits");
    assert_eq!(fit.bad_rows.len(), 1);
    assert_eq!(fit.bad_rows[0].reason, "ended, but has no end time");
}

/// The arrival rate's window is widened by one mean gap, and nothing else is: three jobs
/// over 10 days (a window of 15 for the rate) cover 10 days and an hour, under the 14 a
/// day-of-week profile needs.
#[test]
fn only_the_rate_takes_the_widened_window() {
    let csv = "submit_time,duration_s,gpus\n\
               2026-03-02T00:00:00,3600,1\n\
               2026-03-07T00:00:00,3600,1\n\
               2026-03-12T00:00:00,3600,1\n";
    let fit =
        fit_history(csv, &JobClass::default(), "A100", &ImportOptions::default()).expect("fits");
    assert!(close(fit.window_days, 15.0, 1e-12));
    assert!(close(fit.span_days, 10.0 + 1.0 / 24.0, 1e-12));
    assert!(fit.weekday_weights.is_empty());
    assert!(
        fit.notes
            .iter()
            .any(|n| n.contains("covers 10.0 days, under the 14")),
        "{:?}",
        fit.notes
    );
    // The rate: 3 jobs over the widened 15 days.
    let Arrivals::HourOfDay { per_day, .. } = &fit.classes[0].arrivals else {
        panic!("{:?}", fit.classes[0].arrivals)
    };
    assert!(close(*per_day, 0.2, 1e-12));
}
