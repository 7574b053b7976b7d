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
//! - `ledger`: the cost ledger (every paid GPU-second charged to one category); `checkpoint`:
//!   the checkpoint arithmetic of an attempt.
//! - [`engine`]: the event loop of one platform: nodes, placement, attempts, interruptions,
//!   billing.

mod checkpoint;
pub mod engine;
pub mod event_queue;
pub mod job_queue;
pub mod jobs;
mod ledger;
pub mod node_index;
pub mod outcome;
pub mod timeline;

pub use crate::model::cost_category::{Breakdown, Category, PerCategory};
pub use engine::{simulate_platform, simulate_platform_timeline, simulate_platform_within};
pub use jobs::{generate_jobs, Job};
pub use outcome::PlatformOutcome;
pub use timeline::{AttemptEnd, AttemptSpan, JobRecord, NodeSpan, Timeline};
