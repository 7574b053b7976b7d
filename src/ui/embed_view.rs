//! The embedded view's compact table: per platform the monthly TCO's median with its 5th–95th
//! percentile range and the cost of the work as the verdict ranks it, with the cards'
//! `data-metric` hooks, so
//! that a wiki's 640 × 480 frame shows the answer before any chart.

use crate::model::monte_carlo::Results;
use crate::model::output::{Output, Stat};
use crate::model::scenario::Scenario;
use crate::workbench::embed_table::EmbedTable as Table;
use crate::workbench::verdict_basis::VerdictBasis;
use leptos::prelude::*;

/// The compact results table.
#[component]
pub fn EmbedTable(
    #[prop(into)] scenario: Signal<Scenario>,
    #[prop(into)] results: Signal<Option<Results>>,
) -> impl IntoView {
    let table = Memo::new(move |_| {
        let basis = scenario.with(VerdictBasis::of);
        results.with(|r| r.as_ref().map(|r| Table::of(r, &basis)))
    });
    view! {
        <table class="embed-table">
            {move || table.with(|t| t.as_ref().map(|t| view! {
                <thead>
                    <tr>
                        {t.columns.clone().map(|title| view! { <th scope="col">{title}</th> })}
                    </tr>
                </thead>
                <tbody>
                    {t.rows
                        .iter()
                        .cloned()
                        .map(|row| view! {
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
                                    data-metric=format!("{}.p50", t.per_work_key)
                                    data-platform=row.name.clone()
                                    data-value=row.per_work_p50.map(|v| v.to_string()).unwrap_or_else(|| "n/a".into())
                                >
                                    {row.per_work}
                                </td>
                            </tr>
                        })
                        .collect_view()}
                </tbody>
            }))}
        </table>
    }
}
