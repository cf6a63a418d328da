//! The interpreter: runs a [`Program`]'s flat code over frames of [`Slot`] registers.
//!
//! Frames and loop states are pooled per thread, so calling a function costs
//! no allocation once warm, and a one-character string never leaves its register.

use super::Slot;
use super::ast::UnaryOp;
use super::builtins::call_builtin;
use super::ir::{Function, Inst, Program, Reg};
use super::methods::call_method;
use super::value_ops::{binary, compare, get_item, set_item, slice, truthy, unary};
use crate::container::append_in_slot;
use crate::error::{Error, ErrorKind, Result};
use crate::func::call_obj;
use crate::{AnyValue, AnyView, Dict, FromAny, List, PackedFunc, Value};
use smallvec::SmallVec;
use std::cell::RefCell;
use std::sync::Arc;

/// What one loop slot iterates.
#[derive(Default)]
enum LoopState {
    #[default]
    Idle,
    Range {
        next: i64,
        stop: i64,
        step: i64,
    },
    List {
        list: List,
        index: usize,
    },
    /// Characters of a string, by byte position (UTF-8) or index (UCS4).
    Text {
        text: Slot,
        pos: usize,
    },
    Keys {
        keys: Vec<AnyValue>,
        index: usize,
    },
    Count(u64),
}

/// Register files and loop states kept for reuse by the calls of one thread.
#[derive(Default)]
struct Pools {
    frames: Vec<Vec<Slot>>,
    loops: Vec<Vec<LoopState>>,
}

thread_local! {
    static POOLS: RefCell<Pools> = RefCell::new(Pools::default());
}

/// Runs function `func` of `program` on `args`.
///
/// Errors carry where they happened: `function 'f', line 3: text.lower: argument 0: ...`.
pub fn run(program: &Arc<Program>, func: u32, args: &[AnyView<'_>]) -> Result<AnyValue> {
    // Taken out of the thread-local for the call, so a re-entrant call (an op calling back
    // into a script function) finds an empty pool instead of a borrowed one.
    let mut pools = POOLS.with(|p| std::mem::take(&mut *p.borrow_mut()));
    let mut vm = Vm { program, pools: &mut pools, depth: 0 };
    let result = vm.call(func, args).map(Slot::resize::<0>);
    POOLS.with(|p| {
        let mut slot = p.borrow_mut();
        if slot.frames.is_empty() {
            *slot = pools;
        }
    });
    result
}

/// A function of `program` as a `PackedFunc`, callable from Rust, pipelines and Python.
pub fn as_packed_func(program: Arc<Program>, func: u32) -> PackedFunc {
    PackedFunc::new(move |args| {
        let f = &program.functions[func as usize];
        if args.len() != f.n_params as usize {
            return Err(Error::new(
                ErrorKind::Arity,
                format!("{}() takes {} arguments, {} given", f.name, f.n_params, args.len()),
            ));
        }
        run(&program, func, args)
    })
}

struct Vm<'p> {
    program: &'p Arc<Program>,
    pools: &'p mut Pools,
    depth: u32,
}

fn located(f: &Function, pc: usize, e: Error) -> Error {
    e.context(f.location(pc))
}

impl Vm<'_> {
    fn call(&mut self, func: u32, args: &[AnyView<'_>]) -> Result<Slot> {
        if self.depth >= self.program.max_depth {
            return Err(Error::runtime(format!("maximum call depth {} exceeded", self.program.max_depth)));
        }
        let program = self.program;
        let f = &program.functions[func as usize];
        let mut regs = self.pools.frames.pop().unwrap_or_default();
        regs.resize_with(f.n_regs as usize, Slot::default);
        for (r, a) in regs.iter_mut().zip(args) {
            *r = a.to_owned();
        }
        let mut loops = self.pools.loops.pop().unwrap_or_default();
        loops.resize_with(f.n_loops as usize, LoopState::default);
        self.depth += 1;
        let result = self.exec(f, &mut regs, &mut loops);
        self.depth -= 1;
        regs.clear();
        loops.clear();
        self.pools.frames.push(regs);
        self.pools.loops.push(loops);
        result
    }

    #[inline(always)]
    fn views<'r>(regs: &'r [Slot], f: &Function, ops: super::ir::Operands) -> SmallVec<[AnyView<'r>; 6]> {
        ops.of(f).iter().map(|&r| regs[r as usize].view()).collect()
    }

    fn exec(&mut self, f: &Function, regs: &mut [Slot], loops: &mut [LoopState]) -> Result<Slot> {
        let mut pc = 0usize;
        loop {
            let inst = f.code[pc];
            pc += 1;
            let step = self.step(f, inst, regs, loops);
            match step {
                Ok(Flow::Next) => {}
                Ok(Flow::Jump(to)) => pc = to as usize,
                Ok(Flow::Return(r)) => return Ok(std::mem::take(&mut regs[r as usize])),
                Err(e) => return Err(located(f, pc - 1, e)),
            }
        }
    }

    #[inline(always)]
    fn step(&mut self, f: &Function, inst: Inst, regs: &mut [Slot], loops: &mut [LoopState]) -> Result<Flow> {
        let r = |x: Reg| x as usize;
        match inst {
            Inst::Const { dst, index } => regs[r(dst)] = f.consts[index as usize].clone(),
            Inst::Move { dst, src } => regs[r(dst)] = regs[r(src)].clone(),
            Inst::Unary { op: UnaryOp::Not, dst, src } => regs[r(dst)] = Slot::from(!truthy(regs[r(src)].view())),
            Inst::Unary { op, dst, src } => regs[r(dst)] = unary(op, regs[r(src)].view())?,
            Inst::Binary { op, dst, a, b, in_place } => {
                if in_place && op == super::ast::BinOp::Add && extend_in_place(regs, r(a), r(b))? {
                    if dst != a {
                        regs[r(dst)] = regs[r(a)].clone();
                    }
                } else {
                    regs[r(dst)] = binary(op, regs[r(a)].view(), regs[r(b)].view())?;
                }
            }
            Inst::Compare { op, dst, a, b } => {
                regs[r(dst)] = Slot::from(compare(op, regs[r(a)].view(), regs[r(b)].view())?);
            }
            Inst::Jump { to } => return Ok(Flow::Jump(to)),
            Inst::JumpIfFalse { cond, to } => {
                if !truthy(regs[r(cond)].view()) {
                    return Ok(Flow::Jump(to));
                }
            }
            Inst::JumpIfTrue { cond, to } => {
                if truthy(regs[r(cond)].view()) {
                    return Ok(Flow::Jump(to));
                }
            }
            Inst::GetItem { dst, obj, key } => {
                let v = match ascii_char_at(&regs[r(obj)], &regs[r(key)]) {
                    Some(c) => c,
                    None => get_item(regs[r(obj)].view(), regs[r(key)].view())?,
                };
                regs[r(dst)] = v;
            }
            Inst::SetItem { obj, key, value } => {
                set_item(regs[r(obj)].view(), regs[r(key)].view(), regs[r(value)].view())?;
            }
            Inst::Slice { dst, obj, bounds } => {
                let b = bounds.of(f);
                let v = slice(regs[r(obj)].view(), regs[r(b[0])].view(), regs[r(b[1])].view(), regs[r(b[2])].view())?;
                regs[r(dst)] = v;
            }
            Inst::BuildList { dst, items } => {
                let mut list = List::with_capacity(items.len as usize);
                for &x in items.of(f) {
                    list.push(regs[r(x)].clone().resize::<0>());
                }
                regs[r(dst)] = Slot::from(list);
            }
            Inst::BuildDict { dst, items } => {
                let mut dict = Dict::new();
                for kv in items.of(f).chunks_exact(2) {
                    dict.set(regs[r(kv[0])].clone().resize::<0>(), regs[r(kv[1])].clone().resize::<0>());
                }
                regs[r(dst)] = Slot::from(dict);
            }
            Inst::Unpack { src, targets } => {
                let targets = targets.of(f);
                let items = unpack_items(regs[r(src)].view(), targets.len())?;
                for (&t, v) in targets.iter().zip(items) {
                    regs[r(t)] = v;
                }
            }
            Inst::CallOp { dst, op, args } => {
                let (name, func) = &f.ops[op as usize];
                let v = {
                    let views = Self::views(regs, f, args);
                    func.call(&views).map_err(|e| with_op_name(e, name))?
                };
                regs[r(dst)] = v.resize();
            }
            Inst::CallValue { dst, callee, args } => {
                let v = {
                    let views = Self::views(regs, f, args);
                    let callee = regs[r(callee)].view();
                    match callee.as_obj() {
                        Some(obj) => call_obj(obj, &views)?,
                        None => return Err(Error::type_mismatch("a function", &callee.type_name())),
                    }
                };
                regs[r(dst)] = v.resize();
            }
            Inst::CallUser { dst, func, args } => {
                let v = {
                    let views = Self::views(regs, f, args);
                    self.call(func, &views)?
                };
                regs[r(dst)] = v;
            }
            Inst::CallBuiltin { dst, builtin, args } => {
                let v = call_builtin(builtin, &Self::views(regs, f, args))?;
                regs[r(dst)] = v;
            }
            Inst::CallMethod { dst, method, obj, args } => {
                let v = call_method(method, regs[r(obj)].view(), &Self::views(regs, f, args))?;
                regs[r(dst)] = v;
            }
            Inst::Append { list, value } => {
                let v = regs[r(value)].clone().resize::<0>();
                if append_in_slot(&mut regs[r(list)], v).is_err() {
                    let t = super::value_ops::type_name(regs[r(list)].view());
                    return Err(Error::new(ErrorKind::Type, format!("'{t}' object has no attribute 'append'")));
                }
            }
            Inst::FuncRef { dst, func } => {
                regs[r(dst)] = Slot::from(as_packed_func(self.program.clone(), func));
            }
            Inst::IterStart { slot, src } => loops[slot as usize] = start_iter(regs[r(src)].view())?,
            Inst::RangeStart { slot, start, stop, step } => {
                let int = |x: Reg, what: &str| {
                    regs[r(x)].value().as_int().ok_or_else(|| {
                        Error::type_mismatch(&format!("int for range() {what}"), &regs[r(x)].type_name())
                    })
                };
                let (next, stop, step) = (int(start, "start")?, int(stop, "stop")?, int(step, "step")?);
                if step == 0 {
                    return Err(Error::value("range() arg 3 must not be zero"));
                }
                loops[slot as usize] = LoopState::Range { next, stop, step };
            }
            Inst::IterNext { slot, dst, exit } => match next_item(&mut loops[slot as usize]) {
                Some(v) => regs[r(dst)] = v,
                None => {
                    loops[slot as usize] = LoopState::Idle;
                    return Ok(Flow::Jump(exit));
                }
            },
            Inst::GuardReset { slot } => loops[slot as usize] = LoopState::Count(0),
            Inst::Guard { slot } => {
                if let LoopState::Count(n) = &mut loops[slot as usize] {
                    *n += 1;
                    if *n > self.program.while_limit {
                        return Err(Error::runtime(format!(
                            "while loop stopped after {} iterations (the limit; raise `while_limit` if it is meant to run longer)",
                            self.program.while_limit
                        )));
                    }
                }
            }
            Inst::Return { src } => return Ok(Flow::Return(src)),
        }
        Ok(Flow::Next)
    }
}

/// `text[i]` for an ASCII UTF-8 string and an in-range index, the seed's inner loop;
/// `None` sends everything else (negative indices, non-ASCII, errors) the general way.
#[inline(always)]
fn ascii_char_at(obj: &Slot, key: &Slot) -> Option<Slot> {
    let i = key.inline_int()?;
    let s = obj.inline_text()?;
    let b = *s.as_bytes().get(usize::try_from(i).ok()?)?;
    // Short strings are checked whole (cheap); a long one only up to the index, since the
    // index is a code point index only if everything before it is ASCII.
    (b.is_ascii() && s.as_bytes()[..i as usize].is_ascii()).then(|| Slot::from_char(b as char))
}

enum Flow {
    Next,
    Jump(u32),
    Return(Reg),
}

/// Adds the op's name to an error unless the op already named itself.
fn with_op_name(e: Error, name: &str) -> Error {
    if e.frames().next() == Some(name) { e } else { e.context(name.to_string()) }
}

/// `a += b` on a list extends it where it stands, as Python does; false when `a` is no list.
fn extend_in_place(regs: &mut [Slot], a: usize, b: usize) -> Result<bool> {
    let Some(mut list) = List::from_view(&regs[a].view()) else { return Ok(false) };
    let items = iter_values(regs[b].view())?;
    list.extend(items);
    Ok(true)
}

/// The items of any iterable value, materialised.
pub fn iter_values(v: AnyView<'_>) -> Result<Vec<AnyValue>> {
    let mut state = start_iter(v)?;
    let mut out = Vec::new();
    while let Some(x) = next_item(&mut state) {
        out.push(x.resize::<0>());
    }
    Ok(out)
}

fn unpack_items(v: AnyView<'_>, n: usize) -> Result<Vec<Slot>> {
    let items = iter_values(v)?;
    if items.len() != n {
        let msg = if items.len() > n {
            format!("too many values to unpack (expected {n})")
        } else {
            format!("not enough values to unpack (expected {n}, got {})", items.len())
        };
        return Err(Error::value(msg));
    }
    Ok(items.into_iter().map(AnyValue::resize::<1>).collect())
}

fn start_iter(v: AnyView<'_>) -> Result<LoopState> {
    match v.value() {
        Value::Str(_) | Value::UStr(_) => Ok(LoopState::Text { text: v.to_owned(), pos: 0 }),
        Value::Object(o) => {
            if let Some(list) = List::from_view(&v) {
                return Ok(LoopState::List { list, index: 0 });
            }
            if let Some(dict) = Dict::from_view(&v) {
                return Ok(LoopState::Keys { keys: dict.keys(), index: 0 });
            }
            Err(Error::new(ErrorKind::Type, format!("'{}' object is not iterable", o.type_name())))
        }
        _ => Err(Error::new(ErrorKind::Type, format!("'{}' object is not iterable", super::value_ops::type_name(v)))),
    }
}

#[inline(always)]
fn next_item(state: &mut LoopState) -> Option<Slot> {
    match state {
        LoopState::Range { next, stop, step } => {
            let i = *next;
            if (*step > 0 && i < *stop) || (*step < 0 && i > *stop) {
                *next = i.saturating_add(*step);
                if *next == i {
                    // Saturated at the end of i64: this was the last item.
                    *stop = i;
                }
                Some(Slot::from(i))
            } else {
                None
            }
        }
        LoopState::List { list, index } => {
            // Checked by length, not through `get`'s error: the end of every loop would build one.
            let item = list.with_items(|xs| xs.get(*index).cloned())?;
            *index += 1;
            Some(item.resize())
        }
        LoopState::Text { text, pos } => match text.value() {
            Value::Str(s) => {
                let c = s.get(*pos..)?.chars().next()?;
                *pos += c.len_utf8();
                Some(Slot::from_char(c))
            }
            Value::UStr(u) => {
                let c = *u.get(*pos)?;
                *pos += 1;
                Some(Slot::from_char_ucs4(c))
            }
            _ => None,
        },
        LoopState::Keys { keys, index } => {
            let k = keys.get(*index)?.clone();
            *index += 1;
            Some(k.resize())
        }
        LoopState::Idle | LoopState::Count(_) => None,
    }
}
