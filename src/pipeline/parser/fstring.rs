//! String literals and f-strings side by side, concatenated as Python concatenates them.
//!
//! An f-string becomes what CPython computes: `f"a{x}b{y!r:>{w}}"` is
//! `"a" + builtins.str(x) + "b" + builtins.format(builtins.repr(y), builtins.str(w))`
//! (`builtins.` reaches the built-ins whatever the function's locals are called), the same
//! lowering as `anyproc.script`'s.

use super::super::ast::{BinOp, Expr, Literal};
use super::super::lexer::{FPart, Tok, Token};
use super::{Parser, Result};

/// `builtins.name(args)`.
fn builtin_call(name: &str, args: Vec<Expr>) -> Expr {
    let builtins = Box::new(Expr::Name { id: "builtins".into() });
    Expr::Call { func: Box::new(Expr::Attribute { value: builtins, attr: name.into() }), args, keywords: Vec::new() }
}

fn text(s: String) -> Expr {
    Expr::Const { value: Literal::Str(s) }
}

/// The str made of `parts`, each a str: `""`, the part itself, or the parts added from left
/// to right (their join; a short result stays inline, with no list or heap string on the way).
fn joined(parts: Vec<Expr>) -> Expr {
    let mut parts = parts.into_iter();
    let first = parts.next().unwrap_or_else(|| text(String::new()));
    parts.fold(first, |left, right| Expr::BinOp { op: BinOp::Add, left: Box::new(left), right: Box::new(right) })
}

/// Parts being collected, with adjacent text merged.
#[derive(Default)]
struct Pieces {
    parts: Vec<Expr>,
    text: String,
}

impl Pieces {
    fn flush(&mut self) {
        if !self.text.is_empty() {
            self.parts.push(text(std::mem::take(&mut self.text)));
        }
    }

    fn finish(mut self) -> Expr {
        self.flush();
        joined(self.parts)
    }
}

impl Parser {
    /// Adjacent string literals and f-strings: a constant when there is no f-string among them.
    pub(super) fn string_literals(&mut self) -> Result<Expr> {
        let mut pieces = Pieces::default();
        let mut formatted = false;
        loop {
            match self.peek() {
                Tok::Str(s) => pieces.text.push_str(s),
                Tok::Bytes(_) => return Err(self.error("cannot mix bytes and nonbytes literals")),
                Tok::FStr(parts) => {
                    formatted = true;
                    let parts = parts.clone();
                    self.f_parts(&parts, &mut pieces)?;
                }
                _ => break,
            }
            self.bump();
        }
        if !formatted {
            return Ok(text(pieces.text));
        }
        Ok(pieces.finish())
    }

    /// Adjacent bytes literals: one constant.
    pub(super) fn bytes_literals(&mut self) -> Result<Expr> {
        let mut all = Vec::new();
        loop {
            match self.peek() {
                Tok::Bytes(b) => all.extend_from_slice(b),
                Tok::Str(_) | Tok::FStr(_) => return Err(self.error("cannot mix bytes and nonbytes literals")),
                _ => break,
            }
            self.bump();
        }
        Ok(Expr::Const { value: Literal::Bytes(all) })
    }

    fn f_parts(&mut self, parts: &[FPart], pieces: &mut Pieces) -> Result<()> {
        for part in parts {
            match part {
                FPart::Text(s) => pieces.text.push_str(s),
                FPart::Field { expr, conversion, spec, debug_text } => {
                    if let Some(d) = debug_text {
                        pieces.text.push_str(d);
                    }
                    pieces.flush();
                    let mut value = self.field_expression(expr)?;
                    if let Some(c) = conversion {
                        let name = match c {
                            'r' => "repr",
                            'a' => "ascii",
                            _ => "str",
                        };
                        value = builtin_call(name, vec![value]);
                    }
                    let field = match spec {
                        None if conversion.is_some() => value,
                        None => builtin_call("str", vec![value]),
                        Some(spec) => {
                            let mut spec_pieces = Pieces::default();
                            self.f_parts(spec, &mut spec_pieces)?;
                            builtin_call("format", vec![value, spec_pieces.finish()])
                        }
                    };
                    pieces.parts.push(field);
                }
            }
        }
        Ok(())
    }

    /// Parses a field's expression tokens with this parser's nesting budget.
    fn field_expression(&mut self, tokens: &[Token]) -> Result<Expr> {
        // The field ends at the lambda's `:`, which would make a puzzling error about its parameters. The
        // tokens are wrapped in parentheses: the field's own come after the first.
        if let Some(t) = tokens.get(1).filter(|t| matches!(&t.tok, Tok::Name(n) if n == "lambda")) {
            return Err(self.error_at(t, "f-string: lambda expressions are not allowed without parentheses"));
        }
        let mut sub =
            Parser { toks: tokens.to_vec(), pos: 0, depth: self.depth, loops: 0, in_function: self.in_function };
        sub.enter()?;
        sub.standalone_expr()
    }
}
