//! The interpreter: runs a [`Program`]'s flat code over frames of [`Slot`] registers.
//!
//! One dispatch loop matches each instruction in place and only leaves it for the
//! general value operations, so the common steps (a counted loop, `text[i]`,
//! `list.append`) cost a few machine instructions each. Frames and loop states are
//! pooled per thread: calling a function costs no allocation once warm, and a
//! one-character string never leaves its register.

use super::Slot;
use super::ast::{BinOp, CmpOp, UnaryOp};
use super::binding::{missing_error, too_many_positional};
use super::builtins::{Builtin, call_builtin};
use super::cell::{cell_get, cell_set, new_cell};
use super::direct::{Direct, located, with_op_name};
use super::generator::{Generator, Suspended};
use super::ir::{Function, Inst, NO_REG, Operands, Program, Reg};
use super::iterate::{LoopState, iter_values, unpack_items};
use super::keyed::call_keyed;
use super::methods::{call_method, check_method};
use super::shaped_binding::{called_registers, keyword_registers, outside_registers};
use super::value_ops::{
    binary, check_hashable, compare, del_item, dict_update_from, get_item, in_place_error, len, list_of, not_callable,
    set_item, slice, truthy, unary,
};
use crate::any::type_index::OPAQUE_PTR;
use crate::any::{StackSlots, clear_values};
use crate::container::{items_in_slot, list_len_in_slot, push_chars, try_reserve_items};
use crate::error::{Error, ErrorKind, Result};
use crate::func::CallArgs;
use crate::func::call_obj;
use crate::{AnyValue, AnyView, Dict, FromAny, List, PackedFunc, Tuple, Value};
use arrayvec::ArrayVec;
use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// A call's registers and loop states; kept empty (with their capacity) between calls.
#[derive(Default)]
struct Frame {
    regs: Vec<Slot>,
    loops: Vec<LoopState>,
}

/// What the script calls of one thread share.
struct ThreadState {
    /// Script calls in progress on this thread, through every path: calls within a program,
    /// and calls that re-enter through a function value or an op calling back.
    depth: Cell<u32>,
    /// Frames kept for reuse by calls of functions too large for a frame on the stack.
    frames: RefCell<Vec<Frame>>,
}

thread_local! {
    static THREAD: ThreadState = const { ThreadState { depth: Cell::new(0), frames: RefCell::new(Vec::new()) } };
}

/// Functions with at most this many registers and loop slots run on a frame on the stack.
pub const STACK_REGS: usize = 32;
/// See [`STACK_REGS`].
pub const STACK_LOOPS: usize = 4;

/// Below this much stack left, a script call continues on a new stack segment.
const STACK_RED_ZONE: usize = 128 * 1024;
/// The size of each new stack segment.
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// Counts one script call on this thread for as long as it lives (also when a panic unwinds).
struct DepthGuard<'t>(&'t Cell<u32>);

impl<'t> DepthGuard<'t> {
    /// Enters a call, or fails when `max_depth` calls are already in progress.
    #[inline(always)]
    fn enter(depth: &'t Cell<u32>, max_depth: u32) -> Result<DepthGuard<'t>> {
        let d = depth.get();
        if d >= max_depth {
            // CPython's words; the error's context frames count the calls of each line.
            return Err(Error::new(ErrorKind::Recursion, "maximum recursion depth exceeded"));
        }
        depth.set(d + 1);
        Ok(DepthGuard(depth))
    }
}

impl Drop for DepthGuard<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

/// Runs function `func` of `program` on `args`.
///
/// Errors carry where they happened: `function 'f', line 3: text.lower: argument 0: ...`.
pub fn run(program: &Arc<Program>, func: u32, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let f = &program.functions[func as usize];
    if let Some(result) = f.direct.as_ref().and_then(|direct| direct.run(f, args)) {
        return result;
    }
    interpret(program, func, args)
}

/// Runs function `func` of `program` on `args` in a frame, never in its frameless form.
fn interpret(program: &Arc<Program>, func: u32, args: &[AnyView<'_>]) -> Result<AnyValue> {
    THREAD.with(|thread| Vm { program, thread, resume_at: None }.call(func, args)).map(Slot::resize::<0>)
}

/// Runs a generator of function `func` of `program` from where `frame` stopped to its next
/// `yield`: the item, or `None` when the body ended (its return value is dropped, as a
/// Python generator's is by its consumer).
pub(crate) fn resume(program: &Arc<Program>, func: u32, frame: &mut Suspended) -> Result<Option<Slot>> {
    THREAD.with(|thread| {
        let mut vm = Vm { program, thread, resume_at: None };
        let _depth = DepthGuard::enter(&thread.depth, program.max_depth)?;
        let f = &program.functions[func as usize];
        let (regs, loops, pc) = (&mut frame.regs, &mut frame.loops, frame.pc);
        let out = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || vm.exec(f, regs, loops, pc))?;
        Ok(vm.resume_at.map(|next| {
            frame.pc = next;
            out
        }))
    })
}

/// A function of `program` as a `PackedFunc`, callable from Rust, pipelines and Python, by
/// position or with keyword arguments.
pub fn as_packed_func(program: Arc<Program>, func: u32) -> PackedFunc {
    let f = &program.functions[func as usize];
    // `*args`, keyword-only and `**kwargs` parameters: every call binds its arguments first.
    if f.shape.is_some() {
        return PackedFunc::with_keywords(
            (program, func),
            |(program, func), args| {
                let regs = outside_registers(&program.functions[*func as usize], args)?;
                let views: Vec<AnyView<'_>> = regs.iter().map(Slot::view).collect();
                run(program, *func, &views)
            },
            |(program, func), args| by_name(program, *func, &[], args),
        );
    }
    // A function that only lists a word's characters, called once per word, is worth a form
    // of its own: the frameless one first, with no lookups on the way to it.
    if let Some(Direct::Extend(extend)) = &f.direct {
        let (extend, n_params) = (extend.clone(), f.n_params as usize);
        return PackedFunc::with_keywords(
            (program, func, extend, n_params),
            |(program, func, extend, n_params), args| {
                if args.len() != *n_params {
                    return call_with_defaults(program, *func, args);
                }
                extend.run(args).map_or_else(|| interpret(program, *func, args), Ok)
            },
            |(program, func, ..), args| by_name(program, *func, &[], args),
        );
    }
    PackedFunc::with_keywords(
        (program, func),
        |(program, func), args| {
            let f = &program.functions[*func as usize];
            if args.len() != f.n_params as usize {
                return call_with_defaults(program, *func, args);
            }
            run(program, *func, args)
        },
        |(program, func), args| by_name(program, *func, &[], args),
    )
}

/// A call of function `func` of `program` with `args` as the call wrote them (after the values
/// a lambda was made with, `captured`), bound as CPython binds them.
#[cold]
fn by_name(program: &Arc<Program>, func: u32, captured: &[AnyValue], args: &CallArgs<'_>) -> Result<AnyValue> {
    let own = called_registers(&program.functions[func as usize], args)?;
    let all: Vec<AnyView<'_>> = captured.iter().map(AnyValue::view).chain(own.iter().map(Slot::view)).collect();
    run(program, func, &all)
}

/// A call from outside that leaves out parameters with defaults (given them here), or passes
/// a wrong number of arguments (an error worded as CPython's).
#[cold]
fn call_with_defaults(program: &Arc<Program>, func: u32, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let f = &program.functions[func as usize];
    let n_params = f.n_params as usize;
    let n_required = n_params - f.defaults.len();
    if args.len() < n_required || args.len() > n_params {
        return Err(arity_error(f, args.len()));
    }
    let mut all: Vec<AnyView<'_>> = args.to_vec();
    all.extend(f.defaults[args.len() - n_required..].iter().map(Slot::view));
    run(program, func, &all)
}

/// Function `func` of `program` given its registers as they are, one per parameter (`*args`
/// a tuple, `**kwargs` a dict): what a call from Python with keywords runs, bound there.
pub fn registers_func(program: Arc<Program>, func: u32) -> PackedFunc {
    PackedFunc::new(move |args| {
        let f = &program.functions[func as usize];
        if args.len() != f.n_params as usize {
            let msg = format!("{}() takes {} registers, {} given", f.name, f.n_params, args.len());
            return Err(Error::new(crate::error::ErrorKind::Arity, msg));
        }
        run(&program, func, args)
    })
}

/// Function `func` of `program` with its first parameters given `captured`: what a lambda that
/// reads its enclosing function's variables is, once made.
pub fn bound_func(program: Arc<Program>, func: u32, captured: Vec<AnyValue>) -> PackedFunc {
    PackedFunc::with_keywords(
        (program, func, captured),
        |(program, func, captured), args| {
            let f = &program.functions[*func as usize];
            if f.shape.is_some() {
                let own = outside_registers(f, args)?;
                let all: Vec<AnyView<'_>> =
                    captured.iter().map(AnyValue::view).chain(own.iter().map(Slot::view)).collect();
                return run(program, *func, &all);
            }
            let (given, n_params) = (captured.len() + args.len(), f.n_params as usize);
            // A nested function's parameters may have defaults: the last ones left out take them.
            if given > n_params || given + f.defaults.len() < n_params {
                return Err(arity_error(f, args.len()));
            }
            let defaults = &f.defaults[f.defaults.len() - (n_params - given)..];
            let all: Vec<AnyView<'_>> = (captured.iter().map(AnyValue::view))
                .chain(args.iter().copied())
                .chain(defaults.iter().map(Slot::view))
                .collect();
            run(program, *func, &all)
        },
        |(program, func, captured), args| by_name(program, *func, captured, args),
    )
}

/// The error for a call of `f` from outside with `given` arguments (not counting the values a
/// lambda was made with), as CPython words it for a Python function.
#[cold]
fn arity_error(f: &Function, given: usize) -> Error {
    let first = f.n_captured as usize;
    let n_params = f.n_params as usize;
    let n_required = n_params - f.defaults.len();
    let names: Vec<&str> = (first..n_params).map(|r| f.reg_names[r].as_deref().unwrap_or("?")).collect();
    if given + first > n_params {
        return too_many_positional(&f.name, (n_required - first, n_params - first), given, 0);
    }
    missing_error(&f.name, &names[given..n_required - first])
}

/// One call from outside into a program, and the calls it makes.
struct Vm<'p> {
    program: &'p Arc<Program>,
    /// This thread's state, looked up once per call from outside.
    thread: &'p ThreadState,
    /// Where a generator's body stopped at a `yield` (the instruction after it), set when
    /// [`Self::exec`] returns a yielded item rather than a returned value.
    resume_at: Option<usize>,
}

/// Calls with up to this many arguments pass them from a stack array.
const INLINE_ARGS: usize = 6;

/// The registers of `ops` as views, for calls: in a stack array when they fit (a
/// fixed-size array costs less to fill than a growable one), else in a vector.
#[inline(always)]
fn with_views<R>(regs: &[Slot], f: &Function, ops: Operands, call: impl FnOnce(&[AnyView<'_>]) -> R) -> R {
    let ops = ops.of(f);
    if ops.len() <= INLINE_ARGS {
        let views: [AnyView<'_>; INLINE_ARGS] =
            std::array::from_fn(|i| ops.get(i).map_or(AnyView::none(), |&r| regs[r as usize].view()));
        call(&views[..ops.len()])
    } else {
        call(&ops.iter().map(|&r| regs[r as usize].view()).collect::<Vec<_>>())
    }
}

impl Vm<'_> {
    fn call(&mut self, func: u32, args: &[AnyView<'_>]) -> Result<Slot> {
        let outermost = self.thread.depth.get() == 0;
        let _depth = DepthGuard::enter(&self.thread.depth, self.program.max_depth)?;
        // The outermost call uses its caller's stack as any Rust function does: one frame. Deeper
        // calls (recursion, a raised `max_depth`, a thread with a small stack) go on in new stack
        // segments instead of overflowing the thread's stack; the check costs about 45
        // instructions, a tenth of a small function's call from outside.
        if outermost {
            return self.call_here(func, args);
        }
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.call_here(func, args))
    }

    /// A call from script code (`CallUser`). A leaf function adds one frame of bounded size to
    /// its caller's, whose own call was checked for stack room (or is the outermost), so it
    /// skips the check; whatever it re-enters through an op or a function value goes through
    /// [`Self::call`] again.
    #[inline(always)]
    fn call_from_script(&mut self, func: u32, args: &[AnyView<'_>]) -> Result<Slot> {
        if self.program.functions[func as usize].leaf {
            let _depth = DepthGuard::enter(&self.thread.depth, self.program.max_depth)?;
            return self.call_here(func, args);
        }
        self.call(func, args)
    }

    fn call_here(&mut self, func: u32, args: &[AnyView<'_>]) -> Result<Slot> {
        let program = self.program;
        let f = &program.functions[func as usize];
        let (n_regs, n_loops) = (f.n_regs as usize, f.n_loops as usize);
        if f.generator {
            // A generator function's call runs nothing yet: the generator keeps the frame.
            let mut regs: Vec<Slot> = args.iter().map(AnyView::to_owned).collect();
            regs.resize_with(n_regs, Slot::none);
            return Ok(Generator::new(program.clone(), func, regs, n_loops).into_any().resize());
        }
        let mut regs = StackSlots::<1, STACK_REGS>::new();
        if n_loops <= STACK_LOOPS && regs.fill(args, n_regs) {
            let mut loops = ArrayVec::<LoopState, STACK_LOOPS>::new();
            for _ in 0..n_loops {
                loops.push(LoopState::Idle);
            }
            return self.exec(f, &mut regs, &mut loops, 0);
        }
        // Larger functions: a pooled frame, taken for the call and given back after it (the
        // pool is not borrowed meanwhile, so calls within the call use it too).
        let mut frame = self.thread.frames.borrow_mut().pop().unwrap_or_default();
        frame.regs.reserve(n_regs);
        frame.regs.extend(args.iter().map(AnyView::to_owned));
        frame.regs.resize_with(n_regs, Slot::none);
        frame.loops.resize_with(n_loops, || LoopState::Idle);
        let result = self.exec(f, &mut frame.regs, &mut frame.loops, 0);
        // Registers mostly end holding inline values (the result was moved out): one pass
        // over their type indices instead of a drop per register.
        clear_values(&mut frame.regs);
        frame.loops.clear();
        self.thread.frames.borrow_mut().push(frame);
        result
    }

    /// The dispatch loop. Each arm reads its operands and writes its destination in place;
    /// errors leave through `fail!`/`tri!`, which add the source location.
    fn exec(&mut self, f: &Function, regs: &mut [Slot], loops: &mut [LoopState], start: usize) -> Result<Slot> {
        let code = &f.code[..];
        let mut pc = start;
        // The errors that clauses keep to raise again (`Handler::keep`): empty, and never
        // allocated, unless a clause that keeps one catches.
        let mut kept = KeptErrors::default();
        // An error continues at the clause that catches it, or leaves the function.
        macro_rules! resume {
            ($raised:expr) => {
                match caught(f, (pc - 1) as u32, $raised, regs, &mut kept) {
                    Ok(target) => {
                        pc = target as usize;
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            };
        }
        macro_rules! fail {
            ($e:expr) => {
                resume!(Raised::new($e, (pc - 1) as u32))
            };
        }
        macro_rules! tri {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => fail!(e),
                }
            };
        }
        macro_rules! reg {
            ($r:expr) => {
                regs[$r as usize]
            };
        }
        loop {
            let at = pc;
            pc += 1;
            // Matched in place: the fields an arm uses are read, the instruction is not copied.
            match code[at] {
                Inst::Const { dst, index } => reg!(dst) = f.consts[index as usize].clone(),
                Inst::Move { dst, src } => reg!(dst) = reg!(src).clone(),
                Inst::Unary { op: UnaryOp::Not, dst, src } => reg!(dst) = Slot::from_bool(!truthy(reg!(src).view())),
                Inst::Unary { op, dst, src } => reg!(dst) = tri!(unary(op, reg!(src).view())),
                Inst::Binary { op, dst, a, b, in_place } => {
                    if let (Some(x), Some(y)) = (reg!(a).inline_int(), reg!(b).inline_int()) {
                        if let Some(n) = int_arithmetic(op, x, y) {
                            reg!(dst) = Slot::from_int(n);
                            continue;
                        }
                    }
                    if in_place && tri!(update_in_place(regs, op, a as usize, b as usize)) {
                        if dst != a {
                            reg!(dst) = reg!(a).clone();
                        }
                    } else {
                        let v = binary(op, reg!(a).view(), reg!(b).view());
                        let v = match in_place {
                            true => v.map_err(|e| in_place_error(op, e, reg!(a).value(), reg!(b).value())),
                            false => v,
                        };
                        reg!(dst) = tri!(v);
                    }
                }
                Inst::Compare { op, dst, a, b } => {
                    let fast = match (reg!(a).inline_int(), reg!(b).inline_int()) {
                        (Some(x), Some(y)) => int_comparison(op, x, y),
                        // `x is None`: None is the one value of its type.
                        _ if matches!(op, CmpOp::Is | CmpOp::IsNot) && (reg!(a).is_none() || reg!(b).is_none()) => {
                            Some((reg!(a).is_none() && reg!(b).is_none()) == (op == CmpOp::Is))
                        }
                        _ => None,
                    };
                    let is = match fast {
                        Some(is) => is,
                        None => tri!(compare(op, reg!(a).view(), reg!(b).view())),
                    };
                    reg!(dst) = Slot::from_bool(is);
                }
                Inst::Jump { to } => pc = to as usize,
                Inst::JumpIfFalse { cond, to } => {
                    if !reg!(cond).inline_bool().unwrap_or_else(|| truthy(reg!(cond).view())) {
                        pc = to as usize;
                    }
                }
                Inst::JumpIfTrue { cond, to } => {
                    if reg!(cond).inline_bool().unwrap_or_else(|| truthy(reg!(cond).view())) {
                        pc = to as usize;
                    }
                }
                Inst::GetItem { dst, obj, key } => {
                    let v = match ascii_char_at(&reg!(obj), &reg!(key)) {
                        Some(c) => c,
                        None => {
                            widen_long_text(&mut reg!(obj));
                            tri!(get_item(reg!(obj).view(), reg!(key).view()))
                        }
                    };
                    reg!(dst) = v;
                }
                Inst::SetItem { obj, key, value } => {
                    tri!(set_item(reg!(obj).view(), reg!(key).view(), reg!(value).view()));
                }
                Inst::DelItem { obj, key } => tri!(del_item(reg!(obj).view(), reg!(key).view())),
                Inst::Raise { kind, value } => {
                    // The exception `kind(value)` made here, which a clause catches as itself.
                    let arg = (value != NO_REG).then(|| reg!(value).view());
                    fail!(tri!(super::exception_value::Exception::new(kind, arg)).into_error());
                }
                Inst::RaiseValue { src, cause } => {
                    // CPython checks what is raised before its cause.
                    let raised = tri!(super::exception_value::to_raise(reg!(src).view()));
                    if cause != NO_REG {
                        tri!(super::exception_value::check_cause(reg!(cause).view()));
                    }
                    fail!(raised.into_error());
                }
                Inst::Reraise { src } => {
                    if let Some(raised) = kept.take(src) {
                        resume!(raised);
                    }
                }
                Inst::Slice { dst, obj, bounds } => {
                    widen_long_text(&mut reg!(obj));
                    let b = bounds.of(f);
                    let v = slice(reg!(obj).view(), reg!(b[0]).view(), reg!(b[1]).view(), reg!(b[2]).view());
                    reg!(dst) = tri!(v);
                }
                Inst::BuildList { dst, items } => {
                    let mut list = List::with_capacity(items.len as usize);
                    for &x in items.of(f) {
                        list.push(reg!(x).clone().resize::<0>());
                    }
                    reg!(dst) = Slot::from(list);
                }
                Inst::BuildTuple { dst, items } => {
                    let items = items.of(f).iter().map(|&x| reg!(x).clone().resize::<0>()).collect();
                    reg!(dst) = Slot::from(Tuple::from_vec(items));
                }
                Inst::BuildDict { dst, items } => {
                    let mut dict = Dict::new();
                    // Checked before the loop: `tri!` continues the dispatch loop, not this one.
                    tri!(items.of(f).chunks_exact(2).try_for_each(|kv| check_hashable(reg!(kv[0]).value())));
                    for kv in items.of(f).chunks_exact(2) {
                        dict.set(reg!(kv[0]).clone().resize::<0>(), reg!(kv[1]).clone().resize::<0>());
                    }
                    reg!(dst) = Slot::from(dict);
                }
                Inst::BuildSet { dst, items, layout } => {
                    let items = items.of(f).iter().map(|&x| reg!(x).clone().resize::<0>());
                    reg!(dst) = Slot::from(tri!(super::set_ops::build_set(items, layout)));
                }
                Inst::Unpack { src, targets } => {
                    let targets = targets.of(f);
                    let items = tri!(unpack_items(reg!(src).view(), targets.len()));
                    for (&t, v) in targets.iter().zip(items) {
                        reg!(t) = v;
                    }
                }
                Inst::UnpackStar { src, targets, star } => {
                    let targets = targets.of(f);
                    let items = tri!(super::iterate::unpack_starred(reg!(src).view(), targets.len(), star as usize));
                    for (&t, v) in targets.iter().zip(items) {
                        reg!(t) = v;
                    }
                }
                Inst::CallOp { dst, op, args } => {
                    let (name, func) = &f.ops[op as usize];
                    let v = with_views(regs, f, args, |a| func.call(a)).map_err(|e| with_op_name(e, name));
                    reg!(dst) = tri!(v).resize();
                }
                Inst::CallValue { dst, callee, args } => {
                    let callee_view = reg!(callee).view();
                    let Some(obj) = callee_view.as_obj().filter(|o| o.type_index() == crate::any::type_index::FUNC)
                    else {
                        fail!(not_callable(callee_view.value()))
                    };
                    let v = with_views(regs, f, args, |a| call_obj(obj, a));
                    reg!(dst) = tri!(v).resize();
                }
                Inst::CallUser { dst, func, args } => {
                    let callee = &self.program.functions[func as usize];
                    // A frameless function called from script code runs frameless here too.
                    let v =
                        with_views(regs, f, args, |a| match callee.direct.as_ref().and_then(|d| d.run(callee, a)) {
                            Some(result) => result.map(AnyValue::resize::<1>),
                            None => self.call_from_script(func, a),
                        });
                    reg!(dst) = tri!(v);
                }
                Inst::CallUserKeywords { dst, func, args } => {
                    let callee = &self.program.functions[func as usize];
                    let v = with_views(regs, f, args, |a| {
                        let regs = keyword_registers(callee, a)?;
                        let views: Vec<AnyView<'_>> = regs.iter().map(Slot::view).collect();
                        self.call_from_script(func, &views)
                    });
                    reg!(dst) = tri!(v);
                }
                Inst::CallBuiltin { dst, builtin: Builtin::Len, args } if args.len == 1 => {
                    let x = &mut reg!(f.operands[args.start as usize]);
                    // Inline ASCII text and lists (`len(split(w))`, lock-free when the register
                    // holds the list's only reference) without decoding the value.
                    let n = match x.inline_ascii().map(<[u8]>::len).or_else(|| list_len_in_slot(x)) {
                        Some(n) => n as i64,
                        None => tri!(len(x.view())),
                    };
                    reg!(dst) = Slot::from_int(n);
                }
                Inst::CallBuiltin { dst, builtin, args } => {
                    let v = with_views(regs, f, args, |a| call_builtin(builtin, a));
                    reg!(dst) = tri!(v);
                }
                Inst::CallMethod { dst, method, obj, args } => {
                    let v = with_views(regs, f, args, |a| call_method(method, reg!(obj).view(), a));
                    reg!(dst) = tri!(v);
                }
                Inst::CallKeyed { dst, call, args } => {
                    let v = with_views(regs, f, args, |a| call_keyed(call, a));
                    reg!(dst) = tri!(v);
                }
                Inst::CheckMethod { obj, method } => tri!(check_method(method, reg!(obj).view())),
                Inst::CheckReceiver { obj, method, ty } => {
                    tri!(super::methods::check_receiver(method, ty, reg!(obj).value()))
                }
                Inst::Append { list, value } => {
                    let v = reg!(value).clone().resize::<0>();
                    let appended = items_in_slot(&mut reg!(list), |items| {
                        try_reserve_items(items, 1, "list.append()")?;
                        items.push(v);
                        Ok(())
                    });
                    match appended {
                        Some(done) => tri!(done),
                        // Not a list: a deque's `append`, or the error of a type that has none.
                        None => {
                            let (obj, item) = (reg!(list).view(), reg!(value).view());
                            tri!(call_method(super::methods::Method::Append, obj, &[item]).map(drop))
                        }
                    }
                }
                Inst::ExtendEach { list, seq, index, item } => {
                    if !tri!(extend_each(regs, list, seq, index, item)) {
                        pc += 1; // not a list and a sequence it applies to: the loop itself runs
                    }
                }
                Inst::FuncRef { dst, func } => {
                    reg!(dst) = Slot::from(as_packed_func(self.program.clone(), func));
                }
                Inst::Bind { dst, func, args } => {
                    let captured = args.of(f).iter().map(|&r| reg!(r).clone().resize::<0>()).collect();
                    reg!(dst) = Slot::from(bound_func(self.program.clone(), func, captured));
                }
                Inst::IterStart { slot, src } => loops[slot as usize] = tri!(LoopState::start(reg!(src).view())),
                Inst::IterView { slot, src, view } => {
                    loops[slot as usize] = tri!(LoopState::start_view(reg!(src).view(), view));
                }
                Inst::RangeStart { slot, start, stop, step } => {
                    let state = tri!(range_state(&reg!(start), &reg!(stop), &reg!(step)));
                    loops[slot as usize] = state;
                }
                Inst::ForNext { slot, dst, body } => {
                    let state = &mut loops[slot as usize];
                    // The counted loop inline: the next int straight into its register.
                    if let LoopState::Range { next, stop, step: 1 } = state {
                        if *next < *stop {
                            reg!(dst) = Slot::from_int(*next);
                            *next += 1;
                            pc = body as usize;
                        } else {
                            *state = LoopState::Idle;
                        }
                        continue;
                    }
                    // A list's next item without the checks only dicts, sets and generators need.
                    if let LoopState::List(cursor) = state {
                        let Some(v) = cursor.next() else {
                            *state = LoopState::Idle;
                            continue;
                        };
                        if cursor.past_start() != 0 {
                            tri!(state.check_taken(self.program.while_limit));
                        }
                        reg!(dst) = v.resize();
                        pc = body as usize;
                        continue;
                    }
                    match tri!(state.next_checked()) {
                        Some(v) => {
                            tri!(state.check_taken(self.program.while_limit));
                            reg!(dst) = v;
                            pc = body as usize;
                        }
                        None => *state = LoopState::Idle,
                    }
                }
                Inst::ForNextItem { slot, key, value, body } => {
                    let state = &mut loops[slot as usize];
                    match tri!(state.next_item_pair()) {
                        Some((k, v)) => {
                            reg!(key) = k;
                            reg!(value) = v;
                            pc = body as usize;
                        }
                        None => *state = LoopState::Idle,
                    }
                }
                Inst::GuardReset { slot } => loops[slot as usize] = LoopState::Count(0),
                Inst::Guard { slot } => {
                    if let LoopState::Count(n) = &mut loops[slot as usize] {
                        *n += 1;
                        if *n > self.program.while_limit {
                            fail!(Error::runtime(format!(
                                "while loop stopped after {} iterations (the limit; raise `while_limit` if it is meant to run longer)",
                                self.program.while_limit
                            )));
                        }
                    }
                }
                Inst::Unbind { dst } => reg!(dst) = unbound_mark(),
                Inst::CellNew { dst, src } => reg!(dst) = new_cell(reg!(src).clone()),
                Inst::CellGet { dst, cell } => match cell_get(&reg!(cell)) {
                    Some(v) => reg!(dst) = v,
                    None => fail!(Error::runtime("internal error: a cell variable's register holds no cell")),
                },
                Inst::DefaultFill { dst, src } => {
                    if is_default_mark(&reg!(dst)) {
                        reg!(dst) = reg!(src).clone();
                    }
                }
                Inst::CellSet { cell, src } => {
                    if !cell_set(&reg!(cell), reg!(src).clone()) {
                        fail!(Error::runtime("internal error: a cell variable's register holds no cell"));
                    }
                }
                Inst::CheckBound { reg, message, name_error } => {
                    if is_unbound(&reg!(reg)) {
                        let kind = if name_error { ErrorKind::Name } else { ErrorKind::UnboundLocal };
                        let text = f.consts[message as usize].value().as_str().unwrap_or_default().to_string();
                        fail!(Error::new(kind, text));
                    }
                }
                Inst::Return { src } => return Ok(std::mem::take(&mut reg!(src))),
                Inst::Yield { src } => {
                    self.resume_at = Some(pc);
                    return Ok(reg!(src).clone());
                }
                Inst::ReturnTo { dst, src, exit } => {
                    reg!(dst) = std::mem::take(&mut reg!(src));
                    pc = exit as usize;
                }
                Inst::Clear { first, count, first_loop, loops: n } => {
                    regs[first as usize..(first + count) as usize].fill_with(Slot::none);
                    loops[first_loop as usize..(first_loop + n) as usize].fill_with(|| LoopState::Idle);
                }
            }
        }
    }
}

/// [`Inst::ExtendEach`]: appends every element of `regs[seq]` to the list in `regs[list]` and
/// leaves the loop's variables as the loop would, or returns false (changing nothing) unless
/// `list` holds a list and `seq` text or another list; a `MemoryError` (the list unchanged)
/// when the allocator refuses the room for the elements.
///
/// Rationale: `for i in range(len(s)): out.append(s[i])` and `for c in s: out.append(c)` are
/// how untyped glue code builds a list (the seed's `unicode_split_any` is one); run as one
/// extend they cost a push per element instead of three dispatches, and no step of them can
/// fail once the types are known and the room is there.
fn extend_each(regs: &mut [Slot], list: Reg, seq: Reg, index: Reg, item: Reg) -> Result<bool> {
    const WHAT: &str = "list.append()";
    // A copy of the sequence (inline, or one more count on a heap object), so that the list
    // register can be borrowed mutably while it is read.
    let source = regs[seq as usize].clone();
    let same_object =
        matches!((source.as_obj(), regs[list as usize].as_obj()), (Some(a), Some(b)) if a.as_raw() == b.as_raw());
    if same_object {
        return Ok(false); // `xs` extended by itself while it grows: the loop's own semantics apply
    }
    let last = match source.value() {
        Value::Str(text) => {
            let pushed: Option<Result<_>> = items_in_slot(&mut regs[list as usize], |items| {
                // At most one item per byte; asked for up front only for long text, where a
                // refusal is possible, so that a word costs no extra call.
                if text.len() > LONG_EXTEND {
                    try_reserve_items(items, text.len(), WHAT)?;
                }
                let before = items.len();
                push_chars(items, text);
                Ok(items.len() - before)
            });
            let Some(n) = pushed.transpose()? else { return Ok(false) };
            text.chars().next_back().map(|c| (n, Slot::from_char(c)))
        }
        Value::UStr(chars) => {
            let pushed: Option<Result<_>> = items_in_slot(&mut regs[list as usize], |items| {
                try_reserve_items(items, chars.len(), WHAT)?;
                items.extend(chars.iter().map(|&c| AnyValue::from_char(c)));
                Ok(())
            });
            let Some(()) = pushed.transpose()? else { return Ok(false) };
            chars.last().map(|&c| (chars.len(), Slot::from_char(c)))
        }
        Value::Object(_) => {
            let Some(elements) = List::from_view(&source.view()) else { return Ok(false) };
            // A snapshot, so that no two list locks are ever held at once.
            let xs = elements.to_vec();
            let last = xs.last().map(|x| (xs.len(), x.clone().resize::<1>()));
            let pushed: Option<Result<_>> = items_in_slot(&mut regs[list as usize], |items| {
                try_reserve_items(items, xs.len(), WHAT)?;
                items.extend(xs);
                Ok(())
            });
            let Some(()) = pushed.transpose()? else { return Ok(false) };
            last
        }
        _ => return Ok(false),
    };
    if let Some((n, value)) = last {
        if index != NO_REG {
            regs[index as usize] = Slot::from_int(n as i64 - 1);
        }
        if item != NO_REG {
            regs[item as usize] = value;
        }
    }
    Ok(true)
}

/// Text longer than this (in bytes) has the room for its characters asked for before an
/// [`extend_each`] fills it.
const LONG_EXTEND: usize = 4096;

/// What a local that some read may find unassigned holds until its first assignment
/// ([`Inst::Unbind`]): an opaque pointer to this static, which no value from outside holds.
static UNBOUND_MARK: u8 = 0;

fn unbound_mark() -> Slot {
    mark_slot(&UNBOUND_MARK)
}

/// What a parameter whose default is made with its function holds until the function's
/// first instruction gives it that default ([`Inst::DefaultFill`]): its static default, an opaque
/// pointer to this static, which no value from outside holds.
static DEFAULT_MARK: u8 = 0;

/// The default mark (see [`DEFAULT_MARK`]).
pub(crate) fn default_mark() -> Slot {
    mark_slot(&DEFAULT_MARK)
}

/// Whether `slot` holds [`default_mark`].
#[inline]
fn is_default_mark(slot: &Slot) -> bool {
    holds_mark(slot, &DEFAULT_MARK)
}

/// Whether `slot` holds [`unbound_mark`].
#[inline]
fn is_unbound(slot: &Slot) -> bool {
    holds_mark(slot, &UNBOUND_MARK)
}

/// A slot holding the address of `mark`, one of the interpreter's marks.
fn mark_slot(mark: &'static u8) -> Slot {
    Slot::from_opaque_ptr(std::ptr::from_ref(mark).cast_mut().cast())
}

/// Whether `slot` holds the address of `mark` ([`mark_slot`]).
#[inline]
fn holds_mark(slot: &Slot, mark: &'static u8) -> bool {
    let mark = std::ptr::from_ref(mark) as u64;
    slot.type_index() == OPAQUE_PTR && matches!(slot.value(), Value::Pod(_, bits) if bits == mark)
}

/// An error and the instruction that first raised it (where it is located when it leaves the
/// function, even after a `finally:` block or a bare `raise` raised it again).
struct Raised {
    error: Error,
    at: u32,
}

impl Raised {
    fn new(error: Error, at: u32) -> Self {
        Raised { error, at }
    }
}

/// The errors that clauses keep for a bare `raise` or the end of a `finally:` block, by the
/// register the clause names (`Handler::keep`): at most one each, so a loop that catches again
/// and again keeps only the last.
#[derive(Default)]
struct KeptErrors(Vec<(Reg, Raised)>);

impl KeptErrors {
    fn keep(&mut self, reg: Reg, raised: Raised) {
        self.0.retain(|(r, _)| *r != reg);
        self.0.push((reg, raised));
    }

    /// The error kept for `reg`, no longer kept.
    fn take(&mut self, reg: Reg) -> Option<Raised> {
        let i = self.0.iter().position(|(r, _)| *r == reg)?;
        Some(self.0.swap_remove(i).1)
    }
}

/// Where an error raised by instruction `pc` of `f` continues: the first clause that catches it
/// (its message given to the clause's `as` variable, the error kept when the clause keeps it),
/// or `Err` with the error located where it was first raised. An error that carries a foreign
/// exception (a Python callback's) is caught only by a `finally:` block's clause: anyscript
/// cannot tell its class, which may be one `except Exception` must not catch (`KeyboardInterrupt`).
#[cold]
#[inline(never)]
fn caught(f: &Function, pc: u32, raised: Raised, regs: &mut [Slot], kept: &mut KeptErrors) -> Result<u32> {
    let e = &raised.error;
    let catcher = f.handlers.iter().find(|h| h.catches(pc, e));
    // An error that leaves an `except ... as name` clause deletes `name`, as the end of the
    // clause does; one caught by a `try` inside the clause's body does not leave it.
    for left in f.handlers.iter().filter(|h| h.bind != NO_REG && (h.target..h.body_end).contains(&pc)) {
        let stays = catcher.is_some_and(|c| left.target <= c.start && c.end <= left.body_end);
        if !stays {
            regs[left.bind as usize] = unbound_mark();
        }
    }
    if let Some(h) = catcher {
        if h.bind != NO_REG {
            regs[h.bind as usize] = super::exception_value::slot(super::exception_value::Exception::caught(e));
        }
        if h.keep != NO_REG {
            kept.keep(h.keep, raised);
        }
        return Ok(h.target);
    }
    Err(located(f, raised.at, raised.error))
}

/// The state of `range(start, stop, step)`: ints, and a step that is not zero.
#[inline(always)]
fn range_state(start: &Slot, stop: &Slot, step: &Slot) -> Result<LoopState> {
    let (next, stop, step) = match (start.inline_int(), stop.inline_int(), step.inline_int()) {
        (Some(a), Some(b), Some(c)) => (a, b, c),
        _ => (range_int(start)?, range_int(stop)?, range_int(step)?),
    };
    if step == 0 {
        return Err(Error::value("range() arg 3 must not be zero"));
    }
    Ok(LoopState::Range { next, stop, step })
}

/// A `range()` argument that is not an inline int: a boxed int, or CPython's error.
#[cold]
fn range_int(x: &Slot) -> Result<i64> {
    super::value_ops::index_arg(&x.view())
}

/// `text[i]` for an inline ASCII string and an in-range index, the seed's inner loop;
/// `None` sends everything else (negative indices, non-ASCII, heap strings) the general way.
#[inline(always)]
fn ascii_char_at(obj: &Slot, key: &Slot) -> Option<Slot> {
    let i = usize::try_from(key.inline_int()?).ok()?;
    let b = *obj.inline_ascii()?.get(i)?;
    Some(Slot::from_char(char::from(b)))
}

/// UTF-8 text at least this long is widened to UCS4 when a register holding it is indexed
/// or sliced.
const WIDEN_TEXT_BYTES: usize = 64;

/// Makes `text[i]` O(1) and `text[i:j]` O(j - i) on long text: the register's UTF-8 string
/// becomes the same text in UCS4, once. Code-point positions in UTF-8 have to be counted from
/// one end (or the text checked to be ASCII), so a loop over the indices or windows of a long
/// line was quadratic. (`len(text)` alone does not widen: one count costs less than the copy,
/// and a loop that indexes has widened the text already.)
#[cold]
fn widen_long_text(slot: &mut Slot) {
    let wide = match slot.value() {
        Value::Str(s) if s.len() >= WIDEN_TEXT_BYTES => Slot::from_text_ucs4(s),
        _ => return,
    };
    *slot = wide;
}

/// `x op y` of two ints, for the operators whose result is an int that fits; `None` for the
/// rest, which [`binary`] computes (its OverflowError, true division, errors).
#[inline(always)]
fn int_arithmetic(op: BinOp, x: i64, y: i64) -> Option<i64> {
    match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        _ => None,
    }
}

/// `x op y` of two ints for the comparisons of order and equality; `None` for `in` and `is`.
#[inline(always)]
fn int_comparison(op: CmpOp, x: i64, y: i64) -> Option<bool> {
    Some(match op {
        CmpOp::Eq => x == y,
        CmpOp::NotEq => x != y,
        CmpOp::Lt => x < y,
        CmpOp::LtE => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::GtE => x >= y,
        _ => return None,
    })
}

/// `a op= b` done where `a` stands, as Python does for lists (`+=` extends, `*=` repeats) and
/// as CPython does for text only it holds (`+=` appends); false when `a op b` is to be computed
/// the ordinary way and stored.
fn update_in_place(regs: &mut [Slot], op: BinOp, a: usize, b: usize) -> Result<bool> {
    if super::counter::update_in_place(op, regs[a].value(), regs[b].value())? {
        return Ok(true);
    }
    if let Some(done) = super::deque_ops::in_place(op, regs[a].value(), regs[b].value()) {
        return done.map(|()| true);
    }
    if let Some(done) = super::bytearray_ops::in_place(op, regs[a].value(), regs[b].value()) {
        return done.map(|()| true);
    }
    match op {
        BinOp::Add => add_in_place(regs, a, b),
        BinOp::Mul => repeat_in_place(regs, a, b),
        BinOp::BitOr if let Some(mut d) = Dict::from_view(&regs[a].view()) => {
            // `d |= x` takes what `d.update(x)` takes: a dict or an iterable of pairs.
            dict_update_from(&mut d, regs[b].value())?;
            Ok(true)
        }
        BinOp::BitOr | BinOp::BitAnd | BinOp::Sub | BinOp::BitXor => {
            super::set_ops::update_in_place(op, regs[a].value(), regs[b].value())
        }
        _ => Ok(false),
    }
}

/// `xs *= n` for a list: the list itself repeated (or emptied for `n <= 0`), so that every
/// other reference to it sees the change, as in Python; false when `a` is not a list (nor for a
/// tuple: `t *= n` makes a new tuple). The repetition is `xs * n` (with its errors: a
/// `MemoryError`, a `TypeError` for a non-int `n`) moved into the list.
fn repeat_in_place(regs: &mut [Slot], a: usize, b: usize) -> Result<bool> {
    let Some(mut list) = list_of(regs[a].value()) else { return Ok(false) };
    let repeated = binary(BinOp::Mul, regs[a].view(), regs[b].view())?;
    let Some(mut repeated) = List::from_view(&repeated.view()) else { return Ok(false) };
    let items = repeated.with_items_mut(std::mem::take);
    // The old items are dropped after the list's lock is released, as `List::set` does.
    let old = list.with_items_mut(|xs| std::mem::replace(xs, items));
    drop(old);
    Ok(true)
}

/// `a += b` where `a` stands: a list is extended, as Python does, and UTF-8 text that no other
/// value refers to grows in place (CPython does the same for a string it holds the only
/// reference to), so that building a string a piece at a time is linear, not quadratic.
/// False when neither applies and `a + b` is to be computed the ordinary way.
fn add_in_place(regs: &mut [Slot], a: usize, b: usize) -> Result<bool> {
    if let Some(mut list) = list_of(regs[a].value()) {
        let items = iter_values(regs[b].view())?;
        list.try_extend(items, "list +=")?;
        return Ok(true);
    }
    // A copy of the addend (no allocation: inline, or one more count on a heap string), so that
    // `s += s` reads it while `s` is written; the extra count then keeps `s` from growing in place.
    let addend = regs[b].clone();
    Ok(match addend.value() {
        Value::Str(text) => regs[a].try_append_text(text),
        Value::UStr(chars)
            if regs[a].inline_text().is_some() || regs[a].type_index() == crate::any::type_index::STR =>
        {
            regs[a].try_append_text(&chars.iter().collect::<String>())
        }
        _ => false,
    })
}
