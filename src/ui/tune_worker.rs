//! The tuner as a long pass of its own worker ([`super::pass_worker`]).

use super::pass_worker::{Pass, PassWorker};
use crate::model::scenario::Scenario;
use crate::workbench::tune::{TuneOptions, TuneRun};
use crate::worker_protocol::{ScenarioText, TuneProgress, WorkerInput, WorkerOutput};

/// A tune asked for.
pub struct TuneRequest {
    /// Identifies the tune in the answers.
    pub tune_id: u64,
    /// The scenario.
    pub scenario: Scenario,
}

/// The page's tuner.
pub type TuneWorker = PassWorker<TuneRequest>;

impl Pass for TuneRequest {
    type Progress = TuneProgress;
    type Run = TuneRun;
    const MARK: &'static str = "tune-answer";

    fn id(&self) -> u64 {
        self.tune_id
    }

    fn input(&self) -> WorkerInput {
        WorkerInput::Tune {
            tune_id: self.tune_id,
            scenario: ScenarioText::of(&self.scenario),
        }
    }

    fn progress_in(answer: WorkerOutput) -> Option<TuneProgress> {
        match answer {
            WorkerOutput::Tune(progress) => Some(progress),
            _ => None,
        }
    }

    fn answers(progress: &TuneProgress) -> u64 {
        progress.tune_id
    }

    fn finished(progress: &TuneProgress) -> bool {
        progress.finished()
    }

    fn start(&self) -> Result<TuneRun, TuneProgress> {
        TuneRun::new(&self.scenario, TuneOptions::default()).map_err(|e| TuneProgress {
            tune_id: self.tune_id,
            error: Some(e.to_string()),
            ..TuneProgress::default()
        })
    }

    fn progress_of(tune_id: u64, run: &TuneRun) -> TuneProgress {
        TuneProgress::of(tune_id, run)
    }
}
