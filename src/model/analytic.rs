//! Closed forms: the oracles the simulation is tested against, and what the UI shows at once
//! while the Monte Carlo runs.
//!
//! - Erlang C: mean queue wait of M/M/c.
//! - Young (1974) and Daly (2006): optimal checkpoint interval, and Daly's expected wall time
//!   of a checkpointed job under exponential interruptions.

/// Probability that an arriving job waits in M/M/c with `servers` servers and offered load
/// `load_erlangs` = λ/μ (< servers). Uses the Erlang B recursion, stable for large c.
pub fn erlang_c_probability_of_wait(servers: u32, load_erlangs: f64) -> f64 {
    let c = f64::from(servers);
    if load_erlangs >= c {
        return 1.0;
    }
    let mut b = 1.0;
    for k in 1..=servers {
        b = load_erlangs * b / (f64::from(k) + load_erlangs * b);
    }
    c * b / (c - load_erlangs * (1.0 - b))
}

/// Mean queue wait of M/M/c, in the unit of `mean_service`: C(c, a) · S / (c − a), where
/// a = λ·S. Infinite when the load reaches the servers.
pub fn erlang_c_mean_wait(servers: u32, arrival_rate: f64, mean_service: f64) -> f64 {
    let a = arrival_rate * mean_service;
    let c = f64::from(servers);
    if a >= c {
        return f64::INFINITY;
    }
    erlang_c_probability_of_wait(servers, a) * mean_service / (c - a)
}

/// Young's optimal checkpoint interval √(2·δ·M), seconds (δ checkpoint write time, M mean time
/// between interruptions, both seconds).
pub fn young_interval_s(checkpoint_write_s: f64, mtbi_s: f64) -> f64 {
    libm::sqrt(2.0 * checkpoint_write_s * mtbi_s)
}

/// Daly's (2006) higher-order optimal checkpoint interval, seconds:
/// √(2δM)·[1 + ⅓·√(δ/2M) + ⅑·(δ/2M)] − δ for δ < 2M, else M.
pub fn daly_interval_s(checkpoint_write_s: f64, mtbi_s: f64) -> f64 {
    let d = checkpoint_write_s;
    let m = mtbi_s;
    if d >= 2.0 * m {
        return m;
    }
    let x = d / (2.0 * m);
    libm::sqrt(2.0 * d * m) * (1.0 + libm::sqrt(x) / 3.0 + x / 9.0) - d
}

/// Daly's expected wall time of a job needing `solve_s` of compute, checkpointing every
/// `interval_s` with writes of `checkpoint_write_s`, restart `restart_s`, under exponential
/// interruptions with mean `mtbi_s`: M·e^(R/M)·(e^((τ+δ)/M) − 1)·Ts/τ.
pub fn daly_wall_time_s(
    solve_s: f64,
    interval_s: f64,
    checkpoint_write_s: f64,
    restart_s: f64,
    mtbi_s: f64,
) -> f64 {
    let m = mtbi_s;
    m * libm::exp(restart_s / m)
        * (libm::exp((interval_s + checkpoint_write_s) / m) - 1.0)
        * solve_s
        / interval_s
}

/// Share of always-on nodes interrupted at least once in a 730-hour month at `rate` per
/// node-hour: 1 − e^(−730·λ).
pub fn monthly_interruption_share(rate_per_node_hour: f64) -> f64 {
    1.0 - libm::exp(-crate::model::HOURS_PER_MONTH * rate_per_node_hour)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erlang_c_matches_textbook_values() {
        // c = 2, a = 1: C = 1/3; Wq = C·S/(c − a) = S/3.
        assert!((erlang_c_probability_of_wait(2, 1.0) - 1.0 / 3.0).abs() < 1e-12);
        assert!((erlang_c_mean_wait(2, 1.0, 1.0) - 1.0 / 3.0).abs() < 1e-12);
        // c = 1 is M/M/1: Wq = ρ/(μ − λ) = 0.8 / 0.2 = 4 for λ = 0.8, μ = 1.
        assert!((erlang_c_mean_wait(1, 0.8, 1.0) - 4.0).abs() < 1e-12);
        assert!(erlang_c_mean_wait(4, 4.0, 1.0).is_infinite());
    }

    #[test]
    fn checkpoint_intervals() {
        // δ = 60 s, M = 10 h: Young √(2·60·36000) = 2078.5 s.
        assert!((young_interval_s(60.0, 36_000.0) - 2_078.46).abs() < 0.01);
        let daly = daly_interval_s(60.0, 36_000.0);
        assert!(daly > 2_000.0 && daly < 2_100.0, "{daly}");
        // With no interruptions in sight Daly's wall time tends to Ts·(τ+δ)/τ.
        let w = daly_wall_time_s(3_600.0, 600.0, 60.0, 0.0, 1e12);
        assert!((w - 3_960.0).abs() < 0.01, "{w}");
    }

    #[test]
    fn monthly_share_matches_the_advisor_band_edges() {
        // 5 %/month ⇔ λ = −ln(0.95)/730 = 7.027e-5 per node-hour.
        let share = monthly_interruption_share(-libm::log(0.95) / 730.0);
        assert!((share - 0.05).abs() < 1e-12);
    }
}
