//! Histograms of cost per useful GPU-hour across replications, one small chart per platform.

use crate::charts::histogram::layout_histogram;
use crate::format::usd_cents;
use crate::model::monte_carlo::Results;
use leptos::prelude::*;

const W: f64 = 300.0;
const H: f64 = 140.0;
const PAD_X: f64 = 12.0;
const TOP: f64 = 10.0;
const BASE: f64 = 112.0;

/// One histogram per platform.
#[component]
pub fn CostHistograms(#[prop(into)] results: Signal<Option<Results>>) -> impl IntoView {
    view! {
        <figure class="chart histograms">
            <figcaption>"Cost per useful GPU-hour across replications"</figcaption>
            <div class="small-multiples">
                {move || {
                    results
                        .get()
                        .map(|r| {
                            r.platforms
                                .into_iter()
                                .enumerate()
                                .map(|(i, p)| {
                                    let h = p.usd_per_useful_gpu_hour_histogram.clone();
                                    let bins = layout_histogram(&h, PAD_X, W - PAD_X, TOP, BASE);
                                    let lo = h.start;
                                    let hi = h.start + h.width * h.counts.len() as f64;
                                    let label = format!("Histogram of cost per useful GPU-hour for {}", p.name);
                                    view! {
                                        <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=label>
                                            <text class="row-label" x=PAD_X y=H - 2.0>{p.name.clone()}</text>
                                            {bins
                                                .into_iter()
                                                .map(|b| {
                                                    let title = format!(
                                                        "{} – {}: {} runs",
                                                        usd_cents(b.lower),
                                                        usd_cents(b.upper),
                                                        b.count
                                                    );
                                                    view! {
                                                        <rect
                                                            class=format!("bin series-{}", i % 4)
                                                            x=b.x
                                                            y=b.y
                                                            width=(b.width - 1.0).max(0.5)
                                                            height=b.height
                                                        >
                                                            <title>{title}</title>
                                                        </rect>
                                                    }
                                                })
                                                .collect_view()}
                                            <line class="baseline" x1=PAD_X x2=W - PAD_X y1=BASE y2=BASE />
                                            <text class="tick-label" x=PAD_X y=BASE + 13.0>{usd_cents(lo)}</text>
                                            <text class="tick-label" x=W - PAD_X y=BASE + 13.0 text-anchor="end">
                                                {usd_cents(hi)}
                                            </text>
                                        </svg>
                                    }
                                })
                                .collect_view()
                        })
                }}
            </div>
        </figure>
    }
}
