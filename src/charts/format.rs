//! Number formatting for labels: money with thousands separators, compact axis labels.

/// Whole US dollars with thousands separators: `1234567.8` → `"$1,234,568"`.
/// Non-finite input gives `"n/a"` rather than a misleading number.
pub fn usd(value: f64) -> String {
    if !value.is_finite() {
        return "n/a".to_string();
    }
    let rounded = value.round();
    let sign = if rounded < 0.0 { "-" } else { "" };
    format!("{sign}${}", group_thousands(rounded.abs() as u64))
}

/// Compact dollars for axis ticks: `$950`, `$12k`, `$1.5M`.
pub fn usd_compact(value: f64) -> String {
    if !value.is_finite() {
        return "n/a".to_string();
    }
    let abs = value.abs();
    let sign = if value < 0.0 { "-" } else { "" };
    let (scaled, suffix) = if abs >= 1e6 {
        (abs / 1e6, "M")
    } else if abs >= 1e3 {
        (abs / 1e3, "k")
    } else {
        (abs, "")
    };
    let text = if scaled >= 100.0 || scaled.fract() == 0.0 {
        format!("{scaled:.0}")
    } else {
        let s = format!("{scaled:.1}");
        s.trim_end_matches(".0").to_string()
    };
    format!("{sign}${text}{suffix}")
}

fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usd_groups_thousands_and_rounds() {
        assert_eq!(usd(0.0), "$0");
        assert_eq!(usd(999.4), "$999");
        assert_eq!(usd(1_000.0), "$1,000");
        assert_eq!(usd(1_234_567.8), "$1,234,568");
        assert_eq!(usd(-23_924.0), "-$23,924");
        assert_eq!(usd(f64::INFINITY), "n/a");
    }

    #[test]
    fn compact_labels() {
        assert_eq!(usd_compact(950.0), "$950");
        assert_eq!(usd_compact(12_000.0), "$12k");
        assert_eq!(usd_compact(1_500_000.0), "$1.5M");
        assert_eq!(usd_compact(250_000.0), "$250k");
    }
}
