"""The router: handler registration and dispatch.

A thin driver over the core's dispatch table (``_native.RouterTable``,
rules in ``core/src/dispatch.rs``): registration goes into the core's table,
and ``decide`` calls what the core asks for (observers, middleware, guards,
handlers) and hands each outcome back; the order, ``when``, the fold and
the middleware and observer rules (errors included) are the core's. In
short: native-name handlers run before kind handlers, registration order,
first conclusive decision wins; observers see every event and never gate (a
failing one is a warning on stderr); middleware wraps the handlers,
outermost first, and calls ``next`` at most once.

Handlers take the event of their kind's class and return a ``Decision``
(``None`` means ``no_decision``). ``async def`` handlers, observers and
middleware are awaited on an event loop of the calling thread.
"""

from __future__ import annotations

import _thread

from . import _native
from ._native import Decision
from .errors import HandlerError

# Nothing heavy at import (a hook process starts on every tool call):
# asyncio is imported on the first awaitable, typing only by type checkers.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import asyncio
    from typing import Any, Awaitable, Callable, Dict, List, Optional, TypeVar, Union

    from ._native import (
        CompactPostEvent,
        CompactPreEvent,
        Event,
        FileEditedEvent,
        ModelRequestEvent,
        ModelResponseEvent,
        NotificationEvent,
        OtherEvent,
        PermissionRequestEvent,
        Policy,
        PromptEvent,
        SessionEndEvent,
        SessionStartEvent,
        StopEvent,
        SubagentStartEvent,
        SubagentStopEvent,
        ToolCall,
        ToolErrorEvent,
        ToolPostEvent,
        ToolPreEvent,
    )
    from .enums import Canonical, Kind

    #: What a handler may return: a decision, None (no decision), or an
    #: awaitable of either (``async def`` handlers).
    HandlerResult = Union[Decision, None, Awaitable[Optional[Decision]]]
    E = TypeVar("E", bound=Event)
    R = TypeVar("R", bound=HandlerResult)
    #: A handler of events of type ``E``.
    Handler = Callable[[E], HandlerResult]
    #: The rest of the pipeline, given to middleware.
    Next = Callable[[Event], Decision]
    #: Middleware: ``(event, next) -> decision``; call ``next`` at most once.
    Middleware = Callable[[Event, Next], HandlerResult]
    #: An observer of every event; its return value is ignored.
    Observer = Callable[[Event], object]
    #: What ``when`` tests a tool call against: a ``Canonical`` class,
    #: native tool names (``"Write|Edit"``), or a predicate over the ``ToolCall``.
    Matcher = Union[Canonical, str, Callable[[ToolCall], bool]]

__all__ = [
    "Router",
    "HandlerResult",
    "Handler",
    "Next",
    "Middleware",
    "Observer",
    "Matcher",
    "when",
    "any_of",
    "all_of",
]


def _typing_aliases() -> dict:  # type: ignore[type-arg]
    """The typing aliases, built on first runtime use (e.g. an annotation
    evaluated at definition time without ``from __future__ import annotations``)."""
    from typing import Awaitable, Callable, Optional, TypeVar, Union

    from ._native import Event, ToolCall
    from .enums import Canonical

    result = Union[Decision, None, Awaitable[Optional[Decision]]]
    e = TypeVar("e", bound=Event)
    nxt = Callable[[Event], Decision]
    return {
        "HandlerResult": result,
        "Handler": Callable[[e], result],
        "Next": nxt,
        "Middleware": Callable[[Event, nxt], result],
        "Observer": Callable[[Event], object],
        "Matcher": Union[Canonical, str, Callable[[ToolCall], bool]],
    }


_ALIASES = ("HandlerResult", "Handler", "Next", "Middleware", "Observer", "Matcher")


def __getattr__(name: str) -> object:
    if name in _ALIASES:
        aliases = _typing_aliases()
        globals().update(aliases)
        return aliases[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_NO_DECISION = _native.no_decision()
# The core's entry roles (dispatch::Role).
_HANDLER_ROLE, _OBSERVER_ROLE, _MIDDLEWARE_ROLE = 0, 1, 2
_local = _thread._local()


async def _wrap(aw: Awaitable[Any]) -> Any:
    return await aw


def _run_fresh(aw: Awaitable[Any]) -> Any:
    """Runs an awaitable on a new loop in a helper thread (used when the
    calling thread's loop is already running)."""
    import asyncio

    box: List[Any] = []
    done = _thread.allocate_lock()
    done.acquire()

    def work() -> None:
        try:
            box.append((True, asyncio.run(_wrap(aw))))
        except BaseException as e:  # handed back to the caller below
            box.append((False, e))
        finally:
            done.release()

    _thread.start_new_thread(work, ())
    done.acquire()
    ok, value = box[0]
    if not ok:
        raise value
    return value


# The event loop of the `decide` call running on this thread: created on
# the first awaitable, closed when the call returns (so async handlers of
# one event share a loop, and no loop outlives its event).
_PENDING = object()


def _await(aw: Awaitable[Any]) -> Any:
    """The result of an awaitable, from synchronous code."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        # This thread's loop is busy (async middleware calling next, or
        # decide() called from async code): use a helper thread's loop.
        return _run_fresh(aw)
    loop = getattr(_local, "loop", None)
    if loop is None:
        # Outside decide() (e.g. a combinator called directly).
        return asyncio.run(_wrap(aw))
    if loop is _PENDING:
        loop = asyncio.new_event_loop()
        _local.loop = loop
    return loop.run_until_complete(_wrap(aw))


def _close_loop(loop: asyncio.AbstractEventLoop) -> None:
    try:
        loop.run_until_complete(loop.shutdown_asyncgens())
    finally:
        loop.close()


def _is_awaitable(x: object) -> bool:
    # `inspect.isawaitable` without importing inspect (~10 ms).
    return hasattr(type(x), "__await__")


def _resolve(result: object, what: str) -> Decision:
    """A handler's return value as a decision (awaiting it if needed)."""
    if type(result) is Decision:
        return result
    if result is None:
        return _NO_DECISION
    if _is_awaitable(result):
        result = _await(result)  # type: ignore[arg-type]
        if result is None:
            return _NO_DECISION
    if isinstance(result, Decision):
        return result
    raise HandlerError(
        f"{what} returned {type(result).__name__}; expected a Decision or None"
    )


def _when_spec(matcher: Matcher) -> str:
    """The core's ``when`` spec for a matcher (a predicate is a ``guard``)."""
    from .enums import Canonical

    if isinstance(matcher, Canonical):
        return "canonical:" + matcher.value
    if isinstance(matcher, str):
        return "names:" + matcher
    return "guard"


def when(matcher: Matcher, handler: Callable[[E], HandlerResult]) -> Callable[[E], HandlerResult]:
    """Runs ``handler`` only for tool calls ``matcher`` matches (else no
    decision). ``matcher``: a ``Canonical`` class (``Canonical.SHELL``),
    native tool names separated by ``|`` (``"Write|Edit"``), or a predicate
    over the ``ToolCall``. Events without a tool call never match. Registered
    on a router, the core's table applies the test (a non-matching handler
    is not called)."""
    spec = _when_spec(matcher)

    def run(event: E) -> HandlerResult:
        if spec == "guard":
            hit = event.tool is not None and bool(matcher(event.tool))  # type: ignore[operator]
        else:
            hit = _native.when_matches(spec, event)
        return handler(event) if hit else None

    run._ah_when = (spec, handler, matcher)  # type: ignore[attr-defined]
    return run


def any_of(*handlers: Callable[[E], HandlerResult]) -> Callable[[E], Decision]:
    """Stacking semantics over several handlers: they run in order and the
    first conclusive decision wins (the core's fold)."""

    def run(event: E) -> Decision:
        fold = _native.Fold()
        for h in handlers:
            if fold.push(_resolve(h(event), "handler")):
                break
        return fold.finish()

    return run


def all_of(*handlers: Callable[[E], HandlerResult]) -> Callable[[E], Decision]:
    """Runs every handler and keeps the most restrictive decision, with the
    context of all (the core's ``merge_all``)."""

    def run(event: E) -> Decision:
        return _native.merge_all([_resolve(h(event), "handler") for h in handlers])

    return run


class Router:
    """The registry of handlers, observers and middleware, plus the policy.

    >>> router = Router(policy=Policy(fail="closed"))
    >>> @router.on_tool_pre
    ... def guard(event: ToolPreEvent) -> Decision:
    ...     return _native.no_decision()
    """

    def __init__(self, policy: Optional[Policy] = None) -> None:
        self.policy: Policy = policy if policy is not None else _native.Policy()
        # Without the native core (the failsafe stand-in) there is no table:
        # registration still works and the failsafe reads _by_kind /
        # _by_native to see what the router could gate.
        self._table: Any = None if hasattr(_native, "NATIVE_UNAVAILABLE") else _native.RouterTable()
        self._by_kind: Dict[str, List[Callable[..., Any]]] = {}
        self._by_native: Dict[str, List[Callable[..., Any]]] = {}
        # The callables, by the core's entry id; guards beside them.
        self._fns: List[Callable[..., Any]] = []
        self._guards: Dict[int, Callable[[ToolCall], object]] = {}
        self._observers: List[Observer] = []
        self._middleware: List[Middleware] = []

    # -- registration -------------------------------------------------

    def _register(self, role: int, on: str, fn: Callable[..., Any]) -> None:
        spec = getattr(fn, "_ah_when", None) if role == _HANDLER_ROLE else None
        when, call = "", fn
        if spec is not None:
            when, call, pred = spec
        if on.startswith("kind:"):
            self._by_kind.setdefault(on[5:], []).append(fn)
        elif on.startswith("native:"):
            self._by_native.setdefault(on[7:], []).append(fn)
        if self._table is None:
            return
        i = self._table.add(role, on, when)
        self._fns.append(call)
        if when == "guard":
            self._guards[i] = pred

    def add(self, kind: Union[Kind, str], handler: Callable[[Any], HandlerResult]) -> None:
        """Registers a handler for a kind (any spelling: ``"tool.pre"``,
        ``"PreToolUse"``, ``Kind.TOOL_PRE``). Handlers stack."""
        self._register(_HANDLER_ROLE, "kind:" + _native.parse_kind(str(kind)), handler)

    def on(
        self, kind: Union[Kind, str]
    ) -> Callable[[Callable[[Event], R]], Callable[[Event], R]]:
        """Decorator: registers a handler for a kind (any spelling)."""

        def register(fn: Callable[[Event], R]) -> Callable[[Event], R]:
            self.add(kind, fn)
            return fn

        return register

    def on_native(
        self, native_name: str
    ) -> Callable[[Callable[[Event], R]], Callable[[Event], R]]:
        """Decorator: registers a handler for a native event name (for
        events the unified kinds do not cover). Native handlers run before
        the kind's handlers."""

        def register(fn: Callable[[Event], R]) -> Callable[[Event], R]:
            self._register(_HANDLER_ROLE, "native:" + native_name, fn)
            return fn

        return register

    def on_tool_pre(self, fn: Callable[[ToolPreEvent], R]) -> Callable[[ToolPreEvent], R]:
        """``tool.pre``: a tool is about to run."""
        self._register(_HANDLER_ROLE, "kind:tool.pre", fn)
        return fn

    def on_tool_post(self, fn: Callable[[ToolPostEvent], R]) -> Callable[[ToolPostEvent], R]:
        """``tool.post``: a tool ran."""
        self._register(_HANDLER_ROLE, "kind:tool.post", fn)
        return fn

    def on_tool_error(
        self, fn: Callable[[ToolErrorEvent], R]
    ) -> Callable[[ToolErrorEvent], R]:
        """``tool.error``: a tool failed."""
        self._register(_HANDLER_ROLE, "kind:tool.error", fn)
        return fn

    def on_permission_request(
        self, fn: Callable[[PermissionRequestEvent], R]
    ) -> Callable[[PermissionRequestEvent], R]:
        """``permission.request``: the agent is about to ask the user."""
        self._register(_HANDLER_ROLE, "kind:permission.request", fn)
        return fn

    def on_prompt(self, fn: Callable[[PromptEvent], R]) -> Callable[[PromptEvent], R]:
        """``prompt.submitted``: the user submitted a prompt."""
        self._register(_HANDLER_ROLE, "kind:prompt.submitted", fn)
        return fn

    def on_stop(self, fn: Callable[[StopEvent], R]) -> Callable[[StopEvent], R]:
        """``agent.stop``: the main agent is about to stop."""
        self._register(_HANDLER_ROLE, "kind:agent.stop", fn)
        return fn

    def on_subagent_stop(
        self, fn: Callable[[SubagentStopEvent], R]
    ) -> Callable[[SubagentStopEvent], R]:
        """``subagent.stop``: a subagent is about to stop."""
        self._register(_HANDLER_ROLE, "kind:subagent.stop", fn)
        return fn

    def on_session_start(
        self, fn: Callable[[SessionStartEvent], R]
    ) -> Callable[[SessionStartEvent], R]:
        """``session.start``: a session began or resumed."""
        self._register(_HANDLER_ROLE, "kind:session.start", fn)
        return fn

    def on_session_end(
        self, fn: Callable[[SessionEndEvent], R]
    ) -> Callable[[SessionEndEvent], R]:
        """``session.end``: a session ended."""
        self._register(_HANDLER_ROLE, "kind:session.end", fn)
        return fn

    def on_subagent_start(
        self, fn: Callable[[SubagentStartEvent], R]
    ) -> Callable[[SubagentStartEvent], R]:
        """``subagent.start``: a subagent started."""
        self._register(_HANDLER_ROLE, "kind:subagent.start", fn)
        return fn

    def on_compact_pre(
        self, fn: Callable[[CompactPreEvent], R]
    ) -> Callable[[CompactPreEvent], R]:
        """``compact.pre``: context compaction is about to run."""
        self._register(_HANDLER_ROLE, "kind:compact.pre", fn)
        return fn

    def on_compact_post(
        self, fn: Callable[[CompactPostEvent], R]
    ) -> Callable[[CompactPostEvent], R]:
        """``compact.post``: context compaction ran."""
        self._register(_HANDLER_ROLE, "kind:compact.post", fn)
        return fn

    def on_notification(
        self, fn: Callable[[NotificationEvent], R]
    ) -> Callable[[NotificationEvent], R]:
        """``notification``: the agent sent a notification."""
        self._register(_HANDLER_ROLE, "kind:notification", fn)
        return fn

    def on_file_edited(
        self, fn: Callable[[FileEditedEvent], R]
    ) -> Callable[[FileEditedEvent], R]:
        """``file.edited``: a file was edited or changed."""
        self._register(_HANDLER_ROLE, "kind:file.edited", fn)
        return fn

    def on_model_request(
        self, fn: Callable[[ModelRequestEvent], R]
    ) -> Callable[[ModelRequestEvent], R]:
        """``model.request``: a model request is about to be sent."""
        self._register(_HANDLER_ROLE, "kind:model.request", fn)
        return fn

    def on_model_response(
        self, fn: Callable[[ModelResponseEvent], R]
    ) -> Callable[[ModelResponseEvent], R]:
        """``model.response``: a model response arrived."""
        self._register(_HANDLER_ROLE, "kind:model.response", fn)
        return fn

    def on_other(self, fn: Callable[[OtherEvent], R]) -> Callable[[OtherEvent], R]:
        """``other``: native events with no unified kind (see also ``on_native``)."""
        self._register(_HANDLER_ROLE, "kind:other", fn)
        return fn

    def on_any(self, fn: Callable[[Event], object]) -> Callable[[Event], object]:
        """Observer of every event (mapped or not); its return value is
        ignored and it never gates: an exception is reported on stderr as a
        warning and the hook's answer is unaffected."""
        self._register(_OBSERVER_ROLE, "*", fn)
        self._observers.append(fn)
        return fn

    def middleware(self, fn: Middleware) -> Middleware:
        """Middleware around the typed pipeline (outermost first):
        ``fn(event, next)`` returns a decision; call ``next(event)`` (it
        returns the inner decision) at most once."""
        self._register(_MIDDLEWARE_ROLE, "*", fn)
        self._middleware.append(fn)
        return fn

    # -- dispatch -----------------------------------------------------

    def handles(self, event: Event) -> bool:
        """Whether any handler is registered for this event."""
        if self._table is None:
            return bool(self._by_kind.get(event.kind) or self._by_native.get(event.native_name))
        return bool(self._table.handles(event))

    def decide(self, event: Event) -> Decision:
        """Runs the pipeline for an event and returns the winning decision
        (no wire encoding). Async handlers run on this thread's event loop
        (or, when that loop is already running, on a helper thread's)."""
        outer = getattr(_local, "loop", None)
        _local.loop = _PENDING
        try:
            return self._drive(self._table.start(event), event)
        finally:
            loop = _local.loop
            _local.loop = outer
            if loop is not _PENDING:
                _close_loop(loop)

    async def decide_async(self, event: Event) -> Decision:
        """``decide`` for async callers: runs the pipeline in a worker
        thread so the caller's loop keeps running."""
        import asyncio

        return await asyncio.get_running_loop().run_in_executor(None, self.decide, event)

    def _drive(self, d: Any, event: Event) -> Decision:
        """Calls what the core's dispatch asks for until its level answers."""
        fns = self._fns
        failed_guard: Optional[BaseException] = None
        while True:
            tag, i, level = d.step()
            if tag == 3:  # handler
                if failed_guard is not None:
                    d.give_error(failed_guard)
                    failed_guard = None
                    continue
                try:
                    r = fns[i](event)
                    if type(r) is not Decision:
                        r = _resolve(r, "handler")
                except Exception as e:
                    d.give_error(e)
                else:
                    d.give(r)
            elif tag == 4:  # return
                return d.result()  # type: ignore[no-any-return]
            elif tag == 0:  # observer
                try:
                    r = fns[i](event)
                    if _is_awaitable(r):
                        _await(r)
                except Exception as e:
                    d.give_error(e)
                else:
                    d.give()
            elif tag == 2:  # guard
                try:
                    held = event.tool is not None and bool(self._guards[i](event.tool))
                except Exception as e:
                    failed_guard, held = e, True
                d.guard(held)
            else:  # middleware
                def next_(ev: Event = event, _level: int = level) -> Decision:
                    d.enter(_level, ev)
                    return self._drive(d, ev)

                try:
                    r = _resolve(fns[i](event, next_), "middleware")
                except Exception as e:
                    d.give_error(e)
                else:
                    d.give(r)
