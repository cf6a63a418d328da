//! Lowering anyscript's syntax tree to the register IR.
//!
//! Names are resolved once, here: a local is a register, a global is a
//! constant, `text.lower(x)` (or `ops.text.lower(x)`) is a registered op
//! looked up now and checked for arity, `f(x)` is a call to a function of the
//! same program, `len(x)` a builtin, `x.lower()` a method.

use super::Slot;
use super::append_loop::{AppendLoop, Scope};
use super::ast::{BinOp, BoolOp, CmpOp, DOUBLE_STAR, Expr, FunctionDef, Keyword, Literal, Stmt, StmtKind, Target};
use super::builtins::Builtin;
use super::direct::Direct;
use super::exception_value::{exception_class, is_class_name};
use super::inline::inline_leaf_calls;
use super::ir::{Function, Inst, Operands, Program, Reg, Shape};
use super::iterate::DictView;
use super::methods::Method;
use super::set_ops::SetLayout;
use super::unbound::{bound_by_statements, maybe_unbound};
use crate::error::{Error, ErrorKind, Result};
use crate::func::registry;
use crate::{FromAny, PackedFunc};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

mod calls;
mod constants;
mod displays;

pub use constants::module_globals;
mod exceptions;
mod generators;
mod lazy_generators;
mod nested;
mod raising;
mod shaped;
mod spread;
mod star_ops;
mod yields;

/// Values a program can read by name without defining them: resources, constants, init results.
pub type Globals = indexmap::IndexMap<String, Slot>;

/// Limits a compiled program runs under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Iterations one `while` loop may run, and items a `for` loop over a list may take beyond
    /// the list's length when the loop started (items its body added).
    pub while_limit: u64,
    /// Deepest call nesting.
    pub max_depth: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { while_limit: 10_000_000, max_depth: 200 }
    }
}

/// Compiles `functions` (the first is the entry point) against `globals`.
///
/// `labels` names source lines in errors (a pipeline step's line → `step 'encode'`).
pub fn compile(
    functions: &[FunctionDef],
    globals: &Globals,
    limits: Limits,
    labels: &[(u32, String)],
) -> Result<Program> {
    // A compiler bug must not take the caller down (or cross into Python as a panic): it
    // becomes an error that names itself as one.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile_unguarded(functions, globals, limits, labels)))
        .unwrap_or_else(|payload| {
            Err(Error::runtime(format!(
                "internal error: the compiler panicked ({}); please report the program",
                crate::error::panic_message(&*payload)
            )))
        })
}

fn compile_unguarded(
    functions: &[FunctionDef],
    globals: &Globals,
    limits: Limits,
    labels: &[(u32, String)],
) -> Result<Program> {
    let mut by_name = HashMap::new();
    for (i, f) in functions.iter().enumerate() {
        let sig = Signature {
            index: i as u32,
            params: f.params.iter().map(String::as_str).collect(),
            defaults: defaults_of(f)?,
            shape: shaped::shape_of(f)?,
        };
        if by_name.insert(f.name.as_str(), sig).is_some() {
            return Err(Error::new(
                ErrorKind::Parse,
                format!("line {}: function '{}' is defined twice", f.line, f.name),
            ));
        }
    }
    let module = ModuleScope {
        functions: by_name,
        globals,
        lifted: RefCell::new(Vec::new()),
        first_lifted: functions.len() as u32,
    };
    let mut out = Vec::with_capacity(functions.len());
    for def in functions {
        let shape = module.functions[def.name.as_str()].shape.clone().map(Box::new);
        let plain = shaped::with_registers(def);
        let def = yields::lowered(&plain)?;
        let mut compiler = FnCompiler::new(&module, &def, labels);
        compiler.f.shape = shape;
        out.push(compiler.compile(&def)?);
    }
    // Lambdas and nested functions, found while compiling the functions that contain them.
    let mut next = 0;
    loop {
        // Taken out of the list first: compiling one may add those inside it.
        let pending = module.lifted.borrow().get(next).cloned();
        let Some(lifted) = pending else { break };
        let def = yields::lowered(&lifted.def)?;
        let mut inner = FnCompiler::new(&module, &def, labels);
        inner.f.n_captured = lifted.n_captured as u32;
        inner.f.defaults = lifted.defaults;
        inner.f.shape = lifted.shape.map(Box::new);
        inner.free_maybe_unbound = lifted.maybe_unbound;
        inner.free_undefined = lifted.undefined;
        inner.own = lifted.own_name.map(|name| (name, module.first_lifted + next as u32));
        out.push(inner.compile(&def)?);
        next += 1;
    }
    let mut program = Program { functions: out, while_limit: limits.while_limit, max_depth: limits.max_depth };
    inline_leaf_calls(&mut program);
    Ok(program)
}

/// The defaults of `f`'s last parameters, evaluated once.
fn defaults_of(f: &FunctionDef) -> Result<Vec<Slot>> {
    if f.defaults.len() > f.params.len() {
        return Err(err(f.line, ErrorKind::Parse, format!("function '{}' has more defaults than parameters", f.name)));
    }
    let first = f.params.len() - f.defaults.len();
    f.defaults.iter().zip(&f.params[first..]).map(|(d, p)| shaped::constant_default(f, p, d)).collect()
}

/// What calls of a module function need to know of it.
struct Signature<'a> {
    /// Its index in the program.
    index: u32,
    /// Its parameters' names.
    params: Vec<&'a str>,
    /// The values of its last parameters' defaults.
    defaults: Vec<Slot>,
    /// Its other kinds of parameters, if it has any.
    shape: Option<Shape>,
}

struct ModuleScope<'a> {
    functions: HashMap<&'a str, Signature<'a>>,
    globals: &'a Globals,
    /// The lambdas and nested functions found so far; the `i`th is function `first_lifted + i`
    /// of the program.
    lifted: RefCell<Vec<Lifted>>,
    first_lifted: u32,
}

/// A lambda or nested function, made a function of the module.
#[derive(Clone)]
struct Lifted {
    /// Its parameters are the enclosing variables it reads, then its own.
    def: FunctionDef,
    /// How many enclosing variables it reads.
    n_captured: usize,
    /// Those of them that may be unassigned when it is made.
    maybe_unbound: Vec<String>,
    /// Those of them that to CPython are no variable of the enclosing function (see
    /// `captured_values`): a read raises "name is not defined".
    undefined: Vec<String>,
    /// The values of its last parameters' defaults.
    defaults: Vec<Slot>,
    /// The name a nested function that reads its own name has in its source.
    own_name: Option<String>,
    /// Its other kinds of parameters, if it has any.
    shape: Option<Shape>,
}

impl ModuleScope<'_> {
    /// Adds the function a lambda or nested function compiles to; returns its index in the
    /// program.
    fn add_lifted(&self, lifted: Lifted) -> u32 {
        let mut all = self.lifted.borrow_mut();
        all.push(lifted);
        self.first_lifted + all.len() as u32 - 1
    }
}

/// The jumps of a loop's `break`s and `continue`s, patched when the loop ends.
#[derive(Default)]
struct LoopCtx {
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

/// A `try` body with a `finally:` block being compiled: the `return`, `break` and `continue`
/// jumps that leave it, which go through a copy of the block first (`compile/exceptions.rs`).
struct FinallyCtx {
    /// How many loops were open when the `try` began: a `break` in a loop opened inside the
    /// body stays inside it.
    loops: usize,
    /// The register a `return` leaves its value in before its copy of the block runs.
    ret: Reg,
    returns: Vec<usize>,
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

struct FnCompiler<'a> {
    module: &'a ModuleScope<'a>,
    f: Function,
    locals: HashMap<String, Reg>,
    next_temp: u32,
    loops: Vec<LoopCtx>,
    loop_depth: u32,
    line: u32,
    /// Locals some read may find unassigned: they start unbound and their reads are checked.
    maybe_unbound: HashSet<String>,
    /// Locals assigned by a statement (not only as a comprehension's variable).
    statement_bound: HashSet<String>,
    /// Comprehensions being compiled around the current expression.
    comprehension_depth: u32,
    /// A lambda's parameters that stand for the enclosing function's variables which may be
    /// unassigned when the lambda is made: a read raises CPython's free-variable `NameError`.
    free_maybe_unbound: Vec<String>,
    /// A lambda's parameters that stand for names CPython does not find in the enclosing
    /// function (a comprehension's variable read outside it): a read raises its `NameError`.
    free_undefined: Vec<String>,
    /// The `try` bodies with a `finally:` around the current statement, innermost last.
    finallys: Vec<FinallyCtx>,
    /// The registers holding the errors that the `except` clauses around the current statement
    /// caught (for a bare `raise`), innermost last.
    clause_errors: Vec<Reg>,
    /// How many copies of `finally:` blocks are being compiled around the current statement.
    finally_nesting: u32,
    /// A nested function's name in its source and its index, when it reads its own name.
    own: Option<(String, u32)>,
    /// The lambdas of the function's statements by line, each with whether it may read this
    /// function's variables wherever it goes: none of those variables can change once the
    /// lambda is made (`compile/nested.rs`). Found by value, not place: `map(lambda ...)` is
    /// compiled from a copy.
    frozen_lambdas: RefCell<Vec<(u32, Expr, bool)>>,
    /// How many assignments (a `def` is one) each local has in the function's source.
    assignment_counts: HashMap<String, usize>,
    /// The nested functions defined so far whose calls by name are direct calls.
    nested_callees: HashMap<String, nested::NestedCallee>,
}

fn err(line: u32, kind: ErrorKind, msg: impl Into<String>) -> Error {
    Error::new(kind, format!("line {line}: {}", msg.into()))
}

/// An error for keyword arguments in a call of `callee`, which takes none that anyscript knows
/// (a registered op, a function value).
fn no_keywords(line: u32, callee: &str, keywords: &[Keyword]) -> Result<()> {
    match keywords.first() {
        None => Ok(()),
        Some(k) => Err(err(
            line,
            ErrorKind::Parse,
            format!(
                "keyword argument '{}' in a call of {callee}: anyscript passes keywords only to its own functions, built-ins and methods",
                k.arg
            ),
        )),
    }
}

/// Every name a function assigns anywhere is local to it, as in Python.
pub(crate) fn collect_assigned(body: &[Stmt], out: &mut Vec<String>) {
    fn target(t: &Target, out: &mut Vec<String>) {
        match t {
            Target::Name { id } => out.push(id.clone()),
            Target::Tuple { items } => items.iter().for_each(|t| target(t, out)),
            Target::Starred { value } => target(value, out),
            // `c[[x for x in c][0]] = 1`: the comprehension's variable is assigned too.
            Target::Subscript { value, index } => {
                expr(value, out);
                expr(index, out);
            }
            Target::Slice { value, lower, upper, step } => {
                expr(value, out);
                [lower, upper, step].into_iter().flatten().for_each(|b| expr(b, out));
            }
        }
    }
    fn expr(e: &Expr, out: &mut Vec<String>) {
        // Comprehension variables live in the function's frame (Python gives them their own
        // scope); a read after the comprehension is compiled as CPython sees it (`load_name`).
        match e {
            _ if let Some(comp) = e.comprehension() => comp.clauses().for_each(|(t, _, _)| target(t, out)),
            // A lambda's comprehension variables are the lambda's own.
            Expr::Lambda { .. } => return,
            Expr::Named { target, .. } => out.push(target.clone()),
            _ => {}
        }
        visit_children(e, &mut |c| expr(c, out));
    }
    for s in body {
        match &s.kind {
            StmtKind::Assign { targets, value } => {
                targets.iter().for_each(|t| target(t, out));
                expr(value, out);
            }
            StmtKind::AugAssign { target: t, value, .. } | StmtKind::For { target: t, iter: value, .. } => {
                target(t, out);
                expr(value, out);
            }
            StmtKind::If { test, .. } | StmtKind::While { test, .. } => expr(test, out),
            StmtKind::Expr { value } => expr(value, out),
            StmtKind::Return { value: Some(v) } => expr(v, out),
            StmtKind::Raise { value, cause, .. } => value.iter().chain(cause).for_each(|v| expr(v, out)),
            StmtKind::Yield { value: Some(v) } | StmtKind::YieldFrom { value: v } => expr(v, out),
            StmtKind::Assert { test, msg } => {
                expr(test, out);
                msg.iter().for_each(|m| expr(m, out));
            }
            // As in Python, `del x` makes `x` local (anyscript refuses it when compiling).
            StmtKind::Delete { targets } => targets.iter().for_each(|t| target(t, out)),
            StmtKind::Try { handlers, .. } => handlers.iter().for_each(|h| out.extend(h.name.iter().cloned())),
            StmtKind::Def { function } => out.push(function.name.clone()),
            _ => {}
        }
        s.kind.blocks().into_iter().for_each(|b| collect_assigned(b, out));
    }
}

/// Calls `f` on each direct sub-expression of `e`.
pub fn visit_children<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    match e {
        Expr::Const { .. } | Expr::Name { .. } => {}
        Expr::Attribute { value, .. } => f(value),
        Expr::Call { func, args, keywords } => {
            f(func);
            args.iter().for_each(&mut *f);
            keywords.iter().for_each(|k| f(&k.value));
        }
        Expr::BinOp { left, right, .. } => {
            f(left);
            f(right);
        }
        Expr::UnaryOp { operand, .. } => f(operand),
        Expr::BoolOp { values, .. } => values.iter().for_each(f),
        Expr::Compare { left, comparators, .. } => {
            f(left);
            comparators.iter().for_each(f);
        }
        Expr::IfExp { test, body, orelse } => {
            f(test);
            f(body);
            f(orelse);
        }
        Expr::List { items } | Expr::Tuple { items } | Expr::Set { items } => items.iter().for_each(f),
        Expr::Dict { keys, values } => {
            keys.iter().flatten().for_each(&mut *f);
            values.iter().for_each(f);
        }
        Expr::Subscript { value, index } => {
            f(value);
            f(index);
        }
        Expr::Slice { value, lower, upper, step } => {
            f(value);
            [lower, upper, step].into_iter().flatten().for_each(|b| f(b));
        }
        Expr::ListComp { .. } | Expr::SetComp { .. } | Expr::GeneratorExp { .. } | Expr::DictComp { .. } => {
            let comp = generators::comprehension(e);
            comp.elements().for_each(&mut *f);
            for (_, iter, ifs) in comp.clauses() {
                f(iter);
                ifs.iter().for_each(&mut *f);
            }
        }
        Expr::Lambda { body, .. } => f(body),
        Expr::Named { value, .. } => f(value),
        Expr::Starred { value } => f(value),
    }
}

/// `str.lower` and its kin: a type's method called through the type, its receiver the first
/// argument (the static methods excepted).
fn unbound_method(path: &str) -> Option<(Method, u8)> {
    let (ty, name) = path.split_once('.')?;
    let method = Method::from_name(name)?;
    let ty = crate::pipeline::methods::RECEIVER_TYPES.iter().position(|t| *t == ty)?;
    let static_one = matches!(method, Method::Maketrans | Method::Fromkeys);
    (!static_one).then_some((method, ty as u8))
}

/// `str.maketrans(...)` and `dict.fromkeys(...)`: a type's static method, and an empty value of
/// the type to call it on (the method reads only its arguments).
fn static_method(path: &str) -> Option<(Method, Slot)> {
    match path {
        "str.maketrans" => Some((Method::Maketrans, Slot::from_text(""))),
        "dict.fromkeys" => Some((Method::Fromkeys, Slot::from(crate::Dict::new()))),
        _ => None,
    }
}

/// The dotted path of `a.b.c` when it is made of names only.
fn dotted_path(e: &Expr) -> Option<(String, &str)> {
    match e {
        Expr::Name { id } => Some((id.clone(), id.as_str())),
        Expr::Attribute { value, attr } => {
            let (path, root) = dotted_path(value)?;
            Some((format!("{path}.{attr}"), root))
        }
        _ => None,
    }
}

/// (min, max) argument counts from a registered signature such as `(str, bool=False) -> list`.
pub fn signature_arity(signature: &str) -> Option<(usize, usize)> {
    let inner = signature.strip_prefix('(')?;
    let mut depth = 0usize;
    let end = inner.char_indices().find_map(|(i, c)| match c {
        '(' | '[' => {
            depth += 1;
            None
        }
        ')' | ']' if depth > 0 => {
            depth -= 1;
            None
        }
        ')' => Some(i),
        _ => None,
    })?;
    let params = inner[..end].trim();
    if params.is_empty() {
        return Some((0, 0));
    }
    let (mut min, mut max) = (0, 0);
    for p in params.split(',').map(str::trim) {
        if p.starts_with('*') {
            return Some((min, usize::MAX));
        }
        max += 1;
        if !p.contains('=') {
            min += 1;
        }
    }
    Some((min, max))
}

/// The error of a call of op `name` with `given` arguments where it takes `min..=max`, if that
/// is wrong. A function of Python's `math` and `unicodedata` modules is worded as CPython words
/// it (`math.sqrt() takes exactly one argument (2 given)`, `pow expected 2 arguments, got 1`).
fn op_arity_error(name: &str, (min, max): (usize, usize), given: usize) -> Option<crate::Error> {
    if given >= min && given <= max {
        return None;
    }
    if name == "math.log" {
        return Some(crate::Error::new(ErrorKind::Type, "math.log requires 1 to 2 arguments"));
    }
    if let Some(short) = name.strip_prefix("math.").or_else(|| name.strip_prefix("unicodedata.")) {
        return Some(crate::pipeline::methods::arity_error(name, short, (min, max), given));
    }
    let wanted = match (min, max) {
        (a, b) if a == b => format!("{a}"),
        (a, usize::MAX) => format!("at least {a}"),
        (a, b) => format!("{a} to {b}"),
    };
    Some(crate::Error::new(ErrorKind::Arity, format!("{name} takes {wanted} arguments, {given} given")))
}

/// CPython's error for `list.sort` given a positional argument.
const SORT_POSITIONAL: &str = "sort() takes no positional arguments";

impl<'a> FnCompiler<'a> {
    fn new(module: &'a ModuleScope<'a>, def: &FunctionDef, labels: &[(u32, String)]) -> Self {
        let mut locals = HashMap::new();
        let mut reg_names = Vec::new();
        let mut assigned = def.params.clone();
        collect_assigned(&def.body, &mut assigned);
        let mut assignment_counts = HashMap::new();
        assigned.iter().for_each(|n| *assignment_counts.entry(n.clone()).or_insert(0) += 1);
        for name in assigned {
            if !locals.contains_key(&name) {
                locals.insert(name.clone(), locals.len() as Reg);
                reg_names.push(Some(name));
            }
        }
        let n_locals = locals.len() as u32;
        let maybe_unbound = maybe_unbound(&def.params, &def.body, &|id| locals.contains_key(id));
        let statement_bound = bound_by_statements(&def.params, &def.body);
        let f = Function {
            name: def.name.clone(),
            label: format!("function '{}'", def.name),
            n_params: def.params.len() as u32,
            n_regs: n_locals,
            n_loops: 0,
            code: Vec::new(),
            lines: Vec::new(),
            line_labels: labels.to_vec(),
            operands: Vec::new(),
            consts: Vec::new(),
            ops: Vec::new(),
            reg_names,
            direct: None,
            leaf: false,
            inlined: Vec::new(),
            defaults: module.functions.get(def.name.as_str()).map_or_else(Vec::new, |s| s.defaults.clone()),
            n_captured: 0,
            handlers: Vec::new(),
            generator: yields::has_yield(&def.body),
            shape: None,
        };
        FnCompiler {
            module,
            f,
            locals,
            next_temp: n_locals,
            loops: Vec::new(),
            loop_depth: 0,
            line: def.line,
            maybe_unbound,
            statement_bound,
            comprehension_depth: 0,
            free_maybe_unbound: Vec::new(),
            free_undefined: Vec::new(),
            finallys: Vec::new(),
            clause_errors: Vec::new(),
            finally_nesting: 0,
            own: None,
            frozen_lambdas: RefCell::default(),
            assignment_counts,
            nested_callees: HashMap::new(),
        }
    }

    fn compile(mut self, def: &FunctionDef) -> Result<Function> {
        let mut seen = std::collections::HashSet::new();
        for p in &def.params {
            if !seen.insert(p) {
                return Err(err(
                    def.line,
                    ErrorKind::Parse,
                    format!("duplicate parameter '{p}' in function '{}'", def.name),
                ));
            }
        }
        let mut unbound: Vec<Reg> = self.maybe_unbound.iter().map(|id| self.locals[id]).collect();
        unbound.sort_unstable();
        for dst in unbound {
            self.emit(Inst::Unbind { dst });
        }
        // Name where a compile error is: the step for a pipeline's steps, else the function.
        self.check_nested_defs(&def.body).and_then(|()| self.block(&def.body)).map_err(|e| {
            let label = self.f.line_labels.iter().find(|(l, _)| *l == self.line).map(|(_, label)| label.clone());
            e.context(label.unwrap_or_else(|| self.f.label.clone()))
        })?;
        let none = self.constant(Slot::default());
        self.emit(Inst::Return { src: none });
        // A generator's call makes a generator: it has no frameless form.
        self.f.direct = if self.f.generator { None } else { Direct::recognize(&self.f) };
        self.f.leaf = self.f.calls_no_function();
        Ok(self.f)
    }

    // ---- emission helpers -------------------------------------------------------------------

    fn emit(&mut self, inst: Inst) -> usize {
        self.f.code.push(inst);
        self.f.lines.push(self.line);
        self.f.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.f.code.len() as u32
    }

    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.f.code[at] {
            Inst::Jump { to } | Inst::JumpIfFalse { to, .. } | Inst::JumpIfTrue { to, .. } => *to = target,
            other => unreachable!("patching a non-jump {other:?}"),
        }
    }

    fn temp(&mut self) -> Reg {
        let r = self.next_temp;
        self.next_temp += 1;
        if self.next_temp > self.f.n_regs {
            self.f.n_regs = self.next_temp;
            self.f.reg_names.push(None);
        }
        r
    }

    fn operands(&mut self, regs: &[Reg]) -> Operands {
        let start = self.f.operands.len() as u32;
        self.f.operands.extend_from_slice(regs);
        Operands { start, len: regs.len() as u32 }
    }

    fn constant(&mut self, value: Slot) -> Reg {
        let index = self.f.consts.len() as u32;
        self.f.consts.push(value);
        let dst = self.temp();
        self.emit(Inst::Const { dst, index });
        dst
    }

    fn literal(lit: &Literal) -> Slot {
        match lit {
            Literal::None => Slot::default(),
            Literal::Bool(b) => Slot::from(*b),
            Literal::Int(i) => Slot::from(*i),
            Literal::Float(x) => Slot::from(*x),
            Literal::Str(s) => Slot::from_text(s),
            Literal::Bytes(b) => Slot::from_bytes(b),
        }
    }

    // ---- statements -------------------------------------------------------------------------

    fn block(&mut self, body: &[Stmt]) -> Result<()> {
        body.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<()> {
        self.line = s.line;
        // Temporaries live for one statement; loops keep their state in loop slots instead.
        let saved_temp = self.next_temp;
        let result = self.stmt_kind(&s.kind);
        self.next_temp = saved_temp;
        result
    }

    /// Python finds a method before it evaluates the call's arguments: when an argument may
    /// fail (or run anything), the receiver's type is checked first. Constants and names that
    /// are surely bound cannot fail.
    fn check_method_first(&mut self, obj: Reg, method: Method, args: &[Expr]) {
        let cannot_fail = |a: &Expr| match a {
            Expr::Const { .. } => true,
            Expr::Name { id } => !self.maybe_unbound.contains(id),
            _ => false,
        };
        if !args.iter().all(cannot_fail) {
            self.emit(Inst::CheckMethod { obj, method });
        }
    }

    fn stmt_kind(&mut self, kind: &StmtKind) -> Result<()> {
        match kind {
            StmtKind::Expr { value } => {
                // `xs.append(x)` as a statement: its None result is not needed.
                if let Expr::Call { func, args, keywords } = value
                    && keywords.is_empty()
                    && let Expr::Attribute { value: obj, attr } = func.as_ref()
                    && attr == "append"
                    && args.len() == 1
                    && !matches!(args[0], Expr::Starred { .. })
                    && self.calls_a_method(func)
                {
                    let list = self.expr(obj, None)?;
                    self.check_method_first(list, Method::Append, args);
                    let value = self.expr(&args[0], None)?;
                    self.emit(Inst::Append { list, value });
                } else {
                    self.expr(value, None)?;
                }
            }
            StmtKind::Assign { targets, value } => {
                if let [Target::Name { id }] = targets.as_slice() {
                    let dst = self.locals[id];
                    self.expr(value, Some(dst))?;
                } else {
                    let v = self.expr_in_temp(value)?;
                    for t in targets {
                        self.assign(t, v)?;
                    }
                }
            }
            StmtKind::AugAssign { target, op, value } => self.aug_assign(target, *op, value)?,
            StmtKind::If { test, body, orelse } => {
                let cond = self.expr(test, None)?;
                let jump_else = self.emit(Inst::JumpIfFalse { cond, to: 0 });
                self.block(body)?;
                if orelse.is_empty() {
                    let end = self.here();
                    self.patch(jump_else, end);
                } else {
                    let jump_end = self.emit(Inst::Jump { to: 0 });
                    let else_at = self.here();
                    self.patch(jump_else, else_at);
                    self.block(orelse)?;
                    let end = self.here();
                    self.patch(jump_end, end);
                }
            }
            StmtKind::For { target, iter, body, orelse } => {
                let line = self.line;
                // A fused loop has no `else:` block to run after it.
                let fused = if orelse.is_empty() { self.scope(|s| s.for_statement(target, iter, body)) } else { None };
                // The fused loop can only fail as its append would (a `MemoryError`): it is
                // located at the append, where CPython would raise it.
                let append_line = body.last().map_or(line, |s| s.line);
                let skip = fused.map(|a| {
                    self.line = append_line;
                    let skip = self.extend_each(a);
                    self.line = line;
                    skip
                });
                self.for_loop(target, iter, false, orelse, |c| {
                    c.block(body)?;
                    c.line = line;
                    Ok(())
                })?;
                self.patch_skip(skip);
            }
            StmtKind::While { test, body, orelse } => {
                let slot = self.enter_loop_slot();
                self.emit(Inst::GuardReset { slot });
                let top = self.here();
                let cond = self.expr(test, None)?;
                let exit = self.emit(Inst::JumpIfFalse { cond, to: 0 });
                // Counted once the condition lets an iteration run: `while_limit` iterations run,
                // and a loop that ends on its condition after exactly that many is not stopped.
                self.emit(Inst::Guard { slot });
                self.loops.push(LoopCtx::default());
                self.block(body)?;
                self.emit(Inst::Jump { to: top });
                let ended = self.here();
                self.patch(exit, ended);
                self.leave_loop(top, orelse)?;
            }
            StmtKind::Break => self.leave_iteration(true)?,
            StmtKind::Continue => self.leave_iteration(false)?,
            StmtKind::Pass => {}
            StmtKind::Raise { exc, value, cause } => self.raise(exc, value.as_ref(), cause.as_ref())?,
            StmtKind::Reraise => self.reraise()?,
            StmtKind::Def { function } => self.nested_def(function)?,
            StmtKind::Assert { test, msg } => self.assert(test, msg.as_ref())?,
            StmtKind::Delete { targets } => targets.iter().try_for_each(|t| self.delete(t))?,
            StmtKind::Try { body, handlers, orelse, finalbody } => {
                self.try_statement(body, handlers, orelse, finalbody)?
            }
            StmtKind::Return { value } => {
                let src = match value {
                    Some(v) => self.expr(v, None)?,
                    None => self.constant(Slot::default()),
                };
                self.return_value(src);
            }
            StmtKind::Yield { value } => {
                let src = match value {
                    Some(v) => self.expr(v, None)?,
                    None => self.constant(Slot::default()),
                };
                self.emit(Inst::Yield { src });
            }
            // Written as its loop before the function is compiled (`yields::lowered`).
            StmtKind::YieldFrom { .. } => {
                return Err(err(self.line, ErrorKind::Runtime, "internal error: a 'yield from' was not lowered"));
            }
        }
        Ok(())
    }

    fn enter_loop_slot(&mut self) -> u32 {
        let slot = self.loop_depth;
        self.loop_depth += 1;
        self.f.n_loops = self.f.n_loops.max(self.loop_depth);
        slot
    }

    /// Ends the innermost loop, whose code ends here: `continue`s jump to `continue_to`, then
    /// `orelse` (the loop's `else:` block) runs, which `break`s jump over.
    fn leave_loop(&mut self, continue_to: u32, orelse: &[Stmt]) -> Result<()> {
        let ctx = self.loops.pop().expect("loop context");
        for at in ctx.continues {
            self.patch(at, continue_to);
        }
        self.loop_depth -= 1;
        self.block(orelse)?;
        let end = self.here();
        for at in ctx.breaks {
            self.patch(at, end);
        }
        Ok(())
    }

    /// Whether the attribute `func` is a method of a value, not an op reached through a dotted
    /// path whose root names no variable (`ops.text.lower`, `text.lower`).
    fn calls_a_method(&self, func: &Expr) -> bool {
        dotted_path(func).is_none_or(|(_, root)| self.is_defined(root))
    }

    /// `(d, view)` when `iter` is `d.keys()`, `d.values()` or `d.items()` called on a value (not
    /// an op namespace).
    fn dict_view<'e>(&self, iter: &'e Expr) -> Option<(&'e Expr, DictView)> {
        let Expr::Call { func, args, keywords } = iter else { return None };
        keywords.is_empty().then_some(())?;
        let Expr::Attribute { value, attr } = func.as_ref() else { return None };
        let view = DictView::of(Method::from_name(attr)?)?;
        (args.is_empty() && self.calls_a_method(func)).then_some((value.as_ref(), view))
    }

    /// `for target in iter: body() else: orelse`; `range(...)` iterates without building a list. A
    /// comprehension's loop is `scoped`: its variables get registers of their own once the
    /// iterable (read in the enclosing scope) is evaluated, so that they neither change the
    /// function's variables of the same names nor an enclosing comprehension's.
    fn for_loop(
        &mut self,
        target: &Target,
        iter: &Expr,
        scoped: bool,
        orelse: &[Stmt],
        body: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let slot = self.enter_loop_slot();
        // `for k, v in d.items()`: the two names its steps write the key and value into.
        let mut item_names = None;
        match self.range_args(iter) {
            Some(args) => {
                let regs = args.iter().map(|a| self.expr(a, None)).collect::<Result<Vec<_>>>()?;
                let (start, stop, step) = match regs.as_slice() {
                    [stop] => (self.constant(Slot::from(0i64)), *stop, self.constant(Slot::from(1i64))),
                    [start, stop] => (*start, *stop, self.constant(Slot::from(1i64))),
                    [start, stop, step] => (*start, *stop, *step),
                    _ => unreachable!("arity checked"),
                };
                self.emit(Inst::RangeStart { slot, start, stop, step });
            }
            None => match self.dict_view(iter) {
                // `for k, v in d.items()` walks the dict itself, as CPython's view does.
                Some((dict, view)) => {
                    let src = self.expr(dict, None)?;
                    self.emit(Inst::IterView { slot, src, view });
                    item_names = (view == DictView::Items).then(|| two_names(target)).flatten();
                }
                None => {
                    let src = self.iterable(iter)?;
                    self.emit(Inst::IterStart { slot, src });
                }
            },
        }
        // The test is at the bottom (`ForNext` jumps back to the body while there are items),
        // so an iteration costs one dispatch for the loop, not a test and a jump.
        let enter = self.emit(Inst::Jump { to: 0 });
        let body_start = self.here();
        let outer = if scoped { self.bind_own_registers(target) } else { Vec::new() };
        let next_inst = match (target, item_names) {
            (_, Some((k, v))) => {
                Inst::ForNextItem { slot, key: self.locals[k], value: self.locals[v], body: body_start }
            }
            (Target::Name { id }, None) => Inst::ForNext { slot, dst: self.locals[id], body: body_start },
            _ => {
                let dst = self.temp();
                self.assign(target, dst)?;
                Inst::ForNext { slot, dst, body: body_start }
            }
        };
        self.loops.push(LoopCtx::default());
        body(self)?;
        let next = self.here();
        self.patch(enter, next);
        self.emit(next_inst);
        self.leave_loop(next, orelse)?;
        for (name, reg) in outer {
            self.locals.insert(name, reg);
        }
        Ok(())
    }

    /// Gives each name `target` binds a new register; returns the registers they had.
    fn bind_own_registers(&mut self, target: &Target) -> Vec<(String, Reg)> {
        let mut outer = Vec::new();
        for name in target.names().into_iter().map(str::to_string) {
            let own = self.temp();
            if let Some(reg) = self.locals.insert(name.clone(), own) {
                outer.push((name, reg));
            }
        }
        outer
    }

    /// Runs the append-loop matcher over this function's scope.
    fn scope<R>(&self, f: impl FnOnce(&Scope<'_>) -> R) -> R {
        f(&Scope { locals: &self.locals, is_defined: &|id| self.is_defined(id) })
    }

    /// Emits the fused form of an append loop and the jump past the loop that follows it
    /// (the loop itself comes next, for when the fused form does not apply); returns the jump.
    fn extend_each(&mut self, a: AppendLoop) -> usize {
        self.emit(Inst::ExtendEach { list: a.list, seq: a.seq, index: a.index, item: a.item });
        self.emit(Inst::Jump { to: 0 })
    }

    /// Points the jump from [`Self::extend_each`], if any, past the loop just compiled.
    fn patch_skip(&mut self, skip: Option<usize>) {
        if let Some(at) = skip {
            let end = self.here();
            self.patch(at, end);
        }
    }

    fn range_args<'e>(&self, iter: &'e Expr) -> Option<&'e [Expr]> {
        match iter {
            Expr::Call { func, args, keywords } if keywords.is_empty() => match func.as_ref() {
                // A wrong count is the general call's, raised when the loop runs.
                Expr::Name { id } if id == "range" && !self.is_defined(id) && (1..=3).contains(&args.len()) => {
                    Some(args)
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn is_defined(&self, id: &str) -> bool {
        self.locals.contains_key(id)
            || self.is_own_name(id)
            || self.module.globals.contains_key(id)
            || self.module.functions.contains_key(id)
    }

    /// Stores the value in register `v` into `target`.
    fn assign(&mut self, target: &Target, v: Reg) -> Result<()> {
        match target {
            Target::Name { id } => {
                let dst = self.locals[id];
                if dst != v {
                    self.emit(Inst::Move { dst, src: v });
                }
            }
            Target::Subscript { value, index } => {
                let obj = self.expr(value, None)?;
                let key = self.expr(index, None)?;
                self.emit(Inst::SetItem { obj, key, value: v });
            }
            Target::Slice { value, lower, upper, step } => self.store_slice(value, [lower, upper, step], v)?,
            Target::Tuple { items } => {
                let temps: Vec<Reg> = items.iter().map(|_| self.temp()).collect();
                let targets = self.operands(&temps);
                let mut stars = items.iter().enumerate().filter(|(_, t)| matches!(t, Target::Starred { .. }));
                match (stars.next(), stars.next()) {
                    (None, _) => self.emit(Inst::Unpack { src: v, targets }),
                    (Some((star, _)), None) => self.emit(Inst::UnpackStar { src: v, targets, star: star as u32 }),
                    (Some(_), Some(_)) => {
                        return Err(err(self.line, ErrorKind::Parse, "multiple starred expressions in assignment"));
                    }
                };
                for (t, r) in items.iter().zip(temps) {
                    match t {
                        Target::Starred { value } => self.assign(value, r)?,
                        _ => self.assign(t, r)?,
                    }
                }
            }
            Target::Starred { .. } => {
                return Err(err(self.line, ErrorKind::Parse, "starred assignment target must be in a list or tuple"));
            }
        }
        Ok(())
    }

    fn aug_assign(&mut self, target: &Target, op: BinOp, value: &Expr) -> Result<()> {
        match target {
            Target::Name { id } => {
                let dst = self.locals[id];
                self.check_bound(id, dst);
                let b = self.expr(value, None)?;
                self.emit(Inst::Binary { op, dst, a: dst, b, in_place: true });
            }
            Target::Subscript { value: obj_e, index } => {
                let obj = self.expr(obj_e, None)?;
                let key = self.expr(index, None)?;
                let cur = self.temp();
                self.emit(Inst::GetItem { dst: cur, obj, key });
                let b = self.expr(value, None)?;
                self.emit(Inst::Binary { op, dst: cur, a: cur, b, in_place: true });
                self.emit(Inst::SetItem { obj, key, value: cur });
            }
            Target::Slice { value: obj_e, lower, upper, step } => {
                self.aug_assign_slice(obj_e, [lower, upper, step], op, value)?
            }
            Target::Tuple { .. } | Target::Starred { .. } => {
                return Err(err(self.line, ErrorKind::Parse, "illegal expression for augmented assignment"));
            }
        }
        Ok(())
    }

    // ---- expressions ------------------------------------------------------------------------

    fn expr_in_temp(&mut self, e: &Expr) -> Result<Reg> {
        let t = self.temp();
        self.expr(e, Some(t))
    }

    fn dst(&mut self, dst: Option<Reg>) -> Reg {
        dst.unwrap_or_else(|| self.temp())
    }

    /// A set display of `items`, its table laid out as CPython lays out the display `layout`
    /// names.
    fn set_display(&mut self, items: &[Expr], layout: SetLayout, dst: Option<Reg>) -> Result<Reg> {
        let regs = self.exprs(items)?;
        let items = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::BuildSet { dst: d, items, layout });
        Ok(d)
    }

    /// The iterable of a `for` or of a comprehension's first loop. CPython's optimizer makes a
    /// set display of constants there (of any length) the frozenset it iterates (`fold_iter`),
    /// whose layout is neither a display's built item by item nor its copy elsewhere.
    pub(super) fn iterable(&mut self, iter: &Expr) -> Result<Reg> {
        match iter {
            Expr::Set { items } if items.iter().all(constants::is_folded_constant) => {
                self.set_display(items, SetLayout::Frozen, None)
            }
            _ => self.expr(iter, None),
        }
    }

    /// Compiles `e`; the value ends up in `dst` when given, else in the returned register
    /// (a local's own register for a plain name).
    fn expr(&mut self, e: &Expr, dst: Option<Reg>) -> Result<Reg> {
        let line = self.line;
        match e {
            Expr::Const { value } => {
                let r = self.constant(Self::literal(value));
                Ok(self.move_to(r, dst))
            }
            Expr::Name { id } => {
                let r = self.load_name(id)?;
                Ok(self.move_to(r, dst))
            }
            Expr::Attribute { value, attr } => {
                if attr == "__name__" {
                    // `type(x).__name__`, with CPython's error for a value that has none.
                    return self.attribute_call(crate::pipeline::type_checks::name_attribute_func(), value, dst);
                }
                if let Some((path, root)) = dotted_path(e)
                    && !self.is_defined(root)
                {
                    let path = path.strip_prefix("ops.").unwrap_or(&path);
                    // `re.IGNORECASE` and the other flags of the `re` module.
                    if let Some(bits) = crate::ops::re::flag(path) {
                        let r = self.constant(Slot::from(bits));
                        return Ok(self.move_to(r, dst));
                    }
                    let f = match unbound_method(path) {
                        Some((method, ty)) => crate::pipeline::methods::unbound_method_func(method, ty),
                        None => {
                            let f = registry().get(path).map_err(|e| err(line, e.kind(), e.message()))?;
                            crate::ops::params::as_value(path, f)
                        }
                    };
                    let index = self.f.consts.len() as u32;
                    self.f.consts.push(Slot::from(f));
                    let d = self.dst(dst);
                    self.emit(Inst::Const { dst: d, index });
                    return Ok(d);
                }
                if attr == "args" {
                    // `e.args` of an exception.
                    return self.attribute_call(crate::pipeline::exception_value::args_attribute_func(), value, dst);
                }
                // `d.maxlen`, `m.lastgroup` and the other data attributes of built-in types.
                if let Some(reader) = crate::pipeline::attributes::attribute_func(attr) {
                    return self.attribute_call(reader, value, dst);
                }
                // A bound method as a value (`key=counts.get`): the method bound to the object.
                if let Some(method) = Method::from_name(attr) {
                    let d = self.dst(dst);
                    self.bind_method(method, value, d)?;
                    return Ok(d);
                }
                Err(err(line, ErrorKind::Parse, format!("attribute '{attr}' can only be called as a method")))
            }
            Expr::Call { func, args, keywords } => self.call(func, args, keywords, dst),
            Expr::BinOp { op, left, right } => {
                let a = self.expr(left, None)?;
                let b = self.expr(right, None)?;
                let d = self.dst(dst);
                self.emit(Inst::Binary { op: *op, dst: d, a, b, in_place: false });
                Ok(d)
            }
            Expr::UnaryOp { op, operand } => {
                let src = self.expr(operand, None)?;
                let d = self.dst(dst);
                self.emit(Inst::Unary { op: *op, dst: d, src });
                Ok(d)
            }
            Expr::BoolOp { op, values } => {
                // The result is the last operand evaluated, as in Python.
                let d = self.temp();
                let mut exits = Vec::new();
                for (i, v) in values.iter().enumerate() {
                    self.expr(v, Some(d))?;
                    if i + 1 < values.len() {
                        exits.push(match op {
                            BoolOp::And => self.emit(Inst::JumpIfFalse { cond: d, to: 0 }),
                            BoolOp::Or => self.emit(Inst::JumpIfTrue { cond: d, to: 0 }),
                        });
                    }
                }
                let end = self.here();
                exits.into_iter().for_each(|at| self.patch(at, end));
                Ok(self.move_to(d, dst))
            }
            Expr::Compare { left, ops, comparators } => self.compare(left, ops, comparators, dst),
            Expr::IfExp { test, body, orelse } => {
                let d = self.temp();
                let cond = self.expr(test, None)?;
                let jump_else = self.emit(Inst::JumpIfFalse { cond, to: 0 });
                self.expr(body, Some(d))?;
                let jump_end = self.emit(Inst::Jump { to: 0 });
                let else_at = self.here();
                self.patch(jump_else, else_at);
                self.expr(orelse, Some(d))?;
                let end = self.here();
                self.patch(jump_end, end);
                Ok(self.move_to(d, dst))
            }
            Expr::List { items } | Expr::Tuple { items } if items.iter().any(|i| matches!(i, Expr::Starred { .. })) => {
                self.unpacking_sequence(items, matches!(e, Expr::Tuple { .. }), dst)
            }
            Expr::List { items } | Expr::Tuple { items } => {
                let regs = self.exprs(items)?;
                let items = self.operands(&regs);
                let d = self.dst(dst);
                self.emit(match e {
                    Expr::Tuple { .. } => Inst::BuildTuple { dst: d, items },
                    _ => Inst::BuildList { dst: d, items },
                });
                Ok(d)
            }
            Expr::Dict { keys, values } => self.dict_display(keys, values, dst),
            Expr::Set { items } if items.iter().any(|i| matches!(i, Expr::Starred { .. })) => {
                self.unpacking_set(items, dst)
            }
            Expr::Set { items } => {
                let folded = items.len() > 2 && items.iter().all(constants::is_folded_constant);
                self.set_display(items, if folded { SetLayout::Copied } else { SetLayout::Added }, dst)
            }
            Expr::Subscript { value, index } => {
                let obj = self.expr(value, None)?;
                let key = self.expr(index, None)?;
                let d = self.dst(dst);
                self.emit(Inst::GetItem { dst: d, obj, key });
                Ok(d)
            }
            Expr::Slice { value, lower, upper, step } => {
                let obj = self.expr(value, None)?;
                let mut regs = Vec::with_capacity(3);
                for b in [lower, upper, step] {
                    regs.push(match b {
                        Some(b) => self.expr(b, None)?,
                        None => self.constant(Slot::default()),
                    });
                }
                let bounds = self.operands(&regs);
                let d = self.dst(dst);
                self.emit(Inst::Slice { dst: d, obj, bounds });
                Ok(d)
            }
            Expr::ListComp { .. } => self.list_comp(generators::comprehension(e), dst),
            Expr::DictComp { .. } => self.dict_comp(generators::comprehension(e), dst),
            Expr::SetComp { .. } => self.set_comp(generators::comprehension(e), dst),
            Expr::GeneratorExp { .. } => self.lazy_generator(e, dst, false),
            Expr::Named { target, value } => {
                // Into a temporary first: a comprehension fills its result as it runs, and its
                // iterable may be the variable being assigned.
                let v = self.expr(value, None)?;
                let r = self.locals[target];
                self.emit(Inst::Move { dst: r, src: v });
                Ok(self.move_to(r, dst))
            }
            Expr::Lambda { params, body } => {
                let frozen = self.is_frozen_lambda(e);
                self.lambda(params, body, dst, frozen)
            }
            Expr::Starred { .. } => {
                Err(err(line, ErrorKind::Parse, "starred expressions are not supported in anyscript here"))
            }
        }
    }

    fn exprs(&mut self, items: &[Expr]) -> Result<Vec<Reg>> {
        items.iter().map(|e| self.expr(e, None)).collect()
    }

    fn move_to(&mut self, r: Reg, dst: Option<Reg>) -> Reg {
        match dst {
            Some(d) if d != r => {
                self.emit(Inst::Move { dst: d, src: r });
                d
            }
            _ => r,
        }
    }

    /// Whether `id`, read as CPython reads a name the function does not assign, has a value:
    /// the function itself, a module constant or function, or a built-in.
    fn resolves_outside(&self, id: &str) -> bool {
        self.is_own_name(id)
            || self.module.globals.contains_key(id)
            || self.module.functions.contains_key(id)
            || Builtin::from_name(id).is_some()
            || is_class_name(id)
    }

    fn load_name(&mut self, id: &str) -> Result<Reg> {
        // A comprehension's variable read outside any comprehension is, to CPython, not this
        // function's variable: the name is looked up as if the function never assigned it.
        let comprehension_only = !self.statement_bound.contains(id) && self.comprehension_depth == 0;
        if let Some(&r) = self.locals.get(id).filter(|_| !comprehension_only) {
            self.check_bound(id, r);
            return Ok(r);
        }
        if let Some((_, func)) = self.own.as_ref().filter(|(name, _)| name == id) {
            let func = *func;
            return Ok(self.itself(func));
        }
        if let Some(v) = self.module.globals.get(id) {
            return Ok(self.constant(v.clone()));
        }
        if let Some(func) = self.module.functions.get(id).map(|s| s.index) {
            let dst = self.temp();
            self.emit(Inst::FuncRef { dst, func });
            return Ok(dst);
        }
        if let Some(builtin) = Builtin::from_name(id) {
            // `key=len`: a built-in as a function value.
            return Ok(self.constant(Slot::from(builtin.as_func())));
        }
        if let Some(class) = exception_class(id) {
            // `isinstance(e, LookupError)`, `type(e) is KeyError`.
            return Ok(self.constant(Slot::from(class)));
        }
        if comprehension_only && self.locals.contains_key(id) {
            // CPython raises when (and only if) the read runs.
            let dst = self.temp();
            self.emit(Inst::Unbind { dst });
            self.emit_check_bound(dst, &format!("name '{id}' is not defined"), true);
            return Ok(dst);
        }
        Err(err(self.line, ErrorKind::Name, format!("name '{id}' is not defined")))
    }

    /// Checks a read of local `id` (in `r`) when it may find the variable unassigned, with
    /// CPython 3.11's error for the case.
    fn check_bound(&mut self, id: &str, r: Reg) {
        if self.free_undefined.iter().any(|n| n == id) {
            self.emit_check_bound(r, &format!("name '{id}' is not defined"), true);
            return;
        }
        let free = self.free_maybe_unbound.iter().any(|n| n == id);
        if !self.maybe_unbound.contains(id) && !free {
            return;
        }
        let (text, name_error) = if !self.statement_bound.contains(id) {
            // Only a comprehension's variable: to CPython, not a local of this function at all.
            (format!("name '{id}' is not defined"), true)
        } else if self.comprehension_depth > 0 || free {
            (
                format!(
                    "cannot access free variable '{id}' where it is not associated with a value in enclosing scope"
                ),
                true,
            )
        } else {
            (format!("cannot access local variable '{id}' where it is not associated with a value"), false)
        };
        self.emit_check_bound(r, &text, name_error);
    }

    /// Emits a [`Inst::CheckBound`] of `reg` raising `message` (a `NameError` if `name_error`,
    /// else an `UnboundLocalError`).
    fn emit_check_bound(&mut self, reg: Reg, message: &str, name_error: bool) {
        let index = self.f.consts.len() as u32;
        self.f.consts.push(Slot::from_text(message));
        self.emit(Inst::CheckBound { reg, message: index, name_error });
    }

    fn compare(&mut self, left: &Expr, ops: &[CmpOp], comparators: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let mut a = self.expr(left, None)?;
        if let ([op], [right]) = (ops, comparators) {
            let b = self.expr(right, None)?;
            let d = self.dst(dst);
            self.emit(Inst::Compare { op: *op, dst: d, a, b });
            return Ok(d);
        }
        // `a < b < c` is `a < b and b < c` with b evaluated once.
        let d = self.temp();
        let mut exits = Vec::new();
        for (i, (op, right)) in ops.iter().zip(comparators).enumerate() {
            let b = self.expr(right, None)?;
            self.emit(Inst::Compare { op: *op, dst: d, a, b });
            if i + 1 < ops.len() {
                exits.push(self.emit(Inst::JumpIfFalse { cond: d, to: 0 }));
            }
            a = b;
        }
        let end = self.here();
        exits.into_iter().for_each(|at| self.patch(at, end));
        Ok(self.move_to(d, dst))
    }

    /// A call of a built-in function, its argument count checked here.
    fn call_builtin(&mut self, builtin: Builtin, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        if !keywords.is_empty() {
            return self.call_builtin_keywords(builtin, args, keywords, dst);
        }
        if let (Builtin::Any | Builtin::All, [g @ Expr::GeneratorExp { .. }]) = (builtin, args) {
            return self.any_all(builtin == Builtin::All, generators::comprehension(g), dst);
        }
        if let (Builtin::Any | Builtin::All, [arg]) = (builtin, args)
            && let Some(g) = self.map_filter_generator(arg)
        {
            return self.call_builtin(builtin, &[g?], keywords, dst);
        }
        let (min, max) = builtin.arity();
        if args.len() < min || args.len() > max {
            return self.raise_when_called(args, keywords, builtin.arity_error(args.len()), dst);
        }
        let regs = match (builtin, args) {
            // `next(w for w in ws if ...)` takes its item before anything else runs.
            (Builtin::Next, [g @ Expr::GeneratorExp { .. }, rest @ ..]) => {
                let mut regs = vec![self.lazy_generator(g, None, true)?];
                regs.extend(self.arguments(rest, false)?);
                regs
            }
            _ => self.arguments(args, generators::takes_a_generator(builtin))?,
        };
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallBuiltin { dst: d, builtin, args });
        Ok(d)
    }

    fn call(&mut self, func: &Expr, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        let line = self.line;
        if keywords.iter().any(|k| k.arg == DOUBLE_STAR) {
            // `f(**mapping)`: bound when it runs, to a function whose parameters are known then.
            let Some(f) = self.module_function(func) else {
                let msg = "'**' arguments are not supported in anyscript but in calls of the script's own functions";
                return Err(err(line, ErrorKind::Parse, msg));
            };
            return self.call_spread_keywords(f, args, keywords, dst);
        }
        if args.iter().any(|a| matches!(a, Expr::Starred { .. })) {
            return self.call_spread(func, args, keywords, dst);
        }
        match func {
            Expr::Name { id } if self.calls_nested(id) => self.call_nested(id, args, keywords, dst),
            // A nested function calling itself: its name is its own, whatever the module defines.
            Expr::Name { id } if !self.locals.contains_key(id) && self.is_own_name(id) => {
                self.call_itself(args, keywords, dst)
            }
            Expr::Name { id } if !self.locals.contains_key(id) && !self.module.globals.contains_key(id) => {
                if let Some(sig) = self.module.functions.get(id.as_str()) {
                    if let Some(shape) = &sig.shape {
                        let callee = (sig.index, sig.params.as_slice(), sig.defaults.as_slice(), shape);
                        return self.call_shaped(id, callee, &[], args, keywords, dst);
                    }
                    let callee = (sig.index, sig.params.as_slice(), sig.defaults.as_slice());
                    return self.call_module_function(id, callee, args, keywords, dst);
                }
                if let Some(builtin) = Builtin::from_name(id) {
                    return self.call_builtin(builtin, args, keywords, dst);
                }
                if let Some(g) = self.map_filter_generator(&Expr::Call {
                    func: Box::new(func.clone()),
                    args: args.to_vec(),
                    keywords: keywords.to_vec(),
                }) {
                    // `m = map(f, xs)`: the generator expression it is, run lazily. Python reads
                    // a named `f` once, when map() is called, as the generator's captured value
                    // is; a lambda reads its variables at each item.
                    let named = !matches!(args.first(), Some(Expr::Lambda { .. }));
                    return self.lazy_generator(&g?, dst, named);
                }
                if is_class_name(id) {
                    // `ValueError(message)`: an exception as a value.
                    return self.call_value(func, args, keywords, dst);
                }
                Err(err(line, ErrorKind::Name, format!("name '{id}' is not defined")))
            }
            Expr::Name { id } if !self.locals.contains_key(id) && self.global_func(id).is_some() => {
                // A function made by the pipeline's `init` (a tokenizer, say) is called like a
                // registered op: no register load of the function per call, and its errors
                // carry its name.
                let f = self.global_func(id).expect("checked in the guard");
                no_keywords(line, id, keywords)?;
                self.emit_op_call(id.clone(), f, args, dst)
            }
            Expr::Attribute { value, attr } => {
                if let Some((path, root)) = dotted_path(func)
                    && !self.is_defined(root)
                {
                    // `builtins.format(...)` is the built-in whatever the function's locals are
                    // called: what f-strings lower to.
                    if let Some(builtin) = path.strip_prefix("builtins.").and_then(Builtin::from_name) {
                        return self.call_builtin(builtin, args, keywords, dst);
                    }
                    if let Some((method, ty)) = unbound_method(&path) {
                        // `str.lower(w)` is `w.lower()` (what `map(str.lower, words)` calls), once
                        // the arguments are evaluated and `w` is found to be a str.
                        no_keywords(line, &path, keywords)?;
                        let Some((first, rest)) = args.split_first() else {
                            return Err(err(
                                line,
                                ErrorKind::Type,
                                format!("unbound method {path}() needs an argument"),
                            ));
                        };
                        let obj = self.expr(first, None)?;
                        let regs = self.arguments(rest, method == Method::Join)?;
                        self.emit(Inst::CheckReceiver { obj, method, ty });
                        let (args, d) = (self.operands(&regs), self.dst(dst));
                        self.emit(Inst::CallMethod { dst: d, method, obj, args });
                        return Ok(d);
                    }
                    if let Some((method, receiver)) = static_method(&path) {
                        no_keywords(line, &path, keywords)?;
                        let obj = self.constant(receiver);
                        let regs = self.arguments(args, false)?;
                        let (args, d) = (self.operands(&regs), self.dst(dst));
                        self.emit(Inst::CallMethod { dst: d, method, obj, args });
                        return Ok(d);
                    }
                    let op = path.strip_prefix("ops.").unwrap_or(&path);
                    // An op that stands for a Python function binds its arguments as that does.
                    let spread = args.iter().any(|a| matches!(a, Expr::Starred { .. }));
                    if !keywords.is_empty() || (!spread && crate::ops::params::op_params(op).is_some()) {
                        return self.call_op_keywords(op, args, keywords, dst);
                    }
                    return self.call_op(op, args, dst);
                }
                let method = Method::from_name(attr)
                    .ok_or_else(|| err(line, ErrorKind::Key, format!("unknown method '{attr}'")))?;
                // A `random.Random` method binds its positional arguments as Python's does too
                // (`r.choices(pop, w, cw, 2)` is CPython's TypeError: `k` is keyword-only).
                let spread = args.iter().any(|a| matches!(a, Expr::Starred { .. }));
                let random = crate::ops::random::RandomFn::of_method(method).is_some()
                    && crate::ops::params::op_params(&format!("random.{attr}")).is_some();
                if !keywords.is_empty() || (random && !spread) {
                    return self.call_method_keywords(method, value, args, keywords, dst);
                }
                if method == Method::Sort && !args.is_empty() {
                    return self.raise_after_receiver(value, method, args, keywords, SORT_POSITIONAL, dst);
                }
                // A wrong argument count is the receiver type's TypeError when the call runs, as
                // in CPython (which words it per type: `set.add() takes exactly one argument`).
                let obj = self.expr(value, None)?;
                self.check_method_first(obj, method, args);
                // `" ".join(w for w in words)`: join takes every item first.
                let regs = self.arguments(args, method == Method::Join)?;
                if method == Method::Append && regs.len() == 1 {
                    self.emit(Inst::Append { list: obj, value: regs[0] });
                    return Ok(self.constant(Slot::default()));
                }
                let args = self.operands(&regs);
                let d = self.dst(dst);
                self.emit(Inst::CallMethod { dst: d, method, obj, args });
                Ok(d)
            }
            _ => self.call_value(func, args, keywords, dst),
        }
    }

    /// `value.attr` read by `reader`, a call of it with `value`.
    fn attribute_call(&mut self, reader: PackedFunc, value: &Expr, dst: Option<Reg>) -> Result<Reg> {
        let callee = self.constant(Slot::from(reader));
        let obj = self.expr(value, None)?;
        let args = self.operands(&[obj]);
        let d = self.dst(dst);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(d)
    }

    /// A call of a function value (a variable, a nested function, a lambda).
    fn call_value(&mut self, func: &Expr, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        no_keywords(self.line, "a function value", keywords)?;
        let callee = self.expr(func, None)?;
        let regs = self.exprs(args)?;
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(d)
    }

    /// `value.method` as a value in register `d`: the method bound to the object, whose
    /// register is returned.
    fn bind_method(&mut self, method: Method, value: &Expr, d: Reg) -> Result<Reg> {
        let callee = self.constant(Slot::from(crate::pipeline::methods::bind_method_func(method)));
        let obj = self.expr(value, None)?;
        let args = self.operands(&[obj]);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(obj)
    }

    /// Whether `id` is the name of the nested function being compiled, read inside it.
    fn is_own_name(&self, id: &str) -> bool {
        self.own.as_ref().is_some_and(|(name, _)| name == id)
    }

    /// The global `id` if it holds a function.
    fn global_func(&self, id: &str) -> Option<PackedFunc> {
        self.module.globals.get(id).and_then(|v| PackedFunc::from_view(&v.view()))
    }

    fn call_op(&mut self, name: &str, args: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let line = self.line;
        let f = registry().get(name).map_err(|e| err(line, e.kind(), e.message()))?;
        let arity = registry().info(name).and_then(|i| signature_arity(&i.signature));
        if let Some(e) = arity.and_then(|arity| op_arity_error(name, arity, args.len())) {
            return self.raise_when_called(args, &[], e, dst);
        }
        self.emit_op_call(name.to_string(), f, args, dst)
    }

    /// Emits a call of function `f`, named `name` in errors and listings, on `args`.
    fn emit_op_call(&mut self, name: String, f: PackedFunc, args: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let regs = self.exprs(args)?;
        Ok(self.emit_op_on(name, f, &regs, dst))
    }

    /// Emits a call of function `f`, named `name`, on the values of registers `regs`.
    pub(super) fn emit_op_on(&mut self, name: String, f: PackedFunc, regs: &[Reg], dst: Option<Reg>) -> Reg {
        let args = self.operands(regs);
        let op = self.f.ops.len() as u32;
        self.f.ops.push((name, f));
        let d = self.dst(dst);
        self.emit(Inst::CallOp { dst: d, op, args });
        d
    }
}

/// The two distinct names of a target `k, v`, if that is what it is.
fn two_names(target: &Target) -> Option<(&str, &str)> {
    let Target::Tuple { items } = target else { return None };
    match items.as_slice() {
        [Target::Name { id: k }, Target::Name { id: v }] if k != v => Some((k, v)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_arity_reads_registered_signatures() {
        assert_eq!(signature_arity("(str) -> str"), Some((1, 1)));
        assert_eq!(signature_arity("(str, bool=False) -> list"), Some((1, 2)));
        assert_eq!(signature_arity("(list, int | None) -> list"), Some((2, 2)));
        assert_eq!(signature_arity("(any, *args) -> any"), Some((1, usize::MAX)));
        assert_eq!(signature_arity("(*args) -> None"), Some((0, usize::MAX)));
        assert_eq!(signature_arity("() -> int"), Some((0, 0)));
        assert_eq!(signature_arity("no parens"), None);
    }
}
