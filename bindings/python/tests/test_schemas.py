"""The wheel ships the JSON Schemas as package data (agenthooks/schemas/)."""

import json
from importlib import resources
from typing import Any, Dict


def _load(rel: str) -> Dict[str, Any]:
    root = resources.files("agenthooks").joinpath("schemas")
    value: Dict[str, Any] = json.loads(root.joinpath(rel).read_text(encoding="utf-8"))
    return value


def test_the_wheel_ships_every_indexed_schema() -> None:
    index = _load("index.json")
    assert set(index["agents"]) == {
        "claude-code", "codex", "cursor", "gemini",
        "kimi-code", "copilot", "opencode", "openclaw",
    }
    n = 0
    for agent, entry in index["agents"].items():
        assert entry["version"]
        for event, paths in entry["events"].items():
            for which in ("input", "output"):
                schema = _load(paths[which])
                assert schema["title"] == f"{agent} {event} {which}"
                assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
                n += 1
    assert n > 400
    assert _load("canonical/decision.json")["title"] == "canonical decision"
