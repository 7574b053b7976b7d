//! The cost ledger of one platform's replication: every paid GPU-second and its dollars,
//! charged to one [`Category`] where it is spent, and the kept compute of each job that could
//! still give up.
//!
//! Invariant: the GPU-time categories of [`Ledger::gpu_s`] add up to [`Ledger::paid_gpu_s`]
//! once the horizon is charged (the invariant tests check it). A job that gives up moves all
//! its kept compute (useful, storage slowdown, scaling loss) to failed attempts.

use crate::model::cost_category::{Breakdown, Category, PerCategory};

/// Dollars and GPU-seconds charged to one category.
#[derive(Debug, Clone, Copy, Default)]
struct Charge {
    usd: f64,
    gpu_s: f64,
}

impl Charge {
    fn add(&mut self, gpu_seconds: f64, usd_per_gpu_s: f64) {
        self.usd += gpu_seconds * usd_per_gpu_s;
        self.gpu_s += gpu_seconds;
    }
}

/// Kept compute of a job charged so far, by the category it went to, to move to failed
/// attempts if the job gives up.
#[derive(Debug, Clone, Copy, Default)]
struct KeptCompute {
    useful: Charge,
    storage_read_slowdown: Charge,
    multi_node_scaling_loss: Charge,
}

impl KeptCompute {
    /// The parts in the order they are charged.
    fn parts(&self) -> [(Category, Charge); 3] {
        [
            (Category::UsefulCompute, self.useful),
            (Category::StorageReadSlowdown, self.storage_read_slowdown),
            (Category::MultiNodeScalingLoss, self.multi_node_scaling_loss),
        ]
    }
}

/// What one platform's replication has paid, by category.
#[derive(Debug, Clone)]
pub(super) struct Ledger {
    /// USD over the horizon, by category (GPU time only; the other costs are monthly and
    /// added by the outcome).
    pub usd: Breakdown,
    /// Paid GPU-seconds, by category (GPU time only).
    pub gpu_s: PerCategory<f64>,
    /// Useful reference-GPU-seconds (useful compute × relative throughput).
    pub useful_ref_gpu_s: f64,
    /// Billed GPU-seconds, measured from node billing (not from the categories).
    pub paid_gpu_s: f64,
    /// Per job, only where some job class can fail (only a job that fails gives up); empty
    /// otherwise, so a run without failures carries none of it.
    kept: Vec<KeptCompute>,
    relative_throughput: f64,
    /// Of kept single-node compute: the share that is useful and the share that is storage
    /// slowdown (they add up to 1).
    useful_share: f64,
    slowdown_share: f64,
}

impl Ledger {
    /// An empty ledger for `jobs` jobs (their kept compute tracked if `can_fail`), on GPUs of
    /// `relative_throughput` whose compute is slowed by storage reads by `slowdown` (0.12 =
    /// +12 %).
    pub fn new(jobs: usize, can_fail: bool, relative_throughput: f64, slowdown: f64) -> Ledger {
        Ledger {
            usd: Breakdown::default(),
            gpu_s: PerCategory::default(),
            useful_ref_gpu_s: 0.0,
            paid_gpu_s: 0.0,
            kept: if can_fail {
                vec![KeptCompute::default(); jobs]
            } else {
                Vec::new()
            },
            relative_throughput,
            useful_share: 1.0 / (1.0 + slowdown),
            slowdown_share: slowdown / (1.0 + slowdown),
        }
    }

    /// Prices the useful compute charged from now on at GPUs of `relative_throughput` (a
    /// platform's pools differ).
    pub fn set_relative_throughput(&mut self, relative_throughput: f64) {
        self.relative_throughput = relative_throughput;
    }

    /// Charges `gpu_seconds` at `usd_per_gpu_s` to `category` (nothing for none).
    #[inline]
    pub fn charge(&mut self, category: Category, gpu_seconds: f64, usd_per_gpu_s: f64) {
        if gpu_seconds <= 0.0 {
            return;
        }
        let usd = gpu_seconds * usd_per_gpu_s;
        self.usd[category] += usd;
        self.gpu_s[category] += gpu_seconds;
    }

    /// Charges `gpu_seconds` of compute that `job` keeps as useful, storage slowdown and
    /// scaling loss (at `efficiency`), and remembers it for a possible give-up.
    pub fn charge_kept(
        &mut self,
        job: usize,
        gpu_seconds: f64,
        usd_per_gpu_s: f64,
        efficiency: f64,
    ) {
        if gpu_seconds <= 0.0 {
            return;
        }
        let scaling = gpu_seconds * (1.0 - efficiency);
        let rest = gpu_seconds - scaling;
        let useful = rest * self.useful_share;
        let slowdown = rest * self.slowdown_share;
        self.charge(Category::UsefulCompute, useful, usd_per_gpu_s);
        self.charge(Category::StorageReadSlowdown, slowdown, usd_per_gpu_s);
        self.charge(Category::MultiNodeScalingLoss, scaling, usd_per_gpu_s);
        if let Some(kept) = self.kept.get_mut(job) {
            kept.useful.add(useful, usd_per_gpu_s);
            kept.storage_read_slowdown.add(slowdown, usd_per_gpu_s);
            kept.multi_node_scaling_loss.add(scaling, usd_per_gpu_s);
        }
        self.useful_ref_gpu_s += useful * self.relative_throughput;
    }

    /// `job` gave up: all its kept compute becomes failed-attempt cost.
    pub fn give_up(&mut self, job: usize) {
        let kept = self
            .kept
            .get_mut(job)
            .map(std::mem::take)
            .unwrap_or_default();
        for (category, part) in kept.parts() {
            // What was charged comes off again. Where it was all of the category, rounding
            // in the sums leaves a whisker (±1e-14) that is no cost: it would make the
            // category depend on the price in the last bits.
            self.usd[category] = without(self.usd[category], part.usd);
            self.gpu_s[category] = without(self.gpu_s[category], part.gpu_s);
            self.usd[Category::FailedAttempts] += part.usd;
            self.gpu_s[Category::FailedAttempts] += part.gpu_s;
            if category == Category::UsefulCompute {
                self.useful_ref_gpu_s -= part.gpu_s * self.relative_throughput;
            }
        }
    }
}

/// `total` less `part`, 0 where what is left is rounding (within 1e-9 of `part`).
fn without(total: f64, part: f64) -> f64 {
    let left = total - part;
    if left.abs() <= 1e-9 * part.abs() {
        0.0
    } else {
        left.max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_compute_splits_by_slowdown_and_scaling_and_moves_on_give_up() {
        // 1,000 GPU-s kept on a 2-node job at 0.8 efficiency, +25 % slowdown, $0.01/GPU-s:
        // scaling 200, then 800 split 640 useful and 160 slowdown.
        let mut ledger = Ledger::new(1, true, 2.0, 0.25);
        ledger.charge_kept(0, 1_000.0, 0.01, 0.8);
        assert!((ledger.gpu_s[Category::MultiNodeScalingLoss] - 200.0).abs() < 1e-9);
        assert!((ledger.gpu_s[Category::UsefulCompute] - 640.0).abs() < 1e-9);
        assert!((ledger.gpu_s[Category::StorageReadSlowdown] - 160.0).abs() < 1e-9);
        assert!((ledger.useful_ref_gpu_s - 1_280.0).abs() < 1e-9);
        assert!((ledger.usd.gpu_time_total() - 10.0).abs() < 1e-9);
        ledger.give_up(0);
        assert!((ledger.gpu_s[Category::FailedAttempts] - 1_000.0).abs() < 1e-9);
        assert!((ledger.usd[Category::FailedAttempts] - 10.0).abs() < 1e-9);
        assert!(ledger.gpu_s[Category::UsefulCompute].abs() < 1e-9);
        assert!(ledger.useful_ref_gpu_s.abs() < 1e-9);
    }
}
