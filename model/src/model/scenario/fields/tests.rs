use super::*;
use crate::model::serving::llm::architectures::Architecture;
use serde_json::Value as Json;

/// Scenarios whose documents hold every leaf there is: each arrival kind, each duration
/// distribution, a failure point.
fn samples() -> Vec<Scenario> {
    let arrivals = [
        Arrivals::Steady { per_day: 3.0 },
        Arrivals::Poisson { per_day: 4.0 },
        Arrivals::Bursts {
            bursts_per_day: 2.0,
            jobs_per_burst: 5,
        },
        Arrivals::HourOfDay {
            per_day: 6.0,
            hourly_weights: vec![1.0; 24],
            weekday_weights: Some(vec![1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5]),
        },
    ];
    let durations = [
        Duration::Fixed { hours: 2.0 },
        Duration::LogNormal {
            median_hours: 3.0,
            p90_hours: 9.0,
        },
        Duration::Exponential { mean_hours: 4.0 },
        Duration::Empirical {
            quantile_hours: vec![0.1, 0.5, 2.0, 30.0],
            probabilities: vec![0.0, 0.5, 0.9, 1.0],
        },
    ];
    let mut out = Vec::new();
    for (i, arrivals) in arrivals.into_iter().enumerate() {
        let mut s = Scenario::default();
        let class = &mut s.job_classes[0];
        class.arrivals = arrivals;
        class.duration = durations[i % durations.len()].clone();
        class.failures.at_share = Some(0.5);
        out.push(s);
    }
    // A warm-up (absent from a document at 0).
    out[1].warmup_days = 3.0;
    // A service with every optional part, on a platform with serving settings.
    out[0].services.push(Service {
        traffic: super::super::ServiceTraffic {
            hourly_profile: Some(vec![1.0; 24]),
            spikes: Some(ServiceSpikes {
                per_month: 2.0,
                factor: 10.0,
                duration_min: 60.0,
            }),
            ..Default::default()
        },
        ..Service::default()
    });
    // A service whose traffic is a replay.
    out[1].services.push(Service {
        name: "Replayed".into(),
        traffic: super::super::ServiceTraffic {
            mean_rps: 0.05,
            replay: Some(super::super::TrafficReplay {
                per_minute: vec![3.0, 0.0, 6.0],
            }),
            ..Default::default()
        },
        ..Service::default()
    });
    // An LLM service of a custom shape (every field of `llm`).
    out[1].services.push(Service {
        llm: Some(super::super::Llm {
            model: "custom".into(),
            custom: Some(Architecture {
                experts: 8,
                experts_per_token: 2,
                ..crate::model::serving::llm::architectures::known("llama-3.1-8b")
                    .unwrap()
                    .architecture
            }),
            ..super::super::Llm::default()
        }),
        ..Service::default()
    });
    out[0].platforms[0].serving = Some(Serving {
        shares_nodes: Some(true),
        shares_nodes_with_training: true,
        ..Serving::default()
    });
    // Teams: a class's team, a policy with every part, preemption with a grace period.
    out[3].job_classes[0].team = "research".into();
    out[3].platforms[0].teams = vec![super::super::TeamPolicy {
        team: "research".into(),
        nominal_gpus: Some(16.0),
        borrowing_limit_gpus: Some(8.0),
        priority: 5,
    }];
    out[3].showback.shared_costs = SharedCosts::ByCost;
    out[3].platforms[0].preemption = super::super::Preemption {
        reclaim_quota: true,
        lower_priority: true,
        grace_period_s: 30.0,
        ..Default::default()
    };
    // Retries with backoff, a commitment with its terms, one-off costs, the price of
    // waiting, the payback's current platform and the verdict's SLO allowance.
    let failures = &mut out[2].job_classes[0].failures;
    failures.backoff_s = 60.0;
    failures.backoff_multiplier = 3.0;
    failures.backoff_max_s = 900.0;
    out[2].job_classes[0].people_blocked_per_job = 3.0;
    out[2].people.waiting_usd_per_hour = 100.0;
    let purchase = &mut out[2].platforms[0].first_pool_mut().purchase;
    purchase.term_years = 3;
    purchase.payment = super::super::commitment::Payment::AllUpfront;
    purchase.commitment = super::super::commitment::Commitment::SavingsPlan;
    out[2].platforms[0].one_off = super::super::OneOff {
        engineer_months: 6.0,
        usd: 10_000.0,
    };
    out[2].payback.current = out[2].platforms[0].name.clone();
    out[2].verdict.slo_allowance_pct = 1.0;
    out[2].verdict.count_people = false;
    // Egress by the cloud's tiers.
    out[2].platforms[0].egress_tiers = EgressTiers::AwsInternet;
    out[2].platforms[0].interconnect = Interconnect::Efa;
    out[2].platforms[0].region = "us-east-1".into();
    out[2].platforms[0].data_path = DataPath::NatGateway;
    out[2].platforms[0].staging = crate::model::storage::DataStaging {
        storage: StorageProduct::FsxLustrePersistent250,
        capacity_gib: 4_800.0,
        ..Default::default()
    };
    out[2].data_region = "us-west-2".into();
    out[2].platforms[0].first_pool_mut().spot_reclaims = super::super::node_pool::SpotReclaims {
        share_of_rate: 0.5,
        fraction_of_nodes: 0.3,
        capacity_drought_min: 30.0,
        fall_back_to_on_demand: true,
    };
    out[2].platforms[0].compact_placement = true;
    out[2].platforms[0].orchestration = super::super::Orchestration {
        usd_per_1000_transitions: 0.025,
        free_transitions_per_month: 4_000.0,
    };
    // A pipeline of two stages, its runs in bursts, with people waiting on each run.
    let stage = |name: &str, after: &[&str]| JobClass {
        name: name.into(),
        after: after.iter().map(|a| a.to_string()).collect(),
        ..JobClass::default()
    };
    out[1].pipelines.push(Pipeline {
        name: "Nightly".into(),
        arrivals: Arrivals::Bursts {
            bursts_per_day: 1.0,
            jobs_per_burst: 3,
        },
        stages: vec![stage("prepare", &[]), stage("train", &["prepare"])],
        people_blocked_per_job: 2.0,
    });
    out[3].pipelines.push(Pipeline {
        stages: vec![stage("only", &[])],
        ..Pipeline::default()
    });
    // Each way of sharing GPUs.
    let gpu = out[1].platforms[0].first_pool().gpu_model.clone();
    out[1].platforms[0].first_pool_mut().gpu_sharing = GpuSharing::Mig {
        layout: gpu_sharing::standard_layout(&gpu, "7x1g").expect("a GPU with MIG"),
    };
    out[2].platforms[0].first_pool_mut().gpu_sharing = GpuSharing::TimeSlicing {
        context_switch_loss: 0.05,
    };
    // A hosted API with every optional price and provisioned throughput, beside a service.
    let mut api = crate::model::platforms::Profile::hosted_platform(
        "Foundry",
        "azure_foundry",
        "llama-3.1-70b",
    )
    .expect("Azure prices Llama 3.1 70B");
    if let Some(a) = api.hosted_api.as_mut() {
        a.cached_input_usd_per_m = Some(0.2);
        a.batch_input_usd_per_m = Some(0.35);
        a.batch_output_usd_per_m = Some(0.35);
    }
    out[0].platforms.push(api);
    out
}

/// Every leaf of `doc` below `at`, with its value: numbers, switches and strings, and a
/// list of numbers as one leaf.
fn leaves(doc: &Json, at: &str, out: &mut Vec<(String, Json)>) {
    let join = |k: &str| {
        if at.is_empty() {
            k.to_string()
        } else {
            format!("{at}.{k}")
        }
    };
    match doc {
        // A MIG layout (profile → count) is one choice.
        Json::Object(_) if at == "gpu_sharing.layout" => out.push((at.to_string(), doc.clone())),
        Json::Object(map) => map.iter().for_each(|(k, v)| leaves(v, &join(k), out)),
        _ => out.push((at.to_string(), doc.clone())),
    }
}

fn check_table<T>(table: &[Field<T>], item: &T, doc: &Json, seen: &mut Vec<&'static str>) {
    let mut found = Vec::new();
    leaves(doc, "", &mut found);
    for (path, value) in found {
        let rows: Vec<_> = table.iter().filter(|f| f.path == path).collect();
        assert_eq!(rows.len(), 1, "{path}: {} rows", rows.len());
        let row = rows[0];
        seen.push(row.path);
        match (row.value, &value) {
            (Value::Number { get, .. }, Json::Number(n)) => {
                assert_eq!(get(item), n.as_f64(), "{path} reads another value");
            }
            (Value::Flag { get, .. }, Json::Bool(b)) => assert_eq!(get(item), *b, "{path}"),
            (Value::Choice { get, choices, .. }, Json::String(s)) => {
                assert_eq!(get(item), s, "{path}");
                assert!(choices.iter().any(|c| c.0 == s), "{path}: {s} is no choice");
            }
            (Value::Choice { get, choices, .. }, Json::Object(_)) => {
                assert!(choices.iter().any(|c| c.0 == get(item)), "{path}");
            }
            (Value::Name { get } | Value::Id { get }, Json::String(s)) => {
                assert_eq!(get(item), s, "{path}")
            }
            (Value::Numbers { get, .. }, Json::Array(list)) => {
                let want: Vec<f64> = list.iter().filter_map(Json::as_f64).collect();
                assert_eq!(get(item), Some(want.as_slice()), "{path}");
            }
            (_, v) => panic!("{path}: the row's kind does not hold {v}"),
        }
    }
}

#[test]
fn every_leaf_a_user_can_edit_has_exactly_one_row() {
    let mut seen = Vec::new();
    for s in samples() {
        let doc = serde_json::to_value(&s).unwrap();
        let mut top = doc.clone();
        let map = top.as_object_mut().unwrap();
        let classes = map.remove("job_classes").unwrap();
        let platforms = map.remove("platforms").unwrap();
        if let Some(services) = map.remove("services") {
            for (service, doc) in s.services.iter().zip(services.as_array().unwrap()) {
                check_table(SERVICE_FIELDS, service, doc, &mut seen);
            }
        }
        if let Some(pipelines) = map.remove("pipelines") {
            for (pipeline, doc) in s.pipelines.iter().zip(pipelines.as_array().unwrap()) {
                let mut doc = doc.clone();
                let stages = doc.as_object_mut().unwrap().remove("stages").unwrap();
                check_table(PIPELINE_FIELDS, pipeline, &doc, &mut seen);
                for (stage, doc) in pipeline.stages.iter().zip(stages.as_array().unwrap()) {
                    // Its `after` is the pipeline's graph, edited and checked as one
                    // (`Pipeline::check_graph`), not a field.
                    let mut doc = doc.clone();
                    doc.as_object_mut().unwrap().remove("after");
                    check_table(JOB_CLASS_FIELDS, stage, &doc, &mut seen);
                }
            }
        }
        check_table(SCENARIO_FIELDS, &s, &top, &mut seen);
        for (class, doc) in s.job_classes.iter().zip(classes.as_array().unwrap()) {
            check_table(JOB_CLASS_FIELDS, class, doc, &mut seen);
        }
        for (platform, doc) in s.platforms.iter().zip(platforms.as_array().unwrap()) {
            let mut doc = doc.clone();
            let map = doc.as_object_mut().unwrap();
            let pools = map.remove("node_pools").unwrap();
            for (pool, doc) in platform.node_pools.iter().zip(pools.as_array().unwrap()) {
                check_table(NODE_POOL_FIELDS, pool, doc, &mut seen);
            }
            if let Some(teams) = map.remove("teams") {
                for (team, doc) in platform.teams.iter().zip(teams.as_array().unwrap()) {
                    check_table(TEAM_POLICY_FIELDS, team, doc, &mut seen);
                }
            }
            if let Some(api) = map.remove("hosted_api") {
                let hosted = serde_json::json!({ "hosted_api": api });
                check_table(HOSTED_API_FIELDS, platform, &hosted, &mut seen);
            }
            check_table(PLATFORM_FIELDS, platform, &doc, &mut seen);
        }
    }
    // And no row names a field the documents do not have.
    let paths = SCENARIO_FIELDS.iter().map(|f| f.path);
    let paths = paths.chain(JOB_CLASS_FIELDS.iter().map(|f| f.path));
    let paths = paths.chain(SERVICE_FIELDS.iter().map(|f| f.path));
    let paths = paths.chain(NODE_POOL_FIELDS.iter().map(|f| f.path));
    let paths = paths.chain(TEAM_POLICY_FIELDS.iter().map(|f| f.path));
    let paths = paths.chain(PIPELINE_FIELDS.iter().map(|f| f.path));
    let paths = paths.chain(HOSTED_API_FIELDS.iter().map(|f| f.path));
    for path in paths.chain(PLATFORM_FIELDS.iter().map(|f| f.path)) {
        assert!(seen.contains(&path), "{path} is in no scenario document");
    }
}

#[test]
fn the_region_choices_are_the_catalogs_regions() {
    let listed: Vec<&str> = REGION_CHOICES[1..].iter().map(|(key, _)| *key).collect();
    let catalog: Vec<&str> = crate::model::transfer::regions()
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert_eq!(listed, catalog);
}

#[test]
fn each_setter_writes_the_field_its_row_names() {
    for s in samples() {
        for row in JOB_CLASS_FIELDS {
            let mut class = s.job_classes[0].clone();
            if let Value::Number { get, set } = row.value {
                let Some(_) = get(&class) else { continue };
                let v = (row.min + row.max / 3.0).round().max(row.min).min(row.max);
                set(&mut class, v);
                assert_eq!(get(&class), Some(v), "{}", row.path);
                let doc = serde_json::to_value(&class).unwrap();
                let at = row.path.split('.').fold(&doc, |d, k| &d[k]);
                assert_eq!(at.as_f64(), Some(v), "{} writes elsewhere", row.path);
            }
        }
        // A platform's own rows on its first platform, a hosted API's on the sample's.
        let hosted = s.platforms.iter().find(|p| p.hosted_api.is_some());
        let platforms = PLATFORM_FIELDS
            .iter()
            .map(|row| (row, &s.platforms[0]))
            .chain(HOSTED_API_FIELDS.iter().zip(hosted.into_iter().cycle()));
        for (row, p) in platforms {
            let mut p = p.clone();
            if let Value::Number { get, set } = row.value {
                let Some(_) = get(&p) else { continue };
                let v = (row.min + row.max / 3.0).round().max(row.min).min(row.max);
                set(&mut p, v);
                let doc = serde_json::to_value(&p).unwrap();
                let at = row.path.split('.').fold(&doc, |d, k| &d[k]);
                // An optional object left at its defaults is not written.
                let omitted = at.is_null() && get(&Platform::default()) == Some(v);
                assert!(
                    omitted || at.as_f64() == Some(v),
                    "{} writes elsewhere",
                    row.path
                );
            }
        }
        for row in NODE_POOL_FIELDS {
            let mut p = s.platforms[0].first_pool().clone();
            if let Value::Number { get, set } = row.value {
                let Some(_) = get(&p) else { continue };
                let v = (row.min + row.max / 3.0).round().max(row.min).min(row.max);
                set(&mut p, v);
                let doc = serde_json::to_value(&p).unwrap();
                let at = row.path.split('.').fold(&doc, |d, k| &d[k]);
                // An optional object left at its defaults is not written.
                let omitted = at.is_null() && get(&NodePool::default()) == Some(v);
                assert!(
                    omitted || at.as_f64() == Some(v),
                    "{} writes elsewhere",
                    row.path
                );
            }
        }
    }
}
