//! `re.sub`'s replacement templates, read as CPython 3.11 reads them: `\1`, `\g<1>`,
//! `\g<name>` for groups (empty when the group took no part), `\n`-style escapes, octal
//! escapes, and any other backslash before a non-letter kept as written.

use super::error::template_error;
use super::matches::Spans;
use super::pattern::Compiled;
use crate::PackedFunc;
use crate::error::{Error, ErrorKind, Result};

/// What replaces each match.
pub(super) enum Replacement {
    /// A template.
    Template(Template),
    /// A function called with the match object.
    Func(PackedFunc),
    /// Bytes: CPython takes them as a literal and fails when it joins the first one into the
    /// str result (a text without a match comes back unchanged).
    Bytes,
}

/// A parsed template: literal text and group references.
pub(super) struct Template {
    pieces: Vec<Piece>,
}

enum Piece {
    Text(String),
    Group(usize),
}

impl Template {
    /// Parses `source` for a pattern of `c`'s groups.
    pub(super) fn parse(source: &str, c: &Compiled) -> Result<Template> {
        let chars: Vec<char> = source.chars().collect();
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut i = 0;
        let group = |n: usize, pos: usize, text: &mut String, pieces: &mut Vec<Piece>| {
            if n > c.groups {
                return Err(template_error(source, format!("invalid group reference {n}"), pos));
            }
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(text)));
            }
            pieces.push(Piece::Group(n));
            Ok(())
        };
        while i < chars.len() {
            let ch = chars[i];
            if ch != '\\' {
                text.push(ch);
                i += 1;
                continue;
            }
            let start = i;
            let Some(&c1) = chars.get(i + 1) else {
                return Err(template_error(source, "bad escape (end of pattern)", start));
            };
            i += 2;
            match c1 {
                'g' => {
                    if chars.get(i) != Some(&'<') {
                        return Err(template_error(source, "missing <", i));
                    }
                    let from = i + 1;
                    let Some(len) = chars[from..].iter().position(|&c| c == '>') else {
                        let message =
                            if from == chars.len() { "missing group name" } else { "missing >, unterminated name" };
                        return Err(template_error(source, message, from));
                    };
                    let name: String = chars[from..from + len].iter().collect();
                    i = from + len + 1;
                    if name.is_empty() {
                        return Err(template_error(source, "missing group name", from));
                    }
                    let n = if let Some(n) = c.group_number(&name) {
                        n
                    } else if name.chars().next().is_some_and(|c| c == '_' || c.is_alphabetic()) {
                        return Err(Error::new(ErrorKind::Index, format!("unknown group name '{name}'")));
                    } else {
                        match name.parse::<usize>() {
                            Ok(n) if name.chars().all(|c| c.is_ascii_digit()) => n,
                            _ => {
                                return Err(template_error(
                                    source,
                                    format!("bad character in group name '{name}'"),
                                    from,
                                ));
                            }
                        }
                    };
                    group(n, from, &mut text, &mut pieces)?;
                }
                '0' => {
                    let mut value = 0;
                    for _ in 0..2 {
                        match chars.get(i).and_then(|d| d.to_digit(8)) {
                            Some(d) => {
                                value = value * 8 + d;
                                i += 1;
                            }
                            None => break,
                        }
                    }
                    text.push(char::from_u32(value & 0xff).expect("below 256"));
                }
                '1'..='9' => {
                    let mut digits = c1.to_string();
                    if let Some(&d) = chars.get(i).filter(|d| d.is_ascii_digit()) {
                        digits.push(d);
                        i += 1;
                        if let Some(&e) = chars.get(i).filter(|e| e.is_digit(8))
                            && c1.is_digit(8)
                            && d.is_digit(8)
                        {
                            digits.push(e);
                            i += 1;
                            let value = u32::from_str_radix(&digits, 8).expect("octal");
                            if value > 0o377 {
                                let message = format!("octal escape value \\{digits} outside of range 0-0o377");
                                return Err(template_error(source, message, start));
                            }
                            text.push(char::from_u32(value).expect("below 256"));
                            continue;
                        }
                    }
                    group(digits.parse().expect("digits"), start + 1, &mut text, &mut pieces)?;
                }
                'a' => text.push('\x07'),
                'b' => text.push('\x08'),
                'f' => text.push('\x0c'),
                'n' => text.push('\n'),
                'r' => text.push('\r'),
                't' => text.push('\t'),
                'v' => text.push('\x0b'),
                '\\' => text.push('\\'),
                c if c.is_ascii_alphabetic() => return Err(template_error(source, format!("bad escape \\{c}"), start)),
                c => {
                    text.push('\\');
                    text.push(c);
                }
            }
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Template { pieces })
    }

    /// Appends the replacement for a match of `spans` in `text`.
    /// The index of the first literal piece among the pieces (literal text and groups, in order).
    pub(super) fn first_literal(&self) -> Option<usize> {
        self.pieces.iter().position(|p| matches!(p, Piece::Text(_)))
    }

    pub(super) fn expand(&self, text: &str, spans: &Spans, out: &mut String) {
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Group(n) => {
                    if let Some((s, e)) = spans[*n] {
                        out.push_str(&text[s..e]);
                    }
                }
            }
        }
    }
}
