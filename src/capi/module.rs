//! Plugins: shared libraries loaded at run time that register ops through the API table.
//!
//! A plugin exports `AnyProcPluginAbiVersion` and `AnyProcPluginInit`. Loading
//! checks the version, then calls init with the table; init registers ops with
//! `func_register_global`. If init fails, everything it registered is rolled
//! back. The library stays mapped while a `Module` handle or any function or
//! tensor it created is alive: each of those holds an `Arc<LoadedLibrary>`.

use super::error_slot::{c_str_arg, clear_last_error, guard, take_last_error};
use super::marshal::{out_slot, write_handle};
use super::table::api;
use crate::any::type_index::MODULE;
use crate::any::{AnyPad, FromAny, Value};
use crate::error::{Error, ErrorKind, Result};
use crate::func::{FuncInfo, registry};
use crate::object::{ObjRef, Object, ObjectType};
use anyproc_abi::{
    ABI_VERSION_MAJOR, ABI_VERSION_MINOR, ObjectHeader, PLUGIN_ABI_VERSION_SYMBOL, PLUGIN_INIT_SYMBOL,
    PluginAbiVersionFn, PluginInitFn,
};
use parking_lot::{Mutex, ReentrantMutex};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_char;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Weak};

/// A mapped plugin library; dropping the last `Arc` unmaps it.
pub struct LoadedLibrary {
    path: PathBuf,
    functions: Mutex<Vec<String>>,
    // Last field: dropped (unmapped) after everything above.
    library: libloading::Library,
}

impl LoadedLibrary {
    /// The file it was loaded from (canonical).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file name, for messages.
    pub fn display_name(&self) -> String {
        self.path.file_name().map_or_else(|| self.path.display().to_string(), |f| f.to_string_lossy().into_owned())
    }
}

impl std::fmt::Debug for LoadedLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LoadedLibrary({:?}, {:?})", self.path, self.library)
    }
}

/// The heap object behind a `Module`.
#[repr(C)]
pub struct ModuleObj {
    header: Object,
    library: Arc<LoadedLibrary>,
}

// SAFETY: repr(C) with the header first.
unsafe impl ObjectType for ModuleObj {
    const TYPE_KEY: &'static str = "object.Module";
    fn type_index() -> i32 {
        MODULE
    }
}

/// A loaded plugin, as a value.
#[derive(Clone)]
pub struct Module(ObjRef<ModuleObj>);

impl Module {
    fn new(library: Arc<LoadedLibrary>) -> Self {
        Module(ObjRef::new(ModuleObj { header: Object::blank(), library }))
    }

    /// The file the plugin was loaded from (canonical).
    pub fn path(&self) -> &Path {
        self.0.library.path()
    }

    /// The names of the functions its init registered, in order.
    pub fn function_names(&self) -> Vec<String> {
        self.0.library.functions.lock().clone()
    }

    /// The module as an any-value.
    pub fn into_any(self) -> crate::AnyValue {
        self.into()
    }
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<module {}>", self.path().display())
    }
}

impl FromAny for Module {
    fn type_name() -> String {
        "module".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<ModuleObj>()).map(Module)
    }
}

impl<const N: usize> From<Module> for AnyPad<N> {
    fn from(m: Module) -> Self {
        AnyPad::from_object(m.0)
    }
}

/// How to load a plugin.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Let the plugin's ops replace functions already registered under the same names.
    pub override_existing: bool,
}

/// What the thread is doing on a plugin's behalf: running its init or one of its callbacks.
struct LoadFrame {
    library: Arc<LoadedLibrary>,
    override_existing: bool,
    /// Each name registered during init, with what it replaced, for rollback.
    registered: Vec<(String, Option<FuncInfo>)>,
}

thread_local! {
    /// The libraries whose code is running on this thread, innermost last.
    static RUNNING: RefCell<Vec<Arc<LoadedLibrary>>> = const { RefCell::new(Vec::new()) };
    /// The inits running on this thread, innermost last.
    static LOADING: RefCell<Vec<LoadFrame>> = const { RefCell::new(Vec::new()) };
}

/// Serializes loads; re-entrant so that a plugin's init may load another plugin.
static LOAD_LOCK: ReentrantMutex<()> = ReentrantMutex::new(());
/// Loaded libraries by canonical path; a dead entry means it was unloaded.
static LOADED: LazyLock<Mutex<HashMap<PathBuf, Weak<LoadedLibrary>>>> = LazyLock::new(Default::default);

/// The library whose code is running on this thread, if any: what new functions and tensors must keep loaded.
pub(crate) fn current_library() -> Option<Arc<LoadedLibrary>> {
    RUNNING.with(|r| r.borrow().last().cloned())
}

/// Runs `f` (a call into `library`'s code) with `library` as the current one.
pub(crate) fn with_library<R>(library: Option<&Arc<LoadedLibrary>>, f: impl FnOnce() -> R) -> R {
    let Some(library) = library else { return f() };
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            RUNNING.with(|r| r.borrow_mut().pop());
        }
    }
    RUNNING.with(|r| r.borrow_mut().push(library.clone()));
    let _pop = Pop;
    f()
}

/// Whether the init running on this thread was loaded with `override_existing`.
pub(crate) fn loading_overrides() -> bool {
    LOADING.with(|l| l.borrow().last().is_some_and(|f| f.override_existing))
}

/// Notes that `name` was registered (replacing `previous`), if a plugin's init is running.
pub(crate) fn record_registration(name: &str, previous: Option<FuncInfo>) {
    LOADING.with(|l| {
        if let Some(frame) = l.borrow_mut().last_mut() {
            frame.library.functions.lock().push(name.to_string());
            frame.registered.push((name.to_string(), previous));
        }
    });
}

/// Undoes the registrations of a failed init, newest first.
fn roll_back(registered: Vec<(String, Option<FuncInfo>)>) {
    for (name, previous) in registered.into_iter().rev() {
        match previous {
            Some(info) => {
                let _ = registry().register(&info.name, &info.signature, &info.doc, info.func, true);
            }
            None => {
                registry().remove(&name);
            }
        }
    }
}

/// Loads the plugin at `path` (see `load_module_with`).
pub fn load_module(path: impl AsRef<Path>) -> Result<Module> {
    load_module_with(path, &LoadOptions::default())
}

/// Loads the plugin at `path`: checks its ABI version and runs its init; loading it again returns the same library.
pub fn load_module_with(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Module> {
    let path = path.as_ref();
    let fail = |kind: ErrorKind, msg: String| Error::new(kind, format!("plugin {}: {msg}", path.display()));
    let _serial = LOAD_LOCK.lock();
    let canonical = std::fs::canonicalize(path).map_err(|e| fail(ErrorKind::Io, e.to_string()))?;
    if let Some(library) = LOADED.lock().get(&canonical).and_then(Weak::upgrade) {
        return Ok(Module::new(library));
    }
    if LOADING.with(|l| l.borrow().iter().any(|f| f.library.path == canonical)) {
        return Err(fail(ErrorKind::Runtime, "loaded again from its own init".into()));
    }
    // SAFETY: opening a library runs its constructors; running a plugin's code is what loading one means.
    let library = unsafe { libloading::Library::new(&canonical) }
        .map_err(|e| fail(ErrorKind::Io, format!("cannot open the shared library: {e}")))?;
    let symbol = |name: &str| format!("{name}\0").into_bytes();
    // SAFETY: the symbol is declared by the ABI with exactly this type.
    let version: PluginAbiVersionFn = *unsafe { library.get::<PluginAbiVersionFn>(&symbol(PLUGIN_ABI_VERSION_SYMBOL)) }
        .map_err(|_| {
            fail(
                ErrorKind::Value,
                format!(
                    "does not export {PLUGIN_ABI_VERSION_SYMBOL}, so it is not an anyproc plugin \
                     (declare it with ANYPROC_PLUGIN_DECLARE_ABI_VERSION() from anyproc.h)"
                ),
            )
        })?;
    // SAFETY: the ABI's version function takes nothing and only returns a number.
    let found = unsafe { version() };
    let (major, minor) = (found >> 16, found & 0xffff);
    if major != ABI_VERSION_MAJOR || minor > ABI_VERSION_MINOR {
        return Err(fail(
            ErrorKind::Value,
            format!(
                "was built for ABI version {major}.{minor}, but this anyproc provides {ABI_VERSION_MAJOR}.{ABI_VERSION_MINOR} \
                 (the major must match and the minor must not be newer); rebuild it against this anyproc.h"
            ),
        ));
    }
    // SAFETY: the entry point is declared by the ABI with exactly this type.
    let init: PluginInitFn = *unsafe { library.get::<PluginInitFn>(&symbol(PLUGIN_INIT_SYMBOL)) }
        .map_err(|_| fail(ErrorKind::Value, format!("does not export its entry point {PLUGIN_INIT_SYMBOL}")))?;

    let loaded = Arc::new(LoadedLibrary { path: canonical.clone(), functions: Mutex::new(Vec::new()), library });
    let module = Module::new(loaded.clone());
    LOADING.with(|l| {
        l.borrow_mut().push(LoadFrame {
            library: loaded.clone(),
            override_existing: options.override_existing,
            registered: Vec::new(),
        })
    });
    clear_last_error();
    let handle: *mut ObjectHeader = module.0.as_raw().as_ptr().cast();
    // SAFETY: the entry point gets the static table and a module handle it borrows for the call.
    let rc = with_library(Some(&loaded), || unsafe { init(api(), handle) });
    let frame = LOADING.with(|l| l.borrow_mut().pop()).expect("the frame pushed above");
    if rc != 0 {
        roll_back(frame.registered);
        loaded.functions.lock().clear();
        let cause = take_last_error().unwrap_or_else(|| Error::runtime("init returned -1 without setting an error"));
        return Err(cause.context(format!("plugin {}: {PLUGIN_INIT_SYMBOL} failed", path.display())));
    }
    LOADED.lock().insert(canonical, Arc::downgrade(&loaded));
    Ok(module)
}

/// Whether a library loaded from `path` is still mapped (a module or something it made is alive).
pub fn is_loaded(path: impl AsRef<Path>) -> bool {
    let Ok(canonical) = std::fs::canonicalize(path) else { return false };
    LOADED.lock().get(&canonical).is_some_and(|w| w.strong_count() > 0)
}

/// Loads a plugin from C; writes a new reference to its module to `out`.
pub(crate) unsafe extern "C" fn module_load(
    path: *const c_char,
    override_existing: i32,
    out: *mut *mut ObjectHeader,
) -> i32 {
    guard("module_load", || {
        let out = out_slot("module_load", out)?;
        // SAFETY: the ABI's contract: NULL or a NUL-terminated string.
        let path = unsafe { c_str_arg("module_load", "path", path) }?;
        let module = load_module_with(path, &LoadOptions { override_existing: override_existing != 0 })?;
        write_handle(out, module.into_any());
        Ok(())
    })
}
