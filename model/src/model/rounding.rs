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

/// Below this every double is an integer, and above 0 its integer part fits a `u64` exactly.
const INTEGRAL: f64 = 4_503_599_627_370_496.0; // 2^52

/// ⌊x⌋ for x > 0: the same bits as `libm::floor` there, by a conversion to an integer
/// (truncation is the floor of a non-negative number) rather than libm's bit manipulation, which
/// natively is a call. Other values (zeros, negative, NaN, at least 2^52) go to libm.
#[inline(always)]
pub fn floor_non_negative(x: f64) -> f64 {
    if x > 0.0 && x < INTEGRAL {
        x as i64 as f64
    } else {
        libm_floor(x)
    }
}

/// libm's floor, kept out of line: inlined, the compiler computes it beside the conversion
/// and selects one, which costs what the conversion saves.
#[cold]
#[inline(never)]
fn libm_floor(x: f64) -> f64 {
    libm::floor(x)
}

/// libm's ceil, out of line (as [`libm_floor`]).
#[cold]
#[inline(never)]
fn libm_ceil(x: f64) -> f64 {
    libm::ceil(x)
}

/// [`round`], out of line (as [`libm_floor`]).
#[cold]
#[inline(never)]
fn round_out_of_line(x: f64) -> f64 {
    round(x)
}

/// ⌈x⌉ for x > 0, the same bits as `libm::ceil` (as [`floor_non_negative`]; below 2^52 the
/// integer part is exact). Other values go to libm.
#[inline(always)]
pub fn ceil_non_negative(x: f64) -> f64 {
    if x > 0.0 && x < INTEGRAL {
        let t = x as i64 as f64;
        if t < x {
            t + 1.0
        } else {
            t
        }
    } else {
        libm_ceil(x)
    }
}

/// x rounded to the nearest integer, ties away from zero, for x > 0: the same bits as
/// `libm::round`. Adding 2^52 rounds x to an integer (ties to even) in one addition, and a tie
/// rounded down is moved up: unlike a comparison of x with its integer part, the branch is
/// almost never taken, so it costs nothing when the fractions are random. Other values go to
/// [`round`].
#[inline(always)]
pub fn round_non_negative(x: f64) -> f64 {
    if x > 0.0 && x < INTEGRAL {
        let r = (x + INTEGRAL) - INTEGRAL;
        if x - r == 0.5 {
            r + 1.0
        } else {
            r
        }
    } else {
        round_out_of_line(x)
    }
}

/// ⌈a / b⌉ for a ≥ 0 and b > 0.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit for bit what libm gives (for `round` and the non-negative forms of round, floor
    /// and ceil, which pass other values on to libm): ties, the values either side of them,
    /// signed zeros, the edges of the range where every double is an integer, infinities,
    /// NaN (any NaN: its sign and payload mean nothing) and a random walk.
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
                assert!(same(round_non_negative(v), libm::round(v)), "{v:e}");
                assert!(same(floor_non_negative(v), libm::floor(v)), "{v:e}");
                assert!(same(ceil_non_negative(v), libm::ceil(v)), "{v:e}");
            }
        }
    }
}
