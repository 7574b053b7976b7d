//! A hosted API's instant estimate: a month of each service's mean traffic (spikes
//! included) billed at the platform's prices, or its provisioned units; no rate limit (the
//! simulation counts what it refuses and drops).

use super::TokenMix;
use crate::model::analytic::Estimate;
use crate::model::platforms::hosted_api::discount_factor;
use crate::model::pricing::{other_monthly_costs, Transferred};
use crate::model::scenario::{Scenario, HOUR_S};
use crate::model::serving::sharing;
use crate::model::HOURS_PER_MONTH;

/// The estimate of platform `index` of `scenario`, a hosted API.
pub fn estimate(scenario: &Scenario, index: usize) -> Estimate {
    let p = &scenario.platforms[index];
    let Some(api) = &p.hosted_api else {
        return Estimate {
            monthly_tco_usd: 0.0,
            compute_usd: 0.0,
            other_usd: 0.0,
            useful_reference_gpu_hours: 0.0,
            usd_per_useful_gpu_hour: None,
        };
    };
    let month_s = HOURS_PER_MONTH * HOUR_S;
    let (mut input, mut output) = (0.0, 0.0);
    for service in &scenario.services {
        let requests = sharing::mean_rps(service) * month_s;
        if let Some(llm) = &service.llm {
            let (i, o) = llm.mean_tokens();
            input += requests * i;
            output += requests * o;
        }
    }
    let mix = TokenMix {
        input_tokens: input,
        output_tokens: output,
        cached_input_share: api.cached_input_share,
        batch_share: api.batch_share_billed(),
    };
    let discount = discount_factor(scenario, p);
    // An unbillable purchase is validation's to name; the estimate shows none.
    let api_usd = api.monthly_usd(mix).unwrap_or(0.0) * discount;
    let other_usd = other_monthly_costs(scenario, p, Transferred::default(), 1.0).total();
    Estimate {
        monthly_tco_usd: api_usd + other_usd,
        compute_usd: api_usd,
        other_usd,
        useful_reference_gpu_hours: 0.0,
        usd_per_useful_gpu_hour: None,
    }
}
