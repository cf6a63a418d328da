use super::*;
use crate::ErrorKind;
use crate::pipeline::test_values::*;
use crate::pipeline::value_ops::repr_value;

/// `repr(obj.name(*args))`, or the error as (kind, message).
fn call(obj: &Slot, name: &str, args: &[Slot]) -> std::result::Result<String, (ErrorKind, String)> {
    let m = Method::from_name(name).expect(name);
    let views: Vec<AnyView<'_>> = args.iter().map(|a| a.view()).collect();
    call_method(m, obj.view(), &views).map(|r| repr_value(r.value())).map_err(|e| (e.kind(), e.message().into()))
}
fn ok(obj: &Slot, name: &str, args: &[Slot]) -> String {
    call(obj, name, args).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}
fn rep(x: &Slot) -> String {
    repr_value(x.value())
}

#[test]
fn names_and_arity() {
    for &m in Method::ALL {
        assert_eq!(Method::from_name(m.name()), Some(m));
    }
    assert_eq!(Method::from_name("nope"), None);
    assert_eq!(Method::Pop.arity(), (0, 2));
    assert_eq!(Method::Index.arity(), (1, 3));
    assert_eq!(Method::Lower.arity(), (0, 0));
    assert_eq!(Method::Count.arity(), (1, 3));
    // A set's `update(*others)` takes any number; a dict's takes one, checked when it runs.
    assert_eq!(Method::Update.arity(), (0, crate::pipeline::builtins::VARIADIC));
    assert_eq!(Method::Add.arity(), (1, 1));
    assert_eq!(Method::Add.qualified_name(), "set.add");
}

#[test]
fn dispatch_errors() {
    let t = |m: &str| Err((ErrorKind::Type, m.to_owned()));
    let a = |m: &str| Err((ErrorKind::Attribute, m.to_owned()));
    assert_eq!(call(&i(1), "lower", &[]), a("'int' object has no attribute 'lower'"));
    assert_eq!(call(&list(vec![]), "lower", &[]), a("'list' object has no attribute 'lower'"));
    assert_eq!(call(&s("a"), "append", &[i(1)]), a("'str' object has no attribute 'append'"));
    assert_eq!(call(&s("a"), "lower", &[i(1)]), t("str.lower() takes no arguments (1 given)"));
    assert_eq!(call(&list(vec![]), "append", &[]), t("list.append() takes exactly one argument (0 given)"));
    assert_eq!(call(&list(vec![]), "pop", &[i(1), i(2)]), t("pop expected at most 1 argument, got 2"));
    assert_eq!(call(&dict(vec![]), "pop", &[]), t("pop expected at least 1 argument, got 0"));
    assert_eq!(call(&list(vec![]), "insert", &[i(1)]), t("insert expected 2 arguments, got 1"));
    assert_eq!(call(&s("a"), "replace", &[s("a")]), t("replace expected at least 2 arguments, got 1"));
    // CPython 3.11's wording for set methods.
    let set = Slot::from(crate::Set::new());
    assert_eq!(call(&set, "add", &[]), t("set.add() takes exactly one argument (0 given)"));
    assert_eq!(call(&set, "pop", &[i(1)]), t("set.pop() takes no arguments (1 given)"));
    assert_eq!(call(&set, "append", &[i(1)]), a("'set' object has no attribute 'append'"));
    assert_eq!(call(&dict(vec![]), "update", &[i(1), i(2)]), t("update expected at most 1 argument, got 2"));
}

#[test]
fn case_mapping() {
    assert_eq!(ok(&s("HeLLo"), "lower", &[]), "'hello'");
    assert_eq!(ok(&s("HeLLo"), "upper", &[]), "'HELLO'");
    assert!(!call_method(Method::Lower, s("ABCDEFGHIJKLMNOP").view(), &[]).unwrap().is_object());
    assert_eq!(ok(&s("ÀÉÎ ΑΣ"), "lower", &[]), "'àéî ας'");
    assert_eq!(ok(&u("ΑΣ Α"), "lower", &[]), "'ας α'");
    assert_eq!(ok(&s("Σ"), "lower", &[]), "'σ'");
    assert_eq!(ok(&s("İ"), "lower", &[]), "'i̇'");
    assert_eq!(ok(&s("straße"), "upper", &[]), "'STRASSE'");
    assert_eq!(ok(&s("Straße"), "casefold", &[]), "'strasse'");
    assert!(matches!(call_method(Method::Upper, u("é").view(), &[]).unwrap().value(), Value::UStr(_)));
    assert_eq!(ok(&s("hello wORLD"), "title", &[]), "'Hello World'");
    assert_eq!(ok(&s("they're bill's"), "title", &[]), "\"They'Re Bill'S\"");
    assert_eq!(ok(&s("ǆ"), "title", &[]), "'ǅ'");
    assert_eq!(ok(&s("ß"), "title", &[]), "'Ss'");
    assert_eq!(ok(&s("ﬁx"), "title", &[]), "'Fix'");
    assert_eq!(ok(&s("ΣΑΣ ΣΑΣ"), "title", &[]), "'Σας Σας'");
    assert_eq!(ok(&s("aΣ"), "title", &[]), "'Aς'");
    assert_eq!(ok(&s("hello wORLD"), "capitalize", &[]), "'Hello world'");
    assert_eq!(ok(&s("ΑΣ"), "capitalize", &[]), "'Ας'");
    assert_eq!(ok(&s("ǆa"), "capitalize", &[]), "'ǅa'");
    assert_eq!(ok(&s("ßa"), "capitalize", &[]), "'Ssa'");
    assert_eq!(ok(&s(""), "capitalize", &[]), "''");
}

#[test]
fn strip_family() {
    assert_eq!(ok(&s(" \t a b \n"), "strip", &[]), "'a b'");
    assert_eq!(ok(&s("\u{1c}\u{3000}a\u{a0}"), "strip", &[]), "'a'");
    assert_eq!(ok(&s("\u{200b}a"), "strip", &[]), "'\\u200ba'");
    assert_eq!(ok(&s("xxaxyx"), "strip", &[s("xy")]), "'a'");
    assert_eq!(ok(&s("  a  "), "lstrip", &[]), "'a  '");
    assert_eq!(ok(&s("  a  "), "rstrip", &[none()]), "'  a'");
    assert_eq!(ok(&u("éaé"), "strip", &[s("é")]), "'a'");
    assert_eq!(call(&s("a"), "strip", &[i(1)]), Err((ErrorKind::Type, "strip arg must be None or str".into())));
}

#[test]
fn splitting() {
    assert_eq!(ok(&s(" a  b "), "split", &[]), "['a', 'b']");
    assert_eq!(ok(&s("a,b,,c"), "split", &[s(",")]), "['a', 'b', '', 'c']");
    assert_eq!(ok(&s(" a b c "), "split", &[none(), i(1)]), "['a', 'b c ']");
    assert_eq!(ok(&s(" a b c "), "rsplit", &[none(), i(1)]), "[' a b', 'c']");
    assert_eq!(ok(&s("a,b,c"), "rsplit", &[s(","), i(1)]), "['a,b', 'c']");
    assert_eq!(ok(&s("a,b,c"), "split", &[s(","), i(0)]), "['a,b,c']");
    assert_eq!(ok(&s("a,b,c"), "split", &[s(","), i(-5)]), "['a', 'b', 'c']");
    assert_eq!(ok(&s("aaa"), "split", &[s("aa")]), "['', 'a']");
    assert_eq!(ok(&s("aaa"), "rsplit", &[s("aa")]), "['a', '']");
    assert_eq!(ok(&s(""), "split", &[]), "[]");
    assert_eq!(ok(&s("   "), "split", &[none(), i(0)]), "[]");
    assert_eq!(ok(&s("a "), "split", &[none(), i(0)]), "['a ']");
    assert_eq!(ok(&s(""), "split", &[s(",")]), "['']");
    assert_eq!(ok(&s("a\u{1c}b\u{3000}c"), "split", &[]), "['a', 'b', 'c']");
    assert_eq!(ok(&u("日 本"), "split", &[]), "['日', '本']");
    assert_eq!(call(&s("a"), "split", &[s("")]), Err((ErrorKind::Value, "empty separator".into())));
    assert_eq!(call(&s("a"), "split", &[i(1)]), Err((ErrorKind::Type, "must be str or None, not int".into())));
}

#[test]
fn joining() {
    assert_eq!(ok(&s(","), "join", &[list(vec![s("a"), u("é"), s("c")])]), "'a,é,c'");
    assert_eq!(ok(&s("-"), "join", &[s("abc")]), "'a-b-c'");
    assert_eq!(ok(&s(""), "join", &[list(vec![])]), "''");
    assert_eq!(ok(&s("+"), "join", &[dict(vec![(s("k"), i(1)), (s("l"), i(2))])]), "'k+l'");
    assert_eq!(
        call(&s(","), "join", &[list(vec![s("a"), i(1)])]),
        Err((ErrorKind::Type, "sequence item 1: expected str instance, int found".into()))
    );
    assert_eq!(call(&s(","), "join", &[i(1)]), Err((ErrorKind::Type, "can only join an iterable".into())));
}

#[test]
fn prefixes() {
    assert_eq!(ok(&s("##ab"), "startswith", &[s("##")]), "True");
    assert_eq!(ok(&u("日本"), "endswith", &[s("本")]), "True");
    assert_eq!(ok(&s("abc"), "startswith", &[tuple(vec![s("x"), s("ab")])]), "True");
    assert_eq!(ok(&s("abc"), "startswith", &[tuple(vec![s("a"), i(1)])]), "True");
    assert_eq!(ok(&s("abc"), "startswith", &[s(""), i(5)]), "False");
    assert_eq!(ok(&s("abc"), "startswith", &[s(""), i(3)]), "True");
    assert_eq!(ok(&s("abc"), "startswith", &[s("b"), i(1)]), "True");
    assert_eq!(ok(&s("abc"), "endswith", &[s("b"), i(0), i(-1)]), "True");
    assert_eq!(ok(&s("aé日"), "endswith", &[s("é"), none(), i(2)]), "True");
    assert_eq!(
        call(&s("abc"), "startswith", &[i(1)]),
        Err((ErrorKind::Type, "startswith first arg must be str or a tuple of str, not int".into()))
    );
    assert_eq!(
        call(&s("abc"), "endswith", &[tuple(vec![i(1)])]),
        Err((ErrorKind::Type, "tuple for endswith must only contain str, not int".into()))
    );
    // A list is not a tuple of prefixes.
    assert_eq!(
        call(&s("abc"), "startswith", &[list(vec![s("a")])]),
        Err((ErrorKind::Type, "startswith first arg must be str or a tuple of str, not list".into()))
    );
}

#[test]
fn searching() {
    let w = s("héllo héllo");
    assert_eq!(ok(&w, "find", &[s("llo")]), "2");
    assert_eq!(ok(&w, "rfind", &[s("llo")]), "8");
    assert_eq!(ok(&w, "find", &[s("llo"), i(3)]), "8");
    assert_eq!(ok(&w, "find", &[s("llo"), i(3), i(-1)]), "-1");
    assert_eq!(ok(&w, "find", &[s("x")]), "-1");
    assert_eq!(ok(&w, "index", &[s("é")]), "1");
    assert_eq!(ok(&w, "rindex", &[s("é")]), "7");
    assert_eq!(ok(&w, "count", &[s("l")]), "4");
    assert_eq!(ok(&w, "count", &[s("l"), i(-3)]), "2");
    assert_eq!(ok(&s("aaaa"), "count", &[s("aa")]), "2");
    assert_eq!(ok(&s("abc"), "count", &[s("")]), "4");
    assert_eq!(ok(&s("abc"), "count", &[s(""), i(4)]), "0");
    assert_eq!(ok(&s("abc"), "find", &[s(""), i(3)]), "3");
    assert_eq!(ok(&s("abc"), "find", &[s(""), i(4)]), "-1");
    assert_eq!(ok(&s("abc"), "rfind", &[s("")]), "3");
    assert_eq!(ok(&u("日本日本"), "rfind", &[s("日")]), "2");
    assert_eq!(call(&s("a"), "index", &[s("b")]), Err((ErrorKind::Value, "substring not found".into())));
    assert_eq!(call(&s("a"), "count", &[i(1)]), Err((ErrorKind::Type, "must be str, not int".into())));
    assert_eq!(
        call(&s("abc"), "find", &[s("b"), Slot::from_float(1.5)]),
        Err((ErrorKind::Type, "slice indices must be integers or None or have an __index__ method".into()))
    );
}

#[test]
fn replacing() {
    assert_eq!(ok(&s("aXbXc"), "replace", &[s("X"), s("--")]), "'a--b--c'");
    assert_eq!(ok(&s("aXbXc"), "replace", &[s("X"), s(""), i(1)]), "'abXc'");
    assert_eq!(ok(&s("abc"), "replace", &[s(""), s("-")]), "'-a-b-c-'");
    assert_eq!(ok(&s("abc"), "replace", &[s(""), s("-"), i(2)]), "'-a-bc'");
    assert_eq!(ok(&u("日本"), "replace", &[s("本"), s("語")]), "'日語'");
    assert_eq!(
        call(&s("a"), "replace", &[i(1), s("b")]),
        Err((ErrorKind::Type, "replace() argument 1 must be str, not int".into()))
    );
}

#[test]
fn predicates() {
    let p = |x: &str, name: &str| ok(&s(x), name, &[]) == "True";
    assert!(p("123", "isdigit") && p("²", "isdigit") && !p("½", "isdigit") && !p("", "isdigit"));
    assert!(p("١٢", "isdecimal") && !p("²", "isdecimal") && p("𝟎𝟗", "isdecimal"));
    assert!(p("½Ⅻ一", "isnumeric") && p("²", "isnumeric") && !p("a", "isnumeric"));
    assert!(p("abcé日", "isalpha") && p("一", "isalpha") && !p("ा", "isalpha") && !p("Ⅻ", "isalpha"));
    assert!(!p("a1", "isalpha") && !p("", "isalpha"));
    assert!(p("a½1", "isalnum") && !p("a b", "isalnum"));
    assert!(p(" \t\u{1c}\u{3000}", "isspace") && !p("\u{200b}", "isspace") && !p("", "isspace"));
    assert!(p("a1", "islower") && p("ß", "islower") && p("ª", "islower") && !p("1", "islower"));
    assert!(!p("ǅ", "islower") && !p("ǅ", "isupper") && !p("aB", "islower"));
    assert!(p("A1", "isupper") && !p("Ab", "isupper"));
    assert_eq!(ok(&u("٣"), "isdigit", &[]), "True");
    // CPython 3.11's answers.
    assert!(p("a b!é", "isprintable") && p("", "isprintable") && !p("a\tb", "isprintable"));
    assert!(!p("\u{a0}", "isprintable") && !p("\u{200b}", "isprintable") && !p("\u{e000}", "isprintable"));
    assert!(p("_x1", "isidentifier") && p("été", "isidentifier") && p("class", "isidentifier"));
    assert!(!p("1x", "isidentifier") && !p("a-b", "isidentifier") && !p("", "isidentifier"));
    assert!(!p("a\u{200d}", "isidentifier") && p("a\u{b7}", "isidentifier"));
}

#[test]
fn number_methods() {
    assert_eq!(ok(&i(255), "bit_length", &[]), "8");
    assert_eq!(ok(&i(-256), "bit_length", &[]), "9");
    assert_eq!(ok(&i(0), "bit_length", &[]), "0");
    assert_eq!(ok(&i(i64::MIN), "bit_length", &[]), "64");
    assert_eq!(ok(&i(-7), "bit_count", &[]), "3");
    assert_eq!(ok(&b(true), "bit_length", &[]), "1");
    assert_eq!(ok(&f(2.0), "is_integer", &[]), "True");
    assert_eq!(ok(&f(2.5), "is_integer", &[]), "False");
    assert_eq!(ok(&f(f64::INFINITY), "is_integer", &[]), "False");
    assert_eq!(
        call(&i(2), "is_integer", &[]),
        Err((ErrorKind::Attribute, "'int' object has no attribute 'is_integer'".into()))
    );
    assert_eq!(
        call(&f(2.0), "bit_length", &[]),
        Err((ErrorKind::Attribute, "'float' object has no attribute 'bit_length'".into()))
    );
    assert_eq!(
        call(&i(2), "bit_length", &[i(1)]),
        Err((ErrorKind::Type, "int.bit_length() takes no arguments (1 given)".into()))
    );
}

#[test]
fn list_methods() {
    let l = list(vec![i(3), i(1)]);
    assert_eq!(ok(&l, "append", &[s("x")]), "None");
    assert_eq!(ok(&l, "extend", &[s("ab")]), "None");
    assert_eq!(rep(&l), "[3, 1, 'x', 'a', 'b']");
    assert_eq!(ok(&l, "pop", &[]), "'b'");
    assert_eq!(ok(&l, "pop", &[i(0)]), "3");
    assert_eq!(ok(&l, "pop", &[i(-2)]), "'x'");
    assert_eq!(rep(&l), "[1, 'a']");
    assert_eq!(ok(&l, "insert", &[i(100), i(5)]), "None");
    assert_eq!(ok(&l, "insert", &[i(-100), i(0)]), "None");
    assert_eq!(ok(&l, "insert", &[i(-1), i(9)]), "None");
    assert_eq!(rep(&l), "[0, 1, 'a', 9, 5]");
    assert_eq!(ok(&l, "index", &[Slot::from_float(1.0)]), "1");
    assert_eq!(ok(&l, "index", &[i(9), i(-2)]), "3");
    assert_eq!(call(&l, "index", &[i(9), i(0), i(3)]), Err((ErrorKind::Value, "9 is not in list".into())));
    assert_eq!(call(&l, "index", &[s("q")]), Err((ErrorKind::Value, "'q' is not in list".into())));
    assert_eq!(ok(&l, "count", &[Slot::from_bool(true)]), "1");
    assert_eq!(ok(&l, "remove", &[s("a")]), "None");
    assert_eq!(call(&l, "remove", &[s("a")]), Err((ErrorKind::Value, "list.remove(x): x not in list".into())));
    assert_eq!(ok(&l, "reverse", &[]), "None");
    assert_eq!(rep(&l), "[5, 9, 1, 0]");
    let c = call_method(Method::Copy, l.view(), &[]).unwrap();
    assert_eq!(ok(&l, "sort", &[]), "None");
    assert_eq!(rep(&l), "[0, 1, 5, 9]");
    assert_eq!(rep(&c), "[5, 9, 1, 0]");
    assert_eq!(ok(&l, "clear", &[]), "None");
    assert_eq!(rep(&l), "[]");
    assert_eq!(call(&l, "pop", &[]), Err((ErrorKind::Index, "pop from empty list".into())));
    assert_eq!(call(&list(vec![i(1)]), "pop", &[i(5)]), Err((ErrorKind::Index, "pop index out of range".into())));
    let mixed = list(vec![i(1), s("a")]);
    assert_eq!(
        call(&mixed, "sort", &[]),
        Err((ErrorKind::Type, "'<' not supported between instances of 'str' and 'int'".into()))
    );
    assert_eq!(rep(&mixed), "[1, 'a']");
    let strs = list(vec![s("b"), u("a"), s("é")]);
    ok(&strs, "sort", &[]);
    assert_eq!(rep(&strs), "['a', 'b', 'é']");
}

#[test]
fn dict_methods() {
    let d = dict(vec![(s("a"), i(1)), (s("b"), i(2))]);
    assert_eq!(ok(&d, "get", &[s("a")]), "1");
    assert_eq!(ok(&d, "get", &[s("z")]), "None");
    assert_eq!(ok(&d, "get", &[s("z"), i(0)]), "0");
    assert_eq!(ok(&d, "keys", &[]), "dict_keys(['a', 'b'])");
    assert_eq!(ok(&d, "values", &[]), "dict_values([1, 2])");
    assert_eq!(ok(&d, "items", &[]), "dict_items([('a', 1), ('b', 2)])");
    assert_eq!(ok(&d, "setdefault", &[s("a"), i(9)]), "1");
    assert_eq!(ok(&d, "setdefault", &[s("c")]), "None");
    assert_eq!(ok(&d, "pop", &[s("c")]), "None");
    assert_eq!(ok(&d, "pop", &[s("c"), i(7)]), "7");
    assert_eq!(call(&d, "pop", &[s("c")]), Err((ErrorKind::Key, "'c'".into())));
    assert_eq!(ok(&d, "update", &[dict(vec![(s("b"), i(20)), (s("d"), i(4))])]), "None");
    assert_eq!(ok(&d, "update", &[list(vec![list(vec![s("e"), i(5)])])]), "None");
    assert_eq!(rep(&d), "{'a': 1, 'b': 20, 'd': 4, 'e': 5}");
    assert_eq!(call(&d, "update", &[i(1)]), Err((ErrorKind::Type, "'int' object is not iterable".into())));
    let c = call_method(Method::Copy, d.view(), &[]).unwrap();
    assert_eq!(ok(&d, "clear", &[]), "None");
    assert_eq!(rep(&d), "{}");
    assert_eq!(rep(&c), "{'a': 1, 'b': 20, 'd': 4, 'e': 5}");
    assert_eq!(call(&d, "get", &[dict(vec![])]), Err((ErrorKind::Type, "unhashable type: 'dict'".into())));
    let d = dict(vec![(s("a"), i(1)), (s("b"), i(2))]);
    assert_eq!(ok(&d, "popitem", &[]), "('b', 2)");
    assert_eq!(ok(&d, "popitem", &[]), "('a', 1)");
    assert_eq!(call(&d, "popitem", &[]), Err((ErrorKind::Key, "'popitem(): dictionary is empty'".into())));
}
