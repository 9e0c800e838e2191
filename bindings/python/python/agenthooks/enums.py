"""String enums for the core's ids.

Events, tool calls and decisions report plain ``str`` ids (``"tool.pre"``,
``"shell"``, ``"deny"``); these enums are ``str`` subclasses, so
``event.kind == Kind.TOOL_PRE`` and ``event.kind == "tool.pre"`` both hold.
A test asserts that each enum lists exactly the core's ids.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Provider", "Kind", "Canonical", "DecisionKind"]


class _StrEnum(str, Enum):
    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return str(self.value).__format__(spec)


class Provider(_StrEnum):
    """A coding agent whose hook dialect agenthooks speaks."""

    CLAUDE_CODE = "claude-code"
    CODEX = "codex"
    CURSOR = "cursor"
    GEMINI = "gemini"
    KIMI_CODE = "kimi-code"
    COPILOT = "copilot"
    OPENCODE = "opencode"
    OPENCLAW = "openclaw"


class Kind(_StrEnum):
    """The unified kind of an event."""

    SESSION_START = "session.start"
    SESSION_END = "session.end"
    PROMPT_SUBMITTED = "prompt.submitted"
    TOOL_PRE = "tool.pre"
    TOOL_POST = "tool.post"
    TOOL_ERROR = "tool.error"
    PERMISSION_REQUEST = "permission.request"
    AGENT_STOP = "agent.stop"
    SUBAGENT_START = "subagent.start"
    SUBAGENT_STOP = "subagent.stop"
    COMPACT_PRE = "compact.pre"
    COMPACT_POST = "compact.post"
    NOTIFICATION = "notification"
    FILE_EDITED = "file.edited"
    MODEL_REQUEST = "model.request"
    MODEL_RESPONSE = "model.response"
    OTHER = "other"


class Canonical(_StrEnum):
    """Canonical class of a tool, whatever the agent calls it."""

    SHELL = "shell"
    FILE_READ = "file.read"
    FILE_WRITE = "file.write"
    FILE_EDIT = "file.edit"
    SEARCH = "search"
    FETCH = "fetch"
    TASK = "task"
    MCP = "mcp"
    OTHER = "other"


class DecisionKind(_StrEnum):
    """What a hook decided."""

    NO_DECISION = "no_decision"
    ALLOW = "allow"
    DENY = "deny"
    ASK = "ask"
    DEFER = "defer"
    ACCEPT_PROMPT = "accept_prompt"
    BLOCK_PROMPT = "block_prompt"
    FINISH = "finish"
    CONTINUE = "continue"
    OBSERVED = "observed"
    FLAG_OUTPUT = "flag_output"
    REPLACE_OUTPUT = "replace_output"
