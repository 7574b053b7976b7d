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

    /// One service for 30 days at 1,000 requests a second on average (a day's profile and two
    /// ×10 spikes of an hour), autoscaled, in 1-minute buckets: one platform and replication.
    fn serving(c: &mut Criterion) {
        use gpucost::model::gpus::find;
        use gpucost::model::rng::{Purpose, Stream};
        use gpucost::model::serving::llm::architectures::known;
        use gpucost::model::serving::llm::latency::{LlmLatency, LlmTables};
        use gpucost::model::serving::llm::roofline::{
            Efficiencies, Precision, Replica, TokenCount,
        };
        use gpucost::model::serving::pool::{run_pool, LlmSpec, PoolSpec};
        use gpucost::model::serving::traffic::{Spikes, Traffic};
        use std::sync::Arc;
        let spec = PoolSpec {
            capacity_rps: 40.0,
            concurrency: 8,
            latency_slo_ms: 500.0,
            min_replicas: 1,
            max_replicas: 2_000,
            target_utilization: 0.7,
            startup_s: 90.0,
            scale_down_cooldown_s: 300.0,
            metric_period_s: 60.0,
            queue_limit: 100_000.0,
            initial_replicas: 36,
            llm: None,
        };
        let traffic = Traffic {
            mean_rps: 1_000.0,
            hourly_profile: (0..24)
                .map(|h| 1.0 + 0.5 * f64::from(h % 12) / 11.0)
                .collect(),
            weekend_factor: 0.8,
            spikes: Some(Spikes {
                per_month: 2.0,
                factor: 10.0,
                duration_min: 60.0,
            }),
            replay: None,
        };
        let horizon_s = 30.0 * 86_400.0;
        let mut group = c.benchmark_group("serving");
        group.sample_size(20);
        group.throughput(Throughput::Elements(43_200));
        let mut replication = 0;
        // One run of `spec` on the traffic of the next replication.
        let mut run = |spec: &PoolSpec| {
            replication += 1;
            let mut stream = Stream::new(7, replication, Purpose::Traffic, 0);
            let plan = traffic.plan(horizon_s, &mut stream);
            run_pool(spec, &plan, horizon_s, 60.0, &mut stream, 0..0, None)
        };
        group.bench_function("30-day 1000 rps autoscaled", |b| {
            b.iter(|| black_box(run(&spec)))
        });
        // The same traffic on an LLM (Llama 3.1 8B in bf16 on one H100, 500-token prompts and
        // 200-token answers): its minutes read TTFT and TPOT from the replica's tables (built
        // once per service and GPU, as the runs of a report share them, so outside the loop).
        let replica = Replica::new(
            &known("llama-3.1-8b").unwrap().architecture,
            Precision::Bf16,
            find("H100").unwrap(),
            1,
            TokenCount::new(500.0, 1_500.0),
            TokenCount::new(200.0, 600.0),
            Efficiencies::CALIBRATED,
        )
        .unwrap();
        let tables = Arc::new(LlmTables::new(replica));
        let (ttft_slo_ms, tpot_slo_ms) = (1_000.0, 50.0);
        let saturation = tables.saturation_rps();
        let within = tables.rps_within(ttft_slo_ms / 1e3, tpot_slo_ms / 1e3);
        let llm_spec = PoolSpec {
            capacity_rps: saturation,
            concurrency: tables.replica().max_batch.round() as u32,
            latency_slo_ms: ttft_slo_ms,
            target_utilization: 0.7 * within / saturation,
            initial_replicas: (1_000.0 / within).ceil() as u32,
            llm: Some(LlmSpec {
                latency: LlmLatency::new(tables),
                ttft_slo_ms,
                tpot_slo_ms,
            }),
            ..spec.clone()
        };
        group.bench_function("30-day 1000 rps autoscaled LLM", |b| {
            b.iter(|| black_box(run(&llm_spec)))
        });
        group.finish();
    }

    criterion_group!(benches, engine, serving);
}
