//! Pipelines: named DAGs of stages. A pipeline run arrives like a job class; each stage is a
//! job-class-like spec submitted when all the stages it comes `after` have finished; a stage
//! that gives up fails the run, and the stages after it are never submitted.
//!
//! The simulation sees a pipeline as its stages, each a job class of its own appended after
//! the scenario's classes ([`Scenario::simulated`]): plans, pools, failures and the ledger
//! treat a stage as they treat any class. What is a pipeline's own is the order in which its
//! stages are submitted ([`PipelineGraph`]) and what is measured per run.

use super::{Arrivals, JobClass, Scenario};
use crate::model::error::ScenarioError;
use crate::model::topological::topological_order;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Most pipelines in a scenario.
pub const PIPELINES_MAX: usize = 8;
/// Most stages in one pipeline.
pub const STAGES_MAX: usize = 32;

/// A named DAG of stages, run as a whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Pipeline {
    /// Name shown in the UI and the report.
    pub name: String,
    /// How runs arrive (as a job class's jobs do).
    pub arrivals: Arrivals,
    /// The stages: job-class-like specs, each with the names of the stages it comes `after`.
    /// A stage's own `arrivals` is not read (its pipeline's runs submit it) and not written.
    #[serde(serialize_with = "stages_without_arrivals")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(with = "Vec<JobClass>"))]
    pub stages: Vec<JobClass>,
    /// How many people wait for a run's result (default 1): the time a run loses to its
    /// stages' queue waits costs each of them `people.waiting_usd_per_hour`.
    #[serde(skip_serializing_if = "super::is_one")]
    pub people_blocked_per_job: f64,
}

impl Default for Pipeline {
    fn default() -> Self {
        Pipeline {
            name: "Pipeline".to_string(),
            arrivals: Arrivals::Steady { per_day: 4.0 },
            stages: Vec::new(),
            people_blocked_per_job: 1.0,
        }
    }
}

/// Writes each stage as a job class without its `arrivals`, which is its pipeline's.
fn stages_without_arrivals<S: serde::Serializer>(
    stages: &[JobClass],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::{Error, SerializeSeq};
    let mut seq = serializer.serialize_seq(Some(stages.len()))?;
    for stage in stages {
        let mut value = serde_json::to_value(stage).map_err(S::Error::custom)?;
        if let Some(map) = value.as_object_mut() {
            map.remove("arrivals");
        }
        seq.serialize_element(&value)?;
    }
    seq.end()
}

impl Pipeline {
    /// The name of stage `s` as a job class of the simulation (and as a `class_pools` key):
    /// `pipeline/stage`.
    pub fn stage_class_name(&self, s: usize) -> String {
        format!("{}/{}", self.name, self.stages[s].name)
    }

    /// Per stage, the indices of the stages it comes after (names resolved; unknown names
    /// left out: validation refuses them first).
    pub fn predecessors(&self) -> Vec<Vec<usize>> {
        self.stages
            .iter()
            .map(|stage| {
                stage
                    .after
                    .iter()
                    .filter_map(|name| self.stages.iter().position(|s| &s.name == name))
                    .collect()
            })
            .collect()
    }

    /// (predecessor, stage) for every `after` name that resolves.
    fn edges(&self) -> Vec<(usize, usize)> {
        self.predecessors()
            .iter()
            .enumerate()
            .flat_map(|(s, p)| p.iter().map(move |&q| (q, s)))
            .collect()
    }

    /// Stage indices in an order where every stage comes after its predecessors; `None`
    /// when the stages form a cycle.
    pub fn topological_order(&self) -> Option<Vec<usize>> {
        let order = topological_order(self.stages.len(), &self.edges());
        (order.len() == self.stages.len()).then_some(order)
    }

    /// The stages on a cycle, in the order the cycle goes (for the message that refuses it).
    pub fn cycle(&self) -> Option<Vec<usize>> {
        let preds = self.predecessors();
        let n = preds.len();
        // Walk backwards along predecessors from any stage that no topological order reaches:
        // every such stage has a predecessor that is also unreached, so the walk comes back.
        let mut placed = vec![false; n];
        for s in topological_order(n, &self.edges()) {
            placed[s] = true;
        }
        let start = (0..n).find(|&s| !placed[s])?;
        let mut path = vec![start];
        let mut at = start;
        loop {
            let pred = *preds[at].iter().find(|&&q| !placed[q])?;
            if let Some(i) = path.iter().position(|&s| s == pred) {
                let mut cycle: Vec<usize> = path[i..].to_vec();
                cycle.reverse();
                return Some(cycle);
            }
            path.push(pred);
            at = pred;
        }
    }

    /// Checks the `after` lists: every one naming a stage of this pipeline once, no stage
    /// after itself directly or not (the names are checked first, by validation).
    pub fn check_graph(&self, at: &str) -> Result<(), ScenarioError> {
        for (s, stage) in self.stages.iter().enumerate() {
            for (k, name) in stage.after.iter().enumerate() {
                if !self.stages.iter().any(|o| &o.name == name) {
                    let names: Vec<&str> = self.stages.iter().map(|o| o.name.as_str()).collect();
                    return Err(ScenarioError::Invalid {
                        field: format!("{at}.stages.{s}.after.{k}"),
                        reason: format!(
                            "pipeline \"{}\" has no stage named \"{name}\" (its stages: {})",
                            self.name,
                            names.join(", ")
                        ),
                    });
                }
                if stage.after[..k].contains(name) {
                    return Err(ScenarioError::Invalid {
                        field: format!("{at}.stages.{s}.after.{k}"),
                        reason: format!("\"{name}\" is listed twice"),
                    });
                }
            }
        }
        if let Some(cycle) = self.cycle() {
            let mut names: Vec<&str> = cycle
                .iter()
                .map(|&s| self.stages[s].name.as_str())
                .collect();
            names.push(names[0]);
            return Err(ScenarioError::Invalid {
                field: format!("{at}.stages.{}.after", cycle[0]),
                reason: format!(
                    "pipeline \"{}\" has a cycle: {} (a stage cannot come after itself, \
                     directly or through others)",
                    self.name,
                    names.join(" → ")
                ),
            });
        }
        Ok(())
    }
}

/// Where the stages are among the simulated job classes, and what each comes after.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PipelineGraph {
    /// The first stage's class index (the scenario's own classes come before).
    pub first_stage_class: usize,
    /// Per pipeline: its first stage's class index and its stage count.
    pub pipelines: Vec<(usize, usize)>,
    /// Per stage class (from `first_stage_class`): its pipeline, its stage index, the stage
    /// indices it comes after and those that come after it.
    pub stages: Vec<StageLinks>,
}

/// One stage's place in its pipeline.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StageLinks {
    /// Its pipeline.
    pub pipeline: usize,
    /// Its index among its pipeline's stages.
    pub stage: usize,
    /// The stages it comes after (indices in its pipeline).
    pub after: Vec<usize>,
    /// The stages that come after it.
    pub before: Vec<usize>,
}

impl PipelineGraph {
    /// The graph of a scenario's pipelines, its stages numbered after `classes` job classes.
    pub fn of(pipelines: &[Pipeline], classes: usize) -> PipelineGraph {
        let mut graph = PipelineGraph {
            first_stage_class: classes,
            ..PipelineGraph::default()
        };
        let mut next = classes;
        for (p, pipeline) in pipelines.iter().enumerate() {
            graph.pipelines.push((next, pipeline.stages.len()));
            next += pipeline.stages.len();
            let preds = pipeline.predecessors();
            for (s, after) in preds.iter().enumerate() {
                let before = preds
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| a.contains(&s))
                    .map(|(t, _)| t)
                    .collect();
                graph.stages.push(StageLinks {
                    pipeline: p,
                    stage: s,
                    after: after.clone(),
                    before,
                });
            }
        }
        graph
    }

    /// The links of job class `class`, when it is a stage.
    pub fn stage(&self, class: usize) -> Option<&StageLinks> {
        class
            .checked_sub(self.first_stage_class)
            .and_then(|i| self.stages.get(i))
    }
}

impl Scenario {
    /// The scenario platform `platform` simulates: [`Scenario::simulated`], with the job
    /// classes checkpointing at the intervals the platform sets for them
    /// (`Platform::checkpoint_interval_min`) and the services as it runs them
    /// ([`super::Service::on`]).
    pub fn simulated_on(&self, platform: usize) -> Cow<'_, Scenario> {
        let simulated = self.simulated();
        let Some(p) = self.platforms.get(platform) else {
            return simulated;
        };
        let own = &p.checkpoint_interval_min;
        let services_move = self
            .services
            .iter()
            .any(|s| matches!(s.on(p), Cow::Owned(_)));
        if own.is_empty() && !services_move {
            return simulated;
        }
        let mut out = simulated.into_owned();
        for class in &mut out.job_classes {
            if let Some(&minutes) = own.get(&class.name) {
                class.checkpoint_interval_min = minutes;
            }
        }
        for (service, typed) in out.services.iter_mut().zip(&self.services) {
            *service = typed.on(p).into_owned();
        }
        Cow::Owned(out)
    }

    /// The scenario the simulation runs: itself where it has no pipelines (or has been
    /// through here already), else a copy with each stage appended to the job classes as
    /// `pipeline/stage`, arriving with its pipeline's runs. A stage's own price of waiting
    /// is its run's (`Pipeline::people_blocked_per_job`), counted per run, so the stage
    /// classes count none.
    pub fn simulated(&self) -> Cow<'_, Scenario> {
        if self.pipelines.is_empty() || self.stage_classes_from.is_some() {
            return Cow::Borrowed(self);
        }
        let mut out = self.clone();
        out.stage_classes_from = Some(self.job_classes.len());
        for pipeline in &self.pipelines {
            for (s, stage) in pipeline.stages.iter().enumerate() {
                let mut class = stage.clone();
                class.name = pipeline.stage_class_name(s);
                class.arrivals = pipeline.arrivals.clone();
                class.people_blocked_per_job = 0.0;
                out.job_classes.push(class);
            }
        }
        Cow::Owned(out)
    }

    /// The stages' places among the simulated classes ([`Scenario::simulated`]); `None`
    /// without pipelines.
    pub fn pipeline_graph(&self) -> Option<PipelineGraph> {
        let first = self.stage_classes_from?;
        Some(PipelineGraph::of(&self.pipelines, first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(name: &str, after: &[&str]) -> JobClass {
        JobClass {
            name: name.into(),
            after: after.iter().map(|s| s.to_string()).collect(),
            ..JobClass::default()
        }
    }

    fn pipeline(stages: Vec<JobClass>) -> Pipeline {
        Pipeline {
            name: "p".into(),
            stages,
            ..Pipeline::default()
        }
    }

    #[test]
    fn a_diamond_orders_its_stages_and_has_no_cycle() {
        let p = pipeline(vec![
            stage("d", &["b", "c"]),
            stage("b", &["a"]),
            stage("a", &[]),
            stage("c", &["a"]),
        ]);
        assert_eq!(p.topological_order(), Some(vec![2, 1, 3, 0]));
        assert_eq!(p.cycle(), None);
        assert!(p.check_graph("pipelines.0").is_ok());
    }

    #[test]
    fn a_cycle_is_named_in_its_order() {
        let p = pipeline(vec![
            stage("a", &[]),
            stage("b", &["a", "d"]),
            stage("c", &["b"]),
            stage("d", &["c"]),
        ]);
        assert_eq!(p.cycle(), Some(vec![2, 3, 1]));
        let e = p.check_graph("pipelines.0").unwrap_err().to_string();
        assert!(e.contains("cycle: c → d → b → c"), "{e}");
        let own = pipeline(vec![stage("a", &["a"])]);
        let e = own.check_graph("pipelines.0").unwrap_err().to_string();
        assert!(e.contains("cycle: a → a"), "{e}");
    }

    #[test]
    fn an_unknown_stage_is_named() {
        let p = pipeline(vec![stage("a", &[]), stage("b", &["x"])]);
        let e = p.check_graph("pipelines.0").unwrap_err().to_string();
        assert!(e.contains("pipelines.0.stages.1.after.0"), "{e}");
        assert!(e.contains("no stage named \"x\""), "{e}");
    }

    #[test]
    fn stages_are_written_without_arrivals_and_read_back() {
        let p = pipeline(vec![stage("a", &[]), stage("b", &["a"])]);
        let text = serde_json::to_string(&p).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(value["stages"][0].get("arrivals").is_none(), "{text}");
        assert!(value.get("arrivals").is_some(), "{text}");
        let back: Pipeline = serde_json::from_str(&text).unwrap();
        assert_eq!(back.stages[1].after, vec!["a".to_string()]);
    }
}
