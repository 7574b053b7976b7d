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

/// A number without trailing zeros, at most 6 decimals: `0.5`, `12`, `0.005`.
pub fn trim_number(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".to_string();
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" || s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The unit a wait of `minutes` reads best in, as (minutes per unit, unit): minutes below two
/// hours, hours below two days, then days (a backlog's waits run to days).
pub fn wait_unit(minutes: f64) -> (f64, &'static str) {
    if minutes < 120.0 {
        (1.0, "min")
    } else if minutes < 2_880.0 {
        (60.0, "h")
    } else {
        (1_440.0, "days")
    }
}

/// A number of minutes in a [`wait_unit`], to one decimal, without the unit: `13.8`, `5.2`.
pub fn in_wait_unit(minutes: f64, (per_unit, _): (f64, &str)) -> String {
    trim_number((minutes / per_unit * 10.0).round() / 10.0)
}

/// A wait given in minutes, in the unit it reads best in: `13.8 min`, `5.2 h`, `11.5 days`.
pub fn wait(minutes: f64) -> String {
    let unit = wait_unit(minutes);
    format!("{} {}", in_wait_unit(minutes, unit), unit.1)
}

/// Dollars with cents for small unit prices: `$4.10`, `$1,234.57`.
pub fn usd_cents(value: f64) -> String {
    if !value.is_finite() {
        return "n/a".to_string();
    }
    let cents = (value.abs() * 100.0).round() as u64;
    let sign = if value < 0.0 && cents > 0 { "-" } else { "" };
    format!("{sign}${}.{:02}", group_thousands(cents / 100), cents % 100)
}

/// A share as a whole percentage: `0.873` → `"87 %"`.
pub fn percent(share: f64) -> String {
    if !share.is_finite() {
        return "n/a".to_string();
    }
    format!("{:.0} %", share * 100.0)
}

/// Requests dropped with their share of the requests: `"269,890 of 27.2 M (1.0 %)"`; the share
/// to one decimal under 10 % and "under 0.1 %" below that, so that a small one does not read
/// "0 %". Means per replication.
pub fn dropped_of(dropped: f64, requests: f64) -> String {
    let count = |n: f64| {
        if n >= 1e6 {
            format!("{:.1} M", n / 1e6)
        } else {
            group_thousands(n.round().max(0.0) as u64)
        }
    };
    let share = if requests > 0.0 {
        dropped / requests
    } else {
        0.0
    };
    let share = if share > 0.0 && share < 0.0005 {
        "under 0.1 %".to_string()
    } else if share * 100.0 < 9.95 {
        format!("{:.1} %", share * 100.0)
    } else {
        percent(share)
    };
    format!("{} of {} ({share})", count(dropped), count(requests))
}

/// Thousands separators: `1234567` → `"1,234,567"`.
pub fn group_thousands(n: u64) -> String {
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

/// "Spot interruption rate" → "spot interruption rate", keeping acronyms ("GPU price") as
/// they are.
pub fn lower_first(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && !second.is_uppercase() => {
            first.to_lowercase().chain(label.chars().skip(1)).collect()
        }
        _ => label.to_string(),
    }
}

/// "EKS's", "AWS Batch's", "Batch, warm pool on 4-GPU nodes'": a name's possessive (an
/// apostrophe alone after a plural's lowercase "s").
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_requests_read_with_their_share() {
        assert_eq!(
            dropped_of(269_890.0, 27_200_000.0),
            "269,890 of 27.2 M (1.0 %)"
        );
        assert_eq!(dropped_of(0.0, 5_000.0), "0 of 5,000 (0.0 %)");
        assert_eq!(dropped_of(1_500.0, 5_000.0), "1,500 of 5,000 (30 %)");
        assert_eq!(dropped_of(0.0, 0.0), "0 of 0 (0.0 %)");
        assert_eq!(dropped_of(3.0, 27_200_000.0), "3 of 27.2 M (under 0.1 %)");
        assert_eq!(dropped_of(99.6, 1_000.0), "100 of 1,000 (10 %)");
    }

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
    fn trims_cents_and_percent() {
        assert_eq!(trim_number(0.5), "0.5");
        assert_eq!(trim_number(12.0), "12");
        assert_eq!(trim_number(0.005), "0.005");
        assert_eq!(trim_number(-0.0), "0");
        assert_eq!(usd_cents(4.1), "$4.10");
        assert_eq!(usd_cents(1_234.567), "$1,234.57");
        assert_eq!(percent(0.873), "87 %");
    }

    #[test]
    fn waits_read_in_minutes_hours_or_days() {
        assert_eq!(wait(13.84), "13.8 min");
        assert_eq!(wait(0.0), "0 min");
        assert_eq!(wait(119.9), "119.9 min");
        assert_eq!(wait(120.0), "2 h");
        assert_eq!(wait(313.0), "5.2 h");
        assert_eq!(wait(2_880.0), "2 days");
        assert_eq!(wait(16_515.5), "11.5 days");
        assert_eq!(in_wait_unit(8_580.7, wait_unit(16_515.5)), "6");
    }

    #[test]
    fn compact_labels() {
        assert_eq!(usd_compact(950.0), "$950");
        assert_eq!(usd_compact(12_000.0), "$12k");
        assert_eq!(usd_compact(1_500_000.0), "$1.5M");
        assert_eq!(usd_compact(250_000.0), "$250k");
    }
}
