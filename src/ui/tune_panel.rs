//! "Each platform at its best": a button that tunes every platform's own settings in the long
//! passes' worker after the main run (`crate::workbench::tune`, where the search is computed
//! and tested), with its progress and a stop; then each platform's changes, the verdict among
//! the tuned platforms beside the verdict as typed, and "Apply", which makes the tuned
//! scenario the current one (the link follows). A newer input stops a tune in progress.

use super::runner::mark;
use super::tune_worker::{TuneRequest, TuneWorker};
use crate::model::scenario::Scenario;
use crate::workbench::tune::constraints::WORK_TOLERANCE;
use crate::workbench::tune::{
    change_label, change_value, platform_sentence, TuneReport, TunedPlatform, RACE_REPS_MAX,
};
use crate::worker_protocol::TuneProgress;
use leptos::prelude::*;
use serde_json::Value;
use std::rc::Rc;

/// Where the tune is.
#[derive(Debug, Clone, PartialEq, Default)]
enum TuneState {
    /// Not asked for.
    #[default]
    Idle,
    /// Asked for; sent once the main run is done.
    Waiting,
    /// In progress.
    Running(Box<TuneProgress>),
    /// Complete: the report, and the scenario it tuned.
    Done(Box<(TuneReport, Scenario)>),
    /// Stopped, with why.
    Stopped(&'static str),
    /// Refused, with why.
    Refused(String),
    /// Its settings were applied.
    Applied,
}

impl TuneState {
    fn key(&self) -> &'static str {
        match self {
            TuneState::Idle => "idle",
            TuneState::Waiting | TuneState::Running(_) => "running",
            TuneState::Done(_) => "done",
            TuneState::Stopped(_) => "stopped",
            TuneState::Refused(_) => "refused",
            TuneState::Applied => "applied",
        }
    }

    fn running(&self) -> bool {
        matches!(self, TuneState::Waiting | TuneState::Running(_))
    }
}

/// The tuner's panel.
#[component]
pub fn TunePanel(scenario: RwSignal<Scenario>, busy: Signal<bool>) -> impl IntoView {
    let state = RwSignal::new(TuneState::Idle);
    let wanted = StoredValue::new(0u64);
    let sent = StoredValue::new(0u64);
    let applying = StoredValue::new(false);
    let on_answer: Rc<dyn Fn(TuneProgress)> = Rc::new(move |answer: TuneProgress| {
        if answer.tune_id != wanted.get_value() || !state.with_untracked(TuneState::running) {
            return;
        }
        let next = if let Some(error) = answer.error.clone() {
            TuneState::Refused(error)
        } else if let Some(report) = answer.report.clone() {
            mark("tune-done", answer.tune_id);
            TuneState::Done(Box::new((*report, scenario.get_untracked())))
        } else {
            TuneState::Running(Box::new(answer))
        };
        state.set(next);
    });
    let worker = StoredValue::new_local(TuneWorker::new(busy, on_answer));
    // A newer input stops a tune in progress and clears a result of older inputs.
    let first = StoredValue::new(true);
    Effect::new(move |_| {
        scenario.track();
        if first.get_value() {
            first.set_value(false);
            return;
        }
        let now = state.get_untracked();
        if applying.get_value() {
            applying.set_value(false);
            state.set(TuneState::Applied);
        } else if now.running() {
            worker.with_value(TuneWorker::stop);
            mark("tune-stop", wanted.get_value());
            state.set(TuneState::Stopped(
                "The scenario changed: tune it again for its new inputs.",
            ));
        } else if !matches!(now, TuneState::Idle) {
            state.set(TuneState::Idle);
        }
    });
    // Sent once the main run is done, so the tune never slows it.
    Effect::new(move |_| {
        let waiting = state.with(|s| matches!(s, TuneState::Waiting));
        if busy.get() || !waiting || sent.get_value() == wanted.get_value() {
            return;
        }
        let tune_id = wanted.get_value();
        sent.set_value(tune_id);
        mark("tune-sent", tune_id);
        let s = scenario.get_untracked();
        worker.with_value(|w| {
            w.request(TuneRequest {
                tune_id,
                scenario: s,
            })
        });
    });
    let start = move |_| {
        wanted.update_value(|w| *w += 1);
        state.set(TuneState::Waiting);
    };
    let stop = move |_| {
        worker.with_value(TuneWorker::stop);
        mark("tune-stop", wanted.get_value());
        state.set(TuneState::Stopped("Stopped."));
    };
    let apply = move |_| {
        let tuned = state.with_untracked(|s| match s {
            TuneState::Done(done) => Some(done.0.scenario.clone()),
            _ => None,
        });
        if let Some(tuned) = tuned {
            applying.set_value(true);
            scenario.set(tuned);
        }
    };
    view! {
        <section class="tune-panel" aria-labelledby="tune-heading" data-tune=move || state.with(TuneState::key)>
            <h3 id="tune-heading">"Each platform at its best"</h3>
            <p class="muted">
                "Is a platform losing only because it is configured badly? Tuning searches each platform's own settings "
                "(on demand or spot, instance type, reserved nodes, node limit, warm pool, checkpoint intervals, a service's replicas and autoscaling target) for its lowest cost on the verdict's metric, "
                {format!("for the same work (at least {} % of the jobs finished and useful GPU-hours), a queue wait p95 no worse than as typed and SLO minutes within the allowance, ", (1.0 - WORK_TOLERANCE) * 100.0)}
                "then compares the platforms again."
            </p>
            <div class="tune-actions">
                <button type="button" class="tune-start" data-tune-start=""
                    disabled=move || state.with(TuneState::running)
                    on:click=start>
                    "Tune each platform"
                </button>
                <Show when=move || state.with(TuneState::running)>
                    <button type="button" class="tune-stop" data-tune-stop="" on:click=stop>"Stop"</button>
                </Show>
                <span class="tune-status" role="status">
                    {move || state.with(|s| match s {
                        TuneState::Waiting => "Waiting for the run to finish…".to_string(),
                        TuneState::Running(p) => match &p.tuning {
                            Some(name) => format!(
                                "Tuning {name} ({} of {})… {} runs simulated.",
                                (p.platforms_done + 1).min(p.platforms.max(1)),
                                p.platforms,
                                p.evaluations
                            ),
                            None => format!("Running the scenario as typed… {} runs.", p.evaluations),
                        },
                        TuneState::Stopped(why) => (*why).to_string(),
                        TuneState::Refused(e) => format!("It cannot be tuned: {e}"),
                        TuneState::Applied => "Applied: the scenario now holds each platform's tuned settings, and the link carries them.".to_string(),
                        TuneState::Idle | TuneState::Done(_) => String::new(),
                    })}
                </span>
            </div>
            {move || state.with(|s| match s {
                TuneState::Done(done) => Some(view! { <TuneResult report=done.0.clone() typed=done.1.clone() apply=apply /> }),
                _ => None,
            })}
        </section>
    }
}

/// A tune's report.
#[component]
fn TuneResult(
    report: TuneReport,
    typed: Scenario,
    apply: impl Fn(leptos::ev::MouseEvent) + 'static,
) -> impl IntoView {
    let changed = report.platforms.iter().any(|p| !p.changes.is_empty());
    let platforms = report
        .platforms
        .iter()
        .map(|p| platform_view(&report, &typed, p))
        .collect_view();
    view! {
        <div class="tune-result">
            <p class="verdict tune-fair" data-tune-fair="">
                <strong>"Each platform at its best: "</strong>{report.fair_verdict.clone()}
            </p>
            <p class="tune-as-typed muted" data-tune-as-typed="">"As typed: " {report.verdict_as_typed.clone()}</p>
            <ul class="tune-platforms">{platforms}</ul>
            {changed.then(|| view! {
                <button type="button" class="tune-apply" data-tune-apply="" on:click=apply>
                    "Apply the tuned settings"
                </button>
            })}
            <p class="muted tune-method">
                {format!(
                    "How: each setting in turn raced over a grid of values by successive halving, every candidate on the same replications \
                     (common random numbers), at most {RACE_REPS_MAX} a race; numeric settings refined on finer grids; then each tuned platform \
                     confirmed over the scenario's {} replications, paired with its settings as typed, and kept only where it is better there. \
                     A reserved base assumes the simulated load lasts the whole commitment term.",
                    report.replications
                )}
            </p>
        </div>
    }
}

/// One platform's part of the report.
fn platform_view(report: &TuneReport, typed: &Scenario, p: &TunedPlatform) -> impl IntoView {
    let change = |path: &String, to: &Value| {
        let from = p.changed_from.get(path).unwrap_or(&Value::Null);
        (
            change_label(typed, path),
            change_value(path, from),
            change_value(path, to),
        )
    };
    // The settings searched first; what moved with them (an instance type's prices and GPU)
    // after.
    let (searched, with_them): (Vec<_>, Vec<_>) = p
        .changes
        .iter()
        .partition(|(path, _)| p.searched.contains(path));
    let rows = searched
        .iter()
        .map(|(path, to)| {
            let (label, from, to) = change(path, to);
            view! {
                <li data-path=(*path).clone()>
                    <span class="tune-setting">{label}</span>": "{from}" → "<strong>{to}</strong>
                </li>
            }
        })
        .collect_view();
    let along = (!with_them.is_empty()).then(|| {
        let parts: Vec<String> = with_them
            .iter()
            .map(|(path, to)| {
                let (label, from, to) = change(path, to);
                format!("{label} {from} → {to}")
            })
            .collect();
        view! { <p class="tune-along muted">"With it: " {parts.join("; ")} "."</p> }
    });
    let checks: Vec<String> = p
        .constraints
        .iter()
        .filter(|c| !c.met)
        .map(|c| c.label.clone())
        .collect();
    let met = if p.constraints_met {
        "Every constraint holds.".to_string()
    } else {
        format!("Not met: {}.", checks.join(", "))
    };
    view! {
        <li class="tune-platform" data-tune-platform=p.name.clone()
            data-changes=p.changes.len().to_string()
            data-as-typed=p.as_typed.mean.to_string() data-tuned=p.tuned.mean.to_string()>
            <strong class="tune-name">{p.name.clone()}</strong>
            <p class="tune-sentence">{platform_sentence(report, p)}</p>
            {(!p.changes.is_empty()).then(|| view! { <ul class="tune-changes">{rows}</ul> })}
            {along}
            <p class="tune-checks muted">{met}</p>
            {p.notes.iter().map(|n| view! { <p class="tune-note">{n.clone()}</p> }).collect_view()}
        </li>
    }
}
