//! Golden values: the wasm32 browser test checks the same bits (tests/common/golden.rs).

#[path = "../common/golden.rs"]
mod golden;

#[test]
fn golden_values_are_unchanged() {
    let bits = golden::golden_tco_bits();
    println!("{bits:?}");
    assert_eq!(bits, golden::GOLDEN_TCO_BITS);
}

#[test]
fn the_whole_report_is_unchanged() {
    assert_eq!(golden::golden_report_fingerprint(), golden::GOLDEN_REPORT);
}

#[test]
fn without_the_new_zero_lines_the_report_is_the_one_before_node_failures() {
    // The report gained `hardware_failure_rework`, `data_staging` and `data_transfer` in each
    // breakdown (0 here) and `node_failures_per_node_hour` in each node pool of its scenario
    // (0): without those lines it is byte for byte the report before them, so no number moved.
    // (`data_transfer` comes last in a breakdown: the line before it loses its comma.)
    let text = without_cloud_bill_and_people(&without_standard_errors(&report_before_units()));
    let before = without_lines(&text, |l| {
        l.contains("\"hardware_failure_rework\"")
            || l.contains("\"node_failures_per_node_hour\"")
            || l.contains("\"data_transfer\"")
            || l.contains("\"data_staging\"")
    });
    assert_eq!(
        (before.len(), golden::fnv1a(before.as_bytes())),
        (18_419, 6_051_029_511_883_436_795)
    );
}

/// The report without each platform's `cloud_bill_usd`, `people_usd` and
/// `cloud_bill_usd_per_useful_gpu_hour` (summaries of several lines, never a platform's last
/// field).
/// `text` without the lines `drop` picks; a line left last in its object loses its comma.
fn without_lines(text: &str, drop: impl Fn(&str) -> bool) -> String {
    let kept: Vec<&str> = text.split_inclusive('\n').filter(|l| !drop(l)).collect();
    let mut before = String::new();
    for (i, line) in kept.iter().enumerate() {
        let closes_next = kept
            .get(i + 1)
            .is_some_and(|n| n.trim_start().starts_with('}'));
        match line.strip_suffix(",\n") {
            Some(bare) if closes_next => {
                before.push_str(bare);
                before.push('\n');
            }
            _ => before.push_str(line),
        }
    }
    before
}

/// The clouds' discounts the report's scenario gained after Azure's, the last keys of
/// `discounts`.
const AFTER_AZURE: [&str; 3] = ["\"coreweave_pct\"", "\"lambda_pct\"", "\"nebius_pct\""];

/// The report without the hosted API's bill each breakdown gained (`"api_usage": 0.0`, the
/// last category: the line before it loses its comma).
fn report_before_api_usage() -> String {
    without_lines(&golden::golden_report(), |l| l.contains("\"api_usage\""))
}

#[test]
fn without_the_api_usage_lines_the_report_is_the_one_before_hosted_apis() {
    // Every breakdown gained `api_usage` (0 on platforms of nodes): without those lines the
    // report is byte for byte the one before (the tests below compare it), so no number moved.
    let report = golden::golden_report();
    let lines = report.matches("\"api_usage\"").count();
    assert!(lines > 0);
    assert_eq!(report.matches("\"api_usage\": 0.0").count(), lines);
}

/// The report without the GPU clouds' discounts (see [`AFTER_AZURE`]).
fn report_before_gpu_clouds() -> String {
    without_lines(&report_before_api_usage(), |l| {
        AFTER_AZURE.iter().any(|key| l.contains(key))
    })
}

/// The report without the Azure discount its scenario gained with the cloud (`"azure_pct":
/// 0.0`, the last key of `discounts` then), and without the GPU clouds' after it.
fn report_before_azure() -> String {
    without_lines(&report_before_gpu_clouds(), |l| l.contains("\"azure_pct\""))
}

#[test]
fn without_the_gpu_clouds_discounts_the_report_is_the_one_before_them() {
    // The report's scenario gained `discounts.coreweave_pct`, `lambda_pct` and `nebius_pct`
    // (0): without those lines it is byte for byte the report before them (its fingerprint
    // then, below), so no number moved.
    let report = golden::golden_report();
    for key in AFTER_AZURE {
        assert_eq!(report.matches(&format!("{key}: 0.0")).count(), 1, "{key}");
    }
    let before = report_before_gpu_clouds();
    assert_eq!(
        (before.len(), golden::fnv1a(before.as_bytes())),
        (25_477, 1_964_120_455_361_221_502)
    );
}

#[test]
fn without_the_azure_discount_the_report_is_the_one_before_azure() {
    // The report's scenario gained `discounts.azure_pct` (0): without that line it is byte
    // for byte the report before Azure, so no number moved.
    let report = golden::golden_report();
    assert_eq!(report.matches("\"azure_pct\": 0.0").count(), 1);
    let before = report_before_azure();
    assert_eq!(
        (before.len(), golden::fnv1a(before.as_bytes())),
        (25_453, 14_021_902_635_604_402_477)
    );
}

/// The report with "0.2.3" written back as its engine version: engine 0.2.4 added the warm-up,
/// off unless a scenario sets it, and the golden scenario (a frozen preset version) has none,
/// so that is the report of 0.2.3, byte for byte (before Azure).
fn report_of_0_2_3() -> String {
    let report = report_before_azure();
    let version = format!("\"engine_version\": \"{}\"", gpucost::model::ENGINE_VERSION);
    assert_eq!(report.matches(&version).count(), 1);
    report.replace(&version, "\"engine_version\": \"0.2.3\"")
}

#[test]
fn the_report_of_0_2_3_is_the_one_before_the_warm_up() {
    assert_eq!(
        {
            let text = report_of_0_2_3();
            (text.len(), golden::fnv1a(text.as_bytes()))
        },
        (25_453, 16_854_444_790_714_832_270)
    );
}

/// The report as it read before its verdict named the reference GPU in its unit ("per useful
/// A100-hour" was "per useful GPU-hour") and before each paired comparison gained its shares on
/// the cloud bill alone and each share its Wilson interval: the verdict is the only line that
/// changed.
fn report_before_units() -> String {
    let report = without_lines(&with_intervals_on_one_line(&report_of_0_2_3()), |l| {
        l.contains("_wilson95\"")
    });
    let report = without_lines(&report, |l| {
        l.contains("\"a_lower_cloud_bill_usd_share\"")
            || l.contains("\"a_lower_cloud_bill_usd_per_useful_gpu_hour_share\"")
    });
    let named: Vec<&str> = report.lines().filter(|l| l.contains("A100-hour")).collect();
    assert_eq!(named.len(), 1, "{named:?}");
    assert!(
        named[0].trim_start().starts_with("\"verdict\":"),
        "{}",
        named[0]
    );
    report.replace("per useful A100-hour", "per useful GPU-hour")
}

#[test]
fn the_verdict_names_the_reference_gpu_and_nothing_else_changed() {
    // Byte for byte the report before, but for the unit in the verdict (one byte longer) and
    // the two shares on the cloud bill each of the 6 paired comparisons gained: checked by
    // the tests below, which compare the report without them with the one before.
    let report = golden::golden_report();
    let shares = report.matches("\"a_lower_cloud_bill_usd_share\"").count();
    assert_eq!(shares, 6);
    // Each of the 4 shares of the 6 comparisons has its interval.
    assert_eq!(report.matches("_wilson95\": [").count(), 24);
    assert_eq!(
        report
            .matches("\"a_lower_cloud_bill_usd_per_useful_gpu_hour_share\"")
            .count(),
        6
    );
}

/// `text` with each share's Wilson interval (`"…_wilson95": [lo, hi]`, pretty-printed over
/// four lines) on one line.
fn with_intervals_on_one_line(text: &str) -> String {
    let mut out = String::new();
    let mut open = false;
    for line in text.split_inclusive('\n') {
        if line.contains("_wilson95\": [") {
            open = true;
            out.push_str(line.trim_end_matches('\n'));
        } else if open {
            out.push_str(line.trim());
            if line.trim_start().starts_with(']') {
                open = false;
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The report without each summary's `se` (its last field).
fn without_standard_errors(text: &str) -> String {
    without_lines(text, |l| l.trim_start().starts_with("\"se\":"))
}

fn without_cloud_bill_and_people(text: &str) -> String {
    let new = [
        "\"cloud_bill_usd\": {",
        "\"people_usd\": {",
        "\"cloud_bill_usd_per_useful_gpu_hour\": {",
    ];
    let mut before = String::new();
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if new.contains(&trimmed) {
            skipping = true;
        }
        if !skipping {
            before.push_str(line);
        }
        if skipping && trimmed.starts_with('}') {
            skipping = false;
        }
    }
    before
}

#[test]
fn without_the_cloud_bill_and_people_the_report_is_the_one_before_them() {
    // Without the three summaries each platform gained, the report is byte for byte the one
    // before them: no number moved.
    let before = without_cloud_bill_and_people(&without_standard_errors(&report_before_units()));
    assert_eq!(
        (before.len(), golden::fnv1a(before.as_bytes())),
        (18_860, 16_785_151_963_932_819_695)
    );
}

#[test]
fn without_the_standard_errors_the_report_is_the_one_before_them() {
    // Every summary gained `se` (its last field): without those lines, the report with the
    // cloud bill and people alone.
    let before = without_standard_errors(&report_before_units());
    assert_eq!(
        (before.len(), golden::fnv1a(before.as_bytes())),
        (20_438, 5_560_177_831_990_071_654)
    );
}
