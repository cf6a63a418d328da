//! Module functions with `*args`, keyword-only, `**kwargs` or positional-only parameters: their
//! [`Shape`], the body compiled over one register per parameter, and their calls bound where
//! they are compiled (the extra positional arguments built into a tuple, the extra keyword
//! arguments into a dict).

use super::{FnCompiler, constants, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, ExtraParams, FunctionDef, Keyword};
use crate::pipeline::binding::{Source, keyword_names};
use crate::pipeline::ir::{Inst, Reg, Shape};
use crate::pipeline::shaped_binding::{ShapedParams, bind_shaped};
use std::borrow::Cow;

/// The shape of `f`'s parameters, or `None` where it has only positional ones with defaults
/// at the end (whose calls bind as they always have).
pub(super) fn shape_of(f: &FunctionDef) -> Result<Option<Shape>> {
    let extra = &f.extra;
    if extra.is_empty() {
        return Ok(None);
    }
    if extra.posonly as usize > f.params.len() || extra.kw_defaults.len() != extra.kwonly.len() {
        return Err(err(f.line, ErrorKind::Parse, format!("function '{}' has a malformed parameter list", f.name)));
    }
    let kw_defaults = (extra.kwonly.iter().zip(&extra.kw_defaults))
        .map(|(p, d)| d.as_ref().map(|d| constant_default(f, p, d)).transpose())
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(Shape {
        n_positional: f.params.len() as u32,
        n_posonly: extra.posonly,
        vararg: extra.vararg.is_some(),
        kwonly: extra.kwonly.clone(),
        kw_defaults,
        kwarg: extra.kwarg.is_some(),
    }))
}

/// The value of the default `d` of parameter `p` of `f`, evaluated once.
pub(super) fn constant_default(f: &FunctionDef, p: &str, d: &Expr) -> Result<Slot> {
    constants::constant_value(d).ok_or_else(|| {
        err(
            f.line,
            ErrorKind::Parse,
            format!(
                "the default value of parameter '{p}' of function '{}' must be a constant (a literal, or a list, \
                 tuple, dict or set of literals)",
                f.name
            ),
        )
    })
}

/// `def` as a function of plain parameters, one per register its calls fill (see
/// [`FunctionDef::registers`]).
pub(super) fn with_registers(def: &FunctionDef) -> Cow<'_, FunctionDef> {
    if def.extra.is_empty() {
        return Cow::Borrowed(def);
    }
    Cow::Owned(FunctionDef { params: def.registers(), extra: ExtraParams::default(), ..def.clone() })
}

impl FnCompiler<'_> {
    /// A call of the shaped function `name` (index `func`, positional parameters `params` with
    /// `defaults` for the last ones), whose first parameters, before those, take the values in
    /// registers `captured` (a nested function's enclosing variables).
    pub(super) fn call_shaped(
        &mut self,
        name: &str,
        (func, params, defaults, shape): (u32, &[&str], &[Slot], &Shape),
        captured: &[Reg],
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let spec = ShapedParams { name, positional: params, n_defaults: defaults.len(), shape };
        let keyword_names: Vec<&str> = keywords.iter().map(|k| k.arg.as_str()).collect();
        let binding = match bind_shaped(&spec, args.len(), &keyword_names) {
            Ok(binding) => binding,
            Err(e) => return self.raise_when_called(args, keywords, e, dst),
        };
        // Evaluated in the source's order, as Python evaluates them, before any is bound.
        let positional = self.arguments(args, false)?;
        let named = keywords.iter().map(|k| self.expr(&k.value, None)).collect::<Result<Vec<_>>>()?;
        let first_default = params.len() - defaults.len();
        let mut regs = captured.to_vec();
        for given in &binding.positional {
            regs.push(match *given {
                Source::Positional(j) => positional[j],
                Source::Keyword(k) => named[k],
                Source::Default(i) => self.constant(defaults[i - first_default].clone()),
            });
        }
        if shape.vararg {
            let items = self.operands(&positional[binding.extra_positional.clone()]);
            let tuple = self.temp();
            self.emit(Inst::BuildTuple { dst: tuple, items });
            regs.push(tuple);
        }
        for (i, given) in binding.kwonly.iter().enumerate() {
            regs.push(match *given {
                Some(k) => named[k],
                None => {
                    let default = shape.kw_defaults[i].clone().expect("bind_shaped checks required ones are given");
                    self.constant(default)
                }
            });
        }
        if shape.kwarg {
            let mut pairs = Vec::with_capacity(2 * binding.extra_keywords.len());
            for &k in &binding.extra_keywords {
                pairs.push(self.constant(Slot::from_text(&keywords[k].arg)));
                pairs.push(named[k]);
            }
            let items = self.operands(&pairs);
            let dict = self.temp();
            self.emit(Inst::BuildDict { dst: dict, items });
            regs.push(dict);
        }
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallUser { dst: d, func, args });
        Ok(d)
    }

    /// The index of the module's function that `func` names here, if it names one (not a
    /// variable, a module constant or a nested function of the same name).
    pub(super) fn module_function(&self, func: &Expr) -> Option<u32> {
        let Expr::Name { id } = func else { return None };
        if self.locals.contains_key(id) || self.module.globals.contains_key(id) || self.calls_nested(id) {
            return None;
        }
        if self.is_own_name(id) {
            return None;
        }
        self.module.functions.get(id.as_str()).map(|sig| sig.index)
    }

    /// A call's arguments as it writes them, for the callee to bind when it runs: the register of
    /// the keywords' names (a str, joined by commas; `**` for a mapping), the registers of the
    /// keywords' values then of the positional arguments (evaluated positional ones first, as
    /// Python does), and the bits of the `*iterable` positional arguments.
    pub(super) fn written_arguments(&mut self, args: &[Expr], keywords: &[Keyword]) -> Result<(Reg, Vec<Reg>, u16)> {
        let (positional, starred) = self.spread_arguments(args, false)?;
        let mut values = keywords.iter().map(|k| self.expr(&k.value, None)).collect::<Result<Vec<_>>>()?;
        values.extend(positional);
        let names = self.constant(Slot::from_text(&keyword_names(keywords).join(",")));
        Ok((names, values, starred))
    }

    /// `func(*xs, name=value, **mapping)` of the module's function `func`: the positional
    /// arguments are spread, the mappings' items added to the keywords, and every argument bound
    /// when the call runs (`Inst::CallUserKeywords`).
    pub(super) fn call_spread_keywords(
        &mut self,
        func: u32,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let (names, values, starred) = self.written_arguments(args, keywords)?;
        let mut regs = vec![names, self.constant(Slot::from(starred as i64))];
        regs.extend(values);
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallUserKeywords { dst: d, func, args });
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    fn run(source: &str) -> String {
        let f = crate::pipeline::script(source, "main").unwrap();
        match f.call(&[]) {
            Ok(v) => format!("{v}"),
            Err(e) => format!("{:?}: {}", e.kind(), e.message()),
        }
    }

    // The expected values are CPython 3.11's for the same program.
    #[test]
    fn binds_every_kind_of_parameter() {
        let defs = "def f(a, /, b=2, *args, c, d=4, **kw):\n    return (a, b, args, c, d, kw)\n\
                    def g(*args):\n    return args\n";
        let main = "def main():\n    return [f(1, c=3), f(1, 2, 3, 4, c=5, e=6, a=7), f(1, b=0, c=1, d=2), g(), \
                    g(1, 'x')]\n";
        assert_eq!(
            run(&format!("{defs}{main}")),
            "[(1, 2, (), 3, 4, {}), (1, 2, (3, 4), 5, 4, {'e': 6, 'a': 7}), (1, 0, (), 1, 2, {}), (), (1, 'x')]"
        );
        // Called through its value, positionally.
        let main = "def main():\n    h = f\n    return h(1, 2, 3)\n";
        assert!(run(&format!("{defs}{main}")).ends_with("f() missing 1 required keyword-only argument: 'c'"));
        let main = "def main():\n    return list(map(g, [1, 2]))\n";
        assert_eq!(run(&format!("{defs}{main}")), "[(1,), (2,)]");
        // Spread arguments beside keywords, bound when the call runs.
        let main = "def main():\n    xs = [5, 6, 7]\n    return [f(*xs, c=0, z=1), f(0, *xs[:1], d=9, c=8)]\n";
        assert_eq!(run(&format!("{defs}{main}")), "[(5, 6, (7,), 0, 4, {'z': 1}), (0, 5, (), 8, 9, {})]");
        // A nested function's, which reads the enclosing function's variable first.
        let nested = "def main():\n    sep = '-'\n    def join(*parts, end='', **opts):\n        \
                      return sep.join(parts) + end + str(sorted(opts))\n    def count(n, *, acc=0):\n        \
                      return acc if n == 0 else count(n - 1, acc=acc + n)\n    h = join\n    \
                      return [join('a', 'b'), join('a', end='!', z=1), h('x', 'y'), count(4), list(map(join, 'ab'))]\n";
        assert_eq!(run(nested), "['a-b[]', \"a!['z']\", 'x-y[]', 10, ['a[]', 'b[]']]");
        let main = "def main():\n    return [f(*[1], b=2, c=3), f(*[1, 2], b=2, c=3)]\n";
        assert_eq!(run(&format!("{defs}{main}")), "Type: f() got multiple values for argument 'b'");
    }
}
