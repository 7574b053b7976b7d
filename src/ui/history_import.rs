//! A job history brought in: the options detection cannot know (CPUs per GPU, sacct's field
//! list, the time zone, the duration model), a column-mapping form with a preview when a
//! CSV's columns are not recognised, and the fit table that sets what was read beside what
//! will be simulated, with every state's outcome, the notes and the skipped records.

use crate::history::cluster::RECORDED_CLUSTER;
use crate::history::table::{preview, Role, MAPPED_ROLES};
use crate::history::{
    clock, fit::window_text, parse_field_list, DurationFit, HistoryFit, ImportOptions, TimeoutsAs,
    DEFAULT_CPUS_PER_GPU,
};
use crate::model::monte_carlo::Results;
use crate::model::scenario::limits;
use leptos::prelude::*;

/// The page's latest Monte Carlo results, for views outside the results column (the fit
/// table's simulated queue wait on the recorded cluster).
#[derive(Clone, Copy)]
pub struct RunResults(pub Memo<Option<Results>>);

/// Skipped records listed in the page (the rest are counted; the CLI lists them all).
pub const BAD_ROWS_SHOWN: usize = 100;

/// The import options as the form holds them (text, so a half-typed value is not lost).
#[derive(Clone, Debug, PartialEq)]
pub struct OptionsForm {
    /// CPUs per GPU.
    pub cpus_per_gpu: String,
    /// sacct's field list.
    pub sacct_fields: String,
    /// UTC offset.
    pub time_zone: String,
    /// Log-normal instead of empirical durations.
    pub log_normal: bool,
    /// Columns named by hand.
    pub columns: Vec<(Role, String)>,
    /// GPUs of the cluster the jobs ran on (empty: not added).
    pub cluster_gpus: String,
    /// Replay the exact jobs instead of drawing them from the fitted classes.
    pub replay: bool,
    /// One class per team and GPU count instead of one per GPU count.
    pub team_classes: bool,
    /// Jobs stopped at their time limit count as failures (their work lost) instead of work
    /// kept.
    pub timeouts_failed: bool,
    /// A request trace's service (empty: a new one).
    pub traffic_service: String,
    /// Replay a request trace's arrivals minute by minute instead of fitting a rate.
    pub traffic_replay: bool,
}

impl Default for OptionsForm {
    fn default() -> Self {
        OptionsForm {
            cpus_per_gpu: DEFAULT_CPUS_PER_GPU.to_string(),
            sacct_fields: String::new(),
            time_zone: "UTC".to_string(),
            log_normal: false,
            columns: Vec::new(),
            cluster_gpus: String::new(),
            replay: false,
            team_classes: false,
            timeouts_failed: false,
            traffic_service: String::new(),
            traffic_replay: false,
        }
    }
}

impl OptionsForm {
    /// A request trace's options for the file `file_name`, or what is wrong with a field.
    pub fn traffic_options(
        &self,
        file_name: &str,
    ) -> Result<crate::history::traffic::TrafficOptions, String> {
        let service = self.traffic_service.trim();
        Ok(crate::history::traffic::TrafficOptions {
            utc_offset_s: self.utc_offset_s()?,
            replay: self.traffic_replay,
            service: (!service.is_empty()).then(|| service.to_string()),
            // As `gpucost traffic` names it: the file's name without its extension.
            new_service_name: std::path::Path::new(file_name)
                .file_stem()
                .and_then(|s| s.to_str())
                .filter(|s| !s.trim().is_empty())
                .unwrap_or("Traced traffic")
                .to_string(),
        })
    }

    fn utc_offset_s(&self) -> Result<i64, String> {
        clock::parse_utc_offset(&self.time_zone).ok_or_else(|| {
            format!(
                "Time zone \"{}\": give an offset from UTC such as +02:00, -05:00 or UTC",
                self.time_zone.trim()
            )
        })
    }

    /// The options, or what is wrong with a field.
    pub fn options(&self) -> Result<ImportOptions, String> {
        let cpus: u32 = self
            .cpus_per_gpu
            .trim()
            .parse()
            .ok()
            .filter(|&n| (1..=4096).contains(&n))
            .ok_or_else(|| {
                format!(
                    "CPUs per GPU \"{}\": give a whole number from 1 to 4096",
                    self.cpus_per_gpu.trim()
                )
            })?;
        let utc_offset_s = self.utc_offset_s()?;
        let cluster = self.cluster_gpus.trim();
        let cluster_gpus = if cluster.is_empty() {
            None
        } else {
            let most = limits::MAX_NODES * 8;
            Some(
                cluster
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=most).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "GPUs of the cluster the jobs ran on \"{cluster}\": give a whole number from 1 to {most}, or leave it empty"
                        )
                    })?,
            )
        };
        Ok(ImportOptions {
            format: None,
            sacct_fields: parse_field_list(&self.sacct_fields),
            columns: self.columns.clone(),
            cpus_per_gpu: (cpus != DEFAULT_CPUS_PER_GPU).then_some(cpus),
            utc_offset_s,
            durations: if self.log_normal {
                DurationFit::LogNormal
            } else {
                DurationFit::Empirical
            },
            cluster_gpus,
            replay: self.replay,
            team_classes: self.team_classes,
            timeouts: if self.timeouts_failed {
                TimeoutsAs::Failed
            } else {
                TimeoutsAs::Kept
            },
        })
    }
}

/// The options a history is read with.
#[component]
pub fn HistoryOptions(form: RwSignal<OptionsForm>) -> impl IntoView {
    view! {
        <details class="history-options">
            <summary>"History options"</summary>
            <div class="history-option">
                <label for="history-cpus-per-gpu">"CPUs per GPU"</label>
                <input id="history-cpus-per-gpu" type="number" min="1" max="4096" step="1"
                    prop:value=move || form.with(|f| f.cpus_per_gpu.clone())
                    on:input=move |ev| form.update(|f| f.cpus_per_gpu = event_target_value(&ev)) />
                <span class="hint">"For a history that counts CPUs only (sacct without GPU TRES, SWF): this many CPUs, or part of them, make one GPU."</span>
            </div>
            <div class="history-option">
                <label for="history-sacct-fields">"sacct fields"</label>
                <input id="history-sacct-fields" type="text" placeholder="JobID,State,Submit,Start,End,Elapsed,AllocTRES"
                    prop:value=move || form.with(|f| f.sacct_fields.clone())
                    on:input=move |ev| form.update(|f| f.sacct_fields = event_target_value(&ev)) />
                <span class="hint">"For sacct --noheader output: the --format list it was written with."</span>
            </div>
            <div class="history-option">
                <label for="history-time-zone">"Time zone"</label>
                <input id="history-time-zone" type="text" placeholder="UTC"
                    prop:value=move || form.with(|f| f.time_zone.clone())
                    on:input=move |ev| form.update(|f| f.time_zone = event_target_value(&ev)) />
                <span class="hint">"Of times written without one (sacct's are local): UTC, +02:00, -05:00…"</span>
            </div>
            <div class="history-option">
                <label for="history-cluster-gpus">"Cluster GPUs"</label>
                <input id="history-cluster-gpus" type="number" min="1" step="1" placeholder="none"
                    prop:value=move || form.with(|f| f.cluster_gpus.clone())
                    on:input=move |ev| form.update(|f| f.cluster_gpus = event_target_value(&ev)) />
                <span class="hint">"GPUs of the cluster the jobs ran on: adds it as a reserved platform, \"Recorded cluster\", whose simulated queue wait is set beside the observed one (a calibration check)."</span>
            </div>
            {flag_option(form, "history-replay", |f| f.replay, |f, on| f.replay = on,
                " Replay the exact jobs (arrivals, run times and outcomes as recorded; the horizon is the history's span) instead of drawing jobs from the fitted classes")}
            {flag_option(form, "history-team-classes", |f| f.team_classes, |f, on| f.team_classes = on,
                " One class per team and GPU count (the team is sacct's Account, else User; a CSV's team column; an SWF log's user), so each team's jobs and GPU-hours show on their own")}
            {flag_option(form, "history-timeouts-failed", |f| f.timeouts_failed, |f, on| f.timeouts_failed = on,
                " Jobs stopped at their time limit (TIMEOUT) are failures, their work lost (by default their run counts as work kept, as a job that checkpoints keeps its work)")}
            {flag_option(form, "history-log-normal", |f| f.log_normal, |f, on| f.log_normal = on,
                " Log-normal durations (through the median and 90th percentile) instead of the observed quantiles")}
        </details>
    }
}

/// A switch of the history options, spanning the row: its box, then what it does.
pub fn flag_option(
    form: RwSignal<OptionsForm>,
    id: &'static str,
    get: fn(&OptionsForm) -> bool,
    set: fn(&mut OptionsForm, bool),
    label: &'static str,
) -> impl IntoView {
    view! {
        <div class="history-option wide">
            <label>
                <input id=id type="checkbox"
                    prop:checked=move || form.with(get)
                    on:change=move |ev| form.update(|f| set(f, event_target_checked(&ev))) />
                {label}
            </label>
        </div>
    }
}

/// The mapping form for a CSV whose columns were not recognised: a select per role over the
/// header's names, and the first rows to see what each holds. `apply` fits with the mapping.
#[component]
pub fn ColumnMapping(
    text: String,
    form: RwSignal<OptionsForm>,
    apply: Callback<()>,
) -> impl IntoView {
    let Some((header, rows)) = preview(&text, 5) else {
        return ().into_any();
    };
    let header = StoredValue::new(header);
    let chosen = move |role: Role| {
        form.with(|f| {
            f.columns
                .iter()
                .find(|(r, _)| *r == role)
                .map(|(_, n)| n.clone())
                .unwrap_or_default()
        })
    };
    let set = move |role: Role, name: String| {
        form.update(|f| {
            f.columns.retain(|(r, _)| *r != role);
            if !name.is_empty() {
                f.columns.push((role, name));
            }
        })
    };
    view! {
        <div class="column-mapping">
            <p>"Name the columns this file holds (submit or start time, a duration or start and end, and GPUs are needed), then fit again."</p>
            <div class="mapping-roles">
                {MAPPED_ROLES.iter().map(|&(role, label)| {
                    let id = format!("map-{label}").replace([' ', ',', '[', ']', ':', '(', ')', '-'], "_").to_ascii_lowercase();
                    view! {
                        <div class="mapping-role">
                            <label for=id.clone()>{label}</label>
                            <select id=id data-role=label
                                prop:value=move || chosen(role)
                                on:change=move |ev| set(role, event_target_value(&ev))>
                                <option value="">"—"</option>
                                {header.get_value().into_iter().map(|h| view! {
                                    <option value=h.clone() selected=chosen(role) == h>{h.clone()}</option>
                                }).collect_view()}
                            </select>
                        </div>
                    }
                }).collect_view()}
            </div>
            <table class="mapping-preview">
                <thead><tr>{header.get_value().into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr></thead>
                <tbody>{rows.into_iter().map(|r| view! {
                    <tr>{r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                }).collect_view()}</tbody>
            </table>
            <button type="button" on:click=move |_| apply.run(())>"Fit with these columns"</button>
        </div>
    }
    .into_any()
}

/// The recorded cluster's queue wait in the latest results, as the run goes.
fn simulated_wait() -> impl IntoView {
    let results = use_context::<RunResults>();
    view! {
        <span class="simulated-wait">{move || {
            let Some(RunResults(results)) = results else { return String::new() };
            results.with(|r| {
                match r.as_ref().and_then(|r| r.platforms.iter().find(|p| p.name == RECORDED_CLUSTER)) {
                    Some(p) => format!(
                        " Simulated on the {RECORDED_CLUSTER} ({} replications): mean {:.1} min, median {:.1} min, p95 {:.1} min (a job not started by the horizon counts its wait so far).",
                        r.as_ref().map_or(0, |r| r.replications),
                        p.queue_wait_mean_min().mean, p.queue_wait_p50_min().mean, p.queue_wait_p95_min().mean
                    ),
                    None => format!(" The {RECORDED_CLUSTER}'s simulated queue wait appears here once it has run."),
                }
            })
        }}</span>
    }
}

fn observed_simulated(observed: f64, simulated: f64) -> String {
    format!("{observed:.2} / {simulated:.2}")
}

/// The fit table: per class what was read and what will be simulated; the states and what
/// each became; the notes; the skipped records.
pub fn fit_report(name: &str, fit: &HistoryFit) -> impl IntoView {
    let hidden = fit.bad_rows.len().saturating_sub(BAD_ROWS_SHOWN);
    let with_cluster = fit.notes.iter().any(|n| n.starts_with(RECORDED_CLUSTER));
    let heading = format!(
        "Fitted {} job class(es) from {name} ({}): {} records read, {} jobs used, {} never started, {} skipped, {} of arrivals.",
        fit.classes.len(),
        fit.format.label(),
        fit.rows,
        fit.used,
        fit.never_started,
        fit.bad_rows.len(),
        window_text(fit.span_days)
    );
    view! {
        <div class="import-done fit-summary" role="status" data-format=fit.format.label()>
            <p>{heading}</p>
            <div class="fit-table-scroll">
                <table class="fit-table">
                    <caption>"Each class as read (observed) and as it will be simulated; hours on the reference GPU"</caption>
                    <thead><tr>
                        <th scope="col">"Class"</th><th scope="col">"Jobs"</th><th scope="col">"Per day"</th>
                        <th scope="col">"Mean h"</th><th scope="col">"p50 h"</th><th scope="col">"p90 h"</th>
                        <th scope="col">"p99 h"</th><th scope="col">"GPU-h/day"</th><th scope="col">"KS"</th>
                        <th scope="col">"Failed runs"</th>
                    </tr></thead>
                    <tbody>
                        {fit.fits.iter().map(|f| view! {
                            <tr data-class=f.name.clone() data-jobs=f.jobs data-per-day=f.per_day
                                data-observed-mean=f.observed_hours.mean data-simulated-mean=f.simulated_hours.mean
                                data-observed-gpu-hours=f.observed_gpu_hours_per_day>
                                <th scope="row">{f.name.clone()}</th>
                                <td>{f.jobs}</td>
                                <td>{format!("{:.3}", f.per_day)}</td>
                                <td data-col="mean">{observed_simulated(f.observed_hours.mean, f.simulated_hours.mean)}</td>
                                <td>{observed_simulated(f.observed_hours.p50, f.simulated_hours.p50)}</td>
                                <td>{observed_simulated(f.observed_hours.p90, f.simulated_hours.p90)}</td>
                                <td>{observed_simulated(f.observed_hours.p99, f.simulated_hours.p99)}</td>
                                <td data-col="gpu-hours">{observed_simulated(f.observed_gpu_hours_per_day, f.simulated_gpu_hours_per_day)}</td>
                                <td>{format!("{:.3}", f.ks_distance)}</td>
                                <td>{if f.with_outcome > 0 { format!("{} of {}", f.failed, f.with_outcome) } else { "no outcomes".into() }}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            {fit.observed_queue_wait.map(|w| view! {
                <p class="observed-wait" data-mean-min=w.mean_min>{format!(
                    "Observed queue wait (submission to start) of {} jobs: mean {:.1} min, median {:.1} min, p95 {:.1} min.",
                    w.jobs, w.mean_min, w.p50_min, w.p95_min
                )}
                {if with_cluster {
                    simulated_wait().into_any()
                } else {
                    " Give the cluster's GPUs in the history options to set the queue wait simulated on it beside this one.".into_any()
                }}</p>
            })}
            {(!fit.weekday_weights.is_empty()).then(|| {
                let days: Vec<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
                    .iter()
                    .zip(&fit.weekday_weights)
                    .map(|(d, w)| format!("{d} {w:.2}"))
                    .collect();
                let weights: Vec<String> = fit.weekday_weights.iter().map(f64::to_string).collect();
                let weights = weights.join(",");
                view! {
                    <p class="weekday-profile" data-weights=weights>
                        {format!("Jobs a day by day of the week, relative to the mean day: {}.", days.join(", "))}
                    </p>
                }
            })}
            {(!fit.states.is_empty()).then(|| view! {
                <table class="state-table">
                    <caption>"States as the file writes them, and what each became"</caption>
                    <thead><tr><th scope="col">"State"</th><th scope="col">"Jobs"</th><th scope="col">"Taken as"</th></tr></thead>
                    <tbody>
                        {fit.states.iter().map(|s| view! {
                            <tr><th scope="row">{s.written.clone()}</th><td>{s.jobs}</td><td>{s.outcome.treatment()}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            })}
            <ul class="fit-notes">{fit.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul>
            {(!fit.bad_rows.is_empty()).then(|| view! {
                <div class="bad-rows" role="alert">
                    <p>{format!("Skipped {} record(s):", fit.bad_rows.len())}</p>
                    <ul>
                        {fit.bad_rows.iter().take(BAD_ROWS_SHOWN).map(|b| view! {
                            <li data-line=b.line>{format!("line {}: {}", b.line, b.reason)}</li>
                        }).collect_view()}
                    </ul>
                    {(hidden > 0).then(|| view! { <p>{format!("… and {hidden} more (gpucost history lists them all).")}</p> })}
                </div>
            })}
        </div>
    }
}
