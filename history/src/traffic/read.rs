//! The two public request-trace formats, read into [`Request`]s: the Azure LLM inference
//! traces' CSV (`TIMESTAMP,ContextTokens,GeneratedTokens`, a date-time with a fraction of a
//! second and no zone) and Mooncake's JSON lines (`timestamp` in milliseconds, from the trace's
//! start or since 1970, `input_length`, `output_length`; other keys such as `hash_ids` are not
//! read). Every record that cannot be read is reported by line with why.

use super::{Request, RequestRead, TraceError, TraceFormat};
use crate::clock::{parse_datetime_precisely, Clock};
use crate::source::Source;
use crate::table::{csv_reader, header_of, record_or_skip};
use crate::{BadRow, PROGRESS_EVERY};
use gpucost_model::model::scenario::limits::TRACE_REQUESTS_MAX;
use serde::Deserialize;

/// Most tokens one request may have in a trace (prompt or output): no model reads more.
pub const TOKENS_MAX: f64 = 10_000_000.0;

/// The Azure CSV's columns: arrival, prompt tokens, output tokens (case and spaces ignored).
pub const AZURE_COLUMNS: [&str; 3] = ["timestamp", "contexttokens", "generatedtokens"];

/// Whether a header row is the Azure LLM trace's.
pub fn is_azure_header(line: &str) -> bool {
    let names: Vec<String> = line.split(',').map(column_key).collect();
    AZURE_COLUMNS.iter().all(|c| names.iter().any(|n| n == c))
}

/// Whether a line is one of Mooncake's JSON records.
pub fn is_mooncake_line(line: &str) -> bool {
    let line = line.trim();
    line.starts_with('{') && line.contains("\"input_length\"") && line.contains("\"timestamp\"")
}

fn column_key(name: &str) -> String {
    name.trim()
        .trim_matches('"')
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A token count as written: a whole number from 0 to [`TOKENS_MAX`].
fn tokens(value: f64, what: &str) -> Result<u32, String> {
    if !value.is_finite() {
        Err(format!("{what} is not a number"))
    } else if value < 0.0 {
        Err(format!("{what} is negative ({value})"))
    } else if value.fract() != 0.0 {
        Err(format!("{what} is not a whole number ({value})"))
    } else if value > TOKENS_MAX {
        Err(format!("{what} is {value}, more than {TOKENS_MAX} tokens"))
    } else {
        Ok(value as u32)
    }
}

/// Reads the Azure LLM trace's CSV.
pub(super) fn read_azure(
    source: Source,
    utc_offset_s: i64,
    progress: &mut dyn FnMut(f64),
) -> Result<RequestRead, TraceError> {
    let (bytes, total) = source.bytes();
    let mut reader = csv_reader(bytes);
    let header = header_of(&mut reader).ok_or(TraceError::Empty)?;
    let keys: Vec<String> = header.iter().map(column_key).collect();
    let mut at = [0usize; 3];
    for (slot, want) in at.iter_mut().zip(AZURE_COLUMNS) {
        *slot = keys
            .iter()
            .position(|k| k == want)
            .ok_or(TraceError::MissingColumns {
                header: header.iter().map(str::to_string).collect(),
            })?;
    }
    let mut read = RequestRead::new(TraceFormat::AzureCsv, Clock::Absolute);
    for record in reader.records() {
        let record = match record_or_skip(record, &mut read.bad_rows, &mut read.records_read) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err((line, reason)) => return Err(TraceError::Unreadable { line, reason }),
        };
        let line = record.position().map_or(0, |p| p.line());
        if read.records_read.is_multiple_of(PROGRESS_EVERY) {
            let byte = record.position().map_or(0, |p| p.byte());
            progress(byte as f64 / total.max(1) as f64);
        }
        if record.iter().all(str::is_empty) {
            read.lines_skipped += 1;
            continue;
        }
        read.records_read += 1;
        let cell = |i: usize| record.get(at[i]).unwrap_or("");
        let parsed = (|| {
            let time = cell(0);
            let (instant, fraction) = parse_datetime_precisely(time, utc_offset_s)
                .ok_or_else(|| format!("TIMESTAMP \"{}\" is not a date-time", short(time)))?;
            let number = |i: usize, what: &str| -> Result<u32, String> {
                let text = cell(i);
                let value: f64 = text
                    .parse()
                    .map_err(|_| format!("{what} \"{}\" is not a number", short(text)))?;
                tokens(value, what)
            };
            Ok::<_, String>(Request {
                at_s: instant.s as f64 + fraction,
                input: number(1, "ContextTokens")?,
                output: number(2, "GeneratedTokens")?,
            })
        })();
        push(&mut read, line, parsed)?;
    }
    Ok(read)
}

/// One Mooncake record: the keys read (others are ignored).
#[derive(Deserialize)]
struct MooncakeRow {
    timestamp: f64,
    input_length: f64,
    output_length: f64,
}

/// Milliseconds from which a Mooncake timestamp is taken as since 1970 (2001-09-09) rather
/// than from the trace's start.
const EPOCH_MS_FROM: f64 = 1e12;

/// The last millisecond a timestamp may be: the end of year 9999 since 1970.
const LAST_MS: f64 = 253_402_300_800_000.0;

/// Reads Mooncake's JSON lines.
pub(super) fn read_mooncake(
    source: Source,
    progress: &mut dyn FnMut(f64),
) -> Result<RequestRead, TraceError> {
    let mut lines = source.lines();
    let mut read = RequestRead::new(TraceFormat::Mooncake, Clock::TraceSeconds);
    let mut clock: Option<Clock> = None;
    while let Some((line, text)) = lines.next() {
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            read.lines_skipped += 1;
            continue;
        }
        if read.records_read.is_multiple_of(PROGRESS_EVERY) {
            progress(lines.share());
        }
        read.records_read += 1;
        let parsed = (|| {
            let row: MooncakeRow = serde_json::from_str(text)
                .map_err(|e| format!("not a Mooncake record: {}", json_reason(&e)))?;
            let ms = row.timestamp;
            if !ms.is_finite() || !(0.0..=LAST_MS).contains(&ms) {
                return Err(format!(
                    "timestamp {ms} is not a time (milliseconds from 0 to the end of year 9999)"
                ));
            }
            let this = if ms >= EPOCH_MS_FROM {
                Clock::Absolute
            } else {
                Clock::TraceSeconds
            };
            if *clock.get_or_insert(this) != this {
                return Err(format!(
                    "timestamp {ms} counts from {} where the trace's first counts from {}",
                    clock_words(this),
                    clock_words(clock.unwrap_or(this))
                ));
            }
            Ok(Request {
                at_s: ms / 1000.0,
                input: tokens(row.input_length, "input_length")?,
                output: tokens(row.output_length, "output_length")?,
            })
        })();
        push(&mut read, line, parsed)?;
    }
    if let Some((line, e)) = lines.take_error() {
        return Err(TraceError::Unreadable {
            line,
            reason: e.to_string(),
        });
    }
    read.clock = clock.unwrap_or(Clock::TraceSeconds);
    Ok(read)
}

/// A record read, or skipped with why; more than [`TRACE_REQUESTS_MAX`] is refused.
fn push(
    read: &mut RequestRead,
    line: u64,
    parsed: Result<Request, String>,
) -> Result<(), TraceError> {
    match parsed {
        Ok(request) => {
            if read.requests.len() >= TRACE_REQUESTS_MAX {
                return Err(TraceError::TooManyRequests);
            }
            read.requests.push(request);
        }
        Err(reason) => read.bad_rows.push(BadRow { line, reason }),
    }
    Ok(())
}

fn clock_words(clock: Clock) -> &'static str {
    match clock {
        Clock::Absolute => "1970 (milliseconds since the Unix epoch)",
        Clock::TraceSeconds => "the trace's start",
    }
}

/// serde_json's reason without its "at line 1 column N" (the line is the file's, said apart).
fn json_reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.find(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

fn short(text: &str) -> String {
    crate::shorten(40, text)
}
