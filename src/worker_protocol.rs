//! What the page and its simulation workers say to each other: plain data, sent as JSON text
//! with `postMessage` (`crate::worker` on the worker's side, `crate::ui::sim_worker` on the
//! page's). No web crate here, so the run coordinator that writes these messages is tested
//! natively.

use crate::model::scenario::Scenario;
use crate::model::sensitivity::{FoundBreakEven, TornadoBar};
use crate::model::sim::PlatformOutcome;
use crate::workbench::decision_map::MapCell;
use crate::workbench::tune::{TuneReport, TuneRun};
use crate::workbench::verdict_flips::VerdictFlips;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::rc::Rc;

/// A scenario as JSON text, written once per input and shared by every message that carries
/// it (each worker's `Start`, a restarted worker's replay, the sensitivity passes). Read back
/// through [`Scenario::from_json_value`], the page's one reader of scenario JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioText(Rc<str>);

impl ScenarioText {
    /// The scenario's JSON text.
    pub fn of(scenario: &Scenario) -> ScenarioText {
        // Through a `serde_json::Value`, which the page already builds for its links (a direct
        // `to_string` adds a serializer to the wasm module). A scenario is plain data with
        // string keys: writing it cannot fail.
        let text = serde_json::to_value(scenario)
            .map(|v| v.to_string())
            .unwrap_or_default();
        ScenarioText(text.into())
    }

    /// The scenario, or why it cannot be read.
    pub fn read(&self) -> Result<Scenario, String> {
        let value: serde_json::Value = serde_json::from_str(&self.0).map_err(|e| e.to_string())?;
        Scenario::from_json_value(value).map_err(|e| e.to_string())
    }
}

impl Serialize for ScenarioText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ScenarioText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|text| ScenarioText(text.into()))
    }
}

/// What the page sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WorkerInput {
    /// Run this scenario, replacing any older run.
    Start {
        /// Identifies the run in the answers.
        run_id: u64,
        /// The scenario.
        scenario: ScenarioText,
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
        scenario: ScenarioText,
    },
    /// After run `run_id`'s replications: its break-evens.
    BreakEvens {
        /// The run it belongs to.
        run_id: u64,
        /// The scenario.
        scenario: ScenarioText,
    },
    /// After run `run_id`'s replications: what would flip its verdict, `winner` against
    /// `rival` on the metric with key `metric`.
    Flips {
        /// The run it belongs to.
        run_id: u64,
        /// The scenario.
        scenario: ScenarioText,
        /// The platform the verdict names.
        winner: String,
        /// Its closest rival.
        rival: String,
        /// The verdict's metric ([`crate::workbench::verdict::VerdictMetric::key`]).
        metric: String,
    },
    /// The decision map of a scenario (the map's own worker), replacing any older map.
    DecisionMap {
        /// Identifies the map in the answers.
        map_id: u64,
        /// The scenario.
        scenario: ScenarioText,
        /// The map's settings, as the link's `map=` value.
        settings: String,
    },
    /// Put each platform at its best (the long passes' own worker), replacing any older
    /// pass there.
    Tune {
        /// Identifies the tune in the answers.
        tune_id: u64,
        /// The scenario.
        scenario: ScenarioText,
    },
    /// Drop whatever the worker is doing (the map's inputs changed; its new request waits for
    /// the main run to finish).
    Stop,
}

/// A tune's progress, then its report.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TuneProgress {
    /// The tune answered.
    pub tune_id: u64,
    /// Platforms tuned so far.
    pub platforms_done: usize,
    /// Platforms to tune.
    pub platforms: usize,
    /// Replications simulated so far.
    pub evaluations: u64,
    /// The platform being tuned.
    pub tuning: Option<String>,
    /// The report, once complete.
    pub report: Option<Box<TuneReport>>,
    /// Why it cannot run, if it cannot (then nothing more comes).
    pub error: Option<String>,
}

impl TuneProgress {
    /// The tune is complete, or refused.
    pub fn finished(&self) -> bool {
        self.error.is_some() || self.report.is_some()
    }

    /// The progress of `run`, tune `tune_id`.
    pub fn of(tune_id: u64, run: &TuneRun) -> TuneProgress {
        let (platforms_done, platforms, evaluations) = run.progress();
        TuneProgress {
            tune_id,
            platforms_done,
            platforms,
            evaluations,
            tuning: run.tuning().map(str::to_string),
            report: run.report().cloned().map(Box::new),
            error: None,
        }
    }
}

/// A decision map's progress: every cell done so far (the map's worker's answer, and what the
/// page draws from).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MapProgress {
    /// The map answered.
    pub map_id: u64,
    /// The cells done, in the order computed.
    pub cells: Vec<MapCell>,
    /// Replications run.
    pub done: u32,
    /// Replications in the whole map.
    pub total: u32,
    /// Why the map cannot be drawn, if it cannot (then nothing more comes).
    pub error: Option<String>,
}

impl MapProgress {
    /// The map is complete, or refused.
    pub fn finished(&self) -> bool {
        self.error.is_some() || (self.total > 0 && self.done >= self.total)
    }
}

/// What the worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// What would flip the verdict, once the pass is complete (`None`: it could not run).
    Flips {
        /// The run answered.
        run_id: u64,
        /// The answer.
        flips: Option<VerdictFlips>,
    },
    /// Decision map progress: every cell done so far.
    DecisionMap(MapProgress),
    /// A tune's progress, then its report.
    Tune(TuneProgress),
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
            WorkerOutput::DecisionMap(progress) => progress.finished(),
            WorkerOutput::Tune(progress) => progress.finished(),
            WorkerOutput::BreakEvens { .. }
            | WorkerOutput::Flips { .. }
            | WorkerOutput::Invalid { .. } => true,
        }
    }
}

/// A message as JSON text. Every number in the messages is finite (validated scenarios;
/// outcomes and summaries are checked free of NaN and infinity by the invariant tests), and
/// serde_json writes each float so that it reads back bit for bit and each u64 exactly.
pub fn encode<T: Serialize>(message: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(message)
}

/// A message from JSON text.
pub fn decode<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_message_reads_back_as_the_scenario_it_carries() {
        let scenario = Scenario::default();
        let input = WorkerInput::Start {
            run_id: 7,
            scenario: ScenarioText::of(&scenario),
            shard: 1,
            shards: 2,
        };
        let back: WorkerInput = decode(&encode(&input).unwrap()).unwrap();
        assert_eq!(back, input);
        let WorkerInput::Start { scenario: text, .. } = back else {
            unreachable!()
        };
        assert_eq!(text.read().unwrap(), scenario);
    }

    #[test]
    fn a_scenario_text_that_is_not_a_scenario_says_why() {
        let text: ScenarioText = decode("\"{\\\"horizon_days\\\": \\\"long\\\"}\"").unwrap();
        assert!(text.read().unwrap_err().contains("horizon_days"));
    }
}
