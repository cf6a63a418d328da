//! `itertools.count`, `itertools.cycle` and `itertools.repeat`: the iterators that may never
//! end, as lazy generators (`zip(itertools.count(1), words)`, `islice(cycle(colors), n)`), with
//! CPython 3.11's items, reprs and errors.
//!
//! Rationale: unlike the other `itertools` ops, which give their list at once, these must give
//! their items one at a time, so each is a generator over a source of its own
//! ([`ForeignItems`]). A script's `while` loop stops after `while_limit` iterations so that a
//! loop that never ends cannot hang a batch; an endless one of these stops after
//! [`ENDLESS_LIMIT`] items for the same reason (the default `while_limit`: an op does not see
//! the limit its caller was compiled with).

use super::itertools::counted;
use crate::error::{Error, Result};
use crate::func::{CallArgs, OpEntry, Registry};
use crate::pipeline::ast::{BinOp, Literal};
use crate::pipeline::binding::{Params, bind, bound_values};
use crate::pipeline::compile::DEFAULT_WHILE_LIMIT;
use crate::pipeline::generator::{ForeignItems, Generator};
use crate::pipeline::iterate::LoopState;
use crate::pipeline::shaped_binding::{ResolvedArgs, views};
use crate::pipeline::value_ops::{binary, index_arg, num, repr_value, type_error};
use crate::{AnyValue, AnyView, PackedFunc};
use parking_lot::Mutex;

/// How many items an endless `count`, `cycle` or `repeat` gives before it fails.
pub const ENDLESS_LIMIT: u64 = DEFAULT_WHILE_LIMIT;

/// Registers `itertools.count`, `itertools.cycle` and `itertools.repeat`.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        (
            "itertools.count",
            "(*start_step) -> iterator",
            "start, start + step, ... without end, as itertools.count.",
            count,
        ),
        (
            "itertools.cycle",
            "(*iterable) -> iterator",
            "The items of iterable, again and again, as itertools.cycle.",
            cycle,
        ),
    ];
    reg.register_ops(ops)?;
    // `repeat(x, times=n)`: its keyword form binds as CPython's C function does.
    let repeat_op = PackedFunc::with_keywords((), |(), args| repeat(args), |(), call| repeat_with_keywords(call));
    let doc = "object, times times (or without end), as itertools.repeat.";
    reg.register("itertools.repeat", "(*object_times) -> iterator", doc, repeat_op, false)
}

/// The error of an endless iterator that reached [`ENDLESS_LIMIT`].
fn endless_error(name: &str) -> Error {
    Error::runtime(format!(
        "itertools.{name}() stopped after {ENDLESS_LIMIT} items (the limit of an endless iterator, as a while loop's; \
         stop the loop over it with a break, or take a slice with islice)"
    ))
}

/// Counts one more item of `name`, failing past [`ENDLESS_LIMIT`].
fn take_one(taken: &mut u64, name: &str) -> Result<()> {
    *taken += 1;
    if *taken > ENDLESS_LIMIT { Err(endless_error(name)) } else { Ok(()) }
}

/// `itertools.count(start=0, step=1)`.
struct Count {
    /// The next item and how many were given.
    state: Mutex<(AnyValue, u64)>,
    step: AnyValue,
}

impl ForeignItems for Count {
    fn next_item(&self) -> Result<Option<AnyValue>> {
        let mut state = self.state.lock();
        take_one(&mut state.1, "count")?;
        let next = binary(BinOp::Add, state.0.view(), self.step.view())?.resize::<0>();
        Ok(Some(std::mem::replace(&mut state.0, next)))
    }

    fn repr(&self) -> String {
        let start = repr_value(self.state.lock().0.value());
        match self.step.value().as_int() {
            Some(1) if !is_bool(&self.step) => format!("count({start})"),
            _ => format!("count({start}, {})", repr_value(self.step.value())),
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn is_bool(v: &AnyValue) -> bool {
    v.type_index() == crate::any::type_index::BOOL
}

fn count(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() > 2 {
        return Err(type_error(format!("count() takes at most 2 arguments ({} given)", args.len())));
    }
    let start = args.first().map_or_else(|| AnyValue::from(0i64), AnyView::to_owned);
    let step = args.get(1).map_or_else(|| AnyValue::from(1i64), AnyView::to_owned);
    if num(start.value()).is_none() || num(step.value()).is_none() {
        return Err(type_error("a number is required"));
    }
    let source = Count { state: Mutex::new((start, 0)), step };
    Ok(Generator::foreign(Box::new(source), "itertools.count".into(), "count".into()).into_any())
}

/// `itertools.cycle(iterable)`: the iterable's items as they are taken, then the saved ones
/// again and again.
struct Cycle {
    state: Mutex<CycleState>,
}

struct CycleState {
    /// The iterable, while its first pass lasts.
    source: Option<LoopState>,
    saved: Vec<AnyValue>,
    /// The next saved item to give, once the source ended.
    next: usize,
    taken: u64,
}

impl ForeignItems for Cycle {
    fn next_item(&self) -> Result<Option<AnyValue>> {
        let mut state = self.state.lock();
        if let Some(source) = &mut state.source {
            match source.next_checked()? {
                Some(item) => {
                    let item = item.resize::<0>();
                    state.saved.push(item.clone());
                    return Ok(Some(item));
                }
                None => state.source = None,
            }
        }
        if state.saved.is_empty() {
            return Ok(None);
        }
        take_one(&mut state.taken, "cycle")?;
        let item = state.saved[state.next].clone();
        state.next = (state.next + 1) % state.saved.len();
        Ok(Some(item))
    }

    fn repr(&self) -> String {
        format!("<itertools.cycle object at {:#x}>", self as *const Self as usize)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn cycle(args: &[AnyView<'_>]) -> Result<AnyValue> {
    counted("cycle", args, 1, 1)?;
    let source = LoopState::start(args[0])?;
    let state = CycleState { source: Some(source), saved: Vec::new(), next: 0, taken: 0 };
    Ok(Generator::foreign(Box::new(Cycle { state: Mutex::new(state) }), "itertools.cycle".into(), "cycle".into())
        .into_any())
}

/// `itertools.repeat(object[, times])`.
struct Repeat {
    object: AnyValue,
    /// How many are left (None: without end), and how many were given.
    state: Mutex<(Option<i64>, u64)>,
}

impl ForeignItems for Repeat {
    fn next_item(&self) -> Result<Option<AnyValue>> {
        let mut state = self.state.lock();
        match &mut state.0 {
            Some(0) => return Ok(None),
            Some(left) => *left -= 1,
            None => take_one(&mut state.1, "repeat")?,
        }
        Ok(Some(self.object.clone()))
    }

    fn repr(&self) -> String {
        let object = repr_value(self.object.value());
        match self.state.lock().0 {
            Some(left) => format!("repeat({object}, {left})"),
            None => format!("repeat({object})"),
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `repeat(object, times)` with its arguments given by name, bound as CPython binds them.
fn repeat_with_keywords(call: &CallArgs<'_>) -> Result<AnyValue> {
    let resolved = ResolvedArgs::of("repeat", call)?;
    let params = Params { name: "repeat", names: &["object", "times"], positional: 2, n_defaults: 1, builtin: true };
    let sources = bind(&params, resolved.positional.len(), &resolved.name_refs())?;
    let given = (resolved.positional.as_slice(), resolved.values.as_slice());
    let args = bound_values(&sources, given, 2, &[Literal::None]);
    repeat(&views(&args))
}

fn repeat(args: &[AnyView<'_>]) -> Result<AnyValue> {
    match args.len() {
        0 => return Err(type_error("repeat() missing required argument 'object' (pos 1)")),
        n if n > 2 => return Err(type_error(format!("repeat() takes at most 2 arguments ({n} given)"))),
        _ => {}
    }
    let times = args.get(1).map(index_arg).transpose()?;
    let state = Mutex::new((times.map(|t| t.max(0)), 0));
    let source = Repeat { object: args[0].to_owned(), state };
    Ok(Generator::foreign(Box::new(source), "itertools.repeat".into(), "repeat".into()).into_any())
}
