//! The latency of many requests together: the mixture of their buckets' latency
//! distributions, each weighted by its requests, with dropped requests as never served (an
//! infinite latency). A run's p95 is the p95 of this mixture, that is of its requests, not a
//! percentile of per-minute percentiles.
//!
//! A month of one-minute buckets holds tens of thousands of distributions, but few distinct
//! ones: steady buckets take their M/M/c latency from a grid (servers, utilisation step) and
//! are merged by that key exactly; backlogged buckets are merged when their shortest and
//! longest waits agree within 0.2 % (plus 2 µs), which moves the p95 by at most as much.

use super::queueing::{Latency, P95_TAIL};
use rustc_hash::FxHashMap;

/// One distribution of the mixture: its latency, its own p95 (seconds) and its requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    /// The requests' latency distribution.
    pub latency: Latency,
    /// Its p95, seconds (infinite when stalled).
    pub p95_s: f64,
    /// Requests with this latency.
    pub weight: f64,
}

/// Requests' latencies accumulated over buckets.
#[derive(Debug, Clone, Default)]
pub struct Mixture {
    parts: Vec<Part>,
    /// Parts of steady buckets by their grid key, servers in the high half, step in the low.
    steady: FxHashMap<u64, usize>,
    backlog: FxHashMap<(i64, i64), usize>,
    lost: f64,
}

/// The grid on which backlogged waits are merged: 500 steps per e-fold of (1 + wait ÷ 1 ms).
fn wait_step(wait_s: f64) -> i64 {
    if wait_s.is_finite() {
        (libm::log1p(wait_s * 1_000.0) * 500.0).round() as i64
    } else {
        i64::MAX
    }
}

impl Mixture {
    /// Adds `part`, a backlog's (or a stall's) latency with its requests.
    pub fn add(&mut self, part: Part) {
        if part.weight <= 0.0 {
            return;
        }
        if let Latency::Backlog { low, high, .. } = part.latency {
            let key = (wait_step(low), wait_step(high));
            if let Some(&i) = self.backlog.get(&key) {
                self.parts[i].weight += part.weight;
                return;
            }
            self.backlog.insert(key, self.parts.len());
        }
        self.parts.push(part);
    }

    /// Adds `weight` requests with the M/M/c latency of grid key `key` (servers, utilisation
    /// step), which `make` gives (latency, p95 in seconds) the first time; returns the part.
    pub fn add_steady(
        &mut self,
        key: (u32, u32),
        weight: f64,
        make: impl FnOnce() -> (Latency, f64),
    ) -> Part {
        let packed = u64::from(key.0) << 32 | u64::from(key.1);
        let i = match self.steady.get(&packed) {
            Some(&i) => i,
            None => {
                let (latency, p95_s) = make();
                self.steady.insert(packed, self.parts.len());
                self.parts.push(Part {
                    latency,
                    p95_s,
                    weight: 0.0,
                });
                self.parts.len() - 1
            }
        };
        self.parts[i].weight += weight;
        self.parts[i]
    }

    /// Adds `requests` that were dropped.
    pub fn add_lost(&mut self, requests: f64) {
        self.lost += requests;
    }

    /// The p95 of all the requests added, milliseconds (0 without requests, infinite when
    /// 5 % or more were dropped or found no replica).
    pub fn p95_ms(&self) -> f64 {
        p95_s_of(&self.parts, self.lost) * 1_000.0
    }
}

/// The p95 (seconds) of requests with the latencies of `parts` and `lost` requests that were
/// never served: the t at which (Σ weight × P(latency > t) + lost) ÷ all = 5 %.
pub fn p95_s_of(parts: &[Part], lost: f64) -> f64 {
    let total = parts.iter().map(|p| p.weight).sum::<f64>() + lost;
    if total <= 0.0 {
        return 0.0;
    }
    let target = P95_TAIL * total;
    if lost >= target {
        return f64::INFINITY;
    }
    let live = || parts.iter().filter(|p| p.weight > 0.0);
    let mut each = live();
    if let (Some(only), None) = (each.next(), each.next()) {
        if lost == 0.0 {
            return only.p95_s;
        }
    }
    let terms = Terms::of(live(), lost);
    let above = |t: f64| terms.above(t);
    // The mixture's p95 lies between its parts' least and greatest p95 when nothing is lost;
    // lost requests push it up, so the top is doubled until enough lies below it.
    let mut lo = live().map(|p| p.p95_s).fold(f64::INFINITY, f64::min);
    let mut hi = live().map(|p| p.p95_s).fold(0.0, f64::max);
    if !hi.is_finite() || !lo.is_finite() {
        // A stalled part: the p95 is finite only if the stalled requests are under 5 %.
        hi = live()
            .map(|p| p.p95_s)
            .filter(|p| p.is_finite())
            .fold(1e-3, f64::max);
        lo = 0.0;
    }
    while above(hi) > target {
        hi *= 2.0;
        if hi > 1e9 {
            return f64::INFINITY;
        }
    }
    // To a millionth of the p95 (far below what a latency objective distinguishes), by
    // regula falsi with the Illinois step: a month's mixture holds thousands of parts, and
    // this takes a handful of evaluations where bisection takes thirty.
    let (mut a, mut fa) = (lo, above(lo) - target);
    let (mut b, mut fb) = (hi, above(hi) - target);
    if fa <= 0.0 {
        return lo;
    }
    let mut kept = 0i8;
    while b - a > 1e-6 * b {
        // The secant's root, kept inside the bracket's middle 98 % so that it always shrinks.
        let width = b - a;
        let c = (a - fa * width / (fb - fa)).clamp(a + 0.01 * width, b - 0.01 * width);
        let fc = above(c) - target;
        if fc > 0.0 {
            (a, fa) = (c, fc);
            if kept == 1 {
                fb *= 0.5;
            }
            kept = 1;
        } else {
            (b, fb) = (c, fc);
            if kept == -1 {
                fa *= 0.5;
            }
            kept = -1;
        }
    }
    0.5 * (a + b)
}

/// Σ weight × P(latency > t) + lost, with M/M/c parts written as a e^(−μt) + b e^(−θt)
/// so that their e^(−μt) (one μ for all the parts of a service) is computed once per t.
struct Terms {
    /// (rate, coefficient): the sum is Σ coefficient × e^(−rate × t), with the parts' shared
    /// service rates first.
    exps: Vec<(f64, f64)>,
    /// Parts kept whole (backlogs, stalls, and queues whose θ is within 0.1 % of μ, whose
    /// two terms would nearly cancel), with their weights.
    others: Vec<(Latency, f64)>,
    lost: f64,
}

impl Terms {
    fn of<'a>(parts: impl Iterator<Item = &'a Part>, lost: f64) -> Terms {
        let mut shared: Vec<(f64, f64)> = Vec::new();
        let mut exps = Vec::new();
        let mut others = Vec::new();
        for p in parts {
            match p.latency {
                Latency::Queue { wait, theta, mu } if (theta - mu).abs() > 1e-3 * mu => {
                    // (1 − C)e^(−μt) + C(θe^(−μt) − μe^(−θt))/(θ − μ).
                    let a = p.weight * ((1.0 - wait) + wait * theta / (theta - mu));
                    let b = -p.weight * wait * mu / (theta - mu);
                    match shared.iter_mut().find(|s| s.0 == mu) {
                        Some(s) => s.1 += a,
                        None => shared.push((mu, a)),
                    }
                    if b != 0.0 {
                        exps.push((theta, b));
                    }
                }
                latency => others.push((latency, p.weight)),
            }
        }
        shared.extend(exps);
        Terms {
            exps: shared,
            others,
            lost,
        }
    }

    fn above(&self, t: f64) -> f64 {
        self.exps
            .iter()
            .map(|&(rate, c)| c * libm::exp(-rate * t))
            .sum::<f64>()
            + self
                .others
                .iter()
                .map(|(l, w)| w * l.survival(t))
                .sum::<f64>()
            + self.lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp_part(mu: f64, weight: f64) -> Part {
        let latency = Latency::queue(1, 0.0, mu).expect("stable");
        Part {
            latency,
            p95_s: latency.quantile(P95_TAIL),
            weight,
        }
    }

    #[test]
    fn one_part_is_its_own_p95() {
        let p = exp_part(2.0, 10.0);
        assert!((p95_s_of(&[p], 0.0) - libm::log(20.0) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn two_exponentials_by_hand() {
        // Half the requests Exp(1), half Exp(1/10): 0.5 e^(−t) + 0.5 e^(−t/10) = 0.05 at
        // t ≈ 23.02585 (e^(−t) is negligible there: t = 10 ln 10, then a correction of
        // 10 × e^(−23)/0.1… below 1e-6).
        let got = p95_s_of(&[exp_part(1.0, 5.0), exp_part(0.1, 5.0)], 0.0);
        let f = |t: f64| 0.5 * libm::exp(-t) + 0.5 * libm::exp(-t / 10.0) - 0.05;
        assert!(f(got).abs() < 1e-6, "{got}");
        assert!((got - 10.0 * libm::log(10.0)).abs() < 1e-3, "{got}");
    }

    #[test]
    fn dropped_requests_count_as_never_served() {
        // 2 % lost: the rest must leave 3 % above t, e^(−t) × 0.98 = 0.03.
        let got = p95_s_of(&[exp_part(1.0, 98.0)], 2.0);
        assert!((got - libm::log(0.98 / 0.03)).abs() < 1e-5, "{got}");
        // 5 % lost or more: no finite p95.
        assert!(p95_s_of(&[exp_part(1.0, 95.0)], 5.0).is_infinite());
    }

    #[test]
    fn queues_written_as_exponentials_keep_their_survival() {
        // M/M/c parts at loads from light to heavy (θ near μ among them) and a backlog: the
        // sum the p95 is found on equals Σ weight × P(T > t) part by part.
        let mut parts = Vec::new();
        for (c, lambda) in [(1, 0.5), (4, 3.0), (8, 7.9), (2, 1.0), (16, 2.0)] {
            let latency = Latency::queue(c, lambda, 1.0).expect("stable");
            parts.push(Part {
                latency,
                p95_s: latency.quantile(P95_TAIL),
                weight: f64::from(c),
            });
        }
        let backlog = Latency::Backlog {
            low: 1.0,
            high: 4.0,
            mu: 1.0,
        };
        parts.push(Part {
            latency: backlog,
            p95_s: backlog.quantile(P95_TAIL),
            weight: 3.0,
        });
        let terms = Terms::of(parts.iter(), 0.5);
        for t in [0.01, 0.3, 1.0, 2.5, 7.0, 30.0] {
            let direct: f64 = parts
                .iter()
                .map(|p| p.weight * p.latency.survival(t))
                .sum::<f64>()
                + 0.5;
            assert!(
                (terms.above(t) - direct).abs() < 1e-12 * direct.max(1.0),
                "t = {t}"
            );
        }
    }

    #[test]
    fn merged_parts_keep_their_weight() {
        let mut m = Mixture::default();
        let p = exp_part(1.0, 3.0);
        let q = exp_part(0.1, 6.0);
        m.add_steady((1, 0), 3.0, || (p.latency, p.p95_s));
        m.add_steady((1, 0), 3.0, || unreachable!("merged"));
        m.add_steady((1, 7), 6.0, || (q.latency, q.p95_s));
        let merged = m.p95_ms();
        let direct = p95_s_of(&[exp_part(1.0, 6.0), exp_part(0.1, 6.0)], 0.0) * 1_000.0;
        assert!(
            (merged - direct).abs() < 1e-9 * direct,
            "{merged} vs {direct}"
        );
    }
}
