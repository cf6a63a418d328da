//! printf-style `fmt % args` as CPython 3.11's `PyUnicode_Format` does it, errors worded alike.
//!
//! A tuple on the right is the argument list (a list is one argument, as in CPython); a dict is
//! the mapping `%(key)s` reads.

use super::float::{Flags, Mode, float_digits};
use super::layout::{reserve, text_with_room};
use super::value::{alternate_prefix, ascii_of, code_point, radix_digits};
use super::with_chars;
use crate::any::py_text::int_text;
use crate::pipeline::Slot;
use crate::pipeline::value_ops::{
    Text, dict_of, get_item, to_str, try_repr_value, tuple_obj, type_error, value_error, vname,
};
use crate::{AnyValue, AnyView, Error, ErrorKind, Result, Value};

/// The arguments as CPython walks them: a tuple by index, or one value used once.
struct Args {
    items: Vec<AnyValue>,
    /// The number of items, or -1 for a single value (CPython's `arglen`).
    len: i64,
    /// The next index; -2 before a single value is used (CPython's `argidx`).
    next: i64,
    single: Slot,
}

impl Args {
    fn next_arg(&mut self) -> Result<Slot> {
        if self.next >= self.len {
            return Err(type_error("not enough arguments for format string"));
        }
        let at = self.next;
        self.next += 1;
        Ok(if self.len < 0 { self.single.clone() } else { Slot::from(self.items[at as usize].clone()) })
    }

    fn use_single(&mut self, v: Slot) {
        self.single = v;
        self.len = -1;
        self.next = -2;
    }
}

/// A conversion's flags, width and precision.
#[derive(Default)]
struct Conversion {
    left: bool,
    plus: bool,
    blank: bool,
    alternate: bool,
    zero: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

/// Reads the format string one character at a time, as CPython's `fmtpos`/`fmtcnt` do.
struct Cursor<'a> {
    chars: &'a [char],
    pos: usize,
    /// A read ran past the end (CPython's `fmtcnt < 0`).
    exhausted: bool,
}

impl Cursor<'_> {
    fn next(&mut self) -> Option<char> {
        match self.chars.get(self.pos) {
            Some(&c) => {
                self.pos += 1;
                Some(c)
            }
            None => {
                self.exhausted = true;
                None
            }
        }
    }
}

/// `fmt % args`.
pub(crate) fn percent_format(fmt: Text<'_>, args: AnyView<'_>) -> Result<String> {
    with_chars(fmt, |chars| format_chars(chars, args))
}

fn format_chars(chars: &[char], args: AnyView<'_>) -> Result<String> {
    let value = args.value();
    // What CPython takes as a mapping (`PyMapping_Check`, not a tuple or str): a dict, and any
    // value with items by subscript, a list or bytes too: `'%(k)s' % [1]` looks the key up in the
    // list, and `'ab' % [1, 2]` is not an error of unused arguments.
    let subscriptable = dict_of(value).is_some()
        || (crate::pipeline::value_ops::seq_obj(value).is_some() && !crate::pipeline::value_ops::is_tuple(value))
        || crate::pipeline::str_codecs::bytes_of(value).is_some();
    let mapping: Option<Slot> = subscriptable.then(|| args.to_owned());
    // Only a tuple is an argument list: a list is one argument, as in CPython.
    let mut state = match tuple_obj(value) {
        Some(list) => {
            let items = list.with_items(|xs| xs.to_vec());
            let len = items.len() as i64;
            Args { items, len, next: 0, single: Slot::none() }
        }
        None => Args { items: Vec::new(), len: -1, next: -2, single: args.to_owned() },
    };
    let mut out = String::new();
    let mut cur = Cursor { chars, pos: 0, exhausted: false };
    while let Some(c) = cur.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut ch = cur.chars.get(cur.pos).copied().unwrap_or('\0');
        if ch == '%' {
            cur.pos += 1;
            out.push('%');
            continue;
        }
        if ch == '(' {
            let Some(dict) = &mapping else { return Err(type_error("format requires a mapping")) };
            cur.pos += 1;
            let key_start = cur.pos;
            let mut open = 1;
            while open > 0 {
                match cur.next() {
                    Some(')') => open -= 1,
                    Some('(') => open += 1,
                    Some(_) => {}
                    None => break,
                }
            }
            if cur.exhausted || open > 0 {
                return Err(value_error("incomplete format key"));
            }
            let key: String = cur.chars[key_start..cur.pos - 1].iter().collect();
            state.use_single(get_item(dict.view(), AnyView::from(key.as_str()))?);
            ch = ')';
        }
        let mut conv = Conversion::default();
        // Flags.
        while let Some(c) = cur.next() {
            ch = c;
            match c {
                '-' => conv.left = true,
                '+' => conv.plus = true,
                ' ' => conv.blank = true,
                '#' => conv.alternate = true,
                '0' => conv.zero = true,
                _ => break,
            }
        }
        // Width.
        if ch == '*' {
            let w = star_arg(&mut state)?;
            if w < 0 {
                conv.left = true;
            }
            // CPython negates a negative width in a C ssize_t: the most negative one stays
            // negative, which is no width at all.
            conv.width = (w != i64::MIN).then_some(w.unsigned_abs() as usize);
            if let Some(c) = cur.next() {
                ch = c;
            }
        } else if ch.is_ascii_digit() {
            conv.width = Some(digits(&mut cur, &mut ch, isize::MAX as usize, "width too big")?);
        }
        // Precision.
        if ch == '.' {
            conv.precision = Some(0);
            if let Some(c) = cur.next() {
                ch = c;
            }
            if ch == '*' {
                let p = star_arg(&mut state)?;
                let p = i32::try_from(p)
                    .map_err(|_| Error::new(ErrorKind::Overflow, "Python int too large to convert to C int"))?;
                conv.precision = Some(p.max(0) as usize);
                if let Some(c) = cur.next() {
                    ch = c;
                }
            } else if ch.is_ascii_digit() {
                conv.precision = Some(digits(&mut cur, &mut ch, i32::MAX as usize, "precision too big")?);
            }
        }
        // A length modifier (`%ld`) means nothing in Python.
        if !cur.exhausted
            && matches!(ch, 'h' | 'l' | 'L')
            && let Some(c) = cur.next()
        {
            ch = c;
        }
        if cur.exhausted {
            return Err(value_error("incomplete format"));
        }
        let v = state.next_arg()?;
        let index = cur.pos - 1;
        write_conversion(&mut out, ch, index, &conv, v.view())?;
    }
    if state.next < state.len && mapping.is_none() {
        return Err(type_error("not all arguments converted during string formatting"));
    }
    Ok(out)
}

/// The int a `*` takes from the arguments.
fn star_arg(state: &mut Args) -> Result<i64> {
    match state.next_arg()?.value() {
        Value::Int(i) => Ok(i),
        Value::Bool(b) => Ok(b as i64),
        _ => Err(type_error("* wants int")),
    }
}

/// A decimal number whose first digit is `ch`; leaves `ch` at the character after it.
fn digits(cur: &mut Cursor<'_>, ch: &mut char, max: usize, too_big: &str) -> Result<usize> {
    let mut n = (*ch as u8 - b'0') as usize;
    while let Some(c) = cur.next() {
        *ch = c;
        let Some(d) = c.to_digit(10).filter(|_| c.is_ascii_digit()) else { break };
        if n > (max - d as usize) / 10 {
            return Err(value_error(too_big));
        }
        n = n * 10 + d as usize;
    }
    Ok(n)
}

/// Formats one argument by its conversion character and writes it, padded.
fn write_conversion(out: &mut String, ch: char, index: usize, conv: &Conversion, v: AnyView<'_>) -> Result<()> {
    let text = match ch {
        's' | 'r' | 'a' => {
            let t = match ch {
                's' => to_str(v)?,
                'r' => try_repr_value(v.value())?,
                _ => ascii_of(v.value())?,
            };
            let t = match conv.precision {
                Some(p) => t.chars().take(p).collect(),
                None => t,
            };
            return write_padded(out, &t, None, conv, ch);
        }
        'c' => {
            let c = char_of(v)?;
            return write_padded(out, c.encode_utf8(&mut [0; 4]), None, conv, ch);
        }
        // The common `%d` of an int: its digits on the stack.
        'd' | 'i' | 'u' if conv.precision.is_none() && matches!(v.value(), Value::Int(_)) => {
            let i = v.value().as_int().unwrap_or_default();
            return write_signed(out, int_text(i, &mut [0; 20]), conv, ch);
        }
        'd' | 'i' | 'u' | 'o' | 'x' | 'X' => integer_text(v, ch, conv)?,
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
            let x = match v.value() {
                Value::Int(i) => i as f64,
                Value::Bool(b) => b as i64 as f64,
                Value::Float(x) => x,
                other => return Err(type_error(format!("must be real number, not {}", vname(other)))),
            };
            let p = conv.precision.unwrap_or(6);
            let mode = match ch.to_ascii_lowercase() {
                'e' => Mode::Exponent(p),
                'f' => Mode::Fixed(p),
                _ => Mode::General(p),
            };
            let flags = Flags { alternate: conv.alternate, upper: ch.is_ascii_uppercase(), ..Flags::default() };
            let (negative, digits) = float_digits(x, mode, flags)?;
            if negative { format!("-{digits}") } else { digits }
        }
        _ => {
            let shown = if (31..=126).contains(&(ch as u32)) { ch } else { '?' };
            return Err(value_error(format!(
                "unsupported format character '{shown}' (0x{:x}) at index {index}",
                ch as u32
            )));
        }
    };
    write_signed(out, &text, conv, ch)
}

/// Writes a number's text, its sign split off (or added for `+` and ` `) and padded.
fn write_signed(out: &mut String, text: &str, conv: &Conversion, ch: char) -> Result<()> {
    let (sign, body) = match text.strip_prefix('-') {
        Some(rest) => (Some('-'), rest),
        None if conv.plus => (Some('+'), text),
        None if conv.blank => (Some(' '), text),
        None => (None, text),
    };
    write_padded(out, body, sign, conv, ch)
}

/// CPython's `unicode_format_arg_output`: numbers pad with zeros after the sign and the
/// `0x` prefix when `0` is given, strings and characters always with spaces.
fn write_padded(out: &mut String, body: &str, sign: Option<char>, conv: &Conversion, ch: char) -> Result<()> {
    let numeric = !matches!(ch, 's' | 'r' | 'a' | 'c');
    let fill = if numeric && conv.zero { '0' } else { ' ' };
    let (prefix, digits) = match body.get(..2) {
        Some(p) if conv.alternate && matches!(ch, 'x' | 'X' | 'o') => (p, &body[2..]),
        _ => ("", body),
    };
    let len = sign.is_some() as usize + prefix.len() + digits.chars().count();
    let padding = conv.width.unwrap_or(0).saturating_sub(len);
    reserve(out, body.len().saturating_add(padding).saturating_add(1), "%-formatting")?;
    let pad = |out: &mut String| out.extend(std::iter::repeat_n(fill, padding));
    if !conv.left && fill == ' ' {
        pad(out);
    }
    out.extend(sign);
    out.push_str(prefix);
    if !conv.left && fill == '0' {
        pad(out);
    }
    out.push_str(digits);
    if conv.left {
        out.extend(std::iter::repeat_n(' ', padding));
    }
    Ok(())
}

/// The character `%c` writes: a one-character str or a code point.
fn char_of(v: AnyView<'_>) -> Result<char> {
    let wrong = || type_error("%c requires int or char");
    match v.value() {
        x @ (Value::Str(_) | Value::UStr(_)) => {
            let t = Text::of(x).expect("a str");
            let mut cs = t.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Ok(c),
                _ => Err(wrong()),
            }
        }
        Value::Int(i) => code_point(i),
        Value::Bool(b) => code_point(b as i64),
        _ => Err(wrong()),
    }
}

/// The text of an integer conversion, sign and alternate prefix included: CPython's
/// `_PyUnicode_FormatLong` after `int()` (or, for `o`/`x`/`X`, `__index__`) of the argument.
fn integer_text(v: AnyView<'_>, ch: char, conv: &Conversion) -> Result<String> {
    let radix_kind = matches!(ch, 'o' | 'x' | 'X');
    let (negative, magnitude): (bool, String) = match v.value() {
        Value::Int(i) => (i < 0, radix_digits(i.unsigned_abs(), ch)),
        Value::Bool(b) => (false, radix_digits(b as u64, ch)),
        Value::Float(x) if !radix_kind => {
            if x.is_nan() {
                return Err(value_error("cannot convert float NaN to integer"));
            }
            if x.is_infinite() {
                return Err(Error::new(ErrorKind::Overflow, "cannot convert float infinity to integer"));
            }
            // int(x) exactly, beyond i64 too: the float's integer part has an exact decimal form.
            let t = x.trunc();
            (t < 0.0, format!("{:.0}", t.abs()))
        }
        other => {
            let wanted = if radix_kind { "an integer" } else { "a real number" };
            return Err(type_error(format!("%{ch} format: {wanted} is required, not {}", vname(other))));
        }
    };
    let zeros = conv.precision.unwrap_or(0).saturating_sub(magnitude.len());
    let mut text = text_with_room(magnitude.len().saturating_add(zeros).saturating_add(3), "%-formatting")?;
    if negative {
        text.push('-');
    }
    if conv.alternate {
        text.push_str(alternate_prefix(ch));
    }
    text.extend(std::iter::repeat_n('0', zeros));
    text.push_str(&magnitude);
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::test_values::*;

    fn pct(f: &str, args: Slot) -> String {
        percent_format(Text::Utf8(f), args.view()).unwrap_or_else(|e| format!("{}: {}", e.kind().name(), e.message()))
    }

    #[test]
    fn conversions_as_cpython() {
        // Expected strings: CPython 3.11's `%` of the same arguments.
        assert_eq!(pct("%-05d|", i(5)), "5    |");
        assert_eq!(pct("%+05d", i(5)), "+0005");
        assert_eq!(pct("%#08x", i(255)), "0x0000ff");
        assert_eq!(pct("%#-8x|", i(255)), "0xff    |");
        assert_eq!(pct("% 8.3f", f(3.25159)), "   3.252");
        assert_eq!(pct("%.3r", s("abcdef")), "'ab");
        assert_eq!(pct("%*d", tuple(vec![i(5), i(3)])), "    3");
        assert_eq!(pct("%-*d|", tuple(vec![i(-5), i(3)])), "3    |");
        assert_eq!(pct("%.*f", tuple(vec![i(-2), f(3.25159)])), "3");
        assert_eq!(pct("%.5d", i(-42)), "-00042");
        assert_eq!(pct("%#.5x", i(42)), "0x0002a");
        assert_eq!(pct("%d", f(1e30)), "1000000000000000019884624838656");
        assert_eq!(pct("%05s", s("a")), "    a");
        assert_eq!(pct("%05.1f", f(-2.5)), "-02.5");
        assert_eq!(pct("%(a)s %(a)s", dict(vec![(s("a"), i(1))])), "1 1");
        assert_eq!(pct("%s %(a)s", dict(vec![(s("a"), i(1))])), "{'a': 1} 1");
        assert_eq!(pct("%ld %hd %Ld", tuple(vec![i(1), i(2), i(3)])), "1 2 3");
        assert_eq!(pct("%c|%5c", tuple(vec![i(65), s("é")])), "A|    é");
    }

    #[test]
    fn errors_as_cpython() {
        assert_eq!(pct("%5%", tuple(vec![])), "TypeError: not enough arguments for format string");
        assert_eq!(pct("%y", i(1)), "ValueError: unsupported format character 'y' (0x79) at index 1");
        assert_eq!(pct("%é", i(1)), "ValueError: unsupported format character '?' (0xe9) at index 1");
        assert_eq!(pct("%", tuple(vec![])), "ValueError: incomplete format");
        assert_eq!(pct("%(a", dict(vec![])), "ValueError: incomplete format key");
        assert_eq!(pct("%(a)", dict(vec![(s("a"), i(1))])), "ValueError: incomplete format");
        assert_eq!(pct("abc", i(5)), "TypeError: not all arguments converted during string formatting");
        // A list is a mapping to CPython's `%`: its arguments are not counted, its keys are indices.
        let two = || list(vec![i(1), i(2)]);
        assert_eq!(pct("ab", two()), "ab");
        assert_eq!(pct("%s", two()), "[1, 2]");
        assert_eq!(pct("%(k)s", two()), "TypeError: list indices must be integers or slices, not str");
        assert_eq!(pct("%x", f(3.9)), "TypeError: %x format: an integer is required, not float");
        assert_eq!(pct("%d", s("s")), "TypeError: %d format: a real number is required, not str");
        assert_eq!(pct("%c", s("ab")), "TypeError: %c requires int or char");
        assert_eq!(pct("%(a)s", i(5)), "TypeError: format requires a mapping");
        assert_eq!(pct("%*d", tuple(vec![s("a"), i(3)])), "TypeError: * wants int");
        assert_eq!(pct("%d", f(f64::NAN)), "ValueError: cannot convert float NaN to integer");
        assert_eq!(pct("%f", none()), "TypeError: must be real number, not NoneType");
    }
}
