//! Linear scales and "nice" axis ticks (steps of 1, 2 or 5 × 10ⁿ).

/// Maps a data interval onto a pixel interval linearly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearScale {
    /// Data value at the start of the range.
    pub domain_start: f64,
    /// Data value at the end of the range.
    pub domain_end: f64,
    /// Pixel position of `domain_start`.
    pub range_start: f64,
    /// Pixel position of `domain_end`.
    pub range_end: f64,
}

impl LinearScale {
    /// A scale from `domain` to `range`; both are (start, end) pairs.
    pub fn new(domain: (f64, f64), range: (f64, f64)) -> Self {
        Self {
            domain_start: domain.0,
            domain_end: domain.1,
            range_start: range.0,
            range_end: range.1,
        }
    }

    /// Pixel position of `value`. A zero-width domain maps everything to the range start.
    pub fn map(&self, value: f64) -> f64 {
        let span = self.domain_end - self.domain_start;
        if span == 0.0 || !span.is_finite() {
            return self.range_start;
        }
        self.range_start + (value - self.domain_start) / span * (self.range_end - self.range_start)
    }
}

/// Width of a tick label's character, in CSS pixels: about 0.6 em of the 11 px tick font,
/// generous for digits and `$`.
pub const TICK_CHAR_PX: f64 = 6.8;

/// The `text-anchor` of a tick label of `chars` characters at `x` on an axis drawn inside
/// `0..=width`: centred on its tick where it fits, else flush with the edge it would cross,
/// so that no label is cut off at the chart's edge.
pub fn tick_label_anchor(x: f64, chars: usize, width: f64) -> &'static str {
    let half = chars as f64 * TICK_CHAR_PX / 2.0;
    if x - half < 0.0 {
        "start"
    } else if x + half > width {
        "end"
    } else {
        "middle"
    }
}

/// A step of 1, 2 or 5 × 10ⁿ such that `0..=max` takes about `target_count` steps.
pub fn nice_step(max: f64, target_count: usize) -> f64 {
    if !(max.is_finite() && max > 0.0) || target_count == 0 {
        return 1.0;
    }
    let raw = max / target_count as f64;
    let magnitude = 10f64.powi(raw.log10().floor() as i32);
    let residual = raw / magnitude;
    let multiplier = if residual <= 1.0 {
        1.0
    } else if residual <= 2.0 {
        2.0
    } else if residual <= 5.0 {
        5.0
    } else {
        10.0
    };
    multiplier * magnitude
}

/// Ticks from 0 up to the first multiple of the nice step at or above `max` (so the top tick
/// bounds the data). `max <= 0` or non-finite gives `[0, 1]`.
pub fn nice_ticks(max: f64, target_count: usize) -> Vec<f64> {
    if !(max.is_finite() && max > 0.0) {
        return vec![0.0, 1.0];
    }
    let step = nice_step(max, target_count);
    let steps = (max / step).ceil() as usize;
    (0..=steps).map(|i| i as f64 * step).collect()
}

/// Ticks at the nice step's multiples from the one at or below `lo` to the one at or above
/// `hi` (so the ticks bound the data); an empty or non-finite interval gives its ends.
pub fn nice_ticks_between(lo: f64, hi: f64, target_count: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return vec![lo, hi];
    }
    let step = nice_step(hi - lo, target_count);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_tick_label_is_centred_unless_it_would_cross_an_edge() {
        // "$1.50" is 5 characters, 34 px: centred, it reaches 17 px either side of its tick.
        assert_eq!(tick_label_anchor(14.0, 5, 640.0), "start");
        assert_eq!(tick_label_anchor(320.0, 5, 640.0), "middle");
        assert_eq!(tick_label_anchor(626.0, 5, 640.0), "end");
        assert_eq!(tick_label_anchor(17.0, 5, 640.0), "middle");
    }

    use super::*;

    #[test]
    fn scale_maps_ends_and_midpoint() {
        let s = LinearScale::new((0.0, 100.0), (200.0, 0.0));
        assert_eq!(s.map(0.0), 200.0);
        assert_eq!(s.map(100.0), 0.0);
        assert_eq!(s.map(25.0), 150.0);
    }

    #[test]
    fn zero_width_domain_maps_to_range_start() {
        assert_eq!(LinearScale::new((5.0, 5.0), (10.0, 20.0)).map(5.0), 10.0);
    }

    #[test]
    fn ticks_use_1_2_5_steps_and_cover_the_max() {
        assert_eq!(
            nice_ticks(95.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(nice_ticks(1_000.0, 4), vec![0.0, 500.0, 1_000.0]);
        assert_eq!(nice_ticks(7.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(nice_ticks(0.0, 5), vec![0.0, 1.0]);
        assert_eq!(nice_ticks(f64::NAN, 5), vec![0.0, 1.0]);
    }

    #[test]
    fn ticks_between_bound_the_interval_on_round_steps() {
        // 1.45 to 5.8: a span of 4.35 in about 4 steps is a step of 2 (1.09 rounds up to 2).
        assert_eq!(nice_ticks_between(1.45, 5.8, 4), vec![0.0, 2.0, 4.0, 6.0]);
        assert_eq!(
            nice_ticks_between(120.0, 180.0, 3),
            vec![120.0, 140.0, 160.0, 180.0]
        );
        assert_eq!(nice_ticks_between(3.0, 3.0, 4), vec![3.0, 3.0]);
    }
}
