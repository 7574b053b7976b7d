//! The fitted classes keep the history's work. A job of duration d arriving uniformly in a
//! horizon H keeps min(d, H) − min(d, H)²/2H of its work inside it, so the useful GPU-hours a
//! replication simulates should average rate × H × the mean of that over the file's own run
//! times. Checked on a heavy-tailed history (median minutes, mean hours, some jobs days long:
//! `scripts/make-heavy-tail-history.py`) on a platform with room for every job at once.

use crate::support::{bare_platform, scenario, work_in_window};
use gpucost::history::{fit_history, ImportOptions};
use gpucost::model::monte_carlo::run_replication;

const HEAVY: &str = include_str!("../data/history-heavy-tail.csv");

#[test]
fn the_empirical_classes_keep_the_files_useful_gpu_hours() {
    let template = crate::support::bare_class(
        gpucost::model::scenario::Arrivals::Poisson { per_day: 1.0 },
        gpucost::model::scenario::Duration::Fixed { hours: 1.0 },
    );
    let fit = fit_history(HEAVY, &template, "A100", &ImportOptions::default()).expect("fits");
    assert_eq!(fit.classes.len(), 1);
    let hours: Vec<f64> = HEAVY
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<f64>().unwrap() / 3600.0)
        .collect();
    let n = hours.len() as f64;
    // The file's shape, as its generator meant it.
    let mut sorted = hours.clone();
    sorted.sort_by(f64::total_cmp);
    let mean_h = hours.iter().sum::<f64>() / n;
    assert!(sorted[hours.len() / 2] < 0.5 && mean_h > 3.0);
    assert!(hours.iter().filter(|&&h| h > 24.0).count() as f64 > 0.05 * n);

    let horizon_h = 30.0 * 24.0;
    let per_day = fit.fits[0].per_day;
    let mut platform = bare_platform("ample");
    platform.first_pool_mut().max_nodes = 10_000;
    let replications = 300;
    let mut s = scenario(30.0, replications, fit.classes.clone(), vec![platform]);
    // Cold, and with the warm-up a fitted history gets (the jobs of a day and more then have
    // their work under way when the window opens).
    for warmup_days in [0.0, s.default_warmup_days()] {
        s.warmup_days = warmup_days;
        let warmup_h = warmup_days * 24.0;
        let expected = per_day / 24.0
            * hours
                .iter()
                .map(|&d| work_in_window(d, warmup_h, horizon_h))
                .sum::<f64>()
            / n;
        if warmup_days == 0.0 {
            // The closed form without a warm-up: min(d, H) − min(d, H)²/2H a job.
            let kept = |d: f64| {
                let d = d.min(horizon_h);
                d - d * d / (2.0 * horizon_h)
            };
            let cold = per_day * 30.0 * hours.iter().map(|&d| kept(d)).sum::<f64>() / n;
            assert!(
                (cold - expected).abs() < 1e-9 * cold,
                "{cold} vs {expected}"
            );
        }
        s.validate().expect("valid");
        let useful: Vec<f64> = (0..u64::from(replications))
            .map(|r| run_replication(&s, r)[0].useful_reference_gpu_hours)
            .collect();
        let m = useful.iter().sum::<f64>() / useful.len() as f64;
        let var = useful.iter().map(|u| (u - m).powi(2)).sum::<f64>() / (useful.len() as f64 - 1.0);
        let se = (var / useful.len() as f64).sqrt();
        assert!(
            se < 0.01 * m,
            "standard error {se} of mean {m}: more replications needed"
        );
        eprintln!(
            "heavy tail, warm-up {warmup_days} d: simulated {m:.1} ± {se:.1} GPU-h, expected \
             {expected:.1}"
        );
        let off = (m - expected).abs() / expected;
        assert!(
            off < 0.02,
            "simulated {m:.1} GPU-h, expected {expected:.1} (±{se:.1}): {:.2} % off",
            off * 100.0
        );
    }
}
