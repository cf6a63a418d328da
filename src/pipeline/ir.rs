//! The compiled form: flat instruction lists over a register file of [`Slot`]s.
//!
//! Each function owns its code, the source line of every instruction (for
//! errors) and a side table of operand lists, so an instruction stays 16 bytes.

use super::Slot;
use super::ast::{BinOp, CmpOp, UnaryOp};
use super::builtins::Builtin;
use super::direct::Direct;
use super::iterate::DictView;
use super::keyed::Keyed;
use super::methods::Method;
use super::set_ops::SetLayout;
use crate::PackedFunc;
use crate::error::{Error, ErrorKind};
use std::fmt;

/// A register index within a function's frame.
pub type Reg = u32;

/// "No register", for the optional operands of [`Inst::ExtendEach`].
pub const NO_REG: Reg = Reg::MAX;

/// A run of operands in [`Function::operands`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operands {
    /// Index of the first operand.
    pub start: u32,
    /// How many there are.
    pub len: u32,
}

impl Operands {
    /// The operand registers of `f`.
    #[inline(always)]
    pub fn of(self, f: &Function) -> &[Reg] {
        &f.operands[self.start as usize..(self.start + self.len) as usize]
    }
}

/// One instruction. Every instruction reads all its operands before it writes `dst`,
/// so the compiler may make `dst` one of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inst {
    /// `dst = constant`.
    Const { dst: Reg, index: u32 },
    /// `dst = src`.
    Move { dst: Reg, src: Reg },
    /// `dst = op src`.
    Unary { op: UnaryOp, dst: Reg, src: Reg },
    /// `dst = a op b`; `in_place` is `a op= b`, which extends a list where it stands.
    Binary { op: BinOp, dst: Reg, a: Reg, b: Reg, in_place: bool },
    /// `dst = a op b` as a bool.
    Compare { op: CmpOp, dst: Reg, a: Reg, b: Reg },
    /// Continue at `to`.
    Jump { to: u32 },
    /// Continue at `to` when `cond` is falsy.
    JumpIfFalse { cond: Reg, to: u32 },
    /// Continue at `to` when `cond` is truthy.
    JumpIfTrue { cond: Reg, to: u32 },
    /// `dst = obj[key]`.
    GetItem { dst: Reg, obj: Reg, key: Reg },
    /// `obj[key] = value`.
    SetItem { obj: Reg, key: Reg, value: Reg },
    /// `dst = obj[lower:upper:step]`; the bounds are in three operands (None when omitted).
    Slice { dst: Reg, obj: Reg, bounds: Operands },
    /// `dst = [operands...]`.
    BuildList { dst: Reg, items: Operands },
    /// `dst = (operands...)`.
    BuildTuple { dst: Reg, items: Operands },
    /// `dst = {k0: v0, ...}` from operands `k0 v0 k1 v1 ...`.
    BuildDict { dst: Reg, items: Operands },
    /// `dst = {items...}`, its table laid out as CPython lays out the display `layout` names.
    BuildSet { dst: Reg, items: Operands, layout: SetLayout },
    /// `t0, t1, ... = src` (targets in the operands).
    Unpack { src: Reg, targets: Operands },
    /// `t0, *t1, t2 = src`: the target at `star` gets the list of the items the others leave.
    UnpackStar { src: Reg, targets: Operands, star: u32 },
    /// `dst = op(args...)` for a registered op held in [`Function::ops`].
    CallOp { dst: Reg, op: u32, args: Operands },
    /// `dst = callee(args...)` for a function value in a register.
    CallValue { dst: Reg, callee: Reg, args: Operands },
    /// `dst = f(args...)` for a function of the same program.
    CallUser { dst: Reg, func: u32, args: Operands },
    /// `dst = f(*xs, name=value...)` for a function of the same program, bound when it runs:
    /// `args` are a constant str of the keywords' names joined by commas, a constant int whose bit `i` marks
    /// positional argument `i` as `*iterable`, the keywords' values, then the positional ones.
    CallUserKeywords { dst: Reg, func: u32, args: Operands },
    /// `dst = builtin(args...)`.
    CallBuiltin { dst: Reg, builtin: Builtin, args: Operands },
    /// `dst = obj.method(args...)`.
    CallMethod { dst: Reg, method: Method, obj: Reg, args: Operands },
    /// `dst = sorted/min/max/list.sort(...)` with keyword-only arguments, laid out as
    /// [`Keyed`] lists.
    CallKeyed { dst: Reg, call: Keyed, args: Operands },
    /// Fails unless `obj`'s type has `method`: Python looks a method up before it evaluates the
    /// arguments, so `s.pop(xs[9])` on a str is the missing method's error, not the index's.
    CheckMethod { obj: Reg, method: Method },
    /// Fails unless `obj` is of the type whose method is called through it (`str.upper(x)`:
    /// `ty` indexes [`super::methods::RECEIVER_TYPES`]), with CPython's descriptor error.
    CheckReceiver { obj: Reg, method: Method, ty: u8 },
    /// `list.append(value)`, the hot path of list building.
    Append { list: Reg, value: Reg },
    /// A loop that appends each element of `seq` to `list`, run as one extend (see
    /// `compile::append_each`): when `list` is a list and `seq` a string or another list, the
    /// elements are appended, `index` (if not [`NO_REG`]) is left at the last index and `item`
    /// (if not [`NO_REG`]) at the last element, as the loop would leave them, and the next
    /// instruction (a jump past the loop) runs; otherwise it is skipped and the loop runs.
    ExtendEach { list: Reg, seq: Reg, index: Reg, item: Reg },
    /// `dst = <the program's function>` as a function value.
    FuncRef { dst: Reg, func: u32 },
    /// `dst = <the program's function func>` with its first parameters given the values of
    /// `args`: a lambda that reads its enclosing function's variables.
    Bind { dst: Reg, func: u32, args: Operands },
    /// Starts iterating `src` in loop slot `slot`.
    IterStart { slot: u32, src: Reg },
    /// Starts loop `slot` over `src.keys()`, `.values()` or `.items()` (see `DictView`).
    IterView { slot: u32, src: Reg, view: DictView },
    /// Starts `range(start, stop, step)` in loop slot `slot` without building a list.
    RangeStart { slot: u32, start: Reg, stop: Reg, step: Reg },
    /// The bottom of a `for` loop: `dst = next item of slot` and continue at `body`, or,
    /// when the loop is exhausted, end it and fall through.
    ForNext { slot: u32, dst: Reg, body: u32 },
    /// `ForNext` for `for k, v in d.items()` (two names): the next key into `key` and its
    /// value into `value`, with no `[key, value]` list made to unpack.
    ForNextItem { slot: u32, key: Reg, value: Reg, body: u32 },
    /// Resets the iteration counter of a `while` loop in `slot`.
    GuardReset { slot: u32 },
    /// Counts one iteration of a `while` loop; an error past the program's cap.
    Guard { slot: u32 },
    /// Gives `dst` the unbound mark: a local that some read may find unassigned starts so.
    Unbind { dst: Reg },
    /// `dst = a new cell holding src's value` (perhaps the unbound mark): a variable that nested
    /// functions share (`pipeline/cell.rs`).
    CellNew { dst: Reg, src: Reg },
    /// `dst = the value in the cell in cell` (perhaps the unbound mark).
    CellGet { dst: Reg, cell: Reg },
    /// Puts `src`'s value in the cell in `cell`.
    CellSet { cell: Reg, src: Reg },
    /// `dst = src` when `dst` holds the default mark: a parameter its caller left out gets the
    /// default its function was made with (`compile/made_defaults.rs`).
    DefaultFill { dst: Reg, src: Reg },
    /// Fails with the error whose message is constant `message` (a `NameError`, or an
    /// `UnboundLocalError` unless `name_error`) when `reg` still holds the unbound mark.
    CheckBound { reg: Reg, message: u32, name_error: bool },
    /// Returns `src`.
    Return { src: Reg },
    /// In a generator: gives `src` to the consumer and suspends, to go on at the next
    /// instruction when the next item is asked for.
    Yield { src: Reg },
    /// `raise kind(value)`: fails with an error of `kind` whose message is `str(value)`
    /// (`repr` for a `KeyError`, as CPython prints one), or empty when `value` is [`NO_REG`].
    Raise { kind: ErrorKind, value: Reg },
    /// `raise src [from cause]`: `src` an exception or an exception class, `cause` (or
    /// [`NO_REG`]) None, an exception or a class, else CPython's TypeError.
    RaiseValue { src: Reg, cause: Reg },
    /// Raises again the error a clause kept in `src` (a bare `raise`, the end of a `finally:`
    /// block reached by an error), located where it was first raised; nothing when `src` holds
    /// none (a `finally:` block reached without an error never gets here).
    Reraise { src: Reg },
    /// `del obj[key]`.
    DelItem { obj: Reg, key: Reg },
    /// `return src` of inlined code: moves `src` into the call's `dst` and continues at `exit`.
    ReturnTo { dst: Reg, src: Reg, exit: u32 },
    /// The end of inlined code: sets `count` registers from `first` to `None` and ends `loops`
    /// loop states from `first_loop`, as dropping the callee's frame would.
    Clear { first: Reg, count: u32, first_loop: u32, loops: u32 },
}

/// An `except` clause: an error raised by an instruction in `start..end` whose kind is in
/// `kinds` (bit `1 << kind`) continues at `target`, with its message in register `bind` (the
/// `as e` variable) unless that is [`NO_REG`], and the error itself in `keep` (for a bare
/// `raise`) unless that is `NO_REG`. A `finally` clause catches every error, a Python callback's
/// exception too, which an `except` clause never catches. A function lists inner clauses
/// before outer ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handler {
    /// The first instruction of the `try` body.
    pub start: u32,
    /// One past its last instruction.
    pub end: u32,
    /// The first instruction of the clause's body.
    pub target: u32,
    /// One past the last instruction of the clause's body: an error raised in
    /// `target..body_end` that leaves the clause deletes its `as` variable, as CPython does.
    pub body_end: u32,
    /// The error kinds it catches, one bit each.
    pub kinds: u32,
    /// The register given the error's text (`Error::caught_text`), or [`NO_REG`].
    pub bind: Reg,
    /// The register given the error, to raise it again (`Inst::Reraise`), or [`NO_REG`].
    pub keep: Reg,
    /// Whether this is a `finally:` block's catch-all clause.
    pub finally: bool,
}

impl Handler {
    /// Whether the clause catches `e`, raised at instruction `pc`.
    pub fn catches(&self, pc: u32, e: &Error) -> bool {
        (self.start..self.end).contains(&pc)
            && (self.finally || (e.caught_text().is_some() && self.kinds & (1 << e.kind() as u32) != 0))
    }
}

/// Code of a called function copied into its caller (see `inline`), for error locations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inlined {
    /// The first instruction of the callee's body.
    pub start: u32,
    /// One past its last instruction.
    pub end: u32,
    /// The callee's index in the program.
    pub func: u32,
    /// The callee's label (`function 'f'`).
    pub label: String,
    /// The caller's line of the call.
    pub call_line: u32,
}

/// A compiled function.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name (`unicode_split_any`, or `main` for a pipeline's steps).
    pub name: String,
    /// How it is named in errors (`function 'f'`, `pipeline 'bert'`).
    pub label: String,
    /// Number of parameters; they occupy the first registers.
    pub n_params: u32,
    /// Registers in a frame.
    pub n_regs: u32,
    /// Loop slots in a frame.
    pub n_loops: u32,
    /// The code.
    pub code: Vec<Inst>,
    /// The source line of each instruction.
    pub lines: Vec<u32>,
    /// What each line is called in errors (a step name), when not plain `line N`.
    pub line_labels: Vec<(u32, String)>,
    /// Operand lists of calls and builds.
    pub operands: Vec<Reg>,
    /// Constants.
    pub consts: Vec<Slot>,
    /// Registered ops called, with their names.
    pub ops: Vec<(String, PackedFunc)>,
    /// Register names, for `anyproc check` listings (`None` for temporaries).
    pub reg_names: Vec<Option<String>>,
    /// Set when the body has a shape that runs without a frame (a single op call, a list of a
    /// parameter's elements).
    pub direct: Option<Direct>,
    /// Whether its code calls no function of the program (`CallUser`): a call of it from a
    /// script adds one bounded frame, so it needs no stack check of its own.
    pub leaf: bool,
    /// The calls inlined into its code.
    pub inlined: Vec<Inlined>,
    /// The default values of its last parameters, for calls from outside that leave them out
    /// (calls compiled in the program pass them explicitly).
    pub defaults: Vec<Slot>,
    /// How many of its first parameters are the enclosing function's variables a lambda reads
    /// (see `lambdas`): a call from outside passes only the rest.
    pub n_captured: u32,
    /// Its `except` clauses, inner ones first.
    pub handlers: Vec<Handler>,
    /// Whether it is a generator function (its body has a `yield`): a call of it makes a
    /// generator, which runs the body as items are asked for.
    pub generator: bool,
    /// Its parameters beyond positional ones with defaults at the end (`*args`, keyword-only,
    /// `**kwargs`, positional-only), which a call from outside binds through.
    pub shape: Option<Box<Shape>>,
}

/// How a function with `*args`, keyword-only, `**kwargs` or positional-only parameters takes
/// its arguments. Its registers are its positional parameters, then `*args`, the keyword-only
/// ones and `**kwargs`.
#[derive(Clone, Debug)]
pub struct Shape {
    /// How many parameters take positional arguments.
    pub n_positional: u32,
    /// How many of those are positional-only.
    pub n_posonly: u32,
    /// Whether a `*args` register (a tuple of the extra positional arguments) follows them.
    pub vararg: bool,
    /// The keyword-only parameters' names.
    pub kwonly: Vec<String>,
    /// Their defaults (`None` where one must be given).
    pub kw_defaults: Vec<Option<Slot>>,
    /// Whether a `**kwargs` register (a dict of the extra keyword arguments) comes last.
    pub kwarg: bool,
}

impl Shape {
    /// The shape of a function of `n` positional parameters and nothing else.
    pub fn plain(n: u32) -> Shape {
        Shape {
            n_positional: n,
            n_posonly: 0,
            vararg: false,
            kwonly: Vec::new(),
            kw_defaults: Vec::new(),
            kwarg: false,
        }
    }
}

impl Function {
    /// Where instruction `pc` is, for error messages: `function 'f', line 3` or `step 'encode' (line 12)`.
    pub fn location(&self, pc: usize) -> String {
        self.location_of_line(self.lines.get(pc).copied().unwrap_or(0))
    }

    /// Whether its code calls no function of the program (what [`Self::leaf`] records).
    pub fn calls_no_function(&self) -> bool {
        !self.code.iter().any(|i| matches!(i, Inst::CallUser { .. } | Inst::CallUserKeywords { .. }))
    }

    /// Adds where instruction `pc` is to an error. In inlined code that is the callee's line,
    /// then the caller's line of the call, the two frames a real call adds.
    pub fn locate(&self, pc: usize, e: Error) -> Error {
        match self.inlined.iter().find(|site| (site.start..site.end).contains(&(pc as u32))) {
            Some(site) => {
                let line = self.lines.get(pc).copied().unwrap_or(0);
                e.context(format!("{}, line {line}", site.label)).context(self.location_of_line(site.call_line))
            }
            None => e.context(self.location(pc)),
        }
    }

    /// Where source line `line` of this function is: `function 'f', line 3` or `step 'encode' (line 12)`.
    fn location_of_line(&self, line: u32) -> String {
        match self.line_labels.iter().find(|(l, _)| *l == line) {
            Some((_, label)) => format!("{label} (line {line})"),
            None => format!("{}, line {line}", self.label),
        }
    }

    fn reg(&self, r: Reg) -> String {
        match self.reg_names.get(r as usize) {
            Some(Some(name)) => format!("%{r}:{name}"),
            _ => format!("%{r}"),
        }
    }

    fn regs(&self, ops: Operands) -> String {
        ops.of(self).iter().map(|&r| self.reg(r)).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for Function {
    /// The listing `anyproc check` prints: one instruction per line with its source line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} ({} params, {} registers, {} loop slots):",
            self.label, self.n_params, self.n_regs, self.n_loops
        )?;
        for (pc, inst) in self.code.iter().enumerate() {
            let r = |x: Reg| self.reg(x);
            let text = match *inst {
                Inst::Const { dst, index } => format!("{} = const {:?}", r(dst), self.consts[index as usize]),
                Inst::Move { dst, src } => format!("{} = {}", r(dst), r(src)),
                Inst::Unary { op, dst, src } => format!("{} = {op:?} {}", r(dst), r(src)),
                Inst::Binary { op, dst, a, b, in_place } => {
                    format!("{} = {} {}{} {}", r(dst), r(a), op.symbol(), if in_place { "=" } else { "" }, r(b))
                }
                Inst::Compare { op, dst, a, b } => format!("{} = {} {} {}", r(dst), r(a), op.symbol(), r(b)),
                Inst::Jump { to } => format!("jump {to}"),
                Inst::JumpIfFalse { cond, to } => format!("if not {}: jump {to}", r(cond)),
                Inst::JumpIfTrue { cond, to } => format!("if {}: jump {to}", r(cond)),
                Inst::GetItem { dst, obj, key } => format!("{} = {}[{}]", r(dst), r(obj), r(key)),
                Inst::SetItem { obj, key, value } => format!("{}[{}] = {}", r(obj), r(key), r(value)),
                Inst::Slice { dst, obj, bounds } => format!("{} = {}[{}]", r(dst), r(obj), self.regs(bounds)),
                Inst::BuildList { dst, items } => format!("{} = [{}]", r(dst), self.regs(items)),
                Inst::BuildTuple { dst, items } => format!("{} = ({})", r(dst), self.regs(items)),
                Inst::BuildDict { dst, items } => format!("{} = dict({})", r(dst), self.regs(items)),
                Inst::BuildSet { dst, items, layout } => {
                    format!("{} = set({}){}", r(dst), self.regs(items), layout.suffix())
                }
                Inst::Unpack { src, targets } => format!("{} = unpack {}", self.regs(targets), r(src)),
                Inst::UnpackStar { src, targets, star } => {
                    format!("{} = unpack {} (*{star})", self.regs(targets), r(src))
                }
                Inst::CallOp { dst, op, args } => {
                    format!("{} = op {}({})", r(dst), self.ops[op as usize].0, self.regs(args))
                }
                Inst::CallValue { dst, callee, args } => {
                    format!("{} = call {}({})", r(dst), r(callee), self.regs(args))
                }
                Inst::CallUser { dst, func, args } => format!("{} = call fn#{func}({})", r(dst), self.regs(args)),
                Inst::CallUserKeywords { dst, func, args } => {
                    format!("{} = call fn#{func} binding({})", r(dst), self.regs(args))
                }
                Inst::CallBuiltin { dst, builtin, args } => {
                    format!("{} = {}({})", r(dst), builtin.name(), self.regs(args))
                }
                Inst::CallMethod { dst, method, obj, args } => {
                    format!("{} = {}.{}({})", r(dst), r(obj), method.name(), self.regs(args))
                }
                Inst::CallKeyed { dst, call, args } => format!("{} = {}({})", r(dst), call.name(), self.regs(args)),
                Inst::CheckMethod { obj, method } => format!("check {} has .{}()", r(obj), method.name()),
                Inst::CheckReceiver { obj, method, ty } => {
                    let ty = super::methods::RECEIVER_TYPES[ty as usize];
                    format!("check {} is a {ty} for {ty}.{}()", r(obj), method.name())
                }
                Inst::Append { list, value } => format!("{}.append({})", r(list), r(value)),
                Inst::ExtendEach { list, seq, index, item } => {
                    let var = |x: Reg| if x == NO_REG { "-".to_string() } else { r(x) };
                    format!(
                        "{}.extend({}) (index {}, item {}), or skip the next",
                        r(list),
                        r(seq),
                        var(index),
                        var(item)
                    )
                }
                Inst::FuncRef { dst, func } => format!("{} = fn#{func}", r(dst)),
                Inst::Bind { dst, func, args } => format!("{} = fn#{func} bound to ({})", r(dst), self.regs(args)),
                Inst::IterStart { slot, src } => format!("loop{slot} = iter {}", r(src)),
                Inst::IterView { slot, src, view } => format!("loop{slot} = iter {} ({view:?})", r(src)),
                Inst::RangeStart { slot, start, stop, step } => {
                    format!("loop{slot} = range({}, {}, {})", r(start), r(stop), r(step))
                }
                Inst::ForNext { slot, dst, body } => format!("{} = next loop{slot} and jump {body}, or end", r(dst)),
                Inst::ForNextItem { slot, key, value, body } => {
                    format!("{}, {} = next loop{slot} and jump {body}, or end", r(key), r(value))
                }
                Inst::GuardReset { slot } => format!("loop{slot} = counter 0"),
                Inst::Guard { slot } => format!("loop{slot} += 1 (capped)"),
                Inst::Unbind { dst } => format!("{} = unbound", r(dst)),
                Inst::CellNew { dst, src } => format!("{} = cell({})", r(dst), r(src)),
                Inst::CellGet { dst, cell } => format!("{} = {}.contents", r(dst), r(cell)),
                Inst::CellSet { cell, src } => format!("{}.contents = {}", r(cell), r(src)),
                Inst::DefaultFill { dst, src } => format!("{} = {} if left out", r(dst), r(src)),
                Inst::CheckBound { reg, .. } => format!("check {} is bound", r(reg)),
                Inst::Return { src } => format!("return {}", r(src)),
                Inst::Yield { src } => format!("yield {}", r(src)),
                Inst::Raise { kind, value } if value == NO_REG => format!("raise {}", kind.name()),
                Inst::Raise { kind, value } => format!("raise {}({})", kind.name(), r(value)),
                Inst::RaiseValue { src, cause } if cause == NO_REG => format!("raise {}", r(src)),
                Inst::RaiseValue { src, cause } => format!("raise {} from {}", r(src), r(cause)),
                Inst::Reraise { src } => format!("reraise {}", r(src)),
                Inst::DelItem { obj, key } => format!("del {}[{}]", r(obj), r(key)),
                Inst::ReturnTo { dst, src, exit } => format!("{} = {} and jump {exit} (return)", r(dst), r(src)),
                Inst::Clear { first, count, first_loop, loops } => {
                    format!("clear %{first}..%{}, loop{first_loop}..loop{}", first + count, first_loop + loops)
                }
            };
            writeln!(f, "  {pc:4}  [line {:3}]  {text}", self.lines[pc])?;
        }
        if let Some(direct) = &self.direct {
            writeln!(f, "  ({})", direct.describe(self))?;
        }
        for site in &self.inlined {
            writeln!(
                f,
                "  (fn#{} inlined at {}..{}, the call on line {})",
                site.func, site.start, site.end, site.call_line
            )?;
        }
        for h in &self.handlers {
            let bind = if h.bind == NO_REG { String::new() } else { format!(" as %{}", h.bind) };
            let kinds = if h.finally { "every error".to_string() } else { format!("errors of kinds {:#x}", h.kinds) };
            let keep = if h.keep == NO_REG { String::new() } else { format!(", kept in %{}", h.keep) };
            writeln!(f, "  ({kinds} at {}..{} continue at {}{bind}{keep})", h.start, h.end, h.target)?;
        }
        Ok(())
    }
}

/// Compiled functions; index 0 is the entry point.
#[derive(Clone, Debug)]
pub struct Program {
    /// The functions.
    pub functions: Vec<Function>,
    /// The most iterations one `while` loop may run before it is stopped as endless, and the
    /// most items a `for` loop over a list may take that its body added.
    pub while_limit: u64,
    /// The deepest call nesting allowed (recursion beyond it is an error, not a crash).
    pub max_depth: u32,
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, func) in self.functions.iter().enumerate() {
            write!(f, "fn#{i} {func}")?;
        }
        Ok(())
    }
}

const _: () = assert!(std::mem::size_of::<Inst>() <= 20);
