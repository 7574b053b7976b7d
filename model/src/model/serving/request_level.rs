//! The oracle the bucket model is checked against: the same service simulated request by
//! request. Arrivals are a non-homogeneous Poisson process (thinning against the highest
//! rate), each request is served first come first served by one of `concurrency` servers
//! per ready replica in an exponential time at `capacity_rps ÷ concurrency`, a request that
//! finds the queue full is dropped, and the same [`Autoscaler`] decides at the same
//! periods from the arrivals it saw and the queue. A removed replica takes no new request
//! and finishes the ones it holds. Only for small scales (it holds every latency).

use super::pool::{replicas_for_requests, Autoscaler, PoolSpec};
use super::traffic::TrafficPlan;
use crate::model::rng::Stream;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// What a request-level run gave.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RequestOutcome {
    /// Requests that arrived.
    pub arrived: u64,
    /// Requests served (finished by the horizon or after it).
    pub served: u64,
    /// Requests dropped.
    pub dropped: u64,
    /// Replica-hours billed.
    pub replica_hours: f64,
    /// Per request that was not dropped: (arrival, latency), seconds.
    pub latencies: Vec<(f64, f64)>,
}

impl RequestOutcome {
    /// p95 latency (ms) of the requests that arrived in each window of `window_s`, over
    /// `horizon_s`; 0 for a window without requests.
    pub fn p95_ms_by_window(&self, horizon_s: f64, window_s: f64) -> Vec<f64> {
        let n = (horizon_s / window_s).round() as usize;
        let mut by: Vec<Vec<f64>> = vec![Vec::new(); n];
        for &(t, l) in &self.latencies {
            let w = ((t / window_s) as usize).min(n - 1);
            by[w].push(l);
        }
        by.into_iter()
            .map(|mut v| {
                if v.is_empty() {
                    return 0.0;
                }
                v.sort_by(f64::total_cmp);
                // The smallest latency with at most 5 % of the window's requests above it.
                let k = ((0.95 * v.len() as f64).ceil() as usize).clamp(1, v.len());
                v[k - 1] * 1000.0
            })
            .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Event {
    at: f64,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Done,
    Ready,
}

impl Eq for Event {}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        other.at.total_cmp(&self.at)
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Runs the service request by request over `horizon_s`, the autoscaler deciding every
/// `spec.metric_period_s`.
pub fn run_requests(
    spec: &PoolSpec,
    traffic: &TrafficPlan,
    horizon_s: f64,
    stream: &mut Stream,
) -> RequestOutcome {
    let mu = spec.capacity_rps / f64::from(spec.concurrency.max(1));
    let per_replica = spec.concurrency.max(1);
    // The highest rate, for thinning: the rate is constant within each hour and spike.
    let mut top = 0.0f64;
    let mut t = 0.0;
    while t < horizon_s {
        top = top.max(traffic.rate_at(t));
        t += 60.0;
    }
    for &(a, _, _) in traffic.spikes() {
        top = top.max(traffic.rate_at(a));
    }
    let mut out = RequestOutcome::default();
    let mut servers = Servers {
        busy: 0,
        queue: VecDeque::new(),
        events: BinaryHeap::new(),
        mu,
        per_replica,
    };
    let mut ready = spec.initial_replicas;
    let mut pending: Vec<f64> = Vec::new();
    let mut autoscaler = Autoscaler::default();
    let mut period_arrivals = 0u64;
    let mut next_tick = spec.metric_period_s;
    let mut next_arrival = if top > 0.0 {
        stream.exponential(1.0 / top)
    } else {
        f64::INFINITY
    };
    let mut last = 0.0;
    let mut billed = f64::from(ready);
    loop {
        let next_event = servers.events.peek().map_or(f64::INFINITY, |e| e.at);
        let now = next_arrival.min(next_event).min(next_tick);
        if now >= horizon_s {
            break;
        }
        out.replica_hours += billed * (now - last) / 3600.0;
        last = now;
        if now == next_tick {
            let seen = period_arrivals as f64 + servers.queue.len() as f64;
            let want = replicas_for_requests(spec, seen, spec.metric_period_s);
            period_arrivals = 0;
            let before = pending.len();
            let removed = autoscaler.decide(spec, now, want, ready, &mut pending);
            ready -= removed;
            for &at in &pending[before.min(pending.len())..] {
                servers.events.push(Event {
                    at,
                    kind: Kind::Ready,
                });
            }
            billed = f64::from(ready) + pending.len() as f64;
            next_tick += spec.metric_period_s;
        } else if now == next_event {
            let e = servers.events.pop().expect("an event");
            match e.kind {
                Kind::Done => servers.busy -= 1,
                Kind::Ready => {
                    // A replica still pending at its time (not cancelled since) starts.
                    if let Some(i) = pending.iter().position(|&p| p == e.at) {
                        pending.remove(i);
                        ready += 1;
                    }
                }
            }
            servers.start(now, ready, &mut out, stream);
        } else {
            next_arrival = now + stream.exponential(1.0 / top);
            if stream.uniform() * top >= traffic.rate_at(now) {
                continue;
            }
            out.arrived += 1;
            period_arrivals += 1;
            if servers.queue.len() as f64 >= spec.queue_limit && servers.busy >= ready * per_replica
            {
                out.dropped += 1;
                continue;
            }
            servers.queue.push_back(now);
            servers.start(now, ready, &mut out, stream);
        }
    }
    out.replica_hours += billed * (horizon_s - last) / 3600.0;
    out
}

/// The servers of the ready replicas, their queue and their completions.
struct Servers {
    busy: u32,
    queue: VecDeque<f64>,
    events: BinaryHeap<Event>,
    mu: f64,
    per_replica: u32,
}

impl Servers {
    /// Starts what the free servers of `ready` replicas can take from the queue.
    fn start(&mut self, now: f64, ready: u32, out: &mut RequestOutcome, stream: &mut Stream) {
        while self.busy < ready * self.per_replica {
            let Some(arrived) = self.queue.pop_front() else {
                break;
            };
            self.busy += 1;
            let done = now + stream.exponential(1.0 / self.mu);
            out.latencies.push((arrived, done - arrived));
            out.served += 1;
            self.events.push(Event {
                at: done,
                kind: Kind::Done,
            });
        }
    }
}
