//! The embedded view's compact table: per platform the monthly TCO's median with its 5th–95th
//! percentile range and the cost per useful GPU-hour, with the cards' `data-metric` hooks, so
//! that a wiki's 640 × 480 frame shows the answer before any chart.

use crate::model::monte_carlo::Results;
use crate::model::output::{Output, Stat};
use crate::workbench::embed_table::{EmbedRow, COLUMNS};
use leptos::prelude::*;

/// The compact results table.
#[component]
pub fn EmbedTable(#[prop(into)] results: Signal<Option<Results>>) -> impl IntoView {
    view! {
        <table class="embed-table">
            <thead>
                <tr>
                    {COLUMNS.map(|title| view! { <th scope="col">{title}</th> })}
                </tr>
            </thead>
            <tbody>
                {move || {
                    results.get().map(|r| {
                        r.platforms
                            .iter()
                            .map(|p| {
                                let row = EmbedRow::of(p);
                                view! {
                                    <tr data-platform=row.name.clone()>
                                        <th scope="row">{row.name.clone()}</th>
                                        <td>
                                            <span
                                                data-metric=Output::MonthlyTcoUsd.hook(Stat::P50)
                                                data-platform=row.name.clone()
                                                data-value=row.monthly_tco_p50.to_string()
                                            >
                                                {row.monthly_tco}
                                            </span>
                                            <span class="range">{format!(" ({})", row.monthly_tco_range)}</span>
                                        </td>
                                        <td
                                            data-metric=Output::UsdPerUsefulGpuHour.hook(Stat::P50)
                                            data-platform=row.name.clone()
                                            data-value=row.usd_per_useful_gpu_hour_p50.map(|v| v.to_string()).unwrap_or_else(|| "n/a".into())
                                        >
                                            {row.usd_per_useful_gpu_hour}
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
