//! Hook matchers in each agent's own flavour (exact fast path, ECMAScript
//! regex for Claude Code, Rust `regex` for Codex).
//!
//! Classification of a `matcher` string (protocol docs, Claude Code §1.7,
//! Codex §1.6):
//!
//! | pattern | Claude Code | Codex |
//! |---|---|---|
//! | absent, `""`, `"*"` | match all | match all |
//! | only exact-set characters | exact, alternatives split on `\|` or `,`, each trimmed | exact, split on `\|` |
//! | anything else | ECMAScript regex, unanchored `test` (`regress`) | Rust `regex`, unanchored `is_match` |
//!
//! Exact sets: Claude Code ASCII letters, digits, `_`, `-`, space, `,`, `|`
//! (FileChanged and StopFailure: letters, digits, `_`, `|`, split on `|`
//! only); Codex ASCII letters, digits, `_`, `|`. An empty alternative (as in
//! `Bash|`) matches only an empty subject. Matching is case-sensitive.
//!
//! Non-literal patterns are compiled once per process by an [`Interner`]
//! bounded at [`INTERNER_CAPACITY`] distinct patterns: past the bound a new
//! pattern is rejected (`matcher_capacity`) while known ones keep working.
//! Invalid patterns never consume capacity.
//!
//! # Backtracking policy (ECMAScript mode)
//!
//! `regress` is a backtracking engine, so every Claude pattern gets a work
//! estimate when it is compiled:
//!
//! 1. A repetition with a variable count (`*`, `+`, `{n,}`, `{n,m}`) whose
//!    body can match in more than one way (nested quantifiers `(a+)+`,
//!    alternation `(a|b)*`, optional parts `(ab?)+`) can backtrack
//!    exponentially and is rejected with `regex_too_complex`.
//! 2. Otherwise, with `k` variable repetitions in sequence, a failing search
//!    costs about `n^(k+1) / (k+1)! · c` steps on a subject of `n` bytes (`c`
//!    counts alternatives and optional parts). The pattern's subject bound is
//!    the largest `n` keeping that under [`ECMA_STEP_BUDGET`], capped at
//!    [`ECMA_MAX_SUBJECT_BYTES`]. **A subject longer than the bound never
//!    matches that pattern.** Patterns whose bound falls under
//!    [`ECMA_MIN_SUBJECT_BYTES`], or longer than [`MAX_PATTERN_BYTES`], are
//!    rejected with `regex_too_complex`. One estimated step costs 6–18 ns in
//!    a release build here, so an adversarial subject at the bound costs at
//!    most a few tens of milliseconds (`docs/benchmarks.md`, "Host matcher";
//!    debug builds are about 100 times slower).
//!
//! Matched subjects are tool names, sources, agent types and the like (well
//! under 256 bytes), so a plain `mcp__.*` keeps the full 1 KiB and
//! `mcp__.*__.*` about 230 bytes. Exact matchers and Codex (`regex`, linear
//! time) have no subject bound.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::host::{DiagCode, Diagnostic};
use crate::model::Provider;

mod backtrack;

/// Distinct non-literal patterns the process-wide interner holds.
pub const INTERNER_CAPACITY: usize = 128;
/// Upper bound on the subject length for ECMAScript patterns, in bytes.
pub const ECMA_MAX_SUBJECT_BYTES: usize = 1024;
/// A pattern whose computed subject bound is below this is rejected.
pub const ECMA_MIN_SUBJECT_BYTES: usize = 32;
/// Estimated backtracking steps allowed for one ECMAScript match.
pub const ECMA_STEP_BUDGET: f64 = 2e6;
/// Longest accepted non-literal pattern, in bytes.
pub const MAX_PATTERN_BYTES: usize = 1024;

/// The hook dialects a host can run (the agents whose hook configurations
/// the host understands).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// Claude Code `settings.json` / plugin `hooks/hooks.json`.
    ClaudeCode,
    /// Codex `hooks.json` / `[hooks]` tables.
    Codex,
}

impl Dialect {
    /// The provider id (`claude-code`, `codex`).
    pub fn id(self) -> &'static str {
        self.provider().id()
    }

    /// The provider this dialect belongs to.
    pub fn provider(self) -> Provider {
        match self {
            Dialect::ClaudeCode => Provider::ClaudeCode,
            Dialect::Codex => Provider::Codex,
        }
    }

    /// The dialect of a provider, if hosts can run its hooks.
    pub fn from_provider(p: Provider) -> Option<Dialect> {
        match p {
            Provider::ClaudeCode => Some(Dialect::ClaudeCode),
            Provider::Codex => Some(Dialect::Codex),
            _ => None,
        }
    }

    /// Parses a provider id or alias (`claude`, `claude-code`, `codex`).
    pub fn parse(s: &str) -> Result<Dialect, Error> {
        let p = Provider::parse(s)?;
        Dialect::from_provider(p).ok_or_else(|| Error::InvalidArgument {
            message: format!("hooks of {} cannot be hosted (claude-code, codex)", p.id()),
        })
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// Which characters make a pattern an exact (literal) matcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExactSet {
    /// Claude Code: letters, digits, `_`, `-`, space, `,`, `|`.
    Claude,
    /// Claude Code `FileChanged` / `StopFailure`: letters, digits, `_`, `|`.
    ClaudeNarrow,
    /// Codex: letters, digits, `_`, `|`.
    Codex,
}

impl ExactSet {
    /// The set a dialect uses for a native event.
    pub fn for_event(dialect: Dialect, event: &str) -> ExactSet {
        match dialect {
            Dialect::ClaudeCode if matches!(event, "FileChanged" | "StopFailure") => {
                ExactSet::ClaudeNarrow
            }
            Dialect::ClaudeCode => ExactSet::Claude,
            Dialect::Codex => ExactSet::Codex,
        }
    }

    fn admits(self, c: char) -> bool {
        let base = c.is_ascii_alphanumeric() || c == '_' || c == '|';
        match self {
            ExactSet::Claude => base || matches!(c, '-' | ' ' | ','),
            ExactSet::ClaudeNarrow | ExactSet::Codex => base,
        }
    }

    fn split(self, pattern: &str) -> Box<[String]> {
        match self {
            ExactSet::Claude => pattern
                .split(['|', ','])
                .map(|s| s.trim().to_string())
                .collect(),
            ExactSet::ClaudeNarrow | ExactSet::Codex => {
                pattern.split('|').map(str::to_string).collect()
            }
        }
    }
}

/// How a matcher is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatcherMode {
    /// Absent, `""` or `"*"`.
    All,
    /// A list of exact strings.
    Exact,
    /// A regular expression in the dialect's flavour.
    Regex,
}

/// A compiled non-literal pattern, shared through the interner.
#[derive(Debug)]
pub struct Compiled {
    engine: Engine,
    max_subject: usize,
}

#[derive(Debug)]
enum Engine {
    Rust(regex::Regex),
    Ecma(regress::Regex),
}

impl Compiled {
    /// Subjects longer than this many bytes never match (ECMAScript policy;
    /// `usize::MAX` for Rust regexes).
    pub fn max_subject(&self) -> usize {
        self.max_subject
    }

    fn is_match(&self, subject: &str) -> bool {
        if subject.len() > self.max_subject {
            return false;
        }
        match &self.engine {
            Engine::Rust(r) => r.is_match(subject),
            Engine::Ecma(r) => r.find(subject).is_some(),
        }
    }
}

#[derive(Debug, Clone)]
enum Kind {
    All,
    Exact(Box<[String]>),
    Regex(Arc<Compiled>),
}

/// One compiled hook matcher. Cheap to clone; `Send + Sync`.
#[derive(Debug, Clone)]
pub struct Matcher {
    dialect: Dialect,
    pattern: String,
    kind: Kind,
}

impl Matcher {
    /// Compiles a pattern with the dialect's default exact set, through the
    /// process-wide interner.
    pub fn compile(dialect: Dialect, pattern: &str) -> Result<Matcher, Diagnostic> {
        let set = ExactSet::for_event(dialect, "");
        Matcher::compile_in(Interner::global(), dialect, set, pattern)
    }

    /// Compiles a pattern for a native event (Claude's `FileChanged` and
    /// `StopFailure` use a narrower exact set).
    pub fn compile_for_event(
        dialect: Dialect,
        event: &str,
        pattern: &str,
    ) -> Result<Matcher, Diagnostic> {
        let set = ExactSet::for_event(dialect, event);
        Matcher::compile_in(Interner::global(), dialect, set, pattern)
    }

    /// Compiles through a given interner (tests, or callers that want a
    /// registry-lifetime interner instead of the process-wide one).
    pub fn compile_in(
        interner: &Interner,
        dialect: Dialect,
        set: ExactSet,
        pattern: &str,
    ) -> Result<Matcher, Diagnostic> {
        let kind = if pattern.is_empty() || pattern == "*" {
            Kind::All
        } else if pattern.chars().all(|c| set.admits(c)) {
            Kind::Exact(set.split(pattern))
        } else {
            Kind::Regex(interner.intern(dialect, "", pattern)?)
        };
        Ok(Matcher {
            dialect,
            pattern: pattern.to_string(),
            kind,
        })
    }

    /// Compiles an ECMAScript pattern with JavaScript flags (`i`, `m`, `s`,
    /// `u`, `v`; `d`, `g`, `y` are accepted and do not change a `test` from
    /// index 0). Unknown or repeated flags and `u` with `v` are
    /// `invalid_flags`, as `new RegExp` would throw. Always a regex, never the
    /// exact fast path.
    pub fn compile_ecma_with_flags(pattern: &str, flags: &str) -> Result<Matcher, Diagnostic> {
        Matcher::compile_ecma_with_flags_in(Interner::global(), pattern, flags)
    }

    /// [`Matcher::compile_ecma_with_flags`] through a given interner.
    pub fn compile_ecma_with_flags_in(
        interner: &Interner,
        pattern: &str,
        flags: &str,
    ) -> Result<Matcher, Diagnostic> {
        let d = Dialect::ClaudeCode;
        let mut seen = String::new();
        for c in flags.chars() {
            if !"dgimsuvy".contains(c) || seen.contains(c) {
                return Err(Diagnostic::new(
                    d,
                    DiagCode::InvalidFlags,
                    format!("invalid regular expression flags {flags:?}"),
                )
                .with_pattern(pattern));
            }
            seen.push(c);
        }
        if seen.contains('u') && seen.contains('v') {
            return Err(Diagnostic::new(
                d,
                DiagCode::InvalidFlags,
                "flags u and v cannot be combined",
            )
            .with_pattern(pattern));
        }
        let effective: String = seen.chars().filter(|c| "imsuv".contains(*c)).collect();
        let compiled = interner.intern(d, &effective, pattern)?;
        Ok(Matcher {
            dialect: d,
            pattern: pattern.to_string(),
            kind: Kind::Regex(compiled),
        })
    }

    /// Whether the subject matches.
    pub fn matches(&self, subject: &str) -> bool {
        match &self.kind {
            Kind::All => true,
            Kind::Exact(alts) => alts.iter().any(|a| a == subject),
            Kind::Regex(c) => c.is_match(subject),
        }
    }

    /// Whether the matcher selects an event whose subject may be absent
    /// (only match-all matchers select an event without a subject).
    pub fn matches_opt(&self, subject: Option<&str>) -> bool {
        match subject {
            Some(s) => self.matches(s),
            None => matches!(self.kind, Kind::All),
        }
    }

    /// Whether any of the subjects matches (a tool name and its aliases).
    pub fn matches_any(&self, subjects: &[&str]) -> bool {
        subjects.iter().any(|s| self.matches(s))
    }

    /// The pattern as written.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// How the pattern is evaluated.
    pub fn mode(&self) -> MatcherMode {
        match self.kind {
            Kind::All => MatcherMode::All,
            Kind::Exact(_) => MatcherMode::Exact,
            Kind::Regex(_) => MatcherMode::Regex,
        }
    }

    /// The subject bound of a regex (see the module docs), else `None`.
    pub fn max_subject(&self) -> Option<usize> {
        match &self.kind {
            Kind::Regex(c) if c.max_subject != usize::MAX => Some(c.max_subject),
            _ => None,
        }
    }
}

type Key = (Dialect, Box<str>, String);

/// A bounded cache of compiled non-literal patterns, keyed by dialect,
/// flags and pattern. Patterns are never evicted.
#[derive(Debug)]
pub struct Interner {
    capacity: usize,
    map: Mutex<HashMap<Key, Arc<Compiled>>>,
}

impl Interner {
    /// An empty interner holding at most `capacity` patterns.
    pub fn new(capacity: usize) -> Interner {
        Interner {
            capacity,
            map: Mutex::new(HashMap::new()),
        }
    }

    /// The process-wide interner ([`INTERNER_CAPACITY`] patterns).
    pub fn global() -> &'static Interner {
        static GLOBAL: OnceLock<Interner> = OnceLock::new();
        GLOBAL.get_or_init(|| Interner::new(INTERNER_CAPACITY))
    }

    /// Distinct patterns held.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True when no pattern is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The capacity.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Arc<Compiled>>> {
        // A panic while holding the lock cannot leave the map inconsistent
        // (insertions are single calls), so a poisoned lock is still usable.
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The compiled pattern, compiling and inserting it when new.
    pub fn intern(
        &self,
        dialect: Dialect,
        flags: &str,
        pattern: &str,
    ) -> Result<Arc<Compiled>, Diagnostic> {
        let key: Key = (dialect, flags.into(), pattern.to_string());
        if let Some(c) = self.lock().get(&key) {
            return Ok(c.clone());
        }
        // Compile outside the lock (a racing thread may insert the same
        // key); an invalid pattern gets its own diagnostic even when full.
        let compiled = Arc::new(compile(dialect, flags, pattern)?);
        let mut map = self.lock();
        if let Some(c) = map.get(&key) {
            return Ok(c.clone());
        }
        if map.len() >= self.capacity {
            return Err(capacity_diag(dialect, pattern, self.capacity));
        }
        map.insert(key, compiled.clone());
        Ok(compiled)
    }
}

fn capacity_diag(dialect: Dialect, pattern: &str, cap: usize) -> Diagnostic {
    Diagnostic::new(
        dialect,
        DiagCode::MatcherCapacity,
        format!("the matcher interner already holds {cap} distinct patterns"),
    )
    .with_pattern(pattern)
}

fn compile(dialect: Dialect, flags: &str, pattern: &str) -> Result<Compiled, Diagnostic> {
    let diag = |code, reason: String| Diagnostic::new(dialect, code, reason).with_pattern(pattern);
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(diag(
            DiagCode::RegexTooComplex,
            format!("pattern longer than {MAX_PATTERN_BYTES} bytes"),
        ));
    }
    match dialect {
        Dialect::Codex => regex::Regex::new(pattern)
            .map(|r| Compiled {
                engine: Engine::Rust(r),
                max_subject: usize::MAX,
            })
            .map_err(|e| diag(DiagCode::InvalidRegex, e.to_string())),
        Dialect::ClaudeCode => {
            let r = regress::Regex::with_flags(pattern, flags)
                .map_err(|e| diag(DiagCode::InvalidRegex, e.to_string()))?;
            let max_subject = backtrack::subject_bound(pattern)
                .map_err(|why| diag(DiagCode::RegexTooComplex, why.to_string()))?;
            Ok(Compiled {
                engine: Engine::Ecma(r),
                max_subject,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(d: Dialect, p: &str) -> Matcher {
        Matcher::compile_in(&Interner::new(16), d, ExactSet::for_event(d, ""), p).unwrap()
    }

    #[test]
    fn modes_and_exact_sets() {
        use Dialect::*;
        assert_eq!(m(ClaudeCode, "").mode(), MatcherMode::All);
        assert_eq!(m(Codex, "*").mode(), MatcherMode::All);
        let c = m(ClaudeCode, "Edit, Write |Bash");
        assert_eq!(c.mode(), MatcherMode::Exact);
        assert!(c.matches("Write") && c.matches("Bash") && !c.matches("NotebookEdit"));
        assert_eq!(m(ClaudeCode, "code-reviewer").mode(), MatcherMode::Exact);
        assert_eq!(m(Codex, "code-reviewer").mode(), MatcherMode::Regex);
        assert!(m(Codex, "code-reviewer").matches("senior-code-reviewer"));
        assert!(!m(ClaudeCode, "mcp__memory").matches("mcp__memory__x"));
        assert!(m(ClaudeCode, "Edit.*").matches("NotebookEdit"));
    }

    #[test]
    fn flavours_differ() {
        let i = Interner::new(8);
        let set = ExactSet::Codex;
        assert!(Matcher::compile_in(&i, Dialect::Codex, set, "(?i)bash").is_ok());
        let e = Matcher::compile_in(&i, Dialect::ClaudeCode, ExactSet::Claude, "(?i)bash");
        assert_eq!(e.unwrap_err().code, DiagCode::InvalidRegex);
        let lb = Matcher::compile_in(&i, Dialect::ClaudeCode, ExactSet::Claude, "(?<=mcp__)x");
        assert!(lb.unwrap().matches("mcp__x"));
        let e = Matcher::compile_in(&i, Dialect::Codex, set, "(?<=mcp__)x");
        assert_eq!(e.unwrap_err().code, DiagCode::InvalidRegex);
    }

    #[test]
    fn backtracking_policy() {
        let i = Interner::new(32);
        let c = |p: &str| Matcher::compile_in(&i, Dialect::ClaudeCode, ExactSet::Claude, p);
        for bad in [
            "(a+)+$",
            "(a|b)*c",
            "(ab?)+",
            "(x*y*){2,}",
            ".*.*.*.*.*.*.*.*x",
        ] {
            assert_eq!(c(bad).unwrap_err().code, DiagCode::RegexTooComplex, "{bad}");
        }
        assert_eq!(c("mcp__.*").unwrap().max_subject(), Some(1024));
        let three = c("mcp__.*__.*").unwrap().max_subject().unwrap();
        assert!((200..260).contains(&three), "{three}");
        let long = format!("mcp__.*{}", "a".repeat(2000));
        assert!(!c("mcp__.*").unwrap().matches(&long));
        assert!(c("(ab)+c").is_ok() && c("[a-z]+_\\d{2,4}").is_ok());
        // The worst subject within the bound stays fast.
        let m = c(".*a.*b.*c").unwrap();
        let s = "ab".repeat(m.max_subject().unwrap() / 2);
        let t = std::time::Instant::now();
        assert!(!m.matches(&s));
        let limit = if cfg!(debug_assertions) { 60 } else { 1 };
        assert!(t.elapsed() < std::time::Duration::from_secs(limit));
    }

    proptest::proptest! {
        #[test]
        fn compiling_and_matching_never_panic(p in "[a-zA-Z_(){}|*+?,.^$\\\\\\[\\]0-9 <=!:-]{0,40}") {
            let i = Interner::new(64);
            for d in [Dialect::ClaudeCode, Dialect::Codex] {
                if let Ok(m) = Matcher::compile_in(&i, d, ExactSet::for_event(d, ""), &p) {
                    let _ = m.matches("mcp__github__create_issue");
                }
            }
        }
    }

    #[test]
    fn capacity_and_flags() {
        let i = Interner::new(2);
        let c = |p: &str| Matcher::compile_in(&i, Dialect::Codex, ExactSet::Codex, p);
        c("^a$").unwrap();
        c("^b$").unwrap();
        assert_eq!(c("^c$").unwrap_err().code, DiagCode::MatcherCapacity);
        assert!(c("^a$").unwrap().matches("a"));
        assert_eq!(c("[").unwrap_err().code, DiagCode::InvalidRegex);
        assert_eq!(i.len(), 2);
        assert_eq!(c("Bash").unwrap().mode(), MatcherMode::Exact);
        let f = Matcher::compile_ecma_with_flags("^bash$", "i").unwrap();
        assert!(f.matches("Bash"));
        for bad in ["x", "ii", "uv"] {
            let e = Matcher::compile_ecma_with_flags("a", bad).unwrap_err();
            assert_eq!(e.code, DiagCode::InvalidFlags, "{bad}");
        }
    }
}
