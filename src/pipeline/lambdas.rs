//! `lambda` expressions, and what nested functions read. Each lambda becomes a function of the module (`<lambda>`) whose first
//! parameters are the enclosing function's variables it reads, passed their values when the
//! lambda is made (or their cells, for cell variables: `compile/cells.rs`).
//!
//! Rationale: a lambda given the values of its enclosing variables when it is made sees what
//! Python's sees, which reads them when it runs, while the variables cannot change between the
//! two. That holds for a lambda passed straight to a built-in or a method (`sorted(xs,
//! key=lambda w: counts[w])`): the callee keeps no reference to it, and the enclosing function
//! does not run while it does. It holds too wherever the variables are not assigned again after
//! the lambda is made, and for cell variables, which the lambda reads through their cells. The
//! compiler allows a lambda only there (a lambda does not make a variable a cell: that would slow
//! every read of a loop variable that a `key=` lambda reads); one that reads no enclosing
//! variable is an ordinary function value and goes anywhere.

use super::ast::{Expr, FunctionDef, Stmt, StmtKind};
use super::compile::{declared_nonlocal, visit_children};
use super::unbound::bound_by_statements;

/// The name every lambda has in errors and listings, as in Python.
pub const LAMBDA_NAME: &str = "<lambda>";

/// The names `body` reads that neither `params` nor a comprehension within it binds, each
/// once, in order of first read.
pub fn free_names(params: &[String], body: &Expr) -> Vec<String> {
    let mut out = Vec::new();
    let bound: Vec<&str> = params.iter().map(String::as_str).collect();
    reads(body, &bound, &mut out);
    out
}

/// The names a nested function reads that it does not bind itself (its parameters, the names
/// it assigns), each once, in order of first read; those that functions nested in it read
/// from it included.
pub fn def_free_names(def: &FunctionDef) -> Vec<String> {
    // Bound by its statements: a comprehension's variable is the comprehension's own, and a
    // read of the same name outside it is the enclosing function's (`reads` keeps them apart).
    let mut own: Vec<String> = def.registers();
    own.extend(bound_by_statements(&[], &def.body));
    // A name it declares `nonlocal` is the enclosing function's, read or assigned.
    let nonlocal = declared_nonlocal(def);
    own.retain(|n| !nonlocal.contains(n));
    let bound: Vec<&str> = own.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    block_reads(&def.body, &bound, &mut out);
    out.extend(nonlocal.into_iter().filter(|n| !out.contains(n)).collect::<Vec<_>>());
    out
}

fn block_reads<'e>(body: &'e [Stmt], bound: &[&'e str], out: &mut Vec<String>) {
    for s in body {
        if let StmtKind::Def { function } = &s.kind {
            for name in def_free_names(function) {
                if !bound.contains(&name.as_str()) && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        s.kind.for_each_expr(&mut |e| reads(e, bound, out));
        s.kind.blocks().into_iter().for_each(|b| block_reads(b, bound, out));
    }
}

fn reads<'e>(e: &'e Expr, bound: &[&'e str], out: &mut Vec<String>) {
    match e {
        Expr::Name { id } => {
            if !bound.contains(&id.as_str()) && !out.contains(id) {
                out.push(id.clone());
            }
        }
        _ if let Some(comp) = e.comprehension() => {
            // The first iterable is read in the enclosing scope, the rest in the comprehension's.
            reads(comp.iter, bound, out);
            let mut inside = bound.to_vec();
            for (i, (target, iter, ifs)) in comp.clauses().enumerate() {
                if i > 0 {
                    reads(iter, &inside, out);
                }
                inside.extend(target.names());
                ifs.iter().for_each(|c| reads(c, &inside, out));
            }
            comp.elements().for_each(|x| reads(x, &inside, out));
        }
        Expr::Lambda { params, body, defaults } => {
            // Its defaults are read where it is made.
            defaults.iter().for_each(|d| reads(d, bound, out));
            let mut inside = bound.to_vec();
            inside.extend(params.iter().map(String::as_str));
            reads(body, &inside, out);
        }
        _ => visit_children(e, &mut |c| reads(c, bound, out)),
    }
}

/// The name every generator expression's function has in errors and reprs, as in Python.
pub const GENEXPR_NAME: &str = "<genexpr>";

/// The parameter a generator expression's function takes its first iterable in, as CPython's
/// `.0`: no name of the source can be it.
pub const GENEXPR_ITERABLE: &str = ".0";

/// The generator function `name` a generator expression `e` on `line` runs as, as CPython
/// compiles it: [`GENEXPR_ITERABLE`] its parameter (the enclosing variables it reads go before
/// it when it is made), each `for` clause a loop nested in the one before (the first over the
/// parameter), each condition an `if` within its clause, and the element yielded.
pub fn genexp_def(name: &str, e: &Expr, line: u32) -> FunctionDef {
    let comp = e.comprehension().expect("a generator expression");
    let elt = comp.elements().next().expect("a generator expression has an element").clone();
    let mut body = vec![Stmt { line, kind: StmtKind::Yield { value: Some(elt) } }];
    let clauses: Vec<_> = comp.clauses().collect();
    for (i, (target, iter, ifs)) in clauses.into_iter().enumerate().rev() {
        for test in ifs.iter().rev() {
            body = vec![Stmt { line, kind: StmtKind::If { test: test.clone(), body, orelse: Vec::new() } }];
        }
        let iter = if i == 0 { Expr::Name { id: GENEXPR_ITERABLE.into() } } else { iter.clone() };
        body = vec![Stmt { line, kind: StmtKind::For { target: target.clone(), iter, body, orelse: Vec::new() } }];
    }
    FunctionDef {
        name: name.to_string(),
        params: vec![GENEXPR_ITERABLE.to_string()],
        defaults: Vec::new(),
        extra: Default::default(),
        body,
        line,
    }
}

/// The function `name` a lambda on `line` compiles to: `captured` then its own `params`,
/// returning `body`.
pub fn lifted(name: &str, captured: &[String], params: &[String], body: &Expr, line: u32) -> FunctionDef {
    FunctionDef {
        name: name.to_string(),
        params: captured.iter().chain(params).cloned().collect(),
        defaults: Vec::new(),
        extra: Default::default(),
        body: vec![Stmt { line, kind: StmtKind::Return { value: Some(body.clone()) } }],
        line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::parser::parse_expr;

    fn free(src: &str) -> Vec<String> {
        let Expr::Lambda { params, body, .. } = parse_expr(src).expect("parses") else { panic!("not a lambda: {src}") };
        free_names(&params, &body)
    }

    #[test]
    fn free_names_skip_parameters_and_comprehension_variables() {
        assert_eq!(free("lambda w: counts[w] + len(w)"), ["counts", "len"]);
        assert_eq!(free("lambda: x"), ["x"]);
        // The comprehension's iterable is read outside it; its variable is bound inside.
        assert_eq!(free("lambda w: [c for c in w + extra if c != sep]"), ["extra", "sep"]);
        assert_eq!(free("lambda a: lambda b: a + b + c"), ["c"]);
        assert_eq!(free("lambda a, b: (b, a, a)"), Vec::<String>::new());
    }
}
