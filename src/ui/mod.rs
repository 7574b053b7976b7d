//! The Leptos user interface: the only module with signals, effects and web-sys.
//!
//! One source of truth, the scenario signal; every number on screen is a memo over a pure
//! function of `model` or `charts`. The Monte Carlo runs in Web Workers ([`sim_worker`],
//! driven by [`runner`]), in short main-thread slices where no worker can start (the single
//! file opened from disk); a newer input cancels the older run.

mod breakdown_chart;
mod case_studies;
mod chart_width;
mod compare;
mod controls;
mod count_people;
mod decision_map;
mod decision_map_worker;
mod embed_view;
mod export;
mod histogram_chart;
mod history_import;
mod history_worker_client;
mod hosted_api_fieldset;
mod job_classes;
mod link_sync;
mod method_panel;
mod node_pools;
mod node_timeline;
mod pass_worker;
mod payback_chart;
mod pipeline_editor;
mod pipelines_view;
mod platform_settings;
mod replay_banner;
mod results_view;
mod runner;
mod scenario_editor;
mod scenario_files;
mod sensitivity_view;
mod service_day;
mod services;
mod sim_worker;
mod simulation_settings;
mod team_policies;
mod trace_store;
mod traffic_import;
mod tune_panel;
mod tune_worker;
mod verdict_line;
mod waiting_cost;

use crate::model::analytic::estimate_platform;
use crate::model::ENGINE_VERSION;
use crate::workbench::link::EmbedChart;
use breakdown_chart::{BreakdownChart, TeamChart};
use histogram_chart::CostHistograms;
use leptos::prelude::*;
use method_panel::MethodPanel;
use node_timeline::NodeTimeline;
use results_view::Headlines;
use runner::use_monte_carlo;
use scenario_editor::ScenarioEditor;
use sensitivity_view::{BreakEvens, CheckpointAdvicePanel, TornadoCharts};
use service_day::ServiceDayChart;
use verdict_line::VerdictLine;

/// The colour class of the `i`-th platform's series (`series-0` to `series-5` in
/// style/main.css, one per platform a scenario may compare).
pub(crate) fn series_class(i: usize) -> String {
    format!(
        "series-{}",
        i % crate::model::scenario::limits::PLATFORMS_MAX
    )
}

/// Brings the element with id `id` into view (the narrow layout's switch between the results
/// and the scenario; not a `#id` link, since the fragment is the scenario's link).
pub(crate) fn scroll_to(id: &str) {
    if let Some(element) = document().get_element_by_id(id) {
        element.scroll_into_view();
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let from_link = link_sync::initial_from_location();
    let embed = from_link.embed;
    let embed_chart = from_link.embed_chart;
    let preset_name = RwSignal::new(from_link.preset.clone());
    let scenario = RwSignal::new(from_link.scenario.clone());
    provide_context(decision_map::MapChoice(RwSignal::new(
        from_link.map.clone(),
    )));
    link_sync::sync_to_location(scenario, preset_name, embed.then_some(embed_chart));
    let valid = Memo::new(move |_| scenario.with(|s| s.validate().map_err(|e| e.to_string())));
    let estimates = Memo::new(move |_| {
        if valid.with(|v| v.is_err()) {
            return Vec::new();
        }
        scenario.with(|s| {
            s.platforms
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.clone(), estimate_platform(s, i)))
                .collect()
        })
    });
    let run = use_monte_carlo(scenario.into());
    // The reference GPU, named in the units of reference-GPU-hours.
    let reference_gpu = Signal::derive(move || scenario.with(|s| s.reference_gpu.clone()));
    provide_context(history_import::RunResults(run.results));
    let replay_status = RwSignal::new(replay_banner::ReplayStatus::Off);
    provide_context(replay_banner::ReplayState(replay_status));
    if let Some(key) = from_link.replay_key.clone() {
        replay_banner::open_linked(key, scenario, replay_status);
    }
    let results_column = NodeRef::<leptos::html::Section>::new();
    chart_width::provide_chart_width(results_column);
    let state = move || if run.running.get() { "running" } else { "done" };
    view! {
        {(!embed).then(|| view! {
            <header class="masthead">
                <h1>"GPU training and serving cost calculator"</h1>
                <p class="lede">
                    "What a useful GPU-hour, a finished job and a served request really cost on each platform: idle time, "
                    "provisioning and image pulls, billing increments, spot interruptions, egress and people, "
                    "simulated as a distribution, in your browser."
                </p>
            </header>
        })}
        <main class="page" class:embed=embed>
            {(!embed).then(|| view! { <ScenarioEditor scenario=scenario preset_name=preset_name /> })}
            <section class="results" node_ref=results_column aria-labelledby="results-heading" data-state=state
                data-run=move || run.run.get()
                data-verdict-state=move || if run.verdict_final.get() { "final" } else { "pending" }
            >
                <h2 id="results-heading">"Results"</h2>
                {(!embed).then(|| view! {
                    <button type="button" class="pane-switch" on:click=move |_| scroll_to("scenario-heading")>
                        "Edit the scenario"
                    </button>
                })}
                <link_sync::LinkBar
                    scenario=scenario
                    preset_name=preset_name
                    notices=from_link.notices.clone()
                    embed=embed
                    busy=run.running.into()
                />
                <replay_banner::ReplayBanner scenario=scenario />
                <p class="scenario-error" role="alert">
                    {move || run.error.get().map(|e| format!("This scenario cannot run: {e}"))}
                </p>
                <p class="run-notice" role="status">
                    {move || {
                        let cut = run.results.with(|r| {
                            r.as_ref().and_then(|r| r.cut_off.as_ref().map(|c| c.to_string()))
                        });
                        let parts: Vec<String> = cut.into_iter().chain(run.restarted.get()).collect();
                        (!parts.is_empty()).then(|| parts.join(" "))
                    }}
                </p>
                <div class="progress" aria-live="polite">
                    <progress
                        max=move || run.total.get()
                        value=move || run.done.get()
                        aria-label="Simulation progress"
                    ></progress>
                    <span>
                        {move || format!(
                            "{} of {} replications{}",
                            run.done.get(),
                            run.total.get(),
                            if run.running.get() { " (running)" } else { "" }
                        )}
                    </span>
                    <span class="runner-note">
                        {move || match (run.in_worker.get(), run.workers.get()) {
                            (true, 1) => "Simulated in a background worker.".to_string(),
                            (true, n) => format!("Simulated in {n} background workers."),
                            _ => "No background worker here: simulated on the page's main thread in short slices.".to_string(),
                        }}
                    </span>
                </div>
                <VerdictLine scenario=scenario results=run.results tornado=run.tornado flips=run.flips />
                {if embed {
                    // A wiki's frame: the table, then the one chart the link names.
                    view! {
                        <embed_view::EmbedTable scenario=scenario results=run.results />
                        {match embed_chart {
                            EmbedChart::Breakdown => view! { <BreakdownChart results=run.results /> }.into_any(),
                            EmbedChart::Distribution => view! { <CostHistograms results=run.results gpu=reference_gpu /> }.into_any(),
                            EmbedChart::Timeline => view! { <NodeTimeline scenario=scenario /> }.into_any(),
                        }}
                    }
                    .into_any()
                } else {
                    view! {
                        <count_people::CountPeople scenario=scenario />
                        <waiting_cost::WaitingCost scenario=scenario />
                        <Headlines results=run.results estimates=estimates gpu=reference_gpu />
                        <tune_panel::TunePanel scenario=scenario busy=run.running.into() />
                        <export::ExportBar scenario=scenario results=run.results flips=run.flips />
                        <BreakdownChart results=run.results />
                        <TeamChart results=run.results scenario=scenario />
                        <pipelines_view::PipelinesView results=run.results scenario=scenario />
                        <payback_chart::PaybackChart results=run.results scenario=scenario />
                        <CostHistograms results=run.results gpu=reference_gpu />
                        <ServiceDayChart scenario=scenario />
                        // A serving-only scenario has no job to draw on nodes.
                        <Show when=move || scenario.with(|s| !s.job_classes.is_empty() || !s.pipelines.is_empty())>
                            <NodeTimeline scenario=scenario />
                        </Show>
                        <TornadoCharts state=run.tornado scenario=scenario />
                        <BreakEvens found=run.break_evens scenario=scenario />
                        <CheckpointAdvicePanel scenario=scenario />
                        <decision_map::DecisionMapPanel scenario=scenario busy=run.running.into() />
                        <case_studies::CaseStudies scenario=scenario preset_name=preset_name />
                        <MethodPanel scenario=scenario />
                    }
                    .into_any()
                }}
            </section>
        </main>
        <footer class="page-footer">
            "Engine " {ENGINE_VERSION} ". Runs entirely in your browser; nothing is sent anywhere."
        </footer>
    }
}
