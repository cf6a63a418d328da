//! The pipeline file schema (TOML, or JSON with the same shape).
//!
//! ```toml
//! name = "bert-base-uncased"
//! inputs = ["text"]
//! [resources.tokenizer]                  # paths relative to this file; sha256 checked at load
//! path = "assets/bert-base-uncased/tokenizer.json"
//! sha256 = "..."
//! [constants]                            # plain TOML values, bound by name
//! [init]                                 # expressions run once at load, in order
//! bert = "tok.bert.from_file(tokenizer)"
//! functions = '''def helper(x): ...'''   # anyscript functions the steps may call
//! [[steps]]                              # run per record, in order
//! name = "encode"
//! out = "ids"
//! call = "bert(text, False)"
//! [[outputs]]                            # how per-record results become batch tensors
//! name = "input_ids"
//! from = "ids"
//! ```

use crate::error::{Error, ErrorKind, Result};
use crate::ndarray::DLDataType;
use crate::ndarray::collate::{CollateOptions, Padding, Side, SpecialTokens, Truncation};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A whole pipeline file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipelineSpec {
    /// The pipeline's name (used in messages).
    #[serde(default)]
    pub name: String,
    /// A sentence about what it does.
    #[serde(default)]
    pub description: String,
    /// Record fields the steps read; a line of plain text binds to the first.
    #[serde(default = "default_inputs")]
    pub inputs: Vec<String>,
    /// Interpreter limits.
    #[serde(default)]
    pub options: Options,
    /// Files the pipeline needs, by name; each name is bound to the file's absolute path.
    #[serde(default)]
    pub resources: IndexMap<String, Resource>,
    /// Plain values bound by name (TOML tables become dicts, arrays lists).
    #[serde(default)]
    pub constants: IndexMap<String, serde_json::Value>,
    /// Expressions evaluated once at load (building tokenizers, loading vocabularies).
    #[serde(default)]
    pub init: IndexMap<String, String>,
    /// anyscript source with `def`s the steps may call.
    #[serde(default)]
    pub functions: String,
    /// The per-record steps, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// What leaves the pipeline.
    #[serde(default)]
    pub outputs: Vec<Output>,
}

fn default_inputs() -> Vec<String> {
    vec!["text".into()]
}

/// Limits of the interpreter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Iterations one `while` loop may run before it is stopped (and items a `for` loop over a
    /// list may take that were added while it ran).
    #[serde(default = "default_while_limit")]
    pub while_limit: u64,
    /// Deepest call nesting.
    #[serde(default = "default_max_depth")]
    pub max_depth: u32,
}

fn default_while_limit() -> u64 {
    10_000_000
}

fn default_max_depth() -> u32 {
    super::compile::DEFAULT_MAX_DEPTH
}

impl Default for Options {
    fn default() -> Self {
        Options { while_limit: default_while_limit(), max_depth: default_max_depth() }
    }
}

/// A file the pipeline reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// Path relative to the pipeline file (or absolute).
    pub path: String,
    /// Expected SHA-256 of the file, hex; checked at load when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// One per-record step: `out = call`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The step's name in messages (defaults to its `out`).
    #[serde(default)]
    pub name: String,
    /// Variable the result is stored in (omit to run for effect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
    /// An anyscript expression: an op call `text.lower(text)`, a function call, any expression.
    pub call: String,
    /// Source line of the step (filled in at load for TOML files).
    #[serde(skip)]
    pub line: u32,
}

/// How a per-record value becomes part of the batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Rows of ids padded into `[batch, len]` tensors (with mask and type ids if asked).
    #[default]
    Padded,
    /// Flat values plus row offsets.
    Ragged,
    /// The values as they are, one per record (a list; `.jsonl` output, or a tensor if rectangular).
    List,
}

/// One output of the pipeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// The tensor's name (`input_ids`).
    pub name: String,
    /// The variable holding each record's value.
    pub from: String,
    /// A second variable, for pairs (`[CLS] a [SEP] b [SEP]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_from: Option<String>,
    /// Padded, ragged or list.
    #[serde(default)]
    pub layout: Layout,
    /// `int64` (default) or `int32`.
    #[serde(default = "default_dtype")]
    pub dtype: String,
    /// `longest` (default) or `max_length`.
    #[serde(default = "default_padding")]
    pub padding: String,
    /// Truncation bound and fixed padded length; counts special tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<usize>,
    /// `none`, `longest_first`, `only_first`, `only_second` (default: longest_first when max_length is set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncation: Option<String>,
    /// `right` (default) or `left`.
    #[serde(default = "default_side")]
    pub truncation_side: String,
    /// `right` (default) or `left`.
    #[serde(default = "default_side")]
    pub padding_side: String,
    /// Id written into padding.
    #[serde(default)]
    pub pad_id: i64,
    /// Round the padded length up to a multiple of this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pad_to_multiple_of: Option<usize>,
    /// Name of the attention-mask tensor to produce, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention_mask: Option<String>,
    /// Name of the token-type-ids tensor to produce, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_type_ids: Option<String>,
    /// Special tokens added around each row during collation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special_tokens: Option<SpecialTokensSpec>,
}

fn default_dtype() -> String {
    "int64".into()
}

fn default_padding() -> String {
    "longest".into()
}

fn default_side() -> String {
    "right".into()
}

/// Special tokens: BERT's `{cls, sep}`, or the four id lists around the first and second part.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialTokensSpec {
    /// BERT's `[CLS]` id (with `sep`: `[CLS] a [SEP] b [SEP]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cls: Option<i64>,
    /// BERT's `[SEP]` id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sep: Option<i64>,
    /// Ids before the first part.
    #[serde(default)]
    pub first_prefix: Vec<i64>,
    /// Ids after the first part.
    #[serde(default)]
    pub first_suffix: Vec<i64>,
    /// Ids before the second part.
    #[serde(default)]
    pub second_prefix: Vec<i64>,
    /// Ids after the second part.
    #[serde(default)]
    pub second_suffix: Vec<i64>,
}

fn bad_option(output: &str, key: &str, value: &str, allowed: &str) -> Error {
    Error::new(ErrorKind::Value, format!("output '{output}': {key} = {value:?} is not one of {allowed}"))
}

impl Output {
    /// The collation settings this output asks for.
    pub fn collate_options(&self) -> Result<CollateOptions> {
        let dtype = match self.dtype.as_str() {
            "int64" => DLDataType::INT64,
            "int32" => DLDataType::INT32,
            other => return Err(bad_option(&self.name, "dtype", other, "int64, int32")),
        };
        let padding = match self.padding.as_str() {
            "longest" => Padding::Longest,
            "max_length" => Padding::MaxLength,
            other => return Err(bad_option(&self.name, "padding", other, "longest, max_length")),
        };
        if padding == Padding::MaxLength && self.max_length.is_none() {
            return Err(Error::value(format!("output '{}': padding = \"max_length\" needs max_length", self.name)));
        }
        let default_truncation = if self.max_length.is_some() { "longest_first" } else { "none" };
        let truncation = match self.truncation.as_deref().unwrap_or(default_truncation) {
            "none" => Truncation::None,
            "longest_first" => Truncation::LongestFirst,
            "only_first" => Truncation::OnlyFirst,
            "only_second" => Truncation::OnlySecond,
            other => {
                return Err(bad_option(
                    &self.name,
                    "truncation",
                    other,
                    "none, longest_first, only_first, only_second",
                ));
            }
        };
        let side = |key: &str, v: &str| match v {
            "right" => Ok(Side::Right),
            "left" => Ok(Side::Left),
            other => Err(bad_option(&self.name, key, other, "right, left")),
        };
        let special_tokens = self.special_tokens.as_ref().map(|s| self.special_tokens_of(s)).transpose()?;
        Ok(CollateOptions {
            dtype,
            pad_id: self.pad_id,
            padding,
            max_length: self.max_length,
            truncation,
            truncation_side: side("truncation_side", &self.truncation_side)?,
            padding_side: side("padding_side", &self.padding_side)?,
            pad_to_multiple_of: self.pad_to_multiple_of,
            attention_mask: self.attention_mask.is_some(),
            token_type_ids: self.token_type_ids.is_some(),
            special_tokens,
        })
    }

    fn special_tokens_of(&self, s: &SpecialTokensSpec) -> Result<SpecialTokens> {
        match (s.cls, s.sep) {
            (Some(cls), Some(sep)) => Ok(SpecialTokens::bert(cls, sep)),
            (None, None) => Ok(SpecialTokens {
                first_prefix: s.first_prefix.clone(),
                first_suffix: s.first_suffix.clone(),
                second_prefix: s.second_prefix.clone(),
                second_suffix: s.second_suffix.clone(),
            }),
            _ => Err(Error::value(format!("output '{}': special_tokens needs both cls and sep", self.name))),
        }
    }
}

/// Which syntax a pipeline text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// TOML.
    Toml,
    /// JSON.
    Json,
}

impl Format {
    /// The format a file name implies: `.json` is JSON, anything else TOML.
    pub fn of_path(path: &std::path::Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") => Format::Json,
            _ => Format::Toml,
        }
    }
}

/// Where `functions` starts, so its lines can be reported as lines of the file.
#[derive(Deserialize)]
struct Spans {
    #[serde(default)]
    steps: Vec<toml::Spanned<toml::Value>>,
    #[serde(default)]
    functions: Option<toml::Spanned<String>>,
}

/// 1-based line of byte offset `at` in `text`.
pub fn line_of(text: &str, at: usize) -> u32 {
    text.as_bytes()[..at.min(text.len())].iter().filter(|&&b| b == b'\n').count() as u32 + 1
}

/// The parsed spec and the file line on which the `functions` source begins (0 when unknown).
pub fn parse_spec(text: &str, format: Format) -> Result<(PipelineSpec, u32)> {
    match format {
        Format::Json => {
            let spec: PipelineSpec = serde_json::from_str(text)
                .map_err(|e| Error::new(ErrorKind::Parse, format!("line {}, column {}: {e}", e.line(), e.column())))?;
            Ok((spec, 0))
        }
        Format::Toml => {
            let mut spec: PipelineSpec = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
            let spans: Spans = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
            for (step, span) in spec.steps.iter_mut().zip(&spans.steps) {
                step.line = line_of(text, span.span().start);
            }
            let functions_line = spans.functions.map_or(0, |f| function_source_line(text, f.span()));
            Ok((spec, functions_line))
        }
    }
}

/// The file line of the first source line of a TOML string spanning `span` (a multi-line
/// string's first newline right after the quotes is not part of the value).
fn function_source_line(text: &str, span: std::ops::Range<usize>) -> u32 {
    let start = line_of(text, span.start);
    let raw = &text[span.start.min(text.len())..span.end.min(text.len())];
    let multi_line = raw.starts_with("'''") || raw.starts_with("\"\"\"");
    if multi_line && raw[3..].starts_with(['\n', '\r']) { start + 1 } else { start }
}

fn toml_error(text: &str, e: &toml::de::Error) -> Error {
    let msg = e.message().to_string();
    match e.span() {
        Some(span) => {
            let line = line_of(text, span.start);
            let line_start = text[..span.start.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
            let column = text[line_start..span.start.min(text.len())].chars().count() + 1;
            Error::new(ErrorKind::Parse, format!("line {line}, column {column}: {msg}"))
        }
        None => Error::new(ErrorKind::Parse, msg),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_errors_name_line_and_column() {
        let e = parse_spec("name = \"x\"\ninputs = [\"a\"\n[[steps]]\n", Format::Toml).unwrap_err();
        assert!(e.to_string().starts_with("line 3, column 1: missing comma"), "{e}");
        let e = parse_spec("name = \"x\"\nbogus = 1\n", Format::Toml).unwrap_err();
        assert!(e.to_string().starts_with("line 2, column 1: unknown field `bogus`"), "{e}");
    }

    #[test]
    fn steps_know_their_lines() {
        let text = "inputs = [\"t\"]\n\n[[steps]]\nout = \"a\"\ncall = \"t\"\n\n[[steps]]\nout = \"b\"\ncall = \"a\"\n";
        let (spec, _) = parse_spec(text, Format::Toml).unwrap();
        assert_eq!(spec.steps.iter().map(|s| s.line).collect::<Vec<_>>(), vec![3, 7]);
    }

    #[test]
    fn functions_line_skips_the_opening_newline() {
        let text = "functions = '''\ndef f(x):\n    return x\n'''\n";
        assert_eq!(parse_spec(text, Format::Toml).unwrap().1, 2);
    }
}
