//! f-strings: `f"text {expr!r:spec} text"` read into text and fields, as Python 3.11 reads
//! them. A field's expression is tokenized here, its tokens placed where they stand in the
//! file; the parser turns the parts into calls of the built-ins (`builtins.format`, ...).

use super::{Lexer, Tok, Token, syntax_error, tokenize};

/// A piece of an f-string.
#[derive(Clone, Debug, PartialEq)]
pub enum FPart {
    /// Literal text, escapes resolved and `{{`/`}}` made single.
    Text(String),
    /// A replacement field `{expr=!conversion:spec}`.
    Field {
        /// The expression's tokens (wrapped in parentheses, ending with `End`), in file positions.
        expr: Vec<Token>,
        /// `r`, `s` or `a`.
        conversion: Option<char>,
        /// The format spec, itself text and fields, when a `:` was written.
        spec: Option<Vec<FPart>>,
        /// For `{x=}`: the text written before the value (`x=`).
        debug_text: Option<String>,
    },
}

/// How an f-string literal is quoted.
#[derive(Clone, Copy)]
struct Quoting {
    quote: char,
    triple: bool,
    raw: bool,
    /// Where the literal starts, for "unterminated" errors.
    at: (u32, u32),
}

impl Lexer {
    /// Reads an f-string from its opening quote and pushes it as one token.
    pub(super) fn f_string(&mut self, at: (u32, u32), raw: bool) -> crate::Result<()> {
        let Some(quote) = self.bump() else { return Ok(()) };
        let triple = self.peek() == Some(quote) && self.peek_at(1) == Some(quote);
        if triple {
            self.pos += 2;
        }
        let parts = self.f_parts(Quoting { quote, triple, raw, at }, 0)?;
        self.push(Tok::FStr(parts), at);
        Ok(())
    }

    fn unterminated(&self, q: Quoting) -> crate::Error {
        let kind = if q.triple { "triple-quoted f-string literal" } else { "f-string literal" };
        syntax_error(q.at.0, q.at.1, format!("unterminated {kind}"))
    }

    /// Whether the closing quote (all three of a triple quote) is under the cursor.
    fn at_closing_quote(&self, q: Quoting) -> bool {
        self.peek() == Some(q.quote)
            && (!q.triple || (self.peek_at(1) == Some(q.quote) && self.peek_at(2) == Some(q.quote)))
    }

    /// Text and fields up to the closing quote (`level` 0), or up to the `}` that closes a
    /// format spec (`level` 1, left for the field to read).
    fn f_parts(&mut self, q: Quoting, level: u32) -> crate::Result<Vec<FPart>> {
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            let here = self.here();
            match self.peek() {
                None => return Err(self.unterminated(q)),
                Some(_) if self.at_closing_quote(q) => {
                    if level > 0 {
                        return Err(syntax_error(here.0, here.1, "f-string: expecting '}'"));
                    }
                    self.pos += if q.triple { 3 } else { 1 };
                    break;
                }
                Some('\n') if !q.triple => return Err(self.unterminated(q)),
                Some('{') if level == 0 && self.peek_at(1) == Some('{') => {
                    self.pos += 2;
                    text.push('{');
                }
                Some('{') => {
                    self.bump();
                    if !text.is_empty() {
                        parts.push(FPart::Text(std::mem::take(&mut text)));
                    }
                    parts.push(self.f_field(q, level)?);
                }
                Some('}') if level > 0 => break,
                Some('}') if self.peek_at(1) == Some('}') => {
                    self.pos += 2;
                    text.push('}');
                }
                Some('}') => return Err(syntax_error(here.0, here.1, "f-string: single '}' is not allowed")),
                Some('\\') => {
                    self.bump();
                    let Some(c) = self.bump() else { return Err(self.unterminated(q)) };
                    if q.raw {
                        text.push('\\');
                        text.push(c);
                    } else {
                        self.escape(c, here, &mut text)?;
                    }
                }
                Some(c) => {
                    self.bump();
                    text.push(c);
                }
            }
        }
        if !text.is_empty() {
            parts.push(FPart::Text(text));
        }
        Ok(parts)
    }

    /// A field from just after its `{` through its `}`.
    fn f_field(&mut self, q: Quoting, level: u32) -> crate::Result<FPart> {
        let expr_at = self.here();
        let start = self.pos;
        let mut depth = 0usize;
        let mut debug = false;
        loop {
            let here = self.here();
            let Some(c) = self.peek() else { return Err(self.unterminated(q)) };
            let prev = (self.pos > start).then(|| self.chars[self.pos - 1]);
            match c {
                '\\' => {
                    return Err(syntax_error(here.0, here.1, "f-string expression part cannot include a backslash"));
                }
                '#' => return Err(syntax_error(here.0, here.1, "f-string expression part cannot include '#'")),
                '\n' if !q.triple => return Err(self.unterminated(q)),
                _ if self.at_closing_quote(q) || (c == q.quote && !q.triple) => {
                    return Err(syntax_error(here.0, here.1, "f-string: expecting '}'"));
                }
                // A string inside the expression, in another quote: skip it whole.
                '\'' | '"' => {
                    self.bump();
                    loop {
                        match self.bump() {
                            None => return Err(self.unterminated(q)),
                            Some('\n') if !q.triple => return Err(self.unterminated(q)),
                            Some(d) if d == c => break,
                            _ => {}
                        }
                    }
                    continue;
                }
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth > 0 => depth -= 1,
                '}' => break,
                '!' if depth == 0 && self.peek_at(1) != Some('=') => break,
                ':' if depth == 0 => break,
                '=' if depth == 0 && self.peek_at(1) != Some('=') && !matches!(prev, Some('=' | '!' | '<' | '>')) => {
                    debug = true;
                    break;
                }
                _ => {}
            }
            self.bump();
        }
        let source: String = self.chars[start..self.pos].iter().collect();
        if source.trim().is_empty() {
            return Err(syntax_error(expr_at.0, expr_at.1, "f-string: empty expression not allowed"));
        }
        let mut debug_text = None;
        if debug {
            self.bump();
            let spaces = self.pos;
            while matches!(self.peek(), Some(' ' | '\t')) {
                self.bump();
            }
            let after: String = self.chars[spaces..self.pos].iter().collect();
            debug_text = Some(format!("{source}={after}"));
        }
        let mut conversion = None;
        if self.peek() == Some('!') {
            self.bump();
            let here = self.here();
            match self.bump() {
                Some(c @ ('r' | 's' | 'a')) => conversion = Some(c),
                _ => {
                    let msg = "f-string: invalid conversion character: expected 's', 'r', or 'a'";
                    return Err(syntax_error(here.0, here.1, msg));
                }
            }
        }
        let mut spec = None;
        if self.peek() == Some(':') {
            self.bump();
            if level > 0 {
                return Err(syntax_error(expr_at.0, expr_at.1, "f-string: expressions nested too deeply"));
            }
            spec = Some(self.f_parts(q, level + 1)?);
        }
        let here = self.here();
        if self.peek() != Some('}') {
            return Err(syntax_error(here.0, here.1, "f-string: expecting '}'"));
        }
        self.bump();
        // `{x=}` shows the repr unless a conversion or a spec says otherwise.
        if debug_text.is_some() && conversion.is_none() && spec.is_none() {
            conversion = Some('r');
        }
        Ok(FPart::Field { expr: expression_tokens(&source, expr_at)?, conversion, spec, debug_text })
    }
}

/// The tokens of a field's expression, parenthesised as Python parses it (so it may span
/// lines and be a tuple), placed at `at` in the file. Errors point into the file too.
fn expression_tokens(source: &str, at: (u32, u32)) -> crate::Result<Vec<Token>> {
    // The opening parenthesis takes column 1 of the first line: the expression starts at 2.
    let place = |line: u32, col: u32| {
        if line == 1 { (at.0, (at.1 + col).saturating_sub(2)) } else { (at.0 + line - 1, col) }
    };
    let mut tokens = tokenize(&format!("({source})")).map_err(|e| {
        let msg = e.message();
        let moved = msg.strip_prefix("line ").and_then(|rest| {
            let (line, rest) = rest.split_once(", column ")?;
            let (col, text) = rest.split_once(": ")?;
            let (line, col) = place(line.parse().ok()?, col.parse().ok()?);
            Some(syntax_error(line, col, format!("f-string: {text}")))
        });
        moved.unwrap_or(e)
    })?;
    for t in &mut tokens {
        (t.line, t.col) = place(t.line, t.col);
    }
    Ok(tokens)
}
