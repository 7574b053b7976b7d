//! The decision map against a closed form: spot against on-demand, whose break-even
//! interruption rate Daly's formula gives.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::scenario::{Arrivals, Duration, Overflow};
use gpucost::model::step::{run_slice, Step};
use gpucost::workbench::decision_map::{
    boundaries, shaded_grid, DecisionMapRun, MapSettings, MAP_SIZE,
};

/// The interruption rate at which spot at $9.70 costs what on demand at $10 does, for 4-hour
/// jobs checkpointing every `interval_s` (60 s writes, 300 s restarts): where spot's Daly wall
/// time is 10/9.7 of the on-demand wall time Ts·(1 + δ/τ).
fn daly_break_even(interval_s: f64) -> f64 {
    let target = 10.0 / 9.7 * 14_400.0 * (1.0 + 60.0 / interval_s);
    let (mut lo, mut hi) = (1e-4f64, 10.0f64);
    for _ in 0..60 {
        let mid = (lo * hi).sqrt();
        if daly_wall_time_s(14_400.0, interval_s, 60.0, 300.0, 3_600.0 / mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[test]
fn the_maps_break_even_falls_within_a_cell_of_dalys() {
    // The same platform at $10/h on demand and at $9.70/h on spot, no other overheads, across
    // the spot interruption rate and up the checkpoint interval (12 to 84 minutes): each row's
    // break-even is Daly's for its interval, so the boundary leans as the interval grows.
    let mut spot = bare_platform("spot");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    spot.first_pool_mut().spot_usd_per_node_hour = 9.7;
    let on_demand = bare_platform("on demand");
    let mut class = bare_class(
        Arrivals::Poisson { per_day: 24.0 },
        Duration::Fixed { hours: 4.0 },
    );
    class.checkpoint_write_s = 60.0;
    class.restart_overhead_s = 300.0;
    let s = scenario(5.0, 16, vec![class], vec![spot, on_demand]);

    let settings =
        MapSettings::from_link_value("spot_interruption_rate:0:0.2,checkpoint_interval:12:84")
            .unwrap();
    let cell = 0.2 / MAP_SIZE as f64;
    let mut map = DecisionMapRun::new(&s, settings.clone()).unwrap();
    while !run_slice(&mut map, f64::INFINITY, &|| 0.0) {}
    assert!(map.is_done());
    let grid = shaded_grid(map.cells());
    let mut edges = Vec::new();
    for (row, cells) in grid.iter().enumerate() {
        let interval_min = settings.y.value(row, MAP_SIZE);
        let daly = daly_break_even(interval_min * 60.0);
        assert!(daly > 2.0 * cell && daly < 0.2 - 2.0 * cell, "Daly {daly}");
        let leaders: Vec<Option<u8>> = cells.iter().map(|c| c.unwrap().leader).collect();
        // Spot leads at the low rates, on demand at the high ones, one change in between.
        let first_on_demand = leaders.iter().position(|l| *l == Some(1)).unwrap();
        assert!(
            leaders[..first_on_demand].iter().all(|l| *l == Some(0))
                && leaders[first_on_demand..].iter().all(|l| *l == Some(1)),
            "row {row}: {leaders:?}"
        );
        let edge = first_on_demand as f64 * cell;
        println!("{interval_min} min: map's break-even {edge:.4}, Daly {daly:.4} per node-hour");
        assert!(
            (edge - daly).abs() <= cell,
            "row {row} ({interval_min} min): edge {edge} vs Daly {daly}"
        );
        edges.push(edge);
    }
    // Longer intervals lose more work to each interruption: the break-even falls up the map.
    assert!(edges.windows(2).all(|w| w[1] <= w[0]), "{edges:?}");
    assert!(edges[0] > edges[MAP_SIZE - 1], "{edges:?}");
    // The lines drawn: a vertical edge in every row, and a horizontal one wherever the edge
    // moves between rows.
    let lines = boundaries(&grid);
    let vertical = lines.iter().filter(|b| b.from.0 == b.to.0).count();
    assert_eq!(vertical, MAP_SIZE);
    let moved: f64 = edges.windows(2).map(|w| (w[0] - w[1]) / cell).sum();
    assert_eq!(lines.len() - vertical, moved.round() as usize);
}

#[test]
fn the_coarse_pass_answers_first_and_a_bad_cell_says_why() {
    let s = gpucost::model::scenario::Scenario {
        replications: 4,
        horizon_days: 1.0,
        ..Default::default()
    };
    let settings = MapSettings::default_for(&s).unwrap();
    let mut map = DecisionMapRun::new(&s, settings).unwrap();
    // Steps until the first answer: the 16 coarse cells, no more.
    while map.step() == gpucost::model::step::Stepped::More {}
    assert_eq!(map.done_cells(), 16);
    assert_eq!(map.progress(), (16 * 16, 144 * 16));
    // Settings the scenario refuses never start.
    let bad = MapSettings::from_link_value("traffic,utilization").unwrap();
    assert!(DecisionMapRun::new(&s, bad)
        .unwrap_err()
        .contains("Traffic"));
}
