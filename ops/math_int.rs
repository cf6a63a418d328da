//! The integer functions of Python's `math` module (`factorial`, `comb`, `perm`, `isqrt`,
//! `lcm`) and `prod`, with CPython 3.11's results and errors; a result past 64 bits is an
//! OverflowError (anyscript's ints are 64-bit) instead of a big int.

use crate::error::{Error, ErrorKind, Result};
use crate::func::{OpEntry, Registry};
use crate::pipeline::ast::BinOp;
use crate::pipeline::iterate::LoopState;
use crate::pipeline::methods::arity_error;
use crate::pipeline::value_ops::{binary, index_arg, type_error};
use crate::{AnyValue, AnyView};

fn too_large() -> Error {
    Error::new(ErrorKind::Overflow, "int too large for a 64-bit int in anyscript")
}

/// A result that must fit anyscript's 64-bit int.
fn int_result(r: Option<u128>) -> Result<AnyValue> {
    r.and_then(|r| i64::try_from(r).ok()).map(AnyValue::from_int).ok_or_else(too_large)
}

/// `n!` as a u128, or None past it.
fn factorial_of(n: u64) -> Option<u128> {
    (1..=u128::from(n)).try_fold(1u128, |acc, i| acc.checked_mul(i))
}

/// `math.factorial(n)`.
fn factorial(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let n = index_arg(super::math::one("factorial", args)?)?;
    let n = u64::try_from(n).map_err(|_| Error::value("factorial() not defined for negative values"))?;
    int_result(factorial_of(n))
}

/// The two int arguments of `comb` and `perm`, each non-negative, with CPython's messages.
fn n_and_k(name: &str, args: &[AnyView<'_>]) -> Result<(u64, Option<u64>)> {
    let (n, k) = match args {
        [n, k] => (n, Some(k)),
        [n] if name == "perm" => (n, None),
        _ => {
            let min = if name == "perm" { 1 } else { 2 };
            return Err(arity_error(&format!("math.{name}"), name, (min, 2), args.len()));
        }
    };
    let n = index_arg(n)?;
    // `perm(n, None)` is `perm(n)`.
    let k = k.filter(|k| !(name == "perm" && k.is_none())).map(index_arg).transpose()?;
    let Some(k) = k else {
        let n = u64::try_from(n).map_err(|_| Error::value("factorial() not defined for negative values"))?;
        return Ok((n, None));
    };
    let n = u64::try_from(n).map_err(|_| Error::value("n must be a non-negative integer"))?;
    let k = u64::try_from(k).map_err(|_| Error::value("k must be a non-negative integer"))?;
    Ok((n, Some(k)))
}

/// `math.comb(n, k)`: 0 for k > n.
fn comb(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (n, k) = n_and_k("comb", args)?;
    let Some(k) = k else { return Err(type_error("comb expected 2 arguments, got 1")) };
    if k > n {
        return Ok(AnyValue::from_int(0));
    }
    let k = k.min(n - k);
    // comb(n - k + i, i) at step i: exact at each division, and never above the result.
    let r = (1..=u128::from(k)).try_fold(1u128, |acc, i| Some(acc.checked_mul(u128::from(n - k) + i)? / i));
    int_result(r)
}

/// `math.perm(n, k=None)`: `n! / (n - k)!`, 0 for k > n.
fn perm(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (n, k) = n_and_k("perm", args)?;
    let Some(k) = k else { return int_result(factorial_of(n)) };
    if k > n {
        return Ok(AnyValue::from_int(0));
    }
    int_result((n - k + 1..=n).try_fold(1u128, |acc, i| acc.checked_mul(u128::from(i))))
}

/// `math.isqrt(n)`: the largest int whose square is at most n.
fn isqrt(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let n = index_arg(super::math::one("isqrt", args)?)?;
    let n = u64::try_from(n).map_err(|_| Error::value("isqrt() argument must be nonnegative"))?;
    // The float root is within one of the answer for every 64-bit n; correct it exactly.
    let mut r = (n as f64).sqrt() as u64;
    while u128::from(r) * u128::from(r) > u128::from(n) {
        r -= 1;
    }
    while u128::from(r + 1) * u128::from(r + 1) <= u128::from(n) {
        r += 1;
    }
    Ok(AnyValue::from_int(r as i64))
}

/// `math.lcm(*ints)`: of the absolute values; 1 for none, 0 if any is 0.
fn lcm(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let mut acc: u128 = 1;
    for a in args {
        let x = u128::from(index_arg(a)?.unsigned_abs());
        if acc == 0 || x == 0 {
            acc = 0;
            continue;
        }
        let (mut p, mut q) = (acc, x);
        while q != 0 {
            (p, q) = (q, p % q);
        }
        acc = (acc / p).checked_mul(x).filter(|&r| r <= i64::MAX as u128).ok_or_else(too_large)?;
    }
    int_result(Some(acc))
}

/// `math.prod(iterable, *, start=1)` (start second here): `start * item * ...`, multiplied as
/// `*` multiplies.
fn prod(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(iterable) = args.first() else {
        return Err(type_error("prod() takes exactly 1 positional argument (0 given)"));
    };
    if args.len() > 2 {
        return Err(type_error(format!("prod() takes at most 2 arguments ({} given)", args.len())));
    }
    let mut total: AnyValue = args.get(1).map_or_else(|| AnyValue::from_int(1), |s| s.to_owned());
    let mut items = LoopState::start(*iterable)?;
    while let Some(item) = items.next_checked()? {
        total = binary(BinOp::Mul, total.view(), item.view())?.resize();
    }
    Ok(total)
}

/// Registers the integer functions above and `prod`.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        ("math.factorial", "(n) -> int", "n!, as Python's math.factorial.", factorial),
        ("math.comb", "(n, k) -> int", "The number of ways to choose k of n items, as Python's math.comb.", comb),
        (
            "math.perm",
            "(n, k=None) -> int",
            "The number of ordered choices of k of n items, as Python's math.perm.",
            perm,
        ),
        ("math.isqrt", "(n) -> int", "The integer square root, as Python's math.isqrt.", isqrt),
        ("math.lcm", "(*ints) -> int", "The least common multiple, as Python's math.lcm.", lcm),
        (
            "math.prod",
            "(iterable, start=1) -> value",
            "The product of start and the items, as Python's math.prod.",
            prod,
        ),
    ];
    reg.register_ops(ops)
}
