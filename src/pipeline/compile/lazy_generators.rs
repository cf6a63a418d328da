//! Generator expressions that are values (`g = (w for w in words)`, `Counter(w.lower() for w in
//! words)`, `next((w for w in ws if p(w)), None)`, `map(f, xs)` kept in a variable): each runs
//! lazily, as CPython runs it, as a generator function of the module (`<genexpr>`) called with
//! the first iterable, which is evaluated where the expression is, as Python evaluates it.
//!
//! Rationale: the function reads the enclosing variables it needs (not the first iterable) with
//! the values they have when the expression is evaluated, as a lambda does
//! (`pipeline/lambdas.rs`), where Python's reads them at each item. The two agree when no
//! assignment to those variables can run while the generator is alive: none follows the
//! expression in the source and none is in a loop around it, or the generator is the argument of
//! `next()`, which takes its item before anything else runs. The compiler refuses the rest,
//! naming the line. Where a call takes every item at once (`sorted`, `sum`, `str.join`, ...) the
//! expression is built as a list instead (`compile/generators.rs`).

use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::Expr;
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::iterate::LoopState;
use crate::pipeline::lambdas::{GENEXPR_NAME, def_free_names, genexp_def};
use crate::{AnyValue, AnyView, PackedFunc};
use std::sync::LazyLock;

/// The function that fails as `iter(x)` fails for a value `x` that cannot be iterated.
fn check_iterable_func() -> PackedFunc {
    static FUNC: LazyLock<PackedFunc> = LazyLock::new(|| {
        PackedFunc::new(|args: &[AnyView<'_>]| LoopState::check_iterable(args[0]).map(|()| AnyValue::none()))
    });
    FUNC.clone()
}

impl FnCompiler<'_> {
    /// The generator a generator expression `e` makes; `values_now` when the values its
    /// variables have now are those Python would read: its consumer takes what it needs before
    /// anything else runs (`next(...)`), or it is `map(f, xs)`, whose `f` Python reads once.
    pub(super) fn lazy_generator(&mut self, e: &Expr, dst: Option<Reg>, values_now: bool) -> Result<Reg> {
        let comp = e.comprehension().expect("a generator expression");
        let frozen = values_now || self.is_frozen_lambda(e);
        let name = format!("{}.<locals>.{GENEXPR_NAME}", self.f.name);
        let mut def = genexp_def(&name, e, self.line);
        let captured: Vec<String> = def_free_names(&def).into_iter().filter(|n| self.locals.contains_key(n)).collect();
        if let (Some(first), false) = (self.changing_variable(e, &captured), frozen) {
            return Err(err(
                self.line,
                ErrorKind::Parse,
                format!(
                    "a generator expression that reads the enclosing function's variable '{first}', which may be \
                     assigned again while the generator is alive (later in the function, in a loop or comprehension \
                     around it), is supported only as the argument of next() or of a call that takes all its items \
                     (anyscript gives a generator expression the values its variables have when it is made; \
                     Python reads them at each item)"
                ),
            ));
        }
        // The first iterable is evaluated here, before the generator exists, as in Python, and a
        // value that cannot be iterated fails here too (`(x for x in 5)`, `map(f, None)`).
        let iterable = self.iterable(comp.iter)?;
        let check = self.constant(Slot::from(check_iterable_func()));
        let args = self.operands(&[iterable]);
        let ignored = self.temp();
        self.emit(Inst::CallValue { dst: ignored, callee: check, args });
        // The captured variables are its first parameters, before the iterable.
        def.params.splice(0..0, captured.iter().cloned());
        let callee = self.temp();
        self.make_lifted(callee, def, &captured)?;
        let args = self.operands(&[iterable]);
        let d = self.dst(dst);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(d)
    }
}
