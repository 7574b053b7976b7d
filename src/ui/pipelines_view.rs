//! The scenario's pipelines: each drawn as its DAG of stages, and what each platform made of
//! its runs (end-to-end hours, USD per run, runs completed and failed), with each pipeline's
//! editor. Folded away where the scenario has none (a button adds one).

use crate::charts::dag::{layout_dag, BOX_H, BOX_W};
use crate::format::{group_thousands, usd};
use crate::model::monte_carlo::Results;
use crate::model::scenario::Scenario;
use leptos::prelude::*;

const PAD: f64 = 6.0;

/// The pipelines section.
#[component]
pub fn PipelinesView(
    #[prop(into)] results: Signal<Option<Results>>,
    scenario: RwSignal<Scenario>,
) -> impl IntoView {
    let layouts = Memo::new(move |_| {
        scenario.with(|s| {
            s.pipelines
                .iter()
                .map(|p| (p.name.clone(), layout_dag(p)))
                .collect::<Vec<_>>()
        })
    });
    let has = move || scenario.with(|s| !s.pipelines.is_empty());
    let rows = move |k: usize| {
        results.with(|r| {
            r.iter()
                .flat_map(|r| &r.platforms)
                .filter_map(|p| p.pipelines.get(k).map(|q| (p.name.clone(), q.clone())))
                .collect::<Vec<_>>()
        })
    };
    let hours = |h: Option<f64>| h.map_or_else(|| "–".to_string(), |h| format!("{h:.1} h"));
    view! {
        <details class="pipelines" prop:open=has>
                <summary>{move || if has() { "Pipelines" } else { "Pipelines (none): stages that run after one another" }}</summary>
                {move || layouts.get().into_iter().enumerate().map(|(k, (name, l))| {
                    let w = l.width + 2.0 * PAD;
                    let h = l.height + 2.0 * PAD;
                    let boxes = l.boxes.iter().map(|b| view! {
                        <g class="dag-stage" data-stage=b.name.clone()>
                            <rect x=b.x + PAD y=b.y + PAD width=BOX_W height=BOX_H rx=4 />
                            <text x=b.x + PAD + 6.0 y=b.y + PAD + BOX_H / 2.0 dominant-baseline="middle">
                                {b.name.clone()}
                            </text>
                        </g>
                    }).collect_view();
                    let edges = l.edges.iter().map(|e| view! {
                        <line class="dag-edge" x1=e.from.0 + PAD y1=e.from.1 + PAD x2=e.to.0 + PAD - 3.0 y2=e.to.1 + PAD marker-end="url(#dag-arrow)" />
                    }).collect_view();
                    // Only the table follows the results (the drawing and the editor stay).
                    let table = move || rows(k).into_iter().map(|(platform, q)| {
                        let p50 = q.end_to_end_hours.p50.as_ref().map(|s| s.mean);
                        let p95 = q.end_to_end_hours.p95.as_ref().map(|s| s.mean);
                        let per_run = q.usd_per_pipeline_run.as_ref().map(|s| s.mean);
                        view! {
                            <tr data-platform=platform.clone()>
                                <th scope="row">{platform.clone()}</th>
                                <td data-platform=platform.clone() data-metric="pipelines.end_to_end_hours.p50.mean" data-value=p50.map(|v| v.to_string())>{hours(p50)}</td>
                                <td data-platform=platform.clone() data-metric="pipelines.end_to_end_hours.p95.mean" data-value=p95.map(|v| v.to_string())>{hours(p95)}</td>
                                <td data-platform=platform.clone() data-metric="pipelines.usd_per_pipeline_run.mean" data-value=per_run.map(|v| v.to_string())>
                                    {per_run.map_or_else(|| "–".to_string(), usd)}
                                </td>
                                <td data-platform=platform.clone() data-metric="pipelines.runs_completed.mean" data-value=q.runs_completed.mean.to_string()>
                                    {group_thousands(q.runs_completed.mean.round() as u64)}
                                </td>
                                <td data-platform=platform.clone() data-metric="pipelines.runs_failed.mean" data-value=q.runs_failed.mean.to_string()>
                                    {format!("{:.1}", q.runs_failed.mean)}
                                </td>
                            </tr>
                        }
                    }).collect_view();
                    view! {
                        <section class="pipeline" data-pipeline=name.clone()>
                            <h3>{name.clone()}</h3>
                            <super::pipeline_editor::PipelineEditor scenario=scenario p=k />
                            <div class="dag-scroll">
                                <svg class="dag" viewBox=format!("0 0 {w} {h}") width=w height=h role="img"
                                    aria-label=format!("The stages of pipeline {name}, each after the stages its arrows come from")>
                                    <defs>
                                        <marker id="dag-arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto">
                                            <path d="M0,0 L6,3 L0,6 z" />
                                        </marker>
                                    </defs>
                                    <g>{edges}</g>
                                    <g>{boxes}</g>
                                </svg>
                            </div>
                            <table class="pipeline-results">
                                <thead>
                                    <tr>
                                        <th scope="col">"Platform"</th>
                                        <th scope="col">"End to end, median"</th>
                                        <th scope="col">"End to end, p95"</th>
                                        <th scope="col">"Per run"</th>
                                        <th scope="col">"Runs completed"</th>
                                        <th scope="col">"Runs failed"</th>
                                    </tr>
                                </thead>
                                <tbody>{table}</tbody>
                            </table>
                        </section>
                    }
                }).collect_view()}
                <p class="chart-note">
                    "A stage is submitted when every stage it comes after has finished, and waits in the queue behind jobs submitted before it. End to end runs from a run's arrival to its last stage's end, over the runs completed in the horizon (each replication's median and 95th percentile, averaged). Per run counts the GPU time the stages spent (compute, pulls, checkpoints, failed attempts, held nodes) and the workflow engine's charge per state transition, one per stage attempt; the cluster's idle time and fixed costs are not shared out. A stage that gives up fails its run: the stages after it never run. Edit a pipeline's stages under its name; choose the pool each stage runs on in a platform's settings, under Where each job class runs."
                </p>
                <button type="button" id="add-pipeline"
                    disabled=move || scenario.with(|s| s.platforms.iter().any(|p| !p.runs_nodes()))
                    title=move || scenario.with(|s| s.platforms.iter().any(|p| !p.runs_nodes())
                        .then_some("A hosted LLM API runs no pipelines: remove it to add one"))
                    on:click=move |_| scenario.update(|s| { crate::workbench::edit::pipelines::add_pipeline(s); })>
                    "Add a pipeline"
                </button>
        </details>
    }
}
