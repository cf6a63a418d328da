//! Binding a call to a function with `*args`, keyword-only, `**kwargs` or positional-only
//! parameters (its [`Shape`]), in CPython 3.11's order and with its messages: keywords first
//! (a name it does not take goes to `**kwargs`, else is an error), then too many positional
//! arguments, then missing positional ones, then missing keyword-only ones. Used where a call is
//! compiled (its keywords known) and where a function is called from outside (positionally).

use super::Slot;
use super::ast::DOUBLE_STAR;
use super::binding::{Source, missing_error, too_many_positional};
use super::ir::{Function, Shape};
use super::spread::spread_args;
use super::value_ops::type_error;
use super::value_ops::{dict_of, to_str, vname};
use crate::func::CallArgs;
use crate::{AnyValue, AnyView, Dict, Error, Result, Tuple, Value};
use std::ops::Range;

/// Where each parameter of a shaped function takes its value from, for one call.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ShapedBinding {
    /// Where each positional parameter takes its value from.
    pub positional: Vec<Source>,
    /// The positional arguments that `*args` takes.
    pub extra_positional: Range<usize>,
    /// For each keyword-only parameter: the keyword argument it is given, or `None` for its
    /// default.
    pub kwonly: Vec<Option<usize>>,
    /// The keyword arguments that `**kwargs` takes, in the call's order.
    pub extra_keywords: Vec<usize>,
}

/// A shaped function's parameters, as binding needs them.
pub(crate) struct ShapedParams<'a> {
    /// How the function is named in errors.
    pub name: &'a str,
    /// Its positional parameters' names.
    pub positional: &'a [&'a str],
    /// How many of the last positional parameters have defaults.
    pub n_defaults: usize,
    /// The rest of its parameters.
    pub shape: &'a Shape,
}

/// The binding of a call of `params` with `n_args` positional arguments and keyword
/// arguments named `keywords`.
pub(crate) fn bind_shaped(params: &ShapedParams<'_>, n_args: usize, keywords: &[&str]) -> Result<ShapedBinding> {
    let ShapedParams { name, positional: names, n_defaults, shape } = *params;
    let n_positional = names.len();
    let mut positional: Vec<Option<Source>> =
        (0..n_positional).map(|i| (i < n_args).then_some(Source::Positional(i))).collect();
    let mut kwonly: Vec<Option<usize>> = vec![None; shape.kwonly.len()];
    let mut extra_keywords = Vec::new();
    let n_posonly = shape.n_posonly as usize;
    for (k, &arg) in keywords.iter().enumerate() {
        let slot = if let Some(i) = names[n_posonly..].iter().position(|n| *n == arg) {
            &mut positional[n_posonly + i]
        } else if let Some(i) = shape.kwonly.iter().position(|n| n == arg) {
            if kwonly[i].replace(k).is_some() {
                return Err(multiple_values(name, arg));
            }
            continue;
        } else if shape.kwarg {
            extra_keywords.push(k);
            continue;
        } else if names[..n_posonly].contains(&arg) {
            return Err(posonly_as_keyword(name, names, n_posonly, keywords));
        } else {
            return Err(type_error(format!("{name}() got an unexpected keyword argument '{arg}'")));
        };
        if slot.replace(Source::Keyword(k)).is_some() {
            return Err(multiple_values(name, arg));
        }
    }
    if n_args > n_positional && !shape.vararg {
        let kwonly_given = kwonly.iter().filter(|k| k.is_some()).count();
        let n_required = n_positional - n_defaults;
        return Err(too_many_positional(name, (n_required, n_positional), n_args, kwonly_given));
    }
    let n_required = n_positional - n_defaults;
    let missing: Vec<&str> = (0..n_required).filter(|&i| positional[i].is_none()).map(|i| names[i]).collect();
    if !missing.is_empty() {
        return Err(missing_error(name, &missing));
    }
    let missing_kwonly: Vec<&str> = (0..kwonly.len())
        .filter(|&i| kwonly[i].is_none() && shape.kw_defaults[i].is_none())
        .map(|i| shape.kwonly[i].as_str())
        .collect();
    if !missing_kwonly.is_empty() {
        return Err(missing_keyword_only(name, &missing_kwonly));
    }
    let positional = positional.iter().enumerate().map(|(i, s)| s.unwrap_or(Source::Default(i))).collect();
    Ok(ShapedBinding { positional, extra_positional: n_positional.min(n_args)..n_args, kwonly, extra_keywords })
}

/// The registers of a call of shaped function `f` from outside with positional `args`: the
/// positional parameters (defaults for those left out), the tuple of the extra arguments, the
/// keyword-only parameters' defaults and an empty dict, as its parameters have them (after
/// the enclosing variables a nested function reads, which the caller adds).
pub(crate) fn outside_registers(f: &Function, args: &[AnyView<'_>]) -> Result<Vec<Slot>> {
    named_registers(f, args, &[], &[])
}

/// The registers of a call of `f` (a function of the module, shaped or not) that
/// `Inst::CallUserKeywords` makes: `operands` are the keywords' names (a str, joined by commas), the bits of
/// the `*iterable` positional arguments, the keywords' values, then the positional arguments.
pub(crate) fn keyword_registers(f: &Function, operands: &[AnyView<'_>]) -> Result<Vec<Slot>> {
    let [names, starred, ..] = operands else {
        return Err(Error::runtime("internal error: a keyword call without its names"));
    };
    let Value::Int(starred) = starred.value() else {
        return Err(Error::runtime("internal error: a keyword call's starred bits are not an int"));
    };
    let names = to_str(*names)?;
    let names: Vec<&str> = names.split(',').collect();
    let (values, positional) = operands[2..].split_at(names.len());
    let args = CallArgs { positional, starred: starred as u16, names: &names, values };
    called_registers(f, &args)
}

/// The registers of a call of `f` with `args` as the call wrote them (after the enclosing
/// variables a nested function reads, which the caller adds).
pub(crate) fn called_registers(f: &Function, args: &CallArgs<'_>) -> Result<Vec<Slot>> {
    if args.is_plain() {
        return named_registers(f, args.positional, args.names, args.values);
    }
    let resolved = ResolvedArgs::of(&f.name, args)?;
    let (positional, values) = (views(&resolved.positional), views(&resolved.values));
    named_registers(f, &positional, &resolved.name_refs(), &values)
}

/// Views of `values`.
pub(crate) fn views(values: &[AnyValue]) -> Vec<AnyView<'_>> {
    values.iter().map(AnyValue::view).collect()
}

/// A call's arguments with its `*iterable`s spread and its `**mapping`s merged among the other
/// keyword arguments.
pub(crate) struct ResolvedArgs {
    /// The positional arguments.
    pub positional: Vec<AnyValue>,
    /// The keyword arguments' names.
    pub names: Vec<String>,
    /// The keyword arguments' values.
    pub values: Vec<AnyValue>,
}

impl ResolvedArgs {
    /// `args` resolved, with CPython's errors naming the callee `name`.
    pub(crate) fn of(name: &str, args: &CallArgs<'_>) -> Result<ResolvedArgs> {
        let positional = spread_args(name, args.positional, args.starred)?;
        let (names, values) = merged_keywords(name, args.names, args.values)?;
        Ok(ResolvedArgs { positional, names, values })
    }

    /// The keyword arguments' names, borrowed.
    pub(crate) fn name_refs(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }
}

/// The keyword arguments of a call with `**mapping` ones: each mapping's items in its place
/// among the others, with CPython's errors for what is no mapping, a key that is no str and a
/// name given twice.
fn merged_keywords(name: &str, names: &[&str], values: &[AnyView<'_>]) -> Result<(Vec<String>, Vec<AnyValue>)> {
    let (mut out_names, mut out_values) = (Vec::<String>::new(), Vec::new());
    let mut add = |key: String, value: AnyValue| {
        if out_names.contains(&key) {
            return Err(type_error(format!("{name}() got multiple values for keyword argument '{key}'")));
        }
        out_names.push(key);
        out_values.push(value);
        Ok(())
    };
    for (&arg, value) in names.iter().zip(values) {
        if arg != DOUBLE_STAR {
            add(arg.to_string(), AnyValue::from(*value))?;
            continue;
        }
        let Some(mapping) = dict_of(value.value()) else {
            let kind = vname(value.value());
            return Err(type_error(format!("{name}() argument after ** must be a mapping, not {kind}")));
        };
        for (key, item) in mapping.items() {
            let key = match key.value() {
                Value::Str(_) | Value::UStr(_) => to_str(key.view())?,
                _ => return Err(type_error("keywords must be strings")),
            };
            add(key, item)?;
        }
    }
    Ok((out_names, out_values))
}

/// The registers of a call of `f` with positional `args` and keyword arguments `names` =
/// `values` (after the enclosing variables a nested function reads, which the caller adds).
pub(crate) fn named_registers(
    f: &Function,
    args: &[AnyView<'_>],
    names: &[&str],
    values: &[AnyView<'_>],
) -> Result<Vec<Slot>> {
    let plain;
    let shape = match f.shape.as_deref() {
        Some(shape) => shape,
        None => {
            plain = Shape::plain(f.n_params - f.n_captured);
            &plain
        }
    };
    let n_positional = shape.n_positional as usize;
    // A nested function's first registers are the enclosing variables it reads.
    let first = f.n_captured as usize;
    let params: Vec<&str> = (first..first + n_positional).map(|r| f.reg_names[r].as_deref().unwrap_or("?")).collect();
    let spec = ShapedParams { name: &f.name, positional: &params, n_defaults: f.defaults.len(), shape };
    let binding = bind_shaped(&spec, args.len(), names)?;
    let first_default = n_positional - f.defaults.len();
    let mut regs: Vec<Slot> = Vec::with_capacity(f.n_params as usize);
    for given in &binding.positional {
        regs.push(match *given {
            Source::Positional(j) => Slot::from(args[j]),
            Source::Keyword(k) => Slot::from(values[k]),
            Source::Default(i) => f.defaults[i - first_default].clone(),
        });
    }
    if shape.vararg {
        let extra = args[binding.extra_positional].iter().map(|&a| AnyValue::from(a)).collect();
        regs.push(Slot::from(Tuple::from_vec(extra)));
    }
    for (given, default) in binding.kwonly.iter().zip(&shape.kw_defaults) {
        regs.push(match (given, default) {
            (Some(k), _) => Slot::from(values[*k]),
            (None, Some(default)) => default.clone(),
            (None, None) => unreachable!("bind_shaped checks that required ones are given"),
        });
    }
    if shape.kwarg {
        let mut kwargs = Dict::new();
        for &k in &binding.extra_keywords {
            kwargs.set(AnyValue::from(names[k]), AnyValue::from(values[k]));
        }
        regs.push(Slot::from(kwargs));
    }
    Ok(regs)
}

fn multiple_values(name: &str, arg: &str) -> Error {
    type_error(format!("{name}() got multiple values for argument '{arg}'"))
}

/// `f() got some positional-only arguments passed as keyword arguments: 'a, b'`: every
/// positional-only parameter named by a keyword, in the parameters' order.
fn posonly_as_keyword(name: &str, names: &[&str], n_posonly: usize, keywords: &[&str]) -> Error {
    let named: Vec<&str> = names[..n_posonly].iter().copied().filter(|n| keywords.contains(n)).collect();
    type_error(format!(
        "{name}() got some positional-only arguments passed as keyword arguments: '{}'",
        named.join(", ")
    ))
}

/// `f() missing 1 required keyword-only argument: 'c'`, worded as [`missing_error`] is.
fn missing_keyword_only(name: &str, missing: &[&str]) -> Error {
    let positional = missing_error(name, missing);
    type_error(positional.message().replacen("positional argument", "keyword-only argument", 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(n_posonly: u32, vararg: bool, kwonly: &[(&str, bool)], kwarg: bool) -> Shape {
        Shape {
            n_positional: 0,
            n_posonly,
            vararg,
            kwonly: kwonly.iter().map(|(n, _)| n.to_string()).collect(),
            kw_defaults: kwonly.iter().map(|(_, d)| d.then(crate::pipeline::Slot::default)).collect(),
            kwarg,
        }
    }

    fn message(r: Result<ShapedBinding>) -> String {
        r.unwrap_err().message().to_string()
    }

    // Each message is CPython 3.11's for a Python function of the same parameters.
    #[test]
    fn errors_as_cpython_words_them() {
        // def f(a, b=1, *, c, d=2)
        let s = shape(0, false, &[("c", false), ("d", true)], false);
        let p = ShapedParams { name: "f", positional: &["a", "b"], n_defaults: 1, shape: &s };
        assert_eq!(message(bind_shaped(&p, 1, &[])), "f() missing 1 required keyword-only argument: 'c'");
        assert_eq!(message(bind_shaped(&p, 3, &["c"])), message(bind_shaped(&p, 3, &["d"])));
        assert_eq!(
            message(bind_shaped(&p, 3, &["c", "d"])),
            "f() takes from 1 to 2 positional arguments but 3 positional arguments (and 2 keyword-only arguments) \
             were given"
        );
        assert_eq!(message(bind_shaped(&p, 0, &["c"])), "f() missing 1 required positional argument: 'a'");
        assert_eq!(message(bind_shaped(&p, 1, &["c", "c"])), "f() got multiple values for argument 'c'");
        assert_eq!(message(bind_shaped(&p, 1, &["e"])), "f() got an unexpected keyword argument 'e'");
        // def g(a, b, /, c, **kw)
        let s = shape(2, false, &[], true);
        let p = ShapedParams { name: "g", positional: &["a", "b", "c"], n_defaults: 0, shape: &s };
        let b = bind_shaped(&p, 2, &["a", "c", "b"]).unwrap();
        assert_eq!(b.positional, vec![Source::Positional(0), Source::Positional(1), Source::Keyword(1)]);
        assert_eq!(b.extra_keywords, vec![0, 2]);
        // def h(a, b, /, c)
        let s = shape(2, false, &[], false);
        let p = ShapedParams { name: "h", positional: &["a", "b", "c"], n_defaults: 0, shape: &s };
        assert_eq!(
            message(bind_shaped(&p, 0, &["b", "c", "a"])),
            "h() got some positional-only arguments passed as keyword arguments: 'a, b'"
        );
        // def k(*args, x, y)
        let s = shape(0, true, &[("x", false), ("y", false)], false);
        let p = ShapedParams { name: "k", positional: &[], n_defaults: 0, shape: &s };
        assert_eq!(message(bind_shaped(&p, 4, &[])), "k() missing 2 required keyword-only arguments: 'x' and 'y'");
        let b = bind_shaped(&p, 4, &["y", "x"]).unwrap();
        assert_eq!((b.extra_positional, b.kwonly), (0..4, vec![Some(1), Some(0)]));
    }
}
