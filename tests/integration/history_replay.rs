//! Replay: the exact jobs of a history on each platform. On a platform that adds nothing (room
//! for every job at once; no interruptions, failures, pulls or provisioning) the useful
//! GPU-hours are the recorded GPU-hours of the jobs that did not fail, to the second.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::history::replay::replay_into;
use gpucost::history::ImportOptions;
use gpucost::model::monte_carlo::run_replication;
use gpucost::model::scenario::{Arrivals, Duration, Scenario};
use std::process::Command;

const SACCT: &str = include_str!("../data/sacct-gpu.txt");

fn no_delay() -> Scenario {
    let mut platform = bare_platform("no delay");
    platform.max_nodes = 10_000;
    let template = bare_class(
        Arrivals::Poisson { per_day: 1.0 },
        Duration::Fixed { hours: 1.0 },
    );
    scenario(30.0, 3, vec![template], vec![platform])
}

#[test]
fn replayed_jobs_keep_their_recorded_gpu_hours_to_the_second() {
    let (s, fit) = replay_into(&no_delay(), SACCT, &ImportOptions::default()).expect("replays");
    let replay = s.replay.as_ref().expect("a replay");
    assert_eq!(replay.jobs.len(), 13);
    // First submission 03-03 08:00, last 03-07 12:00: 100 h over 13 jobs, widened by 13/12.
    assert!((s.horizon_days - 100.0 * 13.0 / 12.0 / 24.0).abs() < 1e-12);
    assert_eq!(s.horizon_days, fit.window_days);
    // Worked out from the file: the jobs that did not fail are 1001 (2 GPUs, 2 h), 1003_2
    // (10 min), 1006 (8 GPUs, 3 h), 1007 (20 min), 1010 (5 h so far), 1011 (1 h so far) and
    // 1013 (1 h); each ends inside the horizon (1013, the last, at 101 h of 108.3).
    let expected_s =
        2.0 * 7_200.0 + 600.0 + 8.0 * 10_800.0 + 1_200.0 + 18_000.0 + 3_600.0 + 3_600.0;
    for r in 0..3 {
        let o = &run_replication(&s, r)[0];
        let got_s = o.useful_reference_gpu_hours * 3600.0;
        assert!(
            (got_s - expected_s).abs() < 1.0,
            "replication {r}: {got_s} GPU-s useful, {expected_s} recorded"
        );
    }
}

#[test]
fn a_replay_link_carries_the_classes_not_the_jobs() {
    let (s, _) = replay_into(&no_delay(), SACCT, &ImportOptions::default()).expect("replays");
    let link = gpucost::scenario::link::encode_link(&s, "batch-vs-eks-spot");
    let read = gpucost::scenario::link::decode_link(&link);
    assert_eq!(read.scenario.replay, None);
    assert_eq!(read.scenario.job_classes, s.job_classes);
}

#[test]
fn the_cli_evaluates_a_replay() {
    let dir = std::env::temp_dir().join(format!("gpucost-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = dir.join("no-delay.json");
    std::fs::write(&base, serde_json::to_string(&no_delay()).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gpucost"))
        .args([
            "history",
            "tests/data/sacct-gpu.txt",
            "--replay",
            "--scenario",
        ])
        .arg(&base)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gpucost runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("Replayed: 13 jobs"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let p = &report["platforms"][0];
    // 7 jobs end as recorded, 6 fail as recorded, in every replication.
    assert_eq!(p["jobs_completed"]["mean"], 7.0, "{p}");
    assert_eq!(p["jobs_failed"]["mean"], 6.0, "{p}");
}
