//! Comprehensions: list, set and dict comprehensions anywhere, and generator expressions as the
//! argument of a call that takes every item before it returns.
//!
//! Rationale: a generator runs its body as its consumer asks for items. Where the consumer
//! takes them all at once (`sum`, `sorted`, `"".join`, ...) nothing can run between two items,
//! so building the list first gives the same result; `any` and `all`, which stop early, run
//! as a loop that stops at the same item. Anywhere else (a generator kept in a variable, given
//! to a function of the module) the interleaving would show, so it is refused.

use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::append_loop::AppendLoop;
use crate::pipeline::ast::{Expr, Target};
use crate::pipeline::builtins::Builtin;
use crate::pipeline::ir::{Inst, NO_REG, Reg};
use crate::pipeline::methods::Method;

/// The built-ins a generator expression may be given to: each takes all its items first.
pub(super) fn takes_a_generator(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::List
            | Builtin::Tuple
            | Builtin::Dict
            | Builtin::Set
            | Builtin::Sorted
            | Builtin::Sum
            | Builtin::Min
            | Builtin::Max
            | Builtin::Any
            | Builtin::All
    )
}

/// The error for a generator expression anywhere else.
pub(super) const GENERATOR_PLACES: &str = "generator expressions are supported only as the argument of \
     list(), tuple(), dict(), set(), sorted(), sum(), min(), max(), any(), all() or str.join() (anyscript builds \
     their items first, which is what Python's generator gives a call that takes them all)";

impl FnCompiler<'_> {
    /// The registers of a call's arguments; a generator expression among them becomes the
    /// list of its items where `generators` (the callee takes them all at once).
    pub(super) fn arguments(&mut self, args: &[Expr], generators: bool) -> Result<Vec<Reg>> {
        args.iter()
            .map(|a| match a {
                Expr::GeneratorExp { elt, target, iter, ifs } if generators => {
                    self.list_comp(elt, target, iter, ifs, None)
                }
                _ => self.expr(a, None),
            })
            .collect()
    }

    /// `[elt for target in iter if ifs...]`.
    pub(super) fn list_comp(
        &mut self,
        elt: &Expr,
        target: &Target,
        iter: &Expr,
        ifs: &[Expr],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let out = self.temp();
        let none = self.operands(&[]);
        self.emit(Inst::BuildList { dst: out, items: none });
        // The comprehension's variables are its own: the extend need not leave them set.
        let fused = self.scope(|s| s.comprehension(out, elt, target, iter, ifs));
        let skip = fused.map(|a| self.extend_each(AppendLoop { index: NO_REG, item: NO_REG, ..a }));
        self.comprehension_loop(target, iter, ifs, |c| {
            let v = c.expr(elt, None)?;
            c.emit(Inst::Append { list: out, value: v });
            Ok(())
        })?;
        self.patch_skip(skip);
        Ok(self.move_to(out, dst))
    }

    /// `{elt for target in iter if ifs...}`.
    pub(super) fn set_comp(
        &mut self,
        elt: &Expr,
        target: &Target,
        iter: &Expr,
        ifs: &[Expr],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let out = self.temp();
        let none = self.operands(&[]);
        self.emit(Inst::BuildSet { dst: out, items: none, folded: false });
        self.comprehension_loop(target, iter, ifs, |c| {
            let v = c.expr(elt, None)?;
            let args = c.operands(&[v]);
            let ignored = c.temp();
            c.emit(Inst::CallMethod { dst: ignored, method: Method::Add, obj: out, args });
            Ok(())
        })?;
        Ok(self.move_to(out, dst))
    }

    /// `{key: value for target in iter if ifs...}`: the key is evaluated before the value, as
    /// in CPython 3.8 and later.
    pub(super) fn dict_comp(
        &mut self,
        (key, value): (&Expr, &Expr),
        target: &Target,
        iter: &Expr,
        ifs: &[Expr],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let out = self.temp();
        let none = self.operands(&[]);
        self.emit(Inst::BuildDict { dst: out, items: none });
        self.comprehension_loop(target, iter, ifs, |c| {
            let k = c.expr(key, None)?;
            let v = c.expr(value, None)?;
            c.emit(Inst::SetItem { obj: out, key: k, value: v });
            Ok(())
        })?;
        Ok(self.move_to(out, dst))
    }

    /// `any(elt for ...)` (or `all`, when `all`): a loop that stops at the first truthy (falsy)
    /// item, as the generator would be stopped there.
    pub(super) fn any_all(
        &mut self,
        all: bool,
        (elt, target, iter, ifs): (&Expr, &Target, &Expr, &[Expr]),
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let out = self.temp();
        let start = self.constant(Slot::from(all));
        self.emit(Inst::Move { dst: out, src: start });
        self.comprehension_loop(target, iter, ifs, |c| {
            let v = c.expr(elt, None)?;
            let go_on = match all {
                true => c.emit(Inst::JumpIfTrue { cond: v, to: 0 }),
                false => c.emit(Inst::JumpIfFalse { cond: v, to: 0 }),
            };
            let found = c.constant(Slot::from(!all));
            c.emit(Inst::Move { dst: out, src: found });
            let stop = c.emit(Inst::Jump { to: 0 });
            c.loops.last_mut().expect("in the comprehension's loop").breaks.push(stop);
            let next = c.here();
            c.patch(go_on, next);
            Ok(())
        })?;
        Ok(self.move_to(out, dst))
    }

    /// The loop of a comprehension: `each` runs for the items that pass `ifs`, in the
    /// comprehension's own scope (as CPython gives it one).
    fn comprehension_loop(
        &mut self,
        target: &Target,
        iter: &Expr,
        ifs: &[Expr],
        each: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.for_loop(target, iter, true, |c| {
            c.comprehension_depth += 1;
            let mut skips = Vec::new();
            for cond in ifs {
                let r = c.expr(cond, None)?;
                skips.push(c.emit(Inst::JumpIfFalse { cond: r, to: 0 }));
            }
            each(c)?;
            c.comprehension_depth -= 1;
            let next = c.here();
            skips.into_iter().for_each(|at| c.patch(at, next));
            Ok(())
        })
    }

    /// The error for a generator expression where it is not supported.
    pub(super) fn generator_error(&self) -> crate::Error {
        err(self.line, ErrorKind::Parse, GENERATOR_PLACES)
    }
}
