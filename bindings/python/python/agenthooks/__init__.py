"""agenthooks: write a coding-agent hook once, run it on every agent.

::

    import agenthooks as ah

    router = ah.Router(policy=ah.Policy(fail="closed", ask_fallback="deny"))

    @router.on_tool_pre
    def guard(event: ah.ToolPreEvent) -> ah.Decision:
        if event.tool.canonical == "shell" and "rm -rf" in (event.tool.command or ""):
            return ah.deny("destructive command")
        return ah.no_decision()

    if __name__ == "__main__":
        ah.main(router)

Wired as ``python3 guard.py agenthooks run --provider=<agent>``, it answers
every agent exactly as the Rust core does: the decoding, the encoding, the
degradation of what an agent cannot express and the fail policy all run in
the core (``agenthooks._native``, a Rust extension).
"""

from __future__ import annotations

# A native part that cannot load must not take the guard down: a pure-Python
# stand-in then answers with the fail policy (see _failsafe.py). (Not `from
# . import _native` here: a missing file would read as a circular import.)
try:
    __import__(f"{__name__}._native")
except Exception as _load_error:
    from ._failsafe import install_stand_in as _install_stand_in

    _install_stand_in(_load_error)
from . import _native  # noqa: E402
from ._native import (  # noqa: E402
    DEFAULT_MAX_BYTES,
    AgentInfo,
    Capability,
    CompactPostEvent,
    CompactPreEvent,
    Decision,
    Event,
    FileEditedEvent,
    Fold,
    Invocation,
    McpInfo,
    ModelRequestEvent,
    ModelResponseEvent,
    Note,
    NotificationEvent,
    OtherEvent,
    PermissionRequestEvent,
    Policy,
    PromptEvent,
    Response,
    RunArgs,
    SessionEndEvent,
    SessionInfo,
    SessionStartEvent,
    StopEvent,
    StopInfo,
    SubagentStartEvent,
    SubagentStopEvent,
    ToolCall,
    ToolErrorEvent,
    ToolPostEvent,
    ToolPreEvent,
    Usage,
    accept_prompt,
    allow,
    ask,
    block_prompt,
    capability_of,
    continue_with,
    decode,
    defer,
    deny,
    detect,
    fail_response,
    fail_response_for_payload,
    finish,
    flag_output,
    kind_of,
    merge_all,
    merge_first,
    native_events,
    no_decision,
    observed,
    parse_kind,
    parse_provider,
    quirks,
    replace_output,
    respond,
)
from .errors import (
    CODES,
    AgentHooksError,
    AgentHooksIOError,
    HandlerError,
    HandlerTimeoutError,
    HookConfigError,
    InvalidArgumentError,
    InvalidDecisionError,
    InvalidPayloadError,
    UnsupportedDecisionError,
)
from .router import Router, all_of, any_of, when
from .runtime import main, run

# The enums and the typing aliases load on first use: a hook process starts
# on every tool call, and `enum` / `typing` cost milliseconds to import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .context import read_transcript, resolve_mcp_transport
    from .enums import Canonical, DecisionKind, Kind, Provider
    from .host import (
        Diagnostic,
        DoctorReport,
        HostRequest,
        HostResult,
        InstallReport,
        InstallResult,
        doctor,
        host_run,
        install,
        matcher_test,
        uninstall,
    )
    from .router import Handler, HandlerResult, Matcher, Middleware, Next, Observer

_LAZY = {
    # MCP transports and transcripts (agenthooks/context.py)
    "read_transcript": "context",
    "resolve_mcp_transport": "context",
    "Canonical": "enums",
    "DecisionKind": "enums",
    "Kind": "enums",
    "Provider": "enums",
    "Handler": "router",
    "HandlerResult": "router",
    "Matcher": "router",
    "Middleware": "router",
    "Next": "router",
    "Observer": "router",
    # the host side and installation (agenthooks/host.py)
    "host_run": "host",
    "matcher_test": "host",
    "install": "host",
    "uninstall": "host",
    "doctor": "host",
    "Diagnostic": "host",
    "HostRequest": "host",
    "HostResult": "host",
    "InstallResult": "host",
    "InstallReport": "host",
    "DoctorReport": "host",
}


def __getattr__(name: str) -> object:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # __import__, not importlib.import_module: importlib (and warnings)
    # would be one more import on the hook path.
    module = __import__(f"{__name__}.{where}", fromlist=[name])
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list:  # type: ignore[type-arg]
    return sorted(set(globals()) | set(_LAZY))


__version__: str = _native.__version__

__all__ = [
    "__version__",
    "read_transcript",
    "resolve_mcp_transport",
    # events
    "Event",
    "ToolPreEvent",
    "ToolPostEvent",
    "ToolErrorEvent",
    "PermissionRequestEvent",
    "PromptEvent",
    "StopEvent",
    "SubagentStopEvent",
    "SessionStartEvent",
    "SessionEndEvent",
    "SubagentStartEvent",
    "CompactPreEvent",
    "CompactPostEvent",
    "NotificationEvent",
    "FileEditedEvent",
    "ModelRequestEvent",
    "ModelResponseEvent",
    "OtherEvent",
    "ToolCall",
    "McpInfo",
    "SessionInfo",
    "AgentInfo",
    "StopInfo",
    "Usage",
    # decisions, policy, answers
    "Decision",
    "no_decision",
    "allow",
    "deny",
    "ask",
    "defer",
    "accept_prompt",
    "block_prompt",
    "finish",
    "continue_with",
    "observed",
    "flag_output",
    "replace_output",
    "Policy",
    "Response",
    "Note",
    "Capability",
    # core functions
    "decode",
    "respond",
    "fail_response",
    "fail_response_for_payload",
    "capability_of",
    "native_events",
    "kind_of",
    "parse_kind",
    "parse_provider",
    "detect",
    "quirks",
    "merge_first",
    "merge_all",
    "Fold",
    "DEFAULT_MAX_BYTES",
    # enums
    "Provider",
    "Kind",
    "Canonical",
    "DecisionKind",
    # errors
    "AgentHooksError",
    "InvalidPayloadError",
    "InvalidArgumentError",
    "InvalidDecisionError",
    "UnsupportedDecisionError",
    "HandlerError",
    "HandlerTimeoutError",
    "AgentHooksIOError",
    "HookConfigError",
    "CODES",
    # router and runtime
    "Router",
    "Handler",
    "HandlerResult",
    "Matcher",
    "Middleware",
    "Next",
    "Observer",
    "when",
    "any_of",
    "all_of",
    "main",
    "run",
    "RunArgs",
    "Invocation",
    # host side and installation
    "host_run",
    "matcher_test",
    "install",
    "uninstall",
    "doctor",
    "Diagnostic",
    "HostRequest",
    "HostResult",
    "InstallResult",
    "InstallReport",
    "DoctorReport",
]
