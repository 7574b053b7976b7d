//! Assembling one platform's outcome at the end of its replication: the monthly breakdown
//! (the ledger's GPU time plus the other monthly costs), the cost ratios, and the job
//! figures of [`JobSummary`].

use super::super::outcome::PlatformOutcome;
use super::super::summary::{wait_s, JobSummary};
use super::build::Sim;
use crate::model::cost_category::{Category, PerCategory};
use crate::model::pricing::{other_monthly_costs, GpuSecondPrices, Transferred};
use crate::model::scenario::HOUR_S;
use crate::model::serving::platform::{serve_on_platform, Served, ServiceOutcome};
use crate::model::HOURS_PER_MONTH;

impl Sim<'_> {
    /// What the replication measured, once it has run to its end.
    pub(super) fn outcome(&self) -> PlatformOutcome {
        let p = self.platform;
        // The measured window's (the warm-up is not measured).
        let hours = (self.horizon_s - self.window.from_s) as f64 / HOUR_S;
        let months = hours / HOURS_PER_MONTH;
        let per_month = 1.0 / months;
        let mut breakdown = self.ledger.usd.scaled(per_month);
        let other = other_monthly_costs(
            self.scenario,
            p,
            Transferred {
                egress_gb: self.tally.egress_gb,
                data_read_gb: self.tally.data_read_gb,
                staged_gb: self.mech.staging.as_ref().map_or(0.0, |s| s.staged_gb),
            },
            months,
        );
        for c in Category::ALL.into_iter().filter(|c| !c.is_gpu_time()) {
            breakdown[c] = other[c];
        }
        // Pipelines: their runs, and the workflow engine's charge for their stage attempts
        // (in the fees).
        let (pipelines, pipeline_person_s) = self.pipeline_outcomes(per_month);
        let transitions: u64 = pipelines.iter().map(|o| o.transitions).sum();
        let orchestration_usd = p
            .orchestration
            .usd_per_month(transitions as f64 * per_month);
        breakdown[Category::Fees] += orchestration_usd;
        let mut totals = Totals {
            gpu_seconds: self.ledger.gpu_s,
            breakdown,
            paid: self.ledger.paid_gpu_s,
            useful_ref_hours: self.ledger.useful_ref_gpu_s / HOUR_S,
        };
        // Services: their GPU time in the same categories, at the on-demand price; on the
        // training nodes, at the price of the nodes they held, and the nodes' idle GPUs are
        // the simulation's own.
        let (mut served, price, held_gap) = self.served();
        let mut services = std::mem::take(&mut served.services);
        // On the training nodes, the simulation paid for the services' GPUs already.
        let own_nodes = held_gap.is_none();
        if let Some(held) = held_gap {
            on_training_nodes(
                &mut services,
                &mut served,
                held,
                price,
                (&mut totals.gpu_seconds, &mut totals.breakdown),
                per_month,
            );
        }
        let serving_gpu_s = add_services(
            &mut totals,
            &services,
            &served,
            (price, per_month),
            own_nodes,
        );
        let Totals {
            gpu_seconds,
            breakdown,
            paid,
            useful_ref_hours,
        } = totals;
        let monthly = breakdown.total();
        let shared_usd: f64 = Category::ALL
            .into_iter()
            .filter(|c| !c.is_gpu_time())
            .map(|c| breakdown[c] * months)
            .sum();
        // The shared GPUs' slots and the replicas' nodes' GPUs no replica held are the
        // services' together: shared among them pro rata to their own GPU time.
        let stranded_usd =
            (served.unheld_gpu_s + served.borrowed_useful_gpu_s + served.idle_node_gpu_s) * price;
        let own_s: f64 = services
            .iter()
            .map(|s| s.gpu_seconds.values().sum::<f64>())
            .sum();
        for s in &mut services {
            s.price_requests(paid, shared_usd, own_s, stranded_usd);
        }
        let useful_gpu_s = gpu_seconds[Category::UsefulCompute];
        let waits = JobSummary::of(self.jobs, &self.states, self.window.from_s, self.horizon_s);
        let total_horizon = monthly * months;
        // A job is submitted when it arrives; a pipeline's stage when its predecessors
        // finish, or never. Those submitted in the window.
        let submitted = self
            .states
            .iter()
            .filter(|s| self.in_window(s.submitted_s) && s.submitted_s < self.horizon_s)
            .count() as u64;
        let mut outcome = PlatformOutcome {
            breakdown_usd: breakdown,
            monthly_tco_usd: monthly,
            gpu_seconds,
            paid_gpu_seconds: paid,
            useful_reference_gpu_hours: useful_ref_hours,
            usd_per_useful_gpu_hour: (useful_ref_hours > 0.0)
                .then(|| total_horizon / useful_ref_hours),
            usd_per_successful_job: (self.tally.completed > 0)
                .then(|| total_horizon / self.tally.completed as f64),
            // Priced once every mechanism has reported (below).
            usd_per_million_requests: None,
            usd_per_million_output_tokens: None,
            usd_per_completed_run: None,
            utilization: if paid > 0.0 { useful_gpu_s / paid } else { 0.0 },
            jobs_submitted: submitted,
            jobs_completed: self.tally.completed,
            jobs_failed: self.tally.gave_up,
            jobs_running: waits.running,
            jobs_waiting: waits.waiting,
            interruptions: self.tally.interruptions,
            // The mechanisms' own counts are theirs to report (below).
            node_failures: 0,
            peak_nodes: u64::from(self.capacity.earlier_peaks + self.capacity.peak),
            queue_wait_mean_s: waits.mean_s,
            queue_wait_p50_s: waits.p50_s,
            queue_wait_p95_s: waits.p95_s,
            queue_wait_for_nodes_mean_s: waits.mean_s - waits.pull_mean_s - waits.stage_mean_s,
            queue_wait_image_pull_mean_s: waits.pull_mean_s,
            queue_wait_staging_mean_s: waits.stage_mean_s,
            queue_wait_capacity_mean_s: self.tally.wait_capacity_s as f64 / waits.counted,
            queue_wait_provisioning_mean_s: self.tally.wait_provisioning_s as f64 / waits.counted,
            turnaround_inflation: (self.tally.completed > 0)
                .then(|| self.tally.inflation_sum / self.tally.completed as f64),
            events: self.agenda.handled,
            cut_off: self.agenda.cut_off,
            services,
            serving_gpu_usd_per_month: serving_gpu_s * price * per_month,
            preemptions: 0,
            service_gpu_hours_without_node: 0.0,
            teams: self.teams_outcome(monthly, serving_gpu_s * price * per_month, per_month),
            waiting_cost_usd: (self.waiting_cost_usd()
                + pipeline_person_s / HOUR_S * self.scenario.people.waiting_usd_per_hour)
                * per_month,
            pipelines,
            orchestration_usd,
        };
        self.mech.report(&mut outcome);
        outcome.price_the_work(months);
        outcome
    }

    /// The services' outcomes, the price of their GPU-second, and the GPU-seconds they held
    /// on the training nodes where they share them (`None`: on nodes of their own, simulated
    /// now).
    fn served(&self) -> (Served, f64, Option<f64>) {
        let p = self.platform;
        match &self.mech.colocation {
            Some(c) => {
                let price = if c.held_gpu_s > 0.0 {
                    c.held_usd / c.held_gpu_s
                } else {
                    let pool = &p.node_pools[c.pool];
                    GpuSecondPrices::of(self.scenario, p, pool).on_demand
                };
                (c.served.clone(), price, Some(c.held_gpu_s))
            }
            None => {
                let view = p.services_view(self.scenario);
                let price = GpuSecondPrices::of(self.scenario, p, view.first_pool()).on_demand;
                (
                    serve_on_platform(self.scenario, &view, self.replication, price),
                    price,
                    None,
                )
            }
        }
    }

    /// The price of waiting in the window, USD: each submitted job's queue wait (to its
    /// first compute, or to the horizon) within the window × the people its class says wait
    /// for it × the cost of a person's hour. 0, without a pass over the jobs, where it is off.
    fn waiting_cost_usd(&self) -> f64 {
        let rate = self.scenario.people.waiting_usd_per_hour;
        if rate <= 0.0 {
            return 0.0;
        }
        let classes = &self.scenario.job_classes;
        let person_s: f64 = self
            .jobs
            .iter()
            .zip(&self.states)
            .take_while(|(j, _)| j.arrival_s < self.horizon_s)
            .filter(|(_, s)| s.submitted_s < self.horizon_s)
            .map(|(j, s)| {
                let people = classes
                    .get(j.class)
                    .map_or(1.0, |c| c.people_blocked_per_job);
                // Of a wait that began in the warm-up, its part in the window.
                let before = (self.window.from_s - s.submitted_s).max(0);
                (wait_s(s, self.horizon_s) - before).max(0) as f64 * people
            })
            .sum();
        person_s / HOUR_S * rate
    }
}

/// What the platform's GPUs did and cost: GPU-seconds and USD a month by category, the
/// GPU-seconds paid for, and the useful reference-GPU-hours.
struct Totals {
    gpu_seconds: PerCategory<f64>,
    breakdown: PerCategory<f64>,
    paid: f64,
    useful_ref_hours: f64,
}

/// Adds the services' GPU time to `totals` at `price` a GPU-second, `per_month` scaling the
/// horizon's dollars to a month (`own_nodes`: on
/// nodes of their own, paid for here; else the simulation paid for them): the shared GPUs'
/// slots no replica held (GPU-sharing loss), time-sliced replicas' work in their neighbours'
/// empty shares (useful compute), the replicas' nodes' GPUs no replica held (idle), then each
/// service's own. Returns the services' GPU-seconds.
fn add_services(
    totals: &mut Totals,
    services: &[ServiceOutcome],
    served: &Served,
    (price, per_month): (f64, f64),
    own_nodes: bool,
) -> f64 {
    let stranded = [
        (Category::GpuSharingLoss, served.unheld_gpu_s),
        (Category::UsefulCompute, served.borrowed_useful_gpu_s),
        (Category::Idle, served.idle_node_gpu_s),
    ];
    for (category, gpu_s) in stranded {
        totals.gpu_seconds[category] += gpu_s;
        totals.breakdown[category] += gpu_s * price * per_month;
        if own_nodes {
            totals.paid += gpu_s;
        }
    }
    let mut serving_gpu_s =
        served.unheld_gpu_s + served.borrowed_useful_gpu_s + served.idle_node_gpu_s;
    for s in services {
        for c in Category::ALL.into_iter().filter(|c| c.is_gpu_time()) {
            totals.gpu_seconds[c] += s.gpu_seconds[c];
            totals.breakdown[c] += s.gpu_seconds[c] * price * per_month;
            if own_nodes {
                totals.paid += s.gpu_seconds[c];
            }
            serving_gpu_s += s.gpu_seconds[c];
        }
        totals.useful_ref_hours += s.useful_reference_gpu_hours;
    }
    serving_gpu_s
}

/// Services on the training nodes: the simulation placed their GPUs and paid for them, and
/// counted `held_gpu_s` of them on ready nodes (at `price` a GPU-second). Their own
/// simulation counted their GPU time from each replica's request, including the start-up,
/// and it is the same time bucket by bucket: what it counted while their node was still
/// being provisioned is the node's provisioning, already charged, so it comes off their
/// provisioning, then off their idle time. What is left (replicas that found no GPU, or
/// whose node took longer than their start-up allowed) was never paid: every part of their
/// time, and the work it did, shrinks in proportion, the shared GPUs' empty parts with it.
/// Each service's cost is at `price`.
fn on_training_nodes(
    services: &mut [ServiceOutcome],
    served: &mut Served,
    held_gpu_s: f64,
    price: f64,
    (gpu_seconds, breakdown): (&mut PerCategory<f64>, &mut PerCategory<f64>),
    per_month: f64,
) {
    let own = |services: &[ServiceOutcome], served: &Served| {
        services
            .iter()
            .map(|s| s.gpu_seconds.values().sum::<f64>())
            .sum::<f64>()
            + served.unheld_gpu_s
            + served.borrowed_useful_gpu_s
    };
    let mut gap = own(services, served) - held_gpu_s;
    if gap < 0.0 {
        // Held longer than their own simulation says (the horizon's last part second):
        // the platform's idle time.
        gpu_seconds[Category::Idle] -= gap;
        breakdown[Category::Idle] -= gap * price * per_month;
        gap = 0.0;
    }
    for category in [Category::ProvisioningAndPulls, Category::Idle] {
        let total: f64 = services.iter().map(|s| s.gpu_seconds[category]).sum();
        if total <= 0.0 || gap <= 0.0 {
            continue;
        }
        let take = gap.min(total);
        for s in services.iter_mut() {
            s.gpu_seconds[category] -= take * s.gpu_seconds[category] / total;
        }
        gap -= take;
    }
    let left = own(services, served);
    if gap > 0.0 && left > 0.0 {
        let keep = ((left - gap) / left).max(0.0);
        for s in services.iter_mut() {
            for c in Category::ALL {
                s.gpu_seconds[c] *= keep;
            }
            s.useful_reference_gpu_hours *= keep;
        }
        served.unheld_gpu_s *= keep;
        served.borrowed_useful_gpu_s *= keep;
    }
    for s in services.iter_mut() {
        s.gpu_usd = s.gpu_seconds.values().sum::<f64>() * price;
    }
}
