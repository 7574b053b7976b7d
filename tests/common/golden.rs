//! Golden values computed natively, checked natively (tests/integration) and in wasm32
//! (tests/web.rs): the same scenario and seed must give the same bits on both.
//!
//! When the engine changes on purpose, update these bits in the same commit, with a changelog
//! entry (results carry the engine version).

use gpucost::model::monte_carlo::run_replication;
use gpucost::model::scenario::Scenario;

/// The default preset's first version (frozen: the engine's bits, not the catalog's prices,
/// are what these values hold) over 3 days, with spot interruptions frequent enough to matter.
pub fn golden_scenario() -> Scenario {
    let mut s = gpucost::workbench::presets::preset_scenario_at("batch-vs-eks-spot", 1).unwrap();
    s.horizon_days = 3.0;
    s.seed = 2026;
    for p in &mut s.platforms {
        p.first_pool_mut().spot_interruptions_per_node_hour = 0.05;
    }
    s
}

/// Monthly TCO of each platform in replications 0 and 1, as f64 bits.
pub fn golden_tco_bits() -> Vec<u64> {
    let s = golden_scenario();
    (0..2)
        .flat_map(|r| run_replication(&s, r))
        .map(|o| o.monthly_tco_usd.to_bits())
        .collect()
}

/// The bits computed natively (x86_64) when this engine version was written.
pub const GOLDEN_TCO_BITS: [u64; 6] = [
    4679269372685083116,
    4671574241951342375,
    4679647876703153914,
    4680631137169535376,
    4672728217307885722,
    4681201828228176839,
];

/// The whole `gpucost eval` report of the golden scenario (4 replications), as JSON text:
/// every output number, the breakdown, histograms and paired comparisons, byte for byte.
pub fn golden_report() -> String {
    let mut s = golden_scenario();
    s.replications = 4;
    let mut run = gpucost::model::monte_carlo::MonteCarlo::new(s.clone()).unwrap();
    run.run_to_end();
    gpucost::workbench::report::report_json_text(&s, &run.results(), None)
}

/// FNV-1a (64-bit) of `bytes`: a fingerprint to compare the report's bytes across targets.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Length and FNV-1a of [`golden_report`], as computed here (compare with [`GOLDEN_REPORT`]).
pub fn golden_report_fingerprint() -> (usize, u64) {
    let text = golden_report();
    (text.len(), fnv1a(text.as_bytes()))
}

/// Length and FNV-1a of [`golden_report`] computed natively (x86_64) for this engine version.
/// (17,747 bytes since the report gained `useful_gpu_hours`; without those three blocks the
/// text is the 17,224 bytes of before, FNV-1a 17801387415940662240: no number moved. Engine
/// 0.2.2 changed only its `engine_version`: with "0.2.1" written back, the FNV-1a is 0.2.1's
/// 9013349138780386072. 17,846 bytes since the breakdown gained `gpu_sharing_loss`: without
/// its three lines the text is the 17,747 bytes of before, FNV-1a 5197094976135345475.
/// Engine 0.2.3 moved only serving numbers, and the golden scenario has no service: with
/// "0.2.2" written back, the FNV-1a is 0.2.2's 4799396998426203512. 18,317 bytes since the
/// report's scenario lists each platform's node pools: the report without its `scenario` is
/// byte for byte as before, as is every preset's `gpucost eval` without it. 18,419 bytes
/// since the breakdown gained `preemption_rework` (0 here): without it, as before. 18,683
/// bytes since the breakdown gained `hardware_failure_rework` and the scenario's node pools
/// `node_failures_per_node_hour` (both 0 here): without those lines, the 18,419 bytes of
/// before, tested in golden_values.rs. 22,368 bytes since each platform gained
/// `cloud_bill_usd`, `people_usd` and `cloud_bill_usd_per_useful_gpu_hour` and every summary
/// its standard error `se`: without the `se` lines, 20,438 bytes, FNV-1a 5560177831990071654;
/// without those and the three summaries, the 18,860 bytes of before, FNV-1a
/// 16785151963932819695; both tested there. 25,453 bytes since the verdict names the
/// reference GPU in its unit, "per useful A100-hour", and each paired comparison gained its
/// two shares on the cloud bill alone and each share its 95 % Wilson interval: with
/// "GPU-hour" written back and without those lines, the 22,368 bytes of before, tested
/// there. Engine 0.2.4 added the warm-up, and the golden scenario has none: with "0.2.3"
/// written back as its version, the report is 0.2.3's, tested there. 25,477 bytes since its
/// scenario's `discounts` gained `azure_pct` (0) with the Azure cloud: without that line, the
/// 25,453 bytes of before, FNV-1a 14021902635604402477, tested there. 25,633 bytes since
/// each breakdown gained `api_usage` (0) with the hosted APIs: without those lines, the 25,555
/// bytes of before, tested there.)
pub const GOLDEN_REPORT: (usize, u64) = (25_633, 4_754_565_448_102_684_200);
