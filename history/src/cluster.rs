//! The cluster the jobs ran on, as a platform beside the others: a reserved static cluster of
//! the size the user states, of the GPUs the history recorded. Its simulated queue wait set
//! beside the observed one is a calibration check the user can read: on the jobs' own
//! cluster, the model should wait about as long as the jobs did.

use super::{HistoryError, HistoryFit, WaitSummary};
use gpucost_model::model::catalog::{catalog, InstanceType};
use gpucost_model::model::monte_carlo::PlatformResult;
use gpucost_model::model::scenario::{limits, Profile, Scenario};

/// The name of the platform the cluster becomes.
pub const RECORDED_CLUSTER: &str = "Recorded cluster";

/// The instance the cluster is made of: the catalog's largest node of at most 8 GPUs of
/// `gpu_model`, the first in the catalog among equals.
fn node_of(gpu_model: &str) -> Option<&'static InstanceType> {
    catalog()
        .iter()
        .filter(|i| i.gpu_model == gpu_model && i.gpus_per_node <= 8)
        .fold(None, |best: Option<&InstanceType>, i| match best {
            Some(b) if b.gpus_per_node >= i.gpus_per_node => Some(b),
            _ => Some(i),
        })
}

/// Adds (or replaces) the platform [`RECORDED_CLUSTER`]: `gpus` GPUs of the history's most
/// common recorded GPU model in the catalog (else the scenario's reference GPU) as reserved
/// nodes, no autoscaling and no provisioning, the run times as recorded (multi-node efficiency
/// 1 and no storage slowdown: the recorded times already include both). The scenario's
/// reference GPUs become `gpus`, the cluster the team has. A note in `fit` says all this.
pub fn add_recorded_cluster(
    scenario: &mut Scenario,
    fit: &mut HistoryFit,
    gpus: u32,
) -> Result<(), HistoryError> {
    let largest = fit
        .classes
        .iter()
        .map(|c| c.whole_gpus())
        .max()
        .unwrap_or(1);
    if gpus < largest {
        return Err(HistoryError::ClusterTooSmall { gpus, largest });
    }
    let recorded = fit
        .gpu_models
        .iter()
        .find_map(|(model, _)| node_of(model).map(|n| (model.as_str(), n)));
    let (model, node) = match recorded {
        Some(found) => found,
        None => match node_of(&scenario.reference_gpu) {
            Some(n) => (scenario.reference_gpu.as_str(), n),
            None => {
                return Err(HistoryError::ClusterGpuUnknown {
                    gpu: scenario.reference_gpu.clone(),
                })
            }
        },
    };
    let nodes = gpus.div_ceil(node.gpus_per_node);
    if nodes > limits::MAX_NODES {
        return Err(HistoryError::ClusterTooLarge { gpus, nodes });
    }
    let mut platform =
        Profile::ReservedCluster.platform_on(RECORDED_CLUSTER, node, &scenario.reference_gpu);
    platform.first_pool_mut().max_nodes = nodes;
    platform.multi_node_efficiency = 1.0;
    platform.storage_read_slowdown_pct = 0.0;
    let model = model.to_string();
    scenario.platforms.retain(|p| p.name != RECORDED_CLUSTER);
    if scenario.platforms.len() >= limits::PLATFORMS_MAX {
        return Err(HistoryError::NoRoomForCluster {
            platforms: scenario.platforms.len(),
        });
    }
    scenario.platforms.push(platform);
    scenario.reference_gpus = gpus;
    fit.notes.push(format!(
        "{RECORDED_CLUSTER}: {gpus} GPUs as {nodes} reserved nodes of {} × {model} ({}), always \
         on, no autoscaling or provisioning; run times as recorded (multi-node efficiency 1, no \
         storage slowdown). The scenario's reference cluster is now {gpus} GPUs.",
        node.gpus_per_node, node.name
    ));
    Ok(())
}

/// The recorded cluster's simulated queue wait beside the observed one, as a sentence; `None`
/// when either is missing.
pub fn queue_wait_check(
    observed: Option<&WaitSummary>,
    simulated: &PlatformResult,
) -> Option<String> {
    let observed = observed?;
    Some(format!(
        "Queue wait, observed / simulated on the {RECORDED_CLUSTER}: mean {:.1} / {:.1} min, \
         p50 {:.1} / {:.1} min, p95 {:.1} / {:.1} min (simulated: the mean over replications; \
         a job not started by the horizon counts its wait so far).",
        observed.mean_min,
        simulated.queue_wait_mean_min().mean,
        observed.p50_min,
        simulated.queue_wait_p50_min().mean,
        observed.p95_min,
        simulated.queue_wait_p95_min().mean,
    ))
}
