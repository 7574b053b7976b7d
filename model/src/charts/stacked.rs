//! Layout of horizontal stacked bars: one bar per row (a platform), segments stacked left to
//! right in category order, on a shared zero-based x axis with nice ticks. Negative and
//! non-finite values are drawn as zero-width segments.

use super::scale::{nice_ticks, LinearScale};

/// One laid-out segment.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Index of the row.
    pub row: usize,
    /// Index of the category (colour).
    pub category: usize,
    /// The value it stands for.
    pub value: f64,
    /// Left edge.
    pub x: f64,
    /// Width.
    pub width: f64,
}

/// One x-axis tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct XTick {
    /// Data value.
    pub value: f64,
    /// Horizontal pixel position.
    pub x: f64,
}

/// The whole layout.
#[derive(Debug, Clone, PartialEq)]
pub struct StackedLayout {
    /// Segments, row by row, category order within a row.
    pub segments: Vec<Segment>,
    /// Sum of each row's drawn values.
    pub totals: Vec<f64>,
    /// Axis ticks.
    pub ticks: Vec<XTick>,
}

/// Lays out `rows` (each a list of category values) between pixels `x0` and `x1`.
pub fn layout_stacked(rows: &[Vec<f64>], x0: f64, x1: f64) -> StackedLayout {
    let drawn = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
    let totals: Vec<f64> = rows
        .iter()
        .map(|r| r.iter().map(|v| drawn(*v)).sum())
        .collect();
    let max = totals.iter().copied().fold(0.0, f64::max);
    let tick_values = nice_ticks(max, 5);
    let top = *tick_values.last().unwrap_or(&1.0);
    let scale = LinearScale::new((0.0, top), (x0, x1));
    let mut segments = Vec::new();
    for (row, values) in rows.iter().enumerate() {
        let mut acc = 0.0;
        for (category, value) in values.iter().enumerate() {
            let v = drawn(*value);
            let x = scale.map(acc);
            acc += v;
            segments.push(Segment {
                row,
                category,
                value: *value,
                x,
                width: scale.map(acc) - x,
            });
        }
    }
    let ticks = tick_values
        .into_iter()
        .map(|value| XTick {
            value,
            x: scale.map(value),
        })
        .collect();
    StackedLayout {
        segments,
        totals,
        ticks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_abut_and_rows_share_one_scale() {
        let l = layout_stacked(&[vec![20.0, 30.0], vec![100.0, 0.0]], 0.0, 200.0);
        // Ticks 0..100 by 20: 2 px per unit.
        assert_eq!(l.totals, vec![50.0, 100.0]);
        assert_eq!((l.segments[0].x, l.segments[0].width), (0.0, 40.0));
        assert_eq!((l.segments[1].x, l.segments[1].width), (40.0, 60.0));
        assert_eq!(l.segments[2].width, 200.0);
        assert_eq!(l.segments[3].width, 0.0);
    }

    #[test]
    fn bad_values_draw_nothing() {
        let l = layout_stacked(&[vec![f64::NAN, -3.0, 5.0]], 0.0, 100.0);
        assert_eq!(l.segments[0].width, 0.0);
        assert_eq!(l.segments[1].width, 0.0);
        assert_eq!(l.totals, vec![5.0]);
    }
}
