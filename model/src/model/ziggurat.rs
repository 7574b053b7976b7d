//! Standard normal draws by the ziggurat method (Marsaglia and Tsang, "The Ziggurat Method
//! for Generating Random Variables", J. Stat. Software 5(8), 2000), with the layer and the
//! value taken from separate bits of one 64-bit draw (Doornik, "An Improved Ziggurat Method
//! to Generate Normal Random Samples", 2005, whose 128 layers and constants are used).
//!
//! For samplers drawn tens of thousands of times a run (a service's Poisson count of requests
//! every minute): about 97 % of draws take one 64-bit number, a table lookup and a comparison,
//! where the Box–Muller transform of [`crate::model::rng::Stream::standard_normal`] takes a
//! `log`, a square root and a `cos`. The training simulation keeps Box–Muller, so its numbers
//! do not move.
//!
//! The tables are computed once from the constants with the pure-Rust `libm`, and the draws
//! use only IEEE 754's exactly rounded operations and `libm`, so they are the same bits
//! natively and in wasm32.

use crate::model::rng::Stream;
use std::sync::LazyLock;

/// Layers of the ziggurat.
const LAYERS: usize = 128;
/// Where the tail starts: the right edge of the base layer's rectangle.
const TAIL_START: f64 = 3.442_619_855_899;
/// The area of each layer, the base layer's tail included (for the unnormalised density
/// e^(−x²/2)).
const LAYER_AREA: f64 = 9.912_563_035_262_17e-3;

/// The ziggurat's tables.
struct Tables {
    /// The layers' right edges: `x[0]` the base layer's equivalent width (its area over the
    /// density at the tail's start), `x[1]` the tail's start, down to `x[LAYERS]` = 0.
    x: [f64; LAYERS + 1],
    /// `x[i + 1] ÷ x[i]`: a draw of layer `i` under this fraction of its width lies under
    /// the curve.
    inner: [f64; LAYERS],
    /// The density e^(−x²/2) at each edge.
    density: [f64; LAYERS + 1],
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let f = |x: f64| libm::exp(-0.5 * x * x);
    let mut x = [0.0; LAYERS + 1];
    x[0] = LAYER_AREA / f(TAIL_START);
    x[1] = TAIL_START;
    // Each layer's rectangle, from x = 0 to its edge, has the same area: its top is the
    // density at the next edge, up.
    for i in 1..LAYERS - 1 {
        x[i + 1] = (-2.0 * libm::log(LAYER_AREA / x[i] + f(x[i]))).sqrt();
    }
    x[LAYERS] = 0.0;
    let mut inner = [0.0; LAYERS];
    for i in 0..LAYERS {
        inner[i] = x[i + 1] / x[i];
    }
    let mut density = [0.0; LAYERS + 1];
    for i in 0..=LAYERS {
        density[i] = f(x[i]);
    }
    Tables { x, inner, density }
});

/// 2^−53: a 53-bit integer times it is a uniform on [0, 1).
const UNIT: f64 = 1.0 / (1u64 << 53) as f64;

/// A standard normal draw (mean 0, variance 1).
#[inline]
pub fn standard_normal(stream: &mut Stream) -> f64 {
    let t = &*TABLES;
    let bits = stream.next_u64();
    let (layer, u) = split(bits);
    if u.abs() < t.inner[layer] {
        return u * t.x[layer];
    }
    outside(stream, t, layer, u)
}

/// The layer (from the low 7 bits) and a uniform position on [−1, 1) (from the top 53) of
/// one 64-bit draw.
#[inline(always)]
fn split(bits: u64) -> (usize, f64) {
    let layer = (bits & (LAYERS as u64 - 1)) as usize;
    (layer, 2.0 * ((bits >> 11) as f64 * UNIT) - 1.0)
}

/// A draw whose first try fell outside its layer's inner rectangle (about 3 % of them): the
/// tail, or the wedge's test, then new tries.
#[cold]
#[inline(never)]
fn outside(stream: &mut Stream, t: &Tables, mut layer: usize, mut u: f64) -> f64 {
    loop {
        if layer == 0 {
            return tail(stream, u < 0.0);
        }
        // The wedge between the layer's inner rectangle and its edge: under the curve?
        let x = u * t.x[layer];
        let y = t.density[layer] + stream.uniform() * (t.density[layer + 1] - t.density[layer]);
        if y < libm::exp(-0.5 * x * x) {
            return x;
        }
        (layer, u) = split(stream.next_u64());
        if u.abs() < t.inner[layer] {
            return u * t.x[layer];
        }
    }
}

/// A draw from the normal's tail beyond [`TAIL_START`] (Marsaglia's method), negated when
/// `negative`.
fn tail(stream: &mut Stream, negative: bool) -> f64 {
    loop {
        let x = -libm::log(stream.open_uniform()) / TAIL_START;
        let y = -libm::log(stream.open_uniform());
        if 2.0 * y >= x * x {
            let z = TAIL_START + x;
            return if negative { -z } else { z };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::Purpose;

    /// Φ(z), from libm's erfc.
    fn phi(z: f64) -> f64 {
        0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
    }

    #[test]
    fn the_layers_close_at_the_top() {
        // The last layer's rectangle reaches the density's peak: the constants are consistent.
        let t = &*TABLES;
        let top = LAYER_AREA / t.x[LAYERS - 1] + t.density[LAYERS - 1];
        assert!((top - 1.0).abs() < 1e-9, "{top}");
        // Each layer has the same area.
        for i in 1..LAYERS {
            let area = t.x[i] * (t.density[i + 1] - t.density[i]);
            assert!((area - LAYER_AREA).abs() < 1e-9, "layer {i}: {area}");
        }
    }

    #[test]
    fn the_tail_sampler_follows_the_normal_beyond_its_start() {
        // P(Z > r + y | Z > r) = Φ(−r − y) / Φ(−r): a χ² test on 40 bins of equal
        // probability, and the sign.
        let mut s = Stream::new(6, 0, Purpose::Traffic, 2);
        let (n, bins) = (200_000u32, 40);
        let mut counts = vec![0u64; bins];
        let mut negative = 0;
        let beyond = phi(-TAIL_START);
        for i in 0..n {
            let z = tail(&mut s, i % 3 == 0);
            if z < 0.0 {
                negative += 1;
            }
            assert!(z.abs() >= TAIL_START);
            let p = 1.0 - phi(-z.abs()) / beyond;
            counts[((p * bins as f64) as usize).min(bins - 1)] += 1;
        }
        assert_eq!(negative, n.div_ceil(3));
        let expected = f64::from(n) / bins as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        // 39 degrees of freedom: the 99.9th percentile is 72.1.
        assert!(chi2 < 72.1, "χ² {chi2}");
    }

    #[test]
    fn draws_follow_the_normal_distribution_into_the_tails() {
        // A χ² test on 60 bins of equal probability under Φ, plus the two tails beyond ±3.5
        // (where the ziggurat's base layer hands over to the tail sampler at 3.44), and the
        // moments: a wrong wedge, tail or layer choice fails it.
        let mut s = Stream::new(5, 0, Purpose::Traffic, 1);
        let n = 600_000;
        let bins = 60;
        let mut counts = vec![0u64; bins];
        let (mut beyond, mut sum, mut sum2, mut sum4) = (0u64, 0.0, 0.0, 0.0);
        for _ in 0..n {
            let z = standard_normal(&mut s);
            sum += z;
            sum2 += z * z;
            sum4 += z * z * z * z;
            if z.abs() > 3.5 {
                beyond += 1;
            }
            let p = phi(z);
            counts[((p * bins as f64) as usize).min(bins - 1)] += 1;
        }
        let expected = n as f64 / bins as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        // 59 degrees of freedom: the 99.9th percentile is 98.3.
        assert!(chi2 < 98.3, "χ² {chi2}");
        let nf = n as f64;
        assert!((sum / nf).abs() < 4.0 / nf.sqrt(), "mean {}", sum / nf);
        // Var(z²) = 2, Var(z⁴) = 96.
        assert!((sum2 / nf - 1.0).abs() < 4.0 * (2.0 / nf).sqrt());
        assert!((sum4 / nf - 3.0).abs() < 4.0 * (96.0 / nf).sqrt());
        // P(|z| > 3.5) = 4.65e-4: 279 expected, σ ≈ 16.7.
        let tail = 2.0 * phi(-3.5) * nf;
        assert!(
            (beyond as f64 - tail).abs() < 4.0 * tail.sqrt(),
            "{beyond} vs {tail}"
        );
    }
}
