//! Any bytes as a Standard Workload Format log: see `history_common` for what must hold.
#![no_main]

#[path = "history_common.rs"]
mod history_common;

use gpucost::history::{ImportOptions, SourceFormat};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let swf = ImportOptions {
        format: Some(SourceFormat::Swf),
        ..Default::default()
    };
    history_common::check(&text, &swf);
});
