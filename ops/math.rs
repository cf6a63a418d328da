//! `math.*`: the functions of Python's `math` module that preprocessing code reaches for
//! (`floor`, `ceil`, `trunc`, `sqrt`, `exp`, `log`, `log2`, `log10`, `fabs`, `isnan`, `isinf`,
//! `isfinite`, `gcd`), with CPython 3.11's results and errors; `math_float.rs` and
//! `math_int.rs` hold the rest. A script calls them as `math.log(x)`; `anyproc.script` maps
//! Python's `math.log` to the op.
//!
//! The float functions call the platform's C library, as CPython's do, so results agree to the
//! last bit; `floor`/`ceil`/`trunc` return ints (64-bit here: beyond that an OverflowError).

use crate::error::{Error, ErrorKind, Result};
use crate::func::{OpEntry, Registry};
use crate::{AnyValue, AnyView, Value};

/// The name CPython gives a value's type in these functions' errors.
fn type_name(v: Value<'_>) -> String {
    crate::pipeline::value_ops::vname(v).into_owned()
}

/// An int, bool or float argument as a float (CPython's "must be real number").
pub(crate) fn real(v: &AnyView<'_>) -> Result<f64> {
    v.value()
        .as_float()
        .ok_or_else(|| Error::new(ErrorKind::Type, format!("must be real number, not {}", type_name(v.value()))))
}

/// The argument count CPython's `METH_O` functions insist on.
pub(crate) fn one<'a, 'b>(name: &str, args: &'a [AnyView<'b>]) -> Result<&'a AnyView<'b>> {
    match args {
        [x] => Ok(x),
        _ => Err(crate::pipeline::methods::arity_error(&format!("math.{name}"), name, (1, 1), args.len())),
    }
}

pub(crate) fn domain_error() -> Error {
    Error::value("math domain error")
}

/// `floor`, `ceil`, `trunc`: an int stays itself; a float rounds, with CPython's errors for an
/// infinity or a NaN.
fn to_int(name: &str, args: &[AnyView<'_>], round: fn(f64) -> f64) -> Result<AnyValue> {
    let x = one(name, args)?;
    if let Some(i) = x.value().as_int() {
        return Ok(AnyValue::from_int(i));
    }
    let f = real(x)?;
    if f.is_nan() {
        return Err(Error::value("cannot convert float NaN to integer"));
    }
    if f.is_infinite() {
        return Err(Error::new(ErrorKind::Overflow, "cannot convert float infinity to integer"));
    }
    let r = round(f);
    // i64 holds [-2**63, 2**63); Python's int would hold any.
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&r) {
        return Err(Error::new(ErrorKind::Overflow, "int too large for a 64-bit int in anyscript"));
    }
    Ok(AnyValue::from_int(r as i64))
}

/// `math.trunc(x)`: CPython asks the value's `__trunc__`, so its error for a non-number differs.
fn trunc(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let x = one("trunc", args)?;
    if x.value().as_float().is_none() {
        let name = type_name(x.value());
        return Err(Error::new(ErrorKind::Type, format!("type {name} doesn't define __trunc__ method")));
    }
    to_int("trunc", args, f64::trunc)
}

/// A one-argument float function (`math_1`): a finite argument giving an infinity is CPython's
/// "math range error", a NaN from a non-NaN its "math domain error".
pub(crate) fn float_fn(name: &str, args: &[AnyView<'_>], f: fn(f64) -> f64, can_overflow: bool) -> Result<AnyValue> {
    let x = real(one(name, args)?)?;
    let r = f(x);
    if r.is_nan() && !x.is_nan() {
        return Err(domain_error());
    }
    if r.is_infinite() && x.is_finite() {
        return Err(if can_overflow { Error::new(ErrorKind::Overflow, "math range error") } else { domain_error() });
    }
    Ok(AnyValue::from_float(r))
}

/// CPython's `m_log`-style helper: the log of a positive number, "math domain error" otherwise
/// (an infinity and a NaN go through).
fn log_of(x: f64, log: fn(f64) -> f64) -> Result<f64> {
    if x.is_nan() || x == f64::INFINITY {
        return Ok(x);
    }
    if x <= 0.0 {
        return Err(domain_error());
    }
    Ok(log(x))
}

/// `math.log(x[, base])`.
fn log(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (x, base) = match args {
        [x] => (x, None),
        [x, b] => (x, Some(b)),
        _ => return Err(Error::new(ErrorKind::Type, "math.log requires 1 to 2 arguments")),
    };
    let num = log_of(real(x)?, f64::ln)?;
    let Some(base) = base else { return Ok(AnyValue::from_float(num)) };
    let den = log_of(real(base)?, f64::ln)?;
    if den == 0.0 {
        return Err(Error::new(ErrorKind::ZeroDivision, "float division by zero"));
    }
    Ok(AnyValue::from_float(num / den))
}

/// `math.gcd(*ints)`: of the absolute values; 0 for none.
fn gcd(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let mut acc: u64 = 0;
    for a in args {
        let Some(i) = a.value().as_int() else {
            return Err(Error::new(
                ErrorKind::Type,
                format!("'{}' object cannot be interpreted as an integer", type_name(a.value())),
            ));
        };
        let (mut x, mut y) = (acc, i.unsigned_abs());
        while y != 0 {
            (x, y) = (y, x % y);
        }
        acc = x;
    }
    i64::try_from(acc).map(AnyValue::from_int).map_err(|_| Error::new(ErrorKind::Overflow, "gcd beyond a 64-bit int"))
}

/// Registers `math.*`.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        ("math.floor", "(x) -> int", "The largest int <= x, as Python's math.floor.", |a| {
            to_int("floor", a, f64::floor)
        }),
        ("math.ceil", "(x) -> int", "The smallest int >= x, as Python's math.ceil.", |a| to_int("ceil", a, f64::ceil)),
        ("math.trunc", "(x) -> int", "x rounded toward zero, as Python's math.trunc.", trunc),
        ("math.sqrt", "(x) -> float", "The square root, as Python's math.sqrt.", |a| {
            float_fn("sqrt", a, f64::sqrt, false)
        }),
        ("math.exp", "(x) -> float", "e ** x, as Python's math.exp.", |a| float_fn("exp", a, f64::exp, true)),
        ("math.log", "(x, base=e) -> float", "The logarithm, as Python's math.log.", log),
        ("math.log2", "(x) -> float", "The base-2 logarithm, as Python's math.log2.", |a| {
            Ok(AnyValue::from_float(log_of(real(one("log2", a)?)?, f64::log2)?))
        }),
        ("math.log10", "(x) -> float", "The base-10 logarithm, as Python's math.log10.", |a| {
            Ok(AnyValue::from_float(log_of(real(one("log10", a)?)?, f64::log10)?))
        }),
        ("math.fabs", "(x) -> float", "The absolute value as a float, as Python's math.fabs.", |a| {
            Ok(AnyValue::from_float(real(one("fabs", a)?)?.abs()))
        }),
        ("math.isnan", "(x) -> bool", "Whether x is a NaN.", |a| {
            Ok(AnyValue::from_bool(real(one("isnan", a)?)?.is_nan()))
        }),
        ("math.isinf", "(x) -> bool", "Whether x is an infinity.", |a| {
            Ok(AnyValue::from_bool(real(one("isinf", a)?)?.is_infinite()))
        }),
        ("math.isfinite", "(x) -> bool", "Whether x is neither an infinity nor a NaN.", |a| {
            Ok(AnyValue::from_bool(real(one("isfinite", a)?)?.is_finite()))
        }),
        ("math.gcd", "(*ints) -> int", "The greatest common divisor, as Python's math.gcd.", gcd),
    ];
    reg.register_ops(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[AnyValue]) -> std::result::Result<String, String> {
        let f = crate::func::get_global_func(name).unwrap();
        let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
        f.call(&views).map(|v| v.to_string()).map_err(|e| e.message().to_string())
    }

    // Expected values: what CPython 3.11 prints for the same calls.
    #[test]
    fn results_and_errors_are_cpython_s() {
        let (i, f) = (AnyValue::from_int, AnyValue::from_float);
        assert_eq!(call("math.floor", &[f(-2.5)]).unwrap(), "-3");
        assert_eq!(call("math.ceil", &[f(2.1)]).unwrap(), "3");
        assert_eq!(call("math.trunc", &[f(-2.9)]).unwrap(), "-2");
        assert_eq!(call("math.floor", &[f(f64::NAN)]).unwrap_err(), "cannot convert float NaN to integer");
        assert_eq!(call("math.ceil", &[f(f64::INFINITY)]).unwrap_err(), "cannot convert float infinity to integer");
        assert_eq!(call("math.sqrt", &[i(2)]).unwrap(), "1.4142135623730951");
        assert_eq!(call("math.sqrt", &[f(-1.0)]).unwrap_err(), "math domain error");
        assert_eq!(call("math.exp", &[i(1000)]).unwrap_err(), "math range error");
        assert_eq!(call("math.log", &[i(8), i(2)]).unwrap(), "3.0");
        assert_eq!(call("math.log", &[f(10.0)]).unwrap(), "2.302585092994046");
        assert_eq!(call("math.log", &[i(0)]).unwrap_err(), "math domain error");
        assert_eq!(call("math.log", &[i(2), i(1)]).unwrap_err(), "float division by zero");
        assert_eq!(call("math.log10", &[i(1000)]).unwrap(), "3.0");
        assert_eq!(call("math.gcd", &[i(12), i(-18), i(0)]).unwrap(), "6");
        assert_eq!(call("math.gcd", &[f(1.5)]).unwrap_err(), "'float' object cannot be interpreted as an integer");
        assert_eq!(call("math.sqrt", &[AnyValue::from_text("a")]).unwrap_err(), "must be real number, not str");
        assert_eq!(call("math.sqrt", &[]).unwrap_err(), "math.sqrt() takes exactly one argument (0 given)");
    }
}
