//! Proves that short strings never touch the heap.
//!
//! A counting global allocator (wrapping `std::alloc::System`) counts every
//! allocation made by the current thread, so tests running in parallel threads
//! do not see each other's allocations. With it, this file proves:
//!
//! * creating, cloning, comparing (`==`, also against a second inline value of
//!   the same text, and across UTF-8 / UCS4), hashing and dropping inline
//!   strings performs zero heap allocations: UTF-8 up to 8 bytes and UCS4 up to
//!   2 code points in an `AnyValue`, and 16 bytes / 4 code points in an
//!   `AnyPad<1>`;
//! * one byte (or code point) past those limits allocates exactly one object;
//! * filling a `List::with_capacity(n)` with one-char values costs a fixed
//!   number of allocations, independent of `n`;
//! * narrowing an `AnyPad<1>` to an `AnyValue` allocates exactly when the
//!   string no longer fits.
//!
//! Expected lengths are counted by hand from the UTF-8 encoding (1 byte for
//! ASCII, 2 for U+0080..U+07FF such as 'é', 3 for U+0800..U+FFFF such as '日',
//! 4 above, such as '🙂') and cross-checked against `str::len`.

use anyproc::{AnyPad, AnyValue, AnyView, List};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::hint::black_box;

struct CountingAlloc;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the allocator can run while the thread's locals are being torn down.
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is forwarded unchanged to `System`; counting has no effect on the memory.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation is a new heap request too.
        bump();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn allocs() -> u64 {
    ALLOCS.with(Cell::get)
}

/// Runs `f` and returns its result with the number of allocations this thread made meanwhile.
fn counted<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = allocs();
    let r = f();
    (r, allocs() - before)
}

fn hash_of<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

#[test]
fn the_counter_counts() {
    // The instrument itself: std's documented allocation behaviour.
    let (b, n) = counted(|| black_box(Box::new(7u64)));
    assert_eq!(n, 1);
    drop(b);
    let (v, n) = counted(|| black_box(Vec::<u64>::with_capacity(0)));
    assert_eq!(n, 0, "Vec::with_capacity(0) does not allocate");
    drop(v);
    let (s, n) = counted(|| black_box(String::from("x")));
    assert_eq!(n, 1);
    drop(s);
}

/// UTF-8 strings of at most 8 bytes, with their byte lengths counted by hand.
const UTF8_FITS_VALUE: &[(&str, usize)] = &[
    ("", 0),
    ("a", 1),
    ("ab", 2),
    ("abc", 3),
    ("abcd", 4),
    ("abcde", 5),
    ("abcdef", 6),
    ("abcdefg", 7),
    ("abcdefgh", 8),
    ("é", 2),
    ("héllo", 6), // h, é(2), l, l, o
    ("日本", 6),  // 3 + 3
    ("🙂🙂", 8),  // 4 + 4
    ("a日🙂", 8), // 1 + 3 + 4
    ("ü\0\n", 4), // 2 + 1 + 1: control characters are ordinary bytes
];

/// UTF-8 strings of exactly 9 bytes: one past an `AnyValue`'s inline area.
const UTF8_NINE_BYTES: &[(&str, usize)] = &[
    ("abcdefghi", 9),
    ("日本語", 9), // 3 + 3 + 3
    ("a日b🙂", 9), // 1 + 3 + 1 + 4
    ("🙂🙂x", 9),  // 4 + 4 + 1
];

/// UTF-8 strings of 9..=16 bytes: they fit an `AnyPad<1>` (8 + 8 bytes) but not an `AnyValue`.
const UTF8_FITS_PAD1: &[(&str, usize)] = &[
    ("abcdefghi", 9),
    ("abcdefghijklmnop", 16),
    ("héllo wörld", 13),   // h é(2) l l o, space, w ö(2) r l d
    ("日本語です", 15),    // 5 × 3
    ("🙂🙂🙂🙂", 16),      // 4 × 4
    ("ab日本語cdefg", 16), // 2 + 9 + 5
];

/// UTF-8 strings of exactly 17 bytes: one past an `AnyPad<1>`'s inline area.
const UTF8_SEVENTEEN_BYTES: &[(&str, usize)] = &[
    ("abcdefghijklmnopq", 17),
    ("🙂🙂🙂🙂x", 17),    // 16 + 1
    ("日本語ですab", 17), // 15 + 2
];

/// UCS4 strings of at most 2 code points (an `AnyValue` holds 8 bytes = 2 × 4).
const UCS4_FITS_VALUE: &[&[char]] = &[&[], &['a'], &['日', '本'], &['🙂', '\0'], &['é', '🙂']];

/// UCS4 strings of 3 code points.
const UCS4_THREE: &[&[char]] = &[&['a', 'b', 'c'], &['日', '本', '語'], &['🙂', 'x', '🙂']];

/// UCS4 strings of 3..=4 code points (an `AnyPad<1>` holds 16 bytes = 4 × 4).
const UCS4_FITS_PAD1: &[&[char]] = &[&['a', 'b', 'c'], &['🙂'; 4], &['日', '本', '語', 'x']];

/// UCS4 strings of 5 code points.
const UCS4_FIVE: &[&[char]] = &[&['a', 'b', 'c', 'd', 'e'], &['🙂'; 5]];

fn check_lengths(table: &[(&str, usize)]) {
    for &(s, len) in table {
        assert_eq!(s.len(), len, "hand-counted byte length of {s:?}");
    }
}

#[test]
fn hand_counted_lengths_are_right() {
    check_lengths(UTF8_FITS_VALUE);
    check_lengths(UTF8_NINE_BYTES);
    check_lengths(UTF8_FITS_PAD1);
    check_lengths(UTF8_SEVENTEEN_BYTES);
}

/// Creates, clones, compares, hashes and drops `make()` twice over; returns how many allocations that took.
fn full_lifecycle<const N: usize>(make: impl Fn() -> AnyPad<N>, text: &str) -> u64 {
    let other_text = if text == "zz" { "zy" } else { "zz" };
    let ((), n) = counted(|| {
        let a = black_box(make());
        let b = black_box(a.clone());
        let c = black_box(make()); // a second, independently built inline value
        assert!(!a.is_object() && !b.is_object() && !c.is_object());
        // Both directions: `==` must be symmetric.
        assert!(a == b);
        assert!(b == a);
        assert!(a == c);
        assert!(c == a);
        assert!(a == *text);
        assert!(a != *other_text);
        assert!(a == a.view());
        let h = hash_of(&a);
        assert_eq!(h, hash_of(&b));
        assert_eq!(h, hash_of(&c));
        assert_eq!(h, hash_of(&a.view()));
        // The view of a `&str` is a borrowed pointer: equal, same hash, still no allocation.
        let borrowed = AnyView::from(text);
        assert!(a == borrowed);
        assert_eq!(h, hash_of(&borrowed));
        drop(black_box(a));
        drop(black_box(b));
        drop(black_box(c));
    });
    n
}

#[test]
fn short_utf8_in_any_value_never_allocates() {
    for &(s, _) in UTF8_FITS_VALUE {
        assert_eq!(full_lifecycle(|| AnyValue::from(s), s), 0, "{s:?}");
    }
}

#[test]
fn short_ucs4_in_any_value_never_allocates() {
    for &chars in UCS4_FITS_VALUE {
        let text: String = chars.iter().collect();
        assert_eq!(full_lifecycle(|| AnyValue::from_chars(chars), &text), 0, "{chars:?}");
        assert_eq!(full_lifecycle(|| AnyValue::from_text_ucs4(&text), &text), 0, "{text:?}");
        // UCS4 and UTF-8 inline forms of the same text compare and hash alike without allocating.
        let ((), n) = counted(|| {
            let u = AnyValue::from_chars(chars);
            let s = AnyValue::from(text.as_str());
            assert!(u == s);
            assert!(s == u);
            assert_eq!(hash_of(&u), hash_of(&s));
        });
        assert_eq!(n, 0, "{text:?}");
    }
}

#[test]
fn inline_strings_in_any_pad_1_never_allocate() {
    for &(s, _) in UTF8_FITS_VALUE.iter().chain(UTF8_FITS_PAD1) {
        assert_eq!(full_lifecycle(|| AnyPad::<1>::from(s), s), 0, "{s:?}");
    }
    for &chars in UCS4_FITS_VALUE.iter().chain(UCS4_FITS_PAD1) {
        let text: String = chars.iter().collect();
        assert_eq!(full_lifecycle(|| AnyPad::<1>::from_chars(chars), &text), 0, "{chars:?}");
        assert_eq!(full_lifecycle(|| AnyPad::<1>::from_text_ucs4(&text), &text), 0, "{text:?}");
    }
}

/// Builds a value with `make`, asserting it took exactly one allocation and holds an object with `text`.
fn assert_one_object<const N: usize>(make: impl FnOnce() -> AnyPad<N>, text: &str) {
    let (v, n) = counted(make);
    assert_eq!(n, 1, "{text:?} should take exactly one allocation");
    assert!(v.is_object(), "{text:?} should live on the heap");
    assert_eq!(v.get::<String>().unwrap(), text);
    // Sharing a heap string is a count increment, not a copy.
    let (w, n) = counted(|| v.clone());
    assert_eq!(n, 0, "cloning heap {text:?}");
    assert!(v == w);
}

#[test]
fn one_past_the_inline_area_allocates_one_object() {
    for &(s, _) in UTF8_NINE_BYTES {
        assert_one_object(|| AnyValue::from(s), s);
    }
    for &chars in UCS4_THREE {
        let text: String = chars.iter().collect();
        assert_one_object(|| AnyValue::from_chars(chars), &text);
        assert_one_object(|| AnyValue::from_text_ucs4(&text), &text);
    }
    for &(s, _) in UTF8_SEVENTEEN_BYTES {
        assert_one_object(|| AnyPad::<1>::from(s), s);
    }
    for &chars in UCS4_FIVE {
        let text: String = chars.iter().collect();
        assert_one_object(|| AnyPad::<1>::from_chars(chars), &text);
        assert_one_object(|| AnyPad::<1>::from_text_ucs4(&text), &text);
    }
}

/// Allocations taken by `List::with_capacity(n)` and `n` pushes of one-char values.
fn fill_list(n: usize) -> u64 {
    const CHARS: [char; 4] = ['a', 'é', '日', '🙂'];
    let (list, count) = counted(|| {
        let mut l = List::with_capacity(n);
        for i in 0..n {
            if i % 2 == 0 {
                l.push(AnyValue::from_char(CHARS[i % 4]));
            } else {
                let mut buf = [0u8; 4];
                l.push(AnyValue::from(&*CHARS[i % 4].encode_utf8(&mut buf)));
            }
        }
        l
    });
    assert_eq!(list.len(), n);
    if n > 3 {
        assert!(list.get(3).unwrap() == "🙂");
    }
    count
}

#[test]
fn filling_a_presized_list_with_one_char_strings_allocates_a_fixed_amount() {
    // Run on a fresh thread, so its list recycle bin starts empty.
    std::thread::spawn(|| {
        // A new list is one boxed `ListObj` (1 allocation) plus its `Vec` buffer (1 allocation,
        // none for capacity 0, as `Vec::with_capacity(0)` documents). Pushing inline strings
        // into reserved capacity adds nothing, so the count must not grow with n.
        assert_eq!(fill_list(0), 1);
        // The capacity-0 list was dropped into this thread's bin: its box is reused, only the buffer is new.
        assert_eq!(fill_list(10), 1);
        // Now a recycled list with capacity 10 is at hand: a list of up to 10 items costs nothing.
        assert_eq!(fill_list(1), 0);
        assert_eq!(fill_list(10), 0);
        // 1000 needs a bigger buffer: one reallocation, still nothing per character.
        assert_eq!(fill_list(1000), 1);
        assert_eq!(fill_list(1000), 0);
    })
    .join()
    .unwrap();
}

#[test]
fn narrowing_allocates_exactly_when_the_string_stops_fitting() {
    let sixteen = "abcdefghijklmnop";
    let five = "héll"; // 1 + 2 + 1 + 1 = 5 bytes
    assert_eq!(five.len(), 5);

    let p = AnyPad::<1>::from(sixteen);
    assert!(!p.is_object());
    let (v, n): (AnyValue, u64) = counted(|| p.into());
    assert_eq!(n, 1);
    assert!(v.is_object());
    assert!(v == *sixteen);

    let p = AnyPad::<1>::from(sixteen);
    let (v, n) = counted(|| p.resize::<0>());
    assert_eq!(n, 1);
    assert!(v.is_object());
    assert_eq!(v.get::<String>().unwrap(), sixteen);

    let p = AnyPad::<1>::from(five);
    let (v, n): (AnyValue, u64) = counted(|| p.into());
    assert_eq!(n, 0);
    assert!(!v.is_object());
    assert!(v == *five);

    let p = AnyPad::<1>::from(five);
    let (v, n) = counted(|| p.resize::<0>());
    assert_eq!(n, 0);
    assert!(!v.is_object());
    assert_eq!(v.get::<String>().unwrap(), five);

    // Four code points fit an AnyPad<1> but not an AnyValue; two fit both.
    let p = AnyPad::<1>::from_chars(&['a', 'b', 'c', 'd']);
    let (v, n) = counted(|| p.resize::<0>());
    assert_eq!(n, 1);
    assert!(v.is_object());
    assert!(v == *"abcd");
    let p = AnyPad::<1>::from_chars(&['日', '本']);
    let (v, n) = counted(|| p.resize::<0>());
    assert_eq!(n, 0);
    assert!(v == *"日本");
}

/// The seed's untyped function (`unicode_split_any` there), run by the interpreter (issue 5's
/// zero-allocation target); the same file is checked against CPython by `interp_cpython.rs`.
const ANYSCRIPT_CASES: &str = include_str!("data/anyscript_cases.py");

/// Allocations for 100 passes of the seed function over `words`, after one warm-up pass.
fn interpreted_split_allocations(f: &anyproc::PackedFunc, words: &[String]) -> u64 {
    let pass = || {
        for w in words {
            black_box(f.call(&[AnyView::from(w.as_str())]).unwrap());
        }
    };
    // Warm-up: frames, loop states and list buffers are pooled per thread after the first call.
    pass();
    counted(|| (0..100).for_each(|_| pass())).1
}

#[test]
fn the_interpreted_seed_function_allocates_nothing_per_character() {
    let f =
        anyproc::pipeline::script(ANYSCRIPT_CASES.split("\nCASES = [").next().unwrap(), "unicode_split_any").unwrap();
    // 1-, 2-, 3- and 4-byte characters in words that fit a register inline (<= 16 bytes):
    // 4,300 characters in 400 calls, and not one allocation.
    let short: Vec<String> = ["abcdefghijklmnop", "éééééééé", "日日日日日", "🙂🙂🙂🙂"].map(String::from).to_vec();
    assert_eq!(interpreted_split_allocations(&f, &short), 0);
    // Longer words, and text of 64 bytes or more: the function is only "a new list of the
    // parameter's characters", which runs without a frame (`pipeline::direct_extend`): the word
    // is read where the caller holds it, and nothing is allocated at all.
    let long: Vec<String> = [("a", 40), ("é", 20), ("日", 15), ("🙂", 12)].map(|(c, n)| c.repeat(n)).to_vec();
    assert_eq!(interpreted_split_allocations(&f, &long), 0);
    let longer: Vec<String> = ["a", "é", "日", "🙂"].iter().map(|c| c.repeat(100)).collect();
    assert_eq!(interpreted_split_allocations(&f, &longer), 0);
    // In a frame (one more statement first), a `&str` argument longer than a register's inline
    // bytes is copied into the callee's register once per call (a pipeline's records are
    // already owned and are not copied); the loop still runs as one extend, never indexing.
    let framed = ANYSCRIPT_CASES.replace("def unicode_split_any(word):\n", "def unicode_split_any(word):\n    k = 0\n");
    let framed = anyproc::pipeline::script(framed.split("\nCASES = [").next().unwrap(), "unicode_split_any").unwrap();
    assert_eq!(interpreted_split_allocations(&framed, &short), 0);
    assert_eq!(interpreted_split_allocations(&framed, &long), 400, "one argument copy per call, none per character");
    assert_eq!(interpreted_split_allocations(&framed, &longer), 400, "one copy per call, none per character");
    // The same loop with one more statement runs instruction by instruction: long text is
    // widened to UCS4 once, on its first index (so that `text[i]` is O(1)): two allocations
    // per call, still none per character.
    let src = "def split_indexed(word):\n    ret = []\n    last = -1\n    for i in range(len(word)):\n        res = word[i]\n        last = i\n        ret.append(res)\n    return ret\n";
    let g = anyproc::pipeline::script(src, "split_indexed").unwrap();
    assert_eq!(interpreted_split_allocations(&g, &short), 0);
    assert_eq!(interpreted_split_allocations(&g, &longer), 800, "two copies per call, none per character");
}
