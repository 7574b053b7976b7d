//! Our engine against the practical floor (bench/peer/mmc_floor.rs) on the peer's workload
//! (bench/peer/mmc-scenario.json): both timed the same way, the simulation loop alone,
//! in-process, on one core, in pairs taken in turns (the side that runs first alternates), so
//! that the machine's swings fall on both. Prints one JSON line for `make bench`: the median
//! of our time ÷ the floor's, its range, and both sides' mean queue waits (the same workload:
//! they agree within Monte Carlo error).

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
#[path = "../bench/peer/mmc_floor.rs"]
mod mmc_floor;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use gpucost::model::monte_carlo::run_replication;
    use gpucost::model::scenario::Scenario;
    use std::hint::black_box;
    use std::time::Instant;

    const PAIRS: usize = 15;
    const REPS: u64 = 20;
    let text = std::fs::read_to_string("bench/peer/mmc-scenario.json").expect("the peer scenario");
    let scenario = Scenario::from_json(&text).expect("a valid scenario");
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("bench/peer/mmc.json").expect("mmc.json"))
            .unwrap();
    let peer = &spec["peer"];
    let num = |k: &str| peer[k].as_f64().unwrap();
    let c = num("gpus") as usize;
    let horizon_s = num("horizon_days") * 86_400.0;
    let floor_rep = |r: u64| {
        mmc_floor::replication(
            scenario.seed,
            r,
            c,
            num("jobs_per_day"),
            num("mean_hours"),
            num("pull_s"),
            horizon_s,
        )
    };
    let time = |f: &dyn Fn()| {
        let t0 = Instant::now();
        f();
        t0.elapsed().as_secs_f64()
    };
    let ours = || {
        for r in 0..REPS {
            black_box(run_replication(&scenario, r));
        }
    };
    let floor = || {
        for r in 0..REPS {
            black_box(floor_rep(r));
        }
    };
    // Warm both up, then the pairs.
    ours();
    floor();
    let mut ratios: Vec<f64> = (0..PAIRS)
        .map(|i| {
            let (a, b) = if i % 2 == 0 {
                let a = time(&ours);
                (a, time(&floor))
            } else {
                let b = time(&floor);
                (time(&ours), b)
            };
            a / b
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    // The same workload: mean queue waits over 200 replications each, with standard errors.
    let n = 200;
    let mean_and_se = |waits: Vec<f64>| {
        let mean = waits.iter().sum::<f64>() / n as f64;
        let var = waits.iter().map(|w| (w - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        (mean / 60.0, (var / n as f64).sqrt() / 60.0)
    };
    let (our_wait, our_se) = mean_and_se(
        (0..n)
            .map(|r| run_replication(&scenario, r)[0].queue_wait_mean_s)
            .collect(),
    );
    let (floor_wait, floor_se) = mean_and_se((0..n).map(|r| floor_rep(r).mean_wait_s).collect());
    let jobs = (0..REPS).map(|r| floor_rep(r).jobs).sum::<u64>();
    println!(
        "{}",
        serde_json::json!({
            "pairs": PAIRS,
            "replications_per_side": REPS,
            "jobs_per_side": jobs,
            "ratio_median": ratios[PAIRS / 2],
            "ratio_min": ratios[0],
            "ratio_max": ratios[PAIRS - 1],
            "ours_mean_wait_min": our_wait,
            "ours_mean_wait_se_min": our_se,
            "floor_mean_wait_min": floor_wait,
            "floor_mean_wait_se_min": floor_se,
        })
    );
}
