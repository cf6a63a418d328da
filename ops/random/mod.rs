//! `random.*`: Python's `random` module, the same numbers CPython 3.11 draws for the same seed.
//! Masking tokens for a masked language model, dropping words, shuffling and sampling
//! examples: preprocessing code that draws numbers must give the dataset its Python version
//! gave, or a run cannot be reproduced.
//!
//! `random.Random(seed)` makes a generator object with the methods `random`, `seed`,
//! `getrandbits`, `randrange`, `randint`, `choice`, `shuffle`, `sample`, `choices` and
//! `uniform`; the module functions (`random.random()`, `random.seed(42)`, ...) draw from one
//! process-wide generator, seeded from the OS until a script seeds it.
//!
//! Rationale: the Mersenne Twister is `mt.rs` (MT19937 with the state CPython's `getstate`
//! shows, so a Python `random.Random` crosses at the place it stands). What CPython builds on it
//! is written here as
//! `_randommodule.c` and `random.py` write it, step for step: the words a seed becomes, the two
//! draws of `random()`, `getrandbits`' word order, `_randbelow`'s rejection loop, and each
//! method's use of them (so `shuffle` or `sample` draws exactly the numbers CPython's draws).

pub mod mt;

use crate::error::{Error, ErrorKind, Result};
use crate::func::Registry;
use crate::object::{ObjPtr, ObjRef, Object, TypeHooks};
use crate::pipeline::ast::{BinOp, CmpOp};
use crate::pipeline::methods::{Method, arity_error};
use crate::pipeline::value_ops::{
    binary, compare, get_item, iter_items, len, list_of, seq_obj, set_item, type_error, value_error, vname,
};
use crate::{AnyValue, AnyView, List, PackedFunc, Value};
use mt::Mt19937 as Mt;
use parking_lot::Mutex;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The heap object behind a `random.Random`.
#[repr(C)]
pub struct RandomObj {
    header: Object,
    mt: Mutex<Mt>,
    /// Whether a script called `seed` on it (which clears a Python generator's `gauss_next`).
    reseeded: AtomicBool,
}

impl RandomObj {
    fn new_value(mt: Mt) -> AnyValue {
        let obj = RandomObj { header: Object::blank(), mt: Mutex::new(mt), reseeded: AtomicBool::new(false) };
        AnyValue::from_object(ObjRef::new(obj))
    }

    /// A generator at the state CPython's `getstate()` shows (624 words and a position);
    /// `None` for a position past 624, which CPython's `setstate` refuses.
    pub fn from_python_state(words: &[u32; mt::N], index: usize) -> Option<AnyValue> {
        Mt::from_state(words, index).map(RandomObj::new_value)
    }

    /// The state as CPython's `getstate()` lists it (624 words, then the position), and
    /// whether a script reseeded the generator.
    pub fn python_state(&self) -> (Vec<u32>, bool) {
        let mt = self.mt.lock();
        let (words, index) = mt.state();
        let mut out = words.to_vec();
        out.push(index as u32);
        (out, self.reseeded.load(Ordering::Relaxed))
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

// ---------------------------------------------------------------- seeding

/// A key from the OS (`seed(None)`), as CPython takes one from `urandom`; the time and an
/// address if the OS has none to give.
fn entropy_key() -> Vec<u32> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        bytes[..16].copy_from_slice(&now.as_nanos().to_le_bytes());
        let address = &bytes as *const _ as usize as u64;
        bytes[16..24].copy_from_slice(&address.to_le_bytes());
    }
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The key `init_by_array` takes for a non-negative int: its 32-bit words, least significant
/// first, as many as its bits need (one for 0).
fn key_of_u64(n: u64) -> Vec<u32> {
    if n >> 32 == 0 { vec![n as u32] } else { vec![n as u32, (n >> 32) as u32] }
}

/// [`key_of_u64`] of the int whose big-endian bytes are `bytes` (`int.from_bytes(b)`).
fn key_of_big_endian(bytes: &[u8]) -> Vec<u32> {
    let mut words: Vec<u32> =
        bytes.rchunks(4).map(|c| c.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b))).collect();
    while words.len() > 1 && words.last() == Some(&0) {
        words.pop();
    }
    if words.is_empty() {
        words.push(0);
    }
    words
}

/// The key `Random.seed(a, version)` seeds with.
fn seed_key(a: Value<'_>, version: Value<'_>) -> Result<Vec<u32>> {
    let text: Option<Vec<u32>> = match a {
        Value::Str(s) => Some(s.chars().map(u32::from).collect()),
        Value::UStr(u) => Some(u.iter().map(|&c| u32::from(c)).collect()),
        Value::Bytes(b) => Some(b.iter().map(|&x| u32::from(x)).collect()),
        _ => None,
    };
    let version = version.as_int();
    Ok(match a {
        Value::None => entropy_key(),
        Value::Int(i) => key_of_u64(i.unsigned_abs()),
        Value::Bool(b) => key_of_u64(u64::from(b)),
        // `_randommodule.c` seeds with `(size_t) hash(a)` for anything but an int.
        Value::Float(_) => key_of_u64(crate::container::py_hash(a)? as u64),
        _ if let Some(codes) = text.filter(|_| version == Some(1)) => key_of_u64(version_1_seed(&codes)),
        Value::Str(_) | Value::UStr(_) | Value::Bytes(_) if version == Some(2) => {
            use sha2::Digest;
            let mut bytes = match a {
                Value::Bytes(b) => b.to_vec(),
                _ => a.as_str().map_or_else(|| text_bytes(a), |s| s.as_bytes().to_vec()),
            };
            let digest = sha2::Sha512::digest(&bytes);
            bytes.extend_from_slice(&digest);
            key_of_big_endian(&bytes)
        }
        // Another version: CPython seeds a str with its hash, which differs from run to run.
        Value::Str(_) | Value::UStr(_) | Value::Bytes(_) => key_of_u64(crate::container::py_hash(a)? as u64),
        _ => {
            return Err(type_error("The only supported seed types are: None,\nint, float, str, bytes, and bytearray."));
        }
    })
}

/// The UTF-8 bytes of a str held as UCS4.
fn text_bytes(a: Value<'_>) -> Vec<u8> {
    match a {
        Value::UStr(u) => u.iter().collect::<String>().into_bytes(),
        _ => Vec::new(),
    }
}

/// `seed(a, version=1)` of a str or bytes: `random.py`'s old string hash.
fn version_1_seed(codes: &[u32]) -> u64 {
    let mut x: u64 = codes.first().map_or(0, |&c| u64::from(c) << 7);
    for &c in codes {
        x = x.wrapping_mul(1_000_003) ^ u64::from(c);
    }
    x ^ codes.len() as u64
}

// ---------------------------------------------------------------- drawing

/// `random()`: 53 random bits from two draws, as `_randommodule.c` makes them.
fn next_float(mt: &Mutex<Mt>) -> f64 {
    let mut mt = mt.lock();
    let a = mt.next_u32() >> 5;
    let b = mt.next_u32() >> 6;
    (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
}

/// `getrandbits(k)` for `k <= 64`: whole words from the least significant, the last one cut
/// to its top bits.
fn bits(mt: &Mutex<Mt>, k: u32) -> u64 {
    let mut mt = mt.lock();
    match k {
        0 => 0,
        1..=32 => u64::from(mt.next_u32() >> (32 - k)),
        _ => {
            let low = u64::from(mt.next_u32());
            let high = mt.next_u32() >> (64 - k);
            low | (u64::from(high) << 32)
        }
    }
}

/// `_randbelow(n)` for `n > 0`: `n.bit_length()` bits, drawn again until below `n`.
fn below(mt: &Mutex<Mt>, n: u64) -> u64 {
    let k = 64 - n.leading_zeros();
    loop {
        let r = bits(mt, k);
        if r < n {
            return r;
        }
    }
}

/// [`below`] of a length.
fn below_len(mt: &Mutex<Mt>, n: usize) -> usize {
    below(mt, n as u64) as usize
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

/// An argument CPython reads with `__index__` (`getrandbits(k)`).
fn index(v: &AnyView<'_>) -> Result<i64> {
    v.value()
        .as_int()
        .ok_or_else(|| type_error(format!("'{}' object cannot be interpreted as an integer", vname(v.value()))))
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
}

impl RandomFn {
    /// Every function, in declaration order.
    pub const ALL: [RandomFn; 10] = [
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
        if n > most {
            let (lo, hi) = (required + 1, names.len() + 1);
            let takes = if lo == hi { format!("{hi}") } else { format!("from {lo} to {hi}") };
            let were = if n + 1 == 1 { "was" } else { "were" };
            return Err(type_error(format!(
                "{qualified}() takes {takes} positional arguments but {} {were} given",
                n + 1
            )));
        }
        if n < required {
            let missing: Vec<String> = names[n..required].iter().map(|p| format!("'{p}'")).collect();
            let s = if missing.len() == 1 { "" } else { "s" };
            let list = match missing.as_slice() {
                [one] => one.clone(),
                [init @ .., last] if init.len() == 1 => format!("{} and {last}", init[0]),
                [init @ .., last] => format!("{}, and {last}", init.join(", ")),
                [] => String::new(),
            };
            return Err(type_error(format!(
                "{qualified}() missing {} required positional argument{s}: {list}",
                missing.len()
            )));
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
    }
}

/// `getrandbits(k)`: an int of `k` random bits (64-bit ints here: up to 63).
fn getrandbits(mt: &Mutex<Mt>, k: &AnyView<'_>) -> Result<AnyValue> {
    let k = index(k)?;
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
        s if s > 0 => (width + s - 1).div_euclid(s),
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

/// `choice(seq)`.
fn choice(mt: &Mutex<Mt>, seq: AnyView<'_>) -> Result<AnyValue> {
    let n = len(seq)?;
    if n == 0 {
        return Err(Error::new(ErrorKind::Index, "Cannot choose from an empty sequence"));
    }
    let i = AnyValue::from_int(below_len(mt, n as usize) as i64);
    Ok(get_item(seq, i.view())?.resize())
}

/// `shuffle(x)`: Fisher-Yates from the end, each swap `x[i], x[j] = x[j], x[i]`.
fn shuffle(mt: &Mutex<Mt>, x: AnyView<'_>) -> Result<()> {
    let n = len(x)? as usize;
    if let Some(mut list) = list_of(x.value()) {
        // A list is shuffled under its own lock, drawing as CPython draws.
        return list.with_items_mut(|items| {
            for i in (1..items.len()).rev() {
                items.swap(i, below_len(mt, i + 1));
            }
            Ok(())
        });
    }
    for i in (1..n).rev() {
        let j = AnyValue::from_int(below_len(mt, i + 1) as i64);
        let i = AnyValue::from_int(i as i64);
        let (xj, xi) = (get_item(x, j.view())?, get_item(x, i.view())?);
        set_item(x, i.view(), xj.view())?;
        set_item(x, j.view(), xi.view())?;
    }
    Ok(())
}

/// `sample(population, k)`: `random.py`'s two ways, a pool for small populations and a set of
/// the indices taken for large ones, chosen by the same size rule.
fn sample(mt: &Mutex<Mt>, population: AnyView<'_>, k: &AnyView<'_>) -> Result<AnyValue> {
    let v = population.value();
    let is_sequence = seq_obj(v).is_some() || matches!(v, Value::Str(_) | Value::UStr(_) | Value::Bytes(_));
    if !is_sequence {
        return Err(type_error("Population must be a sequence.  For dicts or sets, use sorted(d)."));
    }
    let items = iter_items(v)?;
    let n = items.len();
    let in_range = compare(CmpOp::LtE, AnyView::from(0i64), *k)? && compare(CmpOp::LtE, *k, AnyView::from(n as i64))?;
    if !in_range {
        return Err(value_error("Sample larger than population or is negative"));
    }
    let Some(k) = k.value().as_int() else {
        return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(k.value()))));
    };
    let k = k as usize;
    let mut setsize = 21usize;
    if k > 5 {
        // `4 ** _ceil(_log(k * 3, 4))`, with `math.log`'s division of two logarithms.
        let exponent = (((k * 3) as f64).ln() / 4f64.ln()).ceil() as u32;
        setsize += 4usize.saturating_pow(exponent);
    }
    let mut result = Vec::with_capacity(k);
    if n <= setsize {
        let mut pool = items;
        for i in 0..k {
            let j = below_len(mt, n - i);
            result.push(pool[j].clone());
            pool[j] = pool[n - i - 1].clone();
        }
    } else {
        let mut selected = std::collections::HashSet::with_capacity(k);
        for _ in 0..k {
            let mut j = below_len(mt, n);
            while selected.contains(&j) {
                j = below_len(mt, n);
            }
            selected.insert(j);
            result.push(items[j].clone());
        }
    }
    Ok(List::from_vec(result).into_any())
}

/// `choices(population, weights=None, *, cum_weights=None, k=1)` (the op's arguments in that
/// order).
fn choices(mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let population = args[0];
    let given = |i: usize| args.get(i).copied().filter(|v| !matches!(v.value(), Value::None));
    let (weights, cum_weights) = (given(1), given(2));
    let k = match args.get(3) {
        Some(k) => index(k)?,
        None => 1,
    };
    let n = len(population)?;
    let pick = |i: i64| get_item(population, AnyView::from(i)).map(|v| v.resize());
    let mut out = Vec::new();
    // A `k` the memory cannot hold is a MemoryError up front, not a process killed midway.
    crate::container::try_reserve_items(&mut out, k.max(0) as usize, "random.choices()")?;
    let Some(cum_weights) = (match (weights, cum_weights) {
        (None, None) => None,
        (Some(_), Some(_)) => return Err(type_error("Cannot specify both weights and cumulative weights")),
        (None, Some(c)) => Some(iter_items(c.value())?),
        (Some(w), None) => Some(accumulated(w)?),
    }) else {
        let nf = n as f64;
        for _ in 0..k.max(0) {
            out.push(pick((next_float(mt) * nf).floor() as i64)?);
        }
        return Ok(List::from_vec(out).into_any());
    };
    if cum_weights.len() as i64 != n {
        return Err(value_error("The number of weights does not match the population"));
    }
    let Some(last) = cum_weights.last() else {
        return Err(Error::new(ErrorKind::Index, "list index out of range"));
    };
    let total = binary(BinOp::Add, last.view(), AnyView::from(0.0f64))?;
    let total = total.value().as_float().unwrap_or(f64::NAN);
    if total <= 0.0 {
        return Err(value_error("Total of weights must be greater than zero"));
    }
    if !total.is_finite() {
        return Err(value_error("Total of weights must be finite"));
    }
    let hi = cum_weights.len() - 1;
    for _ in 0..k.max(0) {
        let x = AnyValue::from_float(next_float(mt) * total);
        // `bisect(cum_weights, x, 0, hi)`: the first index whose weight is above `x`.
        let (mut lo, mut hi) = (0, hi);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if compare(CmpOp::Lt, x.view(), cum_weights[mid].view())? {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        out.push(pick(lo as i64)?);
    }
    Ok(List::from_vec(out).into_any())
}

/// `list(accumulate(weights))`; a weights argument that is an int is CPython's hint that `k`
/// was meant.
fn accumulated(weights: AnyView<'_>) -> Result<Vec<AnyValue>> {
    let items = match iter_items(weights.value()) {
        Ok(items) => items,
        Err(e) => {
            return Err(match weights.value() {
                Value::Int(k) => type_error(format!("The number of choices must be a keyword argument: k={k}")),
                _ => e,
            });
        }
    };
    let mut sums: Vec<AnyValue> = Vec::with_capacity(items.len());
    for w in items {
        let next = match sums.last() {
            Some(total) => binary(BinOp::Add, total.view(), w.view())?.resize(),
            None => w,
        };
        sums.push(next);
    }
    Ok(sums)
}

/// A method of a `random.Random` (`rng.shuffle(xs)`).
pub fn method(m: Method, obj: &RandomObj, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let f = RandomFn::of_method(m).expect("the method spec admits only Random's methods");
    let out = call(f, &obj.mt, args)?;
    if f == RandomFn::Seed {
        obj.reseeded.store(true, Ordering::Relaxed);
    }
    Ok(out)
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
    fn seeds_of_each_type_become_cpython_s_keys() {
        assert_eq!(run("return repr(random.Random('anyproc').random())"), "0.9126451699652074");
        assert_eq!(run("return repr(random.Random(2.5).random())"), "0.41877545666909954");
        assert_eq!(run("return repr(random.Random(-2**62 * 2).random())"), "0.5534639983914199");
        assert_eq!(
            run("r = random.Random()\nr.seed('abc', version=1)\nreturn repr(r.random())"),
            "0.09639374978773074"
        );
    }

    #[test]
    fn int_keys_are_the_words_of_the_magnitude() {
        assert_eq!(super::key_of_u64(0), vec![0]);
        assert_eq!(super::key_of_u64(1 << 32), vec![0, 1]);
        assert_eq!(super::key_of_big_endian(&[0, 0, 1, 2, 3, 4, 5]), vec![0x0203_0405, 0x1]);
    }
}
