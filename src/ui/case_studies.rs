//! "Case studies": each story of the seed articles with the article's claim beside what the
//! model gives for the same quantity on a preset built from the article's inputs, and why
//! they differ. Opening a case loads its preset. The entries come from `data/cases/` (the
//! model's figures are kept fresh by a test that reruns each preset).

use crate::model::scenario::Scenario;
use crate::workbench::cases::{cases, Case};
use crate::workbench::presets::preset;
use leptos::prelude::*;

/// The collapsible case-study panel.
#[component]
pub fn CaseStudies(scenario: RwSignal<Scenario>, preset_name: RwSignal<String>) -> impl IntoView {
    let entries = cases();
    view! {
        <details class="case-studies" id="case-studies">
            <summary>"Case studies: the articles' numbers, checked"</summary>
            <p class="muted">
                "Each story of the articles this calculator was built from, on a preset made of the inputs the article states (what it leaves out is listed as assumed). The article's figure is an anecdote; the model's is the preset's result for the same quantity."
            </p>
            {entries
                .into_iter()
                .map(|case| view! { <CaseEntry case=case scenario=scenario preset_name=preset_name /> })
                .collect_view()}
        </details>
    }
}

/// One case: its quote, inputs, the two figures, why they differ, and a button that opens it.
#[component]
fn CaseEntry(
    case: Case,
    scenario: RwSignal<Scenario>,
    preset_name: RwSignal<String>,
) -> impl IntoView {
    let name = case.preset.clone();
    let open_name = name.clone();
    let is_open = Memo::new(move |_| preset_name.with(|p| *p == open_name));
    let open = move |_| {
        if let Some(p) = preset(&name) {
            preset_name.set(name.clone());
            scenario.set(p.scenario());
            super::scroll_to("results-heading");
        }
    };
    let seed = case.seed.split('_').next().unwrap_or_default().to_string();
    view! {
        <article class="case" data-case=case.story.clone()>
            <h4>{case.title.clone()}</h4>
            <blockquote>
                {format!("“{}”", case.quote)}
                <footer>{format!("Seed {seed} ({})", case.seed)}</footer>
            </blockquote>
            <dl class="case-figures">
                <dt>"The article"</dt>
                <dd data-claim=case.story.clone()>{format!("{}: {}", case.claim.what, case.claim_text())}</dd>
                <dt>"The model"</dt>
                <dd data-model=case.story.clone()>{case.model_text()}</dd>
                {case.beside_text().map(|text| view! {
                    <dt>"Beside it"</dt>
                    <dd data-beside=case.story.clone()>{format!("{text} ({})", case.beside.as_ref().map(|b| b.metric.scope().text()).unwrap_or_default())}</dd>
                })}
                <dt>"What it counts"</dt>
                <dd data-scope=case.claim.scope.key()>{case.claim.scope.text()}</dd>
                <dt>"Reading"</dt>
                <dd data-reading=case.reading.key()>{case.reading.text()}</dd>
                <dt>"Why"</dt>
                <dd data-why=case.story.clone()>{case.why_text()}</dd>
            </dl>
            <details class="case-inputs">
                <summary>"Inputs"</summary>
                <p>"Given by the article:"</p>
                <ul>{case.inputs.iter().map(|i| view! { <li>{i.clone()}</li> }).collect_view()}</ul>
                <p>"Added by this entry, where the article is silent:"</p>
                <ul>{case.assumed.iter().map(|i| view! { <li>{i.clone()}</li> }).collect_view()}</ul>
            </details>
            <button type="button" class="open-case" on:click=open disabled=move || is_open.get()>
                {move || if is_open.get() { "Open now".to_string() } else { format!("Open this case (preset {})", case.preset) }}
            </button>
        </article>
    }
}
