//! Job-history import: past jobs become a workload. Three readers, picked from the content:
//! CSV tables with named columns ([`table`]: exports and public GPU traces such as the openb
//! pod list), Slurm's `sacct -P` ([`sacct`]), and the Parallel Workloads Archive's Standard
//! Workload Format ([`swf`]). Each hands the fit the same [`record::JobRecord`]s; the fit
//! ([`fit`]) makes one job class per GPU count with the history's rate and hour-of-day
//! profile, its run times as an empirical quantile table that keeps their mean (a log-normal
//! through the median and 90th percentile on request), and the failed share of the runs with
//! an outcome, with a table that sets what was read beside what will be simulated. Every
//! record that cannot be read is reported by line with why; nothing is dropped silently and
//! nothing is guessed that would change a number without saying so.
//!
//! Request traces (an LLM service's arrivals and token counts) are read and fitted the same
//! way in [`traffic`]: they become a service's traffic rather than job classes.

pub mod clock;
pub mod cluster;
pub mod fit;
pub mod record;
pub mod replay;
pub mod sacct;
pub mod source;
pub mod swf;
pub mod table;
pub mod traffic;

use clock::Clock;
use gpucost_model::model::error::ScenarioError;
use gpucost_model::model::scenario::{limits, JobClass, Scenario};
use record::{JobRecord, Outcome, StateCount};
use serde::{Deserialize, Serialize};
use source::Source;
use std::fmt;

pub use fit::{fit_records, ClassFit, HistoryFit, WaitSummary};
pub use record::TimeoutsAs;
pub use table::Role;

/// CPUs taken as one GPU in a history that counts CPUs only, unless told otherwise.
pub const DEFAULT_CPUS_PER_GPU: u32 = 8;

/// Largest history the page reads, bytes.
pub const MAX_HISTORY_BYTES: usize = limits::HISTORY_BYTES_MAX_PAGE;

/// Which reader a history needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceFormat {
    /// A CSV table with named columns.
    Csv,
    /// Slurm `sacct --parsable2`.
    Sacct,
    /// The Standard Workload Format.
    Swf,
}

impl SourceFormat {
    /// The format's name as the fit table shows it.
    pub fn label(self) -> &'static str {
        match self {
            SourceFormat::Csv => "CSV table",
            SourceFormat::Sacct => "Slurm sacct -P",
            SourceFormat::Swf => "Standard Workload Format",
        }
    }

    /// The format a `--format` value names.
    pub fn named(name: &str) -> Option<SourceFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "csv" => Some(SourceFormat::Csv),
            "sacct" | "slurm" => Some(SourceFormat::Sacct),
            "swf" => Some(SourceFormat::Swf),
            _ => None,
        }
    }
}

/// How run times become a class's duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum DurationFit {
    /// A quantile table through the observed run times, keeping their mean (the default).
    #[default]
    Empirical,
    /// A log-normal through their median and 90th percentile.
    LogNormal,
}

/// How to read a history: what detection cannot know from the content.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ImportOptions {
    /// The reader, when not detected.
    pub format: Option<SourceFormat>,
    /// sacct's `--format` field list, for output without a header (`--noheader`).
    pub sacct_fields: Option<Vec<String>>,
    /// CSV columns named by hand, overriding detection.
    pub columns: Vec<(Role, String)>,
    /// CPUs taken as one GPU in a CPU-only history (default [`DEFAULT_CPUS_PER_GPU`]).
    pub cpus_per_gpu: Option<u32>,
    /// Zone of the times written without one, seconds east of UTC (default 0, UTC).
    pub utc_offset_s: i64,
    /// How run times become durations.
    pub durations: DurationFit,
    /// GPUs of the cluster the jobs ran on: adds it as a platform (see [`cluster`]) whose
    /// queue wait can be set beside the observed one.
    #[serde(default)]
    pub cluster_gpus: Option<u32>,
    /// Replay the exact jobs ([`replay`]) instead of drawing them from the fitted classes.
    #[serde(default)]
    pub replay: bool,
    /// One class per team and GPU count (the team from sacct's Account, else User; a CSV's
    /// team column; an SWF log's user) instead of one per GPU count.
    #[serde(default)]
    pub team_classes: bool,
    /// What a job stopped at its time limit is taken as (default: work kept).
    #[serde(default)]
    pub timeouts: TimeoutsAs,
}

/// A record that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BadRow {
    /// Line of the file where the record starts (1 = the first line).
    pub line: u64,
    /// What is wrong with it.
    pub reason: String,
}

/// What a reader found, before any fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The reader used.
    pub format: SourceFormat,
    /// How its times count.
    pub clock: Clock,
    /// The jobs read (after folding steps and expanding pending arrays).
    pub records: Vec<JobRecord>,
    /// Records skipped, by line.
    pub bad_rows: Vec<BadRow>,
    /// Blank and comment lines skipped.
    pub lines_skipped: usize,
    /// Records read (allocations and steps for sacct; data rows otherwise).
    pub records_read: usize,
    /// sacct steps folded into their allocation.
    pub steps_folded: usize,
    /// Each written state, the outcome it became and how many jobs had it.
    pub states: Vec<StateCount>,
    /// CPUs taken as one GPU, when the history counts CPUs only.
    pub gpus_from_cpus: Option<u32>,
    /// What the reader assumed, one sentence each.
    pub notes: Vec<String>,
}

impl Read {
    fn new(format: SourceFormat, clock: Clock) -> Read {
        Read {
            format,
            clock,
            records: Vec::new(),
            bad_rows: Vec::new(),
            lines_skipped: 0,
            records_read: 0,
            steps_folded: 0,
            states: Vec::new(),
            gpus_from_cpus: None,
            notes: Vec::new(),
        }
    }
}

/// Why a history could not be read or fitted.
#[derive(Debug, Clone, PartialEq)]
pub enum HistoryError {
    /// The file is larger than the page reads.
    TooLarge {
        /// Its size, bytes.
        bytes: u64,
    },
    /// More jobs than [`limits::HISTORY_JOBS_MAX`].
    TooManyJobs,
    /// No header row (or nothing at all).
    Empty,
    /// `|`-separated without a header and no field list was given.
    SacctWithoutHeader,
    /// A required column is missing.
    MissingColumn {
        /// What the column holds.
        what: &'static str,
        /// Header names accepted for it.
        accepted: Vec<&'static str>,
        /// The role `--column` names it by (`gpus` in `--column gpus=…`); empty where the
        /// format's columns are fixed (sacct).
        role: &'static str,
    },
    /// A column named by hand is not in the header.
    NoSuchColumn {
        /// The name given.
        name: String,
        /// The header's names.
        header: Vec<String>,
    },
    /// A replay longer than the longest horizon.
    ReplayTooLong {
        /// The history's span, days.
        days: f64,
    },
    /// The cluster the jobs ran on is smaller than the largest job.
    ClusterTooSmall {
        /// GPUs given.
        gpus: u32,
        /// GPUs of the largest job.
        largest: u32,
    },
    /// The cluster the jobs ran on needs more nodes than a platform may have.
    ClusterTooLarge {
        /// GPUs given.
        gpus: u32,
        /// Nodes they make.
        nodes: u32,
    },
    /// The catalog has no node of the GPU the cluster would be made of.
    ClusterGpuUnknown {
        /// The GPU model.
        gpu: String,
    },
    /// The text stopped being readable: not UTF-8, or the file could not be read.
    Unreadable {
        /// Line it stopped at (1 = the first).
        line: u64,
        /// Why.
        reason: String,
    },
    /// The scenario already compares as many platforms as it may.
    NoRoomForCluster {
        /// Platforms it has.
        platforms: usize,
    },
    /// Fewer than two jobs that ran.
    TooFewJobs {
        /// Jobs usable.
        used: usize,
        /// Records skipped, by line.
        bad_rows: Vec<BadRow>,
    },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::TooLarge { bytes } => write!(
                f,
                "the file is {:.1} MB; the page reads at most {} MB (the command line, `gpucost history` or `gpucost traffic`, has no size limit)",
                *bytes as f64 / 1e6,
                MAX_HISTORY_BYTES / (1024 * 1024)
            ),
            HistoryError::TooManyJobs => write!(
                f,
                "the history has more than {} jobs, the most the importer reads; split it by date",
                limits::HISTORY_JOBS_MAX
            ),
            HistoryError::Empty => write!(f, "the file has no header row"),
            HistoryError::SacctWithoutHeader => write!(
                f,
                "the file is |-separated like `sacct -P` but has no header line (sacct --noheader): \
                 give the --format field list it was written with (the CLI's --sacct-fields, the \
                 page's \"sacct fields\"), e.g. JobID,State,Submit,Start,End,Elapsed,AllocTRES"
            ),
            HistoryError::MissingColumn {
                what,
                accepted,
                role,
            } => {
                write!(f, "no {what} column; name one of: {}", accepted.join(", "))?;
                if !role.is_empty() {
                    write!(
                        f,
                        ", or say which column holds it with --column {role}=<its header> (on \
                         the page, in the column mapping)"
                    )?;
                }
                Ok(())
            }
            HistoryError::NoSuchColumn { name, header } => write!(
                f,
                "no column \"{name}\" in the header; it has: {}",
                header.join(", ")
            ),
            HistoryError::ReplayTooLong { days } => write!(
                f,
                "the history spans {days:.1} days; a replay's horizon is at most {} days: split it by date",
                limits::HORIZON_DAYS_MAX
            ),
            HistoryError::ClusterTooSmall { gpus, largest } => write!(
                f,
                "the cluster the jobs ran on cannot have {gpus} GPUs: the largest job asks for {largest}"
            ),
            HistoryError::ClusterTooLarge { gpus, nodes } => write!(
                f,
                "a cluster of {gpus} GPUs makes {nodes} nodes; a platform has at most {}",
                limits::MAX_NODES
            ),
            HistoryError::ClusterGpuUnknown { gpu } => write!(
                f,
                "the catalog has no node of {gpu} GPUs to make the cluster the jobs ran on of"
            ),
            HistoryError::Unreadable { line, reason } if reason.contains("UTF-8") => write!(
                f,
                "line {line} is not UTF-8 text: save the file as UTF-8"
            ),
            HistoryError::Unreadable { line, reason } => {
                write!(f, "the file could not be read at line {line}: {reason}")
            }
            HistoryError::NoRoomForCluster { platforms } => write!(
                f,
                "the scenario already compares {platforms} platforms, the most it may: remove one \
                 to add the cluster the jobs ran on"
            ),
            HistoryError::TooFewJobs { used, bad_rows } => {
                write!(f, "{used} usable job(s); at least 2 that ran are needed to fit arrivals")?;
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

/// The reader `text` needs: SWF when it opens with `;` comments or an 18-number job line;
/// sacct when its first line is `|`-separated (more `|` than `,`); a CSV table otherwise.
pub fn detect(text: &str) -> SourceFormat {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if first.starts_with(';') || swf::is_job_line(first) {
        SourceFormat::Swf
    } else if first.matches('|').count() >= 2
        && first.matches('|').count() > first.matches(',').count()
    {
        SourceFormat::Sacct
    } else {
        SourceFormat::Csv
    }
}

/// Whether the page reads a file of `bytes` bytes: at most [`MAX_HISTORY_BYTES`], else
/// [`HistoryError::TooLarge`] (the command line streams and has no byte limit).
pub fn check_page_size(bytes: u64) -> Result<(), HistoryError> {
    if bytes > MAX_HISTORY_BYTES as u64 {
        return Err(HistoryError::TooLarge { bytes });
    }
    Ok(())
}

/// Reads a history with the reader `options` names or the one detected.
pub fn read_history(text: &str, options: &ImportOptions) -> Result<Read, HistoryError> {
    read_history_with_progress(text, options, &mut |_| {})
}

/// [`read_history`], telling `progress` the share of the text read (0–1) every
/// [`PROGRESS_EVERY`] records.
pub fn read_history_with_progress(
    text: &str,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<Read, HistoryError> {
    read_source(Source::Text(text), options, progress)
}

/// Reads a history from `source`, in memory or streamed: the reader `options` names, or the
/// one detected from its first lines.
pub fn read_source(
    mut source: Source,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<Read, HistoryError> {
    let unreadable = |e: std::io::Error| HistoryError::Unreadable {
        line: 1,
        reason: e.to_string(),
    };
    let head = source.start().map_err(unreadable)?;
    let format = options.format.unwrap_or_else(|| detect(&head));
    drop(head);
    let read = match format {
        SourceFormat::Csv => table::read(source, options, progress),
        SourceFormat::Sacct => sacct::read(source, options, progress),
        SourceFormat::Swf => swf::read(source, options, progress),
    };
    progress(1.0);
    read.map(|mut read| {
        take_timeouts_as(&mut read, options.timeouts);
        read
    })
}

/// CPU-only jobs in a history of GPU jobs, at `lines`, beside its `gpu_jobs`: where the GPU
/// jobs are under half the jobs (a shared cluster's history), one note says how many were
/// skipped; otherwise each is a skipped record with `reason` (a few may be mistakes).
fn skip_cpu_jobs(read: &mut Read, lines: Vec<u64>, gpu_jobs: usize, reason: &str) {
    let cpu_jobs = lines.len();
    if cpu_jobs == 0 {
        return;
    }
    if cpu_jobs > gpu_jobs {
        let total = cpu_jobs + gpu_jobs;
        read.notes.push(format!(
            "{cpu_jobs} CPU-only job(s) skipped: the history's {gpu_jobs} GPU job(s) are {:.1} % \
             of its {total}, and the classes are theirs.",
            100.0 * gpu_jobs as f64 / total as f64
        ));
    } else {
        read.bad_rows.extend(lines.into_iter().map(|line| BadRow {
            line,
            reason: reason.to_string(),
        }));
    }
}

/// Jobs stopped at their time limit become work kept or failures, as `taken` says, with a
/// note saying how many and which.
fn take_timeouts_as(read: &mut Read, taken: TimeoutsAs) {
    let outcome = match taken {
        TimeoutsAs::Kept => Outcome::Succeeded,
        TimeoutsAs::Failed => Outcome::Failed,
    };
    let mut jobs = 0usize;
    for r in read.records.iter_mut() {
        if r.outcome == Outcome::TimedOut {
            r.outcome = outcome;
            jobs += 1;
        }
    }
    // The states table keeps "hit its time limit (… work kept)" where they are kept.
    if taken == TimeoutsAs::Failed {
        for s in read
            .states
            .iter_mut()
            .filter(|s| s.outcome == Outcome::TimedOut)
        {
            s.outcome = Outcome::Failed;
        }
    }
    if jobs > 0 {
        read.notes.push(match taken {
            TimeoutsAs::Kept => format!(
                "{jobs} job(s) stopped at their time limit (TIMEOUT): each run counts as work \
                 kept, as a job that checkpoints keeps its work to its last checkpoint (training \
                 jobs on Slurm commonly run to their limit and resume); --timeouts failed counts \
                 them as failures, their work lost."
            ),
            TimeoutsAs::Failed => format!(
                "{jobs} job(s) stopped at their time limit (TIMEOUT): counted as failures, their \
                 work lost (--timeouts failed), as for jobs that save nothing before their limit."
            ),
        });
    }
}

/// The error a stream stopped with, if it stopped before its end.
fn stream_error(lines: &mut source::Lines) -> Result<(), HistoryError> {
    match lines.take_error() {
        Some((line, e)) => Err(HistoryError::Unreadable {
            line,
            reason: e.to_string(),
        }),
        None => Ok(()),
    }
}

/// Records between two progress reports.
pub const PROGRESS_EVERY: usize = 16_384;

/// Fits job classes to a job history. `template` gives the fields a history does not record
/// (memory, data, image, checkpoints, retries); `reference_gpu` is the scenario's reference GPU.
pub fn fit_history(
    text: &str,
    template: &JobClass,
    reference_gpu: &str,
    options: &ImportOptions,
) -> Result<HistoryFit, HistoryError> {
    let read = read_history(text, options)?;
    fit_records(read, template, reference_gpu, options)
}

/// [`fit_into`], telling `progress` how much of the text has been read.
pub fn fit_into_with_progress(
    scenario: &Scenario,
    text: &str,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<(Scenario, HistoryFit), HistoryImportError> {
    fit_source(scenario, Source::Text(text), options, progress)
}

/// [`fit_into_with_progress`] from a [`Source`]: the CLI streams a file this way.
pub fn fit_source(
    scenario: &Scenario,
    source: Source,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<(Scenario, HistoryFit), HistoryImportError> {
    if options.replay {
        return replay::replay_source(scenario, source, options, progress);
    }
    let template = scenario.job_classes.first().cloned().unwrap_or_default();
    let read = read_source(source, options, progress).map_err(HistoryImportError::Fit)?;
    let mut fit = fit_records(read, &template, &scenario.reference_gpu, options)
        .map_err(HistoryImportError::Fit)?;
    let mut next = Scenario {
        job_classes: fit.classes.clone(),
        ..scenario.clone()
    };
    if let Some(gpus) = options.cluster_gpus {
        cluster::add_recorded_cluster(&mut next, &mut fit, gpus)
            .map_err(HistoryImportError::Fit)?;
    }
    // The fitted classes' own warm-up (the rule's, as for a preset).
    next.warmup_days = next.default_warmup_days();
    fit.notes.push(format!(
        "Warm-up: {} before the measured window, so that jobs of the longest class are under \
         way when it opens (three times that class's 90th-percentile run time on the slowest \
         pool it runs on, at least a day and at most {:.0}).",
        fit::window_text(next.warmup_days),
        limits::WARMUP_DEFAULT_DAYS_MAX
    ));
    match next.validate() {
        Ok(()) => Ok((next, fit)),
        Err(e) => Err(HistoryImportError::Invalid(e)),
    }
}

/// `scenario` with job classes fitted to the job history `text` as its workload, and the fit.
/// The scenario's first class gives the fields a history does not record, its reference GPU
/// the unit of the durations; the result is validated.
pub fn fit_into(
    scenario: &Scenario,
    text: &str,
    options: &ImportOptions,
) -> Result<(Scenario, HistoryFit), HistoryImportError> {
    fit_into_with_progress(scenario, text, options, &mut |_| {})
}

/// sacct's `--format` field list as written on a command line or in a form: names separated
/// by commas or `|`, spaces ignored; `None` when it names none.
pub fn parse_field_list(text: &str) -> Option<Vec<String>> {
    let fields: Vec<String> = text
        .split([',', '|'])
        .map(|f| f.trim().to_string())
        .filter(|f| !f.is_empty())
        .collect();
    (!fields.is_empty()).then_some(fields)
}

/// `+02:00`-style text of an offset in seconds.
pub fn format_offset(s: i64) -> String {
    let sign = if s < 0 { '−' } else { '+' };
    let a = s.abs();
    format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60)
}

fn model_mean(points: &[f64], probabilities: &[f64]) -> f64 {
    gpucost_model::model::scenario::empirical_mean(points, probabilities)
}

fn shorten(max: usize, text: &str) -> String {
    gpucost_model::workbench::shorten(max, text)
}
