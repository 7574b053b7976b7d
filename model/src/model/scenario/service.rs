//! Inference services: a second kind of workload beside job classes. A service receives
//! request traffic and runs on replicas that an autoscaler adds and removes
//! ([`crate::model::serving`]). Absent from every preset and link made before them: a
//! scenario without services reads and runs as before.

use super::Profile;
use crate::model::gpus::Gpu;
use crate::model::serving::llm::architectures::{known, Architecture};
use crate::model::serving::llm::roofline::{
    longest_tokens, Efficiencies, PerGpu, Precision, Replica, ReplicaError, TokenCount,
    MEMORY_UTILIZATION, RESERVED_GB_PER_GPU,
};
use crate::model::serving::traffic::{Spikes, Traffic};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A service with request traffic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Service {
    /// Name shown in the page.
    pub name: String,
    /// Its request traffic.
    pub traffic: ServiceTraffic,
    /// Requests per second one replica sustains on the reference GPU at its batch setting,
    /// as measured (scaled by a platform's relative throughput).
    pub capacity_rps: f64,
    /// Requests a replica holds at once: `concurrency` servers per replica, each at
    /// `capacity_rps ÷ concurrency`.
    pub concurrency: u32,
    /// GPUs one replica holds: a whole number, or a fraction of one GPU (in milli-GPUs,
    /// 0.001 to 0.999) on a platform that shares GPUs ([`super::GpuSharing`]).
    pub gpus_per_replica: f64,
    /// GPU memory one replica needs, GB.
    pub gpu_memory_gb: f64,
    /// p95 latency objective, milliseconds.
    pub latency_slo_ms: f64,
    /// Fewest replicas; 0 scales to zero where the platform can (elsewhere 1, said so).
    pub min_replicas: u32,
    /// Most replicas.
    pub max_replicas: u32,
    /// The autoscaler's target utilisation of a replica's capacity (0–1].
    pub target_utilization: f64,
    /// A replica's model load once its GPU is there, seconds.
    pub model_load_s: f64,
    /// Container image size, GB.
    pub image_gb: f64,
    /// Requests that may wait per replica (at max_replicas); more are dropped.
    pub queue_per_replica: u32,
    /// The LLM it serves, where it is one: then its replicas' GPUs, memory, capacity and
    /// batch come from the model on each platform's GPU ([`crate::model::serving::llm`]),
    /// and `capacity_rps`, `concurrency`, `gpus_per_replica` and `gpu_memory_gb` are not
    /// read. Absent: a service of measured capacity, as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<Llm>,
}

/// An LLM a service serves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Llm {
    /// A known model's id ([`crate::model::serving::llm::architectures::MODELS`]), or
    /// `custom` for the shape in `custom`.
    pub model: String,
    /// The model's shape, where `model` is `custom`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom: Option<Architecture>,
    /// How its weights are stored and computed.
    pub precision: Precision,
    /// GPUs one replica holds, the model sharded across them (at most a node's GPUs).
    pub tensor_parallel: u32,
    /// Prompt tokens per request.
    pub input_tokens: Tokens,
    /// Output tokens per request.
    pub output_tokens: Tokens,
    /// Time-to-first-token objective at the p95, milliseconds.
    pub ttft_p95_ms: f64,
    /// Time-per-output-token objective at the p95, milliseconds.
    pub tpot_p95_ms: f64,
}

impl Default for Llm {
    fn default() -> Self {
        Llm {
            model: "llama-3.1-8b".to_string(),
            custom: None,
            precision: Precision::Bf16,
            tensor_parallel: 1,
            input_tokens: Tokens {
                median: 1_000.0,
                p90: 3_000.0,
            },
            output_tokens: Tokens {
                median: 250.0,
                p90: 600.0,
            },
            ttft_p95_ms: 2_000.0,
            tpot_p95_ms: 50.0,
        }
    }
}

/// Tokens per request: a median and a p90 (lognormal between them).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Tokens {
    /// Median tokens.
    pub median: f64,
    /// 90th percentile (at least the median).
    pub p90: f64,
}

impl Tokens {
    /// As the roofline draws them.
    pub fn count(&self) -> TokenCount {
        TokenCount::new(self.median, self.p90)
    }
}

impl Llm {
    /// Mean input and output tokens a request (each count's lognormal mean).
    pub fn mean_tokens(&self) -> (f64, f64) {
        (
            self.input_tokens.count().mean(),
            self.output_tokens.count().mean(),
        )
    }

    /// Its shape, or why it has none (an unknown id, `custom` without a shape).
    pub fn architecture(&self) -> Result<Architecture, String> {
        if self.model == "custom" {
            return self.custom.ok_or_else(|| {
                "the model is custom but its shape (custom: params_b, active_params_b, layers, \
                 attention_heads, kv_heads, head_dim) is missing"
                    .to_string()
            });
        }
        known(&self.model).map(|m| m.architecture).ok_or_else(|| {
            format!(
                "unknown model \"{}\": one of {}, or custom",
                self.model,
                crate::model::serving::llm::architectures::MODELS
                    .iter()
                    .map(|m| m.id)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// A replica on `gpu`, or why it cannot run there.
    pub fn replica(&self, gpu: &Gpu) -> Result<Replica, ReplicaError> {
        let arch = self.architecture().map_err(ReplicaError::Precision)?;
        Replica::new(
            &arch,
            self.precision,
            gpu,
            self.tensor_parallel,
            self.input_tokens.count(),
            self.output_tokens.count(),
            Efficiencies::CALIBRATED,
        )
    }

    /// GPU memory a replica needs on each of its GPUs, GB: its weights' share and one
    /// request's KV cache at the p90 token counts, over the usable share, plus the reserve
    /// ([`crate::model::serving::llm::roofline`]); `None` without a shape.
    pub fn memory_need_gb(&self) -> Option<f64> {
        let arch = self.architecture().ok()?;
        let per_gpu = PerGpu::new(&arch, self.precision, self.tensor_parallel);
        let longest = longest_tokens(self.input_tokens.count(), self.output_tokens.count());
        let need = per_gpu.weight_bytes() + longest * per_gpu.kv_bytes_per_token;
        Some((need / 1e9 + RESERVED_GB_PER_GPU) / MEMORY_UTILIZATION)
    }
}

impl Service {
    /// The service as `platform` runs it: an LLM at the tensor parallelism the platform sets
    /// for it (`Platform::service_settings`), where it sets one; itself otherwise.
    pub fn on(&self, platform: &super::Platform) -> Cow<'_, Service> {
        let own = platform
            .service_settings
            .get(&self.name)
            .and_then(|o| o.tensor_parallel);
        match (&self.llm, own) {
            (Some(llm), Some(tp)) if llm.tensor_parallel != tp => {
                let mut out = self.clone();
                if let Some(l) = out.llm.as_mut() {
                    l.tensor_parallel = tp;
                }
                Cow::Owned(out)
            }
            _ => Cow::Borrowed(self),
        }
    }

    /// What a replica needs of a node pool to run on it.
    pub fn pool_need(&self) -> super::PoolNeed {
        super::PoolNeed {
            gpus: self.replica_gpus(),
            gpu_memory_gb: self.replica_memory_gb(),
            precision: self.llm.as_ref().map(|l| l.precision),
        }
    }

    /// GPUs one replica holds: an LLM's tensor-parallel GPUs, else `gpus_per_replica`.
    pub fn replica_gpus(&self) -> f64 {
        match &self.llm {
            Some(llm) => f64::from(llm.tensor_parallel.max(1)),
            None => self.gpus_per_replica,
        }
    }

    /// GPU memory a replica needs on each of its GPUs, GB: an LLM's
    /// ([`Llm::memory_need_gb`]), else `gpu_memory_gb`.
    pub fn replica_memory_gb(&self) -> f64 {
        match &self.llm {
            Some(llm) => llm.memory_need_gb().unwrap_or(0.0),
            None => self.gpu_memory_gb,
        }
    }

    /// GPUs one replica asks for, in milli-GPUs.
    pub fn gpu_milli(&self) -> u32 {
        super::gpu_sharing::milli_gpus(self.replica_gpus())
    }

    /// Whether a replica asks for a fraction of a GPU.
    pub fn is_fractional(&self) -> bool {
        self.gpu_milli() < super::gpu_sharing::MILLI
    }
}

impl Default for Service {
    fn default() -> Self {
        Service {
            name: "Inference".to_string(),
            traffic: ServiceTraffic::default(),
            capacity_rps: 20.0,
            concurrency: 8,
            gpus_per_replica: 1.0,
            gpu_memory_gb: 20.0,
            latency_slo_ms: 2_000.0,
            min_replicas: 1,
            max_replicas: 8,
            target_utilization: 0.7,
            model_load_s: 60.0,
            image_gb: 10.0,
            queue_per_replica: 100,
            llm: None,
        }
    }
}

/// A service's traffic, as the scenario writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ServiceTraffic {
    /// Mean requests per second over a week, spikes aside.
    pub mean_rps: f64,
    /// Relative weights of the 24 hours of the day (absent: flat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hourly_profile: Option<Vec<f64>>,
    /// Traffic on Saturday and Sunday relative to a weekday (1: alike).
    pub weekend_factor: f64,
    /// Spikes placed at random (absent: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spikes: Option<ServiceSpikes>,
    /// A recorded traffic played instead of a drawn one (absent: drawn). `mean_rps` is then
    /// its mean, and it has no hourly profile, weekend factor or spikes of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<TrafficReplay>,
}

/// A request trace's arrivals, minute by minute, played from the horizon's start and again
/// from its first minute when they end (`gpucost traffic --replay`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TrafficReplay {
    /// Requests that arrived in each minute, from the trace's first request (whole numbers).
    pub per_minute: Vec<f64>,
}

impl TrafficReplay {
    /// Its requests over its length: requests per second.
    pub fn mean_rps(&self) -> f64 {
        let total: f64 = self.per_minute.iter().sum();
        total / (self.per_minute.len() as f64 * 60.0)
    }
}

impl Default for ServiceTraffic {
    fn default() -> Self {
        ServiceTraffic {
            mean_rps: 5.0,
            hourly_profile: None,
            weekend_factor: 1.0,
            spikes: None,
            replay: None,
        }
    }
}

/// Spikes of traffic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ServiceSpikes {
    /// Mean spikes per 730-hour month.
    pub per_month: f64,
    /// Rate multiplier during a spike.
    pub factor: f64,
    /// Length of a spike, minutes.
    pub duration_min: f64,
}

impl ServiceTraffic {
    /// The traffic the simulation draws from.
    pub fn traffic(&self) -> Traffic {
        Traffic {
            mean_rps: self.mean_rps,
            hourly_profile: self.hourly_profile.clone().unwrap_or_default(),
            weekend_factor: self.weekend_factor,
            spikes: self.spikes.as_ref().map(|s| Spikes {
                per_month: s.per_month,
                factor: s.factor,
                duration_min: s.duration_min,
            }),
            replay: self
                .replay
                .as_ref()
                .map(|r| std::sync::Arc::from(r.per_minute.as_slice())),
        }
    }
}

/// How a platform serves: its autoscaler and what a new replica waits for. Absent from a
/// platform, its profile's ([`Serving::of_profile`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Serving {
    /// From the autoscaler's decision to a new replica serving, not counting node
    /// provisioning, image pull and model load, seconds.
    pub scale_up_delay_s: f64,
    /// How long a lower recommendation must hold before replicas are removed, seconds.
    pub scale_down_cooldown_s: f64,
    /// Seconds between the autoscaler's decisions.
    pub metric_period_s: f64,
    /// Whether a service may scale to zero replicas.
    pub scale_to_zero: bool,
    /// Whether replicas share nodes (packed together, a node paid whole) or each holds
    /// instances of its own (a SageMaker single-model endpoint). Absent: the profile's
    /// ([`Serving::profile_shares_nodes`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shares_nodes: Option<bool>,
    /// Whether replicas take their GPUs on the nodes training jobs run on, in the same
    /// simulation (a Kubernetes cluster running both), rather than on nodes of their own.
    /// Replicas come first (a higher priority class): one that finds no GPU preempts
    /// training jobs. Off when absent.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shares_nodes_with_training: bool,
}

impl Serving {
    /// Kubernetes's serving (EKS, GKE, AKS, and every profile that names no other): a pod
    /// scheduled and ready 30 s after the HPA's decision (assumption); scale-down after the
    /// HPA's 300 s stabilisation window (ref: Kubernetes HPA default); no scale to zero without
    /// KEDA or Knative.
    pub const KUBERNETES: Serving = Serving {
        scale_up_delay_s: 30.0,
        scale_down_cooldown_s: 300.0,
        metric_period_s: 60.0,
        scale_to_zero: false,
        shares_nodes: None,
        shares_nodes_with_training: false,
    };

    /// A profile's serving behaviour: its own where its file names one
    /// ([`ProfileFacts::serving`](crate::model::platforms::ProfileFacts::serving), each
    /// figure cited or an assumption there), else [`Serving::KUBERNETES`].
    pub fn of_profile(profile: Option<Profile>) -> Serving {
        profile
            .and_then(|p| p.facts().serving.clone())
            .unwrap_or(Serving::KUBERNETES)
    }

    /// Whether a profile's replicas share nodes: not where each replica gets instances of its
    /// own (a SageMaker or Azure ML single-model endpoint: inference components pack them, set
    /// `shares_nodes`; a Cloud Run instance per replica); on the others, yes (Kubernetes
    /// schedules pods onto shared nodes).
    pub fn profile_shares_nodes(profile: Option<Profile>) -> bool {
        !profile.is_some_and(|p| p.facts().scheduler.own_instances_per_job())
    }
}

impl Default for Serving {
    fn default() -> Self {
        Serving::KUBERNETES
    }
}
