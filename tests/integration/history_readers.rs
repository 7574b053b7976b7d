//! The history readers on hand-made files whose every figure is worked out by hand: a GPU
//! `sacct -P` dump (TRES with GPU types, an array, steps, a record over two lines, a | in a
//! job name, every Slurm state), an SWF log and a CSV with seconds from the trace's start.

use gpucost::history::clock::Clock;
use gpucost::history::record::Outcome;
use gpucost::history::{fit_history, HistoryFit, ImportOptions, SourceFormat};
use gpucost::model::scenario::{Arrivals, Duration, JobClass};

const SACCT: &str = include_str!("../data/sacct-gpu.txt");
const SWF: &str = include_str!("../data/history.swf");
const RELATIVE: &str = include_str!("../data/history-relative.csv");

fn fit(text: &str, options: &ImportOptions) -> HistoryFit {
    fit_history(text, &JobClass::default(), "A100", options).expect("fits")
}

fn state(fit: &HistoryFit, written: &str) -> Option<(usize, Outcome)> {
    fit.states
        .iter()
        .find(|s| s.written == written)
        .map(|s| (s.jobs, s.outcome))
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

#[test]
fn a_gpu_sacct_dump_reads_as_worked_out() {
    let f = fit(SACCT, &ImportOptions::default());
    assert_eq!(f.format, SourceFormat::Sacct);
    assert_eq!(f.clock, Clock::Absolute);
    assert_eq!(f.gpus_from_cpus, None, "GPUs come from TRES");
    // 1001.batch, 1001.extern and 1003_2.batch fold; a blank line and a comment are skipped.
    assert_eq!((f.steps_folded, f.lines_skipped), (3, 2));
    // Skipped, by line: `x|y|z` (17), 1012 with no GPU in its TRES (22), the step 999.batch
    // whose allocation is not in the file (23).
    let lines: Vec<u64> = f.bad_rows.iter().map(|b| b.line).collect();
    assert_eq!(lines, vec![17, 22, 23], "{:?}", f.bad_rows);
    assert!(f.bad_rows[1].reason.contains("CPU-only"));
    assert!(f.bad_rows[2].reason.contains("999"));
    // Every state as Slurm spells it, each with what it became.
    for (written, jobs, outcome) in [
        ("COMPLETED", 2, Outcome::Succeeded),
        ("FAILED", 1, Outcome::Failed),
        ("TIMEOUT", 1, Outcome::TimedOut),
        ("OUT_OF_MEMORY", 1, Outcome::Failed),
        ("NODE_FAIL", 1, Outcome::Failed),
        ("BOOT_FAIL", 1, Outcome::Failed),
        ("DEADLINE", 1, Outcome::Failed),
        ("CANCELLED by …", 1, Outcome::Cancelled),
        ("PREEMPTED", 1, Outcome::Interrupted),
        ("REQUEUED", 1, Outcome::Interrupted),
        ("RUNNING", 1, Outcome::StillRunning),
        ("SUSPENDED", 1, Outcome::StillRunning),
        ("PENDING", 3, Outcome::NeverStarted),
    ] {
        assert_eq!(state(&f, written), Some((jobs, outcome)), "{written}");
    }
    // The pending array 1003_[3-5] is three jobs that never started.
    assert_eq!(f.never_started, 3);
    // 13 jobs ran: 11 on 1 GPU, 1001 on 2, 1006 on 8.
    assert_eq!(f.used, 13);
    let sizes: Vec<(u32, usize)> = f
        .fits
        .iter()
        .map(|c| (c.gpus_per_job as u32, c.jobs))
        .collect();
    assert_eq!(sizes, vec![(1, 11), (2, 1), (8, 1)]);
    // The 1-GPU run times in A100-hours: 1002 ran 0.5 h on an H100 (2× an A100) = 1 h;
    // 1003_1 24 h, 1003_2 10 min, 1004 45 min (its SubmitLine ran over two lines), 1005 1 h
    // (its JobName holds a |), 1007 20 min, 1008 5 s, 1009 2 h, 1010 5 h and 1011 1 h (both
    // still running), 1013 1 h.
    let one = [
        1.0,
        24.0,
        1.0 / 6.0,
        0.75,
        1.0,
        1.0 / 3.0,
        5.0 / 3600.0,
        2.0,
        5.0,
        1.0,
        1.0,
    ];
    let c = &f.fits[0];
    assert!((c.observed_hours.mean - mean(&one)).abs() < 1e-9);
    assert!((c.simulated_hours.mean - mean(&one)).abs() < mean(&one) * 1e-3);
    assert_eq!(c.censored, 2);
    // Outcomes known for 7: 1002, 1004, 1005, 1008, 1009 failed; 1003_1 hit its time limit
    // (work kept, the default) and 1013 completed.
    assert_eq!((c.failed, c.with_outcome), (5, 7));
    assert_eq!(f.classes[0].failures.probability, 0.714);
    // Arrivals: first submission 03-03 08:00, last 03-07 12:00 (100 h) over 13 jobs.
    let window_days = 100.0 * 13.0 / 12.0 / 24.0;
    assert!((f.window_days - window_days).abs() < 1e-12);
    let per_day = |class: &JobClass| match class.arrivals {
        Arrivals::HourOfDay { per_day, .. } => per_day,
        ref other => panic!("{other:?}"),
    };
    assert!((per_day(&f.classes[0]) - 11.0 / window_days).abs() < 1e-3);
    assert!(f.notes.iter().any(|n| n.contains("joined")));
    assert!(f.notes.iter().any(|n| n.contains("unescaped |")));
}

#[test]
fn sacct_without_a_header_needs_its_field_list() {
    let body: String = SACCT.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let err = fit_history(
        &body,
        &JobClass::default(),
        "A100",
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("--format field list"), "{err}");
    let fields = SACCT
        .lines()
        .next()
        .unwrap()
        .split('|')
        .map(str::to_string)
        .collect();
    let with_list = fit(
        &body,
        &ImportOptions {
            sacct_fields: Some(fields),
            ..Default::default()
        },
    );
    let with_header = fit(SACCT, &ImportOptions::default());
    assert_eq!(with_list.classes, with_header.classes);
    // The same records, one line earlier each.
    let lines: Vec<u64> = with_list.bad_rows.iter().map(|b| b.line).collect();
    assert_eq!(lines, vec![16, 21, 22]);
}

#[test]
fn crlf_and_a_byte_order_mark_read_the_same() {
    let dos = format!("\u{feff}{}", SACCT.replace('\n', "\r\n"));
    let a = fit(&dos, &ImportOptions::default());
    let b = fit(SACCT, &ImportOptions::default());
    assert_eq!(a.classes, b.classes);
    assert_eq!(a.bad_rows, b.bad_rows);
}

#[test]
fn times_without_a_zone_follow_the_zone_given() {
    // At UTC−05:00 every instant moves 5 h later; the rates and durations do not change,
    // the hours of day as written do not either.
    let utc = fit(SACCT, &ImportOptions::default());
    let east = fit(
        SACCT,
        &ImportOptions {
            utc_offset_s: -5 * 3600,
            ..Default::default()
        },
    );
    assert_eq!(utc.classes, east.classes);
    assert!(
        east.notes.iter().any(|n| n.contains("UTC−05:00")),
        "{:?}",
        east.notes
    );
}

#[test]
fn an_swf_log_maps_processors_to_gpus() {
    let f = fit(SWF, &ImportOptions::default());
    assert_eq!(f.format, SourceFormat::Swf);
    assert_eq!(f.gpus_from_cpus, Some(8));
    assert!(f.notes.iter().any(|n| n.contains("every 8 CPUs")));
    // Job 4 was cancelled before it ran (run −1, status 5); job 6 has no run time and
    // status 1: skipped, line 12.
    assert_eq!(f.never_started, 1);
    assert_eq!(f.bad_rows.len(), 1);
    assert_eq!(f.bad_rows[0].line, 12);
    // 8 processors → 1 GPU (jobs 1 and 3: 4 processors is part of 8; 7: 1), 16 → 2, 64 → 8.
    let sizes: Vec<(u32, usize)> = f
        .fits
        .iter()
        .map(|c| (c.gpus_per_job as u32, c.jobs))
        .collect();
    assert_eq!(sizes, vec![(1, 3), (2, 1), (8, 1)]);
    // 1-GPU run times 1 h, 2 h, 1 h; job 2 (16 processors) failed.
    assert!((f.fits[0].observed_hours.mean - 4.0 / 3.0).abs() < 1e-12);
    assert_eq!((f.fits[1].failed, f.fits[1].with_outcome), (1, 1));
    // UnixStartTime 2024-01-01 00:00 UTC and TimeZone +1 h: job 1 arrives at 01:00 local,
    // and a note says which zone and where it came from.
    assert!(f.hourly_share[1] > 0.0);
    assert!(
        f.notes
            .iter()
            .any(|n| n == "Hours of day are counted at UTC+01:00 (the log's TimeZone)."),
        "{:?}",
        f.notes
    );
    // Without a zone in the log or --tz: UTC, and the note says none was given.
    let bare = SWF.replace("; TimeZone: 3600\n", "");
    let f0 = fit(&bare, &ImportOptions::default());
    assert!(
        f0.notes
            .iter()
            .any(|n| n.starts_with("Hours of day are counted at UTC")
                && n.ends_with("(none is given: the log has no TimeZone, and --tz is not set).")),
        "{:?}",
        f0.notes
    );
    // 16 CPUs a GPU: job 2 becomes a 1-GPU job, 64 → 4.
    let f16 = fit(
        SWF,
        &ImportOptions {
            cpus_per_gpu: Some(16),
            ..Default::default()
        },
    );
    let sizes: Vec<(u32, usize)> = f16
        .fits
        .iter()
        .map(|c| (c.gpus_per_job as u32, c.jobs))
        .collect();
    assert_eq!(sizes, vec![(1, 4), (4, 1)]);
}

#[test]
fn seconds_from_the_trace_start_are_read_as_such() {
    let f = fit(RELATIVE, &ImportOptions::default());
    assert_eq!(f.clock, Clock::TraceSeconds);
    // r7's date-time in a file of seconds is refused, by line.
    assert_eq!(f.bad_rows.len(), 1);
    assert_eq!(f.bad_rows[0].line, 8);
    assert!(f.bad_rows[0]
        .reason
        .contains("seconds from the trace's start"));
    // r3 never started; r4 was still running (censored).
    assert_eq!(f.never_started, 1);
    assert_eq!(f.fits.iter().map(|c| c.censored).sum::<usize>(), 1);
    // Durations end − start: r1 1 h, r2 2 h, r6 2 h (1 GPU); r4 88,100 s, r5 1 h (8 GPUs).
    let sizes: Vec<(u32, usize)> = f
        .fits
        .iter()
        .map(|c| (c.gpus_per_job as u32, c.jobs))
        .collect();
    assert_eq!(sizes, vec![(1, 3), (8, 2)]);
    assert!((f.fits[1].observed_hours.mean - (88_100.0 / 3600.0 + 1.0) / 2.0).abs() < 1e-9);
    // No clock time: Poisson arrivals, stated.
    assert!(f
        .classes
        .iter()
        .all(|c| matches!(c.arrivals, Arrivals::Poisson { .. })));
    assert!(f.notes.iter().any(|n| n.contains("no clock time")));
    // A start is a start: arrivals are the submissions, 0 to 86,400 s over 5 jobs.
    assert!((f.window_days - 5.0 / 4.0).abs() < 1e-12);
}

#[test]
fn a_file_with_starts_only_says_the_queue_wait_is_unknown() {
    let csv =
        "start_time,duration_s,gpus\n2024-01-01T00:00:00Z,3600,1\n2024-01-02T00:00:00Z,7200,1\n";
    let f = fit(csv, &ImportOptions::default());
    assert!(f
        .notes
        .iter()
        .any(|n| n.contains("queue wait") && n.contains("unknown")));
    assert_eq!(f.used, 2);
}

#[test]
fn the_log_normal_stays_an_option() {
    let f = fit(
        SACCT,
        &ImportOptions {
            durations: gpucost::history::DurationFit::LogNormal,
            ..Default::default()
        },
    );
    assert!(matches!(f.classes[0].duration, Duration::LogNormal { .. }));
    let e = fit(SACCT, &ImportOptions::default());
    assert!(matches!(e.classes[0].duration, Duration::Empirical { .. }));
}

mod damaged {
    //! Lines of the fixtures cut, repeated and spliced at random: every reader reports or fits,
    //! never panics, and lists what it skipped in line order.
    use super::*;
    use crate::support::splice;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn no_reader_panics_on_spliced_lines(
            which in 0usize..3,
            picks in prop::collection::vec((0usize..64, 0usize..200, 0usize..9), 1..40),
        ) {
            let text = splice([SACCT, SWF, RELATIVE][which], &picks);
            if let Ok(f) = fit_history(&text, &JobClass::default(), "A100", &ImportOptions::default()) {
                let lines: Vec<u64> = f.bad_rows.iter().map(|b| b.line).collect();
                let mut sorted = lines.clone();
                sorted.sort_unstable();
                prop_assert_eq!(lines, sorted);
                prop_assert!(f.classes.iter().all(|c| c.duration.mean_hours() > 0.0));
            }
        }
    }
}

#[test]
fn the_observed_queue_wait_is_start_minus_submit() {
    // The 13 jobs that ran waited (start − submit): 1001 5 min, 1002 30 s, 1003_1 and 1003_2
    // 1 min, 1006 60 min, the other eight 0.
    let f = fit(SACCT, &ImportOptions::default());
    let w = f.observed_queue_wait.expect("submit and start times");
    assert_eq!(w.jobs, 13);
    let mean_min = (5.0 + 0.5 + 1.0 + 1.0 + 60.0) / 13.0;
    assert!((w.mean_min - mean_min).abs() < 1e-12, "{}", w.mean_min);
    assert_eq!(w.p50_min, 0.0);
    // Sorted waits (min): eight 0, 0.5, 1, 1, 5, 60; p95 at rank 0.95 · 12 = 11.4: 5 + 0.4 · 55.
    assert!((w.p95_min - 27.0).abs() < 1e-9, "{}", w.p95_min);
    // A file with submissions only has none.
    assert_eq!(
        fit(SWF, &ImportOptions::default())
            .observed_queue_wait
            .map(|w| w.jobs),
        Some(5)
    );
}

#[test]
fn an_swf_number_too_large_for_a_float_is_a_skipped_line() {
    // Found by `make fuzz`: a run time of 6719999e97200 s parsed as infinity and made the
    // class's mean duration NaN.
    let swf = "; UnixStartTime: 1704067200\n\
        1 0 10 3600 4 -1 -1 4 7200 -1 1 1 1 1 1 -1 -1 -1\n\
        2 1200 30 6719999e97200 4 -1 -1 4 7200 -1 1 1 1 1 1 -1 -1 -1\n\
        3 2400 30 1800 4 -1 -1 4 7200 -1 1 1 1 1 1 -1 -1 -1\n";
    let fit = fit(swf, &ImportOptions::default());
    assert_eq!(fit.used, 2);
    assert_eq!(fit.bad_rows.len(), 1);
    assert_eq!(fit.bad_rows[0].line, 3);
    assert!(
        fit.bad_rows[0].reason.contains("finite"),
        "{:?}",
        fit.bad_rows
    );
    assert!(fit.classes[0].duration.mean_hours().is_finite());
}

/// `tests/data/sacct-legacy-gres.txt`: lower-case headers in another order, CRLF line ends,
/// `ElapsedRaw` seconds (3005 was suspended for 30 min: its End is 1.5 h after its Start,
/// its ElapsedRaw 1 h), legacy `AllocGRES` (`gpu:4`, `gpu:v100:2(IDX:0-1)`), a step, `None`
/// times of a pending job, and `User` as the team.
#[test]
fn legacy_gres_and_elapsed_raw_read_as_worked_out() {
    let text = include_str!("../data/sacct-legacy-gres.txt");
    assert!(text.contains("\r\n"));
    let f = fit(text, &ImportOptions::default());
    assert_eq!(f.format, SourceFormat::Sacct);
    assert_eq!(
        (f.rows, f.steps_folded, f.used, f.never_started),
        (7, 1, 5, 1)
    );
    assert!(f.bad_rows.is_empty(), "{:?}", f.bad_rows);
    let names: Vec<(&str, u32, usize)> = f
        .fits
        .iter()
        .map(|c| (c.name.as_str(), c.gpus_per_job as u32, c.jobs))
        .collect();
    assert_eq!(names, [("4-GPU jobs", 4, 4), ("2-GPU jobs", 2, 1)]);
    // 3001 2 h, 3003 0.5 h, 3004 24 h, 3005 1 h (ElapsedRaw, not End − Start).
    assert!((f.fits[0].observed_hours.mean - 27.5 / 4.0).abs() < 1e-9);
    // 3002: 1.5 h on a V100, which the catalog puts at 0.45 of an A100.
    assert!((f.fits[1].observed_hours.mean - 1.5 * 0.45).abs() < 1e-9);
    assert_eq!(f.gpu_models, [("V100".to_string(), 1)]);
    assert_eq!(state(&f, "PENDING"), Some((1, Outcome::NeverStarted)));
    // Too few jobs for profiles of their own (240): both classes fall back, saying so.
    assert!(f.fits.iter().all(|c| !c.own_profile));
    assert!(
        f.notes.iter().any(|n| n.starts_with(
            "4-GPU jobs; 2-GPU jobs had fewer than 240 jobs and use(s) the whole history's"
        )),
        "{:?}",
        f.notes
    );
}

#[test]
fn one_class_per_team_splits_each_gpu_count_by_team() {
    let text = include_str!("../data/sacct-legacy-gres.txt");
    let f = fit(
        text,
        &ImportOptions {
            team_classes: true,
            ..Default::default()
        },
    );
    let classes: Vec<(&str, Option<&str>, usize, f64)> = f
        .fits
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.team.as_deref(),
                c.jobs,
                c.observed_hours.mean,
            )
        })
        .collect();
    // alice: 3001 (2 h) and 3003 (0.5 h); bob: 3004 (24 h) and 3005 (1 h), and 3002 on 2 GPUs.
    assert_eq!(
        classes,
        [
            ("4-GPU jobs, alice", Some("alice"), 2, 1.25),
            ("4-GPU jobs, bob", Some("bob"), 2, 12.5),
            ("2-GPU jobs, bob", Some("bob"), 1, 1.5 * 0.45),
        ]
    );
    assert_eq!(f.classes[0].name, "4-GPU jobs, alice");
    assert!(f
        .notes
        .iter()
        .any(|n| n == "One class per team and GPU count (2 teams)."));
    // Each team's GPU-hours a day add up to the GPU count's.
    let whole = fit(text, &ImportOptions::default());
    let team_sum = f.fits[0].observed_gpu_hours_per_day + f.fits[1].observed_gpu_hours_per_day;
    assert!((team_sum - whole.fits[0].observed_gpu_hours_per_day).abs() < 1e-9);
}

#[test]
fn teams_beyond_the_class_limit_share_a_class() {
    // 20 teams on 1 GPU, team i with 20 − i jobs of 1 h: 15 classes of their own and one
    // for the 5 smallest teams (5 + 4 + 3 + 2 + 1 = 15 jobs), 16 in all, the limit.
    let mut text = String::from("team,submit_time,start_time,end_time,gpus\n");
    let mut n = 0;
    for team in 0..20 {
        for _ in 0..20 - team {
            let (d, h) = (1 + n / 24, n % 24);
            text.push_str(&format!(
                "t{team:02},2026-03-{d:02}T{h:02}:00:00,2026-03-{d:02}T{h:02}:00:00,2026-03-{d:02}T{h:02}:59:59,1\n"
            ));
            n += 1;
        }
    }
    let f = fit(
        &text,
        &ImportOptions {
            team_classes: true,
            ..Default::default()
        },
    );
    assert_eq!(f.classes.len(), 16);
    for (i, c) in f.fits.iter().take(15).enumerate() {
        assert_eq!(c.team.as_deref(), Some(format!("t{i:02}").as_str()));
        assert_eq!(c.jobs, 20 - i);
    }
    assert_eq!(f.fits[15].name, "1-GPU jobs, 5 other teams");
    assert_eq!(f.fits[15].team.as_deref(), Some("(other teams)"));
    assert_eq!(f.fits[15].jobs, 15);
    assert_eq!(f.fits.iter().map(|c| c.jobs).sum::<usize>(), 210);
    assert!(
        f.notes
            .iter()
            .any(|n| n.contains("5 smaller team-and-GPU-count groups")),
        "{:?}",
        f.notes
    );
}

#[test]
fn team_classes_take_the_user_where_the_account_is_empty_and_keep_names_apart() {
    // 16 GPU counts with two teams each: no room for a team's own class (each GPU count
    // needs one), so every class is a count's two teams together. Then one team named
    // like the leftover marker, and one with no team at all, keep classes of their own.
    let mut rows = vec!["JobID|Account|User|State|Submit|Start|End|AllocTRES".to_string()];
    let mut id = 1;
    let mut job = |rows: &mut Vec<String>, account: &str, user: &str, gpus: u32| {
        let d = 1 + id / 24;
        let h = id % 24;
        rows.push(format!(
            "{id}|{account}|{user}|COMPLETED|2026-03-{d:02}T{h:02}:00:00|2026-03-{d:02}T{h:02}:00:00|2026-03-{d:02}T{h:02}:30:00|gres/gpu={gpus}"
        ));
        id += 1;
    };
    for g in 1..=16 {
        job(&mut rows, "a", "x", g);
        job(&mut rows, "a", "x", g);
        job(&mut rows, "", "bob", g);
    }
    let text = rows.join("\n");
    let options = ImportOptions {
        team_classes: true,
        ..Default::default()
    };
    let f = fit(&text, &options);
    assert_eq!(f.classes.len(), 16);
    assert!(
        f.fits.iter().all(|c| c.name.ends_with("2 other teams")),
        "{:?}",
        f.fits[0].name
    );
    assert_eq!(f.fits.iter().map(|c| c.jobs).sum::<usize>(), 48);
    // Two GPU counts: team "a" (Account), "bob" (User, the Account being empty), a team
    // literally named "(other teams)" and jobs with no team.
    let mut rows = vec!["JobID|Account|User|State|Submit|Start|End|AllocTRES".to_string()];
    for (account, user, n) in [
        ("a", "x", 4),
        ("", "bob", 3),
        ("(other teams)", "", 2),
        ("", "", 1),
    ] {
        for _ in 0..n {
            job(&mut rows, account, user, 1);
        }
    }
    let f = fit(&rows.join("\n"), &options);
    let names: Vec<&str> = f.fits.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "1-GPU jobs, a",
            "1-GPU jobs, bob",
            "1-GPU jobs, (other teams)",
            "1-GPU jobs, (no team)"
        ]
    );
}

/// A Constraints of features ORed (`a100|h100`) holds an unescaped | in sacct `-P` output:
/// before the TRES it is joined back (taking the extra field as a trailing column would read
/// the second feature as the TRES, a job with no GPU); as the last column, too.
#[test]
fn an_unescaped_pipe_in_constraints_is_joined_back() {
    use gpucost::history::read_history;
    let rows = |head: &str, a: &str, b: &str| {
        format!(
            "{head}\n1|COMPLETED|2026-03-03T08:00:00|2026-03-03T08:00:00|2026-03-03T09:00:00|{a}\n\
             2|COMPLETED|2026-03-03T09:00:00|2026-03-03T09:00:00|2026-03-03T10:00:00|{b}\n"
        )
    };
    for text in [
        rows(
            "JobID|State|Submit|Start|End|Constraints|AllocTRES|Account",
            "a100|h100|gres/gpu=2|ml",
            "a100|gres/gpu=1|ml",
        ),
        rows(
            "JobID|State|Submit|Start|End|AllocTRES|Constraints",
            "gres/gpu=2|a100|h100",
            "gres/gpu=1|a100",
        ),
    ] {
        let read = read_history(&text, &ImportOptions::default()).unwrap();
        assert!(read.bad_rows.is_empty(), "{:?}", read.bad_rows);
        let gpus: Vec<u32> = read.records.iter().map(|r| r.gpus).collect();
        assert_eq!(gpus, vec![2, 1]);
        assert_eq!(
            read.notes,
            vec![
                "1 record(s) had an unescaped | inside a free-text field (JobName, SubmitLine, \
                  Constraints…); read with the field joined back."
                    .to_string()
            ]
        );
    }
}

/// A job stopped at its time limit (sacct's TIMEOUT, "terminated upon reaching its time
/// limit") is work kept by default, with a note; `timeouts: Failed` counts it as a failure.
#[test]
fn timeouts_are_work_kept_unless_said_otherwise() {
    use gpucost::history::TimeoutsAs;
    let text = "JobID|State|Submit|Start|End|AllocTRES\n\
                1|COMPLETED|2026-03-03T08:00:00|2026-03-03T08:00:00|2026-03-03T09:00:00|gres/gpu=1\n\
                2|TIMEOUT|2026-03-03T09:00:00|2026-03-03T09:00:00|2026-03-04T09:00:00|gres/gpu=1\n\
                3|FAILED|2026-03-03T10:00:00|2026-03-03T10:00:00|2026-03-03T10:30:00|gres/gpu=1\n\
                4|COMPLETED|2026-03-03T11:00:00|2026-03-03T11:00:00|2026-03-03T12:00:00|gres/gpu=1\n";
    let kept = fit(text, &ImportOptions::default());
    assert_eq!((kept.fits[0].failed, kept.fits[0].with_outcome), (1, 4));
    assert!(
        kept.notes.iter().any(|n| n.starts_with(
            "1 job(s) stopped at their time limit (TIMEOUT): each run counts as work kept"
        )),
        "{:?}",
        kept.notes
    );
    let failed = fit(
        text,
        &ImportOptions {
            timeouts: TimeoutsAs::Failed,
            ..Default::default()
        },
    );
    assert_eq!((failed.fits[0].failed, failed.fits[0].with_outcome), (2, 4));
    assert!(failed
        .notes
        .iter()
        .any(|n| n.contains("counted as failures")));
    // The 24-hour run counts in the durations either way (it computed until its limit).
    assert!((kept.fits[0].observed_hours.mean - (1.0 + 24.0 + 0.5 + 1.0) / 4.0).abs() < 1e-12);
}

/// Where the GPU jobs are under half the history (a shared cluster's), its CPU-only jobs are
/// skipped with one note; where they are a few, each is a skipped record.
#[test]
fn cpu_jobs_of_a_mostly_cpu_history_are_skipped_with_a_note() {
    let row = |h: u32, gpus: u32| format!("2026-03-02T{h:02}:00:00,3600,{gpus}\n");
    let mostly_cpu: String = std::iter::once("submit_time,duration_s,gpus\n".to_string())
        .chain([row(0, 1), row(1, 1), row(2, 0), row(3, 0), row(4, 0)])
        .collect();
    let f = fit(&mostly_cpu, &ImportOptions::default());
    assert!(f.bad_rows.is_empty(), "{:?}", f.bad_rows);
    assert!(
        f.notes.iter().any(|n| n
            == "3 CPU-only job(s) skipped: the history's 2 GPU job(s) are 40.0 % of its 5, and \
                the classes are theirs."),
        "{:?}",
        f.notes
    );
    let mostly_gpu: String = std::iter::once("submit_time,duration_s,gpus\n".to_string())
        .chain([row(0, 1), row(1, 1), row(2, 0), row(3, 2)])
        .collect();
    let f = fit(&mostly_gpu, &ImportOptions::default());
    assert_eq!(f.bad_rows.len(), 1);
    assert_eq!(f.bad_rows[0].reason, "requests no GPU (a CPU-only job)");
}
