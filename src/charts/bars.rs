//! Layout of a vertical bar chart: one bar per (label, value), a zero-based y axis with nice
//! ticks. Negative and non-finite values are drawn as zero-height bars.

use super::scale::{nice_ticks, LinearScale};

/// Outer size and inner margins of a chart, in SVG user units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// Space left of the plot area (y-axis labels).
    pub left: f64,
    /// Space right of the plot area.
    pub right: f64,
    /// Space above the plot area (value labels).
    pub top: f64,
    /// Space below the plot area (category labels).
    pub bottom: f64,
}

/// One laid-out bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// Category label.
    pub label: String,
    /// The data value the bar stands for.
    pub value: f64,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height (0 for negative or non-finite values).
    pub height: f64,
}

/// One y-axis tick: its value and pixel position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tick {
    /// Data value.
    pub value: f64,
    /// Vertical pixel position.
    pub y: f64,
}

/// The whole layout of a bar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BarLayout {
    /// Bars in input order.
    pub bars: Vec<Bar>,
    /// Y-axis ticks from 0 upwards.
    pub ticks: Vec<Tick>,
    /// Pixel position of the baseline (value 0).
    pub baseline_y: f64,
}

/// Lays out `values` as bars inside `frame`, each bar taking `bar_share` (0–1) of its slot.
pub fn layout_bars(values: &[(String, f64)], frame: Frame, bar_share: f64) -> BarLayout {
    let plot_left = frame.left;
    let plot_width = (frame.width - frame.left - frame.right).max(0.0);
    let plot_top = frame.top;
    let baseline_y = (frame.height - frame.bottom).max(plot_top);
    let max = values
        .iter()
        .map(|(_, v)| *v)
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    let tick_values = nice_ticks(max, 5);
    let top_value = *tick_values.last().unwrap_or(&1.0);
    let y = LinearScale::new((0.0, top_value), (baseline_y, plot_top));
    let slot = if values.is_empty() {
        0.0
    } else {
        plot_width / values.len() as f64
    };
    let share = bar_share.clamp(0.0, 1.0);
    let bars = values
        .iter()
        .enumerate()
        .map(|(i, (label, value))| {
            let drawn = if value.is_finite() {
                value.max(0.0)
            } else {
                0.0
            };
            let top = y.map(drawn);
            Bar {
                label: label.clone(),
                value: *value,
                x: plot_left + slot * i as f64 + slot * (1.0 - share) / 2.0,
                y: top,
                width: slot * share,
                height: baseline_y - top,
            }
        })
        .collect();
    let ticks = tick_values
        .into_iter()
        .map(|value| Tick {
            value,
            y: y.map(value),
        })
        .collect();
    BarLayout {
        bars,
        ticks,
        baseline_y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAME: Frame = Frame {
        width: 400.0,
        height: 300.0,
        left: 60.0,
        right: 20.0,
        top: 20.0,
        bottom: 30.0,
    };

    #[test]
    fn bars_share_the_plot_width_and_scale_to_the_top_tick() {
        let layout = layout_bars(&[("a".into(), 50.0), ("b".into(), 100.0)], FRAME, 0.5);
        // plot: x 60..380 (320 wide, 160 per slot), y 20..270 (250 tall); ticks 0..100 by 20.
        assert_eq!(layout.ticks.len(), 6);
        assert_eq!(layout.baseline_y, 270.0);
        let b = &layout.bars[1];
        assert_eq!((b.x, b.width), (60.0 + 160.0 + 40.0, 80.0));
        assert_eq!((b.y, b.height), (20.0, 250.0));
        assert_eq!(layout.bars[0].height, 125.0);
    }

    #[test]
    fn negative_nan_and_empty_inputs_do_not_panic() {
        let layout = layout_bars(&[("x".into(), -5.0), ("y".into(), f64::NAN)], FRAME, 0.8);
        assert!(layout.bars.iter().all(|b| b.height == 0.0));
        assert!(layout_bars(&[], FRAME, 0.8).bars.is_empty());
    }
}
