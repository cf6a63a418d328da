//! Statements: the dispatch over a statement's kind, assignments and augmented assignments.

use super::{FnCompiler, LoopCtx, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::{BinOp, Expr, Stmt, StmtKind, Target};
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::methods::Method;

impl FnCompiler<'_> {
    pub(super) fn block(&mut self, body: &[Stmt]) -> Result<()> {
        body.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<()> {
        self.line = s.line;
        // Temporaries live for one statement; loops keep their state in loop slots instead.
        let saved_temp = self.next_temp;
        let result = self.stmt_kind(&s.kind);
        self.next_temp = saved_temp;
        result
    }

    /// Python finds a method before it evaluates the call's arguments: when an argument may
    /// fail (or run anything), the receiver's type is checked first. Constants and names that
    /// are surely bound cannot fail.
    pub(super) fn check_method_first(&mut self, obj: Reg, method: Method, args: &[Expr]) {
        let cannot_fail = |a: &Expr| match a {
            Expr::Const { .. } => true,
            Expr::Name { id } => !self.maybe_unbound.contains(id) && !self.is_cell(id),
            _ => false,
        };
        if !args.iter().all(cannot_fail) {
            self.emit(Inst::CheckMethod { obj, method });
        }
    }

    fn stmt_kind(&mut self, kind: &StmtKind) -> Result<()> {
        match kind {
            StmtKind::Expr { value } => {
                // `xs.append(x)` as a statement: its None result is not needed.
                if let Expr::Call { func, args, keywords } = value
                    && keywords.is_empty()
                    && let Expr::Attribute { value: obj, attr } = func.as_ref()
                    && attr == "append"
                    && args.len() == 1
                    && !matches!(args[0], Expr::Starred { .. })
                    && self.calls_a_method(func)
                {
                    let list = self.expr(obj, None)?;
                    self.check_method_first(list, Method::Append, args);
                    let value = self.expr(&args[0], None)?;
                    self.emit(Inst::Append { list, value });
                } else {
                    self.expr(value, None)?;
                }
            }
            StmtKind::Assign { targets, value } => {
                if let [Target::Name { id }] = targets.as_slice() {
                    let dst = self.locals[id];
                    self.expr(value, Some(dst))?;
                    self.stored(id);
                } else {
                    let v = self.expr_in_temp(value)?;
                    for t in targets {
                        self.assign(t, v)?;
                    }
                }
            }
            StmtKind::AugAssign { target, op, value } => self.aug_assign(target, *op, value)?,
            StmtKind::If { test, body, orelse } => {
                let cond = self.expr(test, None)?;
                let jump_else = self.emit(Inst::JumpIfFalse { cond, to: 0 });
                self.block(body)?;
                if orelse.is_empty() {
                    let end = self.here();
                    self.patch(jump_else, end);
                } else {
                    let jump_end = self.emit(Inst::Jump { to: 0 });
                    let else_at = self.here();
                    self.patch(jump_else, else_at);
                    self.block(orelse)?;
                    let end = self.here();
                    self.patch(jump_end, end);
                }
            }
            StmtKind::For { target, iter, body, orelse } => {
                let line = self.line;
                // A fused loop has no `else:` block to run after it.
                let fused = if orelse.is_empty() { self.scope(|s| s.for_statement(target, iter, body)) } else { None };
                // The fused loop can only fail as its append would (a `MemoryError`): it is
                // located at the append, where CPython would raise it.
                let append_line = body.last().map_or(line, |s| s.line);
                let skip = fused.map(|a| {
                    self.line = append_line;
                    let skip = self.extend_each(a);
                    self.line = line;
                    skip
                });
                self.for_loop(target, iter, false, orelse, |c| {
                    c.block(body)?;
                    c.line = line;
                    Ok(())
                })?;
                self.patch_skip(skip);
            }
            StmtKind::While { test, body, orelse } => {
                let slot = self.enter_loop_slot();
                self.emit(Inst::GuardReset { slot });
                let top = self.here();
                let cond = self.expr(test, None)?;
                let exit = self.emit(Inst::JumpIfFalse { cond, to: 0 });
                // Counted once the condition lets an iteration run: `while_limit` iterations run,
                // and a loop that ends on its condition after exactly that many is not stopped.
                self.emit(Inst::Guard { slot });
                self.loops.push(LoopCtx::default());
                self.block(body)?;
                self.emit(Inst::Jump { to: top });
                let ended = self.here();
                self.patch(exit, ended);
                self.leave_loop(top, orelse)?;
            }
            StmtKind::Break => self.leave_iteration(true)?,
            StmtKind::Continue => self.leave_iteration(false)?,
            // Compiled where the function begins (`compile/cells.rs`).
            StmtKind::Pass | StmtKind::Nonlocal { .. } => {}
            StmtKind::Raise { exc, value, cause } => self.raise(exc, value.as_ref(), cause.as_ref())?,
            StmtKind::Reraise => self.reraise()?,
            StmtKind::Def { function } => self.nested_def(function)?,
            StmtKind::Assert { test, msg } => self.assert(test, msg.as_ref())?,
            StmtKind::Delete { targets } => targets.iter().try_for_each(|t| self.delete(t))?,
            StmtKind::Try { body, handlers, orelse, finalbody } => {
                self.try_statement(body, handlers, orelse, finalbody)?
            }
            StmtKind::Return { value } => {
                let src = match value {
                    Some(v) => self.expr(v, None)?,
                    None => self.constant(Slot::default()),
                };
                self.return_value(src);
            }
            StmtKind::Yield { value } => {
                let src = match value {
                    Some(v) => self.expr(v, None)?,
                    None => self.constant(Slot::default()),
                };
                self.emit(Inst::Yield { src });
            }
            // Written as its loop before the function is compiled (`yields::lowered`).
            StmtKind::YieldFrom { .. } => {
                return Err(err(self.line, ErrorKind::Runtime, "internal error: a 'yield from' was not lowered"));
            }
        }
        Ok(())
    }

    /// Stores the value in register `v` into `target`.
    pub(super) fn assign(&mut self, target: &Target, v: Reg) -> Result<()> {
        match target {
            Target::Name { id } => {
                let dst = self.locals[id];
                if dst != v {
                    self.emit(Inst::Move { dst, src: v });
                }
                self.stored(id);
            }
            Target::Subscript { value, index } => {
                let obj = self.expr(value, None)?;
                let key = self.expr(index, None)?;
                self.emit(Inst::SetItem { obj, key, value: v });
            }
            Target::Slice { value, lower, upper, step } => self.store_slice(value, [lower, upper, step], v)?,
            Target::Tuple { items } => {
                let temps: Vec<Reg> = items.iter().map(|_| self.temp()).collect();
                let targets = self.operands(&temps);
                let mut stars = items.iter().enumerate().filter(|(_, t)| matches!(t, Target::Starred { .. }));
                match (stars.next(), stars.next()) {
                    (None, _) => self.emit(Inst::Unpack { src: v, targets }),
                    (Some((star, _)), None) => self.emit(Inst::UnpackStar { src: v, targets, star: star as u32 }),
                    (Some(_), Some(_)) => {
                        return Err(err(self.line, ErrorKind::Parse, "multiple starred expressions in assignment"));
                    }
                };
                for (t, r) in items.iter().zip(temps) {
                    match t {
                        Target::Starred { value } => self.assign(value, r)?,
                        _ => self.assign(t, r)?,
                    }
                }
            }
            Target::Starred { .. } => {
                return Err(err(self.line, ErrorKind::Parse, "starred assignment target must be in a list or tuple"));
            }
        }
        Ok(())
    }

    fn aug_assign(&mut self, target: &Target, op: BinOp, value: &Expr) -> Result<()> {
        match target {
            Target::Name { id } if self.is_cell(id) => {
                // Read out of the cell, changed, and put back (a list grows in place first).
                let cur = self.load_name(id)?;
                let b = self.expr(value, None)?;
                self.emit(Inst::Binary { op, dst: cur, a: cur, b, in_place: true });
                let cell = self.cells[id];
                self.emit(Inst::CellSet { cell, src: cur });
            }
            Target::Name { id } => {
                let dst = self.locals[id];
                self.check_bound(id, dst);
                let b = self.expr(value, None)?;
                self.emit(Inst::Binary { op, dst, a: dst, b, in_place: true });
            }
            Target::Subscript { value: obj_e, index } => {
                let obj = self.expr(obj_e, None)?;
                let key = self.expr(index, None)?;
                let cur = self.temp();
                self.emit(Inst::GetItem { dst: cur, obj, key });
                let b = self.expr(value, None)?;
                self.emit(Inst::Binary { op, dst: cur, a: cur, b, in_place: true });
                self.emit(Inst::SetItem { obj, key, value: cur });
            }
            Target::Slice { value: obj_e, lower, upper, step } => {
                self.aug_assign_slice(obj_e, [lower, upper, step], op, value)?
            }
            Target::Tuple { .. } | Target::Starred { .. } => {
                return Err(err(self.line, ErrorKind::Parse, "illegal expression for augmented assignment"));
            }
        }
        Ok(())
    }
}
