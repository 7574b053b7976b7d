//! The cost categories of MODEL.md, as one enum, and [`PerCategory`]: one value per category,
//! indexed by it.
//!
//! The first fourteen categories are GPU time (every paid GPU-second is charged to exactly one of
//! them where it is spent); the last six are other costs. The declaration order is the
//! display order of the breakdown chart, the CSV and the JSON report. A new category is one
//! line in [`Category::ALL`] with its key, label and colour, plus its accounting.

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Index, IndexMut};

/// A cost category. GPU-time categories come first ([`Category::is_gpu_time`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Compute that produced kept progress.
    UsefulCompute,
    /// Paid and ready but running nothing: warm windows, half-empty nodes, unused reservations.
    Idle,
    /// Node provisioning and image pulls.
    ProvisioningAndPulls,
    /// Held by a job waiting for the rest of its allocation (capacity wait while billed).
    CapacityWait,
    /// Compute lost to spot interruptions (since the last checkpoint).
    InterruptionRework,
    /// Compute of attempts that failed, and of jobs given up.
    FailedAttempts,
    /// Checkpoint writes and restart overhead.
    CheckpointsAndRestarts,
    /// Extra compute from slow storage reads.
    StorageReadSlowdown,
    /// Extra compute from imperfect multi-node scaling.
    MultiNodeScalingLoss,
    /// Billed node time beyond the time used (granularity and minimum).
    BillingRounding,
    /// GPU time lost to sharing GPUs: slices or shares of shared GPUs no replica holds, and
    /// time-sliced GPUs' context switches.
    GpuSharingLoss,
    /// Compute lost by jobs evicted for another team's quota or a higher priority (since
    /// the last checkpoint, unless the grace period covered a checkpoint write).
    PreemptionRework,
    /// Compute lost to hardware failures of nodes (since the last checkpoint: a failure
    /// gives no notice).
    HardwareFailureRework,
    /// Nodes held while a job's attempt reads its data from storage before computing (data
    /// staging).
    DataStaging,
    /// Control-plane and management fees.
    Fees,
    /// Egress.
    Egress,
    /// Storage.
    Storage,
    /// Ops people.
    OpsPeople,
    /// Tools and add-ons.
    Tools,
    /// Transfer paid to read jobs' data across regions or clouds, or through a NAT gateway.
    DataTransfer,
    /// A hosted API's bill: its tokens, or the provisioned throughput bought.
    ApiUsage,
}

/// Number of categories.
pub const CATEGORY_COUNT: usize = 21;

/// (category, key, label, colour, doc): the one table the rest follows.
type Row = (
    Category,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);
#[rustfmt::skip]
const TABLE: [Row; CATEGORY_COUNT] = [
    (Category::UsefulCompute, "useful_compute", "Useful compute", "#009e73", "Compute that produced kept progress."),
    (Category::Idle, "idle", "Idle", "#bbbbbb", "Idle paid GPUs."),
    (Category::ProvisioningAndPulls, "provisioning_and_pulls", "Provisioning & pulls", "#56b4e9", "Provisioning and image pulls."),
    (Category::CapacityWait, "capacity_wait", "Capacity wait", "#88ccee", "Capacity wait while billed."),
    (Category::InterruptionRework, "interruption_rework", "Interruption rework", "#d55e00", "Rework lost to interruptions."),
    (Category::FailedAttempts, "failed_attempts", "Failed attempts", "#882255", "Failed attempts."),
    (Category::CheckpointsAndRestarts, "checkpoints_and_restarts", "Checkpoints & restarts", "#e69f00", "Checkpoint writes and restarts."),
    (Category::StorageReadSlowdown, "storage_read_slowdown", "Storage-read slowdown", "#999933", "Storage-read slowdown."),
    (Category::MultiNodeScalingLoss, "multi_node_scaling_loss", "Multi-node scaling loss", "#ddcc77", "Multi-node scaling loss."),
    (Category::BillingRounding, "billing_rounding", "Billing rounding", "#cc6677", "Billing rounding."),
    (Category::GpuSharingLoss, "gpu_sharing_loss", "GPU sharing loss", "#661100", "Shared GPUs' slices no replica holds, and time-slicing's context switches."),
    (Category::PreemptionRework, "preemption_rework", "Preemption rework", "#ee3377", "Rework lost by jobs evicted for another team's quota or a higher priority."),
    (Category::HardwareFailureRework, "hardware_failure_rework", "Hardware-failure rework", "#8c564b", "Compute lost when a node's hardware fails (since the last checkpoint)."),
    (Category::DataStaging, "data_staging", "Data staging", "#bbcc33", "Nodes held while jobs read their data from storage before computing."),
    (Category::Fees, "fees", "Fees", "#332288", "Control-plane and management fees."),
    (Category::Egress, "egress", "Egress", "#44aa99", "Egress."),
    (Category::Storage, "storage", "Storage", "#117733", "Storage."),
    (Category::OpsPeople, "ops_people", "Ops people", "#0072b2", "Ops people."),
    (Category::Tools, "tools", "Tools", "#aa4499", "Tools and add-ons."),
    (Category::DataTransfer, "data_transfer", "Data transfer", "#6699cc", "Transfer paid to read jobs' data across regions or clouds, or through a NAT gateway."),
    (Category::ApiUsage, "api_usage", "Hosted API usage", "#225555", "A hosted API's bill: its tokens, or the provisioned throughput bought."),
];

impl Category {
    /// Every category, in display order.
    pub const ALL: [Category; CATEGORY_COUNT] = {
        let mut out = [Category::UsefulCompute; CATEGORY_COUNT];
        let mut i = 0;
        while i < CATEGORY_COUNT {
            out[i] = TABLE[i].0;
            i += 1;
        }
        out
    };

    /// Number of GPU-time categories (they come first).
    pub const GPU_TIME_COUNT: usize = 14;

    /// Position in [`Category::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Key in the JSON report and the CSV (`breakdown_usd.<key>`).
    pub fn key(self) -> &'static str {
        TABLE[self.index()].1
    }

    /// Name shown in the chart and its legend.
    pub fn label(self) -> &'static str {
        TABLE[self.index()].2
    }

    /// Colour in the light theme (`--cat-<index>` in `style/main.css`, which also sets the
    /// dark theme's; a test keeps the two in step).
    pub fn colour(self) -> &'static str {
        TABLE[self.index()].3
    }

    /// One line on what it counts (the report's JSON schema).
    pub fn doc(self) -> &'static str {
        TABLE[self.index()].4
    }

    /// The CSS class that colours a chart segment or legend swatch of this category.
    pub fn css_class(self) -> String {
        format!("cat-{}", self.index())
    }

    /// Paid GPU time, as opposed to other costs.
    pub const fn is_gpu_time(self) -> bool {
        self.index() < Category::GPU_TIME_COUNT
    }

    /// The category with this key.
    pub fn from_key(key: &str) -> Option<Category> {
        TABLE.iter().find(|row| row.1 == key).map(|row| row.0)
    }
}

/// One `T` per [`Category`], indexed by it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PerCategory<T>([T; CATEGORY_COUNT]);

impl<T> PerCategory<T> {
    /// A value per category from `f`.
    pub fn from_fn(mut f: impl FnMut(Category) -> T) -> PerCategory<T> {
        PerCategory(std::array::from_fn(|i| f(Category::ALL[i])))
    }

    /// Each category with its value, in display order.
    pub fn iter(&self) -> impl Iterator<Item = (Category, &T)> + '_ {
        Category::ALL.into_iter().zip(self.0.iter())
    }

    /// The values, in display order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.0.iter()
    }
}

impl<T> Index<Category> for PerCategory<T> {
    type Output = T;
    fn index(&self, category: Category) -> &T {
        &self.0[category.index()]
    }
}

impl<T> IndexMut<Category> for PerCategory<T> {
    fn index_mut(&mut self, category: Category) -> &mut T {
        &mut self.0[category.index()]
    }
}

/// Monthly cost by category, USD (MODEL.md's categories).
pub type Breakdown = PerCategory<f64>;

impl PerCategory<f64> {
    /// Sum of all categories, in display order.
    pub fn total(&self) -> f64 {
        self.0.iter().sum()
    }

    /// Sum of the GPU-time categories, in display order.
    pub fn gpu_time_total(&self) -> f64 {
        self.0[..Category::GPU_TIME_COUNT].iter().sum()
    }

    /// Every category multiplied by `factor`.
    pub fn scaled(&self, factor: f64) -> PerCategory<f64> {
        PerCategory(self.0.map(|v| v * factor))
    }

    /// Adds `other` category by category.
    pub fn add(&mut self, other: &PerCategory<f64>) {
        for (v, o) in self.0.iter_mut().zip(other.0) {
            *v += o;
        }
    }
}

/// Written as an object keyed by [`Category::key`], in display order.
impl<T: Serialize> Serialize for PerCategory<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(CATEGORY_COUNT))?;
        for (category, value) in self.iter() {
            map.serialize_entry(category.key(), value)?;
        }
        map.end()
    }
}

/// Read from an object with every category's key (a report written before GPU sharing may
/// leave out `gpu_sharing_loss`, which then reads 0); other keys are ignored.
impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for PerCategory<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PerCategoryVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Default> Visitor<'de> for PerCategoryVisitor<T> {
            type Value = PerCategory<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object with one value per cost category")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = PerCategory::<Option<T>>::default();
                while let Some(key) = map.next_key::<String>()? {
                    match Category::from_key(&key) {
                        Some(c) if out[c].is_some() => {
                            return Err(de::Error::custom(format_args!("duplicate field `{key}`")))
                        }
                        Some(c) => out[c] = Some(map.next_value()?),
                        None => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                let mut values = PerCategory::<T>::default();
                for c in Category::ALL {
                    values[c] = match out[c].take() {
                        Some(v) => v,
                        // Categories added after reports were first written: absent is none.
                        None if matches!(
                            c,
                            Category::GpuSharingLoss
                                | Category::HardwareFailureRework
                                | Category::DataTransfer
                                | Category::ApiUsage
                        ) =>
                        {
                            T::default()
                        }
                        None => return Err(de::Error::missing_field(c.key())),
                    };
                }
                Ok(values)
            }
        }
        deserializer.deserialize_map(PerCategoryVisitor(std::marker::PhantomData))
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for PerCategory<f64> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Breakdown".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut properties = serde_json::Map::new();
        for c in Category::ALL {
            let mut schema = generator.subschema_for::<f64>().to_value();
            if let serde_json::Value::Object(map) = &mut schema {
                map.insert("description".into(), c.doc().into());
            }
            properties.insert(c.key().into(), schema);
        }
        let required: Vec<serde_json::Value> =
            Category::ALL.iter().map(|c| c.key().into()).collect();
        schemars::json_schema!({
            "description": "Monthly cost by category, USD (MODEL.md's categories). The first eleven are GPU time, the rest\nare other costs.",
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
    fn the_table_lists_each_category_once_in_declaration_order() {
        for (i, c) in Category::ALL.iter().enumerate() {
            assert_eq!(c.index(), i, "{c:?}");
            assert_eq!(Category::from_key(c.key()), Some(*c));
        }
        assert_eq!(
            Category::ALL.iter().filter(|c| c.is_gpu_time()).count(),
            Category::GPU_TIME_COUNT
        );
        assert!(Category::BillingRounding.is_gpu_time() && !Category::Fees.is_gpu_time());
    }

    #[test]
    fn a_breakdown_reads_back_what_it_writes_and_names_a_missing_key() {
        let b = Breakdown::from_fn(|c| c.index() as f64 + 0.5);
        let text = serde_json::to_string(&b).unwrap();
        assert!(
            text.starts_with(r#"{"useful_compute":0.5,"idle":1.5,"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Breakdown>(&text).unwrap(), b);
        let err = serde_json::from_str::<Breakdown>(r#"{"idle":1.0}"#).unwrap_err();
        assert!(
            err.to_string().contains("missing field `useful_compute`"),
            "{err}"
        );
    }

    #[test]
    fn totals_add_in_display_order() {
        let b = Breakdown::from_fn(|c| if c.is_gpu_time() { 1.0 } else { 10.0 });
        assert_eq!(b.gpu_time_total(), 14.0);
        assert_eq!(b.total(), 84.0);
        let mut twice = b;
        twice.add(&b);
        assert_eq!(twice, b.scaled(2.0));
    }
}
