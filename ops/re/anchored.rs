//! Matches that must start at one place (`re.match`, `re.fullmatch`, `pattern.match(text,
//! pos)`), run by the regex crate's engines when the pattern needs no backtracking.
//!
//! fancy-regex runs such a match as `\G(?:P)` with its backtracking VM, since the regex crate
//! has no `\G`, and a lexer that calls `TOKEN.match(text, pos)` at each token paid for it. The
//! regex crate's engines start a match at a given byte when asked for an anchored search, and
//! still see the text before it (`^`, `\b` and lookbehinds work as in CPython), so a pattern
//! they accept runs there; one they refuse (lookarounds, backreferences, atomic groups, which
//! the translation of `$`, `\b` and possessive repeats also uses) keeps the fancy-regex path.

use super::matches::Spans;
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};
use std::sync::OnceLock;

/// The regex crate's programs for the anchored kinds of match, made on first use; `None` where
/// the pattern needs fancy-regex.
#[derive(Default)]
pub(super) struct AnchoredPrograms {
    /// The pattern itself, for a match that starts at the position.
    at: OnceLock<Option<Regex>>,
    /// The pattern then the end of the text, for a match from the position to the end.
    to_end: OnceLock<Option<Regex>>,
}

/// The largest compiled program, as fancy-regex's delegate allows.
const SIZE_LIMIT: usize = 1 << 26;

impl AnchoredPrograms {
    /// The match of `translated` (with `groups` capturing groups) that starts at byte `pos` of
    /// `text` and, if `to_end`, ends where `text` ends; `None` where this pattern must run on
    /// fancy-regex instead.
    pub(super) fn find(
        &self,
        translated: &str,
        groups: usize,
        to_end: bool,
        text: &str,
        pos: usize,
    ) -> Option<Option<Spans>> {
        let program = if to_end {
            self.to_end.get_or_init(|| build(&format!("(?:{translated})\\z"), groups))
        } else {
            self.at.get_or_init(|| build(translated, groups))
        };
        let program = program.as_ref()?;
        let input = Input::new(text).range(pos..).anchored(Anchored::Yes);
        if groups == 0 {
            // Only the span is wanted, which the DFAs find without tracking groups.
            return Some(program.search(&input).map(|m| vec![Some((m.start(), m.end()))]));
        }
        let mut caps = program.create_captures();
        program.search_captures(&input, &mut caps);
        if !caps.is_match() {
            return Some(None);
        }
        Some(Some((0..=groups).map(|i| caps.get_group(i).map(|s| (s.start, s.end))).collect()))
    }
}

/// The regex crate's program for `pattern`, if it takes it and counts the groups the
/// translation counted.
fn build(pattern: &str, groups: usize) -> Option<Regex> {
    let config = Regex::config().nfa_size_limit(Some(SIZE_LIMIT));
    let program = Regex::builder().configure(config).build(pattern).ok()?;
    (program.captures_len() == groups + 1).then_some(program)
}

#[cfg(test)]
mod tests {
    use super::super::pattern::{Anchor, Compiled};
    use super::super::syntax;

    /// The fancy-regex program's answer for `kind` at `pos`, the path these programs replace.
    fn fancy(c: &Compiled, kind: Anchor, text: &str, pos: usize) -> Option<Vec<Option<(usize, usize)>>> {
        let program = c.program(kind).unwrap();
        let marked = matches!(kind, Anchor::StartAt | Anchor::WholeAt);
        let caps = program.captures_from_pos(text, pos).unwrap()?;
        if marked && caps.get(c.groups + 1).is_none() {
            return None;
        }
        Some((0..=c.groups).map(|i| caps.get(i).map(|m| (m.start(), m.end()))).collect())
    }

    #[test]
    fn anchored_matches_equal_fancy_regexs_at_every_position() {
        let patterns = [
            (r"\d+(?:\.\d+)?|\w+|[^\w\s]", true),
            (r"a|ab", true),
            (r"(a|ab)(b*)\s?", true),
            (r"(?i)É|B+", true),
            (r"^\w+", true),
            (r"(?m)^b", true),
            (r"(x)?(é)*", true),
            // `$`, `\b` and lookarounds are translated to lookarounds: fancy-regex runs them.
            (r"\w+$", false),
            (r"b\b", false),
            (r"(?<=a)b", false),
            (r"(a)\1", false),
        ];
        let texts = ["ab abb 3.14 é\nbÉb", "", "aab", "1.2.3 x-y"];
        for (source, plain) in patterns {
            let c = Compiled::new(source, syntax::UNICODE).unwrap();
            for text in texts {
                for pos in (0..=text.len()).filter(|&p| text.is_char_boundary(p)) {
                    for kind in [Anchor::StartAt, Anchor::WholeAt] {
                        let ours = c.anchored_match(kind, text, pos);
                        assert_eq!(ours.is_some(), plain, "{source:?} runs on the regex crate: {plain}");
                        if let Some(ours) = ours {
                            assert_eq!(ours, fancy(&c, kind, text, pos), "{source:?} {kind:?} on {text:?} at {pos}");
                        }
                    }
                }
            }
        }
    }
}
