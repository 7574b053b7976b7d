//! The settings the tuner searches on one platform, the values it tries for each, and how a
//! value is set. A lever acts on a one-platform scenario (the platform at index 0), by a path
//! of the scenario document, which a pin names.
//!
//! Per node pool, in this order:
//! - what runs beyond the reservation: on demand or spot (where the pool has a spot price, its
//!   cloud sells spot, and it is not a static cluster);
//! - its instance type, among the catalog rows of its cloud and region that its profile offers
//!   and whose GPUs hold the memory the work on the pool asks for, GPUs for GPUs (an
//!   accelerator whose throughput depends on the model family, Inferentia or a TPU, only for a
//!   pool already on one), where the pool is a catalog row at its list price (a price the user
//!   typed is not replaced), and not for a profile's own instances (a 1-Click Cluster's size
//!   tiers);
//! - the reserved base, in whole nodes from none to the as-typed peak (a static cluster: from
//!   one node to its node limit), refined to the node;
//! - the commitment's term, 1 or 3 years, where the cloud publishes the price of both for the
//!   pool's instance type (`Commitments::rates`: Azure's ND H100 v5 and ND H200 v5
//!   reservations), the reserved discount following the term's published price;
//! - `max_nodes`, from half to twice the as-typed limit (never below the reservation or a job's
//!   nodes);
//! - the warm-pool window, 0 or 30 s to 2 h, on a log scale (not for a static cluster).
//!
//! Then, per job class that can lose work on the platform (spot beyond the reservation, node
//! failures, or preemption), its checkpoint interval there: never, or 1/16 to 16 times the
//! Young–Daly interval √(2δM) on a log scale, refined to within 5 %.
//!
//! Then, per service, on the platform (`Platform::service_settings`): an LLM's tensor
//! parallelism, each power of two up to its pool's GPUs per node (a split that does not hold
//! the model is refused); its fewest replicas,
//! from 1 (0 where the platform scales to zero) to twice as typed (at least 4 more, at most its
//! most replicas); and the autoscaler's target utilisation, 0.3 to 0.95 on a log scale. Of more
//! than four services, one target for all of them (a search per service would take minutes).
//!
//! On a hosted API, in place of all of these (it has no pools, replicas or jobs): per token
//! or provisioned throughput, where the provider sells both for the model (provisioned raced
//! at the units the services' busiest hour asks for, at its cheapest term); then, where
//! provisioned, the units, in the offer's steps from its fewest to twice that size; and the
//! term, among those the offer prices.
//!
//! Not searched: the commitment's term elsewhere, since no price is at hand for the other term
//! (the reserved discount a scenario holds is for its term); a platform's fee (AKS's Free or
//! Standard tier is a choice of support, not of cost alone).

use crate::model::catalog::{self, InstanceType};
use crate::model::gpus;
use crate::model::hosted_api::ProvisionedTerm;
use crate::model::scenario::{ApiBilling, NodePool, Overflow, Scenario, ServiceSettings};
use crate::workbench::edit::{exact_pool_instance_row, set_pool_instance};

/// A setting of the platform searched.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    /// What runs beyond pool `0`'s reservation.
    Overflow(usize),
    /// Pool `0`'s instance type (a catalog row).
    InstanceType(usize),
    /// Pool `0`'s reserved nodes.
    ReservedNodes(usize),
    /// Pool `0`'s commitment term, years, at its published price.
    Term(usize),
    /// Pool `0`'s node limit.
    MaxNodes(usize),
    /// Pool `0`'s warm-pool window, seconds.
    WarmPool(usize),
    /// A job class's checkpoint interval on the platform, minutes (by class index in the
    /// simulated scenario, and its name).
    Checkpoint(usize, String),
    /// An LLM service's GPUs per replica (tensor parallelism) on the platform (by service
    /// index, and its name).
    TensorParallel(usize, String),
    /// A service's fewest replicas on the platform (by service index, and its name).
    MinReplicas(usize, String),
    /// A service's autoscaling target utilisation on the platform.
    TargetUtilization(usize, String),
    /// Every service's autoscaling target on the platform at once (a scenario of many
    /// services).
    TargetUtilizationAll,
    /// A hosted API's billing: per token (0) or provisioned throughput (1).
    ApiBilling,
    /// A hosted API's provisioned units, as steps above the offer's fewest.
    ApiUnits,
    /// A hosted API's provisioned term: by the hour (0), one month (1), one year (2).
    ApiTerm,
}

/// Services searched one by one at most; beyond, one target for all of them.
const SERVICES_ONE_BY_ONE: usize = 4;

/// A value a setting takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Choice {
    /// A number (nodes, seconds, minutes).
    Number(f64),
    /// On demand (`false`) or spot (`true`) beyond the reservation.
    Spot(bool),
    /// A catalog row.
    Row(usize),
}

/// How a numeric setting's values are laid out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Whole numbers from `lo` to `hi`.
    Whole { lo: f64, hi: f64 },
    /// From `lo` to `hi` on a log scale, with 0 as a value of its own where `zero`.
    Log { lo: f64, hi: f64, zero: bool },
}

/// The values a setting is raced over.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// A few choices, raced once.
    Choices(Vec<Choice>),
    /// A numeric range: a grid, then finer grids around each winner.
    Range(Scale),
}

/// Points on a first grid.
const GRID_POINTS: usize = 9;
/// A log-scale search stops once neighbours are within this factor.
const LOG_RESOLUTION: f64 = 1.05;

impl Setting {
    /// Its path in the scenario document, for a platform at `platform` (the pin it answers
    /// to).
    pub fn path(&self, platform: usize, class_names: &[String]) -> String {
        let pool = |j: &usize, field: &str| format!("platforms.{platform}.node_pools.{j}.{field}");
        match self {
            Setting::Overflow(j) => pool(j, "purchase.overflow"),
            Setting::InstanceType(j) => pool(j, "instance_type"),
            Setting::ReservedNodes(j) => pool(j, "purchase.reserved_share"),
            Setting::Term(j) => pool(j, "purchase.term_years"),
            Setting::MaxNodes(j) => pool(j, "max_nodes"),
            Setting::WarmPool(j) => pool(j, "warm_pool_window_s"),
            Setting::Checkpoint(c, name) => {
                let _ = class_names.get(*c);
                format!("platforms.{platform}.checkpoint_interval_min.{name}")
            }
            Setting::TensorParallel(_, name) => {
                format!("platforms.{platform}.service_settings.{name}.tensor_parallel")
            }
            Setting::MinReplicas(_, name) => {
                format!("platforms.{platform}.service_settings.{name}.min_replicas")
            }
            Setting::TargetUtilization(_, name) => {
                format!("platforms.{platform}.service_settings.{name}.target_utilization")
            }
            Setting::TargetUtilizationAll => format!("platforms.{platform}.service_settings"),
            Setting::ApiBilling => format!("platforms.{platform}.hosted_api.billing"),
            Setting::ApiUnits => format!("platforms.{platform}.hosted_api.provisioned.units"),
            Setting::ApiTerm => format!("platforms.{platform}.hosted_api.provisioned.term"),
        }
    }

    /// Whether `pin` (a dotted path, canonical) holds this setting of platform `platform`:
    /// its own path or a prefix of it (`platforms.0` pins all of the platform's), the class's
    /// own interval (`job_classes.<i>.checkpoint_interval_min`) for a checkpoint, and a pinned
    /// reserved discount or term for the reservation it prices.
    pub fn pinned_by(&self, pin: &str, platform: usize, class_names: &[String]) -> bool {
        let path = self.path(platform, class_names);
        let under = |p: &str| p == pin || p.starts_with(&format!("{pin}."));
        if under(&path) {
            return true;
        }
        let pool_prefix = |j: &usize| format!("platforms.{platform}.node_pools.{j}.");
        match self {
            // A new instance type rewrites the pool's GPUs, prices and node limit, and the
            // platform's region and interconnect: a pin on any of them keeps it.
            Setting::InstanceType(j) => {
                pin.starts_with(&pool_prefix(j))
                    || [
                        format!("platforms.{platform}.region"),
                        format!("platforms.{platform}.interconnect"),
                    ]
                    .iter()
                    .any(|p| under(p))
            }
            // One target for every service: a pin on any service's keeps it.
            Setting::TargetUtilizationAll => {
                pin == "services"
                    || pin.starts_with("services.")
                    || pin.starts_with(&format!("platforms.{platform}.service_settings."))
            }
            Setting::ReservedNodes(j) | Setting::Term(j) => {
                ["purchase.reserved_discount_pct", "purchase.term_years"]
                    .iter()
                    .any(|f| pin == format!("platforms.{platform}.node_pools.{j}.{f}"))
            }
            Setting::Checkpoint(c, _) => {
                pin == format!("job_classes.{c}.checkpoint_interval_min")
                    || pin == format!("job_classes.{c}")
            }
            Setting::TensorParallel(k, _) => [
                format!("services.{k}.llm.tensor_parallel"),
                format!("services.{k}.llm"),
                format!("services.{k}"),
            ]
            .contains(&pin.to_string()),
            Setting::MinReplicas(k, _) => {
                pin == format!("services.{k}.min_replicas") || pin == format!("services.{k}")
            }
            Setting::TargetUtilization(k, _) => {
                pin == format!("services.{k}.target_utilization") || pin == format!("services.{k}")
            }
            // The billing's race sets the units and term it is raced at: a pin on either, or
            // on the batch or cached share it clears, keeps the billing too.
            Setting::ApiBilling => [
                format!("platforms.{platform}.hosted_api.provisioned"),
                format!("platforms.{platform}.hosted_api.batch_share"),
                format!("platforms.{platform}.hosted_api.cached_input_share"),
            ]
            .iter()
            .any(|p| under(p) || pin.starts_with(&format!("{p}."))),
            _ => false,
        }
    }

    /// The value it has in `solo` (a one-platform scenario).
    pub fn current(&self, solo: &Scenario) -> Choice {
        let platform = &solo.platforms[0];
        let pool = |j: &usize| &platform.node_pools[*j];
        match self {
            Setting::Overflow(j) => Choice::Spot(pool(j).purchase.overflow == Overflow::Spot),
            Setting::InstanceType(j) => {
                Choice::Row(exact_pool_instance_row(solo, 0, *j).unwrap_or(usize::MAX))
            }
            Setting::ReservedNodes(j) => {
                Choice::Number(f64::from(pool(j).reserved_nodes(solo.reference_gpus)))
            }
            // The term as typed where its discount is the published one; else no term the
            // search tries (0), so both terms at their published prices race the as-typed.
            Setting::Term(j) => {
                let purchase = &pool(j).purchase;
                let published = published_discount(platform.cloud, pool(j), purchase.term_years);
                Choice::Number(if published == Some(purchase.reserved_discount_pct) {
                    f64::from(purchase.term_years)
                } else {
                    0.0
                })
            }
            Setting::MaxNodes(j) => Choice::Number(f64::from(pool(j).max_nodes)),
            Setting::WarmPool(j) => Choice::Number(pool(j).warm_pool_window_s),
            Setting::Checkpoint(c, name) => Choice::Number(
                platform
                    .checkpoint_interval_min
                    .get(name)
                    .copied()
                    .unwrap_or_else(|| solo.simulated().job_classes[*c].checkpoint_interval_min),
            ),
            Setting::TensorParallel(k, _) => Choice::Number(f64::from(
                solo.services[*k]
                    .on(platform)
                    .llm
                    .as_ref()
                    .map_or(1, |l| l.tensor_parallel),
            )),
            Setting::MinReplicas(k, name) => Choice::Number(f64::from(
                platform
                    .service_settings
                    .get(name)
                    .and_then(|o| o.min_replicas)
                    .unwrap_or(solo.services[*k].min_replicas),
            )),
            Setting::TargetUtilization(k, name) => Choice::Number(
                platform
                    .service_settings
                    .get(name)
                    .and_then(|o| o.target_utilization)
                    .unwrap_or(solo.services[*k].target_utilization),
            ),
            // The first service's stands for all (they move together).
            Setting::TargetUtilizationAll => {
                Setting::TargetUtilization(0, solo.services[0].name.clone()).current(solo)
            }
            Setting::ApiBilling => Choice::Number(match platform.hosted_api.as_ref() {
                Some(a) if a.billing == ApiBilling::Provisioned => 1.0,
                _ => 0.0,
            }),
            Setting::ApiUnits => Choice::Number(provisioned(solo).map_or(0.0, |p| {
                f64::from(p.units.saturating_sub(p.min_units) / p.unit_step.max(1))
            })),
            Setting::ApiTerm => Choice::Number(match provisioned(solo).map(|p| p.term) {
                Some(ProvisionedTerm::OneMonth) => 1.0,
                Some(ProvisionedTerm::OneYear) => 2.0,
                _ => 0.0,
            }),
        }
    }

    /// `solo` with the setting at `choice`; `None` where the scenario it makes is invalid.
    pub fn apply(&self, solo: &Scenario, choice: Choice) -> Option<Scenario> {
        let mut s = solo.clone();
        let reference_gpus = s.reference_gpus;
        match (self, choice) {
            (Setting::Overflow(j), Choice::Spot(spot)) => {
                s.platforms[0].node_pools[*j].purchase.overflow = if spot {
                    Overflow::Spot
                } else {
                    Overflow::OnDemand
                };
            }
            (Setting::InstanceType(j), Choice::Row(row)) => {
                let cloud = s.platforms[0].cloud;
                let old = s.platforms[0].node_pools[*j].clone();
                if !set_pool_instance(&mut s, 0, *j, row) {
                    return None;
                }
                let fresh = &mut s.platforms[0].node_pools[*j];
                let fresh_discount = fresh.purchase.reserved_discount_pct;
                keep_choices(&old, fresh);
                // A discount published for the old instance type is not the new one's: the
                // new one's published price for the term where there is one, else its default.
                if published_discount(cloud, &old, old.purchase.term_years)
                    == Some(old.purchase.reserved_discount_pct)
                {
                    fresh.purchase.reserved_discount_pct =
                        published_discount(cloud, fresh, fresh.purchase.term_years)
                            .unwrap_or(fresh_discount);
                }
            }
            (Setting::ReservedNodes(j), Choice::Number(nodes)) => {
                let pool = &mut s.platforms[0].node_pools[*j];
                pool.purchase.reserved_share =
                    nodes * f64::from(pool.gpus_per_node) / f64::from(reference_gpus.max(1));
                if pool.purchase.overflow == Overflow::None {
                    pool.max_nodes = pool.max_nodes.max(nodes as u32);
                }
            }
            (Setting::Term(j), Choice::Number(years)) => {
                let cloud = s.platforms[0].cloud;
                let pool = &mut s.platforms[0].node_pools[*j];
                pool.purchase.reserved_discount_pct =
                    published_discount(cloud, pool, years as u32)?;
                pool.purchase.term_years = years as u32;
            }
            (Setting::MaxNodes(j), Choice::Number(nodes)) => {
                s.platforms[0].node_pools[*j].max_nodes = nodes as u32;
            }
            (Setting::WarmPool(j), Choice::Number(seconds)) => {
                s.platforms[0].node_pools[*j].warm_pool_window_s = seconds;
            }
            (Setting::Checkpoint(_, name), Choice::Number(minutes)) => {
                s.platforms[0]
                    .checkpoint_interval_min
                    .insert(name.clone(), minutes);
            }
            (Setting::TensorParallel(_, name), Choice::Number(n)) => {
                own_settings(&mut s, name).tensor_parallel = Some(n as u32);
            }
            (Setting::MinReplicas(_, name), Choice::Number(n)) => {
                own_settings(&mut s, name).min_replicas = Some(n as u32);
            }
            (Setting::TargetUtilization(_, name), Choice::Number(t)) => {
                own_settings(&mut s, name).target_utilization = Some(t);
            }
            (Setting::TargetUtilizationAll, Choice::Number(t)) => {
                let names: Vec<String> = s.services.iter().map(|x| x.name.clone()).collect();
                for name in &names {
                    own_settings(&mut s, name).target_utilization = Some(t);
                }
            }
            (Setting::ApiBilling, Choice::Number(b)) => {
                // Provisioned throughput raced at the units the busiest hour asks for (the
                // fewest would refuse most requests and never win); the units' lever then
                // refines them.
                let sized = sized_steps(solo);
                let api = s.platforms[0].hosted_api.as_mut()?;
                api.billing = if b > 0.5 {
                    ApiBilling::Provisioned
                } else {
                    ApiBilling::PerToken
                };
                if b > 0.5 {
                    // The batch API and the cache are billed per token only.
                    api.batch_share = 0.0;
                    api.cached_input_share = 0.0;
                }
                if let (true, Some(p), Some(k)) = (b > 0.5, api.provisioned.as_mut(), sized) {
                    p.units = p.units.max(p.min_units + k * p.unit_step);
                    // At its cheapest term (the term's lever then weighs the others).
                    let offer = p.offer();
                    let terms = [
                        ProvisionedTerm::Hourly,
                        ProvisionedTerm::OneMonth,
                        ProvisionedTerm::OneYear,
                    ];
                    if let Some(t) = terms
                        .into_iter()
                        .filter_map(|t| offer.monthly_usd(p.units, t).ok().map(|usd| (t, usd)))
                        .min_by(|a, b| a.1.total_cmp(&b.1))
                    {
                        p.term = t.0;
                    }
                }
            }
            (Setting::ApiUnits, Choice::Number(k)) => {
                let p = s.platforms[0].hosted_api.as_mut()?.provisioned.as_mut()?;
                p.units = p.min_units + (k as u32) * p.unit_step;
            }
            (Setting::ApiTerm, Choice::Number(t)) => {
                let p = s.platforms[0].hosted_api.as_mut()?.provisioned.as_mut()?;
                p.term = match t as u32 {
                    1 => ProvisionedTerm::OneMonth,
                    2 => ProvisionedTerm::OneYear,
                    _ => ProvisionedTerm::Hourly,
                };
            }
            _ => return None,
        }
        s.validate().ok().map(|()| s)
    }
}

/// The provisioned throughput of `solo`'s hosted API, where it has one.
fn provisioned(solo: &Scenario) -> Option<&crate::model::scenario::Provisioned> {
    solo.platforms[0].hosted_api.as_ref()?.provisioned.as_ref()
}

/// The steps of units above the fewest that `solo`'s hosted API needs for its services'
/// busiest hour of the week at their mean tokens (spikes included), rounded up.
fn sized_steps(solo: &Scenario) -> Option<u32> {
    let p = provisioned(solo)?;
    let offer = p.offer();
    let load_per_minute: f64 = solo
        .services
        .iter()
        .filter_map(|v| {
            let llm = v.llm.as_ref()?;
            let traffic = v.traffic.traffic();
            let busiest = traffic.week_rps().into_iter().fold(0.0, f64::max);
            let spiked = crate::model::serving::sharing::mean_rps(v) / traffic.mean_rps.max(1e-12);
            let (input, output) = llm.mean_tokens();
            let load = offer.request_load(input, output);
            Some(busiest * spiked.max(1.0) * 60.0 * load)
        })
        .sum();
    let steps = (load_per_minute / offer.input_tpm_per_unit - f64::from(p.min_units))
        / f64::from(p.unit_step.max(1));
    Some(steps.ceil().max(0.0) as u32)
}

/// A hosted API's levers (`solo`'s platform is one): per token or provisioned where the
/// provider sells both; where provisioned, the units (from the fewest to twice what the
/// services' busiest hour of the week asks for at their mean tokens, spikes included) and
/// the terms the offer prices.
fn hosted_levers(solo: &Scenario) -> Vec<(Setting, Values)> {
    let Some(api) = solo.platforms[0].hosted_api.as_ref() else {
        return Vec::new();
    };
    let Some(p) = api.provisioned.as_ref() else {
        return Vec::new();
    };
    let mut out = vec![(
        Setting::ApiBilling,
        Values::Choices(vec![Choice::Number(0.0), Choice::Number(1.0)]),
    )];
    if api.billing != ApiBilling::Provisioned {
        return out;
    }
    let steps_needed = f64::from(sized_steps(solo).unwrap_or(1).max(1));
    out.push((
        Setting::ApiUnits,
        Values::Range(Scale::Whole {
            lo: 0.0,
            hi: 2.0 * steps_needed,
        }),
    ));
    let terms: Vec<Choice> = [
        (0.0, Some(p.usd_per_unit_hour)),
        (1.0, p.usd_per_unit_month_1m),
        (2.0, p.usd_per_unit_month_1y),
    ]
    .into_iter()
    .filter(|(_, price)| price.is_some())
    .map(|(t, _)| Choice::Number(t))
    .collect();
    if terms.len() > 1 {
        out.push((Setting::ApiTerm, Values::Choices(terms)));
    }
    out
}

/// The platform's own settings for service `name` in `solo` (a one-platform scenario),
/// added empty where it has none.
fn own_settings<'a>(solo: &'a mut Scenario, name: &str) -> &'a mut ServiceSettings {
    solo.platforms[0]
        .service_settings
        .entry(name.to_string())
        .or_default()
}

/// The discount `cloud` publishes for `pool`'s commitment over `term_years` on its instance
/// type (the rate's region: the catalog row at the pool's on-demand price), %, to the
/// hundredth as a price page shows it.
fn published_discount(
    cloud: crate::model::scenario::Cloud,
    pool: &NodePool,
    term_years: u32,
) -> Option<f64> {
    let commitments = &cloud.facts().commitments;
    let rate = commitments.rates.iter().find(|r| {
        r.instance.0 == pool.instance_type
            && r.kind == pool.purchase.commitment
            && r.term_years == term_years
            && catalog::find(r.instance.0, r.instance.1).is_some_and(|row| {
                row.on_demand_usd_per_node_hour == Some(pool.on_demand_usd_per_node_hour)
            })
    })?;
    Some((rate.discount_pct()? * 100.0).round() / 100.0)
}

/// What a pool keeps when it moves to another instance type: what it buys and how, its
/// node limit in GPUs, its warm window, its interruption rates, and how it shares GPUs.
fn keep_choices(old: &NodePool, fresh: &mut NodePool) {
    fresh.warm_pool_window_s = old.warm_pool_window_s;
    fresh.purchase = old.purchase.clone();
    let gpus = old.max_nodes * old.gpus_per_node.max(1);
    fresh.max_nodes = gpus.div_ceil(fresh.gpus_per_node.max(1)).max(1);
    fresh.spot_interruptions_per_node_hour = old.spot_interruptions_per_node_hour;
    fresh.spot_reclaims = old.spot_reclaims.clone();
    fresh.image_cache = old.image_cache;
    fresh.gpu_sharing = old.gpu_sharing.clone();
}

/// What the tuner knows of the as-typed platform's load: its nodes at peak, mean over
/// replications.
#[derive(Debug, Clone, Copy)]
pub struct Load {
    /// Most nodes up at once (mean over replications).
    pub peak_nodes: f64,
}

/// The settings of `solo`'s platform searched, with their values, in search order.
pub fn levers(solo: &Scenario, load: Load) -> Vec<(Setting, Values)> {
    let platform = &solo.platforms[0];
    if platform.hosted_api.is_some() {
        return hosted_levers(solo);
    }
    let sim = solo.simulated_on(0);
    let mut out = Vec::new();
    for (j, pool) in platform.node_pools.iter().enumerate() {
        let static_cluster = pool.purchase.overflow == Overflow::None;
        // Spot where the cloud sells it (Lambda does not).
        let sells_spot = platform.cloud.facts().no_spot.is_none();
        if !static_cluster && sells_spot && pool.spot_usd_per_node_hour > 0.0 {
            out.push((
                Setting::Overflow(j),
                Values::Choices(vec![Choice::Spot(false), Choice::Spot(true)]),
            ));
        }
        let rows = instance_rows(solo, j);
        if rows.len() > 1 {
            out.push((
                Setting::InstanceType(j),
                Values::Choices(rows.into_iter().map(Choice::Row).collect()),
            ));
        }
        let peak = load.peak_nodes.ceil().max(1.0);
        // A reserved share is at most 10 times the reference GPUs.
        let most =
            (10.0 * f64::from(solo.reference_gpus) / f64::from(pool.gpus_per_node.max(1))).floor();
        let reserved_hi = if static_cluster {
            f64::from(pool.max_nodes)
        } else {
            peak.min(f64::from(pool.max_nodes))
        }
        .min(most);
        let reserved_lo = if static_cluster { 1.0 } else { 0.0 };
        if reserved_hi > reserved_lo {
            out.push((
                Setting::ReservedNodes(j),
                Values::Range(Scale::Whole {
                    lo: reserved_lo,
                    hi: reserved_hi,
                }),
            ));
        }
        let terms = crate::model::scenario::commitment::TERMS_YEARS;
        // Only where something is reserved (the reservation's lever, in an earlier pass, may
        // add some: the levers are built again each pass).
        if pool.reserved_nodes(solo.reference_gpus) > 0
            && terms
                .iter()
                .all(|&t| published_discount(platform.cloud, pool, t).is_some())
        {
            out.push((
                Setting::Term(j),
                Values::Choices(terms.map(|t| Choice::Number(f64::from(t))).to_vec()),
            ));
        }
        if !static_cluster {
            let typed = f64::from(pool.max_nodes);
            out.push((
                Setting::MaxNodes(j),
                Values::Range(Scale::Whole {
                    lo: (typed / 2.0).floor().max(1.0),
                    hi: typed * 2.0,
                }),
            ));
            out.push((
                Setting::WarmPool(j),
                Values::Range(Scale::Log {
                    lo: 30.0,
                    hi: 7200.0,
                    zero: true,
                }),
            ));
        }
    }
    for (c, class) in sim.job_classes.iter().enumerate() {
        if class.checkpoint_write_s <= 0.0 {
            continue;
        }
        let pool = &platform.node_pools[platform.pool_of_class(&sim, c)];
        let spot = pool.purchase.overflow == Overflow::Spot;
        let per_node_hour = if spot {
            pool.spot_interruptions_per_node_hour
        } else {
            0.0
        } + pool.node_failures_per_node_hour;
        let preempted = platform.preemption != Default::default();
        if per_node_hour <= 0.0 && !preempted {
            continue;
        }
        // Young–Daly: τ = √(2δM), M the mean time between a job's interruptions.
        let nodes = f64::from(pool.nodes_needed(class.gpus_per_job).max(1));
        let mtbf_s = 3600.0 / (per_node_hour.max(1e-3) * nodes);
        let daly_min = (2.0 * class.checkpoint_write_s * mtbf_s).sqrt() / 60.0;
        out.push((
            Setting::Checkpoint(c, class.name.clone()),
            Values::Range(Scale::Log {
                lo: (daly_min / 16.0).max(1.0),
                hi: (daly_min * 16.0).min(1e5),
                zero: true,
            }),
        ));
    }
    let target = Values::Range(Scale::Log {
        lo: 0.3,
        hi: 0.95,
        zero: false,
    });
    if solo.services.len() > SERVICES_ONE_BY_ONE {
        out.push((Setting::TargetUtilizationAll, target));
        return out;
    }
    for (k, service) in solo.services.iter().enumerate() {
        if let Some(choices) = tensor_parallel_choices(solo, k) {
            out.push((
                Setting::TensorParallel(k, service.name.clone()),
                Values::Choices(choices),
            ));
        }
        let scales_to_zero = crate::model::serving::platform::serving_of(platform).scale_to_zero;
        let typed = f64::from(service.min_replicas);
        let hi = (typed * 2.0)
            .max(typed + 4.0)
            .min(f64::from(service.max_replicas));
        let lo = if scales_to_zero { 0.0 } else { 1.0 };
        if hi > lo {
            out.push((
                Setting::MinReplicas(k, service.name.clone()),
                Values::Range(Scale::Whole { lo, hi }),
            ));
        }
        out.push((
            Setting::TargetUtilization(k, service.name.clone()),
            target.clone(),
        ));
    }
    out
}

/// The tensor parallelisms an LLM service `k` of `solo` may run at on its platform: powers
/// of two up to its pool's GPUs per node, and the one it has (`None` for a service that is
/// not an LLM, or where only one fits a node). A split that does not hold the model is
/// refused when tried (the scenario it makes is invalid).
fn tensor_parallel_choices(solo: &Scenario, k: usize) -> Option<Vec<Choice>> {
    let platform = &solo.platforms[0];
    let service = solo.services[k].on(platform);
    let current = service.llm.as_ref()?.tensor_parallel;
    let pool = &platform.node_pools[platform.services_pool(solo)];
    let mut tps: Vec<u32> = (0..7)
        .map(|e| 1 << e)
        .take_while(|&tp| tp <= pool.gpus_per_node)
        .collect();
    if !tps.contains(&current) {
        tps.push(current);
        tps.sort_unstable();
    }
    (tps.len() > 1).then(|| {
        tps.into_iter()
            .map(|tp| Choice::Number(f64::from(tp)))
            .collect()
    })
}

/// The catalog rows pool `j` of `solo`'s platform may move to, its own first: on its cloud
/// and in its region, offered by its profile, with at least the GPU memory every job class
/// and service on the pool asks for. Empty where the pool is not a catalog row at its list
/// price.
fn instance_rows(solo: &Scenario, j: usize) -> Vec<usize> {
    let Some(own) = exact_pool_instance_row(solo, 0, j) else {
        return Vec::new();
    };
    let platform = &solo.platforms[0];
    let Some(profile) = platform.profile.profile() else {
        return Vec::new();
    };
    // A profile's own instances (a 1-Click Cluster's size tiers, Cloud Run's one) are what
    // was bought or offered, not a choice of hardware: each tier's price holds only for its
    // cluster size, so none is swapped for another.
    if profile.facts().own_instances.is_some() {
        return Vec::new();
    }
    let sim = solo.simulated_on(0);
    let memory = (0..sim.job_classes.len())
        .filter(|&c| platform.pool_of_class(&sim, c) == j)
        .map(|c| sim.job_classes[c].gpu_memory_gb)
        .chain(sim.services.iter().map(|s| s.replica_memory_gb()))
        .fold(0.0, f64::max);
    let rows = catalog::catalog();
    let here: &InstanceType = &rows[own];
    // A GPU's work stays on GPUs: an accelerator whose throughput depends on the model family
    // (Inferentia, TPU) is offered only to a pool already on one.
    let family = |model: &str| gpus::find(model).map(|g| g.family_dependent);
    let own_family = family(&here.gpu_model);
    let mut out = vec![own];
    out.extend((0..rows.len()).filter(|&r| {
        let row = &rows[r];
        r != own
            && row.cloud == here.cloud
            && row.region == here.region
            && row.on_demand_usd_per_node_hour.is_some()
            && row.gpu_memory_gb >= memory
            && family(&row.gpu_model) == own_family
            && profile.offers(row)
    }));
    out
}

/// The first grid of `scale`, with `current` among its points.
pub fn grid(scale: Scale, current: f64) -> Vec<f64> {
    let mut out: Vec<f64> = match scale {
        Scale::Whole { lo, hi } => {
            let step = ((hi - lo) / (GRID_POINTS - 1) as f64).max(1.0);
            let mut v: Vec<f64> = (0..GRID_POINTS)
                .map(|i| (lo + step * i as f64).round())
                .filter(|v| *v <= hi)
                .collect();
            v.push(hi);
            v
        }
        Scale::Log { lo, hi, zero } => {
            let ratio = (hi / lo).powf(1.0 / (GRID_POINTS - 1) as f64);
            let mut v: Vec<f64> = (0..GRID_POINTS)
                .map(|i| round_sig(lo * ratio.powi(i as i32)))
                .collect();
            if zero {
                v.push(0.0);
            }
            v
        }
    };
    out.push(current);
    tidy(out)
}

/// The finer grid around `best` of a range, given the grid it won: its neighbours halfway
/// to the points beside it. Empty once the grid is as fine as the setting needs.
pub fn finer(scale: Scale, won: &[f64], best: f64) -> Vec<f64> {
    let mut sorted = won.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = sorted.iter().position(|v| *v == best).unwrap_or(0);
    let below = at.checked_sub(1).map(|i| sorted[i]);
    let above = sorted.get(at + 1).copied();
    let mut out = vec![best];
    match scale {
        Scale::Whole { .. } => {
            for n in [below, above].into_iter().flatten() {
                let mid = ((n + best) / 2.0).round();
                if (mid - best).abs() >= 1.0 && (mid - n).abs() >= 1.0 {
                    out.push(mid);
                }
            }
        }
        Scale::Log { .. } => {
            // 0 ("never") is a choice of its own, with no neighbour on the scale.
            if best <= 0.0 {
                return Vec::new();
            }
            for n in [below, above].into_iter().flatten().filter(|n| *n > 0.0) {
                if n.max(best) / n.min(best) > LOG_RESOLUTION {
                    out.push(round_sig((n * best).sqrt()));
                }
            }
        }
    }
    let out = tidy(out);
    if out.len() <= 1 {
        Vec::new()
    } else {
        out
    }
}

/// Sorted, without repeats.
fn tidy(mut v: Vec<f64>) -> Vec<f64> {
    v.retain(|x| x.is_finite() && *x >= 0.0);
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// `x` to 3 significant figures (a setting a person would type), as the nearest double to
/// that decimal.
fn round_sig(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.2e}").parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_hold_the_current_value_and_narrow_to_a_point() {
        let g = grid(Scale::Whole { lo: 0.0, hi: 40.0 }, 7.0);
        assert_eq!(
            g,
            vec![0.0, 5.0, 7.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0]
        );
        assert_eq!(
            finer(Scale::Whole { lo: 0.0, hi: 40.0 }, &g, 15.0),
            vec![13.0, 15.0, 18.0]
        );
        assert_eq!(
            finer(
                Scale::Whole { lo: 0.0, hi: 40.0 },
                &[14.0, 15.0, 16.0],
                15.0
            ),
            Vec::<f64>::new()
        );
        let log = Scale::Log {
            lo: 1.0,
            hi: 256.0,
            zero: true,
        };
        let g = grid(log, 30.0);
        assert_eq!(g.first(), Some(&0.0));
        assert!(g.contains(&30.0) && g.contains(&256.0) && g.contains(&2.0));
        // Around 16, between 8 and 30: √(8·16) and √(16·30).
        assert_eq!(finer(log, &g, 16.0), vec![11.3, 16.0, 21.9]);
        // "Never" is not refined.
        assert_eq!(finer(log, &g, 0.0), Vec::<f64>::new());
    }
}
