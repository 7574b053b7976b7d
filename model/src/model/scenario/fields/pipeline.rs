//! Fields of a pipeline (paths relative to `pipelines.<i>`).

use super::*;

/// Fields of a pipeline (relative to `pipelines.<i>`); its stages are job classes
/// ([`JOB_CLASS_FIELDS`] at `pipelines.<i>.stages.<j>`) without arrivals of their own.
pub static PIPELINE_FIELDS: &[Field<Pipeline>] = &[
    Field::<Pipeline>::other("name", "Name", Value::Name { get: |p| &p.name }).doc("Name shown in the page."),
    PIPELINE_ARRIVALS[0],
    PIPELINE_ARRIVALS[1],
    PIPELINE_ARRIVALS[2],
    PIPELINE_ARRIVALS[3],
    PIPELINE_ARRIVALS[4],
    PIPELINE_ARRIVALS[5],
    num!(Pipeline; "people_blocked_per_job", "People waiting per run", "", (0.0, 1_000.0),
        |p| p.people_blocked_per_job, |p, v| p.people_blocked_per_job = v)
        .doc("How many people wait for a run's result: the time a run loses to its stages' queue waits costs each of them the cost of a person waiting (when that is on).")
        .control(Control::Elsewhere),
];
