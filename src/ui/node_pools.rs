//! A platform's node pools in its fieldset: the instance types beside its first, each with
//! what it buys beyond its reservation, a pool to add, and where each job class and service
//! runs (a pool by name, or the cheapest that fits). Folded away while the platform has one
//! pool; each pool's settings are under "All settings".

use crate::format::trim_number;
use crate::model::catalog::{self, InstanceType};
use crate::model::platforms::Profile;
use crate::model::scenario::node_pool::MAX_NODE_POOLS;
use crate::model::scenario::{Cloud, PoolNeed, Scenario};
use crate::workbench::edit;
use leptos::prelude::*;

/// The catalog rows a platform of `profile` can run on (priced ones), with their index; on
/// `cloud` only where given (a platform's pools beyond its first share its cloud).
pub fn offered_instances(
    profile: Option<Profile>,
    cloud: Option<Cloud>,
) -> Vec<(usize, &'static InstanceType)> {
    catalog::catalog()
        .iter()
        .enumerate()
        .filter(|(_, row)| {
            profile.is_some_and(|p| p.offers(row))
                && cloud.is_none_or(|c| c == row.cloud)
                && row.on_demand_usd_per_node_hour.is_some()
        })
        .collect()
}

/// The `<option>`s of `rows`: value the catalog row, text its shape and price.
pub fn instance_options(rows: Vec<(usize, &'static InstanceType)>) -> impl IntoView {
    rows.into_iter()
        .map(|(index, row)| {
            let label = format!(
                "{} — {} × {} {} GB, {} (${}/h)",
                row.name,
                row.gpus_per_node,
                row.gpu_model,
                trim_number(row.gpu_memory_gb),
                row.region,
                trim_number(row.on_demand_usd_per_node_hour.unwrap_or(0.0))
            );
            view! { <option value=index.to_string()>{label}</option> }
        })
        .collect_view()
}

/// The node pools of platform `index`.
#[component]
pub fn NodePools(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    let id = move |what: &str| format!("platform-{index}-{what}");
    let offered = Memo::new(move |_| {
        scenario.with(|s| {
            s.platforms
                .get(index)
                .map_or((None, None), |p| (p.profile.profile(), Some(p.cloud)))
        })
    });
    let pools = Memo::new(move |_| {
        scenario.with(|s| s.platforms.get(index).map_or(0, |p| p.node_pools.len()))
    });
    let summary = move || match pools.get() {
        1 => {
            "Node pools: one (add one to run some job classes on another instance type)".to_string()
        }
        n => format!("Node pools: {n}"),
    };
    let add = move |row: usize| {
        scenario.update(|s| {
            edit::add_pool(s, index, row);
        })
    };
    view! {
        <details class="node-pools" prop:open=move || { pools.get() > 1 }>
            <summary>{summary}</summary>
            {move || {
                (1..pools.get())
                    .map(|pool| view! { <PoolRow scenario=scenario index=index pool=pool /> })
                    .collect_view()
            }}
            <div class="control">
                <label for=id("add-pool")>"Add a node pool"</label>
                <select
                    id=id("add-pool")
                    // Back to the prompt once a pool is added.
                    prop:value=move || {
                        pools.track();
                        String::new()
                    }
                    disabled=move || { pools.get() >= MAX_NODE_POOLS }
                    on:change=move |ev| {
                        if let Ok(row) = event_target_value(&ev).parse::<usize>() {
                            add(row)
                        }
                    }
                >
                    <option value="">"Pick an instance type…"</option>
                    {move || instance_options(offered_instances(offered.get().0, offered.get().1))}
                </select>
            </div>
            <Show when=move || { pools.get() > 1 }>
                <ClassPools scenario=scenario index=index />
            </Show>
        </details>
    }
}

/// Pool `pool` (not the first) of platform `index`: its instance type, its name, and a
/// button that removes it.
#[component]
fn PoolRow(scenario: RwSignal<Scenario>, index: usize, pool: usize) -> impl IntoView {
    let id = move |what: &str| format!("platform-{index}-pool-{pool}-{what}");
    let offered = Memo::new(move |_| {
        scenario.with(|s| {
            s.platforms
                .get(index)
                .map_or((None, None), |p| (p.profile.profile(), Some(p.cloud)))
        })
    });
    let name = move || {
        scenario.with(|s| {
            s.platforms
                .get(index)
                .and_then(|p| p.node_pools.get(pool))
                .map(|p| p.name.clone())
                .unwrap_or_default()
        })
    };
    let selected = move || {
        scenario
            .with(|s| edit::exact_pool_instance_row(s, index, pool))
            .map(|row| row.to_string())
            .unwrap_or_default()
    };
    view! {
        <div class="control pool-row">
            <label for=id("instance")>{move || format!("Pool \"{}\"", name())}</label>
            <select
                id=id("instance")
                prop:value=selected
                on:change=move |ev| {
                    if let Ok(row) = event_target_value(&ev).parse::<usize>() {
                        scenario.update(|s| {
                            edit::set_pool_instance(s, index, pool, row);
                        })
                    }
                }
            >
                {move || instance_options(offered_instances(offered.get().0, offered.get().1))}
            </select>
            <button
                type="button"
                id=id("remove")
                on:click=move |_| scenario.update(|s| {
                    edit::remove_pool(s, index, pool);
                })
            >
                "Remove pool"
            </button>
        </div>
    }
}

/// Where each job class, pipeline stage and service runs on platform `index`: a pool by name, or the
/// cheapest that fits (the pool it picks now named in the option).
#[component]
fn ClassPools(scenario: RwSignal<Scenario>, index: usize) -> impl IntoView {
    // (name, what it needs) of every job class, then every service.
    let names = Memo::new(move |_| {
        scenario.with(|s| {
            let classes = s
                .job_classes
                .iter()
                .map(|c| (c.name.clone(), PoolNeed::of_class(c)));
            // A pipeline's stage by its class_pools key, "pipeline/stage".
            let stages = s.pipelines.iter().flat_map(|p| {
                p.stages
                    .iter()
                    .enumerate()
                    .map(|(i, st)| (p.stage_class_name(i), PoolNeed::of_class(st)))
            });
            let services = s.services.iter().map(|v| (v.name.clone(), v.pool_need()));
            classes.chain(stages).chain(services).collect::<Vec<_>>()
        })
    });
    view! {
        <h4>"Where each job class runs"</h4>
        {move || {
            names
                .get()
                .into_iter()
                .enumerate()
                .map(|(k, (name, need))| {
                    let key = name.clone();
                    let id = format!("platform-{index}-runs-{k}");
                    // A memo: an input elsewhere draws no option again.
                    let options = Memo::new(move |_| {
                        scenario.with(|s| {
                            let Some(p) = s.platforms.get(index) else {
                                return Vec::new();
                            };
                            let cheapest = p
                                .cheapest_pool(s, need)
                                .map_or("none fits".to_string(), |i| p.node_pools[i].name.clone());
                            let mut out = vec![(String::new(), format!("The cheapest that fits ({cheapest})"))];
                            out.extend(p.node_pools.iter().map(|pool| (pool.name.clone(), pool.name.clone())));
                            out
                        })
                    });
                    let value = {
                        let key = key.clone();
                        move || {
                            scenario.with(|s| {
                                s.platforms
                                    .get(index)
                                    .and_then(|p| p.class_pools.get(&key).cloned())
                                    .unwrap_or_default()
                            })
                        }
                    };
                    view! {
                        <div class="control">
                            <label for=id.clone()>{name.clone()}</label>
                            <select
                                id=id
                                prop:value=value
                                on:change=move |ev| {
                                    let chosen = event_target_value(&ev);
                                    scenario.update(|s| {
                                        let pool = s
                                            .platforms
                                            .get(index)
                                            .and_then(|p| p.pool_named(&chosen));
                                        edit::set_class_pool(s, index, &key, pool);
                                    })
                                }
                            >
                                {move || {
                                    options
                                        .get()
                                        .into_iter()
                                        .map(|(value, label)| view! { <option value=value>{label}</option> })
                                        .collect_view()
                                }}
                            </select>
                        </div>
                    }
                })
                .collect_view()
        }}
    }
}
