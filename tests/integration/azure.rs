//! Azure's hand cases: its egress tiers for 10 TB, a Spot eviction whose 30 s notice is too
//! short to write a checkpoint, a 3-year reservation's monthly amortisation; and every profile
//! built, validated and evaluated.

use crate::support::{bare_class, bare_platform, job_walls, scenario, WallFrom};
use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::cloud::Cloud;
use gpucost::model::egress::EgressTiers;
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::payback::commitment_of;
use gpucost::model::platforms::Profile;
use gpucost::model::scenario::commitment::{Commitment, Payment};
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Placement, Scenario};

#[test]
fn azure_egress_tiers_for_10_tb_and_60_tb() {
    let f = Cloud::Azure.facts();
    let (first, free) = (f.egress_usd_per_gb.value, f.egress_free_gb_per_month.value);
    assert_eq!((first, free), (0.087, 100.0));
    // 10 TB (10,000 GB): the first 100 GB free, the other 9,900 GB in the first tier at
    // $0.087: $861.30.
    let ten = EgressTiers::AzureInternet.monthly_usd(10_000.0, first, free);
    assert!((ten - 861.30).abs() < 1e-6, "{ten}");
    // 60,000 GB: 100 free, the next 10,240 GB at $0.087 ($890.88), the next 40,960 at $0.083
    // ($3,399.68), the last 8,700 at $0.07 ($609.00): $4,899.56.
    let sixty = EgressTiers::AzureInternet.monthly_usd(60_000.0, first, free);
    assert!((sixty - 4_899.56).abs() < 1e-6, "{sixty}");
    // A new Azure platform prices its egress on these tiers.
    let aks = Profile::Aks.platform("AKS", "Standard_ND96isr_H100_v5", "eastus");
    assert_eq!(aks.cloud, Cloud::Azure);
    assert_eq!(EgressTiers::of_cloud(aks.cloud), EgressTiers::AzureInternet);
    assert_eq!(aks.egress_usd_per_gb, 0.087);
}

/// Mean wall time of one checkpointed 8-hour job at a time on a spot node interrupted every
/// 10 hours on average, hourly checkpoints of `write_s`, with the spot notice `notice_s`.
fn spot_wall_times(notice_s: f64, write_s: f64) -> (f64, f64) {
    let mut platform = bare_platform("spot");
    platform.first_pool_mut().purchase.overflow = Overflow::Spot;
    platform.first_pool_mut().spot_interruptions_per_node_hour = 0.1;
    platform.spot_notice_s = notice_s;
    platform.placement = Placement::Exclusive;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 2.0 },
        Duration::Fixed { hours: 8.0 },
    );
    class.checkpoint_interval_min = 60.0;
    class.checkpoint_write_s = write_s;
    class.restart_overhead_s = 600.0;
    let s = scenario(200.0, 4, vec![class], vec![platform]);
    let (wall, se, _) = job_walls(&s, WallFrom::Arrival);
    (wall, se)
}

#[test]
fn an_azure_spot_eviction_loses_the_work_since_the_last_checkpoint() {
    // Azure gives 30 s of notice: a checkpoint of 90 s cannot be written in it, so each
    // eviction loses the compute since the last checkpoint, and the mean wall time is Daly's
    // (2006) with no notice at all.
    let notice = Profile::Aks
        .platform("AKS", "Standard_ND96isr_H100_v5", "eastus")
        .spot_notice_s;
    assert_eq!(notice, 30.0);
    let (azure, se) = spot_wall_times(notice, 90.0);
    let daly = daly_wall_time_s(8.0 * 3600.0, 3600.0, 90.0, 600.0, 10.0 * 3600.0);
    println!("30 s notice, 90 s writes: {azure:.0} s (se {se:.0}), Daly {daly:.0} s");
    assert!(
        (azure - daly).abs() <= 3.0 * se,
        "{azure} vs Daly {daly} (se {se})"
    );
    // AWS's 120 s notice is long enough for the same write: the work is saved, and each
    // eviction costs only its restart, far below Daly's.
    let (aws, aws_se) = spot_wall_times(120.0, 90.0);
    assert!(aws < daly - 5.0 * aws_se.max(se), "{aws} vs {daly}");
}

#[test]
fn a_three_year_reservation_amortises_its_term_price_monthly() {
    // The Retail Prices API's 3-year reservation of one Standard_ND96isr_H100_v5 in eastus:
    // $1,134,310 for the term against $98.32 an hour on demand, 56.1 % off. Paid upfront, it
    // is $1,134,310 at the start and $31,508.61 a month in the TCO (÷ 36 months).
    let rate = Cloud::Azure
        .facts()
        .commitments
        .rate(
            "Standard_ND96isr_H100_v5",
            "eastus",
            Commitment::Resource,
            3,
        )
        .expect("a published rate");
    let pct = rate.discount_pct().unwrap();
    assert!((pct - 56.1).abs() < 0.05, "{pct}");
    let mut platform = Profile::AzureMl.platform("Azure ML", "Standard_ND96isr_H100_v5", "eastus");
    let pool = platform.first_pool_mut();
    pool.purchase.reserved_share = 1.0;
    pool.purchase.reserved_discount_pct = pct;
    pool.purchase.term_years = 3;
    pool.purchase.payment = Payment::AllUpfront;
    let s = Scenario {
        reference_gpus: 8,
        platforms: vec![platform],
        ..Scenario::default()
    };
    s.validate().unwrap();
    let cash = commitment_of(&s, &s.platforms[0], s.platforms[0].first_pool()).unwrap();
    assert_eq!(cash.term_months, 36);
    assert!(
        (cash.monthly_usd - 1_134_310.0 / 36.0).abs() < 0.01,
        "{}",
        cash.monthly_usd
    );
    assert!((cash.monthly_usd - 31_508.61).abs() < 0.01);
    assert!(
        (cash.upfront_usd() - 1_134_310.0).abs() < 0.01,
        "{}",
        cash.upfront_usd()
    );
    // Paid monthly instead, nothing upfront and the same total.
    let mut monthly = s.clone();
    monthly.platforms[0].first_pool_mut().purchase.payment = Payment::NoUpfront;
    let cash = commitment_of(
        &monthly,
        &monthly.platforms[0],
        monthly.platforms[0].first_pool(),
    );
    assert_eq!(cash.map(|c| c.upfront_usd()), Some(0.0));
    // Azure sells no partial upfront.
    let mut partial = s.clone();
    partial.platforms[0].first_pool_mut().purchase.payment = Payment::PartialUpfront;
    let err = partial.validate().unwrap_err().to_string();
    assert!(err.contains("upfront or monthly"), "{err}");
}

#[test]
fn every_profile_builds_validates_and_evaluates() {
    for profile in Profile::ALL {
        let (instance, region) = profile.new_platform_instance();
        let platform = profile.platform(profile.label(), instance, region);
        let expected_cloud = profile.cloud().unwrap_or(platform.cloud);
        assert_eq!(platform.cloud, expected_cloud, "{profile:?}");
        let mut class = bare_class(
            Arrivals::Poisson { per_day: 4.0 },
            Duration::Fixed { hours: 2.0 },
        );
        class.gpus_per_job = 1.0;
        let mut s = scenario(7.0, 3, vec![class], vec![platform]);
        s.reference_gpus = 8;
        s.validate().unwrap_or_else(|e| panic!("{profile:?}: {e}"));
        let mut mc = MonteCarlo::new(s).unwrap_or_else(|e| panic!("{profile:?}: {e}"));
        mc.run_to_end();
        let tco = mc.results().platforms[0].monthly_tco_usd().mean;
        assert!(tco.is_finite() && tco > 0.0, "{profile:?}: {tco}");
    }
}
