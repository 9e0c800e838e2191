//! Typed access to payload fields with `wrong_type` errors.

use serde_json::{Map, Value};

use crate::error::{Error, json_type};

/// A decoded payload object, consumed field by field.
pub(crate) struct Fields {
    pub(crate) map: Map<String, Value>,
}

impl Fields {
    pub(crate) fn new(map: Map<String, Value>) -> Fields {
        Fields { map }
    }

    /// A string field; `null` and absent are `None`; empty strings are `None`.
    pub(crate) fn str(&self, key: &str) -> Result<Option<String>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(wrong(key, "a string", other)),
        }
    }

    /// A string field that may be empty (kept as `Some("")`).
    pub(crate) fn str_keep_empty(&self, key: &str) -> Result<Option<String>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(wrong(key, "a string", other)),
        }
    }

    /// A string, or a number rendered as a string (ids some agents send as numbers).
    pub(crate) fn id(&self, key: &str) -> Result<Option<String>, Error> {
        match self.map.get(key) {
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            _ => self.str(key),
        }
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(wrong(key, "a boolean", other)),
        }
    }

    pub(crate) fn u64(&self, key: &str) -> Result<Option<u64>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n
                .as_u64()
                .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f.round() as u64))),
            Some(other) => Err(wrong(key, "a number", other)),
        }
    }

    /// An array of strings (non-strings are a `wrong_type`).
    #[allow(dead_code)] // used by the dialects with workspace roots
    pub(crate) fn strings(&self, key: &str) -> Result<Vec<String>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(wrong(key, "an array of strings", other)),
                })
                .collect(),
            Some(other) => Err(wrong(key, "an array", other)),
        }
    }

    /// Removes and returns a value (for large fields such as tool output).
    pub(crate) fn take(&mut self, key: &str) -> Value {
        self.map.remove(key).unwrap_or(Value::Null)
    }

    /// An object field, or `None`.
    pub(crate) fn object(&self, key: &str) -> Result<Option<&Map<String, Value>>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(other) => Err(wrong(key, "an object", other)),
        }
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }
}

pub(crate) fn wrong(key: &str, expected: &'static str, found: &Value) -> Error {
    Error::WrongType {
        field: key.to_string(),
        expected,
        found: json_type(found),
    }
}
