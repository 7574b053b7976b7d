//! A hosted LLM API as a platform, against hand cases: a month of tokens billed at the list
//! price, provisioned units billed used or not, a rate limit refusing a known share of a spike
//! (dropped, or retried a minute later), the same requests as every platform of nodes sees,
//! and refusals by name. Replayed traffic makes each minute's requests exact, so each figure
//! is worked out by hand.

use gpucost::model::analytic::estimate_platform;
use gpucost::model::cost_category::Category;
use gpucost::model::hosted_api::ProvisionedTerm;
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::platforms::Profile;
use gpucost::model::scenario::{ApiBilling, Scenario, Tokens, TrafficReplay};
use gpucost::model::sim::engine::simulate_platform;
use gpucost::workbench::presets::preset;

/// One LLM service of exactly `input` and `output` tokens a request (median = p90: no
/// spread), its requests replayed minute by minute from `per_minute` over a day, on Bedrock
/// per token (its list price, $0.72 a million either way) with the quota `rpm` (0: none).
fn on_bedrock(per_minute: Vec<f64>, input: f64, output: f64, rpm: f64) -> Scenario {
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    let mut api = Profile::hosted_platform("Bedrock", "bedrock", "llama-3.1-70b").unwrap();
    let a = api.hosted_api.as_mut().unwrap();
    a.requests_per_minute = rpm;
    a.tokens_per_minute = 0.0;
    s.platforms = vec![api];
    s.horizon_days = 1.0;
    s.replications = 2;
    let service = &mut s.services[0];
    let replay = TrafficReplay { per_minute };
    service.traffic.mean_rps = replay.mean_rps();
    service.traffic.hourly_profile = None;
    service.traffic.replay = Some(replay);
    let llm = service.llm.as_mut().unwrap();
    llm.input_tokens = Tokens {
        median: input,
        p90: input,
    };
    llm.output_tokens = Tokens {
        median: output,
        p90: output,
    };
    s
}

/// A day of `n` requests a minute, with `spike` in minute 1 where given.
fn minutes(n: f64, spike: Option<f64>) -> Vec<f64> {
    let mut v = vec![n; 1_440];
    if let Some(k) = spike {
        v[1] = k;
    }
    v
}

#[test]
fn a_day_of_tokens_costs_the_list_price() {
    // 100 requests a minute for a day: 144,000 requests of 1,000 input and 200 output tokens,
    // 172.8 million tokens at $0.72 a million: $124.416 for the day, its 24/730 of a month.
    let s = on_bedrock(minutes(100.0, None), 1_000.0, 200.0, 0.0);
    s.validate().unwrap();
    let (o, _) = simulate_platform(&s, 0, 0, &[], false);
    let service = &o.services[0];
    assert_eq!(service.requests, 144_000.0);
    assert!(
        (service.api_usd - 124.416).abs() < 1e-6,
        "{}",
        service.api_usd
    );
    let month = o.breakdown_usd[Category::ApiUsage];
    assert!((month - 124.416 * 730.0 / 24.0).abs() < 1e-6, "{month}");
    // No nodes, no people: the bill is the platform's whole cost; $124.416 over 28.8 million
    // output tokens is $4.32 a million (both directions billed at $0.72).
    assert!((o.monthly_tco_usd - month).abs() < 1e-6);
    let per_m = o.usd_per_million_output_tokens.unwrap();
    assert!((per_m - 4.32).abs() < 1e-9, "{per_m}");
    assert_eq!(o.paid_gpu_seconds, 0.0);
    // Half of it through the batch API at half price: three quarters of the bill.
    let mut half = s.clone();
    half.platforms[0].hosted_api.as_mut().unwrap().batch_share = 0.5;
    let (o, _) = simulate_platform(&half, 0, 0, &[], false);
    assert!((o.services[0].api_usd - 0.75 * 124.416).abs() < 1e-6);
    // The instant estimate bills the same month.
    let e = estimate_platform(&s, 0);
    assert!(
        (e.monthly_tco_usd - month).abs() < 1e-6 * month,
        "{}",
        e.monthly_tco_usd
    );
}

#[test]
fn a_spike_over_the_quota_is_refused_in_the_share_it_exceeds() {
    // 100 requests a minute and a minute of 1,000 against 400 a minute, dropped at once:
    // 600 refused and dropped (60 % of the spike), so that minute's TTFT p95 is never served
    // and it misses its objective; the other 1,439 minutes are within the quota.
    let mut s = on_bedrock(minutes(100.0, Some(1_000.0)), 1_000.0, 200.0, 400.0);
    s.platforms[0].hosted_api.as_mut().unwrap().attempts = 1;
    s.validate().unwrap();
    let (o, _) = simulate_platform(&s, 0, 0, &[], false);
    let service = &o.services[0];
    assert_eq!(service.requests, 144_900.0);
    assert!((service.requests_refused - 600.0).abs() < 1e-9);
    assert!((service.requests_dropped - 600.0).abs() < 1e-9);
    assert_eq!(service.slo_violation_minutes, 1.0);
    // The page's day chart draws the same minutes, the quota as its capacity line.
    let day = gpucost::model::serving::platform::service_day(&s, 0, 0, 0);
    assert_eq!(day.minutes.len(), 1_440);
    assert_eq!(
        (day.minutes[1].arrived, day.minutes[1].dropped),
        (1_000.0, 600.0)
    );
    assert!(day.minutes[1].p95_ms.is_infinite() && day.minutes[2].p95_ms == 600.0);
    assert_eq!(day.capacity_rps * 60.0, 400.0);
    // Dropped requests are not billed: 144,300 requests × 1,200 tokens × $0.72 a million.
    assert!((service.api_usd - 144_300.0 * 1_200.0 * 0.72e-6).abs() < 1e-6);
    // Retried 20 s later, 3 attempts in all: back in the next minute (700 asking for 400:
    // 300 refused, 1,800/7 of them on their second attempt), all in by the third. 900 429s,
    // none dropped; the two minutes whose requests are mostly retries wait a minute more
    // than the stated TTFT and miss the 2 s objective.
    let mut retried = s.clone();
    retried.platforms[0].hosted_api.as_mut().unwrap().attempts = 3;
    let (o, _) = simulate_platform(&retried, 0, 0, &[], false);
    let service = &o.services[0];
    assert!((service.requests_refused - 900.0).abs() < 1e-9);
    assert!(service.requests_dropped.abs() < 1e-9);
    assert_eq!(service.slo_violation_minutes, 2.0);
    // Over the day the retried share is far under 5 %: the day's TTFT p95 is the stated one.
    let llm = service.llm.unwrap();
    assert_eq!(llm.ttft_p95_ms, Some(600.0));
}

#[test]
fn provisioned_units_cost_their_term_used_or_not() {
    // 200 PTUs on a one-month term: 200 × $260 = $52,000 a month, whatever the traffic.
    // They serve 200 × 8,450 = 1.69 million input-token equivalents a minute; a request of
    // 1,000 in and 250 out counts 1,000 + 4 × 250 = 2,000, so 845 a minute get in: of 900 a
    // minute, 55 are refused each minute (dropped, with one attempt).
    let mut s = on_bedrock(minutes(900.0, None), 1_000.0, 250.0, 0.0);
    let mut azure = Profile::hosted_platform("Foundry", "azure_foundry", "llama-3.1-70b").unwrap();
    let a = azure.hosted_api.as_mut().unwrap();
    a.billing = ApiBilling::Provisioned;
    a.attempts = 1;
    let p = a.provisioned.as_mut().unwrap();
    p.units = 200;
    p.term = ProvisionedTerm::OneMonth;
    s.platforms = vec![azure];
    s.validate().unwrap();
    let (o, _) = simulate_platform(&s, 0, 0, &[], false);
    assert!((o.breakdown_usd[Category::ApiUsage] - 52_000.0).abs() < 1e-6);
    let service = &o.services[0];
    assert!((service.requests_dropped - 55.0 * 1_440.0).abs() < 1e-6);
    // 55 of 900 dropped is over 5 % every minute: every minute misses its TTFT objective.
    assert_eq!(service.slo_violation_minutes, 1_440.0);
    // Units off the step, or a term the provider does not sell, are refused by name.
    let mut off = s.clone();
    off.platforms[0]
        .hosted_api
        .as_mut()
        .unwrap()
        .provisioned
        .as_mut()
        .unwrap()
        .units = 150;
    let err = off.validate().unwrap_err().to_string();
    assert!(
        err.contains("platforms.0.hosted_api.provisioned.units") && err.contains("steps of 100"),
        "{err}"
    );
}

#[test]
fn every_platform_sees_the_same_requests() {
    // The self-host-vs-API preset: the hosted platforms' requests are those the EKS and
    // SageMaker simulations served, replication by replication (one stream per service).
    let mut s = preset("llm-70b-api-vs-self-host").unwrap().scenario();
    s.horizon_days = 2.0;
    for r in 0..3 {
        let requests: Vec<f64> = (0..s.platforms.len())
            .map(|p| simulate_platform(&s, p, r, &[], false).0.services[0].requests)
            .collect();
        assert!(requests.windows(2).all(|w| w[0] == w[1]), "{requests:?}");
    }
}

#[test]
fn the_self_host_vs_api_preset_gives_a_verdict_in_dollars_per_million_tokens() {
    let mut s = preset("llm-70b-api-vs-self-host").unwrap().scenario();
    s.replications = 4;
    s.horizon_days = 3.0;
    let mut run = MonteCarlo::new(s.clone()).unwrap();
    run.run_to_end();
    let results = run.results();
    let basis = gpucost::workbench::verdict_basis::VerdictBasis::of(&s);
    let verdict = gpucost::workbench::verdict::verdict(&results, &basis).sentence;
    assert!(verdict.contains("per million output tokens"), "{verdict}");
    for p in &results.platforms {
        let llm = p.services[0].llm.as_ref().unwrap();
        assert!(
            llm.ttft_p95_ms.is_some() && llm.tpot_p95_ms.is_some(),
            "{}",
            p.name
        );
    }
}

#[test]
fn a_hosted_api_refuses_what_it_cannot_run_by_name() {
    let base = on_bedrock(minutes(10.0, None), 1_000.0, 200.0, 0.0);
    // Training jobs need nodes.
    let mut jobs = base.clone();
    jobs.job_classes = Scenario::default().job_classes;
    let err = jobs.validate().unwrap_err().to_string();
    assert!(
        err.contains("job_classes") && err.contains("hosted API"),
        "{err}"
    );
    // A service that is not an LLM.
    let mut plain = base.clone();
    plain.services[0].llm = None;
    let err = plain.validate().unwrap_err().to_string();
    assert!(err.contains("services.0.llm"), "{err}");
    // Two models on one price list.
    let mut two = base.clone();
    let mut other = two.services[0].clone();
    other.name = "small".into();
    other.llm.as_mut().unwrap().model = "llama-3.1-8b".into();
    two.services.push(other);
    let err = two.validate().unwrap_err().to_string();
    assert!(err.contains("services.1.llm.model"), "{err}");
    // A cached share with no cache price.
    let mut cached = base.clone();
    cached.platforms[0]
        .hosted_api
        .as_mut()
        .unwrap()
        .cached_input_share = 0.3;
    let err = cached.validate().unwrap_err().to_string();
    assert!(err.contains("cached_input_share"), "{err}");
    // Node pools on a hosted API.
    let mut pools = base.clone();
    pools.platforms[0].node_pools = Scenario::default().platforms[0].node_pools.clone();
    let err = pools.validate().unwrap_err().to_string();
    assert!(err.contains("platforms.0.node_pools"), "{err}");
    // A document naming the profile without its settings.
    let mut bare = base.clone();
    bare.platforms[0].hosted_api = None;
    let err = bare.validate().unwrap_err().to_string();
    assert!(err.contains("platforms.0.hosted_api"), "{err}");
}

#[test]
fn the_tuner_buys_provisioned_throughput_where_it_is_cheaper_and_sizes_it() {
    // 3,800 requests a minute, steady (replayed), of 2,000 input and 50 output tokens, on
    // Azure AI Foundry with no quota. Per token at $0.71 a million: 3,800 × 2,050 tokens ×
    // 43,800 minutes ≈ $242,000 a month. Provisioned: a request counts 2,000 + 4 × 50 = 2,200
    // input tokens against 8,450 a minute per PTU, so 3,800 a minute need 989.3 PTUs: 1,000
    // (the step is 100) on a one-year term at $221 a PTU-month, $221,000. Fewer refuse
    // requests every minute, which the as-typed platform never does: the tuner must keep
    // them all served, so 1,000 is the only answer.
    let mut s = on_bedrock(minutes(3_800.0, None), 2_000.0, 50.0, 0.0);
    s.platforms =
        vec![Profile::hosted_platform("Foundry", "azure_foundry", "llama-3.1-70b").unwrap()];
    s.replications = 2;
    let report = gpucost::workbench::tune::TuneRun::new(&s, Default::default())
        .unwrap()
        .run_to_end_on(2);
    let api = report.scenario.platforms[0].hosted_api.as_ref().unwrap();
    let p = api.provisioned.as_ref().unwrap();
    assert_eq!(
        (api.billing, p.units, p.term),
        (ApiBilling::Provisioned, 1_000, ProvisionedTerm::OneYear),
        "{:?}",
        report.platforms[0]
    );
    // Where tokens are output-heavy, the fourfold weight makes provisioned dearer: per token
    // stays (2,000 in and 500 out: 4,000 a request against 2,500 billed).
    let mut heavy = on_bedrock(minutes(2_000.0, None), 2_000.0, 500.0, 0.0);
    heavy.platforms = s.platforms.clone();
    let report = gpucost::workbench::tune::TuneRun::new(&heavy, Default::default())
        .unwrap()
        .run_to_end_on(2);
    let api = report.scenario.platforms[0].hosted_api.as_ref().unwrap();
    assert_eq!(api.billing, ApiBilling::PerToken);
}

#[test]
fn a_hosted_api_document_needs_its_prices_and_no_pools() {
    // Written by hand: the provider and its prices, nothing else of the platform. It gets no
    // node pool, and the defaults of the rest (no quota, 3 attempts, the stated latencies).
    let mut doc =
        serde_json::to_value(on_bedrock(minutes(10.0, None), 1_000.0, 200.0, 0.0)).unwrap();
    doc["platforms"] = serde_json::json!([{
        "name": "Together",
        "profile": "hosted_api",
        "hosted_api": { "provider": "together", "input_usd_per_m": 0.88, "output_usd_per_m": 0.88 }
    }]);
    let s = Scenario::from_json(&doc.to_string()).unwrap();
    s.validate().unwrap();
    let p = &s.platforms[0];
    assert!(p.node_pools.is_empty());
    // Not a platform of nodes' defaults: no people, fees or storage.
    assert_eq!(
        (p.ops_fte, p.fee_usd_per_cluster_hour, p.storage_gb),
        (0.0, 0.0, 0.0)
    );
    let api = p.hosted_api.as_ref().unwrap();
    assert_eq!(
        (api.attempts, api.ttft_p95_ms, api.batch_share),
        (3, 600.0, 0.0)
    );
    assert_eq!(api.batch_input_usd_per_m, None);
    // A node pool's field on it is refused by name, not dropped.
    let mut pooled = doc.clone();
    pooled["platforms"][0]["instance_type"] = serde_json::json!("p5.48xlarge");
    let err = Scenario::from_json(&pooled.to_string())
        .unwrap_err()
        .to_string();
    assert!(err.contains("instance_type"), "{err}");
    // Without its prices it is refused, never priced as another provider.
    doc["platforms"][0]["hosted_api"] = serde_json::json!({ "provider": "together" });
    let err = Scenario::from_json(&doc.to_string())
        .unwrap_err()
        .to_string();
    assert!(err.contains("input_usd_per_m"), "{err}");
}

#[test]
fn a_link_carries_an_api_in_place_of_a_platform_of_nodes() {
    // llm-70b-chat with its SageMaker endpoint replaced by Bedrock, provisioned nothing: the
    // link reopens the same scenario, with no notice.
    use gpucost::workbench::link::{decode_link, encode_link};
    let mut s = preset("llm-70b-chat").unwrap().scenario();
    s.platforms[1] = Profile::hosted_platform("Bedrock", "bedrock", "llama-3.1-70b").unwrap();
    s.validate().unwrap();
    let read = decode_link(&encode_link(&s, "llm-70b-chat"));
    assert!(read.notices.is_empty(), "{:?}", read.notices);
    assert_eq!(read.scenario, s);
    // And back: the API preset with its Bedrock platform made EKS again.
    let mut t = preset("llm-70b-api-vs-self-host").unwrap().scenario();
    t.platforms[2] = t.platforms[0].clone();
    t.platforms[2].name = "EKS again".into();
    let read = decode_link(&encode_link(&t, "llm-70b-api-vs-self-host"));
    assert!(read.notices.is_empty(), "{:?}", read.notices);
    assert_eq!(read.scenario, t);
}

#[test]
fn two_services_share_the_quota_by_their_demand() {
    // Two services of the same model on one quota of 400 a minute, at 100 and 50 requests a
    // minute, the first with a spike minute of 900, retried up to 5 times. By hand: minute 1
    // asks 950, 550 refused; minute 2 asks 150 + 550, 300 refused; minute 3 asks 150 + 300,
    // 50 refused; minute 4 asks 200, all in. 900 429s, none dropped, and each service is
    // served exactly what it sent (none of the other's retries).
    let mut s = on_bedrock(minutes(100.0, Some(900.0)), 1_000.0, 200.0, 400.0);
    s.platforms[0].hosted_api.as_mut().unwrap().attempts = 5;
    let mut other = s.services[0].clone();
    other.name = "second".into();
    let replay = TrafficReplay {
        per_minute: minutes(50.0, None),
    };
    other.traffic.mean_rps = replay.mean_rps();
    other.traffic.replay = Some(replay);
    s.services.push(other);
    s.validate().unwrap();
    let (o, _) = simulate_platform(&s, 0, 0, &[], false);
    for service in &o.services {
        let served = service.llm.unwrap().output_tokens / 200.0;
        assert!(
            (served - service.requests).abs() < 1e-6,
            "{}: {served} served of {}",
            service.name,
            service.requests
        );
        assert!(service.requests_dropped.abs() < 1e-9, "{}", service.name);
        assert!(service.requests_queued_at_horizon.abs() < 1e-9);
    }
    let refused: f64 = o.services.iter().map(|s| s.requests_refused).sum();
    assert!((refused - 900.0).abs() < 1e-9, "{refused}");
}
