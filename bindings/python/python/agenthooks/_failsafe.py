"""When ``agenthooks._native`` cannot load, the guard still answers.

A hook whose Rust extension fails to import (a wheel for another platform,
a corrupted or missing ``.so``, an ABI mismatch) would die with a traceback
and exit 1, which Claude Code, Codex and most agents read as "no opinion":
the tool runs, whatever the hook's fail policy said. Instead,
``agenthooks/__init__.py`` imports this module only when that import
fails, and ``install_stand_in()`` puts a pure-Python stand-in in
``_native``'s place: ``import
agenthooks`` works, ``Router``, the decorators, ``Policy`` and the decision
builders stay usable, and ``main(router)`` answers every call with the
declared fail policy (the router's, or ``--fail=`` in argv) in the agent's
own blocking form, from ``_fail_table.json`` (rendered from the core's fail
answers by ``core/src/failsafe.rs`` and checked against it by a Rust test,
so it cannot drift). Every other API raises ``NativeUnavailableError``
naming the cause. stderr always says ``agenthooks: native_unavailable:
<cause>``; ``agenthooks doctor`` reports a hook that prints it.

What is answered (the same rules as ``bindings/node/lib/failsafe.js``):
fail open: the agent's "no opinion". Fail closed: the event is named from
the payload (the dialect's event field) or ``--event``; when it is one on
which the core blocks after a handler failure (``closed_blocks``) and the
router could have gated it (a handler for its kind or native name,
middleware or an observer, or a kind spelling this table does not know),
the core's answer to an unreadable payload blocks it; on any other event
nothing is blocked (as the core only logs there). An event that cannot be
named is blocked. ``--match`` / ``--hook-id`` filters are not evaluated
(fail closed then blocks more, never less). A segfault while loading the
extension cannot be caught in-process.

argv is read by the core's rules (``core/src/runtime.rs``: ``launch``,
``start``, ``universal_answer``; ``_launch`` below), checked against the
core by a differential test: an unknown option or a stray argument is a
warning; a value that cannot be used (``--fail=closd``, ``--timeout=ten``,
an option without its value, an unknown command) or an unknown provider is
answered with the fail policy before any handler (so the router cannot
narrow it), and an unusable ``--fail`` reads as closed; the space form
never takes an argument starting with ``--`` as a value; the last
``--fail`` wins; stdin is the payload (read first, up to ``--max-bytes``
plus one byte), and only a JSON object as the last argument after the
``agenthooks`` word replaces it, when stdin is blank; an agent that cannot
be named gets exit 2 with the reason, or no opinion on a stop event.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Dict, List, NoReturn, Optional, Sequence, Tuple

__all__ = ["install_stand_in", "NativeUnavailableError", "cause", "answer", "main", "run"]

#: ``native_unavailable: <why>`` once the stand-in is installed, else None.
_CAUSE: Optional[str] = None
_TABLE: Optional[Dict[str, Any]] = None
#: A kind spelling the table does not know was registered (router.add):
#: every event then counts as gated (fail closed blocks more, never less).
_unknown_spelling = False


class NativeUnavailableError(ImportError):
    """An API that needs the Rust core was called while it cannot load."""

    code = "native_unavailable"


def cause() -> Optional[str]:
    """``native_unavailable: <why>`` when ``_native`` could not load, else None."""
    return _CAUSE


def _first_line(text: str, limit: int = 400) -> str:
    line = " ".join(text.strip().splitlines()[:1]) if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def install_stand_in(error: BaseException) -> None:
    """Called by ``agenthooks/__init__.py`` when ``_native`` failed to
    import with ``error``: installs the stand-in under that name (and an
    excepthook, see ``_excepthook``)."""
    global _CAUSE
    pkg = __name__.rpartition(".")[0]
    why = _first_line(str(error)) or "no detail"
    _CAUSE = f"native_unavailable: cannot load agenthooks._native ({type(error).__name__}: {why})"
    stub = _stub(error)
    sys.modules[f"{pkg}._native"] = stub
    setattr(sys.modules[pkg], "_native", stub)
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook


def _table() -> Dict[str, Any]:
    global _TABLE
    if _TABLE is None:
        import json
        import os

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_fail_table.json")
        with open(path, encoding="utf-8") as f:
            _TABLE = json.load(f)
    return _TABLE


def _unavailable(what: str) -> NativeUnavailableError:
    return NativeUnavailableError(
        f"agenthooks: {_CAUSE}; `{what}` needs the native core (reinstall agenthooks for this platform)"
    )


# ---------------------------------------------------------------- the stand-in


def _stub(error: BaseException) -> ModuleType:
    """A module with ``_native``'s names: what a hook module touches at
    import works (classes for annotations, ``Policy``, decision builders,
    ``parse_kind``), anything that needs the core raises."""
    import types

    mod = types.ModuleType(__name__.rpartition(".")[0] + "._native")
    mod.__doc__ = f"Stand-in for the Rust core, which could not load: {_CAUSE}"
    table = _table()
    ns: Dict[str, Any] = {
        "__version__": table["version"],
        "DEFAULT_MAX_BYTES": table["max_bytes"],
        "NATIVE_UNAVAILABLE": _CAUSE,
        "load_error": error,
        "Policy": _Policy,
        "Decision": _Decision,
        "Response": _Response,
        "parse_kind": _parse_kind,
        "error_codes": lambda: list(table["error_codes"]),
        "providers": lambda: list(table["provider_ids"]),
        "kinds": lambda: list(table["kinds"]),
    }
    for name, kind in _BUILDERS.items():
        ns[name] = _builder(kind)
    mod.__dict__.update(ns)

    def missing(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name[:1].isupper():
            # A class (events, ToolCall, Fold ...): usable in annotations and
            # isinstance checks; constructing one raises.
            def init(self: object, *args: object, **kwargs: object) -> None:
                raise _unavailable(name)

            cls = type(name, (), {"__init__": init, "__module__": mod.__name__})
            setattr(mod, name, cls)
            return cls

        def fn(*args: object, **kwargs: object) -> Any:
            raise _unavailable(name)

        fn.__name__ = name
        return fn

    mod.__dict__["__getattr__"] = missing
    return mod


_BUILDERS = {
    "no_decision": "no_decision",
    "allow": "allow",
    "deny": "deny",
    "ask": "ask",
    "defer": "defer",
    "accept_prompt": "accept_prompt",
    "block_prompt": "block_prompt",
    "finish": "finish",
    "continue_with": "continue",
    "observed": "observed",
    "flag_output": "flag_output",
    "replace_output": "replace_output",
}


class _Decision:
    """A decision as written by a hook module (never encoded: there is no core)."""

    def __init__(self, kind: str = "no_decision", reason: Optional[str] = None) -> None:
        self.kind = kind
        self.reason = reason

    def __getattr__(self, name: str) -> Any:
        if name.startswith("with_"):
            return lambda *args, **kwargs: self
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"Decision(kind={self.kind!r}) (native core unavailable)"


def _builder(kind: str) -> Any:
    def build(*args: object, **kwargs: object) -> _Decision:
        reason = args[0] if args and isinstance(args[0], str) else None
        return _Decision(kind, reason)

    build.__name__ = kind
    return build


class _Policy:
    """The policy as declared (``fail`` is what the failsafe needs)."""

    def __init__(
        self,
        fail: str = "open",
        unsupported: str = "degrade",
        ask_fallback: str = "deny",
        continuation_cap: int = 5,
        timeout_ms: Optional[int] = None,
        headless_ask: str = "deny",
    ) -> None:
        self.fail = fail
        self.unsupported = unsupported
        self.ask_fallback = ask_fallback
        self.continuation_cap = continuation_cap
        self.timeout_ms = timeout_ms
        self.headless_ask = headless_ask

    def to_json(self) -> str:
        import json

        return json.dumps(
            {
                "fail": self.fail,
                "unsupported": self.unsupported,
                "ask_fallback": self.ask_fallback,
                "headless_ask": self.headless_ask,
                "continuation_cap": self.continuation_cap,
                **({"timeout_ms": self.timeout_ms} if self.timeout_ms is not None else {}),
            }
        )

    def deadline_ms(self, timeout_s: Optional[float] = None) -> int:
        if self.timeout_ms is not None:
            return int(self.timeout_ms)
        return int(timeout_s * 900) if timeout_s else 55000

    def __repr__(self) -> str:
        return f"Policy(fail={self.fail!r}) (native core unavailable)"


class _Response:
    """The agent's answer: ``stdout``, ``stderr``, ``exit_code`` (no notes)."""

    def __init__(self, stdout: str = "", stderr: str = "", exit_code: int = 0) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.exit_code = exit_code
        self.notes: List[Any] = []

    def to_json(self) -> str:
        import json

        return json.dumps({"stdout": self.stdout, "stderr": self.stderr, "exit_code": self.exit_code})

    def __repr__(self) -> str:
        return f"Response(exit_code={self.exit_code!r}, stdout={self.stdout!r}, stderr={self.stderr!r})"


def _normalize_kind(s: str) -> str:
    # As the core's Kind::parse compares spellings.
    return "".join(c for c in s if c not in ".-_ ").lower()


def _parse_kind(s: str) -> str:
    """The canonical kind of a spelling the table knows; any other spelling
    is kept as given (never raises: registration must not fail) and makes
    every event count as gated."""
    global _unknown_spelling
    k = _table()["kind_spellings"].get(_normalize_kind(str(s)))
    if isinstance(k, str):
        return k
    _unknown_spelling = True
    return str(s)


# ---------------------------------------------------------------- answering

#: What Rust's ``u8::is_ascii_whitespace`` accepts (no vertical tab): the
#: core's test for a blank stdin and the JSON scanner's whitespace.
_ASCII_WS = b" \t\n\x0c\r"
#: What Rust's ``str::trim`` strips (Unicode White_Space), for argv values.
_TRIM = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
#: The payload keys the core peeks at for an event name (``EVENT_NAME_KEYS``).
_EVENT_NAME_KEYS = ("hook_event_name", "hookEventName")
_USIZE_MAX = 2**64 - 1


def _gates(router: Any, native: str, kind: str) -> bool:
    """Whether the router could have gated this event (conservative: true
    whenever it cannot tell)."""
    if router is None or _unknown_spelling:
        return True
    try:
        if router._middleware or router._observers:
            return True
        return bool(router._by_native.get(native)) or bool(router._by_kind.get(kind))
    except Exception:
        return True


def _fill(entry: Dict[str, Any], why: str) -> _Response:
    ph = _table()["placeholder"]
    import json

    return _Response(
        stdout=str(entry["stdout"]).replace(ph, json.dumps(why)[1:-1]),
        stderr=str(entry["stderr"]).replace(ph, why),
        exit_code=int(entry["exit_code"]),
    )


def _provider_id(provider: Optional[str]) -> Optional[str]:
    """The id of a ``--provider`` value as ``Provider::parse`` reads it
    (trimmed, ASCII lower case, ``_`` as ``-``; the table's spellings)."""
    if provider is None:
        return None
    norm = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in provider.strip(_TRIM)).replace("_", "-")
    pid = _table()["provider_spellings"].get(norm)
    return pid if isinstance(pid, str) else None


def _lex_string(b: bytes, at: int) -> Tuple[str, int]:
    """The core's tolerant JSON string reader (``dialect::json::lex_string``):
    the value and the index after the closing quote (``len(b) + 1`` when
    the string is cut off)."""
    import re

    i = at + 1
    raw = bytearray()
    units: List[int] = []

    def flush() -> None:
        if units:
            raw.extend(b"".join(u.to_bytes(2, "little") for u in units).decode("utf-16-le", "replace").encode())
            units.clear()

    while i < len(b):
        c = b[i]
        if c == 0x22:  # "
            flush()
            return raw.decode("utf-8", "replace"), i + 1
        if c == 0x5C:  # backslash
            if i + 1 >= len(b):
                break
            e = b[i + 1]
            if e == 0x75:  # u
                h = b[i + 2 : i + 6]
                if len(h) == 4 and re.fullmatch(rb"\+[0-9a-fA-F]{3}|[0-9a-fA-F]{4}", h):
                    units.append(int(h, 16))
                    i += 6
                else:
                    flush()
                    raw.extend("\ufffd".encode())
                    i += 2
                continue
            flush()
            raw.append({0x6E: 0x0A, 0x74: 0x09, 0x72: 0x0D, 0x62: 0x08, 0x66: 0x0C}.get(e, e))
            i += 2
            continue
        flush()
        raw.append(c)
        i += 1
    flush()
    return raw.decode("utf-8", "replace"), len(b) + 1


def _peek_event_name(b: bytes) -> Optional[str]:
    """The event name of a payload that may not parse at all (invalid
    UTF-8, cut off at the read limit), from its top-level keys only: the
    core's ``dialect::json::peek_event_name``, so a ``"Stop"`` nested in
    the tool input is never the payload's event."""
    found: List[Optional[Tuple[Optional[str]]]] = [None] * len(_EVENT_NAME_KEYS)
    i = 3 if b.startswith(b"\xef\xbb\xbf") else 0
    n = len(b)
    while i < n and b[i] in _ASCII_WS:
        i += 1
    if i >= n or b[i] != 0x7B:
        return None
    i += 1
    depth = 1
    key_next = True
    while i < n:
        c = b[i]
        if c == 0x22:
            s, i = _lex_string(b, i)
            if depth == 1 and key_next:
                key_next = False
                j = i
                while j < n and b[j] in _ASCII_WS:
                    j += 1
                if j >= n or b[j] != 0x3A or s not in _EVENT_NAME_KEYS:
                    continue
                slot = _EVENT_NAME_KEYS.index(s)
                j += 1
                while j < n and b[j] in _ASCII_WS:
                    j += 1
                if j >= n or b[j] != 0x22:
                    continue
                value, end = _lex_string(b, j)
                i = end
                if end > n or b[end - 1] != 0x22:
                    continue  # cut off: not a name
                prev = found[slot]
                if prev is None:
                    found[slot] = (value,)
                elif prev[0] != value:
                    found[slot] = (None,)  # two names for one key: trust neither
            continue
        if c in (0x7B, 0x5B):
            depth += 1
        elif c in (0x7D, 0x5D):
            depth -= 1
            if depth == 0:
                break
        elif c == 0x2C and depth == 1:
            key_next = True
        i += 1
    for f in found:
        if f is not None and f[0]:
            return f[0]
    return None


def _is_stop_anywhere(name: str) -> bool:
    """Whether any agent names a stop event so (``is_stop_event_anywhere``)."""
    return any(p["kinds"].get(name) in ("agent.stop", "subagent.stop") for p in _table()["providers"].values())


def _parse_object(payload: bytes) -> Optional[Dict[str, Any]]:
    import json

    def reject(c: str) -> Any:
        raise ValueError(c)  # NaN / Infinity are not JSON

    try:
        parsed = json.loads(payload.decode("utf-8"), parse_constant=reject)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _universal(
    payload: bytes, closed: bool, event: Optional[str], why: str, problem: Optional[Tuple[str, str]]
) -> _Response:
    """The answer when the agent cannot be named (``runtime::universal_answer``):
    fail open: no opinion; fail closed: exit 2 with the reason on stderr
    (the one block every command-hook agent reads), except on a stop event
    (named from the payload's top-level keys, else ``--event``), where exit
    2 would make the agent continue: no opinion, logged."""
    t = _table()
    if not closed:
        r, outcome = _fill(t["unknown_provider"]["open"], why), "fail-open: no decision"
    else:
        name = _peek_event_name(payload) or event
        if name is not None and _is_stop_anywhere(name):
            outcome = f"fail-closed: logged_only on {name}; a block there would make the agent continue"
            r = _fill(t["unknown_provider"]["open"], why)
            r.stderr = f"agenthooks: {why} ({outcome})\n"
        else:
            r, outcome = _fill(t["unknown_provider"]["closed"], why), "fail-closed: exit 2, the block every agent reads"
    if problem is not None:
        r.stderr = f"agenthooks: {problem[0]}: {problem[1]} ({outcome})\n" + r.stderr
    return r


def answer(
    provider: Optional[str],
    payload: bytes,
    fail: str,
    router: Any = None,
    event: Optional[str] = None,
    why: Optional[str] = None,
    limit: Optional[int] = None,
    problem: Optional[Tuple[str, str]] = None,
) -> _Response:
    """The failsafe answer for one call (see the module docs): ``provider``
    the ``--provider`` value, ``payload`` the stdin bytes, ``fail`` the
    effective posture, ``router`` the hook's (None: unknown, gates all),
    ``event`` the ``--event`` value, ``why`` what replaces the placeholder
    (default: the load failure), ``limit`` the ``--max-bytes`` read limit,
    ``problem`` an argv value that cannot be used (``(code, message)``: it
    is answered before any handler, so the router cannot narrow it)."""
    t = _table()
    why = why or _CAUSE or "native_unavailable: the native core is not loaded"
    closed = fail == "closed"
    limit = int(t["max_bytes"]) if limit is None else limit
    pid = _provider_id(provider)
    if pid is None:
        if problem is None and provider is not None:
            problem = ("unknown_provider", _unknown_provider(provider))
        return _universal(payload, closed, event, why, problem)
    # An argv problem is answered before any handler: the router cannot narrow it.
    r = _known(t["providers"][pid], payload, closed, None if problem else router, event, why, limit)
    if problem is not None:
        r.stderr = f"agenthooks: {problem[0]}: {problem[1]}\n" + r.stderr
    return r


def _known(
    entry: Dict[str, Any], payload: bytes, closed: bool, router: Any, event: Optional[str], why: str, limit: int
) -> _Response:
    """The answer of a named agent (``entry``: its table row)."""
    if not closed:
        return _fill(entry["open"], why)
    obj = _parse_object(payload) if len(payload) <= limit else None
    if obj is not None:
        name = next((obj[f] for f in entry["event_fields"] if isinstance(obj.get(f), str)), None) or event
        if name is not None:
            kind = entry["kinds"].get(name, "other")
            if name not in entry["closed_blocks"] or not _gates(router, name, kind):
                r = _fill(entry["open"], why)
                r.stderr = f"agenthooks: {why} (fail-closed: nothing to block on {name})\n"
                return r
        peek = next((obj[f] for f in _EVENT_NAME_KEYS if isinstance(obj.get(f), str)), None)
    else:
        # Unreadable (not JSON, invalid UTF-8, over the limit): the core
        # peeks at the top-level keys of what was read.
        peek = _peek_event_name(payload)
    return _fill(entry["closed_events"].get(peek, entry["closed"]) if peek else entry["closed"], why)


def _unknown_provider(given: str) -> str:
    return f"unknown provider `{given}` (known: {', '.join(_table()['provider_ids'])})"


class _Plan:
    """``runtime::launch``'s plan, as far as the stand-in needs it: the
    arguments after the ``agenthooks`` word, the warnings for stderr, the
    first value that cannot be used, and the legacy argv payload."""

    def __init__(self) -> None:
        self.command = "run"
        self.provider: Optional[str] = None
        self.event: Optional[str] = None
        self.timeout_s: Optional[float] = None
        self.fail: Optional[str] = None
        self.max_bytes: Optional[int] = None
        self.warnings = ""
        self.problem: Optional[Tuple[str, str]] = None
        self.argv_payload: Optional[bytes] = None

    def read_limit(self) -> int:
        return int(_table()["max_bytes"]) if self.max_bytes is None else self.max_bytes

    def bad(self, message: str, code: str = "invalid_argument") -> None:
        if self.problem is None:
            self.problem = (code, f"invalid argument: {message}" if code == "invalid_argument" else message)

    def fail_of(self, router: Any) -> str:
        """``--fail`` when given (an unusable value reads as closed), else
        the router's."""
        if self.fail is not None:
            return self.fail
        try:
            policy_fail = router.policy.fail
        except Exception:
            policy_fail = None
        return "closed" if policy_fail == "closed" else "open"

    def payload(self, stdin: Optional[bytes]) -> bytes:
        """``runtime::start``'s choice: stdin (``None``: it could not be
        read), unless it holds nothing but ASCII whitespace and argv ended
        with a JSON object after the word."""
        if self.argv_payload is not None and (stdin is None or not stdin.strip(_ASCII_WS)):
            return self.argv_payload
        return stdin or b""

    def answer(self, router: Any, payload: bytes) -> _Response:
        r = answer(self.provider, payload, self.fail_of(router), router, self.event,
                   limit=self.read_limit(), problem=self.problem)
        r.stderr = self.warnings + r.stderr
        return r


_KNOWN_OPTIONS = ("--provider", "--agent", "--dialect", "--event", "--variant", "--timeout", "--fail",
                  "--hook-id", "--match", "--max-bytes", "--observed")


def _observed_problem(text: str) -> Optional[str]:
    """``mode::Observation::from_json`` without the core: the message of
    an ``--observed`` value it rejects, else None (the stand-in does not
    decide the session mode; it only refuses what the core refuses)."""
    import json

    try:
        v = json.loads(text)
    except ValueError:
        return "--observed: not JSON"
    if not isinstance(v, dict):
        return "--observed: expected an object"

    def strings(argv: Any) -> Optional[str]:
        if len(argv) > 256:
            return "an argv is too long"
        if not all(isinstance(a, str) for a in argv):
            return "argv items must be strings"
        return None

    for k, val in v.items():
        if k == "env" and isinstance(val, dict):
            if not all(isinstance(x, str) for x in val.values()):
                return "--observed: env values must be strings"
        elif k == "ancestors" and isinstance(val, list):
            if len(val) > 8:
                return "--observed: too many ancestors"
            for a in val:
                if isinstance(a, list):
                    m = strings(a)
                elif isinstance(a, dict):
                    m = None
                    for ak, av in a.items():
                        if ak == "argv" and isinstance(av, list):
                            m = m or strings(av)
                        elif ak in ("tty", "stdin_tty") and isinstance(av, bool):
                            pass
                        else:
                            m = m or (f"ancestor: unexpected `{ak}` (expected argv: array, "
                                      "tty / stdin_tty: bool)")
                else:
                    m = "an ancestor is an argv array or an object"
                if m:
                    return f"--observed: {m}"
        else:
            return f"--observed: unexpected `{k}` (expected env: object, ancestors: array)"
    return None


def _is_json_object(a: str) -> bool:
    t = a.strip(_TRIM)
    return (t.startswith("{") and t.endswith("}") and len(a.encode("utf-8", "surrogateescape")) <= int(_table()["max_bytes"])
            and _parse_object(a.encode("utf-8", "surrogateescape")) is not None)


def _launch(argv: Sequence[str]) -> Optional[_Plan]:
    """``runtime::launch`` (``parse_plan``) without the core: None without
    the ``agenthooks`` word. An unknown option or a stray argument is a
    warning; a value that cannot be used (or an unknown provider or
    command) is the plan's problem; the space form never takes an argument
    starting with ``--`` as a value; the last ``--fail`` wins and an
    unusable one reads as closed; only a JSON object as the last argument
    after the word is the legacy argv payload."""
    import re

    argv = [str(a) for a in argv]
    if "agenthooks" not in argv:
        return None
    rest = argv[argv.index("agenthooks") + 1 :]
    plan = _Plan()
    if rest and not rest[-1].startswith("--") and _is_json_object(rest[-1]):
        plan.argv_payload = rest.pop().encode("utf-8", "surrogateescape")
    i = 0
    if rest and not rest[0].startswith("--"):
        plan.command = rest[0]
        i = 1
        if rest[0] not in ("run", "serve"):
            plan.bad(f"unknown command `{rest[0]}` (expected `run` or `serve`)")
    while i < len(rest):
        a = rest[i]
        i += 1
        if not a.startswith("--"):
            plan.warnings += f"agenthooks: warning: ignored unexpected argument `{a}`\n"
            continue
        key, eq, val = a.partition("=")
        if key not in _KNOWN_OPTIONS:
            plan.warnings += f"agenthooks: warning: ignored unknown option `{a}` (a newer agenthooks wrote this config?)\n"
            continue
        if not eq:
            if i < len(rest) and not rest[i].startswith("--"):
                val = rest[i]
                i += 1
            else:
                plan.bad(f"`{a}` needs a value")
                if a == "--fail":
                    plan.fail = "closed"
                elif a in ("--provider", "--agent", "--dialect"):
                    plan.provider = ""  # named but unusable: never guessed
                continue
        if key in ("--provider", "--agent", "--dialect"):
            if _provider_id(val) is None:
                plan.bad(_unknown_provider(val), "unknown_provider")
            plan.provider = val
        elif key == "--event":
            plan.event = val
        elif key == "--timeout":
            v = val.strip(_TRIM)
            ok = re.fullmatch(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", v, re.ASCII) is not None
            t = float(v) if ok else 0.0
            if ok and 0 < t < float("inf"):
                plan.timeout_s = t
            else:
                plan.bad(f"--timeout: `{val}` is not a number of seconds greater than 0")
        elif key == "--fail":
            if val in ("open", "closed"):
                plan.fail = val
            else:
                plan.fail = "closed"  # a typo must not open a guard
                plan.bad(f"--fail: `{val}` is neither `open` nor `closed` (read as closed)")
        elif key == "--observed":
            m = _observed_problem(val)
            if m:
                plan.bad(m)
        elif key == "--max-bytes":
            digits = val.strip(_TRIM)
            digits = digits[1:] if digits.startswith("+") else digits
            n = digits.lstrip("0") or "0"
            if re.fullmatch(r"[0-9]+", digits) and len(n) <= 20 and int(n) <= _USIZE_MAX:
                plan.max_bytes = int(n)
            else:
                plan.bad(f"--max-bytes: `{val}` is not a byte count (0 to {_USIZE_MAX})")
    return plan


def _help(argv: Sequence[str]) -> Optional[_Response]:
    """``runtime::launch``'s ``--help``: ``--help`` or ``-h`` after the
    ``agenthooks`` word answers the run entry's usage on stdout, exit 0."""
    if "agenthooks" not in argv:
        return None
    rest = argv[list(argv).index("agenthooks") + 1:]
    if not any(a in ("--help", "-h") for a in rest):
        return None
    return _Response(stdout=_table()["run_usage"],
                     stderr=f"agenthooks: {_CAUSE}\n", exit_code=0)


def _usage(argv: Sequence[str]) -> _Response:
    prog = argv[0] if argv else "<program>"
    return _Response(
        stderr=f"agenthooks: {_CAUSE}\nagenthooks: this program is a coding-agent hook; run it as "
        f"`{prog} agenthooks run --provider=<agent>` with the payload on stdin\n",
        exit_code=64,
    )


def _cannot_serve(plan: _Plan) -> Optional[_Response]:
    if plan.problem is None:
        return None
    return _Response(stderr=f"{plan.warnings}agenthooks: {plan.problem[0]}: {plan.problem[1]} (cannot serve)\n"
                     f"agenthooks: {_CAUSE}\n", exit_code=2)


def run(router: Any, argv: Sequence[str], payload: Any) -> _Response:
    """``agenthooks.run`` while the core cannot load: the failsafe answer."""
    argv = list(argv)
    helped = _help(argv)
    if helped is not None:
        return helped
    plan = _launch(argv)
    if plan is None:
        return _usage(argv)
    if plan.command == "serve":
        bad = _cannot_serve(plan)
        return bad or _Response(stderr=f"{plan.warnings}agenthooks: `serve` runs only as a process\n"
                                f"agenthooks: {_CAUSE}\n", exit_code=2)
    data = payload.encode() if isinstance(payload, str) else bytes(payload or b"")
    return plan.answer(router, plan.payload(data[: plan.read_limit() + 1]))


def _write(fd: int, text: str) -> None:
    import os

    data = text.encode("utf-8", "replace")
    try:
        while data:
            n = os.write(fd, data)
            data = data[n:]
    except OSError:
        pass


def _serve(router: Any, plan: _Plan) -> int:
    """``agenthooks serve`` for the plugin bridges: a hello with the
    effective policy, then one failsafe answer per request line."""
    import json

    fail = plan.fail_of(router)
    provider = plan.provider or ""
    t = _table()
    policy = dict(t["policy"], fail=fail)
    limit = plan.read_limit()
    stdin = sys.stdin.buffer
    while True:
        # One line at most `limit` bytes: a longer one is answered (fail
        # policy, no seq) and skipped in bounded chunks, never kept whole.
        raw = stdin.readline(limit + 1)
        if not raw:
            break
        overlong = len(raw) > limit and not raw.endswith(b"\n")
        if overlong:
            while True:
                rest = stdin.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
            raw = b"{}"
        line = raw.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and "hello" in obj:
            hello = {"provider": provider, "version": t["version"], "policy": policy, "deadline_ms": 0}
            _write(1, json.dumps({"hello": hello}) + "\n")
            continue
        seq = obj.get("seq") if isinstance(obj, dict) else None
        resp = answer(plan.provider, line, fail, router)
        # `output` is always present (null = no opinion), as the core's
        # serve replies; `error` makes the plugin apply its fail policy.
        out: Dict[str, Any] = {
            "seq": seq,
            "output": json.loads(resp.stdout) if resp.stdout.strip() else None,
            "error": {"code": "native_unavailable", "message": _CAUSE},
        }
        _write(1, json.dumps(out) + "\n")
        _write(2, resp.stderr)
    return 0


def _read_stdin(limit: int) -> Optional[bytes]:
    """stdin up to ``limit + 1`` bytes (more means too large), as
    ``runtime::read_stdin``: a terminal is empty (never wait for a human),
    an error is None."""
    stdin = sys.stdin
    if stdin is None:
        return None
    try:
        if stdin.isatty():
            return b""
        buf = stdin.buffer
        chunks: List[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = buf.read(min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except (OSError, ValueError, AttributeError):
        return None


def main(router: Any, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """``agenthooks.main`` while the core cannot load: reads the payload,
    writes the failsafe answer, exits with its code."""
    argv = list(sys.argv if argv is None else argv)
    helped = _help(argv)
    if helped is not None:
        _write(2, helped.stderr)
        _write(1, helped.stdout)
        sys.exit(0)
    plan = _launch(argv)
    if plan is None:
        r = _usage(argv)
        _write(2, r.stderr)
        sys.exit(r.exit_code)
    if plan.command == "serve":
        bad = _cannot_serve(plan)
        if bad is not None:
            _write(2, bad.stderr)
            sys.exit(bad.exit_code)
        if plan.warnings:
            _write(2, plan.warnings)
        sys.exit(_serve(router, plan))
    resp = plan.answer(router, plan.payload(_read_stdin(plan.read_limit())))
    _write(2, resp.stderr)
    _write(1, resp.stdout)
    sys.exit(resp.exit_code)


def _excepthook(exc_type: Any, exc: Any, tb: Any) -> None:
    """With the core missing, a hook module that fails before reaching
    ``main`` (e.g. it called a core API at import) would exit 1, which most
    agents ignore: when argv's ``--fail`` reads as closed (``closed``, or a
    value that cannot be used) it answers closed instead (the router is
    unknown: every event counts as gated)."""
    plan = _launch(sys.argv)
    if plan is None or plan.command != "run" or plan.fail_of(None) != "closed":
        sys.__excepthook__(exc_type, exc, tb)
        return
    resp = plan.answer(None, plan.payload(_read_stdin(plan.read_limit())))
    # The answer's reason first: agents show the start of stderr.
    _write(2, resp.stderr)
    sys.__excepthook__(exc_type, exc, tb)
    _flush()
    _write(1, resp.stdout)
    import os

    os._exit(resp.exit_code)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
