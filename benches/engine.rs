//! Native benchmarks of the simulation core on the fixed benchmark scenario
//! (`bench/scenarios/mixed-fleet.json`) and on variants that each stress one mechanism.
//! Throughput is in job-runs (a job simulated on one platform); `make bench` reads the
//! estimates criterion writes and turns them into `bench/RESULTS.md`.

// Native only: criterion does not build for wasm32 (the wasm figures come from
// bench/wasm-engine.mjs in Chromium).
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{criterion_group, Criterion, Throughput};
    use gpucost::model::monte_carlo::MonteCarlo;
    use gpucost::model::scenario::{Arrivals, Duration, Overflow, Scenario};
    use std::hint::black_box;

    /// Replications per measured run (the wasm benchmark runs the same).
    pub const REPLICATIONS: u32 = 8;

    fn mixed_fleet() -> Scenario {
        let text = include_str!("../bench/scenarios/mixed-fleet.json");
        let mut s = Scenario::from_json(text).expect("bench scenario");
        s.replications = REPLICATIONS;
        s
    }

    /// The benchmark scenario and one variant per mechanism: (name, scenario).
    fn variants() -> Vec<(&'static str, Scenario)> {
        let base = mixed_fleet();
        // Every overhead off: Poisson arrivals, exponential run times, no failures,
        // checkpoints, pulls, provisioning or interruptions (the M/M/c core).
        let mut core = base.clone();
        for c in &mut core.job_classes {
            c.arrivals = Arrivals::Poisson {
                per_day: c.arrivals.jobs_per_day(),
            };
            c.duration = Duration::Exponential {
                mean_hours: c.duration.mean_hours(),
            };
            c.failures.probability = 0.0;
            c.checkpoint_interval_min = 0.0;
            c.image_gb = 0.0;
        }
        for p in &mut core.platforms {
            p.provisioning_median_s = 0.0;
            p.provisioning_p90_s = 0.0;
            p.spot_interruptions_per_node_hour = 0.0;
            p.warm_pool_window_s = 3600.0;
        }
        let mut spot = base.clone();
        for p in &mut spot.platforms {
            p.purchase.overflow = Overflow::Spot;
            p.spot_interruptions_per_node_hour = 0.05;
        }
        let mut cold = base.clone();
        for p in &mut cold.platforms {
            p.warm_pool_window_s = 0.0;
            p.image_cache = false;
        }
        vec![
            ("mixed-fleet (all mechanisms)", base),
            ("M/M/c core (no overheads)", core),
            ("spot interruptions ×10, all platforms", spot),
            ("cold nodes (no warm pool, no image cache)", cold),
        ]
    }

    fn engine(c: &mut Criterion) {
        let mut group = c.benchmark_group("engine");
        group.sample_size(10);
        for (name, scenario) in variants() {
            let mut probe = MonteCarlo::new(scenario.clone()).expect("valid");
            probe.run_batch(REPLICATIONS);
            group.throughput(Throughput::Elements(probe.job_runs()));
            // Events per run, for events/s (read back by scripts/bench-report.mjs).
            println!(
                "bench-counts {name}\tjob_runs={}\tevents={}",
                probe.job_runs(),
                probe.events()
            );
            group.bench_function(name, |b| {
                b.iter(|| {
                    let mut run = MonteCarlo::new(black_box(scenario.clone())).expect("valid");
                    run.run_batch(REPLICATIONS);
                    black_box(run.results())
                })
            });
        }
        group.finish();
    }

    criterion_group!(benches, engine);
}
