//! Reading payload JSON the way the agents write it.
//!
//! The agents are JavaScript (`JSON.stringify`) or Rust (`serde_json`)
//! programs, and anything they can emit must decode: a guard that cannot
//! read a payload answers per the fail policy, and the default policy is
//! fail-open, so an undecodable payload lets the call through. serde_json
//! rejects three things `JSON.parse` accepts:
//!
//! - **Lone surrogate escapes** (`"\ud800"`): `JSON.stringify` writes them
//!   for strings holding half a UTF-16 pair (a truncated emoji in a tool's
//!   `description`). In the unified view each lone surrogate becomes
//!   U+FFFD (what a UTF-8 writer does with it); `Event::raw` keeps the
//!   bytes as sent.
//! - **Nesting deeper than 127** (serde_json's recursion limit). Turning
//!   the limit off is no fix: `serde_json::Value` is dropped, cloned,
//!   compared and serialized recursively, here and in every binding, so a
//!   100 000-deep value overflows the stack wherever it goes next (and a
//!   big stack for the parse alone would not cover those). Instead a
//!   container that starts at nesting level [`MAX_NESTING`] (100) or
//!   deeper is kept, in the unified view, as a **string holding its exact
//!   JSON text** (lossless; a guard can still search or parse it), so the
//!   values the rest of the code sees nest at most 99 levels: the
//!   canonical event JSON that wraps them (a few levels more) still parses
//!   with serde_json's default limit in every binding. `raw` keeps the
//!   bytes.
//! - **Numbers beyond `f64`** (`1e999`, which `JSON.parse` reads as
//!   `Infinity`): read as `±f64::MAX` (JSON has no infinity; the largest
//!   finite number keeps every comparison a guard makes against a finite
//!   bound the same as with `Infinity`). Big integers such as
//!   `123456789012345678901234567890` already read as the nearest `f64`.
//!
//! serde_json parses first (fast, and the only path for ordinary
//! payloads); only when it fails does [`normalize`] rewrite the text in
//! one iterative pass (an explicit stack, so no input can overflow the
//! call stack), validating the full JSON grammar as it goes, and
//! serde_json parses the rewritten text. Input that is not JSON at all
//! still fails with `invalid_json`.

use serde_json::Value;

use crate::error::Error;

/// A container starting at this nesting level (the top-level value is
/// level 1) or deeper is kept as its JSON text. serde_json accepts 127
/// levels; the margin leaves room for the canonical event JSON that wraps
/// payload values (`tool.input` sits one level deeper than `tool_input`).
pub const MAX_NESTING: usize = 100;

/// The text `±f64::MAX` is written as (shortest round-trip form).
const F64_MAX_TEXT: &str = "1.7976931348623157e308";

/// Parses JSON text as the agents' own parsers (`JSON.parse`) would accept
/// it, into the bounded unified view (see the module docs).
pub fn parse_value(text: &str) -> Result<Value, Error> {
    match serde_json::from_str::<Value>(text) {
        Ok(v) if nesting(&v) < MAX_NESTING => Ok(v),
        Ok(_) => match normalize(text)? {
            Some(fixed) => serde_json::from_str::<Value>(&fixed).map_err(|e| Error::from_json(&e)),
            None => Err(Error::TooDeep {
                message: "nesting could not be bounded".into(),
            }),
        },
        Err(first) => match normalize(text)? {
            Some(fixed) => serde_json::from_str::<Value>(&fixed).map_err(|e| Error::from_json(&e)),
            None => Err(Error::from_json(&first)),
        },
    }
}

/// Parses the text of a value that sat one level inside a payload's
/// top-level object (a lazily read output, `Event::output`), exactly as
/// [`parse_value`] read it in place: it is parsed as the element of an
/// array, so a container is at the same nesting level as it was and is
/// bounded the same way. `null` when it is not JSON (the payload it came
/// from was validated whole, so only a replaced `raw` can cause that).
pub fn parse_member(text: &str) -> Value {
    let mut wrapped = String::with_capacity(text.len().saturating_add(2));
    wrapped.push('[');
    wrapped.push_str(text);
    wrapped.push(']');
    match parse_value(&wrapped) {
        Ok(Value::Array(mut a)) if a.len() == 1 => a.pop().unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

/// The top-level members of an object: each key (unescaped) with the
/// byte range of its value in `text`, in order (a repeated key appears
/// each time). One validating scan of the whole text that copies no value
/// (serde_json's `RawValue`). `None` when the text is not an object
/// serde_json accepts as it is (the lenient [`parse_value`] is then the
/// way to read it).
pub fn top_level_spans(text: &str) -> Option<Vec<(String, usize, usize)>> {
    struct Members<'t> {
        base: usize,
        len: usize,
        _text: std::marker::PhantomData<&'t str>,
    }
    impl<'de> serde::de::Visitor<'de> for Members<'_> {
        type Value = Vec<(String, usize, usize)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut m: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(k) = m.next_key::<std::borrow::Cow<'de, str>>()? {
                let v: &'de serde_json::value::RawValue = m.next_value()?;
                let v = v.get();
                let start = (v.as_ptr() as usize).wrapping_sub(self.base);
                let end = start.wrapping_add(v.len());
                if start > self.len || end > self.len || end < start {
                    return Err(serde::de::Error::custom("value outside the text"));
                }
                out.push((k.into_owned(), start, end));
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let members = Members {
        base: text.as_ptr() as usize,
        len: text.len(),
        _text: std::marker::PhantomData,
    };
    let found = serde::Deserializer::deserialize_map(&mut de, members).ok()?;
    de.end().ok()?;
    Some(found)
}

/// How many containers nest in `v` (0 for a scalar). `v` came from
/// serde_json, so it nests at most 127 levels: the recursion is bounded.
fn nesting(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(nesting).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// Rewrites `text` so that serde_json reads it (module docs): lone
/// surrogate escapes become `\ufffd`, containers at level
/// [`MAX_NESTING`] or deeper become strings of their JSON text, numbers
/// beyond `f64` become `±f64::MAX`. `Ok(None)` when nothing needed
/// rewriting; `Err(invalid_json)` when the text is not JSON.
pub fn normalize(text: &str) -> Result<Option<String>, Error> {
    Normalizer::new(text).run()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value (top level, after `:` or after `,` in an array).
    Value,
    /// A value or `]` (right after `[`).
    ValueOrClose,
    /// A key or `}` (right after `{`).
    KeyOrClose,
    /// A key (after `,` in an object).
    Key,
    /// `:` after a key.
    Colon,
    /// `,` or the closing bracket of the current container.
    CommaOrClose,
    /// Only whitespace until the end.
    End,
}

/// One bit per open container: set for an object, clear for an array.
/// Memory grows with the input's depth (a 64 MiB payload of `[` needs
/// 8 MiB), never the call stack.
#[derive(Default)]
struct Stack {
    bits: Vec<u64>,
    len: usize,
}

impl Stack {
    fn push(&mut self, object: bool) {
        let (word, bit) = (self.len / 64, self.len % 64);
        if word == self.bits.len() {
            self.bits.push(0);
        }
        if object {
            self.bits[word] |= 1 << bit;
        } else {
            self.bits[word] &= !(1 << bit);
        }
        self.len += 1;
    }

    /// Pops the top; `Some(true)` for an object.
    fn pop(&mut self) -> Option<bool> {
        let top = self.top()?;
        self.len -= 1;
        Some(top)
    }

    fn top(&self) -> Option<bool> {
        let i = self.len.checked_sub(1)?;
        Some(self.bits[i / 64] & (1 << (i % 64)) != 0)
    }
}

struct Normalizer<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    out: String,
    /// Bytes of `text` before this index are already in `out` (or replaced).
    copied: usize,
    changed: bool,
    stack: Stack,
    /// Start of the container being kept as text, while inside it.
    capture: Option<usize>,
}

impl<'a> Normalizer<'a> {
    fn new(text: &'a str) -> Normalizer<'a> {
        Normalizer {
            text,
            b: text.as_bytes(),
            i: 0,
            out: String::new(),
            copied: 0,
            changed: false,
            stack: Stack::default(),
            capture: None,
        }
    }

    fn error(&self, what: &str) -> Error {
        let upto = &self.b[..self.i.min(self.b.len())];
        let line = upto
            .iter()
            .filter(|&&c| c == b'\n')
            .count()
            .saturating_add(1);
        let column = upto
            .iter()
            .rev()
            .take_while(|&&c| c != b'\n')
            .count()
            .saturating_add(1);
        Error::InvalidJson {
            line,
            column,
            message: format!("{what} at line {line} column {column}"),
        }
    }

    /// Replaces `text[from..to]` with `with` in the output.
    fn replace(&mut self, from: usize, to: usize, with: &str) {
        self.out.push_str(&self.text[self.copied..from]);
        self.out.push_str(with);
        self.copied = to;
        self.changed = true;
    }

    fn skip_ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn run(mut self) -> Result<Option<String>, Error> {
        let mut expect = Expect::Value;
        loop {
            self.skip_ws();
            let Some(&c) = self.b.get(self.i) else {
                if expect == Expect::End {
                    break;
                }
                return Err(self.error("EOF while parsing"));
            };
            expect = match expect {
                Expect::End => return Err(self.error("trailing characters")),
                Expect::Colon => {
                    if c != b':' {
                        return Err(self.error("expected `:`"));
                    }
                    self.i += 1;
                    Expect::Value
                }
                Expect::CommaOrClose => match (c, self.stack.top()) {
                    (b',', Some(true)) => {
                        self.i += 1;
                        Expect::Key
                    }
                    (b',', Some(false)) => {
                        self.i += 1;
                        Expect::Value
                    }
                    (b'}', Some(true)) | (b']', Some(false)) => self.close(),
                    _ => return Err(self.error("expected `,` or a closing bracket")),
                },
                Expect::KeyOrClose | Expect::Key => match c {
                    b'}' if expect == Expect::KeyOrClose => self.close(),
                    b'"' => {
                        self.string()?;
                        Expect::Colon
                    }
                    _ => return Err(self.error("key must be a string")),
                },
                Expect::Value | Expect::ValueOrClose => match c {
                    b']' if expect == Expect::ValueOrClose => self.close(),
                    b'{' | b'[' => {
                        self.open(c == b'{');
                        if c == b'{' {
                            Expect::KeyOrClose
                        } else {
                            Expect::ValueOrClose
                        }
                    }
                    b'"' => {
                        self.string()?;
                        self.after_value()
                    }
                    b'-' | b'0'..=b'9' => {
                        self.number()?;
                        self.after_value()
                    }
                    b't' => self.literal("true")?,
                    b'f' => self.literal("false")?,
                    b'n' => self.literal("null")?,
                    _ => return Err(self.error("expected value")),
                },
            };
        }
        if !self.changed {
            return Ok(None);
        }
        self.out.push_str(&self.text[self.copied..]);
        Ok(Some(self.out))
    }

    fn after_value(&self) -> Expect {
        if self.stack.len == 0 {
            Expect::End
        } else {
            Expect::CommaOrClose
        }
    }

    fn open(&mut self, object: bool) {
        self.stack.push(object);
        if self.capture.is_none() && self.stack.len >= MAX_NESTING {
            self.capture = Some(self.i);
        }
        self.i += 1;
    }

    fn close(&mut self) -> Expect {
        self.i += 1;
        self.stack.pop();
        if let Some(start) = self.capture {
            if self.stack.len < MAX_NESTING {
                self.capture = None;
                let end = self.i;
                let quoted = quote(&self.text[start..end]);
                self.replace(start, end, &quoted);
            }
        }
        self.after_value()
    }

    fn literal(&mut self, word: &str) -> Result<Expect, Error> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(self.after_value())
        } else {
            Err(self.error("expected value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<(), Error> {
        let start = self.i;
        if self.b[self.i] == b'-' {
            self.i += 1;
        }
        match self.b.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("invalid number")),
        }
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if self.capture.is_none() {
            let t = &self.text[start..self.i];
            if t.parse::<f64>().is_ok_and(f64::is_infinite) {
                let with = if t.starts_with('-') {
                    format!("-{F64_MAX_TEXT}")
                } else {
                    F64_MAX_TEXT.to_string()
                };
                self.replace(start, self.i, &with);
            }
        }
        Ok(())
    }

    /// Four hex digits at `at`.
    fn hex4(&self, at: usize) -> Option<u16> {
        let h = self.b.get(at..at.checked_add(4)?)?;
        let s = std::str::from_utf8(h).ok()?;
        if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(s, 16).ok()
    }

    fn string(&mut self) -> Result<(), Error> {
        self.i += 1; // the opening quote
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return Err(self.error("EOF while parsing a string"));
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(());
                }
                b'\\' => {
                    let esc = self.i;
                    match self.b.get(self.i + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 2,
                        Some(b'u') => {
                            let Some(u) = self.hex4(esc + 2) else {
                                return Err(self.error("invalid unicode escape"));
                            };
                            self.i = esc + 6;
                            let paired = (0xD800..0xDC00).contains(&u)
                                && self.b.get(self.i..self.i + 2) == Some(b"\\u")
                                && self
                                    .hex4(self.i + 2)
                                    .is_some_and(|lo| (0xDC00..0xE000).contains(&lo));
                            if paired {
                                self.i += 6;
                            } else if (0xD800..0xE000).contains(&u) && self.capture.is_none() {
                                self.replace(esc, esc + 6, "\\ufffd");
                            }
                        }
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                0x00..=0x1f => return Err(self.error("control character in a string")),
                _ => self.i += 1,
            }
        }
    }
}

/// `s` as a JSON string literal.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len().saturating_add(2));
    q.push('"');
    for ch in s.chars() {
        match ch {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\r' => q.push_str("\\r"),
            '\t' => q.push_str("\\t"),
            c if (c as u32) < 0x20 => q.push_str(&format!("\\u{:04x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Top-level keys that name the event of a command-hook payload, in the
/// order they are consulted: `hook_event_name` (Claude Code, Codex,
/// Cursor, Gemini CLI, Kimi Code, Copilot CLI snake_case) and
/// `hookEventName`. (The plugin frames of OpenCode and OpenClaw name their
/// hook in `hook`; their fail answers never depend on it.)
pub const EVENT_NAME_KEYS: [&str; 2] = ["hook_event_name", "hookEventName"];

/// The event name of a payload that may not decode at all: invalid UTF-8,
/// numbers or strings no parser takes, a truncated or oversized prefix.
///
/// A lexical scan (bounded by the input, no recursion, never panics) that
/// reads only **top-level** keys of an object ([`EVENT_NAME_KEYS`]): a
/// `"hook_event_name":"Stop"` nested inside `tool_input` (text the model
/// controls) is never taken for the payload's own. `None` when the input is
/// not an object, no key holds a string, or one key appears twice with
/// different values.
pub fn peek_event_name(payload: &[u8]) -> Option<String> {
    let mut found: [Option<Option<String>>; EVENT_NAME_KEYS.len()] = Default::default();
    let b = payload;
    let mut i = 0usize;
    // Skip a UTF-8 byte order mark and whitespace before the object.
    if b.starts_with(&[0xEF, 0xBB, 0xBF]) {
        i = 3;
    }
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let mut depth = 1usize;
    let mut key_next = true;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' if !(depth == 1 && key_next) => {
                // A value or a nested string: only its end matters (a
                // 1 MiB tool output is not decoded to be thrown away).
                i = skip_string(b, i);
                continue;
            }
            b'"' => {
                let (s, end) = lex_string(b, i);
                i = end;
                key_next = false;
                let mut j = i;
                while b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                    j += 1;
                }
                if b.get(j) != Some(&b':') {
                    continue;
                }
                let Some(slot) = EVENT_NAME_KEYS.iter().position(|k| *k == s) else {
                    continue;
                };
                j += 1;
                while b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    continue;
                }
                let (value, end) = lex_string(b, j);
                if end > b.len() || b.get(end - 1) != Some(&b'"') {
                    // Truncated value: not a name.
                    i = end;
                    continue;
                }
                i = end;
                found[slot] = match found[slot].take() {
                    None => Some(Some(value)),
                    Some(Some(prev)) if prev == value => Some(Some(prev)),
                    // Two different names for one key: trust neither.
                    Some(_) => Some(None),
                };
                continue;
            }
            b'{' | b'[' => depth = depth.saturating_add(1),
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => key_next = true,
            _ => {}
        }
        i += 1;
    }
    found
        .into_iter()
        .flatten()
        .flatten()
        .find(|name| !name.is_empty())
}

/// The index after the JSON string starting at the quote at `at`, exactly
/// where [`lex_string`] ends it, without decoding it.
fn skip_string(b: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => return i + 1,
            b'\\' => {
                let Some(&e) = b.get(i + 1) else {
                    break;
                };
                let hex = e == b'u'
                    && b.get(i + 2..i + 6)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u16::from_str_radix(h, 16).ok())
                        .is_some();
                i += if hex { 6 } else { 2 };
            }
            _ => i += 1,
        }
    }
    b.len().saturating_add(1)
}

/// Reads a JSON string starting at the quote at `at`, tolerantly: returns
/// its value (escapes decoded, invalid UTF-8 and lone surrogates replaced
/// by U+FFFD) and the index after the closing quote (or the input's end).
fn lex_string(b: &[u8], at: usize) -> (String, usize) {
    let mut i = at + 1;
    let mut raw: Vec<u8> = Vec::new();
    let mut units: Vec<u16> = Vec::new();
    let flush = |units: &mut Vec<u16>, raw: &mut Vec<u8>| {
        if !units.is_empty() {
            raw.extend_from_slice(String::from_utf16_lossy(units).as_bytes());
            units.clear();
        }
    };
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                flush(&mut units, &mut raw);
                return (String::from_utf8_lossy(&raw).into_owned(), i + 1);
            }
            b'\\' => {
                let Some(&e) = b.get(i + 1) else {
                    break;
                };
                if e == b'u' {
                    let hex = b
                        .get(i + 2..i + 6)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u16::from_str_radix(h, 16).ok());
                    match hex {
                        Some(u) => {
                            units.push(u);
                            i += 6;
                        }
                        None => {
                            flush(&mut units, &mut raw);
                            raw.extend_from_slice("\u{fffd}".as_bytes());
                            i += 2;
                        }
                    }
                    continue;
                }
                flush(&mut units, &mut raw);
                raw.push(match e {
                    b'n' => b'\n',
                    b't' => b'\t',
                    b'r' => b'\r',
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    other => other,
                });
                i += 2;
            }
            _ => {
                flush(&mut units, &mut raw);
                raw.push(c);
                i += 1;
            }
        }
    }
    flush(&mut units, &mut raw);
    (
        String::from_utf8_lossy(&raw).into_owned(),
        b.len().saturating_add(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    proptest::proptest! {
        /// Skipping a string ends it where decoding it does, on any bytes
        /// (quotes, backslashes, `\u` escapes good and bad, truncation).
        #[test]
        fn skip_string_ends_where_lex_string_does(
            body in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(vec![b'"', b'\\', b'u', b'0', b'a', b'F', b'g', b'n', 0xC3, 0xA9]),
                    proptest::num::u8::ANY,
                ],
                0..40,
            )
        ) {
            let mut b = vec![b'"'];
            b.extend_from_slice(&body);
            proptest::prop_assert_eq!(skip_string(&b, 0), lex_string(&b, 0).1);
        }
    }

    /// A top-level event name is found past a large output with escapes,
    /// and a name inside a value is not taken for it.
    #[test]
    fn peek_skips_values_but_reads_top_level_names() {
        let big = "a\\\"\\u00e9\\ud800\\n".repeat(10_000);
        let p = format!(
            r#"{{"tool_response":{{"stdout":"{big}","hook_event_name":"Stop"}},"hook_event_name":"PostToolUse"}}"#
        );
        assert_eq!(
            peek_event_name(p.as_bytes()).as_deref(),
            Some("PostToolUse")
        );
        let p = format!(r#"{{"x":"{big}\"hook_event_name\":\"Stop\""}}"#);
        assert_eq!(peek_event_name(p.as_bytes()), None);
    }

    #[test]
    fn ordinary_json_is_untouched() {
        assert_eq!(normalize(r#"{"a":[1,2,{"b":"c\n"}]}"#).unwrap(), None);
        assert_eq!(parse_value(r#"{"a":1}"#).unwrap(), json!({"a": 1}));
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let v =
            parse_value(r#"{"d":"a\ud800b","e":"\udc00","p":"\ud83d\ude00","k\ud800":1}"#).unwrap();
        assert_eq!(v["d"], "a\u{fffd}b");
        assert_eq!(v["e"], "\u{fffd}");
        assert_eq!(v["p"], "\u{1f600}");
        assert_eq!(v["k\u{fffd}"], 1);
        // A high surrogate followed by another high one: both lone.
        let v = parse_value(r#"["\ud800\ud800\udc00"]"#).unwrap();
        assert_eq!(v[0], "\u{fffd}\u{10000}");
    }

    #[test]
    fn deep_containers_become_their_text() {
        let depth = 100_000;
        let deep = "[".repeat(depth) + &"]".repeat(depth);
        let text = format!(r#"{{"tool_input":{{"command":"rm -rf /","x":{deep}}},"n":1}}"#);
        let v = parse_value(&text).unwrap();
        assert_eq!(v["tool_input"]["command"], "rm -rf /");
        assert_eq!(v["n"], 1);
        // Levels 1 (top) and 2 (tool_input) are objects; x starts at 3.
        let mut cur = &v["tool_input"]["x"];
        for _ in 3..MAX_NESTING {
            cur = &cur[0];
        }
        let kept = cur.as_str().expect("level 128 is text");
        let inner = depth - (MAX_NESTING - 3);
        assert_eq!(kept, "[".repeat(inner) + &"]".repeat(inner));
        // 99 levels decode as plain JSON; 100 to 127 (which serde_json
        // alone would accept) are cut the same way as deeper ones.
        let ok = "[".repeat(MAX_NESTING - 1) + &"]".repeat(MAX_NESTING - 1);
        assert_eq!(normalize(&ok).unwrap(), None);
        assert_eq!(
            parse_value(&ok).unwrap(),
            serde_json::from_str::<Value>(&ok).unwrap()
        );
        let cut = "[".repeat(MAX_NESTING) + &"]".repeat(MAX_NESTING);
        let mut v = &parse_value(&cut).unwrap();
        for _ in 1..MAX_NESTING {
            v = &v[0];
        }
        assert_eq!(v.as_str(), Some("[]"));
    }

    #[test]
    fn deep_text_is_quoted_exactly() {
        let inner = "{\"a\" :\n\t[\"q\\\"\\ud800\"]}";
        let text = "[".repeat(MAX_NESTING - 1) + inner + &"]".repeat(MAX_NESTING - 1);
        let mut v = &parse_value(&text).unwrap();
        for _ in 1..MAX_NESTING {
            v = &v[0];
        }
        assert_eq!(v.as_str(), Some(inner));
    }

    #[test]
    fn huge_numbers_clamp() {
        let v =
            parse_value(r#"{"a":1e999,"b":-1e999,"c":123456789012345678901234567890,"d":1e-999}"#)
                .unwrap();
        assert_eq!(v["a"].as_f64(), Some(f64::MAX));
        assert_eq!(v["b"].as_f64(), Some(-f64::MAX));
        assert_eq!(v["c"].as_f64(), Some(1.2345678901234568e29));
        assert_eq!(v["d"].as_f64(), Some(0.0));
    }

    #[test]
    fn not_json_is_still_invalid() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "{\"a\":1,}",
            "01",
            "1.",
            "-",
            "tru",
            "\"\\x\"",
            "\"a",
            "[1] 2",
            "{\"a\":\"\u{1}\"}",
            "\"\\u12\"",
            "[[[[}]]]",
            "\"\\ud800",
        ] {
            let deep = "[".repeat(200) + bad + &"]".repeat(200);
            let forms = if bad.is_empty() {
                vec![String::new()]
            } else {
                vec![bad.to_string(), deep]
            };
            for t in forms {
                let e = parse_value(&t).unwrap_err();
                assert_eq!(e.code().as_str(), "invalid_json", "{t:?}: {e}");
            }
        }
    }

    #[test]
    fn peek_reads_only_top_level_names() {
        assert_eq!(
            peek_event_name(br#"{"a":1e999,"hook_event_name":"Stop"}"#).as_deref(),
            Some("Stop")
        );
        assert_eq!(
            peek_event_name(b"{\"x\":\"\xff\xfe\",\"hook_event_name\" : \"Stop\"").as_deref(),
            Some("Stop")
        );
        assert_eq!(
            peek_event_name(br#"{"hookEventName":"agentStop"}"#).as_deref(),
            Some("agentStop")
        );
        // Nested, inside a string, as a value, or not an object: not a name.
        for p in [
            &br#"{"tool_input":{"hook_event_name":"Stop"}}"#[..],
            br#"{"c":"\",\"hook_event_name\":\"Stop\""}"#,
            br#"{"c":"hook_event_name","d":"Stop"}"#,
            br#"[{"hook_event_name":"Stop"}]"#,
            br#"{"hook_event_name":"Sto"#,
            br#"{"hook_event_name":"Stop","hook_event_name":"PreToolUse"}"#,
            b"",
        ] {
            assert_eq!(peek_event_name(p), None, "{}", String::from_utf8_lossy(p));
        }
        assert_eq!(
            peek_event_name(br#"{"a":[{"b":"}"}],"hook_event_name":"S\u0074op"}"#).as_deref(),
            Some("Stop")
        );
    }
}
