//! Regions: a platform's data reads pay the transfer between its region and the data's (the
//! hand product of GB and the cited price), in place of the class's billed share, never both;
//! unset regions change nothing; a region the catalog lacks is refused by name.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::cost_category::Category;
use gpucost::model::scenario::{Arrivals, Cloud, Duration, Scenario};
use gpucost::model::sim::{generate_jobs, simulate_platform, PlatformOutcome};
use gpucost::model::transfer::DataPath;
use gpucost::workbench::edit::apply_edits;

/// Ten 1-hour jobs a month (730 h), each reading 1,000 GB (a billed share of 1 as egress where
/// reads are not priced by region) and sending 10 GB out, on an AWS platform.
fn ten_reads(region: &str, data_region: &str, path: DataPath) -> Scenario {
    let mut platform = bare_platform("reader");
    platform.cloud = Cloud::Aws;
    platform.region = region.into();
    platform.data_path = path;
    platform.egress_usd_per_gb = 0.09;
    let mut class = bare_class(
        Arrivals::Steady {
            per_day: 10.0 * 24.0 / 730.0,
        },
        Duration::Fixed { hours: 1.0 },
    );
    class.data_read_gb_per_attempt = 1_000.0;
    class.data_read_billed_share = 1.0;
    class.egress_gb_per_job = 10.0;
    let mut s = scenario(730.0 / 24.0, 1, vec![class], vec![platform]);
    s.data_region = data_region.into();
    s
}

fn run(s: &Scenario) -> (PlatformOutcome, usize) {
    let jobs = generate_jobs(s, 0);
    let (o, records) = simulate_platform(s, 0, 0, &jobs, true);
    let attempts = records
        .unwrap()
        .iter()
        .filter(|j| j.first_compute_s.is_some())
        .count();
    (o, attempts)
}

#[test]
fn ten_terabytes_across_regions_cost_the_hand_product() {
    let (o, attempts) = run(&ten_reads(
        "us-west-2",
        "us-east-1",
        DataPath::PrivateEndpoint,
    ));
    assert_eq!(attempts, 10, "ten jobs in the month");
    // 10 × 1,000 GB at $0.02/GB (AWS between US regions) in one month: $200.
    assert!(
        (o.breakdown_usd[Category::DataTransfer] - 200.0).abs() < 1e-9,
        "{:?}",
        o.breakdown_usd
    );
    // Egress is the results' alone: 100 GB at $0.09, the reads no longer in it.
    assert!(
        (o.breakdown_usd[Category::Egress] - 9.0).abs() < 1e-9,
        "{}",
        o.breakdown_usd[Category::Egress]
    );
    // Through a NAT gateway: + 10,000 GB × $0.045.
    let (nat, _) = run(&ten_reads("us-west-2", "us-east-1", DataPath::NatGateway));
    assert!((nat.breakdown_usd[Category::DataTransfer] - 650.0).abs() < 1e-9);
    // Beside the bucket: nothing through an endpoint, $450 through NAT.
    let (beside, _) = run(&ten_reads(
        "us-east-1",
        "us-east-1",
        DataPath::PrivateEndpoint,
    ));
    assert_eq!(beside.breakdown_usd[Category::DataTransfer], 0.0);
    let (beside_nat, _) = run(&ten_reads("us-east-1", "us-east-1", DataPath::NatGateway));
    assert!((beside_nat.breakdown_usd[Category::DataTransfer] - 450.0).abs() < 1e-9);
    // Reading Google Cloud Storage in us-central1 from AWS: Google's internet egress,
    // 10,000 GB = 9,313.2257 GiB at $0.12: $1,117.59.
    let (cross_cloud, _) = run(&ten_reads(
        "us-east-1",
        "us-central1",
        DataPath::PrivateEndpoint,
    ));
    assert!((cross_cloud.breakdown_usd[Category::DataTransfer] - 1_117.587_089_538).abs() < 1e-6);
}

#[test]
fn without_both_regions_the_billed_share_counts_as_egress_as_before() {
    // Only one side set: 10 × (1,000 + 10) GB of egress at $0.09 = $909, no transfer line.
    for (region, data) in [("us-west-2", ""), ("", "us-east-1"), ("", "")] {
        let (o, _) = run(&ten_reads(region, data, DataPath::NatGateway));
        assert_eq!(o.breakdown_usd[Category::DataTransfer], 0.0);
        assert!(
            (o.breakdown_usd[Category::Egress] - 909.0).abs() < 1e-9,
            "{region}/{data}"
        );
    }
}

#[test]
fn the_estimate_prices_the_reads_the_same_way() {
    let est = |s: &Scenario| gpucost::model::analytic::estimate_platform(s, 0).other_usd;
    let cross = est(&ten_reads("us-west-2", "us-east-1", DataPath::NatGateway));
    let beside = est(&ten_reads(
        "us-east-1",
        "us-east-1",
        DataPath::PrivateEndpoint,
    ));
    // 10 jobs × 1,000 GB × $0.065 more, in the estimate's 730-hour month.
    assert!((cross - beside - 650.0).abs() < 1e-6, "{cross} - {beside}");
}

#[test]
fn regions_travel_in_edits_and_a_region_the_catalog_lacks_is_refused() {
    let s = ten_reads("", "", DataPath::PrivateEndpoint);
    let edited = apply_edits(
        &s,
        &[
            "data_region=us-east-1".to_string(),
            "platforms.0.region=us-west-2".to_string(),
            "platforms.0.data_path=nat_gateway".to_string(),
        ],
    )
    .expect("edits apply");
    assert_eq!(
        edited,
        ten_reads("us-west-2", "us-east-1", DataPath::NatGateway)
    );
    let mut wrong_cloud = s.clone();
    wrong_cloud.platforms[0].region = "us-central1".into();
    let err = wrong_cloud.validate().unwrap_err().to_string();
    assert!(
        err.contains("platforms.0.region") && err.contains("us-east-1, us-west-2"),
        "{err}"
    );
    let mut unknown = s;
    unknown.data_region = "mars-1".into();
    let err = unknown.validate().unwrap_err().to_string();
    assert!(
        err.contains("data_region") && err.contains("mars-1"),
        "{err}"
    );
}

#[test]
fn a_link_carries_the_regions() {
    use gpucost::workbench::link::{decode_link, encode_link};
    let s = gpucost::workbench::presets::preset("data-gravity-egress")
        .unwrap()
        .scenario();
    let mut moved = s.clone();
    moved.data_region = "us-west-2".into();
    moved.platforms[1].data_path = DataPath::PrivateEndpoint;
    moved.platforms[0].region = String::new();
    let read = decode_link(&encode_link(&moved, "data-gravity-egress"));
    assert_eq!(read.notices, Vec::<String>::new());
    assert!(read.scenario == moved);
}
