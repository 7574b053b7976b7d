//! Any bytes as a job history: the importer never panics; bad rows are reported in line order
//! within the file; every fitted class is well formed (24 hour weights, not all zero, finite
//! positive rates and durations, a failure share in 0–1).
#![no_main]

use gpucost::model::scenario::{Arrivals, JobClass};
use gpucost::scenario::history::fit_history;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(fit) = fit_history(&text, &JobClass::default(), "A100", &Default::default()) else {
        return;
    };
    let lines = text.lines().count() as u64 + 1;
    let mut last = 0;
    for bad in &fit.bad_rows {
        assert!(
            bad.line >= last && bad.line <= lines,
            "line {} of {lines}",
            bad.line
        );
        last = bad.line;
    }
    assert!(fit.used >= 2 && fit.used + fit.bad_rows.len() <= fit.rows);
    assert!(!fit.classes.is_empty() && fit.classes.len() <= 16);
    for class in &fit.classes {
        let Arrivals::HourOfDay {
            per_day,
            hourly_weights,
        } = &class.arrivals
        else {
            panic!("fitted arrivals are hour-of-day");
        };
        assert!(per_day.is_finite() && *per_day > 0.0);
        assert_eq!(hourly_weights.len(), 24);
        assert!(hourly_weights.iter().all(|w| w.is_finite() && *w >= 0.0));
        assert!(hourly_weights.iter().sum::<f64>() > 0.0);
        let mean = class.duration.mean_hours();
        assert!(mean.is_finite() && mean > 0.0, "mean duration {mean}");
        assert!((0.0..=1.0).contains(&class.failures.probability));
    }
});
