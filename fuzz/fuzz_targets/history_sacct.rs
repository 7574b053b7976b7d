//! Any bytes as Slurm `sacct -P` output, with its own header or with a field list (for
//! `--noheader` dumps): see `history_common` for what must hold.
#![no_main]

#[path = "history_common.rs"]
mod history_common;

use gpucost::history::{ImportOptions, SourceFormat};
use libfuzzer_sys::fuzz_target;

const FIELDS: &str = "JobID|JobName|Account|State|Submit|Start|End|Elapsed|AllocTRES|ReqTRES|SubmitLine";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let header = ImportOptions {
        format: Some(SourceFormat::Sacct),
        ..Default::default()
    };
    history_common::check(&text, &header);
    let listed = ImportOptions {
        format: Some(SourceFormat::Sacct),
        sacct_fields: Some(FIELDS.split('|').map(str::to_string).collect()),
        ..Default::default()
    };
    history_common::check(&text, &listed);
});
