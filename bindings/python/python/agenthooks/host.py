"""The host side and installation, from Python.

* :func:`host_run` runs the hooks of a Claude Code or Codex configuration
  for one event, exactly as that agent would (matchers, ``if`` rules,
  timeouts, the merge of the hooks' answers), and returns the merged
  outcome, every hook's run and the audit trail.
* :func:`matcher_test` compiles a matcher in an agent's regex flavour and
  tests subjects against it.
* :func:`install`, :func:`uninstall` and :func:`doctor` write (or plan,
  with ``dry_run=True``) the hook configuration of every agent from one
  manifest (``hooks.toml`` / ``hooks.json``), as ``agenthooks install``
  does.

All of it runs in the core (``agenthooks._native``): one JSON request in,
one JSON response out; this module converts dicts and raises
:class:`~agenthooks.AgentHooksError` for the core's ``{"error": ...}``.
The module loads on first use (``agenthooks.host_run`` ...): a hook process
never pays for it.
"""

from __future__ import annotations

import json
import os
from typing import (
    Any,
    Callable,
    Dict,
    List,
    Mapping,
    Optional,
    Sequence,
    Type,
    TypedDict,
    Union,
)

from . import _native
from .errors import CODES, AgentHooksError, HookConfigError, InvalidArgumentError

__all__ = [
    "host_run",
    "matcher_test",
    "install",
    "uninstall",
    "doctor",
    "Diagnostic",
    "ConfigSource",
    "PluginSource",
    "HostRequest",
    "HookRun",
    "HostResult",
    "FileChange",
    "InstallResult",
    "InstallReport",
    "DoctorReport",
]

PathArg = Union[str, "os.PathLike[str]"]

# -- shapes (the core's host::json and install::json module docs) ---------


class Diagnostic(TypedDict, total=False):
    """A configuration or matcher problem (``code`` is stable: the core's
    ``DiagCode`` ids, ``invalid_regex`` ... ``matcher_undecided`` and
    ``cwd_missing``, the last two reported per event)."""

    agent: str
    source: str
    event: str
    group_index: int
    handler_index: int
    pattern: str
    code: str
    severity: str
    reason: str


class ConfigSource(TypedDict, total=False):
    """One configuration: its ``text`` (labelled ``source``) or a ``path``."""

    source: str
    text: str
    path: str


class PluginSource(TypedDict):
    """A plugin's root directory and its ``hooks/hooks.json`` document."""

    root: str
    hooks: Dict[str, Any]


class _HostRequired(TypedDict):
    dialect: str
    event: Dict[str, Any]


class HostRequest(_HostRequired, total=False):
    """The request of :func:`host_run`: ``dialect`` (``claude-code`` or
    ``codex``) and ``event`` (the hook payload, or a canonical event) are
    required. ``strict=True`` refuses a configuration with any bad entry
    (``config_rejected``); by default a bad entry is skipped, exactly as the
    agent skips it, and reported in ``warnings``."""

    configs: List[ConfigSource]
    plugins: List[PluginSource]
    event_provider: str
    cwd: str
    project_dir: str
    default_timeout_s: float
    output_cap: int
    sequential: bool
    strict: bool


class HookRun(TypedDict):
    """One hook that ran: its id, command, exit code and parsed output."""

    hook: str
    command: str
    exit_code: Optional[int]
    timed_out: bool
    output: Dict[str, Any]


class HostResult(TypedDict):
    """What :func:`host_run` returns. ``outcome`` is the merged verdict
    (``decision``, ``reason``, ``contexts``, ``errors`` ...: absent keys are
    empty)."""

    dialect: str
    event: str
    subjects: Any
    outcome: Dict[str, Any]
    hooks: List[HookRun]
    audit: List[Dict[str, Any]]
    warnings: List[Diagnostic]


class FileChange(TypedDict):
    """One file an install writes: its text before (``None``: absent) and after."""

    path: str
    before: Optional[str]
    after: Optional[str]


class InstallResult(TypedDict, total=False):
    """One agent's result: ``changed``, ``files``, ``diff`` and ``notes``, or
    ``error`` (``{"code", "message"}``) when that agent could not be done."""

    agent: str
    scope: str
    changed: bool
    files: List[FileChange]
    diff: str
    notes: List[str]
    error: Dict[str, str]


class InstallReport(TypedDict):
    """What :func:`install` and :func:`uninstall` return, one result per agent."""

    results: List[InstallResult]


class DoctorReport(TypedDict):
    """What :func:`doctor` returns: one report per agent."""

    agents: List[Dict[str, Any]]


# -- calls ----------------------------------------------------------------


def _error(err: Mapping[str, Any]) -> AgentHooksError:
    code = str(err.get("code") or "handler_error")
    message = str(err.get("message") or err.get("reason") or code)
    diagnostics: List[Dict[str, Any]] = list(err.get("diagnostics") or [])
    cls: Type[AgentHooksError]
    if code == "config_rejected" or "reason" in err:
        # A rejected configuration, or a matcher diagnostic (`err` is one).
        cls = HookConfigError
        if not diagnostics and "reason" in err:
            diagnostics = [dict(err)]
    elif code == "manifest":
        cls = InvalidArgumentError
    else:
        cls = CODES.get(code, AgentHooksError)
    exc = cls(message, code=code)
    if isinstance(exc, HookConfigError):
        exc.diagnostics = diagnostics
    return exc


def _call(native: Callable[[str], str], request: Mapping[str, Any]) -> Dict[str, Any]:
    try:
        text = json.dumps(request)
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"request is not JSON: {e}") from None
    out: Dict[str, Any] = json.loads(native(text))
    err = out.get("error")
    if isinstance(err, dict):
        raise _error(err)
    return out


def host_run(request: HostRequest) -> HostResult:
    """Runs the hooks of a configuration for one event, as the agent would.

    ``request`` is the core's host request (see :class:`HostRequest`)::

        host_run({
            "dialect": "claude-code",
            "configs": [{"path": ".claude/settings.json"}],
            "event": {"hook_event_name": "PreToolUse", "tool_name": "Bash", ...},
        })

    A bad configuration entry is skipped, exactly as the agent skips it,
    and reported in ``warnings`` (severity ``error``). Only with
    ``"strict": True`` is such a configuration refused: :class:`HookConfigError`
    (``code == "config_rejected"``, ``.diagnostics``). A bad request raises
    :class:`AgentHooksError` with the core's code.
    """
    return _call(_native.host_run_json, request)  # type: ignore[return-value]


def matcher_test(dialect: str, pattern: str, subjects: Sequence[str]) -> List[bool]:
    """Compiles ``pattern`` as ``dialect`` (``claude-code``: ECMAScript,
    ``codex``: Rust regex) would, and tells which ``subjects`` it matches.

    An invalid pattern raises :class:`HookConfigError` whose ``code`` is the
    diagnostic's (``invalid_regex``, ``regex_too_complex`` ...).
    """
    if isinstance(subjects, str):
        raise InvalidArgumentError("subjects is a sequence of strings, not one string")
    out = _call(
        _native.matcher_json,
        {"dialect": dialect, "pattern": pattern, "subjects": list(subjects)},
    )
    return [bool(m) for m in out["matches"]]


def _manifest(manifest: Union[str, Mapping[str, Any], "os.PathLike[str]"]) -> Any:
    if isinstance(manifest, os.PathLike):
        with open(manifest, encoding="utf-8") as f:
            return f.read()
    if isinstance(manifest, Mapping):
        return dict(manifest)
    return manifest


def _target(
    request: Dict[str, Any],
    project: Optional[PathArg],
    home: Optional[PathArg],
    env: Optional[Mapping[str, str]],
) -> Dict[str, Any]:
    if project is not None:
        request["project"] = os.fspath(project)
    if home is not None:
        request["home"] = os.fspath(home)
    if env is not None:
        request["env"] = dict(env)
    return request


def _install(
    action: str,
    manifest: Union[str, Mapping[str, Any], "os.PathLike[str]"],
    agent: str,
    scope: str,
    project: Optional[PathArg],
    home: Optional[PathArg],
    dry_run: bool,
    env: Optional[Mapping[str, str]],
    cursor_events: Optional[Sequence[str]],
) -> InstallReport:
    request: Dict[str, Any] = {
        "action": action,
        "manifest": _manifest(manifest),
        "agent": agent,
        "scope": scope,
        "dry_run": bool(dry_run),
    }
    if cursor_events is not None:
        request["cursor_events"] = list(cursor_events)
    return _call(_native.install_json, _target(request, project, home, env))  # type: ignore[return-value]


def install(
    manifest: Union[str, Mapping[str, Any], "os.PathLike[str]"],
    *,
    agent: str = "all",
    scope: str = "project",
    project: Optional[PathArg] = None,
    home: Optional[PathArg] = None,
    dry_run: bool = False,
    env: Optional[Mapping[str, str]] = None,
    cursor_events: Optional[Sequence[str]] = None,
) -> InstallReport:
    """Installs a hook manifest into the agents' configurations.

    ``manifest`` is ``hooks.toml`` / ``hooks.json`` text, the manifest as a
    dict, or a path (``pathlib.Path``) to read. ``agent`` is an agent id, a
    comma-separated list or ``"all"``; ``scope`` is ``user``, ``project``
    or ``local``. ``project`` and ``home`` default to the current directory
    and ``$HOME``, ``env`` (``CODEX_HOME`` ...) to the process environment.
    Idempotent: a second install changes nothing (``changed`` is false).
    ``dry_run=True`` plans (``files``, ``diff``) and writes nothing.

    Returns one result per agent; an agent that could not be done has an
    ``error`` entry instead of failing the others. A bad manifest or
    argument raises :class:`AgentHooksError`.
    """
    return _install(
        "install", manifest, agent, scope, project, home, dry_run, env, cursor_events
    )


def uninstall(
    manifest: Union[str, Mapping[str, Any], "os.PathLike[str]"],
    *,
    agent: str = "all",
    scope: str = "project",
    project: Optional[PathArg] = None,
    home: Optional[PathArg] = None,
    dry_run: bool = False,
    env: Optional[Mapping[str, str]] = None,
    cursor_events: Optional[Sequence[str]] = None,
) -> InstallReport:
    """Removes what :func:`install` wrote for ``manifest`` (same arguments);
    the rest of each configuration is kept."""
    return _install(
        "uninstall", manifest, agent, scope, project, home, dry_run, env, cursor_events
    )


def doctor(
    *,
    project: Optional[PathArg] = None,
    home: Optional[PathArg] = None,
    env: Optional[Mapping[str, str]] = None,
    run: bool = False,
) -> DoctorReport:
    """Reports, per agent, what is installed where and whether it is sound
    (``run=True`` also runs the installed hooks' programs)."""
    request = _target({"action": "doctor", "run": bool(run)}, project, home, env)
    return _call(_native.install_json, request)  # type: ignore[return-value]
