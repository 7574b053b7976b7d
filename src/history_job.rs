//! A job-history or request-trace import as a job of its own, with no web crate: the page
//! hands it the file's text, the options and the scenario; it answers with the scenario whose
//! workload (or a service's traffic) the fit replaced, or why nothing changed. The page runs it in a worker of its own (`history_worker`)
//! so that reading a large file never blocks input, or in place where no worker can start.

use crate::history::traffic::{traffic_source, TrafficFit, TrafficOptions};
use crate::history::{
    detect, fit_into_with_progress, HistoryError, HistoryFit, HistoryImportError, ImportOptions,
    SourceFormat,
};
use crate::model::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// What to import the text with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryJob {
    /// How to read the file.
    pub options: ImportOptions,
    /// The scenario the fitted classes join.
    pub scenario: Scenario,
    /// A request trace's import, when the file is one (`options` are then not read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic: Option<TrafficOptions>,
}

/// What an import answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum HistoryAnswer {
    /// The share of the text read so far (0–1).
    Progress(f64),
    /// The scenario with the fitted classes, and the fit.
    Fitted {
        /// The new scenario (validated).
        scenario: Box<Scenario>,
        /// The fit table.
        fit: Box<HistoryFit>,
    },
    /// The scenario with a request trace as a service's traffic, and the fit.
    Traffic {
        /// The new scenario (validated).
        scenario: Box<Scenario>,
        /// What was read and fitted.
        fit: Box<TrafficFit>,
    },
    /// Nothing changed, and why.
    Refused {
        /// In a sentence.
        message: String,
        /// A CSV whose columns need naming by hand: the page offers its mapping form.
        needs_mapping: bool,
    },
}

/// Imports `text`, telling `progress` how far it has read.
pub fn run(job: &HistoryJob, text: &str, progress: &mut dyn FnMut(f64)) -> HistoryAnswer {
    if let Some(options) = &job.traffic {
        let source = crate::history::source::Source::Text(text);
        return match traffic_source(&job.scenario, source, options, progress) {
            Ok((scenario, fit)) => HistoryAnswer::Traffic {
                scenario: Box::new(scenario),
                fit: Box::new(fit),
            },
            Err(e) => HistoryAnswer::Refused {
                message: format!("{e}; the scenario was not changed"),
                needs_mapping: false,
            },
        };
    }
    match fit_into_with_progress(&job.scenario, text, &job.options, progress) {
        Ok((scenario, fit)) => HistoryAnswer::Fitted {
            scenario: Box::new(scenario),
            fit: Box::new(fit),
        },
        Err(HistoryImportError::Fit(
            e @ (HistoryError::MissingColumn { .. } | HistoryError::NoSuchColumn { .. }),
        )) if job.options.format.unwrap_or_else(|| detect(text)) == SourceFormat::Csv => {
            HistoryAnswer::Refused {
                message: e.to_string(),
                needs_mapping: true,
            }
        }
        Err(HistoryImportError::Fit(e)) => HistoryAnswer::Refused {
            message: format!("{e}; the scenario was not changed"),
            needs_mapping: false,
        },
        Err(HistoryImportError::Invalid(e)) => HistoryAnswer::Refused {
            message: format!(
                "the fitted job classes do not fit this scenario ({e}); the workload was not changed"
            ),
            needs_mapping: false,
        },
    }
}

/// `run` as the worker does it: the job as JSON text in, each answer as JSON text out.
pub fn run_json(job: &str, text: &str, answer: &mut dyn FnMut(String)) {
    let job: HistoryJob = match serde_json::from_str(job) {
        Ok(j) => j,
        Err(e) => {
            let refused = HistoryAnswer::Refused {
                message: format!("the import job could not be read ({e})"),
                needs_mapping: false,
            };
            answer(serde_json::to_string(&refused).unwrap_or_default());
            return;
        }
    };
    let mut last = -1.0;
    let done = run(&job, text, &mut |share| {
        // At most a hundred progress messages.
        if share - last >= 0.01 {
            last = share;
            answer(serde_json::to_string(&HistoryAnswer::Progress(share)).unwrap_or_default());
        }
    });
    answer(serde_json::to_string(&done).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    const SACCT: &str = include_str!("../tests/data/sacct-gpu.txt");

    #[test]
    fn a_job_answers_progress_then_the_fit_as_json() {
        let job = HistoryJob {
            options: ImportOptions::default(),
            scenario: crate::workbench::presets::preset("batch-vs-eks-spot")
                .unwrap()
                .scenario(),
            traffic: None,
        };
        let mut answers = Vec::new();
        run_json(&serde_json::to_string(&job).unwrap(), SACCT, &mut |a| {
            answers.push(serde_json::from_str::<HistoryAnswer>(&a).unwrap())
        });
        assert!(matches!(answers.last(), Some(HistoryAnswer::Fitted { .. })));
        assert!(answers.contains(&HistoryAnswer::Progress(1.0)));
        // The same as the CLI's fit, through JSON and back.
        let (scenario, fit) = crate::history::fit_into(&job.scenario, SACCT, &job.options).unwrap();
        assert_eq!(
            answers.last(),
            Some(&HistoryAnswer::Fitted {
                scenario: Box::new(scenario),
                fit: Box::new(fit)
            })
        );
    }

    #[test]
    fn unknown_csv_columns_ask_for_a_mapping_and_other_refusals_do_not() {
        let job = HistoryJob {
            options: ImportOptions::default(),
            scenario: Scenario::default(),
            traffic: None,
        };
        let a = run(&job, "when,how_long\n1,2\n", &mut |_| {});
        assert!(
            matches!(
                a,
                HistoryAnswer::Refused {
                    needs_mapping: true,
                    ..
                }
            ),
            "{a:?}"
        );
        let b = run(&job, "a|b|c\n1|2|3\n", &mut |_| {});
        assert!(
            matches!(
                b,
                HistoryAnswer::Refused {
                    needs_mapping: false,
                    ..
                }
            ),
            "{b:?}"
        );
    }
}
