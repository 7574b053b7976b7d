//! LLM serving in tokens: a service that describes an LLM (`services[].llm`) instead of a
//! measured capacity. Its replicas' capacity, batch, time to first token and time per output
//! token come from a roofline of the model on the platform's GPU ([`roofline`]), bucket by
//! bucket of the usual serving simulation ([`latency`]); the model's shape from a table of
//! known architectures or the scenario ([`architectures`]).

pub mod architectures;
pub mod batching;
pub mod latency;
pub mod roofline;
