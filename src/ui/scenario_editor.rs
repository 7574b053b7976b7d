//! The scenario pane: preset picker, the scenario-wide sliders, and one fieldset per platform.
//!
//! Sliders that name a quantity every platform or job class has (spot interruption rate,
//! warm-pool window, …) set it on all of them; the platform fieldsets edit one platform.

use super::controls::{parse_in_range, SliderField};
use super::node_pools::{instance_options, offered_instances, NodePools};
use crate::format::trim_number;
use crate::model::knobs::KNOBS;
use crate::model::platforms::Profile;
use crate::model::scenario::fields;
use crate::model::scenario::{Cloud, Overflow, Scenario};
use crate::workbench::edit;
use crate::workbench::presets::presets;
use leptos::prelude::*;

/// The whole scenario pane.
#[component]
pub fn ScenarioEditor(
    scenario: RwSignal<Scenario>,
    preset_name: RwSignal<String>,
) -> impl IntoView {
    let pick_preset = move |name: String| {
        if let Some(p) = crate::workbench::presets::preset(&name) {
            preset_name.set(name);
            scenario.set(p.scenario());
        }
    };
    // The fieldsets are built again only when a platform or job class is added or removed:
    // each reads its own values by index, so an edit elsewhere updates them in place instead
    // of rebuilding every editor (hundreds of elements) on each slider input.
    // Each platform, whether it is a hosted API (its own fieldset): the list is drawn anew
    // when a platform comes, goes or changes kind, not on other edits.
    let hosted = Memo::new(move |_| {
        scenario.with(|s| {
            s.platforms
                .iter()
                .map(|p| !p.runs_nodes())
                .collect::<Vec<bool>>()
        })
    });
    let class_count = Memo::new(move |_| scenario.with(|s| s.job_classes.len()));
    let service_count = Memo::new(move |_| scenario.with(|s| s.services.len()));
    view! {
        <section class="scenario" aria-labelledby="scenario-heading">
            <h2 id="scenario-heading">"Scenario"</h2>
            <button type="button" class="pane-switch" on:click=move |_| super::scroll_to("results-heading")>
                "Back to the results"
            </button>
            <div class="control">
                <label for="preset">"Preset"</label>
                <select
                    id="preset"
                    prop:value=move || preset_name.get()
                    on:change=move |ev| pick_preset(event_target_value(&ev))
                >
                    {presets()
                        .iter()
                        .map(|p| view! { <option value=p.name>{p.description}</option> })
                        .collect_view()}
                </select>
            </div>
            <super::scenario_files::ScenarioFiles scenario=scenario preset_name=preset_name />
            <GlobalSliders scenario=scenario />
            <super::simulation_settings::SimulationSettings scenario=scenario />
            <h3>"Platforms"</h3>
            {move || {
                hosted
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, hosted)| if hosted {
                        view! { <super::hosted_api_fieldset::HostedApiFieldset scenario=scenario index=i /> }.into_any()
                    } else {
                        view! { <PlatformFieldset scenario=scenario index=i /> }.into_any()
                    })
                    .collect_view()
            }}
            <AddPlatform scenario=scenario />
            <h3>"Workload"</h3>
            {move || {
                (0..class_count.get())
                    .map(|i| view! { <super::job_classes::JobClassFieldset scenario=scenario index=i /> })
                    .collect_view()
            }}
            <super::job_classes::AddJobClass scenario=scenario />
            <h3>"Services"</h3>
            <p class="hint">"Inference services with request traffic, on replicas an autoscaler adds and removes, at the on-demand price: packed on shared nodes, or on instances of their own, as each platform runs them."</p>
            {move || {
                // The first few open; past them, folded (twenty small models would make the
                // editor a page of its own).
                let n = service_count.get();
                let shown = n.min(SERVICES_OPEN);
                let fieldset = move |i| view! { <super::services::ServiceFieldset scenario=scenario index=i /> };
                let more = (n > shown).then(|| {
                    let summary = format!("{} more services", n - shown);
                    view! {
                        <details class="more-services">
                            <summary>{summary}</summary>
                            {(shown..n).map(fieldset).collect_view()}
                        </details>
                    }
                });
                view! { {(0..shown).map(fieldset).collect_view()} {more} }
            }}
            <super::services::AddService scenario=scenario />
        </section>
    }
}

/// Services the editor shows open; more are folded under a summary.
const SERVICES_OPEN: usize = 3;

/// The scenario-wide sliders: one per knob of the table that has a slider, in its order, each
/// with its readout where it has one.
#[component]
fn GlobalSliders(scenario: RwSignal<Scenario>) -> impl IntoView {
    KNOBS
        .iter()
        .filter_map(|knob| knob.slider().map(|slider| (knob, slider)))
        .map(|(knob, slider)| {
            let get = knob.get;
            let set = knob.set;
            let when = knob.when;
            let shown = move || scenario.with(when);
            view! {
                <Show when=shown>
                <SliderField
                    id=slider.id
                    label=knob.label
                    unit=knob.unit
                    min=slider.min
                    max=slider.max
                    step=slider.step
                    value=Signal::derive(move || scenario.with(get))
                    readout=knob.readout.map(|text| Signal::derive(move || scenario.with(text)))
                    help=knob.help
                    on_change=Callback::new(move |v: f64| scenario.update(|s| set(s, v)))
                />
                </Show>
            }
        })
        .collect_view()
}

/// Adds a platform of a chosen profile (up to the platform limit), the profiles grouped by
/// their cloud.
#[component]
fn AddPlatform(scenario: RwSignal<Scenario>) -> impl IntoView {
    let (profile, set_profile) = signal(Profile::Eks.id().to_string());
    let full = move || {
        scenario.with(|s| s.platforms.len() >= crate::model::scenario::limits::PLATFORMS_MAX)
    };
    let add = move |_| {
        let chosen = profile.get_untracked();
        if let Some(provider) = chosen.strip_prefix("hosted_api:") {
            scenario.update(|s| {
                edit::add_hosted_platform(s, provider);
            });
        } else if let Some(p) = Profile::from_id(&chosen) {
            scenario.update(|s| {
                edit::add_platform(s, p);
            });
        }
    };
    // The providers that price the scenario's LLM (only beside LLM services alone).
    let providers = Memo::new(move |_| {
        scenario.with(|s| {
            let llms_only = !s.services.is_empty()
                && s.services.iter().all(|v| v.llm.is_some())
                && s.job_classes.is_empty()
                && s.pipelines.is_empty();
            if llms_only {
                edit::hosted_providers(s)
            } else {
                Vec::new()
            }
        })
    });
    view! {
        <div class="control inline add">
            <label for="add-platform-profile">"Add a platform"</label>
            <select id="add-platform-profile" on:change=move |ev| set_profile.set(event_target_value(&ev))>
                {Cloud::ALL
                    .into_iter()
                    .map(Some)
                    .chain([None])
                    .map(|cloud| {
                        let label = cloud.map_or("Any cloud", |c| c.facts().short);
                        let options = Profile::ALL
                            .iter()
                            .filter(|p| p.cloud() == cloud)
                            .map(|p| view! { <option value=p.id() selected=*p == Profile::Eks>{p.label()}</option> })
                            .collect_view();
                        view! { <optgroup label=label>{options}</optgroup> }
                    })
                    .collect_view()}
                {move || {
                    let listed = providers.get();
                    (!listed.is_empty()).then(|| view! {
                        <optgroup label="Hosted LLM APIs">
                            {listed
                                .into_iter()
                                .map(|p| view! {
                                    <option value=format!("hosted_api:{p}")>
                                        {crate::model::platforms::hosted_api::provider_label(p).to_string()}
                                    </option>
                                })
                                .collect_view()}
                        </optgroup>
                    })
                }}
            </select>
            <button type="button" disabled=full on:click=add>"Add"</button>
        </div>
    }
}

/// One platform's controls, in a fieldset whose legend is the platform's name.
#[component]
fn PlatformFieldset(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let platform = move || scenario.with(|s| s.platforms.get(index).cloned());
    let name = move || platform().map(|p| p.name).unwrap_or_default();
    let profile = move || platform().and_then(|p| p.profile.profile());
    let id = |what: &str| format!("platform-{index}-{what}");
    // The instance list depends on the profile (its cloud; Cloud Run's own instances) and,
    // for a profile of any cloud with several pools, the platform's cloud (its pools share
    // it): its options are not rebuilt on other edits.
    let offered = Memo::new(move |_| {
        scenario.with(|s| {
            s.platforms.get(index).map_or((None, None), |p| {
                let profile = p.profile.profile();
                let pinned = p.node_pools.len() > 1 && profile.is_some_and(|f| f.cloud().is_none());
                (profile, pinned.then_some(p.cloud))
            })
        })
    });
    // With several pools, the instance type and capacity above are the first pool's.
    let first_pool = move || {
        scenario.with(|s| {
            s.platforms
                .get(index)
                .filter(|p| p.node_pools.len() > 1)
                .map(|p| format!(", pool \"{}\"", p.first_pool().name))
                .unwrap_or_default()
        })
    };
    let instance_label = move || format!("Instance type{}", first_pool());
    let capacity_label = move || format!("Capacity beyond reserved{}", first_pool());
    // Shown only where the row matches the platform's price (a row of the same type
    // elsewhere is not what the platform holds).
    let selected_instance = move || {
        scenario
            .with(|s| edit::exact_instance_row(s, index))
            .map(|row| row.to_string())
            .unwrap_or_default()
    };
    let rebuild = move |row: usize| {
        scenario.update(|s| {
            edit::set_instance(s, index, row);
        })
    };
    let set_overflow = move |value: String| {
        let overflow = match value.as_str() {
            "spot" => Overflow::Spot,
            "none" => Overflow::None,
            _ => Overflow::OnDemand,
        };
        scenario.update(|s| {
            if let Some(p) = s.platforms.get_mut(index) {
                p.first_pool_mut().purchase.overflow = overflow;
            }
        })
    };
    let overflow_value = move || match platform().map(|p| p.first_pool().purchase.overflow) {
        Some(Overflow::Spot) => "spot",
        Some(Overflow::None) => "none",
        _ => "on_demand",
    };
    // A cloud that sells no spot (Lambda) offers none, and says so.
    let no_spot = move || platform().is_some_and(|p| p.cloud.facts().no_spot.is_some());
    let spot_label = move || match platform() {
        Some(p) if p.cloud.facts().no_spot.is_some() => {
            format!("Spot ({} sells none)", p.cloud.name())
        }
        _ => "Spot".to_string(),
    };
    let fte = fields::field(fields::PLATFORM_FIELDS, "ops_fte").expect("a platform field");
    let (fte_error, set_fte_error) = signal(None::<String>);
    super::controls::clear_when_changed(
        move || scenario.with(|s| s.platforms.get(index).map(|p| p.ops_fte)),
        (fte_error, set_fte_error),
    );
    view! {
        <fieldset class="platform">
            <legend>{name}</legend>
            <p class="profile">{move || profile().map(|p| p.label()).unwrap_or("custom profile")}</p>
            <div class="control">
                <label for=id("instance")>{instance_label}</label>
                <select
                    id=id("instance")
                    prop:value=selected_instance
                    on:change=move |ev| {
                        if let Ok(row) = event_target_value(&ev).parse::<usize>() {
                            rebuild(row)
                        }
                    }
                >
                    {move || instance_options(offered_instances(offered.get().0, offered.get().1))}
                </select>
            </div>
            <div class="control">
                <label for=id("purchase")>{capacity_label}</label>
                <select
                    id=id("purchase")
                    prop:value=overflow_value
                    on:change=move |ev| set_overflow(event_target_value(&ev))
                >
                    <option value="on_demand">"On-demand"</option>
                    <option value="spot" disabled=no_spot>{spot_label}</option>
                    <option value="none">"None (static cluster)"</option>
                </select>
            </div>
            <div class="control">
                <label for=id("fte")>{fte.label}</label>
                <input
                    id=id("fte")
                    type="number"
                    min=fte.min
                    max=fte.max
                    step="0.05"
                    prop:value=move || platform().map(|p| trim_number(p.ops_fte)).unwrap_or_default()
                    on:change=move |ev| {
                        match parse_in_range(fte.label, fte.min, fte.max, &event_target_value(&ev)) {
                            Ok(v) => {
                                set_fte_error.set(None);
                                scenario.update(|s| {
                                    if let Some(p) = s.platforms.get_mut(index) {
                                        p.ops_fte = v;
                                    }
                                });
                            }
                            Err(message) => set_fte_error.set(Some(message)),
                        }
                    }
                />
                <p class="input-error" role="alert">{move || fte_error.get()}</p>
            </div>
            <p class="platform-facts">
                {move || platform().map(|p| format!(
                    "On-demand ${}/node-h, spot ${}/node-h; fee ${}/cluster-h; provisioning median {} s; \
                     billing per {} s, minimum {} s; {}",
                    trim_number(p.first_pool().on_demand_usd_per_node_hour),
                    trim_number(p.first_pool().spot_usd_per_node_hour),
                    trim_number(p.fee_usd_per_cluster_hour),
                    trim_number(p.provisioning_median_s),
                    p.billing.granularity_s,
                    p.billing.minimum_s,
                    match p.placement {
                        crate::model::scenario::Placement::BinPack => "bin-pack",
                        crate::model::scenario::Placement::Spread => "spread",
                        crate::model::scenario::Placement::Exclusive => "one job per instance",
                    }
                ))}
            </p>
            {move || platform()
                .filter(|p| {
                    crate::model::gpus::find(&p.first_pool().gpu_model)
                        .is_some_and(|g| g.family_dependent)
                })
                .map(|p| view! {
                    <p class="platform-facts notice">
                        {format!(
                            "{}: its throughput, {} × the reference GPU, is an assumption {}; it depends on the model family and {} far more than a CUDA GPU's does. Set yours under All settings → Relative throughput.",
                            p.first_pool().gpu_model,
                            trim_number(p.first_pool().relative_throughput),
                            if p.first_pool().gpu_model.starts_with("MI") {
                                "for stock PyTorch on ROCm (0.8 × an H100, between AMD's tuned MLPerf run and independent tests: the method panel's GPU table gives them)"
                            } else {
                                "for transformer inference (its chip's dense FP16/BF16 peak against an A100's)"
                            },
                            if p.first_pool().gpu_model.starts_with("MI") { "the ROCm software" } else { "the compiler" }
                        )}
                    </p>
                })}
            <NodePools scenario=scenario index=index />
            <super::team_policies::PlatformTeams scenario=scenario index=index />
            <super::platform_settings::PlatformSettings scenario=scenario index=index />
            <PlatformButtons scenario=scenario index=index />
        </fieldset>
    }
}

/// A platform's "Reset to defaults" (its profile's, or its provider's list prices) and
/// "Remove platform" (keeping one at least).
#[component]
pub fn PlatformButtons(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    view! {
        <div class="buttons">
            <button type="button" on:click=move |_| scenario.update(|s| {
                edit::reset_platform(s, index);
            })>"Reset to defaults"</button>
            <button
                type="button"
                disabled=move || scenario.with(|s| s.platforms.len() <= 1)
                on:click=move |_| scenario.update(|s| {
                    edit::remove_platform(s, index);
                })
            >
                "Remove platform"
            </button>
        </div>
    }
}
