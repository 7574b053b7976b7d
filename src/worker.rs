//! The simulation worker: runs the Monte Carlo off the main thread in slices, answering with
//! partial results after each, and drops a run as soon as a newer one arrives.
//!
//! Between slices it yields to its event loop (a zero timeout), so a `Start` for newer inputs
//! is read within one slice and the older run is abandoned.

use crate::model::monte_carlo::{MonteCarlo, Results};
use crate::model::scenario::Scenario;
use gloo_worker::{Codec, HandlerId, Worker, WorkerScope};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// Longest a worker slice runs before yielding, milliseconds.
const SLICE_BUDGET_MS: f64 = 25.0;

/// What the page sends.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerInput {
    /// Run this scenario, replacing any older run.
    Start {
        /// Identifies the run in the answers.
        run_id: u64,
        /// The scenario.
        scenario: Scenario,
    },
}

/// What the worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerOutput {
    /// Results of the replications done so far.
    Progress {
        /// The run answered.
        run_id: u64,
        /// Replications done.
        done: u32,
        /// Replications in the run.
        total: u32,
        /// Summary so far.
        results: Results,
    },
    /// The scenario was refused.
    Invalid {
        /// The run answered.
        run_id: u64,
        /// The validation message.
        message: String,
    },
}

/// Worker messages as JS values through serde-wasm-bindgen; u64 (seeds) travel as BigInt.
pub struct JsValueCodec;

impl Codec for JsValueCodec {
    fn encode<I: Serialize>(input: I) -> JsValue {
        let serializer =
            serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
        input
            .serialize(&serializer)
            .expect("worker messages are plain data")
    }

    fn decode<O: for<'de> Deserialize<'de>>(input: JsValue) -> O {
        serde_wasm_bindgen::from_value(input).expect("worker messages come from this crate")
    }
}

/// The worker's state: the current run, if any.
pub struct SimulationWorker {
    current: Option<(u64, HandlerId, MonteCarlo)>,
}

/// Internal tick: run a slice of run `run_id`.
pub struct Slice {
    run_id: u64,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn schedule(scope: &WorkerScope<SimulationWorker>, run_id: u64) {
    scope.send_future(async move {
        gloo_timers::future::TimeoutFuture::new(0).await;
        Slice { run_id }
    });
}

impl Worker for SimulationWorker {
    type Message = Slice;
    type Input = WorkerInput;
    type Output = WorkerOutput;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        SimulationWorker { current: None }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, msg: Slice) {
        let Some((run_id, who, run)) = self.current.as_mut() else {
            return;
        };
        if *run_id != msg.run_id {
            return; // a newer run replaced this one
        }
        let start = now_ms();
        run.run_while(|| now_ms() - start < SLICE_BUDGET_MS);
        scope.respond(
            *who,
            WorkerOutput::Progress {
                run_id: *run_id,
                done: run.done(),
                total: run.scenario().replications,
                results: run.results(),
            },
        );
        if run.is_done() {
            self.current = None;
        } else {
            schedule(scope, msg.run_id);
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: WorkerInput, who: HandlerId) {
        match msg {
            WorkerInput::Start { run_id, scenario } => match MonteCarlo::new(scenario) {
                Ok(run) => {
                    self.current = Some((run_id, who, run));
                    schedule(scope, run_id);
                }
                Err(e) => {
                    self.current = None;
                    scope.respond(
                        who,
                        WorkerOutput::Invalid {
                            run_id,
                            message: e.to_string(),
                        },
                    );
                }
            },
        }
    }
}
