//! `gpucost`: the calculator's model on the command line (native only, no web crate).
//!
//! ```text
//! gpucost eval [--preset NAME | --scenario FILE.json] [--set path=value]… [--reps N]
//!              [--seed S] [--threads N] [--format json|csv|table]
//! gpucost presets
//! gpucost scenario --preset NAME
//! gpucost schema
//! gpucost link [--preset NAME] [--set path=value]…   # prints the link fragment
//! gpucost eval --url LINK                            # evaluates a shared link
//! gpucost cases [--format text|json] [--check]        # the seeds' case studies, checked
//! gpucost tune [--preset NAME | --scenario FILE.json] [--objective KEY]
//!              [--max-wait-p95-min X] [--max-slo-minutes Y] [--pin PATH]…
//!              [--format json|table] [--link]    # each platform at its best, then compared
//! ```
//!
//! Exit 0 on success; exit 2 with a one-line message naming the bad field or flag.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run());
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use clap::{Parser, Subcommand, ValueEnum};
    use gpucost::format::usd;
    use gpucost::model::monte_carlo::{MonteCarlo, Results};
    use gpucost::model::scenario::Scenario;
    use gpucost::model::stats::Summary;
    use gpucost::workbench::edit::apply_edits;
    use gpucost::workbench::presets::{preset, presets, DEFAULT};
    use gpucost::workbench::report::{report_csv, report_json_text};
    use gpucost::workbench::verdict::verdict;
    use gpucost::workbench::verdict_basis::VerdictBasis;
    use gpucost::workbench::verdict_flips::{verdict_flips, VerdictFlips};

    #[derive(Parser)]
    #[command(
        name = "gpucost",
        version,
        about = "GPU training and serving cost and scheduling calculator"
    )]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// Run the Monte Carlo simulation and print the results.
        Eval(EvalArgs),
        /// List the presets: name, then a one-line description.
        Presets,
        /// Print a preset's full scenario JSON (a template to edit).
        Scenario {
            /// Preset name (see `gpucost presets`).
            #[arg(long, default_value = DEFAULT)]
            preset: String,
        },
        /// Print the JSON schema of a scenario document (or of the `eval` report).
        Schema {
            /// Which document.
            #[arg(long, value_enum, default_value_t = SchemaOf::Scenario)]
            of: SchemaOf,
        },
        /// Fit job classes to a job history (a CSV table, Slurm `sacct -P` output or an SWF
        /// log, detected from its content) and print the preset's scenario with them (the fit
        /// summary and every skipped record go to stderr).
        History {
            /// The history: a CSV table, `sacct -P` output, or a Standard Workload Format log.
            file: std::path::PathBuf,
            /// Preset whose platforms and other settings the fitted classes join.
            #[arg(long, default_value = DEFAULT)]
            preset: String,
            /// Print the scenario's link instead of its JSON.
            #[arg(long)]
            link: bool,
            /// Start from this scenario JSON file instead of a preset.
            #[arg(long, conflicts_with = "preset")]
            scenario: Option<std::path::PathBuf>,
            /// Edit a field of the starting scenario by dotted path (as `eval --set`).
            #[arg(long = "set", value_name = "PATH=VALUE")]
            set: Vec<String>,
            /// Evaluate these exact jobs on each platform (arrivals, run times and outcomes
            /// as recorded; the horizon is the history's span) and print the `eval` report;
            /// with --link, print the link, which names the jobs by their content key (the
            /// page that imports the same file with "Replay the exact jobs" keeps them).
            #[arg(long)]
            replay: bool,
            /// The reader, when detection should not choose: csv, sacct or swf.
            #[arg(long)]
            reader: Option<String>,
            /// For `sacct --noheader` output: the `--format` field list it was written with,
            /// comma- or |-separated (e.g. JobID,State,Submit,Start,End,Elapsed,AllocTRES).
            #[arg(long, value_name = "FIELDS")]
            sacct_fields: Option<String>,
            /// Name a CSV column by hand: ROLE=HEADER, e.g. submit=creation_time; roles: submit,
            /// start, end, duration_s, duration_min, duration_h, duration, gpus, gpu_milli,
            /// cpus, gpu_model, outcome, team. Repeat for several.
            #[arg(long, value_name = "ROLE=HEADER")]
            column: Vec<String>,
            /// CPUs taken as one GPU in a history that counts CPUs only (sacct without GPU
            /// TRES, SWF); default 8.
            #[arg(long, value_name = "N")]
            cpus_per_gpu: Option<u32>,
            /// Zone of the times written without one, e.g. +02:00 or -05:00 (default UTC).
            #[arg(long, value_name = "OFFSET", allow_hyphen_values = true)]
            tz: Option<String>,
            /// Durations as an empirical quantile table (the default) or a log-normal through
            /// the median and 90th percentile.
            #[arg(long, value_enum, default_value_t = DurationsArg::Empirical)]
            durations: DurationsArg,
            /// GPUs of the cluster the jobs ran on: adds it as a reserved platform ("Recorded
            /// cluster", of the history's GPU model) and prints its simulated queue wait beside
            /// the observed one, a calibration check.
            #[arg(long, value_name = "N")]
            cluster_gpus: Option<u32>,
            /// One job class per team and GPU count instead of one per GPU count: the team is
            /// sacct's Account (else User), a CSV's team column, an SWF log's user.
            #[arg(long)]
            team_classes: bool,
            /// What a job stopped at its time limit (Slurm's TIMEOUT) is taken as: work kept
            /// to its last checkpoint (the default: training jobs commonly run to their limit
            /// and resume), or a failure whose work is lost.
            #[arg(long, value_enum, default_value_t = TimeoutsArg::Kept)]
            timeouts: TimeoutsArg,
        },
        /// Fit a service's traffic to a request trace (the Azure LLM inference trace's CSV or
        /// Mooncake's JSON lines, detected from the content) and print the preset's scenario
        /// with it (what was read, fitted and skipped goes to stderr).
        Traffic {
            /// The trace: `TIMESTAMP,ContextTokens,GeneratedTokens` CSV, or JSON lines with
            /// `timestamp` (ms), `input_length` and `output_length`.
            file: std::path::PathBuf,
            /// Preset the traffic joins.
            #[arg(long, default_value = DEFAULT)]
            preset: String,
            /// Start from this scenario JSON file instead of a preset.
            #[arg(long, conflicts_with = "preset")]
            scenario: Option<std::path::PathBuf>,
            /// Edit a field of the starting scenario by dotted path (as `eval --set`).
            #[arg(long = "set", value_name = "PATH=VALUE")]
            set: Vec<String>,
            /// The service whose traffic (and, for an LLM, token counts) the trace becomes;
            /// without it, a new service is added, a copy of the scenario's first LLM service.
            #[arg(long, value_name = "NAME")]
            service: Option<String>,
            /// The new service's name (without --service); default: the file's name.
            #[arg(long, value_name = "NAME", conflicts_with = "service")]
            name: Option<String>,
            /// Replay the arrivals minute by minute as recorded (a trace of at most a day),
            /// instead of fitting a rate.
            #[arg(long)]
            replay: bool,
            /// Zone of the times written without one, e.g. +02:00 or -05:00 (default UTC): the
            /// hours of the hourly profile.
            #[arg(long, value_name = "OFFSET", allow_hyphen_values = true)]
            tz: Option<String>,
            /// Print the scenario's link instead of its JSON.
            #[arg(long)]
            link: bool,
        },
        /// The seed articles' case studies: each story's claim beside the model's figure for
        /// the same quantity on its preset, and why they differ.
        Cases {
            /// Output format.
            #[arg(long, value_enum, default_value_t = CasesFormat::Text)]
            format: CasesFormat,
            /// Run every case's preset and check that the model's figure is the one shown
            /// (exit 2 naming any that moved).
            #[arg(long)]
            check: bool,
        },
        /// Put each platform at its best before comparing: search every platform's own
        /// settings (on demand or spot, instance type, reservation, node limit, warm pool,
        /// checkpoint intervals) for the lowest metric that does the same work within the
        /// constraints, then give the verdict among the tuned platforms.
        Tune(TuneArgs),
        /// Print the link of a preset with edits: its fragment (`#v=1&…`), or with a base
        /// URL the whole address to paste.
        Link {
            /// Preset the link starts from.
            #[arg(long, default_value = DEFAULT)]
            preset: String,
            /// The calculator's address, e.g. https://tools.example.com/gpucost/; the link is
            /// printed as this URL with the scenario as its fragment.
            #[arg(long, env = "GPUCOST_BASE_URL", value_name = "URL")]
            base: Option<String>,
            /// Edit a field by dotted path.
            #[arg(long = "set", value_name = "PATH=VALUE")]
            set: Vec<String>,
        },
    }

    #[derive(clap::Args)]
    struct EvalArgs {
        /// Start from this preset (default: the page's default preset).
        #[arg(long, conflicts_with_all = ["scenario", "url"])]
        preset: Option<String>,
        /// Start from a shared link (a whole URL or its fragment); anything the link could not
        /// carry is reported on stderr.
        #[arg(long, conflicts_with = "scenario")]
        url: Option<String>,
        /// Start from this scenario JSON file.
        #[arg(long)]
        scenario: Option<std::path::PathBuf>,
        /// Edit a field by dotted path, e.g. platforms.0.spot_interruptions_per_node_hour=0.02.
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// Monte Carlo replications (overrides the scenario's).
        #[arg(long)]
        reps: Option<u32>,
        /// Seed (overrides the scenario's).
        #[arg(long)]
        seed: Option<u64>,
        /// Threads to run replications on (default: one per core). The numbers do not depend
        /// on it.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// Skip what would flip the verdict (the inputs that move the winner's lead most and
        /// where each changes the winner), computed after the run by default.
        #[arg(long)]
        no_flips: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    }

    #[derive(clap::Args)]
    struct TuneArgs {
        /// Start from this preset (default: the page's default preset).
        #[arg(long, conflicts_with = "scenario")]
        preset: Option<String>,
        /// Start from this scenario JSON file.
        #[arg(long)]
        scenario: Option<std::path::PathBuf>,
        /// Edit a field of the starting scenario by dotted path (as `eval --set`).
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// What to minimise (default: the verdict's metric): monthly_tco_usd,
        /// usd_per_useful_gpu_hour, usd_per_million_requests or usd_per_completed_run.
        #[arg(long)]
        objective: Option<String>,
        /// Queue wait p95 at most this, minutes (default: no worse than as typed, within one
        /// standard error).
        #[arg(long, value_name = "X")]
        max_wait_p95_min: Option<f64>,
        /// SLO-violation minutes of each service at most this (default: the scenario's
        /// allowance).
        #[arg(long, value_name = "Y")]
        max_slo_minutes: Option<f64>,
        /// Pipeline end-to-end p95 at most this, hours (default: no worse than as typed,
        /// within one standard error).
        #[arg(long, value_name = "Z")]
        max_end_to_end_p95_h: Option<f64>,
        /// Keep a setting as it is, by dotted path (as --set names it), e.g.
        /// platforms.0.node_pools.0.purchase.reserved_share; platforms.1 keeps all of one.
        #[arg(long = "pin", value_name = "PATH")]
        pin: Vec<String>,
        /// Threads (default: one per core; a platform per thread). The numbers do not depend
        /// on it.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TuneFormat::Table)]
        format: TuneFormat,
        /// Print the tuned scenario's link fragment instead (relative to the preset).
        #[arg(long)]
        link: bool,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum TuneFormat {
        /// `{platforms: [{name, changes, as_typed, tuned, tuned_beats_as_typed_share,
        /// constraints_met, …}], verdict_as_typed, fair_verdict, scenario}`.
        Json,
        /// Each platform's changes and metric, then the two verdicts.
        Table,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum DurationsArg {
        /// A quantile table through the observed run times, keeping their mean.
        Empirical,
        /// A log-normal through their median and 90th percentile.
        LogNormal,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum TimeoutsArg {
        /// Its run counts as work kept.
        Kept,
        /// It counts as a failure, its work lost.
        Failed,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum CasesFormat {
        /// One block per case.
        Text,
        /// An array of the entries as `data/cases/` holds them (inputs, assumptions, the
        /// claim's figure, unit and scope, the model's metric and figure, the reading), each
        /// with the texts the page shows (`claim_text`, `model_text`, `beside_text`,
        /// `scope_text`, `reading_text`).
        Json,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum SchemaOf {
        /// A scenario (`gpucost scenario`, `--scenario FILE`).
        Scenario,
        /// The `gpucost eval` report.
        Report,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum Format {
        Json,
        /// One row per platform and metric (as the page's CSV download).
        Csv,
        Table,
    }

    /// Runs the CLI; returns the exit code.
    pub fn run() -> i32 {
        let cli = match Cli::try_parse() {
            Ok(cli) => cli,
            Err(e) => {
                let code = if e.use_stderr() { 2 } else { 0 };
                let _ = e.print();
                return code;
            }
        };
        match execute(cli.command) {
            Ok(out) => {
                use std::io::Write;
                // A closed pipe (`gpucost eval | head`) is not an error worth a message.
                let _ = writeln!(std::io::stdout().lock(), "{out}");
                0
            }
            Err(message) => {
                eprintln!("gpucost: {message}");
                2
            }
        }
    }

    fn execute(command: Command) -> Result<String, String> {
        match command {
            Command::Presets => Ok(presets()
                .iter()
                .map(|p| format!("{}\t{}", p.name, p.description))
                .collect::<Vec<_>>()
                .join("\n")),
            Command::Scenario { preset: name } => {
                let scenario = find_preset(&name)?;
                serde_json::to_string_pretty(&scenario).map_err(|e| e.to_string())
            }
            Command::Eval(args) => eval(args),
            Command::Cases { format, check } => cases(format, check),
            Command::Tune(args) => tune(args),
            Command::Link {
                preset: name,
                base: url,
                set,
            } => {
                let base = find_preset(&name)?;
                let scenario = apply_edits(&base, &set).map_err(set_error)?;
                let fragment = gpucost::workbench::link::encode_link(&scenario, &name);
                match url {
                    None => Ok(format!("#{fragment}")),
                    Some(url) => with_base(&url, &fragment),
                }
            }
            Command::History {
                file,
                preset: name,
                link,
                scenario,
                set,
                replay,
                reader,
                sacct_fields,
                column,
                cpus_per_gpu,
                tz,
                durations,
                cluster_gpus,
                team_classes,
                timeouts,
            } => {
                let mut options =
                    import_options(reader, sacct_fields, &column, cpus_per_gpu, tz, durations)?;
                if cluster_gpus == Some(0) {
                    return Err("--cluster-gpus 0: give the cluster's GPUs, from 1 up".to_string());
                }
                options.cluster_gpus = cluster_gpus;
                options.team_classes = team_classes;
                options.timeouts = match timeouts {
                    TimeoutsArg::Kept => gpucost::history::TimeoutsAs::Kept,
                    TimeoutsArg::Failed => gpucost::history::TimeoutsAs::Failed,
                };
                let base = match &scenario {
                    Some(path) => read_scenario(path)?,
                    None => find_preset(&name)?,
                };
                let base = apply_edits(&base, &set).map_err(set_error)?;
                options.replay = replay;
                let output = if link {
                    HistoryOutput::Link
                } else if replay {
                    HistoryOutput::Replay
                } else {
                    HistoryOutput::Scenario
                };
                history(&file, &base, &name, output, &options)
            }
            Command::Traffic {
                file,
                preset: name,
                scenario,
                set,
                service,
                name: new_name,
                replay,
                tz,
                link,
            } => {
                let base = match &scenario {
                    Some(path) => read_scenario(path)?,
                    None => find_preset(&name)?,
                };
                let base = apply_edits(&base, &set).map_err(set_error)?;
                let utc_offset_s = match tz {
                    None => 0,
                    Some(text) => {
                        gpucost::history::clock::parse_utc_offset(&text).ok_or_else(|| {
                            format!("--tz {text}: not a zone offset; give e.g. +02:00 or -05:00")
                        })?
                    }
                };
                let stem = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or("Traced traffic")
                    .to_string();
                let options = gpucost::history::traffic::TrafficOptions {
                    utc_offset_s,
                    replay,
                    service,
                    new_service_name: new_name.unwrap_or(stem),
                };
                traffic(&file, &base, &name, link, &options)
            }
            Command::Schema { of } => serde_json::to_string_pretty(&match of {
                SchemaOf::Scenario => schemars::schema_for!(Scenario),
                SchemaOf::Report => {
                    schemars::schema_for!(gpucost::workbench::report::EvalReport)
                }
            })
            .map_err(|e| e.to_string()),
        }
    }

    /// `gpucost cases`: the entries, or with `check` each one's figures recomputed.
    fn cases(format: CasesFormat, check: bool) -> Result<String, String> {
        use gpucost::workbench::cases::{cases, recompute_all, shows_as_stored};
        let all = cases();
        if check {
            let mut lines = Vec::new();
            let mut moved = Vec::new();
            for (case, figures) in all.iter().zip(recompute_all(&all)) {
                let (value, beside) = figures?;
                let ok = shows_as_stored(&case.model, value)
                    && match (&case.beside, beside) {
                        (Some(figure), Some(b)) => shows_as_stored(figure, b),
                        _ => true,
                    };
                lines.push(format!(
                    "{}\t{}\t{value}\t{}\t{}",
                    case.story,
                    case.model_text(),
                    case.claim.scope.key(),
                    if ok { "ok" } else { "moved" }
                ));
                if !ok {
                    moved.push(format!("{} (now {value}, beside {beside:?})", case.story));
                }
            }
            if !moved.is_empty() {
                return Err(format!(
                    "the model's figure moved for {}: update data/cases/",
                    moved.join(", ")
                ));
            }
            return Ok(lines.join("\n"));
        }
        match format {
            CasesFormat::Json => {
                let entries: Vec<serde_json::Value> = all
                    .iter()
                    .map(|c| {
                        // The entry as its file holds it (inputs, assumptions, the claim's
                        // figure, unit and scope, the metric), with the texts the page shows.
                        let mut entry = serde_json::to_value(c).unwrap_or_default();
                        entry["claim_text"] = c.claim_text().into();
                        entry["model_text"] = c.model_text().into();
                        entry["beside_text"] = c.beside_text().into();
                        entry["scope_text"] = c.claim.scope.text().into();
                        entry["reading_text"] = c.reading.text().into();
                        entry["why_text"] = c.why_text().into();
                        entry
                    })
                    .collect();
                serde_json::to_string_pretty(&entries).map_err(|e| e.to_string())
            }
            CasesFormat::Text => Ok(all
                .iter()
                .map(|c| {
                    let beside = c.beside.as_ref().map_or(String::new(), |b| {
                        format!(
                            "\n  Beside it:   {} ({})",
                            c.beside_text().unwrap_or_default(),
                            b.metric.scope().text()
                        )
                    });
                    format!(
                        "{} (seed {}, preset {})\n  The article: {}: {}\n  The model:   {} ({}){beside}\n  Reading: {}\n  Given by the article: {}\n  Added by the entry: {}\n  Why: {}",
                        c.title,
                        c.seed,
                        c.preset,
                        c.claim.what,
                        c.claim_text(),
                        c.model_text(),
                        c.claim.scope.text(),
                        c.reading.text(),
                        c.inputs.join("; "),
                        c.assumed.join("; "),
                        c.why_text()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n\n")),
        }
    }

    /// The import options the `history` flags give.
    fn import_options(
        format: Option<String>,
        sacct_fields: Option<String>,
        columns: &[String],
        cpus_per_gpu: Option<u32>,
        tz: Option<String>,
        durations: DurationsArg,
    ) -> Result<gpucost::history::ImportOptions, String> {
        use gpucost::history::{clock, table, DurationFit, ImportOptions, SourceFormat};
        let format = match format {
            Some(f) => Some(SourceFormat::named(&f).ok_or_else(|| {
                format!("--reader {f}: not a history format; give csv, sacct or swf")
            })?),
            None => None,
        };
        let sacct_fields = match sacct_fields {
            Some(list) => Some(
                gpucost::history::parse_field_list(&list)
                    .ok_or("--sacct-fields: the list is empty")?,
            ),
            None => None,
        };
        let mut named = Vec::new();
        for c in columns {
            let (role, header) = c.split_once('=').ok_or_else(|| {
                format!("--column {c}: give ROLE=HEADER, e.g. submit=creation_time")
            })?;
            let role = table::role_named(role).ok_or_else(|| {
                let roles: Vec<&str> = table::ROLES.iter().map(|(_, n)| n[0]).collect();
                format!(
                    "--column {c}: \"{role}\" is not a role; roles: {}",
                    roles.join(", ")
                )
            })?;
            named.push((role, header.to_string()));
        }
        if cpus_per_gpu == Some(0) {
            return Err("--cpus-per-gpu 0: give a whole number of CPUs from 1 up".to_string());
        }
        let utc_offset_s = match tz {
            Some(t) => clock::parse_utc_offset(&t).ok_or_else(|| {
                format!("--tz {t}: give an offset from UTC such as +02:00, -05:00 or UTC")
            })?,
            None => 0,
        };
        Ok(ImportOptions {
            format,
            sacct_fields,
            columns: named,
            cpus_per_gpu,
            utc_offset_s,
            durations: match durations {
                DurationsArg::Empirical => DurationFit::Empirical,
                DurationsArg::LogNormal => DurationFit::LogNormal,
            },
            cluster_gpus: None,
            replay: false,
            team_classes: false,
            timeouts: Default::default(),
        })
    }

    /// What `history` prints.
    enum HistoryOutput {
        /// The scenario with the fitted classes.
        Scenario,
        /// Its link.
        Link,
        /// The `eval` report of the replayed jobs.
        Replay,
    }

    fn history(
        file: &std::path::Path,
        base: &Scenario,
        name: &str,
        output: HistoryOutput,
        options: &gpucost::history::ImportOptions,
    ) -> Result<String, String> {
        use gpucost::history::cluster::{queue_wait_check, RECORDED_CLUSTER};
        use gpucost::history::{fit_source, source::Source, HistoryImportError};
        // Streamed: the file is read line by line, never held whole.
        let handle = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let bytes = handle.metadata().map(|m| m.len()).unwrap_or(0);
        let fitted = fit_source(base, Source::stream(handle, bytes), options, &mut |_| {});
        let (scenario, fit) = fitted.map_err(|e| match e {
            HistoryImportError::Fit(e) => format!("{}: {e}", file.display()),
            HistoryImportError::Invalid(e) => {
                format!("the fitted scenario is not valid with the starting scenario ({name}): {e}")
            }
        })?;
        for line in fit.summary() {
            eprintln!("{line}");
        }
        for bad in &fit.bad_rows {
            eprintln!("{}:{}: skipped: {}", file.display(), bad.line, bad.reason);
        }
        let check = |results: &gpucost::model::monte_carlo::Results| {
            let cluster = results
                .platforms
                .iter()
                .find(|p| p.name == RECORDED_CLUSTER)?;
            match queue_wait_check(fit.observed_queue_wait.as_ref(), cluster) {
                Some(line) => eprintln!("{line}"),
                None => eprintln!(
                    "The history has no submission and start times together: no observed queue \
                     wait to set beside the {RECORDED_CLUSTER}'s."
                ),
            }
            Some(())
        };
        if options.cluster_gpus.is_some() && !matches!(output, HistoryOutput::Replay) {
            // (With --replay --link the cluster runs the recorded jobs.)
            // The check needs only the cluster: run it alone.
            let alone = Scenario {
                platforms: scenario
                    .platforms
                    .iter()
                    .filter(|p| p.name == RECORDED_CLUSTER)
                    .cloned()
                    .collect(),
                ..scenario.clone()
            };
            let results = run_all(alone)?;
            check(&results);
        }
        match output {
            HistoryOutput::Link => Ok(gpucost::workbench::link::encode_link(&scenario, name)),
            HistoryOutput::Scenario => {
                serde_json::to_string_pretty(&scenario).map_err(|e| e.to_string())
            }
            HistoryOutput::Replay => {
                let results = run_all(scenario.clone())?;
                check(&results);
                Ok(report_json_text(&scenario, &results, None))
            }
        }
    }

    /// `gpucost traffic`: the scenario with the trace's traffic, or its link.
    fn traffic(
        file: &std::path::Path,
        base: &Scenario,
        name: &str,
        link: bool,
        options: &gpucost::history::traffic::TrafficOptions,
    ) -> Result<String, String> {
        use gpucost::history::source::Source;
        use gpucost::history::traffic::{traffic_source, TraceError};
        // Streamed: the file is read line by line, never held whole.
        let handle = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let bytes = handle.metadata().map(|m| m.len()).unwrap_or(0);
        let fitted = traffic_source(base, Source::stream(handle, bytes), options, &mut |_| {});
        let (scenario, fit) = fitted.map_err(|e| match e {
            TraceError::Invalid(e) => format!(
                "the scenario with this traffic is not valid with the starting scenario \
                 ({name}): {e}"
            ),
            TraceError::NoSuchService { .. } => format!("--service: {e}"),
            e => format!("{}: {e}", file.display()),
        })?;
        for line in fit.summary() {
            eprintln!("{line}");
        }
        for bad in &fit.bad_rows {
            eprintln!("{}:{}: skipped: {}", file.display(), bad.line, bad.reason);
        }
        if link {
            Ok(gpucost::workbench::link::encode_link(&scenario, name))
        } else {
            serde_json::to_string_pretty(&scenario).map_err(|e| e.to_string())
        }
    }

    /// Every replication of `scenario` on all cores; an event budget that stops the run
    /// before its first replication is an error, one that stops it later a notice.
    fn run_all(scenario: Scenario) -> Result<gpucost::model::monte_carlo::Results, String> {
        let mut run = MonteCarlo::new(scenario).map_err(|e| e.to_string())?;
        run.run_to_end_on(std::thread::available_parallelism().map_or(1, |n| n.get()));
        let results = run.results();
        if let Some(cut) = &results.cut_off {
            if results.replications == 0 {
                return Err(cut.to_string());
            }
            eprintln!("gpucost: {cut}");
        }
        Ok(results)
    }

    /// `url` (an http(s) address, without a fragment of its own) with `fragment` as its
    /// fragment.
    fn with_base(url: &str, fragment: &str) -> Result<String, String> {
        let url = url.trim();
        let scheme_ok = ["https://", "http://"].iter().any(|s| {
            url.len() > s.len()
                && url
                    .get(..s.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(s))
        });
        if !scheme_ok || url.contains(char::is_whitespace) {
            return Err(format!(
                "--base {url}: not an http(s) address; give the calculator's URL, e.g. \
                 https://tools.example.com/gpucost/"
            ));
        }
        if url.contains('#') {
            return Err(format!(
                "--base {url}: already has a fragment (#…); give the address without it"
            ));
        }
        Ok(format!("{url}#{fragment}"))
    }

    /// An edit refused as given on the command line names the flag it came with.
    fn set_error(e: gpucost::workbench::edit::EditError) -> String {
        if e.is_about_the_edit() {
            format!("--set {e}")
        } else {
            e.to_string()
        }
    }

    /// The scenario JSON file `--scenario` names.
    fn read_scenario(path: &std::path::Path) -> Result<Scenario, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--scenario {}: {e}", path.display()))?;
        Scenario::from_json(&text).map_err(|e| format!("--scenario {}: {e}", path.display()))
    }

    fn find_preset(name: &str) -> Result<Scenario, String> {
        preset(name).map(|p| p.scenario()).ok_or_else(|| {
            let names: Vec<&str> = presets().iter().map(|p| p.name).collect();
            format!(
                "--preset {name}: no such preset; one of {}",
                names.join(", ")
            )
        })
    }

    fn eval(args: EvalArgs) -> Result<String, String> {
        let base = match (&args.preset, &args.scenario) {
            _ if args.url.is_some() => {
                let decoded =
                    gpucost::workbench::link::decode_link(args.url.as_deref().unwrap_or_default());
                for notice in &decoded.notices {
                    eprintln!("gpucost: link: {notice}");
                }
                if let Some(key) = &decoded.replay_key {
                    eprintln!(
                        "gpucost: link: it replays a job history (key {key}) that only the \
                         browser that imported it keeps; evaluated the fitted job classes it \
                         carries (gpucost history FILE --replay evaluates the jobs)."
                    );
                }
                decoded.scenario
            }
            (_, Some(path)) => read_scenario(path)?,
            (Some(name), None) => find_preset(name)?,
            (None, None) => find_preset(DEFAULT)?,
        };
        let mut edits = args.set.clone();
        if let Some(reps) = args.reps {
            edits.push(format!("replications={reps}"));
        }
        if let Some(seed) = args.seed {
            edits.push(format!("seed={seed}"));
        }
        let scenario = apply_edits(&base, &edits).map_err(set_error)?;
        let mut run = MonteCarlo::new(scenario.clone()).map_err(|e| e.to_string())?;
        for notice in gpucost::model::serving::notices::serving_notices(&scenario)
            .into_iter()
            .chain(gpucost::model::scenario::class_notices::all_class_notices(
                &scenario,
            ))
        {
            eprintln!("gpucost: note: {notice}");
        }
        let threads = args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        );
        run.run_to_end_on(threads);
        let results = run.results();
        if let Some(cut) = &results.cut_off {
            if results.replications == 0 {
                return Err(cut.to_string());
            }
            eprintln!("gpucost: {cut}");
        }
        // What would flip the verdict: its own runs after the main one (none without a winner).
        let flips = (!args.no_flips && args.format != Format::Csv)
            .then(|| verdict_flips(&scenario, &VerdictBasis::of(&scenario), &results))
            .flatten();
        Ok(match args.format {
            Format::Json => report_json_text(&scenario, &results, flips.as_ref()),
            Format::Csv => report_csv(&scenario, &results).trim_end().to_string(),
            Format::Table => table(&scenario, &results, flips.as_ref()),
        })
    }

    fn tune(args: TuneArgs) -> Result<String, String> {
        use gpucost::workbench::tune::{objective_of, report_table, TuneOptions, TuneRun};
        let name = args.preset.clone().unwrap_or_else(|| DEFAULT.to_string());
        let base = match &args.scenario {
            Some(path) => read_scenario(path)?,
            None => find_preset(&name)?,
        };
        let scenario = apply_edits(&base, &args.set).map_err(set_error)?;
        let objective = args
            .objective
            .as_deref()
            .map(objective_of)
            .transpose()
            .map_err(|e| format!("--objective: {e}"))?;
        for (flag, value) in [
            ("--max-wait-p95-min", args.max_wait_p95_min),
            ("--max-slo-minutes", args.max_slo_minutes),
            ("--max-end-to-end-p95-h", args.max_end_to_end_p95_h),
        ] {
            if value.is_some_and(|v| !v.is_finite() || v < 0.0) {
                return Err(format!("{flag}: expected a number of 0 or more"));
            }
        }
        let options = TuneOptions {
            objective,
            max_wait_p95_min: args.max_wait_p95_min,
            max_slo_minutes: args.max_slo_minutes,
            max_end_to_end_p95_h: args.max_end_to_end_p95_h,
            pins: args.pin.clone(),
            ..TuneOptions::default()
        };
        let run = TuneRun::new(&scenario, options).map_err(|e| e.to_string())?;
        let threads = args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        );
        let report = run.run_to_end_on(threads);
        if args.link {
            return Ok(gpucost::workbench::link::encode_link(
                &report.scenario,
                &name,
            ));
        }
        Ok(match args.format {
            TuneFormat::Json => serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?,
            TuneFormat::Table => report_table(&report),
        })
    }

    fn range(s: &Summary, f: impl Fn(f64) -> String) -> String {
        format!("{} ({}–{})", f(s.p50), f(s.p5), f(s.p95))
    }

    fn table(scenario: &Scenario, results: &Results, flips: Option<&VerdictFlips>) -> String {
        let basis = VerdictBasis::of(scenario);
        // The cost of the work, as the verdict ranks it (per useful reference-GPU-hour where
        // it ranks by the monthly TCO, which has its own column).
        let per_work = basis.per_work(results);
        let header = basis.per_work_title(per_work);
        let mut out = format!(
            "{:<40} {:>34} {:>12} {:>10} {:>16} {:>8} {:>12}\n",
            "platform",
            "monthly TCO p50 (p5–p95)",
            "cloud bill",
            "people",
            header,
            "util",
            "wait p95 min"
        );
        for p in &results.platforms {
            let per_hour = per_work
                .value(p)
                .map(|v| format!("${v:.2}"))
                .unwrap_or_else(|| "n/a".into());
            out += &format!(
                "{:<40} {:>34} {:>12} {:>10} {:>16} {:>8} {:>12.1}\n",
                p.name,
                range(&p.monthly_tco_usd(), usd),
                usd(p.cloud_bill_usd().p50),
                usd(p.people_usd().p50),
                per_hour,
                // (None on a hosted API: it has no GPUs of its own.)
                p.utilization()
                    .map_or("n/a".to_string(), |u| format!("{:.0}%", u.mean * 100.0)),
                p.queue_wait_p95_min().mean,
            );
        }
        for p in &results.platforms {
            for s in &p.services {
                let per_million = s
                    .usd_per_million_requests
                    .map(|x| format!("${:.2}", x.p50))
                    .unwrap_or_else(|| "n/a".into());
                let p95 = s
                    .latency_p95_ms
                    .map(|x| format!("{:.0} ms", x.p50))
                    .unwrap_or_else(|| "n/a".into());
                if let Some(llm) = &s.llm {
                    let ms = |x: &Option<Summary>| {
                        x.as_ref()
                            .map_or_else(|| "n/a".into(), |s| format!("{:.0} ms", s.p50))
                    };
                    let cents = |x: &Option<Summary>| {
                        x.as_ref()
                            .map_or_else(|| "n/a".into(), |s| format!("${:.2}", s.p50))
                    };
                    out += &format!(
                        "{} on {}: {} per million output tokens ({} input and output \
                         together), {:.0} output tokens/s; TTFT p95 {} ({:.0} minutes over), \
                         TPOT p95 {} ({:.0} minutes over); {}, requests dropped {}\n",
                        s.name,
                        p.name,
                        cents(&llm.usd_per_million_output_tokens),
                        cents(&llm.usd_per_million_tokens_blended),
                        llm.output_tokens_per_s.p50,
                        ms(&llm.ttft_p95_ms),
                        llm.ttft_slo_violation_minutes.mean,
                        ms(&llm.tpot_p95_ms),
                        llm.tpot_slo_violation_minutes.mean,
                        // A hosted API has no replicas: its rate limit's refusals.
                        match &s.requests_refused {
                            Some(refused) => format!(
                                "{:.0} requests refused (429, retries counted)",
                                refused.mean
                            ),
                            None => format!(
                                "{} replicas of {} GPUs on average",
                                gpucost::format::trim_number(
                                    (llm.replicas.mean * 10.0).round() / 10.0
                                ),
                                llm.gpus_per_replica
                            ),
                        },
                        gpucost::format::dropped_of(s.requests_dropped.mean, s.requests.mean),
                    );
                    continue;
                }
                out += &format!(
                    "{} on {}: {per_million} per million requests, {:.0} SLO-violation minutes, \
                     p95 latency {p95}, requests dropped {}, {:.0} replica-hours\n",
                    s.name,
                    p.name,
                    s.slo_violation_minutes.mean,
                    gpucost::format::dropped_of(s.requests_dropped.mean, s.requests.mean),
                    s.replica_hours.mean
                );
            }
        }
        for p in &results.platforms {
            for q in &p.pipelines {
                let hours = |x: &Option<Summary>| {
                    x.as_ref()
                        .map_or_else(|| "n/a".into(), |s| format!("{:.1} h", s.mean))
                };
                let per_run = q
                    .usd_per_pipeline_run
                    .as_ref()
                    .map_or_else(|| "n/a".into(), |s| format!("${:.2}", s.mean));
                out += &format!(
                    "pipeline {} on {}: end to end {} median, {} p95; {per_run} a run; {:.0} runs \
                     completed, {:.1} failed\n",
                    q.name,
                    p.name,
                    hours(&q.end_to_end_hours.p50),
                    hours(&q.end_to_end_hours.p95),
                    q.runs_completed.mean,
                    q.runs_failed.mean
                );
            }
        }
        for split in &results.split {
            out += &format!(
                "training on {}, serving on {}: ${:.0} a month (median; both platforms' fees, people, tools and storage)\n",
                split.trains_on, split.serves_on, split.monthly_tco_usd.p50
            );
        }
        let names: Vec<&str> = results.platforms.iter().map(|p| p.name.as_str()).collect();
        let index = |name: &str| names.iter().position(|n| *n == name);
        for pair in results.paired.iter().filter(|p| index(&p.a) < index(&p.b)) {
            out += &format!(
                "{} is cheaper than {} in {:.0} % of {} replications\n",
                pair.a,
                pair.b,
                pair.a_cheaper_share() * 100.0,
                results.replications
            );
        }
        out += &format!("{}\n", verdict(results, &basis).sentence);
        if let Some(flips) = flips {
            out += &format!("{}\n", flips.sentence);
        }
        out += &format!("engine {}\n", results.engine_version);
        out
    }
}
