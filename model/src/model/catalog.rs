//! The price catalog: GPU instance types with list prices, compiled in from
//! `data/catalog.csv`. What each GPU model is (memory, throughput, peak FLOP/s) is the GPU
//! table, [`crate::model::gpus`].
//!
//! The data file is written for this project from public figures (see README.md, "Price
//! data"); its `as_of` column dates each row. Rows with no on-demand or spot quote keep the
//! missing price as `None`, never as zero.

use super::scenario::Cloud;
use std::sync::OnceLock;

/// When the catalog's prices were taken, per cloud, as shown in the UI.
pub const AS_OF: &str =
    "AWS 2026-H2 (SkyPilot catalog v9, after the mid-2025 P4/P5 price cut), GCP \
                         2026-07-30 (Cloud Billing Catalog)";

const DATA: &str = include_str!("../../../data/catalog.csv");

/// One instance type in one region.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceType {
    /// The cloud (`aws` or `gcp` in the data file).
    pub cloud: Cloud,
    /// Instance type name, e.g. `p4d.24xlarge`.
    pub name: String,
    /// Region of the prices.
    pub region: String,
    /// GPU model, e.g. `A100`.
    pub gpu_model: String,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// Memory per GPU, GB (as the provider reports it).
    pub gpu_memory_gb: f64,
    /// On-demand list price, USD per node-hour, if quoted.
    pub on_demand_usd_per_node_hour: Option<f64>,
    /// Spot price, USD per node-hour, if quoted (a snapshot; spot prices move daily).
    pub spot_usd_per_node_hour: Option<f64>,
    /// Date of the price.
    pub as_of: String,
}

/// The compiled-in catalog, parsed once.
pub fn catalog() -> &'static [InstanceType] {
    static CATALOG: OnceLock<Vec<InstanceType>> = OnceLock::new();
    CATALOG.get_or_init(|| parse(DATA).expect("data/catalog.csv is checked by the tests"))
}

/// The instance type `name` in `region`, if the catalog has it.
pub fn find(name: &str, region: &str) -> Option<&'static InstanceType> {
    catalog()
        .iter()
        .find(|row| row.name == name && row.region == region)
}

/// Parses the catalog CSV (comment lines start with `#`; the first other line is the header).
pub fn parse(text: &str) -> Result<Vec<InstanceType>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    let (_, header) = lines.next().ok_or("empty catalog")?;
    let expected = "cloud,instance_type,region,gpu_model,gpus_per_node,gpu_memory_gb,\
                    on_demand_usd_per_node_hour,spot_usd_per_node_hour,as_of";
    if header != expected {
        return Err(format!(
            "catalog header is {header:?}, expected {expected:?}"
        ));
    }
    lines
        .map(|(i, line)| {
            let f: Vec<&str> = line.split(',').collect();
            let at = |what: &str| format!("catalog line {}: bad {what}: {line}", i + 1);
            if f.len() != 9 {
                return Err(at("column count"));
            }
            let price = |s: &str, what: &str| -> Result<Option<f64>, String> {
                if s.is_empty() {
                    Ok(None)
                } else {
                    s.parse::<f64>()
                        .ok()
                        .filter(|p| p.is_finite() && *p > 0.0)
                        .map(Some)
                        .ok_or_else(|| at(what))
                }
            };
            let cloud = Cloud::from_id(f[0]).ok_or_else(|| at("cloud"))?;
            Ok(InstanceType {
                cloud,
                name: f[1].to_string(),
                region: f[2].to_string(),
                gpu_model: f[3].to_string(),
                gpus_per_node: f[4].parse().map_err(|_| at("gpus_per_node"))?,
                gpu_memory_gb: f[5].parse().map_err(|_| at("gpu_memory_gb"))?,
                on_demand_usd_per_node_hour: price(f[6], "on-demand price")?,
                spot_usd_per_node_hour: price(f[7], "spot price")?,
                as_of: f[8].to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_catalog_parses_with_both_clouds() {
        let rows = parse(DATA).unwrap();
        assert_eq!(rows.len(), 141);
        assert_eq!(rows.iter().filter(|r| r.cloud == Cloud::Aws).count(), 83);
        // 54 Compute Engine rows, 3 TPU v5e nodes and Cloud Run's one-L4 instance.
        assert_eq!(rows.iter().filter(|r| r.cloud == Cloud::Gcp).count(), 58);
        let run = rows.iter().find(|r| r.name == "cloud-run-l4").unwrap();
        assert_eq!(
            (run.on_demand_usd_per_node_hour, run.spot_usd_per_node_hour),
            (Some(1.0465), None)
        );
    }

    #[test]
    fn p4d_and_p5_rows_match_the_post_cut_snapshot() {
        // SkyPilot catalog v9 at 2c3d7ea: us-east-1 on demand, and the median of the spot
        // quotes of use1-az1, -az2, -az4 and -az6 (8.0087, 6.5323, 13.9933, 11.787).
        let p4d = find("p4d.24xlarge", "us-east-1").unwrap();
        assert_eq!(p4d.gpus_per_node, 8);
        assert_eq!(p4d.gpu_memory_gb, 40.0);
        assert_eq!(p4d.on_demand_usd_per_node_hour, Some(21.957642));
        assert_eq!(p4d.spot_usd_per_node_hour, Some((8.0087 + 11.787) / 2.0));
        assert_eq!(p4d.as_of, "2026-H2");
        // After the mid-2025 cut: $55.04, not the $98.32 of before.
        let p5 = find("p5.48xlarge", "us-east-1").unwrap();
        assert_eq!(p5.on_demand_usd_per_node_hour, Some(55.04));
    }

    #[test]
    fn inferentia2_and_tpu_v5e_rows_are_the_cited_snapshots() {
        // SkyPilot v7 at 001367d: inf2.48xlarge us-east-1 on demand, the median spot of its
        // four zones; 12 chips of 32 GiB (AWS Neuron docs).
        let inf2 = find("inf2.48xlarge", "us-east-1").unwrap();
        assert_eq!((inf2.gpus_per_node, inf2.gpu_memory_gb), (12, 32.0));
        assert_eq!(inf2.on_demand_usd_per_node_hour, Some(12.98127));
        // TPU v5e: $1.20 a chip-hour, 8 chips of 16 GB on a ct5lp-hightpu-8t.
        let tpu = find("ct5lp-hightpu-8t", "us-central1").unwrap();
        assert_eq!((tpu.gpus_per_node, tpu.gpu_memory_gb), (8, 16.0));
        assert_eq!(tpu.on_demand_usd_per_node_hour, Some(9.6));
        let family = |m: &str| crate::model::gpus::find(m).is_some_and(|g| g.family_dependent);
        assert!(family(&inf2.gpu_model) && family(&tpu.gpu_model) && !family("A100"));
    }

    #[test]
    fn bad_rows_are_reported_by_line() {
        let text = "cloud,instance_type,region,gpu_model,gpus_per_node,gpu_memory_gb,\
                    on_demand_usd_per_node_hour,spot_usd_per_node_hour,as_of\n\
                    aws,x,r,A100,eight,40,1,1,2025";
        let err = parse(text).unwrap_err();
        assert!(
            err.contains("line 2") && err.contains("gpus_per_node"),
            "{err}"
        );
    }
}
