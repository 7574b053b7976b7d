//! Scenarios kept and brought in: saved by name in the browser's localStorage (as links, so a
//! saved scenario reads back like a shared one), and imported from a dropped or chosen file —
//! a scenario JSON (as `gpucost scenario` or `gpucost eval` writes it) or a job-history CSV,
//! whose fitted job classes replace the workload.
//!
//! Where storage is blocked (a sandboxed frame, a locked-down browser) saving is off and the
//! page says so; a damaged saved entry is reported and skipped, the others still load.

use crate::model::scenario::Scenario;
use crate::scenario::history::{fit_into, HistoryFit, HistoryImportError, MAX_HISTORY_BYTES};
use crate::scenario::link::{decode_link, encode_link};
use gloo_storage::Storage as _;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// localStorage keys of saved scenarios start with this.
const PREFIX: &str = "gpucost.saved.";
/// Bad rows listed in the import report (the rest are counted).
const BAD_ROWS_SHOWN: usize = 20;

/// One saved scenario as stored.
#[derive(Serialize, Deserialize)]
struct SavedEntry {
    /// The scenario's link fragment.
    link: String,
    /// When it was saved (ISO 8601).
    saved_at: String,
}

/// A saved scenario as listed: readable, or damaged (only deletable).
#[derive(Clone, PartialEq)]
struct Saved {
    name: String,
    entry: Result<(String, String), String>,
}

/// The page's localStorage, if this context may use it.
fn storage() -> Option<web_sys::Storage> {
    let storage = window().local_storage().ok().flatten()?;
    // Some browsers expose storage but refuse writes (private modes, full quota).
    let probe = format!("{PREFIX}__probe__");
    storage.set_item(&probe, "1").ok()?;
    let _ = storage.remove_item(&probe);
    Some(storage)
}

fn list_saved(storage: &web_sys::Storage) -> Vec<Saved> {
    let mut out = Vec::new();
    for i in 0..storage.length().unwrap_or(0) {
        let Some(key) = storage.key(i).ok().flatten() else {
            continue;
        };
        let Some(name) = key.strip_prefix(PREFIX) else {
            continue;
        };
        let entry = storage
            .get_item(&key)
            .ok()
            .flatten()
            .and_then(|text| serde_json::from_str::<SavedEntry>(&text).ok())
            .map(|e| (e.link, e.saved_at))
            .ok_or_else(|| {
                format!(
                    "The saved scenario \"{name}\" is damaged and was skipped; delete it to \
                     clear this message."
                )
            });
        out.push(Saved {
            name: name.to_string(),
            entry,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// What the last import did.
#[derive(Clone)]
enum ImportReport {
    /// Nothing imported yet.
    Nothing,
    /// The file could not be used.
    Refused(String),
    /// A scenario JSON replaced the scenario.
    Scenario(String),
    /// A job history's fitted classes replaced the workload.
    History(String, Box<HistoryFit>),
}

/// Saved scenarios and file import.
#[component]
pub fn ScenarioFiles(scenario: RwSignal<Scenario>, preset_name: RwSignal<String>) -> impl IntoView {
    let store = storage();
    let available = store.is_some();
    let (saved, set_saved) = signal(store.map(|s| list_saved(&s)).unwrap_or_default());
    let (status, set_status) = signal(None::<String>);
    let (name, set_name) = signal(String::new());
    let (notices, set_notices) = signal(Vec::<String>::new());
    let refresh = move || set_saved.set(storage().map(|s| list_saved(&s)).unwrap_or_default());
    let save = move || {
        let name = name.get_untracked().trim().to_string();
        if name.is_empty() || name.chars().count() > 64 {
            set_status.set(Some(
                "Give the scenario a name of 1 to 64 characters.".into(),
            ));
            return;
        }
        let link = scenario.with_untracked(|s| encode_link(s, &preset_name.get_untracked()));
        let entry = SavedEntry {
            link,
            saved_at: String::from(js_sys::Date::new_0().to_iso_string()),
        };
        let replaced = saved.with_untracked(|l| l.iter().any(|s| s.name == name));
        match gloo_storage::LocalStorage::set(format!("{PREFIX}{name}"), &entry) {
            Ok(()) => set_status.set(Some(format!(
                "{} \"{name}\".",
                if replaced { "Replaced" } else { "Saved" }
            ))),
            Err(e) => set_status.set(Some(format!("Could not save: {e}."))),
        }
        refresh();
    };
    let open = move |name: String, link: String| {
        let decoded = decode_link(&link);
        preset_name.set(decoded.preset);
        scenario.set(decoded.scenario);
        set_notices.set(decoded.notices);
        set_status.set(Some(format!("Opened \"{name}\".")));
    };
    let delete = move |name: String| {
        gloo_storage::LocalStorage::delete(format!("{PREFIX}{name}"));
        set_status.set(Some(format!("Deleted \"{name}\".")));
        refresh();
    };

    let (report, set_report) = signal(ImportReport::Nothing);
    let import = move |file: web_sys::File| {
        let file_name = file.name();
        if file.size() > MAX_HISTORY_BYTES as f64 {
            set_report.set(ImportReport::Refused(format!(
                "{file_name}: the file is {:.1} MB; at most {} MB is read.",
                file.size() / 1e6,
                MAX_HISTORY_BYTES / 1_000_000
            )));
            return;
        }
        let promise = file.text();
        wasm_bindgen_futures::spawn_local(async move {
            let text = match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(t) => t.as_string().unwrap_or_default(),
                Err(_) => {
                    set_report.set(ImportReport::Refused(format!(
                        "{file_name}: the browser could not read the file (is it text?)."
                    )));
                    return;
                }
            };
            let is_json = file_name.to_ascii_lowercase().ends_with(".json")
                || text.trim_start().starts_with('{');
            let outcome = if is_json {
                import_scenario(&text, scenario).map(|()| ImportReport::Scenario(file_name.clone()))
            } else {
                import_history(&text, scenario)
                    .map(|fit| ImportReport::History(file_name.clone(), Box::new(fit)))
            };
            set_report.set(
                outcome.unwrap_or_else(|e| ImportReport::Refused(format!("{file_name}: {e}"))),
            );
        });
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            import(file);
        }
    };
    let on_choose = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            import(file);
        }
        input.set_value(""); // the same file can be chosen again
    };

    view! {
        <details class="scenario-files">
            <summary>"Saved scenarios and import"</summary>
            <h3>"Saved scenarios"</h3>
            {(!available).then(|| view! {
                <p class="note" role="status">
                    "Saving is unavailable here: this page may not use the browser's storage (for example inside a sandboxed frame). Copy the link instead."
                </p>
            })}
            <div class="save-row">
                <label for="save-name">"Name"</label>
                <input id="save-name" type="text" maxlength="64" disabled=!available
                    prop:value=name on:input=move |ev| set_name.set(event_target_value(&ev)) />
                <button type="button" disabled=!available on:click=move |_| save()>"Save"</button>
            </div>
            <span class="readout" role="status">{move || status.get()}</span>
            <ul class="saved-list">
                {move || saved.get().into_iter().map(|s| {
                    let delete_name = s.name.clone();
                    let label = format!("Delete {}", s.name);
                    match s.entry {
                        Ok((link, saved_at)) => {
                            let open_name = s.name.clone();
                            let open_label = format!("Open {}", s.name);
                            view! {
                                <li>
                                    <span class="saved-name">{s.name.clone()}</span>
                                    <span class="saved-at">{saved_at.get(..16).unwrap_or_default().replace('T', " ")}</span>
                                    <button type="button" aria-label=open_label
                                        on:click=move |_| open(open_name.clone(), link.clone())>"Open"</button>
                                    <button type="button" aria-label=label
                                        on:click=move |_| delete(delete_name.clone())>"Delete"</button>
                                </li>
                            }.into_any()
                        }
                        Err(message) => view! {
                            <li class="damaged" role="alert">
                                <span>{message}</span>
                                <button type="button" aria-label=label
                                    on:click=move |_| delete(delete_name.clone())>"Delete"</button>
                            </li>
                        }.into_any(),
                    }
                }).collect_view()}
            </ul>
            {move || (!notices.get().is_empty()).then(|| view! {
                <div class="link-notices" role="alert">
                    <p>"Parts of the saved scenario could not be read:"</p>
                    <ul>{notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </div>
            })}
            <h3>"Import"</h3>
            <div class="drop-zone" on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default() on:drop=on_drop>
                <p>
                    "Drop a scenario JSON or a job-history CSV here, or "
                    <label for="import-file" class="file-label">"choose a file"</label>"."
                </p>
                <input id="import-file" type="file" accept=".json,.csv,application/json,text/csv" on:change=on_choose />
                <p class="hint">
                    "Job history: one row per job with a submit time, a duration (duration_s, duration_min, duration_h or Slurm's elapsed) and gpus; optionally gpu_model and outcome. Its fitted job classes replace the workload."
                </p>
            </div>
            {move || import_report_view(report.get())}
        </details>
    }
}

/// Reads a scenario JSON (or a `gpucost eval` report, whose `scenario` it takes) and, if it is
/// valid, makes it the scenario.
fn import_scenario(text: &str, scenario: RwSignal<Scenario>) -> Result<(), String> {
    let mut value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
    if let Some(inner) = value.get_mut("scenario") {
        value = inner.take();
    }
    let imported = Scenario::from_json_value(value).map_err(|e| e.to_string())?;
    imported
        .validate()
        .map_err(|e| format!("{e}; the scenario was not changed"))?;
    scenario.set(imported);
    Ok(())
}

/// Fits job classes to a job history and, if the scenario stays valid with them, makes them
/// its workload.
fn import_history(text: &str, scenario: RwSignal<Scenario>) -> Result<HistoryFit, String> {
    let (next, fit) = scenario
        .with_untracked(|s| fit_into(s, text))
        .map_err(|e| match e {
            HistoryImportError::Fit(e) => e.to_string(),
            HistoryImportError::Invalid(e) => format!(
                "the fitted job classes do not fit this scenario ({e}); the workload was not changed"
            ),
        })?;
    scenario.set(next);
    Ok(fit)
}

fn import_report_view(report: ImportReport) -> impl IntoView {
    match report {
        ImportReport::Nothing => ().into_any(),
        ImportReport::Refused(message) => view! {
            <p class="import-error" role="alert">{format!("Not imported: {message}")}</p>
        }
        .into_any(),
        ImportReport::Scenario(name) => view! {
            <p class="import-done" role="status">{format!("Opened the scenario in {name}.")}</p>
        }
        .into_any(),
        ImportReport::History(name, fit) => {
            let hidden = fit.bad_rows.len().saturating_sub(BAD_ROWS_SHOWN);
            view! {
                <div class="import-done fit-summary" role="status">
                    <p>{format!(
                        "Fitted {} job class(es) from {name}: {} rows read, {} used, {} skipped, {:.1} days of submissions.",
                        fit.classes.len(), fit.rows, fit.used, fit.bad_rows.len(), fit.window_days
                    )}</p>
                    <table>
                        <thead><tr>
                            <th scope="col">"Class"</th><th scope="col">"Jobs"</th><th scope="col">"Per day"</th>
                            <th scope="col">"Median h"</th><th scope="col">"p90 h"</th>
                            <th scope="col">"Mean h (data / fit)"</th><th scope="col">"KS distance"</th>
                            <th scope="col">"Failed runs"</th>
                        </tr></thead>
                        <tbody>
                            {fit.fits.iter().map(|f| view! {
                                <tr>
                                    <th scope="row">{f.name.clone()}</th>
                                    <td>{f.jobs}</td>
                                    <td>{format!("{:.3}", f.per_day)}</td>
                                    <td>{format!("{:.2}", f.median_hours)}</td>
                                    <td>{format!("{:.2}", f.p90_hours)}</td>
                                    <td>{format!("{:.2} / {:.2}", f.observed_mean_hours, f.fitted_mean_hours)}</td>
                                    <td>{format!("{:.3}", f.ks_distance)}</td>
                                    <td>{if f.with_outcome > 0 { format!("{} of {}", f.failed, f.with_outcome) } else { "no outcomes".into() }}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <ul class="fit-notes">{fit.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul>
                    {(!fit.bad_rows.is_empty()).then(|| view! {
                        <div class="bad-rows" role="alert">
                            <p>{format!("Skipped {} row(s):", fit.bad_rows.len())}</p>
                            <ul>
                                {fit.bad_rows.iter().take(BAD_ROWS_SHOWN).map(|b| view! {
                                    <li data-line=b.line>{format!("line {}: {}", b.line, b.reason)}</li>
                                }).collect_view()}
                            </ul>
                            {(hidden > 0).then(|| view! { <p>{format!("… and {hidden} more.")}</p> })}
                        </div>
                    })}
                </div>
            }
            .into_any()
        }
    }
}
