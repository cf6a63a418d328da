//! The number built-ins beyond arithmetic operators: `pow`, `divmod`, `hex`, `oct` and `bin`,
//! with CPython 3.11's results and messages (ints are 64-bit here, see `value_ops`).

use super::Slot;
use super::ast::BinOp;
use super::value_ops::{Num, binary, num, type_error, value_error, vname};
use crate::{AnyView, Error, ErrorKind, Result, Tuple, Value};

/// `pow(base, exp)` is `base ** exp`; `pow(base, exp, mod)` is modular exponentiation of ints,
/// a negative exponent taking the inverse of `base` modulo `mod`, as in CPython 3.8 and later.
pub fn pow(args: &[AnyView<'_>]) -> Result<Slot> {
    let [base, exp, rest @ ..] = args else { unreachable!("arity checked: 2 or 3 arguments") };
    let modulus = rest.first().map(|m| m.value()).filter(|m| !matches!(m, Value::None));
    let Some(m) = modulus else { return binary(BinOp::Pow, *base, *exp) };
    let (b, e) = (base.value(), exp.value());
    let unsupported = || {
        let names = [b, e, m].map(|v| format!("'{}'", vname(v))).join(", ");
        type_error(format!("unsupported operand type(s) for ** or pow(): {names}"))
    };
    // A float among the operands, wherever it is: CPython tries its `__pow__`, which refuses any
    // third argument, before it gives up on the others.
    if [b, e, m].iter().any(|v| matches!(v, Value::Float(_))) {
        return Err(type_error("pow() 3rd argument not allowed unless all arguments are integers"));
    }
    match (num(b), num(e), num(m)) {
        (Some(Num::Int(b)), Some(Num::Int(e)), Some(Num::Int(m))) => pow_mod(b, e, m).map(Slot::from_int),
        _ => Err(unsupported()),
    }
}

/// `b ** e % m` with Python's sign rule (the result has the sign of `m`).
fn pow_mod(b: i64, e: i64, m: i64) -> Result<i64> {
    if m == 0 {
        return Err(value_error("pow() 3rd argument cannot be 0"));
    }
    let n = i128::from(m).abs();
    let mut base = i128::from(b).rem_euclid(n);
    if e < 0 {
        base = inverse(base, n).ok_or_else(|| value_error("base is not invertible for the given modulus"))?;
    }
    let (mut result, mut e) = (1 % n, e.unsigned_abs());
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % n;
        }
        base = base * base % n;
        e >>= 1;
    }
    if m < 0 && result != 0 {
        result -= n;
    }
    Ok(i64::try_from(result).expect("|result| < |m| fits in i64"))
}

/// The inverse of `a` modulo `n` (`0 <= a < n`), if `a` and `n` are coprime.
fn inverse(a: i128, n: i128) -> Option<i128> {
    let (mut r0, mut r1, mut s0, mut s1) = (n, a, 0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    (r0 == 1).then(|| s0.rem_euclid(n))
}

/// `divmod(a, b)`: the tuple `(a // b, a % b)`.
pub fn divmod(a: AnyView<'_>, b: AnyView<'_>) -> Result<Slot> {
    let (x, y) = (a.value(), b.value());
    match (num(x), num(y)) {
        (Some(Num::Int(_)), Some(Num::Int(0))) => {
            Err(Error::new(ErrorKind::ZeroDivision, "integer division or modulo by zero"))
        }
        (Some(_), Some(Num::Int(0) | Num::Float(0.0))) => Err(Error::new(ErrorKind::ZeroDivision, "float divmod()")),
        (Some(_), Some(_)) => {
            let quotient = binary(BinOp::FloorDiv, a, b)?.resize();
            let remainder = binary(BinOp::Mod, a, b)?.resize();
            Ok(Tuple::from_vec(vec![quotient, remainder]).into())
        }
        _ => Err(type_error(format!("unsupported operand type(s) for divmod(): '{}' and '{}'", vname(x), vname(y)))),
    }
}

/// `hex(x)`, `oct(x)` and `bin(x)` of an int: its digits in `radix` after the prefix `0x`,
/// `0o` or `0b`, a minus sign first when it is negative.
pub fn int_digits(x: AnyView<'_>, radix: u32) -> Result<Slot> {
    let v = x.value();
    let Some(Num::Int(i)) = num(v) else {
        return Err(type_error(format!("'{}' object cannot be interpreted as an integer", vname(v))));
    };
    let sign = if i < 0 { "-" } else { "" };
    let n = i.unsigned_abs();
    Ok(Slot::from_text(&match radix {
        16 => format!("{sign}0x{n:x}"),
        8 => format!("{sign}0o{n:o}"),
        _ => format!("{sign}0b{n:b}"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pow_mod_matches_python() {
        // Values from CPython 3.11.
        assert_eq!(pow_mod(2, 10, 1000).unwrap(), 24);
        assert_eq!(pow_mod(2, 3, -5).unwrap(), -2);
        assert_eq!(pow_mod(-2, 3, 5).unwrap(), 2);
        assert_eq!(pow_mod(3, -1, 7).unwrap(), 5);
        assert_eq!(pow_mod(3, -2, -7).unwrap(), -3);
        assert_eq!(pow_mod(5, 0, 1).unwrap(), 0);
        assert_eq!(pow_mod(7, 123456789, i64::MAX).unwrap(), 2804842151840238517);
        assert_eq!(pow_mod(2, 5, i64::MIN).unwrap(), -9223372036854775776);
        assert_eq!(pow_mod(2, -1, 4).unwrap_err().message(), "base is not invertible for the given modulus");
        assert_eq!(pow_mod(2, 1, 0).unwrap_err().message(), "pow() 3rd argument cannot be 0");
    }
}
