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
    use gpucost::model::scenario::Scenario;
    use std::hint::black_box;
    use std::path::Path;

    /// Replications per measured run (the wasm benchmark runs the same).
    pub const REPLICATIONS: u32 = 8;

    /// The benchmark scenario and one variant per mechanism, as listed in
    /// `bench/scenarios/engine.json` (which the wasm benchmark reads too): (name, scenario).
    fn variants() -> Vec<(String, Scenario)> {
        #[derive(serde::Deserialize)]
        struct Listed {
            name: String,
            file: String,
        }
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/scenarios");
        let read = |file: &str| {
            std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
        };
        let listed: Vec<Listed> = serde_json::from_str(&read("engine.json")).expect("engine.json");
        listed
            .into_iter()
            .map(|Listed { name, file }| {
                let mut s = Scenario::from_json(&read(&file)).expect("bench scenario");
                s.replications = REPLICATIONS;
                (name, s)
            })
            .collect()
    }

    fn engine(c: &mut Criterion) {
        let mut group = c.benchmark_group("engine");
        group.sample_size(10);
        for (name, scenario) in variants() {
            let mut probe = MonteCarlo::new(scenario.clone()).expect("valid");
            probe.run_batch(REPLICATIONS);
            group.throughput(Throughput::Elements(probe.job_runs()));
            // Events per run, for events/s (read back by bench/report.mjs).
            println!(
                "bench-counts {name}\tjob_runs={}\tevents={}",
                probe.job_runs(),
                probe.events()
            );
            group.bench_function(&name, |b| {
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
