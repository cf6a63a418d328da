//! `json.loads`: CPython 3.11's JSON scanner (`Modules/_json.c`) and its decoder's options,
//! step for step, so that what it accepts, what it builds and where it reports an error are
//! CPython's.
//!
//! Rationale: a JSON crate would parse the same documents, but not CPython's way: `NaN` and
//! `Infinity`, a duplicate key keeping its first place with its last value, and above all the
//! errors (`Expecting ',' delimiter: line 3 column 7 (char 41)`), which a script catches and
//! prints. The scanner walks the UTF-8 bytes (every token it looks for is ASCII) and counts
//! characters only when it reports an error.

use std::borrow::Cow;
use std::cell::Cell;

use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::value_ops::callable;
use crate::{AnyValue, AnyView, Dict, List, Tuple};

/// How deep arrays and objects may nest: CPython's default recursion limit, which its scanner
/// counts one level per array or object.
const MAX_DEPTH: usize = 1000;

/// `json.loads`'s keyword arguments: the functions it calls on what it reads, where given,
/// and whether strings are strict.
pub struct Options {
    /// Called with each object read, as a dict; its result replaces it.
    pub object_hook: Option<AnyValue>,
    /// Called with each object read, as a list of (key, value) tuples; takes precedence.
    pub object_pairs_hook: Option<AnyValue>,
    /// Called with the text of each float.
    pub parse_float: Option<AnyValue>,
    /// Called with the text of each int.
    pub parse_int: Option<AnyValue>,
    /// Called with `NaN`, `Infinity` or `-Infinity`.
    pub parse_constant: Option<AnyValue>,
    /// A control character inside a string is an error (else it is kept).
    pub strict: bool,
}

/// `hook(arg)`: a hook is checked only when it is called, as CPython calls it.
fn call_hook(hook: &AnyValue, arg: AnyView<'_>) -> Result<AnyValue> {
    callable(hook.value())?.call(&[arg])
}

/// The value of JSON document `s`, with whitespace around it.
pub fn loads(s: &str, options: &Options) -> Result<AnyValue> {
    let mut scanner = Scanner { s, b: s.as_bytes(), depth: 0, options, lone_surrogate: Cell::new(None) };
    let start = scanner.skip_whitespace(0);
    let (value, end) = scanner.value(start)?;
    let end = scanner.skip_whitespace(end);
    if end != s.len() {
        return Err(scanner.error("Extra data", end));
    }
    if let Some(unit) = scanner.lone_surrogate.get() {
        let msg = format!("the string escape \\u{unit:04x} is a lone surrogate, which str cannot hold here");
        return Err(Error::value(msg));
    }
    Ok(value)
}

/// Where a value was expected but none starts (CPython's `StopIteration(idx)`, reported by
/// its caller as "Expecting value").
enum Failure {
    NoValue(usize),
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Error(e)
    }
}

type Scan<T> = std::result::Result<T, Failure>;

struct Scanner<'a> {
    s: &'a str,
    b: &'a [u8],
    depth: usize,
    options: &'a Options,
    /// The first `\\uXXXX` escape met that is half a surrogate pair: CPython reads it into its
    /// str, which anyproc's cannot hold; it is reported once the document has been read, so
    /// that any error CPython finds later in the document comes first.
    lone_surrogate: Cell<Option<u32>>,
}

/// `hook(text)`: a hook called with the text of what was read.
fn call_on_text(hook: &AnyValue, text: &str) -> Result<AnyValue> {
    call_hook(hook, AnyView::from(text))
}

/// The error of a document that starts with a byte order mark (only a str can).
pub fn bom_error(s: &str) -> Error {
    let scanner = Scanner { s, b: s.as_bytes(), depth: 0, options: &NO_OPTIONS, lone_surrogate: Cell::new(None) };
    scanner.error("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
}

/// The options of a plain `json.loads(s)`.
static NO_OPTIONS: Options = Options {
    object_hook: None,
    object_pairs_hook: None,
    parse_float: None,
    parse_int: None,
    parse_constant: None,
    strict: true,
};

impl<'a> Scanner<'a> {
    /// CPython's `JSONDecodeError(msg, doc, pos)`: the message with the line, column and
    /// character index of byte `at`.
    fn error(&self, msg: &str, at: usize) -> Error {
        let before = &self.s[..at];
        let pos = before.chars().count();
        let line = before.matches('\n').count() + 1;
        let column = match before.rfind('\n') {
            Some(nl) => before[nl + 1..].chars().count() + 1,
            None => pos + 1,
        };
        Error::new(ErrorKind::JsonDecode, format!("{msg}: line {line} column {column} (char {pos})"))
    }

    fn skip_whitespace(&self, mut at: usize) -> usize {
        while at < self.b.len() && matches!(self.b[at], b' ' | b'\t' | b'\n' | b'\r') {
            at += 1;
        }
        at
    }

    /// The value at byte `at` and the byte after it, or "Expecting value" where none starts.
    fn value(&mut self, at: usize) -> Result<(AnyValue, usize)> {
        match self.scan(at) {
            Ok(found) => Ok(found),
            Err(Failure::NoValue(at)) => Err(self.error("Expecting value", at)),
            Err(Failure::Error(e)) => Err(e),
        }
    }

    /// CPython's `scan_once_unicode`.
    fn scan(&mut self, at: usize) -> Scan<(AnyValue, usize)> {
        let rest = &self.b[at.min(self.b.len())..];
        let Some(&first) = rest.first() else { return Err(Failure::NoValue(at)) };
        let word = |w: &str, v: AnyValue| rest.starts_with(w.as_bytes()).then_some((v, at + w.len()));
        let found = match first {
            b'"' => {
                let (text, end) = self.string(at + 1)?;
                return Ok((AnyValue::from(&*text), end));
            }
            b'{' => return self.nested(at, Self::object),
            b'[' => return self.nested(at, Self::array),
            b'n' => word("null", AnyValue::none()),
            b't' => word("true", AnyValue::from(true)),
            b'f' => word("false", AnyValue::from(false)),
            b'N' => word("NaN", AnyValue::from(f64::NAN)),
            b'I' => word("Infinity", AnyValue::from(f64::INFINITY)),
            b'-' => word("-Infinity", AnyValue::from(f64::NEG_INFINITY)),
            _ => None,
        };
        match found {
            Some((_, end)) if matches!(first, b'N' | b'I' | b'-') && self.options.parse_constant.is_some() => {
                let hook = self.options.parse_constant.as_ref().expect("checked in the guard");
                Ok((call_on_text(hook, &self.s[at..end])?, end))
            }
            Some(found) => Ok(found),
            None => self.number(at),
        }
    }

    /// An array or object, one level deeper (CPython's `Py_EnterRecursiveCall`).
    fn nested(&mut self, at: usize, parse: fn(&mut Self, usize) -> Scan<(AnyValue, usize)>) -> Scan<(AnyValue, usize)> {
        if self.depth >= MAX_DEPTH {
            let what = if self.b[at] == b'[' { "array" } else { "object" };
            let msg = format!("maximum recursion depth exceeded while decoding a JSON {what} from a unicode string");
            return Err(Error::runtime(msg).into());
        }
        self.depth += 1;
        let found = parse(self, at + 1);
        self.depth -= 1;
        found
    }

    /// CPython's `_match_number_unicode`: an int, or a float where a fraction or an exponent
    /// follows; what does not start a number is no value.
    fn number(&self, start: usize) -> Scan<(AnyValue, usize)> {
        let b = self.b;
        let digit = |i: usize| i < b.len() && b[i].is_ascii_digit();
        let mut at = start;
        if b[at] == b'-' {
            at += 1;
            if at >= b.len() {
                return Err(Failure::NoValue(start));
            }
        }
        match b[at] {
            b'1'..=b'9' => {
                at += 1;
                while digit(at) {
                    at += 1;
                }
            }
            b'0' => at += 1,
            _ => return Err(Failure::NoValue(start)),
        }
        let mut is_float = false;
        if at + 1 < b.len() && b[at] == b'.' && digit(at + 1) {
            is_float = true;
            at += 2;
            while digit(at) {
                at += 1;
            }
        }
        if at + 1 < b.len() && matches!(b[at], b'e' | b'E') {
            let e_start = at;
            at += 1;
            if at + 1 < b.len() && matches!(b[at], b'-' | b'+') {
                at += 1;
            }
            while digit(at) {
                at += 1;
            }
            // An exponent needs a digit; without one the number ends before the `e`.
            if b[at - 1].is_ascii_digit() {
                is_float = true;
            } else {
                at = e_start;
            }
        }
        let text = &self.s[start..at];
        let hook = if is_float { &self.options.parse_float } else { &self.options.parse_int };
        if let Some(f) = hook {
            return Ok((call_on_text(f, text)?, at));
        }
        let value = if is_float {
            AnyValue::from(
                text.parse::<f64>()
                    .map_err(|_| Error::value(format!("could not convert string to float: '{text}'")))?,
            )
        } else {
            match text.parse::<i64>() {
                Ok(i) => AnyValue::from(i),
                Err(_) => {
                    let msg = format!("integer overflow in json.loads(): {text} does not fit in 64 bits");
                    return Err(Error::new(ErrorKind::Overflow, msg).into());
                }
            }
        };
        Ok((value, at))
    }

    /// CPython's `_parse_array_unicode`, from the byte after `[`.
    fn array(&mut self, start: usize) -> Scan<(AnyValue, usize)> {
        let mut items = Vec::new();
        let mut at = self.skip_whitespace(start);
        if self.b.get(at) != Some(&b']') {
            loop {
                let (item, end) = self.scan(at)?;
                items.push(item);
                at = self.skip_whitespace(end);
                match self.b.get(at) {
                    Some(b']') => break,
                    Some(b',') => at = self.skip_whitespace(at + 1),
                    _ => return Err(self.error("Expecting ',' delimiter", at).into()),
                }
            }
        }
        Ok((List::from_vec(items).into(), at + 1))
    }

    /// CPython's `_parse_object_unicode`, from the byte after `{`.
    fn object(&mut self, start: usize) -> Scan<(AnyValue, usize)> {
        let mut pairs: Vec<(AnyValue, AnyValue)> = Vec::new();
        let mut at = self.skip_whitespace(start);
        if self.b.get(at) != Some(&b'}') {
            loop {
                if self.b.get(at) != Some(&b'"') {
                    return Err(self.error("Expecting property name enclosed in double quotes", at).into());
                }
                let (key, end) = self.string(at + 1)?;
                at = self.skip_whitespace(end);
                if self.b.get(at) != Some(&b':') {
                    return Err(self.error("Expecting ':' delimiter", at).into());
                }
                at = self.skip_whitespace(at + 1);
                let (value, end) = self.scan(at)?;
                pairs.push((AnyValue::from(&*key), value));
                at = self.skip_whitespace(end);
                match self.b.get(at) {
                    Some(b'}') => break,
                    Some(b',') => at = self.skip_whitespace(at + 1),
                    _ => return Err(self.error("Expecting ',' delimiter", at).into()),
                }
            }
        }
        Ok((self.finish_object(pairs)?, at + 1))
    }

    /// The object read: `object_pairs_hook(pairs)`, else the dict (a key met again keeps its
    /// place and takes the later value), or `object_hook(dict)`.
    fn finish_object(&self, pairs: Vec<(AnyValue, AnyValue)>) -> Result<AnyValue> {
        if let Some(hook) = &self.options.object_pairs_hook {
            let items: Vec<AnyValue> = pairs.into_iter().map(|(k, v)| Tuple::from_vec(vec![k, v]).into()).collect();
            let list: AnyValue = List::from_vec(items).into();
            return call_hook(hook, list.view());
        }
        let mut dict = Dict::new();
        for (k, v) in pairs {
            dict.set(k, v);
        }
        let dict: AnyValue = dict.into();
        match &self.options.object_hook {
            Some(hook) => call_hook(hook, dict.view()),
            None => Ok(dict),
        }
    }

    /// CPython's `scanstring_unicode`, from the byte after the opening quote: the
    /// text and the byte after the closing quote.
    fn string(&self, start: usize) -> Result<(Cow<'a, str>, usize)> {
        let (s, b) = (self.s, self.b);
        let unterminated = || self.error("Unterminated string starting at", start - 1);
        let mut out = String::new();
        let mut at = start;
        loop {
            let strict = self.options.strict;
            let Some(stop) = b[at..].iter().position(|&c| c == b'"' || c == b'\\' || (strict && c < 0x20)) else {
                return Err(unterminated());
            };
            // A string with no escape is the document's own text: no copy until the value.
            if at == start && b[at + stop] == b'"' {
                return Ok((Cow::Borrowed(&s[at..at + stop]), at + stop + 1));
            }
            out.push_str(&s[at..at + stop]);
            at += stop;
            match b[at] {
                b'"' => return Ok((Cow::Owned(out), at + 1)),
                b'\\' => {}
                _ => return Err(self.error("Invalid control character at", at)),
            }
            // A backslash: the escape after it.
            at += 1;
            let Some(&escape) = b.get(at) else { return Err(unterminated()) };
            if escape != b'u' {
                out.push(match escape {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    _ => return Err(self.error("Invalid \\escape", at - 1)),
                });
                at += 1;
                continue;
            }
            let (unit, after) = self.hex4(at + 1)?;
            at = after;
            let mut c = u32::from(unit);
            // A high surrogate joins a low one escaped right after it; CPython reads the second
            // escape only when at least one more character follows it.
            if (0xD800..0xDC00).contains(&c) && at + 6 < b.len() && b[at] == b'\\' && b[at + 1] == b'u' {
                let (low, after) = self.hex4(at + 2)?;
                if (0xDC00..0xE000).contains(&low) {
                    c = 0x10000 + ((c - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                    at = after;
                }
            }
            match char::from_u32(c) {
                Some(ch) => out.push(ch),
                None => {
                    if self.lone_surrogate.get().is_none() {
                        self.lone_surrogate.set(Some(c));
                    }
                    out.push(char::REPLACEMENT_CHARACTER);
                }
            }
        }
    }

    /// The four hex digits of a `\u` escape at byte `at`, and the byte after them; CPython
    /// reports a short or bad escape at its backslash, and needs a character after it.
    fn hex4(&self, at: usize) -> Result<(u16, usize)> {
        let bad = || self.error("Invalid \\uXXXX escape", at - 1);
        if at + 4 >= self.b.len() {
            return Err(bad());
        }
        let digits = &self.b[at..at + 4];
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            return Err(bad());
        }
        let text = std::str::from_utf8(digits).map_err(|_| bad())?;
        Ok((u16::from_str_radix(text, 16).map_err(|_| bad())?, at + 4))
    }
}
