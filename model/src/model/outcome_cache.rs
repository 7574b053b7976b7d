//! Platform outcomes of the latest run, kept by replication so that the next run simulates
//! only the platforms an edit touched.
//!
//! A platform's outcome in replication `r` depends only on the scenario's shared inputs (job
//! classes, horizon, seed, reference GPUs, discounts, people), that platform's own settings
//! and `r`: platforms see the same jobs and node streams whatever their position in the list
//! ([`super::sim`]). So when an edit changes one platform (dragging its spot-interruption
//! slider, say), the others' outcomes are the ones already computed, bit for bit, and only the
//! edited platform is simulated again. Any change to a shared input forgets everything.
//! Inputs are compared by their JSON text, so that 0 and −0 never count as the same input.

use super::scenario::{limits, Overflow, Platform, Scenario};
use super::sim::{generate_jobs, simulate_platform_within, PlatformOutcome};
use std::collections::BTreeMap;

/// Outcomes by platform and replication for one validated scenario
/// ([`OutcomeCache::switch_to`]).
#[derive(Debug, Clone, Default)]
pub struct OutcomeCache {
    /// The shared inputs of the scenario the outcomes belong to, as JSON text.
    shared: Option<String>,
    /// One column per platform of that scenario, in its order: the platform's settings as
    /// JSON text and its known outcomes by replication (only the replications this cache was
    /// asked for: a worker runs an interleaved share of them).
    columns: Vec<Column>,
}

#[derive(Debug, Clone, Default)]
struct Column {
    key: Option<String>,
    outcomes: BTreeMap<u32, PlatformOutcome>,
}

/// The scenario without its platforms and replication count, as JSON text.
fn shared_inputs(scenario: &Scenario) -> Option<String> {
    let shared = Scenario {
        platforms: Vec::new(),
        replications: 0,
        ..scenario.clone()
    };
    json_text(&shared)
}

/// JSON text through a `serde_json::Value` (the page already builds scenario values for its
/// links, so this adds no serializer to the wasm module; a direct `to_string` added 5 kB gzip).
/// `None` if it cannot be written: such a key never matches. Distinct finite numbers give
/// distinct text, 0 and −0 included (a validated scenario has no NaN or infinity, which JSON
/// would write as `null`).
fn json_text<T: serde::Serialize>(value: &T) -> Option<String> {
    serde_json::to_value(value).ok().map(|v| v.to_string())
}

/// A platform's settings as the simulation reads them, as JSON text. A platform none of whose
/// pools buys spot capacity never has a spot node, so its spot prices, interruption rates and
/// notice are never read: they are left out, and the spot-interruption slider (set on every platform)
/// simulates again only the platforms that run on spot.
fn platform_key(platform: &Platform) -> Option<String> {
    if platform
        .pools()
        .iter()
        .any(|pool| pool.purchase.overflow == Overflow::Spot)
    {
        json_text(platform)
    } else {
        let mut unread = platform.clone();
        unread.spot_notice_s = 0.0;
        for pool in &mut unread.node_pools {
            pool.spot_usd_per_node_hour = 0.0;
            pool.spot_interruptions_per_node_hour = 0.0;
        }
        json_text(&unread)
    }
}

impl OutcomeCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes `scenario` (validated) the cache's scenario: when its shared inputs are those of
    /// the current one, each of its platforms takes over the outcomes of an identical platform
    /// of the current one (wherever it is in the list); otherwise nothing is kept.
    pub fn switch_to(&mut self, scenario: &Scenario) {
        let shared = shared_inputs(scenario);
        let same_shared = shared.is_some() && shared == self.shared;
        let mut old = if same_shared {
            std::mem::take(&mut self.columns)
        } else {
            Vec::new()
        };
        self.columns = scenario
            .platforms
            .iter()
            .map(|platform| {
                let key = platform_key(platform);
                let outcomes = old
                    .iter_mut()
                    .find(|c| key.is_some() && c.key == key)
                    .map(|c| std::mem::take(&mut c.outcomes))
                    .unwrap_or_default();
                Column { key, outcomes }
            })
            .collect();
        self.shared = shared;
    }

    /// Platforms of replication `r` already known (for the tests).
    #[cfg(test)]
    fn known(&self, r: u32) -> usize {
        self.columns
            .iter()
            .filter(|c| c.outcomes.contains_key(&r))
            .count()
    }

    /// Every platform's outcome in replication `r` of `scenario` (which must be the cache's
    /// scenario, [`OutcomeCache::switch_to`]): the known ones reused, the others simulated
    /// (jobs generated only when one is), then remembered. The same outcomes as
    /// [`super::monte_carlo::run_replication`].
    pub fn replication(&mut self, scenario: &Scenario, r: u32) -> Vec<PlatformOutcome> {
        debug_assert_eq!(self.columns.len(), scenario.platforms.len());
        let missing = self.columns.iter().any(|c| !c.outcomes.contains_key(&r));
        if missing {
            let jobs = generate_jobs(scenario, u64::from(r));
            for (p, column) in self.columns.iter_mut().enumerate() {
                column.outcomes.entry(r).or_insert_with(|| {
                    simulate_platform_within(
                        scenario,
                        p,
                        u64::from(r),
                        &jobs,
                        limits::EVENTS_PER_REPLICATION_MAX,
                    )
                });
            }
        }
        self.columns
            .iter()
            .map(|c| c.outcomes[&r].clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::monte_carlo::run_replication;

    /// After each edit: how many platforms of each replication the cache still knows, and
    /// every replication's outcomes equal to a fresh simulation's.
    fn check(cache: &mut OutcomeCache, s: &Scenario, known: usize) {
        cache.switch_to(s);
        for r in 0..3 {
            assert_eq!(cache.known(r), known, "replication {r}");
            // As JSON text: the same bits (−0 is not 0 there).
            let text = |o: &Vec<PlatformOutcome>| serde_json::to_string(o).unwrap();
            assert_eq!(
                text(&cache.replication(s, r)),
                text(&run_replication(s, u64::from(r)))
            );
            assert_eq!(cache.known(r), s.platforms.len());
        }
    }

    #[test]
    fn reused_outcomes_are_those_of_a_fresh_simulation() {
        let mut s = crate::model::fixtures::reserved_base_and_spot();
        s.horizon_days = 3.0;
        let n = s.platforms.len();
        assert!(n >= 3);
        let mut cache = OutcomeCache::new();
        check(&mut cache, &s, 0);
        // The same scenario with another replication count: everything known.
        s.replications += 7;
        check(&mut cache, &s, n);
        // One platform edited: only it simulated again.
        s.platforms[1]
            .first_pool_mut()
            .spot_interruptions_per_node_hour = 0.25;
        check(&mut cache, &s, n - 1);
        // The spot settings of every platform: only those buying spot capacity simulated
        // again (the others never have a spot node).
        let on_spot = |s: &Scenario| {
            s.platforms
                .iter()
                .filter(|p| p.first_pool().purchase.overflow == Overflow::Spot)
                .count()
        };
        assert!(on_spot(&s) >= 1 && on_spot(&s) < n);
        for p in &mut s.platforms {
            p.first_pool_mut().spot_interruptions_per_node_hour += 0.01;
            p.spot_notice_s += 30.0;
            p.first_pool_mut().spot_usd_per_node_hour *= 1.1;
        }
        check(&mut cache, &s, n - on_spot(&s));
        // Platforms reordered, one removed: the others known wherever they are.
        s.platforms.reverse();
        s.platforms.pop();
        check(&mut cache, &s, n - 1);
        // A platform added (a copy of another, renamed): not known.
        let mut copy = s.platforms[0].clone();
        copy.name.push_str(" (copy)");
        s.platforms.push(copy);
        check(&mut cache, &s, n - 1);
        // 0 and −0 are different inputs.
        s.platforms[0].storage_read_slowdown_pct = 0.0;
        check(&mut cache, &s, n - 1);
        s.platforms[0].storage_read_slowdown_pct = -0.0;
        check(&mut cache, &s, n - 1);
        // A shared input (the jobs): nothing known.
        s.job_classes[0].gpus_per_job += 1.0;
        check(&mut cache, &s, 0);
        s.seed += 1;
        check(&mut cache, &s, 0);
        s.discounts.set_pct(crate::model::cloud::Cloud::Aws, 5.0);
        check(&mut cache, &s, 0);
    }

    /// A whole run through the cache (the page's main-thread fallback) gives the results of
    /// a run without it, before and after an edit to one platform, and a run within a smaller
    /// event budget (which the cache does not hold) too.
    #[test]
    fn runs_through_the_cache_give_the_same_results() {
        use crate::model::budget::EventBudget;
        use crate::model::monte_carlo::MonteCarlo;
        let mut s = crate::model::fixtures::three_platforms();
        s.horizon_days = 2.0;
        s.replications = 6;
        let text = |r: &MonteCarlo| serde_json::to_string(&r.results()).unwrap();
        let mut cache = OutcomeCache::new();
        let mut runs = 0;
        for rate in [0.02, 0.3] {
            let spot = s
                .platforms
                .iter_mut()
                .find(|p| p.first_pool().purchase.overflow == Overflow::Spot);
            spot.unwrap()
                .first_pool_mut()
                .spot_interruptions_per_node_hour = rate;
            for budget in [
                EventBudget::default(),
                EventBudget {
                    per_replication: 20,
                    per_run: u64::MAX,
                },
            ] {
                let mut plain = MonteCarlo::within(s.clone(), budget).unwrap();
                plain.run_batch(u32::MAX);
                let mut cached = MonteCarlo::within(s.clone(), budget).unwrap();
                cache.switch_to(cached.scenario());
                while !cached.is_done() && cached.cut_off().is_none() {
                    cached.run_batch_with(2, &mut cache);
                }
                assert_eq!(text(&cached), text(&plain), "rate {rate}, {budget:?}");
                runs += usize::from(plain.cut_off().is_some());
            }
        }
        // The small budget did stop its runs.
        assert_eq!(runs, 2);
    }
}
