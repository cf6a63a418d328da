//! The tokenizer of anyscript: Python's tokens, with INDENT/DEDENT made from leading whitespace.
//!
//! It follows Python's tokenizer: newlines inside brackets and after a backslash
//! join lines, blank and comment-only lines produce nothing, and each change of
//! indentation at the start of a logical line becomes INDENT or DEDENT tokens.

use std::fmt::Display;

mod fstring;
pub use fstring::FPart;

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier or a keyword.
    Name(String),
    /// An integer literal, at most 2^63 so that `-9223372036854775808` can be written.
    Int(u64),
    /// A float literal.
    Float(f64),
    /// A string literal with its escapes resolved.
    Str(String),
    /// A bytes literal (`b"..."`) with its escapes resolved.
    Bytes(Vec<u8>),
    /// An f-string: its text and replacement fields.
    FStr(Vec<FPart>),
    /// An operator or delimiter.
    Op(&'static str),
    /// The end of a logical line.
    Newline,
    /// The start of a more indented block.
    Indent,
    /// The end of an indented block.
    Dedent,
    /// The end of the input.
    End,
}

/// A token and where it starts: 1-based line and column, columns counted in characters.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What the token is.
    pub tok: Tok,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

/// Python's keywords: none of them can be used as a name.
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// Whether `word` is a Python keyword.
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// A parse error at `line`, `col`, in the form every anyscript syntax error takes.
pub fn syntax_error(line: u32, col: u32, msg: impl Display) -> crate::Error {
    crate::Error::new(crate::ErrorKind::Parse, format!("line {line}, column {col}: {msg}"))
}

/// Splits `src` into tokens; the last one is always [`Tok::End`].
pub fn tokenize(src: &str) -> crate::Result<Vec<Token>> {
    Lexer::new(src).run()
}

/// The largest integer literal: `2^63`, only valid right after a unary minus.
pub const INT_LITERAL_MAX: u64 = 1 << 63;

/// The operator or delimiter starting with `c`, `n1`, `n2`, longest match first.
fn operator_at(c: char, n1: Option<char>, n2: Option<char>) -> Option<&'static str> {
    let three = match (c, n1, n2) {
        ('*', Some('*'), Some('=')) => Some("**="),
        ('/', Some('/'), Some('=')) => Some("//="),
        ('>', Some('>'), Some('=')) => Some(">>="),
        ('<', Some('<'), Some('=')) => Some("<<="),
        ('.', Some('.'), Some('.')) => Some("..."),
        _ => None,
    };
    let two = || match (c, n1?) {
        ('*', '*') => Some("**"),
        ('/', '/') => Some("//"),
        ('<', '<') => Some("<<"),
        ('>', '>') => Some(">>"),
        ('-', '>') => Some("->"),
        (':', '=') => Some(":="),
        (_, '=') => ["<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="]
            .into_iter()
            .find(|op| op.starts_with(c)),
        _ => None,
    };
    let one = || {
        let i = "+-*/%@&|^~<>()[]{},:.;=".find(c)?;
        // Every character in the list is ASCII, so `i..i + 1` is one whole character.
        Some(&"+-*/%@&|^~<>()[]{},:.;="[i..i + 1])
    };
    three.or_else(two).or_else(one)
}

fn is_id_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_id_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

struct Lexer {
    /// The source with `\r\n` and lone `\r` turned into `\n`, so only one newline needs handling.
    chars: Vec<char>,
    pos: usize,
    line: usize,
    line_start: usize,
    tokens: Vec<Token>,
    /// Widths of the open indentation levels; the bottom one is always 0.
    indents: Vec<usize>,
    /// Open brackets with their positions, for implicit line joining and error messages.
    brackets: Vec<(char, u32, u32)>,
}

impl Lexer {
    fn new(src: &str) -> Self {
        let mut chars = Vec::with_capacity(src.len());
        let mut it = src.chars().peekable();
        while let Some(c) = it.next() {
            if c == '\r' {
                it.next_if_eq(&'\n');
                chars.push('\n');
            } else {
                chars.push(c);
            }
        }
        Lexer { chars, pos: 0, line: 1, line_start: 0, tokens: Vec::new(), indents: vec![0], brackets: Vec::new() }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.line_start = self.pos;
        }
        Some(c)
    }

    fn here(&self) -> (u32, u32) {
        (to_u32(self.line), to_u32(self.pos - self.line_start + 1))
    }

    fn push(&mut self, tok: Tok, (line, col): (u32, u32)) {
        self.tokens.push(Token { tok, line, col });
    }

    fn run(mut self) -> crate::Result<Vec<Token>> {
        let mut at_line_start = true;
        loop {
            if at_line_start {
                at_line_start = false;
                self.indentation()?;
            }
            self.skip_spaces();
            let at = self.here();
            let Some(c) = self.peek() else { break };
            match c {
                '#' => self.skip_comment(),
                '\n' => {
                    self.bump();
                    // Inside brackets a newline is just whitespace (implicit line joining).
                    if self.brackets.is_empty() {
                        self.end_line(at);
                        at_line_start = true;
                    }
                }
                '\\' => self.continuation(at)?,
                '0'..='9' => self.number(at)?,
                '.' if self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) => self.number(at)?,
                '"' | '\'' => self.string(at, "")?,
                c if is_id_start(c) => self.name_or_string(at)?,
                c => self.operator(c, at)?,
            }
        }
        self.finish()
    }

    /// Measures the indentation of the next non-blank line and emits INDENT/DEDENT for it.
    fn indentation(&mut self) -> crate::Result<()> {
        loop {
            let mut width = 0;
            loop {
                match self.peek() {
                    Some(' ') => width += 1,
                    Some('\t') => width = (width / 8 + 1) * 8,
                    // A form feed resets the column, as in Python.
                    Some('\x0c') => width = 0,
                    _ => break,
                }
                self.bump();
            }
            match self.peek() {
                // Blank and comment-only lines do not count for indentation.
                Some('#') => self.skip_comment(),
                Some('\n') => {
                    self.bump();
                }
                None => return Ok(()),
                Some(_) => return self.indent_to(width),
            }
        }
    }

    fn indent_to(&mut self, width: usize) -> crate::Result<()> {
        let at = self.here();
        let top = self.indents.last().copied().unwrap_or(0);
        if width > top {
            self.indents.push(width);
            self.push(Tok::Indent, at);
            return Ok(());
        }
        while width < self.indents.last().copied().unwrap_or(0) {
            self.indents.pop();
            self.push(Tok::Dedent, at);
        }
        if width != self.indents.last().copied().unwrap_or(0) {
            return Err(syntax_error(at.0, at.1, "unindent does not match any outer indentation level"));
        }
        Ok(())
    }

    fn end_line(&mut self, at: (u32, u32)) {
        if self.tokens.last().is_some_and(|t| t.tok != Tok::Newline) {
            self.push(Tok::Newline, at);
        }
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\x0c')) {
            self.bump();
        }
    }

    fn skip_comment(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    fn continuation(&mut self, at: (u32, u32)) -> crate::Result<()> {
        self.bump();
        match self.bump() {
            Some('\n') => Ok(()),
            None => Err(syntax_error(at.0, at.1, "unexpected end of file after line continuation character")),
            Some(_) => Err(syntax_error(at.0, at.1, "unexpected character after line continuation character")),
        }
    }

    fn finish(mut self) -> crate::Result<Vec<Token>> {
        if let Some(&(open, line, col)) = self.brackets.last() {
            return Err(syntax_error(line, col, format!("'{open}' was never closed")));
        }
        let at = self.here();
        self.end_line(at);
        for _ in 1..self.indents.len() {
            self.push(Tok::Dedent, at);
        }
        self.push(Tok::End, at);
        Ok(self.tokens)
    }

    fn name_or_string(&mut self, at: (u32, u32)) -> crate::Result<()> {
        let start = self.pos;
        while self.peek().is_some_and(is_id_continue) {
            self.bump();
        }
        let word: String = self.chars[start..self.pos].iter().collect();
        if matches!(self.peek(), Some('"' | '\'')) && is_string_prefix(&word) {
            return self.string(at, &word);
        }
        self.push(Tok::Name(word), at);
        Ok(())
    }

    fn operator(&mut self, c: char, at: (u32, u32)) -> crate::Result<()> {
        let Some(op) = operator_at(c, self.peek_at(1), self.peek_at(2)) else {
            let msg = if c.is_control() || c.is_whitespace() {
                format!("invalid non-printable character U+{:04X}", c as u32)
            } else {
                format!("invalid character '{c}' (U+{:04X})", c as u32)
            };
            return Err(syntax_error(at.0, at.1, msg));
        };
        self.pos += op.len();
        self.track_bracket(c, at)?;
        self.push(Tok::Op(op), at);
        Ok(())
    }

    fn track_bracket(&mut self, c: char, at: (u32, u32)) -> crate::Result<()> {
        let open = match c {
            '(' | '[' | '{' => {
                self.brackets.push((c, at.0, at.1));
                return Ok(());
            }
            ')' => '(',
            ']' => '[',
            '}' => '{',
            _ => return Ok(()),
        };
        match self.brackets.pop() {
            None => Err(syntax_error(at.0, at.1, format!("unmatched '{c}'"))),
            Some((o, ..)) if o != open => Err(syntax_error(
                at.0,
                at.1,
                format!("closing parenthesis '{c}' does not match opening parenthesis '{o}'"),
            )),
            Some(_) => Ok(()),
        }
    }

    fn number(&mut self, at: (u32, u32)) -> crate::Result<()> {
        let err = |msg: &str| syntax_error(at.0, at.1, msg);
        if self.peek() == Some('0') && matches!(self.peek_at(1), Some('x' | 'X' | 'o' | 'O' | 'b' | 'B')) {
            return self.radix_number(at);
        }
        let mut text = self.digits(10, false);
        let mut is_float = false;
        if self.peek() == Some('.') {
            self.bump();
            is_float = true;
            text.push('.');
            text += &self.digits(10, false);
        }
        if self.exponent_follows() {
            is_float = true;
            self.bump();
            text.push('e');
            if let Some(sign @ ('+' | '-')) = self.peek() {
                self.bump();
                text.push(sign);
            }
            text += &self.digits(10, false);
        }
        if matches!(self.peek(), Some('j' | 'J')) {
            return Err(err("complex literals are not supported in anyscript"));
        }
        if self.peek().is_some_and(is_id_continue) {
            return Err(err("invalid decimal literal"));
        }
        if is_float {
            let value: f64 = text.parse().map_err(|_| err("invalid float literal"))?;
            self.push(Tok::Float(value), at);
            return Ok(());
        }
        if text.len() > 1 && text.starts_with('0') && text.chars().any(|d| d != '0') {
            return Err(err(
                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
            ));
        }
        let value = int_value(&text, 10).ok_or_else(|| err("integer literal too large"))?;
        self.push(Tok::Int(value), at);
        Ok(())
    }

    fn exponent_follows(&self) -> bool {
        let digit_at = |n| self.peek_at(n).is_some_and(|d: char| d.is_ascii_digit());
        matches!(self.peek(), Some('e' | 'E'))
            && (digit_at(1) || (matches!(self.peek_at(1), Some('+' | '-')) && digit_at(2)))
    }

    fn radix_number(&mut self, at: (u32, u32)) -> crate::Result<()> {
        self.bump();
        let (radix, name) = match self.bump() {
            Some('x' | 'X') => (16, "hexadecimal"),
            Some('o' | 'O') => (8, "octal"),
            _ => (2, "binary"),
        };
        let digits = self.digits(radix, true);
        if digits.is_empty() || self.peek().is_some_and(is_id_continue) {
            return Err(syntax_error(at.0, at.1, format!("invalid {name} literal")));
        }
        let value = int_value(&digits, radix).ok_or_else(|| syntax_error(at.0, at.1, "integer literal too large"))?;
        self.push(Tok::Int(value), at);
        Ok(())
    }

    /// Reads digits of `radix` with single underscores between them (and, after a `0x` prefix, before them).
    fn digits(&mut self, radix: u32, leading_underscore: bool) -> String {
        let mut out = String::new();
        loop {
            match self.peek() {
                Some(c) if c.is_digit(radix) => out.push(c),
                Some('_')
                    if (leading_underscore || !out.is_empty())
                        && self.peek_at(1).is_some_and(|d| d.is_digit(radix)) => {}
                _ => return out,
            }
            self.bump();
        }
    }

    /// `\N{name}` in the body of a string literal that starts at `body` and ends at `quote`,
    /// after its `N`: the character named `name` (an alias too, in any case), or CPython's
    /// SyntaxError, which names the escape's bytes in the body.
    fn named_escape(&mut self, body: usize, quote: char, at: (u32, u32)) -> crate::Result<char> {
        let backslash = self.pos - 2;
        let error = |lexer: &Self, end: usize, problem: &str| {
            let byte = |i: usize| lexer.chars[body..i].iter().map(|c| c.len_utf8()).sum::<usize>();
            let (first, last) = (byte(backslash), byte(end) - 1);
            let message = format!(
                "(unicode error) 'unicodeescape' codec can't decode bytes in position {first}-{last}: {problem}"
            );
            syntax_error(at.0, at.1, message)
        };
        const MALFORMED: &str = "malformed \\N character escape";
        if self.peek() != Some('{') {
            return Err(error(self, self.pos, MALFORMED));
        }
        let from = self.pos + 1;
        let mut end = from;
        while self.chars.get(end).is_some_and(|&c| c != '}' && c != quote && c != '\n') {
            end += 1;
        }
        if self.chars.get(end) != Some(&'}') || end == from {
            return Err(error(self, end, MALFORMED));
        }
        let name: String = self.chars[from..end].iter().collect();
        match crate::ops::unicodedata_lookup::char_named(&name) {
            Some(c) => {
                self.pos = end + 1;
                Ok(c)
            }
            None => Err(error(self, end + 1, "unknown Unicode character name")),
        }
    }

    fn string(&mut self, at: (u32, u32), prefix: &str) -> crate::Result<()> {
        let prefix = prefix.to_ascii_lowercase();
        let bytes = prefix.contains('b');
        let raw = prefix.contains('r');
        if prefix.contains('f') {
            return self.f_string(at, raw);
        }
        let Some(quote) = self.bump() else { return Ok(()) };
        let triple = self.peek() == Some(quote) && self.peek_at(1) == Some(quote);
        if triple {
            self.pos += 2;
        }
        let unterminated = || {
            let kind = if triple { "triple-quoted string literal" } else { "string literal" };
            syntax_error(at.0, at.1, format!("unterminated {kind}"))
        };
        let mut out = String::new();
        let body = self.pos;
        loop {
            let escape_at = self.here();
            match self.bump() {
                None => return Err(unterminated()),
                Some(c) if c == quote => {
                    if !triple {
                        break;
                    }
                    if self.peek() == Some(quote) && self.peek_at(1) == Some(quote) {
                        self.pos += 2;
                        break;
                    }
                    out.push(c);
                }
                Some('\n') if !triple => return Err(unterminated()),
                Some('\\') => {
                    let Some(c) = self.bump() else { return Err(unterminated()) };
                    if raw || (bytes && matches!(c, 'u' | 'U' | 'N')) {
                        // A raw string keeps the backslash, which still stops the quote from ending
                        // it; bytes have no `\u`, `\U` or `\N` escapes and keep them as written.
                        out.push('\\');
                        out.push(c);
                    } else if c == 'N' {
                        out.push(self.named_escape(body, quote, escape_at)?);
                    } else {
                        self.escape(c, escape_at, &mut out)?;
                    }
                }
                Some(c) if bytes && !c.is_ascii() => {
                    let (line, col) = escape_at;
                    return Err(syntax_error(line, col, "bytes can only contain ASCII literal characters"));
                }
                Some(c) => out.push(c),
            }
        }
        if bytes {
            // Every character is ASCII or an escape's byte (`\xff`, `\377`: below U+0100, or an
            // octal escape past it, whose byte is its low eight bits as in CPython).
            self.push(Tok::Bytes(out.chars().map(|c| c as u32 as u8).collect()), at);
        } else {
            self.push(Tok::Str(out), at);
        }
        Ok(())
    }

    /// Resolves the escape `\c` (the backslash at `at`) into `out`.
    fn escape(&mut self, c: char, at: (u32, u32), out: &mut String) -> crate::Result<()> {
        let simple = match c {
            // A backslash before a newline continues the string on the next line.
            '\n' => return Ok(()),
            '\\' | '\'' | '"' => c,
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'a' => '\x07',
            'b' => '\x08',
            'f' => '\x0c',
            'v' => '\x0b',
            '0'..='7' => self.octal_escape(c),
            'x' => self.hex_escape(2, "\\xXX", at)?,
            'u' => self.hex_escape(4, "\\uXXXX", at)?,
            'U' => self.hex_escape(8, "\\UXXXXXXXX", at)?,
            'N' => return Err(syntax_error(at.0, at.1, "'\\N{...}' escapes are not supported in anyscript")),
            // Python keeps unknown escapes as written.
            _ => {
                out.push('\\');
                c
            }
        };
        out.push(simple);
        Ok(())
    }

    fn octal_escape(&mut self, first: char) -> char {
        let mut value = first.to_digit(8).unwrap_or(0);
        for _ in 0..2 {
            let Some(d) = self.peek().and_then(|d| d.to_digit(8)) else { break };
            self.bump();
            value = value * 8 + d;
        }
        // At most 0o777, always a valid scalar value.
        char::from_u32(value).unwrap_or('\u{fffd}')
    }

    fn hex_escape(&mut self, len: usize, form: &str, at: (u32, u32)) -> crate::Result<char> {
        let mut value = 0u32;
        for _ in 0..len {
            let Some(d) = self.peek().and_then(|d| d.to_digit(16)) else {
                return Err(syntax_error(at.0, at.1, format!("truncated {form} escape")));
            };
            self.bump();
            value = value * 16 + d;
        }
        char::from_u32(value).ok_or_else(|| {
            syntax_error(at.0, at.1, format!("invalid {form} escape: U+{value:04X} is not a Unicode scalar value"))
        })
    }
}

/// `text` (digits only) as an integer literal, or `None` past [`INT_LITERAL_MAX`].
fn int_value(text: &str, radix: u32) -> Option<u64> {
    u64::from_str_radix(text, radix).ok().filter(|&v| v <= INT_LITERAL_MAX)
}

/// Whether `word` is a string prefix Python accepts (`r`, `u`, `b`, `f`, `rb`, `fr`, ... in any case).
fn is_string_prefix(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    matches!(lower.as_str(), "r" | "u" | "b" | "f" | "rb" | "br" | "fr" | "rf")
}
