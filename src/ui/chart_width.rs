//! The width the charts are laid out at: the results column's own, measured as it changes, so
//! each SVG is drawn at one user unit per CSS pixel and its text at the size the stylesheet
//! gives it (12 px, ticks 11 px) on a phone as on a desktop, instead of shrinking with the
//! chart.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// Narrowest layout: a 320 px screen's column.
const MIN_PX: f64 = 260.0;
/// Widest layout: past it a chart is scaled up, which keeps text legible.
const MAX_PX: f64 = 1_100.0;
/// Before the column is measured.
const DEFAULT_PX: f64 = 640.0;

/// The charts' layout width, in CSS pixels.
#[derive(Clone, Copy)]
pub struct ChartWidth(pub ReadSignal<f64>);

/// Measures `column` (the results section) and provides its width to the charts in it.
pub fn provide_chart_width(column: NodeRef<leptos::html::Section>) {
    let (width, set_width) = signal(DEFAULT_PX);
    provide_context(ChartWidth(width));
    Effect::new(move |observer: Option<Option<web_sys::ResizeObserver>>| {
        if let Some(existing) = observer.flatten() {
            return Some(existing);
        }
        let element = column.get()?;
        let measured = element.clone();
        let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
            let w = f64::from(measured.client_width());
            if w > 0.0 {
                let w = w.clamp(MIN_PX, MAX_PX).floor();
                // Redrawn in the next frame, not in the observer's callback: charts that
                // change size there would be observed again in the same frame, which browsers
                // report as an `error` event ("ResizeObserver loop completed with undelivered
                // notifications").
                request_animation_frame(move || {
                    if width.get_untracked() != w {
                        set_width.set(w);
                    }
                });
            }
        });
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
        observer.observe(&element);
        // The observer lives as long as the page.
        on_resize.forget();
        Some(observer)
    });
}

/// The charts' layout width (the default outside a measured column).
pub fn chart_width() -> Signal<f64> {
    match use_context::<ChartWidth>() {
        Some(ChartWidth(w)) => w.into(),
        None => Signal::derive(|| DEFAULT_PX),
    }
}
