"""Tests of the example guard (guard.py) on all eight agents, with
``agenthooks.testing``: what each agent *does* with the guard's answers,
in-process (the router) and out-of-process (guard.py run as each agent
runs it). ``make python-test`` runs them; alone: ``pytest examples/python``.
"""

from __future__ import annotations

import pathlib
import re
import sys

import pytest

import agenthooks as ah
import agenthooks.testing as aht
from agenthooks.testing import CorpusEntry, Effect
from guard import router

GUARD = pathlib.Path(__file__).resolve().with_name("guard.py")
HOOK = aht.hook_command(sys.executable, str(GUARD))


def test_rm_rf_is_blocked_on_every_agent() -> None:
    outcomes = aht.across_agents(router, aht.shell("rm -rf build"))
    aht.assert_blocked_everywhere(outcomes)
    aht.assert_no_empty_allow(outcomes)
    for o in outcomes:
        assert o.prediction is not None and o.prediction.model_sees
        assert "destructive command" in o.prediction.model_sees, o.describe()


def test_force_push_is_never_let_through() -> None:
    # ask, with ask_fallback="deny": the agents that can ask do; the others
    # block (Cursor's and OpenClaw's ask carry an unsupported_decision
    # warning: broken on recent Cursor, denied at once in headless OpenClaw).
    outcomes = aht.across_agents(router, aht.shell("git push --force origin main"))
    aht.assert_ran(outcomes)
    effects = {o.agent: o.effect for o in outcomes}
    assert set(effects.values()) <= {Effect.ASKS_USER.value, Effect.TOOL_BLOCKED.value}, effects
    aht.assert_effect(outcomes, Effect.ASKS_USER, agent="claude-code")
    aht.assert_effect(outcomes, Effect.TOOL_BLOCKED, agent="codex")


def test_npm_install_becomes_npm_ci_where_the_agent_can_rewrite() -> None:
    outcomes = aht.across_agents(router, aht.shell("npm install"))
    aht.assert_runs_everywhere(outcomes)
    for o in outcomes:
        p = o.prediction
        assert p is not None
        if o.effect == Effect.TOOL_RUNS_WITH_INPUT_REWRITTEN:
            assert p.updated_input == {"command": "npm ci"}, o.describe()
    rewritten = {o.agent for o in outcomes if o.effect == Effect.TOOL_RUNS_WITH_INPUT_REWRITTEN}
    assert rewritten == {"claude-code", "codex", "gemini", "copilot", "opencode", "openclaw"}
    # Cursor's beforeShellExecution cannot rewrite: the allow that is left
    # skips the user's approval there (and Kimi Code runs it unchanged).
    aht.assert_effect(outcomes, Effect.TOOL_RUNS_WITHOUT_PROMPT, agent="cursor")
    aht.assert_effect(outcomes, Effect.TOOL_RUNS, agent="kimi-code")


def test_ls_runs_everywhere_and_skips_approval_where_allow_means_that() -> None:
    outcomes = aht.across_agents(router, aht.shell("ls -la"))
    aht.assert_runs_everywhere(outcomes)
    # The guard allows `ls` on purpose: on the agents that read a bare
    # allow as "do not ask the user", that is what happens.
    with pytest.raises(AssertionError) as err:
        aht.assert_no_empty_allow(outcomes)
    skip = {o.agent for o in outcomes if o.prediction is not None and o.prediction.has_warning("empty_allow")}
    assert skip == {"claude-code", "cursor", "copilot"}, str(err.value)
    for agent in skip:
        aht.assert_effect(outcomes, Effect.TOOL_RUNS_WITHOUT_PROMPT, agent=agent)


def test_other_tools_and_prompts_are_left_alone() -> None:
    outcomes = aht.across_agents(router, [aht.edit("src/main.rs"), aht.read(".env"), aht.prompt("deploy")])
    aht.assert_runs_everywhere(outcomes)
    aht.assert_no_empty_allow(outcomes)


def test_a_stop_before_the_tests_ran_keeps_the_agent_going() -> None:
    outcomes = aht.across_agents(router, aht.stop())
    aht.assert_effect(outcomes, Effect.AGENT_CONTINUES)
    for o in outcomes:
        assert o.prediction is not None and "Run the test suite" in (o.prediction.model_sees or "")


@aht.parametrize_corpus(kind="tool.pre")
def test_every_real_tool_pre_payload_gets_a_sound_answer(entry: CorpusEntry) -> None:
    # Every agent's real payload shapes: the guard never fails (its fail
    # policy is closed, so a crash would block) and never hands out an
    # allow by accident.
    outcome = aht.run_router(router, entry.agent, entry)
    assert outcome.ran
    p = outcome.prediction
    assert p is not None
    assert not {"hook_failed", "fail_closed", "crashed", "timed_out"} & set(p.warning_codes), outcome.describe()
    event = ah.decode(
        entry.agent, entry.payload_bytes, event=None if entry.names_event else entry.event, variant=entry.variant
    )
    command = (event.tool.command or "").strip() if event.tool and event.tool.canonical == "shell" else ""
    if "rm -rf" in command and aht.can_block(entry.agent, entry.event):
        aht.assert_blocked_everywhere([outcome])
    if not (command.startswith(("ls", "pwd")) or command == "npm install"):
        # The only allows the guard gives: `ls`/`pwd`, and the npm rewrite.
        assert not p.has_warning("empty_allow"), outcome.describe()


@pytest.mark.parametrize(
    "scenario",
    [aht.shell("rm -rf build"), aht.shell("git push --force origin main"), aht.shell("npm install"), aht.stop()],
    ids=["rm-rf", "force-push", "npm-install", "stop"],
)
def test_guard_py_as_each_agent_runs_it_answers_like_the_router(scenario: aht.Scenario) -> None:
    inside = aht.across_agents(router, scenario)
    outside = aht.across_agents(HOOK, scenario)
    aht.assert_ran(outside)
    # (Each simulated payload has fresh session ids, which OpenCode's stop
    # answer echoes.)
    def same(stdout: str) -> str:
        return re.sub(r"(sim-|call_sim_)[0-9a-f]+", r"\1*", stdout)

    for a, b in zip(inside, outside):
        assert (a.agent, a.effect, same(a.answer.stdout), a.answer.exit) == (
            b.agent,
            b.effect,
            same(b.answer.stdout),
            b.answer.exit,
        ), (a.describe() + "\n" + b.describe())
