//! A replayed job history in the page: kept in the browser after an import, looked up when a
//! link names one, and a banner that says which jobs run (the recorded ones, or the fitted
//! classes the link carries because the history is not here) with a way back to the classes.

use super::trace_store;
use crate::model::scenario::{Replay, Scenario};
use leptos::prelude::*;

/// Where the replayed history stands.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayStatus {
    /// No replay asked for.
    Off,
    /// A link names a history: looking for it in this browser.
    Looking(String),
    /// The link's history is not here, and why.
    Missing {
        /// Its key.
        key: String,
        /// Why, as a clause.
        why: String,
    },
    /// Imported or found: being kept in this browser (`None`), kept (`Some(Ok)`), or not
    /// kept, and why.
    Replaying(Option<Result<(), String>>),
}

/// The page's replay status, shared by the import panel and the banner.
#[derive(Clone, Copy)]
pub struct ReplayState(pub RwSignal<ReplayStatus>);

/// Keeps a just-imported replay in the browser, saying how that went.
pub fn keep(replay: Replay, state: RwSignal<ReplayStatus>) {
    state.set(ReplayStatus::Replaying(None));
    wasm_bindgen_futures::spawn_local(async move {
        let kept = trace_store::keep(&replay).await;
        if matches!(state.get_untracked(), ReplayStatus::Replaying(_)) {
            state.set(ReplayStatus::Replaying(Some(kept)));
        }
    });
}

/// Looks for the history a link names and, if this browser keeps it and it fits the link's
/// classes, replays it.
pub fn open_linked(key: String, scenario: RwSignal<Scenario>, state: RwSignal<ReplayStatus>) {
    state.set(ReplayStatus::Looking(key.clone()));
    wasm_bindgen_futures::spawn_local(async move {
        let missing = |why: String| ReplayStatus::Missing {
            key: key.clone(),
            why,
        };
        let next = match trace_store::find(&key).await {
            Ok(Some(replay)) => {
                let mut next = scenario.get_untracked();
                next.replay = Some(replay);
                match next.validate() {
                    Ok(()) => {
                        scenario.set(next);
                        ReplayStatus::Replaying(Some(Ok(())))
                    }
                    Err(e) => missing(format!("it does not fit the link's job classes ({e})")),
                }
            }
            Ok(None) => missing("this browser does not keep it".to_string()),
            Err(e) => missing(format!(
                "this page cannot read the browser's storage here ({e})"
            )),
        };
        state.set(next);
    });
}

/// Which jobs run: the recorded ones, or the fitted classes in their place.
#[component]
pub fn ReplayBanner(scenario: RwSignal<Scenario>) -> impl IntoView {
    let state = use_context::<ReplayState>().map(|s| s.0);
    let replaying = Memo::new(move |_| {
        scenario.with(|s| s.replay.as_ref().map(|r| (r.jobs.len(), r.key.clone())))
    });
    let stop = move |_| {
        scenario.update(|s| s.replay = None);
        if let Some(state) = state {
            state.set(ReplayStatus::Off);
        }
    };
    move || {
        let status = state.map(|s| s.get()).unwrap_or(ReplayStatus::Off);
        match (replaying.get(), status) {
            (Some((jobs, key)), status) => {
                let kept = match status {
                    ReplayStatus::Replaying(None) => " Keeping it in this browser…".to_string(),
                    ReplayStatus::Replaying(Some(Ok(()))) => format!(
                        " This browser keeps it under the key {key}, which the link names: the link replays it here, and shows the fitted classes elsewhere."
                    ),
                    ReplayStatus::Replaying(Some(Err(why))) => format!(
                        " It could not be kept in this browser ({why}): the link carries the fitted classes only."
                    ),
                    _ => String::new(),
                };
                view! {
                    <div class="replay-banner" role="status" data-replay="on" data-jobs=jobs>
                        <p>{format!(
                            "Replaying {jobs} recorded jobs: arrivals, run times and outcomes as the history has them; the Monte Carlo varies only what each platform adds. The classes' arrival rates, durations and failure rates (and the utilization slider) do not move these jobs; their GPUs, images, checkpoints and data do.{kept}"
                        )}</p>
                        <button type="button" on:click=stop>"Use the fitted classes instead"</button>
                    </div>
                }
                .into_any()
            }
            (None, ReplayStatus::Looking(_)) => view! {
                <div class="replay-banner" role="status" data-replay="looking">
                    <p>"This link replays a job history: looking for it in this browser…"</p>
                </div>
            }
            .into_any(),
            (None, ReplayStatus::Missing { key, why }) => view! {
                <div class="replay-banner missing" role="alert" data-replay="missing">
                    <p>{format!(
                        "This link replays a job history (key {key}) that is not here: {why}. Showing the fitted job classes the link carries instead; import the same file with \u{201c}Replay the exact jobs\u{201d} to replay it."
                    )}</p>
                </div>
            }
            .into_any(),
            _ => ().into_any(),
        }
    }
}
