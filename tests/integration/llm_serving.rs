//! LLM serving in tokens: the roofline against published serving measurements (some
//! calibrated on, the rest held out), refusals by name, and the 70B chat preset's verdict in
//! $ per million output tokens.
//!
//! Published figures (all on H100 SXM or A100 SXM 80 GB, fixed prompt and output lengths):
//! - [TRT-online] NVIDIA TensorRT-LLM's performance overview, online serving table (Triton
//!   TRT-LLM backend, BF16, 500 requests at a fixed rate; `docs/source/performance/
//!   perf-overview.md` of release 0.17, February 2025): mean TTFT and mean inter-token
//!   latency at a request rate.
//! - [TRT-max] the same page's maximum-throughput table (`trtllm-bench`, every request queued
//!   at once; FP8 on H100, FP16 on A100): output tokens a second of the whole TP group.
//!
//! The efficiencies ([`Efficiencies::CALIBRATED`]) were set on the two rows marked
//! `calibrated` (70B on 4 × H100 and 8B on one, 467 in and 256 out, at 2 requests a second):
//! memory bandwidth 0.6 and prefill 0.5 of peak reproduce their inter-token latency and TTFT
//! with the first token leaving one decode step after the prefill. Every other row is held out
//! and must land within ±30 %. Rows left out, and why: the online table at an infinite rate
//! (500 requests sent at once: a draining batch, not a steady state, as its equal ~174
//! requests in flight for 8B and 70B alike show), and MLPerf's server runs (batches of
//! 896, far past the 256 requests vLLM holds by default).

use gpucost::model::gpus;
use gpucost::model::serving::llm::architectures::known;
use gpucost::model::serving::llm::roofline::{Efficiencies, Precision, Replica, TokenCount};
use gpucost::workbench::presets::preset;

/// What a published figure measured.
#[derive(Debug, Clone, Copy)]
enum Measured {
    /// Mean inter-token latency at a request rate, ms.
    Tpot { rps: f64, ms: f64 },
    /// Mean time to first token at a request rate, ms.
    Ttft { rps: f64, ms: f64 },
    /// Output tokens a second at saturation.
    Throughput { tokens_per_s: f64 },
}

struct Figure {
    model: &'static str,
    gpu: &'static str,
    precision: Precision,
    tp: u32,
    input: f64,
    output: f64,
    measured: Measured,
    calibrated: bool,
    source: &'static str,
}

/// A figure: (model, GPU, precision, tensor parallelism), (input, output) tokens, what was
/// measured, whether the efficiencies were fitted on it, and its source.
const fn fig(
    (model, gpu, precision, tp): (&'static str, &'static str, Precision, u32),
    (input, output): (f64, f64),
    measured: Measured,
    calibrated: bool,
    source: &'static str,
) -> Figure {
    Figure {
        model,
        gpu,
        precision,
        tp,
        input,
        output,
        measured,
        calibrated,
        source,
    }
}

use Measured::{Throughput, Tpot, Ttft};
use Precision::{Bf16, Fp8};

const FIGURES: &[Figure] = &[
    fig(
        ("llama-3.1-70b", "H100", Bf16, 4),
        (467.0, 256.0),
        Tpot { rps: 2.0, ms: 21.0 },
        true,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-70b", "H100", Bf16, 4),
        (467.0, 256.0),
        Ttft { rps: 2.0, ms: 62.0 },
        true,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-8b", "H100", Bf16, 1),
        (467.0, 256.0),
        Tpot { rps: 2.0, ms: 8.0 },
        true,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-8b", "H100", Bf16, 1),
        (467.0, 256.0),
        Ttft { rps: 2.0, ms: 23.0 },
        true,
        "TRT-online",
    ),
    // Held out: other loads and lengths.
    fig(
        ("llama-3.1-70b", "H100", Bf16, 4),
        (467.0, 256.0),
        Tpot { rps: 8.0, ms: 32.0 },
        false,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-70b", "H100", Bf16, 4),
        (467.0, 256.0),
        Ttft { rps: 8.0, ms: 92.0 },
        false,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-8b", "H100", Bf16, 1),
        (467.0, 256.0),
        Tpot {
            rps: 16.0,
            ms: 11.0,
        },
        false,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-8b", "H100", Bf16, 1),
        (467.0, 256.0),
        Ttft {
            rps: 16.0,
            ms: 30.0,
        },
        false,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-70b", "H100", Bf16, 4),
        (202.0, 214.0),
        Tpot { rps: 2.0, ms: 20.0 },
        false,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-70b", "H100", Bf16, 4),
        (202.0, 214.0),
        Ttft { rps: 2.0, ms: 48.0 },
        false,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-8b", "H100", Bf16, 1),
        (202.0, 214.0),
        Tpot { rps: 2.0, ms: 7.0 },
        false,
        "TRT-online",
    ),
    fig(
        ("llama-3.1-8b", "H100", Bf16, 1),
        (202.0, 214.0),
        Ttft { rps: 2.0, ms: 19.0 },
        false,
        "TRT-online",
    ),
    // Held out: saturation throughput, other precisions, GPUs and models.
    fig(
        ("llama-3.1-8b", "H100", Fp8, 1),
        (1_000.0, 1_000.0),
        Throughput {
            tokens_per_s: 15_244.78,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("llama-3.1-8b", "H100", Fp8, 1),
        (2_048.0, 2_048.0),
        Throughput {
            tokens_per_s: 9_488.42,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("llama-3.1-8b", "A100-80GB", Bf16, 1),
        (1_000.0, 1_000.0),
        Throughput {
            tokens_per_s: 3_786.83,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("llama-3.1-70b", "H100", Fp8, 2),
        (1_000.0, 1_000.0),
        Throughput {
            tokens_per_s: 4_390.53,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("llama-3.1-70b", "H100", Fp8, 4),
        (1_000.0, 1_000.0),
        Throughput {
            tokens_per_s: 7_430.99,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("llama-3.1-70b", "A100-80GB", Bf16, 4),
        (1_000.0, 1_000.0),
        Throughput {
            tokens_per_s: 1_921.77,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("llama-3.1-70b", "A100-80GB", Bf16, 8),
        (2_048.0, 2_048.0),
        Throughput {
            tokens_per_s: 2_553.71,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("mixtral-8x7b", "H100", Fp8, 2),
        (1_000.0, 1_000.0),
        Throughput {
            tokens_per_s: 15_770.89,
        },
        false,
        "TRT-max",
    ),
    fig(
        ("llama-3.1-405b", "H100", Fp8, 8),
        (1_000.0, 1_000.0),
        Throughput {
            tokens_per_s: 2_919.0,
        },
        false,
        "TRT-max",
    ),
];

/// What the roofline gives for a figure.
fn predicted(f: &Figure) -> f64 {
    let arch = known(f.model).unwrap().architecture;
    let gpu = gpus::find(f.gpu).unwrap();
    let r = Replica::new(
        &arch,
        f.precision,
        gpu,
        f.tp,
        TokenCount::new(f.input, f.input),
        TokenCount::new(f.output, f.output),
        Efficiencies::CALIBRATED,
    )
    .unwrap();
    match f.measured {
        Tpot { rps, .. } => r.operating_point(rps).unwrap().0 * 1e3,
        // Mean TTFT as the per-minute model has it: the mean wait behind other prompts
        // (Pollaczek–Khinchine, a prompt's service its prefill P and the step s it runs
        // with), then its own P + s.
        Ttft { rps, .. } => {
            let (_, batch) = r.operating_point(rps).unwrap();
            let s = r.step_s(batch);
            let (p1, p2) = (r.prefill_mean_s(), r.prefill_mean_square_s2());
            let busy = rps * (p1 + s);
            let wait = rps * (p2 + 2.0 * s * p1 + s * s) / (2.0 * (1.0 - busy));
            (wait + p1 + s) * 1e3
        }
        Throughput { .. } => r.saturation_rps() * f.output,
    }
}

fn value(m: Measured) -> f64 {
    match m {
        Tpot { ms, .. } | Ttft { ms, .. } => ms,
        Throughput { tokens_per_s } => tokens_per_s,
    }
}

#[test]
fn the_roofline_lands_within_30_percent_of_published_measurements_it_was_not_fitted_on() {
    let mut held_out = 0;
    for f in FIGURES {
        let got = predicted(f);
        let want = value(f.measured);
        let ratio = got / want;
        let bound = if f.calibrated { 0.10 } else { 0.30 };
        assert!(
            (ratio - 1.0).abs() <= bound,
            "{} on {}×{} {:?} {}/{} ({}): {got:.1} against {want} (×{ratio:.2})",
            f.model,
            f.tp,
            f.gpu,
            f.measured,
            f.input,
            f.output,
            f.source
        );
        held_out += usize::from(!f.calibrated);
    }
    assert!(held_out >= 5, "{held_out}");
}

#[test]
fn a_model_that_does_not_fit_and_a_precision_a_gpu_lacks_are_refused_by_name() {
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    let llm = s.services[0].llm.as_mut().unwrap();
    llm.precision = Precision::Bf16;
    llm.tensor_parallel = 1;
    let e = s.validate().unwrap_err().to_string();
    // 70.6 B × 2 bytes on one GPU: 141.2 GB against 70 GB usable.
    assert!(
        e.contains("141.2 GB") && e.contains("70.0 GB usable"),
        "{e}"
    );
    assert!(e.contains("services.0.llm.tensor_parallel"), "{e}");
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    s.services[0].llm.as_mut().unwrap().tensor_parallel = 16;
    let e = s.validate().unwrap_err().to_string();
    assert!(
        e.contains("16 GPUs per replica") && e.contains("8 GPUs per node"),
        "{e}"
    );
    // FP8 on an A100: refused, naming the GPU.
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    for p in &mut s.platforms {
        p.node_pools[0].gpu_model = "A100-80GB".into();
    }
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("A100-80GB has no FP8"), "{e}");
    // An unknown model.
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    s.services[0].llm.as_mut().unwrap().model = "llama-9".into();
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("unknown model \"llama-9\""), "{e}");
}

#[test]
fn the_70b_chat_preset_ranks_by_dollars_per_million_output_tokens() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpucost"))
        .args([
            "eval",
            "--preset",
            "llm-70b-chat",
            "--reps",
            "10",
            "--no-flips",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdict = report["verdict"].as_str().unwrap();
    assert!(verdict.contains("per million output tokens"), "{verdict}");
    let horizon_months = 14.0 * 24.0 / 730.0;
    for p in report["platforms"].as_array().unwrap() {
        let llm = &p["services"][0]["llm"];
        for key in [
            "ttft_p95_ms",
            "tpot_p95_ms",
            "usd_per_million_output_tokens",
        ] {
            assert!(llm[key]["p50"].as_f64().unwrap() > 0.0, "{key}: {llm}");
        }
        assert_eq!(llm["gpus_per_replica"].as_f64(), Some(4.0));
        // The platform's $ per million output tokens is its TCO over the horizon over the
        // output tokens served: output tokens/s × the horizon's seconds.
        let tco = p["monthly_tco_usd"]["mean"].as_f64().unwrap() * horizon_months;
        let tokens = llm["output_tokens_per_s"]["mean"].as_f64().unwrap() * 14.0 * 86_400.0;
        let per_million = p["usd_per_million_output_tokens"]["mean"].as_f64().unwrap();
        assert!(
            (per_million - tco / tokens * 1e6).abs() < 0.02 * per_million,
            "{per_million} vs {}",
            tco / tokens * 1e6
        );
    }
}

/// A platform's own tensor parallelism (`service_settings.<name>.tensor_parallel`) is the
/// service's split on that platform alone, bit for bit; a split that cannot run is refused
/// naming the platform's setting.
#[test]
fn a_platform_may_split_an_llm_its_own_way() {
    use gpucost::model::monte_carlo::run_replication;
    use gpucost::workbench::edit::apply_edits;
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    s.horizon_days = 2.0;
    let name = s.services[0].name.clone();
    let own = |tp: u32| format!("platforms.1.service_settings.{name}.tensor_parallel={tp}");
    let on_one = apply_edits(&s, &[own(8)]).unwrap();
    let everywhere = apply_edits(&s, &["services.0.llm.tensor_parallel=8".into()]).unwrap();
    let (a, b, typed) = (
        run_replication(&on_one, 1),
        run_replication(&everywhere, 1),
        run_replication(&s, 1),
    );
    assert_eq!(
        a[1], b[1],
        "the platform's own split is the service's there"
    );
    assert_eq!(a[0], typed[0], "and only there");
    assert_ne!(a[1], typed[1]);

    let refused = |edit: String| {
        let e = apply_edits(&s, &[edit]).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "platforms.1.service_settings.{name}.tensor_parallel"
            )),
            "{e}"
        );
        e
    };
    // 70B at FP8 is 70.6 GB of weights: not on one 80 GB H100 (70 GB usable).
    assert!(refused(own(1)).contains("70.6 GB per GPU"));
    assert!(refused(own(3)).contains("do not divide its model's 64 attention heads"));
    assert!(refused(own(16)).contains("has 8 GPUs per node"));
    let mut measured = preset("agent-traffic-spike").unwrap().scenario();
    let service = measured.services[0].name.clone();
    measured.platforms[0]
        .service_settings
        .entry(service)
        .or_default()
        .tensor_parallel = Some(2);
    let e = measured.validate().unwrap_err().to_string();
    assert!(e.contains("is not an LLM"), "{e}");
}

/// The tuner's split of the 70B model against the roofline's own ranking of the splits. On
/// SageMaker an endpoint's replica holds its p5 instance whole (8 GPUs) whatever its split, so
/// the best split is the one a replica serves the most on within both objectives; on EKS
/// replicas pack the nodes, so it is the most per GPU. The ranking comes from the tables
/// alone (`LlmTables::rps_within`), the tuner's choice from simulated months.
#[test]
fn the_tuner_splits_the_model_as_the_load_within_the_objectives_per_gpu_paid_ranks_it() {
    use gpucost::model::serving::llm::latency::LlmTables;
    use gpucost::workbench::tune::{TuneOptions, TuneRun};
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    s.horizon_days = 7.0;
    let llm = s.services[0].llm.clone().unwrap();
    let h100 = *gpus::find("H100").unwrap();
    let within = |tp: u32| {
        let mut split = llm.clone();
        split.tensor_parallel = tp;
        let tables = LlmTables::new(split.replica(&h100).unwrap());
        tables.rps_within(llm.ttft_p95_ms / 1e3, llm.tpot_p95_ms / 1e3)
    };
    let splits = [2, 4, 8];
    let best = |per: &dyn Fn(u32) -> f64| {
        let mut ranked: Vec<(u32, f64)> = splits.iter().map(|&tp| (tp, per(tp))).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        // A clear winner: at least 10 % ahead of the next.
        assert!(ranked[0].1 > 1.1 * ranked[1].1, "{ranked:?}");
        ranked[0].0
    };
    let per_node = best(&|tp| within(tp));
    let per_gpu = best(&|tp| within(tp) / f64::from(tp));
    assert_eq!((per_node, per_gpu), (8, 4), "the roofline's ranking");

    // Only the split is searched: the pools and the autoscaling stay as typed.
    let pins = vec![
        "platforms.0.node_pools".to_string(),
        "platforms.1.node_pools".to_string(),
        "services.0.min_replicas".to_string(),
        "services.0.target_utilization".to_string(),
    ];
    let report = TuneRun::new(
        &s,
        TuneOptions {
            pins,
            ..TuneOptions::default()
        },
    )
    .unwrap()
    .run_to_end_on(2);
    let tuned = &report.scenario;
    let split = |p: usize| {
        tuned.services[0]
            .on(&tuned.platforms[p])
            .llm
            .as_ref()
            .unwrap()
            .tensor_parallel
    };
    assert_eq!(split(0), per_gpu, "EKS: {:?}", report.platforms[0]);
    assert_eq!(split(1), per_node, "SageMaker: {:?}", report.platforms[1]);
}

/// Of a platform's pools, an LLM runs on one whose GPU has its precision, however cheap the
/// others: an FP8 model passes over an A100 pool (no FP8) priced at a dollar a node-hour.
#[test]
fn an_llm_runs_on_a_pool_whose_gpu_has_its_precision() {
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    let p = &mut s.platforms[0];
    let mut a100 = p.node_pools[0].clone();
    a100.name = "a100".into();
    a100.gpu_model = "A100".into();
    a100.gpu_memory_gb = 40.0;
    a100.on_demand_usd_per_node_hour = 1.0;
    a100.spot_usd_per_node_hour = 0.5;
    p.node_pools.insert(0, a100);
    s.validate().unwrap();
    assert_eq!(s.platforms[0].services_pool(&s), 1);
    // At int4 weights, which the A100 runs: the dollar pool wins.
    s.services[0].llm.as_mut().unwrap().precision =
        gpucost::model::serving::llm::roofline::Precision::Int4;
    s.validate().unwrap();
    assert_eq!(s.platforms[0].services_pool(&s), 0);
}
