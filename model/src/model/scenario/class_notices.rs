//! What the model changes of a job class, in words, for its fieldset in the page and
//! `gpucost eval`'s stderr: a job asking for a fraction of a GPU holds a whole GPU on a
//! platform that does not share GPUs.

use super::Scenario;

/// The notices of job class `index`.
pub fn class_notices(scenario: &Scenario, index: usize) -> Vec<String> {
    let Some(class) = scenario.job_classes.get(index) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if class.is_fractional() {
        let names = |keep: &dyn Fn(&super::Platform) -> bool| platform_names(scenario, keep);
        let exclusive = |p: &super::Platform| p.placement == super::Placement::Exclusive;
        let whole_gpu = names(&|p| {
            let pool = &p.node_pools[p.pool_of_class(scenario, index)];
            !p.jobs_share_gpus_on(pool) && !exclusive(p)
        });
        let whole_node = names(&exclusive);
        let on = [
            (
                whole_gpu,
                "a whole GPU",
                "it does not share GPUs between jobs",
            ),
            (whole_node, "a whole node", "jobs never share nodes"),
        ];
        for (platforms, holds, why) in on {
            if !platforms.is_empty() {
                out.push(format!(
                    "\"{}\" asks for {} of a GPU: a job holds {holds} on {platforms} ({why}), the rest of it idle",
                    class.name, class.gpus_per_job
                ));
            }
        }
    }
    out
}

/// The names of `scenario`'s platforms `keep` accepts, joined with commas.
pub fn platform_names(scenario: &Scenario, keep: &dyn Fn(&super::Platform) -> bool) -> String {
    let names: Vec<&str> = scenario
        .platforms
        .iter()
        .filter(|p| p.runs_nodes() && keep(p))
        .map(|p| p.name.as_str())
        .collect();
    names.join(", ")
}

/// The notices of every job class.
pub fn all_class_notices(scenario: &Scenario) -> Vec<String> {
    (0..scenario.job_classes.len())
        .flat_map(|i| class_notices(scenario, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::GpuSharing;

    #[test]
    fn a_fraction_is_said_to_hold_a_whole_gpu_where_gpus_are_not_shared() {
        // AWS Batch on-demand (jobs share nodes), EKS spot (shares nodes) and SageMaker
        // (a job an instance).
        let mut s = crate::workbench::presets::preset("batch-vs-eks-spot")
            .unwrap()
            .scenario();
        assert!(all_class_notices(&s).is_empty());
        s.job_classes[0].gpus_per_job = 0.5;
        let shown = class_notices(&s, 0);
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert!(
            shown[0].contains(
                "0.5 of a GPU: a job holds a whole GPU on AWS Batch on-demand, EKS spot ("
            ),
            "{shown:?}"
        );
        assert!(
            shown[1].contains("a whole node on SageMaker ("),
            "{shown:?}"
        );
        // EKS time-slices: it is no longer named.
        s.platforms[1].first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
            context_switch_loss: 0.05,
        };
        let shown = class_notices(&s, 0);
        assert!(!shown.iter().any(|n| n.contains("EKS spot")), "{shown:?}");
        // Time-slicing on SageMaker is a multi-model endpoint: its training jobs still hold
        // whole instances.
        s.platforms[2].first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
            context_switch_loss: 0.05,
        };
        assert!(class_notices(&s, 0)
            .iter()
            .any(|n| n.contains("a whole node on SageMaker")));
    }
}
