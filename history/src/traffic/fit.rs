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
    if span_s > SPAN_DAYS_MAX * DAY_S {
        return Err(TraceError::SpanTooLong {
            days: span_s / DAY_S,
        });
    }
    let n = requests.len();
    let mean_rps = n as f64 / span_s;
    let t0 = first.at_s;
    let minutes = minutes_spanned(span_s);
    if options.replay && minutes > REPLAY_MINUTES_MAX {
        return Err(TraceError::ReplayTooLong { minutes });
    }
    let per_minute = minute_counts(&requests, t0, minutes);
    let busiest_minute_rps = per_minute.iter().fold(0.0, |m: f64, &c| m.max(c)) / 60.0;
    let replay = if options.replay {
        notes.push(format!(
            "Replayed: the {} minutes from the first request play from the horizon's start, \
             and again from their first when they end; the last minute, {:.1} s of it recorded, \
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

/// Longest span a trace may have, days: a year's horizon and a little more (a longer one is
/// most likely a mistyped date, and would take a vector of its minutes).
pub const SPAN_DAYS_MAX: f64 = 400.0;

/// Minutes a span covers from its first instant: the last instant closes the last minute
/// (a trace of exactly an hour is 60 minutes, not 61).
pub fn minutes_spanned(span_s: f64) -> usize {
    ((span_s / 60.0).ceil() as usize).max(1)
}

/// Requests in each of `minutes` minutes from `t0` (the first request's time); the last
/// request, at the end of the span, counts in the last.
fn minute_counts(requests: &[Request], t0: f64, minutes: usize) -> Vec<f64> {
    let mut counts = vec![0.0; minutes];
    for r in requests {
        let m = (((r.at_s - t0) / 60.0).floor() as usize).min(minutes - 1);
        counts[m] += 1.0;
    }
    counts
}

/// The hour-of-day profile (a day of clock time or more) and the weekend factor (a week or
/// more), in the zone `utc_offset_s`. Each is fitted on the trace's whole days (weeks) from
/// its first request, which cover every hour of the day (day of the week) alike, so that no
/// hour counts more for being covered more; the level stays the requests over the whole span.
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
    let t0 = requests[0].at_s;
    let offset = utc_offset_s as f64;
    let days = (span_s / DAY_S).floor();
    let mut hours = [0.0; 24];
    for r in requests.iter().take_while(|r| r.at_s < t0 + days * DAY_S) {
        let hour = ((r.at_s + offset).div_euclid(HOUR_S) as i64).rem_euclid(24) as usize;
        hours[hour] += 1.0;
    }
    let mean = hours.iter().sum::<f64>() / 24.0;
    let profile = (mean > 0.0).then(|| {
        hours
            .iter()
            .map(|c| (c / mean * 1e4).round() / 1e4)
            .collect::<Vec<f64>>()
    });
    notes.push(format!(
        "Hourly profile: each hour of the day's requests in the trace's first {days:.0} whole \
         day(s) from its first request, in the zone {} (the weights' mean is 1); the rate is the \
         requests over the whole span.",
        crate::format_offset(utc_offset_s)
    ));
    let weeks = (span_s / (7.0 * DAY_S)).floor();
    if weeks < 1.0 {
        notes.push(
            "The trace spans under a week: no weekend factor (weekends as weekdays).".to_string(),
        );
        return (profile, 1.0);
    }
    let (mut weekday, mut weekend) = (0.0_f64, 0.0_f64);
    for r in requests
        .iter()
        .take_while(|r| r.at_s < t0 + weeks * 7.0 * DAY_S)
    {
        // 1970-01-01 was a Thursday (3 with Monday = 0).
        let day = ((r.at_s + offset).div_euclid(DAY_S) as i64 + 3).rem_euclid(7);
        if day >= 5 {
            weekend += 1.0;
        } else {
            weekday += 1.0;
        }
    }
    // A weekend day's requests over a weekday's.
    let factor = ((weekend / 2.0) / (weekday / 5.0) * 1e4).round() / 1e4;
    if factor.is_finite() && (WEEKEND_FACTOR_MIN..=WEEKEND_FACTOR_MAX).contains(&factor) {
        notes.push(format!(
            "Weekend factor {factor}: a Saturday's or Sunday's requests over a weekday's, in \
             the trace's first {weeks:.0} whole week(s)."
        ));
        (profile, factor)
    } else {
        notes.push(format!(
            "No weekend factor: the trace's whole weeks have {weekend} weekend and {weekday} \
             weekday requests, a ratio outside {WEEKEND_FACTOR_MIN}–{WEEKEND_FACTOR_MAX}; \
             weekends are taken as weekdays."
        ));
        (profile, 1.0)
    }
}

/// The weekend factors a scenario takes (its field's range).
const WEEKEND_FACTOR_MIN: f64 = 0.0;
const WEEKEND_FACTOR_MAX: f64 = 100.0;

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
