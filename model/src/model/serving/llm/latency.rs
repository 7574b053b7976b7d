//! An LLM service's time to first token (TTFT) and time per output token (TPOT), bucket by
//! bucket of the serving simulation ([`crate::model::serving::pool`]), from a replica's
//! roofline ([`super::roofline`]).
//!
//! The engine, as modelled: each iteration runs one decode step of the batch, `s`, and, when
//! a prompt waits, that prompt's prefill `P` with it (chunked prefill mixes a prompt into the
//! decode steps; prompts are taken one at a time, first come first served). A bucket's load
//! on each ready replica, λ (its requests over its minute and its ready replicas), sets:
//! - **TPOT.** Over a request's n decode intervals the engine also runs the prefills of the
//!   prompts that arrived while it waited for its first token or arrive while it decodes, and
//!   of those arriving while those run: TPOT = s + ΣP ÷ n, ΣP a busy period begun by
//!   E\[TTFT\] + n·s, of mean λ(E\[TTFT\] + n·s)E\[P\] ÷ (1 − φ) (over a long output, TPOT's
//!   mean is s ÷ (1 − φ), [`Replica::operating_point`]) and variance
//!   λ(E\[TTFT\] + n·s)E\[P²\] ÷ (1 − φ)³, with φ = λE\[P\]. ΣP is taken as a gamma of that mean and variance, read by the
//!   Wilson–Hilferty approximation, over 16 equal-probability output lengths. The step's own
//!   change with the batch's size from moment to moment is left out.
//! - **TTFT** is the wait for the prompts ahead, then its own iteration: W + P + s. Prompts
//!   are served one an iteration, an M/G/1 queue whose service is P + s; its wait is taken
//!   as 0 with probability ρ = λ(E\[P\] + s), else exponential with the Pollaczek–Khinchine
//!   mean λE\[(P + s)²\] ÷ 2(1 − ρ) (exact for exponential service, the usual approximation
//!   otherwise).
//! - **A backlog** (more requests than the replicas can take: the KV cache is full) adds the
//!   bucket's wait in the queue, as for any service, and the replicas decode at their cap.
//! - **Time.** The per-minute model holds a bucket's load constant over its minute: the
//!   queueing inside TTFT is that of the minute's rate in steady state (a prefill queue
//!   empties in well under a second at the loads a replica holds), so a burst shorter than
//!   a minute is averaged into its minute.
//!
//! [`super::batching`] simulates the same engine request by request: the oracle these
//! figures are checked against.
//!
//! Loads are tabled on a grid of [`GRID`] steps of the replica's saturation, each bucket
//! taking the nearest step at or above its load, so TTFT and TPOT are never understated by
//! the grid.

use super::roofline::Replica;
use crate::model::serving::queueing::{falls_to, P95_TAIL};
use std::sync::{Arc, Mutex};

/// Steps of load, from 0 to the replica's saturation.
pub const GRID: usize = 512;

/// The step after the last: the cap a backlog's requests are served at (the saturation, less
/// a prompt queue the backlog already counts; [`LlmTables::new`]).
const CAP: usize = GRID + 1;

/// Prefill points the TTFT's wait term sums over (those of [`Replica::prefill_points`]).
const PREFILL_SUMS: usize = 32;

/// Steps of the integral of the cap's TTFT survival ([`LlmTables::backlog_integral`]).
const BACKLOG_STEPS: usize = 4_096;

/// Equal-probability output lengths a TPOT distribution is read at.
const OUTPUT_POINTS: usize = 16;

/// One step of load's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Step {
    /// Requests a second on a replica.
    rps: f64,
    /// The decode step at the load's batch, s.
    step_s: f64,
    /// Mean TPOT, seconds.
    tpot_s: f64,
    /// The prompt queue's utilisation (ρ).
    busy: f64,
    /// Rate of its wait's exponential (r).
    wait_rate: f64,
    /// Mean TTFT, seconds: ρ ÷ r + E[P] + s.
    ttft_mean_s: f64,
    /// Running sums of e^(r·p) over the prefill points p, ascending (so that
    /// Σ over p ≤ t of e^(−r(t − p)) is one `exp`); NaN where r·p could overflow.
    sums: [f64; PREFILL_SUMS],
}

/// A replica's TTFT and TPOT by load: the same for every run of a service on a platform, so
/// built once ([`LlmTables::shared`]) and shared by the runs.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmTables {
    replica: Replica,
    /// Requests a second at which a replica saturates.
    saturation_rps: f64,
    steps: Vec<Step>,
    /// Output lengths at equal-probability points (more than one token: a request of one
    /// has no TPOT), as intervals between tokens.
    intervals: [f64; OUTPUT_POINTS],
    /// TTFT and TPOT p95 of each step in steady state, seconds.
    ttft_p95_s: Vec<f64>,
    tpot_p95_s: Vec<f64>,
    /// ∫ from 0 to x of the TTFT survival at the cap ([`CAP`]), at x = k ×
    /// `backlog_dx`: a backlog's uniform wait mixes it in two lookups.
    backlog_integral: Vec<f64>,
    backlog_dx: f64,
    /// Whether the prompts saturate the replica before its batch fills ([`CAP`]).
    cap_prompts_bind: bool,
}

/// A run's requests by load, on a replica's tables.
#[derive(Debug, Clone)]
pub struct LlmLatency {
    tables: Arc<LlmTables>,
    /// Requests served at each step over the run.
    weights: Vec<f64>,
    /// Requests that waited in a backlog, by their wait.
    backlog: Waits,
    /// Requests dropped or never served.
    lost: f64,
}

impl std::ops::Deref for LlmLatency {
    type Target = LlmTables;
    fn deref(&self) -> &LlmTables {
        &self.tables
    }
}

/// What a replica's tables are built of: the LLM (its objectives left at 0: they do not
/// change the tables), its GPU's model and memory.
pub type TablesKey = (crate::model::scenario::Llm, String, u64);

/// Tables built lately, by what they were built of (a run of 200 replications builds each
/// once, not 200 times).
static BUILT: Mutex<Vec<(TablesKey, Arc<LlmTables>)>> = Mutex::new(Vec::new());

/// Tables kept in [`BUILT`], the least recently used dropped first.
const KEPT: usize = 64;

impl LlmTables {
    /// The tables of the replica `build` gives for `key`, built once and shared while they
    /// are among the last 64 used; `None` where `build` gives no replica.
    pub fn shared(
        key: TablesKey,
        build: impl FnOnce() -> Option<Replica>,
    ) -> Option<Arc<LlmTables>> {
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = built.iter().position(|(k, _)| *k == key) {
            let hit = built.remove(at);
            let t = Arc::clone(&hit.1);
            built.push(hit);
            return Some(t);
        }
        let t = Arc::new(LlmTables::new(build()?));
        if built.len() >= KEPT {
            built.remove(0);
        }
        built.push((key, Arc::clone(&t)));
        Some(t)
    }

    /// The tables of `replica`.
    pub fn new(replica: Replica) -> LlmTables {
        let saturation_rps = replica.saturation_rps();
        let mean = replica.prefill_mean_s();
        let square = replica.prefill_mean_square_s2();
        let mut steps: Vec<Step> = (0..=GRID)
            .map(|j| {
                let rps = saturation_rps * j as f64 / GRID as f64;
                let phi = replica.prefill_share(rps).min(0.999_999);
                let (tpot_s, step_s) = match replica.operating_point(rps) {
                    Some((tpot, batch)) => (tpot, replica.step_s(batch)),
                    None => {
                        let s = replica.step_s(replica.max_batch);
                        (s / (1.0 - phi), s)
                    }
                };
                // The prompt queue: service P + s.
                let service = mean + step_s;
                let service_square = square + 2.0 * step_s * mean + step_s * step_s;
                let busy = (rps * service).min(0.999_999);
                // r = ρ ÷ E[W], E[W] = λE[S²] ÷ 2(1 − ρ): r = 2(1 − ρ)E[S] ÷ E[S²].
                let wait_rate = 2.0 * (1.0 - busy) * service / service_square;
                let mut sums = [f64::NAN; PREFILL_SUMS];
                let points = replica.prefill_points();
                if points.len() == PREFILL_SUMS && wait_rate * points[PREFILL_SUMS - 1] < 600.0 {
                    let mut sum = 0.0;
                    for (k, &p) in points.iter().enumerate() {
                        sum += libm::exp(wait_rate * p);
                        sums[k] = sum;
                    }
                }
                Step {
                    rps,
                    step_s,
                    tpot_s,
                    busy,
                    wait_rate,
                    ttft_mean_s: busy / wait_rate + mean + step_s,
                    sums,
                }
            })
            .collect();
        // The cap: a backlog's requests, once out of the pool's queue, at saturation. Where
        // the batch fills first, a prompt still waits behind the others (the last step's
        // M/G/1 wait) and the prompts arrive as slots free. Where the prompts bind, their
        // queue is the pool's queue, whose wait the backlog already counts (none more), and
        // every step runs a prefill: TPOT is a step and a mean prefill.
        let mut cap = steps[GRID];
        let cap_prompts_bind = replica.prompts_bind();
        if cap_prompts_bind {
            cap.busy = 0.0;
            cap.ttft_mean_s = mean + cap.step_s;
            cap.tpot_s = mean + cap.step_s;
        }
        steps.push(cap);
        let out = replica.output;
        let mut intervals = [0.0; OUTPUT_POINTS];
        // Equal-probability points of the output lengths above one token.
        let above_one = out.survival(1.5);
        for (k, n) in intervals.iter_mut().enumerate() {
            let p = 1.0 - above_one * (1.0 - (k as f64 + 0.5) / OUTPUT_POINTS as f64);
            *n = (out.quantile(p).round() - 1.0).max(1.0);
        }
        let mut tables = LlmTables {
            replica,
            saturation_rps,
            steps,
            intervals,
            ttft_p95_s: Vec::new(),
            tpot_p95_s: Vec::new(),
            backlog_integral: Vec::new(),
            backlog_dx: 0.0,
            cap_prompts_bind,
        };
        tables.ttft_p95_s = (0..=CAP)
            .map(|j| solve_tail(|t| tables.ttft_survival(j, t), P95_TAIL))
            .collect();
        tables.tpot_p95_s = (0..=CAP)
            .map(|j| solve_tail(|t| tables.tpot_survival(j, t), P95_TAIL))
            .collect();
        // The cap's survival integrated by the trapezoid rule out to where it is below a
        // millionth, in 4,096 steps.
        let end = solve_tail(|t| tables.ttft_survival(CAP, t), 1e-6);
        if end.is_finite() && end > 0.0 {
            let dx = end / BACKLOG_STEPS as f64;
            let mut integral = Vec::with_capacity(BACKLOG_STEPS + 1);
            let (mut sum, mut last) = (0.0, 1.0);
            integral.push(0.0);
            for k in 1..=BACKLOG_STEPS {
                let here = tables.ttft_survival(CAP, k as f64 * dx);
                sum += 0.5 * (last + here) * dx;
                integral.push(sum);
                last = here;
            }
            tables.backlog_integral = integral;
            tables.backlog_dx = dx;
        }
        tables
    }

    /// The replica.
    pub fn replica(&self) -> &Replica {
        &self.replica
    }

    /// Requests a second at which a replica saturates.
    pub fn saturation_rps(&self) -> f64 {
        self.saturation_rps
    }

    /// The step of `rps` requests a second on a replica: the nearest at or above it.
    fn step_of(&self, rps: f64) -> usize {
        let x = (rps / self.saturation_rps * GRID as f64).max(0.0);
        ((x - 1e-9).ceil() as usize).min(GRID)
    }

    /// P(TTFT > t) at step `j` in steady state.
    fn ttft_survival(&self, j: usize, t: f64) -> f64 {
        self.steady_ttft_survival(self.steps[j], t)
    }

    /// P(TTFT > t) of a request that waited in a backlog for a time uniform from `low` to
    /// `high` s, then was served at the cap ([`CAP`]): exactly
    /// (I(t − low) − I(t − high)) ÷ (high − low), I the integral of the cap's survival
    /// ([`LlmTables::backlog_integral`]).
    fn backlog_ttft_survival(&self, low: f64, high: f64, t: f64) -> f64 {
        if high - low < 1e-9 {
            return self.ttft_survival(CAP, t - low);
        }
        if self.backlog_integral.is_empty() {
            // No table (the cap's TTFT has no finite tail): the midpoints of 8 equal parts.
            const NODES: usize = 8;
            return (0..NODES)
                .map(|k| {
                    let w = low + (high - low) * (k as f64 + 0.5) / NODES as f64;
                    self.ttft_survival(CAP, t - w)
                })
                .sum::<f64>()
                / NODES as f64;
        }
        ((self.survival_integral(t - low) - self.survival_integral(t - high)) / (high - low))
            .clamp(0.0, 1.0)
    }

    /// ∫ from 0 to x of the cap's TTFT survival (x itself below 0, where the survival is 1),
    /// by linear interpolation in [`LlmTables::backlog_integral`].
    fn survival_integral(&self, x: f64) -> f64 {
        if x <= 0.0 {
            return x;
        }
        let (dx, table) = (self.backlog_dx, &self.backlog_integral);
        let at = x / dx;
        let k = at as usize;
        if k + 1 >= table.len() {
            // Beyond the table the survival is below a millionth: I barely grows.
            return table[table.len() - 1];
        }
        let f = at - k as f64;
        table[k] * (1.0 - f) + table[k + 1] * f
    }

    /// P(W + P + s > t): P(P > t − s) + ρ·E[e^(−r(t − s − P)); P ≤ t − s].
    fn steady_ttft_survival(&self, step: Step, t: f64) -> f64 {
        let t = t - step.step_s;
        if t <= 0.0 {
            return 1.0;
        }
        let points = self.replica.prefill_points();
        let waited = if step.busy > 0.0 {
            let below = points.partition_point(|&p| p <= t);
            let sum = if below == 0 {
                0.0
            } else if step.sums[0].is_finite() {
                libm::exp(-step.wait_rate * t) * step.sums[below - 1]
            } else {
                points[..below]
                    .iter()
                    .map(|&p| libm::exp(-step.wait_rate * (t - p)))
                    .sum::<f64>()
            };
            sum / points.len() as f64
        } else {
            0.0
        };
        (self.replica.prefill_survival(t) + step.busy * waited).min(1.0)
    }

    /// P(TPOT > t) at step `j`, over the requests of more than one token.
    fn tpot_survival(&self, j: usize, t: f64) -> f64 {
        let step = self.steps[j];
        if j == CAP && self.cap_prompts_bind {
            // A prefill every step: the mean's (a long output averages its prefills).
            return if t < step.tpot_s { 1.0 } else { 0.0 };
        }
        let extra = t - step.step_s;
        if extra <= 0.0 {
            return 1.0;
        }
        let (p1, p2) = (
            self.replica.prefill_mean_s(),
            self.replica.prefill_mean_square_s2(),
        );
        if step.rps <= 0.0 || p1 <= 0.0 {
            return 0.0;
        }
        let free = (1.0 - step.rps * p1).max(1e-6);
        self.intervals
            .iter()
            .map(|&n| {
                // ΣP over n intervals, the prefills of the prompts that arrive while the
                // request waits for its first token and decodes, and of those that arrive
                // while those run: a busy period begun by E[TTFT] + n·s, of mean
                // λ(E[TTFT] + n·s)E[P] ÷ (1 − φ) and variance λ(E[TTFT] + n·s)E[P²] ÷
                // (1 − φ)³; taken as a gamma of those (Wilson–Hilferty).
                let base = step.rps * (n * step.step_s + step.ttft_mean_s);
                let mean = base * p1 / free;
                let variance = base * p2 / (free * free * free);
                let k = mean * mean / variance;
                let theta = variance / mean;
                let x = extra * n / (k * theta);
                let z = (libm::cbrt(x) - (1.0 - 1.0 / (9.0 * k))) * 3.0 * libm::sqrt(k);
                0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
            })
            .sum::<f64>()
            / OUTPUT_POINTS as f64
    }

    fn ttft_p95_at(&self, j: usize) -> f64 {
        self.ttft_p95_s[j]
    }

    fn tpot_p95_at(&self, j: usize) -> f64 {
        self.tpot_p95_s[j]
    }

    /// Most requests a second on a replica at which, in steady state, the TTFT p95 stays
    /// within `ttft_s` and the TPOT p95 within `tpot_s` (to the grid's step: both grow with
    /// the load); 0 when even the lightest load misses one.
    pub fn rps_within(&self, ttft_s: f64, tpot_s: f64) -> f64 {
        let meets = |j: usize| self.ttft_p95_s[j] <= ttft_s && self.tpot_p95_s[j] <= tpot_s;
        (1..=GRID)
            .take_while(|&j| meets(j))
            .last()
            .map_or(0.0, |j| self.steps[j].rps)
    }

    /// TPOT p95 at `rps` requests a second on a replica in steady state, seconds.
    pub fn tpot_p95_at_rps(&self, rps: f64) -> f64 {
        self.tpot_p95_s[self.step_of(rps)]
    }

    /// TTFT p95 at `rps` requests a second on a replica in steady state, seconds.
    pub fn ttft_p95_at_rps(&self, rps: f64) -> f64 {
        self.ttft_p95_s[self.step_of(rps)]
    }

    /// Mean TPOT at `rps` requests a second on a replica, seconds (from the grid).
    pub fn tpot_mean_at(&self, rps: f64) -> f64 {
        self.steps[self.step_of(rps)].tpot_s
    }
}

impl LlmLatency {
    /// A run's record on `tables`.
    pub fn new(tables: Arc<LlmTables>) -> LlmLatency {
        LlmLatency {
            tables,
            weights: vec![0.0; GRID + 1],
            backlog: Waits::default(),
            lost: 0.0,
        }
    }

    /// Its tables.
    pub fn tables(&self) -> &Arc<LlmTables> {
        &self.tables
    }

    /// Adds a minute's requests served at `rps` a replica, in parts of (a backlog's wait
    /// (shortest, longest s), if they waited in one; requests), and `lost` ones; returns its
    /// (TTFT p95, TPOT p95) over all of them, seconds. A backlog's wait counts; M/M/c's over
    /// the batch slots does not (a request waits for a slot only when the KV cache is full,
    /// which is the backlog), and a backlog's requests decode at the cap.
    pub fn add_minute(
        &mut self,
        rps: f64,
        parts: &[(Option<(f64, f64)>, f64)],
        lost: f64,
    ) -> (f64, f64) {
        self.lost += lost;
        let j = self.step_of(rps);
        let served: f64 = parts.iter().map(|p| p.1).sum();
        let total = served + lost;
        for &(wait, requests) in parts {
            match wait {
                Some((low, high)) => self.backlog.add(low, high, requests),
                None => self.weights[j] += requests,
            }
        }
        if total <= 0.0 {
            return (0.0, 0.0);
        }
        // The usual minute: steady, nothing lost: its step's p95s.
        if let [(None, _)] = parts {
            if lost == 0.0 {
                return (self.ttft_p95_at(j), self.tpot_p95_at(j));
            }
        }
        // A backlog's requests are served at the cap.
        let step = |wait: Option<(f64, f64)>| if wait.is_some() { CAP } else { j };
        let ttft = if lost >= P95_TAIL * total {
            f64::INFINITY
        } else {
            let above = |t: f64| {
                parts
                    .iter()
                    .map(|&(wait, w)| {
                        w * match wait {
                            Some((low, high)) => self.backlog_ttft_survival(low, high, t),
                            None => self.ttft_survival(j, t),
                        }
                    })
                    .sum::<f64>()
                    / total
                    + lost / total
            };
            // Past the longest wait and the slowest part's own p95, every part is under the
            // tail (a loss may push the answer further: the search then widens).
            let hi = parts
                .iter()
                .map(|&(wait, _)| wait.map_or(0.0, |w| w.1) + self.ttft_p95_at(step(wait)))
                .fold(0.0, f64::max);
            solve_between(above, P95_TAIL, 0.0, hi)
        };
        let one_step = parts.windows(2).all(|p| step(p[0].0) == step(p[1].0));
        let tpot = match parts.first() {
            _ if served <= 0.0 => 0.0,
            // All at one step: its p95.
            Some(&(wait, _)) if one_step => self.tpot_p95_at(step(wait)),
            _ => {
                let above = |t: f64| {
                    parts
                        .iter()
                        .map(|&(wait, w)| w * self.tpot_survival(step(wait), t))
                        .sum::<f64>()
                        / served
                };
                solve_tail(above, P95_TAIL)
            }
        };
        (ttft, tpot)
    }

    /// The run's TTFT p95 over its requests (dropped ones as never served), seconds; NaN
    /// (none) for a run without requests.
    pub fn ttft_p95_s(&self) -> f64 {
        let served: f64 = self.weights.iter().sum::<f64>() + self.backlog.requests();
        let total = served + self.lost;
        if total <= 0.0 {
            return f64::NAN;
        }
        if self.lost >= P95_TAIL * total {
            return f64::INFINITY;
        }
        let above = |t: f64| {
            let steady = self.by_step(|j| self.ttft_survival(j, t));
            let backlog = self.backlog.sum(|wait| self.ttft_survival(CAP, t - wait));
            (steady + backlog + self.lost) / total
        };
        let (lo, hi) = self.bracket(&self.ttft_p95_s);
        solve_between(above, P95_TAIL, lo, hi)
    }

    /// Σ over the steps the run's requests were served at of their requests × `of(step)`.
    fn by_step(&self, of: impl Fn(usize) -> f64) -> f64 {
        self.weights
            .iter()
            .enumerate()
            .filter(|(_, &w)| w > 0.0)
            .map(|(j, &w)| w * of(j))
            .sum()
    }

    /// The least and greatest steady p95 (of `p95s`) among the steps the run's requests were
    /// served at: the mixture's p95 lies between them (a backlog's or a loss's push it up).
    fn bracket(&self, p95s: &[f64]) -> (f64, f64) {
        let used = || {
            self.weights
                .iter()
                .zip(p95s)
                .filter(|(&w, _)| w > 0.0)
                .map(|(_, &p)| p)
        };
        let lo = used().fold(f64::INFINITY, f64::min);
        let hi = used().fold(0.0, f64::max);
        if lo.is_finite() {
            (lo, hi.max(lo))
        } else {
            (0.0, 1e-3)
        }
    }

    /// The run's TPOT p95 over its served requests, seconds; NaN (none) for a run that
    /// served none (no token was decoded: 0 would read as a perfect TPOT).
    pub fn tpot_p95_s(&self) -> f64 {
        let backlog = self.backlog.requests();
        let total = self.weights.iter().sum::<f64>() + backlog;
        if total <= 0.0 {
            return f64::NAN;
        }
        let above = |t: f64| {
            let steady = self.by_step(|j| self.tpot_survival(j, t));
            (steady + backlog * self.tpot_survival(CAP, t)) / total
        };
        let (lo, hi) = self.bracket(&self.tpot_p95_s);
        solve_between(above, P95_TAIL, lo, hi)
    }
}

/// Requests' waits in a backlog over a run, in bins of wait: a month of overloaded minutes
/// adds a part a minute, and the run's TTFT p95 sums over them at each of its steps, so they
/// are kept in [`WAIT_BINS`] bins (each holding its requests and their mean wait), not one by
/// one (which made an overloaded month's p95 fifty times slower than its minutes).
#[derive(Debug, Clone, Default)]
struct Waits {
    /// Per bin: (requests, Σ requests × wait s); allocated at the first backlog.
    bins: Vec<(f64, f64)>,
}

/// Bins of wait, log-spaced from [`WAIT_LOW_S`] to [`WAIT_HIGH_S`] (1 % apart), the first
/// holding every shorter wait and the last every longer one.
const WAIT_BINS: usize = 2_048;
const WAIT_LOW_S: f64 = 1e-3;
const WAIT_HIGH_S: f64 = 1e6;

impl Waits {
    /// The bin of a wait of `s` seconds.
    fn bin(s: f64) -> usize {
        if s <= WAIT_LOW_S {
            return 0;
        }
        let x = libm::log(s / WAIT_LOW_S) / libm::log(WAIT_HIGH_S / WAIT_LOW_S);
        ((x * WAIT_BINS as f64) as usize).min(WAIT_BINS - 1)
    }

    /// The wait at which bin `k` starts, s.
    fn edge(k: usize) -> f64 {
        WAIT_LOW_S * libm::pow(WAIT_HIGH_S / WAIT_LOW_S, k as f64 / WAIT_BINS as f64)
    }

    /// Adds `requests` whose waits are uniform from `low` to `high` s.
    fn add(&mut self, low: f64, high: f64, requests: f64) {
        if requests <= 0.0 {
            return;
        }
        if self.bins.is_empty() {
            self.bins = vec![(0.0, 0.0); WAIT_BINS];
        }
        let (first, last) = (Waits::bin(low), Waits::bin(high));
        if first == last || high <= low {
            self.bins[first].0 += requests;
            self.bins[first].1 += requests * 0.5 * (low + high);
            return;
        }
        // Each bin the range crosses takes its share of the requests, at the share's mean
        // (the edges by a factor a bin, not a power each).
        let ratio = libm::pow(WAIT_HIGH_S / WAIT_LOW_S, 1.0 / WAIT_BINS as f64);
        let mut from = low;
        let mut edge = Waits::edge(first + 1);
        for k in first..=last {
            let to = if k == last { high } else { edge };
            let share = requests * (to - from) / (high - low);
            self.bins[k].0 += share;
            self.bins[k].1 += share * 0.5 * (from + to);
            from = to;
            edge *= ratio;
        }
    }

    /// Requests that waited.
    fn requests(&self) -> f64 {
        self.bins.iter().map(|b| b.0).sum()
    }

    /// Σ over the bins of their requests × `of(their mean wait)`.
    fn sum(&self, of: impl Fn(f64) -> f64) -> f64 {
        self.bins
            .iter()
            .filter(|b| b.0 > 0.0)
            .map(|&(w, waited)| w * of(waited / w))
            .sum()
    }
}

/// The t at which a survival function (decreasing from 1 to 0) falls to `tail`, to a
/// millionth of it: brackets by doubling from a millisecond, then regula falsi with the
/// Illinois step (a handful of evaluations where bisection takes fifty); infinite if it has
/// not fallen by 10⁹ s.
fn solve_tail(survival: impl Fn(f64) -> f64, tail: f64) -> f64 {
    solve_between(survival, tail, 0.0, 1e-3)
}

/// As [`solve_tail`], from the bracket [`lo`, `hi`] (widened where it does not hold the
/// answer).
fn solve_between(survival: impl Fn(f64) -> f64, tail: f64, lo: f64, hi: f64) -> f64 {
    let (mut a, mut b) = (lo.max(0.0), hi.max(lo).max(1e-6));
    if survival(a) <= tail {
        // Below the bracket: from 0 (the survival is 1 there).
        a = 0.0;
    }
    while survival(b) > tail {
        a = b;
        b *= 2.0;
        if b > 1e9 {
            return f64::INFINITY;
        }
    }
    falls_to(survival, tail, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gpus::find;
    use crate::model::serving::llm::architectures::known;
    use crate::model::serving::llm::roofline::{Efficiencies, Precision, TokenCount};
    use std::sync::Arc;

    /// A replica of `model` on `tp` H100s, tokens as (median, p90) in and out.
    fn on_h100(
        model: &str,
        precision: Precision,
        tp: u32,
        input: (f64, f64),
        output: (f64, f64),
    ) -> Replica {
        Replica::new(
            &known(model).unwrap().architecture,
            precision,
            find("H100").unwrap(),
            tp,
            TokenCount::new(input.0, input.1),
            TokenCount::new(output.0, output.1),
            Efficiencies::CALIBRATED,
        )
        .unwrap()
    }

    #[test]
    fn the_load_within_both_objectives_is_the_last_step_meeting_both() {
        let replica = on_h100(
            "llama-3.1-70b",
            Precision::Bf16,
            4,
            (2_000.0, 2_000.0),
            (200.0, 200.0),
        );
        let t = LlmTables::new(replica);
        // Half the saturation's p95s as objectives: the answer is that step's load (both
        // p95s grow with the load), and a hair less on either objective gives the step before.
        let j = GRID / 2;
        let (ttft, tpot) = (t.ttft_p95_s[j], t.tpot_p95_s[j]);
        assert!(t.ttft_p95_s[j + 1] > ttft && t.tpot_p95_s[j + 1] > tpot);
        assert_eq!(t.rps_within(ttft, tpot), t.steps[j].rps);
        assert!((t.steps[j].rps - 0.5 * t.saturation_rps()).abs() < 1e-9);
        assert_eq!(t.rps_within(f64::INFINITY, tpot), t.steps[j].rps);
        assert!(t.rps_within(ttft, tpot * (1.0 - 1e-9)) < t.steps[j].rps);
        assert!(t.rps_within(ttft * (1.0 - 1e-9), f64::INFINITY) < t.steps[j].rps);
        // An objective no load meets: 0; none at all: the saturation.
        assert_eq!(t.rps_within(t.ttft_p95_s[0] * 0.5, tpot), 0.0);
        assert_eq!(
            t.rps_within(f64::INFINITY, f64::INFINITY),
            t.saturation_rps()
        );
    }

    #[test]
    fn a_backlog_s_uniform_wait_mixes_the_cap_s_ttft_exactly() {
        let replica = on_h100(
            "llama-3.1-70b",
            Precision::Fp8,
            4,
            (1_000.0, 3_000.0),
            (250.0, 700.0),
        );
        let t = LlmTables::new(replica);
        assert_eq!(t.backlog_integral.len(), BACKLOG_STEPS + 1);
        for (low, high) in [(0.0, 0.5), (0.2, 3.0), (5.0, 65.0), (30.0, 30.0)] {
            for at in [0.3, 1.0, 4.0, 20.0, 40.0, 70.0] {
                // The mean of the survival over the wait by the midpoints of 20,000 parts.
                const PARTS: usize = 20_000;
                let fine = (0..PARTS)
                    .map(|k| {
                        let w = low + (high - low) * (k as f64 + 0.5) / PARTS as f64;
                        t.ttft_survival(CAP, at - w)
                    })
                    .sum::<f64>()
                    / PARTS as f64;
                let mixed = t.backlog_ttft_survival(low, high, at);
                assert!(
                    (mixed - fine).abs() < 1e-3,
                    "wait {low}–{high} s, t {at} s: {mixed} against {fine}"
                );
            }
        }
    }

    #[test]
    fn a_backlog_on_a_replica_its_prompts_saturate_waits_once() {
        // 2,000-token prompts, 16-token answers: the prompts saturate the replica before its
        // batch fills, so the pool's queue is the prompts' queue.
        let r = on_h100(
            "llama-3.1-70b",
            Precision::Bf16,
            4,
            (2e3, 2e3),
            (16.0, 16.0),
        );
        assert!(r.prompts_bind());
        let t = LlmTables::new(r.clone());
        // A request that waited 10 s in the backlog: its TTFT is 10 s, its prefill and a step
        // at the cap (prefills of 2,000 tokens all alike: one point).
        let cap = t.steps[CAP];
        let alone = r.prefill_s(2_000.0) + cap.step_s;
        let mut run = LlmLatency::new(Arc::new(t));
        let (ttft, tpot) = run.add_minute(1.0, &[(Some((10.0, 10.0)), 50.0)], 0.0);
        assert!(
            (ttft - (10.0 + alone)).abs() < 0.01,
            "{ttft} against {}",
            10.0 + alone
        );
        // Its TPOT: a step and a prefill a token (a prompt joins every step).
        let per_token = r.prefill_mean_s() + cap.step_s;
        assert!(
            (tpot - per_token).abs() < 0.01 * per_token,
            "{tpot} against {per_token}"
        );
        // Where the batch fills first, the prompt still queues behind the others at the cap.
        let b = on_h100(
            "llama-3.1-70b",
            Precision::Fp8,
            4,
            (1e3, 3e3),
            (250.0, 700.0),
        );
        assert!(!b.prompts_bind());
        let tb = LlmTables::new(b);
        assert!(tb.steps[CAP].busy > 0.5);
        assert_eq!(tb.steps[CAP], tb.steps[GRID]);
    }

    #[test]
    fn a_month_of_backlogs_in_bins_keeps_the_run_s_ttft_p95() {
        let replica = on_h100(
            "llama-3.1-8b",
            Precision::Bf16,
            1,
            (500.0, 1_500.0),
            (200.0, 600.0),
        );
        let mut run = LlmLatency::new(Arc::new(LlmTables::new(replica)));
        // A month of minutes, one in three with a backlog whose wait grows over the minute
        // (from a second or so to a few minutes), the rest steady at 80 % of saturation.
        let rps = 0.8 * run.saturation_rps();
        let mut parts = Vec::new();
        for m in 0..43_200 {
            if m % 3 == 0 {
                let low = 0.5 + f64::from(m % 97) * 1.3;
                let high = low + f64::from(m % 13) * 9.0;
                run.add_minute(rps, &[(Some((low, high)), 100.0)], 0.0);
                parts.push((low, high));
            } else {
                run.add_minute(rps, &[(None, 100.0)], 0.0);
            }
        }
        // The same run's p95 by a fine integral over each backlog's uniform wait, part by part.
        let t = Arc::clone(run.tables());
        let steady = t.steps[t.step_of(rps)];
        let above = |x: f64| {
            const NODES: usize = 64;
            let waited: f64 = parts
                .iter()
                .map(|&(low, high)| {
                    (0..NODES)
                        .map(|k| {
                            let w = low + (high - low) * (k as f64 + 0.5) / NODES as f64;
                            t.steady_ttft_survival(t.steps[CAP], x - w)
                        })
                        .sum::<f64>()
                        / NODES as f64
                })
                .sum();
            let steadies = (43_200 - parts.len()) as f64 * t.steady_ttft_survival(steady, x);
            (100.0 * waited + 100.0 * steadies) / (100.0 * 43_200.0)
        };
        let exact = solve_tail(above, P95_TAIL);
        let binned = run.ttft_p95_s();
        assert!(
            (binned - exact).abs() < 0.01 * exact,
            "binned {binned} s against {exact} s"
        );
        assert_eq!(run.backlog.bins.len(), WAIT_BINS);
    }
}
