//! Request-trace import: the requests an LLM service received become its traffic. Two public
//! formats are read ([`read`]): the Azure LLM inference traces' CSV and Mooncake's JSON lines.
//! The fit ([`fit`]) takes the arrival rate as the requests over the trace's span, an
//! hour-of-day profile where the trace spans a day or more of clock time, a weekend factor
//! where it spans a week, and the prompt and output tokens' median and 90th percentile; or it
//! replays the arrivals minute by minute as they were. The traffic goes onto a service the
//! user names, or onto a new one. Every record that cannot be read is reported by line, and
//! what could not be fitted is said.

pub mod fit;
pub mod read;

use crate::clock::Clock;
use crate::source::Source;
use crate::BadRow;
use gpucost_model::model::error::ScenarioError;
use gpucost_model::model::scenario::limits::{REPLAY_MINUTES_MAX, TRACE_REQUESTS_MAX};
use gpucost_model::model::scenario::{Llm, Scenario, Service};
use serde::{Deserialize, Serialize};
use std::fmt;

pub use fit::TrafficFit;

/// A request-trace format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceFormat {
    /// The Azure LLM inference traces' CSV: `TIMESTAMP,ContextTokens,GeneratedTokens`.
    AzureCsv,
    /// Mooncake's JSON lines: `timestamp` (ms), `input_length`, `output_length`.
    Mooncake,
}

impl TraceFormat {
    /// The format's name as the notes say it.
    pub fn label(self) -> &'static str {
        match self {
            TraceFormat::AzureCsv => "Azure LLM inference trace (CSV)",
            TraceFormat::Mooncake => "Mooncake trace (JSON lines)",
        }
    }
}

/// One request of a trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request {
    /// Arrival, seconds (since 1970 for an absolute clock, from the trace's start otherwise).
    pub at_s: f64,
    /// Prompt tokens.
    pub input: u32,
    /// Output tokens.
    pub output: u32,
}

/// What a reader found, before the fit.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestRead {
    /// The format read.
    pub format: TraceFormat,
    /// How its times count.
    pub clock: Clock,
    /// The requests read, in file order.
    pub requests: Vec<Request>,
    /// Records skipped, by line.
    pub bad_rows: Vec<BadRow>,
    /// Blank and comment lines skipped.
    pub lines_skipped: usize,
    /// Records read.
    pub records_read: usize,
}

impl RequestRead {
    fn new(format: TraceFormat, clock: Clock) -> RequestRead {
        RequestRead {
            format,
            clock,
            requests: Vec::new(),
            bad_rows: Vec::new(),
            lines_skipped: 0,
            records_read: 0,
        }
    }
}

/// How to import a request trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrafficOptions {
    /// Zone of the date-times written without one, seconds east of UTC (default 0): it sets
    /// which hour of the day each request counts in.
    pub utc_offset_s: i64,
    /// Replay the arrivals minute by minute instead of fitting a rate.
    pub replay: bool,
    /// The service whose traffic the trace becomes; `None` adds a new service.
    pub service: Option<String>,
    /// The name of the service added when `service` is `None`.
    pub new_service_name: String,
}

impl Default for TrafficOptions {
    fn default() -> Self {
        TrafficOptions {
            utc_offset_s: 0,
            replay: false,
            service: None,
            new_service_name: "Traced traffic".to_string(),
        }
    }
}

/// Why a request trace could not be read, fitted or applied.
#[derive(Debug, Clone, PartialEq)]
pub enum TraceError {
    /// More requests than [`TRACE_REQUESTS_MAX`].
    TooManyRequests,
    /// Nothing, or no header row.
    Empty,
    /// Neither format: its first line is neither the Azure header nor a Mooncake record.
    NotATrace {
        /// The first line, shortened.
        first_line: String,
    },
    /// The Azure CSV's columns are not all there.
    MissingColumns {
        /// The header's names.
        header: Vec<String>,
    },
    /// The text stopped being readable.
    Unreadable {
        /// Line it stopped at (1 = the first).
        line: u64,
        /// Why.
        reason: String,
    },
    /// Fewer than two requests, or all at one instant: no rate.
    TooFewRequests {
        /// Requests usable.
        used: usize,
        /// Records skipped, by line.
        bad_rows: Vec<BadRow>,
    },
    /// From the first request to the last is longer than [`fit::SPAN_DAYS_MAX`] days.
    SpanTooLong {
        /// The span, days.
        days: f64,
    },
    /// A replay longer than [`REPLAY_MINUTES_MAX`] minutes.
    ReplayTooLong {
        /// Its minutes.
        minutes: usize,
    },
    /// No service of the name given.
    NoSuchService {
        /// The name given.
        name: String,
        /// The scenario's services.
        services: Vec<String>,
    },
    /// The scenario with the traffic is not valid.
    Invalid(ScenarioError),
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::TooManyRequests => write!(
                f,
                "the trace has more than {TRACE_REQUESTS_MAX} requests, the most the importer \
                 reads; split it by time"
            ),
            TraceError::Empty => write!(f, "the file is empty"),
            TraceError::NotATrace { first_line } => write!(
                f,
                "not a request trace: its first line, \"{first_line}\", is neither the Azure LLM \
                 trace's header (TIMESTAMP,ContextTokens,GeneratedTokens) nor a Mooncake record \
                 ({{\"timestamp\": …, \"input_length\": …, \"output_length\": …}})"
            ),
            TraceError::MissingColumns { header } => write!(
                f,
                "an Azure LLM trace needs the columns TIMESTAMP, ContextTokens and \
                 GeneratedTokens; the header has: {}",
                header.join(", ")
            ),
            TraceError::Unreadable { line, reason } if reason.contains("UTF-8") => {
                write!(f, "line {line} is not UTF-8 text: save the file as UTF-8")
            }
            TraceError::Unreadable { line, reason } => {
                write!(f, "the file could not be read at line {line}: {reason}")
            }
            TraceError::TooFewRequests { used, bad_rows } => {
                write!(
                    f,
                    "{used} usable request(s); a rate needs at least 2 at different times"
                )?;
                if let Some(first) = bad_rows.first() {
                    write!(
                        f,
                        " ({} skipped; line {}: {})",
                        bad_rows.len(),
                        first.line,
                        first.reason
                    )?;
                }
                Ok(())
            }
            TraceError::SpanTooLong { days } => write!(
                f,
                "the trace spans {days:.0} days from its first request to its last, more than \
                 the {} the importer reads: a date is most likely mistyped (see its earliest \
                 and latest times), or split the trace",
                fit::SPAN_DAYS_MAX
            ),
            TraceError::ReplayTooLong { minutes } => write!(
                f,
                "the trace spans {minutes} minutes; a replay holds at most {REPLAY_MINUTES_MAX} \
                 (a day, so that its minutes fit in a link): fit it instead (without replay), \
                 which keeps its rate, hourly profile and tokens"
            ),
            TraceError::NoSuchService { name, services } => {
                if services.is_empty() {
                    write!(
                        f,
                        "no service \"{name}\": the scenario has none (leave the service out to \
                         add one)"
                    )
                } else {
                    write!(
                        f,
                        "no service \"{name}\"; the scenario's are: {} (or leave the service out \
                         to add one)",
                        services.join(", ")
                    )
                }
            }
            TraceError::Invalid(e) => write!(f, "the scenario with this traffic is not valid: {e}"),
        }
    }
}

impl std::error::Error for TraceError {}

/// The format `text` (a file's first lines) is in, if it is a request trace.
pub fn detect(text: &str) -> Option<TraceFormat> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    if read::is_azure_header(first) {
        Some(TraceFormat::AzureCsv)
    } else if read::is_mooncake_line(first) {
        Some(TraceFormat::Mooncake)
    } else {
        None
    }
}

/// Reads a request trace from `source`, its format detected from its first lines.
pub fn read_source(
    mut source: Source,
    options: &TrafficOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<RequestRead, TraceError> {
    let head = source.start().map_err(|e| TraceError::Unreadable {
        line: 1,
        reason: e.to_string(),
    })?;
    let first_line = head
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| crate::shorten(60, l));
    let Some(first_line) = first_line else {
        return Err(TraceError::Empty);
    };
    let format = detect(&head).ok_or(TraceError::NotATrace { first_line })?;
    drop(head);
    let read = match format {
        TraceFormat::AzureCsv => read::read_azure(source, options.utc_offset_s, progress),
        TraceFormat::Mooncake => read::read_mooncake(source, progress),
    };
    progress(1.0);
    read
}

/// `scenario` with the trace in `source` as a service's traffic (and, for an LLM, its
/// token counts), validated, and the fit.
pub fn traffic_source(
    scenario: &Scenario,
    source: Source,
    options: &TrafficOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<(Scenario, TrafficFit), TraceError> {
    let read = read_source(source, options, progress)?;
    let mut fit = fit::fit_requests(read, options)?;
    let next = apply(scenario, &mut fit, options)?;
    Ok((next, fit))
}

/// [`traffic_source`] on text in memory (the page).
pub fn traffic_into(
    scenario: &Scenario,
    text: &str,
    options: &TrafficOptions,
) -> Result<(Scenario, TrafficFit), TraceError> {
    traffic_source(scenario, Source::Text(text), options, &mut |_| {})
}

/// The fitted traffic on the service `options` names, or on a new one: a copy of the
/// scenario's first LLM service (its model and objectives), else of its first service, else
/// a default LLM service.
fn apply(
    scenario: &Scenario,
    fit: &mut TrafficFit,
    options: &TrafficOptions,
) -> Result<Scenario, TraceError> {
    let mut next = scenario.clone();
    let index = match &options.service {
        Some(name) => next
            .services
            .iter()
            .position(|s| &s.name == name)
            .ok_or_else(|| TraceError::NoSuchService {
                name: name.clone(),
                services: next.services.iter().map(|s| s.name.clone()).collect(),
            })?,
        None => {
            let template = next
                .services
                .iter()
                .find(|s| s.llm.is_some())
                .or(next.services.first())
                .cloned();
            let mut service = match template {
                Some(t) => {
                    fit.notes.push(format!(
                        "A new service, \"{}\", is a copy of \"{}\" (its model, replicas and \
                         objectives) with the trace's traffic.",
                        options.new_service_name, t.name
                    ));
                    t
                }
                None => {
                    fit.notes.push(format!(
                        "A new service, \"{}\", serves the scenario's default LLM ({}) with the \
                         trace's traffic: choose its model in the service's settings.",
                        options.new_service_name,
                        Llm::default().model
                    ));
                    Service {
                        llm: Some(Llm::default()),
                        ..Service::default()
                    }
                }
            };
            let template_name = std::mem::replace(
                &mut service.name,
                unique_name(&next.services, &options.new_service_name),
            );
            // The platforms' own settings for the service copied (its replicas, autoscaling
            // target and tensor parallelism there), as the page's copy of a service does.
            for platform in &mut next.platforms {
                if let Some(own) = platform.service_settings.get(&template_name).cloned() {
                    platform.service_settings.insert(service.name.clone(), own);
                }
            }
            next.services.push(service);
            next.services.len() - 1
        }
    };
    let service = &mut next.services[index];
    fit.service = service.name.clone();
    if options.service.is_some() {
        let was = &service.traffic;
        let mut replaced = Vec::new();
        if was.hourly_profile.is_some() {
            replaced.push("hourly profile");
        }
        if was.weekend_factor != 1.0 {
            replaced.push("weekend factor");
        }
        if was.spikes.is_some() {
            replaced.push("spikes");
        }
        if !replaced.is_empty() {
            fit.notes.push(format!(
                "\"{}\" had its own {}: the trace's traffic replaces them.",
                service.name,
                replaced.join(", ")
            ));
        }
    }
    service.traffic = fit.traffic();
    match service.llm.as_mut() {
        Some(llm) => {
            llm.input_tokens = fit.input_tokens;
            llm.output_tokens = fit.output_tokens;
        }
        None => fit.notes.push(format!(
            "\"{}\" is not an LLM: its capacity is in requests, so the trace's token counts are \
             not read.",
            service.name
        )),
    }
    next.validate().map_err(TraceError::Invalid)?;
    Ok(next)
}

/// `name`, or `name 2`, `name 3`… where a service already has it.
fn unique_name(services: &[Service], name: &str) -> String {
    let taken = |n: &str| services.iter().any(|s| s.name == n);
    if !taken(name) {
        return name.to_string();
    }
    (2..)
        .map(|i| format!("{name} {i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| name.to_string())
}
