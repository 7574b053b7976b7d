//! Input controls: a slider with a number field beside it, its unit and a readout. The
//! label is the control's accessible name; a number typed out of range is refused with a
//! message naming the range, and the scenario keeps its last valid value.

use crate::format::trim_number;
use crate::model::scenario::fields::{Control, Field, Value};
use crate::model::scenario::Scenario;
use leptos::prelude::*;

/// A labelled slider plus number field.
#[component]
pub fn SliderField(
    /// Element id of the range input (the label points at it).
    id: &'static str,
    /// Label text; the accessible name of both inputs starts with it.
    label: &'static str,
    /// Unit shown after the number field.
    unit: &'static str,
    /// Smallest value.
    min: f64,
    /// Largest value.
    max: f64,
    /// Step of the slider and number field.
    step: f64,
    /// Current value.
    #[prop(into)]
    value: Signal<f64>,
    /// Called with every accepted new value.
    on_change: Callback<f64>,
    /// Extra text after the unit (derived readouts such as MTBI).
    #[prop(optional_no_strip)]
    readout: Option<Signal<String>>,
    /// Tooltip and help text.
    #[prop(optional)]
    help: &'static str,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    clear_when_changed(move || value.get(), (error, set_error));
    let number_id = format!("{id}-number");
    let accept = move |text: String| match parse_in_range(label, min, max, &text) {
        Ok(v) => {
            set_error.set(None);
            on_change.run(v);
        }
        Err(message) => set_error.set(Some(message)),
    };
    view! {
        <div class="control" title=help>
            <label for=id>{label}</label>
            <div class="control-inputs">
                <input
                    id=id
                    type="range"
                    min=min
                    max=max
                    step=step
                    prop:value=move || value.get().to_string()
                    on:input=move |ev| accept(event_target_value(&ev))
                />
                <input
                    id=number_id
                    type="number"
                    aria-label=format!("{label} ({unit})")
                    min=min
                    max=max
                    step=step
                    prop:value=move || trim_number(value.get())
                    on:change=move |ev| accept(event_target_value(&ev))
                />
                <span class="unit">{unit}</span>
            </div>
            {readout.map(|r| view! { <p class="readout">{move || r.get()}</p> })}
            <p class="input-error" role="alert">{move || error.get()}</p>
        </div>
    }
}

/// A labelled number field for one scenario value. Text that is not a number in `min..=max`
/// is refused with a message naming the range; the scenario keeps its last valid value.
#[component]
pub fn NumberField(
    /// Element id.
    id: String,
    /// Label text (the accessible name).
    label: &'static str,
    /// Unit shown after the field.
    unit: &'static str,
    /// Smallest value.
    min: f64,
    /// Largest value.
    max: f64,
    /// Current value.
    #[prop(into)]
    value: Signal<f64>,
    /// Called with every accepted value.
    on_change: Callback<f64>,
    /// A further check of a number in range: the message that refuses it, if any.
    #[prop(optional)]
    check: Option<Callback<f64, Option<String>>>,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    clear_when_changed(move || value.get(), (error, set_error));
    let refused = move |v: f64| check.and_then(|check| check.run(v));
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type="number"
                min=min
                max=max
                step="any"
                prop:value=move || trim_number(value.get())
                on:change=move |ev| match parse_in_range(label, min, max, &event_target_value(&ev)) {
                    Ok(v) => match refused(v) {
                        None => {
                            set_error.set(None);
                            on_change.run(v);
                        }
                        Some(message) => set_error.set(Some(message)),
                    },
                    Err(message) => set_error.set(Some(message)),
                }
            />
            <span class="unit">{unit}</span>
            <p class="input-error" role="alert">{move || error.get()}</p>
        </div>
    }
}

/// Clears a message about text that was not applied (`error`) once the value the field shows
/// changes: typed, or set elsewhere (a preset, a reset, an open or import). Fieldsets are kept
/// across such changes, so their messages would otherwise outlive the value they describe.
/// It follows the value only while a message is shown: otherwise an input costs it nothing.
pub fn clear_when_changed<T: PartialEq + 'static>(
    shown: impl Fn() -> T + 'static,
    (error, set_error): (ReadSignal<Option<String>>, WriteSignal<Option<String>>),
) {
    Effect::new(move |seen: Option<Option<T>>| {
        if error.with(Option::is_none) {
            return None;
        }
        let now = shown();
        match seen.flatten() {
            Some(before) if before != now => {
                set_error.set(None);
                None
            }
            _ => Some(now),
        }
    });
}

/// The number in `text` if it is one within `min..=max`, else the message shown under the field.
pub fn parse_in_range(label: &str, min: f64, max: f64, text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= min && v <= max => Ok(v),
        _ => Err(format!(
            "{label} must be a number from {} to {}; \"{}\" was not applied.",
            trim_number(min),
            trim_number(max),
            text.trim()
        )),
    }
}

/// One numeric setting of a `T` in the scenario: its label, unit and range from the field
/// table, and how it is read (`None`: shown as 0) and written.
pub struct NumericSetting<T: 'static> {
    /// Label (the accessible name).
    pub label: &'static str,
    /// Unit shown after the field.
    pub unit: &'static str,
    /// Smallest value accepted.
    pub min: f64,
    /// Largest value accepted.
    pub max: f64,
    /// The value shown.
    pub read: fn(&T) -> Option<f64>,
    /// Applies an accepted value.
    pub write: fn(&mut T, f64),
}

impl<T: 'static> NumericSetting<T> {
    /// The setting of a numeric field of the table, read and written as the table says.
    pub fn of(field: &'static Field<T>) -> Option<NumericSetting<T>> {
        match field.value {
            Value::Number { get, set } => Some(NumericSetting::via(field, get, set)),
            _ => None,
        }
    }

    /// The setting of a field of the table, read and written through a domain edit.
    pub fn via(
        field: &'static Field<T>,
        read: fn(&T) -> Option<f64>,
        write: fn(&mut T, f64),
    ) -> NumericSetting<T> {
        NumericSetting {
            label: field.label,
            unit: field.unit,
            min: field.min,
            max: field.max,
            read,
            write,
        }
    }
}

/// The "All settings" rows of `table`: its numeric fields shown as settings, in table order.
pub fn table_settings<T: 'static>(table: &'static [Field<T>]) -> Vec<NumericSetting<T>> {
    table
        .iter()
        .filter(|f| f.control == Control::Setting)
        .filter_map(NumericSetting::of)
        .collect()
}

/// Number fields for `settings` of item `index` of the scenario, reached through `item` and
/// `item_mut` (a platform, a job class). Element ids are `{id_prefix}-{index}-setting-{k}`.
pub fn numeric_fields<T: 'static>(
    scenario: RwSignal<Scenario>,
    index: usize,
    id_prefix: &'static str,
    settings: Vec<NumericSetting<T>>,
    item: fn(&Scenario, usize) -> Option<&T>,
    item_mut: fn(&mut Scenario, usize) -> Option<&mut T>,
) -> impl IntoView {
    let at = ItemAt {
        index,
        get: item,
        get_mut: item_mut,
    };
    item_numeric_fields(scenario, at, format!("{id_prefix}-{index}"), settings)
}

/// Number fields for `settings` of the item `at` names. Element ids are
/// `{id_prefix}-setting-{k}`.
pub fn item_numeric_fields<T: 'static>(
    scenario: RwSignal<Scenario>,
    at: ItemAt<T>,
    id_prefix: String,
    settings: Vec<NumericSetting<T>>,
) -> impl IntoView {
    settings
        .into_iter()
        .enumerate()
        .map(|(k, setting)| {
            let NumericSetting {
                label,
                unit,
                min,
                max,
                read,
                write,
            } = setting;
            let value = Signal::derive(move || at.read(scenario, read).flatten().unwrap_or(0.0));
            let on_change = Callback::new(move |v: f64| at.edit(scenario, |t| write(t, v)));
            view! {
                <NumberField
                    id=format!("{id_prefix}-setting-{k}")
                    label=label
                    unit=unit
                    min=min
                    max=max
                    value=value
                    on_change=on_change
                />
            }
        })
        .collect_view()
}

/// Where a field's item is in the scenario: item `index` of a list (a platform, a job class).
pub struct ItemAt<T: 'static> {
    /// Index in its list.
    pub index: usize,
    /// The item, if it exists.
    pub get: fn(&Scenario, usize) -> Option<&T>,
    /// The item, to edit.
    pub get_mut: fn(&mut Scenario, usize) -> Option<&mut T>,
}

impl<T: 'static> Clone for ItemAt<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: 'static> Copy for ItemAt<T> {}

impl ItemAt<crate::model::scenario::Platform> {
    /// Platform `index`.
    pub fn platform(index: usize) -> Self {
        ItemAt {
            index,
            get: |s, i| s.platforms.get(i),
            get_mut: |s, i| s.platforms.get_mut(i),
        }
    }
}

impl ItemAt<Scenario> {
    /// The scenario itself (its own fields).
    pub fn scenario() -> Self {
        ItemAt {
            index: 0,
            get: |s, _| Some(s),
            get_mut: |s, _| Some(s),
        }
    }
}

impl ItemAt<crate::model::scenario::NodePool> {
    /// Pool `pool` of platform `platform` (one index for both: `platform` × the most pools a
    /// platform has, + `pool`).
    pub fn pool(platform: usize, pool: usize) -> Self {
        use crate::model::scenario::node_pool::MAX_NODE_POOLS;
        ItemAt {
            index: platform * MAX_NODE_POOLS + pool,
            get: |s, i| {
                s.platforms
                    .get(i / MAX_NODE_POOLS)?
                    .node_pools
                    .get(i % MAX_NODE_POOLS)
            },
            get_mut: |s, i| {
                s.platforms
                    .get_mut(i / MAX_NODE_POOLS)?
                    .node_pools
                    .get_mut(i % MAX_NODE_POOLS)
            },
        }
    }
}

impl ItemAt<crate::model::scenario::JobClass> {
    /// Job class `index`.
    pub fn job_class(index: usize) -> Self {
        ItemAt {
            index,
            get: |s, i| s.job_classes.get(i),
            get_mut: |s, i| s.job_classes.get_mut(i),
        }
    }
}

impl<T: 'static> ItemAt<T> {
    fn read<R>(self, scenario: RwSignal<Scenario>, f: impl FnOnce(&T) -> R) -> Option<R> {
        scenario.with(|s| (self.get)(s, self.index).map(f))
    }

    fn edit(self, scenario: RwSignal<Scenario>, f: impl FnOnce(&mut T)) {
        scenario.update(|s| {
            if let Some(item) = (self.get_mut)(s, self.index) {
                f(item);
            }
        })
    }
}

/// A select for a choice field of the table (element id `id`), its options the table's.
pub fn choice_field<T: 'static>(
    scenario: RwSignal<Scenario>,
    id: String,
    field: &'static Field<T>,
    at: ItemAt<T>,
) -> impl IntoView {
    let Value::Choice { choices, get, set } = field.value else {
        return ().into_any();
    };
    view! {
        <div class="field">
            <label for=id.clone()>{field.label}</label>
            <select
                id=id
                prop:value=move || at.read(scenario, get).unwrap_or_default()
                on:change=move |ev| {
                    let value = event_target_value(&ev);
                    at.edit(scenario, |item| set(item, &value))
                }
            >
                {choices
                    .iter()
                    .map(|&(value, label)| view! { <option value=value>{label}</option> })
                    .collect_view()}
            </select>
        </div>
    }
    .into_any()
}

/// A checkbox for a switch field of the table (element id `id`).
pub fn flag_field<T: 'static>(
    scenario: RwSignal<Scenario>,
    id: String,
    field: &'static Field<T>,
    at: ItemAt<T>,
) -> impl IntoView {
    let Value::Flag { get, set } = field.value else {
        return ().into_any();
    };
    view! {
        <div class="field checkbox">
            <input
                type="checkbox"
                id=id.clone()
                prop:checked=move || at.read(scenario, get).unwrap_or(false)
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    at.edit(scenario, |item| set(item, on))
                }
            />
            <label for=id>{field.label}</label>
        </div>
    }
    .into_any()
}

/// What the model changes of an item (a job class's or a service's notices, from `notices`
/// over the scenario), each as a hint: said, not hidden. Follows the scenario.
pub fn notices(
    scenario: RwSignal<Scenario>,
    notices: impl Fn(&Scenario) -> Vec<String> + Send + Sync + 'static,
) -> impl IntoView {
    move || {
        scenario.with(|s| {
            notices(s)
                .into_iter()
                .map(|n| view! { <p class="hint notice">{n}</p> })
                .collect_view()
        })
    }
}
