//! The C ABI from C: a C test program (tests/capi/abi_driver.c) calls a built-in op and a
//! Rust-registered op through the API table, builds containers and round-trips an NDArray;
//! and the boundary refuses malformed values from C with errors instead of crashing.

#[path = "plugin_build/mod.rs"]
mod plugin_build;

use anyproc::any::RawAny;
use anyproc::any::type_index::{SMALL_STR, STR};
use anyproc::capi::api;
use anyproc::func::registry;
use anyproc::{AnyValue, NDArray};
use anyproc_abi::{AnyProcApi, ObjectHeader};
use std::ffi::{CStr, CString, c_char};
use std::sync::Once;

/// Registers the Rust ops the C program calls.
fn register_rust_ops() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        registry()
            .register_typed(
                "test.rust_reverse",
                "Reverses a string by code points.",
                |s: String| -> String { s.chars().rev().collect() },
                false,
            )
            .unwrap();
        registry()
            .register_typed(
                "test.ndarray_sum",
                "Sums an int32 NDArray.",
                |a: NDArray| -> anyproc::Result<i64> { Ok(a.as_slice::<i32>()?.iter().map(|&x| i64::from(x)).sum()) },
                false,
            )
            .unwrap();
    });
}

fn last_error() -> String {
    // SAFETY: the table's error accessor returns NULL or a NUL-terminated string.
    let p = unsafe { (api().error_last)() };
    if p.is_null() { String::new() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() }
}

#[test]
fn c_program_calls_builtin_and_rust_ops_through_the_abi() {
    register_rust_ops();
    let lib_path = plugin_build::build_c("tests/capi/abi_driver.c", "abi_driver", &[]);
    type Driver = unsafe extern "C" fn(*const AnyProcApi, *mut c_char, usize) -> i32;
    // SAFETY: a test library built just now; it has no constructors.
    let lib = unsafe { libloading::Library::new(&lib_path) }.unwrap();
    // SAFETY: the driver is declared with exactly this signature in abi_driver.c.
    let driver: libloading::Symbol<Driver> = unsafe { lib.get(b"anyproc_abi_driver\0") }.unwrap();
    let mut report = vec![0u8; 1 << 16];
    // SAFETY: the table is static; the report buffer is writable for its length.
    let failures = unsafe { driver(api(), report.as_mut_ptr().cast(), report.len()) };
    let report = CStr::from_bytes_until_nul(&report).map(|c| c.to_string_lossy().into_owned()).unwrap_or_default();
    assert_eq!(failures, 0, "the C program reported failures:\n{report}");
}

#[test]
fn the_table_reports_its_version_and_size() {
    let table = api();
    assert_eq!(table.abi_version, anyproc_abi::ABI_VERSION);
    assert_eq!(table.struct_size as usize, std::mem::size_of::<AnyProcApi>());
}

fn call_lower(arg: RawAny) -> (i32, RawAny) {
    let name = CString::new("text.lower").unwrap();
    let mut func: *mut ObjectHeader = std::ptr::null_mut();
    // SAFETY: valid pointers; the function reference is released below.
    assert_eq!(unsafe { (api().func_get_global)(name.as_ptr(), &mut func) }, 0);
    let mut result = RawAny::with_type(0);
    // SAFETY: one argument, a writable result slot.
    let rc = unsafe { (api().func_call)(func, &arg, 1, &mut result) };
    // SAFETY: we own one reference to `func`.
    unsafe { (api().object_dec_ref)(func) };
    (rc, result)
}

#[test]
fn malformed_values_from_c_are_refused_not_trusted() {
    let mut too_long = RawAny::with_type(SMALL_STR);
    too_long.small_len = 20;
    let mut bad_utf8 = RawAny::with_type(SMALL_STR);
    bad_utf8.small_len = 2;
    bad_utf8.payload.v_bytes = [0xff, 0xfe, 0, 0, 0, 0, 0, 0];
    let null_object = RawAny::with_ptr(STR, 0, std::ptr::null_mut());
    let unknown_type = RawAny::with_type(40);
    let mut wrong_header = RawAny::with_type(0);
    let list = AnyValue::from(anyproc::List::new());
    wrong_header.type_index = STR;
    // SAFETY: reading the pointer of a list value we keep alive.
    wrong_header.payload.v_ptr = unsafe { list.raw().payload.v_ptr };
    let cases = [
        (too_long, "inline length 20 exceeds 8 bytes"),
        (bad_utf8, "not valid UTF-8"),
        (null_object, "object pointer is NULL"),
        (unknown_type, "unknown type index 40"),
        (wrong_header, "its object's header says"),
    ];
    for (raw, expected) in cases {
        let (rc, _) = call_lower(raw);
        let msg = last_error();
        assert_eq!(rc, -1, "{expected}");
        assert!(msg.contains("func_call: argument 0") && msg.contains(expected), "{expected}: {msg}");
    }
    // NULL pointers everywhere are errors too, never crashes.
    let mut out: *mut ObjectHeader = std::ptr::null_mut();
    // SAFETY: deliberately NULL arguments.
    unsafe {
        assert_eq!((api().func_get_global)(std::ptr::null(), &mut out), -1);
        assert!(last_error().contains("argument 'name' is NULL"));
        assert_eq!((api().func_call)(std::ptr::null_mut(), std::ptr::null(), 0, std::ptr::null_mut()), -1);
        assert_eq!((api().list_append)(std::ptr::null_mut(), std::ptr::null()), -1);
        assert!(last_error().contains("list_append"), "{}", last_error());
        assert_eq!((api().str_create)(std::ptr::null(), 3, &mut RawAny::with_type(0)), -1);
        assert!(last_error().contains("data is NULL but len is 3"));
        (api().any_release)(std::ptr::null_mut());
        (api().object_dec_ref)(std::ptr::null_mut());
    }
    // A good call still works afterwards.
    let mut hello = RawAny::with_type(SMALL_STR);
    hello.small_len = 5;
    hello.payload.v_bytes = *b"HeLLo\0\0\0";
    let (rc, mut result) = call_lower(hello);
    assert_eq!(rc, 0, "{}", last_error());
    let (mut data, mut len): (*const c_char, usize) = (std::ptr::null(), 0);
    // SAFETY: a valid owned result; no holder needed for UTF-8.
    assert_eq!(unsafe { (api().str_get)(&result, std::ptr::null_mut(), &mut data, &mut len) }, 0);
    // SAFETY: str_get returned `len` bytes at `data`, alive with `result`.
    assert_eq!(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) }, b"hello");
    // SAFETY: we own `result`.
    unsafe { (api().any_release)(&mut result) };
    assert_eq!(result.type_index, 0);
}
