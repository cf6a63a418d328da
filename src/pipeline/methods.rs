//! Methods callable on values in anyscript (`s.lower()`, `xs.append(x)`, `d.get(k)`), with the
//! results and error messages of CPython 3.11.
//!
//! A method name shared by several types (`count`, `index`, `copy`, `clear`, `pop`) is one
//! [`Method`]; [`call_method`] dispatches on the receiver's runtime type. Str methods keep the
//! receiver's encoding (a UCS4 receiver gives UCS4 results).

use super::Slot;
use super::named_params::{bound_method_arguments, method_arguments};
use super::shaped_binding::{ResolvedArgs, views};
use super::value_ops::{Text, dict_in_view, dict_obj, dict_of, list_of, plural, tuple_obj, type_error, vname};
use crate::any::type_index as ti;
use crate::container::{DictKind, DictObj};
use crate::{AnyValue, AnyView, Error, Result, Value};
use std::collections::HashMap;
use std::sync::LazyLock;

mod char_classes;
mod counts;
mod dict_methods;
mod sequence_methods;
mod str_methods;

pub(crate) use char_classes::{decimal_value, is_identifier, is_space, is_titlecase};
pub(crate) use counts::{keywords_count_error, sort_positional};
pub(crate) use dict_methods::fromkeys;
use dict_methods::{dict_get, dict_method};
pub(crate) use sequence_methods::{count_of, index_of};
use sequence_methods::{list_method, tuple_method};
use str_methods::str_method;
pub(crate) use str_methods::{adjust_indices, for_each_join_piece, lowered_per_char, opt_index};

macro_rules! methods {
    ($($variant:ident => $name:literal,)*) => {
        /// A method that can be called on a str, list, dict or set.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Method {
            $(#[doc = concat!("`.", $name, "()`")] $variant,)*
        }

        impl Method {
            /// Every method, in declaration order.
            pub const ALL: &'static [Method] = &[$(Method::$variant,)*];

            /// The method called `name`, if it is supported.
            pub fn from_name(name: &str) -> Option<Method> {
                match name {
                    $($name => Some(Method::$variant),)*
                    _ => None,
                }
            }

            /// The method's name as written in source.
            pub fn name(self) -> &'static str {
                match self {
                    $(Method::$variant => $name,)*
                }
            }
        }
    };
}

methods! {
    Lower => "lower", Upper => "upper", Casefold => "casefold", Title => "title", Capitalize => "capitalize",
    Strip => "strip", Lstrip => "lstrip", Rstrip => "rstrip", Split => "split", Rsplit => "rsplit", Join => "join",
    Startswith => "startswith", Endswith => "endswith", Replace => "replace", Find => "find", Rfind => "rfind",
    Rindex => "rindex", Isdigit => "isdigit", Isdecimal => "isdecimal", Isnumeric => "isnumeric",
    Isalpha => "isalpha", Isalnum => "isalnum", Isspace => "isspace", Islower => "islower", Isupper => "isupper",
    Index => "index", Count => "count",
    Append => "append", Extend => "extend", Insert => "insert", Reverse => "reverse", Sort => "sort",
    Remove => "remove", Pop => "pop", Copy => "copy", Clear => "clear",
    Get => "get", Keys => "keys", Values => "values", Items => "items", Setdefault => "setdefault",
    Update => "update", Format => "format", Center => "center", Ljust => "ljust", Rjust => "rjust",
    Zfill => "zfill", Partition => "partition", Rpartition => "rpartition", Removeprefix => "removeprefix",
    Removesuffix => "removesuffix", Splitlines => "splitlines", Isascii => "isascii", Swapcase => "swapcase",
    Istitle => "istitle", Expandtabs => "expandtabs", FormatMap => "format_map",
    Add => "add", Discard => "discard", Union => "union", Intersection => "intersection",
    IntersectionUpdate => "intersection_update", Difference => "difference", DifferenceUpdate => "difference_update",
    SymmetricDifference => "symmetric_difference", SymmetricDifferenceUpdate => "symmetric_difference_update",
    Issubset => "issubset", Issuperset => "issuperset", Isdisjoint => "isdisjoint",
    Maketrans => "maketrans", Translate => "translate", Fromkeys => "fromkeys",
    Encode => "encode", Decode => "decode",
    Sub => "sub", Subn => "subn", Findall => "findall", Finditer => "finditer", Search => "search",
    Match => "match", Fullmatch => "fullmatch",
    Group => "group", Groups => "groups", Groupdict => "groupdict", Start => "start", End => "end", Span => "span",
    Expand => "expand",
    MostCommon => "most_common", Elements => "elements", Total => "total", Subtract => "subtract",
    Isidentifier => "isidentifier", Isprintable => "isprintable", Popitem => "popitem", MoveToEnd => "move_to_end",
    Random => "random", Seed => "seed", Getrandbits => "getrandbits", Randrange => "randrange", Randint => "randint",
    Choice => "choice", Shuffle => "shuffle", Sample => "sample", Choices => "choices", Uniform => "uniform",
    Gauss => "gauss", Normalvariate => "normalvariate", Lognormvariate => "lognormvariate",
    Expovariate => "expovariate", Triangular => "triangular", Paretovariate => "paretovariate",
    Weibullvariate => "weibullvariate", Vonmisesvariate => "vonmisesvariate", Gammavariate => "gammavariate",
    Betavariate => "betavariate",
    Appendleft => "appendleft", Popleft => "popleft", Extendleft => "extendleft", Rotate => "rotate",
    ToBytes => "to_bytes",
    BitLength => "bit_length", BitCount => "bit_count", IsInteger => "is_integer", Hex => "hex", Fromhex => "fromhex",
}

/// The receiver types that have methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Recv {
    Str,
    List,
    Tuple,
    Dict,
    Set,
    /// A `frozenset`: a set's methods that leave it as it is.
    FrozenSet,
    Bytes,
    /// A `bytearray`: bytes' methods and a list's that change it.
    ByteArray,
    /// A compiled regular expression (`re.compile(...)`).
    Pattern,
    /// A match of one (`re.search(...)`).
    Match,
    /// A `collections.Counter`: a dict with methods of its own.
    Counter,
    /// A `collections.OrderedDict`: a dict with methods of its own.
    OrderedDict,
    /// A `random.Random` generator.
    Random,
    /// A `collections.deque`.
    Deque,
    /// A dict's keys or items view (a values view has no methods).
    DictView,
    /// An int (a bool too, as Python's bool is an int).
    Int,
    /// A float.
    Float,
}

impl Recv {
    const ALL: [Recv; 17] = [
        Recv::Str,
        Recv::List,
        Recv::Tuple,
        Recv::Dict,
        Recv::Set,
        Recv::FrozenSet,
        Recv::Bytes,
        Recv::ByteArray,
        Recv::Pattern,
        Recv::Match,
        Recv::Counter,
        Recv::OrderedDict,
        Recv::Random,
        Recv::Deque,
        Recv::DictView,
        Recv::Int,
        Recv::Float,
    ];

    pub(super) fn of(v: Value<'_>) -> Option<Recv> {
        match v {
            Value::Str(_) | Value::UStr(_) => Some(Recv::Str),
            Value::Bytes(_) => Some(Recv::Bytes),
            Value::Int(_) | Value::Bool(_) => Some(Recv::Int),
            Value::Float(_) => Some(Recv::Float),
            Value::Object(o) if o.type_index() == ti::LIST => Some(Recv::List),
            Value::Object(o) if o.type_index() == ti::TUPLE => Some(Recv::Tuple),
            Value::Object(o) if o.type_index() == ti::DICT => Some(match dict_obj(v).map(DictObj::kind) {
                Some(DictKind::Counter) => Recv::Counter,
                Some(DictKind::Ordered) => Recv::OrderedDict,
                _ => Recv::Dict,
            }),
            Value::Object(o) if o.type_index() == ti::SET => match super::set_ops::is_frozenset(v) {
                true => Some(Recv::FrozenSet),
                false => Some(Recv::Set),
            },
            // A match before a pattern: telling a pattern from another dynamic type takes the
            // type registry's lock, and `m.end()` runs once per token of a lexer.
            Value::Object(o) if o.type_index() == crate::ops::re::match_type_index() => Some(Recv::Match),
            Value::Object(_) if crate::ops::re::Pattern::of(v).is_some() => Some(Recv::Pattern),
            Value::Object(o) if o.type_index() == crate::ops::random::random_type_index() => Some(Recv::Random),
            Value::Object(_) if super::deque_ops::deque_of(v).is_some() => Some(Recv::Deque),
            Value::Object(_) if super::bytearray_ops::byte_array_of(v).is_some() => Some(Recv::ByteArray),
            Value::Object(_) if super::dict_view_ops::set_view_of(v).is_some() => Some(Recv::DictView),
            _ => None,
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Recv::Str => "str",
            Recv::List => "list",
            Recv::Tuple => "tuple",
            Recv::Dict => "dict",
            Recv::Set => "set",
            Recv::FrozenSet => "frozenset",
            Recv::Bytes => "bytes",
            Recv::ByteArray => "bytearray",
            Recv::Pattern => "re.Pattern",
            Recv::Match => "re.Match",
            Recv::Counter => "Counter",
            Recv::OrderedDict => "OrderedDict",
            Recv::Random => "Random",
            Recv::Deque => "deque",
            Recv::DictView => "dict_keys",
            Recv::Int => "int",
            Recv::Float => "float",
        }
    }
}

/// (min, max) positional arguments of `m` on `r`, or `None` when `r` has no such method.
fn spec(m: Method, r: Recv) -> Option<(usize, usize)> {
    use Method::*;
    Some(match (r, m) {
        (
            Recv::Str,
            Lower | Upper | Casefold | Title | Capitalize | Isdigit | Isdecimal | Isnumeric | Isalpha | Isalnum
            | Isspace | Islower | Isupper | Isascii | Swapcase | Istitle | Isidentifier | Isprintable,
        ) => (0, 0),
        (Recv::Str, Strip | Lstrip | Rstrip) => (0, 1),
        (Recv::Str, Split | Rsplit) => (0, 2),
        (Recv::Str, Join) => (1, 1),
        (Recv::Str, Startswith | Endswith | Find | Rfind | Index | Rindex | Count) => (1, 3),
        (Recv::Str, Replace) => (2, 3),
        (Recv::Str, Format) => (0, super::builtins::VARIADIC),
        (Recv::Str, Center | Ljust | Rjust) => (1, 2),
        (Recv::Str, Zfill | Partition | Rpartition | Removeprefix | Removesuffix | FormatMap) => (1, 1),
        (Recv::Str, Splitlines | Expandtabs) => (0, 1),
        (Recv::Str, Translate) => (1, 1),
        (Recv::Str, Maketrans) => (1, 3),
        (Recv::Str, Encode) | (Recv::Bytes, Decode) => (0, 2),
        (Recv::Bytes, Find | Rfind | Index | Rindex | Count | Startswith | Endswith) => (1, 3),
        (Recv::Bytes, Split | Rsplit | Hex) => (0, 2),
        (Recv::Bytes, Strip | Lstrip | Rstrip) => (0, 1),
        (Recv::Bytes, Replace) => (2, 3),
        (Recv::Bytes, Join) => (1, 1),
        (
            Recv::Bytes,
            Lower | Upper | Isdigit | Isalpha | Isalnum | Isspace | Islower | Isupper | Isascii | Title | Capitalize
            | Swapcase | Istitle,
        ) => (0, 0),
        (Recv::Bytes, Center | Ljust | Rjust | Translate) => (1, 2),
        (Recv::Bytes, Zfill | Partition | Rpartition | Removeprefix | Removesuffix | Fromhex) => (1, 1),
        (Recv::Bytes, Splitlines | Expandtabs) => (0, 1),
        (Recv::Bytes, Maketrans) => (2, 2),
        (Recv::List, Append | Extend | Remove | Count) => (1, 1),
        (Recv::List, Insert) => (2, 2),
        (Recv::List | Recv::Tuple, Index) => (1, 3),
        (Recv::Tuple, Count) => (1, 1),
        (Recv::List, Pop) => (0, 1),
        (Recv::List, Reverse | Sort | Copy | Clear) => (0, 0),
        (Recv::Dict, Get | Setdefault | Pop) => (1, 2),
        (Recv::Dict, Keys | Values | Items | Copy | Clear | Popitem) => (0, 0),
        (Recv::Int, BitLength | BitCount) | (Recv::Float, IsInteger) => (0, 0),
        (Recv::Int, ToBytes) => (0, 3),
        (Recv::Dict, Update) => (0, 1),
        (Recv::Dict, Fromkeys) => (1, 2),
        (Recv::Set, Add | Discard | Remove | SymmetricDifferenceUpdate) => (1, 1),
        (Recv::Set | Recv::FrozenSet, Issubset | Issuperset | Isdisjoint | SymmetricDifference) => (1, 1),
        (Recv::FrozenSet, Copy) => (0, 0),
        (Recv::FrozenSet, Union | Intersection | Difference) => (0, super::builtins::VARIADIC),
        (Recv::Set, Pop | Copy | Clear) => (0, 0),
        (Recv::Set, Update | Union | Intersection | IntersectionUpdate | Difference | DifferenceUpdate) => {
            (0, super::builtins::VARIADIC)
        }
        (Recv::Pattern, Search | Match | Fullmatch | Findall | Finditer) => (1, 3),
        (Recv::Pattern, Split) => (1, 2),
        (Recv::Pattern, Sub | Subn) => (2, 3),
        (Recv::Match, Group) => (0, super::builtins::VARIADIC),
        (Recv::Match, Groups | Groupdict | Start | End | Span) => (0, 1),
        (Recv::Match, Expand) => (1, 1),
        (Recv::Counter, MostCommon | Update | Subtract) => (0, 1),
        (Recv::Counter, Elements | Total) => (0, 0),
        (Recv::OrderedDict, MoveToEnd | Pop | Setdefault | Fromkeys) => (1, 2),
        (Recv::OrderedDict, Popitem | Update) => (0, 1),
        // Counted by `ops/random.rs`, with the messages of Python's methods.
        (
            Recv::Random,
            Random | Seed | Getrandbits | Randrange | Randint | Choice | Shuffle | Sample | Choices | Uniform | Gauss
            | Normalvariate | Lognormvariate | Expovariate | Triangular | Paretovariate | Weibullvariate
            | Vonmisesvariate | Gammavariate | Betavariate,
        ) => (0, super::builtins::VARIADIC),
        // `deque_ops::check_arity` words the counts of `index`, `insert` and `rotate`.
        (Recv::Deque, Append | Appendleft | Extend | Extendleft | Count | Remove) => (1, 1),
        (Recv::Deque, Pop | Popleft | Clear | Copy | Reverse) => (0, 0),
        (Recv::Deque, Index) => (1, 3),
        (Recv::Deque, Insert) => (2, 2),
        (Recv::Deque, Rotate) => (0, 1),
        (Recv::DictView, Isdisjoint) => (1, 1),
        (Recv::ByteArray, Append | Extend | Remove) => (1, 1),
        (Recv::ByteArray, Insert) => (2, 2),
        (Recv::ByteArray, Pop) => (0, 1),
        (Recv::ByteArray, Reverse | Clear | Copy) => (0, 0),
        // Otherwise bytes'.
        (Recv::ByteArray, _) => return spec(m, Recv::Bytes),
        // Otherwise a dict's.
        (Recv::Counter | Recv::OrderedDict, _) => return spec(m, Recv::Dict),
        _ => return None,
    })
}

impl Method {
    /// (min, max) positional arguments, excluding the receiver, over every type that has it.
    pub fn arity(self) -> (usize, usize) {
        Recv::ALL
            .into_iter()
            .filter_map(|r| spec(self, r))
            .fold((usize::MAX, 0), |(lo, hi), (a, b)| (lo.min(a), hi.max(b)))
    }

    /// `str.format_map` for a method of one type, as CPython names it in errors; the bare name
    /// for one that several types have (`pop`), whose receiver is known only at run time.
    pub fn qualified_name(self) -> String {
        // `str.split` stays its name beside `Pattern.split`.
        // And a str method's name stays `str.x` beside bytes' method of the same name.
        let core =
            |r: &Recv| !matches!(r, Recv::Pattern | Recv::Match | Recv::Bytes) || spec(self, Recv::Str).is_none();
        let mut types = Recv::ALL.into_iter().filter(|&r| spec(self, r).is_some()).filter(core);
        match (types.next(), types.next()) {
            (Some(only), None) => format!("{}.{}", only.name(), self.name()),
            _ => self.name().to_string(),
        }
    }
}

/// A wrong argument count, worded as CPython words it.
pub(crate) fn arity_error(qualified: &str, name: &str, (min, max): (usize, usize), n: usize) -> Error {
    type_error(match (min, max) {
        (0, 0) => format!("{qualified}() takes no arguments ({n} given)"),
        (1, 1) => format!("{qualified}() takes exactly one argument ({n} given)"),
        _ if min == max => format!("{name} expected {min} arguments, got {n}"),
        _ if n > max => format!("{name} expected at most {max} argument{}, got {n}", plural(max)),
        _ => format!("{name} expected at least {min} argument{}, got {n}", plural(min)),
    })
}

/// Calls `obj.method(*args)`; an unknown method for the receiver's type is a TypeError.
pub fn call_method(method: Method, obj: AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    call_method_as(method, obj, args, false)
}

/// Calls `obj.method(*args)` as a bound method (`f = d.clear; f()`, `d.clear(*args)`), which names
/// the receiver's own type in a count error where a direct call names the method's owner
/// (`Counter.clear()`, not `dict.clear()`), as CPython does.
pub(crate) fn call_bound_method(method: Method, obj: AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    call_method_as(method, obj, args, true)
}

/// [`call_method`], or [`call_bound_method`] when `bound`.
fn call_method_as(method: Method, obj: AnyView<'_>, args: &[AnyView<'_>], bound: bool) -> Result<Slot> {
    // `d.get(k)` of any dict (a Counter's and a defaultdict's `get` are dict's) before anything
    // is decoded: the hot method of counting loops.
    if method == Method::Get && matches!(args.len(), 1 | 2) {
        if let Some(d) = dict_in_view(&obj) {
            return dict_get(d, args);
        }
    }
    let v = obj.value();
    let Some((recv, arity)) = Recv::of(v).and_then(|r| spec(method, r).map(|a| (r, a))) else {
        return Err(no_method(method, v));
    };
    // OrderedDict's and deque's own methods word some counts otherwise.
    let own_check = match recv {
        Recv::OrderedDict => super::ordered_dict::check_arity(method, args.len()),
        Recv::Deque => super::deque_ops::check_arity(method, args.len()),
        _ => None,
    };
    if let Some(checked) = own_check {
        checked?;
    } else if args.len() < arity.0 || args.len() > arity.1 {
        let owner = counts::owner_name(recv, method, v, bound);
        return Err(counts::count_error(recv, owner, method, arity, args.len()));
    }
    match recv {
        Recv::Str => str_method(method, Text::of(v).expect("a str"), &obj, args),
        Recv::List => list_method(method, list_of(v).expect("a list"), args),
        Recv::Tuple => tuple_method(method, tuple_obj(v).expect("a tuple"), args),
        Recv::Dict if method == Method::Get => dict_get(dict_obj(v).expect("a dict"), args),
        Recv::Dict => dict_method(method, dict_of(v).expect("a dict"), args),
        Recv::Set => super::set_ops::set_method(method, super::set_ops::set_of(v).expect("a set"), args),
        Recv::FrozenSet => super::set_ops::frozenset_method(method, super::set_ops::set_of(v).expect("a set"), args),
        Recv::Bytes if method == Method::Decode => {
            super::str_codecs::decode(super::str_codecs::bytes_of(v).expect("bytes"), args)
        }
        Recv::Bytes => {
            let b = super::str_codecs::bytes_of(v).expect("bytes");
            super::bytearray_ops::with_bytes_args(args, |args| super::bytes_methods::call(method, b, args))
        }
        Recv::ByteArray => {
            super::bytearray_ops::method(method, super::bytearray_ops::byte_array_of(v).expect("a bytearray"), args)
        }
        Recv::Pattern => regex_method(method, v, args),
        Recv::Match => match_method(method, v, args),
        Recv::Counter => counter_method(method, v, args),
        Recv::OrderedDict => {
            let mut d = dict_of(v).expect("an OrderedDict");
            match super::ordered_dict::method(method, &mut d, args) {
                Some(result) => result,
                None => dict_method(method, d, args),
            }
        }
        Recv::Int if method == Method::ToBytes => {
            crate::ops::int_bytes::to_bytes(v.as_int().expect("an int"), args).map(AnyValue::resize)
        }
        Recv::Int | Recv::Float => number_method(method, v),
        Recv::Deque => super::deque_ops::method(method, super::deque_ops::deque_of(v).expect("a deque"), args),
        Recv::DictView => super::dict_view_ops::isdisjoint(v, args[0].value()).map(Slot::from_bool),
        Recv::Random => {
            let generator = crate::ops::random::random_of(v).expect("a Random");
            crate::ops::random::method(method, generator, args).map(AnyValue::resize)
        }
    }
}

/// `n.bit_length()`, `n.bit_count()` and `x.is_integer()`.
fn number_method(method: Method, v: Value<'_>) -> Result<Slot> {
    match (method, v) {
        (Method::IsInteger, Value::Float(x)) => Ok(Slot::from_bool(x.is_finite() && x.fract() == 0.0)),
        (Method::BitLength, _) if let Some(n) = v.as_int() => {
            Ok(Slot::from_int(i64::from(64 - n.unsigned_abs().leading_zeros() as u8)))
        }
        (Method::BitCount, _) if let Some(n) = v.as_int() => {
            Ok(Slot::from_int(i64::from(n.unsigned_abs().count_ones())))
        }
        _ => Err(no_method(method, v)),
    }
}

/// A method of a Counter: its own, and a dict's otherwise.
fn counter_method(method: Method, v: Value<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    use super::counter;
    let mut d = dict_of(v).expect("a Counter");
    match method {
        Method::MostCommon => counter::most_common(&d, args.first()),
        Method::Elements => counter::elements(&d),
        Method::Total => counter::total(&d),
        Method::Update | Method::Subtract => {
            let src = args.first().map_or(Value::None, |a| a.value());
            counter::update(&mut d, src, method == Method::Subtract)?;
            Ok(Slot::none())
        }
        Method::Fromkeys => {
            let message = "Counter.fromkeys() is undefined.  Use Counter(iterable) instead.";
            Err(Error::new(crate::ErrorKind::NotImplemented, message))
        }
        Method::Get => dict_get(dict_obj(v).expect("a Counter"), args),
        _ => dict_method(method, d, args),
    }
}

/// A method of a compiled pattern (`p.sub(" ", text)`).
fn regex_method(method: Method, v: Value<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    let compiled = crate::ops::re::Pattern::shared(v).expect("a pattern");
    crate::ops::re::pattern_method(method.name(), &compiled, args).map(|v| v.resize())
}

/// A method of a match (`m.group(1)`).
fn match_method(method: Method, v: Value<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    use crate::ops::re::Position;
    let m = crate::ops::re::match_of(v).expect("a match");
    let result = match method {
        Method::Group => m.group(args)?,
        Method::Groups => m.groups(args.first()),
        Method::Groupdict => m.groupdict(args.first())?,
        Method::Start => m.position(Position::Start, args.first())?,
        Method::End => m.position(Position::End, args.first())?,
        Method::Span => m.position(Position::Span, args.first())?,
        Method::Expand => m.expand(&args[0])?,
        _ => unreachable!("spec admits only match methods"),
    };
    Ok(result.resize())
}

/// The types whose methods a script may call through the type (`str.upper(w)`), by the index
/// [`super::ir::Inst::CheckReceiver`] names them with.
pub const RECEIVER_TYPES: [&str; 6] = ["str", "list", "dict", "set", "bytes", "bytearray"];

/// Fails unless `v` is of type `RECEIVER_TYPES[ty]`, as CPython's method descriptor does when
/// `str.upper(5)` hands it another type.
pub fn check_receiver(method: Method, ty: u8, v: Value<'_>) -> Result<()> {
    let want = RECEIVER_TYPES[ty as usize];
    match Recv::of(v) {
        Some(r) if r.name() == want || (matches!(r, Recv::Counter | Recv::OrderedDict) && want == "dict") => Ok(()),
        _ => Err(type_error(format!(
            "descriptor '{}' for '{want}' objects doesn't apply to a '{}' object",
            method.name(),
            vname(v)
        ))),
    }
}

/// `str.lower` (a method reached through its type, `RECEIVER_TYPES[ty]`) as a function value
/// (`sorted(words, key=str.lower)`): it calls the method on its first argument, once that is
/// found to be of the type. One object per method and type, so `f = str.lower` keeps
/// `f is str.lower`, as in Python.
pub fn unbound_method_func(method: Method, ty: u8) -> crate::PackedFunc {
    static FUNCS: LazyLock<std::sync::Mutex<HashMap<(Method, u8), crate::PackedFunc>>> =
        LazyLock::new(Default::default);
    let mut funcs = FUNCS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let made = funcs.entry((method, ty)).or_insert_with(|| {
        crate::PackedFunc::with_keywords(
            (method, ty),
            |&(method, ty), args| {
                let Some((obj, rest)) = args.split_first() else { return Err(needs_receiver(method, ty)) };
                check_receiver(method, ty, obj.value())?;
                call_method(method, *obj, rest).map(Slot::resize)
            },
            |&(method, ty), call| {
                let path = format!("{}.{}", RECEIVER_TYPES[ty as usize], method.name());
                let mut resolved = ResolvedArgs::of(&path, call)?;
                if resolved.positional.is_empty() {
                    return Err(needs_receiver(method, ty));
                }
                let obj = resolved.positional.remove(0);
                check_receiver(method, ty, obj.value())?;
                let args =
                    bound_method_arguments(method, obj.view(), resolved.positional, &resolved.names, &resolved.values)?;
                call_method(method, obj.view(), &views(&args)).map(Slot::resize)
            },
        )
    });
    made.clone()
}

/// CPython's error for `str.split()` called through its type with no argument.
fn needs_receiver(method: Method, ty: u8) -> Error {
    let path = format!("{}.{}", RECEIVER_TYPES[ty as usize], method.name());
    type_error(format!("unbound method {path}() needs an argument"))
}

/// `obj.method` as a value (`sorted(counts, key=counts.get)`): called with `obj`, the function
/// returned gives the bound method, a function of the method's arguments that calls it on
/// `obj` (as Python's bound method holds its object, so the function holds a handle to it).
/// One binder per method.
pub fn bind_method_func(method: Method) -> crate::PackedFunc {
    static FUNCS: LazyLock<Vec<crate::PackedFunc>> = LazyLock::new(|| {
        Method::ALL
            .iter()
            .map(|&m| {
                crate::PackedFunc::new(move |args| {
                    let [obj] = args else {
                        return Err(type_error(format!("binding .{}() needs one object", m.name())));
                    };
                    check_method(m, *obj)?;
                    let bound = crate::PackedFunc::with_keywords(
                        (m, obj.to_owned::<0>()),
                        |(m, recv), args| call_bound_method(*m, recv.view(), args).map(Slot::resize),
                        |(m, recv), call| {
                            let args = method_arguments(*m, recv.view(), call)?;
                            call_bound_method(*m, recv.view(), &views(&args)).map(Slot::resize)
                        },
                    );
                    Ok(bound.into_any())
                })
            })
            .collect()
    });
    FUNCS[method as usize].clone()
}

/// The function that gives CPython's message for `method` of its argument called with keywords
/// it does not take: `str.count() takes no keyword arguments`, the type named as a direct call
/// names it (dict's methods of a Counter are `dict.x`).
pub fn no_keywords_message_func(method: Method) -> crate::PackedFunc {
    crate::PackedFunc::new(move |args: &[AnyView<'_>]| {
        let v = args[0].value();
        let owner = match Recv::of(v) {
            Some(r) => counts::owner_name(r, method, v, false),
            None => {
                return Ok(AnyValue::from_text(&format!("{}() takes no keyword arguments", method.qualified_name())));
            }
        };
        Ok(AnyValue::from_text(&format!("{owner}.{}() takes no keyword arguments", method.name())))
    })
}

/// A type's static method as a function value (`f = str.maketrans`): `method` called on
/// `receiver`, an empty value of the type, which the method does not read.
pub fn static_method_func(method: Method, receiver: Slot) -> crate::PackedFunc {
    let recv: AnyValue = receiver.resize();
    crate::PackedFunc::new(move |args: &[AnyView<'_>]| call_method(method, recv.view(), args).map(Slot::resize))
}

/// Fails as [`call_method`] does when `obj`'s type has no `method`, before any argument exists.
pub fn check_method(method: Method, obj: AnyView<'_>) -> Result<()> {
    let v = obj.value();
    match Recv::of(v).and_then(|r| spec(method, r)) {
        Some(_) => Ok(()),
        None => Err(no_method(method, v)),
    }
}

/// The error for a method the receiver's type does not have (Python's AttributeError).
#[cold]
fn no_method(method: Method, v: Value<'_>) -> Error {
    super::value_ops::no_attribute(v, method.name())
}

#[cfg(test)]
mod tests;
