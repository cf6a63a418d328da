//! `int.from_bytes(bytes, byteorder='big', *, signed=False)` and `n.to_bytes(length=1,
//! byteorder='big', *, signed=False)`: ints read from and written as bytes, with CPython 3.11's
//! results and errors, within anyscript's 64-bit ints (a value past them is an
//! `OverflowError`, as any int past 64 bits is). A byte order of None is taken for one left
//! out ("big"), where CPython raises a `TypeError`: None is the filler a call by keyword gives
//! the byte order it skips.

use crate::error::{Error, ErrorKind, Result};
use crate::func::{OpEntry, Registry};
use crate::pipeline::value_ops::{arg_vname, iter_items, type_error, vname};
use crate::{AnyValue, AnyView, Value};

/// Registers `int.from_bytes`.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[(
        "int.from_bytes",
        "(bytes, byteorder='big', *, signed=False) -> int",
        "The int the bytes stand for, in the byte order given, as int.from_bytes.",
        from_bytes,
    )];
    reg.register_ops(ops)
}

/// Whether `byteorder` (of `func`) asks for little-endian; CPython's errors for anything but
/// "little" and "big". Left out it is "big".
fn little_endian(func: &str, byteorder: Option<&AnyView<'_>>) -> Result<bool> {
    match byteorder.map(|b| b.value()) {
        // None is the filler for a byte order left out (so a None given is taken for it too).
        None | Some(Value::None) => Ok(false),
        Some(v) => match v.as_str() {
            Some("little") => Ok(true),
            Some("big") => Ok(false),
            Some(_) => Err(Error::value("byteorder must be either 'little' or 'big'")),
            None => Err(type_error(format!("{func}() argument 'byteorder' must be str, not {}", arg_vname(v)))),
        },
    }
}

/// The truth of the keyword-only `signed` (any value, as CPython takes its truth).
fn signed(arg: Option<&AnyView<'_>>) -> bool {
    arg.is_some_and(|a| crate::pipeline::value_ops::truthy(*a))
}

/// The bytes of `v`: bytes as they are; any other iterable of ints in range(0, 256) (a list of
/// byte values); CPython's errors for the rest.
fn byte_values(v: Value<'_>) -> Result<Vec<u8>> {
    if let Value::Bytes(b) = v {
        return Ok(b.to_vec());
    }
    if v.as_str().is_some() {
        return Err(type_error("cannot convert 'str' object to bytes"));
    }
    let items = iter_items(v).map_err(|_| type_error(format!("cannot convert '{}' object to bytes", vname(v))))?;
    items
        .iter()
        .map(|x| match x.value() {
            Value::Int(i) if (0..256).contains(&i) => Ok(i as u8),
            Value::Bool(b) => Ok(u8::from(b)),
            Value::Int(_) => Err(Error::value("bytes must be in range(0, 256)")),
            other => Err(type_error(format!("'{}' object cannot be interpreted as an integer", vname(other)))),
        })
        .collect()
}

/// `int.from_bytes(bytes, byteorder, signed)`, its arguments bound by position (`signed`
/// third).
fn from_bytes(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(data) = args.first() else {
        return Err(type_error("from_bytes() missing required argument 'bytes' (pos 1)"));
    };
    let mut bytes = byte_values(data.value())?;
    if little_endian("from_bytes", args.get(1))? {
        bytes.reverse();
    }
    let negative = signed(args.get(2)) && bytes.first().is_some_and(|&b| b >= 0x80);
    // Past eight bytes, the leading ones must only extend the sign.
    let fill = if negative { 0xff } else { 0x00 };
    let extra = bytes.len().saturating_sub(8);
    if bytes[..extra].iter().any(|&b| b != fill) {
        return Err(too_large());
    }
    let mut word = [fill; 8];
    word[8 - (bytes.len() - extra)..].copy_from_slice(&bytes[extra..]);
    let value = i64::from_be_bytes(word);
    // A negative sign that did not survive, or an unsigned value past i64, is out of range.
    if (value < 0) != negative {
        return Err(too_large());
    }
    Ok(AnyValue::from_int(value))
}

/// anyscript's error for an int past 64 bits.
fn too_large() -> Error {
    Error::new(ErrorKind::Overflow, "integer overflow in int.from_bytes(): the int does not fit in 64 bits")
}

/// `n.to_bytes(length=1, byteorder='big', signed=False)`, the arguments given so far by
/// position.
pub fn to_bytes(n: i64, args: &[AnyView<'_>]) -> Result<AnyValue> {
    // CPython reads the length's type, then the byte order, then the length's sign.
    let length = match args.first().map(|a| a.value()) {
        None => 1,
        Some(v) => v
            .as_int()
            .ok_or_else(|| type_error(format!("'{}' object cannot be interpreted as an integer", vname(v))))?,
    };
    let little = little_endian("to_bytes", args.get(1))?;
    if length < 0 {
        return Err(Error::value("length argument must be non-negative"));
    }
    let signed = signed(args.get(2));
    if n < 0 && !signed {
        return Err(Error::new(ErrorKind::Overflow, "can't convert negative int to unsigned"));
    }
    // The bytes the value needs: with a sign bit of its own when signed (0 needs none).
    let magnitude_bits = if n < 0 { 64 - (!n).leading_zeros() } else { 64 - n.leading_zeros() };
    let bits = if n == 0 { 0 } else { magnitude_bits + u32::from(signed) };
    let needed = bits.div_ceil(8) as i64;
    if needed > length {
        return Err(Error::new(ErrorKind::Overflow, "int too big to convert"));
    }
    let fill = if n < 0 { 0xff } else { 0x00 };
    let length = usize::try_from(length).map_err(|_| Error::out_of_memory("to_bytes()", usize::MAX))?;
    let mut out = Vec::new();
    out.try_reserve_exact(length).map_err(|_| Error::out_of_memory("to_bytes()", length))?;
    out.resize(length.saturating_sub(8), fill);
    let word = n.to_be_bytes();
    out.extend_from_slice(&word[8 - length.min(8)..]);
    if little {
        out.reverse();
    }
    Ok(AnyValue::from_bytes(&out))
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::run_main as run;

    // Expected values: CPython 3.11's.
    #[test]
    fn round_trips_and_errors() {
        let cases = [
            ("int.from_bytes(b'\\x01\\x00', 'big')", "256"),
            ("int.from_bytes(b'\\x01\\x00', 'little')", "1"),
            ("int.from_bytes(b'\\xff\\xfe', 'big', signed=True)", "-2"),
            ("int.from_bytes([1, 2])", "258"),
            ("int.from_bytes(b'')", "0"),
            ("(256).to_bytes(2, 'big')", "b'\\x01\\x00'"),
            ("(-2).to_bytes(2, 'little', signed=True)", "b'\\xfe\\xff'"),
            ("(5).to_bytes()", "b'\\x05'"),
            ("(5).to_bytes(2, signed=True)", "b'\\x00\\x05'"),
            ("(0).to_bytes(0, signed=True)", "b''"),
            ("(1).to_bytes(-1, 'middle')", "Value: byteorder must be either 'little' or 'big'"),
            ("(255).to_bytes(1, signed=True)", "Overflow: int too big to convert"),
            ("(-1).to_bytes(1)", "Overflow: can't convert negative int to unsigned"),
            ("int.from_bytes(b'\\x01', 'middle')", "Value: byteorder must be either 'little' or 'big'"),
        ];
        for (expr, want) in cases {
            assert_eq!(run(&format!("return repr({expr})")), want, "{expr}");
        }
    }
}
