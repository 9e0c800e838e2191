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
    ) -> None:
        self.fail = fail
        self.unsupported = unsupported
        self.ask_fallback = ask_fallback
        self.continuation_cap = continuation_cap
        self.timeout_ms = timeout_ms

    def to_json(self) -> str:
        import json

        return json.dumps(
            {
                "fail": self.fail,
                "unsupported": self.unsupported,
                "ask_fallback": self.ask_fallback,
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


def answer(
    provider: Optional[str],
    payload: bytes,
    fail: str,
    router: Any = None,
    event: Optional[str] = None,
    why: Optional[str] = None,
) -> _Response:
    """The failsafe answer for one call (see the module docs): ``provider``
    the ``--provider`` value, ``payload`` the stdin bytes, ``fail`` the
    effective posture, ``router`` the hook's (None: unknown, gates all),
    ``event`` the ``--event`` value, ``why`` what replaces the placeholder
    (default: the load failure)."""
    t = _table()
    why = why or _CAUSE or "native_unavailable: the native core is not loaded"
    closed = fail == "closed"
    entry = t["providers"].get((provider or "").strip().lower().replace("_", "-"))
    if entry is None:
        return _fill(t["unknown_provider"]["closed" if closed else "open"], why)
    if not closed:
        return _fill(entry["open"], why)
    obj: Dict[str, Any] = {}
    if len(payload) <= int(t["max_bytes"]):
        try:
            import json

            parsed = json.loads(payload.decode("utf-8"))
            if isinstance(parsed, dict):
                obj = parsed
        except (ValueError, UnicodeDecodeError, RecursionError):
            pass
    name = next((obj[f] for f in entry["event_fields"] if isinstance(obj.get(f), str)), None) or event
    if name is not None:
        kind = entry["kinds"].get(name, "other")
        if name not in entry["closed_blocks"] or not _gates(router, name, kind):
            r = _fill(entry["open"], why)
            r.stderr = f"agenthooks: {why} (fail-closed: nothing to block on {name})\n"
            return r
    peek = next((obj[f] for f in ("hook_event_name", "hookEventName") if isinstance(obj.get(f), str)), None)
    return _fill(entry["closed_events"].get(peek, entry["closed"]) if peek else entry["closed"], why)


def _parse_args(argv: Sequence[str]) -> Optional[Dict[str, str]]:
    """``agenthooks [run|serve] --k=v|--k v ...`` after the ``agenthooks``
    word, leniently (unknown options are ignored; the core is not here to
    reject them)."""
    try:
        pos = list(argv).index("agenthooks")
    except ValueError:
        return None
    rest = list(argv[pos + 1 :])
    out: Dict[str, str] = {"command": "run"}
    i = 0
    if rest and not rest[0].startswith("--"):
        out["command"] = rest[0]
        i = 1
    while i < len(rest):
        a = rest[i]
        if a.startswith("--"):
            if "=" in a:
                k, v = a[2:].split("=", 1)
            elif i + 1 < len(rest):
                k, v = a[2:], rest[i + 1]
                i += 1
            else:
                k, v = a[2:], ""
            if k in ("agent", "dialect"):
                k = "provider"
            out.setdefault(k, v)
        i += 1
    return out


def _fail_of(router: Any, args: Dict[str, str]) -> str:
    f = args.get("fail")
    if f in ("open", "closed"):
        return f
    try:
        policy_fail = router.policy.fail
    except Exception:
        policy_fail = None
    return "closed" if policy_fail == "closed" else "open"


def _argv_payload(argv: Sequence[str]) -> bytes:
    # Older Cursor builds pass the payload as an argv argument.
    for a in reversed(list(argv)[1:]):
        t = a.strip()
        if t.startswith("{") and t.endswith("}"):
            return t.encode()
    return b""


def run(router: Any, argv: Sequence[str], payload: Any) -> _Response:
    """``agenthooks.run`` while the core cannot load: the failsafe answer."""
    args = _parse_args(argv)
    if args is None:
        return _Response(stderr=f"agenthooks: {_CAUSE}\n", exit_code=64)
    data = payload.encode() if isinstance(payload, str) else bytes(payload or b"")
    if not data.strip():
        data = _argv_payload(argv)
    return answer(args.get("provider"), data, _fail_of(router, args), router, args.get("event"))


def _write(fd: int, text: str) -> None:
    import os

    data = text.encode("utf-8", "replace")
    try:
        while data:
            n = os.write(fd, data)
            data = data[n:]
    except OSError:
        pass


def _serve(router: Any, args: Dict[str, str]) -> int:
    """``agenthooks serve`` for the plugin bridges: a hello with the
    effective policy, then one failsafe answer per request line."""
    import json

    fail = _fail_of(router, args)
    provider = args.get("provider") or ""
    t = _table()
    policy = dict(t["policy"], fail=fail)
    for raw in sys.stdin.buffer:
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
        resp = answer(provider, line, fail, router)
        out: Dict[str, Any] = {"seq": seq, "error": {"code": "native_unavailable", "message": _CAUSE}}
        if resp.stdout.strip():
            out["output"] = json.loads(resp.stdout)
        _write(1, json.dumps(out) + "\n")
        _write(2, resp.stderr)
    return 0


def main(router: Any, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """``agenthooks.main`` while the core cannot load: reads the payload,
    writes the failsafe answer, exits with its code."""
    argv = list(sys.argv if argv is None else argv)
    args = _parse_args(argv)
    if args is None:
        prog = argv[0] if argv else "<program>"
        _write(2, f"agenthooks: {_CAUSE}\nagenthooks: this program is a coding-agent hook; run it as "
               f"`{prog} agenthooks run --provider=<agent>` with the payload on stdin\n")
        sys.exit(64)
    if args["command"] == "serve":
        sys.exit(_serve(router, args))
    limit = int(_table()["max_bytes"])
    try:
        data = sys.stdin.buffer.read(limit + 1) if sys.stdin is not None else b""
    except (OSError, ValueError):
        data = b""
    if not data.strip():
        data = _argv_payload(argv)
    resp = answer(args.get("provider"), data, _fail_of(router, args), router, args.get("event"))
    _write(2, resp.stderr)
    _write(1, resp.stdout)
    sys.exit(resp.exit_code)


def _excepthook(exc_type: Any, exc: Any, tb: Any) -> None:
    """With the core missing, a hook module that fails before reaching
    ``main`` (e.g. it called a core API at import) would exit 1, which most
    agents ignore: when argv says ``--fail=closed`` it answers closed
    instead (the router is unknown: every event counts as gated)."""
    args = _parse_args(sys.argv)
    if args is None or args.get("fail") != "closed" or args["command"] != "run":
        sys.__excepthook__(exc_type, exc, tb)
        return
    try:
        data = sys.stdin.buffer.read(int(_table()["max_bytes"]) + 1)
    except Exception:
        data = b""
    resp = answer(args.get("provider"), data, "closed", None, args.get("event"))
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
