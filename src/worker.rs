//! The simulation worker: runs its share of a run's replications (one [`Shard`]; the page
//! starts one worker per core) off the main thread in slices, answering with the outcomes of
//! the replications done in each, and drops a run as soon as a newer one arrives.
//!
//! Between slices it yields to its event loop (a zero timeout), so a `Start` for newer inputs
//! is read within one slice and the older run is abandoned.

use crate::model::monte_carlo::Shard;
use crate::model::scenario::Scenario;
use crate::model::sensitivity::{BreakEvenSet, FoundBreakEven, TornadoBar, TornadoRun};
use crate::model::sim::PlatformOutcome;

/// Replications per tornado variant: coarse, so the tornado follows the inputs quickly.
pub const TORNADO_REPS: u32 = 12;
/// Each tornado input is moved by ± this many percent.
pub const TORNADO_PCT: f64 = 20.0;
/// Replications per option per point of a break-even search.
pub const BREAK_EVEN_REPS: u32 = 6;
use gloo_worker::{Codec, HandlerId, Worker, WorkerScope};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// Longest a worker slice runs before yielding, milliseconds.
const SLICE_BUDGET_MS: f64 = 16.0;

/// Longest a slice of a sensitivity task runs, milliseconds: short, so that a newer input's
/// run (which replaces the task) starts within a few milliseconds.
const SENSITIVITY_SLICE_MS: f64 = 4.0;

/// Replications of the coarse first pass (over all workers): a worker answers as soon as its
/// share of them is done, so a first picture is on screen quickly.
pub const COARSE_REPLICATIONS: u32 = 32;

/// What the page sends.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerInput {
    /// Run this scenario, replacing any older run.
    Start {
        /// Identifies the run in the answers.
        run_id: u64,
        /// The scenario.
        scenario: Scenario,
        /// This worker runs the replications whose index is `shard` modulo `shards`.
        shard: u32,
        /// Workers sharing the run.
        shards: u32,
    },
    /// After run `run_id`'s replications: its sensitivity tornado.
    Tornado {
        /// The run it belongs to.
        run_id: u64,
        /// The scenario.
        scenario: Scenario,
    },
    /// After run `run_id`'s replications: its break-evens.
    BreakEvens {
        /// The run it belongs to.
        run_id: u64,
        /// The scenario.
        scenario: Scenario,
    },
}

/// What the worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerOutput {
    /// Outcomes of the replications done since the last answer.
    Progress {
        /// The run answered.
        run_id: u64,
        /// (replication index, each platform's outcome).
        outcomes: Vec<(u32, Vec<PlatformOutcome>)>,
    },
    /// Tornado progress; the bars once complete.
    Tornado {
        /// The run answered.
        run_id: u64,
        /// Steps done.
        done: u32,
        /// Steps in all.
        total: u32,
        /// The bars, when complete.
        bars: Option<Vec<TornadoBar>>,
    },
    /// The break-evens, once every search is complete.
    BreakEvens {
        /// The run answered.
        run_id: u64,
        /// What was found.
        found: Vec<FoundBreakEven>,
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

/// The current run: its id, who asked, the shard, and how many of the coarse pass's
/// replications are this shard's.
struct Current {
    run_id: u64,
    who: HandlerId,
    shard: Shard,
    coarse_left: u32,
}

/// A sensitivity computation queued after a run's replications.
enum Sensitivity {
    Tornado(Box<TornadoRun>),
    BreakEvens(BreakEvenSet),
}

/// The worker's state: the current run's replications, then its sensitivity tasks, in order.
pub struct SimulationWorker {
    current: Option<Current>,
    sensitivity: Vec<(u64, HandlerId, Sensitivity)>,
    /// The run whose slices are scheduled (one chain of slices at a time).
    scheduled: Option<u64>,
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
        SimulationWorker {
            current: None,
            sensitivity: Vec::new(),
            scheduled: None,
        }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, msg: Slice) {
        if self.scheduled != Some(msg.run_id) {
            return; // a newer run replaced this one
        }
        let more = match self.current.as_mut() {
            Some(current) if current.run_id == msg.run_id => {
                let start = now_ms();
                let mut outcomes = Vec::new();
                // One replication at least; then until the slice is used up, or this worker's
                // part of the coarse pass is done (answer at once).
                while let Some(done) = current.shard.step() {
                    outcomes.push(done);
                    let coarse_done = current.coarse_left == 1;
                    current.coarse_left = current.coarse_left.saturating_sub(1);
                    if coarse_done || now_ms() - start >= SLICE_BUDGET_MS {
                        break;
                    }
                }
                scope.respond(
                    current.who,
                    WorkerOutput::Progress {
                        run_id: current.run_id,
                        outcomes,
                    },
                );
                if current.shard.is_done() {
                    self.current = None;
                }
                true
            }
            _ => self.sensitivity_slice(scope, msg.run_id),
        };
        let more = more && (self.current.is_some() || !self.sensitivity.is_empty());
        if more {
            schedule(scope, msg.run_id);
        } else {
            self.scheduled = None;
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: WorkerInput, who: HandlerId) {
        match msg {
            WorkerInput::Start {
                run_id,
                scenario,
                shard,
                shards,
            } => match Shard::new(scenario, shard, shards) {
                Ok(run) => {
                    let shards = shards.max(1);
                    // Replications below COARSE_REPLICATIONS that are this shard's.
                    let coarse_left = COARSE_REPLICATIONS.saturating_sub(shard).div_ceil(shards);
                    self.current = Some(Current {
                        run_id,
                        who,
                        shard: run,
                        coarse_left,
                    });
                    self.sensitivity.clear();
                    self.start_slices(scope, run_id);
                }
                Err(e) => {
                    self.current = None;
                    self.sensitivity.clear();
                    scope.respond(
                        who,
                        WorkerOutput::Invalid {
                            run_id,
                            message: e.to_string(),
                        },
                    );
                }
            },
            WorkerInput::Tornado { run_id, scenario } => {
                if let Ok(run) = TornadoRun::new(&scenario, TORNADO_PCT, TORNADO_REPS) {
                    self.queue(scope, run_id, who, Sensitivity::Tornado(Box::new(run)));
                }
            }
            WorkerInput::BreakEvens { run_id, scenario } => {
                let set = BreakEvenSet::new(&scenario, BREAK_EVEN_REPS);
                if set.is_empty() {
                    scope.respond(
                        who,
                        WorkerOutput::BreakEvens {
                            run_id,
                            found: Vec::new(),
                        },
                    );
                } else {
                    self.queue(scope, run_id, who, Sensitivity::BreakEvens(set));
                }
            }
        }
    }
}

impl SimulationWorker {
    /// Starts the chain of slices for `run_id` unless it is already running.
    fn start_slices(&mut self, scope: &WorkerScope<Self>, run_id: u64) {
        if self.scheduled != Some(run_id) {
            self.scheduled = Some(run_id);
            schedule(scope, run_id);
        }
    }

    /// Queues a sensitivity task of run `run_id`; tasks of older runs are dropped.
    fn queue(&mut self, scope: &WorkerScope<Self>, run_id: u64, who: HandlerId, task: Sensitivity) {
        self.sensitivity.retain(|(id, _, _)| *id == run_id);
        if self.current.as_ref().is_some_and(|c| c.run_id != run_id) {
            self.current = None;
        }
        self.sensitivity.push((run_id, who, task));
        self.start_slices(scope, run_id);
    }

    /// One slice of the first sensitivity task; returns whether anything is left to do.
    fn sensitivity_slice(&mut self, scope: &WorkerScope<Self>, run_id: u64) -> bool {
        let Some((id, who, task)) = self.sensitivity.first_mut() else {
            return false;
        };
        if *id != run_id {
            return false;
        }
        let start = now_ms();
        let complete = loop {
            let complete = match task {
                Sensitivity::Tornado(run) => run.step(),
                Sensitivity::BreakEvens(set) => set.step(),
            };
            if complete || now_ms() - start >= SENSITIVITY_SLICE_MS {
                break complete;
            }
        };
        let answer = match task {
            Sensitivity::Tornado(run) => Some(WorkerOutput::Tornado {
                run_id,
                done: run.done_steps() as u32,
                total: run.total_steps() as u32,
                bars: complete.then(|| run.bars()),
            }),
            Sensitivity::BreakEvens(set) => complete.then(|| WorkerOutput::BreakEvens {
                run_id,
                found: set.found(),
            }),
        };
        if let Some(answer) = answer {
            scope.respond(*who, answer);
        }
        if complete {
            self.sensitivity.remove(0);
        }
        !self.sensitivity.is_empty()
    }
}
