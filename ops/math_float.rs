//! More float functions of Python's `math` module: trigonometry (`sin`, `cos`, `tan`, `asin`,
//! `acos`, `atan`, `atan2`), hyperbolic `sinh`/`cosh`/`tanh`, `expm1`, `log1p`, `exp2`, `pow`, `fmod`, `copysign`, `degrees`, `radians` and `isclose`, with CPython 3.11's results
//! and errors (positional encodings, scores and smoothing in preprocessing code).
//!
//! Rationale: each calls the platform's C library as CPython does (Rust's `f64` methods used
//! here lower to it), so results agree to the last bit. `asinh`, `acosh`, `atanh` and `cbrt` are
//! left out: Rust's do not reach the C library's (`cbrt` differed from CPython's in the last bit
//! on half of the values tried), and a result that differs in the last bit is not CPython's.

use super::math::{domain_error, float_fn, real};
use crate::error::{Error, ErrorKind, Result};
use crate::func::{OpEntry, Registry};
use crate::pipeline::methods::arity_error;
use crate::{AnyValue, AnyView, PackedFunc};

/// The two arguments CPython's two-argument functions insist on.
fn two(name: &str, args: &[AnyView<'_>]) -> Result<(f64, f64)> {
    match args {
        [x, y] => Ok((real(x)?, real(y)?)),
        _ => Err(arity_error(&format!("math.{name}"), name, (2, 2), args.len())),
    }
}

fn range_error() -> Error {
    Error::new(ErrorKind::Overflow, "math range error")
}

/// `math.pow(x, y)`: CPython's special cases for infinities and NaNs first, then the C
/// library's `pow`, whose NaN is a domain error and whose infinity is one for `0 ** -y` and an
/// overflow otherwise.
fn pow(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (x, y) = two("pow", args)?;
    let r = if !x.is_finite() || !y.is_finite() {
        if x.is_nan() {
            if y == 0.0 { 1.0 } else { x }
        } else if y.is_nan() {
            if x == 1.0 { 1.0 } else { y }
        } else if x.is_infinite() {
            let odd_y = y.is_finite() && (y.abs() % 2.0) == 1.0;
            match y {
                y if y > 0.0 => {
                    if odd_y {
                        x
                    } else {
                        x.abs()
                    }
                }
                0.0 => 1.0,
                _ => {
                    if odd_y {
                        0.0f64.copysign(x)
                    } else {
                        0.0
                    }
                }
            }
        } else if x.abs() == 1.0 {
            1.0
        } else if (y > 0.0 && x.abs() > 1.0) || (y < 0.0 && x.abs() < 1.0) {
            f64::INFINITY
        } else {
            0.0
        }
    } else {
        let r = x.powf(y);
        if r.is_nan() || (r.is_infinite() && x == 0.0) {
            return Err(domain_error());
        }
        if r.is_infinite() {
            return Err(range_error());
        }
        r
    };
    Ok(AnyValue::from_float(r))
}

/// `math.fmod(x, y)`: `x` itself for an infinite `y`; a NaN from numbers is a domain error.
fn fmod(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (x, y) = two("fmod", args)?;
    if y.is_infinite() && x.is_finite() {
        return Ok(AnyValue::from_float(x));
    }
    let r = x % y;
    if r.is_nan() && !x.is_nan() && !y.is_nan() {
        return Err(domain_error());
    }
    Ok(AnyValue::from_float(r))
}

/// `math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)` (the tolerances third and fourth here).
fn isclose(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (a, b) = match args {
        [a, b, ..] if args.len() <= 4 => (real(a)?, real(b)?),
        [_] => return Err(crate::pipeline::value_ops::type_error("isclose() missing required argument 'b' (pos 2)")),
        [] => return Err(crate::pipeline::value_ops::type_error("isclose() missing required argument 'a' (pos 1)")),
        _ => {
            return Err(crate::pipeline::value_ops::type_error(format!(
                "isclose() takes at most 4 arguments ({} given)",
                args.len()
            )));
        }
    };
    let rel_tol = args.get(2).map_or(Ok(1e-9), real)?;
    let abs_tol = args.get(3).map_or(Ok(0.0), real)?;
    if rel_tol < 0.0 || abs_tol < 0.0 {
        return Err(Error::value("tolerances must be non-negative"));
    }
    if a == b {
        return Ok(AnyValue::from_bool(true));
    }
    if a.is_infinite() || b.is_infinite() {
        return Ok(AnyValue::from_bool(false));
    }
    let diff = (b - a).abs();
    Ok(AnyValue::from_bool(diff <= (rel_tol * b).abs() || diff <= (rel_tol * a).abs() || diff <= abs_tol))
}

/// Registers the float functions above.
pub fn register(reg: &Registry) -> Result<()> {
    // CPython's `FUNC1` table: the function and whether an infinite result from a finite
    // argument is an overflow (else a domain error).
    /// A C library function, whether its infinity from a finite argument is an overflow, and
    /// its doc.
    type OneArgument = (&'static str, fn(f64) -> f64, bool, &'static str);
    let one_argument: [OneArgument; 12] = [
        ("sin", f64::sin, false, "The sine of x (radians)"),
        ("cos", f64::cos, false, "The cosine of x (radians)"),
        ("tan", f64::tan, false, "The tangent of x (radians)"),
        ("asin", f64::asin, false, "The arc sine of x, in radians"),
        ("acos", f64::acos, false, "The arc cosine of x, in radians"),
        ("atan", f64::atan, false, "The arc tangent of x, in radians"),
        ("sinh", f64::sinh, true, "The hyperbolic sine of x"),
        ("cosh", f64::cosh, true, "The hyperbolic cosine of x"),
        ("tanh", f64::tanh, false, "The hyperbolic tangent of x"),
        ("expm1", f64::exp_m1, true, "e ** x - 1, exact for small x"),
        ("log1p", f64::ln_1p, false, "The natural logarithm of 1 + x, exact for small x"),
        ("exp2", f64::exp2, true, "2 ** x"),
    ];
    for (name, f, can_overflow, doc) in one_argument {
        let op = PackedFunc::new(move |args| float_fn(name, args, f, can_overflow));
        reg.register(&format!("math.{name}"), "(x) -> float", &format!("{doc}, as Python's math.{name}."), op, false)?;
    }
    let ops: &[OpEntry] = &[
        (
            "math.atan2",
            "(y, x) -> float",
            "The arc tangent of y / x in the quadrant of (x, y), as Python's math.atan2.",
            |a| {
                let (y, x) = two("atan2", a)?;
                Ok(AnyValue::from_float(y.atan2(x)))
            },
        ),
        ("math.pow", "(x, y) -> float", "x ** y as floats, as Python's math.pow.", pow),
        ("math.fmod", "(x, y) -> float", "The remainder of x / y with the sign of x, as Python's math.fmod.", fmod),
        ("math.copysign", "(x, y) -> float", "x with the sign of y, as Python's math.copysign.", |a| {
            let (x, y) = two("copysign", a)?;
            Ok(AnyValue::from_float(x.copysign(y)))
        }),
        ("math.degrees", "(x) -> float", "Radians x in degrees, as Python's math.degrees.", |a| {
            // CPython multiplies by 180 / pi computed in doubles, not by the rounded exact ratio.
            let x = real(super::math::one("degrees", a)?)?;
            Ok(AnyValue::from_float(x * (180.0 / std::f64::consts::PI)))
        }),
        ("math.radians", "(x) -> float", "Degrees x in radians, as Python's math.radians.", |a| {
            let x = real(super::math::one("radians", a)?)?;
            Ok(AnyValue::from_float(x * (std::f64::consts::PI / 180.0)))
        }),
        (
            "math.isclose",
            "(a, b, rel_tol=1e-09, abs_tol=0.0) -> bool",
            "Whether a and b are within rel_tol of the larger or abs_tol, as Python's math.isclose.",
            isclose,
        ),
        (
            "math.fsum",
            "(iterable) -> float",
            "The correctly rounded sum of the items, as Python's math.fsum.",
            super::math_fsum::fsum,
        ),
    ];
    reg.register_ops(ops)
}
