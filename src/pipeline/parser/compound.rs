//! Compound statements: `if`/`elif`/`else`, `while`, `for`, their `else:` blocks, and
//! `try`/`except`/`finally`.

use super::super::ast::{ExceptHandler, Stmt, StmtKind};
use super::super::lexer::{Tok, Token, is_keyword};
use super::{Parser, Result, binary_op, not_supported, single_compare_op, starts_expr};

impl Parser {
    /// `if`/`elif` chains, built bottom-up so a long chain costs no recursion here.
    pub(super) fn if_statement(&mut self) -> Result<StmtKind> {
        let mut clauses = Vec::new();
        loop {
            let head = self.take();
            let word = if matches!(&head.tok, Tok::Name(n) if n == "if") { "if" } else { "elif" };
            let test = self.named_test()?;
            self.expect_op(":", &format!("expected ':' after {word} condition"))?;
            let body = self.block(&format!("'{word}' statement"), head.line)?;
            clauses.push((head.line, test, body));
            if !self.is_kw("elif") {
                break;
            }
            // Each elif nests one level deeper in the tree.
            self.enter()?;
        }
        let mut orelse = self.else_block()?;
        let (_, test, body) = clauses.remove(0);
        self.depth -= clauses.len();
        for (line, test, body) in clauses.into_iter().rev() {
            orelse = vec![Stmt { line, kind: StmtKind::If { test, body, orelse } }];
        }
        Ok(StmtKind::If { test, body, orelse })
    }

    pub(super) fn while_statement(&mut self) -> Result<StmtKind> {
        let head = self.take();
        let test = self.named_test()?;
        self.expect_op(":", "expected ':' after while condition")?;
        let body = self.loop_body("'while' statement", head.line)?;
        let orelse = self.else_block()?;
        Ok(StmtKind::While { test, body, orelse })
    }

    pub(super) fn for_statement(&mut self) -> Result<StmtKind> {
        let head = self.take();
        let target = self.target_list()?;
        self.expect_kw("in", "expected 'in' after the for loop target")?;
        let iter = self.testlist()?;
        self.expect_op(":", "expected ':' after for loop header")?;
        let body = self.loop_body("'for' statement", head.line)?;
        let orelse = self.else_block()?;
        Ok(StmtKind::For { target, iter, body, orelse })
    }

    fn loop_body(&mut self, header: &str, line: u32) -> Result<Vec<Stmt>> {
        self.loops += 1;
        let body = self.block(header, line)?;
        self.loops -= 1;
        Ok(body)
    }

    /// The `else:` block that may follow an `if`, a loop or a `try`'s clauses; empty without one.
    fn else_block(&mut self) -> Result<Vec<Stmt>> {
        if !self.is_kw("else") {
            return Ok(Vec::new());
        }
        let head = self.take();
        self.expect_op(":", "expected ':' after 'else'")?;
        self.block("'else' statement", head.line)
    }

    /// `try:` with `except` clauses, an optional `else:` and an optional `finally:` (at least one
    /// clause or the `finally:`); `except*` is refused.
    pub(super) fn try_statement(&mut self) -> Result<StmtKind> {
        let head = self.take();
        self.expect_op(":", "expected ':' after 'try'")?;
        let body = self.block("'try' statement", head.line)?;
        let mut handlers = Vec::new();
        let mut bare: Option<Token> = None;
        while self.is_kw("except") {
            if let Some(bare) = &bare {
                return Err(self.error_at(bare, "default 'except:' must be last"));
            }
            let at = self.token().clone();
            let handler = self.except_clause()?;
            if handler.types.is_empty() {
                bare = Some(at);
            }
            handlers.push(handler);
        }
        if handlers.is_empty() && !self.is_kw("finally") {
            return Err(self.error("expected 'except' or 'finally' block"));
        }
        // As in Python, `else:` needs an `except` clause before it.
        let orelse = if handlers.is_empty() { Vec::new() } else { self.else_block()? };
        let finalbody = match self.is_kw("finally") {
            true => {
                let head = self.take();
                self.expect_op(":", "expected ':' after 'finally'")?;
                self.block("'finally' statement", head.line)?
            }
            false => Vec::new(),
        };
        Ok(StmtKind::Try { body, handlers, orelse, finalbody })
    }

    /// `except [types ['as' NAME]] ':' block`, on `except`.
    fn except_clause(&mut self) -> Result<ExceptHandler> {
        let head = self.take();
        if self.is_op("*") {
            return Err(self.error_at(&head, not_supported("'except*' (exception groups) is")));
        }
        let mut types = Vec::new();
        let mut name = None;
        if !matches!(self.peek(), Tok::Op(":") | Tok::Newline) {
            let at = self.token().clone();
            self.except_types(&mut types)?;
            if self.is_op(",") {
                return Err(self.error_at(&at, "multiple exception types must be parenthesized"));
            }
            if self.eat_kw("as") {
                name = Some(self.identifier("expected a name after 'as'")?);
            }
        }
        self.expect_op(":", "expected ':' after except clause")?;
        let body = self.block("'except' statement", head.line)?;
        Ok(ExceptHandler { line: head.line, types, name, body })
    }

    /// An exception name, or a parenthesised tuple of them (nested ones flattened), appended to `types`.
    fn except_types(&mut self, types: &mut Vec<String>) -> Result<()> {
        let at = self.token().clone();
        match &at.tok {
            Tok::Name(n) if !is_keyword(n) => {
                let mut name = n.clone();
                self.bump();
                // A module's class (`json.JSONDecodeError`): the dotted name.
                while self.eat_op(".") {
                    match &self.token().tok {
                        Tok::Name(attr) if !is_keyword(attr) => name = format!("{name}.{attr}"),
                        _ => return Err(self.unexpected()),
                    }
                    self.bump();
                }
                types.push(name);
            }
            Tok::Op("(") => {
                self.enter()?;
                self.bump();
                let before = types.len();
                while !self.eat_op(")") {
                    self.except_types(types)?;
                    if !self.eat_op(",") {
                        self.expect_op(")", "expected ',' or ')' in a tuple")?;
                        break;
                    }
                }
                self.leave();
                if types.len() == before {
                    let what = "catching an empty tuple of exception types (which catches nothing) is";
                    return Err(self.error_at(&at, not_supported(what)));
                }
            }
            tok if starts_expr(tok) => return Err(self.except_type_error(&at)),
            _ => return Err(self.unexpected()),
        }
        // A name or group that is only the start of a longer expression: `a.b`, `f()`, `A or B`.
        let tok = self.peek();
        let continues = matches!(tok, Tok::Op("." | "(" | "[" | "**" | "@" | ":="))
            || matches!(tok, Tok::Name(n) if matches!(n.as_str(), "if" | "and" | "or" | "not"))
            || binary_op(tok).is_some()
            || single_compare_op(tok).is_some();
        if continues {
            return Err(self.except_type_error(&at));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn except_type_error(&self, at: &Token) -> crate::Error {
        let what = "catching anything but an exception name or a parenthesised tuple of them \
                    (except (ValueError, KeyError):) is";
        self.error_at(at, not_supported(what))
    }
}
