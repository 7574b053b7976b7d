//! "A is cheaper than B in X % of replications": the paired comparison of two platforms on
//! each output a verdict can rank by ([`crate::model::output::Ranking`]). Common random numbers
//! make the comparison paired: both platforms see the same jobs in each replication.

use crate::model::output::{Output, PerOutput, Presence};
use crate::model::sim::PlatformOutcome;
use crate::model::stats::wilson_interval;
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// "A is cheaper than B in X % of replications" (common random numbers make this paired).
#[derive(Debug, Clone, PartialEq)]
pub struct PairedComparison {
    /// Platform A.
    pub a: String,
    /// Platform B.
    pub b: String,
    /// For each output a verdict ranks by, the share (0–1) of replications in which A's is
    /// below B's; `None` for the others.
    shares: PerOutput<Option<f64>>,
    /// Each share's 95 % Wilson interval (a share of 100 % has no useful binomial standard
    /// error); `None` where there is no share, or in a report written before them.
    intervals: PerOutput<Option<(f64, f64)>>,
}

/// The outputs a verdict can rank by, in the table's order.
fn ranked() -> impl Iterator<Item = Output> {
    Output::ALL
        .into_iter()
        .filter(|o| o.row().ranking.is_some())
}

/// The key of a share's 95 % Wilson interval: `a_cheaper_share_wilson95`.
fn interval_key(paired_key: &str) -> String {
    format!("{paired_key}_wilson95")
}

/// Whether `output` is compared only where it was measured (absent from a comparison of
/// platforms that never measured it).
fn only_where_measured(output: Output) -> bool {
    matches!(output.row().presence, Presence::MeasuredWhere(_))
}

/// Whether every report has `output`'s share: the two every report has had (the monthly TCO
/// and the cost per useful GPU-hour). Those added since (the cloud bill's, requests', runs')
/// may be absent from an older report, which reads without them.
fn in_every_report(output: Output) -> bool {
    matches!(output, Output::MonthlyTcoUsd | Output::UsdPerUsefulGpuHour)
}

impl PairedComparison {
    /// A against B over replications (`pairs`: A's and B's outcome in each, in replication
    /// order).
    pub fn of<'a>(
        a: &str,
        b: &str,
        pairs: impl Iterator<Item = (&'a PlatformOutcome, &'a PlatformOutcome)> + Clone,
    ) -> PairedComparison {
        let n = pairs.clone().count();
        let shares = PerOutput::from_fn(|output| {
            output.row().ranking?;
            // One measured only where the scenario has that work (requests, pipeline runs):
            // compared only where one of the two measured it.
            if only_where_measured(output) {
                let measure = output.row().measure;
                pairs
                    .clone()
                    .find(|(a, b)| measure(a).is_some() || measure(b).is_some())?;
            }
            let wins = pairs.clone().filter(|(a, b)| output.lower(a, b)).count();
            Some(if n > 0 { wins as f64 / n as f64 } else { 0.0 })
        });
        let intervals = PerOutput::from_fn(|output| {
            shares[output].map(|share| {
                let n = n as u32;
                wilson_interval((share * f64::from(n)).round() as u32, n)
            })
        });
        PairedComparison {
            a: a.to_string(),
            b: b.to_string(),
            shares,
            intervals,
        }
    }

    /// The share (0–1) of replications in which A's `output` is below B's; `None` for an
    /// output no verdict ranks by.
    pub fn lower_share(&self, output: Output) -> Option<f64> {
        self.shares[output]
    }

    /// The 95 % Wilson interval of [`PairedComparison::lower_share`], where the comparison has
    /// it.
    pub fn interval(&self, output: Output) -> Option<(f64, f64)> {
        self.intervals[output]
    }

    /// The share of replications in which A's monthly TCO is below B's.
    pub fn a_cheaper_share(&self) -> f64 {
        self.shares[Output::MonthlyTcoUsd].unwrap_or_default()
    }
}

/// Written as `a`, `b` and each ranked output's share under its `paired_key`.
impl Serialize for PairedComparison {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("a", &self.a)?;
        map.serialize_entry("b", &self.b)?;
        for output in ranked() {
            if let (Some(ranking), Some(share)) = (output.row().ranking, self.shares[output]) {
                map.serialize_entry(ranking.paired_key, &share)?;
                if let Some((lo, hi)) = self.intervals[output] {
                    map.serialize_entry(&interval_key(ranking.paired_key), &[lo, hi])?;
                }
            }
        }
        map.end()
    }
}

/// Read from an object with `a`, `b` and the shares every report has (those added since may be
/// absent); other keys are ignored.
impl<'de> Deserialize<'de> for PairedComparison {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PairedVisitor;
        impl<'de> Visitor<'de> for PairedVisitor {
            type Value = PairedComparison;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a paired comparison of two platforms")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let (mut a, mut b) = (None, None);
                let mut shares = PerOutput::<Option<f64>>::default();
                let mut intervals = PerOutput::<Option<(f64, f64)>>::default();
                while let Some(key) = map.next_key::<String>()? {
                    let duplicate = || de::Error::custom(format_args!("duplicate field `{key}`"));
                    match key.as_str() {
                        "a" if a.is_some() => return Err(duplicate()),
                        "a" => a = Some(map.next_value()?),
                        "b" if b.is_some() => return Err(duplicate()),
                        "b" => b = Some(map.next_value()?),
                        _ => match ranked().find_map(|o| {
                            let paired = o.row().ranking?.paired_key;
                            (paired == key)
                                .then_some((o, false))
                                .or_else(|| (interval_key(paired) == key).then_some((o, true)))
                        }) {
                            Some((o, false)) if shares[o].is_some() => return Err(duplicate()),
                            Some((o, false)) => shares[o] = Some(map.next_value()?),
                            Some((o, true)) if intervals[o].is_some() => return Err(duplicate()),
                            Some((o, true)) => {
                                let [lo, hi]: [f64; 2] = map.next_value()?;
                                intervals[o] = Some((lo, hi));
                            }
                            None => {
                                map.next_value::<de::IgnoredAny>()?;
                            }
                        },
                    }
                }
                let a = a.ok_or_else(|| de::Error::missing_field("a"))?;
                let b = b.ok_or_else(|| de::Error::missing_field("b"))?;
                for output in ranked().filter(|&o| in_every_report(o)) {
                    if let (Some(ranking), None) = (output.row().ranking, shares[output]) {
                        return Err(de::Error::missing_field(ranking.paired_key));
                    }
                }
                Ok(PairedComparison {
                    a,
                    b,
                    shares,
                    intervals,
                })
            }
        }
        deserializer.deserialize_map(PairedVisitor)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for PairedComparison {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PairedComparison".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut properties = serde_json::Map::new();
        let mut required: Vec<serde_json::Value> = Vec::new();
        let mut add =
            |key: &str, mut schema: schemars::Schema, description: &str, is_required: bool| {
                schema.insert("description".into(), description.into());
                properties.insert(key.into(), schema.to_value());
                if is_required {
                    required.push(key.into());
                }
            };
        add(
            "a",
            generator.subschema_for::<String>(),
            "Platform A.",
            true,
        );
        add(
            "b",
            generator.subschema_for::<String>(),
            "Platform B.",
            true,
        );
        for output in ranked() {
            if let Some(ranking) = output.row().ranking {
                add(
                    ranking.paired_key,
                    generator.subschema_for::<f64>(),
                    ranking.paired_doc,
                    in_every_report(output),
                );
                add(
                    &interval_key(ranking.paired_key),
                    generator.subschema_for::<[f64; 2]>(),
                    "The share's 95 % Wilson score interval, [low, high] (a share of 0 or 1 has no\nuseful binomial standard error).",
                    false,
                );
            }
        }
        schemars::json_schema!({
            "description": "\"A is cheaper than B in X % of replications\" (common random numbers make this paired).",
            "type": "object",
            "properties": properties,
            "required": required,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_reads_back_what_it_writes_and_names_a_missing_share() {
        let text = r#"{"a":"A","b":"B","a_cheaper_share":0.25,"a_lower_usd_per_useful_gpu_hour_share":1.0}"#;
        let pair: PairedComparison = serde_json::from_str(text).unwrap();
        assert_eq!(pair.a_cheaper_share(), 0.25);
        assert_eq!(pair.lower_share(Output::UsdPerUsefulGpuHour), Some(1.0));
        assert_eq!(pair.lower_share(Output::PeakNodes), None);
        assert_eq!(serde_json::to_string(&pair).unwrap(), text);
        let err =
            serde_json::from_str::<PairedComparison>(r#"{"a":"A","b":"B","a_cheaper_share":0.25}"#)
                .unwrap_err();
        assert!(
            err.to_string()
                .contains("missing field `a_lower_usd_per_useful_gpu_hour_share`"),
            "{err}"
        );
    }
}
