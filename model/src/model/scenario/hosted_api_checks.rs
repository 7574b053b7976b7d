//! Validation of hosted-API platforms ([`super::HostedApi`]): what such a platform is, and
//! what a scenario beside it may hold.

use super::fields::HOSTED_API_FIELDS;
use super::validate::check_fields;
use super::{ApiBilling, Platform, Profile, Scenario};
use crate::model::error::ScenarioError;

fn invalid(field: String, reason: String) -> ScenarioError {
    ScenarioError::Invalid { field, reason }
}

impl Scenario {
    /// Each hosted-API platform: its profile `hosted_api` with its settings and no node pools,
    /// its fields in range, its purchase billable; and a scenario it can run: LLM services of
    /// one model (the prices it copied are that model's), with no job classes, pipelines or
    /// replayed history (training needs nodes; a scenario of services alone compares the API).
    pub(super) fn check_hosted_apis(&self) -> Result<(), ScenarioError> {
        for (i, platform) in self.platforms.iter().enumerate() {
            let at = format!("platforms.{i}");
            let profile = platform.profile.profile() == Some(Profile::HostedApi);
            let Some(api) = &platform.hosted_api else {
                if profile {
                    return Err(invalid(
                        format!("{at}.hosted_api"),
                        format!(
                            "platform \"{}\" is a hosted API with no hosted_api settings: give \
                             its provider, prices and limits",
                            platform.name
                        ),
                    ));
                }
                continue;
            };
            if !profile {
                return Err(invalid(
                    format!("{at}.profile"),
                    format!(
                        "platform \"{}\" has hosted_api settings: its profile must be \
                         \"hosted_api\", not \"{}\"",
                        platform.name,
                        platform.profile.as_str()
                    ),
                ));
            }
            if !platform.node_pools.is_empty() {
                return Err(invalid(
                    format!("{at}.node_pools"),
                    format!(
                        "platform \"{}\" is a hosted API: it runs no nodes of its own, so it has \
                         no node pools",
                        platform.name
                    ),
                ));
            }
            check_fields(HOSTED_API_FIELDS, platform, &at)?;
            self.check_hosted_work(platform)?;
            check_node_settings(platform, &at)?;
            let field = |f: &str| format!("{at}.hosted_api.{f}");
            match (api.billing, &api.provisioned) {
                (ApiBilling::Provisioned, None) => {
                    return Err(invalid(
                        field("billing"),
                        format!(
                            "{} sells no provisioned throughput for this model: bill per token",
                            crate::model::platforms::hosted_api::provider_label(&api.provider)
                        ),
                    ))
                }
                (ApiBilling::Provisioned, Some(p)) => {
                    let offer = p.offer();
                    offer
                        .check_units(p.units)
                        .map_err(|e| invalid(field("provisioned.units"), e.to_string()))?;
                    offer
                        .monthly_usd(p.units, p.term)
                        .map_err(|e| invalid(field("provisioned.term"), e.to_string()))?;
                    if api.cached_input_share > 0.0 {
                        return Err(invalid(
                            field("cached_input_share"),
                            "provisioned throughput is billed by the unit, not by the token: \
                             set the cached share to 0"
                                .into(),
                        ));
                    }
                    if api.batch_share > 0.0 {
                        return Err(invalid(
                            field("batch_share"),
                            "the batch API is billed per token: set the batch share to 0 on \
                             provisioned throughput"
                                .into(),
                        ));
                    }
                }
                (ApiBilling::PerToken, _) => {
                    if api.cached_input_share > 0.0 && api.cached_input_usd_per_m.is_none() {
                        return Err(invalid(
                            field("cached_input_share"),
                            "the provider has no cached-input price for this model: set the \
                             cached share to 0, or give the price"
                                .into(),
                        ));
                    }
                    let batch_priced =
                        api.batch_input_usd_per_m.is_some() && api.batch_output_usd_per_m.is_some();
                    if api.batch_share > 0.0 && !batch_priced {
                        return Err(invalid(
                            field("batch_share"),
                            "the provider has no batch API price for this model: set the batch \
                             share to 0, or give both batch prices"
                                .into(),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The work beside a hosted API: LLM services only, of one model, and at least one.
    fn check_hosted_work(&self, platform: &Platform) -> Result<(), ScenarioError> {
        let training = if !self.job_classes.is_empty() {
            Some("job_classes")
        } else if !self.pipelines.is_empty() {
            Some("pipelines")
        } else if self.replay.is_some() {
            Some("replay")
        } else {
            None
        };
        if let Some(what) = training {
            return Err(invalid(
                what.into(),
                format!(
                    "platform \"{}\" is a hosted API, which serves LLM requests only: training \
                     jobs, pipelines and replayed histories need platforms of nodes (compare the \
                     API in a scenario of services alone)",
                    platform.name
                ),
            ));
        }
        if self.services.is_empty() {
            return Err(invalid(
                "services".into(),
                format!(
                    "platform \"{}\" is a hosted API: give it an LLM service to serve",
                    platform.name
                ),
            ));
        }
        let mut model: Option<&str> = None;
        for (i, service) in self.services.iter().enumerate() {
            let Some(llm) = &service.llm else {
                return Err(invalid(
                    format!("services.{i}.llm"),
                    format!(
                        "service \"{}\" is not an LLM: platform \"{}\" is a hosted LLM API, \
                         which serves LLM requests only",
                        service.name, platform.name
                    ),
                ));
            };
            match model {
                Some(m) if m != llm.model => {
                    return Err(invalid(
                        format!("services.{i}.llm.model"),
                        format!(
                            "platform \"{}\" is a hosted API priced for one model ({m}); \
                             service \"{}\" runs {}: compare each model in a scenario of its own",
                            platform.name, service.name, llm.model
                        ),
                    ))
                }
                _ => model = Some(&llm.model),
            }
        }
        Ok(())
    }
}

/// What a platform of nodes may set and a hosted API has no use for: refused, not ignored.
fn check_node_settings(platform: &Platform, at: &str) -> Result<(), ScenarioError> {
    let set = [
        ("class_pools", !platform.class_pools.is_empty()),
        (
            "checkpoint_interval_min",
            !platform.checkpoint_interval_min.is_empty(),
        ),
        ("service_settings", !platform.service_settings.is_empty()),
        ("teams", !platform.teams.is_empty()),
        ("preemption", platform.preemption != Default::default()),
        ("serving", platform.serving.is_some()),
    ];
    if let Some((field, _)) = set.iter().find(|(_, on)| *on) {
        return Err(invalid(
            format!("{at}.{field}"),
            format!(
                "platform \"{}\" is a hosted API: it has no nodes, replicas or queues, so \
                 {field} does not apply (remove it)",
                platform.name
            ),
        ));
    }
    Ok(())
}
