//! The tuner against closed forms: the checkpoint interval it picks against Daly's optimum,
//! the reserved base against the Erlang loss system's, and a wait limit it must keep.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::monte_carlo::run_replication;
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Placement, Scenario};
use gpucost::workbench::presets::preset;
use gpucost::workbench::tune::{objective_of, TuneOptions, TuneReport, TuneRun};

fn tune(s: &Scenario, options: TuneOptions) -> TuneReport {
    TuneRun::new(s, options).unwrap().run_to_end_on(2)
}

/// Pins every setting of platform 0's pools: only the checkpoint interval is searched.
fn pools_pinned() -> Vec<String> {
    vec!["platforms.0.node_pools".to_string()]
}

/// Daly's expected wall time at interval `tau_s`, and its minimum over the interval (found by
/// golden-section search on the closed form, not by the code under test).
fn daly_optimum(solve_s: f64, write_s: f64, restart_s: f64, mtbi_s: f64) -> (f64, f64) {
    let w = |tau: f64| daly_wall_time_s(solve_s, tau, write_s, restart_s, mtbi_s);
    let (mut a, mut b) = (1.0, solve_s);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if w(c) < w(d) {
            b = d;
        } else {
            a = c;
        }
    }
    let tau = (a + b) / 2.0;
    (tau, w(tau))
}

/// One spot-interrupted class, nothing else moving: the tuned interval's Daly wall time is
/// within 0.5 % of the optimum's. The notice (0 s) is shorter than the write, so the engine
/// cannot save on notice; replacement nodes come at once with nothing to pull, so the restart
/// is the class's own.
fn check_checkpoint(solve_h: f64, write_s: f64, restart_s: f64, mtbi_h: f64, typed_min: f64) {
    let mut platform = bare_platform("spot");
    let pool = platform.first_pool_mut();
    pool.purchase.overflow = Overflow::Spot;
    pool.spot_interruptions_per_node_hour = 1.0 / mtbi_h;
    platform.spot_notice_s = 0.0;
    platform.placement = Placement::Exclusive;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 6.0 },
        Duration::Fixed { hours: solve_h },
    );
    class.checkpoint_interval_min = typed_min;
    class.checkpoint_write_s = write_s;
    class.restart_overhead_s = restart_s;
    let mut s = scenario(120.0, 8, vec![class], vec![platform]);
    s.warmup_days = 2.0;
    let report = tune(
        &s,
        TuneOptions {
            pins: pools_pinned(),
            objective: Some(objective_of("usd_per_useful_gpu_hour").unwrap()),
            ..TuneOptions::default()
        },
    );
    let p = &report.platforms[0];
    let tuned_min = report.scenario.platforms[0]
        .checkpoint_interval_min
        .get("jobs")
        .copied()
        .unwrap_or(typed_min);
    let (solve_s, mtbi_s) = (solve_h * 3600.0, mtbi_h * 3600.0);
    let (tau_opt, w_opt) = daly_optimum(solve_s, write_s, restart_s, mtbi_s);
    let w_tuned = daly_wall_time_s(solve_s, tuned_min * 60.0, write_s, restart_s, mtbi_s);
    let w_typed = daly_wall_time_s(solve_s, typed_min * 60.0, write_s, restart_s, mtbi_s);
    println!(
        "checkpoint: typed {typed_min} min (wall {:.0} s), tuned {tuned_min} min (wall {:.0} s), \
         Daly's optimum {:.1} min (wall {:.0} s); {} replications; {:?}",
        w_typed,
        w_tuned,
        tau_opt / 60.0,
        w_opt,
        p.evaluations,
        p.changes
    );
    assert!(
        w_tuned <= w_opt * 1.005,
        "tuned {tuned_min} min: wall {w_tuned} s, {:.2} % above Daly's optimum {w_opt} s at {:.1} min",
        (w_tuned / w_opt - 1.0) * 100.0,
        tau_opt / 60.0
    );
    assert!(p.constraints_met, "{:?}", p.constraints);
    assert!(p.tuned.mean <= p.as_typed.mean);
}

#[test]
fn checkpoint_interval_reaches_dalys_optimum_from_too_often() {
    // Daly's optimum about 77 min; typed every 10 min.
    check_checkpoint(8.0, 300.0, 600.0, 10.0, 10.0);
}

#[test]
fn checkpoint_interval_reaches_dalys_optimum_from_too_rarely() {
    // Daly's optimum about 24 min; typed every 4 hours.
    check_checkpoint(6.0, 60.0, 120.0, 3.0, 240.0);
}

/// Erlang's loss formula B(r, a), by the recursion B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)).
fn erlang_b(r: u32, a: f64) -> f64 {
    (1..=r).fold(1.0, |b, k| a * b / (f64::from(k) + a * b))
}

/// 1-GPU nodes, Poisson 1-GPU jobs, reserved nodes at `f` of the on-demand price `p`, on-demand
/// overflow with no delay and per-second billing: a job takes a free reserved node first and
/// never moves, so the reserved nodes are an Erlang loss system and the cost per hour is
/// p·(f·r + a·B(r, a)). The tuned r costs within 0.5 % of the best r's, by that closed form.
fn check_reserved(a: f64, f: f64, mean_h: f64) {
    let mut platform = bare_platform("reserved");
    let pool = platform.first_pool_mut();
    pool.purchase.overflow = Overflow::OnDemand;
    pool.purchase.reserved_discount_pct = (1.0 - f) * 100.0;
    pool.warm_pool_window_s = 0.0;
    let class = bare_class(
        Arrivals::Poisson {
            per_day: a / mean_h * 24.0,
        },
        Duration::Exponential { mean_hours: mean_h },
    );
    let mut s = scenario(60.0, 8, vec![class], vec![platform]);
    s.warmup_days = 1.0;
    // Reserved shares are of the reference GPUs (at most 10 times them): 100 of them, so a
    // share of 0.2 is 20 nodes.
    s.reference_gpus = 100;
    let p_usd = s.platforms[0].node_pools[0].on_demand_usd_per_node_hour;
    let report = tune(
        &s,
        TuneOptions {
            objective: Some(objective_of("monthly_tco_usd").unwrap()),
            pins: vec![
                "platforms.0.node_pools.0.purchase.overflow".into(),
                "platforms.0.node_pools.0.max_nodes".into(),
                "platforms.0.node_pools.0.warm_pool_window_s".into(),
            ],
            ..TuneOptions::default()
        },
    );
    let tuned = report.scenario.platforms[0].node_pools[0].reserved_nodes(100);
    let cost = |r: u32| p_usd * (f * f64::from(r) + a * erlang_b(r, a));
    let best = (0..(4.0 * a) as u32)
        .min_by(|x, y| cost(*x).total_cmp(&cost(*y)))
        .unwrap();
    println!(
        "reserved base a={a} f={f}: tuned {tuned} nodes (${:.3}/h), best {best} (${:.3}/h); \
         {} replications",
        cost(tuned),
        cost(best),
        report.platforms[0].evaluations
    );
    assert!(
        cost(tuned) <= cost(best) * 1.005,
        "tuned {tuned} reserved nodes cost {:.2} % more than the best, {best}",
        (cost(tuned) / cost(best) - 1.0) * 100.0
    );
}

#[test]
fn reserved_base_reaches_the_erlang_loss_optimum_at_60_percent() {
    check_reserved(20.0, 0.6, 1.0);
}

#[test]
fn reserved_base_reaches_the_erlang_loss_optimum_at_30_percent() {
    // Lognormal-free: the loss system is insensitive to the duration's law, so exponential
    // 4-hour jobs at a load of 12 stand for any.
    check_reserved(12.0, 0.3, 4.0);
}

/// A warm pool is what keeps the wait down: dropping it is cheaper but breaks the wait limit
/// (as typed, within one se). The tuner keeps the wait and reports what keeping it costs.
#[test]
fn a_wait_limit_is_kept_and_its_price_reported() {
    let mut platform = bare_platform("warm");
    platform.provisioning_median_s = 600.0;
    platform.provisioning_p90_s = 600.0;
    platform.first_pool_mut().warm_pool_window_s = 86_400.0;
    // 40 jobs an hour of 30 minutes: about 20 busy nodes, which a day's warm window keeps up
    // through the load's swings, so under 5 % of jobs wait for a node (an hour's window leaves
    // 6 % waiting the 10 minutes a node takes: a p95 of 10 minutes).
    let class = bare_class(
        Arrivals::Poisson { per_day: 960.0 },
        Duration::Fixed { hours: 0.5 },
    );
    let mut s = scenario(10.0, 8, vec![class], vec![platform]);
    s.warmup_days = 1.0;
    let report = tune(
        &s,
        TuneOptions {
            pins: vec![
                "platforms.0.node_pools.0.purchase".into(),
                "platforms.0.node_pools.0.max_nodes".into(),
            ],
            ..TuneOptions::default()
        },
    );
    let p = &report.platforms[0];
    println!("{}", gpucost::workbench::tune::report_table(&report));
    let wait = p
        .constraints
        .iter()
        .find(|c| c.key == "queue_wait_p95_min")
        .unwrap();
    assert!(wait.met && wait.tuned <= wait.bound, "{wait:?}");
    let u = p
        .unconstrained
        .as_ref()
        .expect("the cheaper settings that break the wait are reported");
    assert!(u.metric.mean < p.tuned.mean, "{u:?}");
    assert!(u.breaks.iter().any(|b| b.contains("queue wait")), "{u:?}");
    assert!(
        p.notes
            .iter()
            .any(|n| n.starts_with("Meeting the queue wait")),
        "{:?}",
        p.notes
    );
}

/// A platform alone draws what it draws in the whole scenario: the tuner may search it alone.
#[test]
fn a_platform_alone_has_its_outcomes_in_the_whole_scenario() {
    for name in [
        "batch-vs-eks-spot",
        "pharma-14-stage-pipeline",
        "multi-team-cluster",
    ] {
        let mut s = preset(name).unwrap().scenario();
        s.horizon_days = s.horizon_days.min(7.0);
        let all = run_replication(&s, 3);
        for (p, outcome) in all.iter().enumerate() {
            let mut solo = s.clone();
            solo.platforms = vec![s.platforms[p].clone()];
            solo.payback.current.clear();
            assert_eq!(
                &run_replication(&solo, 3)[0],
                outcome,
                "{name}: platform {p}"
            );
        }
    }
}

/// The tuned metric is never worse than as typed, and the report holds what the CLI prints.
#[test]
fn tuning_presets_never_makes_them_worse() {
    for name in ["batch-vs-eks-spot", "reserved-base-spot-overflow"] {
        let mut s = preset(name).unwrap().scenario();
        s.replications = 24;
        let report = tune(&s, TuneOptions::default());
        for p in &report.platforms {
            assert!(
                p.tuned.mean <= p.as_typed.mean,
                "{name}: {} tuned {} vs {}",
                p.name,
                p.tuned.mean,
                p.as_typed.mean
            );
            assert!(p.constraints_met || !p.notes.is_empty(), "{name}: {p:?}");
        }
        // The tuned scenario is valid and reproduces the tuned figures.
        report.scenario.validate().unwrap();
        assert!(!report.fair_verdict.is_empty() && !report.verdict_as_typed.is_empty());
    }
}

#[test]
fn a_pin_that_names_no_field_is_refused_by_name() {
    let s = preset("batch-vs-eks-spot").unwrap().scenario();
    let err = TuneRun::new(
        &s,
        TuneOptions {
            pins: vec!["platforms.0.node_pools.0.reserved".into()],
            ..TuneOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "--pin platforms.0.node_pools.0.reserved: no such field in the scenario"
    );
    // A checkpoint interval of a platform, and a term left at its default, can be pinned.
    for pin in [
        "platforms.1.checkpoint_interval_min.Training",
        "platforms.0.node_pools.0.purchase.term_years",
        "platforms.2",
    ] {
        TuneRun::new(
            &s,
            TuneOptions {
                pins: vec![pin.into()],
                ..TuneOptions::default()
            },
        )
        .unwrap();
    }
    assert!(objective_of("cheapest").is_err());
    // An objective the scenario cannot measure is refused, not tuned to infinity.
    let err = TuneRun::new(
        &s,
        TuneOptions {
            objective: Some(objective_of("usd_per_million_requests").unwrap()),
            ..TuneOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "--objective usd_per_million_requests: this scenario has no service to measure it by"
    );
}

/// A platform's own checkpoint interval and autoscaling are exactly the class's and the
/// service's settings, for that platform alone: the same outcome, bit for bit.
#[test]
fn a_platform_s_own_settings_are_the_class_s_and_service_s_on_it() {
    use gpucost::workbench::edit::apply_edits;
    let base = preset("batch-vs-eks-spot").unwrap().scenario();
    let mut one = base.clone();
    one.platforms.truncate(2);
    one.horizon_days = 5.0;
    let own = apply_edits(
        &one,
        &["platforms.1.checkpoint_interval_min.Training=90".into()],
    )
    .unwrap();
    let class = apply_edits(&one, &["job_classes.0.checkpoint_interval_min=90".into()]).unwrap();
    let (a, b) = (run_replication(&own, 2), run_replication(&class, 2));
    assert_eq!(
        a[1], b[1],
        "the platform's own interval is the class's there"
    );
    assert_eq!(a[0], run_replication(&one, 2)[0], "and only there");
    assert_ne!(a[1], run_replication(&one, 2)[1]);

    let mut served = preset("agent-traffic-spike").unwrap().scenario();
    served.horizon_days = 3.0;
    let name = served.services[0].name.clone();
    let own = apply_edits(
        &served,
        &[
            format!("platforms.0.service_settings.{name}.target_utilization=0.85"),
            format!("platforms.0.service_settings.{name}.min_replicas=3"),
        ],
    )
    .unwrap();
    let all = apply_edits(
        &served,
        &[
            "services.0.target_utilization=0.85".into(),
            "services.0.min_replicas=3".into(),
        ],
    )
    .unwrap();
    let (a, b) = (run_replication(&own, 1), run_replication(&all, 1));
    assert_eq!(
        a[0], b[0],
        "the platform's own autoscaling is the service's there"
    );
    assert_eq!(a[1], run_replication(&served, 1)[1], "and only there");
}

#[test]
fn on_azure_the_commitment_term_is_searched_at_its_published_price() {
    use gpucost::model::platforms::Profile;
    use gpucost::workbench::tune::levers::{levers, Choice, Load, Setting, Values};
    let solo = |profile: Profile, instance: &str, region: &str| {
        let mut platform = profile.platform("p", instance, region);
        platform.first_pool_mut().purchase.reserved_share = 1.0;
        Scenario {
            reference_gpus: 8,
            platforms: vec![platform],
            ..Scenario::default()
        }
    };
    let load = Load { peak_nodes: 2.0 };
    // ND H100 v5: Azure publishes the price of 1 and 3 years ($551,221 and $1,134,310 for the
    // term against $98.32 an hour): 36.0 % and 56.1 % off.
    let azure = solo(Profile::AzureMl, "Standard_ND96isr_H100_v5", "eastus");
    let found = levers(&azure, load);
    let term = found.iter().find(|(s, _)| *s == Setting::Term(0));
    assert_eq!(
        term.map(|(_, v)| v.clone()),
        Some(Values::Choices(vec![
            Choice::Number(1.0),
            Choice::Number(3.0)
        ]))
    );
    for (years, pct) in [(3.0, 56.1), (1.0, 36.0)] {
        let s = Setting::Term(0)
            .apply(&azure, Choice::Number(years))
            .unwrap();
        let purchase = &s.platforms[0].first_pool().purchase;
        assert_eq!(purchase.term_years, years as u32);
        assert!(
            (purchase.reserved_discount_pct - pct).abs() < 0.005,
            "{purchase:?}"
        );
    }
    // The pool as typed (1 year at the default 37 %) is no published price: both terms race it.
    assert_eq!(Setting::Term(0).current(&azure), Choice::Number(0.0));
    // Moved to another instance type, a published discount does not come along: ND H200 v5
    // has its own, the NC H100 v5 none (its default, 37 %).
    let three = Setting::Term(0).apply(&azure, Choice::Number(3.0)).unwrap();
    assert_eq!(Setting::Term(0).current(&three), Choice::Number(3.0));
    let row = |name: &str| {
        gpucost::model::catalog::catalog()
            .iter()
            .position(|r| r.name == name)
            .unwrap()
    };
    let nc = Setting::InstanceType(0)
        .apply(&three, Choice::Row(row("Standard_NC40ads_H100_v5")))
        .unwrap();
    let purchase = &nc.platforms[0].first_pool().purchase;
    assert_eq!(
        (purchase.term_years, purchase.reserved_discount_pct),
        (3, 37.0)
    );
    // No published price for the other term on AWS: the term is not searched there.
    let aws = solo(Profile::Sagemaker, "p5.48xlarge", "us-east-1");
    assert!(levers(&aws, load)
        .iter()
        .all(|(s, _)| *s != Setting::Term(0)));
}
