//! One day of one replication of a service, per platform: its traffic, the ready replicas'
//! capacity and the p95 latency against the objective, minute by minute. The picture that
//! shows a platform's replicas catching up with a spike (or not).

use super::chart_width::chart_width;
use crate::charts::service_day::{
    day_height, layout_service_day, rps_top, spike_window, DayLayout, TRAFFIC_H,
};
use crate::format::trim_number;
use crate::model::scenario::Scenario;
use crate::model::serving::platform::{service_day, ServiceDay, DAY_CHART_DAYS};
use leptos::prelude::*;

const LABEL_W: f64 = 44.0;
const TITLE_H: f64 = 16.0;
const AXIS_H: f64 = 18.0;

/// A latency for a tick: "10 ms", "1 s", "100 s".
fn ms_label(ms: f64) -> String {
    if ms >= 1_000.0 {
        format!("{} s", trim_number(ms / 1_000.0))
    } else {
        format!("{} ms", trim_number(ms))
    }
}

/// The day of the chosen service on every platform, in panels one above the other.
#[component]
pub fn ServiceDayChart(scenario: RwSignal<Scenario>) -> impl IntoView {
    let (chosen, set_chosen) = signal(0usize);
    // The spike's three hours (when the day has a spike) or the whole day.
    let (whole_day, set_whole_day) = signal(false);
    let width = chart_width();
    // Replication 0, simulated up to the end of the day shown (its first spike's).
    let days = Memo::new(move |_| {
        scenario.with(|s| {
            if s.services.is_empty() || s.platforms.is_empty() || s.validate().is_err() {
                return None;
            }
            let v = chosen.get().min(s.services.len() - 1);
            let days: Vec<(String, ServiceDay)> = (0..s.platforms.len())
                .map(|p| (s.platforms[p].name.clone(), service_day(s, p, v, 0)))
                .collect();
            Some(days)
        })
    });
    let layouts = Memo::new(move |_| {
        let w = width.get();
        let whole = whole_day.get();
        days.with(|d| {
            d.as_ref().map(|days| {
                let window = match days.first().and_then(|(_, d)| d.spike_minute) {
                    Some(m) if !whole => spike_window(m),
                    _ => (0, 1_440),
                };
                let top = days
                    .iter()
                    .map(|(_, d)| rps_top(d, window))
                    .fold(0.0, f64::max);
                let panel = TITLE_H + day_height() + AXIS_H;
                days.iter()
                    .enumerate()
                    .map(|(i, (name, d))| {
                        let y = i as f64 * panel + TITLE_H;
                        let l = layout_service_day(d, window, top, LABEL_W, w - 20.0, y);
                        (name.clone(), y, l)
                    })
                    .collect::<Vec<(String, f64, DayLayout)>>()
            })
        })
    });
    // An LLM's minute is drawn at its time to first token (its TPOT is in the results).
    let llm_shown = move || {
        scenario.with(|s| {
            let v = chosen.get().min(s.services.len().saturating_sub(1));
            s.services.get(v).is_some_and(|x| x.llm.is_some())
        })
    };
    let latency = move || {
        if llm_shown() {
            "time to first token (p95)"
        } else {
            "p95 latency"
        }
    };
    view! {
        <Show when=move || scenario.with(|s| !s.services.is_empty())>
            <figure class="chart service-day">
                <figcaption>
                    {move || {
                        days.with(|d| match d.as_ref().and_then(|d| d.first()) {
                            Some((_, d)) if d.spike_minute.is_some() => format!("Day {} of one run (its first spike's), minute by minute: traffic, ready replicas and {}", d.day + 1, latency()),
                            Some(_) => format!("Day 1 of one run (no spike in its first {DAY_CHART_DAYS} days), minute by minute: traffic, ready replicas and {}", latency()),
                            None => "One day of one run".to_string(),
                        })
                    }}
                </figcaption>
                <div class="control inline">
                    <label for="service-day-window">"Hours shown"</label>
                    <select
                        id="service-day-window"
                        on:change=move |ev| set_whole_day.set(event_target_value(&ev) == "day")
                    >
                        <option value="spike" selected=move || !whole_day.get()>"the first spike's three hours"</option>
                        <option value="day" selected=move || whole_day.get()>"the whole day"</option>
                    </select>
                </div>
                <Show when=move || scenario.with(|s| s.services.len() > 1)>
                    <div class="control inline">
                        <label for="service-day-service">"Service shown"</label>
                        <select
                            id="service-day-service"
                            on:change=move |ev| set_chosen.set(event_target_value(&ev).parse().unwrap_or(0))
                        >
                            {move || scenario.with(|s| {
                                s.services
                                    .iter()
                                    .enumerate()
                                    .map(|(i, v)| view! { <option value=i.to_string() selected=move || chosen.get() == i>{v.name.clone()}</option> })
                                    .collect_view()
                            })}
                        </select>
                    </div>
                </Show>
                {move || layouts.get().map(|panels| {
                    let w = width.get_untracked();
                    let panel = TITLE_H + day_height() + AXIS_H;
                    let height = panels.len() as f64 * panel;
                    view! {
                        <svg viewBox=format!("0 0 {w} {height}") role="img"
                            aria-label="Per platform: requests per second (area) and the ready replicas' capacity (line) over one day, and under it the p95 latency on a log scale against the objective (dashed), minutes that missed it in red">
                            {panels.into_iter().map(|(name, y, l)| {
                                let base = y + TRAFFIC_H;
                                let bottom = y + day_height();
                                let summary = format!(
                                    "{name}: {} replicas at most, {} at least; {} minutes over the objective",
                                    trim_number(l.ready_range.0.round()),
                                    trim_number(l.ready_range.1.round()),
                                    l.missed_minutes
                                );
                                view! {
                                    <g class="day-panel">
                                        <title>{summary}</title>
                                        <text class="panel-title" x=LABEL_W y=y - 4.0>{format!("{name} · {} min over the objective", l.missed_minutes)}</text>
                                        {l.rps_ticks.iter().map(|&(v, ty)| view! {
                                            <line class="gridline" x1=LABEL_W x2=w - 20.0 y1=ty y2=ty />
                                            <text class="tick-label" x=LABEL_W - 4.0 y=ty text-anchor="end" dominant-baseline="middle">{trim_number(v)}</text>
                                        }).collect_view()}
                                        {l.misses.iter().map(|&(x, mw)| view! {
                                            <rect class="day-miss" x=x y=y width=mw height=bottom - y />
                                        }).collect_view()}
                                        <path class="day-traffic" d=l.traffic.clone() />
                                        <polyline class="day-capacity" points=l.capacity.clone() />
                                        <line class="baseline" x1=LABEL_W x2=w - 20.0 y1=base y2=base />
                                        {l.ms_ticks.iter().map(|&(ms, ty)| view! {
                                            <text class="tick-label" x=LABEL_W - 4.0 y=ty text-anchor="end" dominant-baseline="middle">{ms_label(ms)}</text>
                                        }).collect_view()}
                                        <line class="day-slo" x1=LABEL_W x2=w - 20.0 y1=l.slo_y y2=l.slo_y />
                                        <polyline class="day-latency" points=l.latency.clone() />
                                        {l.time_ticks.iter().map(|(label, x)| view! {
                                            <text class="tick-label" x=*x y=bottom + 13.0 text-anchor="middle">{label.clone()}</text>
                                        }).collect_view()}
                                    </g>
                                }
                            }).collect_view()}
                        </svg>
                    }
                })}
                <ul class="legend">
                    <li><span class="swatch day-traffic"></span>"requests per second"</li>
                    <li><span class="swatch day-capacity"></span>"ready replicas × a replica's capacity"</li>
                    <li><span class="swatch day-latency"></span>{latency}" (log scale; a minute with no replica at the top)"</li>
                    <li><span class="swatch day-slo"></span>{move || if llm_shown() { "TTFT objective" } else { "latency objective" }}</li>
                    <li><span class="swatch day-miss"></span>{move || if llm_shown() { "minute over the TTFT objective" } else { "minute over the objective" }}</li>
                </ul>
            </figure>
        </Show>
    }
}
