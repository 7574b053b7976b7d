//! Data staging reads under way on one pool's pass, sharing the storage's throughput.
//!
//! Each node of a staging job reads its share of the job's data. A node reads at
//! min(the per-node limit, the storage's throughput ÷ the nodes reading now), and that share
//! is worked out again whenever a read starts or ends (processor sharing): a storage system
//! serves its clients together, so a read that starts alone slows down when others join and
//! speeds up when they finish. (A share fixed when a read starts would let the first of 20
//! jobs started together read at the full throughput and the last at a twentieth, an order
//! no file system keeps.)
//!
//! Every reading node reads at the same rate, so one number tracks them all: `progress_gb`,
//! the GB a node reading since the pass began would have read. A read of g GB per node that
//! starts at progress p ends when the progress reaches p + g; the reads end in the order of
//! those targets, a heap keeps them, and only the first one's end is ever scheduled (again
//! after each change of the rate). Times are whole seconds: a read ends at the first second
//! its target is reached.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// One read under way: the progress at which it ends, its job and the attempt reading.
#[derive(Debug, Clone, Copy)]
struct Target {
    gb: f64,
    job: u32,
    attempt: u32,
}

impl PartialEq for Target {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Target {}

impl Ord for Target {
    /// Reversed (the heap is a max-heap and the smallest target ends first); equal targets
    /// by job, the lower first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .gb
            .total_cmp(&self.gb)
            .then(other.job.cmp(&self.job))
            .then(other.attempt.cmp(&self.attempt))
    }
}

impl PartialOrd for Target {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The reads of one pass.
#[derive(Debug, Clone)]
pub(crate) struct SharedReads {
    /// The storage's throughput, GB/s (infinite: object storage with no limit set).
    storage_gb_per_s: f64,
    /// What one node reads at most, GB/s.
    node_gb_per_s: f64,
    /// Nodes reading now.
    readers: u64,
    /// GB a node reading since the pass began would have read by `at_s`.
    progress_gb: f64,
    at_s: i64,
    targets: BinaryHeap<Target>,
    /// Counts the ends scheduled: only the latest is live.
    pub(crate) generation: u32,
    /// When the live end is due, s, if one is scheduled.
    pub(crate) pending_s: Option<i64>,
}

impl SharedReads {
    /// No reads, on storage of `storage_gb_per_s` with nodes reading at most
    /// `node_gb_per_s`.
    pub(crate) fn new(storage_gb_per_s: f64, node_gb_per_s: f64) -> SharedReads {
        SharedReads {
            storage_gb_per_s,
            node_gb_per_s,
            readers: 0,
            progress_gb: 0.0,
            at_s: 0,
            targets: BinaryHeap::new(),
            generation: 0,
            pending_s: None,
        }
    }

    /// What each reading node reads now, GB/s.
    pub(crate) fn rate_gb_per_s(&self) -> f64 {
        if self.readers == 0 {
            return self.node_gb_per_s;
        }
        self.node_gb_per_s
            .min(self.storage_gb_per_s / self.readers as f64)
    }

    fn advance(&mut self, now: i64) {
        if self.readers > 0 {
            self.progress_gb += self.rate_gb_per_s() * (now - self.at_s) as f64;
        }
        self.at_s = now;
    }

    /// `nodes` nodes of `job`'s attempt `attempt` start reading `gb_per_node` each, now.
    pub(crate) fn join(
        &mut self,
        now: i64,
        job: usize,
        attempt: u32,
        gb_per_node: f64,
        nodes: u32,
    ) {
        self.advance(now);
        self.readers += u64::from(nodes);
        self.targets.push(Target {
            gb: self.progress_gb + gb_per_node,
            job: job as u32,
            attempt,
        });
    }

    /// `nodes` nodes stop reading now before their read ended (the attempt was stopped);
    /// its target stays in the heap until `is_live` says it is gone.
    pub(crate) fn leave(&mut self, now: i64, nodes: u32) {
        self.advance(now);
        self.readers -= u64::from(nodes).min(self.readers);
    }

    /// When the first live read ends, s (`None`: none is under way); `is_live(job,
    /// attempt)` tells a read under way from one whose attempt was stopped.
    pub(crate) fn next_end_s(&mut self, is_live: impl Fn(usize, u32) -> bool) -> Option<i64> {
        while let Some(top) = self.targets.peek() {
            if is_live(top.job as usize, top.attempt) {
                break;
            }
            self.targets.pop();
        }
        let top = self.targets.peek()?;
        let rate = self.rate_gb_per_s();
        let left = (top.gb - self.progress_gb).max(0.0);
        let after = if reached(top.gb, self.progress_gb) {
            0.0
        } else if rate > 0.0 {
            // A whisker under a whole second is that second (rounding in the progress); a
            // read not yet reached ends a second later at the soonest, when `pop_ended`
            // takes it (the same test, `reached`).
            (left / rate - 1e-9).ceil().max(1.0)
        } else {
            f64::INFINITY
        };
        Some(self.at_s.saturating_add(after.min(1e15) as i64))
    }

    /// The next read ended by `now` (its job and attempt), if any; `is_live` as above. The
    /// caller stops counting its nodes as readers ([`SharedReads::leave`]).
    pub(crate) fn pop_ended(
        &mut self,
        now: i64,
        is_live: impl Fn(usize, u32) -> bool,
    ) -> Option<(usize, u32)> {
        self.advance(now);
        while let Some(top) = self.targets.peek() {
            let (job, attempt) = (top.job as usize, top.attempt);
            if !is_live(job, attempt) {
                self.targets.pop();
                continue;
            }
            if reached(top.gb, self.progress_gb) {
                self.targets.pop();
                return Some((job, attempt));
            }
            return None;
        }
        None
    }
}

/// Whether a read whose target is `target_gb` has ended at `progress_gb` (rounding in the
/// progress aside).
fn reached(target_gb: f64, progress_gb: f64) -> bool {
    target_gb <= progress_gb + 1e-9 * target_gb.max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs reads of (start s, GB per node, nodes) to their ends; returns each one's end, s.
    fn ends(storage: f64, node: f64, reads: &[(i64, f64, u32)]) -> Vec<i64> {
        let mut r = SharedReads::new(storage, node);
        let mut out = vec![i64::MAX; reads.len()];
        let mut next = 0;
        let mut now = 0;
        loop {
            let live = |out: &Vec<i64>, j: usize| out[j] == i64::MAX;
            let due = {
                let out = &out;
                r.next_end_s(|j, _| live(out, j))
            };
            let start = reads.get(next).map(|x| x.0);
            match (due, start) {
                (None, None) => break,
                (Some(d), s) if s.is_none_or(|s| d < s) => {
                    now = d;
                    while let Some((j, _)) = {
                        let snapshot = out.clone();
                        r.pop_ended(now, |j, _| snapshot[j] == i64::MAX)
                    } {
                        out[j] = now;
                        r.leave(now, reads[j].2);
                    }
                }
                (_, Some(s)) => {
                    now = s.max(now);
                    let (_, gb, nodes) = reads[next];
                    r.join(now, next, 1, gb, nodes);
                    next += 1;
                }
                _ => unreachable!(),
            }
        }
        out
    }

    #[test]
    fn twenty_jobs_starting_together_share_the_storage() {
        // 20 single-node jobs of 1 TB, 1 GB/s a node, 10 GB/s shared: 0.5 GB/s each, 2,000 s.
        let reads = vec![(0, 1_000.0, 1); 20];
        assert_eq!(ends(10.0, 1.0, &reads), vec![2_000; 20]);
    }

    #[test]
    fn one_job_on_twenty_nodes_reads_its_share_on_each() {
        // 1 TB over 20 nodes: 50 GB a node at 10 ÷ 20 = 0.5 GB/s, 100 s.
        assert_eq!(ends(10.0, 1.0, &[(0, 50.0, 20)]), vec![100]);
    }

    #[test]
    fn a_read_slows_when_others_join_and_speeds_up_when_they_leave() {
        // 2 GB/s shared, 2 GB/s a node. A: 100 GB from 0 alone at 2 GB/s; at 20 s (40 GB
        // read) B joins with 20 GB: 1 GB/s each; B ends at 40 s; A has 40 GB left at 40 s,
        // alone again at 2 GB/s: ends at 60 s.
        assert_eq!(
            ends(2.0, 2.0, &[(0, 100.0, 1), (20, 20.0, 1)]),
            vec![60, 40]
        );
    }

    #[test]
    fn the_node_limit_binds_when_few_read() {
        // Unlimited storage: every node reads at its own limit.
        assert_eq!(
            ends(f64::INFINITY, 1.25, &[(0, 100.0, 4), (10, 50.0, 2)]),
            vec![80, 50]
        );
    }

    #[test]
    fn a_tiny_read_ends_instead_of_rescheduling_in_the_same_second() {
        // 1e-6 GB at 1,000 GB/s: 1e-9 s of reading. Its end is now or a second later, and
        // at that time it has ended (before, a leftover between the two tolerances was
        // scheduled now and never taken).
        let live = |_: usize, _: u32| true;
        let mut r = SharedReads::new(f64::INFINITY, 1_000.0);
        r.join(0, 0, 1, 1e-6, 1);
        let at = r.next_end_s(live).unwrap();
        assert!(at <= 1, "{at}");
        assert_eq!(r.pop_ended(at, live), Some((0, 1)));
        // 0.5 GB at 1,000 GB/s beside a long read: it ends in the next second.
        let mut r = SharedReads::new(f64::INFINITY, 1_000.0);
        r.join(0, 0, 1, 1e6, 1);
        r.join(3, 1, 1, 0.5, 1);
        let at = r.next_end_s(live).unwrap();
        assert_eq!(at, 4);
        assert_eq!(r.pop_ended(at, live), Some((1, 1)));
    }

    #[test]
    fn a_stopped_read_leaves_the_rest_faster() {
        let mut r = SharedReads::new(1.0, 1.0);
        r.join(0, 0, 1, 100.0, 1);
        r.join(0, 1, 1, 100.0, 1);
        // Both at 0.5 GB/s; job 1 is stopped at 100 s (job 0 has 50 GB read).
        r.leave(100, 1);
        let live = |j: usize, _| j == 0;
        // Job 0 alone at 1 GB/s: 50 GB more, ends at 150 s.
        assert_eq!(r.next_end_s(live), Some(150));
        assert_eq!(r.pop_ended(149, live), None);
        assert_eq!(r.pop_ended(150, live), Some((0, 1)));
    }
}
