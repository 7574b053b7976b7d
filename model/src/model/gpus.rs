//! The GPU table: one row per GPU model the catalog prices (and the reference GPUs a
//! scenario may measure its job durations on), with its memory, its training throughput
//! relative to an A100, its peak dense FLOP/s by precision and its memory bandwidth, each
//! row with its sources.
//!
//! A model the table lacks is never taken for an A100: a pool of a custom instance carries its
//! own memory and relative throughput in the scenario, and a reference GPU the table lacks is
//! refused by name at validation. Every GPU model of `data/catalog.csv` has a row (a test
//! checks).
//!
//! Peak figures are the vendors' dense (no structured sparsity) tensor-core figures, TFLOPS.
//! The relative throughput is an assumption from public training benchmarks (mixed
//! precision); for Inferentia2 and TPU v5e it is their chips' dense FP16/BF16 peak against an
//! A100's (190 and 197 against 312 TFLOPS), which depends on the model family and its
//! compiler far more, and the page says so ([`Gpu::family_dependent`]).

/// One GPU model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gpu {
    /// Its name, as the catalog and scenarios write it.
    pub model: &'static str,
    /// Memory per GPU, GB.
    pub memory_gb: f64,
    /// Training throughput of one GPU relative to an A100 (assumption, see the module).
    pub relative_throughput_vs_a100: f64,
    /// Peak dense 16-bit tensor FLOP/s (BF16, or FP16 where it has no BF16), TFLOPS.
    pub half_dense_tflops: f64,
    /// Which 16-bit format `half_dense_tflops` is.
    pub half: Half,
    /// Peak dense FP8 tensor FLOP/s, TFLOPS (none: no FP8).
    pub fp8_dense_tflops: Option<f64>,
    /// Peak FP32 (non-tensor) FLOP/s, TFLOPS.
    pub fp32_tflops: f64,
    /// Memory bandwidth, GB/s.
    pub memory_gb_per_s: f64,
    /// Whether its throughput depends on the model family (an accelerator that is not a
    /// GPU): the page flags it for the user to set.
    pub family_dependent: bool,
    /// Where its figures come from.
    pub source: &'static str,
}

/// A 16-bit floating-point format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// bfloat16.
    Bf16,
    /// IEEE half precision (GPUs before Ampere).
    Fp16,
}

/// The table, A100 first (the default reference GPU).
pub const GPUS: &[Gpu] = &[
    Gpu {
        model: "A100",
        memory_gb: 40.0,
        relative_throughput_vs_a100: 1.0,
        half_dense_tflops: 312.0,
        half: Half::Bf16,
        fp8_dense_tflops: None,
        fp32_tflops: 19.5,
        memory_gb_per_s: 1_555.0,
        family_dependent: false,
        source: "NVIDIA A100 Tensor Core GPU datasheet (2021): A100 40GB SXM, BF16 312 TFLOPS \
                 dense, FP32 19.5, HBM2 1,555 GB/s",
    },
    Gpu {
        model: "A100-80GB",
        memory_gb: 80.0,
        relative_throughput_vs_a100: 1.0,
        half_dense_tflops: 312.0,
        half: Half::Bf16,
        fp8_dense_tflops: None,
        fp32_tflops: 19.5,
        memory_gb_per_s: 2_039.0,
        family_dependent: false,
        source: "NVIDIA A100 Tensor Core GPU datasheet (2021): A100 80GB SXM, BF16 312 TFLOPS \
                 dense, FP32 19.5, HBM2e 2,039 GB/s",
    },
    Gpu {
        model: "H100",
        memory_gb: 80.0,
        relative_throughput_vs_a100: 2.0,
        half_dense_tflops: 989.0,
        half: Half::Bf16,
        fp8_dense_tflops: Some(1_979.0),
        fp32_tflops: 67.0,
        memory_gb_per_s: 3_350.0,
        family_dependent: false,
        source: "NVIDIA H100 Tensor Core GPU datasheet (2023): H100 SXM, BF16 989 TFLOPS dense \
                 (1,979 with sparsity), FP8 1,979 dense, FP32 67, HBM3 3.35 TB/s; throughput \
                 2 × an A100: assumption from public training benchmarks",
    },
    Gpu {
        model: "H100-MEGA",
        memory_gb: 80.0,
        relative_throughput_vs_a100: 2.0,
        half_dense_tflops: 989.0,
        half: Half::Bf16,
        fp8_dense_tflops: Some(1_979.0),
        fp32_tflops: 67.0,
        memory_gb_per_s: 3_350.0,
        family_dependent: false,
        source: "the H100 SXM of Compute Engine's A3 Mega (its network differs, not its GPU): \
                 NVIDIA H100 Tensor Core GPU datasheet (2023)",
    },
    Gpu {
        model: "H200",
        memory_gb: 141.0,
        relative_throughput_vs_a100: 2.3,
        half_dense_tflops: 989.0,
        half: Half::Bf16,
        fp8_dense_tflops: Some(1_979.0),
        fp32_tflops: 67.0,
        memory_gb_per_s: 4_800.0,
        family_dependent: false,
        source: "NVIDIA H200 Tensor Core GPU datasheet (2024): H200 SXM, the H100's compute \
                 with 141 GB of HBM3e at 4.8 TB/s; throughput 2.3 × an A100: assumption (the \
                 H100's, plus its memory)",
    },
    Gpu {
        model: "B200",
        memory_gb: 180.0,
        relative_throughput_vs_a100: 4.0,
        half_dense_tflops: 2_250.0,
        half: Half::Bf16,
        fp8_dense_tflops: Some(4_500.0),
        fp32_tflops: 80.0,
        memory_gb_per_s: 8_000.0,
        family_dependent: false,
        source: "NVIDIA HGX B200 at 1,000 W, as tabled from NVIDIA's Blackwell datasheet by \
                 glennklockwood.com (B200, read 2026-12-07): BF16 2,250 TFLOPS dense, FP8 \
                 4,500, FP32 80; HBM3e 8 TB/s, 180 GB usable per GPU in HGX B200 nodes (Lambda \
                 and CoreWeave list 180 GB); throughput 4 × an A100, twice the H100's here: \
                 assumption from NVIDIA's MLPerf Training v4.1 claim of up to 2.2 × an H100 per \
                 GPU (GPT-3 175B pre-training, November 2024; not read here)",
    },
    Gpu {
        model: "A100-80GB-PCIe",
        memory_gb: 80.0,
        relative_throughput_vs_a100: 0.93,
        half_dense_tflops: 312.0,
        half: Half::Bf16,
        fp8_dense_tflops: None,
        fp32_tflops: 19.5,
        memory_gb_per_s: 1_935.0,
        family_dependent: false,
        source: "NVIDIA A100 Tensor Core GPU datasheet (2021): A100 80GB PCIe, BF16 312 TFLOPS \
                 dense, FP32 19.5, HBM2e 1,935 GB/s; throughput 0.93 × an A100 SXM: Stas \
                 Bekman's maximum achievable matmul FLOPS (stas00/ml-engineering at 744d01e, \
                 271 against 253 TFLOPS) and Lambda's PyTorch training benchmarks \
                 (lambdal/deeplearning-benchmark at aa5addb): 0.93–0.95 on one GPU, less across \
                 GPUs bridged only in pairs",
    },
    Gpu {
        model: "H100-NVL",
        memory_gb: 94.0,
        relative_throughput_vs_a100: 1.7,
        half_dense_tflops: 835.5,
        half: Half::Bf16,
        fp8_dense_tflops: Some(1_670.5),
        fp32_tflops: 60.0,
        memory_gb_per_s: 3_938.0,
        family_dependent: false,
        source: "NVIDIA H100 datasheet, H100 NVL column (2024): 94 GB of HBM3 at 3.9 TB/s, BF16 \
                 1,671 TFLOPS with sparsity (835.5 dense), FP8 1,670.5 dense, FP32 60; \
                 throughput 1.7 × an A100: assumption, the H100 SXM's 2.0 × its 0.845 of the \
                 SXM's compute (MLPerf Training v5.0 put an H200 NVL at 0.90 of an H200 SXM)",
    },
    Gpu {
        model: "MI300X",
        memory_gb: 192.0,
        relative_throughput_vs_a100: 1.6,
        half_dense_tflops: 1_307.4,
        half: Half::Bf16,
        fp8_dense_tflops: Some(2_614.9),
        fp32_tflops: 163.4,
        memory_gb_per_s: 5_300.0,
        family_dependent: true,
        source: "AMD Instinct MI300X (ROCm docs, MI300 microarchitecture, \
                 ROCm/legacy-rocm-build at 089d751): 192 GB of HBM3 at 5.3 TB/s, BF16 1,307.4 \
                 TFLOPS dense, FP8 2,614.9, FP32 163.4; throughput 1.6 × an A100 (0.8 × an \
                 H100): assumption for stock PyTorch on ROCm. It runs ROCm, not CUDA: AMD's \
                 tuned MLPerf Training v5.0 Llama 2 70B LoRA run matched an H100, its matmuls \
                 reach 0.84 of an H100's (51 % of its peak against 80 %), an independent 8B \
                 training test had an H200 1.3–1.4 × faster, and SemiAnalysis (2024-12-22) \
                 found public ROCm releases far slower out of the box: ± 25 % by model and \
                 software",
    },
    Gpu {
        model: "A10",
        memory_gb: 24.0,
        relative_throughput_vs_a100: 0.30,
        half_dense_tflops: 125.0,
        half: Half::Bf16,
        fp8_dense_tflops: None,
        fp32_tflops: 31.2,
        memory_gb_per_s: 600.0,
        family_dependent: false,
        source: "NVIDIA A10 datasheet (2021): 24 GB of GDDR6 at 600 GB/s, BF16 125 TFLOPS dense, \
                 FP32 31.2; throughput 0.30 × an A100: Lambda's PyTorch FP16 training \
                 benchmarks give 0.28–0.40, 0.32 at the median (lambdal/deeplearning-benchmark \
                 at aa5addb)",
    },
    Gpu {
        model: "L40S",
        memory_gb: 48.0,
        relative_throughput_vs_a100: 0.75,
        half_dense_tflops: 362.0,
        half: Half::Bf16,
        fp8_dense_tflops: Some(733.0),
        fp32_tflops: 91.6,
        memory_gb_per_s: 864.0,
        family_dependent: false,
        source: "NVIDIA L40S datasheet (2023): BF16 362 TFLOPS dense (733 with sparsity), FP8 \
                 733 dense, FP32 91.6, GDDR6 864 GB/s; throughput 0.75 × an A100: assumption",
    },
    Gpu {
        model: "V100",
        memory_gb: 16.0,
        relative_throughput_vs_a100: 0.45,
        half_dense_tflops: 125.0,
        half: Half::Fp16,
        fp8_dense_tflops: None,
        fp32_tflops: 15.7,
        memory_gb_per_s: 900.0,
        family_dependent: false,
        source: "NVIDIA V100 Tensor Core GPU datasheet (2020): V100 SXM2, FP16 tensor 125 \
                 TFLOPS, FP32 15.7, HBM2 900 GB/s; throughput 0.45 × an A100: assumption",
    },
    Gpu {
        model: "V100-32GB",
        memory_gb: 32.0,
        relative_throughput_vs_a100: 0.45,
        half_dense_tflops: 125.0,
        half: Half::Fp16,
        fp8_dense_tflops: None,
        fp32_tflops: 15.7,
        memory_gb_per_s: 900.0,
        family_dependent: false,
        source: "NVIDIA V100 Tensor Core GPU datasheet (2020): V100 SXM2 32GB, as the 16 GB one",
    },
    Gpu {
        model: "A10G",
        memory_gb: 24.0,
        relative_throughput_vs_a100: 0.35,
        half_dense_tflops: 125.0,
        half: Half::Bf16,
        fp8_dense_tflops: None,
        fp32_tflops: 31.2,
        memory_gb_per_s: 600.0,
        family_dependent: false,
        source: "assumption: NVIDIA publishes no A10G datasheet (AWS's variant in g5 \
                 instances, 24 GB); taken at the A10's figures (NVIDIA A10 datasheet, 2021: \
                 BF16 125 TFLOPS dense, FP32 31.2, GDDR6 600 GB/s); throughput 0.35 × an A100: \
                 assumption",
    },
    Gpu {
        model: "L4",
        memory_gb: 24.0,
        relative_throughput_vs_a100: 0.3,
        half_dense_tflops: 121.0,
        half: Half::Bf16,
        fp8_dense_tflops: Some(242.5),
        fp32_tflops: 30.3,
        memory_gb_per_s: 300.0,
        family_dependent: false,
        source: "NVIDIA L4 Tensor Core GPU datasheet (2023): BF16 121 TFLOPS dense (242 with \
                 sparsity), FP8 242.5 dense, FP32 30.3, GDDR6 300 GB/s; throughput 0.3 × an \
                 A100: assumption",
    },
    Gpu {
        model: "T4",
        memory_gb: 16.0,
        relative_throughput_vs_a100: 0.12,
        half_dense_tflops: 65.0,
        half: Half::Fp16,
        fp8_dense_tflops: None,
        fp32_tflops: 8.1,
        memory_gb_per_s: 320.0,
        family_dependent: false,
        source: "NVIDIA T4 Tensor Core GPU datasheet (2019): FP16 mixed precision 65 TFLOPS, \
                 FP32 8.1, GDDR6 320 GB/s; throughput 0.12 × an A100: assumption",
    },
    Gpu {
        model: "Inferentia2",
        memory_gb: 32.0,
        relative_throughput_vs_a100: 0.61,
        half_dense_tflops: 190.0,
        half: Half::Bf16,
        fp8_dense_tflops: None,
        fp32_tflops: 47.5,
        memory_gb_per_s: 820.0,
        family_dependent: true,
        source: "AWS Neuron docs, Inferentia2 architecture: a chip gives 190 TFLOPS of \
                 FP16/BF16, 47.5 of FP32, 32 GB of HBM at 820 GB/s (its FP8 not read here); \
                 throughput 190 ÷ 312 of an A100's peak: assumption, per model family",
    },
    Gpu {
        model: "TPU-v5e",
        memory_gb: 16.0,
        relative_throughput_vs_a100: 0.63,
        half_dense_tflops: 197.0,
        half: Half::Bf16,
        fp8_dense_tflops: None,
        fp32_tflops: 0.0,
        memory_gb_per_s: 819.0,
        family_dependent: true,
        source: "Google Cloud TPU v5e docs: a chip gives 197 TFLOPS of BF16 (394 TOPS INT8), \
                 16 GB of HBM2 at 819 GB/s (no FP32 matrix figure published: 0 here); \
                 throughput 197 ÷ 312 of an A100's peak: assumption, per model family",
    },
];

/// The row of `model`, if the table has it.
pub fn find(model: &str) -> Option<&'static Gpu> {
    GPUS.iter().find(|g| g.model == model)
}

/// Throughput of one `gpu_model` GPU relative to one `reference_gpu`; `None` where the table
/// lacks either.
pub fn relative_throughput(gpu_model: &str, reference_gpu: &str) -> Option<f64> {
    Some(
        find(gpu_model)?.relative_throughput_vs_a100
            / find(reference_gpu)?.relative_throughput_vs_a100,
    )
}

/// The table's models, comma-separated (for a message that names them).
pub fn models() -> String {
    GPUS.iter().map(|g| g.model).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalog_gpu_has_a_row_and_its_memory_is_at_least_the_catalog_s() {
        for row in crate::model::catalog::catalog() {
            let gpu = find(&row.gpu_model)
                .unwrap_or_else(|| panic!("{}: {} has no row", row.name, row.gpu_model));
            // A catalog's memory is the usable share the provider reports (a little less).
            assert!(
                row.gpu_memory_gb <= gpu.memory_gb + 1e-9,
                "{} {}",
                row.name,
                gpu.model
            );
            assert!(
                row.gpu_memory_gb >= 0.85 * gpu.memory_gb,
                "{} {}",
                row.name,
                gpu.model
            );
        }
    }

    #[test]
    fn rows_are_unique_sourced_and_consistent() {
        for (i, g) in GPUS.iter().enumerate() {
            assert!(GPUS[..i].iter().all(|h| h.model != g.model), "{}", g.model);
            assert!(!g.source.is_empty());
            assert!(g.relative_throughput_vs_a100 > 0.0 && g.memory_gb_per_s > 0.0);
            // FP8 doubles the 16-bit rate where a GPU has it (Hopper, Ada).
            if let Some(fp8) = g.fp8_dense_tflops {
                assert!(
                    (fp8 / g.half_dense_tflops - 2.0).abs() < 0.03,
                    "{}",
                    g.model
                );
            }
            // The accelerators that are not GPUs are taken at their peak against an A100's
            // (AMD's GPUs, whose throughput also depends on the model family and ROCm, at a
            // measured figure).
            if g.family_dependent && !g.model.starts_with("MI") {
                let ratio = g.half_dense_tflops / 312.0;
                assert!(
                    (g.relative_throughput_vs_a100 - ratio).abs() < 0.01,
                    "{}",
                    g.model
                );
            }
        }
        assert_eq!(GPUS[0].model, "A100");
    }

    #[test]
    fn a_model_the_table_lacks_has_no_throughput() {
        assert_eq!(relative_throughput("H100", "A100"), Some(2.0));
        assert_eq!(relative_throughput("L4", "H100"), Some(0.15));
        assert_eq!(relative_throughput("B300", "A100"), None);
        assert_eq!(relative_throughput("A100", "MI355X"), None);
        // A reference GPU the table lacks is refused by name, never taken for an A100.
        let s = crate::model::scenario::Scenario {
            reference_gpu: "B300".into(),
            ..Default::default()
        };
        let err = s.validate().unwrap_err().to_string();
        assert!(
            err.starts_with("reference_gpu: \"B300\" is not in the GPU table (A100, A100-80GB,"),
            "{err}"
        );
    }
}
