"""Exceptions: one base class with the core's stable ``.code``.

Every error the core reports has a stable snake_case id shared by all
languages (``invalid_json``, ``handler_timeout``, ...). Bad input raises a
subclass that is also a ``ValueError``; ``CODES`` maps every id to its class
(a test asserts it lists exactly the core's ``ErrorCode::ALL``).
"""

from __future__ import annotations

# `typing` costs milliseconds to import and a hook process starts on every
# tool call: typing names are for the type checker only (mypy reads any
# `TYPE_CHECKING` name as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Dict, List, Optional, Type

__all__ = [
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
]


class AgentHooksError(Exception):
    """Base of every agenthooks error; ``code`` is the core's stable id."""

    default_code: ClassVar[str] = "handler_error"
    code: str

    def __init__(self, message: str = "", *, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.code = code if code is not None else self.default_code
        # The core error this exception carries when the core raised it;
        # handing the exception back to the core (fail_response,
        # Invocation.complete_error) then loses nothing.
        self._handle: object = None

    @property
    def message(self) -> str:
        """The human-readable message (never compare it; compare ``code``)."""
        return str(self.args[0]) if self.args else ""


class InvalidPayloadError(AgentHooksError, ValueError):
    """The hook payload is not one the agent's dialect accepts."""

    default_code = "invalid_json"


class InvalidArgumentError(AgentHooksError, ValueError):
    """An argument, option, provider id or kind spelling is invalid."""

    default_code = "invalid_argument"


class InvalidDecisionError(AgentHooksError, ValueError):
    """The decision is malformed or not valid for the event kind."""

    default_code = "invalid_decision"


class UnsupportedDecisionError(AgentHooksError):
    """The agent cannot express the decision and the policy is ``strict``."""

    default_code = "unsupported_decision"


class HandlerError(AgentHooksError):
    """A handler failed."""

    default_code = "handler_error"


class HandlerTimeoutError(HandlerError, TimeoutError):
    """A handler did not answer before the deadline."""

    default_code = "handler_timeout"


class AgentHooksIOError(AgentHooksError, OSError):
    """Reading or writing failed."""

    default_code = "io"


class HookConfigError(AgentHooksError, ValueError):
    """A hook configuration the host refused (strict mode: a bad entry the agents would skip) (host side).

    ``code`` is ``config_rejected`` for a configuration, the diagnostic's
    code (``invalid_regex``, ``regex_too_complex`` ...) for a matcher;
    ``diagnostics`` lists every problem (dicts: ``code``, ``severity``,
    ``reason``, ``source``, ``event``, ``pattern`` ...).
    """

    default_code = "config_rejected"

    def __init__(self, message: str = "", *, code: Optional[str] = None) -> None:
        super().__init__(message, code=code)
        self.diagnostics: List[Dict[str, Any]] = []


#: Every core error code, in the core's numeric order, and its class.
CODES: Dict[str, Type[AgentHooksError]] = {
    "invalid_json": InvalidPayloadError,
    "invalid_utf8": InvalidPayloadError,
    "not_an_object": InvalidPayloadError,
    "missing_event": InvalidPayloadError,
    "wrong_type": InvalidPayloadError,
    "too_large": InvalidPayloadError,
    "too_deep": InvalidPayloadError,
    "unknown_provider": InvalidArgumentError,
    "unknown_event_spelling": InvalidArgumentError,
    "invalid_decision": InvalidDecisionError,
    "unsupported_decision": UnsupportedDecisionError,
    "lossy_update": UnsupportedDecisionError,
    "handler_error": HandlerError,
    "handler_timeout": HandlerTimeoutError,
    "io": AgentHooksIOError,
    "panic": HandlerError,
    "invalid_argument": InvalidArgumentError,
}


def _from_native(code: str, message: str, handle: object) -> AgentHooksError:
    """Builds the exception for a core error (called by ``_native``)."""
    cls = CODES.get(code, AgentHooksError)
    exc = cls(message, code=code)
    exc._handle = handle
    return exc
