//! Closed forms: the oracles the simulation is tested against, and what the UI shows at once
//! while the Monte Carlo runs.
//!
//! - Erlang C: mean queue wait of M/M/c.
//! - Young (1974) and Daly (2006): optimal checkpoint interval, and Daly's expected wall time
//!   of a checkpointed job under exponential interruptions.
//! - A first-order monthly cost estimate per platform ([`estimate_platform`]): expected
//!   values only, no queueing, shown instantly while the simulation runs.

use crate::model::pricing::{other_monthly_costs, GpuSecondPrices, Transferred};
use crate::model::scenario::{
    FailureKind, Failures, JobClass, Overflow, Placement, Platform, Scenario, Service, DAY_S,
    HOUR_S,
};
use crate::model::serving::platform::{node_share, nodes_per_replica};
use crate::model::serving::pool::desired_replicas;
use crate::model::serving::sharing::{self, slot_of, time_sliced_shares, Slot};
use crate::model::sim::state::holds_whole_nodes;
use crate::model::HOURS_PER_MONTH;
use serde::{Deserialize, Serialize};

/// Probability that an arriving job waits in M/M/c with `servers` servers and offered load
/// `load_erlangs` = λ/μ (< servers). Uses the Erlang B recursion, stable for large c.
pub fn erlang_c_probability_of_wait(servers: u32, load_erlangs: f64) -> f64 {
    let c = f64::from(servers);
    if load_erlangs >= c {
        return 1.0;
    }
    let mut b = 1.0;
    for k in 1..=servers {
        b = load_erlangs * b / (f64::from(k) + load_erlangs * b);
    }
    c * b / (c - load_erlangs * (1.0 - b))
}

/// Mean queue wait of M/M/c, in the unit of `mean_service`: C(c, a) · S / (c − a), where
/// a = λ·S. Infinite when the load reaches the servers.
pub fn erlang_c_mean_wait(servers: u32, arrival_rate: f64, mean_service: f64) -> f64 {
    let a = arrival_rate * mean_service;
    let c = f64::from(servers);
    if a >= c {
        return f64::INFINITY;
    }
    erlang_c_probability_of_wait(servers, a) * mean_service / (c - a)
}

/// Young's optimal checkpoint interval √(2·δ·M), seconds (δ checkpoint write time, M mean time
/// between interruptions, both seconds).
pub fn young_interval_s(checkpoint_write_s: f64, mtbi_s: f64) -> f64 {
    libm::sqrt(2.0 * checkpoint_write_s * mtbi_s)
}

/// Daly's (2006) higher-order optimal checkpoint interval, seconds:
/// √(2δM)·[1 + ⅓·√(δ/2M) + ⅑·(δ/2M)] − δ for δ < 2M, else M.
pub fn daly_interval_s(checkpoint_write_s: f64, mtbi_s: f64) -> f64 {
    let d = checkpoint_write_s;
    let m = mtbi_s;
    if d >= 2.0 * m {
        return m;
    }
    let x = d / (2.0 * m);
    libm::sqrt(2.0 * d * m) * (1.0 + libm::sqrt(x) / 3.0 + x / 9.0) - d
}

/// Daly's expected wall time of a job needing `solve_s` of compute, checkpointing every
/// `interval_s` with writes of `checkpoint_write_s`, restart `restart_s`, under exponential
/// interruptions with mean `mtbi_s`: M·e^(R/M)·(e^((τ+δ)/M) − 1)·Ts/τ.
pub fn daly_wall_time_s(
    solve_s: f64,
    interval_s: f64,
    checkpoint_write_s: f64,
    restart_s: f64,
    mtbi_s: f64,
) -> f64 {
    let m = mtbi_s;
    m * libm::exp(restart_s / m)
        * (libm::exp((interval_s + checkpoint_write_s) / m) - 1.0)
        * solve_s
        / interval_s
}

/// Checkpoint advice for one job class on one spot platform.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CheckpointAdvice {
    /// The interval the scenario uses, minutes (0 = none).
    pub chosen_min: f64,
    /// Young's optimum √(2δM), minutes.
    pub young_min: f64,
    /// Daly's higher-order optimum, minutes.
    pub daly_min: f64,
    /// Daly's expected wall time of a mean job at the chosen interval, hours.
    pub wall_chosen_h: f64,
    /// Daly's expected wall time at Daly's optimum, hours.
    pub wall_optimal_h: f64,
    /// What the optimum would save per job, USD (wall-time difference × GPUs held × spot price).
    pub saving_usd_per_job: f64,
}

/// Checkpoint advice for class `class` on platform `platform`, if that platform runs spot with
/// a positive interruption rate and the class writes checkpoints in finite time.
pub fn checkpoint_advice(
    scenario: &Scenario,
    class: usize,
    platform: usize,
) -> Option<CheckpointAdvice> {
    let p = scenario.platforms.get(platform)?;
    let c = scenario.job_classes.get(class)?;
    // (None on a hosted API, which runs no jobs.)
    let pool = p.node_pools.get(p.pool_of_class(scenario, class))?;
    // The interval the platform checkpoints the class at: its own where it sets one.
    let chosen_min = p
        .checkpoint_interval_min
        .get(&c.name)
        .copied()
        .unwrap_or(c.checkpoint_interval_min);
    if pool.purchase.overflow != Overflow::Spot || pool.spot_interruptions_per_node_hour <= 0.0 {
        return None;
    }
    let gpn = f64::from(pool.gpus_per_node.max(1));
    let nodes = libm::ceil(c.gpus_per_job / gpn);
    // Everything that stops the job: its nodes' spot clocks, the reclaim waves that hit it,
    // and hardware failures.
    let mtbi_s = HOUR_S / pool.job_stops_per_hour(nodes);
    let delta = c.checkpoint_write_s.max(1.0);
    let efficiency = p.scaling_efficiency(nodes as u32);
    let solve_s = c.duration.mean_hours() * HOUR_S / pool.relative_throughput
        * (1.0 + p.storage_read_slowdown_pct / 100.0)
        / efficiency;
    let chosen_s = if chosen_min > 0.0 {
        (chosen_min * 60.0).min(solve_s)
    } else {
        solve_s
    };
    let chosen_delta = if chosen_min > 0.0 { delta } else { 0.0 };
    let daly_s = daly_interval_s(delta, mtbi_s).min(solve_s);
    let wall_chosen = daly_wall_time_s(
        solve_s,
        chosen_s,
        chosen_delta,
        c.restart_overhead_s,
        mtbi_s,
    );
    let wall_optimal = daly_wall_time_s(solve_s, daly_s, delta, c.restart_overhead_s, mtbi_s);
    let held_gpus = if nodes > 1.0 || p.placement != Placement::BinPack {
        nodes * gpn
    } else {
        c.gpus_held_on(p, pool)
    };
    // Held GPUs: a spread job, like a whole-node one, has its node to itself while nodes are
    // plentiful, so the node's time is what a shorter run saves.
    let spot_per_gpu_h = GpuSecondPrices::of(scenario, p, pool).spot * HOUR_S;
    Some(CheckpointAdvice {
        chosen_min,
        young_min: young_interval_s(delta, mtbi_s) / 60.0,
        daly_min: daly_s / 60.0,
        wall_chosen_h: wall_chosen / HOUR_S,
        wall_optimal_h: wall_optimal / HOUR_S,
        saving_usd_per_job: (wall_chosen - wall_optimal) / HOUR_S * held_gpus * spot_per_gpu_h,
    })
}

/// Share of always-on nodes interrupted at least once in a 730-hour month at `rate` per
/// node-hour: 1 − e^(−730·λ).
pub fn monthly_interruption_share(rate_per_node_hour: f64) -> f64 {
    1.0 - libm::exp(-crate::model::HOURS_PER_MONTH * rate_per_node_hour)
}

/// The first-order estimate of one platform's month.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Monthly total, USD.
    pub monthly_tco_usd: f64,
    /// GPU time bought, USD per month (compute, overheads, reserved capacity).
    pub compute_usd: f64,
    /// Fees, tools, storage, egress and people, USD per month.
    pub other_usd: f64,
    /// Useful reference-GPU-hours per month.
    pub useful_reference_gpu_hours: f64,
    /// USD per useful reference-GPU-hour; `None` when no work is offered.
    pub usd_per_useful_gpu_hour: Option<f64>,
}

/// A job's failures in expected values (first order: each attempt from the start, as if
/// nothing were checkpointed).
#[derive(Debug, Clone, Copy, PartialEq)]
struct FailureFactors {
    /// Attempts per job.
    attempts: f64,
    /// Compute run per job, in whole runs (a failed attempt runs up to its failure point).
    compute: f64,
    /// Share of jobs that finish.
    finished: f64,
}

/// Transient failures: attempt k runs if the k − 1 before it failed (probability p each), up
/// to the retry limit r: 1 + p + … + p^r attempts, each a whole run if it succeeds (1 − p) or
/// up to the failure point s if it fails (p); 1 − p^(r+1) of jobs finish. Deterministic: the
/// broken share q of jobs fails all r + 1 attempts at s; the rest run once. The failure point
/// is the class's, or half-way on average when it fails anywhere.
fn failure_factors(f: &Failures) -> FailureFactors {
    let p = f.probability.clamp(0.0, 1.0);
    let tries = f64::from(f.max_retries) + 1.0;
    let at = f.at_share.unwrap_or(0.5);
    match f.kind {
        FailureKind::Transient => {
            let attempts = if p < 1.0 {
                (1.0 - libm::pow(p, tries)) / (1.0 - p)
            } else {
                tries
            };
            FailureFactors {
                attempts,
                compute: attempts * ((1.0 - p) + p * at),
                finished: 1.0 - libm::pow(p, tries),
            }
        }
        FailureKind::Deterministic => FailureFactors {
            attempts: (1.0 - p) + p * tries,
            compute: (1.0 - p) + p * tries * at,
            finished: 1.0 - p,
        },
    }
}

/// First-order monthly cost of platform `index`: every job's expected GPU time (including
/// checkpoint writes, Daly's expected rework on spot, pulls and provisioning when nodes are not
/// kept warm, and GPUs held but unused), bought from reserved capacity first and then at the
/// overflow price, plus the other monthly costs; and each service's replicas for its mean
/// traffic. No queueing, no idle warm windows and no autoscaling lag: the simulation
/// measures those.
pub fn estimate_platform(scenario: &Scenario, index: usize) -> Estimate {
    if scenario.platforms[index].hosted_api.is_some() {
        return crate::model::hosted_api::estimate::estimate(scenario, index);
    }
    // A pipeline's stages are job classes here too (their order between them is not
    // estimated: it delays, and the simulation measures it).
    let scenario = &*scenario.simulated_on(index);
    let p = &scenario.platforms[index];
    let services_at = p.services_pool(scenario);
    let (mut compute_usd, mut useful_ref_h) = (0.0, 0.0);
    let mut moved = Transferred::default();
    for pool in 0..p.pools().len() {
        let view = if p.pools().len() == 1 {
            std::borrow::Cow::Borrowed(p)
        } else {
            std::borrow::Cow::Owned(p.pool_view(pool))
        };
        let classes: Vec<&JobClass> = (0..scenario.job_classes.len())
            .filter(|&c| p.pool_of_class(scenario, c) == pool)
            .map(|c| &scenario.job_classes[c])
            .collect();
        let part = estimate_pool(scenario, &view, &classes, pool == services_at);
        compute_usd += part.0;
        useful_ref_h += part.1;
        moved.egress_gb += part.2.egress_gb;
        moved.data_read_gb += part.2.data_read_gb;
        moved.staged_gb += part.2.staged_gb;
    }
    let other_usd = other_monthly_costs(scenario, p, moved, 1.0).total();
    let total = compute_usd + other_usd;
    Estimate {
        monthly_tco_usd: total,
        compute_usd,
        other_usd,
        useful_reference_gpu_hours: useful_ref_h,
        usd_per_useful_gpu_hour: (useful_ref_h > 0.0).then(|| total / useful_ref_h),
    }
}

/// The estimate's GPU time on one pool, `p` being the platform as that pool alone
/// ([`crate::model::scenario::Platform::pool_view`]): of `classes`, and of the services when
/// `with_services`. (compute USD per month, useful reference-GPU-hours, egress GB).
fn estimate_pool(
    scenario: &Scenario,
    p: &Platform,
    classes: &[&JobClass],
    with_services: bool,
) -> (f64, f64, Transferred) {
    let pool = p.first_pool();
    let gpn = f64::from(pool.gpus_per_node.max(1));
    let prices = GpuSecondPrices::of(scenario, p, pool);
    let days_per_month = HOURS_PER_MONTH / 24.0;
    let slowdown = 1.0 + p.storage_read_slowdown_pct / 100.0;
    let mut paid_gpu_h = 0.0;
    let mut useful_ref_h = 0.0;
    let mut moved = Transferred::default();
    let reads_pay_transfer = p.data_read_usd_per_gb(scenario).is_some();
    // Data staging: the pool's reads arrive at `read_load` GB/s on average against the
    // storage's throughput; a read shares it as processor sharing does (its time alone ÷
    // (1 − the storage's load)), and no node reads faster than its limit.
    let staging = &p.staging;
    let storage_gb_per_s = staging.throughput_gb_per_s();
    let read_load: f64 = if staging.stages() {
        classes
            .iter()
            .map(|c| {
                c.arrivals.jobs_per_day() / DAY_S
                    * c.data_read_gb_per_attempt
                    * failure_factors(&c.failures).attempts
            })
            .sum()
    } else {
        0.0
    };
    let storage_busy = (read_load / storage_gb_per_s).min(0.95);
    for class in classes {
        let jobs = class.arrivals.jobs_per_day() * days_per_month;
        let gpus = class.gpus_per_job;
        let nodes = libm::ceil(gpus / gpn);
        let efficiency = p.scaling_efficiency(nodes as u32);
        // As the simulation holds them: whole nodes for multi-node and exclusive jobs.
        let held = if holds_whole_nodes(nodes as u32, p.placement) {
            nodes * gpn
        } else {
            class.gpus_held_on(p, pool)
        };
        let compute_s =
            class.duration.mean_hours() * HOUR_S / pool.relative_throughput * slowdown / efficiency;
        let tau = class.checkpoint_interval_min * 60.0;
        let delta = if tau > 0.0 {
            class.checkpoint_write_s
        } else {
            0.0
        };
        // What stops the job: spot interruptions where the pool buys spot (its nodes' own
        // and the reclaim waves that hit it), hardware failures on any node, and node
        // consolidation on pools with no reservation (the estimate does not split a job's
        // time between reserved and other nodes).
        let consolidation = if pool.purchase.reserved_share == 0.0 {
            p.preemption.consolidation_evictions_per_node_hour * nodes
        } else {
            0.0
        };
        let stop_rate = pool.job_stops_per_hour(nodes) + consolidation;
        let wall_s = if stop_rate > 0.0 {
            let mtbi = HOUR_S / stop_rate;
            let interval = if tau > 0.0 {
                tau.min(compute_s)
            } else {
                compute_s
            };
            daly_wall_time_s(compute_s, interval, delta, class.restart_overhead_s, mtbi)
        } else if tau > 0.0 {
            compute_s * (1.0 + delta / tau)
        } else {
            compute_s
        };
        let gap_s = DAY_S / class.arrivals.jobs_per_day().max(1e-9);
        let warm = pool.warm_pool_window_s >= gap_s;
        let pull_s = if warm && pool.image_cache {
            0.0
        } else {
            class.image_gb / p.image_pull_gb_per_s
        };
        let provisioning_s = if warm {
            0.0
        } else {
            crate::model::rng::lognormal_mean(p.provisioning_median_s, p.provisioning_p90_s)
        };
        let f = failure_factors(&class.failures);
        let stage_s = if staging.stages() && class.data_read_gb_per_attempt > 0.0 {
            let read = class.data_read_gb_per_attempt;
            let readers = if holds_whole_nodes(nodes as u32, p.placement) {
                nodes
            } else {
                1.0
            };
            (read / readers / staging.node_read_gb_per_s)
                .max(read / storage_gb_per_s / (1.0 - storage_busy))
        } else {
            0.0
        };
        let per_job_gpu_s = (wall_s * f.compute + (pull_s + stage_s) * f.attempts) * held
            + provisioning_s * f.attempts * nodes * gpn;
        paid_gpu_h += jobs * per_job_gpu_s / HOUR_S;
        useful_ref_h += jobs * f.finished * class.duration.mean_hours() * gpus;
        // Data reads: transfer where the platform and the data have regions, else their
        // billed share as egress.
        if staging.stages() {
            moved.staged_gb += jobs * class.data_read_gb_per_attempt * f.attempts;
        }
        if reads_pay_transfer {
            moved.egress_gb += jobs * class.egress_gb_per_job * f.finished;
            moved.data_read_gb += jobs * class.data_read_gb_per_attempt * f.attempts;
        } else {
            moved.egress_gb += jobs
                * (class.egress_gb_per_job * f.finished
                    + class.data_read_gb_per_attempt * class.data_read_billed_share * f.attempts);
        }
    }
    let reserved_nodes = pool.reserved_nodes(scenario.reference_gpus);
    let reserved_gpu_h = f64::from(reserved_nodes) * gpn * HOURS_PER_MONTH;
    let reserved_price = prices.reserved * HOUR_S;
    let overflow_price = HOUR_S
        * match pool.purchase.overflow {
            Overflow::Spot => prices.spot,
            Overflow::OnDemand | Overflow::None => prices.on_demand,
        };
    // The most GPU-hours the platform can run: its reservation without overflow, else up to
    // its node limit (reserved nodes are always there). Demand beyond it is never run, so
    // neither paid for nor useful: the work done, and the egress with it, shrink in proportion.
    let capacity_nodes = match pool.purchase.overflow {
        Overflow::None => reserved_nodes,
        Overflow::OnDemand | Overflow::Spot => reserved_nodes.max(pool.max_nodes),
    };
    let capacity_gpu_h = f64::from(capacity_nodes) * gpn * HOURS_PER_MONTH;
    if paid_gpu_h > capacity_gpu_h {
        let served = capacity_gpu_h / paid_gpu_h;
        useful_ref_h *= served;
        moved.egress_gb *= served;
        moved.data_read_gb *= served;
        moved.staged_gb *= served;
        paid_gpu_h = capacity_gpu_h;
    }
    let overflow_gpu_h = (paid_gpu_h - reserved_gpu_h).max(0.0);
    // Services: the replicas their mean traffic asks for (at least the floor), on their own
    // GPUs or slots at the on-demand price, busy for the share of the time the traffic needs;
    // shared GPUs' slots no replica holds are paid too.
    let mut serving_usd = 0.0;
    let services: &[Service] = if with_services {
        &scenario.services
    } else {
        &[]
    };
    let shares = time_sliced_shares(services, p);
    let packed = crate::model::serving::platform::shares_nodes(p);
    // Whole GPUs the replicas take on nodes (their node share) and hold.
    let (mut whole_gpus, mut whole_held) = (0.0, 0.0);
    let mut mig_replicas: Vec<f64> = Vec::new();
    let (mut sliced_milli, mut held_milli) = (0.0, 0.0);
    let gpu_hour_usd = HOURS_PER_MONTH * prices.on_demand * HOUR_S;
    for (i, service) in services.iter().enumerate() {
        let spec = crate::model::serving::platform::pool_spec(service, p, shares[i]);
        let mean_rps = sharing::mean_rps(service);
        // The replicas the autoscaler keeps hour by hour through the week (none in hours
        // without traffic where the service may scale to zero), spikes spread over them.
        let traffic = service.traffic.traffic();
        let spiked = if traffic.mean_rps > 0.0 {
            mean_rps / traffic.mean_rps
        } else {
            1.0
        };
        let week = traffic.week_rps();
        let replicas = week
            .iter()
            .map(|&rps| f64::from(desired_replicas(&spec, rps * spiked)))
            .sum::<f64>()
            / week.len() as f64;
        let slot = slot_of(service, p);
        // A replica pays its slot where replicas share nodes, else its own nodes whole.
        let paid_gpus = if packed {
            slot.gpus()
        } else {
            f64::from(nodes_per_replica(slot, p) * pool.gpus_per_node)
        };
        serving_usd += replicas * paid_gpus * gpu_hour_usd;
        // Beyond what the most replicas serve, requests queue or drop: no useful time.
        let served_rps = mean_rps.min(f64::from(spec.max_replicas) * spec.capacity_rps);
        useful_ref_h += match slot {
            Slot::Whole { gpus } => {
                served_rps / spec.capacity_rps.max(1e-9)
                    * f64::from(gpus)
                    * HOURS_PER_MONTH
                    * pool.relative_throughput
            }
            _ => served_rps / service.capacity_rps.max(1e-9) * HOURS_PER_MONTH,
        };
        match slot {
            _ if !packed => {}
            Slot::Whole { gpus } => {
                whole_gpus += replicas * f64::from(node_share(gpus, pool.gpus_per_node));
                whole_held += replicas * f64::from(gpus);
            }
            Slot::Mig {
                profile, per_gpu, ..
            } => {
                if mig_replicas.len() <= profile {
                    mig_replicas.resize(profile + 1, 0.0);
                }
                mig_replicas[profile] += replicas / f64::from(per_gpu);
                held_milli += replicas * slot.gpus() * 1e3;
            }
            Slot::TimeSliced { .. } => {
                sliced_milli += replicas * slot.gpus() * 1e3;
                held_milli += replicas * slot.gpus() * 1e3;
            }
        }
    }
    let occupied_gpus = mig_replicas
        .iter()
        .map(|g| (g - 1e-9).ceil())
        .fold((sliced_milli / 1e3 - 1e-9).ceil().max(0.0), f64::max);
    serving_usd += (occupied_gpus - held_milli / 1e3).max(0.0) * gpu_hour_usd;
    // Replicas sharing nodes of several GPUs pay the nodes they fill, whole.
    if packed && pool.gpus_per_node > 1 {
        let occupied = occupied_gpus + whole_gpus;
        let gpn = f64::from(pool.gpus_per_node);
        let nodes = (occupied / gpn - 1e-9).ceil().max(0.0);
        // The nodes' GPUs no replica takes, and the part of a node share a replica leaves.
        serving_usd +=
            ((nodes * gpn - occupied).max(0.0) + (whole_gpus - whole_held)) * gpu_hour_usd;
    }
    let compute_usd =
        reserved_gpu_h * reserved_price + overflow_gpu_h * overflow_price + serving_usd;
    (compute_usd, useful_ref_h, moved)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimate holds GPUs as the simulation does: a 1-GPU job holds its GPU whether
    /// nodes are packed or spread, and a whole node only where jobs never share one.
    #[test]
    fn the_estimate_holds_whole_nodes_only_where_the_simulation_does() {
        let mut s = Scenario::default();
        let c = &mut s.job_classes[0];
        c.gpus_per_job = 1.0;
        c.arrivals = crate::model::scenario::Arrivals::Steady { per_day: 24.0 };
        c.duration = crate::model::scenario::Duration::Fixed { hours: 2.0 };
        c.checkpoint_interval_min = 0.0;
        c.egress_gb_per_job = 0.0;
        let p = &mut s.platforms[0];
        p.storage_read_slowdown_pct = 0.0;
        p.first_pool_mut().warm_pool_window_s = 86_400.0;
        let compute = |placement: Placement| {
            let mut v = s.clone();
            v.platforms[0].placement = placement;
            estimate_platform(&v, 0).compute_usd
        };
        // 24 jobs a day × 30.4 days × 2 h × 1 GPU at the on-demand price per GPU-hour.
        let p = &s.platforms[0];
        let per_gpu_h =
            p.first_pool().on_demand_usd_per_node_hour / f64::from(p.first_pool().gpus_per_node);
        let want = 24.0 * (730.0 / 24.0) * 2.0 * per_gpu_h;
        for placement in [Placement::BinPack, Placement::Spread] {
            let got = compute(placement);
            assert!(
                (got - want).abs() < 1e-9 * want,
                "{placement:?}: {got} vs {want}"
            );
        }
        let exclusive = compute(Placement::Exclusive);
        assert!(
            (exclusive - 8.0 * want).abs() < 1e-9 * want,
            "{exclusive} vs {}",
            8.0 * want
        );
    }

    #[test]
    fn erlang_c_matches_textbook_values() {
        // c = 2, a = 1: C = 1/3; Wq = C·S/(c − a) = S/3.
        assert!((erlang_c_probability_of_wait(2, 1.0) - 1.0 / 3.0).abs() < 1e-12);
        assert!((erlang_c_mean_wait(2, 1.0, 1.0) - 1.0 / 3.0).abs() < 1e-12);
        // c = 1 is M/M/1: Wq = ρ/(μ − λ) = 0.8 / 0.2 = 4 for λ = 0.8, μ = 1.
        assert!((erlang_c_mean_wait(1, 0.8, 1.0) - 4.0).abs() < 1e-12);
        assert!(erlang_c_mean_wait(4, 4.0, 1.0).is_infinite());
    }

    #[test]
    fn checkpoint_intervals() {
        // δ = 60 s, M = 10 h: Young √(2·60·36000) = 2078.5 s.
        assert!((young_interval_s(60.0, 36_000.0) - 2_078.46).abs() < 0.01);
        let daly = daly_interval_s(60.0, 36_000.0);
        assert!(daly > 2_000.0 && daly < 2_100.0, "{daly}");
        // With no interruptions in sight Daly's wall time tends to Ts·(τ+δ)/τ.
        let w = daly_wall_time_s(3_600.0, 600.0, 60.0, 0.0, 1e12);
        assert!((w - 3_960.0).abs() < 0.01, "{w}");
    }

    #[test]
    fn estimate_of_an_always_busy_reserved_cluster_is_its_reservation() {
        // A reserved cluster whose jobs fit inside it costs its reservation plus the rest.
        let mut s = crate::model::fixtures::reserved_base_and_spot();
        s.platforms[0].first_pool_mut().purchase.reserved_share = 10.0;
        s.platforms[0].first_pool_mut().max_nodes = 64;
        let e = estimate_platform(&s, 0);
        let p = &s.platforms[0];
        let nodes = f64::from(p.first_pool().reserved_nodes(s.reference_gpus));
        let reservation = nodes * p.first_pool().on_demand_usd_per_node_hour * 0.63 * 730.0;
        assert!((e.compute_usd - reservation).abs() < 1e-6 * reservation);
    }

    /// Demand beyond what a platform can run is left out of its estimate: without overflow
    /// it pays its reservation alone, and does the share of the work that fits in it.
    #[test]
    fn estimate_leaves_out_the_demand_beyond_capacity() {
        let mut s = crate::model::fixtures::reserved_base_and_spot();
        s.platforms[0].first_pool_mut().purchase.reserved_share = 0.25;
        s.platforms[0].first_pool_mut().purchase.overflow = Overflow::None;
        let unlimited = {
            let mut u = s.clone();
            u.platforms[0].first_pool_mut().purchase.overflow = Overflow::OnDemand;
            u.platforms[0].first_pool_mut().max_nodes = 10_000;
            estimate_platform(&u, 0)
        };
        let e = estimate_platform(&s, 0);
        let p = &s.platforms[0];
        let nodes = f64::from(p.first_pool().reserved_nodes(s.reference_gpus));
        let gpn = f64::from(p.first_pool().gpus_per_node);
        let reservation = nodes
            * p.first_pool().on_demand_usd_per_node_hour
            * (1.0 - p.first_pool().purchase.reserved_discount_pct / 100.0)
            * 730.0;
        // The scenario's demand is more than a quarter of the reference cluster.
        assert!(unlimited.compute_usd > reservation * 1.5, "{unlimited:?}");
        assert!(
            (e.compute_usd - reservation).abs() < 1e-6 * reservation,
            "{e:?}"
        );
        // The work done is the capacity's share of the demand's paid GPU-hours.
        let paid_unlimited = {
            let on_demand = p.first_pool().on_demand_usd_per_node_hour / gpn;
            let reserved_rate =
                on_demand * (1.0 - p.first_pool().purchase.reserved_discount_pct / 100.0);
            nodes * gpn * 730.0
                + (unlimited.compute_usd - nodes * gpn * 730.0 * reserved_rate) / on_demand
        };
        let share = nodes * gpn * 730.0 / paid_unlimited;
        let want = unlimited.useful_reference_gpu_hours * share;
        assert!(
            (e.useful_reference_gpu_hours - want).abs() < 1e-6 * want,
            "{} vs {want}",
            e.useful_reference_gpu_hours
        );
    }

    #[test]
    fn checkpoint_advice_prefers_dalys_interval() {
        let mut s = crate::model::fixtures::nightly_spot_retrains();
        s.job_classes[0].checkpoint_interval_min = 240.0;
        let a = checkpoint_advice(&s, 0, 0).expect("platform 0 runs spot");
        // δ = 300 s, M = 1/0.02 h = 50 h: Young √(2·300·180000) = 10,392 s = 173.2 min.
        assert!((a.young_min - 173.2).abs() < 0.1, "{a:?}");
        assert!(a.wall_optimal_h <= a.wall_chosen_h && a.saving_usd_per_job >= 0.0);
        assert!(
            checkpoint_advice(&s, 0, 1).is_none(),
            "on-demand gets no advice"
        );
    }

    /// The advice prices the time it saves as the platform pays for spot: after its cloud's
    /// discount and with its service premium; a multi-node job's run includes its scaling loss.
    #[test]
    fn checkpoint_advice_prices_the_saving_as_the_platform_pays() {
        let mut s = crate::model::fixtures::nightly_spot_retrains();
        s.job_classes[0].checkpoint_interval_min = 240.0;
        let list = checkpoint_advice(&s, 0, 0).unwrap();
        s.discounts.set_pct(crate::model::cloud::Cloud::Aws, 20.0);
        s.platforms[0].first_pool_mut().service_premium_pct = 10.0;
        let paid = checkpoint_advice(&s, 0, 0).unwrap();
        let want = list.saving_usd_per_job * 0.8 * 1.1;
        assert!(
            (paid.saving_usd_per_job - want).abs() < 1e-9 * want,
            "{paid:?}"
        );
        // Two nodes at 80 % efficiency: the same work takes 1/0.8 as long to run.
        s.job_classes[0].gpus_per_job = f64::from(2 * s.platforms[0].first_pool().gpus_per_node);
        s.platforms[0].multi_node_efficiency = 0.8;
        let wide = checkpoint_advice(&s, 0, 0).unwrap();
        s.platforms[0].multi_node_efficiency = 1.0;
        let ideal = checkpoint_advice(&s, 0, 0).unwrap();
        assert!(
            wide.wall_optimal_h > ideal.wall_optimal_h * 1.2,
            "{wide:?} {ideal:?}"
        );
    }

    #[test]
    fn failure_factors_in_closed_form() {
        let transient = Failures {
            probability: 0.5,
            kind: FailureKind::Transient,
            max_retries: 1,
            at_share: Some(0.5),
            ..Default::default()
        };
        // 1 + 0.5 attempts; each 0.5 × 1 + 0.5 × 0.5 of a run; 1 − 0.25 finish.
        let t = failure_factors(&transient);
        assert_eq!((t.attempts, t.compute, t.finished), (1.5, 1.125, 0.75));
        let broken = Failures {
            probability: 0.4,
            kind: FailureKind::Deterministic,
            max_retries: 2,
            at_share: None,
            ..Default::default()
        };
        // 0.6 run once; 0.4 fail three times half-way (anywhere: half-way on average).
        let d = failure_factors(&broken);
        assert!(
            (d.attempts - 1.8).abs() < 1e-12 && (d.compute - 1.2).abs() < 1e-12,
            "{d:?}"
        );
        assert!((d.finished - 0.6).abs() < 1e-12);
        let none = failure_factors(&Failures::default());
        assert_eq!(
            (none.attempts, none.compute, none.finished),
            (1.0, 1.0, 1.0)
        );
    }

    /// The estimate runs failing attempts up to their failure point and counts only the work
    /// of the jobs that finish: broken jobs failing at the start cost (almost) nothing.
    #[test]
    fn estimate_counts_failed_attempts_and_unfinished_work() {
        let mut s = crate::model::fixtures::broken_dependencies();
        let class = &mut s.job_classes[0];
        class.image_gb = 0.0;
        class.checkpoint_interval_min = 0.0;
        class.failures.probability = 0.0;
        for p in &mut s.platforms {
            p.provisioning_median_s = 0.0;
            p.provisioning_p90_s = 0.0;
            p.first_pool_mut().max_nodes = 10_000;
        }
        let sound = estimate_platform(&s, 0);
        s.job_classes[0].failures.probability = 0.4;
        s.job_classes[0].failures.at_share = Some(0.0);
        let broken = estimate_platform(&s, 0);
        let reserved = {
            let p = &s.platforms[0];
            f64::from(p.first_pool().reserved_nodes(s.reference_gpus))
                * p.first_pool().on_demand_usd_per_node_hour
                * (1.0 - p.first_pool().purchase.reserved_discount_pct / 100.0)
                * 730.0
        };
        assert_eq!(
            reserved, 0.0,
            "no reservation, so compute scales with the work"
        );
        let ratio = broken.compute_usd / sound.compute_usd;
        assert!((ratio - 0.6).abs() < 1e-9, "{ratio}");
        let useful = broken.useful_reference_gpu_hours / sound.useful_reference_gpu_hours;
        assert!((useful - 0.6).abs() < 1e-9, "{useful}");
    }

    #[test]
    fn monthly_share_matches_the_advisor_band_edges() {
        // 5 %/month ⇔ λ = −ln(0.95)/730 = 7.027e-5 per node-hour.
        let share = monthly_interruption_share(-libm::log(0.95) / 730.0);
        assert!((share - 0.05).abs() < 1e-12);
    }
}
