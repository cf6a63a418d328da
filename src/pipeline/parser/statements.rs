//! Statements: blocks, the simple statements of one line, expression statements and assignments with their
//! targets.

use super::super::ast::{Expr, Literal, Stmt, StmtKind, Target};
use super::super::lexer::{Tok, Token, is_keyword};
use super::{Parser, Result, UNSUPPORTED_KEYWORDS, aug_assign_op, not_supported};

impl Parser {
    /// The body after a `:`: an indented block, or simple statements on the same line.
    pub(super) fn block(&mut self, header: &str, header_line: u32) -> Result<Vec<Stmt>> {
        let mut body = Vec::new();
        if *self.peek() != Tok::Newline {
            self.simple_statements(&mut body)?;
            return Ok(body);
        }
        self.bump();
        if *self.peek() != Tok::Indent {
            return Err(self.error(format!("expected an indented block after {header} on line {header_line}")));
        }
        self.enter_block()?;
        self.bump();
        loop {
            match self.peek() {
                Tok::Dedent => {
                    self.bump();
                    break;
                }
                Tok::End => break,
                _ => self.statement(&mut body)?,
            }
        }
        self.leave();
        Ok(body)
    }

    /// Parses one line's worth of statements into `out`.
    pub(super) fn statement(&mut self, out: &mut Vec<Stmt>) -> Result<()> {
        let line = self.token().line;
        let kind = match self.peek_word().as_deref() {
            Some("if") => self.if_statement()?,
            Some("while") => self.while_statement()?,
            Some("for") => self.for_statement()?,
            Some("try") => self.try_statement()?,
            Some("def") => StmtKind::Def { function: Box::new(self.function_def()?) },
            _ if self.is_op("@") => return Err(self.error(not_supported("decorators are"))),
            _ if *self.peek() == Tok::Indent => return Err(self.unexpected()),
            _ => return self.simple_statements(out),
        };
        out.push(Stmt { line, kind });
        Ok(())
    }

    /// `simple (';' simple)* [';'] NEWLINE`.
    fn simple_statements(&mut self, out: &mut Vec<Stmt>) -> Result<()> {
        loop {
            out.push(self.simple_statement()?);
            if !self.eat_op(";") || matches!(self.peek(), Tok::Newline | Tok::End) {
                break;
            }
        }
        match self.peek() {
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            Tok::End => Ok(()),
            _ => Err(self.unexpected()),
        }
    }

    fn simple_statement(&mut self) -> Result<Stmt> {
        let line = self.token().line;
        let kind = match self.peek_word().as_deref() {
            Some("pass") => {
                self.bump();
                StmtKind::Pass
            }
            Some(word @ ("break" | "continue")) => {
                if self.loops == 0 {
                    return Err(self.error(format!("'{word}' outside loop")));
                }
                self.bump();
                if word == "break" { StmtKind::Break } else { StmtKind::Continue }
            }
            Some("return") => self.return_statement()?,
            Some("yield") => self.yield_statement()?,
            Some("raise") => self.raise_statement()?,
            Some("assert") => self.assert_statement()?,
            Some("del") => self.del_statement()?,
            Some("nonlocal") => self.nonlocal_statement()?,
            Some(word @ ("if" | "while" | "for" | "def" | "elif" | "else" | "try" | "except" | "finally")) => {
                return Err(self.error(format!("invalid syntax: '{word}' cannot appear here")));
            }
            Some(word) if UNSUPPORTED_KEYWORDS.contains(&word) => return Err(self.unexpected()),
            _ => self.expression_statement()?,
        };
        Ok(Stmt { line, kind })
    }

    /// `nonlocal name (',' name)*`.
    fn nonlocal_statement(&mut self) -> Result<StmtKind> {
        self.bump();
        let mut names = Vec::new();
        loop {
            match self.peek() {
                Tok::Name(n) if !is_keyword(n) => {
                    names.push(n.clone());
                    self.bump();
                }
                _ => return Err(self.error("expected a name after 'nonlocal'")),
            }
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(StmtKind::Nonlocal { names })
    }

    fn return_statement(&mut self) -> Result<StmtKind> {
        if !self.in_function {
            return Err(self.error("'return' outside function"));
        }
        self.bump();
        let value = if self.at_statement_end() { None } else { Some(self.testlist()?) };
        Ok(StmtKind::Return { value })
    }

    /// `yield [testlist]` or `yield from test`, as a statement (a yield whose value is used,
    /// `x = yield`, is refused where the expression would start).
    fn yield_statement(&mut self) -> Result<StmtKind> {
        if !self.in_function {
            return Err(self.error("'yield' outside function"));
        }
        self.bump();
        if self.is_kw("from") {
            self.bump();
            return Ok(StmtKind::YieldFrom { value: self.test()? });
        }
        let value = if self.at_statement_end() { None } else { Some(self.testlist()?) };
        Ok(StmtKind::Yield { value })
    }

    /// An expression statement, an assignment or an augmented assignment.
    fn expression_statement(&mut self) -> Result<StmtKind> {
        let first_at = self.token().clone();
        let (first, star) = self.target_testlist()?;
        if let Some(star) = star.filter(|_| !self.is_op("=")) {
            return Err(self.error_at(&star, not_supported("starred expressions are")));
        }
        if self.is_op("=") {
            let mut exprs = vec![(first, first_at)];
            while self.eat_op("=") {
                let at = self.token().clone();
                exprs.push((self.testlist()?, at));
            }
            let value = exprs.pop().map(|(e, _)| e).unwrap_or(Expr::Const { value: Literal::None });
            let targets = exprs.into_iter().map(|(e, at)| self.target(e, &at)).collect::<Result<_>>()?;
            return Ok(StmtKind::Assign { targets, value });
        }
        if let Some(op) = aug_assign_op(self.peek()) {
            let target = match first {
                Expr::Tuple { .. } | Expr::List { .. } => {
                    return Err(self.error_at(&first_at, "illegal target for augmented assignment"));
                }
                e => self.target(e, &first_at)?,
            };
            self.bump();
            let value = self.testlist()?;
            return Ok(StmtKind::AugAssign { target, op, value });
        }
        if self.is_op(":") {
            return Err(self.error(not_supported("variable annotations are")));
        }
        Ok(StmtKind::Expr { value: first })
    }

    /// Converts an expression on the left of `=` (or after `for`) into a target.
    pub(super) fn target(&self, e: Expr, at: &Token) -> Result<Target> {
        let msg = match e {
            Expr::Name { id } => return Ok(Target::Name { id }),
            Expr::Subscript { value, index } => return Ok(Target::Subscript { value: *value, index: *index }),
            Expr::Tuple { items } | Expr::List { items } => {
                if items.iter().filter(|i| matches!(i, Expr::Starred { .. })).count() > 1 {
                    return Err(self.error_at(at, "multiple starred expressions in assignment"));
                }
                let item = |i: Expr| match i {
                    Expr::Starred { value } => Ok(Target::Starred { value: Box::new(self.target(*value, at)?) }),
                    i => self.target(i, at),
                };
                let items = items.into_iter().map(item).collect::<Result<_>>()?;
                return Ok(Target::Tuple { items });
            }
            Expr::Starred { .. } => "starred assignment target must be in a list or tuple".into(),
            Expr::Attribute { .. } => not_supported("assignment to attributes is"),
            Expr::Slice { value, lower, upper, step } => {
                return Ok(Target::Slice { value, lower, upper, step });
            }
            Expr::Call { .. } => "cannot assign to function call".into(),
            Expr::Lambda { .. } => "cannot assign to lambda".into(),
            Expr::Const { .. } => "cannot assign to literal".into(),
            _ => "cannot assign to expression".into(),
        };
        Err(self.error_at(at, msg))
    }
}
