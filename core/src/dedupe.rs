//! Cross-process suppression of double-fired events.
//!
//! Cursor fires a generic and a specific hook for one tool call, each in its
//! own process (`docs/protocols/cursor.md` §3.4): `preToolUse` +
//! `beforeShellExecution` / `beforeMCPExecution` / `beforeReadFile`, and
//! `postToolUse` (or `postToolUseFailure`) + `afterShellExecution` /
//! `afterMCPExecution`. Both decode to the same kind and class, so an
//! author's handler would run twice. The runtime calls [`claim`] after
//! decoding and before running handlers; on [`Claim::Duplicate`] it skips
//! the handlers and answers [`suppressed_response`], the dialect's no-op
//! (`{}` for Cursor): never a forced allow, so the sibling that ran decides.
//!
//! Scheme: the first process to create a marker file for the call's key
//! (exclusive create) handles it. The key is session id, turn id, stage
//! (`pre` for `tool.pre`; `post` for `tool.post` and `tool.error`),
//! canonical class and the call's stable facet ([`ToolCall::stable_facet`];
//! for MCP without the server, which only the specific event can know).
//! The marker records which native event claimed and the agent's tool-call
//! id, so that a later process is a duplicate only when it is:
//!
//! - the *other* native event (the sibling), or
//! - the same native event with the same real (agent-given) tool-call id
//!   (a double-fired process, e.g. the Windows CLI).
//!
//! The same native event without ids (two identical `beforeShellExecution`
//! calls in one turn) is never suppressed: double delivery is preferred
//! over a dropped decision. The generic MCP echo (`preToolUse` /
//! `postToolUse` / `postToolUseFailure` of an `MCP:` tool) never claims: it
//! lacks the server identity and arrives first; it is suppressed only when
//! the specific sibling already claimed. Markers expire after [`TTL`] and
//! stale ones are swept. Any filesystem error means "not a duplicate".
//!
//! The key also carries the hook's identity ([`process_identity`]): two
//! different hooks on the same call (a guard and an audit logger, or two
//! guards) each handle it; only the same hook's double delivery is
//! suppressed, so one hook can never silence another.
//!
//! Markers live in the `dedupe` subdirectory of the private per-user state
//! root ([`crate::state`]): created 0700, owner and mode verified, markers
//! created with `O_EXCL | O_NOFOLLOW`.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::dialect::cursor;
use crate::error::Error;
use crate::model::{
    Canonical, Decision, Event, Kind, Note, Policy, Provider, Response, ToolCall, sorted_json,
};
use crate::state::{self, StateDir};

/// How long a marker suppresses its sibling.
pub const TTL: Duration = Duration::from_secs(120);

/// The outcome of [`claim`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// This process handles the event (it claimed the call, or nothing
    /// suppresses it).
    First,
    /// A sibling process already handles this call: answer the no-op.
    Duplicate,
    /// Deduplication does not apply to this event (another agent, a kind
    /// without a sibling, missing session or turn id).
    NotApplicable,
}

/// Claims the event's tool call for this process (see the module docs),
/// in the user's state root, for this process's hook identity
/// ([`process_identity`]). A state root that cannot be used safely is an
/// error (the caller reports it and handles the event: double delivery is
/// preferred over a dropped decision).
pub fn claim(event: &Event) -> Result<Claim, Error> {
    if key(event, "").is_none() {
        return Ok(Claim::NotApplicable);
    }
    let dir = state::root()?.subdir(SUBDIR)?;
    Ok(claim_at(&dir, event, &process_identity()))
}

/// [`claim`] with an explicit marker directory (created if missing) and
/// an empty hook identity (tests). An unusable directory means "not a
/// duplicate".
pub fn claim_in(dir: &Path, event: &Event) -> Claim {
    if key(event, "").is_none() {
        return Claim::NotApplicable;
    }
    match state::root_at(dir) {
        Ok(d) => claim_at(&d, event, ""),
        Err(_) => Claim::First,
    }
}

/// [`claim`] in a verified state directory, for the hook named by
/// `identity`: only a process of the same hook can be a duplicate.
pub fn claim_at(dir: &StateDir, event: &Event, identity: &str) -> Claim {
    let Some(k) = key(event, identity) else {
        return Claim::NotApplicable;
    };
    match try_claim(dir, event, &k) {
        Ok(c) => c,
        Err(_) => Claim::First,
    }
}

/// The answer of a suppressed sibling: the dialect's no-op (`{}` on
/// Cursor), with a `deduplicated` note.
pub fn suppressed_response(event: &Event) -> Response {
    let mut r = crate::dialect::respond(event, &Decision::no_decision(), &Policy::default())
        .unwrap_or_else(|_| Response {
            stdout: "{}".into(),
            ..Response::default()
        });
    r.notes = vec![Note::new(
        "deduplicated",
        Some(event.native_name.as_str()),
        Some("no_decision"),
        "a sibling hook process handles this tool call",
    )];
    r
}

/// The subdirectory of the state root holding markers.
pub const SUBDIR: &str = "dedupe";

/// Which hook this process is, for dedupe keys: the process's argv
/// without what differs between a hook's sibling deliveries (the
/// `--event` option and a trailing JSON payload argument). Two different
/// hooks (a guard and an audit logger; another program, arguments,
/// `--hook-id` or `--match`) never share a key, so one can never silence
/// the other.
pub fn process_identity() -> String {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    identity_of(&argv)
}

/// [`process_identity`] for an explicit argv.
pub fn identity_of<S: AsRef<str>>(argv: &[S]) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut skip_value = false;
    for a in argv.iter().map(AsRef::as_ref) {
        if skip_value {
            skip_value = false;
            continue;
        }
        if a == "--event" {
            skip_value = true;
            continue;
        }
        if a.starts_with("--event=") || a.trim_start().starts_with('{') {
            continue;
        }
        out.push(a);
    }
    serde_json::to_string(&out).unwrap_or_default()
}

/// Whether dedupe applies to the event at all (a Cursor tool event with a
/// sibling, with session and turn ids).
pub fn applies(event: &Event) -> bool {
    key(event, "").is_some()
}

/// The marker key of a Cursor tool event that has a sibling, or `None`.
fn key(event: &Event, identity: &str) -> Option<String> {
    if event.provider != Provider::Cursor {
        return None;
    }
    let stage = match event.kind {
        Kind::ToolPre => "pre",
        Kind::ToolPost | Kind::ToolError => "post",
        _ => return None,
    };
    let tool = event.tool.as_ref()?;
    // Only classes with a specific sibling event: shell (pre and post),
    // MCP (pre and post), file reads (pre only).
    match (stage, tool.canonical) {
        ("pre" | "post", Canonical::Shell | Canonical::Mcp) | ("pre", Canonical::FileRead) => {}
        _ => return None,
    }
    let s = &event.session;
    if s.id.is_empty() || s.turn_id.is_empty() {
        return None;
    }
    Some(
        [
            "v2",
            identity,
            s.id.as_str(),
            s.turn_id.as_str(),
            stage,
            tool.canonical.as_str(),
            facet(tool).as_str(),
        ]
        .join("|"),
    )
}

/// The stable facet, without the MCP server (the generic echo lacks it).
fn facet(tool: &ToolCall) -> String {
    if tool.canonical == Canonical::Mcp {
        let name = tool.mcp.as_ref().map(|m| m.tool.as_str()).unwrap_or("");
        return format!("{name}|{}", sorted_json(&Value::Object(tool.input.clone())));
    }
    tool.stable_facet()
}

/// The generic MCP echo never claims.
fn is_mcp_echo(event: &Event) -> bool {
    cursor::is_generic_tool_event(&event.native_name)
        && event
            .tool
            .as_ref()
            .is_some_and(|t| t.canonical == Canonical::Mcp)
}

/// The agent-given tool-call id (not a synthesized one), or `""`.
fn real_id(event: &Event) -> &str {
    match &event.tool {
        Some(t) if !t.synthesized => t.id.as_str(),
        _ => "",
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn try_claim(dir: &StateDir, event: &Event, key: &str) -> Result<Claim, Error> {
    let name = hex(&Sha256::digest(key.as_bytes())[..16]);
    let me = Marker {
        native: event.native_name.clone(),
        id: real_id(event).to_string(),
    };
    if is_mcp_echo(event) {
        return Ok(match read_fresh(dir, &name)? {
            Some(m) if m.suppresses(&me) => Claim::Duplicate,
            _ => Claim::First,
        });
    }
    // Two rounds: a stale marker is removed once, then the create retried.
    for _ in 0..2 {
        if dir.create_new(&name, me.encode().as_bytes())? {
            dir.sweep_older_than(TTL);
            return Ok(Claim::First);
        }
        match read_fresh(dir, &name)? {
            Some(m) => {
                return Ok(if m.suppresses(&me) {
                    Claim::Duplicate
                } else {
                    Claim::First
                });
            }
            // Stale (or vanished): remove and try again.
            None => dir.remove(&name)?,
        }
    }
    Ok(Claim::First)
}

/// Who claimed a call.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Marker {
    native: String,
    id: String,
}

impl Marker {
    fn encode(&self) -> String {
        // The id may contain a newline: JSON-escape both parts.
        serde_json::to_string(&[&self.native, &self.id]).unwrap_or_default()
    }

    fn decode(text: &str) -> Option<Marker> {
        let [native, id]: [String; 2] = serde_json::from_str(text).ok()?;
        Some(Marker { native, id })
    }

    /// Whether this (claiming) marker makes `other` a duplicate.
    fn suppresses(&self, other: &Marker) -> bool {
        if self.native != other.native {
            return true;
        }
        !self.id.is_empty() && self.id == other.id
    }
}

/// The marker `name` if it exists and is younger than [`TTL`]. A marker
/// whose content is not yet written (its creator is between create and
/// write) is read again briefly; if it stays empty it counts as a claim by
/// an unknown sibling. Anything but a regular file of ours is an error.
fn read_fresh(dir: &StateDir, name: &str) -> Result<Option<Marker>, Error> {
    for attempt in 0..50 {
        let Some((bytes, mtime)) = dir.read_with_mtime(name, MARKER_MAX)? else {
            return Ok(None);
        };
        let age = SystemTime::now().duration_since(mtime).unwrap_or_default();
        if age > TTL {
            return Ok(None);
        }
        if let Some(m) = std::str::from_utf8(&bytes).ok().and_then(Marker::decode) {
            return Ok(Some(m));
        }
        if attempt < 49 {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    Ok(Some(Marker {
        native: String::new(),
        id: String::new(),
    }))
}

/// Largest marker read back (a native name and a tool-call id).
const MARKER_MAX: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{self, DecodeOptions};
    use std::fs;
    use std::path::PathBuf;

    fn ev(payload: &str) -> Event {
        dialect::decode(
            Provider::Cursor,
            payload.as_bytes(),
            &DecodeOptions::default(),
        )
        .unwrap()
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "ah-dedupe-{name}-{}-{:?}",
            std::process::id(),
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        let _ = fs::remove_dir_all(&d);
        d.join("dedupe")
    }

    const PRE: &str = r#"{"hook_event_name":"preToolUse","conversation_id":"c1","generation_id":"g1","tool_name":"Shell","tool_input":{"command":"cargo test","cwd":"/w"},"tool_use_id":"call_1\nctc_1"}"#;
    const PRE2: &str = r#"{"hook_event_name":"preToolUse","conversation_id":"c1","generation_id":"g1","tool_name":"Shell","tool_input":{"command":"cargo test","cwd":"/w"},"tool_use_id":"call_2\nctc_2"}"#;
    const SHELL: &str = r#"{"hook_event_name":"beforeShellExecution","conversation_id":"c1","generation_id":"g1","command":"cargo test","cwd":"/w"}"#;

    #[test]
    fn generic_then_specific() {
        let d = tmp("pair");
        assert_eq!(claim_in(&d, &ev(PRE)), Claim::First);
        assert_eq!(claim_in(&d, &ev(SHELL)), Claim::Duplicate);
        // The same process fired twice (same real id): duplicate.
        assert_eq!(claim_in(&d, &ev(PRE)), Claim::Duplicate);
        // A second identical command in the same turn: its generic event
        // has another id and is handled; its specific sibling is not.
        assert_eq!(claim_in(&d, &ev(PRE2)), Claim::First);
        assert_eq!(claim_in(&d, &ev(SHELL)), Claim::Duplicate);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&d).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn specific_only_repeats_are_never_suppressed() {
        let d = tmp("specific");
        assert_eq!(claim_in(&d, &ev(SHELL)), Claim::First);
        assert_eq!(claim_in(&d, &ev(SHELL)), Claim::First);
        assert_eq!(claim_in(&d, &ev(PRE)), Claim::Duplicate);
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn keys_separate_stage_turn_and_facet() {
        let d = tmp("keys");
        assert_eq!(claim_in(&d, &ev(PRE)), Claim::First);
        let post = r#"{"hook_event_name":"afterShellExecution","conversation_id":"c1","generation_id":"g1","command":"cargo test","output":"ok"}"#;
        assert_eq!(claim_in(&d, &ev(post)), Claim::First);
        let other_turn = SHELL.replace("\"g1\"", "\"g2\"");
        assert_eq!(claim_in(&d, &ev(&other_turn)), Claim::First);
        let other_cmd = SHELL.replace("cargo test", "cargo build");
        assert_eq!(claim_in(&d, &ev(&other_cmd)), Claim::First);
        let fail = r#"{"hook_event_name":"postToolUseFailure","conversation_id":"c1","generation_id":"g1","tool_name":"Shell","tool_input":{"command":"cargo test"},"tool_use_id":"t","error_message":"exit 1"}"#;
        assert_eq!(claim_in(&d, &ev(fail)), Claim::Duplicate);
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn reads_pair_on_the_path() {
        let d = tmp("read");
        let generic = r#"{"hook_event_name":"preToolUse","conversation_id":"c","generation_id":"g","tool_name":"Read","tool_input":{"path":"/w/.env"},"tool_use_id":"r1"}"#;
        let specific = r#"{"hook_event_name":"beforeReadFile","conversation_id":"c","generation_id":"g","file_path":"/w/.env","content":"K=V"}"#;
        assert_eq!(claim_in(&d, &ev(generic)), Claim::First);
        assert_eq!(claim_in(&d, &ev(specific)), Claim::Duplicate);
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn mcp_echo_never_claims() {
        let d = tmp("mcp");
        let echo = r#"{"hook_event_name":"preToolUse","conversation_id":"c","generation_id":"g","tool_name":"MCP:delete_table","tool_input":{"table":"invoices","cascade":true},"tool_use_id":"m1"}"#;
        let specific = r#"{"hook_event_name":"beforeMCPExecution","conversation_id":"c","generation_id":"g","tool_name":"MCP:delete_table","tool_input":"{\"table\":\"invoices\",\"cascade\":true}","command":"npx -y @acme/db-mcp"}"#;
        // The echo first: handled, no marker, so the specific is handled too.
        assert_eq!(claim_in(&d, &ev(echo)), Claim::First);
        assert_eq!(claim_in(&d, &ev(specific)), Claim::First);
        // The echo after the specific claimed: suppressed.
        assert_eq!(claim_in(&d, &ev(echo)), Claim::Duplicate);
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn not_applicable() {
        let d = tmp("na");
        for p in [
            r#"{"hook_event_name":"stop","conversation_id":"c","generation_id":"g","loop_count":0}"#,
            r#"{"hook_event_name":"preToolUse","conversation_id":"c","generation_id":"g","tool_name":"Write","tool_input":{"path":"/a"},"tool_use_id":"w"}"#,
            r#"{"hook_event_name":"postToolUse","conversation_id":"c","generation_id":"g","tool_name":"Read","tool_input":{"path":"/a"},"tool_use_id":"w"}"#,
            r#"{"hook_event_name":"beforeShellExecution","command":"ls"}"#,
        ] {
            assert_eq!(claim_in(&d, &ev(p)), Claim::NotApplicable, "{p}");
        }
        let claude = dialect::decode(
            Provider::ClaudeCode,
            br#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#,
            &DecodeOptions::default(),
        )
        .unwrap();
        assert_eq!(claim_in(&d, &claude), Claim::NotApplicable);
        assert!(!d.exists());
    }

    #[test]
    fn stale_markers_expire_and_are_swept() {
        let d = tmp("stale");
        assert_eq!(claim_in(&d, &ev(PRE)), Claim::First);
        let old = SystemTime::now() - TTL - Duration::from_secs(5);
        let marker = fs::read_dir(&d).unwrap().next().unwrap().unwrap().path();
        fs::File::options()
            .write(true)
            .open(&marker)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let junk = d.join("junk");
        fs::write(&junk, "x").unwrap();
        fs::File::options()
            .write(true)
            .open(&junk)
            .unwrap()
            .set_modified(old)
            .unwrap();
        // The stale marker no longer suppresses; the sweep removes junk.
        assert_eq!(claim_in(&d, &ev(SHELL)), Claim::First);
        assert!(!junk.exists());
        assert_eq!(claim_in(&d, &ev(PRE)), Claim::Duplicate);
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn filesystem_errors_mean_not_a_duplicate() {
        let d = tmp("err");
        fs::create_dir_all(d.parent().unwrap()).unwrap();
        // A file where the directory should be.
        fs::write(&d, "not a dir").unwrap();
        assert_eq!(claim_in(&d, &ev(PRE)), Claim::First);
        assert_eq!(claim_in(&d, &ev(SHELL)), Claim::First);
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn suppressed_sibling_answers_the_noop() {
        let r = suppressed_response(&ev(SHELL));
        assert_eq!(r.stdout, "{}");
        assert_eq!(r.exit_code, 0);
        assert_eq!(r.notes[0].code, "deduplicated");
    }

    #[test]
    fn marker_round_trips_ids_with_newlines() {
        let m = Marker {
            native: "preToolUse".into(),
            id: "call_1\nctc_1".into(),
        };
        assert_eq!(Marker::decode(&m.encode()), Some(m));
        assert_eq!(Marker::decode(""), None);
    }
}
