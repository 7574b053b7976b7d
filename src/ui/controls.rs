//! Input controls: a slider with a number field beside it, its unit and a readout. The
//! label is the control's accessible name; a number typed out of range is refused with a
//! message naming the range, and the scenario keeps its last valid value.

use crate::charts::format::trim_number;
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
    #[prop(optional, into)]
    readout: Option<Signal<String>>,
    /// Tooltip and help text.
    #[prop(optional)]
    help: &'static str,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    let number_id = format!("{id}-number");
    let accept = move |text: String| match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= min && v <= max => {
            set_error.set(None);
            on_change.run(v);
        }
        _ => set_error.set(Some(format!(
            "{label} must be a number from {} to {}; \"{}\" was not applied.",
            trim_number(min),
            trim_number(max),
            text.trim()
        ))),
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
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
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
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    match text.trim().parse::<f64>() {
                        Ok(v) if v.is_finite() && v >= min && v <= max => {
                            set_error.set(None);
                            on_change.run(v);
                        }
                        _ => set_error.set(Some(format!(
                            "{label} must be a number from {} to {}; \"{}\" was not applied.",
                            trim_number(min),
                            trim_number(max),
                            text.trim()
                        ))),
                    }
                }
            />
            <span class="unit">{unit}</span>
            <p class="input-error" role="alert">{move || error.get()}</p>
        </div>
    }
}
