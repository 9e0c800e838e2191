//! The router: Kotlin's handlers, observers and middleware registered on
//! the core's `Router` (its dispatch table and fold), and the hook process
//! run around it (`runtime::launch` / `run_plan`, the serve loop).
//!
//! Nothing of the dispatch is decided here: each foreign callable becomes
//! a core closure, and the core's `Router::decide` walks its table (order,
//! `when`, the fold, middleware and observer rules, errors) exactly as it
//! does for a Rust hook.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;

use agenthooks::dispatch::{Key, When, observer_failed};
use agenthooks::runtime::{self, Launch};
use agenthooks::{Decision, Error, Event, Kind, Matcher, ToolCall};

use crate::error::{AgentHooksError, core_error};
use crate::event::{HookEvent, Response, decision, policy};

/// What a handler or middleware answered.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum Outcome {
    /// A decision (its JSON); `None` is no decision.
    Decided {
        /// The decision JSON, or `None` for no decision.
        json: Option<String>,
    },
    /// The callable failed: `code` an error id (`None` or unknown:
    /// `handler_error`), `message` its text.
    Failed {
        /// The error id.
        code: Option<String>,
        /// The error text.
        message: String,
    },
}

/// A handler: the event in, an outcome out. Called on a core thread (the
/// handler thread the deadline watches), one call at a time per event.
#[uniffi::export(with_foreign)]
pub trait Handler: Send + Sync {
    /// Decides one event.
    fn handle(&self, event: Arc<HookEvent>) -> Outcome;
}

/// An observer of every event (`onAny`): never gates; a failure (a
/// returned message) is a warning on stderr.
#[uniffi::export(with_foreign)]
pub trait Observer: Send + Sync {
    /// Sees one event; `Some(message)` when it failed.
    fn observe(&self, event: Arc<HookEvent>) -> Option<String>;
}

/// Middleware around the typed pipeline: call `next` at most once, on the
/// calling thread, before returning.
#[uniffi::export(with_foreign)]
pub trait Middleware: Send + Sync {
    /// Wraps one event's dispatch.
    fn handle(&self, event: Arc<HookEvent>, next: Arc<Next>) -> Outcome;
}

/// The facets of a tool call a `when` predicate sees.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ToolInfo {
    /// The native tool name.
    pub name: String,
    /// The canonical class (`shell`, `edit`, ...).
    pub canonical: String,
    /// The shell command, or `""`.
    pub command: String,
    /// The input object as JSON.
    pub input_json: String,
}

/// A `when` predicate over a tool call (the table's `guard`).
#[uniffi::export(with_foreign)]
pub trait ToolPredicate: Send + Sync {
    /// Whether the handler runs for this tool call.
    fn test(&self, tool: ToolInfo) -> bool;
}

type NextFn = dyn Fn(&Event) -> Result<Decision, Error>;

/// The raw `next` of one middleware call. Only dereferenced on the thread
/// that made it while the middleware call is running (see [`Next::call`]).
struct NextPtr(*const NextFn);

// SAFETY: the pointer is only dereferenced on the thread recorded in
// `Next::thread` (checked before each use) and only while the middleware
// frame that owns the referent is live (the slot is cleared, on that
// thread, before the frame returns); other threads only see `None` or get
// an error.
unsafe impl Send for NextPtr {}
// SAFETY: as for Send.
unsafe impl Sync for NextPtr {}

/// The rest of the pipeline, handed to a middleware. Valid only during the
/// middleware call and only on its thread; afterwards (or elsewhere)
/// calling it fails with `handler_error`.
#[derive(uniffi::Object)]
pub struct Next {
    slot: Mutex<Option<NextPtr>>,
    thread: ThreadId,
}

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Next")
    }
}

/// Clears a `Next` when the middleware call ends (also on unwinding).
struct Expire<'a>(&'a Next);

impl Drop for Expire<'_> {
    fn drop(&mut self) {
        *lock(&self.0.slot) = None;
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[uniffi::export]
impl Next {
    /// Runs the rest of the pipeline for `event`: its decision JSON
    /// (`None`: no decision) or its error.
    pub fn call(&self, event: Arc<HookEvent>) -> Result<Option<String>, AgentHooksError> {
        if std::thread::current().id() != self.thread {
            return Err(AgentHooksError::HandlerError(
                "next must be called on the middleware's own thread".into(),
            ));
        }
        let ptr = match &*lock(&self.slot) {
            Some(p) => p.0,
            None => {
                return Err(AgentHooksError::HandlerError(
                    "next called after the middleware returned".into(),
                ));
            }
        };
        // SAFETY: same thread as the middleware call (checked above) and
        // the slot is still set, so that call has not returned and the
        // `next` it was given is live.
        let f = unsafe { &*ptr };
        match f(&event.inner) {
            Ok(d) => Ok(json_of(&d)),
            Err(e) => Err(e.into()),
        }
    }
}

fn json_of(d: &Decision) -> Option<String> {
    Some(d.to_json())
}

fn outcome(o: Outcome) -> Result<Decision, Error> {
    match o {
        Outcome::Decided { json } => decision(json.as_deref()),
        Outcome::Failed { code, message } => Err(core_error(code.as_deref(), &message)),
    }
}

fn tool_info(t: &ToolCall) -> ToolInfo {
    ToolInfo {
        name: t.name.clone(),
        canonical: t.canonical.as_str().to_string(),
        command: t.command().to_string(),
        input_json: serde_json::to_string(&t.input).unwrap_or_else(|_| "{}".into()),
    }
}

fn core_handler(h: Arc<dyn Handler>) -> agenthooks::Handler {
    Arc::new(move |e: &Event| outcome(h.handle(HookEvent::of(e.clone()))))
}

/// A router: handlers, observers and middleware, plus the policy.
#[derive(uniffi::Object)]
pub struct Router {
    inner: Mutex<agenthooks::Router>,
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Router")
    }
}

impl Router {
    fn snapshot(&self) -> Arc<agenthooks::Router> {
        Arc::new(lock(&self.inner).clone())
    }
}

/// A `when` spec: `canonical:<class>` or `names:<A|B>`.
fn matcher(spec: &str) -> Result<Matcher, AgentHooksError> {
    match When::parse(spec)? {
        When::Canonical(c) => Ok(Matcher::Canonical(c)),
        When::Names(n) => Ok(Matcher::Names(n)),
        _ => Err(AgentHooksError::invalid(format!(
            "when must be `canonical:<class>` or `names:<A|B>`, got `{spec}` (a predicate: onGuarded)"
        ))),
    }
}

/// `kind:<kind>`, `native:<name>` or a bare kind spelling.
enum On {
    Kind(Kind),
    Native(String),
}

fn on(spec: &str) -> Result<On, AgentHooksError> {
    if let Some(n) = spec.strip_prefix("native:") {
        if n.is_empty() {
            return Err(AgentHooksError::invalid("native: needs an event name"));
        }
        return Ok(On::Native(n.to_string()));
    }
    let k = spec.strip_prefix("kind:").unwrap_or(spec);
    Ok(On::Kind(Kind::parse(k)?))
}

#[uniffi::export]
impl Router {
    /// An empty router with the default policy (or `policy_json`, a
    /// partial policy).
    #[uniffi::constructor]
    pub fn new(policy_json: Option<String>) -> Result<Arc<Router>, AgentHooksError> {
        let r = agenthooks::Router::new().policy(policy(policy_json)?);
        Ok(Arc::new(Router {
            inner: Mutex::new(r),
        }))
    }

    /// Replaces the policy (a partial policy as JSON).
    pub fn set_policy(&self, policy_json: String) -> Result<(), AgentHooksError> {
        let p = policy(Some(policy_json))?;
        let mut g = lock(&self.inner);
        let r = std::mem::take(&mut *g);
        *g = r.policy(p);
        Ok(())
    }

    /// The policy, as JSON.
    pub fn policy_json(&self) -> String {
        serde_json::to_string(lock(&self.inner).get_policy()).unwrap_or_else(|_| "{}".into())
    }

    /// Registers a handler. `on`: `kind:<kind>` (any spelling, or a bare
    /// kind) or `native:<native event name>`; `when` (kind handlers
    /// only): `canonical:<class>` or `names:<A|B>`.
    pub fn on(
        &self,
        on: String,
        when: Option<String>,
        handler: Arc<dyn Handler>,
    ) -> Result<(), AgentHooksError> {
        let when = when.filter(|w| !w.is_empty());
        let h = core_handler(handler);
        let mut r = lock(&self.inner);
        match (self::on(&on)?, when) {
            (On::Native(n), None) => {
                r.on_native(&n, h);
            }
            (On::Native(_), Some(_)) => {
                return Err(AgentHooksError::invalid("native handlers take no when"));
            }
            (On::Kind(k), None) => {
                r.on(k, h);
            }
            (On::Kind(k), Some(w)) => {
                r.on_when(k, matcher(&w)?, h);
            }
        }
        Ok(())
    }

    /// Registers a handler on a kind that runs only for tool calls the
    /// predicate admits (the table's `guard`).
    pub fn on_guarded(
        &self,
        kind: String,
        predicate: Arc<dyn ToolPredicate>,
        handler: Arc<dyn Handler>,
    ) -> Result<(), AgentHooksError> {
        let k = Kind::parse(kind.strip_prefix("kind:").unwrap_or(&kind))?;
        let m = Matcher::Predicate(Arc::new(move |t: &ToolCall| predicate.test(tool_info(t))));
        lock(&self.inner).on_when(k, m, core_handler(handler));
        Ok(())
    }

    /// Registers an observer of every event.
    pub fn on_any(&self, observer: Arc<dyn Observer>) {
        lock(&self.inner).on_any(move |e: &Event| {
            if let Some(m) = observer.observe(HookEvent::of(e.clone())) {
                // Writes the warning line on stderr (every language's rule).
                let _ = observer_failed(&m);
            }
        });
    }

    /// Registers middleware (outermost first).
    pub fn middleware(&self, middleware: Arc<dyn Middleware>) {
        lock(&self.inner).middleware(move |e: &Event, next| {
            // SAFETY (lifetime erasure): the pointer is cleared by `_expire`
            // before this frame returns, and `Next::call` uses it only on
            // this thread while it is set, so it never outlives `next`.
            let ptr: *const NextFn = unsafe {
                std::mem::transmute::<
                    *const (dyn Fn(&Event) -> Result<Decision, Error> + '_),
                    *const NextFn,
                >(next as *const _)
            };
            let n = Arc::new(Next {
                slot: Mutex::new(Some(NextPtr(ptr))),
                thread: std::thread::current().id(),
            });
            let _expire = Expire(&n);
            outcome(middleware.handle(HookEvent::of(e.clone()), n.clone()))
        });
    }

    /// Whether a handler is registered for the event's kind or native name.
    pub fn handles(&self, event: Arc<HookEvent>) -> bool {
        lock(&self.inner).table().handles(Key::of(&event.inner))
    }

    /// Runs the pipeline for an event: the winning decision's JSON, with
    /// no wire encoding and no deadline (see `run` for a whole call).
    pub fn decide(&self, event: Arc<HookEvent>) -> Result<String, AgentHooksError> {
        let r = self.snapshot();
        let d = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| r.decide(&event.inner)))
            .map_err(|p| AgentHooksError::Panic(runtime::panic_message(p.as_ref())))?;
        Ok(d?.to_json())
    }

    /// A hook process's whole answer for `argv` (program first) and these
    /// stdin bytes, in-process: what `run_process` writes, without
    /// touching the process's stdio. `state_dir` (tests, embedding): where
    /// cross-process state lives, else the user's.
    pub fn run(&self, argv: Vec<String>, stdin: Vec<u8>, state_dir: Option<String>) -> Response {
        let r = self.snapshot();
        match runtime::launch(&argv) {
            Launch::Answer(a) => a.into(),
            Launch::Serve(plan) => Response {
                stdout: String::new(),
                stderr: format!(
                    "{}agenthooks: `serve` runs only as a process\n",
                    plan.warnings
                ),
                exit_code: 2,
                notes: Vec::new(),
            },
            Launch::Run(mut plan) => {
                if let Some(d) = state_dir {
                    plan.args.state_dir = Some(d.into());
                }
                let bytes = runtime::read_bounded(&stdin[..], plan.read_limit());
                runtime::run_plan(r, &plan, bytes).into()
            }
        }
    }

    /// The whole hook process (`main`): parses argv, reads stdin, runs the
    /// router (or the `serve` loop), writes the answer on the real stdout
    /// (stray prints go to stderr) and returns the exit code.
    pub fn run_process(&self, argv: Vec<String>) -> i32 {
        let r = lock(&self.inner).clone();
        agenthooks::process::run_process(r, &argv)
    }

    /// The serve loop in-process (tests, embedding): argv (program first,
    /// `agenthooks serve --provider=...`), all input lines; returns every
    /// reply line written.
    pub fn serve(&self, argv: Vec<String>, input: Vec<u8>) -> Result<Vec<u8>, AgentHooksError> {
        let plan = match runtime::launch(&argv) {
            Launch::Serve(plan) => plan,
            _ => {
                return Err(AgentHooksError::invalid(
                    "argv must be `<program> agenthooks serve --provider=...`",
                ));
            }
        };
        let out = Arc::new(Mutex::new(Vec::<u8>::new()));
        let sink: agenthooks::serve::Sink = out.clone();
        agenthooks::serve::serve(self.snapshot(), &plan.args, &input[..], sink)?;
        let bytes = std::mem::take(&mut *lock(&out));
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRE: &[u8] = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}"#;

    fn event() -> Arc<HookEvent> {
        crate::event::decode("claude-code".into(), PRE.to_vec(), None).expect("decodes")
    }

    struct Deny;
    impl Handler for Deny {
        fn handle(&self, event: Arc<HookEvent>) -> Outcome {
            Outcome::Decided {
                json: Some(format!(
                    r#"{{"kind":"deny","reason":"{}"}}"#,
                    event.command()
                )),
            }
        }
    }

    /// Calls next once and keeps it, to call again after returning.
    struct Keeper(Mutex<Option<Arc<Next>>>);
    impl Middleware for Keeper {
        fn handle(&self, event: Arc<HookEvent>, next: Arc<Next>) -> Outcome {
            let got = next.call(event).expect("next answers");
            *lock(&self.0) = Some(next);
            Outcome::Decided { json: got }
        }
    }

    #[test]
    fn middleware_next_runs_the_handlers_and_expires() {
        let r = Router::new(None).unwrap();
        r.on("tool.pre".into(), None, Arc::new(Deny)).unwrap();
        let keeper = Arc::new(Keeper(Mutex::new(None)));
        r.middleware(keeper.clone());
        let d = r.decide(event()).unwrap();
        assert!(d.contains(r#""reason":"rm -rf /""#), "{d}");
        let kept = lock(&keeper.0).clone().expect("middleware ran");
        match kept.call(event()) {
            Err(AgentHooksError::HandlerError(m)) => assert!(m.contains("after"), "{m}"),
            other => panic!("a stale next must fail: {other:?}"),
        }
    }

    #[test]
    fn next_refuses_other_threads() {
        struct Elsewhere;
        impl Middleware for Elsewhere {
            fn handle(&self, event: Arc<HookEvent>, next: Arc<Next>) -> Outcome {
                let r = std::thread::spawn(move || next.call(event)).join().unwrap();
                match r {
                    Err(e) => Outcome::Failed {
                        code: Some("handler_error".into()),
                        message: e.to_string(),
                    },
                    Ok(_) => Outcome::Decided { json: None },
                }
            }
        }
        let r = Router::new(None).unwrap();
        r.on("tool.pre".into(), None, Arc::new(Deny)).unwrap();
        r.middleware(Arc::new(Elsewhere));
        match r.decide(event()) {
            Err(AgentHooksError::HandlerError(m)) => assert!(m.contains("own thread"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn failures_keep_their_code_and_bad_specs_are_refused() {
        struct Fails;
        impl Handler for Fails {
            fn handle(&self, _: Arc<HookEvent>) -> Outcome {
                Outcome::Failed {
                    code: Some("lossy_update".into()),
                    message: "m".into(),
                }
            }
        }
        let r = Router::new(Some(r#"{"fail":"closed"}"#.into())).unwrap();
        r.on(
            "kind:tool.pre".into(),
            Some("canonical:shell".into()),
            Arc::new(Fails),
        )
        .unwrap();
        assert!(matches!(
            r.decide(event()),
            Err(AgentHooksError::LossyUpdate(_))
        ));
        assert!(matches!(
            r.on("kind:nope".into(), None, Arc::new(Deny)),
            Err(AgentHooksError::UnknownEventSpelling(_))
        ));
        assert!(matches!(
            r.on("native:X".into(), Some("names:A".into()), Arc::new(Deny)),
            Err(AgentHooksError::InvalidArgument(_))
        ));
        assert!(matches!(
            Router::new(Some(r#"{"fail":"sideways"}"#.into())),
            Err(AgentHooksError::InvalidArgument(_))
        ));
        let resp = r.run(
            vec![
                "g".into(),
                "agenthooks".into(),
                "run".into(),
                "--provider=claude-code".into(),
            ],
            PRE.to_vec(),
            None,
        );
        assert!(resp.stdout.contains("deny"), "fail-closed answer: {resp:?}");
        assert!(resp.stderr.contains("lossy_update"), "{resp:?}");
    }
}
