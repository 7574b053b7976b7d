//! Summary statistics over replications: mean, percentiles, standard error, histograms.

use serde::{Deserialize, Serialize};

/// The `q` quantile (0–1) of sorted data, linearly interpolated between order statistics
/// (Hyndman–Fan type 7, as in R and NumPy). Empty data gives NaN.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * q.clamp(0.0, 1.0);
            let lo = libm::floor(h) as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// Mean; NaN for empty data.
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().sum::<f64>() / values.len() as f64
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

/// Mean and the 5th, 50th and 95th percentiles over replications.
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
}

impl Summary {
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
