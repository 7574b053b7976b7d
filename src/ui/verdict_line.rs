//! The verdict above the cards: which platform costs least on the scenario's metric, by how much
//! and how often (the report's sentence), then, once their passes are in, what would flip it
//! and the input that moves the leader's cost most. `data-verdict` holds the winner's name, empty when none is named.

use crate::model::monte_carlo::Results;
use crate::model::scenario::Scenario;
use crate::run_coordinator::tuning::TORNADO_PCT;
use crate::run_coordinator::TornadoView;
use crate::workbench::verdict::{moved_most_by, verdict};
use crate::workbench::verdict_basis::VerdictBasis;
use crate::workbench::verdict_flips::VerdictFlips;
use leptos::prelude::*;

/// The verdict sentence.
#[component]
pub fn VerdictLine(
    #[prop(into)] scenario: Signal<Scenario>,
    #[prop(into)] results: Signal<Option<Results>>,
    #[prop(into)] tornado: Signal<TornadoView>,
    /// What would flip the verdict, once its pass is in.
    #[prop(into)]
    flips: Signal<Option<VerdictFlips>>,
) -> impl IntoView {
    // The scenario's kind of work, reference GPU, SLO allowance and people.
    let basis = Memo::new(move |_| scenario.with(VerdictBasis::of));
    let verdict = Memo::new(move |_| {
        basis.with(|basis| results.with(|r| r.as_ref().map(|r| verdict(r, basis))))
    });
    let winner = move || {
        verdict.with(|v| {
            v.as_ref()
                .and_then(|v| v.winner.clone())
                .unwrap_or_default()
        })
    };
    let moved_most = move || {
        let leader = verdict.with(|v| v.as_ref().and_then(|v| v.leader.clone()))?;
        tornado.with(|t| {
            (t.progress >= 1.0)
                .then(|| moved_most_by(&t.bars, &leader, TORNADO_PCT))
                .flatten()
        })
    };
    // Shown only while it is about the verdict on screen (the switch or the SLO allowance may
    // have named another winner since the pass ran).
    let flips_text = move || {
        let (winner, metric) = verdict.with(|v| {
            v.as_ref()
                .map(|v| (v.winner.clone(), v.metric.report_key()))
        })?;
        flips.with(|f| {
            f.as_ref()
                .filter(|f| Some(&f.winner) == winner.as_ref() && f.metric == metric)
                .map(|f| f.sentence.clone())
        })
    };
    view! {
        <p class="verdict" data-verdict=winner class:undecided=move || winner().is_empty()>
            {move || verdict.with(|v| v.as_ref().map(|v| v.sentence.clone()))}
            {move || flips_text().map(|text| view! { " " <span class="verdict-flips" data-flips="">{text}</span> })}
            {move || moved_most().map(|text| view! { " " <span class="moved-most">{text}</span> })}
        </p>
    }
}
