//! RFC 7396 JSON merge patches over a tool input (`Decision.patch_input`):
//! applying one, and composing several handlers' patches in order.
//!
//! A merge patch is an object: each key's value replaces the target's,
//! `null` deletes the key, and an object merges into the target's object
//! (recursively; a target that is not an object counts as `{}`). Arrays
//! and scalars replace whole (a patch never merges into an array).

use serde_json::{Map, Value};

use crate::error::Error;

/// Deepest patch object accepted (the unified view keeps values at most
/// ~128 deep, see [`crate::json`]); deeper patches are rejected, never
/// recursed into.
pub const MAX_PATCH_DEPTH: usize = 128;

/// Applies `patch` to `target` (RFC 7396 §2), in place.
pub fn apply(target: &mut Map<String, Value>, patch: &Map<String, Value>) -> Result<(), Error> {
    apply_at(target, patch, 1)
}

fn apply_at(
    target: &mut Map<String, Value>,
    patch: &Map<String, Value>,
    depth: usize,
) -> Result<(), Error> {
    if depth > MAX_PATCH_DEPTH {
        return Err(too_deep());
    }
    for (k, v) in patch {
        match v {
            Value::Null => {
                target.remove(k);
            }
            Value::Object(p) => {
                let slot = target
                    .entry(k.clone())
                    .or_insert_with(|| Value::Object(Map::new()));
                if !slot.is_object() {
                    *slot = Value::Object(Map::new());
                }
                if let Value::Object(t) = slot {
                    apply_at(t, p, depth + 1)?;
                }
            }
            other => {
                target.insert(k.clone(), other.clone());
            }
        }
    }
    Ok(())
}

/// Composes `later` onto `earlier` so that applying the result equals
/// applying `earlier` then `later`, except at conflicting keys. A key both
/// patches set to different values (or one deletes and the other sets) is
/// a conflict: its JSON Pointer (RFC 6901, e.g. `/env/PATH`) is appended to
/// `conflicts`, and the later patch's value is used there (the later
/// handler wins). Keys where both patches hold objects compose
/// recursively; equal values are no conflict.
pub fn compose(
    earlier: &mut Map<String, Value>,
    later: &Map<String, Value>,
    conflicts: &mut Vec<String>,
) -> Result<(), Error> {
    compose_at(earlier, later, "", conflicts, 1)
}

fn compose_at(
    earlier: &mut Map<String, Value>,
    later: &Map<String, Value>,
    path: &str,
    conflicts: &mut Vec<String>,
    depth: usize,
) -> Result<(), Error> {
    if depth > MAX_PATCH_DEPTH {
        return Err(too_deep());
    }
    for (k, v) in later {
        let here = format!("{path}/{}", pointer_token(k));
        match (earlier.get_mut(k), v) {
            (None, _) => {
                earlier.insert(k.clone(), v.clone());
            }
            (Some(Value::Object(e)), Value::Object(l)) => {
                compose_at(e, l, &here, conflicts, depth + 1)?;
            }
            (Some(e), l) => {
                if e != l {
                    conflicts.push(here);
                    *e = l.clone();
                }
            }
        }
    }
    Ok(())
}

/// A key as a JSON Pointer reference token (`~` → `~0`, `/` → `~1`).
fn pointer_token(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

/// The nesting depth of a patch object (1 for a flat one), counted without
/// recursion; `None` when it exceeds [`MAX_PATCH_DEPTH`].
pub fn checked_depth(patch: &Map<String, Value>) -> Option<usize> {
    let mut stack: Vec<(&Map<String, Value>, usize)> = vec![(patch, 1)];
    let mut max = 1;
    while let Some((m, d)) = stack.pop() {
        if d > MAX_PATCH_DEPTH {
            return None;
        }
        max = max.max(d);
        for v in m.values() {
            if let Value::Object(inner) = v {
                stack.push((inner, d.checked_add(1)?));
            }
        }
    }
    Some(max)
}

fn too_deep() -> Error {
    Error::invalid_decision(format!(
        "patch_input is nested deeper than {MAX_PATCH_DEPTH} levels"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    /// The examples of RFC 7396 Appendix A (object targets and patches).
    #[test]
    fn rfc7396_appendix_a() {
        let cases = [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (
                json!({"a": "b"}),
                json!({"b": "c"}),
                json!({"a": "b", "b": "c"}),
            ),
            (json!({"a": "b"}), json!({"a": null}), json!({})),
            (
                json!({"a": "b", "b": "c"}),
                json!({"a": null}),
                json!({"b": "c"}),
            ),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
            (
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}}),
                json!({"a": {"b": "d"}}),
            ),
            (
                json!({"a": [{"b": "c"}]}),
                json!({"a": [1]}),
                json!({"a": [1]}),
            ),
            (
                json!({"e": null}),
                json!({"a": 1}),
                json!({"e": null, "a": 1}),
            ),
            (
                json!({}),
                json!({"a": {"bb": {"ccc": null}}}),
                json!({"a": {"bb": {}}}),
            ),
            (
                json!({"a": "x"}),
                json!({"a": {"b": 1}}),
                json!({"a": {"b": 1}}),
            ),
        ];
        for (target, patch, want) in cases {
            let mut t = obj(target.clone());
            apply(&mut t, &obj(patch.clone())).unwrap();
            assert_eq!(Value::Object(t), want, "{target} + {patch}");
        }
    }

    #[test]
    fn compose_equals_sequential_without_conflicts() {
        let base = obj(json!({"command": "ls", "env": {"A": "1", "B": "2"}, "timeout": 5}));
        let p1 = obj(json!({"command": "ls -la", "env": {"A": null}}));
        let p2 = obj(json!({"env": {"C": "3"}, "timeout": null}));
        let mut seq = base.clone();
        apply(&mut seq, &p1).unwrap();
        apply(&mut seq, &p2).unwrap();
        let mut c = p1.clone();
        let mut conflicts = Vec::new();
        compose(&mut c, &p2, &mut conflicts).unwrap();
        assert!(conflicts.is_empty());
        let mut once = base;
        apply(&mut once, &c).unwrap();
        assert_eq!(once, seq);
    }

    #[test]
    fn compose_reports_conflicts_and_the_later_wins() {
        let mut c = obj(json!({"command": "a", "env": {"X": "1"}, "keep": 1, "d": "x"}));
        let mut conflicts = Vec::new();
        compose(
            &mut c,
            &obj(json!({"command": "b", "env": {"X": null}, "keep": 1, "d/~": 2})),
            &mut conflicts,
        )
        .unwrap();
        assert_eq!(conflicts, vec!["/command", "/env/X"]);
        assert_eq!(
            Value::Object(c),
            json!({"command": "b", "env": {"X": null}, "keep": 1, "d": "x", "d/~": 2})
        );
        let mut c = obj(json!({"a/b~": null}));
        compose(&mut c, &obj(json!({"a/b~": [1]})), &mut conflicts).unwrap();
        assert_eq!(conflicts.last().map(String::as_str), Some("/a~1b~0"));
    }

    #[test]
    fn deep_patches_are_rejected_not_recursed() {
        let mut p = Map::new();
        for _ in 0..(MAX_PATCH_DEPTH + 5) {
            let mut outer = Map::new();
            outer.insert("k".into(), Value::Object(p));
            p = outer;
        }
        assert_eq!(checked_depth(&p), None);
        let mut t = Map::new();
        let e = apply(&mut t, &p).unwrap_err();
        assert_eq!(e.code().as_str(), "invalid_decision");
        let mut c = p.clone();
        assert!(compose(&mut c, &p, &mut Vec::new()).is_err());
        assert_eq!(checked_depth(&obj(json!({"a": {"b": 1}, "c": 2}))), Some(2));
    }
}
