//! The scenario lives in the URL fragment: read once at start-up (with a notice for anything
//! ignored), written back as the user edits (history replace, debounced, so the back button
//! is not flooded), and copied with the "Copy link" button.

use super::decision_map::MapChoice;
use crate::model::scenario::Scenario;
use crate::workbench::link::{decode_link, encode_link, DecodedLink, EmbedChart};
use leptos::prelude::*;
use std::time::Duration;

/// How long the fragment waits after the last edit before it is rewritten.
const DEBOUNCE: Duration = Duration::from_millis(300);

/// The scenario of the page's link at start-up (the default preset when it has none).
pub fn initial_from_location() -> DecodedLink {
    let hash = window().location().hash().unwrap_or_default();
    decode_link(hash.trim_start_matches('#'))
}

/// The link parts of an embedded view: `&embed=1`, and its chart when not the default.
pub fn embed_parts(chart: EmbedChart) -> String {
    if chart == EmbedChart::default() {
        "&embed=1".to_string()
    } else {
        format!("&embed=1&chart={}", chart.key())
    }
}

/// Keeps the fragment in step with the scenario (an embedded view keeps its `embed=1` and
/// `chart=`).
pub fn sync_to_location(
    scenario: RwSignal<Scenario>,
    preset_name: RwSignal<String>,
    embed: Option<EmbedChart>,
) {
    let pending = StoredValue::new(0u64);
    let map = use_context::<MapChoice>();
    Effect::new(move |first: Option<()>| {
        scenario.track();
        preset_name.track();
        if let Some(MapChoice(map)) = map {
            map.track();
        }
        if first.is_none() {
            return; // the page just opened on this scenario: leave the link as the user gave it
        }
        let ticket = pending.get_value() + 1;
        pending.set_value(ticket);
        // Encoded once the inputs pause, not on every input of a drag.
        set_timeout(
            move || {
                if pending.get_value() != ticket {
                    return;
                }
                let mut link =
                    scenario.with_untracked(|s| encode_link(s, &preset_name.get_untracked()));
                link.push_str(&map_part(map));
                if let Some(chart) = embed {
                    link.push_str(&embed_parts(chart));
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

/// The decision map's part of the link (`&map=…`) when the page shows one; empty otherwise.
fn map_part(map: Option<MapChoice>) -> String {
    map.and_then(|MapChoice(map)| map.with_untracked(|m| m.as_ref().map(|m| m.link_part())))
        .map(|part| format!("&{part}"))
        .unwrap_or_default()
}

/// The link of the current page, for the "Copy link" button (with the decision map shown).
pub fn current_link(scenario: &Scenario, preset_name: &str, map: Option<MapChoice>) -> String {
    let location = window().location();
    let base = location.href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default().to_string();
    format!(
        "{base}#{}{}",
        encode_link(scenario, preset_name),
        map_part(map)
    )
}

/// The `<iframe>` snippet that embeds the current scenario, showing `chart`, in another site
/// (a wiki page), `width` × `height` CSS px.
pub fn embed_snippet(link: &str, chart: EmbedChart, (width, height): (u32, u32)) -> String {
    format!(
        "<iframe src=\"{link}{}\" title=\"GPU training and serving cost calculator\" width=\"{width}\" height=\"{height}\" \
         sandbox=\"allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox\" \
         loading=\"lazy\"></iframe>",
        embed_parts(chart)
    )
}

/// The iframe size the Embed dialog starts with: a wiki's usual frame.
const EMBED_SIZE: (u32, u32) = (640, 480);
/// The sizes the dialog accepts, CSS px.
const EMBED_SIZE_RANGE: (f64, f64) = (240.0, 4_000.0);

/// The Embed dialog: the chart, the frame's size, and the snippet to paste.
#[component]
fn EmbedDialog(link: Signal<String>) -> impl IntoView {
    let chart = RwSignal::new(EmbedChart::default());
    let width = RwSignal::new(EMBED_SIZE.0);
    let height = RwSignal::new(EMBED_SIZE.1);
    let size_field = |id: &'static str, label: &'static str, size: RwSignal<u32>| {
        view! {
            <super::controls::NumberField
                id=id.to_string()
                label=label
                unit="px"
                min=EMBED_SIZE_RANGE.0
                max=EMBED_SIZE_RANGE.1
                value=Signal::derive(move || f64::from(size.get()))
                on_change=Callback::new(move |v: f64| size.set(v.round() as u32))
            />
        }
    };
    view! {
        <div class="embed-dialog">
            <div class="field">
                <label for="embed-chart">"Chart shown"</label>
                <select id="embed-chart" on:change=move |ev| {
                    if let Some(c) = EmbedChart::from_key(&event_target_value(&ev)) {
                        chart.set(c);
                    }
                }>
                    {EmbedChart::ALL
                        .into_iter()
                        .map(|c| view! { <option value=c.key() selected=move || chart.get() == c>{c.label()}</option> })
                        .collect_view()}
                </select>
            </div>
            {size_field("embed-width", "Frame width", width)}
            {size_field("embed-height", "Frame height", height)}
            <label for="embed-snippet">"Paste this into a wiki page (the calculator must be served from another origin than the wiki):"</label>
            <textarea
                id="embed-snippet"
                readonly
                rows="4"
                prop:value=move || embed_snippet(&link.get(), chart.get(), (width.get(), height.get()))
            ></textarea>
        </div>
    }
}

/// Notices about the link, "Copy link", and the embed snippet; in an embedded view, a link to
/// the full calculator instead.
#[component]
pub fn LinkBar(
    scenario: RwSignal<Scenario>,
    preset_name: RwSignal<String>,
    notices: Vec<String>,
    embed: bool,
    /// The page's own run is in flight (the comparison waits for it).
    busy: Signal<bool>,
) -> impl IntoView {
    let map = use_context::<MapChoice>();
    let full_link = move || {
        if let Some(MapChoice(m)) = map {
            m.track();
        }
        scenario.with(|s| current_link(s, &preset_name.get(), map))
    };
    let (show_embed, set_show_embed) = signal(false);
    let (show_compare, set_show_compare) = signal(false);
    if embed {
        return view! {
            <div class="link-bar">
                <a href=full_link target="_blank" rel="noopener">"Open the full calculator"</a>
            </div>
        }
        .into_any();
    }
    let (copied, set_copied) = signal(None::<String>);
    let copy = move |_| {
        let link = scenario.with(|s| current_link(s, &preset_name.get_untracked(), map));
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
            <button type="button" on:click=move |_| set_show_embed.update(|v| *v = !*v)>"Embed"</button>
            <button type="button" aria-expanded=move || show_compare.get().to_string()
                on:click=move |_| set_show_compare.update(|v| *v = !*v)>"Compare"</button>
            <span class="readout" role="status">{move || copied.get()}</span>
            {move || show_embed.get().then(|| view! { <EmbedDialog link=Signal::derive(full_link) /> })}
            {move || show_compare.get().then(|| view! {
                <super::compare::ComparePanel current_link=Signal::derive(full_link) busy=busy />
            })}
            {(!notices.is_empty()).then(|| view! {
                <div class="link-notices" role="alert">
                    <p>"Parts of the link could not be read:"</p>
                    <ul>{notices.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </div>
            })}
        </div>
    }
    .into_any()
}
