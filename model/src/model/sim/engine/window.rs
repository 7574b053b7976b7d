//! The warm-up: the replication runs `warmup_days` before the measured window, so that the
//! window opens on a cluster with the work under way that any month but a cluster's first
//! has (deletion of the initial transient: Law & Kelton, *Simulation Modeling and Analysis*,
//! ch. 9). Nothing the warm-up simulates is measured.
//!
//! How: when the clock reaches the window's opening, a copy of the replication is ended
//! there as at a horizon ([`Sim::finish_horizon`]): what is under way is charged up to that
//! second, running compute as kept, as a horizon charges it. What that copy accrued is the
//! warm-up's, and comes off the replication's sums once it has run to its horizon
//! ([`Accrued`]). So the window's GPU time, dollars, counts and reads are those of the time
//! inside it, by the rule that ends every horizon; the replication itself runs on untouched
//! (the copy changes nothing it does). What is not a sum is measured in the window alone: the
//! queue waits and their parts of the jobs submitted in it, the most nodes alive at once
//! since it opened, the pipelines' runs that arrived in it.
//!
//! The services' own simulation covers the window alone: its state (replicas, queues) settles
//! within minutes, not days. Replicas on the training nodes hold their first count through
//! the warm-up, then follow their demand from the window's opening.

use super::super::state::{JobState, Phase};
use super::build::Sim;
use super::mechanism::Counts;
use crate::model::cost_category::PerCategory;

/// The measured window of a replication, and what its warm-up accrued.
#[derive(Clone, Default)]
pub(super) struct Window {
    /// When the window opens, s (0: no warm-up; nothing below is used then).
    pub(super) from_s: i64,
    /// Whether the current pool's pass has reached it.
    opened: bool,
    /// What the replication had accrued when the current pass began.
    pass_start: Accrued,
    /// What the warm-ups of the passes so far accrued.
    before: Accrued,
}

impl Window {
    /// A window opening at `from_s`.
    pub(super) fn new(from_s: i64) -> Window {
        Window {
            from_s,
            opened: from_s <= 0,
            ..Window::default()
        }
    }
}

/// What a replication has accrued so far, of what its outcome sums.
#[derive(Clone, Default)]
pub(super) struct Accrued {
    usd: PerCategory<f64>,
    gpu_s: PerCategory<f64>,
    useful_ref_gpu_s: f64,
    paid_gpu_s: f64,
    completed: u64,
    gave_up: u64,
    inflation_sum: f64,
    interruptions: u64,
    egress_gb: f64,
    data_read_gb: f64,
    class_spend: Vec<(f64, f64)>,
    class_preempted: Vec<u64>,
    mechanisms: Vec<Counts>,
}

impl Accrued {
    /// `self` less `earlier` (an empty `earlier`: nothing before).
    fn less(mut self, earlier: &Accrued) -> Accrued {
        self.add(earlier, -1.0);
        self
    }

    /// Adds `other` × `sign` (±1).
    fn add(&mut self, other: &Accrued, sign: f64) {
        let whole = |a: &mut u64, b: u64| {
            *a = if sign > 0.0 {
                a.saturating_add(b)
            } else {
                a.saturating_sub(b)
            }
        };
        for (c, v) in other.usd.iter() {
            self.usd[c] += sign * v;
        }
        for (c, v) in other.gpu_s.iter() {
            self.gpu_s[c] += sign * v;
        }
        self.useful_ref_gpu_s += sign * other.useful_ref_gpu_s;
        self.paid_gpu_s += sign * other.paid_gpu_s;
        whole(&mut self.completed, other.completed);
        whole(&mut self.gave_up, other.gave_up);
        self.inflation_sum += sign * other.inflation_sum;
        whole(&mut self.interruptions, other.interruptions);
        self.egress_gb += sign * other.egress_gb;
        self.data_read_gb += sign * other.data_read_gb;
        grow(&mut self.class_spend, other.class_spend.len());
        for (a, b) in self.class_spend.iter_mut().zip(&other.class_spend) {
            a.0 += sign * b.0;
            a.1 += sign * b.1;
        }
        grow(&mut self.class_preempted, other.class_preempted.len());
        for (a, &b) in self.class_preempted.iter_mut().zip(&other.class_preempted) {
            whole(a, b);
        }
        grow(&mut self.mechanisms, other.mechanisms.len());
        for (a, b) in self.mechanisms.iter_mut().zip(&other.mechanisms) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += sign * y;
            }
        }
    }
}

/// Makes `v` at least `len` long, with zeros.
fn grow<T: Default + Clone>(v: &mut Vec<T>, len: usize) {
    if v.len() < len {
        v.resize(len, T::default());
    }
}

/// `total` less `part`, 0 where what is left is the rounding of sums taken in two orders
/// (within 1e-9 of `part`).
fn less_rounding(total: f64, part: f64) -> f64 {
    let left = total - part;
    if left.abs() <= 1e-9 * part.abs() {
        0.0
    } else {
        left
    }
}

impl Sim<'_> {
    /// What the replication has accrued so far.
    fn accrued(&self) -> Accrued {
        let (l, t) = (&self.ledger, &self.tally);
        Accrued {
            usd: l.usd,
            gpu_s: l.gpu_s,
            useful_ref_gpu_s: l.useful_ref_gpu_s,
            paid_gpu_s: l.paid_gpu_s,
            completed: t.completed,
            gave_up: t.gave_up,
            inflation_sum: t.inflation_sum,
            interruptions: t.interruptions,
            egress_gb: t.egress_gb,
            data_read_gb: t.data_read_gb,
            class_spend: t.class_spend.clone(),
            class_preempted: t.class_preempted.clone(),
            mechanisms: self.mech.counts(),
        }
    }

    /// Whether the window opens before a step at `t` (then it is opened first).
    #[inline]
    pub(super) fn window_opens_by(&self, t: i64) -> bool {
        !self.window.opened && t >= self.window.from_s
    }

    /// A pool's pass begins: its warm-up counts from what has accrued so far.
    pub(super) fn window_pass_started(&mut self) {
        if self.window.from_s > 0 {
            self.window.opened = false;
            self.window.pass_start = self.accrued();
        }
    }

    /// The window opens: a copy of the replication ended here as at a horizon says what
    /// this pass's warm-up accrued; the most nodes at once counts from now.
    pub(super) fn open_window(&mut self) {
        self.window.opened = true;
        // Ending the pass changes only the states of the jobs it closes (running or holding
        // nodes in this pool): the copy borrows the job states, and those are put back after
        // (a copy of every job's state cost a third of a pipeline preset's run).
        let closed: Vec<(usize, JobState)> = (0..self.states.len())
            .filter(|&job| {
                self.in_this_pool(job)
                    && matches!(self.states[job].phase, Phase::Running | Phase::Holding)
            })
            .map(|job| (job, self.states[job].clone()))
            .collect();
        let states = std::mem::take(&mut self.states);
        let timeline = self.timeline.take();
        let mut warmup = self.clone();
        self.timeline = timeline;
        warmup.states = states;
        warmup.now = self.window.from_s;
        warmup.finish_horizon();
        let accrued = warmup.accrued().less(&self.window.pass_start);
        let mut states = std::mem::take(&mut warmup.states);
        for (job, state) in closed {
            states[job] = state;
        }
        self.states = states;
        self.window.before.add(&accrued, 1.0);
        self.capacity.peak = self.capacity.alive;
    }

    /// Once every pass has run to the horizon: what the warm-ups accrued comes off.
    pub(super) fn forget_warmup(&mut self) {
        if self.window.from_s <= 0 {
            return;
        }
        let b = std::mem::take(&mut self.window.before);
        let l = &mut self.ledger;
        for (c, v) in b.usd.iter() {
            l.usd[c] = less_rounding(l.usd[c], *v);
        }
        for (c, v) in b.gpu_s.iter() {
            l.gpu_s[c] = less_rounding(l.gpu_s[c], *v);
        }
        l.useful_ref_gpu_s = less_rounding(l.useful_ref_gpu_s, b.useful_ref_gpu_s);
        l.paid_gpu_s = less_rounding(l.paid_gpu_s, b.paid_gpu_s);
        let t = &mut self.tally;
        t.completed = t.completed.saturating_sub(b.completed);
        t.gave_up = t.gave_up.saturating_sub(b.gave_up);
        t.inflation_sum = less_rounding(t.inflation_sum, b.inflation_sum);
        t.interruptions = t.interruptions.saturating_sub(b.interruptions);
        t.egress_gb = less_rounding(t.egress_gb, b.egress_gb);
        t.data_read_gb = less_rounding(t.data_read_gb, b.data_read_gb);
        for (a, b) in t.class_spend.iter_mut().zip(&b.class_spend) {
            a.0 = less_rounding(a.0, b.0);
            a.1 = less_rounding(a.1, b.1);
        }
        for (a, &b) in t.class_preempted.iter_mut().zip(&b.class_preempted) {
            *a = a.saturating_sub(b);
        }
        self.mech.forget(&b.mechanisms);
    }

    /// Whether a job submitted at `submitted_s` is measured: submitted in the window.
    #[inline]
    pub(super) fn in_window(&self, submitted_s: i64) -> bool {
        submitted_s >= self.window.from_s
    }
}
