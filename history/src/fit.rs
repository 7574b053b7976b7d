//! From recorded jobs to job classes: one class per GPU count (the rarest merged beyond the
//! class limit), arrivals at the history's rate with its hour-of-day profile, durations on
//! the reference GPU as an empirical quantile table (or a log-normal), failures from the
//! outcomes, and a table that sets each class's observed figures beside the simulated ones.

use super::clock::Clock;
use super::record::{canonical_gpu, JobRecord, Outcome, StateCount};
use super::{BadRow, DurationFit, HistoryError, ImportOptions, Read, SourceFormat};
use gpucost_model::model::gpus;
use gpucost_model::model::scenario::{
    limits, Arrivals, Duration, FailureKind, Failures, JobClass, ReplayJob, DAY_S, HOUR_S,
};
use gpucost_model::model::stats::quantile_sorted;
use serde::{Deserialize, Serialize};

/// Bins of an empirical duration table when the history has few classes: a bin closes when
/// it holds 1/64 of the class's jobs or 1/64 of its run time, whichever comes first, so the
/// long jobs that carry the cost get bins of their own. At most twice as many bins, so at
/// most 257 points.
pub const TABLE_BINS_MAX: usize = 64;
/// Fewest bins per class, however many classes share a link.
pub const TABLE_BINS_MIN: usize = 8;

/// Bins per class for `classes` classes: 64 each up to 4 classes, fewer beyond so that a
/// link holding every class stays short.
pub fn table_bins(classes: usize) -> usize {
    (256 / classes.max(1)).clamp(TABLE_BINS_MIN, TABLE_BINS_MAX)
}

/// Jobs a class needs for an hour-of-day and day-of-week profile of its own (10 a hour on
/// average); classes with fewer share the whole history's.
pub const OWN_PROFILE_MIN_JOBS: usize = 240;

/// The team of the class of a GPU count that holds the teams without a class of their own
/// (one class per team beyond the class limit); its name adds how many teams it holds.
pub const OTHER_TEAMS: &str = "(other teams)";
/// The team of jobs whose history names none (no Account, User or team).
pub const NO_TEAM: &str = "(no team)";

/// Days of history a day-of-week profile needs (each day of the week seen twice); shorter
/// histories have every day alike.
pub const WEEKDAY_PROFILE_MIN_DAYS: f64 = 14.0;

/// How one fitted class matches its jobs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassFit {
    /// The class's name.
    pub name: String,
    /// GPUs per job (a fraction below one: a share of one GPU, as a history's `gpu_milli`).
    pub gpus_per_job: f64,
    /// The team whose jobs these are, with one class per team ([`ImportOptions::team_classes`]);
    /// [`OTHER_TEAMS`] for the teams without a class of their own, [`NO_TEAM`] for jobs
    /// whose history names none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// For the class of the teams without a class of their own, how many teams it holds;
    /// else 0.
    #[serde(default)]
    pub other_teams: usize,
    /// Jobs in this class.
    pub jobs: usize,
    /// Of those, still running when the history was taken (run time a lower bound).
    pub censored: usize,
    /// Of those, asking for a share of one GPU.
    pub fractional: usize,
    /// Fitted mean jobs per day.
    pub per_day: f64,
    /// Observed run time on the reference GPU, hours: mean, median, p90, p99.
    pub observed_hours: Moments,
    /// The same of the distribution the simulation samples.
    pub simulated_hours: Moments,
    /// Reference-GPU-hours a day the jobs ran in the history.
    pub observed_gpu_hours_per_day: f64,
    /// Reference-GPU-hours a day the fitted class submits (rate × GPUs × simulated mean).
    pub simulated_gpu_hours_per_day: f64,
    /// Kolmogorov–Smirnov distance between the observed and simulated run times (0–1).
    pub ks_distance: f64,
    /// The class has its own hour-of-day and day-of-week profile (else the whole history's).
    pub own_profile: bool,
    /// Jobs with a known outcome (succeeded or failed).
    pub with_outcome: usize,
    /// Of those, failed.
    pub failed: usize,
}

/// A run-time distribution's mean and quantiles, hours.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// Fitted job classes and what they were fitted from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryFit {
    /// The reader used.
    pub format: SourceFormat,
    /// How the file's times count.
    pub clock: Clock,
    /// The fitted classes, most frequent first.
    pub classes: Vec<JobClass>,
    /// One entry per class, same order.
    pub fits: Vec<ClassFit>,
    /// Records read (sacct: allocations and steps).
    pub rows: usize,
    /// Jobs in the classes.
    pub used: usize,
    /// Jobs submitted that never started (not in the classes).
    pub never_started: usize,
    /// sacct steps folded into their allocations.
    pub steps_folded: usize,
    /// Blank and comment lines skipped.
    pub lines_skipped: usize,
    /// Records skipped, by line.
    pub bad_rows: Vec<BadRow>,
    /// Each written state, what it became, and how many jobs.
    pub states: Vec<StateCount>,
    /// CPUs taken as one GPU, when the history counts CPUs only.
    pub gpus_from_cpus: Option<u32>,
    /// The window arrival rates are taken over, days: the arrivals' span widened by one mean
    /// gap (n − 1 gaps are seen between n jobs), at least an hour.
    pub window_days: f64,
    /// The history's own span, days: from its first arrival to its last time (an arrival, or
    /// the end of a run), at least an hour: a replay's horizon, and what the notes say it
    /// covers. Absent in a fit written before it (reads 0).
    #[serde(default)]
    pub span_days: f64,
    /// Share of the jobs submitted in each hour of the day (sums to 1; empty without a clock).
    pub hourly_share: Vec<f64>,
    /// Jobs a day on each day of the week, Monday first, relative to the mean day (empty
    /// without a clock or under [`WEEKDAY_PROFILE_MIN_DAYS`] of history).
    #[serde(default)]
    pub weekday_weights: Vec<f64>,
    /// GPU models seen and how many jobs each.
    pub gpu_models: Vec<(String, usize)>,
    /// How run times became durations.
    pub durations: DurationFit,
    /// The queue wait the jobs had (submission to start), where the file has both times.
    pub observed_queue_wait: Option<WaitSummary>,
    /// Assumptions and adjustments, one sentence each.
    pub notes: Vec<String>,
}

impl HistoryFit {
    /// The fit in plain sentences: what was read, one line per class, the states, the notes.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Read {} records as {}: {} jobs in {} classes, {} skipped; {} of arrivals.",
            self.rows,
            self.format.label(),
            self.used,
            self.classes.len(),
            self.bad_rows.len(),
            window_text(self.span_days)
        )];
        for f in &self.fits {
            let failures = if f.with_outcome > 0 {
                format!("{} of {} runs failed", f.failed, f.with_outcome)
            } else {
                "no outcomes".to_string()
            };
            lines.push(format!(
                "{}: {} jobs, {:.3}/day; hours observed / simulated: mean {:.3} / {:.3}, \
                 p50 {:.3} / {:.3}, p90 {:.3} / {:.3}, p99 {:.3} / {:.3}; GPU-h/day {:.2} / {:.2}; \
                 KS {:.3}; {failures}.",
                f.name,
                f.jobs,
                f.per_day,
                f.observed_hours.mean,
                f.simulated_hours.mean,
                f.observed_hours.p50,
                f.simulated_hours.p50,
                f.observed_hours.p90,
                f.simulated_hours.p90,
                f.observed_hours.p99,
                f.simulated_hours.p99,
                f.observed_gpu_hours_per_day,
                f.simulated_gpu_hours_per_day,
                f.ks_distance
            ));
        }
        if !self.weekday_weights.is_empty() {
            let days: Vec<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
                .iter()
                .zip(&self.weekday_weights)
                .map(|(d, w)| format!("{d} {w:.2}"))
                .collect();
            lines.push(format!(
                "Jobs a day by day of the week, relative to the mean day: {}.",
                days.join(", ")
            ));
        }
        if let Some(w) = &self.observed_queue_wait {
            lines.push(format!(
                "Observed queue wait (submission to start) of {} jobs: mean {:.1} min, p50 {:.1} \
                 min, p95 {:.1} min.",
                w.jobs, w.mean_min, w.p50_min, w.p95_min
            ));
        }
        if !self.states.is_empty() {
            let states: Vec<String> = self
                .states
                .iter()
                .map(|s| format!("{} {} → {}", s.written, s.jobs, s.outcome.treatment()))
                .collect();
            lines.push(format!("States: {}.", states.join("; ")));
        }
        lines.extend(self.notes.iter().cloned());
        lines
    }
}

/// The queue wait recorded in a history: submission to start, minutes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WaitSummary {
    /// Jobs with both times.
    pub jobs: usize,
    /// Mean, minutes.
    pub mean_min: f64,
    /// Median, minutes.
    pub p50_min: f64,
    /// 95th percentile, minutes.
    pub p95_min: f64,
}

impl WaitSummary {
    /// Of these waits in seconds (`None` when there are none).
    pub fn of(mut waits_s: Vec<f64>) -> Option<WaitSummary> {
        if waits_s.is_empty() {
            return None;
        }
        waits_s.sort_by(f64::total_cmp);
        let minutes = |s: f64| s / 60.0;
        Some(WaitSummary {
            jobs: waits_s.len(),
            mean_min: minutes(waits_s.iter().sum::<f64>() / waits_s.len() as f64),
            p50_min: minutes(quantile_sorted(&waits_s, 0.5)),
            p95_min: minutes(quantile_sorted(&waits_s, 0.95)),
        })
    }
}

/// A window's length: days from one day up, hours below.
pub fn window_text(days: f64) -> String {
    if days >= 1.0 {
        format!("{days:.1} days")
    } else {
        format!("{:.1} hours", days * 24.0)
    }
}

/// One job the fit uses.
struct Job<'a> {
    record: &'a JobRecord,
    arrival_s: i64,
    hour: Option<u8>,
    weekday: Option<u8>,
    reference_hours: f64,
}

/// Fits classes to what a reader found.
pub fn fit_records(
    read: Read,
    template: &JobClass,
    reference_gpu: &str,
    options: &ImportOptions,
) -> Result<HistoryFit, HistoryError> {
    fit_records_with_jobs(read, template, reference_gpu, options).map(|(fit, _)| fit)
}

/// [`fit_records`], and every job the classes were fitted on as a replay job: its arrival
/// from the first one's, its class, its run time on the reference GPU, whether it failed.
pub fn fit_records_with_jobs(
    read: Read,
    template: &JobClass,
    reference_gpu: &str,
    options: &ImportOptions,
) -> Result<(HistoryFit, Vec<ReplayJob>), HistoryError> {
    let Read {
        format,
        clock,
        records,
        mut bad_rows,
        lines_skipped,
        records_read,
        steps_folded,
        mut states,
        gpus_from_cpus,
        mut notes,
    } = read;
    let never_started = records.iter().filter(|r| !r.outcome.ran()).count();
    let mut models: Vec<(String, usize)> = Vec::new();
    let mut unknown_models: Vec<String> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut zero_runs = 0usize;
    for r in &records {
        if !r.outcome.ran() {
            continue;
        }
        let Some(run_s) = r.run_s else { continue };
        let Some(arrival) = r.arrival() else { continue };
        if run_s <= 0.0 {
            zero_runs += 1;
            continue;
        }
        let speed = match &r.gpu_model {
            Some(m) => {
                let known = canonical_gpu(m);
                let name = known.map_or_else(|| m.clone(), str::to_string);
                // A model the GPU table lacks (or a reference GPU it lacks) is counted as
                // unknown and reported, at the reference's speed.
                let known = known.and_then(|k| gpus::relative_throughput(k, reference_gpu));
                match models.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, c)) => *c += 1,
                    None => models.push((name.clone(), 1)),
                }
                match known {
                    Some(speed) => speed,
                    None => {
                        if !unknown_models.contains(&name) && unknown_models.len() < 10 {
                            unknown_models.push(name);
                        }
                        1.0
                    }
                }
            }
            None => 1.0,
        };
        jobs.push(Job {
            record: r,
            arrival_s: arrival.s,
            hour: arrival.hour,
            weekday: arrival.weekday,
            reference_hours: run_s * speed / HOUR_S,
        });
    }
    bad_rows.sort_by_key(|b| b.line);
    if zero_runs > 0 {
        notes.push(format!(
            "{zero_runs} job(s) ran for 0 s (ended before they started, e.g. cancelled while \
             queued): counted with those that never started, not in the classes."
        ));
    }
    if jobs.len() < 2 {
        return Err(HistoryError::TooFewJobs {
            used: jobs.len(),
            bad_rows,
        });
    }
    let (span_days, window_days) = observed_days(&jobs, &mut notes);
    let exposure = weekday_exposure(&jobs, span_days, clock, &mut notes);
    let shared = profile(jobs.iter(), exposure.as_ref());
    notes.extend(reading_notes(
        &jobs,
        clock,
        &unknown_models,
        !models.is_empty(),
        reference_gpu,
        gpus_from_cpus,
        never_started,
        steps_folded,
        lines_skipped,
        options,
    ));
    let never_started = never_started + zero_runs;
    let (kept, groups) = group_by_gpu_count(&jobs, &mut notes);
    let (kept, groups): (Vec<(u32, Option<String>, usize)>, _) = if options.team_classes {
        split_by_team(&kept, groups, &mut notes)
    } else {
        (kept.into_iter().map(|g| (g, None, 0)).collect(), groups)
    };
    let first_arrival = jobs.iter().map(|j| j.arrival_s).min().unwrap_or(0);
    let mut replay: Vec<ReplayJob> = groups
        .iter()
        .enumerate()
        .flat_map(|(class, group)| {
            group.iter().map(move |j| ReplayJob {
                arrival_s: j.arrival_s - first_arrival,
                class: class as u32,
                run_s: j.reference_hours * HOUR_S,
                failed: j.record.outcome == Outcome::Failed,
            })
        })
        .collect();
    replay.sort_by_key(|j| j.arrival_s);
    let mut classes = Vec::new();
    let mut fits = Vec::new();
    for ((gpus, team, teams), group) in kept.iter().zip(&groups) {
        let (class, fit) = fit_class(
            table_bins(kept.len()),
            *gpus,
            team.as_deref().map(|t| (t, *teams)),
            group,
            template,
            window_days,
            clock,
            shared.as_ref(),
            exposure.as_ref(),
            options.durations,
        );
        classes.push(class);
        fits.push(fit);
    }
    // Names that repeat (teams alike in their first 40 characters) are numbered.
    for i in 1..classes.len() {
        let name = classes[i].name.clone();
        let earlier = classes[..i].iter().filter(|c| c.name == name).count();
        if earlier > 0 {
            let numbered = format!("{name} ({})", earlier + 1);
            classes[i].name.clone_from(&numbered);
            fits[i].name = numbered;
        }
    }
    let shared_profile: Vec<&str> = fits
        .iter()
        .filter(|f| !f.own_profile)
        .map(|f| f.name.as_str())
        .collect();
    if clock == Clock::Absolute && !shared_profile.is_empty() {
        notes.push(format!(
            "{} had fewer than {OWN_PROFILE_MIN_JOBS} jobs and use(s) the whole history's hour-of-day and day-of-week profile.",
            shared_profile.join("; ")
        ));
    }
    models.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    states.sort_by(|a, b| b.jobs.cmp(&a.jobs).then_with(|| a.written.cmp(&b.written)));
    let hourly_share = shared
        .as_ref()
        .map(|p| {
            let n: f64 = p.per_hour.iter().sum();
            p.per_hour.iter().map(|c| c / n).collect()
        })
        .unwrap_or_default();
    let weekday_weights = shared
        .as_ref()
        .and_then(|p| p.per_weekday.as_ref())
        .map(weekday_weights)
        .unwrap_or_default();
    let fit = HistoryFit {
        format,
        clock,
        classes,
        fits,
        rows: records_read,
        used: jobs.len(),
        never_started,
        steps_folded,
        lines_skipped,
        bad_rows,
        states,
        gpus_from_cpus,
        window_days,
        span_days,
        hourly_share,
        weekday_weights,
        gpu_models: models,
        durations: options.durations,
        observed_queue_wait: WaitSummary::of(
            jobs.iter()
                .filter_map(|j| match (j.record.submit, j.record.start) {
                    (Some(a), Some(b)) if b.s >= a.s => Some((b.s - a.s) as f64),
                    _ => None,
                })
                .collect(),
        ),
        notes,
    };
    Ok((fit, replay))
}

/// The history's span and the arrival rates' window, days ([`HistoryFit::span_days`],
/// [`HistoryFit::window_days`]); a note when the span is under a week.
fn observed_days(jobs: &[Job], notes: &mut Vec<String>) -> (f64, f64) {
    let first = jobs.iter().map(|j| j.arrival_s).min().unwrap_or(0);
    let last = jobs.iter().map(|j| j.arrival_s).max().unwrap_or(0);
    let n = jobs.len() as f64;
    let window_s = ((last - first) as f64 * n / (n - 1.0)).max(HOUR_S);
    // The last time: an arrival, or the end of a run (on the arrivals' clock; a run with no
    // start time from its arrival, the soonest it can have ended).
    let last_end = jobs
        .iter()
        .filter_map(|j| {
            let run = j.record.run_s?;
            let waited = match (j.record.start, j.record.arrival()) {
                (Some(start), Some(arrival)) => (start.s - arrival.s).max(0),
                _ => 0,
            };
            Some(j.arrival_s + waited + run.ceil() as i64)
        })
        .max()
        .unwrap_or(last);
    let span_days = ((last.max(last_end) - first) as f64).max(HOUR_S) / DAY_S;
    if span_days < 7.0 {
        notes.push(format!(
            "The history covers {span_days:.1} days; rates and the hour-of-day profile are rough below a week."
        ));
    }
    (span_days, window_s / DAY_S)
}

/// Where a history's arrivals fall in the day and in the week.
#[derive(Debug, Clone, PartialEq)]
struct Profile {
    /// Arrivals in each hour of the day.
    per_hour: [f64; 24],
    /// Arrivals a day on each day of the week, Monday first (arrivals over the days of that
    /// weekday the window covers); `None` under [`WEEKDAY_PROFILE_MIN_DAYS`].
    per_weekday: Option<[f64; 7]>,
}

/// The profile of `jobs`, or `None` when the times have no clock. `exposure` is how many days
/// of each weekday the window covers.
fn profile<'a>(
    jobs: impl Iterator<Item = &'a Job<'a>>,
    exposure: Option<&[f64; 7]>,
) -> Option<Profile> {
    let mut per_hour = [0.0; 24];
    let mut per_weekday = [0.0; 7];
    let mut any = false;
    for j in jobs {
        if let Some(h) = j.hour {
            per_hour[usize::from(h)] += 1.0;
            any = true;
        }
        if let Some(d) = j.weekday {
            per_weekday[usize::from(d) % 7] += 1.0;
        }
    }
    let per_weekday = exposure.map(|days| {
        let mut rate = [0.0; 7];
        for d in 0..7 {
            rate[d] = if days[d] > 0.0 {
                per_weekday[d] / days[d]
            } else {
                0.0
            };
        }
        rate
    });
    any.then_some(Profile {
        per_hour,
        per_weekday,
    })
}

/// Days of each weekday (Monday first) in the history's span, which starts at the first
/// arrival (local clock) and lasts `window_days`; `None` without a clock or under
/// [`WEEKDAY_PROFILE_MIN_DAYS`] (with a note).
fn weekday_exposure(
    jobs: &[Job],
    window_days: f64,
    clock: Clock,
    notes: &mut Vec<String>,
) -> Option<[f64; 7]> {
    let first = jobs.iter().min_by_key(|j| j.arrival_s)?;
    let (Clock::Absolute, Some(hour), Some(weekday)) = (clock, first.hour, first.weekday) else {
        return None;
    };
    if window_days < WEEKDAY_PROFILE_MIN_DAYS {
        notes.push(format!(
            "The history covers {window_days:.1} days, under the {WEEKDAY_PROFILE_MIN_DAYS:.0} a \
             day-of-week profile needs: every day of the week has the same rate."
        ));
        return None;
    }
    // Seconds into the local week of the first arrival (zones are whole hours from UTC, or
    // the minutes are lost to at most an hour's shift of the window).
    let mut at =
        i64::from(weekday) * 86_400 + i64::from(hour) * 3_600 + first.arrival_s.rem_euclid(3_600);
    let mut left = window_days * DAY_S;
    let mut days = [0.0; 7];
    while left > 0.0 {
        let to_midnight = (86_400 - at.rem_euclid(86_400)) as f64;
        let take = left.min(to_midnight);
        days[((at / 86_400) % 7) as usize] += take / DAY_S;
        at += take.ceil() as i64;
        left -= take;
    }
    Some(days)
}

/// Arrivals per hour as weights with mean 1, to three decimals (short in a link, exact
/// enough for a rate).
fn weights(counts: &[f64; 24]) -> Vec<f64> {
    let n: f64 = counts.iter().sum();
    counts
        .iter()
        .map(|c| (c / n * 24.0 * 1000.0).round() / 1000.0)
        .collect()
}

/// Arrivals a day per weekday as weights with mean 1, to three decimals.
fn weekday_weights(rates: &[f64; 7]) -> Vec<f64> {
    let mean = rates.iter().sum::<f64>() / 7.0;
    rates
        .iter()
        .map(|r| {
            if mean > 0.0 {
                (r / mean * 1000.0).round() / 1000.0
            } else {
                1.0
            }
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn reading_notes(
    jobs: &[Job],
    clock: Clock,
    unknown_models: &[String],
    has_gpu_model: bool,
    reference_gpu: &str,
    gpus_from_cpus: Option<u32>,
    never_started: usize,
    steps_folded: usize,
    lines_skipped: usize,
    options: &ImportOptions,
) -> Vec<String> {
    let mut notes = Vec::new();
    match clock {
        Clock::Absolute => notes.push(format!(
            "Times without a zone were read as UTC{}; hours of day are as written (in that zone for Unix times).",
            super::format_offset(options.utc_offset_s)
        )),
        Clock::TraceSeconds => notes.push(
            "Times are seconds from the trace's start, with no clock time: arrivals are spread \
             evenly over the day (Poisson at the history's rate)."
                .to_string(),
        ),
    }
    if let Some(n) = gpus_from_cpus {
        let given = if options.cpus_per_gpu.is_some() {
            "as given"
        } else {
            "the default; --cpus-per-gpu or the page's field changes it"
        };
        notes.push(format!(
            "The history counts CPUs, not GPUs: every {n} CPUs (or part of {n}) were taken as one GPU ({given})."
        ));
    }
    let censored = jobs
        .iter()
        .filter(|j| j.record.outcome == Outcome::StillRunning)
        .count();
    if censored > 0 {
        notes.push(format!(
            "{censored} job(s) were still running when the history was taken: their run time so far is used, a lower bound."
        ));
    }
    let fractional = jobs.iter().filter(|j| j.record.gpu_share.is_some()).count();
    if fractional > 0 {
        notes.push(format!(
            "{fractional} job(s) asked for a share of one GPU (gpu_milli below 1000): their classes ask for those fractions, which share GPUs on platforms that share them (MIG or time-slicing, on Kubernetes) and hold a whole GPU elsewhere; such a class asks for its share of the template's GPU memory per GPU."
        ));
    }
    if never_started > 0 {
        notes.push(format!(
            "{never_started} job(s) were submitted but never started: they are not in the classes (their run time is unknown)."
        ));
    }
    if steps_folded > 0 {
        notes.push(format!(
            "{steps_folded} job step(s) (.batch, .extern, .0…) were folded into their allocations."
        ));
    }
    if lines_skipped > 0 {
        notes.push(format!(
            "{lines_skipped} blank or comment line(s) were skipped."
        ));
    }
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
    if !jobs
        .iter()
        .any(|j| matches!(j.record.outcome, Outcome::Succeeded | Outcome::Failed))
    {
        notes.push(
            "No outcome column (or no known outcome): the failure settings were kept.".to_string(),
        );
    }
    notes.push(match options.durations {
        DurationFit::Empirical => format!(
            "Durations are empirical: a quantile table through the observed run times, in bins \
             of at most 1/{0} of a class's jobs or of its run time (so long jobs get bins of \
             their own), each keeping its jobs' mean.",
            TABLE_BINS_MAX
        ),
        DurationFit::LogNormal => {
            "Durations are log-normal through the observed median and 90th percentile; its mean \
             can differ from the observed one (see the table)."
                .to_string()
        }
    });
    notes
}

/// GPUs a job asks for, in milli-GPUs: its share of one GPU, or its GPUs.
fn milli_of(j: &Job) -> u32 {
    match j.record.gpu_share {
        // Up to the next milli-GPU: a job never gets less than it asked for.
        Some(share) => ((share * 1_000.0 - 1e-9).ceil() as u32).clamp(1, 999),
        None => j.record.gpus.saturating_mul(1_000),
    }
}

/// A GPU count in milli-GPUs as the calculator writes it: 8, or 0.47.
fn gpus_of(milli: u32) -> f64 {
    f64::from(milli) / 1_000.0
}

/// One class per GPU count (a share of one GPU counting as its own), most frequent first;
/// when there are more than the class limit and some are shares, the shares are first
/// rounded up to the next tenth of a GPU (a job never gets less than it asked for); beyond
/// the limit still, the rarest sizes join the kept size nearest on a log scale. The kept
/// counts, in milli-GPUs, and the jobs of each.
fn group_by_gpu_count<'a, 'b>(
    jobs: &'b [Job<'a>],
    notes: &mut Vec<String>,
) -> (Vec<u32>, Vec<Vec<&'b Job<'a>>>) {
    let count = |key: &dyn Fn(&Job) -> u32| {
        let mut sizes: Vec<(u32, usize)> = Vec::new();
        for j in jobs {
            let milli = key(j);
            match sizes.iter_mut().find(|(g, _)| *g == milli) {
                Some((_, c)) => *c += 1,
                None => sizes.push((milli, 1)),
            }
        }
        sizes
    };
    let exact = count(&milli_of);
    let shares = exact.iter().filter(|(m, _)| *m < 1_000).count();
    let tenths = |j: &Job| -> u32 {
        let m = milli_of(j);
        if m < 1_000 {
            m.div_ceil(100) * 100
        } else {
            m
        }
    };
    let coarse = exact.len() > limits::JOB_CLASSES_MAX && shares > 0;
    let key: &dyn Fn(&Job) -> u32 = if coarse { &tenths } else { &milli_of };
    let mut sizes = if coarse {
        let rounded = count(key);
        notes.push(format!(
            "{} GPU counts seen, {shares} of them shares of one GPU: over the class limit of \
             {}, the shares were rounded up to the next tenth of a GPU ({} counts then).",
            exact.len(),
            limits::JOB_CLASSES_MAX,
            rounded.len()
        ));
        rounded
    } else {
        exact
    };
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
    // A share of a GPU joins the smallest kept size at or above it (never less than it
    // asked for); a GPU count, the nearest on a log scale.
    let class_of = |gpus: u32| -> usize {
        kept.iter().position(|&g| g == gpus).unwrap_or_else(|| {
            let above = (0..kept.len())
                .filter(|&i| kept[i] >= gpus)
                .min_by_key(|&i| kept[i]);
            match above {
                Some(i) if gpus < 1_000 => i,
                _ => nearest_on_log_scale(&kept, gpus),
            }
        })
    };
    let mut groups: Vec<Vec<&Job>> = vec![Vec::new(); kept.len()];
    for j in jobs {
        groups[class_of(key(j))].push(j);
    }
    (kept, groups)
}

/// Each GPU count's jobs split by team (a sacct history's Account, else User; a CSV's team
/// column; an SWF log's user; [`NO_TEAM`] where none is written): one class per team and
/// GPU count, the largest first, as many as the class limit allows; the teams left over
/// share one class per GPU count, [`OTHER_TEAMS`]. The classes, each with its GPU count,
/// team and, for a shared class, how many teams it holds (0 for a team's own class), and
/// the jobs of each.
#[allow(clippy::type_complexity)]
fn split_by_team<'a, 'b>(
    kept: &[u32],
    groups: Vec<Vec<&'b Job<'a>>>,
    notes: &mut Vec<String>,
) -> (Vec<(u32, Option<String>, usize)>, Vec<Vec<&'b Job<'a>>>) {
    let team_of = |j: &Job<'a>| -> &'a str {
        j.record
            .team
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(NO_TEAM)
    };
    // (size index, team, jobs), largest first.
    let mut splits: Vec<(usize, &'a str, Vec<&'b Job<'a>>)> = Vec::new();
    let mut teams: std::collections::HashSet<&'a str> = std::collections::HashSet::new();
    for (size, group) in groups.into_iter().enumerate() {
        let mut by_team: std::collections::HashMap<&'a str, usize> =
            std::collections::HashMap::new();
        for j in group {
            let team = team_of(j);
            teams.insert(team);
            let at = *by_team.entry(team).or_insert_with(|| {
                splits.push((size, team, Vec::new()));
                splits.len() - 1
            });
            splits[at].2.push(j);
        }
    }
    splits.sort_by(|a, b| {
        b.2.len()
            .cmp(&a.2.len())
            .then_with(|| (a.0, a.1).cmp(&(b.0, b.1)))
    });
    // Give splits classes of their own, largest first, while the classes so far (own ones
    // plus one per GPU count with teams left over) stay within the limit.
    let mut own = vec![false; splits.len()];
    let mut not_own = vec![0usize; kept.len()];
    for s in &splits {
        not_own[s.0] += 1;
    }
    let mut sizes_left_over = not_own.iter().filter(|n| **n > 0).count();
    let mut own_count = 0;
    for (i, s) in splits.iter().enumerate() {
        let empties = usize::from(not_own[s.0] == 1);
        if own_count + 1 + sizes_left_over - empties <= limits::JOB_CLASSES_MAX {
            own[i] = true;
            own_count += 1;
            not_own[s.0] -= 1;
            sizes_left_over -= empties;
        }
    }
    let mut classes: Vec<(u32, Option<String>, usize)> = Vec::new();
    let mut jobs: Vec<Vec<&'b Job<'a>>> = Vec::new();
    let mut merged = 0usize;
    let mut others: Vec<(usize, usize)> = Vec::new(); // (size index, class index)
    for ((size, team, list), own) in splits.into_iter().zip(own) {
        if own {
            classes.push((kept[size], Some(team.to_string()), 0));
            jobs.push(list);
            continue;
        }
        merged += 1;
        match others.iter().find(|(s, _)| *s == size) {
            Some(&(_, c)) => {
                jobs[c].extend(list);
                classes[c].2 += 1;
            }
            None => {
                // A shared class: its count is the teams it holds, this one first.
                others.push((size, classes.len()));
                classes.push((kept[size], Some(OTHER_TEAMS.to_string()), 1));
                jobs.push(list);
            }
        }
    }
    let n = teams.len();
    notes.push(if merged > 0 {
        format!(
            "One class per team and GPU count ({n} teams) up to the class limit of {}: {merged} \
             smaller team-and-GPU-count groups share a class per GPU count, \"{OTHER_TEAMS}\".",
            limits::JOB_CLASSES_MAX
        )
    } else {
        format!("One class per team and GPU count ({n} teams).")
    });
    if teams.len() == 1 && teams.contains(NO_TEAM) {
        notes.push(
            "The history names no team (no Account, User or team column, or all empty): one \
             class per GPU count, as without the switch."
                .to_string(),
        );
    }
    (classes, jobs)
}

/// The empirical duration through sorted run times: bins of consecutive jobs, each closed
/// when it holds 1/`bins` of the jobs or of their total run time, or before a job too long
/// for the bin's linear pieces to keep its mean; each bin runs from its shortest job to its
/// longest (a gap to the bin before is a step: two points at one probability), with a point
/// at its middle probability set so the bin's two linear pieces have the bin's mean (kept
/// between its ends). Points to four significant digits, probabilities to six places; what
/// rounding and keeping middles between their ends moved, the middles take back from the
/// top down, then the last point, so the table's mean is the observed mean. A table of more
/// points than a scenario holds is made again with half the bins.
pub fn empirical_duration(sorted: &[f64], bins: usize) -> Duration {
    let fits = |table: &Duration| match table {
        Duration::Empirical { quantile_hours, .. } => {
            quantile_hours.len() <= limits::QUANTILE_POINTS_MAX
        }
        _ => true,
    };
    let mut b = bins.max(1);
    loop {
        let table = empirical_table(sorted, b, true);
        if fits(&table) {
            return table;
        }
        if b == 1 {
            // Too many skewed bins even so: bins by count and work alone.
            return empirical_table(sorted, bins.max(1), false);
        }
        b /= 2;
    }
}

/// [`empirical_duration`]'s table with `bins`; with `split_skewed`, a bin closes before a
/// job its pieces could not come down to the mean with.
fn empirical_table(sorted: &[f64], bins: usize, split_skewed: bool) -> Duration {
    let n = sorted.len();
    if n == 0 {
        return Duration::Fixed { hours: 0.0 };
    }
    if sorted[0] == sorted[n - 1] {
        return Duration::Fixed { hours: sorted[0] };
    }
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    for &x in sorted {
        prefix.push(prefix.last().copied().unwrap_or(0.0) + x);
    }
    let total = prefix[n];
    let bins = bins.max(1) as f64;
    let mut edges = vec![0usize];
    for r in 1..=n {
        let from = *edges.last().unwrap_or(&0);
        // A job so much longer than the bin's others that the bin's two linear pieces, from
        // its shortest job to it, could not come down to the bin's mean ((3·lo + hi)/4 is
        // the least they give) starts a bin of its own.
        if split_skewed && r - 1 > from {
            let mean = (prefix[r] - prefix[from]) / (r - from) as f64;
            if (3.0 * sorted[from] + sorted[r - 1]) / 4.0 > mean * (1.0 + 1e-9) {
                edges.push(r - 1);
            }
        }
        let from = *edges.last().unwrap_or(&0);
        let count = (r - from) as f64;
        let work = prefix[r] - prefix[from];
        if r == n || count >= n as f64 / bins || work >= total / bins {
            edges.push(r);
        }
    }
    let round_p = |p: f64| (p * 1e6).round() / 1e6;
    let mut points = vec![round_significant(sorted[0], 4)];
    let mut probabilities = vec![0.0];
    // Each bin's (first, middle, last) point.
    let mut at: Vec<(usize, usize, usize)> = Vec::new();
    for pair in edges.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (lo, hi) = (sorted[a], sorted[b - 1]);
        let lo_point = round_significant(lo, 4);
        if lo_point > points[points.len() - 1] {
            points.push(lo_point);
            probabilities.push(round_p(a as f64 / n as f64));
        }
        let first = points.len() - 1;
        let mean = (prefix[b] - prefix[a]) / (b - a) as f64;
        // (lo + 2·middle + hi)/4 is the mean of the two linear pieces of equal probability.
        let middle = ((4.0 * mean - lo - hi) / 2.0).clamp(lo, hi);
        points.push(round_significant(middle, 4));
        probabilities.push(round_p((a + b) as f64 / 2.0 / n as f64));
        points.push(round_significant(hi, 4));
        probabilities.push(round_p(b as f64 / n as f64));
        at.push((first, first + 1, first + 2));
    }
    // Rounding may make a point fall below the one before: keep them ascending.
    for i in 1..points.len() {
        points[i] = points[i].max(points[i - 1]);
    }
    let end = probabilities.len() - 1;
    probabilities[end] = 1.0;
    // What clamping and rounding moved, the bins' middles take back from the top down (each
    // within its bin's ends, so the points stay ascending), then the last point if the
    // table is still short.
    let observed = total / n as f64;
    let mut residual = observed - crate::model_mean(&points, &probabilities);
    for &(first, mid, last) in at.iter().rev() {
        if residual.abs() <= observed * 1e-12 {
            break;
        }
        let (lo, hi) = (points[first], points[last]);
        let width = probabilities[last] - probabilities[first];
        if width <= 0.0 {
            continue;
        }
        // The middle point carries half its bin's probability.
        let wanted = points[mid] + 2.0 * residual / width;
        let middle = wanted.clamp(lo, hi);
        residual -= (middle - points[mid]) * width / 2.0;
        points[mid] = middle;
    }
    let last = points.len() - 1;
    let width = probabilities[last] - probabilities[last - 1];
    if residual > 0.0 && width > 0.0 {
        points[last] += 2.0 * residual / width;
    }
    Duration::Empirical {
        quantile_hours: points,
        probabilities,
    }
}

#[allow(clippy::too_many_arguments)]
fn fit_class(
    bins: usize,
    milli: u32,
    team: Option<(&str, usize)>,
    group: &[&Job],
    template: &JobClass,
    window_days: f64,
    clock: Clock,
    shared: Option<&Profile>,
    exposure: Option<&[f64; 7]>,
    durations: DurationFit,
) -> (JobClass, ClassFit) {
    let mut hours: Vec<f64> = group.iter().map(|j| j.reference_hours).collect();
    hours.sort_by(f64::total_cmp);
    let duration = match durations {
        DurationFit::Empirical => empirical_duration(&hours, bins),
        DurationFit::LogNormal => {
            let median = round_significant(quantile_sorted(&hours, 0.5), 4);
            let p90 = round_significant(quantile_sorted(&hours, 0.9), 4);
            if p90 > median {
                Duration::LogNormal {
                    median_hours: median,
                    p90_hours: p90,
                }
            } else {
                Duration::Fixed { hours: median }
            }
        }
    };
    let with_outcome = group
        .iter()
        .filter(|j| matches!(j.record.outcome, Outcome::Succeeded | Outcome::Failed))
        .count();
    let failed = group
        .iter()
        .filter(|j| j.record.outcome == Outcome::Failed)
        .count();
    let failures = if with_outcome > 0 {
        Failures {
            probability: round_significant(failed as f64 / with_outcome as f64, 3),
            kind: FailureKind::Transient,
            ..template.failures.clone()
        }
    } else {
        template.failures.clone()
    };
    let per_day = round_significant(group.len() as f64 / window_days, 4);
    let own = if group.len() >= OWN_PROFILE_MIN_JOBS {
        profile(group.iter().copied(), exposure)
    } else {
        None
    };
    let arrivals = match (clock, own.as_ref().or(shared)) {
        (Clock::Absolute, Some(profile)) => Arrivals::HourOfDay {
            per_day,
            hourly_weights: weights(&profile.per_hour),
            weekday_weights: profile.per_weekday.as_ref().map(weekday_weights),
        },
        _ => Arrivals::Poisson { per_day },
    };
    let gpus = gpus_of(milli);
    let name = match team {
        Some((_, merged)) if merged > 0 => format!("{gpus}-GPU jobs, {merged} other teams"),
        Some((team, _)) => format!("{gpus}-GPU jobs, {}", super::shorten(40, team)),
        None => format!("{gpus}-GPU jobs"),
    };
    let observed_mean = hours.iter().sum::<f64>() / hours.len() as f64;
    let g = gpus;
    let fit = ClassFit {
        name: name.clone(),
        gpus_per_job: gpus,
        team: team.map(|t| t.0.to_string()),
        other_teams: team.map_or(0, |t| t.1),
        jobs: group.len(),
        censored: group
            .iter()
            .filter(|j| j.record.outcome == Outcome::StillRunning)
            .count(),
        fractional: group
            .iter()
            .filter(|j| j.record.gpu_share.is_some())
            .count(),
        per_day,
        observed_hours: Moments {
            mean: observed_mean,
            p50: quantile_sorted(&hours, 0.5),
            p90: quantile_sorted(&hours, 0.9),
            p99: quantile_sorted(&hours, 0.99),
        },
        simulated_hours: Moments {
            mean: duration.mean_hours(),
            p50: duration.quantile_hours(0.5),
            p90: duration.quantile_hours(0.9),
            p99: duration.quantile_hours(0.99),
        },
        // Each job at the GPUs it asked for (a class may round shares up, or hold merged sizes).
        observed_gpu_hours_per_day: group
            .iter()
            .map(|j| f64::from(milli_of(j)) / 1_000.0 * j.reference_hours)
            .sum::<f64>()
            / window_days,
        simulated_gpu_hours_per_day: g * per_day * duration.mean_hours(),
        ks_distance: ks_distance(&hours, &duration),
        own_profile: own.is_some(),
        with_outcome,
        failed,
    };
    let class = JobClass {
        name,
        arrivals,
        duration,
        gpus_per_job: gpus,
        // A share of a GPU asks for that share of the template's memory per GPU.
        gpu_memory_gb: if gpus < 1.0 {
            round_significant(template.gpu_memory_gb * gpus, 3)
        } else {
            template.gpu_memory_gb
        },
        failures,
        ..template.clone()
    };
    (class, fit)
}

fn nearest_on_log_scale(kept: &[u32], gpus: u32) -> usize {
    let distance = |g: u32| (f64::from(g).ln() - f64::from(gpus).ln()).abs();
    (0..kept.len())
        .min_by(|&a, &b| distance(kept[a]).total_cmp(&distance(kept[b])))
        .unwrap_or(0)
}

/// The CDF of `duration` at `x` hours.
fn cdf(duration: &Duration, x: f64) -> f64 {
    match duration {
        Duration::Fixed { hours } => f64::from(u8::from(x >= *hours)),
        Duration::LogNormal {
            median_hours,
            p90_hours,
        } => {
            let sigma = gpucost_model::model::rng::lognormal_sigma(*median_hours, *p90_hours);
            if sigma == 0.0 {
                return f64::from(u8::from(x >= *median_hours));
            }
            let z = (libm::log(x) - libm::log(*median_hours)) / sigma;
            0.5 * (1.0 + libm::erf(z / std::f64::consts::SQRT_2))
        }
        Duration::Exponential { mean_hours } => 1.0 - libm::exp(-x / mean_hours),
        Duration::Empirical {
            quantile_hours: q,
            probabilities,
        } => {
            if x < q[0] {
                return 0.0;
            }
            if x >= q[q.len() - 1] {
                return 1.0;
            }
            let at = |i: usize| {
                if probabilities.len() == q.len() {
                    probabilities[i]
                } else {
                    i as f64 / (q.len() - 1) as f64
                }
            };
            // The last point at or below x; within its step the CDF is linear.
            let k = q.partition_point(|&p| p <= x) - 1;
            let width = q[k + 1] - q[k];
            let frac = if width > 0.0 { (x - q[k]) / width } else { 1.0 };
            at(k) + frac * (at(k + 1) - at(k))
        }
    }
}

/// Largest gap between the empirical distribution of `sorted` and `fitted`.
fn ks_distance(sorted: &[f64], fitted: &Duration) -> f64 {
    let n = sorted.len() as f64;
    sorted
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let f = cdf(fitted, x);
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
    fn the_empirical_table_keeps_the_mean_of_a_heavy_tail() {
        // 95 jobs of 0.1 h and 5 of 100 h: mean 5.095 h, median 0.1 h. With 64 bins a bin
        // closes at 2 jobs (≥ 100/64) or at 7.96 h of work (≥ 509.5/64): 47 bins of two 0.1 h
        // jobs, one of the last 0.1 h job and the first 100 h one (its pieces reach its mean,
        // 50.05: (3 · 0.1 + 100)/4 is below it), then a 100 h job each.
        let mut hours = vec![0.1; 95];
        hours.extend([100.0; 5]);
        let d = empirical_duration(&hours, 64);
        let Duration::Empirical {
            quantile_hours,
            probabilities,
        } = &d
        else {
            panic!("{d:?}")
        };
        assert_eq!(quantile_hours.len(), 2 * 52 + 1);
        assert_eq!(probabilities.len(), quantile_hours.len());
        // Every bin keeps its mean, so the table keeps 5.095 with nothing to stretch.
        assert!((d.mean_hours() - 5.095).abs() < 1e-9, "{}", d.mean_hours());
        assert_eq!(*quantile_hours.last().unwrap(), 100.0);
        assert_eq!(d.quantile_hours(0.5), 0.1);
        // The mixed bin spans 0.94–0.96 from 0.1 to 100; its middle (0.95) is its mean,
        // (4 · 50.05 − 0.1 − 100)/2 = 50.05.
        assert!((d.quantile_hours(0.95) - 50.05).abs() < 1e-9);
        assert_eq!(d.quantile_hours(0.97), 100.0);
    }

    #[test]
    fn a_gap_between_bins_is_a_step_and_a_skewed_bin_is_split() {
        // 30 jobs of 1 h, then one of 50 h and one of 1,000 h, 4 bins: by count a bin would
        // close at 8 jobs, by work at 270 h. The 50 h job cannot join the last six 1 h jobs
        // (the pieces from 1 to 50 give at least 13.25, their mean with it is 8): it starts a
        // bin, reached by a step from 1 h at 30/32, and the 1,000 h job joins it (the
        // pieces from 50 give at least 287.5, below their mean, 525, the bin's middle at
        // 31/32). The table keeps the mean, 1,080 / 32 = 33.75 h.
        let mut hours = vec![1.0; 30];
        hours.extend([50.0, 1_000.0]);
        let d = empirical_duration(&hours, 4);
        assert!((d.mean_hours() - 33.75).abs() < 1e-9, "{}", d.mean_hours());
        assert_eq!(d.quantile_hours(0.93), 1.0);
        assert_eq!(d.quantile_hours(1.0), 1_000.0);
        assert!((d.quantile_hours(31.0 / 32.0) - 525.0).abs() < 1e-9);
        let between = d.quantile_hours(30.5 / 32.0);
        assert!((between - 287.5).abs() < 1e-9, "{between}");
    }

    #[test]
    fn equal_run_times_are_a_fixed_duration() {
        assert_eq!(
            empirical_duration(&[2.0, 2.0, 2.0], 64),
            Duration::Fixed { hours: 2.0 }
        );
    }

    #[test]
    fn the_cdf_inverts_the_table() {
        for probabilities in [vec![], vec![0.0, 0.2, 0.9, 1.0]] {
            let d = Duration::Empirical {
                quantile_hours: vec![1.0, 2.0, 4.0, 8.0],
                probabilities,
            };
            for p in [0.0, 0.1, 1.0 / 3.0, 0.5, 0.9] {
                let x = d.quantile_hours(p);
                assert!((cdf(&d, x) - p).abs() < 1e-12, "{p}: {x} → {}", cdf(&d, x));
            }
        }
        // Equal steps: ((1+2) + (2+4) + (4+8)) / 2 / 3 = 3.5; at 0, 0.2, 0.9, 1:
        // 1.5·0.2 + 3·0.7 + 6·0.1 = 3.0.
        let even = Duration::Empirical {
            quantile_hours: vec![1.0, 2.0, 4.0, 8.0],
            probabilities: vec![],
        };
        assert_eq!(even.mean_hours(), 3.5);
        let given = Duration::Empirical {
            quantile_hours: vec![1.0, 2.0, 4.0, 8.0],
            probabilities: vec![0.0, 0.2, 0.9, 1.0],
        };
        assert!((given.mean_hours() - 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_link_with_sixteen_large_classes_stays_under_the_link_limit() {
        // 16 GPU counts of 2,000 heavy-tailed jobs each: the most points a fit can make.
        let mut csv = String::from("submit_time,duration_s,gpus\n");
        let mut x: u64 = 12345;
        for i in 0..32_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let seconds = 60 + x % 3_600 + if x.is_multiple_of(20) { x % 400_000 } else { 0 };
            csv += &format!("{},{seconds},{}\n", 1_700_000_000 + i * 60, 1 + i % 16);
        }
        let scenario = gpucost_model::workbench::presets::preset("batch-vs-eks-spot")
            .unwrap()
            .scenario();
        let mut template = scenario.job_classes[0].clone();
        template.gpus_per_job = 1.0;
        let fit = crate::fit_history(&csv, &template, "A100", &Default::default()).unwrap();
        assert_eq!(fit.classes.len(), 16);
        let mut s = scenario.clone();
        s.job_classes = fit.classes;
        for p in &mut s.platforms {
            p.first_pool_mut().max_nodes = 10_000;
        }
        let link = gpucost_model::workbench::link::encode_link(&s, "batch-vs-eks-spot");
        assert!(
            link.len() < gpucost_model::workbench::link::MAX_LINK_CHARS,
            "{} characters",
            link.len()
        );
        let read = gpucost_model::workbench::link::decode_link(&link);
        assert!(read.notices.is_empty(), "{:?}", read.notices);
        assert_eq!(read.scenario.job_classes, s.job_classes);
    }

    #[test]
    fn rounding_keeps_significant_digits() {
        assert_eq!(round_significant(1234.567, 4), 1235.0);
        assert_eq!(round_significant(0.012345, 3), 0.0123);
    }
}
