//! A profile's default: a field of the field table set to a value, next to its source.

use crate::model::catalog::InstanceType;
use crate::model::cloud::CloudFacts;
use crate::model::scenario::fields::{Field, Source, Value, NODE_POOL_FIELDS, PLATFORM_FIELDS};
use crate::model::scenario::{NodePool, Platform};

/// What a default is set to.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    /// A number.
    Num(f64),
    /// A switch.
    Flag(bool),
    /// A choice, by its JSON value.
    Choice(&'static str),
    /// A number that depends on the instance (a premium quoted per instance type).
    OfInstance(fn(&InstanceType) -> f64),
    /// A number that depends on the cloud (a commitment's discount).
    OfCloud(fn(&'static CloudFacts) -> f64),
}

/// One default of a profile.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// Its path in a platform ([`PLATFORM_FIELDS`]) or in a pool ([`NODE_POOL_FIELDS`]; on
    /// a platform of one pool, its path there too).
    pub field: &'static str,
    /// Its value.
    pub value: Val,
    /// Where it comes from.
    pub source: Source,
}

/// A default from a source that applies on every cloud.
pub const fn set(field: &'static str, value: Val, source: &'static str) -> Setting {
    Setting {
        field,
        value,
        source: Source::Same(source),
    }
}

impl Setting {
    /// Sets it on `platform` (a pool field: on `pool`, the platform's pool being built),
    /// through its row's own setter. Returns whether a row took it: a row that is missing or
    /// of another kind is a mistake in the profile, which a test catches.
    pub fn apply(
        &self,
        platform: &mut Platform,
        pool: &mut NodePool,
        instance: &InstanceType,
        cloud: &'static CloudFacts,
    ) -> bool {
        let number = match self.value {
            Val::Num(v) => Some(v),
            Val::OfInstance(of) => Some(of(instance)),
            Val::OfCloud(of) => Some(of(cloud)),
            Val::Flag(_) | Val::Choice(_) => None,
        };
        if let Some(row) = PLATFORM_FIELDS.iter().find(|f| f.path == self.field) {
            return set_on(row, platform, self.value, number);
        }
        if let Some(row) = NODE_POOL_FIELDS.iter().find(|f| f.path == self.field) {
            return set_on(row, pool, self.value, number);
        }
        false
    }
}

/// Sets `value` on `item` through `row`.
fn set_on<T>(row: &Field<T>, item: &mut T, value: Val, number: Option<f64>) -> bool {
    match (row.value, value, number) {
        (Value::Number { set, .. }, _, Some(v)) => set(item, v),
        (Value::Flag { set, .. }, Val::Flag(on), _) => set(item, on),
        (Value::Choice { set, choices, .. }, Val::Choice(c), _)
            if choices.iter().any(|(v, _)| *v == c) =>
        {
            set(item, c)
        }
        _ => return false,
    }
    true
}
