//! gpucost: an in-browser cost and scheduling calculator for GPU training infrastructure.
//!
//! Layout (see README.md, "Architecture"):
//! - [`model`]: the pure cost model. No web crate is imported here, so it compiles natively for
//!   tests and the CLI, and to wasm32 for the page.
//! - [`charts`]: pure chart geometry (scales, ticks, bar layout, number formatting); the SVG
//!   components that draw it live in `ui`.
//! - `ui` (wasm32 + feature `app`): the Leptos components; the only place with signals.
//! - `worker` (wasm32 + feature `app`): the Web Worker that runs the Monte Carlo.
//! - `js_api` (wasm32 + feature `js-api`): the model exported to JavaScript for `pkg/`.

pub mod charts;
pub mod model;
pub mod scenario;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod ui;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod worker;

#[cfg(all(target_arch = "wasm32", feature = "js-api"))]
pub mod js_api;
