//! Monthly cost of an always-on cluster of identical GPU nodes: nodes × price per node-hour × 730.
//!
//! The first, deliberately trivial formula behind the page. It is exact (no simulation), so the
//! browser tests can predict every number the chart shows.

use super::HOURS_PER_MONTH;

/// A GPU instance type with its list prices, as cited on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceType {
    /// Cloud instance name, e.g. `p4d.24xlarge`.
    pub name: &'static str,
    /// Cloud region the prices are for.
    pub region: &'static str,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// GPU model name.
    pub gpu_model: &'static str,
    /// On-demand list price, USD per node-hour.
    pub on_demand_usd_per_hour: f64,
    /// Spot price, USD per node-hour (a point-in-time snapshot; spot prices move daily).
    pub spot_usd_per_hour: f64,
    /// Where the prices come from and how old they are.
    pub source: &'static str,
}

/// AWS p4d.24xlarge (8 × A100 40 GB), us-east-1.
///
/// Source: skypilot-org/skypilot-catalog `catalogs/v7/aws/vms.csv`, inferred ~2025-H1; spot is
/// the median across the region's availability zones. The on-demand figure predates the
/// reported mid-2025 AWS price cut for P4d, so treat it as an upper bound.
pub const P4D_24XLARGE_US_EAST_1: InstanceType = InstanceType {
    name: "p4d.24xlarge",
    region: "us-east-1",
    gpus_per_node: 8,
    gpu_model: "A100 40 GB",
    on_demand_usd_per_hour: 32.7726,
    spot_usd_per_hour: 6.7915,
    source: "SkyPilot catalog (AWS), ~2025-H1; on-demand predates the mid-2025 P4d price cut",
};

/// Smallest and largest node count the page's slider allows.
pub const NODES_MIN: u32 = 1;
/// See [`NODES_MIN`].
pub const NODES_MAX: u32 = 64;

/// Monthly cost in USD of `nodes` nodes billed for every hour of a 730-hour month at
/// `usd_per_node_hour`.
pub fn monthly_cost_usd(nodes: u32, usd_per_node_hour: f64) -> f64 {
    f64::from(nodes) * usd_per_node_hour * HOURS_PER_MONTH
}

/// The two bars the page draws: (label, monthly USD) for on-demand and for spot, with spot
/// priced as if never interrupted (the simulation will add interruptions).
pub fn monthly_costs_by_purchase_option(
    nodes: u32,
    instance: &InstanceType,
) -> [(&'static str, f64); 2] {
    [
        (
            "On-demand",
            monthly_cost_usd(nodes, instance.on_demand_usd_per_hour),
        ),
        ("Spot", monthly_cost_usd(nodes, instance.spot_usd_per_hour)),
    ]
}

/// Why a node count typed by the user was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodesError {
    /// The text is empty or not a whole number.
    NotAWholeNumber { min: u32, max: u32, got: String },
    /// The number is outside `min..=max`.
    OutOfRange { min: u32, max: u32, got: i64 },
}

impl std::fmt::Display for NodesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NodesError::NotAWholeNumber { min, max, got } if got.is_empty() => {
                write!(f, "Enter a whole number of nodes from {min} to {max}.")
            }
            NodesError::NotAWholeNumber { min, max, got } => {
                write!(
                    f,
                    "Nodes must be a whole number from {min} to {max}; \"{got}\" is not one."
                )
            }
            NodesError::OutOfRange { min, max, got } => {
                write!(f, "Nodes must be from {min} to {max}; got {got}.")
            }
        }
    }
}

impl std::error::Error for NodesError {}

/// Parses a node count as typed in the page's number field.
pub fn parse_nodes(text: &str) -> Result<u32, NodesError> {
    let trimmed = text.trim();
    let n: i64 = trimmed.parse().map_err(|_| NodesError::NotAWholeNumber {
        min: NODES_MIN,
        max: NODES_MAX,
        got: trimmed.to_string(),
    })?;
    if n < i64::from(NODES_MIN) || n > i64::from(NODES_MAX) {
        return Err(NodesError::OutOfRange {
            min: NODES_MIN,
            max: NODES_MAX,
            got: n,
        });
    }
    Ok(n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_p4d_node_for_a_month_costs_hand_computed_amount() {
        // 32.7726 $/h × 730 h = 23,923.998 $
        let cost = monthly_cost_usd(1, P4D_24XLARGE_US_EAST_1.on_demand_usd_per_hour);
        assert!((cost - 23_923.998).abs() < 1e-6, "{cost}");
    }

    #[test]
    fn spot_bar_uses_spot_price() {
        // 3 nodes × 6.7915 $/h × 730 h = 14,873.385 $
        let [(od_label, _), (spot_label, spot)] =
            monthly_costs_by_purchase_option(3, &P4D_24XLARGE_US_EAST_1);
        assert_eq!((od_label, spot_label), ("On-demand", "Spot"));
        assert!((spot - 14_873.385).abs() < 1e-6, "{spot}");
    }

    #[test]
    fn parse_nodes_accepts_range_and_names_the_problem_otherwise() {
        assert_eq!(parse_nodes(" 12 "), Ok(12));
        assert_eq!(
            parse_nodes("0"),
            Err(NodesError::OutOfRange {
                min: 1,
                max: 64,
                got: 0
            })
        );
        assert_eq!(
            parse_nodes("2.5"),
            Err(NodesError::NotAWholeNumber {
                min: 1,
                max: 64,
                got: "2.5".into()
            })
        );
        assert_eq!(
            parse_nodes("").unwrap_err().to_string(),
            "Enter a whole number of nodes from 1 to 64."
        );
        assert!(parse_nodes("65")
            .unwrap_err()
            .to_string()
            .contains("from 1 to 64"));
    }
}
