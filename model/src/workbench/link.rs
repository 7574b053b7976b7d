//! Scenarios in a link: the whole scenario in the URL fragment, compact and versioned.
//!
//! Format (fragment, after `#`): `v=1&p=<preset>@<preset version>&d=<payload>`, where the
//! payload is base64url (no padding) of deflated JSON `{"c": {path: value, …}}`: the leaf
//! fields that differ from the named preset, by dotted path, plus every platform's prices
//! (so a link keeps the prices it was computed with when the catalog is re-dated).
//!
//! Decoding never fails: whatever cannot be read is left at the preset's value and reported in
//! a notice that says exactly what was ignored. Output sizes are bounded against hostile links.

use super::compare::leaf_differences;
use super::decision_map::MapSettings;
use super::edit::field_mut;
use super::presets::{preset, preset_scenario_at, DEFAULT};
use super::shorten;
use crate::model::scenario::node_pool::canonical_path;
use crate::model::scenario::{Replay, Scenario};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{Map, Value};

/// The link format version this build writes (and the newest it reads).
pub const LINK_VERSION: u32 = 1;
/// Longest fragment read, characters.
pub const MAX_LINK_CHARS: usize = 16_384;
/// Largest decompressed payload read, bytes.
pub const MAX_PAYLOAD_BYTES: usize = 262_144;

/// The fragment for `scenario`, relative to preset `preset_name` (the default preset when the
/// name is unknown).
///
/// # Examples
///
/// ```
/// use gpucost_model::workbench::link::{decode_link, encode_link};
/// use gpucost_model::workbench::presets::preset;
///
/// let mut scenario = preset("six-small-jobs").unwrap().scenario();
/// scenario.platforms[0].node_pools[0].spot_interruptions_per_node_hour = 0.02;
/// let link = encode_link(&scenario, "six-small-jobs");
/// let read = decode_link(&link);
/// assert_eq!((read.scenario, read.preset.as_str()), (scenario, "six-small-jobs"));
/// assert!(read.notices.is_empty());
///
/// // A damaged link still opens, on the preset, and says what it could not read.
/// let damaged = decode_link(&link.replace("&d=", "&d=%%"));
/// assert_eq!(damaged.preset, "six-small-jobs");
/// assert!(!damaged.notices.is_empty());
/// ```
pub fn encode_link(scenario: &Scenario, preset_name: &str) -> String {
    let chosen = preset(preset_name).unwrap_or_else(|| preset(DEFAULT).expect("default preset"));
    let base = serde_json::to_value(chosen.scenario()).unwrap_or(Value::Null);
    // A replay's recorded jobs are too many for a link: it carries the fitted classes and
    // names the jobs by their key. (Each field but the replay copied, not the replay's jobs.)
    let doc = match &scenario.replay {
        Some(_) => serde_json::to_value(Scenario {
            horizon_days: scenario.horizon_days,
            warmup_days: scenario.warmup_days,
            replications: scenario.replications,
            seed: scenario.seed,
            reference_gpus: scenario.reference_gpus,
            reference_gpu: scenario.reference_gpu.clone(),
            job_classes: scenario.job_classes.clone(),
            platforms: scenario.platforms.clone(),
            discounts: scenario.discounts.clone(),
            people: scenario.people.clone(),
            replay: None,
            services: scenario.services.clone(),
            showback: scenario.showback.clone(),
            payback: scenario.payback.clone(),
            pipelines: scenario.pipelines.clone(),
            data_region: scenario.data_region.clone(),
            verdict: scenario.verdict.clone(),
            stage_classes_from: None,
        }),
        None => serde_json::to_value(scenario),
    }
    .unwrap_or(Value::Null);
    let mut changes: Map<String, Value> = leaf_differences(&base, &doc)
        .into_iter()
        .map(|(path, _, value)| (path, value))
        .collect();
    // A platform of another kind than the preset's at its place (a hosted API where nodes
    // were, or nodes where an API was) is written whole: its profile, settings and pools only
    // read together, never one change at a time.
    let base_platforms = base.get("platforms").and_then(Value::as_array);
    for (i, p) in scenario.platforms.iter().enumerate() {
        let ran_nodes = base_platforms
            .and_then(|all| all.get(i))
            .map(|b| b.get("hosted_api").is_none_or(Value::is_null));
        if ran_nodes.is_some_and(|nodes| nodes != p.runs_nodes()) {
            let prefix = format!("platforms.{i}.");
            changes.retain(|path, _| !path.starts_with(&prefix));
            if let Some(whole) = doc.get("platforms").and_then(|all| all.get(i)) {
                changes.insert(format!("platforms.{i}"), whole.clone());
            }
        }
    }
    for (i, p) in scenario.platforms.iter().enumerate() {
        for (j, pool) in p.node_pools.iter().enumerate() {
            for (field, value) in [
                (
                    "on_demand_usd_per_node_hour",
                    pool.on_demand_usd_per_node_hour,
                ),
                ("spot_usd_per_node_hour", pool.spot_usd_per_node_hour),
            ] {
                changes
                    .entry(format!("platforms.{i}.node_pools.{j}.{field}"))
                    .or_insert_with(|| Value::from(value));
            }
        }
    }
    let payload = serde_json::json!({ "c": changes }).to_string();
    let packed = miniz_oxide::deflate::compress_to_vec(payload.as_bytes(), 9);
    let replay = match &scenario.replay {
        Some(r) if Replay::is_key(&r.key) => format!("&r={}", r.key),
        _ => String::new(),
    };
    format!(
        "v={LINK_VERSION}&p={}@{}&d={}{replay}",
        chosen.name,
        chosen.version,
        URL_SAFE_NO_PAD.encode(packed)
    )
}

/// The chart an embedded view shows below its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EmbedChart {
    /// Mean monthly TCO by cost category.
    #[default]
    Breakdown,
    /// Cost per useful GPU-hour across replications.
    Distribution,
    /// Nodes and jobs over the first days of one run.
    Timeline,
}

impl EmbedChart {
    /// Every chart, in the Embed dialog's order.
    pub const ALL: [EmbedChart; 3] = [
        EmbedChart::Breakdown,
        EmbedChart::Distribution,
        EmbedChart::Timeline,
    ];

    /// Its value in the link (`chart=…`).
    pub fn key(self) -> &'static str {
        match self {
            EmbedChart::Breakdown => "breakdown",
            EmbedChart::Distribution => "distribution",
            EmbedChart::Timeline => "timeline",
        }
    }

    /// Its name in the Embed dialog.
    pub fn label(self) -> &'static str {
        match self {
            EmbedChart::Breakdown => "Cost breakdown",
            EmbedChart::Distribution => "Cost distribution",
            EmbedChart::Timeline => "Node timeline",
        }
    }

    /// The chart of a link's `chart=` value.
    pub fn from_key(key: &str) -> Option<EmbedChart> {
        EmbedChart::ALL.into_iter().find(|c| c.key() == key)
    }
}

/// A scenario read from a link, with what could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedLink {
    /// The scenario: the preset with every change that could be applied.
    pub scenario: Scenario,
    /// The preset it starts from.
    pub preset: String,
    /// Whether the link asks for the embed view (`embed=1`).
    pub embed: bool,
    /// The one chart the embed view shows (`chart=breakdown|distribution|timeline`).
    pub embed_chart: EmbedChart,
    /// One plain-text sentence per thing ignored; empty when the whole link was read.
    pub notices: Vec<String>,
    /// The content key of the job history the link was made replaying (`r=…`): the page
    /// replays it if this browser keeps it, else shows the fitted classes the link carries.
    pub replay_key: Option<String>,
    /// The decision map the link shows (`map=…`, see [`MapSettings::link_part`]).
    pub map: Option<MapSettings>,
}

/// Reads a fragment (with or without the leading `#`, or a whole URL). Never fails.
pub fn decode_link(link: &str) -> DecodedLink {
    let mut notices = Vec::new();
    let fragment = link.split_once('#').map_or(link, |(_, f)| f);
    let default = || preset(DEFAULT).expect("default preset");
    let mut out = DecodedLink {
        scenario: default().scenario(),
        preset: DEFAULT.to_string(),
        embed: false,
        embed_chart: EmbedChart::default(),
        notices: Vec::new(),
        replay_key: None,
        map: None,
    };
    if fragment.trim().is_empty() {
        return out;
    }
    if fragment.len() > MAX_LINK_CHARS {
        out.notices.push(format!(
            "The link is {} characters long, more than the {MAX_LINK_CHARS} this page reads; \
             opened the default scenario.",
            fragment.len()
        ));
        return out;
    }
    let mut version = None;
    let mut preset_field = None;
    let mut payload = None;
    for part in fragment.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        match key {
            "v" => version = Some(value),
            "p" => preset_field = Some(value),
            "d" => payload = Some(value),
            "embed" => out.embed = value == "1",
            "r" if Replay::is_key(value) => out.replay_key = Some(value.to_string()),
            "r" => notices.push(format!(
                "Ignored the job history's key \"{}\": not a content key; the fitted classes \
                 the link carries are shown.",
                shorten(40, value)
            )),
            "map" => match MapSettings::from_link_value(value) {
                Ok(map) => out.map = Some(map),
                Err(why) => notices.push(format!("Ignored the decision map's settings: {why}.")),
            },
            "chart" => match EmbedChart::from_key(value) {
                Some(chart) => out.embed_chart = chart,
                None => notices.push(format!(
                    "Ignored the chart \"{}\": one of {}.",
                    shorten(40, value),
                    EmbedChart::ALL.map(EmbedChart::key).join(", ")
                )),
            },
            other => notices.push(format!(
                "Ignored the unknown link part \"{}\".",
                shorten(80, other)
            )),
        }
    }
    match version.map(str::parse::<u32>) {
        Some(Ok(v)) if v == LINK_VERSION => {}
        Some(Ok(v)) if v > LINK_VERSION => {
            notices.push(format!(
                "The link is format version {v}, newer than this page (version {LINK_VERSION}); \
                 opened the default scenario. Open it in a newer copy of the calculator."
            ));
            out.notices = notices;
            return out;
        }
        Some(_) => {
            notices.push(
                "The link's version is not one this page knows; opened the default scenario."
                    .into(),
            );
            out.notices = notices;
            return out;
        }
        None => notices.push(format!(
            "The link names no version; read it as version {LINK_VERSION}."
        )),
    }
    if let Some(field) = preset_field {
        let (name, wanted) = field.split_once('@').unwrap_or((field, ""));
        match preset(name) {
            Some(p) => {
                out.preset = p.name.to_string();
                match wanted
                    .parse::<u32>()
                    .ok()
                    .and_then(|v| preset_scenario_at(p.name, v))
                {
                    // The link's own version, current or frozen.
                    Some(scenario) => out.scenario = scenario,
                    // A hand-written link that names no version: the newest.
                    None if wanted.is_empty() => out.scenario = p.scenario(),
                    None => {
                        out.scenario = p.scenario();
                        notices.push(format!(
                            "The link was made with version \"{}\" of preset {}, which this page \
                             does not have (it has version {}), so values the link does not carry \
                             may differ.",
                            shorten(80, wanted),
                            p.name,
                            p.version
                        ));
                    }
                }
            }
            None => notices.push(format!(
                "The link names an unknown preset \"{}\"; started from the default preset.",
                shorten(80, name)
            )),
        }
    }
    if let Some(data) = payload {
        match read_payload(data) {
            Ok(changes) => apply_changes(&mut out.scenario, changes, &mut notices),
            Err(why) => notices.push(format!(
                "{why} Its changes were ignored; the preset's values are shown."
            )),
        }
    }
    out.notices = notices;
    out
}

fn read_payload(data: &str) -> Result<Map<String, Value>, String> {
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|_| "The scenario part of the link is damaged (not base64url).".to_string())?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_PAYLOAD_BYTES)
        .map_err(|_| {
            "The scenario part of the link is truncated or damaged (it does not decompress)."
                .to_string()
        })?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|_| "The scenario part of the link is not valid JSON.".to_string())?;
    match value {
        Value::Object(mut top) => match top.remove("c") {
            Some(Value::Object(changes)) => Ok(changes),
            _ => Err("The scenario part of the link has no list of changes.".to_string()),
        },
        _ => Err("The scenario part of the link has no list of changes.".to_string()),
    }
}

/// Applies each change on its own; one that names no field, has the wrong type or is out of
/// range is skipped with a notice, and the others still apply.
fn apply_changes(scenario: &mut Scenario, changes: Map<String, Value>, notices: &mut Vec<String>) {
    for (path, value) in changes {
        let Ok(mut doc) = serde_json::to_value(&*scenario) else {
            return;
        };
        // A path of the old, single-pool shape names pool 0's field.
        let applied = match set_at(&mut doc, &canonical_path(&path), value) {
            Ok(()) => match Scenario::from_json_value(doc) {
                Ok(next) => match next.validate() {
                    Ok(()) => {
                        *scenario = next;
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                },
                Err(e) => Err(e.to_string()),
            },
            Err(_) => Err("no such field".to_string()),
        };
        if let Err(why) = applied {
            notices.push(format!(
                "Ignored {}: {}; kept the previous value.",
                shorten(80, &path),
                shorten(80, &why)
            ));
        }
    }
}

/// Sets the field `path` names to `value`. Every part but the last must exist; the last may
/// be a key an object lacks (an optional part added), and null takes an optional part away
/// (absent, it reads as its default).
fn set_at(doc: &mut Value, path: &str, value: Value) -> Result<(), ()> {
    let (parent, key) = match path.rsplit_once('.') {
        Some((parent, key)) => (field_mut(doc, parent).map_err(|_| ())?, key),
        None => (doc, path),
    };
    match parent {
        Value::Object(map) if !key.is_empty() => {
            if value.is_null() {
                map.remove(key);
            } else {
                map.insert(key.to_string(), value);
            }
            Ok(())
        }
        Value::Array(items) => {
            let slot = key
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .ok_or(())?;
            *slot = value;
            Ok(())
        }
        _ => Err(()),
    }
}
