//! The syntax tree of anyscript, the Python subset pipelines are written in.
//!
//! It is produced by [`super::parser`] from source text and, by the Python
//! package, from Python's own `ast` (as JSON with the same shape), so both
//! front ends meet here. Every statement carries its 1-based source line.

use serde::{Deserialize, Serialize};

/// A parsed source: top-level `def`s only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Module {
    /// The functions, in source order.
    pub functions: Vec<FunctionDef>,
    /// `NAME = value` at the top level: constants the functions read, each one object made
    /// once when the module is compiled (a module's global, as in Python).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<ModuleConstant>,
}

/// `NAME = value` at the top level of a module; `value` must be a constant expression (a
/// literal, a negated number, or a list, tuple, dict or set display of such).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModuleConstant {
    /// The name the functions read it by.
    pub name: String,
    /// The value.
    pub value: Expr,
    /// The line of the assignment.
    #[serde(default)]
    pub line: u32,
}

/// `def name(params): body`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionDef {
    /// The function's name.
    pub name: String,
    /// Positional parameter names.
    pub params: Vec<String>,
    /// Default values of the last `defaults.len()` parameters: constant expressions (literals,
    /// negated numbers and displays of them), evaluated once when the module is compiled, so
    /// that a mutable default is one object shared by every call, as in Python.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<Expr>,
    /// Its parameters other than plain positional ones (`/`, `*args`, keyword-only, `**kwargs`).
    #[serde(flatten)]
    pub extra: ExtraParams,
    /// The statements of the body.
    pub body: Vec<Stmt>,
    /// The line of the `def`.
    pub line: u32,
}

impl FunctionDef {
    /// Every parameter's name in the order of the registers it takes: `params`, then `*args`,
    /// the keyword-only ones and `**kwargs`.
    pub fn registers(&self) -> Vec<String> {
        let ExtraParams { vararg, kwonly, kwarg, .. } = &self.extra;
        let mut all = self.params.clone();
        all.extend(vararg.iter().cloned());
        all.extend(kwonly.iter().cloned());
        all.extend(kwarg.iter().cloned());
        all
    }
}

/// The parameters of a `def` beyond a list of positional ones with defaults at the end:
/// `def f(a, /, b, *args, c, d=1, **kwargs)`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtraParams {
    /// How many of the first `params` are positional-only (before `/`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub posonly: u32,
    /// The name of the `*args` parameter, which takes the extra positional arguments as a tuple.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vararg: Option<String>,
    /// The keyword-only parameters (after `*` or `*args`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kwonly: Vec<String>,
    /// Their defaults, in the same order (`None` for one that must be given); constant
    /// expressions, as `defaults` are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kw_defaults: Vec<Option<Expr>>,
    /// The name of the `**kwargs` parameter, which takes the extra keyword arguments as a dict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kwarg: Option<String>,
}

impl ExtraParams {
    /// Whether the `def` has none of them (its calls bind as they always have).
    pub fn is_empty(&self) -> bool {
        *self == ExtraParams::default()
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A statement and the line it starts on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stmt {
    /// 1-based line in the source.
    pub line: u32,
    /// What the statement does.
    #[serde(flatten)]
    pub kind: StmtKind,
}

/// The statements anyscript supports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "stmt", rename_all = "snake_case")]
pub enum StmtKind {
    /// An expression evaluated for its effect (`ret.append(c)`).
    Expr { value: Expr },
    /// `target = value` (several targets for `a = b = value`).
    Assign { targets: Vec<Target>, value: Expr },
    /// `target op= value`.
    AugAssign { target: Target, op: BinOp, value: Expr },
    /// `if test: body else: orelse` (`elif` nests in `orelse`).
    If { test: Expr, body: Vec<Stmt>, orelse: Vec<Stmt> },
    /// `for target in iter: body else: orelse` (`orelse` runs when the loop ends without `break`).
    For {
        target: Target,
        iter: Expr,
        body: Vec<Stmt>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        orelse: Vec<Stmt>,
    },
    /// `while test: body else: orelse` (`orelse` runs when `test` ends the loop, not `break`).
    While {
        test: Expr,
        body: Vec<Stmt>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        orelse: Vec<Stmt>,
    },
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `pass`.
    Pass,
    /// `return [value]`.
    Return { value: Option<Expr> },
    /// `yield [value]` as a statement: the function is a generator, and this gives its
    /// consumer the next item (None when there is no value).
    Yield { value: Option<Expr> },
    /// `yield from value`: each item of `value` given in turn, as `for x in value: yield x`.
    YieldFrom { value: Expr },
    /// `raise exc(value)`, `raise exc()` or `raise exc` (`value` None), `exc` the name of one of
    /// Python's built-in exceptions (`ValueError`, `KeyError`, ...); with `exc` empty, `raise
    /// value`, an exception or a class held by a variable or made by a call (`raise e`). `from
    /// cause` is evaluated after the exception, and checked as CPython checks it.
    Raise {
        exc: String,
        value: Option<Expr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<Expr>,
    },
    /// A bare `raise` inside an `except` clause: the error the clause caught, raised again.
    Reraise,
    /// `assert test[, msg]`: `msg` is evaluated only when the assertion fails.
    Assert { test: Expr, msg: Option<Expr> },
    /// `del t0, t1, ...`: each target a subscript (`del d[k]`, `del xs[i]`), deleted in order.
    Delete { targets: Vec<Target> },
    /// `try: body` with `except` clauses, an optional `else:` and an optional `finally:`, which
    /// runs however the others end (`handlers` may be empty when there is a `finally:`).
    Try {
        body: Vec<Stmt>,
        handlers: Vec<ExceptHandler>,
        orelse: Vec<Stmt>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        finalbody: Vec<Stmt>,
    },
    /// A `def` inside a function: binds its name to the nested function, which reads the
    /// enclosing function's variables (see `compile/nested.rs`). Its body is not one of
    /// [`StmtKind::blocks`]: it runs in a frame of its own.
    Def { function: Box<FunctionDef> },
    /// `nonlocal a, b`: in a nested function, the names are the enclosing function's variables,
    /// which its assignments change (see `compile/cells.rs`).
    Nonlocal { names: Vec<String> },
}

/// `except (T1, T2) as name: body`; no types for a bare `except:`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExceptHandler {
    /// The line of the `except`.
    pub line: u32,
    /// The exception names it catches (`ValueError`, `LookupError`, `Exception`, ...); empty
    /// for a bare `except:`.
    pub types: Vec<String>,
    /// The variable given the exception's message (`as e`), if any.
    pub name: Option<String>,
    /// The statements run when it catches.
    pub body: Vec<Stmt>,
}

impl StmtKind {
    /// The blocks of statements nested in this one, in source order (a `try`'s clauses included).
    pub fn blocks(&self) -> Vec<&[Stmt]> {
        match self {
            StmtKind::If { body, orelse, .. }
            | StmtKind::For { body, orelse, .. }
            | StmtKind::While { body, orelse, .. } => vec![body, orelse],
            StmtKind::Try { body, handlers, orelse, finalbody } => {
                let clauses = handlers.iter().map(|h| h.body.as_slice());
                std::iter::once(body.as_slice()).chain(clauses).chain([orelse.as_slice(), finalbody]).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Calls `f` on each expression of this statement itself, not of its blocks: values, tests,
    /// iterables and the parts of subscript targets (a nested `def` has none: its defaults are
    /// constants).
    pub fn for_each_expr<'e>(&'e self, f: &mut dyn FnMut(&'e Expr)) {
        fn target<'e>(t: &'e Target, f: &mut dyn FnMut(&'e Expr)) {
            match t {
                Target::Name { .. } => {}
                Target::Subscript { value, index } => {
                    f(value);
                    f(index);
                }
                Target::Slice { value, lower, upper, step } => {
                    f(value);
                    [lower, upper, step].into_iter().flatten().for_each(|b| f(b));
                }
                Target::Tuple { items } => items.iter().for_each(|t| target(t, f)),
                Target::Starred { value } => target(value, f),
            }
        }
        match self {
            StmtKind::Expr { value } | StmtKind::YieldFrom { value } => f(value),
            StmtKind::Assign { targets, value } => {
                targets.iter().for_each(|t| target(t, f));
                f(value);
            }
            StmtKind::AugAssign { target: t, value, .. } | StmtKind::For { target: t, iter: value, .. } => {
                target(t, f);
                f(value);
            }
            StmtKind::If { test, .. } | StmtKind::While { test, .. } => f(test),
            StmtKind::Return { value } | StmtKind::Yield { value } => value.iter().for_each(f),
            StmtKind::Raise { value, cause, .. } => value.iter().chain(cause).for_each(f),
            StmtKind::Assert { test, msg } => {
                f(test);
                msg.iter().for_each(f);
            }
            StmtKind::Delete { targets } => targets.iter().for_each(|t| target(t, f)),
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Pass
            | StmtKind::Nonlocal { .. }
            | StmtKind::Reraise
            | StmtKind::Try { .. }
            | StmtKind::Def { .. } => {}
        }
    }

    /// [`StmtKind::blocks`], mutable.
    pub fn blocks_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        match self {
            StmtKind::If { body, orelse, .. }
            | StmtKind::For { body, orelse, .. }
            | StmtKind::While { body, orelse, .. } => vec![body, orelse],
            StmtKind::Try { body, handlers, orelse, finalbody } => {
                let clauses = handlers.iter_mut().map(|h| &mut h.body);
                std::iter::once(body).chain(clauses).chain([orelse, finalbody]).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// Something that can be assigned to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "target", rename_all = "snake_case")]
pub enum Target {
    /// A local variable.
    Name { id: String },
    /// `value[index] = ...`.
    Subscript { value: Expr, index: Expr },
    /// `value[lower:upper:step] = ...` (and `del value[lower:upper:step]`): a list's items
    /// replaced or removed.
    Slice { value: Box<Expr>, lower: Option<Box<Expr>>, upper: Option<Box<Expr>>, step: Option<Box<Expr>> },
    /// `a, b = ...` (also `for k, v in ...`).
    Tuple { items: Vec<Target> },
    /// `*rest` in a tuple target (`first, *rest = words`): the list of the items the others
    /// leave; at most one per tuple.
    Starred { value: Box<Target> },
}

impl Target {
    /// The names this target binds, in order: `a, (b, c)` binds a, b and c; `d[k]` binds none
    /// (it stores into an object).
    pub fn names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.push_names(&mut out);
        out
    }

    fn push_names<'t>(&'t self, out: &mut Vec<&'t str>) {
        match self {
            Target::Name { id } => out.push(id),
            Target::Tuple { items } => items.iter().for_each(|t| t.push_names(out)),
            Target::Starred { value } => value.push_names(out),
            Target::Subscript { .. } | Target::Slice { .. } => {}
        }
    }
}

/// A literal constant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Literal {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// An integer that fits in i64.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// A bytes literal (`b"..."`), its bytes as a list of ints in the JSON form.
    Bytes(Vec<u8>),
}

impl Literal {
    /// The literal as a value.
    pub fn value(&self) -> crate::AnyValue {
        use crate::AnyValue;
        match self {
            Literal::None => AnyValue::default(),
            Literal::Bool(b) => AnyValue::from(*b),
            Literal::Int(i) => AnyValue::from(*i),
            Literal::Float(x) => AnyValue::from(*x),
            Literal::Str(s) => AnyValue::from_text(s),
            Literal::Bytes(b) => AnyValue::from_bytes(b),
        }
    }
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "expr", rename_all = "snake_case")]
pub enum Expr {
    /// A literal.
    Const { value: Literal },
    /// A variable, function or op namespace.
    Name { id: String },
    /// `value.attr` (a dotted op name like `text.lower`, or a method when called).
    Attribute { value: Box<Expr>, attr: String },
    /// `func(args..., name=value...)`: positional arguments, then keyword arguments in source
    /// order (Python evaluates them in that order, and so does anyscript).
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        keywords: Vec<Keyword>,
    },
    /// `left op right`.
    BinOp { op: BinOp, left: Box<Expr>, right: Box<Expr> },
    /// `op operand`.
    UnaryOp { op: UnaryOp, operand: Box<Expr> },
    /// `a and b and ...` / `a or b or ...`, short-circuiting, Python's value semantics.
    BoolOp { op: BoolOp, values: Vec<Expr> },
    /// `left op0 c0 op1 c1 ...`, chained as in Python.
    Compare { left: Box<Expr>, ops: Vec<CmpOp>, comparators: Vec<Expr> },
    /// `body if test else orelse`.
    IfExp { test: Box<Expr>, body: Box<Expr>, orelse: Box<Expr> },
    /// `[a, b]`.
    List { items: Vec<Expr> },
    /// `(a, b)`; a list at run time.
    Tuple { items: Vec<Expr> },
    /// `{k: v}`; a key None is `**value`, whose items the dict takes (as in Python's `ast`).
    Dict { keys: Vec<Option<Expr>>, values: Vec<Expr> },
    /// `{a, b}`.
    Set { items: Vec<Expr> },
    /// `value[index]`.
    Subscript { value: Box<Expr>, index: Box<Expr> },
    /// `value[lower:upper:step]`.
    Slice { value: Box<Expr>, lower: Option<Box<Expr>>, upper: Option<Box<Expr>>, step: Option<Box<Expr>> },
    /// `[elt for target in iter if cond... for ...]` (`more`: the `for` clauses after the first).
    ListComp {
        elt: Box<Expr>,
        target: Box<Target>,
        iter: Box<Expr>,
        ifs: Vec<Expr>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        more: Vec<CompFor>,
    },
    /// `{elt for target in iter if cond... for ...}`.
    SetComp {
        elt: Box<Expr>,
        target: Box<Target>,
        iter: Box<Expr>,
        ifs: Vec<Expr>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        more: Vec<CompFor>,
    },
    /// `{key: value for target in iter if cond... for ...}`.
    DictComp {
        key: Box<Expr>,
        value: Box<Expr>,
        target: Box<Target>,
        iter: Box<Expr>,
        ifs: Vec<Expr>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        more: Vec<CompFor>,
    },
    /// `(elt for target in iter if cond...)`: allowed only as the argument of a call that
    /// takes all its items before it returns (`sum`, `"".join`, `any`, ...; see
    /// `compile/generators.rs`), where it is run as a list comprehension, or as a loop that
    /// stops early for `any` and `all`.
    GeneratorExp {
        elt: Box<Expr>,
        target: Box<Target>,
        iter: Box<Expr>,
        ifs: Vec<Expr>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        more: Vec<CompFor>,
    },
    /// `lambda params: body`, compiled as a function of the module (see `compile/lambdas.rs`);
    /// `defaults` are those of its last parameters, evaluated where it is made.
    Lambda {
        params: Vec<String>,
        body: Box<Expr>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        defaults: Vec<Expr>,
    },
    /// `(target := value)`: assigns `value` to the function's variable `target` and is its value.
    Named { target: String, value: Box<Expr> },
    /// `*value`: an item of a list, tuple or set display (`[*a, b]`), whose items it adds; an
    /// argument of a call, whose items are arguments; a starred target (`a, *b = x`).
    Starred { value: Box<Expr> },
}

/// A `for target in iter if cond...` clause of a comprehension after its first; it runs nested
/// in the clause before it, whose variables its iterable may read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompFor {
    /// What each item is assigned to.
    pub target: Target,
    /// The iterable, evaluated once per item of the clause before.
    pub iter: Expr,
    /// The conditions.
    pub ifs: Vec<Expr>,
}

/// The name a call's `**mapping` argument has among its keywords (no parameter can have it), the
/// one a function's keyword form reads (`CallArgs`).
pub const DOUBLE_STAR: &str = crate::func::CallArgs::MAPPING;

/// `name=value` in a call, or `**value` (named [`DOUBLE_STAR`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Keyword {
    /// The parameter it names.
    pub arg: String,
    /// The argument.
    pub value: Expr,
}

/// Binary arithmetic and bitwise operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `//`
    FloorDiv,
    /// `%`
    Mod,
    /// `**`
    Pow,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    LShift,
    /// `>>`
    RShift,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnaryOp {
    /// `not x`
    Not,
    /// `-x`
    Neg,
    /// `+x`
    Pos,
    /// `~x`
    Invert,
}

/// Short-circuit boolean operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoolOp {
    /// `and`
    And,
    /// `or`
    Or,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    LtE,
    /// `>`
    Gt,
    /// `>=`
    GtE,
    /// `in`
    In,
    /// `not in`
    NotIn,
    /// `is` (identity for objects, equality for inline values, as CPython behaves for small values)
    Is,
    /// `is not`
    IsNot,
}

impl BinOp {
    /// The operator as written in source.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
        }
    }
}

impl CmpOp {
    /// The operator as written in source.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::NotEq => "!=",
            CmpOp::Lt => "<",
            CmpOp::LtE => "<=",
            CmpOp::Gt => ">",
            CmpOp::GtE => ">=",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
            CmpOp::Is => "is",
            CmpOp::IsNot => "is not",
        }
    }
}

/// The parts of a comprehension (list, set, dict or generator), for the passes that treat
/// them alike: its variables are bound within it, and its first iterable is read outside it.
#[derive(Clone, Copy)]
pub struct Comprehension<'e> {
    /// What each item of the first clause is assigned to.
    pub target: &'e Target,
    /// The first clause's iterable.
    pub iter: &'e Expr,
    /// The first clause's conditions.
    pub ifs: &'e [Expr],
    /// The `for` clauses after the first, each nested in the one before.
    pub more: &'e [CompFor],
    /// What it makes of each item: the element, or the key and the value.
    pub elements: [Option<&'e Expr>; 2],
}

impl<'e> Comprehension<'e> {
    /// Its `for` clauses in order as `(target, iterable, conditions)`, each nested in the one
    /// before.
    pub fn clauses(&self) -> impl Iterator<Item = (&'e Target, &'e Expr, &'e [Expr])> + use<'e> {
        let first = (self.target, self.iter, self.ifs);
        std::iter::once(first).chain(self.more.iter().map(|c| (&c.target, &c.iter, c.ifs.as_slice())))
    }

    /// The element, or the key and the value.
    pub fn elements(&self) -> impl Iterator<Item = &'e Expr> + use<'e> {
        self.elements.into_iter().flatten()
    }
}

impl Expr {
    /// The parts of a list, set, dict or generator comprehension; `None` for any other expression.
    pub fn comprehension(&self) -> Option<Comprehension<'_>> {
        match self {
            Expr::ListComp { elt, target, iter, ifs, more }
            | Expr::SetComp { elt, target, iter, ifs, more }
            | Expr::GeneratorExp { elt, target, iter, ifs, more } => {
                Some(Comprehension { target, iter, ifs, more, elements: [Some(elt), None] })
            }
            Expr::DictComp { key, value, target, iter, ifs, more } => {
                Some(Comprehension { target, iter, ifs, more, elements: [Some(key), Some(value)] })
            }
            _ => None,
        }
    }
}
