"""String enums for the core's ids.

Events, tool calls and decisions report plain ``str`` ids (``"tool.pre"``,
``"shell"``, ``"deny"``); these enums are ``str`` subclasses, so
``event.kind == Kind.TOOL_PRE`` and ``event.kind == "tool.pre"`` both hold.
A test asserts that each enum lists exactly the core's ids.

For the type checker they are ``enum.Enum`` classes. At run time they are
a small equivalent (members are instances and ``str``; iteration in
definition order, ``Kind("tool.pre")``, ``Kind["TOOL_PRE"]``, ``.name``,
``.value``, ``len``, ``in``, pickling, no reassignment): importing
``enum`` pulls in ``functools``, ``collections`` and friends, a few
milliseconds of every hook process that reads ``Canonical.SHELL``.
``test_enums_behave_like_enum`` holds the two to the same behaviour.
"""

from __future__ import annotations

TYPE_CHECKING = False

__all__ = ["Provider", "Kind", "Canonical", "DecisionKind"]

if TYPE_CHECKING:
    from enum import Enum

    class _StrEnum(str, Enum):
        pass

else:

    class _IdsMeta(type):
        """Makes every upper-case string attribute of a subclass a member."""

        def __new__(mcs, name, bases, ns):  # noqa: N804
            members = {k: v for k, v in ns.items() if k.isupper() and isinstance(v, str)}
            body = {k: v for k, v in ns.items() if k not in members}
            cls = super().__new__(mcs, name, bases, body)
            by_name = {}
            by_value = {}
            for k, v in members.items():
                m = str.__new__(cls, v)
                m._name_ = k
                m._value_ = v
                by_name[k] = m
                by_value.setdefault(v, m)
            type.__setattr__(cls, "_member_map_", by_name)
            type.__setattr__(cls, "_value2member_map_", by_value)
            for k, m in by_name.items():
                type.__setattr__(cls, k, m)
            return cls

        def __call__(cls, value):
            if isinstance(value, cls):
                return value
            try:
                return cls._value2member_map_[value]
            except (KeyError, TypeError):
                raise ValueError(f"{value!r} is not a valid {cls.__qualname__}") from None

        def __getitem__(cls, name):
            return cls._member_map_[name]

        def __iter__(cls):
            return iter(tuple(cls._member_map_.values()))

        def __reversed__(cls):
            return reversed(tuple(cls._member_map_.values()))

        def __len__(cls):
            return len(cls._member_map_)

        def __contains__(cls, value):
            if isinstance(value, cls):
                return True
            try:
                return value in cls._value2member_map_
            except TypeError:
                return False

        def __bool__(cls):
            return True

        @property
        def __members__(cls):
            return dict(cls._member_map_)

        def __setattr__(cls, name, value):
            if name in cls.__dict__.get("_member_map_", ()):
                raise AttributeError(f"cannot reassign member {name!r}")
            super().__setattr__(name, value)

        def __delattr__(cls, name):
            if name in cls.__dict__.get("_member_map_", ()):
                raise AttributeError(f"cannot delete member {name!r}")
            super().__delattr__(name)

        def __repr__(cls):
            return f"<enum {cls.__name__!r}>"

    class _StrEnum(str, metaclass=_IdsMeta):
        @property
        def name(self):
            return self._name_

        @property
        def value(self):
            return self._value_

        def __str__(self):
            return str(self._value_)

        def __format__(self, spec):
            return str(self._value_).__format__(spec)

        def __repr__(self):
            return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

        __hash__ = str.__hash__

        def __reduce_ex__(self, proto):
            return type(self), (self._value_,)

        def __copy__(self):
            return self

        def __deepcopy__(self, memo):
            return self

        def __dir__(self):
            return ["__class__", "__doc__", "__module__", "name", "value"]


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
