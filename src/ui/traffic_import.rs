//! A request trace brought in: what was read and fitted (the rate over the trace's span, the
//! hourly profile where there is one, the tokens' median and p90, or the minutes replayed),
//! the notes and the skipped records, and the choices a user makes after seeing them: which
//! service the traffic goes to, and whether its arrivals are replayed.

use super::history_import::{flag_option, OptionsForm, BAD_ROWS_SHOWN};
use crate::history::traffic::TrafficFit;
use leptos::prelude::*;

/// The fit of the trace `name`, with the service and replay choices (`services`: the
/// scenario's services before the import) and `apply` to import it again with them.
pub fn traffic_report(
    name: &str,
    fit: &TrafficFit,
    services: Vec<String>,
    form: RwSignal<OptionsForm>,
    apply: Callback<()>,
) -> impl IntoView {
    let hidden = fit.bad_rows.len().saturating_sub(BAD_ROWS_SHOWN);
    let lines = fit.summary();
    view! {
        <div class="import-done traffic-fit" role="status" data-format=fit.format.label()
            data-service=fit.service.clone() data-requests=fit.used data-mean-rps=fit.mean_rps>
            <p>{format!("Imported the request trace {name}.")}</p>
            {lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}
            <div class="history-option">
                <label for="traffic-service">"Traffic of"</label>
                <select id="traffic-service"
                    on:change=move |ev| form.update(|f| f.traffic_service = event_target_value(&ev))>
                    <option value="" selected=move || form.with(|f| f.traffic_service.is_empty())>
                        "a new service"
                    </option>
                    {services.into_iter().map(|s| {
                        let (value, chosen) = (s.clone(), s.clone());
                        view! {
                            <option value=value
                                selected=move || form.with(|f| f.traffic_service == chosen)>{s}</option>
                        }
                    }).collect_view()}
                </select>
                <span class="hint">"A new service is a copy of the scenario's first LLM service."</span>
            </div>
            {flag_option(form, "traffic-replay", |f| f.traffic_replay, |f, on| f.traffic_replay = on,
                " Replay the arrivals minute by minute as recorded (a trace of at most a day), instead of a rate")}
            <button type="button" class="refit" on:click=move |_| apply.run(())>"Import the trace again with these choices"</button>
            {(!fit.bad_rows.is_empty()).then(|| view! {
                <details class="bad-rows">
                    <summary>{format!("{} record(s) skipped", fit.bad_rows.len())}</summary>
                    <ul>
                        {fit.bad_rows.iter().take(BAD_ROWS_SHOWN).map(|b| view! {
                            <li data-line=b.line>{format!("Line {}: {}", b.line, b.reason)}</li>
                        }).collect_view()}
                    </ul>
                    {(hidden > 0).then(|| view! {
                        <p class="hint">{format!("…and {hidden} more (gpucost traffic lists them all).")}</p>
                    })}
                </details>
            })}
        </div>
    }
}
