//! The simulation worker: runs its share of a run's replications (one [`Shard`]; the page
//! starts one worker per core) off the main thread in slices, answering with the outcomes of
//! the replications done in each, and drops a run as soon as a newer one arrives.
//!
//! Between slices it yields to its event loop (`crate::next_task`), so a `Start` for newer
//! inputs is read within one slice and the older run is abandoned. A single replication
//! cannot be interrupted: when one runs long (a large scenario) the page terminates the worker
//! and starts a new one instead (`crate::ui::sim_worker`), which is also how it recovers from
//! a worker that crashed.
//!
//! It keeps the outcomes of its latest run ([`OutcomeCache`]): when an edit changes only some
//! platforms (a platform's slider), the next run simulates only those and reuses the others'
//! outcomes, which are the same bits.
//!
//! Messages are JSON text, posted with `postMessage` (the scenario inside goes through the
//! page's one reader of scenario JSON); the worker says [`WorkerOutput::Ready`] once it
//! listens, and the page holds its messages until then.

use crate::model::monte_carlo::Shard;
use crate::model::outcome_cache::OutcomeCache;
use crate::model::scenario::Scenario;
use crate::model::sensitivity::{BreakEvenSet, FoundBreakEven, TornadoBar, TornadoRun};
use crate::model::sim::PlatformOutcome;

/// Replications per tornado variant: coarse, so the tornado follows the inputs quickly.
pub const TORNADO_REPS: u32 = 12;
/// Each tornado input is moved by ± this many percent.
pub const TORNADO_PCT: f64 = 20.0;
/// Replications per option per point of a break-even search.
pub const BREAK_EVEN_REPS: u32 = 6;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

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
        #[serde(with = "scenario_as_value")]
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
        #[serde(with = "scenario_as_value")]
        scenario: Scenario,
    },
    /// After run `run_id`'s replications: its break-evens.
    BreakEvens {
        /// The run it belongs to.
        run_id: u64,
        /// The scenario.
        #[serde(with = "scenario_as_value")]
        scenario: Scenario,
    },
}

/// What the worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerOutput {
    /// The worker is listening (its first message).
    Ready,
    /// It has read run `run_id`'s `Start` (said before any work on it): a worker that does not
    /// say this soon after a `Start` is inside a long replication of an older run.
    Started {
        /// The run.
        run_id: u64,
    },
    /// Outcomes of the replications done since the last answer.
    Progress {
        /// The run answered.
        run_id: u64,
        /// (replication index, each platform's outcome).
        outcomes: Vec<(u32, Vec<PlatformOutcome>)>,
        /// This worker's share of the run is done.
        finished: bool,
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

impl WorkerOutput {
    /// Whether this answer ends the work asked of the worker (a finished share of a run, a
    /// complete tornado, the break-evens, a refusal).
    pub fn ends_work(&self) -> bool {
        match self {
            WorkerOutput::Ready | WorkerOutput::Started { .. } => false,
            WorkerOutput::Progress { finished, .. } => *finished,
            WorkerOutput::Tornado { bars, .. } => bars.is_some(),
            WorkerOutput::BreakEvens { .. } | WorkerOutput::Invalid { .. } => true,
        }
    }
}

/// A worker message as JSON text. Every number in the messages is finite (validated
/// scenarios; outcomes and summaries are checked free of NaN and infinity by the invariant
/// tests), and serde_json writes each float so that it reads back bit for bit and each u64
/// exactly.
pub fn encode<T: Serialize>(message: &T) -> Result<JsValue, serde_json::Error> {
    serde_json::to_string(message).map(|text| JsValue::from_str(&text))
}

/// A worker message from JSON text.
pub fn decode<T: for<'de> Deserialize<'de>>(value: JsValue) -> Result<T, String> {
    let text = value.as_string().ok_or("not a text message")?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

/// The scenario in a message as a JSON value: read back through [`Scenario::from_json_value`],
/// the page's one reader of scenario JSON (a second reader would add its code to the module).
mod scenario_as_value {
    use crate::model::scenario::Scenario;
    use serde::{
        de::Error as _, ser::Error as _, Deserialize, Deserializer, Serialize, Serializer,
    };

    pub fn serialize<S: Serializer>(scenario: &Scenario, s: S) -> Result<S::Ok, S::Error> {
        serde_json::to_value(scenario)
            .map_err(S::Error::custom)?
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Scenario, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        Scenario::from_json_value(value).map_err(D::Error::custom)
    }
}

/// The current run: its id, the shard, and how many of the coarse pass's replications are
/// this shard's.
struct Current {
    run_id: u64,
    shard: Shard,
    coarse_left: u32,
}

/// A sensitivity computation queued after a run's replications.
enum Sensitivity {
    Tornado(Box<TornadoRun>),
    BreakEvens(BreakEvenSet),
}

/// The worker's state: the current run's replications, then its sensitivity tasks, in order.
#[derive(Default)]
struct SimulationWorker {
    current: Option<Current>,
    /// Outcomes of the latest run, so a run after an edit to some platforms simulates only
    /// those ([`OutcomeCache`]).
    cache: OutcomeCache,
    sensitivity: Vec<(u64, Sensitivity)>,
    /// The run whose slices are scheduled (one chain of slices at a time).
    scheduled: Option<u64>,
}

thread_local! {
    static WORKER: RefCell<SimulationWorker> = RefCell::new(SimulationWorker::default());
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts an answer to the page.
fn respond(output: WorkerOutput) {
    let value = encode(&output).expect("worker answers are plain data");
    scope()
        .post_message(&value)
        .expect("the page listens to its worker");
}

/// Runs a slice of run `run_id` after the worker's event loop has read its messages.
fn schedule(run_id: u64) {
    crate::next_task::next_task(move || {
        WORKER.with(|w| w.borrow_mut().slice(run_id));
    });
}

/// The worker's entry point: listens to the page and says it is ready.
pub fn start() {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        // Only this crate's page talks to the worker; anything else is ignored.
        if let Ok(input) = decode::<WorkerInput>(event.data()) {
            WORKER.with(|w| w.borrow_mut().received(input));
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    respond(WorkerOutput::Ready);
}

impl SimulationWorker {
    fn slice(&mut self, run_id: u64) {
        if self.scheduled != Some(run_id) {
            return; // a newer run replaced this one
        }
        let more = match self.current.as_mut() {
            Some(current) if current.run_id == run_id => {
                let start = now_ms();
                let mut outcomes = Vec::new();
                // One replication at least; then until the slice is used up, or this worker's
                // part of the coarse pass is done (answer at once).
                while let Some(done) = current.shard.step_with(&mut self.cache) {
                    outcomes.push(done);
                    let coarse_done = current.coarse_left == 1;
                    current.coarse_left = current.coarse_left.saturating_sub(1);
                    if coarse_done || now_ms() - start >= SLICE_BUDGET_MS {
                        break;
                    }
                }
                let finished = current.shard.is_done();
                respond(WorkerOutput::Progress {
                    run_id: current.run_id,
                    outcomes,
                    finished,
                });
                if finished {
                    self.current = None;
                }
                true
            }
            _ => self.sensitivity_slice(run_id),
        };
        let more = more && (self.current.is_some() || !self.sensitivity.is_empty());
        if more {
            schedule(run_id);
        } else {
            self.scheduled = None;
        }
    }

    fn received(&mut self, msg: WorkerInput) {
        match msg {
            WorkerInput::Start {
                run_id,
                scenario,
                shard,
                shards,
            } => {
                // Before any work on it: the page replaces a worker that does not say so soon.
                respond(WorkerOutput::Started { run_id });
                // Sensitivity tasks of an older run are dropped whether or not this one starts.
                self.sensitivity.clear();
                match Shard::new(scenario, shard, shards) {
                    Ok(run) => {
                        self.cache.switch_to(run.scenario());
                        let shards = shards.max(1);
                        // Replications below COARSE_REPLICATIONS that are this shard's.
                        let coarse_left =
                            COARSE_REPLICATIONS.saturating_sub(shard).div_ceil(shards);
                        self.current = Some(Current {
                            run_id,
                            shard: run,
                            coarse_left,
                        });
                        self.start_slices(run_id);
                    }
                    Err(e) => {
                        self.current = None;
                        respond(WorkerOutput::Invalid {
                            run_id,
                            message: e.to_string(),
                        });
                    }
                }
            }
            WorkerInput::Tornado { run_id, scenario } => {
                if let Ok(run) = TornadoRun::new(&scenario, TORNADO_PCT, TORNADO_REPS) {
                    self.queue(run_id, Sensitivity::Tornado(Box::new(run)));
                }
            }
            WorkerInput::BreakEvens { run_id, scenario } => {
                let set = BreakEvenSet::new(&scenario, BREAK_EVEN_REPS);
                if set.is_empty() {
                    respond(WorkerOutput::BreakEvens {
                        run_id,
                        found: Vec::new(),
                    });
                } else {
                    self.queue(run_id, Sensitivity::BreakEvens(set));
                }
            }
        }
    }

    /// Starts the chain of slices for `run_id` unless it is already running.
    fn start_slices(&mut self, run_id: u64) {
        if self.scheduled != Some(run_id) {
            self.scheduled = Some(run_id);
            schedule(run_id);
        }
    }

    /// Queues a sensitivity task of run `run_id`; tasks of older runs are dropped.
    fn queue(&mut self, run_id: u64, task: Sensitivity) {
        self.sensitivity.retain(|(id, _)| *id == run_id);
        if self.current.as_ref().is_some_and(|c| c.run_id != run_id) {
            self.current = None;
        }
        self.sensitivity.push((run_id, task));
        self.start_slices(run_id);
    }

    /// One slice of the first sensitivity task; returns whether anything is left to do.
    fn sensitivity_slice(&mut self, run_id: u64) -> bool {
        let Some((id, task)) = self.sensitivity.first_mut() else {
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
            respond(answer);
        }
        if complete {
            self.sensitivity.remove(0);
        }
        !self.sensitivity.is_empty()
    }
}
