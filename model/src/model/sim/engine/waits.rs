//! The parts of a job's first queue wait spent on nodes: waiting for capacity and
//! provisioning on the node it waited for longest. The rest of the wait for nodes is waiting
//! for a free slot on the nodes there were; the image-pull part is counted per attempt.

use super::build::Sim;

impl Sim<'_> {
    /// Adds the parts of a job's queue wait up to now ([`Sim::node_wait_parts`]) to the
    /// replication's, while its first compute has not started: when an attempt starts, or at
    /// the horizon for a job still holding nodes then. A job whose attempt a spot
    /// interruption stopped before its compute began counts the nodes it waits for next too.
    pub(super) fn count_first_wait_parts(&mut self, job: usize) {
        // (A job submitted in the warm-up is not measured.)
        if self.states[job].first_compute_s.is_some()
            || !self.in_window(self.states[job].submitted_s)
        {
            return;
        }
        let (capacity, provisioning) = self.node_wait_parts(job, self.now);
        self.tally.wait_capacity_s += capacity;
        self.tally.wait_provisioning_s += provisioning;
    }

    /// The parts of a job's queue wait spent on the node it waited for longest (the one of
    /// its holds ready last, or not ready by `end`), counted from when it took that node:
    /// waiting for capacity (requested, not yet provisioning) and provisioning, s.
    fn node_wait_parts(&self, job: usize, end: i64) -> (i64, i64) {
        let mut parts = (0, 0);
        let mut last_ready = i64::MIN;
        for hold in &self.states[job].holds {
            let n = &self.nodes[hold.node()];
            let ready = if n.ready { n.ready_at_s.min(end) } else { end };
            if ready > last_ready {
                last_ready = ready;
                let from = hold.since_s;
                let capacity = (n.billing_start_s.min(ready) - from).max(0);
                let provisioning = (ready - from.max(n.billing_start_s)).max(0);
                parts = (capacity, provisioning);
            }
        }
        parts
    }
}
