//! What every history reader must hold for any input: no panic; skipped records in line
//! order within the file; at least two jobs when it fits; every fitted class well formed (a
//! finite positive rate, 24 valid hour weights when it has them, a finite positive mean
//! duration, a failure share in 0–1); a replay of the same input valid or refused, never
//! a panic.

use gpucost::model::scenario::{Arrivals, JobClass, Scenario};
use gpucost::history::source::Source;
use gpucost::history::{fit_history, read_history, read_source, replay::replay_into, ImportOptions};

pub fn check(text: &str, options: &ImportOptions) {
    // Streamed, the CLI's way, it reads exactly as from memory.
    let streamed = read_source(
        Source::stream(text.as_bytes(), text.len() as u64),
        options,
        &mut |_| {},
    );
    assert_eq!(streamed, read_history(text, options));
    let _ = replay_into(&Scenario::default(), text, options);
    let Ok(fit) = fit_history(text, &JobClass::default(), "A100", options) else {
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
    assert!(fit.used >= 2);
    assert!(!fit.classes.is_empty() && fit.classes.len() <= 16);
    for class in &fit.classes {
        let per_day = match &class.arrivals {
            Arrivals::HourOfDay {
                per_day,
                hourly_weights,
                weekday_weights,
            } => {
                assert_eq!(hourly_weights.len(), 24);
                assert!(hourly_weights.iter().all(|w| w.is_finite() && *w >= 0.0));
                assert!(hourly_weights.iter().sum::<f64>() > 0.0);
                if let Some(w) = weekday_weights {
                    assert_eq!(w.len(), 7);
                    assert!(w.iter().all(|w| w.is_finite() && *w >= 0.0));
                    assert!(w.iter().sum::<f64>() > 0.0);
                }
                *per_day
            }
            Arrivals::Poisson { per_day } => *per_day,
            other => panic!("fitted arrivals are hour-of-day or Poisson: {other:?}"),
        };
        assert!(per_day.is_finite() && per_day > 0.0);
        let mean = class.duration.mean_hours();
        assert!(mean.is_finite() && mean > 0.0, "mean duration {mean}");
        assert!((0.0..=1.0).contains(&class.failures.probability));
    }
}
