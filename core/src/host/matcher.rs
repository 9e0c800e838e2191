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
//! pattern is compiled for its own matcher only (not cached) and gets a
//! `matcher_capacity` warning, so known patterns keep working and no hook
//! is ever dropped. Invalid patterns never consume capacity.
//!
//! # Deciding exactly as the agent, or running the hook
//!
//! A matcher never skips a hook the agent would run. [`Matcher::decide`]
//! answers [`Verdict::Match`], [`Verdict::NoMatch`] or
//! [`Verdict::Undecided`]; an undecided matcher counts as a match (the hook
//! runs) and the host reports a `matcher_undecided` diagnostic.
//!
//! `regress` (Claude Code's ECMAScript flavour) is a backtracking engine,
//! so every Claude pattern gets a work estimate when it is compiled:
//!
//! 1. A repetition with a variable count (`*`, `+`, `{n,}`, `{n,m}`) whose
//!    body can match in more than one way (nested quantifiers `(a+)+`,
//!    alternation `(a|b)*`, optional parts `(ab?)+`) can backtrack
//!    exponentially: `regress` never runs it.
//! 2. Otherwise, with `k` variable repetitions in sequence, a failing search
//!    costs about `n^(k+1) / (k+1)! · c` steps on a subject of `n` bytes (`c`
//!    counts alternatives and optional parts). The pattern's subject bound is
//!    the largest `n` keeping that under [`ECMA_STEP_BUDGET`], capped at
//!    [`ECMA_MAX_SUBJECT_BYTES`]; below [`ECMA_MIN_SUBJECT_BYTES`] the
//!    pattern is treated as in rule 1. One estimated step costs 6–18 ns in
//!    a release build here, so an adversarial subject at the bound costs at
//!    most a few tens of milliseconds (`docs/benchmarks.md`, "Host matcher";
//!    debug builds are about 100 times slower).
//!
//! Subjects within the bound are decided by `regress`. Beyond it (and for
//! every subject of a rule-1 pattern) the pattern's **linear twin** decides:
//! the same pattern for the Rust `regex` crate (linear time), built for the
//! large subset of ECMAScript both engines read identically (`linear.rs`;
//! e.g. `mcp__.*__.*delete.*`, `(a+)+$`). Only a pattern outside that
//! subset (lookaround, backreferences, `\b`, flags) on a subject past its
//! bound, a subject with characters outside the Basic Multilingual Plane
//! past the bound, or a pattern longer than [`MAX_PATTERN_BYTES`] is
//! undecided. Rule-1 and over-long patterns without a twin get a
//! `regex_too_complex` warning when compiled. Exact matchers and Codex
//! (`regex`, linear time) always decide.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

pub use super::hosted::Dialect;
use crate::host::{DiagCode, Diagnostic, Severity};

mod backtrack;
mod linear;

/// Distinct non-literal patterns the process-wide interner holds.
pub const INTERNER_CAPACITY: usize = 128;
/// Upper bound on the subject length `regress` is given, in bytes.
pub const ECMA_MAX_SUBJECT_BYTES: usize = 1024;
/// A pattern whose computed subject bound is below this is never given to
/// `regress`.
pub const ECMA_MIN_SUBJECT_BYTES: usize = 32;
/// Estimated backtracking steps allowed for one ECMAScript match.
pub const ECMA_STEP_BUDGET: f64 = 2e6;
/// Longest non-literal pattern compiled, in bytes (longer: undecided).
pub const MAX_PATTERN_BYTES: usize = 1024;

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

/// What a matcher says about one subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The agent would run the hook.
    Match,
    /// The agent would not run the hook.
    NoMatch,
    /// This pattern cannot be evaluated safely on this subject exactly as
    /// the agent would: the hook runs (see the module docs).
    Undecided,
}

/// A compiled non-literal pattern, shared through the interner.
#[derive(Debug)]
pub struct Compiled {
    engine: Engine,
    /// Longest subject `regress` is given (`usize::MAX` for Rust regexes).
    max_subject: usize,
    /// The linear-time twin of an ECMAScript pattern, when it has one.
    twin: Option<regex::Regex>,
    /// Warnings found when compiling (`regex_too_complex`).
    warnings: Vec<Diagnostic>,
}

#[derive(Debug)]
enum Engine {
    Rust(regex::Regex),
    Ecma(regress::Regex),
    /// Too long to compile: every subject is undecided.
    None,
}

impl Compiled {
    /// Subjects longer than this many bytes are not given to the
    /// backtracking engine (ECMAScript policy; `usize::MAX` for Rust
    /// regexes).
    pub fn max_subject(&self) -> usize {
        self.max_subject
    }

    fn decide(&self, subject: &str) -> Verdict {
        let v = |b: bool| if b { Verdict::Match } else { Verdict::NoMatch };
        match &self.engine {
            Engine::Rust(r) => v(r.is_match(subject)),
            Engine::Ecma(r) if subject.len() <= self.max_subject => v(r.find(subject).is_some()),
            _ => match &self.twin {
                // ECMAScript without the `u` flag sees UTF-16 code units; the
                // twin sees characters: the same only inside the BMP.
                Some(t) if subject.chars().all(|c| u32::from(c) < 0x10000) => {
                    v(t.is_match(subject))
                }
                _ => Verdict::Undecided,
            },
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
    warnings: Vec<Diagnostic>,
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
        let mut warnings = Vec::new();
        let kind = if pattern.is_empty() || pattern == "*" {
            Kind::All
        } else if pattern.chars().all(|c| set.admits(c)) {
            Kind::Exact(set.split(pattern))
        } else {
            let (c, w) = interner.intern_or_compile(dialect, "", pattern)?;
            warnings.extend(c.warnings.iter().cloned());
            warnings.extend(w);
            Kind::Regex(c)
        };
        Ok(Matcher {
            dialect,
            pattern: pattern.to_string(),
            kind,
            warnings,
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
        let (compiled, w) = interner.intern_or_compile(d, &effective, pattern)?;
        let mut warnings = compiled.warnings.clone();
        warnings.extend(w);
        Ok(Matcher {
            dialect: d,
            pattern: pattern.to_string(),
            kind: Kind::Regex(compiled),
            warnings,
        })
    }

    /// What the matcher says about a subject (see the module docs).
    pub fn decide(&self, subject: &str) -> Verdict {
        match &self.kind {
            Kind::All => Verdict::Match,
            Kind::Exact(alts) if alts.iter().any(|a| a == subject) => Verdict::Match,
            Kind::Exact(_) => Verdict::NoMatch,
            Kind::Regex(c) => c.decide(subject),
        }
    }

    /// Whether the hook runs for this subject: a match, or undecided (a
    /// matcher never skips a hook the agent might run).
    pub fn matches(&self, subject: &str) -> bool {
        self.decide(subject) != Verdict::NoMatch
    }

    /// Whether the matcher selects an event whose subject may be absent
    /// (only match-all matchers select an event without a subject).
    pub fn matches_opt(&self, subject: Option<&str>) -> bool {
        match subject {
            Some(s) => self.matches(s),
            None => matches!(self.kind, Kind::All),
        }
    }

    /// The verdict over several subjects (a tool name and its aliases): a
    /// match if any matches, else undecided if any is, else no match.
    pub fn decide_any(&self, subjects: &[&str]) -> Verdict {
        let mut verdict = Verdict::NoMatch;
        for s in subjects {
            match self.decide(s) {
                Verdict::Match => return Verdict::Match,
                Verdict::Undecided => verdict = Verdict::Undecided,
                Verdict::NoMatch => {}
            }
        }
        verdict
    }

    /// Whether any of the subjects matches (or is undecided).
    pub fn matches_any(&self, subjects: &[&str]) -> bool {
        self.decide_any(subjects) != Verdict::NoMatch
    }

    /// Warnings from compiling (`regex_too_complex`, `matcher_capacity`).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
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

    /// The longest subject the backtracking engine is given for an
    /// ECMAScript regex (see the module docs), else `None`.
    pub fn max_subject(&self) -> Option<usize> {
        match &self.kind {
            Kind::Regex(c) if c.max_subject != usize::MAX => Some(c.max_subject),
            _ => None,
        }
    }

    /// Whether an ECMAScript regex has a linear-time twin (decides every
    /// BMP subject, whatever its length). Always true of other matchers.
    pub fn is_linear(&self) -> bool {
        match &self.kind {
            Kind::Regex(c) => matches!(c.engine, Engine::Rust(_)) || c.twin.is_some(),
            _ => true,
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

    /// The compiled pattern, compiling and inserting it when new; `Err`
    /// with `matcher_capacity` when the interner is full and the pattern
    /// new (see [`Interner::intern_or_compile`] for the fallback).
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
        self.insert(key, compiled)
    }

    /// Like [`Interner::intern`], but a new pattern that does not fit is
    /// compiled for the caller only, with a `matcher_capacity` warning: a
    /// full interner never drops a hook.
    pub fn intern_or_compile(
        &self,
        dialect: Dialect,
        flags: &str,
        pattern: &str,
    ) -> Result<(Arc<Compiled>, Option<Diagnostic>), Diagnostic> {
        let key: Key = (dialect, flags.into(), pattern.to_string());
        if let Some(c) = self.lock().get(&key) {
            return Ok((c.clone(), None));
        }
        let compiled = Arc::new(compile(dialect, flags, pattern)?);
        match self.insert(key, compiled.clone()) {
            Ok(c) => Ok((c, None)),
            Err(mut d) => {
                d.severity = Severity::Warning;
                d.reason
                    .push_str("; compiled for this matcher only (not cached)");
                Ok((compiled, Some(d)))
            }
        }
    }

    fn insert(&self, key: Key, compiled: Arc<Compiled>) -> Result<Arc<Compiled>, Diagnostic> {
        let mut map = self.lock();
        if let Some(c) = map.get(&key) {
            return Ok(c.clone());
        }
        if map.len() >= self.capacity {
            return Err(capacity_diag(key.0, &key.2, self.capacity));
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
    match dialect {
        Dialect::Codex => regex::Regex::new(pattern)
            .map(|r| Compiled {
                engine: Engine::Rust(r),
                max_subject: usize::MAX,
                twin: None,
                warnings: Vec::new(),
            })
            .map_err(|e| diag(DiagCode::InvalidRegex, e.to_string())),
        Dialect::ClaudeCode if pattern.len() > MAX_PATTERN_BYTES => Ok(Compiled {
            engine: Engine::None,
            max_subject: 0,
            twin: None,
            warnings: vec![diag(
                DiagCode::RegexTooComplex,
                format!(
                    "pattern longer than {MAX_PATTERN_BYTES} bytes is not evaluated; \
                     its hooks run for every subject"
                ),
            )],
        }),
        Dialect::ClaudeCode => {
            let r = regress::Regex::with_flags(pattern, flags)
                .map_err(|e| diag(DiagCode::InvalidRegex, e.to_string()))?;
            let twin = if flags.is_empty() {
                linear::to_rust(pattern).and_then(|p| regex::Regex::new(&p).ok())
            } else {
                None
            };
            let (max_subject, warnings) = match backtrack::subject_bound(pattern) {
                Ok(bound) => (bound, Vec::new()),
                Err(_) if twin.is_some() => (0, Vec::new()),
                Err(why) => (
                    0,
                    vec![diag(
                        DiagCode::RegexTooComplex,
                        format!(
                            "{why}; the pattern is not evaluated and its hooks run for \
                             every subject"
                        ),
                    )],
                ),
            };
            Ok(Compiled {
                engine: Engine::Ecma(r),
                max_subject,
                twin,
                warnings,
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
        // Exponential patterns never reach regress; their twins decide.
        for bad in [
            "(a+)+$",
            "(a|b)*c",
            "(ab?)+",
            "(x*y*){2,}",
            ".*.*.*.*.*.*.*.*x",
        ] {
            let m = c(bad).unwrap();
            assert_eq!(m.max_subject(), Some(0), "{bad}");
            assert!(m.is_linear() && m.warnings().is_empty(), "{bad}");
            let t = std::time::Instant::now();
            let _ = m.decide(&format!("{}!", "a".repeat(10_000)));
            assert!(t.elapsed() < std::time::Duration::from_secs(2), "{bad}");
        }
        // Without a twin (lookahead): a warning, and every subject past
        // the bound (here all but "") is undecided: the hook runs.
        let m = c("(?=a)(a+)+$").unwrap();
        assert_eq!(m.warnings()[0].code, DiagCode::RegexTooComplex);
        assert_eq!(m.decide("aaa!"), Verdict::Undecided);
        assert!(m.matches("aaa!"));
        assert_eq!(c("mcp__.*").unwrap().max_subject(), Some(1024));
        let three = c("mcp__.*__.*").unwrap().max_subject().unwrap();
        assert!((200..260).contains(&three), "{three}");
        let long = format!("mcp__.*{}", "a".repeat(2000));
        assert_eq!(c("mcp__.*").unwrap().decide(&long), Verdict::Match);
        assert_eq!(c("^mcp__x$").unwrap().decide(&long), Verdict::NoMatch);
        // Past the bound, outside the BMP: undecided (UTF-16 vs chars).
        let astral = format!("mcp__{}", "😀".repeat(400));
        assert_eq!(c("mcp__.*").unwrap().decide(&astral), Verdict::Undecided);
        assert!(c("(ab)+c").is_ok() && c("[a-z]+_\\d{2,4}").is_ok());
        let huge = format!("^{}$", "a".repeat(MAX_PATTERN_BYTES));
        let m = c(&huge).unwrap();
        assert_eq!(m.warnings()[0].code, DiagCode::RegexTooComplex);
        assert_eq!(m.decide("b"), Verdict::Undecided);
        // The worst subject within the bound stays fast.
        let m = c(".*a.*b.*c").unwrap();
        let s = "ab".repeat(m.max_subject().unwrap() / 2);
        let t = std::time::Instant::now();
        assert!(!m.matches(&s));
        let limit = if cfg!(debug_assertions) { 60 } else { 1 };
        assert!(t.elapsed() < std::time::Duration::from_secs(limit));
    }

    proptest::proptest! {
        /// The linear twin agrees with regress wherever both run.
        #[test]
        fn twin_agrees_with_regress(
            p in "[ab.|()*+?^$]{1,12}|[ab]{0,2}(\\[[a\\-b^]{1,4}\\]|\\\\[dwsDWS.]|[ab.]\\{1,2\\})[ab*]{0,3}",
            subjects in proptest::collection::vec("[ab\n\u{2028} _1\u{a0}-]{0,12}", 1..8),
        ) {
            if let (Ok(r), Some(t)) = (
                regress::Regex::new(&p),
                linear::to_rust(&p).and_then(|t| regex::Regex::new(&t).ok()),
            ) {
                for s in &subjects {
                    proptest::prop_assert_eq!(
                        r.find(s).is_some(),
                        t.is_match(s),
                        "pattern {:?} subject {:?}",
                        p,
                        s
                    );
                }
            }
        }
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
        // Full: compiled for this matcher only, with a warning.
        let m = c("^c$").unwrap();
        assert_eq!(m.warnings()[0].code, DiagCode::MatcherCapacity);
        assert!(m.matches("c") && !m.matches("a"));
        assert_eq!(
            i.intern(Dialect::Codex, "", "^d$").unwrap_err().code,
            DiagCode::MatcherCapacity
        );
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
