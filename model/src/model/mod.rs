//! The cost and scheduling model: pure Rust with no web crate, so the same code runs natively
//! (tests, CLI) and in the browser (wasm32), and gives the same numbers in both.
//!
//! Start at [`scenario::Scenario`] (the input), [`monte_carlo::MonteCarlo`] (a run) and
//! [`sim`] (the discrete-event simulation of one replication); README.md, "The model", gives
//! the map.

pub mod analytic;
pub mod budget;
pub mod catalog;
pub mod cloud;
pub mod collector;
pub mod cost_category;
pub mod egress;
pub mod error;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod gpus;
pub mod hosted_api;
pub mod knobs;
pub mod monte_carlo;
pub mod outcome_cache;
pub mod output;
pub mod paired;
pub mod payback;
pub mod platform_result;
pub mod platforms;
pub mod pricing;
pub mod rng;
pub mod rounding;
pub mod scaling;
pub mod scenario;
pub mod sensitivity;
pub mod serving;
pub mod sim;
pub mod split;
pub mod stats;
pub mod step;
pub mod storage;
pub mod topological;
pub mod transfer;
pub mod ziggurat;

/// Version of the engine that computed a result; every result carries it.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Hours in the normalised month that every monthly figure uses (MODEL.md: 730-hour month).
pub const HOURS_PER_MONTH: f64 = 730.0;
