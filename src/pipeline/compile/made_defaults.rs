//! Defaults evaluated where a lambda or nested function is made: `lambda x, i=i: ...` (the
//! idiom that keeps a loop variable's value), `def add(x, seen=[])` (a list made anew each time
//! the `def` runs, as Python makes it), `def f(x, n=len(words))`.
//!
//! Each such default is evaluated where the function is made, in order, as Python evaluates
//! them, and given to the function as a hidden first parameter (like the enclosing variables
//! it reads: `pipeline/lambdas.rs`). The parameter's own default is the default mark, which no
//! value from a caller can be; the function's first instruction puts the hidden value in each
//! parameter that still holds the mark (`Inst::DefaultFill`). So a call that leaves the
//! parameter out, however it is bound (by position, by name, through a function value), gets
//! the value the default had when the function was made.

use super::nested::makes_defaults;
use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, Stmt, StmtKind};
use crate::pipeline::interp::default_mark;
use crate::pipeline::ir::{Inst, Reg};

/// The defaults of a function being made, evaluated.
#[derive(Default)]
pub(super) struct MadeDefaults {
    /// The hidden parameters, one per default (names no source name can be).
    pub hidden: Vec<String>,
    /// The registers holding their values.
    pub values: Vec<Reg>,
    /// Each parameter with a default and its hidden parameter.
    pub fills: Vec<(String, String)>,
}

impl MadeDefaults {
    /// The static defaults of the function's last parameters: the default mark for each.
    pub fn marks(&self) -> Vec<Slot> {
        self.fills.iter().map(|_| default_mark()).collect()
    }
}

impl FnCompiler<'_> {
    /// Evaluates `defaults`, those of the last of `params`, here (in order), for the function
    /// `name` being made.
    pub(super) fn made_defaults(&mut self, name: &str, params: &[String], defaults: &[Expr]) -> Result<MadeDefaults> {
        let Some(first) = params.len().checked_sub(defaults.len()) else {
            return Err(err(self.line, ErrorKind::Parse, format!("'{name}' has more defaults than parameters")));
        };
        let mut made = MadeDefaults::default();
        for (param, default) in params[first..].iter().zip(defaults) {
            let value = self.expr_in_temp(default)?;
            let hidden = format!(".default.{param}");
            made.hidden.push(hidden.clone());
            made.values.push(value);
            made.fills.push((param.clone(), hidden));
        }
        Ok(made)
    }

    /// Where this function begins: a register of its own for each default of the nested `def`s
    /// in `body` (not in functions nested deeper) that is made where the `def` runs, so that
    /// calls by the nested function's name can pass the defaults it was made with (a
    /// temporary would be reused by the next statement).
    pub(super) fn reserve_made_defaults(&mut self, body: &[Stmt]) {
        for s in body {
            if let StmtKind::Def { function } = &s.kind
                && makes_defaults(function)
            {
                let regs = function.defaults.iter().map(|_| self.temp()).collect();
                self.made_default_regs.insert((s.line, function.name.clone()), regs);
            }
            s.kind.blocks().into_iter().for_each(|b| self.reserve_made_defaults(b));
        }
    }

    /// Where this function begins: each parameter that holds the default mark (its caller left
    /// it out) gets the value of its default.
    pub(super) fn fill_made_defaults(&mut self, fills: &[(String, String)]) {
        for (param, hidden) in fills {
            let (dst, src) = (self.locals[param], self.locals[hidden]);
            self.emit(Inst::DefaultFill { dst, src });
        }
    }
}
