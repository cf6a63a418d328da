//! Builds the example and test plugins for the C ABI tests: C with the system compiler, Rust with cargo.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The crate root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where built plugins go: private to this test binary, so parallel binaries never clash.
fn out_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let stem = exe.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("plugins").join(stem);
    std::fs::create_dir_all(&dir).expect("plugin output directory");
    dir
}

/// The C compiler: `$CC`, else `cc`.
pub fn c_compiler() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// Compiles `source` (relative to the crate root) into `lib{name}.so` as strict C99, with `-D` `defines`.
pub fn build_c(source: &str, name: &str, defines: &[&str]) -> PathBuf {
    static BUILT: OnceLock<Mutex<std::collections::HashMap<String, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(Default::default);
    let mut built = built.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = built.get(name) {
        return p.clone();
    }
    let out = out_dir().join(format!("lib{name}.so"));
    let mut cmd = Command::new(c_compiler());
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-g", "-shared", "-fPIC"])
        .arg("-I")
        .arg(root().join("include"));
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    let status = cmd.arg("-o").arg(&out).arg(root().join(source)).status().expect("run the C compiler");
    assert!(status.success(), "compiling {source} ({defines:?}) failed");
    built.insert(name.to_string(), out.clone());
    out
}

/// Builds `examples/plugin-rust` with cargo (into its own target directory) and returns the library.
pub fn build_rust_plugin() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("plugin-build");
            // A separate target directory: the outer `cargo test` holds the lock on its own. The
            // sanitizer flags of an outer ASan run are left out: the plugin is plain Rust.
            let status = Command::new(env!("CARGO"))
                .args(["build", "--quiet", "-p", "anyproc-plugin-example", "--target-dir"])
                .arg(&target)
                .current_dir(root())
                .env_remove("RUSTFLAGS")
                .env_remove("CARGO_ENCODED_RUSTFLAGS")
                .env_remove("CARGO_BUILD_TARGET")
                .env_remove("CARGO_TARGET_DIR")
                .status()
                .expect("run cargo");
            assert!(status.success(), "building examples/plugin-rust failed");
            let built = target.join("debug/libanyproc_plugin_example.so");
            // Copied under a name of its own, so a test can unload and reload it without a rebuild racing.
            let out = out_dir().join("libanyproc_plugin_example.so");
            std::fs::copy(&built, &out).expect("copy the Rust plugin");
            out
        })
        .clone()
}

/// The C example plugin (`examples/plugin-c`).
pub fn c_example() -> PathBuf {
    build_c("examples/plugin-c/anyproc_example.c", "anyproc_example_c", &[])
}

/// Whether a file is mapped into this process (read from `/proc/self/maps`).
pub fn is_mapped(path: &Path) -> bool {
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    std::fs::read_to_string("/proc/self/maps").unwrap_or_default().contains(&*canonical.to_string_lossy())
}
