//! Fields of a node pool (paths relative to `platforms.<i>.node_pools.<j>`).

use super::*;

/// Fields of a node pool (paths relative to `platforms.<i>.node_pools.<j>`). A platform of
/// the old, single-pool shape carried them itself: those paths are aliases for pool 0's
/// ([`crate::model::scenario::node_pool::canonical_path`]).
pub static NODE_POOL_FIELDS: &[Field<NodePool>] = &[
    Field::<NodePool>::other("name", "Pool name", Value::Name { get: |p| &p.name })
        .doc("Name, unique on its platform: what the platform's class_pools maps a job class or service to."),
    Field::<NodePool>::other("instance_type", "Instance type", Value::Id { get: |p| &p.instance_type })
        .doc("Instance type, from the catalog."),
    Field::<NodePool>::other("gpu_model", "GPU model", Value::Id { get: |p| &p.gpu_model })
        .doc("GPU model of the instance type.").control(Control::Elsewhere),
    num!(NodePool; "gpus_per_node", "GPUs per node", "", (1.0, 64.0),
        |p| p.gpus_per_node, |p, v| p.gpus_per_node = v as u32)
        .doc("GPUs per node."),
    num!(NodePool; "gpu_memory_gb", "GPU memory", "GB", (1.0, 1024.0),
        |p| p.gpu_memory_gb, |p, v| p.gpu_memory_gb = v)
        .doc("GPU memory per GPU."),
    num!(NodePool; "relative_throughput", "Relative throughput (reference GPU = 1)", "×", (0.01, 100.0),
        |p| p.relative_throughput, |p, v| p.relative_throughput = v)
        .doc("Throughput of one GPU relative to the reference GPU.")
        .source("assumption: public training benchmarks, rough ratios"),
    num!(NodePool; "on_demand_usd_per_node_hour", "On-demand price", "$/node-h", (0.0, 10_000.0),
        |p| p.on_demand_usd_per_node_hour, |p, v| p.on_demand_usd_per_node_hour = v)
        .doc("On-demand list price.").source("price catalog (see catalog as-of date)"),
    num!(NodePool; "spot_usd_per_node_hour", "Spot price", "$/node-h", (0.0, 10_000.0),
        |p| p.spot_usd_per_node_hour, |p, v| p.spot_usd_per_node_hour = v)
        .doc("Spot price.").source("price catalog; AWS: median across availability zones"),
    num!(NodePool; "service_premium_pct", "Service premium", "%", (0.0, 500.0),
        |p| p.service_premium_pct, |p, v| p.service_premium_pct = v)
        .doc("Managed-service premium on compute (SageMaker ml.* instances)."),
    num!(NodePool; "purchase.reserved_share", "Reserved share of reference GPUs", "×", (0.0, 10.0),
        |p| p.purchase.reserved_share, |p, v| p.purchase.reserved_share = v)
        .slider(0.0, 1.0, 0.01)
        .doc("Reserved GPUs ÷ reference GPUs, rounded up to whole nodes; billed for the whole horizon."),
    num!(NodePool; "purchase.reserved_discount_pct", "Reserved discount", "%", (0.0, 95.0),
        |p| p.purchase.reserved_discount_pct, |p, v| p.purchase.reserved_discount_pct = v)
        .doc("% off on-demand for reserved capacity over its commitment term: the term's whole cost, upfront included, against on-demand.")
        .source("GCP resource CUDs (Cloud Billing Catalog 2026-07-30): A100 37 % for 1 year, 65 % for 3; L4 37 and 55 %; H100 30.6 and 56.1 %. AWS GPU Reserved Instance and Savings Plan rates: not published per GPU, assumption"),
    Field::<NodePool>::other("purchase.overflow", "Capacity beyond reserved", Value::Choice {
        choices: &[("on_demand", "On-demand"), ("spot", "Spot"), ("none", "None (static cluster)")],
        get: |p| match p.purchase.overflow {
            Overflow::OnDemand => "on_demand",
            Overflow::Spot => "spot",
            Overflow::None => "none",
        },
        set: |p, v| match v {
            "on_demand" => p.purchase.overflow = Overflow::OnDemand,
            "spot" => p.purchase.overflow = Overflow::Spot,
            "none" => p.purchase.overflow = Overflow::None,
            _ => {}
        },
    })
    .doc("What runs beyond the reserved base."),
    num!(NodePool; "purchase.term_years", "Commitment term", "years", (1.0, 3.0),
        |p| p.purchase.term_years, |p, v| p.purchase.term_years = v.round() as u32)
        .doc("The reservation's commitment term: 1 or 3 years. A term ending inside the payback view's 36 months is renewed on the same terms.")
        .source("AWS Reserved Instances and Savings Plans, GCP committed-use discounts: 1 or 3 years"),
    Field::<NodePool>::other("purchase.payment", "Commitment payment", Value::Choice {
        choices: &[
            ("no_upfront", "Monthly, no upfront"),
            ("partial_upfront", "Partial upfront (half at the start)"),
            ("all_upfront", "All upfront"),
        ],
        get: |p| match p.purchase.payment {
            Payment::NoUpfront => "no_upfront",
            Payment::PartialUpfront => "partial_upfront",
            Payment::AllUpfront => "all_upfront",
        },
        set: |p, v| match v {
            "no_upfront" => p.purchase.payment = Payment::NoUpfront,
            "partial_upfront" => p.purchase.payment = Payment::PartialUpfront,
            "all_upfront" => p.purchase.payment = Payment::AllUpfront,
            _ => {}
        },
    })
    .doc("How the commitment is paid. The monthly TCO amortises an upfront over the term; the payback view follows the cash. GCP commitments are billed monthly only.")
    .source("AWS: all, partial or no upfront; GCP CUDs: monthly (the partial split of one half is an assumption)"),
    Field::<NodePool>::other("purchase.commitment", "Commitment kind", Value::Choice {
        choices: &[
            ("resource", "Reserved Instance / resource-based CUD"),
            ("savings_plan", "Savings Plan (AWS)"),
            ("spend_based", "Spend-based CUD (GCP; does not cover GPUs)"),
        ],
        get: |p| match p.purchase.commitment {
            Commitment::Resource => "resource",
            Commitment::SavingsPlan => "savings_plan",
            Commitment::SpendBased => "spend_based",
        },
        set: |p, v| match v {
            "resource" => p.purchase.commitment = Commitment::Resource,
            "savings_plan" => p.purchase.commitment = Commitment::SavingsPlan,
            "spend_based" => p.purchase.commitment = Commitment::SpendBased,
            _ => {}
        },
    })
    .doc("What the reservation is bought as. GPU commitments on GCP are resource-based; spend-based CUDs do not cover GPUs.")
    .source("reference data: platform_facts.md, commitments (AWS Savings Plans FAQ; GCP reservations with commitments)"),
    num!(NodePool; "spot_interruptions_per_node_hour", "Spot interruptions", "per node-h", (0.0, 10.0),
        |p| p.spot_interruptions_per_node_hour, |p, v| p.spot_interruptions_per_node_hour = v)
        .slider(0.0, 0.2, 0.001)
        .doc("Spot interruptions per spot node-hour (λ).")
        .source("assumption: 0.005/node-hour (MTBI 200 h, >20 %/month: GPU pools sit in the \
                 Spot Advisor's highest band)"),
    num!(NodePool; "spot_reclaims.share_of_rate", "Share of interruptions in reclaim waves", "0–1", (0.0, 1.0),
        |p| p.spot_reclaims.share_of_rate, |p, v| p.spot_reclaims.share_of_rate = v)
        .doc("Share of the spot interruption rate that comes as pool-wide reclaim waves (each taking many nodes at once) rather than node by node; a spot node is still interrupted at the rate above on average. 0: every node on its own clock.")
        .source("assumption: no public figure (seed 002: \"a bidder at the same pool got an interrupt\"); 0 unless a scenario sets it"),
    num!(NodePool; "spot_reclaims.fraction_of_nodes", "Share of the pool a wave takes", "0–1", (0.01, 1.0),
        |p| p.spot_reclaims.fraction_of_nodes, |p, v| p.spot_reclaims.fraction_of_nodes = v)
        .doc("Chance a reclaim wave takes a given running spot node of the pool: waves come share × rate ÷ this per hour.")
        .source("assumption: half the pool"),
    num!(NodePool; "spot_reclaims.capacity_drought_min", "Spot capacity drought after a wave", "min", (0.0, 1_440.0),
        |p| p.spot_reclaims.capacity_drought_min, |p, v| p.spot_reclaims.capacity_drought_min = v)
        .doc("After a reclaim wave, no spot node is to be had for this long: replacements wait for its end (capacity wait), or are bought on demand where the pool falls back.")
        .source("assumption: 0 unless a scenario sets it"),
    Field::<NodePool>::other("spot_reclaims.fall_back_to_on_demand", "In a spot drought, buy on demand", Value::Flag {
        get: |p| p.spot_reclaims.fall_back_to_on_demand,
        set: |p, on| p.spot_reclaims.fall_back_to_on_demand = on,
    })
    .doc("Spot nodes asked for during a drought after a reclaim wave are bought on demand instead of waiting.")
    .source("Karpenter: a NodePool allowing spot and on-demand capacity falls back to on demand when spot is short"),
    num!(NodePool; "node_failures_per_node_hour", "Node hardware failures", "per node-h", (0.0, 1.0),
        |p| p.node_failures_per_node_hour, |p, v| p.node_failures_per_node_hour = v)
        .doc("Hardware failures per node-hour on every purchase type: a failure stops the node's jobs with no notice (each loses its compute since its last checkpoint) and the node is replaced through provisioning. 0: nodes never fail.")
        .source("derived from Meta's fleet: 419 unexpected interruptions in 54 days on 16,384 H100s, 78 % hardware (Llama 3 paper, arXiv:2407.21783, 2024): about 1.5e-5 per GPU-hour, 1.2e-4 per 8-GPU node-hour; new platforms and new presets use it, older scenarios 0"),
    Field::<NodePool>::other("image_cache", "Nodes cache pulled images", Value::Flag {
        get: |p| p.image_cache,
        set: |p, on| p.image_cache = on,
    })
    .doc("Nodes keep pulled images, so the next job of the class on that node pulls nothing.")
    .source("seed 004: keep images on the node (disable image cleanup)"),
    num!(NodePool; "warm_pool_window_s", "Warm-pool window", "s", (0.0, 7.0 * 86_400.0),
        |p| p.warm_pool_window_s, |p, v| p.warm_pool_window_s = v)
        .slider(0.0, 14_400.0, 60.0)
        .doc("How long an empty node stays up waiting for work before it is released."),
    num!(NodePool; "max_nodes", "Max nodes", "", (1.0, limits::MAX_NODES as f64),
        |p| p.max_nodes, |p, v| p.max_nodes = v as u32)
        .doc("Most nodes at once (reserved included).")
        .source("assumption: account quota of 64 nodes"),
    Field::<NodePool>::other("gpu_sharing.mode", "GPU sharing", Value::Choice {
        choices: &[
            ("none", "None (a fraction holds a whole GPU)"),
            ("mig", "MIG slices"),
            ("time_slicing", "Time-slicing"),
        ],
        get: |p| p.gpu_sharing.mode(),
        set: set_sharing_mode,
    })
    .doc("How replicas and jobs asking for a fraction of a GPU share one, on Kubernetes: MIG gives each an isolated slice of a static layout; time-slicing gives each turns on the whole GPU, with no memory isolation (jobs pack a GPU by their shares and their memory). On SageMaker, time-slicing is a multi-model endpoint (its models resident together; loading them on demand is not modelled). Sharing GPUs packs replicas onto shared nodes.")
    .source("NVIDIA GPU operator (MIG manager, device-plugin time-slicing); GKE sets both per node pool"),
    Field::<NodePool>::other("gpu_sharing.layout", "MIG layout (every GPU)", Value::Choice {
        choices: gpu_sharing::LAYOUT_CHOICES,
        get: |p| match &p.gpu_sharing {
            GpuSharing::Mig { layout } => {
                gpu_sharing::standard_layout_key(&p.gpu_model, layout).unwrap_or("custom")
            }
            _ => "7x1g",
        },
        set: |p, key| {
            if let Some(layout) = gpu_sharing::standard_layout(&p.gpu_model, key) {
                p.gpu_sharing = GpuSharing::Mig { layout };
            }
        },
    })
    .doc("The MIG slices of each GPU, by the GPU's published profiles; a replica takes the smallest slice that fits its memory and its share of the compute.")
    .source(gpu_sharing::MIG_SOURCE),
    Field {
        control: Control::Own,
        ..Field::<NodePool>::number("gpu_sharing.context_switch_loss", "Time-slicing context-switch loss", "0–1", (0.0, 0.5),
            |p| match p.gpu_sharing {
                GpuSharing::TimeSlicing { context_switch_loss } => Some(context_switch_loss),
                _ => None,
            },
            |p, v| {
                if let GpuSharing::TimeSlicing { context_switch_loss } = &mut p.gpu_sharing {
                    *context_switch_loss = v;
                }
            })
    }
    .doc("Share of a time-sliced GPU's time lost to switching between replicas.")
    .source("assumption: 5 % (NVIDIA documents no figure)"),
];

/// Sets a pool's GPU sharing to `mode`: MIG with 7 small slices of its GPU (none on a GPU
/// without MIG: validation then names the GPU), time-slicing with the assumed context-switch
/// loss.
fn set_sharing_mode(p: &mut NodePool, mode: &str) {
    if mode == p.gpu_sharing.mode() {
        return;
    }
    p.gpu_sharing = match mode {
        "mig" => GpuSharing::Mig {
            layout: gpu_sharing::standard_layout(&p.gpu_model, "7x1g").unwrap_or_default(),
        },
        "time_slicing" => GpuSharing::TimeSlicing {
            context_switch_loss: gpu_sharing::CONTEXT_SWITCH_LOSS,
        },
        _ => GpuSharing::None,
    };
}
