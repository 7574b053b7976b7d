//! Scenario links: round trips, size, a golden link, and a corpus of malformed links.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use gpucost::model::platforms::Profile;
use gpucost::model::scenario::Arrivals;
use gpucost::workbench::edit::apply_edits;
use gpucost::workbench::link::{decode_link, encode_link};
use gpucost::workbench::presets::{preset, presets, DEFAULT};
use proptest::prelude::*;

#[test]
fn every_preset_round_trips_without_notices() {
    for p in presets() {
        let s = p.scenario();
        let link = encode_link(&s, p.name);
        let back = decode_link(&link);
        assert_eq!(back.scenario, s, "{}", p.name);
        assert_eq!(back.preset, p.name);
        assert!(back.notices.is_empty(), "{}: {:?}", p.name, back.notices);
        assert!(link.len() < 300, "{}: {} chars", p.name, link.len());
    }
}

#[test]
fn a_preset_with_ten_edits_fits_in_500_characters() {
    let base = preset(DEFAULT).unwrap().scenario();
    let edits: Vec<String> = [
        "seed=7",
        "replications=500",
        "horizon_days=60",
        "people.fte_cost_usd_per_year=250000",
        "platforms.0.ops_fte=0.4",
        "platforms.1.spot_interruptions_per_node_hour=0.02",
        "platforms.1.warm_pool_window_s=1200",
        "platforms.2.service_premium_pct=25",
        "job_classes.0.checkpoint_interval_min=45",
        "job_classes.0.image_gb=22",
    ]
    .iter()
    .map(|e| e.to_string())
    .collect();
    let edited = apply_edits(&base, &edits).unwrap();
    let link = encode_link(&edited, DEFAULT);
    println!("{} characters: {link}", link.len());
    assert!(link.len() < 500, "{} characters", link.len());
    let back = decode_link(&format!("https://example.org/calc/#{link}"));
    assert_eq!(back.scenario, edited);
    assert!(back.notices.is_empty(), "{:?}", back.notices);
}

#[test]
fn the_worst_case_fits_in_2000_characters() {
    // Four platforms and sixteen job classes, every class different from the preset.
    let mut s = preset(DEFAULT).unwrap().scenario();
    s.platforms
        .push(Profile::GkeStandard.platform("GKE", "a2-highgpu-8g", "us-central1"));
    for i in 0..16 {
        let mut c = s.job_classes[0].clone();
        c.name = format!("Team {i} training");
        c.gpus_per_job = f64::from(1 + (i % 8) as u32);
        c.image_gb = 5.0 + i as f64;
        c.egress_gb_per_job = 1.5 * i as f64;
        c.checkpoint_interval_min = 10.0 + 5.0 * i as f64;
        c.restart_overhead_s = 60.0 * i as f64;
        if i == 0 {
            s.job_classes[0] = c;
        } else {
            s.job_classes.push(c);
        }
    }
    s.validate().unwrap();
    let link = encode_link(&s, DEFAULT);
    println!("worst case: {} characters", link.len());
    assert!(link.len() < 2_000, "{} characters", link.len());
    assert_eq!(decode_link(&link).scenario, s);
}

#[test]
fn golden_link_pins_the_format() {
    let mut s = preset(DEFAULT).unwrap().scenario();
    s.seed = 7;
    let link = encode_link(&s, DEFAULT);
    assert!(link.starts_with("v=1&p=batch-vs-eks-spot@3&d="), "{link}");
    // Written by hand: the payload a version-1 link carries for this scenario (version 2 of
    // the preset: p4d.24xlarge in us-east-1 at the 2026-H2 catalog's prices; version 3 adds its
    // warm-up, which the link need not carry).
    let payload = serde_json::json!({"c": {
        "seed": 7,
        "platforms.0.on_demand_usd_per_node_hour": 21.957642,
        "platforms.0.spot_usd_per_node_hour": 9.89785,
        "platforms.1.on_demand_usd_per_node_hour": 21.957642,
        "platforms.1.spot_usd_per_node_hour": 9.89785,
        "platforms.2.on_demand_usd_per_node_hour": 21.957642,
        "platforms.2.spot_usd_per_node_hour": 9.89785,
    }});
    let packed = miniz_oxide::deflate::compress_to_vec(payload.to_string().as_bytes(), 9);
    let golden = format!(
        "v=1&p=batch-vs-eks-spot@3&d={}",
        URL_SAFE_NO_PAD.encode(packed)
    );
    let decoded = decode_link(&golden);
    assert_eq!(decoded.scenario, s);
    assert!(decoded.notices.is_empty());
}

fn payload(json: &str) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9))
}

#[test]
fn malformed_links_open_with_defaults_and_say_what_was_ignored() {
    let default = preset(DEFAULT).unwrap().scenario();
    let good = encode_link(&default, DEFAULT);
    let cases: Vec<(String, &str)> = vec![
        (good[..good.len() - 12].to_string(), "truncated or damaged"),
        (
            "v=1&p=batch-vs-eks-spot@1&d=!!!not-base64***".into(),
            "not base64url",
        ),
        (
            format!("v=1&p=batch-vs-eks-spot@1&d={}", payload("not json")),
            "not valid JSON",
        ),
        (
            format!(
                "v=1&p=batch-vs-eks-spot@1&d={}",
                payload(r#"{"c":{"replications":"many"}}"#)
            ),
            "Ignored replications: scenario JSON: replications: invalid type",
        ),
        (
            format!(
                "v=1&p=batch-vs-eks-spot@1&d={}",
                payload(r#"{"c":{"platforms.0.ops_fte":-1}}"#)
            ),
            "Ignored platforms.0.ops_fte: platforms.0.ops_fte must be from 0 to 100; got -1",
        ),
        (
            format!(
                "v=1&p=batch-vs-eks-spot@1&d={}",
                payload(r#"{"c":{"platforms.7.ops_fte":1}}"#)
            ),
            "Ignored platforms.7.ops_fte: no such field",
        ),
        (
            format!("v=1&d={}", "A".repeat(20_000)),
            "more than the 16384",
        ),
        ("v=9&p=batch-vs-eks-spot@1".into(), "newer than this page"),
        ("v=x".into(), "version is not one this page knows"),
        (
            "v=1&p=<script>alert(1)</script>@1".into(),
            "unknown preset \"<script>alert(1)</script>\"",
        ),
        (
            "v=1&p=six-small-jobs@99".into(),
            "version \"99\" of preset six-small-jobs",
        ),
        (
            "v=1&<img src=x onerror=alert(1)>=1".into(),
            "unknown link part \"<img src\"",
        ),
    ];
    for (link, expected) in cases {
        let decoded = decode_link(&link);
        assert!(
            decoded.notices.iter().any(|n| n.contains(expected)),
            "{link:.60}: expected a notice containing {expected:?}, got {:?}",
            decoded.notices
        );
        decoded.scenario.validate().unwrap();
    }
    // A damaged change does not stop the good ones.
    let mixed = format!(
        "v=1&p=batch-vs-eks-spot@1&d={}",
        payload(r#"{"c":{"seed":99,"platforms.0.ops_fte":"lots"}}"#)
    );
    let decoded = decode_link(&mixed);
    assert_eq!(decoded.scenario.seed, 99);
    assert_eq!(decoded.notices.len(), 1);
    assert!(decode_link("").notices.is_empty());
    assert!(decode_link("v=1&p=six-small-jobs@1&embed=1").embed);
    // The embed view's chart: named in the link, the breakdown when not; an unknown one is
    // said and ignored.
    use gpucost::workbench::link::EmbedChart;
    let chosen = decode_link("v=1&p=six-small-jobs@1&embed=1&chart=timeline");
    assert_eq!(chosen.embed_chart, EmbedChart::Timeline);
    assert!(chosen.notices.is_empty(), "{:?}", chosen.notices);
    assert_eq!(
        decode_link("v=1&p=six-small-jobs@1&embed=1").embed_chart,
        EmbedChart::Breakdown
    );
    let unknown = decode_link("v=1&p=six-small-jobs@1&embed=1&chart=pie");
    assert_eq!(unknown.embed_chart, EmbedChart::Breakdown);
    assert_eq!(
        unknown.notices,
        ["Ignored the chart \"pie\": one of breakdown, distribution, timeline."]
    );
}

proptest! {
    /// Random edits of random presets come back exactly.
    #[test]
    fn random_scenarios_round_trip(
        which in 0usize..8,
        seed in any::<u64>(),
        fte in 0.0f64..100.0,
        rate in 0.0f64..2.0,
        util in 0.05f64..1.5,
        image in 0.0f64..100.0,
        hourly in prop::option::of(prop::collection::vec(0.0f64..5.0, 24)),
    ) {
        let p = &presets()[which % presets().len()];
        let mut s = p.scenario().with_offered_utilization(util).unwrap();
        s.seed = seed;
        s.platforms[0].ops_fte = fte;
        s.platforms.last_mut().unwrap().first_pool_mut().spot_interruptions_per_node_hour = rate;
        s.job_classes[0].image_gb = image;
        if let Some(hourly_weights) = hourly {
            // As fitted from a job history.
            let per_day = s.job_classes[0].arrivals.jobs_per_day();
            s.job_classes[0].arrivals = Arrivals::HourOfDay {
                per_day,
                hourly_weights,
                weekday_weights: Some(vec![1.0, 1.0, 1.0, 1.0, 1.0, 0.25, 0.25]),
            };
        }
        prop_assume!(s.validate().is_ok());
        let back = decode_link(&encode_link(&s, p.name));
        prop_assert!(back.notices.is_empty(), "{:?}", back.notices);
        prop_assert_eq!(back.scenario, s);
    }
}

#[test]
fn a_links_decision_map_opens_with_it_and_a_bad_one_says_what_was_ignored() {
    let link = encode_link(&preset(DEFAULT).unwrap().scenario(), DEFAULT);
    let read = decode_link(&format!("{link}&map=fte_cost:0:300000,egress_price,tco"));
    assert!(read.notices.is_empty(), "{:?}", read.notices);
    let map = read.map.expect("the map's settings");
    assert_eq!(
        (map.x.knob.as_str(), map.x.to, map.y.knob.as_str(), map.y.to),
        ("fte_cost", 300_000.0, "egress_price", 0.25)
    );
    assert_eq!(
        map.link_part(),
        "map=fte_cost:0:300000,egress_price:0:0.25,tco"
    );
    let bad = decode_link(&format!("{link}&map=warp_factor,fte_cost"));
    assert_eq!(bad.map, None);
    assert_eq!(
        bad.notices,
        ["Ignored the decision map's settings: \"warp_factor\" is not an input the map can vary."]
    );
    // The scenario itself is read as without the part.
    assert_eq!(bad.scenario, decode_link(&link).scenario);
}
