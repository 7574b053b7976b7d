//! A service on replicas of its own (an instance per replica, as a single-model endpoint
//! runs), advanced in fixed buckets of time rather than request by request.
//!
//! Each bucket:
//! 1. replicas whose start-up has ended join the ready ones (their capacity pro-rated over
//!    the bucket);
//! 2. a Poisson count of requests arrives at the traffic's mean rate over the bucket;
//! 3. the ready capacity serves the backlog and the arrivals, first come first served; what
//!    it cannot serve waits (up to the queue limit) and carries into the next bucket; beyond
//!    the limit it is dropped (a dropped request counts as never served: in the p95, and its
//!    bucket misses the objective when 5 % or more of its requests were dropped);
//! 4. the bucket's latency: with no backlog, that of M/M/c ([`super::queueing`]) with
//!    `concurrency` servers per ready replica; with a backlog, a request waits for the
//!    requests ahead of it, which grow or shrink linearly over the bucket (fluid), plus its
//!    own service. A backlog that drains within the bucket does so at the capacity beyond the
//!    arrivals: the requests before it has drained wait behind it, those after see M/M/c.
//!    With no replica ready or starting (scaled to zero), requests wait for the next
//!    decision of the autoscaler and the start-up of the replicas it then asks for (from
//!    the period's requests, those to come at the current rate, and as many waiting); with
//!    none ready at a bucket's start, the requests before the first replica joins wait (the
//!    queue's overflow is dropped). A horizon that is not a whole number of buckets ends
//!    with a shorter one;
//! 5. at each autoscaler period, the autoscaler sets the replicas from the load it saw: the
//!    arrival rate over the period plus the backlog to clear in one period, over
//!    target utilisation × a replica's capacity, within [min, max]. New replicas serve after
//!    the start-up delay (billed from the request); fewer replicas are removed only once the
//!    recommendation has stayed lower for the cooldown (the highest recommendation over the
//!    cooldown window counts, as Kubernetes' stabilisation window does), pending ones first.
//!
//! A run's p95 is that of all its requests ([`super::mixture`]).

use super::llm::latency::LlmLatency;
use super::mixture::{p95_s_of, Mixture, Part};
use super::queueing::{Latency, P95_TAIL};
use super::traffic::{Poisson, TrafficPlan};
use crate::model::rng::Stream;
use crate::model::rounding::{ceil_non_negative, floor_non_negative, round_non_negative};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::ops::Range;

/// Steps of utilisation (λ ÷ cμ) on which a steady bucket's M/M/c latency is computed: the
/// bucket takes the nearest, so its utilisation is off by at most 1/8192 (the p95's error,
/// tested, is under 0.5 % up to 98 % utilisation).
pub const RHO_STEPS: f64 = 4096.0;

/// A service and its replicas' behaviour, in the platform's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolSpec {
    /// Requests per second one replica sustains on this platform.
    pub capacity_rps: f64,
    /// Requests a replica serves at once.
    pub concurrency: u32,
    /// p95 latency objective, milliseconds.
    pub latency_slo_ms: f64,
    /// Fewest replicas (0: scale to zero).
    pub min_replicas: u32,
    /// Most replicas.
    pub max_replicas: u32,
    /// Target utilisation of the autoscaler (0–1].
    pub target_utilization: f64,
    /// From the autoscaler's decision to a new replica serving, seconds (scale-up delay,
    /// provisioning, image pull and model load together).
    pub startup_s: f64,
    /// How long a lower recommendation must hold before replicas are removed, seconds.
    pub scale_down_cooldown_s: f64,
    /// Seconds between the autoscaler's decisions (a multiple of the bucket).
    pub metric_period_s: f64,
    /// Requests that may wait; more are dropped.
    pub queue_limit: f64,
    /// Replicas serving at the start.
    pub initial_replicas: u32,
    /// An LLM service's latency by load and its objectives (absent: a service of measured
    /// capacity, whose bucket misses its objective on the M/M/c p95).
    pub llm: Option<LlmSpec>,
}

/// An LLM service's figures for the pool: its TTFT and TPOT by load, and their objectives.
#[derive(Debug, Clone)]
pub struct LlmSpec {
    /// TTFT and TPOT by load ([`LlmLatency`]).
    pub latency: LlmLatency,
    /// TTFT objective at the p95, ms.
    pub ttft_slo_ms: f64,
    /// TPOT objective at the p95, ms.
    pub tpot_slo_ms: f64,
}

impl PartialEq for LlmSpec {
    fn eq(&self, other: &Self) -> bool {
        self.ttft_slo_ms == other.ttft_slo_ms
            && self.tpot_slo_ms == other.tpot_slo_ms
            && self.latency.replica() == other.latency.replica()
    }
}

/// An LLM service's run: its requests' TTFT and TPOT.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LlmRun {
    /// TTFT p95 over the run's requests (dropped ones as never served), ms.
    pub ttft_p95_ms: f64,
    /// TPOT p95 over the run's served requests, ms.
    pub tpot_p95_ms: f64,
    /// Minutes whose TTFT p95 exceeded its objective.
    pub ttft_slo_violation_minutes: f64,
    /// Minutes whose TPOT exceeded its objective.
    pub tpot_slo_violation_minutes: f64,
}

/// What a run of the pool gave.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PoolOutcome {
    /// Requests that arrived.
    pub arrived: f64,
    /// Requests served.
    pub served: f64,
    /// Requests dropped (the queue was full).
    pub dropped: f64,
    /// Requests still queued at the horizon.
    pub queued_at_horizon: f64,
    /// Replica-hours billed (from each replica's request to its removal).
    pub replica_hours: f64,
    /// Replica-hours ready to serve.
    pub ready_replica_hours: f64,
    /// Minutes whose bucket's p95 latency exceeded the objective.
    pub slo_violation_minutes: f64,
    /// The p95 latency of all the requests (dropped ones as never served), ms.
    pub latency_p95_ms: f64,
    /// The buckets asked for (`record` of [`run_pool`]), in order.
    pub buckets: Vec<Bucket>,
    /// An LLM service's TTFT and TPOT (absent for other services).
    pub llm: Option<LlmRun>,
    /// The horizon run, seconds.
    pub horizon_s: f64,
}

/// One bucket of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bucket {
    /// Its p95 latency, milliseconds (0 without requests; infinite when 5 % or more of its
    /// requests were dropped or found no replica).
    pub p95_ms: f64,
    /// Its requests' latencies: up to two distributions (the backlog's, then M/M/c's once
    /// the backlog has drained), each with its requests.
    pub parts: [Option<Part>; 2],
    /// Requests that arrived in it.
    pub arrived: f64,
    /// Requests dropped in it.
    pub dropped: f64,
    /// Ready replicas (pro-rated over the bucket).
    pub ready: f64,
    /// Replicas billed (ready or starting).
    pub billed: f64,
}

impl Bucket {
    /// Its distributions, those present.
    pub fn latency_parts(&self) -> impl Iterator<Item = Part> + '_ {
        self.parts.iter().flatten().copied()
    }
}

/// A service's arrivals bucket by bucket: drawn from its traffic's rate (Poisson), or as a
/// replayed trace recorded them. Every platform draws them from the same stream in the same
/// order, so every platform, a hosted API's included, sees the same requests.
pub struct Arrivals<'a> {
    traffic: &'a TrafficPlan,
    draws: Poisson,
    rate: f64,
    rate_until: f64,
}

impl<'a> Arrivals<'a> {
    /// Arrivals of `traffic`, from its first bucket.
    pub fn new(traffic: &'a TrafficPlan) -> Arrivals<'a> {
        Arrivals {
            traffic,
            draws: Poisson::new(0.0),
            rate: 0.0,
            rate_until: f64::NEG_INFINITY,
        }
    }

    /// The requests of the bucket from `start`, `len` seconds long (buckets in order).
    pub fn bucket(&mut self, start: f64, len: f64, stream: &mut Stream) -> f64 {
        let end = start + len;
        if end > self.rate_until {
            // The rate holds until the next hour or spike edge: buckets up to it reuse it.
            self.rate = self.traffic.mean_rate(start, len);
            let edge = self.traffic.next_edge(start);
            self.rate_until = if edge >= end { edge } else { f64::NEG_INFINITY };
        }
        // A replayed trace's requests arrive as recorded; others are drawn.
        match self.traffic.replayed(start, len) {
            Some(recorded) => recorded,
            None => {
                let mean = self.rate * len;
                if self.draws.mean() != mean {
                    self.draws = Poisson::new(mean);
                }
                self.draws.draw(stream)
            }
        }
    }

    /// The mean rate of the last bucket, requests a second.
    pub fn rate(&self) -> f64 {
        self.rate
    }
}

/// Buckets of `bucket_s` in `horizon_s`: the last may be shorter, when the horizon is not a
/// whole number of them.
pub fn bucket_count(horizon_s: f64, bucket_s: f64) -> usize {
    ((horizon_s / bucket_s) - 1e-9).ceil().max(0.0) as usize
}

/// Runs the pool over `horizon_s` in buckets of `bucket_s`, arrivals drawn from `stream`;
/// the buckets in `record` (indices) are kept in the outcome. With `held` = (counts,
/// weight), each bucket adds weight × its billed replicas to its count (the slots of shared
/// GPUs the replicas hold).
pub fn run_pool(
    spec: &PoolSpec,
    traffic: &TrafficPlan,
    horizon_s: f64,
    bucket_s: f64,
    stream: &mut Stream,
    record: Range<usize>,
    mut held: Option<(&mut [u64], u64)>,
) -> PoolOutcome {
    let buckets = bucket_count(horizon_s, bucket_s);
    let per_period = ((spec.metric_period_s / bucket_s).round() as usize).max(1);
    let period = per_period as f64 * bucket_s;
    let mu = spec.capacity_rps / f64::from(spec.concurrency.max(1));
    let mut ready: u32 = spec.initial_replicas;
    // Ready times of replicas requested and not yet serving, earliest first.
    let mut pending: Vec<f64> = Vec::new();
    let mut autoscaler = Autoscaler::default();
    let mut backlog = 0.0;
    let mut period_arrivals = 0.0;
    let mut mixture = Mixture::default();
    let mut arrived = Arrivals::new(traffic);
    // The bucket after which the autoscaler next decides (counted, not divided, each bucket).
    let mut decision_bucket = per_period;
    // The replicas a scaled-to-zero pool will start (reused from bucket to bucket).
    let mut cold: Vec<f64> = Vec::new();
    let mut out = PoolOutcome::default();
    let mut llm = spec.llm.clone().map(|l| (l, LlmRun::default()));
    // An LLM's latency is its TTFT and TPOT: M/M/c's p95 of a backlog's part is not needed.
    let llm_service = llm.is_some();
    let backlog_part = |latency: Latency, weight: f64| Part {
        latency,
        p95_s: if llm_service {
            0.0
        } else {
            latency.quantile(P95_TAIL)
        },
        weight,
    };
    for b in 0..buckets {
        let start = b as f64 * bucket_s;
        let len = (horizon_s - start).min(bucket_s);
        let end = start + len;
        // 1. Arrivals.
        let arrivals = arrived.bucket(start, len, stream);
        let rate = arrived.rate();
        // With nothing ready or starting (scaled to zero), requests wait for the autoscaler's
        // next decision, at the end of this period, and the start-up of the replicas it then
        // asks for: it will have seen this period's requests (those still to come at the
        // current rate) and, none served, as many waiting.
        cold.clear();
        if ready == 0 && pending.is_empty() && spec.max_replicas > 0 {
            let next_decision = decision_bucket as f64 * bucket_s;
            let to_come = rate * (next_decision - end).max(0.0);
            let seen = period_arrivals + arrivals + to_come;
            let n = replicas_for_requests(spec, seen + backlog + arrivals + to_come, period).max(1);
            cold.resize(n as usize, next_decision + spec.startup_s);
        }
        let starting: &[f64] = if cold.is_empty() { &pending } else { &cold };
        // The wait of a request at the back of the queue at the bucket's start.
        let wait_at_start = wait_for(backlog, start, ready, starting, spec.capacity_rps);
        // 2. Replicas that start serving in this bucket count for the part they serve; with
        // none ready before the first of them, the requests before it can only wait.
        let warm = ready > 0;
        let first_join = pending.first().map_or(end, |&at| at.max(start));
        let mut ready_share = f64::from(ready);
        let mut joined = 0;
        for &at in pending.iter().take_while(|&&at| at < end) {
            ready_share += (end - at.max(start)) / len;
            joined += 1;
        }
        let billed = ready + pending.len() as u32;
        if joined > 0 {
            pending.drain(..joined);
        }
        ready += joined as u32;
        // 3. Service. With no replica ready at the start, the requests before the first one
        // joins wait: those the queue cannot hold are dropped at once.
        let serving_rps = ready_share * spec.capacity_rps;
        let before = backlog;
        let early_drops = if warm {
            0.0
        } else {
            let early = arrivals * (first_join.min(end) - start) / len;
            (before + early - spec.queue_limit)
                .max(0.0)
                .min(before + arrivals)
        };
        let demand = backlog + arrivals - early_drops;
        let served = demand.min(serving_rps * len);
        let left = demand - served;
        backlog = left.min(spec.queue_limit);
        let dropped = left - backlog + early_drops;
        out.dropped += dropped;
        out.served += served;
        out.arrived += arrivals;
        // 4. Latency: the arrivals' distributions, each with its requests, and their p95.
        let servers = floor_non_negative(ready_share * f64::from(spec.concurrency)) as u32;
        // The bucket's requests the servers could serve, and the utilisation steps a request
        // adds (known before the arrivals are drawn: no division waits for the draw).
        let servable = f64::from(servers) * mu * len;
        let steps_per_request = RHO_STEPS / servable;
        let stable = warm && servers > 0 && arrivals < servable;
        let mut parts = [None, None];
        // The p95 (seconds) of this bucket's steady part, if it has one.
        let mut steady_p95_s = None;
        let mut p95_ms = if arrivals == 0.0 {
            0.0
        } else if backlog == 0.0 && stable {
            // The backlog (if any) drains at the capacity beyond the arrivals; the requests
            // after it see M/M/c at the bucket's utilisation.
            let drained = if before > 0.0 {
                (before / (serving_rps - arrivals / len)).min(len) / len
            } else {
                0.0
            };
            if drained > 0.0 {
                let latency = Latency::Backlog {
                    low: 0.0,
                    high: wait_at_start,
                    mu,
                };
                let part = backlog_part(latency, arrivals * drained);
                if !llm_service {
                    mixture.add(part);
                }
                parts[0] = Some(part);
            }
            if drained < 1.0 && spec.llm.is_some() {
                // An LLM's latency is its TTFT and TPOT, by the minute's load: M/M/c's
                // sojourn over its batch slots is not needed.
                let weight = arrivals * (1.0 - drained);
                let latency = Latency::Queue {
                    wait: 0.0,
                    theta: mu,
                    mu,
                };
                parts[1] = Some(Part {
                    latency,
                    p95_s: 0.0,
                    weight,
                });
                steady_p95_s = Some(0.0);
            } else if drained < 1.0 {
                let step =
                    round_non_negative(arrivals * steps_per_request).min(RHO_STEPS - 1.0) as u32;
                let weight = arrivals * (1.0 - drained);
                let (p95_s, index) = mixture.add_steady((servers, step), weight, || {
                    let (latency, p95_ms) = steady_latency(servers, step, mu);
                    (latency, p95_ms / 1_000.0)
                });
                steady_p95_s = Some(p95_s);
                // The part itself only where it is needed: beside a backlog's, or recorded.
                if parts[0].is_some() || record.contains(&b) {
                    parts[1] = Some(mixture.steady_part(index, weight));
                }
            }
            match (parts[0], steady_p95_s) {
                // An LLM's minute's latency is its TTFT (below).
                _ if llm_service => 0.0,
                (None, Some(p95_s)) => p95_s * 1_000.0,
                _ => p95_s_of(&parts.iter().flatten().copied().collect::<Vec<_>>(), 0.0) * 1e3,
            }
        } else {
            // A backlog at the end (or a load above what M/M/c holds): a request waits for
            // the requests ahead of it, which change linearly from the bucket's start to its
            // end, served by the replicas ready then and those starting later.
            let starting: &[f64] = if cold.is_empty() { &pending } else { &cold };
            let wait_at_end = wait_for(backlog, end, ready, starting, spec.capacity_rps);
            let latency = if wait_at_start.is_finite() && wait_at_end.is_finite() {
                Latency::Backlog {
                    low: wait_at_start.min(wait_at_end),
                    high: wait_at_start.max(wait_at_end),
                    mu,
                }
            } else {
                Latency::Stalled
            };
            let part = backlog_part(latency, arrivals - dropped);
            parts[0] = Some(part);
            if llm_service {
                // Its minute's latency is its TTFT (below).
                0.0
            } else {
                mixture.add(part);
                mixture.add_lost(dropped);
                p95_s_of(&[part], dropped) * 1_000.0
            }
        };
        if let Some((spec_llm, run)) = llm.as_mut() {
            // An LLM's minute misses on TTFT or TPOT, not on M/M/c's sojourn.
            let rps = if ready_share > 0.0 {
                arrivals / len / ready_share
            } else {
                f64::INFINITY
            };
            let (ttft_s, tpot_s) =
                llm_bucket(&mut spec_llm.latency, &parts, rps, arrivals, dropped);
            // The minute's latency is its TTFT.
            p95_ms = ttft_s * 1e3;
            let ttft_over = ttft_s * 1e3 > spec_llm.ttft_slo_ms;
            let tpot_over = tpot_s * 1e3 > spec_llm.tpot_slo_ms;
            if ttft_over {
                run.ttft_slo_violation_minutes += len / 60.0;
            }
            if tpot_over {
                run.tpot_slo_violation_minutes += len / 60.0;
            }
            if ttft_over || tpot_over {
                out.slo_violation_minutes += len / 60.0;
            }
        } else if p95_ms > spec.latency_slo_ms {
            out.slo_violation_minutes += len / 60.0;
        }
        out.replica_hours += f64::from(billed) * len / 3600.0;
        if let Some((counts, weight)) = held.as_mut() {
            counts[b] += *weight * u64::from(billed);
        }
        out.ready_replica_hours += ready_share * len / 3600.0;
        if record.contains(&b) {
            out.buckets.push(Bucket {
                p95_ms,
                parts,
                arrived: arrivals,
                dropped,
                ready: ready_share,
                billed: f64::from(billed),
            });
        }
        // 5. The autoscaler, at the end of each period.
        period_arrivals += arrivals;
        if b + 1 == decision_bucket {
            decision_bucket += per_period;
            let want = replicas_for_requests(spec, period_arrivals + backlog, period);
            period_arrivals = 0.0;
            ready -= autoscaler.decide(spec, end, want, ready, &mut pending);
        }
    }
    out.queued_at_horizon = backlog;
    out.horizon_s = horizon_s;
    if llm.is_none() {
        out.latency_p95_ms = mixture.p95_ms();
    }
    if let Some((spec_llm, mut run)) = llm {
        run.ttft_p95_ms = spec_llm.latency.ttft_p95_s() * 1e3;
        run.tpot_p95_ms = spec_llm.latency.tpot_p95_s() * 1e3;
        // An LLM's latency is its time to first token (its sojourn in M/M/c's slots is no
        // request's latency).
        out.latency_p95_ms = run.ttft_p95_ms;
        out.llm = Some(run);
    }
    out
}

/// A bucket of an LLM service: its requests added to the run's latency at `rps` a ready
/// replica, by its parts (a backlog's wait counts; M/M/c's batch slots do not, a request
/// waiting for one only when the KV cache is full, which is the backlog); its (TTFT p95,
/// TPOT) in seconds.
fn llm_bucket(
    latency: &mut LlmLatency,
    parts: &[Option<Part>; 2],
    rps: f64,
    arrivals: f64,
    dropped: f64,
) -> (f64, f64) {
    if arrivals <= 0.0 {
        return (0.0, 0.0);
    }
    // At most two parts (a backlog's, a steady one's), kept on the stack.
    let mut minute = [(None, 0.0); 2];
    let mut kept = 0;
    let mut stalled = 0.0;
    for part in parts.iter().flatten() {
        let wait = match part.latency {
            Latency::Queue { .. } => None,
            Latency::Backlog { low, high, .. } => Some((low, high)),
            Latency::Stalled => {
                stalled += part.weight;
                continue;
            }
        };
        minute[kept] = (wait, part.weight);
        kept += 1;
    }
    if kept == 0 && stalled == 0.0 {
        // A steady minute whose part was merged without being kept.
        minute[0] = (None, arrivals - dropped);
        kept = 1;
    }
    let (ttft, tpot) = latency.add_minute(rps, &minute[..kept], dropped + stalled);
    if stalled > 0.0 && kept == 0 {
        return (f64::INFINITY, f64::INFINITY);
    }
    (ttft, tpot)
}

/// The autoscaler's memory: its recommendations over the cooldown window, those that may
/// still be the window's highest (each one higher than all after it; a recommendation with a
/// later one at least as high never is, since the later one leaves the window after it).
#[derive(Debug, Clone, Default)]
pub struct Autoscaler {
    /// (time, recommendation), oldest (and highest) first.
    recent: VecDeque<(f64, u32)>,
}

impl Autoscaler {
    /// The decision at `now` when the load asks for `want` replicas ([`replicas_for_requests`]),
    /// with `ready` replicas serving and `pending` (their ready times, earliest first)
    /// starting: new replicas are pushed onto `pending`, ready at `now` + start-up; returns
    /// how many ready replicas to remove (pending ones, the latest first, are removed from
    /// `pending` before any ready one).
    pub fn decide(
        &mut self,
        spec: &PoolSpec,
        now: f64,
        want: u32,
        ready: u32,
        pending: &mut Vec<f64>,
    ) -> u32 {
        let window_start = now - spec.scale_down_cooldown_s;
        while self.recent.front().is_some_and(|&(t, _)| t <= window_start) {
            self.recent.pop_front();
        }
        while self.recent.back().is_some_and(|&(_, r)| r <= want) {
            self.recent.pop_back();
        }
        self.recent.push_back((now, want));
        let current = ready + pending.len() as u32;
        if want > current {
            for _ in current..want {
                pending.push(now + spec.startup_s);
            }
            return 0;
        }
        let keep = self.recent.front().map_or(want, |r| r.1);
        let mut extra = current.saturating_sub(keep);
        while extra > 0 && !pending.is_empty() {
            pending.pop();
            extra -= 1;
        }
        extra.min(ready)
    }
}

/// Steady latencies and their p95 (ms) by (server rate's bits, servers, utilisation step).
type SteadyCache = FxHashMap<(u64, u32, u32), (Latency, f64)>;

thread_local! {
    /// Steady buckets' latencies: a pure function of the key, kept across buckets, services
    /// and replications of a thread.
    static STEADY: std::cell::RefCell<SteadyCache> = std::cell::RefCell::new(SteadyCache::default());
}

/// Most entries [`STEADY`] keeps before it starts again (about 10 MB).
const STEADY_MAX: usize = 200_000;

/// The latency and p95 (ms) of M/M/c with `servers` servers of rate `mu` at utilisation
/// `step` ÷ [`RHO_STEPS`].
fn steady_latency(servers: u32, step: u32, mu: f64) -> (Latency, f64) {
    STEADY.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= STEADY_MAX {
            cache.clear();
        }
        *cache
            .entry((mu.to_bits(), servers, step))
            .or_insert_with(|| {
                let c = f64::from(servers);
                let l = Latency::queue(servers, f64::from(step) / RHO_STEPS * c * mu, mu)
                    .unwrap_or(Latency::Stalled);
                (l, l.quantile(P95_TAIL) * 1000.0)
            })
    })
}

/// Replicas the autoscaler asks for at `load` requests per second.
pub fn desired_replicas(spec: &PoolSpec, load: f64) -> u32 {
    clamp_replicas(spec, load / (spec.target_utilization * spec.capacity_rps))
}

/// Replicas the autoscaler asks for when it saw `requests` over a period of `period_s`
/// seconds (those waiting at its end included): ⌈requests ÷ (period × target × a replica's
/// capacity)⌉ within the fewest and most, by one multiplication. The pool, its cold start and
/// the request-level simulation decide by it alike.
pub fn replicas_for_requests(spec: &PoolSpec, requests: f64, period_s: f64) -> u32 {
    let per_request = 1.0 / (period_s * spec.target_utilization * spec.capacity_rps);
    clamp_replicas(spec, requests * per_request)
}

/// `replicas` rounded up, within the pool's fewest and most.
fn clamp_replicas(spec: &PoolSpec, replicas: f64) -> u32 {
    let want = if replicas > 0.0 {
        ceil_non_negative(replicas).min(f64::from(u32::MAX)) as u32
    } else {
        0
    };
    want.clamp(spec.min_replicas, spec.max_replicas.max(spec.min_replicas))
}

/// The p95 latency (ms) of the requests of `buckets` together (dropped ones as never
/// served).
pub fn p95_ms_of(buckets: &[Bucket]) -> f64 {
    let parts: Vec<Part> = buckets.iter().flat_map(Bucket::latency_parts).collect();
    let lost = buckets.iter().map(|b| b.dropped).sum();
    p95_s_of(&parts, lost) * 1_000.0
}

/// Seconds until `ahead` requests have been served from `now`, by `ready` replicas and the
/// `pending` ones from their ready times on (earliest first), each at `per_replica_rps`
/// (with no replica serving, at least until the first one starts); infinite when no replica
/// is or will be there.
fn wait_for(ahead: f64, now: f64, ready: u32, pending: &[f64], per_replica_rps: f64) -> f64 {
    // Replicas past their start time but not yet counted as ready serve from now. With
    // nothing ahead and any replica serving, no wait (the pending ones searched only when
    // none is ready).
    if ahead <= 0.0 && per_replica_rps > 0.0 && (ready > 0 || pending.iter().any(|&p| p <= now)) {
        return 0.0;
    }
    let started = pending.iter().filter(|&&p| p <= now).count() as f64;
    let mut rate = (f64::from(ready) + started) * per_replica_rps;
    // With none serving, even the first in line waits for a replica to start.
    let mut at = now;
    let mut left = ahead;
    for &start in pending.iter().filter(|&&p| p > now) {
        if rate > 0.0 && left <= rate * (start - at) {
            return at + left / rate - now;
        }
        left -= rate * (start - at);
        at = start;
        rate += per_replica_rps;
    }
    if rate <= 0.0 {
        return f64::INFINITY;
    }
    at + left / rate - now
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::Purpose;
    use crate::model::serving::traffic::Traffic;

    fn spec() -> PoolSpec {
        PoolSpec {
            capacity_rps: 10.0,
            concurrency: 2,
            latency_slo_ms: 1_000.0,
            min_replicas: 0,
            max_replicas: 1_000,
            target_utilization: 0.5,
            startup_s: 0.0,
            scale_down_cooldown_s: 0.0,
            metric_period_s: 60.0,
            queue_limit: 1e9,
            initial_replicas: 0,
            llm: None,
        }
    }

    fn run(spec: &PoolSpec, rps: f64, hours: f64) -> PoolOutcome {
        let mut s = Stream::new(3, 0, Purpose::Jobs, 0);
        let plan = Traffic::flat(rps).plan(hours * 3600.0, &mut s);
        run_pool(
            spec,
            &plan,
            hours * 3600.0,
            60.0,
            &mut s,
            0..usize::MAX,
            None,
        )
    }

    #[test]
    fn an_instant_autoscaler_holds_the_replicas_each_minutes_load_needs() {
        // Start-up 0 and no cooldown: the replicas of minute b + 1 are ⌈load_b ÷ (0.5 × 10)⌉,
        // load_b being minute b's arrivals (and backlog) per second.
        let o = run(&spec(), 123.0, 6.0);
        let mut want = 0.0;
        let mut backlog = 0.0;
        let mut replicas = 0.0f64;
        for b in &o.buckets {
            want += replicas / 60.0;
            let served = (backlog + b.arrived).min(replicas * 10.0 * 60.0);
            backlog += b.arrived - served;
            replicas = ((b.arrived + backlog) / 60.0 / 5.0).ceil();
        }
        assert!(
            (o.replica_hours - want).abs() < 1e-9,
            "{} vs {want}",
            o.replica_hours
        );
        // About 123 / 5 ≈ 25 replicas for 6 hours.
        assert!(
            (o.replica_hours / 6.0 - 25.0).abs() < 1.0,
            "{}",
            o.replica_hours
        );
    }

    #[test]
    fn the_utilisation_grid_moves_the_p95_by_under_half_a_percent() {
        use crate::model::serving::queueing::sojourn_quantile;
        for servers in [1, 2, 8, 64, 240] {
            for k in 1..=98 {
                // Utilisations between the grid's steps, up to 98 %.
                let rho = f64::from(k) / 100.0 + 0.3 / RHO_STEPS;
                let mu = 2.5;
                let lambda = rho * f64::from(servers) * mu;
                let exact = sojourn_quantile(servers, lambda, mu, P95_TAIL) * 1000.0;
                let step = (rho * RHO_STEPS).round() as u32;
                let (_, grid) = steady_latency(servers, step, mu);
                assert!(
                    (grid - exact).abs() < 0.005 * exact,
                    "c = {servers}, ρ = {rho}: {grid} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn the_cooldown_keeps_the_highest_recommendation_of_its_window() {
        // Against the definition: every recommendation of the last cooldown kept, their
        // highest taken; random loads, cooldowns of 0 to 10 periods, replicas starting
        // after 0 to 3 periods.
        let mut stream = Stream::new(11, 0, Purpose::Traffic, 0);
        let mut next = |n: u64| stream.next_u64() % n;
        for _ in 0..200 {
            let s = PoolSpec {
                scale_down_cooldown_s: 60.0 * next(11) as f64,
                startup_s: 60.0 * next(4) as f64,
                min_replicas: next(3) as u32,
                ..spec()
            };
            let mut autoscaler = Autoscaler::default();
            let (mut ready, mut pending) = (0u32, Vec::new());
            let (mut reference, mut ready_ref, mut pending_ref): (Vec<(f64, u32)>, u32, Vec<f64>) =
                (Vec::new(), 0, Vec::new());
            for period in 1..300 {
                let now = 60.0 * f64::from(period);
                let load = next(400) as f64 * if next(10) == 0 { 10.0 } else { 1.0 };
                for (r, p) in [
                    (&mut ready, &mut pending),
                    (&mut ready_ref, &mut pending_ref),
                ] {
                    let joined = p.iter().take_while(|&&at| at <= now).count();
                    p.drain(..joined);
                    *r += joined as u32;
                }
                let want = desired_replicas(&s, load);
                ready -= autoscaler.decide(&s, now, want, ready, &mut pending);
                // The definition, written out.
                reference.retain(|&(t, _)| t > now - s.scale_down_cooldown_s);
                reference.push((now, want));
                let current = ready_ref + pending_ref.len() as u32;
                if want > current {
                    pending_ref.extend((current..want).map(|_| now + s.startup_s));
                } else {
                    let keep = reference.iter().map(|r| r.1).max().unwrap_or(want);
                    let mut extra = current.saturating_sub(keep);
                    while extra > 0 && pending_ref.pop().is_some() {
                        extra -= 1;
                    }
                    ready_ref -= extra.min(ready_ref);
                }
                assert_eq!(
                    (ready, &pending),
                    (ready_ref, &pending_ref),
                    "period {period}"
                );
            }
        }
    }

    #[test]
    fn no_traffic_scaled_to_zero_costs_nothing() {
        let o = run(&spec(), 0.0, 24.0);
        assert_eq!(
            (o.replica_hours, o.arrived, o.slo_violation_minutes),
            (0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn a_floor_of_two_replicas_bills_two_for_the_whole_horizon() {
        let floor = PoolSpec {
            min_replicas: 2,
            initial_replicas: 2,
            ..spec()
        };
        let o = run(&floor, 0.0, 24.0);
        assert!((o.replica_hours - 48.0).abs() < 1e-9, "{}", o.replica_hours);
    }

    #[test]
    fn scaled_to_zero_the_first_requests_wait_for_a_decision_and_a_start_up() {
        // 1 request a second from zero replicas, a 2-minute start-up, a decision a minute:
        // a request arriving at s in the first minute waits until the replica serves at
        // 60 + 120 = 180 s, then behind those before it (10 a second): from 180 − 0 down to
        // about 120 + 6 s. Its bucket's p95 is a finite miss, and the replica serves the
        // next minutes' requests at once.
        let cold = PoolSpec {
            startup_s: 120.0,
            concurrency: 1,
            min_replicas: 0,
            initial_replicas: 0,
            latency_slo_ms: 2_000.0,
            ..spec()
        };
        let o = run(&cold, 1.0, 1.0);
        let first = o.buckets[0].p95_ms / 1_000.0;
        assert!((120.0..=186.0).contains(&first), "{first}");
        // The three minutes before the replica serves miss the objective, and the fourth:
        // its first 20 s clear the 180 waiting (at 10 − 1 a second), so a third of its
        // requests wait up to 18 s. After it, none does.
        assert_eq!(o.slo_violation_minutes, 4.0);
        assert!(o.buckets[4].p95_ms < 2_000.0);
        assert!(o.latency_p95_ms.is_finite());
    }

    #[test]
    fn a_horizon_between_minutes_ends_with_a_shorter_bucket() {
        // 90 s with a floor of two replicas: 2 × 90 s = 0.05 replica-hours (not 2 minutes),
        // in two buckets, the second of 30 s.
        let floor = PoolSpec {
            min_replicas: 2,
            initial_replicas: 2,
            ..spec()
        };
        let mut s = Stream::new(3, 0, Purpose::Jobs, 0);
        let plan = Traffic::flat(1.0).plan(90.0, &mut s);
        let o = run_pool(&floor, &plan, 90.0, 60.0, &mut s, 0..usize::MAX, None);
        assert_eq!(o.buckets.len(), 2);
        assert!(
            (o.replica_hours - 0.05).abs() < 1e-12,
            "{}",
            o.replica_hours
        );
        // A 29 s horizon is one bucket of 29 s, not none.
        let mut s = Stream::new(3, 0, Purpose::Jobs, 0);
        let o = run_pool(&floor, &plan, 29.0, 60.0, &mut s, 0..usize::MAX, None);
        assert!((o.replica_hours - 2.0 * 29.0 / 3_600.0).abs() < 1e-12);
    }

    #[test]
    fn requests_are_served_queued_or_dropped_never_lost() {
        // Scale from zero with a 10-minute start-up and a small queue: some are dropped.
        let slow = PoolSpec {
            startup_s: 600.0,
            queue_limit: 500.0,
            ..spec()
        };
        let o = run(&slow, 40.0, 3.0);
        assert!(o.dropped > 0.0);
        let sum = o.served + o.dropped + o.queued_at_horizon;
        assert!((sum - o.arrived).abs() < 1e-6, "{sum} vs {}", o.arrived);
        // The first minutes have no replica: their latency is unbounded, an SLO miss.
        assert!(o.buckets[0].p95_ms.is_infinite());
        assert!(o.slo_violation_minutes >= 10.0);
    }
}
