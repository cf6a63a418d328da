//! Generator functions: a `def` whose body has a `yield` statement. Its call makes a generator
//! (see `pipeline/generator.rs`), which runs the body as its consumer asks for items, stopping
//! at each `yield` ([`Inst::Yield`](crate::pipeline::ir::Inst::Yield)), as Python's does.
//!
//! Before the function is compiled, `yield from xs` becomes `for x in xs: yield x`, the loop
//! variable one that no source name can clash with. A `yield` inside `try` is refused: the
//! state of a `try` (an error its clause keeps, a `finally:` pending) is not kept across a
//! suspension.

use super::err;
use crate::error::{ErrorKind, Result};
use crate::pipeline::ast::{Expr, FunctionDef, Stmt, StmtKind, Target};
use std::borrow::Cow;

/// The loop variable of a `yield from` (not a valid Python name, so no source name clashes).
const DELEGATED: &str = "<yield from>";

/// Whether the statements hold a `yield` (in any block, not inside lambdas, which cannot).
pub(crate) fn has_yield(body: &[Stmt]) -> bool {
    body.iter().any(|s| {
        matches!(s.kind, StmtKind::Yield { .. } | StmtKind::YieldFrom { .. })
            || s.kind.blocks().into_iter().any(has_yield)
    })
}

/// `def`, with each `yield from` written as its loop; the error of a `yield` inside `try`.
pub(super) fn lowered(def: &FunctionDef) -> Result<Cow<'_, FunctionDef>> {
    if !has_yield(&def.body) {
        return Ok(Cow::Borrowed(def));
    }
    check_no_yield_in_try(&def.body, false)?;
    let mut def = def.clone();
    expand_yield_from(&mut def.body);
    Ok(Cow::Owned(def))
}

fn check_no_yield_in_try(body: &[Stmt], in_try: bool) -> Result<()> {
    for s in body {
        let yields = matches!(s.kind, StmtKind::Yield { .. } | StmtKind::YieldFrom { .. });
        if yields && in_try {
            let what = "'yield' inside 'try' (its clauses and 'finally:' included) is not supported";
            return Err(err(s.line, ErrorKind::Parse, what));
        }
        let inner = in_try || matches!(s.kind, StmtKind::Try { .. });
        for block in s.kind.blocks() {
            check_no_yield_in_try(block, inner)?;
        }
    }
    Ok(())
}

fn expand_yield_from(body: &mut [Stmt]) {
    for s in body {
        if let StmtKind::YieldFrom { value } = &s.kind {
            let name = Expr::Name { id: DELEGATED.into() };
            let item = Stmt { line: s.line, kind: StmtKind::Yield { value: Some(name) } };
            s.kind = StmtKind::For {
                target: Target::Name { id: DELEGATED.into() },
                iter: value.clone(),
                body: vec![item],
                orelse: Vec::new(),
            };
            continue;
        }
        for block in s.kind.blocks_mut() {
            expand_yield_from(block);
        }
    }
}
