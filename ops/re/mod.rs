//! `re.*`: Python's `re` module for str patterns (`compile`, `search`, `match`, `fullmatch`,
//! `findall`, `finditer`, `split`, `sub`, `subn`, `escape`, and the flags), with CPython 3.11's
//! syntax, results and messages. A script calls them as `re.sub(...)`; `anyproc.script` maps
//! Python's `re` functions and compiled patterns to them. The patterns run on fancy-regex
//! after [`syntax`] rewrites them; see that module for how the two syntaxes are reconciled.
//! A match that must start at one place runs on the regex crate's engines when the pattern
//! needs no backtracking ([`anchored`]).
//!
//! Differences from CPython, each rare in text code: `finditer` returns a list of matches;
//! a bad pattern is a `ValueError` (CPython's `re.error` is not one); `\N{...}` escapes are
//! refused; a pattern with two errors, one a lone backslash at its end, may report the other one
//! (CPython's tokenizer reads a token ahead and finds the backslash first).

mod anchored;
mod error;
mod matches;
mod pattern;
mod run;
mod search_text;
pub mod syntax;
mod template;

pub use matches::{MatchObj, Position, match_of, match_type_index};
pub use pattern::{Compiled, Pattern};

use crate::error::{Error, ErrorKind, Result};
use crate::func::Registry;
use crate::pipeline::value_ops::{Text, vname};
use crate::{AnyValue, AnyView, PackedFunc, Tuple, Value};
use pattern::Anchor;
use search_text::SearchText;
use std::borrow::Cow;
use std::sync::Arc;

/// The module's flags by name (`re.I` and `re.IGNORECASE` alike), as scripts read them.
pub const FLAGS: [(&str, i64); 16] = [
    ("re.I", syntax::IGNORECASE),
    ("re.IGNORECASE", syntax::IGNORECASE),
    ("re.M", syntax::MULTILINE),
    ("re.MULTILINE", syntax::MULTILINE),
    ("re.S", syntax::DOTALL),
    ("re.DOTALL", syntax::DOTALL),
    ("re.X", syntax::VERBOSE),
    ("re.VERBOSE", syntax::VERBOSE),
    ("re.A", syntax::ASCII),
    ("re.ASCII", syntax::ASCII),
    ("re.U", syntax::UNICODE),
    ("re.UNICODE", syntax::UNICODE),
    ("re.L", syntax::LOCALE),
    ("re.LOCALE", syntax::LOCALE),
    ("re.T", 1),
    ("re.TEMPLATE", 1),
];

/// The bits of flag `path` (`re.I`), if it is one.
pub fn flag(path: &str) -> Option<i64> {
    FLAGS.iter().find(|(name, _)| *name == path).map(|&(_, bits)| bits)
}

/// The text argument of a search, as UTF-8 (CPython's message for anything else).
fn text_arg<'a>(v: &'a AnyView<'_>) -> Result<Cow<'a, str>> {
    text_of(v).map(Text::as_str)
}

/// The text of the search argument `v`, or CPython's message for anything else.
fn text_of<'a>(v: &'a AnyView<'_>) -> Result<Text<'a>> {
    Text::of(v.value()).ok_or_else(|| {
        Error::new(ErrorKind::Type, format!("expected string or bytes-like object, got '{}'", vname(v.value())))
    })
}

/// An int argument (flags, count, maxsplit).
fn int_arg(v: Option<&AnyView<'_>>, what: &str) -> Result<i64> {
    match v.map(|v| v.value()) {
        None => Ok(0),
        Some(Value::Int(i)) => Ok(i),
        Some(Value::Bool(b)) => Ok(b as i64),
        Some(other) => Err(Error::new(
            ErrorKind::Type,
            format!("'{}' object cannot be interpreted as an integer ({what})", vname(other)),
        )),
    }
}

/// The compiled pattern a pattern argument (a str or a compiled pattern) stands for.
fn pattern_arg(p: &AnyView<'_>, flags: Option<&AnyView<'_>>) -> Result<Arc<Compiled>> {
    let flags = int_arg(flags, "flags")?;
    if let Some(c) = Pattern::shared(p.value()) {
        if flags != 0 {
            return Err(Error::value("cannot process flags argument with a compiled pattern"));
        }
        return Ok(c);
    }
    match Text::of(p.value()) {
        Some(t) => Ok(Pattern::compile(&t.as_str(), flags)?.compiled().clone()),
        None => Err(Error::new(ErrorKind::Type, "first argument must be string or compiled pattern")),
    }
}

/// Checks the count of arguments against `re.<name>`'s parameters, with CPython's messages.
fn check_args(name: &str, args: &[AnyView<'_>]) -> Result<()> {
    let op = crate::ops::params::OP_PARAMS.iter().find(|p| p.op.strip_prefix("re.") == Some(name)).expect("an op");
    let (params, defaults) = (op.names, op.defaults.len());
    let required = params.len() - defaults;
    let short = name;
    if args.len() < required {
        let missing = &params[args.len()..required];
        let quoted: Vec<String> = missing.iter().map(|p| format!("'{p}'")).collect();
        let list = match quoted.as_slice() {
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        };
        let s = if missing.len() == 1 { "" } else { "s" };
        return Err(Error::new(
            ErrorKind::Type,
            format!("{short}() missing {} required positional argument{s}: {list}", missing.len()),
        ));
    }
    if args.len() > params.len() {
        let takes = if defaults == 0 {
            format!("{} positional argument{}", params.len(), if params.len() == 1 { "" } else { "s" })
        } else {
            format!("from {required} to {} positional arguments", params.len())
        };
        let were = if args.len() == 1 { "was" } else { "were" };
        return Err(Error::new(ErrorKind::Type, format!("{short}() takes {takes} but {} {were} given", args.len())));
    }
    Ok(())
}

/// `p.search(s)` and the other methods of a compiled pattern, by name.
pub fn pattern_method(name: &str, c: &Arc<Compiled>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    if matches!(name, "search" | "match" | "fullmatch" | "findall" | "finditer") {
        // These take `pos` and `endpos` after the text.
        let text = SearchText::of(&args[0])?;
        let window = search_text::window(&text, args.get(1), args.get(2))?;
        return match name {
            "search" => run::find(c, Anchor::Search, &text, window),
            "match" => run::find(c, Anchor::Start, &text, window),
            "fullmatch" => run::find(c, Anchor::Whole, &text, window),
            "findall" => run::findall(c, &text, window),
            _ => run::finditer(c, &text, window),
        };
    }
    Ok(match name {
        "split" => run::split(c, &text_arg(&args[0])?, run::limit_of(int_arg(args.get(1), "maxsplit")?))?,
        "sub" | "subn" => {
            let repl = run::replacement(c, &args[0])?;
            let (text, n) = run::sub(c, &repl, &text_arg(&args[1])?, run::limit_of(int_arg(args.get(2), "count")?))?;
            if name == "sub" {
                AnyValue::from_text(&text)
            } else {
                Tuple::from_vec(vec![AnyValue::from_text(&text), AnyValue::from_int(n)]).into()
            }
        }
        _ => unreachable!("the caller checked the method"),
    })
}

/// `re.<name>(pattern, ...)`: the module function, which compiles (or takes) the pattern and
/// calls the method of the same name.
fn module_function(name: &'static str, args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_args(name, args)?;
    let flags_at = match name {
        "split" => 3,
        "sub" | "subn" => 4,
        _ => 2,
    };
    let c = pattern_arg(&args[0], args.get(flags_at))?;
    let rest = &args[1..flags_at.min(args.len())];
    pattern_method(name, &c, rest)
}

fn compile(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_args("compile", args)?;
    if Pattern::of(args[0].value()).is_some() {
        if int_arg(args.get(1), "flags")? != 0 {
            return Err(Error::value("cannot process flags argument with a compiled pattern"));
        }
        return Ok(args[0].to_owned());
    }
    let Some(t) = Text::of(args[0].value()) else {
        return Err(Error::new(ErrorKind::Type, "first argument must be string or compiled pattern"));
    };
    Ok(Pattern::compile(&t.as_str(), int_arg(args.get(1), "flags")?)?.into_any())
}

fn escape(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_args("escape", args)?;
    match Text::of(args[0].value()) {
        Some(t) => Ok(AnyValue::from_text(&syntax::escape(&t.as_str()))),
        None => Err(Error::new(ErrorKind::Type, format!("'{}' object is not iterable", vname(args[0].value())))),
    }
}

/// Registers the `re.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    let functions: [(&'static str, &str, &str); 8] = [
        ("search", "(pattern, string, flags=0) -> Match | None", "The first match anywhere, as Python's re.search."),
        ("match", "(pattern, string, flags=0) -> Match | None", "A match at the start, as Python's re.match."),
        ("fullmatch", "(pattern, string, flags=0) -> Match | None", "A match of the whole string, as re.fullmatch."),
        ("findall", "(pattern, string, flags=0) -> list", "Every match (or its groups), as Python's re.findall."),
        ("finditer", "(pattern, string, flags=0) -> list", "Every match object, as a list (re.finditer)."),
        ("split", "(pattern, string, maxsplit=0, flags=0) -> list", "Splits at the matches, as Python's re.split."),
        ("sub", "(pattern, repl, string, count=0, flags=0) -> str", "Replaces the matches, as Python's re.sub."),
        ("subn", "(pattern, repl, string, count=0, flags=0) -> tuple", "re.sub and the number of replacements."),
    ];
    for (name, signature, doc) in functions {
        let f = PackedFunc::new(move |args| module_function(name, args));
        reg.register(&format!("re.{name}"), signature, doc, f, false)?;
    }
    reg.register(
        "re.compile",
        "(pattern, flags=0) -> Pattern",
        "Compiles a Python regular expression (CPython 3.11 syntax).",
        PackedFunc::new(compile),
        false,
    )?;
    reg.register(
        "re.escape",
        "(pattern) -> str",
        "Escapes the characters special in patterns, as Python's re.escape.",
        PackedFunc::new(escape),
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[AnyValue]) -> Result<AnyValue> {
        let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
        crate::func::registry().get(name)?.call(&views)
    }

    fn s(t: &str) -> AnyValue {
        AnyValue::from_text(t)
    }

    fn repr(v: &AnyValue) -> String {
        crate::pipeline::value_ops::repr_value(v.value())
    }

    #[test]
    fn results_equal_cpythons() {
        // Each expected value is CPython 3.11's.
        assert_eq!(repr(&call("re.sub", &[s("x*"), s("-"), s("abxd")]).unwrap()), "'-a-b--d-'");
        assert_eq!(repr(&call("re.findall", &[s(r"|a"), s("a")]).unwrap()), "['', 'a', '']");
        assert_eq!(repr(&call("re.split", &[s(r"\b"), s("a b")]).unwrap()), "['', 'a', ' ', 'b', '']");
        assert_eq!(
            repr(&call("re.split", &[s("(-)|(:)"), s("a-b:c")]).unwrap()),
            "['a', '-', None, 'b', None, ':', 'c']"
        );
        assert_eq!(repr(&call("re.search", &[s("b"), s("abc")]).unwrap()), "<re.Match object; span=(1, 2), match='b'>");
        let flags = AnyValue::from_int(syntax::IGNORECASE | syntax::MULTILINE);
        assert_eq!(repr(&call("re.compile", &[s("a"), flags]).unwrap()), "re.compile('a', re.IGNORECASE|re.MULTILINE)");
        assert_eq!(repr(&call("re.sub", &[s(r"(\w)(\w*)"), s(r"\2\1"), s("héllo wörld")]).unwrap()), "'élloh örldw'");
        // A repeated lookaround, which fancy-regex takes only grouped.
        assert_eq!(repr(&call("re.findall", &[s("D(?!x)?"), s("DxD")]).unwrap()), "['D', 'D']");
    }

    #[test]
    fn pos_and_endpos_window_a_search_as_cpython() {
        // Each expected value is CPython 3.11's: `^` and a lookbehind still see the text before
        // `pos`, and `$` matches at `endpos`.
        let src = "def f(t):\n    w = re.compile(r'\\w+')\n\
                   \x20   return [w.match(t, 3).span(), w.match(t, 2), re.compile('^b').search(t, 3),\n\
                   \x20           re.compile('(?<=a)b').match(t, 1).span(), re.compile('b$').search(t, 0, 2).span(),\n\
                   \x20           w.findall(t, 1, 4), w.fullmatch(t, 3, 5).span(), w.search(t, 9), w.match(t, 4, 2)]\n";
        let f = crate::pipeline::script(src, "f").unwrap();
        let out = f.call(&[AnyView::from_text("ab bb")]).unwrap();
        assert_eq!(repr(&out), "[(3, 5), None, None, (1, 2), (1, 2), ['b', 'b'], (3, 5), None, None]");
    }

    #[test]
    fn scripts_reach_the_module() {
        // Hand-checked against CPython 3.11 running the same source.
        let src = "WS = re.compile(r'\\s+', re.I | re.M)\n\
                   def f(t):\n    m = re.search(r'(?P<w>\\w)(\\w*)', t)\n\
                   \x20   return [WS.sub('_', t), re.findall('l+', t, flags=re.I), m.group('w'), m[2], m.span(2),\n\
                   \x20           re.split(r'\\W', t, maxsplit=1), re.sub('(o)', lambda m: m.group(1).upper(), t, count=1)]\n";
        let f = crate::pipeline::script(src, "f").unwrap();
        let out = f.call(&[AnyView::from_text("héLlo  wörld")]).unwrap();
        assert_eq!(
            repr(&out),
            "['héLlo_wörld', ['Ll', 'l'], 'h', 'éLlo', (1, 5), ['héLlo', ' wörld'], 'héLlO  wörld']"
        );
    }

    #[test]
    fn errors_equal_cpythons() {
        let e = call("re.sub", &[s("a"), s("b"), AnyValue::from_int(5)]).unwrap_err();
        assert_eq!(e.message(), "expected string or bytes-like object, got 'int'");
        let e = call("re.sub", &[s("(a)"), s(r"\2"), s("a")]).unwrap_err();
        assert_eq!(e.message(), "invalid group reference 2 at position 1");
        let e = call("re.sub", &[s("a"), s("b")]).unwrap_err();
        assert_eq!(e.message(), "sub() missing 1 required positional argument: 'string'");
    }
}
