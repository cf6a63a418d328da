//! `try`/`except`/`else`/`finally`: the body's instructions are covered by a table of clauses
//! ([`Handler`]) that the interpreter consults only when an instruction fails, so code in a
//! `try` runs as fast as code outside one.
//!
//! A `finally:` block is compiled once for each way out of its `try`: after the body ends, at a
//! catch-all clause that keeps the error and raises it again after the block (`Reraise`), and
//! once for each kind of jump out (`return`, `break`, `continue`), placed after the statement
//! so that no clause of the `try` (nor of a `try` inside it) covers it.

use super::{FinallyCtx, FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::ast::{ExceptHandler, Stmt, StmtKind};
use crate::pipeline::exception_value::{caught_kinds, class_names};
use crate::pipeline::ir::{Handler, Inst, NO_REG, Reg};

/// How deep `finally:` blocks may nest in `finally:` blocks: each level compiles its block two
/// to five times, so the copies of the innermost one multiply with the depth.
const MAX_FINALLY_NESTING: u32 = 4;

/// Whether `body` holds a bare `raise` (one of a nested `try`'s clause too: it may re-raise this
/// clause's error from a `finally:` or `else:` block, so the register is kept either way).
pub(super) fn reraises(body: &[Stmt]) -> bool {
    body.iter().any(|s| matches!(s.kind, StmtKind::Reraise) || s.kind.blocks().into_iter().any(reraises))
}

impl FnCompiler<'_> {
    /// `try: body` / `except ...:` clauses / `else: orelse` / `finally: finalbody`.
    pub(super) fn try_statement(
        &mut self,
        body: &[Stmt],
        handlers: &[ExceptHandler],
        orelse: &[Stmt],
        finalbody: &[Stmt],
    ) -> Result<()> {
        match (finalbody.is_empty(), handlers.is_empty()) {
            (true, _) => self.try_except(body, handlers, orelse),
            (false, true) => self.try_finally(finalbody, |c| c.block(body)),
            (false, false) => self.try_finally(finalbody, |c| c.try_except(body, handlers, orelse)),
        }
    }

    /// `try: body` / `except ...:` clauses / `else: orelse`.
    fn try_except(&mut self, body: &[Stmt], handlers: &[ExceptHandler], orelse: &[Stmt]) -> Result<()> {
        let start = self.here();
        self.block(body)?;
        let end = self.here();
        let to_else = self.emit(Inst::Jump { to: 0 });
        let mut clauses = Vec::with_capacity(handlers.len());
        let mut exits = Vec::with_capacity(handlers.len());
        for h in handlers {
            self.line = h.line;
            let kinds = self.clause_kinds(&h.types)?;
            let bind = h.name.as_ref().map_or(NO_REG, |n| self.locals[n]);
            // A register for the error itself only where a bare `raise` needs it.
            let keep = if reraises(&h.body) { self.temp() } else { NO_REG };
            let target = self.here();
            if let Some(name) = &h.name {
                self.stored(name);
            }
            self.clause_errors.push(keep);
            let compiled = self.block(&h.body);
            self.clause_errors.pop();
            compiled?;
            let finally = false;
            clauses.push(Handler { start, end, target, body_end: self.here(), kinds, bind, keep, finally });
            if bind != NO_REG {
                // CPython deletes the `as` variable when the clause ends.
                self.emit(Inst::Unbind { dst: bind });
                if let Some(name) = &h.name {
                    self.stored(name);
                }
            }
            exits.push(self.emit(Inst::Jump { to: 0 }));
        }
        let else_at = self.here();
        self.patch(to_else, else_at);
        self.block(orelse)?;
        let after = self.here();
        exits.into_iter().for_each(|at| self.patch(at, after));
        // After the clauses of any `try` inside the body, which were added while it compiled.
        self.f.handlers.extend(clauses);
        Ok(())
    }

    /// `try: body() finally: finalbody`, `body` being the rest of the statement.
    fn try_finally(&mut self, finalbody: &[Stmt], body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        if self.finally_nesting >= MAX_FINALLY_NESTING {
            let message = format!(
                "'finally:' blocks nested more than {MAX_FINALLY_NESTING} deep in 'finally:' blocks are not supported"
            );
            return Err(err(self.line, ErrorKind::Parse, message));
        }
        // Temporaries of this statement: they live until it ends, across the statements inside.
        let (keep, ret) = (self.temp(), self.temp());
        let loops = self.loops.len();
        let ctx = FinallyCtx { loops, ret, returns: Vec::new(), breaks: Vec::new(), continues: Vec::new() };
        self.finallys.push(ctx);
        let start = self.here();
        let compiled = body(self);
        let ctx = self.finallys.pop().expect("the finally context pushed above");
        compiled?;
        let end = self.here();
        let line = self.line;
        self.finally_block(finalbody)?;
        let mut exits = vec![self.emit(Inst::Jump { to: 0 })];
        // After the clauses of the body's `try`s: an error they do not catch ends up here.
        let target = self.here();
        let (bind, kinds, finally) = (NO_REG, u32::MAX, true);
        self.f.handlers.push(Handler { start, end, target, body_end: target, kinds, bind, keep, finally });
        self.finally_block(finalbody)?;
        self.line = line;
        self.emit(Inst::Reraise { src: keep });
        if !ctx.returns.is_empty() {
            self.patch_all(ctx.returns, finalbody)?;
            self.return_value(ret);
        }
        if !ctx.breaks.is_empty() {
            self.patch_all(ctx.breaks, finalbody)?;
            self.leave_iteration(true)?;
        }
        if !ctx.continues.is_empty() {
            self.patch_all(ctx.continues, finalbody)?;
            self.leave_iteration(false)?;
        }
        exits.push(self.emit(Inst::Jump { to: 0 }));
        let after = self.here();
        exits.into_iter().for_each(|at| self.patch(at, after));
        Ok(())
    }

    /// Points the jumps `at` here, where a copy of `finalbody` follows.
    fn patch_all(&mut self, at: Vec<usize>, finalbody: &[Stmt]) -> Result<()> {
        let here = self.here();
        at.into_iter().for_each(|j| self.patch(j, here));
        self.finally_block(finalbody)
    }

    /// One copy of a `finally:` block.
    fn finally_block(&mut self, finalbody: &[Stmt]) -> Result<()> {
        self.finally_nesting += 1;
        let compiled = self.block(finalbody);
        self.finally_nesting -= 1;
        compiled
    }

    /// `return` of the value in `src`: through the `finally:` blocks around it, if any.
    pub(super) fn return_value(&mut self, src: Reg) {
        let Some(ret) = self.finallys.last().map(|ctx| ctx.ret) else {
            self.emit(Inst::Return { src });
            return;
        };
        if src != ret {
            self.emit(Inst::Move { dst: ret, src });
        }
        let at = self.emit(Inst::Jump { to: 0 });
        self.finallys.last_mut().expect("checked above").returns.push(at);
    }

    /// `break` (or `continue`): a jump to the loop's end (or its next step), through the
    /// `finally:` blocks between here and the loop.
    pub(super) fn leave_iteration(&mut self, is_break: bool) -> Result<()> {
        let at = self.emit(Inst::Jump { to: 0 });
        let line = self.line;
        let open = self.loops.len();
        if open == 0 {
            let message = if is_break { "'break' outside loop" } else { "'continue' not properly in loop" };
            return Err(err(line, ErrorKind::Parse, message));
        }
        let jumps = match self.finallys.last_mut() {
            // The innermost loop holds the `try`: the jump leaves through its `finally:` block.
            Some(ctx) if ctx.loops == open => match is_break {
                true => &mut ctx.breaks,
                false => &mut ctx.continues,
            },
            _ => {
                let ctx = self.loops.last_mut().expect("checked above");
                if is_break { &mut ctx.breaks } else { &mut ctx.continues }
            }
        };
        jumps.push(at);
        Ok(())
    }

    /// A bare `raise`: the error the innermost `except` clause around it caught, raised again.
    pub(super) fn reraise(&mut self) -> Result<()> {
        match self.clause_errors.last() {
            Some(&src) => {
                self.emit(Inst::Reraise { src });
                Ok(())
            }
            None => Err(err(
                self.line,
                ErrorKind::Parse,
                "a bare 'raise' outside an 'except' clause is not supported (it raises again the error \
                 of the clause it is in)",
            )),
        }
    }

    /// The kinds a clause catches: every kind for a bare `except:`.
    fn clause_kinds(&self, types: &[String]) -> Result<u32> {
        if types.is_empty() {
            return Ok(u32::MAX);
        }
        types.iter().try_fold(0u32, |acc, t| match caught_kinds(t) {
            Some(bits) => Ok(acc | bits),
            None => Err(err(
                self.line,
                ErrorKind::Parse,
                format!("except {t}: anyscript catches {}", class_names()[2].join(", ")),
            )),
        })
    }
}
