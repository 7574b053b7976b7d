//! Latency of a pool of serving replicas as an M/M/c queue: `concurrency` servers per ready
//! replica, each serving at `capacity_rps ÷ concurrency`, so one request alone takes
//! `concurrency ÷ capacity_rps` seconds and the pool never serves more than was measured.
//!
//! The sojourn time T (queue wait W plus service S) of M/M/c is, with C the Erlang C
//! probability of waiting, μ one server's rate and θ = cμ − λ:
//! - W = 0 with probability 1 − C, else W ~ Exp(θ); S ~ Exp(μ), independent of W;
//! - P(T > t) = (1 − C)·e^(−μt) + C·(θ·e^(−μt) − μ·e^(−θt)) / (θ − μ), and for θ = μ
//!   C·(1 + μt)·e^(−μt) in the second term.
//!
//! Its 95th percentile is found by bisection on that survival function (monotone in t).

/// The probability a latency percentile leaves above it: 0.05 for the 95th.
pub const P95_TAIL: f64 = 0.05;

/// P(T > t) for M/M/c with `servers` servers of rate `mu` (per second) and arrivals at
/// `lambda` (per second); 1 when the queue is unstable (λ ≥ cμ).
pub fn sojourn_survival(servers: u32, lambda: f64, mu: f64, t: f64) -> f64 {
    Latency::queue(servers, lambda, mu).map_or(1.0, |l| l.survival(t))
}

/// Erlang C's probability that a request waits, with `servers` servers and an offered load
/// of `load` = λ/μ erlangs (below `servers`), from the Erlang B recursion in its reciprocal
/// form, 1/B(k) = 1 + (k/a)·1/B(k − 1): a multiplication and an addition per server where the
/// usual form divides (a pool of a thousand replicas has thousands of servers). Then
/// C = c / ((c − a)/B + a). It agrees with [`crate::model::analytic`]'s to about 1e-13
/// (tested); where 1/B overflows (a light load on many servers), C is 0.
fn probability_of_wait(servers: u32, load: f64) -> f64 {
    let c = f64::from(servers);
    if load >= c {
        return 1.0;
    }
    let per_load = 1.0 / load;
    let mut inverse_b = 1.0;
    for k in 1..=servers {
        inverse_b = 1.0 + f64::from(k) * per_load * inverse_b;
    }
    c / ((c - load) * inverse_b + load)
}

/// P(T > t) for a queue in which a request waits with probability `wait`, its wait then
/// Exp(`theta`), and is served in Exp(`mu`).
fn survival_with(wait: f64, theta: f64, mu: f64, t: f64) -> f64 {
    let service = libm::exp(-mu * t);
    let waited = if (theta - mu).abs() <= 1e-9 * mu {
        (1.0 + mu * t) * service
    } else {
        (theta * service - mu * libm::exp(-theta * t)) / (theta - mu)
    };
    (1.0 - wait) * service + wait * waited
}

/// The `1 − tail` quantile of the sojourn time of M/M/c, seconds; infinite when λ ≥ cμ.
pub fn sojourn_quantile(servers: u32, lambda: f64, mu: f64, tail: f64) -> f64 {
    match Latency::queue(servers, lambda, mu) {
        Some(latency) => latency.quantile(tail),
        None => f64::INFINITY,
    }
}

/// The latency distribution of the requests of one bucket.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Latency {
    /// M/M/c in steady state: a request waits with probability `wait` (Erlang C), then for
    /// Exp(`theta`); its service is Exp(`mu`).
    Queue {
        /// Erlang C probability of waiting.
        wait: f64,
        /// cμ − λ.
        theta: f64,
        /// One server's rate.
        mu: f64,
    },
    /// A backlog served at a known rate: the wait is uniform between `low` and `high`
    /// seconds (the requests ahead, growing or shrinking linearly over the bucket, over the
    /// capacity), then a service of Exp(`mu`).
    Backlog {
        /// Shortest wait, seconds.
        low: f64,
        /// Longest wait, seconds.
        high: f64,
        /// One server's rate.
        mu: f64,
    },
    /// Requests waited with no replica serving: no finite latency.
    Stalled,
}

impl Latency {
    /// M/M/c with `servers` servers of rate `mu` and arrivals at `lambda`; `None` when the
    /// queue is unstable (λ ≥ cμ) or has no server.
    pub fn queue(servers: u32, lambda: f64, mu: f64) -> Option<Latency> {
        let c = f64::from(servers);
        if servers == 0 || mu <= 0.0 || lambda >= c * mu {
            return None;
        }
        let wait = if lambda > 0.0 {
            probability_of_wait(servers, lambda / mu)
        } else {
            0.0
        };
        Some(Latency::Queue {
            wait,
            theta: c * mu - lambda,
            mu,
        })
    }

    /// P(latency > t), t in seconds.
    pub fn survival(&self, t: f64) -> f64 {
        match *self {
            Latency::Queue { wait, theta, mu } => survival_with(wait, theta, mu, t),
            Latency::Backlog { low, high, mu } => {
                if t <= low {
                    return 1.0;
                }
                if high - low <= 1e-12 {
                    return libm::exp(-mu * (t - low));
                }
                // P(W > t) + ∫ from low to min(t, high) of e^(−μ(t − w)) dw / (high − low).
                let above = ((high - t) / (high - low)).max(0.0);
                let b = t.min(high);
                let integral =
                    (libm::exp(-mu * (t - b)) - libm::exp(-mu * (t - low))) / mu / (high - low);
                above + integral
            }
            Latency::Stalled => 1.0,
        }
    }

    /// The `1 − tail` quantile, seconds (infinite when stalled).
    pub fn quantile(&self, tail: f64) -> f64 {
        // Brackets from the distribution's parts: T is at least the service S and the wait,
        // and P(T > t) ≤ P(S > t/2) + P(W > t/2).
        let (lo, hi) = match *self {
            Latency::Queue { wait, theta, mu } => {
                let service = libm::log(1.0 / tail) / mu;
                let half = 2.0 * libm::log(2.0 / tail) / mu;
                let waited = 2.0 * libm::log((2.0 * wait / tail).max(1.0)) / theta;
                (service, half.max(waited))
            }
            Latency::Backlog { low, high, mu } => (low, high + libm::log(1.0 / tail) / mu),
            Latency::Stalled => return f64::INFINITY,
        };
        bisect(|t| self.survival(t), tail, lo, hi)
    }
}

/// Halves [`lo`, `hi`] (S(lo) > tail ≥ S(hi)) 48 times: far below a microsecond for any
/// latency up to days.
fn bisect(survival: impl Fn(f64) -> f64, tail: f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..48 {
        let mid = 0.5 * (lo + hi);
        if survival(mid) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The t at which a survival function (decreasing from 1 to 0) falls to `tail`, by
/// doubling then bisection; infinite if it has not fallen by 10⁹ s.
pub fn quantile_of(survival: impl Fn(f64) -> f64, tail: f64) -> f64 {
    let mut hi = 1e-3;
    while survival(hi) > tail {
        hi *= 2.0;
        if hi > 1e9 {
            return f64::INFINITY;
        }
    }
    bisect(survival, tail, 0.0, hi)
}

/// The t in [`lo`, `hi`] at which a decreasing `above` falls to `target` (`above(hi)` at most
/// `target`; `lo` itself when `above(lo)` is), to a millionth of t: regula falsi with the
/// Illinois step, each point kept inside the bracket's middle 98 % so that it always shrinks.
pub fn falls_to(above: impl Fn(f64) -> f64, target: f64, lo: f64, hi: f64) -> f64 {
    let (mut a, mut fa) = (lo, above(lo) - target);
    let (mut b, mut fb) = (hi, above(hi) - target);
    if fa <= 0.0 {
        return lo;
    }
    let mut kept = 0i8;
    while b - a > 1e-6 * b {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reciprocal_recursion_gives_erlang_c() {
        // By hand: M/M/1 waits with probability ρ; two servers at one erlang with 1/3
        // (B(2, 1) = 1/5, C = 2·(1/5) / (2 − 1·(4/5))).
        assert!((probability_of_wait(1, 0.37) - 0.37).abs() < 1e-15);
        assert!((probability_of_wait(2, 1.0) - 1.0 / 3.0).abs() < 1e-15);
        // Against the usual recursion, from one server to thousands, light to heavy loads.
        use crate::model::analytic::erlang_c_probability_of_wait;
        for servers in [1, 2, 3, 8, 64, 288, 1_000, 2_880, 20_000] {
            for rho in [1e-6, 0.01, 0.3, 0.7, 0.9, 0.99, 0.999_9] {
                let a = rho * f64::from(servers);
                let ours = probability_of_wait(servers, a);
                let usual = erlang_c_probability_of_wait(servers, a);
                assert!(
                    (ours - usual).abs() <= 1e-12 * usual + 1e-300,
                    "c = {servers}, ρ = {rho}: {ours} vs {usual}"
                );
            }
        }
        assert_eq!(probability_of_wait(4, 4.0), 1.0);
    }

    #[test]
    fn one_server_is_m_m_1_whose_sojourn_is_exponential() {
        // M/M/1: T ~ Exp(μ − λ), so its 95th percentile is ln 20 / (μ − λ).
        for (lambda, mu) in [(0.5, 1.0), (9.0, 10.0), (0.01, 3.0)] {
            let want = libm::log(20.0) / (mu - lambda);
            let got = sojourn_quantile(1, lambda, mu, P95_TAIL);
            assert!((got - want).abs() < 1e-9 * want, "{got} vs {want}");
        }
    }

    #[test]
    fn no_traffic_is_the_service_time_alone() {
        // Nobody waits: T ~ Exp(μ), p95 = ln 20 / μ, whatever the number of servers.
        let got = sojourn_quantile(8, 0.0, 2.0, P95_TAIL);
        assert!((got - libm::log(20.0) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn two_servers_by_hand() {
        // c = 2, λ = 1, μ = 1: a = 1, Erlang B(2, 1) = 1/5, C = 2·(1/5)/(2 − 1·(4/5)) = 1/3;
        // θ = 2 − 1 = 1 = μ, so P(T > t) = (2/3)e^(−t) + (1/3)(1 + t)e^(−t) = (1 + t/3)e^(−t).
        for t in [0.1, 1.0, 3.0, 7.5] {
            let want = (1.0 + t / 3.0) * libm::exp(-t);
            let got = sojourn_survival(2, 1.0, 1.0, t);
            assert!((got - want).abs() < 1e-12, "t = {t}: {got} vs {want}");
        }
        // Its p95 solves (1 + t/3)e^(−t) = 0.05: 3.81646… (bisection in a calculator).
        let p95 = sojourn_quantile(2, 1.0, 1.0, P95_TAIL);
        assert!(((1.0 + p95 / 3.0) * libm::exp(-p95) - 0.05).abs() < 1e-12);
        assert!((p95 - 3.816_46).abs() < 1e-5, "{p95}");
    }

    #[test]
    fn an_unstable_queue_has_no_finite_latency() {
        assert!(sojourn_quantile(4, 8.0, 2.0, P95_TAIL).is_infinite());
        assert!(sojourn_quantile(0, 1.0, 2.0, P95_TAIL).is_infinite());
        assert_eq!(sojourn_survival(4, 9.0, 2.0, 100.0), 1.0);
    }

    #[test]
    fn a_backlog_waits_uniformly_then_is_served() {
        // A fixed wait of 10 s then Exp(0.5): P(T > 10 + x) = e^(−x/2), p95 = 10 + 2 ln 20.
        let fixed = Latency::Backlog {
            low: 10.0,
            high: 10.0,
            mu: 0.5,
        };
        assert!((fixed.quantile(P95_TAIL) - (10.0 + 2.0 * libm::log(20.0))).abs() < 1e-9);
        // Uniform on [0, 20] then Exp(1): at t = 20, P = ∫₀²⁰ e^(−(20 − w)) dw / 20
        // = (1 − e^(−20))/20; at t = 5, P = 15/20 + (1 − e^(−5))/20.
        let spread = Latency::Backlog {
            low: 0.0,
            high: 20.0,
            mu: 1.0,
        };
        assert!((spread.survival(20.0) - (1.0 - libm::exp(-20.0)) / 20.0).abs() < 1e-12);
        assert!((spread.survival(5.0) - (0.75 + (1.0 - libm::exp(-5.0)) / 20.0)).abs() < 1e-12);
        assert!(Latency::Stalled.quantile(P95_TAIL).is_infinite());
    }

    #[test]
    fn more_servers_never_wait_longer() {
        let mut last = f64::INFINITY;
        for c in 3..40 {
            let p95 = sojourn_quantile(c, 5.0, 2.0, P95_TAIL);
            assert!(p95 <= last + 1e-12, "c = {c}: {p95} > {last}");
            last = p95;
        }
    }
}
