//! Editing pipelines as the page does: add a pipeline or a stage, remove a stage, rename one,
//! choose what a stage comes after. A stage's name is also its `class_pools` key
//! (`pipeline/stage`) and appears in other stages' `after`: renaming and removing keep those
//! in step, so an edit never leaves a reference to a stage that is gone.

use crate::model::scenario::pipeline::{PIPELINES_MAX, STAGES_MAX};
use crate::model::scenario::{Arrivals, Duration, JobClass, Pipeline, Scenario};

/// A stage of one GPU for `hours` (median; p90 three times it), after `after`.
fn new_stage(name: &str, hours: f64, after: &[&str]) -> JobClass {
    JobClass {
        name: name.into(),
        duration: Duration::LogNormal {
            median_hours: hours,
            p90_hours: 3.0 * hours,
        },
        gpus_per_job: 1.0,
        gpu_memory_gb: 16.0,
        after: after.iter().map(|s| s.to_string()).collect(),
        ..JobClass::default()
    }
}

/// Adds a pipeline of two stages ("prepare", then "train"), four runs a day, named
/// "Pipeline", "Pipeline 2", …; false at the limit or beside a hosted API.
pub fn add_pipeline(scenario: &mut Scenario) -> bool {
    // A hosted API runs no pipelines (validation says so by name).
    if scenario.pipelines.len() >= PIPELINES_MAX
        || scenario.platforms.iter().any(|p| !p.runs_nodes())
    {
        return false;
    }
    let mut name = "Pipeline".to_string();
    let mut k = 1;
    while scenario.pipelines.iter().any(|p| p.name == name) {
        k += 1;
        name = format!("Pipeline {k}");
    }
    scenario.pipelines.push(Pipeline {
        name,
        arrivals: Arrivals::Steady { per_day: 4.0 },
        stages: vec![
            new_stage("prepare", 0.25, &[]),
            new_stage("train", 2.0, &["prepare"]),
        ],
        people_blocked_per_job: 1.0,
    });
    true
}

/// Removes pipeline `p` and its stages' pool choices.
pub fn remove_pipeline(scenario: &mut Scenario, p: usize) -> bool {
    if p >= scenario.pipelines.len() {
        return false;
    }
    let prefix = format!("{}/", scenario.pipelines[p].name);
    for platform in &mut scenario.platforms {
        platform.class_pools.retain(|k, _| !k.starts_with(&prefix));
        platform
            .checkpoint_interval_min
            .retain(|k, _| !k.starts_with(&prefix));
    }
    scenario.pipelines.remove(p);
    true
}

/// Adds a stage after the last one of pipeline `p`, on the pools that one runs on; false at
/// the limit.
pub fn add_stage(scenario: &mut Scenario, p: usize) -> bool {
    let Some(pipeline) = scenario.pipelines.get_mut(p) else {
        return false;
    };
    if pipeline.stages.len() >= STAGES_MAX {
        return false;
    }
    let mut k = pipeline.stages.len() + 1;
    let mut name = format!("stage-{k}");
    while pipeline.stages.iter().any(|s| s.name == name) {
        k += 1;
        name = format!("stage-{k}");
    }
    let last = pipeline.stages.last().map(|s| s.name.clone());
    let after: Vec<&str> = last.as_deref().into_iter().collect();
    pipeline.stages.push(new_stage(&name, 1.0, &after));
    // It runs where the stage before it runs, where that one's pool is chosen (so a pipeline
    // that moves between pools in one direction still does).
    if let Some(last) = last {
        let (from, to) = (
            format!("{}/{last}", pipeline.name),
            format!("{}/{name}", pipeline.name),
        );
        for platform in &mut scenario.platforms {
            if let Some(pool) = platform.class_pools.get(&from).cloned() {
                platform.class_pools.insert(to.clone(), pool);
            }
        }
    }
    true
}

/// Removes stage `s` of pipeline `p` (not the last one): the stages after it come after what
/// it came after instead, and its pool choices go.
pub fn remove_stage(scenario: &mut Scenario, p: usize, s: usize) -> bool {
    let Some(pipeline) = scenario.pipelines.get_mut(p) else {
        return false;
    };
    if s >= pipeline.stages.len() || pipeline.stages.len() == 1 {
        return false;
    }
    let gone = pipeline.stages.remove(s);
    for stage in &mut pipeline.stages {
        if let Some(i) = stage.after.iter().position(|a| *a == gone.name) {
            stage.after.remove(i);
            for a in &gone.after {
                if !stage.after.contains(a) {
                    stage.after.push(a.clone());
                }
            }
        }
    }
    let key = format!("{}/{}", pipeline.name, gone.name);
    for platform in &mut scenario.platforms {
        platform.class_pools.remove(&key);
        platform.checkpoint_interval_min.remove(&key);
    }
    true
}

/// Renames stage `s` of pipeline `p` to `name`, in the other stages' `after` and in the
/// platforms' pool choices too; false (nothing changed) when another stage has that name or
/// it is empty.
pub fn rename_stage(scenario: &mut Scenario, p: usize, s: usize, name: &str) -> bool {
    let name = name.trim();
    let Some(pipeline) = scenario.pipelines.get_mut(p) else {
        return false;
    };
    if name.is_empty()
        || s >= pipeline.stages.len()
        || pipeline.stages.iter().any(|o| o.name == name)
    {
        return false;
    }
    let old = std::mem::replace(&mut pipeline.stages[s].name, name.to_string());
    for stage in &mut pipeline.stages {
        for a in &mut stage.after {
            if *a == old {
                *a = name.to_string();
            }
        }
    }
    let (old_key, new_key) = (
        format!("{}/{old}", pipeline.name),
        format!("{}/{name}", pipeline.name),
    );
    for platform in &mut scenario.platforms {
        if let Some(pool) = platform.class_pools.remove(&old_key) {
            platform.class_pools.insert(new_key.clone(), pool);
        }
        if let Some(minutes) = platform.checkpoint_interval_min.remove(&old_key) {
            platform
                .checkpoint_interval_min
                .insert(new_key.clone(), minutes);
        }
    }
    true
}

/// Sets what stage `s` of pipeline `p` comes after, by name, in the pipeline's stage order
/// (a cycle this makes is left for validation to name).
pub fn set_stage_after(scenario: &mut Scenario, p: usize, s: usize, after: &[String]) -> bool {
    let Some(pipeline) = scenario.pipelines.get_mut(p) else {
        return false;
    };
    if s >= pipeline.stages.len() {
        return false;
    }
    let ordered: Vec<String> = pipeline
        .stages
        .iter()
        .map(|o| o.name.clone())
        .filter(|n| after.contains(n))
        .collect();
    pipeline.stages[s].after = ordered;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renaming_and_removing_keep_the_references_in_step() {
        let mut s = Scenario::default();
        assert!(add_pipeline(&mut s));
        assert!(add_stage(&mut s, 0));
        assert_eq!(s.pipelines[0].stages[2].after, ["train"]);
        s.platforms[0]
            .class_pools
            .insert("Pipeline/train".into(), "default".into());
        s.platforms[0]
            .class_pools
            .insert("Pipeline/stage-3".into(), "default".into());
        assert!(add_stage(&mut s, 0));
        assert_eq!(s.platforms[0].class_pools["Pipeline/stage-4"], "default");
        assert!(remove_stage(&mut s, 0, 3));
        assert!(!s.platforms[0].class_pools.contains_key("Pipeline/stage-4"));
        assert!(rename_stage(&mut s, 0, 1, "fine-tune"));
        assert_eq!(s.pipelines[0].stages[2].after, ["fine-tune"]);
        assert!(s.platforms[0]
            .class_pools
            .contains_key("Pipeline/fine-tune"));
        assert!(!rename_stage(&mut s, 0, 1, "prepare"));
        s.validate().unwrap();
        // Removing the middle stage joins its neighbours.
        assert!(remove_stage(&mut s, 0, 1));
        assert_eq!(s.pipelines[0].stages[1].after, ["prepare"]);
        assert!(!s.platforms[0]
            .class_pools
            .contains_key("Pipeline/fine-tune"));
        s.validate().unwrap();
        // After itself: validation names the cycle.
        assert!(set_stage_after(&mut s, 0, 0, &["stage-3".to_string()]));
        let e = s.validate().unwrap_err().to_string();
        assert!(e.contains("cycle"), "{e}");
        assert!(remove_pipeline(&mut s, 0));
        s.validate().unwrap();
    }
}
