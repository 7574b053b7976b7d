//! A platform that is a hosted LLM API (`profile: hosted_api`): no nodes and no ops people, a
//! bill per token or for provisioned throughput, a rate limit, and a latency the provider
//! states. Its prices are copied in from the price lists ([`crate::model::hosted_api::prices`])
//! when the platform is made, so a saved scenario keeps its numbers when the lists are
//! re-dated, and a negotiated price is one edit.

use crate::model::hosted_api::prices::{provisioned_offer, token_offer, ProvisionedOffer};
use crate::model::hosted_api::rate_limit::{Limit, OnRefusal};
use crate::model::hosted_api::{ProvisionedTerm, TokenMix};
use serde::{Deserialize, Serialize};

/// How a hosted API is bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ApiBilling {
    /// Per million input and output tokens, on demand.
    #[default]
    PerToken,
    /// Provisioned throughput: units bought by the hour or reserved, paid used or not.
    Provisioned,
}

/// A hosted API's settings on a platform. Its provider and its per-token prices are
/// required (a document without them is refused, never priced as another provider); the rest
/// have defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HostedApi {
    /// The provider's id, as the price list names it (`bedrock`, `azure_foundry`, `vertex`,
    /// `together`, `fireworks`, `deepinfra`).
    pub provider: String,
    /// Per token, or provisioned throughput (which needs `provisioned`).
    #[serde(default)]
    pub billing: ApiBilling,
    /// Share of the live requests' input tokens the provider's prompt cache serves (0–1);
    /// needs a cached-input price.
    #[serde(default)]
    pub cached_input_share: f64,
    /// Share of the requests sent through the batch API (0–1): billed at its prices, with no
    /// latency objective and outside the rate limit (assumption: batch jobs have quotas of
    /// their own). Needs batch prices; per-token billing only.
    #[serde(default)]
    pub batch_share: f64,
    /// USD per million input tokens.
    pub input_usd_per_m: f64,
    /// USD per million output tokens.
    pub output_usd_per_m: f64,
    /// USD per million cached input tokens (absent: the provider has no cache price).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_usd_per_m: Option<f64>,
    /// USD per million input tokens through the batch API (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_input_usd_per_m: Option<f64>,
    /// USD per million output tokens through the batch API (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_output_usd_per_m: Option<f64>,
    /// The account's requests-per-minute quota for the model, per-token billing (0: none
    /// published or set, no limit).
    #[serde(default)]
    pub requests_per_minute: f64,
    /// The account's tokens-per-minute quota (input and output counted), per-token billing
    /// (0: no limit).
    #[serde(default)]
    pub tokens_per_minute: f64,
    /// Seconds from a 429 to the request's next attempt.
    #[serde(default = "retry_delay_s")]
    pub retry_delay_s: f64,
    /// Attempts a request makes in all, the first included; 1: a refused request is dropped.
    #[serde(default = "attempts")]
    pub attempts: u32,
    /// Time to first token at the p95 the provider gives an admitted request, ms (stated: no
    /// provider publishes one for these models; an assumption unless the user measured it).
    #[serde(default = "ttft_p95_ms")]
    pub ttft_p95_ms: f64,
    /// Time per output token at the p95, ms (stated, as `ttft_p95_ms`).
    #[serde(default = "tpot_p95_ms")]
    pub tpot_p95_ms: f64,
    /// Provisioned throughput, where the provider sells it for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisioned: Option<Provisioned>,
    /// The date of the prices copied in.
    #[serde(default)]
    pub prices_as_of: String,
}

/// Provisioned throughput: the units bought and the offer's terms, copied in (each required
/// but the reservations' prices, absent where not sold).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Provisioned {
    /// Units bought.
    pub units: u32,
    /// How they are bought (absent: by the hour).
    #[serde(default)]
    pub term: ProvisionedTerm,
    /// Fewest units a deployment has.
    pub min_units: u32,
    /// Units are bought in steps of this many.
    pub unit_step: u32,
    /// Input tokens a minute one unit serves.
    pub input_tpm_per_unit: f64,
    /// Input tokens one output token counts as.
    pub output_token_weight: f64,
    /// USD per unit-hour, bought by the hour.
    pub usd_per_unit_hour: f64,
    /// USD per unit a month on a one-month reservation (absent: not sold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_unit_month_1m: Option<f64>,
    /// USD per unit a month on a one-year reservation (absent: not sold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_unit_month_1y: Option<f64>,
}

/// The stated latency of an admitted request on a per-token API: time to first token, ms
/// (assumption: "Together AI and Fireworks sit around 400–600 ms under normal load" for Llama
/// 3.1 70B, managedmodels.com "Model Serving Latency", early 2026, a secondary source; taken
/// as the p95 for every provider).
pub const PER_TOKEN_TTFT_P95_MS: f64 = 600.0;
/// Time per output token at the p95 on a per-token API, ms (assumption: about 33 output
/// tokens a second; no provider publishes one for these models).
pub const PER_TOKEN_TPOT_P95_MS: f64 = 30.0;
/// Time per output token on provisioned throughput, ms: Azure's latency target for Llama
/// 3.3 70B PTUs, "99% > 50 TPS" (learn.microsoft.com, Foundry provisioned throughput,
/// 2026-04-29), so at most 20 ms at the p99.
pub const PROVISIONED_TPOT_P95_MS: f64 = 20.0;
/// Seconds from a 429 to the next attempt (assumption: the AWS SDKs' standard retry mode
/// backs off up to 20 s).
pub const RETRY_DELAY_S: f64 = 20.0;
/// Attempts in all (the AWS SDKs' standard retry mode makes 3).
pub const ATTEMPTS: u32 = 3;

fn retry_delay_s() -> f64 {
    RETRY_DELAY_S
}

fn attempts() -> u32 {
    ATTEMPTS
}

fn ttft_p95_ms() -> f64 {
    PER_TOKEN_TTFT_P95_MS
}

fn tpot_p95_ms() -> f64 {
    PER_TOKEN_TPOT_P95_MS
}

impl Default for HostedApi {
    /// Bedrock's Llama 3.1 70B.
    fn default() -> Self {
        HostedApi::offered("bedrock", "llama-3.1-70b").expect("the price list has it (tested)")
    }
}

impl Provisioned {
    fn of(offer: &ProvisionedOffer) -> Provisioned {
        Provisioned {
            units: offer.min_units,
            term: ProvisionedTerm::Hourly,
            min_units: offer.min_units,
            unit_step: offer.unit_step,
            input_tpm_per_unit: offer.input_tpm_per_unit,
            output_token_weight: offer.output_token_weight,
            usd_per_unit_hour: offer.usd_per_unit_hour,
            usd_per_unit_month_1m: offer.usd_per_unit_month_1m,
            usd_per_unit_month_1y: offer.usd_per_unit_month_1y,
        }
    }

    /// As an offer, to bill and size.
    pub fn offer(&self) -> ProvisionedOffer {
        ProvisionedOffer {
            provider: String::new(),
            model: String::new(),
            unit: "unit".into(),
            min_units: self.min_units,
            unit_step: self.unit_step,
            input_tpm_per_unit: self.input_tpm_per_unit,
            output_token_weight: self.output_token_weight,
            usd_per_unit_hour: self.usd_per_unit_hour,
            usd_per_unit_month_1m: self.usd_per_unit_month_1m,
            usd_per_unit_month_1y: self.usd_per_unit_month_1y,
            as_of: String::new(),
            source: String::new(),
        }
    }
}

impl HostedApi {
    /// `provider`'s offer of `model` from the price lists, billed per token, with its
    /// published quota and the stated latencies; `None` where the provider has no price for
    /// the model.
    pub fn offered(provider: &str, model: &str) -> Option<HostedApi> {
        let t = token_offer(provider, model)?;
        Some(HostedApi {
            provider: provider.to_string(),
            billing: ApiBilling::PerToken,
            cached_input_share: 0.0,
            batch_share: 0.0,
            input_usd_per_m: t.input_usd_per_m,
            output_usd_per_m: t.output_usd_per_m,
            cached_input_usd_per_m: t.cached_input_usd_per_m,
            batch_input_usd_per_m: t.batch_input_usd_per_m,
            batch_output_usd_per_m: t.batch_output_usd_per_m,
            requests_per_minute: t.requests_per_minute.unwrap_or(0.0),
            tokens_per_minute: t.tokens_per_minute.unwrap_or(0.0),
            retry_delay_s: RETRY_DELAY_S,
            attempts: ATTEMPTS,
            ttft_p95_ms: PER_TOKEN_TTFT_P95_MS,
            tpot_p95_ms: PER_TOKEN_TPOT_P95_MS,
            provisioned: provisioned_offer(provider, model).map(Provisioned::of),
            prices_as_of: t.as_of.clone(),
        })
    }

    /// The per-token prices as an offer, to bill a mix.
    pub fn token_offer(&self) -> crate::model::hosted_api::prices::TokenOffer {
        crate::model::hosted_api::prices::TokenOffer {
            provider: self.provider.clone(),
            model: String::new(),
            region: String::new(),
            input_usd_per_m: self.input_usd_per_m,
            output_usd_per_m: self.output_usd_per_m,
            cached_input_usd_per_m: self.cached_input_usd_per_m,
            batch_input_usd_per_m: self.batch_input_usd_per_m,
            batch_output_usd_per_m: self.batch_output_usd_per_m,
            requests_per_minute: None,
            tokens_per_minute: None,
            as_of: self.prices_as_of.clone(),
            source: String::new(),
        }
    }

    /// The provisioned throughput bought, where billing is provisioned.
    pub fn provisioned_bought(&self) -> Option<&Provisioned> {
        match self.billing {
            ApiBilling::Provisioned => self.provisioned.as_ref(),
            ApiBilling::PerToken => None,
        }
    }

    /// The share of requests sent through the batch API (none on provisioned throughput).
    pub fn batch_share_billed(&self) -> f64 {
        match self.billing {
            ApiBilling::PerToken => self.batch_share,
            ApiBilling::Provisioned => 0.0,
        }
    }

    /// The bill of a month of `mix` (its batch share set here), USD: its tokens per token,
    /// or the units bought; `Err` where the settings cannot bill it (validation says which).
    pub fn monthly_usd(&self, mix: TokenMix) -> Result<f64, String> {
        match self.provisioned_bought() {
            Some(p) => p
                .offer()
                .monthly_usd(p.units, p.term)
                .map_err(|e| e.to_string()),
            None if self.billing == ApiBilling::Provisioned => {
                Err("provisioned billing with no provisioned offer: the provider sells none for this model".into())
            }
            None => self.token_offer().cost_usd(&mix).map_err(|e| e.to_string()),
        }
    }

    /// The rate limit on live requests of `input` and `output` tokens each.
    pub fn limit(&self, input: f64, output: f64) -> Limit {
        let none = |v: f64| if v > 0.0 { v } else { f64::INFINITY };
        match self.provisioned_bought() {
            Some(p) => Limit {
                requests_per_minute: f64::INFINITY,
                tokens_per_minute: p.offer().tokens_per_minute(p.units),
                tokens_per_request: p.offer().request_load(input, output),
            },
            None => Limit {
                requests_per_minute: none(self.requests_per_minute),
                tokens_per_minute: none(self.tokens_per_minute),
                tokens_per_request: input + output,
            },
        }
    }

    /// What a refused request does.
    pub fn on_refusal(&self) -> OnRefusal {
        if self.attempts <= 1 {
            OnRefusal::Drop
        } else {
            OnRefusal::Retry {
                delay_s: self.retry_delay_s,
                attempts: self.attempts,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offer_copies_the_price_list_s_row() {
        let b = HostedApi::offered("bedrock", "llama-3.1-70b").unwrap();
        assert_eq!((b.input_usd_per_m, b.output_usd_per_m), (0.72, 0.72));
        assert_eq!(
            (b.requests_per_minute, b.tokens_per_minute),
            (400.0, 300_000.0)
        );
        assert!(b.provisioned.is_none());
        let a = HostedApi::offered("azure_foundry", "llama-3.1-70b").unwrap();
        let p = a.provisioned.as_ref().unwrap();
        assert_eq!((p.units, p.min_units, p.unit_step), (100, 100, 100));
        // No published quota: no limit.
        assert!(a.limit(1_000.0, 200.0).requests_admitted().is_infinite());
        assert!(HostedApi::offered("bedrock", "no-such-model").is_none());
    }
}
