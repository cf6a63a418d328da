//! The parameters of the ops that Python's own functions stand behind (`re.sub`,
//! `bisect.bisect_left`, `itertools.accumulate`, `json.dumps`, ...), as Python declares them, so
//! that a script may pass their arguments by name.
//!
//! Rationale: an op takes its arguments by position only. A call with keywords is bound where
//! the script is compiled: each parameter's value goes to its position, the defaults of those
//! left out before the last one given are filled in, and keyword-only parameters follow the
//! positional ones. The op therefore sees one layout, whatever the call looked like.

use crate::error::Error;
use crate::func::CallArgs;
use crate::pipeline::ast::Literal;
use crate::pipeline::binding::{Params, Source, bind, bound_values};
use crate::pipeline::shaped_binding::{ResolvedArgs, views};
use crate::{AnyValue, PackedFunc};

/// One op's parameters, as its Python function declares them.
pub struct OpParams {
    /// The op's dotted name (`bisect.bisect_left`).
    pub op: &'static str,
    /// The name Python's function gives itself in errors (`bisect_right` for `bisect.bisect`).
    pub name: &'static str,
    /// Every parameter's name: those that may be given by position, then keyword-only ones.
    pub names: &'static [&'static str],
    /// How many of `names` may be given by position (the rest are keyword-only).
    pub positional: usize,
    /// The defaults of the last parameters, in order.
    pub defaults: &'static [Literal],
    /// Whether Python's function is written in C (its errors are worded as CPython words them
    /// for C functions) rather than in Python (`re.sub`).
    pub builtin: bool,
}

const ZERO: Literal = Literal::Int(0);
const NONE: Literal = Literal::None;
const TRUE: Literal = Literal::Bool(true);
const FALSE: Literal = Literal::Bool(false);

/// `re.*` are Python functions whose optional parameters default to 0.
const fn re(
    (op, name): (&'static str, &'static str),
    names: &'static [&'static str],
    defaults: &'static [Literal],
) -> OpParams {
    OpParams { op, name, names, positional: names.len(), defaults, builtin: false }
}

/// `bisect_left(a, x, lo=0, hi=None, *, key=None)` and the rest of its family.
const fn bisect((op, name): (&'static str, &'static str)) -> OpParams {
    let names = &["a", "x", "lo", "hi", "key"];
    OpParams { op, name, names, positional: 4, defaults: &[ZERO, NONE, NONE], builtin: true }
}

/// `random.*`, bound methods of `random.py`'s hidden `Random` (so named `Random.*` in errors).
const fn random(
    op: &'static str,
    name: &'static str,
    names: &'static [&'static str],
    positional: usize,
    defaults: &'static [Literal],
) -> OpParams {
    OpParams { op, name, names, positional, defaults, builtin: false }
}

/// Every op that takes keyword arguments.
pub const OP_PARAMS: &[OpParams] = &[
    re(("re.compile", "compile"), &["pattern", "flags"], &[ZERO]),
    re(("re.search", "search"), &["pattern", "string", "flags"], &[ZERO]),
    re(("re.match", "match"), &["pattern", "string", "flags"], &[ZERO]),
    re(("re.fullmatch", "fullmatch"), &["pattern", "string", "flags"], &[ZERO]),
    re(("re.findall", "findall"), &["pattern", "string", "flags"], &[ZERO]),
    re(("re.finditer", "finditer"), &["pattern", "string", "flags"], &[ZERO]),
    re(("re.split", "split"), &["pattern", "string", "maxsplit", "flags"], &[ZERO, ZERO]),
    re(("re.sub", "sub"), &["pattern", "repl", "string", "count", "flags"], &[ZERO, ZERO]),
    re(("re.subn", "subn"), &["pattern", "repl", "string", "count", "flags"], &[ZERO, ZERO]),
    re(("re.escape", "escape"), &["pattern"], &[]),
    // `from_bytes(bytes, byteorder='big', *, signed=False)`: None stands for the left-out byte
    // order (a constant default holds no str).
    OpParams {
        op: "int.from_bytes",
        name: "from_bytes",
        names: &["bytes", "byteorder", "signed"],
        positional: 2,
        defaults: &[NONE, FALSE],
        builtin: true,
    },
    bisect(("bisect.bisect_left", "bisect_left")),
    bisect(("bisect.bisect_right", "bisect_right")),
    bisect(("bisect.bisect", "bisect_right")),
    bisect(("bisect.insort_left", "insort_left")),
    bisect(("bisect.insort_right", "insort_right")),
    bisect(("bisect.insort", "insort_right")),
    OpParams {
        op: "json.loads",
        name: "loads",
        // `strict` is one of the decoder's keywords, which `loads` passes on.
        names: &[
            "s",
            "cls",
            "object_hook",
            "parse_float",
            "parse_int",
            "parse_constant",
            "object_pairs_hook",
            "strict",
        ],
        positional: 1,
        defaults: &[NONE, NONE, NONE, NONE, NONE, NONE, TRUE],
        builtin: false,
    },
    OpParams {
        op: "json.dumps",
        name: "dumps",
        names: &[
            "obj",
            "skipkeys",
            "ensure_ascii",
            "check_circular",
            "allow_nan",
            "cls",
            "indent",
            "separators",
            "default",
            "sort_keys",
        ],
        positional: 1,
        defaults: &[FALSE, TRUE, TRUE, TRUE, NONE, NONE, NONE, NONE, FALSE],
        builtin: false,
    },
    OpParams {
        op: "math.isclose",
        name: "isclose",
        names: &["a", "b", "rel_tol", "abs_tol"],
        positional: 2,
        defaults: &[Literal::Float(1e-9), Literal::Float(0.0)],
        builtin: true,
    },
    // `prod(iterable, /, *, start=1)`: a positional-only parameter has no name.
    OpParams {
        op: "math.prod",
        name: "prod",
        names: &["", "start"],
        positional: 1,
        defaults: &[Literal::Int(1)],
        builtin: true,
    },
    // `nsmallest(n, iterable, key=None)`, Python functions in `heapq.py`.
    OpParams {
        op: "heapq.nsmallest",
        name: "nsmallest",
        names: &["n", "iterable", "key"],
        positional: 3,
        defaults: &[NONE],
        builtin: false,
    },
    OpParams {
        op: "heapq.nlargest",
        name: "nlargest",
        names: &["n", "iterable", "key"],
        positional: 3,
        defaults: &[NONE],
        builtin: false,
    },
    OpParams {
        op: "itertools.combinations",
        name: "combinations",
        names: &["iterable", "r"],
        positional: 2,
        defaults: &[],
        builtin: true,
    },
    OpParams {
        op: "itertools.combinations_with_replacement",
        name: "combinations_with_replacement",
        names: &["iterable", "r"],
        positional: 2,
        defaults: &[],
        builtin: true,
    },
    OpParams {
        op: "itertools.permutations",
        name: "permutations",
        names: &["iterable", "r"],
        positional: 2,
        defaults: &[NONE],
        builtin: true,
    },
    // `namedtuple(typename, field_names, *, rename=False, defaults=None, module=None)`.
    OpParams {
        op: "collections.namedtuple",
        name: "namedtuple",
        names: &["typename", "field_names", "rename", "defaults", "module"],
        positional: 2,
        defaults: &[FALSE, NONE, NONE],
        builtin: false,
    },
    // `deque(iterable=(), maxlen=None)`: an empty str stands for the empty tuple.
    OpParams {
        op: "collections.deque",
        name: "deque",
        names: &["iterable", "maxlen"],
        positional: 2,
        defaults: &[Literal::Str(String::new()), NONE],
        builtin: true,
    },
    OpParams {
        op: "itertools.compress",
        name: "compress",
        names: &["data", "selectors"],
        positional: 2,
        defaults: &[],
        builtin: true,
    },
    random("random.seed", "Random.seed", &["a", "version"], 2, &[NONE, Literal::Int(2)]),
    random("random.randrange", "Random.randrange", &["start", "stop", "step"], 3, &[NONE, Literal::Int(1)]),
    random("random.randint", "Random.randint", &["a", "b"], 2, &[]),
    random("random.uniform", "Random.uniform", &["a", "b"], 2, &[]),
    random("random.choice", "Random.choice", &["seq"], 1, &[]),
    random("random.shuffle", "Random.shuffle", &["x"], 1, &[]),
    random("random.sample", "Random.sample", &["population", "k"], 2, &[]),
    random("random.gauss", "Random.gauss", &["mu", "sigma"], 2, &[Literal::Float(0.0), Literal::Float(1.0)]),
    random(
        "random.normalvariate",
        "Random.normalvariate",
        &["mu", "sigma"],
        2,
        &[Literal::Float(0.0), Literal::Float(1.0)],
    ),
    random("random.lognormvariate", "Random.lognormvariate", &["mu", "sigma"], 2, &[]),
    random("random.expovariate", "Random.expovariate", &["lambd"], 1, &[]),
    random("random.paretovariate", "Random.paretovariate", &["alpha"], 1, &[]),
    random("random.weibullvariate", "Random.weibullvariate", &["alpha", "beta"], 2, &[]),
    random("random.gammavariate", "Random.gammavariate", &["alpha", "beta"], 2, &[]),
    random("random.betavariate", "Random.betavariate", &["alpha", "beta"], 2, &[]),
    random("random.vonmisesvariate", "Random.vonmisesvariate", &["mu", "kappa"], 2, &[]),
    random(
        "random.triangular",
        "Random.triangular",
        &["low", "high", "mode"],
        3,
        &[Literal::Float(0.0), Literal::Float(1.0), NONE],
    ),
    random(
        "random.choices",
        "Random.choices",
        &["population", "weights", "cum_weights", "k"],
        2,
        &[NONE, NONE, Literal::Int(1)],
    ),
    OpParams {
        op: "itertools.groupby",
        name: "groupby",
        names: &["iterable", "key"],
        positional: 2,
        defaults: &[NONE],
        builtin: true,
    },
    OpParams {
        op: "itertools.accumulate",
        name: "accumulate",
        names: &["iterable", "func", "initial"],
        positional: 2,
        defaults: &[NONE, NONE],
        builtin: true,
    },
    OpParams {
        op: "itertools.count",
        name: "count",
        names: &["start", "step"],
        positional: 2,
        defaults: &[ZERO, Literal::Int(1)],
        builtin: true,
    },
];

/// The parameters of op `name`, if it takes keyword arguments.
pub fn op_params(name: &str) -> Option<&'static OpParams> {
    OP_PARAMS.iter().find(|p| p.op == name)
}

/// CPython's error, if any, for `n` positional arguments to op `name` (a direct call of the op,
/// which has not been through the binding a compiled call gets).
pub fn check_count(name: &str, n: usize) -> crate::Result<()> {
    let op = op_params(name).expect("the op is declared in OP_PARAMS");
    op.bind(n, &[]).map(|_| ())
}

/// Gives each op of [`OP_PARAMS`] a keyword form, which binds a call's keywords as a call by
/// the op's name is bound where it is compiled (`fn(a, x, key=k)` of `fn = bisect.bisect_left`,
/// `partial(re.sub, count=1)`): the registered op is replaced by the same function with that
/// form, so the op stays one value however it is reached (`type(d) is collections.deque`).
pub fn add_keyword_forms(reg: &crate::func::Registry) -> crate::Result<()> {
    for op in OP_PARAMS {
        let info =
            reg.info(op.op).ok_or_else(|| Error::runtime(format!("{} is declared but not registered", op.op)))?;
        let f =
            PackedFunc::with_keywords((op, info.func), |(_, f), args| f.call(args), |(op, f), call| op.call(f, call));
        reg.register(op.op, &info.signature, &info.doc, f, true)?;
    }
    Ok(())
}

/// Op `f` as a value a script passes around (`bisect.bisect_left` not called where it is
/// named): called positionally, none of its arguments may land on a keyword-only parameter,
/// as Python's function refuses them, with its message; its keyword form is the op's.
pub fn as_value(name: &str, f: PackedFunc) -> PackedFunc {
    let Some(op) = op_params(name).filter(|p| p.positional < p.names.len()) else { return f };
    PackedFunc::with_keywords(
        (op, f),
        |(op, f), args| match too_many(op, args.len()) {
            Some(e) => Err(e),
            None => f.call(args),
        },
        |(_, f), call| f.call_keywords(call),
    )
}

/// CPython's error for `n` positional arguments to `op`, if they are too many: the binding a
/// compiled call gets, with no keywords.
fn too_many(op: &OpParams, n: usize) -> Option<Error> {
    (n > op.positional).then(|| op.bind(n, &[]).err()).flatten()
}

impl OpParams {
    /// Calls `f`, the op, with `call` bound to its parameters by position.
    fn call(&self, f: &PackedFunc, call: &CallArgs<'_>) -> crate::Result<AnyValue> {
        let resolved = ResolvedArgs::of(&self.function_str(), call)?;
        let sources = self.bind(resolved.positional.len(), &resolved.name_refs())?;
        let given = (resolved.positional.as_slice(), resolved.values.as_slice());
        let args = bound_values(&sources, given, self.names.len(), self.defaults);
        f.call(&views(&args))
    }

    /// How CPython names the function in the errors of spreading a call's arguments (its
    /// `_PyObject_FunctionStr`): its module and name (`re.findall`), `bisect`'s as the C module
    /// `_bisect` defines them, `random`'s as methods of `random.Random`.
    fn function_str(&self) -> String {
        let (module, name) = self.op.split_once('.').unwrap_or(("", self.op));
        match (module, name) {
            ("bisect", "bisect") => "_bisect.bisect_right".into(),
            ("bisect", "insort") => "_bisect.insort_right".into(),
            ("bisect", _) => format!("_bisect.{name}"),
            ("random", _) => format!("random.Random.{name}"),
            _ => self.op.into(),
        }
    }

    /// The source of each parameter for a call with `positional` positional arguments and
    /// `keywords`, or CPython's error. `random`'s functions are methods (the module's are bound
    /// to its hidden generator), whose `self` CPython counts in a wrong count's message.
    pub(crate) fn bind(&self, positional: usize, keywords: &[&str]) -> crate::Result<Vec<Source>> {
        if !self.op.starts_with("random.") {
            return bind(&self.binding(), positional, keywords);
        }
        let names: Vec<&str> = std::iter::once("self").chain(self.names.iter().copied()).collect();
        let with_self = Params { names: &names, positional: self.positional + 1, ..self.binding() };
        let sources = bind(&with_self, positional + 1, keywords)?;
        Ok(sources[1..]
            .iter()
            .map(|s| match *s {
                Source::Positional(i) => Source::Positional(i - 1),
                Source::Default(i) => Source::Default(i - 1),
                keyword => keyword,
            })
            .collect())
    }

    /// The parameters as [`bind`] takes them.
    pub(crate) fn binding(&self) -> Params<'static> {
        Params {
            name: self.name,
            names: self.names,
            positional: self.positional,
            n_defaults: self.defaults.len(),
            builtin: self.builtin,
        }
    }
}
