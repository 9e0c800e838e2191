"""Issue 22: with ``agenthooks._native`` missing or corrupted, ``import
agenthooks`` works and a fail-closed guard still blocks, in the agent's own
blocking form, with a reason naming the cause; fail open gives no opinion.

Each case runs a guard written from the README against a copy of the
installed package whose extension is removed or replaced by garbage, as a
broken install would be."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
from typing import Any, Dict, Iterator, List, Optional, Sequence

import pytest

import agenthooks as ah

from conftest import PYTHON, ROOT

MARKER = "agenthooks: native_unavailable: "
TABLE = json.loads((ROOT / "bindings/python/python/agenthooks/_fail_table.json").read_text())

GUARD = """
import os
import agenthooks as ah

router = ah.Router(policy=ah.Policy(fail=os.environ.get("AH_FAIL", "open"), ask_fallback="deny"))

@router.on_tool_pre
def guard(event: ah.ToolPreEvent) -> ah.Decision:
    if event.tool.canonical == "shell" and "rm -rf" in (event.tool.command or ""):
        return ah.deny("destructive command")
    return ah.no_decision()

if os.environ.get("AH_OBSERVER"):
    router.on_any(lambda e: None)
if os.environ.get("AH_SPELLING"):
    router.add(os.environ["AH_SPELLING"], lambda e: None)

if __name__ == "__main__":
    ah.main(router)
"""

PRE = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": "rm -rf /"}}).encode()


def broken_install(root: pathlib.Path, mode: str) -> pathlib.Path:
    pkg = pathlib.Path(ah.__file__).parent
    dst = root / mode
    shutil.copytree(pkg, dst / "agenthooks", ignore=shutil.ignore_patterns("__pycache__"))
    for so in (dst / "agenthooks").glob("_native*.so"):
        if mode == "missing":
            so.unlink()
        else:
            so.write_bytes(b"\x7fELF not a shared object" * 64)
    (dst / "guard.py").write_text(GUARD)
    return dst


@pytest.fixture(scope="module", params=["missing", "corrupt"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[pathlib.Path]:
    yield broken_install(tmp_path_factory.mktemp("failsafe"), str(request.param))


def run(site: pathlib.Path, args: Sequence[str], payload: bytes, env: Optional[Dict[str, str]] = None,
        code: Optional[str] = None) -> "subprocess.CompletedProcess[str]":
    prog = ["-c", code] if code is not None else [str(site / "guard.py")]
    e = {k: v for k, v in os.environ.items() if not k.startswith("AH_")}
    e.update(PYTHONPATH=str(site), **(env or {}))
    return subprocess.run([PYTHON, "-s", *prog, *args], input=payload.decode(), capture_output=True,
                          text=True, env=e, timeout=60, cwd=site)


def test_import_router_and_decorators_work_and_core_apis_name_the_cause(site: pathlib.Path) -> None:
    code = """
import agenthooks as ah
from agenthooks import _failsafe
assert _failsafe.cause() is not None
r = ah.Router(policy=ah.Policy(fail="closed"))
r.on_tool_pre(lambda e: ah.deny("x"))
r.on("PreToolUse")(lambda e: None)
r.middleware(lambda e, n: n(e))
assert r.policy.fail == "closed"
assert ah.Kind.TOOL_PRE == "tool.pre"
try:
    ah.decode("claude-code", b"{}")
except ImportError as e:
    assert e.code == "native_unavailable" and "cannot load agenthooks._native" in str(e), e
    print("raised")
"""
    p = run(site, [], b"", code=code)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "raised"


@pytest.mark.parametrize("provider", ["claude-code", "codex", "kimi-code"])
def test_fail_closed_blocks_with_exit_2_and_the_cause(site: pathlib.Path, provider: str) -> None:
    p = run(site, ["agenthooks", "run", f"--provider={provider}"], PRE, {"AH_FAIL": "closed"})
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    assert p.stderr.startswith(MARKER), p.stderr
    assert "cannot load agenthooks._native" in p.stderr
    if site.name == "corrupt":
        assert "_native" in p.stderr and ".so" in p.stderr
    else:
        assert "No module named 'agenthooks._native'" in p.stderr, p.stderr


def test_argv_fail_overrides_and_fail_open_is_no_opinion(site: pathlib.Path) -> None:
    p = run(site, ["agenthooks", "run", "--provider=claude-code", "--fail=closed"], PRE)
    assert p.returncode == 2, p.stderr
    p = run(site, ["agenthooks", "run", "--provider=claude-code"], PRE)
    assert (p.returncode, p.stdout) == (0, "")
    assert p.stderr.startswith(MARKER) and "fail-open" in p.stderr
    cursor = json.dumps({"hook_event_name": "beforeShellExecution", "command": "ls"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=cursor"], cursor)
    assert json.loads(p.stdout) == {}  # Cursor's "no opinion"


def test_only_events_the_router_could_gate_are_blocked(site: pathlib.Path) -> None:
    closed = {"AH_FAIL": "closed"}
    argv = ["agenthooks", "run", "--provider=claude-code"]
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}).encode()
    assert run(site, argv, prompt, closed).returncode == 0  # no prompt handler
    assert run(site, argv, prompt, {**closed, "AH_OBSERVER": "1"}).returncode == 2
    assert run(site, argv, prompt, {**closed, "AH_SPELLING": "no-such-kind"}).returncode == 2
    assert run(site, argv, prompt, {**closed, "AH_SPELLING": "user_prompt_submit"}).returncode == 2
    assert run(site, argv, prompt, {**closed, "AH_SPELLING": "Stop"}).returncode == 0
    post = json.dumps({"hook_event_name": "PostToolUse"}).encode()
    p = run(site, argv, post, {**closed, "AH_OBSERVER": "1"})
    assert p.returncode == 0 and "nothing to block on PostToolUse" in p.stderr
    # Exit 2 on Stop would keep the agent looping: never a block there.
    stop = json.dumps({"hook_event_name": "Stop"}).encode()
    assert run(site, argv, stop, {**closed, "AH_OBSERVER": "1"}).returncode == 0
    # An event that cannot be named is blocked.
    assert run(site, argv, b"not json", closed).returncode == 2


def test_each_agent_gets_its_own_blocking_form(site: pathlib.Path) -> None:
    closed = {"AH_FAIL": "closed", "AH_OBSERVER": "1"}
    perm = json.dumps({"hook_event_name": "PermissionRequest", "tool_name": "Bash"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=claude-code"], perm, closed)
    # Claude Code ignores exit 2 on PermissionRequest (quirk 3): a JSON deny.
    out = json.loads(p.stdout)
    assert out["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    assert "native_unavailable: cannot load" in out["hookSpecificOutput"]["decision"]["message"]
    gem = json.dumps({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=gemini"], gem, closed)
    assert p.returncode == 0 and json.loads(p.stdout)["decision"] == "deny"
    cop = json.dumps({"toolName": "bash", "toolArgs": "{}"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=copilot", "--event=preToolUse"], cop, closed)
    assert json.loads(p.stdout)["permissionDecision"] == "deny"
    p = run(site, ["agenthooks", "run"], PRE, closed)  # no provider: exit 2 blocks everywhere
    assert p.returncode == 2 and p.stderr.startswith(MARKER)


def test_run_in_process(site: pathlib.Path) -> None:
    code = """
import agenthooks as ah
r = ah.Router(policy=ah.Policy(fail="closed"))
r.on_tool_pre(lambda e: None)
resp = ah.run(r, ["x", "agenthooks", "run", "--provider=codex"], %r)
print(resp.exit_code, resp.stderr.startswith(%r))
""" % (PRE, MARKER)
    p = run(site, [], b"", code=code)
    assert p.stdout.split() == ["2", "True"], p.stderr


def test_serve_answers_each_frame_with_the_fail_policy(site: pathlib.Path) -> None:
    frames = b"\n".join([
        json.dumps({"hello": {"provider": "openclaw"}}).encode(),
        json.dumps({"seq": 7, "hook": "before_tool_call", "event": {"toolName": "exec"}}).encode(),
    ]) + b"\n"
    p = run(site, ["agenthooks", "serve", "--provider=openclaw"], frames, {"AH_FAIL": "closed"})
    assert p.returncode == 0, p.stderr
    hello, reply = [json.loads(line) for line in p.stdout.splitlines()]
    assert hello["hello"]["policy"]["fail"] == "closed"
    assert reply["seq"] == 7 and reply["error"]["code"] == "native_unavailable"
    assert reply["output"]["block"] is True and "native_unavailable" in reply["output"]["blockReason"]


def test_serve_bounds_lines_and_always_sends_output(site: pathlib.Path) -> None:
    # A line over --max-bytes is answered (fail policy, no seq) and skipped,
    # the next frame is still served; a no-opinion reply carries output null.
    big = b'{"seq": 1, "pad": "' + b"x" * 200_000 + b'"}'
    frames = big + b"\n" + json.dumps(
        {"seq": 2, "hook": "before_tool_call", "event": {"toolName": "exec"}}).encode() + b"\n"
    p = run(site, ["agenthooks", "serve", "--provider=openclaw", "--max-bytes=1000"], frames,
            {"AH_FAIL": "closed"})
    assert p.returncode == 0, p.stderr
    first, second = [json.loads(line) for line in p.stdout.splitlines()]
    assert first["seq"] is None and first["output"]["block"] is True
    assert second["seq"] == 2 and second["output"]["block"] is True
    p = run(site, ["agenthooks", "serve", "--provider=openclaw"],
            json.dumps({"seq": 3, "hook": "after_tool_call", "event": {}}).encode() + b"\n", {})
    reply = json.loads(p.stdout)
    assert "output" in reply and reply["error"]["code"] == "native_unavailable"


def test_a_hook_that_crashes_at_import_still_answers_fail_closed(site: pathlib.Path) -> None:
    # The hook calls a core API at import (before main): argv's --fail=closed still holds.
    code = "import agenthooks as ah\nah.quirks()\n"
    p = run(site, ["agenthooks", "run", "--provider=codex", "--fail=closed"], PRE, code=code)
    assert p.returncode == 2
    assert p.stderr.startswith(MARKER), p.stderr
    assert "Traceback" in p.stderr
    # Without --fail=closed the crash is left as it was.
    p = run(site, ["agenthooks", "run", "--provider=codex"], PRE, code=code)
    assert p.returncode == 1


def test_the_installed_table_is_the_committed_one() -> None:
    installed = pathlib.Path(ah.__file__).parent / "_fail_table.json"
    assert json.loads(installed.read_text()) == TABLE
    node = json.loads((ROOT / "bindings/node/lib/fail-table.json").read_text())
    assert node == TABLE
    assert TABLE["marker"] == MARKER


def test_doctor_reports_a_hook_whose_native_part_cannot_load(site: pathlib.Path, tmp_path: pathlib.Path) -> None:
    from conftest import CLI

    if not CLI.exists():
        pytest.skip(f"{CLI} not built (make python-test builds it)")
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    wrapper = tmp_path / "guard.sh"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={site} exec {PYTHON} -s {site / 'guard.py'} \"$@\"\n")
    wrapper.chmod(0o755)
    manifest = tmp_path / "hooks.toml"
    manifest.write_text(f'id = "guard"\nprogram = "{wrapper}"\nfail = "closed"\n\n'
                        '[[hooks]]\nkind = "tool.pre"\nmatch = "shell"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("AH_")}
    env["AGENTHOOKS_STATE_DIR"] = str(tmp_path / "state")  # doctor runs only what install recorded
    p = subprocess.run([str(CLI), "install", "--agent=claude-code", "--scope=user", f"--manifest={manifest}",
                        "--home", str(home), "--project", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    p = subprocess.run([str(CLI), "doctor", "--home", str(home), "--project", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "FAILED" in p.stdout and "native part cannot load: cannot load agenthooks._native" in p.stdout, p.stdout


# ----------------------------------------------------------- argv: the core's rules
# The stand-in parses argv itself; it must read it as the core's run entry does
# (core/src/runtime.rs `launch` / `start` / `universal_answer`), or a typo in a
# config opens a guard that was configured closed. Every case below runs under
# a fail-open router (no AH_FAIL) unless it says otherwise.

CLAUDE = ["agenthooks", "run", "--provider=claude-code"]
STOP = json.dumps({"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": False})


def test_attack_a_typo_in_fail_is_read_as_closed(site: pathlib.Path) -> None:
    # `--fail=closd` cannot be parsed: the core reads it as closed (never the
    # router's open), so `rm -rf` is blocked and stderr names the bad value.
    p = run(site, [*CLAUDE, "--fail=closd"], PRE)
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    assert "--fail" in p.stderr and "closd" in p.stderr, p.stderr
    # `--fail` without a value: closed too.
    p = run(site, [*CLAUDE, "--fail"], PRE)
    assert p.returncode == 2, p.stderr
    assert "`--fail` needs a value" in p.stderr, p.stderr


def test_attack_a_typo_in_fail_is_closed_for_a_hook_that_crashes_at_import(site: pathlib.Path) -> None:
    code = "import agenthooks as ah\nah.quirks()\n"
    p = run(site, ["agenthooks", "run", "--provider=codex", "--fail=closd"], PRE, code=code)
    assert p.returncode == 2, p.stderr


def test_attack_a_decoy_json_argument_never_replaces_stdin(site: pathlib.Path) -> None:
    closed = [*CLAUDE, "--fail=closed"]
    # Before the `agenthooks` word (a config blob of the program): never the
    # payload, with stdin real or empty (then nothing names the event: blocked).
    for stdin in (PRE, b""):
        p = run(site, [STOP, *closed], stdin)
        assert p.returncode == 2, (stdin, p.stderr)
    # As the last argument it is the payload only when stdin is blank
    # (ASCII whitespace); stdin holds the real call here.
    p = run(site, [*closed, STOP], PRE)
    assert p.returncode == 2, p.stderr
    # A vertical tab is not blank to the core: stdin is still the payload
    # (unreadable: blocked), not the decoy.
    p = run(site, [*closed, STOP], b"\x0b")
    assert p.returncode == 2, p.stderr
    # The legacy argv mode itself still works: blank stdin, JSON last.
    p = run(site, [*closed, STOP], b" \n")
    assert (p.returncode, p.stdout) == (0, ""), p.stderr


def test_attack_an_option_is_never_the_value_of_the_option_before_it(site: pathlib.Path) -> None:
    # `--provider --fail=closed`: the provider is missing (unusable), and
    # `--fail=closed` still applies: the universal block (exit 2).
    p = run(site, ["agenthooks", "run", "--provider", "--fail=closed"], PRE)
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    assert "`--provider` needs a value" in p.stderr and "exit 2" in p.stderr, p.stderr


def test_attack_an_unknown_option_is_a_warning_and_the_block_stands(site: pathlib.Path) -> None:
    for extra in (["--timout=5"], ["--timout", "5"], ["--timout"]):
        p = run(site, [*CLAUDE, *extra, "--fail=closed"], PRE)
        assert p.returncode == 2, (extra, p.stderr)
        assert "ignored unknown option `--timout" in p.stderr, p.stderr
    # The space form of an unknown option takes no value: `5` is an ignored argument.
    p = run(site, [*CLAUDE, "--timout", "5", "--fail=closed"], PRE)
    assert "ignored unexpected argument `5`" in p.stderr, p.stderr


def test_attack_the_last_fail_wins_as_in_the_core(site: pathlib.Path) -> None:
    p = run(site, [*CLAUDE, "--fail=open", "--fail=closed"], PRE)
    assert p.returncode == 2, p.stderr


def test_unknown_provider_is_the_universal_answer(site: pathlib.Path) -> None:
    argv = ["agenthooks", "run", "--provider=claude-cod", "--fail=closed"]
    p = run(site, argv, PRE)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert "unknown_provider" in p.stderr and "claude-cod" in p.stderr, p.stderr
    # On a stop event exit 2 would make the agent continue: no opinion, logged.
    p = run(site, argv, STOP.encode())
    assert (p.returncode, p.stdout) == (0, ""), p.stderr
    assert "logged_only" in p.stderr, p.stderr
    # An alias the core accepts is a known provider (Claude's own JSON deny
    # on PermissionRequest, not the universal exit 2 Claude ignores there).
    perm = json.dumps({"hook_event_name": "PermissionRequest", "tool_name": "Bash"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=Claude", "--fail=closed"], perm, {"AH_OBSERVER": "1"})
    assert json.loads(p.stdout)["hookSpecificOutput"]["decision"]["behavior"] == "deny", p.stderr


def test_a_bad_value_answers_the_fail_policy_even_without_a_gating_handler(site: pathlib.Path) -> None:
    # An argv problem is answered by the core before any handler: the router
    # cannot narrow it (a prompt is blocked though no prompt handler exists).
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}).encode()
    p = run(site, [*CLAUDE, "--fail=closed", "--timeout=ten"], prompt)
    assert p.returncode == 2, p.stderr
    assert "--timeout" in p.stderr and "ten" in p.stderr


def test_usage_without_the_word_in_process_too(site: pathlib.Path) -> None:
    code = """
import agenthooks as ah
r = ah.run(ah.Router(), ["guard", "run", "--provider=claude-code"], %r)
print(r.exit_code)
print(r.stderr)
""" % (PRE,)
    p = run(site, [], b"", code=code)
    assert p.stdout.split("\n", 1)[0] == "64", p.stderr
    assert "agenthooks run --provider=<agent>" in p.stdout


# ------------------------------------------------ the shared runtime vectors
# fixtures/runtime/*.json through the stand-in (main as a process, run()
# in-process). The stand-in cannot decode or run handlers, so it is held to the
# vector's outcome class: usage (exit 64), block (exit 2 or the agent's JSON
# deny), or no opinion (exit 0, empty or `{}` stdout); exactly (exit code and
# stdout) where the core's answer does not depend on decoding (an unknown
# provider, usage, serve). Where a vector cannot apply, the reason is here.

HANDLER_ONLY = ("the core's answer is the vector guard's own deny under a fail-open router; without the core "
                "no handler runs and fail open answers no opinion, which is what is checked here (the argv "
                "rule the vector pins is attacked in test_attack_* above)")
MODE_ONLY = ("the core's answer is the vector guard's ask as the session mode shapes it (issue 14); without "
             "the core no handler runs and fail open answers no opinion")
#: Vectors whose expected class the stand-in cannot give, with the class it
#: must give instead and why.
STAND_IN_CLASS = {
    "runtime/argv-json-before-the-word": ("none", HANDLER_ONLY),
    "runtime/argv-json-last-with-stdin": ("none", HANDLER_ONLY),
    "runtime/argv-payload-empty-stdin": ("none", HANDLER_ONLY),
    "runtime/deep-tool-input": ("none", HANDLER_ONLY),
    "runtime/huge-max-bytes": ("none", HANDLER_ONLY + "; the huge limit must not break the stdin read"),
    "runtime/huge-numbers": ("none", HANDLER_ONLY),
    "runtime/lone-surrogate": ("none", HANDLER_ONLY),
    "runtime/typo-option-space-form": ("none", HANDLER_ONLY),
    "runtime/match-admits-the-class": ("none", HANDLER_ONLY),
    "runtime/mode-claude-ci-deny": ("none", MODE_ONLY),
    "runtime/mode-claude-headless-argv-deny": ("none", MODE_ONLY),
    "runtime/mode-claude-headless-env-deny": ("none", MODE_ONLY),
    "runtime/mode-claude-headless-native": ("none", MODE_ONLY),
    "runtime/mode-claude-interactive-env-ask": ("none", MODE_ONLY),
    "runtime/mode-claude-unknown-ask": ("none", MODE_ONLY),
    "runtime/mode-codex-exec-deny": ("none", MODE_ONLY),
    "runtime/mode-copilot-headless-p-deny": ("none", MODE_ONLY),
    "runtime/mode-cursor-headless-p-deny": ("none", MODE_ONLY),
    "runtime/mode-gemini-headless-native-never-hangs": ("none", MODE_ONLY),
    "runtime/mode-gemini-headless-p-deny": ("none", MODE_ONLY),
    "runtime/mode-gemini-headless-positional-deny": ("none", MODE_ONLY),
    "runtime/mode-gemini-headless-stdin-deny": ("none", MODE_ONLY),
    "runtime/mode-gemini-interactive-ask": ("none", MODE_ONLY),
    "runtime/mode-gemini-interactive-flag-ask": ("none", MODE_ONLY),
    "runtime/mode-gemini-unknown-degrades": ("none", MODE_ONLY),
    "runtime/mode-kimi-headless-p-deny": ("none", MODE_ONLY),
    "runtime/match-other-class-is-a-noop": ("block", "the stand-in cannot evaluate --match (it does not decode), "
                                            "so the fail-closed router blocks the call the core lets through"),
}
#: stderr mentions that come from the core's decoder (its error codes and
#: event-name hints): the stand-in does not decode; its stderr names
#: native_unavailable instead (checked for every vector).
FROM_THE_DECODER = {
    "runtime/deep-array-fail-closed": {"not_an_object"},
    "runtime/lowercase-event-fail-closed": {"`pretooluse`", "did you mean `PreToolUse`"},
    "runtime/nested-stop-name-is-not-the-event": {"invalid_utf8"},
    "runtime/stop-invalid-utf8-fail-closed": {"invalid_utf8"},
    "runtime/stop-too-large-fail-closed": {"too_large"},
    "runtime/mode-claude-ci-deny": {"agenthooks: note: headless ask -> deny (headless (ci:GITHUB_ACTIONS=true) session"},  # the core's session-mode note or answer
    "runtime/mode-claude-headless-argv-deny": {"agenthooks: note: headless ask -> deny (headless (argv:-p) session"},  # the core's session-mode note or answer
    "runtime/mode-claude-headless-env-deny": {"agenthooks: note: headless ask -> deny (headless (env:CLAUDE_CODE_SESSION_ATTENDED=0) session"},  # the core's session-mode note or answer
    "runtime/mode-claude-headless-no-decision": {"agenthooks: note: headless ask -> no_decision (headless (env:CLAUDE_CODE_SESSION_ATTENDED=0) session"},  # the core's session-mode note or answer
    "runtime/mode-codex-exec-deny": {"agenthooks: note: headless ask -> deny (headless (argv:exec) session"},  # the core's session-mode note or answer
    "runtime/mode-copilot-headless-p-deny": {"agenthooks: note: headless ask -> deny (headless (argv:-p) session"},  # the core's session-mode note or answer
    "runtime/mode-cursor-headless-p-deny": {"agenthooks: note: headless ask -> deny (headless (argv:-p) session"},  # the core's session-mode note or answer
    "runtime/mode-gemini-headless-native-never-hangs": {"agenthooks: note: degraded ask -> deny (Gemini CLI asks only in a session known to be interactive; session mode: headless (argv:-p))"},  # the core's session-mode note or answer
    "runtime/mode-gemini-headless-no-decision": {"agenthooks: note: headless ask -> no_decision (headless (argv:-p) session"},  # the core's session-mode note or answer
    "runtime/mode-gemini-headless-p-deny": {"agenthooks: note: headless ask -> deny (headless (argv:-p) session"},  # the core's session-mode note or answer
    "runtime/mode-gemini-headless-positional-deny": {"agenthooks: note: headless ask -> deny (headless (argv:positional prompt) session"},  # the core's session-mode note or answer
    "runtime/mode-gemini-headless-stdin-deny": {"agenthooks: note: headless ask -> deny (headless (tty:stdin is not a terminal) session"},  # the core's session-mode note or answer
    "runtime/mode-gemini-unknown-degrades": {"agenthooks: note: degraded ask -> deny (Gemini CLI asks only in a session known to be interactive; session mode: unknown)"},  # the core's session-mode note or answer
    "runtime/mode-kimi-headless-no-decision": {"agenthooks: note: headless ask -> no_decision (headless (argv:--print) session"},  # the core's session-mode note or answer
    "runtime/mode-kimi-headless-p-deny": {"vector guard: needs approval\n"},  # the core's session-mode note or answer
    "runtime/other-agents-payload": {"warning: cursor sent the event `PreToolUse`", "did you mean `preToolUse`",
                                     "looks like Claude Code's (is `--provider=claude-code` meant?)"},
}
KNOWN_PROVIDERS = {"claude-code", "opencode"}

VECTOR_GUARD = """
import json, os
import agenthooks as ah

router = ah.Router(policy=ah.Policy(fail=json.loads(os.environ["AH_VECTOR_POLICY"]).get("fail", "open")))

@router.on_tool_pre
def guard(e):
    if "rm -rf" in (e.tool.command or ""):
        return ah.deny("vector guard: rm -rf is not allowed")
    return None

ah.main(router, argv=json.loads(os.environ["AH_VECTOR_ARGV"]))
"""

VECTOR_RUN = """
import base64, json, os, sys
import agenthooks as ah

out = []
for c in json.load(open(sys.argv[1])):
    router = ah.Router(policy=ah.Policy(fail=c["router"].get("fail", "open")))
    router.on_tool_pre(lambda e: ah.deny("vector guard: rm -rf is not allowed"))
    r = ah.run(router, c["argv"], base64.b64decode(c["stdin"]))
    out.append({"stdout": r.stdout, "stderr": r.stderr, "exit_code": r.exit_code})
print(json.dumps(out))
"""


def outcome(stdout: str, code: int) -> str:
    """The outcome class of an answer (Claude Code's forms: the vectors
    name claude-code, an unknown provider, or serve)."""
    if code in (2, 64):
        return {2: "block", 64: "usage"}[code]
    if code == 0 and stdout.startswith("usage: "):
        return "help"
    if code != 0:
        return f"exit {code}"
    if stdout.strip() in ("", "{}"):
        return "none"
    v = json.loads(stdout)
    hso = v.get("hookSpecificOutput") or {}
    if hso.get("permissionDecision") == "deny" or (hso.get("decision") or {}).get("behavior") == "deny":
        return "block"
    return "other"


def vector_cases() -> List[Dict[str, Any]]:
    from test_runtime_vectors import load, stdin_of, vectors

    return [{**load(f), "stdin_bytes": stdin_of(load(f))} for f in vectors()]


def check_vector(c: Dict[str, Any], stdout: str, stderr: str, code: int, how: str) -> None:
    e: Dict[str, Any] = c["expect"]
    name = str(c["name"])
    where = f"{name} ({how}): exit {code}, stdout {stdout!r}, stderr {stderr!r}"
    want_stdout = e["stdout"] if "stdout" in e else json.dumps(e["stdout_json"])
    want = outcome(str(want_stdout), int(e["exit_code"]))
    if name in STAND_IN_CLASS:
        want = STAND_IN_CLASS[name][0]
    assert outcome(stdout, code) == want, where
    argv = [str(a) for a in c["argv"]]
    provider = next((a.split("=", 1)[1] for a in argv if a.startswith("--provider=")), None)
    # (A vector held to a class above is checked by its class only.)
    exact = provider not in KNOWN_PROVIDERS and name not in STAND_IN_CLASS
    if want in ("usage", "help") or exact or "serve" in argv:
        # Not decoded by the core either: the exact exit code and stdout.
        def norm(s: Any) -> Any:
            try:
                return json.loads(s)
            except (TypeError, ValueError):
                return s
        assert (code, norm(stdout)) == (e["exit_code"], norm(want_stdout)), where
    for s in e.get("stderr_contains", []):
        if s not in FROM_THE_DECODER.get(name, set()):
            assert s in stderr, f"{where} lacks {s!r}"
    assert MARKER in stderr, where


def test_runtime_vectors_through_the_stand_in(site: pathlib.Path, tmp_path: pathlib.Path) -> None:
    import base64

    cases = vector_cases()
    assert set(STAND_IN_CLASS) | set(FROM_THE_DECODER) <= {c["name"] for c in cases}
    (site / "vector_guard.py").write_text(VECTOR_GUARD)
    for c in cases:
        env = {"AH_VECTOR_ARGV": json.dumps(c["argv"]), "AH_VECTOR_POLICY": json.dumps(c.get("router", {})),
               "AGENTHOOKS_STATE_DIR": str(tmp_path / "state")}
        e = {k: v for k, v in os.environ.items() if not k.startswith("AH_") and k != "AGENTHOOKS_NOTES"}
        e.update(PYTHONPATH=str(site), **env)
        p = subprocess.run([PYTHON, "-s", str(site / "vector_guard.py")], input=c["stdin_bytes"],
                           capture_output=True, env=e, timeout=60, cwd=site)
        check_vector(c, p.stdout.decode(), p.stderr.decode(), p.returncode, "main")
    batch = tmp_path / "vectors.json"
    batch.write_text(json.dumps([{"argv": c["argv"], "router": c.get("router", {}),
                                  "stdin": base64.b64encode(c["stdin_bytes"]).decode()}
                                 for c in cases]))
    p = run(site, [str(batch)], b"", code=VECTOR_RUN)
    assert p.returncode == 0, p.stderr
    answers = json.loads(p.stdout)
    for c, a in zip(cases, answers):
        check_vector(c, a["stdout"], a["stderr"], a["exit_code"], "run")
    print(f"stand-in runtime vectors ({site.name}): {len(cases)} of {len(cases)}, "
          f"{len(STAND_IN_CLASS)} held to the fail-open class (see STAND_IN_CLASS)")


def test_the_stand_in_reads_argv_exactly_as_the_core() -> None:
    # Differential, with the native core loaded: the stand-in's plan of many
    # argv shapes (typos, missing values, options as values, decoy JSON,
    # huge numbers) equals the core's `runtime::launch` plan field by field.
    import random

    from agenthooks import _failsafe, _native

    vocab = [
        "run", "serve", "runn", "x", "5", "10", "Stop", "kimi", "--", "-v", "",
        "--provider", "--provider=claude-code", "--provider=Claude", "--provider= gemini_CLI ",
        "--provider=claude-cod", "--provider=", "--agent", "--dialect=openclaw",
        "--fail", "--fail=closed", "--fail=open", "--fail=closd", "--fail=", "--fail=Closed",
        "--timeout", "--timeout=ten", "--timeout=1e999", "--timeout=+.5", "--timeout= 5 ",
        "--timeout=0", "--timeout=1_0", "--timeout=5.", "--timeout=inf", "--timeout=-1",
        "--max-bytes=18446744073709551615", "--max-bytes=18446744073709551616", "--max-bytes=+7",
        "--max-bytes=-0", "--max-bytes=0007", "--max-bytes=", "--max-bytes", "--max-bytes=1_0",
        "--timout=5", "--timout", "--event", "--event=Stop", "--variant=v", "--hook-id=h",
        "--match=Bash", "--fail=open=closed", "--provider=codex=x",
        '{"hook_event_name":"Stop"}', ' {"a":1} ', "{bad}", '{"a":NaN}', "[1]", "{}",
    ]
    rng = random.Random(22)
    shapes = [["guard", "agenthooks", *rng.choices(vocab, k=rng.randint(0, 6))] for _ in range(3000)]
    shapes += [["guard", '{"hook_event_name":"Stop"}', "agenthooks", "run"], ["guard", "run"], ["agenthooks"]]
    assert len({tuple(s) for s in shapes}) > 2000, "the shapes are varied"
    for argv in shapes:
        core = _native.launch(argv)
        mine = _failsafe._launch(argv)
        if isinstance(core, ah.Response):
            # No word (usage), or `serve` with a problem (answered in launch).
            assert mine is None or (mine.command == "serve" and mine.problem is not None), argv
            continue
        assert mine is not None, argv
        want = (core.command, core.provider, core.event, core.timeout_s, core.fail, core.max_bytes,
                core.warnings, core.problem, core.argv_payload)
        got = (mine.command, mine.provider, mine.event, mine.timeout_s, mine.fail, mine.max_bytes,
               mine.warnings, mine.problem, mine.argv_payload is not None)
        assert got == want, argv
