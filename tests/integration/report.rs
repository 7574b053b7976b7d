//! The CSV export holds exactly the numbers of the JSON report, row by row.

use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::output::Output;
use gpucost::workbench::presets::{preset, DEFAULT};
use gpucost::workbench::report::{report, report_csv, CSV_HEADER};

#[test]
fn csv_rows_are_the_json_report_numbers() {
    check_csv(preset(DEFAULT).unwrap().scenario(), 0);
    // With the price of waiting and a pipeline: 1 + 5 rows more per platform, the cost per
    // completed run and its cloud bill, and a comparison on each with each other platform.
    let mut pipeline = preset("pharma-14-stage-pipeline").unwrap().scenario();
    pipeline.people.waiting_usd_per_hour = 100.0;
    let platforms = pipeline.platforms.len();
    check_csv(pipeline, platforms * (6 + 2 + 2 * (platforms - 1)));
    // Replicas on the training nodes of one of the two platforms: the jobs they preempt and
    // the GPU-hours they found no node for; with a service, the cost per million requests,
    // its cloud bill and a comparison on each.
    check_csv(
        preset("one-cluster-for-both").unwrap().scenario(),
        2 + 2 * (2 + 2),
    );
}

/// Every CSV row of `scenario`'s report (8 replications) is its JSON number; `extra` rows in
/// all beyond the summaries, categories and comparisons.
fn check_csv(mut scenario: gpucost::model::scenario::Scenario, extra: usize) {
    scenario.replications = 8;
    let mut run = MonteCarlo::new(scenario.clone()).unwrap();
    run.run_batch(8);
    let results = run.results();
    let json = serde_json::to_value(report(&scenario, &results)).unwrap();
    let csv = report_csv(&scenario, &results);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(
        reader
            .headers()
            .unwrap()
            .iter()
            .collect::<Vec<_>>()
            .join(","),
        CSV_HEADER
    );
    let platforms = json["platforms"].as_array().unwrap();
    let pair = |a: &str, b: &str| {
        json["paired"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["a"] == a && c["b"] == b)
            .expect("pair")
            .clone()
    };
    let n = platforms.len();
    let mut rows = 0;
    let mut metrics = std::collections::BTreeSet::new();
    let mut units = std::collections::BTreeMap::new();
    for record in reader.records() {
        let r = record.unwrap();
        rows += 1;
        let p = platforms
            .iter()
            .find(|p| p["name"] == r[0])
            .expect("platform");
        let number =
            |i: usize| -> Option<f64> { (!r[i].is_empty()).then(|| r[i].parse().unwrap()) };
        assert_eq!(&r[8], "8");
        assert_eq!(&r[9], json["engine_version"].as_str().unwrap());
        units.insert(r[1].to_string(), r[2].to_string());
        if let Some(category) = r[1].strip_prefix("breakdown_usd.") {
            assert_eq!(
                number(3),
                p["breakdown_usd"][category].as_f64(),
                "{}",
                &r[1]
            );
        } else if let Some((ranking, other)) = Output::ALL.into_iter().find_map(|o| {
            let ranking = o.row().ranking?;
            let other = r[1].strip_prefix(&format!("{}.", ranking.csv_key))?;
            Some((ranking, other))
        }) {
            // A paired share: `<csv key>.<other platform>` is `paired`'s `<paired key>`.
            let share = &pair(&r[0], other)[ranking.paired_key];
            assert_eq!(number(3), share.as_f64(), "{}", &r[1]);
        } else {
            // `pipelines.<name>.<path>` in that pipeline's entry, the rest by name.
            let s = match r[1].strip_prefix("pipelines.") {
                Some(rest) => {
                    let (name, path) = rest.split_once('.').unwrap();
                    let q = p["pipelines"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|q| q["name"] == name)
                        .expect("pipeline");
                    path.split('.').fold(q, |v, k| &v[k])
                }
                None => {
                    metrics.insert((r[0].to_string(), r[1].to_string()));
                    &p[&r[1]]
                }
            };
            for (i, stat) in [(3, "mean"), (4, "p5"), (5, "p50"), (6, "p95"), (7, "se")] {
                assert_eq!(number(i), s[stat].as_f64(), "{} {stat}", &r[1]);
            }
        }
    }
    // Each row says its unit, naming the reference GPU where it counts reference-GPU-hours.
    let gpu = scenario.reference_gpu.trim();
    for (metric, unit) in [
        ("monthly_tco_usd", "USD per month".to_string()),
        (
            "usd_per_useful_gpu_hour",
            format!("USD per useful {gpu}-hour"),
        ),
        (
            "cloud_bill_usd_per_useful_gpu_hour",
            format!("USD per useful {gpu}-hour"),
        ),
        ("useful_gpu_hours", format!("{gpu}-hours")),
        (
            "usd_per_successful_job",
            "USD per successful job".to_string(),
        ),
        ("utilization", "share (0-1)".to_string()),
        ("queue_wait_p95_min", "minutes".to_string()),
        ("breakdown_usd.useful_compute", "USD per month".to_string()),
    ] {
        assert_eq!(units.get(metric), Some(&unit), "{metric}");
    }
    for (metric, unit) in &units {
        if metric.starts_with("cheaper_than.") || metric.starts_with("lower_") {
            assert_eq!(unit, "share (0-1)", "{metric}");
        }
        if metric.ends_with("usd_per_million_requests") {
            assert_eq!(unit, "USD per million requests", "{metric}");
        }
        if metric.ends_with(".usd_per_pipeline_run") {
            assert_eq!(unit, "USD per completed run", "{metric}");
        }
    }
    // 21 summaries + 21 categories + 4 × (n − 1) comparisons (TCO, per useful GPU-hour and
    // both on the cloud bill) per platform, and the extra.
    assert_eq!(rows, n * (21 + 21 + 4 * (n - 1)) + extra);
    // Every figure of a platform's JSON entry that is not a list or a breakdown has its row.
    let lists = [
        "name",
        "breakdown_usd",
        "usd_per_useful_gpu_hour_histogram",
        "services",
        "teams",
        "pipelines",
    ];
    for p in platforms {
        let name = p["name"].as_str().unwrap();
        for key in p.as_object().unwrap().keys() {
            if !lists.contains(&key.as_str()) {
                assert!(
                    metrics.contains(&(name.to_string(), key.clone())),
                    "{name}: {key} has no CSV row"
                );
            }
        }
    }
}

/// The page colours each category with `--cat-<index>`; its light-theme value is the one the
/// category names, so an export or a legend drawn from the model matches the chart.
#[test]
fn every_category_colour_is_the_stylesheet_colour() {
    use gpucost::model::cost_category::Category;
    let css = include_str!("../../style/main.css");
    for c in Category::ALL {
        let rule = format!("--cat-{}: {};", c.index(), c.colour());
        assert!(
            css.contains(&rule),
            "style/main.css lacks `{rule}` for {}",
            c.key()
        );
        let class = format!(".{} {{ fill: var(--cat-{});", c.css_class(), c.index());
        assert!(css.contains(&class), "style/main.css lacks `{class}`");
    }
}

/// Each summary's `se` is the standard error of its mean: over 20 runs with independent seeds,
/// the spread (sample standard deviation) of the runs' mean monthly TCO matches the runs'
/// average `se`, within what 20 runs can tell (the ratio's own error is about 16 %).
#[test]
fn the_standard_error_is_the_spread_of_independent_runs_means() {
    let mut scenario = gpucost::workbench::presets::preset("batch-vs-eks-spot")
        .unwrap()
        .scenario();
    scenario.horizon_days = 5.0;
    scenario.replications = 16;
    for platform in 0..scenario.platforms.len() {
        let (means, ses): (Vec<f64>, Vec<f64>) = (0..20)
            .map(|seed| {
                let mut s = scenario.clone();
                s.seed = 1_000 + seed;
                let mut run = MonteCarlo::new(s).unwrap();
                run.run_to_end();
                let tco = run.results().platforms[platform].monthly_tco_usd();
                (tco.mean, tco.se)
            })
            .unzip();
        let m = means.iter().sum::<f64>() / 20.0;
        let spread = (means.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 19.0).sqrt();
        let se = ses.iter().sum::<f64>() / 20.0;
        let ratio = spread / se;
        assert!(
            (0.6..=1.6).contains(&ratio),
            "platform {platform}: spread of means {spread}, average se {se}, ratio {ratio}"
        );
    }
}
