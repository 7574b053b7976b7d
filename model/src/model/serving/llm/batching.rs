//! The oracle the per-minute LLM latency ([`super::latency`]) is checked against: one
//! replica's continuous batching simulated step by step, request by request.
//!
//! Requests arrive as a Poisson process at a constant rate, each with its own prompt and
//! output lengths (lognormal, as the service's token counts). Each iteration of the engine
//! takes the first waiting prompt (while the batch has room: the replica's batch cap), runs
//! its prefill, then one decode step of the batch, `step_s(b)`; the prompt's first token
//! leaves with that step, and a request leaves the batch with its last token. A request's TTFT is from its arrival to its first token; its TPOT the time from its
//! first token to its last over the tokens between. The step time is the roofline's at the
//! batch's size (its KV read at the mean context): the oracle checks the queueing and the
//! batching, not the roofline.

use super::roofline::{Replica, TokenCount, MAX_CONTEXT_TOKENS};
use crate::model::rng::Stream;
use std::collections::VecDeque;

/// The requests of a simulated run: each one's TTFT and TPOT, seconds.
#[derive(Debug, Clone, Default)]
pub struct BatchingRun {
    /// TTFT of each request that arrived after the warm-up.
    pub ttft_s: Vec<f64>,
    /// TPOT of each such request with more than one output token.
    pub tpot_s: Vec<f64>,
}

struct Running {
    arrived_s: f64,
    output: u32,
    left: u32,
    first_s: Option<f64>,
    counted: bool,
}

/// Simulates `replica` at `rps` requests a second for `horizon_s`, counting the requests that
/// arrive after `warmup_s`.
pub fn simulate_batching(
    replica: &Replica,
    rps: f64,
    horizon_s: f64,
    warmup_s: f64,
    stream: &mut Stream,
) -> BatchingRun {
    let mut run = BatchingRun::default();
    let cap = replica.max_batch.floor().max(1.0) as usize;
    let mut waiting: VecDeque<(f64, f64, u32)> = VecDeque::new();
    let mut running: Vec<Running> = Vec::new();
    let mut next_arrival = stream.exponential(1.0 / rps);
    let mut t = 0.0;
    // Token counts as the model reads them: lognormal, cut at the longest context (drawn
    // again past it).
    let cut = |stream: &mut Stream, count: TokenCount| loop {
        let n = stream.lognormal(count.median, count.sigma);
        if n <= MAX_CONTEXT_TOKENS {
            return n;
        }
    };
    let draw = |stream: &mut Stream| {
        let input = cut(stream, replica.input).max(1.0);
        let output = cut(stream, replica.output).round().max(1.0) as u32;
        (input, output)
    };
    loop {
        while next_arrival <= t && next_arrival < horizon_s {
            let (input, output) = draw(stream);
            waiting.push_back((next_arrival, input, output));
            next_arrival += stream.exponential(1.0 / rps);
        }
        if waiting.is_empty() && running.is_empty() {
            if next_arrival >= horizon_s {
                break;
            }
            t = next_arrival;
            continue;
        }
        // An iteration: one waiting prompt's prefill (where the batch has room), then a
        // decode step of the batch, the new request's first token among its tokens.
        let mut prefill = 0.0;
        if running.len() < cap {
            if let Some((arrived_s, input, output)) = waiting.pop_front() {
                prefill = replica.prefill_s(input);
                running.push(Running {
                    arrived_s,
                    output,
                    left: output,
                    first_s: None,
                    counted: arrived_s >= warmup_s,
                });
            }
        }
        if running.is_empty() {
            continue;
        }
        t += prefill + replica.step_s(running.len() as f64);
        running.retain_mut(|r| {
            if r.first_s.is_none() {
                r.first_s = Some(t);
                if r.counted {
                    run.ttft_s.push(t - r.arrived_s);
                }
            }
            r.left -= 1;
            if r.left > 0 {
                return true;
            }
            if r.counted && r.output > 1 {
                let first = r.first_s.unwrap_or(t);
                run.tpot_s.push((t - first) / f64::from(r.output - 1));
            }
            false
        });
    }
    run
}

/// The `q` quantile of `values` (sorted in place).
pub fn quantile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let k = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1;
    values[k]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gpus::find;
    use crate::model::rng::Purpose;
    use crate::model::serving::llm::architectures::known;
    use crate::model::serving::llm::latency::LlmTables;
    use crate::model::serving::llm::roofline::{Efficiencies, Precision};

    #[test]
    fn per_minute_ttft_and_tpot_match_a_request_level_simulation_at_three_loads() {
        let arch = known("llama-3.1-70b").unwrap().architecture;
        let replica = Replica::new(
            &arch,
            Precision::Fp8,
            find("H100").unwrap(),
            4,
            TokenCount::new(1_000.0, 3_000.0),
            TokenCount::new(250.0, 700.0),
            Efficiencies::CALIBRATED,
        )
        .unwrap();
        let latency = LlmTables::new(replica.clone());
        let saturation = latency.saturation_rps();
        for share in [0.3, 0.55, 0.8] {
            let rps = share * saturation;
            // Independent runs, for the standard error of each p95.
            let (mut ttfts, mut tpots) = (Vec::new(), Vec::new());
            for r in 0..8 {
                let mut stream = Stream::new(7, r, Purpose::Traffic, 0);
                let mut run = simulate_batching(&replica, rps, 4_000.0, 400.0, &mut stream);
                ttfts.push(quantile(&mut run.ttft_s, 0.95));
                tpots.push(quantile(&mut run.tpot_s, 0.95));
            }
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            let se = |v: &[f64]| {
                let m = mean(v);
                (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)).sqrt()
                    / (v.len() as f64).sqrt()
            };
            let ttft = latency.ttft_p95_at_rps(rps);
            let tpot = latency.tpot_p95_at_rps(rps);
            println!(
                "load {share}: TTFT p95 {:.1} ms (sim {:.1} ± {:.1}), TPOT p95 {:.2} ms (sim {:.2} ± {:.2})",
                ttft * 1e3,
                mean(&ttfts) * 1e3,
                se(&ttfts) * 1e3,
                tpot * 1e3,
                mean(&tpots) * 1e3,
                se(&tpots) * 1e3
            );
            for (what, model, sim) in [("TTFT", ttft, &ttfts), ("TPOT", tpot, &tpots)] {
                let gap = (model - mean(sim)).abs();
                assert!(
                    gap <= 0.10 * mean(sim) || gap <= 3.0 * se(sim),
                    "{what} at {share} of saturation: model {model} against {} ± {}",
                    mean(sim),
                    se(sim)
                );
            }
        }
    }
}
