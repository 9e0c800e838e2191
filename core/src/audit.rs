//! The opt-in invocation log ("did my hook fire?").
//!
//! Off by default. Turned on per process by `AGENTHOOKS_LOG` (`1`/`on`:
//! one line per invocation; `payloads`: the payload too, secrets
//! redacted; `0`/`off`: off, even when the command line says otherwise)
//! or by the `--log` / `--log=payloads` option that `agenthooks install
//! --log` (or the manifest's `log = true`) writes into each hook command.
//! Both are decided without any I/O: when logging is off a hook pays one
//! environment lookup and nothing else.
//!
//! When on, every invocation that reaches an answer — through
//! [`crate::runtime::Invocation::complete`], which every language's run
//! ends in, or an answer [`crate::runtime::start`] gives before any
//! handler runs (an unusable argument, an unknown agent, bad input) —
//! appends one JSON line ([`Entry`]) to `log/invocations.jsonl` in the
//! private state root ([`crate::state`]: no symlink followed, files 0600,
//! directories 0700). One `write` per line on an `O_APPEND` descriptor:
//! concurrent hooks never interleave. The file rotates at
//! [`MAX_FILE_BYTES`] keeping [`KEEP`] older generations, so the log never
//! holds more than about `(KEEP + 1) * MAX_FILE_BYTES`.
//!
//! Never written: environment values, the payload or tool input (unless
//! `payloads` was asked for; then keys that name secrets and values that
//! look like credentials are replaced by `[redacted]`), decision reasons.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Error;
use crate::model::{Event, Response};
use crate::state::StateDir;

/// The environment switch.
pub const LOG_ENV: &str = "AGENTHOOKS_LOG";
/// Subdirectory of the state root.
pub const SUBDIR: &str = "log";
/// The current log file; rotated generations are `invocations.jsonl.1` ...
pub const FILE: &str = "invocations.jsonl";
/// A file rotates before it would grow past this.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Rotated generations kept.
pub const KEEP: u32 = 3;
/// The longest line written: a payload that would make a line longer is
/// left out (`payload_omitted`).
pub const MAX_LINE: usize = 16 * 1024;
/// Format version of a line (`v`).
pub const VERSION: u32 = 1;
/// The longest event name, hook id or version kept (characters).
pub const MAX_FIELD: usize = 128;

/// `s`, clipped to [`MAX_FIELD`] characters.
pub fn clip(s: &str) -> String {
    match s.char_indices().nth(MAX_FIELD) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// Whether (and how much) this invocation is logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogMode {
    /// Nothing is written (the default).
    #[default]
    Off,
    /// One line per invocation, no payload.
    On,
    /// One line per invocation with the payload, secrets redacted.
    Payloads,
}

impl LogMode {
    /// Parses a switch value: empty, `0`, `off`, `false`, `no` are off;
    /// `payloads` is [`LogMode::Payloads`]; anything else is on.
    pub fn parse(v: &str) -> LogMode {
        match v.trim().to_ascii_lowercase().as_str() {
            "" | "0" | "off" | "false" | "no" => LogMode::Off,
            "payloads" | "payload" => LogMode::Payloads,
            _ => LogMode::On,
        }
    }

    /// The mode from the environment value (when set) and the command
    /// line's `--log` (when given): a set `AGENTHOOKS_LOG` wins (`0`
    /// silences a `--log` written into the config), else `--log`, else off.
    pub fn resolve(env: Option<&str>, argv: Option<LogMode>) -> LogMode {
        match env {
            Some(v) if !v.trim().is_empty() => LogMode::parse(v),
            _ => argv.unwrap_or(LogMode::Off),
        }
    }

    /// [`LogMode::resolve`] with this process's `AGENTHOOKS_LOG`.
    pub fn current(argv: Option<LogMode>) -> LogMode {
        let env = std::env::var_os(LOG_ENV);
        LogMode::resolve(env.as_ref().and_then(|v| v.to_str()), argv)
    }

    /// Whether anything is written.
    pub fn is_on(self) -> bool {
        self != LogMode::Off
    }
}

/// One line of the log (format version [`VERSION`]; the keys are a
/// contract, documented in `docs/liveness.md` and pinned by
/// `core/tests/audit_log.rs`). Strings taken from the payload or argv are
/// clipped to [`MAX_FIELD`] characters, so a line stays short.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Entry {
    /// Format version.
    #[serde(default)]
    pub v: u32,
    /// When the answer was ready: RFC 3339, UTC, microseconds.
    #[serde(default)]
    pub ts: String,
    /// Agent id (`claude-code`, ...); empty when the agent was unknown.
    #[serde(default)]
    pub agent: String,
    /// Agent version, when the payload tells (`cursor_version`, `version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_version: Option<String>,
    /// Native event name; empty when the payload could not be decoded.
    #[serde(default)]
    pub event: String,
    /// Unified kind (`tool.pre`, ...); empty when not decoded.
    #[serde(default)]
    pub kind: String,
    /// `--hook-id` (install writes `<manifest id>:<hook id>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_id: Option<String>,
    /// The handlers' decision kind (`deny`, `no_decision`, ...), or
    /// `error` when an error, panic or timeout replaced it (see `error`),
    /// or `none` when the run ended before any handler.
    #[serde(default)]
    pub decision: String,
    /// Codes of the answer's notes (degradations, fail policy, ...).
    #[serde(default)]
    pub notes: Vec<String>,
    /// Microseconds from decoding to the answer (handlers included).
    #[serde(default)]
    pub latency_us: u64,
    /// Error code, when one decided the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The hook process's exit code.
    #[serde(default)]
    pub exit: i32,
    /// The detached child of an `--async` hook (its answer reached no one).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub detached: bool,
    /// The payload (`payloads` mode only), secrets redacted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// Why the payload was left out in `payloads` mode (`too_large`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload_omitted: Option<String>,
}

impl Entry {
    /// The line for an invocation with a decoded event.
    pub fn for_event(ev: &Event, hook_id: Option<&str>) -> Entry {
        Entry {
            v: VERSION,
            agent: ev.provider.id().to_string(),
            agent_version: agent_version(ev),
            event: clip(&ev.native_name),
            kind: ev.kind.as_str().to_string(),
            hook_id: hook_id.map(clip),
            ..Entry::default()
        }
    }

    /// Fills the answer's side: exit code, note codes, the error code
    /// (the argument, else the fail-policy note's), time and latency.
    pub fn answered(mut self, r: &Response, error: Option<String>, latency: Duration) -> Entry {
        self.exit = r.exit_code;
        self.notes = r.notes.iter().map(|n| n.code.clone()).collect();
        self.error = error.or_else(|| {
            r.notes
                .iter()
                .find(|n| n.code == "fail_open" || n.code == "fail_closed")
                .and_then(|n| n.from.clone())
        });
        self.latency_us = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        self.ts = rfc3339(SystemTime::now());
        self
    }

    /// Adds the payload (redacted) when it fits in a line.
    pub fn with_payload(mut self, raw: &Value) -> Entry {
        let mut v = raw.clone();
        redact(&mut v);
        self.payload = Some(v);
        self
    }

    /// The line as written (JSON and a newline); a payload that would make
    /// it longer than [`MAX_LINE`] is left out.
    pub fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).unwrap_or_default();
        if line.len() >= MAX_LINE && self.payload.is_some() {
            let mut e = self.clone();
            e.payload = None;
            e.payload_omitted = Some("too_large".into());
            line = serde_json::to_string(&e).unwrap_or_default();
        }
        line.push('\n');
        line
    }
}

/// The agent's version, where the payload carries it.
fn agent_version(ev: &Event) -> Option<String> {
    let v = crate::dialect::parse_object(&ev.raw, ev.raw.len()).ok()?;
    [
        "cursor_version",
        "agent_version",
        "client_version",
        "version",
    ]
    .iter()
    .find_map(|k| v.get(*k).and_then(Value::as_str))
    .filter(|s| !s.is_empty())
    .map(clip)
}

/// Opens the log directory under `state_dir` (else the user's state root).
pub fn dir(state_dir: Option<&Path>) -> Result<StateDir, Error> {
    match state_dir {
        Some(d) => crate::state::root_at(d),
        None => crate::state::root(),
    }?
    .subdir(SUBDIR)
}

/// Appends one entry (one `write`, rotating when due).
pub fn append(dir: &StateDir, e: &Entry) -> Result<(), Error> {
    dir.append_rotating(FILE, e.to_line().as_bytes(), MAX_FILE_BYTES, KEEP)
}

/// Reads every generation, oldest first; lines that do not parse (a
/// newer format, a torn tail) are skipped.
pub fn read_all(dir: &StateDir) -> Result<Vec<Entry>, Error> {
    let mut names: Vec<String> = (1..=KEEP).rev().map(|i| format!("{FILE}.{i}")).collect();
    names.push(FILE.to_string());
    // A file may pass the bound by the lines of writers that raced the
    // rotation; allow generous slack.
    let limit = usize::try_from(MAX_FILE_BYTES)
        .unwrap_or(usize::MAX)
        .saturating_mul(4);
    let mut out = Vec::new();
    for n in names {
        let bytes = match dir.read(&n, limit) {
            Ok(Some(b)) => b,
            Ok(None) => continue,
            // Not ours to read whole (it grew past any bound we write):
            // the other generations still tell.
            Err(Error::TooLarge { .. }) => continue,
            Err(e) => return Err(e),
        };
        for line in bytes.split(|b| *b == b'\n') {
            if let Ok(e) = serde_json::from_slice::<Entry>(line) {
                out.push(e);
            }
        }
    }
    Ok(out)
}

/// Whether a JSON key names a secret.
fn secret_key(k: &str) -> bool {
    let k = k.to_ascii_lowercase().replace(['-', '_'], "");
    [
        "token",
        "secret",
        "password",
        "passwd",
        "apikey",
        "authorization",
        "cookie",
        "credential",
        "privatekey",
        "accesskey",
    ]
    .iter()
    .any(|s| k.contains(s))
}

/// Credential-looking substrings, found without a regex engine: the
/// hook process is the one place size is speed, and linking `regex` for
/// this list doubled every hook binary's code (1.8 → 3.4 MB of text,
/// +0.12 ms of every hook process's start). The rules, case-insensitive,
/// leftmost first (the test module holds them equal to the regex they
/// replace on generated text):
///
/// - `-----BEGIN … PRIVATE KEY-----` up to its `-----END … PRIVATE KEY-----`
///   or the end of the text;
/// - at a word start: `sk-` + 16 or more of `[A-Za-z0-9_-]`;
///   `gh[pousr]_` + 20 or more alphanumerics; `github_pat_` + 20 or more of
///   `[A-Za-z0-9_]`; `AKIA` + exactly 16 alphanumerics then a word end;
///   `xox[abprs]-` + 10 or more of `[A-Za-z0-9-]`; `bearer` + white space +
///   8 or more of `[A-Za-z0-9._~+/=-]`;
/// - at a word start, a run of `[A-Za-z_]` ending in `token`, `secret`,
///   `password`, `passwd`, `apikey` or `api_key`, then optional white
///   space, `=` or `:`, optional white space and the value (up to white
///   space, `&`, `;`, `'` or `"`).
fn secret_at(s: &str, i: usize) -> Option<usize> {
    let b = s.as_bytes();
    if let Some(end) = private_key_at(s, i) {
        return Some(end);
    }
    if !word_start(s, i) {
        return None;
    }
    let run = |from: usize, ok: fn(u8) -> bool| {
        from + b
            .get(from..)
            .map_or(0, |r| r.iter().take_while(|c| ok(**c)).count())
    };
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let at_least = |from: usize, ok: fn(u8) -> bool, n: usize| {
        let end = run(from, ok);
        (end - from >= n).then_some(end)
    };
    if starts_ci(b, i, b"sk-") {
        if let Some(e) = at_least(
            i + 3,
            |c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-',
            16,
        ) {
            return Some(e);
        }
    }
    if starts_ci(b, i, b"gh")
        && b.get(i + 2)
            .is_some_and(|c| b"pousr".contains(&c.to_ascii_lowercase()))
        && b.get(i + 3) == Some(&b'_')
    {
        if let Some(e) = at_least(i + 4, alnum, 20) {
            return Some(e);
        }
    }
    if starts_ci(b, i, b"github_pat_") {
        if let Some(e) = at_least(i + 11, |c| c.is_ascii_alphanumeric() || c == b'_', 20) {
            return Some(e);
        }
    }
    if starts_ci(b, i, b"akia") && run(i + 4, alnum) >= i + 20 && !word_char_at(s, i + 20) {
        return Some(i + 20);
    }
    if starts_ci(b, i, b"xox")
        && b.get(i + 3)
            .is_some_and(|c| b"abprs".contains(&c.to_ascii_lowercase()))
        && b.get(i + 4) == Some(&b'-')
    {
        if let Some(e) = at_least(i + 5, |c| c.is_ascii_alphanumeric() || c == b'-', 10) {
            return Some(e);
        }
    }
    if starts_ci(b, i, b"bearer") {
        let ws = skip_space(s, i + 6);
        if ws > i + 6 {
            let tok = |c: u8| c.is_ascii_alphanumeric() || b"._~+/=-".contains(&c);
            if let Some(e) = at_least(ws, tok, 8) {
                return Some(e);
            }
        }
    }
    // name[=:]value
    let name_end = run(i, |c| c.is_ascii_alphabetic() || c == b'_');
    let name = b.get(i..name_end)?.to_ascii_lowercase();
    let named = [
        &b"token"[..],
        b"secret",
        b"password",
        b"passwd",
        b"apikey",
        b"api_key",
    ]
    .iter()
    .any(|k| name.ends_with(k));
    if !named {
        return None;
    }
    let j = skip_space(s, name_end);
    if !matches!(b.get(j), Some(b'=' | b':')) {
        return None;
    }
    let v = skip_space(s, j + 1);
    let end = s
        .get(v..)?
        .char_indices()
        .find(|(_, c)| c.is_whitespace() || matches!(c, '&' | ';' | '\'' | '"'))
        .map_or(s.len(), |(k, _)| v + k);
    (end > v).then_some(end)
}

/// `-----BEGIN [A-Z ]*PRIVATE KEY-----` at `i`, through the first
/// `-----END [A-Z ]*PRIVATE KEY-----` (or the end of the text).
fn private_key_at(s: &str, i: usize) -> Option<usize> {
    let armor = |at: usize, word: &[u8]| -> Option<usize> {
        let b = s.as_bytes();
        if !(starts_ci(b, at, b"-----") && starts_ci(b, at + 5, word)) {
            return None;
        }
        let from = at + 5 + word.len();
        let end = from
            + b.get(from..)?
                .iter()
                .take_while(|c| c.is_ascii_alphabetic() || **c == b' ')
                .count();
        let label = b.get(from..end)?.to_ascii_lowercase();
        (label.ends_with(b"private key") && starts_ci(b, end, b"-----")).then_some(end + 5)
    };
    let start_end = armor(i, b"begin ")?;
    let mut k = start_end;
    while k < s.len() {
        if let Some(e) = armor(k, b"end ") {
            return Some(e);
        }
        k += 1;
    }
    Some(s.len())
}

fn starts_ci(b: &[u8], at: usize, lit: &[u8]) -> bool {
    b.get(at..at.saturating_add(lit.len()))
        .is_some_and(|w| w.eq_ignore_ascii_case(lit))
}

/// A word character (`\w`, Unicode) ends just before `i`... or starts at it.
fn word_char_at(s: &str, i: usize) -> bool {
    s.get(i..)
        .and_then(|r| r.chars().next())
        .is_some_and(is_word)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `\b` at `i` before a word character: `i` starts a word.
fn word_start(s: &str, i: usize) -> bool {
    word_char_at(s, i)
        && !s
            .get(..i)
            .and_then(|r| r.chars().next_back())
            .is_some_and(is_word)
}

fn skip_space(s: &str, from: usize) -> usize {
    s.get(from..).map_or(from, |r| {
        from + r
            .char_indices()
            .find(|(_, c)| !c.is_whitespace())
            .map_or(r.len(), |(k, _)| k)
    })
}

/// `s` with every credential-looking substring replaced by `[redacted]`,
/// or `None` when it has none.
fn redact_text(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i < s.len() {
        match secret_at(s, i) {
            Some(end) if end > i => {
                out.push_str(&s[copied..i]);
                out.push_str("[redacted]");
                copied = end;
                i = end;
            }
            _ => i += s[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&s[copied..]);
    Some(out)
}

/// Replaces secrets in a payload in place: the string (or any) value of a
/// key that names one, and credential-looking substrings of every string.
pub fn redact(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, val) in map.iter_mut() {
                if secret_key(k) && !matches!(val, Value::Number(_) | Value::Bool(_) | Value::Null)
                {
                    *val = Value::String("[redacted]".into());
                } else {
                    redact(val);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(redact),
        Value::String(s) => {
            if let Some(r) = redact_text(s) {
                *s = r;
            }
        }
        _ => {}
    }
}

/// RFC 3339 in UTC with microseconds (`2026-01-02T03:04:05.000006Z`).
pub fn rfc3339(t: SystemTime) -> String {
    let d = t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60,
        d.subsec_micros()
    )
}

/// Parses what [`rfc3339`] writes (for `doctor`'s "last fired" ages).
pub fn parse_rfc3339(s: &str) -> Option<SystemTime> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let y2 = if mo <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2.rem_euclid(400);
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days
        .checked_mul(86_400)?
        .checked_add(h * 3600 + mi * 60 + se)?;
    let micros = s
        .get(20..)
        .and_then(|f| f.strip_suffix('Z'))
        .and_then(|f| f.parse::<u32>().ok())
        .unwrap_or(0);
    let secs = u64::try_from(secs).ok()?;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_micros(micros.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_values() {
        assert_eq!(LogMode::resolve(None, None), LogMode::Off);
        assert_eq!(LogMode::resolve(Some(""), Some(LogMode::On)), LogMode::On);
        assert_eq!(LogMode::resolve(Some("0"), Some(LogMode::On)), LogMode::Off);
        assert_eq!(LogMode::resolve(Some("1"), None), LogMode::On);
        assert_eq!(LogMode::resolve(Some("payloads"), None), LogMode::Payloads);
        assert_eq!(
            LogMode::resolve(None, Some(LogMode::Payloads)),
            LogMode::Payloads
        );
        assert_eq!(LogMode::parse("OFF"), LogMode::Off);
    }

    #[test]
    fn long_fields_are_clipped() {
        let long = "é".repeat(1000);
        assert_eq!(clip(&long).chars().count(), MAX_FIELD);
        assert_eq!(clip("PreToolUse"), "PreToolUse");
    }

    #[test]
    fn time_round_trips() {
        for secs in [0u64, 951_782_400, 1_767_225_600, 4_102_444_799] {
            let t = SystemTime::UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_micros(7);
            let s = rfc3339(t);
            assert_eq!(parse_rfc3339(&s), Some(t), "{s}");
        }
        assert_eq!(
            rfc3339(SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00.000000Z"
        );
        assert_eq!(parse_rfc3339("yesterday"), None);
    }

    /// The rules `redact_text` implements, as the regex they replaced.
    fn reference() -> &'static regex::Regex {
        static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        RE.get_or_init(|| {
            regex::Regex::new(concat!(
            r"(?i)(?:",
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
            r"|\bsk-[A-Za-z0-9_\-]{16,}",
            r"|\bgh[pousr]_[A-Za-z0-9]{20,}",
            r"|\bgithub_pat_[A-Za-z0-9_]{20,}",
            r"|\bAKIA[0-9A-Z]{16}\b",
            r"|\bxox[abprs]-[A-Za-z0-9\-]{10,}",
            r"|\bbearer\s+[A-Za-z0-9._~+/=\-]{8,}",
            r"|\b(?:[A-Za-z_]*(?:token|secret|password|passwd|api_?key))\s*[=:]\s*[^\s&;'\x22]+",
            r")"
        ))
        .unwrap()
        })
    }

    fn by_reference(re: &regex::Regex, s: &str) -> Option<String> {
        re.is_match(s)
            .then(|| re.replace_all(s, "[redacted]").into_owned())
    }

    /// Pieces that make the rules fire, almost fire and stop.
    fn pieces() -> Vec<&'static str> {
        vec![
            "sk-",
            "SK-",
            "ghp_",
            "gho_",
            "GHS_",
            "ghx_",
            "github_pat_",
            "AKIA",
            "akia",
            "xoxb-",
            "xoxz-",
            "bearer",
            "Bearer ",
            "token",
            "api_key",
            "APIKEY",
            "passwd",
            "my_secret",
            "-----BEGIN RSA PRIVATE KEY-----",
            "-----begin private key-----",
            "-----END RSA PRIVATE KEY-----",
            "-----END PUBLIC KEY-----",
            "=",
            ":",
            " ",
            "\t",
            "\u{a0}",
            "&",
            ";",
            "'",
            "\"",
            "é",
            "9",
            "_",
            "-",
            ".",
            "/",
            "abcdefgh",
            "ABCDEFGHIJKLMNOP",
            "0123456789",
            "x",
            "\n",
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        #[test]
        fn redact_text_matches_the_regex_it_replaced(
            parts in proptest::collection::vec(proptest::sample::select(pieces()), 0..24)
        ) {
            let s: String = parts.concat();
            proptest::prop_assert_eq!(redact_text(&s), by_reference(reference(), &s), "{:?}", s);
        }
    }

    #[test]
    fn redact_text_on_known_shapes() {
        let re = reference();
        for s in [
            "sk-ABCDEFGHIJKLMNOPQRSTUV",
            "xsk-ABCDEFGHIJKLMNOPQRSTUV",
            "ghp_aaaaaaaaaaaaaaaaaaaaaaaa and gho_bbbbbbbbbbbbbbbbbbbbbbbbbb",
            "AKIAABCDEFGHIJKLMNOP",
            "AKIAABCDEFGHIJKLMNOPQ",
            "AKIAABCDEFGHIJKLMNOP_",
            "key=AKIAABCDEFGHIJKLMNOP.",
            "Authorization: Bearer abcdefgh12345678",
            "bearer\u{a0}\u{2003}abc.def~ghi/j=",
            "GITHUB_TOKEN=abc&x=1",
            "password : hunter2;",
            "api_key=",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY----- after",
            "-----BEGIN PRIVATE KEY-----\nunterminated",
            "-----BEGIN  PRIVATE KEYS-----",
            "token=é€漢字 next",
            "xoxp-1234567890-abc",
            "github_pat_11AAAAAAAAAAAAAAAAAAAAAAAAAA",
            "no secrets here",
        ] {
            assert_eq!(redact_text(s), by_reference(re, s), "{s:?}");
        }
    }

    #[test]
    fn redaction() {
        let mut v = serde_json::json!({
            "tool_input": {
                "command": "curl -H 'Authorization: Bearer abcdefgh12345678' https://x?api_key=SEKRET1",
                "env": {"GITHUB_TOKEN": "ghp_aaaaaaaaaaaaaaaaaaaaaaaa"},
                "note": "key sk-ABCDEFGHIJKLMNOPQRSTUV end",
                "input_tokens": 12
            },
            "password": ["x"]
        });
        redact(&mut v);
        let s = v.to_string();
        for secret in [
            "abcdefgh12345678",
            "SEKRET1",
            "ghp_aaaa",
            "sk-ABCDEF",
            "\"x\"",
        ] {
            assert!(!s.contains(secret), "{secret} leaked: {s}");
        }
        assert!(s.contains("curl"), "{s}");
        assert!(s.contains("\"input_tokens\":12"), "{s}");
    }
}
