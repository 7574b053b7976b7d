//! Replayed job histories kept in the browser: IndexedDB, one record per history, its bytes
//! ([`Replay::to_bytes`]) under its content key. A link names the key; opened in this browser
//! it replays the same jobs, opened elsewhere (or where storage is blocked, as in a sandboxed
//! frame) it says the history is not there and shows the fitted classes it carries.
//!
//! Written on web-sys directly: two requests (put and get by key) on one object store do not
//! need a wrapper crate's futures layer and error types in the page's bundle.

use crate::model::scenario::Replay;
use js_sys::{Function, Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbRequest, IdbTransactionMode};

const DATABASE: &str = "gpucost";
const STORE: &str = "job-histories";
const VERSION: u32 = 1;

/// Why storage failed, in words for a sentence.
fn reason(e: &JsValue) -> String {
    if let Some(d) = e.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", d.name(), d.message());
    }
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string()
        .unwrap_or_else(|| "the browser refused".to_string())
}

/// Waits for `request` to succeed, with its result.
async fn settle(request: &IdbRequest) -> Result<JsValue, String> {
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let r = request.clone();
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let r = request.clone();
        let failed = Closure::once_into_js(move |_: web_sys::Event| {
            let why = r
                .error()
                .ok()
                .flatten()
                .map(JsValue::from)
                .unwrap_or_else(|| JsValue::from_str("the request failed"));
            let _ = reject.call1(&JsValue::NULL, &why);
        });
        request.set_onsuccess(Some(ok.unchecked_ref()));
        request.set_onerror(Some(failed.unchecked_ref()));
    });
    JsFuture::from(promise).await.map_err(|e| reason(&e))
}

/// Opens the database, creating its store the first time.
async fn open() -> Result<IdbDatabase, String> {
    let factory = web_sys::window()
        .ok_or("no window")?
        .indexed_db()
        .map_err(|e| reason(&e))?
        .ok_or("this browser has no IndexedDB here")?;
    let request = factory
        .open_with_u32(DATABASE, VERSION)
        .map_err(|e| reason(&e))?;
    let upgrade = request.clone();
    let on_upgrade = Closure::once_into_js(move |_: web_sys::Event| {
        if let Ok(db) = upgrade.result().map(IdbDatabase::unchecked_from_js) {
            if !db.object_store_names().contains(STORE) {
                let _ = db.create_object_store(STORE);
            }
        }
    });
    request.set_onupgradeneeded(Some(on_upgrade.unchecked_ref()));
    settle(&request).await.map(IdbDatabase::unchecked_from_js)
}

/// Keeps `replay` under its key.
pub async fn keep(replay: &Replay) -> Result<(), String> {
    let db = open().await?;
    let tx = db
        .transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)
        .map_err(|e| reason(&e))?;
    let store = tx.object_store(STORE).map_err(|e| reason(&e))?;
    let bytes = Uint8Array::from(replay.to_bytes().as_slice());
    let request = store
        .put_with_key(&bytes, &JsValue::from_str(&replay.key))
        .map_err(|e| reason(&e))?;
    settle(&request).await.map(|_| ())
}

/// The replay kept under `key`: `Ok(None)` when this browser has none, an error when storage
/// is unavailable or what is kept is damaged.
pub async fn find(key: &str) -> Result<Option<Replay>, String> {
    let db = open().await?;
    let tx = db
        .transaction_with_str_and_mode(STORE, IdbTransactionMode::Readonly)
        .map_err(|e| reason(&e))?;
    let store = tx.object_store(STORE).map_err(|e| reason(&e))?;
    let request = store.get(&JsValue::from_str(key)).map_err(|e| reason(&e))?;
    let value = settle(&request).await?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let bytes = Uint8Array::new(&value).to_vec();
    Replay::from_bytes(&bytes, key)
        .map(Some)
        .map_err(|e| format!("what this browser keeps under it is damaged ({e})"))
}
