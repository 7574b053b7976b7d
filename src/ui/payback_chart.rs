//! Money over time: each platform's cumulative cash over 36 months (one-off costs and upfront
//! commitments at month 0, renewals as their terms start, the mean monthly TCO every month),
//! the platform they are compared with, where each line crosses it, and the assumptions in
//! words under the chart. Folded away unless the scenario has one-off costs, an upfront
//! commitment or names its current platform.

use super::chart_width::chart_width;
use crate::charts::payback::{layout_payback, owed_sentence, payback_sentence};
use crate::model::monte_carlo::Results;
use crate::model::payback::{self, MONTHS};
use crate::model::scenario::Scenario;
use leptos::prelude::*;

const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 10.0;
const HEIGHT: f64 = 260.0;
const AXIS_H: f64 = 34.0;

/// The payback section.
#[component]
pub fn PaybackChart(
    #[prop(into)] results: Signal<Option<Results>>,
    scenario: RwSignal<Scenario>,
) -> impl IntoView {
    let width = chart_width();
    let view_of = Memo::new(move |_| {
        let tco: Vec<f64> = results.with(|r| {
            r.iter()
                .flat_map(|r| &r.platforms)
                .map(|p| p.monthly_tco_usd().mean)
                .collect()
        });
        (!tco.is_empty()).then(|| scenario.with(|s| payback::payback(s, &tco)))
    });
    let layout = Memo::new(move |_| {
        let w = width.get();
        view_of.with(|v| {
            v.as_ref()
                .map(|v| layout_payback(v, (LEFT, w - RIGHT), (HEIGHT - AXIS_H, TOP)))
                .unwrap_or_default()
        })
    });
    let wanted = move || scenario.with(payback::wanted);
    let names = move || {
        scenario.with(|s| {
            s.platforms
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
        })
    };
    let current = move || {
        scenario.with(|s| {
            s.platforms
                .get(payback::current_index(s))
                .map(|p| p.name.clone())
                .unwrap_or_default()
        })
    };
    let sentences = move || {
        view_of.with(|v| {
            let Some(v) = v else { return Vec::new() };
            // (sentence, platform, break-even month) of each platform but the current one,
            // then what commitments still owe.
            let mut out: Vec<(String, String, Option<f64>)> = v
                .platforms
                .iter()
                .filter(|p| p.name != v.current)
                .map(|p| {
                    (
                        payback_sentence(p, &v.current),
                        p.name.clone(),
                        p.breakeven_month,
                    )
                })
                .collect();
            out.extend(
                v.platforms
                    .iter()
                    .filter_map(|p| owed_sentence(p).map(|s| (s, p.name.clone(), None))),
            );
            out
        })
    };
    view! {
        <details class="payback" prop:open=wanted>
            <summary>"Payback over 36 months"</summary>
            <div class="field">
                <label for="payback-current">"Compared with (today's platform)"</label>
                <select
                    id="payback-current"
                    prop:value=current
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        scenario.update(|s| s.payback.current = name);
                    }
                >
                    {move || names().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect_view()}
                </select>
            </div>
            <figure class="chart payback-chart">
                <figcaption>"Cumulative cost, month by month"</figcaption>
                <svg
                    viewBox=move || format!("0 0 {} {}", width.get(), HEIGHT)
                    role="img"
                    aria-label="Lines of each platform's cumulative cost over 36 months, with the month each pays back against the current platform marked"
                >
                    {move || {
                        let l = layout.get();
                        let w = width.get();
                        let base = HEIGHT - AXIS_H;
                        let usd_ticks = l.usd_ticks.iter().map(|t| view! {
                            <line class="gridline" x1=LEFT x2=w - RIGHT y1=t.at y2=t.at />
                            <text class="tick-label" x=LEFT - 6.0 y=t.at text-anchor="end" dominant-baseline="middle">{t.label.clone()}</text>
                        }).collect_view();
                        let month_ticks = l.month_ticks.iter().map(|t| view! {
                            <text class="tick-label" x=t.at y=base + 16.0 text-anchor="middle">{t.label.clone()}</text>
                        }).collect_view();
                        let lines = l.lines.iter().enumerate().map(|(i, line)| {
                            let mark = line.breakeven.map(|(x, y)| view! {
                                <circle class=format!("breakeven {}", super::series_class(i)) cx=x cy=y r=5 data-platform=line.name.clone()>
                                    <title>{format!("{} pays back here", line.name)}</title>
                                </circle>
                            });
                            view! {
                                <polyline
                                    class=format!("payback-line {}", super::series_class(i))
                                    class:current=line.current
                                    points=line.points.clone()
                                    data-platform=line.name.clone()
                                >
                                    <title>{line.name.clone()}</title>
                                </polyline>
                                {mark}
                            }
                        }).collect_view();
                        view! {
                            <g>{usd_ticks}</g>
                            <line class="baseline" x1=LEFT x2=w - RIGHT y1=base y2=base />
                            <g>{month_ticks}</g>
                            <text class="tick-label" x=(LEFT + w - RIGHT) / 2.0 y=base + 30.0 text-anchor="middle">"month"</text>
                            <g>{lines}</g>
                        }
                    }}
                </svg>
                <ul class="legend">
                    {move || layout.get().lines.into_iter().enumerate().map(|(i, l)| view! {
                        <li><span class=format!("swatch line-swatch {}", super::series_class(i))></span>
                            {if l.current { format!("{} (today)", l.name) } else { l.name }}
                        </li>
                    }).collect_view()}
                </ul>
            </figure>
            <ul class="payback-says">
                {move || sentences().into_iter().map(|(s, platform, month)| view! {
                    <li
                        data-metric=month.map(|_| "payback.breakeven_month")
                        data-platform=platform
                        data-value=month.map(|m| m.to_string())
                    >
                        {s}
                    </li>
                }).collect_view()}
            </ul>
            <p class="chart-note">
                {format!(
                    "Each month costs the platform's mean monthly TCO from the simulation; months beyond the simulated horizon repeat it. One-off costs (engineer-months at the FTE cost, and other one-off costs, in each platform's settings) are paid at month 0. A commitment paid upfront pays its term's share at the term's start, and the monthly TCO amortises it; a commitment ending inside the {MONTHS} months is renewed on the same terms. Lines are straight between month ends, so a break-even month is interpolated."
                )}
            </p>
        </details>
    }
}
