//! Results the allocator refuses are `MemoryError`s, not a process abort.
//!
//! Each check runs in a child process (this test binary again, one test selected)
//! under `ulimit -v`, so the allocator's refusal is certain whatever the machine's
//! overcommit policy; the parent asserts that the child exited normally. Inside the
//! child, the sizes asked for are far above the limit, and each must come back as an
//! error of kind `Memory` naming what was being built and how many bytes it needed.

use anyproc::ndarray::DLDataType;
use anyproc::pipeline::script;
use anyproc::{AnyPad, AnyValue, AnyView, ErrorKind, NDArray};
use std::process::Command;

/// Address-space limit of the child, in KiB: room for the test harness, far below the requests.
const CHILD_LIMIT_KIB: u64 = 3_000_000;
const IN_CHILD: &str = "ANYPROC_MEMORY_LIMIT_CHILD";

/// Runs test `name` of this binary in a child under the address-space limit; true in the child.
fn in_limited_child(name: &str) -> bool {
    in_child_limited_to(name, CHILD_LIMIT_KIB)
}

/// A lower limit, for tests whose values grow item by item: the sizes that reach it are
/// built ten times faster than the ones that reach [`CHILD_LIMIT_KIB`] (tests run unoptimised).
const SMALL_CHILD_LIMIT_KIB: u64 = 1_000_000;

/// [`in_limited_child`] under a limit of `limit_kib` KiB.
fn in_child_limited_to(name: &str, limit_kib: u64) -> bool {
    if std::env::var_os(IN_CHILD).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("test binary");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kib} && exec \"$0\" --exact {name} --nocapture --test-threads 1"))
        .arg(exe)
        .env(IN_CHILD, "1")
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child {name} failed ({:?}):\n{stdout}\n{stderr}", out.status);
    assert!(stdout.contains("1 passed"), "child {name} ran no test:\n{stdout}");
    false
}

/// Runs `body` (a function of one int argument) and returns its error text, checking the kind.
fn memory_error_of(body: &str, n: i64) -> String {
    let f = script(&format!("def f(n):\n    {body}\n"), "f").expect("compiles");
    let e = f.call(&[AnyView::from(n)]).expect_err("the allocator refuses this");
    assert_eq!(e.kind(), ErrorKind::Memory, "{e}");
    e.to_string()
}

#[test]
fn repeating_and_replacing_beyond_memory_is_a_memory_error() {
    if !in_limited_child("repeating_and_replacing_beyond_memory_is_a_memory_error") {
        return;
    }
    // 2 bytes * 2^31 = 4 GiB, past the 3 GB limit.
    assert_eq!(
        memory_error_of("return len('ab' * n)", 1 << 31),
        "function 'f', line 2: repeated string: cannot allocate 4294967296 bytes"
    );
    // A UCS4 string holds 4 bytes per character: 2 * 4 * 2^29 = 4 GiB; bytes 1 per byte.
    assert!(AnyPad::<1>::try_repeat_chars(&['é', 'a'], 1 << 29).is_none());
    assert!(AnyPad::<1>::try_repeat_bytes(b"ab", 1 << 31).is_none());
    let small = AnyPad::<1>::try_repeat_chars(&['é', 'a'], 3).expect("24 bytes");
    // Equal by value to the UTF-8 string, as UCS4 and UTF-8 strings compare.
    assert_eq!(small.resize::<0>(), AnyValue::from("éaéaéa"));
    // 16 bytes per item * 2^28 = 4 GiB.
    assert_eq!(
        memory_error_of("return len([0] * n)", 1 << 28),
        "function 'f', line 2: repeated list: cannot allocate 4294967296 bytes"
    );
    assert_eq!(
        memory_error_of("return len(list(range(n)))", 1 << 28),
        "function 'f', line 2: list(range()): cannot allocate 4294967296 bytes"
    );
    // 2^16 hits, each growing by 2^16 - 1 bytes: 2^16 + 2^16 * (2^16 - 1) = 2^32 bytes.
    assert_eq!(
        memory_error_of("return len(('a' * n).replace('a', 'b' * n))", 1 << 16),
        "function 'f', line 2: replace() result: cannot allocate 4294967296 bytes"
    );
    // The interpreter goes on working after each refusal.
    let f = script("def f(n):\n    return len('ab' * n)\n", "f").expect("compiles");
    assert_eq!(f.call(&[AnyView::from(1000i64)]).expect("2 KB").value().as_int(), Some(2000));
}

#[test]
fn growing_a_list_beyond_memory_is_a_memory_error() {
    if !in_child_limited_to("growing_a_list_beyond_memory_is_a_memory_error", SMALL_CHILD_LIMIT_KIB) {
        return;
    }
    // A list of 4 * 10^7 items fills 640 MB exactly; one more item doubles its room to 1.28 GB,
    // past the 1 GB limit, by each way a list grows.
    let n = 40_000_000;
    let cases = [
        ("xs.append(1)", "line 3: list.append(): cannot allocate 1280000000 bytes"),
        ("ys = [xs.append(1)]", "line 3: list.append(): cannot allocate 1280000000 bytes"),
        ("xs.insert(0, 1)", "line 3: list.insert(): cannot allocate 1280000000 bytes"),
        ("xs.extend([1])", "line 3: list.extend(): cannot allocate 1280000000 bytes"),
        ("xs += [1]", "line 3: list +=: cannot allocate 1280000000 bytes"),
        // A new list of both: 640 MB more, with the 640 MB of `xs` held.
        ("ys = xs + [1]", "line 3: list +: cannot allocate 640000000 bytes"),
        ("ys = list(xs)", "line 3: copy of a list: cannot allocate 640000000 bytes"),
    ];
    for (grow, want) in cases {
        let body = format!("xs = [0] * n\n    {grow}\n    return len(xs)");
        assert_eq!(memory_error_of(&body, n), format!("function 'f', {want}"), "{grow}");
    }
    // 10^8 one-character strings need 1.6 GB, asked for before the first is made. The fused
    // append loop is located at its append, where CPython raises.
    let n = 100_000_000;
    for (build, want) in [
        ("out = []\n    for c in s:\n        out.append(c)", "line 5: list.append(): cannot allocate 1600000000 bytes"),
        ("out = [c for c in s]", "line 3: list.append(): cannot allocate 1600000000 bytes"),
        ("out = list(s)", "line 3: list of characters: cannot allocate 1600000000 bytes"),
    ] {
        let body = format!("s = 'a' * n\n    {build}\n    return len(out)");
        assert_eq!(memory_error_of(&body, n), format!("function 'f', {want}"), "{build}");
    }
    // A function that is only such a loop over its parameter runs without a frame for a word
    // (`pipeline::direct_extend`), and as interpreted for long text: refused the same way.
    let f = script("def f(s):\n    out = []\n    for c in s:\n        out.append(c)\n    return out\n", "f")
        .expect("compiles");
    let s = AnyValue::from("a".repeat(n as usize));
    let e = f.call(&[s.view()]).expect_err("the allocator refuses this");
    assert_eq!(e.kind(), ErrorKind::Memory, "{e}");
    assert_eq!(e.to_string(), "function 'f', line 4: list.append(): cannot allocate 1600000000 bytes");
    // The interpreter goes on working after each refusal.
    let f = script("def f(n):\n    xs = [0] * n\n    xs.append(1)\n    return len(xs)\n", "f").expect("compiles");
    assert_eq!(f.call(&[AnyView::from(1000i64)]).expect("16 KB").value().as_int(), Some(1001));
}

#[test]
fn growing_a_dict_beyond_memory_is_a_memory_error() {
    if !in_child_limited_to("growing_a_dict_beyond_memory_is_a_memory_error", 200_000) {
        return;
    }
    // Filled from Rust, since a script loop that reaches the limit takes minutes unoptimised;
    // `d[k] = v` and `d.setdefault(k, v)` in scripts go through `try_set`.
    let mut d = anyproc::Dict::new();
    let mut refused = None;
    for i in 0..100_000_000i64 {
        if let Err(e) = d.try_set(AnyValue::from(i), AnyValue::from(i), "dict item") {
            refused = Some((i, e));
            break;
        }
    }
    let (at, e) = refused.expect("a 200 MB limit refuses a dict of 10^8 entries");
    assert_eq!(e.kind(), ErrorKind::Memory, "{e}");
    assert!(e.to_string().starts_with("dict item: cannot allocate "), "{e}");
    // Refused when the table grows, with every entry so far kept.
    assert!(at >= 1 << 20, "refused at {at}");
    assert_eq!(d.len() as i64, at);
    assert_eq!(d.get(AnyView::from(at - 1)).and_then(|v| v.value().as_int()), Some(at - 1));
}

#[test]
fn text_results_beyond_memory_are_memory_errors() {
    if !in_child_limited_to("text_results_beyond_memory_are_memory_errors", SMALL_CHILD_LIMIT_KIB) {
        return;
    }
    // 600 MB twice is past the 1 GB limit.
    assert_eq!(
        memory_error_of("s = 'a' * n\n    return len(s + s)", 600_000_000),
        "function 'f', line 3: str +: cannot allocate 1200000000 bytes"
    );
    // 16 pieces of 70 MB and 15 commas: 1.12 GB.
    assert_eq!(
        memory_error_of("s = 'a' * n\n    return len(','.join([s] * 16))", 70_000_000),
        "function 'f', line 3: str.join() result: cannot allocate 1120000015 bytes"
    );
    // 4 * 10^7 words of 2 bytes: their pieces (16 bytes each) fill 2^25 slots, and the next
    // doubling asks for 2^26 * 16 bytes = 1 GiB.
    assert_eq!(
        memory_error_of("s = 'a ' * n\n    return len(s.split())", 40_000_000),
        "function 'f', line 3: str.split() result: cannot allocate 1073741824 bytes"
    );
    let f = script("def f(n):\n    return len(','.join(['ab'] * n).split(','))\n", "f").expect("compiles");
    assert_eq!(f.call(&[AnyView::from(1000i64)]).expect("small").value().as_int(), Some(1000));
}

#[test]
fn a_repr_beyond_memory_is_a_memory_error() {
    if !in_limited_child("a_repr_beyond_memory_is_a_memory_error") {
        return;
    }
    // A list of one 1.6 GB string prints as 1.6 GB more: together past the 3 GB limit. The
    // room for the string's repr is asked for before it is written: 1 byte of `[` so far, then
    // the string and its two quotes.
    for call in ["repr", "str"] {
        assert_eq!(
            memory_error_of(&format!("s = 'a' * n\n    return len({call}([s]))"), 1_600_000_000),
            "function 'f', line 3: repr(): cannot allocate 1600000003 bytes"
        );
    }
    // Smaller reprs still work, and the interpreter goes on after the refusal.
    let f = script("def f(n):\n    return len(repr(['a' * n] * 3))\n", "f").expect("compiles");
    assert_eq!(f.call(&[AnyView::from(1000i64)]).expect("3 KB").value().as_int(), Some(3 * 1002 + 2 * 2 + 2));
}

#[test]
fn an_array_beyond_memory_is_a_memory_error() {
    if !in_limited_child("an_array_beyond_memory_is_a_memory_error") {
        return;
    }
    let e = NDArray::zeros(&[1 << 16, 1 << 16], DLDataType::INT64).expect_err("32 GiB");
    assert_eq!(e.kind(), ErrorKind::Memory);
    assert_eq!(e.to_string(), "shape [65536, 65536] of int64: cannot allocate 34359738368 bytes");
    assert!(NDArray::zeros(&[1 << 10, 1 << 10], DLDataType::INT64).is_ok());
}
