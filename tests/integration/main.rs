//! Native integration tests: one binary, one module per area.

mod chart_layout;
mod monthly_cost;
