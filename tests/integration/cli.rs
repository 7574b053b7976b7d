//! The `gpucost` binary as a user runs it.

use std::process::{Command, Output};

fn gpucost(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpucost"))
        .args(args)
        .output()
        .expect("gpucost runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn presets_lists_every_preset_with_a_description() {
    let o = gpucost(&["presets"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), gpucost::workbench::presets::presets().len());
    assert!(lines[0].starts_with("batch-vs-eks-spot\t"));
}

#[test]
fn eval_prints_the_documented_json_fields() {
    let o = gpucost(&[
        "eval",
        "--preset",
        "reserved-base-spot-overflow",
        "--reps",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["engine_version"], gpucost::model::ENGINE_VERSION);
    assert_eq!(v["scenario"]["replications"], 3);
    let platforms = v["platforms"].as_array().unwrap();
    assert_eq!(platforms.len(), 3);
    for p in platforms {
        for field in [
            "monthly_tco_usd",
            "usd_per_useful_gpu_hour",
            "utilization",
            "queue_wait_p50_min",
            "queue_wait_p95_min",
            "jobs_completed",
            "jobs_failed",
            "interruptions",
            "peak_nodes",
        ] {
            for stat in ["mean", "p5", "p50", "p95"] {
                assert!(p[field][stat].is_number(), "{field}.{stat} in {p}");
            }
        }
        assert!(p["breakdown_usd"]["useful_compute"].is_number());
        // The breakdown means add up to the mean total.
        let sum: f64 = p["breakdown_usd"]
            .as_object()
            .unwrap()
            .values()
            .map(|x| x.as_f64().unwrap())
            .sum();
        let mean = p["monthly_tco_usd"]["mean"].as_f64().unwrap();
        assert!((sum - mean).abs() < 1e-6 * mean, "{sum} vs {mean}");
    }
}

#[test]
fn same_seed_gives_the_same_bytes_and_set_edits_apply() {
    let args = [
        "eval",
        "--reps",
        "4",
        "--seed",
        "9",
        "--set",
        "platforms.1.spot_interruptions_per_node_hour=0.05",
    ];
    let a = gpucost(&args);
    let b = gpucost(&args);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(
        v["scenario"]["platforms"][1]["node_pools"][0]["spot_interruptions_per_node_hour"],
        0.05
    );
    assert_eq!(v["scenario"]["seed"], 9);
}

#[test]
fn bad_input_exits_2_with_one_line_naming_the_field() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["eval", "--preset", "nope"],
            "--preset nope: no such preset",
        ),
        (
            &["eval", "--set", "platforms.0.ops_fte=-1"],
            "platforms.0.ops_fte must be from 0 to 100; got -1",
        ),
        (
            &["eval", "--set", "platforms.9.ops_fte=1"],
            "--set platforms.9.ops_fte: no such field under platforms",
        ),
        (
            &["eval", "--reps", "0"],
            "replications must be from 1 to 10000; got 0",
        ),
        (
            &[
                "eval",
                "--preset",
                "pharma-14-stage-pipeline",
                "--set",
                "pipelines.0.stages.0.after=[\"rank-and-report\"]",
            ],
            "has a cycle: ",
        ),
        (
            &[
                "eval",
                "--preset",
                "pharma-14-stage-pipeline",
                "--set",
                "pipelines.0.stages.2.after=[\"nope\"]",
            ],
            "pipelines.0.stages.2.after.0: pipeline \"drug-discovery\" has no stage named \"nope\"",
        ),
    ];
    for (args, message) in cases {
        let o = gpucost(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    assert_eq!(gpucost(&["eval", "--frobnicate"]).status.code(), Some(2));
}

#[test]
fn schema_describes_the_scenario_and_scenario_prints_a_template() {
    let o = gpucost(&["schema"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let schema: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(schema["title"], "Scenario");
    assert!(schema["properties"]["platforms"].is_object());
    // Every cloud and every profile by its document name: Azure and its four among them.
    let defs = &schema["$defs"];
    let clouds = defs["Cloud"].to_string();
    let profiles = defs["ProfileName"]["anyOf"][0]["enum"].clone();
    for cloud in gpucost::model::cloud::Cloud::ALL {
        assert!(clouds.contains(&format!("\"{}\"", cloud.id())), "{clouds}");
    }
    let ids: Vec<&str> = gpucost::model::platforms::Profile::EVERY
        .iter()
        .map(|p| p.id())
        .collect();
    assert_eq!(profiles, serde_json::json!(ids));
    for id in [
        "azure",
        "aks",
        "azure_ml",
        "azure_batch",
        "cyclecloud_slurm",
    ] {
        assert!(schema.to_string().contains(&format!("\"{id}\"")), "{id}");
    }
    let o = gpucost(&["scenario", "--preset", "six-small-jobs"]);
    assert!(o.status.success());
    let s = gpucost::model::scenario::Scenario::from_json(&stdout(&o)).unwrap();
    assert_eq!(
        s,
        gpucost::workbench::presets::preset("six-small-jobs")
            .unwrap()
            .scenario()
    );
}

#[test]
fn a_link_from_gpucost_link_evaluates_to_the_same_numbers_as_its_edits() {
    let edits = [
        "--set",
        "seed=11",
        "--set",
        "platforms.1.spot_interruptions_per_node_hour=0.03",
    ];
    let mut link_args = vec!["link", "--preset", "spot-p4d-retrains"];
    link_args.extend(edits);
    let o = gpucost(&link_args);
    assert!(o.status.success(), "{}", stderr(&o));
    let link = stdout(&o).trim().to_string();
    assert!(link.starts_with("#v=1&p=spot-p4d-retrains@3&d="), "{link}");
    let url = format!("https://calc.example/{link}");
    let by_link = gpucost(&["eval", "--url", &url, "--reps", "5"]);
    let mut direct_args = vec!["eval", "--preset", "spot-p4d-retrains", "--reps", "5"];
    direct_args.extend(edits);
    let direct = gpucost(&direct_args);
    assert!(by_link.status.success(), "{}", stderr(&by_link));
    assert_eq!(by_link.stdout, direct.stdout);
    assert!(stderr(&by_link).is_empty());
    // A damaged link still evaluates (the preset) and says what was ignored.
    let damaged = gpucost(&["eval", "--url", "#v=1&p=nope@1", "--reps", "2"]);
    assert!(damaged.status.success());
    assert!(
        stderr(&damaged).contains("unknown preset \"nope\""),
        "{}",
        stderr(&damaged)
    );
}

#[test]
fn a_link_with_a_base_url_is_the_whole_address_and_evaluates_as_the_preset() {
    for preset in ["batch-vs-eks-spot", "spot-p4d-retrains"] {
        let o = gpucost(&[
            "link",
            "--base",
            "https://x.example/calc/",
            "--preset",
            preset,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let url = stdout(&o).trim().to_string();
        let prefix = format!("https://x.example/calc/#v=1&p={preset}@");
        assert!(url.starts_with(&prefix), "{url}");
        let by_url = gpucost(&["eval", "--url", &url, "--reps", "4"]);
        let direct = gpucost(&["eval", "--preset", preset, "--reps", "4"]);
        assert!(by_url.status.success(), "{}", stderr(&by_url));
        assert_eq!(by_url.stdout, direct.stdout);
    }
    // The environment gives the base too; a flag wins over it.
    let env = std::process::Command::new(env!("CARGO_BIN_EXE_gpucost"))
        .args(["link"])
        .env("GPUCOST_BASE_URL", "https://wiki.example/gpucost/")
        .output()
        .unwrap();
    assert!(
        stdout(&env).starts_with("https://wiki.example/gpucost/#v=1&"),
        "{}",
        stdout(&env)
    );
    // Not an address (one with a character of several bytes where the scheme would end, too),
    // or one with a fragment already: refused, saying why.
    for (bad, why) in [
        ("calc.example", "not an http(s) address"),
        ("ht€€://x.example/", "not an http(s) address"),
        ("https://x.example/#a", "already has a fragment"),
    ] {
        let o = gpucost(&["link", "--base", bad]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
    }
}

#[test]
fn eval_states_the_verdict_in_the_json_and_the_table() {
    let json = gpucost(&["eval", "--preset", "batch-vs-eks-spot", "--reps", "6"]);
    assert!(json.status.success(), "{}", stderr(&json));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let verdict = report["verdict"].as_str().expect("verdict").to_string();
    // The verdict names the platform with the lowest median cost per useful GPU-hour.
    let cheapest = report["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .min_by(|a, b| {
            let v = |p: &serde_json::Value| p["usd_per_useful_gpu_hour"]["p50"].as_f64().unwrap();
            v(a).total_cmp(&v(b))
        })
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        verdict.contains(&cheapest),
        "{verdict} does not name {cheapest}"
    );
    assert!(
        verdict.contains("per useful A100-hour") && verdict.contains("of 6 runs"),
        "{verdict}"
    );
    let table = gpucost(&[
        "eval",
        "--preset",
        "batch-vs-eks-spot",
        "--reps",
        "6",
        "--format",
        "table",
    ]);
    assert!(stdout(&table).contains(&verdict), "{}", stdout(&table));
}

#[test]
fn eval_says_where_a_service_cannot_scale_to_zero() {
    let o = gpucost(&[
        "eval",
        "--preset",
        "spiky-low-traffic",
        "--reps",
        "2",
        "--set",
        "horizon_days=2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "gpucost: note: Document assistant keeps 1 replica on GKE Standard node pool, SageMaker endpoint (always on)"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tune_prints_each_platform_s_changes_and_the_fair_verdict() {
    let o = gpucost(&[
        "tune",
        "--preset",
        "batch-vs-eks-spot",
        "--set",
        "replications=16",
        "--format",
        "table",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for name in ["AWS Batch on-demand", "EKS spot", "SageMaker"] {
        assert!(text.contains(&format!("\n{name}\n")), "{text}");
    }
    assert!(text.contains(" → "), "a change as from → to: {text}");
    assert!(text.contains("\nAs typed: ") && text.contains("\nEach platform at its best: "));
    let o = gpucost(&[
        "tune",
        "--preset",
        "batch-vs-eks-spot",
        "--set",
        "replications=16",
        "--pin",
        "platforms.1",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in ["platforms", "verdict_as_typed", "fair_verdict", "scenario"] {
        assert!(v.get(key).is_some(), "{key}");
    }
    let eks = &v["platforms"][1];
    for key in [
        "name",
        "changes",
        "as_typed",
        "tuned",
        "tuned_beats_as_typed_share",
        "constraints_met",
    ] {
        assert!(eks.get(key).is_some(), "{key}");
    }
    // Pinned whole: nothing searched, nothing changed.
    assert_eq!(eks["changes"], serde_json::json!({}));
    assert_eq!(eks["searched"], serde_json::json!([]));
    assert!(eks["tuned"]["se"].is_number());
    // The tuned scenario is one `eval` takes.
    gpucost::model::scenario::Scenario::from_json(&v["scenario"].to_string()).unwrap();
}

#[test]
fn tune_refuses_a_pin_or_objective_it_does_not_know_by_name() {
    let o = gpucost(&["tune", "--pin", "platforms.0.warm_window"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        "gpucost: --pin platforms.0.warm_window: no such field in the scenario"
    );
    let o = gpucost(&["tune", "--objective", "cheapest"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--objective: objective \"cheapest\": expected one of monthly_tco_usd"),
        "{}",
        stderr(&o)
    );
    let o = gpucost(&["tune", "--max-wait-p95-min", "-3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
