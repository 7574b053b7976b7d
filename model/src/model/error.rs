//! Typed validation errors: each names the field (a dotted path into the scenario JSON) and
//! what would be accepted, so the UI and the CLI can show a message a user can act on.

use std::fmt;

/// Why a scenario was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum ScenarioError {
    /// A number outside its allowed range.
    OutOfRange {
        /// Dotted path of the field, e.g. `platforms.0.spot_interruptions_per_node_hour`.
        field: String,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
        /// The value given.
        got: f64,
    },
    /// A list with too few or too many entries.
    Count {
        /// Dotted path of the list.
        field: String,
        /// Fewest entries allowed.
        min: usize,
        /// Most entries allowed.
        max: usize,
        /// Entries given.
        got: usize,
    },
    /// Two platforms share a name.
    DuplicateName {
        /// Dotted path of the second one.
        field: String,
        /// The repeated name.
        name: String,
    },
    /// A text field that must not be empty, or is too long.
    BadName {
        /// Dotted path of the field.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A value that is in range on its own but not acceptable as a whole.
    Invalid {
        /// Dotted path of the field.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A job class needs more GPU memory than the platform's GPU has.
    DoesNotFit {
        /// Dotted path of the job class's memory field.
        field: String,
        /// Job class name.
        job_class: String,
        /// Platform name.
        platform: String,
        /// GPU memory per GPU the job class needs, GB.
        need_gb: f64,
        /// GPU memory per GPU of the platform's GPU, GB.
        have_gb: f64,
    },
    /// A job class needs more GPUs than the platform can ever provide.
    TooManyGpus {
        /// Dotted path of the job class's GPU count.
        field: String,
        /// Job class name.
        job_class: String,
        /// Platform name.
        platform: String,
        /// GPUs per job.
        need: u32,
        /// GPUs available at most (max nodes × GPUs per node).
        have: u32,
    },
    /// The expected simulated work exceeds the engine's event budget.
    TooMuchWork {
        /// What to reduce.
        field: String,
        /// Expected jobs in the horizon.
        jobs: f64,
        /// The limit.
        limit: f64,
    },
    /// The scenario JSON could not be read.
    Parse {
        /// The parser's message (it names the line and column or the field).
        message: String,
    },
}

impl ScenarioError {
    /// The same error with its field path rewritten by `f` (a parse error has none).
    pub fn with_field(self, f: impl Fn(&str) -> String) -> ScenarioError {
        use ScenarioError::*;
        match self {
            OutOfRange {
                field,
                min,
                max,
                got,
            } => OutOfRange {
                field: f(&field),
                min,
                max,
                got,
            },
            Count {
                field,
                min,
                max,
                got,
            } => Count {
                field: f(&field),
                min,
                max,
                got,
            },
            DuplicateName { field, name } => DuplicateName {
                field: f(&field),
                name,
            },
            BadName { field, reason } => BadName {
                field: f(&field),
                reason,
            },
            Invalid { field, reason } => Invalid {
                field: f(&field),
                reason,
            },
            DoesNotFit {
                field,
                job_class,
                platform,
                need_gb,
                have_gb,
            } => DoesNotFit {
                field: f(&field),
                job_class,
                platform,
                need_gb,
                have_gb,
            },
            TooManyGpus {
                field,
                job_class,
                platform,
                need,
                have,
            } => TooManyGpus {
                field: f(&field),
                job_class,
                platform,
                need,
                have,
            },
            TooMuchWork { field, jobs, limit } => TooMuchWork {
                field: f(&field),
                jobs,
                limit,
            },
            Parse { message } => Parse { message },
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::OutOfRange {
                field,
                min,
                max,
                got,
            } => write!(f, "{field} must be from {min} to {max}; got {got}"),
            ScenarioError::Count {
                field,
                min,
                max,
                got,
            } => write!(f, "{field} must have {min} to {max} entries; got {got}"),
            ScenarioError::DuplicateName { field, name } => {
                write!(
                    f,
                    "{field}: the name \"{name}\" is already used by another platform"
                )
            }
            ScenarioError::BadName { field, reason } | ScenarioError::Invalid { field, reason } => {
                write!(f, "{field}: {reason}")
            }
            ScenarioError::DoesNotFit {
                field,
                job_class,
                platform,
                need_gb,
                have_gb,
            } => write!(
                f,
                "{field}: job class \"{job_class}\" needs {need_gb} GB per GPU but platform \
                 \"{platform}\" has {have_gb} GB GPUs"
            ),
            ScenarioError::TooManyGpus {
                field,
                job_class,
                platform,
                need,
                have,
            } => write!(
                f,
                "{field}: job class \"{job_class}\" needs {need} GPUs but platform \
                 \"{platform}\" has at most {have}"
            ),
            ScenarioError::TooMuchWork { field, jobs, limit } => write!(
                f,
                "{field}: about {jobs:.0} jobs in the horizon exceeds the limit of {limit:.0}; \
                 shorten the horizon or lower the arrival rate"
            ),
            ScenarioError::Parse { message } => write!(f, "scenario JSON: {message}"),
        }
    }
}

impl std::error::Error for ScenarioError {}
