//! The future events of one platform's run, earliest first; events at the same second in the
//! order they were scheduled.
//!
//! Each entry is 16 bytes: a key (time, then a sequence number) and the event packed in a
//! word. A `(time, sequence, Event)` tuple took 32 bytes whose moves inside the binary heap
//! stalled the processor on every pop (a load overlapping the previous partial store), the
//! largest single cost in the profile of a busy queue.
//!
//! Bounds, all far inside what one replication can reach ([`limits`]): times are clamped to
//! the horizon (nothing at or after it is ever handled: the run stops at the first such
//! event), and at most 2^32 − 1 seconds are kept; the sequence numbers are 32 bits, the ids
//! 32 bits and the generations 30 bits, while a replication handles at most
//! [`limits::EVENTS_PER_REPLICATION_MAX`] (3 × 10^7) events, each scheduling a few.

use crate::model::scenario::limits;
use std::collections::BinaryHeap;

/// Something that happens at a given second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A node finished provisioning.
    NodeReady(usize),
    /// A job attempt ends, if the job is still on that attempt (`generation`); or a failed
    /// job's retry backoff ends, if it is still backing off (`generation`).
    AttemptEnd { job: usize, generation: u32 },
    /// A spot node is interrupted.
    Interrupt(usize),
    /// An event of one of the engine's mechanisms: `mechanism` is its place in the engine's
    /// registry, `id` what the mechanism means by it (a node whose hardware
    /// fails, a reclaim wave, the n-th end of the data reads scheduled).
    Mechanism { mechanism: u8, id: usize },
    /// A node's warm-pool window ends, if nothing used it since (`generation`).
    IdleTimeout { node: usize, generation: u32 },
}

const GENERATION_BITS: u32 = 30;
const GENERATION_MASK: u64 = (1 << GENERATION_BITS) - 1;

impl Event {
    /// Tag in bits 0–1, id in bits 2–33, generation in bits 34–63.
    fn pack(self) -> u64 {
        let (tag, id, generation) = match self {
            Event::NodeReady(node) => (0, node, 0),
            Event::AttemptEnd { job, generation } => (1, job, generation),
            // Interruptions and the mechanisms' events share tag 2, told apart by the
            // generation bits they never use.
            Event::Interrupt(node) => (2, node, 0),
            Event::Mechanism { mechanism, id } => (2, id, u32::from(mechanism) + 1),
            Event::IdleTimeout { node, generation } => (3, node, generation),
        };
        debug_assert!(id <= u32::MAX as usize && u64::from(generation) <= GENERATION_MASK);
        tag | (id as u64 & 0xFFFF_FFFF) << 2 | (u64::from(generation) & GENERATION_MASK) << 34
    }

    fn unpack(word: u64) -> Event {
        let id = ((word >> 2) & 0xFFFF_FFFF) as usize;
        let generation = (word >> 34) as u32;
        match word & 3 {
            0 => Event::NodeReady(id),
            1 => Event::AttemptEnd {
                job: id,
                generation,
            },
            2 if generation > 0 => Event::Mechanism {
                mechanism: (generation - 1) as u8,
                id,
            },
            2 => Event::Interrupt(id),
            _ => Event::IdleTimeout {
                node: id,
                generation,
            },
        }
    }

    /// A generation as stored: the engine compares generations through this, so an event
    /// always matches the state that scheduled it.
    pub fn generation_stored(generation: u32) -> u32 {
        (u64::from(generation) & GENERATION_MASK) as u32
    }
}

/// One queued event: `key` is the time in the high 32 bits and the sequence number in the low
/// 32 bits, so comparing keys compares (time, sequence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: u64,
    event: u64,
}

impl Ord for Entry {
    /// Reversed: `BinaryHeap` is a max-heap and the earliest entry must come out first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.key.cmp(&self.key)
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Future events, earliest first, ties in scheduling order.
#[derive(Debug, Clone)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    /// Times are kept up to here (the horizon).
    latest_s: i64,
    seq: u32,
}

impl EventQueue {
    /// An empty queue for a run whose horizon is `horizon_s`.
    pub fn new(horizon_s: i64) -> Self {
        const _: () = assert!(limits::EVENTS_PER_REPLICATION_MAX < (1 << 32) / 8);
        EventQueue {
            heap: BinaryHeap::new(),
            latest_s: horizon_s.clamp(0, i64::from(u32::MAX)),
            seq: 0,
        }
    }

    /// Schedules `event` at `at_s` (a time at or after the horizon is kept as the horizon).
    pub fn push(&mut self, at_s: i64, event: Event) {
        self.seq = self.seq.wrapping_add(1);
        debug_assert!(
            self.seq != 0,
            "more events scheduled than the sequence holds"
        );
        let time = at_s.clamp(0, self.latest_s) as u64;
        self.heap.push(Entry {
            key: time << 32 | u64::from(self.seq),
            event: event.pack(),
        });
    }

    /// The time of the earliest event.
    pub fn peek_time(&self) -> Option<i64> {
        self.heap.peek().map(|e| (e.key >> 32) as i64)
    }

    /// Takes the earliest event and its time.
    pub fn pop(&mut self) -> Option<(i64, Event)> {
        self.heap
            .pop()
            .map(|e| ((e.key >> 32) as i64, Event::unpack(e.event)))
    }

    /// Events queued.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Keeps only the events for which `keep` is true; the rest keep their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Event) -> bool) {
        let mut entries = std::mem::take(&mut self.heap).into_vec();
        entries.retain(|e| keep(&Event::unpack(e.event)));
        self.heap = BinaryHeap::from(entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_out_by_time_then_in_scheduling_order() {
        let mut queue = EventQueue::new(1_000);
        queue.push(50, Event::Interrupt(7));
        queue.push(10, Event::NodeReady(3));
        queue.push(
            50,
            Event::AttemptEnd {
                job: 1_999_999,
                generation: 5,
            },
        );
        queue.push(10, Event::Interrupt(4));
        queue.push(
            20,
            Event::Mechanism {
                mechanism: u8::MAX - 1,
                id: u32::MAX as usize,
            },
        );
        queue.push(5_000, Event::NodeReady(9)); // after the horizon: kept as the horizon
        queue.push(
            0,
            Event::IdleTimeout {
                node: u32::MAX as usize,
                generation: (1 << 30) - 1,
            },
        );
        let order: Vec<(i64, Event)> = std::iter::from_fn(|| queue.pop()).collect();
        assert_eq!(
            order,
            vec![
                (
                    0,
                    Event::IdleTimeout {
                        node: u32::MAX as usize,
                        generation: (1 << 30) - 1
                    }
                ),
                (10, Event::NodeReady(3)),
                (10, Event::Interrupt(4)),
                (
                    20,
                    Event::Mechanism {
                        mechanism: u8::MAX - 1,
                        id: u32::MAX as usize,
                    }
                ),
                (50, Event::Interrupt(7)),
                (
                    50,
                    Event::AttemptEnd {
                        job: 1_999_999,
                        generation: 5
                    }
                ),
                (1_000, Event::NodeReady(9)),
            ]
        );
    }

    #[test]
    fn dropping_events_keeps_the_order_of_the_rest() {
        let mut queue = EventQueue::new(100);
        for i in 0..40 {
            queue.push(i % 7, Event::NodeReady(i as usize));
        }
        queue.retain(|e| matches!(e, Event::NodeReady(n) if n % 3 != 0));
        let mut expected: Vec<(i64, usize)> = (0..40)
            .filter(|i| i % 3 != 0)
            .map(|i| (i % 7, i as usize))
            .collect();
        expected.sort(); // by time, then by scheduling order (ids were scheduled in order)
        let got: Vec<(i64, usize)> = std::iter::from_fn(|| queue.pop())
            .map(|(t, e)| match e {
                Event::NodeReady(n) => (t, n),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(got, expected);
    }
}
