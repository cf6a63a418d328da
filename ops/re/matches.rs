//! `re.Match`: one match as a value, with CPython's `group`, `groups`, `groupdict`, `start`,
//! `end` and `span` (positions in code points, as Python counts them).

use super::pattern::Compiled;
use super::search_text::SearchText;
use crate::error::{Error, ErrorKind, Result};
use crate::object::{ObjPtr, ObjRef, Object, TypeHooks};
use crate::{AnyValue, AnyView, Dict, Tuple, Value};
use std::sync::Arc;

/// The byte span of each group (group 0 the whole match), `None` for a group that took no part.
pub(super) type Spans = Vec<Option<(usize, usize)>>;

/// The heap object behind a match.
#[repr(C)]
pub struct MatchObj {
    header: Object,
    text: SearchText,
    /// The window the search was given (`pos`, `endpos`), in code points.
    window: (usize, usize),
    spans: Spans,
    pattern: Arc<Compiled>,
}

crate::declare_object_type!(MatchObj, "re.Match", parent = Object, child_slots = 0, hooks = Some(&MATCH_HOOKS));

/// A match of `pattern` in `text` searched within `window` (code points), as a value.
pub(super) fn new_match(pattern: &Arc<Compiled>, text: &SearchText, window: (usize, usize), spans: Spans) -> AnyValue {
    AnyValue::from_object(ObjRef::new(MatchObj {
        header: Object::blank(),
        text: text.clone(),
        window,
        spans,
        pattern: pattern.clone(),
    }))
}

/// The match behind `v`, if it is one.
pub fn match_of(v: Value<'_>) -> Option<&MatchObj> {
    v.as_obj().and_then(ObjPtr::downcast_ref::<MatchObj>)
}

/// The type index of matches (for method dispatch).
pub fn match_type_index() -> i32 {
    <MatchObj as crate::object::ObjectType>::type_index()
}

fn no_such_group() -> Error {
    Error::new(ErrorKind::Index, "no such group")
}

impl MatchObj {
    /// The group an argument names: a number or a group name.
    fn group_index(&self, g: &AnyView<'_>) -> Result<usize> {
        match g.value() {
            Value::Int(i) => usize::try_from(i).ok().filter(|&i| i < self.spans.len()).ok_or_else(no_such_group),
            // A bool is an int in Python: `m.group(True)` is group 1.
            Value::Bool(b) => Some(b as usize).filter(|&i| i < self.spans.len()).ok_or_else(no_such_group),
            Value::Str(name) => self.pattern.group_number(name).ok_or_else(no_such_group),
            Value::UStr(u) => self.pattern.group_number(&u.iter().collect::<String>()).ok_or_else(no_such_group),
            _ => Err(no_such_group()),
        }
    }

    /// Group `i`'s text, or `default` when it took no part.
    fn group_value(&self, i: usize, default: Option<&AnyView<'_>>) -> AnyValue {
        match self.spans[i] {
            Some((s, e)) => AnyValue::from_text(&self.text.text[s..e]),
            None => default.map_or_else(AnyValue::none, |d| d.to_owned()),
        }
    }

    /// A byte offset of the text in code points.
    fn chars_to(&self, byte: usize) -> i64 {
        self.text.char_of(byte) as i64
    }

    /// Group `i`'s span in code points, `(-1, -1)` when it took no part.
    fn char_span(&self, i: usize) -> (i64, i64) {
        match self.spans[i] {
            Some((s, e)) => (self.chars_to(s), self.chars_to(e)),
            None => (-1, -1),
        }
    }

    /// `m.group(...)`, also `m[g]`.
    pub fn group(&self, args: &[AnyView<'_>]) -> Result<AnyValue> {
        match args {
            [] => Ok(self.group_value(0, None)),
            [g] => Ok(self.group_value(self.group_index(g)?, None)),
            _ => {
                let items = args.iter().map(|g| Ok(self.group_value(self.group_index(g)?, None)));
                Ok(Tuple::from_vec(items.collect::<Result<_>>()?).into())
            }
        }
    }

    /// `m.groups(default=None)`.
    pub fn groups(&self, default: Option<&AnyView<'_>>) -> AnyValue {
        Tuple::from_vec((1..self.spans.len()).map(|i| self.group_value(i, default)).collect()).into()
    }

    /// `m.expand(template)`: the template with this match's groups put in, as `re.sub` puts
    /// them in (a group that took no part is empty), with CPython's errors.
    pub fn expand(&self, template: &AnyView<'_>) -> Result<AnyValue> {
        let v = template.value();
        let (source, bytes) = match (crate::pipeline::value_ops::Text::of(v), v) {
            (Some(t), _) => (t.as_str().into_owned(), false),
            (None, crate::Value::Bytes(b)) => (b.iter().map(|&x| char::from(x)).collect(), true),
            _ => return Err(crate::pipeline::value_ops::not_bytes_like(v)),
        };
        let t = super::template::Template::parse(&source, &self.pattern)?;
        // CPython joins the pieces: a bytes template's first literal piece fails.
        if let Some(i) = t.first_literal().filter(|_| bytes) {
            return Err(crate::pipeline::value_ops::join_item_error(i, "bytes"));
        }
        let mut out = String::new();
        t.expand(&self.text.text, &self.spans, &mut out);
        Ok(AnyValue::from_text(&out))
    }

    /// `m.groupdict(default=None)`.
    pub fn groupdict(&self, default: Option<&AnyView<'_>>) -> Result<AnyValue> {
        let mut d = Dict::new();
        for (name, i) in &self.pattern.names {
            d.try_set(AnyValue::from_text(name), self.group_value(*i, default), "groupdict")?;
        }
        Ok(d.into_any())
    }

    /// `m.start(g)`, `m.end(g)` or `m.span(g)`.
    pub fn position(&self, which: Position, g: Option<&AnyView<'_>>) -> Result<AnyValue> {
        let i = g.map_or(Ok(0), |g| self.group_index(g))?;
        let (s, e) = self.char_span(i);
        Ok(match which {
            Position::Start => AnyValue::from_int(s),
            Position::End => AnyValue::from_int(e),
            Position::Span => Tuple::from_vec(vec![AnyValue::from_int(s), AnyValue::from_int(e)]).into(),
        })
    }
}

/// The data attributes of a match (`m.lastindex`, `m.string`, ...).
impl MatchObj {
    /// `m.string`: the text searched.
    pub fn string(&self) -> AnyValue {
        AnyValue::from_text(&self.text.text)
    }

    /// `m.re`: the pattern that made the match (the same object, from the compile cache).
    pub fn pattern(&self) -> Result<AnyValue> {
        Ok(super::Pattern::compile(&self.pattern.source, self.pattern.flags)?.into_any())
    }

    /// `m.pos`: where the search started.
    pub fn pos(&self) -> AnyValue {
        AnyValue::from_int(self.window.0 as i64)
    }

    /// `m.endpos`: where the search stopped.
    pub fn endpos(&self) -> AnyValue {
        AnyValue::from_int(self.window.1 as i64)
    }

    /// `m.lastindex`: the group that closed last, None if none took part. Of two ending at the
    /// same place, the one enclosing the other closed after it, and otherwise the later one.
    pub fn lastindex(&self) -> AnyValue {
        self.last_closed().map_or_else(AnyValue::none, |i| AnyValue::from_int(i as i64))
    }

    /// `m.lastgroup`: the name of [`Self::lastindex`]'s group, None if it has none.
    pub fn lastgroup(&self) -> AnyValue {
        let name = self.last_closed().and_then(|i| self.pattern.names.iter().find(|(_, n)| *n == i));
        name.map_or_else(AnyValue::none, |(name, _)| AnyValue::from_text(name))
    }

    /// The number of the group that closed last, of those that took part.
    fn last_closed(&self) -> Option<usize> {
        let nested_in = |inner: usize, outer: usize| outer < inner && inner <= self.pattern.last_nested[outer - 1];
        let mut last: Option<(usize, usize)> = None;
        for (i, span) in self.spans.iter().enumerate().skip(1) {
            let Some((_, end)) = *span else { continue };
            let closes_later = match last {
                None => true,
                Some((j, last_end)) => end > last_end || (end == last_end && !nested_in(i, j)),
            };
            if closes_later {
                last = Some((i, end));
            }
        }
        last.map(|(i, _)| i)
    }
}

/// Which of a group's positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// `start()`.
    Start,
    /// `end()`.
    End,
    /// `span()`.
    Span,
}

/// Matches compare by identity, as CPython's do, and print as
/// `<re.Match object; span=(0, 3), match='abc'>`.
static MATCH_HOOKS: TypeHooks = TypeHooks {
    eq: |a, b, _| a.as_raw() == b.as_raw(),
    hash: |p, state, _| state.write_usize(p.as_raw().as_ptr() as usize),
    repr: |p, f, _| {
        let Some(m) = p.downcast_ref::<MatchObj>() else { return Ok(()) };
        let (s, e) = m.char_span(0);
        let (bs, be) = m.spans[0].unwrap_or((0, 0));
        let text = crate::pipeline::value_ops::repr_value(Value::Str(&m.text.text[bs..be]));
        write!(f, "<re.Match object; span=({s}, {e}), match={text}>")
    },
};
