//! One day of a service on one platform, minute by minute: the traffic as an area, the
//! ready replicas' capacity as a line on the same axis (requests per second), so a spike the
//! replicas have not caught up with shows as traffic above the line; under it, the p95
//! latency on a log axis against the objective, the minutes that missed it marked.

use super::scale::{nice_ticks, LinearScale};
use crate::model::serving::platform::ServiceDay;
use crate::model::serving::pool::Bucket;

/// Height of the traffic panel, px.
pub const TRAFFIC_H: f64 = 90.0;
/// Height of the latency panel, px.
pub const LATENCY_H: f64 = 44.0;
/// Gap between the panels, px.
pub const GAP: f64 = 6.0;

/// The drawn day of one platform.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DayLayout {
    /// SVG path of the traffic area (requests per second, per minute).
    pub traffic: String,
    /// SVG points of the ready replicas' capacity (requests per second).
    pub capacity: String,
    /// SVG points of the p95 latency (minutes with requests; no replica: at the top).
    pub latency: String,
    /// y of the latency objective.
    pub slo_y: f64,
    /// (x, width) of each minute whose p95 missed the objective.
    pub misses: Vec<(f64, f64)>,
    /// (value, y) ticks of the requests-per-second axis.
    pub rps_ticks: Vec<(f64, f64)>,
    /// (ms, y) ticks of the latency axis.
    pub ms_ticks: Vec<(f64, f64)>,
    /// (label, x) of the time axis' ticks.
    pub time_ticks: Vec<(String, f64)>,
    /// Most ready replicas in a minute, and fewest.
    pub ready_range: (f64, f64),
    /// Minutes that missed the objective.
    pub missed_minutes: usize,
}

/// The minutes shown around a spike: from half an hour before it for three hours.
pub fn spike_window(spike_minute: usize) -> (usize, usize) {
    let from = spike_minute.saturating_sub(30).min(1_440 - 180);
    (from, from + 180)
}

/// The requests per second the axis must hold for `day` over `window` (minutes): its
/// busiest minute's traffic or ready capacity (several platforms share the largest, so
/// their panels compare).
pub fn rps_top(day: &ServiceDay, window: (usize, usize)) -> f64 {
    shown(day, window)
        .iter()
        .map(|m| (m.arrived / 60.0).max(m.ready * day.capacity_rps))
        .fold(0.0, f64::max)
}

/// The minutes of `day` in `window` (those it has).
fn shown(day: &ServiceDay, (from, to): (usize, usize)) -> &[Bucket] {
    let n = day.minutes.len();
    &day.minutes[from.min(n)..to.min(n).max(from.min(n))]
}

/// "03:00", "14:30".
fn clock(minute: usize) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// Lays out the minutes `window` of `day` between x0 and x1 from y = `top`, its rps axis up
/// to `rps_max`.
pub fn layout_service_day(
    day: &ServiceDay,
    window: (usize, usize),
    rps_max: f64,
    x0: f64,
    x1: f64,
    top: f64,
) -> DayLayout {
    let minutes = shown(day, window);
    let n = minutes.len();
    if n == 0 || x1.partial_cmp(&x0) != Some(std::cmp::Ordering::Greater) {
        return DayLayout::default();
    }
    let span = (window.1 - window.0) as f64;
    let ticks = nice_ticks(rps_max.max(1e-9), 3);
    let rps_top = *ticks.last().unwrap_or(&1.0);
    let x = LinearScale::new((0.0, span), (x0, x1));
    let y = LinearScale::new((0.0, rps_top), (top + TRAFFIC_H, top));
    let base = top + TRAFFIC_H;
    let mut traffic = format!("M{:.1},{:.1}", x.map(0.0), base);
    let mut capacity = String::new();
    for (i, m) in minutes.iter().enumerate() {
        let (a, b) = (x.map(i as f64), x.map(i as f64 + 1.0));
        let rps = y.map(m.arrived / 60.0);
        traffic.push_str(&format!(" L{a:.1},{rps:.1} L{b:.1},{rps:.1}"));
        let cap = y.map(m.ready * day.capacity_rps);
        capacity.push_str(&format!("{a:.1},{cap:.1} {b:.1},{cap:.1} "));
    }
    traffic.push_str(&format!(" L{:.1},{:.1} Z", x.map(n as f64), base));
    // Latency, log10 from the smallest tick to the largest, the objective inside.
    let finite = minutes
        .iter()
        .filter(|m| m.arrived > 0.0 && m.p95_ms.is_finite())
        .map(|m| m.p95_ms);
    let (lo, hi) = finite.fold((day.latency_slo_ms, day.latency_slo_ms), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    let lo_exp = libm::floor(libm::log10(lo.max(0.1)));
    let hi_exp = libm::ceil(libm::log10(hi.max(lo * 10.0).max(1.0))).max(lo_exp + 1.0);
    let l_top = base + GAP;
    let l_base = l_top + LATENCY_H;
    let ly = LinearScale::new((lo_exp, hi_exp), (l_base, l_top));
    let at = |ms: f64| {
        if ms.is_finite() {
            ly.map(libm::log10(ms.max(0.1)).clamp(lo_exp, hi_exp))
        } else {
            l_top
        }
    };
    let mut latency = String::new();
    let mut misses = Vec::new();
    for (i, m) in minutes.iter().enumerate() {
        if m.arrived > 0.0 {
            let mid = x.map(i as f64 + 0.5);
            latency.push_str(&format!("{mid:.1},{:.1} ", at(m.p95_ms)));
        }
        if m.p95_ms > day.latency_slo_ms {
            misses.push((
                x.map(i as f64),
                (x.map(i as f64 + 1.0) - x.map(i as f64)).max(0.5),
            ));
        }
    }
    let ready = minutes.iter().map(|m| m.ready);
    // A tick every 30 minutes up to 6 hours shown, else every 3 hours.
    let every = if span <= 360.0 { 30 } else { 180 };
    let first = window.0.div_ceil(every) * every;
    let time_ticks = (first..=window.1)
        .step_by(every)
        .map(|m| (clock(m), x.map((m - window.0) as f64)))
        .collect();
    let ready_range = (
        ready.clone().fold(0.0, f64::max),
        ready.fold(f64::INFINITY, f64::min),
    );
    DayLayout {
        traffic,
        capacity: capacity.trim_end().to_string(),
        latency: latency.trim_end().to_string(),
        slo_y: at(day.latency_slo_ms),
        missed_minutes: misses.len(),
        misses,
        rps_ticks: ticks.iter().map(|&v| (v, y.map(v))).collect(),
        ms_ticks: (lo_exp as i32..=hi_exp as i32)
            .map(|e| (libm::pow(10.0, f64::from(e)), ly.map(f64::from(e))))
            .collect(),
        time_ticks,
        ready_range,
    }
}

/// Height of one platform's panels.
pub fn day_height() -> f64 {
    TRAFFIC_H + GAP + LATENCY_H
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minute(arrived: f64, ready: f64, p95_ms: f64) -> Bucket {
        Bucket {
            p95_ms,
            parts: [None, None],
            arrived,
            dropped: 0.0,
            ready,
            billed: ready,
        }
    }

    #[test]
    fn a_spike_above_the_replicas_shows_as_missed_minutes() {
        // 1,440 minutes at 60 requests (1 req/s) on 1 replica of 2 req/s; minutes 600–609 at
        // 600 requests (10 req/s) with no replica: latency infinite, 10 misses.
        let mut minutes: Vec<Bucket> = (0..1_440).map(|_| minute(60.0, 1.0, 50.0)).collect();
        for m in &mut minutes[600..610] {
            *m = minute(600.0, 0.0, f64::INFINITY);
        }
        let day = ServiceDay {
            day: 0,
            latency_slo_ms: 500.0,
            capacity_rps: 2.0,
            spike_minute: Some(600),
            minutes,
        };
        assert_eq!(rps_top(&day, (0, 1_440)), 10.0);
        assert_eq!(rps_top(&day, (0, 600)), 2.0);
        let l = layout_service_day(&day, (0, 1_440), 10.0, 0.0, 1_440.0, 0.0);
        assert_eq!(l.time_ticks.len(), 9);
        assert_eq!(l.time_ticks[1], ("03:00".to_string(), 180.0));
        assert_eq!(l.missed_minutes, 10);
        assert_eq!(l.misses[0], (600.0, 1.0));
        // The 10 req/s tick is the axis' top; 2 req/s of capacity is at 4/5 of its height.
        assert_eq!(l.rps_ticks.last().map(|t| t.1), Some(0.0));
        assert!(l
            .capacity
            .starts_with(&format!("0.0,{:.1}", TRAFFIC_H * 0.8)));
        // Latency from 10 ms to 1 s: the objective (500 ms) between, no replica at the top.
        assert_eq!(l.ms_ticks.first().map(|t| t.0), Some(10.0));
        assert_eq!(l.ms_ticks.last().map(|t| t.0), Some(1_000.0));
        let top = TRAFFIC_H + GAP;
        assert!(l.slo_y > top && l.slo_y < top + LATENCY_H);
        assert_eq!(l.ready_range, (1.0, 0.0));
        // The spike's window: 09:30 to 12:30, a tick each half hour, the misses from 30 px.
        assert_eq!(spike_window(600), (570, 750));
        let w = layout_service_day(&day, spike_window(600), 10.0, 0.0, 180.0, 0.0);
        assert_eq!(w.time_ticks.first(), Some(&("09:30".to_string(), 0.0)));
        assert_eq!(w.time_ticks.len(), 7);
        assert_eq!((w.missed_minutes, w.misses[0]), (10, (30.0, 1.0)));
        assert_eq!(spike_window(10), (0, 180));
        assert_eq!(spike_window(1_430), (1_260, 1_440));
    }

    #[test]
    fn an_empty_day_is_an_empty_layout() {
        let day = ServiceDay {
            day: 0,
            latency_slo_ms: 500.0,
            capacity_rps: 2.0,
            spike_minute: None,
            minutes: Vec::new(),
        };
        let l = layout_service_day(&day, (0, 1_440), 0.0, 0.0, 100.0, 0.0);
        assert_eq!(l, DayLayout::default());
    }
}
