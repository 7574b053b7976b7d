//! The seeds' case studies: every entry's model figure recomputed from its preset and shown
//! as the panel shows it; the stories' own arithmetic checked by hand (seed 002's egress at
//! its flat prices and as the tiers price it; seed 000's Snap numbers, which do not
//! reconcile).

use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::egress::EgressTiers;
use gpucost::scenario::cases::{case, cases, recompute, shows_as_stored};
use gpucost::scenario::presets::preset;

#[test]
fn every_case_shows_the_figure_its_preset_gives() {
    let all = cases();
    assert!(all.len() >= 6, "{}", all.len());
    for c in &all {
        assert!(
            preset(&c.preset).is_some(),
            "{}: preset {}",
            c.story,
            c.preset
        );
        let value = recompute(c).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            shows_as_stored(c, value),
            "{}: the model now gives {value}, the panel shows {}",
            c.story,
            c.model_text()
        );
        assert!(!c.quote.is_empty() && !c.difference.is_empty() && !c.inputs.is_empty());
        // The seed file exists beside the project.
        let seed = format!("{}/../shared/seeds/{}", env!("CARGO_MANIFEST_DIR"), c.seed);
        if std::path::Path::new(&format!("{}/../shared/seeds", env!("CARGO_MANIFEST_DIR"))).exists()
        {
            let text = std::fs::read_to_string(&seed).unwrap_or_else(|e| panic!("{seed}: {e}"));
            // The quote is the article's, word for word (its apostrophes and dashes aside).
            let plain = |s: &str| s.replace(['’', '‘'], "'").replace(['“', '”'], "\"");
            let first = plain(&c.quote);
            let first = first.split(". ").next().unwrap();
            assert!(
                plain(&text).contains(first),
                "{}: \"{first}\" is not in {}",
                c.story,
                c.seed
            );
        }
    }
}

#[test]
fn seed_002_egress_at_its_flat_prices_and_as_the_tiers_price_it() {
    // The article: 10 TB at $0.09 and $0.12 per GB, nothing free.
    let flat = EgressTiers::Flat;
    assert_eq!(flat.monthly_usd(10_000.0, 0.09, 0.0), 900.0);
    assert_eq!(flat.monthly_usd(10_000.0, 0.12, 0.0), 1_200.0);
    // The model: Google Cloud per GiB in tiers, 1,024 GiB at $0.12 and the rest of 10 TB
    // (9,313.2257 GiB) at $0.11; AWS's 10 TB at $0.09 after 100 GB free.
    let gib = 10_000.0 / 1.073_741_824;
    let by_hand = 1_024.0 * 0.12 + (gib - 1_024.0) * 0.11;
    let gcp = EgressTiers::GcpPremium.monthly_usd(10_000.0, 0.12, 0.0);
    assert!((gcp - by_hand).abs() < 1e-9, "{gcp} vs {by_hand}");
    assert!((EgressTiers::AwsInternet.monthly_usd(10_000.0, 0.09, 100.0) - 891.0).abs() < 1e-9);
    let c = case("egress-10-tb").unwrap();
    assert!((c.model.value - by_hand).abs() < 0.005, "{}", c.model.value);
}

#[test]
fn snaps_numbers_do_not_reconcile_and_the_preset_says_which_it_takes() {
    // The preset takes "12 %" as the share of spot nodes interrupted in a month.
    let s = preset("case-snap-p4d-spot").unwrap().scenario();
    let pool = s.platforms[1].first_pool();
    let lambda = pool.spot_interruptions_per_node_hour;
    assert!((lambda - 1.7511e-4).abs() < 1e-8, "{lambda}");
    assert!((1.0 - (-730.0 * lambda).exp() - 0.12).abs() < 1e-12);
    assert!((pool.spot_usd_per_node_hour / pool.on_demand_usd_per_node_hour - 0.38).abs() < 1e-12);
    // 62 % off with 1.2× the wall time: 1 − 0.38 × 1.2 = 54.4 %, not 31 %.
    assert!((1.0_f64 - 0.38 * 1.2 - 0.544).abs() < 1e-12);
    // At the stated rate a 6-hour job with 30-minute checkpoints barely slows (Daly): 6.2 h,
    // as on demand with its checkpoint writes (6 × 1860 ÷ 1800 = 6.2 h).
    let at_stated = daly_wall_time_s(21_600.0, 1_800.0, 60.0, 2_700.0, 3_600.0 / lambda);
    assert!(
        (at_stated / 3_600.0 - 6.2).abs() < 0.002,
        "{}",
        at_stated / 3_600.0
    );
    // 7.2 h takes a mean time between interruptions of 6.75 h: 0.148 per node-hour, about
    // 850 times the stated rate.
    let needed_mtbi = 6.754_285 * 3_600.0;
    let at_needed = daly_wall_time_s(21_600.0, 1_800.0, 60.0, 2_700.0, needed_mtbi);
    assert!(
        (at_needed / 3_600.0 - 7.2).abs() < 0.001,
        "{}",
        at_needed / 3_600.0
    );
    assert!(((3_600.0 / needed_mtbi) / lambda - 845.0).abs() < 5.0);
    // The model's discount on the compute is the list's, nearly: 62.0 %.
    let c = case("snap-p4d-spot").unwrap();
    assert!((c.model.value - 62.0).abs() < 0.5, "{}", c.model.value);
}
