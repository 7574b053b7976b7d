//! A scenario's LLM services on a hosted API in one replication, minute by minute: the same
//! requests every platform sees ([`Arrivals`], a stream keyed on the service), through the
//! account's rate limit for the model ([`Limiter`]: the quota is per model and account, so
//! the services share one), billed per token or for the provisioned units.
//!
//! Latency: an admitted request's time to first token and per output token are the stated
//! p95s ([`HostedApi::ttft_p95_ms`], [`HostedApi::tpot_p95_ms`]): no queue of ours is
//! modelled, the provider's is in what it states. A request refused and retried waits, on top,
//! the whole minutes until it comes back (a per-minute quota admits it in the minute its delay
//! ends, never the one it was refused in); a dropped one is never served. A minute's TTFT p95
//! is the p95 of its requests' so counted, dropped ones as never served; its TPOT is the
//! stated one. A minute misses its objective where either is over the service's.
//!
//! Batch-API requests are billed at the batch prices, answered within the provider's window,
//! outside the live quota and every latency objective (assumption: batch jobs have quotas of
//! their own).

use super::rate_limit::{Limiter, ATTEMPTS_MAX};
use super::TokenMix;
use crate::model::cost_category::{Breakdown, Category, PerCategory};
use crate::model::platforms::hosted_api::discount_factor;
use crate::model::pricing::{other_monthly_costs, Transferred};
use crate::model::rng::{Purpose, Stream};
use crate::model::scenario::{HostedApi, Llm, Scenario, DAY_S};
use crate::model::serving::platform::{LlmOutcome, ServiceOutcome, BUCKET_S};
use crate::model::serving::pool::{bucket_count, Arrivals, Bucket};
use crate::model::sim::outcome::PlatformOutcome;
use crate::model::HOURS_PER_MONTH;

/// Latency levels of a request by its attempt: index k (1 to [`ATTEMPTS_MAX`]) admitted on
/// its k-th attempt; index 0 dropped.
pub type ByAttempt = [f64; ATTEMPTS_MAX as usize + 1];

/// One service's tally over the run.
#[derive(Default)]
struct Tally {
    arrived: f64,
    live_served: f64,
    batch_served: f64,
    refused: f64,
    dropped: f64,
    by_attempt: ByAttempt,
    ttft_over_minutes: f64,
    tpot_over_minutes: f64,
    over_minutes: f64,
}

/// The p95 time to first token of requests counted `by_attempt`, ms: an attempt k waited
/// `wait_s` × (k − 1) beyond the stated `ttft_ms`; infinite when 5 % or more were dropped
/// (index 0), NaN when there were none.
pub fn ttft_p95_ms(by_attempt: &ByAttempt, ttft_ms: f64, wait_s: f64) -> f64 {
    let total: f64 = by_attempt.iter().sum();
    if total <= 0.0 {
        return f64::NAN;
    }
    // The fastest 95 %: the first attempt at which the share served reaches it.
    let mut seen = 0.0;
    for (k, &n) in by_attempt.iter().enumerate().skip(1) {
        seen += n;
        if seen >= 0.95 * total * (1.0 - 1e-12) {
            return ttft_ms + (k - 1) as f64 * wait_s * 1e3;
        }
    }
    f64::INFINITY
}

/// The wait a retry adds, seconds: the whole minutes until the minute it comes back in.
pub fn retry_wait_s(api: &HostedApi) -> f64 {
    ((api.retry_delay_s / BUCKET_S).ceil().max(1.0)) * BUCKET_S
}

/// What the run of one hosted platform measured: its outcome, and each service's recorded
/// minutes (those in `record`).
pub struct HostedRun {
    /// The platform's outcome.
    pub outcome: PlatformOutcome,
    /// Each service's minutes asked for, in the scenario's order.
    pub minutes: Vec<Vec<Bucket>>,
}

/// Service `service` on platform `platform_index` (a hosted API) over the day
/// [`crate::model::serving::platform::service_day`] shows: its minutes' requests, dropped
/// requests and TTFT p95; the quota as its capacity line, where it has one (one "replica"
/// admitting the quota's requests a second; none without a quota).
pub fn service_day(
    scenario: &Scenario,
    platform_index: usize,
    service: usize,
    replication: u64,
) -> crate::model::serving::platform::ServiceDay {
    use crate::model::serving::platform::{DayShown, ServiceDay};
    let horizon_s = scenario.horizon_days * DAY_S;
    // The day of the first spike, as on every platform (the plan is the service's own).
    let mut stream = Stream::new(scenario.seed, replication, Purpose::Traffic, service as u64);
    let plan = scenario.services[service]
        .traffic
        .traffic()
        .plan(horizon_s, &mut stream);
    let shown = DayShown::of(&plan, horizon_s);
    let mut minutes = run(
        scenario,
        platform_index,
        replication,
        shown.minutes.clone(),
        shown.until_s,
    )
    .minutes
    .swap_remove(service);
    let api = scenario.platforms[platform_index]
        .hosted_api
        .as_ref()
        .expect("a hosted API");
    let llm = scenario.services[service].llm.as_ref();
    let (input, output) = llm.map_or((0.0, 0.0), Llm::mean_tokens);
    let admitted = api.limit(input, output).requests_admitted();
    let quota = admitted.is_finite();
    for m in &mut minutes {
        m.ready = if quota { 1.0 } else { 0.0 };
    }
    ServiceDay {
        day: shown.day,
        latency_slo_ms: llm.map_or(scenario.services[service].latency_slo_ms, |l| l.ttft_p95_ms),
        capacity_rps: if quota { admitted / BUCKET_S } else { 0.0 },
        spike_minute: shown.spike_minute,
        minutes,
    }
}

/// Platform `platform_index` of `scenario` (a hosted API) in `replication`.
pub fn simulate(scenario: &Scenario, platform_index: usize, replication: u64) -> PlatformOutcome {
    run(scenario, platform_index, replication, 0..0, f64::INFINITY).outcome
}

/// Like [`simulate`], keeping the minutes in `record` (indices) and stopping at `until_s`.
pub fn run(
    scenario: &Scenario,
    platform_index: usize,
    replication: u64,
    record: std::ops::Range<usize>,
    until_s: f64,
) -> HostedRun {
    let platform = &scenario.platforms[platform_index];
    let api = platform
        .hosted_api
        .as_ref()
        .expect("a hosted-API platform (validated)");
    // The traffic of the whole horizon (its spikes as every platform draws them), run up to
    // `until_s`.
    let full_s = scenario.horizon_days * DAY_S;
    let horizon_s = full_s.min(until_s);
    let months = scenario.horizon_days * 24.0 / HOURS_PER_MONTH;
    let services = &scenario.services;
    // Each service's traffic and its arrivals, as every platform draws them.
    let mut streams: Vec<Stream> = Vec::with_capacity(services.len());
    let mut plans = Vec::with_capacity(services.len());
    for (i, service) in services.iter().enumerate() {
        let mut stream = Stream::new(scenario.seed, replication, Purpose::Traffic, i as u64);
        plans.push(service.traffic.traffic().plan(full_s, &mut stream));
        streams.push(stream);
    }
    let mut arrivals: Vec<Arrivals> = plans.iter().map(Arrivals::new).collect();
    // Mean tokens a request (the node platforms' means).
    let tokens: Vec<(f64, f64)> = services
        .iter()
        .map(|s| s.llm.as_ref().map_or((0.0, 0.0), Llm::mean_tokens))
        .collect();
    // The quota counts a request's tokens: the services' mean, weighted by their rates.
    let rates: Vec<f64> = services.iter().map(|s| s.traffic.mean_rps).collect();
    let rate_sum: f64 = rates.iter().sum();
    let weighted = |f: fn(&(f64, f64)) -> f64| {
        if rate_sum > 0.0 {
            tokens
                .iter()
                .zip(&rates)
                .map(|(t, r)| f(t) * r)
                .sum::<f64>()
                / rate_sum
        } else {
            tokens.first().map_or(0.0, f)
        }
    };
    let limit = api.limit(weighted(|t| t.0), weighted(|t| t.1));
    let mut limiter =
        Limiter::new(limit, api.on_refusal()).expect("the settings' ranges are validated");
    let batch = api.batch_share_billed();
    let wait_s = retry_wait_s(api);
    let mut tallies: Vec<Tally> = services.iter().map(|_| Tally::default()).collect();
    let mut minutes: Vec<Vec<Bucket>> = vec![Vec::new(); services.len()];
    let mut arrived = vec![0.0; services.len()];
    // Each service's demand on the quota this minute (its new live requests and its retries
    // due), and its retries to come by minute from now: the limiter refuses every request of
    // a minute in the same share, so each service's part follows its demand.
    let mut demand = vec![0.0; services.len()];
    let mut due: Vec<std::collections::VecDeque<f64>> = vec![Default::default(); services.len()];
    let retry_after = (wait_s / BUCKET_S).round() as usize;
    for b in 0..bucket_count(horizon_s, BUCKET_S) {
        let start = b as f64 * BUCKET_S;
        let len = (horizon_s - start).min(BUCKET_S);
        for (i, a) in arrivals.iter_mut().enumerate() {
            arrived[i] = a.bucket(start, len, &mut streams[i]);
            let live = arrived[i] * (1.0 - batch);
            demand[i] = live + due[i].pop_front().unwrap_or(0.0);
            let t = &mut tallies[i];
            t.arrived += arrived[i];
            t.batch_served += arrived[i] * batch;
        }
        let live_total: f64 = arrived.iter().map(|a| a * (1.0 - batch)).sum();
        let demand_total: f64 = demand.iter().sum();
        let m = limiter.minute(live_total);
        let mut by_attempt = m.admitted_by_attempt;
        by_attempt[0] = m.dropped;
        let minute_ttft = ttft_p95_ms(&by_attempt, api.ttft_p95_ms, wait_s);
        let answered = m.admitted + m.dropped > 0.0;
        let retried = m.refused - m.dropped;
        for (i, t) in tallies.iter_mut().enumerate() {
            let share = if demand_total > 0.0 {
                demand[i] / demand_total
            } else {
                0.0
            };
            t.live_served += m.admitted * share;
            t.refused += m.refused * share;
            t.dropped += m.dropped * share;
            if retried > 0.0 {
                let queue = &mut due[i];
                if queue.len() < retry_after {
                    queue.resize(retry_after, 0.0);
                }
                queue[retry_after - 1] += retried * share;
            }
            for (k, n) in by_attempt.iter().enumerate() {
                t.by_attempt[k] += n * share;
            }
            let objective = services[i]
                .llm
                .as_ref()
                .map(|l| (l.ttft_p95_ms, l.tpot_p95_ms));
            let mut p95_ms = 0.0;
            if let (true, true, Some((ttft_slo, tpot_slo))) = (answered, share > 0.0, objective) {
                p95_ms = minute_ttft;
                let ttft_over = minute_ttft > ttft_slo;
                let tpot_over = m.admitted > 0.0 && api.tpot_p95_ms > tpot_slo;
                let part = len / 60.0;
                if ttft_over {
                    t.ttft_over_minutes += part;
                }
                if tpot_over {
                    t.tpot_over_minutes += part;
                }
                if ttft_over || tpot_over {
                    t.over_minutes += part;
                }
            }
            if record.contains(&b) {
                minutes[i].push(Bucket {
                    p95_ms,
                    parts: [None, None],
                    arrived: arrived[i],
                    dropped: m.dropped * share,
                    ready: 0.0,
                    billed: 0.0,
                });
            }
        }
    }
    let queued: Vec<f64> = due.iter().map(|q| q.iter().sum()).collect();
    let discount = discount_factor(scenario, platform);
    let bills = bills(api, &tallies, &tokens, months);
    let mut outcomes: Vec<ServiceOutcome> = services
        .iter()
        .zip(&tallies)
        .zip(&tokens)
        .zip(&bills)
        .zip(&queued)
        .map(|((((service, t), &(input, output)), &usd), &queued)| {
            let served = t.live_served + t.batch_served;
            let ttft = ttft_p95_ms(&t.by_attempt, api.ttft_p95_ms, wait_s);
            let ttft = Some(ttft).filter(|p| p.is_finite());
            let output_tokens = served * output;
            ServiceOutcome {
                name: service.name.clone(),
                requests: t.arrived,
                requests_dropped: t.dropped,
                requests_queued_at_horizon: queued,
                replica_hours: 0.0,
                slo_violation_minutes: t.over_minutes,
                latency_p95_ms: ttft,
                gpu_seconds: PerCategory::default(),
                gpu_usd: 0.0,
                useful_reference_gpu_hours: 0.0,
                usd_per_million_requests: None,
                llm: service.llm.as_ref().map(|_| LlmOutcome {
                    output_tokens,
                    input_tokens: served * input,
                    output_tokens_per_s: output_tokens / horizon_s.max(1e-9),
                    ttft_p95_ms: ttft,
                    tpot_p95_ms: (t.live_served > 0.0).then_some(api.tpot_p95_ms),
                    ttft_slo_violation_minutes: t.ttft_over_minutes,
                    tpot_slo_violation_minutes: t.tpot_over_minutes,
                    usd_per_million_output_tokens: None,
                    usd_per_million_tokens_blended: None,
                    gpus_per_replica: 0.0,
                    replicas: 0.0,
                }),
                api_usd: usd * discount,
                requests_refused: t.refused,
            }
        })
        .collect();
    let mut breakdown: Breakdown =
        other_monthly_costs(scenario, platform, Transferred::default(), months);
    let api_usd: f64 = outcomes.iter().map(|o| o.api_usd).sum();
    breakdown[Category::ApiUsage] = api_usd / months;
    // The platform's other costs (tools, people, fees) shared pro rata to the bill.
    let other_usd = (breakdown.total() - breakdown[Category::ApiUsage]) * months;
    let n = outcomes.len() as f64;
    for o in &mut outcomes {
        let share = if api_usd > 0.0 {
            o.api_usd / api_usd
        } else {
            1.0 / n
        };
        let usd = o.api_usd + share * other_usd;
        o.price_at(usd);
    }
    let outcome = outcome_of(breakdown, outcomes, months);
    HostedRun { outcome, minutes }
}

/// Each service's bill over the horizon, USD, before any discount: its own tokens at the
/// per-token prices (live ones with the cached share, batched ones at the batch prices), or
/// its share of the provisioned units' bill by the throughput it took.
fn bills(api: &HostedApi, tallies: &[Tally], tokens: &[(f64, f64)], months: f64) -> Vec<f64> {
    if let Some(p) = api.provisioned_bought() {
        let offer = p.offer();
        let total = offer
            .monthly_usd(p.units, p.term)
            .expect("validated units and term")
            * months;
        let loads: Vec<f64> = tallies
            .iter()
            .zip(tokens)
            .map(|(t, &(input, output))| t.live_served * offer.request_load(input, output))
            .collect();
        let sum: f64 = loads.iter().sum();
        let n = loads.len() as f64;
        return loads
            .iter()
            .map(|l| total * if sum > 0.0 { l / sum } else { 1.0 / n })
            .collect();
    }
    let offer = api.token_offer();
    tallies
        .iter()
        .zip(tokens)
        .map(|(t, &(input, output))| {
            let live = TokenMix {
                input_tokens: t.live_served * input,
                output_tokens: t.live_served * output,
                cached_input_share: api.cached_input_share,
                batch_share: 0.0,
            };
            let batched = TokenMix {
                input_tokens: t.batch_served * input,
                output_tokens: t.batch_served * output,
                cached_input_share: 0.0,
                batch_share: 1.0,
            };
            let price = |mix: &TokenMix| offer.cost_usd(mix).expect("validated shares and prices");
            price(&live)
                + if t.batch_served > 0.0 {
                    price(&batched)
                } else {
                    0.0
                }
        })
        .collect()
}

/// The platform's outcome: its bill and its services; no node, job or GPU figure.
fn outcome_of(breakdown: Breakdown, services: Vec<ServiceOutcome>, months: f64) -> PlatformOutcome {
    let mut outcome = PlatformOutcome {
        monthly_tco_usd: breakdown.total(),
        breakdown_usd: breakdown,
        gpu_seconds: PerCategory::default(),
        paid_gpu_seconds: 0.0,
        useful_reference_gpu_hours: 0.0,
        usd_per_useful_gpu_hour: None,
        usd_per_successful_job: None,
        usd_per_million_requests: None,
        usd_per_million_output_tokens: None,
        usd_per_completed_run: None,
        utilization: 0.0,
        jobs_submitted: 0,
        jobs_completed: 0,
        jobs_failed: 0,
        jobs_running: 0,
        jobs_waiting: 0,
        interruptions: 0,
        node_failures: 0,
        peak_nodes: 0,
        queue_wait_mean_s: 0.0,
        queue_wait_p50_s: 0.0,
        queue_wait_p95_s: 0.0,
        queue_wait_for_nodes_mean_s: 0.0,
        queue_wait_image_pull_mean_s: 0.0,
        queue_wait_staging_mean_s: 0.0,
        queue_wait_capacity_mean_s: 0.0,
        queue_wait_provisioning_mean_s: 0.0,
        turnaround_inflation: None,
        events: 0,
        cut_off: false,
        services,
        serving_gpu_usd_per_month: 0.0,
        preemptions: 0,
        service_gpu_hours_without_node: 0.0,
        teams: Vec::new(),
        waiting_cost_usd: 0.0,
        pipelines: Vec::new(),
        orchestration_usd: 0.0,
    };
    outcome.price_the_work(months);
    outcome
}
