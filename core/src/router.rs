//! Handler registration and dispatch for Rust authors: a driver over the
//! core's registration table ([`crate::dispatch`]), like every binding's
//! router. The rules (order, `when`, middleware, observers, errors) are
//! written down there, once.

use std::cell::RefCell;
use std::ops::Deref;
use std::sync::Arc;

use crate::dispatch::{Dispatch, Key, On, Outcome, Role, Step, Table, When};
use crate::error::Error;
use crate::merge::{self, Fold};
use crate::model::{Canonical, Decision, Event, Kind, Policy, StopInfo, ToolCall};

/// What a handler may return: a [`Decision`], or a `Result` of one.
pub trait IntoDecision {
    /// Converts into a decision or a handler error.
    fn into_decision(self) -> Result<Decision, Error>;
}

impl IntoDecision for Decision {
    fn into_decision(self) -> Result<Decision, Error> {
        Ok(self)
    }
}

impl<E: std::fmt::Display> IntoDecision for Result<Decision, E> {
    fn into_decision(self) -> Result<Decision, Error> {
        self.map_err(|e| Error::Handler {
            message: e.to_string(),
        })
    }
}

/// A type-erased handler over any event.
pub type Handler = Arc<dyn Fn(&Event) -> Result<Decision, Error> + Send + Sync>;
/// The rest of the pipeline, given to middleware.
pub type Next<'a> = &'a dyn Fn(&Event) -> Result<Decision, Error>;
type Middleware = Arc<dyn Fn(&Event, Next<'_>) -> Result<Decision, Error> + Send + Sync>;
type Observer = Arc<dyn Fn(&Event) + Send + Sync>;

macro_rules! typed_event {
    ($(#[$m:meta])* $name:ident { $field:ident : $ty:ty }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name<'a> {
            /// The whole event.
            pub event: &'a Event,
            #[doc = concat!("The event's `", stringify!($field), "`.")]
            pub $field: &'a $ty,
        }
        impl Deref for $name<'_> {
            type Target = Event;
            fn deref(&self) -> &Event {
                self.event
            }
        }
    };
}

typed_event!(
    /// `tool.pre`: a tool is about to run.
    ToolPreEvent { tool: ToolCall }
);
typed_event!(
    /// `tool.post`: a tool ran.
    ToolPostEvent { tool: ToolCall }
);
typed_event!(
    /// `tool.error`: a tool failed.
    ToolErrorEvent { tool: ToolCall }
);
typed_event!(
    /// `permission.request`: the agent is about to ask the user.
    PermissionRequestEvent { tool: ToolCall }
);
typed_event!(
    /// `prompt.submitted`: the user submitted a prompt.
    PromptEvent { prompt: str }
);
typed_event!(
    /// `agent.stop` / `subagent.stop`: the (sub)agent is about to stop.
    StopEvent { stop: StopInfo }
);

static EMPTY_TOOL: std::sync::OnceLock<ToolCall> = std::sync::OnceLock::new();
static EMPTY_STOP: std::sync::OnceLock<StopInfo> = std::sync::OnceLock::new();

fn tool_of(e: &Event) -> &ToolCall {
    e.tool.as_ref().unwrap_or_else(|| {
        EMPTY_TOOL.get_or_init(|| {
            ToolCall::new(
                crate::model::Provider::ClaudeCode,
                "",
                serde_json::Value::Null,
                None,
            )
        })
    })
}

fn stop_of(e: &Event) -> &StopInfo {
    e.stop
        .as_ref()
        .unwrap_or_else(|| EMPTY_STOP.get_or_init(StopInfo::default))
}

/// Wraps a closure over `&Event` as a [`Handler`].
pub fn handler<F, R>(f: F) -> Handler
where
    F: Fn(&Event) -> R + Send + Sync + 'static,
    R: IntoDecision,
{
    Arc::new(move |e| f(e).into_decision())
}

/// What `when` tests a tool call against.
#[derive(Clone)]
pub enum Matcher {
    /// A canonical class.
    Canonical(Canonical),
    /// Exact native names.
    Names(Vec<String>),
    /// Any predicate over the tool call.
    Predicate(Arc<dyn Fn(&ToolCall) -> bool + Send + Sync>),
}

impl Matcher {
    /// Whether the event's tool call matches (events without a tool never do).
    pub fn matches(&self, e: &Event) -> bool {
        let Some(t) = &e.tool else { return false };
        match self {
            Matcher::Predicate(p) => p(t),
            m => m.spec().matches(Key::of(e).tool),
        }
    }

    /// The table's `when` for this matcher (a predicate is a guard).
    fn spec(&self) -> When {
        match self {
            Matcher::Canonical(c) => When::Canonical(*c),
            Matcher::Names(n) => When::Names(n.clone()),
            Matcher::Predicate(_) => When::Guard,
        }
    }
}

impl From<Canonical> for Matcher {
    fn from(c: Canonical) -> Self {
        Matcher::Canonical(c)
    }
}

impl From<&str> for Matcher {
    fn from(s: &str) -> Self {
        match When::names(s) {
            When::Names(n) => Matcher::Names(n),
            _ => Matcher::Names(Vec::new()),
        }
    }
}

/// Runs `h` only for tool calls `m` matches (else `no_decision`).
pub fn when(m: impl Into<Matcher>, h: Handler) -> Handler {
    let m = m.into();
    Arc::new(move |e| {
        if m.matches(e) {
            h(e)
        } else {
            Ok(Decision::no_decision())
        }
    })
}

/// Stacking semantics over several handlers: first conclusive wins.
pub fn any(hs: Vec<Handler>) -> Handler {
    Arc::new(move |e| {
        let mut f = Fold::new();
        for h in &hs {
            if f.push(h(e)?) {
                break;
            }
        }
        Ok(f.finish())
    })
}

/// Runs every handler and keeps the most restrictive decision.
pub fn all(hs: Vec<Handler>) -> Handler {
    Arc::new(move |e| {
        let mut out = Vec::with_capacity(hs.len());
        for h in &hs {
            out.push(h(e)?);
        }
        Ok(merge::merge_all(out))
    })
}

#[derive(Clone)]
enum Slot {
    Handler(Handler),
    Guarded(Arc<dyn Fn(&ToolCall) -> bool + Send + Sync>, Handler),
    Observer(Observer),
    Middleware(Middleware),
}

/// The registry of handlers, observers and middleware, plus the policy.
/// The core's [`Table`] holds the registrations; the closures sit beside
/// it, indexed by entry id.
#[derive(Clone, Default)]
pub struct Router {
    policy: Policy,
    table: Table,
    slots: Vec<Slot>,
}

impl Router {
    /// An empty router with the default policy.
    pub fn new() -> Router {
        Router::default()
    }

    fn register(&mut self, role: Role, on: On, when: When, slot: Slot) -> &mut Router {
        // Only an impossible entry count (over u32::MAX) fails here; the
        // registration is then dropped rather than panicking.
        if self.table.add(role, on, when).is_ok() {
            self.slots.push(slot);
        }
        self
    }

    /// Sets the policy.
    pub fn policy(mut self, p: Policy) -> Router {
        self.policy = p;
        self
    }

    /// The policy.
    pub fn get_policy(&self) -> &Policy {
        &self.policy
    }

    /// Registers a handler for a kind (stacks).
    pub fn on(&mut self, kind: Kind, h: Handler) -> &mut Router {
        self.register(
            Role::Handler,
            On::Kind(kind),
            When::Always,
            Slot::Handler(h),
        )
    }

    /// Registers a handler for a kind that runs only for tool calls `m`
    /// matches (the table's `when`: a non-matching handler is not called).
    pub fn on_when(&mut self, kind: Kind, m: impl Into<Matcher>, h: Handler) -> &mut Router {
        let m = m.into();
        let slot = match &m {
            Matcher::Predicate(p) => Slot::Guarded(p.clone(), h),
            _ => Slot::Handler(h),
        };
        self.register(Role::Handler, On::Kind(kind), m.spec(), slot)
    }

    /// Registers a handler for a native event name (for events the unified
    /// kinds do not cover; may gate them through `native`).
    pub fn on_native(&mut self, native_name: &str, h: Handler) -> &mut Router {
        self.register(
            Role::Handler,
            On::Native(native_name.to_string()),
            When::Always,
            Slot::Handler(h),
        )
    }

    /// `tool.pre` handler.
    pub fn on_tool_pre<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&ToolPreEvent<'_>) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(
            Kind::ToolPre,
            handler(move |e| {
                f(&ToolPreEvent {
                    event: e,
                    tool: tool_of(e),
                })
            }),
        )
    }

    /// `tool.post` handler.
    pub fn on_tool_post<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&ToolPostEvent<'_>) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(
            Kind::ToolPost,
            handler(move |e| {
                f(&ToolPostEvent {
                    event: e,
                    tool: tool_of(e),
                })
            }),
        )
    }

    /// `tool.error` handler.
    pub fn on_tool_error<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&ToolErrorEvent<'_>) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(
            Kind::ToolError,
            handler(move |e| {
                f(&ToolErrorEvent {
                    event: e,
                    tool: tool_of(e),
                })
            }),
        )
    }

    /// `permission.request` handler.
    pub fn on_permission_request<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&PermissionRequestEvent<'_>) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(
            Kind::PermissionRequest,
            handler(move |e| {
                f(&PermissionRequestEvent {
                    event: e,
                    tool: tool_of(e),
                })
            }),
        )
    }

    /// `prompt.submitted` handler.
    pub fn on_prompt<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&PromptEvent<'_>) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(
            Kind::PromptSubmitted,
            handler(move |e| {
                f(&PromptEvent {
                    event: e,
                    prompt: e.prompt.as_deref().unwrap_or(""),
                })
            }),
        )
    }

    /// `agent.stop` handler.
    pub fn on_stop<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&StopEvent<'_>) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(
            Kind::AgentStop,
            handler(move |e| {
                f(&StopEvent {
                    event: e,
                    stop: stop_of(e),
                })
            }),
        )
    }

    /// `subagent.stop` handler.
    pub fn on_subagent_stop<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&StopEvent<'_>) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(
            Kind::SubagentStop,
            handler(move |e| {
                f(&StopEvent {
                    event: e,
                    stop: stop_of(e),
                })
            }),
        )
    }

    /// `session.start` handler.
    pub fn on_session_start<F, R>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&Event) -> R + Send + Sync + 'static,
        R: IntoDecision,
    {
        self.on(Kind::SessionStart, handler(f))
    }

    /// Observer of every event (mapped or not); never gates.
    pub fn on_any<F>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&Event) + Send + Sync + 'static,
    {
        self.register(
            Role::Observer,
            On::Any,
            When::Always,
            Slot::Observer(Arc::new(f)),
        )
    }

    /// Middleware around the typed pipeline (outermost first); call `next`
    /// at most once.
    pub fn middleware<F>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&Event, Next<'_>) -> Result<Decision, Error> + Send + Sync + 'static,
    {
        self.register(
            Role::Middleware,
            On::Any,
            When::Always,
            Slot::Middleware(Arc::new(f)),
        )
    }

    /// Whether any handler is registered for this event.
    pub fn handles(&self, e: &Event) -> bool {
        self.table.handles(Key::of(e))
    }

    /// Whether deciding this event runs any user code (a handler, an
    /// observer or middleware); when not, the decision is "no opinion" and
    /// needs no handler thread or deadline.
    pub(crate) fn runs_user_code(&self, e: &Event) -> bool {
        self.table.runs_user_code(Key::of(e))
    }

    /// The core's registration table (what the bindings drive too).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Runs the pipeline for an event and returns the winning decision,
    /// with no wire encoding.
    pub fn decide(&self, e: &Event) -> Result<Decision, Error> {
        let d = RefCell::new(if e.backfilled {
            self.table.start_observers()
        } else {
            self.table.start(Key::of(e))
        });
        self.drive(&d, e)
    }

    /// Calls what the dispatch asks for until the current level answers.
    fn drive(&self, d: &RefCell<Dispatch>, e: &Event) -> Result<Decision, Error> {
        loop {
            let step = d.borrow_mut().step();
            let slot = |id: u32| self.slots.get(id as usize);
            match step {
                Step::Observe(id) => {
                    if let Some(Slot::Observer(o)) = slot(id) {
                        o(e);
                    }
                    d.borrow_mut().give(Outcome::NoDecision);
                }
                Step::Guard(id) => {
                    let held = match (slot(id), &e.tool) {
                        (Some(Slot::Guarded(p, _)), Some(t)) => p(t),
                        _ => false,
                    };
                    d.borrow_mut().guard(held);
                }
                Step::Handler(id) => {
                    let out = match slot(id) {
                        Some(Slot::Handler(h) | Slot::Guarded(_, h)) => outcome(h(e)),
                        _ => Outcome::NoDecision,
                    };
                    d.borrow_mut().give(out);
                }
                Step::Middleware { id, level } => {
                    let out = match slot(id) {
                        Some(Slot::Middleware(mw)) => {
                            let next = |ev: &Event| -> Result<Decision, Error> {
                                d.borrow_mut().enter(&self.table, level, Key::of(ev))?;
                                self.drive(d, ev)
                            };
                            outcome(mw(e, &next))
                        }
                        _ => Outcome::NoDecision,
                    };
                    d.borrow_mut().give(out);
                }
                Step::Return => return d.borrow_mut().result(),
            }
        }
    }
}

fn outcome(r: Result<Decision, Error>) -> Outcome {
    match r {
        Ok(d) => Outcome::Decision(d),
        Err(e) => Outcome::Error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DecisionKind, Provider};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};

    fn pre(cmd: &str) -> Event {
        let mut e = Event::new(Provider::ClaudeCode, "PreToolUse", Kind::ToolPre);
        e.tool = Some(ToolCall::new(
            Provider::ClaudeCode,
            "Bash",
            serde_json::json!({"command": cmd}),
            Some("t".into()),
        ));
        e
    }

    #[test]
    fn stacking_when_and_native() {
        let mut r = Router::new();
        r.on_tool_pre(|e| {
            if e.tool.command().contains("rm") {
                Decision::deny("rm")
            } else {
                Decision::no_decision().with_context("seen")
            }
        });
        r.on(
            Kind::ToolPre,
            when(Canonical::Shell, handler(|_e| Decision::ask("shell"))),
        );
        r.on(
            Kind::ToolPre,
            when("Write|Edit", handler(|_e| Decision::deny("never for Bash"))),
        );
        assert_eq!(r.decide(&pre("rm -rf x")).unwrap().kind, DecisionKind::Deny);
        let d = r.decide(&pre("ls")).unwrap();
        assert_eq!(
            (d.kind, d.context.clone()),
            (DecisionKind::Ask, vec!["seen".to_string()])
        );
        let mut other = Event::new(Provider::ClaudeCode, "ConfigChange", Kind::Other);
        assert_eq!(r.decide(&other).unwrap(), Decision::no_decision());
        r.on_native(
            "ConfigChange",
            handler(|_e| Decision::no_decision().with_system_message("config changed")),
        );
        other.source = Some("user_settings".into());
        assert_eq!(
            r.decide(&other).unwrap().system_message.as_deref(),
            Some("config changed")
        );
    }

    #[test]
    fn middleware_wraps_outermost_first_and_next_once() {
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut r = Router::new();
        let o1 = order.clone();
        r.middleware(move |e, next| {
            o1.lock().unwrap().push("outer");
            next(e)
        });
        let o2 = order.clone();
        r.middleware(move |e, next| {
            o2.lock().unwrap().push("inner");
            let d = next(e)?;
            Ok(d.with_context("from middleware"))
        });
        let seen = Arc::new(AtomicBool::new(false));
        let s2 = seen.clone();
        r.on_any(move |_e| s2.store(true, Ordering::SeqCst));
        r.on_tool_pre(|_e| Decision::allow());
        let d = r.decide(&pre("ls")).unwrap();
        assert_eq!(d.kind, DecisionKind::Allow);
        assert_eq!(d.context, vec!["from middleware"]);
        assert_eq!(*order.lock().unwrap(), vec!["outer", "inner"]);
        assert!(seen.load(Ordering::SeqCst), "observer ran");

        let mut twice = Router::new();
        twice.middleware(|e, next| {
            let _ = next(e)?;
            next(e)
        });
        assert_eq!(
            twice.decide(&pre("ls")).unwrap_err().code().as_str(),
            "handler_error"
        );
    }

    #[test]
    fn handler_results_and_errors() {
        let mut r = Router::new();
        r.on_tool_pre(|_e| -> Result<Decision, String> { Err("db down".into()) });
        let err = r.decide(&pre("ls")).unwrap_err();
        assert_eq!(err.code().as_str(), "handler_error");
        assert!(err.to_string().contains("db down"));
    }
}
