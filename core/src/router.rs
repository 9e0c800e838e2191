//! Handler registration and dispatch for Rust authors. Semantics (the same
//! in every language): registration per kind stacks; the first conclusive
//! decision wins ([`crate::merge`]); observers see every event and never
//! gate; middleware wraps the typed pipeline, outermost first.

use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
            Matcher::Canonical(c) => t.canonical == *c,
            Matcher::Names(n) => n.iter().any(|n| n == &t.name),
            Matcher::Predicate(p) => p(t),
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
        Matcher::Names(
            s.split('|')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect(),
        )
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

/// The registry of handlers, observers and middleware, plus the policy.
#[derive(Clone, Default)]
pub struct Router {
    policy: Policy,
    by_kind: HashMap<Kind, Vec<Handler>>,
    by_native: HashMap<String, Vec<Handler>>,
    observers: Vec<Observer>,
    middleware: Vec<Middleware>,
}

impl Router {
    /// An empty router with the default policy.
    pub fn new() -> Router {
        Router::default()
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
        self.by_kind.entry(kind).or_default().push(h);
        self
    }

    /// Registers a handler for a native event name (for events the unified
    /// kinds do not cover; may gate them through `native`).
    pub fn on_native(&mut self, native_name: &str, h: Handler) -> &mut Router {
        self.by_native
            .entry(native_name.to_string())
            .or_default()
            .push(h);
        self
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
        self.observers.push(Arc::new(f));
        self
    }

    /// Middleware around the typed pipeline (outermost first); call `next`
    /// at most once.
    pub fn middleware<F>(&mut self, f: F) -> &mut Router
    where
        F: Fn(&Event, Next<'_>) -> Result<Decision, Error> + Send + Sync + 'static,
    {
        self.middleware.push(Arc::new(f));
        self
    }

    /// Whether any handler is registered for this event.
    pub fn handles(&self, e: &Event) -> bool {
        self.by_kind.get(&e.kind).is_some_and(|v| !v.is_empty())
            || self
                .by_native
                .get(&e.native_name)
                .is_some_and(|v| !v.is_empty())
    }

    /// Whether deciding this event runs any user code (a handler, an
    /// observer or middleware); when not, the decision is "no opinion" and
    /// needs no handler thread or deadline.
    pub(crate) fn runs_user_code(&self, e: &Event) -> bool {
        !self.observers.is_empty() || !self.middleware.is_empty() || self.handles(e)
    }

    /// Runs the pipeline for an event and returns the winning decision,
    /// with no wire encoding.
    pub fn decide(&self, e: &Event) -> Result<Decision, Error> {
        for o in &self.observers {
            o(e);
        }
        self.run_middleware(0, e)
    }

    fn run_middleware(&self, i: usize, e: &Event) -> Result<Decision, Error> {
        let Some(mw) = self.middleware.get(i) else {
            return self.dispatch(e);
        };
        let called = AtomicBool::new(false);
        let next = |ev: &Event| -> Result<Decision, Error> {
            if called.swap(true, Ordering::SeqCst) {
                return Err(Error::Handler {
                    message: "middleware called next more than once".into(),
                });
            }
            self.run_middleware(i + 1, ev)
        };
        mw(e, &next)
    }

    fn dispatch(&self, e: &Event) -> Result<Decision, Error> {
        let mut f = Fold::new();
        let chains = [
            self.by_native.get(&e.native_name),
            self.by_kind.get(&e.kind),
        ];
        for h in chains.into_iter().flatten().flatten() {
            if f.push(h(e)?) {
                break;
            }
        }
        Ok(f.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DecisionKind, Provider};
    use std::sync::Mutex;

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
