//! What reading a job's data costs in transfer when the platform and the data have regions:
//! inter-region transfer within a cloud, the data cloud's internet egress across clouds, and
//! a NAT gateway's processing charge where the platform reads through one.
//!
//! Each cloud's prices and their sources are its [`Transfer`](super::cloud::Transfer)
//! (`model/src/model/cloud/`), converted to the model's GB (10⁹ bytes; Google Cloud bills per
//! GiB). Across clouds the data leaves its cloud as internet egress at the first tier: the
//! later volume tiers are not applied to reads (an assumption that overstates very large
//! reads). An S3 gateway endpoint or Private Google Access charges nothing.
//! - Within one region, reading object storage costs no transfer.

use super::catalog;
use super::scenario::Cloud;
use serde::{Deserialize, Serialize};

/// How a platform's nodes reach its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DataPath {
    /// An S3 gateway endpoint or Private Google Access: no processing charge (the default).
    #[default]
    PrivateEndpoint,
    /// Through a NAT gateway, which charges per GB processed.
    NatGateway,
}

impl DataPath {
    /// Whether this is the default (not written in a scenario document).
    pub fn is_default(&self) -> bool {
        *self == DataPath::PrivateEndpoint
    }
}

/// The regions the catalog prices, with their clouds, in the catalog's order.
pub fn regions() -> Vec<(Cloud, &'static str)> {
    let mut out: Vec<(Cloud, &'static str)> = Vec::new();
    for row in catalog::catalog() {
        if !out.iter().any(|(_, r)| *r == row.region) {
            out.push((row.cloud, row.region.as_str()));
        }
    }
    out
}

/// The cloud of catalog region `region`, if the catalog has it.
pub fn cloud_of(region: &str) -> Option<Cloud> {
    regions()
        .into_iter()
        .find(|(_, r)| *r == region)
        .map(|(c, _)| c)
}

/// USD per GB a platform of `cloud` in `region` pays to read data kept in `data_region`
/// through `path`; `None` when either region is not in the catalog.
pub fn read_usd_per_gb(
    cloud: Cloud,
    region: &str,
    data_region: &str,
    path: DataPath,
) -> Option<f64> {
    let data_cloud = cloud_of(data_region)?;
    if cloud_of(region)? != cloud {
        return None;
    }
    let transfer = if data_cloud != cloud {
        data_cloud.facts().transfer.internet.value.usd_per_gb()
    } else if region != data_region {
        cloud.facts().transfer.inter_region.value.usd_per_gb()
    } else {
        0.0
    };
    let nat = match path {
        DataPath::PrivateEndpoint => 0.0,
        DataPath::NatGateway => cloud.facts().transfer.nat.value.usd_per_gb(),
    };
    Some(transfer + nat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_terabytes_by_hand() {
        let tb10 = 10_000.0;
        let usd =
            |cloud, region, data, path| read_usd_per_gb(cloud, region, data, path).unwrap() * tb10;
        // AWS us-west-2 reading us-east-1: 10,000 GB × $0.02.
        assert!(
            (usd(
                Cloud::Aws,
                "us-west-2",
                "us-east-1",
                DataPath::PrivateEndpoint
            ) - 200.0)
                .abs()
                < 1e-9
        );
        // Through a NAT gateway as well: + 10,000 × $0.045.
        assert!(
            (usd(Cloud::Aws, "us-west-2", "us-east-1", DataPath::NatGateway) - 650.0).abs() < 1e-9
        );
        // Same region: nothing through an endpoint, $450 through NAT.
        assert_eq!(
            usd(
                Cloud::Aws,
                "us-east-1",
                "us-east-1",
                DataPath::PrivateEndpoint
            ),
            0.0
        );
        assert!(
            (usd(Cloud::Aws, "us-east-1", "us-east-1", DataPath::NatGateway) - 450.0).abs() < 1e-9
        );
        // Google Cloud us-east4 reading us-central1: 10,000 GB = 9,313.23 GiB × $0.02.
        let gib = tb10 * 1e9 / 1_073_741_824.0;
        assert!(
            (usd(
                Cloud::Gcp,
                "us-east4",
                "us-central1",
                DataPath::PrivateEndpoint
            ) - gib * 0.02)
                .abs()
                < 1e-9
        );
        assert!((gib * 0.02 - 186.264_514_923).abs() < 1e-6);
        // AWS reading Google Cloud Storage: Google's internet egress, $0.12/GiB: $1,117.59.
        assert!(
            (usd(
                Cloud::Aws,
                "us-east-1",
                "us-central1",
                DataPath::PrivateEndpoint
            ) - 1_117.587_089_538)
                .abs()
                < 1e-6
        );
    }

    #[test]
    fn a_region_of_another_cloud_or_none_prices_nothing() {
        assert_eq!(
            read_usd_per_gb(Cloud::Aws, "us-central1", "us-east-1", DataPath::NatGateway),
            None
        );
        assert_eq!(
            read_usd_per_gb(Cloud::Aws, "us-east-1", "mars-1", DataPath::NatGateway),
            None
        );
        assert_eq!(cloud_of("us-east4"), Some(Cloud::Gcp));
        assert!(regions().len() >= 4);
    }
}
