//! "These exact jobs on each platform": a history replayed instead of fitted. The jobs arrive
//! when they did (the first at 0), run their recorded time on the reference GPU with their
//! class's GPUs, and end as they did: a recorded failure fails at the end of its run, with no
//! retry (the history's own retries are jobs in it). The horizon is the history's span. The
//! Monte Carlo then varies only what a platform adds: interruptions, provisioning, pulls.

use super::source::Source;
use super::{fit, read_source, HistoryError, HistoryFit, HistoryImportError, ImportOptions};
use gpucost_model::model::scenario::{limits, FailureKind, Failures, Replay, Scenario, DAY_S};

/// `scenario` replaying the history `text` (its classes fitted as for [`super::fit_into`],
/// each job kept as recorded), and the fit.
pub fn replay_into(
    scenario: &Scenario,
    text: &str,
    options: &ImportOptions,
) -> Result<(Scenario, HistoryFit), HistoryImportError> {
    replay_into_with_progress(scenario, text, options, &mut |_| {})
}

/// [`replay_into`], telling `progress` the share of the text read so far.
pub fn replay_into_with_progress(
    scenario: &Scenario,
    text: &str,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<(Scenario, HistoryFit), HistoryImportError> {
    replay_source(scenario, Source::Text(text), options, progress)
}

/// [`replay_into_with_progress`] from a [`Source`]: the CLI streams a file this way.
pub fn replay_source(
    scenario: &Scenario,
    source: Source,
    options: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<(Scenario, HistoryFit), HistoryImportError> {
    let template = scenario.job_classes.first().cloned().unwrap_or_default();
    let read = read_source(source, options, progress).map_err(HistoryImportError::Fit)?;
    let (mut fit, jobs) =
        fit::fit_records_with_jobs(read, &template, &scenario.reference_gpu, options)
            .map_err(HistoryImportError::Fit)?;
    if fit.span_days > limits::HORIZON_DAYS_MAX {
        return Err(HistoryImportError::Fit(HistoryError::ReplayTooLong {
            days: fit.span_days,
        }));
    }
    let classes = fit
        .classes
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c.failures = Failures {
                kind: FailureKind::Deterministic,
                max_retries: 0,
                at_share: None,
                ..c.failures
            };
            c
        })
        .collect();
    fit.notes.push(format!(
        "Replayed: {} jobs as recorded over {:.2} days (the horizon); a failed job fails at the \
         end of its recorded run with no retry; cancelled, preempted and still-running jobs run \
         their recorded time and end.",
        jobs.len(),
        fit.span_days
    ));
    // No warm-up: the history's own start is the replay's.
    let mut next = Scenario {
        // To the history's last time, that second included (a run that ends then finishes).
        horizon_days: fit.span_days + 1.0 / DAY_S,
        warmup_days: 0.0,
        job_classes: classes,
        replay: Some(Replay::new(jobs)),
        ..scenario.clone()
    };
    if let Some(gpus) = options.cluster_gpus {
        super::cluster::add_recorded_cluster(&mut next, &mut fit, gpus)
            .map_err(HistoryImportError::Fit)?;
    }
    match next.validate() {
        Ok(()) => Ok((next, fit)),
        Err(e) => Err(HistoryImportError::Invalid(e)),
    }
}
