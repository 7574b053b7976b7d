//! Downloads: the results as JSON (the bytes `gpucost eval` prints) and CSV, and each chart as
//! a standalone SVG (styles inlined, caption and legend drawn in) or a PNG rendered from it.

use crate::model::monte_carlo::Results;
use crate::model::scenario::Scenario;
use crate::workbench::report::{report_csv, report_json_text};
use crate::workbench::verdict_flips::VerdictFlips;
use base64::Engine;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// The charts that can be exported: (figure class, file name, label).
const CHARTS: &[(&str, &str, &str)] = &[
    ("breakdown", "cost-breakdown", "Cost breakdown"),
    ("histograms", "cost-histograms", "Cost histograms"),
    ("timeline", "node-timeline", "Node timeline"),
    ("tornado", "sensitivity-tornado", "Sensitivity tornado"),
    ("decision-map", "decision-map", "Decision map"),
];

/// Computed style properties copied onto every exported SVG element, as presentation
/// attributes: a `style` attribute would be an inline style, which the page's CSP refuses (also
/// inside the SVG image the PNG is rendered from, which inherits the page's policy).
const STYLE_PROPERTIES: &[&str] = &[
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "text-anchor",
    "dominant-baseline",
    "visibility",
    "display",
];

/// Font of the labels the export adds (captions, legend).
const LABEL_FONT: &str = "font-family=\"sans-serif\" font-size=\"12px\"";

/// PNG pixels per SVG unit.
const PNG_SCALE: f64 = 2.0;

/// The export buttons under the results.
#[component]
pub fn ExportBar(
    scenario: RwSignal<Scenario>,
    #[prop(into)] results: Signal<Option<Results>>,
    /// What would flip the verdict, once its pass is in (in the JSON, as `gpucost eval`
    /// writes it).
    #[prop(into)]
    flips: Signal<Option<VerdictFlips>>,
) -> impl IntoView {
    let (message, set_message) = signal(None::<String>);
    let (chart, set_chart) = signal(CHARTS[0].0.to_string());
    let report = move |csv: bool| {
        let Some(r) = results.get_untracked() else {
            set_message.set(Some("No results yet.".into()));
            return;
        };
        let outcome = if csv {
            let text = scenario.with_untracked(|s| report_csv(s, &r));
            download_text("gpucost-results.csv", "text/csv", &text)
        } else {
            let text = scenario
                .with_untracked(|s| flips.with_untracked(|f| report_json_text(s, &r, f.as_ref())));
            download_text("gpucost-results.json", "application/json", &text)
        };
        set_message.set(outcome.err());
    };
    let export_chart = move |png: bool| {
        set_message.set(save_chart(&chart.get_untracked(), png).err());
    };
    view! {
        <div class="export-bar" role="group" aria-label="Export">
            <span>"Export results: "</span>
            <button type="button" on:click=move |_| report(false)>"JSON"</button>
            <button type="button" on:click=move |_| report(true)>"CSV"</button>
            <label for="export-chart">"Chart: "</label>
            <select id="export-chart" on:change=move |ev| set_chart.set(event_target_value(&ev))>
                {CHARTS.iter().map(|(class, _, label)| view! { <option value=*class>{*label}</option> }).collect_view()}
            </select>
            <button type="button" on:click=move |_| export_chart(false)>"SVG"</button>
            <button type="button" on:click=move |_| export_chart(true)>"PNG"</button>
            <span class="readout" role="status">{move || message.get()}</span>
        </div>
    }
}

/// Saves the chart `figure.chart.<class>` (one of [`CHARTS`]) as a standalone SVG file, or
/// a PNG rendered from it.
pub fn save_chart(class: &str, png: bool) -> Result<(), String> {
    let (_, file, _) = CHARTS
        .iter()
        .find(|c| c.0 == class)
        .ok_or("No such chart.")?;
    let svg = standalone_svg(class)?;
    if png {
        download_png(&format!("{file}.png"), &svg)
    } else {
        download_text(&format!("{file}.svg"), "image/svg+xml", &svg.text)
    }
}

fn error_text(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| "the browser refused".to_string())
}

/// Saves `text` as a file through a temporary object URL.
pub fn download_text(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(error_text)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(error_text)?;
    let saved = click_download(file_name, &url);
    // Revoke after the click has started the download.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    saved
}

fn click_download(file_name: &str, href: &str) -> Result<(), String> {
    let document = document();
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(error_text)?
        .unchecked_into();
    anchor.set_href(href);
    anchor.set_download(file_name);
    anchor.click();
    Ok(())
}

/// An exported chart: the SVG document and its size.
struct StandaloneSvg {
    text: String,
    width: f64,
    height: f64,
}

/// The chart `figure.chart.<class>` as one SVG document: every SVG of the figure stacked, with
/// its computed styles inlined, under the caption and above the legend.
fn standalone_svg(class: &str) -> Result<StandaloneSvg, String> {
    let figure = document()
        .query_selector(&format!("figure.chart.{class}"))
        .ok()
        .flatten()
        .ok_or("That chart is not on the page yet.")?;
    let window = window();
    let page_style = window
        .get_computed_style(&document().document_element().ok_or("no document")?)
        .ok()
        .flatten();
    let background = page_style
        .as_ref()
        .and_then(|s| {
            document()
                .body()
                .and_then(|b| window.get_computed_style(&b).ok().flatten())
                .and_then(|b| b.get_property_value("background-color").ok())
                .or_else(|| s.get_property_value("background-color").ok())
        })
        .filter(|c| !c.is_empty() && c != "rgba(0, 0, 0, 0)")
        .unwrap_or_else(|| "#ffffff".into());
    let foreground = page_style
        .as_ref()
        .and_then(|s| s.get_property_value("color").ok())
        .unwrap_or_else(|| "#000000".into());
    let caption = figure
        .query_selector("figcaption")
        .ok()
        .flatten()
        .and_then(|c| c.text_content())
        .unwrap_or_default();
    let svgs = figure.query_selector_all("svg").map_err(error_text)?;
    let mut width: f64 = 640.0;
    let mut y = 32.0;
    let mut body = String::new();
    for i in 0..svgs.length() {
        let Some(svg) = svgs
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        let (w, h) = view_box_size(&svg);
        let label = svg.get_attribute("aria-label").unwrap_or_default();
        if svgs.length() > 1 && !label.is_empty() {
            body += &format!(
                "<text x=\"0\" y=\"{}\" fill=\"{foreground}\" {LABEL_FONT} font-weight=\"600\">{}</text>",
                y + 12.0,
                escape(&label)
            );
            y += 18.0;
        }
        // Serialized by hand, never cloned into the DOM: a style attribute set on a live or
        // cloned element is an inline style, which the page's CSP refuses.
        body += &format!(
            "<svg x=\"0\" y=\"{y}\" width=\"{w}\" height=\"{h}\" viewBox=\"{}\">",
            escape(&svg.get_attribute("viewBox").unwrap_or_default())
        );
        let children = svg.child_nodes();
        for i in 0..children.length() {
            if let Some(child) = children.item(i) {
                serialize_with_styles(&child, &mut body);
            }
        }
        body += "</svg>";
        width = width.max(w);
        y += h + 8.0;
    }
    // The legend (HTML on the page) drawn as swatches and labels.
    let legend = figure
        .query_selector_all("ul.legend li")
        .map_err(error_text)?;
    let mut x = 0.0;
    for i in 0..legend.length() {
        let Some(item) = legend
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        let text = item.text_content().unwrap_or_default();
        let colour = item
            .query_selector(".swatch")
            .ok()
            .flatten()
            .and_then(|s| window.get_computed_style(&s).ok().flatten())
            .and_then(|s| s.get_property_value("background-color").ok())
            .unwrap_or_default();
        let item_w = 24.0 + 7.0 * text.chars().count() as f64;
        if x + item_w > width {
            x = 0.0;
            y += 18.0;
        }
        body += &format!(
            "<rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"{foreground}\" {LABEL_FONT}>{}</text>",
            y + 4.0,
            x + 16.0,
            y + 14.0,
            escape(&text)
        );
        x += item_w;
    }
    if legend.length() > 0 {
        y += 24.0;
    }
    let height = y + 8.0;
    let text = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\"><rect width=\"100%\" height=\"100%\" fill=\"{background}\"/>\
         <text x=\"0\" y=\"18\" fill=\"{foreground}\" font-family=\"sans-serif\" font-size=\"14px\" font-weight=\"600\">{}</text>{body}</svg>",
        escape(&caption)
    );
    Ok(StandaloneSvg {
        text,
        width,
        height,
    })
}

fn view_box_size(svg: &web_sys::Element) -> (f64, f64) {
    let numbers: Vec<f64> = svg
        .get_attribute("viewBox")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    match numbers.as_slice() {
        [_, _, w, h] => (*w, *h),
        _ => (640.0, 200.0),
    }
}

/// Appends `node` as SVG markup, each element's computed style written as presentation
/// attributes (classes dropped: the exported file has no stylesheet).
fn serialize_with_styles(node: &web_sys::Node, out: &mut String) {
    if let Some(element) = node.dyn_ref::<web_sys::Element>() {
        let tag = element.tag_name();
        out.push('<');
        out.push_str(&tag);
        let attributes = element.attributes();
        for i in 0..attributes.length() {
            if let Some(attr) = attributes.item(i) {
                let name = attr.name();
                if name != "class" && name != "style" && !name.starts_with("data-") {
                    out.push_str(&format!(" {name}=\"{}\"", escape(&attr.value())));
                }
            }
        }
        if let Ok(Some(computed)) = window().get_computed_style(element) {
            // An attribute the element already has (e.g. text-anchor) is kept as written.
            for property in STYLE_PROPERTIES
                .iter()
                .filter(|p| !element.has_attribute(p))
            {
                if let Some(value) = computed
                    .get_property_value(property)
                    .ok()
                    .filter(|v| !v.is_empty())
                {
                    out.push_str(&format!(" {property}=\"{}\"", escape(&value)));
                }
            }
        }
        out.push('>');
        let children = element.child_nodes();
        for i in 0..children.length() {
            if let Some(child) = children.item(i) {
                serialize_with_styles(&child, out);
            }
        }
        out.push_str(&format!("</{tag}>"));
    } else if node.node_type() == web_sys::Node::TEXT_NODE {
        out.push_str(&escape(&node.text_content().unwrap_or_default()));
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Renders the SVG on a canvas (from a data: URL, which the page's CSP allows for images) and
/// saves it as PNG.
fn download_png(file_name: &str, svg: &StandaloneSvg) -> Result<(), String> {
    let image = web_sys::HtmlImageElement::new().map_err(error_text)?;
    let canvas: web_sys::HtmlCanvasElement = document()
        .create_element("canvas")
        .map_err(error_text)?
        .unchecked_into();
    canvas.set_width((svg.width * PNG_SCALE).ceil() as u32);
    canvas.set_height((svg.height * PNG_SCALE).ceil() as u32);
    let name = file_name.to_string();
    let target = image.clone();
    let on_load = wasm_bindgen::closure::Closure::once_into_js(move || {
        let drawn = (|| -> Result<(), String> {
            let context: web_sys::CanvasRenderingContext2d = canvas
                .get_context("2d")
                .map_err(error_text)?
                .ok_or("no 2D canvas")?
                .unchecked_into();
            context.scale(PNG_SCALE, PNG_SCALE).map_err(error_text)?;
            context
                .draw_image_with_html_image_element(&target, 0.0, 0.0)
                .map_err(error_text)?;
            let url = canvas
                .to_data_url_with_type("image/png")
                .map_err(error_text)?;
            click_download(&name, &url)
        })();
        if let Err(e) = drawn {
            leptos::logging::warn!("PNG export failed: {e}");
        }
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    let encoded = base64::engine::general_purpose::STANDARD.encode(svg.text.as_bytes());
    image.set_src(&format!("data:image/svg+xml;base64,{encoded}"));
    Ok(())
}
