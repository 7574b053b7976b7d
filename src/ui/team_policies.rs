//! Teams in the editor: a job class's team, and on each platform every team's quota,
//! borrowing limit and priority, with the platform's preemption. Shown where a job class
//! names a team; what a profile's scheduler lacks is refused by validation, which says so.

use super::controls::{flag_field, item_numeric_fields, ItemAt, NumericSetting};
use crate::format::trim_number;
use crate::model::scenario::fields::{field, PLATFORM_FIELDS, TEAM_POLICY_FIELDS};
use crate::model::scenario::teams::team_label;
use crate::model::scenario::{Scenario, TeamPolicy};
use crate::workbench::edit;
use leptos::prelude::*;

/// The team of job class `index`, as a text field (empty: the default team).
#[component]
pub fn ClassTeam(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let id = format!("class-{index}-team");
    let team = move || {
        scenario.with(|s| {
            s.job_classes
                .get(index)
                .map(|c| c.team.clone())
                .unwrap_or_default()
        })
    };
    view! {
        <div class="field">
            <label for=id.clone()>"Team"</label>
            <input
                id=id
                type="text"
                maxlength=edit::TEAM_NAME_MAX.to_string()
                placeholder="default"
                prop:value=team
                on:change=move |ev| {
                    let value = event_target_value(&ev);
                    scenario.update(|s| {
                        edit::set_class_team(s, index, &value);
                    })
                }
            />
        </div>
    }
}

/// What `get` reads of platform `index`'s policy for `team` (`None` where it has none).
fn policy_value<R>(
    scenario: RwSignal<Scenario>,
    index: usize,
    team: &str,
    get: impl FnOnce(&TeamPolicy) -> R,
) -> Option<R> {
    scenario.with(|s| {
        s.platforms
            .get(index)
            .and_then(|p| p.teams.iter().find(|t| t.team == team))
            .map(get)
    })
}

/// One optional number of a team's policy (blank: none), as a text field.
fn optional_gpus(
    scenario: RwSignal<Scenario>,
    index: usize,
    team: String,
    path: &'static str,
    get: fn(&TeamPolicy) -> Option<f64>,
    set: fn(&mut TeamPolicy, Option<f64>),
) -> impl IntoView {
    let row = field(TEAM_POLICY_FIELDS, path).expect("a team policy field");
    let id = format!(
        "platform-{index}-team-{}-{}",
        team_slug(&team),
        path.replace('_', "-")
    );
    let (error, set_error) = signal(None::<String>);
    let shown = {
        let team = team.clone();
        move || {
            policy_value(scenario, index, &team, get)
                .flatten()
                .map(trim_number)
                .unwrap_or_default()
        }
    };
    view! {
        <div class="field">
            <label for=id.clone()>{format!("{} ({})", row.label, row.unit)}</label>
            <input
                id=id
                type="text"
                inputmode="decimal"
                placeholder="none"
                prop:value=shown
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    let value = if text.trim().is_empty() {
                        Ok(None)
                    } else {
                        super::controls::parse_in_range(row.label, row.min, row.max, &text).map(Some)
                    };
                    match value {
                        Ok(v) => {
                            set_error.set(None);
                            let team = team.clone();
                            scenario.update(|s| {
                                edit::edit_team_policy(s, index, &team, |t| set(t, v));
                            });
                        }
                        Err(message) => set_error.set(Some(message)),
                    }
                }
            />
            <p class="input-error" role="alert">{move || error.get()}</p>
        </div>
    }
}

/// A team name as it goes into an element id.
fn team_slug(team: &str) -> String {
    team_label(team)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Platform `index`'s teams: each team's quota, borrowing limit and priority, and when
/// jobs are preempted.
#[component]
pub fn PlatformTeams(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let teams = Memo::new(move |_| {
        scenario.with(|s| {
            s.team_names()
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
    });
    let at = ItemAt::platform(index);
    let row = |path| field(PLATFORM_FIELDS, path).expect("a platform field");
    let id = move |what: &str| format!("platform-{index}-{what}");
    view! {
        <Show when=move || teams.with(|t| !t.is_empty())>
            <details class="teams" prop:open=move || {
                scenario.with(|s| s.platforms.get(index).is_some_and(|p| !p.teams.is_empty()))
            }>
                <summary>"Teams: quotas, priorities, preemption"</summary>
                <p class="hint">
                    "A quota is the GPUs a team's jobs may hold at once; beyond it a team borrows what the other teams' quotas leave unused, up to its borrowing limit (Kubernetes with Kueue; a Slurm QOS limit is hard). A higher priority is scheduled first. Blank: no quota, no limit. Fair-share from past usage is not modelled."
                </p>
                {move || {
                    teams
                        .get()
                        .into_iter()
                        .map(|team| {
                            let priority = {
                                let team = team.clone();
                                let id = format!("platform-{index}-team-{}-priority", team_slug(&team));
                                let shown = {
                                    let team = team.clone();
                                    move || {
                                        policy_value(scenario, index, &team, |t| t.priority)
                                            .unwrap_or(0)
                                            .to_string()
                                    }
                                };
                                let row = field(TEAM_POLICY_FIELDS, "priority").expect("a team policy field");
                                let (min, max) = (row.min as i32, row.max as i32);
                                view! {
                                    <div class="field">
                                        <label for=id.clone()>{row.label}</label>
                                        <input
                                            id=id
                                            type="number"
                                            step="1"
                                            min=min
                                            max=max
                                            prop:value=shown
                                            on:change=move |ev| {
                                                if let Ok(v) = event_target_value(&ev).trim().parse::<i32>() {
                                                    let team = team.clone();
                                                    scenario.update(|s| {
                                                        edit::edit_team_policy(s, index, &team, |t| t.priority = v.clamp(min, max));
                                                    });
                                                }
                                            }
                                        />
                                    </div>
                                }
                            };
                            view! {
                                <h4>{format!("Team \"{}\"", team_label(&team))}</h4>
                                {optional_gpus(scenario, index, team.clone(), "nominal_gpus", |t| t.nominal_gpus, |t, v| t.nominal_gpus = v)}
                                {optional_gpus(scenario, index, team.clone(), "borrowing_limit_gpus", |t| t.borrowing_limit_gpus, |t, v| t.borrowing_limit_gpus = v)}
                                {priority}
                            }
                        })
                        .collect_view()
                }}
                <h4>"Preemption"</h4>
                {flag_field(scenario, id("reclaim-quota"), row("preemption.reclaim_quota"), at)}
                {flag_field(scenario, id("preempt-lower"), row("preemption.lower_priority"), at)}
                {item_numeric_fields(
                    scenario,
                    at,
                    id("grace"),
                    NumericSetting::of(row("preemption.grace_period_s")).into_iter().collect(),
                )}
            </details>
        </Show>
    }
}
