//! Native integration tests: one binary, one module per area.
//! Native only: proptest does not build for wasm32 (browser tests are in tests/web.rs).
#![cfg(not(target_arch = "wasm32"))]

mod azure;
mod backoff;
mod bench_scenarios;
mod cases;
mod cli;
mod closed_forms;
mod colocation;
mod commitments;
mod consolidation;
mod decision_map;
mod determinism;
mod egress;
mod fractional_jobs;
mod golden_values;
mod gpu_sharing;
mod hand_cases;
mod history;
mod history_cli;
mod history_fidelity;
mod history_readers;
mod history_replay;
mod history_stream;
mod history_traces;
mod invariants;
mod limits;
mod links;
mod node_failures;
mod node_pools;
mod payback;
mod pipelines;
mod presets;
mod regions;
mod report;
mod scaling;
mod sensitivity;
mod serving;
mod split;
mod spot_reclaims;
mod staging;
mod support;
mod teams;
mod tune;
mod verdict_flips;
mod warmup;
