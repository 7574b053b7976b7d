//! gpucost: an in-browser cost and scheduling calculator for GPU training infrastructure.
//!
//! Layout (see README.md, "Architecture"):
//! - [`model`], [`scenario`], [`charts`]: the pure cost model, its scenarios and the chart
//!   geometry, from the `gpucost-model` package (model/). No web crate is imported there, so it
//!   compiles natively for tests and the CLI, and to wasm32 for the page; a package of its own
//!   so the release build optimises it for speed and the UI for size.
//! - `ui` (wasm32 + feature `app`): the Leptos components; the only place with signals.
//! - [`run_coordinator`]: the page's run logic (runs, workers, slices, sensitivity passes) as
//!   a state machine with no web crate; `ui::runner` carries out its commands.
//! - [`worker_protocol`]: the messages between the page and its simulation workers.
//! - [`simulation_worker`]: what a simulation worker does, with no web crate.
//! - `worker` (wasm32 + feature `app`): the Web Worker's glue around [`simulation_worker`].
//! - `next_task` (wasm32 + feature `app`): yielding to the event loop between slices.
//! - `js_api` (wasm32 + feature `js-api`): the model exported to JavaScript for `pkg/`.

pub use gpucost_model::{charts, format, model, scenario};

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod ui;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod worker;

pub mod run_coordinator;
pub mod simulation_worker;
pub mod worker_protocol;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod next_task;

#[cfg(all(target_arch = "wasm32", feature = "js-api"))]
pub mod js_api;
