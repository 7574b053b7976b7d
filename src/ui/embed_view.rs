//! The embedded view's compact table: per platform the monthly TCO's median with its 5th–95th
//! percentile range and the cost per useful GPU-hour, with the cards' `data-metric` hooks, so
//! that a wiki's 640 × 480 frame shows the answer before any chart.

use crate::format::{usd, usd_cents};
use crate::model::monte_carlo::Results;
use crate::model::output::{Output, Stat};
use leptos::prelude::*;

/// The compact results table.
#[component]
pub fn EmbedTable(#[prop(into)] results: Signal<Option<Results>>) -> impl IntoView {
    view! {
        <table class="embed-table">
            <thead>
                <tr>
                    <th scope="col">"Platform"</th>
                    <th scope="col">"Monthly TCO (p5–p95)"</th>
                    <th scope="col">"$/useful GPU-h"</th>
                </tr>
            </thead>
            <tbody>
                {move || {
                    results.get().map(|r| {
                        r.platforms
                            .into_iter()
                            .map(|p| {
                                let tco = p.monthly_tco_usd();
                                let per_hour = p.usd_per_useful_gpu_hour();
                                view! {
                                    <tr data-platform=p.name.clone()>
                                        <th scope="row">{p.name.clone()}</th>
                                        <td>
                                            <span
                                                data-metric=Output::MonthlyTcoUsd.hook(Stat::P50)
                                                data-platform=p.name.clone()
                                                data-value=tco.p50.to_string()
                                            >
                                                {usd(tco.p50)}
                                            </span>
                                            <span class="range">{format!(" ({} – {})", usd(tco.p5), usd(tco.p95))}</span>
                                        </td>
                                        <td
                                            data-metric=Output::UsdPerUsefulGpuHour.hook(Stat::P50)
                                            data-platform=p.name.clone()
                                            data-value=per_hour.map(|s| s.p50.to_string()).unwrap_or_else(|| "n/a".into())
                                        >
                                            {per_hour.map(|s| usd_cents(s.p50)).unwrap_or_else(|| "n/a".into())}
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    })
                }}
            </tbody>
        </table>
    }
}
