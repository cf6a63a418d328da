//! Python's built-in functions as anyscript has them (`len`, `range`, `int`, `sorted`, ...),
//! with CPython 3.11's results and error messages.
//!
//! Functions that return iterators in Python (`range`, `reversed`, `enumerate`, `zip`) return
//! lists here (of tuples, for `enumerate` and `zip`).

use super::Slot;
use super::ast::BinOp;
use super::format::{ascii_of, format_value};
use super::generator::{Generator, generator_of};
use super::iterate::LoopState;
use super::methods::{arity_error, decimal_value, is_space};
use super::value_ops::{
    Text, arg_vname, binary, dict_update_from, index_arg, iter_items, len, overflow, plural, py_gt, py_lt, repr_value,
    sort_values, to_str, truthy, try_repr_value, type_error, value_error, vname,
};
use crate::container::try_reserve_items;
use crate::{AnyValue, AnyView, Dict, Error, ErrorKind, List, PackedFunc, Result, Tuple, Value};
use std::borrow::Cow;

/// `max` in [`Builtin::arity`] for functions that take any number of arguments.
pub const VARIADIC: usize = usize::MAX;

macro_rules! builtins {
    ($($variant:ident => $name:literal ($min:expr, $max:expr),)*) => {
        /// A built-in function.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin {
            $(#[doc = concat!("`", $name, "()`")] $variant,)*
        }

        impl Builtin {
            /// Every built-in, in declaration order.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$variant,)*];

            /// The built-in called `name`, if there is one.
            pub fn from_name(name: &str) -> Option<Builtin> {
                match name {
                    $($name => Some(Builtin::$variant),)*
                    _ => None,
                }
            }

            /// The function's name as written in source.
            pub fn name(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $name,)*
                }
            }

            /// (min, max) positional arguments; max is [`VARIADIC`] for `min`, `max` and `zip`.
            pub fn arity(self) -> (usize, usize) {
                match self {
                    $(Builtin::$variant => ($min, $max),)*
                }
            }
        }
    };
}

builtins! {
    Len => "len" (1, 1),
    Range => "range" (1, 3),
    Str => "str" (0, 3),
    Int => "int" (0, 2),
    Float => "float" (0, 1),
    Bool => "bool" (0, 1),
    List => "list" (0, 1),
    Tuple => "tuple" (0, 1),
    Dict => "dict" (0, 1),
    Set => "set" (0, 1),
    Frozenset => "frozenset" (0, 1),
    Bytes => "bytes" (0, 3),
    Min => "min" (1, VARIADIC),
    Max => "max" (1, VARIADIC),
    Abs => "abs" (1, 1),
    Sum => "sum" (1, 2),
    Sorted => "sorted" (1, 1),
    Reversed => "reversed" (1, 1),
    Enumerate => "enumerate" (1, 2),
    Zip => "zip" (0, VARIADIC),
    Ord => "ord" (1, 1),
    Chr => "chr" (1, 1),
    Repr => "repr" (1, 1),
    Ascii => "ascii" (1, 1),
    Format => "format" (1, 2),
    Round => "round" (1, 2),
    Any => "any" (1, 1),
    All => "all" (1, 1),
    Isinstance => "isinstance" (2, 2),
    Type => "type" (1, 1),
    Pow => "pow" (2, 3),
    Divmod => "divmod" (2, 2),
    Hex => "hex" (1, 1),
    Oct => "oct" (1, 1),
    Bin => "bin" (1, 1),
    Iter => "iter" (1, 2),
    Next => "next" (1, 2),
    Print => "print" (0, VARIADIC),
    Hash => "hash" (1, 1),
    Bytearray => "bytearray" (0, 3),
}

impl Builtin {
    /// The TypeError of a call with `n` arguments, which [`Builtin::arity`] does not allow,
    /// worded as CPython words it for this function.
    pub fn arity_error(self, n: usize) -> Error {
        let name = self.name();
        let missing = |param: &str| type_error(format!("{name}() missing required argument {param}"));
        match (self, self.arity()) {
            (Builtin::Round, _) if n == 0 => missing("'number' (pos 1)"),
            (Builtin::Pow, _) if n < 2 => missing(["'base' (pos 1)", "'exp' (pos 2)"][n]),
            (Builtin::Enumerate, _) if n == 0 => missing("'iterable'"),
            (Builtin::Sum, _) if n == 0 => type_error("sum() takes at least 1 positional argument (0 given)"),
            (Builtin::Type, _) => type_error("type() takes 1 or 3 arguments"),
            // Types (`reversed`) and functions that take `*args` word it so.
            (Builtin::Sorted | Builtin::Reversed, _) => type_error(format!("{name} expected 1 argument, got {n}")),
            // The type constructors (`list(a, b)`) word it as CPython's `_PyArg_NoKwnames` does.
            (_, (0, 1)) if self != Builtin::Str => type_error(format!("{name} expected at most 1 argument, got {n}")),
            (Builtin::Round | Builtin::Pow | Builtin::Enumerate | Builtin::Sum, (_, max)) | (_, (0, max)) => {
                type_error(format!("{name}() takes at most {max} argument{} ({n} given)", plural(max)))
            }
            (_, arity) => arity_error(name, name, arity, n),
        }
    }

    /// The built-in as a function value (`sorted(words, key=len)`): one object per built-in, so
    /// that `k = len` then `k is len` holds, as in Python.
    pub fn as_func(self) -> PackedFunc {
        static FUNCS: std::sync::LazyLock<Vec<PackedFunc>> = std::sync::LazyLock::new(|| {
            Builtin::ALL
                .iter()
                .map(|&b| {
                    PackedFunc::with_keywords(
                        b,
                        |&b, args| call_builtin(b, args).map(Slot::resize),
                        |&b, call| super::named_params::call_builtin_named(b, call).map(Slot::resize),
                    )
                })
                .collect()
        });
        FUNCS[self as usize].clone()
    }

    /// The built-in that `f` is, when it is one of [`Builtin::as_func`]'s values.
    pub fn of_func(f: &PackedFunc) -> Option<Builtin> {
        Builtin::ALL.iter().copied().find(|b| b.as_func().ptr_eq(f))
    }

    /// Python's repr of the built-in: `<class 'int'>` for a type, `<built-in function len>`.
    pub fn repr(self) -> String {
        use Builtin::*;
        match self {
            Str | Int | Float | Bool | List | Tuple | Dict | Set | Frozenset | Bytes | Bytearray | Range | Reversed
            | Enumerate | Zip | Type => {
                format!("<class '{}'>", self.name())
            }
            _ => format!("<built-in function {}>", self.name()),
        }
    }
}

/// `zip(*iterables)`: the iterables stepped together, as CPython's zip steps them: each row
/// takes one item of each in turn, and the first that has none ends it (a generator after it
/// is not asked for another item).
fn zip(args: &[AnyView<'_>], strict: bool) -> Result<Slot> {
    let mut states = args.iter().map(|a| LoopState::start(*a)).collect::<Result<Vec<_>>>()?;
    let mut rows = Vec::new();
    if states.is_empty() {
        return Ok(List::from_vec(rows).into());
    }
    loop {
        let mut row = Vec::with_capacity(states.len());
        for (i, state) in states.iter_mut().enumerate() {
            match state.next_checked()? {
                Some(item) => row.push(item.resize()),
                None if strict && i > 0 => return Err(zip_length_error(i, "shorter")),
                None if strict => return zip_rest_is_empty(&mut states[1..]).map(|()| List::from_vec(rows).into()),
                None => return Ok(List::from_vec(rows).into()),
            }
        }
        try_reserve_items(&mut rows, 1, "zip()")?;
        rows.push(Tuple::from_vec(row).into_any());
    }
}

/// `zip(..., strict=True)` once its first iterable has ended: CPython's ValueError for the
/// first of the others that has an item left.
fn zip_rest_is_empty(rest: &mut [LoopState]) -> Result<()> {
    for (i, state) in rest.iter_mut().enumerate() {
        if state.next_checked()?.is_some() {
            return Err(zip_length_error(i + 1, "longer"));
        }
    }
    Ok(())
}

/// `zip() argument 3 is shorter than arguments 1-2`, for the argument at index `i`.
fn zip_length_error(i: usize, what: &str) -> Error {
    let others = if i == 1 { " 1".to_string() } else { format!("s 1-{i}") };
    Error::new(ErrorKind::Value, format!("zip() argument {} is {what} than argument{others}", i + 1))
}

/// `zip(*iterables, strict=flag)` as a function value called with the flag first.
pub fn zip_strict_func() -> PackedFunc {
    static FUNC: std::sync::LazyLock<PackedFunc> = std::sync::LazyLock::new(|| {
        PackedFunc::new(|args| {
            let (flag, iterables) = args.split_first().expect("the flag is passed first");
            zip(iterables, truthy(*flag)).map(Slot::resize)
        })
    });
    FUNC.clone()
}

/// Calls a built-in with positional arguments.
pub fn call_builtin(b: Builtin, args: &[AnyView<'_>]) -> Result<Slot> {
    let arity = b.arity();
    if args.len() < arity.0 || args.len() > arity.1 {
        return Err(b.arity_error(args.len()));
    }
    let list = |items: Vec<AnyValue>| Ok(List::from_vec(items).into());
    match b {
        Builtin::Len => len(args[0]).map(Slot::from_int),
        Builtin::Range => range(args),
        Builtin::Str if args.len() > 1 => super::str_codecs::str_decoding(args),
        Builtin::Str => Ok(match args.first() {
            None => Slot::from_text(""),
            Some(a) if Text::of(a.value()).is_some() => a.to_owned(),
            // The commonest case of f-strings and `str(n)`, without a String on the heap.
            Some(a) if let Value::Int(i) = a.value() => Slot::from_text(crate::any::py_text::int_text(i, &mut [0; 20])),
            Some(a) => Slot::from_text(&to_str(*a)?),
        }),
        // `int(bytearray(b"12"))` reads its bytes as `int(b"12")` does.
        Builtin::Int | Builtin::Float => super::bytearray_ops::with_bytes_args(args, |args| match b {
            Builtin::Int => int(args),
            _ => float(args),
        }),
        Builtin::Bool => Ok(Slot::from_bool(args.first().is_some_and(|a| truthy(*a)))),
        Builtin::List => list(args.first().map_or(Ok(Vec::new()), |a| iter_items(a.value()))?),
        // A tuple is returned as it is, as CPython does (it cannot change, so no copy is needed).
        Builtin::Tuple => match args.first() {
            // A named tuple's items become a plain tuple, the usual way to drop the names.
            Some(a) if super::named_tuple_ops::class_of(a.value()).is_some() => {
                Ok(Tuple::from_vec(iter_items(a.value())?).into())
            }
            Some(a) if super::value_ops::is_tuple(a.value()) => Ok(a.to_owned()),
            Some(a) => Ok(Tuple::from_vec(iter_items(a.value())?).into()),
            None => Ok(Tuple::from_vec(Vec::new()).into()),
        },
        Builtin::Dict => {
            let mut d = Dict::new();
            if let Some(a) = args.first() {
                dict_update_from(&mut d, a.value())?;
            }
            Ok(d.into())
        }
        Builtin::Set => super::set_ops::set_builtin(args.first()),
        Builtin::Frozenset => super::set_ops::frozenset_builtin(args.first()),
        Builtin::Bytes => super::str_codecs::bytes_builtin(args),
        Builtin::Bytearray => super::bytearray_ops::bytearray_builtin(args),
        Builtin::Isinstance => super::type_checks::isinstance(args[0], args[1]),
        Builtin::Type => Ok(Slot::from(super::type_checks::type_of(args[0].value()))),
        Builtin::Min | Builtin::Max => min_max(b, args),
        Builtin::Abs => abs(args[0].value()),
        Builtin::Pow => super::builtin_numbers::pow(args),
        Builtin::Divmod => super::builtin_numbers::divmod(args[0], args[1]),
        Builtin::Hex => super::builtin_numbers::int_digits(args[0], 16),
        Builtin::Oct => super::builtin_numbers::int_digits(args[0], 8),
        Builtin::Bin => super::builtin_numbers::int_digits(args[0], 2),
        Builtin::Sum => sum(args),
        Builtin::Sorted => {
            let mut items = iter_items(args[0].value())?;
            sort_values(&mut items)?;
            list(items)
        }
        Builtin::Reversed => {
            let x = args[0].value();
            if matches!(x, Value::None | Value::Int(_) | Value::Bool(_) | Value::Float(_))
                || super::set_ops::set_of(x).is_some()
            {
                return Err(type_error(format!("'{}' object is not reversible", vname(x))));
            }
            let mut items =
                iter_items(x).map_err(|_| type_error(format!("'{}' object is not reversible", vname(x))))?;
            items.reverse();
            list(items)
        }
        Builtin::Enumerate => {
            let start = args.get(1).map(index_arg).transpose()?.unwrap_or(0);
            let items = iter_items(args[0].value())?;
            let pairs = items.into_iter().enumerate().map(|(k, x)| {
                let i = start.checked_add(k as i64).ok_or_else(|| overflow("enumerate()"))?;
                Ok(Tuple::from_vec(vec![AnyValue::from_int(i), x]).into_any())
            });
            list(pairs.collect::<Result<_>>()?)
        }
        Builtin::Zip => zip(args, false),
        Builtin::Print => super::print::print_values(args, AnyView::none(), AnyView::none()),
        // The Python process's own hash (`container::str_hash`): `hash(w) % buckets` as in Python.
        Builtin::Hash => {
            // The type CPython names (`Counter`, `collections.deque`) before the hash is taken.
            super::value_ops::check_hashable(args[0].value())?;
            crate::container::python_hash(args[0].value()).map(Slot::from_int)
        }
        Builtin::Iter if args.len() == 2 => {
            Ok(super::callable_iterator::call_until(args[0], args[1])?.into_any().resize())
        }
        Builtin::Iter => Ok(Generator::iter(args[0])?.into_any().resize()),
        Builtin::Next => {
            let Some(g) = generator_of(args[0].value()) else {
                return Err(type_error(format!("'{}' object is not an iterator", vname(args[0].value()))));
            };
            match (g.next()?, args.get(1)) {
                (Some(item), _) => Ok(item.resize()),
                (None, Some(default)) => Ok(default.to_owned()),
                (None, None) => Err(Error::new(ErrorKind::StopIteration, "")),
            }
        }
        Builtin::Ord => ord(args[0].value()),
        Builtin::Chr => {
            let i = index_arg(&args[0])?;
            // CPython reads the argument as a C int first.
            if i32::try_from(i).is_err() {
                return Err(Error::new(ErrorKind::Overflow, "Python int too large to convert to C int"));
            }
            let c = u32::try_from(i)
                .ok()
                .filter(|&c| c < 0x11_0000)
                .ok_or_else(|| value_error("chr() arg not in range(0x110000)"))?;
            // CPython allows lone surrogates in str; Rust strings cannot hold them.
            char::from_u32(c)
                .map(Slot::from_char)
                .ok_or_else(|| value_error("chr() arg is a surrogate, which str cannot hold here"))
        }
        Builtin::Repr => Ok(Slot::from_text(&try_repr_value(args[0].value())?)),
        Builtin::Ascii => Ok(Slot::from_text(&ascii_of(args[0].value())?)),
        Builtin::Format => format_builtin(args),
        Builtin::Round => round(args),
        Builtin::Any => Ok(Slot::from_bool(iter_items(args[0].value())?.iter().any(|x| truthy(x.view())))),
        Builtin::All => Ok(Slot::from_bool(iter_items(args[0].value())?.iter().all(|x| truthy(x.view())))),
    }
}

/// `format(value, spec="")`; the spec must be a str, as in CPython.
fn format_builtin(args: &[AnyView<'_>]) -> Result<Slot> {
    let spec = match args.get(1).map(|a| a.value()) {
        None => Cow::Borrowed(""),
        Some(v) => match Text::of(v) {
            Some(t) => t.as_str(),
            None => {
                return Err(type_error(format!("format() argument 2 must be str, not {}", arg_vname(v))));
            }
        },
    };
    Ok(Slot::from_text(&format_value(args[0], &spec)?))
}

/// Lists longer than this fail instead of exhausting memory (Python's range is lazy).
const MAX_RANGE: i128 = 1 << 31;

/// The number of items of `range(start, stop, step)`; `step != 0`.
fn range_len(start: i64, stop: i64, step: i64) -> i128 {
    let (a, b, s) = (start as i128, stop as i128, step as i128);
    match s > 0 {
        true if b > a => (b - a - 1) / s + 1,
        false if a > b => (a - b - 1) / -s + 1,
        _ => 0,
    }
}

fn range(args: &[AnyView<'_>]) -> Result<Slot> {
    let ints = args.iter().map(index_arg).collect::<Result<Vec<i64>>>()?;
    let (start, stop, step) = match ints[..] {
        [stop] => (0, stop, 1),
        [start, stop] => (start, stop, 1),
        [start, stop, step] => (start, stop, step),
        _ => unreachable!("arity is checked"),
    };
    if step == 0 {
        return Err(value_error("range() arg 3 must not be zero"));
    }
    let n = range_len(start, stop, step);
    if n > MAX_RANGE {
        return Err(value_error(format!("range() of {n} items is too large to build as a list")));
    }
    let mut items = Vec::new();
    let bytes = n as usize * std::mem::size_of::<AnyValue>();
    items.try_reserve_exact(n as usize).map_err(|_| Error::out_of_memory("list(range())", bytes))?;
    items.extend((0..n).map(|k| AnyValue::from_int((start as i128 + k * step as i128) as i64)));
    Ok(List::from_vec(items).into())
}

// ---------------------------------------------------------------- int() and float()

/// CPython's `_PyUnicode_TransformDecimalAndSpaceToASCII`: decimal digits of any script become
/// ASCII digits, Unicode spaces become `' '`; anything else non-ASCII ends the text with `'?'`.
fn ascii_digits(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if (c as u32) < 127 {
            out.push(c);
        } else if is_space(c) {
            out.push(' ');
        } else if let Some(d) = decimal_value(c) {
            out.extend(char::from_digit(d, 10));
        } else {
            out.push('?');
            break;
        }
    }
    Cow::Owned(out)
}

/// C's `isspace` in the "C" locale, which CPython's number parsers strip.
fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `int(text, base)` as CPython parses it: sign, `0x`/`0o`/`0b` prefixes, single underscores
/// between digits, surrounding whitespace, decimal digits of any script.
fn parse_int(src: Value<'_>, text: &str, base: u32) -> Result<i64> {
    // CPython cuts the repr to 200 characters (`%.200R`).
    let bad = || {
        let shown: String = repr_value(src).chars().take(200).collect();
        value_error(format!("invalid literal for int() with base {base}: {shown}"))
    };
    let t = ascii_digits(text);
    let t = t.trim_matches(is_c_space);
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let prefix = match body.as_bytes() {
        [b'0', b'x' | b'X', ..] => 16,
        [b'0', b'o' | b'O', ..] => 8,
        [b'0', b'b' | b'B', ..] => 2,
        _ => 0,
    };
    let radix = match base {
        0 if prefix != 0 => prefix,
        0 => 10,
        b => b,
    };
    let mut digits = body;
    if prefix != 0 && prefix == radix {
        // One underscore may follow the prefix ("0x_1f").
        digits = &body[2..];
        digits = digits.strip_prefix('_').unwrap_or(digits);
    }
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return Err(bad());
    }
    let mut acc: u128 = 0;
    for c in digits.chars().filter(|&c| c != '_') {
        let d = c.to_digit(36).filter(|&d| d < radix).ok_or_else(bad)?;
        // Saturates far above i64's range; the string is still checked to the end first.
        acc = acc.saturating_mul(radix as u128).saturating_add(d as u128);
    }
    // Base 0 rejects C-style octal ("010"), but not zero ("00", "0_0").
    if base == 0 && prefix == 0 && digits.starts_with('0') && acc != 0 {
        return Err(bad());
    }
    let v = if neg { -(acc.min(u64::MAX as u128) as i128) } else { acc.min(u64::MAX as u128) as i128 };
    i64::try_from(v).map_err(|_| overflow("int()"))
}

/// `float(text)` as CPython parses it (`inf`, `nan`, underscores between digits, any-script digits).
fn parse_float(src: Value<'_>, text: &str) -> Result<f64> {
    let bad = || value_error(format!("could not convert string to float: {}", repr_value(src)));
    let t = ascii_digits(text);
    let t = t.trim_matches(is_c_space);
    let b = t.as_bytes();
    let digit_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if b.iter().enumerate().any(|(i, &c)| c == b'_' && !(i > 0 && digit_at(i - 1) && digit_at(i + 1))) {
        return Err(bad());
    }
    // Rust's parser accepts exactly CPython's forms once underscores are gone, "infinity" and
    // "nan" in any case and with a sign included.
    t.replace('_', "").parse::<f64>().map_err(|_| bad())
}

fn float_to_int(f: f64) -> Result<i64> {
    if f.is_nan() {
        return Err(value_error("cannot convert float NaN to integer"));
    }
    if f.is_infinite() {
        return Err(Error::new(ErrorKind::Overflow, "cannot convert float infinity to integer"));
    }
    let t = f.trunc();
    // 2^63 is exact in f64; [-2^63, 2^63) is i64's range.
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&t) {
        Ok(t as i64)
    } else {
        Err(overflow("int()"))
    }
}

fn int(args: &[AnyView<'_>]) -> Result<Slot> {
    let Some(a) = args.first() else { return Ok(Slot::from_int(0)) };
    let x = a.value();
    if let Some(base) = args.get(1) {
        let base = index_arg(base)?;
        if !(base == 0 || (2..=36).contains(&base)) {
            return Err(value_error("int() base must be >= 2 and <= 36, or 0"));
        }
        return match (Text::of(x), x) {
            (Some(t), _) => parse_int(x, &t.as_str(), base as u32).map(Slot::from_int),
            (None, Value::Bytes(b)) => parse_int(x, &String::from_utf8_lossy(b), base as u32).map(Slot::from_int),
            _ => Err(type_error("int() can't convert non-string with explicit base")),
        };
    }
    match x {
        Value::Int(_) | Value::Bool(_) => Ok(Slot::from_int(x.as_int().unwrap_or_default())),
        Value::Float(f) => float_to_int(f).map(Slot::from_int),
        Value::Str(_) | Value::UStr(_) => parse_int(x, &Text::of(x).expect("a str").as_str(), 10).map(Slot::from_int),
        Value::Bytes(b) => parse_int(x, &String::from_utf8_lossy(b), 10).map(Slot::from_int),
        _ => Err(type_error(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            vname(x)
        ))),
    }
}

fn float(args: &[AnyView<'_>]) -> Result<Slot> {
    let Some(a) = args.first() else { return Ok(Slot::from_float(0.0)) };
    let x = a.value();
    match x {
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => Ok(Slot::from_float(x.as_float().unwrap_or_default())),
        Value::Str(_) | Value::UStr(_) => parse_float(x, &Text::of(x).expect("a str").as_str()).map(Slot::from_float),
        Value::Bytes(b) => parse_float(x, &String::from_utf8_lossy(b)).map(Slot::from_float),
        _ => Err(type_error(format!("float() argument must be a string or a real number, not '{}'", vname(x)))),
    }
}

// ---------------------------------------------------------------- numbers and sequences

fn abs(x: Value<'_>) -> Result<Slot> {
    match x {
        Value::Float(f) => Ok(Slot::from_float(f.abs())),
        Value::Int(_) | Value::Bool(_) => {
            x.as_int().unwrap_or_default().checked_abs().map(Slot::from_int).ok_or_else(|| overflow("abs()"))
        }
        _ => Err(type_error(format!("bad operand type for abs(): '{}'", vname(x)))),
    }
}

fn min_max(b: Builtin, args: &[AnyView<'_>]) -> Result<Slot> {
    let is_min = b == Builtin::Min;
    // Python keeps the first of equal extremes: replace only on a strict improvement.
    let better = |x: Value<'_>, best: Value<'_>| if is_min { py_lt(x, best) } else { py_gt(x, best) };
    let empty = || value_error(format!("{}() arg is an empty sequence", b.name()));
    if let [one] = args {
        let items = iter_items(one.value())?;
        let mut best = items.first().ok_or_else(empty)?;
        for x in &items[1..] {
            if better(x.value(), best.value())? {
                best = x;
            }
        }
        return Ok(best.clone().into());
    }
    let mut best = &args[0];
    for x in &args[1..] {
        if better(x.value(), best.value())? {
            best = x;
        }
    }
    Ok(best.to_owned())
}

fn sum(args: &[AnyView<'_>]) -> Result<Slot> {
    let text_start = match args.get(1).map(AnyView::value) {
        Some(Value::Str(_) | Value::UStr(_)) => Some("sum() can't sum strings [use ''.join(seq) instead]"),
        Some(Value::Bytes(_)) => Some("sum() can't sum bytes [use b''.join(seq) instead]"),
        Some(b) if super::bytearray_ops::byte_array_of(b).is_some() => {
            Some("sum() can't sum bytearray [use b''.join(seq) instead]")
        }
        _ => None,
    };
    if let Some(message) = text_start {
        // CPython takes the iterator first: a value that is not iterable is the error then (a
        // generator, iterable, is not run).
        if generator_of(args[0].value()).is_none() {
            iter_items(args[0].value())?;
        }
        return Err(type_error(message));
    }
    let mut acc = args.get(1).map_or_else(|| Slot::from_int(0), |start| start.to_owned());
    // Left to right with `+`, as CPython 3.11 does (3.12 compensates float rounding errors).
    for x in iter_items(args[0].value())? {
        acc = binary(BinOp::Add, acc.view(), x.view())?;
    }
    Ok(acc)
}

fn ord(x: Value<'_>) -> Result<Slot> {
    let n = match x {
        Value::Str(_) | Value::UStr(_) => {
            let t = Text::of(x).expect("a str");
            let mut chars = t.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                return Ok(Slot::from_int(c as i64));
            }
            t.char_len()
        }
        Value::Bytes([b]) => return Ok(Slot::from_int(*b as i64)),
        Value::Bytes(b) => b.len(),
        _ => return Err(type_error(format!("ord() expected string of length 1, but {} found", vname(x)))),
    };
    Err(type_error(format!("ord() expected a character, but string of length {n} found")))
}

// ---------------------------------------------------------------- round()

/// CPython's limits beyond which `round(x, n)` returns `x` itself or a signed zero.
const NDIGITS_MAX: i64 = 323;
const NDIGITS_MIN: i64 = -308;

fn round(args: &[AnyView<'_>]) -> Result<Slot> {
    let x = args[0].value();
    // CPython looks the number's `__round__` up before it reads `ndigits`.
    if !matches!(x, Value::Int(_) | Value::Bool(_) | Value::Float(_)) {
        return Err(type_error(format!("type {} doesn't define __round__ method", vname(x))));
    }
    let nd = match args.get(1).map(|a| a.value()) {
        None | Some(Value::None) => None,
        Some(_) => Some(index_arg(&args[1])?),
    };
    match (x, nd) {
        (Value::Float(f), None) => float_to_int(f.round_ties_even()).map(Slot::from_int),
        (Value::Float(f), Some(nd)) => round_float(f, nd).map(Slot::from_float),
        // An int or a bool.
        (_, None) => Ok(Slot::from_int(x.as_int().unwrap_or_default())),
        (_, Some(nd)) => round_int(x.as_int().unwrap_or_default(), nd).map(Slot::from_int),
    }
}

/// `round(int, nd)`: unchanged for `nd >= 0`, else to a multiple of 10^-nd, ties to even.
fn round_int(x: i64, nd: i64) -> Result<i64> {
    if nd >= 0 {
        return Ok(x);
    }
    if nd < -38 {
        return Ok(0);
    }
    let p = 10i128.pow((-nd) as u32);
    let (q, r) = ((x as i128).div_euclid(p), (x as i128).rem_euclid(p));
    let q = match (2 * r).cmp(&p) {
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal => q + (q & 1),
        std::cmp::Ordering::Less => q,
    };
    i64::try_from(q * p).map_err(|_| overflow("round()"))
}

/// `round(float, nd)`: the exact decimal value rounded half-to-even at `nd` digits, as CPython's
/// dtoa-based `double_round` does (so `round(2.675, 2) == 2.67`).
fn round_float(x: f64, nd: i64) -> Result<f64> {
    if !x.is_finite() || x == 0.0 || nd > NDIGITS_MAX {
        return Ok(x);
    }
    if nd < NDIGITS_MIN {
        return Ok(0.0 * x);
    }
    let r = if nd >= 0 {
        // Rust formats the exact binary value, rounding exact ties to even, like dtoa mode 3.
        format!("{:.*}", nd as usize, x).parse::<f64>().unwrap_or(x)
    } else {
        round_float_left(x, (-nd) as usize)
    };
    if r.is_infinite() {
        return Err(value_error("rounded value too large to represent"));
    }
    // Keep the sign of a result rounded to zero, as CPython does (round(-0.4, 0) == -0.0).
    Ok(if r == 0.0 { 0.0f64.copysign(x) } else { r })
}

/// Rounds `x` to a multiple of 10^k (k >= 1) from its exact decimal expansion.
fn round_float_left(x: f64, k: usize) -> f64 {
    // 1100 fractional digits hold any f64 exactly (the smallest has 1074).
    let exact = format!("{:.1100}", x.abs());
    let (int_part, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let frac_nonzero = frac.bytes().any(|b| b != b'0');
    let n = int_part.len();
    if k > n {
        // |x| < 10^(k-1) <= half of 10^k: rounds to zero.
        return 0.0f64.copysign(x);
    }
    let (kept, dropped) = int_part.split_at(n - k);
    let (first, rest) = (dropped.as_bytes()[0], &dropped[1..]);
    let round_up = match first.cmp(&b'5') {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => {
            rest.bytes().any(|b| b != b'0') || frac_nonzero || kept.bytes().last().is_some_and(|d| (d - b'0') % 2 == 1)
        }
    };
    let mut digits: Vec<u8> = if kept.is_empty() { vec![b'0'] } else { kept.as_bytes().to_vec() };
    if round_up {
        // Decimal increment with carry.
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits[i] == b'9' {
                digits[i] = b'0';
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let text = format!("{}e{k}", String::from_utf8_lossy(&digits));
    text.parse::<f64>().unwrap_or(f64::INFINITY).copysign(x)
}

#[cfg(test)]
mod tests;
