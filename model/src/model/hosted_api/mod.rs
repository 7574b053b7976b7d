//! A hosted LLM API as a place to run a service: no nodes and no ops people, a bill per token
//! (or for provisioned throughput) and a rate limit. Its prices and limits are in [`prices`];
//! what a month of requests costs is here; what a rate limit does to a minute's requests is in
//! [`rate_limit`].
//!
//! Per-token billing: input tokens at the input price, or at the cached-input price for the
//! share the provider's prompt cache serves; output tokens at the output price; requests sent
//! through the batch API at its prices (half of on demand where the providers offer one), with
//! no cache discount on top (assumption: the providers that price both do not combine them).
//! Provisioned throughput: units bought by the hour or on a one-month or one-year reservation,
//! paid whether used or not.

pub mod estimate;
pub mod prices;
pub mod rate_limit;
pub mod serve;

use prices::{ProvisionedOffer, TokenOffer};

/// Tokens a month of requests sends to an API, and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenMix {
    /// Input tokens.
    pub input_tokens: f64,
    /// Output tokens.
    pub output_tokens: f64,
    /// Share of the input tokens the provider's prompt cache serves (0–1), of the requests
    /// not sent through the batch API.
    pub cached_input_share: f64,
    /// Share of the requests (and their tokens) sent through the batch API (0–1).
    pub batch_share: f64,
}

/// How provisioned throughput is bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProvisionedTerm {
    /// By the hour (billed by the minute), no commitment.
    #[default]
    Hourly,
    /// A one-month reservation.
    OneMonth,
    /// A one-year reservation.
    OneYear,
}

/// Why an offer cannot bill a mix or a purchase.
#[derive(Debug, Clone, PartialEq)]
pub enum PriceError {
    /// A share of cached input where the provider has no cached-input price.
    NoCachePrice,
    /// A share of batch requests where the provider has no batch API for the model.
    NoBatchPrice,
    /// A term the provider does not sell.
    NoTerm(ProvisionedTerm),
    /// A share outside 0–1, or a token count that is not a number of at least 0.
    Mix(String),
    /// Units below the minimum or off the step.
    Units {
        /// Units asked for.
        units: u32,
        /// The fewest.
        min: u32,
        /// The step.
        step: u32,
    },
}

impl std::fmt::Display for PriceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PriceError::NoCachePrice => write!(
                f,
                "the provider has no cached-input price for this model: set the cached share to 0"
            ),
            PriceError::NoBatchPrice => write!(
                f,
                "the provider has no batch API price for this model: set the batch share to 0"
            ),
            PriceError::NoTerm(term) => write!(
                f,
                "the provider sells no {} reservation of provisioned throughput for this model",
                match term {
                    ProvisionedTerm::Hourly => "hourly",
                    ProvisionedTerm::OneMonth => "one-month",
                    ProvisionedTerm::OneYear => "one-year",
                }
            ),
            PriceError::Mix(why) => write!(f, "{why}"),
            PriceError::Units { units, min, step } => write!(
                f,
                "{units} units: a deployment has at least {min}, in steps of {step}"
            ),
        }
    }
}

impl TokenOffer {
    /// What `mix` costs, USD.
    pub fn cost_usd(&self, mix: &TokenMix) -> Result<f64, PriceError> {
        let per_m = 1e-6;
        let (input, output) = (mix.input_tokens, mix.output_tokens);
        let (batch, cached) = (mix.batch_share, mix.cached_input_share);
        for (what, share) in [("batch", batch), ("cached-input", cached)] {
            if !(0.0..=1.0).contains(&share) {
                return Err(PriceError::Mix(format!(
                    "a {what} share of {share}: give 0 to 1"
                )));
            }
        }
        if !(input.is_finite() && output.is_finite() && input >= 0.0 && output >= 0.0) {
            return Err(PriceError::Mix(format!(
                "{input} input and {output} output tokens: each must be a number of at least 0"
            )));
        }
        // (All batched, no input is read live: the cache has nothing to discount.)
        let cached_price = match (cached > 0.0 && batch < 1.0, self.cached_input_usd_per_m) {
            (false, _) => 0.0,
            (true, Some(p)) => p,
            (true, None) => return Err(PriceError::NoCachePrice),
        };
        let (batch_in, batch_out) = match (
            batch > 0.0,
            self.batch_input_usd_per_m,
            self.batch_output_usd_per_m,
        ) {
            (false, _, _) => (0.0, 0.0),
            (true, Some(i), Some(o)) => (i, o),
            _ => return Err(PriceError::NoBatchPrice),
        };
        let live_input = input * (1.0 - batch);
        let live = live_input * (1.0 - cached) * self.input_usd_per_m
            + live_input * cached * cached_price
            + output * (1.0 - batch) * self.output_usd_per_m;
        let batched = input * batch * batch_in + output * batch * batch_out;
        Ok((live + batched) * per_m)
    }
}

impl ProvisionedOffer {
    /// Whether `units` can be bought: at least the minimum, in whole steps.
    pub fn check_units(&self, units: u32) -> Result<(), PriceError> {
        if units < self.min_units || !units.is_multiple_of(self.unit_step) {
            return Err(PriceError::Units {
                units,
                min: self.min_units,
                step: self.unit_step,
            });
        }
        Ok(())
    }

    /// USD a 730-hour month for `units` bought on `term`, used or not.
    pub fn monthly_usd(&self, units: u32, term: ProvisionedTerm) -> Result<f64, PriceError> {
        self.check_units(units)?;
        let per_unit = match term {
            ProvisionedTerm::Hourly => self.usd_per_unit_hour * crate::model::HOURS_PER_MONTH,
            ProvisionedTerm::OneMonth => {
                self.usd_per_unit_month_1m.ok_or(PriceError::NoTerm(term))?
            }
            ProvisionedTerm::OneYear => {
                self.usd_per_unit_month_1y.ok_or(PriceError::NoTerm(term))?
            }
        };
        Ok(f64::from(units) * per_unit)
    }

    /// Input-token equivalents a minute `units` serve.
    pub fn tokens_per_minute(&self, units: u32) -> f64 {
        f64::from(units) * self.input_tpm_per_unit
    }

    /// What one request of `input` and `output` tokens takes of the throughput, in input-token
    /// equivalents.
    pub fn request_load(&self, input: f64, output: f64) -> f64 {
        input + self.output_token_weight * output
    }
}

#[cfg(test)]
mod tests {
    use super::prices::{provisioned_offer, token_offer};
    use super::*;

    /// An offer of round prices, with a cache and a batch API.
    fn offer() -> TokenOffer {
        TokenOffer {
            provider: "hand".into(),
            model: "llama-3.1-70b".into(),
            region: String::new(),
            input_usd_per_m: 1.0,
            output_usd_per_m: 4.0,
            cached_input_usd_per_m: Some(0.25),
            batch_input_usd_per_m: Some(0.5),
            batch_output_usd_per_m: Some(2.0),
            requests_per_minute: None,
            tokens_per_minute: None,
            as_of: "2026-12-07".into(),
            source: "a hand case".into(),
        }
    }

    #[test]
    fn a_month_of_tokens_costs_what_the_hand_case_says() {
        // 10 million requests of 2,000 input and 300 output tokens: 20 billion input and 3
        // billion output tokens. A fifth go through the batch API; of the rest, 40 % of the
        // input is read from the cache.
        // Live: 16e9 input × (0.6 × $1 + 0.4 × $0.25)/M = $11,200; 2.4e9 output × $4/M = $9,600.
        // Batch: 4e9 input × $0.5/M = $2,000; 0.6e9 output × $2/M = $1,200. In all $24,000.
        let mix = TokenMix {
            input_tokens: 20e9,
            output_tokens: 3e9,
            cached_input_share: 0.4,
            batch_share: 0.2,
        };
        let cost = offer().cost_usd(&mix).unwrap();
        assert!((cost - 24_000.0).abs() < 1e-6, "{cost}");
        // Bedrock's Llama 3.1 70B at $0.72 either way: 23e9 tokens live, none cached.
        let plain = TokenMix {
            cached_input_share: 0.0,
            batch_share: 0.0,
            ..mix
        };
        let bedrock = token_offer("bedrock", "llama-3.1-70b").unwrap();
        assert!((bedrock.cost_usd(&plain).unwrap() - 23e9 * 0.72e-6).abs() < 1e-6);
        // Half of it batched at half price: three quarters of the bill.
        let half = TokenMix {
            batch_share: 0.5,
            ..plain
        };
        assert!((bedrock.cost_usd(&half).unwrap() - 0.75 * 23e9 * 0.72e-6).abs() < 1e-6);
        // Bedrock has no cache for Llama: a cached share is refused, not priced at zero.
        assert_eq!(bedrock.cost_usd(&mix), Err(PriceError::NoCachePrice));
        // Shares outside 0–1 and token counts below 0 are refused, not clamped.
        let over = TokenMix {
            batch_share: 1.5,
            ..plain
        };
        assert!(matches!(bedrock.cost_usd(&over), Err(PriceError::Mix(_))));
        let nan = TokenMix {
            input_tokens: f64::NAN,
            ..plain
        };
        assert!(matches!(bedrock.cost_usd(&nan), Err(PriceError::Mix(_))));
    }

    #[test]
    fn provisioned_throughput_costs_its_units_used_or_not() {
        let ptu = provisioned_offer("azure_foundry", "llama-3.1-70b").unwrap();
        // 200 PTU: by the hour 200 × $1 × 730 h = $146,000; a one-month reservation
        // 200 × $260 = $52,000; a one-year one 200 × $2,652 / 12 = $44,200.
        let month = |term| ptu.monthly_usd(200, term).unwrap();
        assert!((month(ProvisionedTerm::Hourly) - 146_000.0).abs() < 1e-6);
        assert!((month(ProvisionedTerm::OneMonth) - 52_000.0).abs() < 1e-6);
        assert!((month(ProvisionedTerm::OneYear) - 44_200.0).abs() < 1e-6);
        // Units below the minimum or off the step are refused.
        assert!(ptu.monthly_usd(50, ProvisionedTerm::Hourly).is_err());
        assert!(ptu.monthly_usd(150, ProvisionedTerm::Hourly).is_err());
        // 200 PTU serve 1.69 million input tokens a minute; a request of 1,000 in and 250 out
        // takes 2,000 of it: 845 such requests a minute.
        assert_eq!(ptu.tokens_per_minute(200), 1_690_000.0);
        assert_eq!(ptu.request_load(1_000.0, 250.0), 2_000.0);
    }
}
