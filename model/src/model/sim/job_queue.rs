//! The waiting jobs of one platform, by job index (submission order): a hierarchical bitset.
//!
//! Placement walks the waiting jobs in submission order from a cursor while it removes the
//! ones it places, and every arrival, failure and interruption adds one. A `BTreeSet` did this
//! in O(log n) with a node allocation per few jobs and pointer chasing on every step; here
//! adding and removing a job is a bit flip (plus one per level when a word empties or fills)
//! and finding the next waiting job from a cursor reads at most two words per level. Level 0
//! has a bit per job; each level above has a bit per word of the level below, set while that
//! word is non-zero; the top level is a single word.

use std::cell::Cell;

/// Set of job indices below a fixed capacity, walked in increasing order.
#[derive(Debug, Clone)]
pub struct JobQueue {
    /// `levels[0]`: a bit per job; `levels[k + 1]`: a bit per non-zero word of `levels[k]`.
    levels: Vec<Vec<u64>>,
    len: usize,
    /// No job below this waits (a lower bound, made exact by searches from below it): a walk
    /// from the front starts here instead of climbing the levels over empty words.
    low: Cell<usize>,
}

impl JobQueue {
    /// An empty queue for job indices `0..capacity`.
    pub fn new(capacity: usize) -> Self {
        let mut levels = Vec::new();
        let mut bits = capacity.max(1);
        loop {
            let words = bits.div_ceil(64);
            levels.push(vec![0; words]);
            if words == 1 {
                break;
            }
            bits = words;
        }
        JobQueue {
            levels,
            len: 0,
            low: Cell::new(capacity),
        }
    }

    /// Jobs in the queue.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no job waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `job`; returns whether it was not already there.
    pub fn insert(&mut self, job: usize) -> bool {
        let (w, bit) = (job / 64, 1u64 << (job % 64));
        let before = self.levels[0][w];
        if before & bit != 0 {
            return false;
        }
        self.levels[0][w] = before | bit;
        self.len += 1;
        self.low.set(self.low.get().min(job));
        if before == 0 {
            // The word was empty: mark it, and upwards while words were empty.
            let mut index = w;
            for words in &mut self.levels[1..] {
                let (w, bit) = (index / 64, 1u64 << (index % 64));
                let before = words[w];
                words[w] = before | bit;
                if before != 0 {
                    break;
                }
                index = w;
            }
        }
        true
    }

    /// Removes `job`; returns whether it was there.
    pub fn remove(&mut self, job: usize) -> bool {
        let (w, bit) = (job / 64, 1u64 << (job % 64));
        let Some(word) = self.levels[0].get_mut(w) else {
            return false;
        };
        if *word & bit == 0 {
            return false;
        }
        *word &= !bit;
        self.len -= 1;
        if *word == 0 {
            // The word emptied: unmark it, and upwards while words empty.
            let mut index = w;
            for words in &mut self.levels[1..] {
                let (w, bit) = (index / 64, 1u64 << (index % 64));
                words[w] &= !bit;
                if words[w] != 0 {
                    break;
                }
                index = w;
            }
        }
        true
    }

    /// The smallest job index in the queue that is at least `from`.
    pub fn first_from(&self, from: usize) -> Option<usize> {
        let low = self.low.get();
        if from > low {
            return self.search(from);
        }
        // Nothing waits in [from, low): search from `low`; what it finds is the new bound.
        let found = self.search(low);
        self.low.set(found.unwrap_or(usize::MAX));
        found
    }

    fn search(&self, from: usize) -> Option<usize> {
        // Up: the first level where the word holding `index` has a set bit at or after it.
        let mut index = from;
        let mut level = 0;
        loop {
            let words = self.levels.get(level)?;
            let w = index / 64;
            let word = *words.get(w)?;
            let rest = word & (u64::MAX << (index % 64));
            if rest != 0 {
                index = w * 64 + rest.trailing_zeros() as usize;
                break;
            }
            // Nothing left in this word: continue with the next word, found one level up.
            index = w + 1;
            level += 1;
        }
        // Down: the lowest set bit of each marked word.
        while level > 0 {
            level -= 1;
            let word = self.levels[level][index];
            index = index * 64 + word.trailing_zeros() as usize;
        }
        Some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A random walk of inserts and removals, checked after each step against a `BTreeSet`:
    /// membership, length and the next job from every cursor of interest.
    #[test]
    fn agrees_with_an_ordered_set() {
        for capacity in [1usize, 63, 64, 65, 4_095, 4_096, 4_097, 300_000] {
            let mut queue = JobQueue::new(capacity);
            let mut set = BTreeSet::new();
            // xorshift: a fixed walk, no dependency.
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ capacity as u64;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            for _ in 0..4_000 {
                let r = next();
                // Mostly near the front, sometimes anywhere: the shapes placement sees.
                let job = if r % 4 == 0 {
                    (next() % capacity as u64) as usize
                } else {
                    (next() % (capacity as u64).min(200)) as usize
                };
                if r % 3 == 0 {
                    assert_eq!(queue.remove(job), set.remove(&job), "remove {job}");
                } else {
                    assert_eq!(queue.insert(job), set.insert(job), "insert {job}");
                }
                assert_eq!(queue.len(), set.len());
                let cursor = (next() % capacity as u64) as usize;
                for from in [0, cursor, job, job + 1, capacity - 1, capacity] {
                    assert_eq!(
                        queue.first_from(from),
                        set.range(from..).next().copied(),
                        "first from {from} (capacity {capacity})"
                    );
                }
            }
            // Drain in order through the cursor, as placement does.
            let mut cursor = 0;
            while let Some(job) = queue.first_from(cursor) {
                assert_eq!(Some(&job), set.iter().next());
                assert!(queue.remove(job) && set.remove(&job));
                cursor = job + 1;
            }
            assert!(queue.is_empty() && set.is_empty());
        }
    }
}
