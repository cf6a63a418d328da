//! Functions run without a frame: [`Direct`], the shapes that can, and [`DirectCall`], a body
//! that is one op call (the other shape, a list of a parameter's characters, is in
//! `direct_extend`).
//!
//! Most pipelines are a single tokenizer call (`ids = bert(text, False)`): the compiled
//! body loads constants, calls the op and returns its result. Running that through the
//! interpreter copies each argument into a register (a reference-count round trip for
//! a heap string) and sets up a frame for three instructions. A [`DirectCall`] passes
//! the caller's argument views and the constants straight to the op instead; results
//! and errors (with the same location) are those of the interpreted code.

use super::direct_extend::DirectExtend;
use super::ir::{Function, Inst, Reg};
use crate::error::{Error, Result};
use crate::{AnyValue, AnyView};

/// A function body of a shape that runs without a frame, from outside and from script calls
/// alike (so such a function is never inlined: its call costs less than its inlined code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Direct {
    /// A single op call returned as is.
    Call(DirectCall),
    /// A new list extended by a parameter's elements and returned.
    Extend(DirectExtend),
}

impl Direct {
    /// The frameless form of `f`, if its body has one.
    pub fn recognize(f: &Function) -> Option<Direct> {
        // A function with `except` clauses runs as interpreted: its errors may be caught.
        if !f.handlers.is_empty() {
            return None;
        }
        DirectCall::recognize(f).map(Direct::Call).or_else(|| DirectExtend::recognize(f).map(Direct::Extend))
    }

    /// Runs `f` on its arguments `params`, or `None` when it must run as interpreted instead.
    #[inline]
    pub fn run(&self, f: &Function, params: &[AnyView<'_>]) -> Option<Result<AnyValue>> {
        match self {
            Direct::Call(call) => Some(call.run(f, params)),
            Direct::Extend(extend) => extend.run(params).map(Ok),
        }
    }

    /// The listing line `anyproc check` adds under the function.
    pub fn describe(&self, f: &Function) -> String {
        match self {
            Direct::Call(call) => call.describe(f),
            Direct::Extend(extend) => extend.describe(f),
        }
    }
}

/// Where one argument of the call comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arg {
    /// The function's parameter at this index.
    Param(u32),
    /// The constant at this index of [`Function::consts`].
    Const(u32),
}

/// A function body of the form `constants...; dst = op(args); return dst`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectCall {
    /// Index into [`Function::ops`].
    op: u32,
    /// Where each argument comes from.
    args: Vec<Arg>,
    /// The instruction index of the call, for error locations.
    pc: u32,
}

/// Calls with up to this many arguments pass them from a stack array.
const INLINE_ARGS: usize = 6;

impl DirectCall {
    /// The direct form of `f`, if its body is exactly a single op call returned as is.
    pub fn recognize(f: &Function) -> Option<DirectCall> {
        // Which constant each register holds once the leading `Const`s have run.
        let mut const_of: Vec<Option<u32>> = vec![None; f.n_regs as usize];
        for (pc, inst) in f.code.iter().enumerate() {
            match *inst {
                // A parameter overwritten by a constant would no longer be the caller's value.
                Inst::Const { dst, index } if dst >= f.n_params => const_of[dst as usize] = Some(index),
                Inst::CallOp { dst, op, args } => {
                    let Some(Inst::Return { src }) = f.code.get(pc + 1) else { return None };
                    if *src != dst {
                        return None;
                    }
                    let source = |r: Reg| match const_of[r as usize] {
                        Some(index) => Some(Arg::Const(index)),
                        None => (r < f.n_params).then_some(Arg::Param(r)),
                    };
                    let args = args.of(f).iter().map(|&r| source(r)).collect::<Option<Vec<_>>>()?;
                    return Some(DirectCall { op, args, pc: pc as u32 });
                }
                _ => return None,
            }
        }
        None
    }

    /// Runs the call on the function's arguments `params`.
    pub fn run(&self, f: &Function, params: &[AnyView<'_>]) -> Result<AnyValue> {
        let (name, func) = &f.ops[self.op as usize];
        let view = |a: &Arg| match *a {
            Arg::Param(i) => params[i as usize],
            Arg::Const(i) => f.consts[i as usize].view(),
        };
        let out = if self.args.len() <= INLINE_ARGS {
            let views: [AnyView<'_>; INLINE_ARGS] =
                std::array::from_fn(|i| self.args.get(i).map_or(AnyView::none(), view));
            func.call(&views[..self.args.len()])
        } else {
            func.call(&self.args.iter().map(view).collect::<Vec<_>>())
        };
        out.map_err(|e| located(f, self.pc, with_op_name(e, name)))
    }

    /// The listing line `anyproc check` adds under the function.
    pub fn describe(&self, f: &Function) -> String {
        format!("runs as a direct call of {} (no frame)", f.ops[self.op as usize].0)
    }
}

/// Adds the op's name to an error unless the op already named itself.
pub(super) fn with_op_name(e: Error, name: &str) -> Error {
    if e.frames().next() == Some(name) { e } else { e.context(name.to_string()) }
}

/// Adds where instruction `pc` of `f` is to an error; out of line, as errors are rare.
#[cold]
#[inline(never)]
pub(super) fn located(f: &Function, pc: u32, e: Error) -> Error {
    f.locate(pc as usize, e)
}
