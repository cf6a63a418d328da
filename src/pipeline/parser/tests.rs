use super::super::ast::{CompFor, DOUBLE_STAR, ExceptHandler, Keyword, Stmt};
use super::*;

/// A compact prefix rendering of an expression, so precedence tests read at a glance.
fn show(e: &Expr) -> String {
    let list = |items: &[Expr]| items.iter().map(show).collect::<Vec<_>>().join(" ");
    let opt = |e: &Option<Box<Expr>>| e.as_deref().map_or("_".to_string(), show);
    match e {
        Expr::Const { value } => match value {
            Literal::None => "None".into(),
            Literal::Bool(b) => if *b { "True" } else { "False" }.into(),
            Literal::Int(i) => i.to_string(),
            Literal::Float(f) => format!("{f:?}"),
            Literal::Str(s) => format!("{s:?}"),
            Literal::Bytes(b) => format!("b{b:?}"),
        },
        Expr::Name { id } => id.clone(),
        Expr::Attribute { value, attr } => format!("(. {} {attr})", show(value)),
        Expr::Call { func, args, keywords } => {
            let kws: String = keywords.iter().map(|k| format!(" {}={}", k.arg, show(&k.value))).collect();
            format!("(call {} [{}]{kws})", show(func), list(args))
        }
        Expr::BinOp { op, left, right } => format!("({} {} {})", op.symbol(), show(left), show(right)),
        Expr::UnaryOp { op, operand } => format!("({op:?} {})", show(operand)),
        Expr::BoolOp { op, values } => format!("({op:?} {})", list(values)),
        Expr::Compare { left, ops, comparators } => {
            let rest: Vec<String> =
                ops.iter().zip(comparators).map(|(o, c)| format!("{} {}", o.symbol(), show(c))).collect();
            format!("(cmp {} {})", show(left), rest.join(" "))
        }
        Expr::IfExp { test, body, orelse } => format!("(ifexp {} {} {})", show(test), show(body), show(orelse)),
        Expr::List { items } => format!("[{}]", list(items)),
        Expr::Tuple { items } => format!("(tuple {})", list(items)),
        Expr::Dict { keys, values } => {
            let pairs: Vec<String> = keys
                .iter()
                .zip(values)
                .map(|(k, v)| match k {
                    Some(k) => format!("{}: {}", show(k), show(v)),
                    None => format!("(** {})", show(v)),
                })
                .collect();
            format!("{{{}}}", pairs.join(", "))
        }
        Expr::Subscript { value, index } => format!("(idx {} {})", show(value), show(index)),
        Expr::Slice { value, lower, upper, step } => {
            format!("(slice {} {} {} {})", show(value), opt(lower), opt(upper), opt(step))
        }
        Expr::ListComp { elt, target, iter, ifs, more } => {
            format!("(comp {} {} {} [{}]{})", show(elt), show_target(target), show(iter), list(ifs), clauses(more))
        }
        Expr::DictComp { key, value, target, iter, ifs, more } => {
            let (key, value, target) = (show(key), show(value), show_target(target));
            format!("(dictcomp {key}: {value} {target} {} [{}]{})", show(iter), list(ifs), clauses(more))
        }
        Expr::GeneratorExp { elt, target, iter, ifs, more } => {
            format!("(genexp {} {} {} [{}]{})", show(elt), show_target(target), show(iter), list(ifs), clauses(more))
        }
        Expr::Set { items } => format!("(set {})", list(items)),
        Expr::SetComp { elt, target, iter, ifs, more } => {
            format!("(setcomp {} {} {} [{}]{})", show(elt), show_target(target), show(iter), list(ifs), clauses(more))
        }
        Expr::Lambda { params, body, .. } => format!("(lambda [{}] {})", params.join(" "), show(body)),
        Expr::Starred { value } => format!("(star {})", show(value)),
        Expr::Named { target, value } => format!("(:= {target} {})", show(value)),
    }
}

/// A comprehension's `for` clauses after its first, each as ` (for target iter [ifs])`.
fn clauses(more: &[CompFor]) -> String {
    let list = |xs: &[Expr]| xs.iter().map(show).collect::<Vec<_>>().join(" ");
    more.iter().map(|c| format!(" (for {} {} [{}])", show_target(&c.target), show(&c.iter), list(&c.ifs))).collect()
}

fn show_target(t: &Target) -> String {
    match t {
        Target::Name { id } => id.clone(),
        Target::Subscript { value, index } => format!("(idx {} {})", show(value), show(index)),
        Target::Slice { value, lower, upper, step } => {
            let opt = |b: &Option<Box<Expr>>| b.as_deref().map_or("_".to_string(), show);
            format!("(slice {} {} {} {})", show(value), opt(lower), opt(upper), opt(step))
        }
        Target::Tuple { items } => {
            format!("(tuple {})", items.iter().map(show_target).collect::<Vec<_>>().join(" "))
        }
        Target::Starred { value } => format!("(star {})", show_target(value)),
    }
}

fn expr(src: &str) -> String {
    show(&parse_expr(src).unwrap_or_else(|e| panic!("{src:?}: {e}")))
}

fn expr_err(src: &str) -> String {
    parse_expr(src).expect_err(src).to_string()
}

#[test]
fn module_constants() {
    let m = parse_module("STOP = {'a', 'b'}\n\ndef f(x):\n    return x in STOP\nN = -1\n").unwrap();
    let names: Vec<(&str, u32)> = m.constants.iter().map(|c| (c.name.as_str(), c.line)).collect();
    assert_eq!(names, [("STOP", 1), ("N", 5)]);
    assert_eq!(show(&m.constants[0].value), "(set \"a\" \"b\")");
}

fn module_err(src: &str) -> String {
    let e = parse_module(src).expect_err(src);
    assert_eq!(e.kind(), crate::ErrorKind::Parse);
    e.to_string()
}

/// The body of the single function in `src`.
fn body(src: &str) -> Vec<Stmt> {
    let m = parse_module(src).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    assert_eq!(m.functions.len(), 1);
    m.functions.into_iter().next().map(|f| f.body).unwrap_or_default()
}

/// The statements of `lines`, wrapped in a function (each line indented by 4).
fn stmts(lines: &str) -> Vec<Stmt> {
    let src: String = lines.lines().map(|l| format!("    {l}\n")).collect();
    body(&format!("def f(x):\n{src}"))
}

fn stmt(line: &str) -> StmtKind {
    let mut s = stmts(line);
    assert_eq!(s.len(), 1, "{line}");
    s.remove(0).kind
}

fn name(id: &str) -> Expr {
    Expr::Name { id: id.into() }
}

fn int(i: i64) -> Expr {
    Expr::Const { value: Literal::Int(i) }
}

fn target(id: &str) -> Target {
    Target::Name { id: id.into() }
}

fn call(func: Expr, args: Vec<Expr>) -> Expr {
    Expr::Call { func: boxed(func), args, keywords: Vec::new() }
}

#[test]
fn precedence() {
    assert_eq!(expr("-2**2"), "(Neg (** 2 2))");
    assert_eq!(expr("2**-1"), "(** 2 (Neg 1))");
    assert_eq!(expr("2**3**2"), "(** 2 (** 3 2))");
    assert_eq!(expr("1+2*3"), "(+ 1 (* 2 3))");
    assert_eq!(expr("1-2-3"), "(- (- 1 2) 3)");
    assert_eq!(expr("(1+2)*3"), "(* (+ 1 2) 3)");
    assert_eq!(expr("a // b % c"), "(% (// a b) c)");
    assert_eq!(expr("not a == b"), "(Not (cmp a == b))");
    assert_eq!(expr("a or b and c"), "(Or a (And b c))");
    assert_eq!(expr("a and b or c and d or e"), "(Or (And a b) (And c d) e)");
    assert_eq!(expr("not not a"), "(Not (Not a))");
    assert_eq!(expr("a < b < c"), "(cmp a < b < c)");
    assert_eq!(expr("a in b not in c is d is not e"), "(cmp a in b not in c is d is not e)");
    assert_eq!(expr("a == b != c <= d >= e > f"), "(cmp a == b != c <= d >= e > f)");
    assert_eq!(expr("a | b ^ c & d << e + f"), "(| a (^ b (& c (<< d (+ e f)))))");
    assert_eq!(expr("a >> 1 << 2"), "(<< (>> a 1) 2)");
    assert_eq!(expr("~a + -b * +c"), "(+ (Invert a) (* (Neg b) (Pos c)))");
    assert_eq!(expr("a if b else c if d else e"), "(ifexp b a (ifexp d c e))");
    assert_eq!(expr("a or b if c and d else e"), "(ifexp (And c d) (Or a b) e)");
    assert_eq!(expr("x + 1 < y * 2 and z"), "(And (cmp (+ x 1) < (* y 2)) z)");
    assert_eq!(expr("-x.y[0](1)**2"), "(Neg (** (call (idx (. x y) 0) [1]) 2))");
}

#[test]
fn primaries_and_displays() {
    assert_eq!(expr("bert(text)"), "(call bert [text])");
    assert_eq!(expr("text.lower(x)"), "(call (. text lower) [x])");
    assert_eq!(expr("f(a, b,)"), "(call f [a b])");
    assert_eq!(expr("f()"), "(call f [])");
    assert_eq!(expr("a[i]"), "(idx a i)");
    assert_eq!(expr("a[i, j]"), "(idx a (tuple i j))");
    assert_eq!(expr("a[i:j]"), "(slice a i j _)");
    assert_eq!(expr("a[::2]"), "(slice a _ _ 2)");
    assert_eq!(expr("a[:]"), "(slice a _ _ _)");
    assert_eq!(expr("a[1:]"), "(slice a 1 _ _)");
    assert_eq!(expr("a[:-1]"), "(slice a _ (Neg 1) _)");
    assert_eq!(expr("a[::]"), "(slice a _ _ _)");
    assert_eq!(expr("a[1:2:3]"), "(slice a 1 2 3)");
    assert_eq!(expr("[]"), "[]");
    assert_eq!(expr("[1, 2,]"), "[1 2]");
    assert_eq!(expr("()"), "(tuple )");
    assert_eq!(expr("(a,)"), "(tuple a)");
    assert_eq!(expr("(a, b)"), "(tuple a b)");
    assert_eq!(expr("(a)"), "a");
    assert_eq!(expr("a, b"), "(tuple a b)");
    assert_eq!(expr("{}"), "{}");
    assert_eq!(expr("{'a': 1, b: [2],}"), "{\"a\": 1, b: [2]}");
    assert_eq!(expr("[c for c in s]"), "(comp c c s [])");
    assert_eq!(expr("[k for k, v in d.items() if v if k]"), "(comp k (tuple k v) (call (. d items) []) [v k])");
    assert_eq!(expr("[a if b else c for x in y]"), "(comp (ifexp b a c) x y [])");
    assert_eq!(expr("True, False, None"), "(tuple True False None)");
    assert_eq!(expr("  f(\n  a,\n b)\n"), "(call f [a b])");
}

#[test]
fn comprehensions() {
    assert_eq!(expr("{c: 1 for c in s}"), "(dictcomp c: 1 c s [])");
    assert_eq!(
        expr("{v: k for k, v in d.items() if v if k}"),
        "(dictcomp v: k (tuple k v) (call (. d items) []) [v k])"
    );
    assert_eq!(expr("{k: v if a else b for (k, v), w in y}"), "(dictcomp k: (ifexp a v b) (tuple (tuple k v) w) y [])");
    assert_eq!(expr("{lambda: k: lambda: v for k in y}"), "(dictcomp (lambda [] k): (lambda [] v) k y [])");
    assert_eq!(
        expr("{k: [v for v in k] for k in {j: i for i, j in x}}"),
        "(dictcomp k: (comp v v k []) k (dictcomp j: i (tuple i j) x []) [])"
    );
    assert_eq!(expr("(c for c in s)"), "(genexp c c s [])");
    assert_eq!(expr("(k for k, v in d.items() if v if k)"), "(genexp k (tuple k v) (call (. d items) []) [v k])");
    assert_eq!(expr("(a if b else c for x, in y)"), "(genexp (ifexp b a c) (tuple x) y [])");
    assert_eq!(expr("(lambda: x for x in y)"), "(genexp (lambda [] x) x y [])");
    assert_eq!(expr("(x for x in a or b if not x)"), "(genexp x x (Or a b) [(Not x)])");
    assert_eq!(expr("(x for x in (y for y in z))"), "(genexp x x (genexp y y z []) [])");
    assert_eq!(expr("(x for x in y)[0]"), "(idx (genexp x x y []) 0)");
    // Bare, as a call's sole argument; parenthesised anywhere.
    assert_eq!(expr("sum(x for x in y)"), "(call sum [(genexp x x y [])])");
    assert_eq!(expr("sum(x for x in y if x)"), "(call sum [(genexp x x y [x])])");
    assert_eq!(expr("sum((x for x in y))"), expr("sum(x for x in y)"));
    assert_eq!(expr("f(\n  x\n  for x in y\n)"), "(call f [(genexp x x y [])])");
    assert_eq!(expr("f(x for x in y)(z for z in w)"), "(call (call f [(genexp x x y [])]) [(genexp z z w [])])");
    assert_eq!(expr("sorted((x for x in y), key=len)"), "(call sorted [(genexp x x y [])] key=len)");
    assert_eq!(expr("f(1, (x for x in y))"), "(call f [1 (genexp x x y [])])");
    assert_eq!(expr("any(x in s for s in ss)"), "(call any [(genexp (cmp x in s) s ss [])])");
    assert_eq!(expr("f'{x for x in y}'"), expr("builtins.str((x for x in y))"));
    assert_eq!(
        parse_expr("(x for x in y if x)").unwrap(),
        Expr::GeneratorExp {
            elt: boxed(name("x")),
            target: Box::new(target("x")),
            iter: boxed(name("y")),
            ifs: vec![name("x")],
            more: Vec::new(),
        }
    );
    assert_eq!(
        parse_expr("{x: 1 for x in y}").unwrap(),
        Expr::DictComp {
            key: boxed(name("x")),
            value: boxed(int(1)),
            target: Box::new(target("x")),
            iter: boxed(name("y")),
            ifs: Vec::new(),
            more: Vec::new(),
        }
    );
    let StmtKind::Return { value: Some(v) } = stmt("return {k: v for k, v in x}") else { panic!() };
    assert_eq!(show(&v), "(dictcomp k: v (tuple k v) x [])");
    // Later `for` clauses nest in order, each with its own conditions.
    assert_eq!(
        expr("[c for w in ws if w for c in w if c != 1 if c for _ in r]"),
        "(comp c w ws [w] (for c w [(cmp c != 1) c]) (for _ r []))"
    );
    assert_eq!(expr("f(x for y in z for x in y)"), "(call f [(genexp x y z [] (for x y []))])");
}

#[test]
fn comprehension_errors() {
    let cases: &[(&str, &str)] = &[
        // CPython 3.11's messages and positions: a bare generator must be a call's only argument.
        ("f(x for x in y, 1)", "line 1, column 3: Generator expression must be parenthesized"),
        ("f(1, x for x in y)", "line 1, column 6: Generator expression must be parenthesized"),
        ("f(x for x in y, k=1)", "line 1, column 3: Generator expression must be parenthesized"),
        ("f(k=1, x for x in y)", "line 1, column 8: Generator expression must be parenthesized"),
        ("f(x for x in y,)", "line 1, column 3: Generator expression must be parenthesized"),
        ("f(a, b for b in c, d)", "line 1, column 6: Generator expression must be parenthesized"),
        ("f(1, 2, x for x in y)", "line 1, column 9: Generator expression must be parenthesized"),
        ("f(x for x in y, x for x in y)", "line 1, column 3: Generator expression must be parenthesized"),
        ("f(x for x in y,\n 1)", "line 1, column 3: Generator expression must be parenthesized"),
        ("f(a, x\n  for x in y)", "line 1, column 6: Generator expression must be parenthesized"),
        // With an argument before it, whatever follows the generator.
        ("f(1, x for x in y z)", "line 1, column 6: Generator expression must be parenthesized"),
        ("f(1, x for x in y if a else b)", "line 1, column 6: Generator expression must be parenthesized"),
        ("f(1, x for x in y for z in w)", "line 1, column 6: Generator expression must be parenthesized"),
        ("f(x=1 for x in y)", "line 1, column 3: invalid syntax. Maybe you meant '==' or ':=' instead of '='?"),
        ("f(x for x in y z)", "line 1, column 16: invalid syntax: unexpected name 'z'"),
        ("f(x for x in y if a else b)", "line 1, column 21: invalid syntax: unexpected 'else'"),
        ("f(x for in y)", "line 1, column 9: expected an expression, found 'in'"),
        ("f(x for x in)", "line 1, column 13: expected an expression, found ')'"),
        ("f(*x for x in y)", "line 1, column 3: iterable unpacking cannot be used in comprehension"),
        // A later `for` clause is read like the first.
        ("f(x for x in y for z in w, 1)", "line 1, column 3: Generator expression must be parenthesized"),
        ("(x for x in y for z w)", "line 1, column 21: expected 'in' after the comprehension target"),
        ("[x for x in y if a for z in w if]", "line 1, column 33: expected an expression, found ']'"),
        // Parenthesised generators.
        ("(x for x in y if a else b)", "line 1, column 20: invalid syntax: unexpected 'else'"),
        ("(x for x in lambda: y)", "line 1, column 13: expected an expression, found 'lambda'"),
        ("(x for x in y if lambda: 1)", "line 1, column 18: expected an expression, found 'lambda'"),
        ("(x for x in y,)", "line 1, column 14: invalid syntax: unexpected ','"),
        ("(x for x in y, z)", "line 1, column 14: invalid syntax: unexpected ','"),
        ("(x for x in y z)", "line 1, column 15: invalid syntax: unexpected name 'z'"),
        ("(x for x in y if)", "line 1, column 17: expected an expression, found ')'"),
        ("(x for x y)", "line 1, column 10: expected 'in' after the comprehension target"),
        ("(x for 1 in y)", "line 1, column 8: cannot assign to literal"),
        ("(x for f() in y)", "line 1, column 8: cannot assign to function call"),
        ("(x for x in *y)", "line 1, column 13: expected an expression, found '*'"),
        ("(*x for x in y)", "line 1, column 2: iterable unpacking cannot be used in comprehension"),
        ("[*x for x in y]", "line 1, column 2: iterable unpacking cannot be used in comprehension"),
        ("{*x for x in y}", "line 1, column 2: iterable unpacking cannot be used in comprehension"),
        ("(*x)", "line 1, column 2: cannot use starred expression here"),
        ("{*x: 1}", "line 1, column 4: expected ',' or '}' in a set"),
        ("(x, y for y in z)", "line 1, column 7: expected ',' or ')' in a tuple"),
        ("(x for x in y", "line 1, column 1: '(' was never closed"),
        // Dict comprehensions.
        ("{k: v for k in y if a else b}", "line 1, column 23: invalid syntax: unexpected 'else'"),
        ("{k: v for k in y, 2}", "line 1, column 17: invalid syntax: unexpected ','"),
        ("{k: v for k in y,}", "line 1, column 17: invalid syntax: unexpected ','"),
        ("{k: v for k in y z}", "line 1, column 18: invalid syntax: unexpected name 'z'"),
        ("{k: v for k in}", "line 1, column 15: expected an expression, found '}'"),
        ("{k: v for}", "line 1, column 10: expected an expression, found '}'"),
        ("{k: v for k y}", "line 1, column 13: expected 'in' after the comprehension target"),
        ("{k: v for f() in y}", "line 1, column 11: cannot assign to function call"),
        ("{k: v, a: b for a in c}", "line 1, column 13: expected ',' or '}' in a dict"),
        ("{**x for x in y}", "line 1, column 2: dict unpacking cannot be used in dict comprehension"),
    ];
    for (src, msg) in cases {
        assert_eq!(&expr_err(src), msg, "{src:?}");
    }
}

#[test]
fn numbers() {
    assert_eq!(expr("0x_ff + 0o17 + 0b101 + 1_000 + 00"), "(+ (+ (+ (+ 255 15) 5) 1000) 0)");
    assert_eq!(expr("1.5, 1e3, .5, 5., 1_0.2_5e-1_0, 2E+2"), "(tuple 1.5 1000.0 0.5 5.0 1.025e-9 200.0)");
    assert_eq!(expr("9223372036854775807"), "9223372036854775807");
    assert_eq!(expr("-9223372036854775808"), "-9223372036854775808");
    assert!(expr_err("9223372036854775808").contains("integer literal too large"));
    assert!(expr_err("-9223372036854775808 ** 2").contains("integer literal too large"));
    assert!(expr_err("99999999999999999999999").contains("line 1, column 1: integer literal too large"));
    assert!(expr_err("0x1_0000_0000_0000_0000").contains("integer literal too large"));
    assert!(expr_err("012").contains("leading zeros"));
    assert!(expr_err("1_").contains("invalid decimal literal"));
    assert!(expr_err("1__0").contains("invalid decimal literal"));
    assert!(expr_err("1e").contains("invalid decimal literal"));
    assert!(expr_err("0x").contains("invalid hexadecimal literal"));
    assert!(expr_err("0o8").contains("invalid octal literal"));
    assert!(expr_err("0b12").contains("invalid binary literal"));
    assert!(expr_err("3j").contains("complex literals are not supported"));
}

#[test]
fn strings() {
    assert_eq!(expr(r#"'a\n\t\r\\\'\"\0'"#), r#""a\n\t\r\\'\"\0""#);
    assert_eq!(expr(r"'\x41\u00e9\U0001F600\101\z'"), "\"Aé😀A\\\\z\"");
    assert_eq!(expr(r"r'\n\'' + R'\d+'"), r#"(+ "\\n\\'" "\\d+")"#);
    assert_eq!(expr("'a' \"b\"\n"), "\"ab\"");
    assert_eq!(expr("('a'\n 'b')"), "\"ab\"");
    assert_eq!(expr("'''x\n'y'\"\"'''"), "\"x\\n'y'\\\"\\\"\"");
    assert_eq!(expr("\"\"\"a\"\"\""), "\"a\"");
    assert_eq!(expr("'ab\\\ncd'"), "\"abcd\"");
    assert_eq!(expr("u'x'"), "\"x\"");
    assert_eq!(expr("'é' + \"\""), "(+ \"é\" \"\")");
    assert!(expr_err("'abc").contains("line 1, column 1: unterminated string literal"));
    assert!(expr_err("x = 'abc\n'").contains("unterminated string"));
    assert!(expr_err("'''abc\n\n").contains("unterminated triple-quoted string literal"));
    // Expected: CPython's bytes for the same literals.
    assert_eq!(expr("b'x\\xff' B\"\\n\""), "b[120, 255, 10]");
    assert_eq!(expr("Rb'\\d'"), "b[92, 100]");
    assert!(expr_err("b'x' 'y'").contains("cannot mix bytes and nonbytes literals"));
    // A bytes literal after a comma continues a tuple, as any other literal does (it was
    // "unexpected bytes").
    let tuple = |line: &str| match stmt(line) {
        StmtKind::Return { value: Some(e) } => show(&e),
        other => panic!("{other:?}"),
    };
    assert_eq!(tuple("return x, b'y'"), tuple("return (x, b'y')"));
    assert_eq!(stmt("a, b = b'x', b'y'"), stmt("a, b = (b'x', b'y')"));
    assert!(expr_err(r"'\x4'").contains("truncated \\xXX escape"));
    assert!(expr_err(r"'\ud800'").contains("line 1, column 2: invalid \\uXXXX escape"));
    // Expected: CPython 3.11's SyntaxError for the same literal.
    let unknown = "'unicodeescape' codec can't decode bytes in position 0-7: unknown Unicode character name";
    assert!(expr_err(r"'\N{DASH}'").contains(unknown));
}

#[test]
fn f_strings_lower_to_builtin_calls() {
    // What CPython computes for each f-string, written as the calls it lowers to.
    let same = |f: &str, lowered: &str| assert_eq!(expr(f), expr(lowered), "{f}");
    same("f'a{x}b'", "'a' + builtins.str(x) + 'b'");
    same("f'{x!r:>{w}}'", "builtins.format(builtins.repr(x), '>' + builtins.str(w))");
    same("f'{x=}'", "'x=' + builtins.repr(x)");
    same("f'{x = :>3}'", "'x = ' + builtins.format(x, '>3')");
    same("f'{{}}' 'a' f'{x}}}'", "'{}a' + builtins.str(x) + '}'");
    same("f''", "''");
    same("f'{x!a}'", "builtins.ascii(x)");
    same("f'{x!s:}'", "builtins.format(builtins.str(x), '')");
    same("f'{a, b}'", "builtins.str((a, b))");
    same("f'{d[\"k\"]:{n}.{p}}'", "builtins.format(d['k'], builtins.str(n) + '.' + builtins.str(p))");
    same("f'{a != b}{a == b}{a <= b}'", "builtins.str(a != b) + builtins.str(a == b) + builtins.str(a <= b)");
    same(r"rf'\d{x}\n'", r"'\\d' + builtins.str(x) + '\\n'");
    same(r"f'\t{x}\x41'", r"'\t' + builtins.str(x) + 'A'");
    same("f'''{x\n + 1}'''", "builtins.str(x + 1)");
    same("f'{f\"{x}\"}'", "builtins.str(builtins.str(x))");
    same("f'{(lambda: x)}{g(lambda y: y)}'", "builtins.str((lambda: x)) + builtins.str(g(lambda y: y))");
}

#[test]
fn f_string_errors_point_into_the_file() {
    let cases: &[(&str, &str)] = &[
        ("f'{}'", "line 1, column 4: f-string: empty expression not allowed"),
        ("f'{x!z}'", "line 1, column 6: f-string: invalid conversion character: expected 's', 'r', or 'a'"),
        ("f'{x'", "line 1, column 5: f-string: expecting '}'"),
        ("f'}'", "line 1, column 3: f-string: single '}' is not allowed"),
        ("f'{x:{y:{z}}}'", "line 1, column 7: f-string: expressions nested too deeply"),
        (r"f'{a\nb}'", "line 1, column 5: f-string expression part cannot include a backslash"),
        ("f'{x #}'", "line 1, column 6: f-string expression part cannot include '#'"),
        ("f'abc", "line 1, column 1: unterminated f-string literal"),
        ("x + f'{1 +}'", "line 1, column 11: expected an expression, found ')'"),
        ("f'{x $}'", "line 1, column 6: f-string: invalid character '$' (U+0024)"),
        ("f'{lambda x: 1}'", "line 1, column 4: f-string: lambda expressions are not allowed without parentheses"),
        ("f'{ lambda: 1}'", "line 1, column 5: f-string: lambda expressions are not allowed without parentheses"),
    ];
    for (src, want) in cases {
        let got = expr_err(src);
        assert!(got.contains(want), "{src}: {got}");
    }
}

#[test]
fn the_reference_function() {
    let src = "def unicode_split_any(word):\n    ret = []\n    for i in range(len(word)):\n        res = word[i]\n        ret.append(res)\n    return ret\n";
    let m = parse_module(src).unwrap();
    let body = vec![
        Stmt { line: 2, kind: StmtKind::Assign { targets: vec![target("ret")], value: Expr::List { items: vec![] } } },
        Stmt {
            line: 3,
            kind: StmtKind::For {
                target: target("i"),
                iter: call(name("range"), vec![call(name("len"), vec![name("word")])]),
                body: vec![
                    Stmt {
                        line: 4,
                        kind: StmtKind::Assign {
                            targets: vec![target("res")],
                            value: Expr::Subscript { value: boxed(name("word")), index: boxed(name("i")) },
                        },
                    },
                    Stmt {
                        line: 5,
                        kind: StmtKind::Expr {
                            value: call(
                                Expr::Attribute { value: boxed(name("ret")), attr: "append".into() },
                                vec![name("res")],
                            ),
                        },
                    },
                ],
                orelse: Vec::new(),
            },
        },
        Stmt { line: 6, kind: StmtKind::Return { value: Some(name("ret")) } },
    ];
    let expected = FunctionDef {
        name: "unicode_split_any".into(),
        params: vec!["word".into()],
        defaults: Vec::new(),
        extra: Default::default(),
        body,
        line: 1,
    };
    assert_eq!(m, Module { functions: vec![expected], constants: Vec::new() });
}

#[test]
fn assignments() {
    let StmtKind::Assign { targets, value } = stmt("a = b = 1") else { panic!() };
    assert_eq!(targets, vec![target("a"), target("b")]);
    assert_eq!(value, int(1));
    let StmtKind::Assign { targets, value } = stmt("a, b = x") else { panic!() };
    assert_eq!(targets, vec![Target::Tuple { items: vec![target("a"), target("b")] }]);
    assert_eq!(value, name("x"));
    let StmtKind::Assign { targets, .. } = stmt("(a, [b, c]) = x") else { panic!() };
    let inner = Target::Tuple { items: vec![target("b"), target("c")] };
    assert_eq!(targets, vec![Target::Tuple { items: vec![target("a"), inner] }]);
    let StmtKind::Assign { targets, .. } = stmt("d[k] = v") else { panic!() };
    assert_eq!(targets, vec![Target::Subscript { value: name("d"), index: name("k") }]);
    let StmtKind::Assign { value, .. } = stmt("t = 1, 2") else { panic!() };
    assert_eq!(show(&value), "(tuple 1 2)");
    let ops = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="];
    for op in ops {
        let StmtKind::AugAssign { target: t, op: parsed, value } = stmt(&format!("d[0] {op} 2")) else { panic!() };
        assert_eq!(t, Target::Subscript { value: name("d"), index: int(0) });
        assert_eq!(format!("{}=", parsed.symbol()), op);
        assert_eq!(value, int(2));
    }
}

#[test]
fn simple_statements() {
    assert_eq!(stmt("pass"), StmtKind::Pass);
    assert_eq!(stmt("nonlocal a, b"), StmtKind::Nonlocal { names: vec!["a".into(), "b".into()] });
    assert_eq!(stmt("return"), StmtKind::Return { value: None });
    let StmtKind::Return { value: Some(v) } = stmt("return a, b") else { panic!() };
    assert_eq!(show(&v), "(tuple a b)");
    assert_eq!(
        stmt("'''docstring'''"),
        StmtKind::Expr { value: Expr::Const { value: Literal::Str("docstring".into()) } }
    );
    let s = stmts("a = 1; b = 2;\nc = 3");
    assert_eq!(s.iter().map(|s| s.line).collect::<Vec<_>>(), vec![2, 2, 3]);
    let loops = stmts("while True:\n    break\nfor a in b:\n    if a: continue");
    let StmtKind::While { test, body, .. } = &loops[0].kind else { panic!() };
    assert_eq!((show(test), body.as_slice()), ("True".into(), &[Stmt { line: 3, kind: StmtKind::Break }][..]));
    let StmtKind::For { body, .. } = &loops[1].kind else { panic!() };
    let StmtKind::If { body, orelse, .. } = &body[0].kind else { panic!() };
    assert_eq!((body[0].kind.clone(), orelse.len()), (StmtKind::Continue, 0));
}

/// The error for `line` as the body of a function; columns count from 5.
fn stmt_err(line: &str) -> String {
    module_err(&format!("def f(x):\n    {line}"))
}

#[test]
fn raise_statements() {
    let raise = |line: &str| match stmt(line) {
        StmtKind::Raise { exc, value, .. } => format!("{exc} {}", value.as_ref().map_or("-".into(), show)),
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(raise("raise ValueError('bad')"), "ValueError \"bad\"");
    assert_eq!(raise("raise KeyError(k + 1)"), "KeyError (+ k 1)");
    assert_eq!(raise("raise ValueError()"), "ValueError -");
    assert_eq!(raise("raise ValueError"), "ValueError -");
    assert_eq!(raise("raise NotAnError(x,)"), " (call NotAnError [x])");
    assert_eq!(raise("raise (KeyError)((a, b))"), "KeyError (tuple a b)");
    assert_eq!(raise("raise KeyError(c for c in x)"), "KeyError (genexp c c x [])");
    let s = stmts("if x: raise ValueError(1); raise KeyError\nraise TypeError");
    let StmtKind::If { body, .. } = &s[0].kind else { panic!() };
    assert_eq!(body.len(), 2);
    assert_eq!(body[1], Stmt { line: 2, kind: StmtKind::Raise { exc: "KeyError".into(), value: None, cause: None } });
    assert_eq!(s[1], Stmt { line: 3, kind: StmtKind::Raise { exc: "TypeError".into(), value: None, cause: None } });
}

#[test]
fn raise_errors() {
    // Columns count from the statement's indent of 4 in `stmt_err`'s function.
    let cases: &[(&str, &str)] = &[
        (
            "raise KeyError(a, b)",
            "line 2, column 23: raising an exception with more than one argument is not supported in anyscript",
        ),
        (
            "raise KeyError((a, b), [c, d], e)",
            "line 2, column 28: raising an exception with more than one argument is not supported in anyscript",
        ),
        (
            "raise KeyError(lambda a, b: a, c)",
            "line 2, column 36: raising an exception with more than one argument is not supported in anyscript",
        ),
        (
            "raise (KeyError)(a, b)",
            "line 2, column 25: raising an exception with more than one argument is not supported in anyscript",
        ),
        ("raise KeyError(a, k=1)", "line 2, column 23: keyword arguments in 'raise' are not supported in anyscript"),
        ("raise KeyError(k=1)", "line 2, column 20: keyword arguments in 'raise' are not supported in anyscript"),
        (
            "raise KeyError(f(a, b), k=1)",
            "line 2, column 29: keyword arguments in 'raise' are not supported in anyscript",
        ),
        ("raise KeyError(*a)", "line 2, column 20: starred arguments in 'raise' are not supported in anyscript"),
    ];
    for (line, msg) in cases {
        assert_eq!(&stmt_err(line), msg, "{line:?}");
    }
    assert_eq!(stmt_err("raise E, 'm'"), "line 2, column 12: invalid syntax: unexpected ','");
    assert_eq!(stmt_err("x = raise E"), "line 2, column 9: expected an expression, found 'raise'");
    assert_eq!(stmt_err("raise E(1"), "line 2, column 12: '(' was never closed");
    assert_eq!(stmt_err("raise E from"), "line 2, column 17: expected an expression, found end of line");
}

#[test]
fn raise_of_a_value_and_from() {
    let raise = |src: &str| match stmt(src) {
        StmtKind::Raise { exc, value, cause } => (exc, value.map(|v| show(&v)), cause.map(|c| show(&c))),
        other => panic!("{other:?}"),
    };
    assert_eq!(raise("raise e"), ("".into(), Some(expr("e")), None));
    assert_eq!(raise("raise errors[0] from None"), ("".into(), Some(expr("errors[0]")), Some("None".into())));
    assert_eq!(raise("raise ValueError(m) from e"), ("ValueError".into(), Some(expr("m")), Some(expr("e"))));
    assert_eq!(raise("raise f(a, b)"), ("".into(), Some(expr("f(a, b)")), None));
}

#[test]
fn assert_statements() {
    let StmtKind::Assert { test, msg: None } = stmt("assert x > 0") else { panic!() };
    assert_eq!(show(&test), "(cmp x > 0)");
    let StmtKind::Assert { test, msg: Some(msg) } = stmt("assert a and b, 'bad: ' + str(a)") else { panic!() };
    assert_eq!((show(&test), show(&msg)), ("(And a b)".into(), "(+ \"bad: \" (call str [a]))".into()));
    let StmtKind::Assert { test, msg: Some(msg) } = stmt("assert (a, b), (c, d)") else { panic!() };
    assert_eq!((show(&test), show(&msg)), ("(tuple a b)".into(), "(tuple c d)".into()));
    let StmtKind::Assert { test, .. } = stmt("assert lambda: x, x if x else y") else { panic!() };
    assert_eq!(show(&test), "(lambda [] x)");
    let s = stmts("while x: assert x; x -= 1");
    let StmtKind::While { body, .. } = &s[0].kind else { panic!() };
    assert!(matches!(
        &body[..],
        [Stmt { kind: StmtKind::Assert { .. }, .. }, Stmt { kind: StmtKind::AugAssign { .. }, .. }]
    ));
    let cases: &[(&str, &str)] = &[
        ("assert", "line 2, column 11: expected an expression, found end of line"),
        ("assert x,", "line 2, column 14: expected an expression, found end of line"),
        ("assert x, y, z", "line 2, column 16: invalid syntax: unexpected ','"),
        ("assert *x", "line 2, column 12: starred expressions are not supported in anyscript"),
        ("assert x = 1", "line 2, column 14: invalid syntax: unexpected '='"),
    ];
    for (line, msg) in cases {
        assert_eq!(&stmt_err(line), msg, "{line:?}");
    }
}

#[test]
fn del_statements() {
    let del = |line: &str| match stmt(line) {
        StmtKind::Delete { targets } => targets.iter().map(show_target).collect::<Vec<_>>().join(" | "),
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(del("del d[k]"), "(idx d k)");
    assert_eq!(del("del d[k], xs[0]"), "(idx d k) | (idx xs 0)");
    assert_eq!(del("del d[k], xs[0],"), "(idx d k) | (idx xs 0)");
    assert_eq!(del("del x"), "x");
    assert_eq!(del("del (x)"), "x");
    assert_eq!(del("del ((x))"), "x");
    assert_eq!(del("del (a, b[0])"), "(tuple a (idx b 0))");
    assert_eq!(del("del (a,)"), "(tuple a)");
    assert_eq!(del("del [a]"), "(tuple a)");
    assert_eq!(del("del [a, (b, [c[1]],)], d"), "(tuple a (tuple b (tuple (idx c 1)))) | d");
    assert_eq!(del("del (), []"), "(tuple ) | (tuple )");
    assert_eq!(
        del("del (a)[0], (a, b)[0], f(x)[y][z]"),
        "(idx a 0) | (idx (tuple a b) 0) | (idx (idx (call f [x]) y) z)"
    );
    assert_eq!(del("del d[1, 2]"), "(idx d (tuple 1 2))");
    let s = stmts("for k in x: del x[k]; del y[k]\ndel z");
    let StmtKind::For { body, .. } = &s[0].kind else { panic!() };
    assert_eq!(body.len(), 2);
    assert_eq!(s[1], Stmt { line: 3, kind: StmtKind::Delete { targets: vec![target("z")] } });
}

#[test]
fn del_errors() {
    // CPython 3.11's messages and positions: the innermost expression that cannot be deleted.
    let cases: &[(&str, &str)] = &[
        ("del f()", "line 2, column 9: cannot delete function call"),
        ("del 1", "line 2, column 9: cannot delete literal"),
        ("del 'a'", "line 2, column 9: cannot delete literal"),
        ("del f'{x}'", "line 2, column 9: cannot delete f-string expression"),
        ("del 'a' f'{x}'", "line 2, column 9: cannot delete f-string expression"),
        ("del None", "line 2, column 9: cannot delete None"),
        ("del True, a", "line 2, column 9: cannot delete True"),
        ("del a, False", "line 2, column 12: cannot delete False"),
        ("del a + b", "line 2, column 9: cannot delete expression"),
        ("del -a", "line 2, column 9: cannot delete expression"),
        ("del not a", "line 2, column 9: cannot delete expression"),
        ("del a and b", "line 2, column 9: cannot delete expression"),
        ("del (a) + 1", "line 2, column 9: cannot delete expression"),
        ("del a == b", "line 2, column 9: cannot delete comparison"),
        ("del a if b else c, d", "line 2, column 9: cannot delete conditional expression"),
        ("del lambda: x", "line 2, column 9: cannot delete lambda"),
        ("del {}", "line 2, column 9: cannot delete dict literal"),
        ("del {a: 1}", "line 2, column 9: cannot delete dict literal"),
        ("del [x for x in y]", "line 2, column 9: cannot delete list comprehension"),
        ("del (x for x in y)", "line 2, column 9: cannot delete generator expression"),
        ("del (f() for x in y)", "line 2, column 9: cannot delete generator expression"),
        ("del {k: v for k in y}", "line 2, column 9: cannot delete dict comprehension"),
        ("del a, f()", "line 2, column 12: cannot delete function call"),
        ("del (f())", "line 2, column 10: cannot delete function call"),
        ("del ((f()))", "line 2, column 11: cannot delete function call"),
        ("del (a, f())", "line 2, column 13: cannot delete function call"),
        ("del [a, 1]", "line 2, column 13: cannot delete literal"),
        ("del [a, (b, f())]", "line 2, column 17: cannot delete function call"),
        ("del (lambda: x)", "line 2, column 10: cannot delete lambda"),
        ("del *a", "line 2, column 9: cannot delete starred"),
        ("del [a, *b]", "line 2, column 13: cannot delete starred"),
        ("del (*a,)", "line 2, column 10: cannot delete starred"),
        ("del a.b", "line 2, column 9: deleting attributes is not supported in anyscript"),
        ("del a, (b.c,)", "line 2, column 13: deleting attributes is not supported in anyscript"),
        ("del", "line 2, column 8: expected a target after 'del'"),
        ("del; x = 1", "line 2, column 8: expected a target after 'del'"),
        ("del x,,", "line 2, column 11: expected an expression, found ','"),
        ("del a, b = 1", "line 2, column 14: invalid syntax: unexpected '='"),
        ("del (a b)", "line 2, column 12: expected ',' or ')' in a tuple"),
        ("del [a b]", "line 2, column 12: expected ',' or ']' in a list"),
        ("del (a := 1)", "line 2, column 12: invalid syntax: an assignment expression (':=') needs parentheses here"),
        ("x = del a", "line 2, column 9: expected an expression, found 'del'"),
    ];
    for (line, msg) in cases {
        assert_eq!(&stmt_err(line), msg, "{line:?}");
    }
}

#[test]
fn for_targets() {
    let StmtKind::For { target: t, iter, .. } = stmt("for k, v in d.items(): pass") else { panic!() };
    assert_eq!(t, Target::Tuple { items: vec![target("k"), target("v")] });
    assert_eq!(show(&iter), "(call (. d items) [])");
    let StmtKind::For { target: t, iter, .. } = stmt("for (i, x), y in a, b:\n    pass") else { panic!() };
    assert_eq!(show_target(&t), "(tuple (tuple i x) y)");
    assert_eq!(show(&iter), "(tuple a b)");
    let StmtKind::For { target: t, .. } = stmt("for x[0] in y: pass") else { panic!() };
    assert_eq!(show_target(&t), "(idx x 0)");
}

#[test]
fn if_elif_else() {
    let src = "if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    pass\nelse:\n    x = 3";
    let s = stmts(src);
    assert_eq!(s.len(), 1);
    let StmtKind::If { test, body, orelse } = &s[0].kind else { panic!() };
    assert_eq!((show(test), s[0].line, body.len()), ("a".into(), 2, 1));
    // Each elif is a single If, on its own line, in the orelse of the one before.
    let [Stmt { line: 4, kind: StmtKind::If { test, orelse, .. } }] = &orelse[..] else { panic!("{orelse:?}") };
    assert_eq!(show(test), "b");
    let Stmt { line: 6, kind: StmtKind::If { test, orelse, .. } } = &orelse[0] else { panic!("{orelse:?}") };
    assert_eq!(show(test), "c");
    assert!(matches!(&orelse[..], [Stmt { line: 9, kind: StmtKind::Assign { .. } }]));
}

fn handler(line: u32, types: &[&str], name: Option<&str>, body: Vec<Stmt>) -> ExceptHandler {
    ExceptHandler { line, types: types.iter().map(|t| t.to_string()).collect(), name: name.map(Into::into), body }
}

fn pass(line: u32) -> Stmt {
    Stmt { line, kind: StmtKind::Pass }
}

#[test]
fn try_statements() {
    let src = "try:\n    x = 1\nexcept ValueError:\n    pass\nexcept (KeyError, IndexError) as e:\n    pass\nexcept:\n    pass\nelse:\n    pass";
    let s = stmts(src);
    assert_eq!(s.len(), 1);
    let StmtKind::Try { body, handlers, orelse, finalbody } = &s[0].kind else { panic!("{s:?}") };
    assert!(finalbody.is_empty());
    assert_eq!(s[0].line, 2);
    assert!(matches!(&body[..], [Stmt { line: 3, kind: StmtKind::Assign { .. } }]), "{body:?}");
    assert_eq!(
        handlers,
        &vec![
            handler(4, &["ValueError"], None, vec![pass(5)]),
            handler(6, &["KeyError", "IndexError"], Some("e"), vec![pass(7)]),
            handler(8, &[], None, vec![pass(9)]),
        ]
    );
    assert_eq!(orelse, &vec![pass(11)]);
    // The forms of the exception types; nested parentheses are flattened, as Python's tuples are.
    let types = |clause: &str| match stmt(&format!("try: pass\n{clause}: pass")) {
        StmtKind::Try { mut handlers, orelse, .. } if handlers.len() == 1 && orelse.is_empty() => {
            let h = handlers.remove(0);
            assert_eq!((h.line, h.body.len()), (3, 1));
            format!("{:?} {:?}", h.types, h.name)
        }
        other => panic!("{clause}: {other:?}"),
    };
    assert_eq!(types("except"), "[] None");
    assert_eq!(types("except E"), "[\"E\"] None");
    assert_eq!(types("except E as e"), "[\"E\"] Some(\"e\")");
    assert_eq!(types("except (E)"), "[\"E\"] None");
    assert_eq!(types("except (E,)"), "[\"E\"] None");
    assert_eq!(types("except (A, B,) as err"), "[\"A\", \"B\"] Some(\"err\")");
    assert_eq!(types("except ((A, (B,)), C)"), "[\"A\", \"B\", \"C\"] None");
    assert_eq!(types("except (\n  A,\n    B,\n)  as  e"), "[\"A\", \"B\"] Some(\"e\")");
    assert_eq!(types("except (json.JSONDecodeError, E)"), "[\"json.JSONDecodeError\", \"E\"] None");
    // Inline bodies; a try in a handler, in a loop (break and continue inside); `else` after one handler.
    let s = stmts(
        "for a in b:\n    try: x = a\n    except E:\n        try:\n            break\n        except F: continue\n    else: pass\n    y = 1",
    );
    let StmtKind::For { body, .. } = &s[0].kind else { panic!() };
    assert_eq!(body.iter().map(|s| s.line).collect::<Vec<_>>(), vec![3, 9]);
    let StmtKind::Try { body: inner, handlers, orelse, .. } = &body[0].kind else { panic!("{body:?}") };
    assert!(matches!(&inner[..], [Stmt { line: 3, kind: StmtKind::Assign { .. } }]));
    assert_eq!(orelse, &vec![pass(8)]);
    let nested = StmtKind::Try {
        body: vec![Stmt { line: 6, kind: StmtKind::Break }],
        handlers: vec![handler(7, &["F"], None, vec![Stmt { line: 7, kind: StmtKind::Continue }])],
        orelse: vec![],
        finalbody: vec![],
    };
    assert_eq!(handlers, &vec![handler(4, &["E"], None, vec![Stmt { line: 5, kind: nested }])]);
    // `try` and `except` are names of no expression.
    assert_eq!(stmt_err("x = try"), "line 2, column 9: expected an expression, found 'try'");
    // `finally:` after the body, after clauses, after `else:`.
    let finally = |src: &str| match stmt(src) {
        StmtKind::Try { handlers, orelse, finalbody, .. } => (handlers.len(), orelse.len(), finalbody),
        other => panic!("{src}: {other:?}"),
    };
    assert_eq!(finally("try: x = 1\nfinally: pass"), (0, 0, vec![pass(3)]));
    assert_eq!(finally("try: x = 1\nexcept E: pass\nfinally:\n    pass"), (1, 0, vec![pass(5)]));
    assert_eq!(finally("try: x = 1\nexcept E: pass\nelse: pass\nfinally: pass"), (1, 1, vec![pass(5)]));
    assert_eq!(stmt("raise"), StmtKind::Reraise);
    assert_eq!(stmt("yield"), StmtKind::Yield { value: None });
    assert_eq!(stmt("yield from xs"), StmtKind::YieldFrom { value: Expr::Name { id: "xs".into() } });
    let pair = Expr::Tuple { items: vec![Expr::Name { id: "a".into() }, Expr::Name { id: "b".into() }] };
    assert_eq!(stmt("yield a, b"), StmtKind::Yield { value: Some(pair) });
}

#[test]
fn try_errors() {
    let cases: &[(&str, &str)] = &[
        ("try:\n        pass", "line 3, column 13: expected 'except' or 'finally' block"),
        ("try:\n        pass\n    x = 1", "line 4, column 5: expected 'except' or 'finally' block"),
        ("try: pass\n    else: pass", "line 3, column 5: expected 'except' or 'finally' block"),
        ("try: pass\n    finally pass", "line 3, column 13: expected ':' after 'finally'"),
        ("try: pass\n    finally: pass\n    else: pass", "line 4, column 5: invalid syntax: 'else' cannot appear here"),
        (
            "try: pass\n    finally: pass\n    finally: pass",
            "line 4, column 5: invalid syntax: 'finally' cannot appear here",
        ),
        (
            "try: pass\n    except* E: pass",
            "line 3, column 5: 'except*' (exception groups) is not supported in anyscript",
        ),
        (
            "try: pass\n    except E: pass\n    except *E: pass",
            "line 4, column 5: 'except*' (exception groups) is not supported in anyscript",
        ),
        ("try: pass\n    except: pass\n    except E: pass", "line 3, column 5: default 'except:' must be last"),
        ("try: pass\n    except: pass\n    except: pass", "line 3, column 5: default 'except:' must be last"),
        ("try: pass\n    except A, B: pass", "line 3, column 12: multiple exception types must be parenthesized"),
        ("try: pass\n    except A, B as e: pass", "line 3, column 12: multiple exception types must be parenthesized"),
        ("try: pass\n    except (A, B), e: pass", "line 3, column 12: multiple exception types must be parenthesized"),
        (
            "try: pass\n    except (): pass",
            "line 3, column 12: catching an empty tuple of exception types (which catches nothing) is not supported in anyscript",
        ),
        ("try: pass\n    except E as e.x: pass", "line 3, column 18: expected ':' after except clause"),
        ("try: pass\n    except E as e, f: pass", "line 3, column 18: expected ':' after except clause"),
        ("try: pass\n    except E as (e): pass", "line 3, column 17: expected a name after 'as'"),
        ("try: pass\n    except E as None: pass", "line 3, column 17: expected a name after 'as'"),
        ("try: pass\n    except E as: pass", "line 3, column 16: expected a name after 'as'"),
        ("try: pass\n    except E\n        pass", "line 3, column 13: expected ':' after except clause"),
        ("try: pass\n    except\n        pass", "line 3, column 11: expected ':' after except clause"),
        ("try: pass\n    except E x: pass", "line 3, column 14: expected ':' after except clause"),
        ("try: pass\n    except as e: pass", "line 3, column 12: invalid syntax: unexpected 'as'"),
        ("try: pass\n    except (A B): pass", "line 3, column 15: expected ',' or ')' in a tuple"),
        ("try pass", "line 2, column 9: expected ':' after 'try'"),
        ("try:\n    pass", "line 3, column 5: expected an indented block after 'try' statement on line 2"),
        (
            "try: pass\n    except E:\n    pass",
            "line 4, column 5: expected an indented block after 'except' statement on line 3",
        ),
        (
            "try: pass\n    except E: pass\n    else:\n    pass",
            "line 5, column 5: expected an indented block after 'else' statement on line 4",
        ),
        (
            "try: pass\n    except E: pass\n    else: pass\n    else: pass",
            "line 5, column 5: invalid syntax: 'else' cannot appear here",
        ),
        (
            "try: pass\n    except E: pass\n    else: pass\n    except E: pass",
            "line 5, column 5: invalid syntax: 'except' cannot appear here",
        ),
        ("except E: pass", "line 2, column 5: invalid syntax: 'except' cannot appear here"),
        ("if x: pass\n    except E: pass", "line 3, column 5: invalid syntax: 'except' cannot appear here"),
        ("finally: pass", "line 2, column 5: invalid syntax: 'finally' cannot appear here"),
        ("x = 1; try: pass", "line 2, column 12: invalid syntax: 'try' cannot appear here"),
    ];
    for (src, msg) in cases {
        assert_eq!(&stmt_err(src), msg, "{src:?}");
    }
    // Anything but names (and parenthesised tuples of them) as the types, reported where that type starts.
    let other = "catching anything but an exception name or a parenthesised tuple of them \
                     (except (ValueError, KeyError):) is not supported in anyscript";
    let cases: &[(&str, u32)] = &[
        ("a.b()", 12),
        ("f()", 12),
        ("E[0]", 12),
        ("(A, b.c())", 16),
        ("(A, (B, f()))", 20),
        ("(A)()", 12),
        ("(A).b", 12),
        ("A or B", 12),
        ("A if x else B", 12),
        ("A | B", 12),
        ("A + B", 12),
        ("not A", 12),
        ("None", 12),
        ("1", 12),
        ("'E'", 12),
        ("[A]", 12),
        ("(A, [B])", 16),
        ("(A, *B)", 16),
        ("lambda: E", 12),
        ("-E", 12),
        ("E(1) as e", 12),
    ];
    for (types, col) in cases {
        let src = format!("try: pass\n    except {types}: pass");
        assert_eq!(stmt_err(&src), format!("line 3, column {col}: {other}"), "{src:?}");
    }
}

#[test]
fn indentation() {
    // Dedent several levels at once, comments at odd indentation, blank lines with spaces, no final newline.
    let src = "def f(x):\n    if x:\n        for y in x:\n            # deep\n  # odd\n      \n            y = 1\n\n    return x\ndef g():\n\tif 1:\n\t\treturn 2\n\treturn 3";
    let m = parse_module(src).unwrap();
    assert_eq!(m.functions.len(), 2);
    let f = &m.functions[0];
    assert_eq!((f.body.len(), f.body[1].line), (2, 9));
    let g = &m.functions[1];
    assert_eq!((g.line, g.params.len(), g.body.len()), (10, 0, 2));
    // Backslash continuation and brackets spanning lines, with odd indentation inside.
    let s = stmts("x = 1 + \\\n  2\ny = [1,\n3,\n        4]\nz = 5");
    assert_eq!(s.iter().map(|s| s.line).collect::<Vec<_>>(), vec![2, 4, 7]);
    // Inline bodies, a module docstring, a comment-only tail, CRLF endings.
    let m = parse_module("'''doc'''\r\ndef f(a, b,): return a\r\n# end\r\n   # more").unwrap();
    assert_eq!(m.functions[0].params, vec!["a".to_string(), "b".to_string()]);
    assert_eq!(parse_module("").unwrap().functions.len(), 0);
    assert_eq!(parse_module("\n\n  # only comments\n").unwrap().functions.len(), 0);
}

#[test]
fn indentation_errors() {
    assert_eq!(module_err("  def f(): pass"), "line 1, column 3: unexpected indent");
    assert_eq!(module_err("def f():\n    x = 1\n        y = 2\n"), "line 3, column 9: unexpected indent");
    assert_eq!(
        module_err("def f():\n    if x:\n        y = 2\n  z = 3\n"),
        "line 4, column 3: unindent does not match any outer indentation level"
    );
    assert_eq!(
        module_err("def f():\nreturn 1\n"),
        "line 2, column 1: expected an indented block after function definition on line 1"
    );
    assert_eq!(
        module_err("def f():\n    if x:\n    y = 1"),
        "line 3, column 5: expected an indented block after 'if' statement on line 2"
    );
    assert!(parse_module("def f():\n    pass\n    ").is_ok());
}

#[test]
fn keyword_arguments() {
    assert_eq!(expr("f(a, b, x=1, y=2)"), "(call f [a b] x=1 y=2)");
    assert_eq!(expr("f(x=1,)"), "(call f [] x=1)");
    assert_eq!(expr("f(\n  a,\n  x=[1],\n)"), "(call f [a] x=[1])");
    assert_eq!(expr("f(x==1)"), "(call f [(cmp x == 1)])");
    assert_eq!(expr("f(x=a==b, y=not c)"), "(call f [] x=(cmp a == b) y=(Not c))");
    assert_eq!(expr("f(x=1 if a else 2)"), "(call f [] x=(ifexp a 1 2))");
    assert_eq!(expr("g(a)(b=1).c(d=e.f(g=h))"), "(call (. (call (call g [a]) [] b=1) c) [] d=(call (. e f) [] g=h))");
    assert_eq!(expr("f(a, x=a, a=x)"), "(call f [a] x=a a=x)");
    assert_eq!(expr("f'{g(x=1)}'"), expr("builtins.str(g(x=1))"));
    let Expr::Call { keywords, .. } = parse_expr("f(x=1)").unwrap() else { panic!() };
    assert_eq!(keywords, vec![Keyword { arg: "x".into(), value: int(1) }]);
}

#[test]
fn starred_arguments() {
    assert_eq!(expr("f(*a)"), "(call f [(star a)])");
    assert_eq!(expr("f(a, *b or c, d, *e[1:],)"), "(call f [a (star (Or b c)) d (star (slice e 1 _ _))])");
    assert_eq!(expr("print(*a, sep=s)"), "(call print [(star a)] sep=s)");
    let err = parse_expr("f(x=1, *a)").unwrap_err();
    assert!(err.message().contains("column 8: a starred argument after a keyword one is not supported"), "{err}");
    let Expr::Call { keywords, .. } = parse_expr("f(x=1, **a)").unwrap() else { panic!() };
    assert_eq!(keywords[1], Keyword { arg: DOUBLE_STAR.into(), value: name("a") });
}

#[test]
fn unpacking_in_displays() {
    assert_eq!(expr("[*a, b, *c]"), "[(star a) b (star c)]");
    assert_eq!(expr("(*a, b)"), "(tuple (star a) b)");
    assert_eq!(expr("(*a,)"), "(tuple (star a))");
    assert_eq!(expr("{*a, b}"), "(set (star a) b)");
    assert_eq!(expr("{b, *a | c}"), "(set b (star (| a c)))");
    assert_eq!(expr("{**a, 'k': 1, **b.c}"), r#"{(** a), "k": 1, (** (. b c))}"#);
    assert_eq!(expr("{1: 2, **a}"), "{1: 2, (** a)}");
    let m = parse_module("def f(a):\n    x = *a, 1\n    return *x, 2\n").unwrap();
    let StmtKind::Assign { value, .. } = &m.functions[0].body[0].kind else { panic!() };
    assert_eq!(show(value), "(tuple (star a) 1)");
}

#[test]
fn slice_targets() {
    let m = parse_module("def f(a):\n    a[1:2] = a\n    a[::2] += a\n    del a[:3], a[x]\n").unwrap();
    let body = &m.functions[0].body;
    let StmtKind::Assign { targets, .. } = &body[0].kind else { panic!() };
    assert_eq!(show_target(&targets[0]), "(slice a 1 2 _)");
    let StmtKind::AugAssign { target, .. } = &body[1].kind else { panic!() };
    assert_eq!(show_target(target), "(slice a _ _ 2)");
    let StmtKind::Delete { targets } = &body[2].kind else { panic!() };
    let shown: Vec<String> = targets.iter().map(show_target).collect();
    assert_eq!(shown, ["(slice a _ 3 _)", "(idx a x)"]);
}

#[test]
fn keyword_argument_errors() {
    let cases: &[(&str, &str)] = &[
        ("f(x=1, 2)", "line 1, column 8: positional argument follows keyword argument"),
        ("f(a, x=1, b)", "line 1, column 11: positional argument follows keyword argument"),
        ("f(\n  x=1,\n  g(2))", "line 3, column 3: positional argument follows keyword argument"),
        ("f(x=1, x=2)", "line 1, column 8: keyword argument repeated: x"),
        ("f(a, x=1, a=2, x=3)", "line 1, column 16: keyword argument repeated: x"),
        // As in CPython, which finds repeats only once the call has parsed.
        ("f(x=1, x=2, 3)", "line 1, column 13: positional argument follows keyword argument"),
        ("f(a+b=1)", "line 1, column 3: expression cannot contain assignment, perhaps you meant \"==\"?"),
        ("f(x=1, a.b=2)", "line 1, column 8: expression cannot contain assignment, perhaps you meant \"==\"?"),
        ("f(1=2)", "line 1, column 3: expression cannot contain assignment, perhaps you meant \"==\"?"),
        ("f(True=1)", "line 1, column 3: cannot assign to True"),
        ("f(x=1, None=2)", "line 1, column 8: cannot assign to None"),
        ("f(x=1 for x in y)", "line 1, column 3: invalid syntax. Maybe you meant '==' or ':=' instead of '='?"),
        ("f(x=1, y for y in z)", "line 1, column 8: Generator expression must be parenthesized"),
        ("f(x=)", "line 1, column 5: expected an expression, found ')'"),
        ("f(x=1 2)", "line 1, column 7: expected ',' or ')' after a function argument"),
        ("f(x=1, *a)", "line 1, column 8: a starred argument after a keyword one is not supported in anyscript"),
        ("f(**a, b)", "line 1, column 8: positional argument follows keyword argument unpacking"),
        ("f(**a, *b)", "line 1, column 8: iterable argument unpacking follows keyword argument unpacking"),
    ];
    for (src, msg) in cases {
        assert_eq!(&expr_err(src), msg, "{src:?}");
    }
}

#[test]
fn default_parameter_values() {
    let src = "def f(a, b=1, c=-2.5, d=None, e=[1, 'x'], g={'k': (1, 2)}): pass";
    let f = parse_module(src).unwrap().functions.remove(0);
    assert_eq!(f.params, ["a", "b", "c", "d", "e", "g"]);
    let defaults: Vec<String> = f.defaults.iter().map(show).collect();
    assert_eq!(defaults, ["1", "(Neg 2.5)", "None", "[1 \"x\"]", "{\"k\": (tuple 1 2)}"]);
    let f = parse_module("def f(a=1, b=lambda: 2,):\n    return a").unwrap().functions.remove(0);
    assert_eq!(f.defaults.iter().map(show).collect::<Vec<_>>(), ["1", "(lambda [] 2)"]);
    assert!(parse_module("def f(a, b): pass").unwrap().functions[0].defaults.is_empty());
    let cases: &[(&str, &str)] = &[
        ("def f(a=1, b): pass", "line 1, column 12: non-default argument follows default argument"),
        ("def f(a, b=1, c, d=2): pass", "line 1, column 15: non-default argument follows default argument"),
        ("def f(a=1, a): pass", "line 1, column 12: non-default argument follows default argument"),
        ("def f(a, a=1): pass", "line 1, column 10: duplicate parameter 'a' in function definition"),
        ("def f(a=): pass", "line 1, column 8: expected default value expression"),
        ("def f(a=1 b): pass", "line 1, column 11: expected ',' or ')' in the parameter list"),
        ("def f(a: int = 1): pass", "line 1, column 8: parameter annotations are not supported in anyscript"),
    ];
    for (src, msg) in cases {
        assert_eq!(&module_err(src), msg, "{src:?}");
    }
}

#[test]
fn lambdas() {
    assert_eq!(expr("lambda: 0"), "(lambda [] 0)");
    assert_eq!(expr("lambda x: x + 1"), "(lambda [x] (+ x 1))");
    assert_eq!(expr("lambda a, b: (a, b)"), "(lambda [a b] (tuple a b))");
    assert_eq!(expr("lambda a, b,: a"), "(lambda [a b] a)");
    // The body is a whole `test`, conditional and lambdas included.
    assert_eq!(expr("lambda x: x if x else 0"), "(lambda [x] (ifexp x x 0))");
    assert_eq!(expr("lambda: a or not b"), "(lambda [] (Or a (Not b)))");
    assert_eq!(expr("lambda a: lambda b: a + b"), "(lambda [a] (lambda [b] (+ a b)))");
    assert_eq!(expr("lambda: 1()"), "(lambda [] (call 1 []))");
    assert_eq!(expr("(lambda: 1)()"), "(call (lambda [] 1) [])");
    // Wherever Python takes a `test`.
    assert_eq!(expr("a if b else lambda: c"), "(ifexp b a (lambda [] c))");
    assert_eq!(expr("lambda: 1, 2"), "(tuple (lambda [] 1) 2)");
    assert_eq!(expr("[lambda: 1, 2]"), "[(lambda [] 1) 2]");
    assert_eq!(expr("{lambda: 1: lambda: 2}"), "{(lambda [] 1): (lambda [] 2)}");
    assert_eq!(expr("a[lambda: 1]"), "(idx a (lambda [] 1))");
    assert_eq!(expr("[lambda: x for x in y]"), "(comp (lambda [] x) x y [])");
    assert_eq!(expr("sorted(ws, key=lambda w: -len(w))"), "(call sorted [ws] key=(lambda [w] (Neg (call len [w]))))");
    assert_eq!(expr("f(lambda x: x, y)"), "(call f [(lambda [x] x) y])");
    let s = stmts("y = lambda: x\nreturn lambda k: k");
    let StmtKind::Assign { value, .. } = &s[0].kind else { panic!() };
    let StmtKind::Return { value: Some(ret) } = &s[1].kind else { panic!() };
    assert_eq!((show(value), show(ret)), ("(lambda [] x)".into(), "(lambda [k] k)".into()));
    assert_eq!(
        parse_expr("lambda x: x").unwrap(),
        Expr::Lambda { params: vec!["x".into()], body: boxed(name("x")), defaults: vec![] }
    );
}

#[test]
fn lambda_errors() {
    let cases: &[(&str, &str)] = &[
        ("lambda x=1, y: x", "line 1, column 13: non-default argument follows default argument"),
        ("lambda *a: a", "line 1, column 8: '*args' parameters are not supported in anyscript"),
        ("lambda **k: k", "line 1, column 8: '**kwargs' parameters are not supported in anyscript"),
        ("lambda a, /: a", "line 1, column 11: positional-only parameters ('/') are not supported in anyscript"),
        (
            "lambda a, *, b: a",
            "line 1, column 11: keyword-only parameters (after a bare '*') are not supported in anyscript",
        ),
        ("lambda (x): x", "line 1, column 8: Lambda expression parameters cannot be parenthesized"),
        ("lambda x, x: 1", "line 1, column 11: duplicate parameter 'x' in function definition"),
        ("lambda x", "line 1, column 9: expected ',' or ':' after a lambda parameter"),
        ("lambda x y: 1", "line 1, column 10: expected ',' or ':' after a lambda parameter"),
        ("lambda 1: 1", "line 1, column 8: expected a parameter name"),
        ("lambda x:", "line 1, column 10: expected an expression, found end of line"),
        // Python's `lambdef` is a `test`: operands, conditions and comprehension clauses take none.
        ("-lambda: 1", "line 1, column 2: expected an expression, found 'lambda'"),
        ("1 + lambda: 1", "line 1, column 5: expected an expression, found 'lambda'"),
        ("not lambda: 1", "line 1, column 5: expected an expression, found 'lambda'"),
        ("a if lambda: 1 else b", "line 1, column 6: expected an expression, found 'lambda'"),
        ("[x for x in y if lambda: 1]", "line 1, column 18: expected an expression, found 'lambda'"),
        ("[x for x in lambda: y]", "line 1, column 13: expected an expression, found 'lambda'"),
    ];
    for (src, msg) in cases {
        assert_eq!(&expr_err(src), msg, "{src:?}");
    }
    assert_eq!(module_err("def f(x):\n    lambda: x = 1"), "line 2, column 5: cannot assign to lambda");
}

#[test]
fn nested_def_is_a_statement_with_its_own_loops() {
    let body = stmts("for w in x:\n    def g(a, b=2):\n        while a:\n            break\n        return a\n");
    let StmtKind::For { body, .. } = &body[0].kind else { panic!("{body:?}") };
    let StmtKind::Def { function } = &body[0].kind else { panic!("{body:?}") };
    assert_eq!((function.name.as_str(), function.params.len(), function.line, body[0].line), ("g", 2, 3, 3));
    assert_eq!(function.defaults, vec![Expr::Const { value: Literal::Int(2) }]);
    assert!(matches!(function.body[..], [Stmt { line: 4, .. }, Stmt { line: 6, .. }]), "{function:?}");
    // The loop around the `def` is not around its body, and the function's loop count is back after it.
    assert!(module_err("def f(x):\n    for y in x:\n        def g():\n            continue").contains("outside loop"));
    assert_eq!(stmts("for y in x:\n    def g():\n        pass\n    break\n").len(), 1);
}

#[test]
fn assignment_expressions_where_python_takes_them() {
    let named = |target: &str, value: Expr| Expr::Named { target: target.into(), value: boxed(value) };
    let StmtKind::If { test, .. } = stmt("if (m := x) and m:\n    pass") else { panic!() };
    let Expr::BoolOp { values, .. } = test else { panic!("{test:?}") };
    assert_eq!(values[0], named("m", name("x")));
    let StmtKind::While { test, .. } = stmt("while n := x:\n    pass") else { panic!() };
    assert_eq!(test, named("n", name("x")));
    let StmtKind::Expr { value: Expr::Call { args, .. } } = stmt("f(a := 1, [b := 2], {c := 3})") else { panic!() };
    assert_eq!(args[0], named("a", Expr::Const { value: Literal::Int(1) }));
    assert_eq!(args[1], Expr::List { items: vec![named("b", Expr::Const { value: Literal::Int(2) })] });
    let StmtKind::Assign { value: Expr::ListComp { elt, .. }, .. } = stmt("y = [z := w for w in x]") else { panic!() };
    assert_eq!(*elt, named("z", name("w")));
}

#[test]
fn syntax_errors() {
    let cases: &[(&str, &str)] = &[
        ("def f(x):\n    if x\n        pass", "line 2, column 9: expected ':' after if condition"),
        ("def f(x):\n    while x\n", "line 2, column 12: expected ':' after while condition"),
        ("def f(x):\n    for x y:\n", "line 2, column 11: expected 'in' after the for loop target"),
        ("def f(x):\n    x = (1 2)", "line 2, column 12: expected ',' or ')' in a tuple"),
        ("def f(x):\n    x = 1 2", "line 2, column 11: invalid syntax: unexpected number"),
        ("def f(x):\n    f(x y)", "line 2, column 9: expected ',' or ')' after a function argument"),
        ("def f(x):\n    x = ", "line 2, column 9: expected an expression, found end of line"),
        ("def f(x):\n    x = )", "line 2, column 9: unmatched ')'"),
        ("def f(x):\n    x = (]", "line 2, column 10: closing parenthesis ']' does not match opening parenthesis '('"),
        ("def f(x):\n    x = [1,\n", "line 2, column 9: '[' was never closed"),
        ("def f(x):\n    x = $", "line 2, column 9: invalid character '$' (U+0024)"),
        ("def f(x):\n    x = 1 \\ 2", "line 2, column 11: unexpected character after line continuation character"),
        ("def f(x):\n    break", "line 2, column 5: 'break' outside loop"),
        ("def f(x):\n    continue", "line 2, column 5: 'continue' outside loop"),
        ("return 1", "line 1, column 1: 'return' outside function"),
        (
            "x += 1",
            "line 1, column 1: only function definitions ('def') and constants ('NAME = value') are allowed at the \
                 top level of a module",
        ),
        (
            "a, b = 1, 2",
            "line 1, column 1: only function definitions ('def') and constants ('NAME = value') are allowed at the \
                 top level of a module",
        ),
        ("def f(x, x): pass", "line 1, column 10: duplicate parameter 'x' in function definition"),
        ("def f(x):\n    f(x) = 1", "line 2, column 5: cannot assign to function call"),
        ("def f(x):\n    1 = x", "line 2, column 5: cannot assign to literal"),
        ("def f(x):\n    a, b += 1", "line 2, column 5: illegal target for augmented assignment"),
        ("def f(x):\n    else: pass", "line 2, column 5: invalid syntax: 'else' cannot appear here"),
        ("def if(): pass", "line 1, column 5: expected a function name after 'def'"),
        ("def f(x):\n    x.if", "line 2, column 7: expected an attribute name after '.'"),
        ("def f(x):\n    a[]", "line 2, column 7: expected an index or slice"),
        ("def f(x):\n    x = a if b", "line 2, column 15: expected 'else' after the condition of an 'if' expression"),
        ("def f(x):\n    x = {1: 2, 3}", "line 2, column 17: expected ':' after a dict key"),
    ];
    for (src, msg) in cases {
        assert_eq!(&module_err(src), msg, "{src:?}");
    }
}

#[test]
fn unsupported_constructs() {
    let cases: &[(&str, &str)] = &[
        ("def f(x):\n    try:\n        pass\n    except* E:\n        pass", "line 4, column 5: 'except*'"),
        ("def f(x):\n    with a as b:\n        pass", "line 2, column 5: 'with' is not supported"),
        ("class A:\n    pass", "line 1, column 1: 'class' is not supported"),
        ("import os", "line 1, column 1: 'import' is not supported"),
        ("from os import path", "line 1, column 1: 'from' is not supported"),
        ("def f(x):\n    global y", "line 2, column 5: 'global' is not supported"),
        ("def f(x):\n    nonlocal", "line 2, column 13: expected a name after 'nonlocal'"),
        ("def f(x):\n    nonlocal a,", "line 2, column 16: expected a name after 'nonlocal'"),
        ("yield 1", "line 1, column 1: 'yield' outside function"),
        (
            "def f(x):\n    y = yield x",
            "line 2, column 9: 'yield' as an expression (only as a statement, `yield x`) is not supported",
        ),
        ("async def f(x): pass", "line 1, column 1: 'async' is not supported"),
        ("def f(x):\n    await x", "line 2, column 5: 'await' is not supported"),
        ("@dec\ndef f(x): pass", "line 1, column 1: decorators are not supported"),
        (
            "def f(x):\n    y := x",
            "line 2, column 7: invalid syntax: an assignment expression (':=') needs parentheses",
        ),
        ("def f(x):\n    y = z := x", "line 2, column 11: invalid syntax: an assignment expression (':=') needs"),
        ("def f(x):\n    f(a=b := 1)", "line 2, column 11: invalid syntax: an assignment expression (':=') needs"),
        ("def f(x):\n    return {a := 1: 2}", "line 2, column 21: invalid syntax: a dict key that is an assignment"),
        ("def f(x):\n    if (True := x): pass", "line 2, column 9: cannot use assignment expressions with True"),
        ("def f(x):\n    a, *b", "line 2, column 8: starred expressions are not supported"),
        ("def f(x):\n    *b = x", "line 2, column 5: starred assignment target must be in a list or tuple"),
        ("def f(x):\n    a, *b, *c = x", "line 2, column 5: multiple starred expressions in assignment"),
        ("def f(x):\n    a = *b", "line 2, column 9: can't use starred expression here"),
        ("def f(x):\n    g(k=1, *x)", "line 2, column 12: a starred argument after a keyword one is not supported"),
        ("def f(x: int): pass", "line 1, column 8: parameter annotations are not supported"),
        ("def f(x) -> int: pass", "line 1, column 10: return annotations are not supported"),
        ("def f(x):\n    y: int = 1", "line 2, column 6: variable annotations are not supported"),
        ("def f(x):\n    @d\n    def g(): pass", "line 2, column 5: decorators are not supported"),
        ("def f(x):\n    def g():\n        break", "line 3, column 9: 'break' outside loop"),
        ("def f(x):\n    return x @ y", "line 2, column 14: the matrix multiplication operator '@' is not supported"),
        ("def f(x):\n    return ...", "line 2, column 12: '...' (Ellipsis) is not supported"),
        ("def f(x):\n    x.a = 1", "line 2, column 5: assignment to attributes is not supported"),
        ("def f(x):\n    return x[1:2, 3]", "line 2, column 17: multi-dimensional slices are not supported"),
    ];
    for (src, msg) in cases {
        let err = module_err(src);
        assert!(err.starts_with(msg), "{src:?}: got {err:?}, want {msg:?}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 20_000;
    for (open, close) in NESTING_SHAPES {
        let src = format!("{}x{}", open.repeat(n), close.repeat(n));
        assert!(expr_err(&src).contains("nested too deeply"), "{open}");
    }
    for link in ["+1", ".y", "()", "[0]", "**1"] {
        assert!(expr_err(&format!("x{}", link.repeat(n))).contains("nested too deeply"), "{link}");
    }
    let blocks: String = (0..300).map(|i| format!("{}if x:\n", " ".repeat(i + 1))).collect();
    assert!(module_err(&format!("def f(x):\n{blocks}{}pass\n", " ".repeat(301))).contains("nested too deeply"));
    let elifs = "    if x: pass\n".to_string() + &"    elif x: pass\n".repeat(300);
    assert!(module_err(&format!("def f(x):\n{elifs}")).contains("nested too deeply"));
    for (open, close) in TRY_SHAPES {
        assert!(module_err(&nested_tries(open, close, 300)).contains("nested too deeply"), "{open}");
    }
    let types = format!("{}E{}", "(".repeat(n), ")".repeat(n));
    assert!(module_err(&format!("def f(x):\n    try: pass\n    except {types}: pass")).contains("nested too deeply"));
}

/// Ways to nest blocks with `try`, as (lines opening a block, lines after it), each line at the
/// indentation of the level.
const TRY_SHAPES: &[(&str, &str)] = &[
    ("try:", "except E: pass"),
    ("try: pass\nexcept E:", ""),
    ("try: pass\nexcept E: pass\nelse:", ""),
    ("try: pass\nexcept (A,\n B):", ""),
];

/// A function of `levels` blocks opened by `open`, each followed by `close`, around `return (((x)))`.
fn nested_tries(open: &str, close: &str, levels: usize) -> String {
    let lines =
        |text: &str, i: usize| -> String { text.lines().map(|l| format!("{}{l}\n", " ".repeat(i + 1))).collect() };
    let opens: String = (0..levels).map(|i| lines(open, i)).collect();
    let closes: String = (0..levels).rev().map(|i| lines(close, i)).collect();
    format!("def f(x):\n{opens}{}return (((x)))\n{closes}", " ".repeat(levels + 1))
}

/// Ways to nest expressions, as (opening, closing) around a name.
const NESTING_SHAPES: &[(&str, &str)] = &[
    ("(", ")"),
    ("[", "]"),
    ("{1: ", "}"),
    ("f(", ")"),
    ("a[", "]"),
    ("-", ""),
    ("not ", ""),
    ("1+(", ")"),
    ("x if x else ", ""),
    ("(x if x else ", ")"),
    ("[x for x in ", "]"),
    ("[x for x in y if ", "]"),
    ("[", " for x in y]"),
    ("(x for x in ", ")"),
    ("(x for x in y if ", ")"),
    ("(", " for x in y)"),
    ("f(x for x in ", ")"),
    ("f(", " for x in y)"),
    ("{x: x for x in ", "}"),
    ("{x: x for x in y if ", "}"),
    ("{x: ", " for x in y}"),
    ("{", ": x for x in y}"),
    ("lambda: ", ""),
    ("lambda x: f(k=", ")"),
    ("(x, ", ")"),
    ("a[1:", "]"),
    ("2**", ""),
    ("x < (", ")"),
    ("x and (", ")"),
];

#[test]
fn nesting_up_to_the_limit_fits_a_default_thread_stack() {
    // Each shape at the deepest nesting accepted must parse (and drop) on a 2 MiB stack, the size of
    // a spawned Rust thread, even in a debug build.
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            for (open, close) in NESTING_SHAPES {
                let deepest = (1..=MAX_DEPTH)
                    .take_while(|&n| parse_expr(&format!("{}x{}", open.repeat(n), close.repeat(n))).is_ok())
                    .last();
                assert!(deepest.is_some_and(|n| n >= MAX_DEPTH / 4), "{open}: {deepest:?}");
            }
            let blocks: String = (1..MAX_DEPTH).map(|i| format!("{}if (((x))):\n", " ".repeat(i))).collect();
            parse_module(&format!("def f(x):\n{blocks}{}return (((x)))\n", " ".repeat(MAX_DEPTH))).unwrap_err();
            for (open, close) in TRY_SHAPES {
                parse_module(&nested_tries(open, close, MAX_DEPTH - 1)).unwrap_err();
                parse_module(&nested_tries(open, close, MAX_DEPTH / 2)).unwrap();
            }
            let deepest = (1..=MAX_DEPTH)
                .take_while(|&n| {
                    let types = format!("{}E{}", "(".repeat(n), ")".repeat(n));
                    parse_module(&format!("def f(x):\n    try: pass\n    except {types}: pass")).is_ok()
                })
                .last();
            assert!(deepest.is_some_and(|n| n >= MAX_DEPTH / 4), "except: {deepest:?}");
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A tiny deterministic PRNG (xorshift64*), so the fuzz test needs no dependency and never flakes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn arbitrary_input_never_panics() {
    let seeds = [
        "def unicode_split_any(word):\n    ret = []\n    for i in range(len(word)):\n        res = word[i]\n        ret.append(res)\n    return ret\n",
        "def f(a, b):\n    if a < b <= 3 and not a in b:\n        return [x * 2 for x, y in a if y]\n    elif a:\n        d = {'k': r'\\d', \"v\": 0x1f}\n    else:\n        a[1:2:3] += -2 ** 3\n    while a: break\n",
        "bert(text)",
        "text.lower(x)",
        "def g(a, b=1, c=[-2.5, {'k': (None,)}]):\n    return sorted(a, key=lambda w, v: -len(w) if v else w, reverse=b)\n",
        "def h(a):\n    try:\n        a[0] = 1\n    except (KeyError, IndexError) as e:\n        return e\n    except ValueError: pass\n    except:\n        raise\n    else:\n        del a\n",
    ];
    let pieces = [
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ":",
        ",",
        ".",
        "=",
        "+",
        "-",
        "*",
        "**",
        "/",
        "//",
        "\\",
        "\n",
        "\r\n",
        " ",
        "    ",
        "\t",
        "#",
        "'",
        "\"",
        "'''",
        "\"\"\"",
        "\\x",
        "\\u",
        "\\N",
        "0x",
        "1e",
        "9999999999999999999999",
        "if",
        "else",
        "elif",
        "for",
        "in",
        "not",
        "is",
        "def",
        "return",
        "lambda",
        "raise",
        "assert",
        "del",
        "from",
        "try",
        "except",
        "finally",
        "as",
        "x",
        "é",
        "\u{0}",
        "\u{ffff}",
        ";",
        ":=",
        "@",
        "...",
        "r'",
        "b'",
        "f'",
        "_",
        "0",
        "1.",
        ".5",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..4000 {
        let src = if round % 2 == 0 {
            let mut s = seeds[rng.below(seeds.len())].to_string();
            for _ in 0..1 + rng.below(4) {
                let cut = s.char_indices().nth(rng.below(s.chars().count() + 1)).map_or(s.len(), |(i, _)| i);
                match rng.below(3) {
                    0 => s.insert_str(cut, pieces[rng.below(pieces.len())]),
                    1 => s.truncate(cut),
                    _ => s = format!("{}{}", &s[cut..], &s[..cut]),
                }
            }
            s
        } else {
            (0..rng.below(40)).map(|_| pieces[rng.below(pieces.len())]).collect()
        };
        for result in [parse_module(&src).map(|_| ()), parse_expr(&src).map(|_| ())] {
            if let Err(e) = result {
                assert_eq!(e.kind(), crate::ErrorKind::Parse, "{src:?}");
                assert!(e.message().starts_with("line "), "{src:?}: {e}");
            }
        }
    }
    let bytes: Vec<u8> = (0..20_000).map(|_| rng.next() as u8).collect();
    for chunk in bytes.chunks(37) {
        let src = String::from_utf8_lossy(chunk);
        let _ = (parse_module(&src), parse_expr(&src));
    }
}
