//! The Leptos user interface: the only module with signals, effects and web-sys.
//!
//! One source of truth, the scenario signal; every number on screen is a memo over a pure
//! function of `model` or `charts`. The Monte Carlo runs in Web Workers ([`sim_worker`],
//! driven by [`runner`]), in short main-thread slices where no worker can start (the single
//! file opened from disk); a newer input cancels the older run.

mod breakdown_chart;
mod compare;
mod controls;
mod export;
mod histogram_chart;
mod job_classes;
mod link_sync;
mod method_panel;
mod node_timeline;
mod platform_settings;
mod results_view;
mod runner;
mod scenario_editor;
mod scenario_files;
mod sensitivity_view;
mod sim_worker;

use crate::model::analytic::estimate_platform;
use crate::model::ENGINE_VERSION;
use breakdown_chart::BreakdownChart;
use histogram_chart::CostHistograms;
use leptos::prelude::*;
use method_panel::MethodPanel;
use node_timeline::NodeTimeline;
use results_view::Headlines;
use runner::use_monte_carlo;
use scenario_editor::ScenarioEditor;
use sensitivity_view::{BreakEvens, CheckpointAdvicePanel, TornadoCharts};

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let from_link = link_sync::initial_from_location();
    let embed = from_link.embed;
    let preset_name = RwSignal::new(from_link.preset.clone());
    let scenario = RwSignal::new(from_link.scenario.clone());
    link_sync::sync_to_location(scenario, preset_name, embed);
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
    let state = move || if run.running.get() { "running" } else { "done" };
    view! {
        <header class="masthead">
            <h1>"GPU training cost calculator"</h1>
            <p class="lede">
                "What a useful GPU-hour and a finished job really cost on each platform: idle time, "
                "provisioning and image pulls, billing increments, spot interruptions, egress and people, "
                "simulated as a distribution, in your browser."
            </p>
        </header>
        <main class="page" class:embed=embed>
            {(!embed).then(|| view! { <ScenarioEditor scenario=scenario preset_name=preset_name /> })}
            <section class="results" aria-labelledby="results-heading" data-state=state
                data-run=move || run.run.get()
            >
                <h2 id="results-heading">"Results"</h2>
                <link_sync::LinkBar
                    scenario=scenario
                    preset_name=preset_name
                    notices=from_link.notices.clone()
                    embed=embed
                    busy=run.running.into()
                />
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
                <Headlines results=run.results estimates=estimates />
                {(!embed).then(|| view! { <export::ExportBar scenario=scenario results=run.results /> })}
                <BreakdownChart results=run.results />
                <CostHistograms results=run.results />
                <NodeTimeline scenario=scenario />
                <TornadoCharts state=run.tornado scenario=scenario />
                <BreakEvens found=run.break_evens scenario=scenario />
                <CheckpointAdvicePanel scenario=scenario />
                <MethodPanel scenario=scenario />
            </section>
        </main>
        <footer class="page-footer">
            "Engine " {ENGINE_VERSION} ". Runs entirely in your browser; nothing is sent anywhere."
        </footer>
    }
}
