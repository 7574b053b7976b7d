//! The table of known LLM architectures a service may name (`services[].llm.model`), each with
//! its source. A service may instead describe its own (`custom`).
//!
//! The serving roofline reads only these figures: the parameters (all of them, and those a
//! token activates, which differ for a mixture of experts), the layers, the attention heads
//! and the key-value heads (grouped-query attention keeps fewer of them, which is what sizes
//! the KV cache) and each head's dimension.

use serde::{Deserialize, Serialize};

/// An LLM's shape, as the roofline reads it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Architecture {
    /// Parameters, billions (every expert counted).
    pub params_b: f64,
    /// Parameters a token activates, billions (the same as `params_b` for a dense model).
    pub active_params_b: f64,
    /// Transformer layers.
    pub layers: u32,
    /// Attention (query) heads.
    pub attention_heads: u32,
    /// Key-value heads (fewer than the attention heads under grouped-query attention).
    pub kv_heads: u32,
    /// Dimension of one head.
    pub head_dim: u32,
    /// Experts per layer (0 or 1: a dense model).
    #[serde(default)]
    pub experts: u32,
    /// Experts a token is routed to.
    #[serde(default)]
    pub experts_per_token: u32,
}

impl Architecture {
    /// Whether it is a mixture of experts.
    pub fn is_moe(&self) -> bool {
        self.experts > 1 && self.experts_per_token >= 1 && self.experts_per_token < self.experts
    }

    /// Parameters of all the experts together, billions (0 for a dense model): one expert's
    /// are what a token's active parameters add per routed expert beyond the dense part,
    /// `(params − active) ÷ (experts − experts per token)`.
    pub fn expert_params_b(&self) -> f64 {
        if !self.is_moe() {
            return 0.0;
        }
        let per_expert = (self.params_b - self.active_params_b)
            / f64::from(self.experts - self.experts_per_token);
        (per_expert * f64::from(self.experts)).min(self.params_b)
    }

    /// The attention's width: heads × head dimension.
    pub fn attention_dim(&self) -> f64 {
        f64::from(self.attention_heads) * f64::from(self.head_dim)
    }
}

/// A known model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KnownModel {
    /// Its id, as a scenario writes it.
    pub id: &'static str,
    /// Its name on the page.
    pub label: &'static str,
    /// Its shape.
    pub architecture: Architecture,
    /// Where the figures come from.
    pub source: &'static str,
}

const fn dense(
    params_b: f64,
    layers: u32,
    heads: u32,
    kv_heads: u32,
    head_dim: u32,
) -> Architecture {
    Architecture {
        params_b,
        active_params_b: params_b,
        layers,
        attention_heads: heads,
        kv_heads,
        head_dim,
        experts: 0,
        experts_per_token: 0,
    }
}

/// The known models.
pub const MODELS: &[KnownModel] = &[
    KnownModel {
        id: "llama-3.1-8b",
        label: "Llama 3.1 8B",
        architecture: dense(8.03, 32, 32, 8, 128),
        source: "meta-llama/Llama-3.1-8B config.json (Hugging Face, July 2024): 32 layers, 32 \
                 attention heads, 8 key-value heads, hidden size 4,096 (head dimension 128); \
                 8.03 B parameters (its model card)",
    },
    KnownModel {
        id: "llama-3.1-70b",
        label: "Llama 3.1 70B",
        architecture: dense(70.6, 80, 64, 8, 128),
        source: "meta-llama/Llama-3.1-70B config.json (Hugging Face, July 2024): 80 layers, 64 \
                 attention heads, 8 key-value heads, hidden size 8,192 (head dimension 128); \
                 70.6 B parameters (its model card)",
    },
    KnownModel {
        id: "llama-3.1-405b",
        label: "Llama 3.1 405B",
        architecture: dense(405.9, 126, 128, 8, 128),
        source: "meta-llama/Llama-3.1-405B config.json (Hugging Face, July 2024): 126 layers, \
                 128 attention heads, 8 key-value heads, hidden size 16,384 (head dimension \
                 128); 405.9 B parameters (its model card)",
    },
    KnownModel {
        id: "mixtral-8x7b",
        label: "Mixtral 8×7B",
        architecture: Architecture {
            params_b: 46.7,
            active_params_b: 12.9,
            layers: 32,
            attention_heads: 32,
            kv_heads: 8,
            head_dim: 128,
            experts: 8,
            experts_per_token: 2,
        },
        source: "mistralai/Mixtral-8x7B-v0.1 config.json (Hugging Face, December 2023): 32 \
                 layers, 32 attention heads, 8 key-value heads, hidden size 4,096, 8 experts, \
                 2 per token; 46.7 B parameters, 12.9 B active per token (Mistral AI's \
                 announcement, 2023-12-11)",
    },
    KnownModel {
        id: "qwen2.5-32b",
        label: "Qwen2.5 32B",
        architecture: dense(32.5, 64, 40, 8, 128),
        source: "Qwen/Qwen2.5-32B config.json (Hugging Face, September 2024): 64 layers, 40 \
                 attention heads, 8 key-value heads, hidden size 5,120 (head dimension 128); \
                 32.5 B parameters (its model card)",
    },
    KnownModel {
        id: "qwen3-30b-a3b",
        label: "Qwen3 30B-A3B (MoE)",
        architecture: Architecture {
            params_b: 30.5,
            active_params_b: 3.3,
            layers: 48,
            attention_heads: 32,
            kv_heads: 4,
            head_dim: 128,
            experts: 128,
            experts_per_token: 8,
        },
        source: "Qwen/Qwen3-30B-A3B config.json (Hugging Face, April 2025): 48 layers, 32 \
                 attention heads, 4 key-value heads, head dimension 128, 128 experts, 8 per \
                 token; 30.5 B parameters, 3.3 B active (its model card)",
    },
];

/// The known model of `id`.
pub fn known(id: &str) -> Option<&'static KnownModel> {
    MODELS.iter().find(|m| m.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_shapes_consistent() {
        for (i, m) in MODELS.iter().enumerate() {
            assert!(MODELS[..i].iter().all(|o| o.id != m.id), "{} twice", m.id);
            let a = m.architecture;
            assert!(
                a.active_params_b <= a.params_b && a.active_params_b > 0.0,
                "{}",
                m.id
            );
            assert!(a.kv_heads <= a.attention_heads && a.attention_heads % a.kv_heads == 0);
            assert_eq!(a.is_moe(), a.active_params_b < a.params_b, "{}", m.id);
        }
    }

    #[test]
    fn the_page_offers_every_known_model_and_no_other() {
        let choices = crate::model::scenario::fields::LLM_MODEL_CHOICES;
        let ids: Vec<&str> = choices[1..choices.len() - 1].iter().map(|c| c.0).collect();
        assert_eq!(ids, MODELS.iter().map(|m| m.id).collect::<Vec<_>>());
        for (c, m) in choices[1..].iter().zip(MODELS) {
            assert_eq!(c.1, m.label);
        }
        assert_eq!(
            (choices[0].0, choices[choices.len() - 1].0),
            ("none", "custom")
        );
    }

    #[test]
    fn mixtral_experts_hold_most_of_its_weights() {
        // (46.7 − 12.9) ÷ 6 = 5.633 B per expert; 8 of them 45.07 B, leaving 1.63 B dense.
        let a = known("mixtral-8x7b").unwrap().architecture;
        assert!(
            (a.expert_params_b() - 45.067).abs() < 0.01,
            "{}",
            a.expert_params_b()
        );
    }
}
