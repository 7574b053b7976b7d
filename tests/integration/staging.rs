//! Data staging: jobs read their data from the platform's storage before computing, their
//! nodes sharing its throughput (processor sharing), the GPU time held meanwhile charged to
//! data staging; file systems priced as they bill. Hand cases from the issue, and the
//! estimate's agreement where the closed form is exact.

use crate::support::{adds_up, bare_class, bare_platform, scenario};
use gpucost::model::analytic::estimate_platform;
use gpucost::model::cost_category::Category;
use gpucost::model::scenario::{Arrivals, Duration, JobClass, Platform, Scenario};
use gpucost::model::sim::{generate_jobs, simulate_platform, JobRecord, PlatformOutcome};
use gpucost::model::storage::{DataStaging, StorageProduct};
use gpucost::workbench::edit::apply_edits;

/// One 1-hour job at time 0 on `gpus` GPUs (1-GPU nodes) reading `read_gb`.
fn one_job_at_zero(gpus: f64, read_gb: f64) -> JobClass {
    let mut class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 1.0 },
    );
    class.gpus_per_job = gpus;
    class.data_read_gb_per_attempt = read_gb;
    class
}

/// A platform reading object storage limited to `storage` GB/s, nodes to `node` GB/s.
fn reading_at(storage: f64, node: f64) -> Platform {
    let mut p = bare_platform("reader");
    p.staging = DataStaging {
        storage: StorageProduct::ObjectStore,
        capacity_gib: 0.0,
        throughput_gb_per_s: storage,
        node_read_gb_per_s: node,
    };
    p
}

fn run(s: &Scenario) -> (PlatformOutcome, Vec<JobRecord>) {
    let jobs = generate_jobs(s, 0);
    let (o, records) = simulate_platform(s, 0, 0, &jobs, true);
    adds_up(&o);
    (o, records.expect("records"))
}

#[test]
fn twenty_jobs_reading_a_terabyte_at_once_share_ten_gigabytes_a_second() {
    // 20 single-node jobs at time 0, 1 TB each, 1 GB/s a node, 10 GB/s shared: each reads at
    // 0.5 GB/s, 2,000 s, then computes its hour.
    let classes: Vec<JobClass> = (0..20)
        .map(|i| {
            let mut c = one_job_at_zero(1.0, 1_000.0);
            c.name = format!("job-{i}");
            c
        })
        .collect();
    let s = scenario(1.0, 1, classes, vec![reading_at(10.0, 1.0)]);
    let (o, records) = run(&s);
    assert_eq!(records.len(), 20);
    for r in &records {
        assert_eq!(
            (r.first_compute_s, r.finished_s),
            (Some(2_000), Some(5_600)),
            "{r:?}"
        );
    }
    // 20 GPUs held 2,000 s each, at $10 a GPU-hour: 40,000 GPU-s, $111.11 over the day.
    assert_eq!(o.gpu_seconds[Category::DataStaging], 40_000.0);
    let day_per_month = 730.0 / 24.0;
    let staging_usd = 40_000.0 / 3_600.0 * 10.0 * day_per_month;
    assert!((o.breakdown_usd[Category::DataStaging] - staging_usd).abs() < 1e-6);
    assert_eq!(o.gpu_seconds[Category::UsefulCompute], 20.0 * 3_600.0);
    // Their queue wait is the read: 2,000 s, all of it staging data.
    assert_eq!(
        (
            o.queue_wait_mean_s,
            o.queue_wait_staging_mean_s,
            o.queue_wait_for_nodes_mean_s
        ),
        (2_000.0, 2_000.0, 0.0)
    );
}

#[test]
fn one_job_on_twenty_nodes_reads_fifty_gigabytes_on_each() {
    // 1 TB over 20 nodes: 50 GB a node at 10 ÷ 20 = 0.5 GB/s, 100 s.
    let s = scenario(
        1.0,
        1,
        vec![one_job_at_zero(20.0, 1_000.0)],
        vec![reading_at(10.0, 1.0)],
    );
    let (o, records) = run(&s);
    assert_eq!(records[0].first_compute_s, Some(100));
    assert_eq!(o.gpu_seconds[Category::DataStaging], 20.0 * 100.0);
    // The node limit binds where the storage does not: 50 GB at 0.25 GB/s, 200 s.
    let (slow, records) = run(&scenario(
        1.0,
        1,
        vec![one_job_at_zero(20.0, 1_000.0)],
        vec![reading_at(10.0, 0.25)],
    ));
    assert_eq!(records[0].first_compute_s, Some(200));
    assert_eq!(slow.gpu_seconds[Category::DataStaging], 20.0 * 200.0);
    // The instant estimate agrees where no other read overlaps (its load term is tiny:
    // one job a day): 20 GPUs × 100 s.
    let e = estimate_platform(&s, 0);
    let staged_usd = 2_000.0 / 3_600.0 * 10.0 * 730.0 / 24.0;
    let without = {
        let mut t = s.clone();
        t.platforms[0].staging = DataStaging::default();
        estimate_platform(&t, 0)
    };
    let added = e.compute_usd - without.compute_usd;
    assert!(
        (added - staged_usd).abs() < 0.002 * staged_usd,
        "{added} vs {staged_usd}"
    );
}

#[test]
fn a_read_under_way_at_the_horizon_is_its_queue_wait_once() {
    // One job from time 0 reading 10 TB at 1 GB/s (10,000 s) in a horizon of 3,600 s: its
    // wait is the horizon, all of it staging data (it was counted twice), and the GPU it
    // holds is staging.
    let mut s = scenario(
        1.0,
        1,
        vec![one_job_at_zero(1.0, 10_000.0)],
        vec![reading_at(10.0, 1.0)],
    );
    s.horizon_days = 3_600.0 / 86_400.0;
    let (o, records) = run(&s);
    assert_eq!(records[0].first_compute_s, None);
    assert_eq!(
        (
            o.queue_wait_mean_s,
            o.queue_wait_staging_mean_s,
            o.queue_wait_for_nodes_mean_s
        ),
        (3_600.0, 3_600.0, 0.0)
    );
    assert_eq!(o.gpu_seconds[Category::DataStaging], 3_600.0);
    // The timeline draws the read as no compute: it would start at the horizon.
    let jobs = generate_jobs(&s, 0);
    let (_, timeline) = gpucost::model::sim::simulate_platform_timeline(&s, 0, 0, &jobs);
    let attempt = &timeline.attempts[0];
    assert_eq!((attempt.start_s, attempt.compute_start_s), (0, 3_600));
}

#[test]
fn without_a_storage_product_reads_take_no_time() {
    let mut s = scenario(
        1.0,
        1,
        vec![one_job_at_zero(20.0, 1_000.0)],
        vec![reading_at(10.0, 1.0)],
    );
    s.platforms[0].staging = DataStaging::default();
    let (o, records) = run(&s);
    assert_eq!(records[0].first_compute_s, Some(0));
    assert_eq!(o.gpu_seconds[Category::DataStaging], 0.0);
    // And a document without `staging` reads as no staging.
    let json = serde_json::to_string(&s).expect("a document");
    assert!(!json.contains("staging"), "{json}");
}

#[test]
fn a_file_system_is_billed_on_its_capacity_and_efs_on_its_reads() {
    // 10,000 GiB of FSx for Lustre Persistent 2 at 250 MB/s per TiB: 12,000 GiB billed (its
    // sizes are 1.2 TiB and multiples of 2.4 TiB) at $0.215 = $2,580 a month, and 3 GB/s
    // shared: one 1-node job reading 270 GB alone, at min(1.25, 3) GB/s, 216 s.
    let mut p = bare_platform("fsx");
    p.staging = DataStaging {
        storage: StorageProduct::FsxLustrePersistent250,
        capacity_gib: 10_000.0,
        ..DataStaging::default()
    };
    let s = scenario(1.0, 1, vec![one_job_at_zero(1.0, 270.0)], vec![p.clone()]);
    let (o, records) = run(&s);
    assert!((o.breakdown_usd[Category::Storage] - 12_000.0 * 0.215).abs() < 1e-6);
    assert_eq!(records[0].first_compute_s, Some(216));
    // EFS Elastic: 500 GiB stored ($150 a month) and each GB read at $0.03: one job reading
    // 270 GB in a day is 270 × 730 ÷ 24 GB a month.
    p.staging.storage = StorageProduct::EfsElastic;
    p.staging.capacity_gib = 500.0;
    p.cloud = gpucost::model::scenario::Cloud::Aws;
    let s = scenario(1.0, 1, vec![one_job_at_zero(1.0, 270.0)], vec![p]);
    let (o, _) = run(&s);
    let expected = 150.0 + 270.0 * 730.0 / 24.0 * 0.03;
    assert!(
        (o.breakdown_usd[Category::Storage] - expected).abs() < 1e-6,
        "{}",
        o.breakdown_usd[Category::Storage]
    );
}

#[test]
fn a_product_of_the_other_cloud_is_refused_by_name() {
    let s = scenario(
        1.0,
        1,
        vec![one_job_at_zero(1.0, 1.0)],
        vec![bare_platform("gke")],
    );
    let mut s = s;
    s.platforms[0].cloud = gpucost::model::scenario::Cloud::Gcp;
    let err = apply_edits(
        &s,
        &["platforms.0.staging.storage=fsx_lustre_scratch_2".to_string()],
    )
    .expect_err("FSx on Google Cloud");
    let text = err.to_string();
    assert!(
        text.contains("FSx for Lustre Scratch 2") && text.contains("Google Cloud"),
        "{text}"
    );
    // Filestore is accepted there, the object added by the edit.
    let ok = apply_edits(
        &s,
        &["platforms.0.staging.storage=filestore_zonal".to_string()],
    )
    .expect("Filestore on Google Cloud");
    assert_eq!(
        ok.platforms[0].staging.storage,
        StorageProduct::FilestoreZonal
    );
}
