//! The page's edits of a job class: its arrival rate and duration set whatever the kind of
//! its arrivals or distribution, and a switch of its arrival kind at the same rate.

use crate::model::scenario::{empirical_quantile, Arrivals, Duration, JobClass};

/// Mean jobs per day of `class`, whatever its arrival kind.
pub fn jobs_per_day(class: &JobClass) -> Option<f64> {
    Some(class.arrivals.jobs_per_day())
}

/// Sets `class`'s mean jobs per day, keeping its arrival kind: bursts keep their size and
/// change how often they come; other kinds scale (an hour-of-day profile keeps its shape).
pub fn set_jobs_per_day(class: &mut JobClass, v: f64) {
    let now = class.arrivals.jobs_per_day();
    class.arrivals = match &class.arrivals {
        Arrivals::Bursts { jobs_per_burst, .. } => Arrivals::Bursts {
            bursts_per_day: v / f64::from(*jobs_per_burst),
            jobs_per_burst: *jobs_per_burst,
        },
        other if now > 0.0 => other.scaled(v / now),
        Arrivals::Steady { .. } => Arrivals::Steady { per_day: v },
        _ => Arrivals::Poisson { per_day: v },
    };
}

/// Switches `class`'s arrivals to the kind with this JSON name (`poisson`, `steady`,
/// `bursts`, `hour_of_day`) at the same mean rate; bursts come 12 at a time, a new hour-of-day
/// profile is flat, and an existing one is kept. An unknown name means Poisson.
pub fn set_arrivals_kind(class: &mut JobClass, kind: &str) {
    class.arrivals = arrivals_of_kind(&class.arrivals, kind);
}

/// `arrivals` as arrivals of `kind` at the same rate: bursts of 12; an hour-of-day profile
/// kept where it is one, else flat; Poisson for any other kind.
pub fn arrivals_of_kind(arrivals: &Arrivals, kind: &str) -> Arrivals {
    let per_day = arrivals.jobs_per_day();
    match kind {
        "steady" => Arrivals::Steady { per_day },
        "bursts" => Arrivals::Bursts {
            bursts_per_day: per_day / 12.0,
            jobs_per_burst: 12,
        },
        "hour_of_day" => match arrivals {
            keep @ Arrivals::HourOfDay { .. } => keep.clone(),
            _ => Arrivals::HourOfDay {
                per_day,
                hourly_weights: vec![1.0; 24],
                weekday_weights: None,
            },
        },
        _ => Arrivals::Poisson { per_day },
    }
}

/// The median duration of `class` in hours (a fixed duration's hours, an exponential's
/// mean: what the page's median field shows for them).
pub fn duration_median(class: &JobClass) -> Option<f64> {
    Some(match class.duration {
        Duration::Fixed { hours } => hours,
        Duration::LogNormal { median_hours, .. } => median_hours,
        Duration::Exponential { mean_hours } => mean_hours,
        Duration::Empirical { .. } => class.duration.quantile_hours(0.5),
    })
}

/// Sets the median field: a fixed or exponential duration takes it as its hours or mean; a
/// log-normal's 90th percentile rises to it if it was lower.
pub fn set_duration_median(class: &mut JobClass, v: f64) {
    // An empirical distribution keeps its shape: every quantile scales with the median.
    if let Duration::Empirical {
        quantile_hours,
        probabilities,
    } = &mut class.duration
    {
        let median = empirical_quantile(quantile_hours, probabilities, 0.5);
        if median > 0.0 {
            let scale = v / median;
            quantile_hours.iter_mut().for_each(|q| *q *= scale);
        }
        return;
    }
    class.duration = match class.duration {
        Duration::Fixed { .. } => Duration::Fixed { hours: v },
        Duration::LogNormal { p90_hours, .. } => Duration::LogNormal {
            median_hours: v,
            p90_hours: p90_hours.max(v),
        },
        Duration::Exponential { .. } => Duration::Exponential { mean_hours: v },
        Duration::Empirical { .. } => unreachable!("scaled above"),
    }
}

/// The 90th percentile of `class`'s duration in hours (exact for each distribution).
pub fn duration_p90(class: &JobClass) -> Option<f64> {
    Some(match class.duration {
        Duration::LogNormal { p90_hours, .. } => p90_hours,
        Duration::Fixed { hours } => hours,
        Duration::Exponential { mean_hours } => mean_hours * std::f64::consts::LN_10,
        Duration::Empirical { .. } => class.duration.quantile_hours(0.9),
    })
}

/// Sets the 90th percentile: the duration becomes log-normal through the current median
/// (lowered to `v` if it was above).
pub fn set_duration_p90(class: &mut JobClass, v: f64) {
    let median = match class.duration {
        Duration::Fixed { hours } => hours,
        Duration::LogNormal { median_hours, .. } => median_hours,
        Duration::Exponential { mean_hours } => mean_hours * std::f64::consts::LN_2,
        Duration::Empirical { .. } => class.duration.quantile_hours(0.5),
    };
    class.duration = Duration::LogNormal {
        median_hours: median.min(v),
        p90_hours: v,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_keeps_its_arrival_kind_when_its_rate_is_set() {
        let mut c = JobClass::default();
        set_arrivals_kind(&mut c, "bursts");
        assert_eq!(
            c.arrivals,
            Arrivals::Bursts {
                bursts_per_day: 1.0,
                jobs_per_burst: 12
            }
        );
        set_jobs_per_day(&mut c, 36.0);
        assert_eq!(
            c.arrivals,
            Arrivals::Bursts {
                bursts_per_day: 3.0,
                jobs_per_burst: 12
            }
        );
        set_arrivals_kind(&mut c, "hour_of_day");
        set_jobs_per_day(&mut c, 72.0);
        assert_eq!(jobs_per_day(&c), Some(72.0));
        assert!(
            matches!(&c.arrivals, Arrivals::HourOfDay { hourly_weights, .. } if hourly_weights == &vec![1.0; 24])
        );
    }

    #[test]
    fn a_p90_below_the_median_lowers_the_median() {
        let mut c = JobClass {
            duration: Duration::Exponential { mean_hours: 2.0 },
            ..JobClass::default()
        };
        // An exponential's median is mean × ln 2 and its 90th percentile mean × ln 10.
        assert!((duration_p90(&c).unwrap() - 2.0 * std::f64::consts::LN_10).abs() < 1e-12);
        set_duration_p90(&mut c, 1.0);
        assert_eq!(
            c.duration,
            Duration::LogNormal {
                median_hours: 1.0,
                p90_hours: 1.0
            }
        );
        set_duration_median(&mut c, 3.0);
        assert_eq!(
            c.duration,
            Duration::LogNormal {
                median_hours: 3.0,
                p90_hours: 3.0
            }
        );
    }
}
