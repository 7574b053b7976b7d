//! Bounded work: every documented limit accepts its value and refuses the next one with a
//! message naming the field and the limit; the event budgets stop a run where they say, keep
//! the replications before the stop, and summarise exactly those.

use gpucost::model::budget::{CutOff, EventBudget};
use gpucost::model::monte_carlo::{run_replication, MonteCarlo, Results};
use gpucost::model::scenario::{limits, Arrivals, Scenario};
use gpucost::workbench::presets::{preset, DEFAULT};

fn base() -> Scenario {
    let mut s = preset(DEFAULT).unwrap().scenario();
    s.warmup_days = 0.0;
    s.horizon_days = 2.0;
    s.replications = 5;
    s
}

/// `edit(at)` must validate; `edit(over)` must fail with a message containing each of `needles`.
fn at_the_limit<T: Copy>(at: T, over: T, edit: impl Fn(&mut Scenario, T), needles: &[&str]) {
    let mut s = base();
    edit(&mut s, at);
    assert_eq!(s.validate(), Ok(()), "at the limit");
    let mut s = base();
    edit(&mut s, over);
    let message = s.validate().expect_err("over the limit").to_string();
    for needle in needles {
        assert!(message.contains(needle), "{message:?} lacks {needle:?}");
    }
}

#[test]
fn horizon_replications_classes_platforms_nodes_and_gpus_at_their_limits() {
    at_the_limit(
        limits::HORIZON_DAYS_MAX,
        limits::HORIZON_DAYS_MAX + 0.5,
        |s, d| {
            s.horizon_days = d;
            // Keep the job count under its own limit.
            for c in &mut s.job_classes {
                c.arrivals = Arrivals::Poisson { per_day: 10.0 };
            }
        },
        &["horizon_days", "366"],
    );
    at_the_limit(
        limits::WARMUP_DAYS_MAX,
        limits::WARMUP_DAYS_MAX + 0.5,
        |s, d| s.warmup_days = d,
        &["warmup_days", "90"],
    );
    at_the_limit(0.0, -0.5, |s, d| s.warmup_days = d, &["warmup_days"]);
    at_the_limit(
        limits::REPLICATIONS_MAX,
        limits::REPLICATIONS_MAX + 1,
        |s, n| s.replications = n,
        &["replications", "10000"],
    );
    at_the_limit(
        limits::JOB_CLASSES_MAX,
        limits::JOB_CLASSES_MAX + 1,
        |s, n| {
            let class = s.job_classes[0].clone();
            s.job_classes = (0..n)
                .map(|i| {
                    let mut c = class.clone();
                    c.name = format!("class {i}");
                    c
                })
                .collect();
        },
        &["job_classes", "16"],
    );
    at_the_limit(
        limits::PLATFORMS_MAX,
        limits::PLATFORMS_MAX + 1,
        |s, n| {
            let platform = s.platforms[0].clone();
            s.platforms = (0..n)
                .map(|i| {
                    let mut p = platform.clone();
                    p.name = format!("platform {i}");
                    p
                })
                .collect();
        },
        &["platforms", "6"],
    );
    at_the_limit(
        limits::MAX_NODES,
        limits::MAX_NODES + 1,
        |s, n| s.platforms[0].first_pool_mut().max_nodes = n,
        &["max_nodes", "10000"],
    );
    at_the_limit(
        limits::GPUS_PER_JOB_MAX,
        limits::GPUS_PER_JOB_MAX + 1,
        |s, n| {
            // Room for the largest job on every platform.
            for p in &mut s.platforms {
                p.first_pool_mut().max_nodes = limits::MAX_NODES;
            }
            s.job_classes[0].gpus_per_job = f64::from(n);
        },
        &["gpus_per_job", "4096"],
    );
}

#[test]
fn jobs_per_replication_at_the_limit() {
    // One class at a steady rate: expected jobs = per_day × horizon_days exactly.
    let per_day = |s: &Scenario, jobs: f64| jobs / s.horizon_days;
    at_the_limit(
        limits::JOBS_PER_REPLICATION_MAX,
        limits::JOBS_PER_REPLICATION_MAX + 2.0,
        |s, jobs| {
            s.horizon_days = 4.0;
            s.job_classes.truncate(1);
            s.job_classes[0].arrivals = Arrivals::Steady {
                per_day: per_day(s, jobs),
            };
        },
        &["job_classes", "2000000"],
    );
}

fn events_of(s: &Scenario, replication: u64) -> Vec<u64> {
    run_replication(s, replication)
        .iter()
        .map(|o| o.events)
        .collect()
}

#[test]
fn a_replication_over_its_event_budget_is_stopped_and_never_summarised() {
    let s = base();
    let events: Vec<Vec<u64>> = (0..5).map(|r| events_of(&s, r)).collect();
    let most = *events.iter().flatten().max().unwrap();
    // Exactly the events the busiest replication needs: nothing is cut, nothing changes.
    let budget = EventBudget {
        per_replication: most,
        per_run: u64::MAX,
    };
    let mut run = MonteCarlo::within(s.clone(), budget).unwrap();
    run.run_to_end();
    assert_eq!(run.cut_off(), None);
    let mut plain = MonteCarlo::new(s.clone()).unwrap();
    plain.run_to_end();
    assert_eq!(run.results(), plain.results());
    // One event fewer: the first replication that needs them all is stopped, on the first
    // platform that does; the replications before it are summarised, none after.
    let stopped = events.iter().position(|e| e.contains(&most)).unwrap();
    let busiest = events[stopped].iter().position(|e| *e == most).unwrap();
    let budget = EventBudget {
        per_replication: most - 1,
        per_run: u64::MAX,
    };
    let mut run = MonteCarlo::within(s.clone(), budget).unwrap();
    run.run_to_end();
    assert!(run.is_done());
    assert_eq!(run.done() as usize, stopped);
    let cut = run.cut_off().cloned().expect("cut off");
    assert_eq!(
        cut,
        CutOff::ReplicationBudget {
            replication: stopped as u32,
            platform: s.platforms[busiest].name.clone(),
            budget: most - 1,
            summarised: stopped as u32,
            asked: 5,
        }
    );
    let before: Vec<_> = (0..stopped as u64)
        .map(|r| run_replication(&s, r))
        .collect();
    assert_eq!(
        run.results().platforms,
        Results::from_outcomes(&s, &before).platforms
    );
    let message = cut.to_string();
    assert!(
        message.contains(&format!("Replication {} on", stopped + 1)),
        "{message}"
    );
    assert!(message.contains(&s.platforms[busiest].name), "{message}");
    assert_eq!(run.results().replications as usize, stopped);
    assert_eq!(run.results().cut_off, Some(cut));
    // A replication that cannot finish at all leaves nothing to summarise, and says so.
    let budget = EventBudget {
        per_replication: 1,
        per_run: u64::MAX,
    };
    let mut run = MonteCarlo::within(s.clone(), budget).unwrap();
    run.run_to_end();
    assert_eq!(run.done(), 0);
    let message = run.cut_off().unwrap().to_string();
    assert!(
        message.contains("no replication could be summarised"),
        "{message}"
    );
}

#[test]
fn a_run_over_its_event_budget_keeps_the_replications_up_to_the_one_that_reached_it() {
    let s = base();
    let e0: u64 = events_of(&s, 0).iter().sum();
    let e1: u64 = events_of(&s, 1).iter().sum();
    let first_two: Vec<_> = (0..2).map(|r| run_replication(&s, r)).collect();
    let expected = Results::from_outcomes(&s, &first_two);
    for (per_run, threads) in [e0 + 1, e0 + e1 - 1, e0 + e1]
        .into_iter()
        .flat_map(|b| [(b, 1), (b, 3)])
    {
        let budget = EventBudget {
            per_replication: limits::EVENTS_PER_REPLICATION_MAX,
            per_run,
        };
        let mut run = MonteCarlo::within(s.clone(), budget).unwrap();
        // On several threads later replications may finish first: still cut at the same one.
        run.run_to_end_on(threads);
        assert!(run.is_done());
        assert_eq!(run.done(), 2, "budget {per_run}, {threads} threads");
        let results = run.results();
        assert_eq!(results.platforms, expected.platforms);
        assert_eq!(results.replications, 2);
        let cut = results.cut_off.expect("cut off");
        assert_eq!(
            cut,
            CutOff::RunBudget {
                summarised: 2,
                asked: 5,
                events: e0 + e1,
                budget: per_run,
            }
        );
        assert!(cut
            .to_string()
            .starts_with("Stopped after 2 of 5 replications"));
    }
    // A budget the last replication reaches is not a cut: every replication ran.
    let all: u64 = (0..5).map(|r| events_of(&s, r).iter().sum::<u64>()).sum();
    let mut run = MonteCarlo::within(
        s.clone(),
        EventBudget {
            per_replication: limits::EVENTS_PER_REPLICATION_MAX,
            per_run: all,
        },
    )
    .unwrap();
    run.run_to_end();
    assert_eq!((run.done(), run.cut_off()), (5, None));
}

#[test]
fn the_report_carries_the_cut() {
    let s = base();
    let e0: u64 = events_of(&s, 0).iter().sum();
    let mut run = MonteCarlo::within(
        s.clone(),
        EventBudget {
            per_replication: limits::EVENTS_PER_REPLICATION_MAX,
            per_run: e0,
        },
    )
    .unwrap();
    run.run_to_end();
    let report = gpucost::workbench::report::report(&s, &run.results());
    let json: serde_json::Value = serde_json::to_value(&report).unwrap();
    assert_eq!(json["replications"], 1);
    assert_eq!(json["cut_off"]["reason"], "run_budget");
    assert_eq!(json["cut_off"]["summarised"], 1);
    // Within the default budgets (far above any test scenario) the report has no `cut_off`.
    let mut run = MonteCarlo::new(s.clone()).unwrap();
    run.run_to_end();
    let text = gpucost::workbench::report::report_json_text(&s, &run.results(), None);
    assert!(!text.contains("cut_off"));
}

/// A history of `jobs` one-GPU jobs in `reader`'s format, one a minute.
fn history_of(reader: &str, jobs: usize) -> String {
    let mut text = String::with_capacity(jobs * 48);
    match reader {
        "csv" => text.push_str("job,submit,start,end,num_gpu,state\n"),
        "sacct" => text.push_str("JobID|Submit|Start|End|State|AllocTRES\n"),
        _ => text.push_str("; UnixStartTime: 1704067200\n"),
    }
    for i in 0..jobs {
        let t = 60 * i;
        let line = match reader {
            "csv" => format!("j{i},{t},{t},{},1,completed\n", t + 600),
            "sacct" => {
                // Minutes from 2024-01-01T00:00:00, written as sacct writes them.
                let (d, m) = (t / 86_400, t % 86_400);
                let day = |d: usize| {
                    let (year, d) = (2024 + d / 336, d % 336);
                    format!("{year}-{:02}-{:02}", 1 + d / 28, 1 + d % 28)
                };
                let (h, min) = (m / 3_600, m % 3_600 / 60);
                let stamp = format!("{}T{h:02}:{min:02}:00", day(d));
                let end = format!("{}T{h:02}:{min:02}:30", day(d));
                format!("{i}|{stamp}|{stamp}|{end}|COMPLETED|gres/gpu=1\n")
            }
            _ => format!(
                "{i} {t} 0 600 8 -1 -1 8 3600 -1 1 1 1 1 1 -1 -1 -1\n",
                i = i + 1
            ),
        };
        text.push_str(&line);
    }
    text
}

#[test]
fn a_history_of_the_most_jobs_reads_and_one_more_is_refused_naming_the_limit() {
    use gpucost::history::{read_history, ImportOptions};
    let max = limits::HISTORY_JOBS_MAX;
    for reader in ["csv", "sacct", "swf"] {
        let at = read_history(&history_of(reader, max), &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{reader} at the limit: {e}"));
        assert_eq!(at.records.len(), max, "{reader}");
        assert!(at.bad_rows.is_empty(), "{reader}: {:?}", &at.bad_rows[..1]);
        let err = read_history(&history_of(reader, max + 1), &ImportOptions::default())
            .expect_err("over the limit")
            .to_string();
        assert!(err.contains("more than 1000000 jobs"), "{reader}: {err}");
    }
}

#[test]
fn the_page_refuses_a_history_over_its_byte_limit_naming_it() {
    use gpucost::history::{check_page_size, HistoryError};
    assert!(check_page_size(limits::HISTORY_BYTES_MAX_PAGE as u64).is_ok());
    let err = check_page_size(limits::HISTORY_BYTES_MAX_PAGE as u64 + 1).unwrap_err();
    assert!(matches!(err, HistoryError::TooLarge { .. }));
    assert!(err.to_string().contains("at most 256 MB"), "{err}");
}
