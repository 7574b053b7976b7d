//! A vertical bar chart drawn as SVG from the pure layout in `charts::bars`.

use crate::charts::bars::{layout_bars, Frame};
use leptos::prelude::*;

const FRAME: Frame = Frame {
    width: 480.0,
    height: 280.0,
    left: 64.0,
    right: 16.0,
    top: 28.0,
    bottom: 32.0,
};

/// Bars for (label, value) pairs. Each bar carries `data-label` and `data-value` (the raw
/// number) so tests and scrapers can read the values without parsing text.
#[component]
pub fn BarChart(
    /// Accessible title of the chart.
    title: &'static str,
    /// The bars: (category label, value).
    #[prop(into)]
    bars: Signal<Vec<(String, f64)>>,
    /// Formats a bar's value for the label above it.
    value_label: fn(f64) -> String,
    /// Formats a y-axis tick.
    axis_label: fn(f64) -> String,
) -> impl IntoView {
    let layout = Memo::new(move |_| layout_bars(&bars.get(), FRAME, 0.55));
    let view_box = format!("0 0 {} {}", FRAME.width, FRAME.height);
    view! {
        <figure class="chart bar-chart">
            <svg viewBox=view_box role="img" aria-label=title>
                <title>{title}</title>
                <g class="axis y-axis">
                    {move || {
                        layout
                            .get()
                            .ticks
                            .into_iter()
                            .map(|tick| {
                                view! {
                                    <line
                                        class="gridline"
                                        x1=FRAME.left
                                        x2=FRAME.width - FRAME.right
                                        y1=tick.y
                                        y2=tick.y
                                    />
                                    <text
                                        class="tick-label"
                                        x=FRAME.left - 6.0
                                        y=tick.y
                                        text-anchor="end"
                                        dominant-baseline="middle"
                                    >
                                        {axis_label(tick.value)}
                                    </text>
                                }
                            })
                            .collect_view()
                    }}
                </g>
                <g class="bars">
                    {move || {
                        layout
                            .get()
                            .bars
                            .into_iter()
                            .enumerate()
                            .map(|(i, bar)| {
                                let centre = bar.x + bar.width / 2.0;
                                view! {
                                    <rect
                                        class=format!("bar series-{i}")
                                        x=bar.x
                                        y=bar.y
                                        width=bar.width
                                        height=bar.height
                                        data-label=bar.label.clone()
                                        data-value=bar.value.to_string()
                                    />
                                    <text
                                        class="bar-value"
                                        x=centre
                                        y=bar.y - 6.0
                                        text-anchor="middle"
                                    >
                                        {value_label(bar.value)}
                                    </text>
                                    <text
                                        class="bar-label"
                                        x=centre
                                        y=FRAME.height - FRAME.bottom + 20.0
                                        text-anchor="middle"
                                    >
                                        {bar.label}
                                    </text>
                                }
                            })
                            .collect_view()
                    }}
                </g>
                <line
                    class="baseline"
                    x1=FRAME.left
                    x2=FRAME.width - FRAME.right
                    y1=move || layout.get().baseline_y
                    y2=move || layout.get().baseline_y
                />
            </svg>
        </figure>
    }
}
