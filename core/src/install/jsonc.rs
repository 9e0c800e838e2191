//! A small format-preserving JSON(C) editor.
//!
//! Agent config files are edited in place: the text is parsed into a tree of
//! byte spans, and every change splices new text into the old, so unrelated
//! keys, their order, comments (`//`, `/* */`), blank lines and indentation
//! stay exactly as the user wrote them. New text follows the indentation of
//! its neighbours. After each splice the text is parsed again (files are
//! small), so spans never go stale.
//!
//! Comments and trailing commas are accepted when reading (Gemini CLI and
//! Cursor read JSONC; a user may have them anyway) and kept when editing.

use serde_json::{Map, Value};

/// A parse failure with its position (1-based line and column, byte offset).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What was wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Byte offset.
    pub offset: usize,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {} column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// One parsed value with its byte span `[start, end)`.
#[derive(Debug, Clone)]
pub struct Node {
    /// First byte of the value.
    pub start: usize,
    /// One past the last byte of the value.
    pub end: usize,
    /// Structure, for containers.
    pub kind: NodeKind,
    /// The value itself (comments removed).
    pub value: Value,
}

/// Container structure.
#[derive(Debug, Clone)]
pub enum NodeKind {
    /// An object: members in file order (key, key start offset, value).
    Object(Vec<(String, usize, Node)>),
    /// An array: items in file order.
    Array(Vec<Node>),
    /// A string, number, boolean or null.
    Scalar,
}

impl Node {
    /// The member `key` of an object node (or item `key`, a decimal index,
    /// of an array node).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            NodeKind::Object(m) => m.iter().rev().find(|(k, _, _)| k == key).map(|(_, _, n)| n),
            // Array items are addressed by their index, written as a key.
            NodeKind::Array(v) => key.parse::<usize>().ok().and_then(|i| v.get(i)),
            NodeKind::Scalar => None,
        }
    }

    /// Follows a path of object keys.
    pub fn path(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |n, k| n.get(k))
    }

    /// The items of an array node (empty for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.kind {
            NodeKind::Array(v) => v,
            _ => &[],
        }
    }

    /// The members of an object node (empty for anything else).
    pub fn members(&self) -> &[(String, usize, Node)] {
        match &self.kind {
            NodeKind::Object(v) => v,
            _ => &[],
        }
    }
}

/// Byte offset → 1-based line and column.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Parses a whole document (one value, surrounded by whitespace/comments).
pub fn parse(text: &str) -> Result<Node, ParseError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
        depth: 0,
    };
    if text.starts_with('\u{feff}') {
        p.i = 3;
    }
    p.ws()?;
    let n = p.value()?;
    p.ws()?;
    if p.i != p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(n)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, m: &str) -> ParseError {
        let (line, column) = position(self.text, self.i);
        ParseError {
            message: m.into(),
            line,
            column,
            offset: self.i,
        }
    }

    fn ws(&mut self) -> Result<(), ParseError> {
        loop {
            match self.s.get(self.i) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.i += 1,
                Some(b'/') if self.s.get(self.i + 1) == Some(&b'/') => {
                    while self.i < self.s.len() && self.s[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                Some(b'/') if self.s.get(self.i + 1) == Some(&b'*') => {
                    let start = self.i;
                    self.i += 2;
                    loop {
                        if self.i + 1 >= self.s.len() {
                            self.i = start;
                            return Err(self.err("unterminated /* comment"));
                        }
                        if self.s[self.i] == b'*' && self.s[self.i + 1] == b'/' {
                            self.i += 2;
                            break;
                        }
                        self.i += 1;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self) -> Result<Node, ParseError> {
        let start = self.i;
        match self.s.get(self.i) {
            None => Err(self.err("unexpected end of file, expected a value")),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => {
                let v = self.string()?;
                Ok(self.scalar(start, Value::String(v)))
            }
            Some(_) => {
                let from = self.i;
                while self.i < self.s.len()
                    && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
                {
                    self.i += 1;
                }
                let word = &self.text[from..self.i];
                let v = match word {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    _ => match serde_json::from_str::<Value>(word) {
                        Ok(v @ Value::Number(_)) => v,
                        _ => {
                            self.i = from;
                            return Err(self.err("expected a JSON value"));
                        }
                    },
                };
                Ok(self.scalar(start, v))
            }
        }
    }

    fn scalar(&self, start: usize, value: Value) -> Node {
        Node {
            start,
            end: self.i,
            kind: NodeKind::Scalar,
            value,
        }
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > 256 {
            return Err(self.err("nesting deeper than 256 levels"));
        }
        Ok(())
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.i;
        self.i += 1;
        loop {
            match self.s.get(self.i) {
                None | Some(b'\n') => {
                    self.i = start;
                    return Err(self.err("unterminated string"));
                }
                Some(b'\\') => self.i += 2,
                Some(b'"') => {
                    self.i += 1;
                    break;
                }
                Some(_) => self.i += 1,
            }
        }
        let raw = &self.text[start..self.i];
        serde_json::from_str::<String>(raw).map_err(|e| {
            let mut err = self.err(&format!("invalid string: {e}"));
            let (line, column) = position(self.text, start);
            (err.line, err.column, err.offset) = (line, column, start);
            err
        })
    }

    fn object(&mut self) -> Result<Node, ParseError> {
        let start = self.i;
        self.enter()?;
        self.i += 1;
        let mut members = Vec::new();
        let mut map = Map::new();
        loop {
            self.ws()?;
            match self.s.get(self.i) {
                Some(b'}') => break,
                Some(b'"') => {}
                None => return Err(self.err("unexpected end of file inside an object")),
                Some(_) => return Err(self.err("expected a string key or `}`")),
            }
            let key_start = self.i;
            let key = self.string()?;
            self.ws()?;
            if self.s.get(self.i) != Some(&b':') {
                return Err(self.err("expected `:` after the key"));
            }
            self.i += 1;
            self.ws()?;
            let v = self.value()?;
            map.insert(key.clone(), v.value.clone());
            members.push((key, key_start, v));
            self.ws()?;
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => break,
                None => return Err(self.err("unexpected end of file inside an object")),
                Some(_) => return Err(self.err("expected `,` or `}`")),
            }
        }
        self.i += 1;
        self.depth -= 1;
        Ok(Node {
            start,
            end: self.i,
            kind: NodeKind::Object(members),
            value: Value::Object(map),
        })
    }

    fn array(&mut self) -> Result<Node, ParseError> {
        let start = self.i;
        self.enter()?;
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.ws()?;
            if self.s.get(self.i) == Some(&b']') {
                break;
            }
            if self.i >= self.s.len() {
                return Err(self.err("unexpected end of file inside an array"));
            }
            items.push(self.value()?);
            self.ws()?;
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => break,
                None => return Err(self.err("unexpected end of file inside an array")),
                Some(_) => return Err(self.err("expected `,` or `]`")),
            }
        }
        self.i += 1;
        self.depth -= 1;
        let value = Value::Array(items.iter().map(|n| n.value.clone()).collect());
        Ok(Node {
            start,
            end: self.i,
            kind: NodeKind::Array(items),
            value,
        })
    }
}

/// An editable document.
#[derive(Debug, Clone)]
pub struct Doc {
    text: String,
}

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// The text does not parse.
    Parse(ParseError),
    /// A path element exists but is not the container the edit needs.
    Shape(String),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::Parse(e) => e.fmt(f),
            EditError::Shape(m) => f.write_str(m),
        }
    }
}

impl From<ParseError> for EditError {
    fn from(e: ParseError) -> Self {
        EditError::Parse(e)
    }
}

impl Doc {
    /// Wraps existing text (parsed lazily by each edit; call [`Doc::root`]
    /// first to validate).
    pub fn new(text: impl Into<String>) -> Doc {
        Doc { text: text.into() }
    }

    /// A new empty object document.
    pub fn empty_object() -> Doc {
        Doc::new("{}\n")
    }

    /// The current text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Consumes the document.
    pub fn into_text(self) -> String {
        self.text
    }

    /// Parses the current text.
    pub fn root(&self) -> Result<Node, ParseError> {
        parse(&self.text)
    }

    /// The indentation unit used by the file (the smallest leading
    /// whitespace of an indented line), else two spaces.
    fn unit(&self) -> String {
        let mut best: Option<&str> = None;
        for line in self.text.lines() {
            let trimmed = line.trim_start_matches([' ', '\t']);
            let lead = &line[..line.len() - trimmed.len()];
            if lead.is_empty() || trimmed.is_empty() {
                continue;
            }
            if best.is_none_or(|b| lead.len() < b.len()) {
                best = Some(lead);
            }
        }
        best.unwrap_or("  ").to_string()
    }

    /// The leading whitespace of the line holding `offset`.
    fn line_indent(&self, offset: usize) -> String {
        let ls = self.text[..offset].rfind('\n').map_or(0, |p| p + 1);
        let line = &self.text[ls..];
        let trimmed = line.trim_start_matches([' ', '\t']);
        line[..line.len() - trimmed.len()].to_string()
    }

    /// Whether `offset` is the first non-blank on its line.
    fn starts_line(&self, offset: usize) -> bool {
        let ls = self.text[..offset].rfind('\n').map_or(0, |p| p + 1);
        self.text[ls..offset].chars().all(|c| c == ' ' || c == '\t')
    }

    fn splice(&mut self, start: usize, end: usize, with: &str) {
        self.text.replace_range(start..end, with);
    }

    /// Pretty-prints `v` with the file's unit, continuation lines indented
    /// by `indent`.
    fn render(&self, v: &Value, indent: &str) -> String {
        let mut out = String::new();
        pretty(v, &self.unit(), indent, &mut out);
        out
    }

    fn node_at<'n>(root: &'n Node, path: &[&str]) -> Result<&'n Node, EditError> {
        root.path(path)
            .ok_or_else(|| EditError::Shape(format!("no `{}`", path.join("."))))
    }

    /// Makes sure every object along `path` exists, creating missing ones
    /// (the last one as `leaf`, `{}` or `[]`). Errors if something on the
    /// path exists with another type.
    pub fn ensure(&mut self, path: &[&str], leaf: Value) -> Result<(), EditError> {
        for depth in 0..path.len() {
            let root = self.root()?;
            let parent = Self::node_at(&root, &path[..depth])?;
            if !matches!(parent.kind, NodeKind::Object(_)) {
                return Err(EditError::Shape(format!(
                    "`{}` is not an object",
                    display_path(&path[..depth])
                )));
            }
            match parent.get(path[depth]) {
                Some(n) => {
                    let last = depth + 1 == path.len();
                    let want_array = last && leaf.is_array();
                    let ok = if want_array {
                        matches!(n.kind, NodeKind::Array(_))
                    } else {
                        matches!(n.kind, NodeKind::Object(_))
                    };
                    if !ok {
                        return Err(EditError::Shape(format!(
                            "`{}` is not {}",
                            display_path(&path[..=depth]),
                            if want_array { "an array" } else { "an object" }
                        )));
                    }
                }
                None => {
                    let v = if depth + 1 == path.len() {
                        leaf.clone()
                    } else {
                        Value::Object(Map::new())
                    };
                    self.insert_member(&path[..depth], path[depth], &v)?;
                }
            }
        }
        Ok(())
    }

    /// Inserts `"key": value` as the last member of the object at `path`.
    pub fn insert_member(&mut self, path: &[&str], key: &str, v: &Value) -> Result<(), EditError> {
        let root = self.root()?;
        let obj = Self::node_at(&root, path)?;
        let NodeKind::Object(members) = &obj.kind else {
            return Err(EditError::Shape(format!(
                "`{}` is not an object",
                display_path(path)
            )));
        };
        let key_json = Value::String(key.into()).to_string();
        match members.last() {
            Some((_, kstart, last)) => {
                let multiline = self.starts_line(*kstart);
                let indent = self.line_indent(*kstart);
                let body = format!("{key_json}: {}", self.render(v, &indent));
                let (at, trailing) = self.after_value(last.end, obj.end - 1);
                let text = match (multiline, trailing) {
                    (true, false) => format!(",\n{indent}{body}"),
                    (true, true) => format!("\n{indent}{body},"),
                    (false, false) => format!(", {body}"),
                    (false, true) => format!(" {body},"),
                };
                self.splice(at, at, &text);
            }
            None => {
                let indent = self.line_indent(obj.start);
                let inner = format!("{indent}{}", self.unit());
                let body = format!("{key_json}: {}", self.render(v, &inner));
                self.open_empty(obj.start, obj.end, &indent, &inner, &body);
            }
        }
        Ok(())
    }

    /// Appends `v` as the last item of the array at `path`.
    pub fn append(&mut self, path: &[&str], v: &Value) -> Result<(), EditError> {
        let root = self.root()?;
        let arr = Self::node_at(&root, path)?;
        let NodeKind::Array(items) = &arr.kind else {
            return Err(EditError::Shape(format!(
                "`{}` is not an array",
                display_path(path)
            )));
        };
        match items.last() {
            Some(last) => {
                let multiline = self.starts_line(last.start);
                let indent = self.line_indent(last.start);
                let body = self.render(v, &indent);
                let (at, trailing) = self.after_value(last.end, arr.end - 1);
                let text = match (multiline, trailing) {
                    (true, false) => format!(",\n{indent}{body}"),
                    (true, true) => format!("\n{indent}{body},"),
                    (false, false) => format!(", {body}"),
                    (false, true) => format!(" {body},"),
                };
                self.splice(at, at, &text);
            }
            None => {
                let indent = self.line_indent(arr.start);
                let inner = format!("{indent}{}", self.unit());
                let body = self.render(v, &inner);
                self.open_empty(arr.start, arr.end, &indent, &inner, &body);
            }
        }
        Ok(())
    }

    /// Where to insert after a value ending at `end` (before `close`): right
    /// after the value, or after its trailing comma when the container ends
    /// with one.
    fn after_value(&self, end: usize, close: usize) -> (usize, bool) {
        let mut j = end;
        let b = self.text.as_bytes();
        while j < close && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r') {
            j += 1;
        }
        if j < close && b[j] == b',' {
            (j + 1, true)
        } else {
            (end, false)
        }
    }

    /// Fills an empty container `[start, end)` with one member/item.
    fn open_empty(&mut self, start: usize, end: usize, indent: &str, inner: &str, body: &str) {
        let between = &self.text[start + 1..end - 1];
        if between.trim().is_empty() {
            self.splice(start + 1, end - 1, &format!("\n{inner}{body}\n{indent}"));
        } else {
            // Only comments inside: keep them, put the new entry first.
            self.splice(start + 1, start + 1, &format!("\n{inner}{body}"));
        }
    }

    /// Removes item `idx` of the array at `path`.
    pub fn remove_item(&mut self, path: &[&str], idx: usize) -> Result<(), EditError> {
        let root = self.root()?;
        let arr = Self::node_at(&root, path)?;
        let spans: Vec<(usize, usize)> = arr.items().iter().map(|n| (n.start, n.end)).collect();
        self.remove_span(&spans, idx, arr.start, arr.end);
        Ok(())
    }

    /// Removes member `key` (its last occurrence) of the object at `path`.
    pub fn remove_member(&mut self, path: &[&str], key: &str) -> Result<(), EditError> {
        let root = self.root()?;
        let obj = Self::node_at(&root, path)?;
        let members = obj.members();
        let Some(idx) = members.iter().rposition(|(k, _, _)| k == key) else {
            return Ok(());
        };
        let spans: Vec<(usize, usize)> = members.iter().map(|(_, ks, n)| (*ks, n.end)).collect();
        self.remove_span(&spans, idx, obj.start, obj.end);
        Ok(())
    }

    /// Removes element `idx` of a container whose elements span `spans`,
    /// with its separating comma and, when it sat on its own line, that line.
    fn remove_span(&mut self, spans: &[(usize, usize)], idx: usize, open: usize, close: usize) {
        let (s, e) = spans[idx];
        let b = self.text.as_bytes();
        if spans.len() == 1 {
            let between = &self.text[open + 1..close - 1];
            let rest_blank = self.text[open + 1..s].trim().is_empty()
                && self.text[e..close - 1]
                    .trim()
                    .trim_start_matches(',')
                    .trim()
                    .is_empty();
            if rest_blank && !between.contains("//") && !between.contains("/*") {
                self.splice(open + 1, close - 1, "");
            } else {
                let mut end = e;
                let (after, trailing) = self.after_value(e, close - 1);
                if trailing {
                    end = after;
                }
                self.splice(s, end, "");
            }
            return;
        }
        if idx == 0 {
            // Remove the element, its comma and the blanks up to the next one.
            let (after, _) = self.after_value(e, close - 1);
            let mut j = after;
            while j < close && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r') {
                j += 1;
            }
            self.splice(s, j, "");
            return;
        }
        // Not first: remove the comma after the previous element, and the
        // element (with its line when it sat alone there).
        let prev_end = spans[idx - 1].1;
        let mut comma = prev_end;
        while comma < s && b[comma] != b',' {
            comma += 1;
        }
        // Not on its own line: the comma, the blanks after it and the element go.
        let mut from = comma;
        if self.starts_line(s) {
            let ls = self.text[..s].rfind('\n').map_or(0, |p| p + 1);
            if ls > comma {
                from = ls - 1; // the newline before the element's line
                if from > 0 && b[from - 1] == b'\r' {
                    from -= 1;
                }
            }
        }
        // A trailing comma after the last element stays with the new last one.
        let mut end = e;
        if idx + 1 == spans.len() {
            let (after, trailing) = self.after_value(e, close - 1);
            if trailing {
                // Keep one trailing comma: the one after the previous element.
                end = after;
                self.splice(from.max(comma + 1), end, "");
                return;
            }
        }
        if from == comma {
            self.splice(comma, end, "");
        } else {
            self.splice(from.max(comma + 1), end, "");
            self.splice(comma, comma + 1, "");
        }
    }
}

/// Keys in the order a person reads a hook entry; others follow sorted.
const KEY_ORDER: &[&str] = &[
    "version",
    "event",
    "matcher",
    "type",
    "name",
    "description",
    "command",
    "bash",
    "timeout",
    "timeoutSec",
    "async",
    "onFailure",
    "failClosed",
    "hooks",
];

/// Pretty JSON with [`KEY_ORDER`], `unit` per level, every line after the
/// first prefixed with `indent`.
pub fn pretty(v: &Value, unit: &str, indent: &str, out: &mut String) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by_key(|k| {
                (
                    KEY_ORDER.iter().position(|o| o == k).unwrap_or(usize::MAX),
                    k.as_str(),
                )
            });
            let inner = format!("{indent}{unit}");
            out.push_str("{\n");
            for (i, k) in keys.iter().enumerate() {
                out.push_str(&inner);
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push_str(": ");
                pretty(&m[k.as_str()], unit, &inner, out);
                out.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
            }
            out.push_str(indent);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            let inner = format!("{indent}{unit}");
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                out.push_str(&inner);
                pretty(x, unit, &inner, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            out.push_str(indent);
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn display_path(path: &[&str]) -> String {
    if path.is_empty() {
        "(top level)".into()
    } else {
        path.join(".")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(text: &str) -> Value {
        parse(text).unwrap().value
    }

    #[test]
    fn append_keeps_comments_and_style() {
        let src = "{\n    // mine\n    \"a\": 1, /* x */\n    \"hooks\": {\n        \"E\": [\n            {\"x\": 1}\n        ]\n    }\n}\n";
        let mut d = Doc::new(src);
        d.append(&["hooks", "E"], &json!({"y": 2})).unwrap();
        assert!(d.text().contains("// mine"));
        assert!(d.text().contains("/* x */"));
        assert_eq!(v(d.text())["hooks"]["E"], json!([{"x": 1}, {"y": 2}]));
        assert!(d.text().contains("\n            {\n"), "{}", d.text());
        d.remove_item(&["hooks", "E"], 1).unwrap();
        assert_eq!(d.text(), src);
    }

    #[test]
    fn ensure_creates_path_and_remove_restores() {
        let src = "{\n  \"model\": \"x\"\n}\n";
        let mut d = Doc::new(src);
        d.ensure(&["hooks", "PreToolUse"], json!([])).unwrap();
        d.append(&["hooks", "PreToolUse"], &json!({"a": 1}))
            .unwrap();
        assert_eq!(
            v(d.text()),
            json!({"model": "x", "hooks": {"PreToolUse": [{"a": 1}]}})
        );
        d.remove_member(&["hooks"], "PreToolUse").unwrap();
        d.remove_member(&[], "hooks").unwrap();
        assert_eq!(d.text(), src);
    }

    #[test]
    fn trailing_commas_and_single_line() {
        let mut d = Doc::new(r#"{"a": [1, 2,], "b": {"c": 1,}}"#);
        d.append(&["a"], &json!(3)).unwrap();
        d.insert_member(&["b"], "d", &json!(2)).unwrap();
        assert_eq!(v(d.text()), json!({"a": [1, 2, 3], "b": {"c": 1, "d": 2}}));
        d.remove_item(&["a"], 2).unwrap();
        d.remove_item(&["a"], 0).unwrap();
        assert_eq!(v(d.text())["a"], json!([2]));
    }

    #[test]
    fn errors_name_the_position() {
        let e = parse("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!((e.line, e.column), (3, 7));
        assert!(parse("{\"a\": [1, 2}").is_err());
        assert!(parse("").is_err());
    }
}
