//! Two scenarios side by side: the fields that differ (by dotted path, as in links and
//! `--set`) and the headline numbers of each platform in both.

use crate::model::monte_carlo::{PlatformResult, Results};
use crate::model::scenario::Scenario;
use serde_json::Value;

/// One field that differs between scenario A and scenario B.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// Dotted path (`platforms.0.spot_usd_per_node_hour`); a list whose length differs (a
    /// platform or job class added or removed) is one difference, the whole list.
    pub path: String,
    /// A's value as JSON text (`—` when A has no such field).
    pub a: String,
    /// B's value as JSON text.
    pub b: String,
}

/// Leaf differences between two JSON documents, by dotted path; objects with different keys
/// and lists of different lengths are compared whole. `(path, base value, doc value)`.
pub(crate) fn leaf_differences(base: &Value, doc: &Value) -> Vec<(String, Value, Value)> {
    let mut out = Vec::new();
    walk("", base, doc, &mut out);
    out
}

fn walk(path: &str, base: &Value, doc: &Value, out: &mut Vec<(String, Value, Value)>) {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (base, doc) {
        (Value::Object(b), Value::Object(d))
            if b.keys().eq(d.keys()) || b.get("kind") == d.get("kind") =>
        {
            // A key on one side only (an optional part present or absent) differs from
            // null on the other. (A tagged union that changed its kind differs as a whole:
            // its fields are those of another variant.)
            for (key, dv) in d {
                walk(&join(key), b.get(key).unwrap_or(&Value::Null), dv, out);
            }
            for (key, bv) in b.iter().filter(|(k, _)| !d.contains_key(*k)) {
                walk(&join(key), bv, &Value::Null, out);
            }
        }
        (Value::Array(b), Value::Array(d)) if b.len() == d.len() => {
            for (i, (bv, dv)) in b.iter().zip(d).enumerate() {
                walk(&join(&i.to_string()), bv, dv, out);
            }
        }
        _ if base == doc => {}
        _ => out.push((path.to_string(), base.clone(), doc.clone())),
    }
}

/// The fields that differ between `a` and `b`, in document order.
pub fn differences(a: &Scenario, b: &Scenario) -> Vec<Difference> {
    let (Ok(a), Ok(b)) = (serde_json::to_value(a), serde_json::to_value(b)) else {
        return Vec::new();
    };
    leaf_differences(&a, &b)
        .into_iter()
        .map(|(path, a, b)| Difference {
            path,
            a: a.to_string(),
            b: b.to_string(),
        })
        .collect()
}

/// One platform's headline numbers in A and B (`None` where that side has no such platform or
/// no measurement).
#[derive(Debug, Clone, PartialEq)]
pub struct HeadlinePair {
    /// Platform name.
    pub platform: String,
    /// Monthly TCO p50 in A and B, USD.
    pub monthly_tco_p50: (Option<f64>, Option<f64>),
    /// USD per useful GPU-hour p50 in A and B.
    pub usd_per_useful_gpu_hour_p50: (Option<f64>, Option<f64>),
    /// Queue wait p95 (mean over replications) in A and B, minutes.
    pub queue_wait_p95_min: (Option<f64>, Option<f64>),
}

/// Every platform of A then those only in B, matched by name.
pub fn headline_pairs<'a>(a: &'a Results, b: &'a Results) -> Vec<HeadlinePair> {
    let mut names: Vec<&str> = a.platforms.iter().map(|p| p.name.as_str()).collect();
    for p in &b.platforms {
        if !names.contains(&p.name.as_str()) {
            names.push(&p.name);
        }
    }
    let find = |r: &'a Results, name: &str| r.platforms.iter().find(|p| p.name == name);
    names
        .into_iter()
        .map(|name| {
            let (pa, pb) = (find(a, name), find(b, name));
            let both =
                |f: &dyn Fn(&PlatformResult) -> Option<f64>| (pa.and_then(f), pb.and_then(f));
            HeadlinePair {
                platform: name.to_string(),
                monthly_tco_p50: both(&|p| Some(p.monthly_tco_usd().p50)),
                usd_per_useful_gpu_hour_p50: both(&|p| p.usd_per_useful_gpu_hour().map(|s| s.p50)),
                queue_wait_p95_min: both(&|p| Some(p.queue_wait_p95_min().mean)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbench::edit::apply_edits;
    use crate::workbench::presets::{preset, DEFAULT};

    #[test]
    fn differences_name_each_changed_field() {
        let a = preset(DEFAULT).unwrap().scenario();
        let b = apply_edits(
            &a,
            &[
                "platforms.1.spot_interruptions_per_node_hour=0.05".to_string(),
                "horizon_days=60".to_string(),
            ],
        )
        .unwrap();
        let diffs = differences(&a, &b);
        let paths: Vec<&str> = diffs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "horizon_days",
                "platforms.1.node_pools.0.spot_interruptions_per_node_hour"
            ]
        );
        assert_eq!(diffs[1].b, "0.05");
        assert!(differences(&a, &a).is_empty());
        // A removed platform is one difference: the whole list.
        let mut c = a.clone();
        c.platforms.pop();
        let diffs = differences(&a, &c);
        assert_eq!(diffs.len(), 1);
        assert_eq!(diffs[0].path, "platforms");
    }
}
