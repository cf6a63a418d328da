//! Generators: what a call of a generator function (a `def` with `yield`) makes. Like Python's,
//! a generator runs the function's body only as items are asked for: each item runs it from
//! where it stopped to the next `yield`, and its end (or a `return`) ends the items. An error
//! in the body reaches the consumer that asked for the item, and ends the generator.
//!
//! A generator is an object (it can be kept, passed on, iterated by a loop of another
//! function); its suspended frame (registers, loop states, the instruction to go on at) is
//! behind a lock, so that a generator asked for an item while it runs (by its own body, or by
//! another thread) is CPython's `ValueError: generator already executing`, not a deadlock.
//!
//! A generator may also take its items from outside anyproc ([`ForeignItems`]: a Python
//! iterator handed to a script), one at a time as they are asked for, as Python would.

use super::Slot;
pub use super::foreign_items::ForeignItems;
use super::ir::Program;
use super::iterate::{DictView, LoopState};
use crate::error::{Error, ErrorKind, Result};
use crate::object::{ObjRef, Object};
use crate::{AnyPad, AnyValue, AnyView, FromAny, Value};
use parking_lot::Mutex;
use std::sync::Arc;

/// The frame of a generator between two items.
pub(crate) struct Suspended {
    /// Its registers.
    pub regs: Vec<Slot>,
    /// Its loop states.
    pub loops: Vec<LoopState>,
    /// The instruction to go on at.
    pub pc: usize,
}

// A generator is a value like any other, shared by threads: its frame must be sendable.
const _: fn() = || {
    fn sendable<T: Send>() {}
    sendable::<Suspended>();
};

/// The heap object behind a [`Generator`].
#[repr(C)]
pub struct GeneratorObj {
    header: Object,
    /// Where the items come from.
    body: Body,
    /// Python's name for its type (`generator`, `list_iterator`, ...).
    type_name: &'static str,
    steps: Mutex<Steps>,
}

/// What gives a generator's items.
enum Body {
    /// The body of function `.1` of the program.
    Function(Arc<Program>, u32),
    /// A value's items (`iter(xs)`), in [`Steps::Items`].
    Items,
    /// A source outside anyproc, with its type's name and its own (as its repr shows them).
    Foreign { items: Box<dyn ForeignItems>, type_name: String, name: String },
}

/// Where a generator or iterator is.
enum Steps {
    /// A generator's frame, suspended (or not started).
    Frame(Suspended),
    /// An iterator's place in its value (`iter(xs)`).
    Items(LoopState),
    /// A foreign source, which keeps its own place in its items.
    Foreign,
    /// No item is left: the body returned or raised, or the value's items ran out.
    Ended,
}

crate::declare_object_type!(GeneratorObj, "pipeline.Generator", parent = Object, child_slots = 0);

/// A handle to a generator, or to an iterator over a value (`iter(xs)`), which steps alike.
#[derive(Clone)]
pub struct Generator(ObjRef<GeneratorObj>);

impl Generator {
    /// A generator of function `func` of `program`, whose body has not started: its registers
    /// hold the call's arguments.
    pub(crate) fn new(program: Arc<Program>, func: u32, regs: Vec<Slot>, n_loops: usize) -> Generator {
        let loops = (0..n_loops).map(|_| LoopState::Idle).collect();
        let steps = Mutex::new(Steps::Frame(Suspended { regs, loops, pc: 0 }));
        let body = Body::Function(program, func);
        Generator(ObjRef::new(GeneratorObj { header: Object::blank(), body, type_name: "generator", steps }))
    }

    /// `iter(v)`: `v` itself if it is a generator or an iterator already, else an iterator over
    /// its items, which a loop, `next()` and any other consumer share.
    pub fn iter(v: AnyView<'_>) -> Result<Generator> {
        if let Some(g) = generator_of(v.value()) {
            return Ok(g);
        }
        let state = LoopState::start(v)?;
        let type_name = match &state {
            // CPython 3.11 iterates an ASCII str by a type of its own.
            LoopState::Text { text, .. } if text.value().as_str().is_some_and(str::is_ascii) => "str_ascii_iterator",
            LoopState::Text { text, .. } if matches!(text.value(), Value::Bytes(_)) => "bytes_iterator",
            LoopState::Text { .. } => "str_iterator",
            // An OrderedDict's three iterators are one type.
            LoopState::Keys { dict, .. } if *dict.kind() == crate::container::DictKind::Ordered => "odict_iterator",
            LoopState::Keys { view: DictView::Keys, .. } => "dict_keyiterator",
            LoopState::Keys { view: DictView::Values, .. } => "dict_valueiterator",
            LoopState::Keys { view: DictView::Items, .. } => "dict_itemiterator",
            LoopState::Set { .. } => "set_iterator",
            _ if super::value_ops::is_tuple(v.value()) => "tuple_iterator",
            _ => "list_iterator",
        };
        let steps = Mutex::new(Steps::Items(state));
        Ok(Generator(ObjRef::new(GeneratorObj { header: Object::blank(), body: Body::Items, type_name, steps })))
    }

    /// A generator whose items `items` gives, one each time one is asked for; `type_name` and
    /// `name` are what its type and repr show (`generator`, and the generator function's name).
    pub fn foreign(items: Box<dyn ForeignItems>, type_name: String, name: String) -> Generator {
        let body = Body::Foreign { items, type_name, name };
        let steps = Mutex::new(Steps::Foreign);
        Generator(ObjRef::new(GeneratorObj { header: Object::blank(), body, type_name: "generator", steps }))
    }

    /// The source of a generator made by [`Generator::foreign`].
    pub fn foreign_items(&self) -> Option<&dyn ForeignItems> {
        match &self.0.body {
            Body::Foreign { items, .. } => Some(items.as_ref()),
            _ => None,
        }
    }

    /// The next item, or `None` once there is none.
    pub fn next(&self) -> Result<Option<AnyValue>> {
        let Some(mut guard) = self.0.steps.try_lock() else {
            return Err(Error::new(ErrorKind::Value, "generator already executing"));
        };
        let step = match (&mut *guard, &self.0.body) {
            (Steps::Frame(frame), Body::Function(program, func)) => {
                match super::interp::resume(program, *func, frame) {
                    // PEP 479: a StopIteration that leaves a generator's body is a RuntimeError.
                    Err(e) if e.kind() == ErrorKind::StopIteration => {
                        Err(Error::runtime("generator raised StopIteration"))
                    }
                    other => other,
                }
            }
            (Steps::Items(state), _) => state.next_checked(),
            (Steps::Foreign, Body::Foreign { items, .. }) => items.next_item().map(|item| item.map(AnyValue::resize)),
            _ => return Ok(None),
        };
        // A foreign source keeps its own state: Python asks an iterator again after an error or
        // its end (a `map` goes on past a failed item, a file may have grown).
        if !matches!(step, Ok(Some(_))) && !matches!(*guard, Steps::Foreign) {
            *guard = Steps::Ended;
        }
        step.map(|item| item.map(Slot::resize))
    }

    /// Every item left, in order.
    /// Its remaining items up to the first failure, and that failure: what CPython's
    /// `list.extend` and `set.update` have taken, one item at a time, when a generator fails.
    pub fn drain_until_error(&self) -> (Vec<AnyValue>, Option<Error>) {
        let mut items = Vec::new();
        loop {
            let step = self.next().and_then(|item| {
                crate::container::try_reserve_items(&mut items, 1, "list of a generator's items").map(|()| item)
            });
            match step {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return (items, None),
                Err(e) => return (items, Some(e)),
            }
        }
    }

    pub fn drain(&self) -> Result<Vec<AnyValue>> {
        let (items, failed) = self.drain_until_error();
        failed.map_or(Ok(items), Err)
    }

    /// The name of its function, as its repr shows it (its type's, for an iterator).
    pub fn name(&self) -> &str {
        match &self.0.body {
            Body::Function(program, func) => &program.functions[*func as usize].name,
            Body::Items => self.0.type_name,
            Body::Foreign { name, .. } => name,
        }
    }

    /// Python's name for its type: `generator`, or the kind of iterator (`list_iterator`).
    pub fn type_name(&self) -> &str {
        match &self.0.body {
            Body::Foreign { type_name, .. } => type_name,
            _ => self.0.type_name,
        }
    }

    /// The generator as an any-value.
    pub fn into_any(self) -> AnyValue {
        AnyPad::from_object(self.0)
    }
}

impl FromAny for Generator {
    fn type_name() -> String {
        "generator".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<GeneratorObj>()).map(Generator)
    }
}

/// The generator `v` is, if it is one.
pub fn generator_of(v: Value<'_>) -> Option<Generator> {
    Generator::from_value(v)
}

#[cfg(test)]
mod tests {
    /// What `main()` of `src` returns (a str), or its error; each expected value below was
    /// worked out by hand from Python's semantics (and agrees with CPython 3.11).
    fn run(src: &str) -> String {
        let f = match crate::pipeline::script(src, "main") {
            Ok(f) => f,
            Err(e) => return format!("compile {:?}: {}", e.kind(), e.message()),
        };
        match f.call(&[]) {
            Ok(v) => v.value().as_str().expect("main returns a str").to_string(),
            Err(e) => format!("{:?}: {}", e.kind(), e.message()),
        }
    }

    const COUNTDOWN: &str = "def countdown(n):\n    while n > 0:\n        yield n\n        n -= 1\n    return 99\n";

    #[test]
    fn items_are_run_for_as_they_are_asked() {
        let src = format!(
            "{COUNTDOWN}def main():\n    g = countdown(4)\n    first = []\n    for x in g:\n        first.append(x)\n        break\n    return repr((first, list(g), list(g), sum(countdown(3))))\n"
        );
        assert_eq!(run(&src), "([4], [3, 2, 1], [], 6)");
        let src = format!(
            "{COUNTDOWN}def main():\n    g = countdown(5)\n    return repr((list(zip(g, g)), 3 in g, list(g)))\n"
        );
        // zip takes (5, 4), (3, 2), then 1 and stops at the second's end; nothing is left.
        assert_eq!(run(&src), "([(5, 4), (3, 2)], False, [])");
        let src = format!("{COUNTDOWN}def main():\n    g = countdown(5)\n    return repr((4 in g, list(g)))\n");
        assert_eq!(run(&src), "(True, [3, 2, 1])");
    }

    #[test]
    fn yield_from_and_a_bare_yield() {
        let src = "def g(s):\n    yield from s\n    yield\ndef main():\n    return repr(list(g('ab')))\n";
        assert_eq!(run(src), "['a', 'b', None]");
    }

    #[test]
    fn an_error_in_the_body_reaches_the_consumer_and_ends_the_generator() {
        let src = "def g(n):\n    yield 1\n    yield 1 // n\ndef main():\n    it = g(0)\n    got = []\n    try:\n        for x in it:\n            got.append(x)\n    except ZeroDivisionError:\n        got.append('caught')\n    return repr((got, list(it)))\n";
        assert_eq!(run(src), "([1, 'caught'], [])");
    }

    #[test]
    fn a_generator_asked_for_an_item_by_its_own_body_is_already_executing() {
        let src = "def g(box):\n    yield 1\n    yield list(box[0])\ndef main():\n    box = []\n    it = g(box)\n    box.append(it)\n    return repr(list(it))\n";
        assert_eq!(run(src), "Value: generator already executing");
    }

    #[test]
    fn iter_and_next_share_one_place_in_the_items() {
        let src = "def main():\n    it = iter([1, 2, 3, 4, 5])\n    pairs = [(x, next(it, None)) for x in it]\n    return repr((pairs, next(it, 'end'), type(iter('ab')).__name__, type(iter('é')).__name__))\n";
        assert_eq!(run(src), "([(1, 2), (3, 4), (5, None)], 'end', 'str_ascii_iterator', 'str_iterator')");
        assert_eq!(run("def main():\n    return next(iter([]))\n"), "StopIteration: ");
        assert_eq!(run("def main():\n    return next([1])\n"), "Type: 'list' object is not an iterator");
        // PEP 479: a StopIteration leaving a generator's body is a RuntimeError.
        let src = "def g():\n    yield 1\n    next(iter([]))\ndef main():\n    return repr(list(g()))\n";
        assert_eq!(run(src), "Runtime: generator raised StopIteration");
        let src = "def main():\n    try:\n        next(iter(()))\n    except StopIteration:\n        return 'caught'\n";
        assert_eq!(run(src), "caught");
    }

    /// Counts up from 1 to `end`, logging each item given; item `fail_at` is an error instead.
    struct Counting {
        given: std::sync::Mutex<Vec<i64>>,
        asked: std::sync::atomic::AtomicI64,
        end: i64,
        fail_at: i64,
    }

    impl super::ForeignItems for Counting {
        fn next_item(&self) -> crate::Result<Option<crate::AnyValue>> {
            let n = self.asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n > self.end {
                return Ok(None);
            }
            if n == self.fail_at {
                return Err(crate::Error::new(crate::ErrorKind::Value, "source failed"));
            }
            self.given.lock().unwrap().push(n);
            Ok(Some(crate::AnyValue::from_int(n)))
        }
        fn repr(&self) -> String {
            "<counting>".into()
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    fn counting(end: i64, fail_at: i64) -> super::Generator {
        let items = Counting { given: Default::default(), asked: Default::default(), end, fail_at };
        super::Generator::foreign(Box::new(items), "counter".into(), "count".into())
    }

    fn given(g: &super::Generator) -> Vec<i64> {
        g.foreign_items().unwrap().as_any().downcast_ref::<Counting>().unwrap().given.lock().unwrap().clone()
    }

    #[test]
    fn a_foreign_source_gives_its_items_as_they_are_asked_for() {
        let src = "def first_over(g, n):\n    for x in g:\n        if x > n:\n            return x\ndef rest(g):\n    return repr((next(g), list(g), list(g), type(g).__name__, repr(g)))\n";
        let first_over = crate::pipeline::script(src, "first_over").unwrap();
        let rest = crate::pipeline::script(src, "rest").unwrap();
        let g = counting(10, 99);
        let v = g.clone().into_any();
        let got = first_over.call(&[v.view(), crate::AnyValue::from_int(3).view()]).unwrap();
        assert_eq!(got.view().value().as_int(), Some(4));
        // Only what the loop took: 1 to 4; the rest is left for the next consumer.
        assert_eq!(given(&g), [1, 2, 3, 4]);
        let got = rest.call(&[v.view()]).unwrap();
        assert_eq!(got.view().value().as_str(), Some("(5, [6, 7, 8, 9, 10], [], 'counter', '<counting>')"));
    }

    #[test]
    fn an_error_of_a_foreign_source_reaches_the_consumer_which_may_ask_again() {
        let src = "def take(g):\n    got = []\n    try:\n        for x in g:\n            got.append(x)\n    except ValueError as e:\n        got.append(str(e))\n    return repr((got, list(g)))\n";
        let take = crate::pipeline::script(src, "take").unwrap();
        let g = counting(10, 3);
        let got = take.call(&[g.clone().into_any().view()]).unwrap();
        // Python asks an iterator again after an error: the source decides what comes next.
        assert_eq!(got.view().value().as_str(), Some("([1, 2, 'source failed'], [4, 5, 6, 7, 8, 9, 10])"));
        assert_eq!(given(&g), [1, 2, 4, 5, 6, 7, 8, 9, 10]);
    }

    #[test]
    fn an_error_after_a_generator_resumes_inside_try_is_caught_by_its_clause() {
        // Hand-computed, as CPython runs it: 'a' parses, 'b' does not, '7' does.
        let src = "def nums(ws):\n    for w in ws:\n        try:\n            yield w\n            yield int(w)\n        \
                   except ValueError as e:\n            yield 'bad'\n\ndef main():\n    return repr(list(nums(['1', 'b', '7'])))\n";
        assert_eq!(run(src), "['1', 1, 'b', 'bad', '7', 7]");
    }

    #[test]
    fn what_is_refused() {
        let in_try = "def main():\n    try:\n        yield 1\n    finally:\n        pass\n";
        assert!(run(in_try).contains("line 3: 'yield' inside 'try'"), "{}", run(in_try));
        let as_value = "def main():\n    x = yield 1\n";
        assert!(run(as_value).contains("'yield' as an expression"), "{}", run(as_value));
        let outside = "yield 1\n";
        assert!(crate::pipeline::script(outside, "main").is_err());
    }
}
