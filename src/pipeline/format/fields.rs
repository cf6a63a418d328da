//! `str.format(*args, **kwargs)` and `str.format_map(mapping)`: replacement fields
//! `{name!conversion:spec}` as CPython 3.11 reads them (`Objects/stringlib/unicode_format.h`),
//! errors worded alike. Attribute lookups (`{0.real}`) are refused.

use super::layout::reserve;
use super::spec;
use super::value::{ascii_of, format_value};
use super::with_chars;
use crate::pipeline::Slot;
use crate::pipeline::value_ops::{Text, get_item, index_error, key_error, to_str, try_repr_value, value_error};
use crate::{AnyView, Result};

/// How `{}` and `{0}` fields have been numbered so far: they may not be mixed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Numbering {
    Unset,
    Auto(usize),
    Manual,
}

/// What the fields of a format string can name.
#[derive(Clone, Copy)]
pub(crate) struct FormatArgs<'a, 'v> {
    /// The positional arguments.
    pub positional: &'a [AnyView<'v>],
    /// The keyword arguments (a dict), or `format_map`'s mapping: what `{name}` looks up.
    pub named: Option<AnyView<'v>>,
    /// `format_map`, whose fields may not name positions.
    pub map_only: bool,
}

/// `fmt.format(*args)`.
pub(crate) fn str_format(fmt: Text<'_>, args: &[AnyView<'_>]) -> Result<String> {
    str_format_with(fmt, FormatArgs { positional: args, named: None, map_only: false })
}

/// `fmt.format(*args, **kwargs)` or `fmt.format_map(mapping)`.
pub(crate) fn str_format_with(fmt: Text<'_>, args: FormatArgs<'_, '_>) -> Result<String> {
    with_chars(fmt, |chars| {
        let mut numbering = Numbering::Unset;
        let mut out = String::new();
        build(chars, &args, &mut numbering, 2, &mut out)?;
        Ok(out)
    })
}

/// Writes `fmt` with its fields replaced; nested fields in specs recurse with one level less.
fn build(
    fmt: &[char],
    args: &FormatArgs<'_, '_>,
    numbering: &mut Numbering,
    depth: u32,
    out: &mut String,
) -> Result<()> {
    if depth == 0 {
        return Err(value_error("Max string recursion exceeded"));
    }
    let mut pos = 0;
    while pos < fmt.len() {
        // Literal text up to the next brace.
        let start = pos;
        while pos < fmt.len() && fmt[pos] != '{' && fmt[pos] != '}' {
            pos += 1;
        }
        out.extend(&fmt[start..pos]);
        let Some(&brace) = fmt.get(pos) else { break };
        pos += 1;
        let next = fmt.get(pos).copied();
        if next == Some(brace) {
            // `{{` or `}}`: one brace of text.
            out.push(brace);
            pos += 1;
            continue;
        }
        if brace == '}' {
            return Err(value_error("Single '}' encountered in format string"));
        }
        if next.is_none() {
            return Err(value_error("Single '{' encountered in format string"));
        }
        let field = parse_field(fmt, &mut pos)?;
        let value = field_value(&fmt[field.name.0..field.name.1], args, numbering)?;
        let converted = match field.conversion {
            None => None,
            Some('r') => Some(try_repr_value(value.value())?),
            Some('s') => Some(to_str(value.view())?),
            Some('a') => Some(ascii_of(value.value())?),
            Some(c) if (c as u32) > 32 && (c as u32) < 127 => {
                return Err(value_error(format!("Unknown conversion specifier {c}")));
            }
            Some(c) => return Err(value_error(format!("Unknown conversion specifier \\x{:x}", c as u32))),
        };
        let spec_chars = &fmt[field.spec.0..field.spec.1];
        let spec = if field.spec_has_fields {
            let mut expanded = String::new();
            build(spec_chars, args, numbering, depth - 1, &mut expanded)?;
            expanded
        } else {
            spec_chars.iter().collect()
        };
        let text = match converted {
            Some(t) => format_value(AnyView::from(t.as_str()), &spec)?,
            None => format_value(value.view(), &spec)?,
        };
        reserve(out, text.len(), "str.format()")?;
        out.push_str(&text);
    }
    Ok(())
}

/// One replacement field's parts, as ranges of the format string.
struct Field {
    name: (usize, usize),
    conversion: Option<char>,
    spec: (usize, usize),
    spec_has_fields: bool,
}

/// Reads a field from just after its `{` through its closing `}`.
fn parse_field(fmt: &[char], pos: &mut usize) -> Result<Field> {
    let start = *pos;
    let mut c = '\0';
    while *pos < fmt.len() {
        c = fmt[*pos];
        *pos += 1;
        match c {
            '{' => return Err(value_error("unexpected '{' in field name")),
            // An index may hold any character but `]`.
            '[' => {
                while *pos < fmt.len() && fmt[*pos] != ']' {
                    *pos += 1;
                }
            }
            '}' | ':' | '!' => break,
            _ => {}
        }
    }
    let name = (start, *pos - 1);
    let mut field = Field { name, conversion: None, spec: (*pos, *pos), spec_has_fields: false };
    if c != '!' && c != ':' {
        if c != '}' {
            return Err(value_error("expected '}' before end of string"));
        }
        return Ok(field);
    }
    if c == '!' {
        let Some(&conv) = fmt.get(*pos) else {
            return Err(value_error("end of string while looking for conversion specifier"));
        };
        field.conversion = Some(conv);
        *pos += 1;
        if let Some(&after) = fmt.get(*pos) {
            *pos += 1;
            if after == '}' {
                field.spec = (*pos, *pos);
                return Ok(field);
            }
            if after != ':' {
                return Err(value_error("expected ':' after conversion specifier"));
            }
        }
    }
    let spec_start = *pos;
    let mut open = 1;
    while *pos < fmt.len() {
        let c = fmt[*pos];
        *pos += 1;
        match c {
            '{' => {
                field.spec_has_fields = true;
                open += 1;
            }
            '}' => {
                open -= 1;
                if open == 0 {
                    field.spec = (spec_start, *pos - 1);
                    return Ok(field);
                }
            }
            _ => {}
        }
    }
    Err(value_error("unmatched '{' in format spec"))
}

/// A run of decimal digits as an index (CPython's `get_integer`): `None` when `s` is empty or
/// holds anything else.
fn integer(s: &[char]) -> Result<Option<usize>> {
    let mut end = 0;
    let n = spec::integer(s, &mut end)?;
    Ok(n.filter(|_| end == s.len()))
}

/// The value a field name picks: an argument, then `[index]` lookups into it.
fn field_value(name: &[char], args: &FormatArgs<'_, '_>, numbering: &mut Numbering) -> Result<Slot> {
    let first_len = name.iter().position(|&c| c == '.' || c == '[').unwrap_or(name.len());
    let (first, rest) = name.split_at(first_len);
    let index = integer(first)?;
    let index = match (first.is_empty(), index) {
        (true, _) => match *numbering {
            Numbering::Manual => {
                return Err(value_error("cannot switch from manual field specification to automatic field numbering"));
            }
            Numbering::Unset | Numbering::Auto(_) => {
                let k = if let Numbering::Auto(k) = *numbering { k } else { 0 };
                *numbering = Numbering::Auto(k + 1);
                k
            }
        },
        (false, Some(k)) => match *numbering {
            Numbering::Auto(_) => {
                return Err(value_error("cannot switch from automatic field numbering to manual field specification"));
            }
            _ => {
                *numbering = Numbering::Manual;
                k
            }
        },
        // A keyword argument's name (`format_map`'s key).
        (false, None) => {
            let key: String = first.iter().collect();
            let value = match args.named {
                Some(named) => get_item(named, AnyView::from(key.as_str()))?,
                None => return Err(key_error(crate::AnyView::from(key.as_str()))),
            };
            return items_of(value, rest);
        }
    };
    if args.map_only {
        return Err(value_error("Format string contains positional fields"));
    }
    let Some(arg) = args.positional.get(index) else {
        return Err(index_error(format!("Replacement index {index} out of range for positional args tuple")));
    };
    items_of(arg.to_owned(), rest)
}

/// `value` looked up by `rest`, the `[index]` parts of a field name after its first.
fn items_of(mut value: Slot, mut rest: &[char]) -> Result<Slot> {
    while let Some((&lead, tail)) = rest.split_first() {
        let (part, after) = match lead {
            '.' => {
                let end = tail.iter().position(|&c| c == '.' || c == '[').unwrap_or(tail.len());
                (&tail[..end], &tail[end..])
            }
            '[' => match tail.iter().position(|&c| c == ']') {
                Some(end) => (&tail[..end], &tail[end + 1..]),
                None => return Err(value_error("Missing ']' in format string")),
            },
            _ => return Err(value_error("Only '.' or '[' may follow ']' in format field specifier")),
        };
        if part.is_empty() {
            return Err(value_error("Empty attribute in format string"));
        }
        let part_text: String = part.iter().collect();
        value = match lead {
            '.' => {
                return Err(value_error(format!(
                    "format field attribute '.{part_text}' is not supported in anyscript"
                )));
            }
            _ => match integer(part)? {
                Some(k) => get_item(value.view(), AnyView::from(k as i64))?,
                None => get_item(value.view(), AnyView::from(part_text.as_str()))?,
            },
        };
        rest = after;
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::test_values::*;

    fn fmt(f: &str, args: &[Slot]) -> String {
        let views: Vec<AnyView<'_>> = args.iter().map(|a| a.view()).collect();
        str_format(Text::Utf8(f), &views).unwrap_or_else(|e| format!("{}: {}", e.kind().name(), e.message()))
    }

    #[test]
    fn fields_as_cpython() {
        // Expected strings: CPython 3.11's str.format of the same arguments.
        assert_eq!(fmt("a}}b{{c", &[]), "a}b{c");
        assert_eq!(fmt("{:{}}{}", &[i(1), i(5), s("x")]), "    1x");
        assert_eq!(fmt("{0[1]!r:>5}", &[s("ab")]), "  'b'");
        assert_eq!(fmt("{0[0][0]}", &[list(vec![s("ab")])]), "a");
        assert_eq!(fmt("{0[a]}", &[dict(vec![(s("a"), s("x"))])]), "x");
        assert_eq!(fmt("{[0]}", &[s("ab")]), "a");
        assert_eq!(fmt("{0!a}", &[s("é\n")]), "'\\xe9\\n'");
    }

    #[test]
    fn errors_as_cpython() {
        assert_eq!(fmt("{", &[]), "ValueError: Single '{' encountered in format string");
        assert_eq!(fmt("}", &[]), "ValueError: Single '}' encountered in format string");
        assert_eq!(fmt("{!r", &[i(1)]), "ValueError: unmatched '{' in format spec");
        assert_eq!(fmt("{!", &[i(1)]), "ValueError: end of string while looking for conversion specifier");
        assert_eq!(fmt("{0!rr}", &[i(1)]), "ValueError: expected ':' after conversion specifier");
        assert_eq!(fmt("{0[}", &[i(1)]), "ValueError: expected '}' before end of string");
        assert_eq!(fmt("{0]}", &[i(1)]), "KeyError: '0]'");
        assert_eq!(
            fmt("{0[0]x}", &[list(vec![i(1)])]),
            "ValueError: Only '.' or '[' may follow ']' in format field specifier"
        );
        assert_eq!(fmt("{:{:{}}}", &[i(1), i(2), i(3)]), "ValueError: Max string recursion exceeded");
        assert_eq!(
            fmt("{} {0}", &[i(1)]),
            "ValueError: cannot switch from automatic field numbering to manual field specification"
        );
        assert_eq!(
            fmt("{0:{}}", &[i(1), i(5)]),
            "ValueError: cannot switch from manual field specification to automatic field numbering"
        );
        assert_eq!(fmt("{2}", &[i(1)]), "IndexError: Replacement index 2 out of range for positional args tuple");
        assert_eq!(fmt("{0[5]}", &[list(vec![i(1)])]), "IndexError: list index out of range");
        assert_eq!(fmt("{0!x}", &[i(1)]), "ValueError: Unknown conversion specifier x");
    }
}
