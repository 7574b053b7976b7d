//! Golden values: the wasm32 browser test checks the same bits (tests/common/golden.rs).

#[path = "../common/golden.rs"]
mod golden;

#[test]
fn golden_values_are_unchanged() {
    let bits = golden::golden_tco_bits();
    println!("{bits:?}");
    assert_eq!(bits, golden::GOLDEN_TCO_BITS);
}

#[test]
fn the_whole_report_is_unchanged() {
    assert_eq!(golden::golden_report_fingerprint(), golden::GOLDEN_REPORT);
}
