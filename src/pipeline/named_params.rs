//! The keyword parameters of the built-ins and methods that take keyword arguments
//! (`round(x, ndigits=2)`, `s.split(sep=",")`, `pattern.search(text, pos=3)`), as CPython
//! declares them, and the binding of a call of one through its value (`f = str.split; f(s,
//! maxsplit=1)`, `partial(text.split, sep=",")`, `partial(max, key=len)`) when it runs; a call
//! by its name is bound where it is compiled.

use super::Slot;
use super::ast::Literal;
use super::binding::{Params, bind, bound_values};
use super::builtins::{Builtin, call_builtin};
use super::keyed::{Keyed, call_keyed};
use super::methods::{Method, no_keywords_message_func};
use super::shaped_binding::{ResolvedArgs, views};
use super::value_ops::{to_str, type_error, vname};
use crate::func::CallArgs;
use crate::{AnyValue, AnyView, Result};

/// The keyword parameters of a built-in or a method: every parameter's name (`""` for one that
/// is positional-only), how many of the first ones are required, and the values the optional
/// ones but the last take when a later one is given.
pub(crate) type KeywordParams = (&'static [&'static str], usize, &'static [Literal]);

/// What `str`'s `object` and `encoding` are when a later parameter is given without them.
static STR_FILLERS: std::sync::LazyLock<[Literal; 2]> =
    std::sync::LazyLock::new(|| [Literal::Bytes(Vec::new()), Literal::Str("utf-8".into())]);

/// The keyword parameters of a built-in.
pub(crate) fn builtin_params(b: Builtin) -> Option<KeywordParams> {
    Some(match b {
        Builtin::Enumerate => (&["iterable", "start"], 1, &[]),
        Builtin::Sum => (&["", "start"], 1, &[]),
        Builtin::Round => (&["number", "ndigits"], 1, &[]),
        // `int(base=2)` is refused before binding, with CPython's message.
        Builtin::Int => (&["", "base"], 1, &[]),
        Builtin::Pow => (&["base", "exp", "mod"], 2, &[]),
        // `str(b, errors="ignore")` decodes with UTF-8, `str(encoding="x")` gives "".
        Builtin::Str => (&["object", "encoding", "errors"], 0, &STR_FILLERS[..]),
        _ => return None,
    })
}

/// The keyword parameters of a method (`None`: it takes none, or binds as an op, `random`'s).
pub(crate) fn method_params(m: Method) -> Option<KeywordParams> {
    static CODEC_DEFAULTS: std::sync::LazyLock<[Literal; 1]> =
        std::sync::LazyLock::new(|| [Literal::Str("utf-8".into())]);
    Some(match m {
        Method::Split | Method::Rsplit => (&["sep", "maxsplit"], 0, &[Literal::None]),
        Method::Encode | Method::Decode => (&["encoding", "errors"], 0, &CODEC_DEFAULTS[..]),
        Method::Splitlines => (&["keepends"], 0, &[]),
        Method::Expandtabs => (&["tabsize"], 0, &[]),
        // bytes' (`sep` left unset when only `bytes_per_sep` is given: `hex` reads a None filler so).
        Method::Hex => (&["sep", "bytes_per_sep"], 0, &[Literal::None]),
        Method::Translate => (&["", "delete"], 1, &[]),
        // A compiled pattern's (`str.split`'s names serve `Pattern.split(string, maxsplit)`).
        Method::Sub | Method::Subn => (&["repl", "string", "count"], 2, &[]),
        Method::Search | Method::Match | Method::Fullmatch | Method::Findall | Method::Finditer => {
            (&["string", "pos", "endpos"], 1, &[Literal::Int(0)])
        }
        Method::Groups | Method::Groupdict => (&["default"], 0, &[]),
        Method::MostCommon => (&["n"], 0, &[]),
        // `to_bytes(length=1, byteorder='big', *, signed=False)` reads a None filler as "big".
        Method::ToBytes => (&["length", "byteorder", "signed"], 0, &[Literal::Int(1), Literal::None]),
        // OrderedDict's (a dict's `popitem` takes none, and says so when it runs).
        Method::MoveToEnd => (&["key", "last"], 1, &[]),
        Method::Popitem => (&["last"], 0, &[]),
        // `random.Random`'s bind as `ops/params.rs` declares the module functions.
        _ => return None,
    })
}

/// The binding of built-in or method `name` that takes `params`, any of them given by position
/// or keyword.
pub(crate) fn keyword_params<'a>(name: &'a str, (names, required, _): KeywordParams) -> Params<'a> {
    Params { name, names, positional: names.len(), n_defaults: names.len() - required, builtin: true }
}

/// The fillers of `params` as a binding's defaults: the last
/// parameter's, never read (a built-in is not passed the parameters after the last one given),
/// stands in as None.
pub(crate) fn fillers_of((names, required, fillers): KeywordParams) -> Vec<Literal> {
    let mut all = fillers.to_vec();
    all.resize(names.len() - required, Literal::None);
    all
}

/// The arguments of method `m` of `obj`, called through a value with `call` (the receiver not
/// among them), bound by position: CPython's errors for a wrong call, and for keywords to a
/// method that takes none.
pub(crate) fn method_arguments(m: Method, obj: AnyView<'_>, call: &CallArgs<'_>) -> Result<Vec<AnyValue>> {
    // CPython names a bound method by its type in the errors of spreading (`str.split() argument
    // after ** must be a mapping`).
    let resolved = ResolvedArgs::of(&format!("{}.{}", vname(obj.value()), m.name()), call)?;
    bound_method_arguments(m, obj, resolved.positional, &resolved.names, &resolved.values)
}

/// [`method_arguments`] of a call already spread and merged.
pub(crate) fn bound_method_arguments(
    m: Method,
    obj: AnyView<'_>,
    positional: Vec<AnyValue>,
    names: &[String],
    values: &[AnyValue],
) -> Result<Vec<AnyValue>> {
    if names.is_empty() {
        return Ok(positional);
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // `random.Random`'s methods bind as the module functions of the same names.
    let random_op = crate::ops::random::RandomFn::of_method(m)
        .and_then(|_| crate::ops::params::op_params(&format!("random.{}", m.name())));
    let (sources, n_params, defaults) = match (random_op, method_params(m)) {
        (Some(op), _) => (op.bind(positional.len(), &names)?, op.names.len(), op.defaults.to_vec()),
        (None, Some(params)) => {
            let spec: Params<'_> = keyword_params(m.name(), params);
            (bind(&spec, positional.len(), &names)?, params.0.len(), fillers_of(params))
        }
        (None, None) => {
            let message = no_keywords_message_func(m).call(&[obj])?;
            return Err(type_error(to_str(message.view())?));
        }
    };
    Ok(bound_values(&sources, (&positional, values), n_params, &defaults))
}

/// Built-in `b` called through its value with `call` (`partial(sorted, key=len)`): `sorted`,
/// `min` and `max` take `key=`, `reverse=` and `default=` as a call by name does, the built-ins
/// whose parameters [`builtin_params`] declares bind them, the rest take none, with CPython's
/// errors. `print`, `zip` and `dict` take no keywords this way.
pub(crate) fn call_builtin_named(b: Builtin, call: &CallArgs<'_>) -> Result<Slot> {
    let name = b.name();
    let resolved = ResolvedArgs::of(name, call)?;
    let (positional, names, values) = (&resolved.positional, &resolved.names, &resolved.values);
    if names.is_empty() {
        return call_builtin(b, &views(positional));
    }
    let keyword = |wanted: &str| names.iter().position(|n| n == wanted).map(|i| values[i].clone());
    match b {
        Builtin::Sorted | Builtin::Min | Builtin::Max => {
            let allowed: &[&str] = if b == Builtin::Sorted { &["key", "reverse"] } else { &["key", "default"] };
            // `sorted` is `list.sort` on a copy, to CPython too.
            let callee = if b == Builtin::Sorted { "sort" } else { name };
            if let Some(e) = invalid_key_keywords(callee, allowed, &resolved.name_refs()) {
                return Err(e);
            }
            let key = keyword("key").unwrap_or_default();
            if b == Builtin::Sorted {
                let [iterable] = positional.as_slice() else { return Err(b.arity_error(positional.len())) };
                let reverse = keyword("reverse").unwrap_or_else(|| AnyValue::from(false));
                return call_keyed(Keyed::Sorted, &[iterable.view(), key.view(), reverse.view()]);
            }
            if positional.is_empty() {
                return Err(type_error(format!("{name} expected at least 1 argument, got 0")));
            }
            let default = keyword("default");
            let call = Keyed::Extreme { max: b == Builtin::Max, has_default: default.is_some() };
            let default = default.unwrap_or_default();
            let operands: Vec<AnyView<'_>> =
                [key.view(), default.view()].into_iter().chain(positional.iter().map(AnyValue::view)).collect();
            call_keyed(call, &operands)
        }
        Builtin::Print | Builtin::Zip | Builtin::Dict => {
            let first = &names[0];
            Err(type_error(format!(
                "{name}() got keyword argument '{first}' through a function value: anyscript passes {name}()'s \
                 keywords only in a call by its name"
            )))
        }
        _ => {
            let Some(params) = builtin_params(b) else {
                return Err(type_error(format!("{name}() takes no keyword arguments")));
            };
            let spec: Params<'_> = keyword_params(name, params);
            let sources = bind(&spec, positional.len(), &resolved.name_refs())?;
            let args = bound_values(&sources, (positional, values), params.0.len(), &fillers_of(params));
            call_builtin(b, &views(&args))
        }
    }
}

/// CPython's error, if any, for keyword arguments `names` to `sorted`/`list.sort` (`callee`
/// "sort") or `min`/`max`, which take only `allowed`: too many of them, then one it does not take.
pub(crate) fn invalid_key_keywords(callee: &str, allowed: &[&str], names: &[&str]) -> Option<crate::Error> {
    if names.len() > allowed.len() {
        let (n, given) = (allowed.len(), names.len());
        return Some(type_error(format!("{callee}() takes at most {n} keyword arguments ({given} given)")));
    }
    let bad = names.iter().find(|n| !allowed.contains(n))?;
    Some(type_error(format!("'{bad}' is an invalid keyword argument for {callee}()")))
}
