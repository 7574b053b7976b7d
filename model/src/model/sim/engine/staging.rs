//! Data staging: an attempt's nodes read its data from the platform's storage after the
//! image pull, sharing the storage's throughput with every other node reading
//! ([`SharedReads`]); the attempt's compute starts when its read ends.

use super::super::event_queue::Event;
use super::super::reads::SharedReads;
use super::super::state::{JobState, Phase, Staging};
use super::build::Sim;

/// Whether `state` is on attempt `attempt` and reading.
fn reading(state: &JobState, attempt: u32) -> bool {
    state.phase == Phase::Running && state.attempts == attempt && state.staging == Staging::Reading
}

impl Sim<'_> {
    /// The shared reads of a pass, where the platform stages data.
    pub(super) fn new_reads(&self) -> Option<SharedReads> {
        let staging = &self.platform.staging;
        staging
            .stages()
            .then(|| SharedReads::new(staging.throughput_gb_per_s(), staging.node_read_gb_per_s))
    }

    /// `job`'s attempt starts reading its data now, each of its nodes its share.
    pub(super) fn begin_read(&mut self, job: usize) {
        let nodes = self.states[job].holds.len().max(1) as u32;
        let per_node = self.plan(job).read_gb / f64::from(nodes);
        let st = &mut self.states[job];
        st.staging = Staging::Reading;
        let attempt = st.attempts;
        let now = self.now;
        if let Some(reads) = self.reads.as_mut() {
            reads.join(now, job, attempt, per_node, nodes);
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
        if let Some(reads) = self.reads.as_mut() {
            reads.leave(now, nodes);
        }
        self.schedule_reads_end();
    }

    /// The reads ended by now end: each attempt's compute is scheduled after its restart.
    pub(super) fn reads_end(&mut self) {
        if let Some(reads) = self.reads.as_mut() {
            reads.pending_s = None;
        }
        loop {
            let now = self.now;
            let states = &self.states;
            let Some(reads) = self.reads.as_mut() else {
                return;
            };
            let Some((job, _)) = reads.pop_ended(now, |j, a| reading(&states[j], a)) else {
                break;
            };
            let nodes = self.states[job].holds.len().max(1) as u32;
            reads.leave(now, nodes);
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
        let Some(reads) = self.reads.as_mut() else {
            return;
        };
        let Some(at) = reads.next_end_s(|j, a| reading(&states[j], a)) else {
            return;
        };
        if at >= self.horizon_s || reads.pending_s.is_some_and(|p| p <= at) {
            return;
        }
        reads.generation = reads.generation.wrapping_add(1);
        reads.pending_s = Some(at);
        let n = reads.generation as usize;
        self.push(at, Event::ReadsEnd(n));
    }
}
