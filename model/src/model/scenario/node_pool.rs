//! A platform's node pools: the instance types its jobs and services run on, each with its
//! own prices, purchase mix, node limit, spot interruption rate, warm window, image cache and
//! GPU sharing (a Karpenter NodePool, a GKE node pool, a Slurm partition, an AWS Batch
//! compute environment; on SageMaker, the instance type a job class asks for).
//!
//! A platform has 1 to [`MAX_NODE_POOLS`] pools. Nodes of different pools are never shared:
//! a job class (or service) runs on the pool the platform's `class_pools` maps its name to,
//! else on the cheapest pool that fits it ([`Platform::pool_index_for`]).
//!
//! Scenarios written before node pools had one instance type per platform, its fields on
//! the platform itself. [`read_single_pool_fields`] reads that shape into pool 0, and the same
//! rule makes the old dotted paths (`platforms.1.spot_usd_per_node_hour`) aliases for pool 0
//! wherever a path is read ([`canonical_path`]).

use super::{GpuSharing, JobClass, Overflow, Platform, Profile, Purchase, Scenario};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most node pools on one platform.
pub const MAX_NODE_POOLS: usize = 4;

/// One pool of nodes of one instance type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NodePool {
    /// Name, unique on its platform (what `class_pools` maps a class to).
    pub name: String,
    /// Instance type name, from the catalog.
    pub instance_type: String,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// GPU model.
    pub gpu_model: String,
    /// GPU memory per GPU, GB.
    pub gpu_memory_gb: f64,
    /// Throughput of one GPU relative to the reference GPU (1.0 = same speed).
    pub relative_throughput: f64,
    /// On-demand list price, USD per node-hour.
    pub on_demand_usd_per_node_hour: f64,
    /// Spot price, USD per node-hour.
    pub spot_usd_per_node_hour: f64,
    /// Managed-service premium on compute, % (SageMaker ml.* instances: it differs by
    /// instance type).
    pub service_premium_pct: f64,
    /// Purchase mix.
    pub purchase: Purchase,
    /// Spot interruptions per spot node-hour (λ).
    pub spot_interruptions_per_node_hour: f64,
    /// Spot reclaims in waves: a share of the interruption rate comes as pool-wide events
    /// that take many nodes at once, with capacity short after them (absent: every spot
    /// node is interrupted on its own clock).
    #[serde(skip_serializing_if = "SpotReclaims::is_default")]
    pub spot_reclaims: SpotReclaims,
    /// Hardware failures per node-hour, on every purchase type (reserved, on-demand, spot):
    /// a failure ends the node's jobs with no notice and the node is replaced through
    /// provisioning. 0 (absent): nodes never fail.
    pub node_failures_per_node_hour: f64,
    /// Nodes keep pulled images, so the next job of the class on that node pulls nothing.
    pub image_cache: bool,
    /// How long an empty node stays up waiting for work before it is released, seconds.
    pub warm_pool_window_s: f64,
    /// Most nodes of this pool at once (reserved included).
    pub max_nodes: u32,
    /// How its GPUs are shared among replicas and jobs asking for a fraction of one (absent:
    /// whole GPUs only).
    #[serde(skip_serializing_if = "GpuSharing::is_none")]
    pub gpu_sharing: GpuSharing,
}

/// Correlated spot reclaims of a pool. A share of the pool's interruption rate λ arrives as
/// reclaim waves, pool-wide events at `share_of_rate` × λ ÷ `fraction_of_nodes` per hour;
/// each takes each of the pool's running spot nodes at once with probability
/// `fraction_of_nodes`. So a spot node is still interrupted λ times per hour on average, in a
/// pool of any size: (1 − share) × λ on its own clock, share × λ in waves. After a wave the
/// pool's spot capacity is short for `capacity_drought_min`: a spot node asked for then waits
/// for its end, or is bought on demand where `fall_back_to_on_demand` is set (as a Karpenter
/// NodePool allowing both capacity types does).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct SpotReclaims {
    /// Share of the interruption rate that comes in waves (0–1; 0: none).
    pub share_of_rate: f64,
    /// Chance a wave takes a given running spot node of the pool (0–1].
    pub fraction_of_nodes: f64,
    /// How long after a wave no spot capacity is to be had, minutes.
    pub capacity_drought_min: f64,
    /// Spot nodes asked for in a drought are bought on demand instead of waiting.
    pub fall_back_to_on_demand: bool,
}

impl Default for SpotReclaims {
    fn default() -> Self {
        SpotReclaims {
            share_of_rate: 0.0,
            // [assumption] a wave takes half the pool; no public figure
            fraction_of_nodes: 0.5,
            capacity_drought_min: 0.0,
            fall_back_to_on_demand: false,
        }
    }
}

impl SpotReclaims {
    /// Whether these are the defaults (not written in a scenario document).
    pub fn is_default(&self) -> bool {
        *self == SpotReclaims::default()
    }

    /// Whether reclaims come in waves at all.
    pub fn in_waves(&self) -> bool {
        self.share_of_rate > 0.0
    }
}

/// The name a pool gets where a scenario gives none (a platform of the old, single-pool
/// shape).
pub const DEFAULT_POOL_NAME: &str = "default";

impl Default for NodePool {
    fn default() -> Self {
        Platform::default().node_pools.swap_remove(0)
    }
}

/// The pool fields a platform of the old shape carried itself (each now an alias for pool
/// 0's), in the order of [`NodePool`].
pub const SINGLE_POOL_FIELDS: &[&str] = &[
    "instance_type",
    "gpus_per_node",
    "gpu_model",
    "gpu_memory_gb",
    "relative_throughput",
    "on_demand_usd_per_node_hour",
    "spot_usd_per_node_hour",
    "service_premium_pct",
    "purchase",
    "spot_interruptions_per_node_hour",
    "spot_reclaims",
    "node_failures_per_node_hour",
    "image_cache",
    "warm_pool_window_s",
    "max_nodes",
    "gpu_sharing",
];

/// Reads every platform of a scenario document written in the old, single-pool shape (or
/// mixing both): pool fields on the platform itself move into its pool 0, which is made
/// (named [`DEFAULT_POOL_NAME`]) where the platform lists no pools (but for a hosted API,
/// which has none). On a platform that lists
/// pools, such a field sets pool 0's: the old dotted path is an alias. Anything else is left
/// for the reader to judge. Returns the fields moved, as (platform index, field name), so that
/// a message about one names it where the document wrote it.
pub fn read_single_pool_fields(doc: &mut Value) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    let Some(Value::Array(platforms)) = doc.get_mut("platforms") else {
        return out;
    };
    for (index, platform) in platforms.iter_mut().enumerate() {
        let Value::Object(map) = platform else {
            continue;
        };
        // A hosted API has no pools: none is made for it, and a pool's field on it is left
        // for the reader to refuse as a field a platform does not have.
        let hosted = map.get("hosted_api").is_some_and(|a| !a.is_null())
            || map.get("profile").and_then(Value::as_str) == Some(Profile::HostedApi.id());
        if hosted {
            hosted_defaults(map);
            continue;
        }
        let moved: Vec<(&'static str, Value)> = SINGLE_POOL_FIELDS
            .iter()
            .filter_map(|&key| map.remove(key).map(|v| (key, v)))
            .collect();
        if !map.contains_key("node_pools") {
            let pool = serde_json::json!({ "name": DEFAULT_POOL_NAME });
            map.insert("node_pools".into(), Value::Array(vec![pool]));
        }
        if moved.is_empty() {
            continue;
        }
        let Some(Value::Object(pool)) =
            map.get_mut("node_pools").and_then(|pools| pools.get_mut(0))
        else {
            // No pool 0 to carry them (an empty or malformed list): the reader names it.
            continue;
        };
        for (key, value) in moved {
            pool.insert(key.to_string(), value);
            out.push((index, key));
        }
    }
    out
}

/// A hosted API's platform fields its document leaves out, set to a hosted API's defaults
/// (no pools, no people, no fees or storage; the cloud of its provider) rather than the AWS
/// Batch platform's that a platform of nodes starts from.
fn hosted_defaults(map: &mut serde_json::Map<String, Value>) {
    let provider = map
        .get("hosted_api")
        .and_then(|a| a.get("provider"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let Some(mut base) = Profile::hosted_platform("", "bedrock", "llama-3.1-70b") else {
        return;
    };
    base.cloud =
        crate::model::platforms::hosted_api::provider_cloud(&provider).unwrap_or(base.cloud);
    base.hosted_api = None;
    let Ok(Value::Object(defaults)) = serde_json::to_value(&base) else {
        return;
    };
    for (key, value) in defaults {
        if key != "name" && !map.contains_key(&key) {
            map.insert(key, value);
        }
    }
}

/// `message` (about a field by its path, as the reader gives it) with the path of a field
/// [`read_single_pool_fields`] moved written as the document wrote it
/// (`platforms[0].spot_interruptions_per_node_hour`, not `….node_pools[0].…`).
pub fn as_written(message: String, moved: &[(usize, &str)]) -> String {
    for (index, key) in moved {
        let canonical = format!("platforms[{index}].node_pools[0].{key}");
        if message.starts_with(&canonical) {
            return message.replacen(&canonical, &format!("platforms[{index}].{key}"), 1);
        }
    }
    message
}

/// The path a dotted path names in today's documents: an old single-pool path
/// (`platforms.1.spot_usd_per_node_hour`, `platforms.0.purchase.overflow`) becomes pool 0's
/// (`platforms.1.node_pools.0.spot_usd_per_node_hour`); every other path is itself.
pub fn canonical_path(path: &str) -> std::borrow::Cow<'_, str> {
    let mut parts = path.splitn(3, '.');
    if let (Some("platforms"), Some(index), Some(rest)) = (parts.next(), parts.next(), parts.next())
    {
        let field = rest.split('.').next().unwrap_or(rest);
        if index.parse::<usize>().is_ok() && SINGLE_POOL_FIELDS.contains(&field) {
            return format!("platforms.{index}.node_pools.0.{rest}").into();
        }
    }
    path.into()
}

/// What a job class or a service needs of a pool to run on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolNeed {
    /// GPUs per job or replica (a fraction below one).
    pub gpus: f64,
    /// GPU memory needed per GPU, GB.
    pub gpu_memory_gb: f64,
    /// An LLM's precision, which the pool's GPU must have (none for other work).
    pub precision: Option<crate::model::serving::llm::roofline::Precision>,
}

impl PoolNeed {
    /// What a job of `class` needs.
    pub fn of_class(class: &JobClass) -> PoolNeed {
        PoolNeed {
            gpus: class.gpus_per_job,
            gpu_memory_gb: class.gpu_memory_gb,
            precision: None,
        }
    }
}

impl NodePool {
    /// Its GPU's row of the GPU table with the pool's own memory figure (a custom instance's
    /// GPUs have the memory the pool says); `None` for a GPU the table lacks.
    pub fn gpu(&self) -> Option<crate::model::gpus::Gpu> {
        let mut gpu = *crate::model::gpus::find(&self.gpu_model)?;
        gpu.memory_gb = self.gpu_memory_gb;
        Some(gpu)
    }

    /// Spot interruptions per hour of a spot node on its own clock: the rate less the share
    /// that comes in reclaim waves.
    pub fn own_spot_interruptions_per_node_hour(&self) -> f64 {
        if self.spot_reclaims.in_waves() {
            self.spot_interruptions_per_node_hour * (1.0 - self.spot_reclaims.share_of_rate)
        } else {
            self.spot_interruptions_per_node_hour
        }
    }

    /// Reclaim waves per hour in this pool: share × λ ÷ fraction (0 without waves), so each
    /// spot node loses share × λ per hour to them.
    pub fn reclaim_waves_per_hour(&self) -> f64 {
        let r = &self.spot_reclaims;
        if r.in_waves() && r.fraction_of_nodes > 0.0 {
            r.share_of_rate * self.spot_interruptions_per_node_hour / r.fraction_of_nodes
        } else {
            0.0
        }
    }

    /// How often a job holding `nodes` nodes here is stopped with no checkpoint of its own
    /// choosing, per hour: each node's own spot clock and hardware failures, plus the waves
    /// that take at least one of its nodes (1 − (1 − fraction)^nodes of them), where the
    /// pool buys spot; hardware failures alone elsewhere.
    pub fn job_stops_per_hour(&self, nodes: f64) -> f64 {
        if self.purchase.overflow != super::Overflow::Spot {
            return self.node_failures_per_node_hour * nodes;
        }
        let per_node =
            self.own_spot_interruptions_per_node_hour() + self.node_failures_per_node_hour;
        let waves = self.reclaim_waves_per_hour();
        let hit = if waves > 0.0 {
            waves * (1.0 - libm::pow(1.0 - self.spot_reclaims.fraction_of_nodes, nodes))
        } else {
            0.0
        };
        per_node * nodes + hit
    }

    /// Nodes a job of `gpus` GPUs needs here (one for a fraction).
    pub fn nodes_needed(&self, gpus: f64) -> u32 {
        super::gpu_sharing::whole_gpus(gpus).div_ceil(self.gpus_per_node.max(1))
    }

    /// Whether a job or replica needing `need` fits here: its memory per GPU, and its nodes
    /// within the pool's node limit.
    pub fn fits(&self, need: PoolNeed) -> bool {
        need.gpu_memory_gb <= self.gpu_memory_gb
            && self.nodes_needed(need.gpus) <= self.max_nodes
            && need
                .precision
                .is_none_or(|p| self.gpu().is_some_and(|gpu| p.peak_flops(&gpu).is_ok()))
    }

    /// Reserved nodes of this pool: reserved share × reference GPUs, rounded up to whole
    /// nodes (MODEL.md).
    pub fn reserved_nodes(&self, reference_gpus: u32) -> u32 {
        let gpus = self.purchase.reserved_share * f64::from(reference_gpus);
        let nodes = libm::ceil(gpus / f64::from(self.gpus_per_node.max(1)) - 1e-9);
        if nodes <= 0.0 {
            0
        } else {
            nodes as u32
        }
    }

    /// The price a node added beyond the reserved base pays, list USD per node-hour: spot
    /// where it overflows to spot, else on-demand (and on-demand for a static cluster, whose
    /// reserved nodes are priced from it).
    pub fn overflow_usd_per_node_hour(&self) -> f64 {
        match self.purchase.overflow {
            Overflow::Spot => self.spot_usd_per_node_hour,
            Overflow::OnDemand | Overflow::None => self.on_demand_usd_per_node_hour,
        }
    }
}

impl Platform {
    /// Whether it runs nodes of its own: all but a hosted API, whose services go to the
    /// provider ([`Platform::hosted_api`]).
    pub fn runs_nodes(&self) -> bool {
        self.hosted_api.is_none()
    }

    /// Its pools (at least one in a valid scenario; none on a hosted API).
    pub fn pools(&self) -> &[NodePool] {
        &self.node_pools
    }

    /// Its first pool: the only one of a platform of the old shape, and the one the page's
    /// platform card shows first.
    #[track_caller]
    pub fn first_pool(&self) -> &NodePool {
        &self.node_pools[0]
    }

    /// Its first pool, to edit.
    #[track_caller]
    pub fn first_pool_mut(&mut self) -> &mut NodePool {
        &mut self.node_pools[0]
    }

    /// The pool named `name`, by index.
    pub fn pool_named(&self, name: &str) -> Option<usize> {
        self.node_pools.iter().position(|p| p.name == name)
    }

    /// The platform as one of its pools alone: what every part of the model written for one
    /// instance type (the instant estimate, a service's own simulation, one pool's share of a
    /// replication) reads. Its fees, tooling and people are the platform's.
    pub fn pool_view(&self, pool: usize) -> Platform {
        Platform {
            node_pools: vec![self.node_pools[pool].clone()],
            class_pools: Default::default(),
            ..self.clone()
        }
    }

    /// The pool a job class or service named `name`, needing `need`, runs on: the one
    /// `class_pools` maps it to, else the cheapest that fits ([`Platform::cheapest_pool`]),
    /// else pool 0 (validation names a class that fits no pool).
    pub fn pool_index_for(&self, scenario: &Scenario, name: &str, need: PoolNeed) -> usize {
        if self.node_pools.len() == 1 {
            return 0;
        }
        if let Some(pool) = self.class_pools.get(name).and_then(|p| self.pool_named(p)) {
            return pool;
        }
        self.cheapest_pool(scenario, need).unwrap_or(0)
    }

    /// The pool the platform's services run on: the first service's (validation refuses
    /// services mapped to different pools of one platform); 0 without services.
    pub fn services_pool(&self, scenario: &Scenario) -> usize {
        scenario.services.first().map_or(0, |service| {
            self.pool_index_for(scenario, &service.name, service.on(self).pool_need())
        })
    }

    /// The platform as its services see it: the pool they run on alone (itself where it has
    /// one pool).
    pub fn services_view(&self, scenario: &Scenario) -> std::borrow::Cow<'_, Platform> {
        // (None: a hosted API's.)
        if self.node_pools.len() <= 1 {
            std::borrow::Cow::Borrowed(self)
        } else {
            std::borrow::Cow::Owned(self.pool_view(self.services_pool(scenario)))
        }
    }

    /// The pool of job class `class` (an index into the scenario's classes).
    pub fn pool_of_class(&self, scenario: &Scenario, class: usize) -> usize {
        let c = &scenario.job_classes[class];
        self.pool_index_for(scenario, &c.name, PoolNeed::of_class(c))
    }

    /// The cheapest pool that fits `need`, per useful reference-GPU-hour: the price of the
    /// nodes a job needs, whole, as they are bought beyond the reservation (spot where the
    /// pool overflows to spot, else on-demand; after discounts and the pool's premium), over
    /// the reference-GPU-hours the job does on them (its GPUs × the pool's relative
    /// throughput, × the multi-node efficiency for a job of several nodes). Whole nodes,
    /// because a job arriving alone starts on a node of its own (what Karpenter provisions
    /// for one pending pod); per node-hour would always pick the slowest GPU, per GPU-hour
    /// would put a 1-GPU job on the 8-GPU node with the cheapest GPUs. Ties go to the first
    /// pool. `None` when no pool fits.
    pub fn cheapest_pool(&self, scenario: &Scenario, need: PoolNeed) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, pool) in self.node_pools.iter().enumerate() {
            if !pool.fits(need) {
                continue;
            }
            let cost = self.usd_per_useful_reference_gpu_hour(scenario, pool, need);
            if best.is_none_or(|(_, b)| cost < b) {
                best = Some((i, cost));
            }
        }
        best.map(|(i, _)| i)
    }

    /// What a useful reference-GPU-hour of a job needing `need` costs on `pool` at list
    /// rates with the scenario's discounts, on nodes of its own ([`Platform::cheapest_pool`]),
    /// USD.
    pub fn usd_per_useful_reference_gpu_hour(
        &self,
        scenario: &Scenario,
        pool: &NodePool,
        need: PoolNeed,
    ) -> f64 {
        let nodes = pool.nodes_needed(need.gpus);
        let efficiency = self.scaling_efficiency(nodes);
        let usd_per_hour = f64::from(nodes)
            * pool.overflow_usd_per_node_hour()
            * scenario.list_price_factor(self, pool);
        let reference_gpus = need.gpus.max(1e-3) * pool.relative_throughput.max(1e-9) * efficiency;
        usd_per_hour / reference_gpus
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::fields::NODE_POOL_FIELDS;

    #[test]
    fn the_single_pool_fields_are_the_pool_rows_but_its_name() {
        // Each pool field but its name, by the first part of its path, in the rows' order:
        // a new pool field is an alias on a platform of one pool too.
        let mut from_rows: Vec<&str> = Vec::new();
        for row in NODE_POOL_FIELDS {
            let top = row.path.split('.').next().unwrap_or(row.path);
            if top != "name" && !from_rows.contains(&top) {
                from_rows.push(top);
            }
        }
        let mut listed = SINGLE_POOL_FIELDS.to_vec();
        listed.sort_unstable();
        from_rows.sort_unstable();
        assert_eq!(listed, from_rows);
    }
}
