//! Training on one platform and serving on another: the split's cost is the first's
//! training and costs beyond GPU time plus the second's serving and fixed costs, checked
//! against a case worked by hand.

use crate::support::{bare_class, bare_platform, scenario, with_pool};
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::scenario::{Arrivals, Duration, Platform, Service, ServiceTraffic};

#[test]
fn a_split_pays_one_platforms_training_and_the_others_serving_and_people() {
    // Two 1-GPU platforms, $10 and $20 a node-hour; B has a tenth of an engineer.
    let a = bare_platform("A");
    let b = Platform {
        ops_fte: 0.1,
        ..bare_platform("B")
    };
    let b = with_pool(b, |pool| pool.on_demand_usd_per_node_hour = 20.0);
    let class = bare_class(
        Arrivals::Steady { per_day: 4.0 },
        Duration::Fixed { hours: 2.0 },
    );
    let mut s = scenario(30.0, 1, vec![class], vec![a, b]);
    // A service with no traffic held at two 1-GPU replicas: 2 × 730 h at each price.
    s.services.push(Service {
        traffic: ServiceTraffic {
            mean_rps: 0.0,
            ..Default::default()
        },
        min_replicas: 2,
        image_gb: 0.0,
        model_load_s: 0.0,
        ..Service::default()
    });
    let mut run = MonteCarlo::new(s.clone()).expect("valid");
    run.run_batch(1);
    let r = run.results();
    let tco = |i: usize| r.platforms[i].monthly_tco_usd().p50;
    let serving_a = 2.0 * 730.0 * 10.0;
    let serving_b = 2.0 * 730.0 * 20.0;
    let people_b = 0.1 * s.people.fte_cost_usd_per_year / 12.0;
    let split = |trains: &str| {
        r.split
            .iter()
            .find(|x| x.trains_on == trains)
            .unwrap()
            .monthly_tco_usd
            .p50
    };
    let want = tco(0) - serving_a + serving_b + people_b;
    assert!((split("A") - want).abs() < 1e-6, "{} vs {want}", split("A"));
    // B's training (its own people already in its total) and A's serving, with no people.
    let want = tco(1) - serving_b + serving_a;
    assert!((split("B") - want).abs() < 1e-6, "{} vs {want}", split("B"));
    // Training costs the same GPU time on both, at each one's price: 4 jobs × 2 h a day.
    let training_a = tco(0) - serving_a;
    assert!(
        (training_a - 4.0 * 2.0 * 30.0 / 30.0 * 730.0 / 24.0 * 10.0).abs() < 1.0,
        "{training_a}"
    );
    // No split without both kinds of work.
    s.services.clear();
    let mut run = MonteCarlo::new(s).expect("valid");
    run.run_batch(1);
    assert!(run.results().split.is_empty());
}
