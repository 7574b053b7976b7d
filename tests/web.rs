//! Browser tests (wasm-bindgen-test in headless Chromium): mount the app into a fresh element,
//! act on it as a user's events would, then read the DOM.
#![cfg(all(target_arch = "wasm32", feature = "app"))]

use gpucost::ui::App;
use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/golden.rs"]
mod golden;

#[wasm_bindgen_test]
fn simulation_gives_the_same_bits_as_native() {
    assert_eq!(golden::golden_tco_bits(), golden::GOLDEN_TCO_BITS);
}

fn mount_app() -> (Element, impl Sized) {
    let document = document();
    let root = document.create_element("section").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = mount_to(root.clone().unchecked_into::<HtmlElement>(), App);
    (root, handle)
}

fn bar_value(root: &Element, label: &str) -> f64 {
    root.query_selector(&format!("rect.bar[data-label='{label}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no bar labelled {label}"))
        .get_attribute("data-value")
        .unwrap()
        .parse()
        .unwrap()
}

fn input(root: &Element, selector: &str) -> HtmlInputElement {
    root.query_selector(selector)
        .unwrap()
        .unwrap()
        .unchecked_into()
}

fn fire(target: &HtmlInputElement, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).unwrap();
    target.dispatch_event(&event).unwrap();
}

fn assert_close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-6, "got {got}, want {want}");
}

#[wasm_bindgen_test]
async fn slider_input_redraws_bars_by_the_formula() {
    let (root, _handle) = mount_app();
    // Opens at 4 nodes: 4 × $32.7726 × 730 h = $95,695.992; spot 4 × $6.7915 × 730 = $19,831.18.
    assert_close(bar_value(&root, "On-demand"), 95_695.992);
    assert_close(bar_value(&root, "Spot"), 19_831.18);

    let slider = input(&root, "#nodes");
    slider.set_value("10");
    fire(&slider, "input");
    tick().await;

    // 10 × 32.7726 × 730 = 239,239.98; 10 × 6.7915 × 730 = 49,577.95.
    assert_close(bar_value(&root, "On-demand"), 239_239.98);
    assert_close(bar_value(&root, "Spot"), 49_577.95);
    assert_eq!(input(&root, "#nodes-number").value(), "10");
}

#[wasm_bindgen_test]
async fn out_of_range_number_shows_a_message_and_keeps_the_chart() {
    let (root, _handle) = mount_app();
    let number = input(&root, "#nodes-number");
    number.set_value("65");
    fire(&number, "change");
    tick().await;

    let error = root
        .query_selector("[data-testid='nodes-error']")
        .unwrap()
        .unwrap();
    assert_eq!(
        error.text_content().unwrap(),
        "Nodes must be from 1 to 64; got 65."
    );
    assert_close(bar_value(&root, "On-demand"), 95_695.992);
}
