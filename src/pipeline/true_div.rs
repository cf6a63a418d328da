//! `a / b` of two ints: the exact quotient rounded once to the nearest float, as CPython does.
//!
//! Converting both ints to floats first rounds twice once either is beyond 2**53:
//! `(255 - 2**62) / 4611686018427387978` gave -1.0 where CPython gives -0.9999999999999999
//! (found by the differential test). Here the quotient is computed in integers with at least
//! two bits more than a float holds and a sticky bit for the remainder, and converted once.

/// `a / b` correctly rounded (round half to even); `b` must not be zero.
pub fn int_true_div(a: i64, b: i64) -> f64 {
    debug_assert!(b != 0);
    const EXACT: u64 = 1 << 53;
    let (x, y) = (a.unsigned_abs(), b.unsigned_abs());
    if x <= EXACT && y <= EXACT {
        // Both convert exactly, so the float division is the one rounding.
        return a as f64 / b as f64;
    }
    let negative = (a < 0) != (b < 0);
    let magnitude = if x == 0 { 0.0 } else { scaled_quotient(x, y) };
    if negative { -magnitude } else { magnitude }
}

/// `x / y` for `x, y > 0`, rounded once: the quotient of `x << shift` by `y` has at least 55
/// bits, so the remainder's sticky bit, or-ed into its lowest bit, sits below the rounding
/// bit and breaks ties the right way; the conversion of that integer then rounds correctly,
/// and the scaling by a power of two is exact (the result is far from overflow and underflow).
fn scaled_quotient(x: u64, y: u64) -> f64 {
    let bits = |v: u64| 64 - v.leading_zeros() as i32;
    // (x << s) / y >= 2**(bits(x) + s - 1 - bits(y)) >= 2**54; x << s < 2**(55 + bits(y)) <= 2**119.
    let shift = (55 + bits(y) - bits(x)).max(0);
    let numerator = u128::from(x) << shift;
    let (q, r) = (numerator / u128::from(y), numerator % u128::from(y));
    // q < 2**(bits(x) + shift - bits(y) + 1) <= 2**64 when shift > 0, and q <= x < 2**64 when not.
    let q = u64::try_from(q).unwrap_or(u64::MAX) | u64::from(r != 0);
    q as f64 * 2f64.powi(-shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_cpython_on_quotients_beyond_two_to_the_53() {
        // (a, b, repr(a / b)) from CPython 3.11; compared as the floats the reprs name.
        let cases: &[(i64, i64, &str)] = &[
            (-4611686018427387649, 4611686018427387978, "-0.9999999999999999"),
            (4611686018427387904, 3, "1.5372286728091292e+18"),
            (i64::MIN, 1, "-9.223372036854776e+18"),
            (i64::MIN, -1, "9.223372036854776e+18"),
            (i64::MAX, i64::MAX, "1.0"),
            (i64::MAX, 2, "4.611686018427388e+18"),
            (1, i64::MAX, "1.0842021724855044e-19"),
            (i64::MIN, 3, "-3.0744573456182584e+18"),
            (9007199254740993, 1, "9007199254740992.0"),
            (9007199254740993, 2, "4503599627370496.0"),
            (i64::MAX, -7, "-1.3176245766935393e+18"),
            (12345678901234567, 10, "1234567890123456.8"),
            (9007199254740993, 9007199254740994, "0.9999999999999999"),
            (3, 4611686018427387905, "6.505213034913027e-19"),
            (i64::MIN, i64::MAX, "-1.0"),
            (1, 3, "0.3333333333333333"),
            (-7, 2, "-3.5"),
        ];
        for &(a, b, want) in cases {
            let want: f64 = want.parse().expect("a float");
            assert_eq!(int_true_div(a, b).to_bits(), want.to_bits(), "{a} / {b}");
        }
    }

    #[test]
    fn zero_divided_by_a_negative_int_is_negative_zero() {
        assert!(int_true_div(0, -5).is_sign_negative());
        assert!(int_true_div(0, i64::MIN).is_sign_negative());
        assert!(int_true_div(0, 5).is_sign_positive());
    }
}
