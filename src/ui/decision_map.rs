//! The decision map panel: two inputs chosen from the page's sliders, and a grid shaded by the
//! platform that wins each cell on the verdict's metric (`crate::workbench::decision_map`, where
//! the map is computed and tested), drawn as the coarse pass comes in and refined; a newer
//! input stops it and starts it again once the main run is done. Exports as SVG, PNG and CSV;
//! its settings are in the link.

use super::controls::NumberField;
use super::decision_map_worker::{MapRequest, MapWorker};
use super::export::{download_text, save_chart};
use super::runner::mark;
use crate::format::trim_number;
use crate::model::knobs::knob;
use crate::model::scenario::Scenario;
use crate::workbench::decision_map::{
    boundaries, map_csv, map_knobs, shaded_grid, MapAxis, MapCell, MapSettings, COARSE_SIZE,
    MAP_REPS, MAP_SIZE,
};
use crate::workbench::verdict::{VerdictMetric, DECISIVE_SHARE};
use crate::workbench::verdict_basis::name_gpu;
use crate::worker_protocol::MapProgress;
use leptos::prelude::*;
use std::rc::Rc;

/// The map the page shows (`None`: the panel is closed), shared with the link.
#[derive(Clone, Copy)]
pub struct MapChoice(pub RwSignal<Option<MapSettings>>);

/// SVG geometry: the plot's left and top edge, its side, and the whole drawing's size.
const X0: f64 = 92.0;
const Y0: f64 = 10.0;
const SIDE: f64 = 420.0;
const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 540.0;
const CELL: f64 = SIDE / MAP_SIZE as f64;

/// The map's state on the page.
#[derive(Debug, Clone, PartialEq, Default)]
struct MapState {
    /// The request the page wants answered (each change of inputs asks anew).
    wanted: u64,
    /// What was asked for it, once sent.
    asked: Option<Drawn>,
    /// The latest answer (an older request's cells stay, marked stale, until a newer one).
    answer: MapProgress,
    /// The settings and platforms the answer's cells belong to.
    drawn: Option<Drawn>,
}

/// A map's settings and the names of the platforms it ranks.
#[derive(Debug, Clone, PartialEq)]
struct Drawn {
    settings: MapSettings,
    names: Vec<String>,
}

impl MapState {
    fn stale(&self) -> bool {
        self.answer.map_id != self.wanted
    }
}

/// The collapsible decision-map panel.
#[component]
pub fn DecisionMapPanel(scenario: RwSignal<Scenario>, busy: Signal<bool>) -> impl IntoView {
    let MapChoice(choice) = expect_context::<MapChoice>();
    let state = RwSignal::new(MapState::default());
    let sent = StoredValue::new(0u64);
    let on_answer: Rc<dyn Fn(MapProgress)> = Rc::new(move |answer: MapProgress| {
        let wanted = state.with_untracked(|s| s.wanted);
        if answer.map_id != wanted {
            return;
        }
        let coarse = COARSE_SIZE * COARSE_SIZE;
        let before =
            state.with_untracked(|s| (s.answer.map_id == wanted).then_some(s.answer.cells.len()));
        if answer.cells.len() >= coarse && before.is_none_or(|n| n < coarse) {
            mark("map-coarse", wanted);
        }
        if answer.total > 0 && answer.done >= answer.total {
            mark("map-full", wanted);
        }
        state.update(|s| {
            s.answer = answer;
            s.drawn = s.asked.clone();
        });
    });
    let worker = StoredValue::new_local(MapWorker::new(busy, on_answer));
    let open = Memo::new(move |_| choice.with(Option::is_some));
    // A change of inputs (or of the scenario) stops the map in progress and asks anew.
    Effect::new(move |_| {
        let settings = choice.get();
        let checked = scenario.with(|s| {
            settings
                .as_ref()
                .map(|m| (m.check(s), m.inputs_unused_by(s)))
        });
        worker.with_value(MapWorker::stop);
        mark("map-stop", state.with_untracked(|s| s.wanted));
        if let Some((Err(_), true)) = &checked {
            // Inputs that mean nothing for a newly opened scenario give way to its own.
            let own = scenario.with_untracked(MapSettings::default_for);
            if own.is_some() && own != settings {
                choice.set(own);
                return;
            }
        }
        state.update(|s| {
            s.wanted += 1;
            s.asked = None;
            if let Some((Err(error), _)) = &checked {
                s.answer = MapProgress {
                    map_id: s.wanted,
                    error: Some(error.clone()),
                    ..MapProgress::default()
                };
                s.drawn = None;
            }
        });
    });
    // Sent once the main run is done, so the map never slows it.
    Effect::new(move |_| {
        let wanted = state.with(|s| s.wanted);
        let waiting = state.with(|s| s.stale());
        if busy.get() || !waiting || sent.get_value() == wanted {
            return;
        }
        let Some(settings) = choice.get_untracked() else {
            return;
        };
        sent.set_value(wanted);
        mark("map-sent", wanted);
        let s = scenario.get_untracked();
        let names = s.platforms.iter().map(|p| p.name.clone()).collect();
        state.update_untracked(|m| {
            m.asked = Some(Drawn {
                settings: settings.clone(),
                names,
            })
        });
        worker.with_value(|w| {
            w.request(MapRequest {
                map_id: wanted,
                scenario: s,
                settings,
            })
        });
    });
    // Folding the panel stops the map and takes it out of the link; unfolding it again brings
    // back the inputs it had, where the scenario still has them.
    let last = StoredValue::new(None::<MapSettings>);
    let toggle = move |ev: leptos::ev::Event| {
        let open = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
        if open && choice.with_untracked(Option::is_none) {
            let again = scenario.with_untracked(|s| {
                last.get_value()
                    .filter(|m| m.check(s).is_ok())
                    .or_else(|| MapSettings::default_for(s))
            });
            choice.set(again);
        } else if !open && choice.with_untracked(Option::is_some) {
            last.set_value(choice.get_untracked());
            choice.set(None);
        }
    };
    view! {
        <details class="decision-map-panel" id="decision-map" prop:open=move || open.get()
            on:toggle=toggle>
            <summary>"Decision map: which platform wins across two inputs"</summary>
            <p class="muted">
                "Pick two inputs; each cell of the grid runs the scenario at its middle and is shaded by the platform that costs least there, on the verdict's metric. "
                {format!("Each cell runs {MAP_REPS} replications (fewer than the main run); a cell is decisive where its leader is lower than every other platform in at least {} % of them.", (DECISIVE_SHARE * 100.0).round())}
            </p>
            {move || open.get().then(|| view! {
                <MapControls choice=choice scenario=scenario />
                <MapFigure choice=choice scenario=scenario state=state busy=busy />
            })}
        </details>
    }
}

/// The inputs' and metric's pickers and the axes' ranges, mounted once while the panel is
/// open (so a choice keeps its focus and the ranges stay unfolded).
#[component]
fn MapControls(
    choice: RwSignal<Option<MapSettings>>,
    scenario: RwSignal<Scenario>,
) -> impl IntoView {
    let ids = Memo::new(move |_| {
        scenario.with(|s| map_knobs(s).iter().map(|k| k.id).collect::<Vec<_>>())
    });
    let axis_ids = Memo::new(move |_| {
        choice.with(|c| c.as_ref().map(|c| (c.x.knob.clone(), c.y.knob.clone())))
    });
    let current = move |x_axis: bool| {
        axis_ids.with(|a| {
            a.as_ref()
                .map(|(x, y)| if x_axis { x.clone() } else { y.clone() })
                .unwrap_or_default()
        })
    };
    let options = move |x_axis: bool| {
        ids.get()
            .into_iter()
            .filter_map(knob)
            .map(|k| {
                view! {
                    <option value=k.id prop:selected=move || current(x_axis) == k.id>
                        {format!("{} ({})", k.label, k.unit)}
                    </option>
                }
            })
            .collect_view()
    };
    // Choosing for one axis the other's input swaps them.
    let pick = move |x_axis: bool, id: String| {
        let Some(axis) = knob(&id).and_then(|k| scenario.with_untracked(|s| MapAxis::chosen(k, s)))
        else {
            return;
        };
        choice.update(|c| {
            if let Some(c) = c {
                let (mine, other) = if x_axis {
                    (&mut c.x, &mut c.y)
                } else {
                    (&mut c.y, &mut c.x)
                };
                if other.knob == axis.knob {
                    std::mem::swap(mine, other);
                } else {
                    *mine = axis;
                }
            }
        });
    };
    let range_field = move |x_axis: bool, id: &str, to: bool| {
        let k = knob(id)?;
        let slider = k.slider()?;
        let end = if to { "to" } else { "from" };
        let side = if x_axis { "x" } else { "y" };
        let label: &'static str = match (x_axis, to) {
            (true, false) => "Across, from",
            (true, true) => "Across, to",
            (false, false) => "Up, from",
            (false, true) => "Up, to",
        };
        let end_of = move |c: &MapSettings, to: bool| {
            let a = if x_axis { &c.x } else { &c.y };
            if to {
                a.to
            } else {
                a.from
            }
        };
        Some(view! {
            <NumberField
                id=format!("map-{side}-{end}")
                label=label
                unit=k.unit
                min=slider.min
                max=slider.max
                value=Signal::derive(move || choice.with(|c| c.as_ref().map_or(0.0, |c| end_of(c, to))))
                on_change=Callback::new(move |v: f64| choice.update(|c| {
                    if let Some(c) = c {
                        let a = if x_axis { &mut c.x } else { &mut c.y };
                        if to { a.to = v } else { a.from = v }
                    }
                }))
                check=Callback::new(move |v: f64| {
                    let other = choice.with_untracked(|c| c.as_ref().map(|c| end_of(c, !to)))?;
                    let ordered = if to { v > other } else { v < other };
                    (!ordered).then(|| format!("The range must run from a lower to a higher value ({} {}).", if to { "above" } else { "below" }, trim_number(other)))
                })
            />
        })
    };
    let metric_is =
        move |m: VerdictMetric| choice.with(|c| c.as_ref().is_some_and(|c| c.metric == m));
    view! {
        <div class="map-controls">
            <div class="field">
                <label for="map-x">"Across"</label>
                <select id="map-x" on:change=move |ev| pick(true, event_target_value(&ev))>{move || options(true)}</select>
            </div>
            <div class="field">
                <label for="map-y">"Up"</label>
                <select id="map-y" on:change=move |ev| pick(false, event_target_value(&ev))>{move || options(false)}</select>
            </div>
            <div class="field">
                <label for="map-metric">"Ranked by"</label>
                <select id="map-metric" on:change=move |ev| {
                    let metric = VerdictMetric::from_key(&event_target_value(&ev)).unwrap_or_default();
                    choice.update(|c| if let Some(c) = c { c.metric = metric });
                }>
                    // The metrics the scenario's work has (requests with services, runs with
                    // pipelines), the GPU named in a unit of reference-GPU-hours.
                    {move || scenario.with(|s| {
                        VerdictMetric::all()
                            .filter(|m| s.platforms.iter().any(|p| m.output().applies(s, p)))
                            .map(|m| {
                                let label = name_gpu(m.output(), &s.reference_gpu, m.label());
                                view! {
                                    <option value=m.key() prop:selected=move || metric_is(m)>{label}</option>
                                }
                            })
                            .collect_view()
                    })}
                </select>
            </div>
            <details class="map-ranges">
                <summary>"Ranges"</summary>
                // Made again only when an axis's input changes (its unit and slider range).
                {move || axis_ids.get().map(|(x, y)| view! {
                    {range_field(true, &x, false)}
                    {range_field(true, &x, true)}
                    {range_field(false, &y, false)}
                    {range_field(false, &y, true)}
                })}
            </details>
        </div>
    }
}

/// A tick's text: three significant figures, thousands as "k".
fn tick(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let scale = 10f64.powf(v.abs().log10().floor() - 2.0);
    let v = (v / scale).round() * scale;
    if v.abs() >= 10_000.0 {
        format!("{}k", trim_number(v / 1000.0))
    } else {
        trim_number(v)
    }
}

/// The key to the map's marks, drawn in the map (so an exported map keeps it): a split cell,
/// the break-even line and this scenario's circle.
fn key_view() -> impl IntoView {
    let y = Y0 + SIDE + 60.0;
    view! {
        <g class="map-key">
            <rect class="map-cell series-0" x="0" y=y width="14" height="14" />
            <path class="map-cell series-1" d=format!("M14 {y}L14 {}L0 {}Z", y + 14.0, y + 14.0) />
            <text class="tick-label" x="20" y=y + 11.0>
                {format!("two colours: no platform lower in {} % of runs (the rival lower right); paler: fewer", (DECISIVE_SHARE * 100.0).round())}
            </text>
            <path class="map-boundary" d=format!("M0 {}L14 {}", y + 29.0, y + 29.0) />
            <text class="tick-label" x="20" y=y + 33.0>"break-even: the leader changes"</text>
            <circle class="map-here" cx="235" cy=y + 29.0 r="6" />
            <text class="tick-label" x="246" y=y + 33.0>"this scenario"</text>
        </g>
    }
}

/// The map itself, its status and its downloads.
#[component]
fn MapFigure(
    choice: RwSignal<Option<MapSettings>>,
    scenario: RwSignal<Scenario>,
    state: RwSignal<MapState>,
    busy: Signal<bool>,
) -> impl IntoView {
    let (message, set_message) = signal(None::<String>);
    // The platforms of the map drawn (the scenario's until one is).
    let names = Memo::new(move |_| {
        state
            .with(|m| m.drawn.as_ref().map(|d| d.names.clone()))
            .unwrap_or_else(|| {
                scenario.with(|s| s.platforms.iter().map(|p| p.name.clone()).collect())
            })
    });
    let phase = move || {
        state.with(|s| {
            if s.answer.error.is_some() && !s.stale() {
                "error"
            } else if s.stale() {
                "waiting"
            } else if s.answer.finished() {
                "done"
            } else if s.answer.cells.len() >= COARSE_SIZE * COARSE_SIZE {
                "refining"
            } else {
                "starting"
            }
        })
    };
    let status = move || {
        let main_reps = scenario.with(|s| s.replications);
        state.with(|s| {
            let a = &s.answer;
            match phase() {
                "error" => a.error.clone().unwrap_or_default(),
                "waiting" if busy.get() => "Waiting for the main run to finish…".to_string(),
                "waiting" | "starting" => "Computing the coarse 4 × 4 pass…".to_string(),
                "refining" => format!(
                    "Coarse 4 × 4 pass shown, paler (each cell shades its 3 × 3 block until its own answer comes); refining to 12 × 12: {} of {} cells.",
                    a.cells.len(),
                    MAP_SIZE * MAP_SIZE
                ),
                _ => format!(
                    "12 × 12 cells, {MAP_REPS} replications each (the main run has {main_reps})."
                ),
            }
        })
    };
    let csv = move |_| {
        let text = state.with_untracked(|m| {
            m.drawn
                .as_ref()
                .map(|d| map_csv(&d.settings, &d.names, &m.answer.cells))
        });
        if let Some(text) = text {
            set_message.set(download_text("decision-map.csv", "text/csv", &text).err());
        }
    };
    let drawing = move || {
        let settings = state.with(|m| m.drawn.as_ref().map(|d| d.settings.clone()))?;
        let names = names.get();
        let here = scenario.with(|s| {
            let at = |a: &MapAxis| a.knob().map(|k| a.position((k.get)(s), MAP_SIZE));
            at(&settings.x).zip(at(&settings.y))
        });
        Some(state.with(|s| {
            let grid = shaded_grid(&s.answer.cells);
            let cells = grid
                .iter()
                .enumerate()
                .flat_map(|(row, line)| {
                    line.iter().enumerate().map(move |(col, cell)| (col, row, *cell))
                })
                .map(|(col, row, cell)| cell_view(col, row, cell, &settings, &names))
                .collect_view();
            let lines: String = boundaries(&grid)
                .iter()
                .map(|b| {
                    format!(
                        "M{:.1} {:.1}L{:.1} {:.1}",
                        X0 + b.from.0 * CELL,
                        Y0 + SIDE - b.from.1 * CELL,
                        X0 + b.to.0 * CELL,
                        Y0 + SIDE - b.to.1 * CELL
                    )
                })
                .collect();
            let ticks = (0..=MAP_SIZE).step_by(3).map(|i| {
                let at = i as f64 * CELL;
                let xv = settings.x.from + (settings.x.to - settings.x.from) * i as f64 / MAP_SIZE as f64;
                let yv = settings.y.from + (settings.y.to - settings.y.from) * i as f64 / MAP_SIZE as f64;
                view! {
                    <text class="tick-label" x=X0 + at y=Y0 + SIDE + 16.0 text-anchor="middle">{tick(xv)}</text>
                    <text class="tick-label" x=X0 - 6.0 y=Y0 + SIDE - at + 4.0 text-anchor="end">{tick(yv)}</text>
                }
            }).collect_view();
            let marker = here
                .filter(|(x, y)| (0.0..=MAP_SIZE as f64).contains(x) && (0.0..=MAP_SIZE as f64).contains(y))
                .map(|(x, y)| view! {
                    <circle class="map-here" cx=X0 + x * CELL cy=Y0 + SIDE - y * CELL r="6">
                        <title>"This scenario"</title>
                    </circle>
                });
            view! {
                <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" class:stale=s.stale()
                    aria-label=format!("{} across, {} up", settings.x.label(), settings.y.label())>
                    <g class="map-cells">{cells}</g>
                    <path class="map-boundary" d=lines />
                    <rect class="map-frame" x=X0 y=Y0 width=SIDE height=SIDE />
                    {ticks}
                    {marker}
                    <text class="axis-label" x=X0 + SIDE / 2.0 y=Y0 + SIDE + 40.0 text-anchor="middle">{settings.x.label()}</text>
                    <text class="axis-label" x="0" y="0" text-anchor="middle"
                        transform=format!("translate(16 {}) rotate(-90)", Y0 + SIDE / 2.0)>{settings.y.label()}</text>
                    {key_view()}
                </svg>
            }
        }))
    };
    let caption = move || {
        choice.with(|c| {
            c.as_ref().map(|c| {
                format!(
                    "Decision map: the platform that costs least {}",
                    scenario.with(|s| name_gpu(
                        c.metric.output(),
                        &s.reference_gpu,
                        c.metric.phrase()
                    ))
                )
            })
        })
    };
    view! {
        <figure class="chart decision-map" data-map-state=phase
            data-map-id=move || state.with(|s| s.wanted)
            data-map-cells=move || state.with(|s| if s.stale() { 0 } else { s.answer.cells.len() })>
            <figcaption>{caption}</figcaption>
            <p class="map-status" role="status">{status}</p>
            {drawing}
            <ul class="legend">
                {move || names.get().into_iter().enumerate().map(|(i, name)| view! {
                    <li><span class=format!("swatch map-swatch {}", super::series_class(i))></span>{name}</li>
                }).collect_view()}
            </ul>
            <div class="map-export" role="group" aria-label="Export the decision map">
                <button type="button" class="map-svg" prop:disabled=move || phase() != "done" on:click=move |_| set_message.set(save_chart("decision-map", false).err())>"SVG"</button>
                <button type="button" class="map-png" prop:disabled=move || phase() != "done" on:click=move |_| set_message.set(save_chart("decision-map", true).err())>"PNG"</button>
                <button type="button" class="map-csv" prop:disabled=move || phase() != "done" on:click=csv>"CSV"</button>
                <span class="readout" role="status">{move || message.get()}</span>
            </div>
        </figure>
    }
}

/// How strongly a cell is shaded: full where its leader wins every replication, paler down
/// to an even split.
fn strength(share: f64) -> f64 {
    0.25 + 0.75 * ((share - 0.5) / 0.5).clamp(0.0, 1.0)
}

/// One cell: its leader's colour, and its rival's in the lower-right half where the leader
/// is not decisive.
fn cell_view(
    col: usize,
    row: usize,
    cell: Option<&MapCell>,
    settings: &MapSettings,
    names: &[String],
) -> impl IntoView {
    let x = X0 + col as f64 * CELL;
    let y = Y0 + SIDE - (row + 1) as f64 * CELL;
    let name = |i: Option<u8>| i.and_then(|i| names.get(usize::from(i)).cloned());
    let at = format!(
        "{} {}, {} {}",
        tick(settings.x.value(col, MAP_SIZE)),
        settings.x.knob().map_or("", |k| k.unit),
        tick(settings.y.value(row, MAP_SIZE)),
        settings.y.knob().map_or("", |k| k.unit)
    );
    let Some(cell) = cell else {
        return view! { <rect class="map-cell pending" x=x y=y width=CELL height=CELL /> }
            .into_any();
    };
    let series =
        |i: Option<u8>| i.map_or("none".to_string(), |i| super::series_class(usize::from(i)));
    let own = (usize::from(cell.col), usize::from(cell.row)) == (col, row);
    // A cell shaded by its block's coarse cell until its own answer comes is drawn paler.
    let opacity = format!("{:.2}", strength(cell.share) * if own { 1.0 } else { 0.6 });
    let title = match (&cell.error, name(cell.leader)) {
        (Some(e), _) => format!("{at}: {e}"),
        (None, Some(leader)) => {
            let rival = name(cell.rival)
                .map(|r| {
                    format!(
                        ", lower than {r} in {:.0} % of {MAP_REPS} runs",
                        (cell.share * 100.0 + 1e-9).floor()
                    )
                })
                .unwrap_or_default();
            format!("{at}: {leader} costs least{rival}")
        }
        (None, None) => format!("{at}: no platform did useful work"),
    };
    let title = if own {
        title
    } else {
        format!("{title} (for now the coarse pass's cell in the middle of this 3 × 3 block)")
    };
    let class = |i: Option<u8>| {
        if cell.error.is_some() {
            "map-cell error".to_string()
        } else {
            format!("map-cell {}", series(i))
        }
    };
    // Not decisive: the leader's colour in the upper-left half, the rival's in the other.
    let shape = if !cell.decisive() && cell.rival.is_some() {
        view! {
            <path class=class(cell.leader) fill-opacity=opacity.clone()
                d=format!("M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z", x, y, x + CELL, y, x, y + CELL) />
            <path class=class(cell.rival) fill-opacity=opacity.clone()
                d=format!("M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z", x + CELL, y, x + CELL, y + CELL, x, y + CELL) />
        }
        .into_any()
    } else {
        view! { <rect class=class(cell.leader) fill-opacity=opacity.clone() x=x y=y width=CELL height=CELL /> }.into_any()
    };
    view! {
        <g data-col=col data-row=row data-leader=name(cell.leader).unwrap_or_default()
            data-share=cell.share.to_string() data-own=own.to_string()>
            <title>{title}</title>
            {shape}
        </g>
    }
    .into_any()
}
