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

use super::llm::latency::{LlmLatency, LlmTables};
use super::llm::roofline::Replica;
use super::pool::{desired_replicas, run_pool, Bucket, LlmSpec, PoolOutcome, PoolSpec};
use super::sharing::{slot_of, time_sliced_shares, SharedGpus, Slot, Unheld};
use super::traffic::TrafficPlan;
use crate::model::cost_category::{Category, PerCategory};
use crate::model::rng::{Purpose, Stream};
use crate::model::rounding::round_non_negative;
use crate::model::scenario::gpu_sharing::{mig_profiles, COMPUTE_SLICES};
use crate::model::scenario::{GpuSharing, Llm, Platform, Scenario, Service, Serving, DAY_S};
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
    /// An LLM service's tokens and latencies (absent for other services).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmOutcome>,
    /// On a hosted API: its bill over the horizon, USD (0 on nodes).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub api_usd: f64,
    /// On a hosted API: requests refused by its rate limit (HTTP 429), retries counted each
    /// time (0 on nodes).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub requests_refused: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// An LLM service's figures in one replication.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LlmOutcome {
    /// Output tokens of the requests served (their mean count each).
    pub output_tokens: f64,
    /// Input tokens of the requests served.
    pub input_tokens: f64,
    /// Output tokens served per second over the horizon.
    pub output_tokens_per_s: f64,
    /// TTFT p95 over the requests, ms (`None`: 5 % or more never served).
    pub ttft_p95_ms: Option<f64>,
    /// TPOT p95 over the requests served, ms.
    pub tpot_p95_ms: Option<f64>,
    /// Minutes whose TTFT p95 exceeded its objective.
    pub ttft_slo_violation_minutes: f64,
    /// Minutes whose TPOT exceeded its objective.
    pub tpot_slo_violation_minutes: f64,
    /// What a million output tokens cost, USD (the service's cost as for its requests).
    pub usd_per_million_output_tokens: Option<f64>,
    /// What a million tokens cost, input and output counted together, USD.
    pub usd_per_million_tokens_blended: Option<f64>,
    /// GPUs a replica holds (its tensor parallelism).
    pub gpus_per_replica: f64,
    /// Ready replicas on average over the horizon.
    pub replicas: f64,
}

impl ServiceOutcome {
    /// Sets [`ServiceOutcome::usd_per_million_requests`] given the platform's paid
    /// GPU-seconds and its costs beyond GPU time over the horizon, USD (shared pro rata to
    /// paid GPU time), and the services' GPU-seconds together with the cost of the GPUs they
    /// left empty on their shared GPUs and nodes, USD (shared among the services alone, pro
    /// rata to their own GPU time).
    pub fn price_requests(
        &mut self,
        platform_paid_gpu_s: f64,
        shared_usd: f64,
        services_gpu_s: f64,
        stranded_usd: f64,
    ) {
        let own_s = self.gpu_seconds.values().sum::<f64>();
        let share = |of: f64| if of > 0.0 { own_s / of } else { 0.0 };
        let usd = self.gpu_usd
            + share(platform_paid_gpu_s) * shared_usd
            + share(services_gpu_s) * stranded_usd;
        self.price_at(usd);
    }

    /// Sets the service's prices per million requests and tokens for a cost of `usd` over
    /// the horizon.
    pub fn price_at(&mut self, usd: f64) {
        let served = self.requests - self.requests_dropped - self.requests_queued_at_horizon;
        self.usd_per_million_requests = (served > 0.0).then(|| usd / served * 1e6);
        if let Some(llm) = self.llm.as_mut() {
            let out = llm.output_tokens;
            let all = out + llm.input_tokens;
            llm.usd_per_million_output_tokens = (out > 0.0).then(|| usd / out * 1e6);
            llm.usd_per_million_tokens_blended = (all > 0.0).then(|| usd / all * 1e6);
        }
    }
}

/// The platform's serving behaviour: its own, or its profile's.
pub fn serving_of(platform: &Platform) -> Serving {
    platform
        .serving
        .clone()
        .unwrap_or_else(|| Serving::of_profile(platform.profile.profile()))
}

/// Most replicas of `service` the nodes `platform` may have can hold.
pub fn most_replicas(service: &Service, platform: &Platform) -> u32 {
    let gpus = platform
        .first_pool()
        .max_nodes
        .saturating_mul(platform.first_pool().gpus_per_node);
    let slot = slot_of(service, platform);
    if !shares_nodes(platform) {
        return platform.first_pool().max_nodes / nodes_per_replica(slot, platform);
    }
    match slot {
        Slot::Whole { gpus: per_replica } => gpus / per_replica.max(1),
        slot => gpus.saturating_mul(slot.per_gpu()),
    }
}

/// Whether `platform`'s replicas share nodes: always where they share GPUs (a SageMaker
/// multi-model endpoint too), else its serving setting, else its profile's.
pub fn shares_nodes(platform: &Platform) -> bool {
    platform
        .pools()
        .first()
        .is_some_and(|p| !p.gpu_sharing.is_none())
        || platform
            .serving
            .as_ref()
            .and_then(|s| s.shares_nodes)
            .unwrap_or_else(|| Serving::profile_shares_nodes(platform.profile.profile()))
}

/// Nodes one replica holding `slot` takes on `platform` where replicas do not share nodes
/// (a slice or a share of a GPU still takes a node of its own).
pub fn nodes_per_replica(slot: Slot, platform: &Platform) -> u32 {
    match slot {
        Slot::Whole { gpus } => gpus
            .div_ceil(platform.first_pool().gpus_per_node.max(1))
            .max(1),
        _ => 1,
    }
}

/// A platform's serving settings to edit: its own, its profile's made its own first.
pub fn serving_mut(platform: &mut Platform) -> &mut Serving {
    let profile = platform.profile.profile();
    platform
        .serving
        .get_or_insert_with(|| Serving::of_profile(profile))
}

/// The replicas' behaviour of `service` on `platform`, with `share` of a time-sliced GPU's
/// time left to a replica by its neighbours ([`time_sliced_shares`]; 1 otherwise).
pub fn pool_spec(service: &Service, platform: &Platform, share: f64) -> PoolSpec {
    let serving = serving_of(platform);
    let pull_s = if platform.image_pull_gb_per_s > 0.0 {
        service.image_gb / platform.image_pull_gb_per_s
    } else {
        0.0
    };
    // The platform's node limit bounds the replicas too (each on instances of its own).
    let most = most_replicas(service, platform);
    // The platform's own autoscaling of the service, where it sets one.
    let own = platform.service_settings.get(&service.name);
    let fewest = own
        .and_then(|o| o.min_replicas)
        .unwrap_or(service.min_replicas);
    let target_utilization = own
        .and_then(|o| o.target_utilization)
        .unwrap_or(service.target_utilization);
    let min_replicas = if serving.scale_to_zero {
        fewest
    } else {
        fewest.max(1)
    }
    .min(most);
    let mut capacity_rps = service.capacity_rps
        * platform.first_pool().relative_throughput
        * slot_of(service, platform).throughput(share);
    let mut concurrency = service.concurrency.max(1);
    let mut target_utilization = target_utilization;
    // An LLM: the replica's saturation and batch from its roofline on the pool's GPU, and
    // the autoscaler's target a share of the load at which both objectives are met in steady
    // state (of the saturation, where none is: the objectives are then missed at any load).
    let mut llm = llm_spec(service, platform);
    if let Some(l) = llm.as_mut() {
        let saturation = l.latency.saturation_rps();
        capacity_rps = saturation;
        concurrency = round_non_negative(l.latency.replica().max_batch).max(1.0) as u32;
        let within = l
            .latency
            .rps_within(l.ttft_slo_ms / 1e3, l.tpot_slo_ms / 1e3);
        if within > 0.0 && saturation > 0.0 {
            target_utilization *= within / saturation;
        }
    }
    PoolSpec {
        capacity_rps,
        concurrency,
        // An LLM's minute is drawn against its TTFT objective.
        latency_slo_ms: llm
            .as_ref()
            .map_or(service.latency_slo_ms, |l| l.ttft_slo_ms),
        min_replicas,
        max_replicas: service.max_replicas.min(most).max(min_replicas),
        target_utilization,
        startup_s: serving.scale_up_delay_s
            + platform.provisioning_median_s
            + pull_s
            + service.model_load_s,
        scale_down_cooldown_s: serving.scale_down_cooldown_s,
        metric_period_s: serving.metric_period_s.max(BUCKET_S),
        queue_limit: f64::from(service.queue_per_replica) * f64::from(service.max_replicas),
        initial_replicas: min_replicas,
        llm,
    }
}

/// An LLM service's latency tables on `platform`'s pool GPU, or `None` for a service of
/// measured capacity (or a GPU or model validation refuses).
pub fn llm_spec(service: &Service, platform: &Platform) -> Option<LlmSpec> {
    let llm = service.llm.as_ref()?;
    let pool = platform.first_pool();
    let key = (
        Llm {
            ttft_p95_ms: 0.0,
            tpot_p95_ms: 0.0,
            ..llm.clone()
        },
        pool.gpu_model.clone(),
        pool.gpu_memory_gb.to_bits(),
    );
    let tables = LlmTables::shared(key, || llm_replica(llm, platform))?;
    Some(LlmSpec {
        latency: LlmLatency::new(tables),
        ttft_slo_ms: llm.ttft_p95_ms,
        tpot_slo_ms: llm.tpot_p95_ms,
    })
}

/// A replica of `llm` on `platform`'s pool GPU (the pool's own memory figure).
pub fn llm_replica(llm: &Llm, platform: &Platform) -> Option<Replica> {
    llm.replica(&platform.first_pool().gpu()?).ok()
}

/// A platform's services in one replication.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Served {
    /// Each service, in the scenario's order.
    pub services: Vec<ServiceOutcome>,
    /// GPU-seconds of shared GPUs that no replica's slot held (MIG slices or time-sliced
    /// shares left empty): GPU-sharing loss of the platform, not of a service.
    pub unheld_gpu_s: f64,
    /// GPU-seconds of the replicas' nodes that no replica held (where replicas pack nodes of
    /// several GPUs): idle time of the platform, not of a service.
    pub idle_node_gpu_s: f64,
    /// GPU-seconds of time-sliced GPUs' empty shares that busy replicas used beyond their
    /// own share (less the context switches, which stay GPU-sharing loss): useful compute of
    /// the platform.
    pub borrowed_useful_gpu_s: f64,
}

/// Every service of `scenario` on `platform` in `replication`, its GPU time at
/// `usd_per_gpu_s` (the on-demand price per GPU-second of the pool they run on). `platform`
/// is the platform as its services see it ([`Platform::services_view`]): here, as in the rest
/// of this module, its first pool is theirs. Where replicas share
/// nodes, they pack the platform's nodes together (a node paid whole); elsewhere each holds
/// nodes of its own.
pub fn serve_on_platform(
    scenario: &Scenario,
    platform: &Platform,
    replication: u64,
    usd_per_gpu_s: f64,
) -> Served {
    // Nothing to serve: nothing to lay out per minute (a month of buckets, allocated and
    // cleared per platform and replication, was most of a training-only run's overhead here).
    if scenario.services.is_empty() {
        return Served::default();
    }
    serve(scenario, platform, replication, usd_per_gpu_s, false).0
}

/// Whether `platform`'s replicas take their GPUs on the nodes its training jobs run on, in
/// the same simulation ([`Serving::shares_nodes_with_training`], where replicas share nodes).
pub fn shares_training_nodes(platform: &Platform) -> bool {
    platform
        .serving
        .as_ref()
        .is_some_and(|s| s.shares_nodes_with_training)
        && shares_nodes(platform)
}

/// The GPUs a platform's services hold, over time, as the training simulation places them
/// on its nodes: units of one replica's GPUs (or of one shared GPU, for slices and shares).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServiceDemand {
    /// The GPUs of a unit, per size class.
    pub sizes: Vec<u32>,
    /// (time s, size class, units of that class from then on), in time order; at one time,
    /// the size classes in order.
    pub changes: Vec<(i64, u16, u32)>,
}

/// Like [`serve_on_platform`], for a platform whose replicas share its training nodes
/// ([`shares_training_nodes`]): the services' outcomes (their nodes' idle GPUs are the
/// training simulation's to count, not theirs) and the GPUs they hold bucket by bucket.
pub fn serve_on_training_nodes(
    scenario: &Scenario,
    platform: &Platform,
    replication: u64,
    usd_per_gpu_s: f64,
) -> (Served, ServiceDemand) {
    serve(scenario, platform, replication, usd_per_gpu_s, true)
}

fn serve(
    scenario: &Scenario,
    platform: &Platform,
    replication: u64,
    usd_per_gpu_s: f64,
    on_training_nodes: bool,
) -> (Served, ServiceDemand) {
    let horizon_s = scenario.horizon_days * DAY_S;
    let shares = time_sliced_shares(&scenario.services, platform);
    let packed = shares_nodes(platform);
    let slots: Vec<Slot> = scenario
        .services
        .iter()
        .map(|s| slot_of(s, platform))
        .collect();
    let shared_slots = packed && slots.iter().any(|s| !matches!(s, Slot::Whole { .. }));
    // On training's nodes, the training simulation packs the nodes.
    let pack_nodes = packed && platform.first_pool().gpus_per_node > 1 && !on_training_nodes;
    let buckets = if shared_slots || pack_nodes || on_training_nodes {
        super::pool::bucket_count(horizon_s, BUCKET_S)
    } else {
        0
    };
    let mut shared = SharedGpus::new(platform, buckets, pack_nodes);
    // On training's nodes: replicas of whole GPUs per bucket, by their GPUs.
    let mut whole_sizes: Vec<u32> = Vec::new();
    if on_training_nodes {
        for slot in &slots {
            if let Slot::Whole { gpus } = *slot {
                if !whole_sizes.contains(&gpus) {
                    whole_sizes.push(gpus);
                }
            }
        }
        whole_sizes.sort_unstable();
    }
    let mut by_size = vec![vec![0u64; buckets]; whole_sizes.len()];
    let mut services = Vec::with_capacity(scenario.services.len());
    let mut odd_gpu_s = 0.0;
    let (mut borrowed_s, mut loss) = (0.0, 0.0);
    for (i, service) in scenario.services.iter().enumerate() {
        let (spec, plan, mut stream) = prepare(scenario, platform, replication, i, shares[i]);
        let held = match slots[i] {
            _ if !packed => None,
            Slot::Whole { gpus } if on_training_nodes => {
                let k = whole_sizes.iter().position(|&g| g == gpus).unwrap_or(0);
                by_size.get_mut(k).map(|counts| (&mut counts[..], 1))
            }
            Slot::Whole { gpus } if pack_nodes => Some((
                &mut shared.whole[..],
                u64::from(node_share(gpus, platform.first_pool().gpus_per_node)),
            )),
            Slot::Whole { .. } => None,
            Slot::Mig { profile, .. } => Some((&mut shared.mig[profile][..], 1)),
            Slot::TimeSliced { milli, .. } => Some((&mut shared.milli[..], u64::from(milli))),
        };
        let run = run_pool(&spec, &plan, horizon_s, BUCKET_S, &mut stream, 0..0, held);
        // A replica pays its slot where replicas share nodes, else its own nodes whole.
        let paid_gpus = if packed {
            slots[i].gpus()
        } else {
            f64::from(nodes_per_replica(slots[i], platform) * platform.first_pool().gpus_per_node)
        };
        // A time-sliced replica busy beyond its own share of the GPU did that work in time
        // its neighbours left: time that is not lost to sharing but useful.
        if let Slot::TimeSliced {
            context_switch_loss,
            ..
        } = slots[i]
        {
            let work_s =
                run.served / (service.capacity_rps * platform.first_pool().relative_throughput);
            let own_s = run.ready_replica_hours * 3_600.0 * slots[i].gpus();
            borrowed_s += (work_s / (1.0 - context_switch_loss) - own_s).max(0.0);
            loss = context_switch_loss;
        }
        // A node holds ⌊GPUs per node ÷ its GPUs⌋ of its replicas: the rest of its node
        // share is idle (three 3-GPU replicas on 4-GPU nodes take three nodes).
        if let (true, Slot::Whole { gpus }) = (pack_nodes, slots[i]) {
            let extra = node_share(gpus, platform.first_pool().gpus_per_node) - gpus;
            odd_gpu_s += f64::from(extra) * run.replica_hours * 3_600.0;
        }
        services.push(outcome_of(
            service,
            platform,
            slots[i],
            paid_gpus,
            &spec,
            &run,
            usd_per_gpu_s,
        ));
    }
    let compute = mig_compute(platform);
    let unheld = if shared_slots || pack_nodes {
        shared.unheld(BUCKET_S, horizon_s, &compute)
    } else {
        Unheld::default()
    };
    let demand = if on_training_nodes {
        service_demand(&shared, shared_slots, &compute, whole_sizes, &by_size)
    } else {
        ServiceDemand::default()
    };
    // Busy time borrowed from empty shares: useful (less the context switches), not loss.
    let borrowed_s = borrowed_s.min(unheld.slots_gpu_s);
    let served = Served {
        services,
        unheld_gpu_s: unheld.slots_gpu_s - borrowed_s * (1.0 - loss),
        borrowed_useful_gpu_s: borrowed_s * (1.0 - loss),
        idle_node_gpu_s: unheld.node_gpu_s + odd_gpu_s,
    };
    (served, demand)
}

/// The units the services hold, as changes over time: each size of whole-GPU replicas
/// (`whole_sizes`, with their replicas per bucket in `by_size`), then the shared GPUs the
/// slices or shares occupy (one GPU a unit), where there are any.
fn service_demand(
    shared: &SharedGpus,
    shared_slots: bool,
    compute: &[u32],
    whole_sizes: Vec<u32>,
    by_size: &[Vec<u64>],
) -> ServiceDemand {
    let mut sizes = whole_sizes;
    let mut counts: Vec<Vec<u64>> = by_size.to_vec();
    if shared_slots {
        sizes.push(1);
        counts.push(shared.gpus_per_bucket(compute));
    }
    let buckets = counts.first().map_or(0, Vec::len);
    let mut changes = Vec::new();
    let mut now = vec![0u64; sizes.len()];
    for b in 0..buckets {
        for (k, per_bucket) in counts.iter().enumerate() {
            if per_bucket[b] != now[k] {
                now[k] = per_bucket[b];
                let units = u32::try_from(per_bucket[b]).unwrap_or(u32::MAX);
                changes.push(((b as f64 * BUCKET_S) as i64, k as u16, units));
            }
        }
    }
    ServiceDemand { sizes, changes }
}

/// The GPUs of a node a replica of `gpus` GPUs takes where replicas pack nodes of
/// `gpus_per_node`: a node holds ⌊gpus_per_node ÷ gpus⌋ of them, so each takes that share.
pub fn node_share(gpus: u32, gpus_per_node: u32) -> u32 {
    let per_node = (gpus_per_node / gpus.max(1)).max(1);
    gpus_per_node.max(1) / per_node
}

/// Each MIG profile's compute slices, in the layout's (name) order.
fn mig_compute(platform: &Platform) -> Vec<u32> {
    match &platform.first_pool().gpu_sharing {
        GpuSharing::Mig { layout } => {
            let profiles = mig_profiles(&platform.first_pool().gpu_model).unwrap_or(&[]);
            layout
                .keys()
                .map(|name| {
                    profiles
                        .iter()
                        .find(|p| p.name == name)
                        .map_or(COMPUTE_SLICES, |p| p.compute)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Service `i`'s replicas on `platform` (with `share` of a time-sliced GPU), its traffic in
/// `replication`, and the stream its arrivals then draw from.
fn prepare(
    scenario: &Scenario,
    platform: &Platform,
    replication: u64,
    i: usize,
    share: f64,
) -> (PoolSpec, TrafficPlan, Stream) {
    let service = &scenario.services[i];
    let horizon_s = scenario.horizon_days * DAY_S;
    let mut stream = Stream::new(scenario.seed, replication, Purpose::Traffic, i as u64);
    let plan = service.traffic.traffic().plan(horizon_s, &mut stream);
    let mut spec = pool_spec(service, platform, share);
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
    if scenario.platforms[platform].hosted_api.is_some() {
        return crate::model::hosted_api::serve::service_day(
            scenario,
            platform,
            service,
            replication,
        );
    }
    // The services as the platform runs them.
    let scenario = &*scenario.simulated_on(platform);
    let view = scenario.platforms[platform].services_view(scenario);
    let platform = &*view;
    let share = time_sliced_shares(&scenario.services, platform)[service];
    let (spec, plan, mut stream) = prepare(scenario, platform, replication, service, share);
    let shown = DayShown::of(&plan, scenario.horizon_days * DAY_S);
    let run = run_pool(
        &spec,
        &plan,
        shown.until_s,
        BUCKET_S,
        &mut stream,
        shown.minutes.clone(),
        None,
    );
    ServiceDay {
        day: shown.day,
        latency_slo_ms: spec.latency_slo_ms,
        capacity_rps: spec.capacity_rps,
        spike_minute: shown.spike_minute,
        minutes: run.buckets,
    }
}

/// The day [`service_day`] shows, on every platform alike (the traffic's spikes do not
/// depend on the platform).
#[derive(Debug, Clone, PartialEq)]
pub struct DayShown {
    /// The day (0 is the horizon's first).
    pub day: u32,
    /// Its minutes, as bucket indices from the horizon's start.
    pub minutes: std::ops::Range<usize>,
    /// Where the simulation of it stops: the day's end, or the horizon's.
    pub until_s: f64,
    /// The minute of the day at which its first spike starts, if it has one.
    pub spike_minute: Option<usize>,
}

impl DayShown {
    /// The day of the first spike of `plan` if it starts in the first [`DAY_CHART_DAYS`]
    /// days (the chart is simulated on the page's main thread, from the horizon's start to
    /// the end of the day it shows), else the first, within `horizon_s`.
    pub fn of(plan: &TrafficPlan, horizon_s: f64) -> DayShown {
        let last_day = ((horizon_s / DAY_S).ceil() as u32).saturating_sub(1);
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
        DayShown {
            day,
            minutes: from..from + per_day,
            until_s: (f64::from(day + 1) * DAY_S).min(horizon_s),
            spike_minute: spike
                .map(|s| ((s - f64::from(day) * DAY_S) / BUCKET_S).floor() as usize)
                .filter(|&m| m < per_day),
        }
    }
}

/// GPU time and figures of a pool run, each replica holding `slot` and paying `paid_gpus`
/// (its slot, or the nodes it holds alone: their GPUs beyond its slot are its idle time).
fn outcome_of(
    service: &Service,
    platform: &Platform,
    slot: Slot,
    paid_gpus: f64,
    spec: &PoolSpec,
    run: &PoolOutcome,
    usd_per_gpu_s: f64,
) -> ServiceOutcome {
    let gpus = slot.gpus();
    let billed_s = run.replica_hours * 3_600.0 * paid_gpus;
    let ready_s = run.ready_replica_hours * 3_600.0 * paid_gpus;
    // A replica is busy serving for 1 ÷ capacity seconds a request, on its GPUs or slice. A
    // time-sliced replica has the whole GPU while it serves: a request takes 1 ÷ (the
    // measured capacity) of the GPU's time, and context switches a share on top, within the
    // replica's own share of the GPU (work beyond it is done in its neighbours' idle shares,
    // and stays idle in their accounts).
    let (busy_s, switching_s) = match slot {
        Slot::TimeSliced {
            context_switch_loss,
            ..
        } => {
            let work_s =
                run.served / (service.capacity_rps * platform.first_pool().relative_throughput);
            let busy_s = (work_s / (1.0 - context_switch_loss)).min(ready_s);
            (busy_s, busy_s * context_switch_loss)
        }
        _ => ((run.served / spec.capacity_rps * gpus).min(ready_s), 0.0),
    };
    let mut gpu_seconds = PerCategory::default();
    gpu_seconds[Category::UsefulCompute] = busy_s - switching_s;
    gpu_seconds[Category::GpuSharingLoss] = switching_s;
    gpu_seconds[Category::Idle] = ready_s - busy_s;
    gpu_seconds[Category::ProvisioningAndPulls] = billed_s - ready_s;
    // The work done, in reference-GPU time: on whole GPUs, their busy time at the GPU's
    // speed; on a slice or a time-sliced share, the requests at a whole reference GPU's
    // measured rate.
    let useful_reference_gpu_hours = match slot {
        Slot::Whole { .. } => busy_s / 3_600.0 * platform.first_pool().relative_throughput,
        _ => run.served / service.capacity_rps / 3_600.0,
    };
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
        useful_reference_gpu_hours,
        usd_per_million_requests: None,
        api_usd: 0.0,
        requests_refused: 0.0,
        llm: run.llm.zip(spec.llm.as_ref()).map(|(r, l)| {
            let replica = l.latency.replica();
            let served = run.served;
            let horizon_s = run.horizon_s.max(1e-9);
            let output_tokens = served * replica.output.mean();
            LlmOutcome {
                output_tokens,
                input_tokens: served * replica.input.mean(),
                output_tokens_per_s: output_tokens / horizon_s,
                ttft_p95_ms: Some(r.ttft_p95_ms).filter(|p| p.is_finite()),
                tpot_p95_ms: Some(r.tpot_p95_ms).filter(|p| p.is_finite()),
                ttft_slo_violation_minutes: r.ttft_slo_violation_minutes,
                tpot_slo_violation_minutes: r.tpot_slo_violation_minutes,
                usd_per_million_output_tokens: None,
                usd_per_million_tokens_blended: None,
                gpus_per_replica: gpus,
                replicas: run.ready_replica_hours * 3_600.0 / horizon_s,
            }
        }),
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
            let (spec, plan, mut stream) = prepare(&s, &s.platforms[0], r, 0, 1.0);
            let all = run_pool(
                &spec,
                &plan,
                10.0 * DAY_S,
                BUCKET_S,
                &mut stream,
                0..usize::MAX,
                None,
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
