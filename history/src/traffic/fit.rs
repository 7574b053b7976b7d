//! A request trace's traffic: its rate (requests over its span), its hour-of-day profile and
//! weekend factor where its clock and span allow them, its tokens' median and 90th percentile,
//! or its arrivals minute by minute for a replay.

use super::{Request, RequestRead, TraceError, TraceFormat, TrafficOptions};
use crate::clock::Clock;
use crate::BadRow;
use gpucost_model::model::scenario::limits::REPLAY_MINUTES_MAX;
use gpucost_model::model::scenario::{ServiceTraffic, Tokens, TrafficReplay, DAY_S, HOUR_S};
use serde::{Deserialize, Serialize};

/// What a trace was fitted to, and what was read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrafficFit {
    /// The format read.
    pub format: TraceFormat,
    /// Records read.
    pub records_read: usize,
    /// Requests fitted.
    pub used: usize,
    /// Records skipped, by line.
    pub bad_rows: Vec<BadRow>,
    /// From the first request to the last, seconds.
    pub span_s: f64,
    /// Requests over the span, per second.
    pub mean_rps: f64,
    /// The requests per second of the busiest minute.
    pub busiest_minute_rps: f64,
    /// Relative weights of the hours of the day, where the trace spans a day of clock time.
    pub hourly_profile: Option<Vec<f64>>,
    /// Weekend rate over weekday rate, where the trace spans a week of clock time (else 1).
    pub weekend_factor: f64,
    /// Prompt tokens: median and p90.
    pub input_tokens: Tokens,
    /// Output tokens: median and p90.
    pub output_tokens: Tokens,
    /// The arrivals minute by minute, when replayed.
    pub replay: Option<TrafficReplay>,
    /// The service the traffic went to.
    pub service: String,
    /// What the fit assumed or could not fit, one sentence each.
    pub notes: Vec<String>,
}

impl TrafficFit {
    /// The service traffic it makes.
    pub fn traffic(&self) -> ServiceTraffic {
        match &self.replay {
            Some(replay) => ServiceTraffic {
                mean_rps: replay.mean_rps(),
                hourly_profile: None,
                weekend_factor: 1.0,
                spikes: None,
                replay: Some(replay.clone()),
            },
            None => ServiceTraffic {
                mean_rps: self.mean_rps,
                hourly_profile: self.hourly_profile.clone(),
                weekend_factor: self.weekend_factor,
                spikes: None,
                replay: None,
            },
        }
    }

    /// The fit in a few lines: what was read, and what the service will be given.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Read {} records as {}: {} requests, {} skipped, over {}.",
            self.records_read,
            self.format.label(),
            self.used,
            self.bad_rows.len(),
            span_text(self.span_s)
        )];
        let how = match &self.replay {
            Some(r) => format!(
                "replayed minute by minute ({} minutes, {:.4} req/s over them, looped over the \
                 horizon)",
                r.per_minute.len(),
                r.mean_rps()
            ),
            None => format!(
                "{:.4} req/s ({} requests over {:.1} s){}",
                self.mean_rps,
                self.used,
                self.span_s,
                match &self.hourly_profile {
                    Some(_) => ", with its hourly profile",
                    None => ", flat over the day",
                }
            ),
        };
        lines.push(format!(
            "Traffic of \"{}\": {how}; busiest minute {:.2} req/s.",
            self.service, self.busiest_minute_rps
        ));
        lines.push(format!(
            "Tokens per request: prompt median {} / p90 {}, output median {} / p90 {}.",
            self.input_tokens.median,
            self.input_tokens.p90,
            self.output_tokens.median,
            self.output_tokens.p90
        ));
        lines.extend(self.notes.iter().cloned());
        lines
    }
}

/// Fits a trace's traffic.
pub fn fit_requests(read: RequestRead, options: &TrafficOptions) -> Result<TrafficFit, TraceError> {
    let RequestRead {
        format,
        clock,
        mut requests,
        bad_rows,
        records_read,
        ..
    } = read;
    let mut notes = Vec::new();
    let sorted = requests.windows(2).all(|w| w[0].at_s <= w[1].at_s);
    if !sorted {
        let out_of_order = requests
            .windows(2)
            .filter(|w| w[1].at_s < w[0].at_s)
            .count();
        requests.sort_by(|a, b| a.at_s.total_cmp(&b.at_s));
        notes.push(format!(
            "{out_of_order} request(s) came before the one above them in the file: the \
             requests were taken in time order."
        ));
    }
    let (Some(first), Some(last)) = (requests.first(), requests.last()) else {
        return Err(TraceError::TooFewRequests { used: 0, bad_rows });
    };
    let span_s = last.at_s - first.at_s;
    if requests.len() < 2 || span_s <= 0.0 {
        return Err(TraceError::TooFewRequests {
            used: requests.len(),
            bad_rows,
        });
    }
    let n = requests.len();
    let mean_rps = n as f64 / span_s;
    let t0 = first.at_s;
    let per_minute = minute_counts(&requests, t0);
    let busiest_minute_rps = per_minute.iter().fold(0.0, |m: f64, &c| m.max(c)) / 60.0;
    let replay = if options.replay {
        if per_minute.len() > REPLAY_MINUTES_MAX {
            return Err(TraceError::ReplayTooLong {
                minutes: per_minute.len(),
            });
        }
        notes.push(format!(
            "Replayed: the {} minutes from the first request play from the horizon's start, \
             and again from their first when they end; the last minute, {:.0} s of it recorded, \
             counts as a whole one.",
            per_minute.len(),
            span_s - 60.0 * (per_minute.len() - 1) as f64
        ));
        Some(TrafficReplay { per_minute })
    } else {
        None
    };
    let (hourly_profile, weekend_factor) = if replay.is_some() {
        (None, 1.0)
    } else {
        shape(&requests, clock, span_s, options.utc_offset_s, &mut notes)
    };
    let (input_tokens, out_in) = tokens(requests.iter().map(|r| r.input), "prompt");
    let (output_tokens, out_out) = tokens(requests.iter().map(|r| r.output), "output");
    notes.extend(out_in.into_iter().chain(out_out));
    if replay.is_none() {
        notes.push(
            "No spikes are fitted: the busiest minute is in the summary; add spikes in the \
             service's traffic if the trace's bursts matter, or replay it."
                .to_string(),
        );
    }
    Ok(TrafficFit {
        format,
        records_read,
        used: n,
        bad_rows,
        span_s,
        mean_rps,
        busiest_minute_rps,
        hourly_profile,
        weekend_factor,
        input_tokens,
        output_tokens,
        replay,
        service: String::new(),
        notes,
    })
}

/// Requests in each minute from `t0` (the first request's time), to the last request's.
fn minute_counts(requests: &[Request], t0: f64) -> Vec<f64> {
    let last = requests.last().map_or(0.0, |r| r.at_s);
    let minutes = ((last - t0) / 60.0).floor() as usize + 1;
    // (A minute count beyond the replay's limit is still counted: the busiest minute.)
    let mut counts = vec![0.0; minutes];
    for r in requests {
        let m = (((r.at_s - t0) / 60.0).floor() as usize).min(minutes - 1);
        counts[m] += 1.0;
    }
    counts
}

/// The hour-of-day profile (a day of clock time or more) and the weekend factor (a week or
/// more): each hour's (day's) requests over the time the trace covered it.
fn shape(
    requests: &[Request],
    clock: Clock,
    span_s: f64,
    utc_offset_s: i64,
    notes: &mut Vec<String>,
) -> (Option<Vec<f64>>, f64) {
    if span_s < DAY_S {
        notes.push(format!(
            "The trace spans {}, under a day: no hourly profile (the traffic is flat at its \
             mean over the day) and no weekend factor.",
            span_text(span_s)
        ));
        return (None, 1.0);
    }
    if clock == Clock::TraceSeconds {
        notes.push(
            "The trace's times count from its start, not a clock: its hours are not hours of \
             the day, so no hourly profile or weekend factor is fitted (flat)."
                .to_string(),
        );
        return (None, 1.0);
    }
    let (first, last) = (requests[0].at_s, requests[requests.len() - 1].at_s);
    // Exposure: seconds of each local hour of the day, and of weekday and weekend time,
    // between the first request and the last.
    let mut hour_exposure = [0.0; 24];
    let mut day_exposure = [0.0; 2];
    let offset = utc_offset_s as f64;
    let mut t = first;
    while t < last {
        let local = t + offset;
        let next = ((local / HOUR_S).floor() + 1.0) * HOUR_S - offset;
        let piece = next.min(last) - t;
        let hour = (local.div_euclid(HOUR_S) as i64).rem_euclid(24) as usize;
        let day = (local.div_euclid(DAY_S) as i64 + 3).rem_euclid(7);
        hour_exposure[hour] += piece;
        day_exposure[usize::from(day >= 5)] += piece;
        t = next;
    }
    let mut hour_counts = [0.0; 24];
    let mut day_counts = [0.0; 2];
    for r in requests {
        if let (Some(h), Some(d)) = (r.hour, r.weekday) {
            hour_counts[usize::from(h)] += 1.0;
            day_counts[usize::from(d >= 5)] += 1.0;
        }
    }
    let rates: Vec<f64> = hour_counts
        .iter()
        .zip(hour_exposure)
        .map(|(c, e)| if e > 0.0 { c / e } else { 0.0 })
        .collect();
    let mean = rates.iter().sum::<f64>() / 24.0;
    let profile = (mean > 0.0).then(|| {
        rates
            .iter()
            .map(|r| (r / mean * 1e4).round() / 1e4)
            .collect::<Vec<f64>>()
    });
    notes.push(format!(
        "Hourly profile: each hour of the day's requests over the time the trace spent in it, \
         in the zone {} (the weights' mean is 1).",
        crate::format_offset(utc_offset_s)
    ));
    let weekend = if span_s >= 7.0 * DAY_S && day_exposure[0] > 0.0 && day_exposure[1] > 0.0 {
        let factor = (day_counts[1] / day_exposure[1]) / (day_counts[0] / day_exposure[0]);
        let factor = (factor * 1e4).round() / 1e4;
        notes.push(format!(
            "Weekend factor {factor}: the rate on Saturdays and Sundays over the weekdays' rate."
        ));
        factor
    } else {
        notes.push(
            "The trace spans under a week: no weekend factor (weekends as weekdays).".to_string(),
        );
        1.0
    };
    (profile, weekend)
}

/// The median and 90th percentile of a token count (linear between order statistics), with
/// a note when the median is under one token (taken as one, the least a request has).
fn tokens(values: impl Iterator<Item = u32>, what: &str) -> (Tokens, Option<String>) {
    let mut sorted: Vec<u32> = values.collect();
    sorted.sort_unstable();
    // (To a tenth of a token: the quantiles between two counts need no more.)
    let median = (quantile(&sorted, 0.5) * 10.0).round() / 10.0;
    let p90 = (quantile(&sorted, 0.9) * 10.0).round() / 10.0;
    if median < 1.0 {
        let note = format!(
            "The median {what} tokens are {median}: taken as 1, the fewest a request of the \
             model has."
        );
        return (
            Tokens {
                median: 1.0,
                p90: p90.max(1.0),
            },
            Some(note),
        );
    }
    (Tokens { median, p90 }, None)
}

/// The `p` quantile of ascending `sorted` values, linear between order statistics (R's and
/// numpy's default): the median of an odd count is its middle value.
pub fn quantile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = (sorted.len() - 1) as f64 * p;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    let (a, b) = (f64::from(sorted[lo]), f64::from(sorted[hi]));
    a + (b - a) * (h - lo as f64)
}

/// A span in its natural unit.
fn span_text(s: f64) -> String {
    if s < 2.0 * HOUR_S {
        format!("{:.1} minutes", s / 60.0)
    } else if s < 2.0 * DAY_S {
        format!("{:.1} hours", s / HOUR_S)
    } else {
        format!("{:.1} days", s / DAY_S)
    }
}
