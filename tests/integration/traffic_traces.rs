//! Request traces as a service's traffic (`gpucost traffic`, the page's import): the shared
//! Azure LLM trace (`../shared/traces/azure_llm_inference_code_2023.csv`: requests to a code
//! completion service on 2023-11-16, from Azure/AzurePublicDataset at b469a11, CC BY 4.0;
//! Patel et al., "Splitwise", ISCA 2024), and fixtures of our own:
//! - `tests/data/requests-two-days.csv`: the Azure format over two days from Monday
//!   2024-03-04 00:00 (UTC) to Tuesday 23:30, one request an hour from 0:00 to 7:00, four from
//!   8:00 to 19:00, two from 20:00 to 23:00, each at an even split of its hour, the fraction of
//!   a second written to seven digits; prompts 100–900 and outputs 10–90 in turn.
//! - `tests/data/requests-mooncake.jsonl`: Mooncake's JSON lines, 41 requests 1.5 s apart from
//!   0 ms, prompts 1,000 + 10 i and outputs 20 + i, with `hash_ids`; line 11 has a negative
//!   output, line 21 is cut short, line 31 is blank.
//!
//! Every expected figure is worked out here from the files' text, not from the importer.

use gpucost::history::traffic::{traffic_into, TrafficOptions};
use gpucost::model::monte_carlo::MonteCarlo;
use gpucost::model::scenario::Scenario;
use gpucost::workbench::presets::preset;

const TWO_DAYS: &str = include_str!("../data/requests-two-days.csv");
const MOONCAKE: &str = include_str!("../data/requests-mooncake.jsonl");
const SERVICE: &str = "70B chat";

fn chat() -> Scenario {
    preset("llm-70b-chat").expect("preset").scenario()
}

fn onto(service: &str) -> TrafficOptions {
    TrafficOptions {
        service: Some(service.to_string()),
        ..TrafficOptions::default()
    }
}

/// The shared trace's text (`None` outside a checkout with `../shared/traces/`).
fn shared_trace() -> Option<String> {
    crate::history_traces::trace("azure_llm_inference_code_2023.csv")
}

/// Seconds since midnight of `YYYY-MM-DD HH:MM:SS.fffffff` on one day, by hand.
fn clock_seconds(text: &str) -> f64 {
    let time = &text[11..];
    let h: f64 = time[0..2].parse().unwrap();
    let m: f64 = time[3..5].parse().unwrap();
    let s: f64 = time[6..].parse().unwrap();
    h * 3600.0 + m * 60.0 + s
}

/// The middle of an odd count of values.
fn middle(mut values: Vec<u32>) -> f64 {
    assert_eq!(values.len() % 2, 1);
    values.sort_unstable();
    f64::from(values[values.len() / 2])
}

#[test]
fn the_shared_trace_fits_its_rate_and_token_medians() {
    let Some(text) = shared_trace() else { return };
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 8_819, "the README's count");
    // All on 2023-11-16: the span is the last arrival's clock time less the first's.
    let span = clock_seconds(rows[rows.len() - 1][0]) - clock_seconds(rows[0][0]);
    let (next, fit) = traffic_into(&chat(), &text, &onto(SERVICE)).expect("fits");
    assert_eq!((fit.used, fit.bad_rows.len()), (8_819, 0));
    let service = next.services.iter().find(|s| s.name == SERVICE).unwrap();
    let rate = service.traffic.mean_rps;
    assert!(
        (rate - 8_819.0 / span).abs() < 1e-9 * rate,
        "{rate} against {}",
        8_819.0 / span
    );
    // 57 minutes: under a day, no hourly profile; flat and said so.
    assert_eq!(service.traffic.hourly_profile, None);
    assert!(fit.notes.iter().any(|n| n.contains("under a day")));
    let llm = service.llm.as_ref().unwrap();
    let column = |i: usize| rows.iter().map(|r| r[i].parse::<u32>().unwrap()).collect();
    assert_eq!(llm.input_tokens.median, middle(column(1)));
    assert_eq!(llm.output_tokens.median, middle(column(2)));
    // The importer's p90 lies between the order statistics around 0.9.
    let mut outputs: Vec<u32> = column(2);
    outputs.sort_unstable();
    let at = 0.9 * (outputs.len() - 1) as f64;
    let (lo, hi) = (outputs[at.floor() as usize], outputs[at.ceil() as usize]);
    assert!((f64::from(lo)..=f64::from(hi)).contains(&llm.output_tokens.p90));
}

#[test]
fn a_replay_of_the_shared_trace_serves_exactly_its_requests() {
    let Some(text) = shared_trace() else { return };
    let options = TrafficOptions {
        replay: true,
        ..onto(SERVICE)
    };
    let (mut next, fit) = traffic_into(&chat(), &text, &options).expect("replays");
    // The file's requests binned by minute from the first, by hand.
    let first = clock_seconds(&text.lines().nth(1).unwrap()[..27]);
    let mut minutes = vec![0.0; 0];
    for line in text.lines().skip(1) {
        let m = ((clock_seconds(&line[..27]) - first) / 60.0).floor() as usize;
        if minutes.len() <= m {
            minutes.resize(m + 1, 0.0);
        }
        minutes[m] += 1.0;
    }
    assert_eq!(minutes.len(), 58);
    let replay = next.services[0].traffic.replay.clone().expect("a replay");
    assert_eq!(replay.per_minute, minutes);
    assert_eq!(fit.service, SERVICE);
    // Two loops of its 58 minutes, no warm-up: every platform sees twice the file's requests.
    next.horizon_days = 2.0 * 58.0 / 1_440.0;
    next.warmup_days = 0.0;
    next.replications = 3;
    let served = |scenario: Scenario| {
        let mut run = MonteCarlo::new(scenario).expect("valid");
        run.run_to_end_on(1);
        run.results()
            .platforms
            .iter()
            .map(|p| {
                let r = &p.services[0].requests;
                assert_eq!((r.p5, r.p95), (r.mean, r.mean), "{}", p.name);
                r.mean
            })
            .collect::<Vec<f64>>()
    };
    assert_eq!(served(next.clone()), [17_638.0, 17_638.0]);
    // Two and a half loops: the third stops after its first 29 minutes.
    next.horizon_days = 145.0 / 1_440.0;
    let half: f64 = minutes[..29].iter().sum();
    let expected = 2.0 * 8_819.0 + half;
    assert_eq!(served(next), [expected, expected]);
}

#[test]
fn two_days_give_the_hourly_profile_worked_out_by_hand() {
    let (next, fit) = traffic_into(&chat(), TWO_DAYS, &onto(SERVICE)).expect("fits");
    assert_eq!(fit.used, 128);
    // From Monday 00:00:00.0 to Tuesday 23:30:00.6790009.
    let span = 47.5 * 3_600.0 + 0.679_000_9;
    let traffic = &next.services[0].traffic;
    assert!((traffic.mean_rps - 128.0 / span).abs() < 1e-12);
    // The profile is fitted on the first whole day from the first request (Monday): one
    // request an hour from 0:00 to 7:00, four to 19:00, two to 23:00, 64 in all; each weight
    // is its hour's requests over their mean, 64/24.
    let profile = traffic
        .hourly_profile
        .as_ref()
        .expect("a day or more: a profile");
    for (h, got) in profile.iter().enumerate() {
        let count = match h {
            0..=7 => 1.0,
            8..=19 => 4.0,
            _ => 2.0,
        };
        assert_eq!(*got, count / (64.0 / 24.0), "hour {h}");
    }
    // Two days are under a week: no weekend factor, said so.
    assert_eq!(traffic.weekend_factor, 1.0);
    assert!(fit.notes.iter().any(|n| n.contains("under a week")));
    // Prompts 100–900 and outputs 10–90 in turn: 128 = 14 × 9 + 2 values, the median the
    // mean of the 64th and 65th smallest.
    let mut prompts: Vec<u32> = (0..128).map(|i| 100 * (i % 9 + 1)).collect();
    prompts.sort_unstable();
    let median = f64::from(prompts[63] + prompts[64]) / 2.0;
    assert_eq!(
        next.services[0].llm.as_ref().unwrap().input_tokens.median,
        median
    );
    // Date-times written without a zone are in the zone given: their hours are those written,
    // whatever it is.
    let east = TrafficOptions {
        utc_offset_s: 7_200,
        ..onto(SERVICE)
    };
    let (east, _) = traffic_into(&chat(), TWO_DAYS, &east).expect("fits");
    assert_eq!(
        east.services[0].traffic.hourly_profile.as_ref(),
        Some(profile)
    );
}

#[test]
fn mooncake_lines_fit_and_report_the_lines_they_skip() {
    let (next, fit) = traffic_into(&chat(), MOONCAKE, &onto(SERVICE)).expect("fits");
    // 41 requests from 0 to 60 s.
    assert_eq!(fit.used, 41);
    assert!((next.services[0].traffic.mean_rps - 41.0 / 60.0).abs() < 1e-12);
    let lines: Vec<u64> = fit.bad_rows.iter().map(|b| b.line).collect();
    assert_eq!(lines, [11, 21]);
    assert!(fit.bad_rows[0].reason.contains("negative"));
    // Replayed: 41 requests in the minute from 0 to 60 s (the last closes it), so the
    // replay's rate is the fit's.
    let replayed = TrafficOptions {
        replay: true,
        ..onto(SERVICE)
    };
    let (again, _) = traffic_into(&chat(), MOONCAKE, &replayed).expect("replays");
    let replay = again.services[0].traffic.replay.as_ref().unwrap();
    assert_eq!(replay.per_minute, [41.0]);
    assert_eq!(again.services[0].traffic.mean_rps, 41.0 / 60.0);
    // Prompts 1,000 + 10 i, outputs 20 + i for i = 0–40: medians at i = 20.
    let llm = next.services[0].llm.as_ref().unwrap();
    assert_eq!(
        (llm.input_tokens.median, llm.output_tokens.median),
        (1_200.0, 40.0)
    );
    // p90 at 0.9 × 40 = 36: 1,360 and 56.
    assert_eq!(
        (llm.input_tokens.p90, llm.output_tokens.p90),
        (1_360.0, 56.0)
    );
}

#[test]
fn without_a_service_named_the_trace_becomes_a_new_one() {
    let options = TrafficOptions {
        new_service_name: "Code assistant".to_string(),
        ..TrafficOptions::default()
    };
    let base = chat();
    let (next, fit) = traffic_into(&base, MOONCAKE, &options).expect("fits");
    assert_eq!(next.services.len(), base.services.len() + 1);
    let added = next.services.last().unwrap();
    assert_eq!(
        (added.name.as_str(), fit.service.as_str()),
        ("Code assistant", "Code assistant")
    );
    // A copy of the preset's LLM service: its model, with the trace's traffic and tokens.
    assert_eq!(
        added.llm.as_ref().unwrap().model,
        base.services[0].llm.as_ref().unwrap().model
    );
    assert_eq!(added.llm.as_ref().unwrap().output_tokens.median, 40.0);
    // The preset's service is untouched.
    assert_eq!(next.services[0], base.services[0]);
    // Imported twice, the second is named apart.
    let (again, _) = traffic_into(&next, MOONCAKE, &options).expect("fits");
    assert_eq!(again.services.last().unwrap().name, "Code assistant 2");
}

#[test]
fn bad_traces_are_refused_with_what_is_wrong() {
    let refused = |text: &str, options: &TrafficOptions| {
        traffic_into(&chat(), text, options)
            .expect_err("refused")
            .to_string()
    };
    let plain = TrafficOptions::default();
    assert!(refused("", &plain).contains("empty"));
    assert!(refused("JobID,Start,End\n1,2,3\n", &plain).contains("not a request trace"));
    // One request, or all at one instant: no rate.
    let one = "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.97,10,5\n";
    assert!(refused(one, &plain).contains("1 usable request"));
    let same = format!("{one}2023-11-16 18:17:03.97,11,6\n");
    assert!(refused(&same, &plain).contains("2 usable request"));
    // Bad cells are skipped by line with why.
    let mixed = "TIMESTAMP,ContextTokens,GeneratedTokens\n\
        2023-11-16 18:17:03.9,10,5\n\
        yesterday,10,5\n\
        2023-11-16 18:17:04.0,-4,5\n\
        2023-11-16 18:17:05.0,10,2.5\n\
        2023-11-16 18:17:06.0,10,5\n";
    let (_, fit) = traffic_into(&chat(), mixed, &plain).expect("two requests left");
    let why: Vec<(u64, &str)> = fit
        .bad_rows
        .iter()
        .map(|b| (b.line, b.reason.as_str()))
        .collect();
    assert_eq!(why.len(), 3);
    assert_eq!((why[0].0, why[1].0, why[2].0), (3, 4, 5));
    assert!(why[0].1.contains("not a date-time"));
    assert!(why[1].1.contains("negative"));
    assert!(why[2].1.contains("whole number"));
    // A Mooncake file mixing clocks: the record against the first's clock is skipped.
    let clocks = "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 5}\n\
        {\"timestamp\": 1700000000000, \"input_length\": 5, \"output_length\": 5}\n\
        {\"timestamp\": 2000, \"input_length\": 5, \"output_length\": 5}\n";
    let (_, fit) = traffic_into(&chat(), clocks, &plain).expect("fits");
    assert_eq!(fit.bad_rows.len(), 1);
    assert!(fit.bad_rows[0].reason.contains("counts from 1970"));
    // A service that is not there, named with the ones that are.
    let e = refused(MOONCAKE, &onto("Chat"));
    assert!(
        e.contains("no service \"Chat\"") && e.contains(SERVICE),
        "{e}"
    );
    // A replay longer than a day: refused, pointing at the fit.
    let days = TrafficOptions {
        replay: true,
        ..onto(SERVICE)
    };
    let e = refused(TWO_DAYS, &days);
    assert!(
        e.contains("2851 minutes") && e.contains("fit it instead"),
        "{e}"
    );
    // The Azure columns must all be there.
    let e = refused("TIMESTAMP,ContextTokens,Output\n", &plain);
    assert!(e.contains("not a request trace"), "{e}");
    let e = refused("TIMESTAMP,ContextTokens,GeneratedTokens,x\n", &plain);
    assert!(e.contains("0 usable"), "{e}");
}

#[test]
fn a_replayed_traffic_refuses_a_rate_or_shape_of_its_own() {
    let options = TrafficOptions {
        replay: true,
        ..onto(SERVICE)
    };
    let (next, _) = traffic_into(&chat(), MOONCAKE, &options).expect("replays");
    let at = |edit: &dyn Fn(&mut Scenario)| {
        let mut s = next.clone();
        edit(&mut s);
        s.validate().expect_err("refused").to_string()
    };
    let e = at(&|s| s.services[0].traffic.mean_rps = 3.0);
    assert!(
        e.contains("services.0.traffic.mean_rps") && e.contains("its own"),
        "{e}"
    );
    let e = at(&|s| s.services[0].traffic.hourly_profile = Some(vec![1.0; 24]));
    assert!(e.contains("hourly_profile"), "{e}");
    let e = at(&|s| s.services[0].traffic.replay.as_mut().unwrap().per_minute[0] = 0.5);
    assert!(e.contains("whole number"), "{e}");
    let e = at(&|s| s.services[0].traffic.replay.as_mut().unwrap().per_minute = vec![0.0; 3]);
    assert!(e.contains("at least one minute"), "{e}");
}

#[test]
fn a_week_gives_the_weekend_factor_and_hours_counted_in_the_zone_given() {
    // Seven days from Monday 2024-03-04 00:00 UTC, the times written with their zone (Z):
    // four requests an hour on weekdays, two on the weekend, then one at the end.
    let mut text = String::from("TIMESTAMP,ContextTokens,GeneratedTokens\n");
    for day in 0..7 {
        let per_hour = if day < 5 { 4 } else { 2 };
        for hour in 0..24 {
            for k in 0..per_hour {
                let minute = 60 * k / per_hour;
                text.push_str(&format!(
                    "2024-03-{:02}T{hour:02}:{minute:02}:00Z,100,10\n",
                    4 + day
                ));
            }
        }
    }
    text.push_str("2024-03-11T00:00:00Z,100,10\n");
    let (next, fit) = traffic_into(&chat(), &text, &onto(SERVICE)).expect("fits");
    let traffic = &next.services[0].traffic;
    // A weekend day's requests over a weekday's: 48 / 96.
    assert_eq!(traffic.weekend_factor, 0.5);
    assert!(fit
        .notes
        .iter()
        .any(|n| n.starts_with("Weekend factor 0.5")));
    // The hours are even in UTC, and so in any zone.
    assert!(traffic
        .hourly_profile
        .as_ref()
        .unwrap()
        .iter()
        .all(|&w| w == 1.0));
    // Nine hours east, the local weekend starts at Friday 15:00 UTC: it holds nine of
    // Friday's busy hours and loses Sunday's last nine. Each UTC hour's requests counted in
    // its local day, here, from the way the text was written.
    let east = TrafficOptions {
        utc_offset_s: 9 * 3_600,
        ..onto(SERVICE)
    };
    let (east, _) = traffic_into(&chat(), &text, &east).expect("fits");
    let (mut weekday, mut weekend) = (0.0, 0.0);
    for day in 0..7 {
        let per_hour = if day < 5 { 4.0 } else { 2.0 };
        for hour in 0..24 {
            // The local day of day `day`'s UTC hour `hour`, Monday = 0, modulo the week.
            let local_day = (day * 24 + hour + 9) / 24 % 7;
            if local_day >= 5 {
                weekend += per_hour;
            } else {
                weekday += per_hour;
            }
        }
    }
    let factor = ((weekend / 2.0) / (weekday / 5.0) * 1e4_f64).round() / 1e4;
    assert_eq!(east.services[0].traffic.weekend_factor, factor);
}

#[test]
fn a_mistyped_date_far_from_the_others_is_refused_not_allocated() {
    let text = "TIMESTAMP,ContextTokens,GeneratedTokens\n\
        2023-11-16 18:17:03.9,10,5\n\
        2203-11-16 18:17:04.0,10,5\n";
    let e = traffic_into(&chat(), text, &onto(SERVICE))
        .expect_err("refused")
        .to_string();
    assert!(e.contains("mistyped"), "{e}");
    // A Mooncake timestamp past year 9999 is a skipped line, not a time.
    let text = "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 5}\n\
        {\"timestamp\": 1e25, \"input_length\": 5, \"output_length\": 5}\n\
        {\"timestamp\": 2000, \"input_length\": 5, \"output_length\": 5}\n";
    let (_, fit) = traffic_into(&chat(), text, &onto(SERVICE)).expect("fits");
    assert_eq!(fit.bad_rows.len(), 1);
    assert!(fit.bad_rows[0].reason.contains("year 9999"));
}

#[test]
fn a_new_service_keeps_the_platforms_settings_of_the_one_it_copies() {
    let mut base = chat();
    base.platforms[1]
        .service_settings
        .entry(SERVICE.to_string())
        .or_default()
        .tensor_parallel = Some(8);
    let (next, _) = traffic_into(&base, MOONCAKE, &TrafficOptions::default()).expect("fits");
    let added = &next.services.last().unwrap().name;
    assert_eq!(
        next.platforms[1].service_settings[added].tensor_parallel,
        Some(8)
    );
    // Onto a named service with spikes of its own: the note says they were replaced.
    let mut spiky = chat();
    spiky.services[0].traffic.spikes = Some(gpucost::model::scenario::ServiceSpikes {
        per_month: 2.0,
        factor: 3.0,
        duration_min: 30.0,
    });
    let (next, fit) = traffic_into(&spiky, MOONCAKE, &onto(SERVICE)).expect("fits");
    assert_eq!(next.services[0].traffic.spikes, None);
    assert!(fit
        .notes
        .iter()
        .any(|n| n.contains("spikes") && n.contains("replaces")));
}

#[test]
fn the_traffic_knob_moves_drawn_services_and_leaves_a_replay_as_recorded() {
    let options = TrafficOptions {
        replay: true,
        ..TrafficOptions::default()
    };
    let (next, _) = traffic_into(&chat(), MOONCAKE, &options).expect("replays");
    let knob = gpucost::model::knobs::knob("traffic").unwrap();
    assert!((knob.when)(&next));
    let mut moved = next.clone();
    (knob.set)(&mut moved, 2.0 * (knob.get)(&next));
    assert!(moved.validate().is_ok());
    assert_eq!(
        moved.services[0].traffic.mean_rps,
        2.0 * next.services[0].traffic.mean_rps
    );
    assert_eq!(moved.services[1].traffic, next.services[1].traffic);
}

mod damaged {
    //! Lines of the fixtures cut, repeated and spliced at random: the readers report or fit,
    //! never panic, and list what they skipped in line order.
    use super::*;
    use crate::support::splice;
    use proptest::prelude::*;

    /// Lines at the edges of what a time or a count may be, in both formats.
    const EXTREMES: &str = "TIMESTAMP,ContextTokens,GeneratedTokens\n\
        0001-01-01 00:00:00.0000001,1,1\n\
        9999-12-31 23:59:59.9999999,10000000,0\n\
        2023-11-16 18:17:03+14:00,4294967295,1\n\
        2023-11-16 18:17:03,NaN,-0\n\
        {\"timestamp\": 1e25, \"input_length\": 5, \"output_length\": 5}\n\
        {\"timestamp\": 253402300800000, \"input_length\": 1e7, \"output_length\": 0}\n\
        {\"timestamp\": 999999999999, \"input_length\": 5, \"output_length\": 5}\n\
        {\"timestamp\": 1000000000000, \"input_length\": 5, \"output_length\": 5}\n\
        {\"timestamp\": -1, \"input_length\": 5, \"output_length\": 5}\n";

    proptest! {
        #[test]
        fn no_trace_reader_panics_on_spliced_lines(
            which in 0usize..3,
            replay in any::<bool>(),
            picks in prop::collection::vec((0usize..140, 0usize..90, 0usize..9), 1..40),
        ) {
            let text = splice([TWO_DAYS, MOONCAKE, EXTREMES][which], &picks);
            let options = TrafficOptions { replay, ..onto(SERVICE) };
            if let Ok((next, fit)) = traffic_into(&chat(), &text, &options) {
                let lines: Vec<u64> = fit.bad_rows.iter().map(|b| b.line).collect();
                let mut sorted = lines.clone();
                sorted.sort_unstable();
                prop_assert_eq!(lines, sorted);
                prop_assert!(fit.used >= 2 && fit.mean_rps.is_finite() && fit.mean_rps > 0.0);
                prop_assert!(next.validate().is_ok());
            }
        }
    }
}

mod command_line {
    //! `gpucost traffic` prints the scenario the importer makes, its notes and skipped lines
    //! on standard error.
    use super::*;
    use std::process::Command;

    fn gpucost(args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_gpucost"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("gpucost runs")
    }

    #[test]
    fn the_command_prints_the_scenario_the_importer_makes() {
        let out = gpucost(&[
            "traffic",
            "tests/data/requests-mooncake.jsonl",
            "--preset",
            "llm-70b-chat",
            "--service",
            SERVICE,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed = Scenario::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
        let (made, _) = traffic_into(&chat(), MOONCAKE, &onto(SERVICE)).unwrap();
        assert_eq!(printed, made);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("requests-mooncake.jsonl:11: skipped: output_length is negative"));
        assert!(err.contains("41 requests, 2 skipped"), "{err}");
        // Without --service, a new service named after the file.
        let out = gpucost(&[
            "traffic",
            "tests/data/requests-mooncake.jsonl",
            "--preset",
            "llm-70b-chat",
        ]);
        let printed = Scenario::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
        assert_eq!(printed.services.last().unwrap().name, "requests-mooncake");
        // A service that is not there is refused, naming the flag.
        let out = gpucost(&[
            "traffic",
            "tests/data/requests-mooncake.jsonl",
            "--preset",
            "llm-70b-chat",
            "--service",
            "Chat",
        ]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--service: no service \"Chat\""));
    }
}
