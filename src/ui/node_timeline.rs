//! The node timeline of one replication: which jobs ran where, and when nodes sat idle, were
//! provisioned, pulled images or were interrupted. The picture that shows bin-packing and
//! warm pools.

use super::chart_width::chart_width;
use crate::charts::timeline::layout_timeline;
use crate::model::scenario::Scenario;
use crate::model::sim::{generate_jobs, simulate_platform_timeline, AttemptEnd};
use leptos::prelude::*;

const LABEL_W: f64 = 70.0;
const LANE_H: f64 = 4.0;
const MAX_ROWS: usize = 30;
/// The window shown: the first two days, or less when more than [`WINDOW_MAX_JOBS`] jobs
/// would arrive in them.
const WINDOW_S: i64 = 2 * 86_400;
/// Most jobs (expected) the timeline simulates: it runs on the page's main thread, so its cost
/// must stay a few milliseconds whatever the scenario's rate.
const WINDOW_MAX_JOBS: f64 = 5_000.0;

/// Hours of the window shown for `s`: two days, or the whole hours in which about
/// [`WINDOW_MAX_JOBS`] jobs arrive (at least one).
fn window_hours(s: &Scenario) -> f64 {
    let per_day = s.expected_jobs() / s.simulated_days().max(1e-9);
    let days = (WINDOW_S as f64 / 86_400.0).min(WINDOW_MAX_JOBS / per_day.max(1e-9));
    (days * 24.0).floor().clamp(1.0, WINDOW_S as f64 / 3_600.0)
}

/// Whether the measured window's first hours are drawn, after the warm-up: only where the
/// warm-up's jobs and the window's together keep to [`WINDOW_MAX_JOBS`] (else the run's start
/// is drawn, from an empty cluster, and the caption says so).
fn after_warmup(s: &Scenario) -> bool {
    let per_day = s.expected_jobs() / s.simulated_days().max(1e-9);
    s.warmup_days > 0.0 && (s.warmup_days + window_hours(s) / 24.0) * per_day <= WINDOW_MAX_JOBS
}

/// "the first two days" or "the first 12 hours".
fn window_text(hours: f64) -> String {
    if hours >= 48.0 {
        "the first two days".to_string()
    } else if hours == 1.0 {
        "the first hour".to_string()
    } else {
        format!("the first {hours:.0} hours")
    }
}

/// Timeline of replication 0 for the chosen platform.
#[component]
pub fn NodeTimeline(scenario: RwSignal<Scenario>) -> impl IntoView {
    let (chosen, set_chosen) = signal(0usize);
    let width = chart_width();
    // The simulation follows the scenario and the platform shown; the layout follows it and the
    // chart's width, so a resize (and the column's first measurement) only lays it out again.
    let timeline = Memo::new(move |_| {
        scenario.with(|s| {
            if s.validate().is_err() || s.platforms.is_empty() {
                return None;
            }
            let p = chosen.get().min(s.platforms.len() - 1);
            // Only the window is drawn, and the simulation is causal with per-class, per-node
            // and per-job random streams: simulating just the window gives the same first two
            // days at a bounded cost, whatever the horizon.
            // After a warm-up, the measured window's first hours (the warm-up simulated, not
            // drawn); where that is too many jobs, the run's start from an empty cluster.
            let mut window = s.clone();
            let from_s = if after_warmup(s) {
                window.horizon_days = s.horizon_days.min(window_hours(s) / 24.0);
                s.warmup_s()
            } else {
                window.horizon_days = s.simulated_days().min(window_hours(s) / 24.0);
                window.warmup_days = 0.0;
                0
            };
            let jobs = generate_jobs(&window, 0);
            Some((simulate_platform_timeline(&window, p, 0, &jobs).1, from_s))
        })
    });
    let layout = Memo::new(move |_| {
        let w = width.get();
        timeline.with(|t| {
            t.as_ref().map(|(t, from_s)| {
                layout_timeline(
                    t,
                    (*from_s, t.horizon_s),
                    LABEL_W,
                    w - 8.0,
                    LANE_H,
                    MAX_ROWS,
                )
            })
        })
    });
    view! {
        <figure class="chart timeline">
            <figcaption>
                {move || scenario.with(|s| {
                    if after_warmup(s) {
                        let shown = window_text(window_hours(s).min(s.horizon_days * 24.0));
                        format!("Nodes and jobs in {shown} of one run's measured window, after its warm-up")
                    } else if s.warmup_days > 0.0 {
                        let shown = window_text(window_hours(s).min(s.simulated_days() * 24.0));
                        format!("Nodes and jobs in {shown} of one run, from an empty cluster: its warm-up, before the measured window")
                    } else {
                        let shown = window_text(window_hours(s).min(s.horizon_days * 24.0));
                        format!("Nodes and jobs in {shown} of one run")
                    }
                })}
            </figcaption>
            <div class="control inline">
                <label for="timeline-platform">"Platform shown"</label>
                <select
                    id="timeline-platform"
                    on:change=move |ev| set_chosen.set(event_target_value(&ev).parse().unwrap_or(0))
                >
                    {move || {
                        scenario.with(|s| {
                            s.platforms
                                .iter()
                                .enumerate()
                                .map(|(i, p)| view! { <option value=i.to_string() selected=move || chosen.get() == i>{p.name.clone()}</option> })
                                .collect_view()
                        })
                    }}
                </select>
            </div>
            {move || {
                layout.get().map(|l| {
                    // Per job class, its team's index where the scenario has teams.
                    let team_of_class: Vec<Option<usize>> = scenario.with_untracked(|s| {
                        let names = s.team_names();
                        s.job_classes
                            .iter()
                            .map(|c| names.iter().position(|t| *t == c.team))
                            .collect()
                    });
                    let by_team = team_of_class.iter().any(Option::is_some);
                    let team_names: Vec<String> = scenario.with_untracked(|s| {
                        s.team_names()
                            .into_iter()
                            .map(|t| crate::model::scenario::teams::team_label(t).to_string())
                            .collect()
                    });
                    let height = l.height + 22.0;
                    let w = width.get_untracked();
                    let hidden = l.hidden_nodes;
                    view! {
                        <svg viewBox=format!("0 0 {w} {height}") role="img"
                            aria-label="Gantt chart: one row per node, job attempts as bars in the GPU lanes they used">
                            {l.ticks.iter().map(|(h, x)| view! {
                                <line class="gridline" x1=*x x2=*x y1=0.0 y2=l.height />
                                <text class="tick-label" x=*x y=height - 6.0 text-anchor="middle">{format!("{h} h")}</text>
                            }).collect_view()}
                            {l.rows.iter().map(|r| view! {
                                <text class="row-label" x=LABEL_W - 4.0 y=r.y + r.height / 2.0 text-anchor="end" dominant-baseline="middle">
                                    {format!("{} {}", match r.kind { "reserved" => "R", "spot" => "S", _ => "OD" }, r.node)}
                                </text>
                                {r.provisioning.map(|(x, w)| view! { <rect class="tl-provisioning" x=x y=r.y width=w height=r.height><title>"provisioning (billed)"</title></rect> })}
                                {r.ready.map(|(x, w)| view! { <rect class="tl-idle" x=x y=r.y width=w height=r.height><title>"node up: idle where no job runs"</title></rect> })}
                                {r.lost_at.map(|(x, what)| {
                                    view! { <line class="tl-interrupt" x1=x x2=x y1=r.y - 1.0 y2=r.y + r.height + 1.0><title>{what}</title></line> }
                                })}
                            }).collect_view()}
                            {l.bars.iter().map(|b| {
                                let ended = match b.ended {
                                    AttemptEnd::Finished => "finished",
                                    AttemptEnd::Interrupted => "interrupted",
                                    AttemptEnd::Failed => "failed",
                                    AttemptEnd::Preempted => "preempted",
                                    AttemptEnd::Horizon => "running",
                                };
                                // With teams, a bar takes its team's colour and its end an
                                // outline; without, its end is its colour.
                                let class = match team_of_class.get(b.class).copied().flatten() {
                                    Some(k) => format!("tl-job team-{} end-{ended}", k % 8),
                                    None => format!("tl-job {ended}"),
                                };
                                view! {
                                    <rect class=class x=b.x y=b.y + 0.5 width=b.width.max(0.5) height=(b.height - 1.0).max(0.5)>
                                        <title>{format!("job {}", b.job)}</title>
                                    </rect>
                                    <rect class="tl-setup" x=b.x y=b.y + 0.5 width=b.setup_width height=(b.height - 1.0).max(0.5) />
                                }
                            }).collect_view()}
                        </svg>
                        <p class="readout">
                            {if hidden > 0 { format!("{hidden} more nodes not shown. ") } else { String::new() }}
                            "Rows: nodes (R reserved, OD on-demand, S spot), one lane per GPU. Grey: provisioning; pale: idle; "
                            {if by_team {
                                "dark start of a bar: image pull and restart; bars in their team's colour, outlined where an attempt was preempted (pink), interrupted (orange) or failed (purple)."
                            } else {
                                "dark start of a bar: image pull and restart; green: finished; orange: interrupted; purple: failed; pink: preempted; blue: running at the end."
                            }}
                        </p>
                        {by_team.then(|| view! {
                            <ul class="legend">
                                {team_names
                                    .iter()
                                    .enumerate()
                                    .map(|(k, name)| view! { <li><span class=format!("swatch team-{}", k % 8)></span>{name.clone()}</li> })
                                    .collect_view()}
                            </ul>
                        })}
                    }
                })
            }}
        </figure>
    }
}
