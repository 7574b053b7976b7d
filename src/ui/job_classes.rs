//! The workload editor: one fieldset per job class (its legend the class's name), every field
//! of the class editable, and classes added or removed (1 to 16).

use super::controls::{numeric_fields, NumericSetting};
use crate::charts::format::trim_number;
use crate::model::scenario::{Arrivals, Duration, FailureKind, JobClass, Scenario};
use leptos::prelude::*;

const SETTINGS: &[NumericSetting<JobClass>] = &[
    (
        "Jobs per day",
        "/day",
        0.0,
        1e6,
        |c| c.arrivals.jobs_per_day(),
        |c, v| {
            let now = c.arrivals.jobs_per_day();
            c.arrivals = match &c.arrivals {
                Arrivals::Bursts { jobs_per_burst, .. } => Arrivals::Bursts {
                    bursts_per_day: v / f64::from(*jobs_per_burst),
                    jobs_per_burst: *jobs_per_burst,
                },
                other if now > 0.0 => other.scaled(v / now),
                Arrivals::Steady { .. } => Arrivals::Steady { per_day: v },
                _ => Arrivals::Poisson { per_day: v },
            };
        },
    ),
    (
        "Duration, median (on the reference GPU)",
        "h",
        1.0 / 3600.0,
        8_784.0,
        |c| match c.duration {
            Duration::Fixed { hours } => hours,
            Duration::LogNormal { median_hours, .. } => median_hours,
            Duration::Exponential { mean_hours } => mean_hours,
        },
        |c, v| {
            c.duration = match c.duration {
                Duration::Fixed { .. } => Duration::Fixed { hours: v },
                Duration::LogNormal { p90_hours, .. } => Duration::LogNormal {
                    median_hours: v,
                    p90_hours: p90_hours.max(v),
                },
                Duration::Exponential { .. } => Duration::Exponential { mean_hours: v },
            }
        },
    ),
    (
        "Duration, 90th percentile",
        "h",
        1.0 / 3600.0,
        87_840.0,
        |c| match c.duration {
            Duration::LogNormal { p90_hours, .. } => p90_hours,
            Duration::Fixed { hours } => hours,
            Duration::Exponential { mean_hours } => mean_hours * std::f64::consts::LN_10,
        },
        |c, v| {
            let median = match c.duration {
                Duration::Fixed { hours } => hours,
                Duration::LogNormal { median_hours, .. } => median_hours,
                Duration::Exponential { mean_hours } => mean_hours * std::f64::consts::LN_2,
            };
            c.duration = Duration::LogNormal {
                median_hours: median.min(v),
                p90_hours: v,
            };
        },
    ),
    (
        "GPUs per job",
        "",
        1.0,
        4_096.0,
        |c| f64::from(c.gpus_per_job),
        |c, v| c.gpus_per_job = v.round() as u32,
    ),
    (
        "GPU memory per GPU",
        "GB",
        0.0,
        1_024.0,
        |c| c.gpu_memory_gb,
        |c, v| c.gpu_memory_gb = v,
    ),
    (
        "Failure probability",
        "0–1",
        0.0,
        1.0,
        |c| c.failures.probability,
        |c, v| c.failures.probability = v,
    ),
    (
        "Retries",
        "",
        0.0,
        100.0,
        |c| f64::from(c.failures.max_retries),
        |c, v| c.failures.max_retries = v.round() as u32,
    ),
    (
        "Data read per attempt",
        "GB",
        0.0,
        1e7,
        |c| c.data_read_gb_per_attempt,
        |c, v| c.data_read_gb_per_attempt = v,
    ),
    (
        "Share of data read that is billed",
        "0–1",
        0.0,
        1.0,
        |c| c.data_read_billed_share,
        |c, v| c.data_read_billed_share = v,
    ),
    (
        "Egress per finished job",
        "GB",
        0.0,
        1e7,
        |c| c.egress_gb_per_job,
        |c, v| c.egress_gb_per_job = v,
    ),
    (
        "Container image",
        "GB",
        0.0,
        1_000.0,
        |c| c.image_gb,
        |c, v| c.image_gb = v,
    ),
    (
        "Checkpoint interval",
        "min",
        0.0,
        1e5,
        |c| c.checkpoint_interval_min,
        |c, v| c.checkpoint_interval_min = v,
    ),
    (
        "Checkpoint write time",
        "s",
        0.0,
        86_400.0,
        |c| c.checkpoint_write_s,
        |c, v| c.checkpoint_write_s = v,
    ),
    (
        "Restart overhead",
        "s",
        0.0,
        86_400.0,
        |c| c.restart_overhead_s,
        |c, v| c.restart_overhead_s = v,
    ),
];

/// One job class.
#[component]
pub fn JobClassFieldset(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let name = move || {
        scenario.with(|s| {
            s.job_classes
                .get(index)
                .map(|c| c.name.clone())
                .unwrap_or_default()
        })
    };
    let update = move |f: Box<dyn FnOnce(&mut JobClass)>| {
        scenario.update(|s| {
            if let Some(c) = s.job_classes.get_mut(index) {
                f(c);
            }
        })
    };
    let arrivals_kind = move || {
        scenario.with(|s| match s.job_classes.get(index).map(|c| &c.arrivals) {
            Some(Arrivals::Steady { .. }) => "steady",
            Some(Arrivals::Bursts { .. }) => "bursts",
            Some(Arrivals::HourOfDay { .. }) => "hour_of_day",
            _ => "poisson",
        })
    };
    let failure_kind = move || {
        scenario.with(
            |s| match s.job_classes.get(index).map(|c| c.failures.kind) {
                Some(FailureKind::Deterministic) => "deterministic",
                _ => "transient",
            },
        )
    };
    // "anywhere", or the share of the run at which attempts fail ("0", "0.5", "1", …).
    let failure_point = move || {
        scenario.with(
            |s| match s.job_classes.get(index).and_then(|c| c.failures.at_share) {
                Some(share) => share.to_string(),
                None => "anywhere".to_string(),
            },
        )
    };
    // A share set in a scenario document that none of the options names gets one of its own.
    let other_failure_point = move || {
        scenario.with(
            |s| match s.job_classes.get(index).and_then(|c| c.failures.at_share) {
                Some(share) if ![0.0, 0.5, 1.0].contains(&share) => Some(view! {
                    <option value=share.to_string()>
                        {format!("After {} % of the run", trim_number(share * 100.0))}
                    </option>
                }),
                _ => None,
            },
        )
    };
    let fields = numeric_fields(
        scenario,
        index,
        "class",
        SETTINGS,
        |s, i| s.job_classes.get(i),
        |s, i| s.job_classes.get_mut(i),
    );
    view! {
        <fieldset class="job-class">
            <legend>{name}</legend>
            <div class="field">
                <label for=format!("class-{index}-arrivals")>"Arrivals"</label>
                <select
                    id=format!("class-{index}-arrivals")
                    prop:value=arrivals_kind
                    on:change=move |ev| {
                        let kind = event_target_value(&ev);
                        update(Box::new(move |c| {
                            let per_day = c.arrivals.jobs_per_day();
                            c.arrivals = match kind.as_str() {
                                "steady" => Arrivals::Steady { per_day },
                                "bursts" => Arrivals::Bursts { bursts_per_day: per_day / 12.0, jobs_per_burst: 12 },
                                "hour_of_day" => match &c.arrivals {
                                    keep @ Arrivals::HourOfDay { .. } => keep.clone(),
                                    _ => Arrivals::HourOfDay { per_day, hourly_weights: vec![1.0; 24] },
                                },
                                _ => Arrivals::Poisson { per_day },
                            };
                        }))
                    }
                >
                    <option value="poisson">"Poisson (random)"</option>
                    <option value="steady">"Steady (evenly spaced)"</option>
                    <option value="bursts">"Bursts of 12"</option>
                    <option value="hour_of_day">"Poisson by hour of day (from a job history)"</option>
                </select>
            </div>
            <div class="field">
                <label for=format!("class-{index}-failure-kind")>"Failure kind"</label>
                <select
                    id=format!("class-{index}-failure-kind")
                    prop:value=failure_kind
                    on:change=move |ev| {
                        let kind = if event_target_value(&ev) == "deterministic" {
                            FailureKind::Deterministic
                        } else {
                            FailureKind::Transient
                        };
                        update(Box::new(move |c| c.failures.kind = kind))
                    }
                >
                    <option value="transient">"Transient (a retry may succeed)"</option>
                    <option value="deterministic">"Deterministic (every retry fails)"</option>
                </select>
            </div>
            <div class="field">
                <label for=format!("class-{index}-failure-point")>"Where in the run it fails"</label>
                <select
                    id=format!("class-{index}-failure-point")
                    prop:value=failure_point
                    on:change=move |ev| {
                        let at_share = event_target_value(&ev).parse::<f64>().ok();
                        update(Box::new(move |c| c.failures.at_share = at_share))
                    }
                >
                    <option value="anywhere">"Anywhere (random)"</option>
                    <option value="0">"At the start (a bad dependency or setting)"</option>
                    <option value="0.5">"Half-way"</option>
                    <option value="1">"At the end"</option>
                    {other_failure_point}
                </select>
            </div>
            <details class="all-settings">
                <summary>"All settings"</summary>
                {fields}
            </details>
            <div class="buttons">
                <button
                    type="button"
                    disabled=move || scenario.with(|s| s.job_classes.len() <= 1)
                    on:click=move |_| scenario.update(|s| {
                        if s.job_classes.len() > 1 && index < s.job_classes.len() {
                            s.job_classes.remove(index);
                        }
                    })
                >
                    "Remove job class"
                </button>
            </div>
        </fieldset>
    }
}

/// Adds a job class (a copy of the defaults) up to the limit.
#[component]
pub fn AddJobClass(scenario: RwSignal<Scenario>) -> impl IntoView {
    let full = move || {
        scenario.with(|s| s.job_classes.len() >= crate::model::scenario::limits::JOB_CLASSES_MAX)
    };
    view! {
        <button
            type="button"
            disabled=full
            on:click=move |_| scenario.update(|s| {
                if s.job_classes.len() < crate::model::scenario::limits::JOB_CLASSES_MAX {
                    let n = s.job_classes.len() + 1;
                    s.job_classes.push(JobClass { name: format!("Job class {n}"), ..JobClass::default() });
                }
            })
        >
            "Add job class"
        </button>
    }
}
