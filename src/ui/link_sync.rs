//! The scenario lives in the URL fragment: read once at start-up (with a notice for anything
//! ignored), written back as the user edits (history replace, debounced, so the back button
//! is not flooded), and copied with the "Copy link" button.

use crate::model::scenario::Scenario;
use crate::scenario::link::{decode_link, encode_link, DecodedLink};
use leptos::prelude::*;
use std::time::Duration;

/// How long the fragment waits after the last edit before it is rewritten.
const DEBOUNCE: Duration = Duration::from_millis(300);

/// The scenario of the page's link at start-up (the default preset when it has none).
pub fn initial_from_location() -> DecodedLink {
    let hash = window().location().hash().unwrap_or_default();
    decode_link(hash.trim_start_matches('#'))
}

/// Keeps the fragment in step with the scenario.
pub fn sync_to_location(scenario: RwSignal<Scenario>, preset_name: RwSignal<String>) {
    let pending = StoredValue::new(0u64);
    Effect::new(move |first: Option<()>| {
        let link = scenario.with(|s| encode_link(s, &preset_name.get()));
        if first.is_none() {
            return; // the page just opened on this scenario: leave the link as the user gave it
        }
        let ticket = pending.get_value() + 1;
        pending.set_value(ticket);
        set_timeout(
            move || {
                if pending.get_value() != ticket {
                    return;
                }
                if let Ok(history) = window().history() {
                    let _ = history.replace_state_with_url(
                        &wasm_bindgen::JsValue::NULL,
                        "",
                        Some(&format!("#{link}")),
                    );
                }
            },
            DEBOUNCE,
        );
    });
}

/// The link of the current page, for the "Copy link" button.
pub fn current_link(scenario: &Scenario, preset_name: &str) -> String {
    let location = window().location();
    let base = location.href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default().to_string();
    format!("{base}#{}", encode_link(scenario, preset_name))
}

/// Notices about the link, and a "Copy link" button.
#[component]
pub fn LinkBar(
    scenario: RwSignal<Scenario>,
    preset_name: RwSignal<String>,
    notices: Vec<String>,
) -> impl IntoView {
    let (copied, set_copied) = signal(None::<String>);
    let copy = move |_| {
        let link = scenario.with(|s| current_link(s, &preset_name.get_untracked()));
        let clipboard = window().navigator().clipboard();
        let promise = clipboard.write_text(&link);
        wasm_bindgen_futures::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(promise).await;
            set_copied.set(Some(match done {
                Ok(_) => "Link copied.".to_string(),
                Err(_) => format!("Copy this link: {link}"),
            }));
        });
    };
    view! {
        <div class="link-bar">
            <button type="button" on:click=copy>"Copy link"</button>
            <span class="readout" role="status">{move || copied.get()}</span>
            {(!notices.is_empty()).then(|| view! {
                <div class="link-notices" role="alert">
                    <p>"Parts of the link could not be read:"</p>
                    <ul>{notices.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </div>
            })}
        </div>
    }
}
