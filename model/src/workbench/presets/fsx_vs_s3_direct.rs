//! The `fsx-vs-s3-direct` preset: 128-GPU training on 16 p4d nodes, each attempt staging 2 TB:
//! straight from S3 (compute 12 % slower), from FSx for Lustre at 250 MB/s per TiB sized for its
//! throughput (1 % slower), and from 2.4 TiB at 125 MB/s per TiB, too small for it (seeds 002 and
//! 000).

use crate::model::platforms::Profile;
use crate::model::scenario::{Arrivals, Duration, JobClass, Scenario};

/// The same 128-GPU training on 16 nodes (seed 002's "16-node run") on EKS on demand, its data staged from S3 directly or from FSx
/// for Lustre: seed 002's +12 % compute reading S3 directly against +1 % on FSx, and the
/// storage's throughput as seed 000's throttled dataset pulls (a file system sized for its
/// capacity, not its throughput).
pub(super) fn scenario() -> Scenario {
    use crate::model::egress::EgressTiers;
    use crate::model::platforms::failing_as_meta_fleet;
    use crate::model::scaling::Interconnect;
    use crate::model::storage::{DataStaging, StorageProduct};
    let eks = |name: &str, storage: StorageProduct, capacity_gib: f64, slowdown_pct: f64| {
        let mut p = failing_as_meta_fleet(Profile::Eks.platform(name, "p4d.24xlarge", "us-east-1"));
        p.interconnect = Interconnect::Efa;
        p.compact_placement = true;
        p.egress_tiers = EgressTiers::AwsInternet;
        p.region = "us-east-1".into();
        p.storage_read_slowdown_pct = slowdown_pct;
        // The datasets and checkpoints stay in S3 (an FSx file system links to the bucket).
        p.storage_gb = 20_000.0;
        p.staging = DataStaging {
            storage,
            capacity_gib,
            ..DataStaging::default()
        };
        p
    };
    Scenario {
        reference_gpus: 128,
        reference_gpu: "A100".into(),
        data_region: "us-east-1".into(),
        job_classes: vec![JobClass {
            name: "128-GPU training".into(),
            arrivals: Arrivals::Poisson { per_day: 4.0 },
            duration: Duration::LogNormal {
                median_hours: 6.0,
                p90_hours: 12.0,
            },
            gpus_per_job: 128.0,
            gpu_memory_gb: 40.0,
            image_gb: 15.0,
            data_read_gb_per_attempt: 2_000.0,
            checkpoint_interval_min: 30.0,
            checkpoint_write_s: 60.0,
            restart_overhead_s: 300.0,
            ..JobClass::default()
        }],
        platforms: vec![
            eks("EKS, S3 direct", StorageProduct::ObjectStore, 0.0, 12.0),
            eks(
                "EKS, FSx 24 TiB at 250",
                StorageProduct::FsxLustrePersistent250,
                24_000.0,
                1.0,
            ),
            eks(
                "EKS, FSx 2.4 TiB at 125",
                StorageProduct::FsxLustrePersistent125,
                2_400.0,
                1.0,
            ),
        ],
        ..Scenario::default()
    }
}
