//! Scenarios kept and brought in: saved by name in the browser's localStorage (as links, so a
//! saved scenario reads back like a shared one), and imported from a dropped or chosen file —
//! a scenario JSON (as `gpucost scenario` or `gpucost eval` writes it) or a job history (a
//! CSV table, Slurm `sacct -P` output or an SWF log), whose fitted job classes replace the
//! workload ([`super::history_import`] has its options and its fit table), or a request trace
//! (the Azure LLM trace's CSV, Mooncake's JSON lines), which becomes a service's traffic
//! ([`super::traffic_import`]).
//!
//! Where storage is blocked (a sandboxed frame, a locked-down browser) saving is off and the
//! page says so; a damaged saved entry is reported and skipped, the others still load.

use super::history_import::{fit_report, ColumnMapping, HistoryOptions, OptionsForm};
use super::history_worker_client;
use super::replay_banner::{self, ReplayState, ReplayStatus};
use super::traffic_import::traffic_report;
use crate::history::traffic::{self, TrafficFit};
use crate::history::{check_page_size, HistoryFit, ImportOptions};
use crate::history_job::{HistoryAnswer, HistoryJob};
use crate::model::scenario::Scenario;
use crate::workbench::link::{decode_link, encode_link};
use gloo_storage::Storage as _;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// localStorage keys of saved scenarios start with this.
const PREFIX: &str = "gpucost.saved.";

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
    /// A CSV history whose columns need naming: the file's name, and why.
    NeedsMapping(String, String),
    /// A request trace became a service's traffic: the file's name, the fit, and the
    /// services there were before.
    Traffic(String, Box<TrafficFit>, Vec<String>),
}

/// Saved scenarios and file import.
#[component]
pub fn ScenarioFiles(scenario: RwSignal<Scenario>, preset_name: RwSignal<String>) -> impl IntoView {
    let store = storage();
    let available = store.is_some();
    let replay_state = use_context::<ReplayState>();
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
        if let Some(state) = replay_state {
            match decoded.replay_key {
                Some(key) => replay_banner::open_linked(key, scenario, state.0),
                None => state.0.set(ReplayStatus::Off),
            }
        }
        set_notices.set(decoded.notices);
        set_status.set(Some(format!("Opened \"{name}\".")));
    };
    let delete = move |name: String| {
        gloo_storage::LocalStorage::delete(format!("{PREFIX}{name}"));
        set_status.set(Some(format!("Deleted \"{name}\".")));
        refresh();
    };

    let (report, set_report) = signal(ImportReport::Nothing);
    let form = RwSignal::new(OptionsForm::default());
    // The last history read, so that it can be fitted again with other options.
    let last_history = StoredValue::new(None::<(String, String)>);
    let (has_history, set_has_history) = signal(false);
    // The scenario before the last request trace was imported: importing it again (onto
    // another service, or replayed) starts from there, not from the first import's result.
    let before_trace = StoredValue::new(None::<Scenario>);
    // The scenario the last trace import made.
    let last_trace_result = StoredValue::new(None::<Scenario>);
    // Reading progress while an import runs; each import's number, so an older one's answer
    // is ignored when a newer file was dropped meanwhile.
    let (progress, set_progress) = signal(None::<f64>);
    let import_seq = StoredValue::new(0u64);
    let refit = move || {
        let Some((file_name, text)) = last_history.get_value() else {
            return;
        };
        let is_trace = traffic::detect(&text).is_some();
        let form_now = form.get_untracked();
        // A trace reads only the time zone of the history options: the rest are not checked.
        let read = if is_trace {
            form_now
                .traffic_options(&file_name)
                .map(|t| (ImportOptions::default(), Some(t)))
        } else {
            form_now.options().map(|o| (o, None))
        };
        let (options, traffic) = match read {
            Ok(read) => read,
            Err(e) => {
                set_report.set(ImportReport::Refused(format!("{file_name}: {e}")));
                return;
            }
        };
        // Importing a trace again starts from the scenario before its last import, unless the
        // scenario has changed since (an edit, another preset): then from the scenario now.
        let now = scenario.get_untracked();
        let base = match (
            is_trace,
            before_trace.get_value(),
            last_trace_result.get_value(),
        ) {
            (true, Some(before), Some(result)) if result == now => before,
            _ => now,
        };
        if is_trace {
            before_trace.set_value(Some(base.clone()));
        }
        let services: Vec<String> = base.services.iter().map(|s| s.name.clone()).collect();
        let job = HistoryJob {
            options,
            scenario: base,
            traffic,
        };
        import_seq.update_value(|n| *n += 1);
        let this = import_seq.get_value();
        set_progress.set(Some(0.0));
        let on_answer: Rc<dyn Fn(HistoryAnswer)> = Rc::new(move |answer| {
            if import_seq.get_value() != this {
                return;
            }
            match answer {
                HistoryAnswer::Progress(share) => set_progress.set(Some(share)),
                HistoryAnswer::Fitted {
                    scenario: next,
                    fit,
                } => {
                    set_progress.set(None);
                    let replay = next.replay.clone();
                    scenario.set(*next);
                    if let Some(state) = replay_state {
                        match replay {
                            Some(replay) => replay_banner::keep(replay, state.0),
                            None => state.0.set(ReplayStatus::Off),
                        }
                    }
                    set_report.set(ImportReport::History(file_name.clone(), fit));
                }
                HistoryAnswer::Traffic {
                    scenario: next,
                    fit,
                } => {
                    set_progress.set(None);
                    last_trace_result.set_value(Some((*next).clone()));
                    scenario.set(*next);
                    set_report.set(ImportReport::Traffic(
                        file_name.clone(),
                        fit,
                        services.clone(),
                    ));
                }
                HistoryAnswer::Refused {
                    message,
                    needs_mapping,
                } => {
                    set_progress.set(None);
                    set_report.set(if needs_mapping {
                        ImportReport::NeedsMapping(file_name.clone(), message)
                    } else {
                        ImportReport::Refused(format!("{file_name}: {message}"))
                    });
                }
            }
        });
        history_worker_client::import(text, job, on_answer);
    };
    let import = move |file: web_sys::File| {
        let file_name = file.name();
        if let Err(too_large) = check_page_size(file.size() as u64) {
            set_report.set(ImportReport::Refused(format!(
                "{file_name}: {too_large}; the scenario was not changed."
            )));
            return;
        }
        let lower = file_name.to_ascii_lowercase();
        if lower.ends_with(".gz") || lower.ends_with(".gzip") {
            set_report.set(ImportReport::Refused(format!(
                "{file_name}: a compressed history, which the page does not unpack: unpack it \
                 first (gunzip), or read it as it is with gpucost history {file_name}. The \
                 scenario was not changed."
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
            // (Mooncake's JSON lines open with `{` too: a trace is looked for first.)
            let is_trace = traffic::detect(&text).is_some();
            let is_json = !is_trace
                && (file_name.to_ascii_lowercase().ends_with(".json")
                    || text.trim_start().starts_with('{'));
            if is_trace {
                // A new trace imports onto the scenario as it is now, with a new service.
                last_trace_result.set_value(None);
                form.update(|f| {
                    f.traffic_service.clear();
                    f.traffic_replay = false;
                });
                last_history.set_value(Some((file_name.clone(), text)));
                set_has_history.set(false);
                refit();
            } else if is_json {
                let outcome = import_scenario(&text, scenario)
                    .map(|()| ImportReport::Scenario(file_name.clone()));
                if let (Ok(_), Some(state)) = (&outcome, replay_state) {
                    match scenario.with_untracked(|s| s.replay.clone()) {
                        Some(replay) => replay_banner::keep(replay, state.0),
                        None => state.0.set(ReplayStatus::Off),
                    }
                }
                set_report.set(
                    outcome.unwrap_or_else(|e| ImportReport::Refused(format!("{file_name}: {e}"))),
                );
            } else {
                before_trace.set_value(None);
                // A new file starts with no columns named by hand.
                form.update(|f| f.columns.clear());
                last_history.set_value(Some((file_name.clone(), text)));
                set_has_history.set(true);
                refit();
            }
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
                    "Drop a scenario JSON, a job history or a request trace here, or "
                    <label for="import-file" class="file-label">"choose a file"</label>"."
                </p>
                <input id="import-file" type="file" on:change=on_choose />
                <p class="hint">
                    "Job history: Slurm's sacct -P output, a Standard Workload Format log (.swf), or a CSV with one row per job (a submit or start time, a duration or an end time, and GPUs; optionally a GPU model and an outcome), with times as dates or as seconds from the trace's start. Its fitted job classes replace the workload."
                </p>
                <p class="hint">
                    "Request trace: the Azure LLM inference trace's CSV (TIMESTAMP,ContextTokens,GeneratedTokens) or Mooncake's JSON lines (timestamp in ms, input_length, output_length). It becomes a service's traffic: its rate over the trace's span, its hourly profile where it spans a day, its tokens' median and p90, or its arrivals replayed minute by minute."
                </p>
            </div>
            <HistoryOptions form=form />
            {move || has_history.get().then(|| view! {
                <button type="button" class="refit" on:click=move |_| refit()>"Fit the last history again with these options"</button>
            })}
            {move || progress.get().map(|share| view! {
                <div class="import-progress" role="status">
                    <progress max="1" value=share></progress>
                    <span>{format!("Reading the history… {:.0} %", share * 100.0)}</span>
                </div>
            })}
            {move || import_report_view(report.get(), last_history, form, Callback::new(move |()| refit()))}
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
    let mut imported = Scenario::from_json_value(value).map_err(|e| e.to_string())?;
    // A replay's key is its content's: computed here, whatever the file says.
    if let Some(replay) = imported.replay.take() {
        imported.replay = Some(crate::model::scenario::Replay::new(replay.jobs));
    }
    imported
        .validate()
        .map_err(|e| format!("{e}; the scenario was not changed"))?;
    scenario.set(imported);
    Ok(())
}

fn import_report_view(
    report: ImportReport,
    last_history: StoredValue<Option<(String, String)>>,
    form: RwSignal<OptionsForm>,
    refit: Callback<()>,
) -> impl IntoView {
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
        ImportReport::History(name, fit) => fit_report(&name, &fit).into_any(),
        ImportReport::Traffic(name, fit, services) => {
            traffic_report(&name, &fit, services, form, refit).into_any()
        }
        ImportReport::NeedsMapping(name, why) => {
            let text = last_history
                .with_value(|l| l.as_ref().map(|(_, t)| t.clone()))
                .unwrap_or_default();
            view! {
                <div class="needs-mapping">
                    <p class="import-error" role="alert">{format!("Not imported yet: {name}: {why}.")}</p>
                    <ColumnMapping text=text form=form apply=refit />
                </div>
            }
            .into_any()
        }
    }
}
