//! Data staging: an attempt's nodes read its data from the platform's storage after the
//! image pull, sharing the storage's throughput with every other node reading
//! ([`SharedReads`]); the attempt's compute starts when its read ends.
//!
//! A pool's nodes read only with each other: passes run one after another, and each starts
//! with no read under way.

use super::super::event_queue::Event;
use super::super::jobs::Job;
use super::super::reads::SharedReads;
use super::super::state::{ClassPlan, JobState, Phase, Staging};
use super::build::Sim;
use super::mechanism::{Counts, Mechanism, PoolStart, Registered, Setup};

/// Whether `state` is on attempt `attempt` and reading.
fn reading(state: &JobState, attempt: u32) -> bool {
    state.phase == Phase::Running && state.attempts == attempt && state.staging == Staging::Reading
}

/// The reads under way on the current pool of a platform that stages data.
#[derive(Clone)]
pub(super) struct DataStaging {
    /// The storage's throughput and each node's read limit, GB/s.
    storage_gb_per_s: f64,
    node_gb_per_s: f64,
    reads: SharedReads,
    /// Data staged (read before computing), GB.
    pub(super) staged_gb: f64,
}

impl Mechanism for DataStaging {
    /// On where the platform stages data.
    fn of(setup: &Setup) -> Option<DataStaging> {
        let staging = &setup.platform.staging;
        staging.stages().then(|| {
            let (storage, node) = (staging.throughput_gb_per_s(), staging.node_read_gb_per_s);
            DataStaging {
                storage_gb_per_s: storage,
                node_gb_per_s: node,
                reads: SharedReads::new(storage, node),
                staged_gb: 0.0,
            }
        })
    }

    fn enter_pool(&mut self, _pool: &PoolStart) {
        self.reads = SharedReads::new(self.storage_gb_per_s, self.node_gb_per_s);
    }

    fn attempt_started(&mut self, _job: &Job, plan: &ClassPlan) {
        self.staged_gb += plan.read_gb;
    }

    fn counts(&self) -> Counts {
        [self.staged_gb, 0.0, 0.0, 0.0]
    }

    fn forget(&mut self, before: &Counts) {
        self.staged_gb -= before[0];
    }

    /// The first read under way ends.
    fn handle(sim: &mut Sim<'_>, _n: usize) {
        sim.reads_end();
    }

    /// The `n`-th reads' end scheduled is stale once a read started or ended since.
    fn is_stale(sim: &Sim<'_>, n: usize) -> bool {
        sim.mech
            .staging
            .as_ref()
            .is_none_or(|s| s.reads.generation as usize != n)
    }
}

impl Sim<'_> {
    /// `job`'s attempt starts reading its data now, each of its nodes its share.
    pub(super) fn begin_read(&mut self, job: usize) {
        let nodes = self.states[job].holds.len().max(1) as u32;
        let per_node = self.plan(job).read_gb / f64::from(nodes);
        let st = &mut self.states[job];
        st.staging = Staging::Reading;
        let attempt = st.attempts;
        let now = self.now;
        if let Some(s) = self.mech.staging.as_mut() {
            s.reads.join(now, job, attempt, per_node, nodes);
        }
        self.schedule_reads_end();
    }

    /// `job`'s attempt is stopped while reading: its nodes stop reading (the others' share
    /// grows), and its read so far is its staging.
    pub(super) fn stop_read(&mut self, job: usize) {
        let nodes = self.states[job].holds.len().max(1) as u32;
        let st = &mut self.states[job];
        let staged = st.stage_s(self.now);
        st.staging = Staging::Staged(staged);
        if st.first_compute_s.is_none() {
            st.first_stage_s += staged;
        }
        let now = self.now;
        if let Some(s) = self.mech.staging.as_mut() {
            s.reads.leave(now, nodes);
        }
        self.schedule_reads_end();
    }

    /// The reads ended by now end: each attempt's compute is scheduled after its restart.
    fn reads_end(&mut self) {
        if let Some(s) = self.mech.staging.as_mut() {
            s.reads.pending_s = None;
        }
        loop {
            let now = self.now;
            let states = &self.states;
            let Some(s) = self.mech.staging.as_mut() else {
                return;
            };
            let Some((job, _)) = s.reads.pop_ended(now, |j, a| reading(&states[j], a)) else {
                break;
            };
            let nodes = self.states[job].holds.len().max(1) as u32;
            s.reads.leave(now, nodes);
            let st = &mut self.states[job];
            let staged = st.stage_s(now);
            st.staging = Staging::Staged(staged);
            if st.first_compute_s.is_none() {
                st.first_compute_s = Some(now + st.restart_s);
                st.first_stage_s += staged;
            }
            let generation = st.generation;
            let end = self.attempt_end_s(job);
            self.push(end, Event::AttemptEnd { job, generation });
        }
        self.schedule_reads_end();
    }

    /// Schedules the end of the first read under way. An end already scheduled at or before
    /// it stays (one due before any read ends finds none ended, and schedules the next):
    /// a read joining only moves ends later, so most changes push no event.
    fn schedule_reads_end(&mut self) {
        let states = &self.states;
        let Some(s) = self.mech.staging.as_mut() else {
            return;
        };
        let reads = &mut s.reads;
        let Some(at) = reads.next_end_s(|j, a| reading(&states[j], a)) else {
            return;
        };
        if at >= self.horizon_s || reads.pending_s.is_some_and(|p| p <= at) {
            return;
        }
        reads.generation = reads.generation.wrapping_add(1);
        reads.pending_s = Some(at);
        let n = reads.generation as usize;
        self.push(at, DataStaging::event(n));
    }
}
