//! Scenario-wide knobs: quantities that every platform or job class has (the spot
//! interruption rate, the warm-pool window, …), set on all of them at once. One table drives
//! the page's global sliders and the tornado's inputs, so both use the same words. Each knob
//! names the field-table row it sets ([`KnobRow`]), whose slider range its slider shows (in
//! the knob's unit) and whose range of valid values bounds it; a knob of a derived quantity
//! (the offered load) has a range of its own.
//!
//! A knob's slider shows the value of the first item that has it (the first spot platform for
//! the interruption rate); moving it sets the value everywhere. The tornado scales a knob's
//! value by (1 ± X %) on every item instead.

use super::scenario::fields::{
    field, Field, SliderRange, JOB_CLASS_FIELDS, NODE_POOL_FIELDS, PLATFORM_FIELDS,
    SCENARIO_FIELDS, SERVICE_FIELDS,
};
use super::scenario::{Cloud, JobClass, NodePool, Overflow, Platform, Scenario, Serving};
use super::serving::platform::{serving_mut, serving_of};
use crate::format::trim_number;
use crate::model::analytic::{monthly_interruption_share, young_interval_s};

/// The page's slider for a knob, in the knob's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slider {
    /// Element id of the range input.
    pub id: &'static str,
    /// Smallest value on the slider.
    pub min: f64,
    /// Largest value on the slider.
    pub max: f64,
    /// Step.
    pub step: f64,
}

/// Where a knob's slider is and where its range comes from.
#[derive(Debug, Clone, Copy)]
pub struct KnobSlider {
    /// Element id of the range input.
    pub id: &'static str,
    /// Its own range, for a knob of no field (a derived quantity: the offered load); `None`:
    /// its row's slider range.
    pub own: Option<SliderRange>,
}

/// The table a knob's row is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// [`SCENARIO_FIELDS`].
    Scenario,
    /// [`JOB_CLASS_FIELDS`] (every job class and pipeline stage).
    JobClass,
    /// [`PLATFORM_FIELDS`] (every platform).
    Platform,
    /// [`NODE_POOL_FIELDS`] (every pool).
    NodePool,
    /// [`SERVICE_FIELDS`] (every service).
    Service,
}

/// The field a knob sets on every item that has it, and the knob's unit against the row's.
#[derive(Debug, Clone, Copy)]
pub struct KnobRow {
    /// Its table.
    pub table: Table,
    /// Its path there.
    pub path: &'static str,
    /// Knob units per unit of the row (the warm-pool window in minutes over seconds: 1/60;
    /// the reserved share in % over a ratio: 100).
    pub scale: f64,
}

impl KnobRow {
    /// The row's range of valid values and its slider's range, in the row's unit.
    pub fn ranges(&self) -> Option<((f64, f64), Option<SliderRange>)> {
        fn of<T>(
            table: &'static [Field<T>],
            path: &str,
        ) -> Option<((f64, f64), Option<SliderRange>)> {
            field(table, path).map(|f| ((f.min, f.max), f.slider))
        }
        match self.table {
            Table::Scenario => of(SCENARIO_FIELDS, self.path),
            Table::JobClass => of(JOB_CLASS_FIELDS, self.path),
            Table::Platform => of(PLATFORM_FIELDS, self.path),
            Table::NodePool => of(NODE_POOL_FIELDS, self.path),
            Table::Service => of(SERVICE_FIELDS, self.path),
        }
    }
}

/// A knob's row, with the knob in the row's unit.
const fn row(table: Table, path: &'static str) -> Option<KnobRow> {
    Some(KnobRow {
        table,
        path,
        scale: 1.0,
    })
}

/// A slider whose range is its row's.
const fn slider(id: &'static str) -> Option<KnobSlider> {
    Some(KnobSlider { id, own: None })
}

/// A scenario-wide input.
#[derive(Debug, Clone, Copy)]
pub struct Knob {
    /// Identifier (the tornado's `knob`).
    pub id: &'static str,
    /// Label of the slider, and of the tornado's row unless `chart_label` says otherwise.
    pub label: &'static str,
    /// The shorter label of the tornado's row.
    pub chart_label: &'static str,
    /// Unit of the slider's value.
    pub unit: &'static str,
    /// Tooltip and help text of the slider.
    pub help: &'static str,
    /// The field it sets everywhere, if it is one (not a derived quantity).
    pub row: Option<KnobRow>,
    /// Its slider, if the page has one for it ([`Knob::slider`] gives its range).
    pub slider_at: Option<KnobSlider>,
    /// What the slider's value means, in a line under it, if it has such a readout.
    pub readout: Option<fn(&Scenario) -> String>,
    /// The slider's value.
    pub get: fn(&Scenario) -> f64,
    /// Sets the slider's value everywhere.
    pub set: fn(&mut Scenario, f64),
    /// Multiplies the quantity by a factor everywhere (the tornado's variants); `None` for a
    /// knob the tornado leaves out.
    pub scale: Option<fn(&mut Scenario, f64)>,
    /// Whether the knob means anything for a scenario (the serving knobs need a service):
    /// the page shows its slider and the tornado varies it only then.
    pub when: fn(&Scenario) -> bool,
}

/// The negotiated discount of the `C`-th cloud of [`Cloud::ALL`]: its words from its facts.
const fn discount_knob<const C: usize>() -> Knob {
    let discount = &Cloud::ALL[C].facts().discount;
    Knob {
        id: discount.knob,
        label: discount.label,
        chart_label: discount.label,
        unit: "%",
        help: discount.help,
        row: row(Table::Scenario, discount.path),
        slider_at: slider(discount.slider),
        readout: None,
        get: |s| s.discounts.pct(Cloud::ALL[C]),
        set: |s, v| s.discounts.set_pct(Cloud::ALL[C], v),
        scale: None,
        // Its slider only where a platform runs on that cloud.
        when: |s| s.platforms.iter().any(|p| p.cloud == Cloud::ALL[C]),
    }
}

impl Knob {
    /// Its slider in its unit: its row's slider range (scaled to the knob's unit), or its own.
    pub fn slider(&self) -> Option<Slider> {
        let at = self.slider_at?;
        let range = match (at.own, self.row) {
            (Some(own), _) => own,
            (None, Some(row)) => {
                let r = row.ranges()?.1?;
                SliderRange {
                    min: r.min * row.scale,
                    max: r.max * row.scale,
                    step: r.step * row.scale,
                }
            }
            (None, None) => return None,
        };
        Some(Slider {
            id: at.id,
            min: range.min,
            max: range.max,
            step: range.step,
        })
    }
}

/// Every scenario.
fn always(_: &Scenario) -> bool {
    true
}

/// A scenario with job classes (services run on demand, never on spot or reserved nodes,
/// and move no data per job: the training knobs mean nothing to them).
fn has_jobs(s: &Scenario) -> bool {
    !s.job_classes.is_empty() || !s.pipelines.is_empty()
}

/// Every job class, then every pipeline's stages: what the knobs of a job's shape set.
fn job_specs_mut(s: &mut Scenario) -> impl Iterator<Item = &mut JobClass> {
    s.job_classes
        .iter_mut()
        .chain(s.pipelines.iter_mut().flat_map(|p| p.stages.iter_mut()))
}

/// The first job class, else the first pipeline's first stage: what those knobs show.
fn first_job_spec(s: &Scenario) -> Option<&JobClass> {
    s.job_classes
        .first()
        .or_else(|| s.pipelines.first().and_then(|p| p.stages.first()))
}

/// A scenario with services.
fn has_services(s: &Scenario) -> bool {
    !s.services.is_empty()
}

/// A scenario with a service whose traffic spikes.
fn has_spikes(s: &Scenario) -> bool {
    s.services.iter().any(|v| v.traffic.spikes.is_some())
}

/// The serving settings of every platform of nodes, each made its own (from its profile) to
/// edit (a hosted API has none).
fn each_serving(s: &mut Scenario, mut f: impl FnMut(&mut Serving)) {
    for p in s.platforms.iter_mut().filter(|p| p.runs_nodes()) {
        f(serving_mut(p));
    }
}

/// Every drawn service's mean traffic times `factor` (a replayed trace plays as recorded).
fn scale_traffic(s: &mut Scenario, factor: f64) {
    for v in s.services.iter_mut().filter(|v| v.traffic.replay.is_none()) {
        v.traffic.mean_rps *= factor;
    }
}

/// The first service whose traffic is drawn, not replayed: the one the traffic knob shows.
fn first_drawn(s: &Scenario) -> Option<&crate::model::scenario::Service> {
    s.services.iter().find(|v| v.traffic.replay.is_none())
}

/// Requests a day at `rps`, in words: "4,320 requests a day", "2.6 M requests a day".
fn per_day(rps: f64) -> String {
    let n = rps * 86_400.0;
    if n < 1e6 {
        format!(
            "{} requests a day",
            crate::format::group_thousands(n.round() as u64)
        )
    } else {
        format!("{} M requests a day", trim_number((n / 1e5).round() / 10.0))
    }
}

/// The traffic slider's readout: the requests a day, of all the services when several.
fn traffic_readout(s: &Scenario) -> String {
    let total: f64 = s.services.iter().map(|v| v.traffic.mean_rps).sum();
    let replayed = s
        .services
        .iter()
        .filter(|v| v.traffic.replay.is_some())
        .count();
    let text = if s.services.len() > 1 {
        format!(
            "{} services, {} req/s in all ({}); moving it keeps their ratios",
            s.services.len(),
            trim_number(total),
            per_day(total)
        )
    } else {
        per_day(total)
    };
    match replayed {
        0 => text,
        n => format!("{text}; {n} replayed trace(s) play as recorded"),
    }
}

/// The scale-up delay slider's readout: each platform's delay.
fn scale_up_readout(s: &Scenario) -> String {
    s.platforms
        .iter()
        .filter(|p| p.runs_nodes())
        .map(|p| {
            format!(
                "{} {} s",
                p.name,
                trim_number(serving_of(p).scale_up_delay_s)
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Whether `p` pays for egress: not on a cloud's free band (CoreWeave, Lambda, Nebius), which
/// the egress slider leaves at no charge.
fn pays_egress(p: &Platform) -> bool {
    !p.egress_tiers.is_free_band()
}

fn first_platform(s: &Scenario, f: fn(&Platform) -> f64) -> f64 {
    s.platforms.first().map(f).unwrap_or(0.0)
}

/// The value of the first pool of the first platform with one.
fn first_pool(s: &Scenario, f: fn(&NodePool) -> f64) -> f64 {
    s.platforms
        .iter()
        .find_map(|p| p.pools().first())
        .map(f)
        .unwrap_or(0.0)
}

/// Applies `f` to every pool of every platform.
fn each_pool(s: &mut Scenario, mut f: impl FnMut(&mut NodePool)) {
    for p in &mut s.platforms {
        p.node_pools.iter_mut().for_each(&mut f);
    }
}

/// The first platform with a pool on spot, and that pool: the one whose interruption rate
/// the slider shows.
pub fn first_spot(s: &Scenario) -> Option<(&Platform, &NodePool)> {
    s.platforms.iter().find_map(|p| {
        p.pools()
            .iter()
            .find(|pool| pool.purchase.overflow == Overflow::Spot)
            .map(|pool| (p, pool))
    })
}

/// The spot interruption rate the slider shows: the first spot pool's, else the first pool's
/// of the first platform with one.
pub fn shown_spot_rate(s: &Scenario) -> f64 {
    first_spot(s)
        .map(|(_, pool)| pool)
        .or_else(|| s.platforms.iter().find_map(|p| p.pools().first()))
        .map(|pool| pool.spot_interruptions_per_node_hour)
        .unwrap_or(0.0)
}

/// The spot slider's readout: mean time between interruptions, and the share of always-on
/// nodes interrupted in a month.
fn interruption_readout(s: &Scenario) -> String {
    let l = shown_spot_rate(s);
    let mtbi = if l > 0.0 {
        format!(
            "mean time between interruptions {} h",
            trim_number((1.0 / l).round())
        )
    } else {
        "no interruptions".to_string()
    };
    format!(
        "{mtbi}; {:.1} % of always-on nodes interrupted in a month",
        monthly_interruption_share(l) * 100.0
    )
}

/// The utilization slider's readout: what the load is relative to, and jobs a day.
fn offered_load_readout(s: &Scenario) -> String {
    let jobs: f64 = s
        .job_classes
        .iter()
        .map(|c| c.arrivals.jobs_per_day())
        .sum::<f64>()
        + s.pipelines
            .iter()
            .map(|p| p.arrivals.jobs_per_day() * p.stages.len() as f64)
            .sum::<f64>();
    format!(
        "offered load vs {} reference GPUs ({}); {} jobs a day",
        s.reference_gpus,
        s.reference_gpu,
        trim_number((jobs * 10.0).round() / 10.0)
    )
}

/// The image slider's readout: the first class's pull time on the first platform.
fn pull_time_readout(s: &Scenario) -> String {
    let gb = first_job_spec(s).map(|c| c.image_gb).unwrap_or(0.0);
    s.platforms
        .first()
        .map(|p| {
            format!(
                "pull ≈ {} min at {} GB/s",
                trim_number((gb / p.image_pull_gb_per_s / 6.0).round() / 10.0),
                trim_number(p.image_pull_gb_per_s)
            )
        })
        .unwrap_or_default()
}

/// The checkpoint slider's readout: Young's interval for the first class on the first spot
/// platform.
fn checkpoint_optimum_readout(s: &Scenario) -> String {
    let Some(class) = first_job_spec(s) else {
        return String::new();
    };
    match first_spot(s) {
        Some((p, pool)) if pool.spot_interruptions_per_node_hour > 0.0 => {
            let mtbi_s = 3600.0 / pool.spot_interruptions_per_node_hour;
            let young = young_interval_s(class.checkpoint_write_s, mtbi_s) / 60.0;
            format!(
                "Young/Daly optimum ≈ {} min for {} s writes on {}",
                trim_number(young.round()),
                trim_number(class.checkpoint_write_s),
                p.name
            )
        }
        _ => "no spot platform: checkpoints only cost write time".to_string(),
    }
}

/// Every knob, sliders in page order.
pub static KNOBS: &[Knob] = &[
    Knob {
        id: "spot_interruption_rate",
        label: "Spot interruption rate",
        chart_label: "Spot interruption rate",
        unit: "per node-hour",
        help: "Interruptions per spot node-hour (λ), set on every platform's pools; only spot nodes are interrupted.",
        row: row(Table::NodePool, "spot_interruptions_per_node_hour"),
        slider_at: slider("spot-rate"),
        readout: Some(interruption_readout),
        get: shown_spot_rate,
        set: |s, v| each_pool(s, |p| p.spot_interruptions_per_node_hour = v),
        scale: Some(|s, f| each_pool(s, |p| p.spot_interruptions_per_node_hour *= f)),
        when: has_jobs,
    },
    Knob {
        id: "utilization",
        label: "Utilization (offered load)",
        chart_label: "Utilization (offered load)",
        unit: "%",
        help: "Offered load as a share of the reference GPUs: scales every job class's arrival rate.",
        row: None,
        slider_at: Some(KnobSlider { id: "utilization", own: Some(SliderRange { min: 5.0, max: 150.0, step: 1.0 }) }),
        readout: Some(offered_load_readout),
        get: |s| (s.offered_utilization() * 100.0).round(),
        set: |s, v| {
            if let Some(next) = s.with_offered_utilization(v / 100.0) {
                *s = next;
            }
        },
        scale: Some(|s, f| {
            for c in &mut s.job_classes {
                c.arrivals = c.arrivals.scaled(f);
            }
            for p in &mut s.pipelines {
                p.arrivals = p.arrivals.scaled(f);
            }
        }),
        when: has_jobs,
    },
    Knob {
        id: "on_demand_price",
        label: "On-demand price",
        chart_label: "On-demand price",
        unit: "$/node-h",
        help: "On-demand list price of every platform's pools.",
        row: row(Table::NodePool, "on_demand_usd_per_node_hour"),
        slider_at: None,
        readout: None,
        get: |s| first_pool(s, |p| p.on_demand_usd_per_node_hour),
        set: |s, v| each_pool(s, |p| p.on_demand_usd_per_node_hour = v),
        scale: Some(|s, f| each_pool(s, |p| p.on_demand_usd_per_node_hour *= f)),
        when: always,
    },
    Knob {
        id: "spot_price",
        label: "Spot price",
        chart_label: "Spot price",
        unit: "$/node-h",
        help: "Spot price of every platform's pools.",
        row: row(Table::NodePool, "spot_usd_per_node_hour"),
        slider_at: None,
        readout: None,
        get: |s| first_pool(s, |p| p.spot_usd_per_node_hour),
        set: |s, v| each_pool(s, |p| p.spot_usd_per_node_hour = v),
        scale: Some(|s, f| each_pool(s, |p| p.spot_usd_per_node_hour *= f)),
        when: has_jobs,
    },
    Knob {
        id: "provisioning_time",
        label: "Node provisioning time",
        chart_label: "Node provisioning time",
        unit: "s",
        help: "Median node provisioning time of every platform (its 90th percentile scales with it).",
        row: row(Table::Platform, "provisioning_median_s"),
        slider_at: None,
        readout: None,
        get: |s| first_platform(s, |p| p.provisioning_median_s),
        set: |s, v| {
            for p in &mut s.platforms {
                p.provisioning_median_s = v;
                p.provisioning_p90_s = p.provisioning_p90_s.max(v);
            }
        },
        scale: Some(|s, f| {
            for p in &mut s.platforms {
                p.provisioning_median_s *= f;
                p.provisioning_p90_s *= f;
            }
        }),
        when: always,
    },
    Knob {
        id: "egress_gb",
        label: "Egress per job",
        chart_label: "Egress per job",
        unit: "GB",
        help: "Data each finished job sends out of the cloud, set on every job class.",
        row: row(Table::JobClass, "egress_gb_per_job"),
        slider_at: slider("egress-gb"),
        readout: None,
        get: |s| first_job_spec(s).map(|c| c.egress_gb_per_job).unwrap_or(0.0),
        set: |s, v| job_specs_mut(s).for_each(|c| c.egress_gb_per_job = v),
        scale: None,
        when: has_jobs,
    },
    Knob {
        id: "egress_price",
        label: "Egress price",
        chart_label: "Egress price",
        unit: "$/GB",
        help: "Internet egress price, set on every platform that pays egress (AWS $0.09, GCP $0.12, Azure $0.087 by default; CoreWeave, Lambda and Nebius charge none and keep none).",
        row: row(Table::Platform, "egress_usd_per_gb"),
        slider_at: slider("egress-price"),
        readout: None,
        get: |s| {
            s.platforms
                .iter()
                .find(|p| pays_egress(p))
                .map_or(0.0, |p| p.egress_usd_per_gb)
        },
        set: |s, v| {
            s.platforms
                .iter_mut()
                .filter(|p| pays_egress(p))
                .for_each(|p| p.egress_usd_per_gb = v)
        },
        scale: Some(|s, f| {
            s.platforms
                .iter_mut()
                .filter(|p| pays_egress(p))
                .for_each(|p| p.egress_usd_per_gb *= f)
        }),
        when: |s| has_jobs(s) && s.platforms.iter().any(pays_egress),
    },
    Knob {
        id: "fte_cost",
        label: "FTE cost",
        chart_label: "FTE cost",
        unit: "$/year",
        help: "Loaded annual cost of one engineer; each platform's ops share multiplies it.",
        row: row(Table::Scenario, "people.fte_cost_usd_per_year"),
        slider_at: slider("fte-cost"),
        readout: None,
        get: |s| s.people.fte_cost_usd_per_year,
        set: |s, v| s.people.fte_cost_usd_per_year = v,
        scale: Some(|s, f| s.people.fte_cost_usd_per_year *= f),
        when: always,
    },
    Knob {
        id: "warm_pool_window",
        label: "Warm-pool window",
        chart_label: "Warm-pool window",
        unit: "min",
        help: "How long an empty node waits for work before it is released, set on every platform's pools.",
        row: Some(KnobRow { table: Table::NodePool, path: "warm_pool_window_s", scale: 1.0 / 60.0 }),
        slider_at: slider("warm-pool"),
        readout: None,
        get: |s| first_pool(s, |p| p.warm_pool_window_s / 60.0),
        set: |s, v| each_pool(s, |p| p.warm_pool_window_s = v * 60.0),
        scale: Some(|s, f| each_pool(s, |p| p.warm_pool_window_s *= f)),
        when: has_jobs,
    },
    Knob {
        id: "image_size",
        label: "Image pull time (image size)",
        chart_label: "Image pull time",
        unit: "GB",
        help: "Container image size, set on every job class; pull time = size ÷ the platform's pull throughput.",
        row: row(Table::JobClass, "image_gb"),
        slider_at: slider("image-size"),
        readout: Some(pull_time_readout),
        get: |s| first_job_spec(s).map(|c| c.image_gb).unwrap_or(0.0),
        set: |s, v| job_specs_mut(s).for_each(|c| c.image_gb = v),
        scale: Some(|s, f| job_specs_mut(s).for_each(|c| c.image_gb *= f)),
        when: has_jobs,
    },
    Knob {
        id: "checkpoint_interval",
        label: "Checkpoint interval",
        chart_label: "Checkpoint interval",
        unit: "min",
        help: "Compute time between checkpoints, set on every job class; 0 = no checkpoints.",
        row: row(Table::JobClass, "checkpoint_interval_min"),
        slider_at: slider("checkpoint-interval"),
        readout: Some(checkpoint_optimum_readout),
        get: |s| first_job_spec(s).map(|c| c.checkpoint_interval_min).unwrap_or(0.0),
        set: |s, v| job_specs_mut(s).for_each(|c| c.checkpoint_interval_min = v),
        scale: Some(|s, f| job_specs_mut(s).for_each(|c| c.checkpoint_interval_min *= f)),
        when: has_jobs,
    },
    Knob {
        id: "reserved_share",
        label: "Reserved share",
        chart_label: "Reserved share",
        unit: "%",
        help: "Reserved GPUs ÷ reference GPUs, rounded up to whole nodes, set on every autoscaled pool.",
        row: Some(KnobRow { table: Table::NodePool, path: "purchase.reserved_share", scale: 100.0 }),
        slider_at: slider("reserved-share"),
        readout: None,
        get: |s| {
            s.platforms
                .iter()
                .flat_map(|p| p.pools())
                .find(|p| p.purchase.overflow != Overflow::None)
                .map(|p| (p.purchase.reserved_share * 100.0).round())
                .unwrap_or(0.0)
        },
        set: |s, v| {
            each_pool(s, |p| {
                if p.purchase.overflow != Overflow::None {
                    p.purchase.reserved_share = v / 100.0;
                }
            })
        },
        scale: None,
        when: has_jobs,
    },
    // One negotiated discount per cloud, in the order of Cloud::ALL (a test checks).
    discount_knob::<0>(),
    discount_knob::<1>(),
    discount_knob::<2>(),
    discount_knob::<3>(),
    discount_knob::<4>(),
    discount_knob::<5>(),
    Knob {
        id: "traffic",
        label: "Traffic",
        chart_label: "Traffic",
        unit: "req/s",
        help: "Mean requests per second of the first service over a week, spikes aside; moving it scales every service's traffic by the same factor (a replayed request trace plays as recorded and does not move).",
        row: row(Table::Service, "traffic.mean_rps"),
        slider_at: slider("traffic"),
        readout: Some(traffic_readout),
        get: |s| first_drawn(s).map_or(0.0, |v| v.traffic.mean_rps),
        set: |s, v| {
            let first = first_drawn(s).map_or(0.0, |x| x.traffic.mean_rps);
            if first > 0.0 {
                scale_traffic(s, v / first);
            } else {
                s.services
                    .iter_mut()
                    .filter(|x| x.traffic.replay.is_none())
                    .for_each(|x| x.traffic.mean_rps = v);
            }
        },
        scale: Some(scale_traffic),
        when: |s| first_drawn(s).is_some(),
    },
    Knob {
        id: "spike_factor",
        label: "Traffic spike factor",
        chart_label: "Spike factor",
        unit: "×",
        help: "How many times the usual traffic a spike brings, set on every service whose traffic spikes.",
        row: row(Table::Service, "traffic.spikes.factor"),
        slider_at: slider("spike-factor"),
        readout: None,
        get: |s| {
            s.services
                .iter()
                .find_map(|v| v.traffic.spikes.as_ref().map(|x| x.factor))
                .unwrap_or(1.0)
        },
        set: |s, v| {
            s.services
                .iter_mut()
                .filter_map(|x| x.traffic.spikes.as_mut())
                .for_each(|x| x.factor = v.max(1.0))
        },
        scale: Some(|s, f| {
            s.services
                .iter_mut()
                .filter_map(|x| x.traffic.spikes.as_mut())
                .for_each(|x| x.factor = (x.factor * f).max(1.0))
        }),
        when: has_spikes,
    },
    Knob {
        id: "scale_up_delay",
        label: "Serving scale-up delay",
        chart_label: "Scale-up delay",
        unit: "s",
        help: "From the autoscaler's decision to a new replica serving, beyond the node's provisioning, the image pull and the model load; set on every platform.",
        row: row(Table::Platform, "serving.scale_up_delay_s"),
        slider_at: slider("scale-up-delay"),
        readout: Some(scale_up_readout),
        get: |s| {
            s.platforms
                .iter()
                .find(|p| p.runs_nodes())
                .map_or(0.0, |p| serving_of(p).scale_up_delay_s)
        },
        set: |s, v| each_serving(s, |x| x.scale_up_delay_s = v),
        scale: Some(|s, f| each_serving(s, |x| x.scale_up_delay_s *= f)),
        when: |s| has_services(s) && s.platforms.iter().any(|p| p.runs_nodes()),
    },
];

/// The knob with this identifier.
pub fn knob(id: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::fields::Value;

    /// The values `row` reads on every item of its table in `s`.
    fn row_values(s: &Scenario, row: KnobRow) -> Vec<f64> {
        fn read<T>(table: &'static [Field<T>], path: &str, items: Vec<&T>) -> Vec<f64> {
            let Some(Value::Number { get, .. }) = field(table, path).map(|f| f.value) else {
                panic!("{path} is no number row");
            };
            items.into_iter().filter_map(get).collect()
        }
        let classes = s
            .job_classes
            .iter()
            .chain(s.pipelines.iter().flat_map(|p| p.stages.iter()))
            .collect();
        let pools = s
            .platforms
            .iter()
            .flat_map(|p| p.node_pools.iter())
            .collect();
        match row.table {
            Table::Scenario => read(SCENARIO_FIELDS, row.path, vec![s]),
            Table::JobClass => read(JOB_CLASS_FIELDS, row.path, classes),
            Table::Platform => read(PLATFORM_FIELDS, row.path, s.platforms.iter().collect()),
            Table::NodePool => read(NODE_POOL_FIELDS, row.path, pools),
            Table::Service => read(SERVICE_FIELDS, row.path, s.services.iter().collect()),
        }
    }

    #[test]
    fn each_knob_names_its_row_and_writes_it_within_its_slider_and_validity() {
        for knob in KNOBS {
            if let Some(row) = knob.row {
                let ((min, max), range) = row
                    .ranges()
                    .unwrap_or_else(|| panic!("{}: no row {}", knob.id, row.path));
                // The slider explores valid values only.
                if let Some(r) = range {
                    assert!(min <= r.min && r.min < r.max && r.max <= max, "{}", knob.id);
                    assert!(r.step > 0.0 && r.step <= r.max - r.min, "{}", knob.id);
                }
                assert_eq!(knob.slider_at.is_some(), range.is_some(), "{}", knob.id);
                // Setting the knob writes its row, in the row's unit, on the items it sets
                // (the reserved share only on autoscaled pools: on some presets none).
                let mut written = 0;
                for preset in crate::workbench::presets::presets() {
                    let mut s = preset.scenario();
                    let before = row_values(&s, row);
                    if !(knob.when)(&s) || before.is_empty() {
                        continue;
                    }
                    let v = knob.slider().map_or((knob.get)(&s) * 0.5 + 1.0, |sl| {
                        sl.min + ((sl.max - sl.min) * 0.37 / sl.step).round() * sl.step
                    });
                    (knob.set)(&mut s, v);
                    let after = row_values(&s, row);
                    if after == before {
                        continue;
                    }
                    written += 1;
                    let want = v / row.scale;
                    assert!(
                        after
                            .iter()
                            .any(|got| (got - want).abs() <= 1e-9 * want.abs().max(1.0)),
                        "{} on {}: set {v}, the row {} reads {after:?}",
                        knob.id,
                        preset.name,
                        row.path,
                    );
                }
                assert!(written > 0, "{} wrote its row on no preset", knob.id);
            } else {
                // A knob of no field is a derived quantity with a range of its own.
                assert!(
                    knob.slider_at.is_some_and(|at| at.own.is_some()),
                    "{}",
                    knob.id
                );
            }
        }
    }

    #[test]
    fn the_serving_knobs_show_only_with_services_and_keep_their_ratios() {
        let mut s = Scenario::default();
        let traffic = knob("traffic").unwrap();
        assert!(!(traffic.when)(&s) && !(knob("spike_factor").unwrap().when)(&s));
        let mut a = crate::model::scenario::Service::default();
        a.traffic.mean_rps = 0.05;
        let mut b = a.clone();
        b.traffic.mean_rps = 0.15;
        s.services = vec![a, b];
        assert!((traffic.when)(&s));
        // 0.2 req/s in all: 17,280 requests a day.
        assert_eq!(
            (traffic.readout.unwrap())(&s),
            "2 services, 0.2 req/s in all (17,280 requests a day); moving it keeps their ratios"
        );
        // The first to 0.5: the second keeps three times it.
        (traffic.set)(&mut s, 0.5);
        assert!((s.services[1].traffic.mean_rps - 1.5).abs() < 1e-12);
        assert_eq!(per_day(30.0), "2.6 M requests a day");
    }

    #[test]
    fn slider_readouts_by_hand() {
        let mut s = Scenario::default();
        s.platforms[0]
            .first_pool_mut()
            .spot_interruptions_per_node_hour = 0.005;
        // λ = 0.005/h: MTBI 200 h; 1 − e^(−730 × 0.005) = 1 − e^(−3.65) = 97.4 %.
        assert_eq!(
            interruption_readout(&s),
            "mean time between interruptions 200 h; 97.4 % of always-on nodes interrupted in a month"
        );
        // 15 GB at 0.06 GB/s: 250 s ≈ 4.2 min.
        assert_eq!(pull_time_readout(&s), "pull ≈ 4.2 min at 0.06 GB/s");
        assert_eq!(
            checkpoint_optimum_readout(&s),
            "no spot platform: checkpoints only cost write time"
        );
        let with_readout: Vec<_> = KNOBS
            .iter()
            .filter(|k| k.readout.is_some())
            .map(|k| k.id)
            .collect();
        assert_eq!(
            with_readout,
            [
                "spot_interruption_rate",
                "utilization",
                "image_size",
                "checkpoint_interval",
                "traffic",
                "scale_up_delay"
            ]
        );
    }
}
