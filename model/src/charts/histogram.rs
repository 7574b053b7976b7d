//! Layout of a histogram from [`crate::model::stats::Histogram`]: one rectangle per bin on a
//! linear x axis from the first bin's lower edge to the last bin's upper edge.

use super::scale::{nice_ticks, nice_ticks_between, LinearScale};
use crate::model::stats::Histogram;

/// One laid-out bin.
#[derive(Debug, Clone, PartialEq)]
pub struct BinRect {
    /// Lower edge (data units).
    pub lower: f64,
    /// Upper edge (data units).
    pub upper: f64,
    /// Count.
    pub count: u32,
    /// Left pixel.
    pub x: f64,
    /// Width in pixels.
    pub width: f64,
    /// Top pixel.
    pub y: f64,
    /// Height in pixels.
    pub height: f64,
}

/// Lays out `h` inside x ∈ [x0, x1] and y ∈ [y_top, y_base].
pub fn layout_histogram(h: &Histogram, x0: f64, x1: f64, y_top: f64, y_base: f64) -> Vec<BinRect> {
    let end = h.start + h.width * h.counts.len() as f64;
    layout_histogram_on(
        h,
        &LinearScale::new((h.start, end), (x0, x1)),
        y_top,
        y_base,
    )
}

/// One x axis for several histograms: from the nice tick at or below the lowest bin edge to
/// the one at or above the highest, with its ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedAxis {
    /// The axis' data interval.
    pub domain: (f64, f64),
    /// Tick values, within the domain.
    pub ticks: Vec<f64>,
}

/// The shared axis of `histograms` (empty ones aside); `None` when all are empty.
pub fn shared_axis<'a>(histograms: impl IntoIterator<Item = &'a Histogram>) -> Option<SharedAxis> {
    let (lo, hi) = histograms
        .into_iter()
        .filter(|h| !h.counts.is_empty())
        .map(|h| (h.start, h.start + h.width * h.counts.len() as f64))
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))?;
    // Every replication at one value: an axis a little either side of it.
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        let pad = (lo.abs() * 0.05).max(0.01);
        (lo - pad, hi + pad)
    };
    let ticks = nice_ticks_between(lo, hi, 5);
    let domain = (ticks[0], ticks[ticks.len() - 1]);
    Some(SharedAxis { domain, ticks })
}

/// Lays out `h` with the x scale `xs` (an axis it shares with others) inside y ∈ [y_top,
/// y_base], its tallest bin scaled to the nice count at or above it.
pub fn layout_histogram_on(
    h: &Histogram,
    xs: &LinearScale,
    y_top: f64,
    y_base: f64,
) -> Vec<BinRect> {
    if h.counts.is_empty() {
        return Vec::new();
    }
    let max = h.counts.iter().copied().max().unwrap_or(0);
    let top = *nice_ticks(f64::from(max), 4).last().unwrap_or(&1.0);
    let ys = LinearScale::new((0.0, top), (y_base, y_top));
    h.counts
        .iter()
        .enumerate()
        .map(|(i, &count)| {
            let lower = h.start + h.width * i as f64;
            let upper = lower + h.width;
            let x = xs.map(lower);
            let y = ys.map(f64::from(count));
            BinRect {
                lower,
                upper,
                count,
                x,
                width: (xs.map(upper) - x).max(0.0),
                y,
                height: y_base - y,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_on_a_shared_axis_keep_their_dollar_positions() {
        // One platform's costs span $1.40–$1.60, the other's $5.00–$5.40.
        let cheap = Histogram {
            start: 1.4,
            width: 0.1,
            counts: vec![3, 1],
        };
        let dear = Histogram {
            start: 5.0,
            width: 0.2,
            counts: vec![2, 2],
        };
        let empty = Histogram {
            start: 0.0,
            width: 0.0,
            counts: vec![],
        };
        let axis = shared_axis([&cheap, &dear, &empty]).unwrap();
        // 1.4 to 5.4: a span of 4 in about 5 steps is a step of 1.
        assert_eq!(axis.domain, (1.0, 6.0));
        assert_eq!(axis.ticks, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        // On 0..500 px, $1 is 100 px: each bin sits at its own dollars on both rows.
        let xs = LinearScale::new(axis.domain, (0.0, 500.0));
        let a = layout_histogram_on(&cheap, &xs, 0.0, 50.0);
        let b = layout_histogram_on(&dear, &xs, 0.0, 50.0);
        assert!((a[0].x - 40.0).abs() < 1e-9 && (a[0].width - 10.0).abs() < 1e-9);
        assert!((b[1].x - 420.0).abs() < 1e-9 && (b[1].width - 20.0).abs() < 1e-9);
        assert_eq!(shared_axis([&empty]), None);
        // All at $2: an axis around it, not a zero-width one.
        let flat = Histogram {
            start: 2.0,
            width: 0.0,
            counts: vec![9],
        };
        let axis = shared_axis([&flat]).unwrap();
        assert!(axis.domain.0 < 2.0 && axis.domain.1 > 2.0, "{axis:?}");
    }

    #[test]
    fn bins_tile_the_axis_and_scale_by_count() {
        let h = Histogram {
            start: 10.0,
            width: 5.0,
            counts: vec![1, 4, 2, 0],
        };
        let bins = layout_histogram(&h, 0.0, 400.0, 0.0, 100.0);
        assert_eq!(bins.len(), 4);
        assert_eq!((bins[0].x, bins[0].width), (0.0, 100.0));
        assert_eq!(bins[3].x + bins[3].width, 400.0);
        // Top of the count axis is 4 (nice ticks of 4): a count of 4 fills the height.
        assert_eq!((bins[1].y, bins[1].height), (0.0, 100.0));
        assert_eq!(bins[3].height, 0.0);
        assert_eq!((bins[1].lower, bins[1].upper), (15.0, 20.0));
    }
}
