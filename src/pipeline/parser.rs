//! The anyscript parser: recursive descent over [`super::lexer`] tokens, producing [`super::ast`].
//!
//! Statements follow Python's grammar; operators are parsed by precedence climbing
//! (Pratt style, one function for all levels) with Python's precedences. Anything
//! Python accepts that anyscript does not is rejected with a message naming the
//! construct, never parsed into something else. Nesting is
//! bounded (see [`MAX_DEPTH`]) so that hostile input cannot overflow the stack,
//! here or in later passes that walk the tree recursively.

use super::ast::{BinOp, BoolOp, CmpOp, Expr, FunctionDef, Literal, Module, ModuleConstant, StmtKind, Target};
use super::lexer::{Tok, Token, is_keyword, syntax_error, tokenize};

mod atoms;
mod compound;
mod def_params;
mod fstring;
mod operators;
mod raise_del;
mod statements;
mod target_lists;
mod trailers;

/// How deeply constructs may nest: brackets, unary operators, blocks, and links of operator, call,
/// attribute and subscript chains all count, since each adds a level to the tree.
pub const MAX_DEPTH: usize = 200;

/// Python keywords anyscript rejects wherever they appear.
const UNSUPPORTED_KEYWORDS: &[&str] = &["class", "with", "import", "from", "global", "async", "await"];

/// Parses a module of top-level `def`s.
pub fn parse_module(src: &str) -> crate::Result<Module> {
    Parser::new(src)?.module()
}

/// Parses a single expression (used for pipeline steps like `bert(text)` or `text.lower(x)`).
pub fn parse_expr(src: &str) -> crate::Result<Expr> {
    Parser::new(src)?.standalone_expr()
}

type Result<T> = crate::Result<T>;

struct Parser {
    /// Always ends with [`Tok::End`], which `bump` never moves past.
    toks: Vec<Token>,
    pos: usize,
    /// Current nesting, bounded by [`MAX_DEPTH`].
    depth: usize,
    /// Enclosing loops, for rejecting `break` and `continue` outside them.
    loops: usize,
    in_function: bool,
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Name(n) if is_keyword(n) => format!("'{n}'"),
        Tok::Name(n) => format!("name '{n}'"),
        Tok::Int(_) | Tok::Float(_) => "number".into(),
        Tok::Str(_) | Tok::FStr(_) => "string".into(),
        Tok::Bytes(_) => "bytes".into(),
        Tok::Op(op) => format!("'{op}'"),
        Tok::Newline => "end of line".into(),
        Tok::Indent => "indent".into(),
        Tok::Dedent => "dedent".into(),
        Tok::End => "end of input".into(),
    }
}

/// What CPython calls an expression of `e`'s kind in "cannot delete ..." errors.
fn expr_kind_name(e: &Expr) -> &'static str {
    match e {
        Expr::Const { value: Literal::None } => "None",
        Expr::Const { value: Literal::Bool(true) } => "True",
        Expr::Const { value: Literal::Bool(false) } => "False",
        Expr::Const { .. } => "literal",
        Expr::Name { .. } => "name",
        Expr::Attribute { .. } => "attribute",
        Expr::Subscript { .. } | Expr::Slice { .. } => "subscript",
        Expr::Call { .. } => "function call",
        Expr::BinOp { .. } | Expr::UnaryOp { .. } | Expr::BoolOp { .. } => "expression",
        Expr::Compare { .. } => "comparison",
        Expr::IfExp { .. } => "conditional expression",
        Expr::List { .. } => "list",
        Expr::Tuple { .. } => "tuple",
        Expr::Dict { .. } => "dict literal",
        Expr::Set { .. } => "set display",
        Expr::ListComp { .. } => "list comprehension",
        Expr::SetComp { .. } => "set comprehension",
        Expr::DictComp { .. } => "dict comprehension",
        Expr::GeneratorExp { .. } => "generator expression",
        Expr::Lambda { .. } => "lambda",
        Expr::Starred { .. } => "starred",
        Expr::Named { .. } => "named expression",
    }
}

fn not_supported(what: &str) -> String {
    format!("{what} not supported in anyscript")
}

// Binding powers, loosest first. A left-associative operator of power `p` parses its right
// operand at `p + 1`; the binary operators from `|` (5) to `*` (10) get theirs from `binary_op`.
const BP_OR: u8 = 1;
const BP_AND: u8 = 2;
const BP_NOT: u8 = 3;
const BP_CMP: u8 = 4;
const BP_UNARY: u8 = 11;
const BP_POW: u8 = 12;

/// An infix operator found by `Parser::infix_op`.
#[derive(Clone, Copy)]
enum Infix {
    Bool(BoolOp),
    Compare,
    Binary(BinOp, u8),
    Pow,
}

fn binary_op(tok: &Tok) -> Option<(BinOp, u8)> {
    let Tok::Op(op) = tok else { return None };
    Some(match *op {
        "|" => (BinOp::BitOr, 5),
        "^" => (BinOp::BitXor, 6),
        "&" => (BinOp::BitAnd, 7),
        "<<" => (BinOp::LShift, 8),
        ">>" => (BinOp::RShift, 8),
        "+" => (BinOp::Add, 9),
        "-" => (BinOp::Sub, 9),
        "*" => (BinOp::Mul, 10),
        "/" => (BinOp::Div, 10),
        "//" => (BinOp::FloorDiv, 10),
        "%" => (BinOp::Mod, 10),
        _ => return None,
    })
}

fn aug_assign_op(tok: &Tok) -> Option<BinOp> {
    let Tok::Op(op) = tok else { return None };
    Some(match *op {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "//=" => BinOp::FloorDiv,
        "%=" => BinOp::Mod,
        "**=" => BinOp::Pow,
        "&=" => BinOp::BitAnd,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "<<=" => BinOp::LShift,
        ">>=" => BinOp::RShift,
        _ => return None,
    })
}

fn single_compare_op(tok: &Tok) -> Option<CmpOp> {
    Some(match tok {
        Tok::Op("==") => CmpOp::Eq,
        Tok::Op("!=") => CmpOp::NotEq,
        Tok::Op("<") => CmpOp::Lt,
        Tok::Op("<=") => CmpOp::LtE,
        Tok::Op(">") => CmpOp::Gt,
        Tok::Op(">=") => CmpOp::GtE,
        Tok::Name(n) if n == "in" => CmpOp::In,
        Tok::Name(n) if n == "is" => CmpOp::Is,
        _ => return None,
    })
}

/// Whether `tok` can begin an expression (including ones rejected later with a precise message).
fn starts_expr(tok: &Tok) -> bool {
    match tok {
        Tok::Name(n) => {
            !is_keyword(n) || matches!(n.as_str(), "True" | "False" | "None" | "not" | "lambda" | "yield" | "await")
        }
        Tok::Int(_) | Tok::Float(_) | Tok::Str(_) | Tok::Bytes(_) | Tok::FStr(_) => true,
        Tok::Op(op) => matches!(*op, "(" | "[" | "{" | "-" | "+" | "~" | "*" | "..."),
        _ => false,
    }
}

impl Parser {
    fn new(src: &str) -> Result<Self> {
        Ok(Parser { toks: tokenize(src)?, pos: 0, depth: 0, loops: 0, in_function: false })
    }

    // ---- token access ----

    fn token(&self) -> &Token {
        &self.toks[self.pos]
    }

    fn peek(&self) -> &Tok {
        &self.token().tok
    }

    fn peek_nth(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    /// Moves past the current token (never past the final [`Tok::End`]).
    fn bump(&mut self) {
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
    }

    /// The current token, moving past it.
    fn take(&mut self) -> Token {
        let t = self.token().clone();
        self.bump();
        t
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n == kw)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let found = self.is_op(op);
        if found {
            self.bump();
        }
        found
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        let found = self.is_kw(kw);
        if found {
            self.bump();
        }
        found
    }

    fn expect_op(&mut self, op: &str, msg: &str) -> Result<()> {
        if self.eat_op(op) { Ok(()) } else { Err(self.error(msg)) }
    }

    fn expect_kw(&mut self, kw: &str, msg: &str) -> Result<()> {
        if self.eat_kw(kw) { Ok(()) } else { Err(self.error(msg)) }
    }

    /// The keyword or name under the cursor, if any.
    fn peek_word(&self) -> Option<String> {
        match self.peek() {
            Tok::Name(n) => Some(n.clone()),
            _ => None,
        }
    }

    fn at_statement_end(&self) -> bool {
        matches!(self.peek(), Tok::Newline | Tok::End | Tok::Dedent | Tok::Op(";"))
    }

    // ---- errors and nesting ----

    fn error_at(&self, t: &Token, msg: impl std::fmt::Display) -> crate::Error {
        syntax_error(t.line, t.col, msg)
    }

    fn error(&self, msg: impl std::fmt::Display) -> crate::Error {
        self.error_at(self.token(), msg)
    }

    /// The error for a token that cannot appear here, naming the construct when it is an unsupported one.
    fn unexpected(&self) -> crate::Error {
        let msg = match self.peek() {
            Tok::Indent => "unexpected indent".to_string(),
            Tok::Op(":=") => "invalid syntax: an assignment expression (':=') needs parentheses here".into(),
            Tok::Op("@" | "@=") => not_supported("the matrix multiplication operator '@' is"),
            Tok::Op("...") => not_supported("'...' (Ellipsis) is"),
            Tok::Name(n) if UNSUPPORTED_KEYWORDS.contains(&n.as_str()) => not_supported(&format!("'{n}' is")),
            tok => format!("invalid syntax: unexpected {}", describe(tok)),
        };
        self.error(msg)
    }

    #[cold]
    #[inline(never)]
    fn starred_error(&self) -> crate::Error {
        self.error(not_supported("starred expressions are"))
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH { Err(self.error("expression nested too deeply")) } else { Ok(()) }
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn enter_block(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH { Err(self.error("blocks nested too deeply")) } else { Ok(()) }
    }

    // ---- entry points ----

    fn module(mut self) -> Result<Module> {
        let (mut functions, mut constants) = (Vec::new(), Vec::new());
        loop {
            match self.peek() {
                Tok::End => return Ok(Module { functions, constants }),
                Tok::Newline => {
                    self.bump();
                }
                Tok::Indent => return Err(self.unexpected()),
                Tok::Name(n) if n == "def" => functions.push(self.function_def()?),
                _ => self.top_level_statement(&mut constants)?,
            }
        }
    }

    /// Accepts docstrings between functions and `NAME = value` (a module constant, whose
    /// value the compiler checks); any other top-level statement is an error.
    fn top_level_statement(&mut self, constants: &mut Vec<ModuleConstant>) -> Result<()> {
        let start = self.token().clone();
        let mut stmts = Vec::new();
        self.statement(&mut stmts)?;
        for s in stmts {
            match s.kind {
                StmtKind::Expr { value: Expr::Const { value: Literal::Str(_) } } => {}
                StmtKind::Assign { targets, value } if matches!(targets[..], [Target::Name { .. }]) => {
                    if let Some(Target::Name { id }) = targets.into_iter().next() {
                        constants.push(ModuleConstant { name: id, value, line: s.line });
                    }
                }
                _ => {
                    return Err(self.error_at(
                        &start,
                        "only function definitions ('def') and constants ('NAME = value') are allowed at the top \
                         level of a module",
                    ));
                }
            }
        }
        Ok(())
    }

    fn standalone_expr(mut self) -> Result<Expr> {
        // Leading whitespace makes an INDENT; like Python's `eval`, ignore it.
        while matches!(self.peek(), Tok::Newline | Tok::Indent) {
            self.bump();
        }
        let expr = self.testlist()?;
        while matches!(self.peek(), Tok::Newline | Tok::Dedent) {
            self.bump();
        }
        if *self.peek() != Tok::End {
            return Err(self.unexpected());
        }
        Ok(expr)
    }

    // ---- definitions and blocks ----

    fn function_def(&mut self) -> Result<FunctionDef> {
        let def = self.take();
        let name = self.identifier("expected a function name after 'def'")?;
        self.expect_op("(", "expected '(' after the function name")?;
        let def_params::DefParams { params, defaults, extra } = self.def_params()?;
        if self.is_op("->") {
            return Err(self.error(not_supported("return annotations are")));
        }
        self.expect_op(":", "expected ':' after the function signature")?;
        // A nested function's body is a function of its own: the loops around its `def` are
        // not around its statements.
        let outer = (self.in_function, self.loops);
        self.in_function = true;
        self.loops = 0;
        let body = self.block("function definition", def.line)?;
        (self.in_function, self.loops) = outer;
        Ok(FunctionDef { name, params, defaults, extra, body, line: def.line })
    }

    fn identifier(&mut self, msg: &str) -> Result<String> {
        match self.peek() {
            Tok::Name(n) if !is_keyword(n) => {
                let n = n.clone();
                self.bump();
                Ok(n)
            }
            _ => Err(self.error(msg)),
        }
    }

    /// A lambda's parameter's name; the other kinds of parameter are refused here.
    fn param_name(&mut self) -> Result<String> {
        let unsupported = match self.peek() {
            Tok::Op("*") if matches!(self.peek_nth(1), Tok::Op("," | ")" | ":")) => {
                Some("keyword-only parameters (after a bare '*') are")
            }
            Tok::Op("*") => Some("'*args' parameters are"),
            Tok::Op("**") => Some("'**kwargs' parameters are"),
            Tok::Op("/") => Some("positional-only parameters ('/') are"),
            _ => None,
        };
        if let Some(what) = unsupported {
            return Err(self.error(not_supported(what)));
        }
        self.identifier("expected a parameter name")
    }

    /// Appends `name`, read at `at`, to `params` unless it is already there.
    fn push_param(&self, params: &mut Vec<String>, name: String, at: &Token) -> Result<()> {
        if params.contains(&name) {
            return Err(self.error_at(at, format!("duplicate parameter '{name}' in function definition")));
        }
        params.push(name);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
