//! Functions defined inside functions (a `def` in a body). Each becomes a function of the
//! module whose first parameters are the enclosing function's variables it reads, given their
//! values when its `def` runs, as a lambda's are (`pipeline/lambdas.rs`); the `def` binds its
//! name to that function value.
//!
//! Rationale: a nested function given the values the enclosing variables have when its `def`
//! runs sees what Python's sees, which reads them when it is called, as long as no assignment
//! to those variables can run after the `def`: none follows it in the source, and none is in a
//! loop around it. That is the common case, and it costs nothing at each read. A variable that
//! may be assigned again after the `def`, or that a nested function assigns (`nonlocal`), is a
//! cell variable instead (`compile/cells.rs`): the nested function is given its cell and reads
//! it when it runs, as Python's does. Objects are shared, not copied, so a list or dict the
//! nested function changes is the enclosing function's own, as in Python.
//!
//! A nested function that reads its own name (recursion) is given itself, with the same values;
//! where that name may be assigned again after the `def`, it is refused, naming the line.

use super::made_defaults::MadeDefaults;
use super::{FnCompiler, Lifted, Slot, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::ast::{Expr, FunctionDef, Keyword, Stmt, StmtKind};
use crate::pipeline::compile::visit_children;
use crate::pipeline::ir::{Inst, Reg, Shape};
use crate::pipeline::lambdas::{def_free_names, free_names, genexp_def};
use crate::pipeline::unbound::bound_by_statements;
use std::collections::HashSet;

/// A nested function whose calls by name are compiled as direct calls: its name is bound by
/// its `def` alone.
#[derive(Clone)]
pub(super) struct NestedCallee {
    /// Its index in the program.
    func: u32,
    /// Its name in errors (`outer.<locals>.name`).
    qualname: String,
    /// Its own parameters.
    params: Vec<String>,
    /// The values of its last parameters' defaults.
    defaults: Vec<Slot>,
    /// Its other kinds of parameters, if it has any.
    shape: Option<Shape>,
    /// The registers of the enclosing variables it reads, its first parameters.
    captured: Vec<Reg>,
    /// The register of its name: a comprehension's variable of the same name has another.
    reg: Reg,
}

impl FnCompiler<'_> {
    /// `def name(...): body` inside this function: binds `name` to the nested function.
    pub(super) fn nested_def(&mut self, def: &FunctionDef) -> Result<()> {
        let (captured, reads_itself) = self.captured_by(def);
        let shape = super::shaped::shape_of(def)?;
        // Named as CPython names it in errors and reprs: by where it is defined.
        let lifted_name = format!("{}.<locals>.{}", self.f.name, def.name);
        // Defaults that are not constants (or are lists, dicts or sets, which Python makes anew
        // each time the `def` runs) are evaluated here (`compile/made_defaults.rs`).
        let mut made = if makes_defaults(def) {
            self.made_defaults(&lifted_name, &def.params, &def.defaults)?
        } else {
            MadeDefaults::default()
        };
        // Kept where later statements do not write (see `reserve_made_defaults`).
        let reserved = self.made_default_regs.get(&(self.line, def.name.clone())).cloned();
        if let Some(regs) = reserved.as_ref().filter(|r| r.len() == made.values.len()) {
            for (&dst, &src) in regs.iter().zip(&made.values) {
                self.emit(Inst::Move { dst, src });
            }
            made.values = regs.clone();
        }
        let defaults = if made.fills.is_empty() { nested_defaults(def)? } else { made.marks() };
        let (mut values, maybe_unbound, undefined) = self.captured_values(&captured)?;
        values.extend(&made.values);
        let lifted = FunctionDef {
            name: lifted_name.clone(),
            params: captured.iter().chain(&made.hidden).cloned().chain(def.registers()).collect(),
            defaults: Vec::new(),
            extra: Default::default(),
            body: def.body.clone(),
            line: def.line,
        };
        let n_captured = captured.len() + made.hidden.len();
        let own_name = reads_itself.then(|| def.name.clone());
        let callee_defaults = defaults.clone();
        let cells = self.cells_among(&captured);
        // The values of defaults made here are in temporaries, which later statements reuse: a
        // call by name goes through the function value, which holds them.
        let direct = made.fills.is_empty() || reserved.is_some();
        let fills = made.fills;
        let lifted = Lifted {
            def: lifted,
            n_captured,
            maybe_unbound,
            undefined,
            defaults,
            own_name,
            shape: shape.clone(),
            cells,
            fills,
        };
        let func = self.module.add_lifted(lifted);
        let dst = self.locals[&def.name];
        // Called by name where the function is known: a direct call (keywords bound as for the
        // module's functions), when the name is bound by this `def` alone (not a cell, which a
        // nested function may assign) and the values it was made with are those of the
        // variables (which cannot change after the `def`; a cell is passed itself).
        let once = self.assignment_counts.get(&def.name) == Some(&1) && !self.is_cell(&def.name);
        if once && direct && captured.iter().all(|n| self.statement_bound.contains(n)) {
            let callee = NestedCallee {
                func,
                qualname: lifted_name,
                params: def.params.clone(),
                defaults: callee_defaults,
                shape,
                captured: values.clone(),
                reg: dst,
            };
            self.nested_callees.insert(def.name.clone(), callee);
        }
        self.make_function(dst, func, &values);
        self.stored(&def.name);
        Ok(())
    }

    /// Whether a call of `id` here is a call of the nested function of that name.
    pub(super) fn calls_nested(&self, id: &str) -> bool {
        self.nested_callees.get(id).is_some_and(|c| self.locals.get(id) == Some(&c.reg))
    }

    /// A call of nested function `id` by its name (see [`NestedCallee`]).
    pub(super) fn call_nested(
        &mut self,
        id: &str,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let callee = self.nested_callees[id].clone();
        // Raises as Python does when the `def` has not run.
        self.load_name(id)?;
        let params: Vec<&str> = callee.params.iter().map(String::as_str).collect();
        if let Some(shape) = &callee.shape {
            let target = (callee.func, params.as_slice(), callee.defaults.as_slice(), shape);
            return self.call_shaped(&callee.qualname, target, &callee.captured, args, keywords, dst);
        }
        let target = (callee.func, params.as_slice(), callee.defaults.as_slice());
        self.call_lifted(&callee.qualname, target, &callee.captured, args, keywords, dst)
    }

    /// A call of the nested function being compiled by its own name (recursion): a direct
    /// call, given the values it was made with.
    pub(super) fn call_itself(&mut self, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        let func = self.own.as_ref().map_or(0, |(_, func)| *func);
        let shape = self.f.shape.as_deref().cloned();
        let first = self.f.n_captured;
        // Its positional parameters: after `*args` come the other kinds.
        let end = shape.as_ref().map_or(self.f.n_params, |s| first + s.n_positional);
        let names: Vec<String> =
            (first..end).map(|r| self.f.reg_names[r as usize].clone().unwrap_or_default()).collect();
        let params: Vec<&str> = names.iter().map(String::as_str).collect();
        let (name, defaults) = (self.f.name.clone(), self.f.defaults.clone());
        let captured: Vec<Reg> = (0..first).collect();
        if let Some(shape) = &shape {
            return self.call_shaped(&name, (func, &params, &defaults, shape), &captured, args, keywords, dst);
        }
        self.call_lifted(&name, (func, &params, &defaults), &captured, args, keywords, dst)
    }

    /// The enclosing variables `def` reads, in order of first read, and whether it reads its
    /// own name (which is not among them: it is given itself).
    pub(super) fn captured_by(&self, def: &FunctionDef) -> (Vec<String>, bool) {
        let free = def_free_names(def);
        let reads_itself = free.contains(&def.name);
        let captured = free.into_iter().filter(|n| *n != def.name && self.locals.contains_key(n)).collect();
        (captured, reads_itself)
    }

    /// A read of this function's own name from inside it: itself, bound to the values it was
    /// made with (its first parameters).
    pub(super) fn itself(&mut self, func: u32) -> u32 {
        let dst = self.temp();
        let captured: Vec<Reg> = (0..self.f.n_captured).collect();
        self.make_function(dst, func, &captured);
        dst
    }

    /// The enclosing variables that nested `def`s in `body` read and that may be assigned again
    /// after the `def` runs: they become cell variables (`compile/cells.rs`). Refuses a nested
    /// function that reads its own name when the name may be assigned again.
    pub(super) fn check_nested_defs(&self, body: &[Stmt]) -> Result<HashSet<String>> {
        let mut cells = HashSet::new();
        self.check_block(body, &HashSet::new(), &mut cells)?;
        Ok(cells)
    }

    /// `later`: the names assigned after `block` ends, or around it in a loop.
    fn check_block(&self, block: &[Stmt], later: &HashSet<String>, cells: &mut HashSet<String>) -> Result<()> {
        // What the statements after each one that makes a function assign, built from the end
        // (kept only for those: a long function of plain statements costs one pass).
        // With each, what it assigns itself.
        let mut after = later.clone();
        let mut afters = vec![None; block.len()];
        for (i, s) in block.iter().enumerate().rev() {
            let own = bound_by_statements(&[], std::slice::from_ref(s));
            if makes_functions(s) {
                afters[i] = Some((after.clone(), own.clone()));
            }
            after.extend(own);
        }
        for (s, found) in block.iter().zip(afters) {
            let Some((after, own)) = found else { continue };
            let mut around = after.clone();
            around.extend(own);
            self.note_frozen_lambdas(s, &around);
            match &s.kind {
                StmtKind::Def { function } => self.check_def(function, s.line, &after, cells)?,
                // Each pass of the body runs after the last one's assignments, and the target is
                // assigned each pass.
                StmtKind::For { body, orelse, .. } | StmtKind::While { body, orelse, .. } => {
                    self.check_block(body, &around, cells)?;
                    self.check_block(orelse, &after, cells)?;
                }
                StmtKind::Try { body, handlers, orelse, finalbody } => {
                    let mut finally_later = after.clone();
                    finally_later.extend(bound_by_statements(&[], finalbody));
                    // A clause may run after part of the body; `else:` after all of it.
                    let mut body_later = finally_later.clone();
                    handlers.iter().for_each(|h| {
                        body_later.extend(h.name.iter().cloned());
                        body_later.extend(bound_by_statements(&[], &h.body));
                    });
                    body_later.extend(bound_by_statements(&[], orelse));
                    self.check_block(body, &body_later, cells)?;
                    // A clause's `as` name is unbound when the clause ends.
                    handlers.iter().try_for_each(|h| {
                        let mut clause_later = finally_later.clone();
                        clause_later.extend(h.name.iter().cloned());
                        self.check_block(&h.body, &clause_later, cells)
                    })?;
                    self.check_block(orelse, &finally_later, cells)?;
                    self.check_block(finalbody, &after, cells)?;
                }
                // Only one branch runs.
                kind => kind.blocks().into_iter().try_for_each(|b| self.check_block(b, &after, cells))?,
            }
        }
        Ok(())
    }

    /// Records the lambdas of statement `s` (not of its blocks), each with the enclosing
    /// variables it reads that are in `assigned` (what `s` and the statements after it assign),
    /// or None when it reads a variable a comprehension around it assigns. One with none runs
    /// as Python's would with the values it is made with, wherever it goes.
    fn note_frozen_lambdas(&self, s: &Stmt, assigned: &HashSet<String>) {
        let mut lambdas = Vec::new();
        s.kind.for_each_expr(&mut |e| find_lambdas(e, &mut Vec::new(), &mut lambdas));
        for (lambda, comprehension_names) in lambdas {
            // A generator expression reads all but its first iterable later, as a lambda does.
            let reads = match lambda {
                Expr::Lambda { params, body, .. } => free_names(params, body),
                _ => def_free_names(&genexp_def("", lambda, s.line)),
            };
            let locals: Vec<&String> = reads.iter().filter(|n| self.locals.contains_key(*n)).collect();
            let changing = (!locals.iter().any(|n| comprehension_names.contains(*n)))
                .then(|| locals.into_iter().filter(|n| assigned.contains(*n)).cloned().collect());
            self.frozen_lambdas.borrow_mut().push((s.line, lambda.clone(), changing));
        }
    }

    /// The variable to name in the error for lambda (or generator expression) `e`, which reads
    /// `captured`: the first that may be assigned again while it is alive, as noted for it.
    pub(super) fn changing_variable<'n>(&self, e: &Expr, captured: &'n [String]) -> Option<&'n String> {
        let found = self.frozen_lambdas.borrow();
        let changing: Vec<&String> = found
            .iter()
            .filter(|(line, x, _)| *line == self.line && x == e)
            .flat_map(|(_, _, changing)| changing.iter().flatten())
            .collect();
        captured.iter().find(|n| changing.contains(n) && !self.is_cell(n)).or(captured.first())
    }

    /// Whether lambda `e` of the current statement was found frozen (every lambda alike on its
    /// line, should there be several): the variables it reads that may change are cell
    /// variables, which it is given the cells of.
    pub(super) fn is_frozen_lambda(&self, e: &Expr) -> bool {
        let found = self.frozen_lambdas.borrow();
        let mut alike = found.iter().filter(|(line, x, _)| *line == self.line && x == e).peekable();
        alike.peek().is_some()
            && alike.all(|(_, _, changing)| changing.as_ref().is_some_and(|c| c.iter().all(|n| self.is_cell(n))))
    }

    fn check_def(
        &self,
        def: &FunctionDef,
        line: u32,
        later: &HashSet<String>,
        cells: &mut HashSet<String>,
    ) -> Result<()> {
        let (captured, reads_itself) = self.captured_by(def);
        cells.extend(captured.into_iter().filter(|n| later.contains(n)));
        if !(reads_itself && later.contains(&def.name)) {
            return Ok(());
        }
        let name = &def.name;
        Err(err(
            line,
            ErrorKind::Parse,
            format!(
                "nested function '{name}' reads its own name, which is assigned again after the 'def' (or in a \
                 loop around it): anyscript gives a nested function that calls itself the function its 'def' \
                 made, and Python reads the name when it is called",
            ),
        ))
    }
}

/// The defaults of a nested function, made once when the program is compiled: immutable ones
/// only, since Python makes a new list, dict or set each time the `def` runs.
fn nested_defaults(def: &FunctionDef) -> Result<Vec<Slot>> {
    let first = def.params.len().saturating_sub(def.defaults.len());
    let positional = def.defaults.iter().zip(&def.params[first..]);
    let kwonly = def.extra.kw_defaults.iter().zip(&def.extra.kwonly).filter_map(|(d, p)| Some((d.as_ref()?, p)));
    if let Some((_, p)) = positional.chain(kwonly).find(|(d, _)| holds_mutable(d)) {
        return Err(err(
            def.line,
            ErrorKind::Parse,
            format!(
                "the default value of parameter '{p}' of nested function '{}' is a list, dict or set: anyscript \
                 makes a nested function's defaults once, and Python each time its 'def' runs (use None, \
                 a number, a str or a tuple)",
                def.name
            ),
        ));
    }
    super::defaults_of(def)
}

/// Whether nested function `def` has defaults evaluated where its `def` runs
/// (`compile/made_defaults.rs`): one that [`made_at_def`] says must be, and only plain
/// parameters (no `*args`, keyword-only or `**kwargs`).
pub(super) fn makes_defaults(def: &FunctionDef) -> bool {
    def.extra.is_empty() && def.defaults.iter().any(made_at_def)
}

/// Whether default `d` must be evaluated where its `def` runs: it is no constant, or it makes a
/// list, dict or set, which Python makes anew each time.
fn made_at_def(d: &Expr) -> bool {
    super::constants::constant_value(d).is_none() || holds_mutable(d)
}

/// Whether a constant display is or holds a list, dict or set (`set(...)` too).
fn holds_mutable(e: &Expr) -> bool {
    match e {
        Expr::List { .. } | Expr::Dict { .. } | Expr::Set { .. } => true,
        Expr::Call { func, .. } => matches!(func.as_ref(), Expr::Name { id } if id == "set"),
        Expr::Tuple { items } => items.iter().any(holds_mutable),
        _ => false,
    }
}

/// Whether statement `s` (or one in its blocks) is a `def` or has a lambda.
fn makes_functions(s: &Stmt) -> bool {
    fn has_lambda(e: &Expr) -> bool {
        let mut found = matches!(e, Expr::Lambda { .. } | Expr::GeneratorExp { .. });
        if !found {
            visit_children(e, &mut |c| found = found || has_lambda(c));
        }
        found
    }
    let mut found = matches!(s.kind, StmtKind::Def { .. });
    s.kind.for_each_expr(&mut |e| found = found || has_lambda(e));
    found || s.kind.blocks().into_iter().flatten().any(makes_functions)
}

/// The lambdas in `e` (not inside other lambdas, which are checked where they are compiled),
/// each with the names the comprehensions around it bind.
fn find_lambdas<'e>(e: &'e Expr, comprehension_names: &mut Vec<String>, out: &mut Vec<(&'e Expr, Vec<String>)>) {
    if matches!(e, Expr::GeneratorExp { .. }) {
        out.push((e, comprehension_names.clone()));
    }
    match e {
        Expr::Lambda { .. } => out.push((e, comprehension_names.clone())),
        _ if let Some(comp) = e.comprehension() => {
            // The first iterable runs outside the comprehension; the rest of it, inside.
            find_lambdas(comp.iter, comprehension_names, out);
            let outside = comprehension_names.len();
            comp.clauses().for_each(|(t, _, _)| comprehension_names.extend(t.names().into_iter().map(str::to_string)));
            for (i, (_, iter, ifs)) in comp.clauses().enumerate() {
                if i > 0 {
                    find_lambdas(iter, comprehension_names, out);
                }
                ifs.iter().for_each(|c| find_lambdas(c, comprehension_names, out));
            }
            comp.elements().for_each(|x| find_lambdas(x, comprehension_names, out));
            comprehension_names.truncate(outside);
        }
        _ => visit_children(e, &mut |c| find_lambdas(c, comprehension_names, out)),
    }
}

#[cfg(test)]
mod tests {
    use crate::pipeline::script;
    use crate::{AnyView, List};

    fn run(src: &str, arg: i64) -> Result<String, String> {
        let f = script(src, "f").map_err(|e| e.to_string())?;
        let v = f.call(&[AnyView::from(arg)]).map_err(|e| e.to_string())?;
        Ok(match v.get::<List>() {
            Ok(list) => format!("{:?}", list.to_vec_of::<i64>().map_err(|e| e.to_string())?),
            Err(_) => v.get::<i64>().map_err(|e| e.to_string())?.to_string(),
        })
    }

    #[test]
    fn nested_functions_read_and_change_the_enclosing_objects() {
        // Hand-computed: 1+2+3, each appended, and 5! by recursion.
        let src = "def f(n):\n    out = []\n    def add(x, k=1):\n        out.append(x * k)\n    \
                   for i in range(1, n + 1):\n        add(i)\n    add(n, 10)\n    return out\n";
        assert_eq!(run(src, 3).as_deref(), Ok("[1, 2, 3, 30]"));
        let fact = "def f(n):\n    def fact(m):\n        return 1 if m <= 1 else m * fact(m - 1)\n    return fact(n)\n";
        assert_eq!(run(fact, 5).as_deref(), Ok("120"));
        // Two levels: the inner function reads the outermost one's variable through the middle one.
        let deep = "def f(n):\n    base = n * 10\n    def mid():\n        def inner(x):\n            return base + x\n        \
                    return inner(1)\n    return mid()\n";
        assert_eq!(run(deep, 4).as_deref(), Ok("41"));
    }

    #[test]
    fn a_variable_assigned_after_the_def_is_shared_through_a_cell() {
        // Hand-computed, as Python runs them: the nested function reads the variable when it
        // is called, not when its `def` ran.
        let later = "def f(n):\n    k = 1\n    def g():\n        return k\n    k = 2\n    return g() * 10 + n\n";
        assert_eq!(run(later, 3).as_deref(), Ok("23"));
        // Each `def` in a loop reads the loop's last value: 3 functions, each returning 2.
        let in_loop = "def f(n):\n    fs = []\n    for i in range(n):\n        def g():\n            return i\n        \
                       fs.append(g)\n    return [h() for h in fs]\n";
        assert_eq!(run(in_loop, 3).as_deref(), Ok("[2, 2, 2]"));
        // `nonlocal`: 0 + 1 + 2 + 3, then doubled by a function nested two deep.
        let counter = "def f(n):\n    total = 0\n    def add(v):\n        nonlocal total\n        total += v\n    \
                       def double():\n        def inner():\n            nonlocal total\n            total *= 2\n        \
                       inner()\n    for i in range(n + 1):\n        add(i)\n    double()\n    return total\n";
        assert_eq!(run(counter, 3).as_deref(), Ok("12"));
        // Called before the enclosing function assigns it: CPython's free-variable NameError.
        let early = "def f(n):\n    def g():\n        return x\n    y = g()\n    x = n\n    return y\n";
        let e = run(early, 1).unwrap_err();
        assert!(e.contains("cannot access free variable 'x' where it is not associated with a value"), "{e}");
    }

    #[test]
    fn nonlocal_errors_and_a_self_reading_def_assigned_again_are_refused_with_their_lines() {
        let cases = [
            (
                "def f(n):\n    def g():\n        nonlocal zz\n        zz = 1\n    return 0\n",
                "line 3",
                "no binding for nonlocal 'zz' found",
            ),
            (
                "def f(n):\n    def g(a):\n        nonlocal a\n    return 0\n",
                "line 3",
                "name 'a' is parameter and nonlocal",
            ),
            ("def f(n):\n    nonlocal n\n    return 0\n", "line 2", "name 'n' is parameter and nonlocal"),
            (
                "def f(n):\n    while n:\n        def g(m):\n            return g(m - 1) if m else 0\n        n -= 1\n    return 0\n",
                "line 3",
                "reads its own name",
            ),
            (
                "def f(n):\n    def even(m):\n        return m == 0 or odd(m - 1)\n    def odd(m):\n        \
                 return m != 0 and even(m - 1)\n    return even(n)\n",
                "line 4",
                "reference cycle",
            ),
        ];
        for (src, line, what) in cases {
            let e = run(src, 1).unwrap_err();
            assert!(e.contains(line) && e.contains(what), "{src}: {e}");
        }
    }
}
