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
    let text = golden::golden_report();
    assert_eq!(
        (text.len(), golden::fnv1a(text.as_bytes())),
        golden::GOLDEN_REPORT
    );
}
