//! One LLM replica from a roofline with continuous batching: what its weights and KV cache
//! take of the GPUs' memory, how long a prompt's prefill and a decode step take, and the
//! time per output token (TPOT) at a given load.
//!
//! - **Memory.** Each of the `tensor_parallel` GPUs holds its share of the weights and of
//!   the KV cache. Usable memory is 90 % of the GPU's (vLLM's `gpu_memory_utilization`
//!   default) less [`RESERVED_GB_PER_GPU`] for activations, CUDA graphs and communication
//!   buffers (assumption). The KV cache takes what is left; a replica must hold at least one
//!   request at the p90 of both token counts, or the model is refused.
//! - **The batch** is capped by the KV cache: tokens it holds ÷ the context a request holds
//!   on average while it decodes (its prompt plus half its output, weighted by how long it
//!   stays: E\[in\] + E\[out²\] ÷ 2E\[out\]), and by [`MAX_BATCH`] (vLLM's `max_num_seqs`).
//! - **Prefill** of n tokens is compute-bound: 2 × active parameters × n, plus attention's
//!   2 × layers × (heads × head dimension) × n² (causal), at the GPUs' peak ×
//!   [`Efficiencies::prefill`]; never less than one read of the weights.
//! - **A decode step** at batch b reads the weights (for a mixture of experts, the dense part
//!   and the experts the batch's tokens are routed to: a share 1 − (1 − k/E)^b of them) and
//!   the batch's KV cache, at the memory bandwidth × [`Efficiencies::memory`]; or, at large
//!   batches, computes 2 × active parameters and attention per token at the peak ×
//!   [`Efficiencies::decode_compute`]: whichever is longer.
//! - **Tensor parallelism** adds two all-reduces per layer per step (after attention and
//!   after the MLP, as Megatron-style sharding does): each a fixed latency
//!   ([`ALL_REDUCE_LATENCY_S`], assumption) plus a ring's 2(t − 1)/t of the activations over
//!   the GPUs' link (NVLink-class or PCIe, [`link_gb_per_s`]).
//! - **TPOT at load λ** (requests per second on the replica): the engine spends a share
//!   φ = λ × E\[prefill\] of its time on prompts, mixed into the decode steps, so
//!   TPOT = step(b) ÷ (1 − φ), where the batch b = λ × E\[out\] × TPOT (Little's law) is
//!   solved as a fixed point. The replica saturates where b reaches its cap.

use super::architectures::Architecture;
use crate::model::gpus::Gpu;
use crate::model::rng::lognormal_sigma;
use serde::{Deserialize, Serialize};

/// Usable share of a GPU's memory (vLLM's `gpu_memory_utilization` default, 0.9).
pub const MEMORY_UTILIZATION: f64 = 0.9;
/// Memory kept per GPU for activations, CUDA graphs and communication buffers, GB
/// (assumption).
pub const RESERVED_GB_PER_GPU: f64 = 2.0;
/// Most requests a replica decodes at once (vLLM's `max_num_seqs` default, 256).
pub const MAX_BATCH: f64 = 256.0;
/// The most tokens a request holds (Llama 3.1's 128K context): token counts are lognormal
/// cut there.
pub const MAX_CONTEXT_TOKENS: f64 = 131_072.0;
/// One all-reduce's fixed latency, seconds (assumption: NCCL's small-message all-reduce on
/// NVLink takes some microseconds; PCIe more, in [`link_gb_per_s`]'s bandwidth).
pub const ALL_REDUCE_LATENCY_S: f64 = 8e-6;

/// The share of peak a serving engine reaches: calibrated assumptions (see
/// [`Efficiencies::CALIBRATED`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Efficiencies {
    /// Of the memory bandwidth, in decode steps.
    pub memory: f64,
    /// Of the peak tensor FLOP/s, in prefill.
    pub prefill: f64,
    /// Of the peak tensor FLOP/s, in decode steps bound by compute.
    pub decode_compute: f64,
    /// Fixed time a step takes beyond its roofline (scheduling, sampling, launches), s.
    pub step_overhead_s: f64,
}

impl Efficiencies {
    /// Calibrated on published measurements (`tests/integration/llm_serving.rs` lists them,
    /// those calibrated on and those held out to check against).
    pub const CALIBRATED: Efficiencies = Efficiencies {
        memory: 0.6,
        prefill: 0.5,
        decode_compute: 0.5,
        step_overhead_s: 0.0,
    };
}

/// How the weights are stored and computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// bfloat16 weights and KV cache, 16-bit compute.
    #[default]
    Bf16,
    /// FP8 weights, KV cache and compute (Ada, Hopper, Blackwell, MI300).
    Fp8,
    /// 4-bit weights with 16-bit group scales (every 128 weights), 16-bit KV cache and
    /// compute (weight-only quantisation, as AWQ and GPTQ run).
    Int4,
}

impl Precision {
    /// Every precision, in the order the page lists them.
    pub const ALL: [Precision; 3] = [Precision::Bf16, Precision::Fp8, Precision::Int4];

    /// Its name in a scenario.
    pub fn id(self) -> &'static str {
        match self {
            Precision::Bf16 => "bf16",
            Precision::Fp8 => "fp8",
            Precision::Int4 => "int4",
        }
    }

    /// Bytes a weight takes (int4: half a byte plus a 16-bit scale and zero per 128).
    pub fn weight_bytes(self) -> f64 {
        match self {
            Precision::Bf16 => 2.0,
            Precision::Fp8 => 1.0,
            Precision::Int4 => 0.5 + 4.0 / 128.0,
        }
    }

    /// Bytes a KV-cache element takes (FP8 deployments keep an FP8 cache too, as
    /// TensorRT-LLM's and MLPerf's FP8 runs do).
    pub fn kv_bytes(self) -> f64 {
        match self {
            Precision::Fp8 => 1.0,
            _ => 2.0,
        }
    }

    /// The GPU's peak dense tensor FLOP/s at this precision, or why it cannot run it.
    pub fn peak_flops(self, gpu: &Gpu) -> Result<f64, String> {
        match self {
            Precision::Bf16 => match gpu.half {
                crate::model::gpus::Half::Bf16 => Ok(gpu.half_dense_tflops * 1e12),
                crate::model::gpus::Half::Fp16 => Err(format!(
                    "{} has no bf16 (its tensor cores compute FP16): choose int4 or another GPU",
                    gpu.model
                )),
            },
            Precision::Fp8 => gpu.fp8_dense_tflops.map(|t| t * 1e12).ok_or_else(|| {
                format!(
                    "{} has no FP8 (it needs Ada, Hopper, Blackwell or MI300): choose bf16 or \
                     int4, or another GPU",
                    gpu.model
                )
            }),
            Precision::Int4 => Ok(gpu.half_dense_tflops * 1e12),
        }
    }
}

/// A token count per request: lognormal from its median and p90.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenCount {
    /// Median tokens.
    pub median: f64,
    /// Lognormal σ (0: always the median).
    pub sigma: f64,
}

impl TokenCount {
    /// From a median and a p90 (at least the median).
    pub fn new(median: f64, p90: f64) -> TokenCount {
        TokenCount {
            median,
            sigma: lognormal_sigma(median, p90.max(median)),
        }
    }

    /// E[tokensᵏ] of the lognormal cut at [`MAX_CONTEXT_TOKENS`]: m^k·e^(k²σ²/2) ×
    /// Φ((ln(c/m) − kσ²)/σ) ÷ Φ(ln(c/m)/σ). Without the cut a wide lognormal's moments are
    /// those of requests no model holds.
    fn moment(&self, k: f64) -> f64 {
        let c = MAX_CONTEXT_TOKENS;
        if self.sigma <= 0.0 {
            return libm::pow(self.median.min(c), k);
        }
        let phi = |z: f64| 0.5 * libm::erfc(-z / std::f64::consts::SQRT_2);
        let s2 = self.sigma * self.sigma;
        let cut = libm::log(c / self.median);
        let kept = phi(cut / self.sigma);
        if kept <= 0.0 {
            return libm::pow(c, k);
        }
        libm::pow(self.median, k) * libm::exp(k * k * s2 / 2.0) * phi((cut - k * s2) / self.sigma)
            / kept
    }

    /// Mean tokens.
    pub fn mean(&self) -> f64 {
        self.moment(1.0)
    }

    /// Mean of the square.
    pub fn mean_square(&self) -> f64 {
        self.moment(2.0)
    }

    /// The `p` quantile (at most [`MAX_CONTEXT_TOKENS`]).
    pub fn quantile(&self, p: f64) -> f64 {
        (self.median * libm::exp(self.sigma * crate::model::stats::normal_quantile(p)))
            .min(MAX_CONTEXT_TOKENS)
    }

    /// P(tokens > n).
    pub fn survival(&self, n: f64) -> f64 {
        if n <= 0.0 {
            return 1.0;
        }
        if self.sigma <= 0.0 {
            return if n < self.median { 1.0 } else { 0.0 };
        }
        let z = libm::log(n / self.median) / self.sigma;
        0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
    }
}

/// A model that does not fit a replica: what it needs and what the GPUs hold, GB per GPU.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Misfit {
    /// Its weights' share, GB per GPU.
    pub weights_gb: f64,
    /// The KV cache of one request at the p90 of both token counts, GB per GPU.
    pub min_kv_gb: f64,
    /// Usable memory, GB per GPU.
    pub usable_gb: f64,
}

/// The bandwidth of the link tensor parallelism all-reduces over, GB/s per GPU: NVLink (or
/// AMD's Infinity Fabric) on SXM/OAM GPUs, PCIe elsewhere (assumptions: about 300 GB/s of
/// all-reduce bus bandwidth on NVLink, as NCCL's tests measure on 8-GPU H100 and A100 nodes
/// at large messages; about 20 GB/s over PCIe 4.0 x16).
pub fn link_gb_per_s(gpu: &Gpu) -> f64 {
    const NVLINK: &[&str] = &[
        "A100",
        "A100-80GB",
        "H100",
        "H100-MEGA",
        "H200",
        "B200",
        "MI300X",
        "V100",
        "V100-32GB",
    ];
    if NVLINK.contains(&gpu.model) {
        300.0
    } else {
        20.0
    }
}

/// What a replica of an LLM holds on each of its GPUs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerGpu {
    /// Weight bytes of the dense part (attention, embeddings, shared layers).
    pub dense_bytes: f64,
    /// Weight bytes of the experts (0 for a dense model).
    pub expert_bytes: f64,
    /// KV-cache bytes per token.
    pub kv_bytes_per_token: f64,
}

impl PerGpu {
    /// `arch` at `precision` split over `tensor_parallel` GPUs: the weights evenly, the
    /// key-value heads across the GPUs and, past one a GPU, replicated.
    pub fn new(arch: &Architecture, precision: Precision, tensor_parallel: u32) -> PerGpu {
        let tp = f64::from(tensor_parallel.max(1));
        let bytes = precision.weight_bytes();
        let expert_bytes = arch.expert_params_b() * 1e9 * bytes / tp;
        let kv_heads_per_gpu = (f64::from(arch.kv_heads) / tp).ceil().max(1.0);
        PerGpu {
            dense_bytes: arch.params_b * 1e9 * bytes / tp - expert_bytes,
            expert_bytes,
            kv_bytes_per_token: 2.0
                * f64::from(arch.layers)
                * kv_heads_per_gpu
                * f64::from(arch.head_dim)
                * precision.kv_bytes(),
        }
    }

    /// Weight bytes, all of them.
    pub fn weight_bytes(&self) -> f64 {
        self.dense_bytes + self.expert_bytes
    }
}

/// Bytes of a GPU of `memory_gb` a replica may use: [`MEMORY_UTILIZATION`] of it less
/// [`RESERVED_GB_PER_GPU`].
pub fn usable_bytes(memory_gb: f64) -> f64 {
    memory_gb * 1e9 * MEMORY_UTILIZATION - RESERVED_GB_PER_GPU * 1e9
}

/// The tokens of the longest request a replica must hold: the p90 of both counts.
pub fn longest_tokens(input: TokenCount, output: TokenCount) -> f64 {
    input.quantile(0.9) + output.quantile(0.9)
}

/// A replica of an LLM on `tensor_parallel` GPUs of one model.
#[derive(Debug, Clone, PartialEq)]
pub struct Replica {
    arch: Architecture,
    tp: f64,
    efficiencies: Efficiencies,
    /// Peak dense FLOP/s of one GPU at the precision.
    peak_flops: f64,
    /// Memory bandwidth of one GPU, bytes/s.
    bandwidth: f64,
    /// The link's bandwidth, bytes/s.
    link: f64,
    /// Weight bytes per GPU: the dense part and all the experts.
    dense_bytes: f64,
    expert_bytes: f64,
    /// KV-cache bytes per token per GPU.
    kv_bytes_per_token: f64,
    /// KV-cache tokens the replica holds.
    pub kv_tokens: f64,
    /// Most requests decoded at once.
    pub max_batch: f64,
    /// Tokens a decoding request holds in the KV cache, on average over its decode.
    pub context_tokens: f64,
    /// Input tokens per request.
    pub input: TokenCount,
    /// Output tokens per request.
    pub output: TokenCount,
    /// Prefill seconds at equal-probability quantiles of the input tokens, ascending.
    prefill_points: Vec<f64>,
    /// The same at [`PREFILL_FINE`] quantiles, for the prefill's survival.
    prefill_fine: Vec<f64>,
    /// Mean and mean square of the prefill time, seconds.
    prefill_mean_s: f64,
    prefill_mean_square_s2: f64,
}

/// Equal-probability points of the prefill time kept per replica.
const PREFILL_POINTS: usize = 32;
/// Equal-probability points of the prefill time its survival is read from.
const PREFILL_FINE: usize = 1_024;

impl Replica {
    /// The replica, or why the model does not fit (or the GPU lacks the precision: `Err` of
    /// a message).
    pub fn new(
        arch: &Architecture,
        precision: Precision,
        gpu: &Gpu,
        tensor_parallel: u32,
        input: TokenCount,
        output: TokenCount,
        efficiencies: Efficiencies,
    ) -> Result<Replica, ReplicaError> {
        let peak_flops = precision.peak_flops(gpu).map_err(ReplicaError::Precision)?;
        let tp = f64::from(tensor_parallel.max(1));
        let PerGpu {
            dense_bytes,
            expert_bytes,
            kv_bytes_per_token,
        } = PerGpu::new(arch, precision, tensor_parallel);
        let usable = usable_bytes(gpu.memory_gb);
        let weights = dense_bytes + expert_bytes;
        let min_kv = longest_tokens(input, output) * kv_bytes_per_token;
        if weights + min_kv > usable {
            return Err(ReplicaError::Misfit(Misfit {
                weights_gb: weights / 1e9,
                min_kv_gb: min_kv / 1e9,
                usable_gb: usable.max(0.0) / 1e9,
            }));
        }
        let kv_tokens = (usable - weights) / kv_bytes_per_token;
        let context_tokens = input.mean() + output.mean_square() / (2.0 * output.mean());
        let max_batch = (kv_tokens / context_tokens).clamp(1.0, MAX_BATCH);
        let mut replica = Replica {
            arch: *arch,
            tp,
            efficiencies,
            peak_flops,
            bandwidth: gpu.memory_gb_per_s * 1e9,
            link: link_gb_per_s(gpu) * 1e9,
            dense_bytes,
            expert_bytes,
            kv_bytes_per_token,
            kv_tokens,
            max_batch,
            context_tokens,
            input,
            output,
            prefill_points: Vec::new(),
            prefill_fine: Vec::new(),
            prefill_mean_s: 0.0,
            prefill_mean_square_s2: 0.0,
        };
        let n = PREFILL_POINTS as f64;
        replica.prefill_points = (0..PREFILL_POINTS)
            .map(|k| replica.prefill_s(input.quantile((k as f64 + 0.5) / n)))
            .collect();
        // Moments from a finer grid than the points (the mean square leans on the tail).
        let fine = PREFILL_FINE as f64;
        replica.prefill_fine = (0..PREFILL_FINE)
            .map(|k| replica.prefill_s(input.quantile((k as f64 + 0.5) / fine)))
            .collect();
        replica.prefill_mean_s = replica.prefill_fine.iter().sum::<f64>() / fine;
        replica.prefill_mean_square_s2 =
            replica.prefill_fine.iter().map(|p| p * p).sum::<f64>() / fine;
        Ok(replica)
    }

    /// Seconds of two all-reduces per layer of `tokens` tokens' activations.
    fn all_reduce_s(&self, tokens: f64) -> f64 {
        if self.tp <= 1.0 {
            return 0.0;
        }
        let bytes = tokens * self.arch.attention_dim() * 2.0;
        let ring = 2.0 * (self.tp - 1.0) / self.tp * bytes / self.link;
        2.0 * f64::from(self.arch.layers) * (ALL_REDUCE_LATENCY_S + ring)
    }

    /// Prefill of a prompt of `tokens` tokens alone, seconds.
    pub fn prefill_s(&self, tokens: f64) -> f64 {
        let n = tokens.max(1.0);
        let a = &self.arch;
        let flops = (2.0 * a.active_params_b * 1e9 * n
            + 2.0 * f64::from(a.layers) * a.attention_dim() * n * n)
            / self.tp;
        let compute = flops / (self.peak_flops * self.efficiencies.prefill);
        let read =
            (self.dense_bytes + self.expert_bytes) / (self.bandwidth * self.efficiencies.memory);
        compute.max(read) + self.all_reduce_s(n) + self.efficiencies.step_overhead_s
    }

    /// One decode step of `batch` requests, seconds.
    pub fn step_s(&self, batch: f64) -> f64 {
        let b = batch.max(1.0);
        let a = &self.arch;
        let experts = if a.is_moe() {
            let k = f64::from(a.experts_per_token) / f64::from(a.experts);
            self.expert_bytes * (1.0 - libm::pow(1.0 - k, b))
        } else {
            self.expert_bytes
        };
        let kv = b * self.context_tokens * self.kv_bytes_per_token;
        let memory =
            (self.dense_bytes + experts + kv) / (self.bandwidth * self.efficiencies.memory);
        let flops = (2.0 * a.active_params_b * 1e9
            + 4.0 * f64::from(a.layers) * a.attention_dim() * self.context_tokens)
            * b
            / self.tp;
        let compute = flops / (self.peak_flops * self.efficiencies.decode_compute);
        memory.max(compute) + self.all_reduce_s(b) + self.efficiencies.step_overhead_s
    }

    /// Mean prefill time of a request, seconds.
    pub fn prefill_mean_s(&self) -> f64 {
        self.prefill_mean_s
    }

    /// Mean square of the prefill time, s².
    pub fn prefill_mean_square_s2(&self) -> f64 {
        self.prefill_mean_square_s2
    }

    /// Prefill seconds at equal-probability quantiles of the input tokens, ascending.
    pub fn prefill_points(&self) -> &[f64] {
        &self.prefill_points
    }

    /// P(prefill > t), t in seconds (the prefill grows with the prompt, so it is the
    /// prompt's survival at the length whose prefill takes t).
    pub fn prefill_survival(&self, t: f64) -> f64 {
        // Within the fine points, by linear interpolation between them (point k at the
        // probability (k + ½)/n of a shorter prefill); beyond them, exactly.
        // Below the first point and above the last (half a point's probability each side),
        // linearly to 0 and 1 over the width of the last step.
        let fine = &self.prefill_fine;
        let n = fine.len();
        if n >= 2 {
            let half = 0.5 / n as f64;
            if t < fine[0] {
                let width = (fine[1] - fine[0]).max(1e-12);
                return 1.0 - half * ((t - fine[0] + width) / width).clamp(0.0, 1.0);
            }
            if t >= fine[n - 1] {
                let width = (fine[n - 1] - fine[n - 2]).max(1e-12);
                return half * (1.0 - (t - fine[n - 1]) / width).clamp(0.0, 1.0);
            }
            let k = fine.partition_point(|&p| p <= t).max(1) - 1;
            let (a, b) = (fine[k], fine[k + 1]);
            let x = if b > a { (t - a) / (b - a) } else { 1.0 };
            return 1.0 - (k as f64 + 0.5 + x) / n as f64;
        }
        if t <= self.prefill_s(0.0) {
            return 1.0;
        }
        // Bisection on the prompt length: prefill_s is increasing in it.
        let (mut lo, mut hi) = (1.0, self.input.quantile(0.999_999).max(2.0));
        if self.prefill_s(hi) <= t {
            return self.input.survival(hi);
        }
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if self.prefill_s(mid) > t {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        self.input.survival(0.5 * (lo + hi))
    }

    /// The share of its time the replica spends on prefill at `rps` requests a second.
    pub fn prefill_share(&self, rps: f64) -> f64 {
        rps * self.prefill_mean_s
    }

    /// TPOT (seconds) and the batch at `rps` requests a second on the replica; `None` when
    /// the replica is saturated (the batch would pass its cap or prefill take all its time).
    pub fn operating_point(&self, rps: f64) -> Option<(f64, f64)> {
        let free = 1.0 - self.prefill_share(rps);
        if free <= 0.0 {
            return None;
        }
        // b ↦ λ·E[out]·step(b)/free is increasing in b, so the iteration from b = 0 climbs
        // to the least fixed point, staying below it; past the cap, saturated.
        let per_token = rps * self.output.mean() / free;
        let excess = |b: f64| per_token * self.step_s(b) - b;
        let mut batch = 0.0;
        for _ in 0..200 {
            let next = per_token * self.step_s(batch);
            if next > self.max_batch {
                return None;
            }
            if (next - batch).abs() <= 1e-9 * next.max(1.0) {
                return Some((self.step_s(next) / free, next));
            }
            batch = next;
        }
        // Slow to converge (near the saturation the map nearly touches the diagonal): the
        // fixed point lies between the iterate (below it) and the cap, found by bisection.
        if excess(self.max_batch) > 0.0 {
            return None;
        }
        let (mut lo, mut hi) = (batch, self.max_batch);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if excess(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some((self.step_s(hi) / free, hi))
    }

    /// Requests a second at which the replica saturates: where its batch reaches its cap
    /// (λ·E\[out\]·step(B) = B·(1 − λ·E\[prefill\])), or, if sooner, where its prompts take
    /// all its steps (one prompt a step: λ·(E\[prefill\] + step(B)) = 1, the step at the cap
    /// for a bound on the safe side), as a short output's requests leave the batch faster
    /// than prompts can join it.
    pub fn saturation_rps(&self) -> f64 {
        let (batch_full, prompts_full) = self.saturations_rps();
        batch_full.min(prompts_full)
    }

    /// Whether the prompts, one a step, saturate the replica before its batch fills (its
    /// queue then is the prompts' queue).
    pub fn prompts_bind(&self) -> bool {
        let (batch_full, prompts_full) = self.saturations_rps();
        prompts_full <= batch_full
    }

    /// The requests a second at which the batch fills, and at which the prompts fill every
    /// step ([`Replica::saturation_rps`]).
    fn saturations_rps(&self) -> (f64, f64) {
        let b = self.max_batch;
        let step = self.step_s(b);
        (
            b / (self.output.mean() * step + b * self.prefill_mean_s),
            1.0 / (self.prefill_mean_s + step),
        )
    }
}

/// Why a replica cannot be built.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplicaError {
    /// The GPU lacks the precision (the message says so).
    Precision(String),
    /// The model does not fit.
    Misfit(Misfit),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gpus::find as gpu;
    use crate::model::serving::llm::architectures::known;

    fn exact() -> Efficiencies {
        Efficiencies {
            memory: 1.0,
            prefill: 1.0,
            decode_compute: 1.0,
            step_overhead_s: 0.0,
        }
    }

    fn llama70(tp: u32, eff: Efficiencies) -> Replica {
        let arch = known("llama-3.1-70b").unwrap().architecture;
        let fixed = TokenCount::new(2_000.0, 2_000.0);
        let out = TokenCount::new(200.0, 200.0);
        Replica::new(
            &arch,
            Precision::Bf16,
            gpu("H100").unwrap(),
            tp,
            fixed,
            out,
            eff,
        )
        .unwrap()
    }

    #[test]
    fn kv_cache_per_token_is_two_layers_heads_dim_bytes() {
        // 2 × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 bytes a token (320 KiB);
        // across 4 GPUs, 2 heads each, a quarter of it on each; across 8, one head each.
        assert!((llama70(4, exact()).kv_bytes_per_token - 327_680.0 / 4.0).abs() < 1e-6);
        assert!((llama70(8, exact()).kv_bytes_per_token - 327_680.0 / 8.0).abs() < 1e-6);
    }

    #[test]
    fn decode_at_batch_one_reads_the_weights_over_the_bandwidth() {
        // 70.6e9 × 2 bytes over 4 × 3.35 TB/s at 80 %, plus KV and 320 all-reduces' latency.
        let eff = Efficiencies {
            memory: 0.8,
            ..exact()
        };
        let r = llama70(4, eff);
        let weights = 141.2e9 / (4.0 * 3.35e12 * 0.8);
        let kv = 2_100.0 * 327_680.0 / (4.0 * 3.35e12 * 0.8);
        let comm = 160.0 * (ALL_REDUCE_LATENCY_S + 1.5 * 8_192.0 * 2.0 / 300e9);
        assert!(
            (r.step_s(1.0) - (weights + kv + comm)).abs() < 1e-9,
            "{}",
            r.step_s(1.0)
        );
        assert!((weights - 0.013_172).abs() < 1e-5);
    }

    #[test]
    fn prefill_is_two_flops_a_parameter_a_token_plus_attention() {
        let r = llama70(4, exact());
        let n = 2_000.0;
        let flops = 2.0 * 70.6e9 * n + 2.0 * 80.0 * 8_192.0 * n * n;
        let want = flops / (4.0 * 989e12) + r.all_reduce_s(n);
        assert!(
            (r.prefill_s(n) - want).abs() < 1e-12,
            "{} {want}",
            r.prefill_s(n)
        );
        // 2 × 70.6e9 × 2,000 ÷ (4 × 989 TFLOP/s) = 71.4 ms, attention 1.3 ms more; the
        // all-reduces of 2,000 tokens' activations (32.8 MB, 160 of them) 27.5 ms.
        assert!(
            (r.prefill_s(n) - 0.1002).abs() < 0.0005,
            "{}",
            r.prefill_s(n)
        );
    }

    #[test]
    fn a_model_too_big_is_refused_with_both_figures() {
        let arch = known("llama-3.1-70b").unwrap().architecture;
        let t = TokenCount::new(1_000.0, 2_000.0);
        match Replica::new(
            &arch,
            Precision::Bf16,
            gpu("H100").unwrap(),
            1,
            t,
            t,
            exact(),
        ) {
            Err(ReplicaError::Misfit(m)) => {
                assert!((m.weights_gb - 141.2).abs() < 1e-9);
                assert!((m.usable_gb - 70.0).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn precisions_a_gpu_lacks_are_refused_by_name() {
        let arch = known("llama-3.1-8b").unwrap().architecture;
        let t = TokenCount::new(500.0, 1_000.0);
        let e = Efficiencies::CALIBRATED;
        let t4 = gpu("T4").unwrap();
        let a100 = gpu("A100-80GB").unwrap();
        for (g, p) in [(t4, Precision::Bf16), (a100, Precision::Fp8)] {
            match Replica::new(&arch, p, g, 1, t, t, e) {
                Err(ReplicaError::Precision(m)) => assert!(m.contains(g.model), "{m}"),
                other => panic!("{other:?}"),
            }
        }
        assert!(Replica::new(&arch, Precision::Int4, t4, 1, t, t, e).is_ok());
    }

    #[test]
    fn tpot_solves_littles_law_with_the_prefill_share() {
        let r = llama70(4, Efficiencies::CALIBRATED);
        let rps = 0.5 * r.saturation_rps();
        let (tpot, batch) = r.operating_point(rps).unwrap();
        let free = 1.0 - rps * r.prefill_mean_s();
        assert!((tpot - r.step_s(batch) / free).abs() < 1e-9);
        assert!((batch - rps * r.output.mean() * tpot).abs() < 1e-6 * batch);
        assert!(r.operating_point(1.01 * r.saturation_rps()).is_none());
    }

    #[test]
    fn the_operating_point_solves_its_fixed_point_up_to_the_saturation() {
        // At every load up to a hair under the saturation, the batch is Little's law's:
        // B = λ·E[out]·step(B) ÷ (1 − λ·E[prefill]), to a millionth.
        for tp in [1, 2, 4, 8] {
            let arch = known("llama-3.1-8b").unwrap().architecture;
            let r = Replica::new(
                &arch,
                Precision::Bf16,
                gpu("H100").unwrap(),
                tp,
                TokenCount::new(500.0, 1_500.0),
                TokenCount::new(200.0, 600.0),
                Efficiencies::CALIBRATED,
            )
            .unwrap();
            let top = r.saturation_rps();
            for share in [0.1, 0.5, 0.9, 0.99, 0.999_999] {
                let rps = share * top;
                let (tpot, batch) = r.operating_point(rps).unwrap();
                let free = 1.0 - rps * r.prefill_mean_s();
                let little = rps * r.output.mean() * r.step_s(batch) / free;
                assert!(
                    (little - batch).abs() <= 1e-6 * batch.max(1.0),
                    "TP {tp} at {share}: batch {batch}, Little's law {little}"
                );
                assert!((tpot - r.step_s(batch) / free).abs() <= 1e-12);
            }
        }
    }

    #[test]
    fn a_short_output_saturates_on_its_prompts_before_its_batch() {
        // 2,000-token prompts, 16-token answers: requests leave the batch faster than one
        // prompt a step can fill it.
        let arch = known("llama-3.1-70b").unwrap().architecture;
        let (input, output) = (
            TokenCount::new(2_000.0, 2_000.0),
            TokenCount::new(16.0, 16.0),
        );
        let r = Replica::new(
            &arch,
            Precision::Bf16,
            gpu("H100").unwrap(),
            4,
            input,
            output,
            exact(),
        )
        .unwrap();
        let b = r.max_batch;
        let batch_full = b / (16.0 * r.step_s(b) + b * r.prefill_mean_s());
        let prompts_full = 1.0 / (r.prefill_mean_s() + r.step_s(b));
        assert!(prompts_full < batch_full);
        assert_eq!(r.saturation_rps(), prompts_full);
        assert!(r.prompts_bind());
    }

    #[test]
    fn token_counts_are_cut_at_the_longest_context() {
        // A median of 50 and a p90 of 2,000 (σ = 2.88): uncut, E[out²] ÷ 2E[out] would be
        // 50·e^(1.5σ²)/2 ≈ 6 M tokens; cut at 131,072 it is some thousands.
        let t = TokenCount::new(50.0, 2_000.0);
        let held = t.mean_square() / (2.0 * t.mean());
        assert!(held > 1_000.0 && held < MAX_CONTEXT_TOKENS, "{held}");
        // A narrow one is as uncut: median 250, p90 700.
        let n = TokenCount::new(250.0, 700.0);
        let uncut = 250.0 * (n.sigma * n.sigma / 2.0).exp();
        assert!((n.mean() / uncut - 1.0).abs() < 1e-9);
        assert_eq!(t.quantile(0.999_999), MAX_CONTEXT_TOKENS);
    }

    #[test]
    fn a_moe_reads_most_experts_once_the_batch_is_several() {
        let arch = known("mixtral-8x7b").unwrap().architecture;
        let t = TokenCount::new(500.0, 500.0);
        let r = Replica::new(
            &arch,
            Precision::Bf16,
            gpu("H100").unwrap(),
            2,
            t,
            t,
            exact(),
        )
        .unwrap();
        // One token reads 2 of 8 experts; eight tokens 1 − (3/4)^8 = 90 % of them.
        let kv = |b: f64| b * r.context_tokens * r.kv_bytes_per_token;
        let read = |b: f64| (r.step_s(b) - r.all_reduce_s(b)) * 3.35e12 - kv(b);
        let one = r.dense_bytes + r.expert_bytes * 0.25;
        assert!((read(1.0) / one - 1.0).abs() < 1e-9, "{} {one}", read(1.0));
        let eight = r.dense_bytes + r.expert_bytes * (1.0 - 0.75f64.powi(8));
        assert!((read(8.0) / eight - 1.0).abs() < 1e-9);
    }
}
