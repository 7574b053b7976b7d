//! Fields of a hosted-API platform (paths relative to `platforms.<i>`, under `hosted_api.`):
//! read only where the platform has one.

use super::*;
use crate::model::hosted_api::ProvisionedTerm;
use crate::model::scenario::{ApiBilling, HostedApi, Provisioned};

fn api(p: &Platform) -> Option<&HostedApi> {
    p.hosted_api.as_ref()
}

fn api_mut(p: &mut Platform) -> Option<&mut HostedApi> {
    p.hosted_api.as_mut()
}

fn units(p: &Platform) -> Option<&Provisioned> {
    api(p).and_then(|a| a.provisioned.as_ref())
}

fn units_mut(p: &mut Platform) -> Option<&mut Provisioned> {
    api_mut(p).and_then(|a| a.provisioned.as_mut())
}

/// The ways to buy a hosted API, (JSON value, label).
pub const BILLING_CHOICES: &[(&str, &str)] = &[
    ("per_token", "Per token"),
    ("provisioned", "Provisioned throughput"),
];

/// The terms of provisioned throughput, (JSON value, label).
pub const TERM_CHOICES: &[(&str, &str)] = &[
    ("hourly", "By the hour"),
    ("one_month", "One-month reservation"),
    ("one_year", "One-year reservation"),
];

const PRICE_SOURCE: &str =
    "data/api_prices.csv: each provider's list price with its date and source, copied in when the platform is made (the method panel lists them)";
const UNIT_SOURCE: &str =
    "data/api_provisioned.csv: Azure AI Foundry's provisioned throughput for Llama 3.3 70B (learn.microsoft.com and the Azure Retail Prices API), copied in when the platform is made";

/// A hosted API's fields, in validation order.
pub static HOSTED_API_FIELDS: &[Field<Platform>] = &[
    Field::<Platform>::other("hosted_api.provider", "Provider", Value::Id {
        get: |p| api(p).map_or("", |a| a.provider.as_str()),
    })
    .doc("The provider, as the price list names it.")
    .control(Control::Elsewhere),
    Field::<Platform>::other("hosted_api.prices_as_of", "Prices as of", Value::Id {
        get: |p| api(p).map_or("", |a| a.prices_as_of.as_str()),
    })
    .doc("The date of the prices copied in.")
    .control(Control::Elsewhere),
    Field::<Platform>::other("hosted_api.billing", "Billing", Value::Choice {
        choices: BILLING_CHOICES,
        get: |p| match api(p).map(|a| a.billing) {
            Some(ApiBilling::Provisioned) => "provisioned",
            _ => "per_token",
        },
        set: |p, v| {
            if let Some(a) = api_mut(p) {
                a.billing = match v {
                    "provisioned" => ApiBilling::Provisioned,
                    _ => ApiBilling::PerToken,
                };
            }
        },
    })
    .doc("Per million tokens on demand, or provisioned throughput: units bought by the hour or reserved, paid used or not, their throughput the only limit.")
    .source("Azure AI Foundry sells provisioned throughput (PTUs) for Llama 3.3 70B; Bedrock's Provisioned Throughput publishes no price or throughput for Llama 3.x (default quota 0), so it is not offered"),
    Field::number("hosted_api.cached_input_share", "Cached input share", "", (0.0, 1.0),
        |p| api(p).map(|a| a.cached_input_share),
        |p, v| if let Some(a) = api_mut(p) { a.cached_input_share = v })
    .doc("Share of the live requests' input tokens the provider's prompt cache serves, at the cached-input price (none of these providers prices one for these models).")
    .source("assumption: 0"),
    Field::number("hosted_api.batch_share", "Batch API share", "", (0.0, 1.0),
        |p| api(p).map(|a| a.batch_share),
        |p, v| if let Some(a) = api_mut(p) { a.batch_share = v })
    .doc("Share of the requests sent through the batch API at its prices (half of on demand): answered within a day, so with no latency objective, and outside the rate limit (assumption: batch jobs have quotas of their own). Per-token billing only.")
    .source("assumption: 0"),
    Field::number("hosted_api.input_usd_per_m", "Input price", "$/M tokens", (0.0, 1_000.0),
        |p| api(p).map(|a| a.input_usd_per_m),
        |p, v| if let Some(a) = api_mut(p) { a.input_usd_per_m = v })
    .doc("USD per million input tokens.")
    .source(PRICE_SOURCE),
    Field::number("hosted_api.output_usd_per_m", "Output price", "$/M tokens", (0.0, 1_000.0),
        |p| api(p).map(|a| a.output_usd_per_m),
        |p, v| if let Some(a) = api_mut(p) { a.output_usd_per_m = v })
    .doc("USD per million output tokens.")
    .source(PRICE_SOURCE),
    Field::number("hosted_api.cached_input_usd_per_m", "Cached input price", "$/M tokens", (0.0, 1_000.0),
        |p| api(p).and_then(|a| a.cached_input_usd_per_m),
        |p, v| if let Some(a) = api_mut(p) { a.cached_input_usd_per_m = Some(v) })
    .doc("USD per million input tokens read from the prompt cache (absent: no cache price).")
    .source(PRICE_SOURCE),
    Field::number("hosted_api.batch_input_usd_per_m", "Batch input price", "$/M tokens", (0.0, 1_000.0),
        |p| api(p).and_then(|a| a.batch_input_usd_per_m),
        |p, v| if let Some(a) = api_mut(p) { a.batch_input_usd_per_m = Some(v) })
    .doc("USD per million input tokens through the batch API (absent: none).")
    .source(PRICE_SOURCE),
    Field::number("hosted_api.batch_output_usd_per_m", "Batch output price", "$/M tokens", (0.0, 1_000.0),
        |p| api(p).and_then(|a| a.batch_output_usd_per_m),
        |p, v| if let Some(a) = api_mut(p) { a.batch_output_usd_per_m = Some(v) })
    .doc("USD per million output tokens through the batch API (absent: none).")
    .source(PRICE_SOURCE),
    Field::number("hosted_api.requests_per_minute", "Requests a minute (quota)", "per min", (0.0, 1e9),
        |p| api(p).map(|a| a.requests_per_minute),
        |p, v| if let Some(a) = api_mut(p) { a.requests_per_minute = v })
    .doc("The account's requests-per-minute quota for the model, per-token billing; beyond it a request gets HTTP 429. 0: no limit.")
    .source("Bedrock: the AWS General Reference's default on-demand quotas; others publish none per model (0, no limit: set the account's own)"),
    Field::number("hosted_api.tokens_per_minute", "Tokens a minute (quota)", "per min", (0.0, 1e12),
        |p| api(p).map(|a| a.tokens_per_minute),
        |p, v| if let Some(a) = api_mut(p) { a.tokens_per_minute = v })
    .doc("The account's tokens-per-minute quota (input and output counted), per-token billing. 0: no limit.")
    .source("Bedrock: the AWS General Reference's default on-demand quotas; others publish none per model"),
    Field::number("hosted_api.retry_delay_s", "Retry delay after a 429", "s", (0.0, 3_600.0),
        |p| api(p).map(|a| a.retry_delay_s),
        |p, v| if let Some(a) = api_mut(p) { a.retry_delay_s = v })
    .doc("Seconds from a refusal to the next attempt. A per-minute quota admits it in the minute its delay ends, never the minute it was refused in: its wait is counted as those whole minutes.")
    .source("assumption: 20 s, the AWS SDKs' standard retry mode's longest backoff"),
    Field::number("hosted_api.attempts", "Attempts per request", "", (1.0, 20.0),
        |p| api(p).map(|a| f64::from(a.attempts)),
        |p, v| if let Some(a) = api_mut(p) { a.attempts = v as u32 })
    .doc("Attempts a request makes in all, the first included; then it is dropped. 1: a refused request is dropped at once.")
    .source("the AWS SDKs' standard retry mode: 3 attempts"),
    Field::number("hosted_api.ttft_p95_ms", "Stated time to first token, p95", "ms", (1.0, 600_000.0),
        |p| api(p).map(|a| a.ttft_p95_ms),
        |p, v| if let Some(a) = api_mut(p) { a.ttft_p95_ms = v })
    .doc("The p95 time to first token of an admitted request: the provider's, as measured or assumed. A retried request adds its wait.")
    .source("assumption: 600 ms (\"Together AI and Fireworks sit around 400-600 ms under normal load\" for Llama 3.1 70B, managedmodels.com, early 2026, secondary); no provider publishes one"),
    Field::number("hosted_api.tpot_p95_ms", "Stated time per output token, p95", "ms", (0.1, 10_000.0),
        |p| api(p).map(|a| a.tpot_p95_ms),
        |p, v| if let Some(a) = api_mut(p) { a.tpot_p95_ms = v })
    .doc("The p95 time per output token of an admitted request.")
    .source("per token: assumption, 30 ms (about 33 tokens a second); provisioned: 20 ms, Azure's latency target for Llama 3.3 70B PTUs, \"99% > 50 TPS\" (learn.microsoft.com, 2026-04-29)"),
    Field::number("hosted_api.provisioned.units", "Provisioned units", "", (1.0, 100_000.0),
        |p| units(p).map(|u| f64::from(u.units)),
        |p, v| if let Some(u) = units_mut(p) { u.units = v as u32 })
    .doc("Units of provisioned throughput bought: at least the offer's minimum, in its steps.")
    .source(UNIT_SOURCE),
    Field::<Platform>::other("hosted_api.provisioned.term", "Provisioned term", Value::Choice {
        choices: TERM_CHOICES,
        get: |p| match units(p).map(|u| u.term) {
            Some(ProvisionedTerm::OneMonth) => "one_month",
            Some(ProvisionedTerm::OneYear) => "one_year",
            _ => "hourly",
        },
        set: |p, v| {
            if let Some(u) = units_mut(p) {
                u.term = match v {
                    "one_month" => ProvisionedTerm::OneMonth,
                    "one_year" => ProvisionedTerm::OneYear,
                    _ => ProvisionedTerm::Hourly,
                };
            }
        },
    })
    .doc("By the hour, or a one-month or one-year reservation (paid for every hour of it).")
    .source(UNIT_SOURCE),
    Field::number("hosted_api.provisioned.min_units", "Fewest units", "", (1.0, 100_000.0),
        |p| units(p).map(|u| f64::from(u.min_units)),
        |p, v| if let Some(u) = units_mut(p) { u.min_units = v as u32 })
    .doc("The fewest units a deployment has.")
    .source(UNIT_SOURCE)
    .control(Control::Elsewhere),
    Field::number("hosted_api.provisioned.unit_step", "Unit step", "", (1.0, 100_000.0),
        |p| units(p).map(|u| f64::from(u.unit_step)),
        |p, v| if let Some(u) = units_mut(p) { u.unit_step = v as u32 })
    .doc("Units are bought in steps of this many.")
    .source(UNIT_SOURCE)
    .control(Control::Elsewhere),
    Field::number("hosted_api.provisioned.input_tpm_per_unit", "Input tokens a minute per unit", "per min", (1.0, 1e9),
        |p| units(p).map(|u| u.input_tpm_per_unit),
        |p, v| if let Some(u) = units_mut(p) { u.input_tpm_per_unit = v })
    .doc("Input tokens a minute one unit serves; requests beyond the units' throughput get a 429.")
    .source(UNIT_SOURCE),
    Field::number("hosted_api.provisioned.output_token_weight", "Output token weight", "input tokens", (0.0, 100.0),
        |p| units(p).map(|u| u.output_token_weight),
        |p, v| if let Some(u) = units_mut(p) { u.output_token_weight = v })
    .doc("Input tokens one output token counts as against the units' throughput.")
    .source(UNIT_SOURCE),
    Field::number("hosted_api.provisioned.usd_per_unit_hour", "Price per unit-hour", "$/unit-h", (0.0, 10_000.0),
        |p| units(p).map(|u| u.usd_per_unit_hour),
        |p, v| if let Some(u) = units_mut(p) { u.usd_per_unit_hour = v })
    .doc("USD per unit-hour bought by the hour.")
    .source(UNIT_SOURCE),
    Field::number("hosted_api.provisioned.usd_per_unit_month_1m", "Price per unit-month, 1-month term", "$/unit-month", (0.0, 1e7),
        |p| units(p).and_then(|u| u.usd_per_unit_month_1m),
        |p, v| if let Some(u) = units_mut(p) { u.usd_per_unit_month_1m = Some(v) })
    .doc("USD per unit a month on a one-month reservation (absent: not sold).")
    .source(UNIT_SOURCE),
    Field::number("hosted_api.provisioned.usd_per_unit_month_1y", "Price per unit-month, 1-year term", "$/unit-month", (0.0, 1e7),
        |p| units(p).and_then(|u| u.usd_per_unit_month_1y),
        |p, v| if let Some(u) = units_mut(p) { u.usd_per_unit_month_1y = Some(v) })
    .doc("USD per unit a month on a one-year reservation (absent: not sold).")
    .source(UNIT_SOURCE),
];
