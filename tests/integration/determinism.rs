//! Same seed ⇒ same bytes; any replication order or batch size ⇒ same results; every platform
//! sees the same job stream.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::monte_carlo::{run_replication, MonteCarlo, Results};
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Scenario};

fn busy_scenario() -> Scenario {
    let mut spot = bare_platform("spot");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    spot.first_pool_mut().spot_interruptions_per_node_hour = 0.05;
    spot.provisioning_median_s = 120.0;
    spot.provisioning_p90_s = 400.0;
    let mut on_demand = bare_platform("on-demand");
    on_demand.provisioning_median_s = 120.0;
    on_demand.provisioning_p90_s = 400.0;
    let mut class = bare_class(
        Arrivals::Poisson { per_day: 30.0 },
        Duration::LogNormal {
            median_hours: 2.0,
            p90_hours: 6.0,
        },
    );
    class.checkpoint_interval_min = 30.0;
    class.checkpoint_write_s = 60.0;
    class.restart_overhead_s = 300.0;
    class.failures.probability = 0.1;
    scenario(7.0, 12, vec![class], vec![spot, on_demand])
}

fn full_run(s: &Scenario, batch: u32) -> Results {
    let mut mc = MonteCarlo::new(s.clone()).unwrap();
    while !mc.is_done() {
        mc.run_batch(batch);
    }
    mc.results()
}

#[test]
fn same_seed_gives_byte_identical_json() {
    let s = busy_scenario();
    let a = serde_json::to_string(&full_run(&s, 12)).unwrap();
    let b = serde_json::to_string(&full_run(&s, 12)).unwrap();
    assert_eq!(a, b);
    let mut other = s.clone();
    other.seed += 1;
    assert_ne!(a, serde_json::to_string(&full_run(&other, 12)).unwrap());
}

#[test]
fn batch_size_and_replication_order_do_not_change_results() {
    let s = busy_scenario();
    let whole = full_run(&s, 1_000);
    assert_eq!(whole, full_run(&s, 1));
    assert_eq!(whole, full_run(&s, 5));
    // On several threads (the CLI), answers come back in any order.
    for threads in [2, 3, 16] {
        let mut mc = MonteCarlo::new(s.clone()).unwrap();
        mc.run_to_end_on(threads);
        assert_eq!(whole, mc.results(), "{threads} threads");
    }
    // Replications computed backwards, then combined in replication order.
    let mut outcomes: Vec<_> = (0..s.replications)
        .rev()
        .map(|r| (r, run_replication(&s, u64::from(r))))
        .collect();
    outcomes.sort_by_key(|(r, _)| *r);
    let outcomes: Vec<_> = outcomes.into_iter().map(|(_, o)| o).collect();
    assert_eq!(whole, Results::from_outcomes(&s, &outcomes));
}

#[test]
fn every_platform_sees_the_same_job_stream() {
    // Two identical platforms under different names get identical outcomes in every
    // replication; a third, different one sees the same number of submitted jobs.
    let mut s = busy_scenario();
    let mut twin = s.platforms[0].clone();
    twin.name = "spot twin".into();
    s.platforms.insert(1, twin);
    for r in 0..4 {
        let o = run_replication(&s, r);
        assert_eq!(o[0], o[1]);
        assert_eq!(o[0].jobs_submitted, o[2].jobs_submitted);
    }
}

#[test]
fn run_while_runs_at_least_one_replication_and_stops_when_told() {
    let mut mc = MonteCarlo::new(busy_scenario()).unwrap();
    let mut asked = 0;
    assert_eq!(
        mc.run_while(|| {
            asked += 1;
            asked < 3
        }),
        3
    );
    assert_eq!(mc.run_while(|| false), 4);
    assert_eq!(
        mc.run_while(|| true),
        12,
        "stops at the scenario's replications"
    );
}

#[test]
fn replications_spread_over_shards_summarise_to_the_same_results() {
    use gpucost::model::monte_carlo::{MonteCarlo, Results, Shard};
    use gpucost::workbench::presets::preset;
    let mut scenario = preset("bursty-g5-warm-pool").unwrap().scenario();
    scenario.replications = 23;
    let mut whole = MonteCarlo::new(scenario.clone()).unwrap();
    whole.run_batch(23);
    for count in [1u32, 2, 3, 8] {
        let mut outcomes = std::collections::BTreeMap::new();
        // Shards interleaved in an arbitrary order, as answers from workers arrive.
        let mut shards: Vec<Shard> = (0..count)
            .map(|i| Shard::new(scenario.clone(), i, count).unwrap())
            .collect();
        while shards.iter().any(|s| !s.is_done()) {
            for shard in shards.iter_mut().rev() {
                if let Some((r, o)) = shard.step() {
                    assert!(outcomes.insert(r, o).is_none(), "replication {r} twice");
                }
            }
        }
        let ordered: Vec<_> = outcomes.into_values().collect();
        assert_eq!(
            Results::from_outcomes(&scenario, &ordered),
            whole.results(),
            "{count} shards"
        );
    }
}
