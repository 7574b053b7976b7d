//! Layout of a histogram from [`crate::model::stats::Histogram`]: one rectangle per bin on a
//! linear x axis from the first bin's lower edge to the last bin's upper edge.

use super::scale::{nice_ticks, LinearScale};
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
    let n = h.counts.len();
    if n == 0 {
        return Vec::new();
    }
    let end = h.start + h.width * n as f64;
    let xs = LinearScale::new((h.start, end), (x0, x1));
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
