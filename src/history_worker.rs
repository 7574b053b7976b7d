//! The job-history import worker's glue: reads the page's one message (the file's text and
//! the job as JSON), posts each answer of [`crate::history_job::run_json`] as JSON text. The
//! page starts one such worker per import and ends it when the fit arrives.

use crate::history_job::run_json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// The worker's entry point: imports what the page sends.
pub fn start() {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let data = event.data();
        let field = |name: &str| {
            js_sys::Reflect::get(&data, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_string())
        };
        let (Some(text), Some(job)) = (field("text"), field("job")) else {
            return;
        };
        run_json(&job, &text, &mut |answer| {
            let _ = scope().post_message(&JsValue::from_str(&answer));
        });
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope().post_message(&JsValue::from_str("ready"));
}
