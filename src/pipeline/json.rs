//! Converting between JSON values and any-values (constants, `.jsonl` records and output).

use crate::error::{Error, Result};
use crate::{AnyValue, Dict, List, NDArray, Set, Value};
use serde_json::Value as Json;

/// A JSON value as an any-value: objects become dicts, arrays lists.
pub fn json_to_any(v: &Json) -> Result<AnyValue> {
    Ok(match v {
        Json::Null => AnyValue::default(),
        Json::Bool(b) => AnyValue::from(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => AnyValue::from(i),
            None => {
                AnyValue::from(n.as_f64().ok_or_else(|| Error::value(format!("number {n} does not fit i64 or f64")))?)
            }
        },
        Json::String(s) => AnyValue::from(s.as_str()),
        Json::Array(items) => List::from_vec(items.iter().map(json_to_any).collect::<Result<_>>()?).into_any(),
        Json::Object(map) => {
            let mut d = Dict::new();
            for (k, v) in map {
                d.set(AnyValue::from(k.as_str()), json_to_any(v)?);
            }
            d.into_any()
        }
    })
}

/// An any-value as JSON: tensors become nested arrays; dict keys are written with `str()`.
pub fn any_to_json(v: &AnyValue) -> Result<Json> {
    to_json_within(v, 0)
}

/// The most arrays and objects nested in a value written as JSON: deeper values are an error
/// rather than a recursion that could overflow the stack. It is the most serde_json reads back.
pub const MAX_JSON_DEPTH: usize = 127;

fn to_json_within(v: &AnyValue, depth: usize) -> Result<Json> {
    let any_to_json = |x: &AnyValue| to_json_within(x, depth + 1);
    Ok(match v.value() {
        Value::None => Json::Null,
        Value::Bool(b) => Json::Bool(b),
        Value::Int(i) => Json::from(i),
        Value::Float(x) => serde_json::Number::from_f64(x).map_or(Json::Null, Json::Number),
        Value::Str(s) => Json::String(s.to_string()),
        Value::UStr(u) => Json::String(u.iter().collect()),
        Value::Bytes(b) => Json::Array(b.iter().map(|&x| Json::from(x)).collect()),
        Value::Pod(..) => Json::String(format!("{v:?}")),
        Value::Object(_) if depth >= MAX_JSON_DEPTH => {
            return Err(Error::value(format!(
                "value nested deeper than {MAX_JSON_DEPTH} levels cannot be written as JSON"
            )));
        }
        Value::Object(_) => {
            if let Ok(list) = v.get::<List>() {
                Json::Array(list.iter().map(|x| any_to_json(&x)).collect::<Result<_>>()?)
            } else if let Ok(dict) = v.get::<Dict>() {
                let mut map = serde_json::Map::new();
                for (k, x) in dict.items() {
                    map.insert(k.to_string(), any_to_json(&x)?);
                }
                Json::Object(map)
            } else if let Ok(set) = v.get::<Set>() {
                // JSON has no sets: the keys, in the set's order.
                Json::Array(set.items().iter().map(any_to_json).collect::<Result<_>>()?)
            } else if let Some(shown) = v.value().as_obj().and_then(crate::container::dict_view_obj) {
                // A dict view: its items, as `list(view)` has them.
                Json::Array(shown.items().iter().map(any_to_json).collect::<Result<_>>()?)
            } else if let Ok(arr) = v.get::<NDArray>() {
                any_to_json(&arr.to_list()?)?
            } else {
                Json::String(format!("{v:?}"))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_nested_values() {
        let text = r#"{"a":[1,2.5,"x",null,true],"b":{"c":[]}}"#;
        let j: Json = serde_json::from_str(text).unwrap();
        let back = any_to_json(&json_to_any(&j).unwrap()).unwrap();
        assert_eq!(back, j);
    }

    #[test]
    fn a_dict_view_is_written_as_the_list_of_its_items() {
        let d: crate::Dict = [("a", 1), ("b", 2)].into_iter().collect();
        let items = crate::container::DictViewObj::new_value(d.clone(), crate::container::DictView::Items);
        let keys = crate::container::DictViewObj::new_value(d, crate::container::DictView::Keys);
        assert_eq!(any_to_json(&items).unwrap().to_string(), r#"[["a",1],["b",2]]"#);
        assert_eq!(any_to_json(&keys).unwrap().to_string(), r#"["a","b"]"#);
    }
}
