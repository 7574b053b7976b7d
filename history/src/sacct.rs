//! Slurm's `sacct --parsable2` (`-P`) output: `|`-separated, never quoted, with a header line
//! or, for `--noheader`, with the `--format` field list given separately. Job steps
//! (`123.batch`, `123.extern`, `123.0`) fold into their allocation; array elements
//! (`123_4`) are jobs; a pending array (`123_[1-5]`) is as many jobs as it names. GPUs come
//! from `AllocTRES`/`ReqTRES` (`gres/gpu=2`, `gres/gpu:a100=2`) or the legacy
//! `AllocGRES`/`ReqGRES` (`gpu:2`); a history without them maps CPUs to GPUs.

use super::clock::{parse_elapsed, read_time, Clock, Instant, TimeCell};
use super::record::{count_state, JobRecord, Outcome};
use super::source::Source;
use super::{BadRow, HistoryError, ImportOptions, Read, SourceFormat};
use gpucost_model::model::scenario::limits;
use std::collections::HashSet;

/// Header names that mark a line as sacct's header (case ignored).
const KNOWN: &[&str] = &[
    "jobid",
    "jobidraw",
    "jobname",
    "state",
    "submit",
    "start",
    "end",
    "elapsed",
    "elapsedraw",
    "alloctres",
    "reqtres",
    "allocgres",
    "reqgres",
    "ncpus",
    "alloccpus",
    "reqcpus",
    "account",
    "user",
    "partition",
    "nnodes",
    "allocnodes",
    "reqnodes",
    "exitcode",
    "submitline",
    "eligible",
    "timelimit",
    "reqmem",
    "qos",
    "cluster",
    "nodelist",
    "workdir",
    "comment",
];
/// Columns that hold free text, which may contain an unescaped `|` or a newline.
const FREE_TEXT: &[&str] = &["submitline", "jobname", "workdir", "comment", "constraints"];

/// Whether `line` looks like sacct's header: `|`-separated, with at least two known names.
pub fn is_header(line: &str) -> bool {
    line.contains('|')
        && line
            .split('|')
            .filter(|f| KNOWN.contains(&f.trim().to_ascii_lowercase().as_str()))
            .count()
            >= 2
}

/// Column positions of the fields the fit reads.
struct Columns {
    count: usize,
    job_id: Option<usize>,
    state: Option<usize>,
    submit: Option<usize>,
    start: Option<usize>,
    end: Option<usize>,
    elapsed_raw: Option<usize>,
    elapsed: Option<usize>,
    alloc_tres: Option<usize>,
    req_tres: Option<usize>,
    alloc_gres: Option<usize>,
    req_gres: Option<usize>,
    cpus: Vec<usize>,
    /// The team's columns, in order of preference: Account, then User.
    team: Vec<usize>,
    free_text: Vec<usize>,
}

impl Columns {
    fn new(names: &[String]) -> Columns {
        let at = |name: &str| names.iter().position(|n| n == name);
        Columns {
            count: names.len(),
            job_id: at("jobid").or_else(|| at("jobidraw")),
            state: at("state"),
            submit: at("submit"),
            start: at("start"),
            end: at("end"),
            elapsed_raw: at("elapsedraw"),
            elapsed: at("elapsed"),
            alloc_tres: at("alloctres"),
            req_tres: at("reqtres"),
            alloc_gres: at("allocgres"),
            req_gres: at("reqgres"),
            cpus: ["ncpus", "alloccpus", "reqcpus"]
                .iter()
                .filter_map(|n| at(n))
                .collect(),
            team: ["account", "user"].iter().filter_map(|n| at(n)).collect(),
            free_text: names
                .iter()
                .enumerate()
                .filter(|(_, n)| FREE_TEXT.contains(&n.as_str()))
                .map(|(i, _)| i)
                .collect(),
        }
    }

    fn has_gpu_columns(&self) -> bool {
        self.alloc_tres.is_some()
            || self.req_tres.is_some()
            || self.alloc_gres.is_some()
            || self.req_gres.is_some()
    }
}

/// A record before steps are folded.
struct Parsed {
    /// The allocation's id (the JobID before any `.step`).
    allocation: String,
    /// A step of that allocation, not a job.
    step: bool,
    /// Jobs this record stands for (more than 1 for a pending array `123_[1-5]`).
    jobs: u32,
    record: JobRecord,
    /// GPUs named in TRES/GRES; `None` when the record names none.
    gpus: Option<u32>,
    /// The GPU type TRES/GRES name, if one.
    gpu_type: Option<String>,
    cpus: Option<u32>,
    state_written: String,
}

/// Reads sacct `-P` text (BOM already removed).
pub fn read(
    source: Source,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<Read, HistoryError> {
    let mut lines = source.lines();
    let mut read = Read::new(SourceFormat::Sacct, Clock::Absolute);
    // The header: the first line that is not blank or a comment, or the given field list.
    let mut first_data = None;
    let names: Vec<String> = loop {
        let Some((n, line)) = lines.next() else {
            super::stream_error(&mut lines)?;
            return Err(HistoryError::Empty);
        };
        if is_blank_or_comment(&line) {
            read.lines_skipped += 1;
            continue;
        }
        if is_header(&line) {
            if options.sacct_fields.is_some() {
                read.notes.push(
                    "The file has its own header line; it was used instead of the field list given."
                        .to_string(),
                );
            }
            break normalise(line.split('|'));
        }
        match &options.sacct_fields {
            Some(fields) => {
                first_data = Some((n, line));
                break normalise(fields.iter().map(String::as_str));
            }
            None => return Err(HistoryError::SacctWithoutHeader),
        }
    };
    let columns = Columns::new(&names);
    if columns.submit.is_none() && columns.start.is_none() {
        return Err(HistoryError::MissingColumn {
            what: "submit time",
            accepted: vec!["Submit", "Start"],
            role: "",
        });
    }
    if columns.elapsed_raw.is_none()
        && columns.elapsed.is_none()
        && (columns.start.is_none() || columns.end.is_none())
    {
        return Err(HistoryError::MissingColumn {
            what: "run time",
            accepted: vec!["ElapsedRaw", "Elapsed", "Start and End"],
            role: "",
        });
    }
    if !columns.has_gpu_columns() && columns.cpus.is_empty() {
        return Err(HistoryError::MissingColumn {
            what: "GPU or CPU count",
            accepted: vec![
                "AllocTRES",
                "ReqTRES",
                "AllocGRES",
                "ReqGRES",
                "NCPUS",
                "AllocCPUS",
                "ReqCPUS",
            ],
            role: "",
        });
    }
    if columns.submit.is_none() {
        read.notes.push(
            "No Submit column: start times are used as arrivals, so the queue wait the jobs had \
             is unknown."
                .to_string(),
        );
    }
    if columns.job_id.is_none() {
        read.notes.push(
            "No JobID column: every line is taken as a job (steps cannot be told apart)."
                .to_string(),
        );
    }

    let offset = options.utc_offset_s;
    let mut parsed: Vec<Parsed> = Vec::new();
    let mut extra_trailing = 0usize;
    let mut short_trailing = 0usize;
    let mut joined = 0usize;
    let mut recovered_pipes = 0usize;
    {
        let mut emit = |line: u64, fields: Vec<String>, read: &mut Read| match assemble(
            &fields, &columns, line, offset,
        ) {
            Ok((p, how)) => {
                match how {
                    Shape::Exact => {}
                    Shape::TrailingExtra => extra_trailing += 1,
                    Shape::TrailingMissing => short_trailing += 1,
                    Shape::PipeInText => recovered_pipes += 1,
                }
                parsed.push(p);
            }
            Err(reason) => read.bad_rows.push(BadRow { line, reason }),
        };
        let mut pending: Option<(u64, Vec<String>)> = None;
        while let Some((n, raw)) = first_data.take().or_else(|| lines.next()) {
            if (n as usize).is_multiple_of(super::PROGRESS_EVERY) {
                progress(lines.share());
            }
            let line = raw.strip_suffix('\r').unwrap_or(&raw);
            let blank_or_comment = is_blank_or_comment(line);
            let pieces = line.split('|').count();
            if let Some((_, fields)) = pending.as_mut() {
                let have = fields.len();
                // A line long enough to be a record is one; a shorter one continues a record
                // that is short, or (one field) the free text that ends a whole one.
                let continues = if blank_or_comment || pieces + 1 >= columns.count {
                    false
                } else if have < columns.count {
                    true
                } else {
                    pieces == 1
                        && columns
                            .free_text
                            .last()
                            .is_some_and(|&i| i + 1 == columns.count)
                };
                if continues {
                    let mut rest = line.split('|');
                    if let Some(last) = fields.last_mut() {
                        last.push('\n');
                        last.push_str(rest.next().unwrap_or(""));
                    }
                    fields.extend(rest.map(str::to_string));
                    joined += 1;
                    continue;
                }
                let (start, fields) = pending.take().expect("pending");
                emit(start, fields, &mut read);
            }
            if blank_or_comment {
                read.lines_skipped += 1;
                continue;
            }
            pending = Some((n, line.split('|').map(str::to_string).collect()));
        }
        if let Some((start, fields)) = pending.take() {
            emit(start, fields, &mut read);
        }
    }
    super::stream_error(&mut lines)?;
    if joined > 0 {
        read.notes.push(format!(
            "{joined} line(s) continued the record before them (a newline inside a field) and were joined to it."
        ));
    }
    if recovered_pipes > 0 {
        read.notes.push(format!(
            "{recovered_pipes} record(s) had an unescaped | inside a free-text field (JobName, SubmitLine, Constraints…); read with the field joined back."
        ));
    }
    if extra_trailing > 0 {
        read.notes.push(format!(
            "{extra_trailing} record(s) have one field more than the {} named (an optional trailing column); it was ignored.",
            columns.count
        ));
    }
    if short_trailing > 0 {
        read.notes.push(format!(
            "{short_trailing} record(s) lack the last of the {} fields named (an optional trailing column); read without it.",
            columns.count
        ));
    }
    fold(parsed, options, &mut read)?;
    Ok(read)
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

fn normalise<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    names
        .map(|n| n.trim().trim_start_matches('\u{feff}').to_ascii_lowercase())
        .collect()
}

/// How a record's fields lined up with the header.
enum Shape {
    Exact,
    /// One field more, with no free-text column to hold it: an optional trailing column.
    TrailingExtra,
    /// One field fewer: the optional last column left out.
    TrailingMissing,
    /// More fields, joined back into a free-text column.
    PipeInText,
}

/// `fields` with the one at `at` and the `extra` after it joined back with the | that split
/// them.
fn join_at(fields: &[String], at: usize, extra: usize) -> Vec<String> {
    let mut merged: Vec<String> = fields[..at].to_vec();
    merged.push(fields[at..=at + extra].join("|"));
    merged.extend_from_slice(&fields[at + extra + 1..]);
    merged
}

/// Lines a record's fields up with the header and reads it.
fn assemble(
    fields: &[String],
    columns: &Columns,
    line: u64,
    offset: i64,
) -> Result<(Parsed, Shape), String> {
    let want = columns.count;
    let got = fields.len();
    if got == want {
        return parse(fields, columns, line, offset).map(|p| (p, Shape::Exact));
    }
    if got + 1 == want {
        let mut padded = fields.to_vec();
        padded.push(String::new());
        return parse(&padded, columns, line, offset).map(|p| (p, Shape::TrailingMissing));
    }
    if got > want {
        let extra = got - want;
        // One field more is first taken as an optional trailing column (the fields the fit
        // reads then stay in place), unless that reads no GPU where joining a | inside free
        // text back does: a Constraints of features ORed (`a100|h100`) before the TRES would
        // otherwise shift every field after it onto the wrong column.
        if extra == 1 {
            if let Ok(p) = parse(&fields[..want], columns, line, offset) {
                let joined = (p.gpus.is_none() && p.cpus.is_none())
                    .then(|| {
                        columns.free_text.iter().find_map(|&at| {
                            parse(&join_at(fields, at, extra), columns, line, offset)
                                .ok()
                                .filter(|q| q.gpus.is_some())
                        })
                    })
                    .flatten();
                if let Some(q) = joined {
                    return Ok((q, Shape::PipeInText));
                }
                // A free-text last column (Constraints, SubmitLine) holds the | itself.
                if columns.free_text.contains(&(want - 1)) {
                    if let Ok(q) = parse(&join_at(fields, want - 1, 1), columns, line, offset) {
                        return Ok((q, Shape::PipeInText));
                    }
                }
                return Ok((p, Shape::TrailingExtra));
            }
        }
        let mut first_error = None;
        for &at in &columns.free_text {
            let merged = join_at(fields, at, extra);
            match parse(&merged, columns, line, offset) {
                Ok(p) => return Ok((p, Shape::PipeInText)),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        return Err(first_error.unwrap_or_else(|| {
            format!(
                "{got} fields where the header has {want}, and no free-text column (JobName, \
                 SubmitLine) that could hold the extra |"
            )
        }));
    }
    Err(format!("{got} fields where the header has {want}"))
}

/// Reads one record's fields (already `want` long).
fn parse(fields: &[String], c: &Columns, line: u64, offset: i64) -> Result<Parsed, String> {
    let cell = |i: Option<usize>| i.map(|i| fields[i].trim()).unwrap_or("");
    let job_id = cell(c.job_id);
    let (allocation, step) = match job_id.split_once('.') {
        Some((a, _)) => (a.to_string(), true),
        None => (job_id.to_string(), false),
    };
    let jobs = array_size(&allocation).ok_or_else(|| {
        format!(
            "JobID \"{}\" is not a Slurm job id",
            super::shorten(40, job_id)
        )
    })?;
    let state_text = cell(c.state);
    let (state_written, outcome) = slurm_state(state_text).ok_or_else(|| {
        format!(
            "state \"{}\" is not a Slurm state this importer knows",
            super::shorten(40, state_text)
        )
    })?;
    let empty = |what| Parsed {
        allocation: allocation.clone(),
        step: true,
        jobs: 0,
        record: JobRecord {
            line,
            submit: None,
            start: None,
            run_s: None,
            gpus: 0,
            gpu_share: None,
            gpu_model: None,
            outcome: Outcome::Unknown,
            team: None,
        },
        gpus: None,
        gpu_type: None,
        cpus: None,
        state_written: what,
    };
    if step {
        // Only its id matters: it folds into its allocation.
        return Ok(empty(state_written));
    }
    let time = |i: Option<usize>, what: &str| -> Result<Option<Instant>, String> {
        let text = cell(i);
        match read_time(text, offset) {
            Some(TimeCell::Unknown) => Ok(None),
            Some(TimeCell::DateTime(t)) => Ok(Some(t)),
            Some(TimeCell::Number(n)) if (1e9..1e11).contains(&n) => {
                Ok(Some(super::clock::unix_instant(n as i64, offset)))
            }
            _ => Err(format!(
                "{what} \"{}\" is not a date-time",
                super::shorten(40, text)
            )),
        }
    };
    let submit = time(c.submit, "Submit")?;
    let start = time(c.start, "Start")?;
    let end = time(c.end, "End")?;
    let outcome = if start.is_none() && outcome != Outcome::NeverStarted {
        if c.start.is_some() {
            Outcome::NeverStarted
        } else {
            outcome
        }
    } else {
        outcome
    };
    let run_s = if outcome == Outcome::NeverStarted {
        None
    } else {
        let raw = cell(c.elapsed_raw);
        let elapsed = cell(c.elapsed);
        let seconds = if !raw.is_empty() {
            raw.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| {
                    format!("ElapsedRaw \"{}\" is not seconds", super::shorten(40, raw))
                })?
        } else if !elapsed.is_empty() {
            parse_elapsed(elapsed).ok_or_else(|| {
                format!(
                    "Elapsed \"{}\" is not [DD-[HH:]]MM:SS",
                    super::shorten(40, elapsed)
                )
            })?
        } else {
            match (start, end) {
                (Some(s), Some(e)) if e.s >= s.s => (e.s - s.s) as f64,
                _ => {
                    return Err(
                        "no run time: Elapsed is empty and Start or End is unknown".to_string()
                    )
                }
            }
        };
        Some(seconds)
    };
    if submit.is_none() && start.is_none() {
        return Err("neither Submit nor Start is known".to_string());
    }
    let started = start.is_some();
    let tres = [
        (if started { c.alloc_tres } else { None }, Gres::Tres),
        (c.req_tres, Gres::Tres),
        (if started { c.alloc_gres } else { None }, Gres::Legacy),
        (c.req_gres, Gres::Legacy),
    ];
    let mut gpus = None;
    let mut gpu_type = None;
    for (i, kind) in tres {
        let text = cell(i);
        if text.is_empty() {
            continue;
        }
        if let Some((n, t)) = gpus_in(text, kind) {
            gpus = Some(n);
            gpu_type = t;
            break;
        }
    }
    let cpus = c
        .cpus
        .iter()
        .find_map(|&i| fields[i].trim().parse::<u32>().ok())
        .or_else(|| {
            [c.alloc_tres, c.req_tres]
                .iter()
                .find_map(|&i| cpus_in_tres(cell(i)))
        });
    // Account, else User, row by row (a row may leave its Account empty).
    let team = c
        .team
        .iter()
        .map(|&i| cell(Some(i)))
        .find(|t| !t.is_empty())
        .map(str::to_string);
    Ok(Parsed {
        allocation,
        step: false,
        jobs,
        record: JobRecord {
            line,
            submit,
            start,
            run_s,
            gpus: 0,
            gpu_share: None,
            gpu_model: None,
            outcome,
            team,
        },
        gpus,
        gpu_type,
        cpus,
        state_written,
    })
}

/// Jobs an allocation id stands for: 1 for `123`, `123_4` or `123+1`; the elements of a
/// pending array `123_[1-5,7%2]`. `None` when it is no job id.
fn array_size(id: &str) -> Option<u32> {
    if id.is_empty() {
        return None;
    }
    let (base, index) = match id.split_once('_') {
        Some((b, i)) => (b, Some(i)),
        None => (id, None),
    };
    let base = base.split('+').next().unwrap_or(base);
    if base.is_empty() || !base.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let Some(index) = index else { return Some(1) };
    if index.bytes().all(|b| b.is_ascii_digit()) && !index.is_empty() {
        return Some(1);
    }
    let inner = index.strip_prefix('[')?.strip_suffix(']')?;
    let inner = inner.split('%').next()?;
    let mut count: u64 = 0;
    for part in inner.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.parse::<u64>().ok()?, b.parse::<u64>().ok()?),
            None => {
                let a = part.parse::<u64>().ok()?;
                (a, a)
            }
        };
        if b < a {
            return None;
        }
        count += b - a + 1;
    }
    u32::try_from(count).ok().filter(|&c| c > 0)
}

/// A Slurm state as the fit counts it, with the name it is counted under (`CANCELLED by …`
/// for every user's cancellations). Long names and sacct's short codes; a trailing `+`
/// (sacct's mark of a truncated name) is ignored.
pub fn slurm_state(text: &str) -> Option<(String, Outcome)> {
    let text = text.trim();
    let word = text.split_whitespace().next().unwrap_or("");
    let word = word.trim_end_matches('+').to_ascii_uppercase();
    let outcome = match word.as_str() {
        "COMPLETED" | "CD" => Outcome::Succeeded,
        "FAILED" | "F" | "OUT_OF_MEMORY" | "OOM" | "NODE_FAIL" | "NF" | "BOOT_FAIL" | "BF"
        | "DEADLINE" | "DL" | "REVOKED" | "RV" => Outcome::Failed,
        "TIMEOUT" | "TO" => Outcome::TimedOut,
        "CANCELLED" | "CA" => Outcome::Cancelled,
        "PREEMPTED" | "PR" | "REQUEUED" | "RQ" | "REQUEUE_FED" | "REQUEUE_HOLD" | "RESIZING"
        | "RS" => Outcome::Interrupted,
        "RUNNING" | "R" | "SUSPENDED" | "S" | "COMPLETING" | "CG" | "STOPPED" | "ST"
        | "SIGNALING" | "SI" | "STAGE_OUT" | "SO" => Outcome::StillRunning,
        "PENDING" | "PD" => Outcome::NeverStarted,
        "" => Outcome::Unknown,
        _ => return None,
    };
    let written = if word == "CANCELLED" && text.split_whitespace().nth(1) == Some("by") {
        "CANCELLED by …".to_string()
    } else if word.is_empty() {
        "(none)".to_string()
    } else {
        word
    };
    Some((written, outcome))
}

#[derive(Clone, Copy)]
enum Gres {
    Tres,
    Legacy,
}

/// GPUs in a TRES list (`cpu=8,gres/gpu=2,gres/gpu:a100=2`) or a legacy GRES list
/// (`gpu:2`, `gpu:a100:2(IDX:0-1)`), counted once: the untyped count when there is one,
/// else the typed counts summed; with the type when exactly one is named.
fn gpus_in(text: &str, kind: Gres) -> Option<(u32, Option<String>)> {
    let mut plain: Option<u32> = None;
    let mut typed: Vec<(String, u32)> = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        let count = |s: &str| -> Option<u32> {
            let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        };
        match kind {
            Gres::Tres => {
                let Some((key, value)) = item.split_once('=') else {
                    continue;
                };
                let key = key.to_ascii_lowercase();
                if key == "gres/gpu" {
                    plain = count(value);
                } else if let Some(t) = key.strip_prefix("gres/gpu:") {
                    if let Some(n) = count(value) {
                        typed.push((t.to_string(), n));
                    }
                }
            }
            Gres::Legacy => {
                let item = item.split('(').next().unwrap_or(item);
                let parts: Vec<&str> = item.split(':').collect();
                match parts.as_slice() {
                    [g, n] if g.eq_ignore_ascii_case("gpu") => plain = count(n),
                    [g, t, n] if g.eq_ignore_ascii_case("gpu") => {
                        if let Some(n) = count(n) {
                            typed.push((t.to_string(), n));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let one_type = match typed.as_slice() {
        [(t, _)] => Some(t.clone()),
        _ => None,
    };
    match plain {
        Some(n) => Some((n, one_type)),
        None if !typed.is_empty() => Some((typed.iter().map(|t| t.1).sum(), one_type)),
        None => None,
    }
}

fn cpus_in_tres(text: &str) -> Option<u32> {
    text.split(',')
        .find_map(|item| item.trim().strip_prefix("cpu="))
        .and_then(|n| n.parse().ok())
}

/// Folds steps into their allocations, expands pending arrays, and settles GPU counts: from
/// TRES/GRES when any record names GPUs, else from CPUs at `cpus_per_gpu`.
fn fold(parsed: Vec<Parsed>, options: &ImportOptions, read: &mut Read) -> Result<(), HistoryError> {
    let allocations: HashSet<&str> = parsed
        .iter()
        .filter(|p| !p.step)
        .map(|p| p.allocation.as_str())
        .collect();
    let gpu_history = parsed
        .iter()
        .any(|p| !p.step && p.gpus.is_some_and(|g| g > 0));
    let cpus_per_gpu = options.cpus_per_gpu.unwrap_or(super::DEFAULT_CPUS_PER_GPU);
    if !gpu_history {
        read.gpus_from_cpus = Some(cpus_per_gpu);
    }
    let mut records = Vec::new();
    let mut states = Vec::new();
    let mut cpu_only = Vec::new();
    for p in &parsed {
        if p.step {
            if allocations.contains(p.allocation.as_str()) {
                read.steps_folded += 1;
            } else {
                read.bad_rows.push(BadRow {
                    line: p.record.line,
                    reason: format!(
                        "a step of job {}, whose allocation line is not in the file",
                        super::shorten(40, &p.allocation)
                    ),
                });
            }
            continue;
        }
        let gpus = if gpu_history {
            match p.gpus {
                Some(g) if g > 0 => g,
                _ => {
                    cpu_only.push(p.record.line);
                    continue;
                }
            }
        } else {
            match p.cpus {
                Some(c) if c > 0 => c.div_ceil(cpus_per_gpu),
                _ => {
                    read.bad_rows.push(BadRow {
                        line: p.record.line,
                        reason:
                            "no CPU count (NCPUS, AllocCPUS, ReqCPUS or TRES cpu=) to map to GPUs"
                                .to_string(),
                    });
                    continue;
                }
            }
        };
        if gpus > limits::GPUS_PER_JOB_MAX {
            read.bad_rows.push(BadRow {
                line: p.record.line,
                reason: format!("{gpus} GPUs, more than {}", limits::GPUS_PER_JOB_MAX),
            });
            continue;
        }
        for _ in 0..p.jobs {
            let mut record = p.record.clone();
            record.gpus = gpus;
            record.gpu_model = p.gpu_type.clone();
            records.push(record);
            count_state(&mut states, &p.state_written, p.record.outcome);
            if records.len() > limits::HISTORY_JOBS_MAX {
                return Err(HistoryError::TooManyJobs);
            }
        }
    }
    super::skip_cpu_jobs(
        read,
        cpu_only,
        records.len(),
        "no GPUs in its TRES/GRES (a CPU-only job in a GPU history)",
    );
    read.bad_rows.sort_by_key(|b| b.line);
    read.records = records;
    read.states = states;
    read.records_read = parsed.len();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpus_are_counted_once() {
        assert_eq!(
            gpus_in(
                "cpu=8,mem=64G,node=1,billing=8,gres/gpu=2,gres/gpu:a100=2",
                Gres::Tres
            ),
            Some((2, Some("a100".into())))
        );
        assert_eq!(
            gpus_in("cpu=4,gres/gpu:v100=1,gres/gpu:t4=2", Gres::Tres),
            Some((3, None))
        );
        assert_eq!(gpus_in("cpu=4,mem=8G", Gres::Tres), None);
        assert_eq!(gpus_in("gpu:2", Gres::Legacy), Some((2, None)));
        assert_eq!(
            gpus_in("gpu:tesla:4(IDX:0-3)", Gres::Legacy),
            Some((4, Some("tesla".into())))
        );
        assert_eq!(cpus_in_tres("cpu=16,mem=1G"), Some(16));
    }

    #[test]
    fn job_ids_and_arrays() {
        assert_eq!(array_size("123"), Some(1));
        assert_eq!(array_size("123_4"), Some(1));
        assert_eq!(array_size("123_[1-5]"), Some(5));
        assert_eq!(array_size("123_[1,3,5-7%2]"), Some(5));
        assert_eq!(array_size("77+1"), Some(1));
        assert_eq!(array_size("abc"), None);
        assert_eq!(array_size("123_[5-1]"), None);
    }

    #[test]
    fn states_as_slurm_spells_them() {
        let o = slurm_state;
        assert_eq!(
            o("CANCELLED by 32874"),
            Some(("CANCELLED by …".into(), Outcome::Cancelled))
        );
        assert_eq!(
            o("CANCELLED"),
            Some(("CANCELLED".into(), Outcome::Cancelled))
        );
        assert_eq!(
            o("OUT_OF_MEMORY"),
            Some(("OUT_OF_MEMORY".into(), Outcome::Failed))
        );
        assert_eq!(o("NODE_FAIL"), Some(("NODE_FAIL".into(), Outcome::Failed)));
        assert_eq!(
            o("PREEMPTED"),
            Some(("PREEMPTED".into(), Outcome::Interrupted))
        );
        assert_eq!(
            o("RUNNING"),
            Some(("RUNNING".into(), Outcome::StillRunning))
        );
        assert_eq!(
            o("PENDING"),
            Some(("PENDING".into(), Outcome::NeverStarted))
        );
        assert_eq!(
            o("CANCELLED+"),
            Some(("CANCELLED".into(), Outcome::Cancelled))
        );
        assert_eq!(o("EXPLODED"), None);
    }

    #[test]
    fn a_header_is_known_by_its_names() {
        assert!(is_header("Submit|Start|End|Elapsed|State|AllocTRES"));
        assert!(is_header("jobid|state"));
        assert!(!is_header(
            "OUT_OF_MEMORY|67108865|1|100M|1||2022-02-18T17:32:41"
        ));
    }
}
