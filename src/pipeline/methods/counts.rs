//! CPython 3.11's words for a wrong count of arguments to a method. They depend on how the
//! method reads its arguments, not on the count: `'a'.split(1, 2, 3)` is "split() takes at most
//! 2 arguments (3 given)" (it takes keywords), `'a'.find()` is "find() takes at least 1
//! argument (0 given)" (`PyArg_ParseTuple`), `b'a'.center()` is "center expected at least 1
//! argument, got 0" (positional-only), and `Counter().total(1)` counts `self`, as a method
//! written in Python does.

use super::{Method, Recv, arity_error};
use crate::container::DictKind;
use crate::pipeline::value_ops::{dict_obj, plural, type_error};
use crate::{Error, Value};

/// How a method of CPython 3.11 reads its arguments.
enum Reading {
    /// `METH_NOARGS`, `METH_O` or positional-only parameters (`_PyArg_CheckPositional`).
    Positional,
    /// `PyArg_ParseTuple` with a format such as `"O|OO:find"`.
    ParseTuple,
    /// Parameters that take keywords (`_PyArg_UnpackKeywords`): every parameter's name, and how
    /// many of the first are positional-only.
    Keywords(&'static [&'static str], usize),
    /// A method written in Python (`collections.Counter`'s): its parameters after `self`, which
    /// is counted.
    Python(&'static [&'static str]),
}

/// How `m` of a receiver of type `r` reads its arguments.
fn reading(r: Recv, m: Method) -> Reading {
    use Method::*;
    match (r, m) {
        (Recv::Str | Recv::Bytes, Find | Rfind | Index | Rindex | Count | Startswith | Endswith) => Reading::ParseTuple,
        (Recv::Str | Recv::Bytes, Split | Rsplit) => Reading::Keywords(&["sep", "maxsplit"], 0),
        (Recv::Str | Recv::Bytes, Splitlines) => Reading::Keywords(&["keepends"], 0),
        (Recv::Str | Recv::Bytes, Expandtabs) => Reading::Keywords(&["tabsize"], 0),
        (Recv::Str, Encode) | (Recv::Bytes, Decode) => Reading::Keywords(&["encoding", "errors"], 0),
        (Recv::Bytes, Hex) => Reading::Keywords(&["sep", "bytes_per_sep"], 0),
        (Recv::Bytes, Translate) => Reading::Keywords(&["table", "delete"], 1),
        (Recv::List, Sort) => Reading::Keywords(&["key", "reverse"], 0),
        (Recv::Pattern, Search | Match | Fullmatch | Findall | Finditer) => {
            Reading::Keywords(&["string", "pos", "endpos"], 0)
        }
        (Recv::Pattern, Split) => Reading::Keywords(&["string", "maxsplit"], 0),
        (Recv::Pattern, Sub | Subn) => Reading::Keywords(&["repl", "string", "count"], 0),
        (Recv::Match, Groups | Groupdict) => Reading::Keywords(&["default"], 0),
        (Recv::Int, ToBytes) => Reading::Keywords(&["length", "byteorder", "signed"], 0),
        (Recv::Counter, MostCommon) => Reading::Python(&["n"]),
        (Recv::Counter, Update | Subtract) => Reading::Python(&["iterable"]),
        (Recv::Counter, Fromkeys) => Reading::Python(&["iterable", "v"]),
        (Recv::Counter, Elements | Total | Copy) => Reading::Python(&[]),
        _ => Reading::Positional,
    }
}

/// The type CPython names in a count error of `m` of `v`, of type `r`. A direct call names the
/// type that defines `m` (dict's methods of a Counter or a defaultdict are `dict.x`); a bound
/// method names the receiver's own type (`Counter.clear`).
pub(super) fn owner_name(r: Recv, m: Method, v: Value<'_>, bound: bool) -> &'static str {
    let kind = dict_obj(v).map(|d| d.kind());
    match (r, kind) {
        (Recv::Dict, Some(DictKind::Default(_))) if bound || m == Method::Copy => "defaultdict",
        (Recv::Counter, _) if !bound && !matches!(reading(r, m), Reading::Python(_)) => "dict",
        _ => r.name(),
    }
}

/// The TypeError of `n` arguments to `m` of a receiver of type `r` (named `owner`), which takes
/// from `min` to `max`.
pub(super) fn count_error(r: Recv, owner: &str, m: Method, (min, max): (usize, usize), n: usize) -> Error {
    let name = m.name();
    match reading(r, m) {
        Reading::Positional => arity_error(&format!("{owner}.{name}"), name, (min, max), n),
        Reading::ParseTuple => {
            let (how, k) = match () {
                _ if min == max => ("exactly", min),
                _ if n < min => ("at least", min),
                _ => ("at most", max),
            };
            type_error(format!("{name}() takes {how} {k} argument{} ({n} given)", plural(k)))
        }
        Reading::Keywords(_, _) if r == Recv::List => type_error(sort_positional(n)),
        Reading::Keywords(names, positional_only) => keywords_count_error(name, names, min, positional_only, n),
        Reading::Python(names) => python_count_error(&format!("{owner}.{name}"), names, min, n),
    }
}

/// CPython's error for `list.sort` given `n` arguments, some of them positional: it takes only
/// its two keywords, and a count over two is worded first.
pub(crate) fn sort_positional(n: usize) -> String {
    if n > 2 {
        format!("sort() takes at most 2 arguments ({n} given)")
    } else {
        "sort() takes no positional arguments".into()
    }
}

/// `_PyArg_UnpackKeywords`'s TypeError for `n` arguments to `name`, whose parameters are
/// `names`, the first `required` of them required and the first `positional_only` positional-only.
pub(crate) fn keywords_count_error(
    name: &str,
    names: &[&str],
    required: usize,
    positional_only: usize,
    n: usize,
) -> Error {
    let max = names.len();
    if n > max {
        return type_error(format!("{name}() takes at most {max} argument{} ({n} given)", plural(max)));
    }
    let required_positional = required.min(positional_only);
    if n < required_positional {
        let how = if required_positional < max { "at least" } else { "exactly" };
        let k = required_positional;
        return type_error(format!("{name}() takes {how} {k} positional argument{} ({n} given)", plural(k)));
    }
    type_error(format!("{name}() missing required argument '{}' (pos {})", names[n], n + 1))
}

/// The TypeError of a function written in Python, `qualified`, taking `self` and `names`, the
/// first `required` of them required, given `n` besides `self`.
fn python_count_error(qualified: &str, names: &[&str], required: usize, n: usize) -> Error {
    if n < required {
        let missing: Vec<String> = names[n..required].iter().map(|p| format!("'{p}'")).collect();
        let listed = match missing.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] if rest.len() == 1 => format!("{} and {last}", rest[0]),
            [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
            [] => String::new(),
        };
        let k = missing.len();
        return type_error(format!("{qualified}() missing {k} required positional argument{}: {listed}", plural(k)));
    }
    let (min, max) = (required, names.len());
    let (takes, given) = (max + 1, n + 1);
    let verb = if given == 1 { "was" } else { "were" };
    let range = if min == max { takes.to_string() } else { format!("from {} to {takes}", min + 1) };
    type_error(format!("{qualified}() takes {range} positional argument{} but {given} {verb} given", plural(takes)))
}
