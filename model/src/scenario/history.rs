//! Job-history import: a CSV of past jobs (one row per job: submit time, duration, GPUs, and
//! optionally GPU model and outcome) becomes fitted job classes — one class per GPU count, a
//! Poisson arrival rate following the history's hour-of-day profile, a log-normal duration
//! fitted on its median and 90th percentile, and the share of failed runs — with a summary of
//! how well each fit matches the data. Rows that cannot be read are reported by line number
//! and skipped; nothing is dropped silently.
//!
//! Accepted columns (header names, case and spaces ignored):
//! - submit time: `submit`, `submit_time`, `submitted`, `submitted_at`, `created`,
//!   `created_at`, `start`, `start_time` — `YYYY-MM-DD HH:MM[:SS[.fff]]` (a `T` or space
//!   between, optional `Z` or `±HH:MM`; hours are taken as written) or Unix seconds or
//!   milliseconds;
//! - duration: `duration_s`/`elapsed_s`/`runtime_s` (seconds), `duration_min` (minutes),
//!   `duration_h`/`duration_hours` (hours), or `duration`/`elapsed` as `[D-]HH:MM:SS`
//!   (Slurm's Elapsed);
//! - GPUs: `gpus`, `gpu_count`, `num_gpus`, `gpus_per_job`;
//! - optional GPU model: `gpu_model`, `gpu_type`, `gpu` — durations on a known model are
//!   converted to the scenario's reference GPU with the catalog's relative throughput;
//! - optional outcome: `outcome`, `status`, `state` — completed/succeeded/success/ok,
//!   failed/error/oom/node_fail/timeout, or cancelled (counted as an arrival, not a failure).

use super::shorten;
use crate::model::catalog::relative_throughput_vs_a100;
use crate::model::error::ScenarioError;
use crate::model::scenario::{
    limits, Arrivals, Duration, FailureKind, Failures, JobClass, Scenario, DAY_S, HOUR_S,
};
use crate::model::stats::quantile_sorted;
use std::fmt;

/// Largest history read, bytes.
pub const MAX_HISTORY_BYTES: usize = 64 * 1024 * 1024;
/// Most data rows read.
pub const MAX_HISTORY_ROWS: usize = 1_000_000;

const SUBMIT: &[&str] = &[
    "submit",
    "submit_time",
    "submitted",
    "submitted_at",
    "created",
    "created_at",
    "start",
    "start_time",
];
const DURATION_S: &[&str] = &[
    "duration_s",
    "duration_seconds",
    "elapsed_s",
    "elapsed_seconds",
    "runtime_s",
    "runtime_seconds",
];
const DURATION_MIN: &[&str] = &["duration_min", "duration_minutes", "runtime_min"];
const DURATION_H: &[&str] = &["duration_h", "duration_hours", "runtime_h", "runtime_hours"];
const DURATION_CLOCK: &[&str] = &["duration", "elapsed", "runtime"];
const GPUS: &[&str] = &["gpus", "gpu_count", "num_gpus", "gpus_per_job", "n_gpus"];
const GPU_MODEL: &[&str] = &["gpu_model", "gpu_type", "gpu"];
const OUTCOME: &[&str] = &["outcome", "status", "state", "result"];

/// GPU models the catalog knows, matched in this order (so `L40S` is not read as `L4`).
const KNOWN_GPUS: &[&str] = &["H200", "H100", "A100", "L40S", "A10G", "V100", "T4", "L4"];

/// A row that was skipped, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct BadRow {
    /// Line of the file where the row starts (1 = the header).
    pub line: u64,
    /// What is wrong with it.
    pub reason: String,
}

/// How one fitted class matches its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassFit {
    /// The class's name.
    pub name: String,
    /// GPUs per job.
    pub gpus_per_job: u32,
    /// Rows in this class.
    pub jobs: usize,
    /// Fitted mean jobs per day.
    pub per_day: f64,
    /// Median duration in the data, reference-GPU hours.
    pub median_hours: f64,
    /// 90th percentile in the data, reference-GPU hours.
    pub p90_hours: f64,
    /// Mean duration in the data, reference-GPU hours.
    pub observed_mean_hours: f64,
    /// Mean of the fitted distribution, hours.
    pub fitted_mean_hours: f64,
    /// Kolmogorov–Smirnov distance between the data and the fitted distribution (0–1; below
    /// ~0.1 is a close fit).
    pub ks_distance: f64,
    /// Rows with a known outcome (succeeded or failed).
    pub with_outcome: usize,
    /// Of those, failed.
    pub failed: usize,
}

/// Fitted job classes and the fit summary.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryFit {
    /// The fitted classes, most frequent first.
    pub classes: Vec<JobClass>,
    /// One entry per class, same order.
    pub fits: Vec<ClassFit>,
    /// Data rows in the file (not counting the header and comments).
    pub rows: usize,
    /// Rows used.
    pub used: usize,
    /// Rows skipped, by line.
    pub bad_rows: Vec<BadRow>,
    /// Length of the observed window, days.
    pub window_days: f64,
    /// Share of the jobs submitted in each hour of the day (sums to 1).
    pub hourly_share: Vec<f64>,
    /// GPU models seen and how many rows each.
    pub gpu_models: Vec<(String, usize)>,
    /// Assumptions and adjustments, one sentence each.
    pub notes: Vec<String>,
}

impl HistoryFit {
    /// The fit in plain sentences: what was read, one line per class, then the notes.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Read {} rows: {} used, {} skipped; {:.1} days of submissions.",
            self.rows,
            self.used,
            self.bad_rows.len(),
            self.window_days
        )];
        for f in &self.fits {
            let failures = if f.with_outcome > 0 {
                format!("{} of {} runs failed", f.failed, f.with_outcome)
            } else {
                "no outcomes".to_string()
            };
            lines.push(format!(
                "{}: {} jobs, {:.3}/day; duration median {:.2} h, p90 {:.2} h (mean {:.2} h \
                 observed, {:.2} h fitted; KS distance {:.3}); {failures}.",
                f.name,
                f.jobs,
                f.per_day,
                f.median_hours,
                f.p90_hours,
                f.observed_mean_hours,
                f.fitted_mean_hours,
                f.ks_distance
            ));
        }
        lines.extend(self.notes.iter().cloned());
        lines
    }
}

/// Why no classes could be fitted.
#[derive(Debug, Clone, PartialEq)]
pub enum HistoryError {
    /// The file is larger than [`MAX_HISTORY_BYTES`].
    TooLarge {
        /// Its size, bytes.
        bytes: usize,
    },
    /// No header row.
    Empty,
    /// A required column is missing.
    MissingColumn {
        /// What the column holds.
        what: &'static str,
        /// Header names accepted for it.
        accepted: Vec<&'static str>,
    },
    /// Fewer than two usable rows.
    TooFewJobs {
        /// Rows used.
        used: usize,
        /// Rows skipped, by line.
        bad_rows: Vec<BadRow>,
    },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::TooLarge { bytes } => write!(
                f,
                "the file is {:.1} MB; the importer reads at most {} MB",
                *bytes as f64 / 1e6,
                MAX_HISTORY_BYTES / 1_000_000
            ),
            HistoryError::Empty => write!(f, "the file has no header row"),
            HistoryError::MissingColumn { what, accepted } => {
                write!(f, "no {what} column; name one of: {}", accepted.join(", "))
            }
            HistoryError::TooFewJobs { used, bad_rows } => {
                write!(
                    f,
                    "{used} usable row(s); at least 2 are needed to fit arrivals"
                )?;
                if let Some(first) = bad_rows.first() {
                    write!(
                        f,
                        " ({} skipped; line {}: {})",
                        bad_rows.len(),
                        first.line,
                        first.reason
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for HistoryError {}

/// How the duration column is written.
#[derive(Debug, Clone, Copy)]
enum DurationUnit {
    Seconds,
    Minutes,
    Hours,
    Clock,
}

struct Columns {
    submit: usize,
    duration: (usize, DurationUnit),
    gpus: usize,
    gpu_model: Option<usize>,
    outcome: Option<usize>,
}

impl Columns {
    fn find(header: &csv::StringRecord) -> Result<Columns, HistoryError> {
        let names: Vec<String> = header
            .iter()
            .map(|h| {
                h.trim()
                    .trim_start_matches('\u{feff}')
                    .to_ascii_lowercase()
                    .replace([' ', '-'], "_")
            })
            .collect();
        let position =
            |accepted: &[&str]| names.iter().position(|n| accepted.contains(&n.as_str()));
        let missing = |what, accepted: &[&[&'static str]]| HistoryError::MissingColumn {
            what,
            accepted: accepted.concat(),
        };
        let submit = position(SUBMIT).ok_or_else(|| missing("submit time", &[SUBMIT]))?;
        let duration = [
            (DURATION_S, DurationUnit::Seconds),
            (DURATION_MIN, DurationUnit::Minutes),
            (DURATION_H, DurationUnit::Hours),
            (DURATION_CLOCK, DurationUnit::Clock),
        ]
        .into_iter()
        .find_map(|(accepted, unit)| position(accepted).map(|i| (i, unit)))
        .ok_or_else(|| {
            missing(
                "duration",
                &[DURATION_S, DURATION_MIN, DURATION_H, DURATION_CLOCK],
            )
        })?;
        let gpus = position(GPUS).ok_or_else(|| missing("GPU count", &[GPUS]))?;
        Ok(Columns {
            submit,
            duration,
            gpus,
            gpu_model: position(GPU_MODEL),
            outcome: position(OUTCOME),
        })
    }
}

/// Whether a run succeeded, failed or was cancelled.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    Succeeded,
    Failed,
    Cancelled,
    Unknown,
}

/// One usable row.
struct Row {
    submit_s: i64,
    hour: usize,
    reference_hours: f64,
    gpus: u32,
    outcome: Outcome,
}

/// Why a job history could not become a scenario's workload.
#[derive(Debug, Clone, PartialEq)]
pub enum HistoryImportError {
    /// Nothing could be fitted.
    Fit(HistoryError),
    /// The fitted classes do not fit the scenario (e.g. more GPUs than a platform can have).
    Invalid(ScenarioError),
}

impl fmt::Display for HistoryImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryImportError::Fit(e) => e.fmt(f),
            HistoryImportError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for HistoryImportError {}

/// `scenario` with job classes fitted to the job history `text` as its workload, and the fit.
/// The scenario's first class gives the fields a history does not record, its reference GPU
/// the unit of the durations; the result is validated.
pub fn fit_into(
    scenario: &Scenario,
    text: &str,
) -> Result<(Scenario, HistoryFit), HistoryImportError> {
    let template = scenario.job_classes.first().cloned().unwrap_or_default();
    let fit =
        fit_history(text, &template, &scenario.reference_gpu).map_err(HistoryImportError::Fit)?;
    let next = Scenario {
        job_classes: fit.classes.clone(),
        ..scenario.clone()
    };
    match next.validate() {
        Ok(()) => Ok((next, fit)),
        Err(e) => Err(HistoryImportError::Invalid(e)),
    }
}

/// Fits job classes to a job history. `template` gives the fields a history does not record
/// (memory, data, image, checkpoints, retries); `reference_gpu` is the scenario's reference GPU.
pub fn fit_history(
    text: &str,
    template: &JobClass,
    reference_gpu: &str,
) -> Result<HistoryFit, HistoryError> {
    let ReadHistory {
        rows,
        bad_rows,
        mut models,
        unknown_models,
        record_count,
        has_gpu_model,
        mut notes,
    } = read_history(text, reference_gpu)?;
    if rows.len() < 2 {
        return Err(HistoryError::TooFewJobs {
            used: rows.len(),
            bad_rows,
        });
    }
    let window_days = observed_window_days(&rows, &mut notes);
    let (hourly_share, hourly_weights) = hour_of_day_profile(&rows);
    notes.extend(reading_notes(
        &rows,
        &unknown_models,
        has_gpu_model,
        reference_gpu,
    ));
    let (kept, groups) = group_by_gpu_count(&rows, &mut notes);
    let (classes, fits) = kept
        .iter()
        .zip(&groups)
        .map(|(&gpus, group)| fit_class(gpus, group, template, window_days, &hourly_weights))
        .unzip();
    models.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(HistoryFit {
        classes,
        fits,
        rows: record_count,
        used: rows.len(),
        bad_rows,
        window_days,
        hourly_share,
        gpu_models: models,
        notes,
    })
}

/// What reading a history's rows gave, before any fit.
struct ReadHistory {
    rows: Vec<Row>,
    bad_rows: Vec<BadRow>,
    /// GPU models seen, with how many rows name each.
    models: Vec<(String, usize)>,
    /// Up to ten GPU models the catalog does not know.
    unknown_models: Vec<String>,
    /// Records read (blank lines not counted).
    record_count: usize,
    /// The file has a GPU-model column.
    has_gpu_model: bool,
    notes: Vec<String>,
}

/// Reads the CSV's header and rows (at most [`MAX_HISTORY_ROWS`]); a row that cannot be
/// read is kept as a bad row with its line and why.
fn read_history(text: &str, reference_gpu: &str) -> Result<ReadHistory, HistoryError> {
    if text.len() > MAX_HISTORY_BYTES {
        return Err(HistoryError::TooLarge { bytes: text.len() });
    }
    let text = text.trim_start_matches('\u{feff}');
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header = match reader.headers() {
        Ok(h) if h.iter().any(|f| !f.is_empty()) => h.clone(),
        _ => return Err(HistoryError::Empty),
    };
    let columns = Columns::find(&header)?;
    let mut read = ReadHistory {
        rows: Vec::new(),
        bad_rows: Vec::new(),
        models: Vec::new(),
        unknown_models: Vec::new(),
        record_count: 0,
        has_gpu_model: columns.gpu_model.is_some(),
        notes: Vec::new(),
    };
    for record in reader.records() {
        if read.record_count == MAX_HISTORY_ROWS {
            read.notes.push(format!(
                "Read the first {MAX_HISTORY_ROWS} rows only; the rest of the file was not read."
            ));
            break;
        }
        read.record_count += 1;
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                read.bad_rows.push(BadRow {
                    line,
                    reason: "not readable as CSV".to_string(),
                });
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line());
        if record.len() == 1 && record[0].is_empty() {
            read.record_count -= 1; // a blank line
            continue;
        }
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
        match read_row(&record, &columns, reference_gpu) {
            Ok((row, model)) => {
                if let Some((name, known)) = model {
                    match read.models.iter_mut().find(|(m, _)| *m == name) {
                        Some((_, count)) => *count += 1,
                        None => read.models.push((name.clone(), 1)),
                    }
                    if !known
                        && !read.unknown_models.contains(&name)
                        && read.unknown_models.len() < 10
                    {
                        read.unknown_models.push(name);
                    }
                }
                read.rows.push(row);
            }
            Err(reason) => read.bad_rows.push(BadRow { line, reason }),
        }
    }
    Ok(read)
}

/// The observed window in days: first to last submission, widened by one mean gap (n − 1
/// gaps were seen between n jobs), at least an hour; a note when it is under a week.
fn observed_window_days(rows: &[Row], notes: &mut Vec<String>) -> f64 {
    let first = rows.iter().map(|r| r.submit_s).min().unwrap_or(0);
    let last = rows.iter().map(|r| r.submit_s).max().unwrap_or(0);
    let n = rows.len() as f64;
    let window_s = ((last - first) as f64 * n / (n - 1.0)).max(HOUR_S);
    let window_days = window_s / DAY_S;
    if window_days < 7.0 {
        notes.push(format!(
            "The history covers {:.1} days; rates and the hour-of-day profile are rough below a week.",
            window_days
        ));
    }
    window_days
}

/// Each hour of day's share of the submissions, and the same as weights with mean 1 to
/// three decimals (short in a link, exact enough for a rate).
fn hour_of_day_profile(rows: &[Row]) -> (Vec<f64>, Vec<f64>) {
    let mut per_hour = [0usize; 24];
    for r in rows {
        per_hour[r.hour] += 1;
    }
    let n = rows.len() as f64;
    let hourly_share: Vec<f64> = per_hour.iter().map(|&c| c as f64 / n).collect();
    let hourly_weights: Vec<f64> = hourly_share
        .iter()
        .map(|s| (s * 24.0 * 1000.0).round() / 1000.0)
        .collect();
    (hourly_share, hourly_weights)
}

/// What the fit assumed about hours, GPU models and outcomes.
fn reading_notes(
    rows: &[Row],
    unknown_models: &[String],
    has_gpu_model: bool,
    reference_gpu: &str,
) -> Vec<String> {
    let mut notes = vec![
        "Hours of day are taken as written in the file (UTC for Unix times); every class \
         shares the whole history's hour-of-day profile."
            .to_string(),
    ];
    if !unknown_models.is_empty() {
        notes.push(format!(
            "GPU model(s) {} are not in the catalog: their durations are used as if run on the \
             reference GPU ({reference_gpu}).",
            unknown_models.join(", ")
        ));
    } else if has_gpu_model {
        notes.push(format!(
            "Durations were converted to the reference GPU ({reference_gpu}) with the \
             catalog's relative throughput."
        ));
    }
    if !rows.iter().any(|r| r.outcome != Outcome::Unknown) {
        notes.push(
            "No outcome column (or no known outcome): the failure settings were kept.".to_string(),
        );
    }
    notes
}

/// One class per GPU count, most frequent first; beyond the class limit, the rarest sizes
/// join the kept size nearest on a log scale. The kept counts, and the rows of each.
fn group_by_gpu_count<'a>(
    rows: &'a [Row],
    notes: &mut Vec<String>,
) -> (Vec<u32>, Vec<Vec<&'a Row>>) {
    let mut sizes: Vec<(u32, usize)> = Vec::new();
    for r in rows {
        match sizes.iter_mut().find(|(g, _)| *g == r.gpus) {
            Some((_, c)) => *c += 1,
            None => sizes.push((r.gpus, 1)),
        }
    }
    sizes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let kept: Vec<u32> = sizes
        .iter()
        .take(limits::JOB_CLASSES_MAX)
        .map(|s| s.0)
        .collect();
    if sizes.len() > kept.len() {
        notes.push(format!(
            "{} GPU counts seen; the {} rarest were merged into the nearest of the {} kept \
             (the class limit).",
            sizes.len(),
            sizes.len() - kept.len(),
            kept.len()
        ));
    }
    let class_of = |gpus: u32| -> usize {
        kept.iter()
            .position(|&g| g == gpus)
            .unwrap_or_else(|| nearest_on_log_scale(&kept, gpus))
    };
    let mut groups: Vec<Vec<&Row>> = vec![Vec::new(); kept.len()];
    for r in rows {
        groups[class_of(r.gpus)].push(r);
    }
    (kept, groups)
}

/// The job class of the `gpus`-GPU jobs in `group`: a log-normal duration through their
/// median and 90th percentile (fixed when they agree), the failed share of the runs with a
/// known outcome as transient failures, and their rate over the window by hour of day.
fn fit_class(
    gpus: u32,
    group: &[&Row],
    template: &JobClass,
    window_days: f64,
    hourly_weights: &[f64],
) -> (JobClass, ClassFit) {
    let mut hours: Vec<f64> = group.iter().map(|r| r.reference_hours).collect();
    hours.sort_by(f64::total_cmp);
    let median = round_significant(quantile_sorted(&hours, 0.5), 4);
    let p90 = round_significant(quantile_sorted(&hours, 0.9), 4);
    let duration = if p90 > median {
        Duration::LogNormal {
            median_hours: median,
            p90_hours: p90,
        }
    } else {
        Duration::Fixed { hours: median }
    };
    let with_outcome = group
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Succeeded | Outcome::Failed))
        .count();
    let failed = group
        .iter()
        .filter(|r| r.outcome == Outcome::Failed)
        .count();
    let failures = if with_outcome > 0 {
        Failures {
            probability: round_significant(failed as f64 / with_outcome as f64, 3),
            kind: FailureKind::Transient,
            max_retries: template.failures.max_retries,
            at_share: template.failures.at_share,
        }
    } else {
        template.failures.clone()
    };
    let per_day = round_significant(group.len() as f64 / window_days, 4);
    let name = format!("{gpus}-GPU jobs");
    let fit = ClassFit {
        name: name.clone(),
        gpus_per_job: gpus,
        jobs: group.len(),
        per_day,
        median_hours: median,
        p90_hours: p90,
        observed_mean_hours: hours.iter().sum::<f64>() / hours.len() as f64,
        fitted_mean_hours: duration.mean_hours(),
        ks_distance: ks_distance(&hours, &duration),
        with_outcome,
        failed,
    };
    let class = JobClass {
        name,
        arrivals: Arrivals::HourOfDay {
            per_day,
            hourly_weights: hourly_weights.to_vec(),
        },
        duration,
        gpus_per_job: gpus,
        failures,
        ..template.clone()
    };
    (class, fit)
}

/// Reads one row; the GPU model comes back as (name, known to the catalog).
fn read_row(
    record: &csv::StringRecord,
    columns: &Columns,
    reference_gpu: &str,
) -> Result<(Row, Option<(String, bool)>), String> {
    let submit_text = &record[columns.submit];
    let (submit_s, hour) = parse_submit(submit_text).ok_or_else(|| {
        format!(
            "submit time \"{}\" is not a date-time",
            shorten(40, submit_text)
        )
    })?;
    let (index, unit) = columns.duration;
    let duration_text = &record[index];
    let seconds = parse_duration(duration_text, unit).ok_or_else(|| {
        format!(
            "duration \"{}\" is not a duration",
            shorten(40, duration_text)
        )
    })?;
    if seconds <= 0.0 {
        return Err("duration must be above 0".to_string());
    }
    if seconds > 366.0 * DAY_S {
        return Err("duration is longer than a year".to_string());
    }
    let gpus_text = &record[columns.gpus];
    let gpus: u32 = gpus_text.parse().map_err(|_| {
        format!(
            "GPU count \"{}\" is not a whole number",
            shorten(40, gpus_text)
        )
    })?;
    if gpus == 0 || gpus > limits::GPUS_PER_JOB_MAX {
        return Err(format!(
            "GPU count {gpus} is outside 1–{}",
            limits::GPUS_PER_JOB_MAX
        ));
    }
    let model = columns
        .gpu_model
        .map(|i| record[i].trim())
        .filter(|m| !m.is_empty())
        .map(|m| match canonical_gpu(m) {
            Some(known) => (known.to_string(), true),
            None => (shorten(40, m), false),
        });
    // A job that took d on a GPU r times an A100 takes d·r/r_ref on the reference GPU.
    let speed = match &model {
        Some((name, true)) => {
            relative_throughput_vs_a100(name) / relative_throughput_vs_a100(reference_gpu)
        }
        _ => 1.0,
    };
    let outcome = match columns.outcome {
        Some(i) => parse_outcome(&record[i]).ok_or_else(|| {
            format!(
                "outcome \"{}\" is not one this importer knows (completed, failed, cancelled…)",
                shorten(40, &record[i])
            )
        })?,
        None => Outcome::Unknown,
    };
    Ok((
        Row {
            submit_s,
            hour,
            reference_hours: seconds * speed / HOUR_S,
            gpus,
            outcome,
        },
        model,
    ))
}

/// `(seconds since 1970-01-01, hour of day as written)` of a submit time.
fn parse_submit(text: &str) -> Option<(i64, usize)> {
    let text = text.trim();
    if let Ok(n) = text.parse::<f64>() {
        // Unix seconds (2001–5138) or milliseconds.
        let seconds = if (1e9..1e11).contains(&n) {
            n
        } else if (1e12..1e14).contains(&n) {
            n / 1000.0
        } else {
            return None;
        };
        let s = seconds.floor() as i64;
        return Some((s, (s.rem_euclid(86_400) / 3600) as usize));
    }
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
            rest = &fraction[end..];
        }
    }
    // The offset, if any: the clock time as written is kept for the hour of day.
    let offset_s = match rest {
        "" | "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let digits: String = rest[1..].chars().filter(|&c| c != ':').collect();
            if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let h: i64 = digits[..2].parse().ok()?;
            let m: i64 = digits[2..].parse().ok()?;
            if h > 23 || m > 59 {
                return None;
            }
            sign * (h * 3600 + m * 60)
        }
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
    let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    Some((local - offset_s, hour as usize))
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
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Seconds in a duration cell.
fn parse_duration(text: &str, unit: DurationUnit) -> Option<f64> {
    let text = text.trim();
    let number = || text.parse::<f64>().ok().filter(|v| v.is_finite());
    match unit {
        DurationUnit::Seconds => number(),
        DurationUnit::Minutes => number().map(|m| m * 60.0),
        DurationUnit::Hours => number().map(|h| h * HOUR_S),
        DurationUnit::Clock => {
            // [D-]HH:MM:SS or MM:SS, as Slurm prints Elapsed.
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
                _ => return None,
            };
            if m >= 60.0 || s >= 60.0 {
                return None;
            }
            Some(f64::from(days) * DAY_S + h * HOUR_S + m * 60.0 + s)
        }
    }
}

fn parse_outcome(text: &str) -> Option<Outcome> {
    let word = text.trim().to_ascii_lowercase().replace([' ', '-'], "_");
    Some(match word.as_str() {
        "" | "unknown" => Outcome::Unknown,
        "completed" | "complete" | "succeeded" | "success" | "successful" | "ok" | "done" => {
            Outcome::Succeeded
        }
        "failed" | "failure" | "fail" | "error" | "oom" | "out_of_memory" | "node_fail"
        | "timeout" | "timed_out" | "boot_fail" | "deadline" => Outcome::Failed,
        "cancelled" | "canceled" | "preempted" | "stopped" => Outcome::Cancelled,
        _ => return None,
    })
}

/// The catalog's name for a GPU model written as e.g. "NVIDIA A100-SXM4-80GB".
fn canonical_gpu(text: &str) -> Option<&'static str> {
    let upper = text.to_ascii_uppercase();
    KNOWN_GPUS.iter().copied().find(|g| upper.contains(g))
}

fn nearest_on_log_scale(kept: &[u32], gpus: u32) -> usize {
    let distance = |g: u32| (f64::from(g).ln() - f64::from(gpus).ln()).abs();
    (0..kept.len())
        .min_by(|&a, &b| distance(kept[a]).total_cmp(&distance(kept[b])))
        .unwrap_or(0)
}

/// Largest gap between the empirical distribution of `sorted` and the fitted one.
fn ks_distance(sorted: &[f64], fitted: &Duration) -> f64 {
    let cdf = |x: f64| -> f64 {
        match fitted {
            Duration::Fixed { hours } => f64::from(u8::from(x >= *hours)),
            Duration::LogNormal {
                median_hours,
                p90_hours,
            } => {
                let sigma = crate::model::rng::lognormal_sigma(*median_hours, *p90_hours);
                let z = (libm::log(x) - libm::log(*median_hours)) / sigma;
                0.5 * (1.0 + libm::erf(z / std::f64::consts::SQRT_2))
            }
            Duration::Exponential { mean_hours } => 1.0 - libm::exp(-x / mean_hours),
        }
    };
    let n = sorted.len() as f64;
    sorted
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let f = cdf(x);
            (f - i as f64 / n).abs().max((f - (i + 1) as f64 / n).abs())
        })
        .fold(0.0, f64::max)
}

fn round_significant(value: f64, digits: i32) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let scale = 10f64.powi(digits - 1 - libm::floor(libm::log10(value.abs())) as i32);
    (value * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_count_days_from_1970() {
        // 2024-03-01 is day 19,783 (date -d 2024-03-01 +%s = 1709251200).
        assert_eq!(days_from_civil(2024, 3, 1) * 86_400, 1_709_251_200);
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(
            parse_submit("2024-03-01T13:45:10Z"),
            Some((1_709_300_710, 13))
        );
        // With an offset the instant moves but the written hour stays.
        assert_eq!(
            parse_submit("2024-03-01 13:45:10+02:00"),
            Some((1_709_300_710 - 7200, 13))
        );
        assert_eq!(parse_submit("1709300710"), Some((1_709_300_710, 13)));
        assert_eq!(parse_submit("1709300710000"), Some((1_709_300_710, 13)));
        assert_eq!(parse_submit("2024-02-30 10:00"), None);
        assert_eq!(parse_submit("yesterday"), None);
        assert_eq!(parse_submit("42"), None);
    }

    #[test]
    fn durations_in_every_accepted_form() {
        assert_eq!(parse_duration("90", DurationUnit::Seconds), Some(90.0));
        assert_eq!(parse_duration("1.5", DurationUnit::Minutes), Some(90.0));
        assert_eq!(parse_duration("0.5", DurationUnit::Hours), Some(1800.0));
        assert_eq!(
            parse_duration("1-02:03:04", DurationUnit::Clock),
            Some(86_400.0 + 7_384.0)
        );
        assert_eq!(parse_duration("03:04", DurationUnit::Clock), Some(184.0));
        assert_eq!(parse_duration("1:75:00", DurationUnit::Clock), None);
        assert_eq!(parse_duration("NaN", DurationUnit::Seconds), None);
    }

    #[test]
    fn gpu_names_match_the_catalog() {
        assert_eq!(canonical_gpu("NVIDIA A100-SXM4-80GB"), Some("A100"));
        assert_eq!(canonical_gpu("nvidia-l40s"), Some("L40S"));
        assert_eq!(canonical_gpu("NVIDIA L4"), Some("L4"));
        assert_eq!(canonical_gpu("MI300X"), None);
    }

    #[test]
    fn rounding_keeps_significant_digits() {
        assert_eq!(round_significant(1234.567, 4), 1235.0);
        assert_eq!(round_significant(0.012345, 3), 0.0123);
    }
}
