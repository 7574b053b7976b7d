//! gpucost: an in-browser cost and scheduling calculator for GPU training and serving.
//!
//! Layout (see README.md, "Architecture"):
//! - [`model`], [`workbench`], [`charts`]: the pure cost model, what the page and the CLI do with
//!   a scenario (presets, edits, links, reports) and the chart geometry, from the `gpucost-model`
//!   package (model/). No web crate is imported there, so it
//!   compiles natively for tests and the CLI, and to wasm32 for the page; a package of its own
//!   so the release build optimises it for speed and the UI for size.
//! - [`history`]: job-history import (Slurm sacct, SWF, CSV traces) from the
//!   `gpucost-history` package (history/), built for size like the UI.
//! - `ui` (wasm32 + feature `app`): the Leptos components; the only place with signals.
//! - [`run_coordinator`]: the page's run logic (runs, workers, slices, sensitivity passes) as
//!   a state machine with no web crate; `ui::runner` carries out its commands.
//! - [`worker_protocol`]: the messages between the page and its simulation workers.
//! - [`simulation_worker`]: what a simulation worker does, with no web crate.
//! - `worker` (wasm32 + feature `app`): the Web Worker's glue around [`simulation_worker`].
//! - `next_task` (wasm32 + feature `app`): yielding to the event loop between slices.
//! - [`history_job`]: a job-history import as a job of its own, with no web crate;
//!   `history_worker` (wasm32 + feature `app`) runs it in a Web Worker.
//! - [`first_number`]: what the loading shell shows before the page has loaded (the model in a
//!   small module of its own, feature `first-number`).
//! - `js_api` (wasm32 + feature `js-api`): the model exported to JavaScript for `pkg/`.

/// Job-history import (the `gpucost-history` package, history/).
pub use gpucost_history as history;
pub use gpucost_model::{charts, format, model, workbench};

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod ui;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod worker;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod history_worker;

pub mod first_number;
pub mod history_job;
pub mod run_coordinator;
pub mod simulation_worker;
pub mod worker_protocol;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod next_task;

#[cfg(all(target_arch = "wasm32", feature = "js-api"))]
pub mod js_api;
