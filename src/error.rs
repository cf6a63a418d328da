//! The one error type of anyproc: a kind, a message, a chain of context frames, and an
//! optional payload for the layer that raised it.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// What went wrong, coarsely; front ends map it to their own exception classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A value had the wrong type (`expected str, got int`).
    Type,
    /// A value had the right type but an unusable content.
    Value,
    /// An index was out of range.
    Index,
    /// A key was missing from a dict or a registry.
    Key,
    /// A function was called with the wrong number of arguments.
    Arity,
    /// A name was registered twice.
    Duplicate,
    /// Reading or writing a file failed.
    Io,
    /// A file or text could not be parsed.
    Parse,
    /// Anything else that failed while running.
    Runtime,
    /// Memory for a result could not be allocated (Python's `MemoryError`).
    Memory,
    /// Division or modulo by zero (Python's `ZeroDivisionError`).
    ZeroDivision,
    /// A result too large for its type (Python's `OverflowError`).
    Overflow,
    /// A name with no value (Python's `NameError`).
    Name,
    /// A local variable read before any assignment to it ran (Python's `UnboundLocalError`).
    UnboundLocal,
    /// A failed `assert` (Python's `AssertionError`).
    Assertion,
    /// `next()` of an iterator that has no item left (Python's `StopIteration`).
    StopIteration,
    /// A document `json.loads` cannot read (Python's `json.JSONDecodeError`, a `ValueError`).
    JsonDecode,
    /// A value has no attribute or method of that name (Python's `AttributeError`).
    Attribute,
    /// A name that names nothing in a registry Python treats as a lookup: an unknown codec or
    /// error handler (Python's `LookupError`, the base of `KeyError` and `IndexError`).
    Lookup,
    /// Text a codec cannot encode (Python's `UnicodeEncodeError`, a `ValueError`).
    UnicodeEncode,
    /// Bytes a codec cannot decode (Python's `UnicodeDecodeError`, a `ValueError`).
    UnicodeDecode,
    /// What a type leaves undefined on purpose (Python's `NotImplementedError`, a
    /// `RuntimeError`): `Counter.fromkeys`.
    NotImplemented,
    /// A regular expression or replacement template `re` refuses (Python's `re.error`, which
    /// is no `ValueError`).
    Regex,
    /// Script calls nested past the interpreter's depth limit (Python's `RecursionError`, a
    /// `RuntimeError`).
    Recursion,
}

impl ErrorKind {
    /// Every kind, in declaration order (bit `k as u32` of a clause's mask).
    pub const ALL: [ErrorKind; 24] = [
        ErrorKind::Type,
        ErrorKind::Value,
        ErrorKind::Index,
        ErrorKind::Key,
        ErrorKind::Arity,
        ErrorKind::Duplicate,
        ErrorKind::Io,
        ErrorKind::Parse,
        ErrorKind::Runtime,
        ErrorKind::Memory,
        ErrorKind::ZeroDivision,
        ErrorKind::Overflow,
        ErrorKind::Name,
        ErrorKind::UnboundLocal,
        ErrorKind::Assertion,
        ErrorKind::StopIteration,
        ErrorKind::JsonDecode,
        ErrorKind::Attribute,
        ErrorKind::Lookup,
        ErrorKind::UnicodeEncode,
        ErrorKind::UnicodeDecode,
        ErrorKind::NotImplemented,
        ErrorKind::Regex,
        ErrorKind::Recursion,
    ];

    /// The kind named `name` (`ValueError`, ...), as the C ABI's `error_set` receives it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The name used in messages and by the Python front end (`TypeError`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Type => "TypeError",
            ErrorKind::Value => "ValueError",
            ErrorKind::Index => "IndexError",
            ErrorKind::Key => "KeyError",
            ErrorKind::Arity => "ArityError",
            ErrorKind::Duplicate => "DuplicateError",
            ErrorKind::Io => "IOError",
            ErrorKind::Parse => "ParseError",
            ErrorKind::Runtime => "RuntimeError",
            ErrorKind::Memory => "MemoryError",
            ErrorKind::ZeroDivision => "ZeroDivisionError",
            ErrorKind::Overflow => "OverflowError",
            ErrorKind::Name => "NameError",
            ErrorKind::UnboundLocal => "UnboundLocalError",
            ErrorKind::Assertion => "AssertionError",
            ErrorKind::StopIteration => "StopIteration",
            ErrorKind::JsonDecode => "JSONDecodeError",
            ErrorKind::Attribute => "AttributeError",
            ErrorKind::Lookup => "LookupError",
            ErrorKind::UnicodeEncode => "UnicodeEncodeError",
            ErrorKind::UnicodeDecode => "UnicodeDecodeError",
            ErrorKind::NotImplemented => "NotImplementedError",
            ErrorKind::Regex => "re.error",
            ErrorKind::Recursion => "RecursionError",
        }
    }
}

/// An error with a kind, a message and where it happened (outermost frame first when shown).
///
/// Rationale: boxed so that `Result<AnyValue>` stays 24 bytes and the happy path
/// pays nothing for rich context.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorInner>);

/// What an error carries for the layer that raised it, such as the Python exception object
/// behind a failed callback: shared by the error's clones and dropped with the last of them.
pub type ErrorPayload = Arc<dyn Any + Send + Sync>;

#[derive(Clone)]
struct ErrorInner {
    kind: ErrorKind,
    message: String,
    /// Innermost frame first; `Display` prints them outermost first.
    context: Vec<String>,
    payload: Option<ErrorPayload>,
    /// What an `except ... as e` clause binds for an error with a payload; `None` when no
    /// clause may catch it (see [`Error::catchable_as`]).
    caught_text: Option<Box<str>>,
}

/// Errors are equal when they read the same; the payload is the raiser's business.
impl PartialEq for ErrorInner {
    fn eq(&self, other: &Self) -> bool {
        (self.kind, &self.message, &self.context) == (other.kind, &other.message, &other.context)
    }
}

impl Eq for ErrorInner {}

/// The result type used across anyproc.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A new error of `kind` with `message` and no context.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error(Box::new(ErrorInner {
            kind,
            message: message.into(),
            context: Vec::new(),
            payload: None,
            caught_text: None,
        }))
    }

    /// A type error: `expected EXPECTED, got ACTUAL`.
    pub fn type_mismatch(expected: &str, actual: &str) -> Self {
        Self::new(ErrorKind::Type, format!("expected {expected}, got {actual}"))
    }

    /// An index error for `index` into something of length `len`.
    pub fn index_out_of_range(index: i64, len: usize) -> Self {
        Self::new(ErrorKind::Index, format!("index {index} out of range for length {len}"))
    }

    /// A value error with `message`.
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Value, message)
    }

    /// A runtime error with `message`.
    pub fn runtime(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Runtime, message)
    }

    /// A memory error: `what` needed `bytes` bytes and the allocator refused them.
    pub fn out_of_memory(what: &str, bytes: usize) -> Self {
        Self::new(ErrorKind::Memory, format!("{what}: cannot allocate {bytes} bytes"))
    }

    /// Adds an outer context frame, such as an op name or `argument 2`.
    ///
    /// A frame equal to the outermost one so far is counted instead of repeated, as deep
    /// recursion would add the same location hundreds of times: `f, line 5 (3 times)`.
    pub fn context(mut self, frame: impl Into<String>) -> Self {
        let frame = frame.into();
        if let Some(last) = self.0.context.last_mut() {
            if let Some(times) = times_repeated(last, &frame) {
                *last = format!("{frame} ({} times)", times + 1);
                return self;
            }
        }
        self.0.context.push(frame);
        self
    }

    /// Attaches `payload`, which travels with the error (and its clones) until the last is dropped.
    pub fn with_payload(mut self, payload: ErrorPayload) -> Self {
        self.0.payload = Some(payload);
        self
    }

    /// Lets a script's `except` clauses catch this error, binding `text` to a clause's name
    /// (Python's `str(e)`). An error with a payload is otherwise caught by none: it stands for
    /// an exception whose class the script may not be able to name (`KeyboardInterrupt`).
    pub fn catchable_as(mut self, text: impl Into<String>) -> Self {
        self.0.caught_text = Some(text.into().into_boxed_str());
        self
    }

    /// What an `except ... as e` clause that catches the error binds, or `None` when no clause
    /// may catch it (see [`catchable_as`](Self::catchable_as)).
    pub fn caught_text(&self) -> Option<&str> {
        match (&self.0.payload, &self.0.caught_text) {
            (_, Some(text)) => Some(text),
            (None, None) => Some(&self.0.message),
            (Some(_), None) => None,
        }
    }

    /// The payload attached by [`with_payload`](Self::with_payload), if any.
    pub fn payload(&self) -> Option<&ErrorPayload> {
        self.0.payload.as_ref()
    }

    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The innermost message, without context.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The context frames, outermost first.
    pub fn frames(&self) -> impl Iterator<Item = &str> {
        self.0.context.iter().rev().map(String::as_str)
    }
}

/// The text of a caught panic's payload (`panic!` with a literal or a formatted message).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for frame in self.frames() {
            write!(f, "{frame}: ")?;
        }
        f.write_str(&self.0.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({self})", self.0.kind.name())
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io, e.to_string())
    }
}

/// How many times `frame` stands in `last`: 1 if they are equal, N for `"{frame} (N times)"`.
fn times_repeated(last: &str, frame: &str) -> Option<usize> {
    if last == frame {
        return Some(1);
    }
    last.strip_prefix(frame)?.strip_prefix(" (")?.strip_suffix(" times)")?.parse().ok()
}

/// Adds context to the error of a `Result`, lazily.
pub trait ResultExt<T> {
    /// Wraps the error, if any, in the frame `f()` returns.
    fn with_context<S: Into<String>>(self, f: impl FnOnce() -> S) -> Result<T>;
}

impl<T> ResultExt<T> for Result<T> {
    fn with_context<S: Into<String>>(self, f: impl FnOnce() -> S) -> Result<T> {
        self.map_err(|e| e.context(f()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_puts_outermost_frame_first() {
        let e = Error::type_mismatch("str", "int").context("argument 0").context("tok.wordpiece");
        assert_eq!(e.to_string(), "tok.wordpiece: argument 0: expected str, got int");
        assert_eq!(e.kind(), ErrorKind::Type);
        assert_eq!(format!("{e:?}"), "TypeError(tok.wordpiece: argument 0: expected str, got int)");
    }

    #[test]
    fn a_payload_is_shared_by_clones_and_dropped_with_the_last() {
        let payload: ErrorPayload = Arc::new(String::from("the raiser's object"));
        let weak = Arc::downgrade(&payload);
        let e = Error::value("failed").with_payload(payload).context("op");
        let copy = e.clone();
        assert_eq!(
            copy.payload().and_then(|p| p.downcast_ref::<String>()).map(String::as_str),
            Some("the raiser's object")
        );
        // Equality ignores the payload: the same text without one is equal.
        assert_eq!(e, Error::value("failed").context("op"));
        drop(e);
        assert!(weak.upgrade().is_some());
        drop(copy);
        assert!(weak.upgrade().is_none());
    }

    #[test]
    fn repeated_frames_are_counted() {
        let mut e = Error::runtime("maximum call depth 3 exceeded");
        for _ in 0..3 {
            e = e.context("function 'f', line 5");
        }
        let e = e.context("function 'g', line 1").context("function 'g', line 1");
        assert_eq!(
            e.to_string(),
            "function 'g', line 1 (2 times): function 'f', line 5 (3 times): maximum call depth 3 exceeded"
        );
    }

    #[test]
    fn result_is_small() {
        assert_eq!(std::mem::size_of::<Error>(), 8);
    }
}
