//! Times and durations as job histories write them: ISO date-times with or without a zone,
//! Unix seconds or milliseconds, seconds from a trace's start, and Slurm's `Elapsed`.

use gpucost_model::model::scenario::{DAY_S, HOUR_S};
use serde::{Deserialize, Serialize};

/// How a file's times count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Clock {
    /// Instants: date-times or Unix times (seconds since 1970-01-01 UTC).
    Absolute,
    /// Seconds from the trace's start, with no clock time known.
    TraceSeconds,
}

/// A time read from a cell: seconds (since 1970 for an absolute clock, since the trace's
/// start otherwise) and the hour of day (local) when it is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Instant {
    /// Seconds.
    pub s: i64,
    /// Hour of day 0–23, local: as written for a date-time, in the file's zone for a Unix time;
    /// `None` for seconds from a trace's start.
    pub hour: Option<u8>,
    /// Day of the week, 0 = Monday, when the hour is known.
    pub weekday: Option<u8>,
}

/// What a time cell is, before it is read under a clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeCell {
    /// Empty, `Unknown` or `None`: not known (a job that never started or has not ended).
    Unknown,
    /// A plain number: Unix seconds, milliseconds or seconds from the trace's start.
    Number(f64),
    /// A date-time.
    DateTime(Instant),
}

/// Reads a time cell; `utc_offset_s` is the zone of date-times written without one (and the
/// zone in which a Unix time's hour of day is counted). `None` when it is no time at all.
pub fn read_time(text: &str, utc_offset_s: i64) -> Option<TimeCell> {
    let text = text.trim();
    // Empty, and the words (and pandas' NaN) that traces write for a time not yet reached.
    let unknown = ["unknown", "none", "nan", "null", "n/a", "na", "nat"];
    if text.is_empty() || unknown.iter().any(|u| text.eq_ignore_ascii_case(u)) {
        return Some(TimeCell::Unknown);
    }
    if let Ok(n) = text.parse::<f64>() {
        return n.is_finite().then_some(TimeCell::Number(n));
    }
    parse_datetime(text, utc_offset_s).map(TimeCell::DateTime)
}

/// The clock a number in a time column implies: Unix seconds (2001–5138) or milliseconds
/// are absolute; anything from 0 below 10⁹ is seconds from the trace's start.
pub fn clock_of_number(n: f64) -> Option<Clock> {
    if (1e9..1e11).contains(&n) || (1e12..1e14).contains(&n) {
        Some(Clock::Absolute)
    } else if (0.0..1e9).contains(&n) {
        Some(Clock::TraceSeconds)
    } else {
        None
    }
}

/// A number under `clock`, as an instant (`None` when it does not fit the clock).
pub fn number_at(n: f64, clock: Clock, utc_offset_s: i64) -> Option<Instant> {
    match clock {
        Clock::TraceSeconds => (0.0..1e9).contains(&n).then(|| Instant {
            s: n.floor() as i64,
            hour: None,
            weekday: None,
        }),
        Clock::Absolute => {
            let seconds = if (1e9..1e11).contains(&n) {
                n
            } else if (1e12..1e14).contains(&n) {
                n / 1000.0
            } else {
                return None;
            };
            Some(unix_instant(seconds.floor() as i64, utc_offset_s))
        }
    }
}

/// A Unix time with its local hour and weekday in the zone `utc_offset_s`.
pub fn unix_instant(s: i64, utc_offset_s: i64) -> Instant {
    let local = s + utc_offset_s;
    let day = local.div_euclid(86_400);
    Instant {
        s,
        hour: Some((local.rem_euclid(86_400) / 3600) as u8),
        // 1970-01-01 was a Thursday (3 with Monday = 0).
        weekday: Some((day + 3).rem_euclid(7) as u8),
    }
}

/// `YYYY-MM-DD[T ]HH:MM[:SS[.fff]]` with an optional `Z` or `±HH[:]MM`; without one the
/// time is in the zone `utc_offset_s`. The hour and weekday are those written.
pub fn parse_datetime(text: &str, utc_offset_s: i64) -> Option<Instant> {
    parse_datetime_precisely(text, utc_offset_s).map(|(instant, _)| instant)
}

/// [`parse_datetime`] with the fraction of its second (0 ≤ fraction < 1) that the instant's
/// whole seconds leave out: a request trace's arrivals are apart by milliseconds.
pub fn parse_datetime_precisely(text: &str, utc_offset_s: i64) -> Option<(Instant, f64)> {
    let text = text.trim();
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = text.get(range)?;
        if part.bytes().all(|b| b.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    if bytes.len() < 16 || bytes[4] != b'-' || bytes[7] != b'-' || bytes[13] != b':' {
        return None;
    }
    if !matches!(bytes[10], b'T' | b't' | b' ') {
        return None;
    }
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute) = (number(11..13)?, number(14..16)?);
    let mut rest = &text[16..];
    let mut second = 0;
    let mut second_fraction = 0.0;
    if let Some(after) = rest.strip_prefix(':') {
        let digits = after.get(..2)?;
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        second = digits.parse().ok()?;
        rest = &after[2..];
        if let Some(fraction) = rest.strip_prefix(['.', ',']) {
            let end = fraction
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(fraction.len());
            if end == 0 {
                return None;
            }
            // At most nanoseconds are read: more digits add nothing a float keeps.
            let digits = &fraction[..end.min(9)];
            second_fraction = digits.parse::<f64>().ok()? / 10f64.powi(digits.len() as i32);
            rest = &fraction[end..];
        }
    }
    let offset_s = match rest {
        "" => utc_offset_s,
        "Z" | "z" => 0,
        _ => parse_utc_offset(rest)?,
    };
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let local = days * 86_400 + hour * 3600 + minute * 60 + second;
    Some((
        Instant {
            s: local - offset_s,
            hour: Some(hour as u8),
            weekday: Some((days + 3).rem_euclid(7) as u8),
        },
        second_fraction,
    ))
}

/// `±HH:MM`, `±HHMM` or `±HH` as seconds east of UTC; `Z`/`UTC` is 0.
pub fn parse_utc_offset(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("z") || text.eq_ignore_ascii_case("utc") {
        return Some(0);
    }
    let text = text
        .strip_prefix("UTC")
        .or_else(|| text.strip_prefix("utc"))
        .unwrap_or(text);
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: String = text[1..].chars().filter(|&c| c != ':').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (h, m): (i64, i64) = match digits.len() {
        2 => (digits.parse().ok()?, 0),
        4 => (digits[..2].parse().ok()?, digits[2..].parse().ok()?),
        _ => return None,
    };
    if h > 14 || m > 59 {
        return None;
    }
    Some(sign * (h * 3600 + m * 60))
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Slurm's `Elapsed`: `[DD-[HH:]]MM:SS` (also `HH:MM:SS` and `DD-HH:MM:SS`), seconds.
pub fn parse_elapsed(text: &str) -> Option<f64> {
    let text = text.trim();
    let (days, clock) = match text.split_once('-') {
        Some((d, c)) => (d.parse::<u32>().ok()?, c),
        None => (0, text),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let field = |s: &str| -> Option<f64> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
            .then(|| s.parse::<f64>().ok())
            .flatten()
    };
    let (h, m, s) = match parts.as_slice() {
        [h, m, s] => (field(h)?, field(m)?, field(s)?),
        [m, s] => (0.0, field(m)?, field(s)?),
        // `DD-HH`, as sacct may print a whole number of hours after the days.
        [h] if days > 0 => (field(h)?, 0.0, 0.0),
        _ => return None,
    };
    if m >= 60.0 || s >= 60.0 || (days > 0 && h >= 24.0) {
        return None;
    }
    Some(f64::from(days) * DAY_S + h * HOUR_S + m * 60.0 + s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64, hour: u8, weekday: u8) -> Instant {
        Instant {
            s,
            hour: Some(hour),
            weekday: Some(weekday),
        }
    }

    #[test]
    fn date_times_count_seconds_from_1970() {
        // 2024-03-01 is day 19,783 (date -d 2024-03-01 +%s = 1709251200), a Friday.
        assert_eq!(days_from_civil(2024, 3, 1) * 86_400, 1_709_251_200);
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(
            parse_datetime("2024-03-01T13:45:10Z", 0),
            Some(at(1_709_300_710, 13, 4))
        );
        // An offset moves the instant; the written hour stays.
        assert_eq!(
            parse_datetime("2024-03-01 13:45:10+02:00", 0),
            Some(at(1_709_300_710 - 7200, 13, 4))
        );
        // Without a zone, the file's zone applies (here UTC−5).
        assert_eq!(
            parse_datetime("2024-03-01T13:45:10", -5 * 3600),
            Some(at(1_709_300_710 + 5 * 3600, 13, 4))
        );
        assert_eq!(parse_datetime("2024-02-30 10:00", 0), None);
        assert_eq!(parse_datetime("yesterday", 0), None);
    }

    #[test]
    fn numbers_pick_their_clock() {
        assert_eq!(clock_of_number(0.0), Some(Clock::TraceSeconds));
        assert_eq!(clock_of_number(12_902_960.0), Some(Clock::TraceSeconds));
        assert_eq!(clock_of_number(1_709_300_710.0), Some(Clock::Absolute));
        assert_eq!(clock_of_number(1_709_300_710_000.0), Some(Clock::Absolute));
        assert_eq!(clock_of_number(-1.0), None);
        assert_eq!(
            number_at(1_709_300_710_000.0, Clock::Absolute, 0),
            Some(at(1_709_300_710, 13, 4))
        );
        assert_eq!(number_at(5.0, Clock::Absolute, 0), None);
        assert_eq!(read_time("Unknown", 0), Some(TimeCell::Unknown));
        assert_eq!(read_time("None", 0), Some(TimeCell::Unknown));
        assert_eq!(read_time("soon", 0), None);
    }

    #[test]
    fn offsets_in_every_written_form() {
        assert_eq!(parse_utc_offset("+02:00"), Some(7200));
        assert_eq!(parse_utc_offset("-0530"), Some(-(5 * 3600 + 1800)));
        assert_eq!(parse_utc_offset("UTC+01"), Some(3600));
        assert_eq!(parse_utc_offset("Z"), Some(0));
        assert_eq!(parse_utc_offset("+25:00"), None);
        assert_eq!(parse_utc_offset("Europe/Paris"), None);
    }

    #[test]
    fn elapsed_as_slurm_prints_it() {
        assert_eq!(parse_elapsed("1-02:03:04"), Some(86_400.0 + 7_384.0));
        assert_eq!(parse_elapsed("00:05:16"), Some(316.0));
        assert_eq!(parse_elapsed("03:04"), Some(184.0));
        assert_eq!(parse_elapsed("2-05"), Some(2.0 * 86_400.0 + 5.0 * 3600.0));
        assert_eq!(parse_elapsed("1:75:00"), None);
        assert_eq!(parse_elapsed("1-25:00:00"), None);
        assert_eq!(parse_elapsed(""), None);
    }
}
