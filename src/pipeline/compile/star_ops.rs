//! Calls with keywords of the ops whose Python function takes `*args` and then keyword-only
//! parameters (`itertools.product(a, b, repeat=2)`, `itertools.zip_longest(*rows,
//! fillvalue='')`, `heapq.merge(*runs, key=len)`): the op's keyword form
//! ([`crate::ops::star_params`]) is called with the keyword values first, then the arguments,
//! which may be spread.

use super::spread::MAX_SPREAD_ARGS;
use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::ops::star_params::StarOp;
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, Keyword};
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::keyed::Keyed;

impl FnCompiler<'_> {
    /// `op(*args, keywords)` of the op `star` describes; `args` may hold `*iterable`s.
    pub(super) fn call_star_op(
        &mut self,
        star: &StarOp,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let line = self.line;
        let given: Vec<&str> = keywords.iter().map(|k| k.arg.as_str()).collect();
        let sources = match star.bind(&given) {
            Ok(sources) => sources,
            Err(e) if e.kind() == ErrorKind::Parse => return Err(err(line, e.kind(), e.message())),
            // As CPython, a wrong call raises where it runs (a pipeline's step, where it loads).
            Err(e) => return self.raise_when_called(args, keywords, e, dst),
        };
        let spread = args.iter().any(|a| matches!(a, Expr::Starred { .. }));
        if spread && star.keywords.len() + args.len() > MAX_SPREAD_ARGS {
            let msg = format!(
                "a call of {} with *args and more than {} arguments is not supported in anyscript",
                star.name,
                MAX_SPREAD_ARGS - star.keywords.len()
            );
            return Err(err(line, ErrorKind::Parse, msg));
        }
        // Python evaluates the positional arguments first, then the keywords in the call's order.
        let (values, starred) = if spread { self.spread_arguments(args, false)? } else { (self.exprs(args)?, 0) };
        let named = keywords.iter().map(|k| self.expr(&k.value, None)).collect::<Result<Vec<_>>>()?;
        let mut regs: Vec<Reg> = Vec::with_capacity(sources.len() + values.len());
        for (source, default) in sources.iter().zip(star.defaults) {
            regs.push(match source {
                Some(k) => named[*k],
                None => self.constant(FnCompiler::literal(default)),
            });
        }
        let n_keywords = regs.len();
        regs.extend(values);
        if !spread {
            return Ok(self.emit_op_on(star.op.to_string(), star.func(), &regs, dst));
        }
        // The spread call of a function value: its label, no receiver, the callee, then the
        // arguments, the keyword values first (none of them spread).
        let callee = self.constant(Slot::from(star.func()));
        let mut operands = vec![self.constant(Slot::from_text(star.op)), self.constant(Slot::default()), callee];
        operands.extend(regs);
        let (args, d) = (self.operands(&operands), self.dst(dst));
        self.emit(Inst::CallKeyed { dst: d, call: Keyed::Spread { starred: starred << n_keywords }, args });
        Ok(d)
    }
}
