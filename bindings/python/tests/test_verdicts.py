"""Every vector of fixtures/simulate/verdicts/verdicts.json through the
core's verdict (agenthooks.testing.verdict), and the assert_* helpers
agreeing with it."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence

import pytest

import agenthooks as ah
import agenthooks.testing as aht
from agenthooks.testing import Outcome

from conftest import FIXTURES, load_json

CASES: List[Dict[str, Any]] = load_json(FIXTURES / "simulate" / "verdicts" / "verdicts.json")["cases"]

ASSERTS: Dict[str, Callable[[Sequence[Outcome]], None]] = {
    "blocked_everywhere": aht.assert_blocked_everywhere,
    "runs_everywhere": aht.assert_runs_everywhere,
    "no_empty_allow": aht.assert_no_empty_allow,
}


def test_there_are_vectors() -> None:
    assert len(CASES) >= 10


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_verdict_vector(case: Dict[str, Any]) -> None:
    outcomes = [Outcome._from(o) for o in case["outcomes"]]
    v = aht.verdict(case["assertion"], outcomes)
    assert v["holds"] is case["holds"]
    assert v["checked"] == case["checked"]
    assert [{"index": b["index"], "agent": b["agent"]} for b in v["offending"]] == case["offending"]
    assert all(b["reason"] for b in v["offending"])
    assert ("nothing_checked" in v) is case["nothing_checked"]
    check = ASSERTS[case["assertion"]]
    if case["holds"]:
        check(outcomes)
    else:
        with pytest.raises(AssertionError):
            check(outcomes)


def test_unknown_assertion_is_an_error() -> None:
    with pytest.raises(ah.AgentHooksError):
        aht.verdict("blocked_somewhere", [])
