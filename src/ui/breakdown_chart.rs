//! Stacked horizontal bars of the mean monthly TCO by category, one bar per platform. The
//! segments of a bar add up to its mean total.

use super::chart_width::chart_width;
use crate::charts::stacked::layout_stacked;
use crate::format::{usd, usd_compact};
use crate::model::cost_category::Category;
use crate::model::monte_carlo::Results;
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

/// The breakdown chart with its legend.
#[component]
pub fn BreakdownChart(#[prop(into)] results: Signal<Option<Results>>) -> impl IntoView {
    let rows = Memo::new(move |_| {
        results.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.platforms
                        .iter()
                        .map(|p| {
                            let values: Vec<(Category, f64)> =
                                p.breakdown_usd.iter().map(|(c, v)| (c, *v)).collect();
                            (p.name.clone(), values)
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
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
                .map(|(_, v)| v.iter().map(|(_, x)| *x).collect())
                .collect()
        });
        let (w, x0, _, _) = frame();
        layout_stacked(&values, x0, w - RIGHT)
    });
    let height = move || TOP + frame().2 * rows.with(|r| r.len()) as f64 + AXIS_H;
    view! {
        <figure class="chart breakdown">
            <figcaption>"Mean monthly TCO by category"</figcaption>
            <svg
                viewBox=move || format!("0 0 {} {}", frame().0, height())
                role="img"
                aria-label="Stacked bars of the mean monthly cost of each platform by category"
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
                            let (category, _) = values[s.category];
                            let title = format!("{platform}: {} {}", category.label(), usd(s.value));
                            view! {
                                <rect
                                    class=format!("segment {}", category.css_class())
                                    x=s.x
                                    y=TOP + row_h * s.row as f64 + label_line + 5.0
                                    width=s.width
                                    height=ROW_H - 10.0
                                    data-metric=format!("breakdown_usd.{}", category.key())
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
                {Category::ALL
                    .iter()
                    .map(|c| view! { <li><span class=format!("swatch {}", c.css_class())></span>{c.label()}</li> })
                    .collect_view()}
            </ul>
        </figure>
    }
}
