//! Seeded random streams and the samplers the simulation draws from.
//!
//! Invariants:
//! - Every stream is keyed on (seed, replication, purpose, index), so a replication can run in
//!   any worker, in any order, and give the same draws.
//! - The generator is xoshiro256++ from `rand_xoshiro`, whose output is fixed by its algorithm,
//!   not by a crate's choice of default (unlike `StdRng`).
//! - Samplers use only integer arithmetic, the pure-Rust `libm` functions (log, exp, cos) and
//!   the operations IEEE 754 rounds exactly (+, −, ×, ÷, √, floor, ceil: hardware `sqrt` is
//!   as exact as libm's and much faster in wasm32), so natively and in wasm32 they return the
//!   same bits.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// What a stream is used for; part of its key, so streams never overlap by accident.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The job stream of a replication (shared by every platform: common random numbers).
    Jobs = 1,
    /// One job's attempts (failures), keyed by the job's index: the same on every platform.
    Attempts = 2,
    /// Node provisioning and spot interruptions of one platform in one replication.
    Nodes = 3,
    /// A service's traffic and requests, keyed by the service: the same on every platform.
    Traffic = 4,
    /// The hardware failure clock of a node, keyed by the node's index: the n-th node of
    /// every platform fails after the same draw, whatever it is bought as.
    NodeFailures = 5,
    /// The times of a pool's spot reclaim waves, keyed by the pool's index on its platform:
    /// the same on every platform.
    ReclaimWaves = 6,
    /// Which nodes one reclaim wave takes, keyed by the pool's index and the wave's number.
    ReclaimedNodes = 7,
    /// The node-consolidation clock of a node, keyed by the node's index.
    Consolidation = 8,
}

/// z-score of the 90th percentile of the standard normal distribution.
pub const Z_P90: f64 = 1.281_551_565_544_600_5;

/// SplitMix64's increment (2^64 / φ).
const SPLITMIX_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64 finaliser: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(SPLITMIX_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `Xoshiro256PlusPlus::seed_from_u64(key)`, written out: the generator's four state words
/// are the first four SplitMix64 outputs from `key`. The same bits (tested against the
/// crate's own), without the crate's generic byte filling: its seeding took about 5 % of a
/// benchmark run's samples in V8's profile, and seeding this way made the run about 1 %
/// faster (a stream is seeded per node and per attempt of a failing class).
fn seeded(key: u64) -> Xoshiro256PlusPlus {
    let mut seed = [0u8; 32];
    for (k, word) in seed.chunks_exact_mut(8).enumerate() {
        let x = key.wrapping_add((k as u64).wrapping_mul(SPLITMIX_GAMMA));
        word.copy_from_slice(&mix(x).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(seed)
}

/// A seeded random stream with the samplers the model needs.
#[derive(Debug, Clone)]
pub struct Stream(Xoshiro256PlusPlus);

impl Stream {
    /// The stream for `purpose` and `index` in replication `replication` of run `seed`.
    pub fn new(seed: u64, replication: u64, purpose: Purpose, index: u64) -> Self {
        let key = mix(mix(mix(seed) ^ replication) ^ ((purpose as u64) << 56) ^ index);
        Stream(seeded(key))
    }

    /// A raw 64-bit draw (to derive child streams, and the ziggurat's layer and position).
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform on [0, 1), 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform on (0, 1): never exactly 0, so its logarithm is finite.
    pub fn open_uniform(&mut self) -> f64 {
        ((self.0.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p` (clamped to [0, 1]).
    pub fn bernoulli(&mut self, p: f64) -> bool {
        self.uniform() < p
    }

    /// Exponential with the given mean (same unit as the mean). A mean of 0 gives 0.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        if mean <= 0.0 {
            return 0.0;
        }
        -libm::log(self.open_uniform()) * mean
    }

    /// Standard normal by the Box–Muller transform (one of the pair; simple and exact).
    pub fn standard_normal(&mut self) -> f64 {
        let u1 = self.open_uniform();
        let u2 = self.uniform();
        (-2.0 * libm::log(u1)).sqrt() * libm::cos(2.0 * core::f64::consts::PI * u2)
    }

    /// Log-normal given its median and σ ([`lognormal_sigma`] of the median and the 90th
    /// percentile, p90 ≥ median > 0; callers work it out once for many draws). When p90
    /// equals the median (σ = 0) the draw is the median itself.
    pub fn lognormal(&mut self, median: f64, sigma: f64) -> f64 {
        if median <= 0.0 {
            return 0.0;
        }
        if sigma == 0.0 {
            return median;
        }
        median * libm::exp(sigma * self.standard_normal())
    }
}

/// σ of the log-normal with this median and 90th percentile.
pub fn lognormal_sigma(median: f64, p90: f64) -> f64 {
    if median <= 0.0 || p90 <= median {
        0.0
    } else {
        libm::log(p90 / median) / Z_P90
    }
}

/// Mean of the log-normal with this median and 90th percentile: median · e^(σ²/2).
pub fn lognormal_mean(median: f64, p90: f64) -> f64 {
    let sigma = lognormal_sigma(median, p90);
    median * libm::exp(sigma * sigma / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut s = Stream::new(7, 3, Purpose::Jobs, 0);
                move |_| s.next_u64()
            })
            .collect();
        let mut again = Stream::new(7, 3, Purpose::Jobs, 0);
        assert_eq!(a, (0..4).map(|_| again.next_u64()).collect::<Vec<_>>());
        let mut other = Stream::new(7, 4, Purpose::Jobs, 0);
        assert_ne!(a[0], other.next_u64());
        let mut other = Stream::new(7, 3, Purpose::Nodes, 0);
        assert_ne!(a[0], other.next_u64());
    }

    #[test]
    fn seeding_matches_the_generators_own() {
        let mut key = 0x0123_4567_89AB_CDEFu64;
        for k in [0, 1, u64::MAX, SPLITMIX_GAMMA.wrapping_neg()] {
            assert_eq!(seeded(k), Xoshiro256PlusPlus::seed_from_u64(k));
        }
        for _ in 0..10_000 {
            key = mix(key);
            assert_eq!(seeded(key), Xoshiro256PlusPlus::seed_from_u64(key));
        }
    }

    #[test]
    fn exponential_mean_is_close_to_its_parameter() {
        let mut s = Stream::new(1, 0, Purpose::Jobs, 0);
        let n = 200_000;
        let mean = (0..n).map(|_| s.exponential(5.0)).sum::<f64>() / n as f64;
        // standard error = 5 / sqrt(n) ≈ 0.011; allow 4 standard errors.
        assert!((mean - 5.0).abs() < 0.045, "{mean}");
    }

    #[test]
    fn lognormal_hits_its_median_and_p90() {
        let mut s = Stream::new(2, 0, Purpose::Jobs, 0);
        let mut xs: Vec<f64> = (0..100_001)
            .map(|_| s.lognormal(60.0, lognormal_sigma(60.0, 180.0)))
            .collect();
        xs.sort_by(f64::total_cmp);
        let median = xs[50_000];
        let p90 = xs[90_000];
        assert!((median / 60.0 - 1.0).abs() < 0.02, "{median}");
        assert!((p90 / 180.0 - 1.0).abs() < 0.03, "{p90}");
    }
}
