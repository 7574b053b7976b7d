//! Histograms of cost per useful GPU-hour across replications: one row per platform on one
//! shared dollar axis, so a platform at $1.40 and one at $5.20 sit where their dollars are.
//! Every bar says its range and count as its tooltip and carries `data-lower`/`data-upper`.

use super::chart_width::chart_width;
use crate::charts::histogram::{layout_histogram_on, shared_axis};
use crate::charts::scale::{tick_label_anchor, LinearScale};
use crate::format::usd_cents;
use crate::model::monte_carlo::Results;
use crate::model::output::Output;
use crate::workbench::verdict_basis::name_gpu;
use leptos::prelude::*;

const PAD_X: f64 = 14.0;
const TOP: f64 = 4.0;
/// A platform's row: its name, then its bars.
const ROW_H: f64 = 64.0;
const LABEL_H: f64 = 16.0;
const AXIS_H: f64 = 22.0;

/// The aligned histograms.
#[component]
pub fn CostHistograms(
    #[prop(into)] results: Signal<Option<Results>>,
    /// The reference GPU the cost is per hour of.
    #[prop(into)]
    gpu: Signal<String>,
) -> impl IntoView {
    let width = chart_width();
    let caption = move || {
        let text = "Cost per useful GPU-hour across replications (one dollar axis)";
        gpu.with(|gpu| name_gpu(Output::UsdPerUsefulGpuHour, gpu, text))
    };
    view! {
        <figure class="chart histograms">
            <figcaption>{caption}</figcaption>
            {move || {
                let r = results.get()?;
                let axis = shared_axis(r.platforms.iter().map(|p| &p.usd_per_useful_gpu_hour_histogram))?;
                let w = width.get();
                let xs = LinearScale::new(axis.domain, (PAD_X, w - PAD_X));
                let rows = r.platforms.len() as f64;
                let base = TOP + ROW_H * rows;
                let height = base + AXIS_H;
                let ticks = axis
                    .ticks
                    .iter()
                    .map(|&t| {
                        let x = xs.map(t);
                        let text = usd_cents(t);
                        // The end ticks sit 14 px from the edges: their labels are flush
                        // with them rather than cut off.
                        let anchor = tick_label_anchor(x, text.chars().count(), w);
                        view! {
                            <line class="gridline" x1=x x2=x y1=TOP y2=base />
                            <text class="tick-label" x=x y=base + 15.0 text-anchor=anchor>{text}</text>
                        }
                    })
                    .collect_view();
                let platforms = r
                    .platforms
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let top = TOP + ROW_H * i as f64;
                        let bars_top = top + LABEL_H;
                        let bars_base = top + ROW_H - 4.0;
                        let bins = layout_histogram_on(&p.usd_per_useful_gpu_hour_histogram, &xs, bars_top, bars_base);
                        let bars = bins
                            .into_iter()
                            .filter(|b| b.count > 0)
                            .map(|b| {
                                let title = format!(
                                    "{}: {} – {}, {} of {} runs",
                                    p.name,
                                    usd_cents(b.lower),
                                    usd_cents(b.upper),
                                    b.count,
                                    r.replications
                                );
                                view! {
                                    <rect
                                        class=format!("bin {}", super::series_class(i))
                                        x=b.x
                                        y=b.y
                                        width=(b.width - 0.5).max(1.0)
                                        height=b.height
                                        data-lower=b.lower.to_string()
                                        data-upper=b.upper.to_string()
                                    >
                                        <title>{title}</title>
                                    </rect>
                                }
                            })
                            .collect_view();
                        view! {
                            <g class="histogram-row" data-platform=p.name.clone()>
                                <text class="row-label" x=PAD_X y=top + 12.0>{p.name.clone()}</text>
                                {bars}
                                <line class="baseline" x1=PAD_X x2=w - PAD_X y1=bars_base y2=bars_base />
                            </g>
                        }
                    })
                    .collect_view();
                let label = gpu.with(|gpu| name_gpu(Output::UsdPerUsefulGpuHour, gpu, "Histograms of the cost per useful GPU-hour of each platform, on one dollar axis"));
                Some(view! {
                    <svg
                        viewBox=format!("0 0 {w} {height}")
                        role="img"
                        aria-label=label
                        data-x-min=axis.domain.0.to_string()
                        data-x-max=axis.domain.1.to_string()
                        data-x0=PAD_X.to_string()
                        data-x1=(w - PAD_X).to_string()
                    >
                        <g>{ticks}</g>
                        {platforms}
                    </svg>
                })
            }}
        </figure>
    }
}
