//! Layout of a tornado chart: one row per input, sorted by swing (largest first), with a bar
//! from the base value to the value at the input's low setting and one to its high setting,
//! on a shared horizontal scale.

use super::scale::LinearScale;

/// One laid-out row.
#[derive(Debug, Clone, PartialEq)]
pub struct TornadoRow {
    /// Input label.
    pub label: String,
    /// Value with the input low.
    pub low: f64,
    /// Value with the input high.
    pub high: f64,
    /// Pixel x of the low value.
    pub x_low: f64,
    /// Pixel x of the high value.
    pub x_high: f64,
}

/// The layout: rows (largest swing first) and the pixel x of the base value.
#[derive(Debug, Clone, PartialEq)]
pub struct TornadoLayout {
    /// Rows, largest swing first.
    pub rows: Vec<TornadoRow>,
    /// Pixel x of the base value.
    pub x_base: f64,
    /// Smallest and largest value on the scale.
    pub domain: (f64, f64),
}

/// Lays out (label, low, high) around `base` between pixels `x0` and `x1`; rows whose values
/// are not finite are left out.
pub fn layout_tornado(inputs: &[(String, f64, f64)], base: f64, x0: f64, x1: f64) -> TornadoLayout {
    let mut rows: Vec<&(String, f64, f64)> = inputs
        .iter()
        .filter(|(_, lo, hi)| lo.is_finite() && hi.is_finite())
        .collect();
    rows.sort_by(|a, b| {
        let swing = |r: &&(String, f64, f64)| (r.2 - r.1).abs();
        swing(b).total_cmp(&swing(a)).then_with(|| a.0.cmp(&b.0))
    });
    let lo = rows.iter().map(|r| r.1.min(r.2)).fold(base, f64::min);
    let hi = rows.iter().map(|r| r.1.max(r.2)).fold(base, f64::max);
    let pad = ((hi - lo) * 0.05).max(hi.abs() * 1e-6).max(1e-9);
    let scale = LinearScale::new((lo - pad, hi + pad), (x0, x1));
    TornadoLayout {
        rows: rows
            .into_iter()
            .map(|(label, low, high)| TornadoRow {
                label: label.clone(),
                low: *low,
                high: *high,
                x_low: scale.map(*low),
                x_high: scale.map(*high),
            })
            .collect(),
        x_base: scale.map(base),
        domain: (lo - pad, hi + pad),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_sort_by_swing_and_sit_around_the_base() {
        let l = layout_tornado(
            &[
                ("small".into(), 99.0, 101.0),
                ("big".into(), 80.0, 130.0),
                ("flat".into(), 100.0, 100.0),
                ("bad".into(), f64::NAN, 1.0),
            ],
            100.0,
            0.0,
            550.0,
        );
        let labels: Vec<&str> = l.rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, vec!["big", "small", "flat"]);
        // Domain 80..130 padded by 2.5 each side: 77.5..132.5 over 550 px, 10 px per unit.
        assert!((l.x_base - 225.0).abs() < 1e-9);
        assert!((l.rows[0].x_low - 25.0).abs() < 1e-9);
        assert!((l.rows[0].x_high - 525.0).abs() < 1e-9);
    }
}
