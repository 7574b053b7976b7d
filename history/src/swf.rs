//! The Standard Workload Format of the Parallel Workloads Archive (`.swf`): one job per line,
//! 18 whitespace-separated numbers (−1 where unknown), after `;` header comments such as
//! `; UnixStartTime: 1104566400` and `; TimeZone: 7200`. Times are seconds from the log's
//! start; SWF counts processors, not GPUs, so they map to GPUs at `cpus_per_gpu`.

use super::clock::{parse_utc_offset, unix_instant, Clock, Instant};
use super::record::{count_state, JobRecord, Outcome};
use super::source::Source;
use super::{BadRow, HistoryError, ImportOptions, Read, SourceFormat};
use gpucost_model::model::scenario::limits;

/// Whether `line` is an SWF job line: 18 whitespace-separated numbers.
pub fn is_job_line(line: &str) -> bool {
    let fields: Vec<&str> = line.split_whitespace().collect();
    fields.len() == 18 && fields.iter().all(|f| f.parse::<f64>().is_ok())
}

/// Reads SWF text (BOM already removed).
pub fn read(
    source: Source,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<Read, HistoryError> {
    let mut unix_start: Option<i64> = None;
    let mut zone_s: Option<i64> = None;
    let mut zone_name: Option<String> = None;
    let mut lines = source.lines();
    // The header: the comments and blank lines before the first job, held to be counted.
    let mut header = Vec::new();
    let mut first_job = None;
    for (n, line) in lines.by_ref() {
        let t = line.trim();
        if !(t.is_empty() || t.starts_with(';')) {
            first_job = Some((n, line));
            break;
        }
        header.push((n, line));
    }
    for (_, line) in &header {
        let Some(comment) = line.trim_start().strip_prefix(';') else {
            continue;
        };
        let Some((key, value)) = comment.split_once(':') else {
            continue;
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "unixstarttime" => unix_start = value.trim().parse().ok(),
            "timezone" => zone_s = value.trim().parse().ok(),
            "timezonestring" => zone_name = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let clock = if unix_start.is_some() {
        Clock::Absolute
    } else {
        Clock::TraceSeconds
    };
    let mut read = Read::new(SourceFormat::Swf, clock);
    // The zone the hours of day are counted in, and where it came from (`None`: a note
    // says so already).
    let (offset, from) = match (zone_s, &zone_name) {
        (Some(z), _) => (z, Some("the log's TimeZone".to_string())),
        (None, Some(name)) => match parse_utc_offset(name) {
            Some(z) => (
                z,
                Some(format!(
                    "the log's TimeZoneString, {}",
                    super::shorten(40, name)
                )),
            ),
            None => {
                read.notes.push(format!(
                    "The log's time zone is {}; hours of day are counted at UTC{} (--tz).",
                    super::shorten(40, name),
                    super::format_offset(options.utc_offset_s)
                ));
                (options.utc_offset_s, None)
            }
        },
        (None, None) if options.utc_offset_s != 0 => {
            (options.utc_offset_s, Some("--tz".to_string()))
        }
        (None, None) => (
            0,
            Some("none is given: the log has no TimeZone, and --tz is not set".to_string()),
        ),
    };
    if let (Some(_), Some(from)) = (unix_start, from) {
        read.notes.push(format!(
            "Hours of day are counted at UTC{} ({from}).",
            super::format_offset(offset)
        ));
    }
    let cpus_per_gpu = options.cpus_per_gpu.unwrap_or(super::DEFAULT_CPUS_PER_GPU);
    read.gpus_from_cpus = Some(cpus_per_gpu);
    let at = |s: f64| -> Instant {
        match unix_start {
            Some(u) => unix_instant(u + s.floor() as i64, offset),
            None => Instant {
                s: s.floor() as i64,
                hour: None,
                weekday: None,
            },
        }
    };
    let mut states = Vec::new();
    let mut held = header.into_iter().chain(first_job);
    while let Some((line, raw)) = held.next().or_else(|| lines.next()) {
        if (line as usize).is_multiple_of(super::PROGRESS_EVERY) {
            progress(lines.share());
        }
        let t = raw.trim();
        if t.is_empty() || t.starts_with(';') {
            read.lines_skipped += 1;
            continue;
        }
        read.records_read += 1;
        let fields: Vec<&str> = t.split_whitespace().collect();
        if fields.len() != 18 {
            read.bad_rows.push(BadRow {
                line,
                reason: format!("{} field(s) where SWF has 18", fields.len()),
            });
            continue;
        }
        let Some(v) = fields
            .iter()
            .map(|f| f.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
        else {
            read.bad_rows.push(BadRow {
                line,
                reason: "a field is not a (finite) number".to_string(),
            });
            continue;
        };
        let (submit, wait, run, procs, req_procs, status, user) =
            (v[1], v[2], v[3], v[4], v[7], v[10], v[11]);
        if submit < 0.0 {
            read.bad_rows.push(BadRow {
                line,
                reason: "submit time unknown (−1)".to_string(),
            });
            continue;
        }
        let (written, mut outcome) = match status as i64 {
            1 => ("1 completed", Outcome::Succeeded),
            0 => ("0 failed", Outcome::Failed),
            5 => ("5 cancelled", Outcome::Cancelled),
            2 => ("2 partial, continued", Outcome::Interrupted),
            3 => ("3 last partial, completed", Outcome::Succeeded),
            4 => ("4 last partial, failed", Outcome::Failed),
            _ => ("−1 unknown", Outcome::Unknown),
        };
        let run_s = if run >= 0.0 { Some(run) } else { None };
        if run_s.is_none() {
            if outcome == Outcome::Cancelled {
                outcome = Outcome::NeverStarted;
            } else {
                read.bad_rows.push(BadRow {
                    line,
                    reason: "run time unknown (−1)".to_string(),
                });
                continue;
            }
        }
        if run_s == Some(0.0) && outcome != Outcome::NeverStarted {
            read.bad_rows.push(BadRow {
                line,
                reason: "run time 0".to_string(),
            });
            continue;
        }
        let cpus = if procs > 0.0 { procs } else { req_procs };
        if cpus <= 0.0 {
            read.bad_rows.push(BadRow {
                line,
                reason: "no processor count".to_string(),
            });
            continue;
        }
        let gpus = (cpus as u32).div_ceil(cpus_per_gpu);
        if gpus > limits::GPUS_PER_JOB_MAX {
            read.bad_rows.push(BadRow {
                line,
                reason: format!("{gpus} GPUs, more than {}", limits::GPUS_PER_JOB_MAX),
            });
            continue;
        }
        if read.records.len() >= limits::HISTORY_JOBS_MAX {
            return Err(HistoryError::TooManyJobs);
        }
        count_state(&mut states, written, outcome);
        read.records.push(JobRecord {
            line,
            submit: Some(at(submit)),
            start: (wait >= 0.0 && outcome != Outcome::NeverStarted).then(|| at(submit + wait)),
            run_s: run_s.filter(|_| outcome != Outcome::NeverStarted),
            gpus,
            gpu_share: None,
            gpu_model: None,
            outcome,
            team: (user >= 0.0).then(|| format!("user {}", user as i64)),
        });
    }
    super::stream_error(&mut lines)?;
    read.states = states;
    if unix_start.is_none() {
        read.notes.push(
            "The log has no UnixStartTime: its times are seconds from its start, with no clock time."
                .to_string(),
        );
    }
    Ok(read)
}
