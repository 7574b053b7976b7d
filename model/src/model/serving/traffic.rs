//! A service's request traffic: a mean rate shaped by an hour-of-day profile and a weekend
//! factor, with spikes placed at random, drawn as a Poisson count per bucket.
//!
//! The week starts on a Monday at the horizon's start (as job arrivals do). The profile and
//! the weekend factor redistribute the rate without changing its mean over a week: the
//! weights are divided by their mean, and weekdays and weekend days are scaled so that
//! (5·weekday + 2·weekend)/7 = 1. Spikes multiply the rate on top of that.
//!
//! A replay is a recorded traffic instead: the requests of each minute of a request trace,
//! played from the horizon's start and again from its first minute when it ends. Its minutes
//! arrive as counted, not drawn, so a horizon as long as the trace serves its requests exactly.

use crate::model::rng::Stream;
use crate::model::rounding::floor_non_negative;
use crate::model::scenario::{DAY_S, HOUR_S};
use crate::model::ziggurat::standard_normal;
use std::sync::Arc;

/// Spikes of traffic: `per_month` of them on average (a Poisson count over the horizon, in
/// 730-hour months), each multiplying the rate by `factor` for `duration_min` minutes,
/// starting at a uniform time in the horizon.
#[derive(Debug, Clone, PartialEq)]
pub struct Spikes {
    /// Mean spikes per 730-hour month.
    pub per_month: f64,
    /// Rate multiplier during a spike.
    pub factor: f64,
    /// Length of one spike, minutes.
    pub duration_min: f64,
}

/// The traffic of one service.
#[derive(Debug, Clone, PartialEq)]
pub struct Traffic {
    /// Mean requests per second over a week, spikes aside.
    pub mean_rps: f64,
    /// Relative weights of the 24 hours of the day (empty: flat).
    pub hourly_profile: Vec<f64>,
    /// Rate on Saturday and Sunday relative to a weekday (1: every day alike).
    pub weekend_factor: f64,
    /// Spikes, if any.
    pub spikes: Option<Spikes>,
    /// Requests in each minute of a recorded trace, played in a loop from the horizon's
    /// start; the other fields are then not read.
    pub replay: Option<Arc<[f64]>>,
}

/// A traffic made concrete for one replication: its spikes placed.
#[derive(Debug, Clone, PartialEq)]
pub struct TrafficPlan {
    weights: [f64; 24],
    weekday: f64,
    weekend: f64,
    mean_rps: f64,
    /// (start, end, factor) of each spike, seconds from the horizon's start, by start.
    spikes: Vec<(f64, f64, f64)>,
    /// Requests in each minute of a replayed trace.
    replay: Option<Arc<[f64]>>,
}

impl Traffic {
    /// Flat traffic at `mean_rps`.
    pub fn flat(mean_rps: f64) -> Traffic {
        Traffic {
            mean_rps,
            hourly_profile: Vec::new(),
            weekend_factor: 1.0,
            spikes: None,
            replay: None,
        }
    }

    /// Requests per second in the busiest hour of the week, spikes aside.
    pub fn busiest_rps(&self) -> f64 {
        self.week_rps().into_iter().fold(0.0, f64::max)
    }

    /// Requests per second in each of the week's 168 hours from Monday 0:00, spikes aside.
    pub fn week_rps(&self) -> Vec<f64> {
        let plan = Traffic {
            spikes: None,
            ..self.clone()
        }
        .plan(
            0.0,
            &mut Stream::new(0, 0, crate::model::rng::Purpose::Traffic, 0),
        );
        (0..168)
            .map(|h| plan.mean_rate(f64::from(h) * HOUR_S, HOUR_S))
            .collect()
    }

    /// This traffic over `horizon_s`, its spikes drawn from `stream`.
    pub fn plan(&self, horizon_s: f64, stream: &mut Stream) -> TrafficPlan {
        let mut weights = [1.0; 24];
        if self.hourly_profile.len() == 24 {
            let mean = self.hourly_profile.iter().sum::<f64>() / 24.0;
            if mean > 0.0 {
                for (w, p) in weights.iter_mut().zip(&self.hourly_profile) {
                    *w = p / mean;
                }
            }
        }
        let weekday = 7.0 / (5.0 + 2.0 * self.weekend_factor);
        let mut spikes = Vec::new();
        if let Some(s) = self.spikes.as_ref().filter(|_| self.replay.is_none()) {
            let months = horizon_s / (crate::model::HOURS_PER_MONTH * HOUR_S);
            let count = poisson(stream, s.per_month * months);
            for _ in 0..count {
                let start = stream.uniform() * horizon_s;
                spikes.push((start, start + s.duration_min * 60.0, s.factor));
            }
            spikes.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        TrafficPlan {
            weights,
            weekday,
            weekend: weekday * self.weekend_factor,
            mean_rps: self.mean_rps,
            spikes,
            replay: self.replay.clone().filter(|r| !r.is_empty()),
        }
    }
}

impl TrafficPlan {
    /// Requests per second at `t` seconds from the horizon's start.
    pub fn rate_at(&self, t: f64) -> f64 {
        if let Some(minutes) = &self.replay {
            return minutes[replay_minute(t, minutes.len())] / MINUTE_S;
        }
        let day = (t / DAY_S).floor() as i64;
        let hour = ((t - day as f64 * DAY_S) / HOUR_S).floor().clamp(0.0, 23.0) as usize;
        let day_factor = if day.rem_euclid(7) >= 5 {
            self.weekend
        } else {
            self.weekday
        };
        let spike: f64 = self
            .spikes
            .iter()
            .filter(|(a, b, _)| *a <= t && t < *b)
            .map(|s| s.2)
            .fold(1.0, f64::max);
        self.mean_rps * self.weights[hour] * day_factor * spike
    }

    /// Mean requests per second over [`from`, `from + length`), exact for the piecewise
    /// constant rate (hours, days and spike edges inside the interval are followed).
    pub fn mean_rate(&self, from: f64, length: f64) -> f64 {
        if self.replay.is_some() {
            return self.replayed(from, length).unwrap_or(0.0) / length;
        }
        let to = from + length;
        // Within one hour and across no spike's edge, the rate is constant.
        let one_hour = (from / HOUR_S).floor() == ((to - 1e-9) / HOUR_S).floor();
        if one_hour
            && !self
                .spikes
                .iter()
                .any(|&(a, b, _)| (from < a && a < to) || (from < b && b < to))
        {
            return self.rate_at(from);
        }
        let mut cuts = vec![from, to];
        let mut h = (from / HOUR_S).floor() + 1.0;
        while h * HOUR_S < to {
            cuts.push(h * HOUR_S);
            h += 1.0;
        }
        for &(a, b, _) in &self.spikes {
            for x in [a, b] {
                if from < x && x < to {
                    cuts.push(x);
                }
            }
        }
        cuts.sort_by(f64::total_cmp);
        let total: f64 = cuts
            .windows(2)
            .map(|w| (w[1] - w[0]) * self.rate_at(0.5 * (w[0] + w[1])))
            .sum();
        total / length
    }

    /// The first time after `t` at which the rate may change: the next hour, or a spike's
    /// start or end before it.
    pub fn next_edge(&self, t: f64) -> f64 {
        if self.replay.is_some() {
            return ((t / MINUTE_S).floor() + 1.0) * MINUTE_S;
        }
        let hour = ((t / HOUR_S).floor() + 1.0) * HOUR_S;
        self.spikes
            .iter()
            .flat_map(|&(a, b, _)| [a, b])
            .filter(|&x| x > t)
            .fold(hour, f64::min)
    }

    /// The spikes placed: (start, end, factor), seconds.
    pub fn spikes(&self) -> &[(f64, f64, f64)] {
        &self.spikes
    }

    /// A replay's requests in [`from`, `from + length`): each minute's count, in part where
    /// the interval holds part of the minute (a whole minute's count exactly). `None` for a
    /// traffic that is drawn, not replayed.
    pub fn replayed(&self, from: f64, length: f64) -> Option<f64> {
        let minutes = self.replay.as_ref()?;
        let to = from + length;
        let mut total = 0.0;
        let mut m = (from / MINUTE_S).floor();
        while m * MINUTE_S < to {
            let (a, b) = ((m * MINUTE_S).max(from), ((m + 1.0) * MINUTE_S).min(to));
            let count = minutes[replay_minute((m + 0.5) * MINUTE_S, minutes.len())];
            total += if b - a >= MINUTE_S {
                count
            } else {
                count * (b - a) / MINUTE_S
            };
            m += 1.0;
        }
        Some(total)
    }
}

/// Seconds in a minute: a replay's step.
const MINUTE_S: f64 = 60.0;

/// The replay's minute at `t` (it loops over its `len` minutes).
fn replay_minute(t: f64, len: usize) -> usize {
    ((t / MINUTE_S).floor().max(0.0) as u64 % len as u64) as usize
}

/// A Poisson draw of mean `mean` ≥ 0: by multiplication of uniforms below 10, by Ahrens and
/// Dieter's normal-based method from 10 up; libm only, so the same bits everywhere.
pub fn poisson(stream: &mut Stream, mean: f64) -> u64 {
    Poisson::new(mean).draw(stream) as u64
}

/// Poisson draws of one mean, its constants computed once (a traffic's rate holds for an
/// hour of buckets).
///
/// From a mean of 10 up, the method is Ahrens and Dieter's PD ("Computer Generation of
/// Poisson Deviates from Modified Normal Distributions", ACM TOMS 8(2), 1982; as R's `rpois`
/// and Julia's `PoissonADSampler` run it): ⌊mean + √mean · z⌋ for a standard normal z
/// ([`crate::model::ziggurat`]) is taken at once when it is at least ⌊mean − 1.1484⌋, and
/// below that after a cheap squeeze (at 60,000 requests a minute, about one draw in two
/// thousand goes further); a quotient test and a double-exponential hat correct the rest.
/// The probabilities of the counts are computed to about 1e-10 (Stirling's series to three
/// terms, where the paper takes two); the normal's own share of a count is the paper's series,
/// so the counts' probabilities are R's: within 2e-9 (relative) of Poisson's at a mean of 10,
/// 4e-9 at 37.5 and under 1e-13 from 600 up, far below what any Monte Carlo here resolves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Poisson {
    mean: f64,
    /// e^(−mean), below 10.
    limit: f64,
    /// √mean.
    s: f64,
    /// 6 mean²: the squeeze's bound.
    d: f64,
    /// ⌊mean − 1.1484⌋: counts from it up are taken at once.
    big_l: f64,
    /// ln mean.
    log_mean: f64,
    /// The hat's constants: ω = 1/√(2π mean), c0–c3 and c.
    omega: f64,
    c: [f64; 4],
    hat: f64,
}

/// 1/√(2π).
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

impl Poisson {
    /// Draws of mean `mean` (none, 0, when it is not a finite positive number).
    pub fn new(mean: f64) -> Poisson {
        let mean = if mean > 0.0 && mean.is_finite() {
            mean
        } else {
            0.0
        };
        if mean < 10.0 {
            // By multiplication of uniforms: only e^(−mean) is needed.
            return Poisson {
                mean,
                limit: libm::exp(-mean),
                s: 0.0,
                d: 0.0,
                big_l: 0.0,
                log_mean: 0.0,
                omega: 0.0,
                c: [0.0; 4],
                hat: 0.0,
            };
        }
        let s = mean.sqrt();
        let b1 = 1.0 / (24.0 * mean);
        let b2 = 0.3 * b1 * b1;
        let c3 = b1 * b2 / 7.0;
        let c2 = b2 - 15.0 * c3;
        let c1 = b1 - 6.0 * b2 + 45.0 * c3;
        let c0 = 1.0 - b1 + 3.0 * b2 - 15.0 * c3;
        Poisson {
            mean,
            limit: 0.0,
            s,
            d: 6.0 * mean * mean,
            big_l: floor_non_negative(mean - 1.1484),
            log_mean: libm::log(mean),
            omega: INV_SQRT_2PI / s,
            c: [c0, c1, c2, c3],
            hat: 0.1069 / mean,
        }
    }

    /// The mean.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// One draw (a whole number, as a float: the pool counts requests in floats).
    #[inline]
    pub fn draw(&self, stream: &mut Stream) -> f64 {
        let mean = self.mean;
        if mean == 0.0 {
            return 0.0;
        }
        if mean < 10.0 {
            let mut k = 0.0;
            let mut product = stream.uniform();
            while product > self.limit {
                k += 1.0;
                product *= stream.uniform();
            }
            return k;
        }
        // Step N: a normal sample, taken at once (step I) from ⌊mean − 1.1484⌋ up.
        let g = mean + self.s * standard_normal(stream);
        if g >= 0.0 {
            let k = floor_non_negative(g);
            if k >= self.big_l {
                return k;
            }
            // Step S: the squeeze.
            let u = stream.uniform();
            let below = mean - k;
            if self.d * u >= below * below * below {
                return k;
            }
            // Step Q: the quotient test.
            let (log_p, fx, fy) = self.terms(k);
            if fy - u * fy <= libm::exp(log_p - fx) {
                return k;
            }
        }
        self.draw_under_the_hat(stream)
    }

    /// Steps E and H: draws from a double-exponential hat, until one is accepted (rare: when
    /// the normal sample was negative or failed the quotient test).
    #[cold]
    #[inline(never)]
    fn draw_under_the_hat(&self, stream: &mut Stream) -> f64 {
        loop {
            let e = -libm::log(stream.open_uniform());
            let u = 2.0 * stream.uniform() - 1.0;
            let t = 1.8 + e.copysign(u);
            if t <= -0.6744 {
                continue;
            }
            let k = floor_non_negative(self.mean + self.s * t);
            let (log_p, fx, fy) = self.terms(k);
            if self.hat * u.abs() <= libm::exp(log_p + e) - fy * libm::exp(fx + e) {
                return k;
            }
        }
    }

    /// Procedure F for count `k`: ln P(k), and the exponent and factor of the normal
    /// approximation the method corrects.
    fn terms(&self, k: f64) -> (f64, f64, f64) {
        let x = (k - self.mean + 0.5) / self.s;
        let xx = x * x;
        let [c0, c1, c2, c3] = self.c;
        (
            self.log_probability(k),
            -0.5 * xx,
            self.omega * (((c3 * xx + c2) * xx + c1) * xx + c0),
        )
    }

    /// ln P(k) for this mean. From k = 10 up, as k·(ln(1 + v) − v) − ½ ln(2πk) − δ(k) with
    /// v = (mean − k)/k and Stirling's correction δ(k) = 1/12k − 1/360k³ + 1/1260k⁵ (off by
    /// under 1e-10): no large terms cancel, so it holds at a mean of 10¹² as at 10, where
    /// −mean + k ln mean − ln k! loses its last digits to cancellation.
    fn log_probability(&self, k: f64) -> f64 {
        if k < 10.0 {
            return -self.mean + k * self.log_mean - libm::lgamma(k + 1.0);
        }
        let v = (self.mean - k) / k;
        let r = 1.0 / k;
        let r2 = r * r;
        let delta = r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 / 1260.0));
        k * (libm::log1p(v) - v) - 0.5 * libm::log(std::f64::consts::TAU * k) - delta
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::Purpose;

    fn stream() -> Stream {
        Stream::new(7, 0, Purpose::Jobs, 99)
    }

    #[test]
    fn poisson_draws_have_the_mean_and_variance_asked() {
        for mean in [0.3, 4.0, 10.0, 37.5, 600.0, 60_000.0] {
            let mut s = stream();
            let n = 40_000;
            let draws: Vec<f64> = (0..n).map(|_| poisson(&mut s, mean) as f64).collect();
            let m = draws.iter().sum::<f64>() / n as f64;
            let var = draws.iter().map(|d| (d - m).powi(2)).sum::<f64>() / (n as f64 - 1.0);
            // Four standard errors of the mean (σ/√n with σ² = mean) and of the variance
            // (≈ σ²·√(2/n) for a near-normal count).
            let se = (mean / n as f64).sqrt();
            assert!((m - mean).abs() < 4.0 * se, "mean {mean}: {m}");
            let se_var = mean * (2.0 / n as f64).sqrt() + mean / n as f64;
            assert!(
                (var - mean).abs() < 5.0 * se_var,
                "mean {mean}: variance {var}"
            );
        }
    }

    #[test]
    fn poisson_draws_follow_the_poisson_distribution() {
        // A χ² test against the exact probabilities, each count its own bin where at least
        // 20 draws are expected and the tails pooled, at means either side of the method's
        // switch at 10, near it and far above it; then the share of draws in the far tails.
        for (mean, seed) in [
            (9.5, 1),
            (10.0, 2),
            (13.7, 3),
            (37.5, 4),
            (600.0, 5),
            (60_000.0, 6),
        ] {
            let mut s = Stream::new(seed, 0, Purpose::Traffic, 7);
            let n = 400_000u32;
            let draws = Poisson::new(mean);
            let mut counts = std::collections::BTreeMap::<u64, u64>::new();
            for _ in 0..n {
                let k = draws.draw(&mut s);
                assert_eq!(k, k.floor(), "a count is whole");
                *counts.entry(k as u64).or_default() += 1;
            }
            let p = |k: u64| {
                libm::exp(-mean + k as f64 * libm::log(mean) - libm::lgamma(k as f64 + 1.0))
            };
            let expected = |k: u64| f64::from(n) * p(k);
            // The bins: the counts from the first to the last expecting 20 draws; below and
            // above them, one bin each.
            let sd = mean.sqrt();
            let from = (mean - 8.0 * sd).max(0.0) as u64;
            let to = (mean + 8.0 * sd) as u64 + 30;
            let kept: Vec<u64> = (from..=to).filter(|&k| expected(k) >= 20.0).collect();
            let (low, high) = (kept[0], *kept.last().unwrap());
            let observed = |range: &mut dyn Iterator<Item = u64>| -> f64 {
                range
                    .map(|k| counts.get(&k).copied().unwrap_or(0) as f64)
                    .sum()
            };
            let below_p: f64 = (0..low).map(p).sum();
            let mut bins = vec![
                (observed(&mut (0..low)), f64::from(n) * below_p),
                (
                    counts.range(high + 1..).map(|(_, &c)| c as f64).sum(),
                    f64::from(n) * (1.0 - below_p - kept.iter().map(|&k| p(k)).sum::<f64>()),
                ),
            ];
            bins.extend(kept.iter().map(|&k| (observed(&mut (k..=k)), expected(k))));
            bins.retain(|b| b.1 > 0.0);
            let chi2: f64 = bins.iter().map(|(o, e)| (o - e).powi(2) / e).sum();
            // The 99.9th percentile of χ² with `df` degrees of freedom (Wilson–Hilferty).
            let df = (bins.len() - 1) as f64;
            let w = 2.0 / (9.0 * df);
            let limit = df * (1.0 - w + 3.09 * w.sqrt()).powi(3);
            assert!(
                chi2 < limit,
                "mean {mean}: χ² {chi2} over {df} degrees, limit {limit}"
            );
            // Beyond 3.5 standard deviations either side, by the exact probabilities.
            let far_p: f64 = (0..=to)
                .filter(|&k| (k as f64 - mean).abs() > 3.5 * sd)
                .map(p)
                .sum();
            let far: f64 = counts
                .iter()
                .filter(|(&k, _)| (k as f64 - mean).abs() > 3.5 * sd)
                .map(|(_, &c)| c as f64)
                .sum();
            let want = far_p * f64::from(n);
            assert!(
                (far - want).abs() < 4.0 * want.sqrt() + 2.0,
                "mean {mean}: {far} beyond 3.5σ vs {want}"
            );
        }
    }

    #[test]
    fn count_probabilities_hold_from_small_to_huge_means() {
        // Against −mean + k ln mean − ln k! where that is exact enough (small means), and by
        // hand at a mean of 10¹²: ln P(mean) = −½ ln(2π 10¹²) − 1/(12·10¹²) + …
        for mean in [10.0, 13.7, 37.5, 600.0] {
            let p = Poisson::new(mean);
            for k in [
                7.0,
                10.0,
                11.0,
                (mean * 0.8_f64).floor(),
                mean.floor(),
                (mean * 1.3_f64).floor(),
            ] {
                let plain = -mean + k * libm::log(mean) - libm::lgamma(k + 1.0);
                let ours = p.log_probability(k);
                assert!(
                    (ours - plain).abs() < 1e-9,
                    "mean {mean}, k {k}: {ours} vs {plain}"
                );
            }
        }
        let huge = Poisson::new(1e12);
        let by_hand = -0.5 * (libm::log(std::f64::consts::TAU) + 12.0 * libm::log(10.0));
        assert!((huge.log_probability(1e12) - by_hand).abs() < 1e-9);
        // One standard deviation away: −½ to within 1/(2√mean)-order terms.
        let off = huge.log_probability(1e12 + 1e6) - huge.log_probability(1e12);
        assert!((off + 0.5).abs() < 1e-5, "{off}");
    }

    #[test]
    fn the_profile_and_weekend_keep_the_weekly_mean() {
        let mut profile = vec![1.0; 24];
        profile[9] = 5.0;
        profile[3] = 0.0;
        let t = Traffic {
            mean_rps: 12.0,
            hourly_profile: profile,
            weekend_factor: 0.25,
            spikes: None,
            replay: None,
        };
        let plan = t.plan(7.0 * DAY_S, &mut stream());
        let week = plan.mean_rate(0.0, 7.0 * DAY_S);
        assert!((week - 12.0).abs() < 1e-9, "{week}");
        // Monday 09:00: the weights sum to 22 + 5 + 0 = 27, so hour 9 is 5/(27/24) of the mean;
        // the weekday factor is 7/(5 + 2 × 0.25).
        let monday_nine = plan.rate_at(9.5 * HOUR_S);
        assert!((monday_nine - 12.0 * (5.0 * 24.0 / 27.0) * (7.0 / 5.5)).abs() < 1e-9);
        // Saturday is a quarter of a weekday.
        let saturday_nine = plan.rate_at(5.0 * DAY_S + 9.5 * HOUR_S);
        assert!((saturday_nine - 0.25 * monday_nine).abs() < 1e-9);
        assert_eq!(plan.rate_at(3.5 * HOUR_S), 0.0);
    }

    #[test]
    fn the_busiest_hour_is_the_heaviest_weight_on_a_weekday() {
        let mut hours = vec![0.0; 24];
        hours[10] = 2.0;
        hours[11] = 1.0;
        let t = Traffic {
            mean_rps: 3.0,
            hourly_profile: hours,
            weekend_factor: 0.5,
            spikes: Some(Spikes {
                per_month: 100.0,
                factor: 10.0,
                duration_min: 60.0,
            }),
            replay: None,
        };
        // Weights 2 ÷ (3/24) = 16; weekdays 7 ÷ (5 + 2 × 0.5); spikes aside.
        assert!((t.busiest_rps() - 3.0 * 16.0 * 7.0 / 6.0).abs() < 1e-9);
        assert_eq!(Traffic::flat(2.0).busiest_rps(), 2.0);
    }

    #[test]
    fn a_replay_plays_its_minutes_in_a_loop() {
        let t = Traffic {
            replay: Some(Arc::from([3.0, 0.0, 6.0].as_slice())),
            // Not read beside a replay.
            spikes: Some(Spikes {
                per_month: 1e4,
                factor: 10.0,
                duration_min: 60.0,
            }),
            ..Traffic::flat(99.0)
        };
        let plan = t.plan(DAY_S, &mut stream());
        assert!(plan.spikes().is_empty());
        // Minute 4 is the loop's second minute; minute 5 its third.
        assert_eq!(plan.replayed(4.0 * 60.0, 60.0), Some(0.0));
        assert_eq!(plan.replayed(5.0 * 60.0, 60.0), Some(6.0));
        assert_eq!(plan.rate_at(5.5 * 60.0), 0.1);
        // Half of minute 2 and all of minute 3: 3 + 3.
        assert_eq!(plan.replayed(150.0, 90.0), Some(6.0));
        assert!((plan.mean_rate(0.0, 180.0) - 9.0 / 180.0).abs() < 1e-15);
        assert_eq!(plan.next_edge(61.0), 120.0);
        // A day of 480 loops: 480 × 9 requests, exactly.
        assert_eq!(plan.replayed(0.0, DAY_S), Some(4_320.0));
        assert_eq!(
            Traffic::flat(1.0)
                .plan(DAY_S, &mut stream())
                .replayed(0.0, 60.0),
            None
        );
    }

    #[test]
    fn spikes_multiply_the_rate_while_they_last() {
        let t = Traffic {
            spikes: Some(Spikes {
                per_month: 20.0,
                factor: 10.0,
                duration_min: 60.0,
            }),
            ..Traffic::flat(2.0)
        };
        let plan = t.plan(30.0 * DAY_S, &mut stream());
        assert!(!plan.spikes().is_empty());
        let (a, b, _) = plan.spikes()[0];
        assert_eq!(b - a, 3_600.0);
        assert_eq!(plan.rate_at(a + 1.0), 20.0);
        // A one-minute window across the spike's start: half at 2, half at 20.
        assert!((plan.mean_rate(a - 30.0, 60.0) - 11.0).abs() < 1e-9);
    }
}
