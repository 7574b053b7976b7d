//! One platform over all replications: the table of outputs' summaries
//! ([`crate::model::output`]) and the figures with tables of their own (the breakdown, the
//! services, the teams, the pipelines), read and written as the report's `platforms` entries.

use crate::model::cost_category::Breakdown;
use crate::model::monte_carlo::{PipelineResult, ServiceResult, TeamResult};
use crate::model::output::{Output, PerOutput, Presence};
use crate::model::stats::{Histogram, Summary};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One platform over all replications. Each output of the table is read by its accessor
/// (`result.monthly_tco_usd()`) or by [`PlatformResult::get`].
#[derive(Debug, Clone, PartialEq)]
pub struct PlatformResult {
    /// Platform name.
    pub name: String,
    /// Each output's summary: `None` where the platform has none.
    pub(crate) outputs: PerOutput<Option<Summary>>,
    /// Mean monthly cost by category, USD; the categories add up to the mean total.
    pub breakdown_usd: Breakdown,
    /// Histogram of USD per useful GPU-hour over replications.
    pub usd_per_useful_gpu_hour_histogram: Histogram,
    /// The scenario's services on this platform, in its order (absent without services).
    pub services: Vec<ServiceResult>,
    /// Each team's bill (absent where no job class names a team and no platform sets a team
    /// policy).
    pub teams: Vec<TeamResult>,
    /// Each pipeline on this platform, in the scenario's order (absent without pipelines).
    pub pipelines: Vec<PipelineResult>,
}

impl PlatformResult {
    /// The summary of `output` over replications; `None` where this platform has none.
    pub fn get(&self, output: Output) -> Option<Summary> {
        self.outputs[output]
    }

    /// Whether this platform's report carries `output`: one every platform has always, one
    /// measured where it can be always (`null` where no replication measured it), one that
    /// applies only somewhere only where it has a value. The JSON, the CSV and the cards
    /// follow it.
    pub fn reports(&self, output: Output) -> bool {
        match output.row().presence {
            Presence::Always | Presence::WhereMeasured => true,
            Presence::Where(_) | Presence::MeasuredWhere(_) => self.outputs[output].is_some(),
        }
    }
}

/// A key of a report's platform entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    Name,
    Output(Output),
    Breakdown,
    Histogram,
    Services,
    Teams,
    Pipelines,
}

/// The figures outside the table, each after the output it follows in the report (the order
/// reports have always had).
const PLACED_AFTER: [(Output, &[Entry]); 4] = [
    (Output::QueueWaitProvisioningMin, &[Entry::Breakdown]),
    (
        Output::TurnaroundInflation,
        &[Entry::Histogram, Entry::Services],
    ),
    (Output::ServiceGpuHoursWithoutNode, &[Entry::Teams]),
    (Output::WaitingCostUsd, &[Entry::Pipelines]),
];

/// Every key in the report's order.
fn layout() -> Vec<Entry> {
    let mut out = vec![Entry::Name];
    for output in Output::ALL {
        out.push(Entry::Output(output));
        for (after, entries) in PLACED_AFTER {
            if after == output {
                out.extend_from_slice(entries);
            }
        }
    }
    out
}

impl Entry {
    fn key(self) -> &'static str {
        match self {
            Entry::Name => "name",
            Entry::Output(output) => output.key(),
            Entry::Breakdown => "breakdown_usd",
            Entry::Histogram => "usd_per_useful_gpu_hour_histogram",
            Entry::Services => "services",
            Entry::Teams => "teams",
            Entry::Pipelines => "pipelines",
        }
    }

    /// Whether a platform entry must have it: outputs every platform has, and the figures
    /// every platform has.
    fn required(self) -> bool {
        match self {
            Entry::Output(output) => matches!(output.row().presence, Presence::Always),
            Entry::Name | Entry::Breakdown | Entry::Histogram => true,
            Entry::Services | Entry::Teams | Entry::Pipelines => false,
        }
    }
}

/// Written with the outputs in the table's order: an output every platform has always, one
/// measured where it could be as `null` where none was, one that applies only somewhere
/// only there.
impl Serialize for PlatformResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for entry in layout() {
            let key = entry.key();
            match entry {
                Entry::Name => map.serialize_entry(key, &self.name)?,
                Entry::Output(output) if self.reports(output) => {
                    map.serialize_entry(key, &self.outputs[output])?
                }
                Entry::Output(_) => {}
                Entry::Breakdown => map.serialize_entry(key, &self.breakdown_usd)?,
                Entry::Histogram => {
                    map.serialize_entry(key, &self.usd_per_useful_gpu_hour_histogram)?
                }
                Entry::Services if !self.services.is_empty() => {
                    map.serialize_entry(key, &self.services)?
                }
                Entry::Teams if !self.teams.is_empty() => map.serialize_entry(key, &self.teams)?,
                Entry::Pipelines if !self.pipelines.is_empty() => {
                    map.serialize_entry(key, &self.pipelines)?
                }
                Entry::Services | Entry::Teams | Entry::Pipelines => {}
            }
        }
        map.end()
    }
}

/// Read from an object with every required key; an output that applies only somewhere, or
/// that was measured nowhere, may be absent (none); other keys are ignored.
impl<'de> Deserialize<'de> for PlatformResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PlatformResultVisitor;
        impl<'de> Visitor<'de> for PlatformResultVisitor {
            type Value = PlatformResult;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a platform's results")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut seen: Vec<Entry> = Vec::new();
                let mut name = None;
                let mut outputs = PerOutput::<Option<Summary>>::default();
                let mut breakdown_usd = None;
                let mut histogram = None;
                let (mut services, mut teams, mut pipelines) = (vec![], vec![], vec![]);
                let layout = layout();
                while let Some(key) = map.next_key::<String>()? {
                    let Some(&entry) = layout.iter().find(|e| e.key() == key) else {
                        map.next_value::<de::IgnoredAny>()?;
                        continue;
                    };
                    if seen.contains(&entry) {
                        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
                    }
                    seen.push(entry);
                    match entry {
                        Entry::Name => name = Some(map.next_value()?),
                        Entry::Output(output) => outputs[output] = map.next_value()?,
                        Entry::Breakdown => breakdown_usd = Some(map.next_value()?),
                        Entry::Histogram => histogram = Some(map.next_value()?),
                        Entry::Services => services = map.next_value()?,
                        Entry::Teams => teams = map.next_value()?,
                        Entry::Pipelines => pipelines = map.next_value()?,
                    }
                }
                if let Some(missing) = layout
                    .into_iter()
                    .find(|e| e.required() && !seen.contains(e))
                {
                    return Err(de::Error::missing_field(missing.key()));
                }
                // Every output every platform has is there, and not `null`.
                if let Some(null) = Output::ALL
                    .into_iter()
                    .find(|&o| matches!(o.row().presence, Presence::Always) && outputs[o].is_none())
                {
                    return Err(de::Error::custom(format_args!(
                        "`{}` is null where every platform has one",
                        null.key()
                    )));
                }
                Ok(PlatformResult {
                    name: name.unwrap_or_default(),
                    outputs,
                    breakdown_usd: breakdown_usd.unwrap_or_default(),
                    usd_per_useful_gpu_hour_histogram: histogram.unwrap_or(Histogram {
                        start: 0.0,
                        width: 1.0,
                        counts: vec![],
                    }),
                    services,
                    teams,
                    pipelines,
                })
            }
        }
        deserializer.deserialize_map(PlatformResultVisitor)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for PlatformResult {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PlatformResult".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut properties = serde_json::Map::new();
        let mut required: Vec<serde_json::Value> = Vec::new();
        for entry in layout() {
            let (mut schema, description) = match entry {
                Entry::Name => (generator.subschema_for::<String>(), "Platform name.".into()),
                Entry::Output(output) => {
                    let schema = match output.row().presence {
                        Presence::Always => generator.subschema_for::<Summary>(),
                        Presence::WhereMeasured
                        | Presence::Where(_)
                        | Presence::MeasuredWhere(_) => {
                            generator.subschema_for::<Option<Summary>>()
                        }
                    };
                    (schema, output.doc())
                }
                Entry::Breakdown => (
                    generator.subschema_for::<Breakdown>(),
                    "Mean monthly cost by category, USD; the categories add up to the mean total."
                        .into(),
                ),
                Entry::Histogram => (
                    generator.subschema_for::<Histogram>(),
                    "Histogram of USD per useful GPU-hour over replications.".into(),
                ),
                Entry::Services => (
                    generator.subschema_for::<Vec<ServiceResult>>(),
                    "The scenario's services on this platform, in its order (absent without services)."
                        .into(),
                ),
                Entry::Teams => (
                    generator.subschema_for::<Vec<TeamResult>>(),
                    "Each team's bill (absent where no job class names a team and no platform sets a team\npolicy)."
                        .into(),
                ),
                Entry::Pipelines => (
                    generator.subschema_for::<Vec<PipelineResult>>(),
                    "Each pipeline on this platform, in the scenario's order (absent without pipelines)."
                        .into(),
                ),
            };
            schema.insert("description".into(), description.into());
            properties.insert(entry.key().into(), schema.to_value());
            if entry.required() {
                required.push(entry.key().into());
            }
        }
        schemars::json_schema!({
            "description": "One platform over all replications.",
            "type": "object",
            "properties": properties,
            "required": required,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::monte_carlo::MonteCarlo;
    use crate::model::scenario::Scenario;

    fn result() -> PlatformResult {
        let scenario = Scenario {
            horizon_days: 2.0,
            replications: 3,
            ..Scenario::default()
        };
        let mut run = MonteCarlo::new(scenario).unwrap();
        run.run_to_end();
        run.results().platforms[0].clone()
    }

    #[test]
    fn a_result_reads_back_what_it_writes_in_the_reports_order() {
        let r = result();
        let text = serde_json::to_string(&r).unwrap();
        assert!(
            text.starts_with(r#"{"name":"#) && text.contains(r#""usd_per_useful_gpu_hour":{"#),
            "{text}"
        );
        let keys: Vec<String> = serde_json::from_str::<serde_json::Value>(&text)
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert!(keys.contains(&"breakdown_usd".to_string()), "{keys:?}");
        // An output that applies only somewhere is left out where it does not.
        assert!(!keys.contains(&"waiting_cost_usd".to_string()), "{keys:?}");
        assert_eq!(serde_json::from_str::<PlatformResult>(&text).unwrap(), r);
    }

    #[test]
    fn a_missing_or_null_output_every_platform_has_is_named() {
        let mut value = serde_json::to_value(result()).unwrap();
        let object = value.as_object_mut().unwrap();
        object.remove("peak_nodes");
        let err = serde_json::from_value::<PlatformResult>(value.clone()).unwrap_err();
        assert!(
            err.to_string().contains("missing field `peak_nodes`"),
            "{err}"
        );
        value["peak_nodes"] = serde_json::Value::Null;
        let err = serde_json::from_value::<PlatformResult>(value).unwrap_err();
        assert!(err.to_string().contains("`peak_nodes` is null"), "{err}");
    }
}
