//! Any text as a link: decoding never panics, always yields a valid scenario, every notice
//! is short plain text, and the decoded scenario's own link decodes to it again, noticeless.
#![no_main]

use gpucost::workbench::link::{decode_link, encode_link};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let decoded = decode_link(&text);
    decoded
        .scenario
        .validate()
        .expect("a decoded scenario is valid");
    for notice in &decoded.notices {
        assert!(notice.chars().count() < 400, "notice too long: {notice}");
    }
    let again = decode_link(&encode_link(&decoded.scenario, &decoded.preset));
    assert!(again.notices.is_empty(), "{:?}", again.notices);
    assert!(
        again.scenario == decoded.scenario,
        "the link does not round-trip"
    );
});
