"""The README's snippets run as tests (STYLE.md §8): each ```python block
executes, and the ten-line hook also runs as a real hook process."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Dict, List

import pytest

from conftest import PYTHON, ROOT, run_hook

README = ROOT / "bindings" / "python" / "README.md"
SNIPPET = re.compile(r"<!-- snippet: ([\w-]+) -->\n```python\n(.*?)```", re.S)


def snippets() -> Dict[str, str]:
    found = dict(SNIPPET.findall(README.read_text()))
    blocks = README.read_text().count("```python")
    assert len(found) == blocks, "every python block in the README is a named snippet"
    return found


def test_readme_has_the_ten_line_example() -> None:
    guard = snippets()["guard"]
    code_lines = [ln for ln in guard.splitlines() if ln.strip()]
    assert len(code_lines) <= 10, code_lines


@pytest.mark.parametrize("name", sorted(snippets()))
def test_snippet_runs(name: str) -> None:
    code = snippets()[name]
    exec(compile(code, f"README.md:{name}", "exec"), {"__name__": f"readme_{name}"})


def test_ten_line_example_is_a_working_hook(tmp_path: pathlib.Path) -> None:
    hook = tmp_path / "guard.py"
    hook.write_text(snippets()["guard"])
    pre = b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t"}'
    outs: List[str] = []
    for provider in ("claude-code", "codex"):
        p = run_hook([PYTHON, str(hook), "agenthooks", "run", f"--provider={provider}"], pre)
        assert p.returncode == 0, p.stderr
        outs.append(json.loads(p.stdout)["hookSpecificOutput"]["permissionDecision"])
    assert outs == ["deny", "deny"]
