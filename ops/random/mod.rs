//! `random.*`: Python's `random` module, the same numbers CPython 3.11 draws for the same seed.
//! Masking tokens for a masked language model, dropping words, shuffling and sampling
//! examples: preprocessing code that draws numbers must give the dataset its Python version
//! gave, or a run cannot be reproduced.
//!
//! `random.Random(seed)` makes a generator object with the methods `random`, `seed`,
//! `getrandbits`, `randrange`, `randint`, `choice`, `shuffle`, `sample`, `choices`, `uniform`,
//! `gauss`, `normalvariate`, `lognormvariate`, `expovariate`, `triangular`, `paretovariate`,
//! `weibullvariate`, `vonmisesvariate`, `gammavariate` and `betavariate`; the module functions (`random.random()`, `random.seed(42)`, ...) draw from one
//! process-wide generator, seeded from the OS until a script seeds it.
//!
//! Rationale: the Mersenne Twister is `mt.rs` (MT19937 with the state CPython's `getstate`
//! shows, so a Python `random.Random` crosses at the place it stands). What CPython builds on it
//! is written here as
//! `_randommodule.c` and `random.py` write it, step for step: the words a seed becomes, the two
//! draws of `random()`, `getrandbits`' word order, `_randbelow`'s rejection loop, and each
//! method's use of them (so `shuffle` or `sample` draws exactly the numbers CPython's draws).

mod distributions;
mod draw;
pub mod mt;
mod seed;
mod sequences;

use crate::error::{Error, ErrorKind, Result};
use crate::func::Registry;
use crate::object::{ObjPtr, ObjRef, Object, TypeHooks};
use crate::pipeline::ast::BinOp;
use crate::pipeline::binding::{missing_error, too_many_positional};
use crate::pipeline::methods::{Method, arity_error};
use crate::pipeline::value_ops::{binary, index_arg, type_error, value_error, vname};
use crate::{AnyValue, AnyView, PackedFunc, Value};
use distributions::{
    betavariate, expovariate, gammavariate, gauss, lognormvariate, normalvariate, paretovariate, triangular,
    vonmisesvariate, weibullvariate,
};
use draw::{below, bits, next_float};
use mt::Mt19937 as Mt;
use parking_lot::Mutex;
use seed::{entropy_key, seed_key};
use sequences::{choice, choices, sample, shuffle};
use std::sync::LazyLock;

/// The heap object behind a `random.Random`.
#[repr(C)]
pub struct RandomObj {
    header: Object,
    mt: Mutex<Mt>,
}

impl RandomObj {
    fn new_value(mt: Mt) -> AnyValue {
        let obj = RandomObj { header: Object::blank(), mt: Mutex::new(mt) };
        AnyValue::from_object(ObjRef::new(obj))
    }

    /// A generator at the state CPython's `getstate()` shows (624 words, a position and
    /// `gauss_next`); `None` for a position past 624, which CPython's `setstate` refuses.
    pub fn from_python_state(words: &[u32; mt::N], index: usize, gauss_next: Option<f64>) -> Option<AnyValue> {
        Mt::from_state(words, index, gauss_next).map(RandomObj::new_value)
    }

    /// The state as CPython's `getstate()` lists it: 624 words, then the position; and
    /// `gauss_next`.
    pub fn python_state(&self) -> (Vec<u32>, Option<f64>) {
        let mt = self.mt.lock();
        let (words, index) = mt.state();
        let mut out = words.to_vec();
        out.push(index as u32);
        (out, mt.gauss_next)
    }
}

crate::declare_object_type!(RandomObj, "random.Random", parent = Object, child_slots = 0, hooks = Some(&HOOKS));

static HOOKS: TypeHooks = TypeHooks {
    eq: |a, b, _| a.as_raw() == b.as_raw(),
    hash: |p, state, _| state.write_usize(p.as_raw().as_ptr() as usize),
    repr: |p, f, _| write!(f, "<random.Random object at {:#x}>", p.as_raw().as_ptr() as usize),
};

/// The generator behind `random.random()` and the other module functions.
static MODULE_GENERATOR: LazyLock<Mutex<Mt>> = LazyLock::new(|| Mutex::new(Mt::with_key(&entropy_key())));

/// The generator behind `v`, if it is a `random.Random`.
pub fn random_of(v: Value<'_>) -> Option<&RandomObj> {
    v.as_obj().and_then(ObjPtr::downcast_ref::<RandomObj>)
}

/// The type index of `random.Random` objects (for method dispatch).
pub fn random_type_index() -> i32 {
    <RandomObj as crate::object::ObjectType>::type_index()
}

// ---------------------------------------------------------------- arguments

/// An argument `randrange` takes as an int (`what` names it in CPython's message): an int, or
/// a float that is one (which CPython 3.11 takes with a DeprecationWarning).
fn range_int(v: &AnyView<'_>, what: &str) -> Result<i64> {
    match v.value() {
        x if let Some(i) = x.as_int() => Ok(i),
        Value::Float(f) if f.is_nan() => Err(value_error("cannot convert float NaN to integer")),
        Value::Float(f) if f.is_infinite() => {
            Err(Error::new(ErrorKind::Overflow, "cannot convert float infinity to integer"))
        }
        Value::Float(f) if f.fract() != 0.0 => Err(value_error(format!("non-integer {what} for randrange()"))),
        Value::Float(f) if (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) => Ok(f as i64),
        Value::Float(_) => Err(too_large()),
        x => Err(type_error(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            vname(x)
        ))),
    }
}

fn too_large() -> Error {
    Error::new(ErrorKind::Overflow, "int too large for a 64-bit int in anyscript")
}

// ---------------------------------------------------------------- the methods

/// One of `random.Random`'s methods (and the module function of the same name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RandomFn {
    /// `random()`.
    Random,
    /// `seed(a=None, version=2)`.
    Seed,
    /// `getrandbits(k)`.
    Getrandbits,
    /// `randrange(start, stop=None, step=1)`.
    Randrange,
    /// `randint(a, b)`.
    Randint,
    /// `choice(seq)`.
    Choice,
    /// `shuffle(x)`.
    Shuffle,
    /// `sample(population, k)`.
    Sample,
    /// `choices(population, weights=None, *, cum_weights=None, k=1)`.
    Choices,
    /// `uniform(a, b)`.
    Uniform,
    /// `gauss(mu=0.0, sigma=1.0)`.
    Gauss,
    /// `normalvariate(mu=0.0, sigma=1.0)`.
    Normalvariate,
    /// `lognormvariate(mu, sigma)`.
    Lognormvariate,
    /// `expovariate(lambd)`.
    Expovariate,
    /// `triangular(low=0.0, high=1.0, mode=None)`.
    Triangular,
    /// `paretovariate(alpha)`.
    Paretovariate,
    /// `weibullvariate(alpha, beta)`.
    Weibullvariate,
    /// `vonmisesvariate(mu, kappa)`.
    Vonmisesvariate,
    /// `gammavariate(alpha, beta)`.
    Gammavariate,
    /// `betavariate(alpha, beta)`.
    Betavariate,
}

impl RandomFn {
    /// Every function, in declaration order.
    pub const ALL: [RandomFn; 20] = [
        RandomFn::Random,
        RandomFn::Seed,
        RandomFn::Getrandbits,
        RandomFn::Randrange,
        RandomFn::Randint,
        RandomFn::Choice,
        RandomFn::Shuffle,
        RandomFn::Sample,
        RandomFn::Choices,
        RandomFn::Uniform,
        RandomFn::Gauss,
        RandomFn::Normalvariate,
        RandomFn::Lognormvariate,
        RandomFn::Expovariate,
        RandomFn::Triangular,
        RandomFn::Paretovariate,
        RandomFn::Weibullvariate,
        RandomFn::Vonmisesvariate,
        RandomFn::Gammavariate,
        RandomFn::Betavariate,
    ];

    /// The function's name.
    pub fn name(self) -> &'static str {
        match self {
            RandomFn::Random => "random",
            RandomFn::Seed => "seed",
            RandomFn::Getrandbits => "getrandbits",
            RandomFn::Randrange => "randrange",
            RandomFn::Randint => "randint",
            RandomFn::Choice => "choice",
            RandomFn::Shuffle => "shuffle",
            RandomFn::Sample => "sample",
            RandomFn::Choices => "choices",
            RandomFn::Uniform => "uniform",
            RandomFn::Gauss => "gauss",
            RandomFn::Normalvariate => "normalvariate",
            RandomFn::Lognormvariate => "lognormvariate",
            RandomFn::Expovariate => "expovariate",
            RandomFn::Triangular => "triangular",
            RandomFn::Paretovariate => "paretovariate",
            RandomFn::Weibullvariate => "weibullvariate",
            RandomFn::Vonmisesvariate => "vonmisesvariate",
            RandomFn::Gammavariate => "gammavariate",
            RandomFn::Betavariate => "betavariate",
        }
    }

    /// The random function a method is, if it is one.
    pub fn of_method(m: Method) -> Option<RandomFn> {
        RandomFn::ALL.into_iter().find(|f| f.name() == m.name())
    }

    /// The positional parameters of the Python method (after `self`), how many are required,
    /// and how many arguments the op takes at most: `choices` also takes its keyword-only
    /// `cum_weights` and `k`, which a call by name passes after them.
    fn params(self) -> (&'static [&'static str], usize, usize) {
        match self {
            RandomFn::Random => (&[], 0, 0),
            RandomFn::Seed => (&["a", "version"], 0, 2),
            RandomFn::Getrandbits | RandomFn::Choice | RandomFn::Shuffle => (&["x"], 1, 1),
            RandomFn::Randrange => (&["start", "stop", "step"], 1, 3),
            RandomFn::Randint | RandomFn::Uniform => (&["a", "b"], 2, 2),
            RandomFn::Sample => (&["population", "k"], 2, 2),
            RandomFn::Choices => (&["population", "weights"], 1, 4),
            RandomFn::Gauss | RandomFn::Normalvariate => (&["mu", "sigma"], 0, 2),
            RandomFn::Lognormvariate => (&["mu", "sigma"], 2, 2),
            RandomFn::Expovariate => (&["lambd"], 1, 1),
            RandomFn::Triangular => (&["low", "high", "mode"], 0, 3),
            RandomFn::Paretovariate => (&["alpha"], 1, 1),
            RandomFn::Weibullvariate | RandomFn::Gammavariate | RandomFn::Betavariate => (&["alpha", "beta"], 2, 2),
            RandomFn::Vonmisesvariate => (&["mu", "kappa"], 2, 2),
        }
    }

    /// The op's signature. Its parameters are one starred name, so that a wrong count is the
    /// runtime error CPython gives, not one where the script compiles.
    fn signature(self) -> &'static str {
        match self {
            RandomFn::Random => "(*none) -> float",
            RandomFn::Seed => "(*a_version) -> None",
            RandomFn::Getrandbits => "(*k) -> int",
            RandomFn::Randrange => "(*start_stop_step) -> int",
            RandomFn::Randint => "(*a_b) -> int",
            RandomFn::Choice => "(*seq) -> value",
            RandomFn::Shuffle => "(*x) -> None",
            RandomFn::Sample => "(*population_k) -> list",
            RandomFn::Choices => "(*population_weights_cum_weights_k) -> list",
            RandomFn::Uniform => "(*a_b) -> float",
            RandomFn::Gauss | RandomFn::Normalvariate | RandomFn::Lognormvariate => "(*mu_sigma) -> float",
            RandomFn::Expovariate => "(*lambd) -> float",
            RandomFn::Triangular => "(*low_high_mode) -> float",
            RandomFn::Paretovariate => "(*alpha) -> float",
            RandomFn::Weibullvariate | RandomFn::Gammavariate | RandomFn::Betavariate => "(*alpha_beta) -> float",
            RandomFn::Vonmisesvariate => "(*mu_kappa) -> float",
        }
    }

    /// CPython's error for `n` arguments, if they do not fit.
    fn check_count(self, n: usize) -> Result<()> {
        let (names, required, most) = self.params();
        let qualified = format!("Random.{}", self.name());
        if matches!(self, RandomFn::Random | RandomFn::Getrandbits) {
            // Methods written in C.
            return match n == required {
                true => Ok(()),
                false => Err(arity_error(&qualified, self.name(), (required, required), n)),
            };
        }
        // A Python method's messages, `self` counted.
        if n > most {
            return Err(too_many_positional(&qualified, (required + 1, names.len() + 1), n + 1, 0));
        }
        if n < required {
            return Err(missing_error(&qualified, &names[n..required]));
        }
        Ok(())
    }
}

/// Calls `f` on generator `mt` with `args`.
pub fn call(f: RandomFn, mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    f.check_count(args.len())?;
    let none = AnyView::none();
    let arg = |i: usize| args.get(i).copied().unwrap_or(none);
    match f {
        RandomFn::Random => Ok(AnyValue::from_float(next_float(mt))),
        RandomFn::Seed => {
            let version = args.get(1).map_or(Value::Int(2), |v| v.value());
            let key = seed_key(arg(0).value(), version)?;
            mt.lock().seed_with_key(&key);
            Ok(AnyValue::none())
        }
        RandomFn::Getrandbits => getrandbits(mt, &args[0]),
        RandomFn::Randrange => randrange(mt, args),
        RandomFn::Randint => {
            let b = binary(BinOp::Add, args[1], AnyView::from(1i64))?;
            randrange(mt, &[args[0], b.view()])
        }
        RandomFn::Choice => choice(mt, args[0]),
        RandomFn::Shuffle => shuffle(mt, args[0]).map(|()| AnyValue::none()),
        RandomFn::Sample => sample(mt, args[0], &args[1]),
        RandomFn::Choices => choices(mt, args),
        RandomFn::Uniform => {
            // `a + (b - a) * self.random()`, in that order.
            let width = binary(BinOp::Sub, args[1], args[0])?;
            let r = AnyValue::from_float(next_float(mt));
            let scaled = binary(BinOp::Mul, width.view(), r.view())?;
            Ok(binary(BinOp::Add, args[0], scaled.view())?.resize())
        }
        RandomFn::Gauss => gauss(mt, args),
        RandomFn::Normalvariate => normalvariate(mt, args),
        RandomFn::Lognormvariate => lognormvariate(mt, args),
        RandomFn::Expovariate => expovariate(mt, &args[0]),
        RandomFn::Triangular => triangular(mt, args),
        RandomFn::Paretovariate => paretovariate(mt, &args[0]),
        RandomFn::Weibullvariate => weibullvariate(mt, &args[0], &args[1]),
        RandomFn::Vonmisesvariate => vonmisesvariate(mt, &args[0], &args[1]),
        RandomFn::Gammavariate => gammavariate(mt, &args[0], &args[1]),
        RandomFn::Betavariate => betavariate(mt, &args[0], &args[1]),
    }
}

/// `getrandbits(k)`: an int of `k` random bits (64-bit ints here: up to 63).
fn getrandbits(mt: &Mutex<Mt>, k: &AnyView<'_>) -> Result<AnyValue> {
    let k = index_arg(k)?;
    if k < 0 {
        return Err(value_error("number of bits must be non-negative"));
    }
    if k > 63 {
        return Err(too_large());
    }
    Ok(AnyValue::from_int(bits(mt, k as u32) as i64))
}

/// `randrange(start, stop=None, step=1)`, as `random.py` checks and draws it.
fn randrange(mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let start = range_int(&args[0], "arg 1")?;
    let stop = args.get(1).filter(|v| !matches!(v.value(), Value::None));
    let step = args.get(2);
    let Some(stop) = stop else {
        // `step is not _ONE`: a step of 1 given is CPython's cached 1.
        if step.is_some_and(|s| s.value().as_int() != Some(1) || matches!(s.value(), Value::Bool(_))) {
            return Err(type_error("Missing a non-None stop argument"));
        }
        if start > 0 {
            return Ok(AnyValue::from_int(below(mt, start as u64) as i64));
        }
        return Err(value_error("empty range for randrange()"));
    };
    let stop = range_int(stop, "stop")?;
    let width = i128::from(stop) - i128::from(start);
    let step = step.map_or(Ok(1), |s| range_int(s, "step"))?;
    if step == 1 {
        if width > 0 {
            let drawn = below(mt, u64::try_from(width).map_err(|_| too_large())?);
            return Ok(AnyValue::from_int((i128::from(start) + i128::from(drawn)) as i64));
        }
        return Err(value_error(format!("empty range for randrange() ({start}, {stop}, {width})")));
    }
    let step = i128::from(step);
    let n = match step {
        0 => return Err(value_error("zero step for randrange()")),
        s if s > 0 => floor_div(width + s - 1, s),
        s => floor_div(width + s + 1, s),
    };
    if n <= 0 {
        return Err(value_error("empty range for randrange()"));
    }
    let drawn = below(mt, u64::try_from(n).map_err(|_| too_large())?);
    Ok(AnyValue::from_int((i128::from(start) + step * i128::from(drawn)) as i64))
}

/// Python's `//` of two ints.
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q }
}
/// A method of a `random.Random` (`rng.shuffle(xs)`).
pub fn method(m: Method, obj: &RandomObj, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let f = RandomFn::of_method(m).expect("the method spec admits only Random's methods");
    call(f, &obj.mt, args)
}

/// `random.Random(x=None)`.
fn new_random(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() > 1 {
        return Err(type_error(format!(
            "Random.__init__() takes from 1 to 2 positional arguments but {} were given",
            args.len() + 1
        )));
    }
    let key = seed_key(args.first().map_or(Value::None, |a| a.value()), Value::Int(2))?;
    Ok(RandomObj::new_value(Mt::with_key(&key)))
}

/// Registers `random.Random` and the module functions.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register(
        "random.Random",
        "(*x) -> Random",
        "A Mersenne Twister generator seeded with x, drawing as Python's random.Random does.",
        PackedFunc::new(new_random),
        false,
    )?;
    for f in RandomFn::ALL {
        let op = PackedFunc::new(move |args| call(f, &MODULE_GENERATOR, args));
        let doc = format!("Python's random.{}, drawn from the module's generator.", f.name());
        reg.register(&format!("random.{}", f.name()), f.signature(), &doc, op, false)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    // Expected values: CPython 3.11's, for the same calls (and, for the seeds of 0 and 42, the
    // first draws every Python user has seen).
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn draws_are_cpython_s_for_the_same_seed() {
        assert_eq!(run("return repr(random.Random(0).random())"), "0.8444218515250481");
        assert_eq!(run("return repr(random.Random(42).random())"), "0.6394267984578837");
        assert_eq!(
            run(
                "r = random.Random(0)\nx = list(range(10))\nr.shuffle(x)\nreturn repr((x, r.getrandbits(40), r.randrange(0, 100, 7), r.sample(range(50), 5), r.choices('abc', [1, 2, 3], k=4), r.uniform(1, 2)))"
            ),
            "([7, 8, 1, 5, 3, 4, 2, 0, 9, 6], 641487937455, 98, [13, 32, 8, 18, 48], ['a', 'c', 'c', 'c'], 1.7051722542212697)"
        );
    }

    #[test]
    fn distributions_draw_cpython_s_numbers() {
        assert_eq!(
            run(
                "r = random.Random(0)\nreturn repr((r.gauss(), r.gauss(), r.normalvariate(1, 2), r.expovariate(3), r.triangular(0, 10, 2)))"
            ),
            "(0.9417154046806644, -1.3965781047011498, 0.6322635578134834, 0.2386515832557169, 3.1003428343165584)"
        );
    }

    #[test]
    fn seeds_of_each_type_become_cpython_s_keys() {
        assert_eq!(run("return repr(random.Random('anyproc').random())"), "0.9126451699652074");
        assert_eq!(run("return repr(random.Random(2.5).random())"), "0.41877545666909954");
        assert_eq!(run("return repr(random.Random(-2**62 * 2).random())"), "0.5534639983914199");
        assert_eq!(
            run("r = random.Random()\nr.seed('abc', version=1)\nreturn repr(r.random())"),
            "0.09639374978773074"
        );
    }
}
