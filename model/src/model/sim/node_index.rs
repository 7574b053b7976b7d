//! The live nodes of one platform by state (being provisioned or ready) and free GPUs, for
//! placement: the fullest node a job fits on, the emptiest, the empty ones, each lowest id
//! first, in constant time whatever the cluster's size (a scan of every live node made each
//! event cost O(nodes), which a 10,000-node cluster turns into hours).
//!
//! One bucket per (state, free GPUs), each a bitset over node ids with the index of its first
//! non-zero word kept exact, and one bitmask per state of the non-empty buckets with at least
//! one free GPU (1–64 free: bit `free − 1` of a `u64`, native in WebAssembly too). Nodes with no
//! free GPU are never looked up, so they are not kept: filling a node's last GPU and freeing
//! one are then a single bucket update each.

/// Node ids by (ready, free GPUs).
#[derive(Debug, Clone)]
pub struct NodeIndex {
    gpus_per_node: u32,
    /// `buckets[ready][free]` (`buckets[ready][0]` stays empty).
    buckets: [Vec<Bucket>; 2],
    /// Bit `free − 1` set when `buckets[ready][free]` (free ≥ 1) holds a node.
    non_empty: [u64; 2],
}

#[derive(Debug, Clone, Default)]
struct Bucket {
    words: Vec<u64>,
    count: usize,
    /// Index of the first non-zero word (`words.len()` when empty).
    first: usize,
}

impl Bucket {
    /// Adds `id` (inline: placement does this on every job that takes or leaves a node; the
    /// bitset grows out of line, once per 64 nodes).
    #[inline]
    fn insert(&mut self, id: usize) {
        let (w, bit) = (id / 64, 1u64 << (id % 64));
        if w >= self.words.len() {
            self.grow(w);
        }
        let word = &mut self.words[w];
        if *word & bit == 0 {
            *word |= bit;
            self.count += 1;
            self.first = self.first.min(w);
        }
    }

    /// Makes room for word `w`, keeping `first` at the end while the bucket is empty.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, w: usize) {
        let was_empty = self.first == self.words.len();
        self.words.resize(w + 1, 0);
        if was_empty {
            self.first = self.words.len();
        }
    }

    fn remove(&mut self, id: usize) {
        let (w, bit) = (id / 64, 1u64 << (id % 64));
        if self.words.get(w).is_some_and(|word| word & bit != 0) {
            self.words[w] &= !bit;
            self.count -= 1;
            if w == self.first && self.words[w] == 0 {
                self.first = self.words[w..]
                    .iter()
                    .position(|&word| word != 0)
                    .map_or(self.words.len(), |i| w + i);
            }
        }
    }

    fn lowest(&self) -> Option<usize> {
        let word = *self.words.get(self.first)?;
        Some(self.first * 64 + word.trailing_zeros() as usize)
    }

    fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .skip(self.first)
            .flat_map(|(w, &word)| {
                let mut rest = word;
                std::iter::from_fn(move || {
                    (rest != 0).then(|| {
                        let bit = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        w * 64 + bit
                    })
                })
            })
    }
}

impl NodeIndex {
    /// An empty index for nodes of `gpus_per_node` GPUs (at most 64).
    pub fn new(gpus_per_node: u32) -> Self {
        let buckets = || vec![Bucket::default(); gpus_per_node as usize + 1];
        NodeIndex {
            gpus_per_node,
            buckets: [buckets(), buckets()],
            non_empty: [0, 0],
        }
    }

    /// Adds node `id` with `free` GPUs (a node with none is not kept).
    #[inline]
    pub fn insert(&mut self, ready: bool, free: u32, id: usize) {
        if free == 0 {
            return;
        }
        self.buckets[usize::from(ready)][free as usize].insert(id);
        self.non_empty[usize::from(ready)] |= 1u64 << (free - 1);
    }

    /// Removes node `id`, listed with `free` GPUs.
    #[inline]
    pub fn remove(&mut self, ready: bool, free: u32, id: usize) {
        if free == 0 {
            return;
        }
        let b = &mut self.buckets[usize::from(ready)][free as usize];
        b.remove(id);
        if b.count == 0 {
            self.non_empty[usize::from(ready)] &= !(1u64 << (free - 1));
        }
    }

    /// Moves node `id` from `from` free GPUs to `to` (the same as a removal and an insertion).
    #[inline]
    pub fn update(&mut self, ready: bool, from: u32, to: u32, id: usize) {
        if from != to {
            self.remove(ready, from, id);
            self.insert(ready, to, id);
        }
    }

    /// Non-empty buckets with at least `gpus` (≥ 1) free GPUs, as bits `free − 1`.
    fn fitting(&self, ready: bool, gpus: u32) -> u64 {
        if gpus == 0 || gpus > self.gpus_per_node {
            return 0;
        }
        self.non_empty[usize::from(ready)] & (u64::MAX << (gpus - 1))
    }

    /// The node with the fewest free GPUs that still has `gpus` free, lowest id first.
    pub fn fullest_fit(&self, ready: bool, gpus: u32) -> Option<usize> {
        let fitting = self.fitting(ready, gpus);
        (fitting != 0).then(|| {
            self.buckets[usize::from(ready)][fitting.trailing_zeros() as usize + 1].lowest()
        })?
    }

    /// The node with the most free GPUs, if it has `gpus` free, lowest id first.
    pub fn emptiest(&self, ready: bool, gpus: u32) -> Option<usize> {
        let fitting = self.fitting(ready, gpus);
        (fitting != 0).then(|| {
            self.buckets[usize::from(ready)][64 - fitting.leading_zeros() as usize].lowest()
        })?
    }

    /// The empty nodes (every GPU free), in id order.
    pub fn empty(&self, ready: bool) -> impl Iterator<Item = usize> + '_ {
        self.buckets[usize::from(ready)][self.gpus_per_node as usize].ids()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same answers as a scan of every node, on a random walk of inserts and removes.
    #[test]
    fn answers_as_a_scan_would() {
        let gpn = 8;
        let mut index = NodeIndex::new(gpn);
        // (ready, free) per node id; None once removed.
        let mut nodes: Vec<Option<(bool, u32)>> = Vec::new();
        let mut x: u64 = 12345;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..8_000 {
            match next(4) {
                0 => {
                    let state = (next(2) == 1, next(u64::from(gpn) + 1) as u32);
                    index.insert(state.0, state.1, nodes.len());
                    nodes.push(Some(state));
                }
                1 | 2 if !nodes.is_empty() => {
                    let id = next(nodes.len() as u64) as usize;
                    if let Some((ready, free)) = nodes[id] {
                        index.remove(ready, free, id);
                        nodes[id] =
                            (next(3) != 0).then(|| (next(2) == 1, next(u64::from(gpn) + 1) as u32));
                        if let Some((ready, free)) = nodes[id] {
                            index.insert(ready, free, id);
                        }
                    }
                }
                _ => {}
            }
            for ready in [false, true] {
                let live = || {
                    nodes
                        .iter()
                        .enumerate()
                        .filter_map(|(i, n)| n.filter(|n| n.0 == ready).map(|n| (n.1, i)))
                };
                for gpus in 1..=gpn + 1 {
                    let fullest = live().filter(|n| n.0 >= gpus).min().map(|n| n.1);
                    assert_eq!(index.fullest_fit(ready, gpus), fullest);
                    let most = live().filter(|n| n.0 >= gpus).map(|n| n.0).max();
                    let emptiest =
                        most.and_then(|m| live().filter(|n| n.0 == m).min().map(|n| n.1));
                    assert_eq!(index.emptiest(ready, gpus), emptiest);
                }
                let empty: Vec<usize> = live().filter(|n| n.0 == gpn).map(|n| n.1).collect();
                assert_eq!(index.empty(ready).collect::<Vec<_>>(), empty);
            }
        }
    }
}
