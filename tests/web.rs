//! Browser tests (wasm-bindgen-test in headless Chromium): mount the app into a fresh element,
//! act on it as a user's events would, then read the DOM.
#![cfg(all(target_arch = "wasm32", feature = "app"))]

use gpucost::model::analytic::estimate_platform;
use gpucost::ui::App;
use gpucost::workbench::presets::{preset, DEFAULT};
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

#[wasm_bindgen_test]
fn the_whole_report_has_the_same_bytes_as_native() {
    assert_eq!(golden::golden_report_fingerprint(), golden::GOLDEN_REPORT);
}

fn mount_app() -> (Element, impl Sized) {
    let document = document();
    let root = document.create_element("section").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = mount_to(root.clone().unchecked_into::<HtmlElement>(), App);
    (root, handle)
}

fn estimates(root: &Element) -> Vec<(String, f64)> {
    let list = root
        .query_selector_all("[data-metric='estimate.monthly_tco_usd']")
        .unwrap();
    (0..list.length())
        .map(|i| {
            let el: Element = list.item(i).unwrap().unchecked_into();
            (
                el.get_attribute("data-platform").unwrap(),
                el.get_attribute("data-value").unwrap().parse().unwrap(),
            )
        })
        .collect()
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
    target
        .dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap())
        .unwrap();
}

/// Mounts the app and waits for the cards, which appear with the first Monte Carlo slice.
async fn mount_app_with_cards() -> (Element, impl Sized) {
    let (root, handle) = mount_app();
    // The test page has no worker loader: the watchdog falls back to main-thread slices.
    for _ in 0..1500 {
        if !estimates(&root).is_empty() {
            break;
        }
        sleep_ms(20).await;
    }
    assert!(!estimates(&root).is_empty(), "no cards after 30 s");
    (root, handle)
}

#[wasm_bindgen_test]
async fn fte_cost_moves_the_instant_estimate_by_each_ops_share() {
    let (root, _handle) = mount_app_with_cards().await;
    let scenario = preset(DEFAULT).unwrap().scenario();
    let before = estimates(&root);
    assert_eq!(before.len(), scenario.platforms.len());
    for (i, (name, value)) in before.iter().enumerate() {
        assert_eq!(name, &scenario.platforms[i].name);
        assert_eq!(*value, estimate_platform(&scenario, i).monthly_tco_usd);
    }
    let fte = input(&root, "#fte-cost-number");
    fte.set_value("300000");
    fire(&fte, "change");
    tick().await;
    // +$100,000 a year × ops share ÷ 12 months.
    for (i, (_, after)) in estimates(&root).iter().enumerate() {
        let want = before[i].1 + 100_000.0 * scenario.platforms[i].ops_fte / 12.0;
        assert!((after - want).abs() < 1e-6, "{after} vs {want}");
    }
}

#[wasm_bindgen_test]
async fn out_of_range_number_shows_a_message_and_changes_nothing() {
    let (root, _handle) = mount_app_with_cards().await;
    let before = estimates(&root);
    let field = input(&root, "#fte-cost-number");
    field.set_value("-5");
    fire(&field, "change");
    tick().await;
    let text = root.text_content().unwrap();
    assert!(
        text.contains("FTE cost must be a number from 0 to 600000; \"-5\" was not applied."),
        "{text}"
    );
    assert_eq!(estimates(&root), before);
}

/// Waits `ms` milliseconds on the browser's timer.
async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}
