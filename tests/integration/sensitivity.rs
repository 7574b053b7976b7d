//! Break-evens against closed forms and the tornado's shape.

use crate::support::{
    bare_class, bare_platform, checkpointed_class, daly_break_even_rate, scenario,
};
use gpucost::model::scenario::{Arrivals, Duration, Overflow};
use gpucost::model::sensitivity::{
    mean_tco, reserved_break_even_utilization, spot_break_even_rate, tornado,
};

#[test]
fn spot_break_even_rate_matches_dalys_formula() {
    // 4-hour jobs checkpointing every 30 min (60 s writes, 300 s restarts), $10/h on-demand vs
    // $9/h spot, no other overheads. Spot stops paying where its Daly wall time is 10/9 of the
    // on-demand wall time Ts·(1 + δ/τ).
    let mut platform = bare_platform("p");
    platform.first_pool_mut().purchase.overflow = Overflow::Spot;
    platform.first_pool_mut().spot_usd_per_node_hour = 9.0;
    let class = checkpointed_class();
    let s = scenario(20.0, 8, vec![class], vec![platform]);
    let found = spot_break_even_rate(&s, 0, 8).unwrap();
    let rate = found.value.expect("the costs cross");
    assert_eq!(
        (found.below.as_str(), found.above.as_str()),
        ("spot", "on-demand")
    );

    let lo = daly_break_even_rate(9.0 / 10.0);
    println!("spot break-even: simulated {rate:.4}/node-hour, Daly {lo:.4}/node-hour");
    assert!(
        (rate / lo - 1.0).abs() < 0.10,
        "simulated {rate} vs closed form {lo}"
    );
}

#[test]
fn reserved_beats_on_demand_above_the_discounted_share() {
    // Reserving costs (1 − discount) of on-demand for every hour; with no overheads and jobs
    // that fit the reservation, it pays once utilization exceeds 1 − discount (here 37 % off:
    // 63 %), a little later because Poisson arrivals sometimes overflow the reservation.
    let mut platform = bare_platform("p");
    platform.first_pool_mut().purchase.reserved_discount_pct = 37.0;
    platform.first_pool_mut().max_nodes = 64;
    let class = bare_class(
        Arrivals::Poisson { per_day: 48.0 },
        Duration::Exponential { mean_hours: 1.0 },
    );
    let mut s = scenario(20.0, 6, vec![class], vec![platform]);
    s.reference_gpus = 16;
    let found = reserved_break_even_utilization(&s, 0, 6).unwrap();
    let u = found.value.expect("the costs cross");
    println!("reserved break-even utilization: {u:.3}");
    assert_eq!(
        (found.below.as_str(), found.above.as_str()),
        ("on-demand", "reserved")
    );
    assert!(u > 0.60 && u < 0.75, "{u}");
}

#[test]
fn tornado_bars_bracket_the_base_and_prices_move_cost_up() {
    let s = gpucost::workbench::presets::preset("batch-vs-eks-spot")
        .unwrap()
        .scenario();
    let mut s = s;
    s.horizon_days = 5.0;
    let bars = tornado(&s, 20.0, 4).unwrap();
    // The knobs that mean something here (no serving knob: the preset has no service).
    let knobs = gpucost::model::sensitivity::knobs().filter(|k| (k.when)(&s));
    assert_eq!(bars.len(), knobs.count() * s.platforms.len());
    assert!(bars.iter().all(|b| b.knob != "traffic"));
    let base = mean_tco(&s, 4);
    for bar in &bars {
        let i = s
            .platforms
            .iter()
            .position(|p| p.name == bar.platform)
            .unwrap();
        assert_eq!(bar.base_usd, base[i]);
        if bar.knob == "on_demand_price" && bar.platform == "AWS Batch on-demand" {
            assert!(
                bar.low_usd < bar.base_usd && bar.base_usd < bar.high_usd,
                "{bar:?}"
            );
        }
        if bar.knob == "spot_price" && bar.platform == "AWS Batch on-demand" {
            assert_eq!(
                bar.low_usd, bar.high_usd,
                "spot price cannot move an on-demand platform"
            );
        }
    }
}
