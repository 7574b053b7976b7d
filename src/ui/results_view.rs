//! Headline numbers per platform and the paired comparisons. Every number carries
//! `data-metric` (the CLI JSON field and statistic), `data-platform` and `data-value` (the raw
//! number) for tests and scrapers.

use crate::format::{in_wait_unit, percent, trim_number, usd, usd_cents, wait, wait_unit};
use crate::model::analytic::Estimate;
use crate::model::monte_carlo::{PlatformResult, Results};
use crate::model::output::{Output, Section};
use crate::model::stats::Summary;
use crate::workbench::verdict::{VerdictMetric, DECISIVE_SHARE};
use crate::workbench::verdict_basis::name_gpu;
use leptos::prelude::*;

/// One headline number.
#[component]
fn Metric(
    platform: String,
    #[prop(into)] metric: String,
    #[prop(into)] label: String,
    value: Option<f64>,
    text: String,
    #[prop(optional_no_strip)] detail: Option<String>,
    help: &'static str,
) -> impl IntoView {
    view! {
        <div class="metric" title=help>
            <dt>{label}</dt>
            <dd
                data-metric=metric
                data-platform=platform
                data-value=value.map(|v| v.to_string()).unwrap_or_else(|| "n/a".into())
            >
                {text}
            </dd>
            {detail.map(|d| view! { <dd class="detail">{d}</dd> })}
        </div>
    }
}

fn summary_range(s: &Summary, f: fn(f64) -> String) -> String {
    format!("p5–p95 {} – {}", f(s.p5), f(s.p95))
}

/// The queue wait's mean and its parts (waiting for a slot on the nodes there were, for
/// capacity, provisioning, pulling images, staging data), and the jobs still queued at the horizon when there is a
/// backlog (their waits are counted up to it, so the figures are lower bounds then).
fn queue_wait_detail(result: &PlatformResult) -> String {
    let mean = result.queue_wait_mean_min().mean;
    let unit = wait_unit(mean);
    let capacity = result.queue_wait_capacity_min().mean;
    let provisioning = result.queue_wait_provisioning_min().mean;
    let slot = (result.queue_wait_for_nodes_min().mean - capacity - provisioning).max(0.0);
    // The parts that show in the unit (capacity waits, for one, are often none).
    let shown: Vec<String> = [
        (slot, "waiting for a slot"),
        (capacity, "waiting for capacity"),
        (provisioning, "provisioning"),
        (result.queue_wait_image_pull_min().mean, "pulling images"),
        (
            result
                .queue_wait_staging_min()
                .as_ref()
                .map_or(0.0, |s| s.mean),
            "staging data",
        ),
    ]
    .into_iter()
    .map(|(minutes, what)| (in_wait_unit(minutes, unit), what))
    .filter(|(value, _)| value != "0")
    .map(|(value, what)| format!("{value} {what}"))
    .collect();
    let parts = if shown.is_empty() {
        format!("mean {}", wait(mean))
    } else {
        format!("mean {}: {}", wait(mean), shown.join(", "))
    };
    // A job or two submitted in the last minutes of the horizon is the normal case, and
    // changes the figures little: only a backlog of a job or more on average is named (jobs
    // pulling their image at the end count their waits up to it too, but are not queued).
    let queued = result.jobs_waiting().mean;
    if queued < 1.0 {
        return parts;
    }
    let jobs = queued.round();
    format!(
        "{parts}; {} {} still waiting at the end (their waits count up to it)",
        trim_number(jobs),
        if jobs == 1.0 { "job" } else { "jobs" }
    )
}

/// The figure under an output's headline number, where it has one.
fn output_detail(output: Output, result: &PlatformResult) -> Option<String> {
    match output {
        Output::MonthlyTcoUsd => Some(summary_range(&result.monthly_tco_usd(), usd)),
        Output::QueueWaitP95Min => Some(queue_wait_detail(result)),
        Output::WaitingCostUsd => result.waiting_cost_usd().map(|w| {
            let with_tco = result.monthly_tco_usd().mean + w.mean;
            format!("TCO + waiting: {} a month (means)", usd(with_tco))
        }),
        _ => None,
    }
}

/// The outputs a card shows in `section`, from the table of outputs: each with its label,
/// help and `data-metric` (`<key>.<stat>`). One measured nowhere reads n/a; one that applies
/// only somewhere shows only there; the job figures are left off a scenario that only
/// serves.
fn output_metrics(
    result: &PlatformResult,
    section: Section,
    jobs: bool,
    gpu: &str,
) -> Vec<AnyView> {
    Output::ALL
        .into_iter()
        .filter_map(|output| {
            let row = output.row();
            let card = row
                .card
                .filter(|c| c.section == section && (jobs || !c.jobs_only))?;
            let summary = result.get(output);
            let shown = result.reports(output);
            // GPU-hours replicas found no node for are named only where there were some.
            let nothing_to_name = output == Output::ServiceGpuHoursWithoutNode
                && summary.is_some_and(|s| s.mean <= 0.0);
            if !shown || nothing_to_name {
                return None;
            }
            let value = summary.map(|s| card.stat.of(&s));
            Some(
                view! {
                    <Metric
                        platform=result.name.clone()
                        metric=output.hook(card.stat)
                        label=name_gpu(output, gpu, card.label)
                        value=value
                        text=value.map(|v| row.unit.text(v)).unwrap_or_else(|| "n/a".into())
                        detail=output_detail(output, result)
                        help=card.help
                    />
                }
                .into_any(),
            )
        })
        .collect()
}

/// Services a card shows open; more are folded under a summary.
const SERVICES_SHOWN: usize = 3;

/// Each service's headline numbers on the platform: $ per million requests, SLO-violation
/// minutes and p95 latency (medians over replications). Past the first
/// [`SERVICES_SHOWN`], folded away (twenty small models make a card too long to compare).
#[component]
fn ServiceMetrics(result: PlatformResult) -> impl IntoView {
    let platform = result.name.clone();
    let mut sections: Vec<AnyView> = result
        .services
        .iter()
        .enumerate()
        .map(|(j, s)| {
            let per_million = s.usd_per_million_requests.map(|x| x.p50);
            let p95 = s.latency_p95_ms.map(|x| x.p50);
            // Metric keys name the service by its place, as the report lists them.
            let key = |what: &str| format!("services.{j}.{what}");
            if let Some(llm) = &s.llm {
                let ms = |x: Option<f64>| {
                    x.map(|ms| format!("{} ms", trim_number(ms.round())))
                        .unwrap_or_else(|| "n/a".into())
                };
                let per_token = llm.usd_per_million_output_tokens.map(|x| x.p50);
                let ttft = llm.ttft_p95_ms.map(|x| x.p50);
                let tpot = llm.tpot_p95_ms.map(|x| x.p50);
                let minutes = |m: f64| trim_number(m.round());
                return view! {
                    <section class="service-metrics" data-service=s.name.clone()>
                        <h4>{s.name.clone()}</h4>
                        <dl>
                            <Metric
                                platform=platform.clone()
                                metric=key("llm.usd_per_million_output_tokens.p50")
                                label="$ per million output tokens"
                                value=per_token
                                text=per_token.map(usd_cents).unwrap_or_else(|| "n/a".into())
                                help="The service's own GPU time plus its share of the platform's costs beyond GPU time, pro rata to GPU-hours, per million output tokens served; median over replications."
                            />
                            <Metric
                                platform=platform.clone()
                                metric=key("llm.ttft_p95_ms.p50")
                                label="Time to first token, p95"
                                value=ttft
                                text=ms(ttft)
                                help="The 95th percentile over the horizon's requests of the time to the first token: the wait behind other prompts, the prompt's prefill and one decode step (a dropped request counts as never served); median over replications."
                            />
                            <Metric
                                platform=platform.clone()
                                metric=key("llm.tpot_p95_ms.p50")
                                label="Time per output token, p95"
                                value=tpot
                                text=ms(tpot)
                                help="The 95th percentile over the requests served of the time per output token: the decode step at the minute's batch, slowed by the prefills mixed in; median over replications."
                            />
                            <Metric
                                platform=platform.clone()
                                metric=key("slo_violation_minutes.mean")
                                label="SLO-violation minutes"
                                value=Some(s.slo_violation_minutes.mean)
                                text=format!(
                                    "{} ({} TTFT, {} TPOT)",
                                    minutes(s.slo_violation_minutes.mean),
                                    minutes(llm.ttft_slo_violation_minutes.mean),
                                    minutes(llm.tpot_slo_violation_minutes.mean)
                                )
                                help="Minutes whose p95 time to first token or time per output token exceeded its objective over the horizon (each objective's minutes in brackets); means over replications."
                            />
                            {match s.requests_refused {
                                // A hosted API: no replicas; its rate limit's refusals.
                                Some(refused) => view! {
                                    <Metric
                                        platform=platform.clone()
                                        metric=key("requests_refused.mean")
                                        label="Requests refused (429)"
                                        value=Some(refused.mean)
                                        text=trim_number(refused.mean.round())
                                        help="Requests the account's rate limit for the model refused with HTTP 429, each retry counted again; a minute with 5 % or more retried or dropped misses its TTFT objective. The API's TTFT and TPOT are the stated ones (an assumption unless measured), plus the wait of a retry. Mean over replications."
                                    />
                                }
                                .into_any(),
                                None => view! {
                                    <Metric
                                        platform=platform.clone()
                                        metric=key("llm.replicas.mean")
                                        label="Replicas"
                                        value=Some(llm.replicas.mean)
                                        text=format!(
                                            "{} of {} GPUs",
                                            trim_number((llm.replicas.mean * 10.0).round() / 10.0),
                                            trim_number(llm.gpus_per_replica)
                                        )
                                        help="Ready replicas on average over the horizon, each holding its tensor-parallel GPUs; mean over replications."
                                    />
                                }
                                .into_any(),
                            }}
                        </dl>
                    </section>
                }
                .into_any();
            }
            view! {
                <section class="service-metrics" data-service=s.name.clone()>
                    <h4>{s.name.clone()}</h4>
                    <dl>
                        <Metric
                            platform=platform.clone()
                            metric=key("usd_per_million_requests.p50")
                            label="$ per million requests"
                            value=per_million
                            text=per_million.map(usd_cents).unwrap_or_else(|| "n/a".into())
                            help="The service's own GPU time plus its share of the platform's costs beyond GPU time (fees, egress, storage, people, tools), pro rata to GPU-hours, per million requests served; median over replications."
                        />
                        <Metric
                            platform=platform.clone()
                            metric=key("slo_violation_minutes.mean")
                            label="SLO-violation minutes"
                            value=Some(s.slo_violation_minutes.mean)
                            text=trim_number(s.slo_violation_minutes.mean.round())
                            help="Minutes whose p95 latency exceeded the objective over the horizon; mean over replications."
                        />
                        <Metric
                            platform=platform.clone()
                            metric=key("latency_p95_ms.p50")
                            label="p95 latency"
                            value=p95
                            text=p95.map(|ms| format!("{} ms", trim_number(ms.round()))).unwrap_or_else(|| "n/a".into())
                            help="The 95th percentile of all the horizon's requests' latency (a dropped request counts as never served); median over replications; n/a when in any replication 5 % or more were dropped or found no replica."
                        />
                        <Metric
                            platform=platform.clone()
                            metric=key("requests_dropped.mean")
                            label="Requests dropped"
                            value=Some(s.requests_dropped.mean)
                            text=crate::format::dropped_of(s.requests_dropped.mean, s.requests.mean)
                            help="Requests turned away because the queue was full, of all the requests over the horizon, with their share; means over replications."
                        />
                    </dl>
                </section>
            }
            .into_any()
        })
        .collect();
    let folded = sections.split_off(sections.len().min(SERVICES_SHOWN));
    let more = (!folded.is_empty()).then(|| {
        let summary = format!("{} more services", folded.len());
        view! {
            <details class="more-services">
                <summary>{summary}</summary>
                {folded}
            </details>
        }
    });
    view! { {sections} {more} }
}

/// The card of one platform.
#[component]
fn PlatformCard(
    result: PlatformResult,
    /// The reference GPU, named in the units of reference-GPU-hours.
    gpu: String,
    estimates: Signal<Vec<(String, Estimate)>>,
) -> impl IntoView {
    let name = result.name.clone();
    // A serving-only scenario has no job to count: its card leaves out the job figures.
    let jobs = result.services.is_empty()
        || result.jobs_completed().mean > 0.0
        || result.jobs_failed().mean > 0.0
        || result.jobs_waiting().mean > 0.0;
    // The second row: the cloud bill and people on every card, the job figures where there
    // are jobs.
    let details = output_metrics(&result, Section::Details, jobs, &gpu);
    let details = (!details.is_empty()).then(|| view! { <dl class="card-details">{details}</dl> });
    view! {
        <article class="card" data-platform=name.clone()>
            <h3>{name.clone()}</h3>
            <dl>{output_metrics(&result, Section::Headline, jobs, &gpu)}</dl>
            {details}
            <ServiceMetrics result=result.clone() />
            // Only this paragraph follows the inputs between runs: an input redraws the
            // estimate, not the card.
            {let name = name.clone(); move || {
                let estimate = estimates.with(|es| {
                    es.iter().find(|(n, _)| *n == name).map(|(_, e)| *e)
                });
                estimate.map(|e| view! {
                    <p class="estimate">
                        "Instant estimate: "
                        <span
                            data-metric="estimate.monthly_tco_usd"
                            data-platform=name.clone()
                            data-value=e.monthly_tco_usd.to_string()
                        >
                            {usd(e.monthly_tco_usd)}
                        </span>
                        " a month (expected values, no queueing)"
                    </p>
                })
            }}
        </article>
    }
}

/// Cards for every platform, then the paired comparisons.
#[component]
pub fn Headlines(
    #[prop(into)] results: Signal<Option<Results>>,
    /// The instant estimate of each platform of the current scenario, by name.
    #[prop(into)]
    estimates: Signal<Vec<(String, Estimate)>>,
    /// The reference GPU, named in the units of reference-GPU-hours.
    #[prop(into)]
    gpu: Signal<String>,
) -> impl IntoView {
    view! {
        <div class="cards">
            {move || {
                let gpu = gpu.get();
                results.get().map(|r| {
                    r.platforms
                        .into_iter()
                        .map(|p| view! { <PlatformCard result=p gpu=gpu.clone() estimates=estimates /> })
                        .collect_view()
                })
            }}
        </div>
        {move || {
                results
                    .get()
                    .map(|r| {
                        let n = r.replications;
                        let names: Vec<String> = r.platforms.iter().map(|p| p.name.clone()).collect();
                        let items = r.paired
                            .into_iter()
                            .filter(|pair| {
                                names.iter().position(|n| *n == pair.a) < names.iter().position(|n| *n == pair.b)
                            })
                            .map(|pair| {
                                // One clause per metric a verdict ranks by, in the table's
                                // order: the first on the item, the others in spans.
                                let decisive = |s: f64| if s >= DECISIVE_SHARE || s <= 1.0 - DECISIVE_SHARE { "decisive" } else { "not decisive" };
                                // Those the pair was compared on (requests where there are
                                // services, runs where there are pipelines).
                                // The cloud bill's twins are left to the verdict (its "Count
                                // ops people" switch).
                                let twins: Vec<Output> = Output::ALL
                                    .into_iter()
                                    .filter_map(|o| o.row().ranking.and_then(|r| r.on_cloud_bill))
                                    .collect();
                                let clauses: Vec<VerdictMetric> = Output::ALL
                                    .into_iter()
                                    .filter(|o| !twins.contains(o))
                                    .filter_map(VerdictMetric::of)
                                    .filter(|m| pair.lower_share(m.output()).is_some())
                                    .collect();
                                let gpu = gpu.get();
                                let clause = |m: VerdictMetric| {
                                    let share = m.lower_share(&pair);
                                    let ranking = m.ranking();
                                    // How firmly: decisive or not, and the share's 95 % Wilson
                                    // interval.
                                    let call = match pair.interval(m.output()) {
                                        Some((lo, hi)) => format!(
                                            "{}; 95 % interval {:.0}–{:.0} %",
                                            decisive(share),
                                            lo * 100.0,
                                            hi * 100.0
                                        ),
                                        None => decisive(share).to_string(),
                                    };
                                    (format!("paired.{}", ranking.paired_key), share, name_gpu(m.output(), &gpu, ranking.lower_what), call)
                                };
                                let (first, others) = clauses.split_first().map_or((None, &[][..]), |(f, o)| (Some(*f), o));
                                let (key, share, what, call) = first.map(clause).unwrap_or_default();
                                let others = others
                                    .iter()
                                    .map(|&m| {
                                        let (key, share, what, call) = clause(m);
                                        view! {
                                            "; "
                                            <span data-metric=key data-value=share.to_string()>
                                                {format!("the lower {what} in {} ({call})", percent(share))}
                                            </span>
                                        }
                                    })
                                    .collect_view();
                                let item = view! {
                                    <li data-metric=key data-value=share.to_string()>
                                        {format!(
                                            "{} has the lower {what} than {} in {} of {} runs ({call})",
                                            pair.a,
                                            pair.b,
                                            percent(share),
                                            n,
                                        )}
                                        {others}
                                    </li>
                                };
                                (pair.a.clone(), pair.b.clone(), share, item.into_any())
                            })
                            .collect::<Vec<_>>();
                        paired_list(&names, items)
                    })
            }}
        {move || results.get().filter(|r| !r.split.is_empty()).map(|r| view! { <SplitWorkloads results=r /> })}
    }
}

/// Pairs shown whole; beyond, the leader's first and the others folded away (five or six
/// platforms: 10 or 15 pairs).
const PAIRS_SHOWN: usize = 6;

/// The paired comparisons: every pair where there are few; else the pairs of the platform that
/// is lower in most of its pairs on the first metric (the verdict's), then the others in a
/// folded list.
fn paired_list(names: &[String], items: Vec<(String, String, f64, AnyView)>) -> AnyView {
    if items.len() <= PAIRS_SHOWN {
        let items: Vec<AnyView> = items.into_iter().map(|(_, _, _, v)| v).collect();
        return view! { <ul class="paired">{items}</ul> }.into_any();
    }
    let wins = |name: &String| {
        items
            .iter()
            .filter(|(a, b, share, _)| (a == name && *share > 0.5) || (b == name && *share < 0.5))
            .count()
    };
    // The first of the most wins, in the scenario's order.
    let leader = names
        .iter()
        .rev()
        .max_by_key(|n| wins(n))
        .cloned()
        .unwrap_or_default();
    let (first, rest): (Vec<_>, Vec<_>) = items
        .into_iter()
        .partition(|(a, b, _, _)| *a == leader || *b == leader);
    let count = rest.len();
    let first: Vec<AnyView> = first.into_iter().map(|(_, _, _, v)| v).collect();
    let rest: Vec<AnyView> = rest.into_iter().map(|(_, _, _, v)| v).collect();
    view! {
        <ul class="paired">{first}</ul>
        <details class="paired-more">
            <summary>{format!("{count} more comparisons, between the other platforms")}</summary>
            <ul class="paired">{rest}</ul>
        </details>
    }
    .into_any()
}

/// Training on one platform and serving on another: each split's median monthly cost,
/// beside the platforms' own (only when the scenario has job classes and services).
#[component]
fn SplitWorkloads(results: Results) -> impl IntoView {
    view! {
        <section class="split">
            <h3>"Training on one platform, serving on another"</h3>
            <ul>
                {results
                    .split
                    .iter()
                    .map(|x| {
                        let usd_p50 = x.monthly_tco_usd.p50;
                        view! {
                            <li
                                data-metric="split.monthly_tco_usd.p50"
                                data-trains=x.trains_on.clone()
                                data-serves=x.serves_on.clone()
                                data-value=usd_p50.to_string()
                            >
                                {format!(
                                    "Training on {}, serving on {}: {} a month (median; p5–p95 {} – {})",
                                    x.trains_on,
                                    x.serves_on,
                                    usd(usd_p50),
                                    usd(x.monthly_tco_usd.p5),
                                    usd(x.monthly_tco_usd.p95)
                                )}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <p class="hint readout">
                "The first platform's training with all its costs beyond GPU time, plus the second's serving GPU time and its fees, people, tools and storage: a second system to run costs its people again. Services and training do not share nodes in the model, so the two parts add up exactly."
            </p>
        </section>
    }
}
