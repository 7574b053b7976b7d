//! The tornado chart (which input moves each platform's cost most) and the checkpoint advice.

use super::chart_width::chart_width;
use crate::charts::scale::{nice_ticks_between, LinearScale};
use crate::charts::tornado::layout_tornado;
use crate::format::{trim_number, usd, usd_compact};
use crate::model::analytic::checkpoint_advice;
use crate::model::scenario::Scenario;
use crate::model::sensitivity::BreakEvenKind;
use crate::model::sensitivity::FoundBreakEven;
use crate::run_coordinator::tuning::{sensitivity_fits, TORNADO_PCT};
use crate::run_coordinator::TornadoView;
use leptos::prelude::*;

/// Input labels left of the bars where the chart is at least this wide; above them below it.
const SIDE_LABELS_MIN_W: f64 = 480.0;
const LABEL_W: f64 = 190.0;
const ROW_H: f64 = 22.0;
/// The label line above a bar in the narrow layout.
const LABEL_LINE_H: f64 = 15.0;
const TOP: f64 = 2.0;

/// One tornado per platform.
#[component]
pub fn TornadoCharts(
    #[prop(into)] state: Signal<TornadoView>,
    scenario: RwSignal<Scenario>,
) -> impl IntoView {
    let width = chart_width();
    view! {
        <figure class="chart tornado">
            <figcaption>
                {format!("Which input moves the monthly TCO most (each input ±{} %)", TORNADO_PCT)}
            </figcaption>
            <p class="readout">
                {move || {
                    let p = state.with(|t| t.progress);
                    if !scenario.with(sensitivity_fits) {
                        "This scenario is too large for the sensitivity pass on this page; \
                         run it with the gpucost command-line tool."
                            .to_string()
                    } else if p < 1.0 {
                        format!("computing: {:.0} % …", p * 100.0)
                    } else {
                        "Orange: input lowered; blue: input raised. Mean of 12 replications per variant, same seed.".to_string()
                    }
                }}
            </p>
            <div class="small-multiples wide">
                {move || {
                    let bars = state.with(|t| t.bars.clone());
                    let w = width.get();
                    let mut platforms: Vec<String> = Vec::new();
                    for b in &bars {
                        if !platforms.contains(&b.platform) {
                            platforms.push(b.platform.clone());
                        }
                    }
                    platforms
                        .into_iter()
                        .map(|platform| {
                            let mine: Vec<_> = bars.iter().filter(|b| b.platform == platform).collect();
                            let base = mine.first().map(|b| b.base_usd).unwrap_or(0.0);
                            let rows: Vec<(String, f64, f64)> = mine
                                .iter()
                                .map(|b| (b.label.clone(), b.low_usd, b.high_usd))
                                .collect();
                            view! { <TornadoChart platform=platform base=base rows=rows width=w /> }
                        })
                        .collect_view()
                }}
            </div>
        </figure>
    }
}

/// One platform's tornado at `width` px: input labels left of the bars, or above them where
/// the chart is narrow; an axis with ticks and the base value marked.
#[component]
fn TornadoChart(
    platform: String,
    base: f64,
    rows: Vec<(String, f64, f64)>,
    width: f64,
) -> impl IntoView {
    let side_labels = width >= SIDE_LABELS_MIN_W;
    let (x0, label_line) = if side_labels {
        (LABEL_W, 0.0)
    } else {
        (10.0, LABEL_LINE_H)
    };
    let row_h = ROW_H + label_line;
    let layout = layout_tornado(&rows, base, x0, width - 10.0);
    let base_line_top = TOP + 14.0;
    let axis_y = base_line_top + row_h * layout.rows.len() as f64;
    let height = axis_y + 20.0;
    let xs = LinearScale::new(layout.domain, (x0, width - 10.0));
    let ticks = nice_ticks_between(layout.domain.0, layout.domain.1, if side_labels { 5 } else { 3 })
        .into_iter()
        .filter(|t| *t >= layout.domain.0 && *t <= layout.domain.1)
        .map(|t| {
            let x = xs.map(t);
            view! {
                <line class="gridline" x1=x x2=x y1=base_line_top y2=axis_y />
                <text class="tick-label" x=x y=axis_y + 14.0 text-anchor="middle">{usd_compact(t)}</text>
            }
        })
        .collect_view();
    let label = format!("Tornado chart of the monthly TCO of {platform}");
    let base_anchor = if layout.x_base > width * 0.7 {
        "end"
    } else if layout.x_base < width * 0.3 {
        "start"
    } else {
        "middle"
    };
    view! {
        <div class="tornado-platform">
            <h4>{platform.clone()} " — base " {usd(base)}</h4>
            <svg viewBox=format!("0 0 {width} {height}") role="img" aria-label=label>
                <g>{ticks}</g>
                {layout
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let row_top = base_line_top + row_h * i as f64;
                        let y = row_top + label_line;
                        let seg = |x: f64, class: &'static str, value: f64, what: &'static str| {
                            let (a, b) = if x < layout.x_base { (x, layout.x_base) } else { (layout.x_base, x) };
                            view! {
                                <rect class=class x=a y=y + 3.0 width=(b - a).max(0.5) height=ROW_H - 6.0
                                    data-metric=format!("tornado.{what}") data-platform=platform.clone()
                                    data-value=value.to_string()>
                                    <title>{format!("{} {what}: {}", r.label, usd(value))}</title>
                                </rect>
                            }
                        };
                        let name = if side_labels {
                            view! {
                                <text class="row-label" x=x0 - 6.0 y=y + ROW_H / 2.0 text-anchor="end" dominant-baseline="middle">
                                    {r.label.clone()}
                                </text>
                            }
                            .into_any()
                        } else {
                            view! { <text class="row-label" x=x0 y=row_top + 12.0>{r.label.clone()}</text> }.into_any()
                        };
                        view! {
                            {name}
                            {seg(r.x_low, "tornado-low", r.low, "low")}
                            {seg(r.x_high, "tornado-high", r.high, "high")}
                        }
                    })
                    .collect_view()}
                <line class="baseline" x1=layout.x_base x2=layout.x_base y1=base_line_top - 2.0 y2=axis_y />
                <text class="tick-label base-label" x=layout.x_base y=base_line_top - 4.0 text-anchor=base_anchor
                    data-metric="tornado.base" data-platform=platform.clone() data-value=base.to_string()>
                    {format!("base {}", usd(base))}
                </text>
            </svg>
        </div>
    }
}

/// Young/Daly optimum next to the chosen checkpoint interval, per spot platform.
#[component]
pub fn CheckpointAdvicePanel(scenario: RwSignal<Scenario>) -> impl IntoView {
    view! {
        <section class="advice" aria-labelledby="advice-heading">
            <h3 id="advice-heading">"Checkpoint advice"</h3>
            <ul>
                {move || {
                    scenario.with(|s| {
                        let mut items = Vec::new();
                        for (pi, p) in s.platforms.iter().enumerate() {
                            for (ci, c) in s.job_classes.iter().enumerate() {
                                if let Some(a) = checkpoint_advice(s, ci, pi) {
                                    let chosen = if a.chosen_min > 0.0 {
                                        format!("every {} min", trim_number(a.chosen_min.round()))
                                    } else {
                                        "no checkpoints".to_string()
                                    };
                                    items.push(view! {
                                        <li data-metric="checkpoint.daly_min" data-platform=p.name.clone() data-value=a.daly_min.to_string()>
                                            {format!(
                                                "{} on {}: you chose {chosen}; the optimum is ≈ {} min (Daly; Young {} min). \
                                                 Expected wall time {} h vs {} h at the optimum, saving ≈ {} per job.",
                                                c.name,
                                                p.name,
                                                trim_number(a.daly_min.round()),
                                                trim_number(a.young_min.round()),
                                                trim_number((a.wall_chosen_h * 100.0).round() / 100.0),
                                                trim_number((a.wall_optimal_h * 100.0).round() / 100.0),
                                                usd(a.saving_usd_per_job.max(0.0))
                                            )}
                                        </li>
                                    });
                                }
                            }
                        }
                        if items.is_empty() {
                            view! { <li>"No platform runs on spot: checkpoints cost only their write time."</li> }.into_any()
                        } else {
                            items.collect_view().into_any()
                        }
                    })
                }}
            </ul>
        </section>
    }
}

/// The break-evens, in the units of the inputs they concern.
#[component]
pub fn BreakEvens(
    #[prop(into)] found: Signal<Vec<FoundBreakEven>>,
    scenario: RwSignal<Scenario>,
) -> impl IntoView {
    view! {
        <section class="break-evens" aria-labelledby="break-even-heading">
            <h3 id="break-even-heading">"Break-evens"</h3>
            <ul>
                {move || {
                    let found = found.get();
                    if found.is_empty() {
                        let text = if scenario.with(sensitivity_fits) {
                            "Searching (after the tornado) …"
                        } else {
                            "Too large to search on this page; use the gpucost command-line tool."
                        };
                        return view! { <li>{text}</li> }.into_any();
                    }
                    found
                        .into_iter()
                        .map(|f| {
                            let r = &f.result;
                            let text = match (f.kind, r.value) {
                                (BreakEvenKind::SpotRate, Some(rate)) => format!(
                                    "{}: spot stops paying above {} interruptions per node-hour (one every {} h; searched {}–{}).",
                                    f.platform,
                                    trim_number((rate * 10_000.0).round() / 10_000.0),
                                    trim_number((1.0 / rate).round()),
                                    trim_number(r.searched_min),
                                    trim_number(r.searched_max)
                                ),
                                (BreakEvenKind::SpotRate, None) => format!(
                                    "{}: {} is cheaper at every interruption rate from {} to {} per node-hour.",
                                    f.platform, r.below, trim_number(r.searched_min), trim_number(r.searched_max)
                                ),
                                (BreakEvenKind::ReservedUtilization, Some(u)) => format!(
                                    "{}: reserving the reference cluster beats on-demand above {:.0} % utilization (offered load).",
                                    f.platform,
                                    u * 100.0
                                ),
                                (BreakEvenKind::ReservedUtilization, None) => format!(
                                    "{}: {} is cheaper at every utilization from {:.0} % to {:.0} %.",
                                    f.platform, r.below, r.searched_min * 100.0, r.searched_max * 100.0
                                ),
                            };
                            let metric = match f.kind {
                                BreakEvenKind::SpotRate => "break_even.spot_interruptions_per_node_hour",
                                BreakEvenKind::ReservedUtilization => "break_even.utilization",
                            };
                            view! {
                                <li data-metric=metric data-platform=f.platform.clone()
                                    data-value=r.value.map(|v| v.to_string()).unwrap_or_else(|| "n/a".into())>
                                    {text}
                                </li>
                            }
                        })
                        .collect_view()
                        .into_any()
                }}
            </ul>
        </section>
    }
}
