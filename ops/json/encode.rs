//! `json.dumps`: CPython 3.11's JSON encoder (`json.encoder`), with its options, its text for
//! every value (floats as `repr` writes them, `NaN`, keys turned into strings, `\uXXXX`
//! escapes) and its errors.
//!
//! Rationale: the text is what a pipeline writes out and what tests compare byte for byte, so
//! it must be CPython's exactly: separators, indentation of nested and empty containers, the
//! order of key conversion, `sort_keys` sorting the original keys. The output grows through
//! `try_reserve`, so a result too large for memory is a `MemoryError`, not an abort.

use std::fmt::Write;

use crate::any::py_text::write_float_repr;
use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::value_ops::{callable, dict_of, seq_obj, sort_by_python_lt, type_error, vname};
use crate::{AnyValue, AnyView, Value};

/// How deep containers may nest: CPython's default recursion limit.
const MAX_DEPTH: usize = 1000;

/// `json.dumps`'s options, as its keyword arguments give them.
pub struct Options {
    /// Dict keys of other types are left out instead of refused.
    pub skipkeys: bool,
    /// Every character past ASCII is written as a `\uXXXX` escape.
    pub ensure_ascii: bool,
    /// A container met inside itself is a ValueError (else the nesting limit stops it).
    pub check_circular: bool,
    /// `NaN` and `Infinity` are written (else they are a ValueError).
    pub allow_nan: bool,
    /// The text of one level of indentation: `None` writes everything on one line.
    pub indent: Option<String>,
    /// Between items, and between a key and its value.
    pub separators: (String, String),
    /// Sort each dict's items by key.
    pub sort_keys: bool,
    /// Called on a value of no JSON type; its result is written instead.
    pub default: Option<AnyValue>,
}

/// String `s` as JSON text, as `json.dumps(s)` writes it.
pub fn string(s: &str, ensure_ascii: bool) -> Result<String> {
    let options = Options {
        skipkeys: false,
        ensure_ascii,
        check_circular: true,
        allow_nan: true,
        indent: None,
        separators: (String::new(), String::new()),
        sort_keys: false,
        default: None,
    };
    let mut encoder = Encoder { options: &options, out: String::new(), markers: Vec::new(), level: 0 };
    encoder.string(s)?;
    Ok(encoder.out)
}

/// `obj` as JSON text.
pub fn dumps(obj: AnyView<'_>, options: &Options) -> Result<String> {
    let mut encoder = Encoder { options, out: String::new(), markers: Vec::new(), level: 0 };
    encoder.value(obj, 0)?;
    Ok(encoder.out)
}

struct Encoder<'o> {
    options: &'o Options,
    out: String,
    /// The addresses of the containers being written (CPython's `markers`).
    markers: Vec<usize>,
    /// The indentation level.
    level: usize,
}

impl Encoder<'_> {
    fn push(&mut self, s: &str) -> Result<()> {
        if self.out.try_reserve(s.len()).is_err() {
            return Err(Error::out_of_memory("json.dumps", self.out.len().saturating_add(s.len())));
        }
        self.out.push_str(s);
        Ok(())
    }

    /// CPython's `_iterencode`: one value at nesting `depth`.
    fn value(&mut self, view: AnyView<'_>, depth: usize) -> Result<()> {
        let v = view.value();
        match v {
            Value::Str(s) => self.string(s),
            Value::UStr(u) => self.string(&u.iter().collect::<String>()),
            Value::None => self.push("null"),
            Value::Bool(b) => self.push(if b { "true" } else { "false" }),
            Value::Int(i) => self.push(itoa::Buffer::new().format(i)),
            Value::Float(f) => {
                let text = self.float(f)?;
                self.push(&text)
            }
            _ => {
                if depth >= MAX_DEPTH {
                    return Err(Error::runtime("maximum recursion depth exceeded while encoding a JSON object"));
                }
                if let Some(items) = seq_obj(v) {
                    let items = items.with_items(|xs| xs.to_vec());
                    self.marked(v, |e| e.list(&items, depth))
                } else if let Some(d) = dict_of(v) {
                    let items = d.items();
                    self.marked(v, |e| e.dict(items, depth))
                } else {
                    self.other(view, depth)
                }
            }
        }
    }

    /// Runs `write` with container `v` marked as being written: met again inside, it is a
    /// cycle, which CPython refuses.
    fn marked(&mut self, v: Value<'_>, write: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let id = match v {
            Value::Object(o) if self.options.check_circular => o.as_raw().as_ptr() as usize,
            _ => return write(self),
        };
        if self.markers.contains(&id) {
            return Err(Error::value("Circular reference detected"));
        }
        self.markers.push(id);
        let written = write(self);
        self.markers.pop();
        written
    }

    /// A value of no JSON type: `default(v)` written in its place, or CPython's TypeError.
    fn other(&mut self, v: AnyView<'_>, depth: usize) -> Result<()> {
        let Some(default) = &self.options.default else {
            return Err(type_error(format!("Object of type {} is not JSON serializable", vname(v.value()))));
        };
        let f = callable(default.value())?;
        self.marked(v.value(), |e| {
            let replaced = f.call(&[v])?;
            e.value(replaced.view(), depth + 1)
        })
    }

    /// The newline and indentation before an item at the current level, if indenting.
    fn newline(&mut self) -> Result<()> {
        let options = self.options;
        let Some(indent) = &options.indent else { return Ok(()) };
        self.push("\n")?;
        for _ in 0..self.level {
            self.push(indent)?;
        }
        Ok(())
    }

    /// CPython's `_iterencode_list`.
    fn list(&mut self, items: &[AnyValue], depth: usize) -> Result<()> {
        if items.is_empty() {
            return self.push("[]");
        }
        self.push("[")?;
        self.level += 1;
        self.newline()?;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.item_separator()?;
            }
            self.value(item.view(), depth + 1)?;
        }
        self.level -= 1;
        self.newline()?;
        self.push("]")
    }

    /// CPython's `_iterencode_dict`: keys turned into strings in its order of checks (str,
    /// float, bool, None, int), others left out with `skipkeys` or refused.
    fn dict(&mut self, mut items: Vec<(AnyValue, AnyValue)>, depth: usize) -> Result<()> {
        if items.is_empty() {
            return self.push("{}");
        }
        if self.options.sort_keys {
            sort_by_python_lt(&mut items, |(k, _)| k.value(), false)?;
        }
        self.push("{")?;
        self.level += 1;
        self.newline()?;
        let mut first = true;
        for (key, value) in &items {
            let key = match key.value() {
                Value::Str(s) => s.to_string(),
                Value::UStr(u) => u.iter().collect(),
                Value::Float(f) => self.float(f)?,
                Value::Bool(b) => (if b { "true" } else { "false" }).to_string(),
                Value::None => "null".to_string(),
                Value::Int(i) => i.to_string(),
                _ if self.options.skipkeys => continue,
                other => {
                    return Err(type_error(format!(
                        "keys must be str, int, float, bool or None, not {}",
                        vname(other)
                    )));
                }
            };
            if !first {
                self.item_separator()?;
            }
            first = false;
            self.string(&key)?;
            let options = self.options;
            self.push(&options.separators.1)?;
            self.value(value.view(), depth + 1)?;
        }
        self.level -= 1;
        self.newline()?;
        self.push("}")
    }

    fn item_separator(&mut self) -> Result<()> {
        let options = self.options;
        self.push(&options.separators.0)?;
        self.newline()
    }

    /// CPython's `floatstr`: `repr`, or `NaN`/`Infinity`/`-Infinity` where allowed.
    fn float(&self, f: f64) -> Result<String> {
        if f.is_finite() {
            let mut text = String::new();
            let _ = write_float_repr(&mut text, f);
            return Ok(text);
        }
        if !self.options.allow_nan {
            // CPython writes with its C encoder on one line, with `json.encoder`'s Python code
            // when indenting, and only the latter names the value.
            let msg = "Out of range float values are not JSON compliant";
            return Err(Error::new(
                ErrorKind::Value,
                match self.options.indent {
                    None => msg.to_string(),
                    Some(_) => format!(
                        "{msg}: {}",
                        if f.is_nan() {
                            "nan"
                        } else if f > 0.0 {
                            "inf"
                        } else {
                            "-inf"
                        }
                    ),
                },
            ));
        }
        Ok(match f {
            f if f.is_nan() => "NaN",
            f if f > 0.0 => "Infinity",
            _ => "-Infinity",
        }
        .to_string())
    }

    /// A JSON string: CPython's `encode_basestring_ascii` (every character outside printable
    /// ASCII escaped, astral ones as surrogate pairs) or `encode_basestring`; runs of characters
    /// that need no escape are copied whole.
    fn string(&mut self, s: &str) -> Result<()> {
        self.push("\"")?;
        let ensure_ascii = self.options.ensure_ascii;
        let mut run = 0;
        for (at, c) in s.char_indices() {
            let short = match c {
                '"' => "\\\"",
                '\\' => "\\\\",
                '\n' => "\\n",
                '\r' => "\\r",
                '\t' => "\\t",
                '\u{8}' => "\\b",
                '\u{c}' => "\\f",
                c if c < ' ' || (ensure_ascii && c > '~') => "",
                _ => continue,
            };
            self.push(&s[run..at])?;
            run = at + c.len_utf8();
            if !short.is_empty() {
                self.push(short)?;
                continue;
            }
            let mut units = [0u16; 2];
            let mut text = String::with_capacity(12);
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(text, "\\u{unit:04x}");
            }
            self.push(&text)?;
        }
        self.push(&s[run..])?;
        self.push("\"")
    }
}
