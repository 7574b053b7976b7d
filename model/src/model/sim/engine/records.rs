//! The timeline's records, kept only when a timeline is asked for: each node from its
//! request, each attempt when it ends.

use super::super::state::{Close, NodeKind};
use super::super::timeline::{AttemptEnd, AttemptSpan, NodeSpan};
use super::build::Sim;

impl Sim<'_> {
    /// Adds a node of `kind` requested now, billed from `billing_start`, to the timeline.
    pub(super) fn record_node(&mut self, kind: NodeKind, billing_start: i64) {
        let span = NodeSpan {
            kind: match kind {
                NodeKind::Reserved => "reserved",
                NodeKind::OnDemand => "on_demand",
                NodeKind::Spot => "spot",
            },
            requested_s: self.now,
            billing_start_s: billing_start,
            ready_s: None,
            end_s: self.horizon_s,
            lost_to: None,
            pool: self.pass.index,
            gpus: self.pass.pool.gpus_per_node,
        };
        if let Some(t) = self.timeline.as_mut() {
            t.nodes.push(span);
        }
    }

    /// Adds the attempt of `job` that `end` closes now to the timeline.
    pub(super) fn record_attempt(&mut self, job: usize, end: Close) {
        let st = &self.states[job];
        // An attempt closed while reading has its read so far as its staging.
        let stage_s = st.stage_s(self.now);
        let span = AttemptSpan {
            job,
            class: self.jobs[job].class,
            nodes: st.holds.iter().map(|h| (h.node(), h.used)).collect(),
            start_s: st.attempt_start_s,
            compute_start_s: (st.attempt_start_s + st.pull_s + st.restart_s + stage_s)
                .min(self.now),
            end_s: self.now,
            ended: match end {
                Close::Finished => AttemptEnd::Finished,
                // (The timeline draws a node failure as an interruption with no notice.)
                Close::Interrupted { .. } | Close::NodeFailed => AttemptEnd::Interrupted,
                Close::Preempted { .. } => AttemptEnd::Preempted,
                Close::Failed => AttemptEnd::Failed,
                Close::Horizon => AttemptEnd::Horizon,
            },
        };
        if let Some(t) = self.timeline.as_mut() {
            t.attempts.push(span);
        }
    }
}
