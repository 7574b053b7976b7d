//! The seeds' case studies: every entry's model figure recomputed from its preset and shown
//! as the panel shows it; the stories' own arithmetic checked by hand (seed 002's egress at
//! its flat prices and as the tiers price it; seed 000's Snap numbers, which do not
//! reconcile; seed 000's failure burn, Sequoia's budget and the fintech's payback; seed
//! 004's bursty jobs step by step).

use gpucost::model::analytic::daly_wall_time_s;
use gpucost::model::egress::EgressTiers;
use gpucost::workbench::cases::{case, cases, recompute, recompute_all, shows_as_stored};
use gpucost::workbench::presets::preset;

#[test]
fn every_case_shows_the_figure_its_preset_gives() {
    let all = cases();
    assert!(all.len() >= 24, "{}", all.len());
    for (c, figures) in all.iter().zip(recompute_all(&all)) {
        assert!(
            preset(&c.preset).is_some(),
            "{}: preset {}",
            c.story,
            c.preset
        );
        let (value, beside) = figures.unwrap_or_else(|e| panic!("{e}"));
        assert!(
            shows_as_stored(&c.model, value),
            "{}: the model now gives {value}, the panel shows {}",
            c.story,
            c.model_text()
        );
        if let (Some(figure), Some(beside)) = (&c.beside, beside) {
            assert!(
                shows_as_stored(figure, beside),
                "{}: beside it the model now gives {beside}, the panel shows {:?}",
                c.story,
                c.beside_text()
            );
        }
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

#[test]
fn a_broken_experiment_burns_its_attempts_halfway_through_each() {
    // Three attempts (the first and two retries), each failing on average halfway through
    // the run and reading its data 12 % slow: 3 × 0.5 × 1.12 = 1.68 runs' GPU-hours.
    let s = preset("case-sequoia-av-experiments").unwrap().scenario();
    let class = s
        .job_classes
        .iter()
        .find(|c| c.name == "Experiment")
        .unwrap();
    let attempts = f64::from(1 + class.failures.max_retries);
    let slow = 1.0 + s.platforms[0].storage_read_slowdown_pct / 100.0;
    let by_hand = attempts * 0.5 * slow;
    assert!((by_hand - 1.68).abs() < 1e-12);
    let c = case("sequoia-av-burn").unwrap();
    assert!((c.model.value - by_hand).abs() < 0.05, "{}", c.model.value);
    // The article's 2.3 takes a fourth attempt: 4 × 0.5 × 1.12 = 2.24.
    assert!((4.0 * 0.5 * slow - 2.24).abs() < 1e-12);
    // Its budget: $890K of $2.1M is the share a 34 % reality keeps of an 80 % plan.
    assert!((2_100_000.0 * 34.0 / 80.0 - 892_500.0_f64).abs() < 1e-6);
}

#[test]
fn the_fintechs_payback_is_the_engineering_cost_over_the_monthly_saving() {
    use gpucost::model::monte_carlo::MonteCarlo;
    let s = preset("case-fintech-autopilot-payback").unwrap().scenario();
    let mut run = MonteCarlo::new(s.clone()).unwrap();
    run.run_to_end();
    let results = run.results();
    let saving =
        results.platforms[0].monthly_tco_usd().mean - results.platforms[1].monthly_tco_usd().mean;
    // Six engineer-months at $200,000 a year: $100,000, repaid at `saving` a month; a month
    // is 730 ÷ 168 weeks.
    let one_off = 6.0 * s.people.fte_cost_usd_per_year / 12.0;
    assert_eq!(one_off, 100_000.0);
    let weeks = one_off / saving * 730.0 / 168.0;
    let recomputed = recompute(&case("fintech-payback").unwrap()).unwrap().0;
    assert!((recomputed - weeks).abs() < 1e-6, "{recomputed} vs {weeks}");
    // 11 weeks would take $39,502 a month.
    assert!((one_off / (11.0 * 168.0 / 730.0) - 39_502.16).abs() < 0.01);
}

#[test]
fn bursty_g5_steps_pull_as_the_bursts_fall() {
    // Steps 1 and 2: every job waits for a full pull (the cache alone changes nothing while
    // nodes leave at once).
    for story in ["bursty-g5-1-cold", "bursty-g5-2-image-cache"] {
        let c = case(story).unwrap();
        assert!(
            (c.model.value - 100.0).abs() < 0.1,
            "{story}: {}",
            c.model.value
        );
    }
    // Step 3: a 30-minute window catches the next of 6 bursts a day with a chance of
    // 1 − e^(−6 × 0.5 ÷ 24); the others pull.
    let s = preset("case-bursty-g5-steps").unwrap().scenario();
    let window_h = s.platforms[2].first_pool().warm_pool_window_s / 3_600.0;
    let missed = (-6.0 * window_h / 24.0_f64).exp();
    assert!((missed - 0.882_497).abs() < 1e-6);
    let c = case("bursty-g5-3-warm-window").unwrap();
    assert!(
        (c.model.value - 100.0 * missed).abs() < 1.0,
        "{}",
        c.model.value
    );
    // Step 4: one pull for each 4-GPU node, 1 in 4 of those bursts' jobs (about: a job that
    // ends early frees a warm slot for the next burst).
    let c = case("bursty-g5-4-four-gpu").unwrap();
    assert!(
        (c.model.value - 25.0 * missed).abs() < 2.5,
        "{}",
        c.model.value
    );
    // The metric's scale: one pull of the 15 GB image at 0.06 GB/s is 250 s, 4.1667 min,
    // and 100 % ÷ 4.1667 min = 24.
    let pull_min = s.job_classes[0].image_gb / s.platforms[0].image_pull_gb_per_s / 60.0;
    assert!((100.0 / pull_min - 24.0).abs() < 1e-9);
}

#[test]
fn robinhoods_reserved_nodes_idle_fifteen_percent_as_mgc_infinity_gives() {
    // 8-GPU jobs arriving at random on unbounded capacity: the busy nodes are Poisson (M/G/∞).
    // At a mean of 5.3075 busy nodes, 5 reserved nodes are busy E[min(N, 5)] ÷ 5 of the time.
    let mean = 5.3075_f64;
    let mut p = (-mean).exp();
    let mut busy = 0.0;
    for k in 0..60 {
        busy += f64::from(k.min(5)) * p;
        p *= mean / f64::from(k + 1);
    }
    let idle = 1.0 - busy / 5.0;
    assert!((idle - 0.15).abs() < 1e-4, "{idle}");
    let s = preset("case-robinhood-ri-spot").unwrap().scenario();
    let batch = s.platforms[0].first_pool();
    assert!((batch.purchase.reserved_share * 8.0 - 5.0).abs() < 1e-12);
    // The 1-year Convertible RI, No Upfront: $12.8268 against $16.288.
    assert!((batch.purchase.reserved_discount_pct - 100.0 * (1.0 - 12.8268 / 16.288)).abs() < 0.01);
    // The offered load is that mean, of the 8 nodes the 64 GPUs make.
    let offered = s.offered_utilization();
    assert!((offered * 8.0 - mean).abs() < 0.01, "{offered}");
}

#[test]
fn the_fsx_run_is_the_articles_sixteen_nodes() {
    let s = preset("fsx-vs-s3-direct").unwrap().scenario();
    for p in &s.platforms {
        let nodes = s.job_classes[0].gpus_per_job / f64::from(p.first_pool().gpus_per_node);
        assert_eq!(nodes, 16.0, "{}", p.name);
    }
}

#[test]
fn autopilots_month_is_sized_from_the_articles_two_figures() {
    // $47,000 of overhead at $3.80 − $2.10 an A100-hour: 27,647 useful A100-hours a month.
    // The preset's runs: 1,889 a day, lognormal of median 20 minutes and 90th percentile 60
    // (σ = ln 3 ÷ z₀.₉).
    let per_month = 1_889.0 * lognormal_mean_h(1.0 / 3.0, 1.0) * 730.0 / 24.0;
    assert!(
        (per_month / (47_000.0 / 1.7) - 1.0).abs() < 0.005,
        "{per_month}"
    );
    // Priced as Google bills GPU Pods: the node's list price, per second, a minute's minimum.
    let s = preset("case-autopilot-a100").unwrap().scenario();
    let autopilot = &s.platforms[0];
    assert!((autopilot.first_pool().on_demand_usd_per_node_hour - 3.67339).abs() < 1e-9);
    assert_eq!(autopilot.billing.granularity_s, 1);
    assert_eq!(autopilot.billing.minimum_s, 60);
    // Every run stages 150 GB at 0.25 GB/s: 600 s of a node held per attempt, overhead the
    // month's runs pay at least (at the node's price with Autopilot's 10 % premium).
    let staging_floor = 1_889.0 * 730.0 / 24.0 * 600.0 / 3_600.0 * 3.67339 * 1.1;
    let c = case("autopilot-a100-month").unwrap();
    let (overhead, _) = recompute(&c).unwrap();
    assert!(overhead > staging_floor, "{overhead} vs {staging_floor}");
    // One cluster's fee for a 730-hour month at $0.10 an hour.
    assert!((case("autopilot-fee-14k").unwrap().model.value - 73.0).abs() < 1e-9);
}

#[test]
fn the_scaling_law_at_128_nodes_and_tcpx_over_efa_by_hand() {
    use gpucost::model::scaling::{BETA, EFA_PLACED_8_NODES, TCPX_OVER_EFA};
    // EFA's α from 92 % on 8 nodes: (1 ÷ 0.92 − 1) ÷ 7^β; on 128 nodes 1 ÷ (1 + α·127^β).
    let alpha = (1.0 / EFA_PLACED_8_NODES - 1.0) / 7.0_f64.powf(BETA);
    let at_128 = 100.0 / (1.0 + alpha * 127.0_f64.powf(BETA));
    assert!((at_128 - 86.56).abs() < 0.01, "{at_128}");
    let c = case("p5-128-node-scaling").unwrap();
    assert!((c.model.value - at_128).abs() < 0.05, "{}", c.model.value);
    // TCPX's overhead is EFA's × 1.15 at any node count.
    let c = case("tcpx-15-overhead").unwrap();
    assert!((c.model.value - 100.0 * (TCPX_OVER_EFA - 1.0)).abs() < 1e-6);
}

#[test]
fn a_one_year_a3_commitment_saves_less_than_its_discount() {
    let s = preset("case-a3-commitment").unwrap().scenario();
    assert_eq!(
        s.platforms[1].first_pool().purchase.reserved_discount_pct,
        30.6
    );
    let c = case("a3-commitment").unwrap();
    // With work for 80 % of the nodes the committed cluster pays for the idle 20 % as well.
    assert!(
        c.model.value < 30.6 && c.model.value > 30.6 - 20.0 * 0.694,
        "{}",
        c.model.value
    );
}

#[test]
fn a_sagemaker_replica_starts_in_the_sum_of_its_steps() {
    // The alarm's three one-minute datapoints (180 s), a fresh instance (360 s), the 12 GB
    // image at 0.06 GB/s (200 s) and the model's load (90 s): 830 s, 13.83 minutes.
    let by_hand = (180.0 + 360.0 + 12.0 / 0.06 + 90.0) / 60.0;
    let c = case("endpoint-scale-up-minutes").unwrap();
    assert!((c.model.value - by_hand).abs() < 1e-3, "{}", c.model.value);
    assert!((10.0..=15.0).contains(&by_hand));
}

#[test]
fn an_a100s_effective_range_brackets_its_prices() {
    // Stable spot beside the data costs at least its spot price a GPU-hour (p4d in us-east-1,
    // $9.89785 ÷ 8) and, with few interruptions, under a third more.
    let low = case("a100-range-low").unwrap().model.value;
    let spot = 9.897_85 / 8.0;
    assert!(low > spot && low < spot * 4.0 / 3.0, "{low}");
    // On demand reading 150 GB an attempt from another region through NAT: at least the
    // on-demand price ($21.957642 ÷ 8) plus the reads' $0.065 a GB over the useful hours.
    let high = case("a100-range-high").unwrap().model.value;
    let on_demand = 21.957_642 / 8.0;
    let reads_per_useful_hour = |useful_hours_per_job: f64| 150.0 * 0.065 / useful_hours_per_job;
    // A job's useful GPU-hours: 8 GPUs × its mean duration (lognormal, median 2 h, p90 6 h).
    let mean_h = lognormal_mean_h(2.0, 6.0);
    assert!(
        high > on_demand + reads_per_useful_hour(8.0 * mean_h),
        "{high}"
    );
    // Time-sliced, twenty replicas of a twentieth of a GPU hold one GPU all month.
    let gpus = case("twenty-models-one-gpu").unwrap().model.value;
    assert!((gpus - 1.0).abs() < 1e-6, "{gpus}");
}

/// The mean of a lognormal of `median` and 90th percentile `p90`, by hand: σ = ln(p90 ÷ median)
/// ÷ z₀.₉, mean = median × e^(σ²/2).
fn lognormal_mean_h(median: f64, p90: f64) -> f64 {
    let sigma = (p90 / median).ln() / 1.281_551_565_5;
    median * (sigma * sigma / 2.0).exp()
}
