//! Generator functions: a `def` whose body has a `yield` statement. Its call makes a generator
//! (see `pipeline/generator.rs`), which runs the body as its consumer asks for items, stopping
//! at each `yield` ([`Inst::Yield`](crate::pipeline::ir::Inst::Yield)), as Python's does.
//!
//! Before the function is compiled, `yield from xs` becomes `for x in xs: yield x`, the loop
//! variable one that no source name can clash with. A `yield` inside `try` is allowed where
//! suspending loses nothing: the handlers are a table by instruction, so an error after the
//! generator resumes is caught as before. It is refused where the `try` keeps state across the
//! suspension (a clause that keeps its error for a bare `raise`), or where Python would run code
//! when an unfinished generator is closed (a `finally:` block, a clause that catches
//! `GeneratorExit`), which anyscript does not.

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
    check_no_yield_in_try(&def.body, None)?;
    let mut def = def.clone();
    expand_yield_from(&mut def.body);
    Ok(Cow::Owned(def))
}

/// Refuses a `yield` where suspending would lose the state of a `try` around it. `blocked` is
/// why, when an enclosing statement forbids one.
fn check_no_yield_in_try(body: &[Stmt], blocked: Option<&str>) -> Result<()> {
    for s in body {
        let yields = matches!(s.kind, StmtKind::Yield { .. } | StmtKind::YieldFrom { .. });
        if let (true, Some(why)) = (yields, blocked) {
            return Err(err(s.line, ErrorKind::Parse, format!("'yield' inside 'try' {why} is not supported")));
        }
        let StmtKind::Try { body, handlers, orelse, finalbody } = &s.kind else {
            for block in s.kind.blocks() {
                check_no_yield_in_try(block, blocked)?;
            }
            continue;
        };
        // Python runs a `finally:` block, and a clause that catches `GeneratorExit`, when an
        // unfinished generator is closed; anyscript drops the generator without running them.
        let catches_all = handlers
            .iter()
            .any(|h| h.types.is_empty() || h.types.iter().any(|t| t == "BaseException" || t == "GeneratorExit"));
        let this = if !finalbody.is_empty() {
            Some("with a 'finally:' block")
        } else if catches_all {
            Some("with a clause that catches BaseException or GeneratorExit")
        } else {
            None
        };
        let inside = blocked.or(this);
        check_no_yield_in_try(body, inside)?;
        check_no_yield_in_try(orelse, inside)?;
        for h in handlers {
            // The error a clause keeps for a bare `raise` is not kept across a suspension.
            let keeps =
                super::exceptions::reraises(&h.body).then_some("in a clause that raises again with a bare 'raise'");
            check_no_yield_in_try(&h.body, inside.or(keeps))?;
        }
        check_no_yield_in_try(finalbody, blocked.or(Some("in a 'finally:' block")))?;
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
