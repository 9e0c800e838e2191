//! Dispatch as data: the router's registration table and the machine that
//! walks it for one event. Every language's router (Rust's [`crate::Router`]
//! included) is a driver over these: it registers its callables here, asks
//! the core which one to call next, calls it, and hands the outcome back.
//! The order and every rule below live only here.
//!
//! # The table
//!
//! An entry has an id (its registration index), a [`Role`], what it is
//! registered [`On`] (a kind, a native event name, or any event) and an
//! optional [`When`] test on the event's tool call. Specs cross language
//! boundaries as text: `on` is `*`, `kind:<any kind spelling>` or
//! `native:<native event name>`; `when` is empty, `canonical:<class>`,
//! `names:<A|B>` or `guard` (a predicate the binding holds and evaluates
//! when the core asks, see [`Step::Guard`]).
//!
//! # The rules (the same in every language)
//!
//! 1. Observers run first, in registration order, on every event (mapped
//!    or `other`). They never gate: their result is ignored, and a failing
//!    observer is reported on stderr as
//!    `agenthooks: warning: an on_any observer failed (ignored): <text>`;
//!    the hook's answer is unaffected.
//! 2. Middleware wraps the handler chain, outermost (first registered)
//!    first. A middleware's result is the answer of its level: calling
//!    `next` and returning its decision passes through; returning without
//!    calling `next` short-circuits (nothing inside runs); returning another
//!    decision replaces the inner one. "No decision" from a middleware is
//!    `no_decision`. A middleware that fails fails the hook with
//!    `handler_error`. `next` may be called at most once: a second call
//!    returns `handler_error` to the middleware AND fails the whole
//!    dispatch with it, whatever the middleware returns afterwards. `next`
//!    may carry a changed event; the handler chain is chosen for it.
//! 3. The handler chain: handlers registered on the event's native name,
//!    then handlers registered on its kind, each in registration order.
//!    Handlers whose `when` does not match are not called (events without a
//!    tool call never match a `when`). Decisions fold first-conclusive-wins
//!    ([`crate::merge::Fold`]); the first conclusive decision stops the
//!    chain. A failing handler stops the chain and fails its level with
//!    `handler_error` (a surrounding middleware sees it as `next`'s error).
//! 4. No handler covers the event: the chain answers `no_decision`.

use std::io::Write;

use crate::error::Error;
use crate::merge::Fold;
use crate::model::{Canonical, Decision, Event, Kind};

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Role {
    /// Decides: its decision joins the fold.
    Handler = 0,
    /// Sees every event; never gates.
    Observer = 1,
    /// Wraps the handler chain; gets `next`.
    Middleware = 2,
}

impl Role {
    /// From the wire number (0 handler, 1 observer, 2 middleware).
    pub fn from_u32(n: u32) -> Result<Role, Error> {
        match n {
            0 => Ok(Role::Handler),
            1 => Ok(Role::Observer),
            2 => Ok(Role::Middleware),
            _ => Err(invalid(format!("unknown router role {n}"))),
        }
    }

    /// From its name (`handler`, `observer`, `middleware`).
    pub fn parse(s: &str) -> Result<Role, Error> {
        match s {
            "handler" => Ok(Role::Handler),
            "observer" => Ok(Role::Observer),
            "middleware" => Ok(Role::Middleware),
            _ => Err(invalid(format!("unknown router role {s:?}"))),
        }
    }
}

/// What an entry is registered on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum On {
    /// Every event (observers and middleware).
    Any,
    /// Events of a kind.
    Kind(Kind),
    /// Events with this native name.
    Native(String),
}

impl On {
    /// Parses `*`, `kind:<spelling>` or `native:<name>`.
    pub fn parse(s: &str) -> Result<On, Error> {
        if s == "*" || s.is_empty() {
            Ok(On::Any)
        } else if let Some(k) = s.strip_prefix("kind:") {
            Ok(On::Kind(Kind::parse(k)?))
        } else if let Some(n) = s.strip_prefix("native:") {
            Ok(On::Native(n.to_string()))
        } else {
            Err(invalid(format!(
                "router target {s:?}: expected `*`, `kind:<kind>` or `native:<name>`"
            )))
        }
    }
}

/// A `when` test on the event's tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum When {
    /// No test.
    Always,
    /// The tool's canonical class.
    Canonical(Canonical),
    /// Exact native tool names.
    Names(Vec<String>),
    /// A predicate the binding holds: the core asks ([`Step::Guard`]).
    Guard,
}

impl When {
    /// Parses ``, `canonical:<class>`, `names:<A|B>` or `guard`.
    pub fn parse(s: &str) -> Result<When, Error> {
        if s.is_empty() {
            Ok(When::Always)
        } else if s == "guard" {
            Ok(When::Guard)
        } else if let Some(c) = s.strip_prefix("canonical:") {
            serde_json::from_value(serde_json::Value::String(c.to_string()))
                .map(When::Canonical)
                .map_err(|_| invalid(format!("unknown canonical tool class {c:?}")))
        } else if let Some(n) = s.strip_prefix("names:") {
            Ok(When::names(n))
        } else {
            Err(invalid(format!(
                "when spec {s:?}: expected ``, `canonical:<class>`, `names:<A|B>` or `guard`"
            )))
        }
    }

    /// Native names from `"Write|Edit"` (trimmed, empty parts dropped).
    pub fn names(spec: &str) -> When {
        When::Names(
            spec.split('|')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        )
    }

    /// Whether a tool call matches (`None`: the event has none, never
    /// matches). For [`When::Guard`], whether the core must ask.
    pub fn matches(&self, tool: Option<(&str, Canonical)>) -> bool {
        match (self, tool) {
            (When::Always, _) => true,
            (_, None) => false,
            (When::Canonical(c), Some((_, t))) => *c == t,
            (When::Names(ns), Some((n, _))) => ns.iter().any(|x| x == n),
            (When::Guard, Some(_)) => true,
        }
    }
}

/// What the table needs of an event: its kind, native name and tool.
#[derive(Debug, Clone, Copy)]
pub struct Key<'a> {
    /// The unified kind.
    pub kind: Kind,
    /// The native event name.
    pub native_name: &'a str,
    /// The tool call's native name and canonical class, if any.
    pub tool: Option<(&'a str, Canonical)>,
}

impl<'a> Key<'a> {
    /// The key of an event.
    pub fn of(e: &'a Event) -> Key<'a> {
        Key {
            kind: e.kind,
            native_name: &e.native_name,
            tool: e.tool.as_ref().map(|t| (t.name.as_str(), t.canonical)),
        }
    }
}

#[derive(Debug, Clone)]
struct Entry {
    role: Role,
    on: On,
    when: When,
}

/// The registration table.
#[derive(Debug, Clone, Default)]
pub struct Table {
    entries: Vec<Entry>,
    observers: Vec<u32>,
    middleware: Vec<u32>,
    handlers: Vec<u32>,
}

impl Table {
    /// An empty table.
    pub fn new() -> Table {
        Table::default()
    }

    /// Registers an entry; returns its id (ids count up from 0 in
    /// registration order). Observers and middleware are registered on
    /// [`On::Any`] without a `when`; handlers on a kind or native name.
    pub fn add(&mut self, role: Role, on: On, when: When) -> Result<u32, Error> {
        match role {
            Role::Handler if on == On::Any => {
                return Err(invalid(
                    "a handler is registered on a kind or a native name",
                ));
            }
            Role::Observer | Role::Middleware if on != On::Any || when != When::Always => {
                return Err(invalid(
                    "observers and middleware see every event (`*`, no `when`)",
                ));
            }
            _ => {}
        }
        let id =
            u32::try_from(self.entries.len()).map_err(|_| invalid("too many router entries"))?;
        match role {
            Role::Handler => self.handlers.push(id),
            Role::Observer => self.observers.push(id),
            Role::Middleware => self.middleware.push(id),
        }
        self.entries.push(Entry { role, on, when });
        Ok(id)
    }

    /// [`Table::add`] from text specs.
    pub fn add_spec(&mut self, role: Role, on: &str, when: &str) -> Result<u32, Error> {
        self.add(role, On::parse(on)?, When::parse(when)?)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no entry is registered.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether any handler is registered on the event's kind or native name
    /// (`when` aside).
    pub fn handles(&self, k: Key<'_>) -> bool {
        self.handlers
            .iter()
            .any(|&id| self.targets(id, k.kind, k.native_name))
    }

    /// Whether deciding the event runs any user code (a handler, an
    /// observer or middleware); when not, the answer is "no opinion".
    pub fn runs_user_code(&self, k: Key<'_>) -> bool {
        !self.observers.is_empty() || !self.middleware.is_empty() || self.handles(k)
    }

    fn targets(&self, id: u32, kind: Kind, native: &str) -> bool {
        match self.entries.get(id as usize).map(|e| &e.on) {
            Some(On::Kind(k)) => *k == kind,
            Some(On::Native(n)) => n == native,
            _ => false,
        }
    }

    /// The handler chain for an event: native-name handlers, then kind
    /// handlers, registration order, `when` applied (guards kept).
    fn chain(&self, k: Key<'_>) -> Vec<(u32, bool)> {
        let mut out = Vec::new();
        for native_pass in [true, false] {
            for &id in &self.handlers {
                let Some(e) = self.entries.get(id as usize) else {
                    continue;
                };
                let hit = match &e.on {
                    On::Native(n) => native_pass && n == k.native_name,
                    On::Kind(kind) => !native_pass && *kind == k.kind,
                    On::Any => false,
                };
                if hit && e.when.matches(k.tool) {
                    out.push((id, e.when == When::Guard));
                }
            }
        }
        out
    }

    /// Starts dispatching an event.
    pub fn start(&self, k: Key<'_>) -> Dispatch {
        let mut d = Dispatch {
            observers: self.observers.clone(),
            next_observer: 0,
            middleware: self.middleware.clone(),
            frames: Vec::with_capacity(self.middleware.len() + 1),
            failed: None,
            pending: Pending::None,
            warnings: Vec::new(),
        };
        d.frames.push(d.frame_for(0, self, k));
        d
    }

    /// Starts dispatching a backfilled event (rule 5): the observers run,
    /// nothing else; the result is `no_decision`.
    pub fn start_observers(&self) -> Dispatch {
        let mut d = Dispatch {
            observers: self.observers.clone(),
            next_observer: 0,
            middleware: Vec::new(),
            frames: Vec::with_capacity(1),
            failed: None,
            pending: Pending::None,
            warnings: Vec::new(),
        };
        d.frames.push(Frame::Chain {
            ids: Vec::new(),
            pos: 0,
            fold: Fold::new(),
            result: None,
        });
        d
    }

    /// Whether any observer is registered (a backfilled event is delivered
    /// only then: [`crate::backfill`]).
    pub fn has_observers(&self) -> bool {
        !self.observers.is_empty()
    }

    /// The role of an entry.
    pub fn role(&self, id: u32) -> Option<Role> {
        self.entries.get(id as usize).map(|e| e.role)
    }
}

/// What the binding must do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Call observer `id` with the event, then [`Dispatch::give`] its
    /// outcome (only an error matters).
    Observe(u32),
    /// Call middleware `id` with the event and a `next` for `level + 1`
    /// (which calls [`Dispatch::enter`] then drives on), then give its
    /// outcome.
    Middleware {
        /// The entry.
        id: u32,
        /// Its level (0 outermost), for `enter`.
        level: u32,
    },
    /// Evaluate handler `id`'s guard predicate on the tool call and report
    /// it with [`Dispatch::guard`].
    Guard(u32),
    /// Call handler `id` with the event, then give its outcome.
    Handler(u32),
    /// The current level is finished: take its answer with
    /// [`Dispatch::result`] (at level 0, the dispatch's answer).
    Return,
}

impl Step {
    /// The wire form: `(tag, id, level)`; tags 0 observe, 1 middleware,
    /// 2 guard, 3 handler, 4 return.
    pub fn wire(self) -> (u32, u32, u32) {
        match self {
            Step::Observe(id) => (0, id, 0),
            Step::Middleware { id, level } => (1, id, level),
            Step::Guard(id) => (2, id, 0),
            Step::Handler(id) => (3, id, 0),
            Step::Return => (4, 0, 0),
        }
    }
}

/// What a called entry did.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one per call, moved straight into the fold
pub enum Outcome {
    /// It returned a decision.
    Decision(Decision),
    /// It returned nothing (`no_decision`).
    NoDecision,
    /// It failed (exception, error value, or a non-decision result); see
    /// [`Outcome::error`] for a binding's exception text.
    Error(Error),
}

impl Outcome {
    /// A failure from an exception's text (`handler_error`).
    pub fn error(message: impl Into<String>) -> Outcome {
        Outcome::Error(Error::Handler {
            message: message.into(),
        })
    }
}

#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one frame per middleware level, short-lived
enum Frame {
    Middleware {
        id: u32,
        called: bool,
        entered: bool,
        result: Option<Result<Decision, Error>>,
    },
    Chain {
        ids: Vec<(u32, bool)>,
        pos: usize,
        fold: Fold,
        result: Option<Result<Decision, Error>>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    None,
    Observer,
    Middleware,
    Guard,
    Handler,
}

/// One event's walk through the table (see the module docs). Not shared
/// between threads; one per event.
#[derive(Debug)]
pub struct Dispatch {
    observers: Vec<u32>,
    next_observer: usize,
    middleware: Vec<u32>,
    frames: Vec<Frame>,
    failed: Option<Error>,
    pending: Pending,
    warnings: Vec<String>,
}

const NEXT_TWICE: &str = "middleware called next more than once";

impl Dispatch {
    fn frame_for(&self, level: usize, t: &Table, k: Key<'_>) -> Frame {
        match self.middleware.get(level) {
            Some(&id) => Frame::Middleware {
                id,
                called: false,
                entered: false,
                result: None,
            },
            None => Frame::Chain {
                ids: t.chain(k),
                pos: 0,
                fold: Fold::new(),
                result: None,
            },
        }
    }

    /// What to do next. Out-of-order use (a step before the previous
    /// outcome was given) is answered with [`Step::Return`] and fails the
    /// dispatch.
    pub fn step(&mut self) -> Step {
        if self.pending != Pending::None {
            let what = format!("router: step while waiting for {:?}", self.pending);
            self.fail(invalid(what));
            return Step::Return;
        }
        if let Some(&id) = self.observers.get(self.next_observer) {
            self.next_observer += 1;
            self.pending = Pending::Observer;
            return Step::Observe(id);
        }
        let level = self.frames.len().saturating_sub(1);
        let Some(top) = self.frames.last_mut() else {
            return Step::Return;
        };
        match top {
            Frame::Middleware {
                id, called, result, ..
            } => {
                if result.is_some() {
                    return Step::Return;
                }
                if *called {
                    // Its outcome is due (or `enter` was skipped).
                    return Step::Return;
                }
                *called = true;
                self.pending = Pending::Middleware;
                Step::Middleware {
                    id: *id,
                    level: u32::try_from(level).unwrap_or(u32::MAX),
                }
            }
            Frame::Chain {
                ids,
                pos,
                fold,
                result,
            } => {
                if result.is_some() {
                    return Step::Return;
                }
                match ids.get(*pos) {
                    Some(&(id, guard)) if !fold.is_done() => {
                        if guard {
                            self.pending = Pending::Guard;
                            Step::Guard(id)
                        } else {
                            self.pending = Pending::Handler;
                            Step::Handler(id)
                        }
                    }
                    _ => {
                        let f = std::mem::take(fold);
                        *result = Some(Ok(f.finish()));
                        Step::Return
                    }
                }
            }
        }
    }

    /// The answer to a [`Step::Guard`]: whether the predicate held (if
    /// not, the handler is skipped).
    pub fn guard(&mut self, held: bool) {
        if self.pending != Pending::Guard {
            self.fail(invalid("router: guard outcome without a guard step"));
            return;
        }
        if let Some(Frame::Chain { ids, pos, .. }) = self.frames.last_mut() {
            if held {
                // The next step is the handler itself.
                if let Some(slot) = ids.get_mut(*pos) {
                    slot.1 = false;
                }
            } else {
                *pos += 1;
            }
        }
        self.pending = Pending::None;
    }

    /// The outcome of the entry the last step called (observer, handler or
    /// middleware).
    pub fn give(&mut self, outcome: Outcome) {
        let pending = std::mem::replace(&mut self.pending, Pending::None);
        match pending {
            Pending::Observer => {
                if let Outcome::Error(e) = outcome {
                    let w = observer_failed(&message_of(&e));
                    self.warnings.push(w);
                }
            }
            Pending::Handler => {
                if let Some(Frame::Chain {
                    pos, fold, result, ..
                }) = self.frames.last_mut()
                {
                    *pos += 1;
                    match outcome {
                        Outcome::Decision(d) => {
                            fold.push(d);
                        }
                        Outcome::NoDecision => {
                            fold.push(Decision::no_decision());
                        }
                        Outcome::Error(e) => {
                            *result = Some(Err(e));
                        }
                    }
                }
            }
            Pending::Middleware => {
                // Inner frames the middleware entered but abandoned (it
                // returned while `next` was still running) are dropped.
                let own = self.frames.iter().rposition(|f| {
                    matches!(
                        f,
                        Frame::Middleware {
                            called: true,
                            result: None,
                            ..
                        }
                    )
                });
                if let Some(i) = own {
                    self.frames.truncate(i + 1);
                }
                if let Some(Frame::Middleware { result, .. }) = self.frames.last_mut() {
                    *result = Some(match outcome {
                        Outcome::Decision(d) => Ok(d),
                        Outcome::NoDecision => Ok(Decision::no_decision()),
                        Outcome::Error(e) => Err(e),
                    });
                }
            }
            Pending::Guard | Pending::None => {
                self.fail(invalid("router: an outcome nobody asked for"));
            }
        }
    }

    /// A middleware's `next` at `level` was called (with `k`, the event it
    /// passed on): `Ok` — drive on (the next steps are the inner level's);
    /// `Err` — calling `next` again or out of turn, the error to return to
    /// the middleware (the dispatch fails with it too).
    pub fn enter(&mut self, t: &Table, level: u32, k: Key<'_>) -> Result<(), Error> {
        let level = level as usize;
        let ok = matches!(
            self.frames.get(level),
            Some(Frame::Middleware {
                called: true,
                entered: false,
                result: None,
                ..
            })
        ) && self.frames.len() == level + 1
            && self.pending == Pending::Middleware;
        if !ok {
            self.fail(Error::Handler {
                message: NEXT_TWICE.into(),
            });
            return Err(Error::Handler {
                message: NEXT_TWICE.into(),
            });
        }
        if let Some(Frame::Middleware { entered, .. }) = self.frames.get_mut(level) {
            *entered = true;
        }
        let f = self.frame_for(level + 1, t, k);
        self.frames.push(f);
        self.pending = Pending::None;
        Ok(())
    }

    /// Takes the answer of the finished level (after [`Step::Return`]):
    /// the inner answer for a middleware's `next`, or at level 0 the
    /// dispatch's answer (a failed dispatch answers its error here).
    pub fn result(&mut self) -> Result<Decision, Error> {
        let outermost = self.frames.len() <= 1;
        let r = match self.frames.pop() {
            Some(Frame::Middleware { result, .. }) | Some(Frame::Chain { result, .. }) => {
                result.unwrap_or_else(|| Err(invalid("router: result before the level finished")))
            }
            None => Err(invalid("router: result taken twice")),
        };
        if outermost {
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
        } else {
            // Back in the middleware that called `next`: its outcome is due.
            self.pending = Pending::Middleware;
        }
        r
    }

    /// The warnings this dispatch wrote to stderr (failing observers).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn fail(&mut self, e: Error) {
        if self.failed.is_none() {
            self.failed = Some(e);
        }
    }
}

/// Reports a failing observer on stderr (the rule for every language) and
/// returns the line written.
pub fn observer_failed(text: &str) -> String {
    let line = format!("agenthooks: warning: an on_any observer failed (ignored): {text}");
    let _ = writeln!(std::io::stderr().lock(), "{line}");
    line
}

/// An error's message without the `handler error:` prefix.
pub fn message_of(e: &Error) -> String {
    match e {
        Error::Handler { message } => message.clone(),
        other => other.to_string(),
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::InvalidArgument {
        message: message.into(),
    }
}
