//! Unicode conformance of the text ops' core functions, against the Unicode 15.0
//! test files shipped in `tests/data/unicode/` (provenance in `tests/data/README.md`).
//!
//! - `WordBreakTest.txt` through `ops::split::word_bounds` (unicode-segmentation's `split_word_bounds`);
//! - `GraphemeBreakTest.txt` through `ops::split::split_graphemes` (`graphemes(true)`);
//! - `NormalizationTest.txt.bz2` through `ops::normalize::{nfc, nfd, nfkc, nfkd}`: every line
//!   of every part against the five invariants in the file's header, plus Part 1's rule
//!   that every code point assigned in 15.0 and not listed in Part 1 is invariant.
//!
//! The crates implement a newer Unicode than the files (their `UNICODE_VERSION`s are
//! printed). A line is skipped only by a version rule, stated where it is applied, and
//! never by line number; skips are counted, printed and bounded. Independent Unicode
//! data for the rules (DerivedAge, the Emoji property) comes from regex-syntax's UCD
//! tables through `\p{...}` classes, not from the crates under test.

mod common;

use anyproc::ops::normalize::{nfc, nfd, nfkc, nfkd};
use anyproc::ops::split::{split_graphemes, word_bounds};
use regex::Regex;
use std::collections::HashSet;
use std::io::Read;

fn data_path(name: &str) -> std::path::PathBuf {
    common::root().join("tests/data/unicode").join(name)
}

/// A string from space-separated hex code points (`0044 0307`).
fn from_hex(field: &str) -> Result<String, String> {
    field
        .split_whitespace()
        .map(|h| {
            u32::from_str_radix(h, 16).ok().and_then(char::from_u32).ok_or_else(|| format!("bad code point {h:?}"))
        })
        .collect()
}

/// Code points as `0044 0307`, for messages.
fn to_hex(s: &str) -> String {
    s.chars().map(|c| format!("{:04X}", c as u32)).collect::<Vec<_>>().join(" ")
}

/// One line of a break test: the code points, whether a break precedes each position
/// `0..=n`, and the rule number the file's comment gives for that position.
struct BreakCase {
    chars: Vec<char>,
    breaks: Vec<bool>,
    rules: Vec<String>,
}

/// Parses `÷ 0001 × 0308 ÷ #  ÷ [0.2] ... × [9.0] ... ÷ [0.3]`; `None` for comments and blank lines.
fn parse_break_line(line: &str) -> Option<Result<BreakCase, String>> {
    let (body, comment) = line.split_once('#').unwrap_or((line, ""));
    if body.trim().is_empty() {
        return None;
    }
    let mut case = BreakCase { chars: Vec::new(), breaks: Vec::new(), rules: Vec::new() };
    for tok in body.split_whitespace() {
        match tok {
            "÷" => case.breaks.push(true),
            "×" => case.breaks.push(false),
            hex => match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                Some(c) => case.chars.push(c),
                None => return Some(Err(format!("bad code point {hex:?}"))),
            },
        }
    }
    // The comment repeats each boundary as `÷ [rule]` or `× [rule]`, in order.
    case.rules = comment
        .split(['÷', '×'])
        .skip(1)
        .filter_map(|part| part.trim_start().strip_prefix('[')?.split(']').next().map(str::to_owned))
        .collect();
    if case.breaks.len() != case.chars.len() + 1 || case.rules.len() != case.breaks.len() {
        return Some(Err("boundary markers do not match the code points".into()));
    }
    Some(Ok(case))
}

/// Whether a break precedes each position `0..=n`, from a segmentation of `s` into pieces.
fn breaks_of(s: &str, pieces: &[&str]) -> Vec<bool> {
    let mut at_byte = vec![false; s.len() + 1];
    let mut offset = 0;
    at_byte[0] = true;
    for p in pieces {
        offset += p.len();
        if let Some(slot) = at_byte.get_mut(offset) {
            *slot = true;
        }
    }
    s.char_indices().map(|(i, _)| at_byte[i]).chain([true]).collect()
}

/// Outcome counts of one conformance run.
#[derive(Default)]
struct Tally {
    passed: usize,
    skipped: Vec<String>,
    failed: Vec<String>,
}

impl Tally {
    /// Prints the counts and the skips, then asserts no failures and at most `max_skips` skips.
    fn finish(&self, what: &str, max_skips: usize) {
        println!("{what}: {} passed, {} skipped, {} failed", self.passed, self.skipped.len(), self.failed.len());
        for s in &self.skipped {
            println!("  skipped: {s}");
        }
        let first: Vec<&str> = self.failed.iter().take(20).map(String::as_str).collect();
        assert!(self.failed.is_empty(), "{what}: {} failures; first 20:\n{}", self.failed.len(), first.join("\n"));
        assert!(
            self.skipped.len() <= max_skips,
            "{what}: {} skips, more than the bound {max_skips}",
            self.skipped.len()
        );
        assert!(self.passed > 0, "{what}: no test lines were read");
    }
}

/// Runs a break test file: `segment` is the op under test, `pictographic_rule` the number the file
/// gives the rule that joins ZWJ to a following Extended_Pictographic (GB11 or WB3c).
fn run_break_test(file: &str, segment: fn(&str) -> Vec<&str>, pictographic_rule: &str) -> Tally {
    let text = std::fs::read_to_string(data_path(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let emoji = Regex::new(r"^\p{Emoji}$").expect("regex-syntax has the Emoji property");
    let mut tally = Tally::default();
    for (n, line) in text.lines().enumerate() {
        let case = match parse_break_line(line) {
            None => continue,
            Some(Ok(case)) => case,
            Some(Err(e)) => {
                tally.failed.push(format!("{file}:{}: unparsable ({e}): {line}", n + 1));
                continue;
            }
        };
        let s: String = case.chars.iter().collect();
        let pieces = segment(&s);
        let got = breaks_of(&s, &pieces);
        let wrong: Vec<usize> = (0..got.len()).filter(|&i| got[i] != case.breaks[i]).collect();
        if wrong.is_empty() {
            tally.passed += 1;
            continue;
        }
        let report = format!("{file}:{}: {}  got {:?}", n + 1, line.split('#').next().unwrap_or("").trim(), pieces);
        // Skip rule (Unicode 17.0, UTC decision 182-C20, L2/25-006 item 5.1): the
        // Extended_Pictographic property was removed from the 672 assigned characters
        // that lack the Emoji property (e.g. U+2701 UPPER BLADE SCISSORS). With a crate
        // at 17.0 or later, a boundary that the 15.0 file decides by the ZWJ × ExtPict
        // rule changes when the character after it is such a non-Emoji pictograph. A line
        // is skipped only if every wrong boundary is of that kind.
        let pictograph_change = unicode_segmentation::UNICODE_VERSION >= (17, 0, 0)
            && wrong.iter().all(|&i| {
                case.rules[i] == pictographic_rule
                    && case.chars.get(i).is_some_and(|c| !emoji.is_match(c.encode_utf8(&mut [0; 4])))
            });
        if pictograph_change {
            tally.skipped.push(format!("{report} (Extended_Pictographic removed from a non-Emoji character in 17.0)"));
        } else {
            tally.failed.push(report);
        }
    }
    tally
}

/// The bound on segmentation skips: the 15.0 files sample the non-Emoji pictographs with
/// one character, U+2701, in two lines of each file, so the rule can apply to at most 2 lines per file.
const MAX_PICTOGRAPH_SKIPS: usize = 2;

#[test]
fn word_break_test_through_word_bounds() {
    println!("unicode-segmentation implements Unicode {:?}", unicode_segmentation::UNICODE_VERSION);
    let tally = run_break_test("WordBreakTest.txt", |s| word_bounds(s).collect(), "3.3");
    tally.finish("WordBreakTest", MAX_PICTOGRAPH_SKIPS);
}

#[test]
fn grapheme_break_test_through_split_graphemes() {
    println!("unicode-segmentation implements Unicode {:?}", unicode_segmentation::UNICODE_VERSION);
    let tally = run_break_test("GraphemeBreakTest.txt", |s| split_graphemes(s).collect(), "11.0");
    tally.finish("GraphemeBreakTest", MAX_PICTOGRAPH_SKIPS);
}

/// The decompressed normalization test file.
fn normalization_test_text() -> String {
    let path = data_path("NormalizationTest.txt.bz2");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    bzip2::read::BzDecoder::new(file).read_to_string(&mut text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

/// The invariants of the file's header that do not hold for the columns `c` (empty if all hold).
fn broken_invariants(c: &[String; 5]) -> Vec<String> {
    type Form = for<'a> fn(&'a str) -> std::borrow::Cow<'a, str>;
    // (form, expected column, source columns), from CONFORMANCE item 1 of the header.
    let invariants: [(&str, Form, usize, &[usize]); 6] = [
        ("NFC", nfc, 1, &[0, 1, 2]),
        ("NFC", nfc, 3, &[3, 4]),
        ("NFD", nfd, 2, &[0, 1, 2]),
        ("NFD", nfd, 4, &[3, 4]),
        ("NFKC", nfkc, 3, &[0, 1, 2, 3, 4]),
        ("NFKD", nfkd, 4, &[0, 1, 2, 3, 4]),
    ];
    let mut broken = Vec::new();
    for (name, form, want, sources) in invariants {
        for &src in sources {
            let got = form(&c[src]);
            if got != c[want] {
                broken.push(format!("c{} != {name}(c{}) = {}", want + 1, src + 1, to_hex(&got)));
            }
        }
    }
    broken
}

/// Parses `c1;c2;c3;c4;c5; # comment` into the five columns.
fn parse_normalization_line(line: &str) -> Result<[String; 5], String> {
    let fields: Vec<&str> = line.split('#').next().unwrap_or("").split(';').collect();
    if fields.len() < 5 {
        return Err("fewer than 5 columns".into());
    }
    Ok([from_hex(fields[0])?, from_hex(fields[1])?, from_hex(fields[2])?, from_hex(fields[3])?, from_hex(fields[4])?])
}

#[test]
fn normalization_test_all_parts() {
    println!("unicode-normalization implements Unicode {:?}", unicode_normalization::UNICODE_VERSION);
    let text = normalization_test_text();
    let mut tally = Tally::default();
    let mut part = "";
    let mut parts_seen = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(name) = line.strip_prefix('@') {
            part = name.split_whitespace().next().unwrap_or("");
            parts_seen.push(part.to_owned());
            continue;
        }
        if line.split('#').next().unwrap_or("").trim().is_empty() {
            continue;
        }
        let broken = match parse_normalization_line(line) {
            Ok(c) => broken_invariants(&c),
            Err(e) => vec![format!("unparsable: {e}")],
        };
        if broken.is_empty() {
            tally.passed += 1;
        } else {
            tally.failed.push(format!("{part} line {}: {line}\n    {}", n + 1, broken.join("; ")));
        }
    }
    assert_eq!(parts_seen, ["Part0", "Part1", "Part2", "Part3"]);
    // No skip rule applies to the listed lines: by the Normalization Stability Policy the
    // forms of strings of assigned characters never change, and every listed character is assigned.
    tally.finish("NormalizationTest parts 0-3", 0);
}

/// Code points listed in column 1 of Part 1 (one code point per line there).
fn part1_code_points(text: &str) -> HashSet<char> {
    let mut in_part1 = false;
    let mut listed = HashSet::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('@') {
            in_part1 = name.starts_with("Part1");
            continue;
        }
        let first = line.split(';').next().unwrap_or("");
        if let (true, Ok(c1)) = (in_part1, from_hex(first)) {
            listed.extend(c1.chars().take(1));
        }
    }
    listed
}

/// The bound on invariance skips. With unicode-normalization 0.1.26 (Unicode 18.0) there are
/// 125: the characters with decompositions assigned after 15.0 (56 of them in 16.0 alone:
/// 36 outlined Latin letters and digits in Symbols for Legacy Computing Supplement and 20
/// letters of Todhri, Tulu-Tigalari, Gurung Khema and Kirat Rai). 250 leaves room for a few
/// more versions while still catching a broken age lookup, which would skip tens of thousands.
const MAX_UNASSIGNED_SKIPS: usize = 250;

#[test]
fn normalization_test_part1_unlisted_code_points_are_invariant() {
    let text = normalization_test_text();
    let listed = part1_code_points(&text);
    assert!(listed.len() > 10_000, "Part 1 lists {} code points; the parser is broken", listed.len());
    // DerivedAge from regex-syntax's UCD tables: `\p{Age=15.0}` is every code point assigned in 15.0 or before.
    let assigned_in_files_version = Regex::new(r"^\p{Age=V15_0}$").expect("regex-syntax has the Age property");
    let mut tally = Tally::default();
    for c in (0..=0x10FFFF).filter_map(char::from_u32).filter(|c| !listed.contains(c)) {
        let s = c.to_string();
        let forms = [("NFC", nfc(&s)), ("NFD", nfd(&s)), ("NFKC", nfkc(&s)), ("NFKD", nfkd(&s))];
        let changed: Vec<String> =
            forms.iter().filter(|(_, f)| *f != s).map(|(name, f)| format!("{name} = {}", to_hex(f))).collect();
        if changed.is_empty() {
            tally.passed += 1;
            continue;
        }
        let report = format!("U+{:04X}: {}", c as u32, changed.join(", "));
        // Skip rule: Part 1's invariant covers only code points assigned in 15.0. A code
        // point unassigned then may have gained a decomposition when it was assigned later
        // (decompositions of assigned characters never change, by the stability policy),
        // and the crate's newer tables know it.
        let unassigned_then =
            unicode_normalization::UNICODE_VERSION > (15, 0, 0) && !assigned_in_files_version.is_match(&s);
        if unassigned_then {
            tally.skipped.push(format!("{report} (unassigned in Unicode 15.0)"));
        } else {
            tally.failed.push(report);
        }
    }
    tally.finish("NormalizationTest Part 1 invariance of unlisted code points", MAX_UNASSIGNED_SKIPS);
}

#[test]
fn age_and_emoji_classes_are_what_the_skip_rules_assume() {
    // The skip rules lean on regex-syntax's UCD tables; check them on known characters
    // so that a change there shows up here rather than as a silent skip.
    let age = Regex::new(r"^\p{Age=V15_0}$").unwrap();
    assert!(age.is_match("\u{1E030}"), "U+1E030 (Cyrillic Extended-D) was assigned in 15.0");
    assert!(age.is_match("a"));
    assert!(!age.is_match("\u{105C9}"), "U+105C9 (Todhri) was assigned in 16.0");
    assert!(!age.is_match("\u{0378}"), "U+0378 is unassigned");
    let emoji = Regex::new(r"^\p{Emoji}$").unwrap();
    assert!(!emoji.is_match("\u{2701}"), "U+2701 UPPER BLADE SCISSORS is not Emoji");
    assert!(emoji.is_match("\u{2702}"), "U+2702 BLACK SCISSORS is Emoji");
}
