//! "Compare": two links side by side — the fields that differ, highlighted, and each
//! platform's headline numbers in both, simulated on the page in slices after the main run.

use super::runner::run_side_by_side;
use crate::format::{usd, usd_cents};
use crate::model::monte_carlo::{MonteCarlo, Results};
use crate::model::scenario::Scenario;
use crate::run_coordinator::tuning::{main_thread_fits, main_thread_refusal};
use crate::workbench::compare::{differences, headline_pairs, Difference};
use crate::workbench::link::decode_link;
use crate::workbench::shorten;
use leptos::prelude::*;

/// What the comparison shows once both links are read.
#[derive(Clone)]
struct Comparison {
    differences: Vec<Difference>,
    notices: Vec<(char, String)>,
    results: Vec<Option<Results>>,
    complete: bool,
}

/// The comparison panel; `current_link` fills link A.
#[component]
pub fn ComparePanel(
    current_link: Signal<String>,
    /// The page's own run is in flight: the comparison waits for it.
    busy: Signal<bool>,
) -> impl IntoView {
    let (link_a, set_link_a) = signal(current_link.get_untracked());
    let (link_b, set_link_b) = signal(String::new());
    let (shown, set_shown) = signal(None::<Comparison>);
    let generation = StoredValue::new(0u64);
    let compare = move || {
        let (a, b) = (
            decode_link(&link_a.get_untracked()),
            decode_link(&link_b.get_untracked()),
        );
        let mut notices = Vec::new();
        for (side, decoded) in [('A', &a), ('B', &b)] {
            notices.extend(decoded.notices.iter().map(|n| (side, n.clone())));
        }
        let this_run = generation.get_value() + 1;
        generation.set_value(this_run);
        let runs: Result<Vec<MonteCarlo>, String> = [&a.scenario, &b.scenario]
            .into_iter()
            .map(|s: &Scenario| {
                let run = MonteCarlo::new(s.clone()).map_err(|e| e.to_string())?;
                // The comparison runs in main-thread slices: a scenario too large for them is
                // refused with the reason rather than freezing the page.
                if !main_thread_fits(s) {
                    return Err(main_thread_refusal(s));
                }
                Ok(run)
            })
            .collect();
        let base = Comparison {
            differences: differences(&a.scenario, &b.scenario),
            notices,
            results: vec![None, None],
            complete: false,
        };
        set_shown.set(Some(base.clone()));
        match runs {
            Ok(runs) => run_side_by_side(
                runs,
                move || generation.get_value() == this_run,
                busy,
                move |results, complete| {
                    set_shown.set(Some(Comparison {
                        results,
                        complete,
                        ..base.clone()
                    }));
                },
            ),
            Err(e) => set_shown.set(Some(Comparison {
                notices: vec![('·', format!("A scenario cannot run: {e}"))],
                complete: true,
                ..base
            })),
        }
    };
    view! {
        <div class="compare-panel">
            <div class="field">
                <label for="compare-a">"Link A"</label>
                <input id="compare-a" type="text" prop:value=link_a
                    on:input=move |ev| set_link_a.set(event_target_value(&ev)) />
            </div>
            <div class="field">
                <label for="compare-b">"Link B"</label>
                <input id="compare-b" type="text" prop:value=link_b placeholder="Paste a calculator link"
                    on:input=move |ev| set_link_b.set(event_target_value(&ev)) />
            </div>
            <button type="button" on:click=move |_| compare()>"Compare"</button>
            {move || shown.get().map(comparison_view)}
        </div>
    }
}

fn cell(value: Option<f64>, format: fn(f64) -> String) -> String {
    value.map_or_else(|| "—".to_string(), format)
}

fn comparison_view(c: Comparison) -> impl IntoView {
    let numbers = match (&c.results[0], &c.results[1]) {
        (Some(a), Some(b)) => Some(headline_pairs(a, b)),
        _ => None,
    };
    let minutes = |m: f64| format!("{m:.1} min");
    view! {
        <div class="comparison" data-state=if c.complete { "done" } else { "running" }>
            {(!c.notices.is_empty()).then(|| view! {
                <ul class="link-notices" role="alert">
                    {c.notices.iter().map(|(side, n)| view! { <li>{format!("Link {side}: {n}")}</li> }).collect_view()}
                </ul>
            })}
            <table class="compare-differences">
                <caption>{format!("{} field(s) differ", c.differences.len())}</caption>
                <thead><tr><th scope="col">"Field"</th><th scope="col">"A"</th><th scope="col">"B"</th></tr></thead>
                <tbody>
                    {c.differences.iter().map(|d| view! {
                        <tr class="differs">
                            <th scope="row"><code>{d.path.clone()}</code></th>
                            <td>{shorten(60, &d.a)}</td>
                            <td>{shorten(60, &d.b)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <table class="compare-numbers">
                <caption>{if c.complete { "Headline numbers (p50)" } else { "Headline numbers (p50) — simulating…" }}</caption>
                <thead><tr>
                    <th scope="col">"Platform"</th>
                    <th scope="col">"Monthly TCO A"</th><th scope="col">"Monthly TCO B"</th>
                    <th scope="col">"$/useful GPU-h A"</th><th scope="col">"$/useful GPU-h B"</th>
                    <th scope="col">"Queue wait p95 A"</th><th scope="col">"Queue wait p95 B"</th>
                </tr></thead>
                <tbody>
                    {numbers.unwrap_or_default().into_iter().map(|p| {
                        let differs = |pair: (Option<f64>, Option<f64>)| if pair.0 != pair.1 { "differs" } else { "" };
                        view! {
                            <tr data-platform=p.platform.clone()>
                                <th scope="row">{p.platform.clone()}</th>
                                <td class=differs(p.monthly_tco_p50) data-side="a" data-value=p.monthly_tco_p50.0>{cell(p.monthly_tco_p50.0, usd)}</td>
                                <td class=differs(p.monthly_tco_p50) data-side="b" data-value=p.monthly_tco_p50.1>{cell(p.monthly_tco_p50.1, usd)}</td>
                                <td class=differs(p.usd_per_useful_gpu_hour_p50)>{cell(p.usd_per_useful_gpu_hour_p50.0, usd_cents)}</td>
                                <td class=differs(p.usd_per_useful_gpu_hour_p50)>{cell(p.usd_per_useful_gpu_hour_p50.1, usd_cents)}</td>
                                <td class=differs(p.queue_wait_p95_min)>{cell(p.queue_wait_p95_min.0, minutes)}</td>
                                <td class=differs(p.queue_wait_p95_min)>{cell(p.queue_wait_p95_min.1, minutes)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
