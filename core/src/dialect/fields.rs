//! Typed access to payload fields with `wrong_type` errors.

use serde_json::{Map, Value};

use super::DecodeOptions;
use crate::error::{Error, json_type};
use crate::model::Provider;

/// Test instrumentation: every key a decoder reads, as a dotted path
/// (`tool_name`, `input.sessionID`), so the schema tables can be proved
/// against the decoders (`schema::table` tests).
#[cfg(test)]
pub(crate) mod record {
    use std::cell::RefCell;

    thread_local! {
        static READS: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
    }

    /// Starts recording on this thread.
    pub(crate) fn start() {
        READS.with(|r| *r.borrow_mut() = Some(Vec::new()));
    }

    /// Stops recording and returns the keys read.
    pub(crate) fn stop() -> Vec<String> {
        READS.with(|r| r.borrow_mut().take().unwrap_or_default())
    }

    pub(crate) fn read(path: &str, key: &str) {
        READS.with(|r| {
            if let Some(v) = r.borrow_mut().as_mut() {
                v.push(if path.is_empty() {
                    key.to_string()
                } else {
                    format!("{path}.{key}")
                });
            }
        });
    }
}

#[cfg(test)]
fn note(path: &str, key: &str) {
    record::read(path, key);
}

#[cfg(not(test))]
#[inline(always)]
fn note(_: &str, _: &str) {}

/// A decoded payload object, consumed field by field.
pub(crate) struct Fields {
    pub(crate) map: Map<String, Value>,
}

impl Fields {
    pub(crate) fn new(map: Map<String, Value>) -> Fields {
        Fields { map }
    }

    /// The typed reads of [`Obj`], on the top level (errors name the bare key).
    pub(crate) fn view(&self) -> Obj<'_> {
        Obj::new(&self.map, "")
    }

    /// A string field; `null` and absent are `None`; empty strings are `None`.
    pub(crate) fn str(&self, key: &str) -> Result<Option<String>, Error> {
        self.view().str(key)
    }

    /// A string field that may be empty (kept as `Some("")`).
    pub(crate) fn str_keep_empty(&self, key: &str) -> Result<Option<String>, Error> {
        self.view().str_keep_empty(key)
    }

    /// A string, or a number rendered as a string (ids some agents send as numbers).
    pub(crate) fn id(&self, key: &str) -> Result<Option<String>, Error> {
        self.view().id(key)
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, Error> {
        self.view().bool(key)
    }

    pub(crate) fn u64(&self, key: &str) -> Result<Option<u64>, Error> {
        self.view().u64(key)
    }

    /// The native event name: the payload's `field`, else `--event`
    /// (`opts.event`), else `missing_event`.
    pub(crate) fn event_name(
        &self,
        field: &'static str,
        provider: Provider,
        opts: &DecodeOptions,
    ) -> Result<String, Error> {
        match self.str(field)? {
            Some(n) => Ok(n),
            None => opts.event.clone().ok_or(Error::MissingEvent {
                provider: provider.id(),
                field,
            }),
        }
    }

    /// An array of strings (non-strings are a `wrong_type`).
    #[allow(dead_code)] // used by the dialects with workspace roots
    pub(crate) fn strings(&self, key: &str) -> Result<Vec<String>, Error> {
        note("", key);
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
        note("", key);
        self.map.remove(key).unwrap_or(Value::Null)
    }

    /// An object field, or `None`.
    pub(crate) fn object(&self, key: &str) -> Result<Option<&Map<String, Value>>, Error> {
        note("", key);
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(other) => Err(wrong(key, "an object", other)),
        }
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        note("", key);
        self.map.contains_key(key)
    }
}

/// Typed reads of an object (the payload, or one nested in it), with
/// `wrong_type` errors naming the dotted path: the one field accessor of
/// every dialect ([`Fields`] reads its top level through it).
pub(crate) struct Obj<'a> {
    map: Option<&'a Map<String, Value>>,
    path: String,
}

impl<'a> Obj<'a> {
    pub(crate) fn new(map: &'a Map<String, Value>, path: &str) -> Obj<'a> {
        Obj {
            map: Some(map),
            path: path.to_string(),
        }
    }

    /// A value that must be an object when present (`null` = absent).
    pub(crate) fn of(v: &'a Value, path: &str) -> Result<Obj<'a>, Error> {
        match v {
            Value::Object(m) => Ok(Obj::new(m, path)),
            Value::Null => Ok(Obj {
                map: None,
                path: path.to_string(),
            }),
            other => Err(wrong(path, "an object", other)),
        }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        note(&self.path, key);
        self.map.and_then(|m| m.get(key))
    }

    /// The dotted name of a field (`input.tool`; the bare key at the top).
    fn field(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// A nested object (absent or `null`: an empty view).
    pub(crate) fn obj(&self, key: &str) -> Result<Obj<'a>, Error> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(Obj {
                map: None,
                path: self.field(key),
            }),
            Some(Value::Object(m)) => Ok(Obj {
                map: Some(m),
                path: self.field(key),
            }),
            Some(other) => Err(wrong(&self.field(key), "an object", other)),
        }
    }

    /// A string; `null`, absent and `""` are `None`.
    pub(crate) fn str(&self, key: &str) -> Result<Option<String>, Error> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(wrong(&self.field(key), "a string", other)),
        }
    }

    /// A string that may be empty.
    pub(crate) fn str_keep_empty(&self, key: &str) -> Result<Option<String>, Error> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(wrong(&self.field(key), "a string", other)),
        }
    }

    /// A string id, or a number rendered as a string.
    pub(crate) fn id(&self, key: &str) -> Result<Option<String>, Error> {
        match self.get(key) {
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            _ => self.str(key),
        }
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, Error> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(wrong(&self.field(key), "a boolean", other)),
        }
    }

    pub(crate) fn u64(&self, key: &str) -> Result<Option<u64>, Error> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n
                .as_u64()
                .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f.round() as u64))),
            Some(other) => Err(wrong(&self.field(key), "a number", other)),
        }
    }

    /// A number as `f64` (fractions kept).
    pub(crate) fn f64(&self, key: &str) -> Result<Option<f64>, Error> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(wrong(&self.field(key), "a number", other)),
        }
    }
}

pub(crate) fn wrong(key: &str, expected: &'static str, found: &Value) -> Error {
    Error::WrongType {
        field: key.to_string(),
        expected,
        found: json_type(found),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    /// Top-level reads (`Fields`) and nested ones (`Obj`) are one accessor:
    /// the same rules, with the field named by its dotted path.
    #[test]
    fn one_accessor_top_level_and_nested() {
        let doc = json!({"n": 7, "s": "", "b": "yes", "id": 12, "f": 1.5,
                         "input": {"n": 7, "s": "", "b": "yes", "id": 12, "f": 1.5}});
        let f = Fields::new(map(doc.clone()));
        let top = f.view();
        let nested = Obj::of(&doc["input"], "input").unwrap();
        for (o, prefix) in [(&top, ""), (&nested, "input.")] {
            assert_eq!(o.u64("n").unwrap(), Some(7));
            assert_eq!(o.str("s").unwrap(), None, "empty string is absent");
            assert_eq!(o.str_keep_empty("s").unwrap().as_deref(), Some(""));
            assert_eq!(o.id("id").unwrap().as_deref(), Some("12"));
            assert_eq!(o.f64("f").unwrap(), Some(1.5));
            match o.bool("b") {
                Err(Error::WrongType { field, .. }) => assert_eq!(field, format!("{prefix}b")),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(f.str("s").unwrap(), top.str("s").unwrap());
        assert!(matches!(f.bool("b"), Err(Error::WrongType { field, .. }) if field == "b"));
        assert!(Obj::of(&json!(3), "x").is_err());
        assert_eq!(
            Obj::of(&Value::Null, "x")
                .unwrap()
                .obj("y")
                .unwrap()
                .str("z")
                .unwrap(),
            None
        );
    }
}
