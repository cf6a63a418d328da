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
