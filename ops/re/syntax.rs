//! Python's regular expression syntax, read as CPython 3.11's `re` reads it (`sre_parse`), and
//! written out as a fancy-regex pattern that matches the same strings.
//!
//! The two syntaxes look alike but differ where it matters for text: Python's `\w` is a letter,
//! a number or `_` (no combining marks), its `\s` includes `\x1c`-`\x1f`, its `$` also matches
//! before a final newline, `\Z` is Rust's `\z`, `{` is a literal where it is not a quantifier,
//! and a class like `[[a]` or `[a&&b]` is a plain set of characters. So the translation emits
//! every construct in an explicit form: literals as `\x{..}` escapes, Python's classes spelled
//! out, group names replaced by numbers (Python allows names Rust does not), and flags applied
//! where they act (`.` `^` `$` and the classes) rather than handed over. Errors carry CPython's
//! message and position ("bad escape \q at position 0").

use std::fmt::Write;

/// `re.IGNORECASE`.
pub const IGNORECASE: i64 = 2;
/// `re.LOCALE` (refused for str patterns, as CPython refuses it).
pub const LOCALE: i64 = 4;
/// `re.MULTILINE`.
pub const MULTILINE: i64 = 8;
/// `re.DOTALL`.
pub const DOTALL: i64 = 16;
/// `re.UNICODE` (the default for str patterns).
pub const UNICODE: i64 = 32;
/// `re.VERBOSE`.
pub const VERBOSE: i64 = 64;
/// `re.DEBUG` (accepted; anyscript prints nothing).
pub const DEBUG: i64 = 128;
/// `re.ASCII`.
pub const ASCII: i64 = 256;
/// The flags of which a pattern may have only one (`_parser.TYPE_FLAGS`).
const TYPE_FLAGS: i64 = ASCII | LOCALE | UNICODE;

/// Python's `\w` in Unicode mode, as class items: `str.isalnum()` characters and `_`.
const WORD_ITEMS: &str = r"\p{L}\p{N}_";
/// Python's `\w` under `re.ASCII`.
const ASCII_WORD_ITEMS: &str = "0-9A-Za-z_";
/// Python's `\s` in Unicode mode: the characters for which `str.isspace()` is true.
const SPACE_ITEMS: &str =
    r"\x{9}-\x{d}\x{1c}-\x{20}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}";
/// Python's `\s` under `re.ASCII`.
const ASCII_SPACE_ITEMS: &str = r"\x{9}-\x{d}\x{20}";
/// Python's `\d` in Unicode mode (`str.isdecimal()`).
const DIGIT_ITEMS: &str = r"\p{Nd}";
/// Python's `\d` under `re.ASCII`.
const ASCII_DIGIT_ITEMS: &str = "0-9";

/// A pattern translated for fancy-regex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    /// The fancy-regex pattern.
    pub pattern: String,
    /// The number of capturing groups.
    pub groups: usize,
    /// Group names and their numbers, in the order the groups open.
    pub names: Vec<(String, usize)>,
    /// For each group (1-based number - 1), the number of the last group opened inside it, or
    /// its own: group `j` is nested in group `i` when `i < j <= last_nested[i - 1]`.
    pub last_nested: Vec<usize>,
    /// The pattern's flags: those given, with the global inline ones (`(?i)`) added.
    pub flags: i64,
}

/// A pattern CPython's `re` refuses, with CPython's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// CPython's message, without the position.
    pub message: String,
    /// What CPython raises.
    pub raised: Raised,
}

/// The exception CPython raises for a pattern it refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raised {
    /// `re.error` at this position (in code points).
    At(usize),
    /// The `ValueError` of flags that cannot go together (CPython's `fix_flags`).
    FlagsValue,
    /// The `OverflowError` of a repetition count too large.
    Overflow,
}

impl PatternError {
    /// CPython's `ValueError` for flags that cannot go together.
    fn of_flags(message: &str) -> PatternError {
        PatternError { message: message.into(), raised: Raised::FlagsValue }
    }

    /// `re.error`'s `lineno` and `colno` of the position in `pattern` (1-based).
    pub fn line_col(pos: usize, pattern: &str) -> (usize, usize) {
        let before: Vec<char> = pattern.chars().take(pos).collect();
        let line = before.iter().filter(|&&c| c == '\n').count() + 1;
        let column = pos - before.iter().rposition(|&c| c == '\n').map_or(0, |i| i + 1) + 1;
        (line, column)
    }

    /// `str(e)` of CPython's exception for `pattern`: the message, its position, and the line
    /// and column where the pattern spans lines.
    pub fn text(&self, pattern: &str) -> String {
        let Raised::At(pos) = self.raised else { return self.message.clone() };
        match PatternError::line_col(pos, pattern) {
            (line, column) if pattern.contains('\n') => {
                format!("{} at position {pos} (line {line}, column {column})", self.message)
            }
            _ => format!("{} at position {pos}", self.message),
        }
    }
}

/// The flags in force at a point of the pattern.
#[derive(Clone, Copy, Debug)]
struct Flags {
    ignore_case: bool,
    multiline: bool,
    dotall: bool,
    verbose: bool,
    ascii: bool,
}

impl Flags {
    /// These flags with those of `bits` turned on or off (`(?i-s:...)`).
    fn with(mut self, bits: i64, value: bool) -> Flags {
        let set = |bit: i64, field: &mut bool| {
            if bits & bit != 0 {
                *field = value;
            }
        };
        set(IGNORECASE, &mut self.ignore_case);
        set(MULTILINE, &mut self.multiline);
        set(DOTALL, &mut self.dotall);
        set(VERBOSE, &mut self.verbose);
        set(ASCII, &mut self.ascii);
        if bits & UNICODE != 0 {
            self.ascii = false;
        }
        self
    }

    fn of(bits: i64) -> Flags {
        Flags {
            ignore_case: bits & IGNORECASE != 0,
            multiline: bits & MULTILINE != 0,
            dotall: bits & DOTALL != 0,
            verbose: bits & VERBOSE != 0,
            ascii: bits & ASCII != 0,
        }
    }
}

/// What an item of a sequence is, for the quantifier rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    /// Something a quantifier may follow.
    Repeatable,
    /// A lookaround, which a quantifier may follow in Python but not in fancy-regex.
    Lookaround,
    /// An anchor (`^ $ \A \Z \b \B`): "nothing to repeat".
    Anchor,
    /// Nothing (the start of a sequence, a comment, a flags group).
    Nothing,
}

/// Translates `pattern` compiled with `flags` (the `re` module's bits).
pub fn translate(pattern: &str, flags: i64) -> Result<Translated, PatternError> {
    let mut p = Parser {
        chars: pattern.chars().collect(),
        pos: 0,
        groups: 0,
        closed: Vec::new(),
        last_nested: Vec::new(),
        names: Vec::new(),
        lookbehind: 0,
    };
    let flags = p.global_flags(flags)?;
    let body = p.alternation(Flags::of(flags))?;
    if p.pos < p.chars.len() {
        // Only an unmatched `)` stops the top-level alternation early.
        return Err(p.error_at("unbalanced parenthesis", p.pos));
    }
    // CPython's `fix_flags`, once the whole pattern has been read: errors of the flags given
    // (inline `L` was refused where it stood).
    if flags & LOCALE != 0 {
        return Err(PatternError::of_flags("cannot use LOCALE flag with a str pattern"));
    }
    if flags & ASCII != 0 && flags & UNICODE != 0 {
        return Err(PatternError::of_flags("ASCII and UNICODE flags are incompatible"));
    }
    let pattern = if flags & IGNORECASE != 0 { format!("(?i:{body})") } else { body };
    // A str pattern is Unicode unless it is ASCII.
    let flags = if flags & ASCII == 0 { flags | UNICODE } else { flags };
    Ok(Translated { pattern, groups: p.groups, names: p.names, last_nested: p.last_nested, flags })
}

/// The flags an inline group turns on and off, and whether it closed at once (`(?i)`, whose
/// flags are the whole pattern's).
struct InlineFlags {
    on: i64,
    off: i64,
    global: bool,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    /// Capturing groups opened so far.
    groups: usize,
    /// Whether each group (1-based index - 1) has closed.
    closed: Vec<bool>,
    /// The last group opened inside each group, as [`Translated::last_nested`] says.
    last_nested: Vec<usize>,
    names: Vec<(String, usize)>,
    /// Depth of lookbehind assertions around the current point.
    lookbehind: usize,
}

impl Parser {
    fn error_at(&self, message: impl Into<String>, pos: usize) -> PatternError {
        PatternError { message: message.into(), raised: Raised::At(pos) }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    /// The next character, consumed.
    fn next_char(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads the leading `(?aiLmsux)` groups, which set flags for the whole pattern.
    fn global_flags(&mut self, mut flags: i64) -> Result<i64, PatternError> {
        while self.peek() == Some('(') && self.peek_at(1) == Some('?') {
            let Some(first) = self.peek_at(2).filter(|&c| c == '-' || flag_bit(c).is_some()) else { break };
            let start = self.pos;
            self.pos += 3;
            // A scoped group (`(?i:x)`) is read again where the pattern's items are; its errors
            // are the same there, as nothing comes before it.
            let group = self.inline_flags(first)?;
            if !group.global {
                self.pos = start;
                break;
            }
            flags |= group.on;
        }
        Ok(flags)
    }

    /// Skips what `re.VERBOSE` ignores: whitespace and `#` comments.
    fn skip_verbose(&mut self, flags: Flags) {
        if !flags.verbose {
            return;
        }
        while let Some(c) = self.peek() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') {
                self.pos += 1;
            } else if c == '#' {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// `a|b|...` up to an unmatched `)` or the end.
    fn alternation(&mut self, flags: Flags) -> Result<String, PatternError> {
        let mut out = self.sequence(flags)?;
        while self.eat('|') {
            out.push('|');
            out.push_str(&self.sequence(flags)?);
        }
        Ok(out)
    }

    /// A run of quantified items.
    fn sequence(&mut self, flags: Flags) -> Result<String, PatternError> {
        let mut out = String::new();
        let mut last = Item::Nothing;
        loop {
            self.skip_verbose(flags);
            let Some(c) = self.peek() else { break };
            if c == '|' || c == ')' {
                break;
            }
            if let Some(q) = self.quantifier()? {
                let at = self.pos;
                return Err(self.error_at(
                    if matches!(last, Item::Repeatable | Item::Lookaround) {
                        "multiple repeat"
                    } else {
                        "nothing to repeat"
                    },
                    at - q.len,
                ));
            }
            let (atom, kind) = self.atom(flags)?;
            let mut piece = atom;
            if kind == Item::Lookaround {
                self.skip_verbose(flags);
                if let Some(q) = self.quantifier()? {
                    // Repeating a zero-width test is the test at most once.
                    piece = match (q.min, q.mode) {
                        (0, Greed::Lazy) => format!("(?:|{piece})"),
                        (0, _) => format!("(?:{piece}|)"),
                        _ => piece,
                    };
                }
            } else if kind == Item::Repeatable {
                self.skip_verbose(flags);
                if let Some(q) = self.quantifier()? {
                    // An empty group repeated matches empty, as it does once (fancy-regex
                    // refuses the repetition).
                    if !matches!(piece.as_str(), "(?:)" | "()") {
                        piece = q.apply(&piece);
                    }
                    self.skip_verbose(flags);
                    if let Some(q2) = self.quantifier()? {
                        return Err(self.error_at("multiple repeat", self.pos - q2.len));
                    }
                }
            } else if kind == Item::Anchor {
                self.skip_verbose(flags);
                if let Some(q) = self.quantifier()? {
                    return Err(self.error_at("nothing to repeat", self.pos - q.len));
                }
            }
            if kind != Item::Nothing {
                last = kind;
            }
            out.push_str(&piece);
        }
        Ok(out)
    }

    /// A quantifier at the current position (consumed), if there is one.
    fn quantifier(&mut self) -> Result<Option<Quantifier>, PatternError> {
        let start = self.pos;
        let (min, max) = match self.peek() {
            Some('*') => {
                self.pos += 1;
                (0, None)
            }
            Some('+') => {
                self.pos += 1;
                (1, None)
            }
            Some('?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some('{') => match self.braces()? {
                Some(bounds) => bounds,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let mode = if self.eat('?') {
            Greed::Lazy
        } else if self.eat('+') {
            Greed::Possessive
        } else {
            Greed::Greedy
        };
        Ok(Some(Quantifier { min, max, mode, len: self.pos - start }))
    }

    /// `{m}`, `{m,}`, `{,n}` or `{m,n}` (consumed); `None`, consuming nothing, when the brace is
    /// a literal, as CPython reads `a{`, `{x}` or `{1, 2}`.
    fn braces(&mut self) -> Result<Option<(u64, Option<u64>)>, PatternError> {
        let start = self.pos;
        let mut at = self.pos + 1;
        let digits = |at: &mut usize, chars: &[char]| {
            let from = *at;
            while chars.get(*at).is_some_and(char::is_ascii_digit) {
                *at += 1;
            }
            chars[from..*at].iter().collect::<String>()
        };
        let lo = digits(&mut at, &self.chars);
        let (hi, comma) = if self.chars.get(at) == Some(&',') {
            at += 1;
            (digits(&mut at, &self.chars), true)
        } else {
            (String::new(), false)
        };
        if self.chars.get(at) != Some(&'}') || (lo.is_empty() && hi.is_empty() && !comma) {
            return Ok(None);
        }
        self.pos = at + 1;
        const MAXREPEAT: u64 = 4_294_967_295;
        let parse = |s: &str| -> Result<u64, PatternError> {
            match s.parse::<u64>() {
                Ok(n) if n < MAXREPEAT => Ok(n),
                _ => {
                    Err(PatternError { message: "the repetition number is too large".into(), raised: Raised::Overflow })
                }
            }
        };
        let min = if lo.is_empty() { 0 } else { parse(&lo)? };
        let max = if !comma {
            Some(min)
        } else if hi.is_empty() {
            None
        } else {
            Some(parse(&hi)?)
        };
        if max.is_some_and(|m| m < min) {
            // CPython names the position just after the `{`.
            return Err(self.error_at("min repeat greater than max repeat", start + 1));
        }
        Ok(Some((min, max)))
    }

    /// One atom, emitted, and what kind of item it is.
    fn atom(&mut self, flags: Flags) -> Result<(String, Item), PatternError> {
        let start = self.pos;
        let c = self.peek().expect("the caller checked");
        self.pos += 1;
        Ok(match c {
            '(' => self.group(flags, start)?,
            '[' => (self.class(flags, start)?, Item::Repeatable),
            '.' => ((if flags.dotall { "(?s:.)" } else { "[^\\n]" }).to_string(), Item::Repeatable),
            '^' => ((if flags.multiline { "(?m:^)" } else { "\\A" }).to_string(), Item::Anchor),
            '$' => ((if flags.multiline { "(?m:$)" } else { "(?=\\n?\\z)" }).to_string(), Item::Anchor),
            '\\' => self.escape(flags, start)?,
            c if flags.ignore_case && dotted_i(c, c) => (format!("[{DOTTED_I}]"), Item::Repeatable),
            c => (literal(c), Item::Repeatable),
        })
    }

    /// A group after its `(`.
    fn group(&mut self, flags: Flags, start: usize) -> Result<(String, Item), PatternError> {
        if !self.eat('?') {
            return self.capturing(flags, start, None);
        }
        let Some(c) = self.peek() else {
            return Err(self.error_at("unexpected end of pattern", self.pos));
        };
        self.pos += 1;
        match c {
            ':' => Ok((format!("(?:{})", self.group_body(flags, start)?), Item::Repeatable)),
            '>' => Ok((format!("(?>{})", self.group_body(flags, start)?), Item::Repeatable)),
            '=' | '!' => {
                let body = self.group_body(flags, start)?;
                Ok((format!("(?{c}{body})"), Item::Lookaround))
            }
            '#' => {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == ')' {
                        return Ok((String::new(), Item::Nothing));
                    }
                }
                Err(self.error_at("missing ), unterminated comment", start))
            }
            '<' => match self.peek() {
                Some(d @ ('=' | '!')) => {
                    self.pos += 1;
                    self.lookbehind += 1;
                    let body = self.group_body(flags, start);
                    self.lookbehind -= 1;
                    Ok((format!("(?<{d}{}", body?) + ")", Item::Lookaround))
                }
                Some(_) => {
                    // `(?<name>...)` is Python 3.12's spelling; 3.11 refuses it.
                    let d = self.peek().unwrap_or(' ');
                    Err(self.error_at(format!("unknown extension ?<{d}"), start + 1))
                }
                None => Err(self.error_at("unexpected end of pattern", self.pos)),
            },
            'P' => self.p_group(flags, start),
            '(' => self.conditional(flags, start),
            c if flag_bit(c).is_some() || c == '-' => self.flag_group(flags, start, c),
            // CPython shows an escape whole (`?\\1`).
            '\\' => {
                let next = self.peek().map_or(String::new(), String::from);
                Err(self.error_at(format!("unknown extension ?\\{next}"), start + 1))
            }
            c => Err(self.error_at(format!("unknown extension ?{c}"), start + 1)),
        }
    }

    /// `(?P<name>...)` and `(?P=name)`, after `(?P`.
    fn p_group(&mut self, flags: Flags, start: usize) -> Result<(String, Item), PatternError> {
        if self.eat('<') {
            let name = self.name_until('>')?;
            return self.capturing(flags, start, Some(name));
        }
        if self.eat('=') {
            let name_at = self.pos;
            let name = self.name_until(')')?;
            let Some(&(_, n)) = self.names.iter().find(|(m, _)| *m == name) else {
                return Err(self.error_at(format!("unknown group name '{name}'"), name_at));
            };
            if !self.closed[n - 1] {
                return Err(self.error_at("cannot refer to an open group", name_at));
            }
            return Ok((format!("(?:\\{n})"), Item::Repeatable));
        }
        let c = self.peek().map_or(String::new(), String::from);
        Err(self.error_at(format!("unknown extension ?P{c}"), start + 1))
    }

    /// A group name up to `end` (consumed), checked as CPython checks it.
    fn name_until(&mut self, end: char) -> Result<String, PatternError> {
        let from = self.pos;
        while let Some(c) = self.peek() {
            if c == end {
                let name: String = self.chars[from..self.pos].iter().collect();
                self.pos += 1;
                if name.is_empty() {
                    return Err(self.error_at("missing group name", from));
                }
                if !is_identifier(&name) {
                    return Err(self.error_at(format!("bad character in group name '{name}'"), from));
                }
                return Ok(name);
            }
            self.pos += 1;
        }
        Err(self.error_at(format!("missing {end}, unterminated name"), from))
    }

    /// A capturing group after its opening, optionally named.
    fn capturing(&mut self, flags: Flags, start: usize, name: Option<String>) -> Result<(String, Item), PatternError> {
        self.groups += 1;
        let n = self.groups;
        self.closed.push(false);
        self.last_nested.push(n);
        if let Some(name) = name {
            if let Some((_, old)) = self.names.iter().find(|(m, _)| *m == name) {
                let message = format!("redefinition of group name '{name}' as group {n}; was group {old}");
                return Err(self.error_at(message, start + 4));
            }
            self.names.push((name, n));
        }
        let body = self.group_body(flags, start)?;
        self.closed[n - 1] = true;
        self.last_nested[n - 1] = self.groups;
        Ok((format!("({body})"), Item::Repeatable))
    }

    /// A group's alternation and its closing `)`.
    fn group_body(&mut self, flags: Flags, start: usize) -> Result<String, PatternError> {
        let body = self.alternation(flags)?;
        if !self.eat(')') {
            return Err(self.error_at("missing ), unterminated subpattern", start));
        }
        Ok(body)
    }

    /// `(?(group)yes|no)`, after `(?(`.
    fn conditional(&mut self, flags: Flags, start: usize) -> Result<(String, Item), PatternError> {
        let name_at = self.pos;
        let mut name = String::new();
        loop {
            let Some(c) = self.peek() else {
                let message = if name.is_empty() { "missing group name" } else { "missing ), unterminated name" };
                return Err(self.error_at(message, name_at));
            };
            self.pos += 1;
            if c == ')' {
                break;
            }
            name.push(c);
        }
        let n = if let Ok(n) = name.parse::<usize>() {
            if n == 0 {
                return Err(self.error_at("bad group number", name_at));
            }
            n
        } else if is_identifier(&name) {
            match self.names.iter().find(|(m, _)| *m == name) {
                Some(&(_, n)) => n,
                None => return Err(self.error_at(format!("unknown group name '{name}'"), name_at)),
            }
        } else {
            return Err(self.error_at(format!("bad character in group name '{name}'"), name_at));
        };
        let yes = self.sequence(flags)?;
        let no = if self.eat('|') {
            let no = self.sequence(flags)?;
            if self.peek() == Some('|') {
                return Err(self.error_at("conditional backref with more than two branches", self.pos));
            }
            Some(no)
        } else {
            None
        };
        if !self.eat(')') {
            return Err(self.error_at("missing ), unterminated subpattern", start));
        }
        if n > self.groups {
            return Err(self.error_at(format!("invalid group reference {n}"), name_at));
        }
        let out = match no {
            Some(no) => format!("(?({n}){yes}|{no})"),
            None => format!("(?({n}){yes})"),
        };
        Ok((out, Item::Repeatable))
    }

    /// The flags of `(?aiLmsux)` or `(?aiLmsux-imsx:`, after `(?` and the first letter `first`,
    /// read as CPython's `_parse_flags` reads them. Each error is raised where CPython raises
    /// it: at the character that broke the sequence, or just after a flag that may not be there.
    fn inline_flags(&mut self, first: char) -> Result<InlineFlags, PatternError> {
        let (mut on, mut off) = (0, 0);
        let mut c = first;
        if c != '-' {
            loop {
                let bit = flag_bit(c).expect("the caller checked");
                if c == 'L' {
                    return Err(self.error_at("bad inline flags: cannot use 'L' flag with a str pattern", self.pos));
                }
                on |= bit;
                if bit & TYPE_FLAGS != 0 && on & TYPE_FLAGS != bit {
                    return Err(self.error_at("bad inline flags: flags 'a', 'u' and 'L' are incompatible", self.pos));
                }
                let Some(next) = self.next_char() else {
                    return Err(self.error_at("missing -, : or )", self.pos));
                };
                c = next;
                if matches!(c, ')' | '-' | ':') {
                    break;
                }
                if flag_bit(c).is_none() {
                    let message = if c.is_alphabetic() { "unknown flag" } else { "missing -, : or )" };
                    return Err(self.error_at(message, self.pos - 1));
                }
            }
        }
        if c == ')' {
            return Ok(InlineFlags { on, off, global: true });
        }
        if c == '-' {
            let Some(next) = self.next_char() else {
                return Err(self.error_at("missing flag", self.pos));
            };
            c = next;
            if flag_bit(c).is_none() {
                let message = if c.is_alphabetic() { "unknown flag" } else { "missing flag" };
                return Err(self.error_at(message, self.pos - 1));
            }
            loop {
                let bit = flag_bit(c).expect("checked");
                if bit & TYPE_FLAGS != 0 {
                    let message = "bad inline flags: cannot turn off flags 'a', 'u' and 'L'";
                    return Err(self.error_at(message, self.pos));
                }
                off |= bit;
                let Some(next) = self.next_char() else {
                    return Err(self.error_at("missing :", self.pos));
                };
                c = next;
                if c == ':' {
                    break;
                }
                if flag_bit(c).is_none() {
                    let message = if c.is_alphabetic() { "unknown flag" } else { "missing :" };
                    return Err(self.error_at(message, self.pos - 1));
                }
            }
        }
        if on & off != 0 {
            return Err(self.error_at("bad inline flags: flag turned on and off", self.pos - 1));
        }
        Ok(InlineFlags { on, off, global: false })
    }

    /// `(?imsx-imsx:...)`, after `(?` and its first letter `first`; a global `(?i)` here is
    /// CPython's "global flags not at the start" error.
    fn flag_group(&mut self, flags: Flags, start: usize, first: char) -> Result<(String, Item), PatternError> {
        let InlineFlags { on, off, global } = self.inline_flags(first)?;
        if global {
            return Err(self.error_at("global flags not at the start of the expression", start));
        }
        let inner = flags.with(on, true).with(off, false);
        let body = self.group_body(inner, start)?;
        // Only case-insensitivity is left to fancy-regex; the other flags shaped the translation.
        let case = match (flags.ignore_case, inner.ignore_case) {
            (false, true) => "i",
            (true, false) => "-i",
            _ => "",
        };
        Ok((format!("(?{case}:{body})"), Item::Repeatable))
    }

    /// An escape outside a class, after its backslash.
    fn escape(&mut self, flags: Flags, start: usize) -> Result<(String, Item), PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.error_at("bad escape (end of pattern)", start));
        };
        self.pos += 1;
        let class = |items: &str| format!("[{items}]");
        let negated = |items: &str| format!("[^{items}]");
        let word = if flags.ascii { ASCII_WORD_ITEMS } else { WORD_ITEMS };
        Ok(match c {
            'A' => ("\\A".into(), Item::Anchor),
            'Z' => ("\\z".into(), Item::Anchor),
            'b' => (format!("(?:(?<=[{word}])(?![{word}])|(?<![{word}])(?=[{word}]))"), Item::Anchor),
            // CPython's `\B` never matches in an empty string.
            'B' => (
                format!("(?:(?<=[{word}])(?=[{word}])|(?<![{word}])(?![{word}])(?:(?<=[\\s\\S])|(?=[\\s\\S])))"),
                Item::Anchor,
            ),
            'd' => (class(digit_items(flags)), Item::Repeatable),
            'D' => (negated(digit_items(flags)), Item::Repeatable),
            's' => (class(space_items(flags)), Item::Repeatable),
            'S' => (negated(space_items(flags)), Item::Repeatable),
            'w' => (class(word), Item::Repeatable),
            'W' => (negated(word), Item::Repeatable),
            '0'..='9' => self.number_escape(c, start)?,
            _ => (literal(self.char_escape(c, start, false)?), Item::Repeatable),
        })
    }

    /// `\0`, an octal escape or a group reference, after the backslash and first digit `c`.
    fn number_escape(&mut self, c: char, start: usize) -> Result<(String, Item), PatternError> {
        if c == '0' {
            let mut value = 0;
            for _ in 0..2 {
                match self.peek().and_then(|d| d.to_digit(8)) {
                    Some(d) => {
                        value = value * 8 + d;
                        self.pos += 1;
                    }
                    None => break,
                }
            }
            return Ok((literal(char::from_u32(value).unwrap_or('\0')), Item::Repeatable));
        }
        let mut digits = c.to_string();
        if let Some(d) = self.peek().filter(char::is_ascii_digit) {
            self.pos += 1;
            digits.push(d);
            if let Some(e) = self.peek().filter(|e| e.is_digit(8))
                && c.is_digit(8)
                && d.is_digit(8)
            {
                self.pos += 1;
                digits.push(e);
                let value = u32::from_str_radix(&digits, 8).expect("octal digits");
                if value > 0o377 {
                    return Err(self.error_at(format!("octal escape value \\{digits} outside of range 0-0o377"), start));
                }
                return Ok((literal(char::from_u32(value).expect("below 256")), Item::Repeatable));
            }
        }
        let n: usize = digits.parse().expect("decimal digits");
        if n <= self.groups {
            if !self.closed[n - 1] {
                return Err(self.error_at("cannot refer to an open group", start));
            }
            if self.lookbehind > 0 {
                return Err(self.error_at("cannot refer to group defined in the same lookbehind subpattern", start));
            }
            return Ok((format!("(?:\\{n})"), Item::Repeatable));
        }
        Err(self.error_at(format!("invalid group reference {n}"), start + 1))
    }

    /// The character an escape stands for (`\n`, `\x41`, `\u00e9`, `\.`), after the backslash
    /// and `c`; `in_class` gives `\b` its class meaning, backspace.
    fn char_escape(&mut self, c: char, start: usize, in_class: bool) -> Result<char, PatternError> {
        Ok(match c {
            'a' => '\x07',
            'b' if in_class => '\x08',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            '\\' => '\\',
            'x' => self.hex_escape(c, 2, start)?,
            'u' => self.hex_escape(c, 4, start)?,
            'U' => self.hex_escape(c, 8, start)?,
            'N' => self.named_char(start)?,
            c if c.is_ascii_alphanumeric() => return Err(self.error_at(format!("bad escape \\{c}"), start)),
            c => c,
        })
    }

    /// `\N{name}` after its `N` (the escape starting at `start`): the character named `name`,
    /// an alias too, as `unicodedata.lookup` finds it, with CPython's errors and positions.
    fn named_char(&mut self, start: usize) -> Result<char, PatternError> {
        if self.peek() != Some('{') {
            return Err(self.error_at("missing {", self.pos));
        }
        let from = self.pos + 1;
        // CPython's tokenizer takes a backslash and the character after it as one.
        let mut end = from;
        while end < self.chars.len() && self.chars[end] != '}' {
            end += if self.chars[end] == '\\' { 2 } else { 1 };
        }
        if end >= self.chars.len() || end == from {
            let message = if end == from { "missing character name" } else { "missing }, unterminated name" };
            return Err(self.error_at(message, from));
        }
        let name: String = self.chars[from..end].iter().collect();
        self.pos = end + 1;
        crate::ops::unicodedata_lookup::char_named(&name).ok_or_else(|| {
            let shown = crate::pipeline::value_ops::repr_value(crate::Value::Str(&name));
            self.error_at(format!("undefined character name {shown}"), start)
        })
    }

    /// `\xhh`, `\uhhhh` or `\Uhhhhhhhh` after the letter.
    fn hex_escape(&mut self, letter: char, len: usize, start: usize) -> Result<char, PatternError> {
        let digits: String = self.chars[self.pos..].iter().take(len).take_while(|c| c.is_ascii_hexdigit()).collect();
        self.pos += digits.len();
        if digits.len() < len {
            return Err(self.error_at(format!("incomplete escape \\{letter}{digits}"), start));
        }
        let value = u32::from_str_radix(&digits, 16).expect("hex digits");
        char::from_u32(value).ok_or_else(|| self.error_at(format!("bad escape \\{letter}{digits}"), start))
    }

    /// A class after its `[`.
    fn class(&mut self, flags: Flags, start: usize) -> Result<String, PatternError> {
        let mut out = String::from("[");
        if self.eat('^') {
            out.push('^');
        }
        let first = self.pos;
        let mut folds_i = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error_at("unterminated character set", start));
            };
            let item_at = self.pos;
            self.pos += 1;
            if c == ']' && item_at != first {
                break;
            }
            let lo = if c == '\\' { self.class_escape(flags, item_at)? } else { ClassItem::Char(c) };
            if let ClassItem::Char(c) = lo {
                folds_i |= flags.ignore_case && dotted_i(c, c);
            }
            if self.peek() == Some('-') {
                self.pos += 1;
                let Some(d) = self.peek() else {
                    return Err(self.error_at("unterminated character set", start));
                };
                if d == ']' {
                    lo.write(&mut out);
                    out.push_str(&literal('-'));
                    self.pos += 1;
                    break;
                }
                self.pos += 1;
                let hi = if d == '\\' { self.class_escape(flags, self.pos - 1)? } else { ClassItem::Char(d) };
                let (ClassItem::Char(a), ClassItem::Char(b)) = (&lo, &hi) else {
                    let text: String = self.chars[item_at..self.pos].iter().collect();
                    return Err(self.error_at(format!("bad character range {text}"), item_at));
                };
                if b < a {
                    let text: String = self.chars[item_at..self.pos].iter().collect();
                    return Err(self.error_at(format!("bad character range {text}"), item_at));
                }
                folds_i |= flags.ignore_case && dotted_i(*a, *b);
                let _ = write!(out, "{}-{}", literal(*a), literal(*b));
            } else {
                lo.write(&mut out);
            }
        }
        if folds_i {
            out.push_str(DOTTED_I);
        }
        out.push(']');
        Ok(out)
    }

    /// An escape inside a class, after its backslash.
    fn class_escape(&mut self, flags: Flags, start: usize) -> Result<ClassItem, PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.error_at("bad escape (end of pattern)", start));
        };
        self.pos += 1;
        let word = if flags.ascii { ASCII_WORD_ITEMS } else { WORD_ITEMS };
        Ok(match c {
            'd' => ClassItem::Items(digit_items(flags).into()),
            'D' => ClassItem::Items(format!("[^{}]", digit_items(flags))),
            's' => ClassItem::Items(space_items(flags).into()),
            'S' => ClassItem::Items(format!("[^{}]", space_items(flags))),
            'w' => ClassItem::Items(word.into()),
            'W' => ClassItem::Items(format!("[^{word}]")),
            '0'..='7' => {
                let mut digits = c.to_string();
                while digits.len() < 3 && self.peek().is_some_and(|d| d.is_digit(8)) {
                    digits.push(self.peek().expect("checked"));
                    self.pos += 1;
                }
                let value = u32::from_str_radix(&digits, 8).expect("octal digits");
                if value > 0o377 {
                    let message = format!("octal escape value \\{digits} outside of range 0-0o377");
                    return Err(self.error_at(message, start));
                }
                ClassItem::Char(char::from_u32(value).expect("below 256"))
            }
            '8' | '9' => return Err(self.error_at(format!("bad escape \\{c}"), start)),
            c => ClassItem::Char(self.char_escape(c, start, true)?),
        })
    }
}

/// One member of a class: a character (which may start a range) or a set of them.
enum ClassItem {
    Char(char),
    Items(String),
}

impl ClassItem {
    fn write(&self, out: &mut String) {
        match self {
            ClassItem::Char(c) => out.push_str(&literal(*c)),
            ClassItem::Items(items) => out.push_str(items),
        }
    }
}

fn digit_items(flags: Flags) -> &'static str {
    if flags.ascii { ASCII_DIGIT_ITEMS } else { DIGIT_ITEMS }
}

fn space_items(flags: Flags) -> &'static str {
    if flags.ascii { ASCII_SPACE_ITEMS } else { SPACE_ITEMS }
}

/// The bit of an inline flag letter.
fn flag_bit(c: char) -> Option<i64> {
    Some(match c {
        'a' => ASCII,
        'i' => IGNORECASE,
        'L' => LOCALE,
        'm' => MULTILINE,
        's' => DOTALL,
        'u' => UNICODE,
        'x' => VERBOSE,
        _ => return None,
    })
}

/// Whether `name` is a Python identifier (what group names must be).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic()) && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// `I`, `i`, `İ` and `ı`, which CPython's case-insensitive matching holds equal (it compares
/// simple lowercase and uppercase mappings) where Unicode's simple case folding, fancy-regex's
/// rule, pairs only `I` with `i`. They are the only characters whose classes differ.
const DOTTED_I: &str = "Ii\\x{130}\\x{131}";

/// Whether `lo..=hi` holds one of [`DOTTED_I`]'s characters.
fn dotted_i(lo: char, hi: char) -> bool {
    ['I', 'i', '\u{130}', '\u{131}'].iter().any(|c| (lo..=hi).contains(c))
}

/// A character as a pattern literal: letters and digits as they are, anything else escaped, so
/// that no character of the text is read as syntax.
fn literal(c: char) -> String {
    if c.is_alphanumeric() { c.to_string() } else { format!("\\x{{{:x}}}", c as u32) }
}

/// A quantifier: bounds and greed.
struct Quantifier {
    min: u64,
    max: Option<u64>,
    mode: Greed,
    /// Its length in the pattern, for error positions.
    len: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Greed {
    Greedy,
    Lazy,
    Possessive,
}

impl Quantifier {
    /// `atom` repeated.
    fn apply(&self, atom: &str) -> String {
        let bounds = match (self.min, self.max) {
            (0, None) => "*".to_string(),
            (1, None) => "+".to_string(),
            (0, Some(1)) => "?".to_string(),
            (m, None) => format!("{{{m},}}"),
            (m, Some(n)) if m == n => format!("{{{m}}}"),
            (m, Some(n)) => format!("{{{m},{n}}}"),
        };
        // Grouped, since fancy-regex refuses to repeat some atoms (a lookaround) bare.
        match self.mode {
            Greed::Greedy => format!("(?:{atom}){bounds}"),
            Greed::Lazy => format!("(?:{atom}){bounds}?"),
            Greed::Possessive => format!("(?>(?:{atom}){bounds})"),
        }
    }
}

/// `re.escape(s)`: a backslash before each character CPython 3.7+ escapes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "()[]{}?*+-|^$\\.&~# \t\n\r\x0b\x0c".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(p: &str) -> String {
        translate(p, 0).unwrap_err().text(p)
    }

    #[test]
    fn errors_are_cpythons() {
        // Each message and position as CPython 3.11's re.compile raises it.
        assert_eq!(err(r"\q"), "bad escape \\q at position 0");
        assert_eq!(err("a**"), "multiple repeat at position 2");
        assert_eq!(err("(a"), "missing ), unterminated subpattern at position 0");
        assert_eq!(err("a)"), "unbalanced parenthesis at position 1");
        assert_eq!(err("[a"), "unterminated character set at position 0");
        assert_eq!(err("(?P<1a>x)"), "bad character in group name '1a' at position 4");
        assert_eq!(err("x(?i)"), "global flags not at the start of the expression at position 1");
        assert_eq!(err("*"), "nothing to repeat at position 0");
        assert_eq!(err("a{3,2}"), "min repeat greater than max repeat at position 2");
        assert_eq!(err("ab{10,2}"), "min repeat greater than max repeat at position 3");
        assert_eq!(err("(?aui)x"), "bad inline flags: flags 'a', 'u' and 'L' are incompatible at position 4");
        assert_eq!(err("(?iL)x"), "bad inline flags: cannot use 'L' flag with a str pattern at position 4");
        assert_eq!(err("x(?L)"), "bad inline flags: cannot use 'L' flag with a str pattern at position 4");
        assert_eq!(err("(?-L:y)"), "bad inline flags: cannot turn off flags 'a', 'u' and 'L' at position 4");
        assert_eq!(err("(?a)(?u)x"), "ASCII and UNICODE flags are incompatible");
        assert_eq!(err(r"(a)\2"), "invalid group reference 2 at position 4");
        assert_eq!(err(r"[z-a]"), "bad character range z-a at position 1");
        assert_eq!(err("\n\\"), "bad escape (end of pattern) at position 1 (line 2, column 1)");
        assert_eq!(err("d(?->"), "missing flag at position 4");
        assert_eq!(err("(?s?xi"), "missing -, : or ) at position 3");
        assert_eq!(err("(?("), "missing group name at position 3");
    }

    #[test]
    fn braces_that_are_not_quantifiers_are_literals() {
        let t = translate("a{b}{,2}c{1, 2}", 0).unwrap();
        assert_eq!(t.pattern, "a\\x{7b}b(?:\\x{7d}){0,2}c\\x{7b}1\\x{2c}\\x{20}2\\x{7d}");
    }

    #[test]
    fn groups_are_numbered_and_named() {
        let t = translate(r"(?P<word>\w+)(?:-)(x)(?P=word)", 0).unwrap();
        assert_eq!(t.groups, 2);
        assert_eq!(t.names, vec![("word".to_string(), 1)]);
        assert!(t.pattern.ends_with(r"(?:\1)"));
    }

    #[test]
    fn escape_matches_cpython() {
        assert_eq!(escape("a.b c_d-é"), "a\\.b\\ c_d\\-é");
    }
}
