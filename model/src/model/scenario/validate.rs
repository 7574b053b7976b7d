//! Validation of a scenario, in named steps: each item's fields by the field table
//! ([`super::fields`]), then the counts, then what relates platforms to the workload (names
//! unique, reservations within the node limit, every job class fitting every platform), then
//! the size of the work. The first problem found is returned, with its field path.

use super::fields::{
    Field, Series, Value, JOB_CLASS_FIELDS, NODE_POOL_FIELDS, PIPELINE_FIELDS, PLATFORM_FIELDS,
    SCENARIO_FIELDS, SERVICE_FIELDS, TEAM_POLICY_FIELDS,
};
use super::node_pool::MAX_NODE_POOLS;
use super::{
    limits, Duration, NodePool, Overflow, Platform, PoolNeed, Replay, Scenario, Scheduler,
    ServiceTraffic,
};
use crate::model::error::ScenarioError;

/// A scenario that has passed [`Scenario::validate`]. Runs hold one, so a scenario is
/// checked once when a run is made, and what a run needs of it (every platform with a unique
/// name, every job class fitting every platform, every number in range) is in its type. It
/// reads as the scenario it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidScenario(Scenario);

impl ValidScenario {
    /// `scenario`, once it has passed [`Scenario::validate`].
    pub fn new(scenario: Scenario) -> Result<ValidScenario, ScenarioError> {
        scenario.validate()?;
        Ok(ValidScenario(scenario))
    }

    /// The scenario, to edit (it must be validated again to run).
    pub fn into_inner(self) -> Scenario {
        self.0
    }
}

impl std::ops::Deref for ValidScenario {
    type Target = Scenario;
    fn deref(&self) -> &Scenario {
        &self.0
    }
}

impl TryFrom<Scenario> for ValidScenario {
    type Error = ScenarioError;
    fn try_from(scenario: Scenario) -> Result<ValidScenario, ScenarioError> {
        ValidScenario::new(scenario)
    }
}

impl Scenario {
    /// Checks every field; the first problem found is returned with its field path.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check_fields(SCENARIO_FIELDS, self, "")?;
        if crate::model::gpus::find(&self.reference_gpu).is_none() {
            return Err(ScenarioError::Invalid {
                field: "reference_gpu".into(),
                reason: format!(
                    "\"{}\" is not in the GPU table ({}): job durations are measured on one \
                     of its GPUs",
                    self.reference_gpu,
                    crate::model::gpus::models()
                ),
            });
        }
        if !self.data_region.is_empty()
            && crate::model::transfer::cloud_of(&self.data_region).is_none()
        {
            return Err(ScenarioError::Invalid {
                field: "data_region".into(),
                reason: format!(
                    "\"{}\" is not a region of the catalog ({})",
                    self.data_region,
                    catalog_regions(None)
                ),
            });
        }
        self.check_pipelines()?;
        self.check_hosted_apis()?;
        // The job classes and platforms as the simulation sees them: a pipeline's stages are
        // classes of their own, named back to their place in the pipeline.
        let run = self.simulated();
        let named = |e: ScenarioError| self.stage_field(e);
        run.check_job_classes().map_err(named)?;
        run.check_platforms().map_err(named)?;
        self.check_pipeline_pools(&run)?;
        self.check_payback()?;
        self.check_services()?;
        self.check_replay()?;
        run.check_work_size()
    }

    /// The pipelines: at most [`PIPELINES_MAX`], each named once, with 1 to [`STAGES_MAX`]
    /// stages whose names and `after` lists make a DAG (no cycle, no unknown stage); none
    /// beside a replay.
    fn check_pipelines(&self) -> Result<(), ScenarioError> {
        use super::pipeline::{PIPELINES_MAX, STAGES_MAX};
        count("pipelines", self.pipelines.len(), 0, PIPELINES_MAX)?;
        if !self.pipelines.is_empty() && self.replay.is_some() {
            return Err(ScenarioError::Invalid {
                field: "pipelines".into(),
                reason: "a replay of a job history runs its recorded jobs only: remove the \
                         pipelines or the replay"
                    .into(),
            });
        }
        for (i, pipeline) in self.pipelines.iter().enumerate() {
            let at = format!("pipelines.{i}");
            let earlier = self.pipelines[..i].iter().map(|p| p.name.as_str());
            path_name(&pipeline.name, earlier, format!("{at}.name"))?;
            count(
                &format!("{at}.stages"),
                pipeline.stages.len(),
                1,
                STAGES_MAX,
            )?;
            check_fields(PIPELINE_FIELDS, pipeline, &at)?;
            for (s, stage) in pipeline.stages.iter().enumerate() {
                let earlier = pipeline.stages[..s].iter().map(|o| o.name.as_str());
                path_name(&stage.name, earlier, format!("{at}.stages.{s}.name"))?;
            }
            pipeline.check_graph(&at)?;
        }
        for (i, class) in self.job_classes.iter().enumerate() {
            if !class.after.is_empty() {
                return Err(ScenarioError::Invalid {
                    field: format!("job_classes.{i}.after"),
                    reason: "only a pipeline's stage comes after others: put the class in a \
                             pipeline's stages"
                        .into(),
                });
            }
        }
        Ok(())
    }

    /// On each platform, every pipeline's stages move between pools in one direction (the
    /// pools run one pass each, in that order).
    fn check_pipeline_pools(&self, run: &Scenario) -> Result<(), ScenarioError> {
        use crate::model::sim::engine::pool_edges;
        for (i, platform) in run.platforms.iter().enumerate() {
            let edges = pool_edges(run, platform);
            if edges.is_empty() {
                continue;
            }
            // A cycle among the pools: some pool can never be placed first.
            let pools = platform.node_pools.len();
            let mut done = vec![false; pools];
            for p in crate::model::topological::topological_order(pools, &edges) {
                done[p] = true;
            }
            if let Some(stuck) = (0..pools).find(|&p| !done[p]) {
                let back: Vec<String> = edges
                    .iter()
                    .filter(|e| !done[e.0] && !done[e.1])
                    .map(|e| {
                        format!(
                            "{} → {}",
                            platform.node_pools[e.0].name, platform.node_pools[e.1].name
                        )
                    })
                    .collect();
                return Err(ScenarioError::Invalid {
                    field: format!("platforms.{i}.class_pools"),
                    reason: format!(
                        "on platform \"{}\", pipeline stages go from pool to pool and back ({}): \
                         a pipeline's stages must move between pools in one direction (pool \
                         \"{}\" is on the loop); map the stages in class_pools (\"pipeline/stage\") \
                         so that they do",
                        platform.name,
                        back.join(", "),
                        platform.node_pools[stuck].name
                    ),
                });
            }
        }
        Ok(())
    }

    /// `e` with a stage class's path (`job_classes.N…` past the scenario's own classes)
    /// named as the pipeline's: `pipelines.P.stages.S…`, or `pipelines.P.arrivals…`.
    fn stage_field(&self, e: ScenarioError) -> ScenarioError {
        let own = self.job_classes.len();
        let mut starts = Vec::new();
        let mut next = own;
        for p in &self.pipelines {
            starts.push(next);
            next += p.stages.len();
        }
        e.with_field(|field| {
            let Some(rest) = field.strip_prefix("job_classes.") else {
                return field.to_string();
            };
            let (index, tail) = rest.split_once('.').unwrap_or((rest, ""));
            let Ok(class) = index.parse::<usize>() else {
                return field.to_string();
            };
            let Some(p) = starts
                .iter()
                .rposition(|&s| s <= class)
                .filter(|_| class >= own)
            else {
                return field.to_string();
            };
            let s = class - starts[p];
            let dot = if tail.is_empty() { "" } else { "." };
            if tail.starts_with("arrivals") {
                format!("pipelines.{p}.{tail}")
            } else {
                format!("pipelines.{p}.stages.{s}{dot}{tail}")
            }
        })
    }

    /// A replay's jobs: at most [`limits::HISTORY_JOBS_MAX`], each at a time from 0, of a
    /// class the scenario has, with a run time above 0 and at most a year.
    fn check_replay(&self) -> Result<(), ScenarioError> {
        let Some(replay) = &self.replay else {
            return Ok(());
        };
        count(
            "replay.jobs",
            replay.jobs.len(),
            0,
            limits::HISTORY_JOBS_MAX,
        )?;
        if !replay.key.is_empty() && !Replay::is_key(&replay.key) {
            return Err(ScenarioError::Invalid {
                field: "replay.key".to_string(),
                reason: format!(
                    "\"{}\" is not a content key (32 lowercase hex digits)",
                    crate::workbench::shorten(40, &replay.key)
                ),
            });
        }
        for (i, job) in replay.jobs.iter().enumerate() {
            let at = |field: &str| format!("replay.jobs.{i}.{field}");
            if job.arrival_s < 0 {
                return Err(out_of_range(
                    at("arrival_s"),
                    job.arrival_s as f64,
                    0.0,
                    f64::MAX,
                ));
            }
            if job.class as usize >= self.job_classes.len() {
                return Err(ScenarioError::Invalid {
                    field: at("class"),
                    reason: format!(
                        "class {} does not exist; the scenario has {} job classes",
                        job.class,
                        self.job_classes.len()
                    ),
                });
            }
            let year_s = 366.0 * 86_400.0;
            if !in_range(job.run_s, 1e-3, year_s) {
                return Err(out_of_range(at("run_s"), job.run_s, 1e-3, year_s));
            }
        }
        Ok(())
    }

    /// At most [`limits::SERVICES_MAX`] services, each with valid fields, its fewest
    /// replicas at most its most, and its replicas fitting every platform's nodes.
    fn check_services(&self) -> Result<(), ScenarioError> {
        count("services", self.services.len(), 0, limits::SERVICES_MAX)?;
        for (i, service) in self.services.iter().enumerate() {
            let at = format!("services.{i}");
            check_fields(SERVICE_FIELDS, service, &at)?;
            if service.min_replicas > service.max_replicas {
                return Err(ScenarioError::Invalid {
                    field: format!("{at}.min_replicas"),
                    reason: format!(
                        "{} fewest replicas is more than the most, {}",
                        service.min_replicas, service.max_replicas
                    ),
                });
            }
            check_gpu_fraction(service, &at)?;
            check_replay_traffic(&service.traffic, &at)?;
            if let Some(llm) = &service.llm {
                check_llm(llm, &format!("{at}.llm"))?;
            }
            let typed = service;
            for (pi, platform) in self.platforms.iter().enumerate() {
                if platform.hosted_api.is_some() {
                    // No nodes to fit (its checks are its own).
                    continue;
                }
                // As the platform runs it: an LLM at the platform's own tensor parallelism,
                // where it sets one (then a refusal names that setting).
                let service = &*typed.on(platform);
                let own_tp = platform
                    .service_settings
                    .get(&service.name)
                    .and_then(|o| o.tensor_parallel)
                    .filter(|_| service.llm.is_some());
                let gpus_field = match (&service.llm, own_tp) {
                    (Some(_), Some(_)) => format!(
                        "platforms.{pi}.service_settings.{}.tensor_parallel",
                        service.name
                    ),
                    (Some(_), None) => format!("{at}.llm.tensor_parallel"),
                    (None, _) => format!("{at}.gpus_per_replica"),
                };
                let at_pool = platform.pool_index_for(self, &service.name, service.pool_need());
                let pool = &platform.node_pools[at_pool];
                check_slot(service, platform, pool, &at)?;
                if service.replica_gpus() > f64::from(pool.gpus_per_node) {
                    return Err(ScenarioError::Invalid {
                        field: gpus_field,
                        reason: format!(
                            "service \"{}\" needs {} GPUs per replica but platform \"{}\" has \
                             {} GPUs per node",
                            service.name,
                            service.replica_gpus(),
                            on_pool(platform, at_pool),
                            pool.gpus_per_node
                        ),
                    });
                }
                if let Some(llm) = &service.llm {
                    check_llm_on(llm, service, platform, pool, &at, &gpus_field)?;
                } else if service.gpu_memory_gb > pool.gpu_memory_gb {
                    return Err(ScenarioError::Invalid {
                        field: format!("{at}.gpu_memory_gb"),
                        reason: format!(
                            "service \"{}\" needs {} GB per GPU but platform \"{}\" has {} GB \
                             GPUs",
                            service.name,
                            service.gpu_memory_gb,
                            on_pool(platform, at_pool),
                            pool.gpu_memory_gb
                        ),
                    });
                }
                let first = platform.services_pool(self);
                if at_pool != first {
                    return Err(ScenarioError::Invalid {
                        field: format!("{at}.name"),
                        reason: format!(
                            "service \"{}\" runs on pool \"{}\" of platform \"{}\" but service \
                             \"{}\" on pool \"{}\": a platform's services run on one of its \
                             pools (map them to the same pool in its class_pools)",
                            service.name,
                            pool.name,
                            platform.name,
                            self.services[0].name,
                            platform.node_pools[first].name
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// 1 to [`limits::JOB_CLASSES_MAX`] classes (0 when the scenario has services), each
    /// with valid fields.
    fn check_job_classes(&self) -> Result<(), ScenarioError> {
        let own = self.stage_classes_from.unwrap_or(self.job_classes.len());
        count(
            "job_classes",
            own,
            usize::from(self.services.is_empty() && self.pipelines.is_empty()),
            limits::JOB_CLASSES_MAX,
        )?;
        for (i, class) in self.job_classes.iter().enumerate() {
            check_fields(JOB_CLASS_FIELDS, class, &format!("job_classes.{i}"))?;
            check_fraction(
                class.gpus_per_job,
                format!("job_classes.{i}.gpus_per_job"),
                "GPUs per job",
                "a job",
            )?;
            if let Duration::Empirical {
                quantile_hours,
                probabilities,
            } = &class.duration
            {
                if !probabilities.is_empty() && probabilities.len() != quantile_hours.len() {
                    return Err(ScenarioError::Invalid {
                        field: format!("job_classes.{i}.duration.probabilities"),
                        reason: format!(
                            "{} probabilities for {} quantile points: give one per point",
                            probabilities.len(),
                            quantile_hours.len()
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// 1 to 6 platforms, each with valid fields, a unique name, its reservation within its
    /// node limit, and room for every job class.
    fn check_platforms(&self) -> Result<(), ScenarioError> {
        count(
            "platforms",
            self.platforms.len(),
            limits::PLATFORMS_MIN,
            limits::PLATFORMS_MAX,
        )?;
        for (i, platform) in self.platforms.iter().enumerate() {
            let at = format!("platforms.{i}");
            if platform.hosted_api.is_some() {
                // Checked on its own ([`Scenario::check_hosted_apis`]), bar its name and the
                // fields every platform has.
                check_fields(PLATFORM_FIELDS, platform, &at)?;
                if self.platforms[..i].iter().any(|p| p.name == platform.name) {
                    return Err(ScenarioError::DuplicateName {
                        field: format!("{at}.name"),
                        name: platform.name.clone(),
                    });
                }
                continue;
            }
            // First: everything below reads a pool.
            count(
                &format!("{at}.node_pools"),
                platform.node_pools.len(),
                1,
                MAX_NODE_POOLS,
            )?;
            check_fields(PLATFORM_FIELDS, platform, &at)?;
            if platform.preemption.consolidates() && !platform.runs_kubernetes() {
                return Err(ScenarioError::Invalid {
                    field: format!("{at}.preemption.consolidation_evictions_per_node_hour"),
                    reason: format!(
                        "platform \"{}\" ({}) does not consolidate nodes under running jobs: \
                         only Kubernetes platforms (EKS, GKE) do",
                        platform.name,
                        platform.profile.as_str()
                    ),
                });
            }
            let storage = platform.staging.storage.terms();
            if platform
                .staging
                .storage
                .cloud()
                .is_some_and(|c| c != platform.cloud)
            {
                return Err(ScenarioError::Invalid {
                    field: format!("{at}.staging.storage"),
                    reason: format!(
                        "{} is not sold on {}: platform \"{}\" stages its data from its own \
                         cloud's storage",
                        storage.name,
                        platform.cloud.name(),
                        platform.name
                    ),
                });
            }
            if !platform.region.is_empty()
                && crate::model::transfer::cloud_of(&platform.region) != Some(platform.cloud)
            {
                return Err(ScenarioError::Invalid {
                    field: format!("{at}.region"),
                    reason: format!(
                        "\"{}\" is not a {} region of the catalog ({})",
                        platform.region,
                        platform.cloud.name(),
                        catalog_regions(Some(platform.cloud))
                    ),
                });
            }
            if self.platforms[..i].iter().any(|p| p.name == platform.name) {
                return Err(ScenarioError::DuplicateName {
                    field: format!("{at}.name"),
                    name: platform.name.clone(),
                });
            }
            let period = crate::model::serving::platform::serving_of(platform).metric_period_s;
            if period % 60.0 != 0.0 {
                return Err(ScenarioError::Invalid {
                    field: format!("{at}.serving.metric_period_s"),
                    reason: format!(
                        "{period} s is not a whole number of minutes (traffic advances a minute \
                         at a time)"
                    ),
                });
            }
            check_shares_nodes_with_training(&platform.services_view(self), &at)?;
            self.check_pools(platform, &at)?;
            self.check_teams(platform, &at)?;
        }
        Ok(())
    }

    /// A platform's own checkpoint intervals: each for a job class or pipeline stage the
    /// scenario has, within the class field's range.
    fn check_checkpoint_overrides(
        &self,
        platform: &Platform,
        at: &str,
    ) -> Result<(), ScenarioError> {
        for (name, &minutes) in &platform.checkpoint_interval_min {
            let field = format!("{at}.checkpoint_interval_min.{name}");
            let known = self.job_classes.iter().any(|c| &c.name == name)
                || self
                    .pipelines
                    .iter()
                    .any(|p| (0..p.stages.len()).any(|s| &p.stage_class_name(s) == name));
            if !known {
                return Err(ScenarioError::Invalid {
                    field,
                    reason: format!(
                        "no job class or pipeline stage is named \"{name}\" (a platform's \
                         checkpoint_interval_min maps a class's name to its interval there)"
                    ),
                });
            }
            if !(0.0..=1e5).contains(&minutes) {
                return Err(ScenarioError::Invalid {
                    field,
                    reason: format!("must be from 0 to 100000 minutes, not {minutes}"),
                });
            }
        }
        Ok(())
    }

    /// A platform's own autoscaling of services: each for a service the scenario has, its
    /// fewest replicas within the service's most, its target in the service field's range.
    fn check_service_settings(&self, platform: &Platform, at: &str) -> Result<(), ScenarioError> {
        for (name, own) in &platform.service_settings {
            let field = |f: &str| format!("{at}.service_settings.{name}.{f}");
            let Some(service) = self.services.iter().find(|s| &s.name == name) else {
                return Err(ScenarioError::Invalid {
                    field: format!("{at}.service_settings.{name}"),
                    reason: format!(
                        "no service is named \"{name}\" (a platform's service_settings maps a \
                         service's name to its autoscaling there)"
                    ),
                });
            };
            if let Some(n) = own.min_replicas.filter(|n| *n > service.max_replicas) {
                return Err(ScenarioError::Invalid {
                    field: field("min_replicas"),
                    reason: format!(
                        "{n} is more than the service's most replicas, {}",
                        service.max_replicas
                    ),
                });
            }
            if let Some(t) = own.target_utilization.filter(|t| !(0.05..=1.0).contains(t)) {
                return Err(ScenarioError::Invalid {
                    field: field("target_utilization"),
                    reason: format!("must be from 0.05 to 1, not {t}"),
                });
            }
            if let Some(tp) = own.tensor_parallel {
                if service.llm.is_none() {
                    return Err(ScenarioError::Invalid {
                        field: field("tensor_parallel"),
                        reason: format!(
                            "service \"{name}\" is not an LLM: its GPUs per replica are its \
                             gpus_per_replica, the same on every platform"
                        ),
                    });
                }
                if !(1..=64).contains(&tp) {
                    return Err(out_of_range(
                        field("tensor_parallel"),
                        f64::from(tp),
                        1.0,
                        64.0,
                    ));
                }
            }
        }
        Ok(())
    }

    /// The payback view's current platform: one the scenario has, or none named.
    fn check_payback(&self) -> Result<(), ScenarioError> {
        let current = &self.payback.current;
        if current.is_empty() || self.platforms.iter().any(|p| &p.name == current) {
            return Ok(());
        }
        Err(ScenarioError::Invalid {
            field: "payback.current".into(),
            reason: format!("no platform is named \"{current}\""),
        })
    }

    /// 1 to [`MAX_NODE_POOLS`] pools with valid fields and unique names, each reservation
    /// within its pool's node limit; `class_pools` naming job classes or services and pools
    /// that exist; and every job class fitting the pool it runs on.
    fn check_pools(&self, platform: &Platform, at: &str) -> Result<(), ScenarioError> {
        for (j, pool) in platform.node_pools.iter().enumerate() {
            let at_pool = format!("{at}.node_pools.{j}");
            check_fields(NODE_POOL_FIELDS, pool, &at_pool)?;
            if platform.node_pools[..j].iter().any(|p| p.name == pool.name) {
                return Err(ScenarioError::DuplicateName {
                    field: format!("{at_pool}.name"),
                    name: pool.name.clone(),
                });
            }
            check_gpu_sharing(platform, pool, &at_pool)?;
            let reserved = pool.reserved_nodes(self.reference_gpus);
            self.check_reservation(pool, reserved, &at_pool)?;
            let purchase = &pool.purchase;
            if let (Overflow::Spot, Some(why)) = (purchase.overflow, platform.cloud.facts().no_spot)
            {
                return Err(ScenarioError::Invalid {
                    field: format!("{at_pool}.purchase.overflow"),
                    reason: format!("platform \"{}\" cannot run on spot: {why}", platform.name),
                });
            }
            super::commitment::check(
                platform.cloud,
                purchase.term_years,
                purchase.payment,
                purchase.commitment,
                &format!("{at_pool}.purchase"),
            )?;
        }
        self.check_checkpoint_overrides(platform, at)?;
        self.check_service_settings(platform, at)?;
        for (name, pool) in &platform.class_pools {
            let known = self.job_classes.iter().any(|c| &c.name == name)
                || self.services.iter().any(|s| &s.name == name);
            let field = format!("{at}.class_pools.{name}");
            if !known {
                return Err(ScenarioError::Invalid {
                    field,
                    reason: format!(
                        "no job class or service is named \"{name}\" (class_pools maps a job \
                         class's or a service's name to a pool)"
                    ),
                });
            }
            if platform.pool_named(pool).is_none() {
                let names: Vec<&str> = platform
                    .node_pools
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect();
                return Err(ScenarioError::Invalid {
                    field,
                    reason: format!(
                        "platform \"{}\" has no pool named \"{pool}\" (its pools: {})",
                        platform.name,
                        names.join(", ")
                    ),
                });
            }
        }
        self.check_classes_fit(platform)
    }

    /// Each team policy with valid fields, for a team a job class is in, once; and only what
    /// the platform's scheduler offers: Kueue's quotas, borrowing, priorities and preemption
    /// on Kubernetes; QOS limits, priorities and preemption on Slurm; queue priorities on
    /// AWS Batch; none on SageMaker and Cloud Run.
    fn check_teams(&self, platform: &Platform, at: &str) -> Result<(), ScenarioError> {
        use super::teams::team_label;
        use super::Profile;
        for (k, policy) in platform.teams.iter().enumerate() {
            let at_team = format!("{at}.teams.{k}");
            check_fields(TEAM_POLICY_FIELDS, policy, &at_team)?;
            if platform.teams[..k].iter().any(|t| t.team == policy.team) {
                return Err(ScenarioError::DuplicateName {
                    field: format!("{at_team}.team"),
                    name: team_label(&policy.team).to_string(),
                });
            }
            if !self.job_classes.iter().any(|c| c.team == policy.team) {
                return Err(ScenarioError::Invalid {
                    field: format!("{at_team}.team"),
                    reason: format!(
                        "no job class is in team \"{}\" (a class names its team in its `team` field)",
                        team_label(&policy.team)
                    ),
                });
            }
        }
        let profile = platform.profile.profile();
        let refuse = |field: String, what: &str, offers: &str| {
            Err(ScenarioError::Invalid {
                field,
                reason: format!(
                    "platform \"{}\" ({}) has no {what}: {offers}",
                    platform.name,
                    platform.profile.as_str()
                ),
            })
        };
        let quotas = platform.teams.iter().position(|t| t.nominal_gpus.is_some());
        let borrowing = platform
            .teams
            .iter()
            .position(|t| t.borrowing_limit_gpus.is_some_and(|b| b > 0.0));
        let priorities = platform.teams.iter().position(|t| t.priority != 0);
        let preempts = !platform.preemption.is_off();
        match profile.map(|p| p.facts().scheduler) {
            Some(Scheduler::ManagedJobs | Scheduler::Serverless) => {
                let offers = "each job runs on instances of its own, with no queue to share";
                if let Some(k) = quotas.or(priorities) {
                    return refuse(
                        format!("{at}.teams.{k}"),
                        "team quotas or priorities",
                        offers,
                    );
                }
                if preempts {
                    return refuse(format!("{at}.preemption"), "preemption", offers);
                }
            }
            Some(Scheduler::JobQueue) => {
                let offers = format!(
                    "{} orders jobs by job-queue priority only (fair-share policies are not modelled)",
                    profile.map_or("", Profile::label)
                );
                let offers = offers.as_str();
                if let Some(k) = quotas {
                    return refuse(
                        format!("{at}.teams.{k}.nominal_gpus"),
                        "team quotas",
                        offers,
                    );
                }
                if preempts {
                    return refuse(format!("{at}.preemption"), "preemption", offers);
                }
            }
            Some(Scheduler::Slurm) => {
                if let Some(k) = borrowing {
                    return refuse(
                        format!("{at}.teams.{k}.borrowing_limit_gpus"),
                        "borrowing",
                        "a Slurm QOS GPU limit is hard",
                    );
                }
                if platform.preemption.reclaim_quota {
                    return refuse(
                        format!("{at}.preemption.reclaim_quota"),
                        "quota reclaim",
                        "Slurm preempts by QOS priority (lower_priority)",
                    );
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The `reserved` nodes fit within the pool's node limit.
    fn check_reservation(
        &self,
        pool: &NodePool,
        reserved: u32,
        at: &str,
    ) -> Result<(), ScenarioError> {
        if reserved > pool.max_nodes {
            return Err(ScenarioError::OutOfRange {
                field: format!("{at}.purchase.reserved_share"),
                min: 0.0,
                max: f64::from(pool.max_nodes * pool.gpus_per_node)
                    / f64::from(self.reference_gpus),
                got: pool.purchase.reserved_share,
            });
        }
        Ok(())
    }

    /// Every job class fits the pool it runs on: its GPU memory, its MIG slice where it asks
    /// for a fraction, and the GPUs the pool can ever have (its reserved nodes when it has no
    /// overflow). On a platform of several pools, a class no pool fits is named with them all.
    fn check_classes_fit(&self, platform: &Platform) -> Result<(), ScenarioError> {
        for (j, class) in self.job_classes.iter().enumerate() {
            let mapped = platform.class_pools.contains_key(&class.name);
            // The cheapest pool is chosen once: it is where an unmapped class runs
            // ([`Platform::pool_of_class`] chooses it the same way).
            let cheapest = (platform.node_pools.len() > 1 && !mapped)
                .then(|| platform.cheapest_pool(self, PoolNeed::of_class(class)));
            if cheapest == Some(None) {
                let pools: Vec<String> = platform
                    .node_pools
                    .iter()
                    .map(|p| {
                        format!(
                            "\"{}\" {} × {} GB, at most {} nodes",
                            p.name, p.gpus_per_node, p.gpu_memory_gb, p.max_nodes
                        )
                    })
                    .collect();
                return Err(ScenarioError::Invalid {
                    field: format!("job_classes.{j}.gpu_memory_gb"),
                    reason: format!(
                        "job class \"{}\" ({} GPUs of {} GB) fits no pool of platform \"{}\": {}",
                        class.name,
                        class.gpus_per_job,
                        class.gpu_memory_gb,
                        platform.name,
                        pools.join("; ")
                    ),
                });
            }
            let at_pool = match cheapest {
                Some(Some(pool)) => pool,
                _ => platform.pool_of_class(self, j),
            };
            self.check_class_fits(platform, at_pool, j)?;
        }
        Ok(())
    }

    /// Job class `j` fits pool `at_pool` of `platform`.
    fn check_class_fits(
        &self,
        platform: &Platform,
        at_pool: usize,
        j: usize,
    ) -> Result<(), ScenarioError> {
        let class = &self.job_classes[j];
        let pool = &platform.node_pools[at_pool];
        let named = on_pool(platform, at_pool);
        let reserved = pool.reserved_nodes(self.reference_gpus);
        let capacity_nodes = if pool.purchase.overflow == Overflow::None {
            reserved
        } else {
            pool.max_nodes
        };
        // Cloud Run runs a job on one instance: no job spans instances.
        let serverless = platform
            .profile
            .profile()
            .is_some_and(|p| p.facts().scheduler == Scheduler::Serverless);
        let have = if serverless {
            capacity_nodes.min(1).saturating_mul(pool.gpus_per_node)
        } else {
            capacity_nodes.saturating_mul(pool.gpus_per_node)
        };
        if class.gpu_memory_gb > pool.gpu_memory_gb {
            return Err(ScenarioError::DoesNotFit {
                field: format!("job_classes.{j}.gpu_memory_gb"),
                job_class: class.name.clone(),
                platform: named,
                need_gb: class.gpu_memory_gb,
                have_gb: pool.gpu_memory_gb,
            });
        }
        if let (true, super::GpuSharing::Mig { layout }) =
            (class.is_fractional(), &pool.gpu_sharing)
        {
            use super::gpu_sharing::{layout_text, mig_slice_for};
            let slice = mig_slice_for(
                &pool.gpu_model,
                layout,
                class.gpu_milli().max(1),
                class.gpu_memory_gb,
            );
            if slice.is_none() && platform.jobs_share_gpus_on(pool) {
                return Err(ScenarioError::Invalid {
                    field: format!("job_classes.{j}.gpus_per_job"),
                    reason: format!(
                        "job class \"{}\" ({} GPU, {} GB) fits no slice of platform \"{}\"'s \
                         MIG layout {} on its {}",
                        class.name,
                        class.gpus_per_job,
                        class.gpu_memory_gb,
                        named,
                        layout_text(layout),
                        pool.gpu_model
                    ),
                });
            }
        }
        if class.whole_gpus() > have {
            return Err(ScenarioError::TooManyGpus {
                field: format!("job_classes.{j}.gpus_per_job"),
                job_class: class.name.clone(),
                platform: named,
                need: class.whole_gpus(),
                have,
            });
        }
        Ok(())
    }

    /// At most [`limits::JOBS_PER_REPLICATION_MAX`] expected jobs per replication.
    fn check_work_size(&self) -> Result<(), ScenarioError> {
        let jobs = self.expected_jobs();
        if jobs > limits::JOBS_PER_REPLICATION_MAX {
            return Err(ScenarioError::TooMuchWork {
                field: "job_classes".to_string(),
                jobs,
                limit: limits::JOBS_PER_REPLICATION_MAX,
            });
        }
        Ok(())
    }
}

/// A platform's name as a message names it: with its pool's where it has several
/// (`EKS" pool "small`, inside the message's quotes).
fn on_pool(platform: &Platform, pool: usize) -> String {
    if platform.node_pools.len() > 1 {
        format!(
            "{}\" pool \"{}",
            platform.name, platform.node_pools[pool].name
        )
    } else {
        platform.name.clone()
    }
}

/// Checks `item`'s fields by `table`, in its order; `at` is the item's path ("" for the
/// scenario). Paths are only formatted for the field that is reported.
pub(super) fn check_fields<T>(table: &[Field<T>], item: &T, at: &str) -> Result<(), ScenarioError> {
    let path = |field: &Field<T>| {
        if at.is_empty() {
            field.path.to_string()
        } else {
            format!("{at}.{}", field.path)
        }
    };
    for field in table {
        match field.value {
            Value::Number { get, .. } => {
                let Some(got) = get(item) else { continue };
                let min = field.min_from.map_or(field.min, |min| min(item));
                if !in_range(got, min, field.max) {
                    return Err(out_of_range(path(field), got, min, field.max));
                }
                if let Some(least) = field.off_or_at_least {
                    if got > 0.0 && got < least {
                        return Err(out_of_range(path(field), got, least, field.max));
                    }
                }
            }
            Value::Name { get } => name(get(item)).map_err(|reason| ScenarioError::BadName {
                field: path(field),
                reason: reason.to_string(),
            })?,
            Value::Numbers { get, series } => {
                if let Some(list) = get(item) {
                    match series {
                        Series::HourOfDay => check_weights(&path(field), list, 24, "hour", field)?,
                        Series::DayOfWeek => check_weights(&path(field), list, 7, "day", field)?,
                        Series::Quantiles => check_quantiles(&path(field), list, field)?,
                        Series::Probabilities => check_probabilities(&path(field), list)?,
                        Series::Minutes => check_minutes(&path(field), list, field)?,
                    }
                }
            }
            Value::Flag { .. } | Value::Choice { .. } | Value::Id { .. } => {}
        }
    }
    Ok(())
}

/// `n` weights (one per hour of the day, or day of the week) in the field's range, at least
/// one above 0.
fn check_weights<T>(
    field: &str,
    weights: &[f64],
    n: usize,
    unit: &str,
    row: &Field<T>,
) -> Result<(), ScenarioError> {
    count(field, weights.len(), n, n)?;
    for (i, &weight) in weights.iter().enumerate() {
        if !in_range(weight, row.min, row.max) {
            return Err(out_of_range(
                format!("{field}.{i}"),
                weight,
                row.min,
                row.max,
            ));
        }
    }
    if weights.iter().sum::<f64>() <= 0.0 {
        return Err(ScenarioError::Invalid {
            field: field.to_string(),
            reason: format!("at least one {unit} must have a weight above 0"),
        });
    }
    Ok(())
}

/// A replayed traffic plays its minutes as recorded: its rate is theirs, and it has no shape
/// of its own that would not be read.
fn check_replay_traffic(traffic: &ServiceTraffic, at: &str) -> Result<(), ScenarioError> {
    let Some(replay) = &traffic.replay else {
        return Ok(());
    };
    let refuse = |field: &str, what: &str| ScenarioError::Invalid {
        field: format!("{at}.traffic.{field}"),
        reason: format!(
            "a replayed traffic plays its requests as recorded, so {what} would not be read: \
             remove it, or remove traffic.replay to draw the traffic instead"
        ),
    };
    if traffic.hourly_profile.is_some() {
        return Err(refuse("hourly_profile", "an hourly profile"));
    }
    if traffic.weekend_factor != 1.0 {
        return Err(refuse("weekend_factor", "a weekend factor other than 1"));
    }
    if traffic.spikes.is_some() {
        return Err(refuse("spikes", "spikes"));
    }
    let recorded = replay.mean_rps();
    if !(recorded.is_finite() && recorded > 0.0) {
        return Err(ScenarioError::Invalid {
            field: format!("{at}.traffic.replay.per_minute"),
            reason: "a replay needs its minutes' requests: whole numbers, at least one above 0"
                .to_string(),
        });
    }
    if (traffic.mean_rps - recorded).abs() > 1e-9 * recorded {
        return Err(ScenarioError::Invalid {
            field: format!("{at}.traffic.mean_rps"),
            reason: format!(
                "{} req/s, but the replay's {} requests over {} minutes are {recorded} req/s: \
                 a replay's rate is its own (remove traffic.replay to set a rate)",
                traffic.mean_rps,
                replay.per_minute.iter().sum::<f64>(),
                replay.per_minute.len()
            ),
        });
    }
    Ok(())
}

/// 1 to [`limits::REPLAY_MINUTES_MAX`] whole numbers in the field's range, at least one
/// above 0.
fn check_minutes<T>(field: &str, counts: &[f64], row: &Field<T>) -> Result<(), ScenarioError> {
    count(field, counts.len(), 1, limits::REPLAY_MINUTES_MAX)?;
    for (i, &c) in counts.iter().enumerate() {
        if !in_range(c, row.min, row.max) {
            return Err(out_of_range(format!("{field}.{i}"), c, row.min, row.max));
        }
        if c.fract() != 0.0 {
            return Err(ScenarioError::Invalid {
                field: format!("{field}.{i}"),
                reason: format!("{c} is not a whole number of requests"),
            });
        }
    }
    if counts.iter().sum::<f64>() <= 0.0 {
        return Err(ScenarioError::Invalid {
            field: field.to_string(),
            reason: "a replay with no request serves nothing: at least one minute must have one"
                .to_string(),
        });
    }
    Ok(())
}

/// 2 to [`limits::QUANTILE_POINTS_MAX`] points in the field's range, none below the one
/// before.
fn check_quantiles<T>(field: &str, points: &[f64], row: &Field<T>) -> Result<(), ScenarioError> {
    count(field, points.len(), 2, limits::QUANTILE_POINTS_MAX)?;
    for (i, &point) in points.iter().enumerate() {
        if !in_range(point, row.min, row.max) {
            return Err(out_of_range(
                format!("{field}.{i}"),
                point,
                row.min,
                row.max,
            ));
        }
        if i > 0 && point < points[i - 1] {
            return Err(ScenarioError::Invalid {
                field: format!("{field}.{i}"),
                reason: format!(
                    "{point} is below the point before it ({}); quantiles must ascend",
                    points[i - 1]
                ),
            });
        }
    }
    Ok(())
}

/// Ascending from exactly 0 to exactly 1.
fn check_probabilities(field: &str, probabilities: &[f64]) -> Result<(), ScenarioError> {
    count(field, probabilities.len(), 2, limits::QUANTILE_POINTS_MAX)?;
    let ascending = probabilities.windows(2).all(|w| w[0] <= w[1]);
    if probabilities.first() != Some(&0.0) || probabilities.last() != Some(&1.0) || !ascending {
        return Err(ScenarioError::Invalid {
            field: field.to_string(),
            reason: "must ascend from 0 to 1".to_string(),
        });
    }
    Ok(())
}

/// `min ≤ got ≤ max`; false for NaN.
fn in_range(got: f64, min: f64, max: f64) -> bool {
    got >= min && got <= max
}

fn out_of_range(field: String, got: f64, min: f64, max: f64) -> ScenarioError {
    ScenarioError::OutOfRange {
        field,
        min,
        max,
        got,
    }
}

fn count(field: &str, got: usize, min: usize, max: usize) -> Result<(), ScenarioError> {
    if got < min || got > max {
        return Err(ScenarioError::Count {
            field: field.to_string(),
            min,
            max,
            got,
        });
    }
    Ok(())
}

/// Why `text` is not a valid name, if it is not.
fn name(text: &str) -> Result<(), &'static str> {
    if text.trim().is_empty() {
        Err("must not be empty")
    } else if text.chars().count() > 64 {
        Err("must be at most 64 characters")
    } else {
        Ok(())
    }
}

/// Replicas share training's nodes only where replicas share nodes at all, and not on
/// SageMaker (its training jobs and endpoints never share instances) or Cloud Run.
/// A pipeline's or a stage's name: a name, without "/" (`pipeline/stage` names a stage in
/// `class_pools`), none of the `earlier`.
fn path_name<'a>(
    text: &str,
    mut earlier: impl Iterator<Item = &'a str>,
    field: String,
) -> Result<(), ScenarioError> {
    let bad = name(text).err().or_else(|| {
        text.contains('/')
            .then_some("must not contain \"/\" (pipeline/stage names a stage in class_pools)")
    });
    if let Some(reason) = bad {
        return Err(ScenarioError::BadName {
            field,
            reason: reason.into(),
        });
    }
    if earlier.any(|e| e == text) {
        return Err(ScenarioError::DuplicateName {
            field,
            name: text.to_string(),
        });
    }
    Ok(())
}

fn check_shares_nodes_with_training(platform: &Platform, at: &str) -> Result<(), ScenarioError> {
    use crate::model::serving::platform::{serving_of, shares_nodes};
    if !serving_of(platform).shares_nodes_with_training {
        return Ok(());
    }
    let field = format!("{at}.serving.shares_nodes_with_training");
    let profile = platform.profile.profile();
    let why = match profile.map(|p| (p, p.facts().scheduler)) {
        Some((p, Scheduler::ManagedJobs)) => Some(format!(
            "{} jobs and endpoints never share instances",
            p.label()
        )),
        Some((p, Scheduler::Serverless)) => Some(format!("{} runs no training jobs", p.label())),
        _ => None,
    };
    if let Some(why) = why {
        return Err(ScenarioError::Invalid {
            field,
            reason: format!(
                "platform \"{}\" ({}) cannot run replicas on its training nodes: {why}",
                platform.name,
                platform.profile.as_str(),
            ),
        });
    }
    if !shares_nodes(platform) {
        return Err(ScenarioError::Invalid {
            field,
            reason: format!(
                "platform \"{}\" says its replicas do not share nodes (serving.shares_nodes), \
                 so they cannot share training's nodes either",
                platform.name
            ),
        });
    }
    Ok(())
}

/// GPU sharing is set up on Kubernetes (the GPU operator, GKE's node pools), with a MIG
/// layout the platform's GPU has.
fn check_gpu_sharing(platform: &Platform, pool: &NodePool, at: &str) -> Result<(), ScenarioError> {
    use super::gpu_sharing::mig_layout_error;
    use super::{GpuSharing, Profile};
    if pool.gpu_sharing.is_none() {
        return Ok(());
    }
    let profile = platform.profile.profile();
    let kubernetes = platform.runs_kubernetes();
    // A SageMaker multi-model endpoint time-slices its GPUs among the models it holds.
    let multi_model = profile == Some(Profile::Sagemaker)
        && matches!(pool.gpu_sharing, GpuSharing::TimeSlicing { .. });
    if !kubernetes && !multi_model {
        return Err(ScenarioError::Invalid {
            field: format!("{at}.gpu_sharing.mode"),
            reason: format!(
                "platform \"{}\" ({}) cannot share GPUs {}: MIG and time-slicing are set up on \
                 Kubernetes (EKS, GKE Standard or Autopilot, AKS), and a SageMaker multi-model \
                 endpoint time-slices its GPUs",
                platform.name,
                platform.profile.as_str(),
                if pool.gpu_sharing.mode() == "mig" {
                    "by MIG"
                } else {
                    "by time-slicing"
                }
            ),
        });
    }
    if crate::model::gpus::find(&pool.gpu_model).is_some_and(|g| g.family_dependent) {
        return Err(ScenarioError::Invalid {
            field: format!("{at}.gpu_sharing.mode"),
            reason: format!(
                "platform \"{}\" runs on {}, not an NVIDIA GPU: MIG and time-slicing share NVIDIA GPUs",
                platform.name, pool.gpu_model
            ),
        });
    }
    if platform.serving.as_ref().and_then(|s| s.shares_nodes) == Some(false) {
        return Err(ScenarioError::Invalid {
            field: format!("{at}.serving.shares_nodes"),
            reason: format!(
                "platform \"{}\" shares its GPUs ({}) but says its replicas do not share nodes: replicas sharing a GPU share its node",
                platform.name,
                pool.gpu_sharing.mode()
            ),
        });
    }
    if let GpuSharing::Mig { layout } = &pool.gpu_sharing {
        if let Some(e) = mig_layout_error(&pool.gpu_model, layout) {
            return Err(ScenarioError::Invalid {
                field: format!("{at}.gpu_sharing.layout"),
                reason: format!("platform \"{}\": {e}", platform.name),
            });
        }
    }
    Ok(())
}

/// An LLM's own figures: a known model or a custom shape, token counts with the p90 at
/// least the median, objectives above 0.
fn check_llm(llm: &super::Llm, at: &str) -> Result<(), ScenarioError> {
    let invalid = |field: &str, reason: String| ScenarioError::Invalid {
        field: format!("{at}.{field}"),
        reason,
    };
    let arch = llm.architecture().map_err(|e| invalid("model", e))?;
    if llm.model == "custom" {
        let a = &arch;
        let counts = [
            ("layers", a.layers),
            ("attention_heads", a.attention_heads),
            ("kv_heads", a.kv_heads),
            ("head_dim", a.head_dim),
        ];
        for (name, n) in counts {
            if !(1..=100_000).contains(&n) {
                return Err(out_of_range(
                    format!("{at}.custom.{name}"),
                    f64::from(n),
                    1.0,
                    1e5,
                ));
            }
        }
        if !in_range(a.params_b, 1e-3, 1e5) {
            return Err(out_of_range(
                format!("{at}.custom.params_b"),
                a.params_b,
                1e-3,
                1e5,
            ));
        }
        if !in_range(a.active_params_b, 1e-3, a.params_b) {
            return Err(out_of_range(
                format!("{at}.custom.active_params_b"),
                a.active_params_b,
                1e-3,
                a.params_b,
            ));
        }
        if a.kv_heads > a.attention_heads {
            return Err(invalid(
                "custom.kv_heads",
                format!(
                    "{} key-value heads is more than the {} attention heads",
                    a.kv_heads, a.attention_heads
                ),
            ));
        }
        if a.active_params_b < a.params_b && !a.is_moe() {
            return Err(invalid(
                "custom.experts",
                "fewer active parameters than parameters needs experts (more than one) and \
                 experts_per_token (fewer than the experts)"
                    .to_string(),
            ));
        }
    }
    if !(1..=64).contains(&llm.tensor_parallel) {
        return Err(out_of_range(
            format!("{at}.tensor_parallel"),
            f64::from(llm.tensor_parallel),
            1.0,
            64.0,
        ));
    }
    for (name, tokens) in [
        ("input_tokens", llm.input_tokens),
        ("output_tokens", llm.output_tokens),
    ] {
        if !in_range(tokens.median, 1.0, 1e7) {
            return Err(out_of_range(
                format!("{at}.{name}.median"),
                tokens.median,
                1.0,
                1e7,
            ));
        }
        if !in_range(tokens.p90, tokens.median, 1e7) {
            return Err(out_of_range(
                format!("{at}.{name}.p90"),
                tokens.p90,
                tokens.median,
                1e7,
            ));
        }
    }
    for (name, ms) in [
        ("ttft_p95_ms", llm.ttft_p95_ms),
        ("tpot_p95_ms", llm.tpot_p95_ms),
    ] {
        if !in_range(ms, 0.01, 3.6e6) {
            return Err(out_of_range(format!("{at}.{name}"), ms, 0.01, 3.6e6));
        }
    }
    Ok(())
}

/// An LLM on a platform's pool: the pool's GPU is in the GPU table, has the precision, and
/// holds the model's weights and one long request's KV cache (a misfit named at `tp_field`,
/// where its tensor parallelism is set).
fn check_llm_on(
    llm: &super::Llm,
    service: &super::Service,
    platform: &super::Platform,
    pool: &super::NodePool,
    at: &str,
    tp_field: &str,
) -> Result<(), ScenarioError> {
    use crate::model::serving::llm::roofline::ReplicaError;
    let Some(gpu) = pool.gpu() else {
        return Err(ScenarioError::Invalid {
            field: format!("{at}.llm.model"),
            reason: format!(
                "service \"{}\" is an LLM, whose speed comes from its GPU's peak FLOP/s and \
                 memory bandwidth, but platform \"{}\" runs it on {}, a GPU the table lacks",
                service.name, platform.name, pool.gpu_model
            ),
        });
    };
    // Serving engines (vLLM, TensorRT-LLM, SGLang) split the attention heads evenly.
    if let Ok(arch) = llm.architecture() {
        let tp = llm.tensor_parallel.max(1);
        if arch.attention_heads % tp != 0 {
            return Err(ScenarioError::Invalid {
                field: tp_field.to_string(),
                reason: format!(
                    "service \"{}\" on platform \"{}\": {tp} GPUs per replica do not divide \
                     its model's {} attention heads, which serving engines split evenly across \
                     them",
                    service.name, platform.name, arch.attention_heads
                ),
            });
        }
    }
    match llm.replica(&gpu) {
        Ok(_) => Ok(()),
        Err(ReplicaError::Precision(e)) => Err(ScenarioError::Invalid {
            field: format!("{at}.llm.precision"),
            reason: format!(
                "service \"{}\" on platform \"{}\": {e}",
                service.name, platform.name
            ),
        }),
        Err(ReplicaError::Misfit(m)) => Err(ScenarioError::Invalid {
            field: tp_field.to_string(),
            reason: format!(
                "service \"{}\" does not fit platform \"{}\"'s {} GB {}s at {} per replica: \
                 its weights take {:.1} GB per GPU and one request's KV cache at the p90 \
                 token counts {:.1} GB, against {:.1} GB usable (90 % of each GPU, less {} \
                 GB kept): shard it across more GPUs, or choose a lower precision or a larger \
                 GPU",
                service.name,
                platform.name,
                pool.gpu_memory_gb,
                gpu.model,
                llm.tensor_parallel,
                m.weights_gb,
                m.min_kv_gb,
                m.usable_gb,
                crate::model::serving::llm::roofline::RESERVED_GB_PER_GPU
            ),
        }),
    }
}

/// A replica holds whole GPUs, or a fraction of one in milli-GPUs.
fn check_gpu_fraction(service: &super::Service, at: &str) -> Result<(), ScenarioError> {
    if service.llm.is_some() {
        return Ok(());
    }
    check_fraction(
        service.gpus_per_replica,
        format!("{at}.gpus_per_replica"),
        "GPUs per replica",
        "a replica",
    )
}

/// `gpus` (at `field`, `what` per `one`) is a whole number of GPUs above one, or a fraction
/// below in milli-GPUs.
fn check_fraction(gpus: f64, field: String, what: &str, one: &str) -> Result<(), ScenarioError> {
    let invalid = |reason: String| ScenarioError::Invalid {
        field: field.clone(),
        reason,
    };
    if gpus > 1.0 && gpus.fract() != 0.0 {
        return Err(invalid(format!(
            "{gpus} {what}: above one GPU, {one} holds whole GPUs"
        )));
    }
    if gpus < 1.0 && ((gpus * 1e3).round() - gpus * 1e3).abs() > 1e-6 {
        return Err(invalid(format!(
            "{gpus} {what}: a fraction of a GPU is in steps of 0.001 (milli-GPUs)"
        )));
    }
    Ok(())
}

/// A fractional replica fits a slice of a MIG platform's layout, and the replicas a
/// time-sliced GPU holds fit its memory (time-slicing does not isolate memory).
fn check_slot(
    service: &super::Service,
    platform: &Platform,
    pool: &NodePool,
    at: &str,
) -> Result<(), ScenarioError> {
    use super::gpu_sharing::{layout_text, mig_slice_for, MILLI};
    use super::GpuSharing;
    if !service.is_fractional() {
        return Ok(());
    }
    let milli = service.gpu_milli();
    match &pool.gpu_sharing {
        GpuSharing::None => Ok(()),
        GpuSharing::Mig { layout } => {
            if mig_slice_for(&pool.gpu_model, layout, milli, service.gpu_memory_gb).is_some() {
                return Ok(());
            }
            Err(ScenarioError::Invalid {
                field: format!("{at}.gpus_per_replica"),
                reason: format!(
                    "service \"{}\" ({} GPU, {} GB) fits no slice of platform \"{}\"'s MIG \
                     layout {} on its {}",
                    service.name,
                    service.gpus_per_replica,
                    service.gpu_memory_gb,
                    platform.name,
                    layout_text(layout),
                    pool.gpu_model
                ),
            })
        }
        GpuSharing::TimeSlicing { .. } => {
            // Replicas of shares that divide a GPU pack it exactly, and then memory in
            // proportion to the share keeps any mix of them within the GPU's.
            if !MILLI.is_multiple_of(milli.max(1)) {
                return Err(ScenarioError::Invalid {
                    field: format!("{at}.gpus_per_replica"),
                    reason: format!(
                        "service \"{}\" asks for {} of a GPU on platform \"{}\", which time-slices: a share must divide a GPU evenly (1/2, 1/4, 1/5, 1/8, 1/10, 1/20 …; in milli-GPUs a divisor of 1000)",
                        service.name, service.gpus_per_replica, platform.name
                    ),
                });
            }
            let per_gpu = MILLI / milli.max(1);
            let memory = f64::from(per_gpu) * service.gpu_memory_gb;
            if memory <= pool.gpu_memory_gb {
                return Ok(());
            }
            Err(ScenarioError::Invalid {
                field: format!("{at}.gpu_memory_gb"),
                reason: format!(
                    "time-slicing on platform \"{}\" puts up to {per_gpu} replicas of service \
                     \"{}\" ({} GPU each) on one {}; their memory, {per_gpu} × {} GB = {} GB, \
                     is more than the GPU's {} GB (time-slicing does not isolate memory)",
                    platform.name,
                    service.name,
                    service.gpus_per_replica,
                    pool.gpu_model,
                    service.gpu_memory_gb,
                    crate::format::trim_number(memory),
                    pool.gpu_memory_gb
                ),
            })
        }
    }
}

/// The catalog's regions (of `cloud`, or all), as a list for a message.
fn catalog_regions(cloud: Option<super::Cloud>) -> String {
    crate::model::transfer::regions()
        .into_iter()
        .filter(|(c, _)| cloud.is_none_or(|want| *c == want))
        .map(|(_, r)| r)
        .collect::<Vec<_>>()
        .join(", ")
}
