//! An anyproc plugin in Rust that talks to the host only through the C ABI table.
//!
//! It registers two ops:
//! - `example_rust.word_count(text) -> int`: the number of whitespace-separated words;
//! - `example_rust.repeat(text, times) -> str`: `text` repeated `times` times.
//!
//! Build it with `cargo build -p anyproc-plugin-example --release` and load
//! `target/release/libanyproc_plugin_example.so` with `anyproc run --plugin`,
//! `anyproc.load_module` or `anyproc::capi::load_module`.

use anyproc_abi::type_index::INT;
use anyproc_abi::{ABI_VERSION, AnyProcApi, ObjectHeader, RawAny};
use std::ffi::{CString, c_char, c_void};
use std::sync::OnceLock;

/// The host's table, kept from init; the host outlives every call into this plugin.
struct Host(&'static AnyProcApi);
// SAFETY: the table is immutable and its functions are thread-safe.
unsafe impl Send for Host {}
// SAFETY: as above.
unsafe impl Sync for Host {}

static HOST: OnceLock<Host> = OnceLock::new();

fn api() -> &'static AnyProcApi {
    HOST.get().expect("init ran before any op").0
}

/// Reports `message` as this call's error and returns -1.
fn fail(kind: &str, message: &str) -> i32 {
    let kind = CString::new(kind).unwrap_or_default();
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: both are valid NUL-terminated strings for the duration of the call.
    unsafe { (api().error_set)(kind.as_ptr(), message.as_ptr()) };
    -1
}

/// Runs `f` on the UTF-8 text of `value`, keeping any converted copy alive until it returns.
///
/// # Safety
/// `value` must point to a valid value.
unsafe fn with_text<R>(value: *const RawAny, f: impl FnOnce(&str) -> R) -> Result<R, i32> {
    let mut holder = RawAny::with_type(0);
    let mut data: *const c_char = std::ptr::null();
    let mut len = 0usize;
    // SAFETY: all pointers are valid; the host validates the value's type.
    if unsafe { (api().str_get)(value, &mut holder, &mut data, &mut len) } != 0 {
        return Err(-1);
    }
    // SAFETY: the host returned `len` bytes of valid UTF-8 that live as long as `value` and `holder`.
    let text = unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(data.cast::<u8>(), len)) };
    let out = f(text);
    // SAFETY: `holder` is owned by us and released exactly once.
    unsafe { (api().any_release)(&mut holder) };
    Ok(out)
}

unsafe extern "C" fn word_count(_: *mut c_void, args: *const RawAny, num_args: i32, result: *mut RawAny) -> i32 {
    if num_args != 1 {
        return fail("ArityError", &format!("example_rust.word_count takes 1 argument, got {num_args}"));
    }
    // SAFETY: the host passes `num_args` valid values.
    match unsafe { with_text(args, |t| t.split_whitespace().count()) } {
        Ok(n) => {
            let mut out = RawAny::with_type(INT);
            out.payload.v_int64 = n as i64;
            // SAFETY: the host passes a writable result slot.
            unsafe { *result = out };
            0
        }
        Err(rc) => rc,
    }
}

unsafe extern "C" fn repeat(_: *mut c_void, args: *const RawAny, num_args: i32, result: *mut RawAny) -> i32 {
    if num_args != 2 {
        return fail("ArityError", &format!("example_rust.repeat takes 2 arguments, got {num_args}"));
    }
    // SAFETY: the host passes `num_args` valid values.
    let times = unsafe { &*args.add(1) };
    if times.type_index != INT {
        return fail("TypeError", "example_rust.repeat: argument 1 (times): expected int");
    }
    // SAFETY: checked to be an int.
    let times = unsafe { times.payload.v_int64 };
    if !(0..=1 << 20).contains(&times) {
        return fail("ValueError", &format!("example_rust.repeat: argument 1 (times): {times} is out of 0..=1048576"));
    }
    // SAFETY: the host passes valid values.
    let repeated = match unsafe { with_text(args, |t| t.repeat(times as usize)) } {
        Ok(s) => s,
        Err(rc) => return rc,
    };
    // SAFETY: valid UTF-8 bytes and a writable result slot.
    unsafe { (api().str_create)(repeated.as_ptr().cast(), repeated.len(), result) }
}

/// Registers `callback` as the global op `name`.
fn register(name: &str, signature: &str, doc: &str, callback: anyproc_abi::Callback) -> i32 {
    let api = api();
    let (name, signature, doc) =
        (CString::new(name).unwrap(), CString::new(signature).unwrap(), CString::new(doc).unwrap());
    let mut func: *mut ObjectHeader = std::ptr::null_mut();
    // SAFETY: a valid callback, no resource, and a writable out slot.
    if unsafe { (api.func_create)(Some(callback), std::ptr::null_mut(), None, &mut func) } != 0 {
        return -1;
    }
    // SAFETY: `func` is a live function object we own; the strings outlive the call.
    let rc = unsafe { (api.func_register_global)(name.as_ptr(), signature.as_ptr(), doc.as_ptr(), func, 0) };
    // SAFETY: the registry took its own reference; we drop ours.
    unsafe { (api.object_dec_ref)(func) };
    rc
}

/// The ABI version this plugin was built for.
#[unsafe(no_mangle)]
pub extern "C" fn AnyProcPluginAbiVersion() -> u32 {
    ABI_VERSION
}

/// Called once by the host: keeps the table and registers the ops.
///
/// # Safety
/// `api` must point to the host's table, valid for the life of the process.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn AnyProcPluginInit(api: *const AnyProcApi, _module: *mut ObjectHeader) -> i32 {
    // SAFETY: guaranteed by the host.
    let Some(table) = (unsafe { api.as_ref() }) else { return -1 };
    let _ = HOST.set(Host(table));
    if register("example_rust.word_count", "(str) -> int", "Number of whitespace-separated words.", word_count) != 0 {
        return -1;
    }
    register("example_rust.repeat", "(str, int) -> str", "The text repeated `times` times.", repeat)
}
