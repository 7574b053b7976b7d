//! Work done in steps: a run's replications, a worker's share of them, the tornado, the
//! break-evens. Whoever drives the work (a simulation worker, the page's main thread) calls
//! [`run_slice`] with its slice budget and its clock, and yields to its event loop between
//! slices, so a newer input is read within one slice. One slice loop for all of them.

use super::monte_carlo::MonteCarlo;
use super::sensitivity::{BreakEvenSet, TornadoRun};

/// What one step left to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stepped {
    /// More steps to do.
    More,
    /// More steps to do, but answer now, before the slice budget is used up (a worker's share
    /// of the coarse pass is done: it goes on screen at once).
    AnswerNow,
    /// Nothing left to do.
    Complete,
}

/// A computation done one small step at a time (one replication, one tornado variant).
pub trait Step {
    /// Does one step.
    fn step(&mut self) -> Stepped;
}

/// Does steps of `task`, at least one, until it is complete, asks for an answer, or the
/// slice has run `budget_ms` by `now_ms` (asked after each step). Returns whether the task is
/// complete.
pub fn run_slice<T: Step + ?Sized>(task: &mut T, budget_ms: f64, now_ms: &dyn Fn() -> f64) -> bool {
    let start = now_ms();
    loop {
        match task.step() {
            Stepped::Complete => return true,
            Stepped::AnswerNow => return false,
            Stepped::More if now_ms() - start >= budget_ms => return false,
            Stepped::More => {}
        }
    }
}

/// [`Stepped::Complete`] where `complete`, else [`Stepped::More`].
pub fn more_unless(complete: bool) -> Stepped {
    if complete {
        Stepped::Complete
    } else {
        Stepped::More
    }
}

/// One replication a step (without a cache: the comparison view, the benchmarks).
impl Step for MonteCarlo {
    fn step(&mut self) -> Stepped {
        self.run_batch(1);
        more_unless(self.is_done())
    }
}

/// Several scenarios' runs, one after another (the comparison view).
impl Step for Vec<MonteCarlo> {
    fn step(&mut self) -> Stepped {
        if let Some(run) = self.iter_mut().find(|run| !run.is_done()) {
            run.run_batch(1);
        }
        more_unless(self.iter().all(MonteCarlo::is_done))
    }
}

/// One variant's replications a step.
impl Step for TornadoRun {
    fn step(&mut self) -> Stepped {
        more_unless(TornadoRun::step(self))
    }
}

/// One point of one search a step.
impl Step for BreakEvenSet {
    fn step(&mut self) -> Stepped {
        more_unless(BreakEvenSet::step(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Counts its steps; complete after `steps`, asks for an answer at `answer_at`.
    struct Counter {
        done: u32,
        steps: u32,
        answer_at: Option<u32>,
    }

    impl Step for Counter {
        fn step(&mut self) -> Stepped {
            self.done += 1;
            if self.done >= self.steps {
                Stepped::Complete
            } else if Some(self.done) == self.answer_at {
                Stepped::AnswerNow
            } else {
                Stepped::More
            }
        }
    }

    /// A clock that moves `per_read` ms each time it is read.
    fn clock(per_read: f64) -> impl Fn() -> f64 {
        let t = Cell::new(0.0);
        move || {
            t.set(t.get() + per_read);
            t.get()
        }
    }

    #[test]
    fn a_slice_stops_when_its_budget_is_used_up() {
        let mut task = Counter {
            done: 0,
            steps: 100,
            answer_at: None,
        };
        // Each step reads the clock once after the start: 3 ms per step, 12 ms budget.
        assert!(!run_slice(&mut task, 12.0, &clock(3.0)));
        assert_eq!(task.done, 4);
    }

    #[test]
    fn a_slice_does_one_step_even_past_its_budget() {
        let mut task = Counter {
            done: 0,
            steps: 100,
            answer_at: None,
        };
        assert!(!run_slice(&mut task, 0.0, &clock(50.0)));
        assert_eq!(task.done, 1);
    }

    #[test]
    fn a_slice_ends_early_when_the_task_asks_for_an_answer_or_completes() {
        let mut task = Counter {
            done: 0,
            steps: 5,
            answer_at: Some(2),
        };
        assert!(!run_slice(&mut task, 1e9, &clock(0.0)));
        assert_eq!(task.done, 2);
        assert!(run_slice(&mut task, 1e9, &clock(0.0)));
        assert_eq!(task.done, 5);
    }
}
