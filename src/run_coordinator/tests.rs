//! The coordinator driven as the page drives it, with real simulation workers
//! ([`SimulationWorker`]) behind fake transport: each test names the behaviour it covers.

use super::*;
use crate::model::scenario::Overflow;
use crate::simulation_worker::SimulationWorker;
use crate::workbench::verdict_basis::VerdictBasis;
use crate::workbench::verdict_flips::verdict_flips;
use std::cell::Cell;
use std::collections::VecDeque;

/// Two platforms (on demand, and on spot) over three days: each replication takes a few
/// milliseconds.
fn scenario(replications: u32) -> Scenario {
    let mut spot = crate::model::scenario::Platform {
        name: "On spot".to_string(),
        ..Default::default()
    };
    spot.first_pool_mut().purchase.overflow = Overflow::Spot;
    let mut s = Scenario {
        horizon_days: 3.0,
        replications,
        ..Scenario::default()
    };
    s.platforms.push(spot);
    s
}

/// What one run of `s` in one go gives: the numbers the page must show.
fn single_run(s: &Scenario) -> Results {
    let mut run = MonteCarlo::new(s.clone()).unwrap();
    run.run_to_end();
    run.results()
}

/// A simulation worker behind a fake `postMessage`.
#[derive(Default)]
struct FakeWorker {
    sim: SimulationWorker,
    inbox: VecDeque<WorkerInput>,
    outbox: VecDeque<WorkerOutput>,
    /// The run whose slices are scheduled.
    scheduled: Option<u64>,
    /// It has been started by the page (a restart makes a new one).
    incarnation: u32,
}

/// The page: the coordinator, its workers, timers and frames, and what it was told to do.
struct Page {
    coordinator: RunCoordinator,
    now: f64,
    workers: Vec<FakeWorker>,
    timers: Vec<(f64, Timer)>,
    frame_due: bool,
    main_turn_due: bool,
    commands: Vec<Command>,
    published: Vec<RunView>,
}

impl Page {
    fn with_workers(n: usize) -> Page {
        Self::within(n, EventBudget::default())
    }

    /// A page whose `n` workers have said they are ready.
    fn ready(n: usize) -> Page {
        let mut page = Self::with_workers(n);
        for i in 0..n {
            page.worker_ready(i);
        }
        page
    }

    fn within(n: usize, budget: EventBudget) -> Page {
        Page {
            coordinator: RunCoordinator::within(n, 0.0, budget),
            now: 0.0,
            workers: (0..n).map(|_| FakeWorker::default()).collect(),
            timers: Vec::new(),
            frame_due: false,
            main_turn_due: false,
            commands: Vec::new(),
            published: Vec::new(),
        }
    }

    fn view(&self) -> &RunView {
        self.coordinator.view()
    }

    fn handle(&mut self, event: Event) {
        let commands = self.coordinator.handle(event, self.now);
        self.carry_out(commands);
    }

    fn carry_out(&mut self, commands: Vec<Command>) {
        for command in commands {
            match &command {
                Command::Send { worker, input } => {
                    self.workers[*worker].inbox.push_back(input.clone())
                }
                Command::Restart { worker } => {
                    let incarnation = self.workers[*worker].incarnation + 1;
                    self.workers[*worker] = FakeWorker {
                        incarnation,
                        ..FakeWorker::default()
                    };
                }
                Command::DropWorkers => self.workers.clear(),
                Command::Publish => self.published.push(self.view().clone()),
                Command::SetTimer { timer, after_ms } => {
                    self.timers.push((self.now + after_ms, *timer))
                }
                Command::RequestFrame => self.frame_due = true,
                Command::MainThreadTurn => self.main_turn_due = true,
                Command::Mark { .. } => {}
            }
            self.commands.push(command);
        }
    }

    fn input(&mut self, s: &Scenario) {
        self.handle(Event::ScenarioChanged(Box::new(s.clone())));
    }

    /// Worker `i` says it is ready.
    fn worker_ready(&mut self, i: usize) {
        self.handle(Event::WorkerAnswered {
            worker: i,
            output: WorkerOutput::Ready,
        });
    }

    /// Worker `i` takes its next task: a message if one waits, else a slice. Its answers stay
    /// in its outbox until [`Page::deliver`].
    fn work(&mut self, i: usize) -> bool {
        let w = &mut self.workers[i];
        let outbox = &mut w.outbox;
        if let Some(input) = w.inbox.pop_front() {
            if let Some(run) = w.sim.received(input, &mut |a| outbox.push_back(a)) {
                w.scheduled = Some(run);
            }
            return true;
        }
        if let Some(run) = w.scheduled {
            let more = w.sim.slice(run, &|| 0.0, &mut |a| outbox.push_back(a));
            if !more {
                w.scheduled = None;
            }
            return true;
        }
        false
    }

    /// Worker `i`'s answers reach the page.
    fn deliver(&mut self, i: usize) {
        while let Some(output) = self.workers.get_mut(i).and_then(|w| w.outbox.pop_front()) {
            self.handle(Event::WorkerAnswered { worker: i, output });
        }
    }

    /// Each worker reads the run's start, does its share of the coarse pass and answers.
    fn answer_coarse_shares(&mut self) {
        for i in 0..self.workers.len() {
            self.work(i); // reads the start
            self.work(i); // its coarse share
            self.deliver(i);
        }
    }

    /// A frame: shows what waits for one.
    fn frame(&mut self) {
        if std::mem::take(&mut self.frame_due) {
            self.handle(Event::Frame);
        }
    }

    /// Every worker works and answers, frames are drawn, until no one has anything to do.
    fn settle_workers(&mut self) {
        loop {
            let mut busy = false;
            for i in 0..self.workers.len() {
                busy |= self.work(i);
                self.deliver(i);
            }
            self.frame();
            if !busy {
                return;
            }
        }
    }

    /// Time passes: the timers due fire, in order.
    fn advance(&mut self, ms: f64) {
        let end = self.now + ms;
        loop {
            self.timers.sort_by(|a, b| a.0.total_cmp(&b.0));
            match self.timers.first() {
                Some(&(due, timer)) if due <= end => {
                    self.timers.remove(0);
                    self.now = self.now.max(due);
                    self.handle(Event::TimerFired(timer));
                }
                _ => break,
            }
        }
        self.now = end;
    }

    /// Main-thread turns until none is asked for; the clock moves 5 ms per read.
    fn run_main_thread(&mut self) -> u32 {
        let mut turns = 0;
        while std::mem::take(&mut self.main_turn_due) {
            let clock = Cell::new(self.now);
            let commands = self.coordinator.main_thread_turn(&|| {
                clock.set(clock.get() + 5.0);
                clock.get()
            });
            self.now = clock.get();
            self.carry_out(commands);
            turns += 1;
        }
        turns
    }

    fn marks(&self, what: &str) -> Vec<u64> {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Mark { what: w, run } if *w == what => Some(*run),
                _ => None,
            })
            .collect()
    }

    /// Whether run `run`'s mark `first` was set, and before its mark `then`.
    fn marked_before(&self, first: &'static str, then: &'static str, run: u64) -> bool {
        let at = |what| {
            self.commands
                .iter()
                .position(|c| *c == Command::Mark { what, run })
        };
        matches!((at(first), at(then)), (Some(a), Some(b)) if a < b)
    }

    fn restarts(&self) -> usize {
        self.commands
            .iter()
            .filter(|c| matches!(c, Command::Restart { .. }))
            .count()
    }
}

#[test]
fn messages_to_a_worker_wait_until_it_is_ready() {
    let mut page = Page::with_workers(1);
    page.input(&scenario(8));
    assert!(
        page.workers[0].inbox.is_empty(),
        "not ready: nothing is posted yet"
    );
    page.worker_ready(0);
    assert!(matches!(
        page.workers[0].inbox.front(),
        Some(WorkerInput::Start {
            run_id: 1,
            shard: 0,
            shards: 1,
            ..
        })
    ));
}

#[test]
fn the_coarse_pass_goes_on_screen_before_the_full_run() {
    let s = scenario(80);
    let mut page = Page::ready(2);
    page.input(&s);
    // Both workers answer their share of the coarse pass: on screen as soon as the second
    // arrives, without waiting for a frame.
    page.answer_coarse_shares();
    assert_eq!(page.view().done, COARSE_REPLICATIONS);
    assert!(page.view().running);
    assert_eq!(page.marks("coarse"), vec![1]);
    page.settle_workers();
    // The first results shown are the 32 coarse replications, the last the full run.
    let shown: Vec<u32> = page
        .published
        .iter()
        .filter(|v| v.results.is_some())
        .map(|v| v.done)
        .collect();
    assert_eq!(shown.first(), Some(&COARSE_REPLICATIONS), "{shown:?}");
    assert_eq!(shown.last(), Some(&80));
    assert!(page.marked_before("coarse", "full", 1));
    assert_eq!(page.view().results, Some(single_run(&s)));
    assert!(!page.view().running);
}

#[test]
fn a_month_of_serving_puts_a_smaller_coarse_pass_on_screen_first() {
    // One service on the two platforms for 30 days: 86,400 minutes a replication, so the
    // coarse pass is ⌊1,500,000 ÷ 86,400⌋ = 17 replications, not 32 (and the workers'
    // shares of it, 9 and 8, are what they answer first).
    let mut s = scenario(20);
    s.horizon_days = 30.0;
    s.job_classes.clear();
    s.services.push(crate::model::scenario::Service::default());
    s.services[0].traffic.mean_rps = 1.0;
    assert_eq!(coarse_replications(&s), 17);
    let mut page = Page::ready(2);
    page.input(&s);
    page.answer_coarse_shares();
    assert_eq!(page.view().done, 17);
    assert_eq!(page.marks("coarse"), vec![1]);
    assert!(page.view().running);
}

#[test]
fn the_coarse_pass_is_smaller_only_for_a_month_of_serving_or_many_jobs() {
    use crate::workbench::presets::preset;
    let coarse = |name: &str| coarse_replications(&preset(name).unwrap().scenario());
    // Training presets keep 32; three platforms × 30 days of one service, ⌊1.5 M ÷
    // 129,600⌋ = 11; twenty services on four platforms for a week, at least 8.
    assert_eq!(coarse("batch-vs-eks-spot"), COARSE_REPLICATIONS);
    assert_eq!(coarse("agent-traffic-spike"), 11);
    assert_eq!(coarse("many-small-models"), COARSE_REPLICATIONS_MIN);
    // 14 stages × 10 runs a day × (30 days and a day's warm-up) × 2 platforms = 8,680
    // job-runs a replication: ⌊120,000 ÷ 8,680⌋ = 13.
    assert_eq!(coarse("pharma-14-stage-pipeline"), 13);
}

#[test]
fn later_answers_wait_for_a_frame_and_share_it() {
    let s = scenario(80);
    let mut page = Page::ready(2);
    page.input(&s);
    // Both workers answer their coarse share: on screen as soon as the second arrives,
    // without waiting for the frame the first one asked for.
    page.answer_coarse_shares();
    assert_eq!(page.view().done, COARSE_REPLICATIONS);
    page.frame();
    let frames = |page: &Page| {
        page.commands
            .iter()
            .filter(|c| **c == Command::RequestFrame)
            .count()
    };
    let frames_before = frames(&page);
    // The rest of both shares: one frame for the two answers.
    let before = page.published.len();
    for i in 0..2 {
        page.work(i);
        page.deliver(i);
    }
    assert!(page.frame_due);
    assert_eq!(
        page.published.len(),
        before,
        "nothing is redrawn before the frame"
    );
    assert_eq!(frames(&page), frames_before + 1);
    page.frame();
    assert_eq!(page.view().done, 80);
}

#[test]
fn after_the_coarse_pass_interim_answers_are_redrawn_at_most_every_interim_ms() {
    let s = scenario(200);
    let mut page = Page::ready(1);
    page.input(&s);
    page.answer_coarse_shares();
    assert_eq!(page.view().done, COARSE_REPLICATIONS);
    // An answer at once after the coarse pass is held back: no frame, a timer instead. (A
    // slice whose clock moves 5 ms a read: a few replications, not the whole share.)
    let clock = Cell::new(0.0);
    let tick = || {
        clock.set(clock.get() + 5.0);
        clock.get()
    };
    let w = &mut page.workers[0];
    let run = w.scheduled.expect("a run under way");
    let outbox = &mut w.outbox;
    assert!(w.sim.slice(run, &tick, &mut |a| outbox.push_back(a)));
    page.deliver(0);
    assert!(!page.frame_due);
    let done = page.view().done;
    // When the interval is over, it is drawn though no other answer came.
    page.advance(INTERIM_MS);
    assert!(page.frame_due);
    page.frame();
    assert!(page.view().done > done);
    // The last answer is drawn at once.
    page.now += 1.0;
    page.settle_workers();
    assert_eq!(page.view().done, 200);
}

#[test]
fn a_newer_input_drops_an_older_runs_late_answers() {
    let old = scenario(40);
    let new = Scenario {
        seed: 9,
        ..scenario(40)
    };
    let mut page = Page::ready(1);
    page.input(&old);
    page.work(0); // reads run 1's start
    page.work(0); // its coarse pass, not yet delivered
    page.input(&new); // run 2
    page.deliver(0); // run 1's answer arrives late
    assert_eq!(page.view().run, 2);
    assert_eq!(
        page.view().done,
        0,
        "run 1's outcomes are not counted for run 2"
    );
    page.settle_workers();
    assert_eq!(page.view().results, Some(single_run(&new)));
}

#[test]
fn an_input_mid_run_keeps_the_same_platforms_results_until_the_new_answer() {
    let mut page = Page::ready(1);
    page.input(&scenario(40));
    page.settle_workers();
    assert!(page.view().results.is_some());
    page.input(&Scenario {
        seed: 5,
        ..scenario(40)
    });
    assert!(page.view().results.is_some(), "same platforms: no flicker");
    assert!(page.view().running);
    let mut renamed = scenario(40);
    renamed.platforms[1].name = "Renamed".to_string();
    page.input(&renamed);
    assert_eq!(
        page.view().results,
        None,
        "other platforms: old numbers would mislead"
    );
}

#[test]
fn a_crashed_worker_is_restarted_and_replays_its_share() {
    let s = scenario(80);
    let mut page = Page::ready(2);
    page.input(&s);
    page.work(1); // worker 1 reads its start, then crashes
    page.deliver(1);
    page.handle(Event::WorkerFailed {
        worker: 1,
        message: "unreachable".to_string(),
    });
    assert_eq!(page.workers[1].incarnation, 1, "a new worker in its place");
    assert_eq!(page.marks("restarted"), vec![1]);
    assert!(page
        .view()
        .restarted
        .as_ref()
        .unwrap()
        .contains("unreachable"));
    page.worker_ready(1);
    assert!(matches!(
        page.workers[1].inbox.front(),
        Some(WorkerInput::Start {
            run_id: 1,
            shard: 1,
            shards: 2,
            ..
        })
    ));
    page.settle_workers();
    assert_eq!(page.view().results, Some(single_run(&s)));
    assert_eq!(page.view().error, None);
}

#[test]
fn two_crashes_are_recovered_and_the_third_stops_the_run_with_the_reason() {
    let s = scenario(40);
    let mut page = Page::ready(1);
    page.input(&s);
    for crash in 1..=3 {
        page.handle(Event::WorkerFailed {
            worker: 0,
            message: "out of memory".to_string(),
        });
        if crash < 3 {
            assert_eq!(page.view().error, None);
            page.worker_ready(0);
        }
    }
    assert_eq!(page.restarts(), 2);
    let error = page.view().error.clone().unwrap();
    assert!(
        error.contains("out of memory") && error.contains("2 restarts"),
        "{error}"
    );
    assert!(!page.view().running);
    // Answers still on their way are dropped: the run is over.
    page.settle_workers();
    assert_eq!(page.view().done, 0);
    // A new input starts afresh, with its own restarts.
    page.input(&Scenario { seed: 2, ..s });
    assert_eq!(page.view().error, None);
    page.handle(Event::WorkerFailed {
        worker: 0,
        message: "again".to_string(),
    });
    assert_eq!(page.view().error, None);
}

#[test]
fn a_worker_stalled_in_an_older_replication_is_replaced_at_the_next_input() {
    let mut page = Page::ready(1);
    page.input(&scenario(40));
    page.work(0); // reads the start and says so, then is silent: one long replication
    page.deliver(0);
    page.advance(STALLED_MS + 1.0);
    page.input(&Scenario {
        seed: 3,
        ..scenario(40)
    });
    assert_eq!(page.workers[0].incarnation, 1);
    assert_eq!(page.marks("terminated"), vec![2]);
    // The new worker gets the new run only.
    page.worker_ready(0);
    assert_eq!(page.workers[0].inbox.len(), 1);
    page.settle_workers();
    assert_eq!(page.view().done, 40);
}

#[test]
fn a_worker_that_answered_recently_is_not_replaced_at_the_next_input() {
    let mut page = Page::ready(1);
    page.input(&scenario(40));
    page.work(0);
    page.deliver(0);
    page.advance(STALLED_MS - 50.0);
    page.input(&Scenario {
        seed: 3,
        ..scenario(40)
    });
    assert_eq!(page.restarts(), 0);
}

#[test]
fn a_worker_that_has_not_read_the_new_start_in_time_is_replaced_and_asked_again() {
    let mut page = Page::ready(1);
    page.input(&scenario(40));
    page.work(0); // reads run 1's start and says so
    page.deliver(0);
    page.input(&Scenario {
        seed: 4,
        ..scenario(40)
    });
    // Run 2's start waits behind a long replication: no `Started` for it.
    page.advance(STALLED_MS + 1.0);
    assert_eq!(page.marks("terminated"), vec![2]);
    page.worker_ready(0);
    assert!(matches!(
        page.workers[0].inbox.front(),
        Some(WorkerInput::Start { run_id: 2, .. })
    ));
}

#[test]
fn a_late_timer_puts_the_check_for_an_unstarted_worker_off() {
    let mut page = Page::ready(1);
    page.input(&scenario(40));
    // The page's own thread was busy: the check fires 200 ms late, and is put off.
    page.now += STALLED_MS + 200.0;
    page.advance(0.0);
    assert_eq!(page.restarts(), 0);
    // The worker's `Started` was waiting behind the timer.
    page.work(0);
    page.deliver(0);
    page.advance(LATE_MS + 1.0);
    assert_eq!(page.restarts(), 0, "a healthy worker is kept");
}

#[test]
fn the_event_budget_cuts_in_replication_order_whatever_the_workers_answer_order() {
    let s = scenario(40);
    let events: Vec<u64> = (0..40)
        .map(|r| {
            crate::model::monte_carlo::run_replication(&s, r)
                .iter()
                .map(|o| o.events)
                .sum()
        })
        .collect();
    // A per-run budget that the 10th replication crosses.
    let budget = EventBudget {
        per_run: events[..9].iter().sum::<u64>() + 1,
        ..EventBudget::default()
    };
    let mut page = Page::within(2, budget);
    page.worker_ready(0);
    page.worker_ready(1);
    page.input(&s);
    // Worker 1 (odd replications) answers all of its coarse share before worker 0.
    page.work(1);
    page.work(1);
    page.deliver(1);
    assert_eq!(
        page.restarts(),
        0,
        "nothing is metered before replication 0 arrives"
    );
    page.work(0);
    page.work(0);
    page.deliver(0);
    assert_eq!(
        page.restarts(),
        2,
        "the cut makes the workers' remaining work moot"
    );
    let mut single = MonteCarlo::within(s.clone(), budget).unwrap();
    single.run_to_end();
    assert_eq!(single.done(), 10);
    let results = page.view().results.clone().unwrap();
    assert_eq!(results.replications, 10);
    assert_eq!(results, single.results());
    assert!(!page.view().running);
}

#[test]
fn a_worker_that_fails_before_it_is_ready_means_the_main_thread_runs_at_once() {
    let s = scenario(40);
    let mut page = Page::with_workers(2);
    page.input(&s);
    page.handle(Event::WorkerFailed {
        worker: 0,
        message: "the worker stopped".to_string(),
    });
    assert!(page.commands.contains(&Command::DropWorkers));
    assert!(!page.view().in_worker);
    assert!(page.run_main_thread() > 1, "in several slices");
    assert_eq!(page.view().results, Some(single_run(&s)));
    // The watchdog that was set for the workers no longer matters.
    page.advance(WORKER_WATCHDOG_MS);
    assert_eq!(
        page.commands
            .iter()
            .filter(|c| **c == Command::DropWorkers)
            .count(),
        1
    );
}

#[test]
fn a_silent_worker_means_the_main_thread_runs_after_the_watchdog() {
    let s = scenario(40);
    let mut page = Page::with_workers(1);
    page.input(&s);
    page.advance(WORKER_WATCHDOG_MS - 1.0);
    assert!(page.view().in_worker);
    page.advance(1.0);
    assert!(!page.view().in_worker);
    page.run_main_thread();
    assert_eq!(page.view().results, Some(single_run(&s)));
}

#[test]
fn without_workers_the_main_thread_runs_in_slices_with_the_coarse_pass_first() {
    let s = scenario(80);
    let mut page = Page::with_workers(0);
    page.input(&s);
    let turns = page.run_main_thread();
    assert!(turns > 2, "{turns} turns");
    assert_eq!(page.view().results, Some(single_run(&s)));
    assert_eq!(page.marks("coarse"), vec![1]);
    assert_eq!(page.marks("full"), vec![1]);
    assert!(page.marked_before("coarse", "full", 1));
}

#[test]
fn a_scenario_too_large_for_the_main_thread_is_refused_there_with_the_reason() {
    let mut s = scenario(40);
    s.job_classes[0].arrivals = crate::model::scenario::Arrivals::Poisson { per_day: 2_000.0 };
    s.horizon_days = 365.0;
    assert!(!main_thread_fits(&s));
    let mut page = Page::with_workers(0);
    page.input(&s);
    assert_eq!(page.run_main_thread(), 0);
    assert!(page.view().error.as_ref().unwrap().contains("main thread"));
    assert!(!page.view().running);
}

#[test]
fn an_invalid_scenario_says_why_and_starts_nothing() {
    let mut page = Page::ready(1);
    page.input(&Scenario {
        replications: 0,
        ..scenario(40)
    });
    assert!(page.view().error.as_ref().unwrap().contains("replications"));
    assert!(page.workers[0].inbox.is_empty());
    assert!(!page.view().running);
    assert!(page.view().verdict_final);
}

#[test]
fn the_sensitivity_pass_starts_once_the_inputs_settle_after_a_complete_run() {
    let s = scenario(40);
    let mut page = Page::ready(2);
    page.input(&s);
    page.settle_workers();
    assert!(page.workers.iter().all(|w| w.inbox.is_empty()));
    // The numbers are final, the verdict not yet: its tornado sentence is to come.
    assert!(!page.view().running && !page.view().verdict_final);
    page.advance(SENSITIVITY_SETTLE_MS);
    assert!(matches!(
        page.workers[0].inbox.front(),
        Some(WorkerInput::Tornado { run_id: 1, .. })
    ));
    assert!(matches!(
        page.workers[1].inbox.front(),
        Some(WorkerInput::BreakEvens { run_id: 1, .. })
    ));
    // What would flip the verdict follows the break-evens, where the verdict names a winner.
    let results = page.view().results.clone().unwrap();
    let expected = verdict_flips(&s, &VerdictBasis::of(&s), &results);
    assert!(expected.is_some(), "the scenario's verdict names a winner");
    assert!(matches!(
        page.workers[1].inbox.get(1),
        Some(WorkerInput::Flips { run_id: 1, .. })
    ));
    assert!(!page.view().flips_done);
    page.settle_workers();
    assert!(page.view().verdict_final);
    // The worker's pass is the CLI's, to the bit.
    assert_eq!(page.view().flips, expected);
    let tornado = &page.view().tornado;
    assert_eq!(tornado.progress, 1.0);
    assert_eq!(
        tornado.bars,
        TornadoRun::new(&s, TORNADO_PCT, TORNADO_REPS)
            .map(|mut t| {
                while !t.step() {}
                t.bars()
            })
            .unwrap()
    );
}

#[test]
fn a_newer_input_before_the_inputs_settle_skips_the_older_runs_sensitivity_pass() {
    let mut page = Page::ready(1);
    page.input(&scenario(40));
    page.settle_workers();
    page.advance(SENSITIVITY_SETTLE_MS - 10.0);
    page.input(&Scenario {
        seed: 6,
        ..scenario(40)
    });
    page.advance(20.0);
    let asked_tornado = page.commands.iter().any(|c| {
        matches!(
            c,
            Command::Send {
                input: WorkerInput::Tornado { .. },
                ..
            }
        )
    });
    assert!(!asked_tornado);
}

#[test]
fn without_workers_the_tornado_runs_on_the_main_thread_before_the_break_evens() {
    let s = scenario(40);
    let mut page = Page::with_workers(0);
    page.input(&s);
    page.run_main_thread();
    page.advance(SENSITIVITY_SETTLE_MS);
    page.run_main_thread();
    assert_eq!(page.view().tornado.progress, 1.0);
    assert!(!page.view().tornado.bars.is_empty());
    let expected = {
        let mut set = BreakEvenSet::new(&s, BREAK_EVEN_REPS);
        while !set.is_empty() && !set.step() {}
        set.found()
    };
    assert_eq!(page.view().break_evens, expected);
}
