//! Fields of the scenario itself (paths relative to the scenario), and the negotiated discount of each cloud.

use super::*;

/// The negotiated discount of the `C`-th cloud of [`Cloud::ALL`]: its path, label and doc
/// from its facts.
const fn discount_row<const C: usize>() -> Field<Scenario> {
    let facts = Cloud::ALL[C].facts();
    Field::<Scenario>::number(
        facts.discount.path,
        facts.discount.label,
        "%",
        (0.0, 90.0),
        |s| Some(s.discounts.pct(Cloud::ALL[C])),
        |s, v| s.discounts.set_pct(Cloud::ALL[C], v),
    )
    .slider(0.0, 90.0, 1.0)
    .doc(facts.discount.doc)
    .control(Control::Elsewhere)
}

/// Fields of the scenario itself.
pub static SCENARIO_FIELDS: &[Field<Scenario>] = &[
    num!(Scenario; "horizon_days", "Horizon", "days", (1.0 / 24.0, limits::HORIZON_DAYS_MAX),
        |s| s.horizon_days, |s, v| s.horizon_days = v)
    .doc("The measured window: every cost, count and wait is of this time.")
    .control(Control::Setting),
    num!(Scenario; "warmup_days", "Warm-up", "days", (0.0, limits::WARMUP_DAYS_MAX),
        |s| s.warmup_days, |s, v| s.warmup_days = v)
    .doc("Simulated time before the measured window, not measured: jobs of several days are under way when the window opens, as in any month but a cluster's first.")
    .control(Control::Setting),
    num!(Scenario; "replications", "Replications", "", (1.0, limits::REPLICATIONS_MAX as f64),
        |s| s.replications, |s, v| s.replications = v as u32)
    .doc("Monte Carlo replications.")
    .control(Control::Setting),
    // Any u64: the check never refuses one (the number shown is rounded past 2^53).
    Field::<Scenario>::number(
        "seed",
        "Seed",
        "",
        (0.0, u64::MAX as f64),
        |s| Some(s.seed as f64),
        |s, v| s.seed = v as u64,
    )
    .doc("Seed of every random stream.")
    .control(Control::Setting),
    num!(Scenario; "reference_gpus", "Reference GPUs", "", (1.0, 1e6),
        |s| s.reference_gpus, |s, v| s.reference_gpus = v as u32)
    .doc("Size of the cluster the team would otherwise reserve, in reference GPUs.")
    .control(Control::Setting),
    Field::<Scenario>::other(
        "reference_gpu",
        "Reference GPU",
        Value::Name {
            get: |s| &s.reference_gpu,
        },
    )
    .doc("GPU model that job durations are measured on.")
    .control(Control::Own),
    // One negotiated discount per cloud, in the order of Cloud::ALL (a test checks).
    discount_row::<0>(),
    discount_row::<1>(),
    discount_row::<2>(),
    discount_row::<3>(),
    discount_row::<4>(),
    discount_row::<5>(),
    num!(Scenario; "people.fte_cost_usd_per_year", "FTE cost", "$/year", (0.0, 5e6),
        |s| s.people.fte_cost_usd_per_year, |s, v| s.people.fte_cost_usd_per_year = v)
    .slider(0.0, 600_000.0, 5_000.0)
    .doc("Loaded annual cost of one full-time engineer.")
    .source("assumption: $200,000, salary plus overhead for a US platform engineer")
    .control(Control::Elsewhere),
    num!(Scenario; "people.waiting_usd_per_hour", "Cost of a person waiting", "$/h", (0.0, 10_000.0),
        |s| s.people.waiting_usd_per_hour, |s, v| s.people.waiting_usd_per_hour = v)
    .doc("What an hour of a person waiting for a job's result costs: an estimate of opportunity cost, reported beside the TCO and never in it; 0 = off.")
    .source("assumption: the user's own (e.g. the FTE cost per working hour, $200,000 / 1,800 h ≈ $111)")
    .control(Control::Elsewhere),
    num!(Scenario; "verdict.slo_allowance_pct", "SLO-violation allowance", "% of minutes", (0.0, 100.0),
        |s| s.verdict.slo_allowance_pct, |s, v| s.verdict.slo_allowance_pct = v)
    .doc("Share of the horizon's minutes in which a service may miss its p95 latency objective: a platform over it for any service (median over replications) cannot be named the winner. 0.5 % is 3.65 hours in a 730-hour month.")
    .source("assumption: 99.5 % of minutes within the objective, so an autoscaler that takes minutes to absorb a spike qualifies and one that misses for hours does not")
    .control(Control::Setting),
    Field::<Scenario>::other("verdict.count_people", "Count ops people in the verdict", Value::Flag {
        get: |s| s.verdict.count_people,
        set: |s, v| s.verdict.count_people = v,
    })
    .doc("On (the default), the verdict ranks the whole monthly cost; off, the cloud bill alone, leaving out each platform's ops FTE share, an assumption that often decides it. The same results, ranked again.")
    .control(Control::Elsewhere),
    Field::<Scenario>::other("payback.current", "Compare payback with", Value::Id { get: |s| &s.payback.current })
    .doc("The platform the payback view compares the others with (what runs today); empty: the first.")
    .control(Control::Elsewhere),
    Field::<Scenario>::other("showback.shared_costs", "Shared costs in each team's bill", Value::Choice {
        choices: &[
            ("separate", "Kept apart, as a line of their own"),
            ("by_cost", "Shared pro rata to each team's cost"),
            ("by_gpu_hours", "Shared pro rata to each team's GPU-hours"),
        ],
        get: |s| match s.showback.shared_costs {
            SharedCosts::Separate => "separate",
            SharedCosts::ByCost => "by_cost",
            SharedCosts::ByGpuHours => "by_gpu_hours",
        },
        set: |s, v| match v {
            "separate" => s.showback.shared_costs = SharedCosts::Separate,
            "by_cost" => s.showback.shared_costs = SharedCosts::ByCost,
            "by_gpu_hours" => s.showback.shared_costs = SharedCosts::ByGpuHours,
            _ => {}
        },
    })
    .doc("How idle capacity, node overheads, fees, people, tools, storage and egress enter each team's bill.")
    .source("OpenCost: idle costs kept apart by default, or shared by each tenant's cost (opencost.io docs, Idle costs)")
    .control(Control::Elsewhere),
    Field::<Scenario>::other("data_region", "Where the training data is kept", Value::Choice {
        choices: REGION_CHOICES,
        get: |s| region_choice(&s.data_region),
        set: |s, v| s.data_region = v.to_string(),
    })
    .doc("The region of the bucket the jobs read. Set with a platform's region, its data reads pay the transfer between them (inter-region, or the data cloud's internet egress across clouds, plus a NAT gateway's charge where it reads through one) in place of each class's billed share.")
    .source("AWS inter-region $0.02/GB between US regions, NAT gateway $0.045/GB (2026); Google Cloud inter-region $0.02/GiB within North America (assumption: third-party guides give $0.01–0.02), Cloud NAT $0.045/GiB (2026-10-16); across clouds the first tier of the data cloud's internet egress")
    .control(Control::Elsewhere),
];
