//! Money over time: commitment terms and how they are paid, one-off costs and the payback
//! view, and the price of waiting; each worked by hand.

use crate::support::{bare_class, bare_platform, scenario, with_pool};
use gpucost::model::monte_carlo::{run_replication, MonteCarlo};
use gpucost::model::payback::MONTHS;
use gpucost::model::scenario::commitment::Payment;
use gpucost::model::scenario::{Arrivals, Duration, Overflow, Platform, Scenario};
use gpucost::workbench::edit::apply_edits;
use gpucost::workbench::report::report;

fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() < 1e-6 * want.abs().max(1.0),
        "got {got}, want {want}"
    );
}

/// A static cluster of one reserved 1-GPU node at $`usd_per_hour` on demand and
/// `discount_pct` off, paid `payment` over `term_years`; nothing else costs anything.
fn reserved(
    name: &str,
    usd_per_hour: f64,
    discount_pct: f64,
    term_years: u32,
    payment: Payment,
) -> Platform {
    with_pool(bare_platform(name), |pool| {
        pool.on_demand_usd_per_node_hour = usd_per_hour;
        pool.purchase.reserved_share = 1.0;
        pool.purchase.reserved_discount_pct = discount_pct;
        pool.purchase.overflow = Overflow::None;
        pool.purchase.term_years = term_years;
        pool.purchase.payment = payment;
    })
}

/// A scenario of `platforms` with one short job a day, over 30 days and 2 replications.
fn of(platforms: Vec<Platform>) -> Scenario {
    let class = bare_class(
        Arrivals::Steady { per_day: 1.0 },
        Duration::Fixed { hours: 0.5 },
    );
    scenario(30.0, 2, vec![class], platforms)
}

fn report_of(s: &Scenario) -> gpucost::workbench::report::EvalReport {
    s.validate().unwrap();
    let mut run = MonteCarlo::new(s.clone()).unwrap();
    run.run_to_end();
    report(s, &run.results())
}

#[test]
fn a_three_year_all_upfront_commitment_amortises_to_a_thirty_sixth_a_month() {
    // One node at $10/h less 50 %: $5/h, $3,650 a 730-hour month, the whole TCO. Three years
    // paid at the start: 36 × $3,650 = $131,400, and nothing after it.
    let s = of(vec![reserved("3y", 10.0, 50.0, 3, Payment::AllUpfront)]);
    let r = report_of(&s);
    close(r.platforms[0].monthly_tco_usd().mean, 3_650.0);
    let line = &r.payback.as_ref().expect("a payback view").platforms[0];
    close(line.upfront_usd, 131_400.0);
    close(
        line.upfront_usd / 36.0,
        r.platforms[0].monthly_tco_usd().mean,
    );
    for m in 0..=MONTHS {
        close(line.cumulative_usd[m], 131_400.0);
        close(line.owed_usd[m], 0.0);
    }
}

#[test]
fn the_line_at_month_twelve_is_twelve_months_one_off_and_the_upfront_not_yet_amortised() {
    for (term, payment) in [
        (1, Payment::NoUpfront),
        (1, Payment::PartialUpfront),
        (1, Payment::AllUpfront),
        (3, Payment::NoUpfront),
        (3, Payment::PartialUpfront),
        (3, Payment::AllUpfront),
    ] {
        let mut platform = reserved("p", 10.0, 40.0, term, payment);
        // Spot nodes beyond the reservation: the TCO is more than the commitment.
        platform.first_pool_mut().purchase.overflow = Overflow::OnDemand;
        platform.one_off.engineer_months = 2.0;
        platform.one_off.usd = 5_000.0;
        let mut s = of(vec![platform]);
        s.job_classes[0].arrivals = Arrivals::Steady { per_day: 48.0 };
        s.job_classes[0].duration = Duration::Fixed { hours: 1.0 };
        let r = report_of(&s);
        let tco = r.platforms[0].monthly_tco_usd().mean;
        // $10 less 40 % = $6/h: $4,380 a month, committed for 12 × term months.
        let commitment = 4_380.0;
        assert!(tco > commitment + 1.0, "{tco}");
        let upfront = payment.upfront_share() * commitment * 12.0 * f64::from(term);
        let amortised_by_12 = payment.upfront_share() * commitment * 12.0;
        let one_off = 2.0 * 200_000.0 / 12.0 + 5_000.0;
        let line = &r.payback.as_ref().unwrap().platforms[0];
        close(line.one_off_usd, one_off);
        close(line.cumulative_usd[0], one_off + upfront);
        close(
            line.cumulative_usd[12],
            12.0 * tco + one_off + (upfront - amortised_by_12),
        );
        // What the term still asks monthly after month 12: nothing of a 1-year term (it
        // ended), 24 months of the monthly part of a 3-year one.
        let monthly_part = (1.0 - payment.upfront_share()) * commitment;
        let owed = if term == 1 { 0.0 } else { 24.0 * monthly_part };
        close(line.owed_usd[12], owed);
        // A renewed 1-year term pays its upfront again in month 13.
        if term == 1 {
            close(
                line.cumulative_usd[13] - line.cumulative_usd[12],
                tco - payment.upfront_share() * commitment + upfront,
            );
        }
        close(line.cumulative_usd[36], 36.0 * tco + one_off);
    }
}

#[test]
fn a_constant_saving_pays_back_in_one_off_over_the_saving() {
    // Today: a $10/h node, $7,300 a month. The move: a $5/h node ($3,650 a month) after six
    // engineer-months at $200,000 a year ($100,000): it pays back in 100,000 / 3,650 months.
    let today = reserved("today", 10.0, 0.0, 1, Payment::NoUpfront);
    let mut next = reserved("next", 5.0, 0.0, 1, Payment::NoUpfront);
    next.one_off.engineer_months = 6.0;
    let mut s = of(vec![next, today]);
    s.payback.current = "today".into();
    let r = report_of(&s);
    let view = r.payback.unwrap();
    assert_eq!(view.current, "today");
    assert_eq!(view.months.len(), 37);
    let next = &view.platforms[0];
    close(next.breakeven_month.unwrap(), 100_000.0 / 3_650.0);
    close(next.saving_at_36_months_usd, 36.0 * 3_650.0 - 100_000.0);
    assert_eq!(view.platforms[1].breakeven_month, None);
    // Ten engineer-months ($166,667) do not pay back within 36 months (36 × 3,650 = 131,400).
    let s = apply_edits(&s, &["platforms.0.one_off.engineer_months=10".into()]).unwrap();
    let view = report_of(&s).payback.unwrap();
    assert_eq!(view.platforms[0].breakeven_month, None);
}

#[test]
fn without_one_off_costs_or_upfront_payments_the_report_has_no_payback() {
    let s = of(vec![reserved("a", 10.0, 37.0, 1, Payment::NoUpfront)]);
    assert!(report_of(&s).payback.is_none());
    let text = serde_json::to_string(&s).unwrap();
    for field in [
        "term_years",
        "payment",
        "commitment",
        "one_off",
        "payback",
        "waiting",
    ] {
        assert!(!text.contains(field), "{field} in {text}");
    }
}

#[test]
fn commitments_the_clouds_do_not_sell_are_refused_naming_the_field() {
    let base = of(vec![reserved("a", 10.0, 37.0, 1, Payment::NoUpfront)]);
    for (edit, field) in [
        (
            "platforms.0.purchase.term_years=2",
            "platforms.0.node_pools.0.purchase.term_years",
        ),
        (
            "platforms.0.node_pools.0.purchase.term_years=2",
            "platforms.0.node_pools.0.purchase.term_years",
        ),
    ] {
        let message = apply_edits(&base, &[edit.into()]).unwrap_err().to_string();
        assert!(
            message.contains(field) && message.contains("1 or 3"),
            "{message}"
        );
    }
    // The old path is pool 0's.
    let s = apply_edits(&base, &["platforms.0.purchase.term_years=3".into()]).unwrap();
    assert_eq!(s.platforms[0].first_pool().purchase.term_years, 3);
    // GCP sells no upfront payment, and no spend-based commitment covers GPUs.
    let mut gcp = base.clone();
    gcp.platforms[0].cloud = gpucost::model::scenario::Cloud::Gcp;
    let edit = |s: &Scenario, e: &str| apply_edits(s, &[e.into()]).unwrap_err().to_string();
    let message = edit(&gcp, "platforms.0.purchase.payment=all_upfront");
    assert!(
        message.contains("purchase.payment") && message.contains("GCP"),
        "{message}"
    );
    let message = edit(&gcp, "platforms.0.purchase.commitment=spend_based");
    assert!(message.contains("do not cover GPUs"), "{message}");
    // A current platform that does not exist; one that does.
    let message = edit(&base, "payback.current=nope");
    assert!(
        message.contains("payback.current") && message.contains("nope"),
        "{message}"
    );
    let s = apply_edits(&base, &["payback.current=a".into()]).unwrap();
    assert_eq!(s.payback.current, "a");
    // A negative one-off cost, by its path (the object is added for the edit).
    let message = edit(&base, "platforms.0.one_off.usd=-1");
    assert!(message.contains("platforms.0.one_off.usd"), "{message}");
}

#[test]
fn the_price_of_waiting_is_each_wait_times_its_people_times_the_rate() {
    // One 1-GPU node, never more (a static cluster); two 2-hour jobs of two classes arrive
    // at 0: the first (1 person waiting) starts at once, the second (3 people) waits 2 h.
    // At $100 an hour: (0 × 1 + 2 h × 3) × $100 = $600 over one day, $600 × 730 / 24 a month.
    let platform = reserved("one", 10.0, 0.0, 1, Payment::NoUpfront);
    let class = |name: &str, people: f64| {
        let mut c = bare_class(
            Arrivals::Steady { per_day: 1.0 },
            Duration::Fixed { hours: 2.0 },
        );
        c.name = name.into();
        c.people_blocked_per_job = people;
        c
    };
    let mut s = scenario(
        1.0,
        1,
        vec![class("solo", 1.0), class("team", 3.0)],
        vec![platform],
    );
    s.people.waiting_usd_per_hour = 100.0;
    let o = &run_replication(&s, 0)[0];
    close(o.queue_wait_mean_s, 3_600.0);
    close(o.waiting_cost_usd, 600.0 * 730.0 / 24.0);
    // Beside the TCO, never in it.
    s.people.waiting_usd_per_hour = 0.0;
    let off = &run_replication(&s, 0)[0];
    assert_eq!(off.waiting_cost_usd, 0.0);
    close(off.monthly_tco_usd, o.monthly_tco_usd);
}
