//! The decision map as a long pass of its own worker ([`super::pass_worker`]).

use super::pass_worker::{Pass, PassWorker};
use crate::model::scenario::Scenario;
use crate::workbench::decision_map::{DecisionMapRun, MapSettings};
use crate::worker_protocol::{MapProgress, ScenarioText, WorkerInput, WorkerOutput};

/// A map asked for.
pub struct MapRequest {
    /// Identifies the map in the answers.
    pub map_id: u64,
    /// The scenario.
    pub scenario: Scenario,
    /// The map's inputs.
    pub settings: MapSettings,
}

/// The page's decision-map computer.
pub type MapWorker = PassWorker<MapRequest>;

impl Pass for MapRequest {
    type Progress = MapProgress;
    type Run = DecisionMapRun;
    const MARK: &'static str = "map-answer";

    fn id(&self) -> u64 {
        self.map_id
    }

    fn input(&self) -> WorkerInput {
        WorkerInput::DecisionMap {
            map_id: self.map_id,
            scenario: ScenarioText::of(&self.scenario),
            settings: self
                .settings
                .link_part()
                .trim_start_matches("map=")
                .to_string(),
        }
    }

    fn progress_in(answer: WorkerOutput) -> Option<MapProgress> {
        match answer {
            WorkerOutput::DecisionMap(progress) => Some(progress),
            _ => None,
        }
    }

    fn answers(progress: &MapProgress) -> u64 {
        progress.map_id
    }

    fn finished(progress: &MapProgress) -> bool {
        progress.finished()
    }

    fn start(&self) -> Result<DecisionMapRun, MapProgress> {
        DecisionMapRun::new(&self.scenario, self.settings.clone()).map_err(|error| MapProgress {
            map_id: self.map_id,
            error: Some(error),
            ..MapProgress::default()
        })
    }

    fn progress_of(map_id: u64, map: &DecisionMapRun) -> MapProgress {
        let (done, total) = map.progress();
        MapProgress {
            map_id,
            cells: map.cells().to_vec(),
            done,
            total,
            error: None,
        }
    }
}
