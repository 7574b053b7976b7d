//! Properties of the bar chart layout over arbitrary values.

use gpucost::charts::bars::{layout_bars, Frame};
use proptest::prelude::*;

const FRAME: Frame = Frame {
    width: 480.0,
    height: 280.0,
    left: 64.0,
    right: 16.0,
    top: 28.0,
    bottom: 32.0,
};

proptest! {
    /// Every bar stays inside the plot area, and a larger value never gets a shorter bar.
    #[test]
    fn bars_stay_in_the_plot_and_order_by_value(
        values in proptest::collection::vec(0.0f64..1e9, 1..6)
    ) {
        let input: Vec<(String, f64)> =
            values.iter().enumerate().map(|(i, v)| (format!("b{i}"), *v)).collect();
        let layout = layout_bars(&input, FRAME, 0.6);
        for bar in &layout.bars {
            prop_assert!(bar.x >= FRAME.left - 1e-9);
            prop_assert!(bar.x + bar.width <= FRAME.width - FRAME.right + 1e-9);
            prop_assert!(bar.y >= FRAME.top - 1e-9);
            prop_assert!(bar.height >= 0.0);
            prop_assert!((bar.y + bar.height - layout.baseline_y).abs() < 1e-9);
        }
        for a in &layout.bars {
            for b in &layout.bars {
                if a.value > b.value {
                    prop_assert!(a.height >= b.height);
                }
            }
        }
        // The top tick bounds the data.
        let top = layout.ticks.last().unwrap().value;
        prop_assert!(values.iter().all(|v| *v <= top));
    }
}
