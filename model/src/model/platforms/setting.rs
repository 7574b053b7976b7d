//! A profile's default: a field of the field table set to a value, next to its source.

use crate::model::catalog::InstanceType;
use crate::model::cloud::CloudFacts;
use crate::model::scenario::fields::{field, Input, Source, NODE_POOL_FIELDS, PLATFORM_FIELDS};
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

/// A reservation's discount as the cloud's 1-year figure for a reserved cluster (published
/// or, where a cloud publishes none, its stated assumption), in place of
/// [`Purchase::default`](crate::model::scenario::Purchase)'s 37 %: a reserved cluster's, and
/// every pool of the GPU clouds' profiles, whose reservations are contracts.
pub const RESERVATION_AT_CLOUD_DISCOUNT: Setting = Setting {
    field: "purchase.reserved_discount_pct",
    value: Val::OfCloud(|c: &'static CloudFacts| c.commitments.reserved_cluster_discount_pct.value),
    source: Source::OfCloud(|c| c.commitments.reserved_cluster_discount_pct.source),
};

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
        let input = match self.value {
            Val::Num(v) => Input::Number(v),
            Val::OfInstance(of) => Input::Number(of(instance)),
            Val::OfCloud(of) => Input::Number(of(cloud)),
            Val::Flag(on) => Input::Flag(on),
            Val::Choice(c) => Input::Choice(c),
        };
        let set = if let Some(row) = field(PLATFORM_FIELDS, self.field) {
            row.set_input(platform, input)
        } else if let Some(row) = field(NODE_POOL_FIELDS, self.field) {
            row.set_input(pool, input)
        } else {
            None
        };
        set == Some(Ok(()))
    }
}
