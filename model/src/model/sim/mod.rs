//! The discrete-event simulation of one replication.
//!
//! - [`jobs`]: the job stream of a replication, shared by every platform (common random
//!   numbers).
//! - [`outcome`]: what one platform's run measured: the cost breakdown and the scheduling
//!   metrics.
//! - [`node_index`]: live nodes by state and free GPUs, for placement in constant time.
//! - [`event_queue`]: the future events, earliest first, ties in scheduling order.
//! - [`job_queue`]: the waiting jobs in submission order, for placement's walk.
//! - [`timeline`]: per-job records and node and attempt spans, kept when asked for.
//! - [`state`]: what the event loop keeps of each node and job, and each class's plan;
//!   `shared_gpus`: the GPUs jobs asking for a fraction of one share (MIG, time-slicing).
//! - `ledger`: the cost ledger (every paid GPU-second charged to one category); `checkpoint`:
//!   the checkpoint arithmetic of an attempt; `summary`: the queue waits and job counts at
//!   the horizon.
//! - `attempt_failure`: whether an attempt fails, and after how much of its compute.
//! - [`engine`]: the event loop of one platform: a small core (the clock, the event queue,
//!   nodes, jobs, placement, attempts, spot interruptions, billing and the ledger) whose
//!   handlers are one mutually recursive state machine and stay together, and the
//!   mechanisms (data staging, node failures, reclaim waves, consolidation, teams,
//!   pipelines, services on the training nodes, the warm pool, shared GPUs), each a struct
//!   with its own state in a file of its own, called through a few hooks and registered in
//!   one list (`engine/mechanism.rs`). Its set-up, outcome, timeline records and wait parts
//!   are files of their own.

mod attempt_failure;
mod checkpoint;
pub mod engine;
pub mod event_queue;
pub mod job_queue;
pub mod jobs;
mod ledger;
pub mod node_index;
pub mod outcome;
mod reads;
mod shared_gpus;
pub mod state;
mod summary;
pub mod timeline;

pub use crate::model::cost_category::{Breakdown, Category, PerCategory};
pub use engine::{simulate_platform, simulate_platform_timeline, simulate_platform_within};
pub use jobs::{generate_jobs, Job};
pub use outcome::PlatformOutcome;
pub use timeline::{AttemptEnd, AttemptSpan, JobRecord, NodeLoss, NodeSpan, Timeline};
