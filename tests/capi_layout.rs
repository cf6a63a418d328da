//! The C header (`include/anyproc.h`) against the one definition of the ABI (`anyproc-abi`).
//!
//! Rationale: the header is written by hand, and a layout copied by hand drifts
//! (seed 004). So a C probe (`tests/capi/layout_probe.c`) compiled against the
//! header prints every size, alignment, offset and constant, and this test
//! computes the same facts from the Rust types with `size_of` / `offset_of!`.
//! A fact printed on one side only is a failure too, and the Rust lists are
//! checked for completeness: struct fields by an exhaustive pattern (a new field
//! does not compile until it is listed), constants by scanning `abi/src`.
//!
//! Needs a C compiler (`$CC`, else `cc`); the C++ check uses `$CXX`, else `c++`,
//! and is skipped with a note when there is none.

use anyproc_abi::dlpack::{
    DLDataType, DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor, device_type, type_code,
};
use anyproc_abi::{AnyProcApi, ObjectHeader, Payload, RawAny, api, dlpack, type_index};
use std::collections::BTreeMap;
use std::mem::{align_of, offset_of, size_of};
use std::path::{Path, PathBuf};
use std::process::Command;

// ---------------------------------------------------------------------------------------------
// Compiling C
// ---------------------------------------------------------------------------------------------

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The strict C99 flags every C file of the ABI must build with.
const C_FLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];

fn include_dir() -> PathBuf {
    Path::new(MANIFEST_DIR).join("include")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("capi_layout").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The compiler named by `var` (which may carry flags, like `CC="gcc -m64"`), else `default`.
fn compiler(var: &str, default: &str) -> Command {
    let spec = std::env::var(var).ok().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| default.to_string());
    let mut words = spec.split_whitespace();
    let mut cmd = Command::new(words.next().unwrap());
    cmd.args(words);
    cmd
}

/// Runs `cmd`, panicking with its output when it fails.
fn run(mut cmd: Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot run {cmd:?}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed ({}): {cmd:?}\n--- stdout\n{text}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

// ---------------------------------------------------------------------------------------------
// The facts the Rust side expects
// ---------------------------------------------------------------------------------------------

/// `key -> value`, as the probe prints them.
#[derive(Default)]
struct Facts(BTreeMap<String, String>);

impl Facts {
    fn insert(&mut self, key: String, value: impl ToString) {
        let value = value.to_string();
        if let Some(old) = self.0.insert(key.clone(), value) {
            panic!("the Rust side lists {key} twice (first {old})");
        }
    }

    /// `sizeof.C` and `alignof.C` of the Rust type `T`.
    fn type_of<T>(&mut self, c_name: &str) {
        self.insert(format!("sizeof.{c_name}"), size_of::<T>());
        self.insert(format!("alignof.{c_name}"), align_of::<T>());
    }

    fn field(&mut self, c_name: &str, field: &str, offset: usize, size: usize) {
        self.insert(format!("offsetof.{c_name}.{field}"), offset);
        self.insert(format!("sizeof.{c_name}.{field}"), size);
    }

    /// A constant, remembering which Rust constant it comes from (for the completeness check).
    fn constant(&mut self, rust_names: &mut Vec<String>, rust_name: &str, c_name: &str, value: impl ToString) {
        rust_names.push(rust_name.to_string());
        self.insert(format!("const.{c_name}"), value);
    }
}

/// The size of the field `f` picks out; the closure is never called.
fn field_size<T, F>(_: fn(&T) -> &F) -> usize {
    size_of::<F>()
}

/// Lists the layout of a `#[repr(C)]` struct (`struct`) or union (`union`) under its C name.
///
/// For a struct, every field must be listed: the exhaustive pattern below stops
/// compiling when the Rust struct gains a field this list lacks.
macro_rules! layout {
    ($facts:ident, struct $ty:ident as $c:literal { $($field:ident),* $(,)? }) => {{
        let _exhaustive = |v: &$ty| {
            let $ty { $($field: _),* } = v;
        };
        $facts.type_of::<$ty>($c);
        $( $facts.field($c, stringify!($field), offset_of!($ty, $field), field_size(|v: &$ty| &v.$field)); )*
    }};
    ($facts:ident, union $ty:ident as $c:literal { $($field:ident),* $(,)? }) => {{
        $facts.type_of::<$ty>($c);
        // SAFETY: only a reference is formed (to measure the field's type); nothing is read.
        $( $facts.field($c, stringify!($field), offset_of!($ty, $field), field_size(|v: &$ty| unsafe { &v.$field })); )*
    }};
}

/// Every fact the probe must print, and the Rust constants they cover.
fn expected() -> (Facts, Vec<String>) {
    let mut f = Facts::default();

    layout!(f, struct RawAny as "AnyProcAny" { type_index, small_len, payload });
    layout!(f, union Payload as "AnyProcPayload" { v_int64, v_float64, v_ptr, v_bytes, v_char32 });
    layout!(f, struct ObjectHeader as "AnyProcObject" { type_index, ref_count, deleter });

    layout!(f, struct DLPackVersion as "DLPackVersion" { major, minor });
    layout!(f, struct DLDevice as "DLDevice" { device_type, device_id });
    f.insert("sizeof.DLDeviceType".into(), field_size(|d: &DLDevice| &d.device_type));
    layout!(f, struct DLDataType as "DLDataType" { code, bits, lanes });
    layout!(f, struct DLTensor as "DLTensor" { data, device, ndim, dtype, shape, strides, byte_offset });
    layout!(f, struct DLManagedTensor as "DLManagedTensor" { dl_tensor, manager_ctx, deleter });
    layout!(f, struct DLManagedTensorVersioned as "DLManagedTensorVersioned" {
        version, manager_ctx, deleter, flags, dl_tensor,
    });

    layout!(f, struct AnyProcApi as "AnyProcApi" {
        abi_version,
        struct_size,
        error_last,
        error_set,
        object_inc_ref,
        object_dec_ref,
        any_release,
        any_copy,
        func_get_global,
        func_call,
        func_create,
        func_register_global,
        str_create,
        str_get,
        list_create,
        list_append,
        list_size,
        list_get_item,
        dict_create,
        dict_set_item,
        dict_get_item,
        dict_size,
        dict_item_at,
        ndarray_create,
        ndarray_get_tensor,
        ndarray_to_dlpack,
        ndarray_from_dlpack,
        module_load,
    });

    let mut names = Vec::new();
    macro_rules! type_indices {
        ($($name:ident),* $(,)?) => {
            $( f.constant(&mut names, concat!("type_index::", stringify!($name)),
                          concat!("ANYPROC_TYPE_", stringify!($name)), type_index::$name); )*
        };
    }
    type_indices!(
        NONE,
        INT,
        BOOL,
        FLOAT,
        OPAQUE_PTR,
        DATA_TYPE,
        DEVICE,
        SMALL_STR,
        SMALL_USTR,
        SMALL_BYTES,
        RAW_STR,
        RAW_USTR,
        RAW_BYTES,
        OBJECT_BEGIN,
        OBJECT,
        STR,
        USTR,
        BYTES,
        LIST,
        DICT,
        FUNC,
        NDARRAY,
        ERROR,
        MODULE,
        BOXED_INT,
        BOXED_FLOAT,
        BOXED_BOOL,
        SET,
        TUPLE,
        STATIC_END,
        DYNAMIC_BEGIN,
    );

    f.constant(&mut names, "api::ABI_VERSION_MAJOR", "ANYPROC_ABI_VERSION_MAJOR", api::ABI_VERSION_MAJOR);
    f.constant(&mut names, "api::ABI_VERSION_MINOR", "ANYPROC_ABI_VERSION_MINOR", api::ABI_VERSION_MINOR);
    f.constant(&mut names, "api::ABI_VERSION", "ANYPROC_ABI_VERSION", api::ABI_VERSION);
    names.push("api::PLUGIN_ABI_VERSION_SYMBOL".into());
    f.insert("str.ANYPROC_PLUGIN_ABI_VERSION_SYMBOL".into(), api::PLUGIN_ABI_VERSION_SYMBOL);
    names.push("api::PLUGIN_INIT_SYMBOL".into());
    f.insert("str.ANYPROC_PLUGIN_INIT_SYMBOL".into(), api::PLUGIN_INIT_SYMBOL);

    f.constant(&mut names, "dlpack::DLPACK_VERSION", "DLPACK_MAJOR_VERSION", dlpack::DLPACK_VERSION.major);
    f.constant(&mut names, "dlpack::DLPACK_VERSION", "DLPACK_MINOR_VERSION", dlpack::DLPACK_VERSION.minor);
    let flags = [
        ("DLPACK_FLAG_BITMASK_READ_ONLY", dlpack::DLPACK_FLAG_BITMASK_READ_ONLY),
        ("DLPACK_FLAG_BITMASK_IS_COPIED", dlpack::DLPACK_FLAG_BITMASK_IS_COPIED),
    ];
    for (name, value) in flags {
        f.constant(&mut names, &format!("dlpack::{name}"), name, value);
    }
    let devices = [
        ("CPU", "kDLCPU", device_type::CPU),
        ("CUDA", "kDLCUDA", device_type::CUDA),
        ("CUDA_HOST", "kDLCUDAHost", device_type::CUDA_HOST),
        ("ROCM", "kDLROCM", device_type::ROCM),
        ("CUDA_MANAGED", "kDLCUDAManaged", device_type::CUDA_MANAGED),
    ];
    for (rust, c, value) in devices {
        f.constant(&mut names, &format!("dlpack::device_type::{rust}"), c, value);
    }
    let codes = [
        ("INT", "kDLInt", type_code::INT),
        ("UINT", "kDLUInt", type_code::UINT),
        ("FLOAT", "kDLFloat", type_code::FLOAT),
        ("OPAQUE_HANDLE", "kDLOpaqueHandle", type_code::OPAQUE_HANDLE),
        ("BFLOAT", "kDLBfloat", type_code::BFLOAT),
        ("COMPLEX", "kDLComplex", type_code::COMPLEX),
        ("BOOL", "kDLBool", type_code::BOOL),
    ];
    for (rust, c, value) in codes {
        f.constant(&mut names, &format!("dlpack::type_code::{rust}"), c, value);
    }

    (f, names)
}

/// Every `pub const` of the ABI crate's C-facing modules, as `module::NAME` or `module::inner::NAME`.
///
/// A line scan, enough for these files: a `pub const` at column 0 belongs to the
/// file's module, one inside a column-0 `pub mod NAME {` block to that module, and
/// associated constants inside `impl` blocks (`DLDataType::INT8`, ...) are not C constants.
fn rust_constants() -> Vec<String> {
    let mut found = Vec::new();
    for module in ["type_index", "api", "dlpack"] {
        let path = Path::new(MANIFEST_DIR).join("abi/src").join(format!("{module}.rs"));
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut inner: Option<String> = None;
        let mut in_impl = false;
        for line in source.lines() {
            if line.starts_with('}') {
                inner = None;
                in_impl = false;
            } else if let Some(rest) = line.strip_prefix("pub mod ") {
                inner = rest.split_whitespace().next().map(str::to_string);
            } else if line.starts_with("impl") {
                in_impl = true;
            }
            let Some(rest) = line.trim_start().strip_prefix("pub const ") else { continue };
            if in_impl {
                continue;
            }
            let name = rest.split(':').next().unwrap().trim();
            found.push(match &inner {
                Some(m) => format!("{module}::{m}::{name}"),
                None => format!("{module}::{name}"),
            });
        }
    }
    found
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

/// Every size, alignment, offset and constant of the header equals the Rust definition.
#[test]
fn header_layout_matches_rust_abi() {
    let (expected, covered) = expected();

    let missing: Vec<_> = rust_constants().into_iter().filter(|c| !covered.contains(c)).collect();
    assert!(
        missing.is_empty(),
        "Rust constants with no entry in this test (add them to the header and the probe):\n  {}",
        missing.join("\n  ")
    );

    let dir = scratch("probe");
    let exe = dir.join("layout_probe");
    let mut cc = compiler("CC", "cc");
    cc.args(C_FLAGS).arg("-I").arg(include_dir());
    cc.arg(Path::new(MANIFEST_DIR).join("tests/capi/layout_probe.c")).arg("-o").arg(&exe);
    run(cc, "compiling tests/capi/layout_probe.c");
    let output = run(Command::new(&exe), "running layout_probe");

    let mut probed = BTreeMap::new();
    let mut problems = Vec::new();
    for line in output.lines().filter(|l| !l.trim().is_empty()) {
        match line.split_once('=') {
            Some((k, v)) => {
                if probed.insert(k.to_string(), v.to_string()).is_some() {
                    problems.push(format!("{k}: printed twice by the probe"));
                }
            }
            None => problems.push(format!("unparsable probe line: {line:?}")),
        }
    }
    for (key, c) in &probed {
        match expected.0.get(key) {
            Some(rust) if rust == c => {}
            Some(rust) => problems.push(format!("{key}: C header says {c}, Rust says {rust}")),
            None => problems.push(format!("{key}: printed by the probe but unknown to the Rust side")),
        }
    }
    for key in expected.0.keys().filter(|k| !probed.contains_key(*k)) {
        problems.push(format!("{key}: expected by the Rust side but not printed by the probe"));
    }
    assert!(
        problems.is_empty(),
        "include/anyproc.h disagrees with anyproc-abi ({} problems):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
    assert!(probed.len() > 150, "suspiciously few facts: {}", probed.len());
}

/// A translation unit that includes the header alone, and one that uses its macros and helpers.
const ONLY_HEADER: &str = "#include \"anyproc.h\"\n";
const USES_HEADER: &str = r#"#include "anyproc.h"

ANYPROC_PLUGIN_DECLARE_ABI_VERSION();

ANYPROC_PLUGIN_EXPORT int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module);
ANYPROC_PLUGIN_EXPORT int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module) {
  AnyProcAny values[6];
  values[0] = AnyProcAnyNone();
  values[1] = AnyProcAnyInt(-1);
  values[2] = AnyProcAnyFloat(0.5);
  values[3] = AnyProcAnyBool(7);
  values[4] = AnyProcAnyFromObject(module);
  values[5] = AnyProcAnyFromObject(NULL);
  AnyProcPluginAbiVersionFn version = AnyProcPluginAbiVersion;
  AnyProcPluginInitFn init = AnyProcPluginInit;
  (void)init;
  if (api == NULL || version() != ANYPROC_ABI_VERSION) return -1;
  return AnyProcAnyIsObject(&values[4]) ? 0 : -1;
}
"#;

/// The header compiles alone as strict C99, and as C++11 when a C++ compiler exists.
#[test]
fn header_compiles_alone_as_c99_and_cpp() {
    let dir = scratch("syntax");
    for (name, text) in [("only_header", ONLY_HEADER), ("uses_header", USES_HEADER)] {
        let c_file = dir.join(format!("{name}.c"));
        std::fs::write(&c_file, text).unwrap();
        let mut cc = compiler("CC", "cc");
        cc.args(C_FLAGS).arg("-fsyntax-only").arg("-I").arg(include_dir()).arg(&c_file);
        run(cc, &format!("{name}.c as C99"));
    }

    let has_cxx = compiler("CXX", "c++").arg("--version").output().is_ok_and(|o| o.status.success());
    if !has_cxx {
        eprintln!("note: no C++ compiler ($CXX or c++); the C++ check of include/anyproc.h is skipped");
        return;
    }
    for (name, text) in [("only_header", ONLY_HEADER), ("uses_header", USES_HEADER)] {
        let cpp_file = dir.join(format!("{name}.cpp"));
        std::fs::write(&cpp_file, text).unwrap();
        let mut cxx = compiler("CXX", "c++");
        cxx.args(["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I"]);
        cxx.arg(include_dir()).arg(&cpp_file);
        run(cxx, &format!("{name}.cpp as C++11"));
    }
}
