//! `math.fsum(iterable)`: the correctly rounded sum of floats, by CPython 3.11's algorithm
//! (Shewchuk's exact partial sums, with its half-even correction across partials), so a sum
//! of many small scores or probabilities is CPython's to the last bit.

use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::iterate::LoopState;
use crate::{AnyValue, AnyView};

/// `math.fsum(iterable)`.
pub(super) fn fsum(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let iterable = super::math::one("fsum", args)?;
    let mut partials: Vec<f64> = Vec::new();
    // The infinities and NaNs among the items, summed apart as CPython sums them.
    let (mut special_sum, mut inf_sum) = (0.0f64, 0.0f64);
    let mut items = LoopState::start(*iterable)?;
    while let Some(item) = items.next_checked()? {
        let given = super::math::real(&item.view())?;
        let mut x = given;
        let mut kept = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        partials.truncate(kept);
        if x == 0.0 {
            continue;
        }
        if x.is_finite() {
            partials.push(x);
            continue;
        }
        // Not finite: an overflow of finite items, or an infinity or a NaN among them.
        if given.is_finite() {
            return Err(Error::new(ErrorKind::Overflow, "intermediate overflow in fsum"));
        }
        if given.is_infinite() {
            inf_sum += given;
        }
        special_sum += given;
        partials.clear();
    }
    if special_sum != 0.0 {
        if inf_sum.is_nan() {
            return Err(Error::value("-inf + inf in fsum"));
        }
        return Ok(AnyValue::from_float(special_sum));
    }
    Ok(AnyValue::from_float(rounded_sum(&mut partials)))
}

/// The sum of `partials` (non-overlapping, increasing in magnitude) rounded once, half to even.
fn rounded_sum(partials: &mut Vec<f64>) -> f64 {
    let Some(mut hi) = partials.pop() else { return 0.0 };
    let mut lo = 0.0;
    // Sum from the top while the sum stays exact.
    while let Some(y) = partials.pop() {
        let x = hi;
        hi = x + y;
        lo = y - (hi - x);
        if lo != 0.0 {
            break;
        }
    }
    // Make half-even rounding work across partials: a tie in `lo` is broken by the sign of the
    // partial below it.
    if let Some(&below) = partials.last()
        && ((lo < 0.0 && below < 0.0) || (lo > 0.0 && below > 0.0))
    {
        let y = lo * 2.0;
        let x = hi + y;
        if y == x - hi {
            hi = x;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(xs: &[f64]) -> std::result::Result<f64, String> {
        let list = crate::List::from_vec(xs.iter().map(|&x| AnyValue::from_float(x)).collect());
        let list = list.into_any();
        fsum(&[list.view()]).map(|v| v.value().as_float().unwrap()).map_err(|e| e.message().to_string())
    }

    // Expected: CPython 3.11's math.fsum of the same items.
    #[test]
    fn sums_as_cpython_does() {
        assert_eq!(sum(&[0.1; 10]), Ok(1.0));
        assert_eq!(sum(&[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]), Ok(1e-100));
        assert_eq!(sum(&[2.0f64.powi(53), -0.5, -2.0f64.powi(-54)]), Ok(9007199254740991.0));
        assert_eq!(sum(&[1.7976931348623157e308, 1.7976931348623157e308]), Err("intermediate overflow in fsum".into()));
        assert_eq!(sum(&[f64::INFINITY, f64::NEG_INFINITY]), Err("-inf + inf in fsum".into()));
        assert_eq!(sum(&[]), Ok(0.0));
    }
}
