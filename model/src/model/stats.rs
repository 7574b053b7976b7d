//! Summary statistics over replications: mean, percentiles, standard error, histograms.

use serde::{Deserialize, Serialize};

/// The standard normal quantile at `p` (0 < p < 1): the z with Φ(z) = p, by bisection on
/// Φ(z) = (1 + erf(z/√2))/2 to double precision (±∞ at 0 and 1).
pub fn normal_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (-40.0_f64, 40.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid == lo || mid == hi {
            break;
        }
        if 0.5 * (1.0 + libm::erf(mid / std::f64::consts::SQRT_2)) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The `q` quantile (0–1) of sorted data, linearly interpolated between order statistics
/// (Hyndman–Fan type 7, as in R and NumPy). Empty data gives NaN.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    interpolate(sorted.len(), q, |lo| {
        (sorted[lo], sorted[(lo + 1).min(sorted.len() - 1)])
    })
}

/// [`quantile_sorted`] at `q1` and `q2` of whole numbers in any order, found by selection
/// among the integers instead of a sort (O(n); the data is reordered): the same order
/// statistics as of the numbers as `f64` (converting never reverses their order), so the same
/// two quantiles. When `q2` is the higher (say the median, then the 95th percentile) the
/// second selection runs only on the values above the first one's rank, which the first left
/// there.
pub fn whole_quantiles_unsorted(values: &mut [i64], q1: f64, q2: f64) -> (f64, f64) {
    let n = values.len();
    let mut first_rank = 0;
    let first = interpolate(n, q1, |lo| {
        first_rank = lo;
        order_statistics_unsorted(values, lo)
    });
    let second = interpolate(n, q2, |lo| {
        // Above the first selection's rank are exactly the values of the higher ranks, in
        // some order; at or below it, a selection over all the values.
        if lo <= first_rank {
            order_statistics_unsorted(values, lo)
        } else {
            let above = first_rank + 1;
            order_statistics_unsorted(&mut values[above..], lo - above)
        }
    });
    (first, second)
}

/// The values of ranks `lo` and `lo + 1` (the last one when `lo` is the last rank), by
/// selection; `values` is reordered around rank `lo`.
fn order_statistics_unsorted(values: &mut [i64], lo: usize) -> (f64, f64) {
    let (_, &mut at_lo, above) = values.select_nth_unstable(lo);
    // The next order statistic is the smallest value above position `lo`.
    let at_hi = above.iter().copied().min().unwrap_or(at_lo);
    (at_lo as f64, at_hi as f64)
}

/// The type-7 quantile of `n` values, given the order statistics at ranks `lo` and `lo + 1`
/// (the last one when `lo` is the last rank) from `order_statistics(lo)`.
fn interpolate(n: usize, q: f64, order_statistics: impl FnOnce(usize) -> (f64, f64)) -> f64 {
    match n {
        0 => return f64::NAN,
        1 => return order_statistics(0).0,
        _ => {}
    }
    let h = (n - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = libm::floor(h) as usize;
    let (at_lo, at_hi) = order_statistics(lo);
    at_lo + (h - lo as f64) * (at_hi - at_lo)
}

/// Mean; NaN for empty data.
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// The 95 % Wilson score interval of a share of `successes` in `n` trials: bounds in 0–1 that
/// stay informative where the share is 0 or 1 (a binomial standard error is 0 there). (0, 1)
/// when `n` is 0.
pub fn wilson_interval(successes: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(n);
    let p = f64::from(successes.min(n as u32)) / n;
    let z = normal_quantile(0.975);
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * libm::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Standard error of the mean (sample standard deviation ÷ √n); 0 for fewer than 2 values.
pub fn standard_error(values: &[f64]) -> f64 {
    let n = values.len();
    if n < 2 {
        return 0.0;
    }
    let m = mean(values);
    let var = values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1) as f64;
    libm::sqrt(var / n as f64)
}

/// Mean and the 5th, 50th and 95th percentiles over replications, and the mean's standard
/// error.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Summary {
    /// Mean.
    pub mean: f64,
    /// 5th percentile.
    pub p5: f64,
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// Standard error of the mean: the replications' sample standard deviation ÷ √n (0 for
    /// one replication). How far the mean may be from the mean of many more replications
    /// (about ±2 se for 95 %); not the spread of the outcomes (p5–p95), and not the median's
    /// error, which the verdict ranks by. Absent in reports written before it (reads 0).
    #[serde(default)]
    pub se: f64,
}

impl Summary {
    /// All zeros: what an output every platform has reads before any replication.
    pub const ZERO: Summary = Summary {
        mean: 0.0,
        p5: 0.0,
        p50: 0.0,
        p95: 0.0,
        se: 0.0,
    };

    /// Summarises `values` (any order). `None` for no values.
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Summary {
            mean: mean(values),
            p5: quantile_sorted(&sorted, 0.05),
            p50: quantile_sorted(&sorted, 0.5),
            p95: quantile_sorted(&sorted, 0.95),
            se: standard_error(values),
        })
    }
}

/// Equal-width histogram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Histogram {
    /// Lower edge of the first bin.
    pub start: f64,
    /// Width of each bin.
    pub width: f64,
    /// Count per bin.
    pub counts: Vec<u32>,
}

impl Histogram {
    /// `bins` equal bins spanning the data's range (one bin when all values are equal).
    pub fn of(values: &[f64], bins: usize) -> Histogram {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let Some(lo) = finite.iter().copied().reduce(f64::min) else {
            return Histogram {
                start: 0.0,
                width: 1.0,
                counts: vec![],
            };
        };
        let hi = finite.iter().copied().fold(lo, f64::max);
        let bins = bins.max(1);
        if hi <= lo {
            return Histogram {
                start: lo,
                width: 1.0,
                counts: vec![finite.len() as u32],
            };
        }
        let width = (hi - lo) / bins as f64;
        let mut counts = vec![0u32; bins];
        for v in finite {
            let i = (libm::floor((v - lo) / width) as usize).min(bins - 1);
            counts[i] += 1;
        }
        Histogram {
            start: lo,
            width,
            counts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_hand_computed_bounds() {
        // 200 of 200: the lower bound is n ÷ (n + z²) = 200 ÷ 203.8415 = 0.98115, the upper 1.
        let (lo, hi) = wilson_interval(200, 200);
        assert!((lo - 0.981_154).abs() < 1e-5, "{lo}");
        assert!((hi - 1.0).abs() < 1e-12, "{hi}");
        // 0 of 40: the upper bound is z² ÷ (n + z²) = 3.8415 ÷ 43.8415 = 0.08762.
        let (lo, hi) = wilson_interval(0, 40);
        assert!(
            lo.abs() < 1e-12 && (hi - 0.087_622).abs() < 1e-5,
            "{lo} {hi}"
        );
        // 50 of 100: 0.5 ± 1.96 × √(0.25 ÷ 100 + 3.8415 ÷ 40,000) ÷ 1.038415 = 0.4038 – 0.5962.
        let (lo, hi) = wilson_interval(50, 100);
        assert!(
            (lo - 0.403_8).abs() < 1e-4 && (hi - 0.596_2).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }

    /// Selection among integers gives the sorted quantiles of the same numbers as floats
    /// exactly, ties, negative and large values and all, for every n and pair of levels.
    #[test]
    fn quantiles_by_selection_equal_quantiles_of_sorted_data() {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for n in 0..60usize {
            let whole: Vec<i64> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 17) as i64 * (1 << 40) - (1 << 43) // many ties
                })
                .collect();
            let mut sorted: Vec<f64> = whole.iter().map(|&w| w as f64).collect();
            sorted.sort_by(f64::total_cmp);
            for q in [0.0, 0.05, 0.3, 0.5, 0.95, 0.999, 1.0] {
                // The second selection on what the first left above its rank (or, below
                // it, over everything).
                for q2 in [q, 0.0, 0.5, 0.95, 1.0] {
                    let mut scratch = whole.clone();
                    let (w1, w2) = whole_quantiles_unsorted(&mut scratch, q, q2);
                    assert!(
                        same(w1, quantile_sorted(&sorted, q))
                            && same(w2, quantile_sorted(&sorted, q2)),
                        "n {n} q {q} q2 {q2}"
                    );
                }
            }
        }
    }

    #[test]
    fn quantiles_interpolate_like_numpy() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile_sorted(&xs, 0.5), 3.0);
        assert_eq!(quantile_sorted(&xs, 0.95), 4.8);
        assert_eq!(quantile_sorted(&xs, 0.05), 1.2);
    }

    #[test]
    fn standard_error_of_known_sample() {
        // sd of [2,4,4,4,5,5,7,9] (n−1) = 2.138; se = 2.138 / √8 = 0.7559
        let se = standard_error(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert!((se - 0.755_928_9).abs() < 1e-6, "{se}");
    }

    #[test]
    fn histogram_counts_every_value_once() {
        let h = Histogram::of(&[0.0, 0.5, 1.0, 9.9, 10.0], 10);
        assert_eq!(h.counts.iter().sum::<u32>(), 5);
        // Bins are [0,1), [1,2), …, [9,10]: the top edge belongs to the last bin.
        assert_eq!((h.counts[0], h.counts[1]), (2, 1));
        assert_eq!(h.counts[9], 2);
    }
}
