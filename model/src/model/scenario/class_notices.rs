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
        let whole: Vec<&str> = scenario
            .platforms
            .iter()
            .filter(|p| p.gpu_sharing.is_none() || p.placement == super::Placement::Exclusive)
            .map(|p| p.name.as_str())
            .collect();
        if !whole.is_empty() {
            out.push(format!(
                "\"{}\" asks for {} of a GPU: a job holds a whole GPU on {} (GPUs not shared, or jobs never share nodes), the rest of it idle",
                class.name,
                class.gpus_per_job,
                whole.join(", ")
            ));
        }
    }
    out
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
        let mut s = Scenario::default();
        assert!(all_class_notices(&s).is_empty());
        s.job_classes[0].gpus_per_job = 0.5;
        let shown = class_notices(&s, 0);
        assert_eq!(shown.len(), 1, "{shown:?}");
        assert!(shown[0].contains("0.5 of a GPU"), "{shown:?}");
        for p in &mut s.platforms {
            p.gpu_sharing = GpuSharing::TimeSlicing {
                context_switch_loss: 0.05,
            };
            p.placement = crate::model::scenario::Placement::BinPack;
        }
        assert!(class_notices(&s, 0).is_empty());
    }
}
