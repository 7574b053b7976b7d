//! How a verdict judges the platforms beyond their cost: the share of minutes a service may miss
//! its latency objective before its platform cannot be named the winner, and whether ops people
//! count. Absent from every preset and link made before it: a document without it reads the
//! default.

use serde::{Deserialize, Serialize};

/// The default SLO-violation allowance, % of the horizon's minutes: 99.5 % of minutes within
/// the objective, 3.65 hours in a 730-hour month. An autoscaler that takes minutes to absorb a
/// spike stays within it (the serving presets' four ×10 spikes a month cost 46–63 minutes);
/// one that misses its objective for hours does not.
pub const SLO_ALLOWANCE_PCT_DEFAULT: f64 = 0.5;

/// How a verdict judges the platforms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct VerdictSettings {
    /// Share of the horizon's minutes, %, in which a service may miss its p95 latency
    /// objective: a platform whose median SLO-violation minutes exceed it for any service
    /// cannot be named the winner (default 0.5: 99.5 % of minutes within the objective).
    pub slo_allowance_pct: f64,
    /// Whether the verdict counts ops people (default on): off, it ranks the platforms on the
    /// cloud bill alone (every cost but ops people), on the same results.
    pub count_people: bool,
}

impl Default for VerdictSettings {
    fn default() -> Self {
        VerdictSettings {
            slo_allowance_pct: SLO_ALLOWANCE_PCT_DEFAULT,
            count_people: true,
        }
    }
}

impl VerdictSettings {
    /// The minutes a service may miss its objective in a horizon of `horizon_days`.
    pub fn slo_allowance_minutes(&self, horizon_days: f64) -> f64 {
        self.slo_allowance_pct / 100.0 * horizon_days * 24.0 * 60.0
    }
}
