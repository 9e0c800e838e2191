"""The test-kit surface of _native: every behaviour vector of fixtures/simulate
(and fixtures/simulate/observed, when present) through predict_json, the
shipped corpus, scenario payloads and one simulate_json run."""

from __future__ import annotations

import json
import pathlib
from typing import Any, Dict, List, Tuple

from agenthooks import _native

from conftest import ROOT

DIR = ROOT / "fixtures" / "simulate"


def vector_files() -> List[Tuple[pathlib.Path, bool]]:
    files = [(f, False) for f in sorted(DIR.glob("*.json"))]
    if (DIR / "observed").is_dir():
        files += [(f, True) for f in sorted((DIR / "observed").glob("*.json"))]
    return files


def call(fn: Any, req: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = json.loads(fn(json.dumps(req)))
    return out


def test_every_behaviour_vector() -> None:
    ran = 0
    for f, observed in vector_files():
        doc = json.loads(f.read_text())
        for r in doc["rows"]:
            # observed rows: headless runs, warnings a subset (fixtures/simulate/README.md)
            req = {"agent": doc["agent"], "event": r["event"], "answer": r["answer"],
                   "mode": "headless" if observed else "interactive"}
            if r.get("tool"):
                req["tool"] = r["tool"]
            p = call(_native.predict_json, req)
            rid = f"{f.name}/{r['name']}"
            assert p["effect"] == r["effect"], rid
            got = sorted(w["code"] for w in p.get("warnings", []))
            if observed:
                assert set(r.get("warnings", [])) <= set(got), rid
            else:
                assert got == sorted(r.get("warnings", [])), rid
            for k in ("model_sees", "user_sees"):
                if k not in r:
                    continue
                if r[k] is None:
                    assert k not in p, f"{rid}: {k}"
                else:
                    assert r[k] in p.get(k, ""), f"{rid}: {k} {p.get(k)}"
            ran += 1
    assert ran >= 100, ran


def test_corpus_payloads_and_simulate() -> None:
    fx = call(_native.fixture_corpus_json, {"agent": "copilot", "kind": "tool.pre"})["fixtures"]
    assert len(fx) > 3 and all(f["agent"] == "copilot" for f in fx)
    cases = call(_native.scenario_payloads_json, {"scenarios": [{"event": "stop"}], "cwd": "/tmp"})["cases"]
    assert len(cases) == 8
    out = call(
        _native.simulate_json,
        {
            "command": ["sh", "-c", "cat >/dev/null; echo nope >&2; exit 2"],
            "scenarios": [{"event": "tool.pre", "command": "rm -rf build"}],
            "agents": ["claude-code", "cursor"],
            "cwd": "/tmp",
            "timeout_ms": 10000,
        },
    )["outcomes"]
    assert [o["prediction"]["effect"] for o in out] == ["tool_blocked", "tool_blocked"]
    bad = call(_native.predict_json, {"agent": "codex"})
    assert bad["error"]["code"] == "invalid_argument"
