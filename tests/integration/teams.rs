//! Teams sharing a platform: preemptive priority against its closed forms, quotas and
//! borrowing, and what an eviction costs, by hand.

use crate::support::{adds_up, bare_class, bare_platform, scenario, with_pool};
use gpucost::model::analytic::erlang_c_mean_wait;
use gpucost::model::cost_category::Category;
use gpucost::model::monte_carlo::run_replication;
use gpucost::model::scenario::{
    Arrivals, Duration, JobClass, Overflow, Platform, Preemption, Replay, ReplayJob, Scenario,
    TeamPolicy,
};
use gpucost::model::sim::{generate_jobs, simulate_platform, Timeline};
use gpucost::model::stats::{mean, standard_error};

/// A static cluster of `servers` single-GPU slots (EKS, so that teams have Kueue's rules).
fn static_cluster(servers: u32) -> Platform {
    let platform = Platform {
        profile: "eks".to_string().into(),
        ..bare_platform("cluster")
    };
    with_pool(platform, |pool| {
        pool.purchase.reserved_share = 1.0;
        pool.purchase.overflow = Overflow::None;
        pool.max_nodes = servers;
    })
}

fn policy(team: &str, priority: i32) -> TeamPolicy {
    TeamPolicy {
        team: team.into(),
        priority,
        ..TeamPolicy::default()
    }
}

/// Two priority classes of 1-GPU jobs with the same exponential duration (mean 1 h) on c
/// single-GPU slots, Poisson arrivals, preemptive priority with resume: an evicted job keeps
/// its work (checkpoints cost nothing and the grace period covers a write) and restarts at
/// once. The high class sees no low job: its mean queue wait is Erlang C's for its load
/// alone. Preempt-resume at one rate is work-conserving, so the number of jobs in the system
/// is that of M/M/c with the combined load, and the mean time in system over all jobs is
/// Erlang C's W for the combined load plus the mean duration. (The queue-wait metric counts
/// only the wait before a job's first compute, which a preempted low job has passed: the
/// second check is on time in system, completion − arrival.)
fn check_preemptive_priority(servers: u32, high: f64, low: f64) {
    let warmup_s = 5 * 86_400;
    let class = |name: &str, load: f64| JobClass {
        name: name.into(),
        team: name.into(),
        checkpoint_interval_min: 10.0,
        checkpoint_write_s: 0.0,
        ..bare_class(
            Arrivals::Poisson {
                per_day: load * f64::from(servers) * 24.0,
            },
            Duration::Exponential { mean_hours: 1.0 },
        )
    };
    let mut platform = static_cluster(servers);
    platform.teams = vec![policy("high", 10), policy("low", 0)];
    platform.preemption = Preemption {
        lower_priority: true,
        ..Preemption::default()
    };
    let mut s = scenario(
        120.0,
        12,
        vec![class("high", high), class("low", low)],
        vec![platform],
    );
    s.reference_gpus = servers;
    s.validate().unwrap();
    let (mut high_waits, mut sojourns) = (Vec::new(), Vec::new());
    let mut preemptions = 0;
    for r in 0..u64::from(s.replications) {
        let jobs = generate_jobs(&s, r);
        let (outcome, records) = simulate_platform(&s, 0, r, &jobs, true);
        preemptions += outcome.preemptions;
        let records = records.unwrap();
        let kept = || {
            jobs.iter()
                .zip(&records)
                .filter(|(_, rec)| rec.arrival_s >= warmup_s)
        };
        let waits: Vec<f64> = kept()
            .filter(|(job, _)| job.class == 0)
            .filter_map(|(_, rec)| rec.first_compute_s.map(|c| (c - rec.arrival_s) as f64))
            .collect();
        // Jobs that finished by the horizon, of those arrived up to 5 days before it (a
        // late job may still be queued; its sojourn is cut).
        let cutoff = (s.horizon_days * 86_400.0) as i64 - 5 * 86_400;
        let times: Vec<f64> = kept()
            .filter(|(_, rec)| rec.arrival_s < cutoff)
            .filter_map(|(_, rec)| rec.finished_s.map(|f| (f - rec.arrival_s) as f64))
            .collect();
        high_waits.push(mean(&waits) / 3600.0);
        sojourns.push(mean(&times) / 3600.0);
    }
    let rate = |load: f64| load * f64::from(servers);
    let want_wait = erlang_c_mean_wait(servers, rate(high), 1.0);
    let want_sojourn = erlang_c_mean_wait(servers, rate(high + low), 1.0) + 1.0;
    let (wait, wait_se) = (mean(&high_waits), standard_error(&high_waits));
    let (sojourn, sojourn_se) = (mean(&sojourns), standard_error(&sojourns));
    println!(
        "c={servers} high {high} low {low}: high wait {wait:.4} h (Erlang C {want_wait:.4}, se \
         {wait_se:.4}); time in system {sojourn:.4} h (W + 1/μ {want_sojourn:.4}, se \
         {sojourn_se:.4}); {preemptions} preemptions"
    );
    assert!(preemptions > 0, "no job was ever preempted");
    assert!(
        (wait - want_wait).abs() <= 3.0 * wait_se,
        "high class wait {wait} h vs Erlang C {want_wait} h (se {wait_se})"
    );
    assert!(
        (sojourn - want_sojourn).abs() <= 3.0 * sojourn_se,
        "time in system {sojourn} h vs {want_sojourn} h (se {sojourn_se})"
    );
}

#[test]
fn preemptive_priority_matches_erlang_c_four_slots() {
    check_preemptive_priority(4, 0.4, 0.4);
}

#[test]
fn preemptive_priority_matches_erlang_c_eight_slots_heavy_low_load() {
    check_preemptive_priority(8, 0.3, 0.55);
}

/// 1-GPU jobs of 2 hours of team "a", 12 at once every 12 hours (bursts), on EKS nodes of
/// one GPU that come at once (no provisioning), the node limit far away.
fn bursty_team(team: &str) -> JobClass {
    JobClass {
        name: team.into(),
        team: team.into(),
        ..bare_class(
            Arrivals::Bursts {
                bursts_per_day: 2.0,
                jobs_per_burst: 12,
            },
            Duration::Fixed { hours: 2.0 },
        )
    }
}

fn elastic_eks() -> Platform {
    Platform {
        profile: "eks".to_string().into(),
        ..bare_platform("EKS")
    }
}

/// The most GPUs a team's jobs ran on at once, from the timeline's attempts.
fn most_at_once(t: &Timeline, class: usize) -> usize {
    let mut edges: Vec<(i64, i64)> = t
        .attempts
        .iter()
        .filter(|a| a.class == class)
        .flat_map(|a| [(a.start_s, 1), (a.end_s, -1)])
        .collect();
    edges.sort_unstable();
    let mut now = 0i64;
    let mut most = 0i64;
    for (_, d) in edges {
        now += d;
        most = most.max(now);
    }
    most as usize
}

fn timeline_of(s: &Scenario) -> Timeline {
    let jobs = generate_jobs(s, 0);
    gpucost::model::sim::simulate_platform_timeline(s, 0, 0, &jobs).1
}

/// A quota of 8 GPUs, no borrowing: the twelve jobs of a burst run 8 at once, then 4 (by
/// hand: 8 × 2 h, then 4 × 2 h: the last starts 2 h after the burst).
#[test]
fn a_quota_of_8_gpus_caps_the_team_at_8_without_borrowing() {
    let mut platform = elastic_eks();
    platform.teams = vec![TeamPolicy {
        nominal_gpus: Some(8.0),
        borrowing_limit_gpus: Some(0.0),
        ..policy("a", 0)
    }];
    let s = scenario(1.0, 1, vec![bursty_team("a")], vec![platform]);
    s.validate().unwrap();
    let t = timeline_of(&s);
    assert_eq!(most_at_once(&t, 0), 8);
    // Without the quota all twelve run at once.
    let mut free = s.clone();
    free.platforms[0].teams.clear();
    assert_eq!(most_at_once(&timeline_of(&free), 0), 12);
}

/// Two teams of quota 8 each in one cohort: team a's burst of 12 borrows the 4 GPUs team b
/// leaves idle (b submits nothing in the day); with a borrowing limit of 2 it takes 10.
#[test]
fn with_borrowing_a_team_uses_idle_gpus_of_its_cohort() {
    let mut platform = elastic_eks();
    let quota = |team: &str, borrow: Option<f64>| TeamPolicy {
        nominal_gpus: Some(8.0),
        borrowing_limit_gpus: borrow,
        ..policy(team, 0)
    };
    platform.teams = vec![quota("a", None), quota("b", None)];
    let idle_b = JobClass {
        arrivals: Arrivals::Steady { per_day: 0.0 },
        ..bursty_team("b")
    };
    let s = scenario(1.0, 1, vec![bursty_team("a"), idle_b], vec![platform]);
    s.validate().unwrap();
    assert_eq!(most_at_once(&timeline_of(&s), 0), 12);
    let mut limited = s.clone();
    limited.platforms[0].teams[0].borrowing_limit_gpus = Some(2.0);
    assert_eq!(most_at_once(&timeline_of(&limited), 0), 10);
}

/// One slot, checkpoints every hour of compute (written in 60 s), restart 300 s. A low job
/// starts at 0; a high job arrives at 1 h 41 min and evicts it 40 minutes past its last
/// checkpoint (written from 1 h to 1 h 1 min): 1 h of compute kept, 40 min lost as
/// preemption rework, and the low job pays its restart when it runs again. With a grace
/// period of 60 s (the write time) it writes a checkpoint on notice and loses nothing.
#[test]
fn an_eviction_costs_the_work_since_the_last_checkpoint_unless_the_grace_period_covers_a_write() {
    let mut platform = static_cluster(1);
    platform.teams = vec![policy("high", 1), policy("low", 0)];
    platform.preemption = Preemption {
        lower_priority: true,
        grace_period_s: 0.0,
        ..Preemption::default()
    };
    let s = two_jobs(platform.clone());
    let o = &run_replication(&s, 0)[0];
    adds_up(o);
    assert_eq!(o.preemptions, 1);
    let rework_min = o.gpu_seconds[Category::PreemptionRework] / 60.0;
    assert!(
        (rework_min - 40.0).abs() < 1e-9,
        "{rework_min} min of rework"
    );
    // The restart: 300 s more of checkpoints and restarts than without the eviction.
    let plain = two_jobs(Platform {
        preemption: Preemption::default(),
        ..platform.clone()
    });
    let p = &run_replication(&plain, 0)[0];
    assert_eq!(p.preemptions, 0);
    let restarts = o.gpu_seconds[Category::CheckpointsAndRestarts]
        - p.gpu_seconds[Category::CheckpointsAndRestarts];
    assert!((restarts - 300.0).abs() < 1e-9, "{restarts} s of restart");
    // A grace period that covers the write: a checkpoint on notice, nothing lost.
    platform.preemption.grace_period_s = 60.0;
    let g = &run_replication(&two_jobs(platform), 0)[0];
    assert_eq!(g.preemptions, 1);
    assert_eq!(g.gpu_seconds[Category::PreemptionRework], 0.0);
}

/// A low job of 5 h at 0 and a high job of 1 h at 1 h 41 min, replayed as recorded.
fn two_jobs(platform: Platform) -> Scenario {
    let class = |team: &str, hours: f64| JobClass {
        name: team.into(),
        team: team.into(),
        ..bare_class(Arrivals::Steady { per_day: 1.0 }, Duration::Fixed { hours })
    };
    let low = JobClass {
        checkpoint_interval_min: 60.0,
        checkpoint_write_s: 60.0,
        restart_overhead_s: 300.0,
        ..class("low", 5.0)
    };
    let mut s = scenario(1.0, 1, vec![low, class("high", 1.0)], vec![platform]);
    s.replay = Some(Replay {
        jobs: vec![
            ReplayJob {
                arrival_s: 0,
                class: 0,
                run_s: 5.0 * 3600.0,
                failed: false,
            },
            ReplayJob {
                arrival_s: 6_060,
                class: 1,
                run_s: 3600.0,
                failed: false,
            },
        ],
        key: String::new(),
    });
    s.validate().unwrap();
    s
}

/// Each team's bill by hand, on two deterministic pools (the node-pool hand case): team
/// "small" spends 120 × 2 h × $10 = $2,400 over 30 days, team "big" 60 × 3 h × $64 =
/// $11,520 (240 and 1,440 GPU-hours); a $1 an hour control-plane fee ($730 a month) is
/// shared. Kept apart it is a line of its own; by cost it splits 2,400 : 11,520; by
/// GPU-hours 240 : 1,440. Every rule adds up to the TCO, in each replication and in the
/// report's means.
#[test]
fn each_teams_bill_by_hand_adds_up_to_the_tco_under_every_rule() {
    use gpucost::model::monte_carlo::MonteCarlo;
    use gpucost::model::scenario::SharedCosts;
    let class = |team: &str, per_day: f64, hours: f64, gpus: f64| JobClass {
        name: team.into(),
        team: team.into(),
        gpus_per_job: gpus,
        ..bare_class(Arrivals::Steady { per_day }, Duration::Fixed { hours })
    };
    let mut platform = bare_platform("two pools");
    platform.fee_usd_per_cluster_hour = 1.0;
    platform.node_pools = vec![crate::support::bare_pool("a"), {
        let mut b = crate::support::bare_pool("b");
        b.gpus_per_node = 8;
        b.on_demand_usd_per_node_hour = 64.0;
        b
    }];
    let mut s = scenario(
        30.0,
        2,
        vec![class("small", 4.0, 2.0, 1.0), class("big", 2.0, 3.0, 8.0)],
        vec![platform],
    );
    let month = 730.0 / 720.0;
    let (small, big, fee) = (2_400.0 * month, 11_520.0 * month, 730.0);
    for (rule, want) in [
        (
            SharedCosts::Separate,
            vec![("small", small), ("big", big), ("shared", fee)],
        ),
        (
            SharedCosts::ByCost,
            vec![
                ("small", small + fee * 2_400.0 / 13_920.0),
                ("big", big + fee * 11_520.0 / 13_920.0),
            ],
        ),
        (
            SharedCosts::ByGpuHours,
            vec![
                ("small", small + fee * 240.0 / 1_680.0),
                ("big", big + fee * 1_440.0 / 1_680.0),
            ],
        ),
    ] {
        s.showback.shared_costs = rule;
        s.validate().unwrap();
        let o = &run_replication(&s, 0)[0];
        let got: Vec<(&str, f64)> = o
            .teams
            .iter()
            .map(|t| (t.team.as_str(), t.monthly_usd))
            .collect();
        assert_eq!(got.len(), want.len(), "{rule:?}: {got:?}");
        for ((name, usd), (want_name, want_usd)) in got.iter().zip(&want) {
            assert_eq!(name, want_name);
            assert!(
                (usd - want_usd).abs() < 1e-6,
                "{rule:?} {name}: {usd} vs {want_usd}"
            );
        }
        let sum: f64 = o.teams.iter().map(|t| t.monthly_usd).sum();
        assert!((sum - o.monthly_tco_usd).abs() < 1e-6 * o.monthly_tco_usd);
        let hours: Vec<f64> = o.teams.iter().take(2).map(|t| t.gpu_hours).collect();
        assert_eq!(hours, vec![240.0, 1_440.0]);
        let mut run = MonteCarlo::new(s.clone()).unwrap();
        run.run_to_end();
        let r = &run.results().platforms[0];
        let means: f64 = r.teams.iter().map(|t| t.monthly_usd.mean).sum();
        assert!((means - r.monthly_tco_usd().mean).abs() < 1e-6 * means);
    }
}

/// Costs add up to the TCO with teams, quotas and preemption on random-ish workloads: every
/// job is in one team's bill, and paid GPU time is every category's, preemption rework
/// included; jobs are conserved per team.
#[test]
fn with_teams_and_preemption_costs_and_jobs_add_up() {
    let mut platform = static_cluster(6);
    platform.teams = vec![
        TeamPolicy {
            nominal_gpus: Some(3.0),
            ..policy("a", 5)
        },
        TeamPolicy {
            nominal_gpus: Some(3.0),
            ..policy("b", 0)
        },
    ];
    platform.preemption = Preemption {
        reclaim_quota: true,
        lower_priority: true,
        grace_period_s: 0.0,
        ..Default::default()
    };
    let class = |team: &str, per_day: f64| JobClass {
        name: team.into(),
        team: team.into(),
        checkpoint_interval_min: 30.0,
        checkpoint_write_s: 30.0,
        restart_overhead_s: 120.0,
        ..bare_class(
            Arrivals::Poisson { per_day },
            Duration::Exponential { mean_hours: 2.0 },
        )
    };
    let mut s = scenario(
        20.0,
        4,
        vec![class("a", 40.0), class("b", 50.0)],
        vec![platform],
    );
    s.reference_gpus = 6;
    s.validate().unwrap();
    for r in 0..4 {
        let jobs = generate_jobs(&s, r);
        let o = &run_replication(&s, r)[0];
        adds_up(o);
        assert!(o.preemptions > 0);
        assert!(o.gpu_seconds[Category::PreemptionRework] > 0.0);
        let sum: f64 = o.teams.iter().map(|t| t.monthly_usd).sum();
        assert!((sum - o.monthly_tco_usd).abs() < 1e-6 * o.monthly_tco_usd);
        let suffered: u64 = o.teams.iter().map(|t| t.preemptions).sum();
        assert_eq!(suffered, o.preemptions);
        let submitted = jobs.iter().filter(|j| j.arrival_s < 20 * 86_400).count() as u64;
        assert_eq!(
            o.jobs_completed + o.jobs_failed + o.jobs_running + o.jobs_waiting,
            submitted
        );
        // Per team: every submitted job is finished, given up, running or waiting; the
        // teams' together are the platform's.
        let mut all = 0;
        for t in o.teams.iter().filter(|t| t.team != "shared") {
            let j = t.jobs;
            assert_eq!(
                j.completed + j.failed + j.running + j.waiting,
                j.submitted,
                "{}",
                t.team
            );
            assert!(j.submitted > 0, "{}", t.team);
            all += j.submitted;
        }
        assert_eq!(all, submitted);
        // No thrashing: far fewer evictions than jobs.
        assert!(
            o.preemptions < submitted,
            "{} evictions of {submitted} jobs",
            o.preemptions
        );
        println!(
            "replication {r}: {} evictions of {submitted} jobs",
            o.preemptions
        );
    }
}
