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
    platform.first_pool_mut().max_nodes = 10_000;
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
    // First submission 03-03 08:00; the last time the file holds is 1013's end, 101 h on
    // (its last arrival, 03-07 12:00 at 100 h, widened by 13/12 as the arrival rate is, would
    // be 108.3 h): the horizon runs to it, that second included.
    assert!(
        (fit.span_days - 101.0 / 24.0).abs() < 1e-12,
        "{}",
        fit.span_days
    );
    assert!((s.horizon_days - (101.0 * 3_600.0 + 1.0) / 86_400.0).abs() < 1e-12);
    assert!((fit.window_days - 100.0 * 13.0 / 12.0 / 24.0).abs() < 1e-12);
    // Worked out from the file: the jobs that did not fail are 1001 (2 GPUs, 2 h), 1003_1
    // (TIMEOUT after 24 h on 1 GPU: work kept, the default), 1003_2 (10 min), 1006 (8 GPUs,
    // 3 h), 1007 (20 min), 1010 (5 h so far), 1011 (1 h so far) and 1013 (1 h); each ends
    // inside the horizon (1013, the last, at its last second).
    let expected_s =
        2.0 * 7_200.0 + 86_400.0 + 600.0 + 8.0 * 10_800.0 + 1_200.0 + 18_000.0 + 3_600.0 + 3_600.0;
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
    let link = gpucost::workbench::link::encode_link(&s, "batch-vs-eks-spot");
    let read = gpucost::workbench::link::decode_link(&link);
    assert_eq!(read.scenario.replay, None);
    assert_eq!(read.scenario.job_classes, s.job_classes);
    // It names the jobs by their content key: the SHA-256 of their bytes.
    let replay = s.replay.as_ref().unwrap();
    let key = gpucost::model::scenario::Replay::key_of(&replay.to_bytes());
    assert_eq!(replay.key, key);
    assert!(link.ends_with(&format!("&r={key}")), "{link}");
    assert_eq!(read.replay_key.as_deref(), Some(key.as_str()));
    assert!(read.notices.is_empty(), "{:?}", read.notices);
    // A key that is not one is ignored, saying so.
    let bad = gpucost::workbench::link::decode_link(&link.replace(&key, "not-a-key"));
    assert_eq!(bad.replay_key, None);
    assert!(
        bad.notices[0].contains("not a content key"),
        "{:?}",
        bad.notices
    );
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
    // 8 jobs end as recorded (the TIMEOUT one's work kept), 5 fail as recorded, in every
    // replication.
    assert_eq!(p["jobs_completed"]["mean"], 8.0, "{p}");
    assert_eq!(p["jobs_failed"]["mean"], 5.0, "{p}");
}

/// Three 8-GPU jobs recorded on one 8-GPU node, first come first served: A (submitted 00:00)
/// runs 2 h, B (00:30) waits for it and starts at 02:00, C (01:00) starts at 03:00.
const ONE_NODE: &str = "submit_time,start_time,end_time,gpus,gpu_model\n\
    2026-03-02T00:00:00,2026-03-02T00:00:00,2026-03-02T02:00:00,8,A100\n\
    2026-03-02T00:30:00,2026-03-02T02:00:00,2026-03-02T03:00:00,8,A100\n\
    2026-03-02T01:00:00,2026-03-02T03:00:00,2026-03-02T04:00:00,8,A100\n";

#[test]
fn the_recorded_cluster_replays_the_recorded_schedule() {
    use gpucost::history::cluster::{queue_wait_check, RECORDED_CLUSTER};
    use gpucost::model::monte_carlo::MonteCarlo;
    let options = ImportOptions {
        cluster_gpus: Some(8),
        ..Default::default()
    };
    let (mut s, fit) = replay_into(&no_delay(), ONE_NODE, &options).expect("replays");
    // The horizon is the arrivals' span (1.5 h); a day lets every recorded job start in it.
    s.horizon_days = 1.0;
    // Observed waits 0, 90 and 120 min: mean 70, median 90, p95 90 + 0.9 × 30 = 117 (type 7).
    let observed = fit.observed_queue_wait.expect("submission and start times");
    assert_eq!(
        (
            observed.jobs,
            observed.mean_min,
            observed.p50_min,
            observed.p95_min
        ),
        (3, 70.0, 90.0, 117.0)
    );
    let cluster = s
        .platforms
        .iter()
        .find(|p| p.name == RECORDED_CLUSTER)
        .expect("added");
    assert_eq!(
        (
            cluster.first_pool().max_nodes,
            cluster.first_pool().gpus_per_node,
            s.reference_gpus
        ),
        (1, 8, 8)
    );
    assert_eq!(cluster.first_pool().reserved_nodes(s.reference_gpus), 1);
    // The template has no image to pull: the cluster adds nothing, so each replication waits
    // exactly as recorded.
    let mut run = MonteCarlo::new(s.clone()).expect("valid");
    run.run_to_end_on(1);
    let results = run.results();
    let simulated = results
        .platforms
        .iter()
        .find(|p| p.name == RECORDED_CLUSTER)
        .expect("a result");
    for (got, want) in [
        (simulated.queue_wait_mean_min(), 70.0),
        (simulated.queue_wait_p50_min(), 90.0),
        (simulated.queue_wait_p95_min(), 117.0),
    ] {
        assert!(
            (got.p5 - want).abs() < 1e-6 && (got.p95 - want).abs() < 1e-6,
            "{got:?} vs {want}"
        );
    }
    let line = queue_wait_check(Some(&observed), simulated).expect("a sentence");
    assert!(line.contains("mean 70.0 / 70.0 min"), "{line}");

    // Too small for the largest job, or no room for another platform: refused, saying why.
    let small = ImportOptions {
        cluster_gpus: Some(4),
        ..Default::default()
    };
    let e = replay_into(&no_delay(), ONE_NODE, &small)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("4 GPUs") && e.contains("largest job asks for 8"),
        "{e}"
    );
    let mut full = no_delay();
    for i in 1..gpucost::model::scenario::limits::PLATFORMS_MAX {
        let mut p = full.platforms[0].clone();
        p.name = format!("other {i}");
        full.platforms.push(p);
    }
    let e = replay_into(&full, ONE_NODE, &options)
        .unwrap_err()
        .to_string();
    assert!(e.contains("already compares 6 platforms"), "{e}");
}

#[test]
fn the_cli_sets_the_recorded_clusters_queue_wait_beside_the_observed() {
    let dir = std::env::temp_dir().join(format!("gpucost-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one-node.csv");
    std::fs::write(&file, ONE_NODE).unwrap();
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_gpucost"))
            .arg("history")
            .arg(&file)
            .args(["--set", "job_classes.0.image_gb=0"])
            .args(extra)
            .output()
            .expect("gpucost runs")
    };
    let out = run(&["--cluster-gpus", "8"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("Queue wait, observed / simulated on the Recorded cluster: mean 70.0 / "),
        "{stderr}"
    );
    let scenario: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let names: Vec<&str> = scenario["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names.last(), Some(&"Recorded cluster"), "{names:?}");
    let out = run(&["--cluster-gpus", "4"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("largest job asks for 8"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gpucost history FILE --replay --preset P`, with `--set` making the preset's first platform
/// one that adds no delay: its useful GPU-hours are the file's, to the second.
#[test]
fn the_cli_replays_a_history_on_a_preset_to_the_second() {
    let mut args: Vec<String> = [
        "history",
        "tests/data/sacct-gpu.txt",
        "--replay",
        "--preset",
        "six-small-jobs",
        "--set",
        "replications=4",
    ]
    .map(String::from)
    .to_vec();
    // No room to wait for, nothing to pull, provision, interrupt or slow down. The preset's
    // nodes are H100s: they run the jobs in half the time, and the useful work is counted in
    // reference-GPU (A100) hours, as the history's run times are.
    for edit in [
        "platforms.0.max_nodes=10000",
        "platforms.0.provisioning_median_s=0",
        "platforms.0.provisioning_p90_s=0",
        "platforms.0.capacity_wait_mean_s=0",
        "platforms.0.spot_interruptions_per_node_hour=0",
        "platforms.0.storage_read_slowdown_pct=0",
        "platforms.0.multi_node_efficiency=1",
        "job_classes.0.image_gb=0",
        "job_classes.0.checkpoint_interval_min=0",
        "job_classes.0.restart_overhead_s=0",
    ] {
        args.push("--set".into());
        args.push(edit.into());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gpucost"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gpucost runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("Replayed: 13 jobs"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let p = &report["platforms"][0];
    // The jobs that did not fail, worked out from the file (as in the test above): 1001
    // 2 GPUs × 2 h, 1003_1 24 h to its time limit (kept), 1003_2 10 min, 1006 8 GPUs × 3 h,
    // 1007 20 min, 1010 and 1011 5 h and 1 h so far, 1013 1 h; in reference-GPU-seconds.
    let expected_s =
        2.0 * 7_200.0 + 86_400.0 + 600.0 + 8.0 * 10_800.0 + 1_200.0 + 18_000.0 + 3_600.0 + 3_600.0;
    for stat in ["mean", "p5", "p95"] {
        let got_s = p["useful_gpu_hours"][stat]
            .as_f64()
            .expect("useful_gpu_hours")
            * 3_600.0;
        assert!(
            (got_s - expected_s).abs() < 1.0,
            "{stat}: {got_s} GPU-s useful, {expected_s} recorded; {p}"
        );
    }
    assert_eq!(p["jobs_completed"]["mean"], 8.0, "{p}");
}

/// Two jobs 297 days apart: the replay spans 297 days and an hour (it was refused as 594.5,
/// the arrival rate's widened window), within the 366 a horizon may have.
#[test]
fn a_long_sparse_history_replays_over_its_own_span() {
    let csv = "submit_time,duration_s,gpus\n\
               2025-01-01T00:00:00,3600,1\n\
               2025-10-25T00:00:00,3600,1\n";
    let (s, fit) = replay_into(&no_delay(), csv, &ImportOptions::default()).expect("replays");
    assert!(
        (fit.span_days - (297.0 + 1.0 / 24.0)).abs() < 1e-12,
        "{}",
        fit.span_days
    );
    assert!((s.horizon_days - fit.span_days - 1.0 / 86_400.0).abs() < 1e-12);
    let o = &run_replication(&s, 0)[0];
    assert_eq!(o.jobs_completed, 2);
}
