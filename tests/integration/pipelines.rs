//! Pipelines: a stage is submitted when its predecessors have finished. Hand cases on free
//! capacity, refusals, and invariants over random pipelines.

use crate::support::{adds_up, bare_class, bare_platform, bare_pool, scenario};
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::scenario::{
    Arrivals, Duration, FailureKind, JobClass, Orchestration, Pipeline, Scenario,
};
use gpucost::model::sim::{generate_jobs, simulate_platform, JobRecord};

fn stage(name: &str, hours: f64, after: &[&str]) -> JobClass {
    JobClass {
        name: name.into(),
        after: after.iter().map(|s| s.to_string()).collect(),
        ..bare_class(Arrivals::Steady { per_day: 1.0 }, Duration::Fixed { hours })
    }
}

/// One pipeline run a day of `stages` on the bare platform, over one day, no job classes.
fn one_run(stages: Vec<JobClass>) -> Scenario {
    let mut s = scenario(1.0, 1, vec![], vec![bare_platform("free")]);
    s.pipelines = vec![Pipeline {
        name: "p".into(),
        arrivals: Arrivals::Steady { per_day: 1.0 },
        stages,
        people_blocked_per_job: 1.0,
    }];
    s
}

/// Platform 0 with a copy of its pool for each of `stages` (pool `p<stage>`), each stage of
/// pipeline "p" on its own.
fn pool_per_stage(s: &mut Scenario, stages: &[&str]) {
    let p = &mut s.platforms[0];
    let pool = p.node_pools[0].clone();
    p.node_pools = stages
        .iter()
        .map(|stage| {
            let mut own = pool.clone();
            own.name = format!("p{stage}");
            own
        })
        .collect();
    for stage in stages {
        p.class_pools
            .insert(format!("p/{stage}"), format!("p{stage}"));
    }
}

/// The records of every job of replication 0 on platform 0, in job order.
fn records(s: &Scenario) -> Vec<JobRecord> {
    s.validate().unwrap();
    let jobs = generate_jobs(s, 0);
    simulate_platform(s, 0, 0, &jobs, true).1.unwrap()
}

#[test]
fn a_chain_finishes_in_its_stages_plus_their_pulls_and_provisioning() {
    // Three 1-hour stages in a chain, a 60 GB image pulled at 1 GB/s on a node without it,
    // nodes taking 120 s to provision. On one pool each stage takes the node the one before
    // it left that second (its warm window, 0 s, has not ended): 120 + 60 + 3,600, then
    // 60 + 3,600 twice = 11,100 s. On a pool each, every stage provisions a node of its own:
    // 3 × (120 + 60 + 3,600) = 11,340 s.
    let mut stages = vec![
        stage("a", 1.0, &[]),
        stage("b", 1.0, &["a"]),
        stage("c", 1.0, &["b"]),
    ];
    for st in &mut stages {
        st.image_gb = 60.0;
    }
    let mut s = one_run(stages);
    s.platforms[0].provisioning_median_s = 120.0;
    s.platforms[0].provisioning_p90_s = 120.0;
    s.platforms[0].first_pool_mut().image_cache = false;
    let r = records(&s);
    assert_eq!(r.len(), 3);
    let submitted: Vec<Option<i64>> = r.iter().map(|x| x.submitted_s).collect();
    assert_eq!(submitted, [Some(0), Some(3_780), Some(7_440)]);
    assert_eq!(r[2].finished_s, Some(11_100));
    let mc = run(&s);
    let p = &mc.platforms[0].pipelines[0];
    assert_eq!(
        p.end_to_end_hours.p50.as_ref().unwrap().mean,
        11_100.0 / 3_600.0
    );
    assert_eq!(p.runs_completed.mean, 1.0);

    pool_per_stage(&mut s, &["a", "b", "c"]);
    let r = records(&s);
    let submitted: Vec<Option<i64>> = r.iter().map(|x| x.submitted_s).collect();
    assert_eq!(submitted, [Some(0), Some(3_780), Some(7_560)]);
    // Each stage's queue wait is its node's provisioning and its pull (180 s).
    for rec in &r {
        assert_eq!(rec.first_compute_s.unwrap() - rec.submitted_s.unwrap(), 180);
    }
    assert_eq!(r[2].finished_s, Some(11_340));
}

#[test]
fn a_diamond_finishes_in_a_plus_the_longer_branch_plus_d() {
    // A (1 h) → {B (2 h), C (3 h)} → D (1 h), nodes ready at once: 1 + max(2, 3) + 1 = 5 h.
    let s = one_run(vec![
        stage("A", 1.0, &[]),
        stage("B", 2.0, &["A"]),
        stage("C", 3.0, &["A"]),
        stage("D", 1.0, &["B", "C"]),
    ]);
    let r = records(&s);
    assert_eq!(r[1].first_compute_s, Some(3_600));
    assert_eq!(r[2].first_compute_s, Some(3_600));
    assert_eq!(r[3].submitted_s, Some(14_400));
    assert_eq!(r[3].finished_s, Some(18_000));
    let mc = run(&s);
    let p = &mc.platforms[0].pipelines[0];
    assert_eq!(p.end_to_end_hours.p50.as_ref().unwrap().mean, 5.0);
    assert_eq!(p.end_to_end_hours.p95.as_ref().unwrap().mean, 5.0);
}

#[test]
fn a_stage_that_gives_up_fails_its_run_and_nothing_after_it_runs() {
    let mut b = stage("b", 1.0, &["a"]);
    b.failures.probability = 1.0;
    b.failures.kind = FailureKind::Deterministic;
    b.failures.max_retries = 1;
    b.failures.at_share = Some(0.5);
    let s = one_run(vec![stage("a", 1.0, &[]), b, stage("c", 1.0, &["b"])]);
    let r = records(&s);
    assert_eq!(r[2].submitted_s, None);
    let mc = run(&s);
    let p = &mc.platforms[0].pipelines[0];
    assert_eq!((p.runs_failed.mean, p.runs_completed.mean), (1.0, 0.0));
    assert!(p.end_to_end_hours.p50.is_none());
    // Stage c never ran: submitted jobs are a and b only.
    let jobs = generate_jobs(&s, 0);
    let (o, _) = simulate_platform(&s, 0, 0, &jobs, false);
    assert_eq!((o.jobs_submitted, o.jobs_failed), (2, 1));
}

#[test]
fn a_stage_submitted_later_queues_behind_jobs_submitted_before_it() {
    // Pool "solo" runs stage A (0–1 h). Pool "shared" has one node for stage B and a plain
    // class of 1-hour jobs arriving every 30 minutes: #0 runs 0–1 h, #1 (0.5 h) 1–2 h, #2
    // (1 h, submitted with B, before it at the same second) 2–3 h; B, submitted at 1 h when A
    // ends, comes before #3 (1.5 h): 3–4 h. In order of their jobs' arrival, B (its run
    // arrived at 0) would have run at 1 h.
    let mut s = one_run(vec![stage("A", 1.0, &[]), stage("B", 1.0, &["A"])]);
    s.horizon_days = 5.0 / 24.0;
    s.job_classes = vec![stage("plain", 1.0, &[])];
    s.job_classes[0].arrivals = Arrivals::Steady { per_day: 48.0 };
    let p = &mut s.platforms[0];
    p.node_pools[0].name = "shared".into();
    p.node_pools[0].max_nodes = 1;
    p.node_pools.push(bare_pool("solo"));
    p.class_pools.insert("p/A".into(), "solo".into());
    p.class_pools.insert("p/B".into(), "shared".into());
    p.class_pools.insert("plain".into(), "shared".into());
    let r = records(&s);
    let jobs = generate_jobs(&s, 0);
    let b = jobs.iter().position(|j| j.class == 2).expect("stage B");
    assert_eq!(r[b].submitted_s, Some(3_600));
    assert_eq!(r[b].first_compute_s, Some(3 * 3_600));
    let plain: Vec<Option<i64>> = jobs
        .iter()
        .zip(&r)
        .filter(|(j, _)| j.class == 0)
        .map(|(_, x)| x.first_compute_s)
        .take(4)
        .collect();
    assert_eq!(plain, [Some(0), Some(3_600), Some(7_200), Some(4 * 3_600)]);
}

#[test]
fn stages_on_two_pools_follow_each_other() {
    // A on pool "small", B after it on pool "big": B starts when A ends (nodes ready at once).
    let mut s = one_run(vec![stage("A", 1.0, &[]), stage("B", 2.0, &["A"])]);
    let p = &mut s.platforms[0];
    p.node_pools.push(bare_pool("big"));
    p.node_pools[0].name = "small".into();
    p.class_pools.insert("p/A".into(), "small".into());
    p.class_pools.insert("p/B".into(), "big".into());
    let r = records(&s);
    assert_eq!(r[1].submitted_s, Some(3_600));
    assert_eq!(r[1].finished_s, Some(3 * 3_600));
    // The other way round the passes run "big" first, and the answer is the same.
    let p = &mut s.platforms[0];
    p.class_pools.insert("p/A".into(), "big".into());
    p.class_pools.insert("p/B".into(), "small".into());
    let r = records(&s);
    assert_eq!(r[1].submitted_s, Some(3_600));
    assert_eq!(r[1].finished_s, Some(3 * 3_600));
}

#[test]
fn refusals_name_the_field() {
    let refuse = |s: &Scenario| s.validate().unwrap_err().to_string();
    let cyclic = one_run(vec![
        stage("a", 1.0, &["c"]),
        stage("b", 1.0, &["a"]),
        stage("c", 1.0, &["b"]),
    ]);
    let e = refuse(&cyclic);
    assert!(
        e.contains("pipelines.0.stages.") && e.contains("cycle"),
        "{e}"
    );
    assert!(e.contains("b → c → a → b"), "{e}");
    let unknown = one_run(vec![stage("a", 1.0, &[]), stage("b", 1.0, &["nope"])]);
    let e = refuse(&unknown);
    assert!(e.contains("pipelines.0.stages.1.after.0"), "{e}");
    assert!(e.contains("\"nope\""), "{e}");
    // A stage's own field out of range is named by its place in the pipeline.
    let mut big = one_run(vec![stage("a", 1.0, &[])]);
    big.pipelines[0].stages[0].gpu_memory_gb = 100.0;
    let e = refuse(&big);
    assert!(e.contains("pipelines.0.stages.0.gpu_memory_gb"), "{e}");
    big.pipelines[0].stages[0].gpu_memory_gb = 0.0;
    big.pipelines[0].arrivals = Arrivals::Steady { per_day: -1.0 };
    let e = refuse(&big);
    assert!(e.contains("pipelines.0.arrivals.per_day"), "{e}");
    // Back and forth between pools.
    let mut loop_ = one_run(vec![
        stage("a", 1.0, &[]),
        stage("b", 1.0, &["a"]),
        stage("c", 1.0, &["b"]),
    ]);
    let p = &mut loop_.platforms[0];
    p.node_pools.push(bare_pool("other"));
    p.class_pools.insert("p/a".into(), "default".into());
    p.class_pools.insert("p/b".into(), "other".into());
    p.class_pools.insert("p/c".into(), "default".into());
    let e = refuse(&loop_);
    assert!(e.contains("platforms.0.class_pools"), "{e}");
    assert!(e.contains("one direction"), "{e}");
}

/// A busy random workload: a plain class and a 5-stage DAG with failures and retries on a
/// small cluster, with a workflow engine that charges per transition.
fn busy() -> Scenario {
    let mut s = scenario(
        10.0,
        6,
        vec![bare_class(
            Arrivals::Poisson { per_day: 6.0 },
            Duration::LogNormal {
                median_hours: 2.0,
                p90_hours: 5.0,
            },
        )],
        vec![bare_platform("small")],
    );
    s.platforms[0].first_pool_mut().max_nodes = 4;
    s.platforms[0].orchestration = Orchestration {
        usd_per_1000_transitions: 25.0,
        free_transitions_per_month: 10.0,
    };
    let mut stages = vec![
        stage("prep", 0.5, &[]),
        stage("train-a", 2.0, &["prep"]),
        stage("train-b", 3.0, &["prep"]),
        stage("eval", 0.5, &["train-a", "train-b"]),
        stage("report", 0.2, &["eval"]),
    ];
    stages[1].duration = Duration::Exponential { mean_hours: 2.0 };
    stages[2].failures.probability = 0.3;
    stages[2].failures.max_retries = 1;
    stages[2].failures.backoff_s = 60.0;
    stages[2].gpus_per_job = 2.0;
    s.platforms[0].first_pool_mut().gpus_per_node = 2;
    s.pipelines = vec![Pipeline {
        name: "dag".into(),
        arrivals: Arrivals::Poisson { per_day: 3.0 },
        stages,
        people_blocked_per_job: 2.0,
    }];
    s
}

#[test]
fn no_stage_starts_before_its_predecessors_finish_and_runs_add_up() {
    let s = busy();
    s.validate().unwrap();
    let preds = s.pipelines[0].predecessors();
    for r in 0..4 {
        let jobs = generate_jobs(&s, r);
        let (o, rec) = simulate_platform(&s, 0, r, &jobs, true);
        let rec = rec.unwrap();
        adds_up(&o);
        let first_stage = 1; // one plain class, then the stages
        let mut runs = 0u64;
        let mut stage_runs = 0u64;
        let mut i = 0;
        while i < jobs.len() {
            if jobs[i].class != first_stage {
                i += 1;
                continue;
            }
            runs += 1;
            for (k, after) in preds.iter().enumerate() {
                let me = &rec[i + k];
                assert_eq!(jobs[i + k].class, first_stage + k);
                if me.submitted_s.is_some() {
                    stage_runs += 1;
                }
                for &a in after {
                    let pred = &rec[i + a];
                    if let Some(start) = me.first_compute_s {
                        let done = pred.finished_s.expect("a predecessor finished");
                        assert!(
                            start >= done,
                            "stage {k} at {start} before {a} ended {done}"
                        );
                        assert!(me.submitted_s.unwrap() >= done);
                    }
                }
            }
            i += preds.len();
        }
        let p = &o.pipelines[0];
        assert_eq!(p.runs_submitted, runs);
        assert!(p.runs_completed + p.runs_failed <= runs);
        // Conservation: every stage run submitted is a job submitted (the plain class's too).
        let plain = jobs.iter().filter(|j| j.class == 0).count() as u64;
        assert_eq!(o.jobs_submitted, plain + stage_runs);
        // The workflow engine's charge: (transitions a month − the free ones) × the price.
        let per_month = 730.0 / (10.0 * 24.0);
        let fee = ((p.transitions as f64 * per_month - 10.0).max(0.0)) * 25.0 / 1000.0;
        assert!(
            (o.orchestration_usd - fee).abs() < 1e-9,
            "{} {fee}",
            o.orchestration_usd
        );
        assert!(p.transitions >= p.runs_completed * 5);
    }
}

fn run(s: &Scenario) -> gpucost::model::monte_carlo::Results {
    let mut mc = MonteCarlo::new(s.clone()).unwrap();
    mc.run_to_end();
    mc.results()
}

#[test]
fn a_run_costs_its_delay_times_its_people_times_the_rate() {
    // Stage a on pool "pa", b after it on pool "pb", 1 hour each, every node 600 s to
    // provision: a computes 600–4,200 s, b is submitted at 4,200 s and computes 4,800–8,400 s.
    // The run took 8,400 s, of which its chain of stages ran 7,200 s: 1,200 s lost to waits.
    // Three people at $100 an hour: $100 over the one-day horizon, × 730 / 24 a month. The
    // stages' own waits are not counted again.
    let mut s = one_run(vec![stage("a", 1.0, &[]), stage("b", 1.0, &["a"])]);
    s.pipelines[0].people_blocked_per_job = 3.0;
    s.people.waiting_usd_per_hour = 100.0;
    s.platforms[0].provisioning_median_s = 600.0;
    s.platforms[0].provisioning_p90_s = 600.0;
    pool_per_stage(&mut s, &["a", "b"]);
    let r = records(&s);
    assert_eq!(r[1].finished_s, Some(8_400));
    let mc = run(&s);
    let waiting = mc.platforms[0].waiting_cost_usd().as_ref().unwrap().mean;
    let by_hand = 1_200.0 / 3_600.0 * 3.0 * 100.0 * 730.0 / 24.0;
    assert!(
        (waiting - by_hand).abs() < 1e-9 * by_hand,
        "{waiting} vs {by_hand}"
    );
}

#[test]
fn a_first_pass_on_a_later_pool_indexes_its_own_nodes() {
    // Pool 0 of 4-GPU nodes, pool 1 of 8-GPU nodes; A (8 GPUs) on pool 1 comes first, so pool
    // 1's pass runs first. A runs 0–1 h on one 8-GPU node, B (4 GPUs) 1–2 h on a 4-GPU node.
    let mut a = stage("A", 1.0, &[]);
    a.gpus_per_job = 8.0;
    let mut b = stage("B", 1.0, &["A"]);
    b.gpus_per_job = 4.0;
    let mut s = one_run(vec![a, b]);
    let p = &mut s.platforms[0];
    p.node_pools[0].name = "small".into();
    p.node_pools[0].gpus_per_node = 4;
    let mut big = bare_pool("big");
    big.gpus_per_node = 8;
    p.node_pools.push(big);
    p.class_pools.insert("p/A".into(), "big".into());
    p.class_pools.insert("p/B".into(), "small".into());
    let r = records(&s);
    assert_eq!(
        (r[0].first_compute_s, r[0].finished_s),
        (Some(0), Some(3_600))
    );
    assert_eq!(
        (r[1].first_compute_s, r[1].finished_s),
        (Some(3_600), Some(7_200))
    );
    let jobs = generate_jobs(&s, 0);
    let (o, _) = simulate_platform(&s, 0, 0, &jobs, false);
    // One node of each pool: the nodes were found, not added for each job.
    assert_eq!(o.peak_nodes, 2);
    adds_up(&o);
}

#[test]
fn a_stage_waits_for_a_predecessor_of_an_earlier_pass_that_ends_later() {
    // A (10 h) on pool "pa"; B (1 h) and then C (after A and B) on pool "pb". Pool pa's pass
    // runs first; in pb's pass B ends at 1 h, but C waits for A's end at 10 h.
    let mut s = one_run(vec![
        stage("A", 10.0, &[]),
        stage("B", 1.0, &[]),
        stage("C", 1.0, &["A", "B"]),
    ]);
    pool_per_stage(&mut s, &["A", "B"]);
    s.platforms[0].class_pools.insert("p/C".into(), "pB".into());
    let r = records(&s);
    assert_eq!(r[2].submitted_s, Some(36_000));
    assert_eq!(r[2].finished_s, Some(39_600));
}
