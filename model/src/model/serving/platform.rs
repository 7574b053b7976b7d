//! A scenario's services on one platform in one replication: each service runs on replicas
//! of its own ([`super::pool`]), an instance's GPUs per replica, at the platform's on-demand
//! price per GPU-second. Services do not share nodes with each other or with training jobs
//! yet: a new replica waits for the platform's scale-up delay, a node (its median
//! provisioning time), the image pull and the model load.
//!
//! The GPU time of a service is charged like training's: busy serving is useful compute,
//! ready replicas above the load are idle, start-ups are provisioning and pulls.
//!
//! Traffic and arrivals draw from a stream keyed on the service, not the platform, so every
//! platform sees the same spikes and the same requests (common random numbers).

use super::pool::{desired_replicas, run_pool, Bucket, PoolOutcome, PoolSpec};
use super::traffic::TrafficPlan;
use crate::model::cost_category::{Category, PerCategory};
use crate::model::rng::{Purpose, Stream};
use crate::model::scenario::{Platform, Scenario, Service, Serving, DAY_S};
use serde::{Deserialize, Serialize};

/// Seconds per traffic bucket.
pub const BUCKET_S: f64 = 60.0;

/// One service on one platform in one replication.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServiceOutcome {
    /// The service's name.
    pub name: String,
    /// Requests that arrived.
    pub requests: f64,
    /// Requests dropped (the queue was full).
    pub requests_dropped: f64,
    /// Requests still queued at the horizon.
    pub requests_queued_at_horizon: f64,
    /// Replica-hours billed.
    pub replica_hours: f64,
    /// Minutes whose p95 latency exceeded the objective.
    pub slo_violation_minutes: f64,
    /// p95 latency of the horizon's requests, milliseconds (dropped ones as never served);
    /// `None` when 5 % or more were dropped or found no replica (no finite p95: every
    /// number an outcome carries is finite, as the page's workers send them as JSON).
    pub latency_p95_ms: Option<f64>,
    /// Paid GPU-seconds by GPU-time category.
    pub gpu_seconds: PerCategory<f64>,
    /// The GPU time's cost over the horizon, USD.
    pub gpu_usd: f64,
    /// Useful reference-GPU-hours (busy serving, on the reference GPU's scale).
    pub useful_reference_gpu_hours: f64,
    /// What a million served requests cost: the service's own GPU time plus its share of
    /// the platform's costs beyond GPU time (fees, egress, storage, people, tools), pro rata
    /// to its paid GPU-hours; `None` when no request was served.
    pub usd_per_million_requests: Option<f64>,
}

impl ServiceOutcome {
    /// Sets [`ServiceOutcome::usd_per_million_requests`] given the platform's paid
    /// GPU-seconds and its costs beyond GPU time over the horizon, USD.
    pub fn price_requests(&mut self, platform_paid_gpu_s: f64, shared_usd: f64) {
        let own_s = self.gpu_seconds.values().sum::<f64>();
        let share = if platform_paid_gpu_s > 0.0 {
            own_s / platform_paid_gpu_s
        } else {
            0.0
        };
        let served = self.requests - self.requests_dropped - self.requests_queued_at_horizon;
        self.usd_per_million_requests =
            (served > 0.0).then(|| (self.gpu_usd + share * shared_usd) / served * 1e6);
    }
}

/// The platform's serving behaviour: its own, or its profile's.
pub fn serving_of(platform: &Platform) -> Serving {
    platform
        .serving
        .clone()
        .unwrap_or_else(|| Serving::of_profile(platform.profile.profile()))
}

/// What the model changes of a scenario's services, in words: a service runs no more
/// replicas than a platform's node limit holds, and one that may scale to zero (fewest
/// replicas 0) keeps one replica on a platform that cannot scale to zero.
pub fn serving_notices(scenario: &Scenario) -> Vec<String> {
    let mut notices = Vec::new();
    for service in &scenario.services {
        for p in &scenario.platforms {
            let most = most_replicas(service, p);
            if service.max_replicas > most || service.min_replicas > most {
                notices.push(format!(
                    "{} runs at most {most} replicas on {}: its node limit is {} nodes of {} GPUs (max_nodes)",
                    service.name, p.name, p.max_nodes, p.gpus_per_node
                ));
            }
        }
    }
    for service in scenario.services.iter().filter(|s| s.min_replicas == 0) {
        let kept: Vec<&str> = scenario
            .platforms
            .iter()
            .filter(|p| !serving_of(p).scale_to_zero)
            .map(|p| p.name.as_str())
            .collect();
        if !kept.is_empty() {
            notices.push(format!(
                "{} keeps 1 replica on {}: the platform cannot scale to zero (its serving.scale_to_zero is off)",
                service.name,
                kept.join(", ")
            ));
        }
    }
    notices
}

/// Most replicas of `service` the nodes `platform` may have can hold.
pub fn most_replicas(service: &Service, platform: &Platform) -> u32 {
    platform.max_nodes.saturating_mul(platform.gpus_per_node) / service.gpus_per_replica.max(1)
}

/// A platform's serving settings to edit: its own, its profile's made its own first.
pub fn serving_mut(platform: &mut Platform) -> &mut Serving {
    let profile = platform.profile.profile();
    platform
        .serving
        .get_or_insert_with(|| Serving::of_profile(profile))
}

/// The replicas' behaviour of `service` on `platform`.
pub fn pool_spec(service: &Service, platform: &Platform) -> PoolSpec {
    let serving = serving_of(platform);
    let pull_s = if platform.image_pull_gb_per_s > 0.0 {
        service.image_gb / platform.image_pull_gb_per_s
    } else {
        0.0
    };
    // The platform's node limit bounds the replicas too (each on instances of its own).
    let most = most_replicas(service, platform);
    let min_replicas = if serving.scale_to_zero {
        service.min_replicas
    } else {
        service.min_replicas.max(1)
    }
    .min(most);
    PoolSpec {
        capacity_rps: service.capacity_rps * platform.relative_throughput,
        concurrency: service.concurrency.max(1),
        latency_slo_ms: service.latency_slo_ms,
        min_replicas,
        max_replicas: service.max_replicas.min(most).max(min_replicas),
        target_utilization: service.target_utilization,
        startup_s: serving.scale_up_delay_s
            + platform.provisioning_median_s
            + pull_s
            + service.model_load_s,
        scale_down_cooldown_s: serving.scale_down_cooldown_s,
        metric_period_s: serving.metric_period_s.max(BUCKET_S),
        queue_limit: f64::from(service.queue_per_replica) * f64::from(service.max_replicas),
        initial_replicas: min_replicas,
    }
}

/// Every service of `scenario` on `platform` in `replication`, its GPU time at
/// `usd_per_gpu_s` (the platform's on-demand price per GPU-second).
pub fn serve_on_platform(
    scenario: &Scenario,
    platform: &Platform,
    replication: u64,
    usd_per_gpu_s: f64,
) -> Vec<ServiceOutcome> {
    let horizon_s = scenario.horizon_days * DAY_S;
    (0..scenario.services.len())
        .map(|i| {
            let service = &scenario.services[i];
            let (spec, plan, mut stream) = prepare(scenario, platform, replication, i);
            let run = run_pool(&spec, &plan, horizon_s, BUCKET_S, &mut stream, 0..0);
            outcome_of(service, platform, &spec, &run, usd_per_gpu_s)
        })
        .collect()
}

/// Service `i`'s replicas on `platform`, its traffic in `replication`, and the stream its
/// arrivals then draw from.
fn prepare(
    scenario: &Scenario,
    platform: &Platform,
    replication: u64,
    i: usize,
) -> (PoolSpec, TrafficPlan, Stream) {
    let service = &scenario.services[i];
    let horizon_s = scenario.horizon_days * DAY_S;
    let mut stream = Stream::new(scenario.seed, replication, Purpose::Traffic, i as u64);
    let plan = service.traffic.traffic().plan(horizon_s, &mut stream);
    let mut spec = pool_spec(service, platform);
    // The service is running when the horizon starts: with the replicas its traffic then
    // asks for.
    spec.initial_replicas = desired_replicas(&spec, plan.rate_at(0.0));
    (spec, plan, stream)
}

/// The days [`service_day`] looks for a spike in (it simulates up to the day it shows).
pub const DAY_CHART_DAYS: u32 = 31;

/// One day of one service on one platform, minute by minute: the picture of the autoscaler
/// following the traffic.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceDay {
    /// The day shown (0 is the horizon's first): the one in which the first spike starts if
    /// it starts in the first [`DAY_CHART_DAYS`] days, else the first.
    pub day: u32,
    /// The latency objective, ms.
    pub latency_slo_ms: f64,
    /// Requests per second one replica sustains on the platform.
    pub capacity_rps: f64,
    /// The minute of the day at which its first spike starts, if it has one.
    pub spike_minute: Option<usize>,
    /// Its minutes, in order: arrivals, ready and billed replicas, p95 latency (ms; infinite
    /// when requests found no replica), dropped requests.
    pub minutes: Vec<Bucket>,
}

/// Service `service` on platform `platform` of `scenario` in `replication`, over the day
/// of its first spike (the same day on every platform: the traffic's spikes do not depend
/// on the platform). Simulates only up to that day's end.
pub fn service_day(
    scenario: &Scenario,
    platform: usize,
    service: usize,
    replication: u64,
) -> ServiceDay {
    let platform = &scenario.platforms[platform];
    let (spec, plan, mut stream) = prepare(scenario, platform, replication, service);
    let horizon_s = scenario.horizon_days * DAY_S;
    let last_day = ((horizon_s / DAY_S).ceil() as u32).saturating_sub(1);
    // Only a spike in the first DAY_CHART_DAYS days: the chart is simulated on the page's
    // main thread, from the horizon's start to the end of the day it shows.
    let spike = plan
        .spikes()
        .first()
        .map(|s| s.0)
        .filter(|&s| s < f64::from(DAY_CHART_DAYS) * DAY_S);
    let day = spike
        .map_or(0, |s| (s / DAY_S).floor() as u32)
        .min(last_day);
    let per_day = (DAY_S / BUCKET_S) as usize;
    let from = day as usize * per_day;
    let until_s = (f64::from(day + 1) * DAY_S).min(horizon_s);
    let run = run_pool(
        &spec,
        &plan,
        until_s,
        BUCKET_S,
        &mut stream,
        from..from + per_day,
    );
    ServiceDay {
        day,
        latency_slo_ms: spec.latency_slo_ms,
        capacity_rps: spec.capacity_rps,
        spike_minute: spike
            .map(|s| ((s - f64::from(day) * DAY_S) / BUCKET_S).floor() as usize)
            .filter(|&m| m < per_day),
        minutes: run.buckets,
    }
}

/// GPU time and figures of a pool run.
fn outcome_of(
    service: &Service,
    platform: &Platform,
    spec: &PoolSpec,
    run: &PoolOutcome,
    usd_per_gpu_s: f64,
) -> ServiceOutcome {
    let gpus = f64::from(service.gpus_per_replica);
    let billed_s = run.replica_hours * 3_600.0 * gpus;
    let ready_s = run.ready_replica_hours * 3_600.0 * gpus;
    // A replica is busy serving for 1 ÷ capacity seconds a request.
    let busy_s = (run.served / spec.capacity_rps * gpus).min(ready_s);
    let mut gpu_seconds = PerCategory::default();
    gpu_seconds[Category::UsefulCompute] = busy_s;
    gpu_seconds[Category::Idle] = ready_s - busy_s;
    gpu_seconds[Category::ProvisioningAndPulls] = billed_s - ready_s;
    ServiceOutcome {
        name: service.name.clone(),
        requests: run.arrived,
        requests_dropped: run.dropped,
        requests_queued_at_horizon: run.queued_at_horizon,
        replica_hours: run.replica_hours,
        slo_violation_minutes: run.slo_violation_minutes,
        latency_p95_ms: Some(run.latency_p95_ms).filter(|p| p.is_finite()),
        gpu_seconds,
        gpu_usd: billed_s * usd_per_gpu_s,
        useful_reference_gpu_hours: busy_s / 3_600.0 * platform.relative_throughput,
        usd_per_million_requests: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_day_shown_is_the_same_minutes_as_the_whole_run() {
        // Recording a window and stopping at its day's end change nothing: the day's
        // minutes are those of a run of the whole horizon that records every minute.
        let mut s = Scenario::default();
        s.services.push(Service::default());
        s.services[0].traffic.mean_rps = 5.0;
        s.services[0].traffic.spikes = Some(crate::model::scenario::ServiceSpikes {
            per_month: 8.0,
            factor: 6.0,
            duration_min: 45.0,
        });
        s.horizon_days = 10.0;
        for r in 0..4 {
            let day = service_day(&s, 0, 0, r);
            let (spec, plan, mut stream) = prepare(&s, &s.platforms[0], r, 0);
            let all = run_pool(
                &spec,
                &plan,
                10.0 * DAY_S,
                BUCKET_S,
                &mut stream,
                0..usize::MAX,
            );
            let from = day.day as usize * 1_440;
            assert_eq!(
                day.minutes,
                all.buckets[from..from + 1_440],
                "replication {r}"
            );
        }
    }
}
