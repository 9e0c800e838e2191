"""agenthooks.testing: the corpus, the behaviour reader, a router in-process
and a hook program out-of-process on every agent, and the assertions --
which must fail when a guard is wrong (forgets an agent, allows blindly,
prints nothing, cannot start, hangs)."""

from __future__ import annotations

import json
import pathlib
import re
import sys
from typing import Any, Dict, List, Set

import pytest

import agenthooks as ah
import agenthooks.testing as aht
from agenthooks.testing import CorpusEntry, Outcome

from conftest import FIXTURES, load_json

BLOCKING_KINDS = ("tool.pre", "prompt.submitted")


def deny_all() -> ah.Router:
    router = ah.Router()

    @router.on_tool_pre
    def no_tools(event: ah.ToolPreEvent) -> ah.Decision:
        return ah.deny(f"no {event.tool.name}")

    @router.on_prompt
    def no_prompts(event: ah.PromptEvent) -> ah.Decision:
        return ah.block_prompt("no prompts")

    return router


def forgets(agent: str) -> ah.Router:
    """A guard with a bug: it lets ``rm -rf`` through on one agent."""
    router = ah.Router()

    @router.on_tool_pre
    def guard(event: ah.ToolPreEvent) -> ah.Decision:
        if event.provider == agent:
            return ah.no_decision()
        if "rm -rf" in (event.tool.command or ""):
            return ah.deny("destructive command")
        return ah.no_decision()

    return router


def allows_all() -> ah.Router:
    router = ah.Router()

    @router.on_tool_pre
    def yes(event: ah.ToolPreEvent) -> ah.Decision:
        return ah.allow()

    return router


def same_ids(text: str) -> str:
    """Every simulated payload has fresh session and call ids (which an
    answer may echo, as OpenCode's stop prompt does): blank them out."""
    return re.sub(r"(sim-|call_sim_)[0-9a-f]+", r"\1*", text)


def agents_named(message: str) -> Set[str]:
    """The agents an assertion message lists (one ``<agent> / ...`` line each)."""
    return set(re.findall(r"^  ([a-z-]+) / ", message, re.M))


# -- corpus -----------------------------------------------------------------


def test_corpus_covers_every_agent_and_filters() -> None:
    every = aht.corpus()
    assert {e.agent for e in every} == set(aht.AGENTS) == set(ah.Provider)
    assert len(aht.AGENTS) == 8
    names = [e.name for e in every]
    assert len(names) == len(set(names)), "fixture names are unique"
    for agent in aht.AGENTS:
        mine = aht.corpus(agent)
        assert mine and all(e.agent == agent for e in mine)
        assert all(e.name.startswith(f"{agent}/") for e in mine)
    pre = aht.corpus(kind="tool.pre")
    assert pre and all(e.kind == "tool.pre" for e in pre)
    both = aht.corpus("codex", "tool.pre")
    assert both == [e for e in every if e.agent == "codex" and e.kind == "tool.pre"]
    # The corpus is the core's copy of fixtures/<agent>/: every entry names
    # a fixture file that exists.
    for e in every:
        agent, stem = e.name.split("/", 1)
        assert (FIXTURES / agent / f"{stem}.json").is_file(), e.name


def test_corpus_rejects_unknown_filters() -> None:
    with pytest.raises(ah.AgentHooksError) as err:
        aht.corpus("no-such-agent")
    assert err.value.code == "unknown_provider"
    with pytest.raises(ah.AgentHooksError):
        aht.corpus(kind="no.such.kind")


@aht.parametrize_corpus()
def test_every_corpus_payload_decodes_as_its_kind(entry: CorpusEntry) -> None:
    event = ah.decode(
        entry.agent,
        entry.payload_bytes,
        event=None if entry.names_event else entry.event,
        variant=entry.variant,
    )
    assert (event.provider, event.native_name, event.kind) == (entry.agent, entry.event, entry.kind)


@aht.parametrize_corpus(kind="tool.pre")
def test_a_deny_blocks_every_tool_pre_payload_in_process(entry: CorpusEntry) -> None:
    outcome = aht.run_router(deny_all(), entry.agent, entry)
    assert outcome.ran and outcome.event == entry.event
    if aht.can_block(entry.agent, entry.event):
        aht.assert_blocked_everywhere([outcome])
    aht.assert_no_empty_allow([outcome])


def test_parametrize_agents_lists_the_eight() -> None:
    mark = aht.parametrize_agents()
    assert mark.args == ("agent", list(aht.AGENTS))


def test_parametrize_corpus_refuses_an_empty_selection() -> None:
    with pytest.raises(ValueError):
        aht.parametrize_corpus(agent="codex", kind="file.edited")


# -- the behaviour reader: every vector of fixtures/simulate ----------------


def behaviour_rows() -> List[Any]:
    root = FIXTURES / "simulate"
    files = sorted(root.glob("*.json")) + sorted((root / "observed").glob("*.json"))
    rows = []
    for path in files:
        doc = load_json(path)
        assert doc["agent"] == path.stem
        for row in doc["rows"]:
            if "agent_version" in doc:  # observed on the real agent (tier 2)
                row = {**row, "agent_version": doc["agent_version"]}
            rows.append(pytest.param(doc["agent"], row, id=f"{path.parent.name}/{path.stem}/{row['name']}"))
    return rows


ROWS = behaviour_rows()


def test_every_agent_has_behaviour_vectors() -> None:
    agents = {p.values[0] for p in ROWS}
    assert agents == set(aht.AGENTS)
    assert len(ROWS) >= 100


@pytest.mark.parametrize("agent,row", ROWS)
def test_behaviour_vector(agent: str, row: Dict[str, Any]) -> None:
    a = row["answer"]
    answer = aht.Answer(
        stdout=a.get("stdout", ""),
        stderr=a.get("stderr", ""),
        exit=a.get("exit", 0),
        timed_out=a.get("timed_out", False),
    )
    # The observed rows come from headless runs (tier 2): read them as such;
    # a real agent shows no warnings, so theirs need only be predicted.
    observed = "agent_version" in row
    p = aht.predict(agent, row["event"], answer, tool=row.get("tool"), mode="headless" if observed else None)
    assert p.agent == agent and p.event == row["event"]
    assert p.effect == aht.Effect(row["effect"])
    want = {aht.WarningCode(w).value for w in row.get("warnings", [])}
    if observed:
        assert want <= set(p.warning_codes)
    else:
        assert set(p.warning_codes) == want
    for key in ("model_sees", "user_sees"):
        if key not in row:
            continue
        got = getattr(p, key)
        if row[key] is None:
            assert got is None, key
        else:
            assert got is not None and row[key] in got, (key, got)


def test_predict_rejects_an_unknown_agent() -> None:
    with pytest.raises(ah.AgentHooksError) as err:
        aht.predict("nope", "PreToolUse", aht.Answer())
    assert err.value.code == "unknown_provider"


# -- in-process: a router on every agent -----------------------------------


def test_a_right_guard_passes() -> None:
    outcomes = aht.across_agents(forgets("none"), aht.shell("rm -rf build"))
    assert [o.agent for o in outcomes] == list(aht.AGENTS)
    aht.assert_blocked_everywhere(outcomes)
    aht.assert_no_empty_allow(outcomes)
    aht.assert_effect(outcomes, aht.Effect.TOOL_BLOCKED)
    for o in outcomes:
        assert o.prediction is not None and o.prediction.blocked
        assert o.argv[1:4] == ("agenthooks", "run", f"--provider={o.agent}")


@pytest.mark.parametrize("agent", aht.AGENTS)
def test_a_guard_that_forgets_one_agent_fails_blocked_everywhere(agent: str) -> None:
    outcomes = aht.across_agents(forgets(agent), aht.shell("rm -rf build"))
    with pytest.raises(AssertionError) as err:
        aht.assert_blocked_everywhere(outcomes)
    message = str(err.value)
    assert agents_named(message) == {agent}, message
    assert "(1 of 8)" in message
    assert "tool_runs" in message and "answer: exit" in message
    # The other seven still block, one agent at a time.
    for other in aht.AGENTS:
        if other != agent:
            aht.assert_effect(outcomes, "tool_blocked", agent=other)
    with pytest.raises(AssertionError):
        aht.assert_effect(outcomes, "tool_blocked", agent=agent)


def test_a_blind_allow_fails_no_empty_allow_on_the_agents_that_skip_approval() -> None:
    outcomes = aht.across_agents(allows_all(), aht.shell("ls -la"))
    with pytest.raises(AssertionError) as err:
        aht.assert_no_empty_allow(outcomes)
    message = str(err.value)
    # Claude Code, Cursor and Copilot read a bare allow as "skip the
    # user's approval"; the others get the no-op (the core degrades it).
    assert agents_named(message) == {"claude-code", "cursor", "copilot"}, message
    assert "empty_allow" in message and '"permissionDecision":"allow"' in message
    with pytest.raises(AssertionError) as blocked:
        aht.assert_blocked_everywhere(outcomes)
    assert agents_named(str(blocked.value)) == set(aht.AGENTS)
    aht.assert_runs_everywhere(outcomes)  # it does run: that is the trouble


def test_runs_everywhere_fails_on_a_block_or_a_question() -> None:
    outcomes = aht.across_agents(forgets("codex"), aht.shell("rm -rf build"))
    with pytest.raises(AssertionError) as err:
        aht.assert_runs_everywhere(outcomes)
    assert agents_named(str(err.value)) == set(aht.AGENTS) - {"codex"}

    asks = ah.Router(policy=ah.Policy(ask_fallback="deny"))

    @asks.on_tool_pre
    def ask(event: ah.ToolPreEvent) -> ah.Decision:
        return ah.ask("sure?")

    outcomes = aht.across_agents(asks, aht.shell("git push --force"))
    with pytest.raises(AssertionError) as err:
        aht.assert_runs_everywhere(outcomes)
    assert agents_named(str(err.value)) == set(aht.AGENTS)


def test_a_handler_that_raises_is_answered_by_the_fail_policy() -> None:
    for fail, effect in (("closed", "tool_blocked"), ("open", "tool_runs")):
        router = ah.Router(policy=ah.Policy(fail=fail))

        @router.on_tool_pre
        def broken(event: ah.ToolPreEvent) -> ah.Decision:
            raise RuntimeError("bug")

        outcome = aht.run_router(router, "claude-code", aht.shell("ls"))
        aht.assert_effect(outcome, effect)


def test_prompt_and_stop_scenarios() -> None:
    outcomes = aht.across_agents(deny_all(), aht.prompt("deploy to production"))
    aht.assert_blocked_everywhere(outcomes)
    assert {o.effect for o in outcomes if o.ran} <= {"prompt_blocked", "prompt_continues"}

    keep_going = ah.Router()

    @keep_going.on_stop
    def again(event: ah.StopEvent) -> ah.Decision:
        return ah.continue_with("run the tests first")

    outcomes = aht.across_agents(keep_going, aht.stop())
    aht.assert_effect(outcomes, aht.Effect.AGENT_CONTINUES)
    with pytest.raises(AssertionError):
        aht.assert_runs_everywhere(outcomes)


def test_agents_without_the_tool_are_skipped_and_not_checked() -> None:
    outcomes = aht.across_agents(deny_all(), aht.read(".env"))
    codex = aht.outcome_of(outcomes, "codex")
    assert codex.skipped and not codex.ran and codex.effect is None
    assert "codex / read .env: skipped" in codex.describe()
    aht.assert_blocked_everywhere(outcomes)


def test_an_assertion_over_no_agent_fails() -> None:
    entry = aht.corpus("codex", "tool.pre")[0]
    outcomes = aht.across_agents(deny_all(), entry, agents=["cursor", "gemini"])
    assert all(o.skipped for o in outcomes)
    for check in (aht.assert_blocked_everywhere, aht.assert_runs_everywhere, aht.assert_no_empty_allow):
        with pytest.raises(AssertionError, match="no agent ran"):
            check(outcomes)


def test_blocked_everywhere_needs_an_event_that_can_block() -> None:
    # No agent can block a session start: "blocked everywhere" cannot hold.
    starts = [aht.corpus(agent, "session.start")[0] for agent in aht.AGENTS]
    outcomes = [aht.run_router(deny_all(), e.agent, e) for e in starts]
    assert all(o.ran and not aht.can_block(o.agent, o.event) for o in outcomes)
    with pytest.raises(AssertionError, match="no agent that ran can block"):
        aht.assert_blocked_everywhere(outcomes)
    aht.assert_runs_everywhere(outcomes)


def test_native_payloads_and_corpus_entries() -> None:
    payload = {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
        "tool_use_id": "t",
        "cwd": "/tmp",
    }
    for case in (payload, json.dumps(payload), json.dumps(payload).encode(), aht.native("codex", payload)):
        outcome = aht.run_router(deny_all(), "codex", case)
        aht.assert_effect(outcome, "tool_blocked")
        assert outcome.payload == payload and outcome.tool == "Bash"
    # A Copilot payload does not name its event: give it.
    copilot = aht.native("copilot", {"toolName": "bash", "toolArgs": {"command": "ls"}}, "preToolUse")
    aht.assert_effect(aht.run_router(deny_all(), "copilot", copilot), "tool_blocked")
    entry = aht.corpus("gemini", "tool.pre")[0]
    with pytest.raises(ah.InvalidArgumentError):
        aht.run_router(deny_all(), "codex", entry)
    with pytest.raises(ah.InvalidArgumentError):
        aht.run_router(deny_all(), "codex", b"not json")
    with pytest.raises(ah.InvalidArgumentError):
        aht.run_router(deny_all(), "codex", aht.Scenario(event="tool.pre"))  # no command
    with pytest.raises(ah.AgentHooksError):
        aht.run_router(deny_all(), "no-such-agent", aht.shell("ls"))


def test_every_run_gets_a_fresh_state_root(tmp_path: pathlib.Path) -> None:
    # Codex reports only `stop_hook_active`; the core counts continuations
    # in the state root. Fresh roots make every run independent; a shared
    # one lets the cap end the loop.
    router = ah.Router(policy=ah.Policy(continuation_cap=2))

    @router.on_stop
    def again(event: ah.StopEvent) -> ah.Decision:
        return ah.continue_with("once more")

    # (`stop_hook_active: true` counts as one continuation already.)
    again_stop = aht.native(
        "codex",
        {"session_id": "cap", "turn_id": "t", "hook_event_name": "Stop", "stop_hook_active": True, "cwd": "/"},
    )
    effects = [aht.run_router(router, "codex", again_stop).effect for _ in range(3)]
    assert effects == ["agent_continues"] * 3
    shared = [aht.run_router(router, "codex", again_stop, state_dir=str(tmp_path)).effect for _ in range(3)]
    assert shared == ["agent_continues", "agent_continues", "agent_stops"], shared


def test_assert_effect_checks_names() -> None:
    outcome = aht.run_router(deny_all(), "gemini", aht.shell("ls"))
    aht.assert_effect(outcome, "tool_blocked")
    with pytest.raises(AssertionError, match="not `tool_runs`"):
        aht.assert_effect(outcome, aht.Effect.TOOL_RUNS)
    with pytest.raises(ValueError, match="unknown effect"):
        aht.assert_effect(outcome, "blocked")
    with pytest.raises(ValueError, match="unknown warning"):
        aht.assert_no_warning([outcome], "empty-allow")
    with pytest.raises(AssertionError, match="no outcome for codex"):
        aht.assert_effect([outcome], "tool_blocked", agent="codex")


# -- out-of-process: a hook program run as each agent runs it ---------------


def test_hook_programs_as_each_agent_runs_them(tmp_path: pathlib.Path) -> None:
    hook = tmp_path / "deny.py"
    hook.write_text(
        "import agenthooks as ah\n"
        "r = ah.Router()\n"
        "r.on_tool_pre(lambda e: ah.deny('no') if e.provider != 'gemini' else ah.no_decision())\n"
        "ah.main(r)\n"
    )
    argv = aht.hook_command(sys.executable, str(hook))
    assert argv[-3:] == ["run", "--provider={agent}", "--event={event}"]
    outcomes = aht.across_agents(argv, aht.shell("rm -rf build"))
    assert [o.agent for o in outcomes] == list(aht.AGENTS)
    assert all(o.ran for o in outcomes)
    with pytest.raises(AssertionError) as err:
        aht.assert_blocked_everywhere(outcomes)
    assert agents_named(str(err.value)) == {"gemini"}
    one = aht.run_hook(argv, "claude-code", aht.shell("rm -rf build"))
    aht.assert_effect(one, "tool_blocked")
    assert f"--provider=claude-code" in one.argv[-1]


def test_a_silent_hook_fails_runs_everywhere_on_cursor() -> None:
    outcomes = aht.across_agents(["true"], aht.shell("ls"))
    with pytest.raises(AssertionError) as err:
        aht.assert_runs_everywhere(outcomes)
    # Cursor counts empty stdout as a failed hook.
    assert "cursor" in agents_named(str(err.value))
    assert "hook_failed" in str(err.value)


def test_a_hook_that_cannot_start_fails_every_assertion(tmp_path: pathlib.Path) -> None:
    missing = str(tmp_path / "no-such-hook")
    outcome = aht.run_hook([missing], "codex", aht.shell("ls"))
    assert outcome.run_error and not outcome.ran
    for check in (aht.assert_ran, aht.assert_runs_everywhere, aht.assert_blocked_everywhere):
        with pytest.raises(AssertionError, match="could not run"):
            check([outcome])


def test_a_hook_past_its_timeout() -> None:
    outcome = aht.run_hook(["sleep", "5"], "claude-code", aht.shell("ls"), timeout=0.3)
    assert outcome.answer.timed_out and outcome.answer.exit is None
    assert outcome.prediction is not None and outcome.prediction.has_warning("timed_out")
    assert outcome.duration_ms < 4000
    with pytest.raises(AssertionError, match="timed_out"):
        aht.assert_runs_everywhere([outcome])
    with pytest.raises(ah.InvalidArgumentError):
        aht.run_hook(["true"], "codex", aht.shell("ls"), timeout=0)
    with pytest.raises(ah.InvalidArgumentError):
        aht.run_hook("true", "codex", aht.shell("ls"))  # one string is not an argv


def test_builtin_scenarios_in_and_out_of_process_agree(tmp_path: pathlib.Path) -> None:
    hook = tmp_path / "hook.py"
    hook.write_text(
        "import agenthooks as ah\n"
        "r = ah.Router()\n"
        "r.on_tool_pre(lambda e: ah.deny('no') if 'rm' in (e.tool.command or '') else ah.no_decision())\n"
        "ah.main(r)\n"
    )
    router = ah.Router()
    router.on_tool_pre(lambda e: ah.deny("no") if "rm" in (e.tool.command or "") else ah.no_decision())
    inside = aht.across_agents(router, cwd=str(tmp_path))
    outside = aht.across_agents(aht.hook_command(sys.executable, str(hook)), "builtin", cwd=str(tmp_path))
    assert len(inside) == len(outside) == 7 * 8
    for a, b in zip(inside, outside):
        assert (a.agent, a.scenario, a.event, a.skipped is None) == (b.agent, b.scenario, b.event, b.skipped is None)
        if a.ran:
            assert (same_ids(a.answer.stdout), a.answer.exit, a.effect) == (
                same_ids(b.answer.stdout),
                b.answer.exit,
                b.effect,
            ), a.describe()


def test_outcome_of_and_describe() -> None:
    outcomes: List[Outcome] = aht.across_agents(deny_all(), [aht.shell("ls", name="listing")])
    o = aht.outcome_of(outcomes, "kimi-code")
    assert o.scenario == "listing"
    text = o.describe()
    assert text.startswith("kimi-code / listing (PreToolUse, Bash): tool_blocked")
    assert "answer: exit 2" in text
    with pytest.raises(LookupError):
        aht.outcome_of([], "codex")
