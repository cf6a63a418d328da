//! Displays with unpacked items, `[*a, b]`, `(*a, b)` and `{**m, k: v}`, built step by step as
//! CPython 3.11 builds them: the items before the first `*` make the container, then each
//! `*value` is added when it has been evaluated and each later item after it, so an error stops
//! the display where CPython's stops, before the items after it are evaluated. A set display's
//! steps are `set.update` and `set.add` themselves, as CPython's `SET_UPDATE` and `SET_ADD` are.

use super::value_ops::{dict_of, dict_update_from, is_iterable, iter_items, list_of, type_error, vname};
use crate::{AnyView, Result};

/// The kind of container a display with `*value` or `**value` builds through [`unpack_into`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Display {
    /// A list, or a tuple (built as a list, then made a tuple by `tuple()`).
    List,
    /// A dict.
    Dict,
}

/// Adds the items of `value` (`*value`, or `**value` for a dict) to the display's `container`,
/// with CPython's errors: a list's "Value after *", a dict's "not a mapping" (a dict's update
/// from pairs is not one).
pub fn unpack_into(into: Display, container: AnyView<'_>, value: AnyView<'_>) -> Result<()> {
    let v = value.value();
    match into {
        Display::List => {
            if !is_iterable(v) {
                return Err(type_error(format!("Value after * must be an iterable, not {}", vname(v))));
            }
            let items = iter_items(v)?;
            let mut list = list_of(container.value()).ok_or_else(|| not_built("list"))?;
            list.try_extend(items, "list display")
        }
        Display::Dict => {
            if dict_of(v).is_none() {
                return Err(type_error(format!("'{}' object is not a mapping", vname(v))));
            }
            let mut dict = dict_of(container.value()).ok_or_else(|| not_built("dict"))?;
            dict_update_from(&mut dict, v)
        }
    }
}

/// The compiler hands these instructions the container it made; anything else is its bug.
fn not_built(what: &str) -> crate::Error {
    type_error(format!("a display with unpacking was not given the {what} it builds"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Slot;
    use crate::pipeline::test_values::*;
    use crate::pipeline::value_ops::repr_value;

    fn unpack(into: Display, container: &Slot, value: Slot) -> String {
        match unpack_into(into, container.view(), value.view()) {
            Ok(()) => repr_value(container.value()),
            Err(e) => e.message().to_string(),
        }
    }

    // Expected values are CPython 3.11's for `[*x]`, `{*x}` and `{**x}`.
    #[test]
    fn lists_take_any_iterable_and_name_what_is_not() {
        let l = list(vec![i(1)]);
        assert_eq!(unpack(Display::List, &l, s("ab")), "[1, 'a', 'b']");
        assert_eq!(unpack(Display::List, &l, dict(vec![(s("k"), i(2))])), "[1, 'a', 'b', 'k']");
        assert_eq!(unpack(Display::List, &l, i(5)), "Value after * must be an iterable, not int");
        assert_eq!(unpack(Display::List, &l, none()), "Value after * must be an iterable, not NoneType");
    }

    #[test]
    fn dicts_take_only_mappings_later_keys_winning() {
        let d = dict(vec![(i(1), i(2))]);
        assert_eq!(unpack(Display::Dict, &d, dict(vec![(i(1), i(3)), (s("x"), none())])), "{1: 3, 'x': None}");
        assert_eq!(unpack(Display::Dict, &d, i(5)), "'int' object is not a mapping");
        assert_eq!(unpack(Display::Dict, &d, list(vec![list(vec![i(1), i(2)])])), "'list' object is not a mapping");
    }
}
