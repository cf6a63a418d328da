//! Binding a call's arguments to the callee's parameters by position and by name, with
//! CPython 3.11's errors: where a call is compiled (its callee known), and where a function
//! is called from outside with positional arguments only.

use crate::pipeline::value_ops::{plural, type_error};
use crate::{Error, Result};

/// Where one parameter's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// The call's positional argument of this index.
    Positional(usize),
    /// The call's keyword argument of this index.
    Keyword(usize),
    /// The parameter's default (the index of the parameter).
    Default(usize),
}

/// A callee's parameters, as far as binding needs them.
pub(crate) struct Params<'a> {
    /// How the callee is named in errors (`f`, `split`).
    pub name: &'a str,
    /// Every parameter's name, in order.
    pub names: &'a [&'a str],
    /// How many of `names` may be given by position (the rest are keyword-only).
    pub positional: usize,
    /// How many of the last parameters have defaults.
    pub n_defaults: usize,
    /// Whether the callee is a built-in (a function written in C, to CPython): parameters left
    /// out at the end are not passed (it knows its own defaults), and errors are worded as
    /// CPython words them for C functions.
    pub builtin: bool,
}

/// The source of each parameter of `params` for a call with `positional` positional arguments
/// and keyword arguments named `keywords`; parameters left out at the end are omitted unless `fill_trailing`.
pub(crate) fn bind(params: &Params<'_>, positional: usize, keywords: &[&str]) -> Result<Vec<Source>> {
    let Params { name, names, n_defaults, builtin, .. } = *params;
    let n_required = names.len() - n_defaults;
    if builtin {
        check_builtin_call(params, positional, keywords)?;
    }
    let max_positional = params.positional;
    // Only the positional parameters take positional arguments; the extra ones are counted below.
    let mut sources: Vec<Option<Source>> =
        (0..names.len()).map(|i| (i < positional.min(max_positional)).then_some(Source::Positional(i))).collect();
    // A Python function reports the keywords' errors first, then the positional count, then
    // what is missing (a C function's were checked above, in its order).
    for (k, &arg) in keywords.iter().enumerate() {
        let Some(i) = names.iter().position(|n| *n == arg) else {
            return Err(type_error(format!("{name}() got an unexpected keyword argument '{arg}'")));
        };
        if sources[i].is_some() {
            return Err(type_error(format!("{name}() got multiple values for argument '{arg}'")));
        }
        sources[i] = Some(Source::Keyword(k));
    }
    if positional > max_positional {
        let keyword_only_given = keywords.iter().filter(|k| names[max_positional..].contains(k)).count();
        let min = n_required.min(max_positional);
        return Err(too_many_positional(name, (min, max_positional), positional, keyword_only_given));
    }
    let missing: Vec<&str> = (0..n_required).filter(|&i| sources[i].is_none()).map(|i| names[i]).collect();
    if !missing.is_empty() {
        return Err(missing_error(name, &missing));
    }
    // A built-in gets the defaults of the parameters before the last one given, not after.
    let given = if builtin { sources.iter().rposition(Option::is_some).map_or(0, |i| i + 1) } else { names.len() };
    Ok(sources[..given].iter().enumerate().map(|(i, s)| s.unwrap_or(Source::Default(i))).collect())
}

/// CPython's checks of a call of a C function (its `_PyArg_UnpackKeywords`), in its order: the
/// count of all arguments, then of positional ones, a required one missing, one given both by
/// name and by position, and last a name it does not take.
fn check_builtin_call(params: &Params<'_>, positional: usize, keywords: &[&str]) -> Result<()> {
    let Params { name, names, n_defaults, positional: max_positional, .. } = *params;
    let n_given = positional + keywords.len();
    if n_given > names.len() {
        let keyword = if positional == 0 { "keyword " } else { "" };
        let (n, s) = (names.len(), plural(names.len()));
        return Err(type_error(format!("{name}() takes at most {n} {keyword}argument{s} ({n_given} given)")));
    }
    let n_required = names.len() - n_defaults;
    if positional > max_positional {
        let at_most = if n_required.min(max_positional) < max_positional { "at most" } else { "exactly" };
        return Err(type_error(match max_positional {
            0 => format!("{name}() takes no positional arguments"),
            n => format!("{name}() takes {at_most} {n} positional argument{} ({positional} given)", plural(n)),
        }));
    }
    // A positional-only parameter has no name to report.
    let required_positional_only = names.iter().take_while(|n| n.is_empty()).count().min(n_required);
    if positional < required_positional_only {
        let n = required_positional_only;
        let at_least = if n < max_positional { "at least" } else { "exactly" };
        return Err(type_error(format!(
            "{name}() takes {at_least} {n} positional argument{} ({positional} given)",
            plural(n)
        )));
    }
    let named = |i: usize| keywords.contains(&names[i]);
    if let Some(i) = (positional..n_required).find(|&i| !named(i)) {
        return Err(type_error(format!("{name}() missing required argument '{}' (pos {})", names[i], i + 1)));
    }
    if let Some(i) = (0..positional).find(|&i| !names[i].is_empty() && named(i)) {
        return Err(type_error(format!(
            "argument for {name}() given by name ('{}') and position ({})",
            names[i],
            i + 1
        )));
    }
    if let Some(k) = keywords.iter().find(|k| !names.iter().any(|n| !n.is_empty() && n == *k)) {
        return Err(type_error(format!("'{k}' is an invalid keyword argument for {name}()")));
    }
    Ok(())
}

/// `f() takes from 1 to 2 positional arguments but 3 were given`, and with keyword-only
/// arguments also given, `... but 2 positional arguments (and 1 keyword-only argument) were
/// given`.
pub(crate) fn too_many_positional(name: &str, (min, max): (usize, usize), given: usize, keyword_only: usize) -> Error {
    let takes = if min == max { format!("{max}") } else { format!("from {min} to {max}") };
    let noun = if max == 1 && min == max { "argument" } else { "arguments" };
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let also = match keyword_only {
        0 => String::new(),
        k => format!(" positional argument{} (and {k} keyword-only argument{})", s(given), s(k)),
    };
    let were = if given == 1 && keyword_only == 0 { "was" } else { "were" };
    type_error(format!("{name}() takes {takes} positional {noun} but {given}{also} {were} given"))
}

/// `f() missing 2 required positional arguments: 'a' and 'b'`.
pub(crate) fn missing_error(name: &str, missing: &[&str]) -> Error {
    let quoted: Vec<String> = missing.iter().map(|m| format!("'{m}'")).collect();
    let list = match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
        [] => String::new(),
    };
    let s = if missing.len() == 1 { "" } else { "s" };
    type_error(format!("{name}() missing {} required positional argument{s}: {list}", missing.len()))
}

/// The arguments a callee of `n_params` parameters, whose last ones default to `defaults`, is
/// given by position for a call bound to `sources`, of `positional` and keyword `values`.
pub(crate) fn bound_values(
    sources: &[Source],
    (positional, values): (&[crate::AnyValue], &[crate::AnyValue]),
    n_params: usize,
    defaults: &[crate::pipeline::ast::Literal],
) -> Vec<crate::AnyValue> {
    let first_default = n_params - defaults.len();
    sources
        .iter()
        .map(|s| match *s {
            Source::Positional(i) => positional[i].clone(),
            Source::Keyword(k) => values[k].clone(),
            Source::Default(i) => defaults[i - first_default].value(),
        })
        .collect()
}

/// The names of a call's keyword arguments.
pub(crate) fn keyword_names(keywords: &[crate::pipeline::ast::Keyword]) -> Vec<&str> {
    keywords.iter().map(|k| k.arg.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user<'a>(names: &'a [&'a str], n_defaults: usize) -> Params<'a> {
        Params { name: "f", names, positional: names.len(), n_defaults, builtin: false }
    }

    fn message(r: Result<Vec<Source>>) -> String {
        r.unwrap_err().message().to_string()
    }

    #[test]
    fn binds_positions_names_and_defaults() {
        use Source::*;
        let p = user(&["a", "b", "c"], 2);
        assert_eq!(bind(&p, 1, &[]).unwrap(), vec![Positional(0), Default(1), Default(2)]);
        assert_eq!(bind(&p, 1, &["c"]).unwrap(), vec![Positional(0), Default(1), Keyword(0)]);
        assert_eq!(bind(&p, 0, &["c", "a"]).unwrap(), vec![Keyword(1), Default(1), Keyword(0)]);
        let split = Params { name: "split", names: &["sep", "maxsplit"], positional: 2, n_defaults: 2, builtin: true };
        assert_eq!(bind(&split, 0, &["maxsplit"]).unwrap(), vec![Default(0), Keyword(0)]);
        assert_eq!(bind(&split, 0, &[]).unwrap(), vec![]);
        assert_eq!(bind(&split, 0, &["sep"]).unwrap(), vec![Keyword(0)]);
    }

    // CPython 3.11's messages for `"a".split(...)`, `round(...)` and `sum(...)`.
    #[test]
    fn builtin_errors_as_cpython_words_them() {
        let split = Params { name: "split", names: &["sep", "maxsplit"], positional: 2, n_defaults: 2, builtin: true };
        assert_eq!(message(bind(&split, 0, &["x"])), "'x' is an invalid keyword argument for split()");
        assert_eq!(message(bind(&split, 1, &["sep"])), "argument for split() given by name ('sep') and position (1)");
        assert_eq!(message(bind(&split, 3, &[])), "split() takes at most 2 arguments (3 given)");
        let round =
            Params { name: "round", names: &["number", "ndigits"], positional: 2, n_defaults: 1, builtin: true };
        assert_eq!(message(bind(&round, 0, &["ndigits"])), "round() missing required argument 'number' (pos 1)");
        let sum = Params { name: "sum", names: &["", "start"], positional: 2, n_defaults: 1, builtin: true };
        assert_eq!(message(bind(&sum, 0, &["start"])), "sum() takes at least 1 positional argument (0 given)");
        let prod = Params { name: "prod", names: &["", "start"], positional: 1, n_defaults: 1, builtin: true };
        assert_eq!(message(bind(&prod, 0, &["start"])), "prod() takes exactly 1 positional argument (0 given)");
        assert_eq!(
            message(bind(&split, 0, &["sep", "maxsplit", "x"])),
            "split() takes at most 2 keyword arguments (3 given)"
        );
        // `bisect_left(a, x, lo=0, hi=None, *, key=None)`: CPython checks the counts, then what is
        // missing, then a name given twice, then an unknown name.
        let names = &["a", "x", "lo", "hi", "key"];
        let bisect = Params { name: "bisect_left", names, positional: 4, n_defaults: 3, builtin: true };
        assert_eq!(message(bind(&bisect, 5, &[])), "bisect_left() takes at most 4 positional arguments (5 given)");
        assert_eq!(message(bind(&bisect, 5, &["key"])), "bisect_left() takes at most 5 arguments (6 given)");
        assert_eq!(message(bind(&bisect, 1, &["foo"])), "bisect_left() missing required argument 'x' (pos 2)");
        assert_eq!(
            message(bind(&bisect, 3, &["foo", "lo"])),
            "argument for bisect_left() given by name ('lo') and position (3)"
        );
        assert_eq!(message(bind(&bisect, 2, &["foo"])), "'foo' is an invalid keyword argument for bisect_left()");
        use Source::*;
        assert_eq!(
            bind(&bisect, 2, &["key"]).unwrap(),
            vec![Positional(0), Positional(1), Default(2), Default(3), Keyword(0)]
        );
    }

    // The messages are CPython 3.11's for a Python function of the same parameters.
    #[test]
    fn errors_as_cpython_words_them() {
        assert_eq!(
            message(bind(&user(&["a", "b"], 1), 3, &[])),
            "f() takes from 1 to 2 positional arguments but 3 were given"
        );
        assert_eq!(message(bind(&user(&["a"], 0), 2, &[])), "f() takes 1 positional argument but 2 were given");
        let loads =
            Params { name: "loads", names: &["s", "cls", "object_hook"], positional: 1, n_defaults: 2, builtin: false };
        assert_eq!(
            message(bind(&loads, 2, &["object_hook"])),
            "loads() takes 1 positional argument but 2 positional arguments (and 1 keyword-only argument) were given"
        );
        assert_eq!(message(bind(&loads, 2, &["cls"])), message(bind(&loads, 2, &["object_hook"])));
        assert_eq!(message(bind(&user(&[], 0), 1, &[])), "f() takes 0 positional arguments but 1 was given");
        assert_eq!(message(bind(&user(&["a", "b"], 0), 1, &["z"])), "f() got an unexpected keyword argument 'z'");
        assert_eq!(message(bind(&user(&["a", "b"], 0), 1, &["a"])), "f() got multiple values for argument 'a'");
        assert_eq!(
            message(bind(&user(&["a", "b"], 0), 0, &[])),
            "f() missing 2 required positional arguments: 'a' and 'b'"
        );
        assert_eq!(
            message(bind(&user(&["a", "b", "c"], 0), 0, &["b"])),
            "f() missing 2 required positional arguments: 'a' and 'c'"
        );
        assert_eq!(
            message(bind(&user(&["a", "b", "c"], 0), 0, &[])),
            "f() missing 3 required positional arguments: 'a', 'b', and 'c'"
        );
        assert_eq!(message(bind(&user(&["a", "b"], 1), 0, &["b"])), "f() missing 1 required positional argument: 'a'");
    }
}
