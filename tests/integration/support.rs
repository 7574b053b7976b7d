//! Scenario builders for tests: platforms and job classes with every overhead switched off,
//! so each test turns on exactly the mechanism it checks.

use gpucost::model::cost_category::Category;
use gpucost::model::scenario::{
    Arrivals, Billing, Duration, Failures, JobClass, NodePool, Overflow, Placement, Platform,
    Purchase, Scenario,
};

/// A platform of one pool of 1-GPU nodes at $10 per node-hour with no overheads, fees or
/// people.
pub fn bare_platform(name: &str) -> Platform {
    Platform {
        name: name.to_string(),
        node_pools: vec![bare_pool("default")],
        fee_usd_per_cluster_hour: 0.0,
        tooling_usd_per_month: 0.0,
        spot_notice_s: 0.0,
        provisioning_median_s: 0.0,
        provisioning_p90_s: 0.0,
        capacity_wait_mean_s: 0.0,
        image_pull_gb_per_s: 1.0,
        billing: Billing {
            granularity_s: 1,
            minimum_s: 0,
        },
        placement: Placement::BinPack,
        gang_scheduling: true,
        storage_read_slowdown_pct: 0.0,
        multi_node_efficiency: 1.0,
        egress_usd_per_gb: 0.0,
        egress_free_gb_per_month: 0.0,
        storage_gb: 0.0,
        storage_usd_per_gb_month: 0.0,
        ops_fte: 0.0,
        ..Platform::default()
    }
}

/// A pool named `name` of 1-GPU A100 (80 GB) nodes at $10 per node-hour on demand ($3
/// spot), no reservation, no interruptions or failures, images cached, no warm window, 1,000 nodes.
pub fn bare_pool(name: &str) -> NodePool {
    NodePool {
        name: name.to_string(),
        instance_type: "bare".into(),
        gpus_per_node: 1,
        gpu_model: "A100".into(),
        gpu_memory_gb: 80.0,
        relative_throughput: 1.0,
        on_demand_usd_per_node_hour: 10.0,
        spot_usd_per_node_hour: 3.0,
        service_premium_pct: 0.0,
        purchase: Purchase {
            reserved_share: 0.0,
            reserved_discount_pct: 0.0,
            overflow: Overflow::OnDemand,
            ..Purchase::default()
        },
        spot_interruptions_per_node_hour: 0.0,
        spot_reclaims: Default::default(),
        node_failures_per_node_hour: 0.0,
        image_cache: true,
        warm_pool_window_s: 0.0,
        max_nodes: 1_000,
        gpu_sharing: Default::default(),
    }
}

/// `platform` with its first pool changed by `edit`.
pub fn with_pool(mut platform: Platform, edit: impl FnOnce(&mut NodePool)) -> Platform {
    edit(platform.first_pool_mut());
    platform
}

/// 1-GPU jobs with no image, data, checkpoints or failures.
pub fn bare_class(arrivals: Arrivals, duration: Duration) -> JobClass {
    JobClass {
        name: "jobs".into(),
        arrivals,
        duration,
        gpus_per_job: 1.0,
        gpu_memory_gb: 0.0,
        failures: Failures {
            probability: 0.0,
            ..Failures::default()
        },
        data_read_gb_per_attempt: 0.0,
        data_read_billed_share: 0.0,
        egress_gb_per_job: 0.0,
        image_gb: 0.0,
        checkpoint_interval_min: 0.0,
        checkpoint_write_s: 0.0,
        restart_overhead_s: 0.0,
        team: String::new(),
        people_blocked_per_job: 1.0,
        after: Vec::new(),
    }
}

/// A scenario of these classes and platforms.
pub fn scenario(
    horizon_days: f64,
    replications: u32,
    classes: Vec<JobClass>,
    platforms: Vec<Platform>,
) -> Scenario {
    Scenario {
        horizon_days,
        replications,
        seed: 42,
        reference_gpus: 1,
        job_classes: classes,
        platforms,
        ..Scenario::default()
    }
}

/// An M/M/c queue as a scenario: a static cluster of `nodes` reserved nodes of
/// `gpus_per_node` GPUs (c = their GPUs, no overflow, no overheads), Poisson arrivals of 1-GPU
/// jobs with exponential 1-hour durations at `load` (ρ = λ / c), over `horizon_days`.
pub fn mmc_scenario(
    nodes: u32,
    gpus_per_node: u32,
    load: f64,
    horizon_days: f64,
    replications: u32,
) -> Scenario {
    let servers = nodes * gpus_per_node;
    let mut platform = bare_platform("static");
    let pool = platform.first_pool_mut();
    pool.gpus_per_node = gpus_per_node;
    pool.purchase.reserved_share = 1.0;
    pool.purchase.overflow = Overflow::None;
    pool.max_nodes = nodes;
    let per_day = load * f64::from(servers) * 24.0;
    let mut s = scenario(
        horizon_days,
        replications,
        vec![bare_class(
            Arrivals::Poisson { per_day },
            Duration::Exponential { mean_hours: 1.0 },
        )],
        vec![platform],
    );
    s.reference_gpus = servers;
    s
}

/// The GPU categories of `o` add up to its paid GPU time, none is negative, and the money
/// adds up to its TCO.
pub fn adds_up(o: &gpucost::model::sim::outcome::PlatformOutcome) {
    let gpu: f64 = Category::ALL
        .into_iter()
        .filter(|c| c.is_gpu_time())
        .map(|c| o.gpu_seconds[c])
        .sum();
    assert!(
        (gpu - o.paid_gpu_seconds).abs() <= 1e-6 * o.paid_gpu_seconds.max(1.0),
        "{gpu} vs {}",
        o.paid_gpu_seconds
    );
    assert!((o.breakdown_usd.total() - o.monthly_tco_usd).abs() < 1e-6);
    for c in Category::ALL {
        assert!(o.gpu_seconds[c] >= -1e-6, "{c:?} {}", o.gpu_seconds[c]);
    }
}

/// Where a job's wall time starts, for [`job_walls`].
#[derive(Clone, Copy)]
pub enum WallFrom {
    /// Its arrival (queue wait included).
    Arrival,
    /// Its first compute (Daly's wall time: no wait before the work starts).
    FirstCompute,
}

/// The mean wall time, to its finish, of the jobs of platform 0 that arrived in the first
/// 160 days, its standard error, and each replication's outcome.
pub fn job_walls(
    s: &Scenario,
    from: WallFrom,
) -> (f64, f64, Vec<gpucost::model::sim::PlatformOutcome>) {
    use gpucost::model::sim::{generate_jobs, simulate_platform};
    use gpucost::model::stats::{mean, standard_error};
    let mut walls = Vec::new();
    let mut outcomes = Vec::new();
    for r in 0..u64::from(s.replications) {
        let jobs = generate_jobs(s, r);
        let (outcome, records) = simulate_platform(s, 0, r, &jobs, true);
        for j in records
            .unwrap()
            .iter()
            .filter(|j| j.arrival_s <= 160 * 86_400)
        {
            let finished = j.finished_s.expect("job finished within the horizon");
            let start = match from {
                WallFrom::Arrival => j.arrival_s,
                WallFrom::FirstCompute => j.first_compute_s.expect("computed"),
            };
            walls.push((finished - start) as f64);
        }
        outcomes.push(outcome);
    }
    (mean(&walls), standard_error(&walls), outcomes)
}

/// 4-node gang jobs (1-GPU nodes) of 10 h, checkpointed every hour (300 s writes, 600 s
/// restarts), six a day, on `platform` with no notice, provisioning or pull.
pub fn gang_jobs(platform: Platform) -> Scenario {
    let mut class = bare_class(
        Arrivals::Steady { per_day: 6.0 },
        Duration::Fixed { hours: 10.0 },
    );
    class.gpus_per_job = 4.0;
    class.checkpoint_interval_min = 60.0;
    class.checkpoint_write_s = 300.0;
    class.restart_overhead_s = 600.0;
    scenario(200.0, 4, vec![class], vec![platform])
}

/// 4-hour jobs, 24 a day, checkpointing every 30 min (60 s writes, 300 s restarts): the
/// workload of [`daly_break_even_rate`].
pub fn checkpointed_class() -> JobClass {
    let mut class = bare_class(
        Arrivals::Poisson { per_day: 24.0 },
        Duration::Fixed { hours: 4.0 },
    );
    class.checkpoint_interval_min = 30.0;
    class.checkpoint_write_s = 60.0;
    class.restart_overhead_s = 300.0;
    class
}

/// The spot interruption rate (per node-hour) at which spot at `price_ratio` of the on-demand
/// price costs as much: where Daly's wall time of a 4-hour job checkpointing every 30 min
/// (60 s writes, 300 s restarts) is `1 ÷ price_ratio` of the on-demand wall time Ts·(1 + δ/τ).
pub fn daly_break_even_rate(price_ratio: f64) -> f64 {
    let target = 4.0 * 3600.0 * (1.0 + 60.0 / 1800.0) / price_ratio;
    let (mut lo, mut hi) = (1e-4f64, 10.0f64);
    for _ in 0..60 {
        let mid = (lo * hi).sqrt();
        if gpucost::model::analytic::daly_wall_time_s(14_400.0, 1_800.0, 60.0, 300.0, 3_600.0 / mid)
            < target
        {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The work, hours × hours, that jobs of duration `d` hours arriving at a unit rate per hour
/// over a warm-up of `warmup` hours and a window of `horizon` hours do inside the window: the
/// integral over arrival times a of the overlap of [a, a + d] with the window (exactly, as
/// the overlap is piecewise linear in a). Without a warm-up it is H·(d − d²/2H) for d ≤ H.
pub fn work_in_window(d: f64, warmup: f64, horizon: f64) -> f64 {
    let end = warmup + horizon;
    let overlap = |a: f64| ((a + d).min(end) - a.max(warmup)).max(0.0);
    let mut points = vec![0.0, end, warmup - d, warmup, end - d];
    points.retain(|p| (0.0..=end).contains(p));
    points.sort_by(f64::total_cmp);
    points
        .windows(2)
        .map(|w| (w[1] - w[0]) * (overlap(w[0]) + overlap(w[1])) / 2.0)
        .sum()
}

/// Lines of `text` picked, cut and repeated: `(line, cut, keep)` takes line `line` (modulo the
/// lines), cut at character `cut` (modulo its length) unless `keep` is not a multiple of 3.
/// Readers are fed these to show they report or fit and never panic.
pub fn splice(text: &str, picks: &[(usize, usize, usize)]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for &(line, cut, keep) in picks {
        let l = lines[line % lines.len()];
        let cut = l
            .char_indices()
            .nth(cut % (l.chars().count() + 1))
            .map_or(l.len(), |c| c.0);
        out.push_str(if keep % 3 == 0 { &l[..cut] } else { l });
        out.push('\n');
    }
    out
}
