//! The discrete-event simulation of one replication.
//!
//! - [`jobs`]: the job stream of a replication, shared by every platform (common random
//!   numbers).
//! - [`outcome`]: what one platform's run measured: the cost breakdown and the scheduling
//!   metrics.
//! - [`node_index`]: live nodes by state and free GPUs, for placement in constant time.
//! - [`event_queue`]: the future events, earliest first, ties in scheduling order.
//! - [`job_queue`]: the waiting jobs in submission order, for placement's walk.
//! - [`engine`]: the event loop of one platform: nodes, placement, attempts, interruptions,
//!   billing.

pub mod engine;
pub mod event_queue;
pub mod job_queue;
pub mod jobs;
pub mod node_index;
pub mod outcome;

pub use engine::{
    simulate_platform, simulate_platform_timeline, simulate_platform_within, AttemptEnd,
    AttemptSpan, JobRecord, NodeSpan, Timeline,
};
pub use jobs::{generate_jobs, Job};
pub use outcome::{Breakdown, GpuUse, PlatformOutcome};
