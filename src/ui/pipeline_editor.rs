//! Editing a pipeline on the page: how often it runs, and its stages as rows (name, GPUs,
//! median run time, what it comes after as a multi-select, remove), with a stage to add. The
//! edits are `workbench::edit::pipelines`'; a cycle they make is named by validation in the
//! results column, as any scenario that cannot run is.

use super::controls::NumberField;
use crate::model::scenario::fields::{field, PIPELINE_FIELDS};
use crate::model::scenario::Scenario;
use crate::workbench::edit::{class, pipelines as edit};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The editor of pipeline `p`.
#[component]
pub fn PipelineEditor(scenario: RwSignal<Scenario>, p: usize) -> impl IntoView {
    let count =
        Memo::new(move |_| scenario.with(|s| s.pipelines.get(p).map_or(0, |q| q.stages.len())));
    let runs = Signal::derive(move || {
        scenario.with(|s| {
            s.pipelines
                .get(p)
                .map_or(0.0, |q| q.arrivals.jobs_per_day())
        })
    });
    // The runs a day take their range from the pipeline's row.
    let row = field(PIPELINE_FIELDS, "arrivals.per_day").expect("the runs-a-day row");
    view! {
        <details class="pipeline-editor">
            <summary>{move || format!("Edit its {} stages", count.get())}</summary>
            <NumberField
                id=format!("pipeline-{p}-runs")
                label=row.label
                unit="runs/day"
                min=row.min
                max=row.max
                value=runs
                on_change=Callback::new(move |v: f64| scenario.update(|s| {
                    if let Some(q) = s.pipelines.get_mut(p) {
                        let now = q.arrivals.jobs_per_day();
                        q.arrivals = if now > 0.0 {
                            q.arrivals.scaled(v / now)
                        } else {
                            crate::model::scenario::Arrivals::Steady { per_day: v }
                        };
                    }
                }))
            />
            {move || (0..count.get()).map(|s| view! { <StageRow scenario=scenario p=p s=s /> }).collect_view()}
            <div class="pipeline-buttons">
                <button type="button" id=format!("pipeline-{p}-add-stage")
                    on:click=move |_| scenario.update(|s| { edit::add_stage(s, p); })>
                    "Add a stage"
                </button>
                <button type="button" id=format!("pipeline-{p}-remove")
                    on:click=move |_| scenario.update(|s| { edit::remove_pipeline(s, p); })>
                    "Remove pipeline"
                </button>
            </div>
        </details>
    }
}

/// Stage `s` of pipeline `p` as a row.
#[component]
fn StageRow(scenario: RwSignal<Scenario>, p: usize, s: usize) -> impl IntoView {
    let id = move |what: &str| format!("pipeline-{p}-stage-{s}-{what}");
    let stage =
        move || scenario.with(|sc| sc.pipelines.get(p).and_then(|q| q.stages.get(s)).cloned());
    let name = move || stage().map(|st| st.name).unwrap_or_default();
    let gpus = Signal::derive(move || stage().map_or(1.0, |st| st.gpus_per_job));
    let median = Signal::derive(move || {
        stage()
            .and_then(|st| class::duration_median(&st))
            .unwrap_or(1.0)
    });
    // Every other stage, and whether this one comes after it.
    // A memo: the options are drawn again only when the names or this stage's after change.
    let others = Memo::new(move |_| {
        scenario.with(|sc| {
            let Some(q) = sc.pipelines.get(p) else {
                return Vec::new();
            };
            let mine = q
                .stages
                .get(s)
                .map(|st| st.after.clone())
                .unwrap_or_default();
            q.stages
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != s)
                .map(|(_, o)| (o.name.clone(), mine.contains(&o.name)))
                .collect::<Vec<_>>()
        })
    });
    let (rename_error, set_rename_error) = signal(None::<String>);
    view! {
        <fieldset class="stage-row" data-stage=name>
            <legend>{move || format!("Stage {}", s + 1)}</legend>
            <div class="field">
                <label for=id("name")>"Name"</label>
                <input id=id("name") type="text" prop:value=name
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        let mut done = false;
                        scenario.update(|sc| done = edit::rename_stage(sc, p, s, &text));
                        set_rename_error.set((!done).then(|| format!(
                            "\"{}\" is empty or already a stage of this pipeline: names are unique",
                            text.trim()
                        )));
                    } />
                <p class="input-error" role="alert">{move || rename_error.get()}</p>
            </div>
            <NumberField id=id("gpus") label="GPUs" unit="per job" min=0.001 max=4096.0 value=gpus
                on_change=Callback::new(move |v: f64| scenario.update(|sc| {
                    if let Some(st) = sc.pipelines.get_mut(p).and_then(|q| q.stages.get_mut(s)) {
                        st.gpus_per_job = v;
                    }
                })) />
            <NumberField id=id("hours") label="Median run time" unit="h" min=0.001 max=8760.0 value=median
                on_change=Callback::new(move |v: f64| scenario.update(|sc| {
                    if let Some(st) = sc.pipelines.get_mut(p).and_then(|q| q.stages.get_mut(s)) {
                        class::set_duration_median(st, v);
                    }
                })) />
            <div class="field">
                <label for=id("after")>"After"</label>
                <select id=id("after") multiple
                    on:change=move |ev| {
                        let Some(select) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else {
                            return;
                        };
                        let chosen: Vec<String> = (0..select.length())
                            .filter_map(|i| select.item(i))
                            .filter(|o| o.matches(":checked").unwrap_or(false))
                            .filter_map(|o| o.get_attribute("value"))
                            .collect();
                        scenario.update(|sc| { edit::set_stage_after(sc, p, s, &chosen); });
                    }>
                    {move || others.get().into_iter().map(|(n, on)| view! {
                        <option value=n.clone() prop:selected=on>{n.clone()}</option>
                    }).collect_view()}
                </select>
            </div>
            <button type="button" id=id("remove")
                disabled=move || count_of(scenario, p) <= 1
                on:click=move |_| scenario.update(|sc| { edit::remove_stage(sc, p, s); })>
                "Remove stage"
            </button>
        </fieldset>
    }
}

fn count_of(scenario: RwSignal<Scenario>, p: usize) -> usize {
    scenario.with(|s| s.pipelines.get(p).map_or(0, |q| q.stages.len()))
}
