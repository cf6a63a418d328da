//! Leak and double-free check: a mixed, multi-threaded workload frees every object exactly once.
//!
//! Built only with `--features object-census`, which counts every object birth
//! (`ObjRef::adopt`) and every deleter call (`dec_ref` reaching zero). The
//! counters are process-wide, so this file holds exactly one `#[test]`.
//!
//! The workload mixes heap strings (UTF-8 and UCS4), boxed ints, pooled
//! objects, `PackedFunc`s whose closures capture `List`s, nested lists and
//! dicts holding all of these, and rayon tasks that clone, push into shared
//! lists (reference semantics: a push through any handle is seen by all),
//! call the functions, read and drop. Expected birth counts are computed by
//! hand from what each step creates (one object per heap string, boxed int,
//! pooled object, list, dict or function); at checkpoints `freed` never
//! exceeds `born` (a double free would), and at the end, with everything
//! dropped, `born == freed` (a leak would break it).

use anyproc::object::census::{born, freed};
use anyproc::object::{ObjRef, ObjectPool};
use anyproc::{AnyValue, AnyView, Dict, List, Object, PackedFunc, Str, UStr, get_global_func};

#[repr(C)]
struct Pooled {
    header: Object,
    value: i64,
    // Owns a heap object of its own, so dropping a pooled object must free it too.
    payload: AnyValue,
}
anyproc::declare_object_type!(Pooled, "object_census_test.Pooled", parent = Object, child_slots = 0);

/// Births and frees since the start snapshot.
struct Census {
    born0: u64,
    freed0: u64,
}

impl Census {
    fn start() -> Self {
        Census { born0: born(), freed0: freed() }
    }
    fn born(&self) -> u64 {
        born() - self.born0
    }
    fn freed(&self) -> u64 {
        freed() - self.freed0
    }
    /// Objects alive now that were born after the snapshot.
    fn live(&self) -> u64 {
        self.checkpoint();
        self.born() - self.freed()
    }
    fn checkpoint(&self) {
        // Read `freed` first: a concurrent free can only make `born` look larger, never smaller.
        let f = freed();
        let b = born();
        assert!(f <= b, "more objects freed ({f}) than born ({b}): a double free");
        assert!(f - self.freed0 <= b - self.born0, "more frees than births since the start: a double free");
    }
}

const THREADS: usize = 8;
const PUSHES_PER_THREAD: usize = 25;
const CALLS_PER_FUNC_PER_THREAD: usize = 5;

#[test]
fn mixed_workload_frees_every_object_exactly_once() {
    // The global registry builds its built-in functions (objects that live forever) on
    // first use; make that happen before the snapshot.
    let nop = get_global_func("testing.nop").unwrap();

    let census = Census::start();
    let mut expected_births: u64 = 0;

    // A: 40 heap UTF-8 strings ("heap string number 0000" is 23 bytes > 8): one object each.
    let heap_strs: Vec<AnyValue> = (0..40).map(|i| AnyValue::from(format!("heap string number {i:04}"))).collect();
    expected_births += 40;
    assert_eq!(census.born(), expected_births);

    // B: 20 boxed ints: one object each.
    let boxed: Vec<AnyValue> =
        (0..20i64).map(|i| AnyValue::from_object(AnyValue::from(i * 7).into_object_boxed().unwrap())).collect();
    expected_births += 20;
    assert_eq!(census.born(), expected_births);
    assert!(boxed.iter().all(AnyValue::is_object));

    // C: 10 heap UStr (7+ code points > 2) and 10 heap Str (> 8 bytes).
    let ustrs: Vec<UStr> = (0..10).map(|i| UStr::new(&format!("日本語のテキスト{i}"))).collect();
    let strs: Vec<Str> = (0..10).map(|i| Str::new(&format!("a longer str {i}"))).collect();
    expected_births += 20;
    assert_eq!(census.born(), expected_births);
    assert!(ustrs.iter().all(|u| !u.is_inline()) && strs.iter().all(|s| !s.is_inline()));

    // D: a pool of 30 objects, each owning a heap string (2 births each); drop 15, make 15 again.
    let pool: ObjectPool<Pooled> = ObjectPool::new();
    let make = |i: i64| {
        pool.make(Pooled { header: Object::blank(), value: i, payload: AnyValue::from(format!("pooled payload {i}")) })
    };
    let mut pooled: Vec<ObjRef<Pooled>> = (0..30).map(make).collect();
    expected_births += 60;
    assert_eq!(census.born(), expected_births);
    let freed_before = census.freed();
    pooled.truncate(15);
    assert_eq!(census.freed() - freed_before, 30, "15 pooled objects and their 15 payloads");
    pooled.extend((100..115).map(make));
    expected_births += 30;
    assert_eq!(census.born(), expected_births);
    assert_eq!(pool.reuses(), 15);
    assert_eq!(pool.fresh_allocations(), 30);

    // E: 6 functions, each capturing its own List (2 births each). A call pushes one heap
    // string into the captured list (1 birth per call) and returns the new length.
    let funcs: Vec<(PackedFunc, List)> = (0..6)
        .map(|k| {
            let log = List::new();
            let captured = log.clone();
            let f = PackedFunc::new(move |args: &[AnyView<'_>]| {
                let who = args.first().map(|a| a.get::<i64>()).transpose()?.unwrap_or(-1);
                let mut l = captured.clone();
                l.push(AnyValue::from(format!("func {k} called by {who:>4}")));
                Ok(AnyValue::from(l.len() as i64))
            });
            (f, log)
        })
        .collect();
    expected_births += 12;
    assert_eq!(census.born(), expected_births);

    // F: a root dict holding 10 lists, each holding a dict; everything else in them is a
    // clone of an object made above (no births) or an inline value.
    let shared = List::new();
    let mut root = Dict::new();
    root.set("shared", shared.clone());
    for i in 0..10usize {
        let mut inner = Dict::new();
        inner.set("func", funcs[i % 6].0.clone());
        inner.set("ustr", ustrs[i].clone());
        inner.set("boxed", boxed[i].clone());
        inner.set("pooled", AnyValue::from(pooled[i].clone()));
        inner.set("n", i as i64);
        let mut l = List::new();
        l.push(heap_strs[i].clone());
        l.push(strs[i].clone());
        l.push(inner);
        l.push("tiny");
        root.set(format!("branch {i}"), l);
    }
    expected_births += 2 + 10 * 2; // shared + root, and a list and a dict per branch
    assert_eq!(census.born(), expected_births);
    // Everything made so far is alive: 40 + 20 + 20 + 2×30 + 12 + 22.
    assert_eq!(census.live(), 40 + 20 + 20 + 60 + 12 + 22);

    // G: rayon tasks clone the structure, push new heap strings into the shared list,
    // call the functions found inside the nested dicts, read, and drop their clones.
    let root_value: AnyValue = root.clone().into();
    rayon::scope(|s| {
        for t in 0..THREADS {
            let root_value = root_value.clone();
            let mut sh = shared.clone();
            let nop = nop.clone();
            let mine: Vec<AnyValue> = heap_strs.iter().skip(t).step_by(THREADS).cloned().collect();
            s.spawn(move |_| {
                let root: Dict = root_value.get().unwrap();
                for k in 0..PUSHES_PER_THREAD {
                    sh.push(AnyValue::from(format!("thread {t} pushes item {k:03}")));
                    for x in &mine {
                        let y = x.clone();
                        assert!(y.is_object());
                        drop(y);
                    }
                }
                // Each branch's dict holds funcs[i % 6]; branches 0..6 reach each function once.
                for i in 0..6 {
                    let branch: List = root.get_item(format!("branch {i}").as_str()).unwrap().get().unwrap();
                    let inner: Dict = branch.get(2).unwrap().get().unwrap();
                    let f: PackedFunc = inner.get_item("func").unwrap().get().unwrap();
                    for _ in 0..CALLS_PER_FUNC_PER_THREAD {
                        let len = f.call(&[AnyView::from(t as i64)]).unwrap().get::<i64>().unwrap();
                        assert!(len >= 1);
                    }
                    // Reading a pooled object and a boxed int through the nested structure.
                    let pooled: ObjRef<Pooled> = inner.get_item("pooled").unwrap().get().unwrap();
                    assert_eq!(pooled.value, i as i64);
                    assert_eq!(inner.get_item("boxed").unwrap().get::<i64>().unwrap(), i as i64 * 7);
                }
                // The shared list is shared: this task's pushes are visible through the root too.
                let via_root: List = root.get_item("shared").unwrap().get().unwrap();
                assert!(via_root.len() >= PUSHES_PER_THREAD);
                assert!(nop.call(&[AnyView::from(&via_root)]).unwrap().is_none());
            });
        }
    });
    expected_births += (THREADS * PUSHES_PER_THREAD) as u64; // heap strings pushed into `shared`
    expected_births += (THREADS * 6 * CALLS_PER_FUNC_PER_THREAD) as u64; // one heap string per call
    census.checkpoint();
    assert_eq!(census.born(), expected_births);
    assert_eq!(shared.len(), THREADS * PUSHES_PER_THREAD);
    for (_, log) in &funcs {
        assert_eq!(log.len(), THREADS * CALLS_PER_FUNC_PER_THREAD);
    }
    // Every item pushed by every thread is there exactly once (set of texts, computed by hand).
    let mut texts = shared.to_vec_of::<String>().unwrap();
    texts.sort();
    let mut want: Vec<String> = (0..THREADS)
        .flat_map(|t| (0..PUSHES_PER_THREAD).map(move |k| format!("thread {t} pushes item {k:03}")))
        .collect();
    want.sort();
    assert_eq!(texts, want);

    // H: more threads read and drop clones concurrently while the owner drops its handles.
    use rayon::prelude::*;
    let snapshot: Vec<AnyValue> = shared.to_vec();
    let total: usize = snapshot.par_iter().map(|v| v.clone().get::<String>().unwrap().len()).sum();
    // "thread T pushes item KKK" is 24 bytes for a one-digit T.
    assert_eq!(total, THREADS * PUSHES_PER_THREAD * 24);
    drop(snapshot);
    census.checkpoint();

    // Drop everything, the pool before its objects (they must stay valid and free later).
    drop(pool);
    assert_eq!(pooled[0].value, 0);
    assert_eq!(pooled[20].value, 105);
    assert!(pooled[20].payload == "pooled payload 105");
    census.checkpoint();
    drop(root_value);
    drop(root);
    drop(shared);
    drop(funcs);
    census.checkpoint();
    drop(pooled);
    drop(strs);
    drop(ustrs);
    drop(boxed);
    drop(heap_strs);
    census.checkpoint();

    // All rayon tasks have finished (scope joined), so nothing is in flight any more.
    let (b, f) = (census.born(), census.freed());
    assert_eq!(b, f, "born {b} != freed {f}: {} objects leaked", b as i64 - f as i64);
    assert_eq!(b, expected_births);
    // A floor computed by hand, independent of the running tally above:
    // 40 + 20 + 20 + 90 (pool: 60 + 30) + 12 + 22 + 200 + 240 = 644.
    assert!(b >= 644, "only {b} births: the workload did not run");
}
