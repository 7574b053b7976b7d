//! The decision map against a closed form: spot against on-demand, whose break-even
//! interruption rate Daly's formula gives.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::scenario::{Arrivals, Duration, Overflow};
use gpucost::model::step::{run_slice, Step};
use gpucost::scenario::decision_map::{
    boundaries, shaded_grid, DecisionMapRun, MapSettings, MAP_SIZE,
};

#[test]
fn the_maps_break_even_falls_within_a_cell_of_dalys() {
    // 4-hour jobs checkpointing every 30 min (60 s writes, 300 s restarts): the same platform
    // at $10/h on demand and at $9.70/h on spot, no other overheads. Spot stops paying where
    // its Daly wall time is 10/9.7 of the on-demand wall time Ts·(1 + δ/τ), whatever the FTE
    // cost (no platform has people), so the boundary is a vertical line at that rate.
    let mut spot = bare_platform("spot");
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    spot.first_pool_mut().spot_usd_per_node_hour = 9.7;
    let on_demand = bare_platform("on demand");
    let mut class = bare_class(
        Arrivals::Poisson { per_day: 24.0 },
        Duration::Fixed { hours: 4.0 },
    );
    class.checkpoint_interval_min = 30.0;
    class.checkpoint_write_s = 60.0;
    class.restart_overhead_s = 300.0;
    let s = scenario(5.0, 16, vec![class], vec![spot, on_demand]);

    let target = 10.0 / 9.7 * 4.0 * 3600.0 * (1.0 + 60.0 / 1800.0);
    let (mut lo, mut hi) = (1e-4f64, 10.0f64);
    for _ in 0..60 {
        let mid = (lo * hi).sqrt();
        if daly_wall_time_s(14_400.0, 1_800.0, 60.0, 300.0, 3_600.0 / mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let daly = lo;

    let settings = MapSettings::from_link_value("spot_interruption_rate:0:0.2,fte_cost").unwrap();
    let cell = 0.2 / MAP_SIZE as f64;
    assert!(daly > 2.0 * cell && daly < 0.2 - 2.0 * cell, "Daly {daly}");
    let mut map = DecisionMapRun::new(&s, settings.clone()).unwrap();
    while !run_slice(&mut map, f64::INFINITY, &|| 0.0) {}
    assert!(map.is_done());
    let grid = shaded_grid(map.cells());
    for (row, cells) in grid.iter().enumerate() {
        let leaders: Vec<Option<u8>> = cells.iter().map(|c| c.unwrap().leader).collect();
        // Spot leads at the low rates, on demand at the high ones, one change in between.
        let first_on_demand = leaders.iter().position(|l| *l == Some(1)).unwrap();
        assert!(
            leaders[..first_on_demand].iter().all(|l| *l == Some(0))
                && leaders[first_on_demand..].iter().all(|l| *l == Some(1)),
            "row {row}: {leaders:?}"
        );
        let edge = first_on_demand as f64 * cell;
        println!("row {row}: map's break-even {edge:.4}, Daly {daly:.4} per node-hour");
        assert!(
            (edge - daly).abs() <= cell,
            "row {row}: edge {edge} vs Daly {daly}"
        );
    }
    // The line drawn is that vertical edge, once per row.
    let lines = boundaries(&grid);
    assert_eq!(lines.len(), MAP_SIZE);
    assert!(lines.iter().all(|b| b.from.0 == b.to.0));
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
