//! The latency of many requests together: the mixture of their buckets' latency
//! distributions, each weighted by its requests, with dropped requests as never served (an
//! infinite latency). A run's p95 is the p95 of this mixture, that is of its requests, not a
//! percentile of per-minute percentiles.
//!
//! A month of one-minute buckets holds tens of thousands of distributions, but few distinct
//! ones: steady buckets take their M/M/c latency from a grid (servers, utilisation step) and
//! are merged by that key exactly; backlogged buckets are merged when their shortest and
//! longest waits agree within 0.2 % (plus 2 µs), which moves the p95 by at most as much.
//!
//! Steady buckets are most of a month's, each adding to one part. Their parts are kept by
//! server count, each count's utilisation steps side by side in a band (a bucket's step is
//! near the last one's), so a bucket finds its part in memory it has just used, rather than
//! in a hash table of thousands of parts.

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
    /// The parts in the order they first came (steady parts' weights are in their cells).
    parts: Vec<Part>,
    /// Steady parts of each server count.
    bands: Vec<Band>,
    /// The band of each server count.
    band_of: FxHashMap<u32, usize>,
    /// The server count and band of the last steady part added.
    last: Option<(u32, usize)>,
    backlog: FxHashMap<(i64, i64), usize>,
    lost: f64,
}

/// The steady parts of one server count: the cells of utilisation steps `low`, `low` + 1, ….
#[derive(Debug, Clone, Default)]
struct Band {
    low: u32,
    cells: Vec<Cell>,
}

/// One utilisation step's part: its requests, its p95 (seconds) and where it is in the parts.
#[derive(Debug, Clone, Copy)]
struct Cell {
    weight: f64,
    p95_s: f64,
    part: u32,
}

/// A step with no part yet.
const EMPTY: Cell = Cell {
    weight: 0.0,
    p95_s: 0.0,
    part: u32::MAX,
};

/// Steps added at once below a band's lowest (or more, when the step is further down).
const BAND_GROWTH: u32 = 32;

impl Band {
    /// The cell of `step`, the band widened to it if need be.
    fn cell(&mut self, step: u32) -> &mut Cell {
        if self.cells.is_empty() {
            self.low = step;
        } else if step < self.low {
            let grow = (self.low - step).max(BAND_GROWTH.min(self.low));
            self.cells
                .splice(0..0, std::iter::repeat_n(EMPTY, grow as usize));
            self.low -= grow;
        }
        let i = (step - self.low) as usize;
        if i >= self.cells.len() {
            self.cells.resize(i + 1, EMPTY);
        }
        &mut self.cells[i]
    }
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
    /// step), which `make` gives (latency, p95 in seconds) the first time; returns the part's
    /// p95 (seconds) and its index for [`Mixture::steady_part`].
    pub fn add_steady(
        &mut self,
        key: (u32, u32),
        weight: f64,
        make: impl FnOnce() -> (Latency, f64),
    ) -> (f64, usize) {
        let (servers, step) = key;
        let band = match self.last {
            Some((last, band)) if last == servers => band,
            _ => {
                let next = self.bands.len();
                let band = *self.band_of.entry(servers).or_insert(next);
                if band == next {
                    self.bands.push(Band::default());
                }
                self.last = Some((servers, band));
                band
            }
        };
        let cell = self.bands[band].cell(step);
        if cell.part == EMPTY.part {
            let (latency, p95_s) = make();
            // At most two parts a bucket, and far fewer buckets than 2^32.
            debug_assert!(self.parts.len() < EMPTY.part as usize);
            cell.part = self.parts.len() as u32;
            cell.p95_s = p95_s;
            self.parts.push(Part {
                latency,
                p95_s,
                weight: 0.0,
            });
        }
        cell.weight += weight;
        (cell.p95_s, cell.part as usize)
    }

    /// The latency and p95 of the steady part at `index` (from [`Mixture::add_steady`]), with
    /// `weight` requests.
    pub fn steady_part(&self, index: usize, weight: f64) -> Part {
        Part {
            weight,
            ..self.parts[index]
        }
    }

    /// Adds `requests` that were dropped.
    pub fn add_lost(&mut self, requests: f64) {
        self.lost += requests;
    }

    /// The p95 of all the requests added, milliseconds (0 without requests, infinite when
    /// 5 % or more were dropped or found no replica).
    pub fn p95_ms(&self) -> f64 {
        let mut parts = self.parts.clone();
        for cell in self.bands.iter().flat_map(|b| &b.cells) {
            if cell.part != EMPTY.part {
                parts[cell.part as usize].weight = cell.weight;
            }
        }
        p95_s_of(&parts, self.lost) * 1_000.0
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
    super::queueing::falls_to(above, target, lo, hi)
}

/// Σ weight × P(latency > t) + lost, with M/M/c parts written as a e^(−μt) + b e^(−θt)
/// so that their e^(−μt) (one μ for all the parts of a service) is computed once per t.
///
/// Near a month's p95 most e^(−θt) are far below what the sum can hold (θ = cμ − λ is large
/// for a pool of many servers): a term under 2^−55 of the sum so far leaves its bits as they
/// are, so it is skipped without calling `exp`, on a bound from the numbers' binary exponents.
/// The sum is the one a plain loop gives, bit for bit (tested), for a tenth of the `exp`s.
struct Terms {
    /// (rate, coefficient, a bound on ln |coefficient|): the sum is Σ coefficient ×
    /// e^(−rate × t), with the parts' shared service rates first.
    exps: Vec<(f64, f64, f64)>,
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
            exps: shared
                .into_iter()
                .map(|(rate, c)| (rate, c, ln_upper(c)))
                .collect(),
            others,
            lost,
        }
    }

    fn above(&self, t: f64) -> f64 {
        self.exps_at(t).0
            + self
                .others
                .iter()
                .map(|(l, w)| w * l.survival(t))
                .sum::<f64>()
            + self.lost
    }

    /// Σ coefficient × e^(−rate × t) as `iter().map(…).sum()` gives it (from −0, as std's
    /// float sum), skipping the terms too small to change it; and the `exp`s computed.
    fn exps_at(&self, t: f64) -> (f64, usize) {
        let mut sum = -0.0;
        let mut computed = 0;
        let mut negligible = f64::INFINITY;
        for &(rate, c, ln_c) in &self.exps {
            if rate * t > ln_c + negligible {
                continue;
            }
            sum += c * libm::exp(-rate * t);
            computed += 1;
            negligible = ln_negligible_below(sum);
        }
        (sum, computed)
    }
}

/// The exponent field of `x` as stored (1023 for 1; 0 for zeros and subnormals, 0x7ff for
/// infinities and NaN).
fn biased_exponent(x: f64) -> i32 {
    ((x.to_bits() >> 52) & 0x7ff) as i32
}

/// An upper bound on ln |x| from its binary exponent (|x| < 2^(e + 1)); −∞ for zero, +∞
/// for an infinite or NaN x (its term is never skipped: it makes the sum what it makes it).
fn ln_upper(x: f64) -> f64 {
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    let biased = biased_exponent(x);
    if biased == 0x7ff {
        return f64::INFINITY;
    }
    // A subnormal (biased 0) is below 2^−1022.
    f64::from(biased.max(1) - 1023 + 1) * std::f64::consts::LN_2
}

/// How far below ln |sum| a term must be (ln |term| < ln |sum| − this… written as a bound to
/// add to ln |coefficient|) to leave `sum` unchanged when added: |term| ≤ |sum| × 2^−55 is
/// under half the gap to either neighbour of `sum`, and one e-fold more covers the rounding
/// of `rate × t`, `exp` and the product. Infinite (skip nothing) for a zero, subnormal or
/// non-finite sum.
fn ln_negligible_below(sum: f64) -> f64 {
    let biased = biased_exponent(sum);
    if biased == 0 || biased == 0x7ff {
        return f64::INFINITY;
    }
    // |sum| ≥ 2^(biased − 1023): a term below e^(ln_c − (rate·t)) ≤ 2^(e − 55) / e is
    // negligible when rate·t > ln_c − (e − 55)·ln 2 + 1.
    f64::from(55 - (biased - 1023)) * std::f64::consts::LN_2 + 1.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::{Purpose, Stream};

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
    fn skipping_negligible_terms_keeps_the_sum_bit_for_bit() {
        // Thousands of queues of many servers (large θ, negligible e^(−θt) at a p95), some of
        // few servers or near saturation (θ near or below μ: terms that count, of both
        // signs), times from microseconds to minutes: the sum with terms skipped is the
        // plain loop's, to the bit.
        let mut parts = Vec::new();
        let mut stream = Stream::new(5, 0, Purpose::Traffic, 0);
        let mut next = || stream.uniform();
        for i in 0..3_000u32 {
            let servers = if i % 50 == 0 {
                1 + i % 7
            } else {
                200 + i % 1_800
            };
            let mu = [5.0, 0.5, 40.0][i as usize % 3];
            let rho = if i % 11 == 0 { 0.999 } else { next() * 0.98 };
            let latency =
                Latency::queue(servers, rho * f64::from(servers) * mu, mu).expect("stable");
            parts.push(Part {
                latency,
                p95_s: latency.quantile(P95_TAIL),
                weight: 1.0 + 1e4 * next(),
            });
        }
        let terms = Terms::of(parts.iter(), 0.0);
        let plain = |t: f64| {
            terms
                .exps
                .iter()
                .map(|&(rate, c, _)| c * libm::exp(-rate * t))
                .sum::<f64>()
                + terms
                    .others
                    .iter()
                    .map(|(l, w)| w * l.survival(t))
                    .sum::<f64>()
                + terms.lost
        };
        for k in 0..400 {
            let t = 1e-6 * 1.05f64.powi(k);
            assert_eq!(terms.above(t).to_bits(), plain(t).to_bits(), "t = {t}");
        }
        // Terms at the edge of the rule: a sum of exactly 1 (just below it, the gap between
        // doubles is half as wide), or of 1 − 2^−53 and 1.5, and a term of either sign
        // around 2^−54 of it, in steps of a 25th of an e-fold, its coefficient a power of two
        // or just below one (whose bound on ln |c| is loosest); and coefficients that are
        // infinite or NaN, which the plain sum turns into an infinite or NaN sum.
        for first in [1.0, 1.0 - f64::EPSILON / 2.0, 1.5, -1.0] {
            let below_two = 2.0 - f64::EPSILON;
            for c in [
                1.0,
                -1.0,
                below_two,
                -below_two,
                f64::INFINITY,
                -f64::INFINITY,
                f64::NAN,
            ] {
                // Finite coefficients near the edge; non-finite ones where e^(−rate)
                // underflows to 0 (inf × 0 is NaN, which a skip would hide).
                let from = if c.is_finite() {
                    30.0 * std::f64::consts::LN_2
                } else {
                    700.0
                };
                for k in 0..2_000 {
                    let rate = from + f64::from(k) / 25.0;
                    let edge = Terms {
                        exps: [(0.0, first), (rate, c)]
                            .into_iter()
                            .map(|(r, c)| (r, c, ln_upper(c)))
                            .collect(),
                        others: Vec::new(),
                        lost: 0.0,
                    };
                    let plain = first * libm::exp(-0.0) + c * libm::exp(-rate);
                    let got = edge.exps_at(1.0).0;
                    assert!(
                        got.to_bits() == plain.to_bits() || (got.is_nan() && plain.is_nan()),
                        "{first} + {c} e^−{rate}: {got:e} vs {plain:e}"
                    );
                }
            }
        }
        // Around a p95 of a few hundred milliseconds, few of the 3,000 terms need an `exp`.
        let (_, computed) = terms.exps_at(0.4);
        assert!(computed < 500, "{computed} of {}", terms.exps.len());
    }

    #[test]
    fn steady_parts_are_kept_by_key_in_the_order_they_came() {
        // Keys wandering up and down (steps below a band's lowest widen it) over a few
        // server counts, among backlogs' parts: each key's part holds its requests, and the
        // p95 is that of the parts in the order they first came, as a plain list gives it.
        let mut m = Mixture::default();
        let mut plain: Vec<((u32, u32), Part)> = Vec::new();
        let mut stream = Stream::new(6, 0, Purpose::Traffic, 0);
        for i in 0..5_000u32 {
            let x = stream.next_u64();
            let servers = [3, 40, 7][(i / 700) as usize % 3];
            let step = (1_000 + (x % 400) as u32).saturating_sub(i / 5);
            let weight = 1.0 + (x >> 40) as f64 / 1e6;
            let latency =
                Latency::queue(servers, f64::from(step) / 4_096.0 * f64::from(servers), 1.0)
                    .expect("stable");
            let p95_s = latency.quantile(P95_TAIL);
            let (got, index) = m.add_steady((servers, step), weight, || (latency, p95_s));
            assert_eq!(got, p95_s);
            assert_eq!(
                m.steady_part(index, 2.0),
                Part {
                    latency,
                    p95_s,
                    weight: 2.0
                }
            );
            if i % 97 == 0 {
                // Now and then a backlog's part, which keeps its place among them.
                let backlog = Latency::Backlog {
                    low: 0.0,
                    high: f64::from(i),
                    mu: 1.0,
                };
                let part = Part {
                    latency: backlog,
                    p95_s: backlog.quantile(P95_TAIL),
                    weight: 3.0,
                };
                m.add(part);
                plain.push(((u32::MAX, i), part));
            }
            match plain.iter_mut().find(|(k, _)| *k == (servers, step)) {
                Some((_, p)) => p.weight += weight,
                None => plain.push((
                    (servers, step),
                    Part {
                        latency,
                        p95_s,
                        weight,
                    },
                )),
            }
        }
        let parts: Vec<Part> = plain.iter().map(|(_, p)| *p).collect();
        assert_eq!(m.parts.len(), parts.len());
        assert_eq!(
            m.p95_ms().to_bits(),
            (p95_s_of(&parts, 0.0) * 1_000.0).to_bits()
        );
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
