//! Best-effort streaming readers for the transcript files agents point
//! hooks at (`transcript_path`).
//!
//! Formats (learned from the files the real agents write in the tier-2
//! suite; `fixtures/transcript/` holds scrubbed copies):
//!
//! - **Claude Code** JSONL (`~/.claude/projects/<dir>/<session>.jsonl`):
//!   one record per line, `type` = `user` / `assistant` / `system` carry a
//!   `message {role, content}` whose content is a string or blocks
//!   (`text`, `tool_use {id, name, input}`, `tool_result {tool_use_id,
//!   content, is_error}`); every other `type` (`attachment`,
//!   `queue-operation`, `last-prompt`, `api-request`, ...) is bookkeeping.
//! - **Codex** rollout JSONL (`$CODEX_HOME/sessions/.../rollout-*.jsonl`):
//!   `{timestamp, type, payload}`; `response_item` payloads are `message
//!   {role, content[{text}]}`, `function_call {name, arguments, call_id}`,
//!   `custom_tool_call {name, input, call_id}`, `function_call_output` /
//!   `custom_tool_call_output {call_id, output}`; `session_meta`,
//!   `event_msg`, `turn_context`, ... are bookkeeping.
//! - **Gemini CLI** chat JSONL (`~/.gemini/tmp/<project>/chats/*.jsonl`):
//!   a header `{sessionId, projectHash, ...}`, `{"$set": ...}` updates, and
//!   messages `{id, timestamp, type: user|gemini|info|error|warning,
//!   content, toolCalls[{id, name, args, result}]}` (a message may appear
//!   again when updated; both records are reported).
//!
//! Memory is bounded by the line cap: a line longer than `max_line` bytes
//! is skipped without being held (a [`EntryKind::TooLong`] entry with its
//! length), and the file is never loaded whole. A line that is not JSON is
//! [`EntryKind::Invalid`] (its text kept); JSON that is not recognized is
//! [`EntryKind::Unknown`] and bookkeeping records are [`EntryKind::Meta`],
//! both with the record kept in `raw`. A last line without its newline
//! that does not parse is treated as still being written: reading stops
//! before it, so a later page picks it up complete.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::Error;
use crate::model::Provider;

/// Default line cap (bytes): longer lines become `too_long` entries.
pub const DEFAULT_MAX_LINE: usize = 4 * 1024 * 1024;
/// Default number of entries per page of the JSON page API.
pub const DEFAULT_PAGE: usize = 256;
/// Largest page the JSON page API hands out at once.
pub const MAX_PAGE: usize = 4096;

/// Which transcript format to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Decide per line from the record's shape.
    #[default]
    Auto,
    /// Claude Code JSONL.
    Claude,
    /// Codex rollout JSONL.
    Codex,
    /// Gemini CLI chat JSONL.
    Gemini,
}

impl Format {
    /// The format of an agent's transcripts (`Auto` for agents whose
    /// format is not known here).
    pub fn of(provider: Provider) -> Format {
        match provider {
            Provider::ClaudeCode => Format::Claude,
            Provider::Codex => Format::Codex,
            Provider::Gemini => Format::Gemini,
            _ => Format::Auto,
        }
    }

    /// Parses `auto` or a provider id / alias.
    pub fn parse(s: &str) -> Result<Format, Error> {
        if s.is_empty() || s.eq_ignore_ascii_case("auto") {
            return Ok(Format::Auto);
        }
        Ok(Format::of(Provider::parse(s)?))
    }

    fn id(self) -> Option<&'static str> {
        match self {
            Format::Auto => None,
            Format::Claude => Some("claude-code"),
            Format::Codex => Some("codex"),
            Format::Gemini => Some("gemini"),
        }
    }
}

/// What one line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A conversation record: a message, tool calls or tool results.
    Message,
    /// A recognized bookkeeping record (kept in `raw`).
    Meta,
    /// JSON this reader does not recognize (kept in `raw`).
    Unknown,
    /// Not JSON (the text kept in `raw` as a string).
    Invalid,
    /// Longer than the line cap; skipped, only its length is reported.
    TooLong,
}

/// A tool call found in a record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranscriptToolCall {
    /// The call's id, when the record has one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// The tool's native name.
    pub name: String,
    /// The input, always an object (string-encoded inputs are parsed).
    #[serde(default)]
    pub input: Map<String, Value>,
}

/// A tool result found in a record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranscriptToolResult {
    /// The id of the call it answers.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// The output as the agent recorded it.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub output: Value,
    /// The agent marked it as an error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

/// One line of a transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line's start.
    pub offset: u64,
    /// What the line is.
    pub kind: EntryKind,
    /// The format the line was read as (`claude-code`, `codex`, `gemini`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// The record's native type (`assistant`, `response_item.function_call`).
    #[serde(default, rename = "type", skip_serializing_if = "String::is_empty")]
    pub record_type: String,
    /// `user`, `assistant`, `system`, `developer` or `tool`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub role: String,
    /// The text parts, joined by newlines.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Tool calls in the record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<TranscriptToolCall>,
    /// Tool results in the record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_results: Vec<TranscriptToolResult>,
    /// The record's timestamp, verbatim.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub timestamp: String,
    /// Length of a `too_long` line in bytes (without its newline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// The record (meta, unknown) or the line's text (invalid).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub raw: Value,
}

impl Entry {
    fn bare(line: u64, offset: u64, kind: EntryKind) -> Entry {
        Entry {
            line,
            offset,
            kind,
            format: String::new(),
            record_type: String::new(),
            role: String::new(),
            text: String::new(),
            tool_calls: Vec::new(),
            tool_results: Vec::new(),
            timestamp: String::new(),
            bytes: None,
            raw: Value::Null,
        }
    }
}

/// One physical line as read.
enum Line {
    Text(Vec<u8>),
    TooLong(u64),
}

/// A streaming transcript reader over any buffered source.
#[derive(Debug)]
pub struct Reader<R> {
    src: R,
    format: Format,
    max_line: usize,
    offset: u64,
    line: u64,
    done: bool,
}

impl Reader<BufReader<File>> {
    /// Opens a transcript file (a regular file; a FIFO or device is
    /// refused, never waited on).
    pub fn open(path: &Path, format: Format, max_line: usize) -> Result<Self, Error> {
        Ok(Reader::new(
            BufReader::with_capacity(64 * 1024, open_regular(path)?),
            format,
            max_line,
        ))
    }
}

impl<R: BufRead> Reader<R> {
    /// A reader over `src` starting at offset 0, line 1.
    pub fn new(src: R, format: Format, max_line: usize) -> Self {
        Reader {
            src,
            format,
            max_line: max_line.max(1),
            offset: 0,
            line: 1,
            done: false,
        }
    }

    /// Starts numbering at `offset`/`line` (the source is already there).
    pub fn resume_at(mut self, offset: u64, line: u64) -> Self {
        self.offset = offset;
        self.line = line.max(1);
        self
    }

    /// Offset of the next unread line.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Number of the next unread line.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Whether the end (or an incomplete last line) was reached.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Reads one physical line; `None` at the end. `Some((line, consumed,
    /// complete))` where `consumed` counts the newline too.
    fn read_line(&mut self) -> std::io::Result<Option<(Line, u64, bool)>> {
        let mut buf: Vec<u8> = Vec::new();
        let mut len: u64 = 0;
        let mut too_long = false;
        loop {
            let chunk = self.src.fill_buf()?;
            if chunk.is_empty() {
                if len == 0 {
                    return Ok(None);
                }
                let line = if too_long {
                    Line::TooLong(len)
                } else {
                    Line::Text(buf)
                };
                return Ok(Some((line, len, false)));
            }
            let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], true),
                None => (chunk, false),
            };
            let n = part.len();
            len = len.saturating_add(n as u64);
            if !too_long {
                if buf.len().saturating_add(n) > self.max_line {
                    too_long = true;
                    buf = Vec::new();
                } else {
                    buf.extend_from_slice(part);
                }
            }
            let used = if found { n + 1 } else { n };
            self.src.consume(used);
            if found {
                let line = if too_long {
                    Line::TooLong(len)
                } else {
                    Line::Text(buf)
                };
                return Ok(Some((line, len.saturating_add(1), true)));
            }
        }
    }

    /// The next entry; `Ok(None)` at the end.
    pub fn next_entry(&mut self) -> Result<Option<Entry>, Error> {
        loop {
            if self.done {
                return Ok(None);
            }
            let read = self.read_line().map_err(|e| Error::Io {
                what: "reading the transcript".into(),
                source: e,
            })?;
            let Some((line, consumed, complete)) = read else {
                self.done = true;
                return Ok(None);
            };
            let (no, off) = (self.line, self.offset);
            if !complete && matches!(line, Line::TooLong(_)) {
                // A long last line still being written: stop before it.
                self.done = true;
                return Ok(None);
            }
            let entry = match line {
                Line::TooLong(n) => {
                    let mut e = Entry::bare(no, off, EntryKind::TooLong);
                    e.bytes = Some(n);
                    Some(e)
                }
                Line::Text(mut bytes) => {
                    if bytes.last() == Some(&b'\r') {
                        bytes.pop();
                    }
                    if !complete && serde_json::from_slice::<Value>(&bytes).is_err() {
                        // Still being written: stop before it.
                        self.done = true;
                        return Ok(None);
                    }
                    if bytes.iter().all(u8::is_ascii_whitespace) {
                        None
                    } else {
                        Some(classify_line(self.format, no, off, &bytes))
                    }
                }
            };
            self.offset = self.offset.saturating_add(consumed);
            self.line = self.line.saturating_add(1);
            if let Some(e) = entry {
                return Ok(Some(e));
            }
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Entry, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_entry() {
            Ok(Some(e)) => Some(Ok(e)),
            Ok(None) => None,
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Opens `path` for reading without blocking on a FIFO and refuses
/// anything but a regular file.
pub(crate) fn open_regular(path: &Path) -> Result<File, Error> {
    let io = |what: &str, e: std::io::Error| Error::Io {
        what: format!("{what} {}", path.display()),
        source: e,
    };
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let f = opts.open(path).map_err(|e| io("opening", e))?;
    let meta = f.metadata().map_err(|e| io("inspecting", e))?;
    if !meta.is_file() {
        return Err(io(
            "refusing",
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"),
        ));
    }
    Ok(f)
}

fn classify_line(format: Format, line: u64, offset: u64, bytes: &[u8]) -> Entry {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(_) => {
            let mut e = Entry::bare(line, offset, EntryKind::Invalid);
            e.raw = Value::String(String::from_utf8_lossy(bytes).into_owned());
            return e;
        }
    };
    let mut e = Entry::bare(line, offset, EntryKind::Unknown);
    let Value::Object(obj) = &value else {
        e.raw = value;
        return e;
    };
    let format = match format {
        Format::Auto => sniff(obj),
        f => f,
    };
    let known = match format {
        Format::Claude => claude(obj, &mut e),
        Format::Codex => codex(obj, &mut e),
        Format::Gemini => gemini(obj, &mut e),
        Format::Auto => false,
    };
    if known {
        e.format = format.id().unwrap_or_default().to_string();
    }
    if e.kind != EntryKind::Message {
        e.raw = value;
    }
    e
}

fn sniff(obj: &Map<String, Value>) -> Format {
    let has = |k: &str| obj.contains_key(k);
    if has("payload") && obj.get("type").is_some_and(Value::is_string) {
        Format::Codex
    } else if has("$set")
        || has("projectHash")
        || (has("toolCalls") || obj.get("type").and_then(Value::as_str) == Some("gemini"))
    {
        Format::Gemini
    } else if has("sessionId")
        || has("parentUuid")
        || has("message")
        || has("uuid")
        || has("leafUuid")
    {
        Format::Claude
    } else if has("id") && has("content") && has("type") && has("timestamp") {
        Format::Gemini
    } else {
        Format::Auto
    }
}

fn s(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or_default().to_string()
}

fn push_text(out: &mut String, t: &str) {
    if t.is_empty() {
        return;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(t);
}

fn claude(obj: &Map<String, Value>, e: &mut Entry) -> bool {
    let ty = s(obj.get("type"));
    e.record_type = ty.clone();
    e.timestamp = s(obj.get("timestamp"));
    let Some(msg) = obj.get("message").and_then(Value::as_object) else {
        if ty == "system" {
            if let Some(t) = obj.get("content").and_then(Value::as_str) {
                e.kind = EntryKind::Message;
                e.role = "system".into();
                e.text = t.to_string();
                return true;
            }
        }
        e.kind = if ty.is_empty() {
            EntryKind::Unknown
        } else {
            EntryKind::Meta
        };
        return !ty.is_empty();
    };
    if !matches!(ty.as_str(), "user" | "assistant" | "system") {
        e.kind = EntryKind::Meta;
        return true;
    }
    e.kind = EntryKind::Message;
    e.role = msg
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or(ty.as_str())
        .to_string();
    match msg.get("content") {
        Some(Value::String(t)) => e.text = t.clone(),
        Some(Value::Array(blocks)) => {
            for b in blocks {
                match b.get("type").and_then(Value::as_str) {
                    Some("text") => push_text(&mut e.text, &s(b.get("text"))),
                    Some("tool_use") | Some("server_tool_use") => {
                        e.tool_calls.push(TranscriptToolCall {
                            id: s(b.get("id")),
                            name: s(b.get("name")),
                            input: crate::model::input_object(
                                b.get("input").unwrap_or(&Value::Null),
                            ),
                        })
                    }
                    Some("tool_result") => e.tool_results.push(TranscriptToolResult {
                        id: s(b.get("tool_use_id")),
                        output: b.get("content").cloned().unwrap_or(Value::Null),
                        is_error: b.get("is_error").and_then(Value::as_bool).unwrap_or(false),
                    }),
                    _ => {}
                }
            }
        }
        _ => {}
    }
    true
}

fn codex(obj: &Map<String, Value>, e: &mut Entry) -> bool {
    let ty = s(obj.get("type"));
    e.timestamp = s(obj.get("timestamp"));
    let payload = obj.get("payload").and_then(Value::as_object);
    let inner = payload.map(|p| s(p.get("type"))).unwrap_or_default();
    e.record_type = if inner.is_empty() {
        ty.clone()
    } else {
        format!("{ty}.{inner}")
    };
    if ty.is_empty() {
        return false;
    }
    let Some(p) = payload.filter(|_| ty == "response_item") else {
        e.kind = EntryKind::Meta;
        return true;
    };
    match inner.as_str() {
        "message" => {
            e.kind = EntryKind::Message;
            e.role = s(p.get("role"));
            if let Some(Value::Array(parts)) = p.get("content") {
                for part in parts {
                    push_text(&mut e.text, &s(part.get("text")));
                }
            }
        }
        "function_call" | "custom_tool_call" | "local_shell_call" => {
            e.kind = EntryKind::Message;
            e.role = "assistant".into();
            let input = match inner.as_str() {
                "function_call" => p.get("arguments"),
                "custom_tool_call" => p.get("input"),
                _ => p.get("action"),
            };
            let name = if inner == "local_shell_call" {
                "local_shell".to_string()
            } else {
                s(p.get("name"))
            };
            e.tool_calls.push(TranscriptToolCall {
                id: s(p.get("call_id")),
                name,
                input: crate::model::input_object(input.unwrap_or(&Value::Null)),
            });
        }
        "function_call_output" | "custom_tool_call_output" => {
            e.kind = EntryKind::Message;
            e.role = "tool".into();
            e.tool_results.push(TranscriptToolResult {
                id: s(p.get("call_id")),
                output: p.get("output").cloned().unwrap_or(Value::Null),
                is_error: false,
            });
        }
        _ => e.kind = EntryKind::Meta,
    }
    true
}

fn gemini(obj: &Map<String, Value>, e: &mut Entry) -> bool {
    e.timestamp = s(obj.get("timestamp"));
    if obj.contains_key("$set") {
        e.record_type = "$set".into();
        e.kind = EntryKind::Meta;
        return true;
    }
    if obj.contains_key("projectHash") {
        e.record_type = "session".into();
        e.kind = EntryKind::Meta;
        return true;
    }
    let ty = s(obj.get("type"));
    e.record_type = ty.clone();
    let role = match ty.as_str() {
        "user" => "user",
        "gemini" => "assistant",
        "info" | "error" | "warning" => "system",
        "" => return false,
        _ => {
            e.kind = EntryKind::Meta;
            return true;
        }
    };
    e.kind = EntryKind::Message;
    e.role = role.into();
    match obj.get("content") {
        Some(Value::String(t)) => e.text = t.clone(),
        Some(Value::Array(parts)) => {
            for part in parts {
                if let Some(t) = part.get("text").and_then(Value::as_str) {
                    push_text(&mut e.text, t);
                }
                if let Some(fr) = part.get("functionResponse") {
                    let output = fr.get("response").cloned().unwrap_or(Value::Null);
                    let is_error = output.get("error").is_some();
                    e.tool_results.push(TranscriptToolResult {
                        id: s(fr.get("id")),
                        output,
                        is_error,
                    });
                }
            }
        }
        _ => {}
    }
    if let Some(Value::Array(calls)) = obj.get("toolCalls") {
        for c in calls {
            e.tool_calls.push(TranscriptToolCall {
                id: s(c.get("id")),
                name: s(c.get("name")),
                input: crate::model::input_object(c.get("args").unwrap_or(&Value::Null)),
            });
        }
    }
    true
}

/// One page of entries (the JSON page API and the bindings' iterators).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Page {
    /// The entries, in file order.
    pub entries: Vec<Entry>,
    /// Where the next page starts (pass back as `offset`).
    pub next_offset: u64,
    /// The number of the next page's first line (pass back as `line`).
    pub next_line: u64,
    /// Nothing more to read for now (the end, or an incomplete last line).
    pub done: bool,
}

/// Reads up to `max_entries` entries of `path` starting at byte `offset`
/// (which must be a line start: 0 or a `next_offset`), numbering lines
/// from `line`.
pub fn read_page(
    path: &Path,
    format: Format,
    offset: u64,
    line: u64,
    max_entries: usize,
    max_line: usize,
) -> Result<Page, Error> {
    let mut f = open_regular(path)?;
    f.seek(SeekFrom::Start(offset)).map_err(|e| Error::Io {
        what: format!("seeking in {}", path.display()),
        source: e,
    })?;
    let src = BufReader::with_capacity(64 * 1024, f.take(u64::MAX));
    let mut r = Reader::new(src, format, max_line).resume_at(offset, line);
    let mut entries = Vec::new();
    let max = max_entries.clamp(1, MAX_PAGE);
    while entries.len() < max {
        match r.next_entry()? {
            Some(e) => entries.push(e),
            None => break,
        }
    }
    if !r.is_done() {
        // Peek: is anything left?
        let more = r.src.fill_buf().map(|b| !b.is_empty()).unwrap_or(false);
        r.done = !more;
    }
    Ok(Page {
        entries,
        next_offset: r.offset(),
        next_line: r.line(),
        done: r.is_done(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PageReq {
    path: String,
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    offset: u64,
    #[serde(default)]
    line: Option<u64>,
    #[serde(default)]
    max_entries: Option<usize>,
    #[serde(default)]
    max_line_bytes: Option<usize>,
}

/// The JSON page API (`ah_transcript_page_json` and the bindings).
/// Request: `{"path", "format"?: "auto" | provider id, "offset"?: 0,
/// "line"?: 1, "max_entries"?: 256, "max_line_bytes"?: 4194304}`. Answer:
/// `{"entries": [...], "next_offset", "next_line", "done"}` or `{"error":
/// {"code", "message"}}`.
pub fn page_json(req: &str) -> String {
    let run = || -> Result<Value, Error> {
        let r: PageReq = serde_json::from_str(req).map_err(|e| Error::InvalidArgument {
            message: format!("transcript page request: {e}"),
        })?;
        if r.path.is_empty() {
            return Err(Error::InvalidArgument {
                message: "transcript page request: `path` is empty".into(),
            });
        }
        let format = Format::parse(r.format.as_deref().unwrap_or("auto"))?;
        let page = read_page(
            Path::new(&r.path),
            format,
            r.offset,
            r.line.unwrap_or(1),
            r.max_entries.unwrap_or(DEFAULT_PAGE),
            r.max_line_bytes.unwrap_or(DEFAULT_MAX_LINE),
        )?;
        Ok(serde_json::to_value(page).unwrap_or(Value::Null))
    };
    match run() {
        Ok(v) => v.to_string(),
        Err(e) => e.to_json_answer(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str, max: usize) -> Vec<Entry> {
        Reader::new(text.as_bytes(), Format::Auto, max)
            .collect::<Result<Vec<_>, _>>()
            .unwrap()
    }

    #[test]
    fn over_long_lines_are_skipped_not_loaded() {
        let big = format!(
            "{{\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":\"{}\"}}}}",
            "x".repeat(5000)
        );
        let text = format!(
            "{big}\n{{\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":\"hi\"}}}}\n"
        );
        let es = read_all(&text, 100);
        assert_eq!(es.len(), 2);
        assert_eq!(es[0].kind, EntryKind::TooLong);
        assert_eq!(es[0].bytes, Some(big.len() as u64));
        assert_eq!(es[1].text, "hi");
        assert_eq!(es[1].line, 2);
        assert_eq!(es[1].offset, big.len() as u64 + 1);
    }

    #[test]
    fn incomplete_last_line_is_left_for_later() {
        let es = read_all(
            "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n{\"type\":\"us",
            1000,
        );
        assert_eq!(es.len(), 1);
        let es = read_all("not json\n", 1000);
        assert_eq!(es[0].kind, EntryKind::Invalid);
        assert_eq!(es[0].raw, Value::String("not json".into()));
    }

    #[test]
    fn an_unfinished_long_last_line_is_not_consumed() {
        let text = format!("{{\"a\":1}}\n{}", "x".repeat(500));
        let mut r = Reader::new(text.as_bytes(), Format::Auto, 100);
        assert_eq!(r.next_entry().unwrap().unwrap().kind, EntryKind::Unknown);
        assert!(r.next_entry().unwrap().is_none());
        // The next read starts at the unfinished line.
        assert_eq!(r.offset(), 8);
        assert_eq!(r.line(), 2);
    }

    #[test]
    fn codex_function_call_arguments_become_input() {
        let es = read_all(
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"c1"}}"#,
            1000,
        );
        assert_eq!(es[0].format, "codex");
        assert_eq!(es[0].tool_calls[0].input["cmd"], "ls");
        assert_eq!(es[0].tool_calls[0].id, "c1");
    }
}
