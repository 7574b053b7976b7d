//! Negotiated discounts: one per cloud, read and written as `discounts.<cloud>_pct`
//! (`aws_pct`, `gcp_pct`, …), so a new cloud's discount is a key of its own and every
//! document and link written before it keeps reading.

use super::Cloud;
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::OnceLock;

/// Negotiated discounts (enterprise agreements), % off list price, applied to every compute
/// price of that cloud.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Discounts {
    /// % off each cloud's list prices, in [`Cloud::ALL`]'s order.
    pct: [f64; Cloud::ALL.len()],
}

impl Discounts {
    /// % off `cloud`'s list prices.
    pub fn pct(&self, cloud: Cloud) -> f64 {
        self.pct[cloud as usize]
    }

    /// Sets the % off `cloud`'s list prices.
    pub fn set_pct(&mut self, cloud: Cloud, pct: f64) {
        self.pct[cloud as usize] = pct;
    }

    /// Every discount with its cloud.
    pub fn iter(&self) -> impl Iterator<Item = (Cloud, f64)> + '_ {
        Cloud::ALL.into_iter().map(|c| (c, self.pct(c)))
    }
}

/// The keys of a `discounts` object, one per cloud.
fn keys() -> &'static [&'static str] {
    static KEYS: OnceLock<Vec<&'static str>> = OnceLock::new();
    KEYS.get_or_init(|| Cloud::ALL.iter().map(|c| c.discount_key()).collect())
}

impl Serialize for Discounts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Discounts", Cloud::ALL.len())?;
        for (cloud, pct) in self.iter() {
            out.serialize_field(cloud.discount_key(), &pct)?;
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for Discounts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Discounts;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("struct Discounts")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Discounts, A::Error> {
                let mut out = Discounts::default();
                let mut seen = [false; Cloud::ALL.len()];
                while let Some(key) = map.next_key::<String>()? {
                    let Some(cloud) = Cloud::ALL.into_iter().find(|c| c.discount_key() == key)
                    else {
                        return Err(de::Error::unknown_field(&key, keys()));
                    };
                    if std::mem::replace(&mut seen[cloud as usize], true) {
                        return Err(de::Error::duplicate_field(cloud.discount_key()));
                    }
                    out.set_pct(cloud, map.next_value()?);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_struct("Discounts", keys(), Keys)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for Discounts {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Discounts".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let properties: serde_json::Map<String, serde_json::Value> = Cloud::ALL
            .iter()
            .map(|c| {
                let f = c.facts();
                let property = serde_json::json!({
                    "description": format!("% off {} list prices.", f.short),
                    "type": "number",
                    "format": "double",
                    "default": 0.0
                });
                (c.discount_key().to_string(), property)
            })
            .collect();
        schemars::json_schema!({
            "description": "Negotiated discounts (enterprise agreements), % off list price, \
                            applied to every compute price of that cloud: one per cloud, keyed \
                            `<cloud>_pct`.",
            "type": "object",
            "properties": properties,
            "additionalProperties": false
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_one_key_per_cloud() {
        let d: Discounts = serde_json::from_str(r#"{"gcp_pct": 12.5}"#).unwrap();
        assert_eq!((d.pct(Cloud::Aws), d.pct(Cloud::Gcp)), (0.0, 12.5));
        let mut e = Discounts::default();
        e.set_pct(Cloud::Aws, 7.0);
        // Every cloud written, in the order of the clouds (as the struct it replaced wrote).
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"aws_pct":7.0,"gcp_pct":0.0,"azure_pct":0.0,"coreweave_pct":0.0,"lambda_pct":0.0,"nebius_pct":0.0}"#
        );
        let back: Discounts = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn an_unknown_or_repeated_key_is_refused_by_name() {
        let err = serde_json::from_str::<Discounts>(r#"{"ibm_pct": 1}"#).unwrap_err();
        assert!(
            err.to_string().starts_with(
                "unknown field `ibm_pct`, expected one of `aws_pct`, `gcp_pct`, `azure_pct`, \
                 `coreweave_pct`, `lambda_pct`, `nebius_pct`"
            ),
            "{err}"
        );
        let err = serde_json::from_str::<Discounts>(r#"{"aws_pct": 1, "aws_pct": 2}"#).unwrap_err();
        assert!(
            err.to_string().starts_with("duplicate field `aws_pct`"),
            "{err}"
        );
        assert!(serde_json::from_str::<Discounts>(r#"{"aws_pct": "x"}"#).is_err());
    }
}
