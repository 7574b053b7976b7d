//! "Method and assumptions": the definitions, formulas, limits, the catalog's date, the engine
//! version, and where every default of the platforms on screen comes from.

use crate::format::group_thousands;
use crate::model::catalog;
use crate::model::platforms::Profile;
use crate::model::scaling;
use crate::model::scenario::{limits, Cloud, Scenario};
use crate::model::storage;
use crate::model::ENGINE_VERSION;
use leptos::prelude::*;

/// The collapsible method panel.
#[component]
pub fn MethodPanel(scenario: RwSignal<Scenario>) -> impl IntoView {
    view! {
        <details class="method">
            <summary>"Method and assumptions"</summary>
            <h3>"Definitions"</h3>
            <ul>
                <li>"Time is simulated in whole seconds; money is per 730-hour month."</li>
                <li>"Job durations are run times on the reference GPU; a GPU with relative throughput r takes 1/r as long."</li>
                <li>"Spot interruption rate λ: interruptions per spot node-hour. Mean time between interruptions = 1/λ; share of always-on nodes interrupted in a month = 1 − e^(−730·λ)."</li>
                <li>"Utilization (the input): offered load = Σ arrival rate × mean reference-GPU-hours ÷ reference GPUs. GPU utilization (the output): useful GPU-time ÷ paid GPU-time."</li>
                <li>"Reserved share: reserved GPUs ÷ reference GPUs, rounded up to whole nodes; reserved nodes are billed for the whole horizon."</li>
                <li>"Queue wait: submission to the start of useful compute, including capacity wait, provisioning, image pull and data staging; the card splits its mean into waiting for a slot on the nodes there were, waiting for capacity and provisioning (of the node the job waited for longest), pulling images and staging data. A job stopped by a spot interruption before its first compute keeps waiting, to the compute of the attempt that gets there (its pulls and nodes on the way count in the parts). A job that has not started computing by the end of the horizon counts its wait up to the end (a lower bound), and the card says how many were still waiting when they average a job or more."</li>
                <li>"Restart overhead: the job's own restart time after an interruption or failure; replacement nodes and pulls are simulated separately."</li>
                <li>"Horizon: costs and work within the horizon count; progress of jobs still running at the end counts as useful; jobs still queued count in neither."</li>
                <li>"Warm-up (Simulation settings; presets and imported histories get three times their longest class's 90th-percentile run time on the slowest pool it runs on (a pipeline's: its longest chain of stages), at least a day and at most 14 days; an old link without one has none): the run starts that many days before the measured window, so the window opens on a cluster with the work under way that any month but a cluster's first has. Started empty, jobs of several days lose the work they would have had running: 72-hour jobs lose 5 % of a 30-day month's work. Nothing of the warm-up is measured: a cost, a GPU-hour or a count is the window's share of what was under way when it opened, charged as the end of a horizon charges it; queue waits are of the jobs submitted in the window; peak nodes count from its opening. This is the deletion of the initial transient of steady-state simulation (Law & Kelton, Simulation Modeling and Analysis, ch. 9). Services carry no state of days, and their own simulation covers the window alone; replicas on the training nodes hold their first count through the warm-up."</li>
            </ul>
            <h3>"Model"</h3>
            <ul>
                <li>"A discrete-event simulation per replication and platform: nodes are requested, wait for capacity, provision (billed), pull images (cached per node when enabled), run jobs in GPU slots, idle through the warm-pool window, and are released. Placement is bin-pack, spread, or one job per instance; multi-node jobs can be gang-scheduled."</li>
                <li>"Pipelines: each stage is a job of its own, submitted when the last stage it comes after finishes, and queued by its submission time; a stage that gives up fails its run and the stages after it never run. A platform's pools are simulated one after another, so a pipeline's stages must move between pools in one direction. A workflow engine that charges per state transition (Step Functions standard workflows: $0.025 per 1,000, 4,000 free a month; aws.amazon.com/step-functions/pricing, read 2026-12-04) is charged one transition per stage attempt, retries included, in the fees; Argo Workflows adds no charge."</li>
                <li>"Spot nodes draw exponential interruption times. An interrupted job loses its work since the last checkpoint (nothing, when the notice is long enough to write one) and pays its restart overhead. Where a pool has reclaim waves, a share s of λ comes as pool-wide events at s·λ ÷ f per hour, each taking each running spot node with chance f, so a node still loses λ per hour on average; after a wave no spot node is to be had for the pool's drought: a node asked for waits for the end of the drought in force when it was asked for, or is bought on demand where the pool falls back. A job on n nodes is then stopped n·(1 − s)·λ + (s·λ ÷ f)·(1 − (1 − f)^n) times an hour (the instant estimate and the checkpoint advice use this, with hardware failures added)."</li>
                <li>"Checkpoints are written after every interval of compute, including a final save. Failed attempts lose their work since the last checkpoint; a job that gives up turns all its compute into failed-attempt cost; deterministic failures fail every retry."</li>
                <li>"Node time is rounded up to the billing granularity and minimum. Every paid GPU-second is charged to one category where it is spent."</li>
                <li>"Arrivals are steady, Poisson, Poisson bursts, or Poisson with an hour-of-day and day-of-week profile (fitted from a job history: hour 0 is the start of the horizon, a Monday; the instant estimate uses the daily mean rate, the simulation the hourly peaks)."</li>
                <li>"Job-history import: one class per GPU count; its rate = jobs ÷ observed window (first to last submission, widened by one mean gap); a log-normal duration through the data's median and 90th percentile, with the Kolmogorov–Smirnov distance shown; the failed share of runs with a known outcome as transient failures."</li>
                <li>"Every platform sees the same job stream in a replication (common random numbers), so \"A is cheaper than B in X % of runs\" compares like with like."</li>
                <li>{scaling::describe()}</li>
                <li>"Kubernetes node consolidation (a platform's evictions by consolidation, off unless set; EKS, GKE and AKS only): each node bought beyond the reservation is consolidated away at that rate per node-hour, as Karpenter's consolidation or the cluster autoscaler's scale-down does to pods not marked do-not-disrupt; its jobs are evicted with the preemption grace period to checkpoint in (what they lose is preemption rework, and they count as preemptions) and queue again."</li>
                <li>"Data reads: an attempt reads its class's data once, whatever its nodes. Where the scenario names the data's region and a platform its own, the reads pay transfer between them in the data-transfer category (inter-region within a cloud; the data cloud's internet egress, at its first tier, across clouds; a NAT gateway's processing charge where the platform reads through one); otherwise the class's billed share of its reads counts as egress. Within a region, object storage reads through a gateway endpoint or Private Google Access cost nothing."</li>
                <li>{storage::describe()}
                    <ul class="sources">
                        {storage::product_lines().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                    </ul>
                </li>
                <li>"Checkpoint advice: Young's interval √(2·δ·M) and Daly's (2006) expected wall time M·e^(R/M)·(e^((τ+δ)/M) − 1)·Ts/τ."</li>
                <li>"The instant estimate uses expected values only (Daly's wall time for spot rework; failed attempts run to their failure point and are retried up to the limit, as if nothing were checkpointed, and only finished jobs' work is useful; no queueing, no idle warm windows), and leaves out demand beyond what the platform can run (its reservation when it has no overflow, else its node limit)."</li>
            </ul>
            <Show when=move || scenario.with(|s| !s.services.is_empty())>
                <h3>"Inference serving"</h3>
                <ul>
                    <li>"Traffic advances in one-minute buckets, never request by request: each minute draws a Poisson count of requests at the traffic's rate (hour-of-day profile, weekend factor, spikes placed at random, the same on every platform in a replication)."</li>
                    <li>"A replica is concurrency servers, each at capacity ÷ concurrency requests per second (M/M/c). A minute with no backlog takes M/M/c's latency at its utilisation (on a grid of 1/4096, p95 within 0.5 % up to 98 %); with a backlog, a request waits for those ahead of it as the ready and starting replicas serve them (a fluid, linear within the minute), then its own service. Past the queue limit requests are dropped."</li>
                    <li>"The autoscaler decides every period from the requests it saw plus the backlog: ⌈load ÷ (target × capacity)⌉ replicas within [fewest, most]. A new replica serves after the platform's scale-up delay, a node's provisioning, the image pull and the model load, billed from the decision; replicas are removed only once a lower count has held for the cooldown. Scaled to zero, a request waits for the next decision and a start-up."</li>
                    <li>"p95 latency: of all the horizon's requests together (each minute's latency distribution weighted by its requests; a dropped request counts as never served). An SLO-violation minute is a minute whose p95 exceeds the objective, or in which 5 % or more of the requests were dropped."</li>
                    <li>"GPU sharing (Kubernetes platforms; on SageMaker, time-slicing is a multi-model endpoint with its models resident together): a replica asking for a fraction of a GPU (in milli-GPUs) takes, with MIG, the smallest slice of the platform's layout that fits its compute share and memory, and serves at the slice's share of the GPU (slices are isolated); every GPU has the layout, so n replicas on a slice a GPU has k of need ⌈n ÷ k⌉ GPUs (NVIDIA MIG user guide profiles). With time-slicing, replicas pack GPUs by their fractions (⌈Σ ÷ 1000⌉ GPUs: perfect packing) and a replica serves at the whole GPU's rate less the context-switch loss, times the GPU time its neighbours leave in the busiest hour of the week (processor sharing through a mean field: exact for the mean latency of Poisson tenants; a neighbour's spike does not slow the others here). Where GPUs are not shared, a fraction holds a whole GPU."</li>
                    <li>"Nodes: where replicas share nodes (Kubernetes, SageMaker inference components), the replicas of all services pack the platform's nodes each minute (⌈GPUs held ÷ GPUs per node⌉, perfect packing) and a node is paid whole, the GPUs no replica holds being the platform's idle time; where they do not (a SageMaker single-model endpoint, Cloud Run), a replica pays the whole instances it holds."</li>
                    <li>"Whose cost is it: a service's dollars per million requests are its own GPU time at the platform's price (a fraction of a GPU pays its fraction), plus a share of the platform's costs beyond it (shared GPUs' slices no replica holds, fees, egress, storage, people, tools) pro rata to its paid GPU-hours, over the requests it served."</li>
                    <li>"Limits of the bucket model: a minute's measured p95 scatters around its expected value, so near the objective a real service counts some minutes over it that the model does not (validated against a request-level simulation: model/src/model/serving/validation.rs); a minute near full load takes the steady M/M/c wait, which a queue starting empty does not reach within a minute."</li>
                    <li>"Replicas on the training nodes (a platform's \"Replicas share nodes with training jobs\", Kubernetes only; off unless set): the services' own simulation gives the GPUs their replicas hold minute by minute, and the training simulation places them on its reserved and on-demand nodes, never spot (inference kept off spot capacity, an assumption), on the fullest ready node with room, else a node being provisioned, else a new on-demand node within the node limit, else by preempting the training jobs that took a node last (a higher priority class, as Kubernetes pod priority does; the job's compute since its last checkpoint is interruption rework, and it queues again). The nodes' idle GPUs, warm windows, billing increments and provisioning are then the training simulation's, and the services' GPU time is at the price of the nodes they held. One way only: a replica's start-up still counts a node's median provisioning even where it lands on a node already up, and a replica that finds no GPU at all (the card counts those GPU-hours) is still serving in its own simulation. The instant estimate prices services on GPUs of their own."</li>
                </ul>
            </Show>
            <Show when=move || scenario.with(|s| s.services.iter().any(|v| v.llm.is_some()))>
                <h3>"LLM serving"</h3>
                <ul>
                    <li>"A service that names an LLM takes its replicas' GPUs, batch, capacity, time to first token (TTFT) and time per output token (TPOT) from the model on each platform's GPU: its measured capacity, concurrency, GPUs and memory are not read. The models' shapes (parameters, active parameters, layers, attention and key-value heads, head dimension, experts) are from their published config.json files."</li>
                    <li>"Memory: each of the tensor-parallel GPUs holds its share of the weights (2 bytes a parameter in bf16, 1 in FP8, 0.53 in int4 with its scales) and of the KV cache (2 × layers × key-value heads × head dimension × 2 bytes a token, 1 in FP8), within 90 % of its memory less 2 GB (vLLM's default share; the reserve an assumption). A model whose weights and one request's KV cache at the p90 token counts do not fit is refused, naming both. The batch is what the KV cache holds (at a request's mean context while it decodes), at most 256 (vLLM's long-standing max_num_seqs; its newer engine allows 1,024 on H100-class GPUs)."</li>
                    <li>"Tensor parallelism: the service's GPUs per replica, or a platform's own (the tuner searches each power of two up to a node's GPUs). It must divide the model's attention heads, which serving engines split evenly. Where a platform gives each replica whole instances (an endpoint), a split smaller than the instance leaves GPUs paid and idle."</li>
                    <li>"Roofline: a prompt's prefill is 2 × active parameters × tokens plus causal attention at the GPUs' peak × 0.5; a decode step reads the weights (for a mixture of experts, the experts the batch's tokens reach) and the batch's KV cache at the memory bandwidth × 0.6, or computes at the peak × 0.5 if longer; tensor parallelism adds two all-reduces a layer (8 µs each plus the activations over NVLink at 300 GB/s or PCIe at 20 GB/s: assumptions). The efficiencies were fitted on two published measurements (TensorRT-LLM 0.17's online table: Llama 3.1 70B on 4 H100s and 8B on one, 467 prompt and 256 output tokens at 2 requests a second) and hold within ±30 % on seventeen others held out (other loads, lengths, FP8, A100s, Mixtral, 405B)."</li>
                    <li>"Each minute, from its requests per ready replica: TPOT is the decode step at the batch that load holds (Little's law), slowed by the prompts' prefills mixed in, its spread over requests that of the prefills arriving while each decodes (a busy period, as a gamma distribution); TTFT is the wait behind the prompts ahead (one a step, an M/G/1 queue), the prompt's prefill and one step. A request-level simulation of the same engine agrees within 10 % at the p95 at three loads. A minute counts against the SLO when either p95 is above its objective; the autoscaler aims at its target share of the load at which both hold in steady state."</li>
                    <li>"Left out: the decode step's change with the batch from moment to moment, prefix caching, speculative decoding, and a request waiting for a batch slot other than when the KV cache is full (then the minute's backlog). $ per million output tokens divides the platform's whole cost by the output tokens answered; blended counts prompt tokens too."</li>
                </ul>
            </Show>
            <Show when=move || scenario.with(|s| s.job_classes.iter().any(|c| c.is_fractional()))>
                <h3>"Jobs on a fraction of a GPU"</h3>
                <ul>
                    <li>"A job class may ask for a fraction of one GPU (in milli-GPUs, as Kubernetes device plugins and the openb trace count them). On a platform that shares GPUs (MIG or time-slicing, Kubernetes only) such jobs pack shared GPUs in the simulation: with time-slicing by their shares and their memory together (time-slicing does not isolate memory), with MIG each on the smallest slice of the layout that fits it; a job runs its duration as given (a history's run times were measured shared) and is charged its share; what no job uses of a shared GPU is GPU-sharing loss, and a shared GPU its last job leaves is free again. Elsewhere a job holds a whole GPU, uses its share of it, and the rest is idle."</li>
                </ul>
            </Show>
            <Show when=move || scenario.with(|s| s.platforms.iter().any(|p| p.node_pools.len() > 1))>
                <h3>"Node pools"</h3>
                <ul>
                    <li>"A platform may have up to four node pools, each an instance type with its own prices, purchase mix, node limit, spot interruption rate, warm window, image cache and GPU sharing (a Karpenter NodePool, a GKE node pool, a Slurm partition; on SageMaker, the instance type a job class asks for, with that type's service premium). A job class or service runs on the pool the platform maps its name to, else on the cheapest pool that fits its GPUs and GPU memory: the price of the nodes a job needs, whole, as bought beyond the reservation, over the reference-GPU-hours the job does there (its GPUs × the pool's relative throughput × the multi-node efficiency)."</li>
                    <li>"Pools share no node, so a replication simulates them one after another with the jobs of each; peak nodes is the sum of each pool's peak. A platform's services all run on one pool. A team's quota holds in each pool its classes run on (as Kueue sets quotas per resource flavor)."</li>
                </ul>
            </Show>
            <Show when=move || scenario.with(|s| !s.team_names().is_empty())>
                <h3>"Teams"</h3>
                <ul>
                    <li>"A job class belongs to a team. A platform may give a team a quota (the GPUs its jobs may hold at once, counting the GPUs jobs ask for, as Kueue counts pod requests), a borrowing limit (what it may hold beyond its quota from what the other teams' quotas leave unused: one cohort of a platform's teams) and a priority. The scheduler admits by quota and orders by priority, then by submission."</li>
                    <li>"Preemption (off unless set): a team within its quota evicts jobs of teams borrowing beyond theirs (Kueue reclaimWithinCohort), and a job evicts lower-priority jobs (Kueue withinClusterQueue LowerPriority; Slurm preemption by QOS with PreemptMode=REQUEUE) when the candidates together ask for its GPUs; victims in Kueue's order: borrowers first, then the lowest priority, then the most recently admitted (kueue.sigs.k8s.io, Preemption). A job borrowing beyond its quota never evicts a team within its own. An evicted job loses its compute since its last checkpoint (preemption rework; nothing when the grace period covers a checkpoint write), pays its restart and queues again."</li>
                    <li>"Per profile: quotas, borrowing, priorities and preemption on EKS, GKE and AKS (Kueue); QOS GPU limits (hard: no borrowing), priorities and preemption on Slurm (ParallelCluster, Slurm on Azure, a reserved cluster); job-queue priority only on AWS Batch and Azure Batch; none on SageMaker, Azure Machine Learning and Cloud Run, where each job gets instances of its own. Fair-share scheduling from decayed past usage (Slurm's multifactor priority, AWS Batch fair-share policies) is not modelled."</li>
                    <li>"Each team's bill: everything charged to its jobs (compute, pulls, restarts, checkpoint writes, rework, capacity wait, the idle rest of nodes they hold whole), plus, by the scenario's rule, the costs no job spent (idle capacity, provisioning and billing rounding on nodes, fees, people, tools, storage, egress): kept apart as a \"shared\" line (OpenCost's default), or shared out pro rata to each team's cost (OpenCost's idle sharing) or GPU-hours. The services' GPU time is a line of its own. The entries add up to the platform's monthly cost."</li>
                </ul>
            </Show>
            <h3>"Limits"</h3>
            <p>
                {format!(
                    "Horizon ≤ {} days; ≤ {} replications; ≤ {} job classes; {}–{} platforms; ≤ {} expected jobs per replication; ≤ {} nodes per platform. Event budgets: a platform may handle {} simulation events in one replication (a replication that needs more is stopped and not summarised) and a run {} in all (a run that reaches it summarises the replications done and says so).",
                    limits::HORIZON_DAYS_MAX,
                    limits::REPLICATIONS_MAX,
                    limits::JOB_CLASSES_MAX,
                    limits::PLATFORMS_MIN,
                    limits::PLATFORMS_MAX,
                    group_thousands(limits::JOBS_PER_REPLICATION_MAX as u64),
                    group_thousands(u64::from(limits::MAX_NODES)),
                    group_thousands(limits::EVENTS_PER_REPLICATION_MAX),
                    group_thousands(limits::EVENTS_PER_RUN_MAX)
                )}
            </p>
            <h3>"Prices"</h3>
            <p>"Prices as of " {catalog::AS_OF} "."</p>
            {move || {
                let (rows, clouds) = scenario.with(|s| {
                    let mut rows: Vec<&'static catalog::InstanceType> = Vec::new();
                    let mut clouds: Vec<Cloud> = Vec::new();
                    for p in &s.platforms {
                        if !clouds.contains(&p.cloud) {
                            clouds.push(p.cloud);
                        }
                        for pool in p.pools() {
                            let row = catalog::catalog().iter().find(|r| {
                                r.name == pool.instance_type
                                    && (p.region.is_empty() || r.region == p.region)
                            });
                            if let Some(row) = row.filter(|r| !rows.contains(r)) {
                                rows.push(row);
                            }
                        }
                    }
                    (rows, clouds)
                });
                let price = |p: Option<f64>| p.map_or("no quote".to_string(), |p| format!("${p:.3}"));
                let rates: Vec<String> = clouds
                    .iter()
                    .flat_map(|c| c.facts().commitments.rates.iter())
                    .map(|r| {
                        format!(
                            "{} in {}: a {}-year {} at ${} for the term, {:.1} % off on demand ({}).",
                            r.instance.0,
                            r.instance.1,
                            r.term_years,
                            match r.kind {
                                crate::model::scenario::commitment::Commitment::Resource => "reservation",
                                other => other.label(),
                            },
                            group_thousands(r.term_usd as u64),
                            r.discount_pct().unwrap_or(f64::NAN),
                            r.source
                        )
                    })
                    .collect();
                view! {
                    <ul class="sources">
                        {rows
                            .into_iter()
                            .map(|r| view! {
                                <li>
                                    <code>{r.name.clone()}</code>
                                    {format!(
                                        " in {}: on demand {}, spot {} a node-hour, as of {} ({}).",
                                        r.region,
                                        price(r.on_demand_usd_per_node_hour),
                                        price(r.spot_usd_per_node_hour),
                                        r.as_of,
                                        r.source
                                    )}
                                </li>
                            })
                            .collect_view()}
                        {rates.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                    </ul>
                }
            }}
            <h3>"Where the defaults come from"</h3>
            {move || {
                let profiles: Vec<(Profile, Cloud)> = scenario.with(|s| {
                                    let mut seen: Vec<(Profile, Cloud)> = Vec::new();
                                    for p in &s.platforms {
                                        if let Some(profile) = p.profile.profile() {
                                            if !seen.contains(&(profile, p.cloud)) {
                                                seen.push((profile, p.cloud));
                                            }
                                        }
                                    }
                                    seen
                                });
                profiles
                    .into_iter()
                    .map(|(profile, cloud)| {
                        // A profile of any cloud is named with the cloud its sources are of.
                        let heading = match profile.cloud() {
                            Some(_) => profile.label().to_string(),
                            None if profile.is_hosted_api() => profile.label().to_string(),
                            None => format!("{} ({})", profile.label(), cloud.name()),
                        };
                        view! {
                            <h4>{heading}</h4>
                            <ul class="sources">
                                {profile
                                    .sources(cloud)
                                    .into_iter()
                                    .map(|s| view! { <li><code>{s.field}</code> ": " {s.source}</li> })
                                    .collect_view()}
                            </ul>
                        }
                    })
                    .collect_view()
            }}
            <p class="engine">"Engine " {ENGINE_VERSION}</p>
        </details>
    }
}
