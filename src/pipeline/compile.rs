//! Lowering anyscript's syntax tree to the register IR.
//!
//! Names are resolved once, here: a local is a register, a global is a
//! constant, `text.lower(x)` (or `ops.text.lower(x)`) is a registered op
//! looked up now and checked for arity, `f(x)` is a call to a function of the
//! same program, `len(x)` a builtin, `x.lower()` a method.

use super::Slot;
use super::ast::{Expr, FunctionDef, Keyword, Literal, Stmt, StmtKind, Target};
use super::direct::Direct;
use super::inline::inline_leaf_calls;
use super::ir::{Function, Inst, Operands, Program, Reg, Shape};
use super::methods::Method;
use super::unbound::{bound_by_statements, maybe_unbound};
use crate::PackedFunc;
use crate::error::{Error, ErrorKind, Result};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

mod call_sites;
mod calls;
mod cells;
mod constants;
mod displays;
mod made_defaults;

pub(crate) use cells::declared_nonlocal;
pub use constants::module_globals;
mod exceptions;
mod expressions;
mod generators;
mod immediate;
mod lazy_generators;
mod loops;
mod mapping_keywords;
mod nested;
mod raising;
mod shaped;
mod spread;
mod star_ops;
mod statements;
mod yields;

/// Values a program can read by name without defining them: resources, constants, init results.
pub type Globals = indexmap::IndexMap<String, Slot>;

/// Iterations a `while` loop may run unless the caller sets its own [`Limits`].
pub const DEFAULT_WHILE_LIMIT: u64 = 10_000_000;
/// Calls that may nest unless the caller sets its own [`Limits`]: CPython's default
/// recursion limit, so a recursive helper that runs there runs here.
pub const DEFAULT_MAX_DEPTH: u32 = 1000;

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
        Limits { while_limit: DEFAULT_WHILE_LIMIT, max_depth: DEFAULT_MAX_DEPTH }
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
        let def = yields::lowered(&plain).map_err(|e| e.context(format!("function '{}'", plain.name)))?;
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
        let def = yields::lowered(&lifted.def).map_err(|e| e.context(format!("function '{}'", lifted.def.name)))?;
        let mut inner = FnCompiler::new(&module, &def, labels);
        inner.f.n_captured = lifted.n_captured as u32;
        inner.f.defaults = lifted.defaults;
        inner.f.shape = lifted.shape.map(Box::new);
        inner.free_maybe_unbound = lifted.maybe_unbound;
        inner.free_undefined = lifted.undefined;
        inner.free_cells = lifted.cells;
        inner.fills = lifted.fills;
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
    /// The enclosing variables it is given the cells of, not the values (`compile/cells.rs`).
    cells: Vec<String>,
    /// Its parameters whose defaults were made with it, each with the hidden parameter holding
    /// the default (`compile/made_defaults.rs`).
    fills: Vec<(String, String)>,
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

/// A lambda (or generator expression) of a statement: its line, itself, and the variables it
/// reads that may change once it is made (None: a comprehension's variable).
type NotedLambda = (u32, Expr, Option<Vec<String>>);

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
    /// The lambdas of the function's statements by line, each with the variables it reads that
    /// may change once it is made (None: a comprehension's), which decide whether it may read
    /// this function's variables wherever it goes (`compile/nested.rs`). Found by value, not
    /// place: `map(lambda ...)` is compiled from a copy.
    frozen_lambdas: RefCell<Vec<NotedLambda>>,
    /// How many assignments (a `def` is one) each local has in the function's source.
    assignment_counts: HashMap<String, usize>,
    /// The nested functions defined so far whose calls by name are direct calls.
    nested_callees: HashMap<String, nested::NestedCallee>,
    /// The cell variables (`compile/cells.rs`): each name with the register of its cell.
    cells: HashMap<String, Reg>,
    /// The enclosing function's cell variables this one was given the cells of.
    free_cells: Vec<String>,
    /// Its parameters whose defaults were made with it (`compile/made_defaults.rs`).
    fills: Vec<(String, String)>,
    /// The registers kept for the defaults made by each nested `def` (by line and name).
    made_default_regs: HashMap<(u32, String), Vec<Reg>>,
    /// Set for the call whose arguments `bound_registers` compiles next: its callee uses its
    /// lambdas and generator expressions up before it returns (`compile/immediate.rs`).
    arguments_used_now: bool,
}

fn err(line: u32, kind: ErrorKind, msg: impl Into<String>) -> Error {
    Error::new(kind, format!("line {line}: {}", msg.into()))
}

/// The registered function `name` a call at `line` names, or the compile error (anyscript's
/// `SyntaxError`, as for any call it cannot compile) naming it when there is none.
fn registered_op(line: u32, name: &str) -> Result<PackedFunc> {
    crate::func::registry().get(name).map_err(|e| {
        let kind = if e.kind() == ErrorKind::Key { ErrorKind::Parse } else { e.kind() };
        err(line, kind, e.message())
    })
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
        Expr::Lambda { body, defaults, .. } => {
            defaults.iter().for_each(&mut *f);
            f(body);
        }
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
    let static_one = matches!(method, Method::Maketrans | Method::Fromkeys | Method::Fromhex);
    (!static_one).then_some((method, ty as u8))
}

/// `str.maketrans(...)`, `dict.fromkeys(...)`, `bytes.maketrans(...)` and `bytes.fromhex(...)`
/// (and bytearray's): a
/// type's static method, and an empty value of the type to call it on (the method reads only its
/// arguments).
fn static_method(path: &str) -> Option<(Method, Slot)> {
    match path {
        "str.maketrans" => Some((Method::Maketrans, Slot::from_text(""))),
        "dict.fromkeys" => Some((Method::Fromkeys, Slot::from(crate::Dict::new()))),
        "bytes.maketrans" => Some((Method::Maketrans, Slot::from_bytes(b""))),
        "bytes.fromhex" => Some((Method::Fromhex, Slot::from_bytes(b""))),
        // `bytearray.fromhex` gives a bytearray; `bytearray.maketrans` bytes, as CPython's.
        "bytearray.maketrans" => Some((Method::Maketrans, Slot::from_bytes(b""))),
        "bytearray.fromhex" => Some((Method::Fromhex, super::bytearray_ops::new_slot(Vec::new()))),
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
            cells: HashMap::new(),
            free_cells: Vec::new(),
            fills: Vec::new(),
            made_default_regs: HashMap::new(),
            arguments_used_now: false,
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
        let fills = std::mem::take(&mut self.fills);
        self.fill_made_defaults(&fills);
        // Name where a compile error is: the step for a pipeline's steps, else the function.
        let compiled = self.check_nested_defs(&def.body).and_then(|mut cells| {
            cells.extend(cells::nonlocal_targets(&def.body));
            self.set_up_cells(def, cells)?;
            self.reserve_made_defaults(&def.body);
            self.block(&def.body)
        });
        compiled.map_err(|e| {
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
        lit.value().resize()
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
