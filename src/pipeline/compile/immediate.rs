//! Arguments that a call uses up before it returns: a generator expression given to a method
//! that takes all its items (`out.extend(t * n for t in toks)`, `counts.update(...)`), and a
//! lambda given to an op that calls it only while it runs (`re.sub(p, lambda m: table[m[0]], s)`,
//! `heapq.nsmallest(k, xs, key=lambda x: dist(x, w))`).
//!
//! Rationale: anyscript makes a lambda or a generator expression with the values the enclosing
//! variables have then, where Python reads them when it runs (`pipeline/lambdas.rs`), so one
//! that reads a variable assigned again later is refused in general. Where the callee is done
//! with it before the call returns, nothing can assign those variables in between, and the
//! values it was made with are the ones Python reads: such an argument is made that way even in
//! a loop that changes what it reads. The lazy form is kept, so a callee that fails part way
//! has taken the items it had, as CPython's has.

use super::FnCompiler;
use crate::error::Result;
use crate::pipeline::ast::Expr;
use crate::pipeline::ir::Reg;
use crate::pipeline::methods::Method;

/// The methods that take every item of an iterable argument before they return.
pub(super) fn method_uses_items_now(m: Method) -> bool {
    use Method::*;
    matches!(
        m,
        Extend
            | Extendleft
            | Update
            | Subtract
            | Union
            | Intersection
            | Difference
            | SymmetricDifference
            | IntersectionUpdate
            | DifferenceUpdate
            | SymmetricDifferenceUpdate
            | Issubset
    )
}

/// The methods that call a function argument only while they run (a pattern's `sub`).
pub(super) fn method_calls_now(m: Method) -> bool {
    matches!(m, Method::Sub | Method::Subn)
}

/// The ops that take every item of an iterable argument, and call a function argument (`key=`,
/// a replacement, a reducer), only while they run; `collections.defaultdict`, which keeps its
/// factory, is not one.
const OPS_USING_ARGUMENTS_NOW: [&str; 14] = [
    "re.sub",
    "re.subn",
    "functools.reduce",
    "heapq.nsmallest",
    "heapq.nlargest",
    "bisect.bisect_left",
    "bisect.bisect_right",
    "bisect.bisect",
    "bisect.insort_left",
    "bisect.insort_right",
    "bisect.insort",
    "collections.Counter",
    "collections.deque",
    "collections.OrderedDict",
];

/// Whether op `name` uses its function and iterable arguments up before it returns.
pub(super) fn op_uses_arguments_now(name: &str) -> bool {
    OPS_USING_ARGUMENTS_NOW.contains(&name)
}

impl FnCompiler<'_> {
    /// Argument `a` of a call that uses it up before it returns: a generator expression or a
    /// lambda made with the values its variables have now; anything else as usual.
    pub(super) fn argument_used_now(&mut self, a: &Expr) -> Result<Reg> {
        match a {
            Expr::GeneratorExp { .. } => self.lazy_generator(a, None, true),
            Expr::Lambda { params, body, defaults } => self.lambda(params, body, defaults, None, true),
            _ => self.expr(a, None),
        }
    }

    /// [`argument_used_now`](Self::argument_used_now) of each of `args`.
    pub(super) fn arguments_used_now(&mut self, args: &[Expr]) -> Result<Vec<Reg>> {
        args.iter().map(|a| self.argument_used_now(a)).collect()
    }
}
