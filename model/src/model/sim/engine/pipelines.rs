//! Pipelines in the event loop: a stage is submitted when the last of its predecessors
//! finishes, and waits in the queue by when it was submitted; what each run took is measured
//! at the end.
//!
//! A run's stages are consecutive jobs in stage order (`generate_jobs` pushes them together
//! and the sort keeps them so), so a stage's run begins `stage` jobs before it.
//!
//! Pools run one pass each: a stage whose predecessors ran in an earlier pass is submitted at
//! the time they finished, taken in order with the arrivals ([`PipelineRuns::deferred`]).
//! Validation keeps every pipeline's stages moving between pools in one direction, and the
//! passes follow that order ([`pass_order`]).

use super::super::outcome::PipelineOutcome;
use super::super::state::Phase;
use super::build::Sim;
use super::mechanism::{Mechanism, PoolStart, Setup};
use super::Step;
use crate::model::scenario::{PipelineGraph, Platform, Scenario, HOUR_S};
use crate::model::topological::topological_order;

/// What the event loop keeps of the pipelines of one platform's run.
#[derive(Clone)]
pub(in crate::model::sim) struct PipelineRuns {
    pub(super) graph: PipelineGraph,
    /// Per job: its predecessors that have not finished (0 for jobs of the classes).
    pending: Vec<u16>,
    /// Per job: when its last finished predecessor finished, s.
    ready_s: Vec<i64>,
    /// Per job: its place in the waiting queue's order (submission order), `u32::MAX` until
    /// it is submitted; and per place, its job.
    rank: Vec<u32>,
    by_rank: Vec<u32>,
    /// The current pass's stages whose predecessors all finished in earlier passes: (when,
    /// job), in order, and the next one to submit.
    deferred: Vec<(i64, usize)>,
    next_deferred: usize,
}

impl Mechanism for PipelineRuns {
    /// The pipelines' state before any job arrives; `None` for a scenario without any.
    fn of(setup: &Setup) -> Option<Self> {
        let (scenario, jobs) = (setup.scenario, setup.jobs);
        let graph = scenario.pipeline_graph()?;
        let pending = jobs
            .iter()
            .map(|j| graph.stage(j.class).map_or(0, |s| s.after.len() as u16))
            .collect();
        Some(PipelineRuns {
            graph,
            pending,
            ready_s: jobs.iter().map(|j| j.arrival_s).collect(),
            rank: vec![u32::MAX; jobs.len()],
            by_rank: Vec::with_capacity(jobs.len()),
            deferred: Vec::new(),
            next_deferred: 0,
        })
    }

    /// At the start of a pass: the stages of this pool whose predecessors all finished in
    /// earlier passes, to submit when the last of them finished.
    fn enter_pool(&mut self, pool: &PoolStart) {
        self.deferred.clear();
        self.next_deferred = 0;
        for (job, j) in pool.jobs.iter().enumerate() {
            if pool.class_pool[j.class] == pool.index
                && pool.states[job].phase == Phase::Unsubmitted
                && self.pending[job] == 0
            {
                self.deferred.push((self.ready_s[job], job));
            }
        }
        self.deferred.sort_unstable();
    }
}

impl PipelineRuns {
    /// Whether `job` of class `class` is submitted when it arrives: a job of a class, or a
    /// stage after none.
    pub(super) fn submits_on_arrival(&self, class: usize) -> bool {
        self.graph.stage(class).is_none_or(|s| s.after.is_empty())
    }

    /// Gives `job` the next place in the queue's order (once).
    pub(super) fn rank(&mut self, job: usize) {
        if self.rank[job] == u32::MAX {
            self.rank[job] = self.by_rank.len() as u32;
            self.by_rank.push(job as u32);
        }
    }

    /// Its place in the queue's order.
    pub(super) fn key(&self, job: usize) -> usize {
        self.rank[job] as usize
    }

    /// The job at place `key`.
    pub(super) fn job_at(&self, key: usize) -> usize {
        self.by_rank[key] as usize
    }

    /// When the next deferred stage is submitted, s.
    pub(super) fn next_deferred_s(&self) -> Option<i64> {
        self.deferred.get(self.next_deferred).map(|d| d.0)
    }

    /// The next deferred stage, taken.
    pub(super) fn take_deferred(&mut self) -> Option<(i64, usize)> {
        let next = self.deferred.get(self.next_deferred).copied();
        self.next_deferred += 1;
        next
    }

    /// Puts `job` among this pass's deferred stages, to submit at `at_s`.
    fn defer(&mut self, at_s: i64, job: usize) {
        let rest = &self.deferred[self.next_deferred..];
        let at = self.next_deferred + rest.partition_point(|&d| d < (at_s, job));
        self.deferred.insert(at, (at_s, job));
    }

    /// No more deferred stages in this pass (the rest are at or past the horizon).
    pub(super) fn drop_deferred(&mut self) {
        self.next_deferred = self.deferred.len();
    }
}

/// The order of a platform's pool passes: every pipeline's stages go from a pool to pools
/// after it (validation refuses a pipeline that goes back), and otherwise the pools' own
/// order. Without pipelines, 0, 1, 2, …
pub fn pass_order(scenario: &Scenario, platform: &Platform) -> Vec<usize> {
    let pools = platform.node_pools.len();
    let mut order = topological_order(pools, &pool_edges(scenario, platform));
    // A cycle (refused by validation): the pools left out follow in their own order.
    let rest: Vec<usize> = (0..pools).filter(|p| !order.contains(p)).collect();
    order.extend(rest);
    order
}

/// (from pool, to pool) for every stage after a stage on another pool (of the scenario the
/// simulation runs, [`Scenario::simulated`]).
pub fn pool_edges(scenario: &Scenario, platform: &Platform) -> Vec<(usize, usize)> {
    let Some(graph) = scenario.pipeline_graph() else {
        return Vec::new();
    };
    let mut edges = Vec::new();
    for (i, links) in graph.stages.iter().enumerate() {
        let class = graph.first_stage_class + i;
        let first = graph.pipelines[links.pipeline].0;
        let to = platform.pool_of_class(scenario, class);
        for &a in &links.after {
            let from = platform.pool_of_class(scenario, first + a);
            if from != to && !edges.contains(&(from, to)) {
                edges.push((from, to));
            }
        }
    }
    edges
}

impl Sim<'_> {
    /// `job` has finished: the stages after it count one predecessor less, and those whose
    /// predecessors have all finished are submitted now where they run on this pool (a later
    /// pass submits the others at this time).
    pub(super) fn release_successors(&mut self, job: usize) {
        let Some(runs) = self.mech.pipelines.as_mut() else {
            return;
        };
        let class = self.jobs[job].class;
        let Some(links) = runs.graph.stage(class) else {
            return;
        };
        let run_first = job - links.stage;
        let before = links.before.clone();
        let mut now_due: smallvec::SmallVec<[usize; 4]> = smallvec::SmallVec::new();
        for t in before {
            let next = run_first + t;
            runs.pending[next] -= 1;
            runs.ready_s[next] = runs.ready_s[next].max(self.now);
            if runs.pending[next] == 0
                && self.pass.class_pool[self.jobs[next].class] == self.pass.index
            {
                now_due.push(next);
            }
        }
        for next in now_due {
            let ready = self
                .mech
                .pipelines
                .as_ref()
                .map_or(self.now, |r| r.ready_s[next]);
            if ready > self.now {
                // A predecessor in an earlier pass finishes later than this one: submitted
                // then, in order with the pass's arrivals.
                if let Some(runs) = self.mech.pipelines.as_mut() {
                    runs.defer(ready, next);
                }
            } else {
                self.submit(next);
                self.enqueue(next);
            }
        }
    }

    /// Submits the next stage whose predecessors finished in an earlier pass, at its time;
    /// one past the horizon leaves none to submit in this pass.
    pub(super) fn submit_deferred(&mut self) -> Step {
        let runs = self.mech.pipelines.as_mut().expect("a deferred stage");
        let Some((t, job)) = runs.take_deferred() else {
            return Step::Stop;
        };
        if t >= self.horizon_s {
            runs.drop_deferred();
            return Step::Next;
        }
        if !self.begin_event(t) {
            return Step::Stop;
        }
        self.submit(job);
        self.enqueue(job);
        Step::Dispatch
    }

    /// `job` is submitted now: it waits from now, in submission order.
    pub(super) fn submit(&mut self, job: usize) {
        if let Some(runs) = self.mech.pipelines.as_mut() {
            runs.rank(job);
        }
        let st = &mut self.states[job];
        if st.phase == Phase::Unsubmitted {
            st.phase = Phase::Waiting;
        }
        st.submitted_s = self.now;
    }

    /// Each pipeline's runs in this replication, and the waiting they cost (person-seconds),
    /// at the horizon.
    pub(super) fn pipeline_outcomes(&self, per_month: f64) -> (Vec<PipelineOutcome>, f64) {
        let Some(runs) = &self.mech.pipelines else {
            return (Vec::new(), 0.0);
        };
        let graph = &runs.graph;
        let horizon = self.horizon_s;
        let mut person_s = 0.0;
        let mut out = Vec::with_capacity(graph.pipelines.len());
        for (p, &(first_class, count)) in graph.pipelines.iter().enumerate() {
            let pipeline = &self.scenario.pipelines[p];
            let mut o = PipelineOutcome::default();
            let mut e2e: Vec<i64> = Vec::new();
            let links = &graph.stages[first_class - graph.first_stage_class..][..count];
            let mut service = vec![0i64; count];
            let order = order_of(links);
            let mut job = 0;
            while job < self.jobs.len() {
                let j = &self.jobs[job];
                // The runs that arrived in the window.
                if j.class != first_class || j.arrival_s >= horizon || !self.in_window(j.arrival_s)
                {
                    job += 1;
                    continue;
                }
                let stages = &self.states[job..job + count];
                o.runs_submitted += 1;
                if stages.iter().any(|s| s.phase == Phase::GaveUp) {
                    o.runs_failed += 1;
                }
                let all_done = stages.iter().all(|s| s.phase == Phase::Done);
                let end = if all_done {
                    o.runs_completed += 1;
                    let end = stages
                        .iter()
                        .filter_map(|s| s.finished_s)
                        .max()
                        .unwrap_or(0);
                    e2e.push(end - j.arrival_s);
                    end
                } else {
                    horizon
                };
                o.transitions += stages.iter().map(|s| u64::from(s.attempts)).sum::<u64>();
                // The time the run lost to its stages' queue waits: how long it has taken,
                // less its longest chain of the stages' own time (first compute to finish).
                for &s in &order {
                    let st = &stages[s];
                    let own = match st.first_compute_s {
                        Some(c) if c < end => st.finished_s.unwrap_or(end).min(end) - c,
                        _ => 0,
                    };
                    let before = links[s]
                        .after
                        .iter()
                        .map(|&a| service[a])
                        .max()
                        .unwrap_or(0);
                    service[s] = before + own.max(0);
                }
                let longest = service.iter().copied().max().unwrap_or(0);
                let delay = ((end - j.arrival_s) - longest).max(0);
                person_s += delay as f64 * pipeline.people_blocked_per_job;
                o.delay_hours += delay as f64 / HOUR_S;
                job += count;
            }
            let stage_usd: f64 = (first_class..first_class + count)
                .map(|c| self.tally.class_spend[c].1)
                .sum();
            o.stage_usd = stage_usd * per_month;
            let orchestration = o.transitions as f64
                * self.platform.orchestration.usd_per_1000_transitions
                / 1000.0;
            o.usd_per_run = (o.runs_completed > 0)
                .then(|| (stage_usd + orchestration) / o.runs_completed as f64);
            if !e2e.is_empty() {
                let (p50, p95) = crate::model::stats::whole_quantiles_unsorted(&mut e2e, 0.5, 0.95);
                o.end_to_end_p50_hours = Some(p50 / HOUR_S);
                o.end_to_end_p95_hours = Some(p95 / HOUR_S);
            }
            out.push(o);
        }
        (out, person_s)
    }
}

/// The stages of one pipeline in an order where each comes after its predecessors.
fn order_of(links: &[crate::model::scenario::pipeline::StageLinks]) -> Vec<usize> {
    let edges: Vec<(usize, usize)> = links
        .iter()
        .enumerate()
        .flat_map(|(s, l)| l.after.iter().map(move |&a| (a, s)))
        .collect();
    topological_order(links.len(), &edges)
}
