//! `text[i]` over every index of a long line gives its characters, ASCII or not.
//!
//! UTF-8 text is indexed by code point, which needs counting from one end; a loop over
//! the indices of a megabyte line was quadratic until the interpreter widened long text
//! to UCS4 on the first index. The reference is Rust's own `chars()`.

use anyproc::pipeline::script;
use anyproc::{AnyView, List};

const SPLIT: &str =
    "def split(text):\n    out = []\n    for i in range(len(text)):\n        out.append(text[i])\n    return out\n";
const ENDS: &str = "def ends(text):\n    return [text[0], text[-1], text[len(text) // 2], text[-len(text)]]\n";

fn characters_of(text: &str) -> Vec<String> {
    let f = script(SPLIT, "split").expect("compiles");
    let out: List = f.call(&[AnyView::from(text)]).and_then(|v| v.get()).expect("a list");
    out.iter().map(|c| c.to_string()).collect()
}

fn check(text: &str) {
    let want: Vec<String> = text.chars().map(String::from).collect();
    assert_eq!(characters_of(text), want);
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let f = script(ENDS, "ends").expect("compiles");
    let out: List = f.call(&[AnyView::from(text)]).and_then(|v| v.get()).expect("a list");
    let got: Vec<String> = out.iter().map(|c| c.to_string()).collect();
    let want: Vec<String> = [chars[0], chars[n - 1], chars[n / 2], chars[0]].iter().map(|c| c.to_string()).collect();
    assert_eq!(got, want);
}

#[test]
fn a_megabyte_of_ascii_is_indexed_character_by_character() {
    let text: String = (0..1_000_000u32).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    check(&text);
}

#[test]
fn long_text_with_two_three_and_four_byte_characters_is_indexed_by_code_point() {
    let text = "aé漢😀".repeat(50_000);
    check(&text);
    // Just past the widening threshold and just below it.
    check(&"é".repeat(32));
    check(&"é".repeat(31));
}

#[test]
fn windows_and_lengths_of_long_text_match_the_characters() {
    // Trigrams of a long line by slicing, as n-gram glue code writes them, and `len` in the
    // loop condition: both counted code points from the start of UTF-8 text on every use.
    let f = script(
        "def trigrams(text):\n    out = []\n    i = 0\n    while i + 3 <= len(text):\n        out.append(text[i:i + 3])\n        i += 1\n    return out\n",
        "trigrams",
    )
    .expect("compiles");
    for text in ["aé漢😀b".repeat(20_000), "abcdefghij".repeat(20_000)] {
        let chars: Vec<char> = text.chars().collect();
        let want: Vec<String> = chars.windows(3).map(|w| w.iter().collect()).collect();
        let out: List = f.call(&[AnyView::from(text.as_str())]).and_then(|v| v.get()).expect("a list");
        let got: Vec<String> = out.iter().map(|c| c.to_string()).collect();
        assert_eq!(got, want);
    }
}

#[test]
fn a_string_built_a_piece_at_a_time_is_the_text() {
    // `out += c` grows `out` where it stands when nothing else refers to it (CPython does the
    // same); a string built a character at a time was quadratic before.
    let f =
        script("def rebuild(text):\n    out = ''\n    for c in text:\n        out += c\n    return out\n", "rebuild")
            .expect("compiles");
    for text in ["abcdefghij".repeat(100_000), "aé漢😀".repeat(20_000), String::new(), "x".into()] {
        let out = f.call(&[AnyView::from(text.as_str())]).expect("runs");
        assert_eq!(out.to_string(), text);
    }
}

#[test]
fn growing_a_string_in_place_leaves_every_other_reference_alone() {
    // Each answer is what CPython 3.11 returns for the same function.
    let f = script(
        "def aliases(text):\n    seen = []\n    out = text * 3\n    seen.append(out)\n    out += '!'\n    copy = out\n    out += '?'\n    out += out\n    return [seen[0], copy, out]\n",
        "aliases",
    )
    .expect("compiles");
    let out: List = f.call(&[AnyView::from("twelve bytes")]).and_then(|v| v.get()).expect("a list");
    let got: Vec<String> = out.iter().map(|c| c.to_string()).collect();
    let tripled = "twelve bytes".repeat(3);
    assert_eq!(got, [tripled.clone(), format!("{tripled}!"), format!("{tripled}!?{tripled}!?")]);
    // A constant is never grown: the second call sees it as the first did.
    let g =
        script("def grow(n):\n    s = 'a constant longer than sixteen bytes'\n    s += str(n)\n    return s\n", "grow")
            .expect("compiles");
    for n in [1i64, 2] {
        assert_eq!(
            g.call(&[AnyView::from(n)]).expect("runs").to_string(),
            format!("a constant longer than sixteen bytes{n}")
        );
    }
}
