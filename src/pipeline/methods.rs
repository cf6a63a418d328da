//! Methods callable on values in anyscript (`s.lower()`, `xs.append(x)`, `d.get(k)`), with the
//! results and error messages of CPython 3.11.
//!
//! A method name shared by several types (`count`, `index`, `copy`, `clear`, `pop`) is one
//! [`Method`]; [`call_method`] dispatches on the receiver's runtime type. Str methods keep the
//! receiver's encoding (a UCS4 receiver gives UCS4 results).

use super::Slot;
use super::format::FormatArgs;
use super::value_ops::{
    Text, check_hashable, check_key_hashable, dict_in_view, dict_obj, dict_of, dict_update_from, index_arg,
    index_error, iter_items, key_error, list_of, norm_index, repr_value, seq_obj, sort_values, text_item, text_slot,
    tuple_obj, type_error, value_error, vname,
};
use crate::any::type_index as ti;
use crate::any::values_equal;
use crate::container::{DictKind, DictObj, ListObj, try_reserve_items};
use crate::{AnyValue, AnyView, Dict, Error, List, Result, Tuple, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

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
    MostCommon => "most_common", Elements => "elements", Total => "total", Subtract => "subtract",
    Isidentifier => "isidentifier", Isprintable => "isprintable", Popitem => "popitem", MoveToEnd => "move_to_end",
    Random => "random", Seed => "seed", Getrandbits => "getrandbits", Randrange => "randrange", Randint => "randint",
    Choice => "choice", Shuffle => "shuffle", Sample => "sample", Choices => "choices", Uniform => "uniform",
    Gauss => "gauss", Normalvariate => "normalvariate", Lognormvariate => "lognormvariate",
    Expovariate => "expovariate", Triangular => "triangular", Paretovariate => "paretovariate",
    Weibullvariate => "weibullvariate", Vonmisesvariate => "vonmisesvariate", Gammavariate => "gammavariate",
    Betavariate => "betavariate",
    Appendleft => "appendleft", Popleft => "popleft", Extendleft => "extendleft", Rotate => "rotate",
    BitLength => "bit_length", BitCount => "bit_count", IsInteger => "is_integer", Hex => "hex",
}

/// The receiver types that have methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Recv {
    Str,
    List,
    Tuple,
    Dict,
    Set,
    Bytes,
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
    /// An int (a bool too, as Python's bool is an int).
    Int,
    /// A float.
    Float,
}

impl Recv {
    const ALL: [Recv; 14] = [
        Recv::Str,
        Recv::List,
        Recv::Tuple,
        Recv::Dict,
        Recv::Set,
        Recv::Bytes,
        Recv::Pattern,
        Recv::Match,
        Recv::Counter,
        Recv::OrderedDict,
        Recv::Random,
        Recv::Deque,
        Recv::Int,
        Recv::Float,
    ];

    fn of(v: Value<'_>) -> Option<Recv> {
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
            Value::Object(o) if o.type_index() == ti::SET => Some(Recv::Set),
            // A match before a pattern: telling a pattern from another dynamic type takes the
            // type registry's lock, and `m.end()` runs once per token of a lexer.
            Value::Object(o) if o.type_index() == crate::ops::re::match_type_index() => Some(Recv::Match),
            Value::Object(_) if crate::ops::re::Pattern::of(v).is_some() => Some(Recv::Pattern),
            Value::Object(o) if o.type_index() == crate::ops::random::random_type_index() => Some(Recv::Random),
            Value::Object(_) if super::deque_ops::deque_of(v).is_some() => Some(Recv::Deque),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Recv::Str => "str",
            Recv::List => "list",
            Recv::Tuple => "tuple",
            Recv::Dict => "dict",
            Recv::Set => "set",
            Recv::Bytes => "bytes",
            Recv::Pattern => "re.Pattern",
            Recv::Match => "re.Match",
            Recv::Counter => "Counter",
            Recv::OrderedDict => "OrderedDict",
            Recv::Random => "Random",
            Recv::Deque => "deque",
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
        (Recv::Bytes, Lower | Upper | Isdigit | Isalpha | Isalnum | Isspace | Islower | Isupper | Isascii) => (0, 0),
        (Recv::List, Append | Extend | Remove | Count) => (1, 1),
        (Recv::List, Insert) => (2, 2),
        (Recv::List | Recv::Tuple, Index) => (1, 3),
        (Recv::Tuple, Count) => (1, 1),
        (Recv::List, Pop) => (0, 1),
        (Recv::List, Reverse | Sort | Copy | Clear) => (0, 0),
        (Recv::Dict, Get | Setdefault | Pop) => (1, 2),
        (Recv::Dict, Keys | Values | Items | Copy | Clear | Popitem) => (0, 0),
        (Recv::Int, BitLength | BitCount) | (Recv::Float, IsInteger) => (0, 0),
        (Recv::Dict, Update) => (0, 1),
        (Recv::Dict, Fromkeys) => (1, 2),
        (Recv::Set, Add | Discard | Remove | SymmetricDifference | SymmetricDifferenceUpdate) => (1, 1),
        (Recv::Set, Issubset | Issuperset | Isdisjoint) => (1, 1),
        (Recv::Set, Pop | Copy | Clear) => (0, 0),
        (Recv::Set, Update | Union | Intersection | IntersectionUpdate | Difference | DifferenceUpdate) => {
            (0, super::builtins::VARIADIC)
        }
        (Recv::Pattern, Search | Match | Fullmatch | Findall | Finditer) => (1, 3),
        (Recv::Pattern, Split) => (1, 2),
        (Recv::Pattern, Sub | Subn) => (2, 3),
        (Recv::Match, Group) => (0, super::builtins::VARIADIC),
        (Recv::Match, Groups | Groupdict | Start | End | Span) => (0, 1),
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
    let s = |k: usize| if k == 1 { "" } else { "s" };
    type_error(match (min, max) {
        (0, 0) => format!("{qualified}() takes no arguments ({n} given)"),
        (1, 1) => format!("{qualified}() takes exactly one argument ({n} given)"),
        _ if min == max => format!("{name} expected {min} arguments, got {n}"),
        _ if n > max => format!("{name} expected at most {max} argument{}, got {n}", s(max)),
        _ => format!("{name} expected at least {min} argument{}, got {n}", s(min)),
    })
}

/// Calls `obj.method(*args)`; an unknown method for the receiver's type is a TypeError.
pub fn call_method(method: Method, obj: AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
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
        let qualified = format!("{}.{}", recv.name(), method.name());
        return Err(arity_error(&qualified, method.name(), arity, args.len()));
    }
    match recv {
        Recv::Str => str_method(method, Text::of(v).expect("a str"), &obj, args),
        Recv::List => list_method(method, list_of(v).expect("a list"), args),
        Recv::Tuple => tuple_method(method, tuple_obj(v).expect("a tuple"), args),
        Recv::Dict if method == Method::Get => dict_get(dict_obj(v).expect("a dict"), args),
        Recv::Dict => dict_method(method, dict_of(v).expect("a dict"), args),
        Recv::Set => super::set_ops::set_method(method, super::set_ops::set_of(v).expect("a set"), args),
        Recv::Bytes if method == Method::Decode => {
            super::str_codecs::decode(super::str_codecs::bytes_of(v).expect("bytes"), args)
        }
        Recv::Bytes => super::bytes_methods::call(method, super::str_codecs::bytes_of(v).expect("bytes"), args),
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
        Recv::Int | Recv::Float => number_method(method, v),
        Recv::Deque => super::deque_ops::method(method, super::deque_ops::deque_of(v).expect("a deque"), args),
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
            Err(Error::new(crate::ErrorKind::Runtime, message))
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
        _ => unreachable!("spec admits only match methods"),
    };
    Ok(result.resize())
}

/// The types whose methods a script may call through the type (`str.upper(w)`), by the index
/// [`super::ir::Inst::CheckReceiver`] names them with.
pub const RECEIVER_TYPES: [&str; 5] = ["str", "list", "dict", "set", "bytes"];

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
        crate::PackedFunc::new(move |args| {
            let Some((obj, rest)) = args.split_first() else {
                let path = format!("{}.{}", RECEIVER_TYPES[ty as usize], method.name());
                return Err(type_error(format!("unbound method {path}() needs an argument")));
            };
            check_receiver(method, ty, obj.value())?;
            call_method(method, *obj, rest).map(Slot::resize)
        })
    });
    made.clone()
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
                    let recv = obj.to_owned::<0>();
                    let bound = move |args: &[AnyView<'_>]| call_method(m, recv.view(), args).map(Slot::resize);
                    Ok(crate::PackedFunc::new(bound).into_any())
                })
            })
            .collect()
    });
    FUNCS[method as usize].clone()
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

// ---------------------------------------------------------------- str

/// A method of str `t`, the text of `obj`.
fn str_method(m: Method, t: Text<'_>, obj: &AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    let ucs4 = t.is_ucs4();
    let flag = |pred: fn(char) -> bool| Ok(Slot::from_bool(all_chars(t, pred)));
    match m {
        Lower => Ok(case_map(t, false)),
        Upper => Ok(case_map(t, true)),
        Casefold => Ok(text_slot(&caseless::default_case_fold_str(&t.as_str()), ucs4)),
        Title => Ok(text_slot(&title(&t.as_str()), ucs4)),
        Capitalize => Ok(text_slot(&capitalize(&t.as_str()), ucs4)),
        Strip | Lstrip | Rstrip => strip(m, t, args.first()),
        Split | Rsplit => split(m, t, args),
        Join => join(t, &args[0]),
        // The receiver's count of characters, which a heap string keeps: searching from an
        // index of a long ASCII text is then O(1) to start, as it is in CPython.
        Startswith | Endswith | Find | Rfind | Index | Rindex | Count => super::str_find::search(m, t, obj, args),
        Replace => replace(t, args),
        Format => Ok(text_slot(&super::format::str_format(t, args)?, ucs4)),
        FormatMap => {
            let map = FormatArgs { positional: &[], named: Some(args[0]), map_only: true };
            Ok(text_slot(&super::format::str_format_with(t, map)?, ucs4))
        }
        Center | Ljust | Rjust => super::str_padding::justify(m, t, args),
        Zfill => super::str_padding::zfill(t, &args[0]),
        Partition | Rpartition => super::str_pieces::partition(m, t, &args[0]),
        Removeprefix | Removesuffix => super::str_pieces::remove_affix(m, t, &args[0]),
        Splitlines => super::str_pieces::splitlines(t, args.first()),
        // True for "" too, unlike the other tests.
        Isascii => Ok(Slot::from_bool(t.chars().all(|c| c.is_ascii()))),
        Swapcase => Ok(super::str_case::swapcase(t)),
        Istitle => Ok(Slot::from_bool(super::str_case::istitle(t))),
        Expandtabs => super::str_padding::expandtabs(t, args.first()),
        Maketrans => super::str_translate::maketrans(args),
        Translate => super::str_translate::translate(t, &args[0]),
        Encode => super::str_codecs::encode(t, args),
        Isidentifier => Ok(Slot::from_bool(is_identifier(t))),
        Isprintable => Ok(Slot::from_bool(t.chars().all(is_printable))),
        Isdigit => flag(is_digit),
        Isdecimal => flag(|c| decimal_value(c).is_some()),
        Isnumeric => flag(is_numeric),
        Isalpha => flag(is_alpha),
        Isalnum => flag(|c| is_alpha(c) || is_numeric(c)),
        Isspace => flag(is_space),
        Islower => Ok(Slot::from_bool(cased_only(t, char::is_lowercase, char::is_uppercase))),
        Isupper => Ok(Slot::from_bool(cased_only(t, char::is_uppercase, char::is_lowercase))),
        _ => unreachable!("spec admits only str methods"),
    }
}

/// `lower()` / `upper()`; short ASCII strings are mapped on the stack and stay inline.
fn case_map(t: Text<'_>, upper: bool) -> Slot {
    if let Text::Utf8(s) = t {
        if s.len() <= Slot::INLINE_BYTES && s.is_ascii() {
            let mut buf = [0u8; Slot::INLINE_BYTES];
            let buf = &mut buf[..s.len()];
            buf.copy_from_slice(s.as_bytes());
            if upper {
                buf.make_ascii_uppercase()
            } else {
                buf.make_ascii_lowercase()
            }
            return Slot::from_text(std::str::from_utf8(buf).unwrap_or_default());
        }
    }
    // Rust's full mappings match CPython's, final sigma included ("ΑΣ".lower() == "ας").
    let s = t.as_str();
    text_slot(&if upper { s.to_uppercase() } else { s.to_lowercase() }, t.is_ucs4())
}

/// `str.isidentifier()`: a first character of XID_Start or `_`, then XID_Continue ones (no
/// keyword check, as in Python).
fn is_identifier(t: Text<'_>) -> bool {
    let mut chars = t.chars();
    let rest = |c: char| unicode_ident::is_xid_continue(c) && !XID_CONTINUE_SINCE_14.contains(&c);
    chars.next().is_some_and(|c| c == '_' || unicode_ident::is_xid_start(c)) && chars.all(rest)
}

/// Characters of Unicode 14.0 (CPython 3.11's tables) that Unicode 15.1 added to XID_Continue:
/// the zero-width joiners and the katakana middle dots.
const XID_CONTINUE_SINCE_14: [char; 4] = ['\u{200C}', '\u{200D}', '\u{30FB}', '\u{FF65}'];

/// CPython's `Py_UNICODE_ISPRINTABLE`: not a separator (but the space) nor an "Other" character.
fn is_printable(c: char) -> bool {
    use unicode_general_category::GeneralCategory as G;
    c == ' '
        || !matches!(
            unicode_general_category::get_general_category(c),
            G::Control
                | G::Format
                | G::Surrogate
                | G::PrivateUse
                | G::Unassigned
                | G::LineSeparator
                | G::ParagraphSeparator
                | G::SpaceSeparator
        )
}

/// CPython's `Py_UNICODE_ISSPACE`: Rust's White_Space plus the separators U+001C..U+001F.
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// The zero of each run of ten decimal digits (category Nd), from CPython 3.11 (Unicode 14).
const DECIMAL_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0,
    0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620,
    0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0,
    0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60,
    0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// Digits that are not decimal (superscripts, circled digits...): `isdigit()` but not `isdecimal()`.
const DIGIT_EXTRA: [(u32, u32); 20] = [
    (0xB2, 0xB3),
    (0xB9, 0xB9),
    (0x1369, 0x1371),
    (0x19DA, 0x19DA),
    (0x2070, 0x2070),
    (0x2074, 0x2079),
    (0x2080, 0x2089),
    (0x2460, 0x2468),
    (0x2474, 0x247C),
    (0x2488, 0x2490),
    (0x24EA, 0x24EA),
    (0x24F5, 0x24FD),
    (0x24FF, 0x24FF),
    (0x2776, 0x277E),
    (0x2780, 0x2788),
    (0x278A, 0x2792),
    (0x10A40, 0x10A43),
    (0x10E60, 0x10E68),
    (0x11052, 0x1105A),
    (0x1F100, 0x1F10A),
];

/// Ideographs with a numeric value (category Lo): `isnumeric()` though not in category N.
const NUMERIC_IDEOGRAPHS: [u32; 81] = [
    0x3405, 0x3483, 0x382A, 0x3B4D, 0x4E00, 0x4E03, 0x4E07, 0x4E09, 0x4E5D, 0x4E8C, 0x4E94, 0x4E96, 0x4EBF, 0x4EC0,
    0x4EDF, 0x4EE8, 0x4F0D, 0x4F70, 0x5104, 0x5146, 0x5169, 0x516B, 0x516D, 0x5341, 0x5343, 0x5344, 0x5345, 0x534C,
    0x53C1, 0x53C2, 0x53C3, 0x53C4, 0x56DB, 0x58F1, 0x58F9, 0x5E7A, 0x5EFE, 0x5EFF, 0x5F0C, 0x5F0D, 0x5F0E, 0x5F10,
    0x62FE, 0x634C, 0x67D2, 0x6F06, 0x7396, 0x767E, 0x8086, 0x842C, 0x8CAE, 0x8CB3, 0x8D30, 0x9621, 0x9646, 0x964C,
    0x9678, 0x96F6, 0xF96B, 0xF973, 0xF978, 0xF9B2, 0xF9D1, 0xF9D3, 0xF9FD, 0x20001, 0x20064, 0x200E2, 0x20121,
    0x2092A, 0x20983, 0x2098C, 0x2099C, 0x20AEA, 0x20AFD, 0x20B19, 0x22390, 0x22998, 0x23B1B, 0x2626D, 0x2F890,
];

/// The value of a decimal digit in any script (`'٣'` → 3), as `str.isdecimal()` and `int()` see it.
pub(crate) fn decimal_value(c: char) -> Option<u32> {
    if c.is_ascii() {
        return c.to_digit(10);
    }
    let k = DECIMAL_ZEROS.partition_point(|&z| z <= c as u32);
    let d = (c as u32).wrapping_sub(DECIMAL_ZEROS[k.checked_sub(1)?]);
    (d < 10).then_some(d)
}

fn is_digit(c: char) -> bool {
    decimal_value(c).is_some() || DIGIT_EXTRA.iter().any(|&(a, b)| (a..=b).contains(&(c as u32)))
}

fn is_numeric(c: char) -> bool {
    // Rust's `is_numeric` is the general category N (Nd, Nl, No), which CPython counts as numeric.
    c.is_numeric() || NUMERIC_IDEOGRAPHS.binary_search(&(c as u32)).is_ok()
}

/// CPython's `isalpha`: the general category L (Rust's `is_alphabetic` also admits marks and Nl).
fn is_alpha(c: char) -> bool {
    static LETTER: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"\p{L}").expect("valid class"));
    if c.is_ascii() { c.is_ascii_alphabetic() } else { LETTER.is_match(c.encode_utf8(&mut [0; 4])) }
}

fn all_chars(t: Text<'_>, pred: impl Fn(char) -> bool) -> bool {
    let mut chars = t.chars();
    chars.next().is_some_and(&pred) && chars.all(pred)
}

/// The titlecase letters (category Lt); Rust has no predicate for them.
pub(crate) fn is_titlecase(c: char) -> bool {
    matches!(c as u32, 0x1C5 | 0x1C8 | 0x1CB | 0x1F2 | 0x1F88..=0x1F8F | 0x1F98..=0x1F9F | 0x1FA8..=0x1FAF | 0x1FBC | 0x1FCC | 0x1FFC)
}

/// CPython's "cased": Lowercase, Uppercase or titlecase.
fn is_cased(c: char) -> bool {
    c.is_lowercase() || c.is_uppercase() || is_titlecase(c)
}

/// `islower()` / `isupper()`: at least one cased character, and none of the other case or titlecase.
fn cased_only(t: Text<'_>, this: fn(char) -> bool, other: fn(char) -> bool) -> bool {
    let mut cased = false;
    for c in t.chars() {
        if other(c) || is_titlecase(c) {
            return false;
        }
        cased |= this(c);
    }
    cased
}

/// Appends the full titlecase mapping of `c` (Unicode SpecialCasing, as CPython 3.11 has it).
fn push_title(c: char, out: &mut String) {
    let mapped: &str = match c as u32 {
        0x149 => "\u{2BC}N",
        0x1C4..=0x1C6 => "\u{1C5}",
        0x1C7..=0x1C9 => "\u{1C8}",
        0x1CA..=0x1CC => "\u{1CB}",
        0x1F1..=0x1F3 => "\u{1F2}",
        // Georgian Mkhedruli letters are their own titlecase (their uppercase is Mtavruli).
        0x10D0..=0x10FA | 0x10FD..=0x10FF => {
            out.push(c);
            return;
        }
        // Greek with ypogegrammeni: the titlecase is the Lt letter 8 code points up.
        0x1F80..=0x1FAF => {
            out.extend(char::from_u32(c as u32 | 8));
            return;
        }
        0x1FB3 | 0x1FBC => "\u{1FBC}",
        0x1FC3 | 0x1FCC => "\u{1FCC}",
        0x1FF3 | 0x1FFC => "\u{1FFC}",
        0x1FB2 => "\u{1FBA}\u{345}",
        0x1FB4 => "\u{386}\u{345}",
        0x1FB7 => "\u{391}\u{342}\u{345}",
        0x1FC2 => "\u{1FCA}\u{345}",
        0x1FC4 => "\u{389}\u{345}",
        0x1FC7 => "\u{397}\u{342}\u{345}",
        0x1FF2 => "\u{1FFA}\u{345}",
        0x1FF4 => "\u{38F}\u{345}",
        0x1FF7 => "\u{3A9}\u{342}\u{345}",
        // Everywhere else the titlecase is the uppercase with all but its first letter lowered.
        _ => {
            let mut upper = c.to_uppercase();
            out.extend(upper.next());
            upper.for_each(|u| out.extend(u.to_lowercase()));
            return;
        }
    };
    out.push_str(mapped);
}

/// The lowercase of each character of `s`, in context (final sigma), aligned with `s.chars()`.
pub(crate) fn lowered_per_char(s: &str) -> impl Iterator<Item = Vec<char>> + '_ {
    // `str::to_lowercase` maps char by char except for the contextual final sigma, so its output
    // splits back into per-character pieces of known lengths.
    let lowered: Vec<char> = s.to_lowercase().chars().collect();
    let mut at = 0;
    s.chars().map(move |c| {
        let n = if c == 'Σ' { 1 } else { c.to_lowercase().len() };
        at += n;
        lowered[at - n..at].to_vec()
    })
}

/// `str.title()`: titlecase after an uncased character, lowercase after a cased one.
fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_cased = false;
    for (c, low) in s.chars().zip(lowered_per_char(s)) {
        if prev_cased {
            out.extend(low)
        } else {
            push_title(c, &mut out)
        }
        prev_cased = is_cased(c);
    }
    out
}

/// `str.capitalize()`: the first character titlecased, the rest lowercased.
fn capitalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, (c, low)) in s.chars().zip(lowered_per_char(s)).enumerate() {
        if i == 0 { push_title(c, &mut out) } else { out.extend(low) }
    }
    out
}

fn strip(m: Method, t: Text<'_>, chars: Option<&AnyView<'_>>) -> Result<Slot> {
    let set: Option<Cow<'_, [char]>> = match chars.map(|a| a.value()) {
        None | Some(Value::None) => None,
        Some(x) => match Text::of(x) {
            Some(c) => Some(Cow::Owned(c.to_chars().into_owned())),
            None => return Err(type_error(format!("{} arg must be None or str", m.name()))),
        },
    };
    let strip_it = |c: char| match &set {
        Some(set) => set.contains(&c),
        None => is_space(c),
    };
    let s = t.as_str();
    let out = match m {
        Method::Strip => s.trim_matches(strip_it),
        Method::Lstrip => s.trim_start_matches(strip_it),
        _ => s.trim_end_matches(strip_it),
    };
    Ok(text_slot(out, t.is_ucs4()))
}

/// An optional `start`/`end` argument: an int, or None for "omitted".
pub(super) fn opt_index(v: Option<&AnyView<'_>>) -> Result<Option<i64>> {
    match v.map(|a| a.value()) {
        None | Some(Value::None) => Ok(None),
        Some(x) => x
            .as_int()
            .map(Some)
            .ok_or_else(|| type_error("slice indices must be integers or None or have an __index__ method")),
    }
}

/// CPython's `ADJUST_INDICES` for str methods: clamps `end`, and `start` only from below.
pub(super) fn adjust_indices(start: Option<i64>, end: Option<i64>, len: usize) -> (i64, i64) {
    let n = len as i64;
    let end = match end.unwrap_or(n) {
        e if e > n => n,
        e if e < 0 => (e + n).max(0),
        e => e,
    };
    let start = match start.unwrap_or(0) {
        s if s < 0 => (s + n).max(0),
        s => s,
    };
    (start, end)
}

/// Adds `piece` to the pieces of a split, or a `MemoryError` when they cannot grow.
fn push_piece<'s>(out: &mut Vec<&'s str>, piece: &'s str) -> Result<()> {
    try_reserve_items(out, 1, "str.split() result")?;
    out.push(piece);
    Ok(())
}

/// Splits on runs of whitespace, at most `maxsplit` times (negative: no limit), as `str.split()`.
fn split_whitespace(s: &str, maxsplit: i64) -> Result<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = s.trim_start_matches(is_space);
    while !rest.is_empty() {
        if out.len() as i64 == maxsplit {
            push_piece(&mut out, rest)?;
            break;
        }
        match rest.find(is_space) {
            Some(i) => {
                push_piece(&mut out, &rest[..i])?;
                rest = rest[i..].trim_start_matches(is_space);
            }
            None => {
                push_piece(&mut out, rest)?;
                break;
            }
        }
    }
    Ok(out)
}

/// `str.rsplit()` on whitespace: as [`split_whitespace`], from the right.
fn rsplit_whitespace(s: &str, maxsplit: i64) -> Result<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = s.trim_end_matches(is_space);
    while !rest.is_empty() {
        if out.len() as i64 == maxsplit {
            push_piece(&mut out, rest)?;
            break;
        }
        match rest.char_indices().rev().find(|&(_, c)| is_space(c)) {
            Some((i, c)) => {
                push_piece(&mut out, &rest[i + c.len_utf8()..])?;
                rest = rest[..i].trim_end_matches(is_space);
            }
            None => {
                push_piece(&mut out, rest)?;
                break;
            }
        }
    }
    out.reverse();
    Ok(out)
}

fn split(m: Method, t: Text<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    let sep = match args.first().map(|a| a.value()) {
        None | Some(Value::None) => None,
        Some(x) => {
            Some(Text::of(x).ok_or_else(|| type_error(format!("must be str or None, not {}", vname(x))))?.as_str())
        }
    };
    let maxsplit = args.get(1).map(index_arg).transpose()?.unwrap_or(-1);
    let s = t.as_str();
    // `maxsplit + 1` pieces at most; a negative count means no limit.
    let limit = usize::try_from(maxsplit).map_or(usize::MAX, |k| k.saturating_add(1));
    let pieces: Vec<&str> = match (sep.as_deref(), m) {
        (None, Method::Split) => split_whitespace(&s, maxsplit)?,
        (None, _) => rsplit_whitespace(&s, maxsplit)?,
        (Some(""), _) => return Err(value_error("empty separator")),
        (Some(sep), Method::Split) => {
            let mut v = Vec::new();
            s.splitn(limit, sep).try_for_each(|p| push_piece(&mut v, p))?;
            v
        }
        (Some(sep), _) => {
            let mut v = Vec::new();
            s.rsplitn(limit, sep).try_for_each(|p| push_piece(&mut v, p))?;
            v.reverse();
            v
        }
    };
    let mut items = Vec::new();
    try_reserve_items(&mut items, pieces.len(), "str.split() result")?;
    items.extend(pieces.into_iter().map(|p| text_item(p, t.is_ucs4())));
    Ok(List::from_vec(items).into())
}

fn join(t: Text<'_>, iterable: &AnyView<'_>) -> Result<Slot> {
    let sep = t.as_str();
    // A generator's items can be taken once: they are listed before the two passes.
    let listed = match super::generator::generator_of(iterable.value()) {
        Some(g) => Some(List::from_vec(g.drain()?).into_any()),
        None => None,
    };
    let it = listed.as_ref().map_or_else(|| iterable.value(), AnyValue::value);
    // Two passes over the pieces: their total size first, so that the room for the result is
    // asked for once, and a result too large for memory is a `MemoryError`, not an abort.
    let mut total = 0usize;
    let mut out = String::new();
    let mut measure = |i: usize, x: Value<'_>| -> Result<()> {
        let Some(piece) = Text::of(x) else {
            return Err(type_error(format!("sequence item {i}: expected str instance, {} found", vname(x))));
        };
        let len = match piece {
            Text::Utf8(p) => p.len(),
            Text::Ucs4(p) => p.iter().map(|c| c.len_utf8()).sum(),
        };
        total = total.saturating_add(len).saturating_add(if i > 0 { sep.len() } else { 0 });
        Ok(())
    };
    for_each_join_piece(it, &mut measure)?;
    out.try_reserve_exact(total).map_err(|_| Error::out_of_memory("str.join() result", total))?;
    let mut push = |i: usize, x: Value<'_>| -> Result<()> {
        if i > 0 {
            out.push_str(&sep);
        }
        match Text::of(x) {
            Some(Text::Utf8(p)) => out.push_str(p),
            Some(Text::Ucs4(p)) => out.extend(p),
            // Only if another thread put it there since the first pass.
            None => return Err(type_error(format!("sequence item {i}: expected str instance, {} found", vname(x)))),
        }
        Ok(())
    };
    for_each_join_piece(it, &mut push)?;
    if t.is_ucs4() {
        return Ok(text_slot(&out, true));
    }
    // The result is copied into its string object, which the allocator may refuse as well.
    Slot::try_concat_text(&out, "").ok_or_else(|| Error::out_of_memory("str.join() result", out.len()))
}

/// Calls `f` with each piece `str.join` joins (and its index): a list's or a tuple's items, a
/// str's characters, a dict's keys, a set's or a deque's items.
pub(super) fn for_each_join_piece(it: Value<'_>, f: &mut dyn FnMut(usize, Value<'_>) -> Result<()>) -> Result<()> {
    if let Some(l) = seq_obj(it) {
        l.with_items(|xs| xs.iter().enumerate().try_for_each(|(i, x)| f(i, x.value())))
    } else if let Some(src) = Text::of(it) {
        src.chars().enumerate().try_for_each(|(i, c)| f(i, AnyValue::from_char(c).value()))
    } else if let Some(d) = dict_of(it) {
        d.keys().iter().enumerate().try_for_each(|(i, k)| f(i, k.value()))
    } else if super::set_ops::set_of(it).is_some() || super::deque_ops::deque_of(it).is_some() {
        iter_items(it)?.iter().enumerate().try_for_each(|(i, x)| f(i, x.value()))
    } else {
        Err(type_error("can only join an iterable"))
    }
}

fn replace(t: Text<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    let text_arg = |k: usize| {
        let x = args[k].value();
        Text::of(x)
            .map(|p| p.as_str().into_owned())
            .ok_or_else(|| type_error(format!("replace() argument {} must be str, not {}", k + 1, vname(x))))
    };
    let (old, new) = (text_arg(0)?, text_arg(1)?);
    let count = args.get(2).map(index_arg).transpose()?.unwrap_or(-1);
    let s = t.as_str();
    let limit = usize::try_from(count).unwrap_or(usize::MAX);
    // The result is sized first, so that a huge one (`s.replace("a", "b" * 10**6)`) is a
    // memory error when the allocator refuses it instead of an abort.
    let hits = s.matches(&*old).take(limit).count();
    let bytes = hits
        .checked_mul(new.len())
        .and_then(|added| (s.len() - hits * old.len()).checked_add(added))
        .ok_or_else(|| value_error("replace() result is too long"))?;
    let mut out = String::new();
    out.try_reserve_exact(bytes).map_err(|_| Error::out_of_memory("replace() result", bytes))?;
    let mut last = 0;
    for (at, hit) in s.match_indices(&*old).take(limit) {
        out.push_str(&s[last..at]);
        out.push_str(&new);
        last = at + hit.len();
    }
    out.push_str(&s[last..]);
    Ok(text_slot(&out, t.is_ucs4()))
}

// ---------------------------------------------------------------- list

/// Replaces the whole content of `l` (seen through every handle).
fn replace_items(l: &mut List, items: Vec<AnyValue>) {
    l.clear();
    l.extend(items);
}

/// `tuple.index` and `tuple.count`, the two methods of a tuple.
fn tuple_method(m: Method, t: &ListObj, args: &[AnyView<'_>]) -> Result<Slot> {
    match m {
        Method::Index => {
            let found = t.with_items(|xs| index_of(xs, args))?;
            found.map(Slot::from_int).ok_or_else(|| value_error("tuple.index(x): x not in tuple"))
        }
        _ => Ok(t.with_items(|xs| count_of(xs, args[0].value()))),
    }
}

/// The first position of `args[0]` in `xs[start:stop]` (`args[1..]`), as `list.index` and
/// `tuple.index` find it.
pub(crate) fn index_of(xs: &[AnyValue], args: &[AnyView<'_>]) -> Result<Option<i64>> {
    let x = args[0].value();
    // Unlike `str.index`, these take no `None` bounds.
    let bound = |a: Option<&AnyView<'_>>| -> Result<Option<i64>> {
        a.map(|a| {
            a.value().as_int().ok_or_else(|| type_error("slice indices must be integers or have an __index__ method"))
        })
        .transpose()
    };
    let (start, stop) = (bound(args.get(1))?, bound(args.get(2))?);
    let n = xs.len() as i64;
    let clamp = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) };
    let (st, en) = (start.map_or(0, clamp), stop.map_or(n, clamp));
    Ok((st..en).find(|&i| values_equal(xs[i as usize].value(), x, 0)))
}

/// How many items of `xs` equal `x`.
pub(crate) fn count_of(xs: &[AnyValue], x: Value<'_>) -> Slot {
    Slot::from_int(xs.iter().filter(|v| values_equal(v.value(), x, 0)).count() as i64)
}

fn list_method(m: Method, mut l: List, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    let none = Ok(Slot::none());
    match m {
        Append => {
            l.try_push(args[0].to_owned::<0>(), "list.append()")?;
            none
        }
        Extend => {
            let items = iter_items(args[0].value())?;
            l.try_extend(items, "list.extend()")?;
            none
        }
        Insert => {
            let i = index_arg(&args[0])?;
            l.try_insert(i, args[1].to_owned::<0>(), "list.insert()")?;
            none
        }
        Pop => {
            // The argument's type is checked first, as CPython does: `[].pop('x')` is a TypeError.
            let i = args.first().map(index_arg).transpose()?.unwrap_or(-1);
            let n = l.len();
            if n == 0 {
                return Err(index_error("pop from empty list"));
            }
            let i = norm_index(i, n).ok_or_else(|| index_error("pop index out of range"))?;
            if i == n - 1 {
                return l.pop().map(Slot::from);
            }
            let mut items = l.to_vec();
            let item = items.remove(i);
            replace_items(&mut l, items);
            Ok(item.into())
        }
        Index => {
            let found = l.with_items(|xs| index_of(xs, args))?;
            found
                .map(Slot::from_int)
                .ok_or_else(|| value_error(format!("{} is not in list", repr_value(args[0].value()))))
        }
        Count => Ok(l.with_items(|xs| count_of(xs, args[0].value()))),
        Copy => Ok(List::from_vec(l.to_vec()).into()),
        Reverse => {
            let mut items = l.to_vec();
            items.reverse();
            replace_items(&mut l, items);
            none
        }
        Sort => {
            // A failed comparison leaves the list as far as the sort got, as CPython's does.
            let mut items = l.to_vec();
            let sorted = sort_values(&mut items);
            replace_items(&mut l, items);
            sorted?;
            none
        }
        Remove => {
            let Some(i) = l.index_of(args[0]) else {
                return Err(value_error("list.remove(x): x not in list"));
            };
            let mut items = l.to_vec();
            items.remove(i);
            replace_items(&mut l, items);
            none
        }
        Clear => {
            l.clear();
            none
        }
        _ => unreachable!("spec admits only list methods"),
    }
}

// ---------------------------------------------------------------- dict

/// `fromkeys(iterable, value=None)` of a dict class: a dict of `kind`, each key set in turn
/// (`what` names the call in a MemoryError).
pub(crate) fn fromkeys(kind: DictKind, args: &[AnyView<'_>], what: &str) -> Result<Slot> {
    let value = args.get(1).map_or_else(AnyValue::none, |a| a.to_owned());
    let mut out = Dict::with_kind(kind);
    for k in iter_items(args[0].value())? {
        check_hashable(k.value())?;
        out.try_set(k, value.clone(), what)?;
    }
    Ok(out.into())
}

/// `d.get(k[, default])` on the dict where it stands, with no handle made (two atomic counts
/// for a lookup that takes a lock of its own).
fn dict_get(d: &DictObj, args: &[AnyView<'_>]) -> Result<Slot> {
    check_key_hashable(&args[0])?;
    Ok(match d.get(args[0]) {
        Some(found) => found.into(),
        None => args.get(1).map_or_else(Slot::none, |a| a.to_owned()),
    })
}

fn dict_method(m: Method, mut d: Dict, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    // CPython's `dict.pop` answers an empty dict before it hashes the key: `{}.pop([])` is a
    // KeyError (or the default), not "unhashable type".
    if m == Pop && d.is_empty() {
        return match args.get(1) {
            Some(default) => Ok(default.to_owned()),
            None => Err(key_error(args[0])),
        };
    }
    if matches!(m, Get | Pop | Setdefault) {
        check_hashable(args[0].value())?;
    }
    let default = || args.get(1).map_or_else(Slot::none, |a| a.to_owned());
    match m {
        Get => Ok(d.get(args[0]).map_or_else(default, Slot::from)),
        Keys => Ok(List::from_vec(d.keys()).into()),
        Values => Ok(List::from_vec(d.values()).into()),
        Items => {
            let pairs = d.items().into_iter().map(|(k, v)| Tuple::from_vec(vec![k, v]).into_any()).collect();
            Ok(List::from_vec(pairs).into())
        }
        Popitem => match d.pop_last() {
            Some((k, v)) => Ok(Tuple::from_vec(vec![k, v]).into()),
            None => Err(key_error(AnyView::from("popitem(): dictionary is empty"))),
        },
        Pop => match d.remove(args[0]) {
            Some(v) => Ok(v.into()),
            None if args.len() > 1 => Ok(default()),
            None => Err(key_error(args[0])),
        },
        Setdefault => {
            if let Some(v) = d.get(args[0]) {
                return Ok(v.into());
            }
            let v = args.get(1).map_or_else(AnyValue::none, |a| a.to_owned());
            d.try_set(args[0].to_owned::<0>(), v.clone(), "dict.setdefault()")?;
            Ok(v.into())
        }
        Update => {
            if let Some(src) = args.first() {
                dict_update_from(&mut d, src.value())?;
            }
            Ok(Slot::none())
        }
        // A static method: the receiver only chose it (`dict.fromkeys(xs)` or `{}.fromkeys(xs)`).
        Fromkeys => fromkeys(DictKind::Plain, args, "dict.fromkeys()"),
        // A Counter's or defaultdict's copy is one too (with the same factory).
        Copy => {
            let mut copy = Dict::with_kind(d.kind().clone());
            copy.extend(d.items());
            Ok(copy.into())
        }
        Clear => {
            d.clear();
            Ok(Slot::none())
        }
        _ => unreachable!("spec admits only dict methods"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use crate::pipeline::test_values::*;

    /// `repr(obj.name(*args))`, or the error as (kind, message).
    fn call(obj: &Slot, name: &str, args: &[Slot]) -> std::result::Result<String, (ErrorKind, String)> {
        let m = Method::from_name(name).expect(name);
        let views: Vec<AnyView<'_>> = args.iter().map(|a| a.view()).collect();
        call_method(m, obj.view(), &views).map(|r| repr_value(r.value())).map_err(|e| (e.kind(), e.message().into()))
    }
    fn ok(obj: &Slot, name: &str, args: &[Slot]) -> String {
        call(obj, name, args).unwrap_or_else(|e| panic!("{name}: {e:?}"))
    }
    fn rep(x: &Slot) -> String {
        repr_value(x.value())
    }

    #[test]
    fn names_and_arity() {
        for &m in Method::ALL {
            assert_eq!(Method::from_name(m.name()), Some(m));
        }
        assert_eq!(Method::from_name("nope"), None);
        assert_eq!(Method::Pop.arity(), (0, 2));
        assert_eq!(Method::Index.arity(), (1, 3));
        assert_eq!(Method::Lower.arity(), (0, 0));
        assert_eq!(Method::Count.arity(), (1, 3));
        // A set's `update(*others)` takes any number; a dict's takes one, checked when it runs.
        assert_eq!(Method::Update.arity(), (0, super::super::builtins::VARIADIC));
        assert_eq!(Method::Add.arity(), (1, 1));
        assert_eq!(Method::Add.qualified_name(), "set.add");
    }

    #[test]
    fn dispatch_errors() {
        let t = |m: &str| Err((ErrorKind::Type, m.to_owned()));
        let a = |m: &str| Err((ErrorKind::Attribute, m.to_owned()));
        assert_eq!(call(&i(1), "lower", &[]), a("'int' object has no attribute 'lower'"));
        assert_eq!(call(&list(vec![]), "lower", &[]), a("'list' object has no attribute 'lower'"));
        assert_eq!(call(&s("a"), "append", &[i(1)]), a("'str' object has no attribute 'append'"));
        assert_eq!(call(&s("a"), "lower", &[i(1)]), t("str.lower() takes no arguments (1 given)"));
        assert_eq!(call(&list(vec![]), "append", &[]), t("list.append() takes exactly one argument (0 given)"));
        assert_eq!(call(&list(vec![]), "pop", &[i(1), i(2)]), t("pop expected at most 1 argument, got 2"));
        assert_eq!(call(&dict(vec![]), "pop", &[]), t("pop expected at least 1 argument, got 0"));
        assert_eq!(call(&list(vec![]), "insert", &[i(1)]), t("insert expected 2 arguments, got 1"));
        assert_eq!(call(&s("a"), "replace", &[s("a")]), t("replace expected at least 2 arguments, got 1"));
        // CPython 3.11's wording for set methods.
        let set = Slot::from(crate::Set::new());
        assert_eq!(call(&set, "add", &[]), t("set.add() takes exactly one argument (0 given)"));
        assert_eq!(call(&set, "pop", &[i(1)]), t("set.pop() takes no arguments (1 given)"));
        assert_eq!(call(&set, "append", &[i(1)]), a("'set' object has no attribute 'append'"));
        assert_eq!(call(&dict(vec![]), "update", &[i(1), i(2)]), t("update expected at most 1 argument, got 2"));
    }

    #[test]
    fn case_mapping() {
        assert_eq!(ok(&s("HeLLo"), "lower", &[]), "'hello'");
        assert_eq!(ok(&s("HeLLo"), "upper", &[]), "'HELLO'");
        assert!(!call_method(Method::Lower, s("ABCDEFGHIJKLMNOP").view(), &[]).unwrap().is_object());
        assert_eq!(ok(&s("ÀÉÎ ΑΣ"), "lower", &[]), "'àéî ας'");
        assert_eq!(ok(&u("ΑΣ Α"), "lower", &[]), "'ας α'");
        assert_eq!(ok(&s("Σ"), "lower", &[]), "'σ'");
        assert_eq!(ok(&s("İ"), "lower", &[]), "'i̇'");
        assert_eq!(ok(&s("straße"), "upper", &[]), "'STRASSE'");
        assert_eq!(ok(&s("Straße"), "casefold", &[]), "'strasse'");
        assert!(matches!(call_method(Method::Upper, u("é").view(), &[]).unwrap().value(), Value::UStr(_)));
        assert_eq!(ok(&s("hello wORLD"), "title", &[]), "'Hello World'");
        assert_eq!(ok(&s("they're bill's"), "title", &[]), "\"They'Re Bill'S\"");
        assert_eq!(ok(&s("ǆ"), "title", &[]), "'ǅ'");
        assert_eq!(ok(&s("ß"), "title", &[]), "'Ss'");
        assert_eq!(ok(&s("ﬁx"), "title", &[]), "'Fix'");
        assert_eq!(ok(&s("ΣΑΣ ΣΑΣ"), "title", &[]), "'Σας Σας'");
        assert_eq!(ok(&s("aΣ"), "title", &[]), "'Aς'");
        assert_eq!(ok(&s("hello wORLD"), "capitalize", &[]), "'Hello world'");
        assert_eq!(ok(&s("ΑΣ"), "capitalize", &[]), "'Ας'");
        assert_eq!(ok(&s("ǆa"), "capitalize", &[]), "'ǅa'");
        assert_eq!(ok(&s("ßa"), "capitalize", &[]), "'Ssa'");
        assert_eq!(ok(&s(""), "capitalize", &[]), "''");
    }

    #[test]
    fn strip_family() {
        assert_eq!(ok(&s(" \t a b \n"), "strip", &[]), "'a b'");
        assert_eq!(ok(&s("\u{1c}\u{3000}a\u{a0}"), "strip", &[]), "'a'");
        assert_eq!(ok(&s("\u{200b}a"), "strip", &[]), "'\\u200ba'");
        assert_eq!(ok(&s("xxaxyx"), "strip", &[s("xy")]), "'a'");
        assert_eq!(ok(&s("  a  "), "lstrip", &[]), "'a  '");
        assert_eq!(ok(&s("  a  "), "rstrip", &[none()]), "'  a'");
        assert_eq!(ok(&u("éaé"), "strip", &[s("é")]), "'a'");
        assert_eq!(call(&s("a"), "strip", &[i(1)]), Err((ErrorKind::Type, "strip arg must be None or str".into())));
    }

    #[test]
    fn splitting() {
        assert_eq!(ok(&s(" a  b "), "split", &[]), "['a', 'b']");
        assert_eq!(ok(&s("a,b,,c"), "split", &[s(",")]), "['a', 'b', '', 'c']");
        assert_eq!(ok(&s(" a b c "), "split", &[none(), i(1)]), "['a', 'b c ']");
        assert_eq!(ok(&s(" a b c "), "rsplit", &[none(), i(1)]), "[' a b', 'c']");
        assert_eq!(ok(&s("a,b,c"), "rsplit", &[s(","), i(1)]), "['a,b', 'c']");
        assert_eq!(ok(&s("a,b,c"), "split", &[s(","), i(0)]), "['a,b,c']");
        assert_eq!(ok(&s("a,b,c"), "split", &[s(","), i(-5)]), "['a', 'b', 'c']");
        assert_eq!(ok(&s("aaa"), "split", &[s("aa")]), "['', 'a']");
        assert_eq!(ok(&s("aaa"), "rsplit", &[s("aa")]), "['a', '']");
        assert_eq!(ok(&s(""), "split", &[]), "[]");
        assert_eq!(ok(&s("   "), "split", &[none(), i(0)]), "[]");
        assert_eq!(ok(&s("a "), "split", &[none(), i(0)]), "['a ']");
        assert_eq!(ok(&s(""), "split", &[s(",")]), "['']");
        assert_eq!(ok(&s("a\u{1c}b\u{3000}c"), "split", &[]), "['a', 'b', 'c']");
        assert_eq!(ok(&u("日 本"), "split", &[]), "['日', '本']");
        assert_eq!(call(&s("a"), "split", &[s("")]), Err((ErrorKind::Value, "empty separator".into())));
        assert_eq!(call(&s("a"), "split", &[i(1)]), Err((ErrorKind::Type, "must be str or None, not int".into())));
    }

    #[test]
    fn joining() {
        assert_eq!(ok(&s(","), "join", &[list(vec![s("a"), u("é"), s("c")])]), "'a,é,c'");
        assert_eq!(ok(&s("-"), "join", &[s("abc")]), "'a-b-c'");
        assert_eq!(ok(&s(""), "join", &[list(vec![])]), "''");
        assert_eq!(ok(&s("+"), "join", &[dict(vec![(s("k"), i(1)), (s("l"), i(2))])]), "'k+l'");
        assert_eq!(
            call(&s(","), "join", &[list(vec![s("a"), i(1)])]),
            Err((ErrorKind::Type, "sequence item 1: expected str instance, int found".into()))
        );
        assert_eq!(call(&s(","), "join", &[i(1)]), Err((ErrorKind::Type, "can only join an iterable".into())));
    }

    #[test]
    fn prefixes() {
        assert_eq!(ok(&s("##ab"), "startswith", &[s("##")]), "True");
        assert_eq!(ok(&u("日本"), "endswith", &[s("本")]), "True");
        assert_eq!(ok(&s("abc"), "startswith", &[tuple(vec![s("x"), s("ab")])]), "True");
        assert_eq!(ok(&s("abc"), "startswith", &[tuple(vec![s("a"), i(1)])]), "True");
        assert_eq!(ok(&s("abc"), "startswith", &[s(""), i(5)]), "False");
        assert_eq!(ok(&s("abc"), "startswith", &[s(""), i(3)]), "True");
        assert_eq!(ok(&s("abc"), "startswith", &[s("b"), i(1)]), "True");
        assert_eq!(ok(&s("abc"), "endswith", &[s("b"), i(0), i(-1)]), "True");
        assert_eq!(ok(&s("aé日"), "endswith", &[s("é"), none(), i(2)]), "True");
        assert_eq!(
            call(&s("abc"), "startswith", &[i(1)]),
            Err((ErrorKind::Type, "startswith first arg must be str or a tuple of str, not int".into()))
        );
        assert_eq!(
            call(&s("abc"), "endswith", &[tuple(vec![i(1)])]),
            Err((ErrorKind::Type, "tuple for endswith must only contain str, not int".into()))
        );
        // A list is not a tuple of prefixes.
        assert_eq!(
            call(&s("abc"), "startswith", &[list(vec![s("a")])]),
            Err((ErrorKind::Type, "startswith first arg must be str or a tuple of str, not list".into()))
        );
    }

    #[test]
    fn searching() {
        let w = s("héllo héllo");
        assert_eq!(ok(&w, "find", &[s("llo")]), "2");
        assert_eq!(ok(&w, "rfind", &[s("llo")]), "8");
        assert_eq!(ok(&w, "find", &[s("llo"), i(3)]), "8");
        assert_eq!(ok(&w, "find", &[s("llo"), i(3), i(-1)]), "-1");
        assert_eq!(ok(&w, "find", &[s("x")]), "-1");
        assert_eq!(ok(&w, "index", &[s("é")]), "1");
        assert_eq!(ok(&w, "rindex", &[s("é")]), "7");
        assert_eq!(ok(&w, "count", &[s("l")]), "4");
        assert_eq!(ok(&w, "count", &[s("l"), i(-3)]), "2");
        assert_eq!(ok(&s("aaaa"), "count", &[s("aa")]), "2");
        assert_eq!(ok(&s("abc"), "count", &[s("")]), "4");
        assert_eq!(ok(&s("abc"), "count", &[s(""), i(4)]), "0");
        assert_eq!(ok(&s("abc"), "find", &[s(""), i(3)]), "3");
        assert_eq!(ok(&s("abc"), "find", &[s(""), i(4)]), "-1");
        assert_eq!(ok(&s("abc"), "rfind", &[s("")]), "3");
        assert_eq!(ok(&u("日本日本"), "rfind", &[s("日")]), "2");
        assert_eq!(call(&s("a"), "index", &[s("b")]), Err((ErrorKind::Value, "substring not found".into())));
        assert_eq!(call(&s("a"), "count", &[i(1)]), Err((ErrorKind::Type, "must be str, not int".into())));
        assert_eq!(
            call(&s("abc"), "find", &[s("b"), Slot::from_float(1.5)]),
            Err((ErrorKind::Type, "slice indices must be integers or None or have an __index__ method".into()))
        );
    }

    #[test]
    fn replacing() {
        assert_eq!(ok(&s("aXbXc"), "replace", &[s("X"), s("--")]), "'a--b--c'");
        assert_eq!(ok(&s("aXbXc"), "replace", &[s("X"), s(""), i(1)]), "'abXc'");
        assert_eq!(ok(&s("abc"), "replace", &[s(""), s("-")]), "'-a-b-c-'");
        assert_eq!(ok(&s("abc"), "replace", &[s(""), s("-"), i(2)]), "'-a-bc'");
        assert_eq!(ok(&u("日本"), "replace", &[s("本"), s("語")]), "'日語'");
        assert_eq!(
            call(&s("a"), "replace", &[i(1), s("b")]),
            Err((ErrorKind::Type, "replace() argument 1 must be str, not int".into()))
        );
    }

    #[test]
    fn predicates() {
        let p = |x: &str, name: &str| ok(&s(x), name, &[]) == "True";
        assert!(p("123", "isdigit") && p("²", "isdigit") && !p("½", "isdigit") && !p("", "isdigit"));
        assert!(p("١٢", "isdecimal") && !p("²", "isdecimal") && p("𝟎𝟗", "isdecimal"));
        assert!(p("½Ⅻ一", "isnumeric") && p("²", "isnumeric") && !p("a", "isnumeric"));
        assert!(p("abcé日", "isalpha") && p("一", "isalpha") && !p("ा", "isalpha") && !p("Ⅻ", "isalpha"));
        assert!(!p("a1", "isalpha") && !p("", "isalpha"));
        assert!(p("a½1", "isalnum") && !p("a b", "isalnum"));
        assert!(p(" \t\u{1c}\u{3000}", "isspace") && !p("\u{200b}", "isspace") && !p("", "isspace"));
        assert!(p("a1", "islower") && p("ß", "islower") && p("ª", "islower") && !p("1", "islower"));
        assert!(!p("ǅ", "islower") && !p("ǅ", "isupper") && !p("aB", "islower"));
        assert!(p("A1", "isupper") && !p("Ab", "isupper"));
        assert_eq!(ok(&u("٣"), "isdigit", &[]), "True");
        // CPython 3.11's answers.
        assert!(p("a b!é", "isprintable") && p("", "isprintable") && !p("a\tb", "isprintable"));
        assert!(!p("\u{a0}", "isprintable") && !p("\u{200b}", "isprintable") && !p("\u{e000}", "isprintable"));
        assert!(p("_x1", "isidentifier") && p("été", "isidentifier") && p("class", "isidentifier"));
        assert!(!p("1x", "isidentifier") && !p("a-b", "isidentifier") && !p("", "isidentifier"));
        assert!(!p("a\u{200d}", "isidentifier") && p("a\u{b7}", "isidentifier"));
    }

    #[test]
    fn number_methods() {
        assert_eq!(ok(&i(255), "bit_length", &[]), "8");
        assert_eq!(ok(&i(-256), "bit_length", &[]), "9");
        assert_eq!(ok(&i(0), "bit_length", &[]), "0");
        assert_eq!(ok(&i(i64::MIN), "bit_length", &[]), "64");
        assert_eq!(ok(&i(-7), "bit_count", &[]), "3");
        assert_eq!(ok(&b(true), "bit_length", &[]), "1");
        assert_eq!(ok(&f(2.0), "is_integer", &[]), "True");
        assert_eq!(ok(&f(2.5), "is_integer", &[]), "False");
        assert_eq!(ok(&f(f64::INFINITY), "is_integer", &[]), "False");
        assert_eq!(
            call(&i(2), "is_integer", &[]),
            Err((ErrorKind::Attribute, "'int' object has no attribute 'is_integer'".into()))
        );
        assert_eq!(
            call(&f(2.0), "bit_length", &[]),
            Err((ErrorKind::Attribute, "'float' object has no attribute 'bit_length'".into()))
        );
        assert_eq!(
            call(&i(2), "bit_length", &[i(1)]),
            Err((ErrorKind::Type, "int.bit_length() takes no arguments (1 given)".into()))
        );
    }

    #[test]
    fn list_methods() {
        let l = list(vec![i(3), i(1)]);
        assert_eq!(ok(&l, "append", &[s("x")]), "None");
        assert_eq!(ok(&l, "extend", &[s("ab")]), "None");
        assert_eq!(rep(&l), "[3, 1, 'x', 'a', 'b']");
        assert_eq!(ok(&l, "pop", &[]), "'b'");
        assert_eq!(ok(&l, "pop", &[i(0)]), "3");
        assert_eq!(ok(&l, "pop", &[i(-2)]), "'x'");
        assert_eq!(rep(&l), "[1, 'a']");
        assert_eq!(ok(&l, "insert", &[i(100), i(5)]), "None");
        assert_eq!(ok(&l, "insert", &[i(-100), i(0)]), "None");
        assert_eq!(ok(&l, "insert", &[i(-1), i(9)]), "None");
        assert_eq!(rep(&l), "[0, 1, 'a', 9, 5]");
        assert_eq!(ok(&l, "index", &[Slot::from_float(1.0)]), "1");
        assert_eq!(ok(&l, "index", &[i(9), i(-2)]), "3");
        assert_eq!(call(&l, "index", &[i(9), i(0), i(3)]), Err((ErrorKind::Value, "9 is not in list".into())));
        assert_eq!(call(&l, "index", &[s("q")]), Err((ErrorKind::Value, "'q' is not in list".into())));
        assert_eq!(ok(&l, "count", &[Slot::from_bool(true)]), "1");
        assert_eq!(ok(&l, "remove", &[s("a")]), "None");
        assert_eq!(call(&l, "remove", &[s("a")]), Err((ErrorKind::Value, "list.remove(x): x not in list".into())));
        assert_eq!(ok(&l, "reverse", &[]), "None");
        assert_eq!(rep(&l), "[5, 9, 1, 0]");
        let c = call_method(Method::Copy, l.view(), &[]).unwrap();
        assert_eq!(ok(&l, "sort", &[]), "None");
        assert_eq!(rep(&l), "[0, 1, 5, 9]");
        assert_eq!(rep(&c), "[5, 9, 1, 0]");
        assert_eq!(ok(&l, "clear", &[]), "None");
        assert_eq!(rep(&l), "[]");
        assert_eq!(call(&l, "pop", &[]), Err((ErrorKind::Index, "pop from empty list".into())));
        assert_eq!(call(&list(vec![i(1)]), "pop", &[i(5)]), Err((ErrorKind::Index, "pop index out of range".into())));
        let mixed = list(vec![i(1), s("a")]);
        assert_eq!(
            call(&mixed, "sort", &[]),
            Err((ErrorKind::Type, "'<' not supported between instances of 'str' and 'int'".into()))
        );
        assert_eq!(rep(&mixed), "[1, 'a']");
        let strs = list(vec![s("b"), u("a"), s("é")]);
        ok(&strs, "sort", &[]);
        assert_eq!(rep(&strs), "['a', 'b', 'é']");
    }

    #[test]
    fn dict_methods() {
        let d = dict(vec![(s("a"), i(1)), (s("b"), i(2))]);
        assert_eq!(ok(&d, "get", &[s("a")]), "1");
        assert_eq!(ok(&d, "get", &[s("z")]), "None");
        assert_eq!(ok(&d, "get", &[s("z"), i(0)]), "0");
        assert_eq!(ok(&d, "keys", &[]), "['a', 'b']");
        assert_eq!(ok(&d, "values", &[]), "[1, 2]");
        assert_eq!(ok(&d, "items", &[]), "[('a', 1), ('b', 2)]");
        assert_eq!(ok(&d, "setdefault", &[s("a"), i(9)]), "1");
        assert_eq!(ok(&d, "setdefault", &[s("c")]), "None");
        assert_eq!(ok(&d, "pop", &[s("c")]), "None");
        assert_eq!(ok(&d, "pop", &[s("c"), i(7)]), "7");
        assert_eq!(call(&d, "pop", &[s("c")]), Err((ErrorKind::Key, "'c'".into())));
        assert_eq!(ok(&d, "update", &[dict(vec![(s("b"), i(20)), (s("d"), i(4))])]), "None");
        assert_eq!(ok(&d, "update", &[list(vec![list(vec![s("e"), i(5)])])]), "None");
        assert_eq!(rep(&d), "{'a': 1, 'b': 20, 'd': 4, 'e': 5}");
        assert_eq!(call(&d, "update", &[i(1)]), Err((ErrorKind::Type, "'int' object is not iterable".into())));
        let c = call_method(Method::Copy, d.view(), &[]).unwrap();
        assert_eq!(ok(&d, "clear", &[]), "None");
        assert_eq!(rep(&d), "{}");
        assert_eq!(rep(&c), "{'a': 1, 'b': 20, 'd': 4, 'e': 5}");
        assert_eq!(call(&d, "get", &[dict(vec![])]), Err((ErrorKind::Type, "unhashable type: 'dict'".into())));
        let d = dict(vec![(s("a"), i(1)), (s("b"), i(2))]);
        assert_eq!(ok(&d, "popitem", &[]), "('b', 2)");
        assert_eq!(ok(&d, "popitem", &[]), "('a', 1)");
        assert_eq!(call(&d, "popitem", &[]), Err((ErrorKind::Key, "'popitem(): dictionary is empty'".into())));
    }
}
