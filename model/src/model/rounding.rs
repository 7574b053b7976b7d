//! Rounding half away from zero, as `libm::round` does (the simulation rounds its times to
//! whole seconds with it).
//!
//! `libm::round` is `trunc(x + copysign(0.5 − ε/4, x))` on libm's software `trunc`, and in
//! wasm32 it stays a call. There the same formula on the `f64.trunc` instruction gives the same
//! bits (truncation is exact in IEEE 754), inline: about 5 % off the benchmark run in V8.
//! Elsewhere libm's, which the compiler inlines already. (The test runs natively; the browser
//! test's golden values cover the wasm32 path.)

/// `x` rounded to the nearest integer, ties away from zero; the same bits as `libm::round`.
#[inline(always)]
pub fn round(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        round_by_trunc(x)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        libm::round(x)
    }
}

/// libm's formula for `round`, on the hardware (or wasm32 instruction) `trunc`. Natively it is
/// only compared with libm's (tests).
#[cfg_attr(not(any(target_arch = "wasm32", test)), expect(dead_code))]
#[inline(always)]
fn round_by_trunc(x: f64) -> f64 {
    (x + (0.5 - 0.25 * f64::EPSILON).copysign(x)).trunc()
}

/// ⌈a / b⌉ for a ≥ 0 and b > 0.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit for bit what libm gives: ties, the values either side of them, signed zeros, the
    /// edges of the range where every double is an integer, infinities, NaN (any
    /// NaN: its sign and payload mean nothing) and a random walk.
    #[test]
    fn same_bits_as_libm() {
        let mut values = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MAX,
        ];
        for k in -2000..=2000 {
            let tie = f64::from(k) + 0.5;
            values.extend([tie, tie.next_up(), tie.next_down(), f64::from(k)]);
        }
        for big in [2f64.powi(52), 2f64.powi(53), 2f64.powi(62)] {
            values.extend([big, big.next_up(), big.next_down(), -big, 0.5 * big + 0.5]);
        }
        values.extend([
            0.5f64.next_down(),
            0.5f64.next_up(),
            f64::MIN_POSITIVE,
            4.9e-324,
        ]);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(f64::from_bits(x));
            values.push((x >> 11) as f64 * 1e-6);
        }
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for v in values {
            for v in [v, -v] {
                assert!(same(round_by_trunc(v), libm::round(v)), "{v:e}");
                assert!(same(round(v), libm::round(v)), "{v:e}");
            }
        }
    }
}
