//! What a simulation worker does, without the web: it runs its share of a run's replications
//! (one [`Shard`]; the page starts one worker per core) in slices, answering with the outcomes
//! of the replications done in each, then the run's sensitivity passes, and drops a run as soon
//! as a newer one arrives. `crate::worker` carries its messages and schedules its slices.
//!
//! Between slices the worker yields to its event loop, so a `Start` for newer inputs is read
//! within one slice and the older run is abandoned. A single replication cannot be
//! interrupted: when one runs long (a large scenario) the page terminates the worker and starts
//! a new one instead, which is also how it recovers from a worker that crashed.
//!
//! It keeps the outcomes of its latest run ([`OutcomeCache`]): when an edit changes only some
//! platforms (a platform's slider), the next run simulates only those and reuses the others'
//! outcomes, which are the same bits.

use crate::model::monte_carlo::Shard;
use crate::model::outcome_cache::OutcomeCache;
use crate::model::sensitivity::{BreakEvenSet, TornadoRun};
use crate::model::sim::PlatformOutcome;
use crate::model::step::{run_slice, Step, Stepped};
use crate::run_coordinator::tuning::{
    coarse_replications, BREAK_EVEN_REPS, MAP_SLICE_MS, SENSITIVITY_SLICE_MS, TORNADO_PCT,
    TORNADO_REPS, WORKER_SLICE_MS,
};
use crate::workbench::decision_map::{DecisionMapRun, MapSettings};
use crate::workbench::tune::{TuneOptions, TuneRun};
use crate::workbench::verdict::VerdictMetric;
use crate::workbench::verdict_flips::FlipRun;
use crate::worker_protocol::{MapProgress, TuneProgress, WorkerInput, WorkerOutput};

/// The current run: its id, the shard, how many of the coarse pass's replications are still
/// this shard's, and the outcomes not yet answered.
struct ShareOfRun {
    run_id: u64,
    shard: Shard,
    coarse_left: u32,
    unanswered: Vec<(u32, Vec<PlatformOutcome>)>,
}

/// A share of a run stepped with the worker's outcome cache: one replication a step; the
/// answer goes at once when the share's part of the coarse pass is done.
struct ShareStep<'a> {
    share: &'a mut ShareOfRun,
    cache: &'a mut OutcomeCache,
}

impl Step for ShareStep<'_> {
    fn step(&mut self) -> Stepped {
        let Some(done) = self.share.shard.step_with(self.cache) else {
            return Stepped::Complete;
        };
        self.share.unanswered.push(done);
        let coarse_done = self.share.coarse_left == 1;
        self.share.coarse_left = self.share.coarse_left.saturating_sub(1);
        if self.share.shard.is_done() {
            Stepped::Complete
        } else if coarse_done {
            Stepped::AnswerNow
        } else {
            Stepped::More
        }
    }
}

/// A sensitivity computation queued after a run's replications (or, in the map's own worker,
/// the decision map).
enum Sensitivity {
    Tornado(Box<TornadoRun>),
    BreakEvens(BreakEvenSet),
    Flips(Box<FlipRun>),
    DecisionMap(Box<DecisionMapRun>),
    Tune(Box<TuneRun>),
}

impl Step for Sensitivity {
    fn step(&mut self) -> Stepped {
        match self {
            Sensitivity::Tornado(run) => Step::step(run.as_mut()),
            Sensitivity::BreakEvens(set) => Step::step(set),
            Sensitivity::Flips(run) => Step::step(run.as_mut()),
            Sensitivity::DecisionMap(map) => Step::step(map.as_mut()),
            Sensitivity::Tune(run) => Step::step(run.as_mut()),
        }
    }
}

/// The worker's state: the current run's replications, then its sensitivity tasks, in order.
#[derive(Default)]
pub struct SimulationWorker {
    current: Option<ShareOfRun>,
    /// Outcomes of the latest run, so a run after an edit to some platforms simulates only
    /// those ([`OutcomeCache`]).
    cache: OutcomeCache,
    sensitivity: Vec<(u64, Sensitivity)>,
    /// The run whose slices are scheduled (one chain of slices at a time).
    scheduled: Option<u64>,
}

impl SimulationWorker {
    /// Reads a message from the page, answering through `answer`; returns the run to schedule
    /// a chain of slices for, when one must start.
    pub fn received(
        &mut self,
        input: WorkerInput,
        answer: &mut dyn FnMut(WorkerOutput),
    ) -> Option<u64> {
        match input {
            WorkerInput::Start {
                run_id,
                scenario,
                shard,
                shards,
            } => {
                // Before any work on it: the page replaces a worker that does not say so soon.
                answer(WorkerOutput::Started { run_id });
                // Sensitivity tasks of an older run are dropped whether or not this one starts.
                self.sensitivity.clear();
                match scenario
                    .read()
                    .and_then(|s| Shard::new(s, shard, shards).map_err(|e| e.to_string()))
                {
                    Ok(run) => {
                        self.cache.switch_to(run.scenario());
                        let shards = shards.max(1);
                        // The coarse pass's replications that are this shard's.
                        let coarse_left = coarse_replications(run.scenario())
                            .saturating_sub(shard)
                            .div_ceil(shards);
                        self.current = Some(ShareOfRun {
                            run_id,
                            shard: run,
                            coarse_left,
                            unanswered: Vec::new(),
                        });
                        self.start_slices(run_id)
                    }
                    Err(message) => {
                        self.current = None;
                        answer(WorkerOutput::Invalid { run_id, message });
                        None
                    }
                }
            }
            WorkerInput::Tornado { run_id, scenario } => {
                let run = scenario
                    .read()
                    .ok()
                    .and_then(|s| TornadoRun::new(&s, TORNADO_PCT, TORNADO_REPS).ok());
                match run {
                    Some(run) => self.queue(run_id, Sensitivity::Tornado(Box::new(run))),
                    // No tornado for this scenario: said at once, so the page does not wait
                    // for one before calling its verdict final.
                    None => {
                        answer(WorkerOutput::Tornado {
                            run_id,
                            done: 0,
                            total: 0,
                            bars: Some(Vec::new()),
                        });
                        None
                    }
                }
            }
            WorkerInput::BreakEvens { run_id, scenario } => {
                let set = scenario
                    .read()
                    .map(|s| BreakEvenSet::new(&s, BREAK_EVEN_REPS))
                    .ok()
                    .filter(|set| !set.is_empty());
                match set {
                    Some(set) => self.queue(run_id, Sensitivity::BreakEvens(set)),
                    None => {
                        answer(WorkerOutput::BreakEvens {
                            run_id,
                            found: Vec::new(),
                        });
                        None
                    }
                }
            }
            WorkerInput::Flips {
                run_id,
                scenario,
                winner,
                rival,
                metric,
            } => {
                let run = match (scenario.read(), VerdictMetric::from_key(&metric)) {
                    (Ok(s), Some(metric)) => FlipRun::new(&s, &winner, &rival, metric),
                    _ => None,
                };
                match run {
                    Some(run) => self.queue(run_id, Sensitivity::Flips(Box::new(run))),
                    None => {
                        answer(WorkerOutput::Flips {
                            run_id,
                            flips: None,
                        });
                        None
                    }
                }
            }
            WorkerInput::DecisionMap {
                map_id,
                scenario,
                settings,
            } => {
                let map = scenario.read().and_then(|s| {
                    MapSettings::from_link_value(&settings)
                        .and_then(|settings| DecisionMapRun::new(&s, settings))
                });
                match map {
                    Ok(map) => self.queue(map_id, Sensitivity::DecisionMap(Box::new(map))),
                    Err(error) => {
                        self.sensitivity.clear();
                        answer(WorkerOutput::DecisionMap(MapProgress {
                            map_id,
                            error: Some(error),
                            ..MapProgress::default()
                        }));
                        None
                    }
                }
            }
            WorkerInput::Tune { tune_id, scenario } => {
                let run = scenario.read().and_then(|s| {
                    TuneRun::new(&s, TuneOptions::default()).map_err(|e| e.to_string())
                });
                match run {
                    Ok(run) => self.queue(tune_id, Sensitivity::Tune(Box::new(run))),
                    Err(error) => {
                        self.sensitivity.clear();
                        answer(WorkerOutput::Tune(TuneProgress {
                            tune_id,
                            error: Some(error),
                            ..TuneProgress::default()
                        }));
                        None
                    }
                }
            }
            WorkerInput::Stop => {
                self.current = None;
                self.sensitivity.clear();
                self.scheduled = None;
                None
            }
        }
    }

    /// One slice of run `run_id`'s work, timed by `now_ms`; returns whether another slice is
    /// due (false: a newer run replaced this one, or nothing is left).
    pub fn slice(
        &mut self,
        run_id: u64,
        now_ms: &dyn Fn() -> f64,
        answer: &mut dyn FnMut(WorkerOutput),
    ) -> bool {
        if self.scheduled != Some(run_id) {
            return false; // a newer run replaced this one
        }
        let more = match self.current.as_mut() {
            Some(share) if share.run_id == run_id => {
                let mut task = ShareStep {
                    share,
                    cache: &mut self.cache,
                };
                run_slice(&mut task, WORKER_SLICE_MS, now_ms);
                let finished = share.shard.is_done();
                answer(WorkerOutput::Progress {
                    run_id,
                    outcomes: std::mem::take(&mut share.unanswered),
                    finished,
                });
                if finished {
                    self.current = None;
                }
                true
            }
            _ => self.sensitivity_slice(run_id, now_ms, answer),
        };
        let more = more && (self.current.is_some() || !self.sensitivity.is_empty());
        if !more {
            self.scheduled = None;
        }
        more
    }

    /// Starts the chain of slices for `run_id` unless it is already running.
    fn start_slices(&mut self, run_id: u64) -> Option<u64> {
        if self.scheduled == Some(run_id) {
            return None;
        }
        self.scheduled = Some(run_id);
        Some(run_id)
    }

    /// Queues a sensitivity task of run `run_id`; tasks of older runs are dropped.
    fn queue(&mut self, run_id: u64, task: Sensitivity) -> Option<u64> {
        self.sensitivity.retain(|(id, _)| *id == run_id);
        if self.current.as_ref().is_some_and(|c| c.run_id != run_id) {
            self.current = None;
        }
        self.sensitivity.push((run_id, task));
        self.start_slices(run_id)
    }

    /// One slice of the first sensitivity task; returns whether anything is left to do.
    fn sensitivity_slice(
        &mut self,
        run_id: u64,
        now_ms: &dyn Fn() -> f64,
        answer: &mut dyn FnMut(WorkerOutput),
    ) -> bool {
        let Some((id, task)) = self.sensitivity.first_mut() else {
            return false;
        };
        if *id != run_id {
            return false;
        }
        let budget = match task {
            Sensitivity::DecisionMap(_) | Sensitivity::Tune(_) => MAP_SLICE_MS,
            _ => SENSITIVITY_SLICE_MS,
        };
        let complete = run_slice(task, budget, now_ms);
        match task {
            Sensitivity::Tornado(run) => answer(WorkerOutput::Tornado {
                run_id,
                done: run.done_steps() as u32,
                total: run.total_steps() as u32,
                bars: complete.then(|| run.bars()),
            }),
            Sensitivity::BreakEvens(set) if complete => answer(WorkerOutput::BreakEvens {
                run_id,
                found: set.found(),
            }),
            Sensitivity::BreakEvens(_) => {}
            Sensitivity::Flips(run) if complete => answer(WorkerOutput::Flips {
                run_id,
                flips: run.result(),
            }),
            Sensitivity::Flips(_) => {}
            Sensitivity::DecisionMap(map) => {
                let (done, total) = map.progress();
                answer(WorkerOutput::DecisionMap(MapProgress {
                    map_id: run_id,
                    cells: map.cells().to_vec(),
                    done,
                    total,
                    error: None,
                }))
            }
            Sensitivity::Tune(run) => answer(WorkerOutput::Tune(TuneProgress::of(run_id, run))),
        }
        if complete {
            self.sensitivity.remove(0);
        }
        !self.sensitivity.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::monte_carlo::run_replication;
    use crate::model::scenario::Scenario;
    use crate::worker_protocol::ScenarioText;

    fn small() -> Scenario {
        Scenario {
            replications: 40,
            horizon_days: 2.0,
            ..Scenario::default()
        }
    }

    /// Runs every slice the worker asks for with a clock that never moves (so each slice ends
    /// only when the share asks to answer or is done); returns its answers.
    fn run_worker(worker: &mut SimulationWorker, input: WorkerInput) -> Vec<WorkerOutput> {
        let mut answers = Vec::new();
        let mut next = worker.received(input, &mut |a| answers.push(a));
        while let Some(run) = next {
            let more = worker.slice(run, &|| 0.0, &mut |a| answers.push(a));
            next = more.then_some(run);
        }
        answers
    }

    #[test]
    fn a_share_answers_its_part_of_the_coarse_pass_first_then_the_rest() {
        let s = small();
        let mut worker = SimulationWorker::default();
        let answers = run_worker(
            &mut worker,
            WorkerInput::Start {
                run_id: 1,
                scenario: ScenarioText::of(&s),
                shard: 1,
                shards: 2,
            },
        );
        assert_eq!(answers[0], WorkerOutput::Started { run_id: 1 });
        let progress: Vec<Vec<u32>> = answers[1..]
            .iter()
            .map(|a| match a {
                WorkerOutput::Progress { outcomes, .. } => outcomes.iter().map(|o| o.0).collect(),
                other => panic!("{other:?}"),
            })
            .collect();
        // Shard 1 of 2 holds 16 of the 32 coarse replications (1, 3, …, 31), then 33…39.
        assert_eq!(progress[0], (1..32).step_by(2).collect::<Vec<_>>());
        assert_eq!(progress[1], (33..40).step_by(2).collect::<Vec<_>>());
        assert_eq!(progress.len(), 2);
        assert!(answers.last().unwrap().ends_work());
        // Each outcome is the one a single run computes for that replication.
        for answer in &answers[1..] {
            let WorkerOutput::Progress { outcomes, .. } = answer else {
                unreachable!()
            };
            for (r, outcome) in outcomes {
                assert_eq!(
                    *outcome,
                    run_replication(&s, u64::from(*r)),
                    "replication {r}"
                );
            }
        }
    }

    #[test]
    fn a_refused_scenario_is_answered_invalid_with_the_reason() {
        let s = Scenario {
            replications: 0,
            ..small()
        };
        let mut worker = SimulationWorker::default();
        let answers = run_worker(
            &mut worker,
            WorkerInput::Start {
                run_id: 3,
                scenario: ScenarioText::of(&s),
                shard: 0,
                shards: 1,
            },
        );
        assert!(
            matches!(&answers[1], WorkerOutput::Invalid { run_id: 3, message } if message.contains("replications"))
        );
    }

    #[test]
    fn a_map_answers_its_coarse_pass_first_and_a_newer_map_or_a_stop_replaces_it() {
        let s = Scenario {
            replications: 4,
            horizon_days: 0.5,
            ..Scenario::default()
        };
        let request = |map_id| WorkerInput::DecisionMap {
            map_id,
            scenario: ScenarioText::of(&s),
            settings: "spot_interruption_rate,utilization".into(),
        };
        let mut worker = SimulationWorker::default();
        let answers = run_worker(&mut worker, request(1));
        let cells: Vec<usize> = answers
            .iter()
            .map(|a| match a {
                WorkerOutput::DecisionMap(MapProgress {
                    map_id: 1,
                    cells,
                    error: None,
                    ..
                }) => cells.len(),
                other => panic!("{other:?}"),
            })
            .collect();
        // The clock never moves: one answer at the coarse pass, one at the end.
        assert_eq!(cells, [16, 144]);
        assert!(answers.last().unwrap().ends_work());

        // A newer map replaces an older one mid-way; a stop drops it.
        let mut answers = Vec::new();
        let first = worker.received(request(2), &mut |a| answers.push(a));
        assert_eq!(first, Some(2));
        let next = worker.received(request(3), &mut |a| answers.push(a));
        assert_eq!(next, Some(3));
        assert!(!worker.slice(2, &|| 0.0, &mut |a| answers.push(a)));
        assert!(answers.is_empty());
        assert_eq!(
            worker.received(WorkerInput::Stop, &mut |a| answers.push(a)),
            None
        );
        assert!(!worker.slice(3, &|| 0.0, &mut |a| answers.push(a)));
        assert!(answers.is_empty());

        // Settings the scenario refuses are answered with the reason.
        let refused = run_worker(
            &mut worker,
            WorkerInput::DecisionMap {
                map_id: 4,
                scenario: ScenarioText::of(&s),
                settings: "traffic,utilization".into(),
            },
        );
        assert!(
            matches!(&refused[0], WorkerOutput::DecisionMap(MapProgress { error: Some(e), .. }) if e.contains("Traffic"))
        );
    }

    #[test]
    fn a_tune_answers_its_progress_then_its_report_and_a_stop_drops_it() {
        let s = Scenario {
            replications: 4,
            horizon_days: 1.0,
            ..Scenario::default()
        };
        let request = |tune_id| WorkerInput::Tune {
            tune_id,
            scenario: ScenarioText::of(&s),
        };
        let mut worker = SimulationWorker::default();
        let answers = run_worker(&mut worker, request(1));
        let last = answers.last().unwrap();
        assert!(last.ends_work());
        let WorkerOutput::Tune(TuneProgress {
            tune_id: 1,
            report: Some(report),
            error: None,
            ..
        }) = last
        else {
            panic!("{last:?}")
        };
        // The same report the tune gives run to its end.
        let direct = TuneRun::new(&s, TuneOptions::default())
            .unwrap()
            .run_to_end_on(1);
        assert_eq!(**report, direct);
        assert!(answers[..answers.len() - 1]
            .iter()
            .all(|a| matches!(a, WorkerOutput::Tune(p) if p.report.is_none())));

        let mut answers = Vec::new();
        assert_eq!(
            worker.received(request(2), &mut |a| answers.push(a)),
            Some(2)
        );
        worker.received(WorkerInput::Stop, &mut |a| answers.push(a));
        assert!(!worker.slice(2, &|| 0.0, &mut |a| answers.push(a)));
        assert!(answers.is_empty());

        // A scenario it cannot tune is answered with the reason.
        let refused = run_worker(
            &mut worker,
            WorkerInput::Tune {
                tune_id: 3,
                scenario: ScenarioText::of(&Scenario {
                    replications: 0,
                    ..s.clone()
                }),
            },
        );
        assert!(
            matches!(&refused[0], WorkerOutput::Tune(TuneProgress { error: Some(e), .. }) if e.contains("replications"))
        );
    }
}
