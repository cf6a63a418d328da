//! Cell variables: the enclosing function's variables that nested functions share with it
//! (`pipeline/cell.rs`), and `nonlocal`.
//!
//! A variable becomes a cell where passing its value to a nested function when the `def` runs
//! would give another result than Python's: a nested function assigns it (`nonlocal`), or the
//! enclosing function may assign it again after the `def` (later in its body, or in a loop
//! around the `def`). Its register then holds the cell, made where the function begins; every
//! read copies the value out (into a new register, since a call may change it before the value
//! is used) and every assignment copies it in. A nested function (or a lambda, or a generator
//! expression) made with such a variable is given the cell, not the value, and reads and
//! assigns it through the cell too. Every other variable stays a plain register.

use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::ast::{FunctionDef, Stmt, StmtKind};
use crate::pipeline::compile::collect_assigned;
use crate::pipeline::ir::{Inst, Reg};
use std::collections::HashSet;

impl FnCompiler<'_> {
    /// Makes the cells of this function where it begins: the registers of `own` (variables of
    /// this function that nested functions share) get a cell holding their value, and the
    /// captured cells (`self.free_cells`) read and assign through the parameters that bring
    /// them. Checks the function's `nonlocal` statements.
    pub(super) fn set_up_cells(&mut self, def: &FunctionDef, own: HashSet<String>) -> Result<()> {
        self.check_nonlocals(def)?;
        self.check_cycles(&def.body, &own)?;
        for name in self.free_cells.clone() {
            // The parameter keeps the cell; reads and assignments go through a register of their own.
            let cell = self.locals[&name];
            let value = self.temp();
            self.locals.insert(name.clone(), value);
            self.cells.insert(name.clone(), cell);
            // A read of one that the enclosing function has not assigned yet is CPython's
            // free-variable NameError.
            self.free_maybe_unbound.push(name);
        }
        let params: HashSet<&String> = def.params[self.f.n_captured as usize..].iter().collect();
        let mut own: Vec<String> = own
            .into_iter()
            .filter(|n| self.statement_bound.contains(n) && !self.cells.contains_key(n) && self.locals.contains_key(n))
            .collect();
        own.sort_unstable();
        for name in own {
            let value = self.locals[&name];
            if !params.contains(&name) && !self.maybe_unbound.contains(&name) {
                self.emit(Inst::Unbind { dst: value });
            }
            let cell = self.temp();
            self.emit(Inst::CellNew { dst: cell, src: value });
            self.cells.insert(name, cell);
        }
        Ok(())
    }

    /// The read of cell variable `id` (whose cell is in `cell`): its value, copied into a new
    /// register, checked as a read of the variable is.
    pub(super) fn load_cell(&mut self, id: &str, cell: Reg) -> Reg {
        let dst = self.temp();
        self.emit(Inst::CellGet { dst, cell });
        self.check_bound(id, dst);
        dst
    }

    /// After an assignment to local `id` (its register written): the value goes into its cell, if
    /// it has one.
    pub(super) fn stored(&mut self, id: &str) {
        if let Some(&cell) = self.cells.get(id) {
            let src = self.locals[id];
            self.emit(Inst::CellSet { cell, src });
        }
    }

    /// Those of `captured` (enclosing variables a function is made with) that are cell variables
    /// here: the function is given their cells.
    pub(super) fn cells_among(&self, captured: &[String]) -> Vec<String> {
        captured.iter().filter(|n| self.cells.contains_key(*n)).cloned().collect()
    }

    /// Whether local `id` is a cell variable here.
    pub(super) fn is_cell(&self, id: &str) -> bool {
        self.cells.contains_key(id)
    }

    /// Refuses a nested `def` whose name is a cell variable (`own`) when the function it makes
    /// reads variables of this one: two nested functions that call each other (the first reads
    /// the second's name before its `def` runs) would hold each other through the cell, a
    /// reference cycle, which anyproc (it has no cycle collector) would never free, at every
    /// call of the enclosing function.
    fn check_cycles(&self, body: &[Stmt], own: &HashSet<String>) -> Result<()> {
        for s in body {
            if let StmtKind::Def { function } = &s.kind
                && own.contains(&function.name)
                && let Some(read) = self.captured_by(function).0.first()
            {
                return Err(err(
                    s.line,
                    ErrorKind::Parse,
                    format!(
                        "nested function '{}' is read by a nested function made before its 'def' (or is assigned \
                         again after it) and reads the enclosing function's variable '{read}': the functions \
                         would hold each other through a cell, a reference cycle that anyproc, which has no cycle \
                         collector, never frees (define functions that call each other at the module level)",
                        function.name
                    ),
                ));
            }
            s.kind.blocks().into_iter().try_for_each(|b| self.check_cycles(b, own))?;
        }
        Ok(())
    }

    /// CPython's compile errors for this function's `nonlocal` statements: a name no enclosing
    /// function has, and a parameter.
    fn check_nonlocals(&self, def: &FunctionDef) -> Result<()> {
        let own_params = &def.registers()[self.f.n_captured as usize..];
        let mut found = Vec::new();
        nonlocal_statements(&def.body, &mut found);
        for (line, name) in found {
            let problem = if own_params.contains(&name) {
                format!("name '{name}' is parameter and nonlocal")
            } else if !self.free_cells.contains(&name) {
                format!("no binding for nonlocal '{name}' found")
            } else {
                continue;
            };
            return Err(err(line, ErrorKind::Parse, problem));
        }
        Ok(())
    }
}

/// The `nonlocal` statements of `body` and its blocks (not of functions nested in it): each
/// name with its line.
fn nonlocal_statements(body: &[Stmt], out: &mut Vec<(u32, String)>) {
    for s in body {
        if let StmtKind::Nonlocal { names } = &s.kind {
            out.extend(names.iter().map(|n| (s.line, n.clone())));
        }
        s.kind.blocks().into_iter().for_each(|b| nonlocal_statements(b, out));
    }
}

/// The names `def`'s own `nonlocal` statements declare.
pub(crate) fn declared_nonlocal(def: &FunctionDef) -> Vec<String> {
    let mut found = Vec::new();
    nonlocal_statements(&def.body, &mut found);
    found.into_iter().map(|(_, n)| n).collect()
}

/// The names that the functions nested in `body` (at any depth) declare `nonlocal` and that no
/// function between them and `body` binds: those of the function whose body it is, if it has them.
pub(super) fn nonlocal_targets(body: &[Stmt]) -> HashSet<String> {
    let mut out = HashSet::new();
    for s in body {
        if let StmtKind::Def { function } = &s.kind {
            let declared = declared_nonlocal(function);
            let mut bound = function.registers();
            collect_assigned(&function.body, &mut bound);
            out.extend(declared.iter().cloned());
            // Deeper ones reach past this function where it does not bind the name itself.
            out.extend(
                nonlocal_targets(&function.body).into_iter().filter(|n| declared.contains(n) || !bound.contains(n)),
            );
        }
        s.kind.blocks().into_iter().for_each(|b| out.extend(nonlocal_targets(b)));
    }
    out
}
