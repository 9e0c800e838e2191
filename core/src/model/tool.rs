//! Tool calls: canonical classes, MCP attribution, facets, synthesized ids.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// Canonical class of a tool, whatever the agent calls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Canonical {
    /// Runs a shell command.
    #[serde(rename = "shell")]
    Shell,
    /// Reads a file.
    #[serde(rename = "file.read")]
    FileRead,
    /// Creates or overwrites a file.
    #[serde(rename = "file.write")]
    FileWrite,
    /// Edits a file in place (incl. patches).
    #[serde(rename = "file.edit")]
    FileEdit,
    /// Searches file names or contents.
    #[serde(rename = "search")]
    Search,
    /// Fetches a URL or searches the web.
    #[serde(rename = "fetch")]
    Fetch,
    /// Spawns a subagent / task.
    #[serde(rename = "task")]
    Task,
    /// A tool of an MCP server.
    #[serde(rename = "mcp")]
    Mcp,
    /// Anything else.
    #[serde(rename = "other")]
    Other,
}

impl Canonical {
    /// The canonical spelling (`file.read`).
    pub fn as_str(self) -> &'static str {
        match self {
            Canonical::Shell => "shell",
            Canonical::FileRead => "file.read",
            Canonical::FileWrite => "file.write",
            Canonical::FileEdit => "file.edit",
            Canonical::Search => "search",
            Canonical::Fetch => "fetch",
            Canonical::Task => "task",
            Canonical::Mcp => "mcp",
            Canonical::Other => "other",
        }
    }
}

/// The MCP server and tool behind an MCP tool call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpInfo {
    /// Server name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub server: String,
    /// Tool name on that server.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tool: String,
    /// Server URL, when the agent reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Server command, when the agent reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

/// One tool call, normalized.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The agent's id for the call, or a synthesized one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// True when the agent sent no id and `id` was derived.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub synthesized: bool,
    /// Native tool name, verbatim.
    pub name: String,
    /// Canonical class.
    pub canonical: Canonical,
    /// MCP attribution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<McpInfo>,
    /// The input, always an object.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub input: Map<String, Value>,
    /// The input exactly as the agent sent it.
    #[serde(default, skip_serializing_if = "crate::model::is_empty_value")]
    pub raw_input: Value,
    /// Shell command facet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// File paths named by the call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Search pattern facet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Glob facet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glob: Option<String>,
}

impl ToolCall {
    /// The shell command, or `""`.
    pub fn command(&self) -> &str {
        self.command.as_deref().unwrap_or("")
    }

    /// Whether the call may change files (write, edit, or a shell command
    /// with an output redirection), as far as that is knowable.
    pub fn is_mutation(&self) -> bool {
        match self.canonical {
            Canonical::FileWrite | Canonical::FileEdit => true,
            Canonical::Shell => shell_redirects(self.command()),
            _ => false,
        }
    }

    pub(crate) fn extract_facets(&mut self) {
        let s = |k: &str| {
            self.input
                .get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let mut command = None;
        if self.canonical == Canonical::Shell || self.name == "apply_patch" {
            command = s("command").or_else(|| s("cmd"));
            if command.is_none() {
                // Older Codex `shell` sent an argv array.
                if let Some(Value::Array(argv)) = self.input.get("command") {
                    let parts: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
                    if !parts.is_empty() {
                        command = Some(parts.join(" "));
                    }
                }
            }
        }
        let mut paths = Vec::new();
        for key in [
            "file_path",
            "filePath",
            "path",
            "absolute_path",
            "notebook_path",
            "target_file",
            "filename",
            "file",
        ] {
            if let Some(p) = self.input.get(key).and_then(Value::as_str) {
                if !p.is_empty() && !paths.iter().any(|q| q == p) {
                    paths.push(p.to_string());
                }
            }
        }
        for key in ["paths", "file_paths", "files"] {
            if let Some(Value::Array(a)) = self.input.get(key) {
                for p in a.iter().filter_map(Value::as_str) {
                    if !p.is_empty() && !paths.iter().any(|q| q == p) {
                        paths.push(p.to_string());
                    }
                }
            }
        }
        if self.name == "apply_patch" {
            if let Some(patch) = command.as_deref().or(s("patch").as_deref()) {
                for p in patch_paths(patch) {
                    if !paths.contains(&p) {
                        paths.push(p);
                    }
                }
            }
            // The patch body is not a shell command.
            if self.canonical != Canonical::Shell {
                command = None;
            }
        }
        if matches!(
            self.canonical,
            Canonical::Search | Canonical::FileRead | Canonical::Other
        ) || self.canonical == Canonical::Mcp
        {
            self.pattern = s("pattern").or_else(|| s("regex")).or_else(|| s("query"));
        } else {
            self.pattern = s("pattern");
        }
        self.glob = s("glob").or_else(|| s("include"));
        if self.canonical == Canonical::Search
            && self.glob.is_none()
            && self.name.eq_ignore_ascii_case("glob")
        {
            self.glob = self.pattern.clone();
        }
        self.command = command;
        self.paths = paths;
    }

    /// Derives the deterministic id used when the agent sent none:
    /// `hook_synth_` + 16 hex digits of SHA-256 over session id, turn id,
    /// canonical class, native name and one stable facet, joined by `|`.
    pub fn synthesize_id(&mut self, session_id: &str, turn_id: &str) {
        let facet = self.stable_facet();
        let mut h = Sha256::new();
        for (i, part) in [
            session_id,
            turn_id,
            self.canonical.as_str(),
            self.name.as_str(),
            facet.as_str(),
        ]
        .iter()
        .enumerate()
        {
            if i > 0 {
                h.update(b"|");
            }
            h.update(part.as_bytes());
        }
        let digest = h.finalize();
        let mut hex = String::with_capacity(16);
        for b in digest.iter().take(8) {
            hex.push_str(&format!("{b:02x}"));
        }
        self.id = format!("hook_synth_{hex}");
        self.synthesized = true;
    }

    /// The facet that identifies a call for ids and dedupe: the command for
    /// shell, the sorted paths for file tools, server + tool + canonical input
    /// for MCP, else the input as JSON with sorted keys.
    pub fn stable_facet(&self) -> String {
        match self.canonical {
            Canonical::Shell if self.command.is_some() => self.command().to_string(),
            Canonical::FileRead | Canonical::FileWrite | Canonical::FileEdit
                if !self.paths.is_empty() =>
            {
                let mut p = self.paths.clone();
                p.sort();
                p.join("\n")
            }
            Canonical::Mcp => {
                let m = self.mcp.clone().unwrap_or_default();
                format!(
                    "{}|{}|{}",
                    m.server,
                    m.tool,
                    sorted_json(&Value::Object(self.input.clone()))
                )
            }
            _ => sorted_json(&Value::Object(self.input.clone())),
        }
    }
}

/// Turns whatever the agent sent as input into an object: objects stay,
/// JSON strings holding an object are parsed, anything else is wrapped as
/// `{"value": ...}`; `null`/absent becomes `{}`.
pub fn input_object(raw: &Value) -> Map<String, Value> {
    match raw {
        Value::Object(m) => m.clone(),
        Value::Null => Map::new(),
        Value::String(s) => {
            let t = s.trim_start();
            if t.starts_with('{') {
                if let Ok(Value::Object(m)) = crate::json::parse_value(s) {
                    return m;
                }
            }
            if t.is_empty() {
                return Map::new();
            }
            let mut m = Map::new();
            m.insert("value".into(), raw.clone());
            m
        }
        other => {
            let mut m = Map::new();
            m.insert("value".into(), other.clone());
            m
        }
    }
}

/// Every file path named in a Codex `apply_patch` body (`*** Add File:`,
/// `*** Update File:`, `*** Delete File:`, `*** Move to:`), in order, once.
pub fn patch_paths(patch: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end_matches('\r');
        for prefix in [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ] {
            if let Some(rest) = line.strip_prefix(prefix) {
                let p = rest.trim();
                if !p.is_empty() && !out.iter().any(|q| q == p) {
                    out.push(p.to_string());
                }
            }
        }
    }
    out
}

fn shell_redirects(cmd: &str) -> bool {
    let bytes = cmd.as_bytes();
    let mut quote: Option<u8> = None;
    for (i, &b) in bytes.iter().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'\'' | b'"' => quote = Some(b),
                b'>' => {
                    // `2>&1` and `>&2` only duplicate descriptors.
                    let next = bytes.get(i + 1).copied();
                    if next == Some(b'&') {
                        continue;
                    }
                    return true;
                }
                _ => {}
            },
        }
    }
    let lower = cmd.to_ascii_lowercase();
    [
        " tee ",
        "| tee",
        "sed -i",
        "rm ",
        "mv ",
        "cp ",
        "touch ",
        "mkdir ",
        "chmod ",
        "truncate ",
    ]
    .iter()
    .any(|w| lower.contains(w) || lower.starts_with(w.trim_start()))
}

/// Compact JSON with object keys sorted recursively.
pub fn sorted_json(v: &Value) -> String {
    fn sort(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let mut out = Map::new();
                for k in keys {
                    out.insert(k.clone(), sort(&m[k]));
                }
                Value::Object(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(sort).collect()),
            other => other.clone(),
        }
    }
    // serde_json's Map keeps insertion order only with `preserve_order`;
    // without it (our build) it is a BTreeMap, sorted already.
    serde_json::to_string(&sort(v)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Provider;
    use serde_json::json;

    #[test]
    fn string_inputs_become_objects() {
        assert_eq!(
            input_object(&json!("{\"a\":1}")),
            json!({"a":1}).as_object().unwrap().clone()
        );
        assert_eq!(
            input_object(&json!("ls")),
            json!({"value":"ls"}).as_object().unwrap().clone()
        );
        assert_eq!(
            input_object(&json!(3)),
            json!({"value":3}).as_object().unwrap().clone()
        );
        assert!(input_object(&Value::Null).is_empty());
    }

    #[test]
    fn apply_patch_paths_are_facets() {
        let patch = "*** Begin Patch\n*** Update File: src/db.rs\n@@\n-a\n+b\n*** Add File: new.txt\n+x\n*** Delete File: old.txt\n*** Update File: a.rs\n*** Move to: b.rs\n*** End Patch";
        let t = ToolCall::new(
            Provider::Codex,
            "apply_patch",
            json!({"command": patch}),
            Some("c".into()),
        );
        assert_eq!(t.canonical, Canonical::FileEdit);
        assert_eq!(
            t.paths,
            vec!["src/db.rs", "new.txt", "old.txt", "a.rs", "b.rs"]
        );
        assert_eq!(t.command, None);
    }

    #[test]
    fn synthesized_ids_are_stable_and_distinct() {
        let mut a = ToolCall::new(Provider::ClaudeCode, "Bash", json!({"command":"ls"}), None);
        let mut b = a.clone();
        a.synthesize_id("s", "t");
        b.synthesize_id("s", "t");
        assert_eq!(a.id, b.id);
        assert!(a.id.starts_with("hook_synth_") && a.id.len() == "hook_synth_".len() + 16);
        let mut c = ToolCall::new(Provider::ClaudeCode, "Bash", json!({"command":"pwd"}), None);
        c.synthesize_id("s", "t");
        assert_ne!(a.id, c.id);
    }

    #[test]
    fn mutation_heuristic() {
        let t = ToolCall::new(
            Provider::ClaudeCode,
            "Bash",
            json!({"command":"echo hi > f"}),
            None,
        );
        assert!(t.is_mutation());
        let t = ToolCall::new(
            Provider::ClaudeCode,
            "Bash",
            json!({"command":"ls 2>&1"}),
            None,
        );
        assert!(!t.is_mutation());
        let t = ToolCall::new(
            Provider::ClaudeCode,
            "Write",
            json!({"file_path":"/a"}),
            None,
        );
        assert!(t.is_mutation());
    }
}
