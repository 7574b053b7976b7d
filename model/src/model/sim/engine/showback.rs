//! Each team's bill at the end of one platform's replication: its own GPU time (everything
//! charged to its jobs), the shared costs by the scenario's rule, its queue wait and the
//! evictions it suffered. The entries add up to the platform's monthly TCO.

use super::super::outcome::{TeamJobs, TeamOutcome};
use super::super::state::Phase;
use super::super::summary::wait_s;
use super::build::Sim;
use crate::model::scenario::teams::{team_label, SharedCosts};
use crate::model::scenario::HOUR_S;

/// The name of the entry that holds the costs no team's jobs spent, where they are kept apart.
pub const SHARED: &str = "shared";
/// The name of the entry that holds the services' GPU time.
pub const SERVICES: &str = "services";

impl Sim<'_> {
    /// Each team's bill (none where the scenario names no team): `monthly_tco` the platform's
    /// total and `services_usd` its services' GPU time, USD per month; `per_month` scales a
    /// horizon's dollars to a month.
    pub(super) fn teams_outcome(
        &self,
        monthly_tco: f64,
        services_usd: f64,
        per_month: f64,
    ) -> Vec<TeamOutcome> {
        let names = self.scenario.team_names();
        if names.is_empty() {
            return Vec::new();
        }
        let classes = &self.scenario.job_classes;
        let mut out: Vec<TeamOutcome> = names
            .iter()
            .map(|&team| {
                let of_team = |c: usize| classes[c].team == team;
                let (gpu_s, usd) =
                    (0..classes.len())
                        .filter(|&c| of_team(c))
                        .fold((0.0, 0.0), |(g, u), c| {
                            (
                                g + self.tally.class_spend[c].0,
                                u + self.tally.class_spend[c].1,
                            )
                        });
                let submitted = || {
                    self.jobs
                        .iter()
                        .zip(&self.states)
                        .take_while(|(j, _)| j.arrival_s < self.horizon_s)
                        .filter(|(j, s)| {
                            of_team(j.class)
                                && self.in_window(s.submitted_s)
                                && s.submitted_s < self.horizon_s
                        })
                };
                let mut waits: Vec<i64> = submitted()
                    .map(|(_, s)| wait_s(s, self.horizon_s))
                    .collect();
                let mut jobs = TeamJobs::default();
                for (_, s) in submitted() {
                    jobs.submitted += 1;
                    match s.phase {
                        Phase::Done => jobs.completed += 1,
                        Phase::GaveUp => jobs.failed += 1,
                        Phase::Running => jobs.running += 1,
                        Phase::Waiting | Phase::Holding | Phase::BackingOff => jobs.waiting += 1,
                        Phase::Unsubmitted => {}
                    }
                }
                let p95 = if waits.is_empty() {
                    0.0
                } else {
                    crate::model::stats::whole_quantiles_unsorted(&mut waits, 0.5, 0.95).1
                };
                TeamOutcome {
                    team: team_label(team).to_string(),
                    monthly_usd: usd * per_month,
                    gpu_hours: gpu_s / HOUR_S,
                    queue_wait_p95_s: p95,
                    preemptions: (0..classes.len())
                        .filter(|&c| of_team(c))
                        .map(|c| self.tally.class_preempted[c])
                        .sum(),
                    jobs,
                }
            })
            .collect();
        let own: f64 = out.iter().map(|t| t.monthly_usd).sum();
        let shared = monthly_tco - own - services_usd;
        let weights: Vec<f64> = match self.scenario.showback.shared_costs {
            SharedCosts::Separate => Vec::new(),
            SharedCosts::ByCost => out.iter().map(|t| t.monthly_usd).collect(),
            SharedCosts::ByGpuHours => out.iter().map(|t| t.gpu_hours).collect(),
        };
        let total: f64 = weights.iter().sum();
        if total > 0.0 {
            for (t, w) in out.iter_mut().zip(&weights) {
                t.monthly_usd += shared * w / total;
            }
        } else {
            out.push(TeamOutcome::cost_only(SHARED, shared));
        }
        if services_usd > 0.0 {
            out.push(TeamOutcome::cost_only(SERVICES, services_usd));
        }
        out
    }
}
