//! The operator library: text normalizers, splitters, tokenization models and
//! sequence ops, each registered in the global registry under a dotted name
//! (`text.*`, `tok.*`, `seq.*`, `vocab.*`, `math.*`, `re.*`, `unicodedata.*`, `collections.*`,
//! `itertools.*`, `functools.reduce`, `bisect.*`, `heapq.*`, `json.*`). One file per family.

use crate::Result;
use crate::func::Registry;

pub mod bert;
pub mod bisect;
pub mod bpe;
pub mod bytelevel;
pub mod cmp_to_key;
pub mod collections;
pub mod combinatorics;
pub mod heapq;
pub mod heapq_merge;
pub mod int_bytes;
pub mod itertools;
pub mod itertools_infinite;
pub mod itertools_select;
pub mod json;
pub mod math;
pub mod math_float;
mod math_fsum;
pub mod math_int;
pub mod merge_queue;
pub mod normalize;
pub mod operator;
pub mod params;
pub mod partial;
pub mod random;
pub mod re;
pub mod seq;
pub mod split;
pub mod star_params;
pub mod unicodedata;
pub mod unicodedata_lookup;
pub mod unicodedata_numeric;
mod unicodedata_props;
pub mod unicodedata_tables;
pub mod vocab;
pub mod wordpiece;

/// Registers every op family.
pub fn register(reg: &Registry) -> Result<()> {
    normalize::register(reg)?;
    split::register(reg)?;
    bert::register(reg)?;
    vocab::register(reg)?;
    wordpiece::register(reg)?;
    bytelevel::register(reg)?;
    bpe::register(reg)?;
    seq::register(reg)?;
    math::register(reg)?;
    math_float::register(reg)?;
    math_int::register(reg)?;
    int_bytes::register(reg)?;
    re::register(reg)?;
    unicodedata::register(reg)?;
    collections::register(reg)?;
    itertools::register(reg)?;
    itertools_infinite::register(reg)?;
    bisect::register(reg)?;
    heapq::register(reg)?;
    combinatorics::register(reg)?;
    itertools_select::register(reg)?;
    random::register(reg)?;
    json::register(reg)?;
    operator::register(reg)?;
    partial::register(reg)?;
    cmp_to_key::register(reg)?;
    // Last: the ops that Python's functions stand behind take keywords through their values too.
    params::add_keyword_forms(reg)
}
