//! The ops whose Python function takes `*args` and then keyword-only parameters:
//! `itertools.product(*iterables, repeat=1)`, `itertools.zip_longest(*iterables,
//! fillvalue=None)` and `heapq.merge(*iterables, key=None, reverse=False)`.
//!
//! Rationale: an op takes its arguments by position only, and for these every positional
//! argument is one of the `*args`, so there is no position a keyword could be bound to. A call
//! with keywords therefore runs the op's keyword form instead: the same function, given the
//! keyword-only parameters' values first (each given one or its default) and the `*args`
//! after them. The registered op itself keeps Python's positional meaning, so a pipeline or a
//! Python caller sees one op whatever a script's call looked like.

use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::ast::Literal;
use crate::{AnyValue, AnyView, PackedFunc};

/// How the Python function words a keyword it does not take; CPython words it three ways.
#[derive(Clone, Copy)]
pub enum KeywordErrors {
    /// A C function that parses its keywords with `PyArg_ParseTupleAndKeywords` (`product`).
    ParsedInC,
    /// `zip_longest`, which takes exactly one keyword and names none in its error.
    ZipLongest,
    /// A function written in Python (`heapq.merge`).
    Python,
}

/// One op whose Python function takes `*args`, then keyword-only parameters.
pub struct StarOp {
    /// The op's dotted name (`itertools.product`).
    pub op: &'static str,
    /// The name Python's function gives itself in errors.
    pub name: &'static str,
    /// The keyword-only parameters, in the order the keyword form takes them.
    pub keywords: &'static [&'static str],
    /// The default of each keyword-only parameter.
    pub defaults: &'static [Literal],
    /// How a keyword it does not take is reported.
    pub errors: KeywordErrors,
    /// The keyword form: the keyword-only values first, then the `*args`.
    pub with_keywords: fn(&[AnyView<'_>]) -> Result<AnyValue>,
}

/// Every op whose Python function takes `*args` and keyword-only parameters.
pub const STAR_OPS: &[StarOp] = &[
    StarOp {
        op: "itertools.product",
        name: "product",
        keywords: &["repeat"],
        defaults: &[Literal::Int(1)],
        errors: KeywordErrors::ParsedInC,
        with_keywords: super::itertools::product_with_keywords,
    },
    StarOp {
        op: "itertools.zip_longest",
        name: "zip_longest",
        keywords: &["fillvalue"],
        defaults: &[Literal::None],
        errors: KeywordErrors::ZipLongest,
        with_keywords: super::itertools_select::zip_longest_with_keywords,
    },
    StarOp {
        op: "heapq.merge",
        name: "merge",
        keywords: &["key", "reverse"],
        defaults: &[Literal::None, Literal::Bool(false)],
        errors: KeywordErrors::Python,
        with_keywords: super::heapq_merge::merge_with_keywords,
    },
];

/// The op `name` if its Python function takes `*args` and keyword-only parameters.
pub fn star_op(name: &str) -> Option<&'static StarOp> {
    STAR_OPS.iter().find(|s| s.op == name)
}

impl StarOp {
    /// Where each keyword-only parameter's value comes from for a call given the keywords
    /// `given`: the index of its keyword in `given`, or `None` for its default; CPython's
    /// TypeError for a keyword the function does not take.
    pub fn bind(&self, given: &[&str]) -> Result<Vec<Option<usize>>> {
        let type_error = |message: String| Error::new(ErrorKind::Type, message);
        let name = self.name;
        match self.errors {
            KeywordErrors::ParsedInC if given.len() > self.keywords.len() => {
                let (n, s) = (self.keywords.len(), if self.keywords.len() == 1 { "" } else { "s" });
                return Err(type_error(format!(
                    "{name}() takes at most {n} keyword argument{s} ({} given)",
                    given.len()
                )));
            }
            KeywordErrors::ZipLongest if given.len() > 1 => {
                return Err(type_error(format!("{name}() got an unexpected keyword argument")));
            }
            _ => {}
        }
        if let Some(k) = given.iter().find(|k| !self.keywords.contains(k)) {
            return Err(type_error(match self.errors {
                KeywordErrors::ParsedInC => format!("'{k}' is an invalid keyword argument for {name}()"),
                KeywordErrors::ZipLongest => format!("{name}() got an unexpected keyword argument"),
                KeywordErrors::Python => format!("{name}() got an unexpected keyword argument '{k}'"),
            }));
        }
        if let Some(k) = given.iter().enumerate().find_map(|(i, k)| given[..i].contains(k).then_some(k)) {
            // Python's parser refuses a repeated keyword before the call could run.
            return Err(Error::new(ErrorKind::Parse, format!("keyword argument repeated: {k}")));
        }
        Ok(self.keywords.iter().map(|k| given.iter().position(|g| g == k)).collect())
    }

    /// The keyword form as a function value.
    pub fn func(&self) -> PackedFunc {
        PackedFunc::new(self.with_keywords)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_keywords_in_declared_order() {
        let merge = star_op("heapq.merge").unwrap();
        assert_eq!(merge.bind(&["reverse"]).unwrap(), vec![None, Some(0)]);
        assert_eq!(merge.bind(&["reverse", "key"]).unwrap(), vec![Some(1), Some(0)]);
    }

    #[test]
    fn words_unknown_keywords_as_cpython() {
        // Messages from CPython 3.11.
        let message = |op: &str, given: &[&str]| star_op(op).unwrap().bind(given).unwrap_err().message().to_string();
        assert_eq!(message("itertools.product", &["x"]), "'x' is an invalid keyword argument for product()");
        assert_eq!(
            message("itertools.product", &["repeat", "x"]),
            "product() takes at most 1 keyword argument (2 given)"
        );
        assert_eq!(message("itertools.zip_longest", &["x"]), "zip_longest() got an unexpected keyword argument");
        assert_eq!(message("heapq.merge", &["x"]), "merge() got an unexpected keyword argument 'x'");
    }
}
