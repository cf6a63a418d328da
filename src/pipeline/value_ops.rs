//! Python semantics for the interpreter's operators on any-values: truthiness, arithmetic,
//! comparison, `in`, indexing, slicing, `len`, `str()` and `repr()`.
//!
//! Behaviour follows CPython 3.11. Where an i64 cannot hold Python's result (there are no
//! big ints) the operation fails with an `OverflowError` ("integer overflow in +") instead of
//! wrapping. Python's exception classes map onto [`ErrorKind`] (ZeroDivisionError and
//! OverflowError have kinds of their own, and so has AttributeError). Tuples share lists'
//! code for reading (`seq_obj`); what changes a list takes only a list (`list_obj`).

use super::Slot;
use super::ast::{BinOp, CmpOp, UnaryOp};
use super::set_ops::{self, set_of};
use crate::any::py_text::{write_bytes_repr, write_float_repr, write_str_repr, write_utf8_str_repr};
use crate::any::type_index as ti;
use crate::any::{text_first_equal, values_equal};
use crate::container::{DictKind, DictObj, ListObj, SetObj, try_reserve_items};
use crate::object::MAX_DEPTH;
use crate::{AnyValue, AnyView, Dict, Error, ErrorKind, FromAny, List, PackedFunc, Result, Tuple, Value};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::{self, Write};

// ---------------------------------------------------------------- errors and type names

/// A `TypeError`.
pub(crate) fn type_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Type, msg)
}

/// CPython's `AttributeError` for reading attribute (or method) `attr` of `v`, which has none.
#[cold]
pub(crate) fn no_attribute(v: Value<'_>, attr: &str) -> Error {
    Error::new(ErrorKind::Attribute, format!("'{}' object has no attribute '{attr}'", vname(v)))
}

/// `v` as a function, or CPython's TypeError for calling what is not one.
pub(crate) fn callable(v: Value<'_>) -> Result<PackedFunc> {
    PackedFunc::from_value(v).ok_or_else(|| not_callable(v))
}

/// CPython's TypeError for calling `v`, which is not a function.
#[cold]
pub(crate) fn not_callable(v: Value<'_>) -> Error {
    type_error(format!("'{}' object is not callable", vname(v)))
}

/// A `ValueError`.
pub(crate) fn value_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Value, msg)
}

/// An `IndexError`.
pub(crate) fn index_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Index, msg)
}

/// A `KeyError` whose message is the key's repr, as Python prints it.
pub(crate) fn key_error(key: AnyView<'_>) -> Error {
    // The exception carries the key itself, which `e.args` and a Python caller see.
    super::exception_value::Exception::key_error(key).into_error()
}

/// The error for an i64 result that Python would have grown into a big int: an `OverflowError`.
pub(crate) fn overflow(op: &str) -> Error {
    Error::new(ErrorKind::Overflow, format!("integer overflow in {op}"))
}

/// Python's name for the type of a decoded value (`int`, `str`, `NoneType`, ...).
pub(crate) fn vname(v: Value<'_>) -> Cow<'static, str> {
    match v {
        Value::None => "NoneType".into(),
        Value::Int(_) => "int".into(),
        Value::Bool(_) => "bool".into(),
        Value::Float(_) => "float".into(),
        Value::Str(_) | Value::UStr(_) => "str".into(),
        Value::Bytes(_) => "bytes".into(),
        Value::Pod(t, _) => index_name(t),
        // Python's subclasses of dict name themselves.
        Value::Object(_) if let Some(d) = dict_obj(v) => match d.kind() {
            DictKind::Plain => "dict".into(),
            DictKind::Counter => "Counter".into(),
            DictKind::Default(_) => "collections.defaultdict".into(),
            DictKind::Ordered => "collections.OrderedDict".into(),
        },
        Value::Object(_) if let Some(g) = super::generator::generator_of(v) => g.type_name().to_string().into(),
        Value::Object(_) if let Some(e) = super::exception_value::exception_of(v) => e.class_name().into(),
        Value::Object(o) => index_name(o.type_index()),
    }
}

fn index_name(t: i32) -> Cow<'static, str> {
    Cow::Borrowed(match t {
        ti::LIST => "list",
        ti::TUPLE => "tuple",
        ti::DICT => "dict",
        ti::SET => "set",
        ti::FUNC => "function",
        ti::NDARRAY => "NDArray",
        ti::MODULE => "module",
        // `re.Pattern` and `re.Match` are named `Pattern` and `Match` in Python.
        _ => {
            let key = crate::object::type_name(t);
            return Cow::Owned(key.strip_prefix("re.").map_or_else(|| key.clone(), str::to_string));
        }
    })
}

/// Python's name for the type of `v` (`type(v).__name__`).
pub fn type_name(v: AnyView<'_>) -> String {
    vname(v.value()).into_owned()
}

// ---------------------------------------------------------------- shared accessors

/// The list behind a value, if it is one (checked by index first: no registry lookup); not a
/// tuple, so this is the accessor for what changes a list.
pub(crate) fn list_obj(v: Value<'_>) -> Option<&ListObj> {
    v.as_obj().filter(|o| o.type_index() == ti::LIST).and_then(|o| o.downcast_ref::<ListObj>())
}

/// The items' owner behind a list or a tuple, for what only reads a sequence.
pub(crate) fn seq_obj(v: Value<'_>) -> Option<&ListObj> {
    v.as_obj().filter(|o| matches!(o.type_index(), ti::LIST | ti::TUPLE)).and_then(|o| o.downcast_ref::<ListObj>())
}

/// The items' owner behind a tuple, if `v` is one.
pub(crate) fn tuple_obj(v: Value<'_>) -> Option<&ListObj> {
    v.as_obj().filter(|o| o.type_index() == ti::TUPLE).and_then(|o| o.downcast_ref::<ListObj>())
}

/// Whether `v` is a tuple.
pub(crate) fn is_tuple(v: Value<'_>) -> bool {
    v.as_obj().is_some_and(|o| o.type_index() == ti::TUPLE)
}

/// The dict object behind a value, if it is one, borrowed where it stands (no handle made).
pub(crate) fn dict_obj(v: Value<'_>) -> Option<&DictObj> {
    v.as_obj().filter(|o| o.type_index() == ti::DICT).and_then(|o| o.downcast_ref::<DictObj>())
}

/// [`dict_obj`] of a view, read before the view is decoded (`d.get(w)`, `w in d`, `d[w] = v`).
pub(crate) fn dict_in_view<'a>(v: &'a AnyView<'_>) -> Option<&'a DictObj> {
    v.as_obj().filter(|o| o.type_index() == ti::DICT).and_then(|o| o.downcast_ref::<DictObj>())
}

/// A handle to the list behind a value, if it is one.
pub(crate) fn list_of(v: Value<'_>) -> Option<List> {
    v.as_obj().filter(|o| o.type_index() == ti::LIST).and_then(|_| List::from_value(v))
}

/// A handle to the dict behind a value, if it is one.
pub(crate) fn dict_of(v: Value<'_>) -> Option<Dict> {
    v.as_obj().filter(|o| o.type_index() == ti::DICT).and_then(|_| Dict::from_value(v))
}

/// An argument that must be an int, with Python's message otherwise.
pub(crate) fn index_arg(v: &AnyView<'_>) -> Result<i64> {
    let x = v.value();
    x.as_int().ok_or_else(|| type_error(format!("'{}' object cannot be interpreted as an integer", vname(x))))
}

/// An argument CPython reads as a C `int` (`reverse=`, `keepends=`, `tabsize=`): an int, with
/// CPython's errors for other types and for values beyond 32 bits.
pub(crate) fn c_int_arg(v: &AnyView<'_>) -> Result<i32> {
    let i = index_arg(v)?;
    i32::try_from(i).map_err(|_| Error::new(ErrorKind::Overflow, "Python int too large to convert to C int"))
}

/// Dict keys must be hashable: not a list, a dict or a set, as in CPython (a tuple is, when its
/// items are).
pub(crate) fn check_hashable(k: Value<'_>) -> Result<()> {
    check_hashable_at(k, 0)
}

/// [`check_hashable`] of a key as it stands: text, the common key, is hashable without being
/// decoded.
pub(crate) fn check_key_hashable(k: &AnyView<'_>) -> Result<()> {
    match k.as_str() {
        Some(_) => Ok(()),
        None => check_hashable(k.value()),
    }
}

fn check_hashable_at(k: Value<'_>, depth: usize) -> Result<()> {
    match k.as_obj() {
        Some(o) if matches!(o.type_index(), ti::LIST | ti::DICT | ti::SET) => {
            Err(type_error(format!("unhashable type: '{}'", vname(k))))
        }
        Some(_) if super::deque_ops::deque_of(k).is_some() => Err(type_error("unhashable type: 'collections.deque'")),
        // Tuples nest without bound (one made in Python may be a million deep), so the depth is
        // capped where hashing stops too.
        _ => match tuple_obj(k) {
            Some(_) if depth >= MAX_DEPTH => {
                Err(Error::runtime("maximum recursion depth exceeded while calling a Python object"))
            }
            Some(t) => t.with_items(|xs| xs.iter().try_for_each(|x| check_hashable_at(x.value(), depth + 1))),
            None => Ok(()),
        },
    }
}

/// A text operand in either encoding.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Text<'a> {
    /// UTF-8 (`Value::Str`).
    Utf8(&'a str),
    /// UCS4 (`Value::UStr`).
    Ucs4(&'a [char]),
}

impl<'a> Text<'a> {
    /// The text of a str value.
    pub(crate) fn of(v: Value<'a>) -> Option<Self> {
        match v {
            Value::Str(s) => Some(Text::Utf8(s)),
            Value::UStr(u) => Some(Text::Ucs4(u)),
            _ => None,
        }
    }

    /// Whether results derived from this text should be UCS4 too.
    pub(crate) fn is_ucs4(self) -> bool {
        matches!(self, Text::Ucs4(_))
    }

    /// Length in code points (O(n) for UTF-8).
    pub(crate) fn char_len(self) -> usize {
        match self {
            Text::Utf8(s) => s.chars().count(),
            Text::Ucs4(u) => u.len(),
        }
    }

    /// The text as UTF-8, borrowed when it already is.
    pub(crate) fn as_str(self) -> Cow<'a, str> {
        match self {
            Text::Utf8(s) => Cow::Borrowed(s),
            Text::Ucs4(u) => Cow::Owned(u.iter().collect()),
        }
    }

    /// The code points, borrowed when the text is UCS4.
    pub(crate) fn to_chars(self) -> Cow<'a, [char]> {
        match self {
            Text::Utf8(s) => Cow::Owned(s.chars().collect()),
            Text::Ucs4(u) => Cow::Borrowed(u),
        }
    }

    /// Iterates over the code points.
    pub(crate) fn chars(self) -> TextChars<'a> {
        match self {
            Text::Utf8(s) => TextChars::Utf8(s.chars()),
            Text::Ucs4(u) => TextChars::Ucs4(u.iter()),
        }
    }
}

/// The code points of a [`Text`].
pub(crate) enum TextChars<'a> {
    Utf8(std::str::Chars<'a>),
    Ucs4(std::slice::Iter<'a, char>),
}

impl Iterator for TextChars<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        match self {
            TextChars::Utf8(c) => c.next(),
            TextChars::Ucs4(c) => c.next().copied(),
        }
    }
}

impl DoubleEndedIterator for TextChars<'_> {
    fn next_back(&mut self) -> Option<char> {
        match self {
            TextChars::Utf8(c) => c.next_back(),
            TextChars::Ucs4(c) => c.next_back().copied(),
        }
    }
}

/// A str slot in the requested encoding (inline when it fits).
pub(crate) fn text_slot(s: &str, ucs4: bool) -> Slot {
    if ucs4 { Slot::from_text_ucs4(s) } else { Slot::from_text(s) }
}

/// A str list item in the requested encoding (inline when it fits).
pub(crate) fn text_item(s: &str, ucs4: bool) -> AnyValue {
    if ucs4 { AnyValue::from_text_ucs4(s) } else { AnyValue::from_text(s) }
}

/// A copy of `xs`, or a `MemoryError` naming `what` when the allocator refuses it.
pub(crate) fn try_copy_items(xs: &[AnyValue], what: &str) -> Result<Vec<AnyValue>> {
    let mut items = Vec::new();
    items.try_reserve_exact(xs.len()).map_err(|_| Error::out_of_memory(what, std::mem::size_of_val(xs)))?;
    items.extend_from_slice(xs);
    Ok(items)
}

/// Whether [`iter_items`] takes `v`: Python's iterables that anyscript has.
pub(crate) fn is_iterable(v: Value<'_>) -> bool {
    matches!(v, Value::Str(_) | Value::UStr(_) | Value::Bytes(_))
        || super::generator::generator_of(v).is_some()
        || seq_obj(v).is_some()
        || dict_obj(v).is_some()
        || set_of(v).is_some()
}

/// The items of an iterable: a list's items, a str's characters, a dict's keys, a bytes' ints.
pub(crate) fn iter_items(v: Value<'_>) -> Result<Vec<AnyValue>> {
    if let Some(g) = super::generator::generator_of(v) {
        return g.drain();
    }
    if let Some(l) = seq_obj(v) {
        return l.with_items(|xs| try_copy_items(xs, "copy of a list"));
    }
    if let Some(d) = dict_of(v) {
        return Ok(d.keys());
    }
    if let Some(s) = set_of(v) {
        return Ok(s.items());
    }
    if let Some(items) = super::deque_ops::snapshot(v) {
        return Ok(items);
    }
    // A value per character or byte: 16 times the text's size for ASCII, so the room is asked
    // for up front, and refused as a `MemoryError`.
    let mut items = Vec::new();
    match v {
        Value::Str(s) => {
            try_reserve_items(&mut items, s.chars().count(), "list of characters")?;
            items.extend(s.chars().map(AnyValue::from_char));
        }
        Value::UStr(u) => {
            try_reserve_items(&mut items, u.len(), "list of characters")?;
            items.extend(u.iter().map(|&c| AnyValue::from_char_ucs4(c)));
        }
        Value::Bytes(b) => {
            try_reserve_items(&mut items, b.len(), "list of bytes")?;
            items.extend(b.iter().map(|&x| AnyValue::from_int(x as i64)));
        }
        _ => return Err(type_error(format!("'{}' object is not iterable", vname(v)))),
    }
    Ok(items)
}

/// `dict.update(src)` / `dict(src)`: from a dict, or from an iterable of 2-item sequences.
pub(crate) fn dict_update_from(d: &mut Dict, src: Value<'_>) -> Result<()> {
    if let Some(other) = dict_of(src) {
        for (k, v) in other.items() {
            d.try_set(k, v, "dict.update()")?;
        }
        return Ok(());
    }
    for (i, el) in iter_items(src)?.iter().enumerate() {
        let pair = match el.value() {
            Value::Str(_) | Value::UStr(_) | Value::Bytes(_) => iter_items(el.value())?,
            // Any iterable of two: a dict's two keys make a pair too, as in CPython.
            x => match (seq_obj(x), dict_of(x)) {
                (Some(l), _) => l.with_items(<[AnyValue]>::to_vec),
                (None, Some(d)) => d.keys(),
                (None, None) => {
                    return Err(type_error(format!(
                        "cannot convert dictionary update sequence element #{i} to a sequence"
                    )));
                }
            },
        };
        let [k, v] = <[AnyValue; 2]>::try_from(pair).map_err(|p| {
            value_error(format!("dictionary update sequence element #{i} has length {}; 2 is required", p.len()))
        })?;
        check_hashable(k.value())?;
        d.try_set(k, v, "dict.update()")?;
    }
    Ok(())
}

// ---------------------------------------------------------------- truthiness and unary

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
            _ => super::deque_ops::deque_of(x).is_none_or(|d| !d.is_empty()),
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
        _ => super::counter::counter_unary(op, x)
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
            Ok(text_slot(&super::format::percent_format(fmt, b)?, fmt.is_ucs4()))
        }
        _ => match super::counter::counter_binary(op, x, y) {
            Some(result) => result,
            None => match super::deque_ops::binary(op, x, y) {
                Some(result) => result,
                None => seq_binary(op, x, y),
            },
        },
    }
}

fn is_bitwise(op: BinOp) -> bool {
    matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::LShift | BinOp::RShift)
}

fn unsupported(op: BinOp, x: Value<'_>, y: Value<'_>) -> Error {
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
    use super::true_div::int_true_div;
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

// ---------------------------------------------------------------- sequences

fn is_sequence(v: Value<'_>) -> bool {
    matches!(v, Value::Str(_) | Value::UStr(_) | Value::Bytes(_)) || seq_obj(v).is_some()
}

/// A new sequence of `items` of the same kind as `like`: a tuple for a tuple, else a list.
pub(crate) fn same_kind(like: Value<'_>, items: Vec<AnyValue>) -> Slot {
    match is_tuple(like) {
        true => Tuple::from_vec(items).into(),
        false => List::from_vec(items).into(),
    }
}

fn seq_binary(op: BinOp, x: Value<'_>, y: Value<'_>) -> Result<Slot> {
    if let Some(result) = set_ops::binary(op, x, y) {
        return result;
    }
    match op {
        BinOp::Add => match (x, y) {
            (Value::Str(_) | Value::UStr(_), _) => match (Text::of(x), Text::of(y)) {
                (Some(p), Some(q)) => concat_text(p, q),
                _ => Err(type_error(format!("can only concatenate str (not \"{}\") to str", vname(y)))),
            },
            (Value::Bytes(p), Value::Bytes(q)) => Slot::try_concat_bytes(&[p, q])
                .ok_or_else(|| Error::out_of_memory("bytes +", p.len().saturating_add(q.len()))),
            (Value::Bytes(_), _) => Err(type_error(format!("can't concat {} to bytes", vname(y)))),
            _ => match (seq_obj(x), seq_obj(y)) {
                (Some(p), Some(q)) if is_tuple(x) == is_tuple(y) => {
                    let mut items = p.with_items(|xs| try_copy_items(xs, "list +"))?;
                    q.with_items(|ys| {
                        try_reserve_items(&mut items, ys.len(), "list +").map(|()| items.extend_from_slice(ys))
                    })?;
                    Ok(same_kind(x, items))
                }
                (Some(_), _) => {
                    let kind = vname(x);
                    Err(type_error(format!("can only concatenate {kind} (not \"{}\") to {kind}", vname(y))))
                }
                _ => Err(unsupported(op, x, y)),
            },
        },
        BinOp::Mul => {
            let (seq, n) = if is_sequence(x) {
                (x, y)
            } else if is_sequence(y) {
                (y, x)
            } else {
                return Err(unsupported(op, x, y));
            };
            let Some(n) = n.as_int() else {
                return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(n))));
            };
            repeat(seq, n)
        }
        BinOp::BitOr => match (dict_of(x), dict_of(y)) {
            (Some(p), Some(q)) => {
                let mut d = Dict::with_kind(super::ordered_dict::union_kind(p.kind(), q.kind()));
                d.extend(p.items());
                d.extend(q.items());
                Ok(d.into())
            }
            _ => Err(unsupported(op, x, y)),
        },
        _ => Err(unsupported(op, x, y)),
    }
}

fn concat_text(p: Text<'_>, q: Text<'_>) -> Result<Slot> {
    match (p, q) {
        (Text::Utf8(a), Text::Utf8(b)) => {
            Slot::try_concat_text(a, b).ok_or_else(|| Error::out_of_memory("str +", a.len() + b.len()))
        }
        // Either side UCS4: the result stays UCS4 so that indexing it is O(1).
        _ => {
            let n = p.char_len() + q.char_len();
            Slot::try_from_char_iter(n, p.chars().chain(q.chars()))
                .ok_or_else(|| Error::out_of_memory("str +", n.saturating_mul(4)))
        }
    }
}

/// Results longer than this are refused as `MemoryError`s without asking the allocator: a
/// request within the machine's overcommit would be granted and then filled until the
/// process is killed. Below it, a refused allocation is a `MemoryError` too.
pub(crate) const MAX_RESULT_BYTES: usize = 1 << 34;

fn repeat(seq: Value<'_>, n: i64) -> Result<Slot> {
    let n = n.max(0) as usize;
    let refused = |what: &str, bytes: usize| Error::out_of_memory(what, bytes);
    // As CPython: text whose length (in characters) times `n` overflows a signed size is an
    // `OverflowError`; any other result too large is a `MemoryError`. Returns the bytes needed.
    // The characters are counted only for a result already too large (never more than bytes).
    let text_bytes = |chars: &dyn Fn() -> usize, bytes: usize, what: &str| -> Result<usize> {
        let total = bytes.saturating_mul(n);
        if total <= MAX_RESULT_BYTES {
            return Ok(total);
        }
        if chars().checked_mul(n).is_none_or(|c| c > i64::MAX as usize) {
            return Err(Error::new(ErrorKind::Overflow, format!("{what} is too long")));
        }
        Err(refused(what, total))
    };
    match seq {
        Value::Str(s) => {
            let bytes = text_bytes(&|| s.chars().count(), s.len(), "repeated string")?;
            Slot::try_repeat_text(s, n).ok_or_else(|| refused("repeated string", bytes))
        }
        Value::UStr(u) => {
            let bytes = text_bytes(&|| u.len(), u.len() * 4, "repeated string")?;
            Slot::try_repeat_chars(u, n).ok_or_else(|| refused("repeated string", bytes))
        }
        Value::Bytes(b) => {
            let bytes = text_bytes(&|| b.len(), b.len(), "repeated bytes")?;
            Slot::try_repeat_bytes(b, n).ok_or_else(|| refused("repeated bytes", bytes))
        }
        _ => {
            let items = seq_obj(seq).map(|l| l.with_items(<[AnyValue]>::to_vec)).unwrap_or_default();
            let Some(bytes) = items.len().checked_mul(n).and_then(|k| k.checked_mul(16)) else {
                return Err(Error::new(ErrorKind::Memory, "repeated list: its size overflows"));
            };
            if bytes > MAX_RESULT_BYTES {
                return Err(refused("repeated list", bytes));
            }
            let total = items.len() * n;
            let mut out = Vec::new();
            out.try_reserve_exact(total).map_err(|_| refused("repeated list", bytes))?;
            // Doubling what is there: log2(n) copies, not n, so `[0] * 10**6` is 20 copies and
            // `[] * 2**62` none (it looped 2**62 times).
            if total > 0 {
                out.extend_from_slice(&items);
            }
            while out.len() < total {
                let more = (total - out.len()).min(out.len());
                out.extend_from_within(..more);
            }
            Ok(same_kind(seq, out))
        }
    }
}

// ---------------------------------------------------------------- comparison

/// `a op b` for `== != < <= > >= in not in is is not`, with Python's rules and errors.
pub fn compare(op: CmpOp, a: AnyView<'_>, b: AnyView<'_>) -> Result<bool> {
    match op {
        CmpOp::Eq => Ok(py_eq(a.value(), b.value())),
        CmpOp::NotEq => Ok(!py_eq(a.value(), b.value())),
        CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE => rich_order(op, a.value(), b.value()),
        CmpOp::In => contains(b, a),
        CmpOp::NotIn => contains(b, a).map(|r| !r),
        CmpOp::Is => Ok(is_same(a.value(), b.value())),
        CmpOp::IsNot => Ok(!is_same(a.value(), b.value())),
    }
}

/// Python `==`: numbers exactly across int/float (NaN unequal to itself), everything else by value.
pub(crate) fn py_eq(x: Value<'_>, y: Value<'_>) -> bool {
    match (num(x), num(y)) {
        (Some(p), Some(q)) => num_cmp(p, q) == Some(Ordering::Equal),
        _ => values_equal(x, y, 0),
    }
}

/// Python `<`, for sorting and `min`.
pub(crate) fn py_lt(x: Value<'_>, y: Value<'_>) -> Result<bool> {
    rich_order(CmpOp::Lt, x, y)
}

/// Python `>`, for `max` (CPython asks `item > best`, which its error message shows).
pub(crate) fn py_gt(x: Value<'_>, y: Value<'_>) -> Result<bool> {
    rich_order(CmpOp::Gt, x, y)
}

pub(crate) fn num_cmp(p: Num, q: Num) -> Option<Ordering> {
    match (p, q) {
        (Num::Int(i), Num::Int(j)) => Some(i.cmp(&j)),
        (Num::Float(f), Num::Float(g)) => f.partial_cmp(&g),
        (Num::Int(i), Num::Float(f)) => int_float_cmp(i, f),
        (Num::Float(f), Num::Int(i)) => int_float_cmp(i, f).map(Ordering::reverse),
    }
}

/// Compares an int with a float exactly, as CPython does (no rounding of the int).
fn int_float_cmp(i: i64, f: f64) -> Option<Ordering> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() {
        return None;
    }
    if f >= TWO_63 {
        return Some(Ordering::Less);
    }
    if f < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let t = f.trunc();
    Some(i.cmp(&(t as i64)).then(t.partial_cmp(&f).unwrap_or(Ordering::Equal)))
}

fn apply_order(op: CmpOp, ord: Ordering) -> bool {
    match op {
        CmpOp::Lt => ord.is_lt(),
        CmpOp::LtE => ord.is_le(),
        CmpOp::Gt => ord.is_gt(),
        _ => ord.is_ge(),
    }
}

fn rich_order(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Result<bool> {
    if let (Some(p), Some(q)) = (num(x), num(y)) {
        // Every order comparison with NaN is false.
        return Ok(num_cmp(p, q).is_some_and(|o| apply_order(op, o)));
    }
    let ord = match (x, y) {
        (Value::Str(p), Value::Str(q)) => p.cmp(q), // UTF-8 byte order is code point order
        (Value::Str(_) | Value::UStr(_), Value::Str(_) | Value::UStr(_)) => {
            Text::of(x).unwrap().chars().cmp(Text::of(y).unwrap().chars())
        }
        (Value::Bytes(p), Value::Bytes(q)) => p.cmp(q),
        _ => match (seq_obj(x), seq_obj(y)) {
            (Some(p), Some(q)) if is_tuple(x) == is_tuple(y) => return list_order(op, p, q),
            _ if let Some(subset) = set_ops::order(op, x, y) => return Ok(subset),
            _ if let Some(included) = super::counter::counter_order(op, x, y) => return included,
            _ if let Some(ordered) = super::deque_ops::order(op, x, y) => return ordered,
            _ => {
                return Err(type_error(format!(
                    "'{}' not supported between instances of '{}' and '{}'",
                    op.symbol(),
                    vname(x),
                    vname(y)
                )));
            }
        },
    };
    Ok(apply_order(op, ord))
}

/// Lexicographic, as lists compare: the first unequal items decide, else the lengths.
fn list_order(op: CmpOp, p: &ListObj, q: &ListObj) -> Result<bool> {
    p.with_items(|xs| q.with_items(|ys| items_order(op, xs, ys)))
}

/// [`list_order`] of items in hand (a deque's).
pub(crate) fn items_order(op: CmpOp, xs: &[AnyValue], ys: &[AnyValue]) -> Result<bool> {
    for (a, b) in xs.iter().zip(ys) {
        if !values_equal(a.value(), b.value(), 0) {
            return rich_order(op, a.value(), b.value());
        }
    }
    Ok(apply_order(op, xs.len().cmp(&ys.len())))
}

/// `is`: identity for containers and other objects, same type and value for scalars and strings.
fn is_same(x: Value<'_>, y: Value<'_>) -> bool {
    match (x, y) {
        (Value::Object(p), Value::Object(q)) => p == q,
        (Value::Object(_), _) | (_, Value::Object(_)) => false,
        _ => same_plain_type(x, y) && values_equal(x, y, 0),
    }
}

/// Whether two values that are not objects have the same Python type (a UTF-8 and a UCS4
/// string are both `str`), without naming it.
fn same_plain_type(x: Value<'_>, y: Value<'_>) -> bool {
    match (x, y) {
        (Value::Str(_) | Value::UStr(_), Value::Str(_) | Value::UStr(_)) => true,
        (Value::Pod(..), Value::Pod(..)) => vname(x) == vname(y),
        _ => std::mem::discriminant(&x) == std::mem::discriminant(&y),
    }
}

/// `item in container`: substring for str and bytes, item for list, key for dict.
pub fn contains(container: AnyView<'_>, item: AnyView<'_>) -> Result<bool> {
    // A set first, before anything is decoded: `w in STOPWORDS` is the hot case.
    if let Some(s) = container.as_obj().filter(|o| o.type_index() == ti::SET).and_then(|o| o.downcast_ref::<SetObj>()) {
        return s.contains(item);
    }
    // `w in counts`: a text key is hashable, and is looked up as it stands.
    if let Some(d) = dict_in_view(&container).filter(|_| item.as_str().is_some()) {
        return Ok(d.contains_key(item));
    }
    let (c, x) = (container.value(), item.value());
    match c {
        Value::Str(_) | Value::UStr(_) => match Text::of(x) {
            Some(needle) => Ok(text_contains(Text::of(c).unwrap(), needle)),
            None => Err(type_error(format!("'in <string>' requires string as left operand, not {}", vname(x)))),
        },
        Value::Bytes(h) => match x {
            Value::Bytes(n) => Ok(memchr::memmem::find(h, n).is_some()),
            Value::Int(_) | Value::Bool(_) => {
                let b = x.as_int().unwrap_or_default();
                let b = u8::try_from(b).map_err(|_| value_error("byte must be in range(0, 256)"))?;
                Ok(h.contains(&b))
            }
            _ => Err(type_error(format!("a bytes-like object is required, not '{}'", vname(x)))),
        },
        _ => {
            // By type index, and on the object where it stands: no handle (two atomic counts)
            // is made for a membership test.
            if let Some(l) = seq_obj(c) {
                // Text against text as bytes, without decoding each item (`w in stopwords`).
                let text = item.as_str();
                let equal = |v: &AnyValue| text_first_equal(v.as_str(), text, || values_equal(v.value(), x, 0));
                return Ok(l.with_items(|xs| xs.iter().any(equal)));
            }
            if let Some(d) = dict_obj(c) {
                check_hashable(x)?;
                return Ok(d.contains_key(item));
            }
            if let Some(items) = super::deque_ops::snapshot(c) {
                return Ok(items.iter().any(|v| py_eq(v.value(), x)));
            }
            if let Some(g) = super::generator::generator_of(c) {
                // Items are taken up to the first equal one, as CPython's `in` takes them.
                while let Some(v) = g.next()? {
                    if py_eq(v.value(), x) {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            Err(type_error(format!("argument of type '{}' is not iterable", vname(c))))
        }
    }
}

fn text_contains(hay: Text<'_>, needle: Text<'_>) -> bool {
    match (hay, needle) {
        (Text::Utf8(h), n) => h.contains(&*n.as_str()),
        (Text::Ucs4(h), n) => {
            let n = n.to_chars();
            n.is_empty() || h.windows(n.len()).any(|w| w == &*n)
        }
    }
}

// ---------------------------------------------------------------- indexing and slicing

/// A Python index normalised against `len`, or `None` when out of range.
pub(crate) fn norm_index(i: i64, len: usize) -> Option<usize> {
    let n = len as i64;
    let j = if i < 0 { i + n } else { i };
    (0..n).contains(&j).then_some(j as usize)
}

/// The code point at index `i` of a UTF-8 string.
///
/// O(i) (O(len - i) for negative indices): an ASCII prefix is checked with a vectorised scan,
/// anything else walks the characters. Strings that are indexed a lot should be UCS4.
fn utf8_char_at(s: &str, i: i64) -> Option<char> {
    let b = s.as_bytes();
    if i >= 0 {
        let i = usize::try_from(i).ok()?;
        if i < b.len() && b[..=i].is_ascii() {
            return Some(b[i] as char);
        }
        s.chars().nth(i)
    } else {
        let k = usize::try_from(-(i + 1)).ok()?;
        if k < b.len() && b[b.len() - 1 - k..].is_ascii() {
            return Some(b[b.len() - 1 - k] as char);
        }
        s.chars().rev().nth(k)
    }
}

/// `obj[key]`: list and str by int (negative counts from the end), dict by key, bytes to an int.
///
/// A str item is a one-character str in the receiver's encoding, always inline (no allocation).
pub fn get_item(obj: AnyView<'_>, key: AnyView<'_>) -> Result<Slot> {
    let (o, k) = (obj.value(), key.value());
    let str_index =
        || k.as_int().ok_or_else(|| type_error(format!("string indices must be integers, not '{}'", vname(k))));
    match o {
        Value::Str(s) => {
            let i = str_index()?;
            // An ASCII heap string (as many characters as bytes, a count it keeps) is indexed
            // by byte, in O(1).
            if s.len() > 64 && obj.char_count() == Some(s.len()) {
                let at = norm_index(i, s.len()).ok_or_else(|| index_error("string index out of range"))?;
                return Ok(Slot::from_char(s.as_bytes()[at] as char));
            }
            // A long non-ASCII one walks from the mark before the character.
            if let Some(marks) = super::char_marks::marks_of(&obj, s) {
                let n = obj.char_count().unwrap_or_else(|| marks.chars());
                let at = norm_index(i, n).ok_or_else(|| index_error("string index out of range"))?;
                let c = s[marks.byte_of(s, at)..].chars().next();
                return c.map(Slot::from_char).ok_or_else(|| index_error("string index out of range"));
            }
            utf8_char_at(s, i).map(Slot::from_char).ok_or_else(|| index_error("string index out of range"))
        }
        Value::UStr(u) => norm_index(str_index()?, u.len())
            .map(|i| Slot::from_char_ucs4(u[i]))
            .ok_or_else(|| index_error("string index out of range")),
        Value::Bytes(b) => {
            let i = k
                .as_int()
                .ok_or_else(|| type_error(format!("byte indices must be integers or slices, not {}", vname(k))))?;
            norm_index(i, b.len()).map(|i| Slot::from_int(b[i] as i64)).ok_or_else(|| index_error("index out of range"))
        }
        _ => {
            if let Some(l) = seq_obj(o) {
                let kind = vname(o);
                let i = k.as_int().ok_or_else(|| {
                    type_error(format!("{kind} indices must be integers or slices, not {}", vname(k)))
                })?;
                let item = l.with_items(|xs| norm_index(i, xs.len()).map(|i| xs[i].clone()));
                return item.map(Slot::from).ok_or_else(|| index_error(format!("{kind} index out of range")));
            }
            if let Some(d) = dict_of(o) {
                check_hashable(k)?;
                if let Some(v) = d.get(key) {
                    return Ok(v.into());
                }
                return super::counter::missing(&d, key)?.map(Slot::from).ok_or_else(|| key_error(key));
            }
            if let Some(d) = super::deque_ops::deque_of(o) {
                return super::deque_ops::get_item(d, k);
            }
            if let Some(m) = crate::ops::re::match_of(o) {
                // `m[1]` is `m.group(1)`.
                return m.group(&[key]).map(AnyValue::resize);
            }
            Err(type_error(format!("'{}' object is not subscriptable", vname(o))))
        }
    }
}

/// `obj[key] = value` for lists (in range) and dicts; the change is seen through every handle.
pub fn set_item(obj: AnyView<'_>, key: AnyView<'_>, value: AnyView<'_>) -> Result<()> {
    // On the dict where it stands: no handle (two atomic counts) is made for `d[k] = v`, and
    // nothing is decoded for a text key, which is hashable.
    if let Some(d) = dict_in_view(&obj) {
        check_key_hashable(&key)?;
        let replaced = d.try_set(key.to_owned::<0>(), value.to_owned::<0>(), "dict item")?;
        drop(replaced);
        return Ok(());
    }
    let (o, k) = (obj.value(), key.value());
    if let Some(mut l) = list_of(o) {
        let i = k
            .as_int()
            .ok_or_else(|| type_error(format!("list indices must be integers or slices, not {}", vname(k))))?;
        let i = norm_index(i, l.len()).ok_or_else(|| index_error("list assignment index out of range"))?;
        return l.set(i as i64, value.to_owned::<0>());
    }
    if let Some(d) = super::deque_ops::deque_of(o) {
        return super::deque_ops::set_item(d, k, value.to_owned::<0>());
    }
    Err(type_error(format!("'{}' object does not support item assignment", vname(o))))
}

/// `del obj[key]` for a list's item or a dict's key, with CPython's errors.
pub fn del_item(obj: AnyView<'_>, key: AnyView<'_>) -> Result<()> {
    let (o, k) = (obj.value(), key.value());
    if let Some(mut l) = list_of(o) {
        let i = k
            .as_int()
            .ok_or_else(|| type_error(format!("list indices must be integers or slices, not {}", vname(k))))?;
        // The index is resolved under the list's lock; the item is dropped after it is released,
        // in case it is a list too.
        let removed = l.with_items_mut(|items| norm_index(i, items.len()).map(|i| items.remove(i)));
        return removed.map(drop).ok_or_else(|| index_error("list assignment index out of range"));
    }
    if let Some(mut d) = dict_of(o) {
        check_hashable(k)?;
        return d.remove(key).map(drop).ok_or_else(|| key_error(key));
    }
    if let Some(d) = super::deque_ops::deque_of(o) {
        return super::deque_ops::del_item(d, k);
    }
    // A type with sequence methods given an int says "doesn't", anything else "does not"
    // (CPython's two paths); a set has them too, for `in`.
    let sequence = matches!(o, Value::Str(_) | Value::UStr(_) | Value::Bytes(_))
        || is_tuple(o)
        || super::set_ops::set_of(o).is_some();
    Err(type_error(match sequence && matches!(k, Value::Int(_) | Value::Bool(_)) {
        true => format!("'{}' object doesn't support item deletion", vname(o)),
        false => format!("'{}' object does not support item deletion", vname(o)),
    }))
}

/// Resolved slice: first index, step and number of items (CPython's `PySlice_AdjustIndices`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SliceSpan {
    /// The first index selected.
    pub(crate) start: i64,
    /// The distance between selected indices.
    pub(crate) step: i64,
    /// How many indices are selected.
    pub(crate) count: usize,
}

impl SliceSpan {
    /// Resolves `[lower:upper:step]` against a sequence of `len` items; `step != 0`.
    pub(crate) fn new(lower: Option<i64>, upper: Option<i64>, step: i64, len: usize) -> Self {
        let step = step.max(-i64::MAX);
        let n = len as i64;
        let clamp = |v: i64| {
            if v < 0 {
                let v = v + n;
                if v < 0 { if step < 0 { -1 } else { 0 } } else { v }
            } else if v >= n {
                if step < 0 { n - 1 } else { n }
            } else {
                v
            }
        };
        let (start, stop) = if step < 0 { (n - 1, -1) } else { (0, n) };
        let start = lower.map_or(start, clamp);
        let stop = upper.map_or(stop, clamp);
        let count = if step < 0 {
            if stop < start { (start - stop - 1) / -step + 1 } else { 0 }
        } else if start < stop {
            (stop - start - 1) / step + 1
        } else {
            0
        };
        SliceSpan { start, step, count: count as usize }
    }

    /// The selected indices, in order.
    pub(crate) fn indices(self) -> impl Iterator<Item = usize> {
        (0..self.count as i64).map(move |k| (self.start + k * self.step) as usize)
    }

    /// The selected items of `xs`.
    pub(crate) fn pick<T: Clone>(self, xs: &[T]) -> Vec<T> {
        if self.step == 1 {
            let s = self.start as usize;
            return xs[s..s + self.count].to_vec();
        }
        self.indices().map(|i| xs[i].clone()).collect()
    }
}

pub(crate) fn slice_arg(v: &AnyView<'_>) -> Result<Option<i64>> {
    match v.value() {
        Value::None => Ok(None),
        x => x
            .as_int()
            .map(Some)
            .ok_or_else(|| type_error("slice indices must be integers or None or have an __index__ method")),
    }
}

/// Byte offset of code point `k` in `s` (`s.len()` when `k` is the length).
pub(crate) fn byte_of(s: &str, k: usize) -> usize {
    s.char_indices().nth(k).map_or(s.len(), |(b, _)| b)
}

/// `obj[lower:upper:step]` for str (by code point), list and bytes; `None` means omitted.
pub fn slice(obj: AnyView<'_>, lower: AnyView<'_>, upper: AnyView<'_>, step: AnyView<'_>) -> Result<Slot> {
    // CPython's order of checks: the receiver, then the step, then the bounds.
    let o = obj.value();
    if !matches!(o, Value::Str(_) | Value::UStr(_) | Value::Bytes(_)) && seq_obj(o).is_none() {
        // A dict looks the slice up as a key, which CPython 3.11 cannot hash.
        if dict_obj(o).is_some() {
            return Err(type_error("unhashable type: 'slice'"));
        }
        if super::deque_ops::deque_of(o).is_some() {
            return Err(type_error("sequence index must be integer, not 'slice'"));
        }
        return Err(type_error(format!("'{}' object is not subscriptable", vname(o))));
    }
    let step = slice_arg(&step)?.unwrap_or(1);
    if step == 0 {
        return Err(value_error("slice step cannot be zero"));
    }
    let (lo, hi) = (slice_arg(&lower)?, slice_arg(&upper)?);
    match o {
        Value::Str(s) => {
            // Counted once; a heap string keeps its count, so knows it is ASCII without a scan.
            let n = obj.char_count().unwrap_or_else(|| s.chars().count());
            if n == s.len() {
                // An ASCII string slices by byte.
                let span = SliceSpan::new(lo, hi, step, n);
                return Ok(Slot::from_text(std::str::from_utf8(&span.pick(s.as_bytes())).unwrap_or_default()));
            }
            let span = SliceSpan::new(lo, hi, step, n);
            if span.step == 1 {
                // A long text walks from the marks before its ends, a short one from its start.
                let (b0, b1) = match super::char_marks::marks_of(&obj, s) {
                    Some(marks) => {
                        (marks.byte_of(s, span.start as usize), marks.byte_of(s, span.start as usize + span.count))
                    }
                    None => {
                        let b0 = byte_of(s, span.start as usize);
                        (b0, b0 + byte_of(&s[b0..], span.count))
                    }
                };
                return Ok(Slot::from_text(&s[b0..b1]));
            }
            let chars: Vec<char> = s.chars().collect();
            Ok(Slot::from_text(&span.pick(&chars).into_iter().collect::<String>()))
        }
        Value::UStr(u) => Ok(Slot::from_chars(&SliceSpan::new(lo, hi, step, u.len()).pick(u))),
        Value::Bytes(b) => Ok(Slot::from_bytes(&SliceSpan::new(lo, hi, step, b.len()).pick(b))),
        _ => match seq_obj(o) {
            Some(l) => Ok(same_kind(o, l.with_items(|xs| SliceSpan::new(lo, hi, step, xs.len()).pick(xs)))),
            None => Err(type_error(format!("'{}' object is not subscriptable", vname(o)))),
        },
    }
}

/// `len(v)`: code points for str, items for list and dict, bytes for bytes.
pub fn len(v: AnyView<'_>) -> Result<i64> {
    let x = v.value();
    let n = match x {
        // A heap string keeps its count once counted.
        Value::Str(s) => v.char_count().unwrap_or_else(|| s.chars().count()),
        Value::UStr(u) => u.len(),
        Value::Bytes(b) => b.len(),
        _ => match (seq_obj(x), x.as_obj().filter(|o| o.type_index() == ti::DICT)) {
            (Some(l), _) => l.len(),
            (None, Some(o)) => o.downcast_ref::<DictObj>().map_or(0, DictObj::len),
            _ if let Some(s) = set_of(x) => s.len(),
            _ if let Some(d) = super::deque_ops::deque_of(x) => d.len(),
            _ => return Err(type_error(format!("object of type '{}' has no len()", vname(x)))),
        },
    };
    Ok(n as i64)
}

// ---------------------------------------------------------------- str() and repr()

/// Python `str(v)`: text as is, everything else as its repr; a `MemoryError` when the allocator
/// refuses the text.
pub fn to_str(v: AnyView<'_>) -> Result<String> {
    match v.value() {
        Value::Str(s) => Ok(s.to_owned()),
        Value::UStr(u) => Ok(u.iter().collect()),
        other if let Some(e) = super::exception_value::exception_of(other) => Ok(e.message().to_string()),
        other => try_repr_value(other),
    }
}

/// Python `repr()` of a decoded value (floats as `1e+16`, strings escaped as CPython does), or
/// a `MemoryError` when the allocator refuses the text.
pub(crate) fn try_repr_value(v: Value<'_>) -> Result<String> {
    let mut out = ReprOut::default();
    write_repr(&mut out, v, &mut Vec::new());
    match out.refused {
        Some(bytes) => Err(Error::out_of_memory("repr()", bytes)),
        None => Ok(out.text),
    }
}

/// [`try_repr_value`] for error messages: a repr the allocator refuses is cut short with `...`.
pub(crate) fn repr_value(v: Value<'_>) -> String {
    let mut out = ReprOut::default();
    write_repr(&mut out, v, &mut Vec::new());
    if out.refused.is_some() {
        out.text.push_str("...");
    }
    out.text
}

/// A repr being written, whose growth the allocator may refuse.
///
/// Rationale: a repr can be far larger than its value (`[s] * 1000` of a 1 MB `s` prints a
/// gigabyte), and `String`'s own growth aborts the process when the allocator refuses; here a
/// refusal stops the writing and is reported instead.
#[derive(Default)]
struct ReprOut {
    text: String,
    /// The length the text needed when the allocator refused it.
    refused: Option<usize>,
}

impl ReprOut {
    /// Makes room for `additional` more bytes up front (a string's repr is at least as long as
    /// the string), so that a repr too large for memory is refused before it is written.
    fn reserve(&mut self, additional: usize) {
        if self.refused.is_none() && self.text.try_reserve(additional).is_err() {
            self.refused = Some(self.text.len().saturating_add(additional));
        }
    }

    fn push_str(&mut self, s: &str) {
        let _ = fmt::Write::write_str(self, s);
    }

    fn push(&mut self, c: char) {
        let _ = fmt::Write::write_char(self, c);
    }
}

impl fmt::Write for ReprOut {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.refused.is_some() {
            return Err(fmt::Error);
        }
        if self.text.try_reserve(s.len()).is_err() {
            self.refused = Some(self.text.len().saturating_add(s.len()));
            return Err(fmt::Error);
        }
        self.text.push_str(s);
        Ok(())
    }
}

/// Writes a repr; `seen` holds the containers being printed, so cycles print as `[...]`.
fn write_repr(out: &mut ReprOut, v: Value<'_>, seen: &mut Vec<usize>) {
    // Once the allocator has refused, nothing more is written: skip the work of formatting it.
    if out.refused.is_some() {
        return;
    }
    match v {
        Value::None => out.push_str("None"),
        Value::Bool(b) => out.push_str(if b { "True" } else { "False" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => {
            let _ = write_float_repr(out, f);
        }
        Value::Str(s) => {
            out.reserve(s.len().saturating_add(2));
            if out.refused.is_none() {
                let _ = write_utf8_str_repr(out, s);
            }
        }
        Value::UStr(u) => {
            let _ = write_str_repr(out, u.iter().copied());
        }
        Value::Bytes(b) => {
            let _ = write_bytes_repr(out, b);
        }
        Value::Object(o) if o.type_index() == ti::SET => {
            // Sets hold no container but lists (tuples), so they cannot contain themselves.
            let items = set_of(v).map(|s| s.items()).unwrap_or_default();
            if items.is_empty() {
                return out.push_str("set()");
            }
            write_items(out, ("{", "}"), &items, seen);
        }
        Value::Object(o)
            if matches!(o.type_index(), ti::LIST | ti::TUPLE | ti::DICT) || super::deque_ops::deque_of(v).is_some() =>
        {
            let addr = o.as_raw().as_ptr() as usize;
            if seen.contains(&addr) || seen.len() >= MAX_DEPTH {
                out.push_str(match o.type_index() {
                    ti::LIST => "[...]",
                    ti::TUPLE => "(...)",
                    // An OrderedDict's repr is a call, which CPython's recursion guard elides.
                    _ if super::ordered_dict::is_ordered(v) => "...",
                    ti::DICT => "{...}",
                    // CPython's guard writes a deque inside itself as `[...]`.
                    _ => "[...]",
                });
                return;
            }
            seen.push(addr);
            if let Some(l) = list_obj(v) {
                l.with_items(|xs| write_items(out, ("[", "]"), xs, seen));
            } else if let Some(t) = seq_obj(v) {
                // A tuple: `(x,)` for one item, so that it reads back as a tuple.
                t.with_items(|xs| write_items(out, ("(", if xs.len() == 1 { ",)" } else { ")" }), xs, seen));
            } else if let Some(d) = dict_of(v) {
                write_dict_repr(out, &d, seen);
            } else if let Some(d) = super::deque_ops::deque_of(v) {
                out.push_str("deque(");
                write_items(out, ("[", "]"), &d.to_vec(), seen);
                if let Some(max) = d.maxlen() {
                    let _ = write!(out, ", maxlen={max}");
                }
                out.push(')');
            }
            seen.pop();
        }
        Value::Object(o) if let Some(g) = super::generator::generator_of(v) => {
            if let Some(items) = g.foreign_items() {
                return out.push_str(&items.repr());
            }
            let addr = o.as_raw().as_ptr() as usize;
            let _ = match g.type_name() {
                "generator" => write!(out, "<generator object {} at {addr:#x}>", g.name()),
                iterator => write!(out, "<{iterator} object at {addr:#x}>"),
            };
        }
        Value::Object(_) if let Some(text) = super::type_checks::function_repr(v) => out.push_str(&text),
        Value::Object(_) if let Some(e) = super::exception_value::exception_of(v) => out.push_str(&e.repr()),
        _ => {
            let _ = write!(out, "{:?}", OtherRepr(v));
        }
    }
}

/// A dict's repr, or a Counter's, defaultdict's or OrderedDict's (`Counter({'a': 2})`,
/// `OrderedDict([('a', 2)])`).
fn write_dict_repr(out: &mut ReprOut, d: &Dict, seen: &mut Vec<usize>) {
    match d.kind() {
        DictKind::Counter if d.is_empty() => return out.push_str("Counter()"),
        DictKind::Ordered if d.is_empty() => return out.push_str("OrderedDict()"),
        DictKind::Ordered => {
            // `OrderedDict(list(od.items()))`, as CPython 3.11 writes it.
            out.push_str("OrderedDict([");
            for (i, (k, x)) in d.items().iter().enumerate() {
                out.push_str(if i > 0 { ", (" } else { "(" });
                write_repr(out, k.value(), seen);
                out.push_str(", ");
                write_repr(out, x.value(), seen);
                out.push(')');
            }
            return out.push_str("])");
        }
        _ => {}
    }
    match super::counter::repr_prefix_and_entries(d) {
        None => write_entries(out, d, seen),
        Some((prefix, entries)) => {
            out.push_str(&prefix);
            write_entries(out, &entries, seen);
            out.push(')');
        }
    }
}

/// `{k: v, ...}`.
fn write_entries(out: &mut ReprOut, d: &Dict, seen: &mut Vec<usize>) {
    out.push('{');
    for (i, (k, x)) in d.items().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_repr(out, k.value(), seen);
        out.push_str(": ");
        write_repr(out, x.value(), seen);
    }
    out.push('}');
}

/// The reprs of `items` between `brackets`, separated by ", " (a list's, a set's).
fn write_items(out: &mut ReprOut, (open, close): (&str, &str), items: &[AnyValue], seen: &mut Vec<usize>) {
    out.push_str(open);
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_repr(out, x.value(), seen);
    }
    out.push_str(close);
}

/// Falls back to the crate's repr for values Python has no literal for (NDArray, functions).
struct OtherRepr<'a>(Value<'a>);

impl fmt::Debug for OtherRepr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::any::write_repr(self.0, f, 0)
    }
}

// ---------------------------------------------------------------- sorting

/// Sorts like Python's `list.sort()`: stable, asking only `<`; on a failed comparison `items` is
/// left as CPython leaves its list, and the error returned.
pub(crate) fn sort_values(items: &mut Vec<AnyValue>) -> Result<()> {
    sort_by_python_lt(items, AnyValue::value, false)
}

/// Sorts `items` by `key`, stable, as CPython's `list.sort(reverse=...)` sorts them: a total
/// order (ints, UTF-8 strs, floats without NaN) by the standard library's sort, which gives the
/// same result, anything else by CPython's own algorithm (`timsort.rs`), whose comparisons
/// decide the result with a NaN and the error and the list left with an incomparable pair.
pub(crate) fn sort_by_python_lt<T>(items: &mut Vec<T>, key: fn(&T) -> Value<'_>, reverse: bool) -> Result<()> {
    let total = |cmp: fn(Value<'_>, Value<'_>) -> Ordering, items: &mut Vec<T>| {
        stable_sort(items, reverse, |a, b| cmp(key(a), key(b)));
    };
    if items.iter().all(|x| matches!(key(x), Value::Int(_) | Value::Bool(_))) {
        total(|a, b| a.as_int().cmp(&b.as_int()), items);
        return Ok(());
    }
    if items.iter().all(|x| matches!(key(x), Value::Str(_))) {
        total(|a, b| a.as_str().cmp(&b.as_str()), items);
        return Ok(());
    }
    if items.iter().all(|x| matches!(key(x), Value::Float(f) if !f.is_nan())) {
        total(|a, b| a.as_float().partial_cmp(&b.as_float()).unwrap_or(Ordering::Equal), items);
        return Ok(());
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    if let Some(rows) = super::sort_rows::rows_of(items, key) {
        stable_sort(&mut order, reverse, |&i, &j| super::sort_rows::compare_rows(&rows[i], &rows[j]));
        permute(items, &order);
        return Ok(());
    }
    let result = super::timsort::listsort(&mut order, &mut |i, j| py_lt(key(&items[i]), key(&items[j])), reverse);
    // The permutation applies after a failure too: CPython's list is left as its sort left it.
    permute(items, &order);
    result
}

/// Sorts `items` stably by a total order `cmp`, reversed as CPython reverses a sort: the
/// list reversed, sorted stably, reversed back (so equal items keep their order).
fn stable_sort<T>(items: &mut [T], reverse: bool, cmp: impl FnMut(&T, &T) -> Ordering) {
    if reverse {
        items.reverse();
    }
    items.sort_by(cmp);
    if reverse {
        items.reverse();
    }
}

/// Puts `items` in `order` (a permutation of their indices).
fn permute<T>(items: &mut Vec<T>, order: &[usize]) {
    let mut taken: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().map(|&i| taken[i].take().expect("the sort permutes the indices")));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::test_values::*;

    fn bin(op: BinOp, x: &Slot, y: &Slot) -> Result<Slot> {
        binary(op, x.view(), y.view())
    }
    fn rep(x: &Slot) -> String {
        repr_value(x.value())
    }
    fn err<T: fmt::Debug>(r: Result<T>) -> (ErrorKind, String) {
        let e = r.expect_err("expected an error");
        (e.kind(), e.message().to_owned())
    }
    /// Python's repr of the result of `x op y`.
    fn br(op: BinOp, x: Slot, y: Slot) -> String {
        rep(&bin(op, &x, &y).unwrap())
    }

    #[test]
    fn truthiness() {
        for v in [none(), b(false), i(0), f(0.0), f(-0.0), s(""), u(""), list(vec![]), dict(vec![])] {
            assert!(!truthy(v.view()), "{v:?}");
        }
        for v in [b(true), i(-1), f(f64::NAN), s("a"), u("é"), list(vec![none()]), dict(vec![(i(1), i(2))])] {
            assert!(truthy(v.view()), "{v:?}");
        }
        assert!(truthy(Slot::from_bytes(b"x").view()));
    }

    #[test]
    fn unary_ops() {
        let un = |op, v: Slot| unary(op, v.view()).map(|r| rep(&r));
        assert_eq!(un(UnaryOp::Neg, b(true)).unwrap(), "-1");
        assert_eq!(un(UnaryOp::Invert, b(true)).unwrap(), "-2");
        assert_eq!(un(UnaryOp::Invert, i(5)).unwrap(), "-6");
        assert_eq!(un(UnaryOp::Pos, b(true)).unwrap(), "1");
        assert_eq!(un(UnaryOp::Neg, f(0.0)).unwrap(), "-0.0");
        assert_eq!(un(UnaryOp::Not, s("")).unwrap(), "True");
        assert_eq!(un(UnaryOp::Not, list(vec![i(0)])).unwrap(), "False");
        assert_eq!(err(un(UnaryOp::Neg, s("a"))), (ErrorKind::Type, "bad operand type for unary -: 'str'".into()));
        assert_eq!(err(un(UnaryOp::Invert, f(1.5))), (ErrorKind::Type, "bad operand type for unary ~: 'float'".into()));
        assert_eq!(err(un(UnaryOp::Neg, i(i64::MIN))).0, ErrorKind::Overflow);
    }

    #[test]
    fn int_arithmetic() {
        use BinOp::*;
        assert_eq!(br(Add, i(2), i(3)), "5");
        assert_eq!(br(Sub, i(2), i(3)), "-1");
        assert_eq!(br(Mul, i(-4), i(3)), "-12");
        assert_eq!(br(Div, i(7), i(2)), "3.5");
        assert_eq!(br(Div, i(6), i(3)), "2.0");
        assert_eq!(br(FloorDiv, i(-7), i(2)), "-4");
        assert_eq!(br(FloorDiv, i(7), i(-2)), "-4");
        assert_eq!(br(FloorDiv, i(-7), i(-2)), "3");
        assert_eq!(br(Mod, i(-7), i(2)), "1");
        assert_eq!(br(Mod, i(7), i(-2)), "-1");
        assert_eq!(br(Mod, i(-6), i(3)), "0");
        assert_eq!(br(Mod, i(i64::MIN), i(-1)), "0");
        assert_eq!(br(Pow, i(2), i(10)), "1024");
        assert_eq!(br(Pow, i(0), i(0)), "1");
        assert_eq!(br(Pow, i(-1), i(1 << 40)), "1");
        assert_eq!(br(Pow, i(2), i(-1)), "0.5");
        assert_eq!(br(Pow, i(-2), i(-1)), "-0.5");
        assert_eq!(br(BitAnd, i(12), i(10)), "8");
        assert_eq!(br(BitOr, i(12), i(10)), "14");
        assert_eq!(br(BitXor, i(12), i(10)), "6");
        assert_eq!(br(LShift, i(1), i(62)), "4611686018427387904");
        assert_eq!(br(RShift, i(-9), i(1)), "-5");
        assert_eq!(br(RShift, i(-9), i(100)), "-1");
        assert_eq!(br(LShift, i(0), i(1000)), "0");
    }

    #[test]
    fn bool_arithmetic() {
        use BinOp::*;
        assert_eq!(br(Add, b(true), b(true)), "2");
        assert_eq!(br(BitAnd, b(true), b(false)), "False");
        assert_eq!(br(BitOr, b(true), i(2)), "3");
        assert_eq!(br(BitXor, b(true), b(true)), "False");
        assert_eq!(br(LShift, b(true), i(2)), "4");
        assert_eq!(br(Div, b(true), i(2)), "0.5");
        assert_eq!(br(Mul, b(true), s("ab")), "'ab'");
    }

    #[test]
    fn float_arithmetic() {
        use BinOp::*;
        assert_eq!(br(Add, i(1), f(2.5)), "3.5");
        assert_eq!(br(Add, f(0.1), f(0.2)), "0.30000000000000004");
        assert_eq!(br(FloorDiv, f(-7.5), i(2)), "-4.0");
        assert_eq!(br(Mod, f(-7.5), i(2)), "0.5");
        assert_eq!(br(Mod, f(7.5), i(-2)), "-0.5");
        assert_eq!(br(Mod, f(-0.0), i(5)), "0.0");
        assert_eq!(br(Mod, f(0.0), i(-5)), "-0.0");
        assert_eq!(br(Mod, i(5), f(f64::INFINITY)), "5.0");
        assert_eq!(br(Mod, i(-5), f(f64::INFINITY)), "inf");
        assert_eq!(br(Pow, i(2), f(0.5)), "1.4142135623730951");
        assert_eq!(br(Pow, f(-2.0), i(3)), "-8.0");
        assert_eq!(br(Pow, f(-1.0), f(f64::INFINITY)), "1.0");
        assert_eq!(br(Pow, f(f64::NAN), i(0)), "1.0");
        assert_eq!(br(Mul, f(1e308), i(10)), "inf");
    }

    #[test]
    fn arithmetic_errors() {
        use BinOp::*;
        let e = |op, x: Slot, y: Slot| err(bin(op, &x, &y));
        let v = |m: &str| (ErrorKind::Value, m.to_owned());
        let t = |m: &str| (ErrorKind::Type, m.to_owned());
        // CPython's classes: ZeroDivisionError, and OverflowError for float overflow; an int
        // result past i64 (a big int in CPython) is an OverflowError here.
        let z = |m: &str| (ErrorKind::ZeroDivision, m.to_owned());
        let o = |m: &str| (ErrorKind::Overflow, m.to_owned());
        assert_eq!(e(Div, i(1), i(0)), z("division by zero"));
        assert_eq!(e(Div, f(1.0), i(0)), z("float division by zero"));
        assert_eq!(e(FloorDiv, i(1), i(0)), z("integer division or modulo by zero"));
        assert_eq!(e(Mod, i(1), i(0)), z("integer modulo by zero"));
        assert_eq!(e(FloorDiv, f(1.0), f(0.0)), z("float floor division by zero"));
        assert_eq!(e(Mod, f(1.0), f(0.0)), z("float modulo"));
        assert_eq!(e(Pow, i(0), i(-1)), z("0.0 cannot be raised to a negative power"));
        assert_eq!(e(Pow, f(10.0), i(400)), o("(34, 'Numerical result out of range')"));
        assert_eq!(e(Pow, i(2), i(64)), o("integer overflow in **"));
        assert_eq!(e(Add, i(i64::MAX), i(1)), o("integer overflow in +"));
        assert_eq!(e(Mul, i(i64::MAX), i(2)), o("integer overflow in *"));
        assert_eq!(e(FloorDiv, i(i64::MIN), i(-1)), o("integer overflow in //"));
        assert_eq!(e(LShift, i(1), i(63)), o("integer overflow in <<"));
        assert_eq!(e(LShift, i(1), i(-1)), v("negative shift count"));
        assert_eq!(e(Pow, i(-8), f(0.5)).0, ErrorKind::Value);
        assert_eq!(e(Add, i(1), s("a")), t("unsupported operand type(s) for +: 'int' and 'str'"));
        assert_eq!(e(Add, s("a"), i(1)), t("can only concatenate str (not \"int\") to str"));
        assert_eq!(e(Add, list(vec![]), i(1)), t("can only concatenate list (not \"int\") to list"));
        assert_eq!(e(Mul, s("a"), f(1.5)), t("can't multiply sequence by non-int of type 'float'"));
        assert_eq!(e(Mul, s("a"), s("b")), t("can't multiply sequence by non-int of type 'str'"));
        assert_eq!(e(Sub, s("a"), s("b")), t("unsupported operand type(s) for -: 'str' and 'str'"));
        assert_eq!(e(BitAnd, f(1.0), i(1)), t("unsupported operand type(s) for &: 'float' and 'int'"));
        assert_eq!(e(Add, none(), i(1)), t("unsupported operand type(s) for +: 'NoneType' and 'int'"));
    }

    #[test]
    fn sequence_arithmetic() {
        use BinOp::*;
        assert_eq!(br(Add, s("ab"), s("cd")), "'abcd'");
        assert_eq!(br(Add, s("日本"), u("語")), "'日本語'");
        assert!(matches!(bin(Add, &s("a"), &u("b")).unwrap().value(), Value::UStr(_)));
        assert!(!bin(Add, &s("abcdefgh"), &s("ijklmnop")).unwrap().is_object());
        assert_eq!(
            br(Add, s("a".repeat(10).as_str()), s("b".repeat(10).as_str())),
            format!("'{}{}'", "a".repeat(10), "b".repeat(10))
        );
        assert_eq!(br(Mul, s("ab"), i(3)), "'ababab'");
        assert_eq!(br(Mul, i(2), s("é")), "'éé'");
        assert_eq!(br(Mul, s("a"), i(0)), "''");
        assert_eq!(br(Mul, s("a"), i(-1)), "''");
        assert_eq!(br(Mul, u("ü"), i(2)), "'üü'");
        assert_eq!(br(Add, list(vec![i(1)]), list(vec![s("a")])), "[1, 'a']");
        assert_eq!(br(Mul, list(vec![i(1), i(2)]), i(2)), "[1, 2, 1, 2]");
        assert_eq!(br(Mul, i(2), list(vec![i(1)])), "[1, 1]");
        assert_eq!(br(Mul, list(vec![i(1)]), i(-3)), "[]");
        // Empty sequences times a huge count are empty at once (the list one looped 2**62 times:
        // found by the differential test, seed 780).
        assert_eq!(br(Mul, i(1 << 62), list(vec![])), "[]");
        assert_eq!(br(Mul, s(""), i(i64::MAX)), "''");
        assert_eq!(br(Mul, u(""), i(i64::MAX)), "''");
        assert_eq!(br(Add, Slot::from_bytes(b"a"), Slot::from_bytes(b"b")), "b'ab'");
        assert_eq!(br(BitOr, dict(vec![(i(1), i(1)), (i(2), i(2))]), dict(vec![(i(2), i(3))])), "{1: 1, 2: 3}");
        // The inner list is shared, as in Python.
        let inner = list(vec![]);
        let outer = bin(Mul, &list(vec![inner.clone()]), &i(2)).unwrap();
        call_append(&inner);
        assert_eq!(rep(&outer), "[[0], [0]]");
    }

    fn call_append(l: &Slot) {
        list_of(l.value()).unwrap().push(AnyValue::from_int(0));
    }

    #[test]
    fn comparisons() {
        use CmpOp::*;
        let c = |op, x: Slot, y: Slot| compare(op, x.view(), y.view()).unwrap();
        assert!(c(Eq, i(1), f(1.0)));
        assert!(c(Eq, b(true), i(1)));
        assert!(!c(Eq, f(f64::NAN), f(f64::NAN)));
        assert!(c(NotEq, f(f64::NAN), f(f64::NAN)));
        assert!(c(Eq, s("é"), u("é")));
        assert!(!c(Eq, s("1"), i(1)));
        assert!(c(Eq, list(vec![i(1), s("a")]), list(vec![f(1.0), u("a")])));
        assert!(!c(Eq, i((1 << 53) + 1), f(9007199254740992.0)));
        assert!(c(Gt, i((1 << 53) + 1), f(9007199254740992.0)));
        assert!(c(Lt, i(i64::MAX), f(9.3e18)));
        assert!(c(Lt, f(-0.5), i(0)));
        assert!(c(LtE, f(2.0), i(2)));
        assert!(!c(Lt, f(f64::NAN), i(1)) && !c(GtE, f(f64::NAN), i(1)));
        assert!(c(Lt, b(false), b(true)));
        assert!(c(Lt, s("a"), s("b")) && c(Lt, s("Z"), s("a")) && c(Lt, s("ab"), s("abc")));
        assert!(c(Lt, s("z"), u("é")) && c(Gt, u("日"), s("é")) && c(Lt, u("ab"), u("b")));
        assert!(c(Lt, s("\u{ffff}"), s("😀")));
        assert!(c(Lt, list(vec![i(1), i(2)]), list(vec![i(1), i(3)])));
        assert!(c(Lt, list(vec![i(1)]), list(vec![i(1), i(0)])));
        assert!(c(GtE, list(vec![i(2)]), list(vec![i(1), s("x")])));
        assert!(c(LtE, list(vec![]), list(vec![])));
        assert!(c(Lt, Slot::from_bytes(b"a"), Slot::from_bytes(b"b")));
        assert!(
            c(In, s("bc"), s("abcd")) && c(In, s(""), s("")) && c(In, u("本"), s("日本")) && c(In, s("b"), u("abc"))
        );
        assert!(c(NotIn, s("x"), u("abc")));
        assert!(c(In, f(2.0), list(vec![i(1), i(2)])));
        assert!(c(In, s("k"), dict(vec![(u("k"), i(1))])) && c(NotIn, s("v"), dict(vec![(s("k"), s("v"))])));
        assert!(c(In, i(97), Slot::from_bytes(b"a")));
        assert!(c(Is, none(), none()) && c(IsNot, i(1), b(true)) && c(Is, b(true), b(true)));
        let l = list(vec![]);
        assert!(c(Is, l.clone(), l.clone()) && c(IsNot, l.clone(), list(vec![])));
    }

    #[test]
    fn comparison_errors() {
        use CmpOp::*;
        let e = |op, x: Slot, y: Slot| err(compare(op, x.view(), y.view()));
        let t = |m: &str| (ErrorKind::Type, m.to_owned());
        assert_eq!(e(Lt, s("a"), i(1)), t("'<' not supported between instances of 'str' and 'int'"));
        assert_eq!(e(GtE, i(1), s("a")), t("'>=' not supported between instances of 'int' and 'str'"));
        assert_eq!(e(Lt, none(), none()), t("'<' not supported between instances of 'NoneType' and 'NoneType'"));
        assert_eq!(
            e(Lt, list(vec![i(1)]), list(vec![s("a")])),
            t("'<' not supported between instances of 'int' and 'str'")
        );
        assert_eq!(e(Lt, dict(vec![]), dict(vec![])), t("'<' not supported between instances of 'dict' and 'dict'"));
        assert_eq!(e(In, i(1), i(1)), t("argument of type 'int' is not iterable"));
        assert_eq!(e(In, i(1), s("a")), t("'in <string>' requires string as left operand, not int"));
        assert_eq!(e(In, dict(vec![]), dict(vec![])), t("unhashable type: 'dict'"));
    }

    #[test]
    fn indexing_strings() {
        let g = |o: &Slot, k: i64| get_item(o.view(), i(k).view()).map(|r| rep(&r));
        for word in [s("héllo日本😀"), u("héllo日本😀")] {
            assert_eq!(g(&word, 0).unwrap(), "'h'");
            assert_eq!(g(&word, 1).unwrap(), "'é'");
            assert_eq!(g(&word, 5).unwrap(), "'日'");
            assert_eq!(g(&word, 7).unwrap(), "'😀'");
            assert_eq!(g(&word, -1).unwrap(), "'😀'");
            assert_eq!(g(&word, -3).unwrap(), "'日'");
            assert_eq!(g(&word, -8).unwrap(), "'h'");
            assert_eq!(err(g(&word, 8)), (ErrorKind::Index, "string index out of range".into()));
            assert_eq!(err(g(&word, -9)), (ErrorKind::Index, "string index out of range".into()));
            assert_eq!(err(g(&word, i64::MIN)).0, ErrorKind::Index);
            assert_eq!(len(word.view()).unwrap(), 8);
        }
        let ascii = s("abcdefghijklmnopqrstuvwxyz");
        assert_eq!(g(&ascii, 25).unwrap(), "'z'");
        assert_eq!(g(&ascii, -26).unwrap(), "'a'");
        assert_eq!(get_item(s("ab").view(), b(true).view()).unwrap(), "b");
        assert_eq!(
            err(get_item(s("abc").view(), s("a").view())),
            (ErrorKind::Type, "string indices must be integers, not 'str'".into())
        );
        assert_eq!(err(get_item(u("abc").view(), f(1.0).view())).0, ErrorKind::Type);
        // The UCS4 receiver keeps its encoding; the UTF-8 one gives UTF-8.
        assert!(matches!(get_item(u("ab").view(), i(0).view()).unwrap().value(), Value::UStr(_)));
        assert!(matches!(get_item(s("ab").view(), i(0).view()).unwrap().value(), Value::Str(_)));
    }

    #[test]
    fn str_item_is_inline() {
        let long = Slot::from_text("a long utf-8 word, with é and 日本 and 😀 in it");
        assert!(long.is_object());
        for k in [0, 20, -1, -5] {
            let slot = get_item(long.view(), i(k).view()).unwrap();
            assert!(!slot.is_object());
        }
        let slot = get_item(s("é").view(), i(0).view()).unwrap();
        assert!(!slot.is_object());
        assert_eq!(slot, "é");
    }

    #[test]
    fn indexing_containers() {
        let l = list(vec![i(10), s("x"), none()]);
        assert_eq!(get_item(l.view(), i(-2).view()).unwrap(), "x");
        assert_eq!(get_item(l.view(), b(false).view()).unwrap(), 10);
        assert_eq!(err(get_item(l.view(), i(3).view())), (ErrorKind::Index, "list index out of range".into()));
        assert_eq!(
            err(get_item(l.view(), s("a").view())),
            (ErrorKind::Type, "list indices must be integers or slices, not str".into())
        );
        let d = dict(vec![(s("a"), i(1)), (tuple(vec![i(1), i(2)]), i(2))]);
        assert_eq!(get_item(d.view(), u("a").view()).unwrap(), 1);
        assert_eq!(get_item(d.view(), tuple(vec![i(1), i(2)]).view()).unwrap(), 2);
        assert_eq!(
            err(get_item(d.view(), list(vec![i(1)]).view())),
            (ErrorKind::Type, "unhashable type: 'list'".into())
        );
        assert_eq!(err(get_item(d.view(), s("zz").view())), (ErrorKind::Key, "'zz'".into()));
        assert_eq!(err(get_item(d.view(), i(3).view())), (ErrorKind::Key, "3".into()));
        assert_eq!(err(get_item(d.view(), dict(vec![]).view())), (ErrorKind::Type, "unhashable type: 'dict'".into()));
        assert_eq!(
            err(get_item(i(1).view(), i(0).view())),
            (ErrorKind::Type, "'int' object is not subscriptable".into())
        );
        assert_eq!(get_item(Slot::from_bytes(b"ab").view(), i(-1).view()).unwrap(), 98);
    }

    #[test]
    fn item_assignment() {
        let l = list(vec![i(1), i(2)]);
        let alias = l.clone();
        set_item(l.view(), i(-1).view(), s("z").view()).unwrap();
        assert_eq!(rep(&alias), "[1, 'z']");
        assert_eq!(
            err(set_item(l.view(), i(2).view(), i(0).view())),
            (ErrorKind::Index, "list assignment index out of range".into())
        );
        let d = dict(vec![]);
        set_item(d.view(), s("k").view(), i(1).view()).unwrap();
        set_item(d.view(), u("k").view(), i(2).view()).unwrap();
        set_item(d.view(), f(1.0).view(), i(3).view()).unwrap();
        set_item(d.view(), i(1).view(), i(4).view()).unwrap();
        assert_eq!(rep(&d), "{'k': 2, 1.0: 4}");
        assert_eq!(
            err(set_item(s("a").view(), i(0).view(), s("b").view())),
            (ErrorKind::Type, "'str' object does not support item assignment".into())
        );
        assert_eq!(
            err(set_item(i(1).view(), i(0).view(), i(1).view())),
            (ErrorKind::Type, "'int' object does not support item assignment".into())
        );
    }

    fn sl(o: &Slot, lo: Slot, hi: Slot, st: Slot) -> Result<String> {
        slice(o.view(), lo.view(), hi.view(), st.view()).map(|r| rep(&r))
    }

    #[test]
    fn slices() {
        let n = none;
        for w in [s("héllo日本😀"), u("héllo日本😀")] {
            assert_eq!(sl(&w, i(1), i(3), n()).unwrap(), "'él'");
            assert_eq!(sl(&w, i(-3), n(), n()).unwrap(), "'日本😀'");
            assert_eq!(sl(&w, n(), n(), i(-1)).unwrap(), "'😀本日olléh'");
            assert_eq!(sl(&w, n(), n(), i(2)).unwrap(), "'hlo本'");
            assert_eq!(sl(&w, i(-2), i(0), i(-2)).unwrap(), "'本ol'");
            assert_eq!(sl(&w, i(100), i(200), n()).unwrap(), "''");
            assert_eq!(sl(&w, i(-100), i(2), n()).unwrap(), "'hé'");
            assert_eq!(sl(&w, i(5), i(1), n()).unwrap(), "''");
        }
        let a = s("abcdef");
        assert_eq!(sl(&a, n(), n(), i(-2)).unwrap(), "'fdb'");
        assert_eq!(sl(&a, i(4), i(1), i(-1)).unwrap(), "'edc'");
        assert_eq!(sl(&a, i(-1), i(-100), i(-3)).unwrap(), "'fc'");
        assert_eq!(sl(&a, n(), n(), i(i64::MIN)).unwrap(), "'f'");
        assert_eq!(sl(&a, n(), n(), i(i64::MAX)).unwrap(), "'a'");
        let l = list(vec![i(0), i(1), i(2), i(3), i(4)]);
        assert_eq!(sl(&l, i(1), i(-1), n()).unwrap(), "[1, 2, 3]");
        assert_eq!(sl(&l, n(), n(), i(-2)).unwrap(), "[4, 2, 0]");
        assert_eq!(sl(&l, i(3), n(), i(-1)).unwrap(), "[3, 2, 1, 0]");
        assert_eq!(sl(&Slot::from_bytes(b"abc"), i(1), n(), n()).unwrap(), "b'bc'");
        assert_eq!(err(sl(&a, n(), n(), i(0))), (ErrorKind::Value, "slice step cannot be zero".into()));
        assert_eq!(
            err(sl(&a, f(1.5), n(), n())),
            (ErrorKind::Type, "slice indices must be integers or None or have an __index__ method".into())
        );
        assert_eq!(err(sl(&i(1), n(), n(), n())), (ErrorKind::Type, "'int' object is not subscriptable".into()));
        // CPython 3.11 looks a slice of a dict up as a key, and cannot hash it.
        assert_eq!(err(sl(&dict(vec![]), n(), i(2), n())), (ErrorKind::Type, "unhashable type: 'slice'".into()));
        // A slice of a tuple is a tuple.
        assert_eq!(sl(&tuple(vec![i(1), i(2), i(3)]), i(1), n(), n()).unwrap(), "(2, 3)");
        // A short slice of a long string is inline again.
        let long = s("abcdefghijklmnopqrstuvwxyz");
        assert!(!slice(long.view(), i(0).view(), i(16).view(), n().view()).unwrap().is_object());
    }

    #[test]
    fn lengths() {
        assert_eq!(len(s("日本").view()).unwrap(), 2);
        assert_eq!(len(list(vec![i(1)]).view()).unwrap(), 1);
        assert_eq!(len(dict(vec![(i(1), i(1)), (i(2), i(1))]).view()).unwrap(), 2);
        assert_eq!(len(Slot::from_bytes(b"abc").view()).unwrap(), 3);
        assert_eq!(err(len(i(1).view())), (ErrorKind::Type, "object of type 'int' has no len()".into()));
        assert_eq!(err(len(none().view())), (ErrorKind::Type, "object of type 'NoneType' has no len()".into()));
    }

    #[test]
    fn str_and_repr() {
        let cases: [(f64, &str); 12] = [
            (1e16, "1e+16"),
            (1.5e-7, "1.5e-07"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (123456789012345678.0, "1.2345678901234568e+17"),
            (1e22, "1e+22"),
            (-0.0, "-0.0"),
            (9999999999999998.0, "9999999999999998.0"),
            (1.5e300, "1.5e+300"),
            (5e-324, "5e-324"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (x, want) in cases {
            assert_eq!(to_str(f(x).view()).unwrap(), want);
        }
        assert_eq!(to_str(s("a'b").view()).unwrap(), "a'b");
        assert_eq!(to_str(u("日本").view()).unwrap(), "日本");
        assert_eq!(to_str(none().view()).unwrap(), "None");
        assert_eq!(to_str(b(true).view()).unwrap(), "True");
        assert_eq!(rep(&s("a'b")), "\"a'b\"");
        assert_eq!(rep(&s("a\"b")), "'a\"b'");
        assert_eq!(rep(&s("a'\"b")), "'a\\'\"b'");
        assert_eq!(
            rep(&s("\u{85}\u{a0}\u{200b}\u{3000} é😀\0\x7f\u{d7ff}\t")),
            "'\\x85\\xa0\\u200b\\u3000 é😀\\x00\\x7f\\ud7ff\\t'"
        );
        assert_eq!(rep(&u("\u{e0001}")), "'\\U000e0001'");
        assert_eq!(rep(&Slot::from_bytes(b"a'\x00\xff")), "b\"a'\\x00\\xff\"");
        let l = list(vec![f(1e16), s("x"), none(), list(vec![])]);
        assert_eq!(to_str(l.view()).unwrap(), "[1e+16, 'x', None, []]");
        list_of(l.value()).unwrap().push(l.clone().resize::<0>());
        assert_eq!(to_str(l.view()).unwrap(), "[1e+16, 'x', None, [], [...]]");
        // Break the cycle: reference counting cannot free a list that contains itself.
        list_of(l.value()).unwrap().pop().unwrap();
        assert_eq!(to_str(dict(vec![(s("a"), f(0.5)), (i(1), list(vec![]))]).view()).unwrap(), "{'a': 0.5, 1: []}");
        assert_eq!(type_name(u("x").view()), "str");
        assert_eq!(type_name(none().view()), "NoneType");
        assert_eq!(type_name(b(true).view()), "bool");
        assert_eq!(type_name(dict(vec![]).view()), "dict");
    }

    #[test]
    fn sorting() {
        let sorted = |items: Vec<Slot>| {
            let mut items: Vec<AnyValue> = items.into_iter().map(|x| x.resize::<0>()).collect();
            sort_values(&mut items).map(|()| repr_value(List::from_vec(items).into_any().value()))
        };
        assert_eq!(sorted(vec![i(3), b(true), i(-2)]).unwrap(), "[-2, True, 3]");
        assert_eq!(sorted(vec![s("b"), s("B"), s("a")]).unwrap(), "['B', 'a', 'b']");
        assert_eq!(sorted(vec![u("é"), s("z"), s("a")]).unwrap(), "['a', 'z', 'é']");
        assert_eq!(sorted(vec![f(2.5), i(1), b(false), f(1.0)]).unwrap(), "[False, 1, 1.0, 2.5]");
        assert_eq!(sorted(vec![f(1.0), i(1), b(true)]).unwrap(), "[1.0, 1, True]");
        assert_eq!(sorted(vec![list(vec![i(2)]), list(vec![i(1), i(5)])]).unwrap(), "[[1, 5], [2]]");
        assert_eq!(
            err(sorted(vec![i(1), s("a")])),
            (ErrorKind::Type, "'<' not supported between instances of 'str' and 'int'".into())
        );
    }

    #[test]
    fn python_whitespace_in_dict_update() {
        let mut d = Dict::new();
        dict_update_from(&mut d, list(vec![list(vec![i(1), i(2)]), s("ab")]).value()).unwrap();
        assert_eq!(format!("{d:?}"), "{1: 2, 'a': 'b'}");
        assert_eq!(
            err(dict_update_from(&mut d, list(vec![list(vec![i(1), i(2), i(3)])]).value())),
            (ErrorKind::Value, "dictionary update sequence element #0 has length 3; 2 is required".into())
        );
        assert_eq!(
            err(dict_update_from(&mut d, list(vec![i(1)]).value())),
            (ErrorKind::Type, "cannot convert dictionary update sequence element #0 to a sequence".into())
        );
    }
}
