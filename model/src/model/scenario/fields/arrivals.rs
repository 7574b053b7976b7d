//! How an item's jobs arrive, as rows for any item that has arrivals: a job class, a pipeline's runs.

use super::*;

/// An item whose jobs arrive by [`Arrivals`]: a job class, or a pipeline (its runs).
pub trait Arrives {
    /// How its jobs arrive.
    fn arrivals(&self) -> &Arrivals;
    /// How its jobs arrive, to edit.
    fn arrivals_mut(&mut self) -> &mut Arrivals;
}

impl Arrives for JobClass {
    fn arrivals(&self) -> &Arrivals {
        &self.arrivals
    }
    fn arrivals_mut(&mut self) -> &mut Arrivals {
        &mut self.arrivals
    }
}

impl Arrives for Pipeline {
    fn arrivals(&self) -> &Arrivals {
        &self.arrivals
    }
    fn arrivals_mut(&mut self) -> &mut Arrivals {
        &mut self.arrivals
    }
}

fn per_day<T: Arrives>(c: &T) -> Option<f64> {
    match *c.arrivals() {
        Arrivals::Steady { per_day }
        | Arrivals::Poisson { per_day }
        | Arrivals::HourOfDay { per_day, .. } => Some(per_day),
        Arrivals::Bursts { .. } => None,
    }
}

fn set_per_day<T: Arrives>(c: &mut T, v: f64) {
    match c.arrivals_mut() {
        Arrivals::Steady { per_day }
        | Arrivals::Poisson { per_day }
        | Arrivals::HourOfDay { per_day, .. } => *per_day = v,
        Arrivals::Bursts { .. } => {}
    }
}

/// The rows of how an item's jobs arrive (a job class's, a pipeline's runs), in validation
/// order: `arrivals.kind`, `.per_day`, `.bursts_per_day`, `.jobs_per_burst`,
/// `.hourly_weights`, `.weekday_weights`. `what` names what arrives ("Jobs", "Runs").
const fn arrival_rows<T: Arrives>(what: ArrivalWords) -> [Field<T>; 6] {
    [
        Field::<T>::other("arrivals.kind", "Arrivals", Value::Choice {
            choices: &[
                ("poisson", "Poisson (random)"),
                ("steady", "Steady (evenly spaced)"),
                ("bursts", "Bursts of 12"),
                ("hour_of_day", "Poisson by hour of day (from a job history)"),
            ],
            get: |c| match c.arrivals() {
                Arrivals::Steady { .. } => "steady",
                Arrivals::Poisson { .. } => "poisson",
                Arrivals::Bursts { .. } => "bursts",
                Arrivals::HourOfDay { .. } => "hour_of_day",
            },
            set: |c, kind| {
                let next = crate::workbench::edit::arrivals_of_kind(c.arrivals(), kind);
                *c.arrivals_mut() = next;
            },
        })
        .doc(what.kind_doc),
        Field::<T>::number("arrivals.per_day", what.per_day_label, "/day", (0.0, 1e6), per_day, set_per_day)
            .doc(what.per_day_doc).control(Control::Elsewhere),
        Field::<T>::number("arrivals.bursts_per_day", "Bursts per day", "/day", (0.0, 1e5),
            |c| match c.arrivals() { Arrivals::Bursts { bursts_per_day, .. } => Some(*bursts_per_day), _ => None },
            |c, v| if let Arrivals::Bursts { bursts_per_day, .. } = c.arrivals_mut() { *bursts_per_day = v })
            .doc("Mean bursts a day.").control(Control::Elsewhere),
        Field::<T>::number("arrivals.jobs_per_burst", what.per_burst_label, "", (1.0, 1e4),
            |c| match c.arrivals() { Arrivals::Bursts { jobs_per_burst, .. } => Some(f64::from(*jobs_per_burst)), _ => None },
            |c, v| if let Arrivals::Bursts { jobs_per_burst, .. } = c.arrivals_mut() { *jobs_per_burst = v as u32 })
            .doc(what.per_burst_doc).control(Control::Elsewhere),
        Field {
            min: 0.0,
            max: 1e6,
            ..Field::<T>::other("arrivals.hourly_weights", "Hour-of-day weights", Value::Numbers {
                get: |c| match c.arrivals() { Arrivals::HourOfDay { hourly_weights, .. } => Some(hourly_weights.as_slice()), _ => None },
                series: Series::HourOfDay,
            })
        }
        .doc("24 non-negative weights, one per hour of the day; only their ratios matter.")
        .source("fitted from a job history")
        .control(Control::Elsewhere),
        Field {
            min: 0.0,
            max: 1e6,
            ..Field::<T>::other("arrivals.weekday_weights", "Day-of-week weights", Value::Numbers {
                get: |c| match c.arrivals() { Arrivals::HourOfDay { weekday_weights, .. } => weekday_weights.as_deref(), _ => None },
                series: Series::DayOfWeek,
            })
        }
        .doc("7 non-negative weights, Monday first (the horizon starts on a Monday); only their ratios matter. Absent: every day alike.")
        .source("fitted from a job history")
        .control(Control::Elsewhere),
    ]
}

/// The words of [`arrival_rows`] for what arrives.
#[derive(Clone, Copy)]
struct ArrivalWords {
    kind_doc: &'static str,
    per_day_label: &'static str,
    per_day_doc: &'static str,
    per_burst_label: &'static str,
    per_burst_doc: &'static str,
}

/// A job class's arrival rows.
pub(super) const CLASS_ARRIVALS: [Field<JobClass>; 6] = arrival_rows(ArrivalWords {
    kind_doc: "How jobs of the class arrive.",
    per_day_label: "Jobs per day",
    per_day_doc: "Jobs a day (mean, for random arrivals).",
    per_burst_label: "Jobs per burst",
    per_burst_doc: "Jobs each burst submits at once.",
});

/// A pipeline's arrival rows (its runs).
pub(super) const PIPELINE_ARRIVALS: [Field<Pipeline>; 6] = arrival_rows(ArrivalWords {
    kind_doc: "How runs of the pipeline arrive (each run submits its first stages).",
    per_day_label: "Runs a day",
    per_day_doc: "Runs a day (mean, for random arrivals).",
    per_burst_label: "Runs per burst",
    per_burst_doc: "Runs each burst starts at once.",
});
