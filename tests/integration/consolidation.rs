//! Kubernetes node consolidation evicting running jobs: a gang job's wall time against Daly's
//! with M = 1 ÷ (rate × nodes), the evictions against their Poisson mean, the grace period
//! that saves the work, the neutral default, and the profiles that have it.

use crate::support::{bare_platform, gang_jobs, job_walls, WallFrom};
use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::cost_category::Category;
use gpucost::model::platforms::Profile;
use gpucost::model::scenario::Scenario;

/// [`gang_jobs`] on an EKS platform of on-demand nodes consolidating at `rate` per node-hour
/// with a `grace_s` grace period.
fn consolidated(rate: f64, grace_s: f64) -> Scenario {
    let mut platform = bare_platform("eks");
    platform.profile = gpucost::model::scenario::ProfileName::Known(Profile::Eks);
    platform.preemption.consolidation_evictions_per_node_hour = rate;
    platform.preemption.grace_period_s = grace_s;
    gang_jobs(platform)
}

#[test]
fn a_gang_job_evicted_by_consolidation_takes_dalys_wall_time() {
    // 1 ÷ (rate × 4 nodes) = 15 h between evictions of a job.
    let rate = 1.0 / (15.0 * 4.0);
    let s = consolidated(rate, 0.0);
    let (simulated, se, outcomes) = job_walls(&s, WallFrom::Arrival);
    let expected = daly_wall_time_s(36_000.0, 3_600.0, 300.0, 600.0, 15.0 * 3_600.0);
    println!("consolidation: {simulated:.0} s (se {se:.0}), Daly {expected:.0} s");
    assert!(
        (simulated - expected).abs() < 3.0 * se,
        "{simulated} vs {expected}"
    );
    // Evicted compute is preemption rework; each eviction is counted.
    assert!(outcomes
        .iter()
        .all(|o| o.gpu_seconds[Category::PreemptionRework] > 0.0));
    // Evictions: Poisson with mean rate × node-hours (1-GPU nodes, billed from ready: paid
    // GPU-hours are node-hours; every node holds a job while up).
    let evicted: f64 = outcomes.iter().map(|o| o.preemptions as f64).sum();
    let node_hours: f64 = outcomes.iter().map(|o| o.paid_gpu_seconds / 3_600.0).sum();
    let mean = rate * node_hours;
    println!("evictions {evicted}, expected {mean:.1}");
    assert!(
        (evicted - mean).abs() < 3.0 * mean.sqrt(),
        "{evicted} vs {mean}"
    );
}

#[test]
fn a_grace_period_long_enough_to_checkpoint_saves_the_work() {
    let s = consolidated(1.0 / 60.0, 300.0);
    let (_, _, outcomes) = job_walls(&s, WallFrom::Arrival);
    assert!(outcomes.iter().all(|o| o.preemptions > 0));
    for o in &outcomes {
        assert_eq!(o.gpu_seconds[Category::PreemptionRework], 0.0);
    }
}

#[test]
fn no_consolidation_changes_no_bit_and_only_kubernetes_consolidates() {
    let quiet = consolidated(0.0, 30.0);
    let mut none = quiet.clone();
    none.platforms[0].preemption = Default::default();
    none.platforms[0].preemption.grace_period_s = 30.0;
    let walls = |s: &Scenario| job_walls(s, WallFrom::Arrival).0.to_bits();
    assert_eq!(walls(&quiet), walls(&none));
    let mut batch = consolidated(0.01, 0.0);
    batch.platforms[0].profile = gpucost::model::scenario::ProfileName::Known(Profile::AwsBatch);
    let err = batch.validate().unwrap_err().to_string();
    assert!(
        err.contains("consolidation_evictions_per_node_hour") && err.contains("Kubernetes"),
        "{err}"
    );
}

#[test]
fn the_timeline_names_what_took_each_node() {
    use gpucost::model::sim::{generate_jobs, simulate_platform_timeline, NodeLoss};
    // Consolidation and hardware failures on the same on-demand nodes: each lost node says
    // which, and their counts are the outcome's.
    let mut s = consolidated(1.0 / 60.0, 0.0);
    s.platforms[0].first_pool_mut().node_failures_per_node_hour = 1.0 / 60.0;
    s.horizon_days = 20.0;
    let jobs = generate_jobs(&s, 0);
    let (o, timeline) = simulate_platform_timeline(&s, 0, 0, &jobs);
    let count = |loss| {
        timeline
            .nodes
            .iter()
            .filter(|n| n.lost_to == Some(loss))
            .count() as u64
    };
    assert_eq!(count(NodeLoss::HardwareFailure), o.node_failures);
    assert!(count(NodeLoss::Consolidation) > 0);
    assert_eq!(count(NodeLoss::SpotInterruption), 0);
    assert_eq!(
        NodeLoss::Consolidation.label(),
        "consolidated away (jobs evicted)"
    );
}
