//! Any bytes as a request trace (Azure CSV or Mooncake JSON lines): no panic; skipped
//! records in line order; a fit has at least two requests and a finite positive rate, and
//! the scenario it makes is valid; read streamed, the CLI's way, it reads as from memory.
#![no_main]

use gpucost::history::source::Source;
use gpucost::history::traffic::{read_source, traffic_into, TrafficOptions};
use gpucost::model::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for replay in [false, true] {
        let options = TrafficOptions {
            replay,
            ..TrafficOptions::default()
        };
        let streamed = read_source(
            Source::stream(text.as_bytes(), text.len() as u64),
            &options,
            &mut |_| {},
        );
        let in_memory = read_source(Source::Text(&text), &options, &mut |_| {});
        assert_eq!(streamed, in_memory);
        let Ok((scenario, fit)) = traffic_into(&Scenario::default(), &text, &options) else {
            continue;
        };
        let lines: Vec<u64> = fit.bad_rows.iter().map(|b| b.line).collect();
        assert!(lines.windows(2).all(|w| w[0] <= w[1]));
        assert!(fit.used >= 2 && fit.mean_rps.is_finite() && fit.mean_rps > 0.0);
        assert!(scenario.validate().is_ok());
    }
});
