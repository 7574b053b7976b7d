//! The first number: what the loading shell shows while the page's own module is still on its
//! way. The shell (index.html, scripts/externalize-start-script.mjs) sends the link's fragment
//! to a worker running a small module of its own (feature `first-number`: the model without
//! Leptos, built by scripts/build-first-number.sh), which answers with the verdict and, per
//! platform, the monthly TCO and the cost per useful GPU-hour of the link's scenario over the
//! page's coarse pass ([`coarse_replications`]): its first replications, with the link's
//! notices. The page then loads, replaces the shell and runs every replication (its own first
//! pass summarises the replications its workers have answered by then: these, or a few more).
//!
//! Where the shell should show nothing and leave the scenario to the page (a link replaying a
//! job history this browser keeps, a scenario that cannot run, an event budget that stopped
//! the pass), the answer says so with `"ok": false` and a reason.

use crate::model::monte_carlo::MonteCarlo;
use crate::run_coordinator::tuning::coarse_replications;
use crate::workbench::embed_table::EmbedTable;
use crate::workbench::link::decode_link;
use crate::workbench::verdict::verdict;
use crate::workbench::verdict_basis::VerdictBasis;
use serde_json::{json, Value};

/// The shell's answer for `fragment` (the URL's, with or without `#`).
pub fn first_number(fragment: &str) -> Value {
    let decoded = decode_link(fragment);
    let refuse = |reason: String| json!({ "ok": false, "reason": reason });
    if decoded.replay_key.is_some() {
        // The page replays the history if this browser keeps it: not the link's fitted classes.
        return refuse("the link replays a job history".to_string());
    }
    let scenario = decoded.scenario;
    let mut run = match MonteCarlo::new(scenario.clone()) {
        Ok(run) => run,
        Err(e) => return refuse(e.to_string()),
    };
    let coarse = coarse_replications(&scenario);
    run.run_batch(coarse);
    let results = run.results();
    if results.replications < coarse {
        return refuse(match &results.cut_off {
            Some(cut) => cut.to_string(),
            None => "the coarse pass did not finish".to_string(),
        });
    }
    let basis = VerdictBasis::of(&scenario);
    let table = EmbedTable::of(&results, &basis);
    json!({
        "ok": true,
        "embed": decoded.embed,
        "replications": results.replications,
        "of": scenario.replications,
        "verdict": verdict(&results, &basis).sentence,
        // The embed view's table, as it draws it.
        "columns": table.columns,
        "per_work_key": table.per_work_key,
        "platforms": table.rows,
        // What the link asked for that could not be read: the shell says so above the numbers
        // (a link to a version this page lacks shows the default preset's, as the page does).
        "notices": decoded.notices,
    })
}

/// The shell worker's entry point: [`first_number`] as JSON text.
#[cfg(all(target_arch = "wasm32", feature = "first-number"))]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = firstNumber)]
pub fn first_number_js(fragment: &str) -> String {
    first_number(fragment).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::Scenario;
    use crate::workbench::link::encode_link;
    use crate::workbench::presets::{preset, DEFAULT};
    use crate::workbench::report::report;

    /// The shell's numbers are those of a run of the coarse pass's replications alone, which
    /// `gpucost eval` prints for the scenario with that many replications.
    #[test]
    fn equals_a_run_of_the_coarse_replications() {
        for name in [DEFAULT, "multi-team-cluster"] {
            let scenario: Scenario = preset(name).unwrap().scenario();
            let answer = first_number(&encode_link(&scenario, name));
            assert_eq!(answer["ok"], true, "{name}: {answer}");
            let coarse = coarse_replications(&scenario);
            assert_eq!(answer["replications"], coarse);
            let mut only_coarse = scenario.clone();
            only_coarse.replications = coarse;
            let mut run = MonteCarlo::new(only_coarse.clone()).unwrap();
            run.run_to_end();
            let expected = serde_json::to_value(report(&only_coarse, &run.results())).unwrap();
            let platforms = expected["platforms"].as_array().unwrap();
            assert_eq!(
                platforms.len(),
                answer["platforms"].as_array().unwrap().len()
            );
            for (p, shown) in platforms
                .iter()
                .zip(answer["platforms"].as_array().unwrap())
            {
                assert_eq!(p["name"], shown["name"]);
                assert_eq!(
                    p["monthly_tco_usd"]["p50"], shown["monthly_tco_p50"],
                    "{name}"
                );
                // Both presets are jobs alone: the third column is per useful GPU-hour.
                assert_eq!(answer["per_work_key"], "usd_per_useful_gpu_hour");
                assert_eq!(
                    p["usd_per_useful_gpu_hour"]["p50"], shown["per_work_p50"],
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn a_history_replay_is_left_to_the_page() {
        let scenario = preset(DEFAULT).unwrap().scenario();
        let key = "0123456789abcdef".repeat(2);
        let replay = format!("{}&r={key}", encode_link(&scenario, DEFAULT));
        assert_eq!(first_number(&replay)["ok"], false);
        assert_eq!(first_number(&encode_link(&scenario, DEFAULT))["ok"], true);
    }

    #[test]
    fn a_link_with_parts_it_cannot_read_says_so() {
        let answer = first_number("v=1&p=no-such-preset");
        assert_eq!(answer["ok"], true, "{answer}");
        let notices = answer["notices"].as_array().unwrap();
        assert!(!notices.is_empty(), "{answer}");
        assert!(
            notices[0].as_str().unwrap().contains("no-such-preset"),
            "{answer}"
        );
        let plain = first_number(&encode_link(&preset(DEFAULT).unwrap().scenario(), DEFAULT));
        assert_eq!(plain["notices"], serde_json::json!([]));
    }
}
