//! Inference serving: services with request traffic on replicas that an autoscaler adds
//! and removes. Traffic advances in fixed buckets of time (a Poisson count of requests per
//! bucket), never request by request: at 1,000 requests a second for 30 days that would be
//! billions of events. The latency of each bucket comes from a queueing model of the ready
//! replicas ([`queueing`]); [`request_level`] simulates the same service request by request,
//! the oracle the bucket model is validated against.
//!
//! This module runs a service on replicas of its own ([`pool`]); the scenario, the node
//! lifecycle shared with training jobs and the outputs build on it.

pub mod llm;
pub mod mixture;
pub mod notices;
pub mod platform;
pub mod pool;
pub mod queueing;
pub mod request_level;
pub mod sharing;
pub mod traffic;

#[cfg(test)]
mod validation;
