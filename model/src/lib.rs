//! gpucost-model: the pure part of the GPU training and serving cost calculator. No web crate is imported
//! here (`scripts/check-model-purity.sh`), so it compiles natively for the tests and the CLI,
//! and to wasm32 for the page, its simulation workers and `pkg/`. The `gpucost` package
//! re-exports these modules under the same paths (`gpucost::model`, ...).
//!
//! - [`model`]: the cost and scheduling model (scenarios, the simulation, Monte Carlo).
//! - [`workbench`]: what the page and the CLI do with a scenario: presets, edits by dotted
//!   path, links, reports, verdicts, comparisons and the case studies (job-history import is the
//!   `gpucost-history` package, history/).
//! - [`charts`]: chart geometry (scales, ticks, bar layout); the SVG components that draw it
//!   live in the `gpucost` package's UI.
//! - [`format`](mod@format): numbers and money as the page, the CLI and the charts write them.

pub mod charts;
pub mod format;
pub mod model;
pub mod workbench;
