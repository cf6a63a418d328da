//! Displays with unpacking (`[*a, b]`, `(*a, b)`, `{*a, b}`, `{**m, k: v}`) and slice stores
//! (`xs[a:b] = items`, `xs[a:b] += items`, `del xs[a:b]`), compiled as CPython 3.11 compiles
//! them: the items before the first `*` make the container, each later step adds to it as soon
//! as its value is evaluated (`pipeline/unpacking.rs`), and a slice store evaluates the value,
//! then the object, then its bounds.

use super::FnCompiler;
use crate::error::Result;
use crate::pipeline::Slot;
use crate::pipeline::ast::{BinOp, Expr};
use crate::pipeline::builtins::Builtin;
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::keyed::Keyed;
use crate::pipeline::methods::Method;
use crate::pipeline::set_ops::SetLayout;
use crate::pipeline::unpacking::Display;
use std::slice::from_ref;

/// The bounds of a slice as the AST holds them: lower, upper, step.
pub(super) type Bounds<'a> = [&'a Option<Box<Expr>>; 3];

impl FnCompiler<'_> {
    /// A list display (a tuple's when `tuple`) some of whose items are `*value`.
    pub(super) fn unpacking_sequence(&mut self, items: &[Expr], tuple: bool, dst: Option<Reg>) -> Result<Reg> {
        let first_star = items.iter().position(|e| matches!(e, Expr::Starred { .. })).unwrap_or(items.len());
        let regs = self.exprs(&items[..first_star])?;
        let operands = self.operands(&regs);
        let list = self.temp();
        self.emit(Inst::BuildList { dst: list, items: operands });
        self.add_steps(list, &items[first_star..], false)?;
        if !tuple {
            return Ok(self.move_to(list, dst));
        }
        // CPython's LIST_TO_TUPLE: `tuple()` of the list it built.
        let args = self.operands(&[list]);
        let d = self.dst(dst);
        self.emit(Inst::CallBuiltin { dst: d, builtin: Builtin::Tuple, args });
        Ok(d)
    }

    /// Adds `items`, from a display's first `*value` on, to the list (or the set, where `set`)
    /// `container` one at a time, each as soon as it is evaluated: a set's steps are
    /// `set.update` and `set.add`, as CPython's `SET_UPDATE` and `SET_ADD` are.
    fn add_steps(&mut self, container: Reg, items: &[Expr], set: bool) -> Result<()> {
        for item in items {
            let (star, v) = match item {
                Expr::Starred { value } => (true, self.starred_items(value)?),
                _ => (false, self.expr(item, None)?),
            };
            match (set, star) {
                (false, true) => self.emit_keyed(Keyed::Unpack { into: Display::List }, &[container, v]),
                (false, false) => {
                    self.emit(Inst::Append { list: container, value: v });
                }
                (true, _) => {
                    let method = if star { Method::Update } else { Method::Add };
                    let (dst, args) = (self.temp(), self.operands(&[v]));
                    self.emit(Inst::CallMethod { dst, method, obj: container, args });
                }
            }
        }
        Ok(())
    }

    /// The register of `*value`'s value: a generator expression (`[*(w for w in ws)]`) or
    /// `map`/`filter` is run whole, as the display takes every item.
    fn starred_items(&mut self, value: &Expr) -> Result<Reg> {
        Ok(self.arguments(from_ref(value), true)?[0])
    }

    /// A set display some of whose items are `*value`; the items after the first one are added
    /// one at a time, as CPython adds them.
    pub(super) fn unpacking_set(&mut self, items: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let first_star = items.iter().position(|e| matches!(e, Expr::Starred { .. })).unwrap_or(items.len());
        let set = self.temp();
        self.set_display(&items[..first_star], SetLayout::Added, Some(set))?;
        self.add_steps(set, &items[first_star..], true)?;
        Ok(self.move_to(set, dst))
    }

    /// A dict display; a key None is `**value`. The pairs between two of those make a dict of
    /// their own that updates the display's, as CPython's `compiler_subdict` does.
    pub(super) fn dict_display(&mut self, keys: &[Option<Expr>], values: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let mut built: Option<Reg> = None;
        let mut run: Vec<Reg> = Vec::new();
        for (k, v) in keys.iter().zip(values) {
            match k {
                Some(k) => {
                    run.push(self.expr(k, None)?);
                    run.push(self.expr(v, None)?);
                }
                None => {
                    let d = self.flush_pairs(&mut run, built);
                    built = Some(d);
                    let m = self.expr(v, None)?;
                    self.emit_keyed(Keyed::Unpack { into: Display::Dict }, &[d, m]);
                }
            }
        }
        let d = match (built, run.is_empty()) {
            (Some(d), true) => d,
            _ => self.flush_pairs(&mut run, built),
        };
        Ok(self.move_to(d, dst))
    }

    /// The dict of the pairs in `run` (emptied), or `into` updated with them when it exists.
    fn flush_pairs(&mut self, run: &mut Vec<Reg>, into: Option<Reg>) -> Reg {
        if let Some(d) = into
            && run.is_empty()
        {
            return d;
        }
        let items = self.operands(run);
        run.clear();
        let part = self.temp();
        self.emit(Inst::BuildDict { dst: part, items });
        match into {
            None => part,
            Some(d) => {
                self.emit_keyed(Keyed::Unpack { into: Display::Dict }, &[d, part]);
                d
            }
        }
    }

    /// The registers of `obj[lower:upper:step]`'s parts, in that order (None for an omitted bound).
    fn slice_parts(&mut self, value: &Expr, bounds: Bounds<'_>) -> Result<[Reg; 4]> {
        let obj = self.expr(value, None)?;
        let mut regs = [obj; 4];
        for (r, b) in regs[1..].iter_mut().zip(bounds) {
            *r = match b {
                Some(b) => self.expr(b, None)?,
                None => self.constant(Slot::default()),
            };
        }
        Ok(regs)
    }

    /// `value[lower:upper:step] = v`, `v` evaluated already.
    pub(super) fn store_slice(&mut self, value: &Expr, bounds: Bounds<'_>, v: Reg) -> Result<()> {
        let [obj, lo, hi, step] = self.slice_parts(value, bounds)?;
        self.emit_keyed(Keyed::SetSlice, &[obj, lo, hi, step, v]);
        Ok(())
    }

    /// `del value[lower:upper:step]`.
    pub(super) fn delete_slice(&mut self, value: &Expr, bounds: Bounds<'_>) -> Result<()> {
        let parts = self.slice_parts(value, bounds)?;
        self.emit_keyed(Keyed::DelSlice, &parts);
        Ok(())
    }

    /// `value[lower:upper:step] op= operand`: the slice is read, changed and stored back.
    pub(super) fn aug_assign_slice(
        &mut self,
        value: &Expr,
        bounds: Bounds<'_>,
        op: BinOp,
        operand: &Expr,
    ) -> Result<()> {
        let [obj, lo, hi, step] = self.slice_parts(value, bounds)?;
        let bounds = self.operands(&[lo, hi, step]);
        let cur = self.temp();
        self.emit(Inst::Slice { dst: cur, obj, bounds });
        let b = self.expr(operand, None)?;
        self.emit(Inst::Binary { op, dst: cur, a: cur, b, in_place: true });
        self.emit_keyed(Keyed::SetSlice, &[obj, lo, hi, step, cur]);
        Ok(())
    }

    /// Emits `call` on the registers `args`, its result dropped.
    fn emit_keyed(&mut self, call: Keyed, args: &[Reg]) {
        let args = self.operands(args);
        let dst = self.temp();
        self.emit(Inst::CallKeyed { dst, call, args });
    }
}
