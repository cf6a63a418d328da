//! `try`/`except`/`else`: the body's instructions are covered by a table of clauses
//! ([`Handler`]) that the interpreter consults only when an instruction fails, so code in a
//! `try` runs as fast as code outside one.

use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::ast::{ExceptHandler, Stmt};
use crate::pipeline::ir::{Handler, Inst, NO_REG};

/// The error kinds `except name` catches, one bit each: the kind of that name, with the
/// kinds CPython makes subclasses of it (`LookupError` catches `KeyError` and `IndexError`).
fn caught_kinds(name: &str) -> Option<u32> {
    use ErrorKind::*;
    let bits = |kinds: &[ErrorKind]| kinds.iter().fold(0u32, |acc, &k| acc | 1 << k as u32);
    Some(match name {
        "Exception" | "BaseException" => u32::MAX,
        "ArithmeticError" => bits(&[ZeroDivision, Overflow]),
        "LookupError" => bits(&[Index, Key]),
        "NameError" => bits(&[Name, UnboundLocal]),
        // A wrong argument count is a TypeError to Python.
        "TypeError" => bits(&[Type, Arity]),
        "ValueError" => bits(&[Value, Duplicate]),
        "OSError" | "IOError" => bits(&[Io]),
        _ => match ErrorKind::from_name(name)? {
            Arity | Duplicate | Io | Parse => return None,
            kind => bits(&[kind]),
        },
    })
}

impl FnCompiler<'_> {
    /// `try: body` / `except ...:` clauses / `else: orelse`.
    pub(super) fn try_statement(&mut self, body: &[Stmt], handlers: &[ExceptHandler], orelse: &[Stmt]) -> Result<()> {
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
            let target = self.here();
            self.block(&h.body)?;
            clauses.push(Handler { start, end, target, body_end: self.here(), kinds, bind });
            if bind != NO_REG {
                // CPython deletes the `as` variable when the clause ends.
                self.emit(Inst::Unbind { dst: bind });
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
                format!(
                    "except {t}: anyscript catches Exception, ArithmeticError, LookupError and the \
                     exceptions it raises itself (ValueError, TypeError, KeyError, IndexError, \
                     RuntimeError, ZeroDivisionError, OverflowError, NameError, UnboundLocalError, \
                     MemoryError, AssertionError, OSError)"
                ),
            )),
        })
    }
}
