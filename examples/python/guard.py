"""Example hook: one program that guards every agent.

The Python twin of examples/rust/guard, answering exactly as it does. Wire
it as ``python3 <path>/guard.py agenthooks run --provider=claude-code`` (or
``codex``, ``cursor``, ...). It denies destructive shell commands, asks
before force-pushes, rewrites ``npm install`` to ``npm ci``, adds context at
session start, and keeps the agent going once if it stops before running
tests.
"""

import agenthooks as ah

router = ah.Router(policy=ah.Policy(fail="closed", ask_fallback="deny"))


@router.on_tool_pre
def guard(event: ah.ToolPreEvent) -> ah.Decision:
    cmd = event.tool.command or ""
    if event.tool.canonical != ah.Canonical.SHELL:
        return ah.no_decision()
    if "rm -rf" in cmd:
        return ah.deny(f"destructive command: {cmd}").with_block_reason(
            "agenthooks guard blocked a destructive shell command"
        )
    if "git push --force" in cmd or "git push -f" in cmd:
        return ah.ask("Force-pushing rewrites shared history; a human must approve it.")
    if cmd.strip() == "npm install":
        tool_input = event.tool.input
        tool_input["command"] = "npm ci"
        return ah.allow().with_updated_input(tool_input)
    if cmd.startswith("ls") or cmd.startswith("pwd"):
        return ah.allow()
    return ah.no_decision()


@router.on_session_start
def project_rules(event: ah.SessionStartEvent) -> ah.Decision:
    return ah.no_decision().with_context("Project rule: run the test suite before finishing.")


@router.on_stop
def keep_going_until_tested(event: ah.StopEvent) -> ah.Decision:
    ran_tests = "test" in (event.stop.final_message or "")
    if event.stop.previously_continued or ran_tests:
        return ah.finish()
    return ah.continue_with("Run the test suite and report the result before you finish.")


if __name__ == "__main__":
    ah.main(router)
