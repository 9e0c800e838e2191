"""Testing helpers for hook authors: test a guard against all eight agents.

::

    import agenthooks.testing as aht
    from guard import router

    def test_blocks_rm_rf_everywhere() -> None:
        outcomes = aht.across_agents(router, aht.shell("rm -rf build"))
        aht.assert_blocked_everywhere(outcomes)
        aht.assert_no_empty_allow(outcomes)

What it gives:

* :func:`corpus` -- the fixture corpus the core ships (every agent's real
  payload shapes, per agent and unified kind), and :func:`parametrize_corpus`
  to run a pytest test once per payload;
* :func:`run_router` -- a :class:`~agenthooks.Router` answering one agent's
  payload in-process, through the same run path ``agenthooks.main`` uses;
* :func:`run_hook` -- a hook program run out-of-process the way that agent
  runs it (shell, hook variables, stdin, timeout: the core's ``simulate``);
* :func:`across_agents` -- either of the two on all eight agents;
* assertions on what each agent **does** with the answer (the core's
  behaviour reader, :func:`predict`), not only on its bytes:
  :func:`assert_blocked_everywhere`, :func:`assert_runs_everywhere`,
  :func:`assert_no_empty_allow`, :func:`assert_effect`,
  :func:`assert_no_warning`. A failure raises ``AssertionError`` listing
  each offending agent with its wire answer and the effect.

Everything runs in the core (``agenthooks._native``; the JSON entry points
of ``agenthooks::simulate::json``); this module builds the requests and
reads the answers. The effect names and warning codes are those of
``fixtures/simulate/README.md``.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from enum import Enum
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from . import _native
from .errors import CODES, AgentHooksError, InvalidArgumentError
from .router import Router
from .runtime import run as _run

if TYPE_CHECKING:
    import pytest

__all__ = [
    "AGENTS",
    "Effect",
    "WarningCode",
    "Answer",
    "AgentWarning",
    "Prediction",
    "Outcome",
    "CorpusEntry",
    "Scenario",
    "shell",
    "edit",
    "read",
    "prompt",
    "stop",
    "native",
    "hook_command",
    "corpus",
    "predict",
    "can_block",
    "run_router",
    "run_hook",
    "across_agents",
    "outcome_of",
    "assert_ran",
    "assert_blocked_everywhere",
    "assert_runs_everywhere",
    "verdict",
    "assert_no_empty_allow",
    "assert_no_warning",
    "assert_effect",
    "parametrize_corpus",
    "parametrize_agents",
]

#: The eight agents, by id, in the core's order.
AGENTS: Tuple[str, ...] = tuple(_native.providers())


class Effect(str, Enum):
    """What an agent does with a hook's answer (``fixtures/simulate/README.md``)."""

    TOOL_RUNS = "tool_runs"
    TOOL_RUNS_WITHOUT_PROMPT = "tool_runs_without_prompt"
    TOOL_RUNS_WITH_INPUT_REWRITTEN = "tool_runs_with_input_rewritten"
    TOOL_BLOCKED = "tool_blocked"
    ASKS_USER = "asks_user"
    PROMPT_BLOCKED = "prompt_blocked"
    PROMPT_CONTINUES = "prompt_continues"
    PROMPT_REWRITTEN = "prompt_rewritten"
    CONTEXT_INJECTED = "context_injected"
    AGENT_CONTINUES = "agent_continues"
    AGENT_STOPS = "agent_stops"
    OUTPUT_REPLACED = "output_replaced"
    NO_EFFECT = "no_effect"


class WarningCode(str, Enum):
    """Why an answer is suspect on an agent (``fixtures/simulate/README.md``)."""

    EMPTY_ALLOW = "empty_allow"
    JSON_ON_STDERR = "json_on_stderr"
    STDERR_READ_AS_ANSWER = "stderr_read_as_answer"
    JSON_IGNORED_ON_EXIT = "json_ignored_on_exit"
    INVALID_JSON = "invalid_json"
    PLAIN_TEXT_STDOUT = "plain_text_stdout"
    STDOUT_INJECTED_VERBATIM = "stdout_injected_verbatim"
    UNKNOWN_FIELD = "unknown_field"
    IGNORED_FIELD = "ignored_field"
    UNSUPPORTED_DECISION = "unsupported_decision"
    MISSING_REASON = "missing_reason"
    REASON_DROPPED = "reason_dropped"
    HOOK_FAILED = "hook_failed"
    FAIL_OPEN = "fail_open"
    FAIL_CLOSED = "fail_closed"
    TIMED_OUT = "timed_out"
    CRASHED = "crashed"
    EXIT_CODE_IGNORED = "exit_code_ignored"
    HANGS_HEADLESS = "hangs_headless"


_BLOCKS = frozenset({Effect.TOOL_BLOCKED.value, Effect.PROMPT_BLOCKED.value})


# -- results ----------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """A hook's wire answer as the agent got it. ``exit`` is ``None`` when
    the hook was killed (signal, timeout) or never started."""

    stdout: str = ""
    stderr: str = ""
    exit: Optional[int] = 0
    timed_out: bool = False

    def to_dict(self) -> Dict[str, Any]:
        return {"stdout": self.stdout, "stderr": self.stderr, "exit": self.exit, "timed_out": self.timed_out}

    def summary(self) -> str:
        """One line: exit code, stdout and stderr (shortened)."""
        if self.timed_out:
            head = "timed out"
        elif self.exit is None:
            head = "killed"
        else:
            head = f"exit {self.exit}"
        parts = [head]
        for name, text in (("stdout", self.stdout), ("stderr", self.stderr)):
            if text.strip():
                t = text.strip()
                parts.append(f"{name} {t[:300]!r}" + ("..." if len(t) > 300 else ""))
        if len(parts) == 1:
            parts.append("no output")
        return ", ".join(parts)

    @staticmethod
    def _from(d: Mapping[str, Any]) -> Answer:
        exit_code = d.get("exit", 0)
        return Answer(
            stdout=str(d.get("stdout") or ""),
            stderr=str(d.get("stderr") or ""),
            exit=None if exit_code is None else int(exit_code),
            timed_out=bool(d.get("timed_out", False)),
        )


@dataclass(frozen=True)
class AgentWarning:
    """An answer the agent ignores or misreads: a stable ``code``
    (:class:`WarningCode`) and what happens, in words."""

    code: str
    message: str


@dataclass(frozen=True)
class Prediction:
    """What one agent does with one answer (the core's behaviour reader)."""

    agent: str
    event: str
    kind: str
    effect: str
    decision: Optional[str] = None
    model_sees: Optional[str] = None
    user_sees: Optional[str] = None
    updated_input: Any = None
    warnings: Tuple[AgentWarning, ...] = ()

    @property
    def warning_codes(self) -> List[str]:
        return [w.code for w in self.warnings]

    def has_warning(self, code: Union[str, WarningCode]) -> bool:
        return _warning(code) in self.warning_codes

    @property
    def blocked(self) -> bool:
        """The tool call or the prompt does not go ahead."""
        return self.effect in _BLOCKS

    @staticmethod
    def _from(d: Mapping[str, Any]) -> Prediction:
        return Prediction(
            agent=str(d["agent"]),
            event=str(d["event"]),
            kind=str(d["kind"]),
            effect=str(d["effect"]),
            decision=d.get("decision"),
            model_sees=d.get("model_sees"),
            user_sees=d.get("user_sees"),
            updated_input=d.get("updated_input"),
            warnings=tuple(AgentWarning(str(w["code"]), str(w["message"])) for w in d.get("warnings") or ()),
        )


@dataclass(frozen=True)
class Outcome:
    """One agent x one scenario: the payload it sent, the answer that came
    back and what the agent does with it. ``skipped`` says why an agent has
    no such case (no such event or tool; a payload of another agent);
    ``run_error`` why a hook program could not run at all."""

    agent: str
    scenario: str
    event: str = ""
    tool: Optional[str] = None
    answer: Answer = field(default_factory=Answer)
    prediction: Optional[Prediction] = None
    skipped: Optional[str] = None
    run_error: Optional[str] = None
    payload: Any = None
    argv: Tuple[str, ...] = ()
    duration_ms: int = 0
    notes: Tuple[str, ...] = ()

    @property
    def ran(self) -> bool:
        """The hook answered (not skipped, not unable to run)."""
        return self.prediction is not None and self.run_error is None

    @property
    def effect(self) -> Optional[str]:
        return self.prediction.effect if self.prediction is not None else None

    def describe(self) -> str:
        """The outcome in a few lines (what assertion failures print)."""
        head = f"{self.agent} / {self.scenario}"
        if self.event:
            head += f" ({self.event}{', ' + self.tool if self.tool else ''})"
        if self.skipped is not None:
            return f"{head}: skipped: {self.skipped}"
        lines = [f"{head}: {self.effect or '-'}"]
        if self.run_error is not None:
            lines.append(f"    could not run: {self.run_error}")
        lines.append(f"    answer: {self.answer.summary()}")
        p = self.prediction
        if p is not None:
            if p.warnings:
                lines.append("    warnings: " + "; ".join(f"{w.code} ({w.message})" for w in p.warnings))
            if p.model_sees:
                lines.append(f"    model sees: {p.model_sees[:200]!r}")
            if p.user_sees:
                lines.append(f"    user sees: {p.user_sees[:200]!r}")
        return "\n".join(lines)

    @staticmethod
    def _from(d: Mapping[str, Any]) -> Outcome:
        p = d.get("prediction")
        return Outcome(
            agent=str(d["agent"]),
            scenario=str(d.get("scenario", "")),
            event=str(d.get("event") or ""),
            tool=d.get("tool"),
            answer=Answer._from(d.get("answer") or {}),
            prediction=Prediction._from(p) if isinstance(p, Mapping) else None,
            skipped=d.get("skipped"),
            run_error=d.get("run_error"),
            payload=d.get("payload"),
            argv=tuple(d.get("argv") or ()),
            duration_ms=int(d.get("duration_ms") or 0),
            notes=tuple(d.get("notes") or ()),
        )


@dataclass(frozen=True)
class CorpusEntry:
    """One payload of the shipped fixture corpus (``fixtures/<agent>/``)."""

    agent: str
    #: ``<agent>/<file stem>``
    name: str
    #: the native event
    event: str
    #: the unified kind
    kind: str
    payload: Dict[str, Any]
    #: whether the payload names its event (else ``--event`` must)
    names_event: bool = True
    #: the variant the payload needs (``--variant``), if any
    variant: Optional[str] = None

    @property
    def payload_bytes(self) -> bytes:
        """The payload as the agent writes it to the hook's stdin."""
        return json.dumps(self.payload, separators=(",", ":"), ensure_ascii=False).encode()


# -- scenarios --------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """Something that happens on the agent side; the core builds each
    agent's native payload for it. Make one with :func:`shell`,
    :func:`edit`, :func:`read`, :func:`prompt`, :func:`stop` (generic,
    every agent) or :func:`native` (one agent's own payload)."""

    #: ``tool.pre``, ``tool.post``, ``prompt.submit``, ``stop``; with
    #: ``payload``: the native event name, when the payload lacks it
    event: Optional[str] = None
    #: ``shell`` (default), ``file.edit``, ``file.read``
    tool: Optional[str] = None
    command: Optional[str] = None
    path: Optional[str] = None
    prompt: Optional[str] = None
    #: with ``payload``: the agent it belongs to
    agent: Optional[str] = None
    payload: Optional[Mapping[str, Any]] = None
    #: a label (default: made from the content)
    name: str = ""
    #: ``--variant`` for the in-process run of a native payload
    variant: Optional[str] = None

    def named(self, name: str) -> Scenario:
        return _replace(self, name=name)

    def to_dict(self) -> Dict[str, Any]:
        """The core's JSON form (``agenthooks simulate --scenarios``)."""
        d: Dict[str, Any] = {}
        for k in ("name", "event", "tool", "command", "path", "prompt", "agent"):
            v = getattr(self, k)
            if v:
                d[k] = v
        if self.payload is not None:
            d["payload"] = dict(self.payload)
        return d


def _replace(s: Scenario, **changes: Any) -> Scenario:
    import dataclasses

    return dataclasses.replace(s, **changes)


def shell(command: str, *, after: bool = False, name: str = "") -> Scenario:
    """A shell command about to run (``after=True``: that has run, ``tool.post``)."""
    return Scenario(event="tool.post" if after else "tool.pre", tool="shell", command=command, name=name)


def edit(path: str, *, name: str = "") -> Scenario:
    """A file edit about to run."""
    return Scenario(event="tool.pre", tool="file.edit", path=path, name=name)


def read(path: str, *, name: str = "") -> Scenario:
    """A file read about to run."""
    return Scenario(event="tool.pre", tool="file.read", path=path, name=name)


def prompt(text: str, *, name: str = "") -> Scenario:
    """A prompt the user submits."""
    return Scenario(event="prompt.submit", prompt=text, name=name)


def stop(*, name: str = "") -> Scenario:
    """The agent is about to stop."""
    return Scenario(event="stop", name=name)


def native(
    agent: str,
    payload: Union[Mapping[str, Any], bytes, str],
    event: Optional[str] = None,
    *,
    variant: Optional[str] = None,
    name: str = "",
) -> Scenario:
    """One agent's own payload, sent as is (``event``: its native event
    name, needed when the payload does not name it, as Copilot's)."""
    return Scenario(
        agent=_native.parse_provider(agent),
        payload=_payload_object(payload),
        event=event,
        variant=variant,
        name=name,
    )


def hook_command(*program: str) -> List[str]:
    """The argv an installed hook runs: ``program`` then ``agenthooks run
    --provider={agent} --event={event}`` (:func:`run_hook` fills the two
    placeholders per agent)."""
    if not program:
        raise InvalidArgumentError("hook_command needs the program (and its arguments)")
    return [*program, "agenthooks", "run", "--provider={agent}", "--event={event}"]


# Accepted wherever a case is given: a scenario, a corpus entry, or one
# agent's payload (dict, or JSON bytes/text).
Case = Union[Scenario, CorpusEntry, Mapping[str, Any], bytes, str]
Scenarios = Union[Case, Sequence[Scenario], None]


def _payload_object(payload: Union[Mapping[str, Any], bytes, str]) -> Dict[str, Any]:
    if isinstance(payload, Mapping):
        return dict(payload)
    try:
        value = json.loads(payload)
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"the payload is not JSON: {e}") from None
    if not isinstance(value, dict):
        raise InvalidArgumentError("the payload must be a JSON object")
    return value


def _scenario(case: Case, agent: Optional[str]) -> Scenario:
    if isinstance(case, Scenario):
        return case
    if isinstance(case, CorpusEntry):
        return Scenario(
            agent=case.agent, payload=case.payload, event=case.event, variant=case.variant, name=case.name
        )
    if agent is None:
        raise InvalidArgumentError("a bare payload needs its agent (or use native(agent, payload))")
    return native(agent, case)


def _scenarios(cases: Scenarios) -> Union[str, List[Scenario]]:
    """``"builtin"`` (the core's set: None or the string), or a list."""
    if cases is None or (isinstance(cases, str) and cases == "builtin"):
        return "builtin"
    if isinstance(cases, (Scenario, CorpusEntry, Mapping, bytes, str)):
        return [_scenario(cases, None)]
    return [_scenario(c, None) for c in cases]


# -- core calls -------------------------------------------------------------


def _call(native_fn: Callable[[str], str], request: Mapping[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = json.loads(native_fn(json.dumps(request)))
    err = out.get("error")
    if isinstance(err, dict):
        code = str(err.get("code") or "invalid_argument")
        raise CODES.get(code, AgentHooksError)(str(err.get("message") or code), code=code)
    return out


def _agents(agents: Optional[Iterable[str]]) -> List[str]:
    if agents is None:
        return list(AGENTS)
    if isinstance(agents, str):
        agents = [agents]
    return [_native.parse_provider(a) for a in agents]


_CORPUS: Dict[Tuple[Optional[str], Optional[str]], List[CorpusEntry]] = {}


def corpus(agent: Optional[str] = None, kind: Optional[str] = None) -> List[CorpusEntry]:
    """The fixture corpus the core ships: every agent's real payload shapes
    (``fixtures/<agent>/``), optionally of one agent and one unified kind
    (``tool.pre``, ``prompt.submitted``, ...)."""
    key = (agent, kind)
    if key not in _CORPUS:
        req: Dict[str, Any] = {}
        if agent is not None:
            req["agent"] = str(agent)
        if kind is not None:
            req["kind"] = str(kind)
        _CORPUS[key] = [
            CorpusEntry(
                agent=str(e["agent"]),
                name=str(e["name"]),
                event=str(e["event"]),
                kind=str(e["kind"]),
                payload=e["payload"],
                names_event=bool(e.get("names_event", True)),
                variant=e.get("variant"),
            )
            for e in _call(_native.fixture_corpus_json, req)["fixtures"]
        ]
    return list(_CORPUS[key])


def predict(
    agent: str, event: str, answer: Answer, *, tool: Optional[str] = None, mode: Optional[str] = None
) -> Prediction:
    """What ``agent`` does with ``answer`` on its native ``event`` (``tool``:
    the native tool name, where it matters). ``mode``: ``"interactive"``
    (the default: a user at the terminal) or ``"headless"`` (a
    non-interactive run: nobody can be asked, see docs/testing.md)."""
    req: Dict[str, Any] = {"agent": str(agent), "event": event, "answer": answer.to_dict()}
    if tool is not None:
        req["tool"] = tool
    if mode is not None:
        req["mode"] = mode
    return Prediction._from(_call(_native.predict_json, req))


def can_block(agent: str, event: str) -> bool:
    """Whether the agent's native event can block at all (its capability row)."""
    return bool(_native.capability_of(str(agent), event).can_block)


def _cases(scenarios: Union[str, List[Scenario]], agents: List[str], cwd: Optional[str]) -> List[Tuple[Dict[str, Any], Optional[Scenario]]]:
    req: Dict[str, Any] = {
        "scenarios": scenarios if isinstance(scenarios, str) else [s.to_dict() for s in scenarios],
        "agents": agents,
    }
    if cwd is not None:
        req["cwd"] = os.fspath(cwd)
    cases = _call(_native.scenario_payloads_json, req)["cases"]
    # The core lists scenario by scenario, agent by agent.
    sources: List[Optional[Scenario]] = (
        [None] * len(cases) if isinstance(scenarios, str) else [s for s in scenarios for _ in agents]
    )
    return list(zip(cases, sources))


def _route_case(
    router: Router, case: Mapping[str, Any], source: Optional[Scenario], state_dir: Optional[str]
) -> Outcome:
    agent = str(case["agent"])
    if "skipped" in case:
        return Outcome(agent=agent, scenario=str(case["scenario"]), skipped=str(case["skipped"]))
    event = str(case["event"])
    argv = ["agenthooks-testing", "agenthooks", "run", f"--provider={agent}", f"--event={event}"]
    if source is not None and source.variant:
        argv.append(f"--variant={source.variant}")
    payload = json.dumps(case["payload"], separators=(",", ":"), ensure_ascii=False).encode()
    if state_dir is not None:
        resp = _run(router, argv, payload, state_dir=os.fspath(state_dir))
    else:
        # A fresh state root per run: runs do not see each other's dedupe
        # markers or continuation counts (nor the user's).
        with tempfile.TemporaryDirectory(prefix="agenthooks-testing-") as d:
            resp = _run(router, argv, payload, state_dir=d)
    answer = Answer(stdout=resp.stdout, stderr=resp.stderr, exit=resp.exit_code)
    return Outcome(
        agent=agent,
        scenario=str(case["scenario"]),
        event=event,
        tool=case.get("tool"),
        answer=answer,
        prediction=predict(agent, event, answer, tool=case.get("tool")),
        payload=case["payload"],
        argv=tuple(argv),
    )


def run_router(
    router: Router,
    agent: str,
    case: Case,
    *,
    cwd: Optional[str] = None,
    state_dir: Optional[str] = None,
) -> Outcome:
    """Runs ``router`` in-process on ``agent``'s payload for ``case`` (a
    :class:`Scenario`, a :class:`CorpusEntry`, or the agent's payload as a
    dict or JSON) through the binding's run path (``agenthooks.run``, what
    ``main`` does for one invocation: argv, decode, handlers within the
    deadline, encode, fail policy), and predicts what the agent does with
    the answer. Each run gets a fresh state root unless ``state_dir`` is
    given (then runs share dedupe markers and continuation counts)."""
    agent = _native.parse_provider(str(agent))
    scenario = _scenario(case, agent)
    if scenario.payload is not None and scenario.agent != agent:
        raise InvalidArgumentError(f"the payload belongs to {scenario.agent}, not {agent}")
    [(c, source)] = _cases([scenario], [agent], cwd)
    return _route_case(router, c, source, state_dir)


def run_hook(
    argv: Sequence[str],
    agent: str,
    case: Case,
    *,
    timeout: Optional[float] = None,
    cwd: Optional[str] = None,
    state_dir: Optional[str] = None,
) -> Outcome:
    """Runs the hook program ``argv`` out-of-process as ``agent`` runs it
    (through its shell, with its hook variables, the payload on stdin,
    within ``timeout`` seconds or the agent's default hook timeout), and
    predicts what the agent does with the answer. ``{agent}`` and
    ``{event}`` in any word of ``argv`` become the agent id and the native
    event (see :func:`hook_command`). Each run gets a fresh private state
    root (``AGENTHOOKS_STATE_DIR``) unless ``state_dir`` is given."""
    agent = _native.parse_provider(str(agent))
    scenario = _scenario(case, agent)
    if scenario.payload is not None and scenario.agent != agent:
        raise InvalidArgumentError(f"the payload belongs to {scenario.agent}, not {agent}")
    return _simulate(argv, [scenario], [agent], timeout, cwd, state_dir)[0]


def _simulate(
    argv: Sequence[str],
    scenarios: Union[str, List[Scenario]],
    agents: List[str],
    timeout: Optional[float],
    cwd: Optional[str],
    state_dir: Optional[str] = None,
) -> List[Outcome]:
    if isinstance(argv, (str, bytes)):
        raise InvalidArgumentError("argv is a sequence of words, not one string")
    req: Dict[str, Any] = {
        "command": [os.fspath(w) for w in argv],
        "scenarios": scenarios if isinstance(scenarios, str) else [s.to_dict() for s in scenarios],
        "agents": agents,
    }
    if timeout is not None:
        if timeout <= 0:
            raise InvalidArgumentError("timeout must be positive")
        req["timeout_ms"] = max(1, int(timeout * 1000))
    if cwd is not None:
        req["cwd"] = os.fspath(cwd)
    if state_dir is not None:
        req["state_dir"] = os.path.abspath(os.fspath(state_dir))
    return [Outcome._from(o) for o in _call(_native.simulate_json, req)["outcomes"]]


def across_agents(
    target: Union[Router, Sequence[str]],
    cases: Scenarios = None,
    *,
    agents: Optional[Iterable[str]] = None,
    timeout: Optional[float] = None,
    cwd: Optional[str] = None,
    state_dir: Optional[str] = None,
) -> List[Outcome]:
    """Every agent (or ``agents``) x every case: a :class:`~agenthooks.Router`
    runs in-process (:func:`run_router`), an argv runs as a hook program
    (:func:`run_hook`; the agents run in parallel). ``cases`` is one
    scenario, a list of them, or ``None`` / ``"builtin"`` for the core's
    usual guard cases (``rm -rf``, force push, ``ls``, an edit, a read of
    ``.env``, a prompt, a stop). Agents without such an event or tool give
    a skipped outcome."""
    scenarios = _scenarios(cases)
    ids = _agents(agents)
    if isinstance(target, Router):
        return [_route_case(target, c, s, state_dir) for c, s in _cases(scenarios, ids, cwd)]
    return _simulate(target, scenarios, ids, timeout, cwd, state_dir)


def outcome_of(outcomes: Iterable[Outcome], agent: str) -> Outcome:
    """The (first) outcome of one agent."""
    agent = _native.parse_provider(str(agent))
    for o in outcomes:
        if o.agent == agent:
            return o
    raise LookupError(f"no outcome for {agent}")


# -- assertions -------------------------------------------------------------


def _fail(what: str, bad: Sequence[Outcome], total: int) -> None:
    lines = "\n".join("  " + o.describe().replace("\n", "\n  ") for o in bad)
    raise AssertionError(f"{what} ({len(bad)} of {total}):\n{lines}")


def _ran(outcomes: Sequence[Outcome], what: str) -> List[Outcome]:
    """The outcomes that ran; raises when a hook could not run, or when
    nothing ran at all (an assertion over no agent proves nothing)."""
    outcomes = list(outcomes)
    broken = [o for o in outcomes if o.run_error is not None]
    if broken:
        _fail("the hook could not run", broken, len(outcomes))
    ran = [o for o in outcomes if o.ran]
    if not ran:
        skipped = "\n".join("  " + o.describe() for o in outcomes) or "  (no outcomes)"
        raise AssertionError(f"{what}: no agent ran the case:\n{skipped}")
    return ran


def _effect(effect: Union[str, Effect]) -> str:
    try:
        return Effect(effect).value
    except ValueError:
        raise ValueError(f"unknown effect {effect!r} (one of {', '.join(e.value for e in Effect)})") from None


def _warning(code: Union[str, WarningCode]) -> str:
    try:
        return WarningCode(code).value
    except ValueError:
        raise ValueError(
            f"unknown warning code {code!r} (one of {', '.join(w.value for w in WarningCode)})"
        ) from None


def assert_ran(outcomes: Sequence[Outcome]) -> None:
    """Every hook run started (no ``run_error``) and at least one agent ran."""
    _ran(outcomes, "assert_ran")


def _verdict_view(o: Outcome) -> Dict[str, Any]:
    d: Dict[str, Any] = {"agent": o.agent, "scenario": o.scenario, "event": o.event}
    if o.skipped is not None:
        d["skipped"] = o.skipped
    if o.run_error is not None:
        d["run_error"] = o.run_error
    p = o.prediction
    if p is not None:
        d["prediction"] = {"effect": p.effect, "kind": p.kind, "warnings": [{"code": c} for c in p.warning_codes]}
    return d


def verdict(assertion: str, outcomes: Sequence[Outcome]) -> Dict[str, Any]:
    """The core's verdict of ``assertion`` (``blocked_everywhere``,
    ``runs_everywhere``, ``no_empty_allow``) over ``outcomes``: ``{"holds",
    "checked", "offending": [{"index", "agent", "scenario", "event",
    "reason"}], "nothing_checked"?}`` (docs/testing.md; the same rules in
    every language)."""
    req = {"assertion": str(assertion), "outcomes": [_verdict_view(o) for o in outcomes]}
    return _call(_native.verdict_json, req)


def _check(assertion: str, what: str, outcomes: Sequence[Outcome]) -> None:
    outcomes = list(outcomes)
    v = verdict(assertion, outcomes)
    if v["holds"]:
        return
    lines = [
        "  " + outcomes[b["index"]].describe().replace("\n", "\n  ") + f"\n    -> {b['reason']}"
        for b in v["offending"]
    ]
    if v.get("nothing_checked"):
        lines.append(f"  nothing checked: {v['nothing_checked']}")
    raise AssertionError(f"{what} ({len(v['offending'])} of {v['checked']}):\n" + "\n".join(lines))


def assert_blocked_everywhere(outcomes: Sequence[Outcome]) -> None:
    """Every agent whose event can block (its capability row) blocked it:
    ``tool_blocked`` or ``prompt_blocked``. Agents whose event cannot block,
    and skipped agents, are not checked; at least one agent must be able to
    block; a hook that could not run fails it."""
    _check("blocked_everywhere", "not blocked on every agent that can block", outcomes)


def assert_runs_everywhere(outcomes: Sequence[Outcome]) -> None:
    """On every agent that ran, the action goes ahead: not blocked, not
    asking the user, a stop not refused, no ``agent_stops`` outside a stop
    event -- and not because the hook failed (``hook_failed``,
    ``fail_open``, ``fail_closed``, ``crashed``, ``timed_out`` fail it)."""
    _check("runs_everywhere", "the action does not go ahead cleanly everywhere", outcomes)


def assert_no_warning(outcomes: Sequence[Outcome], code: Union[str, WarningCode]) -> None:
    """No agent raises this warning."""
    c = _warning(code)
    ran = _ran(outcomes, f"assert_no_warning({c})")
    bad = [o for o in ran if o.prediction is not None and o.prediction.has_warning(c)]
    if bad:
        _fail(f"warning `{c}` raised", bad, len(ran))


def assert_no_empty_allow(outcomes: Sequence[Outcome]) -> None:
    """No agent sees an empty allow (an allow with nothing else, read as
    "skip the user's approval": warning ``empty_allow``)."""
    _check("no_empty_allow", "warning `empty_allow` raised", outcomes)


def assert_effect(
    outcomes: Union[Outcome, Sequence[Outcome]],
    effect: Union[str, Effect],
    *,
    agent: Optional[str] = None,
) -> None:
    """The outcome (or every outcome that ran, or only ``agent``'s) has
    this effect."""
    e = _effect(effect)
    many = [outcomes] if isinstance(outcomes, Outcome) else list(outcomes)
    if agent is not None:
        a = _native.parse_provider(str(agent))
        many = [o for o in many if o.agent == a]
        if not many:
            raise AssertionError(f"assert_effect: no outcome for {a}")
    ran = _ran(many, f"assert_effect({e})")
    bad = [o for o in ran if o.effect != e]
    if bad:
        _fail(f"not `{e}`", bad, len(ran))


# -- pytest -----------------------------------------------------------------


def parametrize_corpus(
    argname: str = "entry", *, agent: Optional[str] = None, kind: Optional[str] = None
) -> pytest.MarkDecorator:
    """``@pytest.mark.parametrize`` over :func:`corpus` (ids: the fixture names)::

        @parametrize_corpus(kind="tool.pre")
        def test_never_crashes(entry: CorpusEntry) -> None:
            assert_runs_everywhere([run_router(router, entry.agent, entry)])
    """
    import pytest

    entries = corpus(agent, kind)
    if not entries:
        raise ValueError(f"the corpus has no payload for agent={agent!r}, kind={kind!r}")
    return pytest.mark.parametrize(argname, entries, ids=[e.name for e in entries])


def parametrize_agents(argname: str = "agent") -> pytest.MarkDecorator:
    """``@pytest.mark.parametrize`` over the eight agent ids."""
    import pytest

    return pytest.mark.parametrize(argname, list(AGENTS), ids=list(AGENTS))
