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
pub const AS_OF: &str = "AWS 2026-H2 (SkyPilot catalog v9, after the mid-2025 P4/P5 price cut), \
                         GCP 2026-07-30 (Cloud Billing Catalog), Azure 2024-H2 (SkyPilot \
                         catalog v6) with ND H100 v5 and ND H200 v5 from the Retail Prices API \
                         as read in 2026, CoreWeave 2026-10-10 (copies of its pricing page), \
                         Lambda 2026-09 (SkyPilot catalog v9 and its pricing page), Nebius \
                         2026-10-01 (its list from that date) (each row names its source)";

const DATA: &str = include_str!("../../../data/catalog.csv");

/// One instance type in one region.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceType {
    /// The cloud (its id in the data file: `aws`, `gcp`, `azure`, `coreweave`, …).
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
    /// Where the row's figures come from (a catalog and its commit, a price page and when
    /// it was read), or "assumption" and why.
    pub source: String,
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
/// Every row names its source in its last column, which holds no comma (`;` separates its
/// parts), and a date in `as_of`: a row without either is refused.
pub fn parse(text: &str) -> Result<Vec<InstanceType>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    let (_, header) = lines.next().ok_or("empty catalog")?;
    let expected = "cloud,instance_type,region,gpu_model,gpus_per_node,gpu_memory_gb,\
                    on_demand_usd_per_node_hour,spot_usd_per_node_hour,as_of,source";
    if header != expected {
        return Err(format!(
            "catalog header is {header:?}, expected {expected:?}"
        ));
    }
    lines
        .map(|(i, line)| {
            let f: Vec<&str> = line.split(',').collect();
            let at = |what: &str| format!("catalog line {}: bad {what}: {line}", i + 1);
            if f.len() != 10 {
                return Err(at(
                    "column count (10 columns; a source separates its parts with ';', not ',')",
                ));
            }
            let text = |s: &str, what: &str| -> Result<String, String> {
                let s = s.trim();
                if s.is_empty() {
                    Err(at(what))
                } else {
                    Ok(s.to_string())
                }
            };
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
                as_of: text(f[8], "as_of (every row is dated)")?,
                source: text(f[9], "source (every row names where its prices come from)")?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_catalog_parses_with_every_cloud() {
        let rows = parse(DATA).unwrap();
        assert_eq!(rows.len(), 176);
        // ND H100 v5, ND H200 v5, ND MI300X v5, three NC A100 v4, two NC H100 v5, two NVads
        // A10 v5 and four NCasT4 v3 sizes.
        assert_eq!(rows.iter().filter(|r| r.cloud == Cloud::Azure).count(), 14);
        assert_eq!(rows.iter().filter(|r| r.cloud == Cloud::Aws).count(), 83);
        // 54 Compute Engine rows, 3 TPU v5e nodes and Cloud Run's one-L4 instance.
        assert_eq!(rows.iter().filter(|r| r.cloud == Cloud::Gcp).count(), 58);
        // Five CoreWeave nodes; six Lambda instances and three 1-Click Cluster sizes; five
        // Nebius H100, H200 and B200 shapes and two L40S.
        let of = |cloud| rows.iter().filter(|r| r.cloud == cloud).count();
        assert_eq!(
            (of(Cloud::Coreweave), of(Cloud::Lambda), of(Cloud::Nebius)),
            (5, 9, 7)
        );
        // A region belongs to one cloud: the regions model keys data by its name alone.
        for row in &rows {
            assert!(
                rows.iter()
                    .all(|r| r.region != row.region || r.cloud == row.cloud),
                "{} is a region of two clouds",
                row.region
            );
        }
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
        const HEADER: &str = "cloud,instance_type,region,gpu_model,gpus_per_node,gpu_memory_gb,\
                              on_demand_usd_per_node_hour,spot_usd_per_node_hour,as_of,source\n";
        let err = parse(&format!("{HEADER}aws,x,r,A100,eight,40,1,1,2025,a page")).unwrap_err();
        assert!(
            err.contains("line 2") && err.contains("gpus_per_node"),
            "{err}"
        );
        // A row without its source, or without its date, is refused by name.
        let err = parse(&format!("{HEADER}aws,x,r,A100,8,40,1,1,2025,")).unwrap_err();
        assert!(
            err.contains("line 2") && err.contains("bad source"),
            "{err}"
        );
        let err = parse(&format!("{HEADER}aws,x,r,A100,8,40,1,1, ,a page")).unwrap_err();
        assert!(err.contains("bad as_of"), "{err}");
        // A comma inside a source is a column too many, and the message says what to use.
        let err = parse(&format!(
            "{HEADER}aws,x,r,A100,8,40,1,1,2025,a page, read today"
        ))
        .unwrap_err();
        assert!(err.contains("column count") && err.contains("';'"), "{err}");
        // The old nine-column header is refused.
        let old = "cloud,instance_type,region,gpu_model,gpus_per_node,gpu_memory_gb,\
                   on_demand_usd_per_node_hour,spot_usd_per_node_hour,as_of\n";
        assert!(parse(&format!("{old}aws,x,r,A100,8,40,1,1,2025")).is_err());
        let row = parse(&format!(
            "{HEADER}aws,x,r,A100,8,40,1,,2025-H2,a page; read today"
        ))
        .unwrap();
        assert_eq!(row[0].source, "a page; read today");
        assert_eq!(row[0].spot_usd_per_node_hour, None);
    }

    #[test]
    fn every_row_names_its_source_and_date() {
        // Every row of the compiled-in catalog: a date that reads as a year, a half or a day
        // (2026, 2026-H2, 2026-07-30), and a source that names a catalog with its commit, a
        // page with when it was read, or says it is an assumption.
        for row in catalog() {
            let date = &row.as_of;
            let year_ok = date.len() >= 4
                && date[..4].chars().all(|c| c.is_ascii_digit())
                && (date.len() == 4
                    || matches!(&date[4..], "-H1" | "-H2")
                    || (date.len() == 10
                        && date.as_bytes()[4] == b'-'
                        && date.as_bytes()[7] == b'-'));
            assert!(year_ok, "{} in {}: as_of {date:?}", row.name, row.region);
            let s = row.source.to_lowercase();
            let cited = s.contains(" at ")
                || s.contains("read 20")
                || s.contains("catalog 20")
                || s.contains("assumption");
            assert!(
                cited,
                "{} in {}: source {:?}",
                row.name, row.region, row.source
            );
        }
    }
}
