//! Which local variables a function may read before any assignment to them has run.
//!
//! Python raises `UnboundLocalError` for such a read (`if x: y = 1` then `return y` with a
//! false `x`). The compiler gives each variable found here an unbound mark at the start of
//! the function and checks its reads; every other variable is read unchecked, so code whose
//! variables are assigned before use (nearly all of it) pays nothing.
//!
//! The analysis is conservative: it may list a variable that is in fact always assigned
//! first (a loop is assumed to run zero times, `while True` included), which only costs a
//! check; it never misses one that may be read unassigned.

use super::ast::{ExceptHandler, Expr, Stmt, StmtKind, Target};
use super::compile::visit_children;
use super::lambdas::def_free_names;
use std::collections::HashSet;

/// Names definitely assigned at a point of the function; `None` where no path reaches it
/// (after `return`, `break` or `continue`), which joins with anything as the other side.
type Assigned = Option<HashSet<String>>;

/// The locals of a function (parameters `params`, body `body`) that some read may find
/// unassigned; `is_local` says which names are the function's variables.
pub fn maybe_unbound(params: &[String], body: &[Stmt], is_local: &dyn Fn(&str) -> bool) -> HashSet<String> {
    let mut walk = Walk { is_local, found: HashSet::new() };
    walk.block(body, Some(params.iter().cloned().collect()));
    walk.found
}

/// The parameters and the names a statement of `body` assigns (leaving out comprehension
/// variables, which CPython keeps in the comprehension's own scope).
pub fn bound_by_statements(params: &[String], body: &[Stmt]) -> HashSet<String> {
    fn target(t: &Target, out: &mut HashSet<String>) {
        out.extend(t.names().into_iter().map(str::to_string));
    }
    // `(m := f(x))` anywhere in a statement's expressions binds `m` in the function.
    fn named(e: &Expr, out: &mut HashSet<String>) {
        match e {
            Expr::Lambda { .. } => {}
            Expr::Named { target, value } => {
                out.insert(target.clone());
                named(value, out);
            }
            _ => visit_children(e, &mut |c| named(c, out)),
        }
    }
    fn block(body: &[Stmt], out: &mut HashSet<String>) {
        for s in body {
            s.kind.for_each_expr(&mut |e| named(e, out));
            match &s.kind {
                StmtKind::Assign { targets, .. } => targets.iter().for_each(|t| target(t, out)),
                StmtKind::AugAssign { target: t, .. } | StmtKind::For { target: t, .. } => target(t, out),
                StmtKind::Try { handlers, .. } => handlers.iter().for_each(|h| out.extend(h.name.iter().cloned())),
                StmtKind::Def { function } => {
                    out.insert(function.name.clone());
                }
                _ => {}
            }
            s.kind.blocks().into_iter().for_each(|b| block(b, out));
        }
    }
    let mut out: HashSet<String> = params.iter().cloned().collect();
    block(body, &mut out);
    out
}

struct Walk<'a> {
    is_local: &'a dyn Fn(&str) -> bool,
    found: HashSet<String>,
}

impl Walk<'_> {
    fn block(&mut self, body: &[Stmt], mut assigned: Assigned) -> Assigned {
        for s in body {
            let now = assigned?;
            assigned = self.stmt(s, now);
        }
        assigned
    }

    fn stmt(&mut self, s: &Stmt, mut assigned: HashSet<String>) -> Assigned {
        match &s.kind {
            StmtKind::Expr { value } => self.reads(value, &assigned),
            StmtKind::Assign { targets, value } => {
                self.reads(value, &assigned);
                targets.iter().for_each(|t| self.assign(t, &mut assigned));
            }
            StmtKind::AugAssign { target, value, .. } => {
                // `x += v` reads `x` first.
                if let Target::Name { id } = target {
                    self.read(id, &assigned);
                }
                self.reads(value, &assigned);
                self.assign(target, &mut assigned);
            }
            StmtKind::If { test, body, orelse } => {
                self.reads(test, &assigned);
                let then = self.block(body, Some(assigned.clone()));
                let other = self.block(orelse, Some(assigned));
                return match (then, other) {
                    (None, side) | (side, None) => side,
                    (Some(a), Some(b)) => Some(a.intersection(&b).cloned().collect()),
                };
            }
            // The body may run no times, and `break` skips the `else:` block, so neither adds
            // to what is surely assigned after the loop.
            StmtKind::For { target, iter, body, orelse } => {
                self.reads(iter, &assigned);
                let mut inside = assigned.clone();
                self.assign(target, &mut inside);
                self.block(body, Some(inside));
                self.block(orelse, Some(assigned.clone()));
            }
            StmtKind::While { test, body, orelse } => {
                self.reads(test, &assigned);
                self.block(body, Some(assigned.clone()));
                self.block(orelse, Some(assigned.clone()));
            }
            StmtKind::Return { value } => {
                if let Some(v) = value {
                    self.reads(v, &assigned);
                }
                return None;
            }
            StmtKind::Yield { value } => {
                if let Some(v) = value {
                    self.reads(v, &assigned);
                }
            }
            StmtKind::YieldFrom { value } => self.reads(value, &assigned),
            StmtKind::Break | StmtKind::Continue => return None,
            StmtKind::Pass | StmtKind::Nonlocal { .. } => {}
            StmtKind::Raise { value, cause, .. } => {
                for v in value.iter().chain(cause) {
                    self.reads(v, &assigned);
                }
                return None;
            }
            StmtKind::Assert { test, msg } => {
                self.reads(test, &assigned);
                if let Some(m) = msg {
                    self.reads(m, &assigned);
                }
            }
            StmtKind::Try { body, handlers, orelse, finalbody } => {
                // The `finally:` block may run after an error anywhere in the rest, so it starts
                // from what was assigned before the `try`; what it assigns is assigned after.
                let before = assigned.clone();
                let rest = self.try_except(body, handlers, orelse, assigned);
                if finalbody.is_empty() {
                    return rest;
                }
                let finally_end = self.block(finalbody, Some(before.clone()))?;
                return rest.map(|mut a| {
                    a.extend(finally_end.difference(&before).cloned());
                    a
                });
            }
            StmtKind::Reraise => return None,
            // The nested function is given the values of the variables it reads now (a variable
            // still unassigned is passed as its unbound mark, which its read raises).
            StmtKind::Def { function } => {
                def_free_names(function).iter().for_each(|id| self.read(id, &assigned));
                assigned.insert(function.name.clone());
            }
            StmtKind::Delete { targets } => {
                for t in targets {
                    // Deleting reads the target's parts and binds nothing.
                    self.assign(t, &mut assigned.clone());
                }
            }
        }
        Some(assigned)
    }

    /// `try: body` / `except` clauses / `else: orelse`, from `assigned`.
    fn try_except(
        &mut self,
        body: &[Stmt],
        handlers: &[ExceptHandler],
        orelse: &[Stmt],
        assigned: HashSet<String>,
    ) -> Assigned {
        // The body may fail before any of its assignments, so a clause starts from what was
        // assigned before the `try`; its `as` variable is deleted when it ends.
        let body_end = self.block(body, Some(assigned.clone()));
        let mut ends = vec![body_end.and_then(|a| self.block(orelse, Some(a)))];
        for h in handlers {
            let mut inside = assigned.clone();
            inside.extend(h.name.iter().cloned());
            let end = self.block(&h.body, Some(inside));
            ends.push(end.map(|mut a| {
                h.name.iter().for_each(|n| {
                    a.remove(n);
                });
                a
            }));
        }
        ends.into_iter().flatten().reduce(|a, b| a.intersection(&b).cloned().collect())
    }

    /// Records the names `t` binds (and the reads of a subscript target's parts).
    fn assign(&mut self, t: &Target, assigned: &mut HashSet<String>) {
        match t {
            Target::Name { id } => {
                assigned.insert(id.clone());
            }
            Target::Subscript { value, index } => {
                self.reads(value, assigned);
                self.reads(index, assigned);
            }
            Target::Slice { value, lower, upper, step } => {
                self.reads(value, assigned);
                [lower, upper, step].into_iter().flatten().for_each(|b| self.reads(b, assigned));
            }
            Target::Tuple { items } => items.iter().for_each(|t| self.assign(t, assigned)),
            Target::Starred { value } => self.assign(value, assigned),
        }
    }

    fn read(&mut self, id: &str, assigned: &HashSet<String>) {
        if (self.is_local)(id) && !assigned.contains(id) {
            self.found.insert(id.to_string());
        }
    }

    /// Records the reads of `e`; a comprehension's variables are assigned within it.
    fn reads(&mut self, e: &Expr, assigned: &HashSet<String>) {
        match e {
            Expr::Name { id } => self.read(id, assigned),
            _ if let Some(comp) = e.comprehension() => {
                self.reads(comp.iter, assigned);
                let mut inside = assigned.clone();
                for (i, (target, iter, ifs)) in comp.clauses().enumerate() {
                    if i > 0 {
                        self.reads(iter, &inside);
                    }
                    self.assign(target, &mut inside);
                    ifs.iter().for_each(|c| self.reads(c, &inside));
                }
                comp.elements().for_each(|x| self.reads(x, &inside));
            }
            // A lambda reads the enclosing function's variables when it is made (see `lambdas`).
            Expr::Lambda { params, body, defaults } => {
                defaults.iter().for_each(|d| self.reads(d, assigned));
                let mut inside = assigned.clone();
                inside.extend(params.iter().cloned());
                self.reads(body, &inside);
            }
            _ => visit_children(e, &mut |c| self.reads(c, assigned)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::parser::parse_module;

    /// The maybe-unbound locals of the first function of `source`, sorted.
    fn unbound(source: &str) -> Vec<String> {
        let module = parse_module(source).expect("parses");
        let f = &module.functions[0];
        let mut locals = f.params.clone();
        crate::pipeline::compile::collect_assigned(&f.body, &mut locals);
        let mut found: Vec<String> =
            maybe_unbound(&f.params, &f.body, &|id| locals.iter().any(|l| l == id)).into_iter().collect();
        found.sort();
        found
    }

    #[test]
    fn only_reads_that_may_come_first_are_listed() {
        // Assigned on every path before the read: nothing to check.
        assert!(unbound("def f(x):\n    y = 1\n    return y + x\n").is_empty());
        assert!(unbound("def f(x):\n    if x:\n        y = 1\n    else:\n        y = 2\n    return y\n").is_empty());
        assert!(unbound("def f(x):\n    if x:\n        return 0\n    else:\n        y = 2\n    return y\n").is_empty());
        assert!(
            unbound("def f(w):\n    ret = []\n    for i in range(len(w)):\n        ret.append(w[i])\n    return ret\n")
                .is_empty()
        );
        // One branch, a loop that may not run, a read before the write in a loop body.
        assert_eq!(unbound("def f(x):\n    if x:\n        y = 1\n    return y\n"), ["y"]);
        assert_eq!(unbound("def f(xs):\n    for x in xs:\n        last = x\n    return last\n"), ["last"]);
        assert_eq!(unbound("def f(n):\n    while n:\n        n -= 1\n        t = n\n    return t\n"), ["t"]);
        assert_eq!(
            unbound("def f(xs):\n    for x in xs:\n        if x:\n            print(p)\n        p = x\n"),
            ["p"]
        );
        // `s += x` reads `s`; a comprehension's variable is bound inside it, not after it.
        assert_eq!(unbound("def f(x):\n    s += x\n    return s\n"), ["s"]);
        assert_eq!(unbound("def f(xs):\n    ys = [x for x in xs if x]\n    return x\n"), ["x"]);
        assert!(unbound("def f(xs):\n    return [x * 2 for x in xs if x]\n").is_empty());
    }
}
