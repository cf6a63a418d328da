//! Plugins through the C ABI: the C and Rust example plugins loaded at run time and
//! called from Rust, from a pipeline and from the CLI; broken plugins refused with clear errors.

#[path = "plugin_build/mod.rs"]
mod plugin_build;

use anyproc::capi::{LoadOptions, is_loaded, load_module, load_module_with};
use anyproc::func::registry;
use anyproc::pipeline::{ErrorPolicy, Format, Pipeline};
use anyproc::{AnyValue, AnyView, Dict, ErrorKind, List, NDArray, get_global_func};
use plugin_build::{build_c, build_rust_plugin, c_example, is_mapped, root};
use std::sync::Mutex;

/// The registry is global; tests that load, override or unload plugins take turns.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn call(name: &str, args: &[AnyView<'_>]) -> anyproc::Result<AnyValue> {
    get_global_func(name)?.call(args)
}

fn text(v: &AnyValue) -> String {
    v.get::<String>().unwrap()
}

#[test]
fn c_plugin_ops_work_from_rust_on_inline_and_heap_strings() {
    let _s = serial();
    let module = load_module(c_example()).unwrap();
    assert!(module.function_names().contains(&"example_c.upper_ascii".to_string()), "{:?}", module.function_names());
    // Inline (<= 8 bytes) and heap strings, with non-ASCII bytes left alone.
    assert_eq!(text(&call("example_c.upper_ascii", &["abc".into()]).unwrap()), "ABC");
    let long = "hello, wörld of plugins";
    assert_eq!(text(&call("example_c.upper_ascii", &[long.into()]).unwrap()), "HELLO, WöRLD OF PLUGINS");
    // A UCS4 argument is converted to UTF-8 on the way in.
    let ucs4 = AnyValue::from_text_ucs4("mixed ünï");
    assert_eq!(text(&call("example_c.upper_ascii", &[ucs4.view()]).unwrap()), "MIXED üNï");

    let hist = call("example_c.char_histogram", &["abcab".into()]).unwrap().get::<Dict>().unwrap();
    let expected: Dict = [("a", 2i64), ("b", 2), ("c", 1)].into_iter().collect();
    assert_eq!(hist, expected);

    let iota = call("example_c.iota", &[AnyView::from(&AnyValue::from(5i64))]).unwrap().get::<NDArray>().unwrap();
    assert_eq!(iota.as_slice::<i64>().unwrap(), &[0, 1, 2, 3, 4]);
    assert_eq!(iota.shape(), &[5]);
}

#[test]
fn c_plugin_errors_name_the_op_and_the_plugin() {
    let _s = serial();
    load_module(c_example()).unwrap();
    let err = call("example_c.fail", &["boom".into()]).unwrap_err();
    let msg = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Value, "{msg}");
    assert!(msg.contains("example_c.fail was asked to fail on 'boom'"), "{msg}");
    assert!(msg.contains("libanyproc_example_c.so"), "{msg}");
    let err = call("example_c.upper_ascii", &["a".into(), "b".into()]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Arity, "{err}");
    let err = call("example_c.upper_ascii", &[AnyView::from(&AnyValue::from(3i64))]).unwrap_err();
    assert!(err.to_string().contains("expected str, got int"), "{err}");
    let err = call("example_c.iota", &[AnyView::from(&AnyValue::from(-1i64))]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value, "{err}");
}

#[test]
fn rust_plugin_ops_work_through_the_c_abi_alone() {
    let _s = serial();
    let module = load_module(build_rust_plugin()).unwrap();
    assert_eq!(module.function_names(), vec!["example_rust.word_count", "example_rust.repeat"]);
    let n = call("example_rust.word_count", &["  the quick\tbrown  fox ".into()]).unwrap();
    assert_eq!(n.get::<i64>().unwrap(), 4);
    let three = AnyValue::from(3i64);
    assert_eq!(text(&call("example_rust.repeat", &["ab".into(), three.view()]).unwrap()), "ababab");
    let long = call("example_rust.repeat", &["plugin ".into(), three.view()]).unwrap();
    assert_eq!(text(&long), "plugin plugin plugin ");
    let err = call("example_rust.repeat", &["ab".into(), "x".into()]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Type, "{err}");
}

#[test]
fn plugin_ops_run_inside_pipelines() {
    let _s = serial();
    load_module(c_example()).unwrap();
    load_module(build_rust_plugin()).unwrap();
    let toml = r#"
name = "plugin-glue"
inputs = ["text"]

[[steps]]
out = "upper"
call = "example_c.upper_ascii(text)"

[[steps]]
out = "words"
call = "example_rust.word_count(upper)"

[[outputs]]
name = "upper"
from = "upper"
layout = "list"

[[outputs]]
name = "words"
from = "words"
layout = "list"
"#;
    let p = Pipeline::from_text(toml, Format::Toml, root(), "plugin.toml").unwrap();
    let inputs: Vec<AnyValue> =
        ["one two", "a much longer line of text", "x"].into_iter().map(AnyValue::from).collect();
    let out = p.run_batch(&inputs, ErrorPolicy::Fail).unwrap();
    let upper = out.get("upper").unwrap().get::<List>().unwrap().to_vec_of::<String>().unwrap();
    assert_eq!(upper, ["ONE TWO", "A MUCH LONGER LINE OF TEXT", "X"]);
    let words = out.get("words").unwrap().get::<List>().unwrap().to_vec_of::<i64>().unwrap();
    assert_eq!(words, [2, 6, 1]);
}

#[test]
fn loading_the_same_plugin_twice_is_harmless() {
    let _s = serial();
    let a = load_module(c_example()).unwrap();
    let b = load_module(c_example()).unwrap();
    assert_eq!(a.path(), b.path());
    assert_eq!(a.function_names(), b.function_names());
    assert!(call("example_c.upper_ascii", &["ok".into()]).is_ok());
}

#[test]
fn a_plugin_stays_loaded_while_a_function_it_made_is_alive() {
    let _s = serial();
    let path = build_rust_plugin();
    let module = load_module(&path).unwrap();
    let func = get_global_func("example_rust.word_count").unwrap();
    for name in module.function_names() {
        assert!(registry().remove(&name));
    }
    drop(module);
    assert!(is_loaded(&path) && is_mapped(&path), "the function still needs the library");
    assert_eq!(func.call(&["a b c".into()]).unwrap().get::<i64>().unwrap(), 3);
    drop(func);
    assert!(!is_loaded(&path), "the last function is gone, so is the library");
    assert!(!is_mapped(&path), "the library is unmapped");
    // And it loads again, registering its ops afresh.
    let module = load_module(&path).unwrap();
    assert_eq!(module.function_names().len(), 2);
    assert_eq!(call("example_rust.word_count", &["x y".into()]).unwrap().get::<i64>().unwrap(), 2);
}

fn load_error(define: &str) -> anyproc::Error {
    let name = format!("bad_{}", define.to_lowercase());
    load_module(build_c("tests/capi/bad_plugin.c", &name, &[define])).unwrap_err()
}

#[test]
fn broken_plugins_are_refused_with_clear_errors_and_the_process_goes_on() {
    let _s = serial();
    let cases: &[(&str, &[&str])] = &[
        ("BAD_NO_INIT", &["does not export its entry point AnyProcPluginInit"]),
        ("BAD_NO_VERSION", &["does not export AnyProcPluginAbiVersion", "not an anyproc plugin"]),
        ("BAD_ABI_VERSION", &["was built for ABI version 2.0", "provides 1.0"]),
        ("BAD_INIT_FAILS", &["AnyProcPluginInit failed", "bad_plugin: init refused to start"]),
        ("BAD_NULL_CALLBACK", &["AnyProcPluginInit failed", "func_create: callback is NULL"]),
    ];
    for (define, parts) in cases {
        let msg = load_error(define).to_string();
        for p in *parts {
            assert!(msg.contains(p), "{define}: expected {p:?} in: {msg}");
        }
        assert!(msg.contains(&format!("libbad_{}.so", define.to_lowercase())), "{define}: names the file: {msg}");
    }
    // The failed init's registrations were rolled back.
    assert!(get_global_func("bad_plugin.partial").is_err());
    let missing = load_module(root().join("no/such/plugin.so")).unwrap_err().to_string();
    assert!(missing.contains("no/such/plugin.so") && missing.contains("No such file"), "{missing}");
    let not_a_library = load_module(root().join("Cargo.toml")).unwrap_err().to_string();
    assert!(not_a_library.contains("cannot open the shared library"), "{not_a_library}");
    // Everything still works.
    assert_eq!(text(&call("text.lower", &["OK".into()]).unwrap()), "ok");
}

#[test]
fn a_duplicate_op_name_is_an_error_unless_overridden() {
    let _s = serial();
    load_module(c_example()).unwrap();
    let original = registry().info("example_c.upper_ascii").unwrap();
    let path = build_c("tests/capi/bad_plugin.c", "bad_duplicate", &["BAD_DUPLICATE"]);
    let msg = load_module(&path).unwrap_err().to_string();
    assert!(msg.contains("\"example_c.upper_ascii\" is already registered"), "{msg}");
    assert_eq!(text(&call("example_c.upper_ascii", &["still".into()]).unwrap()), "STILL");
    let module = load_module_with(&path, &LoadOptions { override_existing: true }).unwrap();
    assert_eq!(module.function_names(), vec!["example_c.upper_ascii"]);
    let replaced = get_global_func("example_c.upper_ascii").unwrap();
    assert!(!replaced.ptr_eq(&original.func), "the override took the name");
    // Put the example's op back for the other tests.
    registry().register(&original.name, &original.signature, &original.doc, original.func, true).unwrap();
    assert_eq!(text(&call("example_c.upper_ascii", &["back".into()]).unwrap()), "BACK");
}

#[test]
fn the_cli_loads_plugins_for_run_check_and_ops() {
    let _s = serial();
    let plugin = c_example();
    let exe = env!("CARGO_BIN_EXE_anyproc");
    let ops = std::process::Command::new(exe).args(["ops", "--plugin"]).arg(&plugin).output().unwrap();
    let listing = String::from_utf8_lossy(&ops.stdout);
    assert!(ops.status.success() && listing.contains("example_c.upper_ascii"), "{listing}");

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-plugin");
    std::fs::create_dir_all(&dir).unwrap();
    let pipeline = dir.join("upper.toml");
    std::fs::write(
        &pipeline,
        "name = \"upper\"\ninputs = [\"text\"]\n[[steps]]\nout = \"u\"\ncall = \"example_c.upper_ascii(text)\"\n\
         [[outputs]]\nname = \"u\"\nfrom = \"u\"\nlayout = \"list\"\n",
    )
    .unwrap();
    let input = dir.join("in.txt");
    std::fs::write(&input, "first line\nsecond one\n").unwrap();
    let output = dir.join("out.jsonl");
    let run = std::process::Command::new(exe)
        .arg("run")
        .arg(&pipeline)
        .arg("--plugin")
        .arg(&plugin)
        .arg("--input")
        .arg(&input)
        .arg("--output")
        .arg(&output)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = std::fs::read_to_string(&output).unwrap();
    assert!(lines.contains("FIRST LINE") && lines.contains("SECOND ONE"), "{lines}");

    // Without the plugin the op is unknown; a bad plugin path is named.
    let check = std::process::Command::new(exe).arg("check").arg(&pipeline).output().unwrap();
    assert!(!check.status.success());
    assert!(String::from_utf8_lossy(&check.stderr).contains("example_c.upper_ascii"));
    let bad =
        std::process::Command::new(exe).arg("check").arg(&pipeline).args(["--plugin", "nope.so"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("plugin nope.so"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
