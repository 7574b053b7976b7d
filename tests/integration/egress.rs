//! Internet egress by the clouds' volume tiers: a run's egress cost is the tiered price of
//! its month of egress, the field travels in links and edits, and flat pricing is unchanged.

use crate::support::{bare_class, bare_platform, scenario};
use gpucost::model::cost_category::Category;
use gpucost::model::egress::EgressTiers;
use gpucost::model::scenario::{Arrivals, Duration, Scenario};
use gpucost::model::sim::{generate_jobs, simulate_platform};
use gpucost::workbench::edit::apply_edits;
use gpucost::workbench::link::{decode_link, encode_link};

/// 100 one-hour jobs a day for 30 days, each sending 50 GB out: about 150 TB a month.
fn egress_heavy(tiers: EgressTiers) -> Scenario {
    let mut platform = bare_platform("tiered");
    platform.egress_usd_per_gb = 0.09;
    platform.egress_free_gb_per_month = 100.0;
    platform.egress_tiers = tiers;
    let mut class = bare_class(
        Arrivals::Steady { per_day: 100.0 },
        Duration::Fixed { hours: 1.0 },
    );
    class.egress_gb_per_job = 50.0;
    scenario(30.0, 1, vec![class], vec![platform])
}

#[test]
fn a_runs_egress_is_its_month_priced_tier_by_tier() {
    for tiers in [
        EgressTiers::AwsInternet,
        EgressTiers::GcpPremium,
        EgressTiers::Flat,
    ] {
        let s = egress_heavy(tiers);
        let jobs = generate_jobs(&s, 0);
        let (o, _) = simulate_platform(&s, 0, 0, &jobs, false);
        // Every job's egress, over the horizon's months (720 h ÷ 730 h).
        let months = 30.0 * 24.0 / 730.0;
        let gb = o.jobs_completed as f64 * 50.0;
        assert!(gb > 140_000.0, "{gb} GB");
        let expected = match tiers {
            // By hand for AWS, a month in the third tier (51,200 to 153,600 GB): 10,140 GB
            // (the first 100 free) × $0.09 + 40,960 × $0.085 + the rest × $0.07.
            EgressTiers::AwsInternet => {
                let month = gb / months;
                assert!(month > 51_200.0 && month < 153_600.0, "{month}");
                10_140.0 * 0.09 + 40_960.0 * 0.085 + (month - 51_200.0) * 0.07
            }
            _ => tiers.monthly_usd(gb / months, 0.09, 100.0),
        };
        let egress = o.breakdown_usd[Category::Egress];
        assert!(
            (egress - expected).abs() < 1e-6 * expected,
            "{tiers:?}: {egress} vs {expected}"
        );
    }
    // At this volume the tiers cost less than one flat price.
    let cost = |t| {
        let s = egress_heavy(t);
        let jobs = generate_jobs(&s, 0);
        simulate_platform(&s, 0, 0, &jobs, false).0.breakdown_usd[Category::Egress]
    };
    assert!(cost(EgressTiers::AwsInternet) < cost(EgressTiers::Flat));
}

#[test]
fn the_tiers_travel_in_links_and_edits_and_a_bad_name_is_refused() {
    let base = gpucost::workbench::presets::preset("batch-vs-eks-spot")
        .unwrap()
        .scenario();
    let edited = apply_edits(
        &base,
        &["platforms.1.egress_tiers=aws_internet".to_string()],
    )
    .unwrap();
    assert_eq!(edited.platforms[1].egress_tiers, EgressTiers::AwsInternet);
    let link = encode_link(&edited, "batch-vs-eks-spot");
    let back = decode_link(link.trim_start_matches('#'));
    assert!(back.notices.is_empty(), "{:?}", back.notices);
    assert_eq!(back.scenario, edited);
    let err = apply_edits(&base, &["platforms.1.egress_tiers=cheap".to_string()])
        .unwrap_err()
        .to_string();
    assert!(err.contains("egress_tiers"), "{err}");
}
