//! Stacked horizontal bars, one bar per platform: the mean monthly TCO by category
//! ([`BreakdownChart`]) and by team ([`TeamChart`]). The segments of a bar add up to its
//! mean total.

use super::chart_width::chart_width;
use super::controls::{choice_field, ItemAt};
use crate::charts::stacked::layout_stacked;
use crate::format::{usd, usd_compact};
use crate::model::cost_category::Category;
use crate::model::monte_carlo::PlatformResult;
use crate::model::monte_carlo::Results;
use crate::model::scenario::fields::{field, SCENARIO_FIELDS};
use crate::model::scenario::Scenario;
use leptos::prelude::*;

/// Row labels left of the bars where the chart is at least this wide; above them below it.
const SIDE_LABELS_MIN_W: f64 = 480.0;
const LABEL_W: f64 = 150.0;
const RIGHT: f64 = 80.0;
const ROW_H: f64 = 34.0;
/// The label line above a bar in the narrow layout.
const LABEL_LINE_H: f64 = 15.0;
const TOP: f64 = 8.0;
const AXIS_H: f64 = 24.0;

/// One segment of a bar: what it is, its colour class, the metric it shows (the page's
/// `data-metric`) and its value.
#[derive(Debug, Clone, PartialEq)]
struct Part {
    label: String,
    class: String,
    metric: String,
    value: f64,
}

/// One bar per platform of `results`, its parts from `parts`.
fn platform_rows(
    results: Signal<Option<Results>>,
    parts: impl Fn(&PlatformResult) -> Vec<Part> + Send + Sync + 'static,
) -> Memo<Vec<(String, Vec<Part>)>> {
    Memo::new(move |_| {
        results.with(|r| {
            r.iter()
                .flat_map(|r| &r.platforms)
                .map(|p| (p.name.clone(), parts(p)))
                .collect()
        })
    })
}

/// The breakdown chart with its legend.
#[component]
pub fn BreakdownChart(#[prop(into)] results: Signal<Option<Results>>) -> impl IntoView {
    let rows = platform_rows(results, |p| {
        p.breakdown_usd
            .iter()
            .map(|(c, v)| Part {
                label: c.label().to_string(),
                class: c.css_class(),
                metric: format!("breakdown_usd.{}", c.key()),
                value: *v,
            })
            .collect()
    });
    let legend: Vec<(String, String)> = Category::ALL
        .iter()
        .map(|c| (c.label().to_string(), c.css_class()))
        .collect();
    view! {
        <StackedBars
            rows=rows
            class="chart breakdown"
            caption="Mean monthly TCO by category"
            aria_label="Stacked bars of the mean monthly cost of each platform by category"
            legend=legend
        />
    }
}

/// Each team's mean monthly bill on each platform, its shared costs (idle capacity, fees,
/// people…) a grey segment of their own where they are kept apart; shown where the scenario
/// has teams.
#[component]
pub fn TeamChart(
    #[prop(into)] results: Signal<Option<Results>>,
    scenario: RwSignal<Scenario>,
) -> impl IntoView {
    // Every team name in order of first appearance, for one colour per team on every bar.
    let teams = Memo::new(move |_| {
        results.with(|r| {
            let mut names: Vec<String> = Vec::new();
            for p in r.iter().flat_map(|r| &r.platforms) {
                for t in &p.teams {
                    if !names.contains(&t.team) {
                        names.push(t.team.clone());
                    }
                }
            }
            names
        })
    });
    let class_of = move |team: &str| match team {
        "shared" => "team-shared".to_string(),
        "services" => "team-services".to_string(),
        _ => {
            let k = teams.with(|t| t.iter().position(|n| n == team).unwrap_or(0));
            format!("team-{}", k % 8)
        }
    };
    let rows = platform_rows(results, move |p| {
        p.teams
            .iter()
            .map(|t| Part {
                label: t.team.clone(),
                class: class_of(&t.team),
                metric: format!("teams.{}.monthly_usd", t.team),
                value: t.monthly_usd.mean,
            })
            .collect()
    });
    let legend = Signal::derive(move || {
        teams
            .get()
            .into_iter()
            .map(|t| {
                let class = class_of(&t);
                (t, class)
            })
            .collect::<Vec<_>>()
    });
    let rule = field(SCENARIO_FIELDS, "showback.shared_costs").expect("a scenario field");
    view! {
        <Show when=move || teams.with(|t| !t.is_empty())>
            {choice_field(scenario, "shared-costs".to_string(), rule, ItemAt::scenario())}
            <StackedBars
                rows=rows
                class="chart teams"
                caption="Mean monthly bill by team"
                aria_label="Stacked bars of each platform's mean monthly cost by team"
                legend=legend
            />
        </Show>
    }
}

/// Stacked bars of `rows` (a name and its parts each), with a caption and a legend.
#[component]
fn StackedBars(
    rows: Memo<Vec<(String, Vec<Part>)>>,
    class: &'static str,
    caption: &'static str,
    aria_label: &'static str,
    #[prop(into)] legend: Signal<Vec<(String, String)>>,
) -> impl IntoView {
    let width = chart_width();
    // Where the bars start, and the height of a row (with its label line when narrow).
    let frame = move || {
        let w = width.get();
        if w >= SIDE_LABELS_MIN_W {
            (w, LABEL_W, ROW_H, 0.0)
        } else {
            (w, 8.0, ROW_H + LABEL_LINE_H, LABEL_LINE_H)
        }
    };
    let layout = Memo::new(move |_| {
        let values: Vec<Vec<f64>> = rows.with(|rows| {
            rows.iter()
                .map(|(_, v)| v.iter().map(|p| p.value).collect())
                .collect()
        });
        let (w, x0, _, _) = frame();
        layout_stacked(&values, x0, w - RIGHT)
    });
    let height = move || TOP + frame().2 * rows.with(|r| r.len()) as f64 + AXIS_H;
    view! {
        <figure class=class>
            <figcaption>{caption}</figcaption>
            <svg
                viewBox=move || format!("0 0 {} {}", frame().0, height())
                role="img"
                aria-label=aria_label
            >
                {move || {
                    let l = layout.get();
                    let names = rows.get();
                    let (_, x0, row_h, label_line) = frame();
                    let base = TOP + row_h * names.len() as f64;
                    let ticks = l
                        .ticks
                        .iter()
                        .map(|t| {
                            view! {
                                <line class="gridline" x1=t.x x2=t.x y1=TOP y2=base />
                                <text class="tick-label" x=t.x y=base + 16.0 text-anchor="middle">
                                    {usd_compact(t.value)}
                                </text>
                            }
                        })
                        .collect_view();
                    let labels = names
                        .iter()
                        .enumerate()
                        .map(|(i, (name, _))| {
                            let row_top = TOP + row_h * i as f64;
                            let y = row_top + label_line + ROW_H / 2.0;
                            let total = l.totals.get(i).copied().unwrap_or(0.0);
                            let name_label = if label_line > 0.0 {
                                view! { <text class="row-label" x=x0 y=row_top + 12.0>{name.clone()}</text> }.into_any()
                            } else {
                                view! {
                                    <text class="row-label" x=x0 - 8.0 y=y text-anchor="end" dominant-baseline="middle">
                                        {name.clone()}
                                    </text>
                                }
                                .into_any()
                            };
                            view! {
                                {name_label}
                                <text
                                    class="row-total"
                                    x=l.segments.iter().filter(|s| s.row == i).map(|s| s.x + s.width).fold(x0, f64::max) + 6.0
                                    y=y
                                    dominant-baseline="middle"
                                >
                                    {usd(total)}
                                </text>
                            }
                        })
                        .collect_view();
                    let segments = l
                        .segments
                        .iter()
                        .filter(|s| s.width > 0.0)
                        .map(|s| {
                            let (platform, values) = &names[s.row];
                            let part = &values[s.category];
                            let title = format!("{platform}: {} {}", part.label, usd(s.value));
                            view! {
                                <rect
                                    class=format!("segment {}", part.class)
                                    x=s.x
                                    y=TOP + row_h * s.row as f64 + label_line + 5.0
                                    width=s.width
                                    height=ROW_H - 10.0
                                    data-metric=part.metric.clone()
                                    data-platform=platform.clone()
                                    data-value=s.value.to_string()
                                >
                                    <title>{title}</title>
                                </rect>
                            }
                        })
                        .collect_view();
                    view! { <g>{ticks}</g> <g>{segments}</g> <g>{labels}</g> }
                }}
            </svg>
            <ul class="legend">
                {move || {
                    legend
                        .get()
                        .into_iter()
                        .map(|(label, class)| view! { <li><span class=format!("swatch {class}")></span>{label}</li> })
                        .collect_view()
                }}
            </ul>
        </figure>
    }
}
