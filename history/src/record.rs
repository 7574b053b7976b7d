//! One job as every reader hands it to the fit: when it arrived and started, how long it ran,
//! on how many GPUs, and how it ended.

use super::clock::Instant;
use serde::{Deserialize, Serialize};

/// How a recorded job ended, as the fit counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Ran to completion.
    Succeeded,
    /// Ended by an error of its own or of its node (failed, out of memory, node or boot
    /// failure, deadline): counts towards the class's failure share.
    Failed,
    /// Stopped at its time limit (Slurm's TIMEOUT): it computed until then, and its work
    /// survives if it checkpointed. Read as kept work ([`TimeoutsAs::Kept`], the default) or
    /// as a failure ([`TimeoutsAs::Failed`]), as the import's options say.
    TimedOut,
    /// Cancelled by a user: an arrival whose run time counts, not a failure.
    Cancelled,
    /// Preempted or requeued by the scheduler: its run time counts, not a failure.
    Interrupted,
    /// Still running (or suspended) when the history was taken: its run time so far is a
    /// lower bound (censored).
    StillRunning,
    /// Submitted but never started: no run time.
    NeverStarted,
    /// No outcome recorded.
    Unknown,
}

impl Outcome {
    /// What the fit does with a job of this outcome, in a few words.
    pub fn treatment(self) -> &'static str {
        match self {
            Outcome::Succeeded => "completed",
            Outcome::Failed => "failed (counts in the failure share)",
            Outcome::TimedOut => {
                "hit its time limit (its run counts as work kept, to its last checkpoint)"
            }
            Outcome::Cancelled => "cancelled (its run time counts; not a failure)",
            Outcome::Interrupted => "preempted or requeued (its run time counts; not a failure)",
            Outcome::StillRunning => "still running (run time so far, a lower bound)",
            Outcome::NeverStarted => "never started (submitted, no run time)",
            Outcome::Unknown => "no outcome",
        }
    }

    /// Whether the job ran, so that its duration is known (exactly or as a lower bound).
    pub fn ran(self) -> bool {
        self != Outcome::NeverStarted
    }
}

/// A job as read from a history, before any fit.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRecord {
    /// Line of the file where the job's record starts.
    pub line: u64,
    /// Submitted, when the file says.
    pub submit: Option<Instant>,
    /// Started, when the file says.
    pub start: Option<Instant>,
    /// Run time, seconds (`None` when it never started).
    pub run_s: Option<f64>,
    /// Whole GPUs the job held.
    pub gpus: u32,
    /// The share of one GPU, when the job asked for less than a whole one (0–1).
    pub gpu_share: Option<f64>,
    /// The GPU model as written, if any.
    pub gpu_model: Option<String>,
    /// How it ended.
    pub outcome: Outcome,
    /// The account, user or namespace it ran under, if the file has one.
    pub team: Option<String>,
}

impl JobRecord {
    /// When the job arrived for the fit: its submission, else its start.
    pub fn arrival(&self) -> Option<Instant> {
        self.submit.or(self.start)
    }
}

/// How many of a written state were read, and the outcome it became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateCount {
    /// The state as the file spells it (`CANCELLED by …` for every user's cancellations).
    pub written: String,
    /// What the fit took it as.
    pub outcome: Outcome,
    /// Jobs with it.
    pub jobs: usize,
}

/// Adds one job with state `written` to `counts`.
pub fn count_state(counts: &mut Vec<StateCount>, written: &str, outcome: Outcome) {
    match counts.iter_mut().find(|c| c.written == written) {
        Some(c) => c.jobs += 1,
        None => counts.push(StateCount {
            written: written.to_string(),
            outcome,
            jobs: 1,
        }),
    }
}

/// GPU models the catalog knows, matched in this order (so `L40S` is not read as `L4`).
const KNOWN_GPUS: &[&str] = &["H200", "H100", "A100", "L40S", "A10G", "V100", "T4", "L4"];

/// The catalog's name for a GPU model written as e.g. "NVIDIA A100-SXM4-80GB" or Slurm's
/// `a100_80g`.
pub fn canonical_gpu(text: &str) -> Option<&'static str> {
    let upper = text.to_ascii_uppercase();
    KNOWN_GPUS.iter().copied().find(|g| upper.contains(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_names_match_the_catalog() {
        assert_eq!(canonical_gpu("NVIDIA A100-SXM4-80GB"), Some("A100"));
        assert_eq!(canonical_gpu("nvidia-l40s"), Some("L40S"));
        assert_eq!(canonical_gpu("NVIDIA L4"), Some("L4"));
        assert_eq!(canonical_gpu("a100_80g"), Some("A100"));
        assert_eq!(canonical_gpu("MI300X"), None);
        // Every name it knows is a row of the GPU table.
        for gpu in KNOWN_GPUS {
            assert!(gpucost_model::model::gpus::find(gpu).is_some(), "{gpu}");
        }
    }
}

/// What a job stopped at its time limit (Slurm's TIMEOUT: "terminated upon reaching its time
/// limit") is taken as: the import's stated assumption.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutsAs {
    /// Its run is work kept, as a job that checkpoints keeps its work to its last checkpoint:
    /// training jobs on Slurm commonly run to their limit, save, and resume in a new job.
    #[default]
    Kept,
    /// A failure: its run counts in the failure share, its work lost, as for a job that
    /// saves nothing before its limit.
    Failed,
}
