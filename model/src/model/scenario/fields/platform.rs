//! Fields of a platform (paths relative to `platforms.<i>`), and the choices they offer.

use super::*;

/// The clouds as a choice: (id, short label), in [`Cloud::ALL`]'s order.
const CLOUD_CHOICES: &[(&str, &str)] = &{
    let mut out = [("", ""); Cloud::ALL.len()];
    let mut i = 0;
    while i < Cloud::ALL.len() {
        let facts = Cloud::ALL[i].facts();
        out[i] = (facts.id, facts.short);
        i += 1;
    }
    out
};

/// How egress may be priced: one price, or a cloud's published tiers, (key, label) in
/// [`Cloud::ALL`]'s order.
const EGRESS_TIER_CHOICES: &[(&str, &str)] = &{
    let mut out = [("flat", "One price per GB"); Cloud::ALL.len() + 1];
    let mut i = 0;
    while i < Cloud::ALL.len() {
        let tiers = &Cloud::ALL[i].facts().egress_tiers;
        out[i + 1] = (tiers.key, tiers.label);
        i += 1;
    }
    out
};

/// The storage products jobs may stage data from, (key, label) in the page's order: a test
/// keeps them in step with [`StorageProduct::ALL`].
pub const STORAGE_CHOICES: &[(&str, &str)] = &[
    ("none", "None: reads take no time"),
    ("object_store", "S3 / Cloud Storage / Blob read directly"),
    (
        "fsx_lustre_scratch_2",
        "FSx for Lustre Scratch 2, 200 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_125",
        "FSx for Lustre Persistent 2, 125 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_250",
        "FSx for Lustre Persistent 2, 250 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_500",
        "FSx for Lustre Persistent 2, 500 MB/s per TiB",
    ),
    (
        "fsx_lustre_persistent_1000",
        "FSx for Lustre Persistent 2, 1,000 MB/s per TiB",
    ),
    (
        "fsx_lustre_hdd_12",
        "FSx for Lustre Persistent 1 HDD, 12 MB/s per TiB",
    ),
    (
        "fsx_lustre_hdd_40",
        "FSx for Lustre Persistent 1 HDD, 40 MB/s per TiB",
    ),
    ("efs_elastic", "EFS Standard, Elastic throughput"),
    ("filestore_basic_hdd", "Filestore Basic HDD"),
    ("filestore_basic_ssd", "Filestore Basic SSD"),
    ("filestore_zonal", "Filestore Zonal, 260 MiB/s per TiB"),
    (
        "amlfs_premium_40",
        "Azure Managed Lustre Premium, 40 MB/s per TiB",
    ),
    (
        "amlfs_premium_125",
        "Azure Managed Lustre Premium, 125 MB/s per TiB",
    ),
    (
        "amlfs_premium_250",
        "Azure Managed Lustre Premium, 250 MB/s per TiB",
    ),
    (
        "amlfs_premium_500",
        "Azure Managed Lustre Premium, 500 MB/s per TiB",
    ),
    ("azure_files_premium", "Azure Files Premium (SSD)"),
    ("coreweave_dfs", "CoreWeave Distributed File Storage"),
    ("lambda_filesystem", "Lambda persistent filesystem"),
    (
        "nebius_shared_fs",
        "Nebius Shared Filesystem, up to 100 GB/s",
    ),
];

/// The catalog's regions, and none, as choices ([`crate::model::transfer::regions`] gives
/// the same, tested).
pub const REGION_CHOICES: &[(&str, &str)] = &[
    ("", "Not set"),
    ("us-east-1", "AWS us-east-1 (N. Virginia)"),
    ("us-west-2", "AWS us-west-2 (Oregon)"),
    ("us-central1", "Google Cloud us-central1 (Iowa)"),
    ("us-east4", "Google Cloud us-east4 (N. Virginia)"),
    ("eastus", "Azure East US (Virginia)"),
    ("eastus2", "Azure East US 2 (Virginia)"),
    ("US-EAST-04", "CoreWeave US-EAST-04 (Virginia)"),
    (
        "us-midwest-1",
        "Lambda us-midwest-1 (every Lambda region lists the same prices)",
    ),
    ("eu-north1", "Nebius eu-north1 (Finland)"),
    ("me-west1", "Nebius me-west1 (Israel)"),
];

/// `region` as one of [`REGION_CHOICES`] ("" for one the catalog lacks, which validation
/// refuses).
pub(super) fn region_choice(region: &str) -> &'static str {
    REGION_CHOICES
        .iter()
        .find(|(key, _)| *key == region)
        .map_or("", |(key, _)| key)
}

/// A platform's serving settings: its own, or its profile's.
fn serving(p: &Platform) -> Serving {
    crate::model::serving::platform::serving_of(p)
}

/// A platform's serving settings to edit (its profile's made its own first).
fn serving_mut(p: &mut Platform) -> &mut Serving {
    crate::model::serving::platform::serving_mut(p)
}

/// Fields of a platform.
pub static PLATFORM_FIELDS: &[Field<Platform>] = &[
    Field::<Platform>::other("name", "Name", Value::Name { get: |p| &p.name })
        .doc("Unique name, shown in the page and used as the key in the CLI output."),
    Field::<Platform>::other("profile", "Profile", Value::Id { get: |p| p.profile.as_str() })
        .doc("The profile its defaults came from.").control(Control::Elsewhere),
    Field::<Platform>::other("cloud", "Cloud", Value::Choice {
        choices: CLOUD_CHOICES,
        get: |p| p.cloud.id(),
        set: |p, v| {
            if let Some(cloud) = Cloud::from_id(v) {
                p.cloud = cloud;
            }
        },
    })
    .doc("Cloud (selects the negotiated discount).").control(Control::Elsewhere),
    num!(Platform; "fee_usd_per_cluster_hour", "Control-plane fee", "$/cluster-h", (0.0, 1_000.0),
        |p| p.fee_usd_per_cluster_hour, |p, v| p.fee_usd_per_cluster_hour = v)
        .doc("Control-plane or management fee."),
    num!(Platform; "tooling_usd_per_month", "Tooling and add-ons", "$/month", (0.0, 1e7),
        |p| p.tooling_usd_per_month, |p, v| p.tooling_usd_per_month = v)
        .doc("Tooling and add-ons."),
    num!(Platform; "spot_notice_s", "Spot notice", "s", (0.0, 3_600.0),
        |p| p.spot_notice_s, |p, v| p.spot_notice_s = v)
        .doc("Spot interruption notice (AWS 120 s, GCP 30 s).")
        .source_of_cloud(|c| c.spot_notice_s.source),
    num!(Platform; "provisioning_median_s", "Provisioning, median", "s", (0.0, 86_400.0),
        |p| p.provisioning_median_s,
        |p, v| {
            p.provisioning_median_s = v;
            p.provisioning_p90_s = p.provisioning_p90_s.max(v);
        })
        .doc("Median node provisioning time (request to ready).")
        .source("assumption: GPU node boot plus driver init; EC2 rule of thumb 5–15 min to a \
                 running batch job (Vantage handbook)"),
    Field {
        min_from: Some(|p: &Platform| p.provisioning_median_s),
        ..num!(Platform; "provisioning_p90_s", "Provisioning, 90th percentile", "s", (0.0, 7.0 * 86_400.0),
            |p| p.provisioning_p90_s,
            |p, v| {
                p.provisioning_p90_s = v;
                p.provisioning_median_s = p.provisioning_median_s.min(v);
            })
    }
    .doc("90th percentile of node provisioning time (at least the median)."),
    num!(Platform; "capacity_wait_mean_s", "Capacity wait, mean", "s", (0.0, 7.0 * 86_400.0),
        |p| p.capacity_wait_mean_s, |p, v| p.capacity_wait_mean_s = v)
        .doc("Mean wait for capacity before provisioning starts (GPUs scarce); not billed.")
        .source("assumption: capacity available; raise it for scarce GPUs"),
    num!(Platform; "image_pull_gb_per_s", "Image pull throughput", "GB/s", (0.001, 100.0),
        |p| p.image_pull_gb_per_s, |p, v| p.image_pull_gb_per_s = v)
        .doc("Image pull throughput.")
        .source("AWS ML blog (2026): 15–20 GB images take 4–6 min to pull ≈ 0.06 GB/s"),
    num!(Platform; "billing.granularity_s", "Billing granularity", "s", (1.0, 86_400.0),
        |p| p.billing.granularity_s, |p, v| p.billing.granularity_s = v as u32)
        .doc("Node time is rounded up to a multiple of this.")
        .source("EC2 and Compute Engine: per second with a 60 s minimum (provider docs)"),
    num!(Platform; "billing.minimum_s", "Billing minimum", "s", (0.0, 86_400.0),
        |p| p.billing.minimum_s, |p, v| p.billing.minimum_s = v as u32)
        .doc("Shortest billed node time.")
        .source("EC2 and Compute Engine: per second with a 60 s minimum (provider docs)"),
    Field::<Platform>::other("placement", "Placement", Value::Choice {
        choices: &[
            ("bin_pack", "Bin-pack"),
            ("spread", "Spread (one job per node while nodes can be added)"),
            ("exclusive", "Exclusive (whole instances per job)"),
        ],
        get: |p| match p.placement {
            Placement::BinPack => "bin_pack",
            Placement::Spread => "spread",
            Placement::Exclusive => "exclusive",
        },
        set: |p, v| match v {
            "bin_pack" => p.placement = Placement::BinPack,
            "spread" => p.placement = Placement::Spread,
            "exclusive" => p.placement = Placement::Exclusive,
            _ => {}
        },
    })
    .doc("How jobs are placed on nodes.")
    .source("Karpenter, Slurm and Batch pack nodes"),
    Field::<Platform>::other("gang_scheduling", "Gang scheduling of multi-node jobs", Value::Flag {
        get: |p| p.gang_scheduling,
        set: |p, on| p.gang_scheduling = on,
    })
    .doc("Multi-node jobs start only when all their nodes are ready.")
    .source("seed 001: gang scheduling (Volcano)"),
    num!(Platform; "storage_read_slowdown_pct", "Storage-read slowdown", "%", (0.0, 500.0),
        |p| p.storage_read_slowdown_pct, |p, v| p.storage_read_slowdown_pct = v)
        .doc("Slowdown of compute from reading training data from storage.")
        .source("seed 002: direct object-store reads +12 %, parallel file system +1 %"),
    num!(Platform; "multi_node_efficiency", "Multi-node scaling efficiency", "0–1", (0.05, 1.0),
        |p| p.multi_node_efficiency, |p, v| p.multi_node_efficiency = v)
        .doc("Efficiency of multi-node jobs where the interconnect is fixed: 0.9 means 10 % of their GPU time is scaling loss. An interconnect's curve replaces it.")
        .source("assumption: 90 % (seed 001 reports 78–92 % at 64 GPUs)"),
    Field::<Platform>::other("interconnect", "Interconnect (scaling efficiency)", Value::Choice {
        choices: &[
            ("fixed", "Fixed: the multi-node efficiency above"),
            ("efa", "EFA"),
            ("gpudirect_tcpxo", "GPUDirect-TCPXO"),
            ("gpudirect_tcpx", "GPUDirect-TCPX"),
            ("infiniband", "InfiniBand NDR"),
            ("tcp", "Plain TCP (NVLink within a node only)"),
        ],
        get: |p| match p.interconnect {
            Interconnect::Fixed => "fixed",
            Interconnect::Efa => "efa",
            Interconnect::GpudirectTcpxo => "gpudirect_tcpxo",
            Interconnect::GpudirectTcpx => "gpudirect_tcpx",
            Interconnect::InfiniBand => "infiniband",
            Interconnect::Tcp => "tcp",
        },
        set: |p, v| match v {
            "fixed" => p.interconnect = Interconnect::Fixed,
            "efa" => p.interconnect = Interconnect::Efa,
            "gpudirect_tcpxo" => p.interconnect = Interconnect::GpudirectTcpxo,
            "gpudirect_tcpx" => p.interconnect = Interconnect::GpudirectTcpx,
            "infiniband" => p.interconnect = Interconnect::InfiniBand,
            "tcp" => p.interconnect = Interconnect::Tcp,
            _ => {}
        },
    })
    .doc("The network between nodes. Other than fixed, a job on n nodes runs at 1 ÷ (1 + α·(n − 1)^0.2) of its single-node speed, α by the interconnect and placement, in place of the fixed efficiency.")
    .source("α of EFA fitted to seed 001's 92 % on eight p5 nodes placed together; TCPX 1.15 × EFA (seed 002: 15 % all-reduce overhead); TCPXO and InfiniBand as EFA, plain TCP 4 × EFA and the exponent 0.2 are assumptions; new platforms use their instance's interconnect"),
    Field::<Platform>::other("compact_placement", "Nodes placed together", Value::Flag {
        get: |p| p.compact_placement,
        set: |p, on| p.compact_placement = on,
    })
    .doc("A multi-node job's nodes are placed close together (EC2 cluster placement group, GKE compact placement, one Azure scale set); without it the curve's overhead is 3.24 times as large. Only the interconnect curve uses it.")
    .source("seed 001: the same 64-GPU job on eight EFA nodes, 92 % placed together (SageMaker) against 78 % scattered (EKS); new SageMaker, Azure Machine Learning, Azure Batch, ParallelCluster and CycleCloud Slurm platforms place nodes together (each profile's file says why)"),
    num!(Platform; "egress_usd_per_gb", "Egress price", "$/GB", (0.0, 10.0),
        |p| p.egress_usd_per_gb, |p, v| p.egress_usd_per_gb = v)
        .slider(0.0, 0.25, 0.005)
        .doc("Egress price.")
        .source_of_cloud(|c| c.egress_usd_per_gb.source),
    Field::<Platform>::other("egress_tiers", "Egress pricing", Value::Choice {
        choices: EGRESS_TIER_CHOICES,
        get: |p| Cloud::of_egress_tiers(p.egress_tiers).map_or("flat", |c| c.facts().egress_tiers.key),
        set: |p, v| {
            if v == "flat" {
                p.egress_tiers = EgressTiers::Flat;
            } else if let Some(c) = Cloud::ALL.into_iter().find(|c| c.facts().egress_tiers.key == v) {
                p.egress_tiers = c.facts().egress_tiers.tiers;
            }
        },
    })
    .doc("How a month's egress is priced: one price per GB, or the cloud's volume tiers with the egress price as the first tier's (per GiB on Google Cloud) and later tiers at their published ratio to it.")
    .source_of_cloud(|c| c.egress_tiers.source),
    Field::<Platform>::other("region", "Region", Value::Choice {
        choices: REGION_CHOICES,
        get: |p| region_choice(&p.region),
        set: |p, v| p.region = v.to_string(),
    })
    .doc("The region its nodes run in. With the scenario's data region, its jobs' data reads pay the transfer between the two (in place of each class's billed share of reads).")
    .source("the catalog's regions; new platforms take their instance's"),
    Field::<Platform>::other("data_path", "How nodes reach the data", Value::Choice {
        choices: &[
            ("private_endpoint", "Gateway endpoint / Private Google Access (no charge)"),
            ("nat_gateway", "NAT gateway (charged per GB processed)"),
        ],
        get: |p| match p.data_path {
            DataPath::PrivateEndpoint => "private_endpoint",
            DataPath::NatGateway => "nat_gateway",
        },
        set: |p, v| match v {
            "private_endpoint" => p.data_path = DataPath::PrivateEndpoint,
            "nat_gateway" => p.data_path = DataPath::NatGateway,
            _ => {}
        },
    })
    .doc("Where regions are set: through an S3 gateway endpoint or Private Google Access reads pay no processing; through a NAT gateway every GB read pays its charge.")
    .source("AWS NAT gateway $0.045/GB processed (aws.amazon.com/vpc/pricing, 2026-09-20); Cloud NAT $0.045/GiB (cloud.google.com/nat/pricing, 2026-10-16); gateway endpoints and Private Google Access: no charge"),
    Field::<Platform>::other("staging.storage", "Data staged from", Value::Choice {
        choices: STORAGE_CHOICES,
        get: |p| p.staging.storage.key(),
        set: |p, v| {
            if let Some(product) = StorageProduct::ALL.into_iter().find(|s| s.key() == v) {
                p.staging.storage = product;
            }
        },
    })
    .doc("Where jobs read their data before computing. None: reads take no time. Otherwise each attempt's data is read by its nodes in parallel after the image pull, each node at most its limit and all nodes reading at once sharing the storage's throughput; the GPU time held meanwhile is data staging. A file system is billed on its capacity, its throughput following that capacity.")
    .source("each product's price, throughput and sizes with its source and date in the method panel; prices not read from a price page are labelled assumption there"),
    num!(Platform; "staging.capacity_gib", "File system capacity", "GiB", (0.0, 1e7),
        |p| p.staging.capacity_gib, |p, v| p.staging.capacity_gib = v)
        .doc("The file system's provisioned capacity, rounded up to the product's minimum and steps as it bills them; its throughput follows it. Unused for object storage.")
        .source("assumption: sized by the user to hold the datasets"),
    num!(Platform; "staging.throughput_gb_per_s", "Storage read throughput", "GB/s", (0.0, 10_000.0),
        |p| p.staging.throughput_gb_per_s, |p, v| p.staging.throughput_gb_per_s = v)
        .doc("The storage's read throughput shared by every node reading. 0 takes what the product's capacity buys (no limit for object storage)."),
    num!(Platform; "staging.node_read_gb_per_s", "Read throughput per node", "GB/s", (0.01, 1_000.0),
        |p| p.staging.node_read_gb_per_s, |p, v| p.staging.node_read_gb_per_s = v)
        .doc("What one node reads at most when staging data.")
        .source("assumption: 1.25 GB/s (10 Gbit/s): a data loader on one network interface; g5.xlarge has 10 Gbit/s burst, 2.5 baseline (EC2 User Guide, 2023); EFS allows 1,500 MiB/s per client"),
    num!(Platform; "egress_free_gb_per_month", "Free egress", "GB/month", (0.0, 1e9),
        |p| p.egress_free_gb_per_month, |p, v| p.egress_free_gb_per_month = v)
        .doc("Free egress a month."),
    num!(Platform; "storage_gb", "Storage", "GB", (0.0, 1e9),
        |p| p.storage_gb, |p, v| p.storage_gb = v)
        .doc("Dataset and checkpoint storage.")
        .source("assumption: 2 TB of datasets and checkpoints"),
    num!(Platform; "storage_usd_per_gb_month", "Storage price", "$/GB-month", (0.0, 10.0),
        |p| p.storage_usd_per_gb_month, |p, v| p.storage_usd_per_gb_month = v)
        .doc("Storage price.")
        .source_of_cloud(|c| c.storage_usd_per_gb_month.source),
    Field {
        control: Control::Own,
        ..num!(Platform; "ops_fte", "Ops FTE share", "", (0.0, 100.0),
            |p| p.ops_fte, |p, v| p.ops_fte = v)
    }
    .doc("Share of one full-time engineer that runs this platform."),
    num!(Platform; "one_off.engineer_months", "One-off engineering", "engineer-months", (0.0, 10_000.0),
        |p| p.one_off.engineer_months, |p, v| p.one_off.engineer_months = v)
        .doc("Engineering to build or migrate to this platform, paid once at month 0 of the payback view (each month at a twelfth of the FTE cost); never in the monthly TCO."),
    num!(Platform; "one_off.usd", "Other one-off costs", "$", (0.0, 1e10),
        |p| p.one_off.usd, |p, v| p.one_off.usd = v)
        .doc("Tooling, migration services and data transfer paid once, at month 0 of the payback view; never in the monthly TCO."),
    num!(Platform; "orchestration.usd_per_1000_transitions", "Workflow charge", "$ per 1,000 transitions", (0.0, 100.0),
        |p| p.orchestration.usd_per_1000_transitions, |p, v| p.orchestration.usd_per_1000_transitions = v)
        .doc("What the workflow engine that runs pipelines charges per 1,000 state transitions: one per stage attempt, retries included. In the fees. 0 for Argo Workflows on the cluster.")
        .source("AWS Step Functions standard workflows: $0.025 per 1,000 state transitions in US East, retries charged (aws.amazon.com/step-functions/pricing, read 2026-12-04)"),
    num!(Platform; "orchestration.free_transitions_per_month", "Free transitions", "per month", (0.0, 1e9),
        |p| p.orchestration.free_transitions_per_month, |p, v| p.orchestration.free_transitions_per_month = v)
        .doc("State transitions the workflow engine does not charge each month.")
        .source("AWS Step Functions free tier: 4,000 state transitions a month, not expiring (aws.amazon.com/step-functions/pricing, read 2026-12-04)"),
    Field::<Platform>::other("preemption.reclaim_quota", "Teams reclaim their quota by preemption", Value::Flag {
        get: |p| p.preemption.reclaim_quota,
        set: |p, on| p.preemption.reclaim_quota = on,
    })
    .doc("A team within its nominal quota evicts jobs of teams borrowing beyond theirs (Kueue reclaimWithinCohort).")
    .source("Kueue, Preemption (kueue.sigs.k8s.io/docs/concepts/preemption)"),
    Field::<Platform>::other("preemption.lower_priority", "Higher priorities preempt lower ones", Value::Flag {
        get: |p| p.preemption.lower_priority,
        set: |p, on| p.preemption.lower_priority = on,
    })
    .doc("A waiting job evicts jobs of lower priority when that frees enough GPUs (Kueue withinClusterQueue LowerPriority; Slurm preemption by QOS with requeue).")
    .source("Kueue, Preemption; Slurm, Preemption (slurm.schedmd.com/preempt.html): PreemptMode=REQUEUE"),
    num!(Platform; "preemption.grace_period_s", "Preemption grace period", "s", (0.0, 86_400.0),
        |p| p.preemption.grace_period_s, |p, v| p.preemption.grace_period_s = v)
    .doc("Seconds an evicted job has before it stops: a checkpoint written within them keeps its work.")
    .source("Kubernetes: terminationGracePeriodSeconds, 30 s by default; Slurm: GraceTime, 0 by default")
    .control(Control::Own),
    num!(Platform; "preemption.consolidation_evictions_per_node_hour", "Evictions by node consolidation", "per node-h", (0.0, 1.0),
        |p| p.preemption.consolidation_evictions_per_node_hour, |p, v| p.preemption.consolidation_evictions_per_node_hour = v)
    .doc("Kubernetes only (EKS, GKE): running jobs evicted when Karpenter consolidates or the cluster autoscaler scales down a node, per node-hour of nodes beyond the reservation; the node goes, its jobs queue again with the preemption grace period to checkpoint, their lost compute is preemption rework. 0: jobs marked karpenter.sh/do-not-disrupt (or safe-to-evict: \"false\"), as a tuned cluster runs.")
    .source("seed 002: \"two weeks tuning the cluster autoscaler to not kill our training pods during a resize\"; no public rate: 0 unless a scenario sets it"),
    Field::number("serving.scale_up_delay_s", "Serving scale-up delay", "s", (0.0, 86_400.0),
        |p: &Platform| p.runs_nodes().then(|| serving(p).scale_up_delay_s), |p, v| serving_mut(p).scale_up_delay_s = v)
    .slider(0.0, 1_800.0, 5.0)
    .doc("From the autoscaler's decision to a new replica serving, beyond the node's provisioning, the image pull and the model load.")
    .source("SageMaker: assumption, 180 s (three one-minute CloudWatch datapoints); others: assumption, 30 s for a pod to be scheduled and pass its readiness check")
    .control(Control::Setting),
    Field::number("serving.scale_down_cooldown_s", "Serving scale-down cooldown", "s", (0.0, 86_400.0),
        |p: &Platform| p.runs_nodes().then(|| serving(p).scale_down_cooldown_s), |p, v| serving_mut(p).scale_down_cooldown_s = v)
    .doc("How long a lower replica count must be recommended before replicas are removed.")
    .source("SageMaker endpoint variants' default scale-in cooldown, 300 s (AWS CDK InvocationsScalingProps); the Kubernetes HPA's default scale-down stabilisation window, 300 s")
    .control(Control::Setting),
    Field::number("serving.metric_period_s", "Autoscaler period", "s", (60.0, 3_600.0),
        |p: &Platform| p.runs_nodes().then(|| serving(p).metric_period_s), |p, v| serving_mut(p).metric_period_s = v)
    .doc("Seconds between the autoscaler's decisions (at least the one-minute traffic bucket).")
    .source("assumption: 60 s")
    .control(Control::Setting),
    Field::<Platform>::other("serving.scale_to_zero", "Services may scale to zero", Value::Flag {
        get: |p| serving(p).scale_to_zero,
        set: |p, on| serving_mut(p).scale_to_zero = on,
    })
    .doc("Whether a service with no minimum replica may run none; elsewhere it keeps one.")
    .control(Control::Own),
    Field::<Platform>::other("serving.shares_nodes", "Replicas share nodes", Value::Flag {
        get: crate::model::serving::platform::shares_nodes,
        set: |p, on| serving_mut(p).shares_nodes = Some(on),
    })
    .doc("On: replicas of all services pack the platform's nodes together, and a node is paid whole (Kubernetes, SageMaker inference components). Off: each replica holds instances of its own (a SageMaker single-model endpoint, Cloud Run).")
    .source("SageMaker single-model endpoints and Cloud Run: an instance per replica; Kubernetes schedules pods onto shared nodes")
    .control(Control::Own),
    Field::<Platform>::other("serving.shares_nodes_with_training", "Replicas share nodes with training jobs", Value::Flag {
        get: |p| serving(p).shares_nodes_with_training,
        set: |p, on| serving_mut(p).shares_nodes_with_training = on,
    })
    .doc("On: replicas take GPUs on the nodes training jobs run on, in the same simulation (one Kubernetes cluster for both); they come first, as a higher priority class, and a replica that finds no free GPU preempts training jobs. Replicas avoid spot nodes. Off: services run on nodes of their own.")
    .source("Kubernetes pod priority and preemption (kubernetes.io, Pod Priority and Preemption); keeping inference off spot nodes is common practice (assumption)")
    .control(Control::Own),
];
