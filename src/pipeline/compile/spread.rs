//! Calls with `*iterable` arguments (`zip(*rows)`, `f(first, *rest)`, `print(*words, sep=", ")`):
//! the items are spread when the call runs, so the callee is called through its value (a
//! module function, a nested one, a built-in, an op, a bound method or a function value alike)
//! and its arity is checked then, as Python checks it. `print`, `zip` and the ops whose Python
//! function takes keyword-only parameters after `*args` keep their keyword arguments, and so do
//! the module's functions (bound when the call runs); other calls with keywords beside `*args`
//! are refused with the line.

use super::{FnCompiler, dotted_path, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, Keyword};
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::keyed::Keyed;
use crate::pipeline::methods::Method;
use std::slice::from_ref;

/// At most this many arguments in a call with `*args` (one bit each in [`Keyed::Spread`]).
pub(super) const MAX_SPREAD_ARGS: usize = 16;

impl FnCompiler<'_> {
    /// `func(args)` where some of `args` are `*iterable`.
    pub(super) fn call_spread(
        &mut self,
        func: &Expr,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let line = self.line;
        let refuse = |what: &str| Err(err(line, ErrorKind::Parse, format!("{what} is not supported in anyscript")));
        if args.len() > MAX_SPREAD_ARGS {
            return refuse(&format!("a call with *args and more than {MAX_SPREAD_ARGS} arguments"));
        }
        let path = dotted_path(func);
        let builtin_print = path.as_ref().is_some_and(|(p, _)| p == "print")
            && !self.is_defined("print")
            && !self.module.functions.contains_key("print");
        if builtin_print {
            return self.call_builtin_keywords(crate::pipeline::builtins::Builtin::Print, args, keywords, dst);
        }
        let builtin_zip = path.as_ref().is_some_and(|(p, _)| p == "zip")
            && !self.is_defined("zip")
            && !self.module.functions.contains_key("zip");
        if builtin_zip && matches!(keywords, [k] if k.arg == "strict") {
            // `zip(*rows, strict=True)`: the strict zip called with the flag before the rows,
            // which takes one of the bits of `starred`.
            if args.len() >= MAX_SPREAD_ARGS {
                return refuse(&format!(
                    "a call of zip with *args, strict= and more than {} arguments",
                    MAX_SPREAD_ARGS - 1
                ));
            }
            let (values, starred) = self.spread_arguments(args, false)?;
            let flag = self.expr(&keywords[0].value, None)?;
            let callee = self.constant(Slot::from(crate::pipeline::builtins::zip_strict_func()));
            let mut regs = vec![self.constant(Slot::from_text("zip")), self.constant(Slot::default()), callee, flag];
            regs.extend(values);
            let (args, d) = (self.operands(&regs), self.dst(dst));
            self.emit(Inst::CallKeyed { dst: d, call: Keyed::Spread { starred: starred << 1 }, args });
            return Ok(d);
        }
        if self.is_value_callee(func) {
            // A function value: one of the script's own binds the call itself, naming itself in
            // its errors.
            return self.call_value_keywords(func, args, keywords, dst);
        }
        if !keywords.is_empty() {
            let op = path
                .as_ref()
                .filter(|(_, root)| !self.is_defined(root))
                .map(|(p, _)| p.strip_prefix("ops.").unwrap_or(p));
            if let Some(star) = op.and_then(crate::ops::star_params::star_op) {
                return self.call_star_op(star, args, keywords, dst);
            }
            if let Some(func) = self.module_function(func) {
                return self.call_spread_keywords(func, args, keywords, dst);
            }

            return refuse(
                "a call with keyword arguments beside *args (but of the module's functions, print, zip and the \
                 ops taking *args)",
            );
        }
        let (label, receiver, callee) = match func {
            // A method of an object (not a module's function): bound once to the object, which
            // names the method's type in messages, as CPython's do (`dict.get()`).
            Expr::Attribute { value, attr }
                if Method::from_name(attr).is_some()
                    && path.as_ref().is_none_or(|(p, root)| p.contains('.') && self.is_defined(root)) =>
            {
                let method = Method::from_name(attr).expect("checked in the guard");
                let bound = self.temp();
                let obj = self.bind_method(method, value, bound)?;
                (attr.clone(), obj, bound)
            }
            _ => {
                let label = path.map_or_else(|| "function".to_string(), |(p, _)| p);
                (label, self.constant(Slot::default()), self.expr(func, None)?)
            }
        };
        let (values, starred) = self.spread_arguments(args, false)?;
        let mut regs = vec![self.constant(Slot::from_text(&label)), receiver, callee];
        regs.extend(values);
        let (args, d) = (self.operands(&regs), self.dst(dst));
        self.emit(Inst::CallKeyed { dst: d, call: Keyed::Spread { starred }, args });
        Ok(d)
    }

    /// The registers of `args`, a `*iterable` one holding the iterable, and a bit set for each of
    /// those; a generator expression is taken whole where `generators` says the call would.
    pub(super) fn spread_arguments(&mut self, args: &[Expr], generators: bool) -> Result<(Vec<Reg>, u16)> {
        let mut starred = 0u16;
        let mut regs = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            match a {
                Expr::Starred { value } if i < MAX_SPREAD_ARGS => {
                    starred |= 1 << i;
                    // `f(*(w for w in ws))` and `f(*map(g, ws))` take every item, as Python does.
                    regs.extend(self.arguments(from_ref(value.as_ref()), true)?);
                }
                Expr::Starred { .. } => {
                    let msg = format!("a call with *args and more than {MAX_SPREAD_ARGS} arguments is not supported");
                    return Err(err(self.line, ErrorKind::Parse, msg));
                }
                _ => regs.extend(self.arguments(from_ref(a), generators)?),
            }
        }
        Ok((regs, starred))
    }
}
