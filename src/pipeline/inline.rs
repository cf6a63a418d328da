//! Inlining: a call of a small leaf function is replaced by a copy of its code.
//!
//! Rationale: a script function called once per word (`len(unicode_split_any(w))` in a loop)
//! spent more on the call than on its body: the arguments copied into a new frame, the
//! frame's registers filled and emptied, a depth count, and for a nested call a stack
//! check. Inlined, the call is a move per argument, the body, and one instruction that empties
//! the callee's registers (as returning from its frame would).
//!
//! Only leaves are inlined (functions that call no function of the program, so that nothing
//! recurses), only small ones, and only while the caller's frame still fits on the stack.
//! Errors in inlined code read as they did from a real call: the callee's location, then the
//! caller's line of the call.

use super::interp::{STACK_LOOPS, STACK_REGS};
use super::ir::{Function, Inlined, Inst, NO_REG, Operands, Program, Reg};

/// Callees of at most this many instructions are inlined.
const MAX_INLINE_CODE: usize = 64;

/// Inlines the program's calls of small leaf functions into their callers.
pub fn inline_leaf_calls(program: &mut Program) {
    let leaves: Vec<Option<Function>> = program
        .functions
        .iter()
        // A function with `except` clauses keeps its own frame: its clauses' ranges are its code's.
        .map(|f| {
            // A generator's call makes a generator: its body is never run in the caller's frame.
            (f.leaf && !f.generator && f.direct.is_none() && f.handlers.is_empty() && f.code.len() <= MAX_INLINE_CODE)
                .then(|| f.clone())
        })
        .collect();
    for caller in &mut program.functions {
        if caller.leaf {
            continue;
        }
        // Inlined bodies never run at the same time (a leaf calls no other function), and each
        // empties its registers at its exit, so all of them share one area after the caller's own.
        let area = Area { regs: caller.n_regs, loops: caller.n_loops };
        let mut pc = 0;
        while pc < caller.code.len() {
            if let Inst::CallUser { dst, func, args } = caller.code[pc] {
                // A leaf makes no calls, so it is never its own caller here.
                if let Some(callee) = &leaves[func as usize] {
                    let fits = area.regs + callee.n_regs <= STACK_REGS as u32
                        && area.loops + callee.n_loops <= STACK_LOOPS as u32;
                    if fits {
                        pc += inline_at(caller, pc, Call { dst, func, args }, callee, area);
                        continue;
                    }
                }
            }
            pc += 1;
        }
        caller.leaf = caller.calls_no_function();
    }
}

/// Where inlined code keeps its registers and loop states: from these indices on.
#[derive(Clone, Copy)]
struct Area {
    regs: u32,
    loops: u32,
}

/// The operands of a `CallUser`.
struct Call {
    dst: Reg,
    func: u32,
    args: Operands,
}

/// Replaces the call at `at` with `callee`'s code; returns the length of the inlined code.
fn inline_at(caller: &mut Function, at: usize, call: Call, callee: &Function, area: Area) -> usize {
    let Call { dst, func, args } = call;
    let (base, loop_base) = (area.regs, area.loops);
    let const_base = caller.consts.len() as u32;
    let op_base = caller.ops.len() as u32;
    let call_line = caller.lines[at];
    let arg_regs: Vec<Reg> = args.of(caller).to_vec();

    // A parameter the callee only reads is the caller's register itself; the others get a
    // move (a copy, as a call's frame would hold).
    let written = written_params(callee);
    let copied: Vec<(Reg, Reg)> =
        (0..arg_regs.len() as Reg).filter(|&p| written[p as usize]).map(|p| (base + p, arg_regs[p as usize])).collect();

    // The layout: the moves, the body (one instruction for each of the callee's), and the exit
    // that empties the callee's registers.
    let body_start = (at + copied.len()) as u32;
    let exit = body_start + callee.code.len() as u32;
    let len = copied.len() + callee.code.len() + 1;
    let reg = |r: Reg| match r {
        NO_REG => NO_REG,
        p if p < callee.n_params && !written[p as usize] => arg_regs[p as usize],
        r => r + base,
    };
    let to = |t: u32| t + body_start;

    let mut code = Vec::with_capacity(len);
    let mut lines = Vec::with_capacity(len);
    for &(dst, src) in &copied {
        code.push(Inst::Move { dst, src });
        lines.push(call_line);
    }
    for (&inst, &line) in callee.code.iter().zip(&callee.lines) {
        let mut operands = |o: Operands| {
            let start = caller.operands.len() as u32;
            caller.operands.extend(o.of(callee).iter().map(|&r| reg(r)));
            Operands { start, len: o.len }
        };
        code.push(match inst {
            Inst::Const { dst, index } => Inst::Const { dst: reg(dst), index: index + const_base },
            Inst::Move { dst, src } => Inst::Move { dst: reg(dst), src: reg(src) },
            Inst::Unary { op, dst, src } => Inst::Unary { op, dst: reg(dst), src: reg(src) },
            Inst::Binary { op, dst, a, b, in_place } => {
                Inst::Binary { op, dst: reg(dst), a: reg(a), b: reg(b), in_place }
            }
            Inst::Compare { op, dst, a, b } => Inst::Compare { op, dst: reg(dst), a: reg(a), b: reg(b) },
            Inst::Jump { to: t } => Inst::Jump { to: to(t) },
            Inst::JumpIfFalse { cond, to: t } => Inst::JumpIfFalse { cond: reg(cond), to: to(t) },
            Inst::JumpIfTrue { cond, to: t } => Inst::JumpIfTrue { cond: reg(cond), to: to(t) },
            Inst::GetItem { dst, obj, key } => Inst::GetItem { dst: reg(dst), obj: reg(obj), key: reg(key) },
            Inst::SetItem { obj, key, value } => Inst::SetItem { obj: reg(obj), key: reg(key), value: reg(value) },
            Inst::Slice { dst, obj, bounds } => Inst::Slice { dst: reg(dst), obj: reg(obj), bounds: operands(bounds) },
            Inst::BuildList { dst, items } => Inst::BuildList { dst: reg(dst), items: operands(items) },
            Inst::BuildTuple { dst, items } => Inst::BuildTuple { dst: reg(dst), items: operands(items) },
            Inst::BuildDict { dst, items } => Inst::BuildDict { dst: reg(dst), items: operands(items) },
            Inst::BuildSet { dst, items, layout } => Inst::BuildSet { dst: reg(dst), items: operands(items), layout },
            Inst::Unpack { src, targets } => Inst::Unpack { src: reg(src), targets: operands(targets) },
            Inst::UnpackStar { src, targets, star } => {
                Inst::UnpackStar { src: reg(src), targets: operands(targets), star }
            }
            Inst::CallOp { dst, op, args } => Inst::CallOp { dst: reg(dst), op: op + op_base, args: operands(args) },
            Inst::CallValue { dst, callee, args } => {
                Inst::CallValue { dst: reg(dst), callee: reg(callee), args: operands(args) }
            }
            Inst::CallUser { .. } | Inst::CallUserKeywords { .. } => {
                unreachable!("a leaf calls no function of the program")
            }
            Inst::CallBuiltin { dst, builtin, args } => {
                Inst::CallBuiltin { dst: reg(dst), builtin, args: operands(args) }
            }
            Inst::CallMethod { dst, method, obj, args } => {
                Inst::CallMethod { dst: reg(dst), method, obj: reg(obj), args: operands(args) }
            }
            Inst::CallKeyed { dst, call, args } => Inst::CallKeyed { dst: reg(dst), call, args: operands(args) },
            Inst::CheckMethod { obj, method } => Inst::CheckMethod { obj: reg(obj), method },
            Inst::CheckReceiver { obj, method, ty } => Inst::CheckReceiver { obj: reg(obj), method, ty },
            Inst::Append { list, value } => Inst::Append { list: reg(list), value: reg(value) },
            Inst::ExtendEach { list, seq, index, item } => {
                Inst::ExtendEach { list: reg(list), seq: reg(seq), index: reg(index), item: reg(item) }
            }
            Inst::FuncRef { dst, func } => Inst::FuncRef { dst: reg(dst), func },
            Inst::Bind { dst, func, args } => Inst::Bind { dst: reg(dst), func, args: operands(args) },
            Inst::CellNew { dst, src } => Inst::CellNew { dst: reg(dst), src: reg(src) },
            Inst::CellGet { dst, cell } => Inst::CellGet { dst: reg(dst), cell: reg(cell) },
            Inst::CellSet { cell, src } => Inst::CellSet { cell: reg(cell), src: reg(src) },
            Inst::DefaultFill { dst, src } => Inst::DefaultFill { dst: reg(dst), src: reg(src) },
            Inst::IterStart { slot, src } => Inst::IterStart { slot: slot + loop_base, src: reg(src) },
            Inst::IterView { slot, src, view } => Inst::IterView { slot: slot + loop_base, src: reg(src), view },
            Inst::RangeStart { slot, start, stop, step } => {
                Inst::RangeStart { slot: slot + loop_base, start: reg(start), stop: reg(stop), step: reg(step) }
            }
            Inst::ForNext { slot, dst, body } => {
                Inst::ForNext { slot: slot + loop_base, dst: reg(dst), body: to(body) }
            }
            Inst::ForNextItem { slot, key, value, body } => {
                Inst::ForNextItem { slot: slot + loop_base, key: reg(key), value: reg(value), body: to(body) }
            }
            Inst::GuardReset { slot } => Inst::GuardReset { slot: slot + loop_base },
            Inst::Guard { slot } => Inst::Guard { slot: slot + loop_base },
            Inst::Unbind { dst: d } => Inst::Unbind { dst: reg(d) },
            Inst::CheckBound { reg: r, message, name_error } => {
                Inst::CheckBound { reg: reg(r), message: message + const_base, name_error }
            }
            Inst::Return { src } => Inst::ReturnTo { dst, src: reg(src), exit },
            Inst::Raise { kind, value } => Inst::Raise { kind, value: reg(value) },
            Inst::RaiseValue { src, cause } => Inst::RaiseValue { src: reg(src), cause: reg(cause) },
            Inst::Reraise { src } => Inst::Reraise { src: reg(src) },
            Inst::Yield { src } => Inst::Yield { src: reg(src) },
            Inst::DelItem { obj, key } => Inst::DelItem { obj: reg(obj), key: reg(key) },
            Inst::ReturnTo { .. } | Inst::Clear { .. } => unreachable!("only callers hold inlined code"),
        });
        lines.push(line);
    }
    code.push(Inst::Clear { first: base, count: callee.n_regs, first_loop: loop_base, loops: callee.n_loops });
    lines.push(call_line);

    // The caller's own jumps past the call move by what the call grew to.
    let grown = (len - 1) as u32;
    for inst in &mut caller.code {
        let target = match inst {
            Inst::Jump { to } | Inst::JumpIfFalse { to, .. } | Inst::JumpIfTrue { to, .. } => to,
            Inst::ForNext { body, .. } | Inst::ForNextItem { body, .. } => body,
            Inst::ReturnTo { exit, .. } => exit,
            _ => continue,
        };
        if *target > at as u32 {
            *target += grown;
        }
    }
    for h in &mut caller.handlers {
        // A call inside a `try` body (`start <= at < end`) or a clause body grows it.
        for edge in [&mut h.start, &mut h.end, &mut h.target, &mut h.body_end] {
            if *edge > at as u32 {
                *edge += grown;
            }
        }
    }
    for site in &mut caller.inlined {
        if site.start > at as u32 {
            site.start += grown;
            site.end += grown;
        }
    }
    caller.code.splice(at..at + 1, code);
    caller.lines.splice(at..at + 1, lines);
    caller.consts.extend(callee.consts.iter().cloned());
    caller.ops.extend(callee.ops.iter().cloned());
    // The shared area's registers are listed without names: they hold different callees' variables.
    caller.n_regs = caller.n_regs.max(base + callee.n_regs);
    caller.n_loops = caller.n_loops.max(loop_base + callee.n_loops);
    caller.reg_names.resize(caller.n_regs as usize, None);
    caller.inlined.push(Inlined { start: body_start, end: exit, func, label: callee.label.clone(), call_line });
    len
}

/// For each parameter of `f`, whether its code may change what the parameter's register holds:
/// assigns it, grows it in place (`s += x` on a string no one else holds), or moves it out
/// (`return s`). A parameter that is only read can stay in the caller's register.
fn written_params(f: &Function) -> Vec<bool> {
    let mut written = vec![false; f.n_params as usize];
    let mut mark = |r: Reg| {
        if let Some(w) = written.get_mut(r as usize) {
            *w = true;
        }
    };
    for inst in &f.code {
        match *inst {
            Inst::Const { dst, .. }
            | Inst::Move { dst, .. }
            | Inst::Unary { dst, .. }
            | Inst::Compare { dst, .. }
            | Inst::GetItem { dst, .. }
            | Inst::Slice { dst, .. }
            | Inst::BuildList { dst, .. }
            | Inst::BuildTuple { dst, .. }
            | Inst::BuildDict { dst, .. }
            | Inst::BuildSet { dst, .. }
            | Inst::CallOp { dst, .. }
            | Inst::CallValue { dst, .. }
            | Inst::CallUser { dst, .. }
            | Inst::CallUserKeywords { dst, .. }
            | Inst::CallBuiltin { dst, .. }
            | Inst::CallMethod { dst, .. }
            | Inst::CallKeyed { dst, .. }
            | Inst::FuncRef { dst, .. }
            | Inst::Bind { dst, .. }
            | Inst::Unbind { dst }
            | Inst::CellNew { dst, .. }
            | Inst::CellGet { dst, .. }
            | Inst::DefaultFill { dst, .. }
            | Inst::ForNext { dst, .. } => mark(dst),
            Inst::Binary { dst, a, in_place, .. } => {
                mark(dst);
                if in_place {
                    mark(a);
                }
            }
            Inst::Unpack { targets, .. } | Inst::UnpackStar { targets, .. } => {
                targets.of(f).iter().for_each(|&r| mark(r))
            }
            Inst::ForNextItem { key, value, .. } => {
                mark(key);
                mark(value);
            }
            Inst::ExtendEach { index, item, .. } => {
                mark(index);
                mark(item);
            }
            Inst::Return { src } | Inst::ReturnTo { src, .. } => mark(src),
            Inst::Clear { first, count, .. } => (first..first + count).for_each(&mut mark),
            // These change the objects registers hold, not the registers: a caller sees the
            // change either way, as Python's caller sees a list its callee appended to.
            Inst::Jump { .. }
            | Inst::JumpIfFalse { .. }
            | Inst::JumpIfTrue { .. }
            | Inst::SetItem { .. }
            | Inst::Append { .. }
            | Inst::CheckMethod { .. }
            | Inst::CheckReceiver { .. }
            | Inst::IterStart { .. }
            | Inst::IterView { .. }
            | Inst::RangeStart { .. }
            | Inst::GuardReset { .. }
            | Inst::CheckBound { .. }
            | Inst::Raise { .. }
            | Inst::RaiseValue { .. }
            | Inst::Reraise { .. }
            | Inst::Yield { .. }
            | Inst::DelItem { .. }
            | Inst::CellSet { .. }
            | Inst::Guard { .. } => {}
        }
    }
    written
}
