//! The payback chart: each platform's cumulative cash over 36 months as a line, the months
//! along the bottom and dollars up the side, with a mark where a platform's line crosses the
//! current platform's; and what the chart says in words.

use super::scale::{nice_ticks_between, LinearScale};
use crate::format::{trim_number, usd};
use crate::model::payback::{Payback, PlatformPayback, MONTHS};

/// One platform's line.
#[derive(Debug, Clone, PartialEq)]
pub struct PaybackLine {
    /// The platform.
    pub name: String,
    /// Whether it is the current platform.
    pub current: bool,
    /// The SVG polyline's points, "x,y x,y …", month 0 to 36.
    pub points: String,
    /// Where it pays back: the crossing (x, y), if it crosses after month 0.
    pub breakeven: Option<(f64, f64)>,
}

/// A tick on an axis: its position and its label.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Position along the axis, user units.
    pub at: f64,
    /// Its label.
    pub label: String,
}

/// The chart, laid out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PaybackLayout {
    /// One per platform, in scenario order.
    pub lines: Vec<PaybackLine>,
    /// Along the bottom: every 6 months.
    pub month_ticks: Vec<Tick>,
    /// Up the side: dollars.
    pub usd_ticks: Vec<Tick>,
}

/// Lays out `payback` with months across `x` (left, right) and dollars up `y` (bottom, top).
pub fn layout_payback(payback: &Payback, x: (f64, f64), y: (f64, f64)) -> PaybackLayout {
    let values = payback.platforms.iter().flat_map(|p| &p.cumulative_usd);
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), &v| {
        if v.is_finite() {
            (lo.min(v), hi.max(v))
        } else {
            (lo, hi)
        }
    });
    if hi <= lo {
        return PaybackLayout::default();
    }
    let ticks = nice_ticks_between(lo, hi, 5);
    let top = ticks.last().copied().unwrap_or(hi).max(hi);
    let bottom = ticks.first().copied().unwrap_or(lo).min(lo);
    let sx = LinearScale::new((0.0, MONTHS as f64), x);
    let sy = LinearScale::new((bottom, top), y);
    let lines = payback
        .platforms
        .iter()
        .map(|p| PaybackLine {
            name: p.name.clone(),
            current: p.name == payback.current,
            points: p
                .cumulative_usd
                .iter()
                .enumerate()
                .map(|(m, &v)| format!("{:.1},{:.1}", sx.map(m as f64), sy.map(v)))
                .collect::<Vec<_>>()
                .join(" "),
            breakeven: p.breakeven_month.filter(|&m| m > 0.0).map(|m| {
                let before = m.floor() as usize;
                let after = (before + 1).min(MONTHS);
                let frac = m - before as f64;
                let at = |i: usize| p.cumulative_usd.get(i).copied().unwrap_or(0.0);
                let v = at(before) + frac * (at(after) - at(before));
                (sx.map(m), sy.map(v))
            }),
        })
        .collect();
    PaybackLayout {
        lines,
        month_ticks: (0..=MONTHS)
            .step_by(6)
            .map(|m| Tick {
                at: sx.map(m as f64),
                label: m.to_string(),
            })
            .collect(),
        usd_ticks: ticks
            .into_iter()
            .map(|v| Tick {
                at: sy.map(v),
                label: crate::format::usd_compact(v),
            })
            .collect(),
    }
}

/// What `line` does against the current platform `current`, in a sentence: where it pays
/// back, and what it saves or costs more over the 36 months.
pub fn payback_sentence(line: &PlatformPayback, current: &str) -> String {
    let months = |m: f64| trim_number((m * 10.0).round() / 10.0);
    let when = match (line.breakeven_month, line.overtaken_month) {
        (Some(m), Some(later)) if m <= 0.0 => format!(
            "costs less than {current} until month {}, then more",
            months(later)
        ),
        (Some(m), _) if m <= 0.0 => format!("costs no more than {current} from month 0"),
        (Some(m), Some(later)) => format!(
            "pays back against {current} in {} months, and costs more again from month {}",
            months(m),
            months(later)
        ),
        (Some(m), None) => format!("pays back against {current} in {} months", months(m)),
        (None, _) => format!("never pays back against {current} within {MONTHS} months"),
    };
    let saving = line.saving_at_36_months_usd;
    let over = if saving >= 0.0 {
        format!("saves {} over {MONTHS} months", usd(saving))
    } else {
        format!("costs {} more over {MONTHS} months", usd(-saving))
    };
    format!("{} {when}; it {over}.", line.name)
}

/// What `line`'s commitments still ask after month 12, where they ask anything: "… $X still
/// owed after month 12".
pub fn owed_sentence(line: &PlatformPayback) -> Option<String> {
    let owed = line.owed_usd.get(12).copied().unwrap_or(0.0);
    (owed > 0.5).then(|| {
        format!(
            "{}: {} of its commitments still owed after month 12.",
            line.name,
            usd(owed)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, start: f64, per_month: f64) -> PlatformPayback {
        PlatformPayback {
            name: name.into(),
            one_off_usd: start,
            monthly_tco_usd: per_month,
            upfront_usd: 0.0,
            cumulative_usd: (0..=MONTHS).map(|m| start + per_month * m as f64).collect(),
            owed_usd: vec![0.0; MONTHS + 1],
            breakeven_month: None,
            overtaken_month: None,
            saving_at_36_months_usd: 0.0,
        }
    }

    #[test]
    fn the_crossing_is_marked_on_both_lines_and_said() {
        let mut next = line("Autopilot", 100_000.0, 10_000.0);
        let today = line("Karpenter", 0.0, 20_000.0);
        next.breakeven_month = Some(10.0);
        next.saving_at_36_months_usd = 36.0 * 10_000.0 - 100_000.0;
        let p = Payback {
            current: "Karpenter".into(),
            months: (0..=36).collect(),
            platforms: vec![next.clone(), today],
        };
        let l = layout_payback(&p, (0.0, 360.0), (200.0, 0.0));
        // Month 10 at x = 100; $200,000 (both lines there) on the dollar scale.
        let (x, y) = l.lines[0].breakeven.unwrap();
        assert!((x - 100.0).abs() < 1e-9, "{x}");
        let on_today = l.lines[1].points.split(' ').nth(10).unwrap();
        assert_eq!(on_today, format!("100.0,{y:.1}"));
        assert!(l.lines[1].current && !l.lines[0].current);
        assert_eq!(l.month_ticks.len(), 7);
        assert_eq!(
            payback_sentence(&next, "Karpenter"),
            "Autopilot pays back against Karpenter in 10 months; it saves $260,000 over 36 months."
        );
        next.breakeven_month = None;
        next.saving_at_36_months_usd = -5_000.0;
        assert!(payback_sentence(&next, "Karpenter").contains("never pays back"));
        next.breakeven_month = Some(0.0);
        next.overtaken_month = Some(19.26);
        assert!(
            payback_sentence(&next, "Karpenter")
                .contains("costs less than Karpenter until month 19.3, then more"),
            "{}",
            payback_sentence(&next, "Karpenter")
        );
    }
}
