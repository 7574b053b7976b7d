//! Any bytes as a CSV job history: see `history_common` for what must hold.
#![no_main]

#[path = "history_common.rs"]
mod history_common;

use gpucost::history::{ImportOptions, SourceFormat};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    history_common::check(&text, &ImportOptions::default());
    let csv = ImportOptions {
        format: Some(SourceFormat::Csv),
        ..Default::default()
    };
    history_common::check(&text, &csv);
});
