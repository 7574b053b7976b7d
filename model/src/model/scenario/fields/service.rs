//! Fields of a service (paths relative to `services.<i>`).

use super::*;

use crate::model::serving::llm::architectures::{known, Architecture};
use crate::model::serving::llm::roofline::Precision;

/// The choices of a service's `llm.model`: none (a service of measured capacity), each known
/// model ([`crate::model::serving::llm::architectures::MODELS`], a test keeps them equal),
/// or a custom shape.
pub const LLM_MODEL_CHOICES: &[(&str, &str)] = &[
    ("none", "Not an LLM (measured capacity)"),
    ("llama-3.1-8b", "Llama 3.1 8B"),
    ("llama-3.1-70b", "Llama 3.1 70B"),
    ("llama-3.1-405b", "Llama 3.1 405B"),
    ("mixtral-8x7b", "Mixtral 8×7B"),
    ("qwen2.5-32b", "Qwen2.5 32B"),
    ("qwen3-30b-a3b", "Qwen3 30B-A3B (MoE)"),
    ("custom", "Custom shape"),
];

fn llm_mut(s: &mut Service) -> &mut Llm {
    s.llm.get_or_insert_with(Llm::default)
}

/// The custom shape to edit: the scenario's, or the chosen model's made custom.
fn custom_mut(s: &mut Service) -> &mut Architecture {
    let llm = llm_mut(s);
    let base = llm
        .custom
        .or_else(|| known(&llm.model).map(|m| m.architecture))
        .unwrap_or(known("llama-3.1-8b").expect("a known model").architecture);
    llm.model = "custom".to_string();
    llm.custom.get_or_insert(base)
}

fn custom(s: &Service) -> Option<&Architecture> {
    s.llm.as_ref().and_then(|l| l.custom.as_ref())
}

fn spikes_mut(s: &mut Service) -> &mut ServiceSpikes {
    s.traffic.spikes.get_or_insert(ServiceSpikes {
        per_month: 0.0,
        factor: 1.0,
        duration_min: 60.0,
    })
}

/// Fields of a service.
pub static SERVICE_FIELDS: &[Field<Service>] = &[
    Field::<Service>::other("name", "Name", Value::Name { get: |s| &s.name }).doc("Name shown in the page."),
    num!(Service; "traffic.mean_rps", "Mean traffic", "req/s", (0.0, 1e6),
        |s| s.traffic.mean_rps, |s, v| s.traffic.mean_rps = v)
    .slider(0.0, 5_000.0, 0.1)
    .doc("Mean requests per second over a week, spikes aside."),
    Field {
        min: 0.0,
        max: 1e6,
        ..Field::<Service>::other("traffic.hourly_profile", "Traffic by hour of day", Value::Numbers {
            get: |s| s.traffic.hourly_profile.as_deref(),
            series: Series::HourOfDay,
        })
    }
    .doc("24 non-negative weights, one per hour of the day; only their ratios matter. Absent: flat.")
    .control(Control::Elsewhere),
    Field {
        min: 0.0,
        max: 1e7,
        ..Field::<Service>::other("traffic.replay.per_minute", "Replayed requests by minute", Value::Numbers {
            get: |s| s.traffic.replay.as_ref().map(|r| r.per_minute.as_slice()),
            series: Series::Minutes,
        })
    }
    .doc("Requests in each minute of a recorded trace, played from the horizon's start in a loop \
          instead of a drawn traffic (at most a day of minutes). Absent: drawn.")
    .control(Control::Elsewhere),
    num!(Service; "traffic.weekend_factor", "Weekend traffic", "× weekday", (0.0, 100.0),
        |s| s.traffic.weekend_factor, |s, v| s.traffic.weekend_factor = v)
    .doc("Traffic on Saturday and Sunday relative to a weekday; the weekly mean stays the mean traffic."),
    Field::<Service>::number("traffic.spikes.per_month", "Spikes a month", "/month", (0.0, 1_000.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.per_month), |s, v| spikes_mut(s).per_month = v)
    .doc("Mean spikes per 730-hour month, placed at random."),
    Field::<Service>::number("traffic.spikes.factor", "Spike factor", "×", (1.0, 1_000.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.factor), |s, v| spikes_mut(s).factor = v)
    .slider(1.0, 50.0, 0.5)
    .doc("Traffic during a spike, as a multiple of the usual."),
    Field::<Service>::number("traffic.spikes.duration_min", "Spike length", "min", (1.0, 10_080.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.duration_min), |s, v| spikes_mut(s).duration_min = v)
    .doc("How long a spike lasts."),
    num!(Service; "capacity_rps", "Capacity per replica", "req/s", (1e-3, 1e6),
        |s| s.capacity_rps, |s, v| s.capacity_rps = v)
    .doc("Requests per second one replica sustains on the reference GPU at its batch setting, as measured."),
    num!(Service; "concurrency", "Concurrency", "requests", (1.0, 4_096.0),
        |s| s.concurrency, |s, v| s.concurrency = v as u32)
    .doc("Requests a replica holds at once; one request alone takes concurrency ÷ capacity seconds."),
    num!(Service; "gpus_per_replica", "GPUs per replica", "", (0.001, 64.0),
        |s| s.gpus_per_replica, |s, v| s.gpus_per_replica = v)
    .doc("GPUs one replica holds: whole, or a fraction (to 0.001) that a platform sharing its GPUs (MIG or time-slicing) packs; elsewhere a fraction holds a whole GPU. The capacity is measured with its whole GPU to itself."),
    num!(Service; "gpu_memory_gb", "GPU memory per replica", "GB", (0.0, 1_000.0),
        |s| s.gpu_memory_gb, |s, v| s.gpu_memory_gb = v)
    .doc("GPU memory one replica needs on each of its GPUs."),
    num!(Service; "latency_slo_ms", "Latency objective (p95)", "ms", (1.0, 3.6e6),
        |s| s.latency_slo_ms, |s, v| s.latency_slo_ms = v)
    .doc("A minute whose p95 latency is above it counts as an SLO-violation minute."),
    num!(Service; "min_replicas", "Fewest replicas", "", (0.0, limits::MAX_NODES as f64),
        |s| s.min_replicas, |s, v| s.min_replicas = v as u32)
    .doc("0 scales to zero on a platform that can (elsewhere one replica stays)."),
    num!(Service; "max_replicas", "Most replicas", "", (1.0, limits::MAX_NODES as f64),
        |s| s.max_replicas, |s, v| s.max_replicas = v as u32)
    .doc("The autoscaler adds no replica beyond it; requests then queue, and past the queue are dropped."),
    num!(Service; "target_utilization", "Autoscaling target", "", (0.05, 1.0),
        |s| s.target_utilization, |s, v| s.target_utilization = v)
    .doc("Share of a replica's capacity the autoscaler aims to use."),
    num!(Service; "model_load_s", "Model load", "s", (0.0, 86_400.0),
        |s| s.model_load_s, |s, v| s.model_load_s = v)
    .doc("A new replica's model load once its GPU is there."),
    num!(Service; "image_gb", "Image size", "GB", (0.0, 1_000.0),
        |s| s.image_gb, |s, v| s.image_gb = v)
    .doc("Container image pulled by a new replica's node."),
    num!(Service; "queue_per_replica", "Queue per replica", "requests", (0.0, 1e6),
        |s| s.queue_per_replica, |s, v| s.queue_per_replica = v as u32)
    .doc("Requests that may wait, per replica at the most replicas; more are dropped."),
    Field::<Service>::other("llm.model", "LLM", Value::Choice {
        choices: LLM_MODEL_CHOICES,
        get: |s| match &s.llm {
            None => "none",
            Some(l) => LLM_MODEL_CHOICES
                .iter()
                .find(|(id, _)| *id == l.model)
                .map_or("custom", |(id, _)| id),
        },
        set: |s, id| match id {
            "none" => s.llm = None,
            "custom" => {
                custom_mut(s);
            }
            id => {
                let llm = llm_mut(s);
                llm.model = id.to_string();
                llm.custom = None;
            }
        },
    })
    .doc("The LLM the service serves: its replicas' GPUs, batch, capacity, TTFT and TPOT then come from the model on each platform's GPU, and the measured capacity, concurrency, GPUs and memory are not read. Absent: a service of measured capacity."),
    Field::<Service>::other("llm.precision", "Precision", Value::Choice {
        choices: &[
            ("bf16", "bf16"),
            ("fp8", "FP8"),
            ("int4", "int4 weights"),
        ],
        get: |s| s.llm.as_ref().map_or("bf16", |l| l.precision.id()),
        set: |s, id| {
            if let Some(p) = Precision::ALL.into_iter().find(|p| p.id() == id) {
                llm_mut(s).precision = p;
            }
        },
    })
    .doc("How the weights are stored and computed: bf16; FP8 (Ada, Hopper, Blackwell, MI300 only); int4 weights with 16-bit compute. A GPU without it is refused by name."),
    Field::<Service>::number("llm.tensor_parallel", "GPUs per replica (tensor parallel)", "", (1.0, 64.0),
        |s| s.llm.as_ref().map(|l| f64::from(l.tensor_parallel)), |s, v| llm_mut(s).tensor_parallel = v as u32)
    .doc("GPUs one replica holds, the model sharded across them; at most a node's GPUs."),
    Field::<Service>::number("llm.input_tokens.median", "Prompt tokens (median)", "tokens", (1.0, 1e7),
        |s| s.llm.as_ref().map(|l| l.input_tokens.median), |s, v| llm_mut(s).input_tokens.median = v)
    .doc("Median prompt tokens per request (lognormal with the p90)."),
    Field::<Service>::number("llm.input_tokens.p90", "Prompt tokens (p90)", "tokens", (1.0, 1e7),
        |s| s.llm.as_ref().map(|l| l.input_tokens.p90), |s, v| llm_mut(s).input_tokens.p90 = v)
    .doc("90th percentile of the prompt tokens, at least the median."),
    Field::<Service>::number("llm.output_tokens.median", "Output tokens (median)", "tokens", (1.0, 1e7),
        |s| s.llm.as_ref().map(|l| l.output_tokens.median), |s, v| llm_mut(s).output_tokens.median = v)
    .doc("Median output tokens per request (lognormal with the p90)."),
    Field::<Service>::number("llm.output_tokens.p90", "Output tokens (p90)", "tokens", (1.0, 1e7),
        |s| s.llm.as_ref().map(|l| l.output_tokens.p90), |s, v| llm_mut(s).output_tokens.p90 = v)
    .doc("90th percentile of the output tokens, at least the median."),
    Field::<Service>::number("llm.ttft_p95_ms", "Time to first token objective (p95)", "ms", (0.01, 3.6e6),
        |s| s.llm.as_ref().map(|l| l.ttft_p95_ms), |s, v| llm_mut(s).ttft_p95_ms = v)
    .doc("A minute whose p95 time to first token is above it counts as an SLO-violation minute."),
    Field::<Service>::number("llm.tpot_p95_ms", "Time per output token objective (p95)", "ms", (0.01, 3.6e6),
        |s| s.llm.as_ref().map(|l| l.tpot_p95_ms), |s, v| llm_mut(s).tpot_p95_ms = v)
    .doc("A minute whose time per output token is above it counts as an SLO-violation minute; the autoscaler aims at a share of the load that meets it."),
    Field::<Service>::number("llm.custom.params_b", "Parameters", "billion", (1e-3, 1e5),
        |s| custom(s).map(|a| a.params_b), |s, v| custom_mut(s).params_b = v)
    .doc("A custom model's parameters, every expert counted."),
    Field::<Service>::number("llm.custom.active_params_b", "Active parameters", "billion", (1e-3, 1e5),
        |s| custom(s).map(|a| a.active_params_b), |s, v| custom_mut(s).active_params_b = v)
    .doc("Parameters a token activates (the parameters, for a dense model)."),
    Field::<Service>::number("llm.custom.layers", "Layers", "", (1.0, 1e5),
        |s| custom(s).map(|a| f64::from(a.layers)), |s, v| custom_mut(s).layers = v as u32)
    .doc("A custom model's transformer layers."),
    Field::<Service>::number("llm.custom.attention_heads", "Attention heads", "", (1.0, 1e5),
        |s| custom(s).map(|a| f64::from(a.attention_heads)), |s, v| custom_mut(s).attention_heads = v as u32)
    .doc("A custom model's attention (query) heads."),
    Field::<Service>::number("llm.custom.kv_heads", "Key-value heads", "", (1.0, 1e5),
        |s| custom(s).map(|a| f64::from(a.kv_heads)), |s, v| custom_mut(s).kv_heads = v as u32)
    .doc("Key-value heads (fewer than the attention heads under grouped-query attention): they size the KV cache."),
    Field::<Service>::number("llm.custom.head_dim", "Head dimension", "", (1.0, 1e5),
        |s| custom(s).map(|a| f64::from(a.head_dim)), |s, v| custom_mut(s).head_dim = v as u32)
    .doc("Dimension of one attention head."),
    Field::<Service>::number("llm.custom.experts", "Experts", "", (0.0, 1e5),
        |s| custom(s).map(|a| f64::from(a.experts)), |s, v| custom_mut(s).experts = v as u32)
    .doc("Experts per layer of a mixture of experts (0: dense)."),
    Field::<Service>::number("llm.custom.experts_per_token", "Experts per token", "", (0.0, 1e5),
        |s| custom(s).map(|a| f64::from(a.experts_per_token)), |s, v| custom_mut(s).experts_per_token = v as u32)
    .doc("Experts a token is routed to."),
];
