//! Truthiness, unary operators and arithmetic on numbers, with CPython's results and errors.

use super::accessors::{Text, seq_obj, text_slot};
use super::sequences::seq_binary;
use super::{overflow, type_error, value_error, vname};
use crate::any::type_index as ti;
use crate::container::{DictObj, SetObj};
use crate::pipeline::Slot;
use crate::pipeline::ast::{BinOp, UnaryOp};
use crate::{AnyView, Error, ErrorKind, Result, Value};

/// Python truthiness: None, False, 0, 0.0, "", b"", [] and {} are false; everything else is true.
pub fn truthy(v: AnyView<'_>) -> bool {
    match v.value() {
        Value::None => false,
        Value::Bool(b) => b,
        Value::Int(i) => i != 0,
        Value::Float(f) => f != 0.0,
        Value::Str(s) => !s.is_empty(),
        Value::UStr(u) => !u.is_empty(),
        Value::Bytes(b) => !b.is_empty(),
        Value::Pod(..) => true,
        x @ Value::Object(o) => match o.type_index() {
            ti::LIST | ti::TUPLE => seq_obj(x).is_some_and(|l| !l.is_empty()),
            ti::DICT => o.downcast_ref::<DictObj>().is_some_and(|d| !d.is_empty()),
            ti::SET => o.downcast_ref::<SetObj>().is_some_and(|s| !s.is_empty()),
            _ if let Some(shown) = crate::pipeline::dict_view_ops::view_of(x) => !shown.is_empty(),
            _ if let Some(b) = crate::pipeline::bytearray_ops::byte_array_of(x) => !b.is_empty(),
            _ => crate::pipeline::deque_ops::deque_of(x).is_none_or(|d| !d.is_empty()),
        },
    }
}

/// `not v`, `-v`, `+v`, `~v` (bools act as ints: `-True == -1`, `~True == -2`).
pub fn unary(op: UnaryOp, v: AnyView<'_>) -> Result<Slot> {
    let x = v.value();
    let sym = match op {
        UnaryOp::Not => return Ok(Slot::from_bool(!truthy(v))),
        UnaryOp::Neg => "-",
        UnaryOp::Pos => "+",
        UnaryOp::Invert => "~",
    };
    match (op, x) {
        (UnaryOp::Neg, Value::Float(f)) => Ok(Slot::from_float(-f)),
        (UnaryOp::Pos, Value::Float(f)) => Ok(Slot::from_float(f)),
        (_, Value::Int(_) | Value::Bool(_)) => {
            let i = x.as_int().unwrap_or_default();
            match op {
                UnaryOp::Neg => i.checked_neg().map(Slot::from_int).ok_or_else(|| overflow("unary -")),
                UnaryOp::Invert => Ok(Slot::from_int(!i)),
                _ => Ok(Slot::from_int(i)),
            }
        }
        _ => crate::pipeline::counter::counter_unary(op, x)
            .unwrap_or_else(|| Err(type_error(format!("bad operand type for unary {sym}: '{}'", vname(x))))),
    }
}

// ---------------------------------------------------------------- numbers

#[derive(Clone, Copy, Debug)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
}

pub(crate) fn num(v: Value<'_>) -> Option<Num> {
    match v {
        Value::Int(i) => Some(Num::Int(i)),
        Value::Bool(b) => Some(Num::Int(b as i64)),
        Value::Float(f) => Some(Num::Float(f)),
        _ => None,
    }
}

impl Num {
    fn to_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// Python's `ZeroDivisionError`.
fn zero_div(msg: &str) -> Error {
    Error::new(ErrorKind::ZeroDivision, msg)
}

/// `a op b`: numbers with Python's rules (`//` and `%` floor, `/` always float, `**` with a
/// negative int exponent gives a float), str/list/bytes concatenation and repetition, dict `|`.
pub fn binary(op: BinOp, a: AnyView<'_>, b: AnyView<'_>) -> Result<Slot> {
    let (x, y) = (a.value(), b.value());
    match (num(x), num(y)) {
        (Some(p), Some(q)) => {
            if let (Value::Bool(p), Value::Bool(q)) = (x, y) {
                // bool & | ^ bool stays a bool, as in Python.
                match op {
                    BinOp::BitAnd => return Ok(Slot::from_bool(p & q)),
                    BinOp::BitOr => return Ok(Slot::from_bool(p | q)),
                    BinOp::BitXor => return Ok(Slot::from_bool(p ^ q)),
                    _ => {}
                }
            }
            match (p, q) {
                (Num::Int(i), Num::Int(j)) => int_binary(op, i, j),
                _ if is_bitwise(op) => Err(unsupported(op, x, y)),
                _ => float_binary(op, p.to_f64(), q.to_f64()).map(Slot::from_float),
            }
        }
        // printf-style formatting: `"%d items" % n`.
        (None, _) if op == BinOp::Mod && Text::of(x).is_some() => {
            let fmt = Text::of(x).expect("checked in the guard");
            Ok(text_slot(&crate::pipeline::format::percent_format(fmt, b)?, fmt.is_ucs4()))
        }
        _ => match crate::pipeline::counter::counter_binary(op, x, y) {
            Some(result) => result,
            None => match crate::pipeline::deque_ops::binary(op, x, y) {
                Some(result) => result,
                None if let Some(result) = crate::pipeline::bytearray_ops::binary(op, x, y) => result,
                None => match crate::pipeline::dict_view_ops::binary(op, x, y) {
                    Some(result) => result,
                    None => seq_binary(op, x, y),
                },
            },
        },
    }
}

fn is_bitwise(op: BinOp) -> bool {
    matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::LShift | BinOp::RShift)
}

pub(super) fn unsupported(op: BinOp, x: Value<'_>, y: Value<'_>) -> Error {
    // CPython names `**` by both its spellings.
    let name = if op == BinOp::Pow { "** or pow()" } else { op.symbol() };
    type_error(format!("unsupported operand type(s) for {name}: '{}' and '{}'", vname(x), vname(y)))
}

/// The error of `binary(op, x, y)` as the augmented assignment `x op= y`'s: CPython names the
/// operator `-=` (and `**=`, not `** or pow()`) there, and repeats only a sequence on the left.
#[cold]
pub(crate) fn in_place_error(op: BinOp, e: Error, x: Value<'_>, y: Value<'_>) -> Error {
    let sequence = |v: Value<'_>| matches!(v, Value::Str(_) | Value::UStr(_) | Value::Bytes(_)) || seq_obj(v).is_some();
    if op == BinOp::Mul && e.message().starts_with("can't multiply sequence") && !sequence(x) {
        return type_error(format!("unsupported operand type(s) for *=: '{}' and '{}'", vname(x), vname(y)));
    }
    let name = if op == BinOp::Pow { "** or pow()" } else { op.symbol() };
    match e.message().strip_prefix(&format!("unsupported operand type(s) for {name}:")) {
        Some(rest) if e.kind() == ErrorKind::Type => {
            type_error(format!("unsupported operand type(s) for {}=:{rest}", op.symbol()))
        }
        _ => e,
    }
}

fn int_binary(op: BinOp, a: i64, b: i64) -> Result<Slot> {
    use crate::pipeline::true_div::int_true_div;
    let r = match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => {
            if b == 0 {
                return Err(zero_div("division by zero"));
            }
            // CPython rounds the exact quotient once, also beyond 2**53.
            return Ok(Slot::from_float(int_true_div(a, b)));
        }
        BinOp::FloorDiv => {
            if b == 0 {
                return Err(zero_div("integer division or modulo by zero"));
            }
            a.checked_div(b).map(|q| if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q })
        }
        BinOp::Mod => {
            if b == 0 {
                return Err(zero_div("integer modulo by zero"));
            }
            let r = a.wrapping_rem(b);
            Some(if r != 0 && ((r < 0) != (b < 0)) { r + b } else { r })
        }
        BinOp::Pow if b < 0 => return float_pow(a as f64, b as f64).map(Slot::from_float),
        BinOp::Pow => match a {
            0 => Some((b == 0) as i64),
            1 => Some(1),
            -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
            _ => u32::try_from(b).ok().and_then(|e| a.checked_pow(e)),
        },
        BinOp::BitAnd => Some(a & b),
        BinOp::BitOr => Some(a | b),
        BinOp::BitXor => Some(a ^ b),
        BinOp::LShift | BinOp::RShift if b < 0 => return Err(value_error("negative shift count")),
        BinOp::LShift => match a {
            0 => Some(0),
            _ if b >= 64 => None,
            _ => Some(a << b).filter(|r| r >> b == a),
        },
        BinOp::RShift => Some(if b >= 64 { if a < 0 { -1 } else { 0 } } else { a >> b }),
    };
    r.map(Slot::from_int).ok_or_else(|| overflow(op.symbol()))
}

fn float_binary(op: BinOp, a: f64, b: f64) -> Result<f64> {
    Ok(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div if b == 0.0 => return Err(zero_div("float division by zero")),
        BinOp::Div => a / b,
        BinOp::FloorDiv if b == 0.0 => return Err(zero_div("float floor division by zero")),
        BinOp::FloorDiv => float_divmod(a, b).0,
        BinOp::Mod if b == 0.0 => return Err(zero_div("float modulo")),
        BinOp::Mod => float_divmod(a, b).1,
        BinOp::Pow => return float_pow(a, b),
        _ => unreachable!("bitwise operators are rejected before"),
    })
}

/// CPython's `float_divmod` (floor quotient and remainder with the divisor's sign); `w != 0`.
fn float_divmod(v: f64, w: f64) -> (f64, f64) {
    let mut m = v % w;
    let mut div = (v - m) / w;
    if m != 0.0 {
        if (w < 0.0) != (m < 0.0) {
            m += w;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(w);
    }
    let floordiv = if div != 0.0 {
        let f = div.floor();
        if div - f > 0.5 { f + 1.0 } else { f }
    } else {
        0.0f64.copysign(v / w)
    };
    (floordiv, m)
}

/// CPython's `float_pow`, special cases included.
fn float_pow(v: f64, w: f64) -> Result<f64> {
    let odd = |x: f64| (x.abs() % 2.0) == 1.0;
    if w == 0.0 {
        return Ok(1.0);
    }
    if v.is_nan() {
        return Ok(v);
    }
    if w.is_nan() {
        return Ok(if v == 1.0 { 1.0 } else { w });
    }
    if w.is_infinite() {
        let v = v.abs();
        return Ok(if v == 1.0 {
            1.0
        } else if (w > 0.0) == (v > 1.0) {
            w.abs()
        } else {
            0.0
        });
    }
    if v.is_infinite() {
        return Ok(match (w > 0.0, odd(w)) {
            (true, true) => v,
            (true, false) => v.abs(),
            (false, true) => 0.0f64.copysign(v),
            (false, false) => 0.0,
        });
    }
    if v == 0.0 {
        if w < 0.0 {
            return Err(zero_div("0.0 cannot be raised to a negative power"));
        }
        return Ok(if odd(w) { v } else { 0.0 });
    }
    let (v, negate) = if v < 0.0 {
        if w != w.floor() {
            // CPython returns a complex number here; there are no complex values.
            return Err(value_error("negative number cannot be raised to a fractional power"));
        }
        (-v, odd(w))
    } else {
        (v, false)
    };
    if v == 1.0 {
        return Ok(if negate { -1.0 } else { 1.0 });
    }
    let r = v.powf(w);
    if r.is_infinite() {
        return Err(Error::new(ErrorKind::Overflow, "(34, 'Numerical result out of range')"));
    }
    Ok(if negate { -r } else { r })
}
