//! Which input moves the cost most (a tornado of ±X % on each key input), and break-evens:
//! the spot interruption rate above which spot stops paying, and the utilization above which
//! reserved capacity beats on-demand.
//!
//! Every variant runs the same replications with the same seed (common random numbers), so a
//! bar's length is the input's effect, not noise between runs.

use super::error::ScenarioError;
use super::monte_carlo::run_replication;
use super::scenario::{Overflow, Scenario};
use serde::{Deserialize, Serialize};

/// An input the tornado varies.
#[derive(Debug, Clone, Copy)]
pub struct Knob {
    /// Identifier.
    pub id: &'static str,
    /// Label shown in the UI (the same words as the controls).
    pub label: &'static str,
    apply: fn(&mut Scenario, f64),
}

/// The inputs the tornado varies, each scaled by (1 ± X %).
pub fn knobs() -> &'static [Knob] {
    &[
        Knob {
            id: "spot_interruption_rate",
            label: "Spot interruption rate",
            apply: |s, f| {
                s.platforms
                    .iter_mut()
                    .for_each(|p| p.spot_interruptions_per_node_hour *= f)
            },
        },
        Knob {
            id: "utilization",
            label: "Utilization (offered load)",
            apply: |s, f| {
                for c in &mut s.job_classes {
                    c.arrivals = c.arrivals.scaled(f);
                }
            },
        },
        Knob {
            id: "on_demand_price",
            label: "On-demand price",
            apply: |s, f| {
                s.platforms
                    .iter_mut()
                    .for_each(|p| p.on_demand_usd_per_node_hour *= f)
            },
        },
        Knob {
            id: "spot_price",
            label: "Spot price",
            apply: |s, f| {
                s.platforms
                    .iter_mut()
                    .for_each(|p| p.spot_usd_per_node_hour *= f)
            },
        },
        Knob {
            id: "provisioning_time",
            label: "Node provisioning time",
            apply: |s, f| {
                for p in &mut s.platforms {
                    p.provisioning_median_s *= f;
                    p.provisioning_p90_s *= f;
                }
            },
        },
        Knob {
            id: "image_size",
            label: "Image pull time",
            apply: |s, f| s.job_classes.iter_mut().for_each(|c| c.image_gb *= f),
        },
        Knob {
            id: "warm_pool_window",
            label: "Warm-pool window",
            apply: |s, f| {
                s.platforms
                    .iter_mut()
                    .for_each(|p| p.warm_pool_window_s *= f)
            },
        },
        Knob {
            id: "checkpoint_interval",
            label: "Checkpoint interval",
            apply: |s, f| {
                s.job_classes
                    .iter_mut()
                    .for_each(|c| c.checkpoint_interval_min *= f)
            },
        },
        Knob {
            id: "egress_price",
            label: "Egress price",
            apply: |s, f| {
                s.platforms
                    .iter_mut()
                    .for_each(|p| p.egress_usd_per_gb *= f)
            },
        },
        Knob {
            id: "fte_cost",
            label: "FTE cost",
            apply: |s, f| s.people.fte_cost_usd_per_year *= f,
        },
    ]
}

/// One bar of the tornado: a knob's low and high variant for one platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TornadoBar {
    /// Knob identifier.
    pub knob: String,
    /// Knob label.
    pub label: String,
    /// Platform name.
    pub platform: String,
    /// Mean monthly TCO with the input at (1 − X %), USD.
    pub low_usd: f64,
    /// Mean monthly TCO of the scenario as given, USD.
    pub base_usd: f64,
    /// Mean monthly TCO with the input at (1 + X %), USD.
    pub high_usd: f64,
}

/// Mean monthly TCO per platform over the first `reps` replications.
pub fn mean_tco(scenario: &Scenario, reps: u32) -> Vec<f64> {
    let mut sums = vec![0.0; scenario.platforms.len()];
    for r in 0..reps.max(1) {
        for (sum, o) in sums.iter_mut().zip(run_replication(scenario, u64::from(r))) {
            *sum += o.monthly_tco_usd;
        }
    }
    sums.iter().map(|s| s / f64::from(reps.max(1))).collect()
}

/// The tornado as a resumable computation, one replication of one variant per [`step`], so
/// the UI can run it in slices. Variant 0 is the scenario as given; then each knob low and
/// high. Knobs whose variant is not a valid scenario (e.g. a share pushed above its range) are
/// left out.
///
/// [`step`]: TornadoRun::step
#[derive(Debug, Clone)]
pub struct TornadoRun {
    reps: u32,
    /// (knob index, scenario) for the base (knob `usize::MAX`) and each low/high variant.
    variants: Vec<(usize, Scenario)>,
    /// Sum of monthly TCO per variant and platform.
    sums: Vec<Vec<f64>>,
    next: usize,
}

impl TornadoRun {
    /// Prepares the tornado of `scenario` at ±`pct` % with `reps` replications per variant.
    pub fn new(scenario: &Scenario, pct: f64, reps: u32) -> Result<TornadoRun, ScenarioError> {
        scenario.validate()?;
        let mut variants = vec![(usize::MAX, scenario.clone())];
        for (k, knob) in knobs().iter().enumerate() {
            let make = |factor: f64| {
                let mut s = scenario.clone();
                (knob.apply)(&mut s, factor);
                s.validate().ok().map(|_| s)
            };
            if let (Some(low), Some(high)) = (make(1.0 - pct / 100.0), make(1.0 + pct / 100.0)) {
                variants.push((k, low));
                variants.push((k, high));
            }
        }
        let platforms = scenario.platforms.len();
        Ok(TornadoRun {
            reps: reps.max(1),
            sums: vec![vec![0.0; platforms]; variants.len()],
            variants,
            next: 0,
        })
    }

    /// Steps to do in all.
    pub fn total_steps(&self) -> usize {
        self.variants.len() * self.reps as usize
    }

    /// Steps done.
    pub fn done_steps(&self) -> usize {
        self.next
    }

    /// All steps done.
    pub fn is_done(&self) -> bool {
        self.next >= self.total_steps()
    }

    /// Runs one replication of one variant; returns whether the tornado is complete.
    pub fn step(&mut self) -> bool {
        if self.is_done() {
            return true;
        }
        let variant = self.next / self.reps as usize;
        let rep = (self.next % self.reps as usize) as u64;
        for (sum, o) in self.sums[variant]
            .iter_mut()
            .zip(run_replication(&self.variants[variant].1, rep))
        {
            *sum += o.monthly_tco_usd;
        }
        self.next += 1;
        self.is_done()
    }

    /// The bars, once complete (empty before).
    pub fn bars(&self) -> Vec<TornadoBar> {
        if !self.is_done() {
            return Vec::new();
        }
        let reps = f64::from(self.reps);
        let base = &self.variants[0].1;
        let mut bars = Vec::new();
        for pair in (1..self.variants.len()).step_by(2) {
            let knob = &knobs()[self.variants[pair].0];
            for (i, p) in base.platforms.iter().enumerate() {
                bars.push(TornadoBar {
                    knob: knob.id.to_string(),
                    label: knob.label.to_string(),
                    platform: p.name.clone(),
                    low_usd: self.sums[pair][i] / reps,
                    base_usd: self.sums[0][i] / reps,
                    high_usd: self.sums[pair + 1][i] / reps,
                });
            }
        }
        bars
    }
}

/// The tornado: every knob at (1 ± `pct` %), `reps` replications each (see [`TornadoRun`]).
pub fn tornado(scenario: &Scenario, pct: f64, reps: u32) -> Result<Vec<TornadoBar>, ScenarioError> {
    let mut run = TornadoRun::new(scenario, pct, reps)?;
    while !run.step() {}
    Ok(run.bars())
}

/// Where two options cost the same, found by bisection over a searched range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakEven {
    /// The break-even value, if the costs cross inside the searched range.
    pub value: Option<f64>,
    /// Lower end of the searched range.
    pub searched_min: f64,
    /// Upper end of the searched range.
    pub searched_max: f64,
    /// Which option wins below the break-even, or across the whole range when there is none.
    pub below: String,
    /// Which option wins above the break-even.
    pub above: String,
}

/// Bisection on `x` in [lo, hi] (geometric when `log`) for the sign change of `gap(x)`.
fn bisect(lo: f64, hi: f64, log: bool, gap: impl Fn(f64) -> f64) -> (Option<f64>, f64, f64) {
    let (g_lo, g_hi) = (gap(lo), gap(hi));
    if g_lo.signum() == g_hi.signum() {
        return (None, g_lo, g_hi);
    }
    let (mut a, mut b) = (lo, hi);
    for _ in 0..14 {
        let mid = if log {
            libm::sqrt(a * b)
        } else {
            (a + b) / 2.0
        };
        if gap(mid).signum() == g_lo.signum() {
            a = mid;
        } else {
            b = mid;
        }
    }
    (
        Some(if log {
            libm::sqrt(a * b)
        } else {
            (a + b) / 2.0
        }),
        g_lo,
        g_hi,
    )
}

/// The spot interruption rate (per node-hour) above which platform `index` on spot costs more
/// than the same platform on on-demand, searched over 10⁻⁴ to 2 per node-hour (a mean of 30
/// minutes between interruptions; beyond that the simulation's work grows without bound).
pub fn spot_break_even_rate(
    scenario: &Scenario,
    index: usize,
    reps: u32,
) -> Result<BreakEven, ScenarioError> {
    scenario.validate()?;
    let mut base = scenario.clone();
    base.platforms = vec![scenario.platforms[index].clone()];
    let mut on_demand = base.clone();
    on_demand.platforms[0].purchase.overflow = Overflow::OnDemand;
    let od_cost = mean_tco(&on_demand, reps)[0];
    let spot_cost = |rate: f64| {
        let mut s = base.clone();
        s.platforms[0].purchase.overflow = Overflow::Spot;
        s.platforms[0].spot_interruptions_per_node_hour = rate;
        mean_tco(&s, reps)[0]
    };
    let (lo, hi) = (1e-4, 2.0);
    let (value, g_lo, _) = bisect(lo, hi, true, |rate| spot_cost(rate) - od_cost);
    let spot_wins_low = g_lo < 0.0;
    Ok(BreakEven {
        value,
        searched_min: lo,
        searched_max: hi,
        below: if spot_wins_low { "spot" } else { "on-demand" }.to_string(),
        above: if value.is_some() == spot_wins_low {
            "on-demand"
        } else {
            "spot"
        }
        .to_string(),
    })
}

/// The offered utilization above which reserving the whole reference cluster (on-demand
/// overflow) costs less than on-demand only, for platform `index`, searched over 2 % to 150 %.
pub fn reserved_break_even_utilization(
    scenario: &Scenario,
    index: usize,
    reps: u32,
) -> Result<BreakEven, ScenarioError> {
    scenario.validate()?;
    let mut base = scenario.clone();
    base.platforms = vec![scenario.platforms[index].clone()];
    base.platforms[0].purchase.overflow = Overflow::OnDemand;
    let cost = |utilization: f64, reserved_share: f64| {
        let Some(mut s) = base.with_offered_utilization(utilization) else {
            return 0.0;
        };
        s.platforms[0].purchase.reserved_share = reserved_share;
        mean_tco(&s, reps)[0]
    };
    let (lo, hi) = (0.02, 1.5);
    let (value, g_lo, _) = bisect(lo, hi, false, |u| cost(u, 1.0) - cost(u, 0.0));
    let reserved_wins_low = g_lo < 0.0;
    Ok(BreakEven {
        value,
        searched_min: lo,
        searched_max: hi,
        below: if reserved_wins_low {
            "reserved"
        } else {
            "on-demand"
        }
        .to_string(),
        above: if value.is_some() == reserved_wins_low {
            "on-demand"
        } else {
            "reserved"
        }
        .to_string(),
    })
}
