//! Job histories as CSV tables with named columns: exports from a scheduler or a Kubernetes
//! cluster, and public GPU traces whose times are seconds from the trace's start (the openb
//! pod list: `creation_time`, `scheduled_time`, `deletion_time`, `num_gpu`, `gpu_milli`).
//! A start column is a start, never a submission: a file with starts only has no queue wait.

use super::clock::{clock_of_number, number_at, read_time, Clock, Instant, TimeCell};
use super::record::{count_state, JobRecord, Outcome};
use super::source::Source;
use super::{BadRow, HistoryError, ImportOptions, Read, SourceFormat};
use gpucost_model::model::scenario::{limits, HOUR_S};
use serde::{Deserialize, Serialize};

/// What a column holds, for `--column ROLE=NAME`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// Submission time.
    Submit,
    /// Start time.
    Start,
    /// End time.
    End,
    /// Run time in seconds.
    DurationSeconds,
    /// Run time in minutes.
    DurationMinutes,
    /// Run time in hours.
    DurationHours,
    /// Run time as `[D-]HH:MM:SS`.
    DurationClock,
    /// Whole GPUs.
    Gpus,
    /// Thousandths of one GPU (a GPU-sharing request).
    GpuMilli,
    /// CPUs (mapped to GPUs when there is no GPU column).
    Cpus,
    /// GPU model.
    GpuModel,
    /// Outcome or state.
    Outcome,
    /// Team, account, user or namespace.
    Team,
}

/// Every role with the header names read as it (case, spaces and dashes ignored), in the
/// order they are tried; the first name is the one `--column` takes.
pub const ROLES: &[(Role, &[&str])] = &[
    (
        Role::Submit,
        &[
            "submit",
            "submit_time",
            "submitted",
            "submitted_at",
            "submission_time",
            "created",
            "created_at",
            "creation_time",
            "queued_at",
        ],
    ),
    (
        Role::Start,
        &[
            "start",
            "start_time",
            "started",
            "started_at",
            "scheduled_time",
            "begin",
            "begin_time",
        ],
    ),
    (
        Role::End,
        &[
            "end",
            "end_time",
            "ended",
            "ended_at",
            "finished",
            "finished_at",
            "completion_time",
            "deletion_time",
        ],
    ),
    (
        Role::DurationSeconds,
        &[
            "duration_s",
            "duration_seconds",
            "elapsed_s",
            "elapsed_seconds",
            "elapsedraw",
            "runtime_s",
            "runtime_seconds",
            "run_time_s",
        ],
    ),
    (
        Role::DurationMinutes,
        &["duration_min", "duration_minutes", "runtime_min"],
    ),
    (
        Role::DurationHours,
        &["duration_h", "duration_hours", "runtime_h", "runtime_hours"],
    ),
    (Role::DurationClock, &["duration", "elapsed", "runtime"]),
    (
        Role::Gpus,
        &[
            "gpus",
            "gpu_count",
            "num_gpu",
            "num_gpus",
            "gpus_per_job",
            "n_gpus",
            "gpu_num",
            "gpu_request",
            "gpu_requested",
            "requested_gpus",
            "num_gpus_requested",
        ],
    ),
    (Role::GpuMilli, &["gpu_milli"]),
    (
        Role::Cpus,
        &[
            "cpus",
            "ncpus",
            "num_cpus",
            "cpu_count",
            "alloccpus",
            "reqcpus",
        ],
    ),
    (Role::GpuModel, &["gpu_model", "gpu_type", "gpu"]),
    (
        Role::Outcome,
        &["outcome", "status", "state", "result", "pod_phase", "phase"],
    ),
    (
        Role::Team,
        &[
            "team",
            "account",
            "user",
            "namespace",
            "user_name",
            "username",
        ],
    ),
];

/// The role a `--column` name stands for (its first accepted header name, or a short form).
pub fn role_named(name: &str) -> Option<Role> {
    let name = name.trim().to_ascii_lowercase();
    ROLES
        .iter()
        .find(|(_, names)| names[0] == name)
        .map(|(r, _)| *r)
}

fn key(h: &str) -> String {
    h.trim()
        .trim_start_matches('\u{feff}')
        .to_ascii_lowercase()
        .replace([' ', '-'], "_")
}

struct Columns {
    at: Vec<(Role, usize)>,
}

impl Columns {
    fn find(header: &csv::StringRecord, options: &ImportOptions) -> Result<Columns, HistoryError> {
        let names: Vec<String> = header.iter().map(key).collect();
        let mut at: Vec<(Role, usize)> = Vec::new();
        for (role, name) in &options.columns {
            let i = names.iter().position(|n| *n == key(name)).ok_or_else(|| {
                HistoryError::NoSuchColumn {
                    name: super::shorten(40, name),
                    header: header.iter().map(|h| super::shorten(40, h)).collect(),
                }
            })?;
            at.retain(|(r, _)| r != role);
            at.push((*role, i));
        }
        for (role, accepted) in ROLES {
            if at.iter().any(|(r, _)| r == role) {
                continue;
            }
            // The duration is one column: the first unit found.
            let duration_given = is_duration(*role) && at.iter().any(|(r, _)| is_duration(*r));
            if duration_given {
                continue;
            }
            let taken = |i: usize| at.iter().any(|&(_, j)| j == i);
            if let Some(i) = names
                .iter()
                .enumerate()
                .position(|(i, n)| accepted.contains(&n.as_str()) && !taken(i))
            {
                at.push((*role, i));
            }
        }
        let columns = Columns { at };
        if columns.get(Role::Submit).is_none() && columns.get(Role::Start).is_none() {
            return Err(missing(
                "submit (or start) time",
                &[Role::Submit, Role::Start],
            ));
        }
        let has_duration = columns.at.iter().any(|(r, _)| is_duration(*r));
        if !has_duration && (columns.get(Role::Start).is_none() || columns.get(Role::End).is_none())
        {
            return Err(missing(
                "duration (or start and end)",
                &[
                    Role::DurationSeconds,
                    Role::DurationMinutes,
                    Role::DurationHours,
                    Role::DurationClock,
                    Role::Start,
                    Role::End,
                ],
            ));
        }
        if columns.get(Role::Gpus).is_none() && columns.get(Role::Cpus).is_none() {
            return Err(missing("GPU count", &[Role::Gpus, Role::Cpus]));
        }
        Ok(columns)
    }

    fn get(&self, role: Role) -> Option<usize> {
        self.at.iter().find(|(r, _)| *r == role).map(|&(_, i)| i)
    }

    fn duration(&self) -> Option<(Role, usize)> {
        self.at.iter().copied().find(|(r, _)| is_duration(*r))
    }
}

fn is_duration(role: Role) -> bool {
    matches!(
        role,
        Role::DurationSeconds | Role::DurationMinutes | Role::DurationHours | Role::DurationClock
    )
}

fn missing(what: &'static str, roles: &[Role]) -> HistoryError {
    HistoryError::MissingColumn {
        what,
        accepted: ROLES
            .iter()
            .filter(|(r, _)| roles.contains(r))
            .flat_map(|(_, names)| names.iter().copied())
            .collect(),
        role: ROLES
            .iter()
            .find(|(r, _)| roles.first() == Some(r))
            .map_or("", |(_, names)| names[0]),
    }
}

/// A CSV reader as every table here is read: rows of any length, `#` comment lines, cells
/// trimmed.
pub(crate) fn csv_reader<R: std::io::Read>(bytes: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(bytes)
}

/// The header row, or `None` when there is none (nothing, or only empty names).
pub(crate) fn header_of<R: std::io::Read>(
    reader: &mut csv::Reader<R>,
) -> Option<csv::StringRecord> {
    match reader.headers() {
        Ok(h) if h.iter().any(|f| !f.is_empty()) => Some(h.clone()),
        _ => None,
    }
}

/// A record as read: `Ok(Some(record))`; `Ok(None)` for one that is not readable as CSV,
/// counted and skipped by line in `bad_rows`; `Err((line, why))` when the stream itself
/// failed.
pub(crate) fn record_or_skip(
    record: csv::Result<csv::StringRecord>,
    bad_rows: &mut Vec<BadRow>,
    records_read: &mut usize,
) -> Result<Option<csv::StringRecord>, (u64, String)> {
    match record {
        Ok(r) => Ok(Some(r)),
        Err(e) => {
            let line = e.position().map_or(0, |p| p.line());
            if let csv::ErrorKind::Io(io) = e.kind() {
                return Err((line, io.to_string()));
            }
            *records_read += 1;
            bad_rows.push(BadRow {
                line,
                reason: "not readable as CSV".to_string(),
            });
            Ok(None)
        }
    }
}

/// Reads a CSV history (BOM already removed).
pub fn read(
    source: Source,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<Read, HistoryError> {
    let (bytes, total) = source.bytes();
    let mut reader = csv_reader(bytes);
    let header = header_of(&mut reader).ok_or(HistoryError::Empty)?;
    let columns = Columns::find(&header, options)?;
    let mut read = Read::new(SourceFormat::Csv, Clock::Absolute);
    let offset = options.utc_offset_s;
    let mut clock: Option<Clock> = None;
    let mut states = Vec::new();
    let mut gpu_rows: Vec<(JobRecord, Option<u32>, Option<u32>, String)> = Vec::new();
    for record in reader.records() {
        let record = match record_or_skip(record, &mut read.bad_rows, &mut read.records_read) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err((line, reason)) => return Err(HistoryError::Unreadable { line, reason }),
        };
        let line = record.position().map_or(0, |p| p.line());
        if read.records_read.is_multiple_of(super::PROGRESS_EVERY) {
            let byte = record.position().map_or(0, |p| p.byte());
            progress(byte as f64 / total.max(1) as f64);
        }
        if record.len() == 1 && record[0].is_empty() {
            read.lines_skipped += 1;
            continue;
        }
        read.records_read += 1;
        if record.len() != header.len() {
            read.bad_rows.push(BadRow {
                line,
                reason: format!(
                    "{} field(s) where the header has {}",
                    record.len(),
                    header.len()
                ),
            });
            continue;
        }
        match read_row(&record, &columns, line, offset, &mut clock) {
            Ok(row) => {
                if gpu_rows.len() >= limits::HISTORY_JOBS_MAX {
                    return Err(HistoryError::TooManyJobs);
                }
                gpu_rows.push(row);
            }
            Err(reason) => read.bad_rows.push(BadRow { line, reason }),
        }
    }
    read.clock = clock.unwrap_or(Clock::Absolute);
    let cpus_per_gpu = options.cpus_per_gpu.unwrap_or(super::DEFAULT_CPUS_PER_GPU);
    if columns.get(Role::Gpus).is_none() {
        read.gpus_from_cpus = Some(cpus_per_gpu);
    }
    let mut cpu_only = Vec::new();
    for (mut record, gpus, cpus, written) in gpu_rows {
        let gpus = match (gpus, cpus) {
            (Some(g), _) => g,
            (None, Some(c)) if read.gpus_from_cpus.is_some() => c.div_ceil(cpus_per_gpu),
            _ => 0,
        };
        if gpus == 0 {
            cpu_only.push(record.line);
            continue;
        }
        if gpus > limits::GPUS_PER_JOB_MAX {
            read.bad_rows.push(BadRow {
                line: record.line,
                reason: format!("GPU count {gpus} is above {}", limits::GPUS_PER_JOB_MAX),
            });
            continue;
        }
        record.gpus = gpus;
        count_state(&mut states, &written, record.outcome);
        read.records.push(record);
    }
    let gpu_jobs = read.records.len();
    super::skip_cpu_jobs(
        &mut read,
        cpu_only,
        gpu_jobs,
        "requests no GPU (a CPU-only job)",
    );
    read.bad_rows.sort_by_key(|b| b.line);
    read.states = states;
    count_still_running(&mut read);
    if columns.get(Role::Submit).is_none() {
        read.notes.push(
            "No submit-time column: start times are used as arrivals, so the queue wait the \
             jobs had is unknown."
                .to_string(),
        );
    }
    Ok(read)
}

type Row = (JobRecord, Option<u32>, Option<u32>, String);

/// Jobs that started and have no end (empty, `NaN`): still running when the trace ends, the
/// last time it holds (a submission, a start or an end). They count with their run time up to
/// then, a lower bound, and a note says how many and their GPU-hours; one that started at that
/// very second has run none, and is counted with those that never started.
fn count_still_running(read: &mut Read) {
    let censored = |r: &JobRecord| r.outcome == Outcome::StillRunning && r.run_s.is_none();
    if !read.records.iter().any(censored) {
        return;
    }
    let end = read
        .records
        .iter()
        .flat_map(|r| {
            let ended = match (r.start, r.run_s) {
                (Some(s), Some(run)) => Some(s.s + run.ceil() as i64),
                _ => None,
            };
            [r.submit.map(|t| t.s), r.start.map(|t| t.s), ended]
        })
        .flatten()
        .max()
        .unwrap_or(0);
    let (mut jobs, mut gpu_hours) = (0usize, 0.0);
    for r in read.records.iter_mut().filter(|r| censored(r)) {
        let ran = r.start.map_or(0, |s| end - s.s);
        if ran > 0 {
            r.run_s = Some(ran as f64);
            jobs += 1;
            gpu_hours +=
                ran as f64 / 3_600.0 * r.gpu_share.unwrap_or(1.0) * f64::from(r.gpus.max(1));
        } else {
            r.outcome = Outcome::NeverStarted;
        }
    }
    if jobs > 0 {
        read.notes.push(format!(
            "{jobs} job(s) started and have no end: still running when the history ends (its \
             last time), they count with their run time up to then, a lower bound ({} \
             GPU-hours).",
            trim_hours(gpu_hours)
        ));
    }
}

/// GPU-hours to three significant figures, as a note gives them.
fn trim_hours(hours: f64) -> String {
    if hours >= 100.0 {
        format!("{:.0}", hours)
    } else if hours >= 10.0 {
        format!("{:.1}", hours)
    } else {
        format!("{:.2}", hours)
    }
}

fn read_row(
    record: &csv::StringRecord,
    columns: &Columns,
    line: u64,
    offset: i64,
    clock: &mut Option<Clock>,
) -> Result<Row, String> {
    let cell = |role: Role| columns.get(role).map(|i| record[i].trim()).unwrap_or("");
    let mut time = |role: Role, what: &str| -> Result<Option<Instant>, String> {
        let text = cell(role);
        let bad = || {
            format!(
                "{what} \"{}\" is not a date-time or seconds",
                super::shorten(40, text)
            )
        };
        match read_time(text, offset).ok_or_else(bad)? {
            TimeCell::Unknown => Ok(None),
            TimeCell::DateTime(t) => match clock {
                Some(Clock::TraceSeconds) => Err(format!(
                    "{what} \"{}\" is a date-time, but this file's times are seconds from the trace's start",
                    super::shorten(40, text)
                )),
                _ => {
                    *clock = Some(Clock::Absolute);
                    Ok(Some(t))
                }
            },
            TimeCell::Number(n) => {
                let c = match *clock {
                    Some(c) => c,
                    None => {
                        let c = clock_of_number(n).ok_or_else(bad)?;
                        *clock = Some(c);
                        c
                    }
                };
                number_at(n, c, offset).map(Some).ok_or_else(|| match c {
                    Clock::TraceSeconds => format!(
                        "{what} {n} is not seconds from the trace's start like the rows before it"
                    ),
                    Clock::Absolute => format!("{what} {n} is not a Unix time like the rows before it"),
                })
            }
        }
    };
    let submit = time(Role::Submit, "submit time")?;
    let start = time(Role::Start, "start time")?;
    let end = time(Role::End, "end time")?;
    let (written, mut outcome) = match columns.get(Role::Outcome) {
        Some(_) => {
            let text = cell(Role::Outcome);
            parse_outcome(text).ok_or_else(|| {
                format!(
                    "outcome \"{}\" is not one this importer knows (completed, failed, cancelled, running, pending…)",
                    super::shorten(40, text)
                )
            })?
        }
        None => ("(none)".to_string(), Outcome::Unknown),
    };
    let has_start_column = columns.get(Role::Start).is_some();
    if has_start_column && start.is_none() {
        outcome = Outcome::NeverStarted;
    }
    let run_s = if outcome == Outcome::NeverStarted {
        None
    } else if let Some((role, _)) = columns.duration() {
        let text = cell(role);
        let seconds = parse_duration(text, role).ok_or_else(|| {
            format!(
                "duration \"{}\" is not a duration",
                super::shorten(40, text)
            )
        })?;
        Some(seconds)
    } else {
        match (start, end) {
            (Some(s), Some(e)) if e.s >= s.s => Some((e.s - s.s) as f64),
            (Some(_), Some(_)) => return Err("ends before it starts".to_string()),
            // Still running when the trace ends: its run time so far, from the trace's last
            // time ([`count_still_running`]); unless its state says it ended.
            (Some(_), None) => match outcome {
                Outcome::Unknown | Outcome::StillRunning => {
                    outcome = Outcome::StillRunning;
                    None
                }
                _ => return Err("ended, but has no end time".to_string()),
            },
            _ => None,
        }
    };
    if let Some(s) = run_s {
        if s <= 0.0 && outcome != Outcome::NeverStarted {
            return Err("duration must be above 0".to_string());
        }
        if s > 366.0 * 24.0 * HOUR_S {
            return Err("duration is longer than a year".to_string());
        }
    }
    if submit.is_none() && start.is_none() {
        return Err("no submit or start time".to_string());
    }
    let count = |role: Role, what: &str| -> Result<Option<u32>, String> {
        if columns.get(role).is_none() {
            return Ok(None);
        }
        let text = cell(role);
        text.parse::<u32>().map(Some).map_err(|_| {
            format!(
                "{what} \"{}\" is not a whole number",
                super::shorten(40, text)
            )
        })
    };
    let gpus = count(Role::Gpus, "GPU count")?;
    let cpus = count(Role::Cpus, "CPU count").ok().flatten();
    let gpu_share = match (gpus, columns.get(Role::GpuMilli)) {
        (Some(1), Some(_)) => {
            let text = cell(Role::GpuMilli);
            let milli: f64 = text.parse().map_err(|_| {
                format!("gpu_milli \"{}\" is not a number", super::shorten(40, text))
            })?;
            (milli > 0.0 && milli < 1000.0).then_some(milli / 1000.0)
        }
        _ => None,
    };
    let model = Some(cell(Role::GpuModel))
        .filter(|m| !m.is_empty())
        .map(|m| super::shorten(40, m));
    let team = Some(cell(Role::Team))
        .filter(|t| !t.is_empty())
        .map(|t| super::shorten(64, t));
    Ok((
        JobRecord {
            line,
            submit,
            start,
            run_s,
            gpus: 0,
            gpu_share,
            gpu_model: model,
            outcome,
            team,
        },
        gpus,
        cpus,
        written,
    ))
}

/// Seconds in a duration cell of a column with role `role`.
fn parse_duration(text: &str, role: Role) -> Option<f64> {
    let number = || text.parse::<f64>().ok().filter(|v| v.is_finite());
    match role {
        Role::DurationSeconds => number(),
        Role::DurationMinutes => number().map(|m| m * 60.0),
        Role::DurationHours => number().map(|h| h * HOUR_S),
        _ => super::clock::parse_elapsed(text),
    }
}

/// An outcome word (a Slurm state, a Kubernetes pod phase or a plain word), with the name it
/// is counted under.
fn parse_outcome(text: &str) -> Option<(String, Outcome)> {
    if let Some((written, outcome)) = super::sacct::slurm_state(text) {
        let written = if written.starts_with("CANCELLED by") || text.trim().is_empty() {
            written
        } else {
            text.trim().to_string()
        };
        return Some((written, outcome));
    }
    let word = text.trim().to_ascii_lowercase().replace([' ', '-'], "_");
    let outcome = match word.as_str() {
        "unknown" => Outcome::Unknown,
        "complete" | "succeeded" | "success" | "successful" | "ok" | "done" | "finished" => {
            Outcome::Succeeded
        }
        "failure" | "fail" | "error" | "oom" | "evicted" | "crashed" => Outcome::Failed,
        "timed_out" | "timeout" | "time_limit" => Outcome::TimedOut,
        "canceled" | "killed" | "stopped" | "terminated" => Outcome::Cancelled,
        "running" | "started" => Outcome::StillRunning,
        "pending" | "queued" | "waiting" => Outcome::NeverStarted,
        _ => return None,
    };
    let written = text.trim();
    Some((written.to_string(), outcome))
}

/// The header and up to `rows` first data rows of a CSV, for a mapping form's preview
/// (`None` when there is no header).
pub fn preview(text: &str, rows: usize) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .ok()?
        .iter()
        .map(|h| super::shorten(40, h))
        .collect();
    if header.iter().all(String::is_empty) {
        return None;
    }
    let body = reader
        .records()
        .filter_map(Result::ok)
        .take(rows)
        .map(|r| r.iter().map(|c| super::shorten(40, c)).collect())
        .collect();
    Some((header, body))
}

/// The roles a mapping form offers, with a label each.
pub const MAPPED_ROLES: &[(Role, &str)] = &[
    (Role::Submit, "Submit time"),
    (Role::Start, "Start time"),
    (Role::End, "End time"),
    (Role::DurationSeconds, "Duration, seconds"),
    (Role::DurationMinutes, "Duration, minutes"),
    (Role::DurationHours, "Duration, hours"),
    (Role::DurationClock, "Duration, [D-]HH:MM:SS"),
    (Role::Gpus, "GPUs"),
    (Role::GpuMilli, "Share of one GPU, milli"),
    (Role::Cpus, "CPUs (when there is no GPU column)"),
    (Role::GpuModel, "GPU model"),
    (Role::Outcome, "Outcome or state"),
    (Role::Team, "Team, account or user"),
];
