//! `itertools.*` and `functools.reduce`: the iterator helpers preprocessing code reaches for
//! (`chain`, `chain.from_iterable`, `islice`, `pairwise`, `accumulate`, `groupby`, `product` with
//! `repeat=`), with CPython 3.11's results and errors. `anyproc.script` maps Python's
//! `itertools.chain` (and the rest) to the op of the same dotted name.
//!
//! Rationale: like anyscript's `zip` and `enumerate`, each gives the list of its items at once
//! (a loop over it, `list()` of it and `in` see the same items). `islice` takes from its
//! iterable exactly the items CPython's takes, so a generator it reads goes on where CPython's
//! would.

use crate::container::try_reserve_items;
use crate::error::{Error, ErrorKind, Result};
use crate::func::{OpEntry, Registry};
use crate::ops::params::check_count;
use crate::pipeline::ast::BinOp;
use crate::pipeline::iterate::LoopState;
use crate::pipeline::methods::arity_error;
use crate::pipeline::value_ops::{binary, callable, index_arg, iter_items, not_callable, plural, py_eq, type_error};
use crate::{AnyValue, AnyView, FromAny, List, PackedFunc, Tuple, Value};

/// Registers the `itertools.*` ops and `functools.reduce`.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        ("itertools.chain", "(*iterables) -> list", "The items of each iterable in turn, as itertools.chain.", chain),
        (
            "itertools.chain.from_iterable",
            "(iterables) -> list",
            "The items of each item of iterables in turn, as itertools.chain.from_iterable.",
            chain_from_iterable,
        ),
        (
            "itertools.islice",
            "(*iterable_start_stop_step) -> list",
            "The items at start, start + step, ... before stop, as itertools.islice.",
            islice,
        ),
        ("itertools.pairwise", "(*iterable) -> list", "Each item with the next, as itertools.pairwise.", pairwise),
        (
            "itertools.accumulate",
            "(iterable, func=None, initial=None) -> list",
            "Running totals (or running results of func), from initial if given, as itertools.accumulate.",
            accumulate,
        ),
        (
            "itertools.groupby",
            "(iterable, key=None) -> list",
            "(key, items) for each run of items with equal keys, as itertools.groupby.",
            groupby,
        ),
        (
            "itertools.product",
            "(*iterables) -> list",
            "Every tuple of one item of each iterable, in order, as itertools.product.",
            product,
        ),
        (
            "functools.reduce",
            "(*function_iterable_initial) -> value",
            "function applied to an accumulated value and each item in turn, as functools.reduce.",
            reduce,
        ),
    ];
    reg.register_ops(ops)
}

fn list(items: Vec<AnyValue>) -> Result<AnyValue> {
    Ok(List::from_vec(items).into())
}

/// CPython's count check of a function that takes from `min` to `max` arguments.
pub(super) fn counted(name: &str, args: &[AnyView<'_>], min: usize, max: usize) -> Result<()> {
    let n = args.len();
    let message = match () {
        _ if min == max && n != min => format!("{name} expected {min} argument{}, got {n}", plural(min)),
        _ if n < min => format!("{name} expected at least {min} argument{}, got {n}", plural(min)),
        _ if n > max => format!("{name} expected at most {max} argument{}, got {n}", plural(max)),
        _ => return Ok(()),
    };
    Err(type_error(message))
}

fn chain(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let mut out = Vec::new();
    for a in args {
        out.extend(iter_items(a.value())?);
    }
    list(out)
}

fn chain_from_iterable(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() != 1 {
        return Err(arity_error("chain.from_iterable", "from_iterable", (1, 1), args.len()));
    }
    let mut out = Vec::new();
    for item in iter_items(args[0].value())? {
        out.extend(iter_items(item.value())?);
    }
    list(out)
}

/// An islice argument as CPython's `PyNumber_AsSsize_t` reads it there: an int (a bool is
/// one), `default` for None, and -1 for anything else (CPython clears that error).
fn index_or(v: &AnyView<'_>, default: i64) -> i64 {
    match v.value() {
        Value::None => default,
        x => x.as_int().unwrap_or(-1),
    }
}

fn islice(args: &[AnyView<'_>]) -> Result<AnyValue> {
    counted("islice", args, 2, 4)?;
    // As CPython's islice_new: the stop first (-1 stands for None, so an explicit -1 or a value
    // that is no int is the stop's error), then both bounds, then the step.
    let (start_arg, stop_arg) = match args {
        [_, stop] => (None, stop),
        [_, start, stop, ..] => (Some(start), stop),
        _ => unreachable!("counted above"),
    };
    let stop = index_or(stop_arg, -1);
    if stop == -1 && !stop_arg.is_none() {
        return Err(Error::value("Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."));
    }
    let start = start_arg.map_or(0, |s| index_or(s, 0));
    if start < 0 || stop < -1 {
        return Err(Error::value("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize."));
    }
    let step = args.get(3).map_or(1, |s| index_or(s, 1));
    if step < 1 {
        return Err(Error::value("Step for islice() must be a positive integer or None."));
    }
    let (start, step) = (start as usize, step as usize);
    let stop = (stop >= 0).then_some(stop as usize);
    let mut items = LoopState::start(args[0])?;
    let (mut taken, mut next) = (0usize, start);
    let mut out = Vec::new();
    // CPython's islice_next: skip to the next index wanted, stop at `stop`, take one item.
    loop {
        while taken < next {
            if items.next_checked()?.is_none() {
                return list(out);
            }
            taken += 1;
        }
        if stop.is_some_and(|s| taken >= s) {
            return list(out);
        }
        let Some(item) = items.next_checked()? else { return list(out) };
        taken += 1;
        out.push(item.resize());
        next = next.saturating_add(step);
        if let Some(s) = stop {
            next = next.min(s);
        }
    }
}

fn pairwise(args: &[AnyView<'_>]) -> Result<AnyValue> {
    counted("pairwise", args, 1, 1)?;
    let items = iter_items(args[0].value())?;
    list(items.windows(2).map(|w| Tuple::from_vec(w.to_vec()).into()).collect())
}

/// `accumulate(iterable[, func], *, initial=None)`: `initial` if given, the first item if not,
/// then `func(total, item)` (`total + item` when `func` is None or not given) for each next
/// one; `func` is called, so checked, only where it is needed, as CPython's is.
fn accumulate(args: &[AnyView<'_>]) -> Result<AnyValue> {
    match args.len() {
        0 => return Err(type_error("accumulate() missing required argument 'iterable' (pos 1)")),
        n if n > 3 => return Err(type_error(format!("accumulate() takes at most 3 arguments ({n} given)"))),
        _ => {}
    }
    let mut items = LoopState::start(args[0])?;
    let func = args.get(1).filter(|f| !f.is_none());
    // `initial` (keyword-only to Python; the third argument here) is the first total.
    let mut out: Vec<AnyValue> = args.get(2).filter(|i| !i.is_none()).map(|i| i.to_owned()).into_iter().collect();
    while let Some(item) = items.next_checked()? {
        let next = match out.last() {
            None => item.resize(),
            Some(total) => match func {
                None => binary(BinOp::Add, total.view(), item.view())?.resize(),
                Some(f) => callable(f.value())?.call(&[total.view(), item.view()])?,
            },
        };
        out.push(next);
    }
    list(out)
}

/// `groupby(iterable, key=None)`: `(key, run)` for each run of consecutive items with equal
/// keys (`key(item)`, or the item itself), the key being its first item's. Each run is the list
/// of its items: CPython's is an iterator that the outer one's next step empties, so code that
/// reads each run before the next, as a loop or a comprehension does, sees the same items.
fn groupby(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("itertools.groupby", args.len())?;
    let mut items = LoopState::start(args[0])?;
    let key = args.get(1).filter(|f| !f.is_none());
    let mut runs = Vec::new();
    let mut run: Option<(AnyValue, Vec<AnyValue>)> = None;
    while let Some(item) = items.next_checked()? {
        let item = item.resize();
        let k = match key {
            None => item.clone(),
            Some(f) => callable(f.value())?.call(&[item.view()])?,
        };
        match &mut run {
            Some((current, members)) if py_eq(current.value(), k.value()) => members.push(item),
            _ => {
                runs.extend(run.replace((k, vec![item])).map(run_tuple));
            }
        }
    }
    runs.extend(run.map(run_tuple));
    list(runs)
}

/// A run of `groupby` as the `(key, items)` tuple it yields.
fn run_tuple((key, members): (AnyValue, Vec<AnyValue>)) -> AnyValue {
    Tuple::from_vec(vec![key, List::from_vec(members).into()]).into()
}

/// `product(*iterables)`: every iterable read to its end first, then the tuples in order, the
/// last iterable's item changing fastest (one empty tuple for no iterables).
fn product(args: &[AnyView<'_>]) -> Result<AnyValue> {
    product_of(args, 1)
}

/// `product(*iterables, repeat=n)`, called with `repeat` first (see [`crate::ops::star_params`]).
pub(crate) fn product_with_keywords(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (repeat, iterables) = args.split_first().expect("the keyword form is passed repeat first");
    let repeat = index_arg(repeat)?;
    let repeat =
        usize::try_from(repeat).map_err(|_| Error::new(ErrorKind::Value, "repeat argument cannot be negative"))?;
    product_of(iterables, repeat)
}

/// The product of `iterables` repeated `repeat` times: tuple position `j` takes its item from
/// iterable `j % iterables.len()`, as CPython's pools repeat.
fn product_of(iterables: &[AnyView<'_>], repeat: usize) -> Result<AnyValue> {
    // CPython's bound: the pools' indices, `Py_ssize_t`s, must fit in `PY_SSIZE_T_MAX` bytes.
    let most = isize::MAX as usize / size_of::<isize>();
    if repeat > 0 && iterables.len() > most / repeat {
        return Err(Error::new(ErrorKind::Overflow, "repeat argument too large"));
    }
    let width = iterables.len() * repeat;
    // The index of each position's item in the next tuple, counted like an odometer; room for
    // it first, as CPython makes room for its pools, so that a huge `repeat` is a MemoryError.
    let mut at: Vec<usize> = Vec::new();
    let bytes = width.saturating_mul(size_of::<usize>());
    at.try_reserve_exact(width).map_err(|_| Error::out_of_memory("itertools.product", bytes))?;
    at.resize(width, 0);
    let pools = iterables.iter().map(|a| iter_items(a.value())).collect::<Result<Vec<_>>>()?;
    let pool = |j: usize| &pools[j % pools.len()];
    // Room for every tuple too: a product too large to hold is a MemoryError, not an abort.
    let count = (0..width).try_fold(1usize, |n, j| n.checked_mul(pool(j).len()));
    let Some(count) = count else { return Err(Error::out_of_memory("itertools.product", usize::MAX)) };
    let mut out = Vec::new();
    try_reserve_items(&mut out, count, "itertools.product")?;
    for _ in 0..count {
        out.push(Tuple::from_vec(at.iter().enumerate().map(|(j, &i)| pool(j)[i].clone()).collect()).into());
        for (j, i) in at.iter_mut().enumerate().rev() {
            *i += 1;
            if *i < pool(j).len() {
                break;
            }
            *i = 0;
        }
    }
    list(out)
}

fn reduce(args: &[AnyView<'_>]) -> Result<AnyValue> {
    counted("reduce", args, 2, 3)?;
    let mut items = LoopState::start(args[1]).map_err(|e| {
        if e.kind() == ErrorKind::Type { type_error("reduce() arg 2 must support iteration") } else { e }
    })?;
    let mut acc = match args.get(2) {
        Some(initial) => initial.to_owned(),
        None => match items.next_checked()? {
            Some(first) => first.resize(),
            None => return Err(type_error("reduce() of empty iterable with no initial value")),
        },
    };
    let f = PackedFunc::from_value(args[0].value());
    while let Some(item) = items.next_checked()? {
        let Some(f) = &f else { return Err(not_callable(args[0].value())) };
        acc = f.call(&[acc.view(), item.view()])?;
    }
    Ok(acc)
}
