//! Teams on one platform's replication ([`crate::model::scenario::teams`]): the waiting jobs
//! in priority order, admission by quota within the cohort of the platform's teams, and
//! preemption, in Kueue's order of victims (kueue.sigs.k8s.io, "Preemption"): borrowers
//! first, then the lowest priority, then the most recently admitted.
//!
//! Quotas count the GPUs jobs ask for (milli-GPUs), not the nodes they hold, as Kueue counts
//! pod requests. A platform with no team policy and no preemption has no [`Teams`], and its
//! jobs are served first come first served, as before.

use super::super::outcome::PlatformOutcome;
use super::super::state::{Close, Phase};
use super::build::Sim;
use super::mechanism::{Counts, Mechanism, PoolStart, Setup};
use crate::model::scenario::gpu_sharing::milli_gpus;
use crate::model::scenario::Preemption;

/// No team policy: no quota, priority 0.
const NO_POLICY: usize = usize::MAX;
/// Not admitted.
const OUT: u32 = u32::MAX;

/// The teams of one platform's replication, and what their admitted jobs hold.
#[derive(Clone)]
pub(super) struct Teams {
    /// Per job class: its team's policy (an index), or [`NO_POLICY`].
    class_team: Vec<usize>,
    /// Per job class: its priority level, 0 the highest.
    pub(super) class_level: Vec<u32>,
    /// Priority levels.
    pub(super) levels: u32,
    /// Per job class: milli-GPUs a job asks for.
    class_need: Vec<u64>,
    /// Per team policy: its nominal quota and borrowing limit, milli-GPUs (`None`: no quota;
    /// no limit).
    nominal: Vec<Option<u64>>,
    borrow_limit: Vec<Option<u64>>,
    /// Per team policy: milli-GPUs its admitted jobs ask for (this pool's pass).
    usage: Vec<u64>,
    /// The quotas of the teams that have one, and what their admitted jobs ask for.
    cohort_nominal: u64,
    cohort_usage: u64,
    preemption: Preemption,
    /// The jobs admitted now, in no order, and each job's place in that list ([`OUT`]: not
    /// admitted).
    admitted: Vec<u32>,
    place: Vec<u32>,
    /// When each job was last admitted, s.
    admitted_at: Vec<i64>,
    /// Admitted jobs per priority level.
    admitted_per_level: Vec<u32>,
    /// Jobs evicted.
    preemptions: u64,
}

impl Mechanism for Teams {
    /// The teams of the platform; `None` where it has no policy and no preemption (first
    /// come first served).
    fn of(setup: &Setup) -> Option<Teams> {
        let (scenario, platform, jobs) = (setup.scenario, setup.platform, setup.jobs.len());
        if platform.teams.is_empty() && platform.preemption.is_off() {
            return None;
        }
        // Borrowing within a cohort is Kueue's; a Slurm QOS limit and AWS Batch have none.
        let cohorts = platform.runs_kubernetes();
        let class_team: Vec<usize> = scenario
            .job_classes
            .iter()
            .map(|c| {
                platform
                    .teams
                    .iter()
                    .position(|t| t.team == c.team)
                    .unwrap_or(NO_POLICY)
            })
            .collect();
        let priority = |team: usize| platform.teams.get(team).map_or(0, |t| t.priority);
        let mut priorities: Vec<i32> = class_team.iter().map(|&t| priority(t)).collect();
        priorities.sort_unstable_by(|a, b| b.cmp(a));
        priorities.dedup();
        let class_level = class_team
            .iter()
            .map(|&t| {
                priorities
                    .iter()
                    .position(|&p| p == priority(t))
                    .unwrap_or(0) as u32
            })
            .collect();
        let milli = |gpus: f64| u64::from(milli_gpus(gpus));
        let nominal: Vec<Option<u64>> = platform
            .teams
            .iter()
            .map(|t| t.nominal_gpus.map(milli))
            .collect();
        Some(Teams {
            class_level,
            levels: priorities.len().max(1) as u32,
            class_need: scenario
                .job_classes
                .iter()
                .map(|c| u64::from(c.gpu_milli().max(1)))
                .collect(),
            borrow_limit: platform
                .teams
                .iter()
                .map(|t| {
                    if cohorts {
                        t.borrowing_limit_gpus.map(milli)
                    } else {
                        Some(0)
                    }
                })
                .collect(),
            usage: vec![0; nominal.len()],
            cohort_nominal: nominal.iter().flatten().sum(),
            cohort_usage: 0,
            nominal,
            class_team,
            preemption: platform.preemption.clone(),
            admitted: Vec::new(),
            place: vec![OUT; jobs],
            admitted_at: vec![0; jobs],
            admitted_per_level: vec![0; priorities.len().max(1)],
            preemptions: 0,
        })
    }

    fn report(&self, outcome: &mut PlatformOutcome) {
        outcome.preemptions += self.preemptions;
    }

    fn counts(&self) -> Counts {
        [self.preemptions as f64, 0.0, 0.0, 0.0]
    }

    fn forget(&mut self, before: &Counts) {
        self.preemptions = self.preemptions.saturating_sub(before[0] as u64);
    }

    /// A new pool's pass: nothing admitted.
    fn enter_pool(&mut self, _pool: &PoolStart) {
        self.usage.iter_mut().for_each(|u| *u = 0);
        self.cohort_usage = 0;
        for &job in &self.admitted {
            self.place[job as usize] = OUT;
        }
        self.admitted.clear();
        self.admitted_per_level.iter_mut().for_each(|n| *n = 0);
    }
}

impl Teams {
    /// Whether a job of `class` may be admitted now: within its team's quota, or borrowing
    /// within its limit what the cohort's quotas leave unused.
    pub(super) fn admits(&self, class: usize) -> bool {
        let team = self.class_team[class];
        let Some(Some(nominal)) = self.nominal.get(team) else {
            return true;
        };
        let need = self.class_need[class];
        let after = self.usage[team] + need;
        if after > *nominal {
            let borrowed = after - nominal;
            if self.borrow_limit[team].is_some_and(|limit| borrowed > limit) {
                return false;
            }
        }
        self.cohort_usage + need <= self.cohort_nominal
    }

    /// Counts `job` (of `class`) as admitted at `now`.
    pub(super) fn admit(&mut self, job: usize, class: usize, now: i64) {
        if self.place[job] != OUT {
            return;
        }
        let team = self.class_team[class];
        if let Some(Some(_)) = self.nominal.get(team) {
            self.usage[team] += self.class_need[class];
            self.cohort_usage += self.class_need[class];
        }
        self.place[job] = self.admitted.len() as u32;
        self.admitted.push(job as u32);
        self.admitted_at[job] = now;
        self.admitted_per_level[self.class_level[class] as usize] += 1;
    }

    /// `job` (of `class`) holds nothing any more.
    pub(super) fn release(&mut self, job: usize, class: usize) {
        let at = self.place[job];
        if at == OUT {
            return;
        }
        let team = self.class_team[class];
        if let Some(Some(_)) = self.nominal.get(team) {
            self.usage[team] -= self.class_need[class];
            self.cohort_usage -= self.class_need[class];
        }
        let last = self.admitted.pop().expect("an admitted job");
        if last as usize != job {
            self.admitted[at as usize] = last;
            self.place[last as usize] = at;
        }
        self.place[job] = OUT;
        self.admitted_per_level[self.class_level[class] as usize] -= 1;
    }

    /// Whether a team is borrowing beyond its quota.
    fn borrowing(&self, team: usize) -> bool {
        matches!(self.nominal.get(team), Some(Some(n)) if self.usage[team] > *n)
    }

    /// Whether a waiting job at priority `level` might evict someone: a lower priority is
    /// admitted (with priority preemption), or a team borrows (with quota reclaim).
    pub(super) fn may_preempt_at(&self, level: u32) -> bool {
        (self.preemption.lower_priority
            && self.admitted_per_level[level as usize + 1..]
                .iter()
                .any(|&n| n > 0))
            || (self.preemption.reclaim_quota
                && (0..self.usage.len()).any(|team| self.borrowing(team)))
    }

    /// Whether preemption is on at all.
    pub(super) fn preempts(&self) -> bool {
        !self.preemption.is_off()
    }

    /// Grace period of an eviction, s.
    pub(super) fn grace_period_s(&self) -> f64 {
        self.preemption.grace_period_s
    }

    /// The jobs a waiting job of `class` may evict, in Kueue's order (borrowers first, then
    /// the lowest priority, then the most recently admitted): the borrowers' where its team
    /// is within its quota (quota reclaim), and lower priorities' (priority preemption) of
    /// its own team, of a team borrowing, or of any team when it is within its own quota (a
    /// job borrowing beyond its quota never evicts a team within its own: that team would
    /// reclaim it, and back). Empty when together they ask for fewer GPUs than the job.
    pub(super) fn victims(&self, class: usize, job_class: impl Fn(usize) -> usize) -> Vec<usize> {
        let team = self.class_team[class];
        let level = self.class_level[class];
        let need = self.class_need[class];
        let within =
            matches!(self.nominal.get(team), Some(Some(n)) if self.usage[team] + need <= *n);
        let borrows = matches!(self.nominal.get(team), Some(Some(_))) && !within;
        let reclaims = self.preemption.reclaim_quota && within;
        let mut out: Vec<(bool, u32, i64, usize)> = self
            .admitted
            .iter()
            .map(|&v| v as usize)
            .filter_map(|v| {
                let c = job_class(v);
                let t = self.class_team[c];
                let borrower = t != team && self.borrowing(t);
                let lower = self.class_level[c] > level && (!borrows || borrower || t == team);
                ((reclaims && borrower) || (self.preemption.lower_priority && lower))
                    // Lowest priority is the highest level; most recent the latest.
                    .then(|| {
                        (
                            !borrower,
                            u32::MAX - self.class_level[c],
                            -self.admitted_at[v],
                            v,
                        )
                    })
            })
            .collect();
        let freed: u64 = out.iter().map(|x| self.class_need[job_class(x.3)]).sum();
        if freed < need {
            return Vec::new();
        }
        out.sort_unstable();
        out.into_iter().map(|x| x.3).collect()
    }

    /// Counts an eviction.
    pub(super) fn count_preemption(&mut self) {
        self.preemptions += 1;
    }
}

impl Sim<'_> {
    /// The waiting queue's key of `job`: its priority level's block, then its index.
    #[inline]
    pub(super) fn queue_key(&self, job: usize) -> usize {
        // In submission order: the job's index, or where pipelines submit stages later than
        // their run arrives, its place among the submissions.
        let order = match &self.mech.pipelines {
            Some(runs) => runs.key(job),
            None => job,
        };
        match &self.mech.teams {
            Some(t) => t.class_level[self.jobs[job].class] as usize * self.jobs.len() + order,
            None => order,
        }
    }

    /// The job of a waiting queue's key.
    #[inline]
    pub(super) fn job_of_key(&self, key: usize) -> usize {
        let order = match &self.mech.teams {
            Some(_) => key % self.jobs.len().max(1),
            None => key,
        };
        match &self.mech.pipelines {
            Some(runs) => runs.job_at(order),
            None => order,
        }
    }

    /// Evicts, in Kueue's order, the jobs that `job` may evict until it is placed; whether
    /// it was. Nothing is evicted unless the candidates together ask for its GPUs.
    pub(super) fn evict_for(&mut self, job: usize) -> bool {
        let class = self.jobs[job].class;
        let Some(teams) = &self.mech.teams else {
            return false;
        };
        let victims = teams.victims(class, |v| self.jobs[v].class);
        let grace = teams.grace_period_s();
        for victim in victims {
            if !matches!(self.states[victim].phase, Phase::Running | Phase::Holding) {
                continue;
            }
            let c = &self.scenario.job_classes[self.jobs[victim].class];
            let on_notice = c.checkpoints_within(grace);
            if self.stop_job(victim, Close::Preempted { on_notice }) {
                if let Some(t) = self.mech.teams.as_mut() {
                    t.count_preemption();
                }
                self.tally.class_preempted[self.jobs[victim].class] += 1;
            }
            if self.try_place(job) {
                return true;
            }
        }
        false
    }
}
