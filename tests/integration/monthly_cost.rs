//! The always-on formula against hand calculations and its own algebra.

use gpucost::model::always_on::{monthly_cost_usd, parse_nodes, NODES_MAX, NODES_MIN};
use proptest::prelude::*;

#[test]
fn a_month_is_730_hours() {
    // 2 nodes × $10/h × 730 h = $14,600.
    assert_eq!(monthly_cost_usd(2, 10.0), 14_600.0);
}

proptest! {
    /// Cost is linear in the node count: n nodes cost n times one node.
    #[test]
    fn cost_is_linear_in_nodes(n in NODES_MIN..=NODES_MAX, price in 0.0f64..200.0) {
        let one = monthly_cost_usd(1, price);
        let many = monthly_cost_usd(n, price);
        prop_assert!((many - f64::from(n) * one).abs() <= 1e-9 * many.max(1.0));
    }

    /// Any text either parses to an in-range node count or gives an error; it never panics.
    #[test]
    fn parse_nodes_never_panics(text in ".{0,12}") {
        if let Ok(n) = parse_nodes(&text) {
            prop_assert!((NODES_MIN..=NODES_MAX).contains(&n));
        }
    }
}
